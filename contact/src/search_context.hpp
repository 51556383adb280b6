// SPDX-License-Identifier: MIT
// What every stage of the fast search reads, fixed at setSurfaces (contact_search.cpp resolves it).
// Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/surface.hpp"
#include "contact/types.hpp"

#include "detail/search_common.hpp"
#include "float_box.hpp"

#include <algorithm>

namespace contact::detail {

/// The interface a stage searches: the surfaces (owned by the facade, which outlives the stages),
/// lengths resolved from the options, and the threads.
struct SearchContext {
    const Surface* master = nullptr;
    const Surface* slave = nullptr;  ///< the master itself when sameSurface
    bool sameSurface = false;        ///< one surface in self-contact (segment pairs once)
    bool selfContact = false;
    /// Self-contact in node mode: the surface whose segments holding a slave node make its
    /// exclusion ring: the slave, or the master for a slave given as nodes (it has no segments).
    const Surface* ring = nullptr;
    int dim = 3;
    Index numNodes = 0;
    double capture = 0.0;  ///< length units
    double skin = 0.0;     ///< length units; 0: rebuild the candidate list every update
    int threads = 1;
    BroadPhaseKind broadPhase = BroadPhaseKind::kSweep;
    bool warmStart = false;  ///< SearchOptions::warmStart (node mode's reuse path)
};

/// Slave items per block of work: at least 16 blocks per thread where the items allow (64 items
/// or more each), so the dynamic schedule balances them on small surfaces; at most 1024.
[[nodiscard]] inline Index blockSizeFor(Index items, int threads) noexcept {
    const Index perThread = items / (16 * threads);
    return perThread < 64 ? 64 : perThread > 1024 ? 1024 : perThread;
}

/// Master segment j's buffered boxes at x, the part both modes make alike: the AABB rounded
/// outward to float into `box`, in 2D the OBB into `obb2`. Returns the double AABB (for the range
/// checks); `seg` and `pad` are left for the mode's own 3D OBB.
[[nodiscard]] inline Aabb3 masterBoxes(const Surface& master, Index j, const CoordinatesView& x,
                                       double capture, SegmentNodes& seg, double& pad,
                                       FloatBox& box, Obb2* obb2) noexcept {
    seg = gatherSegment(master, j, x);
    Aabb3 aabb = bufferedAabb(seg, capture, pad);
    box = floatBoxOutward(aabb.lo.data(), aabb.hi.data());
    if (obb2 != nullptr) {
        *obb2 = bufferedObb2(seg, capture, pad);
    }
    return aabb;
}

/// Folds box into the range checks of an update: finite (0 once a bound is NaN or Inf) and the
/// largest |bound|.
inline void noteRange(const Aabb3& box, int& finite, double& largest) noexcept {
    finite = std::min(finite, int(box.lo.allFinite() && box.hi.allFinite()));
    largest = std::max({largest, box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff()});
}

}  // namespace contact::detail
