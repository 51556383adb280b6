// SPDX-License-Identifier: MIT
// The contract of SearchOptions::warmStart, as the tests check it: against a fresh search (or the
// reference), the same pairs (slave, master) in the same order, and for every pair
//   |xi - xi'|_inf <= kWarmTol                       (reference coordinates: a domain 1 or 2 wide)
//   |gap - gap'|, |distance - distance'| <= kWarmTol x max(L, distance)
//                                       (L: the master segment's characteristicSize)
//   |point - point'|_inf <= kWarmTol x max(L, distance) + 2 ulp of |point|_inf (the point is the
//                           segment's node 0 plus an offset, rounded once at the coordinates')
//   |normal - normal'|_inf, |tangent - tangent'|_inf, |N - N'|_inf <= kWarmTol
//   the same status.
#pragma once

#include "contact/pairs.hpp"
#include "contact/projection.hpp"
#include "contact/segment.hpp"
#include "contact/surface.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace contact::testing {

inline constexpr double kWarmTol = 1e-12;

/// The largest difference of two projections in the measure above (lengths over `length`).
inline double warmError(const Projection& a, const Projection& b, double length) {
    const auto inf = [](const auto& v) { return v.cwiseAbs().maxCoeff(); };
    double e = inf(a.xi - b.xi);
    const double ulps = 2.0 * std::numeric_limits<double>::epsilon() * inf(b.point);
    e = std::max({e, std::abs(a.gap - b.gap) / length, std::abs(a.distance - b.distance) / length,
                  std::max(0.0, inf(a.point - b.point) - ulps) / length});
    e = std::max(
        {e, inf(a.normal - b.normal), inf(a.tangent1 - b.tangent1), inf(a.tangent2 - b.tangent2)});
    for (std::size_t i = 0; i < a.N.size(); ++i) {
        e = std::max(e, std::abs(a.N[i] - b.N[i]));
    }
    return e;
}

/// Pair column i of `p` as a Projection.
inline Projection pairAt(const NodePairs& p, Index i) {
    Projection pr;
    pr.xi = p.xi().col(i);
    pr.point = p.point().col(i);
    pr.distance = p.distance()[i];
    pr.gap = p.gap()[i];
    pr.normal = p.normal().col(i);
    pr.tangent1 = p.tangent1().col(i);
    pr.tangent2 = p.tangent2().col(i);
    for (int k = 0; k < kMaxSegmentNodes; ++k) {
        pr.N[static_cast<std::size_t>(k)] = p.shape()(k, i);
    }
    pr.status = p.status()[i];
    return pr;
}

/// The contract above, `warm` against `fresh` (master: the surface both searched, at x). Returns
/// how many pairs differ from the fresh ones in some bit (where the warm path ran).
inline int expectWithinWarmBound(const NodePairs& warm, const NodePairs& fresh,
                                 const Surface& master, const CoordinatesView& x) {
    EXPECT_EQ(warm.size(), fresh.size());
    int differing = 0;
    for (Index i = 0; i < std::min(warm.size(), fresh.size()); ++i) {
        EXPECT_EQ(warm.slave()[i], fresh.slave()[i]) << "pair " << i;
        EXPECT_EQ(warm.master()[i], fresh.master()[i])
            << "pair " << i << ", slave " << warm.slave()[i];
        if (warm.master()[i] != fresh.master()[i]) {
            continue;
        }
        const Projection a = pairAt(warm, i);
        const Projection b = pairAt(fresh, i);
        const double length =
            std::max(characteristicSize(gatherSegment(master, warm.master()[i], x)), b.distance);
        const double e = warmError(a, b, length);
        EXPECT_LE(e, kWarmTol) << "pair " << i << ", slave " << warm.slave()[i];
        EXPECT_EQ(a.status, b.status) << "pair " << i;
        differing += e > 0.0 ? 1 : 0;
    }
    return differing;
}

}  // namespace contact::testing
