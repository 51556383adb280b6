// SPDX-License-Identifier: MIT
// Gmsh reader: one model in 4.1/2.2 x ASCII/binary reads to the same Model; one fixture per
// feature; every malformed fixture fails with its line and message; truncated and mutated files
// only ever raise ParseError.
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/gmsh.hpp"
#include "mesh_io/model.hpp"

#include "element_types.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

std::string fixture(const std::string& name) {
    return std::string(CONTACT_TEST_DATA_DIR) + "/gmsh/" + name;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file in the test temporary directory, removed when it goes out of scope.
struct TempFile {
    std::string path;
    explicit TempFile(std::string p) : path(std::move(p)) {}
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() { std::remove(path.c_str()); }
};

TempFile writeTemp(const std::string& name, const std::string& bytes) {
    // Per process: ctest runs tests of this executable in parallel processes.
    std::string path =
        ::testing::TempDir() + "contact_gmsh_" + std::to_string(::getpid()) + "_" + name;
    std::remove(path.c_str());  // a fresh file: truncating in place is slow on some file systems
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    return TempFile(std::move(path));
}

// File ids of the nodes of one element.
std::vector<long> elementNodeIds(const Model& m, const ElementRef& ref) {
    const ElementBlock& b = m.blocks.at(static_cast<std::size_t>(ref.block));
    const Index* p = b.element(ref.element);
    std::vector<long> ids;
    for (int k = 0; k < b.nodesPerElement; ++k) {
        ids.push_back(m.nodeIds.at(static_cast<std::size_t>(p[k])));
    }
    return ids;
}

long elementId(const Model& m, const ElementRef& ref) {
    return m.blocks.at(static_cast<std::size_t>(ref.block))
        .ids.at(static_cast<std::size_t>(ref.element));
}

std::vector<long> elementIds(const Model& m, const std::vector<ElementRef>& refs) {
    std::vector<long> ids;
    for (const ElementRef& r : refs) {
        ids.push_back(elementId(m, r));
    }
    return ids;
}

std::vector<long> faceElementIds(const Model& m, const SurfaceDef& s) {
    std::vector<long> ids;
    for (const FaceRef& f : s.faces) {
        ids.push_back(elementId(m, f.element));
    }
    return ids;
}

std::vector<long> nodeIdsOf(const Model& m, const std::vector<Index>& nodes) {
    std::vector<long> ids;
    for (const Index n : nodes) {
        ids.push_back(m.nodeIds.at(static_cast<std::size_t>(n)));
    }
    return ids;
}

std::vector<std::string> setNames(const std::map<std::string, std::vector<ElementRef>>& sets) {
    std::vector<std::string> names;
    for (const auto& [name, refs] : sets) {
        names.push_back(name);
    }
    return names;
}

std::vector<std::string> surfaceNames(const Model& m) {
    std::vector<std::string> names;
    for (const SurfaceDef& s : m.surfaces) {
        names.push_back(s.name);
    }
    return names;
}

// Two models hold the same mesh: everything but the path and the source lines, exactly (the
// binary fixtures store the doubles the ASCII text parses to).
::testing::AssertionResult sameModel(const Model& a, const Model& b) {
    if (a.format != b.format) {
        return ::testing::AssertionFailure() << "format " << a.format << " vs " << b.format;
    }
    if (a.coords.cols() != b.coords.cols() || a.coords != b.coords) {
        return ::testing::AssertionFailure() << "coordinates differ";
    }
    if (a.nodeIds != b.nodeIds || a.nodeIndex != b.nodeIndex) {
        return ::testing::AssertionFailure() << "node ids differ";
    }
    if (a.blocks.size() != b.blocks.size()) {
        return ::testing::AssertionFailure()
               << a.blocks.size() << " vs " << b.blocks.size() << " blocks";
    }
    for (std::size_t i = 0; i < a.blocks.size(); ++i) {
        const ElementBlock& x = a.blocks[i];
        const ElementBlock& y = b.blocks[i];
        if (x.type != y.type || x.nodesPerElement != y.nodesPerElement || x.ids != y.ids ||
            x.nodes != y.nodes) {
            return ::testing::AssertionFailure() << "block " << i << " (" << x.type << ") differs";
        }
    }
    if (a.elementSets != b.elementSets) {
        return ::testing::AssertionFailure() << "element sets differ";
    }
    if (a.nodeSets != b.nodeSets) {
        return ::testing::AssertionFailure() << "node sets differ";
    }
    if (a.surfaces.size() != b.surfaces.size()) {
        return ::testing::AssertionFailure() << "surface counts differ";
    }
    for (std::size_t i = 0; i < a.surfaces.size(); ++i) {
        const SurfaceDef& x = a.surfaces[i];
        const SurfaceDef& y = b.surfaces[i];
        if (x.name != y.name || x.nodeSurface != y.nodeSurface || x.nodes != y.nodes ||
            x.faces.size() != y.faces.size()) {
            return ::testing::AssertionFailure() << "surface " << x.name << " differs";
        }
        for (std::size_t f = 0; f < x.faces.size(); ++f) {
            if (!(x.faces[f].element == y.faces[f].element) || x.faces[f].face != y.faces[f].face) {
                return ::testing::AssertionFailure() << "surface " << x.name << " face " << f;
            }
        }
    }
    if (!a.interfaces.empty() || !b.interfaces.empty()) {
        return ::testing::AssertionFailure() << "Gmsh models have no interfaces";
    }
    return ::testing::AssertionSuccess();
}

// Errors inside binary data name the byte offset; the line they name must then be 1 + the newline
// bytes before that offset.
::testing::AssertionResult lineMatchesOffset(const ParseError& e, const std::string& bytes) {
    const std::string what = e.what();
    const auto at = what.rfind("byte offset ");
    if (at == std::string::npos) {
        return ::testing::AssertionSuccess();
    }
    const unsigned long long offset = std::stoull(what.substr(at + 12));
    if (offset > bytes.size()) {
        return ::testing::AssertionFailure() << "offset past the end: " << what;
    }
    const long expected =
        1 + static_cast<long>(std::count(
                bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    if (e.line() != expected) {
        return ::testing::AssertionFailure()
               << "line " << e.line() << ", expected " << expected << ": " << what;
    }
    return ::testing::AssertionSuccess();
}

// ---- the shared model: two 2x2 quad patches 0.25 apart, two triangles, a quad8 + tri6 surface,
// a hex and a tet below patch A, a point element; sparse node ids 1-14, 21-29, 31-34, 41-51.

Eigen::Vector3d modelCoord(long id) {
    if (id >= 1 && id <= 9) {
        return {static_cast<double>((id - 1) % 3), static_cast<double>((id - 1) / 3), 0.0};
    }
    if (id >= 21 && id <= 29) {
        return {static_cast<double>((id - 21) % 3), static_cast<double>((id - 21) / 3), 0.25};
    }
    static const std::map<long, Eigen::Vector3d> kOther = {
        {10, {0, 0, -1}},  {11, {2, 0, -1}},      {12, {2, 2, -1}},     {13, {0, 2, -1}},
        {14, {1, 1, -2}},  {31, {0, 0, 3}},       {32, {1, 0, 3}},      {33, {1, 1, 3}},
        {34, {0, 1, 3}},   {41, {3, 0, 0}},       {42, {4, 0, 0}},      {43, {4, 1, 0}},
        {44, {3, 1, 0}},   {45, {3.5, 0, 0.125}}, {46, {4, 0.5, 0}},    {47, {3.5, 1, -0.125}},
        {48, {3, 0.5, 0}}, {49, {5, 0.5, 0}},     {50, {4.5, 0.25, 0}}, {51, {4.5, 0.75, 0}}};
    return kOther.at(id);
}

void expectSharedModel(const Model& m) {
    EXPECT_EQ(m.format, "gmsh");
    std::vector<long> ids;
    for (const auto& [first, last] : {std::pair{1L, 14L}, {21L, 29L}, {31L, 34L}, {41L, 51L}}) {
        for (long i = first; i <= last; ++i) {
            ids.push_back(i);
        }
    }
    ASSERT_EQ(m.nodeIds, ids);
    ASSERT_EQ(m.numNodes(), 38);
    for (Index n = 0; n < m.numNodes(); ++n) {
        const long id = m.nodeIds[static_cast<std::size_t>(n)];
        EXPECT_EQ(m.findNode(id), n);
        EXPECT_EQ(Eigen::Vector3d(m.coords.col(n)), modelCoord(id)) << "node " << id;
    }
    EXPECT_EQ(m.findNode(15), contact::kNoIndex);

    const std::vector<std::string> types = {"GMSH:15", "GMSH:3", "GMSH:2", "GMSH:16",
                                            "GMSH:9",  "GMSH:5", "GMSH:4"};
    const std::vector<int> perElement = {1, 4, 3, 8, 6, 8, 4};
    const std::vector<std::vector<long>> blockIds = {
        {100}, {1, 2, 3, 4, 5, 6, 7, 8}, {9, 10}, {11}, {12}, {13}, {14}};
    ASSERT_EQ(m.blocks.size(), types.size());
    for (std::size_t b = 0; b < types.size(); ++b) {
        EXPECT_EQ(m.blocks[b].type, types[b]);
        EXPECT_EQ(m.blocks[b].nodesPerElement, perElement[b]);
        EXPECT_EQ(m.blocks[b].ids, blockIds[b]);
        EXPECT_EQ(m.blocks[b].nodes.size(),
                  blockIds[b].size() * static_cast<std::size_t>(perElement[b]));
        EXPECT_EQ(m.blocks[b].source.path, m.path);
        EXPECT_GT(m.blocks[b].source.line, 0);
    }
    const std::map<long, std::vector<long>> connectivity = {{100, {1}},
                                                            {1, {1, 2, 5, 4}},
                                                            {2, {2, 3, 6, 5}},
                                                            {3, {4, 5, 8, 7}},
                                                            {4, {5, 6, 9, 8}},
                                                            {5, {21, 24, 25, 22}},
                                                            {6, {22, 25, 26, 23}},
                                                            {7, {24, 27, 28, 25}},
                                                            {8, {25, 28, 29, 26}},
                                                            {9, {31, 32, 33}},
                                                            {10, {31, 33, 34}},
                                                            {11, {41, 42, 43, 44, 45, 46, 47, 48}},
                                                            {12, {42, 49, 43, 50, 51, 46}},
                                                            {13, {10, 11, 12, 13, 1, 3, 9, 7}},
                                                            {14, {10, 11, 13, 14}}};
    EXPECT_EQ(m.numElements(), 15);
    for (Index b = 0; b < static_cast<Index>(m.blocks.size()); ++b) {
        for (Index e = 0; e < m.blocks[static_cast<std::size_t>(b)].size(); ++e) {
            const ElementRef ref{b, e};
            EXPECT_EQ(elementNodeIds(m, ref), connectivity.at(elementId(m, ref)))
                << "element " << elementId(m, ref);
        }
    }

    EXPECT_EQ(setNames(m.elementSets),
              (std::vector<std::string>{"corner", "curved surface", "patch_a", "patch_b", "solid",
                                        "tris"}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("corner")), (std::vector<long>{100}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("patch_a")), (std::vector<long>{1, 2, 3, 4}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("patch_b")), (std::vector<long>{5, 6, 7, 8}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("tris")), (std::vector<long>{9, 10}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("curved surface")), (std::vector<long>{11, 12}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("solid")), (std::vector<long>{13, 14}));

    ASSERT_EQ(m.nodeSets.size(), 6U);
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("corner")), (std::vector<long>{1}));
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("patch_a")),
              (std::vector<long>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("solid")),
              (std::vector<long>{1, 3, 7, 9, 10, 11, 12, 13, 14}));
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("curved surface")),
              (std::vector<long>{41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51}));

    // Surfaces: the dimension 1 and 2 groups, in (dimension, tag) order; never points or volumes.
    EXPECT_EQ(surfaceNames(m),
              (std::vector<std::string>{"patch_a", "patch_b", "tris", "curved surface"}));
    const std::vector<std::vector<long>> faces = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10}, {11, 12}};
    for (std::size_t s = 0; s < m.surfaces.size() && s < faces.size(); ++s) {
        const SurfaceDef& def = m.surfaces[s];
        EXPECT_FALSE(def.nodeSurface);
        EXPECT_TRUE(def.nodes.empty());
        EXPECT_EQ(faceElementIds(m, def), faces[s]) << def.name;
        for (const FaceRef& f : def.faces) {
            EXPECT_EQ(f.face, 1);
        }
        EXPECT_EQ(def.source.path, m.path);
        EXPECT_GT(def.source.line, 0);
    }
    ASSERT_NE(m.findSurface("Curved Surface"), nullptr);
    EXPECT_EQ(m.findSurface("Curved Surface")->name, "curved surface");
    EXPECT_EQ(m.findSurface("solid"), nullptr);
    EXPECT_TRUE(m.interfaces.empty());
    EXPECT_TRUE(m.notes.empty());
}

class SharedModel : public ::testing::TestWithParam<std::string> {};

TEST_P(SharedModel, ReadsTheSameModelInEveryVariant) {
    const std::string path = fixture(GetParam() + ".msh");
    const Model m = readGmsh(path);
    EXPECT_EQ(m.path, path);
    expectSharedModel(m);
    EXPECT_TRUE(sameModel(m, readGmsh(fixture("model_41_ascii.msh"))));
}

// The surfaces' source lines hold their $PhysicalNames entry, also after binary data.
TEST_P(SharedModel, SourceLinesPointAtThePhysicalNames) {
    const std::string path = fixture(GetParam() + ".msh");
    const Model m = readGmsh(path);
    std::vector<std::string> lines;
    std::istringstream in(readBytes(path));
    for (std::string l; std::getline(in, l);) {
        lines.push_back(l);
    }
    for (const SurfaceDef& s : m.surfaces) {
        ASSERT_GE(s.source.line, 1);
        ASSERT_LE(static_cast<std::size_t>(s.source.line), lines.size());
        EXPECT_NE(lines[static_cast<std::size_t>(s.source.line - 1)].find("\"" + s.name + "\""),
                  std::string::npos)
            << s.name << " at line " << s.source.line;
    }
}

INSTANTIATE_TEST_SUITE_P(Gmsh, SharedModel,
                         ::testing::Values("model_41_ascii", "model_41_binary", "model_22_ascii",
                                           "model_22_binary"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return info.param;
                         });

TEST(Gmsh, ReadModelDispatchesOnTheExtension) {
    EXPECT_TRUE(sameModel(readModel(fixture("model_22_binary.msh")),
                          readGmsh(fixture("model_41_ascii.msh"))));
}

TEST(Gmsh, CrlfLineEndingsChangeNothing) {
    std::string text = readBytes(fixture("model_22_ascii.msh"));
    std::string crlf;
    for (const char c : text) {
        if (c == '\n') {
            crlf += '\r';
        }
        crlf += c;
    }
    ASSERT_NE(crlf.size(), text.size());
    EXPECT_TRUE(sameModel(readGmsh(writeTemp("crlf.msh", crlf).path),
                          readGmsh(fixture("model_22_ascii.msh"))));
}

// A UTF-8 byte order mark before $MeshFormat (ASCII and binary files) is skipped.
TEST(Gmsh, ByteOrderMarkChangesNothing) {
    for (const char* name : {"model_22_ascii.msh", "model_41_binary.msh"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(sameModel(
            readGmsh(writeTemp("bom.msh", "\xEF\xBB\xBF" + readBytes(fixture(name))).path),
            readGmsh(fixture(name))));
    }
}

TEST(Gmsh, TwoDimensionalModelWithBoundaryLines) {
    const Model m = readGmsh(fixture("model_2d_41.msh"));
    ASSERT_EQ(m.numNodes(), 6);
    EXPECT_TRUE((m.coords.row(2).array() == 0.0).all());
    EXPECT_EQ(Eigen::Vector3d(m.coords.col(m.findNode(6))), Eigen::Vector3d(2, 1, 0));
    ASSERT_EQ(m.blocks.size(), 2U);
    EXPECT_EQ(m.blocks[0].type, "GMSH:1");
    EXPECT_EQ(m.blocks[0].ids, (std::vector<long>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(m.blocks[1].type, "GMSH:3");
    EXPECT_EQ(m.blocks[1].ids, (std::vector<long>{7, 8}));
    // The block opens at its first entity block header.
    EXPECT_EQ(m.blocks[0].source.line, 42);
    EXPECT_EQ(m.blocks[1].source.line, 52);

    // The surface group "body" holds the body's elements, as a volume group does in 3D: an
    // element set, no surface.
    EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"bottom", "top", "sides"}));
    EXPECT_EQ(faceElementIds(m, *m.findSurface("bottom")), (std::vector<long>{1, 2}));
    EXPECT_EQ(faceElementIds(m, *m.findSurface("top")), (std::vector<long>{4, 5}));
    EXPECT_EQ(faceElementIds(m, *m.findSurface("sides")), (std::vector<long>{3, 6}));
    EXPECT_EQ(m.findSurface("body"), nullptr);
    EXPECT_EQ(elementIds(m, m.elementSets.at("body")), (std::vector<long>{7, 8}));
    EXPECT_EQ(m.findSurface("top")->source.line, 7);
    // The top edge runs from (2, 1) to (0, 1) in the file's node order.
    EXPECT_EQ(elementNodeIds(m, m.findSurface("top")->faces[0].element), (std::vector<long>{6, 5}));
    const detail::ElementType* line = detail::findGmshType(1);
    ASSERT_NE(line, nullptr);
    detail::FaceNodes f;
    ASSERT_TRUE(detail::faceNodes(*line, 1, f));
    EXPECT_EQ(f.type, contact::SegmentType::Line2);
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("sides")), (std::vector<long>{1, 3, 4, 6}));
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("body")), (std::vector<long>{1, 2, 3, 4, 5, 6}));
}

TEST(Gmsh, SecondOrderElementsKeepTheirNodeOrder) {
    const Model m = readGmsh(fixture("second_order_41.msh"));
    ASSERT_EQ(m.blocks.size(), 4U);
    const std::vector<std::string> types = {"GMSH:8", "GMSH:10", "GMSH:16", "GMSH:9"};
    const std::vector<int> nodes = {3, 9, 8, 6};
    const std::vector<contact::SegmentType> segments = {
        contact::SegmentType::Line3, contact::SegmentType::Quad9, contact::SegmentType::Quad8,
        contact::SegmentType::Tri6};
    const std::vector<std::vector<long>> connectivity = {{1, 2, 5},
                                                         {1, 2, 3, 4, 5, 6, 7, 8, 9},
                                                         {2, 10, 11, 3, 12, 13, 14, 6},
                                                         {4, 3, 15, 7, 16, 17}};
    for (std::size_t b = 0; b < types.size(); ++b) {
        SCOPED_TRACE(types[b]);
        EXPECT_EQ(m.blocks[b].type, types[b]);
        EXPECT_EQ(m.blocks[b].nodesPerElement, nodes[b]);
        EXPECT_EQ(elementNodeIds(m, ElementRef{static_cast<Index>(b), 0}), connectivity[b]);
        const detail::ElementType* t = detail::findGmshType(std::stoi(types[b].substr(5)));
        ASSERT_NE(t, nullptr);
        detail::FaceNodes f;
        ASSERT_TRUE(detail::faceNodes(*t, 1, f));
        EXPECT_EQ(f.type, segments[b]);
    }
    // Midside nodes sit at their edge midpoints (the coordinates belong to the right nodes).
    const auto x = [&](long id) { return Eigen::Vector3d(m.coords.col(m.findNode(id))); };
    EXPECT_EQ(x(5), 0.5 * (x(1) + x(2)));
    EXPECT_EQ(x(13), 0.5 * (x(10) + x(11)));
    EXPECT_EQ(x(16), 0.5 * (x(3) + x(15)));
    // A planar model with a curve group: "faces" holds the body (its faces as segments: above).
    EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"edge"}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("faces")), (std::vector<long>{2, 3, 4}));
    EXPECT_EQ(faceElementIds(m, *m.findSurface("edge")), (std::vector<long>{1}));
}

// In a planar model (every node at one z) whose highest dimension is 2 and which has curve groups,
// the surface groups are the bodies, as volume groups are in 3D: element sets, not surfaces. A
// shell (z varies) keeps its surface groups as surfaces, and a flat mesh without a curve group
// too (unknown_section_41: one triangle in a surface group).
TEST(Gmsh, SurfaceGroupsOfA2dModelAreItsBodies) {
    const Model flat = readGmsh(fixture("by_gmsh/flat2d41.msh"));
    EXPECT_EQ(surfaceNames(flat), (std::vector<std::string>{"Top"}));
    EXPECT_EQ(flat.findSurface("Plate"), nullptr);
    EXPECT_EQ(flat.elementSets.at("Plate").size(), 22U);
    EXPECT_EQ(buildContactSurface(flat, "Top").dim, 2);

    const Model shell = readGmsh(fixture("by_gmsh/shell41.msh"));
    EXPECT_EQ(surfaceNames(shell), (std::vector<std::string>{"Edge", "Top", "Side"}));
    EXPECT_EQ(buildContactSurface(shell, "Top").surface.size(), 4);
    EXPECT_EQ(buildContactSurface(shell, "Side").dim, 3);
    // Its curve group is lines, searched only in the plane z = 0: refused, not flattened.
    try {
        (void)buildContactSurface(shell, "Edge");
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find(" is a line: lines are line segments, which the "
                                             "search takes only in a planar model (every node "
                                             "at z = 0; node "),
                  std::string::npos)
            << e.what();
    }

    EXPECT_EQ(surfaceNames(readGmsh(fixture("unknown_section_41.msh"))),
              (std::vector<std::string>{"physical_2_1"}));
}

TEST(Gmsh, SparseAndLargeNodeTags) {
    const Model m = readGmsh(fixture("sparse_tags_41.msh"));
    EXPECT_EQ(m.nodeIds, (std::vector<long>{9000000000L, 3, 500, 77, 1000}));
    EXPECT_EQ(m.findNode(500), 2);
    EXPECT_EQ(m.findNode(9000000000L), 0);
    EXPECT_EQ(m.findNode(1), contact::kNoIndex);
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].ids, (std::vector<long>{4000000000L, 10, 20}));
    EXPECT_EQ(m.blocks[0].nodes, (std::vector<Index>{0, 1, 2, 0, 2, 3, 1, 4, 2}));
    EXPECT_EQ(Eigen::Vector3d(m.coords.col(m.findNode(1000))), Eigen::Vector3d(2, 1, 0));
    EXPECT_EQ(Eigen::Vector3d(m.coords.col(m.findNode(77))), Eigen::Vector3d(0, 1, 0));
}

TEST(Gmsh, ParametricCoordinatesAreSkipped) {
    const Model m = readGmsh(fixture("parametric_41.msh"));
    Eigen::Matrix3Xd expected(3, 4);
    expected << 0, 1, 1, 0,  //
        0, 0, 1, 1,          //
        0, 0, 0, 0;
    EXPECT_EQ(m.coords, expected);
    EXPECT_EQ(m.numElements(), 1);
    // No physical group: the quad's entity is a surface (a flat mesh without curves: faces).
    EXPECT_EQ(setNames(m.elementSets), (std::vector<std::string>{"entity_2_1"}));
    EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"entity_2_1"}));
}

// Without physical groups Gmsh saves every element with its elementary entity (by_gmsh/nophys.geo:
// two boxes, no group). Each entity of the boundary dimension is a surface entity_<dim>_<tag>: the
// entity of its element block in 4.1, the element's second tag in 2.2. Messages call them
// elementary entities, and a note says so.
TEST(Gmsh, WithoutPhysicalGroupsTheEntitiesAreTheSurfaces) {
    const Model reference = readGmsh(fixture("by_gmsh/nophys41.msh"));
    std::vector<std::string> names;
    for (int tag = 1; tag <= 12; ++tag) {
        names.push_back("entity_2_" + std::to_string(tag));
    }
    for (const char* file : {"by_gmsh/nophys41.msh", "by_gmsh/nophys22.msh"}) {
        SCOPED_TRACE(file);
        const std::string path = fixture(file);
        const Model m = readGmsh(path);
        EXPECT_EQ(surfaceNames(m), names);
        EXPECT_TRUE(m.entitySurfaces);
        EXPECT_STREQ(fileTerms(m).surfaces, "elementary entities");
        for (const std::string& name : names) {
            const ContactSurface s = buildContactSurface(m, name);
            EXPECT_EQ(s.dim, 3) << name;
            EXPECT_EQ(s.surface.size(), 4) << name;
            EXPECT_EQ(faceElementIds(m, *m.findSurface(name)),
                      faceElementIds(reference, *reference.findSurface(name)))
                << name;
            EXPECT_EQ(elementIds(m, m.elementSets.at(name)),
                      faceElementIds(m, *m.findSurface(name)))
                << name;
        }
        ASSERT_EQ(m.notes.size(), 1U);
        EXPECT_NE(m.notes[0].find(": no physical groups: the elements of each elementary entity of "
                                  "dimension 2 make a surface named entity_2_<tag> (12 surfaces)"),
                  std::string::npos)
            << m.notes[0];
    }
    EXPECT_FALSE(readGmsh(fixture("model_41_ascii.msh")).entitySurfaces);
}

// The segments of a surface by node ids, each rotated to start at its lowest id, sorted.
std::vector<std::vector<long>> segmentNodeIds(const Model& m, const std::string& name) {
    const ContactSurface c = buildContactSurface(m, name);
    std::vector<std::vector<long>> out;
    for (Index s = 0; s < c.surface.size(); ++s) {
        std::vector<long> ids;
        for (Index k = c.surface.offsets[s]; k < c.surface.offsets[s + 1]; ++k) {
            ids.push_back(m.nodeIds[static_cast<std::size_t>(c.surface.connectivity[k])]);
        }
        std::rotate(ids.begin(), std::min_element(ids.begin(), ids.end()), ids.end());
        out.push_back(ids);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Files Gmsh 4.8 wrote (by_gmsh/*.geo; `gmsh -3 -clmax 0.6 -clmin 0.3`, with -part 2 for the
// partitioned ones), each against the MSH 2.2 file Gmsh wrote of the same model: the same elements
// in each surface, the same faces with the same outward node order.
// - neg41: `Physical Surface("BlockTop") = {-6, 2}`. Gmsh writes surface 6's physical tag as -1,
//   the sign being its orientation in the group: the group is still 1.
// - part41: partitioned, the element blocks on the entities of $PartitionedEntities.
// - param22: MSH 2.2 with Mesh.SaveParametric: $ParametricNodes in place of $Nodes.
TEST(Gmsh, FilesGmshWroteReadAsTheirMsh22Twins) {
    const std::pair<const char*, const char*> twins[] = {{"neg41.msh", "neg22.msh"},
                                                         {"neg41b.msh", "neg22.msh"},
                                                         {"part41.msh", "pos22.msh"},
                                                         {"part41b.msh", "pos22.msh"},
                                                         {"param22.msh", "pos22.msh"}};
    for (const auto& [file, twin] : twins) {
        SCOPED_TRACE(file);
        const Model m = readGmsh(fixture(std::string("by_gmsh/") + file));
        const Model reference = readGmsh(fixture(std::string("by_gmsh/") + twin));
        for (const char* name : {"BlockTop", "PunchBottom"}) {
            ASSERT_NE(m.findSurface(name), nullptr) << name;
            std::vector<long> ids = faceElementIds(m, *m.findSurface(name));
            std::vector<long> expected = faceElementIds(reference, *reference.findSurface(name));
            std::sort(ids.begin(), ids.end());
            std::sort(expected.begin(), expected.end());
            EXPECT_EQ(ids, expected) << name;
            EXPECT_FALSE(expected.empty()) << name;
            EXPECT_EQ(segmentNodeIds(m, name), segmentNodeIds(reference, name)) << name;
        }
    }
    // Binary $ParametricNodes (its layout is in no manual): refused, saying how to save instead.
    try {
        (void)readGmsh(fixture("by_gmsh/param22b.msh"));
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 12);
        EXPECT_NE(std::string(e.what()).find("binary $ParametricNodes is not read"),
                  std::string::npos)
            << e.what();
    }
    // 66 faces: surface 6 (44) and surface 2 (22), as Gmsh's own MSH 2.2 file has them.
    EXPECT_EQ(readGmsh(fixture("by_gmsh/neg41.msh")).findSurface("BlockTop")->faces.size(), 66U);
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

// The elements of a set by node ids, sorted.
std::vector<std::vector<long>> setNodeIds(const Model& m, const std::vector<ElementRef>& refs) {
    std::vector<std::vector<long>> out;
    for (const ElementRef& r : refs) {
        out.push_back(elementNodeIds(m, r));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Two files of one mesh whose element ids or order may differ: the same surfaces (names, and
// segments with their outward node order), element sets and node sets, all in node ids.
::testing::AssertionResult sameGroups(const Model& a, const Model& b) {
    if (surfaceNames(a) != surfaceNames(b)) {
        return ::testing::AssertionFailure()
               << "surfaces " << joined(surfaceNames(a)) << " vs " << joined(surfaceNames(b));
    }
    for (const std::string& name : surfaceNames(a)) {
        std::vector<ElementRef> ea;
        std::vector<ElementRef> eb;
        for (const FaceRef& f : a.findSurface(name)->faces) {
            ea.push_back(f.element);
        }
        for (const FaceRef& f : b.findSurface(name)->faces) {
            eb.push_back(f.element);
        }
        if (setNodeIds(a, ea) != setNodeIds(b, eb)) {
            return ::testing::AssertionFailure()
                   << "surface " << name << ": " << ea.size() << " vs " << eb.size() << " faces";
        }
        // Where the search takes the surface (not curves in 3D), the same outward segments.
        bool searchable = true;
        try {
            (void)buildContactSurface(a, name);
        } catch (const std::exception&) {
            searchable = false;
        }
        if (searchable && segmentNodeIds(a, name) != segmentNodeIds(b, name)) {
            return ::testing::AssertionFailure() << "surface " << name << ": other segments";
        }
    }
    if (setNames(a.elementSets) != setNames(b.elementSets)) {
        return ::testing::AssertionFailure() << "element sets " << joined(setNames(a.elementSets))
                                             << " vs " << joined(setNames(b.elementSets));
    }
    for (const auto& [name, refs] : a.elementSets) {
        const auto x = setNodeIds(a, refs);
        const auto y = setNodeIds(b, b.elementSets.at(name));
        if (x != y) {
            return ::testing::AssertionFailure()
                   << "element set " << name << ": " << x.size() << " vs " << y.size();
        }
    }
    for (const auto& [name, nodes] : a.nodeSets) {
        const auto other = b.nodeSets.find(name);
        std::vector<long> x = nodeIdsOf(a, nodes);
        std::vector<long> y =
            other == b.nodeSets.end() ? std::vector<long>{} : nodeIdsOf(b, other->second);
        std::sort(x.begin(), x.end());
        std::sort(y.begin(), y.end());
        if (other == b.nodeSets.end() || x != y) {
            return ::testing::AssertionFailure() << "node set " << name << " differs";
        }
    }
    if (a.nodeSets.size() != b.nodeSets.size()) {
        return ::testing::AssertionFailure() << "node set counts differ";
    }
    return ::testing::AssertionSuccess();
}

std::size_t countContaining(const std::vector<std::string>& notes, const std::string& text) {
    return static_cast<std::size_t>(
        std::count_if(notes.begin(), notes.end(),
                      [&](const std::string& n) { return n.find(text) != std::string::npos; }));
}

// Partitioned 4.1 files (gmsh -part 2, by_gmsh/collide.geo and split.geo) read as their
// unpartitioned twins. An entity of $PartitionedEntities counts as its parent. The faces and
// curves Gmsh adds between the partitions inside the volume (or inside a face) carry the
// parent's physical tags, here 1, which at their own dimension name the groups Top (2, 1) and
// Edge (1, 1): they join no group. Without physical groups the surfaces are named by the
// parents, entity_2_1 to entity_2_6 as in the unpartitioned file.
TEST(Gmsh, PartitionedFilesReadAsTheirUnpartitionedTwins) {
    const Model whole = readGmsh(fixture("by_gmsh/collide41.msh"));
    EXPECT_EQ(surfaceNames(whole), (std::vector<std::string>{"Edge", "Top", "Bottom"}));
    EXPECT_EQ(setNames(whole.elementSets),
              (std::vector<std::string>{"Body", "Bottom", "Edge", "Top"}));
    EXPECT_EQ(whole.findSurface("Top")->faces.size(), 8U);  // as Gmsh's own MSH 2.2 file has it
    EXPECT_EQ(whole.elementSets.at("Edge").size(), 1U);
    for (const char* file : {"by_gmsh/collide41p.msh", "by_gmsh/collide41pb.msh"}) {
        SCOPED_TRACE(file);
        const Model m = readGmsh(fixture(file));
        EXPECT_TRUE(sameGroups(m, whole));
        EXPECT_EQ(m.numElements(), whole.numElements() + 6);  // 4 faces and 2 curves inside
        EXPECT_EQ(countContaining(m.notes, "6 element(s) on interfaces between partitions"), 1U)
            << joined(m.notes);
    }
    const Model split = readGmsh(fixture("by_gmsh/split41.msh"));
    const Model parts = readGmsh(fixture("by_gmsh/split41p.msh"));
    EXPECT_EQ(surfaceNames(split),
              (std::vector<std::string>{"entity_2_1", "entity_2_2", "entity_2_3", "entity_2_4",
                                        "entity_2_5", "entity_2_6"}));
    EXPECT_TRUE(parts.entitySurfaces);
    EXPECT_TRUE(sameGroups(parts, split));
}

// An element of two physical groups, which MSH 2.2 writes once per group with one id
// (by_gmsh/twogroups.geo, Mesh.PreserveNumberingMsh2): one element in both groups, as the 4.1
// file has it (ASCII and binary).
TEST(Gmsh, ElementRepeatedPerPhysicalGroupIn22IsOneElement) {
    const Model twin = readGmsh(fixture("by_gmsh/twogroups41.msh"));
    const Model ascii = readGmsh(fixture("by_gmsh/twogroups22.msh"));
    for (const Model* m : {&ascii, &twin}) {
        EXPECT_EQ(m->numElements(), 48);  // 24 triangles on the box's faces, 24 tetrahedra
    }
    EXPECT_TRUE(sameGroups(ascii, twin));
    EXPECT_EQ(faceElementIds(ascii, *ascii.findSurface("Top")),
              (std::vector<long>{21, 22, 23, 24}));
    EXPECT_EQ(ascii.elementSets.at("Outer").size(), 24U);
    EXPECT_TRUE(ascii.notes.empty()) << joined(ascii.notes);
    EXPECT_TRUE(sameModel(readGmsh(fixture("by_gmsh/twogroups22b.msh")), ascii));
}

// A repeated id with other nodes or another type is a duplicate, refused at its line (binary:
// and byte offset).
TEST(Gmsh, RepeatedElementIdWithOtherNodesOrTypeIsRefusedIn22) {
    const std::string text = readBytes(fixture("by_gmsh/twogroups22.msh"));
    const std::string repeat = "\n21 2 2 2 6 1 14 3\n";
    const auto at = text.find(repeat);
    ASSERT_NE(at, std::string::npos);
    const long line =
        2 + static_cast<long>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
    for (const std::string changed : {"\n21 2 2 2 6 1 14 7\n", "\n21 1 2 2 6 1 14\n"}) {
        std::string bad = text;
        bad.replace(at, repeat.size(), changed);
        const TempFile f = writeTemp("repeat22.msh", bad);
        try {
            (void)readGmsh(f.path);
            ADD_FAILURE() << "no ParseError for" << changed;
        } catch (const ParseError& e) {
            EXPECT_EQ(e.line(), line) << e.what();
            EXPECT_NE(std::string(e.what()).find(
                          "duplicate element id 21 with another type or other nodes"),
                      std::string::npos)
                << e.what();
        }
    }
    // Binary: the second copy of element 21 (id, physical 2, entity 6, nodes 1 14 3) given node 7.
    std::string bytes = readBytes(fixture("by_gmsh/twogroups22b.msh"));
    const std::int32_t copy[] = {21, 2, 6, 1, 14, 3};
    const auto pos = bytes.find(std::string(reinterpret_cast<const char*>(copy), sizeof copy));
    ASSERT_NE(pos, std::string::npos);
    const std::int32_t seven = 7;
    bytes.replace(pos + 20, 4, std::string(reinterpret_cast<const char*>(&seven), 4));
    const TempFile f = writeTemp("repeat22b.msh", bytes);
    try {
        (void)readGmsh(f.path);
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("duplicate element id 21 with another type or other "
                                             "nodes"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("byte offset " + std::to_string(pos) + ")"),
                  std::string::npos)
            << e.what();
        EXPECT_TRUE(lineMatchesOffset(e, bytes));
    }
}

// MSH 2.2 binary skips a type it does not read by the node count Gmsh's manual gives it, as 4.1
// binary does: third order tri10 (21) and tet20 (29) of by_gmsh/order3.geo, skipped and noted as
// in the ASCII twin. A type the manual does not list is still refused.
TEST(Gmsh, ThirdOrderTypesIn22BinaryAreSkippedAndNoted) {
    const Model ascii = readGmsh(fixture("by_gmsh/order3_22.msh"));
    const Model binary = readGmsh(fixture("by_gmsh/order3_22b.msh"));
    const auto what = [](const Model& m) {
        std::vector<std::string> out;
        for (const std::string& n : m.notes) {
            out.push_back(n.substr(n.find(": ") + 2));  // after "<path>:<line>: "
        }
        return out;
    };
    EXPECT_EQ(what(binary), what(ascii));
    EXPECT_EQ(countContaining(binary.notes, "skipped 4 element(s) of unsupported Gmsh type 21"), 1U)
        << joined(binary.notes);
    EXPECT_EQ(countContaining(binary.notes, "of unsupported Gmsh type 29"), 1U)
        << joined(binary.notes);
    EXPECT_EQ(binary.numElements(), ascii.numElements());
    EXPECT_EQ(setNames(binary.elementSets), setNames(ascii.elementSets));
    EXPECT_EQ(binary.numNodes(), ascii.numNodes());

    std::string bytes = readBytes(fixture("by_gmsh/order3_22b.msh"));
    // Gmsh writes a header (type, count, tags) per element: the first, element 1 (physical 1,
    // entity 6).
    const std::int32_t header[] = {21, 1, 2, 1, 1, 6};
    const auto pos = bytes.find(std::string(reinterpret_cast<const char*>(header), sizeof header));
    ASSERT_NE(pos, std::string::npos);
    const std::int32_t unknown = 150;
    bytes.replace(pos, 4, std::string(reinterpret_cast<const char*>(&unknown), 4));
    const TempFile f = writeTemp("unknown22b.msh", bytes);
    try {
        (void)readGmsh(f.path);
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("unsupported element type 150 (its node count is "
                                             "unknown"),
                  std::string::npos)
            << e.what();
        EXPECT_TRUE(lineMatchesOffset(e, bytes));
    }
}

TEST(Gmsh, UnnamedGroups41) {
    const Model m = readGmsh(fixture("unnamed_groups_41.msh"));
    EXPECT_EQ(setNames(m.elementSets),
              (std::vector<std::string>{"physical_1_5", "physical_2_7", "physical_2_8"}));
    // Surface entity 1 belongs to two groups: its elements are in both.
    EXPECT_EQ(elementIds(m, m.elementSets.at("physical_2_7")), (std::vector<long>{2, 3}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("physical_2_8")), (std::vector<long>{2, 3}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("physical_1_5")), (std::vector<long>{1}));
    // A planar model with a curve group: the surface groups hold the body.
    EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"physical_1_5"}));
    EXPECT_EQ(m.numElements(), 4);  // element 4 (surface 2, no group) is read all the same
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("physical_2_8")), (std::vector<long>{1, 2, 3, 4}));
}

TEST(Gmsh, UnnamedGroups22) {
    const Model m = readGmsh(fixture("unnamed_groups_22.msh"));
    EXPECT_EQ(setNames(m.elementSets), (std::vector<std::string>{"physical_1_5", "physical_2_6"}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("physical_2_6")), (std::vector<long>{2}));
    EXPECT_EQ(faceElementIds(m, *m.findSurface("physical_1_5")), (std::vector<long>{1}));
    // Physical tag 0 and no tags at all: read, but in no group.
    EXPECT_EQ(m.numElements(), 4);
    EXPECT_EQ(m.blocks.at(1).ids, (std::vector<long>{2, 3, 4}));
}

// A planar model with curve groups (a 2D model): "contact" names two curve groups, merged, and a
// surface group, which holds the body and is left out (noted); "empty" has no elements.
TEST(Gmsh, SharedNamesMergeAtOneDimensionAndEmptyGroupsAreNoted) {
    const std::string path = fixture("shared_name_22.msh");
    const Model m = readGmsh(path);
    EXPECT_EQ(elementIds(m, m.elementSets.at("contact")), (std::vector<long>{2, 3}));
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("contact")), (std::vector<long>{1, 2, 3}));
    EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"contact"}));
    EXPECT_EQ(faceElementIds(m, m.surfaces[0]), (std::vector<long>{2, 3}));
    EXPECT_EQ(m.surfaces[0].source.line, 6);
    // A named group without elements still exists, empty.
    EXPECT_TRUE(m.elementSets.at("empty").empty());
    EXPECT_EQ(m.notes,
              (std::vector<std::string>{
                  path + ":7: physical groups share the name 'contact': their element sets, node "
                         "sets and surfaces are merged",
                  path + ":8: physical group 'contact' (dimension 2, tag 1) is left out: the name "
                         "stands for the group of dimension 1 (groups are told apart by dimension "
                         "and tag)",
                  path + ":9: physical group 'empty' (dimension 2, tag 3) has no elements"}));
}

// Physical Surface, Curve and Point all named "ATop" (by_gmsh/samename.geo) are three groups: the
// Gmsh manual tells groups apart by dimension and tag. In a 3D mesh the name is the surface group
// (the boundary dimension); the curve and point groups are noted, not merged into it.
TEST(Gmsh, OneNameAtSeveralDimensionsIsTheBoundaryGroup) {
    for (const char* file : {"by_gmsh/samename41.msh", "by_gmsh/samename22.msh"}) {
        SCOPED_TRACE(file);
        const std::string path = fixture(file);
        const Model m = readGmsh(path);
        EXPECT_EQ(surfaceNames(m), (std::vector<std::string>{"ATop", "BBot"}));
        const ContactSurface top = buildContactSurface(m, "ATop");
        EXPECT_EQ(top.dim, 3);
        EXPECT_EQ(top.surface.size(), 4);
        EXPECT_EQ(elementIds(m, m.elementSets.at("ATop")),
                  faceElementIds(m, *m.findSurface("ATop")));
        EXPECT_EQ(m.nodeSets.at("ATop").size(), 5U);
        const std::string rest = " is left out: the name stands for the group of dimension 2 "
                                 "(groups are told apart by dimension and tag)";
        EXPECT_EQ(m.notes, (std::vector<std::string>{
                               path + ":6: physical group 'ATop' (dimension 0, tag 3)" + rest,
                               path + ":7: physical group 'ATop' (dimension 1, tag 2)" + rest}));
    }
}

TEST(Gmsh, UnknownSectionsAreSkippedAndNoted) {
    const std::string path = fixture("unknown_section_41.msh");
    const Model m = readGmsh(path);
    EXPECT_EQ(m.notes, (std::vector<std::string>{path + ":4: skipped section $Comments",
                                                 path + ":26: skipped section $NodeData"}));
    EXPECT_EQ(m.numNodes(), 3);
    EXPECT_EQ(m.numElements(), 1);
    EXPECT_EQ(nodeIdsOf(m, m.nodeSets.at("physical_2_1")), (std::vector<long>{1, 2, 3}));
}

// After binary $Nodes and $Elements the line numbers still match the file's newlines.
TEST(Gmsh, UnknownSectionAfterBinaryDataIsNotedAtItsLine) {
    const std::string path = fixture("unknown_section_41_binary.msh");
    const std::string bytes = readBytes(path);
    const auto at = bytes.find("\n$NodeData\n");
    ASSERT_NE(at, std::string::npos);
    const long line =
        2 +
        static_cast<long>(std::count(bytes.begin(), bytes.begin() + static_cast<long>(at), '\n'));
    const Model m = readGmsh(path);
    EXPECT_EQ(m.notes, (std::vector<std::string>{path + ":5: skipped section $Comments",
                                                 path + ":" + std::to_string(line) +
                                                     ": skipped section $NodeData"}));
    EXPECT_TRUE(sameModel(m, readGmsh(fixture("unknown_section_41.msh"))));
}

TEST(Gmsh, UnknownElementTypesIn22AreSkippedAndNoted) {
    const std::string path = fixture("unknown_type_22.msh");
    const Model m = readGmsh(path);
    EXPECT_EQ(m.notes, (std::vector<std::string>{
                           path + ":14: skipped 2 element(s) of unsupported Gmsh type 26",
                           path + ":16: skipped 1 element(s) of unsupported Gmsh type 21"}));
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].ids, (std::vector<long>{1}));
    EXPECT_EQ(elementIds(m, m.elementSets.at("physical_1_1")), (std::vector<long>{1}));
}

// 4.1 blocks of a type not read are skipped and noted as in 2.2: ASCII by their lines (any
// type), binary by the node count Gmsh's manual gives the type (line4: 4). The blocks after them
// read as if they were not there.
TEST(Gmsh, UnknownElementTypesIn41AreSkippedAndNoted) {
    for (const char* name :
         {"skipped_type_41.msh", "skipped_type_41_binary.msh", "unknown_type_41.msh"}) {
        const std::string path = fixture(name);
        const Model m = readGmsh(path);
        const std::string type = std::string(name).rfind("unknown", 0) == 0 ? "150" : "26";
        const long line = std::string(name).find("binary") != std::string::npos ? 16 : 32;
        ASSERT_EQ(m.notes.size(), 1U) << name;
        EXPECT_EQ(m.notes[0], path + ":" + std::to_string(line) +
                                  ": skipped 2 element(s) of "
                                  "unsupported Gmsh type " +
                                  type)
            << name;
        ASSERT_EQ(m.blocks.size(), 1U) << name;
        EXPECT_EQ(m.blocks[0].ids, (std::vector<long>{11, 12})) << name;
        EXPECT_EQ(elementIds(m, m.elementSets.at("edge")), (std::vector<long>{11, 12})) << name;
    }
}

TEST(Gmsh, MissingFileIsAParseErrorAtLineZero) {
    const std::string path = fixture("no_such_file.msh");
    try {
        (void)readGmsh(path);
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), 0);
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(std::string(e.what()), path + ": cannot open the file");
    }
}

TEST(Gmsh, DirectoryIsNotARegularFile) {
    const std::string path = std::string(CONTACT_TEST_DATA_DIR) + "/gmsh";
    try {
        (void)readGmsh(path);
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), path + ": is a directory, not a file");
    }
}

// ---- bad twins: the line and the whole message.

struct BadCase {
    const char* file;
    long line;
    const char* message;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.file; }

class BadFixture : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadFixture, FailsWithLineAndMessage) {
    const BadCase& c = GetParam();
    const std::string path = fixture(c.file);
    try {
        (void)readGmsh(path);
        FAIL() << c.file << " was read without an error";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(e.line(), c.line);
        const std::string where = c.line > 0 ? path + ":" + std::to_string(c.line) : path;
        EXPECT_EQ(std::string(e.what()), where + ": " + c.message);
        EXPECT_TRUE(lineMatchesOffset(e, readBytes(path)));
    }
}

const BadCase kBadCases[] = {
    {"bad_version.msh", 2, "expected MSH version 4.1 or 2.2, got '3.0'"},
    {"bad_version_40.msh", 2,
     "MSH 4.0 is not supported (its layout differs from 4.1): expected MSH version 4.1 or 2.2, "
     "got '4.0'"},
    {"bad_file_type.msh", 2, "expected file type 0 (ASCII) or 1 (binary), got '2'"},
    {"bad_data_size.msh", 2, "expected data size 8, got '4'"},
    {"bad_not_binary_41.msh", 3,
     "expected the binary integer 1 after the header, got 1684948260 (is the file really "
     "binary?) (binary $MeshFormat block, byte offset 20)"},
    {"bad_empty.msh", 0, "expected $MeshFormat, got end of file"},
    {"bad_missing_meshformat.msh", 1, "expected $MeshFormat, got '$Nodes'"},
    {"bad_missing_endnodes_41.msh", 13, "expected $EndNodes, got '$Elements'"},
    {"bad_missing_endelements_22.msh", 12, "expected $EndElements, got end of file"},
    {"bad_undefined_node_41.msh", 24, "undefined node tag 99 in element 2"},
    {"bad_undefined_node_22.msh", 14, "undefined node tag 99 in element 2"},
    {"bad_number_41.msh", 10, "expected a coordinate, got '0,5'"},
    {"bad_number_22.msh", 11, "expected an element id (a positive integer), got '7a'"},
    {"bad_node_count_41.msh", 5,
     "node count mismatch: the $Nodes header declares 5 nodes, the blocks hold 4"},
    {"bad_element_count_22.msh", 14,
     "expected an element line (id, type, tag count, tags, nodes), got '$EndElements' (the "
     "section ends early)"},
    {"bad_element_nodes_41.msh", 24,
     "the line ends early: expected 4 node tags for element 2 (Gmsh type 3), got 3"},
    // Cut inside an element tag: the digits left (1) name an element read before, but what is
    // wrong is the line, not the tag.
    {"bad_truncated_element_41.msh", 24,
     "the line ends early: expected 4 node tags for element 1 (Gmsh type 3), got 0"},
    {"bad_unclosed_section_41.msh", 4,
     "expected $EndNodeData to close the section opened here, got end of file"},
    {"bad_duplicate_node_22.msh", 8, "duplicate node id 2"},
    {"bad_entity_41.msh", 20,
     "element block refers to the entity (dimension 2, tag 9), which $Entities does not list"},
    {"bad_physical_name_22.msh", 6, "expected a quoted physical name, got 'top'"},
    {"bad_binary_endianness_41.msh", 3,
     "binary file of the other endianness (the integer 1 after the header reads 16777216) "
     "(binary $MeshFormat block, byte offset 20)"},
    {"bad_binary_truncated_41.msh", 19,
     "truncated binary $Nodes block: 38 nodes of 32 bytes do not fit in the 68 bytes left at "
     "byte offset 661"},
    {"bad_binary_truncated_elements_41.msh", 23,
     "truncated binary $Elements block: expected the number of elements in the block (8 bytes) "
     "at byte offset 2098, got end of file"},
    {"bad_binary_truncated_22.msh", 21,
     "truncated binary $Elements block: 8 elements of 28 bytes do not fit in the 17 bytes left "
     "at byte offset 1300"},
    {"bad_binary_undefined_node_41.msh", 12,
     "undefined node tag 99 in element 2 (binary $Elements block, byte offset 480)"},
    {"bad_binary_undefined_node_22.msh", 11,
     "undefined node tag 99 in element 2 (binary $Elements block, byte offset 240)"},
    {"bad_binary_unknown_type_41.msh", 16,
     "unsupported element type 150 (its node count is unknown, so its block cannot be skipped) "
     "(binary $Elements block, byte offset 550)"},
};

INSTANTIATE_TEST_SUITE_P(Gmsh, BadFixture, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             std::string name = info.param.file;
                             name = name.substr(0, name.find('.'));
                             return name;
                         });

// ---- robustness: damaged files raise ParseError, never crash, hang or throw anything else.

// Reads `bytes` through a temporary file; true when it parsed, false on ParseError.
::testing::AssertionResult readsOrFailsCleanly(const std::string& bytes, bool& parsed) {
    const TempFile file = writeTemp("damaged.msh", bytes);
    const std::string& path = file.path;
    try {
        (void)readGmsh(path);
        parsed = true;
    } catch (const ParseError& e) {
        parsed = false;
        if (e.path() != path || e.line() < 0) {
            return ::testing::AssertionFailure() << "bad location: " << e.what();
        }
        return lineMatchesOffset(e, bytes);
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "not a ParseError: " << e.what();
    }
    return ::testing::AssertionSuccess();
}

class DamagedModel : public ::testing::TestWithParam<std::string> {};

TEST_P(DamagedModel, EveryTruncationFailsCleanly) {
    const std::string bytes = readBytes(fixture(GetParam() + ".msh"));
    ASSERT_FALSE(bytes.empty());
    const std::size_t full = bytes.rfind("$EndElements");
    ASSERT_NE(full, std::string::npos);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        SCOPED_TRACE("prefix of " + std::to_string(n) + " bytes");
        bool parsed = false;
        ASSERT_TRUE(readsOrFailsCleanly(bytes.substr(0, n), parsed));
        // Cut inside a section, the file must fail; cut after a section's end line, it may parse.
        if (parsed && n < full) {
            std::string prefix = bytes.substr(0, n);
            while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) {
                prefix.pop_back();
            }
            const std::string last = prefix.substr(prefix.rfind('\n') + 1);
            EXPECT_EQ(last.rfind("$End", 0), 0U) << "parsed a prefix ending in '" << last << "'";
        }
    }
}

TEST_P(DamagedModel, RandomByteChangesFailCleanly) {
    const std::string bytes = readBytes(fixture(GetParam() + ".msh"));
    const char* env = std::getenv("CONTACT_GMSH_FUZZ_CASES");
    const int cases = env != nullptr ? std::atoi(env) : 400;
    const unsigned seed = 2024;
    std::mt19937 rng(seed);
    const std::string interesting = "0123456789-+.eE $\n\x01\xff";
    for (int c = 0; c < cases; ++c) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", case " + std::to_string(c));
        std::string damaged = bytes;
        const int changes = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < changes; ++k) {
            const std::size_t at = rng() % damaged.size();
            damaged[at] = (rng() % 2 == 0) ? interesting[rng() % interesting.size()]
                                           : static_cast<char>(rng() % 256);
        }
        bool parsed = false;
        ASSERT_TRUE(readsOrFailsCleanly(damaged, parsed));
    }
}

INSTANTIATE_TEST_SUITE_P(Gmsh, DamagedModel,
                         ::testing::Values("model_41_ascii", "model_41_binary", "model_22_ascii",
                                           "model_22_binary"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return info.param;
                         });

}  // namespace
}  // namespace mesh_io
