// SPDX-License-Identifier: MIT
// Degenerate and hostile geometry: each case has a defined answer, a clear error naming the
// segment, or a correct result checked against the reference.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "contact/segment.hpp"

#include "detail/search_common.hpp"
#include "eigen_checks.hpp"
#include "pair_columns.hpp"
#include "scenes.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
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
    EXPECT_NE(e.find("take a capture distance of at least 0.228, or move the model nearer the "
                     "origin"),
              std::string::npos)
        << e;
}

// A model at the origin with a capture distance below the spacing of doubles there: the message
// named only moving the model, which cannot help. The least capture it names is taken; 0 (touching
// pairs only) is always taken.
TEST(Degenerate, TinyCaptureDistanceNamesTheLeastOneTaken) {
    Blocks b = blocks(0.0);
    const Eigen::Matrix3Xd x = b.mesh.coords3();
    const std::string e = setupError(b.master, b.slave, x, absolute(1e-14));
    EXPECT_NE(e.find("coordinates as large as 1 are spaced 2.22e-16 apart"), std::string::npos)
        << e;
    EXPECT_NE(e.find("take a capture distance of at least 2.28e-13, or move the model nearer the "
                     "origin"),
              std::string::npos)
        << e;
    EXPECT_EQ(setupError(b.master, b.slave, x, absolute(2.28e-13)), "");
    EXPECT_NE(setupError(b.master, b.slave, x, absolute(2.27e-13)), "");
    EXPECT_NE(setupError(b.master, b.slave, x, absolute(1e-200)), "");
    ContactSearch touching(absolute(0.0));
    touching.setSurfaces(b.master, b.slave, x);
    ASSERT_EQ(touching.update(x).status, UpdateStatus::kOk);
    const ReferenceResult ref = referenceSearch(b.master, b.slave, x, absolute(0.0));
    EXPECT_GT(columns(ref).size(), 0);
    EXPECT_EQ(columns(touching).size(), columns(ref).size());
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

// What setSurfaces checked before shapeFault() had its own table: segmentFrame() at the centre and
// each corner.
int frameFault(const SegmentNodes& seg) {
    if (!(characteristicSize(seg) > 0.0)) {
        return detail::kZeroSize;
    }
    const SegmentFrame centre = segmentFrame(seg, referenceCentre(seg.type));
    if (centre.degenerate) {
        return detail::kNoCentreNormal;
    }
    for (int c = 0; c < cornerCount(seg.type); ++c) {
        const SegmentFrame corner = segmentFrame(seg, nodeLocalCoordinates(seg.type, c));
        if (corner.degenerate || corner.normal.dot(centre.normal) <= 0.0) {
            return c;
        }
    }
    return detail::kShapeOk;
}

TEST(Degenerate, ShapeFaultIsTheFrameTest) {
    std::mt19937 rng(7);
    for (const SegmentType t :
         {SegmentType::Line2, SegmentType::Line3, SegmentType::Tri3, SegmentType::Tri6,
          SegmentType::Quad4, SegmentType::Quad8, SegmentType::Quad9}) {
        const bool line = parametricDim(t) == 1;
        int ok = 0;
        int folded = 0;
        for (int trial = 0; trial < 4000; ++trial) {
            // The reference layout, its nodes moved by up to 0.01 .. 1.2 of its size, sometimes
            // a corner on the next one or every corner on one point.
            SegmentNodes seg;
            seg.type = t;
            const double amount = std::pow(120.0, testing::uniform(rng, 0.0, 1.0)) * 0.01;
            for (int i = 0; i < nodeCount(t); ++i) {
                const Eigen::Vector2d xi = nodeLocalCoordinates(t, i);
                seg.x[i] = Eigen::Vector3d(xi[0], xi[1], 0.0) +
                           amount * Eigen::Vector3d(testing::uniform(rng, -1, 1),
                                                    testing::uniform(rng, -1, 1),
                                                    line ? 0.0 : testing::uniform(rng, -0.3, 0.3));
            }
            if (trial % 10 == 1) {
                const int c = trial % cornerCount(t);
                seg.x[(c + 1) % cornerCount(t)] = seg.x[c];
            } else if (trial % 50 == 2) {
                for (int c = 1; c < cornerCount(t); ++c) {
                    seg.x[c] = seg.x[0];
                }
            }
            const Eigen::Matrix3d R = testing::randomRotation(rng, line);
            seg = testing::transformed(seg, R, Eigen::Vector3d(1.5, -0.5, line ? 0.0 : 2.0));
            const int expected = frameFault(seg);
            ASSERT_EQ(detail::shapeFault(seg), expected) << segmentTypeName(t) << " " << trial;
            ok += expected == detail::kShapeOk ? 1 : 0;
            folded += expected >= 0 ? 1 : 0;
        }
        // Both verdicts are common: the comparison means something for every type. Line2 and Tri3
        // have one normal everywhere: they collapse, never fold.
        EXPECT_GT(ok, 400) << segmentTypeName(t);
        EXPECT_GT(4000 - ok, 400) << segmentTypeName(t);
        if (t != SegmentType::Line2 && t != SegmentType::Tri3) {
            EXPECT_GT(folded, 200) << segmentTypeName(t);
        }
    }
}

// update() refuses the shapes setSurfaces refuses: the gaps of a folded master would have the
// wrong sign. The pairs stay those of the last good update; the next good update is a fresh one.
TEST(Degenerate, UpdateRefusesASegmentFoldedSinceSetSurfaces) {
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        for (const bool slaveSide : {false, true}) {
            if (slaveSide && mode == SearchMode::kNodeToSegment) {
                continue;  // node mode searches slave nodes: a slave segment has no box
            }
            SCOPED_TRACE(std::string(mode == SearchMode::kNodeToSegment ? "node" : "segment") +
                         (slaveSide ? " mode, slave" : " mode, master"));
            Blocks b = blocks(0.01);
            const Surface& folding = slaveSide ? b.slave : b.master;
            const Index seg = slaveSide ? 8 : 3;  // the segment at (1, 1) (slave: (0.9, 0.9))
            const Eigen::Matrix3Xd x0 = b.mesh.coords3();
            // Its corner at (1, 1) is in no other segment; moved inside past the opposite corner.
            int corner = 0;
            for (int i = 0; i < 4; ++i) {
                if (x0.col(folding.nodes(seg)[i]).head<2>().sum() >
                    x0.col(folding.nodes(seg)[corner]).head<2>().sum()) {
                    corner = i;
                }
            }
            const Index node = folding.nodes(seg)[corner];
            Eigen::Matrix3Xd x = x0;
            x.col(node) = Eigen::Vector3d(0.4, 0.4, x0(2, node));
            SearchOptions o = absolute(0.05);
            o.mode = mode;
            ContactSearch search(o);
            search.setSurfaces(b.master, b.slave, x0);
            ASSERT_EQ(search.update(x0).status, UpdateStatus::kOk);
            const Index pairs = columns(search).size();
            ASSERT_GT(pairs, 0);
            EXPECT_THROW((void)referenceSearch(b.master, b.slave, x, o), std::invalid_argument);

            // The corner setSurfaces names at these coordinates (the first to fail).
            ContactSearch fresh(o);
            Index refused = kNoIndex;
            try {
                fresh.setSurfaces(b.master, b.slave, x);
            } catch (const SurfaceError& e) {
                EXPECT_EQ(e.segment(), seg);
                EXPECT_EQ(e.role(), slaveSide ? "slave" : "master");
                refused = e.node();
            }
            ASSERT_NE(refused, kNoIndex);
            ASSERT_TRUE(refused == node || refused == folding.nodes(seg)[(corner + 2) % 4]);

            const UpdateStats st = search.update(x);
            EXPECT_EQ(st.status, UpdateStatus::kDegenerateSegment);
            EXPECT_STREQ(updateStatusName(st.status), "degenerate segment");
            EXPECT_EQ(st.faultSegment, seg);
            EXPECT_EQ(st.faultInSlave, slaveSide);
            EXPECT_EQ(st.faultNode, refused);
            const Eigen::Vector3d p = x.col(refused);
            const std::string at = " at (" + detail::shortest(p.x()) + ", " +
                                   detail::shortest(p.y()) + ", " + detail::shortest(p.z()) + ")";
            EXPECT_EQ(faultText(st, x), std::string(slaveSide ? "slave" : "master") + " segment " +
                                            std::to_string(seg) +
                                            ", collapsed or folded at corner node " +
                                            std::to_string(refused) + at);
            EXPECT_EQ(columns(search).size(), pairs) << "the last good update's pairs are kept";

            const UpdateStats good = search.update(x0);
            EXPECT_EQ(good.status, UpdateStatus::kOk);
            EXPECT_EQ(good.faultSegment, kNoIndex);
            EXPECT_TRUE(good.rebuilt);
            EXPECT_EQ(columns(search).size(), pairs);
        }
    }
}

// The probe's bow-tie: two corners of a flat master swapped. update() said ok and gave a node
// 0.05 above it a gap of -0.05.
TEST(Degenerate, UpdateRefusesABowTie) {
    Mesh mesh;
    const Index a = mesh.add({0, 0, 0});
    const Index b = mesh.add({1, 0, 0});
    const Index c = mesh.add({1, 1, 0});
    const Index d = mesh.add({0, 1, 0});
    Surface master;
    master.name = "m";
    master.addSegment(SegmentType::Quad4, {a, b, c, d});
    const std::vector<Index> slave = {mesh.add({0.5, 0.9, 0.05}), mesh.add({0.5, 0.1, 0.05})};
    Eigen::Matrix3Xd x = mesh.coords3();
    ContactSearch search(absolute(0.3));
    search.setSurfaces(master, slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    x(0, c) = 0.0;
    x(0, d) = 1.0;
    const UpdateStats st = search.update(x);
    EXPECT_EQ(st.status, UpdateStatus::kDegenerateSegment);
    EXPECT_EQ(st.faultSegment, 0);
    EXPECT_EQ(st.faultNode, kNoIndex);
    EXPECT_EQ(faultText(st, x), "master segment 0, no normal at its centre (zero length or area)");
    ASSERT_EQ(columns(search).size(), 2);
    EXPECT_EQ(search.nodePairs().gap()[0], 0.05);
}

// 2D: a master edge collapsed onto its neighbour's node.
TEST(Degenerate, UpdateRefusesACollapsedLine) {
    Mesh mesh;
    const Surface master = testing::addCurve(
        mesh, SegmentType::Line2, 4, [](double u) { return Eigen::Vector2d(u, 0.0); }, false,
        "curve");
    const Surface slave = testing::addCurve(
        mesh, SegmentType::Line2, 3, [](double u) { return Eigen::Vector2d(u, 0.01); }, true,
        "top");
    Eigen::Matrix2Xd x = mesh.coords2();
    SearchOptions o;
    o.skinRelative = 0.5;
    ContactSearch search(o);
    search.setSurfaces(master, slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    const Index* n = master.nodes(2);
    x.col(n[1]) = x.col(n[0]);
    const UpdateStats st = search.update(x);
    EXPECT_EQ(st.status, UpdateStatus::kDegenerateSegment);
    EXPECT_EQ(st.faultSegment, 2);
    EXPECT_FALSE(st.faultInSlave);
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
