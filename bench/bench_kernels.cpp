// SPDX-License-Identifier: MIT
// Cost of one call of each geometric kernel: bounds, SAT (2D, 3D), closest-point projection.
// Inputs are drawn once from a fixed seed; the timed loop cycles through them.
#include "contact/bounds.hpp"
#include "contact/projection.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"

#include "scenes.hpp"

#include <benchmark/benchmark.h>

#include <random>
#include <type_traits>
#include <vector>

namespace {

using namespace contact;

constexpr int kInputs = 4096;

std::vector<SegmentNodes> segments(SegmentType type, unsigned seed) {
    std::mt19937 rng(seed);
    testing::RandomSegmentOptions opt;
    opt.offset = 1.0;
    std::vector<SegmentNodes> out;
    for (int i = 0; i < kInputs; ++i) {
        out.push_back(testing::randomSegment(type, rng, opt));
    }
    return out;
}

void BM_SegmentAabb(benchmark::State& state) {
    const auto type = static_cast<SegmentType>(state.range(0));
    const auto segs = segments(type, 1);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(segmentAabb<3>(segs[i++ % kInputs], 0.1));
    }
    state.SetLabel(segmentTypeName(type));
}

void BM_SegmentObb(benchmark::State& state) {
    const auto type = static_cast<SegmentType>(state.range(0));
    const auto segs = segments(type, 2);
    std::size_t i = 0;
    for (auto _ : state) {
        if (parametricDim(type) == 1) {
            benchmark::DoNotOptimize(segmentObb2d(segs[i++ % kInputs], 0.1));
        } else {
            benchmark::DoNotOptimize(segmentObb3d(segs[i++ % kInputs], 0.1));
        }
    }
    state.SetLabel(segmentTypeName(type));
}

// Box pairs near each other, so that about half overlap and the full axis set often runs.
// verdictOnly: satOverlap2d / satOverlap3d (what the search calls) instead of satDisjoint*.
template <int D, bool kVerdictOnly>
void satBench(benchmark::State& state) {
    const auto segs = segments(D == 3 ? SegmentType::Quad4 : SegmentType::Line2, D == 3 ? 3 : 4);
    std::vector<std::conditional_t<D == 3, Obb3, Obb2>> boxes;
    for (const auto& s : segs) {
        if constexpr (D == 3) {
            boxes.push_back(segmentObb3d(s, 0.05));
        } else {
            boxes.push_back(segmentObb2d(s, 0.05));
        }
    }
    std::size_t i = 0;
    long overlapping = 0;
    for (auto _ : state) {
        const auto& a = boxes[i % kInputs];
        const auto& b = boxes[(i * 7 + 1) % kInputs];
        bool overlap = false;
        if constexpr (D == 3 && kVerdictOnly) {
            overlap = satOverlap3d(a, b);
        } else if constexpr (D == 3) {
            overlap = !satDisjoint3d(a, b).separated;
        } else if constexpr (kVerdictOnly) {
            overlap = satOverlap2d(a, b);
        } else {
            overlap = !satDisjoint2d(a, b).separated;
        }
        overlapping += overlap ? 1 : 0;
        ++i;
    }
    benchmark::DoNotOptimize(overlapping);
    state.counters["overlap_fraction"] = static_cast<double>(overlapping) / state.iterations();
}

void BM_Sat3d(benchmark::State& state) { satBench<3, false>(state); }
void BM_Sat2d(benchmark::State& state) { satBench<2, false>(state); }
void BM_SatOverlap3d(benchmark::State& state) { satBench<3, true>(state); }
void BM_SatOverlap2d(benchmark::State& state) { satBench<2, true>(state); }

// Points within half a segment size of the segment: the node-to-segment situation.
void BM_ClosestPoint(benchmark::State& state) {
    const auto type = static_cast<SegmentType>(state.range(0));
    const auto segs = segments(type, 5);
    std::mt19937 rng(6);
    std::vector<Eigen::Vector3d> points;
    for (const auto& s : segs) {
        const bool planar = parametricDim(type) == 1;
        points.push_back(position(s, testing::randomLocalPoint(type, rng)) +
                         0.5 * testing::randomUnitVector(rng, planar));
    }
    int convex = 0;
    for (std::size_t k = 0; k < segs.size(); ++k) {
        convex += distanceIsConvex(segs[k], points[k]) ? 1 : 0;
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(closestPoint(segs[i % kInputs], points[i % kInputs]));
        ++i;
    }
    state.SetLabel(segmentTypeName(type));
    // Share of inputs on the single-start path (distanceIsConvex).
    state.counters["single_start_fraction"] = static_cast<double>(convex) / segs.size();
}

void allTypes(benchmark::internal::Benchmark* b) {
    for (SegmentType t : kAllSegmentTypes) {
        b->Arg(static_cast<int>(t));
    }
}

BENCHMARK(BM_SegmentAabb)->Apply(allTypes);
BENCHMARK(BM_SegmentObb)->Apply(allTypes);
BENCHMARK(BM_Sat2d);
BENCHMARK(BM_Sat3d);
BENCHMARK(BM_SatOverlap2d);
BENCHMARK(BM_SatOverlap3d);
BENCHMARK(BM_ClosestPoint)->Apply(allTypes);

}  // namespace
