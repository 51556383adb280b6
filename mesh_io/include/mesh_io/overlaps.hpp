// SPDX-License-Identifier: MIT
// What segment-to-segment pairs have in contact: each pair's overlap, and the part of it within
// the capture distance (DESIGN.md: a point of the overlap is in contact when gap <= capture).
#pragma once

#include "contact/clipping.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include <vector>

namespace mesh_io {

using contact::Index;

/// One (slave, master) segment pair with a positive overlap. Areas are measured on the master's
/// tangent plane (contact::clipSegments3d); in 2D they are lengths along the master.
struct PairOverlap {
    Index slave = 0;               ///< slave segment
    Index master = 0;              ///< master segment
    double overlapArea = 0.0;      ///< the whole overlap, whatever its gap
    double captureArea = 0.0;      ///< the part with gap <= capture: in contact
    double penetrationArea = 0.0;  ///< the part with gap < 0
    /// Bounds on captureArea's and penetrationArea's errors from cutting curved faces on a
    /// refinement (0 on flat faces).
    double captureAreaError = 0.0;
    double penetrationAreaError = 0.0;
    double gapMin = 0.0;  ///< gap range over the part in contact (0 when there is none);
    double gapMax = 0.0;  ///< negative = penetration
    /// The part in contact as drawn (contact::OverlapCut3d::vertices, or in 2D the two ends of
    /// the kept stretch on the master): Overlaps::points[first, first + count); count 0: none.
    Index first = 0;
    int count = 0;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  ///< of the drawn part (0 when none)
};

/// The overlaps of one interface's segment pairs.
struct Overlaps {
    std::vector<PairOverlap> pairs;  ///< in the order of the search's pairs; none without overlap
    std::vector<Eigen::Vector3d> points;  ///< drawn points of the parts in contact, pair by pair
    std::vector<double> gap;              ///< gap at each point
    std::vector<Eigen::Vector3d> normal;  ///< master outward unit normal at each point
    int subdivisions = contact::kDefaultCutSubdivisions;  ///< of the cut on curved faces

    /// Totals over the pairs.
    [[nodiscard]] double overlapArea() const noexcept;
    [[nodiscard]] double captureArea() const noexcept;
    [[nodiscard]] double penetrationArea() const noexcept;
    [[nodiscard]] double captureAreaError() const noexcept;
    [[nodiscard]] double penetrationAreaError() const noexcept;
    /// Pairs with part of their overlap in contact (captureArea > 0).
    [[nodiscard]] Index inContact() const noexcept;
};

/// Clips every pair of `pairs` (contact::clipSegments3d on the master plane in 3D,
/// contact::clipSegments2d in 2D) and cuts each overlap to gap <= capture
/// (contact::cutOverlap3d / cutOverlap2d, `subdivisions` on curved faces). Surfaces and
/// coordinates as given to the search: a bad view, a node index outside it or a NaN or Inf
/// coordinate of a surface node throws std::invalid_argument naming it, as does a capture that
/// is not finite or is negative (no part would be in contact). `threads`
/// (1 .. contact::kMaxThreads, else std::invalid_argument) share the pairs; the result is the
/// same for any count.
[[nodiscard]] Overlaps computeOverlaps(const contact::Surface& master,
                                       const contact::Surface& slave,
                                       const contact::SegmentPairs& pairs,
                                       const contact::CoordinatesView& x, double capture,
                                       int subdivisions = contact::kDefaultCutSubdivisions,
                                       int threads = 1);

}  // namespace mesh_io
