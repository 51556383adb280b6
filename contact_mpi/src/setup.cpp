// SPDX-License-Identifier: MIT
// setSurfaces(): every check the serial search makes, made on the whole distributed input, with
// one outcome on every rank. Local checks first (each rank its own part), then three directory
// passes (a global id's record goes to its home rank, detail::homeRank): node owners and
// coordinates, segment ids and whether master and slave are one surface, shared edges.
#include "setup.hpp"

#include "contact/exact_sum.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace contact::mpi::detail {
namespace {

const char* const kFn = "contact::mpi::DistributedSearch::setSurfaces()";

std::string prefix(int rank) { return std::string(kFn) + ": rank " + std::to_string(rank) + ": "; }

[[noreturn]] void failSegment(int rank, const char* role, const SurfacePart& part, Index s,
                              const std::string& what) {
    std::string msg = prefix(rank) + role + " surface '" + part.surface.name + "'";
    if (s != kNoIndex) {
        msg += ", segment id " + std::to_string(part.ids[s]) + " (" +
               segmentTypeName(part.surface.types[s]) + ")";
    }
    throw std::invalid_argument(msg + ": " + what);
}

const char* badCoordinates(const CoordinatesView& x, Index n) noexcept {
    const Eigen::Vector3d p = x.node(n);
    if (!p.allFinite()) {
        return " has a NaN or Inf coordinate";
    }
    if (p.cwiseAbs().maxCoeff() > tol::kMaxCoordinate) {
        return " has a coordinate beyond +-1e30 (the search keeps boxes in float)";
    }
    return nullptr;
}

// What ContactSearch::setSurfaces checks of one surface, on this rank's part, naming global ids.
void validatePart(int rank, const char* role, const SurfacePart& part, const RankNodes& nodes,
                  const CoordinatesView& x) {
    const Surface& surface = part.surface;
    const Index n = surface.size();
    if (surface.offsets.size() != static_cast<std::size_t>(n) + 1 || surface.offsets[0] != 0 ||
        static_cast<std::size_t>(surface.offsets[n]) != surface.connectivity.size()) {
        failSegment(rank, role, part, kNoIndex,
                    "offsets do not match the segment count and connectivity");
    }
    if (part.ids.size() != static_cast<std::size_t>(n)) {
        failSegment(rank, role, part, kNoIndex,
                    std::to_string(part.ids.size()) + " global ids for " + std::to_string(n) +
                        " segments");
    }
    for (Index s = 0; s < n; ++s) {
        const SegmentType t = surface.types[s];
        if (spatialDim(t) != x.dim) {
            failSegment(rank, role, part, s,
                        "a " + std::to_string(spatialDim(t)) + "D segment type with " +
                            std::to_string(x.dim) + "D coordinates");
        }
        if (surface.offsets[s + 1] - surface.offsets[s] != nodeCount(t)) {
            failSegment(rank, role, part, s,
                        "has " + std::to_string(surface.offsets[s + 1] - surface.offsets[s]) +
                            " nodes, its type has " + std::to_string(nodeCount(t)));
        }
        const Index* v = surface.nodes(s);
        for (int i = 0; i < nodeCount(t); ++i) {
            if (v[i] < 0 || v[i] >= x.numNodes) {
                failSegment(rank, role, part, s,
                            "node index " + std::to_string(v[i]) + " out of range [0, " +
                                std::to_string(x.numNodes) + ") of this rank's nodes");
            }
            const std::string node = "node " + std::to_string(nodes.ids[v[i]]);
            if (const char* bad = badCoordinates(x, v[i])) {
                failSegment(rank, role, part, s, node + bad);
            }
            for (int k = 0; k < i; ++k) {
                if (nodes.ids[v[k]] == nodes.ids[v[i]]) {
                    failSegment(rank, role, part, s, node + " appears twice (collapsed segment)");
                }
            }
        }
        const SegmentNodes seg = gatherSegment(surface, s, x);
        if (!(characteristicSize(seg) > 0.0)) {
            failSegment(rank, role, part, s, "degenerate: zero size");
        }
        const SegmentFrame centre = segmentFrame(seg, referenceCentre(t));
        if (centre.degenerate) {
            failSegment(rank, role, part, s,
                        "degenerate: no normal at its centre (zero length or area)");
        }
        for (int c = 0; c < cornerCount(t); ++c) {
            const SegmentFrame corner = segmentFrame(seg, nodeLocalCoordinates(t, c));
            if (corner.degenerate || corner.normal.dot(centre.normal) <= 0.0) {
                failSegment(rank, role, part, s,
                            "degenerate: collapsed or folded at corner node " +
                                std::to_string(nodes.ids[v[c]]));
            }
        }
    }
}

// ---- Directory records (plain, fixed size).

enum NodeFlag : std::uint8_t { kOwnedClaim = 1, kNoFlags = 2, kUsed = 4, kSlave = 8 };

struct NodeClaim {
    GlobalId id;
    double xyz[3];
    std::int32_t rank;
    std::int32_t valence;  // slave segments of this rank holding the node
    std::uint8_t flags;
    std::uint8_t pad[7];
};

struct NodeAnswer {
    GlobalId id;
    std::int32_t owner;
    std::int32_t valence;  // slave segments holding it, over all ranks
    std::int32_t slave;    // 1: a slave node
    std::int32_t pad;
};

struct SegmentClaim {
    GlobalId id;
    GlobalId nodes[kMaxSegmentNodes];
    std::int32_t rank;
    std::uint8_t role;  // 0 master, 1 slave
    std::uint8_t type;
    std::uint8_t pad[2];
};

struct EdgeClaim {
    GlobalId lo;
    GlobalId hi;
    GlobalId segment;
    std::uint64_t nodeSet;  // hash of the segment's sorted node ids (duplicates vs inside-out)
    std::uint8_t role;
    std::uint8_t forward;
    std::uint8_t line;  // a 2D segment end (lo == hi): forward = its start
    std::uint8_t pad[5];
};

template <class T>
std::vector<T> records(const Received& in, int size) {
    std::vector<T> all;
    all.reserve(in.data.size() / sizeof(T));
    for (int r = 0; r < size; ++r) {
        ByteReader rd = in.from(r);
        while (!rd.done()) {
            all.push_back(rd.get<T>());
        }
    }
    return all;
}

void resetOut(std::vector<ByteWriter>& out, int size) {
    out.resize(static_cast<std::size_t>(size));
    for (ByteWriter& w : out) {
        w.clear();
    }
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6U) + (h >> 2U);
    return h;
}

}  // namespace

void validateInput(const State& s, const RankNodes& nodes, const SurfacePart& master,
                   const SurfacePart* slave, const std::vector<Index>* slaveNodes,
                   const CoordinatesView& x, bool nodeMode) {
    const int rank = s.rank;
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(prefix(rank) + "coordinates: " + bad);
    }
    if (nodes.ids.size() != static_cast<std::size_t>(x.numNodes)) {
        throw std::invalid_argument(prefix(rank) + std::to_string(nodes.ids.size()) +
                                    " node ids for " + std::to_string(x.numNodes) +
                                    " nodes in the coordinates");
    }
    if (!nodes.owned.empty() && nodes.owned.size() != nodes.ids.size()) {
        throw std::invalid_argument(prefix(rank) + std::to_string(nodes.owned.size()) +
                                    " ownership flags for " + std::to_string(nodes.ids.size()) +
                                    " nodes");
    }
    std::vector<GlobalId> sorted = nodes.ids;
    std::sort(sorted.begin(), sorted.end());
    const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end()) {
        throw std::invalid_argument(prefix(rank) + "node id " + std::to_string(*dup) +
                                    " appears twice in this rank's nodes");
    }
    validatePart(rank, "master", master, nodes, x);
    if (slave != nullptr) {
        validatePart(rank, "slave", *slave, nodes, x);
    }
    if (slaveNodes != nullptr) {
        if (!nodeMode) {
            throw std::invalid_argument(std::string(kFn) +
                                        ": a slave given as nodes needs node-to-segment mode");
        }
        for (Index n : *slaveNodes) {
            if (n < 0 || n >= x.numNodes) {
                throw std::invalid_argument(prefix(rank) + "slave node index " + std::to_string(n) +
                                            " out of range [0, " + std::to_string(x.numNodes) +
                                            ")");
            }
            if (const char* bad = badCoordinates(x, n)) {
                throw std::invalid_argument(prefix(rank) + "slave node " +
                                            std::to_string(nodes.ids[n]) + bad);
            }
        }
    }
}

void resolveNodeOwners(State& s, const RankNodes& nodes, const CoordinatesView& x, bool flagsGiven,
                       long long& bytes) {
    const Index n = x.numNodes;
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
    std::vector<std::int32_t> valence(static_cast<std::size_t>(n), 0);
    for (const Index v : s.master.surface.connectivity) {
        flags[v] |= kUsed;
    }
    for (Index k = 0; k < s.slave.surface.size(); ++k) {
        for (int i = 0; i < nodeCount(s.slave.surface.types[k]); ++i) {
            const Index v = s.slave.surface.nodes(k)[i];
            flags[v] |= kUsed | kSlave;
            ++valence[v];
        }
    }
    for (const Index v : s.slaveNodeList) {
        flags[v] |= kUsed | kSlave;
    }
    resetOut(s.out, s.size);
    for (Index i = 0; i < n; ++i) {
        const bool owned = flagsGiven && nodes.owned[i] != 0;
        if ((flags[i] & kUsed) == 0 && !owned) {
            continue;
        }
        NodeClaim c{};
        c.id = nodes.ids[i];
        const Eigen::Vector3d p = x.node(i);
        for (int k = 0; k < 3; ++k) {
            c.xyz[k] = p[k];
        }
        c.rank = s.rank;
        c.valence = valence[i];
        c.flags = static_cast<std::uint8_t>(flags[i] | (owned ? kOwnedClaim : 0) |
                                            (flagsGiven ? 0 : kNoFlags));
        s.out[homeRank(c.id, s.size)].put(c);
    }
    Received& in = s.in;
    exchange(s.comm, s.out, in, bytes);

    // Home: one owner per used node, the same coordinates everywhere.
    std::vector<NodeClaim> claims = records<NodeClaim>(in, s.size);
    std::sort(claims.begin(), claims.end(), [](const NodeClaim& a, const NodeClaim& b) {
        return a.id != b.id ? a.id < b.id : a.rank < b.rank;
    });
    resetOut(s.out, s.size);
    std::string error;
    for (std::size_t i = 0; i < claims.size();) {
        std::size_t j = i;
        bool used = false;
        bool slave = false;
        std::int32_t val = 0;
        int owner = -1;
        int owners = 0;
        int secondOwner = -1;
        int firstUser = -1;
        for (; j < claims.size() && claims[j].id == claims[i].id; ++j) {
            const NodeClaim& c = claims[j];
            used = used || (c.flags & kUsed) != 0;
            slave = slave || (c.flags & kSlave) != 0;
            val += c.valence;
            if ((c.flags & kOwnedClaim) != 0) {
                ++owners;
                (owner < 0 ? owner : secondOwner) = c.rank;
            }
            if ((c.flags & kUsed) != 0 && firstUser < 0) {
                firstUser = c.rank;
            }
            if (error.empty() && (c.xyz[0] != claims[i].xyz[0] || c.xyz[1] != claims[i].xyz[1] ||
                                  c.xyz[2] != claims[i].xyz[2])) {
                error = std::string(kFn) + ": node " + std::to_string(c.id) +
                        " has different coordinates on ranks " + std::to_string(claims[i].rank) +
                        " and " + std::to_string(c.rank);
            }
        }
        if (used) {
            if (!flagsGiven) {
                owner = firstUser;
            } else if (owners == 0 && error.empty()) {
                error = std::string(kFn) + ": node " + std::to_string(claims[i].id) +
                        " is used by rank " + std::to_string(firstUser) +
                        "'s surfaces, but no rank owns it (RankNodes::owned)";
            } else if (owners > 1 && error.empty()) {
                error = std::string(kFn) + ": node " + std::to_string(claims[i].id) +
                        " is owned by ranks " + std::to_string(owner) + " and " +
                        std::to_string(secondOwner);
            }
            for (std::size_t k = i; k < j; ++k) {
                const NodeAnswer a{claims[i].id, owner, val, slave ? 1 : 0, 0};
                s.out[claims[k].rank].put(a);
            }
        }
        i = j;
    }
    agreeOnErrors(s.comm, error);
    exchange(s.comm, s.out, in, bytes);

    s.nodeOwner.assign(static_cast<std::size_t>(n), -1);
    s.usedNodes.clear();
    s.ownedSlaveNodes.clear();
    s.slaveValence.clear();
    const std::vector<NodeAnswer> answers = records<NodeAnswer>(in, s.size);
    std::vector<std::pair<GlobalId, Index>> slaves;  // owned slave nodes: id, answer
    for (std::size_t t = 0; t < answers.size(); ++t) {
        const NodeAnswer& a = answers[t];
        const Index i =
            std::lower_bound(s.idIndex.begin(), s.idIndex.end(), std::make_pair(a.id, Index{0}))
                ->second;
        s.nodeOwner[i] = a.owner;
        s.usedNodes.push_back(i);
        if (a.owner == s.rank && a.slave != 0) {
            slaves.emplace_back(a.id, static_cast<Index>(t));
        }
    }
    std::sort(s.usedNodes.begin(), s.usedNodes.end());
    // The owned slave nodes by id: the order of the results.
    std::sort(slaves.begin(), slaves.end());
    for (const auto& [id, t] : slaves) {
        s.ownedSlaveNodes.push_back(
            std::lower_bound(s.idIndex.begin(), s.idIndex.end(), std::make_pair(id, Index{0}))
                ->second);
        s.slaveValence.push_back(answers[t].valence);
    }
}

void assignSlots(State& s) {
    s.slotId.clear();
    s.slotCaller.clear();
    s.slaveSlot.clear();
    if (s.nodeMode) {
        s.slotCaller = s.ownedSlaveNodes;
        for (const Index i : s.slotCaller) {
            s.slotId.push_back(s.nodeIds[i]);
        }
        return;
    }
    const std::vector<GlobalId>& ids = s.slave.ids;
    s.slotCaller.resize(ids.size());
    std::iota(s.slotCaller.begin(), s.slotCaller.end(), Index{0});
    std::sort(s.slotCaller.begin(), s.slotCaller.end(),
              [&](Index a, Index b) { return ids[a] < ids[b]; });
    s.slaveSlot.resize(ids.size());
    for (std::size_t t = 0; t < ids.size(); ++t) {
        s.slotId.push_back(ids[s.slotCaller[t]]);
        s.slaveSlot[s.slotCaller[t]] = static_cast<Index>(t);
    }
}

void checkSegmentIds(State& s, long long& bytes) {
    resetOut(s.out, s.size);
    const auto claim = [&](const SurfacePart& part, std::uint8_t role) {
        for (Index k = 0; k < part.surface.size(); ++k) {
            SegmentClaim c{};
            c.id = part.ids[k];
            c.rank = s.rank;
            c.role = role;
            c.type = static_cast<std::uint8_t>(part.surface.types[k]);
            for (int i = 0; i < nodeCount(part.surface.types[k]); ++i) {
                c.nodes[i] = s.nodeIds[part.surface.nodes(k)[i]];
            }
            s.out[homeRank(c.id, s.size)].put(c);
        }
    };
    claim(s.master, 0);
    claim(s.slave, 1);
    Received& in = s.in;
    exchange(s.comm, s.out, in, bytes);
    std::vector<SegmentClaim> claims = records<SegmentClaim>(in, s.size);
    std::sort(claims.begin(), claims.end(), [](const SegmentClaim& a, const SegmentClaim& b) {
        return a.role != b.role ? a.role < b.role : a.id != b.id ? a.id < b.id : a.rank < b.rank;
    });
    std::string error;
    long long matched = 0;
    std::size_t slaveAt = static_cast<std::size_t>(
        std::find_if(claims.begin(), claims.end(), [](const SegmentClaim& c) { return c.role; }) -
        claims.begin());
    for (std::size_t i = 0; i < claims.size(); ++i) {
        const SegmentClaim& c = claims[i];
        if (i + 1 < claims.size() && claims[i + 1].role == c.role && claims[i + 1].id == c.id &&
            error.empty()) {
            error = std::string(kFn) + ": " + (c.role == 0 ? "master" : "slave") + " segment id " +
                    std::to_string(c.id) + " is given by rank " + std::to_string(c.rank) +
                    " and by rank " + std::to_string(claims[i + 1].rank);
        }
        if (c.role != 0) {
            continue;
        }
        while (slaveAt < claims.size() && claims[slaveAt].id < c.id) {
            ++slaveAt;
        }
        if (slaveAt < claims.size() && claims[slaveAt].id == c.id &&
            claims[slaveAt].type == c.type &&
            std::memcmp(claims[slaveAt].nodes, c.nodes, sizeof c.nodes) == 0) {
            ++matched;
        }
    }
    agreeOnErrors(s.comm, error);
    MPI_Allreduce(MPI_IN_PLACE, &matched, 1, MPI_LONG_LONG, MPI_SUM, s.comm);
    s.sameSurface = !s.slaveAsNodes && s.globalMasters > 0 && matched == s.globalMasters &&
                    s.globalSlaveSegments == s.globalMasters;
}

void checkOrientation(State& s, long long& bytes) {
    resetOut(s.out, s.size);
    const auto claim = [&](const SurfacePart& part, std::uint8_t role) {
        for (Index k = 0; k < part.surface.size(); ++k) {
            const SegmentType t = part.surface.types[k];
            const Index* v = part.surface.nodes(k);
            GlobalId ids[kMaxSegmentNodes];
            for (int i = 0; i < nodeCount(t); ++i) {
                ids[i] = s.nodeIds[v[i]];
            }
            std::sort(ids, ids + nodeCount(t));
            auto h = static_cast<std::uint64_t>(nodeCount(t));
            for (int i = 0; i < nodeCount(t); ++i) {
                h = mix(h, static_cast<std::uint64_t>(ids[i]));
            }
            const auto put = [&](GlobalId a, GlobalId b, bool forward, bool line) {
                EdgeClaim e{};
                e.lo = std::min(a, b);
                e.hi = std::max(a, b);
                e.segment = part.ids[k];
                e.nodeSet = h;
                e.role = role;
                e.forward = forward ? 1 : 0;
                e.line = line ? 1 : 0;
                const auto key = static_cast<GlobalId>(
                    mix(static_cast<std::uint64_t>(e.lo), static_cast<std::uint64_t>(e.hi)));
                s.out[homeRank(key, s.size)].put(e);
            };
            if (parametricDim(t) == 1) {
                put(s.nodeIds[v[0]], s.nodeIds[v[0]], true, true);
                put(s.nodeIds[v[1]], s.nodeIds[v[1]], false, true);
                continue;
            }
            const int nc = cornerCount(t);
            for (int i = 0; i < nc; ++i) {
                const GlobalId a = s.nodeIds[v[i]];
                const GlobalId b = s.nodeIds[v[(i + 1) % nc]];
                put(a, b, a < b, false);
            }
        }
    };
    claim(s.master, 0);
    if (!s.sameSurface) {
        claim(s.slave, 1);
    }
    Received& in = s.in;
    exchange(s.comm, s.out, in, bytes);
    std::vector<EdgeClaim> edges = records<EdgeClaim>(in, s.size);
    std::sort(edges.begin(), edges.end(), [](const EdgeClaim& a, const EdgeClaim& b) {
        return a.role != b.role ? a.role < b.role
               : a.lo != b.lo   ? a.lo < b.lo
               : a.hi != b.hi   ? a.hi < b.hi
                                : a.segment < b.segment;
    });
    std::string error;
    for (std::size_t i = 0; i < edges.size() && error.empty();) {
        std::size_t j = i;
        while (j < edges.size() && edges[j].role == edges[i].role && edges[j].lo == edges[i].lo &&
               edges[j].hi == edges[i].hi) {
            ++j;
        }
        const EdgeClaim& a = edges[i];
        if (j - i == 2 && a.forward == edges[i + 1].forward && a.segment != edges[i + 1].segment) {
            const EdgeClaim& b = edges[i + 1];
            const SurfacePart& part = a.role == 0 ? s.master : s.slave;
            error = std::string(kFn) + ": " + (a.role == 0 ? "master" : "slave") + " surface '" +
                    part.surface.name + "', segment ids " + std::to_string(a.segment) + " and " +
                    std::to_string(b.segment);
            if (a.nodeSet == b.nodeSet) {
                error += " have the same nodes: a duplicate segment";
            } else {
                error += a.line != 0
                             ? " both " + std::string(a.forward != 0 ? "start" : "end") +
                                   " at node " + std::to_string(a.lo)
                             : " share the edge between nodes " + std::to_string(a.lo) + " and " +
                                   std::to_string(a.hi) + " in the same direction";
                error += ": one of them is inside-out";
            }
        }
        i = j;
    }
    agreeOnErrors(s.comm, error);
}

void resolveLengths(State& s, const SearchOptions& options, const CoordinatesView& x) {
    ExactSum sum;
    double largest = 0.0;
    for (Index k = 0; k < s.master.surface.size(); ++k) {
        sum.add(characteristicSize(gatherSegment(s.master.surface, k, x)));
    }
    for (const Surface* surface : {&s.master.surface, &s.slave.surface}) {
        for (const Index v : surface->connectivity) {
            largest = std::max(largest, x.node(v).cwiseAbs().maxCoeff());
        }
    }
    sum.normalize();
    MPI_Allreduce(MPI_IN_PLACE, sum.digits().data(), ExactSum::kDigits, MPI_INT64_T, MPI_SUM,
                  s.comm);
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, s.comm);
    // As the serial search: mean = exact sum rounded once / count (contact/exact_sum.hpp).
    s.meanMasterSize =
        s.globalMasters == 0 ? 0.0 : sum.value() / static_cast<double>(s.globalMasters);
    const double d = options.captureRelative ? options.capture * s.meanMasterSize : options.capture;
    if (!std::isfinite(d) || d < 0.0 || d > tol::kMaxCoordinate) {
        throw std::invalid_argument(
            std::string(kFn) + ": capture distance must be finite, >= 0 and at most 1e30, got " +
            std::to_string(d));
    }
    if (!(options.skinRelative * s.meanMasterSize <= tol::kMaxCoordinate)) {
        throw std::invalid_argument(std::string(kFn) + ": the skin (skinRelative x mean master "
                                                       "segment size) must be at most 1e30");
    }
    s.capture = d;
    s.skin = options.skinRelative * s.meanMasterSize;
    const double spacing = largest * std::numeric_limits<double>::epsilon();
    if (d > 0.0 && spacing * 1024.0 > d) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "%s: coordinates as large as %.3g are spaced %.3g apart in double precision, "
                      "too coarse for the capture distance %.3g: move the model near the origin",
                      kFn, largest, spacing, d);
        throw std::invalid_argument(buf);
    }
}

}  // namespace contact::mpi::detail
