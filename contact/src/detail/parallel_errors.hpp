// SPDX-License-Identifier: MIT
// An exception out of an OpenMP region: none may leave one (the process would end), so the work of
// the region's threads runs through ParallelErrors, which keeps the first exception and rethrows it
// after the region. Internal; never installed.
#pragma once

#include <atomic>
#include <exception>
#include <utility>

namespace contact::detail {

/// Usage, with every worksharing construct still reached by every thread of the team:
///
///   ParallelErrors errors;
///   #pragma omp parallel for
///   for (...) { errors.run([&] { ...work of one iteration... }); }
///   errors.rethrow();
///
/// Once a thread has failed, the work not yet started is skipped (the region's results are then
/// dropped by the rethrow).
class ParallelErrors {
public:
    template <class Work>
    void run(Work&& work) noexcept {
        if (failed_.load(std::memory_order_relaxed)) {
            return;
        }
        try {
            std::forward<Work>(work)();
        } catch (...) {
            keep(std::current_exception());
        }
    }

    [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

    /// Rethrows the first exception kept, if any; called after the region, on one thread.
    void rethrow() const {
        if (error_) {
            std::rethrow_exception(error_);
        }
    }

private:
    // The first thread to fail claims error_; the others drop theirs. No named OpenMP critical:
    // its lock would be a global symbol exported by a shared libcontact.so. The region's closing
    // barrier orders the write of error_ before rethrow() reads it.
    void keep(std::exception_ptr e) noexcept {
        if (!failed_.exchange(true, std::memory_order_acq_rel)) {
            error_ = std::move(e);
        }
    }

    std::atomic<bool> failed_{false};
    std::exception_ptr error_;
};

}  // namespace contact::detail
