// SPDX-License-Identifier: MIT
// DistributedMortar: the slave segments integrated where they are held, their node shares sent
// to the nodes' owners and summed there in the serial order (pseudocode in the header).
#include "contact_mpi/distributed_mortar.hpp"

#include "state.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

namespace contact::mpi {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

const char* const kFn = "contact::mpi::DistributedMortar::compute()";

// One slave segment's share of one node's row, as it travels to the node's owner: this header,
// then (column id, value) for D and for M.
struct ShareHeader {
    GlobalId node;
    GlobalId segment;
    double gap;
    double area;
    std::int32_t dEntries;
    std::int32_t mEntries;
};
static_assert(sizeof(ShareHeader) == 40, "ShareHeader has no hidden padding");

struct Entry {
    GlobalId col;
    double value;
};
static_assert(sizeof(Entry) == 16, "Entry has no hidden padding");

// A share received: its node and segment (the order of the sums) and where it starts.
struct ShareKey {
    GlobalId node;
    GlobalId segment;
    std::size_t at;
    bool operator<(const ShareKey& o) const noexcept {
        return node != o.node ? node < o.node : segment < o.segment;
    }
};

template <class T>
T readAt(const char* bytes, std::size_t at) noexcept {
    T v;
    std::memcpy(&v, bytes + at, sizeof v);
    return v;
}

}  // namespace

struct DistributedMortar::Impl {
    std::optional<MortarIntegrator> integrator;  // none when the options are refused
    std::string refused;                         // why, raised on every rank by compute()
    detail::Exchange ex;
    std::vector<Index> pairSlave;  // this rank's pairs, masters of a slave by id
    std::vector<Index> pairMaster;
    std::vector<ShareKey> shares;
    // One row: (column, sequence) keys and values, as MortarIntegrator sums them.
    std::vector<std::pair<GlobalId, int>> rowKeys;
    std::vector<double> rowValues;

    explicit Impl(const MortarOptions& options) {
        if (options.csr) {
            refused = "MortarOptions::csr is not offered across ranks";
            return;
        }
        try {
            integrator.emplace(options);
        } catch (const std::invalid_argument& e) {
            refused = e.what();
        }
    }
};

namespace {

// Collective, before any exchange: the same error on every rank when any rank's DistributedMortar
// was moved from (std::logic_error), refused its options (std::invalid_argument, with that
// rank's reason: csr is refused there), or when the ranks give different bases; each names the
// lowest rank at fault. One all-reduce when all is well.
void agree(MPI_Comm comm, const DistributedMortar& mortar, const std::string* refused) {
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const long long basis = static_cast<long long>(mortar.options().basis);
    // Minima of: the lowest rank moved from, the lowest rank refusing, the basis and its
    // negation (its maximum).
    long long v[4] = {refused == nullptr ? rank : size,
                      refused != nullptr && !refused->empty() ? rank : size, basis, -basis};
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_LONG_LONG, MPI_MIN, comm);
    if (v[0] < size) {
        throw std::logic_error(std::string(kFn) + ": rank " + std::to_string(v[0]) +
                               "'s DistributedMortar was moved from");
    }
    if (v[1] < size) {  // the lowest refusing rank's reason, on every rank
        detail::agreeOnErrors(comm, refused != nullptr && !refused->empty()
                                        ? std::string(kFn) + ": rank " + std::to_string(rank) +
                                              "'s MortarOptions are refused: " + *refused
                                        : std::string());
    }
    if (v[2] != -v[3]) {
        // The lowest ranks giving the least and the greatest basis.
        int at[2] = {basis == v[2] ? rank : size, basis == -v[3] ? rank : size};
        MPI_Allreduce(MPI_IN_PLACE, at, 2, MPI_INT, MPI_MIN, comm);
        throw std::invalid_argument(
            std::string(kFn) + ": the ranks give different MortarOptions::basis (rank " +
            std::to_string(std::min(at[0], at[1])) + " and rank " +
            std::to_string(std::max(at[0], at[1])) + "): give every rank the same options");
    }
}

}  // namespace

// The options are checked in compute(), on every rank at once: a refusal here, on one rank, would
// leave the others waiting in compute() for it.
DistributedMortar::DistributedMortar(const MortarOptions& options)
    : options_(options), impl_(std::make_unique<Impl>(options)) {}

DistributedMortar::~DistributedMortar() = default;
DistributedMortar::DistributedMortar(DistributedMortar&&) noexcept = default;
DistributedMortar& DistributedMortar::operator=(DistributedMortar&&) noexcept = default;

DistributedMortarStats DistributedMortar::compute(const DistributedSearch& search) {
    DistributedMortarStats stats;
    const detail::State& s = *search.state_;
    const SearchOptions& so = search.options();
    // The same on every rank: options and update status are.
    if (so.mode != SearchMode::kSegmentToSegment) {
        throw std::invalid_argument(std::string(kFn) +
                                    ": the search must be in segment-to-segment mode");
    }
    if (so.selfContact) {
        throw std::invalid_argument(std::string(kFn) +
                                    ": self-contact searches are not supported (each pair is "
                                    "reported once, a mortar interface needs a slave side)");
    }
    if (!s.setUp || !s.lastUpdateOk) {
        throw std::logic_error(std::string(kFn) +
                               ": needs a search set up and updated (the last update succeeded)");
    }
    const MPI_Comm comm = search.communicator();
    agree(comm, *this, impl_ ? &impl_->refused : nullptr);
    const Surface& master = s.local->master();
    const Surface& slave = s.local->slave();
    detail::collectively(comm, [&] {
        for (Index k = 0; options_.basis == MortarBasis::kDual && k < slave.size(); ++k) {
            if (isQuadratic(slave.types[k])) {
                throw std::invalid_argument(
                    std::string(kFn) +
                    ": the dual basis is offered for Line2, Tri3 and Quad4 slave segments; "
                    "slave segment id " +
                    std::to_string(s.cSlaveSegId[k]) + " is a " + segmentTypeName(slave.types[k]));
            }
        }
    });

    // 1. This rank's slave segments: their pairs with the masters by id (the serial order; a rank
    // that reversed its masters has them the other way), integrated.
    auto t = Clock::now();
    Impl& im = *impl_;
    const SegmentPairs& pairs = s.local->segmentPairs();
    im.pairSlave.assign(pairs.slave().begin(), pairs.slave().end());
    im.pairMaster.assign(pairs.master().begin(), pairs.master().end());
    const auto byId = [&](Index a, Index b) { return s.cMasterIds[a] < s.cMasterIds[b]; };
    for (std::size_t first = 0; first < im.pairSlave.size();) {
        std::size_t last = first;
        while (last < im.pairSlave.size() && im.pairSlave[last] == im.pairSlave[first]) {
            ++last;
        }
        const auto b = im.pairMaster.begin();
        if (!std::is_sorted(b + static_cast<std::ptrdiff_t>(first),
                            b + static_cast<std::ptrdiff_t>(last), byId)) {
            std::sort(b + static_cast<std::ptrdiff_t>(first), b + static_cast<std::ptrdiff_t>(last),
                      byId);
        }
        first = last;
    }
    const CoordinatesView cx = CoordinatesView::interleaved(
        s.cCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    detail::collectively(comm, [&] {
        const auto n = static_cast<Index>(im.pairSlave.size());
        stats.local =
            im.integrator->compute(master, slave, ConstSpan<Index>(im.pairSlave.data(), n),
                                   ConstSpan<Index>(im.pairMaster.data(), n), cx, s.capture);
    });
    stats.timeIntegrate = msSince(t);

    // 2. Each node's share of each segment to the node's owner: counted, then written.
    t = Clock::now();
    const bool dual = options_.basis == MortarBasis::kDual;
    detail::Exchange& ex = im.ex;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 0) {
            ex.start(s.size);
        } else {
            ex.allocate();
        }
        for (Index k = 0; k < slave.size(); ++k) {
            const MortarSegmentBlock b = im.integrator->segmentBlock(k);
            const Index* sn = slave.nodes(k);
            for (int i = 0; i < b.nodes; ++i) {
                const int owner = s.cNodeOwner[sn[i]];
                const int dEntries = dual ? 1 : b.nodes;
                if (pass == 0) {
                    ex.count(owner,
                             sizeof(ShareHeader) +
                                 sizeof(Entry) * static_cast<std::size_t>(dEntries + b.columns));
                    continue;
                }
                ex.put(owner, ShareHeader{s.cNodeIds[sn[i]], s.cSlaveSegId[k], b.gap[i], b.area[i],
                                          dEntries, b.columns});
                for (int j = 0; j < b.nodes; ++j) {
                    if (!dual || j == i) {
                        ex.put(owner, Entry{s.cNodeIds[sn[j]], b.D[i * b.nodes + j]});
                    }
                }
                for (int c = 0; c < b.columns; ++c) {
                    ex.put(owner, Entry{s.cNodeIds[b.masterNodes[c]], b.M[c * b.nodes + i]});
                }
            }
        }
    }
    ex.run(comm, stats.bytesSent);
    stats.timeExchange = msSince(t);

    // 3. This rank's rows: each node's shares in segment id order, summed as MortarIntegrator
    // sums its rows (gap and area from 0; D and M entries by column, in that order).
    t = Clock::now();
    const char* in = ex.receivedBytes();
    im.shares.clear();
    for (std::size_t at = 0; at < ex.received();) {
        const auto h = readAt<ShareHeader>(in, at);
        im.shares.push_back({h.node, h.segment, at});
        at += sizeof h + sizeof(Entry) * static_cast<std::size_t>(h.dEntries + h.mEntries);
    }
    std::sort(im.shares.begin(), im.shares.end());
    GlobalMortarOperators& out = out_;
    for (GlobalTriplets* m : {&out.D, &out.M}) {
        m->row.clear();
        m->col.clear();
        m->value.clear();
    }
    out.nodes.clear();
    out.nodesLocal.clear();
    out.weightedGap.clear();
    out.nodalArea.clear();
    out.basis = options_.basis;
    const auto flush = [&](GlobalId node, GlobalTriplets& m) {
        std::sort(im.rowKeys.begin(), im.rowKeys.end());
        for (std::size_t k = 0; k < im.rowKeys.size(); ++k) {
            const double v = im.rowValues[static_cast<std::size_t>(im.rowKeys[k].second)];
            if (k > 0 && im.rowKeys[k].first == im.rowKeys[k - 1].first) {
                m.value.back() += v;
            } else {
                m.row.push_back(node);
                m.col.push_back(im.rowKeys[k].first);
                m.value.push_back(v);
            }
        }
        im.rowKeys.clear();
        im.rowValues.clear();
    };
    // Entries [first, first + count) of the share at `at` (after its header) into the row.
    const auto gather = [&](std::size_t at, std::size_t first, std::size_t count) {
        for (std::size_t e = first; e < first + count; ++e) {
            const auto entry = readAt<Entry>(in, at + sizeof(ShareHeader) + e * sizeof(Entry));
            im.rowKeys.emplace_back(entry.col, static_cast<int>(im.rowValues.size()));
            im.rowValues.push_back(entry.value);
        }
    };
    std::size_t sorted = 0;  // where this rank's node ids were last found (they only grow)
    for (std::size_t first = 0; first < im.shares.size();) {
        const GlobalId node = im.shares[first].node;
        std::size_t last = first;
        while (last < im.shares.size() && im.shares[last].node == node) {
            ++last;
        }
        sorted = static_cast<std::size_t>(
            std::lower_bound(s.sortedIds.begin() + static_cast<std::ptrdiff_t>(sorted),
                             s.sortedIds.end(), node) -
            s.sortedIds.begin());
        out.nodes.push_back(node);
        out.nodesLocal.push_back(s.sortedNodes[sorted]);
        double gap = 0.0;
        double area = 0.0;
        for (std::size_t k = first; k < last; ++k) {
            const auto h = readAt<ShareHeader>(in, im.shares[k].at);
            gap += h.gap;
            area += h.area;
            gather(im.shares[k].at, 0, static_cast<std::size_t>(h.dEntries));
        }
        out.weightedGap.push_back(gap);
        out.nodalArea.push_back(area);
        flush(node, out.D);
        for (std::size_t k = first; k < last; ++k) {
            const auto h = readAt<ShareHeader>(in, im.shares[k].at);
            gather(im.shares[k].at, static_cast<std::size_t>(h.dEntries),
                   static_cast<std::size_t>(h.mEntries));
        }
        flush(node, out.M);
        first = last;
    }
    stats.timeAssemble = msSince(t);
    return stats;
}

}  // namespace contact::mpi
