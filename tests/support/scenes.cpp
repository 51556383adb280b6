// SPDX-License-Identifier: MIT
#include "scenes.hpp"

#include "contact/segment.hpp"

#include <Eigen/Geometry>

#include <cmath>

namespace contact::testing {

double uniform(std::mt19937& rng, double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
}

Eigen::Vector3d randomUnitVector(std::mt19937& rng, bool planar) {
    std::normal_distribution<double> g(0.0, 1.0);
    for (;;) {
        Eigen::Vector3d v(g(rng), g(rng), planar ? 0.0 : g(rng));
        const double n = v.norm();
        if (n > 1e-3) {
            return v / n;
        }
    }
}

Eigen::Matrix3d randomRotation(std::mt19937& rng, bool planar) {
    if (planar) {
        const double a = uniform(rng, -M_PI, M_PI);
        return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    }
    std::normal_distribution<double> g(0.0, 1.0);
    Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
    q.normalize();
    return q.toRotationMatrix();
}

Eigen::Vector2d randomLocalPoint(SegmentType type, std::mt19937& rng) {
    if (parametricDim(type) == 1) {
        return {uniform(rng, -1.0, 1.0), 0.0};
    }
    if (isTriangle(type)) {
        double a = uniform(rng, 0.0, 1.0);
        double b = uniform(rng, 0.0, 1.0);
        if (a + b > 1.0) {
            a = 1.0 - a;
            b = 1.0 - b;
        }
        return {a, b};
    }
    return {uniform(rng, -1.0, 1.0), uniform(rng, -1.0, 1.0)};
}

SegmentNodes transformed(const SegmentNodes& s, const Eigen::Matrix3d& R,
                         const Eigen::Vector3d& t) {
    SegmentNodes out = s;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        out.x[i] = R * s.x[i] + t;
    }
    return out;
}

namespace {

// True when the normal keeps its side over a 7x7 sample of the domain: not folded or collapsed.
bool unfolded(const SegmentNodes& s) {
    const SegmentFrame c = segmentFrame(s, referenceCentre(s.type));
    if (c.degenerate) {
        return false;
    }
    for (int i = 0; i <= 6; ++i) {
        for (int j = 0; j <= 6; ++j) {
            Eigen::Vector2d xi = isTriangle(s.type) ? Eigen::Vector2d(i / 6.0, j / 6.0)
                                                    : Eigen::Vector2d(i / 3.0 - 1, j / 3.0 - 1);
            if (!inReferenceDomain(s.type, xi)) {
                continue;
            }
            const SegmentFrame f = segmentFrame(s, xi);
            if (f.degenerate || f.normal.dot(c.normal) <= 0.0) {
                return false;
            }
        }
    }
    return true;
}

SegmentNodes drawSegment(SegmentType type, std::mt19937& rng, const RandomSegmentOptions& opt);

}  // namespace

SegmentNodes randomSegment(SegmentType type, std::mt19937& rng, const RandomSegmentOptions& opt) {
    for (;;) {
        const SegmentNodes s = drawSegment(type, rng, opt);
        if (unfolded(s)) {
            return s;
        }
    }
}

namespace {

SegmentNodes drawSegment(SegmentType type, std::mt19937& rng, const RandomSegmentOptions& opt) {
    const bool planar = parametricDim(type) == 1;
    SegmentNodes s;
    s.type = type;
    // In-plane affine map of the reference layout with positive determinant and bounded shear,
    // so the segment keeps its orientation and stays far from degenerate.
    Eigen::Matrix2d A;
    A << uniform(rng, 0.6, 1.4), uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3),
        uniform(rng, 0.6, 1.4);
    const double scale = isTriangle(type) ? opt.size : 0.5 * opt.size;
    for (int i = 0; i < nodeCount(type); ++i) {
        const Eigen::Vector2d q = A * nodeLocalCoordinates(type, i) * scale;
        s.x[i] = planar ? Eigen::Vector3d(q.x(), 0.0, 0.0) : Eigen::Vector3d(q.x(), q.y(), 0.0);
    }
    const int nc = cornerCount(type);
    if (type == SegmentType::Quad4) {
        for (int i = 0; i < 4; ++i) {
            s.x[i].z() += uniform(rng, -opt.warp, opt.warp) * opt.size;
        }
    }
    if (isQuadratic(type)) {
        for (int i = nc; i < nodeCount(type); ++i) {
            for (int k = 0; k < (planar ? 2 : 3); ++k) {
                s.x[i][k] += uniform(rng, -opt.curvature, opt.curvature) * opt.size;
            }
        }
    }
    const Eigen::Matrix3d R = randomRotation(rng, planar);
    Eigen::Vector3d t(uniform(rng, -opt.offset, opt.offset), uniform(rng, -opt.offset, opt.offset),
                      planar ? 0.0 : uniform(rng, -opt.offset, opt.offset));
    return transformed(s, R, t);
}

}  // namespace

}  // namespace contact::testing
