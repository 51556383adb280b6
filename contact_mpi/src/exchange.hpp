// SPDX-License-Identifier: MIT
// Messages between ranks: byte buffers of plain records, a sparse all-to-all of them, and the
// collective agreement on errors that keeps every rank on the same path.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace contact::mpi::detail {

/// Appends plain values to a byte buffer (records of mixed fields, no padding).
class ByteWriter {
public:
    template <class T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::size_t at = bytes_.size();
        bytes_.resize(at + sizeof(T));
        std::memcpy(bytes_.data() + at, &v, sizeof(T));
    }
    template <class T>
    void put(const T* v, std::size_t n) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::size_t at = bytes_.size();
        bytes_.resize(at + n * sizeof(T));
        if (n > 0) {
            std::memcpy(bytes_.data() + at, v, n * sizeof(T));
        }
    }
    void clear() noexcept { bytes_.clear(); }
    [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
    [[nodiscard]] const char* data() const noexcept { return bytes_.data(); }
    [[nodiscard]] std::vector<char>& bytes() noexcept { return bytes_; }

private:
    std::vector<char> bytes_;
};

/// Bytes left uninitialized, kept between calls and grown with a margin: the per-update buffers
/// (pairs, records). Fresh pages fault one by one when first written, so they are reused, and a
/// buffer that grows by a few records does not move to fresh pages every time.
class RawBuffer {
public:
    /// Room for n bytes; the contents are not kept.
    char* reserve(std::size_t n) {
        if (n > capacity_) {
            capacity_ = n + n / 4;
            bytes_.reset(new char[capacity_]);  // NOLINT(modernize-make-unique): no zeroing
        }
        return bytes_.get();
    }
    [[nodiscard]] char* data() noexcept { return bytes_.get(); }
    [[nodiscard]] const char* data() const noexcept { return bytes_.get(); }

private:
    std::unique_ptr<char[]> bytes_;
    std::size_t capacity_ = 0;
};

/// Reads back what a ByteWriter wrote, in the same order.
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

/// What an exchange delivered: the bytes from rank r are data[offset[r], offset[r + 1]).
struct Received {
    std::vector<char> data;
    std::vector<std::size_t> offset;
    std::vector<char> sendScratch;  // the outgoing bytes in one block, kept between exchanges
    [[nodiscard]] ByteReader from(int r) const noexcept {
        return {data.data() + offset[r], data.data() + offset[r + 1]};
    }
};

/// Sparse all-to-all: out[r] goes to rank r (out has one buffer per rank). Collective. `in` keeps
/// its buffers between calls (fresh pages cost a fault each: reuse them). Adds the
/// bytes sent to other ranks to `bytesSent`. Every rank throws std::runtime_error when any rank
/// would send or receive 2 GiB or more in one exchange (MPI's int counts).
void exchange(MPI_Comm comm, const std::vector<ByteWriter>& out, Received& in,
              long long& bytesSent);

/// Collective: every rank passes its error message ("" = none). When any rank has one, every
/// rank throws std::invalid_argument with the message of the lowest such rank.
void agreeOnErrors(MPI_Comm comm, const std::string& error);

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

/// Home rank of a global id in a directory spread over `size` ranks (a mixed hash, so that
/// consecutive ids spread evenly).
[[nodiscard]] inline int homeRank(std::int64_t id, int size) noexcept {
    auto z = static_cast<std::uint64_t>(id) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    z ^= z >> 31U;
    return static_cast<int>(z % static_cast<std::uint64_t>(size));
}

}  // namespace contact::mpi::detail
