// SPDX-License-Identifier: MIT
// What a caller can do wrong with the public API, and what it gets: a clear error or a correct
// answer, never a crash or a stale result. Also the coordinate layouts solvers keep.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"

#include "pair_columns.hpp"
#include "surfaces.hpp"
#include "warm_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace contact {
namespace {

using testing::addCurve;
using testing::addPatch;
using testing::columns;
using testing::Mesh;
using testing::PairColumns;

// A wavy master under a flat slave, 3D (Quad4 / Tri3) or 2D (Line2 / Line3): pairs in both modes.
struct Scene {
    Mesh mesh;
    Surface master;
    Surface slave;
};

Scene scene(int dim) {
    Scene s;
    if (dim == 3) {
        s.master = addPatch(
            s.mesh, SegmentType::Quad4, 6, 6,
            [](double u, double v) {
                return Eigen::Vector3d(u, v, 0.03 * std::sin(6.0 * u) * std::cos(5.0 * v));
            },
            false, "master");
        s.slave = addPatch(
            s.mesh, SegmentType::Tri3, 5, 5,
            [](double u, double v) { return Eigen::Vector3d(0.05 + 0.9 * u, 0.9 * v, 0.02); }, true,
            "slave");
    } else {
        s.master = addCurve(
            s.mesh, SegmentType::Line3, 8,
            [](double u) { return Eigen::Vector2d(u, 0.03 * std::sin(7.0 * u)); }, false, "master");
        s.slave = addCurve(
            s.mesh, SegmentType::Line2, 11,
            [](double u) { return Eigen::Vector2d(0.05 + 0.9 * u, 0.02); }, true, "slave");
    }
    return s;
}

SearchOptions options(SearchMode mode) {
    SearchOptions o;
    o.mode = mode;
    o.capture = 0.08;
    o.captureRelative = false;
    return o;
}

// Same (slave, master) lists and, in node mode, bit-identical gaps, normals and local coordinates.
void expectSame(const PairColumns& a, const PairColumns& b) {
    ASSERT_EQ(a.size(), b.size());
    for (Index i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a.slave[i], b.slave[i]) << "pair " << i;
        ASSERT_EQ(a.master[i], b.master[i]) << "pair " << i;
        if (a.node != nullptr && b.node != nullptr) {
            EXPECT_EQ(a.node->gap()[i], b.node->gap()[i]) << "pair " << i;
            EXPECT_EQ(a.node->normal().col(i), b.node->normal().col(i)) << "pair " << i;
            EXPECT_EQ(a.node->xi().col(i), b.node->xi().col(i)) << "pair " << i;
        }
    }
}

const SearchMode kModes[] = {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment};

TEST(ApiSafety, NullCoordinatePointerIsRefusedWithAMessage) {
    const Scene s = scene(3);
    const Eigen::Matrix3Xd x = s.mesh.coords3();
    const Index n = static_cast<Index>(x.cols());
    ContactSearch search;
    for (const CoordinatesView& bad :
         {CoordinatesView(nullptr, n, 3), CoordinatesView::separate(x.data(), nullptr, x.data(), n),
          CoordinatesView::strided(x.data(), 0, n, 3), CoordinatesView(x.data(), n, 4),
          CoordinatesView::strided(x.data(), 1, n, 3),
          CoordinatesView::strided(x.data(), 2, n, 3)}) {
        try {
            search.setSurfaces(s.master, s.slave, bad);
            ADD_FAILURE() << "setSurfaces accepted a bad coordinate view";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("contact::ContactSearch::setSurfaces(): "
                                                 "coordinates: "),
                      std::string::npos)
                << e.what();
        }
        EXPECT_EQ(search.update(bad).status, UpdateStatus::kNotSetUp);
        EXPECT_THROW((void)referenceSearch(s.master, s.slave, bad, SearchOptions{}),
                     std::invalid_argument);
    }
    search.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    const Index before = search.nodePairs().size();
    ASSERT_GT(before, 0);
    EXPECT_EQ(search.update(CoordinatesView(nullptr, n, 3)).status,
              UpdateStatus::kBadCoordinateView);
    EXPECT_EQ(search.update(CoordinatesView::strided(x.data(), -3, n, 3)).status,
              UpdateStatus::kBadCoordinateView);
    EXPECT_EQ(search.nodePairs().size(), before) << "a refused update keeps the last good pairs";
}

// Surfaces passed as temporaries: the search keeps its own copies, so nothing dangles (the
// address sanitizer build catches a reference to a destroyed temporary).
TEST(ApiSafety, TemporarySurfacesAreKept) {
    for (const SearchMode mode : kModes) {
        const Scene s = scene(3);
        const Eigen::Matrix3Xd x = s.mesh.coords3();
        ContactSearch search(options(mode));
        search.setSurfaces(Surface(s.master), Surface(s.slave), x);
        // Fresh allocations of the same size would reuse the temporaries' memory.
        std::vector<Surface> noise(8, scene(3).slave);
        ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
        ASSERT_GT(columns(search).size(), 0);
        expectSame(columns(search), columns(referenceSearch(s.master, s.slave, x, options(mode))));
        EXPECT_EQ(search.master().connectivity, s.master.connectivity);
        EXPECT_EQ(search.slave().connectivity, s.slave.connectivity);
    }
}

// The caller's surface changed after setSurfaces (a segment appended, nodes renumbered): the
// search is not affected; it answers for the surfaces it was given.
TEST(ApiSafety, SurfaceChangedAfterSetSurfacesDoesNotReachTheSearch) {
    for (const SearchMode mode : kModes) {
        Scene s = scene(3);
        const Surface master = s.master;
        const Surface slave = s.slave;
        const Eigen::Matrix3Xd x = s.mesh.coords3();
        ContactSearch search(options(mode));
        search.setSurfaces(s.master, s.slave, x);
        ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
        s.master.addSegment(SegmentType::Quad4, {0, 1, 8, 7});
        s.slave.connectivity.assign(s.slave.connectivity.size(), 0);
        const UpdateStats st = search.update(x);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        EXPECT_EQ(search.master().size(), master.size());
        expectSame(columns(search), columns(referenceSearch(master, slave, x, options(mode))));
    }
}

TEST(ApiSafety, PairsOfTheOtherModeAreRefused) {
    const Scene s = scene(2);
    const Eigen::Matrix2Xd x = s.mesh.coords2();
    ContactSearch node(options(SearchMode::kNodeToSegment));
    node.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(node.update(x).status, UpdateStatus::kOk);
    EXPECT_GT(node.nodePairs().size(), 0);
    EXPECT_THROW((void)node.segmentPairs(), std::logic_error);
    ContactSearch segment(options(SearchMode::kSegmentToSegment));
    segment.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(segment.update(x).status, UpdateStatus::kOk);
    EXPECT_GT(segment.segmentPairs().size(), 0);
    EXPECT_THROW((void)segment.nodePairs(), std::logic_error);
}

// A NaN or Inf at any node of either surface, on the first update and on one that reuses the
// candidate list: refused as non-finite (the boxes once dropped a NaN that was not at a segment's
// first node and paired a NaN gap), and the next good update gives the reference's pairs.
TEST(ApiSafety, NonFiniteCoordinateAtAnyNodeIsRefused) {
    const double bad[] = {std::nan(""), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};
    for (const int dim : {2, 3}) {
        for (const SearchMode mode : kModes) {
            const Scene s = scene(dim);
            const Eigen::MatrixXd good =
                dim == 3 ? Eigen::MatrixXd(s.mesh.coords3()) : Eigen::MatrixXd(s.mesh.coords2());
            const auto view = [dim](const Eigen::MatrixXd& m) {
                return CoordinatesView(m.data(), static_cast<Index>(m.cols()), dim);
            };
            const ReferenceResult reference =
                referenceSearch(s.master, s.slave, view(good), options(mode));
            const PairColumns expected = columns(reference);
            ASSERT_GT(expected.size(), 0);
            std::vector<Index> used = s.master.connectivity;
            used.insert(used.end(), s.slave.connectivity.begin(), s.slave.connectivity.end());
            std::sort(used.begin(), used.end());
            used.erase(std::unique(used.begin(), used.end()), used.end());
            for (const bool reused : {false, true}) {
                ContactSearch search(options(mode));
                search.setSurfaces(s.master, s.slave, view(good));
                for (const Index node : used) {
                    SCOPED_TRACE(
                        "dim " + std::to_string(dim) +
                        (mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode") +
                        ", node " + std::to_string(node) +
                        (reused ? ", list reused" : ", first update"));
                    if (reused) {
                        ASSERT_EQ(search.update(view(good)).status, UpdateStatus::kOk);
                    }
                    Eigen::MatrixXd x = good;
                    x(node % dim, node) = bad[node % 3];
                    EXPECT_EQ(search.update(view(x)).status, UpdateStatus::kNonFiniteCoordinates);
                    ASSERT_EQ(search.update(view(good)).status, UpdateStatus::kOk);
                    expectSame(columns(search), expected);
                }
            }
        }
    }
}

// A search moves with its state (surfaces, candidate list, pairs), in both modes: the moved-to
// search answers every later increment as the original would; the moved-from one is empty (not set
// up, no pairs, default options) and refuses setSurfaces until something is moved into it.
TEST(ApiSafety, MovedSearchKeepsItsStateAndTheMovedFromIsEmpty) {
    static_assert(std::is_nothrow_move_constructible_v<ContactSearch>);
    static_assert(std::is_nothrow_move_assignable_v<ContactSearch>);
    static_assert(!std::is_copy_constructible_v<ContactSearch>);
    for (const SearchMode mode : kModes) {
        const Scene s = scene(3);
        Eigen::Matrix3Xd x = s.mesh.coords3();
        ContactSearch first(options(mode));
        first.setSurfaces(s.master, s.slave, x);
        ASSERT_EQ(first.update(x).status, UpdateStatus::kOk);
        const std::size_t bytes = first.memoryBytes();
        ContactSearch moved(std::move(first));
        EXPECT_EQ(moved.memoryBytes(), bytes);
        EXPECT_EQ(moved.master().size(), s.master.size());
        for (int inc = 0; inc < 3; ++inc) {  // reused list, then a rebuild
            x.row(2).array() += inc == 2 ? 0.05 : 0.001;
            const UpdateStats st = moved.update(x);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            EXPECT_EQ(st.rebuilt, inc == 2);
            ASSERT_GT(columns(moved).size(), 0);
            expectSame(columns(moved),
                       columns(referenceSearch(s.master, s.slave, x, options(mode))));
        }
        // The moved-from search (use after move is what this test is about).
        // NOLINTBEGIN(bugprone-use-after-move)
        EXPECT_EQ(first.update(x).status, UpdateStatus::kNotSetUp);
        EXPECT_TRUE(first.nodePairs().empty());
        EXPECT_TRUE(first.segmentPairs().empty());
        EXPECT_TRUE(first.master().empty());
        EXPECT_TRUE(first.slave().empty());
        EXPECT_TRUE(first.slaveNodes().empty());
        EXPECT_EQ(first.memoryBytes(), 0U);
        EXPECT_EQ(first.options().mode, SearchMode::kNodeToSegment);
        EXPECT_THROW(first.setSurfaces(s.master, s.slave, x), std::logic_error);
        // Move-assigned into, it works again; the search it replaced is gone.
        first = ContactSearch(options(mode));
        first.setSurfaces(s.master, s.slave, x);
        ASSERT_EQ(first.update(x).status, UpdateStatus::kOk);
        expectSame(columns(first), columns(moved));
        moved = std::move(first);
        EXPECT_EQ(first.update(x).status, UpdateStatus::kNotSetUp);
        // NOLINTEND(bugprone-use-after-move)
        ASSERT_EQ(moved.update(x).status, UpdateStatus::kOk);
        expectSame(columns(moved), columns(referenceSearch(s.master, s.slave, x, options(mode))));
    }
}

// Every view has exactly size() entries: nothing beyond the pairs found is reachable.
TEST(ApiSafety, PairViewsHaveThePairCount) {
    const Scene s = scene(3);
    const Eigen::Matrix3Xd x = s.mesh.coords3();
    ContactSearch search(options(SearchMode::kNodeToSegment));
    search.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    const NodePairs& p = search.nodePairs();
    const Index n = p.size();
    ASSERT_GT(n, 0);
    ASSERT_LT(n, static_cast<Index>(search.slaveNodes().size()) + 1);
    EXPECT_EQ(p.slave().size(), n);
    EXPECT_EQ(p.master().size(), n);
    EXPECT_EQ(p.gap().size(), n);
    EXPECT_EQ(p.distance().size(), n);
    EXPECT_EQ(p.status().size(), n);
    EXPECT_EQ(p.xi().cols(), n);
    EXPECT_EQ(p.point().cols(), n);
    EXPECT_EQ(p.normal().cols(), n);
    EXPECT_EQ(p.tangent1().cols(), n);
    EXPECT_EQ(p.tangent2().cols(), n);
    EXPECT_EQ(p.shape().cols(), n);
    for (Index i = 0; i < n; ++i) {
        EXPECT_LE(p.distance()[i], 0.08);
        EXPECT_LE(std::abs(p.gap()[i]), p.distance()[i] * (1 + 1e-12));  // = on the interior
    }
}

// Interleaved, separate x/y/z and strided nodal records give bit-identical results, in 2D and 3D,
// in both modes, over several increments (the Verlet list reused and rebuilt).
TEST(ApiSafety, CoordinateLayoutsGiveIdenticalResults) {
    for (const int dim : {2, 3}) {
        for (const SearchMode mode : kModes) {
            SCOPED_TRACE(std::to_string(dim) + "D, mode " + std::to_string(static_cast<int>(mode)));
            const Scene s = scene(dim);
            const Eigen::Matrix3Xd x3 = s.mesh.coords3();
            const Index n = static_cast<Index>(x3.cols());
            Eigen::Matrix3Xd moved = x3;
            // Separate arrays (as Fortran x(n, 3) or three std::vectors), and records of 7 doubles
            // (x y z, then four other nodal values) for the strided view.
            std::vector<double> sep(3 * static_cast<std::size_t>(n));
            std::vector<double> rec(7 * static_cast<std::size_t>(n), -1.0);
            Eigen::Matrix2Xd x2;
            ContactSearch interleaved(options(mode));
            ContactSearch separate(options(mode));
            ContactSearch strided(options(mode));
            const auto views = [&](int inc) {
                moved = x3;
                for (Index i = 0; i < n; ++i) {  // increments move the slave down and sideways
                    moved.col(i) += Eigen::Vector3d(0.004, 0.002, dim == 3 ? -0.003 : 0.0) * inc;
                    if (dim == 2) {
                        moved(1, i) -= 0.003 * inc;
                    }
                }
                x2 = moved.topRows<2>();
                for (Index i = 0; i < n; ++i) {
                    for (int c = 0; c < 3; ++c) {
                        sep[static_cast<std::size_t>(c) * n + i] = moved(c, i);
                        rec[7 * static_cast<std::size_t>(i) + c] = moved(c, i);
                    }
                }
                const double* z = dim == 3 ? sep.data() + 2 * n : nullptr;
                return std::array<CoordinatesView, 3>{
                    dim == 3 ? CoordinatesView(moved) : CoordinatesView(x2),
                    CoordinatesView::separate(sep.data(), sep.data() + n, z, n),
                    CoordinatesView::strided(rec.data(), 7, n, dim)};
            };
            const auto first = views(0);
            interleaved.setSurfaces(s.master, s.slave, first[0]);
            separate.setSurfaces(s.master, s.slave, first[1]);
            strided.setSurfaces(s.master, s.slave, first[2]);
            for (int inc = 0; inc < 6; ++inc) {
                const auto v = views(inc);
                const UpdateStats a = interleaved.update(v[0]);
                const UpdateStats b = separate.update(v[1]);
                const UpdateStats c = strided.update(v[2]);
                ASSERT_EQ(a.status, UpdateStatus::kOk);
                ASSERT_EQ(b.status, UpdateStatus::kOk);
                ASSERT_EQ(c.status, UpdateStatus::kOk);
                EXPECT_EQ(a.rebuilt, b.rebuilt);
                EXPECT_EQ(a.rebuilt, c.rebuilt);
                ASSERT_GT(columns(interleaved).size(), 0);
                expectSame(columns(separate), columns(interleaved));
                expectSame(columns(strided), columns(interleaved));
                // The reference projects cold: on a reused list the warm starts (the default; the
                // 2D scene has Line3 masters) differ from it in the last bits only.
                const ReferenceResult ref = referenceSearch(s.master, s.slave, v[0], options(mode));
                if (mode == SearchMode::kNodeToSegment && !a.rebuilt) {
                    testing::expectWithinWarmBound(interleaved.nodePairs(), ref.nodePairs, s.master,
                                                   v[0]);
                } else {
                    expectSame(columns(interleaved), columns(ref));
                }
            }
        }
    }
}

}  // namespace
}  // namespace contact
