// SPDX-License-Identifier: MIT
// Messages between ranks: a sparse all-to-all of plain records through buffers kept between
// calls, a radix sort for the directories, and the collective agreement on errors that keeps
// every rank on the same path.
#pragma once

#include "contact/types.hpp"

#include <mpi.h>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace contact::mpi::detail {

/// Bytes left uninitialized, kept between calls and grown with a margin. Fresh pages fault one
/// by one when first written (on some virtual machines tens of microseconds each), so every
/// large buffer of the set-up and the updates is one of these, reused; large ones ask for
/// transparent huge pages where the kernel offers them on request (one fault per 2 MiB).
class RawBuffer {
public:
    /// Room for n bytes; the contents are not kept. Grows to twice what is asked: pages never
    /// written cost nothing, and the next larger round fits.
    char* reserve(std::size_t n) {
        if (n > capacity_) {
            bytes_.reset();
            capacity_ = 0;
            char* p = allocateBytes(2 * n, capacity_);
            bytes_ = std::unique_ptr<char, Free>(p, Free{2 * n});
        }
        return bytes_.get();
    }
    [[nodiscard]] char* data() noexcept { return bytes_.get(); }
    [[nodiscard]] const char* data() const noexcept { return bytes_.get(); }
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

    /// At least n bytes (their number in `capacity`); freed by freeBytes(p, n).
    static char* allocateBytes(std::size_t n, std::size_t& capacity);
    static void freeBytes(void* p, std::size_t n) noexcept;

private:
    struct Free {
        std::size_t n;
        void operator()(char* p) const noexcept { freeBytes(p, n); }
    };
    std::unique_ptr<char, Free> bytes_{nullptr, Free{0}};
    std::size_t capacity_ = 0;
};

/// The allocator of the large arrays of the state: RawBuffer's pages (huge where offered).
template <class T>
struct BigAllocator {
    using value_type = T;
    BigAllocator() = default;
    template <class U>
    BigAllocator(const BigAllocator<U>& /*other*/) noexcept {}  // NOLINT: converting, as std's
    T* allocate(std::size_t n) {
        std::size_t capacity = 0;
        return reinterpret_cast<T*>(RawBuffer::allocateBytes(n * sizeof(T), capacity));
    }
    void deallocate(T* p, std::size_t n) noexcept { RawBuffer::freeBytes(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const BigAllocator<U>& /*other*/) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const BigAllocator<U>& /*other*/) const noexcept {
        return false;
    }
};

/// A large array of the state (per node, per segment, per pair).
template <class T>
using Big = std::vector<T, BigAllocator<T>>;

/// A vector that keeps its storage: resize() neither shrinks nor zeroes beyond what it grows to,
/// and grows with a margin. For the scratch arrays of the set-up (trivially copyable T).
template <class T>
class Scratch {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    /// n entries, their values unspecified.
    T* resize(std::size_t n) {
        size_ = n;
        return reinterpret_cast<T*>(buffer_.reserve(n * sizeof(T)));
    }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] T* data() noexcept { return reinterpret_cast<T*>(buffer_.data()); }
    [[nodiscard]] const T* data() const noexcept {
        return reinterpret_cast<const T*>(buffer_.data());
    }
    T& operator[](std::size_t i) noexcept { return data()[i]; }
    const T& operator[](std::size_t i) const noexcept { return data()[i]; }
    [[nodiscard]] T* begin() noexcept { return data(); }
    [[nodiscard]] T* end() noexcept { return data() + size_; }

private:
    RawBuffer buffer_;
    std::size_t size_ = 0;
};

/// Reads plain values back in the order they were written.
class ByteReader {
public:
    ByteReader(const char* first, const char* last) noexcept : p_(first), end_(last) {}
    template <class T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>);
        if (static_cast<std::size_t>(end_ - p_) < sizeof(T)) {
            throw std::logic_error("contact::mpi: a message ended inside a record");
        }
        T v;
        std::memcpy(&v, p_, sizeof(T));
        p_ += sizeof(T);
        return v;
    }
    [[nodiscard]] bool done() const noexcept { return p_ == end_; }

private:
    const char* p_;
    const char* end_;
};

/// Sparse all-to-all of plain records: count what goes to each rank, allocate, write, run. The
/// send and receive buffers are kept between rounds; a round in which every rank only writes to
/// itself moves no byte (the buffers trade places).
class Exchange {
public:
    /// A new round for `size` ranks: every count zero.
    void start(int size);
    /// Counting pass: n more bytes to rank r.
    void count(int r, std::size_t n) noexcept { sendCount_[r] += n; }
    /// After counting: room for the counted bytes; the writing pass follows. What the last round
    /// received may be overwritten (the larger buffer serves), unless `keepReceived`.
    void allocate(bool keepReceived = false);
    /// Writing pass: v appended to rank r's bytes (as counted).
    template <class T>
    void put(int r, const T& v) noexcept {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(cursor_[r], &v, sizeof(T));
        cursor_[r] += sizeof(T);
    }
    template <class T>
    void put(int r, const T* v, std::size_t n) noexcept {
        static_assert(std::is_trivially_copyable_v<T>);
        if (n > 0) {
            std::memcpy(cursor_[r], v, n * sizeof(T));
        }
        cursor_[r] += n * sizeof(T);
    }
    /// Collective: sends what was written, receives this rank's part. Adds the bytes sent to
    /// other ranks to `bytesSent`. Every rank throws std::runtime_error when any rank would send
    /// or receive 2 GiB or more at once (MPI's int counts).
    void run(MPI_Comm comm, long long& bytesSent);

    /// After run(): what rank r sent.
    [[nodiscard]] ByteReader from(int r) const noexcept {
        return {recv_.data() + recvAt_[r], recv_.data() + recvAt_[r + 1]};
    }
    /// After run(): where rank r's bytes start among the received bytes (r = size: their end).
    [[nodiscard]] std::size_t runStart(int r) const noexcept { return recvAt_[r]; }
    /// After run(): the rank that sent the received byte at `at`.
    [[nodiscard]] int sourceOf(std::size_t at) const noexcept {
        return static_cast<int>(std::upper_bound(recvAt_.begin(), recvAt_.end(), at) -
                                recvAt_.begin()) -
               1;
    }
    /// After run(): the bytes received, in all.
    [[nodiscard]] std::size_t received() const noexcept { return recvAt_.back(); }
    /// After run(), when every rank sent records of T only: the records, received() / sizeof(T)
    /// of them, in rank order (they may be reordered in place).
    template <class T>
    [[nodiscard]] const T* records() const noexcept {
        static_assert(std::is_trivially_copyable_v<T>);
        assert(received() % sizeof(T) == 0);
        return reinterpret_cast<const T*>(recv_.data());  // aligned: whole records from 0
    }
    /// After run(): the received bytes.
    [[nodiscard]] const char* receivedBytes() const noexcept { return recv_.data(); }

private:
    int size_ = 0;
    std::vector<std::size_t> sendCount_;
    std::vector<std::size_t> recvAt_;
    std::vector<char*> cursor_;
    std::vector<long long> counts_;  // send then receive counts, for MPI_Alltoall
    std::vector<MPI_Request> requests_;
    static constexpr int kTag = 7100;
    RawBuffer send_;
    RawBuffer recv_;
};

/// The records of T received from every rank (each rank's run of them ordered by `less`) in one
/// order by `less`, ties in rank order: their indices, into `order`. A merge of the runs.
template <class T, class Less>
void mergeRuns(const Exchange& ex, int size, Less less, Scratch<Index>& order) {
    const T* rec = ex.records<T>();
    Index* out = order.resize(ex.received() / sizeof(T));
    struct Head {
        Index at;
        Index end;
    };
    std::vector<Head> heads;
    for (int r = 0; r < size; ++r) {
        const auto at = static_cast<Index>(ex.runStart(r) / sizeof(T));
        const auto end = static_cast<Index>(ex.runStart(r + 1) / sizeof(T));
        if (at < end) {
            heads.push_back({at, end});
        }
    }
    // The heads form a binary heap by (record, run): few runs, most from few ranks.
    const auto after = [&](const Head& a, const Head& b) {
        return less(rec[b.at], rec[a.at]) || (!less(rec[a.at], rec[b.at]) && b.at < a.at);
    };
    std::make_heap(heads.begin(), heads.end(), after);
    Index k = 0;
    while (!heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), after);
        Head& h = heads.back();
        out[k++] = h.at++;
        if (h.at == h.end) {
            heads.pop_back();
        } else {
            std::push_heap(heads.begin(), heads.end(), after);
        }
    }
}

/// Sorts values by key, stable: LSD radix over the bits in which the keys differ (11 bits a
/// pass). The scratch is the caller's, kept between calls.
void radixSort(Scratch<std::uint64_t>& keys, Scratch<Index>& values, Scratch<std::uint64_t>& keyTmp,
               Scratch<Index>& valueTmp);

/// A global id as a radix key in the same order.
[[nodiscard]] inline std::uint64_t idKey(std::int64_t id) noexcept {
    return static_cast<std::uint64_t>(id) ^ (std::uint64_t{1} << 63U);
}

/// Collective: every rank passes its error message ("" = none). When any rank has one, every
/// rank throws std::invalid_argument with the message of the lowest such rank.
void agreeOnErrors(MPI_Comm comm, const std::string& error);

/// Out of memory (or another failure no agreement covers) on this rank in the middle of collective
/// work: the other ranks would wait for it forever, so the job ends here, through MPI_Abort, with
/// a message naming the rank and the call.
[[noreturn]] void abortJob(MPI_Comm comm, const char* call, const char* what);

/// Runs local work f (no collective calls inside) and agrees on its errors: an exception thrown
/// by f on any rank is thrown on every rank.
template <class F>
void collectively(MPI_Comm comm, F&& f) {
    std::string error;
    try {
        f();
    } catch (const std::exception& e) {
        error = e.what();
        if (error.empty()) {
            error = "contact::mpi: an error without a message";
        }
    }
    agreeOnErrors(comm, error);
}

/// splitmix64's finalizer: every bit of z mixed into every bit of the result.
[[nodiscard]] inline std::uint64_t finalizeHash(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

/// Home rank of a global id in a directory spread over `size` ranks (a mixed hash, so that
/// consecutive ids spread evenly).
[[nodiscard]] inline int homeRank(std::int64_t id, int size) noexcept {
    const std::uint64_t z = finalizeHash(static_cast<std::uint64_t>(id) + 0x9E3779B97F4A7C15ULL);
    return static_cast<int>(z % static_cast<std::uint64_t>(size));
}

}  // namespace contact::mpi::detail
