// SPDX-License-Identifier: MIT
// Closest-point projection of a point onto one segment: the node-to-segment kernel.
#pragma once

#include "contact/export.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace contact {

/// Outcome of a projection.
enum class ProjectionStatus : std::uint8_t {
    kConverged,   ///< closest point strictly inside the segment
    kOnBoundary,  ///< closest point on an edge or a corner of the segment
    /// Segment has no normal at the closest point (collapsed), or no closest point: p or a node
    /// is NaN or Inf, or the distance overflows. Normal is zero, gap = distance.
    kDegenerate,
    kNotConverged,  ///< iteration limit hit; the best point found is returned
};

[[nodiscard]] CONTACT_API const char* projectionStatusName(ProjectionStatus s) noexcept;

/// Closest point of a segment to a point p, with what the solver assembles contact from.
struct Projection {
    Eigen::Vector2d xi = Eigen::Vector2d::Zero();     ///< local coordinates (eta = 0 for lines)
    Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< closest point x(xi) on the segment
    double distance = 0.0;                            ///< |p - point| (>= 0)
    /// Signed gap (p - point) . normal. Negative = penetration (p behind the outward normal).
    double gap = 0.0;
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();  ///< unit outward normal of the segment at xi
    Eigen::Vector3d tangent1 = Eigen::Vector3d::Zero();  ///< unit, along dx/dxi
    Eigen::Vector3d tangent2 = Eigen::Vector3d::Zero();  ///< unit, normal x tangent1 (+z for lines)
    std::array<double, kMaxSegmentNodes> N{};            ///< shape-function values at xi
    ProjectionStatus status = ProjectionStatus::kNotConverged;
};

/// Closest point on a segment (over its whole closed reference domain) to p.
///
/// Line2 and Tri3 are solved in closed form (Ericson, Real-Time Collision Detection, 5.1.2 and
/// 5.1.5). The others run an active-set Newton method on 1/2 |x(xi) - p|^2 with the domain's edges
/// as constraints: from one start when distanceIsConvex(s, p), otherwise from every local minimum
/// of a sample grid (a finer grid when p may lie beyond a centre of curvature), so that the global
/// closest point is found, also on edges and corners.
/// Never throws, never allocates. A p with NaN or Inf coordinates gives kDegenerate.
[[nodiscard]] CONTACT_API Projection closestPoint(const SegmentNodes& s,
                                                  const Eigen::Vector3d& p) noexcept;

/// The first half of closestPoint(): local coordinates and distance only, for choosing the closest
/// of several segments before paying for the frame. distance is bit-identical to
/// closestPoint(s, p).distance, and projectionAt(s, p, closestXi(s, p)) == closestPoint(s, p).
struct ClosestXi {
    Eigen::Vector2d xi = Eigen::Vector2d::Zero();
    double distance = 0.0;
    bool converged = false;
};
[[nodiscard]] CONTACT_API ClosestXi closestXi(const SegmentNodes& s,
                                              const Eigen::Vector3d& p) noexcept;

/// The second half: the full result at c.xi (point, gap, frame, shape functions, status).
[[nodiscard]] CONTACT_API Projection projectionAt(const SegmentNodes& s, const Eigen::Vector3d& p,
                                                  const ClosestXi& c) noexcept;

/// True when 1/2 |x(xi) - p|^2 is provably strictly convex over the whole reference domain, so it
/// has a single local minimum and closestPoint() needs a single Newton start: a bound of the
/// Hessian from the segment's polynomial coefficients (flat and mildly curved segments with p
/// near them pass; p beyond a centre of curvature never does). Line2 and Tri3: always true.
[[nodiscard]] CONTACT_API bool distanceIsConvex(const SegmentNodes& s,
                                                const Eigen::Vector3d& p) noexcept;

}  // namespace contact
