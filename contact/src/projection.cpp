// SPDX-License-Identifier: MIT
// Closest-point projection of a point onto one segment (the node-to-segment kernel).
#include "contact/projection.hpp"

#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/margins.hpp"
#include "detail/warm_projection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace contact {
namespace {

using detail::kArmijo;
using detail::kCertificateMargin;
using detail::kLevenbergShift;
using detail::kMaxBacktracks;
using detail::kNoiseUlps;
using detail::kNormalNudge;
using detail::kPdMargin;
using detail::kStatusEdge;
using detail::kStatusEdgeLow;
using detail::kTightSlack;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::Vector3d;

// The segment and the point with node 0 moved to the origin (the round-off shift of Box2D's
// manifold.c): far from the origin, differences of nearby coordinates keep their precision.
struct Shifted {
    SegmentNodes s;
    Vector3d q = Vector3d::Zero();  // p - x_0
};

Shifted shiftToNode0(const SegmentNodes& s, const Vector3d& p) noexcept {
    Shifted out;
    out.s.type = s.type;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        out.s.x[i] = s.x[i] - s.x[0];
    }
    out.q = p - s.x[0];
    return out;
}

// The reference domain as linear constraints a_k . xi <= b_k (outward normals a_k).
struct Domain {
    const double (*a)[2];
    const double* b;
    int count;
};
constexpr double kLineA[2][2] = {{1, 0}, {-1, 0}};
constexpr double kLineB[2] = {1, 1};
constexpr double kTriA[3][2] = {{-1, 0}, {0, -1}, {1, 1}};
constexpr double kTriB[3] = {0, 0, 1};
constexpr double kQuadA[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr double kQuadB[4] = {1, 1, 1, 1};

Domain referenceDomain(SegmentType t) noexcept {
    if (parametricDim(t) == 1) {
        return {kLineA, kLineB, 2};
    }
    if (isTriangle(t)) {
        return {kTriA, kTriB, 3};
    }
    return {kQuadA, kQuadB, 4};
}

Vector2d normalOf(const Domain& dom, int k) noexcept { return {dom.a[k][0], dom.a[k][1]}; }

double slack(const Domain& dom, int k, const Vector2d& xi) noexcept {
    return dom.b[k] - (dom.a[k][0] * xi[0] + dom.a[k][1] * xi[1]);
}

// Puts xi exactly on constraint k, or on the corner of constraints k and j (j >= 0). The
// coefficients are small integers, so Cramer's rule gives the corner exactly.
void snap(const Domain& dom, int k, int j, Vector2d& xi) noexcept {
    const double* ak = dom.a[k];
    if (j >= 0 && j != k) {
        const double* aj = dom.a[j];
        const double det = ak[0] * aj[1] - ak[1] * aj[0];
        if (det != 0.0) {
            xi = Vector2d((dom.b[k] * aj[1] - ak[1] * dom.b[j]) / det + 0.0,
                          (ak[0] * dom.b[j] - dom.b[k] * aj[0]) / det + 0.0);
            return;
        }
    }
    if (ak[1] == 0.0) {
        xi[0] = dom.b[k] / ak[0] + 0.0;  // + 0.0 turns -0 into 0
    } else if (ak[0] == 0.0) {
        xi[1] = dom.b[k] / ak[1] + 0.0;
    } else {  // triangle hypotenuse xi + eta = 1
        xi[0] = std::clamp(xi[0], 0.0, 1.0);
        xi[1] = 1.0 - xi[0];
    }
}

// Removes ulp-size excursions out of the domain. Inlined: the Newton loops call it every step.
[[gnu::always_inline]] inline void clampToDomain(SegmentType t, Vector2d& xi) noexcept {
    if (isTriangle(t)) {
        xi[0] = std::clamp(xi[0], 0.0, 1.0);
        xi[1] = std::max(xi[1], 0.0);
        if (xi[0] + xi[1] > 1.0) {
            xi[1] = 1.0 - xi[0];
        }
        return;
    }
    xi[0] = std::clamp(xi[0], -1.0, 1.0);
    xi[1] = parametricDim(t) == 1 ? 0.0 : std::clamp(xi[1], -1.0, 1.0);
}

// Distance of xi to the domain boundary, in reference units (negative outside).
double boundarySlack(SegmentType t, const Vector2d& xi) noexcept {
    if (parametricDim(t) == 1) {
        return 1.0 - std::abs(xi[0]);
    }
    if (isTriangle(t)) {
        return std::min({xi[0], xi[1], 1.0 - xi[0] - xi[1]});
    }
    return 1.0 - std::max(std::abs(xi[0]), std::abs(xi[1]));
}

// y(xi) = x(xi) - x_0 with its first and second derivatives.
struct LocalGeometry {
    Vector3d y = Vector3d::Zero();
    Vector3d yXi = Vector3d::Zero();
    Vector3d yEta = Vector3d::Zero();
    Vector3d yXiXi = Vector3d::Zero();
    Vector3d yXiEta = Vector3d::Zero();
    Vector3d yEtaEta = Vector3d::Zero();
};

LocalGeometry evaluate(const SegmentNodes& s, const Vector2d& xi) noexcept {
    const ShapeFunctions f = shapeFunctions(s.type, xi);
    LocalGeometry l;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        l.y += f.N[i] * s.x[i];
        l.yXi += f.dXi[i] * s.x[i];
        l.yEta += f.dEta[i] * s.x[i];
        l.yXiXi += f.dXiXi[i] * s.x[i];
        l.yXiEta += f.dXiEta[i] * s.x[i];
        l.yEtaEta += f.dEtaEta[i] * s.x[i];
    }
    return l;
}

// The segment as a polynomial in monomials (detail::Monomials): y(xi, eta) = sum c[3a + b] xi^a
// eta^b, a, b <= 2. Every segment type fits (Quad8 and Tri6 included; lines use b = 0 only). Exact
// for Quad4; the others by the tensor rule on the 3 x 3 points {-1, 0, 1}^2: f = f(0) + (f(1) -
// f(-1))/2 s + ((f(1) + f(-1))/2 - f(0)) s^2 per variable (shape functions extrapolate outside
// the domain).
using detail::monomialForm;
using detail::Monomials;

// y(0, 0) of a Quad8. Its shape functions there are exactly -1/4 at the corners and 1/2 at the
// midsides, so this is position(s, {0, 0}) bit for bit, without evaluating them.
Vector3d quad8Centre(const SegmentNodes& s) noexcept {
    Vector3d y = Vector3d::Zero();
    for (int i = 0; i < 8; ++i) {
        y += (i < 4 ? -0.25 : 0.5) * s.x[i];
    }
    return y;
}

// The sample cell 3 (xi + 1) + (eta + 1) of each node of a line or quad type (nodes on the grid
// {-1, 0, 1}^2), from nodeLocalCoordinates once.
const std::array<int, kMaxSegmentNodes>& nodeCells(SegmentType type) noexcept {
    static const auto table = [] {
        std::array<std::array<int, kMaxSegmentNodes>, 7> cells{};
        for (const SegmentType t : {SegmentType::Line2, SegmentType::Line3, SegmentType::Quad4,
                                    SegmentType::Quad8, SegmentType::Quad9}) {
            for (int k = 0; k < nodeCount(t); ++k) {
                const Vector2d r = nodeLocalCoordinates(t, k);
                cells[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)] =
                    3 * (static_cast<int>(r[0]) + 1) + (static_cast<int>(r[1]) + 1);
            }
        }
        return cells;
    }();
    return table[static_cast<std::size_t>(type)];
}

}  // namespace

Monomials detail::monomialForm(const SegmentNodes& s) noexcept {
    Monomials m;
    if (s.type == SegmentType::Quad4) {  // nodes at (-1,-1), (1,-1), (1,1), (-1,1)
        for (Vector3d& v : m.c) {
            v.setZero();
        }
        m.c[0] = 0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3]);
        m.c[3] = 0.25 * (-s.x[0] + s.x[1] + s.x[2] - s.x[3]);
        m.c[1] = 0.25 * (-s.x[0] - s.x[1] + s.x[2] + s.x[3]);
        m.c[4] = 0.25 * (s.x[0] - s.x[1] + s.x[2] - s.x[3]);
        return m;
    }
    const bool line = parametricDim(s.type) == 1;
    std::array<Vector3d, 9> f;  // f[3 (i + 1) + (j + 1)] = y(i, j)
    if (isTriangle(s.type)) {   // Tri6: the shape functions extrapolate outside the domain
        for (int i = -1; i <= 1; ++i) {
            for (int j = -1; j <= 1; ++j) {
                const int k = 3 * (i + 1) + (j + 1);
                f[static_cast<std::size_t>(k)] = position(s, Vector2d(i, j));
            }
        }
    } else {
        // Line3, Quad8, Quad9: a node on each sample (lines use the row eta = 0 only), and the
        // shape functions are exactly 1 and 0 at the nodes, so y there is the node, as position()
        // would return it; a Quad8 has no centre node.
        const std::array<int, kMaxSegmentNodes>& cells = nodeCells(s.type);
        for (int k = 0; k < nodeCount(s.type); ++k) {
            f[static_cast<std::size_t>(cells[static_cast<std::size_t>(k)])] = s.x[k];
        }
        if (s.type == SegmentType::Quad8) {
            f[4] = quad8Centre(s);
        }
    }
    // Rule along eta for each xi sample, then along xi for each eta coefficient.
    std::array<Vector3d, 9> g;  // g[3 (i + 1) + b]
    for (int i = 0; i < 3; ++i) {
        const std::size_t row = 3 * static_cast<std::size_t>(i);
        const Vector3d& lo = f[row];
        const Vector3d& mid = f[row + 1];
        const Vector3d& hi = f[row + 2];
        g[row] = mid;
        g[row + 1] = line ? Vector3d::Zero().eval() : (0.5 * (hi - lo)).eval();
        g[3 * i + 2] = line ? Vector3d::Zero().eval() : (0.5 * (hi + lo) - mid).eval();
    }
    for (int b = 0; b < 3; ++b) {
        const Vector3d& lo = g[b];
        const Vector3d& mid = g[3 + b];
        const Vector3d& hi = g[6 + b];
        m.c[b] = mid;
        m.c[3 + b] = 0.5 * (hi - lo);
        m.c[6 + b] = 0.5 * (hi + lo) - mid;
    }
    return m;
}

namespace {

// Geometry seen by the Newton iteration: y(xi) with its derivatives, from the nodes.
struct NodalGeometry {
    const SegmentNodes& s;
    [[nodiscard]] LocalGeometry at(const Vector2d& xi) const noexcept { return evaluate(s, xi); }
    [[nodiscard]] Vector3d position(const Vector2d& xi) const noexcept {
        return contact::position(s, xi);
    }
};

// The same from the monomial form: a few multiply-adds, no shape functions.
struct MonomialGeometry {
    const Monomials& m;
    static constexpr int degree = 2;  // highest power of xi and of eta (Quad4: BilinearGeometry)
    [[nodiscard]] LocalGeometry at(const Vector2d& xi) const noexcept {
        const double pu[3] = {1.0, xi[0], xi[0] * xi[0]};
        const double pv[3] = {1.0, xi[1], xi[1] * xi[1]};
        LocalGeometry l;
        for (int a = 0; a <= degree; ++a) {
            for (int b = 0; b <= degree; ++b) {
                const Vector3d& c = m.c[3 * a + b];
                l.y += (pu[a] * pv[b]) * c;
                if (a >= 1) {
                    l.yXi += (a * pu[a - 1] * pv[b]) * c;
                }
                if (b >= 1) {
                    l.yEta += (b * pu[a] * pv[b - 1]) * c;
                }
                if (a == 2) {
                    l.yXiXi += (2.0 * pv[b]) * c;
                }
                if (a >= 1 && b >= 1) {
                    l.yXiEta += (a * b * pu[a - 1] * pv[b - 1]) * c;
                }
                if (b == 2) {
                    l.yEtaEta += (2.0 * pu[a]) * c;
                }
            }
        }
        return l;
    }
    [[nodiscard]] Vector3d position(const Vector2d& xi) const noexcept {
        const double pu[3] = {1.0, xi[0], xi[0] * xi[0]};
        const double pv[3] = {1.0, xi[1], xi[1] * xi[1]};
        Vector3d y = Vector3d::Zero();
        for (int a = 0; a <= degree; ++a) {
            for (int b = 0; b <= degree; ++b) {
                y += (pu[a] * pv[b]) * m.c[3 * a + b];
            }
        }
        return y;
    }
};

// MonomialGeometry of a Quad4, written out: y = c0 + eta c1 + xi c3 + xi eta c4. The same
// operations in the same order as the loops above, without the terms that are exact zeros or
// products by one, so the results are bit for bit the same.
struct BilinearGeometry {
    const Monomials& m;
    [[nodiscard]] LocalGeometry at(const Vector2d& xi) const noexcept {
        const double u = xi[0];
        const double v = xi[1];
        LocalGeometry l;
        l.y = ((m.c[0] + v * m.c[1]) + u * m.c[3]) + (u * v) * m.c[4];
        l.yXi = m.c[3] + v * m.c[4];
        l.yEta = m.c[1] + u * m.c[4];
        l.yXiEta = m.c[4];
        return l;
    }
    [[nodiscard]] Vector3d position(const Vector2d& xi) const noexcept {
        const double u = xi[0];
        const double v = xi[1];
        return ((m.c[0] + v * m.c[1]) + u * m.c[3]) + (u * v) * m.c[4];
    }
};

// MonomialGeometry by Horner's rule, for the warm path (detail::warmClosestXi): y = A0 + xi (A1 +
// xi A2) with A_a = c_a0 + eta (c_a1 + eta c_a2), about half the operations. Rounds differently
// from MonomialGeometry, so the cold path, whose results must match the reference bit for bit,
// keeps that one; at() and position() give the same y bit for bit.
struct HornerGeometry {
    const Monomials& m;
    // Inlined into the Newton loop (three calls a projection), where the compiler would not.
    [[nodiscard, gnu::always_inline]] LocalGeometry at(const Vector2d& xi) const noexcept {
        const double u = xi[0];
        const detail::HornerRows r = detail::hornerRows(m, xi[1]);
        LocalGeometry l;
        detail::hornerFirst(r, u, l.y, l.yXi, l.yEta);
        l.yXiXi = 2.0 * r.a[2];
        l.yXiEta = r.da[1] + (2.0 * u) * r.da[2];
        l.yEtaEta = 2.0 * (m.c[2] + u * (m.c[5] + u * m.c[8]));
        return l;
    }
    [[nodiscard]] Vector3d position(const Vector2d& xi) const noexcept {
        const double u = xi[0];
        const double v = xi[1];
        const Vector3d a0 = m.c[0] + v * (m.c[1] + v * m.c[2]);
        const Vector3d a1 = m.c[3] + v * (m.c[4] + v * m.c[5]);
        const Vector3d a2 = m.c[6] + v * (m.c[7] + v * m.c[8]);
        return a0 + u * (a1 + u * a2);
    }
};

// Where H is not safely positive definite, both steps below take H with each eigenvalue lambda
// replaced by max(|lambda|, floor) (Hessian modification, Nocedal & Wright 3.4): the true curvature
// where it is positive, and a descent along negative curvature as steep as the curvature is
// large. (The Gauss-Newton matrix G ignores the curvature term: near centres of curvature its
// steps overshoot along it and zig-zag, and the iteration limit can stop them far from the
// minimum.) floor: kLevenbergShift of the scale of G and H, far above the rounding of the
// eigenvalues.

// Newton step along the unit direction t: -(t.g / t.H.t) t, with |t.H.t| (floored) where t.H.t is
// not safely positive. Zero when there is no curvature at all.
Vector2d stepAlong(const Matrix2d& H, const Matrix2d& G, const Vector2d& g,
                   const Vector2d& t) noexcept {
    const double h = t.dot(H * t);
    const double hg = t.dot(G * t);
    double curvature = h;
    if (!(h > kPdMargin * hg && h > 0.0)) {
        curvature = std::max(std::abs(h), kLevenbergShift * (hg + std::abs(h)));
    }
    if (!(curvature > 0.0)) {
        return Vector2d::Zero();
    }
    return (-t.dot(g) / curvature) * t;
}

// Newton step -H^-1 g in the whole (xi, eta) plane, from the modified H where H is not positive
// definite: eigenvalues m -+ h of H = [a b; b d] (m = (a + d) / 2, h = |((a - d) / 2, b)|),
// eigenvector v of m + h from the larger-magnitude of its two formulas, w = v rotated.
Vector2d modifiedNewtonStep(const Matrix2d& H, const Matrix2d& G, const Vector2d& g) noexcept {
    const double half = 0.5 * (H(0, 0) - H(1, 1));
    const double m = 0.5 * (H(0, 0) + H(1, 1));
    const double h = std::hypot(half, H(0, 1));
    const double floor = kLevenbergShift * (G.trace() + std::abs(m) + h);
    Vector2d v = half >= 0.0 ? Vector2d(h + half, H(0, 1)) : Vector2d(H(0, 1), h - half);
    const double vNorm = v.norm();
    v = vNorm > 0.0 ? (v / vNorm).eval() : Vector2d::UnitX();
    const Vector2d w(-v[1], v[0]);
    const double eMax = std::max(std::abs(m + h), floor);
    const double eMin = std::max(std::abs(m - h), floor);
    if (!(eMax > 0.0 && eMin > 0.0)) {
        return Vector2d::Zero();
    }
    return -(v.dot(g) / eMax) * v - (w.dot(g) / eMin) * w;
}

// Newton step -H^-1 g in the whole (xi, eta) plane; the modified H where H is not positive
// definite.
[[gnu::always_inline]] inline Vector2d stepInPlane(const Matrix2d& H, const Matrix2d& G,
                                                   const Vector2d& g) noexcept {
    const double det = H(0, 0) * H(1, 1) - H(0, 1) * H(1, 0);
    if (!(H(0, 0) > 0.0 && H(1, 1) > 0.0 && det > kPdMargin * H(0, 0) * H(1, 1))) {
        return modifiedNewtonStep(H, G, g);
    }
    return {-(H(1, 1) * g[0] - H(0, 1) * g[1]) / det, -(H(0, 0) * g[1] - H(1, 0) * g[0]) / det};
}

// A search direction and the constraint it slides along (-1: none).
struct Direction {
    Vector2d d = Vector2d::Zero();
    int edge = -1;
};

// True when d does not leave the domain through any tight constraint.
bool feasible(const Domain& dom, const std::array<bool, 4>& tight, const Vector2d& d) noexcept {
    for (int k = 0; k < dom.count; ++k) {
        if (tight[k] && normalOf(dom, k).dot(d) > 0.0) {
            return false;
        }
    }
    return true;
}

// Working-set choice: the free Newton step if it stays inside; otherwise the Newton step along
// each tight edge (both edges at a corner, so sliding along either is not missed), keeping the
// steepest feasible descent. Zero when none descends: a KKT point.
Direction chooseDirection(const Domain& dom, int dim, const std::array<bool, 4>& tight,
                          const Matrix2d& H, const Matrix2d& G, const Vector2d& g) noexcept {
    const Vector2d free = dim == 1 ? stepAlong(H, G, g, Vector2d::UnitX()) : stepInPlane(H, G, g);
    if (feasible(dom, tight, free) && g.dot(free) < 0.0) {
        return {free, -1};
    }
    Direction best;
    double bestSlope = 0.0;
    if (dim == 2) {
        for (int k = 0; k < dom.count; ++k) {
            if (!tight[k]) {
                continue;
            }
            const Vector2d a = normalOf(dom, k);
            const Vector2d t = Vector2d(-a[1], a[0]).normalized();
            const Vector2d d = stepAlong(H, G, g, t);
            const double slope = g.dot(d);
            if (slope < bestSlope && feasible(dom, tight, d)) {
                best = {d, k};
                bestSlope = slope;
            }
        }
    }
    return best;
}

// Minimizes f(xi) = 1/2 |y(xi) - q|^2 over the closed reference domain from a feasible start.
// Active-set Newton with Armijo backtracking (Nocedal & Wright, Numerical Optimization, 2nd ed.,
// 3.1 and 16.5; the projected-Newton working set of Bertsekas, SIAM J. Control Optim. 20, 1982):
//
//   repeat at most kProjectionMaxIterations times:
//     r = y(xi) - q,  g = J^T r,  G = J^T J,  H = G + sum_k r_k d2y_k/dxi2
//     tight = {k : b_k - a_k.xi <= kTightSlack}
//     d = Newton step on the whole plane, lines: along xi (G + mu I if H is not pos. definite)
//     if d leaves through a tight constraint:
//         d = best Newton step along one tight edge that leaves through none (zero if none)
//     if |d| < kProjectionStepTol or g.d / |d| is down to the rounding of g: converged
//     alpha = min(1, step to the first constraint d crosses)  -> land exactly on it
//     halve alpha until f(xi + alpha d) - f(xi) <= kArmijo alpha g.d
//         (the first trial also passes when the change of f is below its rounding)
//     if no alpha works: converged (round-off floor); else xi += alpha d
//     if |alpha d| < kProjectionStepTol: converged
//   not converged (xi is the best point found)
//
// f differences are taken as dy . (r + dy / 2) with dy = y(xi_new) - y(xi), which avoids the
// cancellation of |r|^2 - |r_new|^2 for far points.
//
// With `last`, the evaluation at the returned xi, when the iteration stopped on one (the usual
// stop: the step there is below the tolerance), goes to *last and `evaluated` is set.
struct Minimum {
    Vector2d xi = Vector2d::Zero();
    bool converged = false;
    bool evaluated = false;  // *last holds the geometry at xi
};

// The Newton model of f at an evaluation: r = y - q, g = J^T r, G = J^T J, H = G + [r . d2y].
struct NewtonModel {
    Vector3d r;
    Vector2d g;
    Matrix2d G;
    Matrix2d H;
};

[[gnu::always_inline]] inline NewtonModel newtonModel(const LocalGeometry& l,
                                                      const Vector3d& q) noexcept {
    NewtonModel m;
    m.r = l.y - q;
    m.g = Vector2d(l.yXi.dot(m.r), l.yEta.dot(m.r));
    m.G(0, 0) = l.yXi.dot(l.yXi);
    m.G(0, 1) = m.G(1, 0) = l.yXi.dot(l.yEta);
    m.G(1, 1) = l.yEta.dot(l.yEta);
    m.H = m.G;
    m.H(0, 0) += m.r.dot(l.yXiXi);
    m.H(0, 1) = m.H(1, 0) = m.H(0, 1) + m.r.dot(l.yXiEta);
    m.H(1, 1) += m.r.dot(l.yEtaEta);
    return m;
}

// The largest |x_i - x_0|^2 of the shifted nodes.
double nodeExtentSq(const SegmentNodes& shifted) noexcept {
    double extentSq = 0.0;
    for (int i = 0; i < nodeCount(shifted.type); ++i) {
        extentSq = std::max(extentSq, shifted.x[i].squaredNorm());
    }
    return extentSq;
}

// What the Newton loops need of a shifted problem: the type, the point and the extent of the
// coordinates, the size of y and q (the rounding of r = y - q is a few ulps of it): the larger of
// |q| and the nodes' distances from node 0, one root of the largest square (the rounded root is
// monotone: the same as the largest root).
struct NewtonProblem {
    SegmentType type;
    Vector3d q;
    double extent;
};

NewtonProblem newtonProblem(SegmentType type, const Vector3d& q,
                            double nodeExtentSquared) noexcept {
    return {type, q, std::sqrt(std::max(q.squaredNorm(), nodeExtentSquared))};
}

inline NewtonProblem newtonProblem(const Shifted& sh) noexcept {
    return newtonProblem(sh.s.type, sh.q, nodeExtentSq(sh.s));
}

// tol::kProjectionStepTol squared: the stop tests compare squared lengths (no root on Newton's
// critical path; a verdict could differ from the root's only within a rounding of the bound).
constexpr double kStepTolSq = tol::kProjectionStepTol * tol::kProjectionStepTol;

// The stop test of a Newton direction d (lengthSq = |d|^2): a tiny step, or the slope along d
// down to the rounding of g (gNoise per unit length). Roots only where the verdict needs them.
bool newtonStops(const LocalGeometry& l, double extent, double lengthSq, double slope) noexcept {
    if (!(lengthSq >= kStepTolSq)) {
        return true;
    }
    // The 1-norms bound the 2-norms of gNoise from above, so a descent steeper than twice the
    // noise they give (far beyond the rounding of either) is steeper than gNoise. Squared:
    // -slope > 2 noiseScale |d| (|yXi|_1 + |yEta|_1), no root for the usual step.
    const double noiseScale =
        kNoiseUlps * tol::kEps * extent * (l.yXi.lpNorm<1>() + l.yEta.lpNorm<1>());
    if (-slope > 0.0 && slope * slope > 4.0 * noiseScale * noiseScale * lengthSq) {
        return false;
    }
    const double gNoise = kNoiseUlps * tol::kEps * (l.yXi.norm() + l.yEta.norm()) * extent;
    return -slope <= gNoise * std::sqrt(lengthSq);
}

// The first Armijo trial's test: the change of f, df = dy . (r + dy / 2), against the slope, or
// below the rounding of f (the trial then passes on trust in the model).
bool armijoPasses(const Vector3d& dy, const Vector3d& r, double alpha, double slope, double extent,
                  bool firstTrial) noexcept {
    const double df = dy.dot(r + 0.5 * dy);
    if (df <= kArmijo * alpha * slope) {
        return true;
    }
    // Only now the noise of f (a root).
    return firstTrial && df <= kNoiseUlps * tol::kEps * extent * r.norm();
}

// The stop on an evaluation l at xi: converged, with l handed to *last where asked for.
Minimum stopOn(const Vector2d& xi, const LocalGeometry& l, LocalGeometry* last) noexcept {
    if (last == nullptr) {
        return {xi, true};
    }
    *last = l;
    return {xi, true, true};
}

// The constraints within kTightSlack of xi: the working set.
std::array<bool, 4> tightAt(const Domain& dom, const Vector2d& xi) noexcept {
    std::array<bool, 4> tight{};
    for (int k = 0; k < dom.count; ++k) {
        tight[k] = slack(dom, k, xi) <= kTightSlack;
    }
    return tight;
}

// The first constraint, not tight, that the step xi + alpha d crosses for alpha below alphaMax,
// with alphaMax lowered to where it does; -1 where none is.
int firstCrossed(const Domain& dom, const std::array<bool, 4>& tight, const Vector2d& xi,
                 const Vector2d& d, double& alphaMax) noexcept {
    int hit = -1;
    for (int k = 0; k < dom.count; ++k) {
        const double ad = normalOf(dom, k).dot(d);
        if (!tight[k] && ad > 0.0) {
            const double alpha = slack(dom, k, xi) / ad;
            if (alpha < alphaMax) {
                alphaMax = alpha;
                hit = k;
            }
        }
    }
    return hit;
}

template <class Geometry>
Minimum activeSetNewton(const NewtonProblem& pb, const Geometry& geometry, Vector2d xi,
                        LocalGeometry* last = nullptr,
                        int iterations = tol::kProjectionMaxIterations) noexcept {
    const SegmentType type = pb.type;
    const Domain dom = referenceDomain(type);
    const int dim = parametricDim(type);
    const double extent = pb.extent;
    for (int it = 0; it < iterations; ++it) {
        const LocalGeometry l = geometry.at(xi);
        const NewtonModel model = newtonModel(l, pb.q);
        const Vector3d& r = model.r;
        const Vector2d& g = model.g;

        const std::array<bool, 4> tight = tightAt(dom, xi);
        const Direction dir = chooseDirection(dom, dim, tight, model.H, model.G, g);
        const double slope = g.dot(dir.d);
        if (newtonStops(l, extent, dir.d.squaredNorm(), slope)) {
            return stopOn(xi, l, last);
        }
        const double length = dir.d.norm();

        // Longest step inside the domain, up to the full step.
        double alphaMax = 1.0;
        const int hit = firstCrossed(dom, tight, xi, dir.d, alphaMax);

        // f differences below the rounding of f let the first trial pass on trust in the model
        // (otherwise f-based tests stall xi at sqrt(eps) accuracy).
        double alpha = alphaMax;
        Vector2d trial = xi;
        bool accepted = false;
        for (int bt = 0; bt < kMaxBacktracks && alpha * length >= 0.5 * tol::kProjectionStepTol;
             ++bt) {
            trial = xi + alpha * dir.d;
            const int onto = alpha == alphaMax ? hit : -1;
            if (dir.edge >= 0) {
                snap(dom, dir.edge, onto, trial);
            } else if (onto >= 0) {
                snap(dom, onto, -1, trial);
            }
            clampToDomain(type, trial);
            if (armijoPasses(geometry.position(trial) - l.y, r, alpha, slope, extent, bt == 0)) {
                accepted = true;
                break;
            }
            alpha *= 0.5;
        }
        if (!accepted) {
            return stopOn(xi, l, last);
        }
        const double stepSq = (trial - xi).squaredNorm();
        xi = trial;
        if (stepSq < kStepTolSq) {
            return {xi, true};
        }
    }
    return {xi, false};
}

// activeSetNewton on a face from a start inside the domain, while its steps are whole free Newton
// steps that end inside (the usual warm case): the same steps, tests and arithmetic, so the same
// xi bit for bit, without the working set, and the first Armijo trial's evaluation is kept as the
// next iterate's. A step that would be cut at the boundary or fail that trial, and an iterate
// within the tight slack of a constraint, hand over to activeSetNewton there.
//
// On the quads' square [-1, 1]^2 the working-set tests are written out: constraint k's slack is
// 1 - xi_i or 1 + xi_i, and a.d is +-d_i, exactly as slack() and the dot product round them; and
// for a > 0, s / a < 1 exactly when s < a (s < a gives s / a <= 1 - 2^-53, a double). So the
// verdicts are tightAt's and firstCrossed's, NaN included, without the table walks (5% of a warm
// update).
template <class Geometry>
Minimum interiorNewton(const NewtonProblem& pb, const Geometry& geometry, Vector2d xi,
                       LocalGeometry* last = nullptr) noexcept {
    const SegmentType type = pb.type;
    const Domain dom = referenceDomain(type);
    const std::array<bool, 4> none{};
    const bool square = !isTriangle(type);
    // No constraint tight at x: tightAt(dom, x) == none.
    const auto inside = [&](const Vector2d& x) {
        if (square) {
            return !(1.0 - std::abs(x[0]) <= kTightSlack) && !(1.0 - std::abs(x[1]) <= kTightSlack);
        }
        return tightAt(dom, x) == none;
    };
    // The full step x + d crosses a constraint: firstCrossed(dom, none, x, d, 1) >= 0.
    const auto leaves = [&](const Vector2d& x, const Vector2d& d) {
        if (square) {
            bool out = false;
            for (int i = 0; i < 2; ++i) {
                out =
                    out || (d[i] > 0.0 && 1.0 - x[i] < d[i]) || (-d[i] > 0.0 && 1.0 + x[i] < -d[i]);
            }
            return out;
        }
        double alphaMax = 1.0;
        return firstCrossed(dom, none, x, d, alphaMax) >= 0;
    };
    if (parametricDim(type) != 2 || !inside(xi)) {
        return activeSetNewton(pb, geometry, xi, last);
    }
    const double extent = pb.extent;
    LocalGeometry l = geometry.at(xi);
    for (int it = 0; it < tol::kProjectionMaxIterations; ++it) {
        const int left = tol::kProjectionMaxIterations - it;  // with this one
        const NewtonModel model = newtonModel(l, pb.q);
        // No tight constraint: chooseDirection's free step, or none where it does not descend.
        Vector2d d = stepInPlane(model.H, model.G, model.g);
        if (!(model.g.dot(d) < 0.0)) {
            d = Vector2d::Zero();
        }
        const double slope = model.g.dot(d);
        if (newtonStops(l, extent, d.squaredNorm(), slope)) {
            return stopOn(xi, l, last);
        }
        if (leaves(xi, d)) {
            return activeSetNewton(pb, geometry, xi, last, left);  // cut at the boundary
        }
        Vector2d trial = xi + d;  // alpha = 1: activeSetNewton's xi + alpha d, exactly
        clampToDomain(type, trial);
        const LocalGeometry next = geometry.at(trial);
        if (!armijoPasses(next.y - l.y, model.r, 1.0, slope, extent, true)) {
            return activeSetNewton(pb, geometry, xi, last, left);  // backtracks
        }
        const double stepSq = (trial - xi).squaredNorm();
        xi = trial;
        l = next;
        if (stepSq < kStepTolSq) {
            return stopOn(xi, l, last);
        }
        if (!inside(xi)) {
            return activeSetNewton(pb, geometry, xi, last, left - 1);
        }
    }
    return {xi, false};
}

// A certified minimum's Newton run: interiorNewton, or (false: the tests' twin) activeSetNewton
// throughout; the same iterates either way.
template <class Geometry>
Minimum certifiedNewton(const NewtonProblem& pb, const Geometry& geometry, const Vector2d& start,
                        bool interior, LocalGeometry* last = nullptr) noexcept {
    return interior ? interiorNewton(pb, geometry, start, last)
                    : activeSetNewton(pb, geometry, start, last);
}

double powInt(double x, int n) noexcept { return n == 0 ? 1.0 : n == 1 ? x : x * x; }

// The certificate's verdict: sigma (a lower bound of sigma_min(J) over D) squared against the bound
// of the second-order term. gTrace = |J(centre)|_F^2. Margin: the bounds are computed in floating
// point from rounded coefficients; kCertificateMargin (relative) is far above that rounding (a few
// ulps of the node coordinates).
bool certified(double gTrace, double sigma, double perturbation) noexcept {
    const double scale = gTrace + perturbation;
    return sigma > 0.0 && sigma * sigma > perturbation + kCertificateMargin * scale;
}

// The Newton start of a certified run: `start` made finite (the centre) and put in D.
void startInDomain(SegmentType type, const Vector2d& centre, Vector2d& start) noexcept {
    if (!start.allFinite()) {
        start = centre;
    }
    clampToDomain(type, start);
}

// The Gram matrix of J(centre) = [jc0 jc1] and its smallest singular value.
struct Gram {
    double g00;
    double g11;
    double g01;
    double det;
    double sigmaMin;
};

Gram gramOf(const Vector3d& jc0, const Vector3d& jc1) noexcept {
    Gram g{};
    g.g00 = jc0.squaredNorm();
    g.g11 = jc1.squaredNorm();
    g.g01 = jc0.dot(jc1);
    const double tr = g.g00 + g.g11;
    g.det = g.g00 * g.g11 - g.g01 * g.g01;
    const double lambdaMax =
        0.5 * (tr + std::sqrt((g.g00 - g.g11) * (g.g00 - g.g11) + 4.0 * g.g01 * g.g01));
    const double lambdaMin = lambdaMax > 0.0 ? std::max(g.det, 0.0) / lambdaMax : 0.0;
    g.sigmaMin = std::sqrt(lambdaMin);
    return g;
}

// The linearized closest point of a face at the centre (the centre where J(centre) is singular);
// rc = q - y(centre).
Vector2d faceStart(const Vector2d& centre, const Gram& g, const Vector3d& jc0, const Vector3d& jc1,
                   const Vector3d& rc) noexcept {
    const double b0 = jc0.dot(rc);
    const double b1 = jc1.dot(rc);
    return g.det > 0.0 ? Vector2d(centre[0] + (g.g11 * b0 - g.g01 * b1) / g.det,
                                  centre[1] + (g.g00 * b1 - g.g01 * b0) / g.det)
                       : centre;
}

// The same for a line (J = jc0).
Vector2d lineStart(const Vector2d& centre, const Vector3d& jc0, const Vector3d& rc) noexcept {
    const double g00 = jc0.squaredNorm();
    return {g00 > 0.0 ? centre[0] + jc0.dot(rc) / g00 : centre[0], 0.0};
}

// Faces: sigma = sigma_min(J(centre)) - eNorm, and the start at the linearized closest point.
bool certifyFace(SegmentType type, const Vector2d& centre, const Vector3d& jc0, const Vector3d& jc1,
                 const Vector3d& rc, double eNorm, double perturbation, Vector2d& start) noexcept {
    const Gram g = gramOf(jc0, jc1);
    start = faceStart(centre, g, jc0, jc1, rc);
    startInDomain(type, centre, start);
    return certified(g.g00 + g.g11, g.sigmaMin - eNorm, perturbation);
}

// What the certificate takes at the reference centre: y, J = [jc0 jc1], the bounds e0, e1 of
// ||dJ/dxi||, ||dJ/deta|| terms over D (below), and |c_k| of every monomial.
struct CentreJet {
    Vector3d yc = Vector3d::Zero();
    Vector3d jc0 = Vector3d::Zero();
    Vector3d jc1 = Vector3d::Zero();
    double e0 = 0.0;
    double e1 = 0.0;
    std::array<double, 9> norms{};
};

// Highest powers of xi and eta present in a type's monomial form.
int maxPowerXi(SegmentType type) noexcept { return type == SegmentType::Quad4 ? 1 : 2; }
int maxPowerEta(SegmentType type) noexcept {
    return parametricDim(type) == 1 ? 0 : maxPowerXi(type);
}

// Inlined: the cold path's certificate runs once per projection.
[[gnu::always_inline]] inline CentreJet centreJet(SegmentType type, const Monomials& m) noexcept {
    const Vector2d centre = referenceCentre(type);
    const int aMax = maxPowerXi(type);
    const int bMax = maxPowerEta(type);
    CentreJet j;
    for (int a = 0; a <= aMax; ++a) {
        for (int b = 0; b <= bMax; ++b) {
            const Vector3d& c = m.c[3 * a + b];
            const double cn = c.norm();
            j.norms[3 * a + b] = cn;
            j.yc += powInt(centre[0], a) * powInt(centre[1], b) * c;
            if (a >= 1) {
                j.jc0 += a * powInt(centre[0], a - 1) * powInt(centre[1], b) * c;
                j.e0 += (a - 1 + b >= 1) ? a * cn : 0.0;
            }
            if (b >= 1) {
                j.jc1 += b * powInt(centre[0], a) * powInt(centre[1], b - 1) * c;
                j.e1 += (a + b - 1 >= 1) ? b * cn : 0.0;
            }
        }
    }
    return j;
}

// The monomials with a second derivative, each with its weights in y_xixi, y_xieta and y_etaeta:
// every second-derivative coefficient is w c_m with w in {1, 2, 4} (y_xixi: 2 c_{2,b}; y_xieta:
// a b c_{a,b}; y_etaeta: 2 c_{a,2}), and scaling by a power of two is exact.
template <class F>
[[gnu::always_inline]] inline void forSecondDerivatives(SegmentType type, F f) {
    const int aMax = maxPowerXi(type);
    const int bMax = maxPowerEta(type);
    for (int a = 0; a <= aMax; ++a) {
        for (int b = 0; b <= bMax; ++b) {
            const bool xixi = a == 2;
            const bool xieta = a >= 1 && b >= 1;
            const bool etaeta = b == 2;
            if (xixi || xieta || etaeta) {
                f(3 * a + b, xixi ? 2.0 : 0.0, xieta ? double(a * b) : 0.0, etaeta ? 2.0 : 0.0);
            }
        }
    }
}

using detail::PointFreeBounds;

// The point-free bounds from the centre jet; faces also give their Gram matrix, for the start.
PointFreeBounds pointFreeBounds(SegmentType type, const CentreJet& j,
                                Gram* gram = nullptr) noexcept {
    PointFreeBounds b;
    for (std::size_t k = 1; k < j.norms.size(); ++k) {
        b.normSum += j.norms[k];
    }
    std::array<double, 3> weight{};
    forSecondDerivatives(type, [&](int mono, double wXiXi, double wXiEta, double wEtaEta) {
        const double cn = j.norms[static_cast<std::size_t>(mono)];
        weight[0] += wXiXi * cn;
        weight[1] += wXiEta * cn;
        weight[2] += wEtaEta * cn;
    });
    if (parametricDim(type) == 1) {
        const double g00 = j.jc0.squaredNorm();
        b.gTrace = g00 + j.jc1.squaredNorm();
        b.sigma = std::sqrt(g00) - j.e0;
        b.curvature = weight[0];
    } else {
        const Gram g = gramOf(j.jc0, j.jc1);
        b.gTrace = g.g00 + g.g11;
        b.sigma = g.sigmaMin - std::sqrt(j.e0 * j.e0 + j.e1 * j.e1);
        b.curvature =
            std::sqrt(weight[0] * weight[0] + 2.0 * weight[1] * weight[1] + weight[2] * weight[2]);
        if (gram != nullptr) {
            *gram = g;
        }
    }
    return b;
}

// The Newton start of a certified run: the linearized closest point at the centre, in D (faces:
// g is J(centre)'s Gram matrix).
Vector2d linearizedStart(SegmentType type, const CentreJet& j, const Gram& g,
                         const Vector3d& q) noexcept {
    const Vector2d centre = referenceCentre(type);
    const Vector3d rc = q - j.yc;
    Vector2d start = parametricDim(type) == 1 ? lineStart(centre, j.jc0, rc)
                                              : faceStart(centre, g, j.jc0, j.jc1, rc);
    startInDomain(type, centre, start);
    return start;
}

// The cheap verdict: the Cauchy-Schwarz bound of the second-order term at the point q.
bool cheapCertified(const PointFreeBounds& b, const Vector3d& c0q) noexcept {
    return certified(b.gTrace, b.sigma, (c0q.norm() + b.normSum) * b.curvature);
}

// The verdict with each second-derivative bound the weighted sum of S_m = sum_k |c'_k . c_m|
// (c'_0 = c_0 - q), beside the same point-free bounds: singleMinimum's second verdict.
bool dotSumsCertified(SegmentType type, const Monomials& m, const Vector3d& c0q,
                      const PointFreeBounds& b) noexcept {
    const int aMax = maxPowerXi(type);
    const int bMax = maxPowerEta(type);
    std::array<double, 3> bound{};
    forSecondDerivatives(type, [&](int mono, double wXiXi, double wXiEta, double wEtaEta) {
        double sm = 0.0;  // S_mono
        for (int a = 0; a <= aMax; ++a) {
            for (int bb = 0; bb <= bMax; ++bb) {
                const Vector3d& ck = a + bb == 0 ? c0q : m.c[3 * a + bb];
                sm += std::abs(ck.dot(m.c[mono]));
            }
        }
        bound[0] += wXiXi * sm;
        bound[1] += wXiEta * sm;
        bound[2] += wEtaEta * sm;
    });
    const double perturbation =
        parametricDim(type) == 1
            ? bound[0]
            : std::sqrt(bound[0] * bound[0] + 2.0 * bound[1] * bound[1] + bound[2] * bound[2]);
    return certified(b.gTrace, b.sigma, perturbation);
}

// Certificate that f(xi) = 1/2 |y(xi) - q|^2 has exactly one local minimum over the reference
// domain D: its Hessian H = J^T J + [r . d2y/dxi_u dxi_v] is positive definite on all of D, so f
// is strictly convex on the convex D, and the active-set Newton reaches the global minimum from
// any start. Bounds over D (every monomial xi^a eta^b, and the difference of two of its values,
// lies in [-1, 1] on the quad [-1, 1]^2 and on the triangle):
//   ||J(xi) - J(centre)||_2 <= sqrt(e0^2 + e1^2),  e0 = sum over the non-constant terms of dy/dxi
//                                                  of |coefficient|, e1 likewise for dy/deta
//   sigma_min(J(xi)) >= sigma_min(J(centre)) - sqrt(e0^2 + e1^2)            (Weyl)
//   |r . d2y_uv| <= sum_{m,n} |c'_m . d_n|,  r = sum c'_m phi_m (c'_0 = c_0 - q),
//                                            d2y_uv = sum d_n psi_n
//   ||[r . d2y_uv]||_2 <= its Frobenius norm
// Certified when sigma_min(J)^2 exceeds the last bound with a margin far above rounding.
// Fills `start` with the Newton start: the linearized closest point at the centre, in D.
//
// Each second-derivative bound is a weighted sum of S_m = sum_k |c'_k . c_m|. First bounded by
// Cauchy-Schwarz (pointFreeBounds: one norm, no dot product; it passes on flat and mildly curved
// segments with the point near them), then, where that fails, by the sums themselves. Both are
// proofs, and the start is the same either way.
bool singleMinimum(SegmentType type, const Monomials& m, const Vector3d& q,
                   Vector2d& start) noexcept {
    const CentreJet j = centreJet(type, m);
    const Vector3d c0q = m.c[0] - q;
    Gram g{};
    const PointFreeBounds b = pointFreeBounds(type, j, &g);
    start = linearizedStart(type, j, g, q);
    return cheapCertified(b, c0q) || dotSumsCertified(type, m, c0q, b);
}

// singleMinimum for a Quad4, written out: centre (0, 0), J(centre) = [c3 c1], e0 = e1 = |c4|, and
// the only second derivative is y_xieta = c4. The same operations in the same order as the general
// loops, so the verdict and the start are bit for bit the same.
bool singleMinimumQuad4(const Monomials& m, const Vector3d& q, Vector2d& start) noexcept {
    const Vector3d& c4 = m.c[4];
    const double e = c4.norm();
    const Vector3d c0q = m.c[0] - q;
    const double bound =
        ((std::abs(c0q.dot(c4)) + std::abs(m.c[1].dot(c4))) + std::abs(m.c[3].dot(c4))) +
        std::abs(c4.dot(c4));
    return certifyFace(SegmentType::Quad4, Vector2d::Zero(), m.c[3], m.c[1], q - m.c[0],
                       std::sqrt(e * e + e * e), std::sqrt(2.0 * bound * bound), start);
}

// Sample grids of the reference domain, as intervals per side: coarse for the usual case, fine when
// the distance may have several minima. Corners and edges are on the grid.
constexpr int kCoarseLine = 8;
constexpr int kCoarseFace = 6;
constexpr int kFineLine = 64;
constexpr int kFineFace = 32;
constexpr int kGridStorage = (kFineFace + 1) * (kFineFace + 1);
constexpr int kCoarseStorage = (kCoarseFace + 1) * (kCoarseFace + 1);
// Newton runs from at most this many seeds.
constexpr int kMaxStarts = 8;

// Starting points for the local search, best first.
struct Seeds {
    std::array<Vector2d, kMaxStarts> xi{};
    std::array<double, kMaxStarts> dSq{};
    int count = 0;
};

// Keeps the `cap` smallest squared distances, sorted.
void addSeed(Seeds& seeds, int cap, const Vector2d& xi, double dSq) noexcept {
    int k = seeds.count;
    if (k == cap) {
        if (!(dSq < seeds.dSq[cap - 1])) {
            return;
        }
        --k;
    } else {
        ++seeds.count;
    }
    for (; k > 0 && dSq < seeds.dSq[k - 1]; --k) {
        seeds.xi[k] = seeds.xi[k - 1];
        seeds.dSq[k] = seeds.dSq[k - 1];
    }
    seeds.xi[k] = xi;
    seeds.dSq[k] = dSq;
}

// Sample grid with n intervals per side (lines: j = 0 only; triangles: i + j <= n).
struct Grid {
    SegmentType type;
    int n;
    [[nodiscard]] bool line() const noexcept { return parametricDim(type) == 1; }
    [[nodiscard]] int nj() const noexcept { return line() ? 0 : n; }
    [[nodiscard]] bool valid(int i, int j) const noexcept {
        return i >= 0 && j >= 0 && i <= n && j <= nj() && (!isTriangle(type) || i + j <= n);
    }
    [[nodiscard]] int index(int i, int j) const noexcept { return i * (nj() + 1) + j; }
    [[nodiscard]] Vector2d at(int i, int j) const noexcept {
        if (isTriangle(type)) {
            return {static_cast<double>(i) / n, static_cast<double>(j) / n};
        }
        return {-1.0 + 2.0 * i / n, line() ? 0.0 : -1.0 + 2.0 * j / n};
    }
};

// True when no sample (i + di, j + dj) of the listed neighbour offsets is closer than (i, j).
bool noCloserNeighbour(const Grid& grid, const std::array<double, kGridStorage>& dSq, int i, int j,
                       const int (*offsets)[2], int count) noexcept {
    const double d = dSq[grid.index(i, j)];
    for (int k = 0; k < count; ++k) {
        const int ii = i + offsets[k][0];
        const int jj = j + offsets[k][1];
        if (grid.valid(ii, jj) && dSq[grid.index(ii, jj)] < d) {
            return false;
        }
    }
    return true;
}

constexpr int kAllNeighbours[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1},
                                      {0, 1},   {1, -1}, {1, 0},  {1, 1}};
constexpr int kAlongXi[2][2] = {{-1, 0}, {1, 0}};
constexpr int kAlongEta[2][2] = {{0, -1}, {0, 1}};
constexpr int kAlongHypotenuse[2][2] = {{-1, 1}, {1, -1}};

// Discrete local minima of sampled squared distances, at most `cap`, best first: one seed per
// basin the grid resolves. Minima in 2D (no neighbour, diagonals included, is closer) and, when
// `alongEdges`, also minima of the samples along each edge, which catch a boundary minimum that a
// slightly lower interior basin next to it hides from the 2D test.
Seeds localMinima(const Grid& grid, const std::array<double, kGridStorage>& dSq, int cap,
                  bool alongEdges) noexcept {
    Seeds seeds;
    const bool tri = isTriangle(grid.type);
    for (int i = 0; i <= grid.n; ++i) {
        for (int j = 0; j <= grid.nj(); ++j) {
            if (!grid.valid(i, j)) {
                continue;
            }
            bool seed = noCloserNeighbour(grid, dSq, i, j, kAllNeighbours, 8);
            if (!seed && alongEdges && !grid.line()) {
                const bool onXiEdge = j == 0 || (!tri && j == grid.n);   // eta fixed
                const bool onEtaEdge = i == 0 || (!tri && i == grid.n);  // xi fixed
                const bool onHypotenuse = tri && i + j == grid.n;
                seed = (onXiEdge && noCloserNeighbour(grid, dSq, i, j, kAlongXi, 2)) ||
                       (onEtaEdge && noCloserNeighbour(grid, dSq, i, j, kAlongEta, 2)) ||
                       (onHypotenuse && noCloserNeighbour(grid, dSq, i, j, kAlongHypotenuse, 2));
            }
            if (seed) {
                addSeed(seeds, cap, grid.at(i, j), dSq[grid.index(i, j)]);
            }
        }
    }
    return seeds;
}

// Along a curve y(t) with y' = yT, y'' = yTT: f'' = |yT|^2 + r . yTT. Without the part of r
// along the curve (which only reflects how the curve is parametrized), |yT|^2 / 2 + r_perp . yTT
// > 0 says that p is closer than half the radius of curvature there.
bool curveSafe(const Vector3d& r, const Vector3d& yT, const Vector3d& yTT) noexcept {
    const double tt = yT.squaredNorm();
    if (!(tt > 0.0)) {
        return false;
    }
    const Vector3d rPerp = r - (r.dot(yT) / tt) * yT;
    return 0.5 * tt + rPerp.dot(yTT) > 0.0;
}

// Same test on a face: J^T J / 2 + (r . n) [n . d2y/dxi_a dxi_b] positive definite, the
// parametrization-free part of the Hessian of f (first and second fundamental forms).
bool surfaceSafe(const Vector3d& r, const LocalGeometry& l) noexcept {
    const Vector3d c = l.yXi.cross(l.yEta);
    const double cNorm = c.norm();
    if (!(cNorm > 0.0)) {
        return false;
    }
    const double rn = r.dot(c) / (cNorm * cNorm);  // (r . n) / |c|, n = c / |c|
    const double m00 = 0.5 * l.yXi.squaredNorm() + rn * c.dot(l.yXiXi);
    const double m11 = 0.5 * l.yEta.squaredNorm() + rn * c.dot(l.yEtaEta);
    const double m01 = 0.5 * l.yXi.dot(l.yEta) + rn * c.dot(l.yXiEta);
    return m00 > 0.0 && m11 > 0.0 && m00 * m11 > m01 * m01;
}

// Seeds for the local search. A closer point than the best sample can only lie near samples no
// farther than the best one plus the size of a grid cell. If p is closer than half the radius of
// curvature at all of those, normal to the face and, on the boundary, normal to the edge, the
// coarse grid's minima are used: competing minima need p beyond a centre of curvature. Otherwise
// nearby minima may compete within a coarse cell, and the fine grid's minima, including minima
// along each edge, are used. A sampled heuristic, not a proof: the tests check it against the
// brute-force oracle.
Seeds gridSeeds(const Shifted& sh) noexcept {
    const SegmentType type = sh.s.type;
    const bool line = parametricDim(type) == 1;
    const bool tri = isTriangle(type);
    std::array<double, kGridStorage> dSq{};
    const Grid coarse{type, line ? kCoarseLine : kCoarseFace};
    std::array<LocalGeometry, kCoarseStorage> geometry;
    double best = std::numeric_limits<double>::infinity();
    double cell = 0.0;  // largest distance between neighbouring samples
    for (int i = 0; i <= coarse.n; ++i) {
        for (int j = 0; j <= coarse.nj(); ++j) {
            if (!coarse.valid(i, j)) {
                continue;
            }
            const int k = coarse.index(i, j);
            geometry[k] = evaluate(sh.s, coarse.at(i, j));
            dSq[k] = (geometry[k].y - sh.q).squaredNorm();
            best = std::min(best, dSq[k]);
            if (i > 0 && coarse.valid(i - 1, j)) {
                cell = std::max(cell, (geometry[k].y - geometry[coarse.index(i - 1, j)].y).norm());
            }
            if (j > 0) {
                cell = std::max(cell, (geometry[k].y - geometry[coarse.index(i, j - 1)].y).norm());
            }
        }
    }
    const double reach = std::sqrt(best) + cell;
    bool safe = true;
    for (int i = 0; i <= coarse.n && safe; ++i) {
        for (int j = 0; j <= coarse.nj() && safe; ++j) {
            if (!coarse.valid(i, j) || dSq[coarse.index(i, j)] > reach * reach) {
                continue;
            }
            const LocalGeometry& l = geometry[coarse.index(i, j)];
            const Vector3d r = l.y - sh.q;
            if (line) {
                safe = curveSafe(r, l.yXi, l.yXiXi);
                continue;
            }
            safe = surfaceSafe(r, l);
            if ((j == 0 || (!tri && j == coarse.n)) && safe) {  // on an edge eta = const
                safe = curveSafe(r, l.yXi, l.yXiXi);
            }
            if ((i == 0 || (!tri && i == coarse.n)) && safe) {  // on an edge xi = const
                safe = curveSafe(r, l.yEta, l.yEtaEta);
            }
            if (tri && i + j == coarse.n && safe) {  // on the hypotenuse, direction (1, -1)
                safe = curveSafe(r, l.yXi - l.yEta, l.yXiXi - 2.0 * l.yXiEta + l.yEtaEta);
            }
        }
    }
    if (safe) {
        return localMinima(coarse, dSq, kMaxStarts / 2, false);
    }
    const Grid fine{type, line ? kFineLine : kFineFace};
    for (int i = 0; i <= fine.n; ++i) {
        for (int j = 0; j <= fine.nj(); ++j) {
            if (fine.valid(i, j)) {
                dSq[fine.index(i, j)] = (position(sh.s, fine.at(i, j)) - sh.q).squaredNorm();
            }
        }
    }
    return localMinima(fine, dSq, kMaxStarts, true);
}

// Line2 (Ericson 5.1.2): clamp the projection onto the chord; a zero-length chord gives xi = -1.
Vector2d closestOnLine2(const Shifted& sh) noexcept {
    const Vector3d e = sh.s.x[1];  // x_1 - x_0
    const double eSq = e.squaredNorm();
    const double t = eSq > 0.0 ? std::clamp(sh.q.dot(e) / eSq, 0.0, 1.0) : 0.0;
    return {2.0 * t - 1.0, 0.0};
}

// Clamped projection onto the chord from a to b: the parameter in [0, 1].
double clampedChordParameter(const Vector3d& a, const Vector3d& b, const Vector3d& q) noexcept {
    const Vector3d e = b - a;
    const double eSq = e.squaredNorm();
    return eSq > 0.0 ? std::clamp((q - a).dot(e) / eSq, 0.0, 1.0) : 0.0;
}

// Closest of the three edges of the triangle 0, ab, ac to ap, as area coordinates.
Vector2d closestOnTriangleEdges(const Vector3d& ab, const Vector3d& ac,
                                const Vector3d& ap) noexcept {
    const Vector3d zero = Vector3d::Zero();
    const double t01 = clampedChordParameter(zero, ab, ap);
    const double t02 = clampedChordParameter(zero, ac, ap);
    const double t12 = clampedChordParameter(ab, ac, ap);
    const std::array<Vector2d, 3> xi = {Vector2d(t01, 0.0), Vector2d(0.0, t02),
                                        Vector2d(1.0 - t12, t12)};
    const std::array<double, 3> dSq = {(t01 * ab - ap).squaredNorm(), (t02 * ac - ap).squaredNorm(),
                                       (ab + t12 * (ac - ab) - ap).squaredNorm()};
    return xi[std::min_element(dSq.begin(), dSq.end()) - dSq.begin()];
}

// Tri3 (Ericson, Real-Time Collision Detection, 5.1.5): find the Voronoi region of p, then the
// closest point of that feature. Node 0 is at the origin (a = 0, b = x_1, c = x_2).
//
//             \ V2 /
//              \  /
//               x2
//              /  \         Vi:  vertex regions, closest point = node i
//      E20    /    \    E12  Eij: edge regions, closest point on edge i-j
//            /  F   \       F:   face region, closest point = projection onto the plane
//       \   /        \   /
//        \ /          \ /    (region borders are perpendicular to the edges)
//         x0 -------- x1
//    V0   |    E01     |   V1
//
// Returns area coordinates (xi, eta) = weights of x1 and x2. A triangle of (nearly) zero area,
// whose regions collapse, is solved as the closest of its three edges; no division by zero.
Vector2d closestOnTri3(const Shifted& sh) noexcept {
    const Vector3d& ab = sh.s.x[1];
    const Vector3d& ac = sh.s.x[2];
    const Vector3d& ap = sh.q;
    if (!(ab.cross(ac).squaredNorm() > tol::kEps * ab.squaredNorm() * ac.squaredNorm())) {
        return closestOnTriangleEdges(ab, ac, ap);
    }
    const double d1 = ab.dot(ap);
    const double d2 = ac.dot(ap);
    if (d1 <= 0.0 && d2 <= 0.0) {  // V0
        return {0.0, 0.0};
    }
    const Vector3d bp = ap - ab;
    const double d3 = ab.dot(bp);
    const double d4 = ac.dot(bp);
    if (d3 >= 0.0 && d4 <= d3) {  // V1
        return {1.0, 0.0};
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {  // E01
        const double den = d1 - d3;
        return {den > 0.0 ? d1 / den : 0.0, 0.0};
    }
    const Vector3d cp = ap - ac;
    const double d5 = ab.dot(cp);
    const double d6 = ac.dot(cp);
    if (d6 >= 0.0 && d5 <= d6) {  // V2
        return {0.0, 1.0};
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {  // E20
        const double den = d2 - d6;
        return {0.0, den > 0.0 ? d2 / den : 0.0};
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {  // E12
        const double den = (d4 - d3) + (d5 - d6);
        const double w = den > 0.0 ? (d4 - d3) / den : 0.0;
        return {1.0 - w, w};
    }
    // F: va + vb + vc = |ab x ac|^2 > 0 in exact arithmetic.
    const double den = va + vb + vc;
    if (!(den > 0.0)) {
        return closestOnTriangleEdges(ab, ac, ap);
    }
    Vector2d xi(vb / den, vc / den);
    clampToDomain(SegmentType::Tri3, xi);
    return xi;
}

// Fills the result at xi: point, distance, frame, gap, shape functions and status.
Projection finish(const SegmentNodes& s, const Shifted& sh, const Vector2d& xi,
                  bool converged) noexcept {
    Projection out;
    out.xi = xi;
    out.N = shapeValues(s.type, xi);
    Vector3d y = Vector3d::Zero();
    for (int i = 0; i < nodeCount(s.type); ++i) {
        y += out.N[i] * sh.s.x[i];
    }
    const Vector3d d = sh.q - y;  // p - point
    out.point = s.x[0] + y;
    out.distance = d.norm();

    // NaN or Inf in p (or in the nodes), or a distance beyond the double range: no closest point
    // to speak of, kDegenerate. One test of the result, none on the Newton path.
    SegmentFrame frame;  // degenerate
    if (std::isfinite(out.distance)) {
        frame = segmentFrame(sh.s, xi);
        if (frame.degenerate) {
            // A collapsed edge or corner may still have a normal right next to it.
            const Vector2d toCentre = referenceCentre(s.type) - xi;
            const double len = toCentre.norm();
            if (len > 0.0) {
                frame = segmentFrame(sh.s, xi + (std::min(kNormalNudge, len) / len) * toCentre);
            }
        }
    }
    if (frame.degenerate) {
        out.gap = out.distance;
        out.status = ProjectionStatus::kDegenerate;
        return out;
    }
    out.normal = frame.normal;
    out.tangent1 = frame.tangent1;
    out.tangent2 = frame.tangent2;
    out.gap = d.dot(frame.normal);
    if (!converged) {
        out.status = ProjectionStatus::kNotConverged;
    } else if (boundarySlack(s.type, xi) <= tol::kOnBoundaryTol) {
        out.status = ProjectionStatus::kOnBoundary;
    } else {
        out.status = ProjectionStatus::kConverged;
    }
    return out;
}

}  // namespace

const char* projectionStatusName(ProjectionStatus s) noexcept {
    switch (s) {
    case ProjectionStatus::kConverged: return "Converged";
    case ProjectionStatus::kOnBoundary: return "OnBoundary";
    case ProjectionStatus::kDegenerate: return "Degenerate";
    case ProjectionStatus::kNotConverged: return "NotConverged";
    }
    return "?";
}

bool distanceIsConvex(const SegmentNodes& s, const Eigen::Vector3d& p) noexcept {
    if (s.type == SegmentType::Line2 || s.type == SegmentType::Tri3) {
        return true;
    }
    const Shifted sh = shiftToNode0(s, p);
    Vector2d start;
    return singleMinimum(s.type, monomialForm(sh.s), sh.q, start);
}

// Line2 and Tri3: closed form. The others:
//
//   if singleMinimum(s, p) (the distance is provably strictly convex over the domain: flat and
//   mildly curved segments with p near them, the usual case): one Newton run from the linearized
//   closest point at the centre. Otherwise:
//   seeds = local minima of |x(xi) - p| sampled on a coarse grid (7 x 7 on a quad), or on a fine
//           grid (33 x 33), edges included, when p may lie beyond a centre of curvature
//   for each seed, best first: xi_k = activeSetNewton(seed)
//   keep the closest xi_k (a converged one over one cut short by the iteration limit, unless that
//   is closer beyond rounding); fill point, distance, frame, gap, N and status at it
//
// Several seeds because the distance to a curved segment can have several local minima; a
// single Newton run finds only the one whose basin holds its start.
namespace {

// Whether a run ending at squared distance dSq (converged or not) replaces the best so far. Runs
// of equal standing: the strictly closer. A run stopped by the iteration limit near a minimum
// that another run converged to ties it within rounding (its xi a few 1e-9 off changes f only at
// second order), so it replaces a converged run only when closer by more than the rounding of
// dSq = 2 f: twice the noise of f that armijoPasses uses, kNoiseUlps eps extent |r|, with |r| the
// larger distance. A converged run replaces one that is not unless that is closer beyond it.
bool replaces(bool converged, double dSq, bool bestConverged, double bestSq,
              double extent) noexcept {
    if (converged == bestConverged) {
        return dSq < bestSq;
    }
    const double noise = 2.0 * kNoiseUlps * tol::kEps * extent * std::sqrt(std::max(dSq, bestSq));
    return converged ? !(dSq - bestSq > noise) : bestSq - dSq > noise;
}

// Local coordinates of the closest point, from the shifted problem. `interior`: certified
// minima by interiorNewton (the same iterates as activeSetNewton's, bit for bit; false: the
// tests' twin).
Minimum closestMinimum(const Shifted& sh, bool interior = true) noexcept {
    const SegmentType type = sh.s.type;
    switch (type) {
    case SegmentType::Line2: return {closestOnLine2(sh), true};
    case SegmentType::Tri3: return {closestOnTri3(sh), true};
    case SegmentType::Line3:
    case SegmentType::Tri6:
    case SegmentType::Quad4:
    case SegmentType::Quad8:
    case SegmentType::Quad9: break;
    }
    Vector2d start;
    const Monomials mono = monomialForm(sh.s);
    if (type == SegmentType::Quad4) {
        if (singleMinimumQuad4(mono, sh.q, start)) {
            return certifiedNewton(newtonProblem(sh), BilinearGeometry{mono}, start, interior);
        }
    } else if (singleMinimum(type, mono, sh.q, start)) {
        return certifiedNewton(newtonProblem(sh), MonomialGeometry{mono}, start, interior);
    }
    // Local search from each seed; keep the closest result (the first on a tie: deterministic),
    // a converged one over one that is not unless that is closer beyond rounding (replaces()).
    const Seeds seeds = gridSeeds(sh);
    const NewtonProblem pb = newtonProblem(sh);
    Minimum best;
    double bestSq = 0.0;
    for (int k = 0; k < seeds.count; ++k) {
        const Minimum m = activeSetNewton(pb, NodalGeometry{sh.s}, seeds.xi[k]);
        const double dSq = (position(sh.s, m.xi) - sh.q).squaredNorm();
        if (k == 0 || replaces(m.converged, dSq, best.converged, bestSq, pb.extent)) {
            best = m;
            bestSq = dSq;
        }
    }
    return best;
}

ClosestXi closestXiOf(const SegmentNodes& s, const Eigen::Vector3d& p, bool interior) noexcept {
    const Shifted sh = shiftToNode0(s, p);
    const Minimum m = closestMinimum(sh, interior);
    // The distance exactly as projectionAt() computes it.
    return {m.xi, (sh.q - position(sh.s, m.xi)).norm(), m.converged};
}

}  // namespace

ClosestXi closestXi(const SegmentNodes& s, const Eigen::Vector3d& p) noexcept {
    return closestXiOf(s, p, true);
}

Projection projectionAt(const SegmentNodes& s, const Eigen::Vector3d& p,
                        const ClosestXi& c) noexcept {
    return finish(s, shiftToNode0(s, p), c.xi, c.converged);
}

Projection closestPoint(const SegmentNodes& s, const Eigen::Vector3d& p) noexcept {
    const Shifted sh = shiftToNode0(s, p);
    const Minimum m = closestMinimum(sh);
    return finish(s, sh, m.xi, m.converged);
}

}  // namespace contact

namespace contact::detail {

// Warm path (warm_projection.hpp):
//
//   certificate: the cheap one (|r . c_m| <= |r| |c_m|, from WarmSegment's sums), else the dot
//   sums (dotSumsCertified; a proof either way); none -> closestXi(s, p)
//   xi = activeSetNewton (by interiorNewton while inside) from start (clamped into D) or the
//        linearized start, on HornerGeometry; the evaluation at which it stops is kept for the
//        frame
//   not converged -> closestXi(s, p)
//
// With a single minimum, every start reaches it; the start changes only the rounding of the
// result, within the Newton tolerance (1e-13 in xi: the tests measure it against closestPoint).
void makeWarmSegment(const SegmentNodes& s, WarmSegment& out) noexcept {
    out.type = s.type;
    out.x0 = s.x[0];
    const Shifted sh = shiftToNode0(s, s.x[0]);
    out.mono = monomialForm(sh.s);
    out.nodeExtentSq = nodeExtentSq(sh.s);
    out.spread = 0.0;
    for (int i = 1; i < cornerCount(s.type); ++i) {
        out.spread = std::max(out.spread, sh.s.x[i].cwiseAbs().maxCoeff());
    }
    out.bounds = pointFreeBounds(s.type, centreJet(s.type, out.mono));
}

bool warmClosestXi(const WarmSegment& w, const Eigen::Vector3d& p, const Eigen::Vector2d* start,
                   WarmClosest& out, bool interior) noexcept {
    const SegmentType type = w.type;
    const Vector3d q = p - w.x0;  // shiftToNode0's
    const bool given = start != nullptr && start->allFinite();
    const Vector3d c0q = w.mono.c[0] - q;
    if (!cheapCertified(w.bounds, c0q) && !dotSumsCertified(type, w.mono, c0q, w.bounds)) {
        return false;
    }
    Vector2d xi;
    if (given) {
        xi = *start;
        clampToDomain(type, xi);
    } else {
        const CentreJet j = centreJet(type, w.mono);
        xi = linearizedStart(type, j, gramOf(j.jc0, j.jc1), q);
    }
    const HornerGeometry geometry{w.mono};
    LocalGeometry l;
    const Minimum m =
        certifiedNewton(newtonProblem(type, q, w.nodeExtentSq), geometry, xi, interior, &l);
    if (!m.converged) {
        return false;
    }
    if (!m.evaluated) {
        l = geometry.at(m.xi);
    }
    out.closest = {m.xi, (q - l.y).norm(), true};
    out.y = l.y;
    out.yXi = l.yXi;
    out.yEta = l.yEta;
    out.geometry = true;
    return true;
}

WarmClosest warmClosestXi(const SegmentNodes& s, const Eigen::Vector3d& p,
                          const Eigen::Vector2d* start, bool interior) noexcept {
    WarmClosest out;  // untouched where the warm path declines
    if (hasWarmPath(s.type)) {
        WarmSegment w;
        makeWarmSegment(s, w);
        if (warmClosestXi(w, p, start, out, interior)) {
            return out;
        }
    }
    out.closest = closestXi(s, p);
    return out;
}

ClosestXi closestXiActiveSet(const SegmentNodes& s, const Eigen::Vector3d& p) noexcept {
    return closestXiOf(s, p, false);
}

bool nearStatusEdge(SegmentType type, const Eigen::Vector2d& xi) noexcept {
    const double slack = boundarySlack(type, xi);
    return slack >= kStatusEdgeLow && std::abs(slack - tol::kOnBoundaryTol) <= kStatusEdge;
}

// finish() with the point and the derivatives given: the same frame formulas as segmentFrame,
// the same degeneracy test (nodeSpread of the shifted nodes), and finish() itself where the frame
// is degenerate (it looks for a normal next to the point).
// The warm frame's smallest width, relative to the segment's spread (warmProjectionAt).
constexpr double kWarmMinWidthRel = 1e-3;

bool warmProjectionAt(const WarmSegment& seg, const Eigen::Vector3d& p, const WarmClosest& w,
                      Projection& out) noexcept {
    const Vector2d& xi = w.closest.xi;
    LocalGeometry l;
    if (w.geometry) {
        l.y = w.y;
        l.yXi = w.yXi;
        l.yEta = w.yEta;
    } else {
        l = HornerGeometry{seg.mono}.at(xi);
    }
    const Vector3d q = p - seg.x0;  // shiftToNode0's
    Vector3d normal;
    Vector3d tangent1;
    if (parametricDim(seg.type) == 1) {
        const double jacobian = l.yXi.norm();
        if (!(jacobian > tol::kDegenerateJacobianRel * seg.spread)) {
            return false;
        }
        tangent1 = l.yXi / jacobian;
        normal = Vector3d(tangent1.y(), -tangent1.x(), 0.0);
    } else {
        const Vector3d c = l.yXi.cross(l.yEta);
        const double jacobian = c.norm();
        // The two evaluations' derivatives differ by rounding of the node coordinates, about
        // eps x spread; across a thin segment (width w = jacobian / spread) the normal then
        // differs by about eps x spread / w. Thinner than kWarmMinWidthRel of its spread, the
        // segment takes the cold frame (finish's) at the warm xi, so that the frame stays within
        // the warm bound.
        if (!(jacobian > kWarmMinWidthRel * seg.spread * seg.spread)) {
            return false;
        }
        normal = c / jacobian;
        tangent1 = l.yXi.normalized();
    }
    const Vector3d d = q - l.y;
    const double distance = d.norm();
    if (!std::isfinite(distance)) {  // NaN or Inf: finish() makes it kDegenerate
        return false;
    }
    out.xi = xi;
    out.N = shapeValues(seg.type, xi);
    out.point = seg.x0 + l.y;
    out.distance = distance;
    out.normal = normal;
    out.tangent1 = tangent1;
    out.tangent2 = normal.cross(tangent1);
    out.gap = d.dot(normal);
    if (!w.closest.converged) {
        out.status = ProjectionStatus::kNotConverged;
    } else if (boundarySlack(seg.type, xi) <= tol::kOnBoundaryTol) {
        out.status = ProjectionStatus::kOnBoundary;
    } else {
        out.status = ProjectionStatus::kConverged;
    }
    return true;
}

Projection warmProjectionAt(const SegmentNodes& s, const Eigen::Vector3d& p,
                            const WarmClosest& w) noexcept {
    Projection out;
    WarmSegment seg;
    makeWarmSegment(s, seg);
    if (!warmProjectionAt(seg, p, w, out)) {
        out = projectionAt(s, p, w.closest);
    }
    return out;
}

}  // namespace contact::detail
