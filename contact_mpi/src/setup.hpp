// SPDX-License-Identifier: MIT
// The checks and resolutions of setSurfaces() (setup.cpp) and the decomposition (partition.cpp).
#pragma once

#include "state.hpp"

namespace contact::mpi::detail {

/// Local: orders `count` records by the keys keyOf(k) (stable: records of one key keep their
/// order, rank order for records received from all ranks), into s.order.
template <class KeyOf>
void sortRecords(State& s, std::size_t count, KeyOf keyOf) {
    s.keys.resize(count);
    s.order.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        s.keys[k] = keyOf(k);
        s.order[k] = static_cast<Index>(k);
    }
    radixSort(s.keys, s.order, s.keyTmp, s.orderTmp);
}

/// Local: this rank's node ids sorted (s.sortedIds, s.sortedNodes, s.idRank).
void sortNodeIds(State& s, const std::vector<GlobalId>& ids);

/// Local: this rank's input as ContactSearch::setSurfaces would check it (throws
/// std::invalid_argument naming the rank and global ids).
void validateInput(const State& s, const RankNodes& nodes, const SurfacePart& master,
                   const SurfacePart* slave, const std::vector<Index>* slaveNodes,
                   const CoordinatesView& x, bool nodeMode);

/// Collective: the owner of every node a surface uses (flags given, or the lowest rank using
/// it); checks one owner and equal coordinates on every rank. Fills s.nodeOwner, s.usedNodes,
/// s.ownedSlaveNodes (ordered by id) and s.slaveValence.
void resolveNodeOwners(State& s, const RankNodes& nodes, const CoordinatesView& x, bool flagsGiven,
                       long long& bytes);

/// Local: the result slots of this rank's slave items, ordered by global id (State::slotId).
void assignSlots(State& s);

/// Collective: each segment id given once per surface; sets s.sameSurface (master and slave
/// are one surface: in id order, the k-th master has the k-th slave's type and node ids, as
/// the serial search decides it, whatever their ids) and, in segment mode, s.slaveTwin.
void checkSegmentIds(State& s, long long& bytes);

/// Collective: two segments running a shared edge (2D: node) the same way, as the serial
/// search refuses them: one is inside-out, or they are duplicates.
void checkOrientation(State& s, long long& bytes);

/// Collective: mean master size (exact sum), capture distance and skin, as the serial search
/// resolves them, and the resolution check of the capture distance.
void resolveLengths(State& s, const SearchOptions& options, const CoordinatesView& x);

/// Collective: a new RCB partition from the coordinates x (this rank's nodes, the caller's
/// layout), the migration of owned items, the ghost exchange and the serial search's set-up on
/// each rank. Fills the contact side of s and the partition fields of stats.
void repartition(State& s, const SearchOptions& options, const CoordinatesView& x,
                 DistributedStats& stats, bool atSetup);

/// Point to point: the coordinates x (caller side) to the contact ranks that need them, into
/// dst (dim per contact node). Returns the bytes sent to other ranks.
long long sendCoordinates(State& s, const CoordinatesView& x, Big<double>& dst);

/// Buffered box of a segment as the ghost rule uses it: the Bezier hull's box grown by the
/// capture distance and a pad of 2^-20 of its scale, which holds every box the serial search
/// makes of it (its rounding pad of 64 ulps and the rounding to float, 2^-23).
[[nodiscard]] Box ghostBox(const SegmentNodes& seg, double capture) noexcept;
/// The same box of segment k of a surface, the same doubles (straight segments without the
/// gather of their nodes).
[[nodiscard]] Box ghostBoxOf(const Surface& surface, Index k, const CoordinatesView& x,
                             double capture) noexcept;

/// Local: every owned master's box (ghostBox) inside its grown box of the last partition, and
/// every slave item inside this rank's grown slave box (the Verlet test of the decomposition).
[[nodiscard]] bool boxesInside(const State& s);

}  // namespace contact::mpi::detail
