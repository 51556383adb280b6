// SPDX-License-Identifier: MIT
// Sort and sweep (box_index.hpp has the interface): the fastest index for the contact curves of 2D
// models (bench/RESULTS.md), a box tree where a slab holds many boxes. Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "box_index.hpp"
#include "box_tree_index.hpp"
#include "detail/radix_sort.hpp"
#include "float_box.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace contact::detail {

/// Every overlapping pair between the indexed boxes A and the query boxes B by sort and sweep: both
/// sets sorted by their lower bound along one axis, then, in the merged order, each box scans the
/// other set forward while the lower bounds there do not exceed its own upper bound, testing the
/// other two axes. A pair whose intervals along the axis overlap is scanned exactly once, by the
/// box with the smaller lower bound (A first on ties): when it is visited, the other box has not
/// been passed yet, and its lower bound lies within the scanned range. Comparisons of floats are
/// exact, so the pairs are exactly those overlaps() reports.
///
/// Suited to one-dimensional arrangements, the contact curves of 2D models: along the curve's long
/// axis each box meets a few others, and the cost is two sorts and a linear scan. On a surface
/// every box meets the whole slab around it, so build() counts the pairs of indexed boxes a sweep
/// would scan (lower bounds only, A against itself) and, beyond kScanPerBoxLimit per box, builds a
/// BoxTreeIndex instead (swept() false). The sweep pairs a query with its boxes only once all
/// queries are sorted, so it answers one call over all queries on one thread
/// (concurrentQueries() false); the fallback tree answers concurrently.
class SweepIndex {
public:
    /// Scanned pairs per box beyond which a tree is the better choice: a tree query costs about as
    /// much as this many key comparisons and box tests (bench/, broad phase on surfaces).
    static constexpr long long kScanPerBoxLimit = 32;

    void build(std::vector<FloatBox> boxes, int threads = 1);
    [[nodiscard]] Index size() const noexcept;
    [[nodiscard]] bool concurrentQueries() const noexcept { return !swept_; }

    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
        if (!swept_) {
            tree_.query(first, last, queryBox, sink);
            return;
        }
        // The pairs come in sweep order: one walk counts each query's boxes, a second writes them
        // into their slots (CSR), then each query's hits go to the sink in query order.
        const Index n = last > first ? last - first : 0;
        Sorted queries;
        sortSet(
            n, [&](Index k) { return queryBox(first + k); }, queries);
        std::vector<Index> offsets(static_cast<std::size_t>(n) + 1, 0);
        forEachPair(queries, [&](Index /*box*/, Index k) { ++offsets[k + 1]; });
        Index total = 0;
        for (Index k = 0; k < n; ++k) {  // offsets[k + 1] = first slot of query k, advanced below
            const Index count = offsets[k + 1];
            offsets[k + 1] = total;
            total += count;
        }
        std::vector<Index> hits(static_cast<std::size_t>(total));
        forEachPair(queries, [&](Index box, Index k) { hits[offsets[k + 1]++] = box; });
        for (Index k = 0; k < n; ++k) {
            sink(first + k, hits.data() + offsets[k], offsets[k + 1] - offsets[k]);
        }
    }

    template <class Visit>
    void visitBoxes(Index from, Index to, Visit&& visit) const {
        if (!swept_) {
            tree_.visitBoxes(from, to, visit);
            return;
        }
        const int k0 = axis_;
        const int k1 = (axis_ + 1) % 3;
        const int k2 = (axis_ + 2) % 3;
        for (Index q = from; q < to; ++q) {
            const Entry& e = boxes_.entry[q];
            FloatBox b;
            b.lo[k0] = boxes_.key[q];
            b.hi[k0] = e.hi;
            b.lo[k1] = e.lo1;
            b.hi[k1] = e.hi1;
            b.lo[k2] = e.lo2;
            b.hi[k2] = e.hi2;
            visit(e.id, b);
        }
    }

    /// True when the last build kept the sort (false: it fell back to the box tree).
    [[nodiscard]] bool swept() const noexcept { return swept_; }
    /// The sweep axis chosen by the last build.
    [[nodiscard]] int axis() const noexcept { return axis_; }
    /// Pairs of indexed boxes the last build's count scanned (it stops past the limit).
    [[nodiscard]] long long scanned() const noexcept { return scanned_; }
    /// Bytes held (sorted keys and boxes, or the fallback tree).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    // A box without its lower bound along the sweep axis (kept apart, in `key`, for the scans).
    struct Entry {
        float hi = 0.0F;               // upper bound along the axis
        float lo1 = 0.0F, hi1 = 0.0F;  // the next axis
        float lo2 = 0.0F, hi2 = 0.0F;  // the one after
        Index id = 0;                  // index in the input set
    };
    struct Sorted {
        std::vector<float> key;  // lower bounds along the axis, ascending
        std::vector<Entry> entry;
    };

    [[nodiscard]] static bool crossOverlap(const Entry& a, const Entry& b) noexcept {
        return a.lo1 <= b.hi1 && b.lo1 <= a.hi1 && a.lo2 <= b.hi2 && b.lo2 <= a.hi2;
    }

    // Calls visit(box, query) for every pair of an indexed box and a query that overlap: both sets
    // in merged order of their lower bounds (indexed boxes first on ties), each box scanning the
    // other set forward from the first position there not yet passed.
    template <class Visit>
    void forEachPair(const Sorted& queries, Visit&& visit) const {
        const Sorted& a = boxes_;
        const Sorted& b = queries;
        const std::size_t na = a.key.size();
        const std::size_t nb = b.key.size();
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < na && j < nb) {
            if (a.key[i] <= b.key[j]) {
                const Entry& e = a.entry[i++];
                for (std::size_t q = j; q < nb && b.key[q] <= e.hi; ++q) {
                    if (crossOverlap(e, b.entry[q])) {
                        visit(e.id, b.entry[q].id);
                    }
                }
            } else {
                const Entry& e = b.entry[j++];
                for (std::size_t q = i; q < na && a.key[q] <= e.hi; ++q) {
                    if (crossOverlap(e, a.entry[q])) {
                        visit(a.entry[q].id, e.id);
                    }
                }
            }
        }
    }

    // Boxes boxAt(0 .. n-1) sorted by their lower bound along axis_ (ties by index).
    template <class BoxAt>
    void sortSet(Index n, const BoxAt& boxAt, Sorted& out) const;

    Sorted boxes_;       // the indexed boxes, when swept_
    BoxTreeIndex tree_;  // the fallback, when not
    bool swept_ = true;
    int axis_ = 0;
    long long scanned_ = 0;
};
static_assert(checkBoxIndex<SweepIndex>());

// Keys: the float bits of the lower bound mapped to an unsigned order (negative floats reversed
// below the positive ones; -0 taken as +0) in the high half, the input index in the low half; one
// radix sort of the high halves, then the boxes gathered in that order.
template <class BoxAt>
void SweepIndex::sortSet(Index n, const BoxAt& boxAt, Sorted& out) const {
    const int k0 = axis_;
    const int k1 = (axis_ + 1) % 3;
    const int k2 = (axis_ + 2) % 3;
    std::vector<std::uint64_t> keys(static_cast<std::size_t>(n));
    bool sorted = true;
    for (Index i = 0; i < n; ++i) {
        const float lo = boxAt(i).lo[k0] + 0.0F;  // -0 -> +0
        std::uint32_t bits = 0;
        std::memcpy(&bits, &lo, sizeof bits);
        const std::uint64_t order = (bits >> 31) != 0U ? ~bits : bits | 0x80000000U;
        keys[i] = order << 32 | static_cast<std::uint32_t>(i);
        sorted = sorted && (i == 0 || keys[i - 1] <= keys[i]);
    }
    if (!sorted) {  // a curve numbered along its length comes sorted
        radixSort(keys, nullptr, 32, 64);
    }
    out.key.resize(static_cast<std::size_t>(n));
    out.entry.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
        const auto id = static_cast<Index>(keys[i] & 0xFFFFFFFFU);
        const FloatBox box = boxAt(id);
        out.key[i] = box.lo[k0] + 0.0F;
        out.entry[i] = Entry{box.hi[k0], box.lo[k1], box.hi[k1], box.lo[k2], box.hi[k2], id};
    }
}

}  // namespace contact::detail
