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
/// sets sorted by their lower bound along one axis, then each query, in that order, meets the boxes
/// of A whose interval along the axis holds its lower bound (an active list) and those whose lower
/// bound lies within its own interval (a forward scan), testing the other two axes. A pair whose
/// intervals along the axis overlap is tested exactly once: in the list when A's lower bound comes
/// first (A first on ties), in the scan otherwise. Comparisons of floats are exact, so the pairs
/// are exactly those overlaps() reports.
///
/// Suited to one-dimensional arrangements, the contact curves of 2D models: along the curve's long
/// axis each box meets a few others, and the cost is two sorts and a linear scan. On a surface
/// every box meets the whole slab around it, so build() counts the pairs of indexed boxes a sweep
/// would scan (lower bounds only, A against itself) and, beyond kScanPerBoxLimit per box, builds a
/// BoxTreeIndex instead (swept() false). A query call sorts its queries and sweeps the indexed
/// boxes from the start, so one call over all queries on one thread is the fast way
/// (concurrentQueries() false); the fallback tree answers concurrently.
class SweepIndex {
public:
    /// Scanned pairs per box beyond which a tree is the better choice: a tree query costs about as
    /// much as this many key comparisons and box tests (bench/, broad phase on surfaces).
    static constexpr long long kScanPerBoxLimit = 32;
    /// Estimated scans per box (n x mean width / spread along the axis) beyond this many times the
    /// limit build the tree without sorting and counting first: on a surface the estimate is
    /// hundreds, on a curve a few.
    static constexpr double kSkipSortFactor = 4.0;

    void build(const std::vector<FloatBox>& boxes, int threads = 1);
    /// The same for the boxes grown by h (fatBoxes): where the tree is chosen without sorting (a
    /// surface), the tree makes them as it sorts them (BoxTreeIndex::build with h).
    void build(const std::vector<FloatBox>& boxes, double h, int threads = 1);
    [[nodiscard]] Index size() const noexcept;
    [[nodiscard]] bool concurrentQueries() const noexcept { return !swept_; }

    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const;

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
    /// Pairs of indexed boxes the last build's count scanned (it stops past the limit); -1 when the
    /// estimate sent the build to the tree without counting.
    [[nodiscard]] long long scanned() const noexcept { return scanned_; }
    /// Bytes held (sorted keys and boxes, or the fallback tree).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    /// Chooses axis_ for the boxes grown by h; true when an even spread along it would scan so
    /// far past the limit that the tree is built without sorting first.
    bool treeAtOnce(const std::vector<FloatBox>& boxes, double h);
    /// No sort kept (scanned() -1): the tree at once.
    void dropSort() noexcept;
    /// The boxes sorted along axis_ and their scan counted: the sort kept, or the tree built.
    void sortOrTree(const std::vector<FloatBox>& boxes, int threads);

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

    // Boxes boxAt(0 .. n-1) sorted by their lower bound along axis_ (ties by index). Returns true
    // when they came in that order.
    template <class BoxAt>
    bool sortSet(Index n, const BoxAt& boxAt, Sorted& out) const;

    Sorted boxes_;       // the indexed boxes, when swept_
    BoxTreeIndex tree_;  // the fallback, when not
    bool swept_ = true;
    int axis_ = 0;
    long long scanned_ = 0;
};
static_assert(checkBoxIndex<SweepIndex>());

// Each box taken once, in input order; when the lower bounds come ascending (a curve numbered
// along its length), that is the sorted order (ties by index). Otherwise keys, the float bits of
// the lower bound mapped to an unsigned order (negative floats reversed below the positive ones)
// in the high half and the input index in the low half, get one radix sort of the high halves,
// and the boxes are gathered in that order. -0 is taken as +0; NaN sorts last.
template <class BoxAt>
bool SweepIndex::sortSet(Index n, const BoxAt& boxAt, Sorted& out) const {
    const int k0 = axis_;
    const int k1 = (axis_ + 1) % 3;
    const int k2 = (axis_ + 2) % 3;
    out.key.resize(static_cast<std::size_t>(n));
    out.entry.resize(static_cast<std::size_t>(n));
    bool sorted = true;
    for (Index i = 0; i < n; ++i) {
        const FloatBox box = boxAt(i);
        out.key[i] = box.lo[k0] + 0.0F;  // -0 -> +0
        out.entry[i] = Entry{box.hi[k0], box.lo[k1], box.hi[k1], box.lo[k2], box.hi[k2], i};
        sorted = sorted && (i == 0 || out.key[i - 1] <= out.key[i]);  // false for NaN
    }
    if (sorted) {
        return true;
    }
    std::vector<std::uint64_t> keys(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &out.key[i], sizeof bits);
        const std::uint64_t order = (bits >> 31) != 0U ? ~bits : bits | 0x80000000U;
        keys[i] = order << 32 | static_cast<std::uint32_t>(i);
    }
    radixSort(keys, nullptr, 32, 64);
    Sorted gathered;
    gathered.key.resize(static_cast<std::size_t>(n));
    gathered.entry.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
        const auto id = static_cast<std::size_t>(keys[i] & 0xFFFFFFFFU);
        gathered.key[i] = out.key[id];
        gathered.entry[i] = out.entry[id];
    }
    out = std::move(gathered);
    return false;
}

// The queries in ascending lower bounds, swept with an active list: the indexed boxes whose lower
// bound has been passed (indexed boxes first on ties) and whose upper bound has not. A query's hits
// are the active boxes that overlap it on the other two axes, and the boxes whose lower bound lies
// within its own extent along the axis; a box leaves the list for good once a query's lower bound
// passes its upper bound (the queries come in ascending lower bounds). Every pair overlapping
// along the axis is tested exactly once, as in a merged sweep.
//
// The queries are swept as they come while their lower bounds ascend (a curve numbered along its
// length: all of them), each handed to the sink at once, with no copy of the query boxes. From
// the first query that does not ascend (or has a NaN bound) on, the rest are sorted like the
// indexed boxes and swept from the start in a second sweep, their hits kept and handed over in
// query order afterwards.
template <class QueryBox, class Sink>
void SweepIndex::query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
    if (!swept_) {
        tree_.query(first, last, queryBox, sink);
        return;
    }
    const Index n = last > first ? last - first : 0;
    const int k0 = axis_;
    const int k1 = (axis_ + 1) % 3;
    const int k2 = (axis_ + 2) % 3;
    const std::size_t na = boxes_.key.size();
    std::vector<std::size_t> active;  // positions in boxes_
    std::vector<Index> hits;
    std::size_t next = 0;  // the first indexed box not yet passed
    // Query q (lower bound lo along the axis) against the sweep's state: its hits into `hits`.
    const auto sweepOne = [&](float lo, const Entry& q) {
        while (next < na && boxes_.key[next] <= lo) {
            active.push_back(next++);
        }
        hits.clear();
        for (std::size_t a = 0; a < active.size();) {
            const Entry& e = boxes_.entry[active[a]];
            if (e.hi < lo) {  // passed for good
                active[a] = active.back();
                active.pop_back();
                continue;
            }
            if (crossOverlap(e, q)) {
                hits.push_back(e.id);
            }
            ++a;
        }
        for (std::size_t p = next; p < na && boxes_.key[p] <= q.hi; ++p) {
            if (crossOverlap(boxes_.entry[p], q)) {
                hits.push_back(boxes_.entry[p].id);
            }
        }
    };
    Index streamed = 0;
    for (float previous = 0.0F; streamed < n; ++streamed) {
        const FloatBox box = queryBox(first + streamed);
        const float lo = box.lo[k0] + 0.0F;                  // -0 -> +0
        if (!(streamed == 0 ? lo == lo : previous <= lo)) {  // false for NaN
            break;
        }
        previous = lo;
        sweepOne(lo, Entry{box.hi[k0], box.lo[k1], box.hi[k1], box.lo[k2], box.hi[k2], 0});
        sink(first + streamed, hits.data(), static_cast<Index>(hits.size()));
    }
    if (streamed == n) {
        return;
    }
    const Index rest = n - streamed;
    const Index from = first + streamed;
    Sorted queries;
    sortSet(
        rest, [&](Index k) { return queryBox(from + k); }, queries);
    active.clear();
    next = 0;
    std::vector<Index> kept;          // the hits of every query, in sweep order
    std::vector<std::size_t> keptAt;  // and where each query's start, by sweep position
    keptAt.reserve(static_cast<std::size_t>(rest) + 1);
    for (Index s = 0; s < rest; ++s) {
        sweepOne(queries.key[s], queries.entry[s]);
        keptAt.push_back(kept.size());
        kept.insert(kept.end(), hits.begin(), hits.end());
    }
    keptAt.push_back(kept.size());
    std::vector<Index> position(static_cast<std::size_t>(rest));  // query -> sweep position
    for (Index s = 0; s < rest; ++s) {
        position[queries.entry[s].id] = s;
    }
    for (Index k = 0; k < rest; ++k) {
        const std::size_t at = keptAt[position[k]];
        sink(from + k, kept.data() + at, static_cast<Index>(keptAt[position[k] + 1] - at));
    }
}

}  // namespace contact::detail
