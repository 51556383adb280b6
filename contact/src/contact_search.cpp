// SPDX-License-Identifier: MIT
#include "contact/contact_search.hpp"

#include "contact/bounds.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"
#include "detail/search_common.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace contact {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int threadIndex() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int threadCount() {
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

bool inside(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi, const Eigen::Matrix3Xd& fatLo,
            const Eigen::Matrix3Xd& fatHi, Index i) noexcept {
    return (lo.col(i).array() >= fatLo.col(i).array()).all() &&
           (hi.col(i).array() <= fatHi.col(i).array()).all();
}

}  // namespace

const char* updateStatusName(UpdateStatus s) noexcept {
    switch (s) {
    case UpdateStatus::kOk: return "ok";
    case UpdateStatus::kNotSetUp: return "not set up";
    case UpdateStatus::kWrongNodeCount: return "wrong node count";
    case UpdateStatus::kNonFiniteCoordinates: return "non-finite coordinates";
    }
    return "?";
}

ContactSearch::ContactSearch(const SearchOptions& options) : options_(options) {
    if (options_.threads < 1) {
        throw std::invalid_argument("contact::ContactSearch: threads must be >= 1, got " +
                                    std::to_string(options_.threads));
    }
    if (!std::isfinite(options_.skinRelative) || options_.skinRelative < 0.0) {
        throw std::invalid_argument("contact::ContactSearch: skinRelative must be finite and >= 0");
    }
}

void ContactSearch::setSurfaces(const Surface& master, const Surface& slave,
                                const CoordinatesView& x) {
    setup("contact::ContactSearch::setSurfaces()", master, slave, nullptr, x);
}

void ContactSearch::setSurfaces(const Surface& master, const std::vector<Index>& slaveNodes,
                                const CoordinatesView& x) {
    noSlaveSegments_ = Surface{};
    noSlaveSegments_.name = "slave nodes";
    setup("contact::ContactSearch::setSurfaces()", master, noSlaveSegments_, &slaveNodes, x);
}

void ContactSearch::setup(const char* kFn, const Surface& master, const Surface& slave,
                          const std::vector<Index>* nodeList, const CoordinatesView& x) {
    detail::validateSurface(kFn, "master", master, x);
    detail::validateSurface(kFn, "slave", slave, x);
    if (nodeList != nullptr) {
        detail::validateNodes(kFn, *nodeList, x);
        if (options_.mode != SearchMode::kNodeToSegment) {
            throw std::invalid_argument(std::string(kFn) +
                                        ": a slave given as nodes needs node-to-segment mode");
        }
    }
    master_ = &master;
    slave_ = &slave;
    sameSurface_ = (&master == &slave) ||
                   (master.types == slave.types && master.connectivity == slave.connectivity);
    dim_ = x.dim;
    numNodes_ = x.numNodes;
    meanMasterSize_ = detail::meanSegmentSize(master, x);
    capture_ = detail::resolveCapture(kFn, options_, meanMasterSize_);
    skin_ = options_.skinRelative * meanMasterSize_;
    haveList_ = false;

    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    slaveNodes_ = !nodeMode           ? std::vector<Index>{}
                  : nodeList != nullptr ? detail::sortedUnique(*nodeList)
                                        : detail::uniqueNodes(slave);
    numSlaveItems_ = nodeMode ? static_cast<Index>(slaveNodes_.size()) : slave.size();
    if (options_.selfContact) {
        detail::exclusionSets(slave, slaveNodes_, numNodes_, nodeMode, exclOffsets_, exclNodes_);
    } else {
        exclOffsets_.clear();
        exclNodes_.clear();
    }

    const Index m = master.size();
    const Index s = numSlaveItems_;
    masterLo_.resize(3, m);
    masterHi_.resize(3, m);
    masterFatLo_.resize(3, m);
    masterFatHi_.resize(3, m);
    slaveLo_.resize(3, s);
    slaveHi_.resize(3, s);
    slaveFatLo_.resize(3, s);
    slaveFatHi_.resize(3, s);
    masterObb3_.assign(dim_ == 3 ? m : 0, Obb3{});
    masterObb2_.assign(dim_ == 2 ? m : 0, Obb2{});
    const Index slaveObbs = nodeMode ? 0 : s;
    slaveObb3_.assign(dim_ == 3 ? slaveObbs : 0, Obb3{});
    slaveObb2_.assign(dim_ == 2 ? slaveObbs : 0, Obb2{});
    candOffsets_.assign(static_cast<std::size_t>(s) + 1, 0);
    survivorCount_.assign(s, 0);
    threadPairs_.resize(options_.threads);
    threadHits_.resize(options_.threads);
    detail::reservePairs(pairs_, nodeMode ? s : 0);
}

// Boxes of every master segment (and slave segment or node) at the current coordinates:
// AABB and OBB buffered by capture + rounding pad. Flags non-finite coordinates.
void ContactSearch::computeBoxes(const CoordinatesView& x, UpdateStats& stats) {
    const auto t0 = Clock::now();
    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    const Surface& master = *master_;
    const Surface& slave = *slave_;
    const Index m = master.size();
    const Index s = numSlaveItems_;
    const double capture = capture_;
    int finite = 1;
#pragma omp parallel num_threads(options_.threads) reduction(min : finite)
    {
#pragma omp for schedule(static)
        for (Index j = 0; j < m; ++j) {
            const SegmentNodes seg = gatherSegment(master, j, x);
            double pad = 0.0;
            const Aabb3 box = detail::bufferedAabb(seg, capture, pad);
            masterLo_.col(j) = box.lo;
            masterHi_.col(j) = box.hi;
            finite = std::min(finite, int(masterLo_.col(j).allFinite() && masterHi_.col(j).allFinite()));
            if (dim_ == 3) {
                masterObb3_[j] = detail::bufferedObb3(seg, capture, pad);
            } else {
                masterObb2_[j] = detail::bufferedObb2(seg, capture, pad);
            }
        }
#pragma omp for schedule(static)
        for (Index k = 0; k < s; ++k) {
            if (nodeMode) {
                const Eigen::Vector3d p = x.node(slaveNodes_[k]);
                slaveLo_.col(k) = p;
                slaveHi_.col(k) = p;
                finite = std::min(finite, int(p.allFinite()));
                continue;
            }
            const SegmentNodes seg = gatherSegment(slave, k, x);
            double pad = 0.0;
            const Aabb3 box = detail::bufferedAabb(seg, capture, pad);
            slaveLo_.col(k) = box.lo;
            slaveHi_.col(k) = box.hi;
            finite = std::min(finite, int(slaveLo_.col(k).allFinite() && slaveHi_.col(k).allFinite()));
            if (dim_ == 3) {
                slaveObb3_[k] = detail::bufferedObb3(seg, capture, pad);
            } else {
                slaveObb2_[k] = detail::bufferedObb2(seg, capture, pad);
            }
        }
    }
    if (finite == 0) {
        stats.status = UpdateStatus::kNonFiniteCoordinates;
    }
    stats.timeBounds = msSince(t0);
}

// The Verlet argument: the list holds every pair whose fat boxes (built with skin / 2 on each side)
// overlap. If every current box still lies inside its fat box, any pair of boxes that overlap now
// also had overlapping fat boxes, so the list still holds every candidate. Node movement below
// skin / 2 is the special case of a point box.
bool ContactSearch::boxesInsideFatBoxes() const noexcept {
    const Index m = master_->size();
    for (Index j = 0; j < m; ++j) {
        if (!inside(masterLo_, masterHi_, masterFatLo_, masterFatHi_, j)) {
            return false;
        }
    }
    for (Index k = 0; k < numSlaveItems_; ++k) {
        if (!inside(slaveLo_, slaveHi_, slaveFatLo_, slaveFatHi_, k)) {
            return false;
        }
    }
    return true;
}

// rebuild: fat boxes = boxes +- skin/2 -> kd-trees over the slave fat boxes -> every master fat box
// queries them (threads take contiguous master ranges) -> self-contact filter -> counting sort by
// slave item, masters ascending within an item whatever the thread count.
void ContactSearch::rebuildCandidates() {
    const double h = 0.5 * skin_;
    masterFatLo_ = (masterLo_.array() - h).matrix();
    masterFatHi_ = (masterHi_.array() + h).matrix();
    slaveFatLo_ = (slaveLo_.array() - h).matrix();
    slaveFatHi_ = (slaveHi_.array() + h).matrix();
    broad_.build(slaveFatLo_, slaveFatHi_);

    const Surface& master = *master_;
    const Index m = master.size();
    const bool self = options_.selfContact;
    const bool dedupe = self && sameSurface_ && options_.mode == SearchMode::kSegmentToSegment;
    int usedThreads = 1;
#pragma omp parallel num_threads(options_.threads)
    {
        const int t = threadIndex();
        const int nt = threadCount();
#pragma omp single
        usedThreads = nt;
        std::vector<Index>& out = threadPairs_[t];
        std::vector<Index>& hits = threadHits_[t];
        out.clear();
        const Index begin = static_cast<Index>(static_cast<long long>(m) * t / nt);
        const Index end = static_cast<Index>(static_cast<long long>(m) * (t + 1) / nt);
        for (Index j = begin; j < end; ++j) {
            hits.clear();
            broad_.query(masterFatLo_.col(j), masterFatHi_.col(j), hits);
            std::sort(hits.begin(), hits.end());
            for (Index k : hits) {
                if (dedupe && k >= j) {
                    continue;
                }
                if (self && detail::sharesNode(master, j, exclNodes_.data() + exclOffsets_[k],
                                               exclNodes_.data() + exclOffsets_[k + 1])) {
                    continue;
                }
                out.push_back(k);
                out.push_back(j);
            }
        }
    }
    std::fill(candOffsets_.begin(), candOffsets_.end(), 0);
    std::size_t total = 0;
    for (int t = 0; t < usedThreads; ++t) {
        const auto& out = threadPairs_[t];
        for (std::size_t i = 0; i < out.size(); i += 2) {
            ++candOffsets_[out[i] + 1];
        }
        total += out.size() / 2;
    }
    for (Index k = 0; k < numSlaveItems_; ++k) {
        candOffsets_[k + 1] += candOffsets_[k];
    }
    candMasters_.resize(total);
    survivors_.resize(total);
    // survivorCount_ doubles as the fill cursor here.
    std::fill(survivorCount_.begin(), survivorCount_.end(), 0);
    for (int t = 0; t < usedThreads; ++t) {
        const auto& out = threadPairs_[t];
        for (std::size_t i = 0; i < out.size(); i += 2) {
            const Index k = out[i];
            candMasters_[candOffsets_[k] + survivorCount_[k]++] = out[i + 1];
        }
    }
    haveList_ = true;
}

// Narrow phase: for every listed pair, the exact buffered-AABB test, then the OBB SAT (a point
// against the master box in node mode; 4 or 15 axes in segment mode). Survivors go to the
// candidate's own slots, so slave items are independent and threads never share output.
void ContactSearch::narrowPhase(const CoordinatesView& /*x*/, UpdateStats& stats) {
    const auto t0 = Clock::now();
    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    long long candidates = 0;
    long long survivors = 0;
#pragma omp parallel for num_threads(options_.threads) schedule(dynamic, 256) \
    reduction(+ : candidates, survivors)
    for (Index k = 0; k < numSlaveItems_; ++k) {
        Index n = 0;
        const Index first = candOffsets_[k];
        const Index last = candOffsets_[k + 1];
        for (Index c = first; c < last; ++c) {
            const Index j = candMasters_[c];
            if (nodeMode) {
                const Eigen::Vector3d p = slaveLo_.col(k);
                if (!detail::aabbContains(masterLo_.col(j), masterHi_.col(j), p)) {
                    continue;
                }
                ++candidates;
                const bool in = dim_ == 3 ? detail::obbContains(masterObb3_[j], p)
                                          : detail::obbContains(masterObb2_[j], p);
                if (!in) {
                    continue;
                }
            } else {
                if ((slaveLo_.col(k).array() > masterHi_.col(j).array()).any() ||
                    (masterLo_.col(j).array() > slaveHi_.col(k).array()).any()) {
                    continue;
                }
                ++candidates;
                const bool separated = dim_ == 3
                                           ? satDisjoint3d(slaveObb3_[k], masterObb3_[j]).separated
                                           : satDisjoint2d(slaveObb2_[k], masterObb2_[j]).separated;
                if (separated) {
                    continue;
                }
            }
            ++survivors;
            survivors_[first + n++] = j;
        }
        survivorCount_[k] = n;
    }
    stats.candidates = candidates;
    stats.satSurvivors = survivors;
    stats.timeNarrow = msSince(t0);
}

// Projection: each slave node's closest point over its surviving master segments (ties to the
// lower segment index), kept when within the capture distance. Written at column k, then
// compacted in node order.
void ContactSearch::projectNodes(const CoordinatesView& x, UpdateStats& stats) {
    const auto t0 = Clock::now();
    const Surface& master = *master_;
    const double capture = capture_;
#pragma omp parallel for num_threads(options_.threads) schedule(dynamic, 256)
    for (Index k = 0; k < numSlaveItems_; ++k) {
        const Eigen::Vector3d p = slaveLo_.col(k);
        Projection best;
        Index bestJ = kNoIndex;
        const Index first = candOffsets_[k];
        for (Index c = first; c < first + survivorCount_[k]; ++c) {
            const Index j = survivors_[c];
            const Projection pr = closestPoint(gatherSegment(master, j, x), p);
            if (bestJ == kNoIndex || detail::closer(pr.distance, j, best.distance, bestJ)) {
                best = pr;
                bestJ = j;
            }
        }
        if (bestJ != kNoIndex && best.distance <= capture) {
            detail::storePair(pairs_, k, slaveNodes_[k], bestJ, best);
        } else {
            pairs_.master[k] = kNoIndex;
        }
    }
    Index count = 0;
    ProjectionStatus worst = ProjectionStatus::kConverged;
    for (Index k = 0; k < numSlaveItems_; ++k) {
        if (pairs_.master[k] != kNoIndex) {
            detail::movePair(pairs_, k, count);
            worst = std::max(worst, pairs_.status[count]);
            ++count;
        }
    }
    pairs_.count = count;
    stats.pairs = count;
    stats.worstProjection = worst;
    stats.timeProjection = msSince(t0);
}

void ContactSearch::collectSegmentPairs(UpdateStats& stats) {
    const auto t0 = Clock::now();
    Index count = 0;
    for (Index k = 0; k < numSlaveItems_; ++k) {
        for (Index c = candOffsets_[k]; c < candOffsets_[k] + survivorCount_[k]; ++c) {
            if (static_cast<std::size_t>(count) == pairs_.slave.size()) {
                const std::size_t grown = std::max<std::size_t>(64, 2 * pairs_.slave.size());
                pairs_.slave.resize(grown);
                pairs_.master.resize(grown);
            }
            pairs_.slave[count] = k;
            pairs_.master[count] = survivors_[c];
            ++count;
        }
    }
    pairs_.count = count;
    stats.pairs = count;
    stats.timeProjection = msSince(t0);
}

UpdateStats ContactSearch::update(const CoordinatesView& x) {
    UpdateStats stats;
    if (master_ == nullptr) {
        return stats;  // kNotSetUp
    }
    if (x.numNodes != numNodes_ || x.dim != dim_ || x.data == nullptr) {
        stats.status = UpdateStatus::kWrongNodeCount;
        return stats;
    }
    stats.status = UpdateStatus::kOk;
    computeBoxes(x, stats);
    if (stats.status != UpdateStatus::kOk) {
        pairs_.count = 0;
        haveList_ = false;
        return stats;
    }
    const auto t0 = Clock::now();
    if (!haveList_ || !boxesInsideFatBoxes()) {
        rebuildCandidates();
        stats.rebuilt = true;
    }
    stats.listSize = static_cast<long long>(candMasters_.size());
    stats.timeBroad = msSince(t0);
    narrowPhase(x, stats);
    if (options_.mode == SearchMode::kNodeToSegment) {
        projectNodes(x, stats);
    } else {
        collectSegmentPairs(stats);
    }
    return stats;
}

std::size_t ContactSearch::memoryBytes() const noexcept {
    const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    std::size_t total = broad_.memoryBytes();
    total += static_cast<std::size_t>(masterLo_.size() * 4 + slaveLo_.size() * 4) * sizeof(double);
    total += bytes(masterObb3_) + bytes(masterObb2_) + bytes(slaveObb3_) + bytes(slaveObb2_);
    total += bytes(candOffsets_) + bytes(candMasters_) + bytes(survivors_) + bytes(survivorCount_);
    total += bytes(exclOffsets_) + bytes(exclNodes_) + bytes(slaveNodes_);
    for (const auto& v : threadPairs_) {
        total += bytes(v);
    }
    return total;
}

}  // namespace contact
