// SPDX-License-Identifier: MIT
#include "contact_search_mpi.hpp"

#include "contact_mpi/distributed_mortar.hpp"
#include "contact_mpi/distributed_search.hpp"

#include <mpi.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

namespace contact_tool {
namespace {

using contact::Index;

// What rank 0 asks of the others: a search with these options, or the end of the run.
struct Command {
    std::int32_t kind = 0;  // kSearch or kDone
    std::int32_t status = 0;
    double capture = 0.5;
    double skinRelative = 0.1;
    std::int32_t captureRelative = 1;
    std::int32_t mode = 0;
    std::int32_t selfContact = 0;
    std::int32_t threads = 1;
    std::int32_t broadPhase = 0;
    std::int32_t dim = 3;
    std::int32_t slaveAsNodes = 0;
    std::int32_t mortar = 0;  // 1: the mortar rows after the search
    std::int32_t mortarBasis = 0;
    std::int32_t mortarThreads = 1;
};
constexpr std::int32_t kSearch = 1;
constexpr std::int32_t kDone = 2;

// Started by mpiexec with more than one rank (OpenMPI, MPICH and PMIx launchers set these).
int launchedRanks() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
        if (const char* v = std::getenv(name)) {
            return std::atoi(v);
        }
    }
    return 1;
}

// Broadcast from rank 0 that waits without spinning: the ranks that serve sleep between tests,
// leaving the cores to rank 0 while it reads the model.
void broadcast(Command& c) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibcast(&c, sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
    int done = 0;
    while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);  // done: a no-op on the completed request
}

contact::MortarOptions mortarOptionsOf(const Command& c) {
    contact::MortarOptions o;
    o.basis = static_cast<contact::MortarBasis>(c.mortarBasis);
    o.threads = c.mortarThreads;
    return o;
}

contact::SearchOptions optionsOf(const Command& c) {
    contact::SearchOptions o;
    o.capture = c.capture;
    o.captureRelative = c.captureRelative != 0;
    o.mode = static_cast<contact::SearchMode>(c.mode);
    o.selfContact = c.selfContact != 0;
    o.skinRelative = c.skinRelative;
    o.threads = c.threads;
    o.broadPhase = static_cast<contact::BroadPhaseKind>(c.broadPhase);
    return o;
}

// The counters of every rank's search, summed on rank 0; times, the slowest rank's; the sort and
// sweep ran where every rank's did.
void reduceStats(const contact::mpi::DistributedSearch& search,
                 const contact::mpi::DistributedStats& st, DistributedResult* out) {
    const contact::mpi::DistributedStats& setup = search.setupStats();
    long long sums[5] = {st.local.candidates, st.local.satSurvivors, st.local.projections,
                         st.ghostMasters, setup.bytesSent + st.bytesSent};
    double times[4] = {st.local.timeBounds, st.local.timeBroad, st.local.timeNarrow,
                       st.local.timeProjection};
    long long sumOut[5] = {};
    double timeOut[4] = {};
    MPI_Reduce(sums, sumOut, 5, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(times, timeOut, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int swept = st.local.swept ? 1 : 0;
    int sweptEverywhere = 0;
    MPI_Reduce(&swept, &sweptEverywhere, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (out != nullptr) {
        out->stats.swept = sweptEverywhere == 1;
        out->stats.candidates = sumOut[0];
        out->stats.satSurvivors = sumOut[1];
        out->stats.projections = sumOut[2];
        out->ghostMasters = sumOut[3];
        out->bytesSent = sumOut[4];
        out->stats.timeBounds = timeOut[0];
        out->stats.timeBroad = timeOut[1];
        out->stats.timeNarrow = timeOut[2];
        out->stats.timeProjection = timeOut[3];
    }
}

// The counts of every rank's mortar integration, summed on rank 0 (each pair is integrated on the
// rank holding its slave segment, so the sums are the serial counts); times, the slowest rank's.
void reduceMortarStats(const contact::mpi::DistributedMortarStats& st, DistributedResult* out) {
    const contact::MortarStats& l = st.local;
    long long sums[8] = {l.pairs,      l.integrated,    l.beyondCapture, l.notFacing,
                         l.degenerate, l.dualFallbacks, l.points,        l.cutFallbacks};
    double times[2] = {st.timeIntegrate, st.timeExchange + st.timeAssemble};
    long long sumOut[8] = {};
    double timeOut[2] = {};
    MPI_Reduce(sums, sumOut, 8, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(times, timeOut, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (out != nullptr) {
        contact::MortarStats& m = out->mortarStats;
        m.pairs = static_cast<Index>(sumOut[0]);
        m.integrated = static_cast<Index>(sumOut[1]);
        m.beyondCapture = static_cast<Index>(sumOut[2]);
        m.notFacing = static_cast<Index>(sumOut[3]);
        m.degenerate = static_cast<Index>(sumOut[4]);
        m.dualFallbacks = static_cast<Index>(sumOut[5]);
        m.points = sumOut[6];
        m.cutFallbacks = sumOut[7];
        m.timeIntegrate = timeOut[0];
        m.timeAssemble = timeOut[1];
    }
}

MpiSession* g_session = nullptr;

void finalize() {
#ifdef __SANITIZE_ADDRESS__
    // The leak check now, while OpenMPI's components are loaded: what they keep is reachable or
    // named (tests/mpi/lsan_openmpi.supp); after MPI_Finalize unloads them, their blocks have no
    // name to suppress.
    __lsan_do_leak_check();
#endif
    MPI_Finalize();
}

// std::exit (--help) leaves main without the session's destructor: end the run here.
void finishAtExit() {
    if (g_session != nullptr) {
        g_session->finish(0);
        g_session = nullptr;
        finalize();
    }
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
    if (launchedRanks() <= 1) {
        return;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    active_ = true;
    if (rank_ == 0) {
        g_session = this;
        std::atexit(finishAtExit);
    }
}

MpiSession::~MpiSession() {
    if (!active_ || (rank_ == 0 && g_session == nullptr)) {
        return;
    }
    finish(2);  // rank 0 left without saying how: as for bad input (main calls finish first)
    g_session = nullptr;
    finalize();
}

void MpiSession::finish(int status) {
    if (!active_ || rank_ != 0 || finished_) {
        return;
    }
    finished_ = true;
    Command c;
    c.kind = kDone;
    c.status = status;
    broadcast(c);
}

int MpiSession::serve() const {
    if (!active_ || rank_ == 0) {
        throw std::logic_error("contact-search: only ranks other than 0 serve searches");
    }
    for (;;) {
        Command c;
        broadcast(c);
        if (c.kind == kDone) {
            return c.status;
        }
        try {
            contact::mpi::DistributedSearch search(MPI_COMM_WORLD, optionsOf(c));
            const contact::mpi::RankNodes nodes;
            const contact::CoordinatesView x =
                contact::CoordinatesView::interleaved(nullptr, 0, c.dim);
            if (c.slaveAsNodes != 0) {
                search.setSurfaces(nodes, {}, std::vector<Index>{}, x);
            } else {
                search.setSurfaces(nodes, {}, contact::mpi::SurfacePart{}, x);
            }
            const contact::mpi::DistributedStats st = search.update(x);
            reduceStats(search, st, nullptr);
            if (c.mortar != 0 && st.status == contact::UpdateStatus::kOk) {
                contact::mpi::DistributedMortar mortar(mortarOptionsOf(c));
                reduceMortarStats(mortar.compute(search), nullptr);
            }
        } catch (const std::exception&) {
            // Every rank got the same error (collective); rank 0 reports it.
        }
    }
}

std::unique_ptr<DistributedResult>
MpiSession::search(const contact::SearchOptions& options, const contact::Surface& master,
                   const contact::Surface* slave, const std::vector<Index>* slaveNodes,
                   const contact::CoordinatesView& x, const contact::MortarOptions* mortar) const {
    Command c;
    c.kind = kSearch;
    c.capture = options.capture;
    c.skinRelative = options.skinRelative;
    c.captureRelative = options.captureRelative ? 1 : 0;
    c.mode = static_cast<std::int32_t>(options.mode);
    c.selfContact = options.selfContact ? 1 : 0;
    c.threads = options.threads;
    c.broadPhase = static_cast<std::int32_t>(options.broadPhase);
    c.dim = x.dim;
    c.slaveAsNodes = slaveNodes != nullptr ? 1 : 0;
    if (mortar != nullptr) {
        c.mortar = 1;
        c.mortarBasis = static_cast<std::int32_t>(mortar->basis);
        c.mortarThreads = mortar->threads;
    }
    broadcast(c);

    // Rank 0 gives the whole model: global ids are the model's node and segment indices.
    contact::mpi::DistributedSearch search(MPI_COMM_WORLD, options);
    contact::mpi::RankNodes nodes;
    nodes.ids.resize(static_cast<std::size_t>(x.numNodes));
    for (Index i = 0; i < x.numNodes; ++i) {
        nodes.ids[i] = i;
    }
    const auto partOf = [](const contact::Surface& s) {
        contact::mpi::SurfacePart p;
        p.surface = s;
        p.ids.resize(static_cast<std::size_t>(s.size()));
        for (Index k = 0; k < s.size(); ++k) {
            p.ids[k] = k;
        }
        return p;
    };
    if (slaveNodes != nullptr) {
        search.setSurfaces(nodes, partOf(master), *slaveNodes, x);
    } else {
        search.setSurfaces(nodes, partOf(master), partOf(*slave), x);
    }
    const contact::mpi::DistributedStats st = search.update(x);
    auto out = std::make_unique<DistributedResult>();
    reduceStats(search, st, out.get());
    if (st.status != contact::UpdateStatus::kOk) {
        throw std::invalid_argument(std::string("search failed: ") +
                                    contact::updateStatusName(st.status) +
                                    (st.error.empty() ? "" : ": " + st.error));
    }
    out->stats.status = st.status;
    out->stats.rebuilt = true;
    out->captureDistance = search.captureDistance();
    out->meanMasterSize = search.meanMasterSize();
    out->ranks = size_;
    if (options.mode == contact::SearchMode::kNodeToSegment) {
        const contact::mpi::GlobalNodePairs& p = search.nodePairs();
        const Index n = p.size();
        contact::NodePairs::Columns col;
        col.slave.resize(n);
        col.master.resize(n);
        for (Index i = 0; i < n; ++i) {
            col.slave[i] = static_cast<Index>(p.slave()[i]);
            col.master[i] = static_cast<Index>(p.master()[i]);
        }
        col.gap.assign(p.gap().begin(), p.gap().end());
        col.distance.assign(p.distance().begin(), p.distance().end());
        col.status.assign(p.status().begin(), p.status().end());
        const auto values = [](const auto& m) {
            return std::vector<double>(m.data(), m.data() + m.size());
        };
        col.xi = values(p.xi());
        col.point = values(p.point());
        col.normal = values(p.normal());
        col.tangent1 = values(p.tangent1());
        col.tangent2 = values(p.tangent2());
        col.shape = values(p.shape());
        out->nodePairs = contact::NodePairs(std::move(col));
        out->slaveNodes = static_cast<Index>(search.globalSlaveItems());
        out->stats.pairs = n;
    } else {
        const contact::mpi::GlobalSegmentPairs& p = search.segmentPairs();
        std::vector<Index> s(static_cast<std::size_t>(p.size()));
        std::vector<Index> m(static_cast<std::size_t>(p.size()));
        for (Index i = 0; i < p.size(); ++i) {
            s[i] = static_cast<Index>(p.slave()[i]);
            m[i] = static_cast<Index>(p.master()[i]);
        }
        out->segmentPairs = contact::SegmentPairs(std::move(s), std::move(m));
        out->stats.pairs = p.size();
    }
    // The orientation as the serial search judges it, from the gathered pairs: the same verdict
    // and counts (the ranks judge only their own pairs, and in node mode have no slave normals).
    if (slave != nullptr) {
        out->stats.orientation =
            options.mode == contact::SearchMode::kNodeToSegment
                ? contact::checkOrientation(out->nodePairs, *slave, x, out->captureDistance)
                : contact::checkOrientation(out->segmentPairs, master, *slave, x,
                                            out->captureDistance);
    }
    if (mortar != nullptr) {
        // Rank 0 owns every node: every row comes here.
        contact::mpi::DistributedMortar dm(*mortar);
        reduceMortarStats(dm.compute(search), out.get());
        const contact::mpi::GlobalMortarOperators& g = dm.operators();
        auto op = std::make_unique<contact::MortarOperators>();
        const auto indices = [](const std::vector<contact::mpi::GlobalId>& ids) {
            return std::vector<Index>(ids.begin(), ids.end());
        };
        op->nodes = indices(g.nodes);
        op->weightedGap = g.weightedGap;
        op->nodalArea = g.nodalArea;
        op->D.row = indices(g.D.row);
        op->D.col = indices(g.D.col);
        op->D.value = g.D.value;
        op->M.row = indices(g.M.row);
        op->M.col = indices(g.M.col);
        op->M.value = g.M.value;
        op->basis = g.basis;
        out->mortar = std::move(op);
    }
    return out;
}

}  // namespace contact_tool
