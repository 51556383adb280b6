// SPDX-License-Identifier: MIT
// The design's broad phase: nanoflann kd-trees of box centres, one per size class (box_index.hpp
// has the interface). Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "box_index.hpp"
#include "float_box.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace contact::detail {

/// Indexes float boxes and reports, for a query box, every indexed box that overlaps it.
///
/// A kd-tree indexes points, not boxes. Boxes are grouped into size classes (half-diagonals
/// within a factor of 2), with one nanoflann kd-tree over the centres of each class. For a query
/// box with centre q and half-diagonal r_q, class c is searched with radius r_q + R_c, R_c the
/// largest half-diagonal in the class. Why no overlap is missed: if boxes Q and B share a point z,
/// then |q - z| <= r_q and |z - b| <= r_b <= R_c, so |q - b| <= r_q + R_c. The radius is padded for
/// rounding (kKdQueryPadUlps, kKdRadiusRel), and the exact float box test in the result callback
/// removes the extra centres. The classes keep graded meshes (sizes varying 1000x) from searching
/// every small box with the largest radius. With threads, each class of at least 2 leaves per
/// slice is also cut into that many spatial slices (at quantiles of a sample of its centres along
/// their longest axis), whose trees are built in parallel.
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
class KdTreeIndex {
public:
    KdTreeIndex();
    ~KdTreeIndex();
    KdTreeIndex(KdTreeIndex&&) noexcept;
    KdTreeIndex& operator=(KdTreeIndex&&) noexcept;
    KdTreeIndex(const KdTreeIndex&) = delete;
    KdTreeIndex& operator=(const KdTreeIndex&) = delete;

    void build(std::vector<FloatBox> boxes, int threads);
    /// The boxes grown by h (fatBoxes).
    void build(const std::vector<FloatBox>& boxes, double h, int threads) {
        build(fatBoxes(boxes, h, threads), threads);
    }
    [[nodiscard]] Index size() const noexcept;
    [[nodiscard]] bool concurrentQueries() const noexcept { return true; }

    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
        std::vector<Index> hits;
        for (Index k = first; k < last; ++k) {
            hits.clear();
            queryOne(queryBox(k), hits);
            sink(k, hits.data(), static_cast<Index>(hits.size()));
        }
    }

    template <class Visit>
    void visitBoxes(Index from, Index to, Visit&& visit) const {
        const FloatBox* box = boxes();
        const Index* original = inputIndex();
        for (Index k = from; k < to; ++k) {
            visit(original[k], box[k]);
        }
    }

    /// Appends to `out` the input index of every box that overlaps q (allocates only when `out`
    /// must grow).
    void queryOne(const FloatBox& box, std::vector<Index>& out) const;
    /// Number of size classes and slices (kd-trees) built.
    [[nodiscard]] int sizeClasses() const noexcept;
    /// Bytes held: boxes, index map, and nanoflann's index and nodes.
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    [[nodiscard]] const FloatBox* boxes() const noexcept;    // storage (class) order
    [[nodiscard]] const Index* inputIndex() const noexcept;  // storage position -> input index

    struct Impl;
    std::unique_ptr<Impl> impl_;
};
static_assert(checkBoxIndex<KdTreeIndex>());

}  // namespace contact::detail
