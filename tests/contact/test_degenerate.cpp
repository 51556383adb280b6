// SPDX-License-Identifier: MIT
// Degenerate and hostile geometry: each case has a defined answer, a clear error naming the
// segment, or a correct result checked against the reference.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"

#include "eigen_checks.hpp"
#include "pair_columns.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace contact {
namespace {

using testing::columns;
using testing::PairColumns;

using testing::addPatch;
using testing::Mesh;

// Master: 2x2 Quad4 on z = 0 over [0, 1]^2. Slave: 3x3 Quad4 at height h, facing down.
struct Blocks {
    Mesh mesh;
    Surface master;
    Surface slave;
};

Blocks blocks(double h, const Eigen::Vector3d& offset = Eigen::Vector3d::Zero()) {
    Blocks b;
    b.master = addPatch(
        b.mesh, SegmentType::Quad4, 2, 2,
        [&](double u, double v) -> Eigen::Vector3d { return Eigen::Vector3d(u, v, 0.0) + offset; },
        false, "base");
    b.slave = addPatch(
        b.mesh, SegmentType::Quad4, 3, 3,
        [&](double u, double v) -> Eigen::Vector3d {
            return Eigen::Vector3d(0.1 + 0.8 * u, 0.1 + 0.8 * v, h) + offset;
        },
        true, "punch");
    return b;
}

SearchOptions absolute(double capture) {
    SearchOptions o;
    o.capture = capture;
    o.captureRelative = false;
    return o;
}

std::string setupError(const Surface& master, const Surface& slave, const CoordinatesView& x,
                       const SearchOptions& o) {
    ContactSearch search(o);
    try {
        search.setSurfaces(master, slave, x);
    } catch (const std::invalid_argument& e) {
        // The reference must refuse the same model the same way.
        EXPECT_THROW((void)referenceSearch(master, slave, x, o), std::invalid_argument);
        return e.what();
    }
    return "";
}

TEST(Degenerate, FarFromTheOriginKeepsRelativePrecision) {
    // At 1e6 doubles are 1.2e-10 apart: a 1e-6 gap is resolved to about 1e-9.
    const Eigen::Vector3d far(1e6, -2e6, 1e6);
    Blocks b = blocks(1e-6, far);
    const Eigen::Matrix3Xd x = b.mesh.coords3();
    ContactSearch search(absolute(1e-5));
    search.setSurfaces(b.master, b.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    ASSERT_EQ(columns(search).size(), 16);
    for (Index i = 0; i < columns(search).size(); ++i) {
        EXPECT_NEAR(search.nodePairs().gap()[i], 1e-6, 1e-9);
    }
}

TEST(Degenerate, CoordinatesTooCoarseForTheCaptureDistanceAreRefused) {
    // At 1e12 doubles are 1.2e-4 apart: a gap of 1e-6 cannot even be written down.
    Blocks b = blocks(1e-6, Eigen::Vector3d(1e12, 0, 0));
    const std::string e = setupError(b.master, b.slave, b.mesh.coords3(), absolute(1e-5));
    EXPECT_NE(e.find("too coarse for the capture distance"), std::string::npos) << e;
    EXPECT_NE(e.find("move the model near the origin"), std::string::npos) << e;
}

TEST(Degenerate, ZeroLengthLineIsRefused) {
    Mesh mesh;
    const Index a = mesh.add({0, 0, 0});
    const Index b = mesh.add({0, 0, 0});
    const Index c = mesh.add({1, 0, 0});
    Surface s;
    s.name = "edge";
    s.addSegment(SegmentType::Line2, {c, a});
    s.addSegment(SegmentType::Line2, {a, b});
    const std::string e = setupError(s, s, mesh.coords2(), SearchOptions{});
    EXPECT_NE(e.find("master surface 'edge', segment 1 (Line2): degenerate"), std::string::npos)
        << e;
}

TEST(Degenerate, CollapsedQuadIsRefusedNamingItsCorner) {
    Blocks b = blocks(0.01);
    const Index* n = b.master.nodes(3);
    b.mesh.nodes[n[2]] = b.mesh.nodes[n[1]];  // two distinct nodes at one place
    const std::string e = setupError(b.master, b.slave, b.mesh.coords3(), absolute(0.05));
    EXPECT_NE(e.find("master surface 'base', segment"), std::string::npos) << e;
    EXPECT_NE(e.find("collapsed or folded at corner node"), std::string::npos) << e;
}

TEST(Degenerate, InsideOutFaceIsRefused) {
    Blocks b = blocks(0.01);
    Index* n = b.master.connectivity.data() + b.master.offsets[2];
    std::swap(n[1], n[3]);  // segment 2 now faces -z, its neighbours +z
    const std::string e = setupError(b.master, b.slave, b.mesh.coords3(), absolute(0.05));
    EXPECT_NE(e.find("master surface 'base', segments"), std::string::npos) << e;
    EXPECT_NE(e.find("in the same direction: one of them is inside-out"), std::string::npos) << e;
}

TEST(Degenerate, InsideOutLineIsRefused) {
    Mesh mesh;
    const Surface s = testing::addCurve(
        mesh, SegmentType::Line2, 4, [](double u) { return Eigen::Vector2d(u, 0.0); }, false,
        "curve");
    Surface bad = s;
    std::swap(bad.connectivity[2], bad.connectivity[3]);  // segment 1 reversed
    const std::string e = setupError(bad, s, mesh.coords2(), SearchOptions{});
    EXPECT_NE(e.find("master surface 'curve', segments 0 and 1 both end at node"),
              std::string::npos)
        << e;
}

TEST(Degenerate, WarpedQuadsMatchTheReference) {
    Blocks b = blocks(0.02);
    for (std::size_t i = 0; i < b.mesh.nodes.size(); i += 2) {
        b.mesh.nodes[i].z() += 0.03 * ((i % 4 == 0) ? 1 : -1);  // warp both surfaces
    }
    const Eigen::Matrix3Xd x = b.mesh.coords3();
    ContactSearch search(absolute(0.1));
    search.setSurfaces(b.master, b.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    const ReferenceResult ref = referenceSearch(b.master, b.slave, x, absolute(0.1));
    ASSERT_EQ(columns(search).size(), columns(ref).size());
    ASSERT_GT(columns(ref).size(), 0);
    for (Index i = 0; i < columns(ref).size(); ++i) {
        EXPECT_EQ(search.nodePairs().master()[i], ref.nodePairs.master()[i]);
        EXPECT_EQ(search.nodePairs().gap()[i], ref.nodePairs.gap()[i]);
    }
}

TEST(Degenerate, DuplicateSegmentIsRefused) {
    Blocks b = blocks(0.01);
    const Index* n = b.master.nodes(1);
    const std::vector<Index> copy(n, n + 4);
    b.master.addSegment(SegmentType::Quad4, copy.data(), 4);  // segment 4 = segment 1
    const std::string e = setupError(b.master, b.slave, b.mesh.coords3(), absolute(0.05));
    EXPECT_NE(e.find("master surface 'base', segments 1 and 4 have the same nodes"),
              std::string::npos)
        << e;
}

TEST(Degenerate, DuplicateNodesArePairedEach) {
    Blocks b = blocks(0.01);
    // A second slave segment on the same place with its own (duplicate) nodes.
    const Index* n = b.slave.nodes(0);
    Index copies[4];
    for (int i = 0; i < 4; ++i) {
        copies[i] = b.mesh.add(b.mesh.nodes[n[i]]);
    }
    b.slave.addSegment(SegmentType::Quad4, copies, 4);
    const Eigen::Matrix3Xd x = b.mesh.coords3();
    ContactSearch search(absolute(0.05));
    search.setSurfaces(b.master, b.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    EXPECT_EQ(columns(search).size(), 16 + 4);
    EXPECT_EQ(search.nodePairs().slave()[columns(search).size() - 1], copies[3]);
}

// Exactly at the capture distance is in (distance <= capture); the next double beyond is out.
TEST(Degenerate, ExactlyAtTheCaptureDistance) {
    const double d = 0.125;  // exact in binary, as are the heights below
    for (const double h : {d, std::nextafter(d, 1.0)}) {
        Mesh mesh;
        const Surface master = addPatch(
            mesh, SegmentType::Quad4, 2, 2,
            [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false, "base");
        const Surface slave = addPatch(
            mesh, SegmentType::Quad4, 1, 1,
            [&](double u, double v) { return Eigen::Vector3d(0.25 + 0.5 * u, 0.25 + 0.5 * v, h); },
            true, "probe");
        const Eigen::Matrix3Xd x = mesh.coords3();
        ContactSearch search(absolute(d));
        search.setSurfaces(master, slave, x);
        ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
        EXPECT_EQ(columns(search).size(), h == d ? 4 : 0) << "height " << h;
        EXPECT_EQ(columns(referenceSearch(master, slave, x, absolute(d))).size(),
                  columns(search).size());
    }
}

// A node exactly on the edge shared by two segments, or the vertex of four: the tie goes to the
// lowest segment index, and the gap is exactly the height.
TEST(Degenerate, NodeOnASharedEdgeOrVertexTiesToTheLowestSegment) {
    Mesh mesh;
    const Surface master = addPatch(
        mesh, SegmentType::Quad4, 2, 2,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false, "base");
    const Index probe = mesh.add({0.5, 0.25, 0.0});  // on the edge x = 0.5 of segments 0 and 2
    const Index a = mesh.add({0.5, 0.25, 3.0});
    const Index b = mesh.add({0.6, 0.25, 3.0});
    Surface slave;
    slave.name = "probe";
    slave.addSegment(SegmentType::Tri3, {probe, a, b});
    Eigen::Matrix3Xd x = mesh.coords3();
    ContactSearch search(absolute(0.01));
    search.setSurfaces(master, slave, x);
    const std::array<Eigen::Vector3d, 3> probes = {Eigen::Vector3d(0.5, 0.25, 0.0),
                                                   Eigen::Vector3d(0.5, 0.5, 0.0),
                                                   Eigen::Vector3d(0.5, 0.5, -0.005)};
    for (const Eigen::Vector3d& p : probes) {
        x.col(probe) = p;
        ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
        ASSERT_EQ(columns(search).size(), 1);
        EXPECT_EQ(search.nodePairs().master()[0], 0);
        EXPECT_EQ(search.nodePairs().gap()[0], p.z());
    }
}

TEST(Degenerate, SameSurfaceWithoutSelfContactIsRefused) {
    Blocks b = blocks(0.01);
    const std::string e = setupError(b.master, b.master, b.mesh.coords3(), absolute(0.05));
    EXPECT_NE(e.find("master and slave are the same surface"), std::string::npos) << e;
    SearchOptions self = absolute(0.05);
    self.selfContact = true;
    ContactSearch search(self);
    const Eigen::Matrix3Xd x = b.mesh.coords3();
    EXPECT_NO_THROW(search.setSurfaces(b.master, b.master, x));
}

}  // namespace
}  // namespace contact
