// SPDX-License-Identifier: MIT
#include "contact_mpi/distributed_search.hpp"

#include "setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
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
    GlobalId slave;
    GlobalId master;
    double gap;
    double distance;
    double xi[2];
    double point[3];
    double normal[3];
    double tangent1[3];
    double tangent2[3];
    double shape[kMaxSegmentNodes];
    Index caller;
    std::uint8_t status;
    std::uint8_t pad[3];
};
static_assert(sizeof(NodeResult) == 2 * 8 + 25 * 8 + 8, "NodeResult has no hidden padding");

struct SegmentResult {
    GlobalId slave;
    GlobalId master;
    Index caller;
    std::int32_t pad;
};

const char* const kFn = "contact::mpi::DistributedSearch::setSurfaces()";

}  // namespace

DistributedSearch::DistributedSearch(MPI_Comm comm, const SearchOptions& options)
    : options_(options) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
        throw std::logic_error("contact::mpi::DistributedSearch: MPI is not initialized");
    }
    // The serial search checks the options the same way on every rank.
    ContactSearch check(options);
    (void)check;
    MPI_Comm_dup(comm, &comm_);
    state_ = std::make_unique<detail::State>(comm_);
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
                              std::vector<Index>* slaveNodes, const CoordinatesView& x) {
    const auto t0 = Clock::now();
    detail::State& s = *state_;
    s.setUp = false;
    s.local.reset();
    s.nodeMode = options_.mode == SearchMode::kNodeToSegment;
    s.slaveAsNodes = slaveNodes != nullptr;
    DistributedStats stats;
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
    s.nodeIds = nodes.ids;
    s.idIndex.resize(nodes.ids.size());
    for (std::size_t i = 0; i < nodes.ids.size(); ++i) {
        s.idIndex[i] = {nodes.ids[i], static_cast<Index>(i)};
    }
    std::sort(s.idIndex.begin(), s.idIndex.end());
    s.master = std::move(master);
    s.slave = slave != nullptr ? std::move(*slave) : SurfacePart{};
    s.slaveNodeList = slaveNodes != nullptr ? std::move(*slaveNodes) : std::vector<Index>{};
    s.globalMasters = counts[0];
    s.globalSlaveSegments = counts[1];
    long long bytes = 0;
    detail::resolveNodeOwners(s, nodes, x, counts[3] > 0, bytes);
    auto slaveNodeCount = static_cast<long long>(s.ownedSlaveNodes.size());
    MPI_Allreduce(MPI_IN_PLACE, &slaveNodeCount, 1, MPI_LONG_LONG, MPI_SUM, comm_);
    s.globalSlaveItems = s.nodeMode ? slaveNodeCount : s.globalSlaveSegments;
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
    detail::checkOrientation(s, bytes);
    detail::collectively(comm_, [&] { detail::resolveLengths(s, options_, x); });

    s.setupCoords.resize(static_cast<std::size_t>(s.dim) * static_cast<std::size_t>(x.numNodes));
    for (Index i = 0; i < x.numNodes; ++i) {
        const Eigen::Vector3d p = x.node(i);
        for (int c = 0; c < s.dim; ++c) {
            s.setupCoords[static_cast<std::size_t>(s.dim) * i + c] = p[c];
        }
    }
    detail::repartition(s, options_, x, stats);
    s.setUp = true;
    nodePairs_ = GlobalNodePairs{};
    segmentPairs_ = GlobalSegmentPairs{};
    stats.status = UpdateStatus::kOk;
    stats.bytesSent += bytes;
    stats.ownedMasters = static_cast<Index>(s.cMasters.size()) - s.ghostMasters;
    stats.ghostMasters = s.ghostMasters;
    stats.slaveItems =
        static_cast<Index>(s.nodeMode ? s.cSlaveNode.size() : s.cSlaveSegments.size());
    stats.timeTotal = msSince(t0);
    setupStats_ = stats;
}

DistributedStats DistributedSearch::update(const CoordinatesView& x) {
    const auto t0 = Clock::now();
    DistributedStats stats;
    detail::State& s = *state_;
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
                break;
            }
        }
    }
    int code = static_cast<int>(status);
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm_);
    if (code != static_cast<int>(UpdateStatus::kOk)) {
        stats.status = static_cast<UpdateStatus>(code);
        stats.timeTotal = msSince(t0);
        return stats;
    }

    // 2. Coordinates to the contact ranks; 3. every box inside its grown box, or repartition.
    auto t = Clock::now();
    stats.bytesSent += detail::sendCoordinates(s, x, s.cCoords);
    stats.timeCoordinates = msSince(t);
    t = Clock::now();
    const CoordinatesView cx = CoordinatesView::interleaved(
        s.cCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    int inside = 1;
    const Surface& heldMasters = s.local->master();
    for (Index k = 0; k < heldMasters.size() && inside != 0; ++k) {
        if (s.cMasters[k].owned && !s.cMasterFat[k].contains(detail::ghostBox(
                                       gatherSegment(heldMasters, k, cx), s.capture))) {
            inside = 0;
        }
    }
    if (s.nodeMode) {
        for (const Index c : s.cSlaveNode) {
            detail::Box p;
            p.add(cx.node(c));
            if (!s.slaveFat.contains(p)) {
                inside = 0;
                break;
            }
        }
    } else {
        const Surface& slaves = s.local->slave();
        for (Index k = 0; k < slaves.size() && inside != 0; ++k) {
            if (!s.slaveFat.contains(detail::ghostBox(gatherSegment(slaves, k, cx), s.capture))) {
                inside = 0;
            }
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &inside, 1, MPI_INT, MPI_MIN, comm_);
    stats.timeCheck = msSince(t);
    if (inside == 0) {
        try {
            detail::repartition(s, options_, x, stats);
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
    code = static_cast<int>(stats.local.status);
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm_);
    stats.ownedMasters = static_cast<Index>(s.cMasters.size()) - s.ghostMasters;
    stats.ghostMasters = s.ghostMasters;
    stats.slaveItems =
        static_cast<Index>(s.nodeMode ? s.cSlaveNode.size() : s.cSlaveSegments.size());
    if (code != static_cast<int>(UpdateStatus::kOk)) {
        stats.status = static_cast<UpdateStatus>(code);
        stats.timeTotal = msSince(t0);
        return stats;
    }

    // 5. Pairs of the slave items this rank holds, to the ranks that own the slaves.
    t = Clock::now();
    for (detail::ByteWriter& w : s.out) {
        w.clear();
    }
    s.out.resize(static_cast<std::size_t>(s.size));
    if (s.nodeMode) {
        const NodePairs& p = s.local->nodePairs();
        for (Index i = 0; i < p.size(); ++i) {
            const Index item = s.cSlaveItemOf[p.slave()[i]];
            if (item < 0) {
                continue;  // a node of a neighbouring slave segment: another rank's
            }
            NodeResult r{};
            r.slave = s.cSlaveNodeId[item];
            r.master = s.cMasters[p.master()[i]].id;
            r.gap = p.gap()[i];
            r.distance = p.distance()[i];
            for (int c = 0; c < 2; ++c) {
                r.xi[c] = p.xi()(c, i);
            }
            for (int c = 0; c < 3; ++c) {
                r.point[c] = p.point()(c, i);
                r.normal[c] = p.normal()(c, i);
                r.tangent1[c] = p.tangent1()(c, i);
                r.tangent2[c] = p.tangent2()(c, i);
            }
            for (int c = 0; c < kMaxSegmentNodes; ++c) {
                r.shape[c] = p.shape()(c, i);
            }
            r.caller = s.cSlaveNodeCaller[item];
            r.status = static_cast<std::uint8_t>(p.status()[i]);
            s.out[s.cSlaveNodeOrigin[item]].put(r);
        }
    } else {
        const SegmentPairs& p = s.local->segmentPairs();
        for (Index i = 0; i < p.size(); ++i) {
            const detail::SegmentRecord& slave = s.cSlaveSegments[p.slave()[i]];
            const GlobalId master = s.cMasters[p.master()[i]].id;
            if (s.sameSurface && !(slave.id < master)) {
                continue;  // one surface: each pair once, slave id < master id
            }
            SegmentResult r{};
            r.slave = slave.id;
            r.master = master;
            r.caller = slave.callerIndex;
            s.out[slave.origin].put(r);
        }
    }
    std::vector<MPI_Request> requests(s.resultTargets.size(), MPI_REQUEST_NULL);
    for (std::size_t k = 0; k < s.resultTargets.size(); ++k) {
        const int r = s.resultTargets[k];
        if (r == s.rank) {
            continue;  // copied below, without MPI
        }
        const detail::ByteWriter& w = s.out[r];
        stats.bytesSent += static_cast<long long>(w.size());
        MPI_Isend(w.data(), static_cast<int>(w.size()), MPI_BYTE, r, kTagResults, comm_,
                  &requests[k]);
    }
    std::vector<char>& buffer = s.resultBuffer;
    buffer.clear();
    // Room with a margin: the pairs grow a little from update to update, and a buffer sized to
    // the byte would move to fresh pages (a fault each) every time.
    const auto room = [&buffer](std::size_t more) {
        if (buffer.size() + more > buffer.capacity()) {
            buffer.reserve((buffer.size() + more) * 5 / 4);
        }
    };
    for (const int r : s.resultSources) {
        if (r == s.rank) {
            const detail::ByteWriter& w = s.out[r];
            room(w.size());
            buffer.insert(buffer.end(), w.data(), w.data() + w.size());
            continue;
        }
        MPI_Status st;
        MPI_Probe(r, kTagResults, comm_, &st);
        int n = 0;
        MPI_Get_count(&st, MPI_BYTE, &n);
        const std::size_t at = buffer.size();
        room(static_cast<std::size_t>(n));
        buffer.resize(at + static_cast<std::size_t>(n));
        MPI_Recv(buffer.data() + at, n, MPI_BYTE, r, kTagResults, comm_, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    // Order by slave id (segment mode: then master id) through a list of keys: the records stay
    // where they arrived, nothing is allocated once the buffers have grown.
    std::vector<std::pair<GlobalId, std::uint32_t>>& order = s.resultOrder;
    const std::size_t recordSize = s.nodeMode ? sizeof(NodeResult) : sizeof(SegmentResult);
    const std::size_t n = buffer.size() / recordSize;
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(&order[i].first, buffer.data() + i * recordSize, sizeof(GlobalId));
        order[i].second = static_cast<std::uint32_t>(i);
    }
    if (s.nodeMode) {
        std::sort(order.begin(), order.end());
        GlobalNodePairs& out = nodePairs_;
        out.slave_.resize(n);
        out.master_.resize(n);
        out.slaveLocal_.resize(n);
        out.gap_.resize(n);
        out.distance_.resize(n);
        out.status_.resize(n);
        out.xi_.resize(2 * n);
        out.point_.resize(3 * n);
        out.normal_.resize(3 * n);
        out.tangent1_.resize(3 * n);
        out.tangent2_.resize(3 * n);
        out.shape_.resize(kMaxSegmentNodes * n);
        for (std::size_t i = 0; i < n; ++i) {
            NodeResult r;
            std::memcpy(&r, buffer.data() + order[i].second * recordSize, sizeof r);
            out.slave_[i] = r.slave;
            out.master_[i] = r.master;
            out.slaveLocal_[i] = r.caller;
            out.gap_[i] = r.gap;
            out.distance_[i] = r.distance;
            out.status_[i] = static_cast<ProjectionStatus>(r.status);
            std::copy(r.xi, r.xi + 2, out.xi_.begin() + static_cast<std::ptrdiff_t>(2 * i));
            const auto at3 = static_cast<std::ptrdiff_t>(3 * i);
            std::copy(r.point, r.point + 3, out.point_.begin() + at3);
            std::copy(r.normal, r.normal + 3, out.normal_.begin() + at3);
            std::copy(r.tangent1, r.tangent1 + 3, out.tangent1_.begin() + at3);
            std::copy(r.tangent2, r.tangent2 + 3, out.tangent2_.begin() + at3);
            std::copy(r.shape, r.shape + kMaxSegmentNodes,
                      out.shape_.begin() + static_cast<std::ptrdiff_t>(kMaxSegmentNodes * i));
        }
        out.count_ = static_cast<Index>(n);
        stats.pairs = out.count_;
    } else {
        const auto masterOf = [&](std::uint32_t i) {
            GlobalId m = 0;
            std::memcpy(&m, buffer.data() + i * recordSize + sizeof(GlobalId), sizeof m);
            return m;
        };
        std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : masterOf(a.second) < masterOf(b.second);
        });
        GlobalSegmentPairs& out = segmentPairs_;
        out.slave_.resize(n);
        out.master_.resize(n);
        out.slaveLocal_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            SegmentResult r;
            std::memcpy(&r, buffer.data() + order[i].second * recordSize, sizeof r);
            out.slave_[i] = r.slave;
            out.master_[i] = r.master;
            out.slaveLocal_[i] = r.caller;
        }
        out.count_ = static_cast<Index>(n);
        stats.pairs = out.count_;
    }
    stats.timeResults = msSince(t);
    stats.status = UpdateStatus::kOk;
    stats.timeTotal = msSince(t0);
    return stats;
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
