// SPDX-License-Identifier: MIT
// Segment-to-segment search: each (slave segment, master segment) whose buffered boxes overlap
// after the separating-axis test. The stage behind ContactSearch in
// SearchMode::kSegmentToSegment. Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include "detail/master_motion.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"
#include "search_context.hpp"
#include "verlet_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace contact::detail {

/// update(x): boxes of the masters (and the Verlet check) -> candidate list rebuilt when a box
/// left its fat box -> per listed pair, the AABB and OBB tests -> surviving pairs in (slave,
/// master) order.
class SegmentSearch {
public:
    /// Sizes every buffer for context `c` (the slave items are c.slave's segments).
    void setup(const SearchContext& c);
    /// One search at x (validated by the facade). Fills the pairs and the stats' counters;
    /// `stats.status` is set when the boxes are out of range.
    void update(const CoordinatesView& x, UpdateStats& stats);
    /// After an update that threw (out of memory): no pairs, and the next update rebuilds.
    void forget() noexcept;

    [[nodiscard]] const SegmentPairs& pairs() const noexcept { return pairs_; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    // What computeBoxes found: every box inside its fat box; the slave fat boxes made (no list to
    // check); the largest |box end|.
    struct BoxPass {
        bool inside = false;
        bool slaveFatMade = false;
        double boxEnd = 0.0;
    };
    void computeBoxes(const CoordinatesView& x, UpdateStats& stats, BoxPass& pass);
    bool rebuild(const CoordinatesView& x, const BoxPass& pass);
    void narrowPhase(const CoordinatesView& x, UpdateStats& stats);
    [[nodiscard]] bool exactBoxesOverlap(Index k, Index j, const CoordinatesView& x) const noexcept;
    void collectPairs(UpdateStats& stats);

    SearchContext c_;
    // Master buffered boxes now (capture + rounding pad): the AABB rounded outward to float, and
    // the OBB, 3D packed (PackedObb3; with one surface on both sides, the 20-byte CentredObb3
    // about that AABB in sameObb3_, which keeps self-contact under 100 bytes a segment for about
    // 14 ns more a pair), 2D as it is. A slave segment's boxes are made from the coordinates when
    // the narrow phase reaches it.
    std::vector<FloatBox> masterBox_;
    std::vector<PackedObb3> masterObb3_;
    std::vector<CentredObb3> sameObb3_;
    std::vector<Obb2> masterObb2_;
    double boxScale_ = 0.0;  // bound of |end| of the float boxes (the fat boxes')
    MasterMotion motion_;    // two surfaces and a skin: which masters moved since the last update
    VerletCache verlet_;
    // Slave fat boxes of the last build (two surfaces; with one, they are the master's).
    std::vector<FloatBox> slaveFat_;
    // A bit per candidate slot (in list order), 1 where the pair survived the narrow phase; block
    // b's first slot is CandidateList::firstSlot(b), a multiple of 8.
    std::vector<std::uint8_t> survivor_;
    std::vector<Index> blockPairs_;  // survivors per block, then each block's first column
    SegmentPairs pairs_;
};

}  // namespace contact::detail
