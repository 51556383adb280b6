// SPDX-License-Identifier: MIT
#include "contact/reference_search.hpp"

#include "contact/bounds.hpp"
#include "contact/sat.hpp"

#include "detail/geometry_checks.hpp"
#include "detail/pair_store.hpp"
#include "detail/search_common.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace contact {

namespace {

using detail::FloatBox;
using detail::floatBoxOutward;
using detail::floatDown;
using detail::floatUp;

constexpr const char* kFn = "contact::referenceSearch()";

// What every master segment brings to the exhaustive loops.
struct MasterData {
    std::vector<SegmentNodes> seg;
    std::vector<Aabb3> box;          // buffered AABB (capture + rounding pad), as the search has it
    std::vector<FloatBox> floatBox;  // node mode, one surface: that box rounded outward to float
    std::vector<Aabb3> hull;         // node mode: Bezier-hull AABB grown by its rounding pad
    std::vector<Obb3> obb3;
    std::vector<Obb2> obb2;
};

MasterData masterData(const Surface& master, const CoordinatesView& x, double d, bool nodeMode,
                      bool same) {
    MasterData m;
    const auto n = static_cast<std::size_t>(master.size());
    m.seg.resize(n);
    m.box.resize(n);
    m.obb3.resize(x.dim == 3 ? n : 0);
    m.obb2.resize(x.dim == 2 ? n : 0);
    m.floatBox.resize(nodeMode || same ? n : 0);
    m.hull.resize(nodeMode ? n : 0);
    for (Index j = 0; j < master.size(); ++j) {
        m.seg[j] = gatherSegment(master, j, x);
        double pad = 0.0;
        m.box[j] = detail::bufferedAabb(m.seg[j], d, pad);
        if (nodeMode || same) {
            m.floatBox[j] = floatBoxOutward(m.box[j].lo.data(), m.box[j].hi.data());
        }
        if (nodeMode) {
            Aabb3 hull = segmentAabb<3>(m.seg[j], 0.0);
            const double hullPad = detail::roundingPad(hull, 0.0);
            hull.lo.array() -= hullPad;
            hull.hi.array() += hullPad;
            m.hull[j] = hull;
        }
        if (x.dim == 3 && (nodeMode || same)) {  // packed about the float AABB, as kept there
            m.obb3[j] = detail::unpackObb(
                detail::centredBufferedObb3(m.seg[j], d, pad, m.floatBox[j], nullptr),
                m.floatBox[j]);
        } else if (x.dim == 3) {
            m.obb3[j] = detail::unpackObb(detail::packedBufferedObb3(m.seg[j], d, pad));
        } else {
            m.obb2[j] = detail::bufferedObb2(m.seg[j], d, pad);
        }
    }
    return m;
}

// Squared distance from p to the box (0 inside).
double boxDistanceSq(const Eigen::Vector3d& p, const Aabb3& b) noexcept {
    const Eigen::Array3d out = (b.lo.array() - p.array()).max(p.array() - b.hi.array()).max(0.0);
    return out.matrix().squaredNorm();
}

// The checks of one run: the slave items to visit and the self-contact sets of each.
struct Run {
    const Surface& master;
    const Surface& slave;
    const CoordinatesView& x;
    const SearchOptions& options;
    double capture = 0.0;
    std::vector<Index> exclOffsets;
    std::vector<Index> exclNodes;

    // True when master segment j may not pair with the slave item whose set is number k.
    [[nodiscard]] bool excluded(Index k, Index j) const noexcept {
        return options.selfContact &&
               detail::sharesNode(master, j, exclNodes.data() + exclOffsets[k],
                                  exclNodes.data() + exclOffsets[k + 1]);
    }
};

// Node mode: each node p of `nodes` against every master segment j, in index order:
//
//   p outside j's buffered box (the float box the search keeps): the segment is farther than the
//     capture distance (the box holds every point within it), so j cannot be paired: next j
//   count the candidate and its OBB test, as the search's stages would
//   lower bound: |p - j's Bezier-hull box| > min(best distance so far, capture) (with a margin
//     for rounding): j can neither beat the best nor be paired: next j
//   project p on j; keep the closer (ties: the lower index, which came first)
//   pair p with the best when its distance is within the capture distance
//
// The same pairs, bit for bit, as projecting p on every segment: a skipped segment is farther than
// min(best, capture); when the closest segment is within the capture distance, no segment at most
// as close is skipped, and otherwise neither way pairs p. The hull box encloses the segment (Bezier
// control points), grown by 64 ulps of its coordinates for the rounding of the projected point;
// the squared distances compare with a 2^-40 relative margin for their own rounding.
void nodeLoop(const Run& run, const MasterData& m, const std::vector<Index>& nodes,
              ReferenceResult& r) {
    constexpr double kMargin = 1.0 + 0x1p-40;
    const double captureSq = run.capture * run.capture;
    detail::PairStore::reserve(r.nodePairs, static_cast<Index>(nodes.size()));
    Index count = 0;
    for (Index k = 0; k < static_cast<Index>(nodes.size()); ++k) {
        const Eigen::Vector3d p = run.x.node(nodes[k]);
        // p >= a float f exactly when floatDown(p) >= f, p <= f when floatUp(p) <= f.
        const float lo[3] = {floatDown(p.x()), floatDown(p.y()), floatDown(p.z())};
        const float hi[3] = {floatUp(p.x()), floatUp(p.y()), floatUp(p.z())};
        Projection best;
        Index bestJ = kNoIndex;
        double thresholdSq = captureSq;  // min(best distance, capture)^2
        for (Index j = 0; j < run.master.size(); ++j) {
            const FloatBox& b = m.floatBox[j];
            if (!(lo[0] >= b.lo[0] && hi[0] <= b.hi[0] && lo[1] >= b.lo[1] && hi[1] <= b.hi[1] &&
                  lo[2] >= b.lo[2] && hi[2] <= b.hi[2]) ||
                run.excluded(k, j)) {
                continue;
            }
            ++r.candidates;
            const bool in = run.x.dim == 3 ? detail::obbContains(m.obb3[j], p)
                                           : detail::obbContains(m.obb2[j], p);
            r.satSurvivors += in ? 1 : 0;
            if (boxDistanceSq(p, m.hull[j]) > thresholdSq * kMargin) {
                continue;
            }
            const Projection pr = closestPoint(m.seg[j], p);
            if (bestJ == kNoIndex || detail::closer(pr.distance, j, best.distance, bestJ)) {
                best = pr;
                bestJ = j;
                thresholdSq = std::min(thresholdSq, pr.distance * pr.distance);
            }
        }
        if (bestJ != kNoIndex && best.distance <= run.capture) {
            detail::PairStore::store(r.nodePairs, count++, nodes[k], bestJ, best);
        }
    }
    detail::PairStore::setCount(r.nodePairs, count);
}

// Segment mode: every listed slave segment against every master segment, with the buffered AABB
// test and the SAT of the search.
void segmentLoop(const Run& run, const MasterData& m, const std::vector<Index>& segments, bool same,
                 ReferenceResult& r) {
    for (const Index k : segments) {
        const SegmentNodes seg = gatherSegment(run.slave, k, run.x);
        double pad = 0.0;
        const Aabb3 box = detail::bufferedAabb(seg, run.capture, pad);
        // One surface: the slave segment's OBB is its master OBB, packed alike.
        Obb3 obb3;
        if (run.x.dim == 3) {
            obb3 = same ? m.obb3[k]
                        : detail::unpackObb(detail::packedBufferedObb3(seg, run.capture, pad));
        }
        const Obb2 obb2 = run.x.dim == 2 ? detail::bufferedObb2(seg, run.capture, pad) : Obb2{};
        for (Index j = 0; j < run.master.size(); ++j) {
            if ((same && run.options.selfContact && k >= j) || run.excluded(k, j) ||
                !overlaps(box, m.box[j])) {
                continue;
            }
            ++r.candidates;
            const bool separated = run.x.dim == 3 ? satDisjoint3d(obb3, m.obb3[j]).separated
                                                  : satDisjoint2d(obb2, m.obb2[j]).separated;
            if (separated) {
                continue;
            }
            ++r.satSurvivors;
            detail::PairStore::append(r.segmentPairs, k, j);
        }
    }
}

// The whole reference, or its part for the slave items `sample` (nullptr: all of them).
ReferenceResult search(const Surface& master, const Surface& slave,
                       const std::vector<Index>* nodeList, const std::vector<Index>* sample,
                       const CoordinatesView& x, const SearchOptions& options) {
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string(kFn) + ": coordinates: " + bad);
    }
    detail::validateSurface(kFn, "master", master, x);
    detail::validateSurface(kFn, "slave", slave, x);
    if (nodeList != nullptr) {
        detail::validateNodes(kFn, *nodeList, x);
        if (options.mode != SearchMode::kNodeToSegment) {
            throw std::invalid_argument(std::string(kFn) +
                                        ": a slave given as nodes needs node-to-segment mode");
        }
    }
    ReferenceResult r;
    r.captureDistance = detail::resolveCapture(kFn, options, detail::meanSegmentSize(master, x));
    detail::checkInterface(kFn, master, slave, options.selfContact, x, r.captureDistance,
                           options.checkOrientation);
    const bool nodeMode = options.mode == SearchMode::kNodeToSegment;
    std::vector<Index> items;  // slave nodes (node mode) or slave segments to visit
    if (nodeMode) {
        items = nodeList != nullptr ? detail::sortedUnique(*nodeList) : detail::uniqueNodes(slave);
    } else {
        items.resize(static_cast<std::size_t>(slave.size()));
        for (Index k = 0; k < slave.size(); ++k) {
            items[k] = k;
        }
    }
    if (sample != nullptr) {
        std::vector<Index> chosen = detail::sortedUnique(*sample);
        for (const Index i : chosen) {
            if (!std::binary_search(items.begin(), items.end(), i)) {
                throw std::invalid_argument(std::string(kFn) + ": sampled slave " +
                                            (nodeMode ? "node " : "segment ") + std::to_string(i) +
                                            " is not part of the slave surface");
            }
        }
        items = std::move(chosen);
    }
    Run run{master, slave, x, options, r.captureDistance, {}, {}};
    if (options.selfContact) {
        // A slave given as nodes has no segments: its nodes' rings are of the master's.
        detail::exclusionSets(nodeList != nullptr ? master : slave, items, x.numNodes, nodeMode,
                              run.exclOffsets, run.exclNodes);
    }
    const bool same = !nodeMode && detail::sameSurface(master, slave);
    const MasterData m = masterData(master, x, r.captureDistance, nodeMode, same);
    if (nodeMode) {
        nodeLoop(run, m, items, r);
    } else {
        segmentLoop(run, m, items, same, r);
    }
    return r;
}

}  // namespace

ReferenceResult referenceSearch(const Surface& master, const Surface& slave,
                                const CoordinatesView& x, const SearchOptions& options) {
    return search(master, slave, nullptr, nullptr, x, options);
}

ReferenceResult referenceSearch(const Surface& master, const std::vector<Index>& slaveNodes,
                                const CoordinatesView& x, const SearchOptions& options) {
    Surface none;
    none.name = "slave nodes";
    return search(master, none, &slaveNodes, nullptr, x, options);
}

ReferenceResult referenceSearchSample(const Surface& master, const Surface& slave,
                                      const std::vector<Index>& items, const CoordinatesView& x,
                                      const SearchOptions& options) {
    return search(master, slave, nullptr, &items, x, options);
}

ReferenceResult referenceSearchSample(const Surface& master, const std::vector<Index>& slaveNodes,
                                      const std::vector<Index>& items, const CoordinatesView& x,
                                      const SearchOptions& options) {
    Surface none;
    none.name = "slave nodes";
    return search(master, none, &slaveNodes, &items, x, options);
}

}  // namespace contact
