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

/// Coordinates of a list of nodes, to or from one rank.
struct Link {
    int rank = 0;
    Big<Index> nodes;  // local node indices (caller side: RankNodes; contact side: cNode)
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

/// Scratch of a repartition, kept between repartitions (fresh pages are dear).
/// A box kept in float, rounded outward: it holds the box it was made from.
struct FloatBox {
    std::array<float, 3> lo{};
    std::array<float, 3> hi{};
    [[nodiscard]] static FloatBox outward(const Box& b) noexcept {
        FloatBox f;
        for (int k = 0; k < 3; ++k) {
            f.lo[k] = static_cast<float>(b.lo[k]);
            if (static_cast<double>(f.lo[k]) > b.lo[k]) {
                f.lo[k] = std::nextafter(f.lo[k], -HUGE_VALF);
            }
            f.hi[k] = static_cast<float>(b.hi[k]);
            if (static_cast<double>(f.hi[k]) < b.hi[k]) {
                f.hi[k] = std::nextafter(f.hi[k], HUGE_VALF);
            }
        }
        return f;
    }
    [[nodiscard]] Box widened() const noexcept {
        Box b;
        for (int k = 0; k < 3; ++k) {
            b.lo[k] = lo[k];
            b.hi[k] = hi[k];
        }
        return b;
    }
    [[nodiscard]] bool contains(const Box& b) const noexcept {
        for (int k = 0; k < 3; ++k) {
            if (!(b.lo[k] >= static_cast<double>(lo[k]) && b.hi[k] <= static_cast<double>(hi[k]))) {
                return false;
            }
        }
        return true;
    }
};

struct MigrationScratch {
    // Caller side: RCB points, each item's destination, items and nodes grouped by destination.
    std::vector<double> xyz;
    std::vector<float> weights;
    std::vector<double> sampleXyz;  // what Zoltan partitions: a sample of the points
    std::vector<float> sampleWeights;
    Big<int> dest[5];             // per item of each kind (Kind in partition.cpp)
    Big<Index> copyOf;            // per copy (kind 2): its slave segment
    Big<Index> ghostOf;           // per ghost (kind 4): its master
    std::vector<Index> first[5];  // items of destination r: item[kind][first[kind][r], ...)
    Big<Index> item[5];
    Big<Index> stamp;              // per caller node: last destination it was listed for
    Big<Index> position;           // per caller node: its place in the current destination's list
    std::vector<Index> nodeFirst;  // per destination: its node list in nodes[nodeFirst[r], ...)
    Big<Index> nodes;              // caller nodes, each destination's in id order
    std::vector<double> boxes;     // per rank: its slave box (lo, then -hi), all ranks'
    // Contact side: what arrived, read in place (byte offsets into the received bytes).
    std::vector<std::size_t> runAt;  // per source: where its node ids start
    std::vector<Index> runBase;      // per source: its first node entry
    Big<Index> entryNode;            // per node entry: its contact node
    Big<Index> itemAt[2];            // masters (owned, then ghosts), slave segments: records
    Big<int> itemSource[2];
    Big<Index> nEntry;  // slave nodes: node entry, origin, slot, valence
    Big<int> nOrigin;
    Big<Index> nSlot;
    Big<Index> nValence;
    Big<std::uint8_t> owned;  // per held master (arrival order): 1 = owned
    Big<double> setupCoords;  // contact nodes' coordinates at setSurfaces
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
    Big<GlobalId> nodeIds;
    Big<GlobalId> sortedIds;       // the node ids, sorted
    Big<Index> sortedNodes;        // the node of each (the nodes in id order)
    Big<Index> idRank;             // per node: its place in id order
    Big<int> nodeOwner;            // per node: owning rank; -1 for nodes no surface uses
    Big<std::uint8_t> nodeShared;  // per node: 1 when other ranks use it too (set-up)
    Big<Index> usedNodes;          // nodes a surface uses or this rank owns (checked each update)
    Big<double> setupCoords;       // dim per node, as at setSurfaces
    SurfacePart master;
    SurfacePart slave;           // empty when given as nodes
    Big<GlobalId> slaveTwin;     // sameSurface: per slave segment, its id as a master segment
    Big<Index> slaveNodeList;    // the slave as nodes (this rank's indices)
    Big<Index> ownedSlaveNodes;  // node mode: slave nodes this rank owns, by id
    Big<Index> slaveValence;     // their number of slave segments (global)
    // This rank's slave items (node mode: ownedSlaveNodes; segment mode: its slave segments)
    // ordered by global id: the result order. Slot t holds item slotCaller[t], id slotId[t].
    Big<GlobalId> slotId;
    Big<Index> slotCaller;
    Big<Index> slaveSlot;            // segment mode: per slave segment of this rank, its slot
    std::vector<Link> sendCoords;    // to contact ranks, each update
    std::vector<int> resultSources;  // contact ranks that send this rank its pairs

    // ---- Contact side: this rank's region.
    Rcb rcb;
    Big<GlobalId> cNodeIds;        // sorted; contact node index = position
    Big<int> cNodeOwner;           // the owner of each (where its coordinates come from)
    Big<double> cCoords;           // dim per contact node, current
    std::vector<Link> recvCoords;  // from owner ranks, each update
    // Masters held (owned + ghosts), in the order given to the serial search (by global id).
    Big<GlobalId> cMasterIds;  // their ids (the pairs' master column)
    // Their grown box F of the last partition, in float (ghosts: unbounded; their owner checks).
    Big<FloatBox> cMasterFat;
    Index ghostMasters = 0;
    // Slave items: node mode, the owned slave nodes (contact node index, origin, slot there);
    // segment mode, the slave segments (id, origin, slot there). The slave surface given to the
    // serial search (segment mode; node mode with self-contact: every slave segment holding an
    // owned node) is ordered by id.
    std::vector<Index> cSlaveNode;
    Big<int> cSlaveNodeOrigin;
    Big<Index> cSlaveNodeSlot;  // its slot on the origin rank
    Big<Index> cSlaveItemOf;    // node mode: per contact node, its slave item or -1
    Big<GlobalId> cSlaveSegId;
    Big<GlobalId> cSlaveSegTwin;  // sameSurface: the id of the master segment each one is
    Big<int> cSlaveSegOrigin;
    Big<Index> cSlaveSegSlot;
    Box slaveFat;  // this rank's slave items at the last partition, grown by skin / 2
    std::vector<int> resultTargets;  // caller ranks this rank sends pairs to
    std::unique_ptr<ContactSearch> local;
    bool lastUpdateOk = false;  // the last update() succeeded (the same on every rank)

    // Scratch of the set-up and the repartitions, kept (fresh pages are dear).
    Exchange ex;
    MigrationScratch mig;
    Scratch<std::uint64_t> keys, keyTmp;
    Scratch<Index> order, orderTmp;
    // Scratch reused between updates.
    std::vector<Big<double>> coordBuffers;
    std::vector<MPI_Request> coordRequests;
    std::vector<RawBuffer> resultOut;    // per caller rank: its pairs' records
    std::vector<std::size_t> sendCount;  // records per caller rank
    std::vector<char*> sendCursor;
    RawBuffer resultIn;                 // records received, by source
    std::vector<std::size_t> resultAt;  // per result source: its offset in resultIn
    Big<Index> ownPairs;                // local pairs of this rank's own slave items
    Big<Index> slotStart;               // counting sort of the pairs by slot
    std::vector<MPI_Request> requests;
};

}  // namespace contact::mpi::detail
