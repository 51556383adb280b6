// SPDX-License-Identifier: MIT
// The only file that sees nanoflann: a version change of its API touches this file alone.
#include "kd_tree_index.hpp"

#include "contact/tolerances.hpp"

#include "detail/assert.hpp"
#include "detail/margins.hpp"
#include "detail/parallel_errors.hpp"

#include <Eigen/Core>
#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace contact::detail {
namespace {

// nanoflann dataset adaptor over a contiguous slice of boxes (class order): the point of box i is
// its centre, computed on the fly from the box. Holds a pointer, never a copy.
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

struct KdTreeIndex::Impl {
    struct SizeClass {
        Index begin = 0;                               // first position (class order) of this class
        double maxHalfDiag = 0.0;                      // largest half-diagonal in the class
        Eigen::Vector3d lo = Eigen::Vector3d::Zero();  // bounding box of the class's boxes
        Eigen::Vector3d hi = Eigen::Vector3d::Zero();
        FloatBoxCloud cloud;
        std::unique_ptr<TreeOf<FloatBoxCloud>> tree;
    };

    std::vector<FloatBox> box;    // boxes in class order
    std::vector<Index> original;  // class-order position -> input index
    std::vector<SizeClass> classes;
    double coordScale = 0.0;  // largest |coordinate| of any box, for the rounding pad

    // n input boxes read through loOf(i) / hiOf(i) (Vector3d).
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
        const FloatBox* q;
        std::vector<Index>* out;

        void init() {}
        void clear() {}
        [[nodiscard]] std::size_t size() const { return 0; }
        [[nodiscard]] bool full() const { return true; }
        [[nodiscard]] double worstDist() const { return radiusSq; }
        bool addPoint(double /*distSq*/, std::uint32_t local) {
            const Index k = begin + static_cast<Index>(local);
            CONTACT_ASSERT(k >= 0 && k < static_cast<Index>(impl->box.size()));
            if (overlaps(impl->box[k], *q)) {
                out->push_back(impl->original[k]);
            }
            return true;
        }
    };
};

KdTreeIndex::KdTreeIndex() : impl_(std::make_unique<Impl>()) {}
KdTreeIndex::~KdTreeIndex() = default;
KdTreeIndex::KdTreeIndex(KdTreeIndex&&) noexcept = default;
KdTreeIndex& KdTreeIndex::operator=(KdTreeIndex&&) noexcept = default;

// build: half-diagonals -> size classes (powers of 2 below the largest); with threads, each class
// cut into that many spatial slices -> boxes reordered by (class, slice), stable -> one kd-tree per
// non-empty slice over its run of boxes.
template <class LoOf, class HiOf>
void KdTreeIndex::Impl::build(Index n, const LoOf& loOf, const HiOf& hiOf, int parts) {
    classes.clear();
    coordScale = 0.0;
    ParallelErrors errors;
    original.resize(n);
    box.resize(n);
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
        errors.run([&] {
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
        });
    }
    errors.rethrow();
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
            errors.run([&] {
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
            });
        }
        errors.rethrow();
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
        errors.run([&] {
            std::vector<Index> counts(static_cast<std::size_t>(buckets), 0);
            const Index end = chunkBegin(t + 1);
            for (Index i = chunkBegin(t); i < end; ++i) {
                ++counts[bucketOf[i]];
            }
            std::copy(counts.begin(), counts.end(),
                      slot.begin() + static_cast<std::ptrdiff_t>(t) * buckets);
        });
    }
    errors.rethrow();
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
        errors.run([&] {
            const auto row = slot.begin() + static_cast<std::ptrdiff_t>(t) * buckets;
            std::vector<Index> fill(row, row + buckets);
            const Index end = chunkBegin(t + 1);
            for (Index i = chunkBegin(t); i < end; ++i) {
                const Index k = fill[bucketOf[i]]++;
                original[k] = i;
                const Eigen::Vector3d l = loOf(i);
                const Eigen::Vector3d h = hiOf(i);
                for (int d = 0; d < 3; ++d) {
                    box[k].lo[d] = static_cast<float>(l[d]);  // exact: read from floats
                    box[k].hi[d] = static_cast<float>(h[d]);
                }
            }
        });
    }
    errors.rethrow();
    for (int b = 0; b < buckets; ++b) {
        if (start[b + 1] == start[b]) {
            continue;
        }
        SizeClass sc;
        sc.begin = start[b];
        const auto count = static_cast<std::uint32_t>(start[b + 1] - start[b]);
        sc.cloud = {box.data() + sc.begin, count};
        classes.push_back(std::move(sc));
    }
    // Trees are built once the class vector no longer moves (each holds a reference to its
    // cloud); independent, so built in parallel, each with its bounding box and largest size.
    const nanoflann::KDTreeSingleIndexAdaptorParams params(kLeafMaxSize);
    const int count = static_cast<int>(classes.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int c = 0; c < count; ++c) {
        errors.run([&] {
            SizeClass& sc = classes[c];
            const Index end = c + 1 < count ? classes[c + 1].begin : n;
            sc.lo.setConstant(std::numeric_limits<double>::infinity());
            sc.hi = -sc.lo;
            for (Index k = sc.begin; k < end; ++k) {
                const Eigen::Vector3d l(box[k].lo[0], box[k].lo[1], box[k].lo[2]);
                const Eigen::Vector3d h(box[k].hi[0], box[k].hi[1], box[k].hi[2]);
                sc.maxHalfDiag = std::max(sc.maxHalfDiag, 0.5 * (h - l).norm());
                sc.lo = sc.lo.cwiseMin(l);
                sc.hi = sc.hi.cwiseMax(h);
            }
            sc.tree = std::make_unique<TreeOf<FloatBoxCloud>>(3, sc.cloud, params);
        });
    }
    errors.rethrow();
}

void KdTreeIndex::build(std::vector<FloatBox> boxes, int threads) {
    const auto at = [](const float* v) {
        return Eigen::Vector3d(static_cast<double>(v[0]), static_cast<double>(v[1]),
                               static_cast<double>(v[2]));
    };
    impl_->build(
        static_cast<Index>(boxes.size()), [&](Index i) { return at(boxes[i].lo); },
        [&](Index i) { return at(boxes[i].hi); }, threads);
}

void KdTreeIndex::queryOne(const FloatBox& box, std::vector<Index>& out) const {
    const Impl& m = *impl_;
    const Eigen::Vector3d qlo(box.lo[0], box.lo[1], box.lo[2]);
    const Eigen::Vector3d qhi(box.hi[0], box.hi[1], box.hi[2]);
    const Eigen::Vector3d q = 0.5 * (qlo + qhi);
    const double rq = 0.5 * (qhi - qlo).norm();
    // Rounding pad: centres and half-diagonals carry errors of a few ulps of the coordinates.
    const double pad = kKdQueryPadUlps * tol::kEps * (m.coordScale + q.cwiseAbs().maxCoeff() + rq);
    const nanoflann::SearchParams params(32, 0.0F, false);
    for (const auto& sc : m.classes) {
        if ((qlo.array() > sc.hi.array()).any() || (sc.lo.array() > qhi.array()).any()) {
            continue;  // no box of this class can overlap (a slice elsewhere)
        }
        const double r = (rq + sc.maxHalfDiag) * (1.0 + kKdRadiusRel) + pad;
        Impl::OverlapCollector collect{&m, sc.begin, r * r, &box, &out};
        sc.tree->radiusSearchCustomCallback(q.data(), collect, params);
    }
}

Index KdTreeIndex::size() const noexcept { return static_cast<Index>(impl_->original.size()); }

const FloatBox* KdTreeIndex::boxes() const noexcept { return impl_->box.data(); }

const Index* KdTreeIndex::inputIndex() const noexcept { return impl_->original.data(); }

int KdTreeIndex::sizeClasses() const noexcept { return static_cast<int>(impl_->classes.size()); }

std::size_t KdTreeIndex::memoryBytes() const noexcept {
    const Impl& m = *impl_;
    const std::size_t n = m.original.size();
    // boxes + index map + nanoflann's vAcc (one index per point) and nodes (~n / leaf).
    return n * (sizeof(FloatBox) + sizeof(Index) + sizeof(std::uint32_t)) +
           (n / kLeafMaxSize + m.classes.size()) * 2 * 64;
}

}  // namespace contact::detail
