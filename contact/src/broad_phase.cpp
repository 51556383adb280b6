// SPDX-License-Identifier: MIT
// The only file that sees nanoflann: a version change of its API touches this file alone.
#include "contact/broad_phase.hpp"

#include "contact/tolerances.hpp"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace contact {
namespace {

// nanoflann dataset adaptors over a contiguous slice of boxes (class order): the point of box i is
// its centre, computed on the fly from the box. One per storage, so the tree's inner loops do not
// branch on it. Hold pointers, never a copy.
struct DoubleBoxCloud {
    const double* lo = nullptr;  // 3 x count, column-major
    const double* hi = nullptr;
    std::uint32_t count = 0;

    [[nodiscard]] std::size_t kdtree_get_point_count() const { return count; }
    [[nodiscard]] double kdtree_get_pt(std::uint32_t i, std::size_t dim) const {
        const std::size_t k = 3 * static_cast<std::size_t>(i) + dim;
        return 0.5 * (lo[k] + hi[k]);
    }
    template <class Bbox>
    bool kdtree_get_bbox(Bbox& /*unused*/) const {
        return false;
    }
};

struct FloatBoxCloud {
    const FloatBox* box = nullptr;
    std::uint32_t count = 0;

    [[nodiscard]] std::size_t kdtree_get_point_count() const { return count; }
    [[nodiscard]] double kdtree_get_pt(std::uint32_t i, std::size_t dim) const {
        return 0.5 * (static_cast<double>(box[i].lo[dim]) + static_cast<double>(box[i].hi[dim]));
    }
    template <class Bbox>
    bool kdtree_get_bbox(Bbox& /*unused*/) const {
        return false;
    }
};

template <class Cloud>
using TreeOf = nanoflann::KDTreeSingleIndexAdaptor<
    nanoflann::L2_Simple_Adaptor<double, Cloud, double, std::uint32_t>, Cloud, 3, std::uint32_t>;

// Leaf size: small leaves suit the short radius queries of contact search (sweep in bench/).
constexpr std::size_t kLeafMaxSize = 16;

// A class holds half-diagonals in (R/2, R]; classes below kMinClassRatio * largest merge into one.
constexpr double kMinClassRatio = 1.0 / (1 << 20);

}  // namespace

struct BroadPhase::Impl {
    struct SizeClass {
        Index begin = 0;                               // first position (class order) of this class
        double maxHalfDiag = 0.0;                      // largest half-diagonal in the class
        Eigen::Vector3d lo = Eigen::Vector3d::Zero();  // bounding box of the class's boxes
        Eigen::Vector3d hi = Eigen::Vector3d::Zero();
        DoubleBoxCloud doubleCloud;  // double mode
        FloatBoxCloud floatCloud;    // float mode
        std::unique_ptr<TreeOf<DoubleBoxCloud>> doubleTree;
        std::unique_ptr<TreeOf<FloatBoxCloud>> floatTree;
    };

    Eigen::Matrix3Xd lo, hi;         // boxes in class order (double mode)
    std::vector<FloatBox> floatBox;  // boxes in class order (float mode)
    bool floatMode = false;
    std::vector<Index> original;  // class-order position -> input index
    std::vector<Index> position;  // input index -> class-order position
    std::vector<SizeClass> classes;
    double coordScale = 0.0;  // largest |coordinate| of any box, for the rounding pad

    [[nodiscard]] double boxLo(Index k, int d) const noexcept {
        return floatMode ? static_cast<double>(floatBox[k].lo[d]) : lo(d, k);
    }
    [[nodiscard]] double boxHi(Index k, int d) const noexcept {
        return floatMode ? static_cast<double>(floatBox[k].hi[d]) : hi(d, k);
    }

    // Shared by both build(): n input boxes read through loOf(i) / hiOf(i) (Vector3d).
    template <class LoOf, class HiOf>
    void build(Index n, const LoOf& loOf, const HiOf& hiOf, int parts);

    // Result set for radiusSearchCustomCallback: tests the exact box overlap and appends the input
    // index of each overlapping box. Never stops the search early.
    struct OverlapCollector {
        using DistanceType = double;
        using IndexType = std::uint32_t;

        const Impl* impl;
        Index begin;
        double radiusSq;
        const Eigen::Vector3d* qlo;
        const Eigen::Vector3d* qhi;
        std::vector<Index>* out;
        BroadPhaseStats* stats;

        void init() {}
        void clear() {}
        [[nodiscard]] std::size_t size() const { return 0; }
        [[nodiscard]] bool full() const { return true; }
        [[nodiscard]] double worstDist() const { return radiusSq; }
        bool addPoint(double /*distSq*/, std::uint32_t local) {
            const Index k = begin + static_cast<Index>(local);
            if (stats != nullptr) {
                ++stats->reported;
            }
            const Impl& m = *impl;
            if ((*qlo)[0] <= m.boxHi(k, 0) && m.boxLo(k, 0) <= (*qhi)[0] &&
                (*qlo)[1] <= m.boxHi(k, 1) && m.boxLo(k, 1) <= (*qhi)[1] &&
                (*qlo)[2] <= m.boxHi(k, 2) && m.boxLo(k, 2) <= (*qhi)[2]) {
                out->push_back(impl->original[k]);
                if (stats != nullptr) {
                    ++stats->accepted;
                }
            }
            return true;
        }
    };
};

BroadPhase::BroadPhase() : impl_(std::make_unique<Impl>()) {}
BroadPhase::~BroadPhase() = default;
BroadPhase::BroadPhase(BroadPhase&&) noexcept = default;
BroadPhase& BroadPhase::operator=(BroadPhase&&) noexcept = default;

// build: half-diagonals -> size classes (powers of 2 below the largest); with threads, each class
// cut into that many spatial slices -> boxes reordered by (class, slice), stable -> one kd-tree per
// non-empty slice over its run of boxes.
template <class LoOf, class HiOf>
void BroadPhase::Impl::build(Index n, const LoOf& loOf, const HiOf& hiOf, int parts) {
    classes.clear();
    coordScale = 0.0;
    original.resize(n);
    if (floatMode) {
        floatBox.resize(n);
        lo.resize(3, 0);
        hi.resize(3, 0);
    } else {
        floatBox.clear();
        lo.resize(3, n);
        hi.resize(3, n);
    }
    if (n == 0) {
        return;
    }
    // Every pass over the boxes runs on the build's threads, over `threads` contiguous chunks of
    // the input; the chunks count in local arrays (their rows of a shared table would share cache
    // lines) and meet in small serial merges.
    const int threads = std::max(1, parts);
    const auto chunkBegin = [&](int t) {
        return static_cast<Index>(static_cast<long long>(n) * t / threads);
    };
    const auto centreOf = [&](Index i, int d) { return 0.5 * (loOf(i)[d] + hiOf(i)[d]); };
    double largest = 0.0;
    double scale = 0.0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : largest, scale)
    for (Index i = 0; i < n; ++i) {
        const Eigen::Vector3d l = loOf(i);
        const Eigen::Vector3d h = hiOf(i);
        largest = std::max(largest, 0.5 * (h - l).norm());
        scale = std::max({scale, l.cwiseAbs().maxCoeff(), h.cwiseAbs().maxCoeff()});
    }
    coordScale = scale;
    // Class c holds half-diagonals in (largest / 2^(c+1), largest / 2^c]; the last class takes
    // everything smaller, down to points.
    const int maxClasses = 1 + static_cast<int>(std::log2(1.0 / kMinClassRatio));
    // Bucket = class * slices + slice; slice 0 when the class is not cut.
    const int slices = std::min(threads, std::numeric_limits<std::uint16_t>::max() / maxClasses);
    const int buckets = maxClasses * slices;
    std::vector<std::uint16_t> bucketOf(static_cast<std::size_t>(n));
    // Per chunk and class: box count, and the bounding box of the centres (to choose the axis).
    struct ClassStats {
        Index count = 0;
        Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
        Eigen::Vector3d hi = Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity());
    };
    std::vector<ClassStats> chunkStats(static_cast<std::size_t>(threads) * maxClasses);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        std::vector<ClassStats> local(static_cast<std::size_t>(maxClasses));
        const Index end = chunkBegin(t + 1);
        for (Index i = chunkBegin(t); i < end; ++i) {
            const Eigen::Vector3d l = loOf(i);
            const Eigen::Vector3d h = hiOf(i);
            const double r = 0.5 * (h - l).norm();
            int c = maxClasses - 1;
            if (r > largest * kMinClassRatio) {
                // floor(log2(largest / r)): ilogb is exact and cheaper than log2 (the ratio is
                // >= 1; NaN only if the half-diagonals overflowed, then class 0).
                const double ratio = largest / r;
                c = !(ratio >= 2.0) ? 0 : std::min(maxClasses - 1, std::ilogb(ratio));
            }
            bucketOf[i] = static_cast<std::uint16_t>(c * slices);
            ClassStats& st = local[c];
            ++st.count;
            if (slices > 1) {
                const Eigen::Vector3d centre = 0.5 * (l + h);
                st.lo = st.lo.cwiseMin(centre);
                st.hi = st.hi.cwiseMax(centre);
            }
        }
        std::copy(local.begin(), local.end(),
                  chunkStats.begin() + static_cast<std::ptrdiff_t>(t) * maxClasses);
    }
    if (slices > 1) {
        // A class of at least 2 leaves per slice is cut along the longest axis of its centres, at
        // quantiles of a sample of about kSample centres (every stride-th box of the class in each
        // chunk): the slices come out nearly equal, without sorting or selecting over all boxes.
        constexpr Index kSample = 1024;
        std::vector<int> axis(static_cast<std::size_t>(maxClasses), -1);
        std::vector<Index> stride(static_cast<std::size_t>(maxClasses), 1);
        for (int c = 0; c < maxClasses; ++c) {
            ClassStats all;
            for (int t = 0; t < threads; ++t) {
                const ClassStats& st = chunkStats[static_cast<std::size_t>(t) * maxClasses + c];
                all.count += st.count;
                all.lo = all.lo.cwiseMin(st.lo);
                all.hi = all.hi.cwiseMax(st.hi);
            }
            if (all.count >= 2 * static_cast<Index>(slices * kLeafMaxSize)) {
                (all.hi - all.lo).maxCoeff(&axis[c]);
                stride[c] = std::max<Index>(1, all.count / kSample);
            }
        }
        std::vector<std::vector<double>> sample(static_cast<std::size_t>(threads) * maxClasses);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int t = 0; t < threads; ++t) {
            std::vector<Index> seen(static_cast<std::size_t>(maxClasses), 0);
            std::vector<std::vector<double>> local(static_cast<std::size_t>(maxClasses));
            const Index end = chunkBegin(t + 1);
            for (Index i = chunkBegin(t); i < end; ++i) {
                const int c = bucketOf[i] / slices;
                if (axis[c] >= 0 && seen[c]++ % stride[c] == 0) {
                    const double v = centreOf(i, axis[c]);
                    if (!std::isnan(v)) {  // sorted below: NaN has no order
                        local[c].push_back(v);
                    }
                }
            }
            std::move(local.begin(), local.end(),
                      sample.begin() + static_cast<std::ptrdiff_t>(t) * maxClasses);
        }
        // pivot[c * (slices - 1) + q - 1]: the lower bound of the centres of slice q >= 1.
        std::vector<double> pivot(static_cast<std::size_t>(maxClasses) * (slices - 1));
        for (int c = 0; c < maxClasses; ++c) {
            if (axis[c] < 0) {
                continue;
            }
            std::vector<double> all;
            for (int t = 0; t < threads; ++t) {
                const auto& part = sample[static_cast<std::size_t>(t) * maxClasses + c];
                all.insert(all.end(), part.begin(), part.end());
            }
            if (all.empty()) {
                axis[c] = -1;  // no ordered centre: the class stays whole
                continue;
            }
            std::sort(all.begin(), all.end());
            for (int q = 1; q < slices; ++q) {
                pivot[static_cast<std::size_t>(c) * (slices - 1) + q - 1] =
                    all[all.size() * static_cast<std::size_t>(q) / slices];
            }
        }
#pragma omp parallel for num_threads(threads) schedule(static)
        for (Index i = 0; i < n; ++i) {
            const int c = bucketOf[i] / slices;
            if (axis[c] < 0) {
                continue;
            }
            const auto first = pivot.begin() + static_cast<std::ptrdiff_t>(c) * (slices - 1);
            const auto q =
                std::upper_bound(first, first + (slices - 1), centreOf(i, axis[c])) - first;
            bucketOf[i] = static_cast<std::uint16_t>(c * slices + static_cast<int>(q));
        }
    }
    // Stable counting sort by bucket: each chunk's first slot per bucket follows from the counts
    // of the buckets before and of the earlier chunks; each chunk then fills its slots in order.
    std::vector<Index> slot(static_cast<std::size_t>(threads) * buckets, 0);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        std::vector<Index> counts(static_cast<std::size_t>(buckets), 0);
        const Index end = chunkBegin(t + 1);
        for (Index i = chunkBegin(t); i < end; ++i) {
            ++counts[bucketOf[i]];
        }
        std::copy(counts.begin(), counts.end(),
                  slot.begin() + static_cast<std::ptrdiff_t>(t) * buckets);
    }
    std::vector<Index> start(static_cast<std::size_t>(buckets) + 1, 0);
    {
        Index next = 0;
        for (int b = 0; b < buckets; ++b) {
            start[b] = next;
            for (int t = 0; t < threads; ++t) {
                Index& cell = slot[static_cast<std::size_t>(t) * buckets + b];
                const Index countHere = cell;
                cell = next;
                next += countHere;
            }
        }
        start[buckets] = next;
    }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; ++t) {
        const auto row = slot.begin() + static_cast<std::ptrdiff_t>(t) * buckets;
        std::vector<Index> fill(row, row + buckets);
        const Index end = chunkBegin(t + 1);
        for (Index i = chunkBegin(t); i < end; ++i) {
            const Index k = fill[bucketOf[i]]++;
            original[k] = i;
            const Eigen::Vector3d l = loOf(i);
            const Eigen::Vector3d h = hiOf(i);
            if (floatMode) {
                for (int d = 0; d < 3; ++d) {
                    floatBox[k].lo[d] = static_cast<float>(l[d]);  // exact: read from floats
                    floatBox[k].hi[d] = static_cast<float>(h[d]);
                }
            } else {
                lo.col(k) = l;
                hi.col(k) = h;
            }
        }
    }
    for (int b = 0; b < buckets; ++b) {
        if (start[b + 1] == start[b]) {
            continue;
        }
        SizeClass sc;
        sc.begin = start[b];
        const auto count = static_cast<std::uint32_t>(start[b + 1] - start[b]);
        if (floatMode) {
            sc.floatCloud = {floatBox.data() + sc.begin, count};
        } else {
            sc.doubleCloud = {lo.data() + 3 * static_cast<std::ptrdiff_t>(sc.begin),
                              hi.data() + 3 * static_cast<std::ptrdiff_t>(sc.begin), count};
        }
        classes.push_back(std::move(sc));
    }
    position.resize(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(threads) schedule(static)
    for (Index k = 0; k < n; ++k) {
        position[original[k]] = k;
    }
    // Trees are built once the class vector no longer moves (each holds a reference to its
    // cloud); independent, so built in parallel, each with its bounding box and largest size.
    const nanoflann::KDTreeSingleIndexAdaptorParams params(kLeafMaxSize);
    const int count = static_cast<int>(classes.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int c = 0; c < count; ++c) {
        SizeClass& sc = classes[c];
        const Index end = c + 1 < count ? classes[c + 1].begin : n;
        sc.lo.setConstant(std::numeric_limits<double>::infinity());
        sc.hi = -sc.lo;
        for (Index k = sc.begin; k < end; ++k) {
            const Eigen::Vector3d l(boxLo(k, 0), boxLo(k, 1), boxLo(k, 2));
            const Eigen::Vector3d h(boxHi(k, 0), boxHi(k, 1), boxHi(k, 2));
            sc.maxHalfDiag = std::max(sc.maxHalfDiag, 0.5 * (h - l).norm());
            sc.lo = sc.lo.cwiseMin(l);
            sc.hi = sc.hi.cwiseMax(h);
        }
        if (floatMode) {
            sc.floatTree = std::make_unique<TreeOf<FloatBoxCloud>>(3, sc.floatCloud, params);
        } else {
            sc.doubleTree = std::make_unique<TreeOf<DoubleBoxCloud>>(3, sc.doubleCloud, params);
        }
    }
}

void BroadPhase::build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi) {
    impl_->floatMode = false;
    impl_->build(
        static_cast<Index>(lo.cols()), [&](Index i) { return Eigen::Vector3d(lo.col(i)); },
        [&](Index i) { return Eigen::Vector3d(hi.col(i)); }, 1);
}

void BroadPhase::build(const std::vector<FloatBox>& boxes, int threads) {
    impl_->floatMode = true;
    const auto at = [](const float* v) {
        return Eigen::Vector3d(static_cast<double>(v[0]), static_cast<double>(v[1]),
                               static_cast<double>(v[2]));
    };
    impl_->build(
        static_cast<Index>(boxes.size()), [&](Index i) { return at(boxes[i].lo); },
        [&](Index i) { return at(boxes[i].hi); }, threads);
}

void BroadPhase::query(const Eigen::Vector3d& qlo, const Eigen::Vector3d& qhi,
                       std::vector<Index>& out, BroadPhaseStats* stats) const {
    const Impl& m = *impl_;
    const Eigen::Vector3d q = 0.5 * (qlo + qhi);
    const double rq = 0.5 * (qhi - qlo).norm();
    // Rounding pad: centres and half-diagonals carry errors of a few ulps of the coordinates.
    const double pad = 64.0 * tol::kEps * (m.coordScale + q.cwiseAbs().maxCoeff() + rq);
    const nanoflann::SearchParams params(32, 0.0F, false);
    for (const auto& sc : m.classes) {
        if ((qlo.array() > sc.hi.array()).any() || (sc.lo.array() > qhi.array()).any()) {
            continue;  // no box of this class can overlap (a slice elsewhere)
        }
        const double r = (rq + sc.maxHalfDiag) * (1.0 + 1e-9) + pad;
        Impl::OverlapCollector collect{&m, sc.begin, r * r, &qlo, &qhi, &out, stats};
        if (m.floatMode) {
            sc.floatTree->radiusSearchCustomCallback(q.data(), collect, params);
        } else {
            sc.doubleTree->radiusSearchCustomCallback(q.data(), collect, params);
        }
    }
}

Index BroadPhase::size() const noexcept { return static_cast<Index>(impl_->original.size()); }

const FloatBox& BroadPhase::floatBox(Index i) const noexcept {
    return impl_->floatBox[impl_->position[i]];
}

int BroadPhase::sizeClasses() const noexcept { return static_cast<int>(impl_->classes.size()); }

std::size_t BroadPhase::memoryBytes() const noexcept {
    const Impl& m = *impl_;
    const std::size_t n = m.original.size();
    // boxes + index map + nanoflann's vAcc (one index per point) and nodes (~n / leaf).
    const std::size_t box = m.floatMode ? sizeof(FloatBox) : 6 * sizeof(double);
    return n * (box + 2 * sizeof(Index) + sizeof(std::uint32_t)) +
           (n / kLeafMaxSize + m.classes.size()) * 2 * 64;
}

// ---------------------------------------------------------------------------------------------
// BoxTree

FloatBox floatBoxOutward(const double* lo, const double* hi, double grow) noexcept {
    // lo - grow and hi + grow are rounded to nearest in double first; floatDown/floatUp then only
    // see a double that may sit one double-ulp inside the exact value. Widening by that ulp
    // (nextafter) keeps the float box enclosing the exact [lo - grow, hi + grow].
    FloatBox b;
    for (int k = 0; k < 3; ++k) {
        double l = lo[k];
        double h = hi[k];
        if (grow != 0.0) {
            l = std::nextafter(l - grow, -std::numeric_limits<double>::infinity());
            h = std::nextafter(h + grow, std::numeric_limits<double>::infinity());
        }
        b.lo[k] = floatDown(l);
        b.hi[k] = floatUp(h);
    }
    return b;
}

namespace {

// Spreads the low 21 bits of v so that bit i lands at bit 3i.
std::uint64_t spreadBits3(std::uint64_t v) noexcept {
    v &= 0x1fffffULL;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

// LSD radix sort of keys by their bits [firstBit, lastBit), 11-bit digits, carrying index along
// when given; stable, so ties keep their order. A pass where every key has the same digit is
// skipped (an already sorted input still pays the counting).
void radixSort(std::vector<std::uint64_t>& keys, std::vector<Index>* index, int firstBit,
               int lastBit) {
    constexpr int kDigitBits = 11;
    constexpr int kBuckets = 1 << kDigitBits;
    const std::size_t n = keys.size();
    if (n == 0) {
        return;
    }
    std::vector<std::uint64_t> keysTmp(n);
    std::vector<Index> indexTmp(index != nullptr ? n : 0);
    std::vector<std::size_t> count(kBuckets);
    for (int shift = firstBit; shift < lastBit; shift += kDigitBits) {
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t i = 0; i < n; ++i) {
            ++count[(keys[i] >> shift) & (kBuckets - 1)];
        }
        if (count[(keys[0] >> shift) & (kBuckets - 1)] == n) {
            continue;
        }
        std::size_t sum = 0;
        for (auto& c : count) {
            const std::size_t c0 = c;
            c = sum;
            sum += c0;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t d = count[(keys[i] >> shift) & (kBuckets - 1)]++;
            keysTmp[d] = keys[i];
            if (index != nullptr) {
                indexTmp[d] = (*index)[i];
            }
        }
        keys.swap(keysTmp);
        if (index != nullptr) {
            index->swap(indexTmp);
        }
    }
}

FloatBox unite(const FloatBox& a, const FloatBox& b) noexcept {
    FloatBox u;
    for (int k = 0; k < 3; ++k) {
        u.lo[k] = std::min(a.lo[k], b.lo[k]);
        u.hi[k] = std::max(a.hi[k], b.hi[k]);
    }
    return u;
}

}  // namespace

// Morton keys of the box centres in the bounding box of the centres (21 bits per axis), then an
// LSD radix sort (11-bit digits) of (key, index). Ties keep the input order: deterministic.
void BoxTree::sortByMorton(const std::vector<FloatBox>& boxes) {
    const std::size_t n = boxes.size();
    float cmin[3] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                     std::numeric_limits<float>::max()};
    float cmax[3] = {-cmin[0], -cmin[1], -cmin[2]};
    for (const FloatBox& b : boxes) {
        for (int k = 0; k < 3; ++k) {
            const float c = 0.5F * b.lo[k] + 0.5F * b.hi[k];
            cmin[k] = std::min(cmin[k], c);
            cmax[k] = std::max(cmax[k], c);
        }
    }
    // One scale for all axes (the largest extent): a per-axis scale would give the thin axis of a
    // surface (its waviness) as many key bits as the long ones, and the median splits would cut
    // the surface into bands along that axis.
    double ext = 0.0;
    for (int k = 0; k < 3; ++k) {
        ext = std::max(ext, static_cast<double>(cmax[k]) - cmin[k]);
    }
    const double s = ext > 0.0 && std::isfinite(ext) ? 2097151.0 / ext : 0.0;
    const double scale[3] = {s, s, s};
    std::vector<std::uint64_t> keys(n);
    index_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t key = 0;
        for (int k = 0; k < 3; ++k) {
            const double c = 0.5 * static_cast<double>(boxes[i].lo[k]) + 0.5 * boxes[i].hi[k];
            double q = (c - cmin[k]) * scale[k];
            q = std::isfinite(q) ? std::clamp(q, 0.0, 2097151.0) : 0.0;
            key |= spreadBits3(static_cast<std::uint64_t>(q)) << k;
        }
        keys[i] = key;
        index_[i] = static_cast<Index>(i);
    }
    radixSort(keys, &index_, 0, 63);
}

// Node for boxes_[begin, end): a leaf when it fits, else two children over the first half of the
// leaves (rounded up) and the rest. Returns the node's index.
std::int32_t BoxTree::buildRange(std::int32_t begin, std::int32_t end, int level) {
    const auto self = static_cast<std::int32_t>(nodes_.size());
    nodes_.emplace_back();
    depth_ = std::max(depth_, level);
    const std::int32_t count = end - begin;
    if (count <= kLeafSize) {
        FloatBox b = boxes_[begin];
        for (std::int32_t i = begin + 1; i < end; ++i) {
            b = unite(b, boxes_[i]);
        }
        nodes_[self].box = b;
        nodes_[self].first = begin;
        nodes_[self].count = count;
        return self;
    }
    const std::int32_t leaves = (count + kLeafSize - 1) / kLeafSize;
    const std::int32_t mid = begin + (leaves + 1) / 2 * kLeafSize;
    const std::int32_t left = buildRange(begin, mid, level + 1);
    const std::int32_t right = buildRange(mid, end, level + 1);
    nodes_[self].box = unite(nodes_[left].box, nodes_[right].box);
    nodes_[self].first = right;
    nodes_[self].count = 0;
    return self;
}

void BoxTree::build(const std::vector<FloatBox>& boxes) {
    nodes_.clear();
    depth_ = 0;
    const std::size_t n = boxes.size();
    if (n == 0) {
        boxes_.clear();
        index_.clear();
        return;
    }
    sortByMorton(boxes);
    boxes_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        boxes_[i] = boxes[index_[i]];
    }
    // A binary tree over L leaves has 2L - 1 nodes; reserving them keeps buildRange from moving
    // the vector while it recurses.
    const std::size_t leaves = (n + kLeafSize - 1) / kLeafSize;
    nodes_.reserve(2 * leaves);
    buildRange(0, static_cast<std::int32_t>(n), 0);
}

void BoxTree::build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi) {
    std::vector<FloatBox> boxes(static_cast<std::size_t>(lo.cols()));
    for (Eigen::Index i = 0; i < lo.cols(); ++i) {
        boxes[i] = floatBoxOutward(lo.col(i).data(), hi.col(i).data());
    }
    build(boxes);
}

std::size_t BoxTree::memoryBytes() const noexcept {
    return boxes_.capacity() * sizeof(FloatBox) + index_.capacity() * sizeof(Index) +
           nodes_.capacity() * sizeof(Node);
}

bool BoxTree::validate() const {
    std::vector<char> seen(index_.size(), 0);
    for (Index i : index_) {
        if (i < 0 || i >= size() || seen[i] != 0) {
            return false;
        }
        seen[i] = 1;
    }
    const auto encloses = [](const FloatBox& a, const FloatBox& b) {
        for (int k = 0; k < 3; ++k) {
            if (!(a.lo[k] <= b.lo[k] && b.hi[k] <= a.hi[k])) {
                return false;
            }
        }
        return true;
    };
    std::size_t leafBoxes = 0;
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const Node& node = nodes_[n];
        if (node.count > 0) {
            for (std::int32_t i = node.first; i < node.first + node.count; ++i) {
                if (!encloses(node.box, boxes_[i])) {
                    return false;
                }
            }
            leafBoxes += static_cast<std::size_t>(node.count);
        } else if (!encloses(node.box, nodes_[n + 1].box) ||
                   !encloses(node.box, nodes_[node.first].box)) {
            return false;
        }
    }
    return leafBoxes == boxes_.size();
}

// Sweep axis: where the box centres spread most relative to the mean box width, so that a box
// meets the fewest others along it.
long long BoxSweep::prepare(const std::vector<FloatBox>& a, const std::vector<FloatBox>& b,
                            long long maxScan) {
    double cmin[3] = {std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity()};
    double cmax[3] = {-cmin[0], -cmin[1], -cmin[2]};
    double width[3] = {0.0, 0.0, 0.0};
    for (const auto* set : {&a, &b}) {
        for (const FloatBox& box : *set) {
            for (int k = 0; k < 3; ++k) {
                const double lo = box.lo[k];
                const double hi = box.hi[k];
                cmin[k] = std::min(cmin[k], 0.5 * (lo + hi));
                cmax[k] = std::max(cmax[k], 0.5 * (lo + hi));
                width[k] += hi - lo;
            }
        }
    }
    const double n = static_cast<double>(a.size() + b.size());
    double best = -1.0;
    axis_ = 0;
    for (int k = 0; k < 3; ++k) {
        const double spread = cmax[k] - cmin[k];
        const double meanWidth = n > 0.0 ? width[k] / n : 0.0;
        const double score = spread > 0.0 ? spread / (meanWidth + spread * 1e-30) : 0.0;
        if (std::isfinite(score) && score > best) {
            best = score;
            axis_ = k;
        }
    }
    sortSet(a, a_);
    sortSet(b, b_);

    // The pairs forEachPair will scan: its walk on the lower bounds alone.
    long long scanned = 0;
    walk([&](const Entry& e, const Sorted& other, std::size_t from, bool /*eFromB*/) {
        std::size_t q = from;
        while (q < other.key.size() && other.key[q] <= e.hi) {
            ++q;
        }
        scanned += static_cast<long long>(q - from);
        return scanned <= maxScan;
    });
    return scanned > maxScan ? maxScan + 1 : scanned;
}

bool BoxSweep::prepareIfFast(const std::vector<FloatBox>& a, const std::vector<FloatBox>& b) {
    const long long limit = kScanPerBoxLimit * static_cast<long long>(a.size() + b.size());
    if (prepare(a, b, limit) <= limit) {
        return true;
    }
    release();
    return false;
}

// Keys: the float bits of the lower bound mapped to an unsigned order (negative floats reversed
// below the positive ones; -0 taken as +0) in the high half, the input index in the low half; one
// radix sort of the high halves, then the boxes gathered in that order.
void BoxSweep::sortSet(const std::vector<FloatBox>& boxes, Sorted& out) const {
    const std::size_t n = boxes.size();
    const int k0 = axis_;
    const int k1 = (axis_ + 1) % 3;
    const int k2 = (axis_ + 2) % 3;
    std::vector<std::uint64_t> keys(n);
    bool sorted = true;
    for (std::size_t i = 0; i < n; ++i) {
        const float lo = boxes[i].lo[k0] + 0.0F;  // -0 -> +0
        std::uint32_t bits = 0;
        std::memcpy(&bits, &lo, sizeof bits);
        const std::uint64_t order = (bits >> 31) != 0U ? ~bits : bits | 0x80000000U;
        keys[i] = order << 32 | i;
        sorted = sorted && (i == 0 || keys[i - 1] <= keys[i]);
    }
    if (!sorted) {  // a curve numbered along its length comes sorted
        radixSort(keys, nullptr, 32, 64);
    }
    out.key.resize(n);
    out.entry.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<Index>(keys[i] & 0xFFFFFFFFU);
        const FloatBox& box = boxes[static_cast<std::size_t>(id)];
        out.key[i] = box.lo[k0] + 0.0F;
        out.entry[i] = Entry{box.hi[k0], box.lo[k1], box.hi[k1], box.lo[k2], box.hi[k2], id};
    }
}

void BoxSweep::release() {
    for (Sorted* s : {&a_, &b_}) {
        std::vector<float>().swap(s->key);
        std::vector<Entry>().swap(s->entry);
    }
}

std::size_t BoxSweep::memoryBytes() const noexcept {
    return (a_.key.capacity() + b_.key.capacity()) * sizeof(float) +
           (a_.entry.capacity() + b_.entry.capacity()) * sizeof(Entry);
}

}  // namespace contact
