// SPDX-License-Identifier: MIT
#include "contact/segment.hpp"

#include "contact/tolerances.hpp"

#include <algorithm>
#include <cmath>

namespace contact {
namespace {

// 1D quadratic Lagrange basis on nodes s = -1, 0, 1 (index 0, 1, 2), with derivatives.
struct Lagrange1d {
    double l[3];
    double d[3];
    double dd[3];
};

Lagrange1d lagrange1d(double s) noexcept {
    return {{0.5 * s * (s - 1.0), 1.0 - s * s, 0.5 * s * (s + 1.0)},
            {s - 0.5, -2.0 * s, s + 0.5},
            {1.0, -2.0, 1.0}};
}

// Quad9 node i sits at grid position (kQ9a[i], kQ9b[i]) of the 3x3 tensor grid (0: -1, 1: 0, 2: 1).
constexpr int kQ9a[9] = {0, 2, 2, 0, 1, 2, 1, 0, 1};
constexpr int kQ9b[9] = {0, 0, 2, 2, 0, 1, 2, 1, 1};
constexpr double kQuadXi[4] = {-1.0, 1.0, 1.0, -1.0};
constexpr double kQuadEta[4] = {-1.0, -1.0, 1.0, 1.0};

// kOrder 0: the values N alone, 1: and the first derivatives, 2: and the second (F: a struct
// with the arrays of that order). N, and the first derivatives, come from the same arithmetic
// at every order, bit for bit.
template <int kOrder, class F>
void quad9(double xi, double eta, F& f) noexcept {
    const Lagrange1d a = lagrange1d(xi);
    const Lagrange1d b = lagrange1d(eta);
    for (int i = 0; i < 9; ++i) {
        const int ia = kQ9a[i];
        const int ib = kQ9b[i];
        f.N[i] = a.l[ia] * b.l[ib];
        if constexpr (kOrder >= 1) {
            f.dXi[i] = a.d[ia] * b.l[ib];
            f.dEta[i] = a.l[ia] * b.d[ib];
        }
        if constexpr (kOrder >= 2) {
            f.dXiXi[i] = a.dd[ia] * b.l[ib];
            f.dXiEta[i] = a.d[ia] * b.d[ib];
            f.dEtaEta[i] = a.l[ia] * b.dd[ib];
        }
    }
}

// Serendipity Quad8 = Quad9 whose centre node is x(0,0) = -1/4 sum(corners) + 1/2 sum(midsides),
// so N8_i = N9_i + c_i N9_centre. Exact: the serendipity space lies inside the biquadratic one.
// quad9's products, the centre's kept in registers: reading them back from quad9's scalar
// stores as pairs stalled (half of shapeValues on a Quad8).
template <int kOrder, class F>
void quad8(double xi, double eta, F& f) noexcept {
    const Lagrange1d a = lagrange1d(xi);
    const Lagrange1d b = lagrange1d(eta);
    const double n = a.l[1] * b.l[1];  // the centre node's (grid position 1, 1)
    const double nXi = a.d[1] * b.l[1];
    const double nEta = a.l[1] * b.d[1];
    const double nXiXi = a.dd[1] * b.l[1];
    const double nXiEta = a.d[1] * b.d[1];
    const double nEtaEta = a.l[1] * b.dd[1];
    for (int i = 0; i < 8; ++i) {
        const int ia = kQ9a[i];
        const int ib = kQ9b[i];
        const double c = i < 4 ? -0.25 : 0.5;
        f.N[i] = a.l[ia] * b.l[ib] + c * n;
        if constexpr (kOrder >= 1) {
            f.dXi[i] = a.d[ia] * b.l[ib] + c * nXi;
            f.dEta[i] = a.l[ia] * b.d[ib] + c * nEta;
        }
        if constexpr (kOrder >= 2) {
            f.dXiXi[i] = a.dd[ia] * b.l[ib] + c * nXiXi;
            f.dXiEta[i] = a.d[ia] * b.d[ib] + c * nXiEta;
            f.dEtaEta[i] = a.l[ia] * b.dd[ib] + c * nEtaEta;
        }
    }
    f.N[8] = 0.0;
    if constexpr (kOrder >= 1) {
        f.dXi[8] = f.dEta[8] = 0.0;
    }
    if constexpr (kOrder >= 2) {
        f.dXiXi[8] = f.dXiEta[8] = f.dEtaEta[8] = 0.0;
    }
}

template <int kOrder, class F>
void tri6(double xi, double eta, F& f) noexcept {
    const double l1 = 1.0 - xi - eta;
    const double l2 = xi;
    const double l3 = eta;
    f.N = {l1 * (2 * l1 - 1), l2 * (2 * l2 - 1), l3 * (2 * l3 - 1),
           4 * l1 * l2,       4 * l2 * l3,       4 * l3 * l1};
    if constexpr (kOrder >= 1) {
        f.dXi = {-(4 * l1 - 1), 4 * l2 - 1, 0.0, 4 * (l1 - l2), 4 * l3, -4 * l3};
        f.dEta = {-(4 * l1 - 1), 0.0, 4 * l3 - 1, -4 * l2, 4 * l2, 4 * (l1 - l3)};
    }
    if constexpr (kOrder >= 2) {
        f.dXiXi = {4, 4, 0, -8, 0, 0};
        f.dXiEta = {4, 0, 0, -4, 4, -4};
        f.dEtaEta = {4, 0, 4, 0, 0, -8};
    }
}

// Largest coordinate difference between the first corner and the others: a cheap length scale.
double nodeSpread(const SegmentNodes& s) noexcept {
    double spread = 0.0;
    const int nc = cornerCount(s.type);
    for (int i = 1; i < nc; ++i) {
        spread = std::max(spread, (s.x[i] - s.x[0]).cwiseAbs().maxCoeff());
    }
    return spread;
}

// The values N alone (order 0).
struct ShapeValues {
    std::array<double, kMaxSegmentNodes> N{};
};

template <int kOrder, class F>
F shapeFunctionsOf(SegmentType type, const Eigen::Vector2d& xi) noexcept {
    F f;
    const double s = xi[0];
    const double t = xi[1];
    switch (type) {
    case SegmentType::Line2:
        f.N[0] = 0.5 * (1.0 - s);
        f.N[1] = 0.5 * (1.0 + s);
        if constexpr (kOrder >= 1) {
            f.dXi[0] = -0.5;
            f.dXi[1] = 0.5;
        }
        break;
    case SegmentType::Line3: {
        const Lagrange1d a = lagrange1d(s);
        // Node order: end at -1, end at +1, midside at 0.
        f.N = {a.l[0], a.l[2], a.l[1]};
        if constexpr (kOrder >= 1) {
            f.dXi = {a.d[0], a.d[2], a.d[1]};
        }
        if constexpr (kOrder >= 2) {
            f.dXiXi = {a.dd[0], a.dd[2], a.dd[1]};
        }
        break;
    }
    case SegmentType::Tri3:
        f.N = {1.0 - s - t, s, t};
        if constexpr (kOrder >= 1) {
            f.dXi = {-1.0, 1.0, 0.0};
            f.dEta = {-1.0, 0.0, 1.0};
        }
        break;
    case SegmentType::Tri6: tri6<kOrder>(s, t, f); break;
    case SegmentType::Quad4:
        for (int i = 0; i < 4; ++i) {
            const double a = 1.0 + kQuadXi[i] * s;
            const double b = 1.0 + kQuadEta[i] * t;
            f.N[i] = 0.25 * a * b;
            if constexpr (kOrder >= 1) {
                f.dXi[i] = 0.25 * kQuadXi[i] * b;
                f.dEta[i] = 0.25 * kQuadEta[i] * a;
            }
            if constexpr (kOrder >= 2) {
                f.dXiEta[i] = 0.25 * kQuadXi[i] * kQuadEta[i];
            }
        }
        break;
    case SegmentType::Quad8: quad8<kOrder>(s, t, f); break;
    case SegmentType::Quad9: quad9<kOrder>(s, t, f); break;
    }
    return f;
}

}  // namespace

ShapeFunctions shapeFunctions(SegmentType type, const Eigen::Vector2d& xi) noexcept {
    return shapeFunctionsOf<2, ShapeFunctions>(type, xi);
}

ShapeGradients shapeGradients(SegmentType type, const Eigen::Vector2d& xi) noexcept {
    return shapeFunctionsOf<1, ShapeGradients>(type, xi);
}

std::array<double, kMaxSegmentNodes> shapeValues(SegmentType type,
                                                 const Eigen::Vector2d& xi) noexcept {
    return shapeFunctionsOf<0, ShapeValues>(type, xi).N;
}

Eigen::Vector3d position(const SegmentNodes& s, const Eigen::Vector2d& xi) noexcept {
    const std::array<double, kMaxSegmentNodes> N = shapeValues(s.type, xi);
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    const int n = nodeCount(s.type);
    for (int i = 0; i < n; ++i) {
        x += N[i] * s.x[i];
    }
    return x;
}

SegmentFrame segmentFrame(const SegmentNodes& s, const Eigen::Vector2d& xi) noexcept {
    // Computed in locals and stored once at the end: building the result in place made the
    // compiler read back parts of vectors it had just written element by element (store-forwarding
    // stalls on the search's hot path).
    const double u = xi[0];
    const double v = xi[1];
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    Eigen::Vector3d dXi = Eigen::Vector3d::Zero();
    Eigen::Vector3d dEta = Eigen::Vector3d::Zero();
    switch (s.type) {  // linear segments in closed form: the hot path of the search
    case SegmentType::Line2:
        point = 0.5 * ((1.0 - u) * s.x[0] + (1.0 + u) * s.x[1]);
        dXi = 0.5 * (s.x[1] - s.x[0]);
        break;
    case SegmentType::Tri3:
        point = (1.0 - u - v) * s.x[0] + u * s.x[1] + v * s.x[2];
        dXi = s.x[1] - s.x[0];
        dEta = s.x[2] - s.x[0];
        break;
    case SegmentType::Quad4: {
        const Eigen::Vector3d a = s.x[1] - s.x[0];  // edge 0-1 (eta = -1)
        const Eigen::Vector3d b = s.x[2] - s.x[3];  // edge 3-2 (eta = +1)
        const Eigen::Vector3d c = s.x[3] - s.x[0];  // edge 0-3 (xi = -1)
        const Eigen::Vector3d d = s.x[2] - s.x[1];  // edge 1-2 (xi = +1)
        dXi = 0.25 * ((1.0 - v) * a + (1.0 + v) * b);
        dEta = 0.25 * ((1.0 - u) * c + (1.0 + u) * d);
        point = 0.25 * ((1.0 - u) * (1.0 - v) * s.x[0] + (1.0 + u) * (1.0 - v) * s.x[1] +
                        (1.0 + u) * (1.0 + v) * s.x[2] + (1.0 - u) * (1.0 + v) * s.x[3]);
        break;
    }
    case SegmentType::Line3:
    case SegmentType::Tri6:
    case SegmentType::Quad8:
    case SegmentType::Quad9: {
        const ShapeGradients f = shapeGradients(s.type, xi);
        for (int i = 0; i < nodeCount(s.type); ++i) {
            point += f.N[i] * s.x[i];
            dXi += f.dXi[i] * s.x[i];
            dEta += f.dEta[i] * s.x[i];
        }
        break;
    }
    }
    SegmentFrame fr;
    fr.point = point;
    fr.dXi = dXi;
    fr.dEta = dEta;
    const double spread = nodeSpread(s);
    Eigen::Vector3d normal;
    Eigen::Vector3d tangent1;
    if (parametricDim(s.type) == 1) {
        const double jacobian = dXi.norm();
        fr.jacobian = jacobian;
        if (!(jacobian > tol::kDegenerateJacobianRel * spread)) {
            return fr;
        }
        tangent1 = dXi / jacobian;
        normal = Eigen::Vector3d(tangent1.y(), -tangent1.x(), 0.0);
    } else {
        const Eigen::Vector3d c = dXi.cross(dEta);
        const double jacobian = c.norm();
        fr.jacobian = jacobian;
        if (!(jacobian > tol::kDegenerateJacobianRel * spread * spread)) {
            return fr;
        }
        normal = c / jacobian;
        tangent1 = dXi.normalized();
    }
    fr.normal = normal;
    fr.tangent1 = tangent1;
    fr.tangent2 = normal.cross(tangent1);
    fr.degenerate = false;
    return fr;
}

Eigen::Vector3d outwardNormal(const SegmentNodes& s, const Eigen::Vector2d& xi) noexcept {
    return segmentFrame(s, xi).normal;
}

double characteristicSize(const SegmentNodes& s) noexcept {
    const int nc = cornerCount(s.type);
    if (nc == 2) {
        return (s.x[1] - s.x[0]).norm();
    }
    double sum = 0.0;
    for (int i = 0; i < nc; ++i) {
        sum += (s.x[(i + 1) % nc] - s.x[i]).norm();
    }
    return sum / nc;
}

ControlPoints controlPoints(const SegmentNodes& s) noexcept {
    ControlPoints cp;
    const auto lift = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                         const Eigen::Vector3d& m) -> Eigen::Vector3d {
        return 2.0 * m - 0.5 * (a + b);
    };
    switch (s.type) {
    case SegmentType::Line2:
    case SegmentType::Tri3:
    case SegmentType::Quad4:
        cp.count = nodeCount(s.type);
        for (int i = 0; i < cp.count; ++i) {
            cp.p[i] = s.x[i];
        }
        break;
    case SegmentType::Line3:
        cp.count = 3;
        cp.p[0] = s.x[0];
        cp.p[1] = s.x[1];
        cp.p[2] = lift(s.x[0], s.x[1], s.x[2]);
        break;
    case SegmentType::Tri6:
        cp.count = 6;
        for (int i = 0; i < 3; ++i) {
            cp.p[i] = s.x[i];
            cp.p[3 + i] = lift(s.x[i], s.x[(i + 1) % 3], s.x[3 + i]);
        }
        break;
    case SegmentType::Quad8:
    case SegmentType::Quad9: {
        // 3x3 grid of Lagrange nodes, g[a][b] at (xi, eta) = (a - 1, b - 1).
        Eigen::Vector3d g[3][3];
        for (int i = 0; i < 8; ++i) {
            g[kQ9a[i]][kQ9b[i]] = s.x[i];
        }
        if (s.type == SegmentType::Quad9) {
            g[1][1] = s.x[8];
        } else {
            g[1][1] = -0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3]) +
                      0.5 * (s.x[4] + s.x[5] + s.x[6] + s.x[7]);
        }
        // Lagrange -> Bezier, one direction after the other (the maps commute).
        for (int b = 0; b < 3; ++b) {
            g[1][b] = lift(g[0][b], g[2][b], g[1][b]);
        }
        for (auto& row : g) {
            row[1] = lift(row[0], row[2], row[1]);
        }
        cp.count = 9;
        int k = 0;
        for (auto& row : g) {
            for (const auto& p : row) {
                cp.p[k++] = p;
            }
        }
        break;
    }
    }
    return cp;
}

Eigen::Vector2d referenceCentre(SegmentType type) noexcept {
    return isTriangle(type) ? Eigen::Vector2d(1.0 / 3.0, 1.0 / 3.0) : Eigen::Vector2d::Zero();
}

bool inReferenceDomain(SegmentType type, const Eigen::Vector2d& xi, double tol) noexcept {
    if (parametricDim(type) == 1) {
        return std::abs(xi[0]) <= 1.0 + tol;
    }
    if (isTriangle(type)) {
        return xi[0] >= -tol && xi[1] >= -tol && xi[0] + xi[1] <= 1.0 + tol;
    }
    return std::abs(xi[0]) <= 1.0 + tol && std::abs(xi[1]) <= 1.0 + tol;
}

Eigen::Vector2d nodeLocalCoordinates(SegmentType type, int i) noexcept {
    switch (type) {
    case SegmentType::Line2:
    case SegmentType::Line3: {
        constexpr double kLine[3] = {-1.0, 1.0, 0.0};
        return {kLine[i], 0.0};
    }
    case SegmentType::Tri3:
    case SegmentType::Tri6: {
        constexpr double kTri[6][2] = {{0, 0}, {1, 0}, {0, 1}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}};
        return {kTri[i][0], kTri[i][1]};
    }
    case SegmentType::Quad4:
    case SegmentType::Quad8:
    case SegmentType::Quad9: return {kQ9a[i] - 1.0, kQ9b[i] - 1.0};
    }
    return Eigen::Vector2d::Zero();
}

}  // namespace contact
