// SPDX-License-Identifier: MIT
// The fast search against the exhaustive reference, and the contract of docs/design.md.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "contact/segment.hpp"

#include "eigen_checks.hpp"
#include "float_box.hpp"
#include "pair_columns.hpp"
#include "scenes.hpp"
#include "surfaces.hpp"
#include "warm_checks.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace contact {
namespace {

using testing::columns;
using testing::PairColumns;

using testing::addCurve;
using testing::addPatch;
using testing::allNear;
using testing::Mesh;

// A model: nodes, a master and a slave surface (possibly the same object for self-contact).
struct Model {
    Mesh mesh;
    Surface master;
    Surface slave;
    bool self = false;
    int dim = 3;
};

struct Scenario {
    std::string name;
    std::function<Model(std::mt19937&)> make;
    double jitter = 1e-3;  ///< random node displacement, below the smallest element size
};
void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

// Jitters every node by up to `amount` in each direction (in-plane only for 2D models).
void jitter(Model& m, std::mt19937& rng, double amount) {
    for (auto& p : m.mesh.nodes) {
        for (int k = 0; k < m.dim; ++k) {
            p[k] += testing::uniform(rng, -amount, amount);
        }
    }
}

// Master: a block face on z = 0 (normal +z). Slave: a patch above it, facing down, at height g
// with waves of amplitude `wave`, so some nodes penetrate and some are beyond the capture distance.
Model wavyPlanes(std::mt19937& rng, SegmentType mt, SegmentType st, int nm, int ns, double wave,
                 bool mixed = false) {
    Model m;
    const double g = testing::uniform(rng, -0.02, 0.05);
    const double phase = testing::uniform(rng, 0, 6.28);
    m.master = addPatch(
        m.mesh, mt, nm, nm,
        [](double u, double v) { return Eigen::Vector3d(2 * u - 1, 2 * v - 1, 0.0); }, false,
        "master", mixed);
    m.slave = addPatch(
        m.mesh, st, ns, ns,
        [=](double u, double v) {
            const double x = 2.2 * u - 1.1;
            const double y = 2.2 * v - 1.1;
            return Eigen::Vector3d(x, y, g + wave * std::sin(3 * x + phase) * std::cos(2 * y));
        },
        true, "slave", mixed);
    return m;
}

// Curved master: a cylinder (axis y) of radius 1 below the slave plane; curved slave above.
Model curved(std::mt19937& rng, SegmentType mt, SegmentType st, int nm, int ns) {
    Model m;
    const double g = testing::uniform(rng, -0.03, 0.03);
    m.master = addPatch(
        m.mesh, mt, nm, nm,
        [](double u, double v) {
            const double a = (u - 0.5) * 1.6;
            return Eigen::Vector3d(std::sin(a), 2 * v - 1, std::cos(a) - 1.0);
        },
        false, "cylinder", false);
    m.slave = addPatch(
        m.mesh, st, ns, ns,
        [=](double u, double v) {
            const double x = 1.8 * u - 0.9;
            const double y = 2.2 * v - 1.1;
            return Eigen::Vector3d(x, y, g - 0.2 * x * x + 0.1 * y * y);
        },
        true, "slave", false);
    return m;
}

// Master element sizes graded 1000x along x; slave uniform.
Model graded(std::mt19937& rng, SegmentType mt, SegmentType st) {
    Model m;
    const double g = testing::uniform(rng, 0.0, 0.01);
    m.master = addPatch(
        m.mesh, mt, 40, 6,
        [](double u, double v) {
            return Eigen::Vector3d(2 * testing::graded(u, 1000.0) - 1, 2 * v - 1, 0.0);
        },
        false, "graded", false);
    m.slave = addPatch(
        m.mesh, st, 25, 25,
        [=](double u, double v) {
            return Eigen::Vector3d(2 * u - 1, 2 * v - 1, g + 0.01 * std::sin(9 * u));
        },
        true, "slave", false);
    return m;
}

// 2D: master a line on y = 0 (block below, normal +y: traversed right to left), slave a wavy
// line above traversed left to right... facing down.
Model lines2d(std::mt19937& rng, SegmentType mt, SegmentType st, int nm, int ns, double grading) {
    Model m;
    m.dim = 2;
    const double g = testing::uniform(rng, -0.02, 0.04);
    m.master = addCurve(
        m.mesh, mt, nm,
        [=](double u) {
            return Eigen::Vector2d(1 - 2 * testing::graded(u, grading), 0.02 * std::sin(5 * u));
        },
        false, "master");
    m.slave = addCurve(
        m.mesh, st, ns,
        [=](double u) {
            const double x = 2.2 * u - 1.1;
            return Eigen::Vector2d(x, g + 0.05 * std::sin(4 * x));
        },
        false, "slave");
    return m;
}

// Self-contact: a U-shaped strip (two walls about 0.01 apart joined by a bend), one surface.
Model uShape(std::mt19937& rng, SegmentType type, int dim, int cells) {
    Model m;
    m.dim = dim;
    m.self = true;
    const double gap = 0.01 + testing::uniform(rng, -0.002, 0.002);
    // Path: bottom wall left-to-right at y = 0, half circle, top wall right-to-left at y = gap.
    const auto path = [gap](double u) -> Eigen::Vector2d {
        const double l = 2.0;
        const double arc = M_PI * gap / 2;
        const double s = u * (2 * l + arc);
        if (s <= l) {
            return {s - 1, 0.0};
        }
        if (s <= l + arc) {
            const double a = (s - l) / (gap / 2) - M_PI / 2;
            return {1 + gap / 2 * std::cos(a), gap / 2 + gap / 2 * std::sin(a)};
        }
        return {1 - (s - l - arc), gap};
    };
    if (dim == 2) {
        m.master = addCurve(m.mesh, type, cells, path, true, "strip");
    } else {
        m.master = addPatch(
            m.mesh, type, cells, 3,
            [&](double u, double v) {
                const Eigen::Vector2d p = path(u);
                return Eigen::Vector3d(p.x(), p.y(), v);
            },
            false, "strip", false);
    }
    m.slave = m.master;
    return m;
}

// Sorted (slave, master) sets are equal and every gap matches bit for bit: the same kernel sees
// the same inputs in both searches.
void expectSamePairs(const PairColumns& fast, const PairColumns& ref, bool nodeMode) {
    ASSERT_EQ(fast.size(), ref.size());
    for (Index i = 0; i < fast.size(); ++i) {
        ASSERT_EQ(fast.slave[i], ref.slave[i]) << "pair " << i;
        ASSERT_EQ(fast.master[i], ref.master[i]) << "pair " << i << ", slave " << fast.slave[i];
        if (nodeMode) {
            const NodePairs& a = *fast.node;
            const NodePairs& b = *ref.node;
            EXPECT_EQ(a.gap()[i], b.gap()[i]) << "pair " << i;
            EXPECT_EQ(a.distance()[i], b.distance()[i]);
            EXPECT_TRUE(allNear(a.normal().col(i), b.normal().col(i), 0.0));
            EXPECT_TRUE(allNear(a.xi().col(i), b.xi().col(i), 0.0));
            EXPECT_TRUE(allNear(a.point().col(i), b.point().col(i), 0.0));
            EXPECT_TRUE(allNear(a.tangent1().col(i), b.tangent1().col(i), 0.0));
            EXPECT_TRUE(allNear(a.tangent2().col(i), b.tangent2().col(i), 0.0));
            EXPECT_TRUE(allNear(a.shape().col(i), b.shape().col(i), 0.0));
            EXPECT_EQ(a.status()[i], b.status()[i]);
        }
    }
}

SearchOptions optionsFor(const Model& m, SearchMode mode, double capture, int threads = 1) {
    SearchOptions o;
    o.mode = mode;
    o.capture = capture;
    o.captureRelative = true;
    o.selfContact = m.self;
    o.threads = threads;
    return o;
}

UpdateStats runFast(const Model& m, ContactSearch& search) {
    if (m.dim == 3) {
        const Eigen::Matrix3Xd x = m.mesh.coords3();
        search.setSurfaces(m.master, m.slave, x);
        return search.update(x);
    }
    const Eigen::Matrix2Xd x = m.mesh.coords2();
    search.setSurfaces(m.master, m.slave, x);
    return search.update(x);
}

ReferenceResult runReference(const Model& m, const SearchOptions& o) {
    if (m.dim == 3) {
        return referenceSearch(m.master, m.slave, m.mesh.coords3(), o);
    }
    return referenceSearch(m.master, m.slave, m.mesh.coords2(), o);
}

// After an update of `search` at x (stats st): the same pairs and stage counts as a fresh search
// at x; with `reference`, also the same pairs as the exhaustive reference.
// sameSurvivors: false where the OBB survivor count may differ (node mode with moving masters:
// the reused list keeps their OBB axes); the pairs must be the same in every case.
// With o.warmStart in node mode, the values are those of the fresh search (warmStart off) within
// the bound of warm_checks.hpp (and the warm path may visit a few more masters near a tie).
void expectSameAsFreshSearch(const ContactSearch& search, const UpdateStats& st, const Model& m,
                             const SearchOptions& o, const Eigen::Matrix3Xd& x, bool reference,
                             bool sameSurvivors = true) {
    const bool nodeMode = o.mode == SearchMode::kNodeToSegment;
    const bool warm = nodeMode && o.warmStart;
    SearchOptions cold = o;
    cold.warmStart = false;
    ContactSearch fresh(cold);
    fresh.setSurfaces(m.master, m.slave, x);
    const UpdateStats fs = fresh.update(x);
    EXPECT_TRUE(fs.rebuilt);
    if (warm) {
        testing::expectWithinWarmBound(search.nodePairs(), fresh.nodePairs(), m.master, x);
    } else {
        expectSamePairs(columns(search), columns(fresh), nodeMode);
    }
    EXPECT_EQ(st.candidates, fs.candidates);
    if (sameSurvivors && !warm) {
        EXPECT_EQ(st.satSurvivors, fs.satSurvivors);
    }
    if (reference) {
        const ReferenceResult ref = referenceSearch(m.master, m.slave, x, cold);
        if (warm) {
            testing::expectWithinWarmBound(search.nodePairs(), ref.nodePairs, m.master, x);
        } else {
            expectSamePairs(columns(search), columns(ref), nodeMode);
        }
    }
}

class VsReference : public ::testing::TestWithParam<Scenario> {};

TEST_P(VsReference, SameSortedPairsGapsAndStageCounts) {
    const Scenario& sc = GetParam();
    for (unsigned seed = 1; seed <= 3; ++seed) {
        for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
            for (double capture : {0.05, 0.3, 1.0}) {
                SCOPED_TRACE(
                    "seed " + std::to_string(seed) + ", capture " + std::to_string(capture) +
                    (mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode"));
                std::mt19937 rng(seed);
                Model m = sc.make(rng);
                jitter(m, rng, sc.jitter);
                SearchOptions o = optionsFor(m, mode, capture);
                // The three broad phases, one per seed.
                o.broadPhase = static_cast<BroadPhaseKind>(seed % 3);
                ContactSearch search(o);
                const UpdateStats st = runFast(m, search);
                ASSERT_EQ(st.status, UpdateStatus::kOk);
                const ReferenceResult ref = runReference(m, o);
                EXPECT_EQ(search.captureDistance(), ref.captureDistance);
                expectSamePairs(columns(search), columns(ref), mode == SearchMode::kNodeToSegment);
                EXPECT_EQ(st.candidates, ref.candidates);
                if (mode == SearchMode::kNodeToSegment) {
                    EXPECT_LE(st.satSurvivors, ref.satSurvivors);  // OBB tests run lazily
                } else {
                    EXPECT_EQ(st.satSurvivors, ref.satSurvivors);
                }
                EXPECT_LE(st.satSurvivors, st.candidates);
                EXPECT_LE(st.candidates, st.listSize);
                if (capture >= 0.3) {
                    EXPECT_GT(columns(search).size(), 0) << "scene too far apart to test anything";
                }
                if (mode == SearchMode::kNodeToSegment) {
                    // Nearest-first with lower bounds: at least one projection per paired node,
                    // and (capture >= 0.3: several survivors per node) fewer than the survivors.
                    EXPECT_GE(st.projections, static_cast<long long>(columns(search).size()));
                    EXPECT_LE(st.projections, st.satSurvivors);
                    if (capture >= 0.3) {
                        EXPECT_LT(st.projections, ref.satSurvivors);
                    }
                }
            }
        }
    }
}

const Scenario kScenarios[] = {
    {"FlatQuad4",
     [](std::mt19937& r) {
         return wavyPlanes(r, SegmentType::Quad4, SegmentType::Quad4, 12, 9, 0.0);
     }},
    {"WavyQuad4OnTri3",
     [](std::mt19937& r) {
         return wavyPlanes(r, SegmentType::Quad4, SegmentType::Tri3, 10, 13, 0.05);
     }},
    {"WavyTri6OnQuad8",
     [](std::mt19937& r) {
         return wavyPlanes(r, SegmentType::Tri6, SegmentType::Quad8, 6, 7, 0.05);
     }},
    {"WavyQuad9OnQuad9",
     [](std::mt19937& r) {
         return wavyPlanes(r, SegmentType::Quad9, SegmentType::Quad9, 5, 6, 0.08);
     }},
    {"MixedQuad4Tri3",
     [](std::mt19937& r) {
         return wavyPlanes(r, SegmentType::Quad4, SegmentType::Quad4, 9, 11, 0.04, true);
     }},
    {"CylinderQuad8",
     [](std::mt19937& r) { return curved(r, SegmentType::Quad8, SegmentType::Quad4, 8, 10); }},
    {"CylinderTri3",
     [](std::mt19937& r) { return curved(r, SegmentType::Tri3, SegmentType::Tri6, 10, 6); }},
    {"Graded1000xQuad4",
     [](std::mt19937& r) { return graded(r, SegmentType::Quad4, SegmentType::Quad4); }, 1e-5},
    {"Lines2dLine2",
     [](std::mt19937& r) {
         return lines2d(r, SegmentType::Line2, SegmentType::Line2, 30, 41, 1.0);
     }},
    {"Lines2dLine3",
     [](std::mt19937& r) {
         return lines2d(r, SegmentType::Line3, SegmentType::Line3, 17, 23, 1.0);
     }},
    {"Lines2dGraded1000x",
     [](std::mt19937& r) {
         return lines2d(r, SegmentType::Line2, SegmentType::Line3, 60, 30, 1000.0);
     },
     1e-5},
    {"SelfContactU2d", [](std::mt19937& r) { return uShape(r, SegmentType::Line2, 2, 80); }},
    {"SelfContactU3dQuad4", [](std::mt19937& r) { return uShape(r, SegmentType::Quad4, 3, 50); }},
    {"SelfContactU3dTri6", [](std::mt19937& r) { return uShape(r, SegmentType::Tri6, 3, 24); }},
};

INSTANTIATE_TEST_SUITE_P(Scenes, VsReference, ::testing::ValuesIn(kScenarios),
                         [](const auto& info) { return info.param.name; });

// Two flat faces at a known offset: every slave node pairs, with gap = offset and normal +z.
TEST(ContactSearch, ParallelBlocksManufacturedSolution) {
    for (SegmentType type : {SegmentType::Quad4, SegmentType::Tri3, SegmentType::Quad8,
                             SegmentType::Quad9, SegmentType::Tri6}) {
        SCOPED_TRACE(segmentTypeName(type));
        for (double offset : {0.01, 0.0, -0.01}) {
            Mesh mesh;
            const Surface master = addPatch(
                mesh, type, 8, 8, [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); },
                false, "lower");
            const Surface slave = addPatch(
                mesh, SegmentType::Quad4, 5, 5,
                [=](double u, double v) {
                    return Eigen::Vector3d(0.1 + 0.8 * u, 0.1 + 0.8 * v, offset);
                },
                true, "upper");
            SearchOptions o;
            o.capture = 0.05;
            o.captureRelative = false;
            ContactSearch search(o);
            const Eigen::Matrix3Xd x = mesh.coords3();
            search.setSurfaces(master, slave, x);
            ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
            const NodePairs& p = search.nodePairs();
            ASSERT_EQ(p.size(), 36);
            for (Index i = 0; i < p.size(); ++i) {
                EXPECT_NEAR(p.gap()[i], offset, 1e-14);
                EXPECT_TRUE(allNear(p.normal().col(i), Eigen::Vector3d::UnitZ(), 1e-14));
                double sum = 0.0;
                for (int k = 0; k < kMaxSegmentNodes; ++k) {
                    sum += p.shape()(k, i);
                }
                EXPECT_NEAR(sum, 1.0, 1e-14);
                EXPECT_TRUE(allNear(p.point().col(i) + p.gap()[i] * p.normal().col(i),
                                    x.col(p.slave()[i]), 1e-14));
            }
        }
    }
}

// A cylinder master under a flat slave: gaps agree with the analytic distance to the cylinder
// within the chord error of the facets, R (1 - cos(h / 2R)).
TEST(ContactSearch, CylinderUnderPlaneMatchesAnalyticGap) {
    const double R = 1.0;
    const int n = 40;
    const double span = 1.2;  // radians of the arc
    for (SegmentType type : {SegmentType::Quad4, SegmentType::Quad9}) {
        SCOPED_TRACE(segmentTypeName(type));
        Mesh mesh;
        const Surface master = addPatch(
            mesh, type, n, 3,
            [=](double u, double v) {
                const double a = (u - 0.5) * span;
                return Eigen::Vector3d(R * std::sin(a), v, R * std::cos(a) - R);
            },
            false, "cylinder");
        const double offset = 0.02;
        const Surface slave = addPatch(
            mesh, SegmentType::Quad4, 12, 2,
            [=](double u, double v) {
                return Eigen::Vector3d(0.6 * u - 0.3, 0.25 + 0.5 * v, offset);
            },
            true, "plane");
        SearchOptions o;
        o.capture = 0.1;
        o.captureRelative = false;
        ContactSearch search(o);
        const Eigen::Matrix3Xd x = mesh.coords3();
        search.setSurfaces(master, slave, x);
        ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
        const NodePairs& p = search.nodePairs();
        ASSERT_EQ(p.size(), 13 * 3);
        const double h = span / n;  // angular size of a facet
        const double chordErr =
            R * (1 - std::cos(h / 2)) * (type == SegmentType::Quad4 ? 1.0 : 0.01);
        for (Index i = 0; i < p.size(); ++i) {
            const Eigen::Vector3d s = x.col(p.slave()[i]);
            const double analytic = std::hypot(s.x(), s.z() + R) - R;
            EXPECT_NEAR(p.gap()[i], analytic, chordErr + 1e-12) << "node " << p.slave()[i];
            const Eigen::Vector3d radial = Eigen::Vector3d(s.x(), 0, s.z() + R).normalized();
            EXPECT_GT(p.normal().col(i).dot(radial), std::cos(h))
                << "normal must point out of the master";
        }
    }
}

// A slave node swept over a master patch through edges and vertices, above a convex ridge
// and inside a concave valley: within the capture distance it is paired at every position, and
// the pair agrees with the reference.
TEST(ContactSearch, NodeSweptAcrossEdgesAndCornersIsAlwaysPaired) {
    for (double fold : {0.0, 0.5, -0.5}) {  // flat, convex ridge, concave valley (radians)
        SCOPED_TRACE("fold " + std::to_string(fold));
        Mesh mesh;
        const Surface master = addPatch(
            mesh, SegmentType::Quad4, 4, 4,
            [=](double u, double v) {
                const double x = 2 * u - 1;
                const double z = -std::abs(x) * std::tan(fold);
                return Eigen::Vector3d(x, 2 * v - 1, z);
            },
            false, "ridge");
        const Index node = mesh.add(Eigen::Vector3d::Zero());
        Surface slave;
        slave.name = "probe";
        // A tiny triangle whose first node is the probe; the others sit far above.
        const Index a = mesh.add(Eigen::Vector3d(0, 0, 5));
        const Index b = mesh.add(Eigen::Vector3d(0.1, 0, 5));
        slave.addSegment(SegmentType::Tri3, {node, a, b});
        SearchOptions o;
        o.capture = 0.1;
        o.captureRelative = false;
        ContactSearch search(o);
        Eigen::Matrix3Xd x = mesh.coords3();
        search.setSurfaces(master, slave, x);
        int positions = 0;
        for (int i = 0; i <= 40; ++i) {
            for (int j = 0; j <= 40; ++j) {
                // Steps of 0.05 hit every edge (multiples of 0.5) and vertex exactly.
                const double px = -1 + 0.05 * i;
                const double py = -1 + 0.05 * j;
                const double surfaceZ = -std::abs(px) * std::tan(fold);
                for (double h : {0.0, 0.06, -0.06}) {
                    x.col(node) = Eigen::Vector3d(px, py, surfaceZ + h);
                    const UpdateStats st = search.update(x);
                    ASSERT_EQ(st.status, UpdateStatus::kOk);
                    const ReferenceResult ref = referenceSearch(master, slave, x, o);
                    ASSERT_EQ(columns(ref).size(), 1) << "at " << px << ", " << py << ", h " << h;
                    ASSERT_EQ(columns(search).size(), 1) << "missed at " << px << ", " << py;
                    EXPECT_EQ(search.nodePairs().master()[0], ref.nodePairs.master()[0]);
                    EXPECT_EQ(search.nodePairs().gap()[0], ref.nodePairs.gap()[0]);
                    ++positions;
                }
            }
        }
        EXPECT_EQ(positions, 41 * 41 * 3);
    }
}

// 100 increments of a slave patch sliding and bouncing over a master: small motions reuse the
// Verlet list, large ones rebuild; every increment equals a fresh search and the reference (bit
// for bit without warm starts; with them, node mode on these Quad8 masters within their bound).
TEST(ContactSearch, MovingSequenceEqualsFreshSearchEveryIncrement) {
    std::mt19937 rng(7);
    for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        for (BroadPhaseKind bp :
             {BroadPhaseKind::kKdTree, BroadPhaseKind::kBoxTree, BroadPhaseKind::kSweep}) {
            const bool warm = mode == SearchMode::kNodeToSegment && bp != BroadPhaseKind::kSweep;
            SCOPED_TRACE(mode == SearchMode::kNodeToSegment ? "node mode" : "segment mode");
            SCOPED_TRACE("broad phase " + std::to_string(static_cast<int>(bp)) +
                         (warm ? ", warm starts" : ""));
            Model m = wavyPlanes(rng, SegmentType::Quad8, SegmentType::Quad4, 6, 9, 0.03);
            SearchOptions o = optionsFor(m, mode, 0.3);
            o.skinRelative = 0.2;
            o.broadPhase = bp;
            o.warmStart = warm;
            ContactSearch search(o);
            Eigen::Matrix3Xd x0 = m.mesh.coords3();
            search.setSurfaces(m.master, m.slave, x0);
            Eigen::Matrix3Xd x = x0;
            std::vector<Index> slaveNodeSet = m.slave.connectivity;
            std::sort(slaveNodeSet.begin(), slaveNodeSet.end());
            slaveNodeSet.erase(std::unique(slaveNodeSet.begin(), slaveNodeSet.end()),
                               slaveNodeSet.end());
            int reused = 0;
            int rebuilt = 0;
            Eigen::Vector3d shift = Eigen::Vector3d::Zero();
            for (int inc = 0; inc < 100; ++inc) {
                SCOPED_TRACE("increment " + std::to_string(inc));
                const bool large = inc % 10 == 9;
                const double step = large ? 0.2 : 0.004;
                shift += step * testing::randomUnitVector(rng);
                shift.z() = std::clamp(shift.z(), -0.05, 0.1);
                for (Index i = 0; i < static_cast<Index>(x.cols()); ++i) {
                    x.col(i) = x0.col(i);
                }
                for (Index s : slaveNodeSet) {
                    x.col(s) += shift;
                }
                const UpdateStats st = search.update(x);
                ASSERT_EQ(st.status, UpdateStatus::kOk);
                (st.rebuilt ? rebuilt : reused) += 1;
                expectSameAsFreshSearch(search, st, m, o, x, inc % 10 == 0);
            }
            EXPECT_GT(reused, 50) << "small motions must take the reuse path";
            EXPECT_GE(rebuilt, 10) << "large motions must rebuild";
        }
    }
}

// Node mode keeps the master OBB axes while the list is reused. Masters that turn and bend a little
// every increment (so the kept axes are no longer their face frames, and the boxes along them are
// looser) must still give the pairs of a fresh search every increment, and the reference's.
TEST(ContactSearch, NodeModeReuseWithTurningMastersEqualsFreshSearch) {
    std::mt19937 rng(11);
    for (SegmentType mt : {SegmentType::Quad4, SegmentType::Quad8, SegmentType::Tri3}) {
        for (BroadPhaseKind bp : {BroadPhaseKind::kKdTree, BroadPhaseKind::kBoxTree}) {
            // Warm starts (they change only the Quad8 masters' results) with the kd-tree.
            const bool warm = bp == BroadPhaseKind::kKdTree;
            SCOPED_TRACE(std::string("master ") + segmentTypeName(mt) + ", broad phase " +
                         std::to_string(static_cast<int>(bp)) + (warm ? ", warm starts" : ""));
            Model m = wavyPlanes(rng, mt, SegmentType::Quad4, 6, 9, 0.03);
            SearchOptions o = optionsFor(m, SearchMode::kNodeToSegment, 0.3);
            o.skinRelative = 0.2;
            o.broadPhase = bp;
            o.warmStart = warm;
            ContactSearch search(o);
            const Eigen::Matrix3Xd x0 = m.mesh.coords3();
            search.setSurfaces(m.master, m.slave, x0);
            // The capture distance was fixed from the mean master size at setSurfaces; bending
            // changes that size, so the fresh searches get the same distance as a length.
            SearchOptions fixedCapture = o;
            fixedCapture.capture = search.captureDistance();
            fixedCapture.captureRelative = false;
            std::vector<Index> masterNodes = m.master.connectivity;
            std::sort(masterNodes.begin(), masterNodes.end());
            masterNodes.erase(std::unique(masterNodes.begin(), masterNodes.end()),
                              masterNodes.end());
            const Eigen::Vector3d axis = Eigen::Vector3d(1.0, 0.6, 0.2).normalized();
            int reused = 0;
            int rebuilt = 0;
            Eigen::Matrix3Xd x = x0;
            for (int inc = 0; inc < 60; ++inc) {
                SCOPED_TRACE("increment " + std::to_string(inc));
                // Small turns and bends; every 15th increment a jump there and back (rebuilds).
                const double angle = 0.05 * std::sin(0.1 * inc) + (inc % 15 == 14 ? 0.15 : 0.0);
                const double bend = 0.02 * std::sin(0.13 * inc);
                const Eigen::Matrix3d r = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
                for (Index n : masterNodes) {
                    Eigen::Vector3d p = r * x0.col(n);
                    p.z() += bend * (p.x() * p.x() - p.y());
                    x.col(n) = p;
                }
                const UpdateStats st = search.update(x);
                ASSERT_EQ(st.status, UpdateStatus::kOk);
                (st.rebuilt ? rebuilt : reused) += 1;
                expectSameAsFreshSearch(search, st, m, fixedCapture, x, inc % 10 == 0, false);
                EXPECT_GT(st.pairs, 0);
            }
            EXPECT_GT(reused, 30) << "small motions must take the reuse path";
            EXPECT_GE(rebuilt, 6) << "the jumps must rebuild";
        }
    }
}

// Bit-identical results, in the same order, for 1 and 2 threads; node mode also with many blocks
// of work (64 to 1024 slave nodes each), some of whose nodes find no pair, so blocks must be closed
// up before their frames are filled in, in 3D and 2D, on linear and quadratic masters, and in
// self-contact.
TEST(ContactSearch, SameResultsForOneAndTwoThreads) {
    std::mt19937 rng(8);
    struct Run {
        Model m;
        SearchMode mode;
        double capture;  // relative
    };
    std::vector<Run> runs;
    for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        runs.push_back(
            {wavyPlanes(rng, SegmentType::Quad4, SegmentType::Tri3, 40, 45, 0.05), mode, 0.5});
    }
    runs.push_back({wavyPlanes(rng, SegmentType::Quad4, SegmentType::Tri3, 70, 110, 0.05),
                    SearchMode::kNodeToSegment, 0.5});
    runs.push_back({lines2d(rng, SegmentType::Line2, SegmentType::Line2, 500, 5000, 1.0),
                    SearchMode::kNodeToSegment, 12.0});
    runs.push_back({wavyPlanes(rng, SegmentType::Quad8, SegmentType::Quad4, 30, 60, 0.05),
                    SearchMode::kNodeToSegment, 0.5});
    // Self-contact: the exclusion sets are read block by block, each chunk of threads from its own.
    for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        runs.push_back({uShape(rng, SegmentType::Quad4, 3, 200), mode, 0.5});
    }
    for (const Run& r : runs) {
        const Model& m = r.m;
        ContactSearch one(optionsFor(m, r.mode, r.capture, 1));
        ContactSearch two(optionsFor(m, r.mode, r.capture, 2));
        const UpdateStats a = runFast(m, one);
        const UpdateStats b = runFast(m, two);
        ASSERT_GT(columns(one).size(), 100);
        if (r.mode == SearchMode::kNodeToSegment && one.slaveNodes().size() > 4000) {
            EXPECT_GT(columns(one).size(), static_cast<Index>(one.slaveNodes().size() / 4));
            EXPECT_LT(columns(one).size(), static_cast<Index>(one.slaveNodes().size()))
                << "some slave nodes must find no pair";
        }
        EXPECT_EQ(a.candidates, b.candidates);
        EXPECT_EQ(a.listSize, b.listSize);
        expectSamePairs(columns(two), columns(one), r.mode == SearchMode::kNodeToSegment);
    }
}

// The sort and sweep runs on curves (2D) and on small surfaces, and falls back to the box tree on a
// surface where a slab holds many boxes; the pairs are those of the kd-tree search either way.
TEST(ContactSearch, SweepOnCurvesTreeFallbackOnLargeSurfaces) {
    std::mt19937 rng(10);
    struct Run {
        Model m;
        bool swept;
    };
    std::vector<Run> runs;
    runs.push_back({lines2d(rng, SegmentType::Line2, SegmentType::Line2, 400, 300, 20.0), true});
    runs.push_back({uShape(rng, SegmentType::Line2, 2, 300), true});
    runs.push_back({wavyPlanes(rng, SegmentType::Quad4, SegmentType::Quad4, 4, 5, 0.05), true});
    runs.push_back({wavyPlanes(rng, SegmentType::Quad4, SegmentType::Tri3, 60, 50, 0.05), false});
    for (const Run& r : runs) {
        for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
            SCOPED_TRACE(std::string(r.m.dim == 2 ? "2D" : "3D") + (r.m.self ? ", self" : "") +
                         (mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode"));
            SearchOptions o = optionsFor(r.m, mode, 1.5, 2);
            o.broadPhase = BroadPhaseKind::kKdTree;
            ContactSearch kd(o);
            o.broadPhase = BroadPhaseKind::kSweep;
            ContactSearch sweep(o);
            const UpdateStats a = runFast(r.m, kd);
            const UpdateStats b = runFast(r.m, sweep);
            EXPECT_FALSE(a.swept);
            EXPECT_EQ(b.swept, r.swept);
            ASSERT_GT(columns(kd).size(), 10);
            EXPECT_EQ(a.listSize, b.listSize);
            EXPECT_EQ(a.candidates, b.candidates);
            expectSamePairs(columns(sweep), columns(kd), mode == SearchMode::kNodeToSegment);
        }
    }
}

// A slave given as a node list (Abaqus TYPE=NODE surfaces) searches exactly like the surface
// holding those nodes.
TEST(ContactSearch, SlaveNodeListEqualsSlaveSurface) {
    std::mt19937 rng(9);
    Model m = wavyPlanes(rng, SegmentType::Quad4, SegmentType::Quad8, 8, 6, 0.04);
    const Eigen::Matrix3Xd x = m.mesh.coords3();
    const SearchOptions o = optionsFor(m, SearchMode::kNodeToSegment, 0.5);
    ContactSearch bySurface(o);
    bySurface.setSurfaces(m.master, m.slave, x);
    ASSERT_EQ(bySurface.update(x).status, UpdateStatus::kOk);
    std::vector<Index> nodes = m.slave.connectivity;  // unsorted, with repeats
    ContactSearch byNodes(o);
    byNodes.setSurfaces(m.master, nodes, x);
    ASSERT_EQ(byNodes.update(x).status, UpdateStatus::kOk);
    ASSERT_GT(columns(byNodes).size(), 0);
    expectSamePairs(columns(byNodes), columns(bySurface), true);
    expectSamePairs(columns(byNodes), columns(referenceSearch(m.master, nodes, x, o)), true);
    SearchOptions seg = o;
    seg.mode = SearchMode::kSegmentToSegment;
    ContactSearch segment(seg);
    EXPECT_THROW(segment.setSurfaces(m.master, nodes, x), std::invalid_argument);
    nodes.push_back(static_cast<Index>(x.cols()));
    EXPECT_THROW(byNodes.setSurfaces(m.master, nodes, x), std::invalid_argument);
}

// The self-contact rule by brute force, for slave nodes on the master: node p never pairs with a
// master segment sharing a node with a master segment that holds p (its two-ring); of the others,
// the closest (ties: the lower index), within the capture distance.
std::vector<std::pair<Index, Index>>
selfNodePairsByBruteForce(const Surface& master, const std::vector<Index>& nodes,
                          const CoordinatesView& x, double capture, std::vector<double>& gaps) {
    std::vector<std::pair<Index, Index>> pairs;
    for (const Index p : nodes) {
        std::vector<Index> ring;  // the nodes of every master segment holding p
        for (Index j = 0; j < master.size(); ++j) {
            const Index* n = master.nodes(j);
            if (std::find(n, n + nodeCount(master.types[j]), p) != n + nodeCount(master.types[j])) {
                ring.insert(ring.end(), n, n + nodeCount(master.types[j]));
            }
        }
        Projection best;
        Index bestJ = kNoIndex;
        for (Index j = 0; j < master.size(); ++j) {
            const Index* n = master.nodes(j);
            const bool shares = std::any_of(n, n + nodeCount(master.types[j]), [&](Index q) {
                return std::find(ring.begin(), ring.end(), q) != ring.end();
            });
            if (shares) {
                continue;
            }
            const Projection pr = closestPoint(gatherSegment(master, j, x), x.node(p));
            if (bestJ == kNoIndex || pr.distance < best.distance) {
                best = pr;
                bestJ = j;
            }
        }
        if (bestJ != kNoIndex && best.distance <= capture) {
            pairs.emplace_back(p, bestJ);
            gaps.push_back(best.gap);
        }
    }
    return pairs;
}

// Self-contact with the slave given as nodes of the master (a U-shaped strip, walls about 0.01
// apart): each node's exclusion ring comes from the master segments holding it, as when the same
// surface is given as the slave. The node list was ignored: every node paired with its own
// segments at gap 0.
TEST(ContactSearch, SelfContactSlaveNodeListExcludesEachNodesRing) {
    for (const int dim : {2, 3}) {
        for (unsigned seed = 1; seed <= 2; ++seed) {
            SCOPED_TRACE(std::to_string(dim) + "D, seed " + std::to_string(seed));
            std::mt19937 rng(seed);
            Model m = uShape(rng, dim == 2 ? SegmentType::Line2 : SegmentType::Quad4, dim, 30);
            jitter(m, rng, 1e-4);
            const Eigen::Matrix3Xd x3 = m.mesh.coords3();
            const Eigen::Matrix2Xd x2 = m.mesh.coords2();
            const CoordinatesView x = dim == 3 ? CoordinatesView(x3) : CoordinatesView(x2);
            std::vector<Index> nodes;  // every other node of the strip
            for (const Index n : m.master.connectivity) {
                if (n % 2 == static_cast<Index>(seed % 2)) {
                    nodes.push_back(n);
                }
            }
            std::sort(nodes.begin(), nodes.end());
            nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
            SearchOptions o = optionsFor(m, SearchMode::kNodeToSegment, 0.5, 2);
            ContactSearch byNodes(o);
            byNodes.setSurfaces(m.master, nodes, x);
            ASSERT_EQ(byNodes.update(x).status, UpdateStatus::kOk);
            std::vector<double> gaps;
            const auto expected =
                selfNodePairsByBruteForce(m.master, nodes, x, byNodes.captureDistance(), gaps);
            const PairColumns got = columns(byNodes);
            ASSERT_GT(expected.size(), nodes.size() / 2) << "the walls should pair most nodes";
            ASSERT_EQ(got.size(), static_cast<Index>(expected.size()));
            for (Index i = 0; i < got.size(); ++i) {
                EXPECT_EQ(got.slave[i], expected[i].first) << "pair " << i;
                EXPECT_EQ(got.master[i], expected[i].second) << "pair " << i;
                EXPECT_NEAR(got.node->gap()[i], gaps[i], 1e-12) << "pair " << i;
                EXPECT_GT(std::abs(got.node->gap()[i]), 0.005) << "a node on its own face";
            }
            expectSamePairs(got, columns(referenceSearch(m.master, nodes, x, o)), true);
            // The same as the slave given as the surface holding those nodes.
            ContactSearch bySurface(o);
            bySurface.setSurfaces(m.master, m.master, x);
            ASSERT_EQ(bySurface.update(x).status, UpdateStatus::kOk);
            Index k = 0;
            const PairColumns all = columns(bySurface);
            for (Index i = 0; i < all.size(); ++i) {
                if (std::binary_search(nodes.begin(), nodes.end(), all.slave[i])) {
                    ASSERT_LT(k, got.size());
                    EXPECT_EQ(got.master[k++], all.master[i]);
                }
            }
            EXPECT_EQ(k, got.size());
        }
    }
}

TEST(ContactSearch, EmptySurfacesGiveNoPairs) {
    Mesh mesh;
    const Surface master = addPatch(
        mesh, SegmentType::Quad4, 2, 2, [](double u, double v) { return Eigen::Vector3d(u, v, 0); },
        false, "master");
    Surface empty;
    empty.name = "empty";
    const Eigen::Matrix3Xd x = mesh.coords3();
    for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SearchOptions o;
        o.mode = mode;
        ContactSearch a(o);
        a.setSurfaces(master, empty, x);
        EXPECT_EQ(a.update(x).pairs, 0);
        ContactSearch b(o);
        b.setSurfaces(empty, master, x);
        const UpdateStats st = b.update(x);
        EXPECT_EQ(st.status, UpdateStatus::kOk);
        EXPECT_EQ(st.pairs, 0);
        EXPECT_EQ(columns(b).size(), 0);
    }
}

// One bad-input case: a mutation of a valid model, and the message it must raise.
struct BadInput {
    std::string name;
    std::function<void(Mesh&, Surface& master, Surface& slave)> mutate;
    std::string message;
};
void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

class SetSurfacesRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(SetSurfacesRejects, WithAMessageNamingSurfaceAndSegment) {
    Mesh mesh;
    Surface master = addPatch(
        mesh, SegmentType::Quad4, 3, 3, [](double u, double v) { return Eigen::Vector3d(u, v, 0); },
        false, "base");
    Surface slave = addPatch(
        mesh, SegmentType::Tri3, 2, 2,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.01); }, true, "punch");
    GetParam().mutate(mesh, master, slave);
    ContactSearch search;
    const Eigen::Matrix3Xd x = mesh.coords3();
    try {
        search.setSurfaces(master, slave, x);
        FAIL() << "no exception";
    } catch (const SurfaceError& e) {
        EXPECT_NE(std::string(e.what()).find(GetParam().message), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("contact::ContactSearch::setSurfaces()"),
                  std::string::npos);
        // The parts say what the message says, for a caller that numbers things otherwise.
        const Surface& named = e.role() == "master" ? master : slave;
        std::string rebuilt =
            "contact::ContactSearch::setSurfaces(): " + e.role() + " surface '" + named.name + "'";
        if (e.segment() != kNoIndex) {
            rebuilt += ", segment " + std::to_string(e.segment()) + " (" +
                       segmentTypeName(named.types[e.segment()]) + ")";
        }
        EXPECT_EQ(rebuilt + ": " + e.problemWith(std::to_string(e.node())), e.what());
        EXPECT_EQ(e.node() != kNoIndex, e.problem().find("%n") != std::string::npos);
        EXPECT_EQ(e.problemWith("id 7").find("%n"), std::string::npos);
    }
}

const BadInput kBadInputs[] = {
    {"NodeOutOfRange",
     [](Mesh& mesh, Surface&, Surface& s) {
         s.connectivity[4] = static_cast<Index>(mesh.nodes.size());
     },
     "slave surface 'punch', segment 1 (Tri3): node index 25 out of range [0, 25)"},
    {"NegativeNode", [](Mesh&, Surface& m, Surface&) { m.connectivity[0] = -3; },
     "master surface 'base', segment 0 (Quad4): node index -3 out of range"},
    {"NaNCoordinate",
     [](Mesh& mesh, Surface& m, Surface&) { mesh.nodes[m.connectivity[5]].y() = std::nan(""); },
     "master surface 'base', segment 0 (Quad4): node 5 has a NaN or Inf coordinate"},
    {"InfCoordinate",
     [](Mesh& mesh, Surface&, Surface& s) { mesh.nodes[s.connectivity[0]].z() = INFINITY; },
     "slave surface 'punch', segment 0 (Tri3): node 16 has a NaN or Inf coordinate"},
    // Finite, but beyond the float range the search keeps its boxes in.
    {"HugeCoordinate",
     [](Mesh& mesh, Surface& m, Surface&) { mesh.nodes[m.connectivity[5]].x() = -2e30; },
     "master surface 'base', segment 0 (Quad4): node 5 has a coordinate beyond +-1e30"},
    {"CollinearTriangle",
     [](Mesh& mesh, Surface&, Surface& s) {
         const Index a = mesh.add({0, 0, 1});
         const Index b = mesh.add({1, 1, 1});
         const Index c = mesh.add({2, 2, 1});
         s.addSegment(SegmentType::Tri3, {a, b, c});
     },
     "slave surface 'punch', segment 8 (Tri3): degenerate"},
    {"RepeatedNode", [](Mesh&, Surface& m, Surface&) { m.connectivity[6] = m.connectivity[5]; },
     "master surface 'base', segment 1 (Quad4): node 5 appears twice (collapsed segment)"},
    {"FoldedQuad",
     [](Mesh&, Surface& m, Surface&) { std::swap(m.connectivity[1], m.connectivity[2]); },
     "master surface 'base', segment 0 (Quad4): degenerate"},
    {"LineInA3dModel",
     [](Mesh&, Surface& m, Surface&) {
         m.addSegment(SegmentType::Line2, {0, 1});
     },
     "master surface 'base', segment 9 (Line2): a 2D segment type with 3D coordinates"},
    {"BadOffsets", [](Mesh&, Surface& m, Surface&) { m.connectivity.pop_back(); },
     "master surface 'base': offsets do not match"},
};

INSTANTIATE_TEST_SUITE_P(Cases, SetSurfacesRejects, ::testing::ValuesIn(kBadInputs),
                         [](const auto& info) { return info.param.name; });

// Two 2 x 2 Quad4 patches facing each other 0.01 apart: every slave node paired.
std::pair<Surface, Surface> facingPatches(Mesh& mesh) {
    Surface master = addPatch(
        mesh, SegmentType::Quad4, 2, 2, [](double u, double v) { return Eigen::Vector3d(u, v, 0); },
        false, "master");
    Surface slave = addPatch(
        mesh, SegmentType::Quad4, 2, 2,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.01); }, true, "slave");
    return {std::move(master), std::move(slave)};
}

TEST(ContactSearch, UpdateReportsBadCoordinatesWithoutThrowing) {
    Mesh mesh;
    const auto [master, slave] = facingPatches(mesh);
    ContactSearch search;
    Eigen::Matrix3Xd x = mesh.coords3();
    EXPECT_EQ(search.update(x).status, UpdateStatus::kNotSetUp);
    search.setSurfaces(master, slave, x);
    EXPECT_EQ(search.update(x).status, UpdateStatus::kOk);
    EXPECT_EQ(columns(search).size(), 9);
    Eigen::Matrix3Xd fewer = x.leftCols(x.cols() - 1);
    EXPECT_EQ(search.update(fewer).status, UpdateStatus::kWrongNodeCount);
    x(2, slave.connectivity[0]) = std::nan("");
    EXPECT_EQ(search.update(x).status, UpdateStatus::kNonFiniteCoordinates);
    EXPECT_EQ(columns(search).size(), 9) << "a failed update keeps the last good pairs";
    x(2, slave.connectivity[0]) = 0.01;
    EXPECT_EQ(search.update(x).status, UpdateStatus::kOk);
    EXPECT_EQ(columns(search).size(), 9);
    // Moved beyond the range of the float boxes (a master node, then a slave node).
    x(0, master.connectivity[0]) = 1e32;
    EXPECT_EQ(search.update(x).status, UpdateStatus::kCoordinatesOutOfRange);
    EXPECT_EQ(columns(search).size(), 9) << "a failed update keeps the last good pairs";
    x(0, master.connectivity[0]) = 0.0;
    x(1, slave.connectivity[0]) = -1e32;
    EXPECT_EQ(search.update(x).status, UpdateStatus::kCoordinatesOutOfRange);
    x(1, slave.connectivity[0]) = 0.0;
    EXPECT_EQ(search.update(x).status, UpdateStatus::kOk);
    EXPECT_EQ(columns(search).size(), 9);
}

// A failed update names its node: the lowest with a NaN or Inf, or the one largest in magnitude,
// among the nodes the search reads (master segments; slave segments, or the slave nodes in node
// mode); a node outside the surfaces is not read.
TEST(ContactSearch, FailedUpdateNamesItsNode) {
    Mesh mesh;
    const Index stray = mesh.add(Eigen::Vector3d(5, 5, 5));  // in no surface
    const auto [master, slave] = facingPatches(mesh);
    const Index m0 = master.connectivity[0];
    const Index m1 = master.connectivity[5];
    const Index s0 = slave.connectivity[2];
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SCOPED_TRACE(mode == SearchMode::kNodeToSegment ? "node mode" : "segment mode");
        SearchOptions o;
        o.mode = mode;
        ContactSearch search(o);
        Eigen::Matrix3Xd x = mesh.coords3();
        search.setSurfaces(master, slave, x);
        UpdateStats st = search.update(x);
        EXPECT_EQ(st.status, UpdateStatus::kOk);
        EXPECT_EQ(st.faultNode, kNoIndex);
        EXPECT_EQ(faultText(st, x), "");

        x(2, stray) = std::nan("");
        st = search.update(x);
        EXPECT_EQ(st.status, UpdateStatus::kOk) << "a node outside the surfaces is not read";
        EXPECT_EQ(st.faultNode, kNoIndex);

        x(0, s0) = std::numeric_limits<double>::infinity();
        x(1, m1) = std::nan("");
        st = search.update(x);
        EXPECT_EQ(st.status, UpdateStatus::kNonFiniteCoordinates);
        EXPECT_EQ(st.faultNode, std::min(s0, m1));
        x(1, m0) = -std::numeric_limits<double>::infinity();
        st = search.update(x);
        EXPECT_EQ(st.faultNode, m0);
        const Eigen::Vector3d p = x.col(m0);
        char expected[128];
        std::snprintf(expected, sizeof expected, "node %d at (%.17g, -inf, %.17g)",
                      static_cast<int>(m0), p.x(), p.z());
        EXPECT_EQ(faultText(st, x), expected);

        x = mesh.coords3();
        x(0, m1) = 1e32;
        x(2, s0) = -3e32;
        x(1, stray) = 9e32;
        st = search.update(x);
        EXPECT_EQ(st.status, UpdateStatus::kCoordinatesOutOfRange);
        EXPECT_EQ(st.faultNode, s0) << "the largest magnitude among the surfaces' nodes";
        x = mesh.coords3();
        EXPECT_EQ(search.update(x).faultNode, kNoIndex);
    }
    // A slave given as nodes: only those nodes of it are read.
    ContactSearch byNodes;
    Eigen::Matrix3Xd x = mesh.coords3();
    byNodes.setSurfaces(master, std::vector<Index>{s0}, x);
    const Index other = slave.connectivity[0] == s0 ? slave.connectivity[1] : slave.connectivity[0];
    x(2, other) = std::nan("");
    EXPECT_EQ(byNodes.update(x).status, UpdateStatus::kOk);
    x(2, s0) = std::nan("");
    const UpdateStats st = byNodes.update(x);
    EXPECT_EQ(st.status, UpdateStatus::kNonFiniteCoordinates);
    EXPECT_EQ(st.faultNode, s0);
    // faultText reads only a node inside the view.
    UpdateStats beyond;
    beyond.faultNode = static_cast<Index>(x.cols());
    EXPECT_EQ(faultText(beyond, x), "");
}

TEST(ContactSearch, RejectsBadOptions) {
    SearchOptions o;
    for (const int threads : {0, -3, kMaxThreads + 1, 1 << 30}) {
        o.threads = threads;
        EXPECT_THROW(ContactSearch{o}, std::invalid_argument) << threads;  // before any OpenMP
    }
    o.threads = kMaxThreads;
    EXPECT_NO_THROW(ContactSearch{o});
    o.threads = 1;
    // Enum values that are none of the enum's (a cast from a solver's integer input).
    SearchOptions badMode;
    badMode.mode = static_cast<SearchMode>(9);
    SearchOptions badIndex;
    badIndex.broadPhase = static_cast<BroadPhaseKind>(7);
    for (const auto& [bad, what] : {std::pair{badMode, "mode 9 is no SearchMode"},
                                    std::pair{badIndex, "broadPhase 7 is no BroadPhaseKind"}}) {
        try {
            const ContactSearch refused(bad);
            ADD_FAILURE() << "no exception: " << what;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    }
    // Surface::addSegment: a type none of SegmentType's, and null nodes.
    Surface added;
    EXPECT_THROW(added.addSegment(static_cast<SegmentType>(42), nullptr, 0), std::invalid_argument);
    EXPECT_THROW(added.addSegment(SegmentType::Tri3, nullptr, 3), std::invalid_argument);
    EXPECT_TRUE(added.empty());
    o.capture = -1;
    o.captureRelative = false;
    ContactSearch search(o);
    Mesh mesh;
    const Surface s = addPatch(
        mesh, SegmentType::Quad4, 1, 1, [](double u, double v) { return Eigen::Vector3d(u, v, 0); },
        false, "s");
    try {
        search.setSurfaces(s, s, mesh.coords3());
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("capture distance must be finite, >= 0"),
                  std::string::npos);
    }
    // Beyond the float range of the boxes: the capture distance, and the skin.
    o.capture = 2e30;
    EXPECT_THROW(ContactSearch(o).setSurfaces(s, s, mesh.coords3()), std::invalid_argument);
    o.capture = 0.1;
    o.skinRelative = 1e31;
    try {
        ContactSearch(o).setSurfaces(s, s, mesh.coords3());
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("skin"), std::string::npos) << e.what();
    }
    Surface t;
    EXPECT_THROW(t.addSegment(SegmentType::Quad8, {0, 1, 2, 3}), std::invalid_argument);
}

// Pairs of double boxes that overlap, touch or stand apart by gaps from 1e-15 to 1e-2 of their
// size, at scales from 1e-3 to 1e6 and far from the origin: the verdict from their float boxes
// is never wrong where it is sure, and unsure only within the margin of touching.
TEST(FloatBoxVerdict, SureOnlyWhereTheFloatBoxesProveIt) {
    std::mt19937 rng(31);
    int unsure = 0;
    int apart = 0;
    int overlap = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const double scale = std::pow(10.0, testing::uniform(rng, -3.0, 6.0));
        const double shift = trial % 3 == 0 ? testing::uniform(rng, -1e4, 1e4) * scale : 0.0;
        Eigen::Vector3d aLo;
        Eigen::Vector3d aHi;
        Eigen::Vector3d bLo;
        Eigen::Vector3d bHi;
        for (int d = 0; d < 3; ++d) {
            aLo[d] = shift + testing::uniform(rng, -1.0, 0.0) * scale;
            aHi[d] = aLo[d] + testing::uniform(rng, 0.1, 1.0) * scale;
            bLo[d] = aLo[d] + testing::uniform(rng, -0.5, 0.5) * scale;
            bHi[d] = bLo[d] + testing::uniform(rng, 0.1, 1.0) * scale;
        }
        // One axis brought to touching, give or take a gap (negative: overlap).
        const int axis = trial % 3;
        const double gap = (trial % 2 == 0 ? 1.0 : -1.0) *
                           std::pow(10.0, testing::uniform(rng, -15.0, -2.0)) * scale;
        const double width = bHi[axis] - bLo[axis];
        bLo[axis] = trial % 4 < 2 ? aHi[axis] + gap : aLo[axis] - gap - width;
        bHi[axis] = bLo[axis] + width;
        if (trial % 50 == 0) {  // exactly touching
            bLo[axis] = aHi[axis];
            bHi[axis] = bLo[axis] + width;
        }
        const bool exact = !(aLo.array() > bHi.array()).any() && !(bLo.array() > aHi.array()).any();
        const detail::FloatBox fa = detail::floatBoxOutward(aLo.data(), aHi.data());
        const detail::FloatBox fb = detail::floatBoxOutward(bLo.data(), bHi.data());
        double largest = 0.0;
        for (const detail::FloatBox& f : {fa, fb}) {
            for (int d = 0; d < 3; ++d) {
                largest = std::max({largest, std::abs(double(f.lo[d])), std::abs(double(f.hi[d]))});
            }
        }
        const double margin = detail::boxMargin(largest);
        ASSERT_GE(margin, 0x1p-22 * largest);
        const detail::BoxVerdict v = detail::floatBoxVerdict(fa, fb, margin);
        SCOPED_TRACE("trial " + std::to_string(trial) + ", gap " + std::to_string(gap / scale));
        if (v == detail::BoxVerdict::kApart) {
            EXPECT_FALSE(exact);
            ++apart;
        } else if (v == detail::BoxVerdict::kOverlap) {
            EXPECT_TRUE(exact);
            ++overlap;
        } else {
            // Some axis within the margin and the float roundings of touching.
            const double reach = 2.0 * margin;
            const Eigen::Array3d ends =
                (bLo - aHi).cwiseAbs().array().min((aLo - bHi).cwiseAbs().array());
            EXPECT_LT(ends.minCoeff(), reach);
            ++unsure;
        }
    }
    EXPECT_GT(apart, 1000);
    EXPECT_GT(overlap, 1000);
    EXPECT_GT(unsure, 1000) << "the near-touching pairs must reach the unsure verdict";
}

// A unit segment at x0 appended to `nodes` and `surface`: the Line2 from (x0, 0) to (x0 + 1, 0), or
// in 3D the Quad4 [x0, x0 + 1] x [0, 1] at z = 0.
void addUnitSegment(std::vector<Eigen::Vector3d>& nodes, Surface& surface, int dim, double x0) {
    const auto n = static_cast<Index>(nodes.size());
    nodes.emplace_back(x0, 0.0, 0.0);
    nodes.emplace_back(x0 + 1.0, 0.0, 0.0);
    if (dim == 2) {
        surface.addSegment(SegmentType::Line2, {n, n + 1});
        return;
    }
    nodes.emplace_back(x0 + 1.0, 1.0, 0.0);
    nodes.emplace_back(x0, 1.0, 0.0);
    surface.addSegment(SegmentType::Quad4, {n, n + 1, n + 2, n + 3});
}

// The fast search (when given) and the reference on the nodes, in 2D from their x and y.
ReferenceResult searchBoth(int dim, const Surface& master, const Surface& slave,
                           const std::vector<Eigen::Vector3d>& nodes, const SearchOptions& o,
                           ContactSearch* search) {
    Eigen::Matrix3Xd x(3, static_cast<Eigen::Index>(nodes.size()));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        x.col(static_cast<Eigen::Index>(i)) = nodes[i];
    }
    const auto run = [&](const auto& coords) {
        if (search != nullptr) {
            search->setSurfaces(master, slave, coords);
            EXPECT_EQ(search->update(coords).status, UpdateStatus::kOk);
        }
        return referenceSearch(master, slave, coords, o);
    };
    if (dim == 2) {
        return run(Eigen::Matrix2Xd(x.topRows<2>()));
    }
    return run(x);
}

// Segment mode keeps its boxes in float: slave segments whose buffered boxes stand a hair before,
// at and a hair past touching the master's are paired exactly as the reference pairs them with
// its double boxes, in 2D and 3D.
TEST(ContactSearch, SegmentModeBoxesWithinAFloatRoundingOfTouching) {
    SearchOptions o;
    o.mode = SearchMode::kSegmentToSegment;
    o.capture = 0.25;
    const std::vector<double> gaps = {-1e-6, -1e-9, -1e-12, -1e-14, 0.0, 1e-14, 1e-12, 1e-9, 1e-6};
    for (int dim : {2, 3}) {
        SCOPED_TRACE(dim == 2 ? "2D" : "3D");
        // Master: the unit segment at 0. Slave i: the same, moved along +x so that the buffered
        // boxes (capture and a rounding pad on every side) touch give or take gaps[i]; the pads are
        // the reference's, found by bisection on its verdict.
        std::vector<Eigen::Vector3d> nodes;
        Surface master;
        addUnitSegment(nodes, master, dim, 0.0);
        const auto pairedAt = [&](double x0) {
            std::vector<Eigen::Vector3d> two = nodes;
            Surface one;
            addUnitSegment(two, one, dim, x0);
            return columns(searchBoth(dim, master, one, two, o, nullptr)).size() > 0;
        };
        double lo = 1.0;                    // paired
        double hi = 1.0 + 4.0 * o.capture;  // not paired
        ASSERT_TRUE(pairedAt(lo));
        ASSERT_FALSE(pairedAt(hi));
        for (int it = 0; it < 200 && std::nextafter(lo, hi) < hi; ++it) {
            const double mid = 0.5 * (lo + hi);
            (pairedAt(mid) ? lo : hi) = mid;
        }
        Surface slave;
        for (double g : gaps) {
            addUnitSegment(nodes, slave, dim, lo + g);
        }
        ContactSearch search(o);
        const ReferenceResult ref = searchBoth(dim, master, slave, nodes, o, &search);
        // The ladder straddles the touching point: the overlapping half is paired, the rest not.
        EXPECT_GT(columns(ref).size(), 0);
        EXPECT_LT(columns(ref).size(), static_cast<Index>(gaps.size()));
        expectSamePairs(columns(search), columns(ref), false);
    }
}

// The search keeps little per slave item: segment mode its fat box and list (the slave boxes and
// OBBs are made when the narrow phase reaches a segment), node mode the node, its float position,
// the slave segment of its normal and list. Measured as the growth of memoryBytes() from a small
// slave surface to a large one.
TEST(ContactSearch, MemoryPerSlaveItemIsItsFatBoxAndList) {
    for (const SearchMode mode : {SearchMode::kSegmentToSegment, SearchMode::kNodeToSegment}) {
        const bool segments = mode == SearchMode::kSegmentToSegment;
        SCOPED_TRACE(segments ? "segment mode" : "node mode");
        SearchOptions o;
        o.mode = mode;
        o.capture = 0.1;
        o.captureRelative = false;
        const auto bytesWith = [&](int n, Index& items) {
            Mesh mesh;
            const Surface master = addPatch(
                mesh, SegmentType::Quad4, 4, 4,
                [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false, "master");
            const Surface slave = addPatch(
                mesh, SegmentType::Quad4, n, n,
                [](double u, double v) { return Eigen::Vector3d(u, v, 0.05); }, true, "slave");
            ContactSearch search(o);
            const Eigen::Matrix3Xd x = mesh.coords3();
            search.setSurfaces(master, slave, x);
            EXPECT_EQ(search.update(x).status, UpdateStatus::kOk);
            EXPECT_GT(columns(search).size(), 0);
            items = segments ? slave.size() : static_cast<Index>(search.slaveNodes().size());
            return static_cast<double>(search.memoryBytes());
        };
        Index small = 0;
        Index large = 0;
        const double perItem =
            (bytesWith(100, large) - bytesWith(10, small)) / static_cast<double>(large - small);
        // Segment mode: fat box 24 + a few bytes of list; node mode: node 4 + position 12 + the
        // slave segment its normal is taken from (the orientation check) 4 + list.
        EXPECT_LT(perItem, segments ? 32.0 : 28.0);
    }
}

// The Verlet list keeps float fat boxes: far from the origin (1e4 m, float ulp ~1e-3 m) with
// elements of 1 m, a 1e-4 m skin and motions near it, every increment still equals a fresh search.
TEST(ContactSearch, FloatFatBoxesFarFromOriginEqualFreshSearch) {
    std::mt19937 rng(23);
    for (SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SCOPED_TRACE(mode == SearchMode::kNodeToSegment ? "node mode" : "segment mode");
        Model m = wavyPlanes(rng, SegmentType::Quad4, SegmentType::Tri3, 8, 9, 0.03);
        for (auto& p : m.mesh.nodes) {
            p = p * 4.0 + Eigen::Vector3d(1e4, -2e4, 1e4);
        }
        SearchOptions o = optionsFor(m, mode, 0.1);
        o.captureRelative = false;  // every node moves: a relative capture would follow the mesh
        o.capture = 0.1;
        o.skinRelative = 2e-4;
        ContactSearch search(o);
        const Eigen::Matrix3Xd x0 = m.mesh.coords3();
        search.setSurfaces(m.master, m.slave, x0);
        int reused = 0;
        for (int inc = 0; inc < 40; ++inc) {
            SCOPED_TRACE("increment " + std::to_string(inc));
            Eigen::Matrix3Xd x = x0;
            const double amount = inc % 4 == 3 ? 1e-2 : 1e-4;
            for (Index i = 0; i < static_cast<Index>(x.cols()); ++i) {
                for (int k = 0; k < 3; ++k) {
                    x(k, i) += testing::uniform(rng, -amount, amount);
                }
            }
            const UpdateStats st = search.update(x);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            reused += st.rebuilt ? 0 : 1;
            SCOPED_TRACE(st.rebuilt ? "rebuilt" : "reused");
            // Node mode: the masters move, so the reused list's kept OBB axes may pass other
            // candidates than a fresh search's (same pairs).
            expectSameAsFreshSearch(search, st, m, o, x, inc % 8 == 0,
                                    mode == SearchMode::kSegmentToSegment);
        }
        EXPECT_GT(reused, 0) << "float fat boxes must still allow reuse";
    }
}

// A reused list keeps the boxes of the masters none of whose nodes moved since the last update.
// Part of the master rises toward the slave while the rest rests, stops, rises past the skin (a
// rebuild), rests while the slave moves, and sinks back: every update equals a fresh search, the
// masters that moved are remade, and only those (node mode: while the OBB axes are kept).
TEST(ContactSearch, ReusedListRemakesTheBoxesOfMovedMastersOnly) {
    struct Case {
        SegmentType master;
        SegmentType slave;
        bool warm;
    };
    const Case cases[] = {{SegmentType::Quad4, SegmentType::Quad4, false},
                          {SegmentType::Quad8, SegmentType::Quad4, true},
                          {SegmentType::Line2, SegmentType::Line2, false},
                          {SegmentType::Line3, SegmentType::Line2, true}};
    // Rise of the moving half and the slave's jitter (along the normal axis), per update.
    const std::pair<double, double> steps[] = {{0.0, 1e-3}, {0.0, 1e-3}, {0.03, 0.0},  {0.03, 1e-3},
                                               {0.0, 0.0},  {0.0, 1e-3}, {0.3, 0.0},   {0.0, 1e-3},
                                               {0.0, 1e-3}, {-0.1, 0.0}, {-0.2, 1e-3}, {0.0, 0.0}};
    for (const auto& [c, threads, mode] :
         {std::tuple(cases[0], 1, SearchMode::kNodeToSegment),
          std::tuple(cases[1], 2, SearchMode::kNodeToSegment),
          std::tuple(cases[2], 1, SearchMode::kNodeToSegment),
          std::tuple(cases[3], 2, SearchMode::kNodeToSegment),
          std::tuple(cases[0], 2, SearchMode::kSegmentToSegment),
          std::tuple(cases[1], 1, SearchMode::kSegmentToSegment),
          std::tuple(cases[3], 1, SearchMode::kSegmentToSegment)}) {
        const bool nodeMode = mode == SearchMode::kNodeToSegment;
        const int dim = c.master == SegmentType::Line2 || c.master == SegmentType::Line3 ? 2 : 3;
        SCOPED_TRACE(std::string(segmentTypeName(c.master)) + " on " + segmentTypeName(c.slave) +
                     (nodeMode ? ", node mode, " : ", segment mode, ") + std::to_string(threads) +
                     " threads");
        std::mt19937 rng(31);
        const Model m = dim == 3 ? wavyPlanes(rng, c.master, c.slave, 8, 9, 0.03)
                                 : lines2d(rng, c.master, c.slave, 12, 15, 1.0);
        SearchOptions o = optionsFor(m, mode, 0.1, threads);
        o.captureRelative = false;
        o.skinRelative = 0.6;  // a skin of 0.1-0.15: the rises of 0.03 reuse the list
        o.warmStart = c.warm;
        const int up = dim - 1;  // the master's normal axis
        const auto view = [dim](const Eigen::Matrix3Xd& x, Eigen::Matrix2Xd& x2) {
            if (dim == 3) {
                return CoordinatesView(x);
            }
            x2 = x.topRows<2>();
            return CoordinatesView(x2);
        };
        Eigen::Matrix3Xd x = m.mesh.coords3();
        // The master's share of each rise: 1 for x <= -0.5, 0 from x = 0 on, linear between.
        std::vector<double> rises(static_cast<std::size_t>(x.cols()), 0.0);
        std::vector<char> isSlave(static_cast<std::size_t>(x.cols()), 0);
        for (Index n : m.master.connectivity) {
            rises[n] = std::clamp(-2.0 * x(0, n), 0.0, 1.0);
        }
        for (Index n : m.slave.connectivity) {
            isSlave[n] = 1;
        }
        for (Eigen::Index n = 0; n < x.cols(); ++n) {
            x(up, n) += isSlave[n] != 0 ? 0.08 : 0.0;  // part beyond the capture until it rises
        }
        Eigen::Matrix2Xd x2;
        ContactSearch search(o);
        search.setSurfaces(m.master, m.slave, view(x, x2));
        const UpdateStats first = search.update(view(x, x2));
        ASSERT_EQ(first.status, UpdateStatus::kOk);
        EXPECT_EQ(first.masterBoxes, m.master.size());
        bool keptAxes = !first.rebuilt;
        int still = 0;    // updates with no master moved, none remade
        int partial = 0;  // updates with some masters moved, only those remade
        int rebuilt = 0;
        for (std::size_t i = 0; i < std::size(steps); ++i) {
            SCOPED_TRACE("update " + std::to_string(i + 1));
            const Eigen::Matrix3Xd last = x;
            for (Eigen::Index n = 0; n < x.cols(); ++n) {
                x(up, n) += rises[n] * steps[i].first;
                x(up, n) +=
                    isSlave[n] != 0 ? testing::uniform(rng, -1.0, 1.0) * steps[i].second : 0.0;
            }
            Index moved = 0;
            for (Index j = 0; j < m.master.size(); ++j) {
                bool any = false;
                for (int k = 0; k < nodeCount(m.master.types[j]); ++k) {
                    const Index n = m.master.nodes(j)[k];
                    any = any || x.col(n) != last.col(n);
                }
                moved += any ? 1 : 0;
            }
            const UpdateStats st = search.update(view(x, x2));
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            EXPECT_GE(st.masterBoxes, moved);
            EXPECT_LE(st.masterBoxes, m.master.size());
            if (keptAxes || !nodeMode) {
                EXPECT_EQ(st.masterBoxes, moved);
                still += moved == 0 ? 1 : 0;
                partial += moved > 0 && moved < m.master.size() ? 1 : 0;
            }
            rebuilt += st.rebuilt ? 1 : 0;
            keptAxes = !st.rebuilt;
            SearchOptions cold = o;
            cold.warmStart = false;
            ContactSearch fresh(cold);
            Eigen::Matrix2Xd f2;
            fresh.setSurfaces(m.master, m.slave, view(x, f2));
            const UpdateStats fs = fresh.update(view(x, f2));
            ASSERT_EQ(fs.status, UpdateStatus::kOk);
            EXPECT_EQ(st.candidates, fs.candidates);  // the kept AABBs are the ones made now
            if (!nodeMode) {
                EXPECT_EQ(st.satSurvivors, fs.satSurvivors);  // and the OBBs
                expectSamePairs(columns(search), columns(fresh), false);
            } else if (c.warm) {
                testing::expectWithinWarmBound(search.nodePairs(), fresh.nodePairs(), m.master,
                                               view(x, f2));
            } else {
                expectSamePairs(columns(search), columns(fresh), true);
            }
        }
        EXPECT_GE(still, 3);
        EXPECT_GE(partial, 1);
        EXPECT_GE(rebuilt, 1);
    }
}

}  // namespace
}  // namespace contact
