// SPDX-License-Identifier: MIT
#include "element_types.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace mesh_io::detail {
namespace {

using contact::SegmentType;

// Corner topology of an element family.
enum class Topo { kLine, kTri, kQuad, kTet, kWedge, kHex, kNone };

struct Entry {
    ElementType type;
    Topo topo;
};

constexpr ElementType solid(std::string_view n, int nodes, int corners) {
    return {n, nodes, ElementKind::kSolid, 3, corners};
}
constexpr ElementType planar(std::string_view n, int nodes, int corners) {
    return {n, nodes, ElementKind::kPlanar, 2, corners};
}
constexpr ElementType shell(std::string_view n, int nodes, int corners) {
    return {n, nodes, ElementKind::kShell, 2, corners};
}

// Abaqus/CalculiX element types (hybrid, reduced, incompatible-mode variants share topology).
const Entry kAbaqus[] = {
    {solid("C3D4", 4, 4), Topo::kTet},     {solid("C3D4H", 4, 4), Topo::kTet},
    {solid("C3D10", 10, 4), Topo::kTet},   {solid("C3D10H", 10, 4), Topo::kTet},
    {solid("C3D10M", 10, 4), Topo::kTet},  {solid("C3D10MH", 10, 4), Topo::kTet},
    {solid("C3D6", 6, 6), Topo::kWedge},   {solid("C3D6H", 6, 6), Topo::kWedge},
    {solid("C3D15", 15, 6), Topo::kWedge}, {solid("C3D15H", 15, 6), Topo::kWedge},
    {solid("C3D8", 8, 8), Topo::kHex},     {solid("C3D8R", 8, 8), Topo::kHex},
    {solid("C3D8I", 8, 8), Topo::kHex},    {solid("C3D8H", 8, 8), Topo::kHex},
    {solid("C3D8RH", 8, 8), Topo::kHex},   {solid("C3D8IH", 8, 8), Topo::kHex},
    {solid("SC8R", 8, 8), Topo::kHex},     {solid("C3D20", 20, 8), Topo::kHex},
    {solid("C3D20R", 20, 8), Topo::kHex},  {solid("C3D20H", 20, 8), Topo::kHex},
    {solid("C3D20RH", 20, 8), Topo::kHex}, {planar("CPS3", 3, 3), Topo::kTri},
    {planar("CPE3", 3, 3), Topo::kTri},    {planar("CAX3", 3, 3), Topo::kTri},
    {planar("CPE3H", 3, 3), Topo::kTri},   {planar("CAX3H", 3, 3), Topo::kTri},
    {planar("CPS6", 6, 3), Topo::kTri},    {planar("CPE6", 6, 3), Topo::kTri},
    {planar("CAX6", 6, 3), Topo::kTri},    {planar("CPS6M", 6, 3), Topo::kTri},
    {planar("CPE6M", 6, 3), Topo::kTri},   {planar("CAX6M", 6, 3), Topo::kTri},
    {planar("CPE6H", 6, 3), Topo::kTri},   {planar("CPS4", 4, 4), Topo::kQuad},
    {planar("CPS4R", 4, 4), Topo::kQuad},  {planar("CPS4I", 4, 4), Topo::kQuad},
    {planar("CPE4", 4, 4), Topo::kQuad},   {planar("CPE4R", 4, 4), Topo::kQuad},
    {planar("CPE4I", 4, 4), Topo::kQuad},  {planar("CPE4H", 4, 4), Topo::kQuad},
    {planar("CPE4RH", 4, 4), Topo::kQuad}, {planar("CAX4", 4, 4), Topo::kQuad},
    {planar("CAX4R", 4, 4), Topo::kQuad},  {planar("CAX4I", 4, 4), Topo::kQuad},
    {planar("CAX4H", 4, 4), Topo::kQuad},  {planar("CPS8", 8, 4), Topo::kQuad},
    {planar("CPS8R", 8, 4), Topo::kQuad},  {planar("CPE8", 8, 4), Topo::kQuad},
    {planar("CPE8R", 8, 4), Topo::kQuad},  {planar("CPE8H", 8, 4), Topo::kQuad},
    {planar("CPE8RH", 8, 4), Topo::kQuad}, {planar("CAX8", 8, 4), Topo::kQuad},
    {planar("CAX8R", 8, 4), Topo::kQuad},  {planar("CAX8H", 8, 4), Topo::kQuad},
    {planar("CAX8RH", 8, 4), Topo::kQuad}, {shell("S3", 3, 3), Topo::kTri},
    {shell("S3R", 3, 3), Topo::kTri},      {shell("STRI3", 3, 3), Topo::kTri},
    {shell("M3D3", 3, 3), Topo::kTri},     {shell("S6", 6, 3), Topo::kTri},
    {shell("M3D6", 6, 3), Topo::kTri},     {shell("S4", 4, 4), Topo::kQuad},
    {shell("S4R", 4, 4), Topo::kQuad},     {shell("M3D4", 4, 4), Topo::kQuad},
    {shell("M3D4R", 4, 4), Topo::kQuad},   {shell("S8", 8, 4), Topo::kQuad},
    {shell("S8R", 8, 4), Topo::kQuad},     {shell("M3D8", 8, 4), Topo::kQuad},
    {shell("M3D8R", 8, 4), Topo::kQuad},   {shell("S9R5", 9, 4), Topo::kQuad},
    {shell("M3D9", 9, 4), Topo::kQuad},    {shell("M3D9R", 9, 4), Topo::kQuad},
};

// Gmsh element types by number: surface elements are segments; volumes and points are not.
const Entry kGmsh[] = {
    {{"GMSH:1", 2, ElementKind::kSegment, 1, 2}, Topo::kLine},
    {{"GMSH:2", 3, ElementKind::kSegment, 2, 3}, Topo::kTri},
    {{"GMSH:3", 4, ElementKind::kSegment, 2, 4}, Topo::kQuad},
    {{"GMSH:4", 4, ElementKind::kOther, 3, 4}, Topo::kNone},
    {{"GMSH:5", 8, ElementKind::kOther, 3, 8}, Topo::kNone},
    {{"GMSH:6", 6, ElementKind::kOther, 3, 6}, Topo::kNone},
    {{"GMSH:7", 5, ElementKind::kOther, 3, 5}, Topo::kNone},
    {{"GMSH:8", 3, ElementKind::kSegment, 1, 2}, Topo::kLine},
    {{"GMSH:9", 6, ElementKind::kSegment, 2, 3}, Topo::kTri},
    {{"GMSH:10", 9, ElementKind::kSegment, 2, 4}, Topo::kQuad},
    {{"GMSH:11", 10, ElementKind::kOther, 3, 4}, Topo::kNone},
    {{"GMSH:12", 27, ElementKind::kOther, 3, 8}, Topo::kNone},
    {{"GMSH:13", 18, ElementKind::kOther, 3, 6}, Topo::kNone},
    {{"GMSH:14", 14, ElementKind::kOther, 3, 5}, Topo::kNone},
    {{"GMSH:15", 1, ElementKind::kOther, 0, 1}, Topo::kNone},
    {{"GMSH:16", 8, ElementKind::kSegment, 2, 4}, Topo::kQuad},
    {{"GMSH:17", 20, ElementKind::kOther, 3, 8}, Topo::kNone},
    {{"GMSH:18", 15, ElementKind::kOther, 3, 6}, Topo::kNone},
    {{"GMSH:19", 13, ElementKind::kOther, 3, 5}, Topo::kNone},
};

// Faces of solids as listed in the Abaqus manual (0-based corners; their right-hand normal
// points into the element).
const std::initializer_list<int> kTetFaces[] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
const std::initializer_list<int> kWedgeFaces[] = {
    {0, 1, 2}, {3, 5, 4}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}};
const std::initializer_list<int> kHexFaces[] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1},
                                                {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};

// Midside node of the edge between corners a and b (0-based), per quadratic family;
// -1 when none.
struct Edge {
    int a, b, mid;
};
const Edge kTriEdges[] = {{0, 1, 3}, {1, 2, 4}, {2, 0, 5}};
const Edge kQuadEdges[] = {{0, 1, 4}, {1, 2, 5}, {2, 3, 6}, {3, 0, 7}};
const Edge kTetEdges[] = {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {0, 3, 7}, {1, 3, 8}, {2, 3, 9}};
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
    case Topo::kWedge: return midOf(kWedgeEdges, a, b);
    case Topo::kHex: return midOf(kHexEdges, a, b);
    case Topo::kLine:
    case Topo::kNone: break;
    }
    return -1;
}

const Entry* entryOf(const ElementType& t) {
    for (const Entry& e : kAbaqus) {
        if (&e.type == &t) {
            return &e;
        }
    }
    for (const Entry& e : kGmsh) {
        if (&e.type == &t) {
            return &e;
        }
    }
    return nullptr;
}

// A face from its corners in order (normal along the right-hand rule of that order), adding the
// midside nodes of quadratic elements and the centre node of 9-node quads.
FaceNodes fromCorners(const ElementType& t, Topo topo, const int* c, int n) {
    FaceNodes f;
    const bool quadratic = t.nodes > t.corners;
    for (int i = 0; i < n; ++i) {
        f.local[i] = c[i];
    }
    if (n == 2) {
        f.type = quadratic ? SegmentType::Line3 : SegmentType::Line2;
        if (quadratic) {
            f.local[2] = mid(topo, c[0], c[1]);
        }
        return f;
    }
    if (!quadratic) {
        f.type = n == 3 ? SegmentType::Tri3 : SegmentType::Quad4;
        return f;
    }
    for (int i = 0; i < n; ++i) {
        f.local[n + i] = mid(topo, c[i], c[(i + 1) % n]);
    }
    f.type = n == 3 ? SegmentType::Tri6 : SegmentType::Quad8;
    return f;
}

}  // namespace

const ElementType* findAbaqusType(std::string_view upperName) noexcept {
    for (const Entry& e : kAbaqus) {
        if (e.type.name == upperName) {
            return &e.type;
        }
    }
    return nullptr;
}

const ElementType* findGmshType(int gmshType) noexcept {
    const std::string name = "GMSH:" + std::to_string(gmshType);
    for (const Entry& e : kGmsh) {
        if (e.type.name == name) {
            return &e.type;
        }
    }
    return nullptr;
}

int faceCount(const ElementType& t) noexcept {
    const Entry* e = entryOf(t);
    if (e == nullptr) {
        return 0;
    }
    switch (t.kind) {
    case ElementKind::kSolid: return e->topo == Topo::kTet ? 4 : e->topo == Topo::kWedge ? 5 : 6;
    case ElementKind::kPlanar: return t.corners;
    case ElementKind::kShell: return 2;
    case ElementKind::kSegment: return 1;
    case ElementKind::kOther: return 0;
    }
    return 0;
}

bool faceNodes(const ElementType& t, int face, FaceNodes& out) noexcept {
    const Entry* e = entryOf(t);
    if (e == nullptr || face < 1 || face > faceCount(t)) {
        return false;
    }
    switch (t.kind) {
    case ElementKind::kSolid: {
        const std::initializer_list<int>& listed = e->topo == Topo::kTet     ? kTetFaces[face - 1]
                                                   : e->topo == Topo::kWedge ? kWedgeFaces[face - 1]
                                                                             : kHexFaces[face - 1];
        // Reverse the manual's (inward) order, keeping the first corner: c0, c(n-1), ..., c1.
        int c[4];
        const int n = static_cast<int>(listed.size());
        const int* l = listed.begin();
        c[0] = l[0];
        for (int i = 1; i < n; ++i) {
            c[i] = l[n - i];
        }
        out = fromCorners(t, e->topo, c, n);
        return true;
    }
    case ElementKind::kPlanar: {
        const int c[2] = {face - 1, face % t.corners};
        out = fromCorners(t, e->topo, c, 2);
        return true;
    }
    case ElementKind::kShell:
    case ElementKind::kSegment: {
        if (e->topo == Topo::kLine) {
            out.type = t.nodes == 3 ? SegmentType::Line3 : SegmentType::Line2;
            for (int i = 0; i < t.nodes; ++i) {
                out.local[i] = i;
            }
            return true;
        }
        int c[4];
        const int n = t.corners;
        for (int i = 0; i < n; ++i) {
            c[i] = (face == 1 || i == 0) ? i : n - i;  // SNEG: c0, c(n-1), ..., c1
        }
        out = fromCorners(t, e->topo, c, n);
        if (t.nodes == 9) {
            out.type = SegmentType::Quad9;
            out.local[8] = 8;
        }
        return true;
    }
    case ElementKind::kOther: return false;
    }
    return false;
}

}  // namespace mesh_io::detail
