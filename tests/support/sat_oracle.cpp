// SPDX-License-Identifier: MIT
#include "sat_oracle.hpp"

#include "contact/tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contact::testing {
namespace {

using Eigen::Vector3d;

// a*b - c*d with both products split exactly into value + error (TwoProduct by fma), so the
// difference keeps its relative accuracy when the products nearly cancel. A plain cross product of
// nearly parallel unit vectors has an error of ~eps / sine in its direction, which would tilt the
// oracle's edge axes by up to ~1e-7 for edges 1e-9 rad apart.
double twoProductDiff(double a, double b, double c, double d) {
    const double p = a * b;
    const double ep = std::fma(a, b, -p);
    const double q = c * d;
    const double eq = std::fma(c, d, -q);
    return (p - q) + (ep - eq);
}

Vector3d accurateCross(const Vector3d& u, const Vector3d& v) {
    return {twoProductDiff(u.y(), v.z(), u.z(), v.y()), twoProductDiff(u.z(), v.x(), u.x(), v.z()),
            twoProductDiff(u.x(), v.y(), u.y(), v.x())};
}

// Shared core: raw (unnormalized) axes with their eligibility for "least penetration", and the
// corners of both boxes relative to A's centre (a translation, which keeps the projections exact
// to a few ulps of the boxes instead of the coordinates).
template <int N, std::size_t NC>
SatOracleResult<N> projectAll(const std::array<Vector3d, N>& raw, const std::array<bool, N>& sineOk,
                              const Vector3d& T, const std::array<Vector3d, NC>& cornersA,
                              const std::array<Vector3d, NC>& cornersB) {
    SatOracleResult<N> o;
    o.margin = -std::numeric_limits<double>::infinity();
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < N; ++k) {
        const double len = raw[k].stableNorm();
        if (!(len >= 1e-300)) {  // exactly parallel edges: no axis
            o.valid[k] = false;
            o.eligible[k] = false;
            o.depth[k] = std::numeric_limits<double>::quiet_NaN();
            o.axis[k].setZero();
            continue;
        }
        Vector3d n = raw[k] / len;
        if (n.dot(T) < 0.0) {
            n = -n;
        }
        double minA = std::numeric_limits<double>::infinity();
        double maxA = -minA;
        double minB = minA;
        double maxB = -minA;
        for (const Vector3d& p : cornersA) {
            minA = std::min(minA, p.dot(n));
            maxA = std::max(maxA, p.dot(n));
        }
        for (const Vector3d& p : cornersB) {
            minB = std::min(minB, p.dot(n));
            maxB = std::max(maxB, p.dot(n));
        }
        const double gap = std::max(minB - maxA, minA - maxB);
        o.valid[k] = true;
        o.eligible[k] = sineOk[k];
        o.depth[k] = -gap;
        o.axis[k] = n;
        if (gap > o.margin) {
            o.margin = gap;
            o.marginAxis = k;
        }
        if (o.eligible[k] && -gap < least) {
            least = -gap;
            o.leastAxis = k;
        }
    }
    o.separated = o.margin > 0.0;
    return o;
}

// Corners relative to `origin`, as 3D points (z = 0 in 2D).
template <int D>
std::array<Vector3d, (1 << D)> cornersFrom(const Eigen::Matrix<double, D, 1>& center,
                                           const Eigen::Matrix<double, D, D>& axes,
                                           const Eigen::Matrix<double, D, 1>& halfExtent,
                                           const Eigen::Matrix<double, D, 1>& origin) {
    std::array<Vector3d, (1 << D)> out{};
    for (int m = 0; m < (1 << D); ++m) {
        Eigen::Matrix<double, D, 1> p = center - origin;
        for (int k = 0; k < D; ++k) {
            p += ((m >> k) & 1 ? 1.0 : -1.0) * halfExtent[k] * axes.col(k);
        }
        out[m].setZero();
        out[m].template head<D>() = p;
    }
    return out;
}

template <int D>
Vector3d lift(const Eigen::Matrix<double, D, 1>& v) {
    Vector3d out = Vector3d::Zero();
    out.template head<D>() = v;
    return out;
}

}  // namespace

SatOracle2d satOracle2d(const Obb2& a, const Obb2& b) {
    std::array<Vector3d, 4> raw{lift<2>(a.axes.col(0)), lift<2>(a.axes.col(1)),
                                lift<2>(b.axes.col(0)), lift<2>(b.axes.col(1))};
    const std::array<bool, 4> sineOk{true, true, true, true};
    return projectAll<4>(raw, sineOk, lift<2>(b.center - a.center),
                         cornersFrom<2>(a.center, a.axes, a.halfExtent, a.center),
                         cornersFrom<2>(b.center, b.axes, b.halfExtent, a.center));
}

SatOracle3d satOracle3d(const Obb3& a, const Obb3& b) {
    std::array<Vector3d, 15> raw{};
    std::array<bool, 15> sineOk{};
    for (int i = 0; i < 3; ++i) {
        raw[i] = a.axes.col(i);
        raw[3 + i] = b.axes.col(i);
        sineOk[i] = true;
        sineOk[3 + i] = true;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const int k = 6 + 3 * i + j;
            raw[k] = accurateCross(a.axes.col(i), b.axes.col(j));
            const double sine = raw[k].stableNorm() / (a.axes.col(i).norm() * b.axes.col(j).norm());
            sineOk[k] = sine >= tol::kSatMinEdgeAxisSine;
        }
    }
    return projectAll<15>(raw, sineOk, b.center - a.center,
                          cornersFrom<3>(a.center, a.axes, a.halfExtent, a.center),
                          cornersFrom<3>(b.center, b.axes, b.halfExtent, a.center));
}

template <int N>
bool leastAxisUnique(const SatOracleResult<N>& o, double hysteresisScale, double slack) {
    if (o.leastAxis < 0) {
        return false;
    }
    const double best = o.depth[o.leastAxis];
    for (int k = 0; k < N; ++k) {
        if (k == o.leastAxis || !o.eligible[k]) {
            continue;
        }
        if (!(tol::kSatRelativeTol * o.depth[k] - tol::kSatAbsoluteTol * hysteresisScale >
              best + slack)) {
            return false;
        }
    }
    return true;
}

template bool leastAxisUnique<4>(const SatOracle2d&, double, double);
template bool leastAxisUnique<15>(const SatOracle3d&, double, double);

double pairScale(const Obb2& a, const Obb2& b) {
    return std::max({a.center.cwiseAbs().maxCoeff(), b.center.cwiseAbs().maxCoeff(),
                     a.halfExtent.maxCoeff(), b.halfExtent.maxCoeff()});
}

double pairScale(const Obb3& a, const Obb3& b) {
    return std::max({a.center.cwiseAbs().maxCoeff(), b.center.cwiseAbs().maxCoeff(),
                     a.halfExtent.maxCoeff(), b.halfExtent.maxCoeff()});
}

double hysteresisScale(const Obb2& a, const Obb2& b) {
    return std::min(a.halfExtent.maxCoeff(), b.halfExtent.maxCoeff());
}

double hysteresisScale(const Obb3& a, const Obb3& b) {
    return std::min(a.halfExtent.maxCoeff(), b.halfExtent.maxCoeff());
}

std::array<Eigen::Vector2d, 4> obbCorners(const Obb2& box) {
    std::array<Eigen::Vector2d, 4> out{};
    const auto rel = cornersFrom<2>(box.center, box.axes, box.halfExtent, Eigen::Vector2d::Zero());
    for (int m = 0; m < 4; ++m) {
        out[m] = rel[m].head<2>();
    }
    return out;
}

std::array<Eigen::Vector3d, 8> obbCorners(const Obb3& box) {
    return cornersFrom<3>(box.center, box.axes, box.halfExtent, Vector3d::Zero());
}

bool obbContains(const Obb2& box, const Eigen::Vector2d& p, double slack) {
    const Eigen::Vector2d q = box.axes.transpose() * (p - box.center);
    return (q.cwiseAbs().array() <= box.halfExtent.array() + slack).all();
}

bool obbContains(const Obb3& box, const Eigen::Vector3d& p, double slack) {
    const Eigen::Vector3d q = box.axes.transpose() * (p - box.center);
    return (q.cwiseAbs().array() <= box.halfExtent.array() + slack).all();
}

Eigen::Vector2d obbClamp(const Obb2& box, const Eigen::Vector2d& p) {
    const Eigen::Vector2d q = box.axes.transpose() * (p - box.center);
    return box.center + box.axes * q.cwiseMax(-box.halfExtent).cwiseMin(box.halfExtent);
}

Eigen::Vector3d obbClamp(const Obb3& box, const Eigen::Vector3d& p) {
    const Eigen::Vector3d q = box.axes.transpose() * (p - box.center);
    return box.center + box.axes * q.cwiseMax(-box.halfExtent).cwiseMin(box.halfExtent);
}

}  // namespace contact::testing
