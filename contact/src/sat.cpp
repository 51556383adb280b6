// SPDX-License-Identifier: MIT
// Separating-axis tests between oriented boxes (Gottschalk, Lin, Manocha, "OBBTree: A Hierarchical
// Structure for Rapid Interference Detection", SIGGRAPH 1996), written flat like FCL's obbDisjoint:
// the tests run in A's frame (B's axes and the centre offset projected on A's axes), with a
// rounding bound that scales with the pair (tolerances.hpp); normals are returned in the world
// frame.
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

// One tested face axis L of satDisjoint2d, the centre offset along it, T.L, and the sum of the box
// radii along it, r = rA + rB with rA = sum_k hA_k |a_k . L|. Overlap along L is r - |T.L|.
struct AxisTest2 {
    Vector2d L;
    double tl;
    double r;
};

// Records a face axis (unit L, so the rounding bound is tol itself); true if it separates.
bool faceSeparates(AxisTest2& out, const Vector2d& L, const Vector2d& T, double r,
                   double tol) noexcept {
    out.L = L;
    out.tl = T.dot(L);
    out.r = r;
    return std::abs(out.tl) > r + tol;
}

// Unit normal along a tested 2D axis, oriented from A to B (kept as is when T.L = 0), z = 0.
Vector3d orientedUnit(const AxisTest2& t) noexcept {
    const Vector2d n = t.L.stableNormalized();
    return t.tl < 0.0 ? Vector3d(-n.x(), -n.y(), 0.0) : Vector3d(n.x(), n.y(), 0.0);
}

// Result of the verdict-only tests (satOverlap2d, satOverlap3d) on the first separating axis.
SatResult separatedVerdict(int axis) noexcept {
    SatResult res;
    res.separated = true;
    res.axis = axis;
    return res;
}

// Result for the first separating axis (unit normal oriented A -> B; depth 0).
SatResult separatedOn(int axis, const Vector3d& normal) noexcept {
    SatResult res = separatedVerdict(axis);
    res.normal = normal;
    return res;
}

// Hysteresis of Box2D-Lite (Catto, Collide.cpp: relativeTol 0.95, absoluteTol 0.01): a later axis
// replaces the current best only if clearly shallower, so near-ties do not flicker between calls.
bool clearlyShallower(double depth, double bestDepth, double scale) noexcept {
    return depth < tol::kSatRelativeTol * bestDepth - tol::kSatAbsoluteTol * scale;
}

// Result for the least-penetration axis on overlap (depth clamped at 0).
SatResult overlapOn(int axis, const Vector3d& normal, double depth) noexcept {
    SatResult res;
    res.separated = false;
    res.axis = axis;
    res.depth = std::max(depth, 0.0);
    res.normal = normal;
    return res;
}

// Unit direction of axis k of satDisjoint3d (0-2: a_k, 3-5: b_(k-3), 6 + 3 i + j: a_i x b_j as
// -R_(i2)j a_(i1) + R_(i1)j a_(i2)), oriented from A to B by the sign of tl = T . L.
Vector3d axisDirection(const Obb3& a, const Obb3& b, const double (&R)[3][3], int k,
                       double tl) noexcept {
    Vector3d L;
    if (k < 3) {
        L = a.axes.col(k);
    } else if (k < 6) {
        L = b.axes.col(k - 3);
    } else {
        const int i = (k - 6) / 3;
        const int j = (k - 6) % 3;
        L = -R[(i + 2) % 3][j] * a.axes.col((i + 1) % 3) +
            R[(i + 1) % 3][j] * a.axes.col((i + 2) % 3);
    }
    const double len = L.norm();  // components are products of unit vectors: no overflow
    const Vector3d n = len > 0.0 ? Vector3d(L / len) : Vector3d::Zero();
    return tl < 0.0 ? Vector3d(-n) : n;
}

}  // namespace

// sat2 (satDisjoint2d, satOverlap2d): SAT on the 4 face axes of two rectangles.
//
//   T = cB - cA,  tol = kSatRoundoff * (|T|_1 + sum hA + sum hB)
//   for L in (a0, a1, b0, b1):                      // L unit
//       r = sum_k hA_k |a_k . L| + sum_k hB_k |b_k . L|
//       if |T . L| > r + tol: return separated on L  // oriented A -> B
//   // overlap: least penetration, depth_L = r - |T . L|
//   best = argmin over (a0, a1); then b0, b1 replace it only if
//       depth < kSatRelativeTol * best - kSatAbsoluteTol * min(max hA, max hB)   // Box2D-Lite
//   return best, depth clamped at >= 0, normal oriented A -> B
// kVerdictOnly: return at the first separating axis, or with no axis on overlap (satOverlap2d).
template <bool kVerdictOnly>
[[gnu::always_inline]] inline SatResult sat2(const Obb2& a, const Obb2& b) noexcept {
    const auto separated = [](int axis, const AxisTest2& t) {
        if constexpr (kVerdictOnly) {
            return separatedVerdict(axis);
        } else {
            return separatedOn(axis, orientedUnit(t));
        }
    };
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
    if (faceSeparates(t[0], a.axes.col(0), T, hA.dot(absGA.col(0)) + hB.dot(absR.row(0)), tol)) {
        return separated(0, t[0]);
    }
    // A1
    if (faceSeparates(t[1], a.axes.col(1), T, hA.dot(absGA.col(1)) + hB.dot(absR.row(1)), tol)) {
        return separated(1, t[1]);
    }
    // B0
    if (faceSeparates(t[2], b.axes.col(0), T, hA.dot(absR.col(0)) + hB.dot(absGB.col(0)), tol)) {
        return separated(2, t[2]);
    }
    // B1
    if (faceSeparates(t[3], b.axes.col(1), T, hA.dot(absR.col(1)) + hB.dot(absGB.col(1)), tol)) {
        return separated(3, t[3]);
    }

    if constexpr (kVerdictOnly) {
        return SatResult{};
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
    return overlapOn(best, orientedUnit(t[best]), bestDepth);
}

// sat3 (satDisjoint3d, satOverlap3d): SAT on the 15 axes of two boxes, in the order of
// Gottschalk's OBBTree paper, in A's frame (Ericson, Real-Time Collision Detection, 4.4.1):
//
//   T = cB - cA, t_i = a_i . T, R_ij = a_i . b_j, tol = kSatRoundoff * (|T|_1 + sum hA + sum hB)
//   face a_i:  |t_i| > hA_i + sum_j hB_j |R_ij| + tol                    -> separated on a_i
//   face b_j:  |b_j . T| > sum_i hA_i |R_ij| + hB_j + tol                -> separated on b_j
//   edge L = a_i x b_j = -R_(i2)j a_(i1) + R_(i1)j a_(i2)   (i1, i2, j1, j2: the other indices)
//       T . L = t_(i2) R_(i1)j - t_(i1) R_(i2)j
//       r = hA_(i1) |R_(i2)j| + hA_(i2) |R_(i1)j| + hB_(j1) |R_i(j2)| + hB_(j2) |R_i(j1)|
//       |T . L| > r + tol (|L|_1 + 1/8)                                   -> separated on L
//   The identities behind r hold for orthonormal axes (either handedness: only |.| enters). Near
//   parallel edges make L and T . L tiny and their rounding absolute (a few ulps of |t| |R|); the
//   tol / 8 term is above that rounding (once no face separates, |t| is at most the boxes' size),
//   so rounding never separates overlapping boxes, and exactly parallel edges cannot separate.
//   // overlap: depth_L = (r - |T . L|) / |L|; edge axes with sine |L| below kSatMinEdgeAxisSine
//   // are not eligible (ill-conditioned direction).
//   best = argmin over A's faces; then B's faces, then the eligible edge axes replace it only if
//       depth < kSatRelativeTol * best - kSatAbsoluteTol * min(max hA, max hB)   // Box2D-Lite
//   return best, depth clamped at >= 0, normal oriented A -> B
// kVerdictOnly: return at the first separating axis, or with no axis on overlap (satOverlap3d).
template <bool kVerdictOnly>
inline SatResult sat3(const Obb3& a, const Obb3& b) noexcept {
    const Vector3d T = b.center - a.center;
    const Vector3d& hA = a.halfExtent;
    const Vector3d& hB = b.halfExtent;
    double R[3][3];
    double absR[3][3];
    double t[3];
    for (int i = 0; i < 3; ++i) {
        t[i] = a.axes.col(i).dot(T);
        for (int j = 0; j < 3; ++j) {
            R[i][j] = a.axes.col(i).dot(b.axes.col(j));
            absR[i][j] = std::abs(R[i][j]);
        }
    }
    const double tol = tol::kSatRoundoff * (T.lpNorm<1>() + hA.sum() + hB.sum());
    std::array<double, 15> tl{};
    std::array<double, 15> r{};
    const auto separated = [&](int axis) {
        if constexpr (kVerdictOnly) {
            return separatedVerdict(axis);
        } else {
            return separatedOn(axis, axisDirection(a, b, R, axis, tl[axis]));
        }
    };

    for (int i = 0; i < 3; ++i) {  // A0, A1, A2
        tl[i] = t[i];
        r[i] = hA[i] + hB[0] * absR[i][0] + hB[1] * absR[i][1] + hB[2] * absR[i][2];
        if (std::abs(tl[i]) > r[i] + tol) {
            return separated(i);
        }
    }
    for (int j = 0; j < 3; ++j) {  // B0, B1, B2
        tl[3 + j] = b.axes.col(j).dot(T);
        r[3 + j] = hA[0] * absR[0][j] + hA[1] * absR[1][j] + hA[2] * absR[2][j] + hB[j];
        if (std::abs(tl[3 + j]) > r[3 + j] + tol) {
            return separated(3 + j);
        }
    }
    for (int i = 0; i < 3; ++i) {  // A_i x B_j
        const int i1 = (i + 1) % 3;
        const int i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3;
            const int j2 = (j + 2) % 3;
            const int k = 6 + 3 * i + j;
            tl[k] = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            r[k] = hA[i1] * absR[i2][j] + hA[i2] * absR[i1][j] + hB[j1] * absR[i][j2] +
                   hB[j2] * absR[i][j1];
            if (std::abs(tl[k]) > r[k] + tol * (absR[i1][j] + absR[i2][j] + 0.125)) {
                return separated(k);
            }
        }
    }

    if constexpr (kVerdictOnly) {
        return SatResult{};
    }
    // Overlap: every axis was tested; pick the least penetration.
    const double scale = std::min(hA.maxCoeff(), hB.maxCoeff());
    int best = 0;
    double bestDepth = r[0] - std::abs(tl[0]);
    for (int k = 1; k < 3; ++k) {  // faces of A: plain minimum
        const double depth = r[k] - std::abs(tl[k]);
        if (depth < bestDepth) {
            best = k;
            bestDepth = depth;
        }
    }
    for (int k = 3; k < 6; ++k) {  // faces of B
        const double depth = r[k] - std::abs(tl[k]);
        if (clearlyShallower(depth, bestDepth, scale)) {
            best = k;
            bestDepth = depth;
        }
    }
    const double minSineSq = tol::kSatMinEdgeAxisSine * tol::kSatMinEdgeAxisSine;
    for (int k = 6; k < 15; ++k) {  // edge pairs A_i x B_j, i = (k - 6) / 3, j = (k - 6) % 3
        const int i = (k - 6) / 3;
        const int j = (k - 6) % 3;
        const double lenSq =
            R[(i + 1) % 3][j] * R[(i + 1) % 3][j] + R[(i + 2) % 3][j] * R[(i + 2) % 3][j];
        if (!(lenSq >= minSineSq)) {
            continue;  // nearly parallel edges: direction ill-conditioned, not eligible
        }
        const double depth = (r[k] - std::abs(tl[k])) / std::sqrt(lenSq);
        if (clearlyShallower(depth, bestDepth, scale)) {
            best = k;
            bestDepth = depth;
        }
    }
    return overlapOn(best, axisDirection(a, b, R, best, tl[best]), bestDepth);
}

SatResult satDisjoint2d(const Obb2& a, const Obb2& b) noexcept { return sat2<false>(a, b); }

bool satOverlap2d(const Obb2& a, const Obb2& b) noexcept { return !sat2<true>(a, b).separated; }

SatResult satDisjoint3d(const Obb3& a, const Obb3& b) noexcept { return sat3<false>(a, b); }

bool satOverlap3d(const Obb3& a, const Obb3& b) noexcept { return !sat3<true>(a, b).separated; }

}  // namespace contact
