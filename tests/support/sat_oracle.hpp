// SPDX-License-Identifier: MIT
// Slow, obviously correct twin of satDisjoint2d / satDisjoint3d: every axis built explicitly and
// normalized, every corner of both boxes projected onto it, no early exit.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <array>

namespace contact::testing {

/// Per-axis picture of a box pair. Axis numbering as in SatResult: 2D 0-1 faces of A, 2-3 faces
/// of B; 3D 0-2 faces of A, 3-5 faces of B, 6 + 3 i + j the edge pair A_i x B_j.
template <int N>
struct SatOracleResult {
    static constexpr int kAxes = N;
    bool separated = false;  ///< some axis has a positive gap (touching = overlap)
    /// Signed separation along the best axis: the largest gap over all valid axes. Positive: the
    /// boxes are apart by that much along it; negative: minus the smallest penetration.
    double margin = 0.0;
    int marginAxis = -1;  ///< the axis reaching `margin`
    /// Overlap of the two projections along each axis (= -gap); NaN where !valid.
    std::array<double, N> depth{};
    std::array<bool, N> valid{};     ///< false: zero axis (exactly parallel edges)
    std::array<bool, N> eligible{};  ///< may be the least-penetration axis (edge sine large enough)
    /// Unit axes, oriented from A to B (axis . (cB - cA) >= 0, kept as built where that is 0); zero
    /// where !valid. 2D axes have z = 0.
    std::array<Eigen::Vector3d, N> axis{};
    int leastAxis = -1;  ///< eligible axis of smallest depth, first one on ties
};
using SatOracle2d = SatOracleResult<4>;
using SatOracle3d = SatOracleResult<15>;

/// Oracle for rectangles: 4 face axes.
[[nodiscard]] SatOracle2d satOracle2d(const Obb2& a, const Obb2& b);

/// Oracle for boxes: 15 axes; edge axes whose cross product is exactly zero are skipped.
[[nodiscard]] SatOracle3d satOracle3d(const Obb3& a, const Obb3& b);

/// True when the least-penetration axis wins under the kernel's Box2D-Lite hysteresis whatever
/// the axis order: every other eligible axis k has
/// kSatRelativeTol * depth_k - kSatAbsoluteTol * hysteresisScale > depth_least + slack.
template <int N>
[[nodiscard]] bool leastAxisUnique(const SatOracleResult<N>& o, double hysteresisScale,
                                   double slack);

/// Scale of a pair as in the reference data: max of the largest |centre coordinate| and the
/// largest half extent.
[[nodiscard]] double pairScale(const Obb2& a, const Obb2& b);
[[nodiscard]] double pairScale(const Obb3& a, const Obb3& b);

/// Scale of the kernel's hysteresis: the smaller of the two boxes' largest half extents.
[[nodiscard]] double hysteresisScale(const Obb2& a, const Obb2& b);
[[nodiscard]] double hysteresisScale(const Obb3& a, const Obb3& b);

/// Corners c + sum_k (+-h_k) a_k; corner m takes +h_k where bit k of m is set.
[[nodiscard]] std::array<Eigen::Vector2d, 4> obbCorners(const Obb2& box);
[[nodiscard]] std::array<Eigen::Vector3d, 8> obbCorners(const Obb3& box);

/// True when |a_k . (p - c)| <= h_k + slack for every axis k (closed box grown by slack).
[[nodiscard]] bool obbContains(const Obb2& box, const Eigen::Vector2d& p, double slack);
[[nodiscard]] bool obbContains(const Obb3& box, const Eigen::Vector3d& p, double slack);

/// Closest point of the closed box to p (clamped in the box frame).
[[nodiscard]] Eigen::Vector2d obbClamp(const Obb2& box, const Eigen::Vector2d& p);
[[nodiscard]] Eigen::Vector3d obbClamp(const Obb3& box, const Eigen::Vector3d& p);

extern template bool leastAxisUnique<4>(const SatOracle2d&, double, double);
extern template bool leastAxisUnique<15>(const SatOracle3d&, double, double);

}  // namespace contact::testing
