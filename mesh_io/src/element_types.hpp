// SPDX-License-Identifier: MIT
// Element types the readers know: node counts, and the faces that become contact segments.
#pragma once

#include "contact/types.hpp"

#include <array>
#include <string_view>

namespace mesh_io::detail {

/// How an element's faces become segments.
enum class ElementKind {
    kSolid,   ///< 3D continuum: faces S1..S6, manual order reversed so normals point outward
    kPlanar,  ///< 2D continuum (plane stress/strain, axisymmetric): edges S1..S4, outward as listed
    kShell,   ///< shell or membrane: SPOS (face 1) = element order, SNEG (face 2) = reversed
    kSegment,  ///< a surface element itself (Gmsh line/triangle/quadrangle): face 1
    kOther,    ///< known but never a contact face (points, beams)
};

struct ElementType {
    std::string_view name;  ///< Abaqus name (upper case) or "GMSH:<n>"
    int nodes = 0;
    ElementKind kind = ElementKind::kOther;
    int dim = 3;      ///< dimension of the element's own geometry (1 line, 2 area, 3 volume)
    int corners = 0;  ///< corner nodes (first in the node list)
};

/// Abaqus/CalculiX type by upper-case name (C3D8R, CPE4, S4R, M3D4, ...); nullptr if unknown.
[[nodiscard]] const ElementType* findAbaqusType(std::string_view upperName) noexcept;

/// Gmsh type by its number (1 line2, 2 tri3, 3 quad4, 4 tet4, 5 hex8, 8 line3, 9 tri6, ...).
[[nodiscard]] const ElementType* findGmshType(int gmshType) noexcept;

/// Node positions (0-based, into the element's node list) of one face, ordered so that the
/// segment's right-hand normal points out of the element (solids, planar) or along the chosen
/// side (shells).
struct FaceNodes {
    contact::SegmentType type = contact::SegmentType::Line2;
    std::array<int, contact::kMaxSegmentNodes> local{};
};

/// Number of faces a FaceRef may name for this type (0: none).
[[nodiscard]] int faceCount(const ElementType& t) noexcept;

/// Face `face` (1-based) of an element of type t; false when t has no such face.
[[nodiscard]] bool faceNodes(const ElementType& t, int face, FaceNodes& out) noexcept;

}  // namespace mesh_io::detail
