// SPDX-License-Identifier: MIT
// Separating-axis tests between oriented boxes (Gottschalk, Lin, Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", SIGGRAPH 1996), written flat like FCL's obbDisjoint,
// but in the world frame and with a rounding bound that scales with the pair (tolerances.hpp).
#include "contact/sat.hpp"

#include "contact/tolerances.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>

namespace contact {
namespace {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;

// One tested axis L (not normalized), the centre offset along it, T.L, and the sum of the box
// radii along it, r = rA + rB with rA = sum_k hA_k |a_k . L|. Overlap along L is r - |T.L|.
template <int D>
struct AxisTest {
    Eigen::Matrix<double, D, 1> L;
    double tl;
    double r;
};
using AxisTest2 = AxisTest<2>;
using AxisTest3 = AxisTest<3>;

// a*d - b*c to within about 1.5 ulp of the result (Kahan's algorithm): the fma recovers the
// rounding error of b*c exactly, so the result keeps its relative accuracy when a*d ~ b*c.
double diffOfProducts(double a, double b, double c, double d) noexcept {
    const double w = b * c;
    const double e = std::fma(-b, c, w);
    const double f = std::fma(a, d, -w);
    return f + e;
}

// u x v with every component accurate relative to itself: nearly parallel edges keep the exact
// direction of their cross product, and exactly parallel ones give exactly zero.
Vector3d crossAccurate(const Vector3d& u, const Vector3d& v) noexcept {
    return {diffOfProducts(u.y(), u.z(), v.y(), v.z()), diffOfProducts(u.z(), u.x(), v.z(), v.x()),
            diffOfProducts(u.x(), u.y(), v.x(), v.y())};
}

// Records a face axis (unit L, so the rounding bound is tol itself); true if it separates.
template <int D>
bool faceSeparates(AxisTest<D>& out, const Eigen::Matrix<double, D, 1>& L,
                   const Eigen::Matrix<double, D, 1>& T, double r, double tol) noexcept {
    out.L = L;
    out.tl = T.dot(L);
    out.r = r;
    return std::abs(out.tl) > r + tol;
}

// Records the edge-pair axis L = a_i x b_j; true if it separates. The radii use only the two other
// axes of each box: a_i . L and b_j . L vanish to rounding relative to |L| because crossAccurate
// keeps L's direction exact (a plain cross product of nearly parallel edges tilts L, and the
// dropped terms then make a false "separated"). The rounding bound scales with |L|_1, so the test
// is homogeneous in L: a tiny L is as good as a unit one, and L = 0 can never separate.
bool edgeSeparates(AxisTest3& out, const Obb3& a, const Obb3& b, int i, int j, const Vector3d& T,
                   double tol) noexcept {
    const int i1 = (i + 1) % 3;
    const int i2 = (i + 2) % 3;
    const int j1 = (j + 1) % 3;
    const int j2 = (j + 2) % 3;
    const Vector3d L = crossAccurate(a.axes.col(i), b.axes.col(j));
    out.L = L;
    out.tl = T.dot(L);
    out.r = a.halfExtent[i1] * std::abs(a.axes.col(i1).dot(L)) +
            a.halfExtent[i2] * std::abs(a.axes.col(i2).dot(L)) +
            b.halfExtent[j1] * std::abs(b.axes.col(j1).dot(L)) +
            b.halfExtent[j2] * std::abs(b.axes.col(j2).dot(L));
    return std::abs(out.tl) > out.r + tol * L.lpNorm<1>();
}

// Unit normal along a tested axis, oriented from A to B (kept as is when T.L = 0).
template <int D>
Eigen::Matrix<double, D, 1> orientedUnit(const AxisTest<D>& t) noexcept {
    const Eigen::Matrix<double, D, 1> n = t.L.stableNormalized();
    return t.tl < 0.0 ? Eigen::Matrix<double, D, 1>(-n) : n;
}

// Result for the first separating axis.
template <int D>
SatResult separatedOn(int axis, const AxisTest<D>& t) noexcept {
    SatResult res;
    res.separated = true;
    res.axis = axis;
    res.depth = 0.0;
    res.normal.template head<D>() = orientedUnit(t);
    return res;
}

// Hysteresis of Box2D-Lite (Catto, Collide.cpp: relativeTol 0.95, absoluteTol 0.01): a later axis
// replaces the current best only if clearly shallower, so near-ties do not flicker between calls.
bool clearlyShallower(double depth, double bestDepth, double scale) noexcept {
    return depth < tol::kSatRelativeTol * bestDepth - tol::kSatAbsoluteTol * scale;
}

// Result for the least-penetration axis on overlap.
template <int D>
SatResult overlapOn(int axis, const AxisTest<D>& t, double depth) noexcept {
    SatResult res;
    res.separated = false;
    res.axis = axis;
    res.depth = std::max(depth, 0.0);
    res.normal.template head<D>() = orientedUnit(t);
    return res;
}

}  // namespace

// satDisjoint2d: SAT on the 4 face axes of two rectangles.
//
//   T = cB - cA,  tol = kSatRoundoff * (|T|_1 + sum hA + sum hB)
//   for L in (a0, a1, b0, b1):                      // L unit
//       r = sum_k hA_k |a_k . L| + sum_k hB_k |b_k . L|
//       if |T . L| > r + tol: return separated on L  // oriented A -> B
//   // overlap: least penetration, depth_L = r - |T . L|
//   best = argmin over (a0, a1); then b0, b1 replace it only if
//       depth < kSatRelativeTol * best - kSatAbsoluteTol * min(max hA, max hB)   // Box2D-Lite
//   return best, depth clamped at >= 0, normal oriented A -> B
SatResult satDisjoint2d(const Obb2& a, const Obb2& b) noexcept {
    const Vector2d T = b.center - a.center;
    const Vector2d& hA = a.halfExtent;
    const Vector2d& hB = b.halfExtent;
    // Dot products between the box axes: G_A(k, i) = a_k . a_i, R(i, j) = a_i . b_j. Using G
    // instead of the identity keeps the radii exact for frames that are orthonormal only to
    // rounding.
    const Matrix2d absGA = (a.axes.transpose() * a.axes).cwiseAbs();
    const Matrix2d absGB = (b.axes.transpose() * b.axes).cwiseAbs();
    const Matrix2d absR = (a.axes.transpose() * b.axes).cwiseAbs();
    const double tol = tol::kSatRoundoff * (T.lpNorm<1>() + hA.sum() + hB.sum());

    std::array<AxisTest2, 4> t{};
    // A0
    if (faceSeparates<2>(t[0], a.axes.col(0), T, hA.dot(absGA.col(0)) + hB.dot(absR.row(0)), tol)) {
        return separatedOn(0, t[0]);
    }
    // A1
    if (faceSeparates<2>(t[1], a.axes.col(1), T, hA.dot(absGA.col(1)) + hB.dot(absR.row(1)), tol)) {
        return separatedOn(1, t[1]);
    }
    // B0
    if (faceSeparates<2>(t[2], b.axes.col(0), T, hA.dot(absR.col(0)) + hB.dot(absGB.col(0)), tol)) {
        return separatedOn(2, t[2]);
    }
    // B1
    if (faceSeparates<2>(t[3], b.axes.col(1), T, hA.dot(absR.col(1)) + hB.dot(absGB.col(1)), tol)) {
        return separatedOn(3, t[3]);
    }

    const double scale = std::min(hA.maxCoeff(), hB.maxCoeff());
    int best = 0;
    double bestDepth = t[0].r - std::abs(t[0].tl);
    const double depthA1 = t[1].r - std::abs(t[1].tl);
    if (depthA1 < bestDepth) {
        best = 1;
        bestDepth = depthA1;
    }
    for (int k = 2; k < 4; ++k) {
        const double depth = t[k].r - std::abs(t[k].tl);
        if (clearlyShallower(depth, bestDepth, scale)) {
            best = k;
            bestDepth = depth;
        }
    }
    return overlapOn(best, t[best], bestDepth);
}

// satDisjoint3d: SAT on the 15 axes of two boxes, in the order of Gottschalk's OBBTree paper.
//
//   T = cB - cA,  tol = kSatRoundoff * (|T|_1 + sum hA + sum hB)
//   face axes a0, a1, a2, b0, b1, b2 (unit):
//       r = sum_k hA_k |a_k . L| + sum_k hB_k |b_k . L|
//       if |T . L| > r + tol: return separated on L
//   edge axes L = a_i x b_j (axis 6 + 3 i + j), cross product by difference of products (fma):
//       r = sum_k hA_k |a_k . L| + sum_k hB_k |b_k . L|       // a_i and b_j terms vanish
//       if |T . L| > r + tol * |L|_1: return separated on L   // no sqrt, homogeneous in L
//   Exactly parallel edges give L = 0, which never separates; this is the parallel-edge case of
//   Gottschalk's thesis (Collision Queries using Oriented Bounding Boxes, UNC 2000, p. 83), where a
//   rounded near-zero L would otherwise "separate" overlapping boxes (FCL's boxBox2 comment).
//   // overlap: depth_L = (r - |T . L|) / |L|; edge axes with sine |L| / (|a_i| |b_j|) below
//   // kSatMinEdgeAxisSine are not eligible (ill-conditioned direction).
//   best = argmin over A's faces; then B's faces, then the eligible edge axes replace it only if
//       depth < kSatRelativeTol * best - kSatAbsoluteTol * min(max hA, max hB)   // Box2D-Lite
//   return best, depth clamped at >= 0, normal oriented A -> B
SatResult satDisjoint3d(const Obb3& a, const Obb3& b) noexcept {
    const Vector3d T = b.center - a.center;
    const Vector3d& hA = a.halfExtent;
    const Vector3d& hB = b.halfExtent;
    // G_A(k, i) = a_k . a_i, G_B likewise, R(i, j) = a_i . b_j (see satDisjoint2d).
    const Matrix3d absGA = (a.axes.transpose() * a.axes).cwiseAbs();
    const Matrix3d absGB = (b.axes.transpose() * b.axes).cwiseAbs();
    const Matrix3d absR = (a.axes.transpose() * b.axes).cwiseAbs();
    const double tol = tol::kSatRoundoff * (T.lpNorm<1>() + hA.sum() + hB.sum());

    std::array<AxisTest3, 15> t{};
    // A0
    if (faceSeparates<3>(t[0], a.axes.col(0), T, hA.dot(absGA.col(0)) + hB.dot(absR.row(0)), tol)) {
        return separatedOn(0, t[0]);
    }
    // A1
    if (faceSeparates<3>(t[1], a.axes.col(1), T, hA.dot(absGA.col(1)) + hB.dot(absR.row(1)), tol)) {
        return separatedOn(1, t[1]);
    }
    // A2
    if (faceSeparates<3>(t[2], a.axes.col(2), T, hA.dot(absGA.col(2)) + hB.dot(absR.row(2)), tol)) {
        return separatedOn(2, t[2]);
    }
    // B0
    if (faceSeparates<3>(t[3], b.axes.col(0), T, hA.dot(absR.col(0)) + hB.dot(absGB.col(0)), tol)) {
        return separatedOn(3, t[3]);
    }
    // B1
    if (faceSeparates<3>(t[4], b.axes.col(1), T, hA.dot(absR.col(1)) + hB.dot(absGB.col(1)), tol)) {
        return separatedOn(4, t[4]);
    }
    // B2
    if (faceSeparates<3>(t[5], b.axes.col(2), T, hA.dot(absR.col(2)) + hB.dot(absGB.col(2)), tol)) {
        return separatedOn(5, t[5]);
    }
    // A0 x B0
    if (edgeSeparates(t[6], a, b, 0, 0, T, tol)) {
        return separatedOn(6, t[6]);
    }
    // A0 x B1
    if (edgeSeparates(t[7], a, b, 0, 1, T, tol)) {
        return separatedOn(7, t[7]);
    }
    // A0 x B2
    if (edgeSeparates(t[8], a, b, 0, 2, T, tol)) {
        return separatedOn(8, t[8]);
    }
    // A1 x B0
    if (edgeSeparates(t[9], a, b, 1, 0, T, tol)) {
        return separatedOn(9, t[9]);
    }
    // A1 x B1
    if (edgeSeparates(t[10], a, b, 1, 1, T, tol)) {
        return separatedOn(10, t[10]);
    }
    // A1 x B2
    if (edgeSeparates(t[11], a, b, 1, 2, T, tol)) {
        return separatedOn(11, t[11]);
    }
    // A2 x B0
    if (edgeSeparates(t[12], a, b, 2, 0, T, tol)) {
        return separatedOn(12, t[12]);
    }
    // A2 x B1
    if (edgeSeparates(t[13], a, b, 2, 1, T, tol)) {
        return separatedOn(13, t[13]);
    }
    // A2 x B2
    if (edgeSeparates(t[14], a, b, 2, 2, T, tol)) {
        return separatedOn(14, t[14]);
    }

    // Overlap: every axis was tested; pick the least penetration.
    const double scale = std::min(hA.maxCoeff(), hB.maxCoeff());
    int best = 0;
    double bestDepth = t[0].r - std::abs(t[0].tl);
    for (int k = 1; k < 3; ++k) {  // faces of A: plain minimum
        const double depth = t[k].r - std::abs(t[k].tl);
        if (depth < bestDepth) {
            best = k;
            bestDepth = depth;
        }
    }
    for (int k = 3; k < 6; ++k) {  // faces of B
        const double depth = t[k].r - std::abs(t[k].tl);
        if (clearlyShallower(depth, bestDepth, scale)) {
            best = k;
            bestDepth = depth;
        }
    }
    const double minSineSq = tol::kSatMinEdgeAxisSine * tol::kSatMinEdgeAxisSine;
    for (int k = 6; k < 15; ++k) {  // edge pairs A_i x B_j, i = (k - 6) / 3, j = (k - 6) % 3
        const double lenSq = t[k].L.squaredNorm();
        const double edgeLenSq =
            a.axes.col((k - 6) / 3).squaredNorm() * b.axes.col((k - 6) % 3).squaredNorm();
        if (!(lenSq >= minSineSq * edgeLenSq)) {
            continue;  // nearly parallel edges: direction ill-conditioned, not eligible
        }
        const double depth = (t[k].r - std::abs(t[k].tl)) / std::sqrt(lenSq);
        if (clearlyShallower(depth, bestDepth, scale)) {
            best = k;
            bestDepth = depth;
        }
    }
    return overlapOn(best, t[best], bestDepth);
}

}  // namespace contact
