// SPDX-License-Identifier: MIT
// Model surfaces become segments with outward normals and the origin of each segment.
#include "contact/segment.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

// A unit cube as one element of `type` ("C3D8" or "GMSH:5"), Abaqus/Gmsh corner order.
Model cube(const std::string& type) {
    Model m;
    m.path = "cube.inp";
    m.coords.resize(3, 8);
    m.coords << 0, 1, 1, 0, 0, 1, 1, 0,  //
        0, 0, 1, 1, 0, 0, 1, 1,          //
        0, 0, 0, 0, 1, 1, 1, 1;
    ElementBlock b;
    b.type = type;
    b.nodesPerElement = 8;
    b.ids = {7};
    b.nodes = {0, 1, 2, 3, 4, 5, 6, 7};
    m.blocks.push_back(b);
    return m;
}

Eigen::Vector3d centreNormal(const ContactSurface& cs, const Model& m, Index s,
                             Eigen::Vector3d* centre = nullptr) {
    contact::SegmentNodes seg;
    seg.type = cs.surface.types[s];
    for (int i = 0; i < contact::nodeCount(seg.type); ++i) {
        seg.x[i] = m.coords.col(cs.surface.nodes(s)[i]);
    }
    const contact::SegmentFrame fr = contact::segmentFrame(seg, contact::referenceCentre(seg.type));
    if (centre != nullptr) {
        *centre = fr.point;
    }
    return fr.normal;
}

TEST(ContactSurface, HexFacesPointOutOfTheElement) {
    Model m = cube("C3D8R");
    SurfaceDef s;
    s.name = "All";
    for (int f = 1; f <= 6; ++f) {
        s.faces.push_back({{0, 0}, f});
    }
    m.surfaces.push_back(s);
    const ContactSurface cs = buildContactSurface(m, "all");  // lookup ignores case
    ASSERT_EQ(cs.surface.size(), 6);
    EXPECT_EQ(cs.dim, 3);
    const Eigen::Vector3d centroid(0.5, 0.5, 0.5);
    for (Index f = 0; f < 6; ++f) {
        Eigen::Vector3d c;
        const Eigen::Vector3d n = centreNormal(cs, m, f, &c);
        EXPECT_NEAR(n.dot((c - centroid).normalized()), 1.0, 1e-14) << "S" << f + 1;
        EXPECT_EQ(cs.origin[f].elementId, 7);
        EXPECT_EQ(cs.origin[f].face, f + 1);
    }
}

// Collapsed ("degenerate") hexahedra, which repeat nodes, against the wedges they stand for
// (C3D8 1, 2, 3, 3, 5, 6, 7, 7 as C3D6 1, 2, 3, 5, 6, 7; C3D20 likewise as C3D15): all faces of
// each give the same segments with the same orientation, the hexahedron's face collapsed to a
// line left out and noted.
TEST(ContactSurface, CollapsedHexahedraGiveTheFacesOfTheirWedges) {
    Model m;
    m.path = "collapsed.inp";
    const Eigen::Vector3d corners[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                       {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    const std::pair<int, int> edges[] = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5},
                                         {5, 3}, {0, 3}, {1, 4}, {2, 5}};  // C3D15's midsides
    m.coords.resize(3, 15);
    for (int i = 0; i < 6; ++i) {
        m.coords.col(i) = corners[i];
    }
    for (int i = 0; i < 9; ++i) {
        m.coords.col(6 + i) = 0.5 * (corners[edges[i].first] + corners[edges[i].second]);
    }
    const auto block = [&](const std::string& type, std::vector<Index> nodes) {
        ElementBlock b;
        b.type = type;
        b.nodesPerElement = static_cast<int>(nodes.size());
        b.ids = {static_cast<long>(m.blocks.size() + 1)};
        b.nodes = std::move(nodes);
        m.blocks.push_back(b);
        SurfaceDef s;
        s.name = type;
        const int faces = type == "C3D6" || type == "C3D15" ? 5 : 6;
        for (int f = 1; f <= faces; ++f) {
            s.faces.push_back({{static_cast<Index>(m.blocks.size() - 1), 0}, f});
        }
        m.surfaces.push_back(s);
    };
    block("C3D8", {0, 1, 2, 2, 3, 4, 5, 5});
    block("C3D6", {0, 1, 2, 3, 4, 5});
    block("C3D20", {0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 2, 8, 9, 10, 5, 11, 12, 13, 14, 14});
    block("C3D15", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
    // Each segment from its smallest corner on, its midside nodes turned with its corners.
    const auto canonical = [](const ContactSurface& cs) {
        std::vector<std::pair<contact::SegmentType, std::vector<Index>>> out;
        for (Index s = 0; s < cs.surface.size(); ++s) {
            const contact::SegmentType t = cs.surface.types[s];
            const int nc = contact::cornerCount(t);
            const Index* n = cs.surface.nodes(s);
            const int r = static_cast<int>(std::min_element(n, n + nc) - n);
            std::vector<Index> v;
            for (int k = 0; k < contact::nodeCount(t); ++k) {
                v.push_back(k < nc ? n[(r + k) % nc] : n[nc + (r + k - nc) % nc]);
            }
            out.emplace_back(t, v);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    for (const auto& [hex, wedge] : {std::pair<const char*, const char*>{"C3D8", "C3D6"},
                                     std::pair<const char*, const char*>{"C3D20", "C3D15"}}) {
        SCOPED_TRACE(hex);
        const ContactSurface h = buildContactSurface(m, hex);
        const ContactSurface w = buildContactSurface(m, wedge);
        EXPECT_EQ(h.surface.size(), 5);
        EXPECT_EQ(canonical(h), canonical(w));
        ASSERT_EQ(h.notes.size(), 1U);
        EXPECT_NE(h.notes[0].find("1 of 6 faces are collapsed to a line or a point"),
                  std::string::npos)
            << h.notes[0];
        EXPECT_TRUE(w.notes.empty());
    }
}

// A Gmsh quadrangle on the cube's top face, listed clockwise from outside, is turned outward;
// one on the bottom listed outward stays as it is.
TEST(ContactSurface, GmshFacesAreTurnedAwayFromTheirVolume) {
    Model m = cube("GMSH:5");
    ElementBlock q;
    q.type = "GMSH:3";
    q.nodesPerElement = 4;
    q.ids = {20, 21};
    q.nodes = {4, 7, 6, 5,   // top (z = 1), normal -z: inward
               0, 3, 2, 1};  // bottom (z = 0), normal -z: outward
    m.blocks.push_back(q);
    SurfaceDef s;
    s.name = "faces";
    s.faces = {{{1, 0}, 1}, {{1, 1}, 1}};
    m.surfaces.push_back(s);
    const ContactSurface cs = buildContactSurface(m, "faces");
    ASSERT_EQ(cs.surface.size(), 2);
    EXPECT_NEAR(centreNormal(cs, m, 0).z(), 1.0, 1e-15);
    EXPECT_NEAR(centreNormal(cs, m, 1).z(), -1.0, 1e-15);
    EXPECT_TRUE(cs.notes.empty());
    EXPECT_EQ(cs.origin[0].elementId, 20);
}

TEST(ContactSurface, GmshFaceWithoutVolumeKeepsFileOrderAndSaysSo) {
    Model m = cube("GMSH:5");
    m.blocks.clear();
    ElementBlock q;
    q.type = "GMSH:3";
    q.nodesPerElement = 4;
    q.ids = {1};
    q.nodes = {4, 7, 6, 5};
    m.blocks.push_back(q);
    SurfaceDef s;
    s.name = "lonely";
    s.faces = {{{0, 0}, 1}};
    m.surfaces.push_back(s);
    const ContactSurface cs = buildContactSurface(m, "lonely");
    EXPECT_NEAR(centreNormal(cs, m, 0).z(), -1.0, 1e-15);
    ASSERT_EQ(cs.notes.size(), 1U);
    EXPECT_NE(cs.notes[0].find("no adjacent element"), std::string::npos);
}

// A closed surface that faces into its solid as a whole is noted (its enclosed volume is
// negative); faced outward, or open, it is not. Gmsh quadrangles without a volume keep their file
// order, so the whole cube comes out as listed.
TEST(ContactSurface, ClosedSurfaceFacingInwardIsNoted) {
    const auto withFaces = [](const std::vector<Index>& nodes) {
        Model m = cube("GMSH:5");
        m.blocks.clear();
        ElementBlock q;
        q.type = "GMSH:3";
        q.nodesPerElement = 4;
        for (std::size_t f = 0; f < nodes.size() / 4; ++f) {
            q.ids.push_back(static_cast<long>(f + 1));
        }
        q.nodes = nodes;
        m.blocks.push_back(q);
        SurfaceDef s;
        s.name = "box";
        for (Index f = 0; f < static_cast<Index>(nodes.size() / 4); ++f) {
            s.faces.push_back({{0, f}, 1});
        }
        m.surfaces.push_back(s);
        return buildContactSurface(m, "box");
    };
    const auto insideOut = [](const ContactSurface& cs) {
        return std::count_if(cs.notes.begin(), cs.notes.end(), [](const std::string& n) {
            return n.find("inside-out") != std::string::npos;
        });
    };
    const std::vector<Index> outward = {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4,
                                        3, 7, 6, 2, 0, 4, 7, 3, 1, 2, 6, 5};
    std::vector<Index> inward = outward;
    for (std::size_t f = 0; f < inward.size(); f += 4) {
        std::swap(inward[f + 1], inward[f + 3]);
    }
    const ContactSurface in = withFaces(inward);
    ASSERT_EQ(insideOut(in), 1);
    EXPECT_NE(in.notes.back().find("surface 'box' is closed and encloses a negative volume"),
              std::string::npos)
        << in.notes.back();
    EXPECT_EQ(insideOut(withFaces(outward)), 0);
    // An open surface is not judged, and quietly: a Fortran caller built with
    // -ffpe-trap=invalid stopped on the comparison of its NaN volume.
    std::feclearexcept(FE_ALL_EXCEPT);
    EXPECT_EQ(insideOut(withFaces(std::vector<Index>(inward.begin(), inward.end() - 4))), 0)
        << "an open surface is not judged";
    EXPECT_EQ(std::fetestexcept(FE_INVALID), 0);
    // The faces of a hexahedron (Abaqus face tables: outward) are closed and not noted.
    Model hex = cube("C3D8");
    SurfaceDef all;
    all.name = "all";
    for (int f = 1; f <= 6; ++f) {
        all.faces.push_back({{0, 0}, f});
    }
    hex.surfaces.push_back(all);
    const ContactSurface cs = buildContactSurface(hex, "all");
    EXPECT_NEAR(contact::enclosedVolume(cs.surface, hex.coords), 1.0, 1e-14);
    EXPECT_TRUE(cs.notes.empty());
}

TEST(ContactSurface, UnknownNameListsTheSurfaces) {
    Model m = cube("C3D8");
    SurfaceDef s;
    s.name = "Top";
    s.faces = {{{0, 0}, 2}};
    m.surfaces.push_back(s);
    try {
        (void)buildContactSurface(m, "bottom");
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()),
                  "surface 'bottom' not found in cube.inp (*SURFACE definitions: Top)");
    }
}

TEST(ContactSurface, FaceTheElementDoesNotHaveIsAnErrorAtTheSurfaceLine) {
    Model m = cube("C3D8");
    SurfaceDef s;
    s.name = "Bad";
    s.faces = {{{0, 0}, 7}};
    s.source = {"cube.inp", 42};
    m.surfaces.push_back(s);
    try {
        (void)buildContactSurface(m, "Bad");
        FAIL() << "no exception";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 42);
        EXPECT_NE(std::string(e.what()).find("element 7 of type C3D8 has no face 7"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ContactSurface, NodeSurfaceGivesNodes) {
    Model m = cube("C3D8");
    SurfaceDef s;
    s.name = "pts";
    s.nodeSurface = true;
    s.nodes = {4, 5, 6};
    m.surfaces.push_back(s);
    const ContactSurface cs = buildContactSurface(m, "pts");
    EXPECT_TRUE(cs.nodeSurface);
    EXPECT_EQ(cs.nodes, (std::vector<Index>{4, 5, 6}));
    EXPECT_TRUE(cs.surface.empty());
}

}  // namespace
}  // namespace mesh_io
