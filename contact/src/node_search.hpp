// SPDX-License-Identifier: MIT
// Node-to-segment search: each slave node with the master segment holding its closest point.
// The stage behind ContactSearch in SearchMode::kNodeToSegment. Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include "candidate_list.hpp"
#include "detail/master_motion.hpp"
#include "detail/warm_projection.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"
#include "search_context.hpp"
#include "verlet_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace contact::detail {

/// SearchOptions::warmStart: a slave node's closest point of the last update, for the next one
/// when it reuses the candidate list: the rank of its master in the node's candidates (list
/// order; kNoRank: none, or a rank beyond 254) and its local coordinates, 20 bits each over the
/// reference domain (within 2^-21 of its width: once the motion between updates is as small,
/// Newton needs one step less from there than from the linearized start). 6 bytes.
class WarmStart {
public:
    static constexpr unsigned kNoRank = 255;
    WarmStart() = default;
    WarmStart(unsigned rank, const Eigen::Vector2d& xi, SegmentType type) noexcept;
    [[nodiscard]] unsigned rank() const noexcept { return bits_[2] >> 8; }
    /// The local coordinates stored (within 2^-20 of the domain of those given).
    [[nodiscard]] Eigen::Vector2d xi(SegmentType type) const noexcept;

private:
    // xi in bits 0-19, eta in bits 20-39, the rank in bits 40-47.
    std::uint16_t bits_[3] = {0, 0, static_cast<std::uint16_t>(kNoRank << 8)};
};

/// SearchOptions::warmStart with curved masters: one thread's WarmSegments of the masters it
/// projected lately in this update, direct-mapped by master index. A master is projected for each
/// of the few slave nodes about it, and nodes near each other come close in the visit (blocks of
/// nodes in mesh order), so most are found made. Emptied at every update (the coordinates change).
/// A found WarmSegment is the one that would be made (the same function of the same nodes), so the
/// results do not depend on the slot count or on which thread projects.
class WarmSegmentCache {
public:
    /// Slots for `masters` masters: a power of two from 16 up to 4096, about masters / 32.
    [[nodiscard]] static std::size_t slotsFor(Index masters) noexcept;
    void resize(std::size_t slots);
    void clear() noexcept;
    /// Master j's WarmSegment at x, made where its slot holds another.
    const WarmSegment& get(const Surface& master, Index j, const CoordinatesView& x) noexcept {
        const std::size_t slot = static_cast<std::size_t>(j) & (master_.size() - 1);
        if (master_[slot] != j) {
            fill(master, j, x, slot);
        }
        return segments_[slot];
    }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    void fill(const Surface& master, Index j, const CoordinatesView& x, std::size_t slot) noexcept;

    std::vector<Index> master_;  // per slot, the master it holds (kNoIndex: none)
    std::vector<WarmSegment> segments_;
};

/// A listed master of one slave node, in the order of the visit: nearest lower bound first.
struct Visit {
    // Made in place (emplace_back): a temporary, written in parts and copied whole, stalls the
    // store forwarding on the hot path.
    Visit(double lowerBoundSq, Index j, Index position) noexcept
        : lbSq(lowerBoundSq), master(j), rank(position) {}
    // Squared lower bound of the distance from the float box: the order is the bound's, and its
    // square root is taken only for the masters visited.
    double lbSq;
    Index master;
    Index rank;  // position in the node's candidates (list order)
    double distance = std::numeric_limits<double>::infinity();  // where projected: its distance
    double tie = 0.0;  // warm path: the margin its distance may be off by (0: exact)
    bool operator<(const Visit& o) const noexcept {
        return lbSq < o.lbSq || (!(o.lbSq < lbSq) && master < o.master);
    }
};

/// update(x): master boxes (and the Verlet check) -> candidate list rebuilt when a box left its fat
/// box -> per slave node, the listed masters nearest first, OBB test, closest point -> pairs.
class NodeSearch {
public:
    /// Sizes every buffer for the slave nodes `nodes` (sorted, unique) of context `c`.
    void setup(const SearchContext& c, std::vector<Index> nodes);
    /// One search at x (validated by the facade: node count, finite, in range). Fills the pairs and
    /// the stats' counters; `stats.status` is set when the boxes are out of range.
    void update(const CoordinatesView& x, UpdateStats& stats);
    /// After an update that threw (out of memory): no pairs, and the next update rebuilds without
    /// warm starts.
    void forget() noexcept;

    [[nodiscard]] const NodePairs& pairs() const noexcept { return pairs_; }
    [[nodiscard]] const std::vector<Index>& nodes() const noexcept { return nodes_; }
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    void computeBoxes(const CoordinatesView& x, UpdateStats& stats, bool& inside);
    bool rebuild(const CoordinatesView& x);
    void project(const CoordinatesView& x, UpdateStats& stats, bool warm);

    SearchContext c_;
    std::vector<Index> nodes_;  // the slave nodes searched (sorted, unique)
    // Master buffered boxes now (capture + rounding pad): the AABB rounded outward to float, and
    // the OBB, 3D packed about that AABB (CentredObb3), 2D as it is.
    std::vector<FloatBox> masterBox_;
    std::vector<CentredObb3> masterObb3_;
    std::vector<Obb2> masterObb2_;
    bool keepAxes_ = false;  // the next reuse may keep the master OBB axes and offsets
    // Two surfaces and a skin: which masters moved (computeBoxes keeps the boxes of the others)
    // and per master whether its OBB axes were made from its coordinates (not kept).
    MasterMotion motion_;
    std::vector<std::uint8_t> ownAxes_;
    VerletCache verlet_;
    NodeFatBoxes fat_;
    std::vector<Index> nodeSegment_;  // per slave node, a slave segment holding it (orientation)
    // Per thread: one node's survivors of the box test.
    std::vector<std::vector<Visit>> threadOrder_;
    // SearchOptions::warmStart with curved masters: per slave node, its closest point of the last
    // update; warmValid_ when they were found on the current candidate list.
    std::vector<WarmStart> warm_;
    bool warmValid_ = false;
    std::vector<WarmSegmentCache> warmSegments_;  // per thread, when warm_ is kept
    std::vector<Index> blockPairs_;               // pairs found per block (threads > 1)
    NodePairs pairs_;
};

}  // namespace contact::detail
