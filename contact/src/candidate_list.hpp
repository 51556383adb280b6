// SPDX-License-Identifier: MIT
// The Verlet candidate list: for every slave item (node or segment), the master segments whose fat
// boxes overlap its fat box, kept in a compact code by blocks of items. Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "detail/assert.hpp"
#include "detail/parallel_errors.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace contact::detail {

/// The code: a byte stream, read item by item from the start of each block of items. Per item, a
/// varint (7 bits per byte, low first) count, then its masters ascending: the first as a zigzag
/// difference from the first master of the item before it in the block (0 at the block's start;
/// an item without masters leaves it), the others as differences minus one. Neighbouring items
/// have neighbouring masters: about 10 bytes an item instead of 4 per master.
class CandidateWriter {
public:
    /// Appends to `out`; the code of block b starts at byte blockStart[b] of `out`.
    CandidateWriter(std::vector<std::uint8_t>& out, std::size_t* blockStart,
                    Index blockSize) noexcept
        : out_(out), blockStart_(blockStart), blockSize_(blockSize) {}
    /// Appends item k's masters [first, last), sorted here. Items come in order, each block whole
    /// (from its first item on).
    void node(Index k, Index* first, Index* last);

private:
    std::vector<std::uint8_t>& out_;
    std::size_t* blockStart_;
    Index blockSize_;
    Index previous_ = 0;  // first master of the last item that had one, in this block
};

/// Reads the code of one block (CandidateWriter), item by item.
class CandidateReader {
public:
    explicit CandidateReader(const std::uint8_t* code) noexcept : p_(code) {}
    /// The next item's master count; then next() that many times.
    [[nodiscard]] Index beginNode() noexcept {
        started_ = false;
        return static_cast<Index>(varint());
    }
    [[nodiscard]] Index next() noexcept {
        const std::uint32_t v = varint();
        if (started_) {
            last_ += static_cast<Index>(v) + 1;
            return last_;
        }
        started_ = true;
        const std::uint32_t diff = (v >> 1) ^ (0U - (v & 1U));  // modulo 2^32, as written
        previous_ = static_cast<Index>(static_cast<std::uint32_t>(previous_) + diff);
        last_ = previous_;
        return last_;
    }
    /// The next byte to read: at the end of a block, the start of the next one.
    [[nodiscard]] const std::uint8_t* position() const noexcept { return p_; }

private:
    std::uint32_t varint() noexcept {
        std::uint32_t v = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint32_t byte = *p_++;
            v |= (byte & 0x7FU) << shift;
            if (byte < 0x80U) {
                return v;
            }
        }
    }

    const std::uint8_t* p_;
    Index previous_ = 0;  // first master of the last item that had one
    Index last_ = 0;
    bool started_ = false;
};

/// The list of every slave item, coded by blocks of blockSize() items (the unit of work of the
/// threads: each block's code starts afresh). Also the per-block candidate slots of segment mode's
/// survivor bits. Built whole from a box index (build) or from sets in memory (encode).
class CandidateList {
public:
    /// Blocks of `blockSize` items for `items` items; forgets the list.
    void setup(Index items, Index blockSize);
    [[nodiscard]] Index items() const noexcept { return items_; }
    [[nodiscard]] Index blockSize() const noexcept { return blockSize_; }
    [[nodiscard]] Index blocks() const noexcept {
        return static_cast<Index>(blockStart_.size()) - 1;
    }

    /// Item k's masters: the indexed boxes that overlap queryBox(k) (a FloatBox) and that the
    /// filter keeps. makeFilter() gives one filter per chunk of items: filter(k, first, last)
    /// returns the new end of the masters [first, last) it keeps, and is called for the chunk's
    /// items in order from a block start. Chunks of whole blocks run on `threads` threads when the
    /// index answers concurrently; the list is the same whatever the thread count.
    template <class BoxIndex, class QueryBox, class MakeFilter>
    void build(const BoxIndex& index, const QueryBox& queryBox, const MakeFilter& makeFilter,
               int threads);

    /// Item k's values [values[offsets[k]], values[offsets[k + 1]]) (sorted here), one thread.
    void encode(const std::vector<Index>& offsets, std::vector<Index>& values);

    /// Reader at the start of block b.
    [[nodiscard]] CandidateReader reader(Index b) const noexcept {
        CONTACT_ASSERT(b >= 0 && b < blocks());
        return CandidateReader(code_.data() + blockStart_[b]);
    }
    /// The end of block b's code (where a reader that read the whole block stands).
    [[nodiscard]] const std::uint8_t* blockEnd(Index b) const noexcept {
        return code_.data() + blockStart_[b + 1];
    }
    /// First candidate slot (in list order) of block b, a multiple of 8 so that blocks share no
    /// byte of one bit per candidate; firstSlot(blocks()) is the number of slots.
    [[nodiscard]] std::size_t firstSlot(Index b) const noexcept { return firstSlot_[b]; }
    /// Candidates in the list.
    [[nodiscard]] long long size() const noexcept { return count_; }
    /// The most candidates of one item (the room a per-item buffer needs for any item).
    [[nodiscard]] Index maxPerItem() const noexcept { return maxPerItem_; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    /// Blocks the first build samples for its room (estimatedCode).
    static constexpr Index kSampleBlocks = 8;

    /// The code a build will write, extrapolated from kSampleBlocks blocks spread over the items
    /// (1/16 more); 0 below 4 kSampleBlocks blocks. The first build's room: a list grown by
    /// doubling writes every size it passes through, each into fresh memory.
    template <class BoxIndex, class QueryBox, class MakeFilter>
    [[nodiscard]] std::size_t estimatedCode(const BoxIndex& index, const QueryBox& queryBox,
                                            const MakeFilter& makeFilter) const {
        const Index blocks = this->blocks();
        if (blocks < 4 * kSampleBlocks) {
            return 0;
        }
        std::vector<std::uint8_t> sample;
        std::vector<std::size_t> starts(blockStart_.size(), 0);
        long long sampled = 0;
        for (Index s = 0; s < kSampleBlocks; ++s) {
            const Index begin = blocks * (2 * s + 1) / (2 * kSampleBlocks) * blockSize_;
            const Index end = std::min(items_, begin + blockSize_);
            CandidateWriter writer(sample, starts.data(), blockSize_);
            auto filter = makeFilter();
            index.query(begin, end, queryBox, [&](Index k, Index* hits, Index count) {
                writer.node(k, hits, filter(k, hits, hits + count));
            });
            sampled += end - begin;
        }
        const double perItem = static_cast<double>(sample.size()) / static_cast<double>(sampled);
        return static_cast<std::size_t>(perItem * static_cast<double>(items_) * (17.0 / 16.0)) + 64;
    }

    void finish(Index chunks, int threads);
    [[nodiscard]] Index chunkBegin(Index chunk, Index chunks) const noexcept {
        const long long first = static_cast<long long>(blocks()) * chunk / chunks * blockSize_;
        return static_cast<Index>(std::min<long long>(items_, first));
    }

    Index items_ = 0;
    Index blockSize_ = 1;
    std::vector<std::uint8_t> code_;
    std::vector<std::size_t> blockStart_{0};  // block b's code from byte blockStart_[b]
    std::vector<std::size_t> firstSlot_{0};   // counts per block, then first slots (finish)
    // The code of each chunk during a build with threads (freed once copied in).
    std::vector<std::vector<std::uint8_t>> chunkCode_;
    long long count_ = 0;
    Index maxPerItem_ = 0;
};

// Chunks of whole blocks (each block's code starts afresh), taken dynamically by the threads (the
// work per item varies across the surface); one chunk, written straight into the list, with one
// thread. Chunks are concatenated in order, so the list is the same whatever the thread count.
template <class BoxIndex, class QueryBox, class MakeFilter>
void CandidateList::build(const BoxIndex& index, const QueryBox& queryBox,
                          const MakeFilter& makeFilter, int threads) {
    const int nt = index.concurrentQueries() ? threads : 1;
    const Index blocks = this->blocks();
    const Index chunks = nt == 1 ? 1 : std::min<Index>(std::max<Index>(blocks, 1), 64 * nt);
    // Room for a list like the last one, so the list is not regrown (and over-allocated) by
    // doubling every rebuild. With chunks, the list keeps its length until they are copied in.
    const std::size_t lastTotal = code_.size();
    if (chunks == 1) {
        code_.clear();
        code_.reserve(lastTotal > 0 ? lastTotal + lastTotal / 16
                                    : estimatedCode(index, queryBox, makeFilter));
    }
    const std::size_t chunkGuess = lastTotal / static_cast<std::size_t>(chunks) + 64;
    chunkCode_.resize(static_cast<std::size_t>(chunks));
    const Index masters = index.size();
    long long listed = 0;
    Index most = 0;
    ParallelErrors errors;
#pragma omp parallel num_threads(nt) reduction(+ : listed) reduction(max : most)
    {
        // This thread's buffer as a local: the vector headers of neighbouring chunks share cache
        // lines, and every write to the code writes its header (false sharing).
        std::vector<std::uint8_t> code;
        if (chunks > 1) {
            errors.run([&] { code.reserve(chunkGuess); });
        }
#pragma omp for schedule(dynamic, 1)
        for (Index chunk = 0; chunk < chunks; ++chunk) {
            errors.run([&] {
                std::vector<std::uint8_t>& bytes = chunks == 1 ? code_ : code;
                CandidateWriter writer(bytes, blockStart_.data(), blockSize_);
                auto filter = makeFilter();
                const Index begin = chunkBegin(chunk, chunks);
                const Index end = chunkBegin(chunk + 1, chunks);
                std::size_t inBlock = 0;  // candidates of the block so far
                Index expected = begin;
                index.query(begin, end, queryBox, [&](Index k, Index* hits, Index count) {
                    CONTACT_ASSERT(k == expected);
                    ++expected;
                    Index* kept = filter(k, hits, hits + count);
                    for (const Index* j = hits; j != kept; ++j) {
                        CONTACT_ASSERT(*j >= 0 && *j < masters);
                    }
                    listed += kept - hits;
                    most = std::max<Index>(most, static_cast<Index>(kept - hits));
                    inBlock += static_cast<std::size_t>(kept - hits);
                    if ((k + 1) % blockSize_ == 0 || k + 1 == end) {
                        firstSlot_[k / blockSize_ + 1] = inBlock;
                        inBlock = 0;
                    }
                    writer.node(k, hits, kept);
                });
                CONTACT_ASSERT(expected == end);
                if (chunks > 1) {  // handed over whole; a fresh buffer next
                    chunkCode_[chunk].swap(code);
                    code.clear();
                    code.reserve(chunkGuess);
                }
            });
        }
    }
    errors.rethrow();
    (void)masters;
    count_ = listed;
    maxPerItem_ = most;
    finish(chunks, nt);
}

}  // namespace contact::detail
