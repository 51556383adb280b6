// SPDX-License-Identifier: MIT
// The kd-tree broad phase against brute force: every overlapping box pair, no more, no less.
#include "contact/broad_phase.hpp"

#include "scenes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace contact {
namespace {

struct Boxes {
    Eigen::Matrix3Xd lo;
    Eigen::Matrix3Xd hi;
};

// n boxes with centres in [-spread, spread]^3 (z = 0 when planar) and half sizes log-uniform in
// [minHalf, maxHalf]: sizes vary by maxHalf / minHalf within one set.
Boxes randomBoxes(std::mt19937& rng, int n, double spread, double minHalf, double maxHalf,
                  const Eigen::Vector3d& offset = Eigen::Vector3d::Zero(), bool planar = false) {
    Boxes b{Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n)};
    for (int i = 0; i < n; ++i) {
        Eigen::Vector3d c(testing::uniform(rng, -spread, spread),
                          testing::uniform(rng, -spread, spread),
                          planar ? 0.0 : testing::uniform(rng, -spread, spread));
        Eigen::Vector3d h;
        for (int k = 0; k < 3; ++k) {
            h[k] = minHalf * std::pow(maxHalf / minHalf, testing::uniform(rng, 0.0, 1.0));
        }
        b.lo.col(i) = offset + c - h;
        b.hi.col(i) = offset + c + h;
    }
    return b;
}

std::vector<std::pair<Index, Index>> bruteForce(const Boxes& queries, const Boxes& indexed) {
    std::vector<std::pair<Index, Index>> out;
    for (Index q = 0; q < queries.lo.cols(); ++q) {
        for (Index i = 0; i < indexed.lo.cols(); ++i) {
            if ((queries.lo.col(q).array() <= indexed.hi.col(i).array()).all() &&
                (indexed.lo.col(i).array() <= queries.hi.col(q).array()).all()) {
                out.emplace_back(q, i);
            }
        }
    }
    return out;
}

std::vector<std::pair<Index, Index>> viaTree(const Boxes& queries, const BroadPhase& bp) {
    std::vector<std::pair<Index, Index>> out;
    std::vector<Index> hits;
    for (Index q = 0; q < queries.lo.cols(); ++q) {
        hits.clear();
        bp.query(queries.lo.col(q), queries.hi.col(q), hits);
        std::sort(hits.begin(), hits.end());
        EXPECT_TRUE(std::adjacent_find(hits.begin(), hits.end()) == hits.end()) << "duplicate hit";
        for (Index i : hits) {
            out.emplace_back(q, i);
        }
    }
    return out;
}

std::vector<FloatBox> toFloatBoxes(const Boxes& b) {
    std::vector<FloatBox> out(static_cast<std::size_t>(b.lo.cols()));
    for (Index i = 0; i < b.lo.cols(); ++i) {
        out[i] = floatBoxOutward(b.lo.col(i).data(), b.hi.col(i).data());
    }
    return out;
}

// The float boxes as double boxes (exact), for the brute-force reference.
Boxes toDoubleBoxes(const std::vector<FloatBox>& f) {
    const auto n = static_cast<Index>(f.size());
    Boxes out{Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n)};
    for (Index i = 0; i < n; ++i) {
        for (int d = 0; d < 3; ++d) {
            out.lo(d, i) = f[i].lo[d];
            out.hi(d, i) = f[i].hi[d];
        }
    }
    return out;
}

struct Case {
    std::string name;
    int n;
    double spread, minHalf, maxHalf;
    double offset;
    bool planar;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class BroadPhaseVsBruteForce : public ::testing::TestWithParam<Case> {};

TEST_P(BroadPhaseVsBruteForce, SamePairSet) {
    const Case& c = GetParam();
    for (unsigned seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const Eigen::Vector3d off = Eigen::Vector3d::Constant(c.offset);
        const Boxes indexed = randomBoxes(rng, c.n, c.spread, c.minHalf, c.maxHalf, off, c.planar);
        const Boxes queries =
            randomBoxes(rng, c.n / 2, c.spread, c.minHalf, c.maxHalf, off, c.planar);
        BroadPhase bp;
        bp.build(indexed.lo, indexed.hi);
        EXPECT_EQ(bp.size(), c.n);
        const auto expected = bruteForce(queries, indexed);
        EXPECT_EQ(viaTree(queries, bp), expected);
        EXPECT_FALSE(expected.empty()) << "case must contain overlaps to test anything";

        // Float boxes (the search's fat boxes): the same pairs as brute force on those boxes.
        const std::vector<FloatBox> rounded = toFloatBoxes(indexed);
        BroadPhase fp;
        fp.build(rounded);
        EXPECT_EQ(fp.size(), c.n);
        EXPECT_EQ(viaTree(queries, fp), bruteForce(queries, toDoubleBoxes(rounded)));
        EXPECT_LT(fp.memoryBytes(), bp.memoryBytes());
        // Split into spatial slices built in parallel: the same pairs.
        BroadPhase sliced;
        sliced.build(rounded, 3);
        EXPECT_EQ(sliced.size(), c.n);
        EXPECT_GT(sliced.sizeClasses(), fp.sizeClasses()) << "some class must be cut into slices";
        EXPECT_EQ(viaTree(queries, sliced), viaTree(queries, fp));
        // Each box is kept as given, found by its input index whatever the internal order.
        for (Index i = 0; i < c.n; ++i) {
            for (int d = 0; d < 3; ++d) {
                ASSERT_EQ(sliced.floatBox(i).lo[d], rounded[i].lo[d]);
                ASSERT_EQ(sliced.floatBox(i).hi[d], rounded[i].hi[d]);
                ASSERT_EQ(fp.floatBox(i).hi[d], rounded[i].hi[d]);
            }
        }
    }
}

const Case kCases[] = {
    {"Uniform", 2000, 1.0, 0.02, 0.05, 0.0, false},
    {"Sizes1000x", 2000, 1.0, 0.0005, 0.5, 0.0, false},
    {"Sizes1e6x", 1500, 0.2, 1e-7, 0.1, 0.0, false},
    {"Planar2d", 2000, 1.0, 0.001, 0.1, 0.0, true},
    {"FarFromOrigin", 1500, 1.0, 0.001, 0.05, 1e6, false},
    {"Dense", 800, 0.1, 0.01, 0.1, 0.0, false},
};

INSTANTIATE_TEST_SUITE_P(Cases, BroadPhaseVsBruteForce, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

// Points (zero-size boxes) on both sides, and boxes that touch exactly: closed boxes overlap.
TEST(BroadPhase, PointsAndExactTouching) {
    Eigen::Matrix3Xd lo(3, 4);
    Eigen::Matrix3Xd hi(3, 4);
    lo << 0, 1, 2, 5,  //
        0, 0, 0, 5,    //
        0, 0, 0, 5;
    hi = lo;
    hi.col(3) = Eigen::Vector3d(6, 6, 6);  // one real box among points
    BroadPhase bp;
    bp.build(lo, hi);
    std::vector<Index> hits;
    bp.query(Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(2, 0, 0), hits);  // touches points 1, 2
    std::sort(hits.begin(), hits.end());
    EXPECT_EQ(hits, (std::vector<Index>{1, 2}));
    hits.clear();
    bp.query(Eigen::Vector3d(6, 6, 6), Eigen::Vector3d(7, 7, 7), hits);  // corner touch
    EXPECT_EQ(hits, (std::vector<Index>{3}));
    hits.clear();
    bp.query(Eigen::Vector3d(2.5, 0, 0), Eigen::Vector3d(2.5, 0, 0), hits);
    EXPECT_TRUE(hits.empty());
    EXPECT_GE(bp.sizeClasses(), 2);  // points and the box fall in different classes
}

// Slices of boxes whose centres coincide, or sit on a few planes: the cuts put equal centres on
// one side, so slices may come out empty or uneven; every pair is still found.
TEST(BroadPhase, SlicesOfCoincidentCentres) {
    std::mt19937 rng(21);
    for (const int planes : {1, 2, 5}) {
        SCOPED_TRACE(std::to_string(planes) + " planes");
        const int n = 900;
        Boxes indexed{Eigen::Matrix3Xd(3, n), Eigen::Matrix3Xd(3, n)};
        for (Index i = 0; i < n; ++i) {
            const Eigen::Vector3d c(0.1 * static_cast<double>(i % planes), 0.5, -0.25);
            const double half = testing::uniform(rng, 0.01, 0.012);  // one size class
            indexed.lo.col(i) = c - Eigen::Vector3d::Constant(half);
            indexed.hi.col(i) = c + Eigen::Vector3d::Constant(half);
        }
        Boxes queries{Eigen::Matrix3Xd(3, 200), Eigen::Matrix3Xd(3, 200)};
        for (Index q = 0; q < 200; ++q) {  // around the planes, some hitting, some not
            const Eigen::Vector3d c(testing::uniform(rng, -0.05, 0.45),
                                    0.5 + testing::uniform(rng, -0.03, 0.03),
                                    -0.25 + testing::uniform(rng, -0.03, 0.03));
            const double half = testing::uniform(rng, 0.001, 0.02);
            queries.lo.col(q) = c - Eigen::Vector3d::Constant(half);
            queries.hi.col(q) = c + Eigen::Vector3d::Constant(half);
        }
        const std::vector<FloatBox> rounded = toFloatBoxes(indexed);
        const auto expected = bruteForce(queries, toDoubleBoxes(rounded));
        ASSERT_FALSE(expected.empty());
        for (const int threads : {1, 2, 3, 7}) {
            BroadPhase bp;
            bp.build(rounded, threads);
            EXPECT_EQ(bp.size(), n);
            EXPECT_EQ(viaTree(queries, bp), expected) << threads << " threads";
        }
    }
}

// Non-finite boxes (a precondition violation the search screens out before building) must not
// break the build or hide the finite boxes: NaN boxes overlap nothing.
TEST(BroadPhase, NonFiniteBoxesDoNotBreakTheBuild) {
    std::mt19937 rng(22);
    const int n = 1200;
    Boxes indexed = randomBoxes(rng, n, 1.0, 0.01, 0.03, Eigen::Vector3d::Zero(), false);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (Index i = 0; i < n; i += 3) {
        indexed.lo.col(i).setConstant(nan);
        indexed.hi.col(i).setConstant(nan);
    }
    const Boxes queries = randomBoxes(rng, 300, 1.0, 0.01, 0.05, Eigen::Vector3d::Zero(), false);
    const std::vector<FloatBox> rounded = toFloatBoxes(indexed);
    const auto expected = bruteForce(queries, toDoubleBoxes(rounded));
    ASSERT_FALSE(expected.empty());
    for (const int threads : {1, 3}) {
        BroadPhase bp;
        bp.build(rounded, threads);
        EXPECT_EQ(bp.size(), n);
        EXPECT_EQ(viaTree(queries, bp), expected) << threads << " threads";
    }
}

// BoxSweep: all overlapping pairs of two float box sets, against brute force on the same boxes.

std::vector<std::pair<Index, Index>> bruteForce(const std::vector<FloatBox>& a,
                                                const std::vector<FloatBox>& b) {
    std::vector<std::pair<Index, Index>> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (overlaps(a[i], b[j])) {
                out.emplace_back(static_cast<Index>(i), static_cast<Index>(j));
            }
        }
    }
    return out;
}

std::vector<std::pair<Index, Index>> viaSweep(const BoxSweep& sweep) {
    std::vector<std::pair<Index, Index>> out;
    sweep.forEachPair([&](Index i, Index j) { out.emplace_back(i, j); });
    const std::size_t n = out.size();
    std::sort(out.begin(), out.end());
    EXPECT_EQ(std::unique(out.begin(), out.end()) - out.begin(), static_cast<std::ptrdiff_t>(n))
        << "a pair reported twice";
    return out;
}

TEST_P(BroadPhaseVsBruteForce, SweepReportsTheSamePairs) {
    const Case& c = GetParam();
    for (unsigned seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const Eigen::Vector3d off = Eigen::Vector3d::Constant(c.offset);
        const auto a =
            toFloatBoxes(randomBoxes(rng, c.n, c.spread, c.minHalf, c.maxHalf, off, c.planar));
        const auto b =
            toFloatBoxes(randomBoxes(rng, c.n / 2, c.spread, c.minHalf, c.maxHalf, off, c.planar));
        const auto expected = bruteForce(a, b);
        ASSERT_FALSE(expected.empty());
        BoxSweep sweep;
        const long long scanned = sweep.prepare(a, b, std::numeric_limits<long long>::max() - 1);
        EXPECT_GE(scanned, static_cast<long long>(expected.size()));
        EXPECT_EQ(viaSweep(sweep), expected);
        EXPECT_GT(sweep.memoryBytes(), 0U);
        sweep.release();
        EXPECT_EQ(sweep.memoryBytes(), 0U);
    }
}

// A curve along y (the long axis): the sweep runs along it and scans a few boxes per box; the
// count is exact (equal to a brute-force count of the pairs overlapping along that axis).
TEST(BoxSweep, PicksTheLongAxisOfACurveAndCountsTheScanExactly) {
    std::vector<FloatBox> a;
    std::vector<FloatBox> b;
    for (int i = 0; i < 3000; ++i) {
        const double y = 1e-3 * i;
        const double x = 0.01 * std::sin(40.0 * y);
        const double lo[3] = {x - 4e-4, y - 4e-4, -1e-4};
        const double hi[3] = {x + 4e-4, y + 1.4e-3, 1e-4};
        a.push_back(floatBoxOutward(lo, hi));
        const double slo[3] = {x + 1e-4, y + 3e-4, 0.0};
        b.push_back(floatBoxOutward(slo, slo));  // points
    }
    BoxSweep sweep;
    const long long scanned = sweep.prepare(a, b, 1LL << 40);
    EXPECT_EQ(sweep.axis(), 1);
    long long alongAxis = 0;
    for (const FloatBox& p : a) {
        for (const FloatBox& q : b) {
            alongAxis += p.lo[1] <= q.hi[1] && q.lo[1] <= p.hi[1] ? 1 : 0;
        }
    }
    EXPECT_EQ(scanned, alongAxis);
    EXPECT_LT(scanned, 4 * 3000);
    EXPECT_EQ(viaSweep(sweep), bruteForce(a, b));
    // Over budget: the count stops at maxScan + 1 (the sweep itself stays valid).
    EXPECT_EQ(sweep.prepare(a, b, 100), 101);
    EXPECT_EQ(viaSweep(sweep), bruteForce(a, b));
    // A few pairs per box along the curve: worth sweeping.
    EXPECT_TRUE(sweep.prepareIfFast(a, b));
    EXPECT_EQ(viaSweep(sweep), bruteForce(a, b));
}

// A flat grid of boxes: every axis of the plane crosses a whole row, far more than
// kScanPerBoxLimit pairs per box, so prepareIfFast declines and frees its copies.
TEST(BoxSweep, DeclinesASurface) {
    std::vector<FloatBox> a;
    for (int i = 0; i < 120; ++i) {
        for (int j = 0; j < 120; ++j) {
            const double lo[3] = {i - 0.1, j - 0.1, -0.1};
            const double hi[3] = {i + 1.1, j + 1.1, 0.1};
            a.push_back(floatBoxOutward(lo, hi));
        }
    }
    BoxSweep sweep;
    EXPECT_FALSE(sweep.prepareIfFast(a, a));
    EXPECT_EQ(sweep.memoryBytes(), 0U);
    EXPECT_GT(sweep.prepare(a, a, 1LL << 40), BoxSweep::kScanPerBoxLimit * 2 * 120 * 120);
}

// Equal lower bounds across the sets, exact touching, boxes stacked at one coordinate along every
// axis (no axis separates them), negative zero, empty sets.
TEST(BoxSweep, TiesTouchingStacksAndEmptySets) {
    std::vector<FloatBox> a;
    std::vector<FloatBox> b;
    for (int i = 0; i < 40; ++i) {
        const float v = static_cast<float>(i % 5);
        FloatBox p;
        FloatBox q;
        for (int k = 0; k < 3; ++k) {
            p.lo[k] = v;
            p.hi[k] = v + 1.0F;
            q.lo[k] = i % 2 == 0 ? v + 1.0F : -0.0F;  // touches p's upper face, or starts at -0
            q.hi[k] = v + 2.0F;
        }
        a.push_back(p);
        b.push_back(q);
    }
    BoxSweep sweep;
    const long long scanned = sweep.prepare(a, b, 1LL << 40);
    EXPECT_LE(scanned, 40LL * 40);
    const auto expected = bruteForce(a, b);
    EXPECT_GT(expected.size(), 40U);
    EXPECT_EQ(viaSweep(sweep), expected);
    EXPECT_EQ(sweep.prepare({}, b, 10), 0);
    EXPECT_TRUE(viaSweep(sweep).empty());
    EXPECT_EQ(sweep.prepare(a, {}, 10), 0);
    EXPECT_TRUE(viaSweep(sweep).empty());
}

TEST(BroadPhase, EmptyAndRebuiltSmaller) {
    BroadPhase bp;
    bp.build(Eigen::Matrix3Xd(3, 0), Eigen::Matrix3Xd(3, 0));
    std::vector<Index> hits;
    bp.query(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones(), hits);
    EXPECT_TRUE(hits.empty());
    std::mt19937 rng(3);
    Boxes big = randomBoxes(rng, 500, 1.0, 0.01, 0.1);
    bp.build(big.lo, big.hi);
    Boxes small = randomBoxes(rng, 50, 1.0, 0.01, 0.1);
    bp.build(small.lo, small.hi);
    EXPECT_EQ(bp.size(), 50);
    EXPECT_EQ(viaTree(small, bp), bruteForce(small, small));
}

}  // namespace
}  // namespace contact

namespace contact {
namespace {

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

}  // namespace
}  // namespace contact
