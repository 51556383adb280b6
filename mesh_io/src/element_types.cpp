// SPDX-License-Identifier: MIT
#include "element_types.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

namespace mesh_io::detail {
namespace {

using contact::SegmentType;

// A shape: what every name of one element family shares.
struct Shape {
    int nodes;
    int dim;
    int corners;
    ElementKind kind;
    Topo topo;
    Numbering numbering = Numbering::kAbaqus;
};

constexpr ElementType type(std::string_view name, const Shape& s) {
    return {name, s.nodes, s.dim, s.corners, s.kind, s.topo, s.numbering};
}

constexpr Shape kTet4{4, 3, 4, ElementKind::kSolid, Topo::kTet};
constexpr Shape kTet10{10, 3, 4, ElementKind::kSolid, Topo::kTet};
constexpr Shape kPyramid5{5, 3, 5, ElementKind::kSolid, Topo::kPyramid};
constexpr Shape kPyramid13{13, 3, 5, ElementKind::kSolid, Topo::kPyramid};
constexpr Shape kWedge6{6, 3, 6, ElementKind::kSolid, Topo::kWedge};
constexpr Shape kWedge15{15, 3, 6, ElementKind::kSolid, Topo::kWedge};
constexpr Shape kHex8{8, 3, 8, ElementKind::kSolid, Topo::kHex};
constexpr Shape kHex20{20, 3, 8, ElementKind::kSolid, Topo::kHex};
constexpr Shape kHex27{27, 3, 8, ElementKind::kSolid, Topo::kHex};
constexpr Shape kTri3{3, 2, 3, ElementKind::kPlanar, Topo::kTri};
constexpr Shape kTri6{6, 2, 3, ElementKind::kPlanar, Topo::kTri};
constexpr Shape kQuad4{4, 2, 4, ElementKind::kPlanar, Topo::kQuad};
constexpr Shape kQuad8{8, 2, 4, ElementKind::kPlanar, Topo::kQuad};
constexpr Shape kQuad9{9, 2, 4, ElementKind::kPlanar, Topo::kQuad};
constexpr Shape kShell3{3, 2, 3, ElementKind::kShell, Topo::kTri};
constexpr Shape kShell6{6, 2, 3, ElementKind::kShell, Topo::kTri};
constexpr Shape kShell4{4, 2, 4, ElementKind::kShell, Topo::kQuad};
constexpr Shape kShell8{8, 2, 4, ElementKind::kShell, Topo::kQuad};
constexpr Shape kShell9{9, 2, 4, ElementKind::kShell, Topo::kQuad};
constexpr Shape kRigidTri{3, 2, 3, ElementKind::kRigid, Topo::kTri};
constexpr Shape kRigidQuad{4, 2, 4, ElementKind::kRigid, Topo::kQuad};
constexpr Shape kRigidLine{2, 1, 2, ElementKind::kRigid, Topo::kLine};

constexpr Shape exodus(Shape s) {
    s.numbering = Numbering::kExodus;
    return s;
}

// Every element type, one entry per name: a new variant of a known family is one more entry.
// Suffixes (Abaqus naming): R reduced integration, I incompatible modes, H hybrid, M modified,
// T coupled temperature-displacement, P pore pressure, E thermal-electrical; DC* heat transfer.
// clang-format off
const ElementType kTypes[] = {
    // 3D continuum: tetrahedra, wedges, hexahedra
    type("C3D4", kTet4), type("C3D4H", kTet4), type("C3D4T", kTet4), type("C3D4P", kTet4),
    type("C3D4E", kTet4), type("DC3D4", kTet4), type("DC3D4E", kTet4),
    type("C3D10", kTet10), type("C3D10H", kTet10), type("C3D10M", kTet10), type("C3D10MH", kTet10),
    type("C3D10I", kTet10), type("C3D10HS", kTet10), type("C3D10T", kTet10),
    type("C3D10MT", kTet10), type("C3D10MHT", kTet10), type("C3D10MP", kTet10),
    type("C3D10MPH", kTet10), type("C3D10E", kTet10), type("DC3D10", kTet10),
    type("DC3D10E", kTet10),
    type("C3D6", kWedge6), type("C3D6H", kWedge6), type("C3D6T", kWedge6), type("C3D6E", kWedge6),
    type("DC3D6", kWedge6), type("DC3D6E", kWedge6), type("SC6R", kWedge6), type("SC6RT", kWedge6),
    type("C3D15", kWedge15), type("C3D15H", kWedge15), type("C3D15E", kWedge15),
    type("DC3D15", kWedge15), type("DC3D15E", kWedge15),
    type("C3D8", kHex8), type("C3D8R", kHex8), type("C3D8I", kHex8), type("C3D8H", kHex8),
    type("C3D8RH", kHex8), type("C3D8IH", kHex8), type("C3D8T", kHex8), type("C3D8RT", kHex8),
    type("C3D8HT", kHex8), type("C3D8RHT", kHex8), type("C3D8P", kHex8), type("C3D8RP", kHex8),
    type("C3D8PH", kHex8), type("C3D8RPH", kHex8), type("C3D8PT", kHex8), type("C3D8E", kHex8),
    type("DC3D8", kHex8), type("DCC3D8", kHex8), type("DCC3D8D", kHex8), type("DC3D8E", kHex8),
    type("SC8R", kHex8), type("SC8RT", kHex8),
    type("C3D20", kHex20), type("C3D20R", kHex20), type("C3D20H", kHex20), type("C3D20RH", kHex20),
    type("C3D20T", kHex20), type("C3D20RT", kHex20), type("C3D20HT", kHex20),
    type("C3D20RHT", kHex20), type("C3D20P", kHex20), type("C3D20RP", kHex20),
    type("C3D20PH", kHex20), type("C3D20RPH", kHex20), type("C3D20E", kHex20),
    type("C3D20RE", kHex20), type("DC3D20", kHex20), type("DC3D20E", kHex20),
    // 2D continuum: plane stress (CPS), plane strain (CPE), generalized plane strain (CPEG),
    // axisymmetric (CAX), generalized axisymmetric with twist (CGAX: the CAX nodes and faces, one
    // more degree of freedom per node), heat transfer (DC2D, DCAX)
    type("CPS3", kTri3), type("CPE3", kTri3), type("CAX3", kTri3), type("CPE3H", kTri3),
    type("CAX3H", kTri3), type("CPEG3", kTri3), type("CPEG3H", kTri3), type("CPS3T", kTri3),
    type("CPE3T", kTri3), type("CAX3T", kTri3), type("CPS3E", kTri3), type("CPE3E", kTri3),
    type("CAX3E", kTri3), type("DC2D3", kTri3), type("DCAX3", kTri3), type("DC2D3E", kTri3),
    type("DCAX3E", kTri3),
    type("CGAX3", kTri3), type("CGAX3H", kTri3), type("CGAX3T", kTri3), type("CGAX3HT", kTri3),
    type("CPS6", kTri6), type("CPE6", kTri6), type("CAX6", kTri6), type("CPS6M", kTri6),
    type("CPE6M", kTri6), type("CAX6M", kTri6), type("CPE6H", kTri6), type("CPE6MH", kTri6),
    type("CAX6H", kTri6), type("CAX6MH", kTri6), type("CPEG6", kTri6), type("CPEG6M", kTri6),
    type("CPS6MT", kTri6), type("CPE6MT", kTri6), type("CAX6MT", kTri6), type("CPE6MP", kTri6),
    type("CAX6MP", kTri6), type("CPS6E", kTri6), type("CPE6E", kTri6), type("CAX6E", kTri6),
    type("DC2D6", kTri6), type("DCAX6", kTri6), type("DC2D6E", kTri6), type("DCAX6E", kTri6),
    type("CGAX6", kTri6), type("CGAX6H", kTri6), type("CGAX6M", kTri6), type("CGAX6MH", kTri6),
    type("CGAX6MT", kTri6), type("CGAX6MHT", kTri6),
    type("CPS4", kQuad4), type("CPS4R", kQuad4), type("CPS4I", kQuad4), type("CPE4", kQuad4),
    type("CPE4R", kQuad4), type("CPE4I", kQuad4), type("CPE4H", kQuad4), type("CPE4RH", kQuad4),
    type("CPE4IH", kQuad4), type("CAX4", kQuad4), type("CAX4R", kQuad4), type("CAX4I", kQuad4),
    type("CAX4H", kQuad4), type("CAX4RH", kQuad4), type("CAX4IH", kQuad4), type("CPEG4", kQuad4),
    type("CPEG4R", kQuad4), type("CPEG4I", kQuad4), type("CPEG4H", kQuad4), type("CPS4T", kQuad4),
    type("CPS4RT", kQuad4), type("CPE4T", kQuad4), type("CPE4RT", kQuad4), type("CPE4HT", kQuad4),
    type("CPE4RHT", kQuad4), type("CAX4T", kQuad4), type("CAX4RT", kQuad4), type("CAX4HT", kQuad4),
    type("CAX4RHT", kQuad4), type("CPE4P", kQuad4), type("CPE4RP", kQuad4),
    type("CPE4PH", kQuad4), type("CAX4P", kQuad4), type("CAX4RP", kQuad4), type("CPS4E", kQuad4),
    type("CPE4E", kQuad4), type("CAX4E", kQuad4), type("DC2D4", kQuad4), type("DCAX4", kQuad4),
    type("DCC2D4", kQuad4), type("DCCAX4", kQuad4), type("DC2D4E", kQuad4), type("DCAX4E", kQuad4),
    type("CGAX4", kQuad4), type("CGAX4H", kQuad4), type("CGAX4R", kQuad4), type("CGAX4RH", kQuad4),
    type("CGAX4T", kQuad4), type("CGAX4HT", kQuad4), type("CGAX4RT", kQuad4),
    type("CGAX4RHT", kQuad4),
    type("CPS8", kQuad8), type("CPS8R", kQuad8), type("CPE8", kQuad8), type("CPE8R", kQuad8),
    type("CPE8H", kQuad8), type("CPE8RH", kQuad8), type("CAX8", kQuad8), type("CAX8R", kQuad8),
    type("CAX8H", kQuad8), type("CAX8RH", kQuad8), type("CPEG8", kQuad8), type("CPEG8R", kQuad8),
    type("CPEG8H", kQuad8), type("CPS8T", kQuad8), type("CPS8RT", kQuad8), type("CPE8T", kQuad8),
    type("CPE8RT", kQuad8), type("CPE8HT", kQuad8), type("CPE8RHT", kQuad8), type("CAX8T", kQuad8),
    type("CAX8RT", kQuad8), type("CAX8HT", kQuad8), type("CAX8RHT", kQuad8), type("CPE8P", kQuad8),
    type("CPE8RP", kQuad8), type("CAX8P", kQuad8), type("CAX8RP", kQuad8), type("CPS8E", kQuad8),
    type("CPE8E", kQuad8), type("CAX8E", kQuad8), type("DC2D8", kQuad8), type("DCAX8", kQuad8),
    type("DC2D8E", kQuad8), type("DCAX8E", kQuad8),
    type("CGAX8", kQuad8), type("CGAX8H", kQuad8), type("CGAX8R", kQuad8), type("CGAX8RH", kQuad8),
    type("CGAX8T", kQuad8), type("CGAX8HT", kQuad8), type("CGAX8RT", kQuad8),
    type("CGAX8RHT", kQuad8),
    // Shells, membranes, surface elements, heat transfer shells
    type("S3", kShell3), type("S3R", kShell3), type("S3RS", kShell3), type("STRI3", kShell3),
    type("S3T", kShell3), type("S3RT", kShell3), type("M3D3", kShell3), type("SFM3D3", kShell3),
    type("DS3", kShell3),
    type("S6", kShell6), type("STRI65", kShell6), type("M3D6", kShell6), type("SFM3D6", kShell6),
    type("DS6", kShell6),
    type("S4", kShell4), type("S4R", kShell4), type("S4R5", kShell4), type("S4RS", kShell4),
    type("S4RSW", kShell4), type("S4T", kShell4), type("S4RT", kShell4), type("M3D4", kShell4),
    type("M3D4R", kShell4), type("SFM3D4", kShell4), type("SFM3D4R", kShell4), type("DS4", kShell4),
    type("S8", kShell8), type("S8R", kShell8), type("S8R5", kShell8), type("S8RT", kShell8),
    type("M3D8", kShell8), type("M3D8R", kShell8), type("SFM3D8", kShell8),
    type("SFM3D8R", kShell8), type("DS8", kShell8),
    type("S9R5", kShell9), type("M3D9", kShell9), type("M3D9R", kShell9),
    // Rigid elements: the usual indenter, die or punch (masters only)
    type("R3D3", kRigidTri), type("R3D4", kRigidQuad), type("R2D2", kRigidLine),
    type("RAX2", kRigidLine),
    // Exodus II (names as findExodusType makes them from the block's type and node count)
    type("EXODUS:TETRA4", exodus(kTet4)), type("EXODUS:TETRA10", exodus(kTet10)),
    type("EXODUS:WEDGE6", exodus(kWedge6)), type("EXODUS:WEDGE15", exodus(kWedge15)),
    type("EXODUS:PYRAMID5", exodus(kPyramid5)), type("EXODUS:PYRAMID13", exodus(kPyramid13)),
    type("EXODUS:HEX8", exodus(kHex8)), type("EXODUS:HEX20", exodus(kHex20)),
    type("EXODUS:HEX27", exodus(kHex27)),
    type("EXODUS:TRI3", exodus(kTri3)), type("EXODUS:TRI6", exodus(kTri6)),
    type("EXODUS:QUAD4", exodus(kQuad4)), type("EXODUS:QUAD8", exodus(kQuad8)),
    type("EXODUS:QUAD9", exodus(kQuad9)),
    type("EXODUS:TRISHELL3", exodus(kShell3)), type("EXODUS:TRISHELL6", exodus(kShell6)),
    type("EXODUS:SHELL4", exodus(kShell4)), type("EXODUS:SHELL8", exodus(kShell8)),
    type("EXODUS:SHELL9", exodus(kShell9)),
    // Gmsh: surface elements are segments; volumes and points are not
    {"GMSH:1", 2, 1, 2, ElementKind::kSegment, Topo::kLine},
    {"GMSH:2", 3, 2, 3, ElementKind::kSegment, Topo::kTri},
    {"GMSH:3", 4, 2, 4, ElementKind::kSegment, Topo::kQuad},
    {"GMSH:4", 4, 3, 4, ElementKind::kOther, Topo::kNone},
    {"GMSH:5", 8, 3, 8, ElementKind::kOther, Topo::kNone},
    {"GMSH:6", 6, 3, 6, ElementKind::kOther, Topo::kNone},
    {"GMSH:7", 5, 3, 5, ElementKind::kOther, Topo::kNone},
    {"GMSH:8", 3, 1, 2, ElementKind::kSegment, Topo::kLine},
    {"GMSH:9", 6, 2, 3, ElementKind::kSegment, Topo::kTri},
    {"GMSH:10", 9, 2, 4, ElementKind::kSegment, Topo::kQuad},
    {"GMSH:11", 10, 3, 4, ElementKind::kOther, Topo::kNone},
    {"GMSH:12", 27, 3, 8, ElementKind::kOther, Topo::kNone},
    {"GMSH:13", 18, 3, 6, ElementKind::kOther, Topo::kNone},
    {"GMSH:14", 14, 3, 5, ElementKind::kOther, Topo::kNone},
    {"GMSH:15", 1, 0, 1, ElementKind::kOther, Topo::kNone},
    {"GMSH:16", 8, 2, 4, ElementKind::kSegment, Topo::kQuad},
    {"GMSH:17", 20, 3, 8, ElementKind::kOther, Topo::kNone},
    {"GMSH:18", 15, 3, 6, ElementKind::kOther, Topo::kNone},
    {"GMSH:19", 13, 3, 5, ElementKind::kOther, Topo::kNone},
};
// clang-format on

// Gmsh types by number, for readers that look one up per element.
constexpr int kMaxGmshType = 19;

// Faces of solids as listed in the Abaqus manual (0-based corners; their right-hand normal
// points into the element).
const std::initializer_list<int> kTetFaces[] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
const std::initializer_list<int> kWedgeFaces[] = {
    {0, 1, 2}, {3, 5, 4}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}};
const std::initializer_list<int> kHexFaces[] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1},
                                                {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
// Pyramids (Exodus II only): its sides 1-2-5, 2-3-5, 3-4-5, 4-1-5, 1-4-3-2 (outward) listed
// inward as the others, so that side n is face n.
const std::initializer_list<int> kPyramidFaces[] = {
    {0, 4, 1}, {1, 4, 2}, {2, 4, 3}, {3, 4, 0}, {0, 1, 2, 3}};

// Exodus II side -> Abaqus face of the same corners (SEACAS ex_get_side_set_node_list tables:
// hex side 1 = 1-2-6-5 = Abaqus S3, ...); shells: side 1 = positive face, 2 = negative face.
constexpr int kExodusHexSide[] = {3, 4, 5, 6, 1, 2};
constexpr int kExodusTetSide[] = {2, 3, 4, 1};
constexpr int kExodusWedgeSide[] = {3, 4, 5, 1, 2};
// The centre node of each side of a 27-node hexahedron (SEACAS Ioss_Hex27: 0-based, the volume's
// centre is node 20).
constexpr int kExodusHex27SideCentre[] = {25, 24, 26, 23, 21, 22};

// Exodus II node of each Abaqus node position where the midside orders differ: hexahedra list the
// vertical edges (1-5, ...) before the top edges (5-6, ...), wedges likewise.
constexpr int kExodusHex20Node[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                    10, 11, 16, 17, 18, 19, 12, 13, 14, 15};
constexpr int kExodusWedge15Node[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11};

// Midside node of the edge between corners a and b (0-based), per quadratic family (Abaqus
// numbering); -1 when none.
struct Edge {
    int a, b, mid;
};
const Edge kTriEdges[] = {{0, 1, 3}, {1, 2, 4}, {2, 0, 5}};
const Edge kQuadEdges[] = {{0, 1, 4}, {1, 2, 5}, {2, 3, 6}, {3, 0, 7}};
const Edge kTetEdges[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 3, 7}, {1, 3, 8}, {2, 3, 9}};
const Edge kPyramidEdges[] = {{0, 1, 5}, {1, 2, 6},  {2, 3, 7},  {3, 0, 8},
                              {0, 4, 9}, {1, 4, 10}, {2, 4, 11}, {3, 4, 12}};
const Edge kWedgeEdges[] = {{0, 1, 6},  {1, 2, 7},  {2, 0, 8},  {3, 4, 9}, {4, 5, 10},
                            {5, 3, 11}, {0, 3, 12}, {1, 4, 13}, {2, 5, 14}};
const Edge kHexEdges[] = {{0, 1, 8},  {1, 2, 9},  {2, 3, 10}, {3, 0, 11}, {4, 5, 12}, {5, 6, 13},
                          {6, 7, 14}, {7, 4, 15}, {0, 4, 16}, {1, 5, 17}, {2, 6, 18}, {3, 7, 19}};

template <std::size_t N>
int midOf(const Edge (&edges)[N], int a, int b) {
    for (const Edge& e : edges) {
        if ((e.a == a && e.b == b) || (e.a == b && e.b == a)) {
            return e.mid;
        }
    }
    return -1;
}

int mid(Topo topo, int a, int b) {
    switch (topo) {
    case Topo::kTri: return midOf(kTriEdges, a, b);
    case Topo::kQuad: return midOf(kQuadEdges, a, b);
    case Topo::kTet: return midOf(kTetEdges, a, b);
    case Topo::kPyramid: return midOf(kPyramidEdges, a, b);
    case Topo::kWedge: return midOf(kWedgeEdges, a, b);
    case Topo::kHex: return midOf(kHexEdges, a, b);
    case Topo::kLine:
    case Topo::kNone: break;
    }
    return -1;
}

// A face from its corners in order (normal along the right-hand rule of that order), adding the
// midside nodes of quadratic elements and the centre node of 9-node quads.
FaceNodes fromCorners(const ElementType& t, const int* c, int n) {
    FaceNodes f;
    const bool quadratic = t.nodes > t.corners;
    for (int i = 0; i < n; ++i) {
        f.local[i] = c[i];
    }
    if (n == 2) {
        f.type = quadratic ? SegmentType::Line3 : SegmentType::Line2;
        if (quadratic) {
            f.local[2] = t.topo == Topo::kLine ? 2 : mid(t.topo, c[0], c[1]);
        }
        return f;
    }
    if (!quadratic) {
        f.type = n == 3 ? SegmentType::Tri3 : SegmentType::Quad4;
        return f;
    }
    for (int i = 0; i < n; ++i) {
        f.local[n + i] = mid(t.topo, c[i], c[(i + 1) % n]);
    }
    f.type = n == 3 ? SegmentType::Tri6 : SegmentType::Quad8;
    return f;
}

// Solid face `face` (Abaqus numbering): the manual's inward order reversed, keeping the first
// corner: c0, c(n-1), ..., c1.
FaceNodes solidFace(const ElementType& t, int face) {
    const std::initializer_list<int>& listed = t.topo == Topo::kTet       ? kTetFaces[face - 1]
                                               : t.topo == Topo::kPyramid ? kPyramidFaces[face - 1]
                                               : t.topo == Topo::kWedge   ? kWedgeFaces[face - 1]
                                                                          : kHexFaces[face - 1];
    int c[4];
    const int n = static_cast<int>(listed.size());
    const int* l = listed.begin();
    c[0] = l[0];
    for (int i = 1; i < n; ++i) {
        c[i] = l[n - i];
    }
    return fromCorners(t, c, n);
}

// One side of an element with its own surface (shell, rigid, Gmsh surface element): in element
// order, or reversed (c0, c(n-1), ..., c1 for faces, c1, c0 for lines; a centre node stays).
FaceNodes sideFace(const ElementType& t, bool elementOrder) {
    if (t.topo == Topo::kLine) {
        const int c[2] = {elementOrder ? 0 : 1, elementOrder ? 1 : 0};
        return fromCorners(t, c, 2);
    }
    int c[4];
    const int n = t.corners;
    for (int i = 0; i < n; ++i) {
        c[i] = (elementOrder || i == 0) ? i : n - i;
    }
    FaceNodes f = fromCorners(t, c, n);
    if (t.nodes == 9) {
        f.type = SegmentType::Quad9;
        f.local[8] = 8;
    }
    return f;
}

// The Abaqus face of an Exodus side.
int abaqusFace(const ElementType& t, int side) {
    switch (t.kind) {
    case ElementKind::kSolid:
        return t.topo == Topo::kTet       ? kExodusTetSide[side - 1]
               : t.topo == Topo::kPyramid ? side
               : t.topo == Topo::kWedge   ? kExodusWedgeSide[side - 1]
                                          : kExodusHexSide[side - 1];
    case ElementKind::kShell: return side == 1 ? 2 : side == 2 ? 1 : side;
    default: return side;
    }
}

}  // namespace

TypeRange allTypes() noexcept { return {std::begin(kTypes), std::end(kTypes)}; }

const ElementType* findAbaqusType(std::string_view upperName) noexcept {
    if (upperName.find(':') != std::string_view::npos) {
        return nullptr;  // Gmsh and Exodus entries are not Abaqus names
    }
    for (const ElementType& t : kTypes) {
        if (t.name == upperName) {
            return &t;
        }
    }
    return nullptr;
}

const ElementType* findGmshType(int gmshType) noexcept {
    static const auto table = [] {
        std::array<const ElementType*, kMaxGmshType + 1> a{};
        for (const ElementType& t : kTypes) {
            if (t.name.substr(0, 5) == "GMSH:") {
                a[static_cast<std::size_t>(std::stoi(std::string(t.name.substr(5))))] = &t;
            }
        }
        return a;
    }();
    return gmshType >= 0 && gmshType <= kMaxGmshType ? table[static_cast<std::size_t>(gmshType)]
                                                     : nullptr;
}

std::string blockTypeName(const std::string& blockType) {
    if (blockType.rfind("GMSH:", 0) == 0) {
        return "Gmsh type " + blockType.substr(5);
    }
    if (blockType.rfind("EXODUS:", 0) == 0) {
        const std::string t = blockType.substr(7);
        const std::size_t slash = t.rfind('/');  // a type not read: its node count after '/'
        return slash == std::string::npos
                   ? t
                   : t.substr(0, slash) + " with " + t.substr(slash + 1) + " nodes";
    }
    return blockType;
}

const ElementType* findBlockType(std::string_view blockType) {
    if (blockType.substr(0, 5) == "GMSH:") {
        int n = 0;
        for (const char c : blockType.substr(5)) {
            if (c < '0' || c > '9' || n > kMaxGmshType) {
                return nullptr;
            }
            n = 10 * n + (c - '0');
        }
        return blockType.size() > 5 ? findGmshType(n) : nullptr;
    }
    if (blockType.substr(0, 7) == "EXODUS:") {
        for (const ElementType& t : kTypes) {
            if (t.name == blockType) {
                return &t;
            }
        }
        return nullptr;
    }
    return findAbaqusType(blockType);
}

const ElementType* findExodusType(std::string_view name, int nodes, int spatialDim) {
    std::string upper;
    for (const char c : name) {
        if (c != ' ') {
            upper.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
        }
    }
    // Family name and the node count it may carry (HEX20, TETRA10, ...).
    std::size_t digits = upper.size();
    while (digits > 0 && upper[digits - 1] >= '0' && upper[digits - 1] <= '9') {
        --digits;
    }
    std::string family = upper.substr(0, digits);
    if (digits < upper.size() && upper.substr(digits) != std::to_string(nodes)) {
        return nullptr;  // the name says one node count, the block another
    }
    if (family == "HEXAHEDRON") {
        family = "HEX";
    } else if (family == "TET" || family == "TETRAHEDRON") {
        family = "TETRA";
    } else if (family == "QUADRILATERAL") {
        family = "QUAD";
    } else if (family == "TRIANGLE") {
        family = "TRI";
    } else if (family == "PYRA") {
        family = "PYRAMID";
    }
    if (spatialDim == 3 && family == "TRI") {
        // The library takes a TRI in 3D for a shell (two faces, three edges); a QUAD keeps its
        // four sides, the edges, in any dimension (ex_get_side_set_node_list).
        family = "TRISHELL";
    }
    const std::string full = "EXODUS:" + family + std::to_string(nodes);
    for (const ElementType& t : kTypes) {
        if (t.name == full) {
            return &t;
        }
    }
    return nullptr;
}

int faceCount(const ElementType& t) noexcept {
    switch (t.kind) {
    case ElementKind::kSolid:
        return t.topo == Topo::kTet ? 4 : t.topo == Topo::kHex ? 6 : 5;  // 5: wedge, pyramid
    case ElementKind::kPlanar: return t.corners;
    case ElementKind::kShell: return 2 + t.corners;
    case ElementKind::kRigid: return 2;
    case ElementKind::kSegment: return 1;
    case ElementKind::kOther: return 0;
    }
    return 0;
}

bool isShellEdge(const ElementType& t, int face) noexcept {
    return t.kind == ElementKind::kShell && face > 2 && face <= faceCount(t);
}

bool faceNodes(const ElementType& t, int face, FaceNodes& out) noexcept {
    if (face < 1 || face > faceCount(t)) {
        return false;
    }
    const bool exodus = t.numbering == Numbering::kExodus;
    const int f = exodus ? abaqusFace(t, face) : face;
    switch (t.kind) {
    case ElementKind::kSolid: out = solidFace(t, f); break;
    case ElementKind::kPlanar: {
        const int c[2] = {f - 1, f % t.corners};
        out = fromCorners(t, c, 2);
        break;
    }
    case ElementKind::kShell:
        if (f > 2) {  // edge f - 2: corners f - 3 and f - 2 (last back to the first)
            const int c[2] = {f - 3, (f - 2) % t.corners};
            out = fromCorners(t, c, 2);
        } else {
            out = sideFace(t, f == 2);
        }
        break;
    case ElementKind::kRigid:  // SPOS: element order in 3D; in 2D the normal turned the other way
        out = sideFace(t, t.topo == Topo::kLine ? f == 1 : f == 2);
        break;
    case ElementKind::kSegment: out = sideFace(t, true); break;
    case ElementKind::kOther: return false;
    }
    if (exodus && (t.nodes == 20 || t.nodes == 27)) {
        for (int i = 0; i < contact::nodeCount(out.type); ++i) {
            out.local[i] = kExodusHex20Node[out.local[i]];
        }
        if (t.nodes == 27) {
            out.type = SegmentType::Quad9;
            out.local[8] = kExodusHex27SideCentre[face - 1];
        }
    } else if (exodus && t.nodes == 15) {
        for (int i = 0; i < contact::nodeCount(out.type); ++i) {
            out.local[i] = kExodusWedge15Node[out.local[i]];
        }
    }
    return true;
}

}  // namespace mesh_io::detail
