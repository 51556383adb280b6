// SPDX-License-Identifier: MIT
// readAbaqus: one good fixture per feature (tests/data/abaqus, listed in its README) with
// assertions on what was read; one bad twin per error with its exact file, line and message; a
// generated structured mesh; and truncated or mutated fixtures, which must give a model or a
// ParseError, never anything else.
#include "mesh_io/abaqus.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"

#include "scratch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;
using contact::kNoIndex;

const std::string kDir = std::string(CONTACT_TEST_DATA_DIR) + "/abaqus";

std::string fixture(const std::string& name) { return kDir + "/" + name; }

// A scratch directory in the build tree, fresh for each test.
fs::path scratchDir() {
    return contact::testing::scratchDir(CONTACT_TEST_BUILD_DATA_DIR, "abaqus_scratch");
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

// File ids of node indices.
std::vector<long> nodeIds(const Model& m, const std::vector<Index>& nodes) {
    std::vector<long> ids;
    for (const Index i : nodes) {
        ids.push_back(m.nodeIds.at(static_cast<std::size_t>(i)));
    }
    return ids;
}

// File ids of the nodes of element e of block b.
std::vector<long> connectivity(const Model& m, Index b, Index e) {
    const ElementBlock& block = m.blocks.at(static_cast<std::size_t>(b));
    EXPECT_LT(e, block.size());
    const Index* n = block.element(e);
    return nodeIds(m, std::vector<Index>(n, n + block.nodesPerElement));
}

long elementId(const Model& m, const ElementRef& r) {
    return m.blocks.at(static_cast<std::size_t>(r.block))
        .ids.at(static_cast<std::size_t>(r.element));
}

std::vector<long> elementIds(const Model& m, const std::vector<ElementRef>& refs) {
    std::vector<long> ids;
    for (const ElementRef& r : refs) {
        ids.push_back(elementId(m, r));
    }
    return ids;
}

// (element id, face) of each face of a surface.
std::vector<std::pair<long, int>> faces(const Model& m, const std::string& surface) {
    const SurfaceDef* s = m.findSurface(surface);
    EXPECT_NE(s, nullptr) << surface;
    std::vector<std::pair<long, int>> out;
    if (s != nullptr) {
        for (const FaceRef& f : s->faces) {
            out.emplace_back(elementId(m, f.element), f.face);
        }
    }
    return out;
}

const std::vector<Index>& nodeSet(const Model& m, const std::string& key) {
    static const std::vector<Index> kEmpty;
    const auto it = m.nodeSets.find(key);
    EXPECT_NE(it, m.nodeSets.end()) << "no node set " << key;
    return it == m.nodeSets.end() ? kEmpty : it->second;
}

const std::vector<ElementRef>& elementSet(const Model& m, const std::string& key) {
    static const std::vector<ElementRef> kEmpty;
    const auto it = m.elementSets.find(key);
    EXPECT_NE(it, m.elementSets.end()) << "no element set " << key;
    return it == m.elementSets.end() ? kEmpty : it->second;
}

::testing::AssertionResult nodeAt(const Model& m, long id, double x, double y, double z) {
    const Index i = m.findNode(id);
    if (i == kNoIndex) {
        return ::testing::AssertionFailure() << "node " << id << " not found";
    }
    const Eigen::Vector3d p = m.coords.col(i);
    if (p.x() == x && p.y() == y && p.z() == z) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "node " << id << " at (" << p.transpose()
                                         << "), expected (" << x << " " << y << " " << z << ")";
}

std::string note(const std::string& file, long line, const std::string& what) {
    return fixture(file) + ":" + std::to_string(line) + ": " + what;
}

using Faces = std::vector<std::pair<long, int>>;
using Ids = std::vector<long>;

// ---------------------------------------------------------------------------------------------
// Good fixtures.

TEST(AbaqusReader, TwoC3D8RBlocksWithContactPair) {
    const std::string path = fixture("two_blocks_c3d8r.inp");
    const Model m = readAbaqus(path);
    EXPECT_EQ(m.path, path);
    EXPECT_EQ(m.format, "abaqus");
    ASSERT_EQ(m.numNodes(), 20);
    EXPECT_EQ(m.nodeIds.front(), 1);
    EXPECT_EQ(m.nodeIds.back(), 108);
    EXPECT_EQ(m.findNode(101), 12);  // file order
    EXPECT_TRUE(nodeAt(m, 12, 2.0, 1.0, 1.0));
    EXPECT_TRUE(nodeAt(m, 107, 1.0, 1.0, 2.0));

    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "C3D8R");
    EXPECT_EQ(m.blocks[0].nodesPerElement, 8);
    EXPECT_EQ(m.blocks[0].ids, (Ids{1, 2}));
    EXPECT_EQ(m.blocks[0].source.line, 27);
    EXPECT_EQ(m.blocks[1].ids, (Ids{11}));
    EXPECT_EQ(m.numElements(), 3);
    EXPECT_EQ(connectivity(m, 0, 1), (Ids{2, 3, 6, 5, 8, 9, 12, 11}));
    EXPECT_EQ(m.blocks[0].element(1)[0], 1);  // node id 2 is the second node
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{101, 102, 103, 104, 105, 106, 107, 108}));

    EXPECT_EQ(nodeSet(m, "NLOWER").size(), 12U);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "NUPPER")), (Ids{101, 102, 103, 104, 105, 106, 107, 108}));
    EXPECT_EQ(elementIds(m, elementSet(m, "LOWER")), (Ids{1, 2}));
    EXPECT_EQ(elementIds(m, elementSet(m, "UPPER")), (Ids{11}));

    ASSERT_EQ(m.surfaces.size(), 2U);
    EXPECT_EQ(m.surfaces[0].name, "LOWER_TOP");
    EXPECT_FALSE(m.surfaces[0].nodeSurface);
    EXPECT_EQ(m.surfaces[0].source.path, path);
    EXPECT_EQ(m.surfaces[0].source.line, 33);
    EXPECT_EQ(faces(m, "LOWER_TOP"), (Faces{{1, 2}, {2, 2}}));
    EXPECT_EQ(faces(m, "UPPER_BOTTOM"), (Faces{{11, 1}}));

    ASSERT_EQ(m.interfaces.size(), 1U);
    const InterfaceDef& pair = m.interfaces[0];
    EXPECT_EQ(pair.kind, InterfaceDef::Kind::kContactPair);
    EXPECT_EQ(pair.slave, "UPPER_BOTTOM");
    EXPECT_EQ(pair.master, "LOWER_TOP");
    EXPECT_EQ(pair.name, "FRICTIONLESS");
    EXPECT_FALSE(pair.nodeToSurface);
    EXPECT_EQ(pair.source.path, path);
    EXPECT_EQ(pair.source.line, 39);

    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note("two_blocks_c3d8r.inp", 1, "skipped keyword *HEADING"),
                           note("two_blocks_c3d8r.inp", 37, "skipped keyword *SURFACE INTERACTION"),
                       }));
}

TEST(AbaqusReader, QuadraticAndLinearTetrahedra) {
    const Model m = readAbaqus(fixture("mixed_tets.inp"));
    ASSERT_EQ(m.numNodes(), 11);
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "C3D10");
    EXPECT_EQ(m.blocks[0].nodesPerElement, 10);
    EXPECT_EQ(m.blocks[1].type, "C3D4");
    EXPECT_EQ(m.blocks[1].nodesPerElement, 4);
    EXPECT_EQ(connectivity(m, 0, 0), (Ids{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{2, 3, 4, 11}));
    // Midside node 6 sits halfway along the edge 2-3.
    const Index* tet10 = m.blocks[0].element(0);
    EXPECT_EQ(m.coords.col(tet10[5]), 0.5 * (m.coords.col(tet10[1]) + m.coords.col(tet10[2])));
    EXPECT_EQ(faces(m, "BOTH"), (Faces{{1, 1}, {20, 4}}));
    EXPECT_EQ(elementIds(m, elementSet(m, "QUADRATIC")), (Ids{1}));
    EXPECT_EQ(elementIds(m, elementSet(m, "LINEAR")), (Ids{20}));
    EXPECT_TRUE(m.notes.empty());
}

TEST(AbaqusReader, C3D20NodeListsContinueOverLines) {
    const Model m = readAbaqus(fixture("c3d20_continuation.inp"));
    ASSERT_EQ(m.numNodes(), 32);
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "C3D20");
    EXPECT_EQ(m.blocks[0].nodesPerElement, 20);
    EXPECT_EQ(m.blocks[0].ids, (Ids{1, 2}));
    Ids first(20);
    for (long i = 0; i < 20; ++i) {
        first[static_cast<std::size_t>(i)] = i + 1;
    }
    EXPECT_EQ(connectivity(m, 0, 0), first);
    EXPECT_EQ(connectivity(m, 0, 1),
              (Ids{5, 6, 7, 8, 21, 22, 23, 24, 13, 14, 15, 16, 25, 26, 27, 28, 29, 30, 31, 32}));
    EXPECT_EQ(m.blocks[1].type, "C3D20R");
    EXPECT_EQ(m.blocks[1].ids, (Ids{3}));
    EXPECT_EQ(connectivity(m, 1, 0), first);
    EXPECT_EQ(elementIds(m, elementSet(m, "STACK")), (Ids{1, 2, 3}));
    EXPECT_TRUE(nodeAt(m, 31, 1.0, 1.0, 1.5));
}

TEST(AbaqusReader, LinearAndQuadraticWedges) {
    const Model m = readAbaqus(fixture("wedges.inp"));
    ASSERT_EQ(m.numNodes(), 18);
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "C3D6");
    EXPECT_EQ(m.blocks[0].nodesPerElement, 6);
    EXPECT_EQ(m.blocks[1].type, "C3D15");
    EXPECT_EQ(m.blocks[1].nodesPerElement, 15);
    EXPECT_EQ(connectivity(m, 0, 0), (Ids{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}));
    EXPECT_EQ(faces(m, "SIDES"), (Faces{{1, 3}, {2, 5}}));
    EXPECT_TRUE(nodeAt(m, 11, 0.5, 0.5, 1.0));
}

TEST(AbaqusReader, PlaneModelWithTwoCoordinates) {
    const Model m = readAbaqus(fixture("plane_2d.inp"));
    ASSERT_EQ(m.numNodes(), 14);
    EXPECT_TRUE(m.coords.row(2).isZero(0.0));
    EXPECT_TRUE(nodeAt(m, 13, 0.75, 1.5, 0.0));
    EXPECT_TRUE(nodeAt(m, 6, 2.0, 1.0, 0.0));
    ASSERT_EQ(m.blocks.size(), 3U);
    EXPECT_EQ(m.blocks[0].type, "CPE4");
    EXPECT_EQ(m.blocks[1].type, "CPS8");
    EXPECT_EQ(m.blocks[1].nodesPerElement, 8);
    EXPECT_EQ(m.blocks[2].type, "CAX6");
    EXPECT_EQ(m.blocks[2].nodesPerElement, 6);
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{2, 5, 6, 3, 7, 8, 9, 10}));
    EXPECT_EQ(connectivity(m, 2, 0), (Ids{4, 3, 11, 12, 13, 14}));
    EXPECT_EQ(faces(m, "EDGES"), (Faces{{1, 3}, {2, 4}, {3, 1}}));
    EXPECT_EQ(nodeSet(m, "ALL").size(), 14U);
}

// CalculiX numbers shell faces S1 = NEG (face 1), S2 = POS (face 2), S3.. the edges; Abaqus names
// the sides SNEG and SPOS. Faces keep those numbers.
TEST(AbaqusReader, ShellSidesAndEdgesAsCalculiXNumbersThem) {
    const Model m = readAbaqus(fixture("shells.inp"));
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "S4R");
    EXPECT_EQ(m.blocks[1].type, "S8R");
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{2, 5, 6, 3, 7, 8, 9, 10}));
    // Both *ELEMENT keywords name PLATE: the set holds the elements of both.
    EXPECT_EQ(elementIds(m, elementSet(m, "PLATE")), (Ids{1, 2}));
    EXPECT_EQ(faces(m, "TOP"), (Faces{{1, 2}, {2, 2}}));
    EXPECT_EQ(faces(m, "BOTTOM"), (Faces{{1, 1}, {2, 1}}));  // SNEG (lower case) and S1
    EXPECT_EQ(faces(m, "TOP_S2"), (Faces{{2, 2}}));
    EXPECT_EQ(faces(m, "NEG_POS"), (Faces{{1, 1}, {2, 2}}));
    EXPECT_EQ(faces(m, "EDGES"), (Faces{{1, 3}, {2, 5}}));
}

TEST(AbaqusReader, CrlfCommentsBlanksCaseAndSpaces) {
    const std::string path = fixture("formatting_crlf.inp");
    // The fixture must keep its CRLF line ends (a checkout that converts them tests less).
    ASSERT_NE(readBytes(path).find("\r\n"), std::string::npos);
    const Model m = readAbaqus(path);
    ASSERT_EQ(m.numNodes(), 8);
    EXPECT_TRUE(nodeAt(m, 1, 0.0, 0.0, 0.0));
    EXPECT_TRUE(nodeAt(m, 2, 1.0, 0.0, 0.0));  // 1.0D0, tab, trailing comma
    EXPECT_TRUE(nodeAt(m, 3, 1.0, 1.0, 0.0));  // 1.0d+00
    EXPECT_TRUE(nodeAt(m, 5, 0.0, 0.0, 1.0));  // 1.D0
    EXPECT_TRUE(nodeAt(m, 6, 1.0, 0.0, 1.0));  // +1.0, -0.0
    EXPECT_TRUE(nodeAt(m, 8, 0.0, 1.0, 1.0));  // .0, 1., 10.0e-1
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].type, "C3D8R");
    EXPECT_EQ(m.blocks[0].source.line, 18);
    EXPECT_EQ(connectivity(m, 0, 0), (Ids{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(nodeSet(m, "ALL").size(), 8U);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "TOP")), (Ids{5, 6, 7, 8}));
    EXPECT_EQ(elementIds(m, elementSet(m, "BLOCK")), (Ids{1}));
    ASSERT_EQ(m.surfaces.size(), 2U);
    EXPECT_EQ(m.surfaces[0].name, "my surf");
    EXPECT_EQ(faces(m, "my surf"), (Faces{{1, 2}}));
    EXPECT_EQ(m.surfaces[1].name, "bottom");
    EXPECT_EQ(faces(m, "BOTTOM"), (Faces{{1, 1}}));
    ASSERT_EQ(m.interfaces.size(), 1U);
    EXPECT_EQ(m.interfaces[0].slave, "my surf");
    EXPECT_EQ(m.interfaces[0].master, "bottom");
    EXPECT_EQ(m.interfaces[0].name, "stiff one");
    EXPECT_TRUE(m.interfaces[0].nodeToSurface);
    EXPECT_EQ(m.interfaces[0].source.line, 27);
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note("formatting_crlf.inp", 4, "skipped keyword *HEADING")}));
}

// A UTF-8 byte order mark (a deck saved by a Windows editor) is skipped: the same model, the same
// line numbers, in the main file and in an included one.
TEST(AbaqusReader, ByteOrderMarkChangesNothing) {
    const fs::path dir = scratchDir();
    const std::string bom = "\xEF\xBB\xBF";
    const std::string main = (dir / "bom.inp").string();
    writeBytes(main, bom + readBytes(fixture("formatting_crlf.inp")));
    const Model a = readAbaqus(main);
    const Model b = readAbaqus(fixture("formatting_crlf.inp"));
    EXPECT_EQ(a.coords, b.coords);
    EXPECT_EQ(a.nodeIds, b.nodeIds);
    EXPECT_EQ(connectivity(a, 0, 0), connectivity(b, 0, 0));
    EXPECT_EQ(faces(a, "my surf"), faces(b, "my surf"));
    ASSERT_EQ(a.interfaces.size(), 1U);
    EXPECT_EQ(a.interfaces[0].source.line, b.interfaces[0].source.line);
    writeBytes(dir / "nodes.inp", bom + "1, 0.0, 0.0, 0.0\n2, 1.0, 0.0, 0.0\n");
    writeBytes(dir / "with_include.inp", "*NODE\n*INCLUDE, INPUT=nodes.inp\n");
    EXPECT_EQ(readAbaqus((dir / "with_include.inp").string()).numNodes(), 2);
}

// A FIFO as the deck or as an included file is refused before it is opened: opening one waits
// for a writer (a hang, were the check after it).
TEST(AbaqusReader, FifosAreRefusedNotWaitedOn) {
    const fs::path dir = scratchDir();
    const fs::path fifo = dir / "pipe.inp";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    try {
        (void)readAbaqus(fifo.string());
        FAIL() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  fifo.string() + ": is not a regular file (a FIFO, device or socket)");
    }
    writeBytes(dir / "main.inp", "*NODE\n1, 0.0, 0.0, 0.0\n*INCLUDE, INPUT=pipe.inp\n");
    try {
        (void)readAbaqus((dir / "main.inp").string());
        FAIL() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 3);
        EXPECT_NE(std::string(e.what()).find("cannot read included file '" + fifo.string() +
                                             "': it is not a regular file"),
                  std::string::npos)
            << e.what();
    }
}

// Four nodes: enough for the decks of the keyword and parameter tests below.
const char* const kFourNodes =
    "*NODE\n1, 0.0, 0.0, 0.0\n2, 1.0, 0.0, 0.0\n3, 1.0, 1.0, 0.0\n4, 0.0, 1.0, 0.0\n";

// The message of the ParseError that reading `deck` (written to a scratch file) throws, with the
// file's path cut off; "" when it reads.
std::string errorOf(const std::string& deck, long* line = nullptr) {
    const fs::path path = scratchDir() / "deck.inp";
    writeBytes(path, deck);
    try {
        (void)readAbaqus(path.string());
    } catch (const ParseError& e) {
        if (line != nullptr) {
            *line = e.line();
        }
        const std::string what = e.what();
        const std::string prefix = path.string() + ":" + std::to_string(e.line()) + ": ";
        return what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what;
    }
    return "";
}

// The Keywords Guide: a parameter may be abbreviated to any prefix that tells it from the
// keyword's others. "GEN" is GENERATE: 1, 4 is the range 1..4, not the two nodes 1 and 4.
TEST(AbaqusReader, AbbreviatedParametersAreTheManualsOnes) {
    const fs::path path = scratchDir() / "abbreviated.inp";
    writeBytes(path, std::string(kFourNodes) + "*NSET, NSET=RANGE, GEN\n1, 4\n" +
                         "*NSET, NSET=LISTED\n1, 4\n*NSET, NS=SHORT\n2, 3\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(nodeIds(m, nodeSet(m, "RANGE")), (std::vector<long>{1, 2, 3, 4}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "LISTED")), (std::vector<long>{1, 4}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "SHORT")), (std::vector<long>{2, 3}));
}

// A parameter the manual does not give a keyword whose data lines it could change is refused
// (a misspelled GENERATE ignored would read a range as its two ends); an abbreviation that
// fits two parameters is ambiguous; elsewhere an unknown parameter is noted.
TEST(AbaqusReader, UnknownOrAmbiguousParameters) {
    long line = 0;
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NSET, NSET=A, GENRATE\n1, 4\n", &line),
              "unknown parameter GENRATE on *NSET (the manual's: NSET, ELSET, GENERATE, "
              "INSTANCE, INTERNAL, UNSORTED)");
    EXPECT_EQ(line, 6);
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NSET, NSET=A, IN\n1, 4\n"),
              "parameter IN on *NSET is ambiguous: it begins INSTANCE and INTERNAL");
    EXPECT_EQ(errorOf("*NODE, NSETS=ALL\n1, 0.0, 0.0, 0.0\n"),
              "unknown parameter NSETS on *NODE (the manual's: INPUT, NSET, SYSTEM)");
    const fs::path path = scratchDir() / "noted.inp";
    writeBytes(path, std::string(kFourNodes) + "*SURFACE, NAME=S, TYPE=NODE, WEIGHTED\n1,\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           path.string() +
                           ":6: parameter WEIGHTED on *SURFACE is not one this reader knows: "
                           "ignored"}));
}

// A parameter given twice on a keyword that is read is refused, naming it (the first was taken
// and the other dropped: TYPE=NODE TO SURFACE, TYPE=MORTAR searched node-to-segment). Names are
// compared as the reader reads them: any case, blanks aside, abbreviations resolved. A keyword
// that is skipped may repeat one.
TEST(AbaqusReader, RepeatedParametersAreRefused) {
    const std::string deck = std::string(kFourNodes) +
                             "*ELEMENT, TYPE=S4R, ELSET=SHEET\n1, 1, 2, 3, 4\n"
                             "*SURFACE, NAME=TOP\nSHEET, SPOS\n*SURFACE, NAME=BOTTOM\nSHEET, "
                             "SNEG\n";
    long line = 0;
    EXPECT_EQ(errorOf(deck + "*CONTACT PAIR, INTERACTION=FRIC, TYPE=NODE TO SURFACE, "
                             "TYPE=MORTAR\nTOP, BOTTOM\n",
                      &line),
              "parameter TYPE given twice on *CONTACT PAIR");
    EXPECT_EQ(line, 12);
    EXPECT_EQ(errorOf(deck + "*Contact Pair, type=MORTAR, interaction=I,\n Ty pe=SURFACE TO "
                             "SURFACE\nTOP, BOTTOM\n"),
              "parameter TYPE given twice on *CONTACT PAIR");
    EXPECT_EQ(errorOf(deck + "*SURFACE, NAME=BlockTop, TYPE=ELEMENT, NAME=Other\nSHEET, SPOS\n"),
              "parameter NAME given twice on *SURFACE");
    EXPECT_EQ(errorOf(std::string(kFourNodes) +
                      "*ELEMENT, TYPE=S4R\n1, 1, 2, 3, 4\n*Elset, elset=A, elset=B, generate\n1, "
                      "1, 1\n"),
              "parameter ELSET given twice on *ELSET");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NSET, NSET=A, GEN, generate\n1, 4\n"),
              "parameter GENERATE given twice on *NSET");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*MATERIAL, NAME=A, NAME=B\n*ELASTIC\n1.0, 0.3\n"),
              "");
}

// Keywords that generate, copy or move nodes and elements are refused, not skipped: skipped,
// the model would lack what they make (*IMPERFECTION moves nodes). So is a keyword line that
// abbreviates one read or refused here: *NMA was skipped, its nodes left where they were.
TEST(AbaqusReader, MeshGenerationKeywordsAreRefused) {
    const std::string elements = "*ELEMENT, TYPE=S4R, ELSET=SHEET\n1, 1, 2, 3, 4\n";
    long line = 0;
    EXPECT_EQ(
        errorOf(std::string(kFourNodes) + elements + "*ELCOPY, ELEMENT SHIFT=10\n1, 3\n", &line),
        "*ELCOPY is not supported (it copies elements): write out the nodes and "
        "elements it stands for");
    EXPECT_EQ(line, 8);
    for (const char* k : {"NFILL", "NCOPY", "NMAP", "ELCOPY", "IMPORT", "IMPERFECTION"}) {
        EXPECT_NE(errorOf(std::string(kFourNodes) + "*" + k + "\n1, 2\n")
                      .find("*" + std::string(k) + " is not supported ("),
                  std::string::npos)
            << k;
    }
    // *PARAMETER is skipped (a deck may parametrize only what is not read here); a reference
    // in a line that is read is refused as such.
    EXPECT_EQ(errorOf("*PARAMETER\nL = 2.0\n*NODE\n1, 0.0, 0.0, 0.0\n2, <L>, 0.0, 0.0\n"),
              "expected a coordinate, got '<L>' (a *PARAMETER reference: parametrized input is "
              "not read)");
    // In a name, on a keyword line or a data line, read: refused (not taken as a name).
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NSET, NSET=<set>\n1, 2\n"),
              "NSET=<set> on *NSET is a *PARAMETER reference: parametrized input is not read");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NSET, NSET=A\n1, 2\n*NSET, NSET=B\n<a>\n"),
              "'<a>' is a *PARAMETER reference: parametrized input is not read");
    // Where it is not read (a material), the deck still reads.
    EXPECT_EQ(errorOf("*PARAMETER\nE = 1.0\n*MATERIAL, NAME=<m>\n*ELASTIC\n<E>, 0.3\n" +
                      std::string(kFourNodes)),
              "");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*ELEM, TYPE=S4R\n1, 1, 2, 3, 4\n"),
              "*ELEM is not read as an abbreviation (of *ELEMENT?): write the keyword in full");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + elements + "*CONTACT P\nA, B\n"),
              "*CONTACT P is not read as an abbreviation (of *CONTACT PAIR?): write the "
              "keyword in full");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*NMA, NSET=A, TYPE=RECTANGULAR\n0, 0, 5\n", &line),
              "*NMA is not supported (an abbreviation of *NMAP: it moves nodes): write out the "
              "nodes and elements it stands for");
    EXPECT_EQ(line, 6);
    for (const char* k : {"NFIL", "NCOP", "ELCOP", "IMPERF"}) {
        EXPECT_NE(errorOf(std::string(kFourNodes) + "*" + k + "\n1, 2\n")
                      .find("*" + std::string(k) + " is not supported (an abbreviation of *"),
                  std::string::npos)
            << k;
    }
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*Imp\n1, 2\n"),
              "*IMP is not supported (an abbreviation of *IMPORT or *IMPERFECTION): write out the "
              "nodes and elements it stands for");
    EXPECT_EQ(errorOf(std::string(kFourNodes) + "*N\n1, 2\n"),
              "*N is not read as an abbreviation (of *NODE, *NSET, *NGEN, *NFILL, *NCOPY or "
              "*NMAP?): write the keyword in full");
    // Keywords skipped in full are not taken for abbreviations, also where they begin one read
    // (*CONTACT, read, begins *CONTACT PAIR).
    EXPECT_EQ(errorOf(std::string(kFourNodes) + elements +
                      "*STEP\n*STATIC\n*END STEP\n*CONTACT\n*IMPORT NSET\n*NODE OUTPUT\nU\n"),
              "");
}

// Two C3D8 sharing the face x = 1 (element 1: S4, element 2: S6), and a shell.
const char* const kTwoBricks =
    "*NODE\n"
    "1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n"
    "8, 0, 1, 1\n9, 2, 0, 0\n10, 2, 1, 0\n11, 2, 0, 1\n12, 2, 1, 1\n"
    "*ELEMENT, TYPE=C3D8, ELSET=BRICKS\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
    "2, 2, 9, 10, 3, 6, 11, 12, 7\n"
    "*ELEMENT, TYPE=S4R, ELSET=SHELL\n3, 5, 6, 7, 8\n";

// The edges of 2D continua (CPE, CPS, CAX) and the sides of R2D2/RAX2 are line segments, which
// the search takes in the xy plane: in a model with a node off z = 0 they are refused, naming the
// face and the node, not flattened onto z = 0 (a node at z = 5 paired at gap 0.1 with a point at
// z = 0).
TEST(AbaqusReader, EdgesOf2dElementsAreRefusedOffThePlane) {
    const std::string nodes = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n"
                              "5, 0, 1.1, 5\n6, 1, 1.1, 5\n7, 1, 2.1, 5\n8, 0, 2.1, 5\n";
    const std::string elements = "*ELEMENT, TYPE=CPE4\n1, 1, 2, 3, 4\n2, 5, 6, 7, 8\n"
                                 "*ELEMENT, TYPE=R2D2\n3, 3, 4\n"
                                 "*SURFACE, NAME=A\n1, S3\n*SURFACE, NAME=B\n2, S1\n"
                                 "*SURFACE, NAME=R\n3, SPOS\n";
    const fs::path path = scratchDir() / "raised.inp";
    writeBytes(path, nodes + elements);
    const Model m = readAbaqus(path.string());
    const auto error = [&](const std::string& name) {
        try {
            (void)buildContactSurface(m, name);
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("no ParseError");
    };
    const std::string tail = " are line segments, which the search takes only in a planar model "
                             "(every node at z = 0; node 5 is at z = 5); in 3D they are not "
                             "searched";
    EXPECT_EQ(error("A"), path.string() +
                              ":15: surface 'A': face 3 of element 1 (CPE4) is an edge of a 2D "
                              "element: edges of 2D elements" +
                              tail);
    EXPECT_EQ(error("B"), path.string() +
                              ":17: surface 'B': face 1 of element 2 (CPE4) is an edge of a 2D "
                              "element: edges of 2D elements" +
                              tail);
    EXPECT_EQ(error("R"), path.string() +
                              ":19: surface 'R': face 2 of element 3 (R2D2) is a side of a 2D "
                              "rigid element: sides of 2D rigid elements" +
                              tail);

    // The same bodies at z = 0: edges in the xy plane, the slave's nodes 0.1 above the master.
    std::string flat = nodes;
    for (std::size_t at = flat.find(", 5\n"); at != std::string::npos; at = flat.find(", 5\n")) {
        flat.replace(at, 4, ", 0\n");
    }
    writeBytes(path, flat + elements);
    const Model planar = readAbaqus(path.string());
    for (const char* name : {"A", "B", "R"}) {
        const ContactSurface cs = buildContactSurface(planar, name);
        EXPECT_EQ(cs.dim, 2) << name;
        EXPECT_EQ(cs.surface.types.at(0), contact::SegmentType::Line2) << name;
    }
}

// Abaqus names the edges of shells E1..E4 (E1..E3 on triangles) in an edge-based surface, whose
// facets are the edges as line segments: the faces CalculiX numbers S3..S6. Searched as 2D edges
// in a planar model; in 3D the surface is refused when built, naming the edge. E labels on
// other elements are refused where they are read.
TEST(AbaqusReader, ShellEdgeLabelsAreLineSegments) {
    const fs::path path = scratchDir() / "edges.inp";
    writeBytes(path, "*NODE\n1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n5, 2, 0\n"
                     "*ELEMENT, TYPE=S4R\n1, 1, 2, 3, 4\n*ELEMENT, TYPE=S3\n2, 2, 5, 3\n"
                     "*SURFACE, NAME=EDGES\n1, E4\n2, e3\n*SURFACE, NAME=SAME\n1, S6\n2, S5\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(faces(m, "EDGES"), (Faces{{1, 6}, {2, 5}}));
    EXPECT_EQ(faces(m, "SAME"), faces(m, "EDGES"));
    const ContactSurface planar = buildContactSurface(m, "EDGES");
    EXPECT_EQ(planar.dim, 2);
    ASSERT_EQ(planar.surface.size(), 2);
    EXPECT_EQ(planar.surface.types[0], contact::SegmentType::Line2);

    const std::string bricks = std::string(kTwoBricks) + "*SURFACE, NAME=E\n3, E1\nSHELL, E4\n";
    writeBytes(path, bricks);
    const Model m3 = readAbaqus(path.string());
    EXPECT_EQ(faces(m3, "E"), (Faces{{3, 3}, {3, 6}}));
    try {
        (void)buildContactSurface(m3, "E");
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path.string() +
                      ":19: surface 'E': face 3 of element 3 (S4R) is edge 1 of a shell (label "
                      "E1, or S3 in CalculiX): shell edges are line segments, which the search "
                      "takes only in a planar model (every node at z = 0; node 5 is at z = 1); in "
                      "3D they are not searched");
    }
    long line = 0;
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=E\n1, E1\n", &line),
              "expected a face of element 1 (C3D8: S1..S6), got 'E1'");
    EXPECT_EQ(line, 20);
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=E\n3, E5\n"),
              "expected a face label (S1..S6, SPOS, SNEG, or E1..E4 on shells), got 'E5'");
    EXPECT_EQ(errorOf("*NODE\n1, 0, 0\n2, 1, 0\n3, 1, 1\n*ELEMENT, TYPE=S3\n1, 1, 2, 3\n"
                      "*SURFACE, NAME=E\n1, E4\n"),
              "expected a face of element 1 (S3: SPOS, SNEG, S1..S5, E1..E3), got 'E4'");
}

// A *SURFACE line without a face label takes all exposed faces of its elements (Analysis User's
// Guide, "Element-based surface definition"): the faces no other element shares. Checked against
// the faces found by hand: the shared face x = 1 is left out.
TEST(AbaqusReader, SurfaceLineWithoutFaceLabelTakesTheExposedFaces) {
    const fs::path path = scratchDir() / "exposed.inp";
    writeBytes(path, std::string(kTwoBricks) +
                         "*SURFACE, NAME=ALL\nBRICKS,\n*SURFACE, NAME=ONE\n2\n"
                         "*SURFACE, NAME=MIXED\n1, S1\n2\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(
        faces(m, "ALL"),
        (Faces{{1, 1}, {1, 2}, {1, 3}, {1, 5}, {1, 6}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}}));
    EXPECT_EQ(faces(m, "ONE"), (Faces{{2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}}));
    // Labelled lines first, the exposed faces once the elements are all read.
    EXPECT_EQ(faces(m, "MIXED"), (Faces{{1, 1}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}}));
    // A shell needs its label: without one Abaqus makes a double-sided surface.
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=S\nSHELL\n"),
              "element 3 (S4R) needs a face label: without one a shell's surface is double-sided, "
              "which the search does not take (give SPOS or SNEG)");
}

// A *CONTACT PAIR line naming one surface (the second field blank) is its self-contact; a *TIE
// needs two surfaces (bad_tie_one_name.inp).
TEST(AbaqusReader, ContactPairWithOneSurfaceIsSelfContact) {
    const fs::path path = scratchDir() / "self.inp";
    writeBytes(path, std::string(kTwoBricks) +
                         "*SURFACE, NAME=SKIN\nBRICKS,\n*CONTACT PAIR, INTERACTION=I\nSKIN,\n"
                         "*CONTACT PAIR, INTERACTION=J\nSKIN\n");
    const Model m = readAbaqus(path.string());
    ASSERT_EQ(m.interfaces.size(), 2U);
    for (const InterfaceDef& d : m.interfaces) {
        EXPECT_EQ(d.slave, "SKIN");
        EXPECT_EQ(d.master, "SKIN");
        EXPECT_TRUE(d.selfContact);
    }
    EXPECT_EQ(m.interfaces[0].source.line, 22);
    EXPECT_TRUE(prepareInterface(m, m.interfaces[0]).selfContact);
}

// The input syntax rules let a parameter value be abbreviated too, to any prefix that tells it from
// the keyword's other values, case and blanks aside: TYPE=ELEM is an element surface, not an
// analytical one, and SURFACE TO SURF a surface-to-surface pair. A prefix of several values is
// refused, naming them; a TYPE no *SURFACE has is refused rather than skipped as analytical.
TEST(AbaqusReader, AbbreviatedParameterValues) {
    const fs::path path = scratchDir() / "values.inp";
    writeBytes(path, std::string(kTwoBricks) +
                         "*SURFACE, NAME=A, TYPE=ELEM\n1, S2\n*SURFACE, NAME=B, type = el\n2, S2\n"
                         "*NSET, NSET=N\n5, 6\n*SURFACE, NAME=P, TYPE=NOD\nN\n"
                         "*SURFACE, NAME=U, COMBINE=UNI\nA, B\n*SURFACE, NAME=D, COMB=diff\nU, A\n"
                         "*SURFACE, NAME=R, TYPE=SEG\nSTART, 0, 0\nLINE, 1, 0\n"
                         "*CONTACT PAIR, INTERACTION=I, TYPE=SURFACE TO SURF\nA, B\n"
                         "*CONTACT PAIR, INTERACTION=I, TYPE=Node to S\nP, B\n"
                         "*TIE, NAME=T, TYPE=SURF\nA, B\n*NODE, SYSTEM=r\n100, 0, 0, 5\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(faces(m, "A"), (Faces{{1, 2}}));
    EXPECT_EQ(faces(m, "B"), (Faces{{2, 2}}));
    const SurfaceDef* p = m.findSurface("P", true);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(nodeIds(m, p->nodes), (Ids{5, 6}));
    EXPECT_EQ(faces(m, "U"), (Faces{{1, 2}, {2, 2}}));
    EXPECT_EQ(faces(m, "D"), (Faces{{2, 2}}));
    ASSERT_EQ(m.skippedSurfaces.count("r"), 1U);
    EXPECT_EQ(m.skippedSurfaces.at("r"),
              path.string() + ":31: *SURFACE, TYPE=SEGMENTS (an analytical rigid surface), which "
                              "is not read");
    ASSERT_EQ(m.interfaces.size(), 3U);
    EXPECT_FALSE(m.interfaces[0].nodeToSurface);
    EXPECT_TRUE(m.interfaces[1].nodeToSurface);
    EXPECT_FALSE(m.interfaces[2].nodeToSurface);
    for (const InterfaceDef& i : m.interfaces) {
        EXPECT_EQ(i.problem, "");
    }
    EXPECT_TRUE(nodeAt(m, 100, 0.0, 0.0, 5.0));

    long line = 0;
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=S, TYPE=E\n1, S1\n", &line),
              "TYPE=E on *SURFACE is ambiguous: it begins ELEMENT and EULERIAN MATERIAL");
    EXPECT_EQ(line, 19);
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=S, TYPE=C\n1, S1\n"),
              "TYPE=C on *SURFACE is ambiguous: it begins CYLINDER and CUTTING SURFACE");
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=S, TYPE=PLANE\n1, S1\n", &line),
              "expected TYPE=ELEMENT, NODE, SEGMENTS, CYLINDER, REVOLUTION, CUTTING SURFACE or "
              "EULERIAN MATERIAL on *SURFACE, got 'PLANE'");
    EXPECT_EQ(line, 19);
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=A\n1, S2\n" +
                      "*CONTACT PAIR, INTERACTION=I, TYPE=PG\nA, A\n"),
              "TYPE=PG on *CONTACT PAIR is ambiguous: it begins PGMORTAR and PGLINMORTAR");
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=A\n1, S2\n" +
                      "*SURFACE, NAME=U, COMBINE=\nA\n"),
              "expected COMBINE=UNION, INTERSECTION or DIFFERENCE, got ''");
}

// *SURFACE, COMBINE= (Analysis User's Guide, "Operating on surfaces"): the union, intersection
// or difference (the first less the rest) of surfaces defined before, over as many data lines as
// given; an operand may be a surface of exposed faces, found first.
TEST(AbaqusReader, CombinedSurfaces) {
    const fs::path path = scratchDir() / "combine.inp";
    writeBytes(path, std::string(kTwoBricks) +
                         "*SURFACE, NAME=A\n1, S1\n2, S1\n*SURFACE, NAME=B\n2, S1\n2, S2\n"
                         "*SURFACE, NAME=ALL\nBRICKS\n"
                         "*SURFACE, NAME=U, COMBINE=UNION\nA, B\n"
                         "*SURFACE, NAME=I, COMB=INTERSECTION\nA\nB\n"
                         "*SURFACE, NAME=D, COMBINE=DIFFERENCE\nALL, A\n"
                         "*NSET, NSET=N1\n1, 2\n*NSET, NSET=N2\n2, 3\n"
                         "*SURFACE, NAME=P, TYPE=NODE\nN1\n*SURFACE, NAME=Q, TYPE=NODE\nN2\n"
                         "*SURFACE, NAME=PQ, TYPE=NODE, COMBINE=UNION\nP, Q\n");
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(faces(m, "U"), (Faces{{1, 1}, {2, 1}, {2, 2}}));
    EXPECT_EQ(faces(m, "I"), (Faces{{2, 1}}));
    EXPECT_EQ(faces(m, "D"),
              (Faces{{1, 2}, {1, 3}, {1, 5}, {1, 6}, {2, 2}, {2, 3}, {2, 4}, {2, 5}}));
    const SurfaceDef* pq = m.findSurface("PQ", true);
    ASSERT_NE(pq, nullptr);
    EXPECT_EQ(nodeIds(m, pq->nodes), (std::vector<long>{1, 2, 3}));
    long line = 0;
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=U, COMBINE=UNION\nA, B\n", &line),
              "expected an element surface defined before this one, got 'A'");
    EXPECT_EQ(line, 20);
    EXPECT_EQ(errorOf(std::string(kTwoBricks) + "*SURFACE, NAME=U, COMBINE=XOR\n"),
              "expected COMBINE=UNION, INTERSECTION or DIFFERENCE, got 'XOR'");
}

// An empty coordinate field between commas is zero, as the manual's data line rules make omitted
// numeric data.
TEST(AbaqusReader, EmptyCoordinateFieldsAreZero) {
    const fs::path path = scratchDir() / "blank.inp";
    writeBytes(path, "*NODE\n101, , , 1.1\n102, 2.0, , 3.0\n103, 4.0,  ,\n");
    const Model m = readAbaqus(path.string());
    EXPECT_TRUE(nodeAt(m, 101, 0.0, 0.0, 1.1));
    EXPECT_TRUE(nodeAt(m, 102, 2.0, 0.0, 3.0));
    EXPECT_TRUE(nodeAt(m, 103, 4.0, 0.0, 0.0));
    EXPECT_EQ(errorOf("*NODE\n1, 0.5, x\n"), "expected a coordinate, got 'x'");
}

// *NGEN (Keywords Guide): the nodes a + k inc strictly between end nodes a and b, evenly spaced
// on the straight line; NSET= takes the line, ends included.
TEST(AbaqusReader, NgenMakesNodesOnAStraightLine) {
    const fs::path path = scratchDir() / "ngen.inp";
    writeBytes(path, "*NODE\n1, 0.0, 0.0, 0.0\n5, 4.0, 0.0, 2.0\n11, 0.0, 1.0, 0.0\n"
                     "17, 3.0, 1.0, 0.0\n*NGEN, NSET=LINE\n1, 5\n*NGEN\n11, 17, 2\n");
    const Model m = readAbaqus(path.string());
    EXPECT_TRUE(nodeAt(m, 2, 1.0, 0.0, 0.5));
    EXPECT_TRUE(nodeAt(m, 3, 2.0, 0.0, 1.0));
    EXPECT_TRUE(nodeAt(m, 4, 3.0, 0.0, 1.5));
    EXPECT_TRUE(nodeAt(m, 13, 1.0, 1.0, 0.0));
    EXPECT_TRUE(nodeAt(m, 15, 2.0, 1.0, 0.0));
    EXPECT_EQ(m.findNode(12), kNoIndex);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "LINE")), (std::vector<long>{1, 2, 3, 4, 5}));
    long line = 0;
    EXPECT_EQ(errorOf("*NODE\n1, 0, 0, 0\n4, 3, 0, 0\n*NGEN\n1, 4, 2\n", &line),
              "the increment 2 does not step from node 1 to node 4");
    EXPECT_EQ(line, 5);
    EXPECT_EQ(errorOf("*NODE\n1, 0, 0, 0\n4, 3, 0, 0\n*NGEN, LINE=C\n1, 4, 1, 9\n"),
              "expected LINE=L on *NGEN (circular and parabolic lines are not supported), got "
              "'C'");
    const std::string twice = errorOf("*NODE\n1, 0, 0, 0\n3, 2, 0, 0\n2, 1, 0, 0\n*NGEN\n1, 3\n");
    EXPECT_EQ(twice.rfind("node id 2 defined twice (first at ", 0), 0U) << twice;
}

// *ELGEN (Keywords Guide): a master element repeated along a row and over rows (and layers),
// its node ids shifted by the increments; ELSET= takes them all, the master included. A 2 x 2
// grid of S4R from element 1 over nodes 1..9 (id = 1 + i + 3 j): connectivity by hand.
TEST(AbaqusReader, ElgenRepeatsTheMasterElement) {
    std::string deck = "*NODE\n";
    for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 3; ++i) {
            deck += std::to_string(1 + i + 3 * j) + ", " + std::to_string(i) + ", " +
                    std::to_string(j) + ", 0\n";
        }
    }
    deck += "*ELEMENT, TYPE=S4R\n1, 1, 2, 5, 4\n";
    const fs::path path = scratchDir() / "elgen.inp";
    writeBytes(path, deck + "*ELGEN, ELSET=ALL\n1, 2, 1, 1, 2, 3, 10\n");
    const Model m = readAbaqus(path.string());
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[1].type, "S4R");
    EXPECT_EQ(m.blocks[1].ids, (std::vector<long>{2, 11, 12}));
    EXPECT_EQ(connectivity(m, 1, 0), (std::vector<long>{2, 3, 6, 5}));
    EXPECT_EQ(connectivity(m, 1, 1), (std::vector<long>{4, 5, 8, 7}));
    EXPECT_EQ(connectivity(m, 1, 2), (std::vector<long>{5, 6, 9, 8}));
    EXPECT_EQ(elementIds(m, elementSet(m, "ALL")), (std::vector<long>{1, 2, 11, 12}));
    EXPECT_EQ(errorOf(deck + "*ELGEN\n1, 6\n"),
              "generated element 6 needs node 10, which is not defined");
    EXPECT_EQ(errorOf(deck + "*ELGEN\n1, 2\n*ELGEN\n1, 2\n"),
              "generated element id 2 is already defined");
    EXPECT_EQ(errorOf(deck + "*ELGEN\n1, 2, 1, 1, 2\n"),
              "expected nonzero node and element increments for the rows (2 of them)");
}

TEST(AbaqusReader, KeywordLinesContinueAfterATrailingComma) {
    const Model m = readAbaqus(fixture("keyword_continuation.inp"));
    // "*NODE, NSET=ALL," is followed by a data line, not by more parameters.
    EXPECT_EQ(m.numNodes(), 8);
    EXPECT_EQ(nodeSet(m, "ALL").size(), 8U);
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].type, "C3D8");
    EXPECT_EQ(m.blocks[0].source.line, 12);
    EXPECT_EQ(elementIds(m, elementSet(m, "CUBE")), (Ids{1}));
    ASSERT_EQ(m.surfaces.size(), 2U);
    EXPECT_EQ(m.surfaces[0].name, "TOP");
    EXPECT_EQ(m.surfaces[0].source.line, 16);
    EXPECT_EQ(faces(m, "TOP"), (Faces{{1, 2}}));
    EXPECT_EQ(m.surfaces[1].name, "BOTTOM");
    EXPECT_EQ(faces(m, "BOTTOM"), (Faces{{1, 1}}));
    ASSERT_EQ(m.interfaces.size(), 1U);
    EXPECT_EQ(m.interfaces[0].name, "I1");
    EXPECT_FALSE(m.interfaces[0].nodeToSurface);
    EXPECT_EQ(m.interfaces[0].source.line, 25);
    EXPECT_TRUE(m.notes.empty());
}

TEST(AbaqusReader, SetsWithGenerateReferencesAndAppends) {
    const Model m = readAbaqus(fixture("sets_generate.inp"));
    ASSERT_EQ(m.numNodes(), 16);
    EXPECT_TRUE(nodeAt(m, 1 + 3 + 4 * 1 + 8 * 1, 3.0, 1.0, 1.0));
    EXPECT_EQ(connectivity(m, 0, 2), (Ids{3, 4, 8, 7, 11, 12, 16, 15}));
    EXPECT_EQ(nodeSet(m, "NALL").size(), 16U);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "BOTTOM")), (Ids{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "ODD")), (Ids{1, 3, 5, 7, 9, 11, 13, 15}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "LEFT")), (Ids{1, 5, 9, 13, 14}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "COMBO")), (Ids{1, 5, 9, 13, 16, 2, 3, 4, 6, 7, 8}));
    EXPECT_EQ(m.nodeSets.count("Bottom"), 0U);  // keys are upper case
    EXPECT_EQ(elementIds(m, elementSet(m, "EALL")), (Ids{1, 2, 3}));
    EXPECT_EQ(elementIds(m, elementSet(m, "FIRST_TWO")), (Ids{1, 2}));
    EXPECT_EQ(elementIds(m, elementSet(m, "ENDS")), (Ids{1, 3, 2}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "OF_LAST")), (Ids{3, 4, 8, 7, 11, 12, 16, 15}));
    EXPECT_EQ(m.nodeSets.size(), 6U);
    EXPECT_EQ(m.elementSets.size(), 4U);
}

TEST(AbaqusReader, NonContiguousUnorderedIds) {
    const Model m = readAbaqus(fixture("noncontiguous_ids.inp"));
    EXPECT_EQ(m.nodeIds, (Ids{1000, 7, 52, 3, 999999}));
    EXPECT_EQ(m.findNode(52), 2);
    EXPECT_EQ(m.findNode(999999), 4);
    EXPECT_EQ(m.findNode(8), kNoIndex);
    EXPECT_TRUE(nodeAt(m, 3, 0.0, 0.0, 1.0));
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].ids, (Ids{500, 12}));
    EXPECT_EQ(m.blocks[0].nodes, (std::vector<Index>{0, 1, 2, 3, 1, 2, 3, 4}));
    EXPECT_EQ(nodeSet(m, "SOME"), (std::vector<Index>{4, 1}));
    ASSERT_EQ(elementSet(m, "SECOND").size(), 1U);
    EXPECT_EQ(elementSet(m, "SECOND")[0], (ElementRef{0, 1}));
}

// Ids far apart, descending and near the top of the range, over two blocks: node and element
// lookups (sets, surfaces) find each one.
TEST(AbaqusReader, SparseDescendingAndHugeIds) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "sparse.inp").string();
    writeBytes(path, "*NODE\n"
                     "9000000000000000000, 0, 0, 0\n"
                     "100000000, 1, 0, 0\n"
                     "5, 0, 1, 0\n"
                     "3, 0, 0, 1\n"
                     "1, 1, 1, 1\n"
                     "*ELEMENT, TYPE=C3D4, ELSET=A\n"
                     "900, 9000000000000000000, 100000000, 5, 3\n"
                     "100, 100000000, 5, 3, 1\n"
                     "*ELEMENT, TYPE=C3D4, ELSET=B\n"
                     "7000000000, 1, 3, 5, 100000000\n"
                     "50, 9000000000000000000, 3, 5, 1\n"
                     "*NSET, NSET=N\n"
                     "1, 9000000000000000000, 5\n"
                     "*ELSET, ELSET=MIX\n"
                     "50, 900, 7000000000, 100\n"
                     "*SURFACE, NAME=S\n"
                     "MIX, S1\n");
    const Model m = readAbaqus(path);
    EXPECT_EQ(m.findNode(9000000000000000000L), 0);
    EXPECT_EQ(m.findNode(1), 4);
    EXPECT_EQ(m.findNode(2), kNoIndex);
    EXPECT_EQ(m.findNode(9000000000000000001L), kNoIndex);
    EXPECT_TRUE(nodeAt(m, 100000000, 1.0, 0.0, 0.0));
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{1, 3, 5, 100000000}));
    EXPECT_EQ(nodeIds(m, nodeSet(m, "N")), (Ids{1, 9000000000000000000L, 5}));
    EXPECT_EQ(elementSet(m, "MIX"), (std::vector<ElementRef>{{1, 1}, {0, 0}, {1, 0}, {0, 1}}));
    EXPECT_EQ(faces(m, "S"), (Faces{{50, 1}, {900, 1}, {7000000000, 1}, {100, 1}}));
}

// Coordinates read exactly as strtod reads them, the rare forms included (underflow, signs,
// Fortran exponents); anything else is refused.
TEST(AbaqusReader, NumberFormsReadAsStrtodReadsThem) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "numbers.inp").string();
    const char* const good[] = {"0.1",
                                "+0.1",
                                "-0.1",
                                ".5",
                                "-.5",
                                "5.",
                                "1e-400",
                                "-1e-320",
                                "2.2250738585072011e-308",
                                "1.0D+02",
                                "1d-3",
                                "+1E+3",
                                "0.30000000000000004",
                                "123456789012345678901234567890",
                                "1.7976931348623157e308",
                                "-0"};
    for (const char* text : good) {
        writeBytes(path, std::string("*NODE\n1, ") + text + ", 0, 0\n");
        std::string c = text;
        std::replace(c.begin(), c.end(), 'D', 'e');
        std::replace(c.begin(), c.end(), 'd', 'e');
        const double expected = std::strtod(c.c_str(), nullptr);
        const Model m = readAbaqus(path);
        EXPECT_EQ(std::memcmp(&m.coords(0, 0), &expected, sizeof(double)), 0)
            << text << ": " << m.coords(0, 0) << " vs " << expected;
    }
    const char* const bad[] = {"+-1", "-+1",   "--1",   "++1",      "1e",   "1e+", "e5",  ".",
                               "+",   "1.0.0", "1e999", "-1.8e308", "0x10", "inf", "nan", "1,5e3f"};
    for (const char* text : bad) {
        writeBytes(path, std::string("*NODE\n1, 0, ") + text + ", 0\n");
        try {
            (void)readAbaqus(path);
            ADD_FAILURE() << text << ": no ParseError";
        } catch (const ParseError& e) {
            EXPECT_NE(std::string(e.what()).find("expected a coordinate, got"), std::string::npos)
                << text << ": " << e.what();
        }
    }
}

// A duplicate node names the line of its first definition exactly, whatever lies between the
// nodes before it: comments, blank lines, other *NODE blocks, included files.
TEST(AbaqusReader, DuplicateNodeNamesTheLineOfTheFirstDefinition) {
    const fs::path dir = scratchDir();
    const std::string inc = (dir / "inc.inp").string();
    writeBytes(inc, "*NODE\n4, 0, 0, 1\n** comment\n6, 1, 1, 1\n");
    const std::string head =
        "*NODE\n1, 0, 0, 0\n** comment\n2, 1, 0, 0\n\n3, 2, 0, 0\n*INCLUDE, INPUT=inc.inp\n"
        "*NODE\n5, 0, 1, 0\n";
    const std::string main = (dir / "main.inp").string();
    const std::pair<long, std::string> firstAt[] = {
        {1, main + ":2"}, {2, main + ":4"}, {3, main + ":6"},
        {4, inc + ":2"},  {6, inc + ":4"},  {5, main + ":9"},
    };
    for (const auto& [id, where] : firstAt) {
        writeBytes(main, head + std::to_string(id) + ", 9, 9, 9\n");
        try {
            (void)readAbaqus(main);
            ADD_FAILURE() << "node " << id << ": no ParseError";
        } catch (const ParseError& e) {
            EXPECT_EQ(std::string(e.what()), main + ":10: node id " + std::to_string(id) +
                                                 " defined twice (first at " + where + ")");
        }
    }
}

// The ids of a dropped block of an unsupported type are free again: a later block may use them,
// and sets and surfaces then mean the later block's elements.
TEST(AbaqusReader, IdsOfADroppedBlockCanBeUsedAgain) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "reuse.inp").string();
    writeBytes(path, "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n"
                     "*ELEMENT, TYPE=C3D4\n1, 1, 2, 3, 4\n"
                     "*ELEMENT, TYPE=CONN3D2\n20, 1\n21, 2, 3\n"
                     "*ELEMENT, TYPE=C3D4, ELSET=LATER\n21, 4, 3, 2, 1\n20, 1, 2, 4, 3\n"
                     "*ELSET, ELSET=E\n20, 1, 21\n"
                     "*ELEMENT, TYPE=C3D4\n22, 1, 2, 3, 4\n"
                     "*SURFACE, NAME=S\n21, S2\n22, S1\n");
    const Model m = readAbaqus(path);
    ASSERT_EQ(m.blocks.size(), 3U);
    EXPECT_EQ(m.blocks[1].ids, (Ids{21, 20}));
    EXPECT_EQ(elementSet(m, "E"), (std::vector<ElementRef>{{1, 1}, {0, 0}, {1, 0}}));
    EXPECT_EQ(elementSet(m, "LATER"), (std::vector<ElementRef>{{1, 0}, {1, 1}}));
    EXPECT_EQ(faces(m, "S"), (Faces{{21, 2}, {22, 1}}));
    EXPECT_EQ(m.surfaces[0].faces[1].element, (ElementRef{2, 0}));
}

TEST(AbaqusReader, IncludeFromSubdirectory) {
    const Model m = readAbaqus(fixture("include_main.inp"));
    // Nodes 1-4 come from include/nodes.inp under the main file's *NODE, node 5 after it.
    ASSERT_EQ(m.numNodes(), 5);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "ALL")), (Ids{1, 2, 3, 4, 5}));
    EXPECT_TRUE(nodeAt(m, 4, 0.0, 0.0, 1.0));
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].source.path, fixture("include/elements.inp"));
    EXPECT_EQ(m.blocks[0].source.line, 2);
    EXPECT_EQ(connectivity(m, 0, 1), (Ids{2, 3, 4, 5}));
    EXPECT_EQ(faces(m, "BASE"), (Faces{{1, 1}, {2, 1}}));
    EXPECT_EQ(m.surfaces[0].source.path, fixture("include_main.inp"));
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note("include_main.inp", 3, "skipped keyword *HEADING"),
                           note("include/elements.inp", 5, "skipped keyword *MATERIAL"),
                       }));
}

// Abaqus resolves a relative INPUT= against the directory the job runs in (the top deck's, in
// practice), not against the including file; decks written for the other rule keep working. So a
// nested include is looked for next to the including file, then next to the top deck, then in the
// current directory, and a name found nowhere is refused with every path tried.
TEST(AbaqusReader, NestedIncludesResolveAgainstTheTopDeck) {
    const fs::path dir = scratchDir();
    fs::create_directories(dir / "inc");
    fs::create_directories(dir / "run");
    writeBytes(dir / "main.inp", "*NODE, NSET=ALL\n*INCLUDE, INPUT=inc/nodes.inp\n");
    // inc/inc/two.inp is not there: inc/two.inp is the top deck's.
    writeBytes(dir / "inc" / "nodes.inp", "1, 0, 0, 0\n*INCLUDE, INPUT=inc/two.inp\n"
                                          "*NODE, NSET=ALL\n*INCLUDE, INPUT=three.inp\n"
                                          "*NODE, NSET=ALL\n*INCLUDE, INPUT=four.inp\n");
    writeBytes(dir / "inc" / "two.inp", "*NODE, NSET=ALL\n2, 1, 0, 0\n");
    // three.inp next to the including file and next to the top deck: the including file's wins.
    writeBytes(dir / "inc" / "three.inp", "3, 0, 1, 0\n");
    writeBytes(dir / "three.inp", "3, 9, 9, 9\n");
    writeBytes(dir / "run" / "four.inp", "4, 0, 0, 1\n");
    const fs::path cwd = fs::current_path();
    fs::current_path(dir / "run");
    Model m;
    try {
        m = readAbaqus((dir / "main.inp").string());
    } catch (...) {
        fs::current_path(cwd);
        throw;
    }
    fs::current_path(cwd);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "ALL")), (Ids{1, 2, 3, 4}));
    EXPECT_TRUE(nodeAt(m, 2, 1.0, 0.0, 0.0));
    EXPECT_TRUE(nodeAt(m, 3, 0.0, 1.0, 0.0));
    EXPECT_TRUE(nodeAt(m, 4, 0.0, 0.0, 1.0));
    EXPECT_EQ(m.files, (std::vector<std::string>{
                           (dir / "main.inp").string(), (dir / "inc" / "nodes.inp").string(),
                           (dir / "inc" / "two.inp").string(), (dir / "inc" / "three.inp").string(),
                           (dir / "run" / "four.inp").string()}));

    writeBytes(dir / "inc" / "nodes.inp", "1, 0, 0, 0\n*INCLUDE, INPUT=sub/missing.inp\n");
    try {
        (void)readAbaqus((dir / "main.inp").string());
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  (dir / "inc" / "nodes.inp").string() +
                      ":2: cannot open included file 'sub/missing.inp' (tried '" +
                      (dir / "inc" / "sub" / "missing.inp").string() + "', '" +
                      (dir / "sub" / "missing.inp").string() + "' and '" +
                      (cwd / "sub" / "missing.inp").string() + "')");
    }
}

TEST(AbaqusReader, NodeDataFromInputParameter) {
    const Model m = readAbaqus(fixture("node_input.inp"));
    ASSERT_EQ(m.numNodes(), 4);
    EXPECT_EQ(nodeIds(m, nodeSet(m, "FROM_FILE")), (Ids{1, 2, 3, 4}));
    EXPECT_TRUE(nodeAt(m, 2, 1.0, 0.0, 0.0));
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(connectivity(m, 0, 0), (Ids{1, 2, 3, 4}));
}

TEST(AbaqusReader, NodeSurfaceWithSetsAndWeights) {
    const Model m = readAbaqus(fixture("node_surface.inp"));
    ASSERT_EQ(m.surfaces.size(), 1U);
    const SurfaceDef& s = m.surfaces[0];
    EXPECT_EQ(s.name, "TIP");
    EXPECT_TRUE(s.nodeSurface);
    EXPECT_TRUE(s.faces.empty());
    EXPECT_EQ(nodeIds(m, s.nodes), (Ids{5, 1, 2, 3, 4}));  // node 2 twice: once
    EXPECT_EQ(s.source.line, 10);
}

TEST(AbaqusReader, TieLinesAreInterfaces) {
    const Model m = readAbaqus(fixture("tie.inp"));
    ASSERT_EQ(m.interfaces.size(), 3U);
    const InterfaceDef& a = m.interfaces[0];
    EXPECT_EQ(a.kind, InterfaceDef::Kind::kTie);
    EXPECT_EQ(a.name, "GLUE");
    EXPECT_EQ(a.slave, "A");
    EXPECT_EQ(a.master, "B");
    EXPECT_TRUE(a.nodeToSurface);
    EXPECT_EQ(a.source.line, 20);
    EXPECT_EQ(m.interfaces[1].slave, "side c");
    EXPECT_EQ(m.interfaces[1].master, "B");
    EXPECT_EQ(m.interfaces[1].source.line, 21);
    EXPECT_EQ(m.interfaces[2].name, "GLUE2");
    EXPECT_EQ(m.interfaces[2].slave, "B");
    EXPECT_EQ(m.interfaces[2].master, "A");
    EXPECT_FALSE(m.interfaces[2].nodeToSurface);
    EXPECT_EQ(faces(m, "Side C"), (Faces{{1, 3}}));
    // POSITION TOLERANCE is not applied, each tie line says so; ADJUST=NO needs no note. GLUE2
    // takes the defaults of *TIE, ADJUST=YES and a position tolerance, which are not applied
    // either.
    const std::string asTheyStand =
        ": the search reports the gaps as the nodes stand, and pairs within its capture distance";
    const std::string unapplied =
        "POSITION TOLERANCE=0.01 is not applied (in Abaqus only the slave nodes within the "
        "position tolerance are tied)" +
        asTheyStand;
    EXPECT_EQ(m.notes,
              (std::vector<std::string>{
                  note("tie.inp", 20, "*TIE 'GLUE' (A, B): " + unapplied),
                  note("tie.inp", 21, "*TIE 'GLUE' (side c, B): " + unapplied),
                  note("tie.inp", 23,
                       "*TIE 'GLUE2' (B, A): ADJUST=YES (the default of *TIE) and the default "
                       "POSITION TOLERANCE are not applied (in Abaqus the adjusted slave nodes "
                       "are moved onto the master, and only the slave nodes within the position "
                       "tolerance are tied)" +
                           asTheyStand),
              }));
}

// ADJUST= on *CONTACT PAIR and ADJUST=YES on *TIE: Abaqus moves the adjusted slave nodes onto
// the master, the search does not; each interface says so in a note at its line. A tie's
// default position tolerance and TIED NSET= choose which slave nodes are tied: noted too.
TEST(AbaqusReader, AdjustedInterfacesAreNoted) {
    const fs::path path = scratchDir() / "adjust.inp";
    writeBytes(path, std::string(kTwoBricks) +
                         "*SURFACE, NAME=A\n1, S1\n*SURFACE, NAME=B\n2, S2\n"
                         "*CONTACT PAIR, INTERACTION=I, ADJUST=0.1, SMALL SLIDING\nA, B\nB, A\n"
                         "*TIE, NAME=T, ADJ=yes\nA, B\n*CONTACT PAIR, INTERACTION=J\nA, B\n"
                         "*TIE, NAME=U, TIED NSET=N, ADJUST=NO\nA, B\n");
    const Model m = readAbaqus(path.string());
    ASSERT_EQ(m.interfaces.size(), 5U);
    const std::string asTheyStand =
        ": the search reports the gaps as the nodes stand, and pairs within its capture distance";
    const std::string moved =
        "(in Abaqus the adjusted slave nodes are moved onto the master)" + asTheyStand;
    const std::string at = path.string() + ":";
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           at + "24: *CONTACT PAIR 'I' (A, B): ADJUST=0.1 is not applied " + moved,
                           at + "25: *CONTACT PAIR 'I' (B, A): ADJUST=0.1 is not applied " + moved,
                           at +
                               "27: *TIE 'T' (A, B): ADJUST=yes and the default POSITION "
                               "TOLERANCE are not applied (in Abaqus the adjusted slave "
                               "nodes are moved onto the master, and only the slave nodes "
                               "within the position tolerance are tied)" +
                               asTheyStand,
                           at +
                               "31: *TIE 'U' (A, B): TIED NSET=N is not applied (in Abaqus only "
                               "the slave nodes of that set are tied)" +
                               asTheyStand,
                       }));
}

TEST(AbaqusReader, UnknownKeywordsAreSkippedAndNoted) {
    const Model m = readAbaqus(fixture("unknown_keywords.inp"));
    EXPECT_EQ(m.numNodes(), 4);
    EXPECT_EQ(m.numElements(), 1);
    const std::string f = "unknown_keywords.inp";
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note(f, 1, "skipped keyword *HEADING"),
                           note(f, 10, "skipped keyword *MATERIAL"),
                           note(f, 11, "skipped keyword *ELASTIC"),
                           note(f, 13, "skipped keyword *SOLID SECTION"),
                           note(f, 14, "skipped keyword *STEP"),
                           note(f, 15, "skipped keyword *STATIC"),
                           note(f, 16, "skipped keyword *BOUNDARY (2 times)"),
                           note(f, 20, "skipped keyword *END STEP"),
                       }));
}

TEST(AbaqusReader, UnknownElementTypesAreKeptOrDroppedAndNoted) {
    const Model m = readAbaqus(fixture("unknown_element_type.inp"));
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "C3D8");
    EXPECT_EQ(m.blocks[1].type, "B31");
    EXPECT_EQ(m.blocks[1].nodesPerElement, 2);
    EXPECT_EQ(m.blocks[1].ids, (Ids{10, 11}));
    EXPECT_EQ(connectivity(m, 1, 1), (Ids{6, 7}));
    EXPECT_EQ(elementIds(m, elementSet(m, "BEAMS")), (Ids{10, 11}));
    EXPECT_TRUE(elementSet(m, "CONNECTORS").empty());  // the set exists, its block is dropped
    EXPECT_EQ(elementIds(m, elementSet(m, "MIXED")), (Ids{1, 10, 11}));
    EXPECT_EQ(faces(m, "ON_BEAM"), (Faces{{10, 1}}));
    const std::string f = "unknown_element_type.inp";
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note(f, 14, "skipped 2 elements of unsupported type B31"),
                           note(f, 17,
                                "skipped 2 elements of unsupported type CONN3D2 (none kept: "
                                "line 19: 2 nodes, earlier elements have 1)"),
                       }));
}

// The shape Abaqus/CAE writes with one instance: the part's nodes and elements become the
// instance's, its sets are named through the instance, the assembly's sets and surfaces refer to
// them with INSTANCE=.
TEST(AbaqusReader, SinglePartInstance) {
    const Model m = readAbaqus(fixture("part_instance.inp"));
    ASSERT_EQ(m.numNodes(), 8);
    ASSERT_EQ(m.instances.size(), 1U);
    EXPECT_EQ(m.instances[0].name, "Cube-1");
    EXPECT_EQ(m.instances[0].part, "Cube");
    EXPECT_EQ(m.instances[0].firstNode, 0);
    EXPECT_EQ(m.instances[0].nodeCount, 8);
    EXPECT_EQ(m.instances[0].blockCount, 1);
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].instance, 0);
    EXPECT_EQ(m.coords.col(6), Eigen::Vector3d(1.0, 1.0, 1.0));
    EXPECT_EQ(m.nodeLabel(6), "Cube-1.7");
    EXPECT_EQ(m.findNode(7), kNoIndex) << "instance nodes are not model-level ids";
    EXPECT_EQ(nodeSet(m, "CUBE-1.SET-1").size(), 8U);
    EXPECT_EQ(elementIds(m, elementSet(m, "_SURF-1_S2")), (Ids{1}));
    EXPECT_EQ(faces(m, "Surf-1"), (Faces{{1, 2}}));
    EXPECT_EQ(m.notes,
              (std::vector<std::string>{note("part_instance.inp", 3, "skipped keyword *HEADING")}));
}

// A deck as Abaqus/CAE writes it (assembly/cae_blocks.inp): two instances of one part, one of them
// translated and turned, a rigid indenter, assembly-level nodes, sets and surfaces.
TEST(AbaqusReader, AssemblyOfPlacedInstances) {
    const Model m = readAbaqus(fixture("assembly/cae_blocks.inp"));
    ASSERT_EQ(m.instances.size(), 3U);
    EXPECT_EQ(m.instances[0].name, "Block-1");
    EXPECT_EQ(m.instances[1].name, "Block-2");
    EXPECT_EQ(m.instances[1].part, "Block");
    EXPECT_EQ(m.instances[2].name, "Indenter-1");
    EXPECT_EQ(m.instances[1].firstNode, 18);
    EXPECT_EQ(m.instances[2].firstNode, 36);
    ASSERT_EQ(m.numNodes(), 18 + 18 + 9 + 1);
    // Block-2: translated by (0.5, 0, 1.05), then turned 90 degrees about the vertical axis
    // through (1.2, 1): part node (x, y, z) at (2.2 - y, x + 0.3, z + 1.05).
    const auto near = [&](Index i, const Eigen::Vector3d& x) {
        return (m.coords.col(i) - x).norm() < 1e-15;
    };
    EXPECT_TRUE(near(18, {2.2, 0.3, 1.05}));                     // Block-2.1, part node (0, 0, 0)
    EXPECT_TRUE(near(18 + 5, {1.2, 2.3, 1.05}));                 // Block-2.6, part node (2, 1, 0)
    EXPECT_TRUE(near(18 + 17, {0.2, 2.3, 2.05}));                // Block-2.18, part node (2, 2, 1)
    EXPECT_TRUE(near(36 + 8, {1.75, 1.85, 2.1}));                // Indenter-1.9: translated only
    EXPECT_EQ(m.coords.col(5), Eigen::Vector3d(2.0, 1.0, 0.0));  // Block-1: not moved
    // Node and element ids restart in each part and stay apart.
    EXPECT_EQ(m.nodeLabel(0), "Block-1.1");
    EXPECT_EQ(m.nodeLabel(18), "Block-2.1");
    EXPECT_EQ(m.nodeLabel(44), "Indenter-1.9");
    EXPECT_EQ(m.findNode(1), 45) << "the assembly's own node 1";
    EXPECT_EQ(m.nodeLabel(45), "1");
    ASSERT_EQ(m.blocks.size(), 3U);
    EXPECT_EQ(m.blocks[1].ids, (Ids{1, 2, 3, 4}));
    EXPECT_EQ(m.blocks[1].instance, 1);
    EXPECT_EQ(m.blocks[2].type, "R3D4");
    EXPECT_EQ(m.elementLabel(1, 4), "Block-2.4");
    EXPECT_EQ(connectivity(m, 1, 0), (Ids{1, 2, 5, 4, 10, 11, 14, 13}));
    EXPECT_EQ(m.blocks[1].nodes[0], 18);
    // Sets and surfaces named through their instance; INSTANCE= sets take the instance's ids.
    EXPECT_EQ(nodeSet(m, "BLOCK-2.SET-ALL").size(), 18U);
    EXPECT_EQ(nodeSet(m, "BLOCK-2.SET-ALL").front(), 18);
    EXPECT_EQ(elementSet(m, "INDENTER-1.INDENTER").size(), 4U);
    const std::vector<Index>& top = nodeSet(m, "TOP-NODES");
    ASSERT_EQ(top.size(), 9U);
    EXPECT_EQ(m.nodeLabel(top.front()), "Block-1.10");
    EXPECT_EQ(m.nodeLabel(top.back()), "Block-1.18");
    EXPECT_EQ(faces(m, "Block-2.Bottom"), (Faces{{1, 1}, {2, 1}, {3, 1}, {4, 1}}));
    EXPECT_EQ(m.findSurface("Block-2.Bottom")->faces[0].element, (ElementRef{1, 0}));
    EXPECT_EQ(faces(m, "Contact-Top"), (Faces{{1, 2}, {2, 2}, {3, 2}, {4, 2}}));
    EXPECT_EQ(m.findSurface("Contact-Top")->faces[0].element, (ElementRef{0, 0}));
    // The contact pair, then general contact (ALL EXTERIOR, searched as self-contact).
    ASSERT_EQ(m.interfaces.size(), 2U);
    EXPECT_EQ(m.interfaces[0].kind, InterfaceDef::Kind::kContactPair);
    EXPECT_EQ(m.interfaces[0].slave, "Block-2.Bottom");
    EXPECT_EQ(m.interfaces[0].master, "Contact-Top");
    EXPECT_FALSE(m.interfaces[0].nodeToSurface);
    EXPECT_EQ(m.interfaces[1].kind, InterfaceDef::Kind::kGeneralContact);
    EXPECT_EQ(m.interfaces[1].slave, "ALL EXTERIOR");
    EXPECT_EQ(m.interfaces[1].master, "ALL EXTERIOR");
    EXPECT_TRUE(m.interfaces[1].selfContact);
    EXPECT_EQ(m.interfaces[1].source.line, 106);  // *Contact Inclusions
    const SurfaceDef* exterior = m.findSurface("ALL EXTERIOR");
    ASSERT_NE(exterior, nullptr);
    EXPECT_EQ(exterior->faces.size(), 16U + 16U + 4U);  // two blocks' skins, the indenter's SPOS
}

// Placements checked by hand: a quarter turn about the x axis maps (x, y, z) to (x, -z, y); a half
// turn about the diagonal (0, 0, 0)-(1, 1, 0) maps it to (y, x, -z); the translation comes first.
TEST(AbaqusReader, InstanceRotationsAboutAnAxis) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "turns.inp").string();
    writeBytes(path, "*Part, name=P\n*Node\n1, 1.0, 2.0, 3.0\n*End Part\n"
                     "*Assembly, name=A\n"
                     "*Instance, name=Quarter, part=P\n0., 0., 0.\n"
                     "0., 0., 0., 1., 0., 0., 90.\n*End Instance\n"
                     "*Instance, name=Half, part=P\n0., 0., 1.\n"
                     "0., 0., 0., 1., 1., 0., 180.\n*End Instance\n"
                     "*Instance, name=Moved, part=P\n10., 20., 30.\n*End Instance\n"
                     "*Instance, name=Blank, part=P\n, , 5.\n*End Instance\n"
                     "*End Assembly\n");
    const Model m = readAbaqus(path);
    ASSERT_EQ(m.numNodes(), 4);
    EXPECT_LT((m.coords.col(0) - Eigen::Vector3d(1.0, -3.0, 2.0)).norm(), 1e-14);
    EXPECT_LT((m.coords.col(1) - Eigen::Vector3d(2.0, 1.0, -4.0)).norm(), 1e-14);
    EXPECT_EQ(m.coords.col(2), Eigen::Vector3d(11.0, 22.0, 33.0));
    EXPECT_EQ(m.coords.col(3), Eigen::Vector3d(1.0, 2.0, 8.0));
    EXPECT_EQ(m.nodeLabel(3), "Blank.1");
}

// *INCLUDE inside a part and inside the assembly: the included lines belong where the *INCLUDE
// stands. Two parts number their nodes from 1 without clashing.
TEST(AbaqusReader, IncludesInsidePartsAndAssembly) {
    const fs::path dir = scratchDir();
    writeBytes(dir / "mesh.inp", "*Node\n1, 0., 0., 0.\n2, 1., 0., 0.\n");
    writeBytes(dir / "placed.inp", "*Instance, name=Q-1, part=Q\n0., 1., 0.\n*End Instance\n");
    const std::string main = (dir / "main.inp").string();
    writeBytes(main, "*Part, name=P\n*Include, input=mesh.inp\n*End Part\n"
                     "*Part, name=Q\n*Node\n1, 5., 5., 5.\n*End Part\n"
                     "*Assembly, name=A\n*Instance, name=P-1, part=P\n*End Instance\n"
                     "*Include, input=placed.inp\n*End Assembly\n");
    const Model m = readAbaqus(main);
    ASSERT_EQ(m.numNodes(), 3);
    EXPECT_EQ(m.nodeLabel(1), "P-1.2");
    EXPECT_EQ(m.nodeLabel(2), "Q-1.1");
    EXPECT_EQ(m.coords.col(2), Eigen::Vector3d(5.0, 6.0, 5.0));
    EXPECT_EQ(m.files.size(), 3U);
}

// "<instance>.<id>" in assembly-level sets and surfaces; a mesh defined inside *INSTANCE (what
// Abaqus/CAE writes for independent instances) belongs to that instance.
TEST(AbaqusReader, InstanceQualifiedIdsAndMeshInsideAnInstance) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "qualified.inp").string();
    writeBytes(path, "*Part, name=P\n*End Part\n*Assembly, name=A\n"
                     "*Instance, name=I-1, part=P\n0., 0., 1.\n*Node\n1, 0., 0., 0.\n"
                     "2, 1., 0., 0.\n3, 0., 1., 0.\n4, 0., 0., 1.\n"
                     "*Element, type=C3D4, elset=E\n7, 1, 2, 3, 4\n*End Instance\n"
                     "*Instance, name=I-2, part=P\n*Node\n1, 5., 5., 5.\n*End Instance\n"
                     "*Nset, nset=N\nI-1.2, I-2.1\n*Elset, elset=EE\nI-1.7\n"
                     "*Surface, name=S\nI-1.7, S1\nI-1.E, S2\n"
                     "*Surface, name=NS, type=NODE\nI-2.1\n"
                     "*Element, type=R3D3\n99, I-1.1, I-1.2, I-2.1\n*End Assembly\n");
    const Model m = readAbaqus(path);
    ASSERT_EQ(m.numNodes(), 5);
    EXPECT_EQ(m.coords.col(1), Eigen::Vector3d(1.0, 0.0, 1.0));  // placed like the part's nodes
    EXPECT_EQ(nodeIds(m, nodeSet(m, "N")), (Ids{2, 1}));
    EXPECT_EQ(m.nodeLabel(nodeSet(m, "N")[1]), "I-2.1");
    EXPECT_EQ(elementIds(m, elementSet(m, "EE")), (Ids{7}));
    EXPECT_EQ(faces(m, "S"), (Faces{{7, 1}, {7, 2}}));
    EXPECT_EQ(elementIds(m, elementSet(m, "I-1.E")), (Ids{7}));
    const SurfaceDef* ns = m.findSurface("NS");
    ASSERT_NE(ns, nullptr);
    EXPECT_EQ(ns->nodes, (std::vector<Index>{4}));
    ASSERT_EQ(m.blocks.size(), 2U);  // an assembly-level element on instance nodes
    EXPECT_EQ(m.blocks[1].instance, -1);
    EXPECT_EQ(m.blocks[1].nodes, (std::vector<Index>{0, 1, 4}));
}

// A 2 x 2 x 1 block of C3D8 (nodes 1..18, elements 1..4 in ELSET=all) raised by dz.
std::string blockMesh(double dz) {
    std::ostringstream s;
    s << "*NODE\n";
    for (int i = 0; i < 18; ++i) {
        s << i + 1 << ", " << i % 3 << ", " << (i / 3) % 3 << ", " << i / 9 + dz << "\n";
    }
    s << "*ELEMENT, TYPE=C3D8, ELSET=all\n1, 1, 2, 5, 4, 10, 11, 14, 13\n"
         "2, 2, 3, 6, 5, 11, 12, 15, 14\n3, 4, 5, 8, 7, 13, 14, 17, 16\n"
         "4, 5, 6, 9, 8, 14, 15, 18, 17\n";
    return s.str();
}

// A name (or deck text) of the instanced twin as the flat twin writes it: "R1." dropped.
std::string flatName(std::string n) {
    for (std::size_t at = n.find("R1."); at != std::string::npos; at = n.find("R1.")) {
        n.erase(at, 3);
    }
    return n;
}

// Two blocks, the upper one 0.25 above the lower: meshed inside the *INSTANCE R1 with `surfaces`
// (instanced), or placed by hand at the assembly level with the same lines (flat). `after`
// follows the assembly; "R1." in it is dropped in the flat twin.
std::string twinDeck(bool instanced, const std::string& surfaces, const std::string& after) {
    std::string deck = "*PART, NAME=Empty\n*END PART\n*PART, NAME=Base\n" + blockMesh(0.0) +
                       "*SURFACE, NAME=Top\nall, S2\n*END PART\n*ASSEMBLY, NAME=A\n"
                       "*INSTANCE, NAME=B1, PART=Base\n*END INSTANCE\n"
                       "*INSTANCE, NAME=R1, PART=Empty\n";
    if (instanced) {
        deck += "0, 0, 1.25\n" + blockMesh(0.0) + surfaces + "*END INSTANCE\n";
    } else {
        deck += "*END INSTANCE\n" + blockMesh(1.25) + surfaces;
    }
    return deck + "*END ASSEMBLY\n" + (instanced ? after : flatName(after));
}

// The corner coordinates of each segment of a surface, sorted: what the search is given.
std::vector<std::vector<double>> geometry(const Model& m, const std::string& surface) {
    const ContactSurface cs = buildContactSurface(m, surface);
    std::vector<std::vector<double>> out;
    for (Index s = 0; s < cs.surface.size(); ++s) {
        std::vector<double> x;
        for (Index i = cs.surface.offsets[s]; i < cs.surface.offsets[s + 1]; ++i) {
            const Eigen::Vector3d p = m.coords.col(cs.surface.connectivity[i]);
            x.insert(x.end(), {p.x(), p.y(), p.z()});
        }
        out.push_back(std::move(x));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Reads the twins and checks that each surface of `names` (in the flat twin without "R1.") and
// each interface's slave and master have the same segments in both.
void expectTwinsAgree(const std::string& surfaces, const std::string& after,
                      const std::vector<std::string>& names) {
    const fs::path dir = scratchDir();
    writeBytes(dir / "instanced.inp", twinDeck(true, surfaces, after));
    writeBytes(dir / "flat.inp", twinDeck(false, surfaces, after));
    const Model inst = readAbaqus((dir / "instanced.inp").string());
    const Model flat = readAbaqus((dir / "flat.inp").string());
    for (const std::string& n : names) {
        EXPECT_FALSE(geometry(flat, flatName(n)).empty()) << n;
        EXPECT_EQ(geometry(inst, n), geometry(flat, flatName(n))) << n;
    }
    ASSERT_EQ(inst.interfaces.size(), flat.interfaces.size());
    for (std::size_t i = 0; i < inst.interfaces.size(); ++i) {
        const InterfaceDef& a = inst.interfaces[i];
        const InterfaceDef& b = flat.interfaces[i];
        EXPECT_EQ(flatName(a.slave), b.slave);
        EXPECT_EQ(flatName(a.master), b.master);
        EXPECT_EQ(geometry(inst, a.slave), geometry(flat, b.slave)) << a.slave;
        EXPECT_EQ(geometry(inst, a.master), geometry(flat, b.master)) << a.master;
    }
}

// Surface lines without a face label inside an *INSTANCE take the exposed faces of the
// instance's elements, as in its flat twin: 2 labelled faces and the 4 + 4 exposed faces of
// elements 3 and 4 (they were left out: the instance's data had moved into the model before
// the exposed faces were found). A general contact exclusion names such a surface.
TEST(AbaqusReader, ExposedFacesInsideAnInstanceAsInItsFlatTwin) {
    const std::string surfaces = "*SURFACE, NAME=Bottom\n1, S1\n2, S1\n3\n4\n"
                                 "*SURFACE, NAME=Skin\nall\n";
    expectTwinsAgree(surfaces,
                     "*CONTACT PAIR, INTERACTION=I\nR1.Bottom, B1.Top\n"
                     "*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n*CONTACT EXCLUSIONS\n"
                     "R1.Skin, B1.Top\n",
                     {"R1.Bottom", "R1.Skin"});
    const fs::path path = scratchDir() / "instanced.inp";
    writeBytes(path, twinDeck(true, surfaces, ""));
    const Model m = readAbaqus(path.string());
    EXPECT_EQ(
        faces(m, "R1.Bottom"),
        (Faces{{1, 1}, {2, 1}, {3, 1}, {3, 2}, {3, 5}, {3, 6}, {4, 1}, {4, 2}, {4, 4}, {4, 5}}));
    EXPECT_EQ(m.findSurface("R1.Skin")->faces.size(), 16U);
}

// *SURFACE, COMBINE= inside an *INSTANCE combines the instance's surfaces (it crashed: the
// combination ran after the instance's surfaces had moved into the model), exposed faces too.
TEST(AbaqusReader, CombinedSurfacesInsideAnInstanceAsInItsFlatTwin) {
    expectTwinsAgree("*SURFACE, NAME=Half1\n1, S1\n2, S1\n*SURFACE, NAME=Half2\n3, S1\n4, S1\n"
                     "*SURFACE, NAME=Bottom, COMBINE=UNION\nHalf1, Half2\n"
                     "*SURFACE, NAME=Skin\nall\n"
                     "*SURFACE, NAME=Sides, COMBINE=DIFFERENCE\nSkin, Bottom\n",
                     "*CONTACT PAIR, INTERACTION=I\nR1.Bottom, B1.Top\n",
                     {"R1.Bottom", "R1.Sides"});
}

// An instance name in quotes (it holds a comma or a dot) qualifies node and element ids and set
// names alike, quoted alone ("Hi,2".1, as Abaqus/CAE writes it) or with the id ("Hi,2.1").
TEST(AbaqusReader, QuotedInstanceNamesQualifyIdsAndSets) {
    const fs::path path = scratchDir() / "quoted.inp";
    writeBytes(path, "*Part, name=P\n*Node\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 0., 1., 0.\n"
                     "4, 0., 0., 1.\n*Element, type=C3D4, elset=E\n7, 1, 2, 3, 4\n"
                     "*Nset, nset=N\n1, 2\n*End Part\n*Assembly, name=A\n"
                     "*Instance, name=\"Hi,2\", part=P\n0., 0., 1.\n*End Instance\n"
                     "*Instance, name=\"Lo.v1\", part=P\n*End Instance\n"
                     "*Nset, nset=Q\n\"Hi,2\".3, \"Hi,2.2\", \"Lo.v1\".4, \"Hi,2\".N\n"
                     "*Elset, elset=EE\n\"Lo.v1\".7, \"Hi,2\".E\n"
                     "*Surface, name=S\n\"Hi,2\".7, S1\n\"Lo.v1\".E, S2\n"
                     "*Surface, name=NS, type=NODE\n\"Hi,2\".4\n"
                     "*Element, type=R3D3\n99, \"Hi,2\".1, \"Lo.v1\".2, \"Hi,2\".3\n"
                     "*End Assembly\n");
    const Model m = readAbaqus(path.string());
    ASSERT_EQ(m.numNodes(), 8);
    std::vector<std::string> labels;
    for (const Index i : nodeSet(m, "Q")) {
        labels.push_back(m.nodeLabel(i));
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"Hi,2.3", "Hi,2.2", "Lo.v1.4", "Hi,2.1"}));
    const std::vector<ElementRef>& ee = elementSet(m, "EE");
    ASSERT_EQ(ee.size(), 2U);
    EXPECT_EQ(m.elementLabel(m.blocks[static_cast<std::size_t>(ee[0].block)].instance, 7),
              "Lo.v1.7");
    EXPECT_EQ(ee[0].block, 1);
    EXPECT_EQ(ee[1].block, 0);
    const SurfaceDef* s = m.findSurface("S");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->faces.size(), 2U);
    EXPECT_EQ(s->faces[0].element, (ElementRef{0, 0}));
    EXPECT_EQ(s->faces[1].element, (ElementRef{1, 0}));
    const SurfaceDef* ns = m.findSurface("NS");
    ASSERT_NE(ns, nullptr);
    EXPECT_EQ(ns->nodes, (std::vector<Index>{3}));
    ASSERT_EQ(m.blocks.size(), 3U);
    EXPECT_EQ(m.blocks[2].nodes, (std::vector<Index>{0, 5, 2}));
}

// Interfaces of every kind: a node and an element surface of one name (CalculiX tells them apart
// by type), every contact TYPE, one TYPE no search knows (kept with its problem, so the tool can
// report it and search the others), and ties that are no contact (noted, not searched).
TEST(AbaqusReader, InterfacesOfEveryKind) {
    const std::string f = "interfaces.inp";
    const Model m = readAbaqus(fixture(f));
    ASSERT_EQ(m.surfaces.size(), 3U);
    EXPECT_EQ(m.surfaces[0].name, "UPPER_BOTTOM");
    EXPECT_TRUE(m.surfaces[0].nodeSurface);
    EXPECT_EQ(m.surfaces[1].name, "UPPER_BOTTOM");
    EXPECT_FALSE(m.surfaces[1].nodeSurface);
    EXPECT_EQ(m.findSurface("UPPER_BOTTOM"), &m.surfaces[1]) << "the element surface by default";
    EXPECT_EQ(m.findSurface("upper_bottom", true), &m.surfaces[0]);
    EXPECT_EQ(m.findSurface("LOWER_TOP", true), &m.surfaces[2]) << "the only one of that name";
    ASSERT_EQ(m.interfaces.size(), 6U);
    const bool nodeMode[] = {true, false, true, true, true, true};
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(m.interfaces[i].nodeToSurface, nodeMode[i]) << i;
        EXPECT_EQ(m.interfaces[i].source.line, static_cast<long>(35 + 2 * i)) << i;
        EXPECT_EQ(m.interfaces[i].problem.empty(), i != 4) << i;
    }
    EXPECT_EQ(m.interfaces[4].problem,
              "TYPE=EDGETOEDGE on *CONTACT PAIR is not a contact type this search knows (NODE TO "
              "SURFACE, SURFACE TO SURFACE, MORTAR, LINMORTAR, PGMORTAR, PGLINMORTAR, MASSLESS)");
    EXPECT_EQ(m.interfaces[5].slave, "NO_SUCH_SURFACE");
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           note(f, 46,
                                "*TIE 'CYC' with CYCLIC SYMMETRY is a symmetry condition, not a "
                                "contact: not searched"),
                           note(f, 48,
                                "*TIE 'STAGES' with MULTISTAGE is a symmetry condition, not a "
                                "contact: not searched"),
                       }));
}

// General contact: ALL EXTERIOR with the skins of A and B excluded splits the domain into the two
// skins and the rest; each region's nodes are searched against the regions it meets.
TEST(AbaqusReader, GeneralContactBecomesOneInterfacePerRegion) {
    const Model m = readAbaqus(fixture("general_contact.inp"));
    ASSERT_EQ(m.interfaces.size(), 3U);
    const std::pair<const char*, const char*> expected[] = {
        {"A_SKIN", "ALL EXTERIOR except B_SKIN"},
        {"B_SKIN", "ALL EXTERIOR except A_SKIN"},
        {"ALL EXTERIOR except A_SKIN, B_SKIN", "ALL EXTERIOR"},
    };
    for (std::size_t i = 0; i < 3; ++i) {
        const InterfaceDef& d = m.interfaces[i];
        EXPECT_EQ(d.kind, InterfaceDef::Kind::kGeneralContact);
        EXPECT_EQ(d.slave, expected[i].first);
        EXPECT_EQ(d.master, expected[i].second);
        EXPECT_TRUE(d.selfContact);
        EXPECT_TRUE(d.problem.empty()) << d.problem;
        EXPECT_EQ(d.source.line, 57);  // *CONTACT INCLUSIONS
    }
    // Three cubes: 18 exterior faces; the rest is C's 6, the unions 12 each.
    EXPECT_EQ(m.findSurface("ALL EXTERIOR")->faces.size(), 18U);
    EXPECT_EQ(m.findSurface("ALL EXTERIOR except A_SKIN, B_SKIN")->faces.size(), 6U);
    EXPECT_EQ(m.findSurface("ALL EXTERIOR except B_SKIN")->faces.size(), 12U);
    EXPECT_EQ(faces(m, "ALL EXTERIOR except A_SKIN, B_SKIN"),
              (Faces{{3, 1}, {3, 2}, {3, 3}, {3, 4}, {3, 5}, {3, 6}}));
}

TEST(AbaqusReader, ReadModelChoosesTheAbaqusReader) {
    const Model m = readModel(fixture("mixed_tets.inp"));
    EXPECT_EQ(m.format, "abaqus");
    EXPECT_EQ(m.numElements(), 2);
}

// A structured n^3 hex grid written with ids in reverse order, read back and checked against
// the formula that generated it.
TEST(AbaqusReader, GeneratedHexGrid) {
    constexpr long kN = 12;  // elements per side
    constexpr long kP = kN + 1;
    const auto nodeId = [](long i, long j, long k) { return 1 + i + kP * (j + kP * k); };
    std::ostringstream s;
    s << "*NODE, NSET=ALL\n";
    for (long id = kP * kP * kP; id >= 1; --id) {
        const long i = (id - 1) % kP;
        const long j = (id - 1) / kP % kP;
        const long k = (id - 1) / (kP * kP);
        s << id << ", " << 0.5 * static_cast<double>(i) << ", " << 0.25 * static_cast<double>(j)
          << ", " << static_cast<double>(k) << "\n";
    }
    s << "*ELEMENT, TYPE=C3D8R, ELSET=GRID\n";
    long e = 0;
    for (long k = 0; k < kN; ++k) {
        for (long j = 0; j < kN; ++j) {
            for (long i = 0; i < kN; ++i) {
                s << ++e << ", " << nodeId(i, j, k) << ", " << nodeId(i + 1, j, k) << ", "
                  << nodeId(i + 1, j + 1, k) << ", " << nodeId(i, j + 1, k) << ", "
                  << nodeId(i, j, k + 1) << ", " << nodeId(i + 1, j, k + 1) << ", "
                  << nodeId(i + 1, j + 1, k + 1) << ", " << nodeId(i, j + 1, k + 1) << "\n";
            }
        }
    }
    s << "*ELSET, ELSET=BOTTOM_LAYER, GENERATE\n1, " << kN * kN << ", 1\n";
    s << "*SURFACE, NAME=BOTTOM\nBOTTOM_LAYER, S1\n";
    const fs::path path = scratchDir() / "grid.inp";
    writeBytes(path, s.str());

    const Model m = readAbaqus(path.string());
    ASSERT_EQ(m.numNodes(), kP * kP * kP);
    ASSERT_EQ(m.numElements(), kN * kN * kN);
    EXPECT_EQ(m.findNode(kP * kP * kP), 0);
    EXPECT_TRUE(nodeAt(m, nodeId(3, 5, 7), 1.5, 1.25, 7.0));
    const long last = kN * kN * kN;
    EXPECT_EQ(connectivity(m, 0, static_cast<Index>(last - 1)),
              (Ids{nodeId(kN - 1, kN - 1, kN - 1), nodeId(kN, kN - 1, kN - 1),
                   nodeId(kN, kN, kN - 1), nodeId(kN - 1, kN, kN - 1), nodeId(kN - 1, kN - 1, kN),
                   nodeId(kN, kN - 1, kN), nodeId(kN, kN, kN), nodeId(kN - 1, kN, kN)}));
    EXPECT_EQ(faces(m, "BOTTOM").size(), static_cast<std::size_t>(kN * kN));
    EXPECT_EQ(nodeSet(m, "ALL").size(), static_cast<std::size_t>(kP * kP * kP));
}

TEST(AbaqusReader, MissingFileIsAParseErrorAtLineZero) {
    const std::string path = fixture("no_such_file.inp");
    try {
        (void)readAbaqus(path);
        FAIL() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(e.line(), 0);
        EXPECT_EQ(std::string(e.what()), path + ": cannot open the file");
    }
}

TEST(AbaqusReader, IncludeDepthIsLimited) {
    // A chain of 40 files, each including the next (no cycle): refused at the 32nd level.
    const fs::path dir = scratchDir();
    for (int i = 0; i < 40; ++i) {
        writeBytes(dir / ("level" + std::to_string(i) + ".inp"),
                   "*INCLUDE, INPUT=level" + std::to_string(i + 1) + ".inp\n");
    }
    try {
        (void)readAbaqus((dir / "level0.inp").string());
        FAIL() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.path(), (dir / "level31.inp").string());
        EXPECT_EQ(e.line(), 1);
        EXPECT_NE(std::string(e.what()).find("expected at most 32 nested *INCLUDE levels"),
                  std::string::npos)
            << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Bad twins: each malformed fixture gives one ParseError naming the file, the line and what was
// expected. "@DIR@" in a message stands for the fixture directory.

struct BadCase {
    const char* file;       // fixture read
    const char* errorFile;  // file the error names (nullptr: the fixture itself)
    long line;
    const char* message;
};

// Test names in ctest show the fixture, not the bytes of the struct.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.file; }

// @DIR@ in a message: the fixtures' directory; @CWD@: the current one.
std::string withDir(std::string s) {
    for (const auto& [key, dir] : {std::pair<std::string, std::string>{"@DIR@", kDir},
                                   {"@CWD@", fs::current_path().string()}}) {
        for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key)) {
            s.replace(at, key.size(), dir);
        }
    }
    return s;
}

class AbaqusBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(AbaqusBadInput, NamesFileLineAndExpectation) {
    const BadCase& c = GetParam();
    const std::string errorPath = fixture(c.errorFile != nullptr ? c.errorFile : c.file);
    try {
        (void)readAbaqus(fixture(c.file));
        FAIL() << c.file << ": no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.path(), errorPath);
        EXPECT_EQ(e.line(), c.line);
        EXPECT_EQ(std::string(e.what()),
                  errorPath + ":" + std::to_string(c.line) + ": " + withDir(c.message));
    }
}

const BadCase kBadCases[] = {
    {"bad_number.inp", nullptr, 3, "expected a coordinate, got '0.5x'"},
    {"bad_node_id.inp", nullptr, 3, "expected a node id, got 'x1'"},
    {"bad_exponent_overflow.inp", nullptr, 3, "expected a coordinate, got '1.0D+999'"},
    {"bad_too_few_coordinates.inp", nullptr, 3, "expected 2 or 3 coordinates for node 2, got 1"},
    {"bad_undefined_node.inp", nullptr, 8, "expected a defined node id, got '17'"},
    {"bad_duplicate_node.inp", nullptr, 6,
     "node id 2 defined twice (first at @DIR@/bad_duplicate_node.inp:3)"},
    {"bad_duplicate_element.inp", nullptr, 9,
     "element id 7 defined twice (first in the *ELEMENT block at "
     "@DIR@/bad_duplicate_element.inp:6)"},
    {"bad_unknown_set.inp", nullptr, 7, "expected a node id or a defined node set, got 'NOPE'"},
    {"bad_unknown_set_id.inp", nullptr, 5, "expected a defined node id, got '3'"},
    {"bad_generate_range.inp", nullptr, 5, "expected a last node id >= 2, got '1'"},
    {"bad_face_s5_on_c3d4.inp", nullptr, 10,
     "expected a face of element 1 (C3D4: S1..S4), got 'S5'"},
    {"bad_face_s6_on_tri_shell.inp", nullptr, 9,
     "expected a face of element 1 (S3: SPOS, SNEG, S1..S5, E1..E3), got 'S6'"},
    {"bad_face_spos_on_solid.inp", nullptr, 9,
     "expected a face of element 1 (C3D4: S1..S4), got 'SPOS'"},
    {"bad_face_label.inp", nullptr, 9,
     "expected a face label (S1..S6, SPOS, SNEG, or E1..E4 on shells), got 'S7'"},
    {"bad_element_without_type.inp", nullptr, 6,
     "expected TYPE=<element type> on *ELEMENT, got '*ELEMENT, ELSET=BLOCK'"},
    {"bad_nset_without_name.inp", nullptr, 3,
     "expected NSET=<name> on *NSET, got '*NSET, GENERATE'"},
    {"bad_surface_without_name.inp", nullptr, 3,
     "expected NAME=<surface name> on *SURFACE, got '*SURFACE, TYPE=NODE'"},
    {"bad_include_without_input.inp", nullptr, 3,
     "expected INPUT=<file> on *INCLUDE, got '*INCLUDE, FILE=nodes.inp'"},
    {"bad_include_missing.inp", nullptr, 3,
     "cannot open included file 'include/does_not_exist.inp' (tried "
     "'@DIR@/include/does_not_exist.inp' and '@CWD@/include/does_not_exist.inp')"},
    {"bad_include_device.inp", nullptr, 3,
     "cannot read included file '/dev/zero': it is not a regular file (a FIFO, device or socket)"},
    {"bad_include_error_main.inp", "include/bad_coordinates.inp", 4,
     "expected a coordinate, got 'one'"},
    {"bad_include_cycle_a.inp", "bad_include_cycle_b.inp", 3,
     "include cycle: '@DIR@/bad_include_cycle_a.inp' is already being read"},
    {"bad_data_before_keyword.inp", nullptr, 2,
     "expected a keyword line (starting with '*'), got '1, 0.0, 0.0, 0.0'"},
    {"bad_truncated_element.inp", nullptr, 24, "expected 20 nodes for element 1 (C3D20), got 15"},
    {"bad_short_element.inp", nullptr, 12, "expected 8 nodes for element 1 (C3D8), got 7"},
    {"bad_long_element.inp", nullptr, 7, "expected 4 nodes for element 1 (C3D4), got 5"},
    {"bad_tie_one_name.inp", nullptr, 3,
     "expected 2 surface names (slave, master), got 'SLAVE_ONLY'"},
    {"bad_surface_twice.inp", nullptr, 7,
     "surface 'top' defined twice (first at @DIR@/bad_surface_twice.inp:4)"},
    {"bad_unclosed_quote.inp", nullptr, 3, "expected a closing '\"' in the keyword line"},
    {"bad_system.inp", nullptr, 2, "*SYSTEM is not supported (it moves the nodes that follow)"},
    {"bad_node_cylindrical.inp", nullptr, 1,
     "expected SYSTEM=R on *NODE (cylindrical and spherical coordinates are not supported), "
     "got 'C'"},
    {"bad_instance_unknown_part.inp", nullptr, 6,
     "instance 'PLATE-1' of part 'PLATE', which is not defined (parts come before the "
     "assembly)"},
    {"bad_instance_placement_lines.inp", nullptr, 9,
     "expected at most 2 data lines under *INSTANCE (a translation, then a rotation: point a, "
     "point b, angle in degrees)"},
    {"bad_instance_axis.inp", nullptr, 8,
     "the rotation axis of *INSTANCE 'BLOCK-1' has two equal points a and b: expected ax, ay, "
     "az, bx, by, bz, angle"},
    {"bad_part_not_closed.inp", nullptr, 5, "*ASSEMBLY inside a *PART"},
    {"bad_part_twice.inp", nullptr, 5,
     "part 'BLOCK' defined twice (first at @DIR@/bad_part_twice.inp:1)"},
    {"bad_instance_set_unknown_instance.inp", nullptr, 8,
     "expected INSTANCE=<a placed *INSTANCE>, got 'BLOCK-2'"},
    {"bad_instance_in_part.inp", nullptr, 4, "an *INSTANCE inside a *PART"},
    {"bad_end_instance_alone.inp", nullptr, 3, "*END INSTANCE without an open *INSTANCE"},
    {"bad_data_after_part.inp", nullptr, 2,
     "expected a keyword line, got a data line '1, 0.0, 0.0, 0.0' (the keyword at line 1 takes "
     "none)"},
    {"bad_instance_unknown_id.inp", nullptr, 11, "expected a defined node id, got '3'"},
};

INSTANTIATE_TEST_SUITE_P(Fixtures, AbaqusBadInput, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             std::string name = info.param.file;
                             name = name.substr(0, name.find('.'));
                             std::replace(name.begin(), name.end(), '/', '_');
                             return name;
                         });

// ---------------------------------------------------------------------------------------------
// Never a crash, never another exception: every good fixture cut after each line and at random
// bytes, and with random bytes replaced, reads to a model or a ParseError.

const char* const kGoodFixtures[] = {
    "two_blocks_c3d8r.inp",
    "mixed_tets.inp",
    "c3d20_continuation.inp",
    "wedges.inp",
    "plane_2d.inp",
    "shells.inp",
    "formatting_crlf.inp",
    "keyword_continuation.inp",
    "sets_generate.inp",
    "noncontiguous_ids.inp",
    "node_surface.inp",
    "tie.inp",
    "unknown_keywords.inp",
    "unknown_element_type.inp",
    "part_instance.inp",
    "interfaces.inp",
    "general_contact.inp",
    "assembly/cae_blocks.inp",
    "assembly/flat_blocks.inp",
};

// Reads `bytes` as a file; a failure message unless the result is a model or a ParseError. A new
// file each time: rewriting one file in place makes ext4 flush it to disk on every close.
std::string readsCleanly(const fs::path& dir, const std::string& bytes) {
    static int serial = 0;
    const fs::path path = dir / ("case" + std::to_string(++serial) + ".inp");
    writeBytes(path, bytes);
    std::string failure;
    try {
        (void)readAbaqus(path.string());
    } catch (const ParseError& e) {
        if (e.line() < 0) {
            failure = std::string("negative line in: ") + e.what();
        }
    } catch (const std::exception& e) {
        failure = std::string("not a ParseError: ") + e.what();
    }
    fs::remove(path);
    return failure;
}

TEST(AbaqusRobustness, TruncatedAndMutatedFixtures) {
    const fs::path dir = scratchDir();
    const std::uint32_t seed = 20240611;
    // CONTACT_ABAQUS_TRIALS=<n> runs n mutations per fixture instead of 60.
    const char* env = std::getenv("CONTACT_ABAQUS_TRIALS");
    const int trials = env != nullptr ? std::max(1, std::atoi(env)) : 60;
    std::mt19937 rng(seed);
    const std::string alphabet = "*,=\n\r\" 0123456789.-+eDSsabcXYZ";
    for (const char* name : kGoodFixtures) {
        const std::string text = readBytes(fixture(name));
        ASSERT_FALSE(text.empty()) << name;
        for (std::size_t at = 0; at < text.size(); ++at) {  // cut after every line
            if (text[at] == '\n') {
                SCOPED_TRACE(std::string(name) + " cut at byte " + std::to_string(at));
                EXPECT_EQ(readsCleanly(dir, text.substr(0, at)), "");
            }
        }
        std::uniform_int_distribution<std::size_t> pos(0, text.size() - 1);
        std::uniform_int_distribution<std::size_t> chr(0, alphabet.size() - 1);
        for (int trial = 0; trial < trials; ++trial) {
            std::string bytes = text;
            const int edits = 1 + trial % 4;
            for (int k = 0; k < edits; ++k) {
                bytes[pos(rng)] = alphabet[chr(rng)];
            }
            if (trial % 3 == 0) {
                bytes.resize(pos(rng));
            }
            SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed) + " trial " +
                         std::to_string(trial));
            EXPECT_EQ(readsCleanly(dir, bytes), "");
        }
    }
}

}  // namespace
}  // namespace mesh_io
