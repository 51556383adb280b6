// SPDX-License-Identifier: MIT
// Segment geometry: shape functions, position, tangent frame, outward normal, size, Bezier hull.
#pragma once

#include "contact/export.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>

namespace contact {

/// Shape functions of a segment type at one point of its reference domain, with first and second
/// derivatives with respect to the local coordinates (xi, eta). Entries past nodeCount are zero;
/// eta derivatives are zero for lines.
struct ShapeFunctions {
    std::array<double, kMaxSegmentNodes> N{};        ///< N_i
    std::array<double, kMaxSegmentNodes> dXi{};      ///< dN_i / dxi
    std::array<double, kMaxSegmentNodes> dEta{};     ///< dN_i / deta
    std::array<double, kMaxSegmentNodes> dXiXi{};    ///< d2N_i / dxi2
    std::array<double, kMaxSegmentNodes> dXiEta{};   ///< d2N_i / dxi deta
    std::array<double, kMaxSegmentNodes> dEtaEta{};  ///< d2N_i / deta2
};

/// Shape functions at local coordinates xi = (xi, eta); eta is ignored for lines.
/// Lines and quads use xi, eta in [-1, 1]; triangles use area coordinates (N = 1 - xi - eta, xi,
/// eta for the corners). Pure; evaluates outside the domain too (extrapolation).
[[nodiscard]] CONTACT_API ShapeFunctions shapeFunctions(SegmentType type,
                                                        const Eigen::Vector2d& xi) noexcept;
/// The values N alone, bit for bit those of shapeFunctions() (no derivatives computed).
[[nodiscard]] CONTACT_API std::array<double, kMaxSegmentNodes>
shapeValues(SegmentType type, const Eigen::Vector2d& xi) noexcept;

/// Shape functions and their first derivatives: what Newton's method on a face needs.
struct ShapeGradients {
    std::array<double, kMaxSegmentNodes> N{};     ///< N_i
    std::array<double, kMaxSegmentNodes> dXi{};   ///< dN_i / dxi
    std::array<double, kMaxSegmentNodes> dEta{};  ///< dN_i / deta
};
/// N and the first derivatives, bit for bit those of shapeFunctions() (no second derivatives
/// computed).
[[nodiscard]] CONTACT_API ShapeGradients shapeGradients(SegmentType type,
                                                        const Eigen::Vector2d& xi) noexcept;

/// Position x(xi) = sum_i N_i(xi) x_i.
[[nodiscard]] CONTACT_API Eigen::Vector3d position(const SegmentNodes& s,
                                                   const Eigen::Vector2d& xi) noexcept;

/// Local geometry at a point of a segment.
struct SegmentFrame {
    Eigen::Vector3d point = Eigen::Vector3d::Zero();   ///< x(xi)
    Eigen::Vector3d dXi = Eigen::Vector3d::Zero();     ///< covariant base vector dx/dxi
    Eigen::Vector3d dEta = Eigen::Vector3d::Zero();    ///< dx/deta (zero for lines)
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();  ///< unit outward normal (zero if degenerate)
    Eigen::Vector3d tangent1 = Eigen::Vector3d::Zero();  ///< unit, along dx/dxi
    Eigen::Vector3d tangent2 = Eigen::Vector3d::Zero();  ///< unit, normal x tangent1 (+z for lines)
    double jacobian = 0.0;   ///< |dx/dxi| for lines, |dx/dxi x dx/deta| for faces
    bool degenerate = true;  ///< true when the jacobian is too small for a normal
};

/// Tangent frame at xi. Faces: normal = (dx/dxi x dx/deta) / |...|. Lines (x-y plane): the unit
/// tangent rotated clockwise, (t_y, -t_x, 0). Degenerate (jacobian below
/// tol::kDegenerateJacobianRel of the node spread to the parametric dimension) gives zero normal
/// and tangents and degenerate = true.
[[nodiscard]] CONTACT_API SegmentFrame segmentFrame(const SegmentNodes& s,
                                                    const Eigen::Vector2d& xi) noexcept;

/// Outward unit normal at xi (zero when degenerate).
[[nodiscard]] CONTACT_API Eigen::Vector3d outwardNormal(const SegmentNodes& s,
                                                        const Eigen::Vector2d& xi) noexcept;

/// Characteristic size: the mean length of the corner-to-corner edges (a line: its chord).
/// The unit of every relative tolerance and of the relative capture distance.
[[nodiscard]] CONTACT_API double characteristicSize(const SegmentNodes& s) noexcept;

/// Bezier control points of a segment: their convex hull encloses the whole (curved) segment.
/// Linear segments: the nodes. Quadratic: each Lagrange midside node m between ends a, b becomes
/// 2m - (a + b)/2; Quad8 is first lifted to the Quad9 with the same geometry.
struct ControlPoints {
    std::array<Eigen::Vector3d, kMaxSegmentNodes> p{};
    int count = 0;
};
[[nodiscard]] CONTACT_API ControlPoints controlPoints(const SegmentNodes& s) noexcept;

/// Centre of the reference domain: 0 for lines and quads, (1/3, 1/3) for triangles.
[[nodiscard]] CONTACT_API Eigen::Vector2d referenceCentre(SegmentType type) noexcept;

/// True when xi lies in the closed reference domain, up to tol.
[[nodiscard]] CONTACT_API bool inReferenceDomain(SegmentType type, const Eigen::Vector2d& xi,
                                                 double tol = 0.0) noexcept;

/// Local coordinates of node i (corners and midsides) in the reference domain.
[[nodiscard]] CONTACT_API Eigen::Vector2d nodeLocalCoordinates(SegmentType type, int i) noexcept;

}  // namespace contact
