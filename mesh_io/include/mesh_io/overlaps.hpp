// SPDX-License-Identifier: MIT
// Overlap geometry of the segment pairs a segment-to-segment search found, for reports and files.
#pragma once

#include "contact/clipping.hpp"
#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"

#include <array>
#include <vector>

namespace mesh_io {

/// Overlap of one (slave, master) segment pair: its area (2D: length along the master), centroid,
/// gap range, and the points to draw it: the polygon (3D) or the clipped points on the master (2D).
struct PairOverlap {
    Index slave = 0;   ///< slave segment
    Index master = 0;  ///< master segment
    double area = 0.0;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    double gapMin = 0.0;  ///< negative = penetration
    double gapMax = 0.0;
    int count = 0;
    std::array<Eigen::Vector3d, contact::kMaxOverlapVertices> vertices{};
};

/// Clips every pair of `pairs` (segment mode): contact::clipSegments3d on the master plane in
/// 3D, contact::clipSegments2d with the capture distance in 2D. Pairs without overlap are left
/// out; the result keeps the order of `pairs`.
[[nodiscard]] std::vector<PairOverlap> computeOverlaps(const ContactSurface& master,
                                                       const ContactSurface& slave,
                                                       const contact::SegmentPairs& pairs,
                                                       const contact::CoordinatesView& x,
                                                       double capture);

}  // namespace mesh_io
