// SPDX-License-Identifier: MIT
// Mortar quantities (MortarIntegrator: D, M, weighted gaps, nodal areas) on the generated models,
// against the segment-to-segment search of the same interface. Each iteration runs, interleaved
// so that one machine load weighs on all three: the search (a full rebuild, one thread), the
// mortar integrals on one thread, and on two. Counters (medians over the iterations, ms):
// search_ms, mortar_ms, mortar_2threads_ms, ratio = mortar_ms / search_ms (target: <= 2 on
// wavy_quad4 at 100k), speedup = mortar_ms / mortar_2threads_ms (target: >= 1.7), pairs and
// integrated pairs, quadrature points, and the one-thread run's integrate_ms / assemble_ms
// (MortarStats). The iteration time is the one-thread mortar time.
#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"

#include "bench_common.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace {

using namespace contact;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

void BM_MortarVsSearch(benchmark::State& state, const std::string& kind) {
    const long size = state.range(0);
    const bench::Scene& sc = bench::cachedScene(kind, size);
    const Eigen::Matrix3Xd x3 = sc.coords3();
    const Eigen::Matrix2Xd x2 = x3.topRows<2>();
    const CoordinatesView x = sc.dim == 3 ? CoordinatesView(x3) : CoordinatesView(x2);
    SearchOptions o;
    o.mode = SearchMode::kSegmentToSegment;
    o.capture = 0.5;       // x mean master size, as bench_search
    o.skinRelative = 0.0;  // a full rebuild every update
    ContactSearch search(o);
    search.setSurfaces(sc.master, sc.slave, x);
    MortarOptions m1;
    MortarOptions m2;
    m2.threads = 2;
    MortarIntegrator one(m1);
    MortarIntegrator two(m2);
    if (search.update(x).status != UpdateStatus::kOk) {
        state.SkipWithError("update failed");
        return;
    }
    (void)one.compute(search, x);  // first calls size the buffers
    (void)two.compute(search, x);
    std::vector<double> tSearch;
    std::vector<double> tOne;
    std::vector<double> tTwo;
    std::vector<double> tIntegrate;
    std::vector<double> tAssemble;
    MortarStats stats;
    for (auto _ : state) {
        auto t0 = Clock::now();
        benchmark::DoNotOptimize(search.update(x));
        tSearch.push_back(msSince(t0));
        t0 = Clock::now();
        stats = one.compute(search, x);
        tOne.push_back(msSince(t0));
        tIntegrate.push_back(stats.timeIntegrate);
        tAssemble.push_back(stats.timeAssemble);
        state.SetIterationTime(tOne.back() / 1e3);
        t0 = Clock::now();
        benchmark::DoNotOptimize(two.compute(search, x));
        tTwo.push_back(msSince(t0));
    }
    const double s = median(tSearch);
    const double m = median(tOne);
    const double t = median(tTwo);
    state.counters["search_ms"] = s;
    state.counters["mortar_ms"] = m;
    state.counters["mortar_2threads_ms"] = t;
    state.counters["integrate_ms"] = median(tIntegrate);
    state.counters["assemble_ms"] = median(tAssemble);
    state.counters["ratio"] = m / s;
    state.counters["speedup"] = m / t;
    state.counters["pairs"] = stats.pairs;
    state.counters["integrated"] = stats.integrated;
    state.counters["points"] = static_cast<double>(stats.points);
    state.counters["rows"] = static_cast<double>(one.operators().nodes.size());
}

void registerAll() {
    for (const std::string kind : {"wavy_quad4", "wavy_tri3", "wavy_line2", "wavy_quad8"}) {
        for (const long n : bench::benchSizes()) {
            if (kind == "wavy_quad8" && n > 10000) {
                continue;  // quadratic faces take the clipping kernels' path: slow at 100k
            }
            benchmark::RegisterBenchmark(
                ("MortarVsSearch/" + kind).c_str(),
                [kind](benchmark::State& st) { BM_MortarVsSearch(st, kind); })
                ->Arg(n)
                ->UseManualTime()
                ->Iterations(n >= 1000000 ? 3 : (n >= 100000 ? 7 : 15))
                ->Unit(benchmark::kMillisecond);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
