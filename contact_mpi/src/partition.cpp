// SPDX-License-Identifier: MIT
// The contact decomposition: RCB regions over the faces, owned items moved to their region,
// master segments ghosted to the regions whose slave items their grown box reaches.
//
// Why each rank finds the serial search's pairs of its slave items (docs/design.md, "Beyond one
// machine"). Let G(m) be ghostBox(m): it holds every box the serial search makes of master m
// (the same Bezier hull grown by the capture distance; its 64-ulp pad and float rounding are
// below G's 2^-20 pad). A serial pair (k, m) has k's point (node mode) or k's buffered box
// (segment mode) inside or meeting that box of m, so it meets G(m). At a partition, rank r's
// slave items lie in S_r (their bounding box; segment mode: of their G), and m is sent to every r
// whose T_r = S_r grown by h = skin / 2 meets F(m) = G(m) grown by h (rounded outward to float,
// as it is kept: a larger F serves the argument as well). While every item of r stays
// in T_r and every G(m) in its F(m) (checked at every update, one allreduce), a serial pair
// (k on r, m) has G(m) meeting k inside T_r, so F(m) meets T_r: m is on r. The serial search on
// r then sees every master that can hold k's closest point or pair with k; the others it sees
// are masters of the global surface too, so they change nothing: the closest point over a
// superset of the candidates that holds the winner is the winner, and segment pairs are
// decided pair by pair. Masters are ordered by global id, so ties go where the serial search
// sends them; self-contact exclusions use global node ids (node mode: every slave segment holding
// an owned node is on the rank, checked by counting them).
//
// The callers compute the boxes (F(m), and S_r as the union of what each caller sends r) from
// their coordinates, the same doubles the contact ranks compute from their copies, and send
// each master to its region and as a ghost to the others in one exchange.
#include "contact/bounds.hpp"
#include "contact/segment.hpp"

#include "setup.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

namespace contact::mpi::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kTagCoordinates = 7101;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

Eigen::Vector3d cornerCentroid(const Surface& surface, Index k, const CoordinatesView& x) {
    const int nc = cornerCount(surface.types[k]);
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int i = 0; i < nc; ++i) {
        c += x.node(surface.nodes(k)[i]);
    }
    return c / nc;
}

// The ranks that appear in the lists, in order.
template <class... Lists>
std::vector<int> ranksIn(int size, const Lists&... lists) {
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(size), 0);
    (
        [&] {
            for (const int r : lists) {
                seen[r] = 1;
            }
        }(),
        ...);
    std::vector<int> ranks;
    for (int r = 0; r < size; ++r) {
        if (seen[r] != 0) {
            ranks.push_back(r);
        }
    }
    return ranks;
}

std::vector<int> sortedUnique(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// The items a caller sends: masters, slave segments, slave segments copied to the ranks owning
// their nodes (node mode with self-contact), slave nodes (node mode), ghosts of masters.
enum Kind { kMaster, kSlaveSegment, kCopy, kSlaveNode, kGhost, kKinds };

// A migration message: this header, the node ids and their owners (in id order; items name
// nodes by their place there), masters, ghosts, slave segments, slave nodes.
struct MigrationHeader {
    Index nodes;
    Index masters;
    Index ghosts;
    Index slaveSegments;  // slave segments and copies
    Index slaveNodes;
    Index pad;
};
static_assert(sizeof(MigrationHeader) == 24, "MigrationHeader has no hidden padding");

// Bytes of an item record: masters and ghosts id, type, nodes; slave segments id, type, slot,
// (one surface in segment mode: the id as a master, State::slaveTwin), nodes; slave nodes node,
// slot, valence.
constexpr std::size_t kSegmentBytes = sizeof(GlobalId) + 1;
constexpr std::size_t kNodeItemBytes = 3 * sizeof(Index);

std::size_t twinBytes(const State& s) noexcept {
    return s.sameSurface && !s.nodeMode ? sizeof(GlobalId) : 0;
}

template <class T>
T readAt(const char* bytes, std::size_t at) noexcept {
    T v;
    std::memcpy(&v, bytes + at, sizeof v);
    return v;
}

// Items grouped by destination (a counting sort, stable): destination r's items are
// item[first[r], first[r + 1]).
void groupByDestination(const Big<int>& dest, int size, std::vector<Index>& first,
                        Big<Index>& item) {
    first.assign(static_cast<std::size_t>(size) + 1, 0);
    for (const int r : dest) {
        ++first[r + 1];
    }
    for (int r = 0; r < size; ++r) {
        first[r + 1] += first[r];
    }
    item.resize(dest.size());
    std::vector<Index> at(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < dest.size(); ++i) {
        item[at[dest[i]]++] = static_cast<Index>(i);
    }
}

// 1. RCB over the faces, weighted by node count (slave nodes when the slave is nodes); each item
// to the rank of its region: masters and slave segments by the centroid of their corners, slave
// nodes by their position; with self-contact in node mode each slave segment also goes to every
// rank owning one of its nodes.
void assignItems(State& s, const CoordinatesView& x, bool selfSegments) {
    MigrationScratch& g = s.mig;
    const Surface& master = s.master.surface;
    const Surface& slave = s.slave.surface;
    for (auto& d : g.dest) {
        d.clear();
    }
    g.copyOf.clear();
    g.ghostOf.clear();
    if (s.size == 1) {  // one region
        g.dest[kMaster].assign(static_cast<std::size_t>(master.size()), 0);
        g.dest[s.nodeMode ? kSlaveNode : kSlaveSegment].assign(
            s.nodeMode ? s.ownedSlaveNodes.size() : static_cast<std::size_t>(slave.size()), 0);
        if (selfSegments) {
            g.dest[kCopy].assign(static_cast<std::size_t>(slave.size()), 0);
            g.copyOf.resize(static_cast<std::size_t>(slave.size()));
            std::iota(g.copyOf.begin(), g.copyOf.end(), Index{0});
        }
        return;
    }
    const std::size_t points = static_cast<std::size_t>(master.size()) +
                               (s.sameSurface ? 0 : static_cast<std::size_t>(slave.size())) +
                               (s.slaveAsNodes ? s.ownedSlaveNodes.size() : 0);
    g.xyz.resize(3 * points);
    g.weights.resize(points);
    std::size_t p = 0;
    const auto addPoint = [&](const Eigen::Vector3d& c, int w) {
        for (int d = 0; d < 3; ++d) {
            g.xyz[3 * p + d] = c[d];
        }
        g.weights[p++] = static_cast<float>(w);
    };
    for (Index k = 0; k < master.size(); ++k) {
        addPoint(cornerCentroid(master, k, x), nodeCount(master.types[k]));
    }
    if (!s.sameSurface) {
        for (Index k = 0; k < slave.size(); ++k) {
            addPoint(cornerCentroid(slave, k, x), nodeCount(slave.types[k]));
        }
    }
    if (s.slaveAsNodes) {
        for (const Index i : s.ownedSlaveNodes) {
            addPoint(x.node(i), 1);
        }
    }
    // The cuts from a sample: every k-th point, carrying the weight of the k it stands for, about
    // kRcbSample points in all (any cuts serve the search; the sample keeps Zoltan's work small
    // and balances the regions as well as the sample does, within a percent or two).
    constexpr long long kRcbSample = 1 << 17;
    auto all = static_cast<long long>(points);
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_LONG_LONG, MPI_SUM, s.comm);
    const auto stride = static_cast<std::size_t>(std::max(1LL, all / kRcbSample));
    g.sampleXyz.clear();
    g.sampleWeights.clear();
    for (std::size_t i = 0; i < points; i += stride) {
        g.sampleXyz.insert(g.sampleXyz.end(), g.xyz.begin() + static_cast<std::ptrdiff_t>(3 * i),
                           g.xyz.begin() + static_cast<std::ptrdiff_t>(3 * i + 3));
        float w = 0.0F;
        for (std::size_t j = i; j < std::min(points, i + stride); ++j) {
            w += g.weights[j];
        }
        g.sampleWeights.push_back(w);
    }
    s.rcb.partition(g.sampleXyz, g.sampleWeights);
    for (Index k = 0; k < master.size(); ++k) {
        g.dest[kMaster].push_back(s.rcb.owner(&g.xyz[3 * static_cast<std::size_t>(k)]));
    }
    if (!s.nodeMode) {
        for (Index k = 0; k < slave.size(); ++k) {
            const Eigen::Vector3d c = cornerCentroid(slave, k, x);
            g.dest[kSlaveSegment].push_back(s.rcb.owner(c.data()));
        }
    } else {
        for (const Index i : s.ownedSlaveNodes) {
            const Eigen::Vector3d q = x.node(i);
            g.dest[kSlaveNode].push_back(s.rcb.owner(q.data()));
        }
    }
    if (selfSegments) {
        std::vector<int> dests;
        for (Index k = 0; k < slave.size(); ++k) {
            dests.clear();
            for (int i = 0; i < nodeCount(slave.types[k]); ++i) {
                const Eigen::Vector3d q = x.node(slave.nodes(k)[i]);
                dests.push_back(s.rcb.owner(q.data()));
            }
            for (const int d : sortedUnique(dests)) {
                g.dest[kCopy].push_back(d);
                g.copyOf.push_back(k);
            }
        }
    }
}

// 2. Every rank's slave box S_r (the union of what the callers send it; segment mode, of the
// items' G) and `reach`: how far a slave item's G reaches beyond its region (segment mode). Then
// the ghosts: each master to every rank other than its region's whose T_r = S_r grown by h meets
// the master's F. Zoltan's box assignment over the RCB cuts finds the candidates: r's slave points
// (segment mode: centroids) lie in r's region, so T_r lies within h + reach of it, and F grown by
// h + reach meets that region.
void chooseGhosts(State& s, const CoordinatesView& x, double h) {
    MigrationScratch& g = s.mig;
    const Surface& slave = s.slave.surface;
    const auto n = static_cast<std::size_t>(s.size);
    std::vector<Box> mine(n);
    double reach = 0.0;
    for (std::size_t a = 0; a < g.dest[kSlaveSegment].size(); ++a) {
        const auto k = static_cast<Index>(a);
        const Box b = ghostBoxOf(slave, k, x, s.capture);
        const Eigen::Vector3d c = cornerCentroid(slave, k, x);  // in its region
        for (int d = 0; d < 3; ++d) {
            reach = std::max({reach, b.hi[d] - c[d], c[d] - b.lo[d]});
        }
        mine[g.dest[kSlaveSegment][a]].add(b);
    }
    for (std::size_t t = 0; t < g.dest[kSlaveNode].size(); ++t) {
        mine[g.dest[kSlaveNode][t]].add(x.node(s.ownedSlaveNodes[t]));
    }
    g.boxes.resize(6 * n + 1);
    for (std::size_t r = 0; r < n; ++r) {
        for (int d = 0; d < 3; ++d) {
            g.boxes[6 * r + d] = mine[r].lo[d];
            g.boxes[6 * r + 3 + d] = -mine[r].hi[d];
        }
    }
    g.boxes[6 * n] = -reach;
    MPI_Allreduce(MPI_IN_PLACE, g.boxes.data(), static_cast<int>(g.boxes.size()), MPI_DOUBLE,
                  MPI_MIN, s.comm);
    reach = -g.boxes[6 * n];
    const auto grownBox = [&](std::size_t r) {  // T_r
        Box b;
        for (int d = 0; d < 3; ++d) {
            b.lo[d] = g.boxes[6 * r + d];
            b.hi[d] = -g.boxes[6 * r + 3 + d];
        }
        return b.grown(h);
    };
    s.slaveFat = grownBox(static_cast<std::size_t>(s.rank));
    if (s.size == 1) {
        return;
    }
    const Surface& master = s.master.surface;
    std::vector<int> ranks;
    for (Index k = 0; k < master.size(); ++k) {
        const Box fat = FloatBox::outward(ghostBoxOf(master, k, x, s.capture).grown(h)).widened();
        Box query = fat.grown(h + reach);
        for (int c = 0; c < 3; ++c) {  // strictly across any cut the box touches
            query.lo[c] -= 0x1p-40 * std::abs(query.lo[c]) + 0x1p-1000;
            query.hi[c] += 0x1p-40 * std::abs(query.hi[c]) + 0x1p-1000;
        }
        s.rcb.ranksMeeting(query.lo.data(), query.hi.data(), ranks);
        for (const int r : ranks) {
            if (r != g.dest[kMaster][k] && grownBox(static_cast<std::size_t>(r)).meets(fat)) {
                g.dest[kGhost].push_back(r);
                g.ghostOf.push_back(k);
            }
        }
    }
}

// 3. The messages: per destination its nodes (ids and owners, in id order) and its items.
void sendItems(State& s, long long& bytes, DistributedStats& stats) {
    MigrationScratch& g = s.mig;
    const Surface& master = s.master.surface;
    const Surface& slave = s.slave.surface;
    for (int kind = 0; kind < kKinds; ++kind) {
        groupByDestination(g.dest[kind], s.size, g.first[kind], g.item[kind]);
    }
    // The segment of item i of a kind (slave nodes: none).
    const auto segmentOf = [&](int kind, Index i) {
        return kind == kCopy ? g.copyOf[i] : kind == kGhost ? g.ghostOf[i] : i;
    };
    const auto surfaceOf = [&](int kind) -> const Surface& {
        return kind == kMaster || kind == kGhost ? master : slave;
    };
    const auto n = static_cast<std::size_t>(s.numNodes);
    g.stamp.assign(n, -1);
    g.position.resize(n);
    g.nodes.clear();
    g.nodeFirst.assign(static_cast<std::size_t>(s.size) + 1, 0);
    for (int r = 0; r < s.size; ++r) {
        const std::size_t at = g.nodes.size();
        const auto list = [&](Index v) {
            if (g.stamp[v] != r) {
                g.stamp[v] = r;
                g.nodes.push_back(v);
            }
        };
        for (int kind = 0; kind < kKinds; ++kind) {
            for (Index a = g.first[kind][r]; a < g.first[kind][r + 1]; ++a) {
                const Index i = g.item[kind][a];
                if (kind == kSlaveNode) {
                    list(s.ownedSlaveNodes[i]);
                    continue;
                }
                const Surface& surface = surfaceOf(kind);
                const Index k = segmentOf(kind, i);
                for (int c = 0; c < nodeCount(surface.types[k]); ++c) {
                    list(surface.nodes(k)[c]);
                }
            }
        }
        if ((g.nodes.size() - at) * 8 > n) {  // many: picked in id order
            g.nodes.resize(at);
            for (const Index v : s.sortedNodes) {
                if (g.stamp[v] == r) {
                    g.nodes.push_back(v);
                }
            }
        } else {
            std::sort(g.nodes.begin() + static_cast<std::ptrdiff_t>(at), g.nodes.end(),
                      [&](Index a, Index b) { return s.idRank[a] < s.idRank[b]; });
        }
        g.nodeFirst[r + 1] = static_cast<Index>(g.nodes.size());
    }

    const auto itemBytes = [&](int kind, Index i) {
        if (kind == kSlaveNode) {
            return kNodeItemBytes;
        }
        const auto nodes =
            static_cast<std::size_t>(nodeCount(surfaceOf(kind).types[segmentOf(kind, i)]));
        return kSegmentBytes +
               (kind == kSlaveSegment || kind == kCopy ? sizeof(Index) + twinBytes(s) : 0) +
               sizeof(Index) * nodes;
    };
    const auto count = [&](int kind, int r) { return g.first[kind][r + 1] - g.first[kind][r]; };
    Exchange& ex = s.ex;
    ex.start(s.size);
    long long ghostBytes = 0;
    for (int r = 0; r < s.size; ++r) {
        const auto nodes = static_cast<std::size_t>(g.nodeFirst[r + 1] - g.nodeFirst[r]);
        if (nodes == 0) {
            continue;  // no items either
        }
        std::size_t b = sizeof(MigrationHeader) + (sizeof(GlobalId) + sizeof(int)) * nodes;
        for (int kind = 0; kind < kKinds; ++kind) {
            for (Index a = g.first[kind][r]; a < g.first[kind][r + 1]; ++a) {
                b += itemBytes(kind, g.item[kind][a]);
                if (kind == kGhost && r != s.rank) {  // with its nodes' ids and owners
                    ghostBytes +=
                        static_cast<long long>(itemBytes(kind, g.item[kind][a]) +
                                               (sizeof(GlobalId) + sizeof(int)) *
                                                   static_cast<std::size_t>(nodeCount(
                                                       master.types[g.ghostOf[g.item[kind][a]]])));
                }
            }
        }
        ex.count(r, b);
    }
    ex.allocate();
    for (int r = 0; r < s.size; ++r) {
        if (g.nodeFirst[r + 1] == g.nodeFirst[r]) {
            continue;
        }
        const MigrationHeader head{
            g.nodeFirst[r + 1] - g.nodeFirst[r],       count(kMaster, r),    count(kGhost, r),
            count(kSlaveSegment, r) + count(kCopy, r), count(kSlaveNode, r), 0};
        ex.put(r, head);
        for (Index a = g.nodeFirst[r]; a < g.nodeFirst[r + 1]; ++a) {
            const Index v = g.nodes[a];
            g.position[v] = a - g.nodeFirst[r];
            ex.put(r, s.nodeIds[v]);
        }
        for (Index a = g.nodeFirst[r]; a < g.nodeFirst[r + 1]; ++a) {
            ex.put(r, s.nodeOwner[g.nodes[a]]);
        }
        for (const int kind : {kMaster, kGhost, kSlaveSegment, kCopy}) {
            const SurfacePart& part = kind == kMaster || kind == kGhost ? s.master : s.slave;
            for (Index a = g.first[kind][r]; a < g.first[kind][r + 1]; ++a) {
                const Index k = segmentOf(kind, g.item[kind][a]);
                ex.put(r, part.ids[k]);
                ex.put(r, static_cast<std::uint8_t>(part.surface.types[k]));
                if (kind == kSlaveSegment || kind == kCopy) {
                    ex.put(r, kind == kSlaveSegment ? s.slaveSlot[k] : Index{0});
                    if (twinBytes(s) != 0) {
                        ex.put(r, s.slaveTwin[k]);
                    }
                }
                for (int c = 0; c < nodeCount(part.surface.types[k]); ++c) {
                    ex.put(r, g.position[part.surface.nodes(k)[c]]);
                }
            }
        }
        for (Index a = g.first[kSlaveNode][r]; a < g.first[kSlaveNode][r + 1]; ++a) {
            const Index t = g.item[kSlaveNode][a];
            ex.put(r, g.position[s.ownedSlaveNodes[t]]);
            ex.put(r, t);  // its slot: the owned slave nodes are in id order
            ex.put(r, s.slaveValence[t]);
        }
    }
    ex.run(s.comm, bytes);
    stats.ghostBytes = ghostBytes;
}

// 4. What arrived, read in place: the node runs (each source's node ids, in id order), the
// records of the masters (owned, then ghosts) and slave segments, the slave nodes.
void receiveItems(State& s) {
    MigrationScratch& g = s.mig;
    const Exchange& ex = s.ex;
    const char* bytes = ex.receivedBytes();
    g.runAt.assign(static_cast<std::size_t>(s.size), 0);
    g.runBase.assign(static_cast<std::size_t>(s.size) + 1, 0);
    Big<Index> ghostAt;
    Big<int> ghostSource;
    for (auto& v : g.itemAt) {
        v.clear();
    }
    for (auto& v : g.itemSource) {
        v.clear();
    }
    g.nEntry.clear();
    g.nOrigin.clear();
    g.nSlot.clear();
    g.nValence.clear();
    for (int r = 0; r < s.size; ++r) {
        std::size_t at = ex.runStart(r);
        Index nodes = 0;
        if (at < ex.runStart(r + 1)) {
            const auto head = readAt<MigrationHeader>(bytes, at);
            at += sizeof head;
            nodes = head.nodes;
            g.runAt[r] = at;
            at += (sizeof(GlobalId) + sizeof(int)) * static_cast<std::size_t>(nodes);
            const auto segments = [&](Index count, bool slot, Big<Index>& where, Big<int>& source) {
                for (Index a = 0; a < count; ++a) {
                    where.push_back(static_cast<Index>(at));
                    source.push_back(r);
                    const auto type = static_cast<SegmentType>(
                        readAt<std::uint8_t>(bytes, at + sizeof(GlobalId)));
                    at += kSegmentBytes + (slot ? sizeof(Index) + twinBytes(s) : 0) +
                          sizeof(Index) * static_cast<std::size_t>(nodeCount(type));
                }
            };
            segments(head.masters, false, g.itemAt[0], g.itemSource[0]);
            segments(head.ghosts, false, ghostAt, ghostSource);
            segments(head.slaveSegments, true, g.itemAt[1], g.itemSource[1]);
            for (Index a = 0; a < head.slaveNodes; ++a) {
                g.nEntry.push_back(g.runBase[r] + readAt<Index>(bytes, at));
                g.nSlot.push_back(readAt<Index>(bytes, at + sizeof(Index)));
                g.nValence.push_back(readAt<Index>(bytes, at + 2 * sizeof(Index)));
                g.nOrigin.push_back(r);
                at += kNodeItemBytes;
            }
        }
        g.runBase[r + 1] = g.runBase[r] + nodes;
    }
    s.ghostMasters = static_cast<Index>(ghostAt.size());
    g.owned.assign(g.itemAt[0].size(), 1);
    g.owned.resize(g.itemAt[0].size() + ghostAt.size(), 0);
    g.itemAt[0].insert(g.itemAt[0].end(), ghostAt.begin(), ghostAt.end());
    g.itemSource[0].insert(g.itemSource[0].end(), ghostSource.begin(), ghostSource.end());
}

// 5. The contact nodes: the distinct ids of the node runs, merged (one run: itself).
void buildNodes(State& s) {
    MigrationScratch& g = s.mig;
    const char* bytes = s.ex.receivedBytes();
    const std::size_t entries = static_cast<std::size_t>(g.runBase.back());
    g.entryNode.resize(entries);
    s.cNodeIds.clear();
    s.cNodeOwner.clear();
    s.cNodeIds.reserve(entries);
    s.cNodeOwner.reserve(entries);
    struct Head {
        GlobalId id;
        int run;
        Index at;
    };
    std::vector<Head> heads;
    const auto idOf = [&](int r, Index j) {
        return readAt<GlobalId>(bytes, g.runAt[r] + sizeof(GlobalId) * static_cast<std::size_t>(j));
    };
    for (int r = 0; r < s.size; ++r) {
        if (g.runBase[r + 1] > g.runBase[r]) {
            heads.push_back({idOf(r, 0), r, 0});
        }
    }
    if (heads.size() == 1) {  // one run: the contact nodes themselves
        const std::size_t at = g.runAt[heads[0].run];
        s.cNodeIds.resize(entries);
        s.cNodeOwner.resize(entries);
        std::memcpy(s.cNodeIds.data(), bytes + at, entries * sizeof(GlobalId));
        std::memcpy(s.cNodeOwner.data(), bytes + at + entries * sizeof(GlobalId),
                    entries * sizeof(int));
        std::iota(g.entryNode.begin(), g.entryNode.end(), Index{0});
        return;
    }
    const auto after = [](const Head& a, const Head& b) {
        return a.id != b.id ? a.id > b.id : a.run > b.run;
    };
    std::make_heap(heads.begin(), heads.end(), after);
    while (!heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), after);
        Head& h = heads.back();
        const Index count = g.runBase[h.run + 1] - g.runBase[h.run];
        if (s.cNodeIds.empty() || s.cNodeIds.back() != h.id) {
            s.cNodeIds.push_back(h.id);
            s.cNodeOwner.push_back(readAt<int>(
                bytes, g.runAt[h.run] + sizeof(GlobalId) * static_cast<std::size_t>(count) +
                           sizeof(int) * static_cast<std::size_t>(h.at)));
        }
        g.entryNode[g.runBase[h.run] + h.at] = static_cast<Index>(s.cNodeIds.size()) - 1;
        if (++h.at == count) {
            heads.pop_back();
        } else {
            h.id = idOf(h.run, h.at);
            std::push_heap(heads.begin(), heads.end(), after);
        }
    }
}

// Segment records (masters: kind 0; slave segments: 1) in the order given, as a surface.
Surface surfaceOf(const State& s, int kind, const std::string& name,
                  const std::vector<Index>& order) {
    const MigrationScratch& g = s.mig;
    const char* bytes = s.ex.receivedBytes();
    Surface surface;
    surface.name = name;
    surface.types.reserve(order.size());
    surface.offsets.reserve(order.size() + 1);
    surface.connectivity.reserve(4 * order.size());
    for (const Index k : order) {
        const auto at = static_cast<std::size_t>(g.itemAt[kind][k]);
        const auto type = static_cast<SegmentType>(readAt<std::uint8_t>(bytes, at + 8));
        const std::size_t refs =
            at + kSegmentBytes + (kind == 1 ? sizeof(Index) + twinBytes(s) : 0);
        const Index base = g.runBase[g.itemSource[kind][k]];
        Index v[kMaxSegmentNodes];
        for (int c = 0; c < nodeCount(type); ++c) {
            v[c] = g.entryNode[base + readAt<Index>(bytes, refs + sizeof(Index) * c)];
        }
        surface.addSegment(type, v, nodeCount(type));
    }
    return surface;
}

// 6. Where each contact node's coordinates come from (its owner), and what this rank sends whom:
// each contact rank asks the owners for the ids it needs, in id order.
void planCoordinates(State& s, long long& bytes) {
    const Big<int>& owner = s.cNodeOwner;
    const std::size_t c = s.cNodeIds.size();
    std::vector<int> linkOf(static_cast<std::size_t>(s.size), -1);
    s.recvCoords.clear();
    Exchange& ex = s.ex;
    ex.start(s.size);
    for (std::size_t i = 0; i < c; ++i) {
        const int r = owner[i];
        if (linkOf[r] < 0) {
            linkOf[r] = static_cast<int>(s.recvCoords.size());
            s.recvCoords.push_back({r, {}});
        }
        s.recvCoords[linkOf[r]].nodes.push_back(static_cast<Index>(i));
        ex.count(r, sizeof(GlobalId));
    }
    ex.allocate();
    for (std::size_t i = 0; i < c; ++i) {
        ex.put(owner[i], s.cNodeIds[i]);
    }
    ex.run(s.comm, bytes);
    s.sendCoords.clear();
    for (int r = 0; r < s.size; ++r) {
        ByteReader rd = ex.from(r);
        if (rd.done()) {
            continue;
        }
        Link link{r, {}};
        std::size_t at = 0;  // the ids come in increasing order: a galloping sweep
        while (!rd.done()) {
            const auto id = rd.get<GlobalId>();
            std::size_t step = 1;
            std::size_t hi = at;
            while (hi < s.sortedIds.size() && s.sortedIds[hi] < id) {
                at = hi + 1;
                hi += step;
                step *= 2;
            }
            hi = std::min(hi, s.sortedIds.size());
            at = static_cast<std::size_t>(
                std::lower_bound(s.sortedIds.begin() + static_cast<std::ptrdiff_t>(at),
                                 s.sortedIds.begin() + static_cast<std::ptrdiff_t>(hi), id) -
                s.sortedIds.begin());
            if (at == s.sortedIds.size() || s.sortedIds[at] != id) {
                throw std::logic_error("contact::mpi: rank " + std::to_string(r) +
                                       " asked for node " + std::to_string(id) +
                                       ", which this rank does not have");
            }
            link.nodes.push_back(s.sortedNodes[at]);
        }
        s.sendCoords.push_back(std::move(link));
    }
}

}  // namespace

Box ghostBox(const SegmentNodes& seg, double capture) noexcept {
    const Aabb3 a = segmentAabb<3>(seg, capture);
    const double scale = std::max(a.lo.cwiseAbs().maxCoeff(), a.hi.cwiseAbs().maxCoeff());
    const double pad = 0x1p-20 * (scale + capture) + 0x1p-140;
    Box b;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = a.lo[k] - pad;
        b.hi[k] = a.hi[k] + pad;
    }
    return b;
}

long long sendCoordinates(State& s, const CoordinatesView& x, Big<double>& dst) {
    const int dim = s.dim;
    dst.resize(static_cast<std::size_t>(dim) * s.cNodeIds.size());
    const std::size_t nr = s.recvCoords.size();
    const std::size_t ns = s.sendCoords.size();
    s.coordBuffers.resize(nr + ns);
    s.coordRequests.assign(nr + ns, MPI_REQUEST_NULL);
    long long bytes = 0;
    const Link* selfRecv = nullptr;
    const Link* selfSend = nullptr;
    for (std::size_t i = 0; i < nr; ++i) {
        if (s.recvCoords[i].rank == s.rank) {  // this rank's own: copied below, without MPI
            selfRecv = &s.recvCoords[i];
            continue;
        }
        Big<double>& b = s.coordBuffers[i];
        b.resize(static_cast<std::size_t>(dim) * s.recvCoords[i].nodes.size());
        MPI_Irecv(b.data(), static_cast<int>(b.size()), MPI_DOUBLE, s.recvCoords[i].rank,
                  kTagCoordinates, s.comm, &s.coordRequests[i]);
    }
    for (std::size_t j = 0; j < ns; ++j) {
        const Link& link = s.sendCoords[j];
        if (link.rank == s.rank) {
            selfSend = &link;
            continue;
        }
        Big<double>& b = s.coordBuffers[nr + j];
        b.resize(static_cast<std::size_t>(dim) * link.nodes.size());
        for (std::size_t t = 0; t < link.nodes.size(); ++t) {
            const Eigen::Vector3d p = x.node(link.nodes[t]);
            for (int c = 0; c < dim; ++c) {
                b[dim * t + c] = p[c];
            }
        }
        bytes += static_cast<long long>(b.size() * sizeof(double));
        MPI_Isend(b.data(), static_cast<int>(b.size()), MPI_DOUBLE, link.rank, kTagCoordinates,
                  s.comm, &s.coordRequests[nr + j]);
    }
    if (selfRecv != nullptr && selfSend != nullptr) {
        // The same nodes in the same order on both sides (the request this rank sent itself).
        for (std::size_t t = 0; t < selfRecv->nodes.size(); ++t) {
            const Eigen::Vector3d p = x.node(selfSend->nodes[t]);
            double* q = dst.data() + static_cast<std::size_t>(dim) * selfRecv->nodes[t];
            for (int c = 0; c < dim; ++c) {
                q[c] = p[c];
            }
        }
    }
    MPI_Waitall(static_cast<int>(s.coordRequests.size()), s.coordRequests.data(),
                MPI_STATUSES_IGNORE);
    for (std::size_t i = 0; i < nr; ++i) {
        if (&s.recvCoords[i] == selfRecv) {
            continue;
        }
        const Big<double>& b = s.coordBuffers[i];
        const Big<Index>& nodes = s.recvCoords[i].nodes;
        for (std::size_t t = 0; t < nodes.size(); ++t) {
            for (int c = 0; c < dim; ++c) {
                dst[static_cast<std::size_t>(dim) * nodes[t] + c] = b[dim * t + c];
            }
        }
    }
    return bytes;
}

namespace {

// ghostBoxOf, inlined into the per-update check.
inline Box ghostBoxInline(const Surface& surface, Index k, const CoordinatesView& x,
                          double capture) noexcept {
    const SegmentType type = surface.types[k];
    if (isQuadratic(type)) {
        return ghostBox(gatherSegment(surface, k, x), capture);
    }
    // Straight segments: the control points are the nodes; the same operations as segmentAabb
    // and ghostBox, so the same doubles.
    const Index* v = surface.nodes(k);
    std::array<double, 3> lo{};
    std::array<double, 3> hi{};
    for (int i = 0; i < nodeCount(type); ++i) {
        const std::ptrdiff_t at = x.stride * v[i];
        const double p[3] = {x.x[at], x.y[at], x.z == nullptr ? 0.0 : x.z[at]};
        for (int c = 0; c < 3; ++c) {
            lo[c] = i == 0 ? p[c] : std::min(lo[c], p[c]);
            hi[c] = i == 0 ? p[c] : std::max(hi[c], p[c]);
        }
    }
    double scale = 0.0;
    for (int c = 0; c < 3; ++c) {
        lo[c] -= capture;
        hi[c] += capture;
        scale = std::max({scale, std::abs(lo[c]), std::abs(hi[c])});
    }
    const double pad = 0x1p-20 * (scale + capture) + 0x1p-140;
    Box b;
    for (int c = 0; c < 3; ++c) {
        b.lo[c] = lo[c] - pad;
        b.hi[c] = hi[c] + pad;
    }
    return b;
}

}  // namespace

Box ghostBoxOf(const Surface& surface, Index k, const CoordinatesView& x, double capture) noexcept {
    return ghostBoxInline(surface, k, x, capture);
}

bool boxesInside(const State& s) {
    const CoordinatesView cx = CoordinatesView::interleaved(
        s.cCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    const Surface& masters = s.local->master();
    for (Index k = 0; k < masters.size(); ++k) {  // ghosts' grown boxes are infinite
        if (!s.cMasterFat[k].contains(ghostBoxInline(masters, k, cx, s.capture))) {
            return false;
        }
    }
    if (s.nodeMode) {
        const double* xyz = s.cCoords.data();
        const Box& fat = s.slaveFat;
        for (const Index c : s.cSlaveNode) {
            const double* p = xyz + static_cast<std::size_t>(s.dim) * c;
            for (int d = 0; d < s.dim; ++d) {
                if (!(p[d] >= fat.lo[d] && p[d] <= fat.hi[d])) {
                    return false;
                }
            }
        }
        return true;  // (2D: z = 0 lies in the box, built from these nodes at z = 0)
    }
    const Surface& slaves = s.local->slave();
    for (Index k = 0; k < slaves.size(); ++k) {
        if (!s.slaveFat.contains(ghostBoxInline(slaves, k, cx, s.capture))) {
            return false;
        }
    }
    return true;
}

void repartition(State& s, const SearchOptions& options, const CoordinatesView& x,
                 DistributedStats& stats, bool atSetup) {
    const auto t0 = Clock::now();
    long long bytes = 0;
    MigrationScratch& g = s.mig;
    const bool selfSegments = s.nodeMode && options.selfContact && !s.slaveAsNodes;
    const double h = 0.5 * s.skin;

    // 1-4. Items to their regions, masters also as ghosts; this rank's T_r.
    assignItems(s, x, selfSegments);
    s.resultSources = ranksIn(s.size, g.dest[kSlaveSegment], g.dest[kSlaveNode]);
    stats.timePartition = msSince(t0);
    chooseGhosts(s, x, h);
    sendItems(s, bytes, stats);
    receiveItems(s);
    buildNodes(s);

    // The masters held and the slave segments, by id; the slave nodes by contact node (by id).
    const char* in = s.ex.receivedBytes();
    std::vector<Index> masters;
    std::vector<Index> slaves;
    for (int kind = 0; kind < 2; ++kind) {
        const Big<Index>& at = g.itemAt[kind];
        sortRecords(s, at.size(), [&](std::size_t k) {
            return idKey(readAt<GlobalId>(in, static_cast<std::size_t>(at[k])));
        });
        (kind == 0 ? masters : slaves).assign(s.order.begin(), s.order.end());
    }
    s.cMasterIds.resize(masters.size());
    for (std::size_t i = 0; i < masters.size(); ++i) {
        s.cMasterIds[i] = readAt<GlobalId>(in, static_cast<std::size_t>(g.itemAt[0][masters[i]]));
    }
    s.cSlaveSegId.resize(slaves.size());
    s.cSlaveSegTwin.resize(twinBytes(s) != 0 ? slaves.size() : 0);
    s.cSlaveSegOrigin.resize(slaves.size());
    s.cSlaveSegSlot.resize(slaves.size());
    for (std::size_t i = 0; i < slaves.size(); ++i) {
        const auto at = static_cast<std::size_t>(g.itemAt[1][slaves[i]]);
        s.cSlaveSegId[i] = readAt<GlobalId>(in, at);
        s.cSlaveSegOrigin[i] = g.itemSource[1][slaves[i]];
        s.cSlaveSegSlot[i] = readAt<Index>(in, at + kSegmentBytes);
        if (twinBytes(s) != 0) {
            s.cSlaveSegTwin[i] = readAt<GlobalId>(in, at + kSegmentBytes + sizeof(Index));
        }
    }
    sortRecords(s, g.nEntry.size(), [&](std::size_t t) {
        return static_cast<std::uint64_t>(g.entryNode[g.nEntry[t]]);
    });
    const std::size_t items = g.nEntry.size();
    s.cSlaveNode.resize(items);
    s.cSlaveNodeOrigin.resize(items);
    s.cSlaveNodeSlot.resize(items);
    s.cSlaveItemOf.assign(s.cNodeIds.size(), -1);
    for (std::size_t i = 0; i < items; ++i) {
        const Index t = s.order[i];
        const Index c = g.entryNode[g.nEntry[t]];
        s.cSlaveNode[i] = c;
        s.cSlaveNodeOrigin[i] = g.nOrigin[t];
        s.cSlaveNodeSlot[i] = g.nSlot[t];
        s.cSlaveItemOf[c] = static_cast<Index>(i);
    }
    Surface cMaster = surfaceOf(s, 0, s.master.surface.name, masters);
    Surface cSlave = surfaceOf(s, 1, s.slave.surface.name, slaves);
    if (selfSegments) {
        collectively(s.comm, [&] {
            std::vector<Index> count(items, 0);
            for (const Index c : cSlave.connectivity) {
                if (s.cSlaveItemOf[c] >= 0) {
                    ++count[s.cSlaveItemOf[c]];
                }
            }
            for (std::size_t i = 0; i < items; ++i) {
                const Index valence = g.nValence[s.order[i]];
                if (count[i] != valence) {
                    throw std::invalid_argument(
                        "contact::mpi::DistributedSearch: slave node " +
                        std::to_string(s.cNodeIds[s.cSlaveNode[i]]) + ": " +
                        std::to_string(count[i]) + " of its " + std::to_string(valence) +
                        " slave segments reached rank " + std::to_string(s.rank) +
                        ": the ranks give the nodes of these segments different coordinates");
                }
            }
        });
    }
    if (!s.nodeMode && !s.sameSurface && !cMaster.empty() && cMaster.types == cSlave.types &&
        cMaster.connectivity == cSlave.connectivity) {
        // Two different global surfaces whose parts here are equal: the serial search would take
        // them for one surface. Segment pairs do not depend on the master order: reverse it.
        std::reverse(masters.begin(), masters.end());
        std::reverse(s.cMasterIds.begin(), s.cMasterIds.end());
        cMaster = surfaceOf(s, 0, s.master.surface.name, masters);
    }

    // 5. The serial search on owned + ghost masters and the slave items: every node's
    // coordinates from its owner; set up with the coordinates of setSurfaces (validated there),
    // then the current ones.
    // The orientation was checked on the global surfaces (checkOrientation): a rank's part may
    // hold two of three or more segments sharing a master edge, which alone look inside-out.
    planCoordinates(s, bytes);
    const CoordinatesView setupView = CoordinatesView::interleaved(
        s.setupCoords.data(), static_cast<Index>(s.nodeIds.size()), s.dim);
    bytes += sendCoordinates(s, setupView, g.setupCoords);
    const CoordinatesView sx = CoordinatesView::interleaved(
        g.setupCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    collectively(s.comm, [&] {
        SearchOptions local = options;
        local.checkOrientation = false;
        local.captureRelative = false;
        local.capture = s.capture;
        double sum = 0.0;
        for (Index k = 0; k < cMaster.size(); ++k) {
            sum += characteristicSize(gatherSegment(cMaster, k, sx));
        }
        // The serial search's own Verlet list: its skin changes its work, not its pairs.
        if (sum > 0.0) {
            local.skinRelative = s.skin / (sum / cMaster.size());
        }
        s.local = std::make_unique<ContactSearch>(local);
        if (!s.nodeMode || selfSegments) {
            s.local->setSurfaces(std::move(cMaster), std::move(cSlave), sx);
        } else {
            s.local->setSurfaces(std::move(cMaster), s.cSlaveNode, sx);
        }
    });
    if (atSetup) {  // the current coordinates are those of setSurfaces
        s.cCoords.swap(g.setupCoords);
    } else {
        bytes += sendCoordinates(s, x, s.cCoords);
    }
    // The grown boxes F of the owned masters, from the coordinates of this partition (the same
    // doubles the callers computed); a ghost's is its owner's to check.
    const CoordinatesView cx = CoordinatesView::interleaved(
        s.cCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    FloatBox everywhere;
    everywhere.lo.fill(-HUGE_VALF);
    everywhere.hi.fill(HUGE_VALF);
    const Surface& held = s.local->master();
    s.cMasterFat.resize(masters.size());
    for (std::size_t i = 0; i < masters.size(); ++i) {
        s.cMasterFat[i] =
            g.owned[masters[i]] != 0
                ? FloatBox::outward(ghostBoxOf(held, static_cast<Index>(i), cx, s.capture).grown(h))
                : everywhere;
    }

    s.resultTargets = ranksIn(s.size, s.nodeMode ? s.cSlaveNodeOrigin : s.cSlaveSegOrigin);
    stats.repartitioned = true;
    stats.repartitionBytes = bytes;
    stats.bytesSent += bytes;
    stats.timeGhosts = msSince(t0) - stats.timePartition;
}

}  // namespace contact::mpi::detail
