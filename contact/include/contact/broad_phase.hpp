// SPDX-License-Identifier: MIT
// Broad phase: all pairs of axis-aligned boxes that overlap, through kd-trees of box centres.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <memory>
#include <vector>

namespace contact {

/// Counters of one query (what the tree visited), free to collect.
struct BroadPhaseStats {
    long long reported = 0;  ///< centres within the search radius (before the exact box test)
    long long accepted = 0;  ///< boxes that overlap the query box
};

/// Indexes a set of closed AABBs and reports, for a query box, every indexed box that overlaps it.
///
/// A kd-tree indexes points, not boxes. Boxes are grouped into size classes (half-diagonals
/// within a factor of 2), with one nanoflann kd-tree over the centres of each class. For a query box
/// with centre q and half-diagonal r_q, class c is searched with radius r_q + R_c, R_c the largest
/// half-diagonal in the class. Why no overlap is missed: if boxes Q and B share a point z, then
/// |q - z| <= r_q and |z - b| <= r_b <= R_c, so |q - b| <= r_q + R_c. The radius is padded for
/// rounding, and an exact box test in the result callback removes the extra centres. The classes
/// keep graded meshes (sizes varying 1000x) from searching every small box with the largest radius.
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
/// The boxes are copied in at build(), so the caller's arrays may change afterwards.
class BroadPhase {
public:
    BroadPhase();
    ~BroadPhase();
    BroadPhase(BroadPhase&&) noexcept;
    BroadPhase& operator=(BroadPhase&&) noexcept;
    BroadPhase(const BroadPhase&) = delete;
    BroadPhase& operator=(const BroadPhase&) = delete;

    /// Indexes boxes i = 0..n-1 given by the columns lo.col(i), hi.col(i) (lo <= hi).
    /// Reuses its buffers when called again with at most as many boxes.
    void build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi);

    /// Appends to `out` the index of every indexed box that overlaps [qlo, qhi] (closed boxes:
    /// touching counts), in no particular order. Allocates only when `out` must grow.
    void query(const Eigen::Vector3d& qlo, const Eigen::Vector3d& qhi, std::vector<Index>& out,
               BroadPhaseStats* stats = nullptr) const;

    /// Number of indexed boxes.
    [[nodiscard]] Index size() const noexcept;
    /// Number of size classes (kd-trees) built.
    [[nodiscard]] int sizeClasses() const noexcept;
    /// Bytes held by the index (boxes, centres, trees).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace contact
