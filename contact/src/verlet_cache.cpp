// SPDX-License-Identifier: MIT
#include "verlet_cache.hpp"

#include "detail/margins.hpp"

#include <algorithm>
#include <cmath>

namespace contact::detail {

void VerletCache::setup(BroadPhaseKind kind, Index items, Index blockSize) {
    switch (kind) {
    case BroadPhaseKind::kKdTree: index_.emplace<KdTreeIndex>(); break;
    case BroadPhaseKind::kBoxTree: index_.emplace<BoxTreeIndex>(); break;
    case BroadPhaseKind::kSweep: index_.emplace<SweepIndex>(); break;
    }
    list_.setup(items, blockSize);
    valid_ = false;
}

// The fat boxes in the index's own order (no random access into the index), against the current
// boxes by input index, in `threads` contiguous parts.
bool VerletCache::mastersInside(const std::vector<FloatBox>& masterBox, int threads) const {
    int inside = 1;
    const FloatBox* boxes = masterBox.data();  // a plain pointer: clang's OpenMP lambdas
    std::visit(
        [&inside, boxes, threads, n0 = masterBox.size()](const auto& index) {
            const Index n = index.size();
            CONTACT_ASSERT(static_cast<std::size_t>(n) == n0);
            (void)n0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : inside)
            for (int t = 0; t < threads; ++t) {
                const auto from = static_cast<Index>(static_cast<long long>(n) * t / threads);
                const auto to = static_cast<Index>(static_cast<long long>(n) * (t + 1) / threads);
                int here = 1;
                index.visitBoxes(from, to, [&here, boxes](Index i, const FloatBox& fat) {
                    here &= static_cast<int>(detail::inside(boxes[i], fat));
                });
                inside = std::min(inside, here);
            }
        },
        index_);
    return inside == 1;
}

std::size_t VerletCache::memoryBytes() const noexcept {
    // std::get_if, not std::visit: visit may throw bad_variant_access, this must not.
    std::size_t bytes = list_.memoryBytes();
    if (const auto* kd = std::get_if<KdTreeIndex>(&index_)) {
        bytes += kd->memoryBytes();
    } else if (const auto* tree = std::get_if<BoxTreeIndex>(&index_)) {
        bytes += tree->memoryBytes();
    } else if (const auto* sweep = std::get_if<SweepIndex>(&index_)) {
        bytes += sweep->memoryBytes();
    }
    return bytes;
}

std::vector<FloatBox> fatBoxes(const std::vector<FloatBox>& boxes, double h, int threads) {
    std::vector<FloatBox> fat(boxes.size());
    const auto n = static_cast<Index>(boxes.size());
#pragma omp parallel for num_threads(threads) schedule(static)
    for (Index j = 0; j < n; ++j) {
        fat[j] = grownFloatBox(boxes[j], h);
    }
    return fat;
}

// ref = p rounded to float; p - ref is exact (a float holds 24 bits of p). Node k's fat box is
// ref -+ half rounded in double, then outward to float. The margin, kNodeFatMargin of the largest
// value in play, is above every double rounding here (2^-53 of it), so the box holds every point
// within h of p, and inside()'s check |p - ref| <= reach (rounded) keeps p inside it.
void NodeFatBoxes::record(const CoordinatesView& x, const std::vector<Index>& nodes, double h,
                          int threads) {
    const auto s = static_cast<Index>(nodes.size());
    CONTACT_ASSERT(ref_.size() == 3 * nodes.size());
    double refError = 0.0;  // largest |p - ref| over the nodes (exact)
    double refScale = 0.0;  // and largest |ref|
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : refError, refScale)
    for (Index k = 0; k < s; ++k) {
        const Eigen::Vector3d p = x.node(nodes[k]);
        float* ref = &ref_[3 * static_cast<std::size_t>(k)];
        for (int d = 0; d < 3; ++d) {
            ref[d] = static_cast<float>(p[d]);
            refError = std::max(refError, std::abs(p[d] - static_cast<double>(ref[d])));
            refScale = std::max(refScale, std::abs(static_cast<double>(ref[d])));
        }
    }
    const double margin = kNodeFatMargin * (refScale + h + refError);
    half_ = h + refError + 2.0 * margin;
    reach_ = half_ - margin;
}

FloatBox NodeFatBoxes::box(Index k) const noexcept {
    const float* ref = &ref_[3 * static_cast<std::size_t>(k)];
    FloatBox b;
    for (int d = 0; d < 3; ++d) {
        b.lo[d] = floatDown(static_cast<double>(ref[d]) - half_);
        b.hi[d] = floatUp(static_cast<double>(ref[d]) + half_);
    }
    return b;
}

}  // namespace contact::detail
