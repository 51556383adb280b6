// SPDX-License-Identifier: MIT
// Separating-axis tests between oriented boxes: 4 axes in 2D, 15 axes in 3D (Gottschalk 1996).
#pragma once

#include "contact/export.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

namespace contact {

/// Result of a separating-axis test between boxes A and B.
struct SatResult {
    bool separated = false;  ///< true: some axis separates the closed boxes (touching = overlap)
    /// Axis that separates, or on overlap the axis of least penetration.
    /// 2D: 0-1 axes of A, 2-3 axes of B. 3D: 0-2 axes of A, 3-5 axes of B,
    /// 6 + 3 i + j the edge pair A_i x B_j. -1: none (never on a valid result).
    int axis = -1;
    /// On overlap: penetration depth along `normal` (>= 0, length unit of the input).
    /// On separation: 0.
    double depth = 0.0;
    /// Unit axis, oriented from A towards B (normal . (cB - cA) >= 0). 2D results have z = 0.
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
};

/// SAT between two rectangles, 4 face axes. Touching counts as overlap; separation must exceed a
/// rounding bound relative to the pair's size (tol::kSatRoundoff) so that a contact is never lost
/// to rounding. On overlap, the least-penetration axis with Box2D-Lite hysteresis (A's axes first).
[[nodiscard]] CONTACT_API SatResult satDisjoint2d(const Obb2& a, const Obb2& b) noexcept;

/// SAT between two boxes, 15 axes: 3 + 3 face axes, then the 9 edge-pair cross products, in A's
/// frame through R = A^T B (orthonormal axes of either handedness). The edge tests carry a rounding
/// margin that nearly parallel edges cannot exceed, so rounding never separates overlapping boxes
/// and exactly parallel edges cannot separate. Same verdict rules and axis choice as satDisjoint2d.
[[nodiscard]] CONTACT_API SatResult satDisjoint3d(const Obb3& a, const Obb3& b) noexcept;

/// Verdict of satDisjoint2d alone: true when no axis separates the boxes. Cheaper when the boxes
/// overlap (no least-penetration axis is chosen).
[[nodiscard]] CONTACT_API bool satOverlap2d(const Obb2& a, const Obb2& b) noexcept;

/// Verdict of satDisjoint3d alone: true when no axis separates the boxes. Cheaper when the boxes
/// overlap (no least-penetration axis is chosen).
[[nodiscard]] CONTACT_API bool satOverlap3d(const Obb3& a, const Obb3& b) noexcept;

}  // namespace contact
