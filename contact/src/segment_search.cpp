// SPDX-License-Identifier: MIT
#include "segment_search.hpp"

#include "contact/sat.hpp"
#include "contact/tolerances.hpp"

#include "detail/assert.hpp"
#include "detail/margins.hpp"
#include "detail/pair_store.hpp"
#include "detail/search_common.hpp"
#include "detail/timing.hpp"
#include "orientation.hpp"

#include <algorithm>
#include <cmath>

namespace contact::detail {
namespace {

// A slave segment's fat box from its buffered AABB: rounded outward to float, as the master boxes
// are kept, then grown like them (grownFloatBox).
FloatBox slaveFatOf(const Aabb3& box, double h) noexcept {
    return grownFloatBox(floatBoxOutward(box.lo.data(), box.hi.data()), h);
}

// Self-contact filter of segment mode: segments sharing a node never pair, and with one surface
// each segment pair is listed once (slave index < master index).
class SelfContactFilter {
public:
    SelfContactFilter(const Surface& slave, const Surface& master, bool sameSurface) noexcept
        : slave_(slave), master_(master), sameSurface_(sameSurface) {}
    Index* operator()(Index k, Index* first, Index* last) {
        const Index* n = slave_.nodes(k);
        set_.assign(n, n + nodeCount(slave_.types[k]));
        std::sort(set_.begin(), set_.end());
        const Index* setFirst = set_.data();
        const Index* setLast = set_.data() + set_.size();
        return std::remove_if(first, last, [&](Index j) {
            return (sameSurface_ && k >= j) || sharesNode(master_, j, setFirst, setLast);
        });
    }

private:
    const Surface& slave_;
    const Surface& master_;
    bool sameSurface_;
    std::vector<Index> set_;
};

}  // namespace

void SegmentSearch::setup(const SearchContext& c) {
    c_ = c;
    const Index m = c.master->size();
    const Index s = c.slave->size();
    masterBox_.assign(m, FloatBox{});
    masterObb3_.assign(c.dim == 3 && !c.sameSurface ? m : 0, PackedObb3{});
    sameObb3_.assign(c.dim == 3 && c.sameSurface ? m : 0, CentredObb3{});
    masterObb2_.assign(c.dim == 2 ? m : 0, Obb2{});
    slaveFat_.assign(c.sameSurface ? 0 : s, FloatBox{});
    motion_.setup(*c.master, c.skin > 0.0 && !c.selfContact);  // self-contact: the masters move
    verlet_.setup(c.broadPhase, s, blockSizeFor(s, c.threads));
    survivor_.clear();
    blockPairs_.assign(static_cast<std::size_t>(verlet_.list().blocks()), 0);
    PairStore::setCount(pairs_, 0);
}

void SegmentSearch::update(const CoordinatesView& x, UpdateStats& stats) {
    BoxPass pass;
    computeBoxes(x, stats, pass);
    if (stats.status != UpdateStatus::kOk) {  // the pairs stay those of the last good update
        verlet_.invalidate();
        return;
    }
    const auto t0 = Clock::now();
    if (!pass.inside) {
        stats.swept = rebuild(x, pass);
        stats.rebuilt = true;
    }
    stats.listSize = verlet_.list().size();
    stats.timeBroad = msSince(t0);
    narrowPhase(x, stats);
    collectPairs(stats);
    const auto t1 = Clock::now();
    stats.orientation = judgeSegmentPairs(pairs_, *c_.master, *c_.slave, x, c_.capture);
    stats.timeProjection += msSince(t1);
}

void SegmentSearch::forget() noexcept {
    verlet_.invalidate();
    PairStore::setCount(pairs_, 0);
}

// Boxes of every master segment at the current coordinates: AABB and OBB buffered by capture +
// rounding pad. Slave segments: the AABB, for the checks only (the narrow phase makes them again).
// Flags non-finite coordinates, boxes out of range and degenerate segments (the shapes setSurfaces
// refuses: a folded master's normal would flip its gaps), and gives the largest |box end|,
// pass.boxEnd. With a list, also the Verlet check: pass.inside = every current box lies inside its
// fat box of the last build; without one, makes the slave fat boxes (pass.slaveFatMade). The OBB
// axes are always the face frame of now: the SAT verdict on them defines the pairs.
//
// Two surfaces on a reused list: a master none of whose nodes moved since the last update keeps
// its boxes, the ones made at the same coordinates. They were in range and not degenerate then, so
// the checks need only the boxes made now; their float ends, rounded outward, bound their |end|
// in boxEnd.
void SegmentSearch::computeBoxes(const CoordinatesView& x, UpdateStats& stats, BoxPass& pass) {
    const auto t0 = Clock::now();
    const Surface& master = *c_.master;
    const Surface& slave = *c_.slave;
    const Index m = master.size();
    const double capture = c_.capture;
    const bool check = verlet_.valid() && c_.skin > 0.0;  // skin 0: rebuild every update
    const double h = 0.5 * c_.skin;
    // One surface: the slave segments are the master ones, checked in the first loop.
    const Index slaveLoop = c_.sameSurface ? 0 : slave.size();
    int finite = 1;
    double largest = 0.0;  // largest |box end|; NaN is flagged by finite
    int slavesInside = 1;
    double keptEnd = 0.0;  // largest |float end| of the boxes kept
    Index made = 0;
    // The lowest master and slave made now that shapeFault() refuses (m, slaveLoop: none).
    Index degenerateMaster = m;
    Index degenerateSlave = slaveLoop;
    const bool still = check && motion_.on();
    const Index nm = motion_.nodes();
#pragma omp parallel num_threads(c_.threads) reduction(min                                         \
                                                       : finite, slavesInside, degenerateMaster,   \
                                                         degenerateSlave)                          \
    reduction(max                                                                                  \
              : largest, keptEnd) reduction(+ : made)
    {
#pragma omp for schedule(static)
        for (Index i = 0; i < nm; ++i) {
            motion_.note(i, x);
        }
#pragma omp for schedule(static)
        for (Index j = 0; j < m; ++j) {
            if (still && !motion_.moved(master, j)) {
                const FloatBox& b = masterBox_[j];
                for (int d = 0; d < 3; ++d) {
                    keptEnd = std::max({keptEnd, std::abs(static_cast<double>(b.lo[d])),
                                        std::abs(static_cast<double>(b.hi[d]))});
                }
                continue;
            }
            ++made;
            SegmentNodes seg;
            double pad = 0.0;
            const Aabb3 box = masterBoxes(master, j, x, capture, seg, pad, masterBox_[j],
                                          c_.dim == 2 ? &masterObb2_[j] : nullptr);
            if (c_.dim == 3) {
                if (c_.sameSurface) {
                    sameObb3_[j] = centredBufferedObb3(seg, capture, pad, masterBox_[j], nullptr);
                } else {
                    masterObb3_[j] = packedBufferedObb3(seg, capture, pad);
                }
            }
            noteRange(box, finite, largest);
            if (shapeFault(seg) != kShapeOk) {
                degenerateMaster = std::min(degenerateMaster, j);
            }
        }
#pragma omp for schedule(static)
        for (Index k = 0; k < slaveLoop; ++k) {
            double pad = 0.0;
            const SegmentNodes seg = gatherSegment(slave, k, x);
            const Aabb3 box = bufferedAabb(seg, capture, pad);
            noteRange(box, finite, largest);
            if (shapeFault(seg) != kShapeOk) {
                degenerateSlave = std::min(degenerateSlave, k);
            }
            if (check) {
                slavesInside = std::min(
                    slavesInside, int(insideFloatBox(box.lo.data(), box.hi.data(), slaveFat_[k])));
            } else {
                slaveFat_[k] = slaveFatOf(box, h);
            }
        }
    }
    if (finite == 0) {
        stats.status = UpdateStatus::kNonFiniteCoordinates;
    } else if (largest > tol::kMaxBoxEnd) {
        stats.status = UpdateStatus::kCoordinatesOutOfRange;
    } else if (degenerateMaster < m || degenerateSlave < slaveLoop) {
        stats.status = UpdateStatus::kDegenerateSegment;
        stats.faultInSlave = degenerateMaster == m;
        stats.faultSegment = stats.faultInSlave ? degenerateSlave : degenerateMaster;
    }
    stats.masterBoxes = made;
    pass.boxEnd = std::max(largest, keptEnd);
    pass.inside = check && stats.status == UpdateStatus::kOk && slavesInside == 1 &&
                  verlet_.mastersInside(masterBox_, c_.threads);
    pass.slaveFatMade = !check;
    stats.timeBounds = msSince(t0);
}

// The fat boxes of the masters and slave segments -> the candidate list (VerletCache), each
// slave's masters ascending, in slave order, whatever the thread count (the pairs come out ordered
// by (slave, master)). Returns true when the sweep built the list.
bool SegmentSearch::rebuild(const CoordinatesView& x, const BoxPass& pass) {
    const double h = 0.5 * c_.skin;
    // A bound of |end| of the fat boxes: the largest |end| of the boxes now plus h, grown by far
    // more than the float rounding of the ends. Until the next rebuild every box lies inside its
    // fat box (computeBoxes checks it), so this bounds the ends of the float boxes (boxMargin).
    boxScale_ = (pass.boxEnd + h) * (1.0 + kBoxScaleGrowth);
    const Surface& slave = *c_.slave;
    if (!pass.slaveFatMade && !c_.sameSurface) {
        const Index s = slave.size();
        const double capture = c_.capture;
#pragma omp parallel for num_threads(c_.threads) schedule(static)
        for (Index k = 0; k < s; ++k) {
            double pad = 0.0;
            slaveFat_[k] = slaveFatOf(bufferedAabb(gatherSegment(slave, k, x), capture, pad), h);
        }
    }
    // One surface: the slave fat boxes are the master ones.
    const std::vector<FloatBox> sameFat =
        c_.sameSurface ? fatBoxes(masterBox_, h, c_.threads) : std::vector<FloatBox>{};
    const std::vector<FloatBox>& slaveFat = c_.sameSurface ? sameFat : slaveFat_;
    const auto queryBox = [&slaveFat](Index k) { return slaveFat[k]; };
    bool swept = false;
    if (c_.selfContact) {
        const auto filter = [this] {
            return SelfContactFilter(*c_.slave, *c_.master, c_.sameSurface);
        };
        swept = verlet_.rebuild(masterBox_, h, queryBox, filter, c_.threads);
    } else {
        const auto all = [] {
            return [](Index /*k*/, Index* /*first*/, Index* last) { return last; };
        };
        swept = verlet_.rebuild(masterBox_, h, queryBox, all, c_.threads);
    }
    const CandidateList& list = verlet_.list();
    survivor_.resize(list.firstSlot(list.blocks()) / 8);
    if (survivor_.capacity() > survivor_.size() + survivor_.size() / 8) {
        survivor_.shrink_to_fit();
    }
    return swept;
}

// The buffered AABBs of slave segment k and master j, in double as the search makes them before
// rounding them to float, overlap. For the rare pair whose float boxes cannot tell.
bool SegmentSearch::exactBoxesOverlap(Index k, Index j, const CoordinatesView& x) const noexcept {
    double pad = 0.0;
    const Aabb3 a = bufferedAabb(gatherSegment(*c_.slave, k, x), c_.capture, pad);
    const Aabb3 b = bufferedAabb(gatherSegment(*c_.master, j, x), c_.capture, pad);
    return !(a.lo.array() > b.hi.array()).any() && !(b.lo.array() > a.hi.array()).any();
}

// For every listed pair, the exact buffered-AABB test, then the OBB SAT (4 or 15 axes; in 3D first
// a point common to both boxes, overlapWitness, which settles most overlapping pairs without the
// master's axes). A slave segment's boxes are made once, when the walk reaches it. The AABBs are
// compared in float, rounded outward: they decide unless the double boxes are within a float
// rounding of touching (floatBoxVerdict), and then the double boxes are made again and compared.
// One survivor bit per candidate; each block of slave items has whole bytes of them, so threads
// never share output.
void SegmentSearch::narrowPhase(const CoordinatesView& x, UpdateStats& stats) {
    const auto t0 = Clock::now();
    const CandidateList& list = verlet_.list();
    long long candidates = 0;
    long long survivors = 0;
    const Index blocks = list.blocks();
    const Index blockSize = list.blockSize();
    const Index s = list.items();
    const float margin = boxMargin(boxScale_);
    const Surface& slave = *c_.slave;
    const double capture = c_.capture;
#pragma omp parallel for num_threads(c_.threads) schedule(dynamic, 1) \
    reduction(+ : candidates, survivors)
    for (Index block = 0; block < blocks; ++block) {
        CandidateReader reader = list.reader(block);
        std::size_t c = list.firstSlot(block);
        Index found = 0;
        std::fill(survivor_.begin() + static_cast<std::ptrdiff_t>(c / 8),
                  survivor_.begin() + static_cast<std::ptrdiff_t>(list.firstSlot(block + 1) / 8),
                  0);
        const Index end = std::min(s, (block + 1) * blockSize);
        for (Index k = block * blockSize; k < end; ++k) {
            Index n = reader.beginNode();
            if (n == 0) {
                continue;
            }
            // Slave segment k's boxes, as computeBoxes makes the masters' (with one surface, they
            // are master k's).
            FloatBox slaveBox;
            Obb3 slaveObb;
            Obb2 slaveObb2;
            if (c_.sameSurface) {
                slaveBox = masterBox_[k];
                if (c_.dim == 3) {
                    slaveObb = unpackObb(sameObb3_[k], masterBox_[k]);
                } else {
                    slaveObb2 = masterObb2_[k];
                }
            } else {
                const SegmentNodes seg = gatherSegment(slave, k, x);
                double pad = 0.0;
                const Aabb3 box = bufferedAabb(seg, capture, pad);
                slaveBox = floatBoxOutward(box.lo.data(), box.hi.data());
                if (c_.dim == 3) {
                    slaveObb = unpackObb(packedBufferedObb3(seg, capture, pad));
                } else {
                    slaveObb2 = bufferedObb2(seg, capture, pad);
                }
            }
            for (; n > 0; --n, ++c) {
                const Index j = reader.next();
                CONTACT_ASSERT(j >= 0 && j < static_cast<Index>(masterBox_.size()));
                const BoxVerdict boxes = floatBoxVerdict(slaveBox, masterBox_[j], margin);
                if (boxes == BoxVerdict::kApart ||
                    (boxes == BoxVerdict::kUnsure && !exactBoxesOverlap(k, j, x))) {
                    continue;
                }
                ++candidates;
                bool overlap = false;
                if (c_.dim == 2) {
                    overlap = satOverlap2d(slaveObb2, masterObb2_[j]);
                } else if (c_.sameSurface) {
                    overlap = overlapWitness(slaveObb, sameObb3_[j], masterBox_[j]) ||
                              satOverlap3d(slaveObb, unpackObb(sameObb3_[j], masterBox_[j]));
                } else {
                    overlap = overlapWitness(slaveObb, masterObb3_[j]) ||
                              satOverlap3d(slaveObb, unpackObb(masterObb3_[j]));
                }
                if (!overlap) {
                    continue;
                }
                ++found;
                survivor_[c / 8] |= static_cast<std::uint8_t>(1U << (c % 8));
            }
        }
        CONTACT_ASSERT(reader.position() == list.blockEnd(block));
        CONTACT_ASSERT(c <= list.firstSlot(block + 1));
        blockPairs_[block] = found;
        survivors += found;
    }
    stats.candidates = candidates;
    stats.satSurvivors = survivors;
    stats.timeNarrow = msSince(t0);
}

// The surviving pairs of each block go to the columns after those of the blocks before it
// (blockPairs_, the narrow phase's counts), each block by one thread.
void SegmentSearch::collectPairs(UpdateStats& stats) {
    const auto t0 = Clock::now();
    const CandidateList& list = verlet_.list();
    Index count = 0;
    for (Index& b : blockPairs_) {  // counts -> first columns
        const Index n = b;
        b = count;
        count += n;
    }
    PairStore::reserve(pairs_, count);
    const Index blocks = list.blocks();
    const Index blockSize = list.blockSize();
    const Index s = list.items();
#pragma omp parallel for num_threads(c_.threads) schedule(dynamic, 1)
    for (Index block = 0; block < blocks; ++block) {
        CandidateReader reader = list.reader(block);
        std::size_t c = list.firstSlot(block);
        Index col = blockPairs_[block];
        const Index end = std::min(s, (block + 1) * blockSize);
        for (Index k = block * blockSize; k < end; ++k) {
            for (Index n = reader.beginNode(); n > 0; --n, ++c) {
                const Index j = reader.next();
                if ((survivor_[c / 8] >> (c % 8) & 1U) != 0) {
                    PairStore::set(pairs_, col++, k, j);
                }
            }
        }
        CONTACT_ASSERT(block + 1 == blocks || col == blockPairs_[block + 1]);
    }
    PairStore::setCount(pairs_, count);
    stats.pairs = count;
    stats.timeProjection = msSince(t0);
}

std::size_t SegmentSearch::memoryBytes() const noexcept {
    const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return verlet_.memoryBytes() + bytes(masterBox_) + bytes(masterObb3_) + bytes(sameObb3_) +
           bytes(masterObb2_) + bytes(slaveFat_) + bytes(survivor_) + bytes(blockPairs_) +
           motion_.memoryBytes();
}

}  // namespace contact::detail
