// SPDX-License-Identifier: MIT
// Out of memory anywhere in an update or a mortar computation, on any thread: update() reports
// kOutOfMemory with no pairs, MortarIntegrator::compute() throws std::bad_alloc with no operators,
// the process goes on, and the next call gives a fresh search's result. Each allocation in turn is
// made to fail: this executable replaces the global operator new (and only this one).
#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"

#include "pair_columns.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <ostream>
#include <vector>

namespace {

// Allocations left before the one that fails (-1: none fails), and the failures made.
std::atomic<long> gLeft{-1};
std::atomic<long> gFailures{0};

void* allocate(std::size_t n) {
    long left = gLeft.load();
    while (left >= 0 && !gLeft.compare_exchange_weak(left, left - 1)) {
    }
    if (left == 0) {
        ++gFailures;
        throw std::bad_alloc();
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) {
        return p;
    }
    throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
// The nothrow forms never fail here: their callers expect null and take another way (the
// temporary buffer of std::stable_sort), which is no failure to report.
void* operator new(std::size_t n, const std::nothrow_t& /*tag*/) noexcept {
    return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& /*tag*/) noexcept {
    return std::malloc(n == 0 ? 1 : n);
}
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t& /*tag*/) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*n*/) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t /*n*/) noexcept { std::free(p); }

namespace contact {
namespace {

using testing::columns;
using testing::Mesh;

// A curved (Quad8) master under a wavy Quad4 slave, some nodes in contact and some beyond.
struct Model {
    Mesh mesh;
    Surface master;
    Surface slave;
};

Model model() {
    Model m;
    m.master = testing::addPatch(
        m.mesh, SegmentType::Quad8, 9, 9,
        [](double u, double v) {
            return Eigen::Vector3d(2 * u - 1, 2 * v - 1, 0.1 * std::sin(2 * u + v));
        },
        false, "master");
    m.slave = testing::addPatch(
        m.mesh, SegmentType::Quad4, 11, 11,
        [](double u, double v) {
            const double x = 2.2 * u - 1.1;
            const double y = 2.2 * v - 1.1;
            return Eigen::Vector3d(x, y, 0.1 * std::sin(2 * u + v) + 0.02 + 0.04 * std::cos(3 * x));
        },
        true, "slave");
    return m;
}

// Every slave node moved by `amount` along a direction that varies over the surface.
Eigen::Matrix3Xd moved(const Model& m, double amount) {
    Eigen::Matrix3Xd x = m.mesh.coords3();
    for (const Index n : m.slave.connectivity) {
        const Eigen::Vector3d p = m.mesh.nodes[static_cast<std::size_t>(n)];
        x.col(n) = p + amount * Eigen::Vector3d(std::sin(5 * p.y()), std::cos(4 * p.x()), 0.3);
    }
    return x;
}

// The pairs of a and b: the same, gaps and local coordinates within 1e-12 (a warm update is within
// that of a fresh search).
void expectSamePairs(const ContactSearch& a, const ContactSearch& b) {
    const testing::PairColumns ca = columns(a);
    const testing::PairColumns cb = columns(b);
    ASSERT_EQ(ca.size(), cb.size());
    for (Index i = 0; i < ca.size(); ++i) {
        ASSERT_EQ(ca.slave[i], cb.slave[i]) << "pair " << i;
        ASSERT_EQ(ca.master[i], cb.master[i]) << "pair " << i;
        if (ca.node != nullptr) {
            ASSERT_NEAR(ca.node->gap()[i], cb.node->gap()[i], 1e-12) << "pair " << i;
            ASSERT_NEAR(ca.node->xi()(0, i), cb.node->xi()(0, i), 1e-12) << "pair " << i;
            ASSERT_NEAR(ca.node->xi()(1, i), cb.node->xi()(1, i), 1e-12) << "pair " << i;
        }
    }
}

// Allocation n (from 0) fails while this lives.
class FailingAllocation {
public:
    explicit FailingAllocation(long n) { gLeft = n; }
    ~FailingAllocation() { gLeft = -1; }
    FailingAllocation(const FailingAllocation&) = delete;
    FailingAllocation& operator=(const FailingAllocation&) = delete;
};

// Runs of a call with one allocation failing: how many there were, and how many reported it.
struct Tally {
    long runs = 0;
    long reports = 0;
};

// run(n) with allocation n failing in the call under test, for n = 0, 1, ... until a run makes
// fewer allocations there than n; run returns whether the call reported a failure, which it may
// only when one was made (a failure may also be taken in stride: shrink_to_fit is a request, and
// run checks the results either way).
template <class Run>
Tally failEachAllocation(const Run& run) {
    Tally t;
    for (;; ++t.runs) {
        gFailures = 0;
        const bool reported = run(t.runs);
        const bool failed = gFailures > 0;
        EXPECT_TRUE(failed || !reported) << "allocation " << t.runs << ": reported, none failed";
        t.reports += reported ? 1 : 0;
        if (!failed || ::testing::Test::HasFailure()) {
            return t;
        }
    }
}

// Most failures are reported: the call under test allocates, and a failure reaches the caller.
void expectMostReported(const Tally& t) {
    EXPECT_GT(t.reports, t.runs / 2) << "of " << t.runs << " allocations";
}

// Whether call() threw std::bad_alloc with allocation n failing.
template <class Call>
bool throwsBadAlloc(long n, const Call& call) {
    const FailingAllocation failing(n);
    try {
        call();
    } catch (const std::bad_alloc&) {
        return true;
    }
    return false;
}

// The search options of these tests: two threads, capture half the mean master size.
SearchOptions twoThreads(SearchMode mode, double skinRelative) {
    SearchOptions o;
    o.mode = mode;
    o.capture = 0.5;
    o.captureRelative = true;
    o.skinRelative = skinRelative;
    o.threads = 2;
    return o;
}

// The update before the failing one (at x1).
enum class Before : std::uint8_t {
    kNone,  // the failing update is the first: the list is built
    kFar,   // one far from x1: the list is built again
    kNear,  // one near x1: the list is reused (with a skin)
};

struct Case {
    SearchMode mode;
    double skinRelative;  // > 0: a Verlet list, reused by the small motions
    Before before;
};

void PrintTo(const Case& c, std::ostream* os) {
    const char* before[] = {"first update", "after a far one", "after a near one"};
    *os << (c.mode == SearchMode::kNodeToSegment ? "node" : "segment") << " skin " << c.skinRelative
        << ", " << before[static_cast<int>(c.before)];
}

class OutOfMemory : public ::testing::TestWithParam<Case> {};

// Two threads, an allocation failing in an update; then the same update again and the next small
// motion, each equal to a fresh search's.
TEST_P(OutOfMemory, UpdateReportsItAndTheNextUpdateIsAFreshSearch) {
    const Case c = GetParam();
    const Model m = model();
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    const Eigen::Matrix3Xd x1 = moved(m, 0.004);
    const Eigen::Matrix3Xd x2 = moved(m, 0.008);
    const Eigen::Matrix3Xd far = moved(m, -0.1);  // beyond the skin from x1
    const SearchOptions o = twoThreads(c.mode, c.skinRelative);
    ContactSearch fresh1(o);
    fresh1.setSurfaces(m.master, m.slave, x1);
    ASSERT_EQ(fresh1.update(x1).status, UpdateStatus::kOk);
    ASSERT_GT(columns(fresh1).size(), 50);
    ContactSearch fresh2(o);
    fresh2.setSurfaces(m.master, m.slave, x2);
    ASSERT_EQ(fresh2.update(x2).status, UpdateStatus::kOk);

    const Tally t = failEachAllocation([&](long n) {
        ContactSearch search(o);
        search.setSurfaces(m.master, m.slave, x0);
        if (c.before != Before::kNone) {
            EXPECT_EQ(search.update(c.before == Before::kFar ? far : x0).status, UpdateStatus::kOk);
        }
        UpdateStats st;
        {
            const FailingAllocation failing(n);
            st = search.update(x1);
        }
        const bool reported = st.status == UpdateStatus::kOutOfMemory;
        if (reported) {
            EXPECT_EQ(columns(search).size(), 0) << "allocation " << n;
            EXPECT_EQ(st.pairs, 0);
        } else {
            EXPECT_EQ(st.status, UpdateStatus::kOk) << "allocation " << n;
        }
        EXPECT_EQ(search.update(x1).status, UpdateStatus::kOk);
        expectSamePairs(search, fresh1);
        EXPECT_EQ(search.update(x2).status, UpdateStatus::kOk);
        expectSamePairs(search, fresh2);
        return reported;
    });
    if (c.before != Before::kNear) {  // a reused list may need no allocation
        expectMostReported(t);
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, OutOfMemory,
                         ::testing::Values(Case{SearchMode::kNodeToSegment, 0.0, Before::kNone},
                                           Case{SearchMode::kNodeToSegment, 0.0, Before::kFar},
                                           Case{SearchMode::kNodeToSegment, 0.2, Before::kFar},
                                           Case{SearchMode::kNodeToSegment, 0.2, Before::kNear},
                                           Case{SearchMode::kSegmentToSegment, 0.0, Before::kNone},
                                           Case{SearchMode::kSegmentToSegment, 0.2, Before::kFar},
                                           Case{SearchMode::kSegmentToSegment, 0.2,
                                                Before::kNear}));

// A node-mode update that reuses its list allocates nothing, on any thread (the header's
// promise): the threads' visit lists were sized for the largest node at the rebuild. Before, a
// thread meeting a node with more candidates than any it had seen grew its list (dynamic
// schedule; the scheduling decides whether a run meets it: one run in five did here). Segment
// mode's pair columns may grow when more pairs survive than before.
TEST(ReusedUpdate, AllocatesNothingOnAnyThread) {
    // Two wavy grids of Quad8 (a probe's scene), the slave stepping down.
    const int n = 20;
    const int f = 2 * n + 1;
    Eigen::Matrix3Xd x(3, 2 * f * f);
    for (int s = 0; s < 2; ++s) {
        for (int j = 0; j < f; ++j) {
            for (int i = 0; i < f; ++i) {
                x.col(s * f * f + j * f + i) << i * 0.5 + s * 0.13, j * 0.5 + s * 0.07,
                    s * 0.05 + 0.01 * std::sin(i + j);
            }
        }
    }
    Surface grids[2];
    const auto at = [&](int s, int i, int j) { return static_cast<Index>(s * f * f + j * f + i); };
    for (int s = 0; s < 2; ++s) {
        for (int cj = 0; cj < n; ++cj) {
            for (int ci = 0; ci < n; ++ci) {
                const int i = 2 * ci;
                const int j = 2 * cj;
                if (s == 0) {
                    grids[s].addSegment(SegmentType::Quad8,
                                        {at(s, i, j), at(s, i + 2, j), at(s, i + 2, j + 2),
                                         at(s, i, j + 2), at(s, i + 1, j), at(s, i + 2, j + 1),
                                         at(s, i + 1, j + 2), at(s, i, j + 1)});
                } else {  // facing down
                    grids[s].addSegment(SegmentType::Quad8,
                                        {at(s, i, j), at(s, i, j + 2), at(s, i + 2, j + 2),
                                         at(s, i + 2, j), at(s, i, j + 1), at(s, i + 1, j + 2),
                                         at(s, i + 2, j + 1), at(s, i + 1, j)});
                }
            }
        }
    }
    SearchOptions o = twoThreads(SearchMode::kNodeToSegment, 0.5);
    o.capture = 0.5;
    ContactSearch search(o);
    search.setSurfaces(grids[0], grids[1], x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    int reused = 0;
    for (int step = 0; step < 40; ++step) {
        x.rightCols(f * f).row(2).array() -= 0.0002;
        constexpr long kMany = 1L << 40;
        gLeft = kMany;
        const UpdateStats st = search.update(x);
        const long made = kMany - gLeft.exchange(-1);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        if (!st.rebuilt) {
            ++reused;
            EXPECT_EQ(made, 0) << "step " << step;
        }
    }
    EXPECT_GT(reused, 20);
}

// An allocation failing in setSurfaces(), on a new search and on one that searched before:
// std::bad_alloc, the search not set up and without pairs; setSurfaces() again then gives a fresh
// search.
TEST(OutOfMemorySetup, SetSurfacesThrowsAndLeavesTheSearchNotSetUp) {
    const Model m = model();
    const Eigen::Matrix3Xd x0 = m.mesh.coords3();
    const Eigen::Matrix3Xd x1 = moved(m, 0.004);
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        const SearchOptions o = twoThreads(mode, 0.2);
        ContactSearch fresh(o);
        fresh.setSurfaces(m.master, m.slave, x1);
        ASSERT_EQ(fresh.update(x1).status, UpdateStatus::kOk);
        for (const bool searched : {false, true}) {
            SCOPED_TRACE(searched ? "after an update" : "new search");
            expectMostReported(failEachAllocation([&](long n) {
                ContactSearch search(o);
                if (searched) {
                    search.setSurfaces(m.master, m.slave, x0);
                    EXPECT_EQ(search.update(x0).status, UpdateStatus::kOk);
                }
                Surface master = m.master;  // copies made before the failing call
                Surface slave = m.slave;
                const bool reported = throwsBadAlloc(
                    n, [&] { search.setSurfaces(std::move(master), std::move(slave), x1); });
                if (reported) {
                    EXPECT_EQ(search.update(x1).status, UpdateStatus::kNotSetUp);
                    EXPECT_EQ(columns(search).size(), 0) << "allocation " << n;
                    search.setSurfaces(m.master, m.slave, x1);
                }
                EXPECT_EQ(search.update(x1).status, UpdateStatus::kOk);
                expectSamePairs(search, fresh);
                return reported;
            }));
        }
    }
}

// The mortar quantities on two threads, an allocation failing in compute(): std::bad_alloc, no
// operators left to read, and the next compute() gives the operators of a fresh integrator, bit
// for bit (as they are for any thread count). Both for a first compute and for one after another.
TEST(OutOfMemoryMortar, ComputeThrowsAndTheNextComputeIsAFreshOne) {
    Model m = model();
    // A flat master under the slave: every pair integrates (Quad4 on Quad4).
    m.master = testing::addPatch(
        m.mesh, SegmentType::Quad4, 9, 9,
        [](double u, double v) { return Eigen::Vector3d(2 * u - 1, 2 * v - 1, 0.03); }, false,
        "flat master");
    const Eigen::Matrix3Xd x = m.mesh.coords3();
    SearchOptions so;
    so.mode = SearchMode::kSegmentToSegment;
    so.capture = 0.5;
    so.captureRelative = true;
    ContactSearch search(so);
    search.setSurfaces(m.master, m.slave, x);
    ASSERT_EQ(search.update(x).status, UpdateStatus::kOk);
    MortarOptions mo;
    mo.threads = 2;
    MortarIntegrator fresh(mo);
    const MortarStats ref = fresh.compute(search, x);
    ASSERT_GT(ref.integrated, 50);
    const MortarOperators& want = fresh.operators();
    ASSERT_GT(want.M.size(), 100U);

    for (const bool second : {false, true}) {
        SCOPED_TRACE(second ? "after a compute" : "first compute");
        expectMostReported(failEachAllocation([&](long n) {
            MortarIntegrator mortar(mo);
            if (second) {
                (void)mortar.compute(search, x);
            }
            const bool reported = throwsBadAlloc(n, [&] { (void)mortar.compute(search, x); });
            if (reported) {
                EXPECT_TRUE(mortar.operators().nodes.empty());
                EXPECT_EQ(mortar.operators().M.size(), 0U);
                EXPECT_THROW((void)mortar.segmentBlock(0), std::out_of_range);
            }
            (void)mortar.compute(search, x);
            const MortarOperators& got = mortar.operators();
            EXPECT_EQ(got.nodes, want.nodes);
            EXPECT_EQ(got.weightedGap, want.weightedGap);
            EXPECT_EQ(got.D.value, want.D.value);
            EXPECT_EQ(got.M.row, want.M.row);
            EXPECT_EQ(got.M.col, want.M.col);
            EXPECT_EQ(got.M.value, want.M.value);
            return reported;
        }));
    }
}

}  // namespace
}  // namespace contact
