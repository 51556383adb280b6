// SPDX-License-Identifier: MIT
#include "node_search.hpp"

#include "contact/projection.hpp"
#include "contact/tolerances.hpp"

#include "detail/assert.hpp"
#include "detail/margins.hpp"
#include "detail/pair_store.hpp"
#include "detail/parallel_errors.hpp"
#include "detail/search_common.hpp"
#include "detail/timing.hpp"
#include "detail/warm_projection.hpp"
#include "orientation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contact::detail {
namespace {

// Self-contact filter of node mode: a master sharing a node with any ring segment that holds the
// slave node (a slave segment; a master segment for a slave given as nodes) is dropped. The ring
// comes from the node -> ring segments map made for the rebuild (segmentsOfNodes); its nodes are
// marked in the thread's stamp array with the item's number + 1, unique within a rebuild, so a
// master costs one look-up per node and nothing is kept between rebuilds.
class ExclusionFilter {
public:
    ExclusionFilter(const std::vector<Index>& ringOffsets, const std::vector<Index>& ringSegments,
                    const Surface& ring, const Surface& master, const std::vector<Index>& nodes,
                    std::vector<Index>& stamp) noexcept
        : offsets_(ringOffsets), segments_(ringSegments), ring_(ring), master_(master),
          nodes_(nodes), stamp_(stamp) {}
    Index* operator()(Index k, Index* first, Index* last) {
        if (first == last) {
            return last;
        }
        const Index mark = k + 1;
        const Index p = nodes_[k];
        for (Index r = offsets_[p]; r < offsets_[p + 1]; ++r) {
            const Index s = segments_[r];
            const Index* n = ring_.nodes(s);
            for (int i = 0; i < nodeCount(ring_.types[s]); ++i) {
                stamp_[n[i]] = mark;
            }
        }
        return std::remove_if(first, last, [&](Index j) {
            const Index* n = master_.nodes(j);
            bool shares = false;
            for (int i = 0; i < nodeCount(master_.types[j]); ++i) {
                shares = shares || stamp_[n[i]] == mark;
            }
            return shares;
        });
    }

private:
    const std::vector<Index>& offsets_;
    const std::vector<Index>& segments_;
    const Surface& ring_;
    const Surface& master_;
    const std::vector<Index>& nodes_;
    std::vector<Index>& stamp_;
};

// WarmStart's code: 2^20 - 1 steps per local coordinate over the reference domain, which is
// [domainLow, domainLow + domainWidth] in each.
constexpr std::uint64_t kWarmSteps = (std::uint64_t{1} << 20) - 1;
// Multiplications, not divisions, on the hot path: 1 / width is exact (widths 1 and 2), and a
// start decoded within an ulp of the code's value is as good a start.
double domainLow(SegmentType type) noexcept { return isTriangle(type) ? 0.0 : -1.0; }
double domainWidth(SegmentType type) noexcept { return isTriangle(type) ? 1.0 : 2.0; }
double inverseWidth(SegmentType type) noexcept { return isTriangle(type) ? 1.0 : 0.5; }
constexpr double kInverseSteps = 1.0 / static_cast<double>(kWarmSteps);

// The margin a warm path's distance to master j may be off by: kWarmTieRel of j's box size.
double warmTie(const FloatBox& b) noexcept {
    float size = 0.0F;
    for (int d = 0; d < 3; ++d) {
        size = std::max(size, b.hi[d] - b.lo[d]);
    }
    return kWarmTieRel * static_cast<double>(size);
}

}  // namespace

WarmStart::WarmStart(unsigned rank, const Eigen::Vector2d& xi, SegmentType type) noexcept {
    std::uint64_t code = std::uint64_t{std::min(rank, kNoRank)} << 40;
    for (int d = 0; d < 2; ++d) {
        const double u = (xi[d] - domainLow(type)) * inverseWidth(type);
        const double t = u > 0.0 ? std::min(u, 1.0) : 0.0;  // NaN: 0
        // Rounded to nearest without a library call (lround was 1% of a warm update).
        const double steps = t * static_cast<double>(kWarmSteps);
        auto q = static_cast<std::uint64_t>(steps);
        q += steps - static_cast<double>(q) >= 0.5 ? 1 : 0;
        code |= q << (20 * d);
    }
    for (int w = 0; w < 3; ++w) {
        bits_[w] = static_cast<std::uint16_t>(code >> (16 * w));
    }
}

Eigen::Vector2d WarmStart::xi(SegmentType type) const noexcept {
    const std::uint64_t code =
        std::uint64_t{bits_[0]} | (std::uint64_t{bits_[1]} << 16) | (std::uint64_t{bits_[2]} << 32);
    Eigen::Vector2d xi;
    for (int d = 0; d < 2; ++d) {
        const auto q = static_cast<double>((code >> (20 * d)) & kWarmSteps);
        xi[d] = domainLow(type) + q * kInverseSteps * domainWidth(type);
    }
    return xi;
}

std::size_t WarmSegmentCache::slotsFor(Index masters) noexcept {
    std::size_t slots = 16;
    while (slots < 4096 && 32 * slots < static_cast<std::size_t>(masters)) {
        slots *= 2;
    }
    return slots;
}

void WarmSegmentCache::resize(std::size_t slots) {
    CONTACT_ASSERT((slots & (slots - 1)) == 0);
    master_.assign(slots, kNoIndex);
    segments_.assign(slots, WarmSegment{});
}

void WarmSegmentCache::clear() noexcept { std::fill(master_.begin(), master_.end(), kNoIndex); }

void WarmSegmentCache::fill(const Surface& master, Index j, const CoordinatesView& x,
                            std::size_t slot) noexcept {
    makeWarmSegment(gatherSegment(master, j, x), segments_[slot]);
    master_[slot] = j;
}

std::size_t WarmSegmentCache::memoryBytes() const noexcept {
    return master_.capacity() * sizeof(Index) + segments_.capacity() * sizeof(WarmSegment);
}

void NodeSearch::setup(const SearchContext& c, std::vector<Index> nodes) {
    c_ = c;
    nodes_ = std::move(nodes);
    const Index m = c.master->size();
    const auto s = static_cast<Index>(nodes_.size());
    masterBox_.assign(m, FloatBox{});
    masterObb3_.assign(c.dim == 3 ? m : 0, CentredObb3{});
    masterObb2_.assign(c.dim == 2 ? m : 0, Obb2{});
    keepAxes_ = false;
    motion_.setup(*c.master, c.skin > 0.0 && !c.selfContact);  // self-contact: the masters move
    ownAxes_.assign(motion_.on() ? static_cast<std::size_t>(m) : 0, 0);
    const Index blockSize = blockSizeFor(s, c.threads);
    verlet_.setup(c.broadPhase, s, blockSize);
    fat_.resize(s);
    nodeSegment_ = c.slave->empty() ? std::vector<Index>{} : segmentOfEachNode(*c.slave, nodes_);
    threadOrder_.resize(static_cast<std::size_t>(c.threads));
    const bool curved = std::any_of(c.master->types.begin(), c.master->types.end(),
                                    [](SegmentType t) { return hasWarmPath(t); });
    // Skin 0 rebuilds the list every update: no update is warm.
    const bool warm = c.warmStart && curved && c.skin > 0.0;
    warm_.assign(warm ? static_cast<std::size_t>(s) : 0, WarmStart{});
    warmValid_ = false;
    warmSegments_.assign(warm_.empty() ? 0 : static_cast<std::size_t>(c.threads),
                         WarmSegmentCache{});
    for (WarmSegmentCache& cache : warmSegments_) {
        cache.resize(WarmSegmentCache::slotsFor(m));
    }
    blockPairs_.assign(static_cast<std::size_t>(verlet_.list().blocks()), 0);
    PairStore::reserve(pairs_, s);
}

void NodeSearch::update(const CoordinatesView& x, UpdateStats& stats) {
    bool inside = false;
    computeBoxes(x, stats, inside);
    if (stats.status != UpdateStatus::kOk) {  // the pairs stay those of the last good update
        verlet_.invalidate();
        warmValid_ = false;
        return;
    }
    const auto t0 = Clock::now();
    if (!inside) {
        stats.swept = rebuild(x);
        stats.rebuilt = true;
    }
    stats.listSize = verlet_.list().size();
    stats.timeBroad = msSince(t0);
    // The warm path only on a reused list: the ranks of warm_ index the candidates of that list.
    project(x, stats, warmValid_ && !stats.rebuilt);
    warmValid_ = !warm_.empty();
    const auto t1 = Clock::now();
    stats.orientation = judgeNodePairs(pairs_, *c_.slave, nodes_, nodeSegment_, x, c_.capture);
    stats.timeProjection += msSince(t1);
    keepAxes_ = !stats.rebuilt;  // after a rebuild, the next update renews the OBB axes
}

void NodeSearch::forget() noexcept {
    verlet_.invalidate();
    warmValid_ = false;
    PairStore::setCount(pairs_, 0);
}

// Boxes of every master segment at the current coordinates: AABB and OBB buffered by capture +
// rounding pad. Flags non-finite coordinates, boxes out of range and degenerate masters (the
// shapes setSurfaces refuses: a folded master's normal would flip its gaps). With a list, also the
// Verlet check: inside = every slave node and every master box lies inside its fat box of the last
// build.
//
// While the list is reused, the master OBBs keep the axes and centre offset of an earlier update
// and only their extents follow the segments (no face frame, no quaternion). The result does not
// depend on them: any box that encloses the buffered segment makes project()'s OBB test and lower
// bound valid (see there), so the pairs stay those of a fresh search; only the OBB survivor count
// may differ. The axes are renewed on the first update after a rebuild, so they are never older
// than one list.
//
// Two surfaces on a reused list: a master none of whose nodes moved since the last update keeps
// its boxes, made at the same coordinates (a clamped master costs a comparison per node). They
// were finite, in range and not degenerate then (else that update failed and dropped the list),
// so the checks need only the boxes made now. The update that renews the axes remakes only the
// masters whose axes were kept.
void NodeSearch::computeBoxes(const CoordinatesView& x, UpdateStats& stats, bool& inside) {
    const auto t0 = Clock::now();
    const Surface& master = *c_.master;
    const Index m = master.size();
    const auto s = static_cast<Index>(nodes_.size());
    const double capture = c_.capture;
    const bool check = verlet_.valid() && c_.skin > 0.0;  // skin 0: rebuild every update
    const bool keepAxes = check && keepAxes_;
    int finite = 1;
    double largest = 0.0;  // largest |box end| and |slave node coordinate|
    int nodesInside = 1;
    Index made = 0;
    Index degenerate = m;  // the lowest master made now that shapeFault() refuses (m: none)
    const bool still = check && motion_.on();
    const Index nm = motion_.nodes();
#pragma omp parallel num_threads(c_.threads) reduction(min                                         \
                                                       : finite, nodesInside, degenerate)          \
    reduction(max                                                                                  \
              : largest) reduction(+ : made)
    {
#pragma omp for schedule(static)
        for (Index i = 0; i < nm; ++i) {
            motion_.note(i, x);
        }
#pragma omp for schedule(static)
        for (Index j = 0; j < m; ++j) {
            if (still && (keepAxes || ownAxes_[j] != 0) && !motion_.moved(master, j)) {
                continue;
            }
            if (motion_.on()) {
                ownAxes_[j] = static_cast<std::uint8_t>(!keepAxes);
            }
            ++made;
            SegmentNodes seg;
            double pad = 0.0;
            const Aabb3 box = masterBoxes(master, j, x, capture, seg, pad, masterBox_[j],
                                          c_.dim == 2 ? &masterObb2_[j] : nullptr);
            if (c_.dim == 3) {
                CentredObb3& obb = masterObb3_[j];
                const CentredObb3 kept = obb;
                obb = centredBufferedObb3(seg, capture, pad, masterBox_[j],
                                          keepAxes ? &kept : nullptr);
            }
            noteRange(box, finite, largest);
            if (shapeFault(seg) != kShapeOk) {
                degenerate = std::min(degenerate, j);
            }
        }
#pragma omp for schedule(static)
        for (Index k = 0; k < s; ++k) {
            const Eigen::Vector3d p = x.node(nodes_[k]);
            finite = std::min(finite, int(p.allFinite()));
            largest = std::max(largest, p.cwiseAbs().maxCoeff());
            if (check) {
                nodesInside = std::min(nodesInside, int(fat_.inside(k, p)));
            }
        }
    }
    if (finite == 0) {
        stats.status = UpdateStatus::kNonFiniteCoordinates;
    } else if (largest > tol::kMaxBoxEnd) {
        stats.status = UpdateStatus::kCoordinatesOutOfRange;
    } else if (degenerate < m) {
        stats.status = UpdateStatus::kDegenerateSegment;
        stats.faultSegment = degenerate;
    }
    stats.masterBoxes = made;
    inside = check && stats.status == UpdateStatus::kOk && nodesInside == 1 &&
             verlet_.mastersInside(masterBox_, c_.threads);
    stats.timeBounds = msSince(t0);
}

// The fat boxes of the masters and slave nodes at x -> the candidate list (VerletCache): each
// node's masters ascending, in node order, whatever the thread count (the closest point is chosen
// by the strict order closer()). Returns true when the sweep built the list.
bool NodeSearch::rebuild(const CoordinatesView& x) {
    const double h = 0.5 * c_.skin;
    fat_.record(x, nodes_, h, c_.threads);
    const auto queryBox = [this](Index k) { return fat_.box(k); };
    if (c_.selfContact) {
        std::vector<Index> ringOffsets;
        std::vector<Index> ringSegments;
        segmentsOfNodes(*c_.ring, c_.numNodes, ringOffsets, ringSegments);
        // One stamp array per thread, sized by the first filter a thread makes.
        std::vector<std::vector<Index>> stamps(static_cast<std::size_t>(c_.threads));
        const auto filter = [&] {
            std::vector<Index>& stamp = stamps[threadIndex()];
            if (stamp.empty()) {
                stamp.assign(static_cast<std::size_t>(c_.numNodes), 0);
            }
            return ExclusionFilter(ringOffsets, ringSegments, *c_.ring, *c_.master, nodes_, stamp);
        };
        return verlet_.rebuild(masterBox_, h, queryBox, filter, c_.threads);
    }
    const auto all = [] { return [](Index /*k*/, Index* /*first*/, Index* last) { return last; }; };
    return verlet_.rebuild(masterBox_, h, queryBox, all, c_.threads);
}

// Narrow phase and projection in one pass per slave node (no survivor list):
//
//   candidates = listed masters whose buffered AABB (float) contains p, each with
//     lbBox = distance from p to that box shrunk by the capture distance
//   visit them by increasing lbBox; stop at the first lbBox > best distance so far
//     OBB test (lazily, only for the masters visited): skip when p is outside the buffered OBB
//     (then the segment is beyond the capture distance) or when lbObb, the distance to the OBB
//     shrunk by the capture distance, exceeds the best distance
//     otherwise closestXi() and keep the closer (ties: lower index)
//   keep the best when within the capture distance; the frame is computed for it alone
//
// Both shrunk boxes still enclose the segment, with the rounding pad to spare, so each lower bound
// is below any computed distance to its segment: a skipped segment is provably farther than the
// best (never tied), and the result is the exhaustive one. One thread writes each pair at the next
// free column. Threads take blocks of nodes; a block's closest points (slave, master, xi,
// distance, convergence: 33 of the 209 bytes of a pair) go to its own columns from its first
// node's column on; the blocks are closed up (whole runs of columns moved per array,
// PairStore::compactBlocks), and the threads then fill the frames in place, so the order is by
// node whatever the thread count and the large columns are written once.
//
// warm (SearchOptions::warmStart on a reused list): curved masters are projected by the warm path
// (warmClosestXi, from the node's closest point of the last update when it was on that master),
// whose distance d' is within tie = kWarmTieRel x box size of the cold path's d. That master is
// visited first, and only the candidates whose lower bound is within its d' + tie are sorted and
// visited after it: the others are farther than its cold d. The pairs stay a fresh search's:
//   - the visit stops, and skips, only where the lower bound exceeds best + tie(best): a skipped
//     segment's d > best' + tie >= best's cold d;
//   - a visited master whose d' > best' + tie(best) + tie(it) has d > best's cold d: it loses;
//   - if another visited master is within that of the best, or the best within tie(best) of the
//     capture distance, or its xi near where the status turns kOnBoundary (nearStatusEdge), the
//     masters within it are projected again by the cold path and the choice is made on those
//     distances, as a fresh search makes it.
// Frames of curved masters come from warmProjectionAt, on one thread or several alike.
void NodeSearch::project(const CoordinatesView& x, UpdateStats& stats, bool warm) {
    const auto t0 = Clock::now();
    const Surface& master = *c_.master;
    const double capture = c_.capture;
    const CandidateList& list = verlet_.list();
    long long candidates = 0;
    long long survivors = 0;
    long long projections = 0;
    const bool inOrder = c_.threads == 1;
    const bool record = !warm_.empty();
    const auto s = static_cast<Index>(nodes_.size());
    const Index blockSize = list.blockSize();
    const Index blocks = list.blocks();
    if (warm) {
        for (WarmSegmentCache& cache : warmSegments_) {
            cache.clear();
        }
    }
    // The frame of a closest point: the warm path's for curved masters in a warm update.
    const auto frame = [&](Index j, const Eigen::Vector3d& p, const WarmClosest& w) {
        // One named result, built in place (the copy of a 200-byte Projection per pair showed).
        // A degenerate warm frame is projectionAt()'s, as warmProjectionAt(nodes, ...) makes it.
        Projection out;
        if (!warm || !hasWarmPath(master.types[j]) ||
            !warmProjectionAt(warmSegments_[threadIndex()].get(master, j, x), p, w, out)) {
            out = projectionAt(gatherSegment(master, j, x), p, w.closest);
        }
        return out;
    };
    Index next = 0;         // one thread: the next free column
    ParallelErrors errors;  // an allocation of a visit list may throw
#pragma omp parallel num_threads(c_.threads) reduction(+ : candidates, survivors, projections)
    {
        // A local, not a reference into threadOrder_: no shared cache line written per push_back.
        std::vector<Visit> order;
        order.swap(threadOrder_[threadIndex()]);
        // Room for any node's candidates: grown here, on a rebuilt list, never on a reused one
        // (a thread may meet a larger node in a later update: dynamic schedule).
        errors.run([&] { order.reserve(static_cast<std::size_t>(list.maxPerItem())); });
#pragma omp for schedule(dynamic, 1)
        for (Index block = 0; block < blocks; ++block) {
            errors.run([&] {
                const Index begin = block * blockSize;
                const Index end = std::min(s, begin + blockSize);
                Index col = inOrder ? next : begin;
                CandidateReader reader = list.reader(block);
                for (Index k = begin; k < end; ++k) {
                    const Eigen::Vector3d p = x.node(nodes_[k]);
                    order.clear();
                    Index rank = 0;
                    for (Index c = reader.beginNode(); c > 0; --c, ++rank) {
                        const Index j = reader.next();
                        CONTACT_ASSERT(j >= 0 && j < master.size());
                        const FloatBox& b = masterBox_[j];
                        if (!insideFloatBox(p.data(), p.data(), b)) {
                            continue;
                        }
                        double lbSq = 0.0;
                        for (int d = 0; d < 3; ++d) {
                            const double below = (static_cast<double>(b.lo[d]) + capture) - p[d];
                            const double above = p[d] - (static_cast<double>(b.hi[d]) - capture);
                            const double e = std::max({below, above, 0.0});
                            lbSq += e * e;
                        }
                        order.emplace_back(lbSq, j, rank);
                    }
                    candidates += static_cast<long long>(order.size());
                    const WarmStart last = warm ? warm_[k] : WarmStart{};
                    WarmClosest best;
                    Index bestJ = kNoIndex;
                    Index bestRank = 0;
                    double bestTie = 0.0;
                    bool anyWarm = false;
                    // Visits v; false where its lower bound ends the visit. Inlined at both
                    // calls (GCC's attribute: the standard form does not apply to a lambda): the
                    // call's spills were 1% of a warm update.
                    const auto visit = [&](Visit & v) __attribute__((always_inline)) {
                        if (bestJ != kNoIndex &&
                            std::sqrt(v.lbSq) > best.closest.distance + bestTie) {
                            return false;
                        }
                        const Index j = v.master;
                        // The last closest master, visited first, is projected without its OBB
                        // test: it is nearly always within reach again, and where it is not, its
                        // distance beyond the capture distance loses to any pair and makes none.
                        const bool lastBest = bestJ == kNoIndex &&
                                              last.rank() != WarmStart::kNoRank &&
                                              static_cast<unsigned>(v.rank) == last.rank();
                        double lbObb = 0.0;
                        const bool in =
                            lastBest ||
                            (c_.dim == 3 ? obbContains(unpackObb(masterObb3_[j], masterBox_[j]), p,
                                                       capture, lbObb)
                                         : obbContains(masterObb2_[j], p, capture, lbObb));
                        if (!in) {
                            return true;
                        }
                        ++survivors;
                        if (bestJ != kNoIndex && lbObb > best.closest.distance + bestTie) {
                            return true;
                        }
                        ++projections;
                        const SegmentType type = master.types[j];
                        WarmClosest pr;
                        if (warm && hasWarmPath(type)) {
                            const bool mine = last.rank() != WarmStart::kNoRank &&
                                              last.rank() == static_cast<unsigned>(v.rank);
                            const Eigen::Vector2d start = mine ? last.xi(type) : Eigen::Vector2d();
                            const WarmSegment& seg = warmSegments_[threadIndex()].get(master, j, x);
                            if (!warmClosestXi(seg, p, mine ? &start : nullptr, pr)) {
                                pr.closest = closestXi(gatherSegment(master, j, x), p);
                            }
                            v.tie = warmTie(masterBox_[j]);
                            anyWarm = true;
                        } else {
                            pr.closest = closestXi(gatherSegment(master, j, x), p);
                        }
                        v.distance = pr.closest.distance;
                        if (bestJ == kNoIndex ||
                            closer(v.distance, j, best.closest.distance, bestJ)) {
                            best = pr;
                            bestJ = j;
                            bestRank = v.rank;
                            bestTie = v.tie;
                        }
                        return true;
                    };
                    auto first = order.begin();
                    const auto mine =
                        last.rank() == WarmStart::kNoRank
                            ? order.end()
                            : std::find_if(order.begin(), order.end(), [&](const Visit& v) {
                                  return static_cast<unsigned>(v.rank) == last.rank();
                              });
                    if (mine != order.end()) {
                        // The last closest master first: its distance then bounds the others,
                        // and only those within that bound are sorted (usually none). A master
                        // beyond it is farther than the last one's cold distance: never the best.
                        std::iter_swap(first, mine);
                        visit(*first++);
                        const double bound = best.closest.distance + bestTie;
                        order.erase(std::remove_if(
                                        first, order.end(),
                                        [&](const Visit& v) { return std::sqrt(v.lbSq) > bound; }),
                                    order.end());
                    }
                    std::sort(first, order.end());
                    for (auto v = first; v != order.end() && visit(*v); ++v) {
                    }
                    if (anyWarm) {
                        // Near ties, the capture distance within reach, or the best's xi at the
                        // status edge: the cold path decides.
                        const double reach = best.closest.distance + bestTie;
                        const auto near =
                            std::count_if(order.begin(), order.end(), [&](const Visit& v) {
                                return v.distance <= reach + v.tie;
                            });
                        if (near > 1 || std::abs(best.closest.distance - capture) <= bestTie ||
                            (bestTie > 0.0 &&
                             nearStatusEdge(master.types[bestJ], best.closest.xi))) {
                            bestJ = kNoIndex;
                            for (const Visit& v : order) {
                                if (!(v.distance <= reach + v.tie)) {
                                    continue;
                                }
                                ++projections;
                                const ClosestXi c =
                                    closestXi(gatherSegment(master, v.master, x), p);
                                if (bestJ == kNoIndex ||
                                    closer(c.distance, v.master, best.closest.distance, bestJ)) {
                                    best = WarmClosest{c};
                                    bestJ = v.master;
                                    bestRank = v.rank;
                                }
                            }
                        }
                    }
                    if (record) {
                        warm_[k] = bestJ == kNoIndex
                                       ? WarmStart{}
                                       : WarmStart(static_cast<unsigned>(bestRank), best.closest.xi,
                                                   master.types[bestJ]);
                    }
                    if (bestJ == kNoIndex || best.closest.distance > capture) {
                        continue;
                    }
                    if (inOrder) {
                        PairStore::store(pairs_, col++, nodes_[k], bestJ, frame(bestJ, p, best));
                    } else {
                        PairStore::storeClosest(pairs_, col++, nodes_[k], bestJ, best.closest);
                    }
                }
                CONTACT_ASSERT(reader.position() == list.blockEnd(block));
                if (inOrder) {
                    next = col;
                } else {
                    blockPairs_[block] = col - begin;
                }
            });
        }
        threadOrder_[threadIndex()].swap(order);
    }
    errors.rethrow();
    const Index count =
        inOrder ? next : PairStore::compactBlocks(pairs_, blockPairs_, blockSize, c_.threads);
    if (!inOrder) {
        // The closed-up closest points get their frames in place, each column by one thread.
#pragma omp parallel for num_threads(c_.threads) schedule(static)
        for (Index i = 0; i < count; ++i) {
            const WarmClosest c{PairStore::loadClosest(pairs_, i)};
            const Index j = PairStore::masterAt(pairs_, i);
            const Index k = PairStore::slaveAt(pairs_, i);
            PairStore::store(pairs_, i, k, j, frame(j, x.node(k), c));
        }
    }
    ProjectionStatus worst = ProjectionStatus::kConverged;
    for (Index i = 0; i < count; ++i) {
        worst = std::max(worst, PairStore::statusAt(pairs_, i));
    }
    PairStore::setCount(pairs_, count);
    stats.candidates = candidates;
    stats.satSurvivors = survivors;
    stats.projections = projections;
    stats.pairs = count;
    stats.worstProjection = worst;
    stats.timeProjection = msSince(t0);
}

std::size_t NodeSearch::memoryBytes() const noexcept {
    const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    std::size_t total = verlet_.memoryBytes() + fat_.memoryBytes();
    total += bytes(masterBox_) + bytes(masterObb3_) + bytes(masterObb2_);
    total += motion_.memoryBytes() + bytes(ownAxes_);
    total += bytes(nodes_) + bytes(blockPairs_) + bytes(nodeSegment_);
    for (const auto& v : threadOrder_) {
        total += bytes(v);
    }
    total += bytes(warm_);
    for (const WarmSegmentCache& cache : warmSegments_) {
        total += cache.memoryBytes();
    }
    return total;
}

}  // namespace contact::detail
