// SPDX-License-Identifier: MIT
#include "contact/contact_search.hpp"

#include "contact/bounds.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"

#include "detail/geometry_checks.hpp"
#include "detail/pair_store.hpp"
#include "detail/search_common.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

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

// A fat box: float box b grown by h, rounded outward (it encloses the box b came from, grown by h).
FloatBox grownFloatBox(const FloatBox& b, double h) noexcept {
    const double lo[3] = {b.lo[0], b.lo[1], b.lo[2]};
    const double hi[3] = {b.hi[0], b.hi[1], b.hi[2]};
    return floatBoxOutward(lo, hi, h);
}

// A slave segment's fat box from its buffered AABB: rounded outward to float, as the master boxes
// are kept, then grown like them (grownFloatBox).
FloatBox slaveFatOf(const Aabb3& box, double h) noexcept {
    return grownFloatBox(floatBoxOutward(box.lo.data(), box.hi.data()), h);
}

}  // namespace

const char* updateStatusName(UpdateStatus s) noexcept {
    switch (s) {
    case UpdateStatus::kOk: return "ok";
    case UpdateStatus::kNotSetUp: return "not set up";
    case UpdateStatus::kWrongNodeCount: return "wrong node count";
    case UpdateStatus::kBadCoordinateView: return "bad coordinate view";
    case UpdateStatus::kNonFiniteCoordinates: return "non-finite coordinates";
    case UpdateStatus::kCoordinatesOutOfRange: return "coordinates out of range";
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

void ContactSearch::setSurfaces(Surface master, Surface slave, const CoordinatesView& x) {
    setup("contact::ContactSearch::setSurfaces()", master, slave, nullptr, x);
}

void ContactSearch::setSurfaces(Surface master, std::vector<Index> slaveNodes,
                                const CoordinatesView& x) {
    Surface noSegments;
    noSegments.name = "slave nodes";
    setup("contact::ContactSearch::setSurfaces()", master, noSegments, &slaveNodes, x);
}

const NodePairs& ContactSearch::nodePairs() const {
    if (options_.mode != SearchMode::kNodeToSegment) {
        throw std::logic_error("contact::ContactSearch::nodePairs(): the search runs in "
                               "segment-to-segment mode; its pairs are segmentPairs()");
    }
    return nodePairs_;
}

const SegmentPairs& ContactSearch::segmentPairs() const {
    if (options_.mode != SearchMode::kSegmentToSegment) {
        throw std::logic_error("contact::ContactSearch::segmentPairs(): the search runs in "
                               "node-to-segment mode; its pairs are nodePairs()");
    }
    return segmentPairs_;
}

// master and slave are the caller's copies, moved in once every check has passed.
void ContactSearch::setup(const char* kFn, Surface& master, Surface& slave,
                          const std::vector<Index>* nodeList, const CoordinatesView& x) {
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string(kFn) + ": coordinates: " + bad);
    }
    detail::validateSurface(kFn, "master", master, x);
    detail::validateSurface(kFn, "slave", slave, x);
    if (nodeList != nullptr) {
        detail::validateNodes(kFn, *nodeList, x);
        if (options_.mode != SearchMode::kNodeToSegment) {
            throw std::invalid_argument(std::string(kFn) +
                                        ": a slave given as nodes needs node-to-segment mode");
        }
    }
    // Every check before any state changes: a refused model leaves the search as it was.
    const double meanMasterSize = detail::meanSegmentSize(master, x);
    const double capture = detail::resolveCapture(kFn, options_, meanMasterSize);
    if (!(options_.skinRelative * meanMasterSize <= tol::kMaxCoordinate)) {
        throw std::invalid_argument(std::string(kFn) + ": the skin (skinRelative x mean master "
                                                       "segment size) must be at most 1e30");
    }
    detail::checkInterface(kFn, master, slave, options_.selfContact, x, capture);
    sameSurface_ = nodeList == nullptr && detail::sameSurface(master, slave);
    master_ = std::move(master);
    slave_ = sameSurface_ ? Surface{} : std::move(slave);
    setUp_ = true;
    dim_ = x.dim;
    numNodes_ = x.numNodes;
    meanMasterSize_ = meanMasterSize;
    capture_ = capture;
    skin_ = options_.skinRelative * meanMasterSize_;
    haveList_ = false;

    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    slaveNodes_ = !nodeMode             ? std::vector<Index>{}
                  : nodeList != nullptr ? detail::sortedUnique(*nodeList)
                                        : detail::uniqueNodes(this->slave());
    numSlaveItems_ = nodeMode ? static_cast<Index>(slaveNodes_.size()) : this->slave().size();

    const Index m = master_.size();
    const Index s = numSlaveItems_;
    // The master boxes are kept as floats rounded outward (half the memory; segment mode decides
    // the rare pair they cannot tell from the coordinates). The slave boxes are not kept: the
    // narrow phase makes each slave segment's boxes when it reaches it.
    masterBox_.assign(m, FloatBox{});
    // With the kd-tree the fat boxes live in the tree (kdTree_.floatBox); masterFat_ only carries
    // them into a rebuild. One surface in segment mode: the slave fat boxes are the master ones.
    masterFat_.assign(options_.broadPhase == BroadPhaseKind::kKdTree ? 0 : m, FloatBox{});
    slaveFat_.assign(nodeMode || sameSurface_ ? 0 : s, FloatBox{});
    slaveRef_.assign(nodeMode ? 3 * static_cast<std::size_t>(s) : 0, 0.0F);
    masterObb3_.assign(dim_ == 3 && !nodeMode ? m : 0, PackedObb3{});
    masterCentredObb3_.assign(dim_ == 3 && nodeMode ? m : 0, CentredObb3{});
    masterObb2_.assign(dim_ == 2 ? m : 0, Obb2{});
    candOffsets_.clear();
    candMasters_.clear();
    candCode_.clear();
    listCount_ = 0;
    survivor_.clear();
    threadOrder_.resize(options_.threads);
    // Blocks of slave items for the threads: at least 16 per thread where the items allow (64
    // items or more each), so the dynamic schedule balances them on small surfaces; at most 1024.
    pairBlock_ = std::clamp<Index>(s / (16 * options_.threads), 64, 1024);
    const auto blocks = static_cast<std::size_t>((s + pairBlock_ - 1) / pairBlock_);
    blockPairs_.assign(blocks, 0);
    candBlock_.assign(blocks + 1, 0);
    candFirst_.assign(nodeMode ? 0 : blocks + 1, 0);
    exclCode_.clear();
    exclBlock_.clear();
    if (options_.selfContact && nodeMode) {
        std::vector<Index> offsets;
        std::vector<Index> nodes;
        detail::exclusionSets(this->slave(), slaveNodes_, numNodes_, true, offsets, nodes);
        exclBlock_.assign(blocks + 1, 0);
        detail::CandidateWriter writer(exclCode_, exclBlock_.data(), pairBlock_);
        for (Index k = 0; k < s; ++k) {
            writer.node(k, nodes.data() + offsets[k], nodes.data() + offsets[k + 1]);
        }
        exclBlock_.back() = exclCode_.size();
        exclCode_.shrink_to_fit();
    }
    detail::PairStore::reserve(nodePairs_, nodeMode ? s : 0);
    detail::PairStore::setCount(segmentPairs_, 0);
}

// Boxes of every master segment at the current coordinates: AABB and OBB buffered by capture +
// rounding pad, kept. Slave segments: the AABB, for the checks only (the narrow phase makes them
// again). Flags non-finite coordinates and boxes out of range, and gives the largest |box end|
// (|slave node coordinate|), pass.boxEnd. With a candidate list, also checks the Verlet condition
// in the same pass: pass.insideFat = every current box (slave node) lies inside its fat box of the
// last build; without one, makes the slave fat boxes (pass.slaveFatMade).
void ContactSearch::computeBoxes(const CoordinatesView& x, UpdateStats& stats, BoxPass& pass) {
    const auto t0 = Clock::now();
    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    const Surface& master = master_;
    const Surface& slave = this->slave();
    const Index m = master.size();
    const Index s = numSlaveItems_;
    const double capture = capture_;
    const bool check = haveList_ && skin_ > 0.0;  // skin 0: rebuild every update (SearchOptions)
    const bool kd = options_.broadPhase == BroadPhaseKind::kKdTree;
    // Node mode, while the list is reused: the master OBBs keep the axes and centre offset of an
    // earlier update and only their extents follow the segments (no face frame, no quaternion). The
    // result does not depend on them: any box that encloses the buffered segment makes
    // projectNodes' OBB test and lower bound valid (see there), so the pairs stay those of a fresh
    // search; only the OBB survivor count may differ. The axes are renewed on the first update
    // after a rebuild, so they are never older than one list. Segment mode: the SAT verdict on the
    // OBBs defines the pairs, so its axes are always the face frame of now.
    const bool keepAxes = nodeMode && check && keepAxes_;
    const double nodeReach = slaveReach_;
    // Segment mode without a list to check (a rebuild follows): the slave fat boxes are made here.
    const double h = 0.5 * skin_;
    // Segment mode, one surface: the slave segments are the master ones, checked in the first loop.
    const Index slaveLoop = !nodeMode && sameSurface_ ? 0 : s;
    int finite = 1;
    double largest = 0.0;  // largest |box end| (|slave node coordinate|); NaN is flagged by finite
    int inside = 1;
#pragma omp parallel num_threads(options_.threads) reduction(min                                   \
                                                             : finite, inside)                     \
    reduction(max                                                                                  \
              : largest)
    {
#pragma omp for schedule(static)
        for (Index j = 0; j < m; ++j) {
            const SegmentNodes seg = gatherSegment(master, j, x);
            double pad = 0.0;
            const Aabb3 box = detail::bufferedAabb(seg, capture, pad);
            masterBox_[j] = floatBoxOutward(box.lo.data(), box.hi.data());
            if (dim_ == 2) {
                masterObb2_[j] = detail::bufferedObb2(seg, capture, pad);
            } else if (nodeMode) {
                CentredObb3& obb = masterCentredObb3_[j];
                const CentredObb3 kept = obb;
                obb = detail::centredBufferedObb3(seg, capture, pad, masterBox_[j],
                                                  keepAxes ? &kept : nullptr);
            } else {
                masterObb3_[j] = detail::packedBufferedObb3(seg, capture, pad);
            }
            finite = std::min(finite, int(box.lo.allFinite() && box.hi.allFinite()));
            largest =
                std::max({largest, box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff()});
            if (check) {
                const FloatBox& fat = kd ? kdTree_.floatBox(j) : masterFat_[j];
                inside = std::min(inside, int(insideFloatBox(box.lo.data(), box.hi.data(), fat)));
            }
        }
#pragma omp for schedule(static)
        for (Index k = 0; k < slaveLoop; ++k) {
            if (nodeMode) {
                const Eigen::Vector3d p = x.node(slaveNodes_[k]);
                finite = std::min(finite, int(p.allFinite()));
                largest = std::max(largest, p.cwiseAbs().maxCoeff());
                if (check) {
                    const float* ref = &slaveRef_[3 * static_cast<std::size_t>(k)];
                    inside = std::min(inside, int(std::abs(p[0] - ref[0]) <= nodeReach) &
                                                  int(std::abs(p[1] - ref[1]) <= nodeReach) &
                                                  int(std::abs(p[2] - ref[2]) <= nodeReach));
                }
                continue;
            }
            double pad = 0.0;
            const Aabb3 box = detail::bufferedAabb(gatherSegment(slave, k, x), capture, pad);
            finite = std::min(finite, int(box.lo.allFinite() && box.hi.allFinite()));
            largest =
                std::max({largest, box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff()});
            if (check) {
                inside = std::min(inside,
                                  int(insideFloatBox(box.lo.data(), box.hi.data(), slaveFat_[k])));
            } else {
                slaveFat_[k] = slaveFatOf(box, h);
            }
        }
    }
    if (finite == 0) {
        stats.status = UpdateStatus::kNonFiniteCoordinates;
    } else if (largest > tol::kMaxBoxEnd) {
        stats.status = UpdateStatus::kCoordinatesOutOfRange;
    }
    pass.boxEnd = largest;
    pass.insideFat = check && inside == 1;
    pass.slaveFatMade = !check && !nodeMode;
    stats.timeBounds = msSince(t0);
}

// The Verlet argument: the list holds every pair whose fat boxes overlap (the trees and the sweep
// report every pair of overlapping float boxes: BroadPhase, BoxTree, BoxSweep). A fat box is the
// box at the last build grown by skin / 2 and rounded outward to float, so it encloses that box.
// If every current box still lies inside its fat box (checked exactly, double against float, in
// computeBoxes), any pair of boxes that overlap now share a point that lies in both fat boxes, so
// the pair is in the list. Node movement below skin / 2 is the special case of a point box.
//
// rebuild: fat boxes -> candidate pairs of overlapping fat boxes, from the sort and sweep
// (sweepCandidates) or a tree (treeCandidates) -> self-contact filter (allowed) -> the list coded
// by slave item in slave order, each item's masters ascending, whatever the thread count (segment
// mode's pairs come out ordered by (slave, master); node mode chooses the closest point by the
// strict order detail::closer). Returns true when the sweep built the list.
bool ContactSearch::rebuildCandidates(const CoordinatesView& x, const BoxPass& pass) {
    const double h = 0.5 * skin_;
    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    const Surface& master = master_;
    const Index m = master.size();
    const Index s = numSlaveItems_;
    masterFat_.resize(static_cast<std::size_t>(m));
    double refError = 0.0;  // node mode: largest |p - ref| over the slave nodes (exact)
    double refScale = 0.0;  // and largest |ref|
    // Segment mode: a bound of |end| of the fat boxes: the largest |end| of the boxes now plus h,
    // grown by far more than the float rounding of the ends (2^-23 of them). Until the next rebuild
    // every box lies inside its fat box (computeBoxes checks it), so this bounds the ends of the
    // float boxes (boxScale_, for detail::boxMargin).
    boxScale_ = (pass.boxEnd + h) * (1.0 + 0x1p-20);
    const Surface& slave = this->slave();
    const double capture = capture_;
    // Segment mode: the slave fat boxes, unless computeBoxes made them (or they are the master's).
    const Index slaveLoop = nodeMode ? s : pass.slaveFatMade || sameSurface_ ? 0 : s;
#pragma omp parallel num_threads(options_.threads)
    {
#pragma omp for schedule(static)
        for (Index j = 0; j < m; ++j) {
            masterFat_[j] = grownFloatBox(masterBox_[j], h);
        }
#pragma omp for schedule(static) reduction(max : refError, refScale)
        for (Index k = 0; k < slaveLoop; ++k) {
            if (nodeMode) {
                const Eigen::Vector3d p = x.node(slaveNodes_[k]);
                float* ref = &slaveRef_[3 * static_cast<std::size_t>(k)];
                for (int d = 0; d < 3; ++d) {
                    ref[d] = static_cast<float>(p[d]);
                    refError = std::max(refError, std::abs(p[d] - static_cast<double>(ref[d])));
                    refScale = std::max(refScale, std::abs(static_cast<double>(ref[d])));
                }
            } else {
                double pad = 0.0;
                const Aabb3 box = detail::bufferedAabb(gatherSegment(slave, k, x), capture, pad);
                slaveFat_[k] = slaveFatOf(box, h);
            }
        }
    }
    // Node fat boxes (slaveFatBox): ref -+ slaveHalf_ rounded in double, then outward to float.
    // p - ref is exact (a float holds 24 bits of p). The margin, 2^-50 of the largest value in
    // play, is above every double rounding here (2^-53 of it), so the box holds every point within
    // skin / 2 of p, and computeBoxes' check |p - ref| <= slaveReach_ (rounded) keeps p inside it.
    const double margin = 0x1p-50 * (refScale + h + refError);
    slaveHalf_ = h + refError + 2.0 * margin;
    slaveReach_ = slaveHalf_ - margin;
    const bool sweep = options_.broadPhase == BroadPhaseKind::kSweep;
    if (sweep && nodeMode) {  // the sweep takes the slave boxes whole, for this rebuild only
        slaveFat_.resize(static_cast<std::size_t>(s));
        for (Index k = 0; k < s; ++k) {
            slaveFat_[k] = slaveFatBox(k);
        }
    }
    const bool swept = sweep && sweep_.prepareIfFast(
                                    masterFat_, !nodeMode && sameSurface_ ? masterFat_ : slaveFat_);
    if (swept) {
        tree_ = BoxTree{};  // a tree left from a fallback rebuild
        sweepCandidates();
    } else {
        treeCandidates();
    }
    if (nodeMode) {
        std::vector<FloatBox>().swap(slaveFat_);
    }
    const auto trim = [](auto& v) {
        if (v.capacity() > v.size() + v.size() / 8) {
            v.shrink_to_fit();
        }
    };
    trim(candCode_);
    if (!nodeMode) {
        survivor_.resize(candFirst_.back() / 8);
        trim(survivor_);
    }
    haveList_ = true;
    return swept;
}

// Slave item k's fat box of the last build; node mode: made from the node's (see
// rebuildCandidates).
FloatBox ContactSearch::slaveFatBox(Index k) const noexcept {
    if (options_.mode == SearchMode::kSegmentToSegment) {
        if (!sameSurface_) {
            return slaveFat_[k];
        }
        return options_.broadPhase == BroadPhaseKind::kKdTree ? kdTree_.floatBox(k) : masterFat_[k];
    }
    const float* ref = &slaveRef_[3 * static_cast<std::size_t>(k)];
    FloatBox b;
    for (int d = 0; d < 3; ++d) {
        b.lo[d] = floatDown(static_cast<double>(ref[d]) - slaveHalf_);
        b.hi[d] = floatUp(static_cast<double>(ref[d]) + slaveHalf_);
    }
    return b;
}

// Self-contact exclusion sets of the slave items, in item order from any block start: node k's
// from the code (read afresh at each block's first node), segment k's its own nodes. Sorted.
class ContactSearch::Exclusions {
public:
    explicit Exclusions(const ContactSearch& search) noexcept : search_(search) {}
    // Item k's set; the item before k was the last one loaded, or k starts a block.
    const std::vector<Index>& load(Index k) {
        set_.clear();
        const ContactSearch& cs = search_;
        if (!cs.options_.selfContact) {
            return set_;
        }
        if (cs.options_.mode == SearchMode::kSegmentToSegment) {
            const Index* n = cs.slave().nodes(k);
            set_.assign(n, n + nodeCount(cs.slave().types[k]));
            std::sort(set_.begin(), set_.end());
            return set_;
        }
        if (k % cs.pairBlock_ == 0) {
            reader_ =
                detail::CandidateReader(cs.exclCode_.data() + cs.exclBlock_[k / cs.pairBlock_]);
        }
        for (Index c = reader_.beginNode(); c > 0; --c) {
            set_.push_back(reader_.next());
        }
        return set_;
    }

private:
    const ContactSearch& search_;
    detail::CandidateReader reader_{nullptr};
    std::vector<Index> set_;
};

// Self-contact filter of a candidate (slave item k, master j): with one surface each segment pair
// once (slave index < master index, segment mode), and never a master sharing a node with the
// item's exclusion set (Exclusions::load(k)).
bool ContactSearch::allowed(Index k, Index j, const std::vector<Index>& excluded) const noexcept {
    if (!options_.selfContact) {
        return true;
    }
    if (sameSurface_ && options_.mode == SearchMode::kSegmentToSegment && k >= j) {
        return false;
    }
    return !detail::sharesNode(master_, j, excluded.data(), excluded.data() + excluded.size());
}

// The candidate list from a tree over the master fat boxes (kd-tree or BoxTree), queried by every
// slave fat box: slave items in contiguous chunks of whole blocks of pairBlock_ items (each block's
// code starts afresh), taken dynamically by the threads (the work per item varies across the
// surface); one chunk, written straight into the list, with one thread. Chunks are concatenated in
// order, so the list is the same whatever the thread count.
void ContactSearch::treeCandidates() {
    const bool nodeMode = options_.mode == SearchMode::kNodeToSegment;
    const Index s = numSlaveItems_;
    const bool kd = options_.broadPhase == BroadPhaseKind::kKdTree;
    if (kd) {
        kdTree_.build(masterFat_, options_.threads);
        std::vector<FloatBox>().swap(masterFat_);  // the tree keeps them
    } else {
        tree_.build(masterFat_);
    }
    threadHits_.resize(options_.threads);
    const int nt = options_.threads;
    const Index blocks = (s + pairBlock_ - 1) / pairBlock_;
    const Index chunks = nt == 1 ? 1 : std::min<Index>(std::max<Index>(blocks, 1), 64 * nt);
    // Room for a list like the last one, so the list is not regrown (and over-allocated) by
    // doubling every rebuild. With chunks, the list keeps its length until they are copied in.
    const std::size_t lastTotal = candCode_.size();
    if (chunks == 1) {
        candCode_.clear();
        candCode_.reserve(lastTotal + lastTotal / 16);
    }
    const std::size_t chunkGuess = lastTotal / static_cast<std::size_t>(chunks) + 64;
    const auto chunkBegin = [&](Index chunk) {  // slave items [chunkBegin(c), chunkBegin(c + 1))
        const long long first = static_cast<long long>(blocks) * chunk / chunks * pairBlock_;
        return static_cast<Index>(std::min<long long>(s, first));
    };
    threadCode_.resize(static_cast<std::size_t>(chunks));
    long long listed = 0;
#pragma omp parallel num_threads(nt) reduction(+ : listed)
    {
        // This thread's buffers as locals: the vector headers of neighbouring threads (and
        // chunks) share cache lines, and every push_back writes its header (false sharing).
        const int t = threadIndex();
        std::vector<Index> hits;
        hits.swap(threadHits_[t]);
        std::vector<Index> out;          // one item's masters
        std::vector<std::uint8_t> code;  // the chunk's code
        if (chunks > 1) {
            code.reserve(chunkGuess);
        }
#pragma omp for schedule(dynamic, 1)
        for (Index chunk = 0; chunk < chunks; ++chunk) {
            std::vector<std::uint8_t>& bytes = chunks == 1 ? candCode_ : code;
            detail::CandidateWriter writer(bytes, candBlock_.data(), pairBlock_);
            Exclusions exclusions(*this);
            const Index end = chunkBegin(chunk + 1);
            std::size_t inBlock = 0;  // segment mode: candidates of the block so far
            for (Index k = chunkBegin(chunk); k < end; ++k) {
                out.clear();
                const std::vector<Index>& excluded = exclusions.load(k);
                const auto visit = [&](Index j) {
                    if (allowed(k, j, excluded)) {
                        out.push_back(j);
                    }
                };
                const FloatBox q = slaveFatBox(k);
                if (kd) {
                    hits.clear();
                    kdTree_.query(Eigen::Vector3d(q.lo[0], q.lo[1], q.lo[2]),
                                  Eigen::Vector3d(q.hi[0], q.hi[1], q.hi[2]), hits);
                    for (const Index j : hits) {
                        visit(j);
                    }
                } else {
                    tree_.query(q, visit);
                }
                listed += static_cast<long long>(out.size());
                inBlock += out.size();
                if (!nodeMode && ((k + 1) % pairBlock_ == 0 || k + 1 == end)) {
                    candFirst_[k / pairBlock_ + 1] = inBlock;  // for its first survivor slot
                    inBlock = 0;
                }
                writer.node(k, out.data(), out.data() + out.size());
            }
            if (chunks > 1) {  // handed over whole; a fresh buffer next
                threadCode_[chunk].swap(code);
                code.clear();
                code.reserve(chunkGuess);
            }
        }
        threadHits_[t].swap(hits);
    }
    listCount_ = listed;
    firstSlots();
    if (chunks == 1) {
        candBlock_.back() = candCode_.size();
        return;
    }
    // Each chunk's first byte from the sizes of the chunks before; then, on the threads, each
    // chunk's code goes into place.
    std::vector<std::size_t> chunkStart(static_cast<std::size_t>(chunks) + 1, 0);
    for (Index chunk = 0; chunk < chunks; ++chunk) {
        chunkStart[chunk + 1] = chunkStart[chunk] + threadCode_[chunk].size();
    }
    candCode_.resize(chunkStart[chunks]);
    candBlock_.back() = chunkStart[chunks];
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (Index chunk = 0; chunk < chunks; ++chunk) {
        const Index begin = chunkBegin(chunk);
        const Index end = chunkBegin(chunk + 1);
        for (Index b = begin / pairBlock_; b < (end + pairBlock_ - 1) / pairBlock_; ++b) {
            candBlock_[b] += chunkStart[chunk];
        }
        std::vector<std::uint8_t>& part = threadCode_[chunk];
        std::copy(part.begin(), part.end(),
                  candCode_.begin() + static_cast<std::ptrdiff_t>(chunkStart[chunk]));
        std::vector<std::uint8_t>().swap(part);  // copied: free it
    }
}

// Segment mode: candFirst_[b + 1] holds block b's candidate count; made the first survivor slot
// of each block (and the total at the end), at a multiple of 8, so blocks share no byte of flags.
void ContactSearch::firstSlots() {
    for (std::size_t b = 1; b < candFirst_.size(); ++b) {
        candFirst_[b] = candFirst_[b - 1] + (candFirst_[b] + 7) / 8 * 8;
    }
}

// After the sweep: the CSR list it wrote becomes the code of detail::CandidateReader, and the CSR
// is freed.
void ContactSearch::encodeList() {
    candCode_.clear();
    detail::CandidateWriter writer(candCode_, candBlock_.data(), pairBlock_);
    Index* list = candMasters_.data();
    for (Index k = 0; k < numSlaveItems_; ++k) {
        writer.node(k, list + candOffsets_[k], list + candOffsets_[k + 1]);
    }
    for (std::size_t b = 1; b < candFirst_.size(); ++b) {  // segment mode: counts per block
        const auto end = std::min<std::size_t>(b * pairBlock_, numSlaveItems_);
        candFirst_[b] = candOffsets_[end] - candOffsets_[(b - 1) * pairBlock_];
    }
    candBlock_.back() = candCode_.size();
    listCount_ = static_cast<long long>(candMasters_.size());
    firstSlots();
    std::vector<Index>().swap(candOffsets_);
    std::vector<Index>().swap(candMasters_);
}

// The candidate list from the prepared sweep (master fat boxes against slave fat boxes). The sweep
// reports pairs in sweep order, not by slave item, so one pass counts each item's candidates and a
// second writes them into their slots; the sweep is then freed, and the list coded.
void ContactSearch::sweepCandidates() {
    const Index s = numSlaveItems_;
    candOffsets_.assign(static_cast<std::size_t>(s) + 1, 0);
    const std::vector<Index> none;
    sweep_.forEachPair([&](Index j, Index k) {
        if (allowed(k, j, none)) {
            ++candOffsets_[k + 1];
        }
    });
    // candOffsets_[k + 1] = first slot of item k; the fill advances it to the item's end, which is
    // the first slot of item k + 1.
    Index total = 0;
    for (Index k = 0; k < s; ++k) {
        const Index count = candOffsets_[k + 1];
        candOffsets_[k + 1] = total;
        total += count;
    }
    candMasters_.resize(static_cast<std::size_t>(total));
    sweep_.forEachPair([&](Index j, Index k) {
        if (allowed(k, j, none)) {
            candMasters_[candOffsets_[k + 1]++] = j;
        }
    });
    sweep_.release();
    if (options_.selfContact) {
        // The exclusion sets are read in item order: the lists are filtered in place afterwards.
        Exclusions exclusions(*this);
        Index kept = 0;
        Index from = 0;
        for (Index k = 0; k < s; ++k) {
            const std::vector<Index>& excluded = exclusions.load(k);
            const Index to = candOffsets_[k + 1];
            for (Index c = from; c < to; ++c) {
                if (allowed(k, candMasters_[c], excluded)) {
                    candMasters_[kept++] = candMasters_[c];
                }
            }
            from = to;
            candOffsets_[k + 1] = kept;
        }
        candMasters_.resize(static_cast<std::size_t>(kept));
    }
    encodeList();
}

// Segment mode: the buffered AABBs of slave segment k and master j, in double as the search makes
// them before rounding them to float, overlap. For the rare pair whose float boxes cannot tell.
bool ContactSearch::exactBoxesOverlap(Index k, Index j, const CoordinatesView& x) const noexcept {
    double pad = 0.0;
    const Aabb3 a = detail::bufferedAabb(gatherSegment(slave(), k, x), capture_, pad);
    const Aabb3 b = detail::bufferedAabb(gatherSegment(master_, j, x), capture_, pad);
    return !(a.lo.array() > b.hi.array()).any() && !(b.lo.array() > a.hi.array()).any();
}

// Segment mode narrow phase: for every listed pair, the exact buffered-AABB test, then the OBB
// SAT (4 or 15 axes; in 3D first a point common to both boxes, detail::overlapWitness, which
// settles most overlapping pairs without the master's axes). A slave segment's boxes are made
// once, when the walk reaches it. The AABBs are compared in float, rounded outward: they decide
// unless the double boxes are within a float rounding of touching (detail::floatBoxVerdict), and
// then the double boxes are made again and compared. One survivor bit per candidate; each block of
// slave items has whole bytes of them, so threads never share output.
void ContactSearch::narrowPhase(const CoordinatesView& x, UpdateStats& stats) {
    const auto t0 = Clock::now();
    long long candidates = 0;
    long long survivors = 0;
    const auto blocks = static_cast<Index>(candFirst_.size()) - 1;
    const float margin = detail::boxMargin(boxScale_);
#pragma omp parallel for num_threads(options_.threads) schedule(dynamic, 1) \
    reduction(+ : candidates, survivors)
    for (Index block = 0; block < blocks; ++block) {
        detail::CandidateReader list(candCode_.data() + candBlock_[block]);
        std::size_t c = candFirst_[block];
        Index found = 0;
        std::fill(survivor_.begin() + static_cast<std::ptrdiff_t>(c / 8),
                  survivor_.begin() + static_cast<std::ptrdiff_t>(candFirst_[block + 1] / 8), 0);
        const Index end = std::min(numSlaveItems_, (block + 1) * pairBlock_);
        for (Index k = block * pairBlock_; k < end; ++k) {
            Index n = list.beginNode();
            if (n == 0) {
                continue;
            }
            // Slave segment k's boxes, as computeBoxes makes the masters' (with one surface,
            // they are master k's).
            FloatBox slaveBox;
            Obb3 slaveObb;
            Obb2 slaveObb2;
            if (sameSurface_) {
                slaveBox = masterBox_[k];
                if (dim_ == 3) {
                    slaveObb = detail::unpackObb(masterObb3_[k]);
                } else {
                    slaveObb2 = masterObb2_[k];
                }
            } else {
                const SegmentNodes seg = gatherSegment(slave(), k, x);
                double pad = 0.0;
                const Aabb3 box = detail::bufferedAabb(seg, capture_, pad);
                slaveBox = floatBoxOutward(box.lo.data(), box.hi.data());
                if (dim_ == 3) {
                    slaveObb = detail::unpackObb(detail::packedBufferedObb3(seg, capture_, pad));
                } else {
                    slaveObb2 = detail::bufferedObb2(seg, capture_, pad);
                }
            }
            for (; n > 0; --n, ++c) {
                const Index j = list.next();
                const detail::BoxVerdict boxes =
                    detail::floatBoxVerdict(slaveBox, masterBox_[j], margin);
                if (boxes == detail::BoxVerdict::kApart ||
                    (boxes == detail::BoxVerdict::kUnsure && !exactBoxesOverlap(k, j, x))) {
                    continue;
                }
                ++candidates;
                const bool overlap =
                    dim_ == 3 ? detail::overlapWitness(slaveObb, masterObb3_[j]) ||
                                    satOverlap3d(slaveObb, detail::unpackObb(masterObb3_[j]))
                              : satOverlap2d(slaveObb2, masterObb2_[j]);
                if (!overlap) {
                    continue;
                }
                ++found;
                survivor_[c / 8] |= static_cast<std::uint8_t>(1U << (c % 8));
            }
        }
        blockPairs_[block] = found;
        survivors += found;
    }
    stats.candidates = candidates;
    stats.satSurvivors = survivors;
    stats.timeNarrow = msSince(t0);
}

// Node mode, narrow phase and projection in one pass per slave node (no survivor list):
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
// free column. Threads take blocks of pairBlock_ nodes; a block's closest points (slave, master,
// xi, distance, convergence: 33 of the 209 bytes of a pair) go to its own columns from its first
// node's column on; the blocks are closed up (whole runs of columns moved per array,
// detail::compactPairBlocks), and the threads then fill the frames in place, so the order is by
// node whatever the thread count and the large columns are written once.
void ContactSearch::projectNodes(const CoordinatesView& x, UpdateStats& stats) {
    const auto t0 = Clock::now();
    const Surface& master = master_;
    const double capture = capture_;
    long long candidates = 0;
    long long survivors = 0;
    long long projections = 0;
    const bool inOrder = options_.threads == 1;
    const Index s = numSlaveItems_;
    const Index blocks = static_cast<Index>(blockPairs_.size());
    Index next = 0;  // one thread: the next free column
#pragma omp parallel num_threads(options_.threads) reduction(+ : candidates, survivors, projections)
    {
        // A local, not a reference into threadOrder_: no shared cache line written per push_back.
        std::vector<std::pair<double, Index>> order;
        order.swap(threadOrder_[threadIndex()]);
#pragma omp for schedule(dynamic, 1)
        for (Index block = 0; block < blocks; ++block) {
            const Index begin = block * pairBlock_;
            const Index end = std::min(s, begin + pairBlock_);
            Index col = inOrder ? next : begin;
            detail::CandidateReader list(candCode_.data() + candBlock_[block]);
            for (Index k = begin; k < end; ++k) {
                const Eigen::Vector3d p = x.node(slaveNodes_[k]);
                order.clear();
                for (Index c = list.beginNode(); c > 0; --c) {
                    const Index j = list.next();
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
                    order.emplace_back(std::sqrt(lbSq), j);
                }
                candidates += static_cast<long long>(order.size());
                std::sort(order.begin(), order.end());
                ClosestXi best;
                Index bestJ = kNoIndex;
                for (const auto& [lbBox, j] : order) {
                    if (bestJ != kNoIndex && lbBox > best.distance) {
                        break;
                    }
                    double lbObb = 0.0;
                    const bool in =
                        dim_ == 3 ? detail::obbContains(
                                        detail::unpackObb(masterCentredObb3_[j], masterBox_[j]), p,
                                        capture, lbObb)
                                  : detail::obbContains(masterObb2_[j], p, capture, lbObb);
                    if (!in) {
                        continue;
                    }
                    ++survivors;
                    if (bestJ != kNoIndex && lbObb > best.distance) {
                        continue;
                    }
                    ++projections;
                    const ClosestXi pr = closestXi(gatherSegment(master, j, x), p);
                    if (bestJ == kNoIndex || detail::closer(pr.distance, j, best.distance, bestJ)) {
                        best = pr;
                        bestJ = j;
                    }
                }
                if (bestJ == kNoIndex || best.distance > capture) {
                    continue;
                }
                if (inOrder) {
                    detail::PairStore::store(
                        nodePairs_, col++, slaveNodes_[k], bestJ,
                        projectionAt(gatherSegment(master, bestJ, x), p, best));
                } else {
                    detail::PairStore::storeClosest(nodePairs_, col++, slaveNodes_[k], bestJ, best);
                }
            }
            if (inOrder) {
                next = col;
            } else {
                blockPairs_[block] = col - begin;
            }
        }
        threadOrder_[threadIndex()].swap(order);
    }
    const Index count = inOrder ? next
                                : detail::PairStore::compactBlocks(nodePairs_, blockPairs_,
                                                                   pairBlock_, options_.threads);
    if (!inOrder) {
        // The closed-up closest points get their frames in place, each column by one thread.
#pragma omp parallel for num_threads(options_.threads) schedule(static)
        for (Index i = 0; i < count; ++i) {
            const ClosestXi c = detail::PairStore::loadClosest(nodePairs_, i);
            const Index j = detail::PairStore::masterAt(nodePairs_, i);
            const Index k = detail::PairStore::slaveAt(nodePairs_, i);
            detail::PairStore::store(nodePairs_, i, k, j,
                                     projectionAt(gatherSegment(master, j, x), x.node(k), c));
        }
    }
    ProjectionStatus worst = ProjectionStatus::kConverged;
    for (Index i = 0; i < count; ++i) {
        worst = std::max(worst, detail::PairStore::statusAt(nodePairs_, i));
    }
    detail::PairStore::setCount(nodePairs_, count);
    stats.candidates = candidates;
    stats.satSurvivors = survivors;
    stats.projections = projections;
    stats.pairs = count;
    stats.worstProjection = worst;
    stats.timeProjection = msSince(t0);
}

// Segment mode: the surviving pairs of each block go to the columns after those of the blocks
// before it (blockPairs_, the narrow phase's counts), each block by one thread.
void ContactSearch::collectSegmentPairs(UpdateStats& stats) {
    const auto t0 = Clock::now();
    Index count = 0;
    for (Index& b : blockPairs_) {  // counts -> first columns
        const Index n = b;
        b = count;
        count += n;
    }
    detail::PairStore::reserve(segmentPairs_, count);
    const auto blocks = static_cast<Index>(blockPairs_.size());
#pragma omp parallel for num_threads(options_.threads) schedule(dynamic, 1)
    for (Index block = 0; block < blocks; ++block) {
        detail::CandidateReader list(candCode_.data() + candBlock_[block]);
        std::size_t c = candFirst_[block];
        Index col = blockPairs_[block];
        const Index end = std::min(numSlaveItems_, (block + 1) * pairBlock_);
        for (Index k = block * pairBlock_; k < end; ++k) {
            for (Index n = list.beginNode(); n > 0; --n, ++c) {
                const Index j = list.next();
                if ((survivor_[c / 8] >> (c % 8) & 1U) != 0) {
                    detail::PairStore::set(segmentPairs_, col++, k, j);
                }
            }
        }
    }
    detail::PairStore::setCount(segmentPairs_, count);
    stats.pairs = count;
    stats.timeProjection = msSince(t0);
}

UpdateStats ContactSearch::update(const CoordinatesView& x) {
    UpdateStats stats;
    if (!setUp_) {
        return stats;  // kNotSetUp
    }
    if (x.problem() != nullptr) {
        stats.status = UpdateStatus::kBadCoordinateView;
        return stats;
    }
    if (x.numNodes != numNodes_ || x.dim != dim_) {
        stats.status = UpdateStatus::kWrongNodeCount;
        return stats;
    }
    stats.status = UpdateStatus::kOk;
    BoxPass pass;
    computeBoxes(x, stats, pass);
    if (stats.status != UpdateStatus::kOk) {  // the pairs stay those of the last good update
        haveList_ = false;
        return stats;
    }
    const auto t0 = Clock::now();
    if (!pass.insideFat) {
        stats.swept = rebuildCandidates(x, pass);
        stats.rebuilt = true;
    }
    stats.listSize = listCount_;
    stats.timeBroad = msSince(t0);
    if (options_.mode == SearchMode::kNodeToSegment) {
        projectNodes(x, stats);
    } else {
        narrowPhase(x, stats);
        collectSegmentPairs(stats);
    }
    keepAxes_ = !stats.rebuilt;  // after a rebuild, the next update renews the OBB axes
    return stats;
}

std::size_t ContactSearch::memoryBytes() const noexcept {
    const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    std::size_t total = options_.broadPhase == BroadPhaseKind::kKdTree
                            ? kdTree_.memoryBytes()
                            : tree_.memoryBytes() + sweep_.memoryBytes();
    total += bytes(masterBox_) + bytes(masterFat_) + bytes(slaveFat_) + bytes(slaveRef_);
    total += bytes(masterObb3_) + bytes(masterCentredObb3_) + bytes(masterObb2_);
    total += bytes(candOffsets_) + bytes(candMasters_) + bytes(candCode_) + bytes(candBlock_) +
             bytes(candFirst_) + bytes(survivor_);
    total += bytes(exclCode_) + bytes(exclBlock_) + bytes(slaveNodes_) + bytes(blockPairs_);
    for (const auto& v : threadCode_) {
        total += bytes(v);
    }
    for (const auto& v : threadOrder_) {
        total += bytes(v);
    }
    return total;
}

}  // namespace contact
