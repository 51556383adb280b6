// SPDX-License-Identifier: MIT
// Slow, obvious overlap area of two faces: the reference the 3D clipping kernel is tested against.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

namespace contact::testing {

/// Overlap area with a bound on its sampling error: the true value lies in [area - error,
/// area + error].
struct OracleArea {
    double area = 0.0;
    double error = 0.0;
};

/// Area of the part of the slave's corner surface (linear map of the corners for triangles,
/// bilinear for quads: the flat approximation clipSegments3d clips) whose projection along the
/// unit vector n falls inside the master's corner polygon projected the same way (must be convex).
///
/// Dense, adaptive sampling of the slave's reference domain: baseCells^2 cells (squares, or the
/// congruent sub-triangles of a triangle), each mapped by the corner map and projected. A cell
/// with all corners inside and no master corner near it counts fully, one with all corners
/// outside and no master corner near it not at all; any other cell is split in four, down to
/// maxDepth levels, where it counts half with an error of half its area. Projected cell areas are
/// exact (the images of sub-cells have straight edges). Shares no code with the kernel.
[[nodiscard]] OracleArea oracleOverlapArea(const SegmentNodes& slave, const SegmentNodes& master,
                                           const Eigen::Vector3d& n, int baseCells = 8,
                                           int maxDepth = 7);

}  // namespace contact::testing
