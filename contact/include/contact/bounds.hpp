// SPDX-License-Identifier: MIT
// Bounding volumes of segments: buffered AABB and OBB, both enclosing the whole curved segment.
#pragma once

#include "contact/export.hpp"
#include "contact/types.hpp"

namespace contact {

/// Axis-aligned box of a segment grown by `buffer` (>= 0) on every side. Encloses the whole
/// segment, curved ones included, through the convex hull of its Bezier control points (a
/// Lagrange midside node is not a bound). D = 2 for lines in the x-y plane, 3 for faces. A NaN or
/// Inf coordinate of any node gives a box that is not finite.
template <int D>
[[nodiscard]] CONTACT_API Aabb<D> segmentAabb(const SegmentNodes& s, double buffer) noexcept;

extern template Aabb<2> segmentAabb<2>(const SegmentNodes&, double) noexcept;
extern template Aabb<3> segmentAabb<3>(const SegmentNodes&, double) noexcept;

/// Oriented rectangle of a 2D segment (Line2, Line3): first axis along the chord, second along its
/// clockwise normal; encloses the Bezier hull, then grows by `buffer` on every side, so a straight
/// segment still gets 2 * buffer of thickness.
[[nodiscard]] CONTACT_API Obb2 segmentObb2d(const SegmentNodes& s, double buffer) noexcept;

/// Oriented box of a face: axes from the tangent frame at the reference centre (tangent1,
/// tangent2, outward normal; identity if that frame is degenerate); encloses the Bezier hull, then
/// grows by `buffer` on every side, so a flat face still gets 2 * buffer of thickness.
[[nodiscard]] CONTACT_API Obb3 segmentObb3d(const SegmentNodes& s, double buffer) noexcept;

/// The axes segmentObb3d() uses: (tangent1, tangent2, normal) at the reference centre as columns,
/// a proper rotation; the identity if that frame is degenerate.
[[nodiscard]] CONTACT_API Eigen::Matrix3d faceAxes(const SegmentNodes& s) noexcept;

/// The same box with given orthonormal axes (columns): extents of the Bezier hull along them.
[[nodiscard]] CONTACT_API Obb3 segmentObb3dAlong(const SegmentNodes& s, const Eigen::Matrix3d& axes,
                                                 double buffer) noexcept;

/// The same axes about a given centre: each half extent reaches the farther side of the Bezier
/// hull from `centre`, so the box encloses the segment wherever the centre lies.
[[nodiscard]] CONTACT_API Obb3 segmentObb3dAbout(const SegmentNodes& s, const Eigen::Matrix3d& axes,
                                                 const Eigen::Vector3d& centre,
                                                 double buffer) noexcept;

}  // namespace contact
