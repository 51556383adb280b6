// SPDX-License-Identifier: MIT
#include "contact/bounds.hpp"

#include "contact/segment.hpp"

#include <algorithm>

namespace contact {
namespace {

// Extent of the control points along the columns of `axes`, measured from the first control point
// (a local origin keeps round-off small far from the global origin), as [lo, hi] per axis.
template <int D>
void extentAlong(const ControlPoints& cp, const Eigen::Matrix<double, D, D>& axes,
                 Eigen::Matrix<double, D, 1>& lo, Eigen::Matrix<double, D, 1>& hi) noexcept {
    const Eigen::Matrix<double, D, 1> origin = cp.p[0].template head<D>();
    lo.setZero();
    hi.setZero();
    for (int i = 1; i < cp.count; ++i) {
        const Eigen::Matrix<double, D, 1> q =
            axes.transpose() * (cp.p[i].template head<D>() - origin);
        lo = lo.cwiseMin(q);
        hi = hi.cwiseMax(q);
    }
}

}  // namespace

template <int D>
Aabb<D> segmentAabb(const SegmentNodes& s, double buffer) noexcept {
    const ControlPoints cp = controlPoints(s);
    Aabb<D> box;
    box.lo = cp.p[0].template head<D>();
    box.hi = box.lo;
    // cwiseMin / cwiseMax drop a NaN after the first point: 0 * p is NaN exactly where p is not
    // finite, and its sum carries that into the box (the search reports such a box).
    Eigen::Matrix<double, D, 1> notFinite = Eigen::Matrix<double, D, 1>::Zero();
    for (int i = 1; i < cp.count; ++i) {
        const Eigen::Matrix<double, D, 1> p = cp.p[i].template head<D>();
        box.lo = box.lo.cwiseMin(p);
        box.hi = box.hi.cwiseMax(p);
        notFinite += 0.0 * p;
    }
    box.lo += notFinite;
    box.hi += notFinite;
    box.lo.array() -= buffer;
    box.hi.array() += buffer;
    return box;
}

template Aabb<2> segmentAabb<2>(const SegmentNodes&, double) noexcept;
template Aabb<3> segmentAabb<3>(const SegmentNodes&, double) noexcept;

Obb2 segmentObb2d(const SegmentNodes& s, double buffer) noexcept {
    const ControlPoints cp = controlPoints(s);
    Obb2 box;
    const Eigen::Vector2d chord = (s.x[1] - s.x[0]).head<2>();
    const double len = chord.norm();
    if (len > 0.0) {
        const Eigen::Vector2d u = chord / len;
        box.axes.col(0) = u;
        box.axes.col(1) = Eigen::Vector2d(u.y(), -u.x());
    }
    Eigen::Vector2d lo;
    Eigen::Vector2d hi;
    extentAlong<2>(cp, box.axes, lo, hi);
    box.center = cp.p[0].head<2>() + box.axes * (0.5 * (lo + hi));
    box.halfExtent = (0.5 * (hi - lo)).array() + buffer;
    return box;
}

Eigen::Matrix3d faceAxes(const SegmentNodes& s) noexcept {
    Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
    const SegmentFrame fr = segmentFrame(s, referenceCentre(s.type));
    if (!fr.degenerate) {
        axes.col(0) = fr.tangent1;
        axes.col(1) = fr.tangent2;
        axes.col(2) = fr.normal;
    }
    return axes;
}

Obb3 segmentObb3d(const SegmentNodes& s, double buffer) noexcept {
    return segmentObb3dAlong(s, faceAxes(s), buffer);
}

namespace {

// Extent of a face's Bezier hull along the columns of `axes` (extentAlong); returns its origin.
Eigen::Vector3d hullAlong(const SegmentNodes& s, const Eigen::Matrix3d& axes, Eigen::Vector3d& lo,
                          Eigen::Vector3d& hi) noexcept {
    const ControlPoints cp = controlPoints(s);
    extentAlong<3>(cp, axes, lo, hi);
    return cp.p[0];
}

}  // namespace

Obb3 segmentObb3dAlong(const SegmentNodes& s, const Eigen::Matrix3d& axes, double buffer) noexcept {
    Obb3 box;
    box.axes = axes;
    Eigen::Vector3d lo;
    Eigen::Vector3d hi;
    const Eigen::Vector3d origin = hullAlong(s, axes, lo, hi);
    box.center = origin + box.axes * (0.5 * (lo + hi));
    box.halfExtent = (0.5 * (hi - lo)).array() + buffer;
    return box;
}

Obb3 segmentObb3dAbout(const SegmentNodes& s, const Eigen::Matrix3d& axes,
                       const Eigen::Vector3d& centre, double buffer) noexcept {
    Obb3 box;
    box.axes = axes;
    Eigen::Vector3d lo;
    Eigen::Vector3d hi;
    const Eigen::Vector3d c = box.axes.transpose() * (centre - hullAlong(s, axes, lo, hi));
    box.center = centre;
    box.halfExtent = (hi - c).cwiseMax(c - lo).array() + buffer;
    return box;
}

}  // namespace contact
