// SPDX-License-Identifier: MIT
// What every stage of the fast search reads, fixed at setSurfaces (contact_search.cpp resolves it).
// Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/surface.hpp"
#include "contact/types.hpp"

namespace contact::detail {

/// The interface a stage searches: the surfaces (owned by the facade, which outlives the stages),
/// lengths resolved from the options, and the threads.
struct SearchContext {
    const Surface* master = nullptr;
    const Surface* slave = nullptr;  ///< the master itself when sameSurface
    bool sameSurface = false;        ///< one surface in self-contact (segment pairs once)
    bool selfContact = false;
    int dim = 3;
    Index numNodes = 0;
    double capture = 0.0;  ///< length units
    double skin = 0.0;     ///< length units; 0: rebuild the candidate list every update
    int threads = 1;
    BroadPhaseKind broadPhase = BroadPhaseKind::kKdTree;
};

/// Slave items per block of work: at least 16 blocks per thread where the items allow (64 items
/// or more each), so the dynamic schedule balances them on small surfaces; at most 1024.
[[nodiscard]] inline Index blockSizeFor(Index items, int threads) noexcept {
    const Index perThread = items / (16 * threads);
    return perThread < 64 ? 64 : perThread > 1024 ? 1024 : perThread;
}

}  // namespace contact::detail
