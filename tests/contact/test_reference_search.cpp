// SPDX-License-Identifier: MIT
// The exhaustive reference against its own oracle: node mode skips projections by a box bound;
// the obvious loop it replaced (project every node on every segment) must give the same pairs,
// bit for bit, and the same stage counts. Also referenceSearchSample against the whole reference.
#include "contact/bounds.hpp"
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"

#include "detail/pair_store.hpp"
#include "detail/search_common.hpp"
#include "eigen_checks.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"
#include "scenes.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace contact {
namespace {

using detail::FloatBox;
using detail::floatBoxOutward;
using detail::insideFloatBox;
using testing::addCurve;
using testing::addPatch;
using testing::allNear;
using testing::Mesh;
using testing::uniform;

struct Scene {
    Mesh mesh;
    Surface master;
    Surface slave;
    std::vector<Index> slaveNodes;  // non-empty: the slave is this node list
    bool self = false;
    int dim = 3;
};

// The node-mode reference as it was: every slave node projected on every (non-excluded) master
// segment, the closest kept (ties: the lower index); the counters over every pair.
ReferenceResult projectEverywhere(const Scene& sc, const CoordinatesView& x,
                                  const SearchOptions& o) {
    ReferenceResult r;
    r.captureDistance = detail::resolveCapture("oracle", o, detail::meanSegmentSize(sc.master, x));
    const double d = r.captureDistance;
    const std::vector<Index> nodes =
        sc.slaveNodes.empty() ? detail::uniqueNodes(sc.slave) : detail::sortedUnique(sc.slaveNodes);
    std::vector<Index> exclOffsets;
    std::vector<Index> exclNodes;
    if (o.selfContact) {
        detail::exclusionSets(sc.slave, nodes, x.numNodes, true, exclOffsets, exclNodes);
    }
    std::vector<SegmentNodes> seg(sc.master.size());
    std::vector<FloatBox> box(sc.master.size());
    std::vector<Obb3> obb3(sc.master.size());
    std::vector<Obb2> obb2(sc.master.size());
    for (Index j = 0; j < sc.master.size(); ++j) {
        seg[j] = gatherSegment(sc.master, j, x);
        double pad = 0.0;
        const Aabb3 b = detail::bufferedAabb(seg[j], d, pad);
        box[j] = floatBoxOutward(b.lo.data(), b.hi.data());
        obb3[j] =
            detail::unpackObb(detail::centredBufferedObb3(seg[j], d, pad, box[j], nullptr), box[j]);
        obb2[j] = detail::bufferedObb2(seg[j], d, pad);
    }
    detail::PairStore::reserve(r.nodePairs, static_cast<Index>(nodes.size()));
    Index count = 0;
    for (Index k = 0; k < static_cast<Index>(nodes.size()); ++k) {
        const Eigen::Vector3d p = x.node(nodes[k]);
        Projection best;
        Index bestJ = kNoIndex;
        for (Index j = 0; j < sc.master.size(); ++j) {
            if (o.selfContact && detail::sharesNode(sc.master, j, exclNodes.data() + exclOffsets[k],
                                                    exclNodes.data() + exclOffsets[k + 1])) {
                continue;
            }
            if (insideFloatBox(p.data(), p.data(), box[j])) {
                ++r.candidates;
                const bool in =
                    x.dim == 3 ? detail::obbContains(obb3[j], p) : detail::obbContains(obb2[j], p);
                r.satSurvivors += in ? 1 : 0;
            }
            const Projection pr = closestPoint(seg[j], p);
            if (bestJ == kNoIndex || detail::closer(pr.distance, j, best.distance, bestJ)) {
                best = pr;
                bestJ = j;
            }
        }
        if (bestJ != kNoIndex && best.distance <= d) {
            detail::PairStore::store(r.nodePairs, count++, nodes[k], bestJ, best);
        }
    }
    detail::PairStore::setCount(r.nodePairs, count);
    return r;
}

void expectIdentical(const NodePairs& a, const NodePairs& b) {
    ASSERT_EQ(a.size(), b.size());
    for (Index i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a.slave()[i], b.slave()[i]) << "pair " << i;
        ASSERT_EQ(a.master()[i], b.master()[i]) << "pair " << i << ", slave " << a.slave()[i];
        EXPECT_EQ(a.gap()[i], b.gap()[i]);
        EXPECT_EQ(a.distance()[i], b.distance()[i]);
        EXPECT_EQ(a.status()[i], b.status()[i]);
        EXPECT_TRUE(allNear(a.xi().col(i), b.xi().col(i), 0.0));
        EXPECT_TRUE(allNear(a.point().col(i), b.point().col(i), 0.0));
        EXPECT_TRUE(allNear(a.normal().col(i), b.normal().col(i), 0.0));
        EXPECT_TRUE(allNear(a.tangent1().col(i), b.tangent1().col(i), 0.0));
        EXPECT_TRUE(allNear(a.tangent2().col(i), b.tangent2().col(i), 0.0));
        EXPECT_TRUE(allNear(a.shape().col(i), b.shape().col(i), 0.0));
    }
}

ReferenceResult reference(const Scene& sc, const CoordinatesView& x, const SearchOptions& o) {
    return sc.slaveNodes.empty() ? referenceSearch(sc.master, sc.slave, x, o)
                                 : referenceSearch(sc.master, sc.slaveNodes, x, o);
}

constexpr SegmentType kFaces[] = {SegmentType::Tri3, SegmentType::Tri6, SegmentType::Quad4,
                                  SegmentType::Quad8, SegmentType::Quad9};
constexpr SegmentType kLines[] = {SegmentType::Line2, SegmentType::Line3};

// Two wavy patches of random types and sizes, one above the other (3D).
Scene patches(std::mt19937& rng) {
    Scene sc;
    const SegmentType mt = kFaces[rng() % 5];
    const SegmentType st = kFaces[rng() % 5];
    const int nm = 2 + static_cast<int>(rng() % 6);
    const int ns = 2 + static_cast<int>(rng() % 7);
    const double a = uniform(rng, 0.0, 0.3);
    const double g = uniform(rng, -0.1, 0.2);
    const double ph = uniform(rng, 0.0, 6.3);
    sc.master = addPatch(
        sc.mesh, mt, nm, nm,
        [=](double u, double v) {
            return Eigen::Vector3d(2 * u - 1, 2 * v - 1, a * std::sin(3 * u + ph) * v);
        },
        false, "master", rng() % 4 == 0);
    sc.slave = addPatch(
        sc.mesh, st, ns, ns,
        [=](double u, double v) {
            return Eigen::Vector3d(2.4 * u - 1.2, 2.4 * v - 1.2, g + a * std::cos(2 * v + ph) * u);
        },
        true, "slave", false);
    return sc;
}

// A wavy curve over another (2D).
Scene curves(std::mt19937& rng) {
    Scene sc;
    sc.dim = 2;
    const SegmentType mt = kLines[rng() % 2];
    const SegmentType st = kLines[rng() % 2];
    const double a = uniform(rng, 0.0, 0.2);
    const double g = uniform(rng, -0.1, 0.2);
    sc.master = addCurve(
        sc.mesh, mt, 3 + static_cast<int>(rng() % 20),
        [=](double u) { return Eigen::Vector2d(1 - 2 * u, a * std::sin(4 * u)); }, false, "master");
    sc.slave = addCurve(
        sc.mesh, st, 3 + static_cast<int>(rng() % 25),
        [=](double u) { return Eigen::Vector2d(2.4 * u - 1.2, g + a * std::cos(5 * u)); }, false,
        "slave");
    return sc;
}

// Slave nodes exactly above master vertices and edge midpoints of a flat grid: equal distances
// to several segments, where the lower index must win.
Scene ties(std::mt19937& rng) {
    Scene sc;
    const SegmentType mt = rng() % 2 == 0 ? SegmentType::Quad4 : SegmentType::Tri3;
    const int n = 2 + static_cast<int>(rng() % 4);
    sc.master = addPatch(
        sc.mesh, mt, n, n, [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false,
        "grid");
    const double h = uniform(rng, -0.2, 0.2);
    for (int i = 0; i <= 2 * n; ++i) {
        for (int j = 0; j <= 2 * n; ++j) {
            sc.slaveNodes.push_back(sc.mesh.add(Eigen::Vector3d(0.5 * i / n, 0.5 * j / n, h)));
        }
    }
    return sc;
}

// Random segments scattered in a box, a cloud of slave nodes among them.
Scene soup(std::mt19937& rng) {
    Scene sc;
    testing::RandomSegmentOptions opt;
    opt.size = 0.5;
    opt.offset = 1.0;
    const int m = 5 + static_cast<int>(rng() % 30);
    for (int j = 0; j < m; ++j) {
        const SegmentNodes s = testing::randomSegment(kFaces[rng() % 5], rng, opt);
        std::vector<Index> nodes;
        for (int i = 0; i < nodeCount(s.type); ++i) {
            nodes.push_back(sc.mesh.add(s.x[i]));
        }
        sc.master.addSegment(s.type, nodes.data(), static_cast<int>(nodes.size()));
    }
    for (int k = 0; k < 60; ++k) {
        sc.slaveNodes.push_back(sc.mesh.add(Eigen::Vector3d(
            uniform(rng, -1.5, 1.5), uniform(rng, -1.5, 1.5), uniform(rng, -1.5, 1.5))));
    }
    return sc;
}

// Self-contact: a sheet folded back over itself, one surface.
Scene folded(std::mt19937& rng) {
    Scene sc;
    sc.self = true;
    const double gap = uniform(rng, 0.02, 0.1);
    const SegmentType t = kFaces[rng() % 5];
    sc.master = addPatch(
        sc.mesh, t, 12, 2,
        [=](double u, double v) {  // a hairpin: two walls `gap` apart joined by a bend
            const double s = 3 * u - 1;
            if (s < 0) {
                return Eigen::Vector3d(s, v, 0.0);
            }
            if (s > 1) {
                return Eigen::Vector3d(1 - s, v, gap);
            }
            return Eigen::Vector3d(0.5 * gap * std::sin(M_PI * s), v,
                                   0.5 * gap * (1 - std::cos(M_PI * s)));
        },
        false, "sheet");
    sc.slave = sc.master;
    return sc;
}

void jitter(Scene& sc, std::mt19937& rng, double amount) {
    for (auto& p : sc.mesh.nodes) {
        for (int k = 0; k < sc.dim; ++k) {
            p[k] += uniform(rng, -amount, amount);
        }
    }
}

using Maker = Scene (*)(std::mt19937&);

TEST(ReferenceSearch, BoxBoundGivesThePairsOfProjectingEveryNodeOnEverySegment) {
    const std::pair<const char*, Maker> makers[] = {{"patches", patches},
                                                    {"curves", curves},
                                                    {"ties", ties},
                                                    {"soup", soup},
                                                    {"folded", folded}};
    long pairs = 0;
    for (const auto& [name, make] : makers) {
        for (unsigned seed = 1; seed <= 5; ++seed) {
            for (const double capture : {0.02, 0.5, 50.0}) {
                SCOPED_TRACE(std::string(name) + ", seed " + std::to_string(seed) + ", capture " +
                             std::to_string(capture));
                std::mt19937 rng(seed);
                Scene sc = make(rng);
                if (make != ties) {
                    jitter(sc, rng, 1e-3);
                }
                SearchOptions o;
                o.capture = capture;
                o.captureRelative = true;
                o.selfContact = sc.self;
                const Eigen::Matrix3Xd x3 = sc.mesh.coords3();
                const Eigen::Matrix2Xd x2 = sc.mesh.coords2();
                const CoordinatesView x = sc.dim == 3 ? CoordinatesView(x3) : CoordinatesView(x2);
                const ReferenceResult ref = reference(sc, x, o);
                const ReferenceResult old = projectEverywhere(sc, x, o);
                expectIdentical(ref.nodePairs, old.nodePairs);
                EXPECT_EQ(ref.candidates, old.candidates);
                EXPECT_EQ(ref.satSurvivors, old.satSurvivors);
                pairs += ref.nodePairs.size();
            }
        }
    }
    EXPECT_GT(pairs, 2000);  // the scenes pair many nodes, not just a few
}

TEST(ReferenceSearch, SampleGivesTheWholeReferencesPairsOfTheSampledItems) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
        for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
            SCOPED_TRACE("seed " + std::to_string(seed));
            std::mt19937 rng(seed);
            Scene sc = seed % 2 == 0 ? patches(rng) : folded(rng);
            const Eigen::Matrix3Xd x = sc.mesh.coords3();
            SearchOptions o;
            o.capture = 0.5;
            o.mode = mode;
            o.selfContact = sc.self;
            const ReferenceResult whole = referenceSearch(sc.master, sc.slave, x, o);
            const bool nodeMode = mode == SearchMode::kNodeToSegment;
            const std::vector<Index> all =
                nodeMode ? detail::uniqueNodes(sc.slave) : std::vector<Index>{};
            const Index n = nodeMode ? static_cast<Index>(all.size()) : sc.slave.size();
            std::vector<Index> items;
            for (Index i = 0; i < n; ++i) {
                if (rng() % 3 == 0) {
                    items.push_back(nodeMode ? all[i] : i);
                }
            }
            const ReferenceResult part = referenceSearchSample(sc.master, sc.slave, items, x, o);
            // The whole reference's pairs whose slave item was sampled, in order.
            const auto& ws = nodeMode ? whole.nodePairs.slave() : whole.segmentPairs.slave();
            const auto& wm = nodeMode ? whole.nodePairs.master() : whole.segmentPairs.master();
            const auto& ps = nodeMode ? part.nodePairs.slave() : part.segmentPairs.slave();
            const auto& pm = nodeMode ? part.nodePairs.master() : part.segmentPairs.master();
            Index k = 0;
            for (Index i = 0; i < ws.size(); ++i) {
                if (std::binary_search(items.begin(), items.end(), ws[i])) {
                    ASSERT_LT(k, ps.size());
                    EXPECT_EQ(ps[k], ws[i]);
                    EXPECT_EQ(pm[k], wm[i]);
                    if (nodeMode) {
                        EXPECT_EQ(part.nodePairs.gap()[k], whole.nodePairs.gap()[i]);
                    }
                    ++k;
                }
            }
            EXPECT_EQ(k, ps.size());
            EXPECT_GT(k, 0);
        }
    }
}

TEST(ReferenceSearch, SampleOutsideTheSlaveIsRefused) {
    std::mt19937 rng(3);
    Scene sc = patches(rng);
    const Eigen::Matrix3Xd x = sc.mesh.coords3();
    SearchOptions o;
    const Index masterNode = sc.master.connectivity[0];
    try {
        (void)referenceSearchSample(sc.master, sc.slave, {masterNode}, x, o);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("sampled slave node " + std::to_string(masterNode) +
                                             " is not part of the slave surface"),
                  std::string::npos)
            << e.what();
    }
    o.mode = SearchMode::kSegmentToSegment;
    EXPECT_THROW((void)referenceSearchSample(sc.master, sc.slave, {sc.slave.size()}, x, o),
                 std::invalid_argument);
}

// The reference resolves a relative capture distance from the coordinates it is given; a search
// keeps the one of setSurfaces. The probe stretched the master 2x after setSurfaces: the search
// kept 0.125 (no pairs), the reference took 0.25 (25 pairs). With the search's distance given as
// a length, as reference_search.hpp says, the two agree.
TEST(ReferenceSearch, LaterUpdateIsCheckedWithTheSearchsCaptureDistance) {
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        // Node mode pairs a node within the capture distance, segment mode a pair whose boxes,
        // each grown by it, overlap: a gap between 1 and 2 capture distances (0.125, 0.25).
        const double gap = mode == SearchMode::kNodeToSegment ? 0.2 : 0.3;
        Mesh mesh;
        const Surface master = addPatch(
            mesh, SegmentType::Quad4, 4, 4,
            [](double u, double v) { return Eigen::Vector3d(u, v, 0); }, false, "master");
        const Surface slave = addPatch(
            mesh, SegmentType::Quad4, 4, 4,
            [&](double u, double v) { return Eigen::Vector3d(u, v, gap); }, true, "slave");
        const Eigen::Matrix3Xd x = mesh.coords3();
        SearchOptions o;
        o.capture = 0.5;  // x mean master size 0.25: 0.125
        o.mode = mode;
        ContactSearch search(o);
        search.setSurfaces(master, slave, x);
        ASSERT_EQ(search.captureDistance(), 0.125);
        Eigen::Matrix3Xd stretched = x;
        for (const Index n : detail::uniqueNodes(master)) {
            stretched.col(n).head<2>() *= 2.0;  // the master segments twice as large
        }
        ASSERT_EQ(search.update(stretched).status, UpdateStatus::kOk);
        const ReferenceResult relative = referenceSearch(master, slave, stretched, o);
        EXPECT_EQ(relative.captureDistance, 0.25);
        SearchOptions fixed = o;
        fixed.captureRelative = false;
        fixed.capture = search.captureDistance();
        const ReferenceResult ref = referenceSearch(master, slave, stretched, fixed);
        EXPECT_EQ(ref.captureDistance, 0.125);
        if (mode == SearchMode::kNodeToSegment) {
            EXPECT_GT(relative.nodePairs.size(), 0);
            EXPECT_EQ(search.nodePairs().size(), ref.nodePairs.size());
            EXPECT_EQ(ref.nodePairs.size(), 0);
        } else {
            EXPECT_GT(relative.segmentPairs.size(), 0);
            EXPECT_EQ(search.segmentPairs().size(), ref.segmentPairs.size());
            EXPECT_EQ(ref.segmentPairs.size(), 0);
        }
    }
}

}  // namespace
}  // namespace contact
