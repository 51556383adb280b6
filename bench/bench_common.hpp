// SPDX-License-Identifier: MIT
// Shared by the bench programs: cached scenes, memory probes, benchmark naming.
#pragma once

#include "generators.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <utility>

namespace contact::bench {

/// Sizes swept (segments per surface); CONTACT_BENCH_MAX_SIZE caps them (e.g. 100000 for a quick
/// run).
inline std::vector<long> benchSizes() {
    long cap = 1000000;
    if (const char* env = std::getenv("CONTACT_BENCH_MAX_SIZE")) {
        cap = std::strtol(env, nullptr, 10);
    }
    std::vector<long> out;
    for (long n : {10000L, 100000L, 1000000L}) {
        if (n <= cap) {
            out.push_back(n);
        }
    }
    return out;
}

/// Scenes are generated once per (kind, size) and kept for the whole run; the last one is kept
/// only, so that 1M-segment scenes of several kinds do not pile up.
inline const Scene& cachedScene(const std::string& kind, long size) {
    static std::pair<std::string, long> key;
    static std::unique_ptr<Scene> scene;
    if (!scene || key != std::make_pair(kind, size)) {
        scene.reset();
        scene = std::make_unique<Scene>(makeScene(kind, size));
        key = {kind, size};
    }
    return *scene;
}

/// A line of /proc/self/status in kB (VmRSS, VmHWM); 0 when unavailable.
inline long procStatusKb(const char* field) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (f == nullptr) {
        return 0;
    }
    char line[256];
    long kb = 0;
    const std::size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f) != nullptr) {
        if (std::strncmp(line, field, n) == 0 && line[n] == ':') {
            kb = std::strtol(line + n + 1, nullptr, 10);
            break;
        }
    }
    std::fclose(f);
    return kb;
}

/// Resets the peak RSS (Linux >= 4.0: "5" to /proc/self/clear_refs) and returns the current RSS
/// in kB: the baseline of a peak measured with peakRssKb() afterwards.
inline long resetPeakRss() {
    if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
    return procStatusKb("VmRSS");
}

/// Peak RSS since the last reset, in kB (getrusage when /proc is unavailable: since the start).
inline long peakRssKb() {
    const long hwm = procStatusKb("VmHWM");
    if (hwm > 0) {
        return hwm;
    }
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/// main() of a benchmark program whose benchmarks `registerAll` registers at run time.
inline int runBenchmarks(int argc, char** argv, void (*registerAll)()) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace contact::bench
