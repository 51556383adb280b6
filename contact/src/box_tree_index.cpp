// SPDX-License-Identifier: MIT
#include "box_tree_index.hpp"

#include "detail/radix_sort.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contact::detail {
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

}  // namespace

// Morton keys of the box centres in the bounding box of the centres, each packed with its input
// index below it: key = morton << indexBits | i. An LSD radix sort (11-bit digits) of the Morton
// bits alone then leaves ties in input order (deterministic), and moves 8 bytes a box instead of a
// key and an index apart. The Morton code gets the bits the index leaves, (64 - indexBits) / 3 per
// axis: 14 at 1M to 4M boxes (a 1M-box surface spans about 1000 boxes), at least 11 (Index
// is 31 bits); coarser keys only tie more centres, which changes the tree's shape, never what it
// reports.
void BoxTreeIndex::sortByMorton(const std::vector<FloatBox>& boxes) {
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
    int indexBits = 0;
    while (indexBits < 63 && (n - 1) >> indexBits != 0) {
        ++indexBits;
    }
    const int axisBits = std::min(21, (64 - indexBits) / 3);
    const double top = static_cast<double>((std::uint64_t{1} << axisBits) - 1);
    // One scale for all axes (the largest extent): a per-axis scale would give the thin axis of a
    // surface (its waviness) as many key bits as the long ones, and the tree's runs would cut
    // the surface into bands along that axis.
    double ext = 0.0;
    for (int k = 0; k < 3; ++k) {
        ext = std::max(ext, static_cast<double>(cmax[k]) - cmin[k]);
    }
    const double s = ext > 0.0 && std::isfinite(ext) ? top / ext : 0.0;
    std::vector<std::uint64_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t key = 0;
        for (int k = 0; k < 3; ++k) {
            const double c = 0.5 * static_cast<double>(boxes[i].lo[k]) + 0.5 * boxes[i].hi[k];
            double q = (c - cmin[k]) * s;
            q = std::isfinite(q) ? std::clamp(q, 0.0, top) : 0.0;
            key |= spreadBits3(static_cast<std::uint64_t>(q)) << k;
        }
        keys[i] = key << indexBits | i;
    }
    radixSort(keys, nullptr, indexBits, indexBits + 3 * axisBits);
    index_.resize(n);
    const std::uint64_t indexMask = (std::uint64_t{1} << indexBits) - 1;
    for (std::size_t i = 0; i < n; ++i) {
        index_[i] = static_cast<Index>(keys[i] & indexMask);
    }
}

FloatBox BoxTreeIndex::buildChild(std::size_t at, int c, std::int32_t begin, std::int32_t end,
                                  int level) {
    const std::int32_t count = end - begin;
    FloatBox b;
    if (count <= kLeafSize) {
        depth_ = std::max(depth_, level);
        b = boxAt(static_cast<std::size_t>(begin));
        for (std::int32_t i = begin + 1; i < end; ++i) {
            b = unite(b, boxAt(static_cast<std::size_t>(i)));
        }
        nodes_[at].first[c] = begin;
        nodes_[at].count[c] = count;
    } else {
        const auto child = static_cast<std::int32_t>(nodes_.size());  // buildRange appends it
        b = buildRange(begin, end, level);
        nodes_[at].first[c] = child;
        nodes_[at].count[c] = 0;
    }
    setChildBox(nodes_[at], c, b);
    return b;
}

// Boxes per child of a node over `count` boxes (at least one): P leaves, P the smallest
// power of kWidth with kWidth P leaves holding them all, so every child but the last is a full
// subtree (no node of one or two leaves where the count does not divide evenly) and the node has
// 2 to kWidth children (one, a leaf, for up to kLeafSize boxes).
std::int32_t BoxTreeIndex::childSpan(std::int32_t count) {
    const std::int32_t leaves = (count + kLeafSize - 1) / kLeafSize;
    std::int32_t p = 1;
    while (kWidth * p < leaves) {
        p *= kWidth;
    }
    return p * kLeafSize;
}

// The nodes buildRange makes for `count` boxes (at least one).
std::size_t BoxTreeIndex::nodeCount(std::int32_t count) {
    if (count <= kLeafSize) {
        return 1;
    }
    const std::int32_t step = childSpan(count);
    std::size_t nodes = 1;
    for (std::int32_t from = 0; from < count; from += step) {
        const std::int32_t part = std::min(count - from, step);
        nodes += part > kLeafSize ? nodeCount(part) : 0;
    }
    return nodes;
}

FloatBox BoxTreeIndex::buildRange(std::int32_t begin, std::int32_t end, int level) {
    const std::size_t at = nodes_.size();
    Node empty;
    FloatBox none;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::fill(none.lo, none.lo + 3, nan);
    std::fill(none.hi, none.hi + 3, nan);
    for (int c = 0; c < kWidth; ++c) {
        setChildBox(empty, c, none);
        empty.first[c] = -1;
        empty.count[c] = 0;
    }
    nodes_.push_back(empty);
    const std::int32_t step = childSpan(end - begin);
    FloatBox u;
    std::int32_t from = begin;
    for (int c = 0; c < kWidth && from < end; ++c) {
        const std::int32_t to = std::min(end, from + step);
        const FloatBox b = buildChild(at, c, from, to, level + 1);
        u = c == 0 ? b : unite(u, b);
        from = to;
    }
    return u;
}

template <class BoxOf>
void BoxTreeIndex::buildSorted(const std::vector<FloatBox>& boxes, const BoxOf& boxOf) {
    nodes_.clear();
    depth_ = 0;
    meanExtent_ = 0.0F;
    const std::size_t n = boxes.size();
    if (n == 0) {
        columns_.clear();
        index_.clear();
        return;
    }
    sortByMorton(boxes);
    columns_.resize(6 * n);
    double extents = 0.0;
    std::size_t finite = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const FloatBox b = boxOf(boxes[index_[i]]);
        for (std::size_t k = 0; k < 3; ++k) {
            columns_[2 * k * n + i] = b.lo[k];
            columns_[(2 * k + 1) * n + i] = b.hi[k];
        }
        const float e = extentSum(b);
        if (std::isfinite(e)) {
            extents += e;
            ++finite;
        }
    }
    meanExtent_ = finite > 0 ? static_cast<float>(extents / static_cast<double>(finite)) : 0.0F;
    const std::size_t nodes = nodeCount(static_cast<std::int32_t>(n));
    nodes_.reserve(nodes);
    buildRange(0, static_cast<std::int32_t>(n), 0);  // up to kLeafSize boxes: a root with one leaf
    CONTACT_ASSERT(nodes_.size() == nodes);
}

void BoxTreeIndex::build(const std::vector<FloatBox>& boxes, int /*threads*/) {
    buildSorted(boxes, [](const FloatBox& b) { return b; });
}

void BoxTreeIndex::build(const std::vector<FloatBox>& boxes, double h, int /*threads*/) {
    buildSorted(boxes, [h](const FloatBox& b) { return grownFloatBox(b, h); });
}

std::size_t BoxTreeIndex::memoryBytes() const noexcept {
    return columns_.capacity() * sizeof(float) + index_.capacity() * sizeof(Index) +
           nodes_.capacity() * sizeof(Node);
}

bool BoxTreeIndex::validate() const {
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
    for (const Node& node : nodes_) {
        for (int c = 0; c < kWidth; ++c) {
            if (node.first[c] < 0) {
                continue;
            }
            const FloatBox box = childBox(node, c);
            if (node.count[c] > 0) {
                for (std::int32_t i = node.first[c]; i < node.first[c] + node.count[c]; ++i) {
                    if (i >= size() || !encloses(box, boxAt(static_cast<std::size_t>(i)))) {
                        return false;
                    }
                }
                leafBoxes += static_cast<std::size_t>(node.count[c]);
                continue;
            }
            const auto child = static_cast<std::size_t>(node.first[c]);
            if (child >= nodes_.size() || &nodes_[child] <= &node) {
                return false;
            }
            for (int g = 0; g < kWidth; ++g) {
                if (nodes_[child].first[g] >= 0 && !encloses(box, childBox(nodes_[child], g))) {
                    return false;
                }
            }
        }
    }
    return leafBoxes == index_.size();
}

}  // namespace contact::detail
