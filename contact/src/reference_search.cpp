// SPDX-License-Identifier: MIT
#include "contact/reference_search.hpp"

#include "contact/bounds.hpp"
#include "contact/sat.hpp"

#include "detail/geometry_checks.hpp"
#include "detail/pair_store.hpp"
#include "detail/search_common.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"

#include <stdexcept>
#include <string>

namespace contact {

namespace {

// Node mode: every slave node is projected onto every master segment (no bounding volume at all);
// the closest (ties: lowest index) is paired when within the capture distance. The AABB and SAT
// counters are computed on the side, with the same volumes as the fast search.
// Segment mode: every (slave, master) segment pair with the buffered AABB test and the SAT.
ReferenceResult search(const Surface& master, const Surface& slave,
                       const std::vector<Index>* nodeList, const CoordinatesView& x,
                       const SearchOptions& options) {
    constexpr const char* kFn = "contact::referenceSearch()";
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
    detail::checkInterface(kFn, master, slave, options.selfContact, x, r.captureDistance);
    const double d = r.captureDistance;
    const bool nodeMode = options.mode == SearchMode::kNodeToSegment;
    const bool same = nodeList == nullptr && detail::sameSurface(master, slave);
    const std::vector<Index> slaveNodes = !nodeMode             ? std::vector<Index>{}
                                          : nodeList != nullptr ? detail::sortedUnique(*nodeList)
                                                                : detail::uniqueNodes(slave);
    std::vector<Index> exclOffsets;
    std::vector<Index> exclNodes;
    if (options.selfContact) {
        detail::exclusionSets(slave, slaveNodes, x.numNodes, nodeMode, exclOffsets, exclNodes);
    }
    const auto excluded = [&](Index k, Index j) {
        return options.selfContact &&
               detail::sharesNode(master, j, exclNodes.data() + exclOffsets[k],
                                  exclNodes.data() + exclOffsets[k + 1]);
    };

    std::vector<SegmentNodes> masterSeg(master.size());
    std::vector<Aabb3> masterBox(master.size());
    std::vector<Obb3> masterObb3(master.size());
    std::vector<Obb2> masterObb2(master.size());
    for (Index j = 0; j < master.size(); ++j) {
        masterSeg[j] = gatherSegment(master, j, x);
        double pad = 0.0;
        masterBox[j] = detail::bufferedAabb(masterSeg[j], d, pad);
        if (x.dim == 3 && nodeMode) {  // node mode's OBB: about the float AABB's centre
            const detail::FloatBox fb =
                detail::floatBoxOutward(masterBox[j].lo.data(), masterBox[j].hi.data());
            masterObb3[j] = detail::unpackObb(
                detail::centredBufferedObb3(masterSeg[j], d, pad, fb, nullptr), fb);
        } else if (x.dim == 3) {
            masterObb3[j] = detail::unpackObb(detail::packedBufferedObb3(masterSeg[j], d, pad));
        } else {
            masterObb2[j] = detail::bufferedObb2(masterSeg[j], d, pad);
        }
    }

    if (nodeMode) {
        detail::PairStore::reserve(r.nodePairs, static_cast<Index>(slaveNodes.size()));
        Index count = 0;
        for (Index k = 0; k < static_cast<Index>(slaveNodes.size()); ++k) {
            const Eigen::Vector3d p = x.node(slaveNodes[k]);
            Projection best;
            Index bestJ = kNoIndex;
            for (Index j = 0; j < master.size(); ++j) {
                if (excluded(k, j)) {
                    continue;
                }
                // The search keeps these boxes rounded outward to float in node mode.
                const detail::FloatBox fb =
                    detail::floatBoxOutward(masterBox[j].lo.data(), masterBox[j].hi.data());
                if (insideFloatBox(p.data(), p.data(), fb)) {
                    ++r.candidates;
                    const bool in = x.dim == 3 ? detail::obbContains(masterObb3[j], p)
                                               : detail::obbContains(masterObb2[j], p);
                    r.satSurvivors += in ? 1 : 0;
                }
                const Projection pr = closestPoint(masterSeg[j], p);
                if (bestJ == kNoIndex || detail::closer(pr.distance, j, best.distance, bestJ)) {
                    best = pr;
                    bestJ = j;
                }
            }
            if (bestJ != kNoIndex && best.distance <= d) {
                detail::PairStore::store(r.nodePairs, count++, slaveNodes[k], bestJ, best);
            }
        }
        detail::PairStore::setCount(r.nodePairs, count);
        return r;
    }

    for (Index k = 0; k < slave.size(); ++k) {
        const SegmentNodes seg = gatherSegment(slave, k, x);
        double pad = 0.0;
        const Aabb3 box = detail::bufferedAabb(seg, d, pad);
        const Obb3 obb3 =
            x.dim == 3 ? detail::unpackObb(detail::packedBufferedObb3(seg, d, pad)) : Obb3{};
        const Obb2 obb2 = x.dim == 2 ? detail::bufferedObb2(seg, d, pad) : Obb2{};
        for (Index j = 0; j < master.size(); ++j) {
            if ((same && options.selfContact && k >= j) || excluded(k, j) ||
                !overlaps(box, masterBox[j])) {
                continue;
            }
            ++r.candidates;
            const bool separated = x.dim == 3 ? satDisjoint3d(obb3, masterObb3[j]).separated
                                              : satDisjoint2d(obb2, masterObb2[j]).separated;
            if (separated) {
                continue;
            }
            ++r.satSurvivors;
            detail::PairStore::append(r.segmentPairs, k, j);
        }
    }
    return r;
}

}  // namespace

ReferenceResult referenceSearch(const Surface& master, const Surface& slave,
                                const CoordinatesView& x, const SearchOptions& options) {
    return search(master, slave, nullptr, x, options);
}

ReferenceResult referenceSearch(const Surface& master, const std::vector<Index>& slaveNodes,
                                const CoordinatesView& x, const SearchOptions& options) {
    Surface none;
    none.name = "slave nodes";
    return search(master, none, &slaveNodes, x, options);
}

}  // namespace contact
