// SPDX-License-Identifier: MIT
// The box indexes of the search (box_index.hpp): one typed suite runs every index, the brute-force
// one included, against a plain double loop over the same float boxes, comparing sorted pair sets
// on random and structured box sets. Then what is particular to each index, and the outward
// rounding of float boxes that all of them rely on.
#include "box_index.hpp"
#include "box_tree_index.hpp"
#include "float_box.hpp"
#include "kd_tree_index.hpp"
#include "scenes.hpp"
#include "sweep_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace contact::detail {
namespace {

using Pairs = std::vector<std::pair<Index, Index>>;  // (query, indexed box)

// n boxes with centres in [-spread, spread]^3 (z = 0 when planar) + offset and half sizes
// log-uniform in [minHalf, maxHalf] (sizes vary by maxHalf / minHalf within one set), rounded
// outward to float as the search rounds its boxes.
std::vector<FloatBox> randomBoxes(std::mt19937& rng, int n, double spread, double minHalf,
                                  double maxHalf, double offset = 0.0, bool planar = false) {
    std::vector<FloatBox> out;
    for (int i = 0; i < n; ++i) {
        double lo[3];
        double hi[3];
        for (int k = 0; k < 3; ++k) {
            const double c = planar && k == 2 ? 0.0 : testing::uniform(rng, -spread, spread);
            const double h = minHalf * std::pow(maxHalf / minHalf, testing::uniform(rng, 0.0, 1.0));
            lo[k] = offset + c - h;
            hi[k] = offset + c + h;
        }
        out.push_back(floatBoxOutward(lo, hi));
    }
    return out;
}

// The oracle: every (query, box) pair whose closed float boxes share a point, sorted.
Pairs bruteForce(const std::vector<FloatBox>& queries, const std::vector<FloatBox>& boxes) {
    Pairs out;
    for (std::size_t q = 0; q < queries.size(); ++q) {
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            bool all = true;
            for (int k = 0; k < 3; ++k) {
                all = all && static_cast<double>(queries[q].lo[k]) <= boxes[i].hi[k] &&
                      static_cast<double>(boxes[i].lo[k]) <= queries[q].hi[k];
            }
            if (all) {
                out.emplace_back(static_cast<Index>(q), static_cast<Index>(i));
            }
        }
    }
    return out;
}

// The pairs an index reports for `queries`, through the range query cut into `parts` ranges (run
// on threads when the index answers concurrently), checked for the interface's promises on the
// way: each query once, in order, with no box twice.
template <class Index_>
Pairs viaIndex(const Index_& index, const std::vector<FloatBox>& queries, int parts = 1) {
    const auto n = static_cast<Index>(queries.size());
    std::vector<Pairs> found(static_cast<std::size_t>(parts));
    std::vector<int> orderOk(static_cast<std::size_t>(parts), 1);
    const int threads = index.concurrentQueries() ? std::min(parts, 3) : 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int p = 0; p < parts; ++p) {
        const auto first = static_cast<Index>(static_cast<long long>(n) * p / parts);
        const auto last = static_cast<Index>(static_cast<long long>(n) * (p + 1) / parts);
        Index expected = first;
        index.query(
            first, last, [&](Index k) { return queries[k]; },
            [&](Index k, Index* hits, Index count) {
                orderOk[p] &= static_cast<int>(k == expected++);
                for (Index c = 0; c < count; ++c) {
                    found[p].emplace_back(k, hits[c]);
                }
            });
        orderOk[p] &= static_cast<int>(expected == last);
    }
    Pairs all;
    for (int p = 0; p < parts; ++p) {
        EXPECT_TRUE(orderOk[p] == 1) << "part " << p << ": queries not each once in order";
        all.insert(all.end(), found[p].begin(), found[p].end());
    }
    std::sort(all.begin(), all.end());
    EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << "a pair twice";
    return all;
}

// visitBoxes over [0, size()) in a few ranges: every box once, by its input index, as given.
template <class Index_>
void expectBoxesVisitedOnce(const Index_& index, const std::vector<FloatBox>& boxes) {
    ASSERT_EQ(index.size(), static_cast<Index>(boxes.size()));
    std::vector<int> seen(boxes.size(), 0);
    const Index n = index.size();
    for (int part = 0; part < 3; ++part) {
        index.visitBoxes(n * part / 3, n * (part + 1) / 3, [&](Index i, const FloatBox& b) {
            ASSERT_TRUE(i >= 0 && i < n);
            ++seen[i];
            for (int k = 0; k < 3; ++k) {
                ASSERT_EQ(b.lo[k], boxes[i].lo[k]) << "box " << i;
                ASSERT_EQ(b.hi[k], boxes[i].hi[k]) << "box " << i;
            }
        });
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}

// A set of indexed boxes and of query boxes, and the pairs the oracle finds between them.
struct BoxCase {
    std::string name;
    std::vector<FloatBox> boxes;
    std::vector<FloatBox> queries;
};

std::vector<BoxCase> randomCases() {
    std::vector<BoxCase> cases;
    const struct {
        const char* name;
        int n;
        double spread, minHalf, maxHalf, offset;
        bool planar;
    } kinds[] = {
        {"uniform", 1200, 1.0, 0.02, 0.05, 0.0, false},
        {"graded 1000x", 1200, 1.0, 0.0005, 0.5, 0.0, false},
        {"graded 1e6x", 1000, 0.2, 1e-7, 0.1, 0.0, false},
        {"planar", 1200, 1.0, 0.001, 0.1, 0.0, true},
        {"far from origin", 1000, 1.0, 0.001, 0.05, 1e6, false},
        {"tiny and far", 800, 1e-4, 1e-7, 1e-5, 3e3, false},  // sizes near the float ulp there
        {"dense", 600, 0.1, 0.01, 0.1, 0.0, false},
        {"fewer than a leaf", 3, 0.1, 0.05, 0.1, 0.0, false},
    };
    for (const auto& k : kinds) {
        for (unsigned seed = 1; seed <= 2; ++seed) {
            std::mt19937 rng(seed);
            BoxCase c{std::string(k.name) + ", seed " + std::to_string(seed), {}, {}};
            c.boxes = randomBoxes(rng, k.n, k.spread, k.minHalf, k.maxHalf, k.offset, k.planar);
            c.queries =
                randomBoxes(rng, k.n / 2 + 1, k.spread, k.minHalf, k.maxHalf, k.offset, k.planar);
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

FloatBox cube(float lo, float hi) {
    FloatBox b;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = lo;
        b.hi[k] = hi;
    }
    return b;
}

std::vector<BoxCase> structuredCases() {
    std::vector<BoxCase> cases;
    // A grid of unit cubes touching face to face, edge to edge and corner to corner, queried by
    // the same cubes: each meets its 26 neighbours (fewer at the border) by touching alone.
    BoxCase touching{"touching grid", {}, {}};
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            for (int l = 0; l < 6; ++l) {
                FloatBox b;
                const float at[3] = {float(i), float(j), float(l)};
                for (int k = 0; k < 3; ++k) {
                    b.lo[k] = at[k];
                    b.hi[k] = at[k] + 1.0F;
                }
                touching.boxes.push_back(b);
            }
        }
    }
    touching.queries = touching.boxes;
    cases.push_back(touching);
    // Coincident boxes: many copies of a few boxes, and queries equal to them or touching them.
    BoxCase coincident{"coincident", {}, {}};
    for (int i = 0; i < 300; ++i) {
        coincident.boxes.push_back(cube(float(i % 3), float(i % 3) + 0.5F));
    }
    for (int i = 0; i < 20; ++i) {
        coincident.queries.push_back(cube(float(i % 4) + 0.5F, float(i % 4) + 0.5F));
        coincident.queries.push_back(cube(float(i % 3), float(i % 3) + 0.5F));
    }
    cases.push_back(coincident);
    // Points (zero-size boxes) among boxes, touching at their ends, and negative zero.
    BoxCase points{"points", {}, {}};
    for (int i = 0; i < 200; ++i) {
        const float v = 0.25F * float(i % 40) - 5.0F;
        points.boxes.push_back(i % 2 == 0 ? cube(v, v) : cube(v, v + 0.25F));
        points.queries.push_back(cube(i % 7 == 0 ? -0.0F : v + 0.25F, v + 0.25F));
    }
    cases.push_back(points);
    // A wavy curve along y, numbered along its length (2D contact: the sweep's case), with point
    // queries along it.
    BoxCase curve{"curve", {}, {}};
    for (int i = 0; i < 2000; ++i) {
        const double y = 1e-3 * i;
        const double x = 0.01 * std::sin(40.0 * y);
        const double lo[3] = {x - 4e-4, y - 4e-4, -1e-4};
        const double hi[3] = {x + 4e-4, y + 1.4e-3, 1e-4};
        curve.boxes.push_back(floatBoxOutward(lo, hi));
        const double p[3] = {x + 1e-4, y + 3e-4, 0.0};
        curve.queries.push_back(floatBoxOutward(p, p, 2e-4));
    }
    cases.push_back(curve);
    // A flat grid of overlapping boxes (a surface: the sweep falls back to its tree).
    BoxCase surface{"surface", {}, {}};
    for (int i = 0; i < 70; ++i) {
        for (int j = 0; j < 70; ++j) {
            const double lo[3] = {i - 0.1, j - 0.1, -0.1};
            const double hi[3] = {i + 1.1, j + 1.1, 0.1};
            surface.boxes.push_back(floatBoxOutward(lo, hi));
        }
    }
    for (int i = 0; i < 300; ++i) {
        surface.queries.push_back(surface.boxes[static_cast<std::size_t>(i * 13 % 4900)]);
    }
    cases.push_back(surface);
    // The same surface queried in mesh order, so that neighbouring queries form the box tree's
    // groups; a few queries hold a NaN (overlapping nothing, even inside a group) or are inverted
    // along x (lo > hi: they still overlap the boxes that span [hi, lo]).
    BoxCase ordered{"surface in order, NaN and inverted queries", surface.boxes, surface.boxes};
    for (std::size_t i = 0; i < ordered.queries.size(); ++i) {
        FloatBox& q = ordered.queries[i];
        if (i % 37 == 5) {
            q.lo[1] = std::numeric_limits<float>::quiet_NaN();
        } else if (i % 53 == 7) {
            std::swap(q.lo[0], q.hi[0]);
        } else if (i % 41 == 0) {
            q.lo[2] = q.hi[2] = std::numeric_limits<float>::quiet_NaN();
        }
    }
    cases.push_back(ordered);
    cases.push_back({"no boxes", {}, {cube(0, 1)}});
    cases.push_back({"no queries", {cube(0, 1), cube(2, 3)}, {}});
    cases.push_back({"empty", {}, {}});
    return cases;
}

template <class T>
class BoxIndexTest : public ::testing::Test {};

using Indexes = ::testing::Types<BruteForceIndex, KdTreeIndex, BoxTreeIndex, SweepIndex>;
class IndexNames {
public:
    template <class T>
    static std::string GetName(int /*i*/) {
        if (std::is_same_v<T, BruteForceIndex>) {
            return "BruteForce";
        }
        if (std::is_same_v<T, KdTreeIndex>) {
            return "KdTree";
        }
        return std::is_same_v<T, BoxTreeIndex> ? "BoxTree" : "Sweep";
    }
};
TYPED_TEST_SUITE(BoxIndexTest, Indexes, IndexNames);

TYPED_TEST(BoxIndexTest, RandomSetsSamePairsAsBruteForce) {
    for (const BoxCase& c : randomCases()) {
        SCOPED_TRACE(c.name);
        const Pairs expected = bruteForce(c.queries, c.boxes);
        if (c.boxes.size() > 100) {
            ASSERT_FALSE(expected.empty()) << "a case must hold overlaps to test anything";
        }
        for (const int threads : {1, 3}) {
            TypeParam index;
            index.build(c.boxes, threads);
            expectBoxesVisitedOnce(index, c.boxes);
            EXPECT_EQ(viaIndex(index, c.queries), expected) << threads << " build threads";
            EXPECT_EQ(viaIndex(index, c.queries, 7), expected) << "queried in 7 ranges";
            EXPECT_GT(index.memoryBytes(), 0U);
        }
    }
}

TYPED_TEST(BoxIndexTest, StructuredSetsSamePairsAsBruteForce) {
    for (const BoxCase& c : structuredCases()) {
        SCOPED_TRACE(c.name);
        const Pairs expected = bruteForce(c.queries, c.boxes);
        for (const int threads : {1, 2}) {
            TypeParam index;
            index.build(c.boxes, threads);
            expectBoxesVisitedOnce(index, c.boxes);
            EXPECT_EQ(viaIndex(index, c.queries), expected) << threads << " build threads";
            EXPECT_EQ(viaIndex(index, c.queries, 4), expected) << "queried in 4 ranges";
        }
        if (c.name == "touching grid") {  // 26 neighbours and itself, inside the grid
            EXPECT_EQ(std::count_if(expected.begin(), expected.end(),
                                    [](const auto& p) { return p.first == 43; }),
                      27);
        }
    }
}

// Built from boxes and a growth h, an index holds the fat boxes (fatBoxes) and answers as one
// built from them: the box tree makes them while it sorts (and the sweep, where it takes the tree
// at once), the other indexes take fatBoxes' copy. The surface case takes the sweep's tree path,
// the random ones its sort (and the tree after it, where the count runs past the limit).
TYPED_TEST(BoxIndexTest, GrownBuildHoldsTheFatBoxes) {
    std::vector<BoxCase> cases = randomCases();
    for (const BoxCase& c : structuredCases()) {
        if (c.name.rfind("surface", 0) == 0) {
            cases.push_back(c);
        }
    }
    ASSERT_GT(cases.size(), randomCases().size()) << "a surface case must be among them";
    std::size_t added = 0;  // pairs the growth adds, over the cases
    std::set<int> paths;    // the sweep's: tree at once (1), sorted and swept (2), tree after (3)
    for (const BoxCase& c : cases) {
        SCOPED_TRACE(c.name);
        double extent = 0.0;  // mean box size, the scale of the growth
        for (const FloatBox& b : c.boxes) {
            extent +=
                (static_cast<double>(b.hi[0]) - b.lo[0]) / static_cast<double>(c.boxes.size());
        }
        const std::size_t plain = bruteForce(c.queries, c.boxes).size();
        for (const double h : {0.0, 0.1 * extent, extent}) {
            const std::vector<FloatBox> fat = fatBoxes(c.boxes, h, 2);
            const Pairs expected = bruteForce(c.queries, fat);
            TypeParam index;
            index.build(c.boxes, h, 2);
            expectBoxesVisitedOnce(index, fat);
            EXPECT_EQ(viaIndex(index, c.queries), expected) << "h = " << h;
            added += expected.size() - plain;
            if constexpr (std::is_same_v<TypeParam, SweepIndex>) {
                paths.insert(index.scanned() < 0 ? 1 : (index.swept() ? 2 : 3));
            }
        }
    }
    EXPECT_GT(added, 1000U) << "the growth must add pairs to test anything";
    if constexpr (std::is_same_v<TypeParam, SweepIndex>) {
        EXPECT_EQ(paths, (std::set<int>{1, 2, 3})) << "every path of the sweep's build";
    }
}

// An index built again, smaller, forgets the larger set.
TYPED_TEST(BoxIndexTest, RebuiltSmaller) {
    std::mt19937 rng(3);
    TypeParam index;
    index.build(randomBoxes(rng, 500, 1.0, 0.01, 0.1), 1);
    const std::vector<FloatBox> small = randomBoxes(rng, 37, 1.0, 0.01, 0.1);
    index.build(small, 1);
    EXPECT_EQ(index.size(), 37);
    expectBoxesVisitedOnce(index, small);
    EXPECT_EQ(viaIndex(index, small), bruteForce(small, small));
}

// ---------------------------------------------------------------------------------------------
// What is particular to each index.

// Boxes whose centres coincide, or sit on a few planes: the kd-tree's slices put equal centres on
// one side, so slices may come out empty or uneven; every pair is still found, and the size
// classes hold points and boxes apart.
TEST(KdTreeIndex, SlicesOfCoincidentCentresAndSizeClasses) {
    std::mt19937 rng(21);
    for (const int planes : {1, 2, 5}) {
        SCOPED_TRACE(std::to_string(planes) + " planes");
        std::vector<FloatBox> boxes;
        for (int i = 0; i < 900; ++i) {
            const double c[3] = {0.1 * (i % planes), 0.5, -0.25};
            const double half = testing::uniform(rng, 0.01, 0.012);  // one size class
            const double lo[3] = {c[0] - half, c[1] - half, c[2] - half};
            const double hi[3] = {c[0] + half, c[1] + half, c[2] + half};
            boxes.push_back(floatBoxOutward(lo, hi));
        }
        std::vector<FloatBox> queries;
        for (int q = 0; q < 200; ++q) {  // around the planes, some hitting, some not
            const double c[3] = {testing::uniform(rng, -0.05, 0.45),
                                 0.5 + testing::uniform(rng, -0.03, 0.03),
                                 -0.25 + testing::uniform(rng, -0.03, 0.03)};
            const double half = testing::uniform(rng, 0.001, 0.02);
            const double lo[3] = {c[0] - half, c[1] - half, c[2] - half};
            const double hi[3] = {c[0] + half, c[1] + half, c[2] + half};
            queries.push_back(floatBoxOutward(lo, hi));
        }
        const Pairs expected = bruteForce(queries, boxes);
        ASSERT_FALSE(expected.empty());
        for (const int threads : {1, 2, 3, 7}) {
            KdTreeIndex index;
            index.build(boxes, threads);
            EXPECT_EQ(viaIndex(index, queries), expected) << threads << " threads";
        }
    }
    std::vector<FloatBox> mixed = {cube(0, 0), cube(1, 1), cube(5, 6)};
    KdTreeIndex index;
    index.build(mixed, 1);
    EXPECT_GE(index.sizeClasses(), 2);  // points and the box fall in different classes
    std::mt19937 rng2(5);
    const std::vector<FloatBox> random = randomBoxes(rng2, 2000, 1.0, 0.001, 0.05);
    KdTreeIndex one;
    KdTreeIndex sliced;
    one.build(random, 1);
    sliced.build(random, 3);
    EXPECT_GT(sliced.sizeClasses(), one.sizeClasses()) << "some class must be cut into slices";
}

// NaN boxes (a precondition violation the search screens out before building) do not break the
// kd-tree's build or hide the finite boxes: they overlap nothing.
TEST(KdTreeIndex, NonFiniteBoxesDoNotBreakTheBuild) {
    std::mt19937 rng(22);
    std::vector<FloatBox> boxes = randomBoxes(rng, 1200, 1.0, 0.01, 0.03);
    for (std::size_t i = 0; i < boxes.size(); i += 3) {
        boxes[i] = cube(std::nanf(""), std::nanf(""));
    }
    const std::vector<FloatBox> queries = randomBoxes(rng, 300, 1.0, 0.01, 0.05);
    const Pairs expected = bruteForce(queries, boxes);
    ASSERT_FALSE(expected.empty());
    for (const int threads : {1, 3}) {
        KdTreeIndex index;
        index.build(boxes, threads);
        EXPECT_EQ(index.size(), 1200);
        EXPECT_EQ(viaIndex(index, queries), expected) << threads << " threads";
    }
}

TEST(BoxTreeIndex, StructureIsValidAndShallow) {
    std::mt19937 rng(23);
    for (const int n : {1, 4, 5, 1000, 20000}) {
        BoxTreeIndex tree;
        tree.build(randomBoxes(rng, n, 1.0, 0.001, 0.01));
        EXPECT_TRUE(tree.validate());
        EXPECT_LE(tree.depth(), static_cast<int>(std::ceil(std::log2(n / 4.0 + 1))) + 1) << n;
        // Nodes of four children: about one per three leaves, 128 bytes each, beside the boxes'
        // 28 bytes.
        const auto leaves = static_cast<std::size_t>((n + 15) / 16);
        EXPECT_LE(tree.memoryBytes(), 28U * static_cast<std::size_t>(n) + 128U * (leaves / 3 + 2))
            << n;
    }
}

// The tree sorts its boxes by Morton keys packed with the input index below them: boxes whose
// centres tie (here all of them, then two groups) keep their input order, and every pair is found.
TEST(BoxTreeIndex, TiedCentresKeepInputOrder) {
    std::mt19937 rng(24);
    for (const int groups : {1, 2}) {
        SCOPED_TRACE(std::to_string(groups) + " centre(s)");
        std::vector<FloatBox> boxes;
        for (int i = 0; i < 3000; ++i) {
            const float c = i % groups == 0 ? 0.0F : 1.0F;
            const float half = static_cast<float>(1 + i % 31) / 64.0F;  // c -+ half exact
            FloatBox b;
            for (int k = 0; k < 3; ++k) {
                b.lo[k] = c - half;
                b.hi[k] = c + half;
            }
            boxes.push_back(b);
        }
        BoxTreeIndex tree;
        tree.build(boxes);
        ASSERT_TRUE(tree.validate());
        std::vector<Index> order;
        tree.visitBoxes(0, tree.size(),
                        [&](Index i, const FloatBox& /*b*/) { order.push_back(i); });
        std::vector<Index> expected;  // the first centre's boxes, then the second's, each ascending
        for (int g = 0; g < groups; ++g) {
            for (int i = g; i < 3000; i += groups) {
                expected.push_back(i);
            }
        }
        EXPECT_EQ(order, expected);
        const std::vector<FloatBox> queries = randomBoxes(rng, 200, 1.0, 0.01, 0.3);
        EXPECT_EQ(viaIndex(tree, queries), bruteForce(queries, boxes));
    }
}

// Queries of neighbouring boxes go in groups, whose gathered boxes are put in input order: by a
// bitmap where their indices span little (a mesh's numbering), by a sort otherwise (the grid
// numbered at random: 10,000 indices). Either way each query's hits come ascending, and they are
// the brute force's.
TEST(BoxTreeIndex, GroupHitsAscendingWhateverTheNumbering) {
    constexpr int kSide = 100;
    std::vector<FloatBox> grid;
    for (int j = 0; j < kSide; ++j) {
        for (int i = 0; i < kSide; ++i) {
            const double lo[3] = {i - 0.1, j - 0.1, -0.1};
            const double hi[3] = {i + 1.1, j + 1.1, 0.1};
            grid.push_back(floatBoxOutward(lo, hi));
        }
    }
    std::vector<FloatBox> shuffled = grid;
    std::mt19937 rng(25);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (const auto* boxes : {&grid, &shuffled}) {
        SCOPED_TRACE(boxes == &grid ? "numbered along the rows" : "numbered at random");
        BoxTreeIndex tree;
        tree.build(*boxes);
        Pairs found;
        bool ascending = true;
        tree.query(
            0, static_cast<Index>(grid.size()), [&](Index k) { return grid[k]; },
            [&](Index k, Index* hits, Index count) {
                for (Index c = 0; c < count; ++c) {
                    ascending = ascending && (c == 0 || hits[c - 1] < hits[c]);
                    found.emplace_back(k, hits[c]);
                }
            });
        EXPECT_TRUE(ascending);
        std::sort(found.begin(), found.end());
        const Pairs expected = bruteForce(grid, *boxes);
        EXPECT_EQ(found.size(), 9U * grid.size() - 12U * kSide + 4U);  // 3 x 3 neighbourhoods
        EXPECT_EQ(found, expected);
    }
}

// A curve along y (the long axis): the sweep runs along it, and its count of the scanned pairs
// is exact: the pairs of boxes overlapping along that axis, each once.
TEST(SweepIndex, SweepsACurveAlongItsLongAxisAndCountsTheScanExactly) {
    std::vector<FloatBox> boxes;
    for (int i = 0; i < 3000; ++i) {
        const double y = 1e-3 * i;
        const double x = 0.01 * std::sin(40.0 * y);
        const double lo[3] = {x - 4e-4, y - 4e-4, -1e-4};
        const double hi[3] = {x + 4e-4, y + 1.4e-3, 1e-4};
        boxes.push_back(floatBoxOutward(lo, hi));
    }
    SweepIndex sweep;
    sweep.build(boxes, 1);
    EXPECT_TRUE(sweep.swept());
    EXPECT_FALSE(sweep.concurrentQueries());
    EXPECT_EQ(sweep.axis(), 1);
    long long alongAxis = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            alongAxis += boxes[i].lo[1] <= boxes[j].hi[1] && boxes[j].lo[1] <= boxes[i].hi[1];
        }
    }
    EXPECT_EQ(sweep.scanned(), alongAxis);
    EXPECT_LT(sweep.scanned(), 4 * 3000);
}

// Queries along a curve are swept as they come while their lower bounds ascend, and from the first
// that does not (a descent, a tie broken backwards, a NaN bound) the rest go through the sort:
// every split point gives the brute force's pairs, each query once and in order (viaIndex), also in
// ranges that start mid-curve.
TEST(SweepIndex, StreamedQueriesThenTheSortedRestGiveEveryPair) {
    const auto curveBox = [](double y) {
        const double x = 0.01 * std::sin(40.0 * y);
        const double lo[3] = {x - 4e-4, y - 4e-4, -1e-4};
        const double hi[3] = {x + 4e-4, y + 1.4e-3, 1e-4};
        return floatBoxOutward(lo, hi);
    };
    std::vector<FloatBox> boxes;
    for (int i = 0; i < 2000; ++i) {
        boxes.push_back(curveBox(1e-3 * i));
    }
    SweepIndex sweep;
    sweep.build(boxes, 1);
    ASSERT_TRUE(sweep.swept());
    ASSERT_EQ(sweep.axis(), 1);
    std::vector<FloatBox> ascending;
    for (int i = 0; i < 1500; ++i) {
        ascending.push_back(curveBox(1.5e-3 * i - 0.1));
    }
    for (const int split : {0, 1, 700, 1499, 1500}) {
        SCOPED_TRACE("split at " + std::to_string(split));
        std::vector<FloatBox> queries = ascending;
        std::reverse(queries.begin() + split, queries.end());  // descends from split on
        const Pairs expected = bruteForce(queries, boxes);
        ASSERT_GT(expected.size(), 3000U);
        EXPECT_EQ(viaIndex(sweep, queries), expected);
        EXPECT_EQ(viaIndex(sweep, queries, 4), expected);
    }
    std::vector<FloatBox> withNan = ascending;
    withNan[800].lo[1] = std::nanf("");  // overlaps nothing along the axis
    EXPECT_EQ(viaIndex(sweep, withNan), bruteForce(withNan, boxes));
    withNan[0].lo[1] = std::nanf("");
    EXPECT_EQ(viaIndex(sweep, withNan), bruteForce(withNan, boxes));
}

// Flat grids: every axis of the plane crosses a whole row, far more than kScanPerBoxLimit pairs
// per box, so the build falls back to the box tree, which answers concurrently. On the 60 x 60
// grid the estimate (n x mean width / spread = 72 per box) is below kSkipSortFactor x the limit, so
// the build sorts and counts; on the 120 x 120 grid (144 per box) it goes to the tree at once.
std::vector<FloatBox> flatGrid(int cells) {
    std::vector<FloatBox> boxes;
    for (int i = 0; i < cells; ++i) {
        for (int j = 0; j < cells; ++j) {
            const double lo[3] = {i - 0.1, j - 0.1, -0.1};
            const double hi[3] = {i + 1.1, j + 1.1, 0.1};
            boxes.push_back(floatBoxOutward(lo, hi));
        }
    }
    return boxes;
}

TEST(SweepIndex, FallsBackToTheTreeOnASurface) {
    SweepIndex sweep;
    const std::vector<FloatBox> counted = flatGrid(60);
    sweep.build(counted, 1);
    EXPECT_FALSE(sweep.swept());
    EXPECT_GT(sweep.scanned(), SweepIndex::kScanPerBoxLimit * 60 * 60);
    const std::vector<FloatBox> boxes = flatGrid(120);
    sweep.build(boxes, 1);
    EXPECT_FALSE(sweep.swept());
    EXPECT_TRUE(sweep.concurrentQueries());
    EXPECT_EQ(sweep.scanned(), -1) << "estimated, not counted";
    BoxTreeIndex tree;
    tree.build(boxes);
    EXPECT_EQ(sweep.memoryBytes(), tree.memoryBytes()) << "only the tree is kept";
    // Built again over a curve, it sweeps again and drops the tree.
    sweep.build({cube(0, 1), cube(1, 2), cube(2, 3)}, 1);
    EXPECT_TRUE(sweep.swept());
    EXPECT_LT(sweep.memoryBytes(), 200U);
}

// ---------------------------------------------------------------------------------------------
// Float boxes rounded outward.

// floatUp / floatDown round toward +-inf, as std::nextafter from the nearest float would.
TEST(FloatRounding, DirectedRoundingMatchesTheLibrary) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    std::mt19937 rng(77);
    for (int i = 0; i < 20000; ++i) {
        const double v =
            testing::uniform(rng, -1.0, 1.0) * std::pow(10.0, testing::uniform(rng, -45.0, 38.0));
        const float up = floatUp(v);
        const float down = floatDown(v);
        EXPECT_GE(static_cast<double>(up), v);
        EXPECT_LE(static_cast<double>(down), v);
        EXPECT_LT(static_cast<double>(std::nextafter(up, -kInf)), v);   // the smallest such float
        EXPECT_GT(static_cast<double>(std::nextafter(down, kInf)), v);  // the largest such float
    }
    // Edges of the bit step: signed zeros, values below the smallest float or beyond the largest,
    // infinities, exact floats, NaN.
    constexpr double kTiny = 1e-50;
    constexpr double kHuge = 1e39;
    const double fmax = std::numeric_limits<float>::max();
    const double dmin = std::numeric_limits<float>::denorm_min();
    const struct {
        double v;
        double down, up;
    } edges[] = {{0.0, 0.0, 0.0},       {kTiny, 0.0, dmin},     {-kTiny, -dmin, -0.0},
                 {kHuge, fmax, kInf},   {-kHuge, -kInf, -fmax}, {kInf, kInf, kInf},
                 {-kInf, -kInf, -kInf}, {1.0, 1.0, 1.0},        {-0.5, -0.5, -0.5},
                 {fmax, fmax, fmax},    {dmin, dmin, dmin}};
    for (const auto& e : edges) {
        EXPECT_EQ(static_cast<double>(floatDown(e.v)), e.down) << e.v;
        EXPECT_EQ(static_cast<double>(floatUp(e.v)), e.up) << e.v;
    }
    EXPECT_TRUE(std::signbit(floatUp(-0.0)) && std::signbit(floatDown(-0.0)));
    EXPECT_TRUE(std::isnan(floatDown(std::nan(""))) && std::isnan(floatUp(std::nan(""))));
}

// doubleStep is std::nextafter toward +-inf for every finite double: random magnitudes over the
// whole range, and the edges of the bit step (signed zeros, subnormals, the largest double, the
// smallest normal); infinities and NaN come back unchanged.
TEST(FloatRounding, DoubleStepIsNextafter) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::mt19937 rng(78);
    const auto same = [](double a, double b) {
        return a == b && std::signbit(a) == std::signbit(b);
    };
    std::vector<double> values;
    for (int i = 0; i < 20000; ++i) {
        values.push_back(testing::uniform(rng, -1.0, 1.0) *
                         std::pow(10.0, testing::uniform(rng, -320.0, 308.0)));
    }
    const double dmax = std::numeric_limits<double>::max();
    const double dmin = std::numeric_limits<double>::denorm_min();
    const double nmin = std::numeric_limits<double>::min();
    for (const double v : {0.0, -0.0, dmin, -dmin, nmin, -nmin, dmax, -dmax, 1.0, -1.0, 0.1}) {
        values.push_back(v);
    }
    for (const double v : values) {
        EXPECT_TRUE(same(doubleStep(v, true), std::nextafter(v, kInf))) << v;
        EXPECT_TRUE(same(doubleStep(v, false), std::nextafter(v, -kInf))) << v;
    }
    EXPECT_EQ(doubleStep(kInf, true), kInf);
    EXPECT_EQ(doubleStep(-kInf, false), -kInf);
    EXPECT_TRUE(std::isnan(doubleStep(std::nan(""), true)));
    EXPECT_TRUE(std::isnan(doubleStep(std::nan(""), false)));
}

// The float box encloses the double box (grown or not), including values that are not floats and
// negative values; double boxes that overlap or touch exactly keep overlapping once rounded; and
// inside() on the rounded box says what insideFloatBox() says on the double box.
TEST(FloatRounding, OutwardBoxesEncloseAndKeepEveryOverlap) {
    std::mt19937 rng(21);
    for (int i = 0; i < 20000; ++i) {
        const double scale = std::pow(10.0, testing::uniform(rng, -8, 8));
        double lo[3];
        double hi[3];
        double lo2[3];
        double hi2[3];
        for (int k = 0; k < 3; ++k) {
            lo[k] = testing::uniform(rng, -1, 1) * scale;
            hi[k] = lo[k] + testing::uniform(rng, 0, 1e-6) * scale;
            lo2[k] = i % 3 == 0 ? hi[k] : lo[k] + testing::uniform(rng, -2e-6, 2e-6) * scale;
            hi2[k] = lo2[k] + testing::uniform(rng, 0, 1e-6) * scale;
        }
        const double grow = i % 2 == 0 ? 0.0 : testing::uniform(rng, 0, 1e-3) * scale;
        const FloatBox f = floatBoxOutward(lo, hi, grow);
        for (int k = 0; k < 3; ++k) {
            ASSERT_LE(static_cast<double>(f.lo[k]), lo[k] - grow);
            ASSERT_GE(static_cast<double>(f.hi[k]), hi[k] + grow);
        }
        const FloatBox a = floatBoxOutward(lo, hi);
        const FloatBox b = floatBoxOutward(lo2, hi2);
        bool exact = true;
        for (int k = 0; k < 3; ++k) {
            exact = exact && lo[k] <= hi2[k] && lo2[k] <= hi[k];
        }
        if (exact) {
            ASSERT_TRUE(overlaps(a, b)) << "float boxes lost a double overlap, trial " << i;
        }
        const FloatBox fat = grownFloatBox(b, 1e-7 * scale);
        ASSERT_EQ(inside(a, fat), insideFloatBox(lo, hi, fat)) << "trial " << i;
    }
    // Boxes touching at 0.1 (not a float) stay overlapping once rounded.
    const double a[3] = {0.0, 0.0, 0.0};
    const double b[3] = {0.1, 0.1, 0.1};
    const double c[3] = {0.2, 0.2, 0.2};
    EXPECT_TRUE(overlaps(floatBoxOutward(a, b), floatBoxOutward(b, c)));
}

}  // namespace
}  // namespace contact::detail
