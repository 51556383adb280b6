// SPDX-License-Identifier: MIT
// setSurfaces(): every check the serial search makes, made on the whole distributed input, with
// one outcome on every rank. Local checks first (each rank its own part), then three directory
// passes (a global id's record goes to its home rank, detail::homeRank): node owners and
// coordinates, segment ids and whether master and slave are one surface, shared edges.
#include "setup.hpp"

#include "contact/exact_sum.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/geometry_checks.hpp"
#include "detail/search_common.hpp"

#include <algorithm>
#include <cmath>
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

// What ContactSearch::setSurfaces checks of one surface, on this rank's part, naming global ids.
void validatePart(int rank, const char* role, const SurfacePart& part, const RankNodes& nodes,
                  const CoordinatesView& x) {
    const auto failAt = [&](Index s, const std::string& what, Index node) {
        std::string text = what;
        const std::size_t at = text.find("%n");
        if (at != std::string::npos && node != kNoIndex) {
            text.replace(at, 2, std::to_string(nodes.ids[static_cast<std::size_t>(node)]));
        }
        failSegment(rank, role, part, s, text);
    };
    contact::detail::checkOffsets(part.surface, failAt);
    if (part.ids.size() != static_cast<std::size_t>(part.surface.size())) {
        failSegment(rank, role, part, kNoIndex,
                    std::to_string(part.ids.size()) + " global ids for " +
                        std::to_string(part.surface.size()) + " segments");
    }
    contact::detail::checkSegments(part.surface, x, failAt);
}

// ---- Directory records (plain, fixed size, no padding: every byte is set).

enum NodeFlag : std::uint8_t { kOwnedClaim = 1, kNoFlags = 2, kUsed = 4, kSlave = 8 };

// A node at its home: how the claiming rank holds it (NodeFlag, low 4 bits) and the slave
// segments there holding it (the bits above); the rank is the run it arrives in.
struct NodeClaim {
    GlobalId id;
    Index local;  // the node's index on the claiming rank (echoed in the answer)
    std::uint32_t valenceAndFlags;
};
static_assert(sizeof(NodeClaim) == 16, "NodeClaim has no hidden padding");

enum AnswerFlag : std::uint32_t { kSlaveNode = 1, kShared = 2 };  // shared: held by two ranks

struct NodeAnswer {
    Index local;
    std::int32_t owner;
    std::uint32_t valenceAndFlags;  // slave segments holding it over all ranks, AnswerFlag
};
static_assert(sizeof(NodeAnswer) == 12, "NodeAnswer has no hidden padding");

// The coordinates of a node held by several ranks, compared at its home.
struct NodePosition {
    GlobalId id;
    double xyz[3];
    std::int32_t rank;
    std::int32_t pad;
};
static_assert(sizeof(NodePosition) == 40, "NodePosition has no hidden padding");

// A segment id at its home: which rank gives it, in which role.
struct SegmentClaim {
    GlobalId id;
    std::int32_t rank;
    std::uint8_t role;  // 0 master, 1 slave
    std::uint8_t pad[3];
};
static_assert(sizeof(SegmentClaim) == 16, "SegmentClaim has no hidden padding");

// A segment on its way to its place in its surface's id order: first to the rank of its id's
// range, which numbers the places, then to the home of its place, where the k-th master meets
// the k-th slave.
struct PlacedSegment {
    GlobalId place;  // -1 until numbered
    GlobalId id;
    GlobalId nodes[kMaxSegmentNodes];  // node ids, 0 beyond the segment's
    Index local;                       // its index in the giving rank's part
    std::int32_t rank;                 // the giving rank
    std::uint8_t role;
    std::uint8_t type;
    std::uint8_t pad[6];
};
static_assert(sizeof(PlacedSegment) == 104, "PlacedSegment has no hidden padding");

// To the rank giving a slave segment of one surface: the id of the master segment it is.
struct TwinAnswer {
    GlobalId twin;
    Index local;
    std::int32_t pad;
};
static_assert(sizeof(TwinAnswer) == 16, "TwinAnswer has no hidden padding");

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
static_assert(sizeof(EdgeClaim) == 40, "EdgeClaim has no hidden padding");

std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6U) + (h >> 2U);
    return h;
}

// Segments of a part in id order (their indices, in s.order).
void partInIdOrder(State& s, const SurfacePart& part) {
    sortRecords(s, part.ids.size(), [&](std::size_t k) { return idKey(part.ids[k]); });
}

// Each role's segments of this rank in id order.
struct PartOrders {
    Big<Index> of[2];
};

// (role, id) order of segment records.
const auto kByRoleAndId = [](const auto& a, const auto& b) {
    return a.role != b.role ? a.role < b.role : a.id < b.id;
};

// A hash of segment k's type and node ids, mixed to all 64 bits: summed over a surface, a check
// that two surfaces may hold the same segments (equal sums), before the exact comparison.
std::uint64_t contentHash(const State& s, const Surface& surface, Index k) noexcept {
    const SegmentType t = surface.types[k];
    std::uint64_t h = static_cast<std::uint64_t>(t);
    for (int i = 0; i < nodeCount(t); ++i) {
        h = mix(h, static_cast<std::uint64_t>(s.nodeIds[surface.nodes(k)[i]]));
    }
    return finalizeHash(h);
}

// Each role's id ranges over the ranks, for a sample sort: rank r takes the ids in
// (split[r - 1], split[r]]. Every rank samples every stride-th of its ids in order (64 samples
// a rank on average, all gathered everywhere), so a range holds at most about n / size + n / 64
// ids however the ranks hold them.
void idSplitters(const State& s, const PartOrders& orders, std::vector<GlobalId> (&split)[2]) {
    const SurfacePart* parts[2] = {&s.master, &s.slave};
    const long long stride = std::max(1LL, s.globalMasters / (64LL * s.size));
    std::vector<GlobalId> sample;
    int counts[2] = {0, 0};
    for (int role = 0; role < 2; ++role) {
        const Big<Index>& order = orders.of[role];
        for (auto i = static_cast<std::size_t>(stride - 1); i < order.size();
             i += static_cast<std::size_t>(stride)) {
            sample.push_back(parts[role]->ids[order[i]]);
            ++counts[role];
        }
    }
    const auto n = static_cast<std::size_t>(s.size);
    std::vector<int> all(2 * n);
    MPI_Allgather(counts, 2, MPI_INT, all.data(), 2, MPI_INT, s.comm);
    std::vector<int> sizes(n);
    std::vector<int> starts(n, 0);
    for (std::size_t r = 0; r < n; ++r) {
        sizes[r] = all[2 * r] + all[2 * r + 1];
        starts[r] = r == 0 ? 0 : starts[r - 1] + sizes[r - 1];
    }
    std::vector<GlobalId> samples(static_cast<std::size_t>(starts[n - 1] + sizes[n - 1]));
    MPI_Allgatherv(sample.data(), counts[0] + counts[1], MPI_INT64_T, samples.data(), sizes.data(),
                   starts.data(), MPI_INT64_T, s.comm);
    for (int role = 0; role < 2; ++role) {
        std::vector<GlobalId> v;
        for (std::size_t r = 0; r < n; ++r) {
            const auto at = samples.begin() + starts[r] + (role == 0 ? 0 : all[2 * r]);
            v.insert(v.end(), at, at + all[2 * r + role]);
        }
        std::sort(v.begin(), v.end());
        split[role].assign(n - 1, std::numeric_limits<GlobalId>::max());
        for (std::size_t j = 0; j + 1 < n && !v.empty(); ++j) {
            split[role][j] = v[(j + 1) * v.size() / n];
        }
    }
}

// Whether the master and the slave are one surface as the serial search decides it
// (detail::sameSurface): the k-th master in id order has the k-th slave's type and node ids, for
// every k. A sample sort: each segment to the rank of its id's range, which numbers the places
// (an exclusive scan of the counts), then to the home of its place, where the two of a place are
// compared. When they are one surface in segment mode, each slave's rank learns the id its
// segment has as a master (s.slaveTwin). Needs as many masters as slave segments, each id given
// once.
bool matchByPlace(State& s, const PartOrders& orders, long long& bytes) {
    const SurfacePart* parts[2] = {&s.master, &s.slave};
    std::vector<GlobalId> split[2];
    idSplitters(s, orders, split);
    Exchange& ex = s.ex;
    const auto rangeOf = [&](int role, GlobalId id) {
        return static_cast<int>(std::lower_bound(split[role].begin(), split[role].end(), id) -
                                split[role].begin());
    };
    ex.start(s.size);
    for (int role = 0; role < 2; ++role) {
        for (const GlobalId id : parts[role]->ids) {
            ex.count(rangeOf(role, id), sizeof(PlacedSegment));
        }
    }
    ex.allocate();
    for (int role = 0; role < 2; ++role) {  // in (role, id) order: each rank's runs are merged
        const SurfacePart& part = *parts[role];
        for (const Index k : orders.of[role]) {
            PlacedSegment c{};
            c.place = -1;
            c.id = part.ids[k];
            c.local = k;
            c.rank = s.rank;
            c.role = static_cast<std::uint8_t>(role);
            c.type = static_cast<std::uint8_t>(part.surface.types[k]);
            for (int i = 0; i < nodeCount(part.surface.types[k]); ++i) {
                c.nodes[i] = s.nodeIds[part.surface.nodes(k)[i]];
            }
            ex.put(rangeOf(role, c.id), c);
        }
    }
    ex.run(s.comm, bytes);
    mergeRuns<PlacedSegment>(ex, s.size, kByRoleAndId, s.order);
    long long here[2] = {0, 0};
    const PlacedSegment* got = ex.records<PlacedSegment>();
    for (const Index i : s.order) {
        ++here[got[i].role];
    }
    long long first[2] = {0, 0};  // places before this rank's ranges
    MPI_Exscan(here, first, 2, MPI_LONG_LONG, MPI_SUM, s.comm);
    if (s.rank == 0) {
        first[0] = first[1] = 0;
    }
    const long long chunk = (s.globalMasters + s.size - 1) / s.size;  // places per home
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 0) {
            ex.start(s.size);
        } else {
            ex.allocate(true);  // the records are read while they are forwarded
        }
        long long next[2] = {first[0], first[1]};
        for (const Index i : s.order) {
            PlacedSegment c = got[i];
            c.place = next[c.role]++;
            const auto home = static_cast<int>(c.place / chunk);
            if (pass == 0) {
                ex.count(home, sizeof c);
            } else {
                ex.put(home, c);
            }
        }
    }
    ex.run(s.comm, bytes);
    const auto byRoleAndPlace = [](const PlacedSegment& a, const PlacedSegment& b) {
        return a.role != b.role ? a.role < b.role : a.place < b.place;
    };
    mergeRuns<PlacedSegment>(ex, s.size, byRoleAndPlace, s.order);
    // Each home holds places [home * chunk, ...) of both roles: as many masters as slaves.
    const PlacedSegment* at = ex.records<PlacedSegment>();
    const std::size_t half = s.order.size() / 2;
    int differ = 0;
    for (std::size_t i = 0; i < half && differ == 0; ++i) {
        const PlacedSegment& m = at[s.order[i]];
        const PlacedSegment& l = at[s.order[half + i]];
        differ = m.place != l.place || m.type != l.type ||
                         std::memcmp(m.nodes, l.nodes, sizeof m.nodes) != 0
                     ? 1
                     : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_MAX, s.comm);
    if (differ != 0) {
        return false;
    }
    if (s.nodeMode) {  // the twins travel with slave segments in segment mode only
        return true;
    }
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 0) {
            ex.start(s.size);
        } else {
            ex.allocate(true);
        }
        for (std::size_t i = 0; i < half; ++i) {
            const PlacedSegment& l = at[s.order[half + i]];
            if (pass == 0) {
                ex.count(l.rank, sizeof(TwinAnswer));
            } else {
                ex.put(l.rank, TwinAnswer{at[s.order[i]].id, l.local, 0});
            }
        }
    }
    ex.run(s.comm, bytes);
    s.slaveTwin.resize(s.slave.ids.size());
    const TwinAnswer* answer = ex.records<TwinAnswer>();
    for (std::size_t k = 0; k < ex.received() / sizeof(TwinAnswer); ++k) {
        s.slaveTwin[static_cast<std::size_t>(answer[k].local)] = answer[k].twin;
    }
    return true;
}

}  // namespace

void sortNodeIds(State& s, const std::vector<GlobalId>& ids) {
    sortRecords(s, ids.size(), [&](std::size_t i) { return idKey(ids[i]); });
    const std::size_t n = ids.size();
    s.sortedIds.resize(n);
    s.sortedNodes.assign(s.order.begin(), s.order.end());
    s.idRank.resize(n);
    for (std::size_t t = 0; t < n; ++t) {
        s.sortedIds[t] = ids[s.sortedNodes[t]];
        s.idRank[s.sortedNodes[t]] = static_cast<Index>(t);
    }
}

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
    const auto dup = std::adjacent_find(s.sortedIds.begin(), s.sortedIds.end());
    if (dup != s.sortedIds.end()) {
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
            if (const char* bad = contact::detail::badCoordinates(x, n)) {
                throw std::invalid_argument(prefix(rank) + "slave node " +
                                            std::to_string(nodes.ids[n]) + bad);
            }
        }
    }
}

// Two rounds at the nodes' homes: who holds each node (the owner, whether other ranks hold it),
// then the coordinates of the nodes several ranks hold. Each rank sends its records in id
// order, so a home merges its runs (no sort).
void resolveNodeOwners(State& s, const RankNodes& nodes, const CoordinatesView& x, bool flagsGiven,
                       long long& bytes) {
    const Index n = x.numNodes;
    Big<std::uint8_t> flags(static_cast<std::size_t>(n), 0);
    Big<std::int32_t> valence(static_cast<std::size_t>(n), 0);
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
    const auto claims = [&](Index i) {
        return (flags[i] & kUsed) != 0 || (flagsGiven && nodes.owned[i] != 0);
    };
    Exchange& ex = s.ex;
    ex.start(s.size);
    for (const Index i : s.sortedNodes) {
        if (claims(i)) {
            ex.count(homeRank(nodes.ids[i], s.size), sizeof(NodeClaim));
        }
    }
    ex.allocate();
    for (const Index i : s.sortedNodes) {
        if (!claims(i)) {
            continue;
        }
        const bool owned = flagsGiven && nodes.owned[i] != 0;
        const auto f = static_cast<std::uint32_t>(flags[i] | (owned ? kOwnedClaim : 0) |
                                                  (flagsGiven ? 0 : kNoFlags));
        const NodeClaim c{nodes.ids[i], i, static_cast<std::uint32_t>(valence[i]) << 4U | f};
        ex.put(homeRank(c.id, s.size), c);
    }
    ex.run(s.comm, bytes);

    // Home: one owner per used node. A node's claims in rank order.
    const NodeClaim* claim = ex.records<NodeClaim>();
    const auto byId = [](const auto& a, const auto& b) { return a.id < b.id; };
    mergeRuns<NodeClaim>(ex, s.size, byId, s.order);
    const std::size_t m = s.order.size();
    const auto rankOf = [&](Index k) {  // the rank claim k came from
        return ex.sourceOf(static_cast<std::size_t>(k) * sizeof(NodeClaim));
    };
    std::string error;
    // The group of claims from order[i] on: its answer; returns the end of the group.
    const auto group = [&](std::size_t i, NodeAnswer& a, bool& used) {
        const NodeClaim& first = claim[s.order[i]];
        std::size_t j = i;
        bool slave = false;
        std::int32_t val = 0;
        int owner = -1;
        int owners = 0;
        int secondOwner = -1;
        int firstUser = -1;
        used = false;
        for (; j < m && claim[s.order[j]].id == first.id; ++j) {
            const NodeClaim& c = claim[s.order[j]];
            const std::uint32_t f = c.valenceAndFlags & 15U;
            used = used || (f & kUsed) != 0;
            slave = slave || (f & kSlave) != 0;
            val += static_cast<std::int32_t>(c.valenceAndFlags >> 4U);
            if ((f & kOwnedClaim) != 0) {
                ++owners;
                (owner < 0 ? owner : secondOwner) = rankOf(s.order[j]);
            }
            if ((f & kUsed) != 0 && firstUser < 0) {
                firstUser = rankOf(s.order[j]);
            }
        }
        if (used) {
            if (!flagsGiven) {
                owner = firstUser;
            } else if (owners == 0 && error.empty()) {
                error = std::string(kFn) + ": node " + std::to_string(first.id) +
                        " is used by rank " + std::to_string(firstUser) +
                        "'s surfaces, but no rank owns it (RankNodes::owned)";
            } else if (owners > 1 && error.empty()) {
                error = std::string(kFn) + ": node " + std::to_string(first.id) +
                        " is owned by ranks " + std::to_string(owner) + " and " +
                        std::to_string(secondOwner);
            }
        }
        a = NodeAnswer{0, owner,
                       static_cast<std::uint32_t>(val) << 2U | (slave ? kSlaveNode : 0U) |
                           (j - i > 1 ? kShared : 0U)};
        return j;
    };
    // Answers to every rank holding a used node: counted, then written.
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 0) {
            ex.start(s.size);
        } else {
            ex.allocate(true);  // the claims are read while the answers are written
        }
        for (std::size_t i = 0; i < m;) {
            NodeAnswer a{};
            bool used = false;
            const std::size_t j = group(i, a, used);
            for (; used && i < j; ++i) {
                const int r = rankOf(s.order[i]);
                if (pass == 0) {
                    ex.count(r, sizeof(NodeAnswer));
                } else {
                    a.local = claim[s.order[i]].local;
                    ex.put(r, a);
                }
            }
            i = j;
        }
        if (pass == 0) {
            agreeOnErrors(s.comm, error);
        }
    }
    ex.run(s.comm, bytes);

    s.nodeOwner.assign(static_cast<std::size_t>(n), -1);
    s.nodeShared.assign(static_cast<std::size_t>(n), 0);
    const NodeAnswer* got = ex.records<NodeAnswer>();
    const std::size_t count = ex.received() / sizeof(NodeAnswer);
    long long shared = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const NodeAnswer& a = got[k];
        const bool isShared = (a.valenceAndFlags & kShared) != 0;
        s.nodeOwner[a.local] = a.owner;
        s.nodeShared[a.local] = isShared ? 1 : 0;
        valence[a.local] = static_cast<std::int32_t>(a.valenceAndFlags >> 2U);
        flags[a.local] = (a.valenceAndFlags & kSlaveNode) != 0 ? kSlave : 0;
        shared += isShared ? 1 : 0;
    }
    s.usedNodes.clear();
    s.usedNodes.reserve(count);
    for (Index i = 0; i < n; ++i) {
        if (s.nodeOwner[i] >= 0) {
            s.usedNodes.push_back(i);
        }
    }
    // The owned slave nodes in id order: the order of the results.
    s.ownedSlaveNodes.clear();
    s.slaveValence.clear();
    for (const Index i : s.sortedNodes) {
        if (s.nodeOwner[i] == s.rank && flags[i] == kSlave) {
            s.ownedSlaveNodes.push_back(i);
            s.slaveValence.push_back(valence[i]);
        }
    }

    // The nodes several ranks hold: the same coordinates on each.
    MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_LONG_LONG, MPI_SUM, s.comm);
    if (shared == 0) {
        return;
    }
    ex.start(s.size);
    for (const Index i : s.sortedNodes) {
        if (s.nodeShared[i] != 0) {
            ex.count(homeRank(nodes.ids[i], s.size), sizeof(NodePosition));
        }
    }
    ex.allocate();
    for (const Index i : s.sortedNodes) {
        if (s.nodeShared[i] != 0) {
            NodePosition q{};
            q.id = nodes.ids[i];
            const Eigen::Vector3d p = x.node(i);
            for (int k = 0; k < 3; ++k) {
                q.xyz[k] = p[k];
            }
            q.rank = s.rank;
            ex.put(homeRank(q.id, s.size), q);
        }
    }
    ex.run(s.comm, bytes);
    const NodePosition* pos = ex.records<NodePosition>();
    mergeRuns<NodePosition>(ex, s.size, byId, s.order);
    for (std::size_t i = 0; i < s.order.size() && error.empty();) {
        const NodePosition& first = pos[s.order[i]];
        std::size_t j = i;
        for (; j < s.order.size() && pos[s.order[j]].id == first.id; ++j) {
            const NodePosition& q = pos[s.order[j]];
            if (q.xyz[0] != first.xyz[0] || q.xyz[1] != first.xyz[1] || q.xyz[2] != first.xyz[2]) {
                error = std::string(kFn) + ": node " + std::to_string(q.id) +
                        " has different coordinates on ranks " + std::to_string(first.rank) +
                        " and " + std::to_string(q.rank);
                break;
            }
        }
        i = j;
    }
    agreeOnErrors(s.comm, error);
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
    partInIdOrder(s, s.slave);
    s.slotCaller.assign(s.order.begin(), s.order.end());
    s.slaveSlot.resize(ids.size());
    s.slotId.resize(ids.size());
    for (std::size_t t = 0; t < ids.size(); ++t) {
        s.slotId[t] = ids[s.slotCaller[t]];
        s.slaveSlot[s.slotCaller[t]] = static_cast<Index>(t);
    }
}

// Duplicate ids go to the ids' homes. Then whether master and slave are one surface: the same
// segments (equal sums of their hashes), and then the same in id order (matchByPlace).
void checkSegmentIds(State& s, long long& bytes) {
    const SurfacePart* parts[2] = {&s.master, &s.slave};
    PartOrders orders;
    for (int role = 0; role < 2; ++role) {
        partInIdOrder(s, *parts[role]);
        orders.of[role].assign(s.order.begin(), s.order.end());
    }
    // 1. At the homes: ids given twice in a role. Each rank sends its claims in (role, id) order,
    // so a home merges its runs.
    Exchange& ex = s.ex;
    ex.start(s.size);
    for (const SurfacePart* part : parts) {
        for (const GlobalId id : part->ids) {
            ex.count(homeRank(id, s.size), sizeof(SegmentClaim));
        }
    }
    ex.allocate();
    for (int role = 0; role < 2; ++role) {
        for (const Index k : orders.of[role]) {
            const GlobalId id = parts[role]->ids[k];
            ex.put(homeRank(id, s.size),
                   SegmentClaim{id, s.rank, static_cast<std::uint8_t>(role), {}});
        }
    }
    ex.run(s.comm, bytes);
    const SegmentClaim* claim = ex.records<SegmentClaim>();
    mergeRuns<SegmentClaim>(ex, s.size, kByRoleAndId, s.order);
    std::string error;
    for (std::size_t i = 0; i + 1 < s.order.size() && error.empty(); ++i) {
        const SegmentClaim& c = claim[s.order[i]];
        const SegmentClaim& d = claim[s.order[i + 1]];
        if (d.role == c.role && d.id == c.id) {
            error = std::string(kFn) + ": " + (c.role == 0 ? "master" : "slave") + " segment id " +
                    std::to_string(c.id) + " is given by rank " + std::to_string(c.rank) +
                    " and by rank " + std::to_string(d.rank);
        }
    }
    agreeOnErrors(s.comm, error);

    // 2. One surface: as many masters as slave segments, the same ones, in the same id order.
    s.sameSurface = false;
    s.slaveTwin.clear();
    if (s.slaveAsNodes || s.globalMasters == 0 || s.globalSlaveSegments != s.globalMasters) {
        return;
    }
    std::uint64_t sums[2] = {0, 0};
    for (int role = 0; role < 2; ++role) {
        for (Index k = 0; k < parts[role]->surface.size(); ++k) {
            sums[role] += contentHash(s, parts[role]->surface, k);
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT64_T, MPI_SUM, s.comm);
    s.sameSurface = sums[0] == sums[1] && matchByPlace(s, orders, bytes);
}

namespace {

// What an edge check found: two segments running a shared edge (2D: node) the same way.
struct EdgeError {
    int role = 2;  // none
    GlobalId lo = 0, hi = 0;
    GlobalId a = 0, b = 0;  // segment ids, a < b
    bool duplicate = false;
    bool line = false;
    bool forward = false;
    [[nodiscard]] bool before(const EdgeError& o) const noexcept {
        return role != o.role ? role < o.role : lo != o.lo ? lo < o.lo : hi < o.hi;
    }
};

std::string edgeMessage(const State& s, const EdgeError& e) {
    const SurfacePart& part = e.role == 0 ? s.master : s.slave;
    std::string error = std::string(kFn) + ": " + (e.role == 0 ? "master" : "slave") +
                        " surface '" + part.surface.name + "', segment ids " + std::to_string(e.a) +
                        " and " + std::to_string(e.b);
    if (e.duplicate) {
        return error + " have the same nodes: a duplicate segment";
    }
    error += e.line ? " both " + std::string(e.forward ? "start" : "end") + " at node " +
                          std::to_string(e.lo)
                    : " share the edge between nodes " + std::to_string(e.lo) + " and " +
                          std::to_string(e.hi) + " in the same direction";
    return error + ": one of them is inside-out";
}

// Whether segments k and j of a surface have the same node ids.
bool sameNodes(const State& s, const Surface& surface, Index k, Index j) {
    if (surface.types[k] != surface.types[j]) {
        return false;
    }
    const int n = nodeCount(surface.types[k]);
    GlobalId a[kMaxSegmentNodes];
    GlobalId b[kMaxSegmentNodes];
    for (int i = 0; i < n; ++i) {
        a[i] = s.nodeIds[surface.nodes(k)[i]];
        b[i] = s.nodeIds[surface.nodes(j)[i]];
    }
    std::sort(a, a + n);
    std::sort(b, b + n);
    return std::equal(a, a + n, b);
}

// The edges (2D: segment ends) of a part that only this rank can hold, those with a node no other
// rank uses, checked here through the segments around each node: an edge held by exactly two
// segments must run one way in one and the other way in the other. Returns the first error by
// (lo, hi), or none.
EdgeError checkEdgesHere(const State& s, int role, const SurfacePart& part) {
    const Surface& surface = part.surface;
    const auto n = static_cast<std::size_t>(s.numNodes);
    // Segments around each node (corners only).
    Big<Index> start(n + 1, 0);
    for (Index k = 0; k < surface.size(); ++k) {
        for (int i = 0; i < cornerCount(surface.types[k]); ++i) {
            ++start[surface.nodes(k)[i] + 1];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        start[i + 1] += start[i];
    }
    Big<Index> around(static_cast<std::size_t>(start[n]));
    {
        Big<Index> at(start.begin(), start.end() - 1);
        for (Index k = 0; k < surface.size(); ++k) {
            for (int i = 0; i < cornerCount(surface.types[k]); ++i) {
                around[at[surface.nodes(k)[i]]++] = k;
            }
        }
    }
    EdgeError first;
    const auto report = [&](Index k, Index j, GlobalId lo, GlobalId hi, bool line, bool forward) {
        EdgeError e;
        e.role = role;
        e.lo = lo;
        e.hi = hi;
        e.a = std::min(part.ids[k], part.ids[j]);
        e.b = std::max(part.ids[k], part.ids[j]);
        e.duplicate = sameNodes(s, surface, k, j);
        e.line = line;
        e.forward = forward;
        if (e.before(first)) {
            first = e;
        }
    };
    for (Index k = 0; k < surface.size(); ++k) {
        const SegmentType t = surface.types[k];
        const Index* v = surface.nodes(k);
        if (parametricDim(t) == 1) {
            for (int end = 0; end < 2; ++end) {  // segment ends at node a: starts, or ends
                const Index a = v[end];
                if (s.nodeShared[a] != 0) {
                    continue;  // judged at the node's home
                }
                int count = 0;
                Index other = -1;
                bool otherForward = false;
                for (Index p = start[a]; p < start[a + 1]; ++p) {
                    const Index j = around[p];
                    const Index* w = surface.nodes(j);
                    for (int e = 0; e < 2; ++e) {
                        if (w[e] == a) {
                            ++count;
                            if (j != k) {
                                other = j;
                                otherForward = e == 0;
                            }
                        }
                    }
                }
                if (count == 2 && other > k && otherForward == (end == 0)) {
                    const GlobalId id = s.nodeIds[a];
                    report(k, other, id, id, true, end == 0);
                }
            }
            continue;
        }
        const int nc = cornerCount(t);
        for (int i = 0; i < nc; ++i) {
            const Index a = v[i];
            const Index b = v[(i + 1) % nc];
            if (s.nodeShared[a] != 0 && s.nodeShared[b] != 0) {
                continue;  // judged at the edge's home
            }
            // The segments holding edge a-b, and which way they run it.
            int count = 0;
            Index other = -1;
            bool otherAlong = false;  // runs it a -> b, as k does
            for (Index p = start[a]; p < start[a + 1]; ++p) {
                const Index j = around[p];
                const Index* w = surface.nodes(j);
                const int mc = cornerCount(surface.types[j]);
                for (int c = 0; c < mc; ++c) {
                    const bool along = w[c] == a && w[(c + 1) % mc] == b;
                    const bool against = w[c] == b && w[(c + 1) % mc] == a;
                    if (along || against) {
                        ++count;
                        if (j != k) {
                            other = j;
                            otherAlong = along;
                        }
                    }
                }
            }
            if (count == 2 && other > k && otherAlong) {
                const GlobalId ia = s.nodeIds[a];
                const GlobalId ib = s.nodeIds[b];
                report(k, other, std::min(ia, ib), std::max(ia, ib), false, false);
            }
        }
    }
    return first;
}

}  // namespace

void checkOrientation(State& s, long long& bytes) {
    const SurfacePart* parts[2] = {&s.master, &s.slave};
    const int roles = s.sameSurface ? 1 : 2;
    // 1. Edges with a node no other rank uses: here.
    EdgeError first;
    for (int role = 0; role < roles; ++role) {
        const EdgeError e = checkEdgesHere(s, role, *parts[role]);
        if (e.before(first)) {
            first = e;
        }
    }
    // 2. The others at their homes (by the hash of their two nodes).
    Exchange& ex = s.ex;
    const auto each = [&](auto&& put) {
        for (int role = 0; role < roles; ++role) {
            const SurfacePart& part = *parts[role];
            for (Index k = 0; k < part.surface.size(); ++k) {
                const SegmentType t = part.surface.types[k];
                const Index* v = part.surface.nodes(k);
                if (parametricDim(t) == 1) {
                    for (int end = 0; end < 2; ++end) {
                        if (s.nodeShared[v[end]] != 0) {
                            put(role, part, k, v[end], v[end], end == 0, true);
                        }
                    }
                    continue;
                }
                const int nc = cornerCount(t);
                for (int i = 0; i < nc; ++i) {
                    const Index a = v[i];
                    const Index b = v[(i + 1) % nc];
                    if (s.nodeShared[a] != 0 && s.nodeShared[b] != 0) {
                        put(role, part, k, a, b, s.nodeIds[a] < s.nodeIds[b], false);
                    }
                }
            }
        }
    };
    const auto home = [&](Index a, Index b) {
        const GlobalId lo = std::min(s.nodeIds[a], s.nodeIds[b]);
        const GlobalId hi = std::max(s.nodeIds[a], s.nodeIds[b]);
        return homeRank(static_cast<GlobalId>(
                            mix(static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi))),
                        s.size);
    };
    ex.start(s.size);
    each([&](int, const SurfacePart&, Index, Index a, Index b, bool, bool) {
        ex.count(home(a, b), sizeof(EdgeClaim));
    });
    ex.allocate();
    each(
        [&](int role, const SurfacePart& part, Index k, Index a, Index b, bool forward, bool line) {
            const SegmentType t = part.surface.types[k];
            GlobalId ids[kMaxSegmentNodes];
            for (int i = 0; i < nodeCount(t); ++i) {
                ids[i] = s.nodeIds[part.surface.nodes(k)[i]];
            }
            std::sort(ids, ids + nodeCount(t));
            auto h = static_cast<std::uint64_t>(nodeCount(t));
            for (int i = 0; i < nodeCount(t); ++i) {
                h = mix(h, static_cast<std::uint64_t>(ids[i]));
            }
            EdgeClaim e{};
            e.lo = std::min(s.nodeIds[a], s.nodeIds[b]);
            e.hi = std::max(s.nodeIds[a], s.nodeIds[b]);
            e.segment = part.ids[k];
            e.nodeSet = h;
            e.role = static_cast<std::uint8_t>(role);
            e.forward = forward ? 1 : 0;
            e.line = line ? 1 : 0;
            ex.put(home(a, b), e);
        });
    ex.run(s.comm, bytes);
    const EdgeClaim* edge = ex.records<EdgeClaim>();
    const std::size_t m = ex.received() / sizeof(EdgeClaim);
    std::vector<Index> sorted(m);
    std::iota(sorted.begin(), sorted.end(), Index{0});
    std::sort(sorted.begin(), sorted.end(), [&](Index x, Index y) {
        const EdgeClaim& a = edge[x];
        const EdgeClaim& b = edge[y];
        return a.role != b.role ? a.role < b.role
               : a.lo != b.lo   ? a.lo < b.lo
               : a.hi != b.hi   ? a.hi < b.hi
                                : a.segment < b.segment;
    });
    for (std::size_t i = 0; i < m;) {
        const EdgeClaim& a = edge[sorted[i]];
        std::size_t j = i;
        while (j < m && edge[sorted[j]].role == a.role && edge[sorted[j]].lo == a.lo &&
               edge[sorted[j]].hi == a.hi) {
            ++j;
        }
        const EdgeClaim& b = edge[sorted[std::min(i + 1, m - 1)]];
        if (j - i == 2 && a.forward == b.forward && a.segment != b.segment) {
            EdgeError e;
            e.role = a.role;
            e.lo = a.lo;
            e.hi = a.hi;
            e.a = a.segment;
            e.b = b.segment;
            e.duplicate = a.nodeSet == b.nodeSet;
            e.line = a.line != 0;
            e.forward = a.forward != 0;
            if (e.before(first)) {
                first = e;
            }
            break;  // the first in this order
        }
        i = j;
    }
    agreeOnErrors(s.comm, first.role < 2 ? edgeMessage(s, first) : std::string());
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
            contact::detail::shortest(d));
    }
    if (!(options.skinRelative * s.meanMasterSize <= tol::kMaxCoordinate)) {
        throw std::invalid_argument(std::string(kFn) + ": the skin (skinRelative x mean master "
                                                       "segment size) must be at most 1e30");
    }
    s.capture = d;
    s.skin = options.skinRelative * s.meanMasterSize;
    if (const std::string problem = contact::detail::resolutionProblem(largest, d);
        !problem.empty()) {
        throw std::invalid_argument(std::string(kFn) + ": " + problem);
    }
}

}  // namespace contact::mpi::detail
