// SPDX-License-Identifier: MIT
// Mortar integrals of one segment pair: overlap on the slave's plane, cut to the capture
// distance, Gauss points with both faces' shape functions and the gap, summed on the slave.
#include "detail/mortar_kernels.hpp"

#include "contact/bounds.hpp"
#include "contact/clipping.hpp"
#include "contact/mortar.hpp"
#include "contact/segment.hpp"

#include "detail/quadrature_rules.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

namespace contact::detail {

// Hot point loops built twice, for x86-64's baseline (SSE2) and for AVX2, the copy chosen when
// the library loads (the same operations in the same order, no fused multiply-add: the same
// bits on either). Elsewhere, or built with CONTACT_NO_WIDE_CLONES defined, one build.
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) &&      \
    !defined(CONTACT_NO_WIDE_CLONES)
#define CONTACT_WIDE_CLONES __attribute__((target_clones("avx2", "default")))
#define CONTACT_WIDE_VERSIONS 1
#else
#define CONTACT_WIDE_CLONES
#endif
namespace {

// setWideKernels' switch (the tests' only).
std::atomic<bool> gWideKernels{true};
std::atomic<int> gCutPieces{kMortarCutPieces};

using Eigen::Vector2d;
using Eigen::Vector3d;

constexpr int kMaxVertices = 2 * kMaxOverlapVertices;  // room for the cut of an 8-gon
constexpr int kMaxNewton = 40;

double cross2(const Vector2d& a, const Vector2d& b) noexcept {
    return a.x() * b.y() - a.y() * b.x();
}

bool isLinearFace(SegmentType t) noexcept {
    return t == SegmentType::Tri3 || t == SegmentType::Quad4;
}

// ---------------------------------------------------------------------------------------------
// Faces in the slave's plane.

// The Gauss-Legendre rule whose product rule integrates a polynomial of total degree `degree`
// over a bilinearly mapped quadrilateral exactly (quadPoints), where it takes fewer points than
// the two triangles of the fan would: degrees 2 to 4 (4 or 9 points against 6 or 12). Else null.
const LineRule* quadProductRule(int degree) noexcept {
    const int order = std::clamp(degree, 1, kMaxOverlapQuadratureOrder);
    const LineRule& r = lineRule(order + 1);
    return r.n * r.n < 2 * triangleRule(order).n ? &r : nullptr;
}

// Distance of a face from an affine map of its local coordinates: the bilinear twist of its
// corners (|x0 - x1 + x2 - x3| / 4 for quads) plus flatApproximationBound for the midside nodes.
double faceSlack(const SegmentNodes& s) noexcept {
    double twist = 0.0;
    if (cornerCount(s.type) == 4) {
        twist = 0.25 * (s.x[0] - s.x[1] + s.x[2] - s.x[3]).norm();
    }
    return twist + flatApproximationBound(s);
}

// The nodes of face `s` in the plane coordinates of `slave`: all a pair needs before the quick
// rejection.
void projectFace(const MortarSlave& slave, const SegmentNodes& s, PlaneFace& f) noexcept {
    f.type = s.type;
    f.nn = nodeCount(s.type);
    f.nc = cornerCount(s.type);
    for (int i = 0; i < f.nn; ++i) {
        const Vector3d d = s.x[i] - slave.origin;
        f.p[i] = Vector2d(d.dot(slave.e1), slave.dim == 3 ? d.dot(slave.e2) : 0.0);
    }
}

// The rest of the face (L: its characteristicSize): flatness, slack, the cosine of its centre
// normal with the plane's, and for Tri3 and Quad4 the coefficients of its maps (PlaneFace).
void completeFace(const MortarSlave& slave, const SegmentNodes& s, double L,
                  PlaneFace& f) noexcept {
    f.hmin = std::numeric_limits<double>::infinity();
    f.hmax = -f.hmin;
    for (int i = 0; i < f.nn; ++i) {
        f.x[i] = s.x[i] - slave.origin;
        f.h[i] = f.x[i].dot(slave.n);
        f.hmin = std::min(f.hmin, f.h[i]);
        f.hmax = std::max(f.hmax, f.h[i]);
    }
    Vector3d v0;
    Vector3d v1 = Vector3d::Zero();
    Vector3d v2 = Vector3d::Zero();
    if (f.type == SegmentType::Quad4) {
        f.a0 = 0.25 * (f.p[0] + f.p[1] + f.p[2] + f.p[3]);
        f.a1 = 0.25 * (-f.p[0] + f.p[1] + f.p[2] - f.p[3]);
        f.a2 = 0.25 * (-f.p[0] - f.p[1] + f.p[2] + f.p[3]);
        f.a3 = 0.25 * (f.p[0] - f.p[1] + f.p[2] - f.p[3]);
        f.hc = {0.25 * (f.h[0] + f.h[1] + f.h[2] + f.h[3]),
                0.25 * (-f.h[0] + f.h[1] + f.h[2] - f.h[3]),
                0.25 * (-f.h[0] - f.h[1] + f.h[2] + f.h[3]),
                0.25 * (f.h[0] - f.h[1] + f.h[2] - f.h[3])};
        // dx/dxi = A + B eta, dx/deta = C + B xi: the cross product is affine in (xi, eta).
        const Vector3d A = 0.25 * (f.x[1] - f.x[0] + f.x[2] - f.x[3]);
        const Vector3d B = 0.25 * (f.x[0] - f.x[1] + f.x[2] - f.x[3]);
        const Vector3d C = 0.25 * (f.x[2] + f.x[3] - f.x[0] - f.x[1]);
        v0 = A.cross(C);
        v1 = A.cross(B);
        v2 = B.cross(C);
        f.slack = B.norm();  // the twist: faceSlack for a Quad4
    } else if (f.type == SegmentType::Tri3) {
        f.a0 = f.p[0];
        f.a1 = f.p[1] - f.p[0];
        f.a2 = f.p[2] - f.p[0];
        f.a3 = Vector2d::Zero();
        f.hc = {f.h[0], f.h[1] - f.h[0], f.h[2] - f.h[0], 0.0};
        v0 = (f.x[1] - f.x[0]).cross(f.x[2] - f.x[0]);
        f.slack = 0.0;
    } else {
        f.slack = faceSlack(s);
        f.flat = f.slack <= kMortarFlatRel * L;
        f.cosine = outwardNormal(s, referenceCentre(s.type)).dot(slave.n);
        if (hasNodalMonomials(f.type)) {
            SegmentNodes inPlane;
            inPlane.type = f.type;
            for (int i = 0; i < f.nn; ++i) {
                inPlane.x[i] = Vector3d(f.p[i].x(), f.p[i].y(), f.h[i]);
            }
            f.mono = monomialForm(inPlane);
        }
        return;
    }
    f.flat = f.slack <= kMortarFlatRel * L;
    f.affine = f.a3.norm() <= kMortarFlatRel * (f.a1.norm() + f.a2.norm());
    f.k2 = cross2(f.a1, f.a3);
    f.k12 = cross2(f.a1, f.a2);
    f.nc3 = {slave.n.dot(v0), slave.n.dot(v1), slave.n.dot(v2)};
    f.q = {v0.squaredNorm(), 2.0 * v0.dot(v1), 2.0 * v0.dot(v2),
           v1.squaredNorm(), 2.0 * v1.dot(v2), v2.squaredNorm()};
    f.cosine = f.nc3[0] / std::sqrt(f.q[0]);  // the normal at the reference centre
}

void toPlane(const MortarSlave& slave, const SegmentNodes& s, PlaneFace& f) noexcept {
    projectFace(slave, s, f);
    completeFace(slave, s, characteristicSize(s), f);
}

// Tri3 and Quad4 at xi: n_plane . (dx/dxi x dx/deta) and |dx/dxi x dx/deta|.
void normalTerms(const PlaneFace& f, const Vector2d& xi, double& along, double& length) noexcept {
    const double u = xi.x();
    const double v = xi.y();
    along = f.nc3[0] + f.nc3[1] * u + f.nc3[2] * v;
    length = std::sqrt(f.q[0] + u * (f.q[1] + f.q[3] * u + f.q[4] * v) + v * (f.q[2] + f.q[5] * v));
}

// Local coordinates of plane point q on a Tri3 or Quad4 face: the root of
// a1 xi + (a2 + a3 xi) eta = q - a0 (Quilez's inverse bilinear, with the stable root of the
// quadratic k2 xi^2 + k1 xi + k0 = 0, and of two roots the one nearer [-1, 1]).
inline Vector2d inverseLinear(const PlaneFace& f, const Vector2d& q) noexcept {
    const Vector2d r = q - f.a0;
    const double k2 = f.k2;
    const double k1 = f.k12 - cross2(r, f.a3);
    const double k0 = -cross2(r, f.a2);
    const double disc = std::max(0.0, k1 * k1 - 4.0 * k2 * k0);
    const double big = -0.5 * (k1 + std::copysign(std::sqrt(disc), k1));
    double xi = big != 0.0 ? k0 / big : 0.0;
    if (k2 != 0.0 && big != 0.0) {
        const double other = big / k2;
        const auto outside = [](double t) { return std::max(0.0, std::abs(t) - 1.0); };
        if (outside(other) < outside(xi)) {
            xi = other;
        }
    }
    const Vector2d d = f.a2 + f.a3 * xi;
    const double dd = d.squaredNorm();
    const double eta = dd > 0.0 ? (r - f.a1 * xi).dot(d) / dd : 0.0;
    return {xi, eta};
}

// Local coordinates of plane point q on a face of any type: Newton's method on
// sum_i N_i(xi) p_i = q from `xi` (steps of at most 0.5), the result moved into the domain.
// Newton squares the error: after a full step of 1e-8 the error is about 1e-16 (times the
// map's curvature over its Jacobian, O(1) on a face), so the iteration ends there.
Vector2d inverseNewton(const PlaneFace& f, const Vector2d& q, Vector2d xi) noexcept {
    const bool mono = hasNodalMonomials(f.type);
    for (int it = 0; it < kMaxNewton; ++it) {
        Vector2d r = -q;
        Vector2d dXi = Vector2d::Zero();
        Vector2d dEta = Vector2d::Zero();
        if (mono) {
            Vector3d y;
            Vector3d yXi;
            Vector3d yEta;
            hornerAt(f.mono, xi, y, yXi, yEta);
            r += y.head<2>();
            dXi = yXi.head<2>();
            dEta = yEta.head<2>();
        } else {
            const ShapeGradients sf = shapeGradients(f.type, xi);
            for (int i = 0; i < f.nn; ++i) {
                r += sf.N[i] * f.p[i];
                dXi += sf.dXi[i] * f.p[i];
                dEta += sf.dEta[i] * f.p[i];
            }
        }
        const double det = cross2(dXi, dEta);
        if (!(std::abs(det) > 0.0)) {
            break;
        }
        Vector2d step(-(dEta.y() * r.x() - dEta.x() * r.y()) / det,
                      -(dXi.x() * r.y() - dXi.y() * r.x()) / det);
        const double size = step.cwiseAbs().maxCoeff();
        if (size > 0.5) {
            step *= 0.5 / size;
        }
        xi += step;
        if (!(size > 1e-8)) {
            break;
        }
    }
    if (isTriangle(f.type)) {
        xi = xi.cwiseMax(0.0);
        const double s = xi.sum();
        if (s > 1.0) {
            xi /= s;
        }
        return xi;
    }
    return xi.cwiseMax(-1.0).cwiseMin(1.0);
}

// Local coordinate of a line where its plane coordinate p.x is s: closed form for Line2,
// Newton's method from `guess` for Line3 (steps of at most 0.5, the result kept in [-1, 1]).
double lineLocalAt(const PlaneFace& f, double s, double guess) noexcept {
    if (f.type == SegmentType::Line2) {
        return 2.0 * (s - f.p[0].x()) / (f.p[1].x() - f.p[0].x()) - 1.0;
    }
    double xi = guess;
    for (int it = 0; it < kMaxNewton; ++it) {
        const ShapeGradients sf = shapeGradients(f.type, Vector2d(xi, 0.0));
        double r = -s;
        double d = 0.0;
        for (int i = 0; i < f.nn; ++i) {
            r += sf.N[i] * f.p[i].x();
            d += sf.dXi[i] * f.p[i].x();
        }
        if (!(std::abs(d) > 0.0)) {
            break;
        }
        const double step = std::clamp(-r / d, -0.5, 0.5);
        xi += step;
        if (!(std::abs(step) > 1e-14)) {
            break;
        }
    }
    return std::clamp(xi, -1.0, 1.0);
}

Vector2d localAt(const PlaneFace& f, const Vector2d& q, const Vector2d& guess) noexcept {
    if (parametricDim(f.type) == 1) {
        return {lineLocalAt(f, q.x(), guess.x()), 0.0};
    }
    return isLinearFace(f.type) ? inverseLinear(f, q) : inverseNewton(f, q, guess);
}

// Shape-function values; Tri3 and Quad4 inline (the hot path).
void shapeAt(SegmentType t, const Vector2d& xi, double* N) noexcept {
    if (t == SegmentType::Quad4) {
        const double a = 1.0 - xi.x();
        const double b = 1.0 + xi.x();
        const double c = 1.0 - xi.y();
        const double d = 1.0 + xi.y();
        N[0] = 0.25 * a * c;
        N[1] = 0.25 * b * c;
        N[2] = 0.25 * b * d;
        N[3] = 0.25 * a * d;
    } else if (t == SegmentType::Tri3) {
        N[0] = 1.0 - xi.x() - xi.y();
        N[1] = xi.x();
        N[2] = xi.y();
    } else {
        const std::array<double, kMaxSegmentNodes> v = shapeValues(t, xi);
        std::copy(v.begin(), v.begin() + nodeCount(t), N);
    }
}

// Covariant base vectors dx/dxi, dx/deta of a face (relative positions) at xi.
void baseVectors(const PlaneFace& f, const Vector2d& xi, Vector3d& dXi, Vector3d& dEta) noexcept {
    if (f.type == SegmentType::Quad4) {
        const double a = 1.0 - xi.x();
        const double b = 1.0 + xi.x();
        const double c = 1.0 - xi.y();
        const double d = 1.0 + xi.y();
        dXi = 0.25 * (c * (f.x[1] - f.x[0]) + d * (f.x[2] - f.x[3]));
        dEta = 0.25 * (a * (f.x[3] - f.x[0]) + b * (f.x[2] - f.x[1]));
        return;
    }
    const ShapeGradients sf = shapeGradients(f.type, xi);
    dXi.setZero();
    dEta.setZero();
    for (int i = 0; i < f.nn; ++i) {
        dXi += sf.dXi[i] * f.x[i];
        dEta += sf.dEta[i] * f.x[i];
    }
    if (parametricDim(f.type) == 1) {
        dEta = Vector3d::UnitZ();  // lines: t x z = the clockwise normal (t_y, -t_x, 0)
    }
}

// How far n . n_m(xi) may range over a face (n: the plane's normal, n_m the face's unit normal):
// 0 where flat. n_m turns from n_m(centre) by at most an angle a, so n . n_m lies between
// cos(theta0 + a) and cos(theta0 - a), cos theta0 = f.cosine, each clamped to [-1, 1]. Faces: the
// normal vector N = dx/dxi x dx/deta stays within E of N0, its value at the reference centre, so
// a = asin(E / |N0|) (any angle where E >= |N0|), E by the triangle inequality: Quad4 |v1| + |v2|
// (N = v0 + xi v1 + eta v2); others |A| r_eta + r_xi |B| + r_xi r_eta, A and B dx/dxi and dx/deta
// at the centre, r_xi and r_eta bounds of their change over the domain: the monomials'
// coefficients (|xi^a eta^b| <= 1; Quad8, Quad9), or their largest change at a corner (Tri6:
// affine in xi). Line3: the tangent t + xi w, t = (x1 - x0) / 2, w = x0 + x1 - 2 x2, turns from t
// by at most a = atan(|w_perp| / (|t| - |w_par|)) (the parts of w across and along t).
double cosineRange(const PlaneFace& f) noexcept {
    if (f.flat) {
        return 0.0;
    }
    double spread = 0.0;  // E
    double centre = 0.0;  // |N0|
    if (f.type == SegmentType::Quad4) {
        spread = std::sqrt(f.q[3]) + std::sqrt(f.q[5]);
        centre = std::sqrt(f.q[0]);
    } else if (parametricDim(f.type) == 1) {
        const Vector2d x0(f.p[0].x(), f.h[0]);
        const Vector2d x1(f.p[1].x(), f.h[1]);
        const Vector2d x2(f.p[2].x(), f.h[2]);
        const Vector2d t = 0.5 * (x1 - x0);
        const Vector2d w = x0 + x1 - 2.0 * x2;
        const double along = std::abs(w.dot(t)) / t.norm();
        if (!(t.norm() > along)) {
            return 2.0;
        }
        spread = std::abs(cross2(w, t)) / t.norm();  // sin a = spread / centre
        centre = std::hypot(t.norm() - along, spread);
    } else {
        Vector3d A;
        Vector3d B;
        double rXi = 0.0;
        double rEta = 0.0;
        if (hasNodalMonomials(f.type)) {
            const std::array<Vector3d, 9>& m = f.mono.c;  // y = sum m[3a + b] xi^a eta^b
            A = m[3];
            B = m[1];
            rXi = m[4].norm() + m[5].norm() + 2.0 * (m[6].norm() + m[7].norm() + m[8].norm());
            rEta = m[4].norm() + m[7].norm() + 2.0 * (m[2].norm() + m[5].norm() + m[8].norm());
        } else {
            baseVectors(f, referenceCentre(f.type), A, B);
            for (int k = 0; k < f.nc; ++k) {
                Vector3d a;
                Vector3d b;
                baseVectors(f, nodeLocalCoordinates(f.type, k), a, b);
                rXi = std::max(rXi, (a - A).norm());
                rEta = std::max(rEta, (b - B).norm());
            }
        }
        spread = A.norm() * rEta + rXi * B.norm() + rXi * rEta;
        centre = A.cross(B).norm();
    }
    const double sinA = spread / centre;
    if (!(sinA < 1.0)) {
        return 2.0;
    }
    const double cosA = std::sqrt(1.0 - sinA * sinA);
    const double c0 = f.cosine;
    const double s0 = std::sqrt(std::max(0.0, 1.0 - c0 * c0));
    const double hi = c0 > cosA ? 1.0 : c0 * cosA + s0 * sinA;    // cos(max(0, theta0 - a))
    const double lo = c0 < -cosA ? -1.0 : c0 * cosA - s0 * sinA;  // cos(min(pi, theta0 + a))
    return hi - lo;
}

// Any other face at xi (n: the slave plane's normal): n . (dx/dxi x dx/deta) and
// |dx/dxi x dx/deta|. A face with its monomial form has them in the plane's frame (e1, e2, n),
// right-handed, where n . v is v's third coordinate.
void curvedNormalTerms(const PlaneFace& f, const Vector2d& xi, const Vector3d& n, double& along,
                       double& length) noexcept {
    Vector3d cr;
    if (hasNodalMonomials(f.type)) {
        Vector3d y;
        Vector3d yXi;
        Vector3d yEta;
        hornerAt(f.mono, xi, y, yXi, yEta);
        cr = yXi.cross(yEta);
        along = cr.z();
    } else {
        Vector3d dXi;
        Vector3d dEta;
        baseVectors(f, xi, dXi, dEta);
        cr = dXi.cross(dEta);
        along = cr.dot(n);
    }
    length = cr.norm();
}

// ---------------------------------------------------------------------------------------------
// One pair: context, points, polygons.

// Not initialized when made (a Polygon holds kMaxVertices of them): each maker sets every field.
struct Vertex {
    Vector2d q;   // plane coordinates
    Vector2d xs;  // slave local coordinates
    Vector2d xm;  // master local coordinates
    double gap;
};

struct Polygon {
    std::array<Vertex, kMaxVertices> v;  // the first n are set
    int n = 0;
    bool push(const Vertex& x) noexcept {
        if (n == kMaxVertices) {
            return false;
        }
        v[n++] = x;
        return true;
    }
};

struct PairContext {
    const MortarSlave* slave = nullptr;
    const SegmentNodes* masterNodes = nullptr;
    PlaneFace master;
    double capture = 0.0;
    const TriangleRule* rule = nullptr;
    // Tri3 / Quad4 pairs where it takes fewer points than two triangles: the Gauss-Legendre rule
    // of the product rule over quadrilateral pieces (integrateFan); else none.
    const LineRule* quadRule = nullptr;
    int degree = 1;  // requested quadrature degree (lines take their Gauss-Legendre rule from it)
    bool affineGap = false;
    bool within = false;       // every gap of the pair is within the capture (linear faces)
    bool linearSlave = false;  // Tri3 / Quad4: closed-form inverse maps
    bool linearMaster = false;
    // How far the gap may stray from the linear interpolant of its values at a polygon's vertices:
    // the faces' slack, plus the master's cosine range times the heights' (facingPair).
    double slack = 0.0;
    MortarSums* sums = nullptr;
    MortarBlock* block = nullptr;
};

// Height of a face over the plane at xi.
double heightAt(const PlaneFace& f, const Vector2d& xi, const double* N) noexcept {
    if (isLinearFace(f.type)) {
        return f.hc[0] + f.hc[1] * xi.x() + (f.hc[2] + f.hc[3] * xi.x()) * xi.y();
    }
    double h = 0.0;
    for (int i = 0; i < f.nn; ++i) {
        h += N[i] * f.h[i];
    }
    return h;
}

// Gap at a pair of local coordinates: x_s - x_m = (h_s - h_m) n along the projection, so
// gap = (x_s - x_m) . n_m = (h_s - h_m) (n . n_m).
double gapAt(const PairContext& c, const Vector2d& xs, const double* Ns, const Vector2d& xm,
             const double* Nm) noexcept {
    const PlaneFace& s = c.slave->face;
    const PlaneFace& m = c.master;
    const double hs = s.flat ? 0.0 : heightAt(s, xs, Ns);
    const double hm = heightAt(m, xm, Nm);
    double cosine = m.cosine;
    if (!m.flat) {
        if (isLinearFace(m.type)) {
            double along = 0.0;
            double length = 0.0;
            normalTerms(m, xm, along, length);
            cosine = along / length;
        } else {
            double along = 0.0;
            double length = 0.0;
            curvedNormalTerms(m, xm, c.slave->n, along, length);
            cosine = along / length;
        }
    }
    return (hs - hm) * cosine;
}

// Surface measure of the slave per plane area at xs: |dx/dxi x dx/deta| / (n . (same)); 1 on a
// flat slave (the plane is its own).
double measureFactor(const PairContext& c, const Vector2d& xs) noexcept {
    const PlaneFace& s = c.slave->face;
    if (s.flat) {
        return 1.0;
    }
    if (isLinearFace(s.type)) {
        double along = 0.0;
        double length = 0.0;
        normalTerms(s, xs, along, length);
        return length / along;
    }
    double along = 0.0;
    double length = 0.0;
    curvedNormalTerms(s, xs, c.slave->n, along, length);
    return length / along;
}

// A polygon vertex at plane point q with its local coordinates xs, xm on the two faces.
Vertex vertexWith(const PairContext& c, const Vector2d& q, const Vector2d& xs,
                  const Vector2d& xm) noexcept {
    Vertex v;
    v.q = q;
    v.xs = xs;
    v.xm = xm;
    double Ns[kMaxSegmentNodes];
    double Nm[kMaxSegmentNodes];
    shapeAt(c.slave->face.type, xs, Ns);
    shapeAt(c.master.type, xm, Nm);
    v.gap = gapAt(c, xs, Ns, xm, Nm);
    return v;
}

// The same, the local coordinates found from q (gs, gm: starting guesses where iterative).
Vertex vertexAt(const PairContext& c, const Vector2d& q, const Vector2d& gs,
                const Vector2d& gm) noexcept {
    return vertexWith(c, q, localAt(c.slave->face, q, gs), localAt(c.master, q, gm));
}

// One quadrature point: weight w is a plane area (3D) or a slave local length (2D, where the
// measure is |x'| and w already holds it).
void addPoint(const PairContext& c, const Vector2d& xs, const Vector2d& xm, double w) noexcept {
    const int ns = c.slave->face.nn;
    const int nm = c.master.nn;
    double Ns[kMaxSegmentNodes];
    double Nm[kMaxSegmentNodes];
    shapeAt(c.slave->face.type, xs, Ns);
    shapeAt(c.master.type, xm, Nm);
    const double gap = gapAt(c, xs, Ns, xm, Nm);
    MortarSums& S = *c.sums;
    double* M = c.block->M.data();
    for (int a = 0; a < ns; ++a) {
        const double wa = w * Ns[a];
        S.area[a] += wa;
        S.g[a] += wa * gap;
        double* Da = S.D.data() + static_cast<std::ptrdiff_t>(a) * kMaxSegmentNodes;
        for (int b = a; b < ns; ++b) {
            Da[b] += wa * Ns[b];
        }
        double* Ma = M + static_cast<std::ptrdiff_t>(a) * kMaxSegmentNodes;
        for (int k = 0; k < nm; ++k) {
            Ma[k] += wa * Nm[k];
        }
    }
    ++S.points;
}

// Tri3 (3 nodes) and Quad4 (4) shape functions, unrolled. Quad4's are stored as two pairs, as
// the sums load them: a pair loaded from two scalar stores waits for both (that stall took a
// tenth of a wavy Quad4 mortar compute). Scaling by 0.25 is exact: 0.25 (a c) == (0.25 a) c.
template <int N>
inline void linearShape(const Vector2d& xi, double* out) noexcept {
    if constexpr (N == 4) {
        using Pair = double __attribute__((vector_size(16)));
        const double a = 1.0 - xi.x();
        const double b = 1.0 + xi.x();
        const double c = 0.25 * (1.0 - xi.y());
        const double d = 0.25 * (1.0 + xi.y());
        const Pair low = Pair{a, b} * c;   // N0, N1
        const Pair high = Pair{b, a} * d;  // N2, N3
        std::memcpy(out, &low, sizeof low);
        std::memcpy(out + 2, &high, sizeof high);
    } else {
        out[0] = 1.0 - xi.x() - xi.y();
        out[1] = xi.x();
        out[2] = xi.y();
    }
}

// inverseLinear for the n points (qx[g], qy[g]) at once, written over arrays so that the compiler
// vectorizes it.
CONTACT_WIDE_CLONES void inverseLinearN(const PlaneFace& f, int n, const double* qx,
                                        const double* qy, double* xi, double* eta) noexcept {
    const double a0x = f.a0.x();
    const double a0y = f.a0.y();
    const double a1x = f.a1.x();
    const double a1y = f.a1.y();
    const double a2x = f.a2.x();
    const double a2y = f.a2.y();
    const double a3x = f.a3.x();
    const double a3y = f.a3.y();
    const double k2 = f.k2;
    // Branch-free (selects only), so that the loop vectorizes; k2 == 0 (a parallelogram, a
    // triangle) leaves one root.
    const bool twoRoots = k2 != 0.0;
    const double invK2 = twoRoots ? 1.0 / k2 : 0.0;
    const double noOther = twoRoots ? 0.0 : std::numeric_limits<double>::infinity();
    for (int g = 0; g < n; ++g) {
        const double rx = qx[g] - a0x;
        const double ry = qy[g] - a0y;
        const double k1 = f.k12 - (rx * a3y - ry * a3x);
        const double k0 = -(rx * a2y - ry * a2x);
        const double disc = std::max(0.0, k1 * k1 - 4.0 * k2 * k0);
        const double big = -0.5 * (k1 + std::copysign(std::sqrt(disc), k1));
        const bool zero = big == 0.0;
        const double root = k0 / (zero ? 1.0 : big);
        double x = zero ? 0.0 : root;
        const double other = big * invK2;
        const double outX = std::max(0.0, std::abs(x) - 1.0);
        const double outOther = std::max(noOther, std::abs(other) - 1.0);
        x = outOther < outX ? other : x;
        const double dx = a2x + a3x * x;
        const double dy = a2y + a3y * x;
        const double dd = dx * dx + dy * dy;
        xi[g] = x;
        eta[g] = ((rx - a1x * x) * dx + (ry - a1y * x) * dy) / dd;
    }
}

// Quadrature points of one piece of the overlap (a fan triangle or quadrilateral): plane
// coordinates, weights as plane areas, and on an affine slave its local coordinates. Not zeroed
// when made: the makers set the first n entries, the only ones read, but for one more entry
// (padded) that the inverse maps take so that their vectorized loop has no odd point left. Only
// Tri3 / Quad4 pairs make pieces, at degree at most kLinearPairDegree (facingPair): 3 x 3 product
// points or the 6-point triangle rule.
constexpr int kLinearPairDegree = 4;
constexpr int kMaxPiecePoints = 9;
static_assert(triangleRule(kLinearPairDegree).n <= kMaxPiecePoints);
constexpr int kPiecePointRoom = kMaxPiecePoints + 1;
struct PiecePoints {
    int n = 0;
    std::array<double, kPiecePointRoom> qx;
    std::array<double, kPiecePointRoom> qy;
    std::array<double, kPiecePointRoom> sx;
    std::array<double, kPiecePointRoom> sy;
    std::array<double, kPiecePointRoom> w;
};

// The triangle rule's points over (a, b, d), of plane area `planeArea`. An affine slave (Tri3,
// parallelogram Quad4: local coordinates affine in the plane) takes the triangle in its local
// coordinates, the points' xs as the rule's mix of the vertices' (no inverse map; the same
// points, exactly).
void trianglePoints(const PairContext& c, const Vertex& a, const Vertex& b, const Vertex& d,
                    double planeArea, PiecePoints& p) noexcept {
    const TriangleRule& r = *c.rule;
    const PlaneFace& sf = c.slave->face;
    p.n = r.n;
    if (sf.affine) {
        const double areaXi = 0.5 * cross2(b.xs - a.xs, d.xs - a.xs);
        for (int g = 0; g < r.n; ++g) {
            const double* l = r.l[g];
            const double u = l[0] * a.xs.x() + l[1] * b.xs.x() + l[2] * d.xs.x();
            const double v = l[0] * a.xs.y() + l[1] * b.xs.y() + l[2] * d.xs.y();
            p.sx[g] = u;
            p.sy[g] = v;
            p.qx[g] = sf.a0.x() + sf.a1.x() * u + sf.a2.x() * v;
            p.qy[g] = sf.a0.y() + sf.a1.y() * u + sf.a2.y() * v;
            // |dx/dxi x dx/deta| (constant on an affine face): the plane area per local area.
            p.w[g] = r.w[g] * areaXi * sf.nc3[0];
        }
        return;
    }
    for (int g = 0; g < r.n; ++g) {
        const double* l = r.l[g];
        p.qx[g] = l[0] * a.q.x() + l[1] * b.q.x() + l[2] * d.q.x();
        p.qy[g] = l[0] * a.q.y() + l[1] * b.q.y() + l[2] * d.q.y();
        p.w[g] = r.w[g] * planeArea;
    }
}

// The product rule's points over the convex quadrilateral (v0, v1, v2, v3), counter-clockwise,
// mapped bilinearly from [-1, 1]^2: y(s, t) = sum_k phi_k(s, t) y_k with y the plane coordinates
// (an affine slave: its local coordinates, as trianglePoints), the weight w_s w_t det(dy/d(s, t)).
// A polynomial of degree p in y is one of degree p in s and in t after the map, times a Jacobian
// affine in (s, t): Gauss-Legendre exact to p + 1 per direction integrates it exactly.
void quadPoints(const PairContext& c, const Vertex* const v[4], PiecePoints& p) noexcept {
    const LineRule& r = *c.quadRule;
    const PlaneFace& sf = c.slave->face;
    const bool affine = sf.affine;
    std::array<Vector2d, 4> y;
    for (int k = 0; k < 4; ++k) {
        y[static_cast<std::size_t>(k)] = affine ? v[k]->xs : v[k]->q;
    }
    // y(s, t) = b0 + b1 s + b2 t + b3 s t: dy/ds = b1 + b3 t, dy/dt = b2 + b3 s.
    const Vector2d b0 = 0.25 * ((y[0] + y[1]) + (y[2] + y[3]));
    const Vector2d b1 = 0.25 * ((y[1] - y[0]) + (y[2] - y[3]));
    const Vector2d b2 = 0.25 * ((y[2] - y[1]) + (y[3] - y[0]));
    const Vector2d b3 = 0.25 * ((y[0] - y[1]) + (y[2] - y[3]));
    const double scale = affine ? sf.nc3[0] : 1.0;
    p.n = r.n * r.n;
    int g = 0;
    for (int i = 0; i < r.n; ++i) {
        const double s = r.x[i];
        const Vector2d rowAt = b0 + s * b1;  // y(s, t) = rowAt + t dt along the row
        const Vector2d dt = b2 + s * b3;
        for (int j = 0; j < r.n; ++j, ++g) {
            const double t = r.x[j];
            const Vector2d at = rowAt + t * dt;
            const Vector2d ds = b1 + t * b3;
            p.w[g] = r.w[i] * r.w[j] * cross2(ds, dt) * scale;
            if (affine) {
                p.sx[g] = at.x();
                p.sy[g] = at.y();
                p.qx[g] = sf.a0.x() + sf.a1.x() * at.x() + sf.a2.x() * at.y();
                p.qy[g] = sf.a0.y() + sf.a1.y() * at.x() + sf.a2.y() * at.y();
            } else {
                p.qx[g] = at.x();
                p.qy[g] = at.y();
            }
        }
    }
}

// A Tri3 / Quad4 face at (u, v): its height over the plane, n . (dx/dxi x dx/deta) and
// |dx/dxi x dx/deta|^2.
inline double faceHeight(const PlaneFace& f, double u, double v) noexcept {
    return f.hc[0] + f.hc[1] * u + (f.hc[2] + f.hc[3] * u) * v;
}
inline double faceAlong(const PlaneFace& f, double u, double v) noexcept {
    return f.nc3[0] + f.nc3[1] * u + f.nc3[2] * v;
}
inline double faceLengthSq(const PlaneFace& f, double u, double v) noexcept {
    return f.q[0] + u * (f.q[1] + f.q[3] * u + f.q[4] * v) + v * (f.q[2] + f.q[5] * v);
}

// The local coordinates of a piece's points on both faces: the slave's into p.sx / p.sy where it
// is not affine (an affine slave's are there already), the master's into mx / my. The inverse
// maps take an even count: an odd piece repeats its last point.
inline void pieceLocalCoordinates(const PairContext& c, PiecePoints& p, double* mx,
                                  double* my) noexcept {
    const int n = p.n;
    const int even = n + (n & 1);
    p.qx[static_cast<std::size_t>(n)] = p.qx[static_cast<std::size_t>(n - 1)];
    p.qy[static_cast<std::size_t>(n)] = p.qy[static_cast<std::size_t>(n - 1)];
    if (!c.slave->face.affine) {
        inverseLinearN(c.slave->face, even, p.qx.data(), p.qy.data(), p.sx.data(), p.sy.data());
    }
    inverseLinearN(c.master, even, p.qx.data(), p.qy.data(), mx, my);
}

// The sums over a piece's points for a Tri3 / Quad4 slave (NS nodes) and master (NM nodes):
// closed-form local coordinates over arrays and unrolled sums (the hot path of Tri3 and Quad4
// interfaces). A slave that is not affine inverts its map at each point.
template <int NS, int NM>
void sumPointsLinear(const PairContext& c, PiecePoints& p) noexcept {
    const int n = p.n;
    const PlaneFace& sf = c.slave->face;
    const PlaneFace& mf = c.master;
    std::array<double, kPiecePointRoom>& sx = p.sx;
    std::array<double, kPiecePointRoom>& sy = p.sy;
    std::array<double, kPiecePointRoom>& w = p.w;
    std::array<double, kPiecePointRoom> gap{};
    std::array<double, kPiecePointRoom> mx;
    std::array<double, kPiecePointRoom> my;
    pieceLocalCoordinates(c, p, mx.data(), my.data());
    if (!sf.flat) {
        for (int g = 0; g < n; ++g) {
            const double u = sx[g];
            const double v = sy[g];
            gap[g] = faceHeight(sf, u, v);
            if (!sf.affine) {  // the slave's area per plane area
                w[g] *= std::sqrt(faceLengthSq(sf, u, v)) / faceAlong(sf, u, v);
            }
        }
    }
    for (int g = 0; g < n; ++g) {
        const double u = mx[g];
        const double v = my[g];
        double cosine = mf.cosine;
        if (!mf.flat) {
            cosine = faceAlong(mf, u, v) / std::sqrt(faceLengthSq(mf, u, v));
        }
        gap[g] = (gap[g] - faceHeight(mf, u, v)) * cosine;
    }
    // The piece's own sums first, by rank-one updates of columns, which the compiler vectorizes
    // (column a of D and of M^T is N_a's row), then added to the pair's. D's lower triangle holds
    // the products the slave's upper triangle keeps. Two passes over the points, so that each
    // pass's sums stay in registers.
    using VS = Eigen::Matrix<double, NS, 1>;
    using VM = Eigen::Matrix<double, NM, 1>;
    Eigen::Matrix<double, NS, NS> D = Eigen::Matrix<double, NS, NS>::Zero();
    Eigen::Matrix<double, NM, NS> Mt = Eigen::Matrix<double, NM, NS>::Zero();
    VS area = VS::Zero();
    VS g = VS::Zero();
    std::array<VS, kMaxPiecePoints> was;
    for (int k = 0; k < n; ++k) {
        VS Ns;
        linearShape<NS>(Vector2d(sx[k], sy[k]), Ns.data());
        const VS wa = w[k] * Ns;
        was[static_cast<std::size_t>(k)] = wa;
        area += wa;
        g += gap[k] * wa;
        for (int a = 0; a < NS; ++a) {
            D.col(a) += Ns * wa[a];
        }
    }
    for (int k = 0; k < n; ++k) {
        VM Nm;
        linearShape<NM>(Vector2d(mx[k], my[k]), Nm.data());
        const VS& wa = was[static_cast<std::size_t>(k)];
        for (int a = 0; a < NS; ++a) {
            Mt.col(a) += Nm * wa[a];
        }
    }
    MortarSums& S = *c.sums;
    double* M = c.block->M.data();
    for (int a = 0; a < NS; ++a) {
        S.area[a] += area[a];
        S.g[a] += g[a];
        for (int b = a; b < NS; ++b) {
            S.D[a * kMaxSegmentNodes + b] += D(b, a);
        }
        for (int b = 0; b < NM; ++b) {
            M[a * kMaxSegmentNodes + b] += Mt(b, a);
        }
    }
    S.points += n;
}

#ifdef CONTACT_WIDE_VERSIONS
// sumPointsLinear<4, 4> (a Quad4 slave and master), built for the x86-64 baseline as it is and
// for AVX2 with its loops laid out for 4-wide vectors, the copy chosen when the library loads.
// The AVX2 copy does the same operations per point in the same order (no fused multiply-add), so
// the bits do not depend on the copy. Its layout, in the baseline's 2-wide vectors, was slower
// than sumPointsLinear's (204-216 against 185-190 ms a wavy Quad4 100k compute).
__attribute__((target("default"))) void sumQuad4Piece(const PairContext& c,
                                                      PiecePoints& p) noexcept {
    sumPointsLinear<4, 4>(c, p);
}

// clang counts this version unused (the loader, not a call, picks it).
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif
__attribute__((target("avx2"))) void sumQuad4Piece(const PairContext& c, PiecePoints& p) noexcept {
    const int n = p.n;
    const PlaneFace& sf = c.slave->face;
    const PlaneFace& mf = c.master;
    double* const sx = p.sx.data();
    double* const sy = p.sy.data();
    double* const w = p.w.data();
    std::array<double, kPiecePointRoom> gap{};
    std::array<double, kPiecePointRoom> mx;
    std::array<double, kPiecePointRoom> my;
    pieceLocalCoordinates(c, p, mx.data(), my.data());
    // The gaps and weights: one loop per case, each vectorized.
    if (!sf.flat && !sf.affine) {
        for (int g = 0; g < n; ++g) {
            gap[g] = faceHeight(sf, sx[g], sy[g]);
            w[g] *= std::sqrt(faceLengthSq(sf, sx[g], sy[g])) / faceAlong(sf, sx[g], sy[g]);
        }
    } else if (!sf.flat) {
        for (int g = 0; g < n; ++g) {
            gap[g] = faceHeight(sf, sx[g], sy[g]);
        }
    }
    for (int g = 0; g < n; ++g) {
        const double cosine =
            mf.flat ? mf.cosine
                    : faceAlong(mf, mx[g], my[g]) / std::sqrt(faceLengthSq(mf, mx[g], my[g]));
        gap[g] = (gap[g] - faceHeight(mf, mx[g], my[g])) * cosine;
    }
    // The sums in 4-wide vectors: sumPointsLinear's columns, D's column a and M^T's column a the
    // rank-one updates N * (w N_a).
    using V4 = double __attribute__((vector_size(32)));
    // linearShape<4>'s values, by a reference (a lambda does not take the function's target: a
    // 32-byte vector returned by value would go by the baseline's calling convention).
    const auto shape = [](double u, double v, V4& N) {
        const double a = 1.0 - u;
        const double b = 1.0 + u;
        const double cl = 0.25 * (1.0 - v);
        const double dl = 0.25 * (1.0 + v);
        N = V4{a * cl, b * cl, b * dl, a * dl};
    };
    V4 D[4] = {};
    V4 Mt[4] = {};
    V4 area = {};
    V4 g = {};
    std::array<V4, kMaxPiecePoints> was;
    for (int k = 0; k < n; ++k) {
        V4 Ns;
        shape(sx[k], sy[k], Ns);
        const V4 wa = w[k] * Ns;
        was[static_cast<std::size_t>(k)] = wa;
        area += wa;
        g += gap[k] * wa;
        for (int a = 0; a < 4; ++a) {
            D[a] += Ns * wa[a];
        }
    }
    for (int k = 0; k < n; ++k) {
        V4 Nm;
        shape(mx[k], my[k], Nm);
        for (int a = 0; a < 4; ++a) {
            Mt[a] += Nm * was[static_cast<std::size_t>(k)][a];
        }
    }
    MortarSums& S = *c.sums;
    double* M = c.block->M.data();
    for (int a = 0; a < 4; ++a) {
        S.area[a] += area[a];
        S.g[a] += g[a];
        for (int b = a; b < 4; ++b) {
            S.D[a * kMaxSegmentNodes + b] += D[a][b];
        }
        for (int b = 0; b < 4; ++b) {
            M[a * kMaxSegmentNodes + b] += Mt[a][b];
        }
    }
    S.points += n;
}
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#else
void sumQuad4Piece(const PairContext& c, PiecePoints& p) noexcept { sumPointsLinear<4, 4>(c, p); }
#endif

// sumPointsLinear for the pair's node counts.
void sumLinear(const PairContext& c, PiecePoints& p) noexcept {
    const bool sq = c.slave->face.nn == 4;
    const bool mq = c.master.nn == 4;
    if (sq && mq) {
        if (gWideKernels.load(std::memory_order_relaxed)) {
            sumQuad4Piece(c, p);
        } else {
            sumPointsLinear<4, 4>(c, p);
        }
    } else if (sq) {
        sumPointsLinear<4, 3>(c, p);
    } else if (mq) {
        sumPointsLinear<3, 4>(c, p);
    } else {
        sumPointsLinear<3, 3>(c, p);
    }
}

// A quadrilateral piece of the fan of a Tri3 / Quad4 pair (c.quadRule set).
void integrateQuad(const PairContext& c, const Vertex& a, const Vertex& b, const Vertex& d,
                   const Vertex& e) noexcept {
    const double area = 0.5 * (cross2(b.q - a.q, d.q - a.q) + cross2(d.q - a.q, e.q - a.q));
    if (!(area > 0.0)) {
        return;
    }
    const Vertex* const v[4] = {&a, &b, &d, &e};
    PiecePoints p;
    quadPoints(c, v, p);
    sumLinear(c, p);
}

// The rule's points over triangle (a, b, d): local coordinates first, for all points at once
// (independent work the processor overlaps), then the sums.
void integrateTriangle(const PairContext& c, const Vertex& a, const Vertex& b,
                       const Vertex& d) noexcept {
    const double area = 0.5 * cross2(b.q - a.q, d.q - a.q);
    if (!(area > 0.0)) {
        return;
    }
    if (c.linearSlave && c.linearMaster) {
        PiecePoints p;
        trianglePoints(c, a, b, d, area, p);
        sumLinear(c, p);
        return;
    }
    const TriangleRule& r = *c.rule;
    std::array<Vector2d, kMaxTriangleQuadraturePoints> xs;
    std::array<Vector2d, kMaxTriangleQuadraturePoints> xm;
    std::array<double, kMaxTriangleQuadraturePoints> w;
    for (int g = 0; g < r.n; ++g) {
        const double* l = r.l[g];
        const Vector2d q = l[0] * a.q + l[1] * b.q + l[2] * d.q;
        xs[g] = c.linearSlave ? inverseLinear(c.slave->face, q)
                              : localAt(c.slave->face, q, l[0] * a.xs + l[1] * b.xs + l[2] * d.xs);
        xm[g] = c.linearMaster ? inverseLinear(c.master, q)
                               : localAt(c.master, q, l[0] * a.xm + l[1] * b.xm + l[2] * d.xm);
        w[g] = r.w[g] * area * measureFactor(c, xs[g]);
    }
    for (int g = 0; g < r.n; ++g) {
        addPoint(c, xs[g], xm[g], w[g]);
    }
}

// A convex polygon from its first vertex: quadrilaterals (0, i, i + 1, i + 2) where the pair has
// a product rule, then triangles.
void integrateFan(const PairContext& c, const Polygon& p) noexcept {
    int i = 1;
    if (c.quadRule != nullptr) {
        for (; i + 2 < p.n; i += 2) {
            integrateQuad(c, p.v[0], p.v[i], p.v[i + 1], p.v[i + 2]);
        }
    }
    for (; i + 1 < p.n; ++i) {
        integrateTriangle(c, p.v[0], p.v[i], p.v[i + 1]);
    }
}

// The cut-off of crossing(), in gap: the cut moves by it / |grad gap|, 1e-7 of the segment size
// for a slope of 1e-3.
double crossingTolerance(const PairContext& c) noexcept { return 1e-10 * c.slave->L; }

// The point of edge (a, b) where gap = capture, the end gaps on either side of it: regula falsi
// with the Illinois modification on the exact gap (one step where the gap is affine).
Vertex crossing(const PairContext& c, const Vertex& a, const Vertex& b) noexcept {
    const double tol = crossingTolerance(c);
    double t0 = 0.0;
    double t1 = 1.0;
    double f0 = a.gap - c.capture;
    double f1 = b.gap - c.capture;
    int side = 0;  // which end the last step replaced (Illinois halves the other if twice)
    Vertex v = a;
    for (int it = 0; it < kMaxNewton; ++it) {
        const double t = t0 + (t1 - t0) * (f0 / (f0 - f1));
        v = vertexAt(c, a.q + t * (b.q - a.q), a.xs + t * (b.xs - a.xs), a.xm + t * (b.xm - a.xm));
        const double f = v.gap - c.capture;
        if (!(std::abs(f) > tol) || c.affineGap) {
            break;
        }
        if ((f < 0.0) == (f1 < 0.0)) {
            t1 = t;
            f1 = f;
            f0 *= side == 1 ? 0.5 : 1.0;
            side = 1;
        } else {
            t0 = t;
            f0 = f;
            f1 *= side == -1 ? 0.5 : 1.0;
            side = -1;
        }
    }
    return v;
}

// The part of a convex polygon with gap <= capture, by the clipping kernel's cut (cutOverlap3d,
// the project's one definition of the part in contact): the polygon handed over in the pair's
// own roles on the slave's plane (counter-clockwise about its normal, along which the kernel
// back-projects), cut as one piece. Exact where both faces are flat.
void cutByKernel(const PairContext& c, const Polygon& in, Polygon& out) noexcept {
    const MortarSlave& s = *c.slave;
    OverlapPolygon poly;
    Vector2d centroid = Vector2d::Zero();
    double area = 0.0;
    for (int i = 1; i + 1 < in.n; ++i) {
        const double t = cross2(in.v[i].q - in.v[0].q, in.v[i + 1].q - in.v[0].q);
        centroid += t * (in.v[0].q + in.v[i].q + in.v[i + 1].q) / 3.0;
        area += 0.5 * t;
    }
    out.n = 0;
    if (in.n > kMaxOverlapVertices || !(area > 0.0)) {
        return;
    }
    centroid /= 2.0 * area;
    const auto toSpace = [&](const Vector2d& q) { return s.origin + q.x() * s.e1 + q.y() * s.e2; };
    for (int i = 0; i < in.n; ++i) {
        OverlapVertex& v = poly.vertices[i];
        v.point = toSpace(in.v[i].q);
        v.xiSlave = in.v[i].xs;
        v.xiMaster = in.v[i].xm;
        v.gap = in.v[i].gap;
    }
    poly.count = in.n;
    poly.area = area;
    poly.centroid = toSpace(centroid);
    poly.normal = s.n;
    poly.planePoint = s.origin;
    poly.facing = true;
    poly.status = ClipStatus::kOverlap;
    const OverlapCut3d cut = cutOverlap3d(poly, s.nodes, *c.masterNodes, c.capture, 1);
    for (int i = 0; i < cut.count; ++i) {
        const OverlapVertex& v = cut.vertices[i];
        const Vector3d d = v.point - s.origin;
        Vertex x;
        x.q = Vector2d(d.dot(s.e1), d.dot(s.e2));
        x.xs = v.xiSlave;
        x.xm = v.xiMaster;
        x.gap = v.gap;
        out.push(x);
    }
}

Vertex midVertex(const PairContext& c, const Vertex& a, const Vertex& b) noexcept {
    return vertexAt(c, 0.5 * (a.q + b.q), 0.5 * (a.xs + b.xs), 0.5 * (a.xm + b.xm));
}

// A point of fan triangle `tri` (counter-clockwise) at plane point q, its local coordinates
// started from the vertices' by barycentric weights; false where q is outside the triangle.
bool vertexIn(const PairContext& c, const std::array<const Vertex*, 3>& tri, const Vector2d& q,
              Vertex& v) noexcept {
    const Vertex& a = *tri[0];
    const Vertex& b = *tri[1];
    const Vertex& d = *tri[2];
    const double area2 = cross2(b.q - a.q, d.q - a.q);
    const double lb = cross2(q - a.q, d.q - a.q) / area2;
    const double ld = cross2(b.q - a.q, q - a.q) / area2;
    const double la = 1.0 - lb - ld;
    if (!(std::min({la, lb, ld}) >= 0.0)) {
        return false;
    }
    v = vertexAt(c, q, la * a.xs + lb * b.xs + ld * d.xs, la * a.xm + lb * b.xm + ld * d.xm);
    return true;
}

// The signed distance s along the unit normal n from point v of fan triangle `tri` to the curve
// gap = capture, and the gap's slope along n there: the secant method from the guess s0, within
// the triangle. False where it leaves the triangle, does not converge or finds the gap falling
// along n.
bool offsetToCurve(const PairContext& c, const std::array<const Vertex*, 3>& tri, const Vertex& v,
                   const Vector2d& n, double s0, double& s, double& slope) noexcept {
    const double tol = crossingTolerance(c);
    double t0 = 0.0;
    double f0 = v.gap - c.capture;
    double t1 = s0;
    for (int it = 0; it < kMaxNewton; ++it) {
        Vertex x;
        if (!(t1 != t0) || !vertexIn(c, tri, v.q + t1 * n, x)) {
            return false;
        }
        const double f1 = x.gap - c.capture;
        slope = (f1 - f0) / (t1 - t0);
        if (!(slope > 0.0)) {
            return false;
        }
        if (std::abs(f0) <= tol || std::abs(f1) <= tol) {  // at v, the slope from t1
            s = std::abs(f0) <= tol ? t0 : t1;
            return true;
        }
        t0 = t1;
        f0 = f1;
        t1 -= f1 / slope;
    }
    return false;
}

// The cut of a fan triangle whose vertex gaps straddle the capture, for a pair whose gap is not
// affine (a quadratic or a warped face): the edges that straddle it are cut where the exact gap
// equals it (crossing), the two points joined by a chord of length l, and the part with
// gap <= capture integrated, plus the sliver between the chord and the curve gap = capture:
//   s      = the curve's distance from the chord's midpoint m along the chord's normal
//            (offsetToCurve, started from the root of the triangle's linear interpolant)
//   qa, qb = the parabola through the chord's ends and that curve point, at the Gauss-Legendre
//            abscissae 1/2 -+ 1/(2 sqrt 3) of the chord (2/3 s off it)
//   da, db = the curve's distances from the parabola there (offsetToCurve)
//   sliver = 2/3 s l + 3/10 l (da + db): the integral of the quartic through the five points
//   error  = 3/10 l |da + db|, the parabola's; accepted when <= kMortarCutTolerance L l, s <= l/8
// The sliver's points: m 2/5 of its area, qa and qb 3/10 each (negative where the chord
// overshoots). Not accepted, the triangle is integrated only when `force`, with the parabola
// where s was found, else the chord alone. Returns whether it was accepted.
bool cutLeaf(const PairContext& c, const Vertex& a, const Vertex& b, const Vertex& d,
             bool force) noexcept {
    const std::array<const Vertex*, 3> tri{&a, &b, &d};
    Polygon cut;
    std::array<int, 2> ends{};  // the cut points' places in `cut`
    int nends = 0;
    const Vertex* outside = nullptr;  // a vertex beyond the capture
    for (int i = 0; i < 3; ++i) {
        const Vertex& u = *tri[i];
        const Vertex& w = *tri[(i + 1) % 3];
        const double du = u.gap - c.capture;
        const double dw = w.gap - c.capture;
        if (du <= 0.0) {
            cut.push(u);
        } else {
            outside = &u;
        }
        if ((du <= 0.0) != (dw <= 0.0) && nends < 2) {
            ends[nends++] = cut.n;
            cut.push(crossing(c, u, w));
        }
    }
    double sliver = 0.0;
    Vertex m;
    Vertex qa;
    Vertex qb;
    bool gaussPoints = false;
    bool accepted = true;
    if (nends == 2 && outside != nullptr) {
        const Vertex& p = cut.v[ends[0]];
        const Vertex& r = cut.v[ends[1]];
        const Vector2d chord = r.q - p.q;
        const double l = chord.norm();
        if (l > 0.0) {
            Vector2d n = Vector2d(-chord.y(), chord.x()) / l;  // towards the gaps beyond capture
            if (n.dot(outside->q - p.q) < 0.0) {
                n = -n;
            }
            m = midVertex(c, p, r);
            // grad g . (b - a) = g_b - g_a, grad g . (d - a) = g_d - g_a
            const Vector2d e1 = b.q - a.q;
            const Vector2d e2 = d.q - a.q;
            const double d1 = b.gap - a.gap;
            const double d2 = d.gap - a.gap;
            const Vector2d grad =
                Vector2d(d1 * e2.y() - d2 * e1.y(), e1.x() * d2 - e2.x() * d1) / cross2(e1, e2);
            const double along = grad.dot(n);
            const double f = m.gap - c.capture;
            // The guess: the linear interpolant's root, or a step of l / 64 where that is
            // tiny or none.
            double s0 = along > 0.0 ? -f / along : 0.0;
            if (!(std::abs(s0) >= l / 64.0)) {
                s0 = std::copysign(l / 64.0, f <= 0.0 ? 1.0 : -1.0);
            }
            const double tol = crossingTolerance(c);
            double s = 0.0;
            double slope = 0.0;
            const bool found = std::abs(p.gap - c.capture) <= 100.0 * tol &&
                               std::abs(r.gap - c.capture) <= 100.0 * tol &&
                               offsetToCurve(c, tri, m, n, s0, s, slope) &&
                               std::abs(s) <= 0.125 * l;
            accepted = false;
            if (found) {
                const double h = 0.5 / std::sqrt(3.0);
                gaussPoints = vertexIn(c, tri, p.q + (0.5 - h) * chord + 2.0 / 3.0 * s * n, qa) &&
                              vertexIn(c, tri, p.q + (0.5 + h) * chord + 2.0 / 3.0 * s * n, qb);
            }
            // The curve's distance from the parabola at q.
            const auto beyond = [&](const Vertex& q, double& off) {
                const double fq = q.gap - c.capture;
                double unused = 0.0;
                off = 0.0;
                return std::abs(fq) <= tol || offsetToCurve(c, tri, q, n, -fq / slope, off, unused);
            };
            double da = 0.0;
            double db = 0.0;
            if (gaussPoints && beyond(qa, da) && beyond(qb, db)) {
                sliver = 2.0 / 3.0 * s * l + 0.3 * l * (da + db);
                accepted = 0.3 * std::abs(da + db) <= kMortarCutTolerance * c.slave->L &&
                           std::isfinite(sliver);
            }
            if (!accepted) {
                if (!force) {
                    return false;
                }
                sliver = found ? 2.0 / 3.0 * s * l : 0.0;
            }
        }
    }
    integrateFan(c, cut);
    if (sliver != 0.0 && gaussPoints) {
        // Exact over the parabola's sliver for functions linear in the plane, for the square of
        // the place along the chord, and for a gap proportional to the distance from the curve.
        addPoint(c, m.xs, m.xm, 0.4 * sliver * measureFactor(c, m.xs));
        addPoint(c, qa.xs, qa.xm, 0.3 * sliver * measureFactor(c, qa.xs));
        addPoint(c, qb.xs, qb.xm, 0.3 * sliver * measureFactor(c, qb.xs));
    } else if (sliver != 0.0) {
        addPoint(c, m.xs, m.xm, sliver * measureFactor(c, m.xs));
    }
    return accepted;
}

// A fan triangle of a pair whose gap is not affine: taken whole or dropped when its vertex
// gaps are beyond `slack` (PairContext::slack) from the capture on one side, else cut (cutLeaf)
// or split in four, depth first. The slack of a piece is a quarter of its parent's (the distance
// of a smooth function from its linear interpolant scales with the square of the size). A triangle
// whose edge midpoints' gaps are their ends' means to kMortarFlatRel L has an affine gap: cut as it
// stands. `budget` pieces at most, this one included (kMortarCutPieces per fan triangle): a piece
// splits only with 5 to spare, each child leaving one for every later sibling; at level 0 or out
// of budget the piece is cut as it stands (cutLeaf, forced) and counted in
// MortarSums::cutFallbacks unless its cut met the tolerance. Returns the pieces used.
int integrateCut(const PairContext& c, const Vertex& a, const Vertex& b, const Vertex& d, int level,
                 double slack, int budget) noexcept {
    const double gmax = std::max({a.gap, b.gap, d.gap});
    const double gmin = std::min({a.gap, b.gap, d.gap});
    if (gmax <= c.capture - slack) {
        integrateTriangle(c, a, b, d);
        return 1;
    }
    if (gmin > c.capture + slack) {
        return 1;
    }
    const bool straddles = gmin <= c.capture && gmax > c.capture;
    if (level == 0 || budget < 5) {
        if (!cutLeaf(c, a, b, d, true) || !straddles) {
            ++c.sums->cutFallbacks;
        }
        return 1;
    }
    if (straddles && cutLeaf(c, a, b, d, false)) {
        return 1;
    }
    const Vertex ab = midVertex(c, a, b);
    const Vertex bd = midVertex(c, b, d);
    const Vertex da = midVertex(c, d, a);
    const double bend = std::max({std::abs(ab.gap - 0.5 * (a.gap + b.gap)),
                                  std::abs(bd.gap - 0.5 * (b.gap + d.gap)),
                                  std::abs(da.gap - 0.5 * (d.gap + a.gap))});
    if (bend <= kMortarFlatRel * c.slave->L) {
        if (!cutLeaf(c, a, b, d, true)) {
            ++c.sums->cutFallbacks;
        }
        return 1;
    }
    int left = budget - 1;
    left -= integrateCut(c, a, ab, da, level - 1, 0.25 * slack, left - 3);
    left -= integrateCut(c, ab, b, bd, level - 1, 0.25 * slack, left - 2);
    left -= integrateCut(c, da, bd, d, level - 1, 0.25 * slack, left - 1);
    left -= integrateCut(c, ab, bd, da, level - 1, 0.25 * slack, left);
    return budget - left;
}

// Integrates the part of the overlap polygon (convex, counter-clockwise, vertex data filled)
// within the capture distance: whole, or cut where the gap crosses the capture (cutByKernel where
// the gap is affine, else integrateCut). The gap is taken to stray from the linear interpolation
// of the vertex gaps by at most PairContext::slack: the faces' slack, plus how far the master's
// normal turns over it times the heights (the gap is (h_s - h_m)(n . n_m)).
PairOutcome integratePolygon(const PairContext& c, const Polygon& p) noexcept {
    if (c.within) {
        integrateFan(c, p);
        return PairOutcome::kIntegrated;
    }
    double gmin = p.v[0].gap;
    double gmax = p.v[0].gap;
    for (int i = 1; i < p.n; ++i) {
        gmin = std::min(gmin, p.v[i].gap);
        gmax = std::max(gmax, p.v[i].gap);
    }
    if (gmin > c.capture + c.slack) {
        return PairOutcome::kBeyondCapture;
    }
    const long long before = c.sums->points;
    if (gmax <= c.capture - c.slack) {
        integrateFan(c, p);
    } else if (!c.affineGap) {
        const int pieces = gCutPieces.load(std::memory_order_relaxed);
        for (int i = 1; i + 1 < p.n; ++i) {
            (void)integrateCut(c, p.v[0], p.v[i], p.v[i + 1], kMortarCutLevels, c.slack, pieces);
        }
    } else {
        Polygon cut;
        cutByKernel(c, p, cut);
        integrateFan(c, cut);
    }
    return c.sums->points > before ? PairOutcome::kIntegrated : PairOutcome::kBeyondCapture;
}

// Sutherland-Hodgman: the part of `in` left of the line through a with unit inward normal u
// (left of its direction). A vertex within eps of the line is on it: kept, never the end of a cut
// (as clipping.cpp's clipByEdge). Returns false, with `out` untouched, where every vertex is kept
// (m = n: `in` is the result).
bool clipByEdge(const std::array<Vector2d, kMaxVertices>& in, int n, const Vector2d& a,
                const Vector2d& u, double eps, std::array<Vector2d, kMaxVertices>& out,
                int& m) noexcept {
    m = 0;
    double d[kMaxVertices];
    bool allKept = true;
    for (int i = 0; i < n; ++i) {
        d[i] = u.dot(in[i] - a);
        allKept = allKept && d[i] >= -eps;
    }
    if (allKept) {
        m = n;
        return false;
    }
    for (int i = 0; i < n && m < kMaxVertices; ++i) {
        const int j = i + 1 == n ? 0 : i + 1;
        if (d[i] >= -eps) {
            out[m++] = in[i];
        }
        if (((d[i] > eps && d[j] < -eps) || (d[i] < -eps && d[j] > eps)) && m < kMaxVertices) {
            out[m++] = in[i] + (in[j] - in[i]) * (d[i] / (d[i] - d[j]));
        }
    }
    return true;
}

// Drops vertices within eps of the next one and vertices within eps of the line through their
// neighbours (as clipping.cpp's cleanup): each fan triangle then has a real area.
void cleanup(std::array<Vector2d, kMaxVertices>& p, int& n, double eps) noexcept {
    const auto erase = [&](int i) {
        for (int j = i; j + 1 < n; ++j) {
            p[j] = p[j + 1];
        }
        --n;
    };
    bool changed = true;
    while (changed && n >= 3) {
        changed = false;
        for (int i = 0; i < n && n > 1;) {
            if ((p[(i + 1) % n] - p[i]).squaredNorm() <= eps * eps) {
                erase((i + 1) % n);
                changed = true;
            } else {
                ++i;
            }
        }
        for (int i = 0; i < n && n >= 3;) {
            const Vector2d& a = p[(i + n - 1) % n];
            const Vector2d ac = p[(i + 1) % n] - a;
            const double len2 = ac.squaredNorm();
            const double cr = cross2(ac, p[i] - a);
            if (len2 <= eps * eps || cr * cr <= eps * eps * len2) {
                erase(i);
                changed = true;
            } else {
                ++i;
            }
        }
    }
    if (n < 3) {
        n = 0;
    }
}

double twiceArea(const std::array<Vector2d, kMaxVertices>& p, int n) noexcept {
    double a = 0.0;
    for (int i = 1; i + 1 < n; ++i) {
        a += cross2(p[i] - p[0], p[i + 1] - p[0]);
    }
    return a;
}

bool convexCcw(const std::array<Vector2d, kMaxVertices>& p, int n) noexcept {
    for (int i = 0; i < n; ++i) {
        const Vector2d& a = p[i];
        const Vector2d& b = p[(i + 1) % n];
        const Vector2d& c = p[(i + 2) % n];
        if (!(cross2(b - a, c - b) > 0.0)) {
            return false;
        }
    }
    return true;
}

// Starts a pair: the master's nodes in the slave's plane (all the quick rejection needs).
void startPair(const MortarSlave& slave, const SegmentNodes& master, double capture, int degree,
               MortarSums& sums, MortarBlock& block, PairContext& c) noexcept {
    c.slave = &slave;
    c.masterNodes = &master;
    c.capture = capture;
    c.sums = &sums;
    c.block = &block;
    c.rule = &triangleRule(degree);
    c.degree = degree;
    projectFace(slave, master, c.master);
}

// The rest of the master (L: its characteristicSize), the facing test and the kind of gap; the
// pair's block zeroed (the pairs the quick rejection left only).
bool facingPair(const SegmentNodes& master, double L, PairContext& c) noexcept {
    MortarBlock& block = *c.block;
    block.nm = nodeCount(master.type);
    for (int a = 0; a < c.slave->face.nn; ++a) {
        std::fill_n(block.M.begin() + static_cast<std::ptrdiff_t>(a) * kMaxSegmentNodes, block.nm,
                    0.0);
    }
    completeFace(*c.slave, master, L, c.master);
    if (!(c.master.cosine < 0.0)) {
        return false;
    }
    c.affineGap = c.slave->face.flat && c.master.flat;
    c.linearSlave = isLinearFace(c.slave->face.type);
    c.linearMaster = isLinearFace(c.master.type);
    if (c.linearSlave && c.linearMaster && c.degree > kLinearPairDegree) {
        // Their integrands have degree 4 at most (mortarQuadratureDegree); PiecePoints holds no
        // more points.
        c.degree = kLinearPairDegree;
        c.rule = &triangleRule(c.degree);
    }
    c.quadRule = c.linearSlave && c.linearMaster ? quadProductRule(c.degree) : nullptr;
    // gap = (h_m - h_s) |n . n_m| <= max(0, h_m - h_s): n . n_m < 0 all over a facing master
    // whose projection is convex (its projected Jacobian keeps its sign), and a linear face lies
    // within the range of its corners' heights. So when the largest h_m - h_s is within the
    // capture, so is every gap (a penetration, however deep, is).
    const PlaneFace& sf = c.slave->face;
    const PlaneFace& mf = c.master;
    c.within = c.linearSlave && c.linearMaster && mf.hmax - sf.hmin <= c.capture;
    c.slack = c.affineGap ? 0.0 : sf.slack + mf.slack;
    if (!c.affineGap && !c.within && !mf.flat) {
        // gap = d c with d = h_s - h_m, c = n . n_m: with d within e_d of its linear interpolant
        // (the faces' slack) and c within its range R of its mean c~ (|c~| <= 1), the gap strays
        // from the interpolant of the vertex gaps by at most e_d + max|d| R (gap - I gap =
        // c~ (d - I d) + d (c - c~) - I(d (c - c~))). A face lies within its slack of its
        // corners' heights.
        const double heights = std::max(sf.hmax - mf.hmin, mf.hmax - sf.hmin) + sf.slack + mf.slack;
        c.slack += heights * cosineRange(mf);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// 2D: lines. The overlap is an interval of the plane coordinate s (along the slave's tangent).

void integrateInterval(const PairContext& c, double sa, double sb) noexcept {
    const PlaneFace& sf = c.slave->face;
    const double xa = lineLocalAt(sf, sa, -1.0);
    const double xb = lineLocalAt(sf, sb, 1.0);
    const double lo = std::min(xa, xb);
    const double hi = std::max(xa, xb);
    const int ns = sf.nn;
    const LineRule& r = lineRule(c.degree);
    for (int g = 0; g < r.n; ++g) {
        const double xs = 0.5 * (lo + hi) + 0.5 * (hi - lo) * r.x[g];
        double Ns[kMaxSegmentNodes];
        shapeAt(sf.type, Vector2d(xs, 0.0), Ns);
        double s = 0.0;
        for (int i = 0; i < ns; ++i) {
            s += Ns[i] * sf.p[i].x();
        }
        const double xm = lineLocalAt(c.master, s, 0.0);
        Vector3d dXi;
        Vector3d dEta;
        baseVectors(sf, Vector2d(xs, 0.0), dXi, dEta);
        addPoint(c, Vector2d(xs, 0.0), Vector2d(xm, 0.0), r.w[g] * 0.5 * (hi - lo) * dXi.norm());
    }
}

double lineGapAt(const PairContext& c, double s) noexcept {
    const Vertex v = vertexAt(c, Vector2d(s, 0.0), Vector2d(0.0, 0.0), Vector2d(0.0, 0.0));
    return v.gap;
}

// The kept part of a line pair's overlap, made from left to right: where it starts, while kept.
struct LineKeep {
    double from = 0.0;
    bool keeping = false;
};

// Sets the kept part's state from s on: starts it there, or integrates it up to there.
void keepFrom(const PairContext& c, LineKeep& k, double s, bool keep) noexcept {
    if (keep && !k.keeping) {
        k.from = s;
        k.keeping = true;
    } else if (!keep && k.keeping) {
        integrateInterval(c, k.from, s);
        k.keeping = false;
    }
}

// Where gap - capture changes sign in [s0, s1] (f0: its value at s0, of the other sign at s1):
// bisection, to the rounding of s.
double lineCrossing(const PairContext& c, double s0, double f0, double s1) noexcept {
    double lo = s0;
    double hi = s1;
    const bool loIn = f0 <= 0.0;
    for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) {
            break;
        }
        if ((lineGapAt(c, mid) - c.capture <= 0.0) == loIn) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

// A piece [s0, s1] of a line pair's overlap whose gap is not affine (f: gap - capture at its
// ends), the 2D twin of integrateCut: kept whole or dropped when f at both ends is beyond `slack`
// on one side (the gap strays from its linear interpolant by at most PairContext::slack over the
// overlap, a quarter of it per halving), else halved, depth first, down to kMortarCutTolerance L
// (L: the slave's size). A piece that short, or one out of budget, is cut where f changes sign
// (lineCrossing) or taken by its ends; out of budget and longer, it is counted in
// MortarSums::cutFallbacks (off by at most its length: a window of contact narrower than it may be
// missed). `budget` pieces at most, this one included: a piece splits only with 3 to spare, the
// first half leaving one for the second. Returns the pieces used.
int lineCut(const PairContext& c, double s0, double f0, double s1, double f1, double slack,
            int budget, LineKeep& k) noexcept {
    if (std::max(f0, f1) <= -slack) {
        keepFrom(c, k, s0, true);
        return 1;
    }
    if (std::min(f0, f1) > slack) {
        keepFrom(c, k, s0, false);
        return 1;
    }
    const bool leaf = !(s1 - s0 > kMortarCutTolerance * c.slave->L);
    if (leaf || budget < 3) {
        keepFrom(c, k, s0, f0 <= 0.0);
        if ((f0 <= 0.0) != (f1 <= 0.0)) {
            keepFrom(c, k, lineCrossing(c, s0, f0, s1), f1 <= 0.0);
        }
        if (!leaf) {
            ++c.sums->cutFallbacks;
        }
        return 1;
    }
    const double sm = 0.5 * (s0 + s1);
    const double fm = lineGapAt(c, sm) - c.capture;
    int left = budget - 1;
    left -= lineCut(c, s0, f0, sm, fm, 0.25 * slack, left - 1, k);
    left -= lineCut(c, sm, fm, s1, f1, 0.25 * slack, left, k);
    return budget - left;
}

// The part of [sa, sb] with gap <= capture: affine gaps are cut at the crossing; otherwise
// lineCut halves the interval until the slack decides each piece, and finds each crossing by
// bisection (kMortarCutPieces pieces at most).
void integrateLineCut(const PairContext& c, double sa, double sb) noexcept {
    const double ga = lineGapAt(c, sa) - c.capture;
    const double gb = lineGapAt(c, sb) - c.capture;
    if (c.affineGap) {
        if (ga <= 0.0 && gb <= 0.0) {
            integrateInterval(c, sa, sb);
        } else if (ga <= 0.0 || gb <= 0.0) {
            const double t = ga / (ga - gb);
            const double sc = sa + t * (sb - sa);
            integrateInterval(c, ga <= 0.0 ? sa : sc, ga <= 0.0 ? sc : sb);
        }
        return;
    }
    LineKeep k;
    const int pieces = gCutPieces.load(std::memory_order_relaxed);
    (void)lineCut(c, sa, ga, sb, gb, c.slack, pieces, k);
    keepFrom(c, k, sb, false);
}

PairOutcome integrateLines(const MortarSlave& slave, const SegmentNodes& master, double capture,
                           int degree, MortarSums& sums, MortarBlock& block) noexcept {
    PairContext c;
    startPair(slave, master, capture, degree, sums, block, c);
    // Slave: s from p[0] (xi = -1) up to p[1] (xi = +1); a facing master runs the other way.
    const double lo = std::max(slave.face.p[0].x(), std::min(c.master.p[0].x(), c.master.p[1].x()));
    const double hi = std::min(slave.face.p[1].x(), std::max(c.master.p[0].x(), c.master.p[1].x()));
    const double Lm = characteristicSize(master);
    const double L = std::max(slave.L, Lm);
    if (!(hi - lo > tol::kClipMinLengthRel * L)) {
        return PairOutcome::kNoOverlap;
    }
    if (!facingPair(master, Lm, c)) {
        return PairOutcome::kNotFacing;
    }
    const long long before = sums.points;
    integrateLineCut(c, lo, hi);
    return sums.points > before ? PairOutcome::kIntegrated : PairOutcome::kBeyondCapture;
}

// ---------------------------------------------------------------------------------------------
// 3D.

PairOutcome integrateFaces(const MortarSlave& slave, const SegmentNodes& master, double capture,
                           int degree, MortarSums& sums, MortarBlock& block) noexcept {
    PairContext c;
    startPair(slave, master, capture, degree, sums, block, c);
    const PlaneFace& m = c.master;
    // Master corners, counter-clockwise in the plane (a facing master projects clockwise).
    std::array<Vector2d, kMaxVertices> bufA;
    std::array<Vector2d, kMaxVertices> bufB;
    int n = m.nc;
    Vector2d lo = m.p[0];
    Vector2d hi = m.p[0];
    for (int i = 0; i < n; ++i) {
        bufA[i] = m.p[n - 1 - i];
        lo = lo.cwiseMin(m.p[i]);
        hi = hi.cwiseMax(m.p[i]);
    }
    // Quick rejection with the slave's tolerance; the pair's (the larger size's) after it.
    const double epsSlave = tol::kClipMergeRel * slave.L;
    if ((lo.array() > slave.hi.array() + epsSlave).any() ||
        (hi.array() < slave.lo.array() - epsSlave).any()) {
        return PairOutcome::kNoOverlap;
    }
    // The master's size: its extent in the plane (a facing face keeps its size there).
    const double Lm = (hi - lo).maxCoeff();
    const double L = std::max(slave.L, Lm);
    const double eps = tol::kClipMergeRel * L;
    if ((lo.array() > slave.hi.array() + eps).any() ||
        (hi.array() < slave.lo.array() - eps).any()) {
        return PairOutcome::kNoOverlap;
    }
    // A master that projects convex and clockwise is clipped before the rest of it is made: the
    // third of the pairs left here whose overlap is empty skip that. Any other is not facing or
    // degenerate.
    if (!convexCcw(bufA, n)) {
        if (!facingPair(master, Lm, c)) {
            return PairOutcome::kNotFacing;
        }
        return PairOutcome::kDegenerate;
    }
    // Sutherland-Hodgman by each slave edge (the slave is convex and counter-clockwise).
    const PlaneFace& s = slave.face;
    // The two buffers take turns (their pointers swap, not their contents).
    std::array<Vector2d, kMaxVertices>* in = &bufA;
    std::array<Vector2d, kMaxVertices>* out = &bufB;
    for (int e = 0; e < s.nc && n > 0; ++e) {
        int k = 0;
        if (clipByEdge(*in, n, s.p[e], slave.edgeNormal[e], eps, *out, k)) {
            std::swap(in, out);
        }
        n = k;
    }
    std::array<Vector2d, kMaxVertices>& clipped = *in;
    cleanup(clipped, n, eps);
    if (n < 3 || !(0.5 * twiceArea(clipped, n) > tol::kClipMinAreaRel * L * L)) {
        return PairOutcome::kNoOverlap;
    }
    if (!facingPair(master, Lm, c)) {
        return PairOutcome::kNotFacing;
    }
    // Edge-on: the projected area per true area is |n . n_m| at the centre (exact when flat).
    if (!(-m.cosine > tol::kClipEdgeOnRel)) {
        return PairOutcome::kDegenerate;
    }
    Polygon p;
    for (int i = 0; i < n; ++i) {
        if (c.within) {  // the fan needs the slave's local coordinates on an affine slave only
            Vertex v;
            v.q = clipped[i];
            v.xs = s.affine ? inverseLinear(s, clipped[i]) : Vector2d::Zero();
            v.xm = Vector2d::Zero();
            v.gap = 0.0;
            p.push(v);
        } else {
            p.push(vertexAt(c, clipped[i], Vector2d::Zero(), Vector2d::Zero()));
        }
    }
    return integratePolygon(c, p);
}

// Quadratic faces: the overlap polygon of clipSegments3d with the roles swapped (its reference
// face, on whose tangent plane it clips, is our slave), then the same cut and quadrature.
PairOutcome integrateFacesByClipping(const MortarSlave& slave, const SegmentNodes& master,
                                     double capture, int degree, MortarSums& sums,
                                     MortarBlock& block) noexcept {
    PairContext c;
    startPair(slave, master, capture, degree, sums, block, c);
    // The kernel clips the corner polygons: corner boxes apart in the plane, no overlap.
    Vector2d lo = c.master.p[0];
    Vector2d hi = c.master.p[0];
    for (int i = 1; i < c.master.nc; ++i) {
        lo = lo.cwiseMin(c.master.p[i]);
        hi = hi.cwiseMax(c.master.p[i]);
    }
    const double eps = tol::kClipMergeRel * std::max(slave.L, (hi - lo).maxCoeff());
    if ((lo.array() > slave.hi.array() + eps).any() ||
        (hi.array() < slave.lo.array() - eps).any()) {
        return PairOutcome::kNoOverlap;
    }
    if (!facingPair(master, characteristicSize(master), c)) {
        return PairOutcome::kNotFacing;
    }
    const OverlapPolygon poly = clipSegments3d(master, slave.nodes, {ClipPlane::kMaster});
    if (poly.status == ClipStatus::kDegenerate) {
        return PairOutcome::kDegenerate;
    }
    if (poly.status != ClipStatus::kOverlap) {
        return PairOutcome::kNoOverlap;
    }
    Polygon p;
    for (int i = 0; i < poly.count; ++i) {
        const OverlapVertex& v = poly.vertices[i];
        const Vector3d d = v.point - slave.origin;
        // The kernel's back-projections onto the curved faces, roles swapped back.
        p.push(vertexWith(c, Vector2d(d.dot(slave.e1), d.dot(slave.e2)), v.xiMaster, v.xiSlave));
    }
    return integratePolygon(c, p);
}

}  // namespace

MortarMasterBox masterBox(const SegmentNodes& master) noexcept {
    // The box of the control points holds the corners, all the quick rejection projects.
    const Aabb3 box = segmentAabb<3>(master, 0.0);
    MortarMasterBox b;
    b.centre = 0.5 * (box.lo + box.hi);
    b.half = 0.5 * (box.hi - box.lo);
    b.size = b.centre.cwiseAbs().sum() + b.half.sum();
    return b;
}

bool boxApart(const MortarSlave& slave, const MortarMasterBox& box) noexcept {
    const Vector3d d = box.centre - slave.origin;
    // Centre and half-sides round by an ulp of the coordinates, the shadows by a few of |d|:
    // 1e-14 of the coordinates' size is far above both.
    const double margin = 1e-14 * (slave.originSize + box.size) + tol::kClipMergeRel * slave.L;
    const double c1 = d.dot(slave.e1);
    const double r1 = box.half.dot(slave.e1Abs);
    const double c2 = d.dot(slave.e2);
    const double r2 = box.half.dot(slave.e2Abs);
    return c1 - r1 > slave.hi.x() + margin || c1 + r1 < slave.lo.x() - margin ||
           c2 - r2 > slave.hi.y() + margin || c2 + r2 < slave.lo.y() - margin;
}

bool prepareSlave(const SegmentNodes& slave, MortarSlave& out) noexcept {
    out.nodes = slave;
    out.dim = spatialDim(slave.type);
    const SegmentFrame f = segmentFrame(slave, referenceCentre(slave.type));
    if (f.degenerate) {
        return false;
    }
    out.origin = f.point;
    out.n = f.normal;
    if (out.dim == 2) {
        out.e1 = f.tangent1;
        out.e2 = Vector3d::UnitZ();
    } else {
        out.e1 = f.normal.unitOrthogonal();
        out.e2 = f.normal.cross(out.e1);
    }
    out.L = characteristicSize(slave);
    out.e1Abs = out.e1.cwiseAbs();
    out.e2Abs = out.e2.cwiseAbs();
    out.originSize = out.origin.cwiseAbs().sum();
    toPlane(out, slave, out.face);
    PlaneFace& s = out.face;
    if (out.dim == 2) {
        s.flat = s.slack <= kMortarFlatRel * out.L;  // straight
        out.lo = Vector2d(s.p[0].x(), 0.0);
        out.hi = Vector2d(s.p[1].x(), 0.0);
        return s.p[1].x() > s.p[0].x();
    }
    for (int e = 0; e < s.nc; ++e) {
        const Vector2d t = s.p[(e + 1) % s.nc] - s.p[e];
        out.edgeNormal[e] = Vector2d(-t.y(), t.x()) / t.norm();
    }
    std::array<Vector2d, kMaxVertices> corners;
    out.lo = s.p[0];
    out.hi = s.p[0];
    for (int i = 0; i < s.nc; ++i) {
        corners[i] = s.p[i];
        out.lo = out.lo.cwiseMin(s.p[i]);
        out.hi = out.hi.cwiseMax(s.p[i]);
    }
    return convexCcw(corners, s.nc);
}

PairOutcome integratePair(const MortarSlave& slave, const SegmentNodes& master, double capture,
                          int degree, MortarSums& sums, MortarBlock& block) noexcept {
    if (slave.dim == 2) {
        return integrateLines(slave, master, capture, degree, sums, block);
    }
    if (isLinearFace(slave.nodes.type) && isLinearFace(master.type)) {
        return integrateFaces(slave, master, capture, degree, sums, block);
    }
    return integrateFacesByClipping(slave, master, capture, degree, sums, block);
}

PairOutcome integratePairByClipping(const MortarSlave& slave, const SegmentNodes& master,
                                    double capture, int degree, MortarSums& sums,
                                    MortarBlock& block) noexcept {
    return integrateFacesByClipping(slave, master, capture, degree, sums, block);
}

void finishSums(MortarSums& sums) noexcept {
    for (int a = 0; a < sums.ns; ++a) {
        for (int b = 0; b < a; ++b) {
            sums.D[a * kMaxSegmentNodes + b] = sums.D[b * kMaxSegmentNodes + a];
        }
    }
}

void segmentGram(const SegmentNodes& slave, MortarSums& out) noexcept {
    const int ns = nodeCount(slave.type);
    out.ns = ns;
    out.D.fill(0.0);
    out.area.fill(0.0);
    const auto add = [&](const Vector2d& xi, double w) {
        const SegmentFrame f = segmentFrame(slave, xi);
        const std::array<double, kMaxSegmentNodes> N = shapeValues(slave.type, xi);
        for (int a = 0; a < ns; ++a) {
            out.area[a] += w * f.jacobian * N[a];
            for (int b = 0; b < ns; ++b) {
                out.D[a * kMaxSegmentNodes + b] += w * f.jacobian * N[a] * N[b];
            }
        }
    };
    const LineRule& r = kLineRules[3];
    if (parametricDim(slave.type) == 1) {
        for (int i = 0; i < r.n; ++i) {
            add(Vector2d(r.x[i], 0.0), r.w[i]);
        }
    } else if (isTriangle(slave.type)) {
        const TriangleRule& t = kTriangleRule5;
        for (int g = 0; g < t.n; ++g) {
            add(Vector2d(t.l[g][1], t.l[g][2]), 0.5 * t.w[g]);
        }
    } else {
        for (int i = 0; i < r.n; ++i) {
            for (int j = 0; j < r.n; ++j) {
                add(Vector2d(r.x[i], r.x[j]), r.w[i] * r.w[j]);
            }
        }
    }
}

bool setWideKernels(bool on) noexcept {
    return gWideKernels.exchange(on, std::memory_order_relaxed);
}

int setMortarCutPieces(int pieces) noexcept {
    return gCutPieces.exchange(pieces, std::memory_order_relaxed);
}

bool wideKernelsRun() noexcept {
#ifdef CONTACT_WIDE_VERSIONS
    return gWideKernels.load(std::memory_order_relaxed) &&
           static_cast<bool>(__builtin_cpu_supports("avx2"));
#else
    return false;
#endif
}

}  // namespace contact::detail
