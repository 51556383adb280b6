// SPDX-License-Identifier: MIT
// From the interfaces a deck defines to searches: prepareInterface (which surface of a shared
// name, why an interface cannot be searched, with its line), shell sides, edges and rigid
// elements with normals worked out by hand from the manuals' definitions, exterior faces against
// a brute-force twin, general contact searched region by region, and an Abaqus/CAE assembly
// against the same model written flat.
#include "contact/contact_search.hpp"
#include "contact/segment.hpp"
#include "mesh_io/abaqus.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"

#include "pair_columns.hpp"
#include "scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;

const std::string kDir = std::string(CONTACT_TEST_DATA_DIR) + "/abaqus";

std::string fixture(const std::string& name) { return kDir + "/" + name; }

fs::path scratchDir() {
    return contact::testing::scratchDir(CONTACT_TEST_BUILD_DATA_DIR, "interfaces_scratch");
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Reads `text` as a deck in a scratch file.
Model readDeck(const std::string& text, const std::string& name = "deck.inp") {
    const fs::path path = scratchDir() / name;
    std::ofstream(path, std::ios::binary) << text;
    return readAbaqus(path.string());
}

Eigen::Vector3d centreNormal(const Model& m, const ContactSurface& cs, Index s) {
    contact::SegmentNodes seg;
    seg.type = cs.surface.types[s];
    for (int i = 0; i < contact::nodeCount(seg.type); ++i) {
        seg.x[i] = m.coords.col(cs.surface.nodes(s)[i]);
    }
    return contact::outwardNormal(seg, contact::referenceCentre(seg.type));
}

::testing::AssertionResult normalIs(const Model& m, const ContactSurface& cs, Index s,
                                    const Eigen::Vector3d& expected) {
    const Eigen::Vector3d n = centreNormal(m, cs, s);
    if ((n - expected).norm() < 1e-14) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "segment " << s << " (element " << cs.origin[static_cast<std::size_t>(s)].elementId
           << "): normal (" << n.transpose() << "), expected (" << expected.transpose() << ")";
}

// One search of an interface: the pairs named as outputs name them.
struct Found {
    std::map<std::pair<std::string, std::string>, double> nodePairs;  // (node, element:face): gap
    std::set<std::pair<std::string, std::string>> segmentPairs;       // (element:face, ...)
    Index count = 0;
};

std::string faceLabel(const Model& m, const ContactSurface& cs, Index s) {
    const SegmentOrigin o = cs.origin[static_cast<std::size_t>(s)];
    return m.elementLabel(o.instance, o.elementId) + ":" + std::to_string(o.face);
}

Found search(const Model& m, const InterfaceDef& def, double capture) {
    const PreparedInterface p = prepareInterface(m, def);
    contact::SearchOptions opt;
    opt.capture = capture;
    opt.captureRelative = false;
    opt.mode = p.mode;
    opt.selfContact = p.selfContact;
    contact::ContactSearch search(opt);
    const Eigen::Matrix2Xd xy = m.coords.topRows<2>();
    const contact::CoordinatesView x =
        p.master.dim == 3 ? contact::CoordinatesView(m.coords) : contact::CoordinatesView(xy);
    if (p.slave.nodeSurface) {
        search.setSurfaces(p.master.surface, p.slave.nodes, x);
    } else {
        search.setSurfaces(p.master.surface, p.slave.surface, x);
    }
    const contact::UpdateStats st = search.update(x);
    EXPECT_EQ(st.status, contact::UpdateStatus::kOk);
    const contact::testing::PairColumns pairs = contact::testing::columns(search);
    Found f;
    f.count = pairs.size();
    for (Index i = 0; i < pairs.size(); ++i) {
        const std::string master = faceLabel(m, p.master, pairs.master[i]);
        if (p.mode == contact::SearchMode::kNodeToSegment) {
            f.nodePairs[{m.nodeLabel(pairs.slave[i]), master}] = pairs.node->gap()[i];
        } else {
            f.segmentPairs.insert({faceLabel(m, p.slave, pairs.slave[i]), master});
        }
    }
    return f;
}

Index countPairs(const Model& m, double capture) {
    Index n = 0;
    for (const InterfaceDef& d : m.interfaces) {
        n += search(m, d, capture).count;
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// prepareInterface.

TEST(PrepareInterface, SharedNamesPickTheSurfaceTheInterfaceNeeds) {
    const Model m = readAbaqus(fixture("interfaces.inp"));
    ASSERT_EQ(m.interfaces.size(), 6U);
    // Node to surface: the node surface UPPER_BOTTOM is the slave (4 nodes, CalculiX's default).
    PreparedInterface p = prepareInterface(m, m.interfaces[0]);
    EXPECT_TRUE(p.slave.nodeSurface);
    EXPECT_EQ(p.slave.nodes.size(), 4U);
    EXPECT_EQ(p.mode, contact::SearchMode::kNodeToSegment);
    EXPECT_FALSE(p.selfContact);
    // Surface to surface: the slave must have faces, so the element surface of that name.
    p = prepareInterface(m, m.interfaces[1]);
    EXPECT_FALSE(p.slave.nodeSurface);
    EXPECT_EQ(p.slave.surface.size(), 1);
    EXPECT_EQ(p.mode, contact::SearchMode::kSegmentToSegment);
    // MASSLESS: node to surface.
    EXPECT_TRUE(prepareInterface(m, m.interfaces[2]).slave.nodeSurface);
    // A master is always the element surface of its name.
    p = prepareInterface(m, m.interfaces[3]);
    EXPECT_EQ(p.master.name, "UPPER_BOTTOM");
    EXPECT_EQ(p.master.surface.size(), 1);
    // A mode given on the command line decides too.
    EXPECT_FALSE(prepareInterface(m, m.interfaces[0], contact::SearchMode::kSegmentToSegment)
                     .slave.nodeSurface);
    // Every searchable one gives the four pairs of the 0.1 gap.
    for (std::size_t i = 0; i < 4; ++i) {
        const Found f = search(m, m.interfaces[i], 0.5);
        EXPECT_EQ(f.count, i == 1 ? 1 : 4) << i;
        for (const auto& [key, gap] : f.nodePairs) {
            EXPECT_NEAR(gap, 0.1, 1e-14) << key.first;
        }
    }
}

// A pair naming one surface that is both a node and an element surface (CalculiX) searches the
// element surface against itself, in node mode too: the node surface, taken as the slave, paired
// each of its nodes with its own face at gap 0.
TEST(PrepareInterface, SelfContactOfASharedNameTakesTheElementSurface) {
    std::string text = readText(fixture("interfaces.inp"));
    text += "*CONTACT PAIR, INTERACTION=SI, TYPE=NODE TO SURFACE\nUPPER_BOTTOM,\n";
    const Model m = readDeck(text, "self_contact_shared_name.inp");
    const InterfaceDef& def = m.interfaces.back();
    ASSERT_EQ(def.slave, "UPPER_BOTTOM");
    const PreparedInterface p = prepareInterface(m, def);
    EXPECT_TRUE(p.selfContact);
    EXPECT_EQ(p.mode, contact::SearchMode::kNodeToSegment);
    EXPECT_FALSE(p.slave.nodeSurface);
    EXPECT_EQ(p.slave.surface.size(), 1);
    EXPECT_EQ(search(m, def, 0.5).count, 0);  // one flat face: nothing for it to touch
}

TEST(PrepareInterface, RefusalsNameTheInterfaceLine) {
    const Model m = readAbaqus(fixture("interfaces.inp"));
    const auto refusal = [&](const InterfaceDef& d) -> std::string {
        try {
            (void)prepareInterface(m, d);
        } catch (const ParseError& e) {
            EXPECT_EQ(e.path(), fixture("interfaces.inp"));
            EXPECT_EQ(e.line(), d.source.line);
            return e.what();
        }
        return "no ParseError";
    };
    EXPECT_EQ(refusal(m.interfaces[4]),
              fixture("interfaces.inp") + ":43: TYPE=EDGETOEDGE on *CONTACT PAIR is not a contact "
                                          "type this search knows (NODE TO SURFACE, SURFACE TO "
                                          "SURFACE, MORTAR, LINMORTAR, PGMORTAR, PGLINMORTAR, "
                                          "MASSLESS)");
    EXPECT_EQ(refusal(m.interfaces[5]), fixture("interfaces.inp") +
                                            ":45: slave surface 'NO_SUCH_SURFACE' is not defined "
                                            "(*SURFACE definitions: UPPER_BOTTOM "
                                            "(nodes), UPPER_BOTTOM, LOWER_TOP)");
    InterfaceDef d = m.interfaces[0];
    d.master = "UPPER_BOTTOM";  // a node surface only: written as such below
    Model nodesOnly = m;
    nodesOnly.surfaces.erase(nodesOnly.surfaces.begin() + 1);
    try {
        (void)prepareInterface(nodesOnly, d);
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(":35: master surface 'UPPER_BOTTOM' is a node "
                                             "surface; a master needs element faces"),
                  std::string::npos)
            << e.what();
    }
    d = m.interfaces[1];  // segment mode with a node surface as the slave
    try {
        (void)prepareInterface(nodesOnly, d);
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(":37: slave 'UPPER_BOTTOM' is a node surface, which "
                                             "segment-to-segment mode cannot take"),
                  std::string::npos)
            << e.what();
    }
}

// A surface that cannot be built is refused at the interface's line, naming the surface's line.
TEST(PrepareInterface, SurfaceErrorsCarryBothLines) {
    const Model m = readDeck("*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n"
                             "*ELEMENT, TYPE=S4R\n1, 1, 2, 3, 4\n*ELEMENT, TYPE=C3D4\n"
                             "2, 1, 2, 4, 5\n*SURFACE, NAME=EDGE\n1, S3\n*SURFACE, NAME=FACE\n"
                             "2, S1\n*CONTACT PAIR, INTERACTION=I\nFACE, EDGE\n");
    try {
        (void)prepareInterface(m, m.interfaces.at(0));
        FAIL() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 16);
        const std::string what = e.what();
        EXPECT_NE(what.find(":16: master surface 'EDGE' cannot be searched: "), std::string::npos)
            << what;
        EXPECT_NE(what.find(":11: surface 'EDGE': face 3 of element 1 (S4R) is edge 1 of a "
                            "shell (label E1, or S3 in CalculiX): shell edges are line segments, "
                            "which the search takes only in a planar model (every node at z = "
                            "0; node 5 is at z = 1); in 3D they are not searched"),
                  std::string::npos)
            << what;
    }
}

// A surface with nothing to search (an empty element set; in Gmsh, a group whose elements are of
// skipped types) is refused: searched, it would report "0 pairs", as if the bodies were apart.
TEST(PrepareInterface, AnEmptySurfaceIsRefusedNotSearched) {
    const Model m = readDeck("*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n"
                             "*ELEMENT, TYPE=C3D4, ELSET=TET\n1, 1, 2, 4, 5\n*ELSET, ELSET=NONE\n"
                             "*SURFACE, NAME=FACE\nTET, S1\n*SURFACE, NAME=GHOST\nNONE, S1\n"
                             "*CONTACT PAIR, INTERACTION=I\nFACE, GHOST\n"
                             "*CONTACT PAIR, INTERACTION=J\nGHOST, FACE\n");
    const auto refusal = [&](const InterfaceDef& d) -> std::string {
        try {
            (void)prepareInterface(m, d);
        } catch (const ParseError& e) {
            EXPECT_EQ(e.line(), d.source.line);
            return e.what();
        }
        return "no ParseError";
    };
    ASSERT_EQ(m.interfaces.size(), 2U);
    EXPECT_NE(
        refusal(m.interfaces[0]).find(":15: master surface 'GHOST' has no segments to search"),
        std::string::npos)
        << refusal(m.interfaces[0]);
    EXPECT_NE(refusal(m.interfaces[1]).find(":17: slave surface 'GHOST' has no segments to search"),
              std::string::npos)
        << refusal(m.interfaces[1]);
}

// An analytical rigid surface (*SURFACE, TYPE=CYLINDER) is not read: an interface naming it says
// so, with the surface's line, instead of "not defined".
TEST(PrepareInterface, AnAnalyticalSurfaceIsNamedAsSuch) {
    const Model m = readDeck("*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n"
                             "*ELEMENT, TYPE=C3D4, ELSET=TET\n1, 1, 2, 4, 5\n"
                             "*SURFACE, NAME=FACE\nTET, S1\n"
                             "*SURFACE, TYPE=CYLINDER, NAME=Roller\nSTART, 0.5, 1.02, 0.\n"
                             "LINE, 0.5, 1.02, 1.\n"
                             "*CONTACT PAIR, INTERACTION=I\nFACE, roller\n",
                             "analytical.inp");
    ASSERT_EQ(m.interfaces.size(), 1U);
    try {
        (void)prepareInterface(m, m.interfaces[0]);
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      ":15: master surface 'roller' is defined at " +
                      (scratchDir() / "analytical.inp").string() +
                      ":11: *SURFACE, TYPE=CYLINDER (an analytical rigid surface), which is not "
                      "read"),
                  std::string::npos)
            << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Shells and rigid elements, normals by hand.

// shells.inp: two shells in z = 0, counter-clockwise from +z: the positive side (SPOS, POS,
// CalculiX S2) has normal +z, the negative side (SNEG, NEG, S1) -z.
TEST(ShellSurfaces, SidesAsTheManualsDefineThem) {
    const Model m = readAbaqus(fixture("shells.inp"));
    for (const auto& [name, z] : std::vector<std::pair<std::string, double>>{
             {"TOP", 1.0}, {"BOTTOM", -1.0}, {"TOP_S2", 1.0}}) {
        const ContactSurface cs = buildContactSurface(m, name);
        ASSERT_GT(cs.surface.size(), 0) << name;
        for (Index s = 0; s < cs.surface.size(); ++s) {
            EXPECT_TRUE(normalIs(m, cs, s, {0.0, 0.0, z})) << name;
        }
    }
    const ContactSurface negPos = buildContactSurface(m, "NEG_POS");
    EXPECT_TRUE(normalIs(m, negPos, 0, {0.0, 0.0, -1.0}));
    EXPECT_TRUE(normalIs(m, negPos, 1, {0.0, 0.0, 1.0}));
    EXPECT_EQ(negPos.origin[0].face, 1);
    EXPECT_EQ(negPos.origin[1].face, 2);
    // Edges S3 (nodes 1-2 of element 1, along y = 0) and S5 (nodes 3-4 of element 2, y = 1) in a
    // planar model: line segments pointing out of their element, (0, -1) and (0, 1).
    const ContactSurface edges = buildContactSurface(m, "EDGES");
    ASSERT_EQ(edges.surface.size(), 2);
    EXPECT_EQ(edges.dim, 2);
    EXPECT_EQ(edges.surface.types[0], contact::SegmentType::Line2);
    EXPECT_EQ(edges.surface.types[1], contact::SegmentType::Line3);
    EXPECT_TRUE(normalIs(m, edges, 0, {0.0, -1.0, 0.0}));
    EXPECT_TRUE(normalIs(m, edges, 1, {0.0, 1.0, 0.0}));
}

// A tilted S4R with nodes (0,0,0), (1,0,1), (1,1,1), (0,1,0): the right-hand rule gives
// (1,0,1) x (0,1,0) = (-1,0,1), so SPOS points along (-1,0,1)/sqrt(2) and S1 (NEG) against it. A
// shell listed clockwise in z = 0 still has its edges pointing out of it.
TEST(ShellSurfaces, TiltedShellAndClockwiseEdges) {
    const Model m = readDeck("*NODE\n1, 0, 0, 0\n2, 1, 0, 1\n3, 1, 1, 1\n4, 0, 1, 0\n"
                             "*ELEMENT, TYPE=S4\n1, 1, 2, 3, 4\n*SURFACE, NAME=P\n1, SPOS\n"
                             "*SURFACE, NAME=N\n1, S1\n");
    const double h = std::sqrt(0.5);
    EXPECT_TRUE(normalIs(m, buildContactSurface(m, "P"), 0, {-h, 0.0, h}));
    EXPECT_TRUE(normalIs(m, buildContactSurface(m, "N"), 0, {h, 0.0, -h}));
    const Model cw =
        readDeck("*NODE\n1, 0, 0\n2, 0, 1\n3, 1, 1\n4, 1, 0\n"
                 "*ELEMENT, TYPE=S4R\n1, 1, 2, 3, 4\n*SURFACE, NAME=E\n1, S3\n1, S4\n");
    const ContactSurface e = buildContactSurface(cw, "E");
    EXPECT_TRUE(normalIs(cw, e, 0, {-1.0, 0.0, 0.0}));  // nodes 1-2 along x = 0
    EXPECT_TRUE(normalIs(cw, e, 1, {0.0, 1.0, 0.0}));   // nodes 2-3 along y = 1
}

// Rigid elements: R3D4 SPOS by the right-hand rule, R2D2 SPOS the direction 1 -> 2 turned 90
// degrees counter-clockwise.
TEST(ShellSurfaces, RigidElementsAsMasters) {
    const Model m =
        readDeck("*NODE\n1, 0, 0, 0\n2, 0, 1, 0\n3, 1, 1, 0\n4, 1, 0, 0\n"
                 "5, 0.5, 0.5, -0.2\n*ELEMENT, TYPE=R3D4, ELSET=DIE\n1, 1, 2, 3, 4\n"
                 "*SURFACE, NAME=DIE_POS\nDIE, SPOS\n*SURFACE, NAME=DIE_NEG\nDIE, SNEG\n"
                 "*SURFACE, NAME=PT, TYPE=NODE\n5\n*CONTACT PAIR, INTERACTION=I\n"
                 "PT, DIE_POS\n");
    // 1 -> 2 -> 3 -> 4 runs clockwise seen from +z: the positive normal is -z.
    EXPECT_TRUE(normalIs(m, buildContactSurface(m, "DIE_POS"), 0, {0.0, 0.0, -1.0}));
    EXPECT_TRUE(normalIs(m, buildContactSurface(m, "DIE_NEG"), 0, {0.0, 0.0, 1.0}));
    const Found f = search(m, m.interfaces.at(0), 0.5);
    ASSERT_EQ(f.nodePairs.size(), 1U);
    EXPECT_NEAR(f.nodePairs.begin()->second, 0.2, 1e-15) << "the node is on the positive side";
    const Model m2 = readDeck("*NODE\n1, 0, 0\n2, 2, 0\n*ELEMENT, TYPE=R2D2\n1, 1, 2\n"
                              "*ELEMENT, TYPE=RAX2\n2, 2, 1\n*SURFACE, NAME=A\n1, SPOS\n"
                              "*SURFACE, NAME=B\n2, SPOS\n");
    EXPECT_TRUE(normalIs(m2, buildContactSurface(m2, "A"), 0, {0.0, 1.0, 0.0}));
    EXPECT_TRUE(normalIs(m2, buildContactSurface(m2, "B"), 0, {0.0, -1.0, 0.0}));
}

// Variants of the solid and plane families in one deck: every face points out of its element.
TEST(ShellSurfaces, ElementVariantsGiveOutwardFaces) {
    std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n"
                       "6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n";
    const char* solids[] = {"DC3D8", "C3D8P", "C3D8T", "C3D8H", "C3D8RH", "DCC3D8"};
    long id = 1;
    for (const char* type : solids) {
        deck += std::string("*ELEMENT, TYPE=") + type + ", ELSET=SOLIDS\n" + std::to_string(id++) +
                ", 1, 2, 3, 4, 5, 6, 7, 8\n";
    }
    deck += "*SURFACE, NAME=ALL\n";
    for (int f = 1; f <= 6; ++f) {
        deck += "SOLIDS, S" + std::to_string(f) + "\n";
    }
    const Model m = readDeck(deck);
    const ContactSurface cs = buildContactSurface(m, "ALL");
    ASSERT_EQ(cs.surface.size(), 36);
    const Eigen::Vector3d expected[] = {{0, 0, -1}, {0, 0, 1}, {0, -1, 0},
                                        {1, 0, 0},  {0, 1, 0}, {-1, 0, 0}};
    for (Index s = 0; s < cs.surface.size(); ++s) {
        EXPECT_TRUE(normalIs(m, cs, s, expected[cs.origin[static_cast<std::size_t>(s)].face - 1]))
            << m.blocks[static_cast<std::size_t>(s) % 6].type;
    }
    const Model plane = readDeck("*NODE\n1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n"
                                 "*ELEMENT, TYPE=CPE4H, ELSET=Q\n1, 1, 2, 3, 4\n"
                                 "*ELEMENT, TYPE=DCAX4\n2, 1, 2, 3, 4\n*SURFACE, NAME=B\nQ, S1\n"
                                 "2, S2\n");
    const ContactSurface b = buildContactSurface(plane, "B");
    EXPECT_TRUE(normalIs(plane, b, 0, {0.0, -1.0, 0.0}));
    EXPECT_TRUE(normalIs(plane, b, 1, {1.0, 0.0, 0.0}));
}

// ---------------------------------------------------------------------------------------------
// Exterior faces.

// A structured hex grid; the oracle compares every face with every other (quadratic, small).
Model hexGrid(int nx, int ny, int nz) {
    Model m;
    m.path = "grid";
    const auto node = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
    m.coords.resize(3, (nx + 1) * (ny + 1) * (nz + 1));
    for (int k = 0; k <= nz; ++k) {
        for (int j = 0; j <= ny; ++j) {
            for (int i = 0; i <= nx; ++i) {
                m.coords.col(node(i, j, k)) = Eigen::Vector3d(i, j, k);
                m.nodeIds.push_back(node(i, j, k) + 1);
            }
        }
    }
    ElementBlock b;
    b.type = "C3D8";
    b.nodesPerElement = 8;
    for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
            for (int i = 0; i < nx; ++i) {
                b.ids.push_back(static_cast<long>(b.ids.size()) + 1);
                for (const auto& [di, dj, dk] : std::vector<std::array<int, 3>>{{0, 0, 0},
                                                                                {1, 0, 0},
                                                                                {1, 1, 0},
                                                                                {0, 1, 0},
                                                                                {0, 0, 1},
                                                                                {1, 0, 1},
                                                                                {1, 1, 1},
                                                                                {0, 1, 1}}) {
                    b.nodes.push_back(node(i + di, j + dj, k + dk));
                }
            }
        }
    }
    m.blocks.push_back(b);
    return m;
}

TEST(ExteriorFaces, EqualTheFacesNoOtherElementShares) {
    const Model m = hexGrid(3, 2, 2);
    SurfaceDef all;
    all.name = "all";
    for (Index e = 0; e < m.blocks[0].size(); ++e) {
        for (int f = 1; f <= 6; ++f) {
            all.faces.push_back({{0, e}, f});
        }
    }
    Model withAll = m;
    withAll.surfaces.push_back(all);
    const ContactSurface cs = buildContactSurface(withAll, all);
    std::vector<std::vector<Index>> corners;
    for (Index s = 0; s < cs.surface.size(); ++s) {
        std::vector<Index> c(cs.surface.nodes(s), cs.surface.nodes(s) + 4);
        std::sort(c.begin(), c.end());
        corners.push_back(c);
    }
    std::set<std::pair<Index, int>> expected;
    for (std::size_t a = 0; a < corners.size(); ++a) {
        bool shared = false;
        for (std::size_t b = 0; b < corners.size(); ++b) {
            shared = shared || (a != b && corners[a] == corners[b]);
        }
        if (!shared) {
            expected.insert({all.faces[a].element.element, all.faces[a].face});
        }
    }
    std::set<std::pair<Index, int>> got;
    for (const FaceRef& f : exteriorFaces(m)) {
        got.insert({f.element.element, f.face});
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got.size(), static_cast<std::size_t>(2 * (3 * 2 + 3 * 2 + 2 * 2)));
}

// 64,000 hexahedra (384,000 faces): only a matching that is not quadratic finishes here.
TEST(ExteriorFaces, LargeGridIsMatchedBySorting) {
    const Model m = hexGrid(40, 40, 40);
    EXPECT_EQ(exteriorFaces(m).size(), 6U * 40U * 40U);
}

// ---------------------------------------------------------------------------------------------
// General contact.

std::string withoutLine(std::string text, const std::string& line) {
    const std::size_t at = text.find(line + "\n");
    EXPECT_NE(at, std::string::npos) << line;
    return text.erase(at, line.size() + 1);
}

// general_contact.inp: A and B 0.1 apart (4 + 4 node pairs each way), C over B's middle (its 4
// bottom nodes 0.1 above B); B's corners are 0.27 from C, farther than the capture distance.
TEST(GeneralContact, ExclusionsTakeOutExactlyTheExcludedPairs) {
    const std::string text = readText(fixture("general_contact.inp"));
    const Model excluded = readDeck(text);
    ASSERT_EQ(excluded.interfaces.size(), 3U);
    const Found rest = search(excluded, excluded.interfaces[2], 0.15);
    EXPECT_EQ(countPairs(excluded, 0.15), 4) << "only C on B: A and B are excluded";
    ASSERT_EQ(rest.nodePairs.size(), 4U);
    for (const auto& [key, gap] : rest.nodePairs) {
        EXPECT_NEAR(gap, 0.1, 1e-14);
        EXPECT_EQ(key.second, "2:2") << "C's bottom nodes on B's top face";
    }
    const Model all =
        readDeck(withoutLine(withoutLine(text, "*CONTACT EXCLUSIONS"), "A_SKIN, B_SKIN"));
    ASSERT_EQ(all.interfaces.size(), 1U);
    EXPECT_EQ(all.interfaces[0].slave, "ALL EXTERIOR");
    EXPECT_EQ(countPairs(all, 0.15), 12);
}

TEST(GeneralContact, NamedPairsAreSearchedFromBothSides) {
    const std::string text = readText(fixture("general_contact.inp"));
    std::string named = text.substr(0, text.find("*CONTACT\n"));
    named += "*CONTACT\n*CONTACT INCLUSIONS\nA_TOP, B_BOTTOM\n";
    const Model m = readDeck(named);
    ASSERT_EQ(m.interfaces.size(), 2U);
    EXPECT_EQ(m.interfaces[0].slave, "A_TOP");
    EXPECT_EQ(m.interfaces[0].master, "B_BOTTOM");
    EXPECT_EQ(m.interfaces[1].slave, "B_BOTTOM");
    EXPECT_EQ(m.interfaces[1].master, "A_TOP");
    EXPECT_EQ(search(m, m.interfaces[0], 0.15).count, 4);
    EXPECT_EQ(search(m, m.interfaces[1], 0.15).count, 4);
    // Self-contact: a blank second surface.
    const Model self = readDeck(text.substr(0, text.find("*CONTACT\n")) +
                                "*CONTACT\n*CONTACT INCLUSIONS\nB_SKIN,\n");
    ASSERT_EQ(self.interfaces.size(), 1U);
    EXPECT_EQ(self.interfaces[0].slave, "B_SKIN");
    EXPECT_EQ(self.interfaces[0].master, "B_SKIN");
    EXPECT_TRUE(prepareInterface(self, self.interfaces[0]).selfContact);
    EXPECT_EQ(search(self, self.interfaces[0], 0.15).count, 0);
    // Excluding the only included pair leaves nothing to search; a blank first surface means
    // the whole exterior.
    const Model none = readDeck(text.substr(0, text.find("*CONTACT\n")) +
                                "*CONTACT\n*CONTACT INCLUSIONS\nA_TOP, B_BOTTOM\n"
                                "*CONTACT EXCLUSIONS\nB_BOTTOM, A_TOP\n");
    EXPECT_TRUE(none.interfaces.empty());
    const Model withAll = readDeck(text.substr(0, text.find("*CONTACT\n")) +
                                   "*CONTACT\n*CONTACT INCLUSIONS\n, A_TOP\n");
    ASSERT_EQ(withAll.interfaces.size(), 2U);
    EXPECT_EQ(withAll.interfaces[0].slave, "A_TOP");
    EXPECT_EQ(withAll.interfaces[0].master, "ALL EXTERIOR");
    EXPECT_EQ(withAll.interfaces[1].slave, "ALL EXTERIOR except A_TOP");
    EXPECT_EQ(withAll.interfaces[1].master, "A_TOP");
    EXPECT_EQ(countPairs(withAll, 0.15), 8) << "A's top with B's bottom, both ways";
}

TEST(GeneralContact, DefinitionsThatCannotBeSearchedCarryTheirProblem) {
    const std::string text = readText(fixture("general_contact.inp"));
    const std::string head = text.substr(0, text.find("*CONTACT\n"));
    const Model unknown = readDeck(head + "*CONTACT\n*CONTACT INCLUSIONS\nA_TOP, NOPE\n");
    ASSERT_EQ(unknown.interfaces.size(), 1U);
    EXPECT_EQ(unknown.interfaces[0].problem,
              "general contact: surface 'NOPE' is not defined (general contact takes element "
              "surfaces)");
    EXPECT_EQ(unknown.interfaces[0].source.line, 58);
    const Model overlap = readDeck(head + "*CONTACT\n*CONTACT INCLUSIONS\nA_TOP, B_BOTTOM\n"
                                          "*CONTACT EXCLUSIONS\nA_SKIN, B_SKIN\n");
    ASSERT_EQ(overlap.interfaces.size(), 1U);
    EXPECT_EQ(overlap.interfaces[0].problem,
              "general contact: surfaces 'A_TOP' and 'A_SKIN' have 1 face in common; the search "
              "splits the contact domain into surfaces without common faces");
    const Model empty = readDeck(head + "*CONTACT\n");
    ASSERT_EQ(empty.interfaces.size(), 1U);
    EXPECT_NE(empty.interfaces[0].problem.find("*CONTACT without *CONTACT INCLUSIONS"),
              std::string::npos);
    // Shells are not in the exterior: noted.
    const Model shells = readDeck("*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n"
                                  "*ELEMENT, TYPE=S4R\n1, 1, 2, 3, 4\n*CONTACT\n"
                                  "*CONTACT INCLUSIONS, ALL EXTERIOR\n");
    ASSERT_FALSE(shells.notes.empty());
    EXPECT_NE(shells.notes.back().find(":9: 1 shell and membrane elements are not in ALL "
                                       "EXTERIOR"),
              std::string::npos)
        << shells.notes.back();
}

// ---------------------------------------------------------------------------------------------
// An Abaqus/CAE assembly and the same model written flat give the same pairs.

// Flat ids: Block-1 as in its part, Block-2 + 100, Indenter-1 + 200 (flat_blocks.inp).
std::string flatLabel(const std::string& label) {
    const std::size_t dot = label.find('.');
    if (dot == std::string::npos) {
        return label;
    }
    const std::string instance = label.substr(0, dot);
    std::string rest = label.substr(dot + 1);
    const std::size_t colon = rest.find(':');
    const long id = std::stol(rest.substr(0, colon));
    const long offset = instance == "Block-2" ? 100 : instance == "Indenter-1" ? 200 : 0;
    return std::to_string(id + offset) + (colon == std::string::npos ? "" : rest.substr(colon));
}

TEST(Assembly, CaeDeckGivesThePairsOfItsFlatTwin) {
    const Model cae = readAbaqus(fixture("assembly/cae_blocks.inp"));
    const Model flat = readAbaqus(fixture("assembly/flat_blocks.inp"));
    ASSERT_EQ(cae.interfaces.size(), 2U);
    ASSERT_EQ(flat.interfaces.size(), 2U);
    constexpr double kCapture = 0.15;
    // General contact: the exterior of both blocks and the indenter, as self-contact. By hand:
    // 4 + 4 nodes where the blocks overlap, 1 top node of Block-2 under the indenter and the
    // indenter's 9 nodes over Block-2, all 0.05 from the face across.
    const Found gc = search(cae, cae.interfaces[1], kCapture);
    const Found gcFlat = search(flat, flat.interfaces[1], kCapture);
    EXPECT_EQ(gc.count, 18);
    ASSERT_EQ(gc.nodePairs.size(), gcFlat.nodePairs.size());
    for (const auto& [key, gap] : gc.nodePairs) {
        const auto it = gcFlat.nodePairs.find({flatLabel(key.first), flatLabel(key.second)});
        ASSERT_NE(it, gcFlat.nodePairs.end()) << key.first << " -> " << key.second;
        EXPECT_NEAR(gap, it->second, 1e-14) << key.first;
        EXPECT_NEAR(gap, 0.05, 1e-14) << key.first;
    }
    // The contact pair Block-2.Bottom on Contact-Top (surface to surface): every slave face over
    // the master faces it overlaps.
    const Found cp = search(cae, cae.interfaces[0], kCapture);
    const Found cpFlat = search(flat, flat.interfaces[0], kCapture);
    EXPECT_EQ(cp.count, 16);
    std::set<std::pair<std::string, std::string>> mapped;
    for (const auto& [s, mst] : cp.segmentPairs) {
        mapped.insert({flatLabel(s), flatLabel(mst)});
    }
    EXPECT_EQ(mapped, cpFlat.segmentPairs);
}

}  // namespace
}  // namespace mesh_io
