// SPDX-License-Identifier: MIT
// Segment-to-segment clipping: Box2D-Lite's reference-face / incident-edge clip in 2D,
// Sutherland-Hodgman on projected faces in 3D, and Gauss points over the overlap polygon.
#include "contact/clipping.hpp"

#include "contact/segment.hpp"

#include "detail/quadrature_rules.hpp"
#include "detail/warm_projection.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <utility>

namespace contact {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

// ---------------------------------------------------------------------------------------------
// Shared helpers.

// The segment with every node moved by -origin: differences of nearby coordinates keep their
// precision far from the origin (Box2D's manifold.c, "Shift to the origin ... for round-off").
SegmentNodes shifted(const SegmentNodes& s, const Vector3d& origin) noexcept {
    SegmentNodes out;
    out.type = s.type;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        out.x[i] = s.x[i] - origin;
    }
    return out;
}

// The length unit of every tolerance of a pair.
double pairScale(const SegmentNodes& a, const SegmentNodes& b) noexcept {
    return std::max(characteristicSize(a), characteristicSize(b));
}

// True when every node coordinate is finite (NaN and Inf make a pair degenerate).
bool allFinite(const SegmentNodes& s) noexcept {
    for (int i = 0; i < nodeCount(s.type); ++i) {
        if (!s.x[i].allFinite()) {
            return false;
        }
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// 2D.

// Position and first two derivatives of a line segment at xi (straight or curved).
struct LinePoint {
    Vector3d x = Vector3d::Zero();
    Vector3d dx = Vector3d::Zero();
    Vector3d ddx = Vector3d::Zero();
};

LinePoint lineAt(const SegmentNodes& s, double xi) noexcept {
    const ShapeFunctions f = shapeFunctions(s.type, Vector2d(xi, 0.0));
    LinePoint p;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        p.x += f.N[i] * s.x[i];
        p.dx += f.dXi[i] * s.x[i];
        p.ddx += f.dXiXi[i] * s.x[i];
    }
    return p;
}

// Local coordinate of the foot of p on the line's curve extended past its ends (not clamped).
// Line2: closed form. Line3: Newton on (x(xi) - p) . x'(xi) = 0 from the chord's foot, with the
// Gauss-Newton curvature |x'|^2 where the exact one is not safely positive, steps <= 0.5.
double projectOnLine(const SegmentNodes& m, const Vector3d& p) noexcept {
    const Vector3d chord = m.x[1] - m.x[0];
    double xi = 2.0 * (p - m.x[0]).dot(chord) / chord.squaredNorm() - 1.0;
    if (m.type == SegmentType::Line2) {
        return xi;
    }
    for (int it = 0; it < tol::kClipMaxNewton; ++it) {
        const LinePoint q = lineAt(m, xi);
        const Vector3d r = q.x - p;
        const double gn = q.dx.squaredNorm();
        double h = gn + r.dot(q.ddx);
        if (!(h > 0.25 * gn)) {
            h = gn;
        }
        if (!(h > 0.0)) {
            break;
        }
        const double step = std::clamp(-r.dot(q.dx) / h, -0.5, 0.5);
        xi += step;
        if (std::abs(step) <= tol::kClipNewtonTol) {
            break;
        }
    }
    return xi;
}

// Arc length of a line segment between local coordinates a and b (>= 0). Line3: composite
// Gauss-Legendre, 4 panels of 8 points; |x'| is smooth (the square root of a quadratic without
// real roots), so this is exact to rounding for any curvature a valid Line3 can have.
double arcLength(const SegmentNodes& s, double a, double b) noexcept {
    if (s.type == SegmentType::Line2) {
        return 0.5 * (s.x[1] - s.x[0]).norm() * std::abs(b - a);
    }
    constexpr double kNode[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                 0.9602898564975363};
    constexpr double kWeight[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                   0.1012285362903763};
    constexpr int kPanels = 4;
    const double h = (b - a) / kPanels;
    double sum = 0.0;
    for (int k = 0; k < kPanels; ++k) {
        const double mid = a + (k + 0.5) * h;
        for (int i = 0; i < 4; ++i) {
            const double d = 0.5 * h * kNode[i];
            sum += kWeight[i] * (lineAt(s, mid - d).dx.norm() + lineAt(s, mid + d).dx.norm());
        }
    }
    return std::abs(0.5 * h * sum);
}

// A side plane of the master: d(p) = (p - point) . outward; inside when d <= 0.
struct SidePlane {
    Vector3d point = Vector3d::Zero();
    Vector3d outward = Vector3d::Zero();
};

// The slave's part left after the clips so far: xi_s in [lo, hi] with the features of its ends.
struct SlaveInterval {
    double lo = -1.0;
    double hi = 1.0;
    ClipFeature2d featureLo{0, -1};
    ClipFeature2d featureHi{1, -1};
};

// Root of c0 + c1 t + c2 t^2 between a and b, where the values fa, fb have opposite signs:
// Newton, falling back to bisection whenever a step would leave the bracket.
double quadraticRoot(double c0, double c1, double c2, double a, double fa, double b) noexcept {
    double t = 0.5 * (a + b);
    for (int it = 0; it < 100; ++it) {
        const double f = c0 + t * (c1 + c2 * t);
        if (f == 0.0) {
            return t;
        }
        if ((f < 0.0) == (fa < 0.0)) {
            a = t;
            fa = f;
        } else {
            b = t;
        }
        const double df = c1 + 2.0 * c2 * t;
        double next = df != 0.0 ? t - f / df : t;
        if (!(next > std::min(a, b) && next < std::max(a, b))) {
            next = 0.5 * (a + b);
        }
        const double step = next - t;
        t = next;
        if (std::abs(step) <= tol::kClipNewtonTol) {
            break;
        }
    }
    return t;
}

// Box2D-Lite's ClipSegmentToLine on the slave's parameter interval: keeps the part with
// d(x_s(xi_s)) <= eps; a new end gets the feature "cut by master side k".
// False when nothing is left. Assumes d monotone along the slave (no folding within the pair).
bool clipToSide(const SegmentNodes& s, const SidePlane& side, std::int8_t k, double eps,
                SlaveInterval& iv) noexcept {
    const auto d = [&](double t) { return (lineAt(s, t).x - side.point).dot(side.outward); };
    const double dLo = d(iv.lo);
    const double dHi = d(iv.hi);
    const bool inLo = dLo <= eps;
    const bool inHi = dHi <= eps;
    if (inLo && inHi) {
        return true;
    }
    if (!inLo && !inHi) {
        return false;
    }
    const double tIn = inLo ? iv.lo : iv.hi;
    const double tOut = inLo ? iv.hi : iv.lo;
    const double dIn = inLo ? dLo : dHi;
    const double dOut = inLo ? dHi : dLo;
    double t = tIn;  // the inside end on the plane (within eps): the cut is there
    if (dIn < 0.0) {
        if (s.type == SegmentType::Line2) {
            t = tIn + (tOut - tIn) * (dIn / (dIn - dOut));  // Box2D-Lite's interpolation
        } else {
            // d(t) on a Line3 is the quadratic through its node values (ends at -1, +1, mid at 0).
            const double d0 = (s.x[0] - side.point).dot(side.outward);
            const double d1 = (s.x[1] - side.point).dot(side.outward);
            const double d2 = (s.x[2] - side.point).dot(side.outward);
            t = quadraticRoot(d2, 0.5 * (d1 - d0), 0.5 * (d0 + d1) - d2, tIn, dIn, tOut);
        }
    }
    if (inLo) {
        iv.hi = t;
        iv.featureHi = {-1, k};
    } else {
        iv.lo = t;
        iv.featureLo = {-1, k};
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// 3D.

// Working polygon in plane coordinates. Twice the output capacity: room for a non-convex slave
// polygon (a convex one never exceeds kMaxOverlapVertices).
constexpr int kWorkVertices = 2 * kMaxOverlapVertices;

struct Polygon2 {
    std::array<Vector2d, kWorkVertices> p{};
    int n = 0;

    bool push(const Vector2d& v) noexcept {
        if (n == kWorkVertices) {
            return false;
        }
        p[n++] = v;
        return true;
    }
    void erase(int i) noexcept {
        for (int j = i; j + 1 < n; ++j) {
            p[j] = p[j + 1];
        }
        --n;
    }
};

double cross2(const Vector2d& a, const Vector2d& b) noexcept {
    return a.x() * b.y() - a.y() * b.x();
}

// Twice the signed area (counter-clockwise > 0), fanned from vertex 0.
double twiceSignedArea(const Polygon2& q) noexcept {
    double a = 0.0;
    for (int i = 1; i + 1 < q.n; ++i) {
        a += cross2(q.p[i] - q.p[0], q.p[i + 1] - q.p[0]);
    }
    return a;
}

void reverse(Polygon2& q) noexcept { std::reverse(q.p.begin(), q.p.begin() + q.n); }

// Drops vertices within eps of the next one and vertices within eps of the line through their
// neighbours (collinear points, zero-width spikes), until none is left to drop.
void cleanup(Polygon2& q, double eps) noexcept {
    bool changed = true;
    while (changed && q.n >= 3) {
        changed = false;
        for (int i = 0; i < q.n && q.n > 1;) {
            if ((q.p[(i + 1) % q.n] - q.p[i]).norm() <= eps) {
                q.erase((i + 1) % q.n);
                changed = true;
            } else {
                ++i;
            }
        }
        for (int i = 0; i < q.n && q.n >= 3;) {
            const Vector2d& a = q.p[(i + q.n - 1) % q.n];
            const Vector2d ac = q.p[(i + 1) % q.n] - a;
            const double len = ac.norm();
            if (len <= eps || std::abs(cross2(ac, q.p[i] - a)) <= eps * len) {
                q.erase(i);
                changed = true;
            } else {
                ++i;
            }
        }
    }
    if (q.n < 3) {
        q.n = 0;
    }
}

// One Sutherland-Hodgman stage: the part of `in` left of the directed line a->b. A vertex within
// eps of the line is "on": kept, and never the end of a cut, so shared edges and vertices lying
// on the clip line produce no new (near-duplicate) vertices. False on overflow.
bool clipByEdge(const Polygon2& in, const Vector2d& a, const Vector2d& b, double eps,
                Polygon2& out) noexcept {
    out.n = 0;
    const Vector2d e = b - a;
    const double len = e.norm();
    std::array<double, kWorkVertices> d{};
    for (int i = 0; i < in.n; ++i) {
        d[i] = cross2(e, in.p[i] - a) / len;  // signed distance, > 0 inside (left)
    }
    for (int i = 0; i < in.n; ++i) {
        const int j = (i + 1) % in.n;
        if (d[i] >= -eps && !out.push(in.p[i])) {
            return false;
        }
        const bool cut = (d[i] > eps && d[j] < -eps) || (d[i] < -eps && d[j] > eps);
        if (cut && !out.push(in.p[i] + (in.p[j] - in.p[i]) * (d[i] / (d[i] - d[j])))) {
            return false;
        }
    }
    return true;
}

// True when every corner of a cleaned counter-clockwise polygon turns left.
bool isConvex(const Polygon2& q) noexcept {
    for (int i = 0; i < q.n; ++i) {
        const Vector2d& a = q.p[i];
        const Vector2d& b = q.p[(i + 1) % q.n];
        const Vector2d& c = q.p[(i + 2) % q.n];
        if (!(cross2(b - a, c - b) > 0.0)) {
            return false;
        }
    }
    return true;
}

// Projection plane through the origin of the shifted coordinates: unit normal n, axes e1, e2
// with e1 x e2 = n.
struct Plane {
    Vector3d n = Vector3d::UnitZ();
    Vector3d e1 = Vector3d::UnitX();
    Vector3d e2 = Vector3d::UnitY();
};

Plane makePlane(const Vector3d& n) noexcept {
    Plane pl;
    pl.n = n;
    pl.e1 = n.unitOrthogonal();
    pl.e2 = n.cross(pl.e1);
    return pl;
}

// Corner polygon of a face projected on the plane (node order).
Polygon2 projectCorners(const SegmentNodes& s, const Plane& pl) noexcept {
    Polygon2 q;
    for (int i = 0; i < cornerCount(s.type); ++i) {
        q.p[i] = Vector2d(s.x[i].dot(pl.e1), s.x[i].dot(pl.e2));
    }
    q.n = cornerCount(s.type);
    return q;
}

// Area of a face's corner polygon in space (the norm of its vector area).
double cornerArea(const SegmentNodes& s) noexcept {
    Vector3d a = Vector3d::Zero();
    for (int i = 1; i + 1 < cornerCount(s.type); ++i) {
        a += (s.x[i] - s.x[0]).cross(s.x[i + 1] - s.x[0]);
    }
    return 0.5 * a.norm();
}

// Moves xi into the closed reference domain: per coordinate for quads; for triangles onto the
// quadrant, then back along (1, 1) onto the hypotenuse.
Vector2d clampToDomain(SegmentType t, Vector2d xi) noexcept {
    if (!isTriangle(t)) {
        return xi.cwiseMax(-1.0).cwiseMin(1.0);
    }
    xi = xi.cwiseMax(0.0);
    const double excess = xi.sum() - 1.0;
    if (excess > 0.0) {
        xi -= Vector2d::Constant(0.5 * excess);
        xi = xi.cwiseMax(0.0);
        xi /= std::max(1.0, xi.sum());
    }
    return xi;
}

// A face to back-project onto: its nodes, and for a Quad8 or Quad9 its monomial form
// (detail::hasNodalMonomials). Made once per face for all of a polygon's back-projections.
struct BackFace {
    explicit BackFace(const SegmentNodes& nodes) noexcept
        : s(nodes), mono(detail::hasNodalMonomials(nodes.type)) {
        if (mono) {
            m = detail::monomialForm(nodes);
        }
    }
    const SegmentNodes& s;
    bool mono;
    detail::Monomials m;
};

// In-plane residual g = (e1 . r, e2 . r), r = x(xi) - p, and its Jacobian J_kl = e_k . dx/dxi_l.
struct PlaneResidual {
    Vector2d g = Vector2d::Zero();
    Eigen::Matrix2d J = Eigen::Matrix2d::Zero();
    double f = 0.0;  // |g|^2 / 2
};

PlaneResidual planeResidual(const BackFace& f, const Vector3d& p, const Plane& pl,
                            const Vector2d& xi) noexcept {
    Vector3d x = -p;
    Vector3d dXi = Vector3d::Zero();
    Vector3d dEta = Vector3d::Zero();
    if (f.mono) {
        Vector3d y;
        detail::hornerAt(f.m, xi, y, dXi, dEta);
        x += y;
    } else {
        const SegmentNodes& s = f.s;
        const ShapeGradients sf = shapeGradients(s.type, xi);
        for (int i = 0; i < nodeCount(s.type); ++i) {
            x += sf.N[i] * s.x[i];
            dXi += sf.dXi[i] * s.x[i];
            dEta += sf.dEta[i] * s.x[i];
        }
    }
    PlaneResidual r;
    r.g = Vector2d(pl.e1.dot(x), pl.e2.dot(x));
    r.J << pl.e1.dot(dXi), pl.e1.dot(dEta), pl.e2.dot(dXi), pl.e2.dot(dEta);
    r.f = 0.5 * r.g.squaredNorm();
    return r;
}

// The edge of the reference domain that the step d leaves it by from xi, as its unit tangent:
// zero where xi is inside, or where d leaves by no edge or by a corner's two.
Vector2d exitTangent(SegmentType t, const Vector2d& xi, const Vector2d& d) noexcept {
    constexpr double kOn = 1e-14;  // on an edge: clampToDomain puts points there to rounding
    int count = 0;
    Vector2d tangent = Vector2d::Zero();
    const auto edge = [&](bool leaves, const Vector2d& along) {
        if (leaves) {
            ++count;
            tangent = along;
        }
    };
    if (isTriangle(t)) {
        edge(xi.x() <= kOn && d.x() < 0.0, Vector2d(0.0, 1.0));
        edge(xi.y() <= kOn && d.y() < 0.0, Vector2d(1.0, 0.0));
        edge(xi.sum() >= 1.0 - kOn && d.sum() > 0.0, Vector2d(1.0, -1.0) / std::sqrt(2.0));
    } else {
        edge(std::abs(xi.x()) >= 1.0 - kOn && d.x() * xi.x() > 0.0, Vector2d(0.0, 1.0));
        edge(std::abs(xi.y()) >= 1.0 - kOn && d.y() * xi.y() > 0.0, Vector2d(1.0, 0.0));
    }
    return count == 1 ? tangent : Vector2d::Zero();
}

// Local coordinates where the line p + s n meets face f (shifted coordinates), found as the
// minimiser of f(xi) = |g(xi)|^2 / 2 over the closed reference domain, from the start value xi:
//   loop: Newton step -J^-1 g (stop when below kClipNewtonTol); where it leaves the domain from a
//     point on an edge, the Gauss-Newton step along that edge first, -(Jt . g / |Jt|^2) t (stop
//     when below kClipNewtonTol: the minimum on the edge); each at most 0.5 in xi, halved until
//     the trial point, moved into the domain, decreases f; if none does, the same with the
//     steepest-descent step of the Gauss-Newton model, -(|J^T g|^2 / |J J^T g|^2) J^T g;
//     if neither decreases f: stop (a constrained minimum, or f at round-off).
// Where the line meets the face inside the domain, f = 0 there and Newton converges
// quadratically (in one step for Tri3). Where it misses a curved face (a chord of the flat
// approximation outside the curved boundary), the result is the nearest point of the domain in
// the plane: on the face's boundary, reached by Newton along the edge. Always returns a point of
// the closed domain.
Vector2d backProject(const BackFace& f, const Vector3d& p, const Plane& pl, Vector2d xi) noexcept {
    constexpr int kHalvings = 30;
    const SegmentType type = f.s.type;
    xi = clampToDomain(type, xi);
    PlaneResidual r = planeResidual(f, p, pl, xi);
    for (int it = 0; it < tol::kClipMaxNewton && r.f > 0.0; ++it) {
        std::array<Vector2d, 3> dirs{Vector2d::Zero(), Vector2d::Zero(), Vector2d::Zero()};
        const double jMax = r.J.cwiseAbs().maxCoeff();
        if (std::abs(r.J.determinant()) > tol::kClipEdgeOnRel * jMax * jMax) {
            dirs[1] = -r.J.inverse() * r.g;
            if (dirs[1].cwiseAbs().maxCoeff() <= tol::kClipNewtonTol) {
                break;
            }
        }
        const Vector2d grad = r.J.transpose() * r.g;
        const double curvature = (r.J * grad).squaredNorm();
        if (curvature > 0.0) {
            dirs[2] = -(grad.squaredNorm() / curvature) * grad;
        }
        const Vector2d t = exitTangent(type, xi, dirs[1].isZero() ? dirs[2] : dirs[1]);
        const Vector2d Jt = r.J * t;
        if (Jt.squaredNorm() > 0.0) {
            dirs[0] = -(Jt.dot(r.g) / Jt.squaredNorm()) * t;
            if (dirs[0].cwiseAbs().maxCoeff() <= tol::kClipNewtonTol) {
                break;
            }
        }
        bool moved = false;
        for (Vector2d d : dirs) {
            const double size = d.cwiseAbs().maxCoeff();
            if (size > 0.5) {
                d *= 0.5 / size;
            }
            // Halved while the step is above the tolerance the loop stops at.
            double reach = size;
            for (int h = 0; h < kHalvings && reach > tol::kClipNewtonTol && !moved;
                 ++h, d *= 0.5, reach *= 0.5) {
                const Vector2d trial = clampToDomain(type, xi + d);
                const PlaneResidual rt = planeResidual(f, p, pl, trial);
                if (rt.f < r.f) {
                    xi = trial;
                    r = rt;
                    moved = true;
                }
            }
            if (moved) {
                break;
            }
        }
        if (!moved) {
            break;
        }
    }
    return xi;
}

// Gap of the face points at xiS and xiM: (x_s - x_m) . n_m(xiM).
double faceGap(const SegmentNodes& s, const Vector2d& xiS, const SegmentNodes& m,
               const Vector2d& xiM) noexcept {
    const SegmentFrame fm = segmentFrame(m, xiM);
    return (position(s, xiS) - fm.point).dot(fm.normal);
}

using detail::TriangleRule;
using detail::triangleRule;

}  // namespace

const char* clipStatusName(ClipStatus s) noexcept {
    switch (s) {
    case ClipStatus::kOverlap: return "overlap";
    case ClipStatus::kNoOverlap: return "no overlap";
    case ClipStatus::kBeyondCapture: return "beyond capture";
    case ClipStatus::kDegenerate: return "degenerate";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------------
// Box2D-Lite's reference face / incident edge; pseudocode above the declaration (clipping.hpp).

SegmentClip2d clipSegments2d(const SegmentNodes& slave, const SegmentNodes& master,
                             double capture) noexcept {
    SegmentClip2d out;
    out.status = ClipStatus::kDegenerate;
    if (parametricDim(slave.type) != 1 || parametricDim(master.type) != 1 || !allFinite(slave) ||
        !allFinite(master)) {
        return out;
    }
    const Vector3d origin = master.x[0];
    const SegmentNodes s = shifted(slave, origin);
    const SegmentNodes m = shifted(master, origin);
    const SegmentFrame m0 = segmentFrame(m, Vector2d(-1.0, 0.0));
    const SegmentFrame m1 = segmentFrame(m, Vector2d(1.0, 0.0));
    const SegmentFrame mc = segmentFrame(m, Vector2d::Zero());
    const SegmentFrame sc = segmentFrame(s, Vector2d::Zero());
    const double L = pairScale(s, m);
    if (m0.degenerate || m1.degenerate || mc.degenerate || sc.degenerate ||
        !(characteristicSize(s) > tol::kClipMergeRel * L) ||
        !(characteristicSize(m) > tol::kClipMergeRel * L)) {
        return out;
    }
    out.facing = sc.normal.dot(mc.normal) < 0.0;
    const double eps = tol::kClipMergeRel * L;

    // Reference face: side planes at the master's ends, normal to the master there.
    const SidePlane sides[2] = {{m0.point, -m0.tangent1}, {m1.point, m1.tangent1}};
    SlaveInterval iv;
    for (std::int8_t k = 0; k < 2; ++k) {
        if (!clipToSide(s, sides[k], k, eps, iv)) {
            out.status = ClipStatus::kNoOverlap;
            return out;
        }
    }

    // The two ends of the overlap, projected on the master; a cut end lands on xi_m = -1 / +1
    // exactly (it lies on that end's normal).
    ClipPoint2d ends[2];
    const double ts[2] = {iv.lo, iv.hi};
    const ClipFeature2d fs[2] = {iv.featureLo, iv.featureHi};
    for (int j = 0; j < 2; ++j) {
        ClipPoint2d& p = ends[j];
        p.xiSlave = ts[j];
        p.feature = fs[j];
        p.slavePoint = lineAt(s, ts[j]).x;
        p.xiMaster = fs[j].masterSide >= 0 ? (fs[j].masterSide == 0 ? -1.0 : 1.0)
                                           : std::clamp(projectOnLine(m, p.slavePoint), -1.0, 1.0);
        const SegmentFrame f = segmentFrame(m, Vector2d(p.xiMaster, 0.0));
        p.masterPoint = f.point;
        p.normal = f.normal;
        p.gap = (p.slavePoint - f.point).dot(f.normal);
    }
    out.overlapLength = arcLength(m, ends[0].xiMaster, ends[1].xiMaster);
    if (!(out.overlapLength > tol::kClipMinLengthRel * L)) {
        out.overlapLength = 0.0;
        out.status = ClipStatus::kNoOverlap;
        return out;
    }
    out.slaveOverlapLength = arcLength(s, iv.lo, iv.hi);
    out.xiSlaveRange = Vector2d(iv.lo, iv.hi);
    out.xiMasterRange = Vector2d(ends[0].xiMaster, ends[1].xiMaster);
    out.normal = outwardNormal(m, Vector2d(0.5 * (ends[0].xiMaster + ends[1].xiMaster), 0.0));
    for (ClipPoint2d& p : ends) {
        if (p.gap <= capture) {
            p.slavePoint += origin;
            p.masterPoint += origin;
            out.points[out.pointCount++] = p;
        }
    }
    out.status = out.pointCount > 0 ? ClipStatus::kOverlap : ClipStatus::kBeyondCapture;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Sutherland-Hodgman on the projected corner polygons; pseudocode in clipping.hpp.

OverlapPolygon clipSegments3d(const SegmentNodes& slave, const SegmentNodes& master,
                              const ClipOptions3d& options) noexcept {
    OverlapPolygon out;
    out.status = ClipStatus::kDegenerate;
    if (parametricDim(slave.type) != 2 || parametricDim(master.type) != 2 || !allFinite(slave) ||
        !allFinite(master)) {
        return out;
    }
    const SegmentFrame mc = segmentFrame(master, referenceCentre(master.type));
    const SegmentFrame sc = segmentFrame(slave, referenceCentre(slave.type));
    if (mc.degenerate || sc.degenerate) {
        return out;
    }
    out.facing = sc.normal.dot(mc.normal) < 0.0;
    Vector3d c = mc.point;
    Vector3d n = mc.normal;
    if (options.plane == ClipPlane::kCommon) {
        const double sigma = out.facing ? 1.0 : -1.0;  // n_m - n_s, or n_m + n_s when reversed
        n = (mc.normal - sigma * sc.normal).normalized();
        c = 0.5 * (mc.point + sc.point);
    }
    out.normal = n;
    out.planePoint = c;
    const Plane pl = makePlane(n);
    const SegmentNodes s = shifted(slave, c);
    const SegmentNodes m = shifted(master, c);
    const double L = pairScale(s, m);
    const double eps = tol::kClipMergeRel * L;

    // Reference polygon: the master's corners, counter-clockwise about n, convex.
    Polygon2 mp = projectCorners(m, pl);
    const double mArea = 0.5 * twiceSignedArea(mp);
    if (!(std::abs(mArea) > tol::kClipEdgeOnRel * cornerArea(m))) {
        return out;
    }
    if (mArea < 0.0) {
        reverse(mp);
    }
    cleanup(mp, eps);
    if (mp.n < 3 || !isConvex(mp)) {
        return out;
    }
    // Subject polygon: the slave's corners, made counter-clockwise (a facing slave projects
    // clockwise). Edge-on to the plane: it faces the master over no area.
    Polygon2 sp = projectCorners(s, pl);
    const double sArea = 0.5 * twiceSignedArea(sp);
    if (!(std::abs(sArea) > tol::kClipEdgeOnRel * cornerArea(s))) {
        out.status = ClipStatus::kNoOverlap;
        return out;
    }
    if (sArea < 0.0) {
        reverse(sp);
    }

    // Sutherland-Hodgman: clip by each master edge in turn.
    Polygon2 bufA = sp;
    Polygon2 bufB;
    Polygon2* cur = &bufA;
    Polygon2* next = &bufB;
    for (int i = 0; i < mp.n && cur->n > 0; ++i) {
        if (!clipByEdge(*cur, mp.p[i], mp.p[(i + 1) % mp.n], eps, *next)) {
            return out;
        }
        std::swap(cur, next);
    }
    Polygon2& q = *cur;
    cleanup(q, eps);
    const double area = 0.5 * twiceSignedArea(q);
    if (q.n < 3 || !(area > tol::kClipMinAreaRel * L * L)) {
        out.status = ClipStatus::kNoOverlap;
        return out;
    }
    if (q.n > kMaxOverlapVertices) {
        return out;  // only a non-convex slave polygon gets here
    }

    // Area centroid, fanned from vertex 0.
    Vector2d centroid = Vector2d::Zero();
    for (int i = 1; i + 1 < q.n; ++i) {
        const double a = cross2(q.p[i] - q.p[0], q.p[i + 1] - q.p[0]);
        centroid += a * (q.p[0] + q.p[i] + q.p[i + 1]) / 3.0;
    }
    centroid /= 2.0 * area;

    const BackFace bs(s);
    const BackFace bm(m);
    for (int i = 0; i < q.n; ++i) {
        OverlapVertex& v = out.vertices[i];
        const Vector3d x = q.p[i].x() * pl.e1 + q.p[i].y() * pl.e2;
        v.xiSlave = backProject(bs, x, pl, referenceCentre(s.type));
        v.xiMaster = backProject(bm, x, pl, referenceCentre(m.type));
        v.gap = faceGap(s, v.xiSlave, m, v.xiMaster);
        v.point = x + c;
    }
    out.count = q.n;
    out.area = area;
    out.centroid = c + centroid.x() * pl.e1 + centroid.y() * pl.e2;
    out.status = ClipStatus::kOverlap;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Flat-approximation bound and Gauss points over the overlap.

double flatApproximationBound(const SegmentNodes& s) noexcept {
    double lambda = 0.0;
    SegmentType linear{};
    switch (s.type) {
    case SegmentType::Line2:
    case SegmentType::Tri3:
    case SegmentType::Quad4: return 0.0;
    case SegmentType::Line3:
        lambda = 1.0;
        linear = SegmentType::Line2;
        break;
    case SegmentType::Tri6:
        lambda = 4.0 / 3.0;
        linear = SegmentType::Tri3;
        break;
    case SegmentType::Quad8:
        lambda = 2.0;
        linear = SegmentType::Quad4;
        break;
    case SegmentType::Quad9:
        lambda = 1.3844;  // max of (1 + s - s^2)^2 - s^2 at s = 0.3554: 1.384355
        linear = SegmentType::Quad4;
        break;
    }
    double deviation = 0.0;
    const int nc = cornerCount(s.type);
    for (int i = nc; i < nodeCount(s.type); ++i) {
        const ShapeFunctions f = shapeFunctions(linear, nodeLocalCoordinates(s.type, i));
        Vector3d x = Vector3d::Zero();
        for (int k = 0; k < nc; ++k) {
            x += f.N[k] * s.x[k];
        }
        deviation = std::max(deviation, (s.x[i] - x).norm());
    }
    return lambda * deviation;
}

int triangleQuadraturePointCount(int order) noexcept { return triangleRule(order).n; }

int overlapQuadrature(const OverlapPolygon& polygon, const SegmentNodes& slave,
                      const SegmentNodes& master, int order, OverlapQuadrature& out) noexcept {
    if (polygon.status != ClipStatus::kOverlap || polygon.count < 3 ||
        polygon.count > kMaxOverlapVertices) {
        return 0;
    }
    const TriangleRule& rule = triangleRule(order);
    const Vector3d c0 = polygon.planePoint;
    const Plane pl = makePlane(polygon.normal);
    const SegmentNodes s = shifted(slave, c0);
    const SegmentNodes m = shifted(master, c0);
    const BackFace bs(s);
    const BackFace bm(m);

    // The fan's hub: the centroid, with its local coordinates.
    const Vector3d hub = polygon.centroid - c0;
    Vector2d hubXiS = Vector2d::Zero();
    Vector2d hubXiM = Vector2d::Zero();
    for (int i = 0; i < polygon.count; ++i) {
        hubXiS += polygon.vertices[i].xiSlave / polygon.count;
        hubXiM += polygon.vertices[i].xiMaster / polygon.count;
    }
    hubXiS = backProject(bs, hub, pl, hubXiS);
    hubXiM = backProject(bm, hub, pl, hubXiM);

    int k = 0;
    for (int i = 0; i < polygon.count; ++i) {
        const OverlapVertex& a = polygon.vertices[i];
        const OverlapVertex& b = polygon.vertices[(i + 1) % polygon.count];
        const Vector3d pa = a.point - c0;
        const Vector3d pb = b.point - c0;
        const double triArea = 0.5 * (pa - hub).cross(pb - hub).dot(pl.n);
        for (int g = 0; g < rule.n; ++g) {
            const double* l = rule.l[g];
            OverlapQuadraturePoint& qp = out[k];
            const Vector3d x = l[0] * hub + l[1] * pa + l[2] * pb;
            qp.xiSlave =
                backProject(bs, x, pl, l[0] * hubXiS + l[1] * a.xiSlave + l[2] * b.xiSlave);
            qp.xiMaster =
                backProject(bm, x, pl, l[0] * hubXiM + l[1] * a.xiMaster + l[2] * b.xiMaster);
            qp.point = x + c0;
            qp.weight = rule.w[g] * triArea;
            qp.gap = faceGap(s, qp.xiSlave, m, qp.xiMaster);
            qp.NSlave = shapeValues(s.type, qp.xiSlave);
            qp.NMaster = shapeValues(m.type, qp.xiMaster);
            ++k;
        }
    }
    return k;
}

// ---------------------------------------------------------------------------------------------
// The part of an overlap where the gap is at most a level; pseudocode in clipping.hpp.

namespace {

// Area of the part of a convex polygon (plane coordinates, counter-clockwise) where the gap, linear
// between its vertices' gaps g, is at most level (strict: below it, so that faces touching at gap
// 0 have no penetrating part).
double keptArea(const Vector2d* p, const double* g, int n, double level,
                bool strict = false) noexcept {
    const auto in = [&](int i) { return strict ? g[i] < level : g[i] <= level; };
    std::array<Vector2d, kWorkVertices> q{};
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const int j = (i + 1) % n;
        if (in(i)) {
            q[m++] = p[i];
        }
        if (in(i) != in(j)) {
            q[m++] = p[i] + (p[j] - p[i]) * ((level - g[i]) / (g[j] - g[i]));
        }
    }
    double a = 0.0;
    for (int i = 1; i + 1 < m; ++i) {
        a += cross2(q[i] - q[0], q[i + 1] - q[0]);
    }
    return std::max(0.0, 0.5 * a);
}

// Bound on the measure a cut by linear interpolation misplaces in a cell of measure `size` whose
// vertex gaps span [lo, hi], when the true gap is within `widen` of the interpolant: the part
// where the interpolant lies within widen of the level. A linear function's level sets have a
// density of at most 2 / (hi - lo) of a triangle's area per unit of gap (its peak, at the middle
// vertex's value), 1 / (hi - lo) of an interval's length: `density` 2 or 1.
double misplaced(double size, double lo, double hi, double widen, double level,
                 double density) noexcept {
    if (level < lo - widen || level > hi + widen) {
        return 0.0;
    }
    const double spread = hi - lo;
    return spread > 0.0 ? size * std::min(1.0, density * 2.0 * widen / spread) : size;
}

// The polygon cut where the gap, linear along each edge between the vertices' gaps, passes level;
// crossing points get local coordinates by back-projection, and their gap is level where the gap
// is affine, else the gap found there.
void drawKeptPolygon(const OverlapPolygon& poly, const Vector2d* p, const BackFace& bs,
                     const BackFace& bm, const Plane& pl, const Vector3d& c0, double level,
                     bool affine, OverlapCut3d& out) noexcept {
    const SegmentNodes& s = bs.s;
    const SegmentNodes& m = bm.s;
    out.count = 0;
    for (int i = 0; i < poly.count; ++i) {
        const int j = (i + 1) % poly.count;
        const OverlapVertex& a = poly.vertices[i];
        const OverlapVertex& b = poly.vertices[j];
        if (a.gap <= level) {
            out.vertices[out.count++] = a;
        }
        if ((a.gap <= level) != (b.gap <= level)) {
            const double t = (level - a.gap) / (b.gap - a.gap);
            const Vector2d q = p[i] + (p[j] - p[i]) * t;
            const Vector3d x = q.x() * pl.e1 + q.y() * pl.e2;
            OverlapVertex& v = out.vertices[out.count++];
            v.xiSlave = backProject(bs, x, pl, a.xiSlave + t * (b.xiSlave - a.xiSlave));
            v.xiMaster = backProject(bm, x, pl, a.xiMaster + t * (b.xiMaster - a.xiMaster));
            v.gap = affine ? level : faceGap(s, v.xiSlave, m, v.xiMaster);
            v.point = x + c0;
        }
    }
    if (out.count < 3) {
        out.count = 0;
    }
}

// Gap range of the kept part from values g[0..n) (cut points are at the level).
void keepRange(const double* g, int n, double level, bool& any, double& lo, double& hi) noexcept {
    for (int i = 0; i < n; ++i) {
        if (g[i] <= level) {
            lo = any ? std::min(lo, g[i]) : g[i];
            hi = any ? std::max(hi, g[i]) : g[i];
            any = true;
        }
    }
}

}  // namespace

namespace {

// How far a face lies from the plane of its corners: the corners' distance from it (a quad's four
// corners lie +-d from the plane through their centroid, normal (x2 - x0) x (x3 - x1); a bilinear
// face within d of it), plus its midside nodes' flatApproximationBound. Also that unit normal.
struct Flatness {
    double deviation = 0.0;
    Vector3d normal = Vector3d::Zero();
};

Flatness flatness(const SegmentNodes& s) noexcept {
    Flatness f;
    f.deviation = flatApproximationBound(s);
    if (parametricDim(s.type) != 2) {
        return f;
    }
    if (cornerCount(s.type) == 3) {
        f.normal = (s.x[1] - s.x[0]).cross(s.x[2] - s.x[0]).normalized();
        return f;
    }
    const Vector3d n = (s.x[2] - s.x[0]).cross(s.x[3] - s.x[1]);
    const Vector3d c = 0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3]);
    f.normal = n.normalized();
    f.deviation += std::abs((s.x[0] - c).dot(f.normal));
    return f;
}

}  // namespace

bool isFlatFace(const SegmentNodes& s) noexcept {
    const Flatness f = flatness(s);
    return (parametricDim(s.type) == 1 || f.normal.squaredNorm() > 0.0) &&
           f.deviation <= tol::kClipMergeRel * characteristicSize(s);
}

OverlapCut3d cutOverlap3d(const OverlapPolygon& polygon, const SegmentNodes& slave,
                          const SegmentNodes& master, double level, int subdivisions) noexcept {
    OverlapCut3d out;
    if (polygon.status != ClipStatus::kOverlap || polygon.count < 3 ||
        polygon.count > kMaxOverlapVertices) {
        return out;
    }
    const Vector3d c0 = polygon.planePoint;
    const Plane pl = makePlane(polygon.normal);
    const SegmentNodes s = shifted(slave, c0);
    const SegmentNodes m = shifted(master, c0);
    const BackFace bs(s);
    const BackFace bm(m);
    const int nv = polygon.count;
    std::array<Vector2d, kMaxOverlapVertices> p{};
    std::array<double, kMaxOverlapVertices> g{};
    for (int i = 0; i < nv; ++i) {
        const Vector3d x = polygon.vertices[i].point - c0;
        p[i] = Vector2d(x.dot(pl.e1), x.dot(pl.e2));
        g[i] = polygon.vertices[i].gap;
    }
    out.affine = isFlatFace(slave) && isFlatFace(master);
    drawKeptPolygon(polygon, p.data(), bs, bm, pl, c0, level, out.affine, out);
    bool any = false;     // some of the polygon is kept
    bool allKept = true;  // all of it
    if (out.affine) {
        out.area = keptArea(p.data(), g.data(), nv, level);
        out.penetratingArea = keptArea(p.data(), g.data(), nv, 0.0, true);
        keepRange(g.data(), nv, level, any, out.gapMin, out.gapMax);
        for (int i = 0; i < nv; ++i) {
            allKept = allKept && g[i] <= level;
        }
    } else {
        // The faces lie within e_s, e_m of their corner planes: the gap is within
        // E = 2 (e_s / |n . n_s| + e_m / |n . n_m|) of the affine gap between those planes (along
        // the plane normal n, factor 2 for the tilt of the faces' normals), so within 2 E of the
        // vertices' gap range over the whole polygon. Where that keeps both levels outside, the
        // polygon is kept whole or not at all.
        const Flatness fs = flatness(s);
        const Flatness fm = flatness(m);
        const double cs = std::abs(polygon.normal.dot(fs.normal));
        const double cm = std::abs(polygon.normal.dot(fm.normal));
        if (cs > 0.5 && cm > 0.5) {
            const double e = 4.0 * (fs.deviation / cs + fm.deviation / cm);
            const double lo = *std::min_element(g.begin(), g.begin() + nv) - e;
            const double hi = *std::max_element(g.begin(), g.begin() + nv) + e;
            if ((level < lo || level > hi) && (0.0 < lo || 0.0 > hi)) {
                out.area = hi < level ? polygon.area : 0.0;
                out.penetratingArea = hi < 0.0 ? polygon.area : 0.0;
                out.gapMin = out.area > 0.0 ? lo + e : 0.0;
                out.gapMax = out.area > 0.0 ? hi - e : 0.0;
                return out;
            }
        }
        // Fan from the centroid; grid point (u, v) of fan triangle (hub, a, b) at
        // hub + (u / n) (a - hub) + (v / n) (b - hub), u + v <= n.
        const int n = std::clamp(subdivisions, 1, kMaxCutSubdivisions);
        constexpr int kGrid = (kMaxCutSubdivisions + 1) * (kMaxCutSubdivisions + 2) / 2;
        const auto id = [n](int u, int v) { return u * (n + 1) - u * (u - 1) / 2 + v; };
        const Vector3d hub3 = polygon.centroid - c0;
        const Vector2d hub(hub3.dot(pl.e1), hub3.dot(pl.e2));
        Vector2d hubXiS = Vector2d::Zero();
        Vector2d hubXiM = Vector2d::Zero();
        for (int i = 0; i < nv; ++i) {
            hubXiS += polygon.vertices[i].xiSlave / nv;
            hubXiM += polygon.vertices[i].xiMaster / nv;
        }
        hubXiS = backProject(bs, hub3, pl, hubXiS);
        hubXiM = backProject(bm, hub3, pl, hubXiM);
        const double hubGap = faceGap(s, hubXiS, m, hubXiM);
        std::array<Vector2d, kGrid> q{};
        std::array<double, kGrid> gq{};
        for (int i = 0; i < nv; ++i) {
            const OverlapVertex& a = polygon.vertices[i];
            const OverlapVertex& b = polygon.vertices[(i + 1) % nv];
            const Vector2d pa = p[i];
            const Vector2d pb = p[(i + 1) % nv];
            // The gap at hub + wa (a - hub) + wb (b - hub).
            const auto gapAt = [&](double wa, double wb) {
                const double wh = 1.0 - wa - wb;
                const Vector2d q2 = wh * hub + wa * pa + wb * pb;
                const Vector3d x = q2.x() * pl.e1 + q2.y() * pl.e2;
                const Vector2d xs =
                    backProject(bs, x, pl, wh * hubXiS + wa * a.xiSlave + wb * b.xiSlave);
                const Vector2d xm =
                    backProject(bm, x, pl, wh * hubXiM + wa * a.xiMaster + wb * b.xiMaster);
                return faceGap(s, xs, m, xm);
            };
            // First the whole fan triangle, from its corners and edge midpoints: where neither
            // level can cross it (its gap range widened by 4x the midpoints' second differences,
            // the full edges' ones), it is kept whole or not at all, and not refined.
            {
                const double gm[3] = {gapAt(0.5, 0.0), gapAt(0.0, 0.5), gapAt(0.5, 0.5)};
                const double g6[6] = {hubGap, a.gap, b.gap, gm[0], gm[1], gm[2]};
                const double coarse = 4.0 * std::max({std::abs(hubGap - 2.0 * gm[0] + a.gap),
                                                      std::abs(hubGap - 2.0 * gm[1] + b.gap),
                                                      std::abs(a.gap - 2.0 * gm[2] + b.gap)});
                const double lo = *std::min_element(g6, g6 + 6);
                const double hi = *std::max_element(g6, g6 + 6);
                const bool levelOut = level < lo - coarse || level > hi + coarse;
                const bool zeroOut = 0.0 < lo - coarse || 0.0 > hi + coarse;
                if (levelOut && zeroOut) {
                    const double fan = 0.5 * cross2(pa - hub, pb - hub);
                    out.area += hi + coarse < level ? fan : 0.0;
                    out.penetratingArea += hi + coarse < 0.0 ? fan : 0.0;
                    keepRange(g6, hi + coarse < level ? 6 : 0, level, any, out.gapMin, out.gapMax);
                    allKept = allKept && hi + coarse < level;
                    continue;
                }
            }
            for (int u = 0; u <= n; ++u) {
                for (int v = 0; u + v <= n; ++v) {
                    const double wa = double(u) / n;
                    const double wb = double(v) / n;
                    const int k = id(u, v);
                    q[k] = (1.0 - wa - wb) * hub + wa * pa + wb * pb;
                    gq[k] = u == n               ? a.gap
                            : v == n             ? b.gap
                            : (u == 0 && v == 0) ? hubGap
                                                 : gapAt(wa, wb);
                }
            }
            // Largest second difference along the three grid directions.
            double widen = 0.0;
            for (int u = 0; u <= n; ++u) {
                for (int v = 0; u + v <= n; ++v) {
                    const double c = 2.0 * gq[id(u, v)];
                    if (u >= 1 && u + v + 1 <= n) {
                        widen = std::max(widen, std::abs(gq[id(u - 1, v)] - c + gq[id(u + 1, v)]));
                    }
                    if (v >= 1 && u + v + 1 <= n) {
                        widen = std::max(widen, std::abs(gq[id(u, v - 1)] - c + gq[id(u, v + 1)]));
                    }
                    if (u >= 1 && v >= 1) {
                        widen = std::max(widen,
                                         std::abs(gq[id(u - 1, v + 1)] - c + gq[id(u + 1, v - 1)]));
                    }
                }
            }
            const double cell = 0.5 * cross2(pa - hub, pb - hub) / (n * n);
            const auto addCell = [&](int k0, int k1, int k2) {
                const Vector2d tp[3] = {q[k0], q[k1], q[k2]};
                const double tg[3] = {gq[k0], gq[k1], gq[k2]};
                const double lo = std::min({tg[0], tg[1], tg[2]});
                const double hi = std::max({tg[0], tg[1], tg[2]});
                out.area += keptArea(tp, tg, 3, level);
                out.penetratingArea += keptArea(tp, tg, 3, 0.0, true);
                out.areaError += misplaced(cell, lo, hi, widen, level, 2.0);
                out.penetratingAreaError += misplaced(cell, lo, hi, widen, 0.0, 2.0);
                keepRange(tg, 3, level, any, out.gapMin, out.gapMax);
                allKept = allKept && hi <= level;
            };
            for (int u = 0; u < n; ++u) {
                for (int v = 0; u + v < n; ++v) {
                    addCell(id(u, v), id(u + 1, v), id(u, v + 1));
                    if (u + v + 2 <= n) {
                        addCell(id(u + 1, v), id(u + 1, v + 1), id(u, v + 1));
                    }
                }
            }
        }
    }
    if (!any) {
        out.area = 0.0;
        out.gapMin = out.gapMax = 0.0;
    } else if (!allKept) {
        out.gapMax = level;  // the cut's points lie on gap = level
    }
    out.area = allKept ? polygon.area : std::min(out.area, polygon.area);
    out.penetratingArea = std::min(out.penetratingArea, polygon.area);
    return out;
}

OverlapCut2d cutOverlap2d(const SegmentClip2d& clip, const SegmentNodes& slave,
                          const SegmentNodes& master, double level, int subdivisions) noexcept {
    OverlapCut2d out;
    if (clip.status != ClipStatus::kOverlap && clip.status != ClipStatus::kBeyondCapture) {
        return out;
    }
    const Vector3d origin = master.x[0];
    const SegmentNodes s = shifted(slave, origin);
    const SegmentNodes m = shifted(master, origin);
    out.affine = isFlatFace(slave) && isFlatFace(master);
    const int n = out.affine ? 1 : std::clamp(subdivisions, 1, kMaxCutSubdivisions);
    // Samples t_k = lo + (hi - lo) k / n along the slave, with their projections on the master.
    struct Sample {
        double t = 0.0;
        double xiM = 0.0;
        double gap = 0.0;
    };
    const auto at = [&](double t, double xiM) {
        const Vector3d xs = lineAt(s, t).x;
        const SegmentFrame f = segmentFrame(m, Vector2d(xiM, 0.0));
        return Sample{t, xiM, (xs - f.point).dot(f.normal)};
    };
    const auto project = [&](double t) {
        return std::clamp(projectOnLine(m, lineAt(s, t).x), -1.0, 1.0);
    };
    const double lo = clip.xiSlaveRange[0];
    const double hi = clip.xiSlaveRange[1];
    std::array<Sample, kMaxCutSubdivisions + 1> smp{};
    for (int k = 0; k <= n; ++k) {
        const double t = k == n ? hi : lo + (hi - lo) * k / n;
        const double xiM = k == 0   ? clip.xiMasterRange[0]
                           : k == n ? clip.xiMasterRange[1]
                                    : project(t);
        smp[k] = at(t, xiM);
    }
    double widen = 0.0;
    for (int k = 1; k < n; ++k) {
        widen = std::max(widen, std::abs(smp[k - 1].gap - 2.0 * smp[k].gap + smp[k + 1].gap));
    }
    // The kept part of piece [a, b] where the gap, linear in t, is at most lev (strict: below it):
    // its two ends.
    const auto kept = [&](const Sample& a, const Sample& b, double lev, bool strict, Sample& ka,
                          Sample& kb) {
        const bool inA = strict ? a.gap < lev : a.gap <= lev;
        const bool inB = strict ? b.gap < lev : b.gap <= lev;
        if (!inA && !inB) {
            return false;
        }
        ka = a;
        kb = b;
        if (inA != inB) {
            const double t = a.t + (b.t - a.t) * ((lev - a.gap) / (b.gap - a.gap));
            Sample& cut = inA ? kb : ka;
            cut = at(t,
                     out.affine ? a.xiM + (b.xiM - a.xiM) * ((t - a.t) / (b.t - a.t)) : project(t));
            cut.gap = lev;
        }
        return true;
    };
    bool any = false;
    Sample first;
    Sample last;
    for (int k = 0; k < n; ++k) {
        const Sample& a = smp[k];
        const Sample& b = smp[k + 1];
        Sample ka;
        Sample kb;
        if (kept(a, b, level, false, ka, kb)) {
            out.length += arcLength(m, ka.xiM, kb.xiM);
            out.gapMin = any ? std::min({out.gapMin, ka.gap, kb.gap}) : std::min(ka.gap, kb.gap);
            out.gapMax = any ? std::max({out.gapMax, ka.gap, kb.gap}) : std::max(ka.gap, kb.gap);
            first = any ? first : ka;
            last = kb;
            any = true;
        }
        if (kept(a, b, 0.0, true, ka, kb)) {
            out.penetratingLength += arcLength(m, ka.xiM, kb.xiM);
        }
        if (!out.affine) {
            const double glo = std::min(a.gap, b.gap);
            const double ghi = std::max(a.gap, b.gap);
            const double piece = arcLength(m, a.xiM, b.xiM);
            out.lengthError += misplaced(piece, glo, ghi, widen, level, 1.0);
            out.penetratingLengthError += misplaced(piece, glo, ghi, widen, 0.0, 1.0);
        }
    }
    out.penetratingLength = std::min(out.penetratingLength, clip.overlapLength);
    if (!any) {
        return out;
    }
    if (smp[0].gap <= level && smp[n].gap <= level && out.length >= clip.overlapLength) {
        out.length = clip.overlapLength;
    }
    out.length = std::min(out.length, clip.overlapLength);
    const Sample ends[2] = {first, last};
    for (int j = 0; j < 2; ++j) {
        ClipPoint2d& e = out.ends[j];
        const SegmentFrame f = segmentFrame(m, Vector2d(ends[j].xiM, 0.0));
        e.xiSlave = ends[j].t;
        e.xiMaster = ends[j].xiM;
        e.slavePoint = lineAt(s, ends[j].t).x + origin;
        e.masterPoint = f.point + origin;
        e.normal = f.normal;
        e.gap = ends[j].gap;
    }
    out.count = 2;
    return out;
}

}  // namespace contact
