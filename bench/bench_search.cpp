// SPDX-License-Identifier: MIT
// The whole search on the generated models: full node-to-segment and segment-to-segment searches
// (a rebuild every update), an incremental update after a small motion (the Verlet list is reused)
// and after a large one (rebuild), one and two threads, and the memory of the search structures.
// Counters: pairs, candidates, bytes_per_segment (ContactSearch::memoryBytes over master + slave
// segments), rss_MB (peak RSS above the baseline over setSurfaces + first update), ms per stage.
#include "contact/contact_search.hpp"

#include "bench_common.hpp"

#include <benchmark/benchmark.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace contact;

// kSmallBoth: kSmall with the master moved too (by the same field), where kSmall keeps it still.
enum class Motion { kFull, kSmall, kSmallBoth, kLarge };

// Coordinates of the scene, and the same with the slave (all nodes for self-contact or `all`)
// moved by a smooth non-rigid field of size `amount` (times the mean edge).
struct States {
    Eigen::Matrix3Xd x0, a, b;
};

Eigen::Matrix3Xd moved(const bench::Scene& sc, const Eigen::Matrix3Xd& x0, double amount,
                       bool all) {
    Eigen::Matrix3Xd x = x0;
    std::vector<char> moves(static_cast<std::size_t>(x.cols()), sc.self || all ? 1 : 0);
    for (Index n : sc.slave.connectivity) {
        moves[n] = 1;
    }
    const double d = amount * sc.meanEdge;
    for (Eigen::Index i = 0; i < x.cols(); ++i) {
        if (moves[i] == 0) {
            continue;
        }
        const Eigen::Vector3d p = x0.col(i);
        Eigen::Vector3d u(0.8 + 0.2 * std::sin(7 * p.y()), 0.5 * std::cos(5 * p.x()),
                          sc.dim == 3 ? 0.3 * std::sin(3 * p.x() + p.y()) : 0.0);
        if (sc.dim == 2) {
            u.y() = 0.3 * std::sin(3 * p.x());
        }
        x.col(i) += d * u / u.norm();
    }
    return x;
}

void runSearch(benchmark::State& state, const std::string& kind, SearchMode mode, Motion motion,
               int threads, BroadPhaseKind broadPhase) {
    const long size = state.range(0);
    const bench::Scene& sc = bench::cachedScene(kind, size);
    States st;
    st.x0 = sc.coords3();
    SearchOptions o;
    o.mode = mode;
    o.capture = 0.5;  // x mean master size: about half an edge
    o.captureRelative = true;
    o.selfContact = sc.self;
    o.threads = threads;
    o.broadPhase = broadPhase;
    o.skinRelative = motion == Motion::kFull ? 0.0 : 0.1;  // skin 0: rebuild every update
    // Small: 0.01 and 0.02 edge, inside skin / 2 = 0.05 of the build state (x0). Large: 0.5 and
    // 1.0 edge, each 0.5 edge from the other and from x0: every update rebuilds.
    const bool all = motion == Motion::kSmallBoth;
    st.a = moved(sc, st.x0, motion == Motion::kLarge ? 0.5 : 0.01, all);
    st.b = moved(sc, st.x0, motion == Motion::kLarge ? 1.0 : 0.02, all);
    const auto view = [&](const Eigen::Matrix3Xd& x) {
        return sc.dim == 3 ? CoordinatesView(x.data(), static_cast<Index>(x.cols()), 3)
                           : CoordinatesView();
    };
    // 2D scenes need interleaved x y.
    Eigen::Matrix2Xd x0_2, a2, b2;
    if (sc.dim == 2) {
        x0_2 = st.x0.topRows<2>();
        a2 = st.a.topRows<2>();
        b2 = st.b.topRows<2>();
    }
    const auto coords = [&](int which) -> CoordinatesView {
        if (sc.dim == 2) {
            const Eigen::Matrix2Xd& x = which == 0 ? x0_2 : which == 1 ? a2 : b2;
            return {x.data(), static_cast<Index>(x.cols()), 2};
        }
        return view(which == 0 ? st.x0 : which == 1 ? st.a : st.b);
    };
    const long base = bench::resetPeakRss();
    ContactSearch search(o);
    search.setSurfaces(sc.master, sc.slave, coords(0));
    UpdateStats first = search.update(coords(0));
    const long peak = bench::peakRssKb() - base;
    if (first.status != UpdateStatus::kOk) {
        state.SkipWithError("update failed");
        return;
    }
    long long iter = 0;
    long long rebuilt = 0;
    double tBounds = 0;
    double tBroad = 0;
    double tNarrow = 0;
    double tProj = 0;
    // The counts below are the first timed update's (state a), whatever the iteration count.
    UpdateStats atA;
    for (auto _ : state) {
        const UpdateStats last = search.update(coords(1 + static_cast<int>(iter % 2)));
        if (iter == 0) {
            atA = last;
        }
        rebuilt += last.rebuilt ? 1 : 0;
        tBounds += last.timeBounds;
        tBroad += last.timeBroad;
        tNarrow += last.timeNarrow;
        tProj += last.timeProjection;
        ++iter;
    }
    const bool small = motion == Motion::kSmall || motion == Motion::kSmallBoth;
    if (small && rebuilt != 0) {
        state.SkipWithError("small motion rebuilt the list");
        return;
    }
    if (!small && rebuilt != iter) {
        state.SkipWithError("full/large motion reused the list");
        return;
    }
    const double segments =
        static_cast<double>(sc.master.size()) + (sc.self ? 0.0 : sc.slave.size());
    state.counters["pairs"] = atA.pairs;
    state.counters["candidates"] = static_cast<double>(atA.candidates);
    state.counters["projections"] = static_cast<double>(atA.projections);
    state.counters["list"] = static_cast<double>(atA.listSize);
    state.counters["bytes_per_segment"] = static_cast<double>(search.memoryBytes()) / segments;
    state.counters["rss_MB"] = static_cast<double>(peak) / 1024.0;
    state.counters["ms_bounds"] = tBounds / static_cast<double>(iter);
    state.counters["ms_broad"] = tBroad / static_cast<double>(iter);
    state.counters["ms_narrow"] = tNarrow / static_cast<double>(iter);
    state.counters["ms_projection"] = tProj / static_cast<double>(iter);
    state.counters["threads"] = threads;
    state.counters["swept"] = atA.swept ? 1 : 0;
    state.SetComplexityN(size);
}

// Effective core count: the same CPU-bound work on 1 thread, then on 2 threads at once (each the
// full work): 2 x t1 / t2 is 2 on two free cores, 1 when they are shared with a busy process.
void BM_EffectiveCores(benchmark::State& state) {
    const auto work = [] {
        double s = 0.0;
        for (int i = 0; i < 40000000; ++i) {
            s += std::sqrt(static_cast<double>(i) + s * 1e-9);
        }
        return s;
    };
    double ratio = 0.0;
    for (auto _ : state) {
        using Clock = std::chrono::steady_clock;
        const auto t0 = Clock::now();
        benchmark::DoNotOptimize(work());
        const double t1 = std::chrono::duration<double>(Clock::now() - t0).count();
        const auto t2s = Clock::now();
        double sink[2] = {0, 0};
#pragma omp parallel for num_threads(2)
        for (int t = 0; t < 2; ++t) {
            sink[t] = work();
        }
        benchmark::DoNotOptimize(sink);
        const double t2 = std::chrono::duration<double>(Clock::now() - t2s).count();
        ratio = 2.0 * t1 / t2;
    }
    state.counters["effective_cores"] = ratio;
}

constexpr int kSmallCaseRepetitions = 5;

void registerAll() {
    benchmark::RegisterBenchmark("EffectiveCores", BM_EffectiveCores)
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
    struct Case {
        const char* name;
        SearchMode mode;
        Motion motion;
        int threads;
        BroadPhaseKind broadPhase = SearchOptions{}.broadPhase;  // the default
    };
    const Case cases[] = {
        {"node_full", SearchMode::kNodeToSegment, Motion::kFull, 1},
        {"node_full_2threads", SearchMode::kNodeToSegment, Motion::kFull, 2},
        {"node_small_motion", SearchMode::kNodeToSegment, Motion::kSmall, 1},
        // Both surfaces moving: node mode keeps the boxes of masters that did not move.
        {"node_small_motion_both", SearchMode::kNodeToSegment, Motion::kSmallBoth, 1},
        {"node_large_motion", SearchMode::kNodeToSegment, Motion::kLarge, 1},
        {"segment_full", SearchMode::kSegmentToSegment, Motion::kFull, 1},
        {"segment_full_2threads", SearchMode::kSegmentToSegment, Motion::kFull, 2},
        {"segment_small_motion", SearchMode::kSegmentToSegment, Motion::kSmall, 1},
        // The kd-trees, the default before issue 25, for comparison.
        {"node_full_kdtree", SearchMode::kNodeToSegment, Motion::kFull, 1, BroadPhaseKind::kKdTree},
        {"segment_full_kdtree", SearchMode::kSegmentToSegment, Motion::kFull, 1,
         BroadPhaseKind::kKdTree},
    };
    for (const std::string& kind : bench::sceneKinds()) {
        for (long n : bench::benchSizes()) {
            for (const Case& c : cases) {
                if (c.broadPhase == BroadPhaseKind::kKdTree && kind != "wavy_line2" &&
                    kind != "wavy_quad4") {
                    continue;
                }
                if (c.motion == Motion::kSmallBoth && kind != "wavy_quad4" &&
                    kind != "wavy_quad8") {
                    continue;
                }
                benchmark::RegisterBenchmark(("Search/" + kind + "/" + c.name).c_str(),
                                             [c, kind](benchmark::State& s) {
                                                 runSearch(s, kind, c.mode, c.motion, c.threads,
                                                           c.broadPhase);
                                             })
                    ->Arg(n)
                    ->Unit(benchmark::kMillisecond)
                    ->MinTime(0.3)
                    ->UseRealTime()
                    // Below 1M a case takes milliseconds, and a burst of load on the host moves
                    // it by tenths: the median of several runs is reported.
                    ->Repetitions(n < 1000000 ? kSmallCaseRepetitions : 1)
                    ->ReportAggregatesOnly(n < 1000000);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) { return contact::bench::runBenchmarks(argc, argv, registerAll); }
