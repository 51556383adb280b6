// SPDX-License-Identifier: MIT
// Element types the readers know (Abaqus/CalculiX, Gmsh, Exodus II), all in one table: node
// counts, and the faces that become contact segments.
#pragma once

#include "contact/types.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mesh_io::detail {

/// How an element's faces become segments.
enum class ElementKind : std::uint8_t {
    kSolid,   ///< 3D continuum: faces S1..S6, manual order reversed so normals point outward
    kPlanar,  ///< 2D continuum (plane stress/strain, axisymmetric): edges S1..S4, outward as listed
    /// Shell or membrane (CalculiX numbering): face 1 = NEG (SNEG, reversed order), face 2 = POS
    /// (SPOS, element order), faces 3.. = the edges 1-2, 2-3, ... (line segments)
    kShell,
    /// Rigid element (R3D3, R3D4, R2D2, RAX2): face 1 = SNEG, face 2 = SPOS, the positive normal
    /// by the right-hand rule (3D) or the direction 1->2 turned 90 degrees counter-clockwise (2D)
    kRigid,
    kSegment,  ///< a surface element itself (Gmsh line/triangle/quadrangle): face 1
    kOther,    ///< known but never a contact face (points, beams, volumes in Gmsh files)
};

/// Corner topology.
enum class Topo : std::uint8_t { kLine, kTri, kQuad, kTet, kPyramid, kWedge, kHex, kNone };

/// How the file numbers nodes and faces: Abaqus (also CalculiX and Gmsh surface elements) or
/// Exodus II (other midside order on 20- and 27-node hexahedra and 15-node wedges, other side
/// numbers; pyramids, which Abaqus has not, in Exodus II's numbering only).
enum class Numbering : std::uint8_t { kAbaqus, kExodus };

struct ElementType {
    std::string_view name;  ///< Abaqus name (upper case), "GMSH:<n>" or "EXODUS:<TYPE>"
    int nodes = 0;
    int dim = 3;      ///< dimension of the element's own geometry (1 line, 2 area, 3 volume)
    int corners = 0;  ///< corner nodes (first in the node list)
    ElementKind kind = ElementKind::kOther;  // the one-byte fields last: no padding in the table
    Topo topo = Topo::kNone;
    Numbering numbering = Numbering::kAbaqus;
};

/// Abaqus/CalculiX type by upper-case name (C3D8R, CPE4, S4R, R3D4, ...); nullptr if unknown.
[[nodiscard]] const ElementType* findAbaqusType(std::string_view upperName) noexcept;

/// Gmsh type by its number (1 line2, 2 tri3, 3 quad4, 4 tet4, 5 hex8, 8 line3, 9 tri6, ...).
[[nodiscard]] const ElementType* findGmshType(int gmshType) noexcept;

/// Exodus II type by the name a block gives (any case: HEX, HEX8, TETRA10, QUAD4, SHELL, TRI3,
/// ...) with `nodes` nodes per element; `spatialDim` is the file's dimension, which decides
/// whether QUAD and TRI are 2D continua (2) or shells (3). nullptr if unknown.
[[nodiscard]] const ElementType* findExodusType(std::string_view name, int nodes, int spatialDim);

/// The type of a model's element block by its ElementBlock::type ("GMSH:<n>", "EXODUS:<TYPE>",
/// or an Abaqus name); nullptr if unknown.
[[nodiscard]] const ElementType* findBlockType(std::string_view blockType);

/// A block's type as messages name it: the file's own name ("C3D8R", "HEX8"), "HEX8 with 4
/// nodes" for an Exodus II type not read, "Gmsh type 21" for a Gmsh one.
[[nodiscard]] std::string blockTypeName(const std::string& blockType);

/// Every type of the table (for tests).
struct TypeRange {
    const ElementType* first;
    const ElementType* last;
    [[nodiscard]] const ElementType* begin() const noexcept { return first; }
    [[nodiscard]] const ElementType* end() const noexcept { return last; }
};
[[nodiscard]] TypeRange allTypes() noexcept;

/// Node positions (0-based, into the element's node list as in the file) of one face, ordered so
/// that the segment's right-hand normal points out of the element (solids, planar) or to the
/// chosen side (shells, rigid elements). Shell edges are lines in the element's node order.
struct FaceNodes {
    contact::SegmentType type = contact::SegmentType::Line2;
    std::array<int, contact::kMaxSegmentNodes> local{};
};

/// Number of faces a FaceRef may name for this type (0: none). Exodus types: sides.
[[nodiscard]] int faceCount(const ElementType& t) noexcept;

/// True when face `face` of type t is a shell edge (CalculiX S3..S6, Exodus shell sides 3..).
[[nodiscard]] bool isShellEdge(const ElementType& t, int face) noexcept;

/// Face `face` (1-based, numbered as the file numbers them) of an element of type t; false when
/// t has no such face.
[[nodiscard]] bool faceNodes(const ElementType& t, int face, FaceNodes& out) noexcept;

}  // namespace mesh_io::detail
