// SPDX-License-Identifier: MIT
#include "packed_obb.hpp"

#include "contact/bounds.hpp"

#include <algorithm>
#include <cmath>

namespace contact::detail {
namespace {

// The float quaternion of a proper rotation, by Shepperd's method: from the largest of w, x, y, z
// (no cancellation); the identity's for a non-finite matrix.
void quaternionOf(const Eigen::Matrix3d& r, float* out) noexcept {
    const double tr = r(0, 0) + r(1, 1) + r(2, 2);
    double q[4];  // x, y, z, w, up to a common positive factor
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

}  // namespace

Eigen::Matrix3d rotationOf(const float* q) noexcept {
    const double x = q[0];
    const double y = q[1];
    const double z = q[2];
    const double w = q[3];
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
    if (keep != nullptr) {
        p = *keep;
        const Obb3 b =
            segmentObb3dAbout(s, rotationOf(p.rotation), obbCentre(p.offset, box), capture + pad);
        for (int k = 0; k < 3; ++k) {
            p.halfExtent[k] = floatUp(b.halfExtent[k]);
        }
        return p;
    }
    quaternionOf(faceAxes(s), p.rotation);
    const Obb3 tight = segmentObb3dAlong(s, rotationOf(p.rotation), capture + pad);
    for (int k = 0; k < 3; ++k) {
        const double half = 0.5 * (static_cast<double>(box.hi[k]) - static_cast<double>(box.lo[k]));
        const double mid = 0.5 * (static_cast<double>(box.lo[k]) + static_cast<double>(box.hi[k]));
        const double steps = half > 0.0 ? 127.0 * (tight.center[k] - mid) / half : 0.0;
        // Nearest step by truncation (no library call); NaN gives 0.
        const double t = std::isfinite(steps) ? std::clamp(steps, -127.0, 127.0) : 0.0;
        p.offset[k] = static_cast<std::int8_t>(t + (t >= 0.0 ? 0.5 : -0.5));
    }
    const Eigen::Vector3d shift =
        tight.axes.transpose() * (obbCentre(p.offset, box) - tight.center);
    for (int k = 0; k < 3; ++k) {
        p.halfExtent[k] = floatUp(tight.halfExtent[k] + std::abs(shift[k]));
    }
    return p;
}

Obb3 unpackObb(const CentredObb3& p, const FloatBox& box) noexcept {
    Obb3 b;
    b.center = obbCentre(p.offset, box);
    b.axes = rotationOf(p.rotation);
    b.halfExtent = Eigen::Vector3d(p.halfExtent[0], p.halfExtent[1], p.halfExtent[2]);
    return b;
}

}  // namespace contact::detail
