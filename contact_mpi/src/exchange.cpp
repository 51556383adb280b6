// SPDX-License-Identifier: MIT
#include "exchange.hpp"

#include "detail/radix_sort.hpp"

#include <climits>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace contact::mpi::detail {

namespace {

// From this size on, blocks are mapped on their own and ask for transparent huge pages (Linux):
// glibc would serve many of them from its heap, and the request would mark the heap with them.
constexpr std::size_t kHuge = std::size_t{2} << 20U;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
constexpr bool kMapped = true;

// A mapping of n bytes (a multiple of kHuge) starting on a kHuge boundary; where the larger
// mapping made for it starts, and its size, are kept just before (mmap gives whole pages, so
// the boundary is at least a page in).
char* mapAligned(std::size_t n) {
    const std::size_t total = n + 2 * kHuge;
    void* map = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        throw std::bad_alloc();
    }
    char* base = static_cast<char*>(map);
    const std::size_t skip = kHuge - reinterpret_cast<std::uintptr_t>(base) % kHuge;
    char* at = base + skip;
    madvise(at, n, MADV_HUGEPAGE);  // a request: where refused, small pages serve
    const std::size_t head[2] = {skip, total};
    std::memcpy(at - sizeof head, head, sizeof head);
    return at;
}

void unmapAligned(void* p) noexcept {
    char* at = static_cast<char*>(p);
    std::size_t head[2];
    std::memcpy(head, at - sizeof head, sizeof head);
    munmap(at - head[0], head[1]);
}
#else
constexpr bool kMapped = false;
char* mapAligned(std::size_t /*n*/) { return nullptr; }
void unmapAligned(void* /*p*/) noexcept {}
#endif

std::size_t mappedSize(std::size_t n) noexcept { return (n + kHuge - 1) / kHuge * kHuge; }

}  // namespace

void RawBuffer::freeBytes(void* p, std::size_t n) noexcept {
    if (p == nullptr) {
        return;
    }
    if (kMapped && n >= kHuge) {
        unmapAligned(p);
    } else {
        std::free(p);  // NOLINT(cppcoreguidelines-no-malloc)
    }
}

char* RawBuffer::allocateBytes(std::size_t n, std::size_t& capacity) {
    if (kMapped && n >= kHuge) {
        capacity = mappedSize(n);
        return mapAligned(capacity);
    }
    void* p = std::malloc(n);  // NOLINT(cppcoreguidelines-no-malloc)
    if (p == nullptr && n > 0) {
        throw std::bad_alloc();
    }
    capacity = n;
    return static_cast<char*>(p);
}

void Exchange::start(int size) {
    size_ = size;
    sendCount_.assign(static_cast<std::size_t>(size), 0);
}

void Exchange::allocate(bool keepReceived) {
    std::size_t total = 0;
    for (const std::size_t c : sendCount_) {
        total += c;
    }
    if (!keepReceived && total > send_.capacity() && total <= recv_.capacity()) {
        std::swap(send_, recv_);  // no fresh pages
    }
    char* at = send_.reserve(total);
    cursor_.resize(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
        cursor_[r] = at;
        at += sendCount_[r];
    }
}

void Exchange::run(MPI_Comm comm, long long& bytesSent) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const auto n = static_cast<std::size_t>(size_);
    counts_.resize(2 * n);
    long long sendTotal = 0;
    for (std::size_t r = 0; r < n; ++r) {
        counts_[r] = static_cast<long long>(sendCount_[r]);
        sendTotal += counts_[r];
        if (static_cast<int>(r) != rank) {
            bytesSent += counts_[r];
        }
    }
    MPI_Alltoall(counts_.data(), 1, MPI_LONG_LONG, counts_.data() + n, 1, MPI_LONG_LONG, comm);
    long long recvTotal = 0;
    for (std::size_t r = 0; r < n; ++r) {
        recvTotal += counts_[n + r];
    }
    int tooLarge = sendTotal >= INT_MAX || recvTotal >= INT_MAX ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &tooLarge, 1, MPI_INT, MPI_MAX, comm);
    if (tooLarge != 0) {
        throw std::runtime_error("contact::mpi: a rank would exchange 2 GiB or more at once; "
                                 "use more ranks");
    }
    recvAt_.assign(n + 1, 0);
    for (std::size_t r = 0; r < n; ++r) {
        recvAt_[r + 1] = recvAt_[r] + static_cast<std::size_t>(counts_[n + r]);
    }
    const auto self = static_cast<std::size_t>(rank);
    const auto mine = static_cast<long long>(sendCount_[self]);
    if (sendTotal == mine && recvTotal == mine) {
        // Only this rank's own records: they stay where they were written.
        std::swap(send_, recv_);
        return;
    }
    // Point to point with the ranks that send or receive anything; this rank's own by a copy.
    char* in = recv_.reserve(static_cast<std::size_t>(recvTotal));
    requests_.clear();
    for (std::size_t r = 0; r < n; ++r) {
        if (r != self && counts_[n + r] > 0) {
            requests_.push_back(MPI_REQUEST_NULL);
            MPI_Irecv(in + recvAt_[r], static_cast<int>(counts_[n + r]), MPI_BYTE,
                      static_cast<int>(r), kTag, comm, &requests_.back());
        }
    }
    std::size_t at = 0;
    for (std::size_t r = 0; r < n; ++r) {
        if (r == self) {
            std::copy(send_.data() + at, send_.data() + at + sendCount_[r], in + recvAt_[r]);
        } else if (sendCount_[r] > 0) {
            requests_.push_back(MPI_REQUEST_NULL);
            MPI_Isend(send_.data() + at, static_cast<int>(sendCount_[r]), MPI_BYTE,
                      static_cast<int>(r), kTag, comm, &requests_.back());
        }
        at += sendCount_[r];
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void radixSort(Scratch<std::uint64_t>& keys, Scratch<Index>& values, Scratch<std::uint64_t>& keyTmp,
               Scratch<Index>& valueTmp) {
    const std::size_t n = keys.size();
    if (n < 2) {
        return;
    }
    std::uint64_t differ = 0;
    bool sorted = true;
    for (std::size_t i = 1; i < n; ++i) {
        differ |= keys[i] ^ keys[0];
        sorted = sorted && keys[i - 1] <= keys[i];
    }
    if (sorted) {
        return;
    }
    int bits = 0;
    while (bits < 64 && (differ >> bits) != 0) {
        ++bits;
    }
    keyTmp.resize(n);
    valueTmp.resize(n);
    contact::detail::radixSortPasses(keys, &values, keyTmp, &valueTmp, 0, bits);
}

void abortJob(MPI_Comm comm, const char* call, const char* what) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::fprintf(stderr,
                 "contact::mpi: rank %d: %s: %s; the other ranks cannot go on without it: "
                 "MPI_Abort\n",
                 rank, call, what);
    std::fflush(stderr);
    MPI_Abort(comm, 1);
    std::abort();  // MPI_Abort does not return
}

void agreeOnErrors(MPI_Comm comm, const std::string& error) {
    int size = 0;
    int rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int first = error.empty() ? size : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size) {
        return;
    }
    int length = rank == first ? static_cast<int>(error.size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    std::string message =
        rank == first ? error : std::string(static_cast<std::size_t>(length), ' ');
    MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
    throw std::invalid_argument(message);
}

}  // namespace contact::mpi::detail
