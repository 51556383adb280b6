// SPDX-License-Identifier: MIT
// The shape check of a segment: header-only, so that contact_mpi (a library of its own, which
// sees none of contact's hidden symbols) runs the same test as the search.
#pragma once

#include "contact/segment.hpp"
#include "contact/tolerances.hpp"
#include "contact/types.hpp"

#include "detail/assert.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <limits>

namespace contact::detail {

/// shapeFault: what makes a segment degenerate, in the order checkSegments names it: kShapeOk,
/// kZeroSize (its corners at one point), kNoCentreNormal, or the corner (0-based) where it
/// collapses or folds (no normal there, or one opposite the centre's). "No normal" is
/// segmentFrame()'s: a Jacobian at most tol::kDegenerateJacobianRel of the node spread to the
/// parametric dimension. The one test of setSurfaces, the reference and update(), which runs it
/// on every segment it makes a box for: only the Jacobians are formed (up to a positive factor),
/// of the linear types in closed form, of the curved ones from a table of the nonzero derivatives
/// of their shape functions at the centre and the corners.
inline constexpr int kShapeOk = -1;
inline constexpr int kZeroSize = -2;
inline constexpr int kNoCentreNormal = -3;

namespace shape_fault {

// The nonzero terms of a derivative of the shape functions at one point: sum_k w[k] x[node[k]],
// padded with zero weights (on node 0) to kMaxTerms, the most any curved type has (Tri6 at its
// centre, where two of the five are rounding: 4.4e-16).
inline constexpr int kMaxTerms = 5;
struct DerivativeTerms {
    std::array<int, kMaxTerms> node{};
    std::array<double, kMaxTerms> w{};
};
// Per curved segment type, d/dxi and d/deta at the centre ([0]) and at corner c ([1 + c]), and
// the most terms any of them has.
struct ShapeTable {
    std::array<DerivativeTerms, 5> dXi;
    std::array<DerivativeTerms, 5> dEta;
    int terms = 0;
};

inline DerivativeTerms termsOf(SegmentType t, const std::array<double, kMaxSegmentNodes>& d,
                               int& most) {
    DerivativeTerms terms;
    int count = 0;
    for (int i = 0; i < nodeCount(t); ++i) {
        if (d[i] != 0.0) {
            if (count < kMaxTerms) {  // else curvedShapeFault asserts
                terms.node[count] = i;
                terms.w[count] = d[i];
            }
            ++count;
        }
    }
    most = std::max(most, count);
    return terms;
}

inline constexpr int kTypes = static_cast<int>(SegmentType::Quad9) + 1;

inline const ShapeTable& shapeTable(SegmentType t) noexcept {
    static const std::array<ShapeTable, kTypes> tables = [] {
        std::array<ShapeTable, kTypes> all;
        for (int k = 0; k < kTypes; ++k) {
            const auto type = static_cast<SegmentType>(k);
            for (int p = 0; p <= cornerCount(type); ++p) {
                const ShapeGradients f = shapeGradients(
                    type, p == 0 ? referenceCentre(type) : nodeLocalCoordinates(type, p - 1));
                all[k].dXi[p] = termsOf(type, f.dXi, all[k].terms);
                all[k].dEta[p] = termsOf(type, f.dEta, all[k].terms);
            }
        }
        return all;
    }();
    return tables[static_cast<int>(t)];
}

// The first kTerms terms of d (the others are zero for the type).
template <int kTerms>
Eigen::Vector3d derivative(const DerivativeTerms& d,
                           const std::array<Eigen::Vector3d, kMaxSegmentNodes>& x) noexcept {
    Eigen::Vector3d sum = d.w[0] * x[d.node[0]];
    for (int k = 1; k < kTerms; ++k) {
        sum += d.w[k] * x[d.node[k]];
    }
    return sum;
}

// shapeFault's verdict from the normal (any positive multiple of it) at the centre, kc, and at
// each corner, k[c]: with `floor` the Jacobian below which there is none, times the same multiple.
// Squares where floor^2 is a normal double (segments larger than about 1e-70), else norms. The
// common case, a good segment, in one pass without branches.
template <int kCorners>
inline int shapeVerdict(const Eigen::Vector3d& kc, const std::array<Eigen::Vector3d, kCorners>& k,
                        double floor) noexcept {
    const double floor2 = floor * floor;
    const bool squares = floor2 >= std::numeric_limits<double>::min();
    bool good = kc.squaredNorm() > floor2;
    for (int c = 0; c < kCorners; ++c) {
        good &= k[c].squaredNorm() > floor2;
        good &= k[c].dot(kc) > 0.0;
    }
    if (good && squares) {
        return kShapeOk;
    }
    const auto hasNormal = [&](const Eigen::Vector3d& n) {
        return squares ? n.squaredNorm() > floor2 : n.norm() > floor;
    };
    if (!hasNormal(kc)) {
        return kNoCentreNormal;
    }
    for (int c = 0; c < kCorners; ++c) {
        if (!hasNormal(k[c]) || !(k[c].dot(kc) > 0.0)) {
            return c;
        }
    }
    return kShapeOk;
}

// Curved segments: the Jacobians from the table of shape function derivatives.
template <int kCorners, int kTerms>
int curvedShapeFault(const SegmentNodes& seg, double floor) noexcept {
    const ShapeTable& table = shapeTable(seg.type);
    CONTACT_ASSERT(table.terms <= kTerms);
    // A line (2 corners): its normal is its tangent turned a right angle, and their dot products
    // agree.
    const auto normal = [&](int p) -> Eigen::Vector3d {
        const Eigen::Vector3d dXi = derivative<kTerms>(table.dXi[p], seg.x);
        return kCorners == 2 ? dXi : dXi.cross(derivative<kTerms>(table.dEta[p], seg.x));
    };
    std::array<Eigen::Vector3d, kCorners> k;
    for (int c = 0; c < kCorners; ++c) {
        k[c] = normal(1 + c);
    }
    return shapeVerdict<kCorners>(normal(0), k, floor);
}

}  // namespace shape_fault

[[nodiscard]] inline int shapeFault(const SegmentNodes& seg) noexcept {
    const SegmentType t = seg.type;
    const std::array<Eigen::Vector3d, kMaxSegmentNodes>& x = seg.x;
    const int corners = cornerCount(t);
    double spread = 0.0;  // segmentFrame()'s length scale
    for (int i = 1; i < corners; ++i) {
        spread = std::max(spread, (x[i] - x[0]).cwiseAbs().maxCoeff());
    }
    if (!(spread > 0.0)) {
        return kZeroSize;
    }
    const double floor = tol::kDegenerateJacobianRel * spread;
    switch (t) {
    case SegmentType::Line2:  // dx/dxi = (x1 - x0) / 2 everywhere
        return shape_fault::shapeVerdict<0>(x[1] - x[0], {}, 2.0 * floor);
    case SegmentType::Tri3:  // one normal everywhere
        return shape_fault::shapeVerdict<0>((x[1] - x[0]).cross(x[2] - x[0]), {}, floor * spread);
    case SegmentType::Quad4: {
        // dx/dxi is half an edge at each corner: 4 x the Jacobian is the cross product of the two
        // edges there; at the centre 16 x it is their sum.
        const Eigen::Vector3d bottom = x[1] - x[0];
        const Eigen::Vector3d top = x[2] - x[3];
        const Eigen::Vector3d left = x[3] - x[0];
        const Eigen::Vector3d right = x[2] - x[1];
        const std::array<Eigen::Vector3d, 4> k = {bottom.cross(left), bottom.cross(right),
                                                  top.cross(right), top.cross(left)};
        const Eigen::Vector3d centre = 0.25 * (k[0] + k[1] + k[2] + k[3]);
        return shape_fault::shapeVerdict<4>(centre, k, 4.0 * floor * spread);
    }
    case SegmentType::Line3: return shape_fault::curvedShapeFault<2, 3>(seg, floor);
    case SegmentType::Tri6: return shape_fault::curvedShapeFault<3, 5>(seg, floor * spread);
    case SegmentType::Quad8:
    case SegmentType::Quad9: return shape_fault::curvedShapeFault<4, 3>(seg, floor * spread);
    }
    return kZeroSize;  // no SegmentType
}

}  // namespace contact::detail
