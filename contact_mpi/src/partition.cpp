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
// whose T_r = S_r grown by h = skin / 2 meets F(m) = G(m) grown by h. While every item of r stays
// in T_r and every G(m) in its F(m) (checked at every update, one allreduce), a serial pair
// (k on r, m) has G(m) meeting k inside T_r, so F(m) meets T_r: m is on r. The serial search on
// r then sees every master that can hold k's closest point or pair with k; the others it sees
// are masters of the global surface too, so they change nothing: the closest point over a
// superset of the candidates that holds the winner is the winner, and segment pairs are
// decided pair by pair. Masters are ordered by global id, so ties go where the serial search
// sends them; self-contact exclusions use global node ids (node mode: every slave segment holding
// an owned node is on the rank, checked by counting them).
#include "contact/bounds.hpp"
#include "contact/segment.hpp"

#include "setup.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
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

void resetOut(std::vector<ByteWriter>& out, int size) {
    out.resize(static_cast<std::size_t>(size));
    for (ByteWriter& w : out) {
        w.clear();
    }
}

SegmentRecord recordOf(const State& s, const SurfacePart& part, Index k, Index slot) {
    SegmentRecord r;
    r.id = part.ids[k];
    r.type = part.surface.types[k];
    for (int i = 0; i < nodeCount(r.type); ++i) {
        const Index v = part.surface.nodes(k)[i];
        r.nodes[i] = s.nodeIds[v];
        r.owners[i] = s.nodeOwner[v];
    }
    r.origin = s.rank;
    r.slot = slot;
    return r;
}

void putSegment(ByteWriter& w, char kind, const SegmentRecord& r) {
    const int n = nodeCount(r.type);
    w.put(kind);
    w.put(r.id);
    w.put(static_cast<std::uint8_t>(r.type));
    w.put(r.nodes.data(), static_cast<std::size_t>(n));
    w.put(r.owners.data(), static_cast<std::size_t>(n));
    w.put(r.slot);
}

SegmentRecord getSegment(ByteReader& rd, int origin) {
    SegmentRecord r;
    r.id = rd.get<GlobalId>();
    r.type = static_cast<SegmentType>(rd.get<std::uint8_t>());
    const int n = nodeCount(r.type);
    for (int i = 0; i < n; ++i) {
        r.nodes[i] = rd.get<GlobalId>();
    }
    for (int i = 0; i < n; ++i) {
        r.owners[i] = rd.get<int>();
    }
    r.slot = rd.get<Index>();
    r.origin = origin;
    return r;
}

// An owned slave node as it travels (node mode): from its owner to its region.
struct NodeItem {
    GlobalId id = 0;
    int origin = 0;
    Index slot = 0;  // on the origin (State::slotId)
    Index valence = 0;
};

bool byId(const SegmentRecord& a, const SegmentRecord& b) { return a.id < b.id; }

// The contact nodes (every node of the held segments and slave items, sorted by id) and the
// coordinate plan: each node's coordinates come from its owner.
void planCoordinates(State& s, const std::vector<NodeItem>& items, long long& bytes) {
    std::vector<std::pair<GlobalId, int>> all;
    for (const auto* list : {&s.cMasters, &s.cSlaveSegments}) {
        for (const SegmentRecord& r : *list) {
            for (int i = 0; i < nodeCount(r.type); ++i) {
                all.emplace_back(r.nodes[i], r.owners[i]);
            }
        }
    }
    for (const NodeItem& it : items) {
        all.emplace_back(it.id, it.origin);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              all.end());
    s.cNodeIds.resize(all.size());
    resetOut(s.out, s.size);
    std::vector<int> linkOf(static_cast<std::size_t>(s.size), -1);
    s.recvCoords.clear();
    for (std::size_t i = 0; i < all.size(); ++i) {
        s.cNodeIds[i] = all[i].first;
        const int owner = all[i].second;
        if (linkOf[owner] < 0) {
            linkOf[owner] = static_cast<int>(s.recvCoords.size());
            s.recvCoords.push_back({owner, {}});
        }
        s.recvCoords[linkOf[owner]].nodes.push_back(static_cast<Index>(i));
        s.out[owner].put(all[i].first);
    }
    Received& in = s.in;
    exchange(s.comm, s.out, in, bytes);
    s.sendCoords.clear();
    for (int r = 0; r < s.size; ++r) {
        ByteReader rd = in.from(r);
        if (rd.done()) {
            continue;
        }
        Link link{r, {}};
        while (!rd.done()) {
            const auto id = rd.get<GlobalId>();
            const auto it =
                std::lower_bound(s.idIndex.begin(), s.idIndex.end(), std::make_pair(id, Index{0}));
            if (it == s.idIndex.end() || it->first != id) {
                throw std::logic_error("contact::mpi: rank " + std::to_string(r) +
                                       " asked for node " + std::to_string(id) +
                                       ", which this rank does not have");
            }
            link.nodes.push_back(it->second);
        }
        s.sendCoords.push_back(std::move(link));
    }
}

Index contactNode(const State& s, GlobalId id) {
    return static_cast<Index>(std::lower_bound(s.cNodeIds.begin(), s.cNodeIds.end(), id) -
                              s.cNodeIds.begin());
}

Surface surfaceOf(const State& s, const std::vector<SegmentRecord>& records, const char* name) {
    Surface surface;
    surface.name = name;
    for (const SegmentRecord& r : records) {
        Index v[kMaxSegmentNodes];
        for (int i = 0; i < nodeCount(r.type); ++i) {
            v[i] = contactNode(s, r.nodes[i]);
        }
        surface.addSegment(r.type, v, nodeCount(r.type));
    }
    return surface;
}

std::vector<int> sortedUnique(std::vector<int> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
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

long long sendCoordinates(State& s, const CoordinatesView& x, std::vector<double>& dst) {
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
        std::vector<double>& b = s.coordBuffers[i];
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
        std::vector<double>& b = s.coordBuffers[nr + j];
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
        const std::vector<double>& b = s.coordBuffers[i];
        const std::vector<Index>& nodes = s.recvCoords[i].nodes;
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
                 DistributedStats& stats) {
    auto t0 = Clock::now();
    long long bytes = 0;
    const bool selfSegments = s.nodeMode && options.selfContact && !s.slaveAsNodes;
    const Surface& master = s.master.surface;
    const Surface& slave = s.slave.surface;

    // 1. RCB over the faces, weighted by node count (slave nodes when the slave is nodes).
    std::vector<double> xyz;
    std::vector<float> weights;
    const auto addPoint = [&](const Eigen::Vector3d& p, int w) {
        xyz.insert(xyz.end(), {p[0], p[1], p[2]});
        weights.push_back(static_cast<float>(w));
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
    s.rcb.partition(xyz, weights);

    // 2. Owned items to the rank of their region: masters and slave segments by the centroid of
    // their corners, slave nodes by their position. Node mode with self-contact: each slave
    // segment also goes to every rank owning one of its nodes.
    resetOut(s.out, s.size);
    std::vector<int> sources;
    for (Index k = 0; k < master.size(); ++k) {
        const int dest = s.rcb.owner(&xyz[3 * static_cast<std::size_t>(k)]);
        putSegment(s.out[dest], 'M', recordOf(s, s.master, k, 0));
    }
    if (s.nodeMode) {
        for (std::size_t t = 0; t < s.ownedSlaveNodes.size(); ++t) {
            const Index i = s.ownedSlaveNodes[t];
            const Eigen::Vector3d p = x.node(i);
            const int dest = s.rcb.owner(p.data());
            s.out[dest].put('N');
            s.out[dest].put(s.nodeIds[i]);
            s.out[dest].put(static_cast<Index>(t));  // its slot: the nodes are ordered by id
            s.out[dest].put(s.slaveValence[t]);
            sources.push_back(dest);
        }
    } else {
        for (Index k = 0; k < slave.size(); ++k) {
            const Eigen::Vector3d c = cornerCentroid(slave, k, x);
            const int dest = s.rcb.owner(c.data());
            putSegment(s.out[dest], 'S', recordOf(s, s.slave, k, s.slaveSlot[k]));
            sources.push_back(dest);
        }
    }
    if (selfSegments) {
        std::vector<int> dests;
        for (Index k = 0; k < slave.size(); ++k) {
            dests.clear();
            for (int i = 0; i < nodeCount(slave.types[k]); ++i) {
                const Eigen::Vector3d p = x.node(slave.nodes(k)[i]);
                dests.push_back(s.rcb.owner(p.data()));
            }
            for (const int dest : sortedUnique(dests)) {
                putSegment(s.out[dest], 'S', recordOf(s, s.slave, k, 0));
            }
        }
    }
    s.resultSources = sortedUnique(std::move(sources));
    stats.timePartition = msSince(t0);
    t0 = Clock::now();
    Received& in = s.in;
    exchange(s.comm, s.out, in, bytes);

    // 3. What arrived.
    s.cMasters.clear();
    s.cSlaveSegments.clear();
    std::vector<NodeItem> items;
    for (int r = 0; r < s.size; ++r) {
        ByteReader rd = in.from(r);
        while (!rd.done()) {
            const char kind = rd.get<char>();
            if (kind == 'M') {
                s.cMasters.push_back(getSegment(rd, r));
            } else if (kind == 'S') {
                s.cSlaveSegments.push_back(getSegment(rd, r));
            } else {
                NodeItem it;
                it.id = rd.get<GlobalId>();
                it.slot = rd.get<Index>();
                it.valence = rd.get<Index>();
                it.origin = r;
                items.push_back(it);
            }
        }
    }
    std::sort(s.cMasters.begin(), s.cMasters.end(), byId);
    std::sort(s.cSlaveSegments.begin(), s.cSlaveSegments.end(), byId);
    std::sort(items.begin(), items.end(),
              [](const NodeItem& a, const NodeItem& b) { return a.id < b.id; });

    // 4. Current coordinates of the owned items' nodes, from their owners.
    planCoordinates(s, items, bytes);
    bytes += sendCoordinates(s, x, s.cCoords);
    CoordinatesView cx = CoordinatesView::interleaved(s.cCoords.data(),
                                                      static_cast<Index>(s.cNodeIds.size()), s.dim);
    if (selfSegments) {
        collectively(s.comm, [&] {
            std::vector<Index> count(items.size(), 0);
            for (const SegmentRecord& r : s.cSlaveSegments) {
                for (int i = 0; i < nodeCount(r.type); ++i) {
                    const auto it =
                        std::lower_bound(items.begin(), items.end(), r.nodes[i],
                                         [](const NodeItem& a, GlobalId id) { return a.id < id; });
                    if (it != items.end() && it->id == r.nodes[i]) {
                        ++count[static_cast<std::size_t>(it - items.begin())];
                    }
                }
            }
            for (std::size_t t = 0; t < items.size(); ++t) {
                if (count[t] != items[t].valence) {
                    throw std::invalid_argument(
                        "contact::mpi::DistributedSearch: slave node " +
                        std::to_string(items[t].id) + ": " + std::to_string(count[t]) + " of its " +
                        std::to_string(items[t].valence) + " slave segments reached rank " +
                        std::to_string(s.rank) +
                        ": the ranks give the nodes of these segments different coordinates");
                }
            }
        });
    }

    // 5. This rank's slave box grown by h (T_r), every rank's, and the ghosts: each owned master
    // to every other rank whose T meets the master's grown box F. Zoltan's box assignment over the
    // RCB cuts finds the candidates: r's slave points (segment mode: centroids) lie in r's region,
    // so T_r lies within h + reach of it, and F grown by h + reach meets that region.
    const double h = 0.5 * s.skin;
    Box slaveBox;
    double reach = 0.0;  // how far a slave item's box reaches beyond its region (segment mode)
    if (s.nodeMode) {
        for (const NodeItem& it : items) {
            slaveBox.add(cx.node(contactNode(s, it.id)));
        }
    } else {
        const Surface slaves = surfaceOf(s, s.cSlaveSegments, "slave");
        for (Index k = 0; k < slaves.size(); ++k) {
            const Box g = ghostBoxOf(slaves, k, cx, s.capture);
            const Eigen::Vector3d c = cornerCentroid(slaves, k, cx);  // in this rank's region
            for (int d = 0; d < 3; ++d) {
                reach = std::max({reach, g.hi[d] - c[d], c[d] - g.lo[d]});
            }
            slaveBox.add(g);
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &reach, 1, MPI_DOUBLE, MPI_MAX, s.comm);
    s.slaveFat = slaveBox.grown(h);
    std::vector<double> boxes(6 * static_cast<std::size_t>(s.size));
    double mine[6] = {s.slaveFat.lo[0], s.slaveFat.lo[1], s.slaveFat.lo[2],
                      s.slaveFat.hi[0], s.slaveFat.hi[1], s.slaveFat.hi[2]};
    MPI_Allgather(mine, 6, MPI_DOUBLE, boxes.data(), 6, MPI_DOUBLE, s.comm);
    const auto rankBox = [&](int r) {
        Box b;
        for (int k = 0; k < 3; ++k) {
            b.lo[k] = boxes[6 * static_cast<std::size_t>(r) + k];
            b.hi[k] = boxes[6 * static_cast<std::size_t>(r) + 3 + k];
        }
        return b;
    };
    const Surface owned = surfaceOf(s, s.cMasters, "master");
    resetOut(s.out, s.size);
    std::vector<int> ranks;
    std::vector<Box> fat(s.cMasters.size());
    for (Index k = 0; k < owned.size(); ++k) {
        fat[k] = ghostBoxOf(owned, k, cx, s.capture).grown(h);
        if (s.size == 1) {
            continue;
        }
        Box query = fat[k].grown(h + reach);
        for (int c = 0; c < 3; ++c) {  // strictly across any cut the box touches
            query.lo[c] -= 0x1p-40 * std::abs(query.lo[c]) + 0x1p-1000;
            query.hi[c] += 0x1p-40 * std::abs(query.hi[c]) + 0x1p-1000;
        }
        s.rcb.ranksMeeting(query.lo.data(), query.hi.data(), ranks);
        for (const int r : ranks) {
            if (r != s.rank && rankBox(r).meets(fat[k])) {
                putSegment(s.out[r], 'G', s.cMasters[k]);
            }
        }
    }
    const long long beforeGhosts = bytes;
    exchange(s.comm, s.out, in, bytes);
    stats.ghostBytes = bytes - beforeGhosts;
    const std::size_t ownedCount = s.cMasters.size();
    for (int r = 0; r < s.size; ++r) {
        ByteReader rd = in.from(r);
        while (!rd.done()) {
            rd.get<char>();
            SegmentRecord g = getSegment(rd, r);
            g.owned = false;
            s.cMasters.push_back(g);
        }
    }
    s.ghostMasters = static_cast<Index>(s.cMasters.size() - ownedCount);
    Box everywhere;  // a ghost's: the check at each update is its owner's
    everywhere.lo.fill(-HUGE_VAL);
    everywhere.hi.fill(HUGE_VAL);
    fat.resize(s.cMasters.size(), everywhere);
    std::vector<std::size_t> order(s.cMasters.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return s.cMasters[a].id < s.cMasters[b].id; });
    std::vector<SegmentRecord> sorted(order.size());
    s.cMasterFat.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        sorted[i] = s.cMasters[order[i]];
        s.cMasterFat[i] = fat[order[i]];
    }
    s.cMasters.swap(sorted);

    // 6. The serial search on owned + ghost masters and the slave items: every node's
    // coordinates from its owner; set up with the coordinates of setSurfaces (validated there),
    // then the current ones.
    planCoordinates(s, items, bytes);
    s.cSlaveNode.clear();
    s.cSlaveNodeOrigin.clear();
    s.cSlaveNodeSlot.clear();
    s.cSlaveItemOf.assign(s.cNodeIds.size(), -1);
    for (const NodeItem& it : items) {
        const Index c = contactNode(s, it.id);
        s.cSlaveItemOf[c] = static_cast<Index>(s.cSlaveNode.size());
        s.cSlaveNode.push_back(c);
        s.cSlaveNodeOrigin.push_back(it.origin);
        s.cSlaveNodeSlot.push_back(it.slot);
    }
    Surface cMaster = surfaceOf(s, s.cMasters, s.master.surface.name.c_str());
    Surface cSlave = surfaceOf(s, s.cSlaveSegments, s.slave.surface.name.c_str());
    if (!s.nodeMode && !s.sameSurface && !cMaster.empty() && cMaster.types == cSlave.types &&
        cMaster.connectivity == cSlave.connectivity) {
        // Two different global surfaces whose parts here are equal: the serial search would take
        // them for one surface. Segment pairs do not depend on the master order: reverse it.
        std::reverse(s.cMasters.begin(), s.cMasters.end());
        std::reverse(s.cMasterFat.begin(), s.cMasterFat.end());
        cMaster = surfaceOf(s, s.cMasters, s.master.surface.name.c_str());
    }
    s.cMasterIds.resize(s.cMasters.size());
    for (std::size_t k = 0; k < s.cMasters.size(); ++k) {
        s.cMasterIds[k] = s.cMasters[k].id;
    }
    // Known limit: the serial search judges an edge shared by exactly two of its segments; a
    // master edge shared by three or more (not judged globally) of which only two, running it the
    // same way, are on this rank is refused here, on every rank alike (collectively below).
    std::vector<double> setupCoords;
    const CoordinatesView setupView = CoordinatesView::interleaved(
        s.setupCoords.data(), static_cast<Index>(s.nodeIds.size()), s.dim);
    bytes += sendCoordinates(s, setupView, setupCoords);
    const CoordinatesView sx = CoordinatesView::interleaved(
        setupCoords.data(), static_cast<Index>(s.cNodeIds.size()), s.dim);
    collectively(s.comm, [&] {
        SearchOptions local = options;
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
    bytes += sendCoordinates(s, x, s.cCoords);

    std::vector<int> targets;
    if (s.nodeMode) {
        targets = s.cSlaveNodeOrigin;
    } else {
        for (const SegmentRecord& r : s.cSlaveSegments) {
            targets.push_back(r.origin);
        }
    }
    s.resultTargets = sortedUnique(std::move(targets));
    stats.repartitioned = true;
    stats.repartitionBytes = bytes;
    stats.bytesSent += bytes;
    stats.timeGhosts = msSince(t0);
}

}  // namespace contact::mpi::detail
