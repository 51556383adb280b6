// SPDX-License-Identifier: MIT
// The one interface of the search's box indexes, and the brute-force index every other one is
// tested against. Internal; never installed.
//
// A box index holds n float boxes (the master fat boxes) and reports, for query boxes, every
// indexed box that overlaps each one (closed boxes: touching counts; comparisons of floats, so
// every index reports exactly the same pairs). Every index implements:
//
//   void build(std::vector<FloatBox> boxes, int threads)
//       (or const std::vector<FloatBox>&) Indexes boxes 0..n-1, taken over or copied. May use
//       `threads` threads. Reuses its buffers. Boxes must not hold NaN where they should overlap
//       something (a NaN box overlaps nothing).
//   void build(const std::vector<FloatBox>& boxes, double h, int threads)
//       The same for the boxes grown by h (fatBoxes, the Verlet list's fat boxes), without the
//       caller's copy of them where the index can make them as it stores them (the box tree).
//   Index size() const noexcept
//   bool concurrentQueries() const noexcept
//       query() may run on several threads at once, each on its own range of query items. False:
//       one call over all items is the fast way (the sweep, which sorts its queries).
//   template <class QueryBox, class Sink>
//   void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const
//       For k = first .. last - 1, ascending: sink(k, hits, count), hits the indices of the boxes
//       overlapping queryBox(k) (a FloatBox), each once, in no particular order; the sink may
//       reorder or overwrite them.
//   template <class Visit> void visitBoxes(Index from, Index to, Visit&& visit) const
//       visit(i, box) for the boxes at storage positions [from, to), i the input index: over
//       [0, size()) every box once, in the index's own order (for the Verlet check, which needs
//       no random access).
//   std::size_t memoryBytes() const noexcept
//
// Implementations, and when each is used (SearchOptions::broadPhase, contact_search.hpp):
//   KdTreeIndex      nanoflann kd-trees of box centres per size class: the design's first choice,
//                    slower than the other two on every scene of bench/RESULTS.md.
//   BoxTreeIndex     a bounding-volume tree of the float boxes, queried by groups of neighbouring
//                    query boxes: the fastest on 3D surfaces.
//   SweepIndex       the default: sort and sweep along the long axis, the fastest on the contact
//                    curves of 2D models; a box tree where a slab holds many boxes.
//   BruteForceIndex  every box against every query: the reference the others are tested against.
#pragma once

#include "contact/types.hpp"

#include "float_box.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace contact::detail {

/// Every indexed box against every query box, O(n) per query.
class BruteForceIndex {
public:
    void build(std::vector<FloatBox> boxes, int /*threads*/) { boxes_ = std::move(boxes); }
    void build(const std::vector<FloatBox>& boxes, double h, int threads) {
        build(fatBoxes(boxes, h, threads), threads);
    }
    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(boxes_.size()); }
    [[nodiscard]] bool concurrentQueries() const noexcept { return true; }

    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
        std::vector<Index> hits;
        for (Index k = first; k < last; ++k) {
            const FloatBox q = queryBox(k);
            hits.clear();
            for (Index i = 0; i < size(); ++i) {
                if (overlaps(boxes_[i], q)) {
                    hits.push_back(i);
                }
            }
            sink(k, hits.data(), static_cast<Index>(hits.size()));
        }
    }

    template <class Visit>
    void visitBoxes(Index from, Index to, Visit&& visit) const {
        for (Index i = from; i < to; ++i) {
            visit(i, boxes_[i]);
        }
    }

    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return boxes_.capacity() * sizeof(FloatBox);
    }

private:
    std::vector<FloatBox> boxes_;
};

/// Compile-time check that T has the interface above (the members the search calls), with a
/// readable message where it does not.
template <class T>
constexpr bool checkBoxIndex() {
    using QueryBox = FloatBox (*)(Index);
    using Sink = void (*)(Index, Index*, Index);
    using Visit = void (*)(Index, const FloatBox&);
    static_assert(std::is_void_v<decltype(std::declval<T&>().build(std::vector<FloatBox>{}, 1))>,
                  "a box index needs void build(std::vector<FloatBox>, int)");
    static_assert(std::is_void_v<decltype(std::declval<T&>().build(
                      std::declval<const std::vector<FloatBox>&>(), 0.0, 1))>,
                  "a box index needs void build(const std::vector<FloatBox>&, double, int)");
    static_assert(std::is_same_v<decltype(std::declval<const T&>().size()), Index>,
                  "a box index needs Index size() const");
    static_assert(std::is_same_v<decltype(std::declval<const T&>().concurrentQueries()), bool>,
                  "a box index needs bool concurrentQueries() const");
    static_assert(std::is_void_v<decltype(std::declval<const T&>().query(
                      Index{}, Index{}, std::declval<QueryBox>(), std::declval<Sink>()))>,
                  "a box index needs query(first, last, queryBox, sink) const");
    static_assert(std::is_void_v<decltype(std::declval<const T&>().visitBoxes(
                      Index{}, Index{}, std::declval<Visit>()))>,
                  "a box index needs visitBoxes(from, to, visit) const");
    static_assert(std::is_same_v<decltype(std::declval<const T&>().memoryBytes()), std::size_t>,
                  "a box index needs std::size_t memoryBytes() const");
    return true;
}
static_assert(checkBoxIndex<BruteForceIndex>());

}  // namespace contact::detail
