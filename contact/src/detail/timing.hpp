// SPDX-License-Identifier: MIT
// Stage timings of UpdateStats and the thread index of OpenMP. Internal; never installed.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

#include <chrono>

namespace contact::detail {

using Clock = std::chrono::steady_clock;

/// Milliseconds since t0.
[[nodiscard]] inline double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The calling thread's number in the current OpenMP team (0 without OpenMP).
[[nodiscard]] inline int threadIndex() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

}  // namespace contact::detail
