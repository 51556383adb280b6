// SPDX-License-Identifier: MIT
// Slow, obvious overlap area of two faces: the reference the 3D clipping kernel is tested against.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <functional>
#include <vector>

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

/// Area of the part of a convex polygon (plane coordinates, counter-clockwise) where g <= level,
/// for the cut of an overlap to the capture distance; g is the gap at a point of the plane.
///
/// Adaptive sampling: the polygon is fanned from its vertex 0 and each triangle split into four
/// congruent ones, down to maxDepth levels, wherever the level may cross it: g is evaluated at
/// its corners and edge midpoints, and the range of those values, widened by the largest
/// deviation of a midpoint from the mean of its edge's ends (a measure of g's curvature over the
/// triangle), holds the level. A triangle outside that range counts fully or not at all; one at
/// the deepest level counts half, with an error of half its area. Shares no code with the kernel.
[[nodiscard]] OracleArea oracleKeptArea(const std::vector<Eigen::Vector2d>& polygon,
                                        const std::function<double(const Eigen::Vector2d&)>& g,
                                        double level, int maxDepth = 9);

}  // namespace contact::testing
