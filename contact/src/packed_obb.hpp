// SPDX-License-Identifier: MIT
// Oriented boxes packed for the searches' per-segment storage: 56 or 20 bytes instead of 120, the
// axes as a quaternion, the extents rounded up, so the box still encloses the segment. Internal;
// never installed.
#pragma once

#include "contact/tolerances.hpp"
#include "contact/types.hpp"

#include "float_box.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <cstdint>

namespace contact::detail {

/// A 3D OBB in 56 bytes instead of 120 (segment mode's masters with two surfaces): the centre in
/// double, the rotation as a float quaternion (x, y, z, w; not normalized), the half extents in
/// float. The box it stands for has the axes of that quaternion's rotation matrix (rotationOf).
struct PackedObb3 {
    double centre[3] = {0.0, 0.0, 0.0};
    float rotation[4] = {0.0F, 0.0F, 0.0F, 1.0F};
    float halfExtent[3] = {0.0F, 0.0F, 0.0F};
};

/// Buffered 3D OBB (segmentObb3d grown by capture + pad), packed: the frame is rounded to a float
/// quaternion first and the extents are taken along the axes it stands for, rounded up to float,
/// so the box still encloses the segment grown by capture + pad.
[[nodiscard]] PackedObb3 packedBufferedObb3(const SegmentNodes& s, double capture,
                                            double pad) noexcept;

/// The rotation matrix of a quaternion (x, y, z, w), any positive scale: orthonormal to double
/// rounding. One compiled definition per code, so packing and every unpacking see the same axes.
[[nodiscard]] Eigen::Matrix3d rotationOf(const float* q) noexcept;
[[nodiscard]] Eigen::Matrix3d rotationOf(const std::int16_t* q) noexcept;

/// The box a PackedObb3 stands for.
[[nodiscard]] Obb3 unpackObb(const PackedObb3& p) noexcept;

/// A 3D OBB in 20 bytes (node mode's masters, and segment mode's with one surface on both sides),
/// packed about a float box that encloses the buffered segment (its buffered AABB rounded outward,
/// which the searches keep anyway): the rotation as an int16 quaternion (x, y, z, w; the largest
/// at +-32767, not normalized), the centre as an offset from the box's centre in 32767ths of its
/// half sizes, the half extents in steps of obbExtentStep(box), rounded up. Every field is a
/// code: packing takes the extents along the axes and about the centre that unpacking rebuilds,
/// so the box encloses the buffered segment exactly.
struct CentredObb3 {
    std::int16_t rotation[4] = {0, 0, 0, 32767};
    std::int16_t offset[3] = {0, 0, 0};
    std::uint16_t halfExtent[3] = {0, 0, 0};
};

/// The centre of a CentredObb3 built about float box b: b's centre plus offset / 32767 of b's half
/// sizes, in double. One definition for packing and unpacking.
[[nodiscard]] inline Eigen::Vector3d obbCentre(const std::int16_t* offset,
                                               const FloatBox& b) noexcept {
    Eigen::Vector3d c;
    for (int k = 0; k < 3; ++k) {
        const double lo = b.lo[k];
        const double hi = b.hi[k];
        c[k] = 0.5 * (lo + hi) + (0.5 * (hi - lo)) * (offset[k] * (1.0 / 32767.0));
    }
    return c;
}

/// The unit of a CentredObb3's half extents about float box b: 2 / 65000 of the sum of b's half
/// sizes. From a centre inside b, the buffered segment (which b encloses) reaches at most twice
/// that sum along any unit axis, so every half extent fits in 16 bits with room for the rounding.
[[nodiscard]] inline double obbExtentStep(const FloatBox& b) noexcept {
    const double sum = (static_cast<double>(b.hi[0]) - b.lo[0]) +
                       (static_cast<double>(b.hi[1]) - b.lo[1]) +
                       (static_cast<double>(b.hi[2]) - b.lo[2]);
    return sum * (1.0 / 65000.0);
}

/// The half extents a CentredObb3 packed about float box b stands for: its codes times the step.
/// One definition for unpacking and the overlap witness.
[[nodiscard]] inline Eigen::Vector3d obbHalfExtents(const std::uint16_t* code,
                                                    const FloatBox& b) noexcept {
    const double step = obbExtentStep(b);
    return {code[0] * step, code[1] * step, code[2] * step};
}

/// The buffered OBB (grown by capture + pad) packed about float box `box`, which encloses it (the
/// segment's buffered AABB rounded outward). Along the face frame, with the tight box's centre
/// rounded to the nearest offset and the extents grown by that rounding; or (keep) along keep's
/// axes about keep's offset in `box`, the extents taken about that centre. Extents are rounded up
/// to whole steps, so the box encloses the segment grown by capture + pad either way.
[[nodiscard]] CentredObb3 centredBufferedObb3(const SegmentNodes& s, double capture, double pad,
                                              const FloatBox& box,
                                              const CentredObb3* keep) noexcept;

/// The box a CentredObb3 stands for, with the float box it was packed about.
[[nodiscard]] Obb3 unpackObb(const CentredObb3& p, const FloatBox& box) noexcept;

/// True when a point of box a lies in box B (centre cB, the axes of quaternion (v, w), half
/// extents hB: a packed box's, as unpackObb gives them) with a margin above every rounding: then
/// the boxes overlap and satOverlap3d(a, B) is true (its axis tests never separate overlapping
/// boxes), so the narrow phase may skip it. Costs no rotation matrix of B.
///
///   t = a^T T (T = cB - cA), s_i = t_i clamped to [-hA_i, hA_i]: w = cA + a s lies in a exactly
///   d = w - cB = a s - T;  B's coordinates of d: M^T d / n, with M = n R(q) the rotation of the
///   quaternion q = (v, w) scaled by n = |q|^2:  M^T d = (w^2 - |v|^2) d + 2 (v . d) v - 2 w (v x
///   d) true when |(M^T d)_j| <= (hB_j - tol) n for j = 0, 1, 2
///
/// tol = kSatRoundoff (|T|_1 + sum hA + sum hB), the SAT's own bound: the rounding of d and of
/// M^T d (a few ulps of sum hA + |T|_1) and the difference between R(q) and unpackObb's rounded
/// axes (a few ulps) stay far below it.
[[nodiscard]] inline bool overlapWitness(const Obb3& a, const Eigen::Vector3d& cB,
                                         const Eigen::Vector3d& v, double w,
                                         const Eigen::Vector3d& hB) noexcept {
    const Eigen::Vector3d T = cB - a.center;
    const Eigen::Vector3d t = a.axes.transpose() * T;
    const Eigen::Vector3d s = t.cwiseMax(-a.halfExtent).cwiseMin(a.halfExtent);
    const Eigen::Vector3d d = a.axes * s - T;
    const double vv = v.squaredNorm();
    const double n = vv + w * w;
    const Eigen::Vector3d u = (w * w - vv) * d + (2.0 * v.dot(d)) * v - (2.0 * w) * v.cross(d);
    const double tol = tol::kSatRoundoff * (T.lpNorm<1>() + a.halfExtent.sum() + hB.sum());
    bool inside = true;
    for (int j = 0; j < 3; ++j) {
        inside = inside && std::abs(u[j]) <= (hB[j] - tol) * n;
    }
    return inside;
}

/// The same for the box packed as PackedObb3 b.
[[nodiscard]] inline bool overlapWitness(const Obb3& a, const PackedObb3& b) noexcept {
    return overlapWitness(a, Eigen::Vector3d(b.centre[0], b.centre[1], b.centre[2]),
                          Eigen::Vector3d(b.rotation[0], b.rotation[1], b.rotation[2]),
                          b.rotation[3],
                          Eigen::Vector3d(b.halfExtent[0], b.halfExtent[1], b.halfExtent[2]));
}

/// The same for a box packed as CentredObb3 b about float box `box`: its centre and extents are
/// decoded first (about 14 ns more a call than the PackedObb3 form, measured).
[[nodiscard]] inline bool overlapWitness(const Obb3& a, const CentredObb3& b,
                                         const FloatBox& box) noexcept {
    return overlapWitness(a, obbCentre(b.offset, box),
                          Eigen::Vector3d(b.rotation[0], b.rotation[1], b.rotation[2]),
                          b.rotation[3], obbHalfExtents(b.halfExtent, box));
}

}  // namespace contact::detail
