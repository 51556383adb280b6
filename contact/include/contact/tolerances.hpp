// SPDX-License-Identifier: MIT
// Every tolerance of the geometric kernels, named once, with its unit and the reason for its value.
// All are relative: they multiply a length of the problem, so models in mm, m or km behave alike.
#pragma once

#include <limits>

namespace contact::tol {

/// Machine epsilon of double (2.2e-16).
inline constexpr double kEps = std::numeric_limits<double>::epsilon();

/// SAT: a separation must exceed kSatRoundoff * (|T| + sum of half extents) before an axis is said
/// to separate. About 64 ulps: above the rounding of the centre difference and of the projections
/// (a few ulps each), far below 1e-13 of the box scale. The bias is toward "overlap", so rounding
/// can only add a candidate, never lose a contact.
inline constexpr double kSatRoundoff = 64.0 * kEps;

/// SAT axis choice (Box2D-Lite style hysteresis): a later axis group (faces of B, then edge pairs)
/// replaces the current least-penetration axis only if its depth is below
/// kSatRelativeTol * depth - kSatAbsoluteTol * scale, so nearly equal axes do not flicker between
/// calls. scale = the smaller of the two boxes' largest half extents.
inline constexpr double kSatRelativeTol = 0.95;
inline constexpr double kSatAbsoluteTol = 0.01;

/// SAT: edge-pair axes whose cross product is shorter than this (sine of the edge angle) still
/// take part in the verdict, but are not chosen as the least-penetration axis: their direction is
/// ill-conditioned (the parallel-edge case of Gottschalk's thesis, p. 83).
inline constexpr double kSatMinEdgeAxisSine = 1e-6;

/// Projection: Newton stops when the step in local coordinates is below this (the reference domain
/// has size 1 or 2, so this is a relative measure).
inline constexpr double kProjectionStepTol = 1e-13;

/// Projection: at most this many Newton iterations before the status says not converged.
inline constexpr int kProjectionMaxIterations = 50;

/// Local coordinates within this of the domain boundary count as on the boundary.
inline constexpr double kOnBoundaryTol = 1e-12;

/// Largest coordinate, capture distance and skin the search takes (an absolute length, the one
/// exception here). It keeps boxes and positions in float (largest 3.4e38): below 1e30, every box
/// of a segment, grown by the capture distance and the skin, stays far inside the float range.
inline constexpr double kMaxCoordinate = 1e30;
/// Largest box end update() takes before it reports kCoordinatesOutOfRange: room for the boxes of
/// any model setSurfaces() takes (a curved segment's box reaches 3 times its nodes' coordinates,
/// plus the capture distance) and for the moves after it.
inline constexpr double kMaxBoxEnd = 16.0 * kMaxCoordinate;

}  // namespace contact::tol
