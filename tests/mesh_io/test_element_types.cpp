// SPDX-License-Identifier: MIT
// Face tables: every face of every element type in the table becomes a segment whose normal
// points out of the element, with its midside nodes at the midpoints of its edges; shells and rigid
// elements give the side the manuals name; Exodus II sides are the node lists of the Exodus
// convention (SEACAS ex_get_side_set_node_list tables, copied below as they are written there).
#include "contact/segment.hpp"

#include "element_types.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace mesh_io::detail {
namespace {

using contact::SegmentNodes;

// Reference elements in the node order of their file (Abaqus, or Exodus II where the midside
// order differs); midside nodes at edge midpoints.
std::vector<Eigen::Vector3d> referenceNodes(const ElementType& t) {
    std::vector<Eigen::Vector3d> x;
    std::vector<std::pair<int, int>> edges;  // 1-based corner pairs of the midside nodes, in order
    const bool exodus = t.numbering == Numbering::kExodus;
    switch (t.topo) {
    case Topo::kHex:
        x = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
             {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
        edges =
            exodus
                ? std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 4}, {4, 1}, {1, 5}, {2, 6},
                                                   {3, 7}, {4, 8}, {5, 6}, {6, 7}, {7, 8}, {8, 5}}
                : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 4}, {4, 1}, {5, 6}, {6, 7},
                                                   {7, 8}, {8, 5}, {1, 5}, {2, 6}, {3, 7}, {4, 8}};
        break;
    case Topo::kTet:
        x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        edges = {{1, 2}, {2, 3}, {3, 1}, {1, 4}, {2, 4}, {3, 4}};
        break;
    case Topo::kPyramid:  // Exodus II only
        x = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {0, 0, 1}};
        edges = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {1, 5}, {2, 5}, {3, 5}, {4, 5}};
        break;
    case Topo::kWedge:
        x = {{0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
        edges = exodus ? std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 1}, {1, 4}, {2, 5},
                                                          {3, 6}, {4, 5}, {5, 6}, {6, 4}}
                       : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 1}, {4, 5}, {5, 6},
                                                          {6, 4}, {1, 4}, {2, 5}, {3, 6}};
        break;
    case Topo::kQuad:
        x = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        edges = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};
        break;
    case Topo::kTri:
        x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        edges = {{1, 2}, {2, 3}, {3, 1}};
        break;
    case Topo::kLine: x = {{0, 0, 0}, {1, 0, 0}}; break;
    case Topo::kNone: break;
    }
    if (t.nodes > t.corners) {
        for (const auto& e : edges) {
            x.push_back(0.5 * (x[e.first - 1] + x[e.second - 1]));
        }
        if (t.topo == Topo::kLine) {
            x.push_back(0.5 * (x[0] + x[1]));
        }
    }
    if (t.nodes == 9) {
        x.push_back({0.5, 0.5, 0.0});
    }
    if (t.nodes == 27) {  // Exodus II: the centroid, then the centres of sides 5, 6, 4, 2, 1, 3
        x.push_back({0, 0, 0});
        for (const Eigen::Vector3d& c :
             {Eigen::Vector3d(0, 0, -1), Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(-1, 0, 0),
              Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0, 1, 0)}) {
            x.push_back(c);
        }
    }
    return x;
}

SegmentNodes segment(const ElementType& t, const FaceNodes& fn,
                     const std::vector<Eigen::Vector3d>& x) {
    SegmentNodes s;
    s.type = fn.type;
    for (int i = 0; i < contact::nodeCount(fn.type); ++i) {
        s.x[i] = x[static_cast<std::size_t>(fn.local[i])];
    }
    EXPECT_LE(contact::nodeCount(fn.type), t.nodes);
    return s;
}

Eigen::Vector3d centreNormal(const SegmentNodes& s) {
    return contact::outwardNormal(s, contact::referenceCentre(s.type));
}

void expectMidsidesAtMidpoints(const SegmentNodes& s) {
    const int nc = contact::cornerCount(s.type);
    const int n = contact::nodeCount(s.type);
    for (int i = nc; i < n && i < 2 * nc; ++i) {
        const int k = i - nc;
        const Eigen::Vector3d expect =
            nc == 2 ? 0.5 * (s.x[0] + s.x[1]) : 0.5 * (s.x[k] + s.x[(k + 1) % nc]);
        EXPECT_LT((s.x[i] - expect).norm(), 1e-15) << "midside " << i;
    }
}

std::string printable(std::string_view name) {
    std::string s(name);
    std::replace(s.begin(), s.end(), ':', '_');
    return s;
}

// Every solid and 2D continuum of the table, Abaqus and Exodus numbering alike (by name).
class SolidAndPlanarFaces : public ::testing::TestWithParam<std::string> {};

TEST_P(SolidAndPlanarFaces, OutwardNormalAndMidsidesAtEdgeMidpoints) {
    ASSERT_NE(findBlockType(GetParam()), nullptr);
    const ElementType& t = *findBlockType(GetParam());
    const std::vector<Eigen::Vector3d> x = referenceNodes(t);
    ASSERT_EQ(static_cast<int>(x.size()), t.nodes);
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    for (int i = 0; i < t.corners; ++i) {
        centroid += x[static_cast<std::size_t>(i)] / t.corners;
    }
    const int faces = t.kind == ElementKind::kPlanar                       ? t.corners
                      : t.topo == Topo::kTet                               ? 4
                      : t.topo == Topo::kWedge || t.topo == Topo::kPyramid ? 5
                                                                           : 6;
    ASSERT_EQ(faceCount(t), faces);
    for (int f = 1; f <= faces; ++f) {
        SCOPED_TRACE(std::string(t.name) + " face " + std::to_string(f));
        FaceNodes fn;
        ASSERT_TRUE(faceNodes(t, f, fn));
        for (int i = 0; i < contact::nodeCount(fn.type); ++i) {
            ASSERT_GE(fn.local[i], 0);
            ASSERT_LT(fn.local[i], t.nodes);
        }
        const SegmentNodes s = segment(t, fn, x);
        const contact::SegmentFrame fr = contact::segmentFrame(s, contact::referenceCentre(s.type));
        ASSERT_FALSE(fr.degenerate);
        EXPECT_GT(fr.normal.dot(fr.point - centroid), 0.0) << "normal points into the element";
        expectMidsidesAtMidpoints(s);
        if (s.type == contact::SegmentType::Quad9) {  // the centre node at the face's centre
            EXPECT_LT((s.x[8] - 0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3])).norm(), 1e-15);
        }
    }
    FaceNodes fn;
    EXPECT_FALSE(faceNodes(t, 0, fn));
    EXPECT_FALSE(faceNodes(t, faces + 1, fn));
}

std::vector<std::string> typesOfKind(std::initializer_list<ElementKind> kinds) {
    std::vector<std::string> out;
    for (const ElementType& t : allTypes()) {
        if (std::find(kinds.begin(), kinds.end(), t.kind) != kinds.end()) {
            out.emplace_back(t.name);
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Table, SolidAndPlanarFaces,
                         ::testing::ValuesIn(typesOfKind({ElementKind::kSolid,
                                                          ElementKind::kPlanar})),
                         [](const auto& info) { return printable(info.param); });

// Shells (CalculiX *SURFACE: "Face NEG or 1: in negative normal direction, Face POS or 2: in
// positive normal direction, Face 3: 1-2, ..."; Exodus: side 1 positive, side 2 negative). The
// reference shell lies in z = 0 counter-clockwise, so its positive normal (right-hand rule) is +z.
class ShellFaces : public ::testing::TestWithParam<std::string> {};

TEST_P(ShellFaces, NegativeSidePositiveSideAndEdges) {
    ASSERT_NE(findBlockType(GetParam()), nullptr);
    const ElementType& t = *findBlockType(GetParam());
    const std::vector<Eigen::Vector3d> x = referenceNodes(t);
    ASSERT_EQ(static_cast<int>(x.size()), t.nodes);
    ASSERT_EQ(faceCount(t), 2 + t.corners);
    const bool exodus = t.numbering == Numbering::kExodus;
    const int negative = exodus ? 2 : 1;
    const int positive = exodus ? 1 : 2;
    for (const int f : {negative, positive}) {
        FaceNodes fn;
        ASSERT_TRUE(faceNodes(t, f, fn));
        EXPECT_FALSE(isShellEdge(t, f));
        const SegmentNodes s = segment(t, fn, x);
        EXPECT_EQ(contact::nodeCount(s.type), t.nodes);
        EXPECT_NEAR(centreNormal(s).z(), f == positive ? 1.0 : -1.0, 1e-15) << "face " << f;
        expectMidsidesAtMidpoints(s);
    }
    for (int e = 0; e < t.corners; ++e) {  // face 3 + e: the edge from corner e to the next
        SCOPED_TRACE("edge face " + std::to_string(3 + e));
        FaceNodes fn;
        ASSERT_TRUE(faceNodes(t, 3 + e, fn));
        EXPECT_TRUE(isShellEdge(t, 3 + e));
        EXPECT_EQ(fn.type,
                  t.nodes > t.corners ? contact::SegmentType::Line3 : contact::SegmentType::Line2);
        EXPECT_EQ(fn.local[0], e);
        EXPECT_EQ(fn.local[1], (e + 1) % t.corners);
        expectMidsidesAtMidpoints(segment(t, fn, x));
    }
    FaceNodes fn;
    EXPECT_FALSE(faceNodes(t, 3 + t.corners, fn));
}

INSTANTIATE_TEST_SUITE_P(Table, ShellFaces, ::testing::ValuesIn(typesOfKind({ElementKind::kShell})),
                         [](const auto& info) { return printable(info.param); });

// Rigid elements (Abaqus element library): SPOS is the side of the positive normal; for R3D3 and
// R3D4 the right-hand rule of the node order, for R2D2 and RAX2 the direction 1 -> 2 turned 90
// degrees counter-clockwise. Faces: SNEG = 1, SPOS = 2.
TEST(RigidFaces, PositiveSideByTheManual) {
    for (const char* name : {"R3D3", "R3D4"}) {
        SCOPED_TRACE(name);
        const ElementType* t = findAbaqusType(name);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->kind, ElementKind::kRigid);
        ASSERT_EQ(faceCount(*t), 2);
        const std::vector<Eigen::Vector3d> x = referenceNodes(*t);
        FaceNodes neg;
        FaceNodes pos;
        ASSERT_TRUE(faceNodes(*t, 1, neg));
        ASSERT_TRUE(faceNodes(*t, 2, pos));
        EXPECT_NEAR(centreNormal(segment(*t, pos, x)).z(), 1.0, 1e-15);
        EXPECT_NEAR(centreNormal(segment(*t, neg, x)).z(), -1.0, 1e-15);
    }
    for (const char* name : {"R2D2", "RAX2"}) {
        SCOPED_TRACE(name);
        const ElementType* t = findAbaqusType(name);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(faceCount(*t), 2);
        // Nodes (0, 0) -> (1, 0): the positive normal is (0, 1).
        const std::vector<Eigen::Vector3d> x = referenceNodes(*t);
        FaceNodes pos;
        FaceNodes neg;
        ASSERT_TRUE(faceNodes(*t, 2, pos));
        ASSERT_TRUE(faceNodes(*t, 1, neg));
        EXPECT_EQ(pos.type, contact::SegmentType::Line2);
        EXPECT_NEAR(centreNormal(segment(*t, pos, x)).y(), 1.0, 1e-15);
        EXPECT_NEAR(centreNormal(segment(*t, neg, x)).y(), -1.0, 1e-15);
    }
}

// The Exodus II side tables (1-based nodes, outward by the right-hand rule), as SEACAS lists them.
struct ExodusSides {
    const char* type;
    int dim;
    std::vector<std::vector<int>> sides;
};

const ExodusSides kExodusSides[] = {
    {"HEX20",
     3,
     {{1, 2, 6, 5, 9, 14, 17, 13},
      {2, 3, 7, 6, 10, 15, 18, 14},
      {3, 4, 8, 7, 11, 16, 19, 15},
      {1, 5, 8, 4, 13, 20, 16, 12},
      {1, 4, 3, 2, 12, 11, 10, 9},
      {5, 6, 7, 8, 17, 18, 19, 20}}},
    {"TETRA10",
     3,
     {{1, 2, 4, 5, 9, 8}, {2, 3, 4, 6, 10, 9}, {1, 4, 3, 8, 10, 7}, {1, 3, 2, 7, 6, 5}}},
    {"WEDGE15",
     3,
     {{1, 2, 5, 4, 7, 11, 13, 10},
      {2, 3, 6, 5, 8, 12, 14, 11},
      {1, 4, 6, 3, 10, 15, 12, 9},
      {1, 3, 2, 9, 8, 7},
      {4, 5, 6, 13, 14, 15}}},
    {"QUAD8", 2, {{1, 2, 5}, {2, 3, 6}, {3, 4, 7}, {4, 1, 8}}},
    {"TRI6", 2, {{1, 2, 4}, {2, 3, 5}, {3, 1, 6}}},
    {"SHELL8",
     3,
     {{1, 2, 3, 4, 5, 6, 7, 8},
      {1, 4, 3, 2, 8, 7, 6, 5},
      {1, 2, 5},
      {2, 3, 6},
      {3, 4, 7},
      {4, 1, 8}}},
    {"TRISHELL6", 3, {{1, 2, 3, 4, 5, 6}, {3, 2, 1, 6, 5, 4}, {1, 2, 4}, {2, 3, 5}, {3, 1, 6}}},
};

// A closed polygon's corner sequence up to where it starts: (1, 2, 6, 5) == (6, 5, 1, 2).
bool sameCycle(const std::vector<int>& a, const std::vector<int>& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t shift = 0; shift < a.size(); ++shift) {
        bool same = true;
        for (std::size_t i = 0; i < a.size() && same; ++i) {
            same = a[(i + shift) % a.size()] == b[i];
        }
        if (same) {
            return true;
        }
    }
    return false;
}

TEST(ExodusSides, SameNodesAndOrientationAsTheExodusTables) {
    for (const ExodusSides& e : kExodusSides) {
        const int nodes =
            std::stoi(std::string(e.type).substr(std::string(e.type).find_first_of("0123456789")));
        const ElementType* t = findExodusType(e.type, nodes, e.dim);
        ASSERT_NE(t, nullptr) << e.type;
        ASSERT_EQ(faceCount(*t), static_cast<int>(e.sides.size())) << e.type;
        for (std::size_t s = 0; s < e.sides.size(); ++s) {
            SCOPED_TRACE(std::string(e.type) + " side " + std::to_string(s + 1));
            FaceNodes fn;
            ASSERT_TRUE(faceNodes(*t, static_cast<int>(s + 1), fn));
            const std::vector<int>& listed = e.sides[s];
            const int n = contact::nodeCount(fn.type);
            const int nc = contact::cornerCount(fn.type);
            ASSERT_EQ(n, static_cast<int>(listed.size()));
            std::vector<int> got;
            for (int i = 0; i < n; ++i) {
                got.push_back(fn.local[i] + 1);
            }
            // The same nodes, and the corners in the same cyclic order (lines: the same order).
            EXPECT_EQ(std::multiset<int>(got.begin(), got.end()),
                      std::multiset<int>(listed.begin(), listed.end()));
            const std::vector<int> gotCorners(got.begin(), got.begin() + nc);
            const std::vector<int> listedCorners(listed.begin(), listed.begin() + nc);
            EXPECT_TRUE(nc == 2 ? gotCorners == listedCorners
                                : sameCycle(gotCorners, listedCorners));
        }
    }
}

TEST(ExodusTypes, NamesNodeCountsAndDimensions) {
    EXPECT_EQ(findExodusType("HEX", 8, 3)->name, "EXODUS:HEX8");
    EXPECT_EQ(findExodusType("hex20", 20, 3)->name, "EXODUS:HEX20");
    EXPECT_EQ(findExodusType("TETRA", 10, 3)->name, "EXODUS:TETRA10");
    EXPECT_EQ(findExodusType("TET4", 4, 3)->name, "EXODUS:TETRA4");
    EXPECT_EQ(findExodusType("WEDGE", 6, 3)->name, "EXODUS:WEDGE6");
    EXPECT_EQ(findExodusType("QUAD4", 4, 2)->kind, ElementKind::kPlanar);
    // The library's side numbering: a QUAD keeps its four edges as sides in 3D (it is no shell);
    // a TRI in 3D is a shell.
    EXPECT_EQ(findExodusType("QUAD4", 4, 3)->name, "EXODUS:QUAD4");
    EXPECT_EQ(faceCount(*findExodusType("QUAD4", 4, 3)), 4);
    EXPECT_EQ(findExodusType("TRIANGLE", 3, 2)->name, "EXODUS:TRI3");
    EXPECT_EQ(findExodusType("TRI3", 3, 3)->name, "EXODUS:TRISHELL3");
    EXPECT_EQ(findExodusType("HEX8", 20, 3), nullptr) << "name and node count disagree";
    EXPECT_EQ(findExodusType("SPHERE", 1, 3), nullptr);
    EXPECT_EQ(findExodusType("HEX99999999999999999999", 8, 3), nullptr);
    EXPECT_EQ(findBlockType("EXODUS:HEX8"), findExodusType("HEX", 8, 3));
    EXPECT_EQ(findBlockType("GMSH:9"), findGmshType(9));
    EXPECT_EQ(findBlockType("GMSH:"), nullptr);
    EXPECT_EQ(findBlockType("GMSH:99999999999999"), nullptr);
    EXPECT_EQ(findBlockType("C3D8R"), findAbaqusType("C3D8R"));
}

// Variants with the topology of a supported family are found, with that family's faces.
TEST(ElementTypes, VariantsShareTheirFamilysTopology) {
    struct Variant {
        const char* name;
        int nodes;
        ElementKind kind;
        int faces;
    };
    const Variant variants[] = {
        {"C3D8H", 8, ElementKind::kSolid, 6},   {"DC3D8", 8, ElementKind::kSolid, 6},
        {"C3D8T", 8, ElementKind::kSolid, 6},   {"C3D8P", 8, ElementKind::kSolid, 6},
        {"C3D8RT", 8, ElementKind::kSolid, 6},  {"C3D20RH", 20, ElementKind::kSolid, 6},
        {"DC3D20", 20, ElementKind::kSolid, 6}, {"C3D10MH", 10, ElementKind::kSolid, 4},
        {"DC3D4", 4, ElementKind::kSolid, 4},   {"C3D15H", 15, ElementKind::kSolid, 5},
        {"CPE4H", 4, ElementKind::kPlanar, 4},  {"CPE4RT", 4, ElementKind::kPlanar, 4},
        {"DC2D4", 4, ElementKind::kPlanar, 4},  {"CAX4R", 4, ElementKind::kPlanar, 4},
        {"CAX8RH", 8, ElementKind::kPlanar, 4}, {"DCAX6", 6, ElementKind::kPlanar, 3},
        {"CPS3", 3, ElementKind::kPlanar, 3},   {"S4R", 4, ElementKind::kShell, 6},
        {"S8R5", 8, ElementKind::kShell, 6},    {"STRI65", 6, ElementKind::kShell, 5},
        {"DS4", 4, ElementKind::kShell, 6},     {"M3D9R", 9, ElementKind::kShell, 6},
        {"R3D4", 4, ElementKind::kRigid, 2},    {"R3D3", 3, ElementKind::kRigid, 2},
        {"R2D2", 2, ElementKind::kRigid, 2},    {"RAX2", 2, ElementKind::kRigid, 2},
    };
    for (const Variant& v : variants) {
        SCOPED_TRACE(v.name);
        const ElementType* t = findAbaqusType(v.name);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->nodes, v.nodes);
        EXPECT_EQ(t->kind, v.kind);
        EXPECT_EQ(faceCount(*t), v.faces);
    }
    // Every name is in the table once.
    std::set<std::string_view> names;
    for (const ElementType& t : allTypes()) {
        EXPECT_TRUE(names.insert(t.name).second) << t.name;
    }
}

// Generalized axisymmetric elements with twist (CGAX, Abaqus "Axisymmetric solid element
// library"): the nodes and the face table of the CAX element of their node count; the twist is a
// degree of freedom, not a node.
TEST(ElementTypes, GeneralizedAxisymmetricElementsHaveTheCaxFaces) {
    const char* const names[] = {"CGAX3",   "CGAX3H",  "CGAX3T", "CGAX3HT", "CGAX4",   "CGAX4H",
                                 "CGAX4R",  "CGAX4RH", "CGAX4T", "CGAX4HT", "CGAX4RT", "CGAX4RHT",
                                 "CGAX6",   "CGAX6H",  "CGAX6M", "CGAX6MH", "CGAX6MT", "CGAX6MHT",
                                 "CGAX8",   "CGAX8H",  "CGAX8R", "CGAX8RH", "CGAX8T",  "CGAX8HT",
                                 "CGAX8RT", "CGAX8RHT"};
    for (const char* name : names) {
        SCOPED_TRACE(name);
        const ElementType* t = findAbaqusType(name);
        ASSERT_NE(t, nullptr);
        const ElementType* cax = findAbaqusType(std::string("CAX") + name[4]);
        ASSERT_NE(cax, nullptr);
        EXPECT_EQ(t->nodes, cax->nodes);
        EXPECT_EQ(t->corners, cax->corners);
        EXPECT_EQ(t->kind, ElementKind::kPlanar);
        EXPECT_EQ(t->topo, cax->topo);
        ASSERT_EQ(faceCount(*t), faceCount(*cax));
        for (int f = 1; f <= faceCount(*t); ++f) {
            FaceNodes a;
            FaceNodes b;
            ASSERT_TRUE(faceNodes(*t, f, a));
            ASSERT_TRUE(faceNodes(*cax, f, b));
            EXPECT_EQ(a.type, b.type) << "face " << f;
            EXPECT_EQ(a.local, b.local) << "face " << f;
        }
    }
}

TEST(ElementTypes, LookupsAndNonFaces) {
    EXPECT_EQ(findAbaqusType("C3D8R")->nodes, 8);
    EXPECT_EQ(findAbaqusType("C3D20R")->nodes, 20);
    EXPECT_EQ(findAbaqusType("c3d8r"), nullptr) << "lookups take upper-case names";
    EXPECT_EQ(findAbaqusType("B31"), nullptr);
    EXPECT_EQ(findAbaqusType("GMSH:5"), nullptr) << "Gmsh entries are not Abaqus names";
    ASSERT_NE(findGmshType(9), nullptr);
    EXPECT_EQ(findGmshType(9)->nodes, 6);
    EXPECT_EQ(findGmshType(5)->kind, ElementKind::kOther);
    EXPECT_EQ(faceCount(*findGmshType(5)), 0);
    EXPECT_EQ(findGmshType(99), nullptr);
    EXPECT_EQ(findGmshType(-1), nullptr);
    FaceNodes fn;
    ASSERT_TRUE(faceNodes(*findGmshType(8), 1, fn));
    EXPECT_EQ(fn.type, contact::SegmentType::Line3);
    EXPECT_EQ(fn.local[2], 2);
    ASSERT_TRUE(faceNodes(*findGmshType(10), 1, fn));
    EXPECT_EQ(fn.type, contact::SegmentType::Quad9);
    EXPECT_EQ(fn.local[8], 8);
}

}  // namespace
}  // namespace mesh_io::detail
