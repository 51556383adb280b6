// SPDX-License-Identifier: MIT
// The private state of DistributedSearch: the caller's side (this rank's input, as the solver
// partitions it) and the contact side (this rank's region of the RCB decomposition).
#pragma once

#include "contact_mpi/distributed_search.hpp"
#include "exchange.hpp"
#include "rcb.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

namespace contact::mpi::detail {

/// A segment as it travels: global id, type, node global ids and the rank owning each node.
struct SegmentRecord {
    GlobalId id = 0;
    SegmentType type = SegmentType::Line2;
    std::array<GlobalId, kMaxSegmentNodes> nodes{};
    std::array<int, kMaxSegmentNodes> owners{};
    int origin = 0;     // caller rank that gave it (slave segments: results go there)
    Index slot = 0;     // slave segments: its place among the origin's slave items (State::slotId)
    bool owned = true;  // masters: owned by this rank (else a ghost)
};

/// Coordinates of a list of nodes, to or from one rank.
struct Link {
    int rank = 0;
    std::vector<Index> nodes;  // local node indices (caller side: RankNodes; contact side: cNode)
};

/// A box in 3D (2D: z = 0), closed; empty when lo > hi.
struct Box {
    std::array<double, 3> lo{HUGE_VAL, HUGE_VAL, HUGE_VAL};
    std::array<double, 3> hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    void add(const Box& b) noexcept {
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], b.lo[k]);
            hi[k] = std::max(hi[k], b.hi[k]);
        }
    }
    void add(const Eigen::Vector3d& p) noexcept {
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], p[k]);
            hi[k] = std::max(hi[k], p[k]);
        }
    }
    [[nodiscard]] Box grown(double h) const noexcept {
        Box b = *this;
        for (int k = 0; k < 3; ++k) {
            b.lo[k] -= h;
            b.hi[k] += h;
        }
        return b;
    }
    [[nodiscard]] bool meets(const Box& b) const noexcept {
        for (int k = 0; k < 3; ++k) {
            if (lo[k] > b.hi[k] || b.lo[k] > hi[k]) {
                return false;
            }
        }
        return true;
    }
    [[nodiscard]] bool contains(const Box& b) const noexcept {
        for (int k = 0; k < 3; ++k) {
            if (!(b.lo[k] >= lo[k] && b.hi[k] <= hi[k])) {
                return false;
            }
        }
        return true;
    }
};

struct State {
    explicit State(MPI_Comm comm) : rcb(comm) {}

    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 1;
    bool setUp = false;
    bool nodeMode = true;
    bool slaveAsNodes = false;  // the slave was given as a node list
    bool sameSurface = false;   // global master and slave are one surface
    int dim = 3;                // of the model (every rank with segments agrees)
    int callerDim = 3;          // of this rank's coordinates at setSurfaces
    double capture = 0.0;
    double skin = 0.0;
    double meanMasterSize = 0.0;
    long long globalMasters = 0;
    long long globalSlaveItems = 0;
    long long globalSlaveSegments = 0;

    // ---- Caller side: this rank's input.
    Index numNodes = 0;
    std::vector<GlobalId> nodeIds;
    std::vector<std::pair<GlobalId, Index>> idIndex;  // sorted by id
    std::vector<int> nodeOwner;    // per node: owning rank; -1 for nodes no surface uses
    std::vector<Index> usedNodes;  // nodes a surface uses or this rank owns (checked each update)
    std::vector<double> setupCoords;  // dim per node, as at setSurfaces
    SurfacePart master;
    SurfacePart slave;                   // empty when given as nodes
    std::vector<Index> slaveNodeList;    // the slave as nodes (this rank's indices)
    std::vector<Index> ownedSlaveNodes;  // node mode: slave nodes this rank owns, by id
    std::vector<Index> slaveValence;     // their number of slave segments (global)
    // This rank's slave items (node mode: ownedSlaveNodes; segment mode: its slave segments)
    // ordered by global id: the result order. Slot t holds item slotCaller[t], id slotId[t].
    std::vector<GlobalId> slotId;
    std::vector<Index> slotCaller;
    std::vector<Index> slaveSlot;    // segment mode: per slave segment of this rank, its slot
    std::vector<Link> sendCoords;    // to contact ranks, each update
    std::vector<int> resultSources;  // contact ranks that send this rank its pairs

    // ---- Contact side: this rank's region.
    Rcb rcb;
    std::vector<GlobalId> cNodeIds;  // sorted; contact node index = position
    std::vector<double> cCoords;     // dim per contact node, current
    std::vector<Link> recvCoords;    // from owner ranks, each update
    // Masters held (owned + ghosts), in the order given to the serial search (by global id).
    std::vector<SegmentRecord> cMasters;
    std::vector<GlobalId> cMasterIds;  // their ids (the pairs' master column)
    std::vector<Box> cMasterFat;       // per held master: grown box of the last partition (owned)
    Index ghostMasters = 0;
    // Slave items: node mode, the owned slave nodes (contact node index, id, origin, index there);
    // segment mode, the slave segments. cSlave: the slave surface given to the serial search
    // (segment mode; node mode with self-contact: every slave segment holding an owned node).
    std::vector<Index> cSlaveNode;
    std::vector<int> cSlaveNodeOrigin;
    std::vector<Index> cSlaveNodeSlot;  // its slot on the origin rank
    std::vector<Index> cSlaveItemOf;    // node mode: per contact node, its slave item or -1
    std::vector<SegmentRecord> cSlaveSegments;
    Box slaveFat;  // this rank's slave items at the last partition, grown by skin / 2
    std::vector<int> resultTargets;  // caller ranks this rank sends pairs to
    std::unique_ptr<ContactSearch> local;

    // Scratch reused between updates.
    std::vector<ByteWriter> out;
    Received in;
    std::vector<std::vector<double>> coordBuffers;
    std::vector<MPI_Request> coordRequests;
    std::vector<RawBuffer> resultOut;    // per caller rank: its pairs' records
    std::vector<std::size_t> sendCount;  // records per caller rank
    std::vector<char*> sendCursor;
    RawBuffer resultIn;                 // records received, by source
    std::vector<std::size_t> resultAt;  // per result source: its offset in resultIn
    std::vector<Index> ownPairs;        // local pairs of this rank's own slave items
    std::vector<Index> slotStart;       // counting sort of the pairs by slot
    std::vector<MPI_Request> requests;
};

}  // namespace contact::mpi::detail
