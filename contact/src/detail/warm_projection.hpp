// SPDX-License-Identifier: MIT
// The warm path of the projection kernel (SearchOptions::warmStart): node mode's reused list
// projects curved masters from the last local coordinates and takes the frame from the last
// Newton evaluation. Its results differ from closestXi()/projectionAt() in the last bits only
// (the same minimum, proved single, to the Newton tolerance). Internal; never installed.
#pragma once

#include "contact/projection.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <array>

namespace contact::detail {

/// Segment types with a warm path: the curved ones (Line3, Tri6, Quad8, Quad9). Line2 and Tri3
/// are solved in closed form; Quad4 gains under a tenth from it, and far from the origin its
/// results leave the 1e-12 of a fresh search (bench/RESULTS.md).
[[nodiscard]] constexpr bool hasWarmPath(SegmentType t) noexcept {
    return t == SegmentType::Line3 || t == SegmentType::Tri6 || t == SegmentType::Quad8 ||
           t == SegmentType::Quad9;
}

/// A segment as a polynomial about its node 0: x(xi, eta) - x_0 = sum c[3a + b] xi^a eta^b,
/// a, b <= 2 (lines: b = 0).
struct Monomials {
    std::array<Eigen::Vector3d, 9> c{};
};

/// The monomial form of any segment type (Quad8, Quad9 and Line3 on their nodes; Tri6 by its
/// extrapolated shape functions; Quad4 exactly): y(xi, eta) = sum c[3a + b] xi^a eta^b.
[[nodiscard]] Monomials monomialForm(const SegmentNodes& s) noexcept;

/// Quad8 and Quad9: their nodes sit on monomialForm's samples, so the form is made from the nodes
/// alone, and evaluating it by Horner's rule costs a fraction of the shape functions.
[[nodiscard]] constexpr bool hasNodalMonomials(SegmentType t) noexcept {
    return t == SegmentType::Quad8 || t == SegmentType::Quad9;
}

/// Horner's rule on a monomial form, first along eta: the rows A_k(eta) = c_k0 + eta (c_k1 + eta
/// c_k2) and their eta derivatives, of which y = A_0 + xi (A_1 + xi A_2).
struct HornerRows {
    std::array<Eigen::Vector3d, 3> a;
    std::array<Eigen::Vector3d, 3> da;
};

[[nodiscard, gnu::always_inline]] inline HornerRows hornerRows(const Monomials& m,
                                                               double eta) noexcept {
    HornerRows r;
    for (std::size_t k = 0; k < 3; ++k) {
        const Eigen::Vector3d& c0 = m.c[3 * k];
        const Eigen::Vector3d& c1 = m.c[3 * k + 1];
        const Eigen::Vector3d& c2 = m.c[3 * k + 2];
        r.a[k] = c0 + eta * (c1 + eta * c2);
        r.da[k] = c1 + (2.0 * eta) * c2;
    }
    return r;
}

/// y and its first derivatives at xi from the rows at eta.
[[gnu::always_inline]] inline void hornerFirst(const HornerRows& r, double xi, Eigen::Vector3d& y,
                                               Eigen::Vector3d& yXi,
                                               Eigen::Vector3d& yEta) noexcept {
    y = r.a[0] + xi * (r.a[1] + xi * r.a[2]);
    yXi = r.a[1] + (2.0 * xi) * r.a[2];
    yEta = r.da[0] + xi * (r.da[1] + xi * r.da[2]);
}

/// The same at (xi, eta) in one call.
[[gnu::always_inline]] inline void hornerAt(const Monomials& m, const Eigen::Vector2d& xi,
                                            Eigen::Vector3d& y, Eigen::Vector3d& yXi,
                                            Eigen::Vector3d& yEta) noexcept {
    hornerFirst(hornerRows(m, xi[1]), xi[0], y, yXi, yEta);
}

/// The parts of the single-minimum certificate that do not depend on the point: sigma =
/// sigma_min(J(centre)) less the bound of how far J strays over the domain, gTrace =
/// |J(centre)|_F^2, and for the Cauchy-Schwarz bound of the second-order term (|r . c_m| <= |r|
/// |c_m|, and |r| <= |c_0 - q| + normSum over the domain) normSum = sum over k >= 1 of |c_k| and
/// curvature = |[w_uv]|, w_uv the weighted sums of |c_m| in the second derivatives: that term is
/// at most (|c_0 - q| + normSum) curvature.
struct PointFreeBounds {
    double sigma = 0.0;
    double gTrace = 0.0;
    double normSum = 0.0;
    double curvature = 0.0;
};

/// What the warm path needs of one segment whatever the point: x_0, its monomial form about x_0,
/// and the point-free parts of the certificate and of the frame. Made once per segment and update
/// for every node projected on it (NodeSearch keeps the last ones made).
struct WarmSegment {
    SegmentType type = SegmentType::Quad8;
    Eigen::Vector3d x0 = Eigen::Vector3d::Zero();
    Monomials mono;
    double nodeExtentSq = 0.0;  // largest |x_i - x_0|^2: Newton's scale of noise, with |p - x_0|
    double spread = 0.0;        // largest |x_i - x_0| component over the corners (frame check)
    PointFreeBounds bounds;
};

/// The WarmSegment of a segment with hasWarmPath(s.type), made in `out` (a cache slot).
void makeWarmSegment(const SegmentNodes& s, WarmSegment& out) noexcept;

/// A closest point of the warm path, with the geometry its frame is made from.
struct WarmClosest {
    ClosestXi closest;
    /// y(xi) - x_0 and its derivatives at closest.xi (x_0: the segment's first node), from the
    /// monomial form; only when `geometry`.
    Eigen::Vector3d y = Eigen::Vector3d::Zero();
    Eigen::Vector3d yXi = Eigen::Vector3d::Zero();
    Eigen::Vector3d yEta = Eigen::Vector3d::Zero();
    bool geometry = false;
};

/// closestXi() of a segment with hasWarmPath(s.type), from `start` (any point: clamped into the
/// domain; nullptr: the linearized closest point) where the single-minimum certificate holds, by
/// Horner's rule on the monomial form. Where it does not hold, or Newton does not converge, it is
/// closestXi(s, p) exactly (several minima: a warm start could land in the wrong one).
/// The distance is |p - x(xi)| with x(xi) from the monomial form. Never throws, never allocates.
/// `interior`: Newton's steps inside the domain by a loop without the working set (the same
/// iterates bit for bit); false runs the general active-set loop throughout, for the tests.
[[nodiscard]] WarmClosest warmClosestXi(const SegmentNodes& s, const Eigen::Vector3d& p,
                                        const Eigen::Vector2d* start,
                                        bool interior = true) noexcept;

/// warmClosestXi() from the segment's WarmSegment: true with `out` filled where the certificate
/// holds and Newton converges; false where warmClosestXi() would return closestXi(s, p), which the
/// caller then takes.
[[nodiscard]] bool warmClosestXi(const WarmSegment& w, const Eigen::Vector3d& p,
                                 const Eigen::Vector2d* start, WarmClosest& out,
                                 bool interior = true) noexcept;

/// closestXi() with the general active-set Newton loop throughout, where closestXi() takes the
/// steps inside the domain by a loop without the working set: the tests' twin (bit for bit).
[[nodiscard]] ClosestXi closestXiActiveSet(const SegmentNodes& s,
                                           const Eigen::Vector3d& p) noexcept;

/// projectionAt() for a warm closest point: the frame, gap and distance from the monomial form's
/// derivatives at w.closest.xi (w's own when w.geometry, else computed, bit for bit the same), the
/// shape functions and status as projectionAt(). A degenerate frame is projectionAt()'s.
[[nodiscard]] Projection warmProjectionAt(const SegmentNodes& s, const Eigen::Vector3d& p,
                                          const WarmClosest& w) noexcept;

/// warmProjectionAt() from the segment's WarmSegment: false, with `out` untouched, where the frame
/// is degenerate or the distance is not finite (warmProjectionAt() then takes projectionAt()'s,
/// which needs the nodes).
[[nodiscard]] bool warmProjectionAt(const WarmSegment& seg, const Eigen::Vector3d& p,
                                    const WarmClosest& w, Projection& out) noexcept;

/// True when xi's distance from the domain's boundary lies within 1e-11 above, or down to half,
/// the distance at which the status turns from kConverged to kOnBoundary (tol::kOnBoundaryTol): a
/// warm and a cold xi there, 1e-13 apart, could get different statuses, so the search takes the
/// cold one.
[[nodiscard]] bool nearStatusEdge(SegmentType type, const Eigen::Vector2d& xi) noexcept;

}  // namespace contact::detail
