// SPDX-License-Identifier: MIT
// Slow, obvious closest point on a segment: the reference the projection kernel is tested against.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

namespace contact::testing {

/// Closest point found by brute force.
struct OracleProjection {
    Eigen::Vector2d xi = Eigen::Vector2d::Zero();     ///< local coordinates (eta = 0 for lines)
    Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< x(xi)
    double distance = 0.0;                            ///< |p - point|
};

/// Closest point of segment s to p over the closed reference domain, by dense sampling (61 x 61
/// grid on faces, clipped to the triangle; 2001 points on lines), then, around each of the (at
/// most 16 best) local minima of the samples, in 2D and along each edge, repeated zooming of a
/// 7 x 7 grid (7 points on lines), clamped into the domain and shrinking 3x per round (re-centred
/// when the best point reaches the window's rim) until the spacing is 1e-13.
/// Shares only position() with the kernel. Thousands of position() calls: tests only.
[[nodiscard]] OracleProjection oracleClosestPoint(const SegmentNodes& s, const Eigen::Vector3d& p);

}  // namespace contact::testing
