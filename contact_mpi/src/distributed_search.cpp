// SPDX-License-Identifier: MIT
#include "contact_mpi/distributed_search.hpp"

#include "contact/segment.hpp"

#include "detail/search_common.hpp"
#include "exchange.hpp"
#include "setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

namespace contact::mpi {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kTagResults = 7102;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A node pair as it travels back to the slave node's owner (no padding: every byte is set).
struct NodeResult {
    GlobalId master;
    double gap;
    double distance;
    double xi[2];
    double point[3];
    double normal[3];
    double tangent1[3];
    double tangent2[3];
    double shape[kMaxSegmentNodes];
    Index slot;  // of the slave node on the receiving rank
    std::uint8_t status;
    std::uint8_t pad[3];
};
static_assert(sizeof(NodeResult) == 8 + 25 * 8 + 8, "NodeResult has no hidden padding");

struct SegmentResult {
    GlobalId master;
    Index slot;  // of the slave segment on the receiving rank
    std::int32_t pad;
};
static_assert(sizeof(SegmentResult) == 16, "SegmentResult has no hidden padding");

const char* const kFn = "contact::mpi::DistributedSearch::setSurfaces()";

// Collective: the options as the serial search checks them, on every rank at once (an option one
// rank refuses would leave the others waiting in the next collective call); then the options that
// decide the collective steps and the results, every rank's the same as rank 0's (a rank in another
// mode would wait in other collectives); threads may differ. Throws std::invalid_argument on
// every rank alike, naming the lowest rank at fault.
void checkOptions(MPI_Comm comm, const SearchOptions& options) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const std::string here = "contact::mpi::DistributedSearch: rank " + std::to_string(rank);
    detail::collectively(comm, [&] {
        try {
            ContactSearch check(options);
            (void)check;
        } catch (const std::exception& e) {
            std::string what = e.what();
            const std::string serial = "contact::ContactSearch: ";
            if (what.compare(0, serial.size(), serial) == 0) {
                what.erase(0, serial.size());
            }
            throw std::invalid_argument(here + "'s SearchOptions are refused: " + what);
        }
    });
    constexpr int kCompared = 8;
    std::int64_t mine[kCompared] = {static_cast<std::int64_t>(options.mode),
                                    options.selfContact ? 1 : 0,
                                    options.captureRelative ? 1 : 0,
                                    0,
                                    0,
                                    options.warmStart ? 1 : 0,
                                    static_cast<std::int64_t>(options.broadPhase),
                                    options.checkOrientation ? 1 : 0};
    std::memcpy(&mine[3], &options.capture, sizeof(double));
    std::memcpy(&mine[4], &options.skinRelative, sizeof(double));
    std::int64_t first[kCompared];
    std::memcpy(first, mine, sizeof mine);
    MPI_Bcast(first, kCompared, MPI_INT64_T, 0, comm);
    const char* const names[kCompared] = {"mode",       "selfContact",     "captureRelative",
                                          "capture",    "skinRelative",    "warmStart",
                                          "broadPhase", "checkOrientation"};
    std::string error;
    for (int k = 0; k < kCompared && error.empty(); ++k) {
        if (mine[k] != first[k]) {
            error = "contact::mpi::DistributedSearch: the ranks give different SearchOptions::" +
                    std::string(names[k]) + " (rank 0 and rank " + std::to_string(rank) +
                    "): give every rank the same options";
        }
    }
    detail::agreeOnErrors(comm, error);
}

// The ranks' statuses of one step combined into the status of the call, the same on every rank.
// The statuses of the caller's coordinates (step 1) outrank the others, among themselves by their
// number. Of the serial searches' statuses (step 4), the one the serial search on the whole model
// would give: its box pass finds coordinates out of range before a degenerate segment, and memory
// runs out only after both passed, so kCoordinatesOutOfRange, then kDegenerateSegment, then
// kOutOfMemory (the one failure that depends on how the model is split, not on the model).
UpdateStatus combineStatuses(MPI_Comm comm, UpdateStatus mine) {
    const auto rank = [](UpdateStatus s) {
        switch (s) {
        case UpdateStatus::kOk: return 0;
        case UpdateStatus::kOutOfMemory: return 1;
        case UpdateStatus::kDegenerateSegment: return 2;
        case UpdateStatus::kCoordinatesOutOfRange: return 3;
        default: return 4;  // the caller's coordinates
        }
    };
    int code = rank(mine) * 256 + static_cast<int>(mine);
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm);
    return static_cast<UpdateStatus>(code % 256);
}

// The text of a degenerate segment as the serial search's faultText() words it, with the
// segment's global id, the rank that gave it and its index there, and the corner node by global
// id, the same on every rank: "master segment id 40 (rank 2's master segment 7), collapsed or
// folded at corner node id 1129 at (0.1, 0.2, 0)". The segment is the one the serial search
// names: the lowest degenerate master id, else the lowest degenerate slave id. On the rank that
// gave it, local.faultSegment and local.faultNode become its index and the corner's index in
// that rank's part and coordinates; elsewhere kNoIndex. Collective.
void nameDegenerateSegment(const detail::State& s, DistributedStats& stats,
                           const CoordinatesView& cur) {
    constexpr GlobalId kNone = std::numeric_limits<GlobalId>::max();
    const Surface& masters = s.local->master();
    const Surface& slaves = s.local->slave();
    const auto degenerate = [&](const Surface& surface, Index k) {
        return contact::detail::shapeFault(gatherSegment(surface, k, cur)) !=
               contact::detail::kShapeOk;
    };
    // The lowest degenerate master and slave ids held here (the serial search of this rank
    // checked them all: a rank that found none holds none).
    GlobalId lowest[2] = {kNone, kNone};
    if (stats.local.status == UpdateStatus::kDegenerateSegment) {
        for (Index k = 0; k < masters.size(); ++k) {
            if (degenerate(masters, k)) {
                lowest[0] = std::min(lowest[0], s.cMasterIds[k]);
            }
        }
        for (Index k = 0; !s.nodeMode && k < slaves.size(); ++k) {
            if (degenerate(slaves, k)) {
                lowest[1] = std::min(lowest[1], s.cSlaveSegId[k]);
            }
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, lowest, 2, MPI_INT64_T, MPI_MIN, s.comm);
    const bool inSlave = lowest[0] == kNone;
    const GlobalId id = inSlave ? lowest[1] : lowest[0];
    const char* role = inSlave ? "slave" : "master";
    // The lowest rank holding it words its shape; the rank that gave it names its index there.
    const Surface& held = inSlave ? slaves : masters;
    const detail::Big<GlobalId>& heldIds = inSlave ? s.cSlaveSegId : s.cMasterIds;
    const auto here = std::find(heldIds.begin(), heldIds.end(), id);
    int finder = here != heldIds.end() && id != kNone ? s.rank : s.size;
    const std::vector<GlobalId>& given = inSlave ? s.slave.ids : s.master.ids;
    const auto mine = std::find(given.begin(), given.end(), id);
    long long giver[2] = {mine != given.end() ? s.rank : s.size,
                          mine != given.end() ? static_cast<long long>(mine - given.begin()) : -1};
    int owners[2] = {finder, static_cast<int>(giver[0])};
    MPI_Allreduce(MPI_IN_PLACE, owners, 2, MPI_INT, MPI_MIN, s.comm);
    finder = owners[0];
    if (giver[0] != owners[1]) {
        giver[1] = -1;
    }
    giver[0] = owners[1];
    MPI_Allreduce(MPI_IN_PLACE, &giver[1], 1, MPI_LONG_LONG, MPI_MAX, s.comm);
    if (finder == s.size || giver[0] == s.size) {  // cannot happen: every rank's status agrees
        stats.error = "a degenerate segment (not found again)";
        return;
    }
    std::string shape;
    GlobalId corner = kNone;
    if (s.rank == finder) {
        const auto k = static_cast<Index>(here - heldIds.begin());
        const int f = contact::detail::shapeFault(gatherSegment(held, k, cur));
        if (f < 0) {
            shape = "no normal at its centre (zero length or area)";
        } else {
            const Index c = held.nodes(k)[f];
            corner = s.cNodeIds[static_cast<std::size_t>(c)];
            const Eigen::Vector3d p = cur.node(c);
            shape = "collapsed or folded at corner node id " + std::to_string(corner) + " at (";
            for (int d = 0; d < cur.dim; ++d) {
                shape += (d > 0 ? ", " : "") + contact::detail::shortest(p[d]);
            }
            shape += ")";
        }
    }
    int length = static_cast<int>(shape.size());
    MPI_Bcast(&length, 1, MPI_INT, finder, s.comm);
    shape.resize(static_cast<std::size_t>(length));
    MPI_Bcast(shape.data(), length, MPI_CHAR, finder, s.comm);
    MPI_Bcast(&corner, 1, MPI_INT64_T, finder, s.comm);
    stats.error = std::string(role) + " segment id " + std::to_string(id) + " (rank " +
                  std::to_string(giver[0]) + "'s " + role + " segment " + std::to_string(giver[1]) +
                  "), " + shape;
    stats.local.faultInSlave = inSlave;
    stats.local.faultSegment = kNoIndex;
    stats.local.faultNode = kNoIndex;
    if (s.rank == giver[0]) {
        const Surface& part = inSlave ? s.slave.surface : s.master.surface;
        const auto k = static_cast<Index>(giver[1]);
        stats.local.faultSegment = k;
        for (int i = 0; i < nodeCount(part.types[k]); ++i) {
            const Index v = part.nodes(k)[i];
            if (s.nodeIds[static_cast<std::size_t>(v)] == corner) {
                stats.local.faultNode = v;
            }
        }
    }
}

}  // namespace

DistributedSearch::DistributedSearch(MPI_Comm comm, const SearchOptions& options)
    : options_(options) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
        throw std::logic_error("contact::mpi::DistributedSearch: MPI is not initialized");
    }
    MPI_Comm_dup(comm, &comm_);
    try {
        checkOptions(comm_, options);
        state_ = std::make_unique<detail::State>(comm_);
    } catch (...) {
        MPI_Comm_free(&comm_);
        throw;
    }
    state_->comm = comm_;
    MPI_Comm_rank(comm_, &state_->rank);
    MPI_Comm_size(comm_, &state_->size);
}

DistributedSearch::~DistributedSearch() {
    state_.reset();  // Zoltan's structure first: it uses the communicator
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0 && comm_ != MPI_COMM_NULL) {
        MPI_Comm_free(&comm_);
    }
}

void DistributedSearch::setSurfaces(const RankNodes& nodes, SurfacePart master, SurfacePart slave,
                                    const CoordinatesView& x) {
    setup(nodes, master, &slave, nullptr, x);
}

void DistributedSearch::setSurfaces(const RankNodes& nodes, SurfacePart master,
                                    std::vector<Index> slaveNodes, const CoordinatesView& x) {
    setup(nodes, master, nullptr, &slaveNodes, x);
}

// Every rank runs the same sequence of collective steps; each step that can fail ends in an
// agreement, so all ranks throw the same message at the same step, or none does.
void DistributedSearch::setup(const RankNodes& nodes, SurfacePart& master, SurfacePart* slave,
                              std::vector<Index>* slaveNodes, const CoordinatesView& x) try {
    const auto t0 = Clock::now();
    detail::State& s = *state_;
    s.setUp = false;
    s.lastUpdateOk = false;
    s.local.reset();
    nodePairs_ = GlobalNodePairs{};
    segmentPairs_ = GlobalSegmentPairs{};
    s.nodeMode = options_.mode == SearchMode::kNodeToSegment;
    s.slaveAsNodes = slaveNodes != nullptr;
    DistributedStats stats;
    detail::sortNodeIds(s, nodes.ids);
    detail::collectively(
        comm_, [&] { detail::validateInput(s, nodes, master, slave, slaveNodes, x, s.nodeMode); });

    // Global counts and dimension; ownership flags on all ranks or none.
    long long counts[5] = {master.surface.size(), slave != nullptr ? slave->surface.size() : 0,
                           slaveNodes != nullptr ? static_cast<long long>(slaveNodes->size()) : 0,
                           nodes.owned.empty() ? 0 : 1,
                           !nodes.owned.empty() || nodes.ids.empty() ? 0 : 1};
    int dims[2] = {x.dim, -x.dim};
    const bool hasSegments = counts[0] + counts[1] + counts[2] > 0;
    if (!hasSegments) {
        dims[0] = 3;
        dims[1] = -2;
    }
    MPI_Allreduce(MPI_IN_PLACE, counts, 5, MPI_LONG_LONG, MPI_SUM, comm_);
    MPI_Allreduce(MPI_IN_PLACE, dims, 2, MPI_INT, MPI_MIN, comm_);
    detail::collectively(comm_, [&] {
        if (hasSegments && dims[0] != -dims[1]) {
            throw std::invalid_argument(std::string(kFn) + ": ranks give 2D and 3D coordinates");
        }
        if (counts[3] > 0 && counts[4] > 0) {
            throw std::invalid_argument(std::string(kFn) +
                                        ": some ranks give node ownership flags and others "
                                        "not: give them on every rank, or on none");
        }
    });
    // A rank without segments may pass any dimension: the model's is that of the others.
    s.dim = counts[0] + counts[1] + counts[2] > 0 ? dims[0] : x.dim;
    s.callerDim = x.dim;
    s.numNodes = x.numNodes;
    s.nodeIds.assign(nodes.ids.begin(), nodes.ids.end());
    s.master = std::move(master);
    s.slave = slave != nullptr ? std::move(*slave) : SurfacePart{};
    s.slaveNodeList.clear();
    if (slaveNodes != nullptr) {
        s.slaveNodeList.assign(slaveNodes->begin(), slaveNodes->end());
    }
    s.globalMasters = counts[0];
    s.globalSlaveSegments = counts[1];
    long long bytes = 0;
    detail::resolveNodeOwners(s, nodes, x, counts[3] > 0, bytes);
    auto slaveNodeCount = static_cast<long long>(s.ownedSlaveNodes.size());
    MPI_Allreduce(MPI_IN_PLACE, &slaveNodeCount, 1, MPI_LONG_LONG, MPI_SUM, comm_);
    s.globalSlaveItems = s.nodeMode ? slaveNodeCount : s.globalSlaveSegments;
    detail::assignSlots(s);
    detail::checkSegmentIds(s, bytes);
    detail::collectively(comm_, [&] {
        if (s.sameSurface && !options_.selfContact) {
            throw std::invalid_argument(
                std::string(kFn) + ": master and slave are the same surface '" +
                s.master.surface.name +
                "': enable SearchOptions::selfContact (otherwise every node pairs with its own "
                "segments at gap 0)");
        }
    });
    if (options_.checkOrientation) {  // else the caller has checked the global surfaces
        detail::checkOrientation(s, bytes);
    }
    detail::collectively(comm_, [&] { detail::resolveLengths(s, options_, x); });

    s.setupCoords.resize(static_cast<std::size_t>(s.dim) * static_cast<std::size_t>(x.numNodes));
    for (Index i = 0; i < x.numNodes; ++i) {
        const Eigen::Vector3d p = x.node(i);
        for (int c = 0; c < s.dim; ++c) {
            s.setupCoords[static_cast<std::size_t>(s.dim) * i + c] = p[c];
        }
    }
    detail::repartition(s, options_, x, stats, true);
    s.setUp = true;
    stats.status = UpdateStatus::kOk;
    stats.bytesSent += bytes;
    stats.ownedMasters = static_cast<Index>(s.cMasterIds.size()) - s.ghostMasters;
    stats.ghostMasters = s.ghostMasters;
    stats.slaveItems = static_cast<Index>(s.nodeMode ? s.cSlaveNode.size() : s.cSlaveSegId.size());
    stats.timeTotal = msSince(t0);
    setupStats_ = stats;
} catch (const std::bad_alloc&) {  // on this rank alone: the others wait in a collective
    detail::abortJob(comm_, "DistributedSearch::setSurfaces()", "out of memory");
} catch (const std::length_error&) {
    detail::abortJob(comm_, "DistributedSearch::setSurfaces()", "out of memory (length_error)");
}

DistributedStats DistributedSearch::update(const CoordinatesView& x) try {
    const auto t0 = Clock::now();
    DistributedStats stats;
    detail::State& s = *state_;
    s.lastUpdateOk = false;
    if (!s.setUp) {  // the same on every rank: setSurfaces is collective
        stats.status = UpdateStatus::kNotSetUp;
        return stats;
    }
    // 1. The caller's coordinates, checked on every rank, one status for all.
    auto status = UpdateStatus::kOk;
    if (x.problem() != nullptr) {
        status = UpdateStatus::kBadCoordinateView;
    } else if (x.numNodes != s.numNodes || x.dim != s.callerDim) {
        status = UpdateStatus::kWrongNodeCount;
    } else {
        for (const Index i : s.usedNodes) {
            if (!x.node(i).allFinite()) {
                status = UpdateStatus::kNonFiniteCoordinates;
                stats.local.faultNode = i;
                stats.error = "node id " + std::to_string(s.nodeIds[static_cast<std::size_t>(i)]) +
                              " (this rank's " + faultText(stats.local, x) + ")";
                break;
            }
        }
    }
    stats.status = combineStatuses(comm_, status);
    if (stats.status != UpdateStatus::kOk) {
        stats.timeTotal = msSince(t0);
        return stats;
    }

    // 2. Coordinates to the contact ranks; 3. every box inside its grown box, or repartition.
    auto t = Clock::now();
    stats.bytesSent += detail::sendCoordinates(s, x, s.cCoords);
    stats.timeCoordinates = msSince(t);
    t = Clock::now();
    int inside = detail::boxesInside(s) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &inside, 1, MPI_INT, MPI_MIN, comm_);
    stats.timeCheck = msSince(t);
    if (inside == 0) {
        try {
            detail::repartition(s, options_, x, stats, false);
        } catch (const std::bad_alloc&) {  // on this rank alone: the others wait in a collective
            detail::abortJob(comm_, "DistributedSearch::update()", "out of memory");
        } catch (const std::length_error&) {
            detail::abortJob(comm_, "DistributedSearch::update()", "out of memory (length_error)");
        } catch (const std::exception& e) {  // the same on every rank (collective agreement)
            s.setUp = false;
            stats.status = UpdateStatus::kNotSetUp;
            stats.error = e.what();
            stats.timeTotal = msSince(t0);
            return stats;
        }
    }

    // 4. The serial search on this rank; one status for all.
    t = Clock::now();
    const CoordinatesView cur = CoordinatesView::interleaved(
        s.cCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    stats.local = s.local->update(cur);
    stats.timeSearch = msSince(t);
    stats.status = combineStatuses(comm_, stats.local.status);
    if (stats.status == UpdateStatus::kDegenerateSegment) {
        nameDegenerateSegment(s, stats, cur);
    } else {  // a contact node: its id, not its index here
        if (stats.local.faultNode != kNoIndex && stats.local.status == stats.status) {
            stats.error =
                "node id " +
                std::to_string(s.cNodeIds[static_cast<std::size_t>(stats.local.faultNode)]);
        }
        stats.local.faultNode = kNoIndex;
        stats.local.faultSegment = kNoIndex;
        stats.local.faultInSlave = false;
    }
    stats.ownedMasters = static_cast<Index>(s.cMasterIds.size()) - s.ghostMasters;
    stats.ghostMasters = s.ghostMasters;
    stats.slaveItems = static_cast<Index>(s.nodeMode ? s.cSlaveNode.size() : s.cSlaveSegId.size());
    if (stats.status != UpdateStatus::kOk) {
        stats.timeTotal = msSince(t0);
        return stats;
    }

    // The orientation over all ranks' pairs.
    long long counts[4] = {stats.local.orientation.opposed, stats.local.orientation.aligned,
                           stats.local.orientation.inFront, stats.local.orientation.behind};
    MPI_Allreduce(MPI_IN_PLACE, counts, 4, MPI_LONG_LONG, MPI_SUM, comm_);
    stats.orientation.opposed = static_cast<Index>(counts[0]);
    stats.orientation.aligned = static_cast<Index>(counts[1]);
    stats.orientation.inFront = static_cast<Index>(counts[2]);
    stats.orientation.behind = static_cast<Index>(counts[3]);
    // Self-contact: one surface has no master side to judge (as the serial search says).
    stats.orientation.verdict =
        options_.selfContact ? Orientation::kUnknown : orientationVerdict(stats.orientation);

    // 5. Pairs of the slave items this rank holds, to the ranks that own the slaves.
    t = Clock::now();
    stats.bytesSent += returnPairs();
    stats.pairs = s.nodeMode ? nodePairs_.count_ : segmentPairs_.count_;
    stats.timeResults = msSince(t);
    stats.status = UpdateStatus::kOk;
    s.lastUpdateOk = true;
    stats.timeTotal = msSince(t0);
    return stats;
} catch (const std::bad_alloc&) {  // a buffer that grew on this rank alone
    detail::abortJob(comm_, "DistributedSearch::update()", "out of memory");
} catch (const std::length_error&) {
    detail::abortJob(comm_, "DistributedSearch::update()", "out of memory (length_error)");
}

// The pairs found on this rank go to the ranks owning their slaves in the caller's partition,
// where they are ordered by slave id (segment mode: then master id) by a counting sort over the
// slots (a rank's slave items ordered by id; each item knows its slot on its owner): a rank's
// own pairs go from the serial search's columns straight into the result columns, the others
// travel as flat records in buffers kept between updates. Nothing is allocated per pair, and
// nothing once the buffers have grown. Returns the bytes sent.
long long DistributedSearch::returnPairs() {
    detail::State& s = *state_;
    const bool node = s.nodeMode;
    const std::size_t recordSize = node ? sizeof(NodeResult) : sizeof(SegmentResult);
    const NodePairs* np = node ? &s.local->nodePairs() : nullptr;
    const SegmentPairs* sp = node ? nullptr : &s.local->segmentPairs();
    const Index local = node ? np->size() : sp->size();
    // Where local pair i goes: its caller rank and slot there; false when no rank takes it here.
    const auto target = [&](Index i, int& origin, Index& slot) {
        if (node) {
            const Index item = s.cSlaveItemOf[np->slave()[i]];
            if (item < 0) {
                return false;  // a node of a neighbouring slave segment: another rank's
            }
            origin = s.cSlaveNodeOrigin[item];
            slot = s.cSlaveNodeSlot[item];
            return true;
        }
        const Index k = sp->slave()[i];
        if (s.sameSurface && !(s.cSlaveSegTwin[k] < s.cMasterIds[sp->master()[i]])) {
            return false;  // one surface: each pair once, the slave before the master in id order
        }
        origin = s.cSlaveSegOrigin[k];
        slot = s.cSlaveSegSlot[k];
        return true;
    };

    // Count and pack: own pairs listed, the others written as records per caller rank.
    std::vector<std::size_t>& count = s.sendCount;
    count.assign(static_cast<std::size_t>(s.size), 0);
    s.ownPairs.clear();
    int origin = 0;
    Index slot = 0;
    for (Index i = 0; i < local; ++i) {
        if (target(i, origin, slot)) {
            if (origin == s.rank) {
                s.ownPairs.push_back(i);
            } else {
                ++count[origin];
            }
        }
    }
    s.resultOut.resize(static_cast<std::size_t>(s.size));
    std::vector<char*>& cursor = s.sendCursor;
    cursor.assign(static_cast<std::size_t>(s.size), nullptr);
    for (const int r : s.resultTargets) {
        if (r != s.rank) {
            cursor[r] = s.resultOut[r].reserve(count[r] * recordSize);
        }
    }
    if (s.ownPairs.size() != static_cast<std::size_t>(local)) {
        for (Index i = 0; i < local; ++i) {
            if (!target(i, origin, slot) || origin == s.rank) {
                continue;
            }
            if (node) {
                const auto j = static_cast<std::size_t>(i);
                NodeResult r;
                r.master = s.cMasterIds[np->master()[i]];
                r.gap = np->gap()[i];
                r.distance = np->distance()[i];
                std::memcpy(r.xi, np->xi().data() + 2 * j, sizeof r.xi);
                std::memcpy(r.point, np->point().data() + 3 * j, sizeof r.point);
                std::memcpy(r.normal, np->normal().data() + 3 * j, sizeof r.normal);
                std::memcpy(r.tangent1, np->tangent1().data() + 3 * j, sizeof r.tangent1);
                std::memcpy(r.tangent2, np->tangent2().data() + 3 * j, sizeof r.tangent2);
                std::memcpy(r.shape, np->shape().data() + kMaxSegmentNodes * j, sizeof r.shape);
                r.slot = slot;
                r.status = static_cast<std::uint8_t>(np->status()[i]);
                std::memset(r.pad, 0, sizeof r.pad);
                std::memcpy(cursor[origin], &r, sizeof r);
            } else {
                const SegmentResult r{s.cMasterIds[sp->master()[i]], slot, 0};
                std::memcpy(cursor[origin], &r, sizeof r);
            }
            cursor[origin] += recordSize;
        }
    }

    // Send the records, receive this rank's (the sizes first: one buffer, sized once).
    long long bytes = 0;
    s.requests.assign(s.resultTargets.size(), MPI_REQUEST_NULL);
    for (std::size_t k = 0; k < s.resultTargets.size(); ++k) {
        const int r = s.resultTargets[k];
        if (r == s.rank) {
            continue;
        }
        const std::size_t n = count[r] * recordSize;
        bytes += static_cast<long long>(n);
        MPI_Isend(s.resultOut[r].data(), static_cast<int>(n), MPI_BYTE, r, kTagResults, comm_,
                  &s.requests[k]);
    }
    s.resultAt.assign(s.resultSources.size() + 1, 0);
    for (std::size_t k = 0; k < s.resultSources.size(); ++k) {
        int n = 0;
        if (s.resultSources[k] != s.rank) {
            MPI_Status st;
            MPI_Probe(s.resultSources[k], kTagResults, comm_, &st);
            MPI_Get_count(&st, MPI_BYTE, &n);
        }
        s.resultAt[k + 1] = s.resultAt[k] + static_cast<std::size_t>(n);
    }
    char* in = s.resultIn.reserve(s.resultAt.back());
    for (std::size_t k = 0; k < s.resultSources.size(); ++k) {
        if (s.resultSources[k] != s.rank) {
            MPI_Recv(in + s.resultAt[k], static_cast<int>(s.resultAt[k + 1] - s.resultAt[k]),
                     MPI_BYTE, s.resultSources[k], kTagResults, comm_, MPI_STATUS_IGNORE);
        }
    }
    MPI_Waitall(static_cast<int>(s.requests.size()), s.requests.data(), MPI_STATUSES_IGNORE);

    // Counting sort by slot: own pairs and records counted, then placed.
    const std::size_t received = s.resultAt.back() / recordSize;
    const std::size_t slotAt = node ? offsetof(NodeResult, slot) : offsetof(SegmentResult, slot);
    const auto slotOfRecord = [&](std::size_t k) {
        Index v = 0;
        std::memcpy(&v, in + k * recordSize + slotAt, sizeof v);
        return v;
    };
    detail::Big<Index>& start = s.slotStart;
    start.assign(s.slotId.size() + 1, 0);
    for (const Index i : s.ownPairs) {
        target(i, origin, slot);
        ++start[slot + 1];
    }
    for (std::size_t k = 0; k < received; ++k) {
        ++start[slotOfRecord(k) + 1];
    }
    for (std::size_t t = 1; t < start.size(); ++t) {
        start[t] += start[t - 1];
    }
    const auto n = static_cast<std::size_t>(start.back());
    if (node) {
        placeNodePairs(*np, received, n);
    } else {
        placeSegmentPairs(*sp, received, n);
    }
    return bytes;
}

namespace {

// Room for n entries, grown with a margin (fresh pages fault one by one: reuse them).
template <class T>
void fit(std::vector<T>& v, std::size_t n) {
    if (n > v.capacity()) {
        v.reserve(n + n / 4);
    }
    v.resize(n);
}

}  // namespace

void DistributedSearch::placeNodePairs(const NodePairs& p, std::size_t received, std::size_t n) {
    detail::State& s = *state_;
    GlobalNodePairs& out = nodePairs_;
    fit(out.slave_, n);
    fit(out.master_, n);
    fit(out.slaveLocal_, n);
    fit(out.gap_, n);
    fit(out.distance_, n);
    fit(out.status_, n);
    fit(out.xi_, 2 * n);
    fit(out.point_, 3 * n);
    fit(out.normal_, 3 * n);
    fit(out.tangent1_, 3 * n);
    fit(out.tangent2_, 3 * n);
    fit(out.shape_, kMaxSegmentNodes * n);
    // Entry k of the result from slot t: the slave's id and index here, then the pair's values.
    const auto head = [&](Index t) {
        const auto k = static_cast<std::size_t>(s.slotStart[t]++);
        out.slave_[k] = s.slotId[t];
        out.slaveLocal_[k] = s.slotCaller[t];
        return k;
    };
    const auto put3 = [](std::vector<double>& col, std::size_t k, const double* v) {
        std::memcpy(col.data() + 3 * k, v, 3 * sizeof(double));
    };
    for (const Index i : s.ownPairs) {
        const Index item = s.cSlaveItemOf[p.slave()[i]];
        const std::size_t k = head(s.cSlaveNodeSlot[item]);
        const auto j = static_cast<std::size_t>(i);
        out.master_[k] = s.cMasterIds[p.master()[i]];
        out.gap_[k] = p.gap()[i];
        out.distance_[k] = p.distance()[i];
        out.status_[k] = p.status()[i];
        std::memcpy(out.xi_.data() + 2 * k, p.xi().data() + 2 * j, 2 * sizeof(double));
        put3(out.point_, k, p.point().data() + 3 * j);
        put3(out.normal_, k, p.normal().data() + 3 * j);
        put3(out.tangent1_, k, p.tangent1().data() + 3 * j);
        put3(out.tangent2_, k, p.tangent2().data() + 3 * j);
        std::memcpy(out.shape_.data() + kMaxSegmentNodes * k,
                    p.shape().data() + kMaxSegmentNodes * j, kMaxSegmentNodes * sizeof(double));
    }
    const char* in = s.resultIn.data();
    for (std::size_t r = 0; r < received; ++r) {
        NodeResult rec;
        std::memcpy(&rec, in + r * sizeof(NodeResult), sizeof rec);
        const std::size_t k = head(rec.slot);
        out.master_[k] = rec.master;
        out.gap_[k] = rec.gap;
        out.distance_[k] = rec.distance;
        out.status_[k] = static_cast<ProjectionStatus>(rec.status);
        std::memcpy(out.xi_.data() + 2 * k, rec.xi, sizeof rec.xi);
        put3(out.point_, k, rec.point);
        put3(out.normal_, k, rec.normal);
        put3(out.tangent1_, k, rec.tangent1);
        put3(out.tangent2_, k, rec.tangent2);
        std::memcpy(out.shape_.data() + kMaxSegmentNodes * k, rec.shape, sizeof rec.shape);
    }
    out.count_ = static_cast<Index>(n);
}

void DistributedSearch::placeSegmentPairs(const SegmentPairs& p, std::size_t received,
                                          std::size_t n) {
    detail::State& s = *state_;
    GlobalSegmentPairs& out = segmentPairs_;
    fit(out.slave_, n);
    fit(out.master_, n);
    fit(out.slaveLocal_, n);
    const auto put = [&](Index t, GlobalId master) {
        const auto k = static_cast<std::size_t>(s.slotStart[t]++);
        out.slave_[k] = s.slotId[t];
        out.slaveLocal_[k] = s.slotCaller[t];
        out.master_[k] = master;
    };
    for (const Index i : s.ownPairs) {
        put(s.cSlaveSegSlot[p.slave()[i]], s.cMasterIds[p.master()[i]]);
    }
    const char* in = s.resultIn.data();
    for (std::size_t r = 0; r < received; ++r) {
        SegmentResult rec;
        std::memcpy(&rec, in + r * sizeof(SegmentResult), sizeof rec);
        put(rec.slot, rec.master);
    }
    // A slave segment's pairs come from one rank in the serial search's order, by master index
    // there: by id, unless that rank reversed its masters (partition.cpp). Sort the few that
    // are not in order.
    Index first = 0;
    for (const Index end : s.slotStart) {
        if (end - first > 1 &&
            !std::is_sorted(out.master_.begin() + first, out.master_.begin() + end)) {
            std::sort(out.master_.begin() + first, out.master_.begin() + end);
        }
        first = end;
    }
    out.count_ = static_cast<Index>(n);
}

const GlobalNodePairs& DistributedSearch::nodePairs() const {
    if (options_.mode != SearchMode::kNodeToSegment) {
        throw std::logic_error("contact::mpi::DistributedSearch::nodePairs(): the search runs in "
                               "segment-to-segment mode; its pairs are segmentPairs()");
    }
    return nodePairs_;
}

const GlobalSegmentPairs& DistributedSearch::segmentPairs() const {
    if (options_.mode != SearchMode::kSegmentToSegment) {
        throw std::logic_error("contact::mpi::DistributedSearch::segmentPairs(): the search runs "
                               "in node-to-segment mode; its pairs are nodePairs()");
    }
    return segmentPairs_;
}

double DistributedSearch::captureDistance() const noexcept { return state_->capture; }
double DistributedSearch::skinDistance() const noexcept { return state_->skin; }
double DistributedSearch::meanMasterSize() const noexcept { return state_->meanMasterSize; }
long long DistributedSearch::globalMasters() const noexcept { return state_->globalMasters; }
long long DistributedSearch::globalSlaveItems() const noexcept { return state_->globalSlaveItems; }

}  // namespace contact::mpi
