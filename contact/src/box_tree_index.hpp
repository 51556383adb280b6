// SPDX-License-Identifier: MIT
// A static bounding-volume tree of float boxes (box_index.hpp has the interface): the broad phase
// of 3D surfaces (bench/RESULTS.md). Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "box_index.hpp"
#include "detail/assert.hpp"
#include "float_box.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace contact::detail {

/// Reports, for a query float box, every indexed box that overlaps it in float (closed boxes,
/// exact comparisons of floats).
///
/// Why no overlap is missed: a child's box, kept in its parent, is the componentwise min/max of
/// the boxes below it (exact in float), so it encloses every leaf box below it; a leaf box that
/// overlaps the query makes every ancestor's box overlap it, and the traversal visits every child
/// whose box overlaps the query.
///
/// Build: boxes sorted along a Morton curve of their centres (radix sort; (64 - log2 n) / 3 bits
/// per axis: sortByMorton), then cut into runs of whole subtrees, up to four per node (childSpan),
/// down to leaves of at most kLeafSize boxes; nodes in depth-first order. Size: 28 bytes per box
/// (its float ends by columns, its input index) + 128 bytes per node (about n / 48 nodes: 2.7
/// bytes per box).
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
class BoxTreeIndex {
public:
    // Leaves of 16: queries as fast as with 4 or 8 at 1M boxes (bench_broad_phase), a quarter of
    // the nodes of 4.
    static constexpr int kLeafSize = 16;

    /// Indexes boxes 0..n-1 (a copy of them, in tree order).
    void build(const std::vector<FloatBox>& boxes, int threads = 1);
    /// The same for the boxes grown by h (grownFloatBox), made while they are put in tree order:
    /// no copy of the grown boxes in input order. The order is that of the given boxes' centres.
    void build(const std::vector<FloatBox>& boxes, double h, int threads = 1);
    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(index_.size()); }
    [[nodiscard]] bool concurrentQueries() const noexcept { return true; }

    /// Queries in groups of consecutive items whose boxes lie close together (mesh order keeps
    /// neighbours close): one descent with the union of the group's boxes gathers the boxes that
    /// overlap the union, and each query of the group tests those alone. A box that overlaps a
    /// query overlaps the union (the union's ends are the min/max of the queries' ends), so no
    /// hit is lost; each query's test makes the comparisons of overlaps(), so the hits are the
    /// same. A query with a NaN, or one that would spread the union, goes alone.
    template <class QueryBox, class Sink>
    void query(Index first, Index last, const QueryBox& queryBox, Sink&& sink) const {
        std::vector<Index> hits;
        std::vector<std::int32_t> verdict;  // per gathered box: overlaps the query (0 / 1)
        Gathered gathered;
        FloatBox group[kQueryGroup];
        Index k = first;
        while (k < last) {
            // The group: k, then the next items while the union stays compact.
            group[0] = queryBox(k);
            Index size = 1;
            FloatBox u = group[0];
            if (!hasNan(u)) {
                float single = extentSum(u);
                while (size < kQueryGroup && k + size < last) {
                    const FloatBox b = queryBox(k + size);
                    const FloatBox grown = unite(u, b);
                    const float largest = std::max(single, extentSum(b));
                    if (hasNan(b) ||
                        !(extentSum(grown) <= kGroupGrowth * std::max(largest, meanExtent_))) {
                        break;
                    }
                    group[size++] = b;
                    u = grown;
                    single = largest;
                }
            }
            if (size == 1) {
                hits.clear();
                queryOne(group[0], [&hits](Index i) { hits.push_back(i); });
                sink(k, hits.data(), static_cast<Index>(hits.size()));
                ++k;
                continue;
            }
            gather(u, gathered);
            const std::size_t count = gathered.id.size();
            hits.resize(count);
            verdict.resize(count);
            for (Index g = 0; g < size; ++g) {
                const FloatBox& q = group[g];
                // The verdicts first, in a loop the compiler vectorizes (columns against one
                // query; & on 0/1 integers, not &&), then the hits written in order.
                std::int32_t* v = verdict.data();
                const auto bit = [](bool b) { return static_cast<std::int32_t>(b); };
                for (std::size_t c = 0; c < count; ++c) {
                    v[c] = bit(gathered.lo0[c] <= q.hi[0]) & bit(q.lo[0] <= gathered.hi0[c]) &
                           bit(gathered.lo1[c] <= q.hi[1]) & bit(q.lo[1] <= gathered.hi1[c]) &
                           bit(gathered.lo2[c] <= q.hi[2]) & bit(q.lo[2] <= gathered.hi2[c]);
                }
                Index found = 0;
                for (std::size_t c = 0; c < count; ++c) {
                    hits[found] = gathered.id[c];
                    found += v[c];
                }
                sink(k + g, hits.data(), found);
            }
            k += size;
        }
    }

    template <class Visit>
    void visitBoxes(Index from, Index to, Visit&& visit) const {
        for (Index k = from; k < to; ++k) {
            visit(index_[k], boxAt(static_cast<std::size_t>(k)));
        }
    }

    /// Calls visit(i) for every indexed box i that overlaps q, in no particular order.
    template <class Visit>
    void queryOne(const FloatBox& q, Visit&& visit) const {
        visitOverlapping(q, [&](std::int32_t i) { visit(index_[i]); });
    }

    /// Bytes held (boxes, index map, nodes).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;
    /// Depth of the deepest leaf (root = 0).
    [[nodiscard]] int depth() const noexcept { return depth_; }
    /// Checks the structure: every node box encloses its children, every box appears once.
    [[nodiscard]] bool validate() const;

private:
    // Queries per group, and how much larger than its largest box the group's union may be (sums
    // of the extents; the indexed boxes' mean extent when larger, so that point queries, node
    // mode, group too): about a strip of 8 neighbouring boxes (bench/bench_broad_phase).
    static constexpr Index kQueryGroup = 8;
    // Largest span of input indices a group's gathered boxes are sorted over by a bitmap (16 KiB
    // of positions, 512 bytes of bits, per query() call).
    static constexpr std::uint64_t kBitmapSpan = 4096;
    static constexpr float kGroupGrowth = 3.0F;

    // The boxes overlapping a group's union, by columns for the tests of its queries, ascending
    // by input index: each query's hits come sorted (the candidate list sorts them otherwise).
    struct Gathered {
        std::vector<std::uint64_t> key;  // input index << 32 | storage position
        std::vector<float> lo0, hi0, lo1, hi1, lo2, hi2;
        std::vector<Index> id;
        // sortByIndex's bitmap over a span of input indices, and each one's storage position.
        std::vector<std::uint64_t> bits = std::vector<std::uint64_t>(kBitmapSpan / 64);
        std::vector<std::uint32_t> position = std::vector<std::uint32_t>(kBitmapSpan);
    };

    static bool hasNan(const FloatBox& b) noexcept {
        return std::isnan(b.lo[0] + b.hi[0] + b.lo[1] + b.hi[1] + b.lo[2] + b.hi[2]);
    }
    static float extentSum(const FloatBox& b) noexcept {
        return (b.hi[0] - b.lo[0]) + (b.hi[1] - b.lo[1]) + (b.hi[2] - b.lo[2]);
    }
    static FloatBox unite(const FloatBox& a, const FloatBox& b) noexcept {
        FloatBox u;
        for (int d = 0; d < 3; ++d) {
            u.lo[d] = std::min(a.lo[d], b.lo[d]);
            u.hi[d] = std::max(a.hi[d], b.hi[d]);
        }
        return u;
    }
    // Clears `out`, then appends every indexed box that overlaps q. A leaf's boxes are tested
    // without a branch per box (each key written, the count advanced by the verdict): whether a
    // box of a leaf the group's union reaches overlaps it is close to a coin toss.
    void gather(const FloatBox& q, Gathered& out) const {
        std::size_t n = 0;
        const std::size_t m = index_.size();
        const float* lo0 = columns_.data();
        visitLeaves(q, [&](std::int32_t first, std::int32_t end) {
            if (out.key.size() < n + kLeafSize) {
                out.key.resize(2 * (n + kLeafSize));
            }
            std::int32_t verdict[kLeafSize];
            const auto bit = [](bool b) { return static_cast<std::int32_t>(b); };
            const std::int32_t count = end - first;
            for (std::int32_t t = 0; t < count; ++t) {  // vectorized: six runs of floats
                const std::size_t i = static_cast<std::size_t>(first) + static_cast<std::size_t>(t);
                verdict[t] = bit(lo0[i] <= q.hi[0]) & bit(q.lo[0] <= lo0[m + i]) &
                             bit(lo0[2 * m + i] <= q.hi[1]) & bit(q.lo[1] <= lo0[3 * m + i]) &
                             bit(lo0[4 * m + i] <= q.hi[2]) & bit(q.lo[2] <= lo0[5 * m + i]);
            }
            std::uint64_t* key = out.key.data();
            for (std::int32_t t = 0; t < count; ++t) {
                const std::int32_t i = first + t;
                key[n] =
                    static_cast<std::uint64_t>(index_[i]) << 32 | static_cast<std::uint32_t>(i);
                n += static_cast<std::size_t>(verdict[t]);
            }
        });
        sortByIndex(out, n);
        for (auto* column : {&out.lo0, &out.hi0, &out.lo1, &out.hi1, &out.lo2, &out.hi2}) {
            column->resize(n);
        }
        out.id.resize(n);
        for (std::size_t c = 0; c < n; ++c) {
            const auto i = static_cast<std::uint32_t>(out.key[c]);
            out.lo0[c] = lo0[i];
            out.hi0[c] = lo0[m + i];
            out.lo1[c] = lo0[2 * m + i];
            out.hi1[c] = lo0[3 * m + i];
            out.lo2[c] = lo0[4 * m + i];
            out.hi2[c] = lo0[5 * m + i];
            out.id[c] = static_cast<Index>(out.key[c] >> 32);
        }
    }

    // Sorts out.key[0, n) (distinct input indices in the high halves). Where the indices span
    // at most kBitmapSpan (mesh numbering keeps a group's neighbours close), by a bitmap over
    // that span read in order: linear, where std::sort's comparisons were a tenth of the broad
    // phase. Otherwise std::sort. The same order either way.
    static void sortByIndex(Gathered& out, std::size_t n) {
        std::uint64_t* key = out.key.data();
        if (n < 2) {
            return;
        }
        std::uint64_t lo = key[0] >> 32;
        std::uint64_t hi = lo;
        for (std::size_t c = 1; c < n; ++c) {
            lo = std::min(lo, key[c] >> 32);
            hi = std::max(hi, key[c] >> 32);
        }
        if (hi - lo >= kBitmapSpan) {
            std::sort(key, key + n);
            return;
        }
        const std::size_t words = static_cast<std::size_t>((hi - lo) / 64 + 1);
        std::fill(out.bits.begin(), out.bits.begin() + static_cast<std::ptrdiff_t>(words), 0);
        for (std::size_t c = 0; c < n; ++c) {
            const auto at = static_cast<std::size_t>((key[c] >> 32) - lo);
            out.bits[at / 64] |= std::uint64_t{1} << (at % 64);
            out.position[at] = static_cast<std::uint32_t>(key[c]);
        }
        std::size_t c = 0;
        for (std::size_t w = 0; w < words; ++w) {
            for (std::uint64_t b = out.bits[w]; b != 0; b &= b - 1) {
                const auto at = 64 * w + static_cast<std::size_t>(__builtin_ctzll(b));
                key[c++] = (lo + at) << 32 | out.position[at];
            }
        }
    }

    // Stored box i (tree order).
    [[nodiscard]] FloatBox boxAt(std::size_t i) const noexcept {
        const std::size_t m = index_.size();
        FloatBox b;
        for (std::size_t k = 0; k < 3; ++k) {
            b.lo[k] = columns_[2 * k * m + i];
            b.hi[k] = columns_[(2 * k + 1) * m + i];
        }
        return b;
    }

    // Calls visit(position) for every stored box that overlaps q.
    template <class Visit>
    void visitOverlapping(const FloatBox& q, Visit&& visit) const {
        visitLeaves(q, [&](std::int32_t first, std::int32_t end) {
            for (std::int32_t i = first; i < end; ++i) {
                if (overlaps(boxAt(static_cast<std::size_t>(i)), q)) {
                    visit(i);
                }
            }
        });
    }

    // Calls leaf(first, end) for every leaf whose box overlaps q (its boxes: positions [first,
    // end)). A node's four child boxes are tested together, by columns (one vector compare per
    // bound), and each child that overlaps q is a leaf to visit or a node to descend into.
    template <class Leaf>
    void visitLeaves(const FloatBox& q, Leaf&& leaf) const {
        if (nodes_.empty()) {
            return;
        }
        std::int32_t stack[kMaxStack];
        int top = 0;
        std::int32_t n = 0;
        for (;;) {
            const Node& node = nodes_[static_cast<std::size_t>(n)];
            // The four children's verdicts together, one compare per bound (GCC / Clang vector
            // extensions: a lane is -1 where the compare holds).
            using V = float __attribute__((vector_size(4 * kWidth)));
            const auto load = [](const float* p) {
                V v;
                std::memcpy(&v, p, sizeof v);
                return v;
            };
            const auto all = [](float f) { return f - V{}; };
            const auto m = (load(node.lo0) <= all(q.hi[0])) & (all(q.lo[0]) <= load(node.hi0)) &
                           (load(node.lo1) <= all(q.hi[1])) & (all(q.lo[1]) <= load(node.hi1)) &
                           (load(node.lo2) <= all(q.hi[2])) & (all(q.lo[2]) <= load(node.hi2));
            unsigned hit[kWidth];
            for (int c = 0; c < kWidth; ++c) {
                hit[c] = static_cast<unsigned>(m[c] != 0);
            }
            // Leaves now; nodes pushed last child first, so that they come off in child order.
            for (int c = 0; c < kWidth; ++c) {
                if (hit[c] != 0U && node.count[c] > 0) {
                    leaf(node.first[c], node.first[c] + node.count[c]);
                }
            }
            for (int c = kWidth - 1; c >= 0; --c) {
                if (hit[c] != 0U && node.count[c] == 0) {
                    CONTACT_ASSERT(top < kMaxStack);
                    stack[top++] = node.first[c];
                }
            }
            if (top == 0) {
                return;
            }
            n = stack[--top];
        }
    }

    // Children per node: one vector of four floats per bound.
    static constexpr int kWidth = 4;
    // A node's children hold at most a quarter of its leaves (rounded up to a power of four), so
    // the depth is at most log4(n / kLeafSize) + 2 < 20; the stack holds at most kWidth - 1
    // pending children per level, plus the last level's kWidth.
    static constexpr int kMaxStack = 64;

    // Four children by columns: child c's box is (lo0[c], lo1[c], lo2[c]) .. (hi0[c], hi1[c],
    // hi2[c]); a missing child has NaN bounds (never overlaps) and count 0 with first -1.
    struct Node {
        float lo0[kWidth], hi0[kWidth], lo1[kWidth], hi1[kWidth], lo2[kWidth], hi2[kWidth];
        std::int32_t first[kWidth];  ///< leaf child: its first box; inner child: its node index
        std::int32_t count[kWidth];  ///< leaf child: number of boxes (> 0); inner child: 0
    };

    /// Node for stored boxes [begin, end) (at least one), appended to nodes_: its children over up
    /// to four runs of childSpan boxes, the last one the rest (one leaf child for up to kLeafSize
    /// boxes). Returns the union of the boxes.
    FloatBox buildRange(std::int32_t begin, std::int32_t end, int level);
    static std::int32_t childSpan(std::int32_t count);
    static std::size_t nodeCount(std::int32_t count);
    [[nodiscard]] static FloatBox childBox(const Node& node, int c) noexcept {
        FloatBox b;
        b.lo[0] = node.lo0[c];
        b.hi[0] = node.hi0[c];
        b.lo[1] = node.lo1[c];
        b.hi[1] = node.hi1[c];
        b.lo[2] = node.lo2[c];
        b.hi[2] = node.hi2[c];
        return b;
    }
    static void setChildBox(Node& node, int c, const FloatBox& b) noexcept {
        node.lo0[c] = b.lo[0];
        node.hi0[c] = b.hi[0];
        node.lo1[c] = b.lo[1];
        node.hi1[c] = b.hi[1];
        node.lo2[c] = b.lo[2];
        node.hi2[c] = b.hi[2];
    }
    /// Writes child c of node `at` for stored boxes [begin, end): a leaf when it fits, else a
    /// node (buildRange). Returns the child's box.
    FloatBox buildChild(std::size_t at, int c, std::int32_t begin, std::int32_t end, int level);
    void sortByMorton(const std::vector<FloatBox>& boxes);
    /// Builds from box i = boxOf(boxes[index_[i]]) once index_ holds the Morton order.
    template <class BoxOf>
    void buildSorted(const std::vector<FloatBox>& boxes, const BoxOf& boxOf);

    // The boxes in tree order, by columns: lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], each size()
    // long, so that a leaf's tests read six runs of floats (gather()).
    std::vector<float> columns_;
    std::vector<Index> index_;  // tree order -> input index
    std::vector<Node> nodes_;
    int depth_ = 0;
    float meanExtent_ = 0.0F;  // mean extentSum() of the finite indexed boxes
};
static_assert(checkBoxIndex<BoxTreeIndex>());

}  // namespace contact::detail
