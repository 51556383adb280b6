// SPDX-License-Identifier: MIT
// A static bounding-volume tree of float boxes (box_index.hpp has the interface). Faster than the
// kd-tree on 3D surfaces (bench/RESULTS.md). Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "box_index.hpp"
#include "detail/assert.hpp"
#include "float_box.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace contact::detail {

/// Reports, for a query float box, every indexed box that overlaps it in float (closed boxes,
/// exact comparisons of floats).
///
/// Why no overlap is missed: a node's box is the componentwise min/max of its children's boxes
/// (exact in float), so it encloses every leaf box below it; a leaf box that overlaps the query
/// makes every ancestor's box overlap it, and the traversal descends into every node whose box
/// overlaps the query.
///
/// Build: boxes sorted along a 63-bit Morton curve of their centres (radix sort), then split at the
/// median of that order down to leaves of at most kLeafSize boxes; nodes in depth-first order (left
/// child next to its parent). Size: 28 bytes per box + 32 bytes per node (about n / 2 nodes).
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
class BoxTreeIndex {
public:
    static constexpr int kLeafSize = 4;

    void build(std::vector<FloatBox> boxes, int threads = 1);
    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(index_.size()); }
    [[nodiscard]] bool concurrentQueries() const noexcept { return true; }

    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
        std::vector<Index> hits;
        for (Index k = first; k < last; ++k) {
            hits.clear();
            queryOne(queryBox(k), [&hits](Index i) { hits.push_back(i); });
            sink(k, hits.data(), static_cast<Index>(hits.size()));
        }
    }

    template <class Visit>
    void visitBoxes(Index from, Index to, Visit&& visit) const {
        for (Index k = from; k < to; ++k) {
            visit(index_[k], boxes_[k]);
        }
    }

    /// Calls visit(i) for every indexed box i that overlaps q, in no particular order.
    template <class Visit>
    void queryOne(const FloatBox& q, Visit&& visit) const {
        if (nodes_.empty()) {
            return;
        }
        std::int32_t stack[kMaxDepth];
        int top = 0;
        std::int32_t n = 0;
        if (!overlaps(nodes_[0].box, q)) {
            return;
        }
        for (;;) {
            const Node& node = nodes_[n];
            if (node.count > 0) {
                const std::int32_t end = node.first + node.count;
                for (std::int32_t i = node.first; i < end; ++i) {
                    if (overlaps(boxes_[i], q)) {
                        visit(index_[i]);
                    }
                }
            } else {
                // Children: n + 1 (left, depth-first) and node.first (right).
                const bool l = overlaps(nodes_[n + 1].box, q);
                const bool r = overlaps(nodes_[node.first].box, q);
                if (l) {
                    if (r) {
                        CONTACT_ASSERT(top < kMaxDepth);
                        stack[top++] = node.first;
                    }
                    n = n + 1;
                    continue;
                }
                if (r) {
                    n = node.first;
                    continue;
                }
            }
            if (top == 0) {
                return;
            }
            n = stack[--top];
        }
    }

    /// Bytes held (boxes, index map, nodes).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;
    /// Depth of the deepest leaf (root = 0).
    [[nodiscard]] int depth() const noexcept { return depth_; }
    /// Checks the structure: every node box encloses its children, every box appears once.
    [[nodiscard]] bool validate() const;

private:
    // A median split halves the count, so the depth is at most log2(n / kLeafSize) + 1 < 40; the
    // stack holds one pending right child per level.
    static constexpr int kMaxDepth = 64;

    struct Node {
        FloatBox box;
        std::int32_t first = 0;  ///< leaf: first box; inner: index of the right child
        std::int32_t count = 0;  ///< leaf: number of boxes (> 0); inner: 0
    };

    std::int32_t buildRange(std::int32_t begin, std::int32_t end, int level);
    void sortByMorton(const std::vector<FloatBox>& boxes);

    std::vector<FloatBox> boxes_;  // in tree order
    std::vector<Index> index_;     // tree order -> input index
    std::vector<Node> nodes_;
    int depth_ = 0;
};
static_assert(checkBoxIndex<BoxTreeIndex>());

}  // namespace contact::detail
