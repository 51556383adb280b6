// SPDX-License-Identifier: MIT
#include "packed_obb.hpp"

#include "contact/bounds.hpp"

#include "detail/assert.hpp"

#include <algorithm>
#include <cmath>

namespace contact::detail {
namespace {

// t (in [-32767, 32767]) rounded to the nearest integer, halves away from zero: by truncation, no
// library call (the searches pack every segment each update).
std::int16_t nearestInt16(double t) noexcept {
    return static_cast<std::int16_t>(t + (t >= 0.0 ? 0.5 : -0.5));
}

// The quaternion q (x, y, z, w, up to a common positive factor) of a proper rotation, by
// Shepperd's method: from the largest of w, x, y, z (no cancellation).
void shepperd(const Eigen::Matrix3d& r, double* q) noexcept {
    const double tr = r(0, 0) + r(1, 1) + r(2, 2);
    if (tr >= r(0, 0) && tr >= r(1, 1) && tr >= r(2, 2)) {
        q[3] = 1.0 + tr;
        q[0] = r(2, 1) - r(1, 2);
        q[1] = r(0, 2) - r(2, 0);
        q[2] = r(1, 0) - r(0, 1);
    } else if (r(0, 0) >= r(1, 1) && r(0, 0) >= r(2, 2)) {
        q[0] = 1.0 + r(0, 0) - r(1, 1) - r(2, 2);
        q[1] = r(0, 1) + r(1, 0);
        q[2] = r(0, 2) + r(2, 0);
        q[3] = r(2, 1) - r(1, 2);
    } else if (r(1, 1) >= r(2, 2)) {
        q[0] = r(0, 1) + r(1, 0);
        q[1] = 1.0 + r(1, 1) - r(0, 0) - r(2, 2);
        q[2] = r(1, 2) + r(2, 1);
        q[3] = r(0, 2) - r(2, 0);
    } else {
        q[0] = r(0, 2) + r(2, 0);
        q[1] = r(1, 2) + r(2, 1);
        q[2] = 1.0 + r(2, 2) - r(0, 0) - r(1, 1);
        q[3] = r(1, 0) - r(0, 1);
    }
}

// The float quaternion of a proper rotation (shepperd); the identity's for a non-finite matrix.
void quaternionOf(const Eigen::Matrix3d& r, float* out) noexcept {
    double q[4];
    shepperd(r, q);
    float norm = 0.0F;
    for (int k = 0; k < 4; ++k) {
        out[k] = static_cast<float>(q[k]);
        norm += std::abs(out[k]);
    }
    if (!(norm > 0.0F) || !std::isfinite(norm)) {
        out[0] = out[1] = out[2] = 0.0F;
        out[3] = 1.0F;
    }
}

// The int16 quaternion of a proper rotation (shepperd), scaled so that its largest component is
// +-32767; the identity's for a non-finite matrix (a segment collapsed by the coordinates).
void quaternionOf(const Eigen::Matrix3d& r, std::int16_t* out) noexcept {
    double q[4];
    shepperd(r, q);
    const double largest =
        std::max({std::abs(q[0]), std::abs(q[1]), std::abs(q[2]), std::abs(q[3])});
    // A NaN component must not reach the integer cast (max() may pass over it).
    const bool finite = std::isfinite(q[0] + q[1] + q[2] + q[3]);
    if (!finite || !(largest > 0.0)) {
        out[0] = out[1] = out[2] = 0;
        out[3] = 32767;
        return;
    }
    const double scale = 32767.0 / largest;
    for (int k = 0; k < 4; ++k) {
        out[k] = nearestInt16(scale * q[k]);
    }
}

// The nearest of the 2 x 32767 + 1 offsets of v from b's centre along axis k (0 for NaN).
std::int16_t offsetOf(double v, const FloatBox& b, int k) noexcept {
    const double half = 0.5 * (static_cast<double>(b.hi[k]) - static_cast<double>(b.lo[k]));
    const double mid = 0.5 * (static_cast<double>(b.lo[k]) + static_cast<double>(b.hi[k]));
    const double steps = half > 0.0 ? 32767.0 * (v - mid) / half : 0.0;
    return nearestInt16(std::isfinite(steps) ? std::clamp(steps, -32767.0, 32767.0) : 0.0);
}

// Half extent e in whole steps, rounded up: the code c with c x step >= e (0 for e <= 0 or NaN),
// from e x inverse (inverse = 1 / step, rounded) by truncation and at most two steps up. e never
// needs more than about 65000 steps (obbExtentStep); the clamp only guards the cast.
std::uint16_t extentSteps(double e, double step, double inverse) noexcept {
    if (!(e > 0.0)) {
        return 0;
    }
    const double guess = e * inverse;
    auto code = static_cast<std::uint16_t>(guess < 65535.0 ? guess : 65535.0);
    while (static_cast<double>(code) * step < e && code < 65535) {
        ++code;
    }
    CONTACT_ASSERT(static_cast<double>(code) * step >= e);
    return code;
}

// The rotation matrix of quaternion (x, y, z, w), any positive scale.
Eigen::Matrix3d rotationOfQuaternion(double x, double y, double z, double w) noexcept {
    const double s = 2.0 / (x * x + y * y + z * z + w * w);
    const double xx = s * x * x;
    const double yy = s * y * y;
    const double zz = s * z * z;
    const double xy = s * x * y;
    const double xz = s * x * z;
    const double yz = s * y * z;
    const double xw = s * x * w;
    const double yw = s * y * w;
    const double zw = s * z * w;
    Eigen::Matrix3d r;
    r(0, 0) = 1.0 - (yy + zz);
    r(0, 1) = xy - zw;
    r(0, 2) = xz + yw;
    r(1, 0) = xy + zw;
    r(1, 1) = 1.0 - (xx + zz);
    r(1, 2) = yz - xw;
    r(2, 0) = xz - yw;
    r(2, 1) = yz + xw;
    r(2, 2) = 1.0 - (xx + yy);
    return r;
}

}  // namespace

Eigen::Matrix3d rotationOf(const float* q) noexcept {
    return rotationOfQuaternion(q[0], q[1], q[2], q[3]);
}

Eigen::Matrix3d rotationOf(const std::int16_t* q) noexcept {
    return rotationOfQuaternion(q[0], q[1], q[2], q[3]);
}

Obb3 unpackObb(const PackedObb3& p) noexcept {
    Obb3 b;
    b.center = Eigen::Vector3d(p.centre[0], p.centre[1], p.centre[2]);
    b.axes = rotationOf(p.rotation);
    b.halfExtent = Eigen::Vector3d(p.halfExtent[0], p.halfExtent[1], p.halfExtent[2]);
    return b;
}

// The buffered OBB with the axes rounded to a float quaternion first: its extents are taken along
// exactly the axes unpackObb() rebuilds, so it encloses the segment grown by capture + pad.
PackedObb3 packedBufferedObb3(const SegmentNodes& s, double capture, double pad) noexcept {
    PackedObb3 p;
    quaternionOf(faceAxes(s), p.rotation);
    const Obb3 box = segmentObb3dAlong(s, rotationOf(p.rotation), capture + pad);
    for (int k = 0; k < 3; ++k) {
        p.centre[k] = box.center[k];
        p.halfExtent[k] = floatUp(box.halfExtent[k]);
    }
    return p;
}

CentredObb3 centredBufferedObb3(const SegmentNodes& s, double capture, double pad,
                                const FloatBox& box, const CentredObb3* keep) noexcept {
    CentredObb3 p;
    const double step = obbExtentStep(box);
    const double inverse = 1.0 / step;
    if (keep != nullptr) {
        p = *keep;
        const Obb3 b =
            segmentObb3dAbout(s, rotationOf(p.rotation), obbCentre(p.offset, box), capture + pad);
        for (int k = 0; k < 3; ++k) {
            p.halfExtent[k] = extentSteps(b.halfExtent[k], step, inverse);
        }
        return p;
    }
    quaternionOf(faceAxes(s), p.rotation);
    const Obb3 tight = segmentObb3dAlong(s, rotationOf(p.rotation), capture + pad);
    for (int k = 0; k < 3; ++k) {
        p.offset[k] = offsetOf(tight.center[k], box, k);
    }
    const Eigen::Vector3d shift =
        tight.axes.transpose() * (obbCentre(p.offset, box) - tight.center);
    for (int k = 0; k < 3; ++k) {
        p.halfExtent[k] = extentSteps(tight.halfExtent[k] + std::abs(shift[k]), step, inverse);
    }
    return p;
}

Obb3 unpackObb(const CentredObb3& p, const FloatBox& box) noexcept {
    Obb3 b;
    b.center = obbCentre(p.offset, box);
    b.axes = rotationOf(p.rotation);
    b.halfExtent = obbHalfExtents(p.halfExtent, box);
    return b;
}

}  // namespace contact::detail
