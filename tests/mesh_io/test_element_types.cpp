// SPDX-License-Identifier: MIT
// Face tables: every face of every element family becomes a segment whose normal points out of
// the element, with its midside nodes at the midpoints of its edges.
#include "contact/segment.hpp"

#include "element_types.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace mesh_io::detail {
namespace {

using contact::SegmentNodes;

// Reference elements in Abaqus node order; midside nodes at edge midpoints (manual numbering).
std::vector<Eigen::Vector3d> referenceNodes(const std::string& family, bool quadratic) {
    std::vector<Eigen::Vector3d> x;
    std::vector<std::pair<int, int>> edges;  // 1-based corner pairs of the midside nodes, in order
    if (family == "hex") {
        x = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
             {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
        edges = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {5, 6}, {6, 7},
                 {7, 8}, {8, 5}, {1, 5}, {2, 6}, {3, 7}, {4, 8}};
    } else if (family == "tet") {
        x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        edges = {{1, 2}, {2, 3}, {3, 1}, {1, 4}, {2, 4}, {3, 4}};
    } else if (family == "wedge") {
        x = {{0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
        edges = {{1, 2}, {2, 3}, {3, 1}, {4, 5}, {5, 6}, {6, 4}, {1, 4}, {2, 5}, {3, 6}};
    } else if (family == "quad") {
        x = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        edges = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};
    } else {  // tri
        x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        edges = {{1, 2}, {2, 3}, {3, 1}};
    }
    if (quadratic) {
        for (const auto& e : edges) {
            x.push_back(0.5 * (x[e.first - 1] + x[e.second - 1]));
        }
    }
    return x;
}

struct Case {
    const char* type;
    const char* family;
    int faces;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.type; }

class SolidAndPlanarFaces : public ::testing::TestWithParam<Case> {};

TEST_P(SolidAndPlanarFaces, OutwardNormalAndMidsidesAtEdgeMidpoints) {
    const Case& c = GetParam();
    const ElementType* t = findAbaqusType(c.type);
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(faceCount(*t), c.faces);
    const std::vector<Eigen::Vector3d> x = referenceNodes(c.family, t->nodes > t->corners);
    ASSERT_EQ(static_cast<int>(x.size()), t->nodes);
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    for (int i = 0; i < t->corners; ++i) {
        centroid += x[i] / t->corners;
    }
    for (int f = 1; f <= c.faces; ++f) {
        SCOPED_TRACE(std::string(c.type) + " face S" + std::to_string(f));
        FaceNodes fn;
        ASSERT_TRUE(faceNodes(*t, f, fn));
        SegmentNodes s;
        s.type = fn.type;
        for (int i = 0; i < contact::nodeCount(fn.type); ++i) {
            ASSERT_GE(fn.local[i], 0);
            ASSERT_LT(fn.local[i], t->nodes);
            s.x[i] = x[fn.local[i]];
        }
        const contact::SegmentFrame fr = contact::segmentFrame(s, contact::referenceCentre(s.type));
        ASSERT_FALSE(fr.degenerate);
        EXPECT_GT(fr.normal.dot(fr.point - centroid), 0.0) << "normal points into the element";
        // Midsides sit halfway between consecutive corners of the face.
        const int nc = contact::cornerCount(s.type);
        for (int i = nc; i < contact::nodeCount(s.type); ++i) {
            const int k = i - nc;
            const Eigen::Vector3d expect = 0.5 * (s.x[k] + s.x[(k + 1) % nc]);
            EXPECT_LT((s.x[i] - expect).norm(), 1e-15) << "midside " << i;
        }
    }
    FaceNodes fn;
    EXPECT_FALSE(faceNodes(*t, 0, fn));
    EXPECT_FALSE(faceNodes(*t, c.faces + 1, fn));
}

const Case kCases[] = {
    {"C3D4", "tet", 4},   {"C3D10", "tet", 4}, {"C3D6", "wedge", 5}, {"C3D15", "wedge", 5},
    {"C3D8", "hex", 6},   {"C3D8R", "hex", 6}, {"C3D8I", "hex", 6},  {"C3D20", "hex", 6},
    {"C3D20R", "hex", 6}, {"CPS3", "tri", 3},  {"CPE6", "tri", 3},   {"CAX4R", "quad", 4},
    {"CPS8R", "quad", 4}, {"CPE8", "quad", 4},
};

INSTANTIATE_TEST_SUITE_P(Types, SolidAndPlanarFaces, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.type); });

TEST(ShellFaces, SposAlongTheElementNormalSnegOpposite) {
    for (const char* name : {"S3", "S4R", "S6", "S8R", "M3D4", "M3D9"}) {
        SCOPED_TRACE(name);
        const ElementType* t = findAbaqusType(name);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(faceCount(*t), 2);
        std::vector<Eigen::Vector3d> x =
            referenceNodes(t->corners == 3 ? "tri" : "quad", t->nodes > t->corners);
        if (t->nodes == 9) {
            x.push_back({0.5, 0.5, 0.0});
        }
        ASSERT_EQ(static_cast<int>(x.size()), t->nodes);
        for (int f = 1; f <= 2; ++f) {
            FaceNodes fn;
            ASSERT_TRUE(faceNodes(*t, f, fn));
            SegmentNodes s;
            s.type = fn.type;
            for (int i = 0; i < contact::nodeCount(fn.type); ++i) {
                s.x[i] = x[fn.local[i]];
            }
            const Eigen::Vector3d n = contact::outwardNormal(s, contact::referenceCentre(s.type));
            EXPECT_NEAR(n.z(), f == 1 ? 1.0 : -1.0, 1e-15) << "face " << f;
            for (int i = contact::cornerCount(s.type); i < 8 && i < contact::nodeCount(s.type);
                 ++i) {
                const int nc = contact::cornerCount(s.type);
                const int k = i - nc;
                EXPECT_LT((s.x[i] - 0.5 * (s.x[k] + s.x[(k + 1) % nc])).norm(), 1e-15);
            }
        }
    }
}

TEST(ElementTypes, LookupsAndNonFaces) {
    EXPECT_EQ(findAbaqusType("C3D8R")->nodes, 8);
    EXPECT_EQ(findAbaqusType("C3D20R")->nodes, 20);
    EXPECT_EQ(findAbaqusType("c3d8r"), nullptr) << "lookups take upper-case names";
    EXPECT_EQ(findAbaqusType("B31"), nullptr);
    ASSERT_NE(findGmshType(9), nullptr);
    EXPECT_EQ(findGmshType(9)->nodes, 6);
    EXPECT_EQ(findGmshType(5)->kind, ElementKind::kOther);
    EXPECT_EQ(faceCount(*findGmshType(5)), 0);
    EXPECT_EQ(findGmshType(99), nullptr);
    FaceNodes fn;
    ASSERT_TRUE(faceNodes(*findGmshType(8), 1, fn));
    EXPECT_EQ(fn.type, contact::SegmentType::Line3);
    ASSERT_TRUE(faceNodes(*findGmshType(10), 1, fn));
    EXPECT_EQ(fn.type, contact::SegmentType::Quad9);
    EXPECT_EQ(fn.local[8], 8);
}

}  // namespace
}  // namespace mesh_io::detail
