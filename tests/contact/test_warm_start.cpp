// SPDX-License-Identifier: MIT
// SearchOptions::warmStart: node mode's reused candidate list projects curved masters from the last
// local coordinates (detail::warmClosestXi) and takes the frame from the last Newton evaluation.
// Its contract (warm_checks.hpp: the same pairs, values within 1e-12) against a fresh search (a new
// ContactSearch with warmStart off at the same coordinates, itself the reference bit for bit) and
// against the cold kernel; ties, two close minima, threads and memory.
#include "contact/contact_search.hpp"
#include "contact/projection.hpp"
#include "contact/reference_search.hpp"
#include "contact/segment.hpp"

#include "detail/warm_projection.hpp"
#include "node_search.hpp"
#include "scenes.hpp"
#include "surfaces.hpp"
#include "warm_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace contact {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
using testing::addCurve;
using testing::addPatch;
using testing::expectWithinWarmBound;
using testing::kWarmTol;
using testing::Mesh;
using testing::pairAt;
using testing::uniform;
using testing::warmError;

// --- The kernel ------------------------------------------------------------------------------

// A segment of `type` about 1 long: its nodes on the paraboloid z = curvature (x^2 + y^2 / 2) over
// their reference layout, moved a little in the plane, then turned and moved far from the origin.
SegmentNodes curvedSegment(SegmentType type, std::mt19937& rng, double curvature) {
    SegmentNodes s;
    s.type = type;
    const bool line = parametricDim(type) == 1;
    for (int i = 0; i < nodeCount(type); ++i) {
        const Vector2d r = 0.5 * nodeLocalCoordinates(type, i);
        const Vector2d q =
            r + Vector2d(uniform(rng, -0.005, 0.005), line ? 0.0 : uniform(rng, -0.005, 0.005));
        const double z = curvature * (q.x() * q.x() + 0.5 * q.y() * q.y());
        s.x[i] = line ? Vector3d(q.x(), z, 0.0) : Vector3d(q.x(), q.y(), z);
    }
    const Vector3d t(uniform(rng, -5, 5), uniform(rng, -5, 5), line ? 0.0 : uniform(rng, -5, 5));
    return testing::transformed(s, testing::randomRotation(rng, line), t);
}

class WarmKernel : public ::testing::TestWithParam<SegmentType> {};

// From any start (random, corners, a vertex of the domain, outside it, NaN) the warm path finds the
// cold path's closest point within kWarmTol; where the certificate does not hold it is the cold
// path's, bit for bit. Mild and strong curvature, points near and far (beyond the centres of
// curvature, where the certificate fails).
TEST_P(WarmKernel, FromAnyStartEqualsTheColdProjection) {
    const SegmentType type = GetParam();
    std::mt19937 rng(31);
    int certified = 0;
    int refused = 0;
    for (int c = 0; c < 300; ++c) {
        SCOPED_TRACE("case " + std::to_string(c));
        const SegmentNodes s = curvedSegment(type, rng, c % 3 == 0 ? 1.0 : 0.1);
        const double size = characteristicSize(s);
        const Vector2d at = testing::randomLocalPoint(type, rng);
        const Vector3d n = segmentFrame(s, at).normal;
        const double height =
            size * (c % 4 == 0 ? uniform(rng, -2.0, 2.0) : uniform(rng, -0.3, 0.3));
        const Vector3d p = position(s, at) + height * n +
                           0.2 * size * testing::randomUnitVector(rng, parametricDim(type) == 1);
        const ClosestXi cold = closestXi(s, p);
        const Projection coldPr = projectionAt(s, p, cold);
        const double length = std::max(size, cold.distance);  // the contract's length
        const bool single = distanceIsConvex(s, p);
        (single ? certified : refused) += 1;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const std::vector<Vector2d> starts = {testing::randomLocalPoint(type, rng),
                                              Vector2d(1.0, isTriangle(type) ? 0.0 : 1.0),
                                              Vector2d(5.0, -3.0), Vector2d(nan, 0.0), cold.xi};
        for (const Vector2d& start : starts) {
            const detail::WarmClosest w = detail::warmClosestXi(s, p, &start);
            // The interior loop takes the general active-set loop's iterates, bit for bit.
            const detail::WarmClosest general = detail::warmClosestXi(s, p, &start, false);
            EXPECT_EQ(w.closest.xi, general.closest.xi);
            EXPECT_EQ(w.closest.distance, general.closest.distance);
            EXPECT_EQ(w.closest.converged, general.closest.converged);
            EXPECT_EQ(w.yXi, general.yXi);
            EXPECT_EQ(w.yEta, general.yEta);
            const Projection pr = detail::warmProjectionAt(s, p, w);
            if (!single) {
                EXPECT_FALSE(w.geometry);
                EXPECT_EQ(w.closest.xi, cold.xi);
                EXPECT_EQ(w.closest.distance, cold.distance);
            }
            EXPECT_LE(std::abs(w.closest.distance - cold.distance), kWarmTol * length);
            EXPECT_LE(warmError(pr, coldPr, length), kWarmTol)
                << "start " << start.transpose() << ", xi " << pr.xi.transpose() << " vs "
                << coldPr.xi.transpose();
            EXPECT_EQ(pr.status, coldPr.status);
        }
        // No start: the linearized one.
        const detail::WarmClosest w = detail::warmClosestXi(s, p, nullptr);
        EXPECT_LE(warmError(detail::warmProjectionAt(s, p, w), coldPr, length), kWarmTol);
        // The frame from a given geometry equals the one computed at xi, bit for bit.
        detail::WarmClosest bare;
        bare.closest = w.closest;
        const Projection a = detail::warmProjectionAt(s, p, w);
        const Projection b = detail::warmProjectionAt(s, p, bare);
        EXPECT_EQ(warmError(a, b, length), 0.0);
    }
    std::printf("[ stats    ] %s: certified %d, refused %d\n", segmentTypeName(type), certified,
                refused);
    EXPECT_GT(certified, 100);
    EXPECT_GT(refused, 5) << "no case without the certificate: the fallback is untested";
}

INSTANTIATE_TEST_SUITE_P(Curved, WarmKernel,
                         ::testing::Values(SegmentType::Line3, SegmentType::Tri6,
                                           SegmentType::Quad8, SegmentType::Quad9),
                         [](const auto& info) { return std::string(segmentTypeName(info.param)); });

TEST(WarmStart, PacksRankAndLocalCoordinates) {
    std::mt19937 rng(5);
    for (SegmentType type : {SegmentType::Line3, SegmentType::Tri6, SegmentType::Quad8}) {
        for (int c = 0; c < 200; ++c) {
            const Vector2d xi = testing::randomLocalPoint(type, rng);
            const auto rank = static_cast<unsigned>(c % 300);
            const detail::WarmStart w(rank, xi, type);
            EXPECT_EQ(w.rank(), std::min(rank, detail::WarmStart::kNoRank));
            const double width = isTriangle(type) ? 1.0 : 2.0;
            // 2^20 - 1 steps over the domain: within half a step (and the rounding).
            const double halfStep = width / (2.0 * double((1 << 20) - 1));
            EXPECT_LE((w.xi(type) - xi).cwiseAbs().maxCoeff(), halfStep * (1.0 + 1e-9));
        }
        const Vector2d corner = isTriangle(type) ? Vector2d(1.0, 0.0) : Vector2d(-1.0, 1.0);
        EXPECT_EQ(detail::WarmStart(0, corner, type).xi(type), corner);
    }
    EXPECT_EQ(detail::WarmStart().rank(), detail::WarmStart::kNoRank);
    EXPECT_EQ(sizeof(detail::WarmStart), 6U);
}

// The cache's slots: a power of two, about one per 32 masters, from 16 to 4096.
TEST(WarmStart, SegmentCacheSlotsAreBounded) {
    using detail::WarmSegmentCache;
    EXPECT_EQ(WarmSegmentCache::slotsFor(0), 16U);
    EXPECT_EQ(WarmSegmentCache::slotsFor(512), 16U);
    EXPECT_EQ(WarmSegmentCache::slotsFor(513), 32U);
    EXPECT_EQ(WarmSegmentCache::slotsFor(100000), 4096U);
    EXPECT_EQ(WarmSegmentCache::slotsFor(100000000), 4096U);
}

// --- The search ------------------------------------------------------------------------------

struct Model {
    Mesh mesh;
    Surface master;
    Surface slave;
    int dim = 3;
};

// 3D: a master of `type` bent into a trough with a cross wave, and a Quad8 slave patch above it
// facing down, with waves: some nodes penetrate, some are beyond the capture distance.
Model trough(SegmentType type, int n) {
    Model m;
    m.master = addPatch(
        m.mesh, type, n, n,
        [](double u, double v) {
            const double x = 2 * u - 1;
            const double y = 2 * v - 1;
            return Vector3d(x, y, 0.3 * x * x + 0.05 * std::sin(3 * y));
        },
        false, "master");
    m.slave = addPatch(
        m.mesh, SegmentType::Quad8, n + 2, n + 2,
        [](double u, double v) {
            const double x = 2.2 * u - 1.1;
            const double y = 2.2 * v - 1.1;
            return Vector3d(x, y, 0.3 * x * x + 0.02 + 0.04 * std::sin(4 * x) * std::cos(3 * y));
        },
        true, "slave");
    return m;
}

// 2D: a Line3 master bent into a wave (normal +y), a Line3 slave above it facing down.
Model wave2d(int n) {
    Model m;
    m.dim = 2;
    m.master = addCurve(
        m.mesh, SegmentType::Line3, n,
        [](double u) {
            const double x = 1 - 2 * u;
            return Eigen::Vector2d(x, 0.2 * std::sin(3 * x));
        },
        false, "master");
    m.slave = addCurve(
        m.mesh, SegmentType::Line3, n + 7,
        [](double u) {
            const double x = 2.6 * u - 1.3;
            return Eigen::Vector2d(x, 0.2 * std::sin(3 * x) + 0.01 + 0.03 * std::sin(7 * x));
        },
        false, "slave");
    return m;
}

// The coordinates of a model in its dimension, kept alive with their view.
struct Coordinates {
    Eigen::Matrix3Xd x3;
    Eigen::Matrix2Xd x2;
    int dim = 3;
    [[nodiscard]] CoordinatesView view() const {
        return dim == 3 ? CoordinatesView(x3) : CoordinatesView(x2);
    }
};

SearchOptions warmOptions(bool warm, int threads = 1) {
    SearchOptions o;
    o.capture = 0.5;
    o.skinRelative = 0.2;
    o.threads = threads;
    o.warmStart = warm;
    return o;
}

// Increment `inc` of the moving sequence: the slave slides in small steps (the list is reused),
// the master bends a little every increment, and every 15th increment the slave jumps (rebuild).
// The slave keeps within the capture distance of the master in the normal direction.
void moveTo(const Model& m, const Eigen::Matrix3Xd& x0, int inc, Eigen::Vector3d& shift,
            std::mt19937& rng, Coordinates& c) {
    const bool jump = inc % 15 == 14;
    const double scale = m.dim == 2 ? 0.25 : 1.0;  // 2D: segments a third as long
    shift += scale * (jump ? 0.3 : 0.004) * testing::randomUnitVector(rng, m.dim == 2);
    shift.y() = m.dim == 2 ? std::clamp(shift.y(), -0.02, 0.02) : shift.y();
    shift.z() = m.dim == 3 ? std::clamp(shift.z(), -0.03, 0.05) : 0.0;
    const double bend = 0.02 * std::sin(0.2 * inc);
    Eigen::Matrix3Xd x = x0;
    for (Index n : m.master.connectivity) {
        x(m.dim - 1, n) += bend * x0(0, n) * x0(0, n);
    }
    for (Index n : m.slave.connectivity) {
        x.col(n) = x0.col(n) + shift;
    }
    c.dim = m.dim;
    c.x3 = x;
    c.x2 = x.topRows<2>();
}

class WarmSearch : public ::testing::TestWithParam<SegmentType> {};

// The key test: 60 increments, small motions reusing the list and jumps rebuilding it, on curved
// masters that bend every increment. Each increment against a fresh search (and every 10th against
// the reference): the contract above. On reused lists the warm path must have run (results
// differ in some bits); on rebuilt ones the results are the fresh search's bit for bit.
TEST_P(WarmSearch, MovingCurvedMastersMatchAFreshSearch) {
    const SegmentType type = GetParam();
    const Model m = type == SegmentType::Line3 ? wave2d(24) : trough(type, 7);
    std::mt19937 rng(17);
    ContactSearch warm(warmOptions(true));
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    Coordinates c{x0, x0.topRows<2>(), m.dim};
    warm.setSurfaces(m.master, m.slave, c.view());
    // The masters bend: the fresh searches get the warm one's capture distance as a length.
    SearchOptions freshOptions = warmOptions(false);
    freshOptions.capture = warm.captureDistance();
    freshOptions.captureRelative = false;
    Eigen::Vector3d shift = Eigen::Vector3d::Zero();
    int reused = 0;
    int rebuilt = 0;
    int differing = 0;
    for (int inc = 0; inc < 60; ++inc) {
        SCOPED_TRACE("increment " + std::to_string(inc));
        moveTo(m, x0, inc, shift, rng, c);
        const UpdateStats st = warm.update(c.view());
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        ContactSearch fresh(freshOptions);
        fresh.setSurfaces(m.master, m.slave, c.view());
        ASSERT_EQ(fresh.update(c.view()).status, UpdateStatus::kOk);
        ASSERT_GT(fresh.nodePairs().size(), 10);
        const int d =
            expectWithinWarmBound(warm.nodePairs(), fresh.nodePairs(), m.master, c.view());
        if (st.rebuilt) {
            ++rebuilt;
            EXPECT_EQ(d, 0) << "a rebuild starts fresh";
        } else {
            ++reused;
            differing += d;
        }
        if (inc % 10 == 0) {
            const ReferenceResult ref = referenceSearch(m.master, m.slave, c.view(), freshOptions);
            expectWithinWarmBound(warm.nodePairs(), ref.nodePairs, m.master, c.view());
        }
    }
    EXPECT_GT(reused, 35) << "small motions must take the reuse path";
    EXPECT_GE(rebuilt, 4) << "the jumps must rebuild";
    EXPECT_GT(differing, 0) << "the warm path never ran";
}

INSTANTIATE_TEST_SUITE_P(Curved, WarmSearch,
                         ::testing::Values(SegmentType::Line3, SegmentType::Tri6,
                                           SegmentType::Quad8, SegmentType::Quad9),
                         [](const auto& info) { return std::string(segmentTypeName(info.param)); });

// Matching meshes: every slave node lies on the normal of the master surface through a master
// node, at the gap g, so its closest point is that node, on the edge or corner shared by two or
// four masters: their distances tie (exactly; computed, in the last bits), and a fresh search
// picks by those bits, else the lowest index. The master is curved (z = 0.3 x^2 + 0.1 y^2, which
// Quad8 and Quad9 hold exactly, smooth across the element edges), g grows a little every update
// (the list is reused): the warm path must leave these choices to the cold path.
TEST(WarmSearch, TiesOverSharedEdgesAndCornersPickTheFreshMaster) {
    const auto surface = [](double u, double v, double g) -> Vector3d {
        const double x = 2 * u - 1;
        const double y = 2 * v - 1;
        const Vector3d n = Vector3d(-0.6 * x, -0.2 * y, 1.0).normalized();
        return Vector3d(x, y, 0.3 * x * x + 0.1 * y * y) + g * n;
    };
    for (SegmentType type : {SegmentType::Quad8, SegmentType::Quad9}) {
        SCOPED_TRACE(segmentTypeName(type));
        // The model at gap g: the same nodes, numbered alike, at their positions for g.
        const auto model = [&](double g) {
            Model m;
            m.master = addPatch(
                m.mesh, type, 6, 6, [&](double u, double v) { return surface(u, v, 0.0); }, false,
                "master");
            m.slave = addPatch(
                m.mesh, type, 6, 6, [&](double u, double v) { return surface(u, v, g); }, true,
                "slave");
            return m;
        };
        const Model m = model(0.01);
        ContactSearch warm(warmOptions(true));
        warm.setSurfaces(m.master, m.slave, m.mesh.coords3());
        int reused = 0;
        for (int inc = 0; inc < 12; ++inc) {
            SCOPED_TRACE("increment " + std::to_string(inc));
            const Eigen::Matrix3Xd x = model(0.01 + 0.002 * inc).mesh.coords3();
            const UpdateStats st = warm.update(x);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            reused += st.rebuilt ? 0 : 1;
            ContactSearch fresh(warmOptions(false));
            fresh.setSurfaces(m.master, m.slave, x);
            ASSERT_EQ(fresh.update(x).status, UpdateStatus::kOk);
            ASSERT_EQ(fresh.nodePairs().size(), static_cast<Index>(fresh.slaveNodes().size()));
            expectWithinWarmBound(warm.nodePairs(), fresh.nodePairs(), m.master, x);
        }
        EXPECT_GE(reused, 10);
    }
}

// A strongly curved segment with the slave node beyond its centre of curvature: the distance has
// two local minima, one each side, and the node crosses from one side to the other every update
// (a small motion: the list is reused). Started from the last update's closest point, Newton
// would stay in the other (now not closest) minimum; the certificate refuses these cases, so the
// cold multi-start search finds the closest one, as the fresh search does. Line3 in 2D, and a
// Quad8 bent into a parabolic trough in 3D.
TEST(WarmSearch, TwoCloseMinimaAreLeftToTheCertificate) {
    for (int dim : {2, 3}) {
        SCOPED_TRACE(dim == 2 ? "Line3" : "Quad8");
        Mesh mesh;
        Surface master;
        const double h = 0.5;  // z = h x^2 - h: centre of curvature at the vertex 1 / (2h) above it
        if (dim == 2) {        // node 0 at x = 1, node 1 at x = -1: the normal points up
            const Index a = mesh.add(Vector3d(1, 0, 0));
            const Index b = mesh.add(Vector3d(-1, 0, 0));
            const Index mid = mesh.add(Vector3d(0, -h, 0));
            master.addSegment(SegmentType::Line3, {a, b, mid});
        } else {  // Quad8 node order: corners counter-clockwise, then the midsides 0-1, 1-2, ...
            std::vector<Index> nodes;
            for (const Vector2d& r :
                 {Vector2d(-1, -1), Vector2d(1, -1), Vector2d(1, 1), Vector2d(-1, 1),
                  Vector2d(0, -1), Vector2d(1, 0), Vector2d(0, 1), Vector2d(-1, 0)}) {
                nodes.push_back(mesh.add(Vector3d(r.x(), r.y(), h * r.x() * r.x() - h)));
            }
            master.addSegment(SegmentType::Quad8, nodes.data(), 8);
        }
        const Index node = mesh.add(Vector3d(0, 0, 0));
        SearchOptions o = warmOptions(true);
        o.capture = 2.0;
        o.captureRelative = false;
        ContactSearch warm(o);
        const auto coordinates = [&](double offset) {
            Coordinates c{mesh.coords3(), mesh.coords2(), dim};
            // Above the vertex, beyond the centre of curvature (at height 1 / (2h) - h = 0.5).
            const Vector3d p = dim == 2 ? Vector3d(offset, 0.8, 0) : Vector3d(offset, 0, 0.8);
            c.x3.col(node) = p;
            c.x2.col(node) = p.head<2>();
            return c;
        };
        warm.setSurfaces(master, std::vector<Index>{node}, coordinates(0.02).view());
        SearchOptions coldOptions = o;
        coldOptions.warmStart = false;
        for (int inc = 0; inc < 8; ++inc) {
            SCOPED_TRACE("increment " + std::to_string(inc));
            const double offset = inc % 2 == 0 ? 0.02 : -0.02;
            const Coordinates c = coordinates(offset);
            const UpdateStats st = warm.update(c.view());
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            EXPECT_EQ(st.rebuilt, inc == 0);
            // Two local minima: the sampled distance falls to each side of the vertex.
            const SegmentNodes seg = gatherSegment(master, 0, c.view());
            const Vector3d p = c.view().node(node);
            EXPECT_FALSE(distanceIsConvex(seg, p));
            const double atVertex = (position(seg, Vector2d::Zero()) - p).norm();
            EXPECT_LT((position(seg, Vector2d(-0.6, 0)) - p).norm(), atVertex);
            EXPECT_LT((position(seg, Vector2d(0.6, 0)) - p).norm(), atVertex);
            ContactSearch fresh(coldOptions);
            fresh.setSurfaces(master, std::vector<Index>{node}, c.view());
            ASSERT_EQ(fresh.update(c.view()).status, UpdateStatus::kOk);
            ASSERT_EQ(fresh.nodePairs().size(), 1);
            // The closest point lies on the node's side of the vertex (x = -xi in 2D).
            const double side =
                dim == 2 ? -fresh.nodePairs().xi()(0, 0) : fresh.nodePairs().xi()(0, 0);
            EXPECT_GT(side * offset, 0.0);
            expectWithinWarmBound(warm.nodePairs(), fresh.nodePairs(), master, c.view());
        }
    }
}

// Warm results, like all others, are bit-identical for one and two threads (the frames of the
// closed-up blocks are computed again, by the same kernel, from the stored local coordinates).
TEST(WarmSearch, SameResultsForOneAndTwoThreads) {
    const Model m = trough(SegmentType::Quad8, 14);
    std::mt19937 rngOne(3);
    std::mt19937 rngTwo(3);
    ContactSearch one(warmOptions(true, 1));
    ContactSearch two(warmOptions(true, 2));
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    one.setSurfaces(m.master, m.slave, x0);
    two.setSurfaces(m.master, m.slave, x0);
    Eigen::Vector3d shiftOne = Eigen::Vector3d::Zero();
    Eigen::Vector3d shiftTwo = Eigen::Vector3d::Zero();
    int reused = 0;
    for (int inc = 0; inc < 20; ++inc) {
        SCOPED_TRACE("increment " + std::to_string(inc));
        Coordinates a;
        Coordinates b;
        moveTo(m, x0, inc, shiftOne, rngOne, a);
        moveTo(m, x0, inc, shiftTwo, rngTwo, b);
        const UpdateStats sa = one.update(a.view());
        const UpdateStats sb = two.update(b.view());
        ASSERT_EQ(sa.rebuilt, sb.rebuilt);
        reused += sa.rebuilt ? 0 : 1;
        const NodePairs& p = one.nodePairs();
        const NodePairs& q = two.nodePairs();
        ASSERT_GT(p.size(), 100);
        ASSERT_EQ(p.size(), q.size());
        for (Index i = 0; i < p.size(); ++i) {
            ASSERT_EQ(p.slave()[i], q.slave()[i]);
            ASSERT_EQ(p.master()[i], q.master()[i]);
            EXPECT_EQ(warmError(pairAt(p, i), pairAt(q, i), 1.0), 0.0) << "pair " << i;
        }
    }
    EXPECT_GT(reused, 10);
}

// A warm update projects a node's last closest master without its OBB test. The slave patch
// lifts off in steps, the list kept (a wide skin), until every node is beyond the capture distance
// of the master it was paired with, then slides sideways and comes back down: at every step the
// pairs of a fresh search, none while it is away.
TEST(WarmSearch, LastClosestMasterOutOfReachMakesNoPair) {
    const Model m = trough(SegmentType::Quad8, 7);
    SearchOptions o = warmOptions(true);
    o.skinRelative = 3.0;  // the list is kept over the whole lift
    ContactSearch warm(o);
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    warm.setSurfaces(m.master, m.slave, x0);
    SearchOptions freshOptions = warmOptions(false);
    freshOptions.capture = warm.captureDistance();
    freshOptions.captureRelative = false;
    const double capture = warm.captureDistance();
    const std::vector<Vector3d> path = {{0, 0, 0},
                                        {0, 0, 0.5 * capture},
                                        {0, 0, 1.2 * capture},
                                        {0, 0, 2.0 * capture},
                                        {0.05, 0.03, 2.0 * capture},
                                        {0.05, 0.03, 0.4 * capture},
                                        {0.05, 0.03, 0}};
    int away = 0;
    for (std::size_t step = 0; step < path.size(); ++step) {
        SCOPED_TRACE("step " + std::to_string(step));
        Eigen::Matrix3Xd x = x0;
        for (Index n : m.slave.connectivity) {
            x.col(n) = x0.col(n) + path[step];
        }
        const UpdateStats st = warm.update(x);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        EXPECT_EQ(st.rebuilt, step == 0);
        ContactSearch fresh(freshOptions);
        fresh.setSurfaces(m.master, m.slave, x);
        ASSERT_EQ(fresh.update(x).status, UpdateStatus::kOk);
        expectWithinWarmBound(warm.nodePairs(), fresh.nodePairs(), m.master, x);
        away += warm.nodePairs().size() == 0 ? 1 : 0;
        if (step == 0 || step + 1 == path.size()) {
            EXPECT_GT(warm.nodePairs().size(), 50);
        }
    }
    EXPECT_GE(away, 1) << "the slave never left the capture distance";
}

// Slave nodes beside a master's outer edge: each closest point is snapped onto that edge (slack
// 0, kOnBoundary) of one master, away from its corners. That is far below where the status
// turns (nearStatusEdge), so a warm update projects each node once, on its own master, and takes
// no cold second look; the pairs are a fresh search's.
TEST(WarmSearch, ClosestPointsOnTheEdgeAreProjectedOnce) {
    Model m;
    m.master = addPatch(
        m.mesh, SegmentType::Quad8, 4, 4,
        [](double u, double v) {
            const double x = 2 * u - 1;
            return Vector3d(x, 2 * v - 1, 0.1 * x * x);
        },
        false, "master");
    // x in [1.05, 1.25], y in [-0.4, -0.1]: within the master row y in [-0.5, 0].
    m.slave = addPatch(
        m.mesh, SegmentType::Quad8, 1, 1,
        [](double u, double v) { return Vector3d(1.05 + 0.2 * u, -0.4 + 0.3 * v, 0.12); }, true,
        "slave");
    SearchOptions o = warmOptions(true);
    o.capture = 0.3;
    o.captureRelative = false;
    ContactSearch warm(o);
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    warm.setSurfaces(m.master, m.slave, x0);
    ASSERT_EQ(warm.update(x0).status, UpdateStatus::kOk);
    const auto nodes = static_cast<Index>(warm.slaveNodes().size());
    for (int step = 1; step <= 3; ++step) {
        SCOPED_TRACE("step " + std::to_string(step));
        Eigen::Matrix3Xd x = x0;
        for (Index n : m.slave.connectivity) {
            x.col(n) += Vector3d(0.002 * step, 0.001 * step, -0.003 * step);
        }
        const UpdateStats st = warm.update(x);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        ASSERT_FALSE(st.rebuilt);
        ASSERT_EQ(warm.nodePairs().size(), nodes);
        for (Index i = 0; i < nodes; ++i) {
            EXPECT_EQ(warm.nodePairs().status()[i], ProjectionStatus::kOnBoundary);
            EXPECT_EQ(warm.nodePairs().xi()(0, i), 1.0);
        }
        EXPECT_EQ(st.projections, nodes);
        SearchOptions f = o;
        f.warmStart = false;
        ContactSearch fresh(f);
        fresh.setSurfaces(m.master, m.slave, x);
        ASSERT_EQ(fresh.update(x).status, UpdateStatus::kOk);
        expectWithinWarmBound(warm.nodePairs(), fresh.nodePairs(), m.master, x);
    }
}

// The warm starts take 6 bytes per slave node, and only with curved masters; the warm update keeps
// per thread a cache of the masters' WarmSegments, of a size bounded whatever the model.
// With skin 0 every update rebuilds, and nothing is kept for warm starts.
TEST(WarmSearch, MemoryIsSixBytesPerSlaveNodeAndABoundedCache) {
    for (SegmentType type : {SegmentType::Quad8, SegmentType::Quad4}) {
        for (const double skin : {0.2, 0.0}) {
            SCOPED_TRACE(std::string(segmentTypeName(type)) + ", skin " + std::to_string(skin));
            const Model m = trough(type, 5);
            const Eigen::Matrix3Xd x = m.mesh.coords3();
            SearchOptions on = warmOptions(true);
            SearchOptions off = warmOptions(false);
            on.skinRelative = skin;
            off.skinRelative = skin;
            ContactSearch warm(on);
            ContactSearch cold(off);
            warm.setSurfaces(m.master, m.slave, x);
            cold.setSurfaces(m.master, m.slave, x);
            ASSERT_EQ(warm.update(x).status, UpdateStatus::kOk);
            ASSERT_EQ(cold.update(x).status, UpdateStatus::kOk);
            const std::size_t nodes = warm.slaveNodes().size();
            const std::size_t cache = detail::WarmSegmentCache::slotsFor(m.master.size()) *
                                      (sizeof(Index) + sizeof(detail::WarmSegment));
            const bool kept = type == SegmentType::Quad8 && skin > 0.0;
            EXPECT_EQ(warm.memoryBytes() - cold.memoryBytes(), kept ? 6 * nodes + cache : 0);
        }
    }
}

// A Tri6 master 2.3e-9 wide and about 1 long (a probe's fuzzer found it): the warm frame, built
// from derivatives whose rounding is about eps x its length, had its normal 1.7e-9 off a fresh
// search's and the gap 1.8e-9. Thinner than 1e-3 of its extent, it takes the fresh frame.
TEST(WarmSearch, SliverMasterStaysWithinTheWarmBound) {
    const double base[7][3] = {{200000, 0, 19489.60801218425},
                               {200000.00023081439, 0, 19489.608027042195},
                               {200000.00023081439, 100000, 3278.0264766008622},
                               {200000.00011540719, 0, 19489.608019613224},
                               {200000.00023081439, 50000, 14895.171569655797},
                               {200000.00011540719, 50000, 14895.171563978112},
                               {241964.36855395019, 23375.901823272648, 1508.8631754922337}};
    Eigen::Matrix3Xd x(3, 7);
    for (int i = 0; i < 7; ++i) {
        x.col(i) = 1e-5 * Vector3d(base[i][0], base[i][1], base[i][2]);
    }
    Surface master;
    master.addSegment(SegmentType::Tri6, {0, 1, 2, 3, 4, 5});
    const std::vector<Index> slaveNodes{6};
    SearchOptions warm;
    warm.capture = 10;
    warm.captureRelative = false;
    warm.skinRelative = 0.5;
    SearchOptions cold = warm;
    cold.warmStart = false;
    ContactSearch w(warm);
    ContactSearch c(cold);
    w.setSurfaces(master, slaveNodes, x);
    c.setSurfaces(master, slaveNodes, x);
    int reused = 0;
    for (int step = 0; step < 40; ++step) {
        x.col(6) += 1e-5 * Vector3d(37.0 * std::sin(step), 53.0 * std::cos(step), -11.0);
        const UpdateStats a = w.update(x);
        ASSERT_EQ(c.update(x).status, UpdateStatus::kOk);
        ASSERT_EQ(a.status, UpdateStatus::kOk);
        reused += a.rebuilt ? 0 : 1;
        ASSERT_EQ(w.nodePairs().size(), 1);
        expectWithinWarmBound(w.nodePairs(), c.nodePairs(), master, x);
    }
    EXPECT_GT(reused, 30);  // the warm path ran
}

}  // namespace
}  // namespace contact
