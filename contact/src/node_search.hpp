// SPDX-License-Identifier: MIT
// Node-to-segment search: each slave node with the master segment holding its closest point.
// The stage behind ContactSearch in SearchMode::kNodeToSegment. Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include "candidate_list.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"
#include "search_context.hpp"
#include "verlet_cache.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace contact::detail {

/// update(x): master boxes (and the Verlet check) -> candidate list rebuilt when a box left its fat
/// box -> per slave node, the listed masters nearest first, OBB test, closest point -> pairs.
class NodeSearch {
public:
    /// Sizes every buffer for the slave nodes `nodes` (sorted, unique) of context `c`.
    void setup(const SearchContext& c, std::vector<Index> nodes);
    /// One search at x (validated by the facade: node count, finite, in range). Fills the pairs and
    /// the stats' counters; `stats.status` is set when the boxes are out of range.
    void update(const CoordinatesView& x, UpdateStats& stats);

    [[nodiscard]] const NodePairs& pairs() const noexcept { return pairs_; }
    [[nodiscard]] const std::vector<Index>& nodes() const noexcept { return nodes_; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    void computeBoxes(const CoordinatesView& x, UpdateStats& stats, bool& inside);
    bool rebuild(const CoordinatesView& x);
    void project(const CoordinatesView& x, UpdateStats& stats);

    SearchContext c_;
    std::vector<Index> nodes_;  // the slave nodes searched (sorted, unique)
    // Master buffered boxes now (capture + rounding pad): the AABB rounded outward to float, and
    // the OBB, 3D packed about that AABB (CentredObb3), 2D as it is.
    std::vector<FloatBox> masterBox_;
    std::vector<CentredObb3> masterObb3_;
    std::vector<Obb2> masterObb2_;
    bool keepAxes_ = false;  // the next reuse may keep the master OBB axes and offsets
    VerletCache verlet_;
    NodeFatBoxes fat_;
    std::vector<Index> nodeSegment_;  // per slave node, a slave segment holding it (orientation)
    // Self-contact: per slave node, the nodes it must not pair with (those of every slave segment
    // holding it), coded as the candidate list is; built once.
    CandidateList exclusions_;
    // Per thread: (lower bound, master) of one node's survivors.
    std::vector<std::vector<std::pair<double, Index>>> threadOrder_;
    std::vector<Index> blockPairs_;  // pairs found per block (threads > 1)
    NodePairs pairs_;
};

}  // namespace contact::detail
