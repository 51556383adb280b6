// SPDX-License-Identifier: MIT
#include "sweep_index.hpp"

#include "detail/margins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contact::detail {

bool SweepIndex::treeAtOnce(const std::vector<FloatBox>& boxes, double h) {
    double cmin[3] = {std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity()};
    double cmax[3] = {-cmin[0], -cmin[1], -cmin[2]};
    double width[3] = {0.0, 0.0, 0.0};
    for (const FloatBox& box : boxes) {
        for (int k = 0; k < 3; ++k) {
            const double lo = box.lo[k];
            const double hi = box.hi[k];
            cmin[k] = std::min(cmin[k], 0.5 * (lo + hi));
            cmax[k] = std::max(cmax[k], 0.5 * (lo + hi));
            width[k] += hi - lo + 2.0 * h;
        }
    }
    const auto n = static_cast<double>(boxes.size());
    double best = -1.0;
    axis_ = 0;
    for (int k = 0; k < 3; ++k) {
        const double spread = cmax[k] - cmin[k];
        const double meanWidth = n > 0.0 ? width[k] / n : 0.0;
        const double score = spread > 0.0 ? spread / (meanWidth + spread * kSweepWidthFloor) : 0.0;
        if (std::isfinite(score) && score > best) {
            best = score;
            axis_ = k;
        }
    }
    // Boxes spread evenly along the axis would each scan about n x mean width / spread others: far
    // past the limit (a surface), the tree is built without sorting first.
    const double spread = cmax[axis_] - cmin[axis_];
    const double estimate = spread > 0.0 ? width[axis_] / spread : n;
    return estimate > kSkipSortFactor * static_cast<double>(kScanPerBoxLimit);
}

// build: sweep axis (where the box centres spread most relative to the mean box width, so that a
// box meets the fewest others along it) -> the tree at once if an even spread would scan far past
// the limit (treeAtOnce) -> boxes sorted along it -> count of the pairs a sweep of the boxes
// against themselves scans (the lower-bound walk alone, stopping past the limit) -> keep the
// sort, or build the box tree from the boxes and free it (sortOrTree).
void SweepIndex::build(const std::vector<FloatBox>& boxes, int threads) {
    if (treeAtOnce(boxes, 0.0)) {
        dropSort();
        tree_.build(boxes, threads);
        return;
    }
    sortOrTree(boxes, threads);
}

void SweepIndex::build(const std::vector<FloatBox>& boxes, double h, int threads) {
    if (treeAtOnce(boxes, h)) {
        dropSort();
        tree_.build(boxes, h, threads);
        return;
    }
    sortOrTree(fatBoxes(boxes, h, threads), threads);
}

void SweepIndex::dropSort() noexcept {
    scanned_ = -1;
    swept_ = false;
    boxes_ = Sorted{};
}

void SweepIndex::sortOrTree(const std::vector<FloatBox>& boxes, int threads) {
    const auto count = static_cast<Index>(boxes.size());
    sortSet(
        count, [&boxes](Index i) -> const FloatBox& { return boxes[i]; }, boxes_);
    const long long limit = kScanPerBoxLimit * static_cast<long long>(count);
    scanned_ = 0;
    for (std::size_t i = 0; i < boxes_.key.size() && scanned_ <= limit; ++i) {
        const float hi = boxes_.entry[i].hi;
        std::size_t q = i + 1;
        while (q < boxes_.key.size() && boxes_.key[q] <= hi) {
            ++q;
        }
        scanned_ += static_cast<long long>(q - i - 1);
    }
    swept_ = scanned_ <= limit;
    if (swept_) {
        tree_ = BoxTreeIndex{};  // a tree left from an earlier build
        return;
    }
    boxes_ = Sorted{};
    tree_.build(boxes, threads);
}

Index SweepIndex::size() const noexcept {
    return swept_ ? static_cast<Index>(boxes_.key.size()) : tree_.size();
}

std::size_t SweepIndex::memoryBytes() const noexcept {
    return boxes_.key.capacity() * sizeof(float) + boxes_.entry.capacity() * sizeof(Entry) +
           tree_.memoryBytes();
}

}  // namespace contact::detail
