// SPDX-License-Identifier: MIT
// The contact search across MPI ranks, bit for bit the serial search (docs/design.md, "Beyond
// one machine"; with SearchOptions::warmStart, the same pairs and values within 1e-12): Zoltan's
// RCB over the contact faces, master segments ghosted only to the ranks whose grown box they reach,
// the serial search on each rank, the pairs sent back to the ranks that own the slaves in the
// caller's partition.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include "contact_mpi/export.hpp"

#include <Eigen/Core>
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace contact::mpi {

/// Global id of a node or segment, the same on every rank.
using GlobalId = std::int64_t;

namespace detail {
struct State;  // contact_mpi/src/state.hpp
}  // namespace detail

/// This rank's nodes: the global id of each (node i is column i of the coordinates), and which
/// of them this rank owns.
struct RankNodes {
    std::vector<GlobalId> ids;
    /// 1 where this rank owns node i: its coordinates are read here at every update, and the
    /// pairs of an owned slave node come back here. Every node a segment (or the slave node list)
    /// uses must be owned by exactly one rank. Empty on every rank: the lowest rank whose
    /// segments (or slave node list) use a node owns it.
    std::vector<std::uint8_t> owned;
};

/// This rank's part of one surface: segments whose node indices are this rank's nodes
/// (RankNodes), and the global id of each. Each segment is given by one rank. The global surface
/// is the union of the parts ordered by global id: the surface the serial search would get, so
/// ties between equally close master segments go to the lowest global id.
struct SurfacePart {
    Surface surface;
    std::vector<GlobalId> ids;
};

/// Node-to-segment pairs of the slave nodes this rank owns, ordered by slave global id; the
/// values are bit for bit those of the serial search (NodePairs); with warm starts
/// (SearchOptions::warmStart) on curved masters, within their 1e-12.
class GlobalNodePairs {
public:
    [[nodiscard]] Index size() const noexcept { return count_; }
    [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
    /// Slave node global id.
    [[nodiscard]] ConstSpan<GlobalId> slave() const noexcept { return {slave_.data(), count_}; }
    /// The slave node's index in this rank's nodes (RankNodes).
    [[nodiscard]] ConstSpan<Index> slaveLocal() const noexcept {
        return {slaveLocal_.data(), count_};
    }
    /// Master segment global id holding the closest point (ties: the lowest id).
    [[nodiscard]] ConstSpan<GlobalId> master() const noexcept { return {master_.data(), count_}; }
    /// As NodePairs: gap (negative = penetration), distance, status, local coordinates, point,
    /// outward normal, tangents and master shape-function values at the closest point.
    [[nodiscard]] ConstSpan<double> gap() const noexcept { return {gap_.data(), count_}; }
    [[nodiscard]] ConstSpan<double> distance() const noexcept { return {distance_.data(), count_}; }
    [[nodiscard]] ConstSpan<ProjectionStatus> status() const noexcept {
        return {status_.data(), count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix2Xd> xi() const noexcept {
        return {xi_.data(), 2, count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> point() const noexcept {
        return {point_.data(), 3, count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> normal() const noexcept {
        return {normal_.data(), 3, count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> tangent1() const noexcept {
        return {tangent1_.data(), 3, count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> tangent2() const noexcept {
        return {tangent2_.data(), 3, count_};
    }
    [[nodiscard]] Eigen::Map<const NodePairs::ShapeMatrix> shape() const noexcept {
        return {shape_.data(), kMaxSegmentNodes, count_};
    }

private:
    friend class DistributedSearch;
    std::vector<GlobalId> slave_, master_;
    std::vector<Index> slaveLocal_;
    std::vector<double> gap_, distance_, xi_, point_, normal_, tangent1_, tangent2_, shape_;
    std::vector<ProjectionStatus> status_;
    Index count_ = 0;
};

/// Segment-to-segment pairs of the slave segments this rank gave, ordered by (slave, master)
/// global id.
class GlobalSegmentPairs {
public:
    [[nodiscard]] Index size() const noexcept { return count_; }
    [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
    [[nodiscard]] ConstSpan<GlobalId> slave() const noexcept { return {slave_.data(), count_}; }
    /// The slave segment's index in this rank's slave part.
    [[nodiscard]] ConstSpan<Index> slaveLocal() const noexcept {
        return {slaveLocal_.data(), count_};
    }
    [[nodiscard]] ConstSpan<GlobalId> master() const noexcept { return {master_.data(), count_}; }

private:
    friend class DistributedSearch;
    std::vector<GlobalId> slave_, master_;
    std::vector<Index> slaveLocal_;
    Index count_ = 0;
};

/// What one collective call did on this rank.
struct DistributedStats {
    /// Outcome, the same on every rank (UpdateStatus of the serial search; kNotSetUp also when a
    /// repartition failed: then `error` says why and setSurfaces() must be called again). Where
    /// ranks find different problems, the one the serial search on the whole model would give:
    /// a problem of the caller's coordinates (checked first), then kCoordinatesOutOfRange, then
    /// kDegenerateSegment, then kOutOfMemory.
    UpdateStatus status = UpdateStatus::kNotSetUp;
    /// Why, where the status alone does not say: the failed repartition; on the ranks that found
    /// it, the node of kNonFiniteCoordinates or kCoordinatesOutOfRange by global id (a caller's
    /// NaN: also local.faultNode, its index in this rank's coordinates); kDegenerateSegment, the
    /// same on every rank: the lowest degenerate master id (else slave id) as the serial search
    /// picks it, the rank that gave it and its index there, and the corner by global node id, as
    /// in "master segment id 40 (rank 2's master segment 9), collapsed or folded at corner node
    /// id 1129 at (-0.4, -0.2, 0)". On that rank local.faultSegment and faultNode are the
    /// segment's index in this rank's part and the corner's in its coordinates, elsewhere
    /// kNoIndex; faultInSlave is every rank's. After kCoordinatesOutOfRange they are kNoIndex
    /// (a contact rank's indices are no caller's).
    std::string error;
    /// A new RCB partition, migration and ghost exchange ran (setSurfaces, or an update where a
    /// box left its grown box); the same on every rank.
    bool repartitioned = false;
    UpdateStats local;  ///< this rank's serial search
    /// The surfaces' orientation over every rank's pairs (the same on every rank): the counts of
    /// each rank's check of its own pairs (local.orientation) summed, and the verdict of the
    /// sums. Each rank judges a sample of its pairs, so the counts are not a serial search's. In
    /// node mode the ranks search slave nodes without their segments: no normals, kUnknown
    /// (contact::checkOrientation on the gathered pairs gives the serial search's check). In
    /// self-contact kUnknown too, as in the serial search: one surface has no master side.
    OrientationCheck orientation;
    /// This rank's share of the contact decomposition: master segments it owns and ghosts it
    /// holds, and its slave items (nodes in node mode, segments in segment mode).
    Index ownedMasters = 0;
    Index ghostMasters = 0;
    Index slaveItems = 0;
    Index pairs = 0;  ///< pairs now held by this rank (of the slaves it owns as the caller)
    /// Bytes this rank sent to other ranks (message payloads): in all, and in the repartition.
    long long bytesSent = 0;
    long long repartitionBytes = 0;
    long long ghostBytes = 0;      ///< of which the ghost segments (repartition only)
    double timePartition = 0.0;    ///< ms: Zoltan RCB and the assignment of items to ranks
    double timeGhosts = 0.0;       ///< ms: migration, ghost selection and exchange, local set-up
    double timeCoordinates = 0.0;  ///< ms: current coordinates to the ranks that need them
    double timeCheck = 0.0;        ///< ms: the boxes-inside-grown-boxes test and its allreduce
    double timeSearch = 0.0;       ///< ms: the serial search's update on this rank
    double timeResults = 0.0;      ///< ms: pairs back to the caller's owners
    /// Wall time of the call on this rank, ms.
    double timeTotal = 0.0;
};

/// Contact search over the ranks of a communicator (duplicated inside). Every call but the
/// accessors is collective. Same options and same results as ContactSearch on the global
/// surfaces, for any number of ranks. Out of memory on one rank in the middle of a collective
/// call ends the job through MPI_Abort, with a message naming the rank and the call (the other
/// ranks would wait for it forever); an allocation that fails inside a step the ranks agree on
/// is thrown (setSurfaces) or returned as a status (update) on every rank alike.
class CONTACT_MPI_API DistributedSearch {
public:
    /// Needs MPI initialized. Throws std::invalid_argument on every rank alike, naming the lowest
    /// rank at fault, when a rank's options are invalid (as ContactSearch checks them), and when
    /// the ranks give different mode, selfContact, capture, captureRelative, skinRelative,
    /// warmStart, broadPhase or checkOrientation (threads may differ). checkOrientation = false
    /// skips the check of the global surfaces' orientation (the caller's own); each rank's part
    /// always skips it.
    explicit DistributedSearch(MPI_Comm comm, const SearchOptions& options = {});
    ~DistributedSearch();
    DistributedSearch(const DistributedSearch&) = delete;
    DistributedSearch& operator=(const DistributedSearch&) = delete;

    /// Registers this rank's parts of the surfaces and partitions them (collective).
    /// \param nodes   this rank's node ids (and ownership); x has one column per node
    /// \param master  this rank's master segments; slave: its slave segments
    /// Throws std::invalid_argument on every rank, with the same message, when any rank's input
    /// is bad: what ContactSearch::setSurfaces refuses (naming global ids), and for a rank's part
    /// (ids that do not match its segments, a segment node it does not list), a global id given
    /// twice, a node owned by no rank or by two, a node whose coordinates differ between ranks.
    /// Unlike ContactSearch, a refused call leaves the search not set up (no pairs; update()
    /// returns kNotSetUp until a setSurfaces() succeeds).
    void setSurfaces(const RankNodes& nodes, SurfacePart master, SurfacePart slave,
                     const CoordinatesView& x);
    /// Node-to-segment search of a slave given as nodes (this rank's node indices).
    void setSurfaces(const RankNodes& nodes, SurfacePart master, std::vector<Index> slaveNodes,
                     const CoordinatesView& x);

    /// Searches with the current coordinates (this rank's nodes, as at setSurfaces; a node held
    /// by several ranks has the same coordinates on each, as setSurfaces checked). Never
    /// throws; a problem on any rank comes back as the same status on every rank, and the pairs
    /// of the last good update stay in place.
    [[nodiscard]] DistributedStats update(const CoordinatesView& x);

    /// Pairs of the slave nodes this rank owns (node mode; std::logic_error in segment mode).
    [[nodiscard]] const GlobalNodePairs& nodePairs() const;
    /// Pairs of the slave segments this rank gave (segment mode; std::logic_error otherwise).
    [[nodiscard]] const GlobalSegmentPairs& segmentPairs() const;
    /// What setSurfaces() did (the first partition).
    [[nodiscard]] const DistributedStats& setupStats() const noexcept { return setupStats_; }
    /// Capture distance, skin and mean master segment size, resolved at setSurfaces as the serial
    /// search resolves them (an exact sum: the same doubles for any rank count).
    [[nodiscard]] double captureDistance() const noexcept;
    [[nodiscard]] double skinDistance() const noexcept;
    [[nodiscard]] double meanMasterSize() const noexcept;
    /// Global counts: master segments, and slave items (nodes in node mode, segments otherwise).
    [[nodiscard]] long long globalMasters() const noexcept;
    [[nodiscard]] long long globalSlaveItems() const noexcept;
    [[nodiscard]] const SearchOptions& options() const noexcept { return options_; }
    [[nodiscard]] MPI_Comm communicator() const noexcept { return comm_; }

private:
    friend class DistributedMortar;  // reads the contact side: held segments, pairs, owners
    void setup(const RankNodes& nodes, SurfacePart& master, SurfacePart* slave,
               std::vector<Index>* slaveNodes, const CoordinatesView& x);
    long long returnPairs();
    void placeNodePairs(const NodePairs& p, std::size_t received, std::size_t n);
    void placeSegmentPairs(const SegmentPairs& p, std::size_t received, std::size_t n);

    MPI_Comm comm_ = MPI_COMM_NULL;
    SearchOptions options_;
    std::unique_ptr<detail::State> state_;
    DistributedStats setupStats_;
    GlobalNodePairs nodePairs_;
    GlobalSegmentPairs segmentPairs_;
};

}  // namespace contact::mpi
