// SPDX-License-Identifier: MIT
// Broad phase: all pairs of axis-aligned boxes that overlap, through kd-trees of box centres
// (BroadPhase) or a bounding-volume hierarchy of float boxes rounded outward (BoxTree).
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace contact {

/// Counters of one query (what the tree visited), free to collect.
struct BroadPhaseStats {
    long long reported = 0;  ///< centres within the search radius (before the exact box test)
    long long accepted = 0;  ///< boxes that overlap the query box
};

/// Indexes a set of closed AABBs and reports, for a query box, every indexed box that overlaps it.
///
/// A kd-tree indexes points, not boxes. Boxes are grouped into size classes (half-diagonals
/// within a factor of 2), with one nanoflann kd-tree over the centres of each class. For a query
/// box with centre q and half-diagonal r_q, class c is searched with radius r_q + R_c, R_c the
/// largest half-diagonal in the class. Why no overlap is missed: if boxes Q and B share a point z,
/// then |q - z| <= r_q and |z - b| <= r_b <= R_c, so |q - b| <= r_q + R_c. The radius is padded for
/// rounding, and an exact box test in the result callback removes the extra centres. The classes
/// keep graded meshes (sizes varying 1000x) from searching every small box with the largest radius.
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
/// The boxes are copied in at build(), so the caller's arrays may change afterwards.
struct FloatBox;

class BroadPhase {
public:
    BroadPhase();
    ~BroadPhase();
    BroadPhase(BroadPhase&&) noexcept;
    BroadPhase& operator=(BroadPhase&&) noexcept;
    BroadPhase(const BroadPhase&) = delete;
    BroadPhase& operator=(const BroadPhase&) = delete;

    /// Indexes boxes i = 0..n-1 given by the columns lo.col(i), hi.col(i) (lo <= hi).
    /// Reuses its buffers when called again with at most as many boxes.
    void build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi);
    /// Same for float boxes, stored as floats (half the memory): the exact test then compares the
    /// query box against the float box. threads > 1: the passes over the boxes run on that many
    /// threads, and each size class of at least 2 leaves per slice is also cut into that many
    /// spatial slices (at quantiles of a sample of its centres along their longest axis), whose
    /// trees are built in parallel.
    void build(const std::vector<FloatBox>& boxes, int threads = 1);

    /// Appends to `out` the index of every indexed box that overlaps [qlo, qhi] (closed boxes:
    /// touching counts), in no particular order. Allocates only when `out` must grow.
    void query(const Eigen::Vector3d& qlo, const Eigen::Vector3d& qhi, std::vector<Index>& out,
               BroadPhaseStats* stats = nullptr) const;

    /// Number of indexed boxes.
    [[nodiscard]] Index size() const noexcept;
    /// Box i as given to build(const std::vector<FloatBox>&, int) (float builds only).
    [[nodiscard]] const FloatBox& floatBox(Index i) const noexcept;
    /// Number of size classes (kd-trees) built.
    [[nodiscard]] int sizeClasses() const noexcept;
    /// Bytes held by the index (boxes, centres, trees).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Float box rounded outward: lo <= the double lo, hi >= the double hi, so the float box encloses
/// the double box and a float overlap test can only add pairs, never lose one.
struct FloatBox {
    float lo[3] = {0.0F, 0.0F, 0.0F};
    float hi[3] = {0.0F, 0.0F, 0.0F};
};

/// v rounded to float, then moved one float toward -inf (up = false) or +inf (up = true) when the
/// rounding went the other way. Branch-free: the sign of the rounding is data, not a jump, so
/// boxes converted in a loop do not pay a mispredicted branch per bound. The step is on the bits
/// (magnitude grows away from zero); zero never needs it in the direction of its sign (a value
/// that rounds to +0 is >= 0, one that rounds to -0 is <= 0), so no bit pattern wraps.
[[nodiscard]] inline float floatRounded(double v, bool up) noexcept {
    const float f = static_cast<float>(v);
    const double back = static_cast<double>(f);
    const bool step = up ? back < v : back > v;  // false for NaN
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    const bool negative = (bits >> 31) != 0U;
    // Toward +inf: magnitude grows for positive f; toward -inf: for negative f.
    const std::uint32_t delta = (negative != up) ? 1U : 0xFFFFFFFFU;
    bits += step ? delta : 0U;
    float r = 0.0F;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}
/// Largest float <= v (round toward -inf); NaN stays NaN.
[[nodiscard]] inline float floatDown(double v) noexcept { return floatRounded(v, false); }
/// Smallest float >= v (round toward +inf); NaN stays NaN.
[[nodiscard]] inline float floatUp(double v) noexcept { return floatRounded(v, true); }
/// The float box enclosing [lo - grow, hi + grow] (each bound rounded outward).
[[nodiscard]] FloatBox floatBoxOutward(const double* lo, const double* hi, double grow) noexcept;
/// The float box enclosing [lo, hi] (each bound rounded outward).
[[nodiscard]] inline FloatBox floatBoxOutward(const double* lo, const double* hi) noexcept {
    FloatBox b;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = floatDown(lo[k]);
        b.hi[k] = floatUp(hi[k]);
    }
    return b;
}

/// True when two closed float boxes share a point.
[[nodiscard]] inline bool overlaps(const FloatBox& a, const FloatBox& b) noexcept {
    return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
           a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

/// True when the double box [lo, hi] lies inside the closed float box b.
[[nodiscard]] inline bool insideFloatBox(const double* lo, const double* hi,
                                         const FloatBox& b) noexcept {
    return lo[0] >= b.lo[0] && lo[1] >= b.lo[1] && lo[2] >= b.lo[2] && hi[0] <= b.hi[0] &&
           hi[1] <= b.hi[1] && hi[2] <= b.hi[2];
}

/// Static bounding-volume hierarchy over float boxes: reports, for a query float box, every
/// indexed box that overlaps it in float (closed boxes, exact comparisons of floats).
///
/// Why no overlap is missed: a node's box is the componentwise min/max of its children's boxes
/// (exact in float), so it encloses every leaf box below it; a leaf box that overlaps the query
/// makes every ancestor's box overlap it, and the traversal descends into every node whose box
/// overlaps the query. Boxes given in double are rounded outward first (floatBoxOutward), so an
/// overlap of the double boxes is always an overlap of the float boxes; callers that need the
/// exact double pair set filter the reports with their double boxes.
///
/// Build: boxes sorted along a 63-bit Morton curve of their centres (radix sort), then split at the
/// median of that order down to leaves of at most kLeafSize boxes; nodes in depth-first order (left
/// child next to its parent). Size: 28 bytes per box + 32 bytes per node (about n / 2 nodes).
///
/// Thread safety: query() is const and safe from concurrent threads; build() is not.
class BoxTree {
public:
    static constexpr int kLeafSize = 4;

    /// Indexes boxes i = 0..n-1 (n = boxes.size()). Reuses its buffers.
    void build(const std::vector<FloatBox>& boxes);
    /// Same for double boxes given as columns lo.col(i), hi.col(i), rounded outward.
    void build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi);

    /// Calls visit(i) for every indexed box i that overlaps q, in no particular order.
    template <class Visit>
    void query(const FloatBox& q, Visit&& visit) const {
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

    /// Number of indexed boxes.
    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(index_.size()); }
    /// Bytes held (boxes, index map, nodes, build scratch).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;
    /// Depth of the deepest leaf (root = 0).
    [[nodiscard]] int depth() const noexcept { return depth_; }
    /// Checks the structure: every node box encloses its children, every box appears once.
    [[nodiscard]] bool validate() const;

private:
    // A median split halves the count, so the depth is at most log2(n / kLeafSize) + 1 < 40.
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

/// Every overlapping pair between two sets of float boxes A and B by sort and sweep: both sets
/// sorted by their lower bound along one axis, then, in the merged order, each box scans the other
/// set forward while the lower bounds there do not exceed its own upper bound, testing the other
/// two axes. A pair whose intervals along the axis overlap is scanned exactly once, by the box with
/// the smaller lower bound (A first on ties): when it is visited, the other box has not been passed
/// yet, and its lower bound lies within the scanned range. Comparisons of floats are exact, so the
/// pairs are exactly those overlaps() reports.
///
/// Suited to one-dimensional arrangements, the contact curves of 2D models: along the curve's
/// long axis each box meets a few others, and the cost is two sorts and a linear scan. On a
/// surface every box meets the whole slab around it, so prepare() first counts the pairs the sweep
/// would scan (lower bounds only) and the caller falls back to a tree when that count is large.
/// Boxes must not hold NaN. Thread safety: forEachPair() is const; prepare() is not.
class BoxSweep {
public:
    /// Scanned pairs per box beyond which a tree is the better choice: a tree query costs about as
    /// much as this many key comparisons and box tests (bench/, broad phase on surfaces).
    static constexpr long long kScanPerBoxLimit = 32;

    /// Sorts both sets along the axis where the boxes spread most relative to their widths and
    /// counts the pairs a sweep would scan. Returns that count, or maxScan + 1 as soon as it
    /// exceeds maxScan (the sweep is then still valid, only slow).
    long long prepare(const std::vector<FloatBox>& a, const std::vector<FloatBox>& b,
                      long long maxScan);
    /// prepare() with the limit of kScanPerBoxLimit pairs per box of both sets: true when the
    /// sweep is worth running; otherwise the sorted copies are freed and a tree should be used.
    bool prepareIfFast(const std::vector<FloatBox>& a, const std::vector<FloatBox>& b);

    /// Calls visit(ia, ib) for every pair with a[ia] and b[ib] overlapping (closed boxes), each
    /// pair once, in sweep order.
    template <class Visit>
    void forEachPair(Visit&& visit) const {
        walk([&](const Entry& e, const Sorted& other, std::size_t from, bool eFromB) {
            for (std::size_t q = from; q < other.key.size() && other.key[q] <= e.hi; ++q) {
                if (crossOverlap(e, other.entry[q])) {
                    eFromB ? visit(other.entry[q].id, e.id) : visit(e.id, other.entry[q].id);
                }
            }
            return true;
        });
    }

    /// The sweep axis chosen by the last prepare().
    [[nodiscard]] int axis() const noexcept { return axis_; }
    /// Frees the sorted copies (a sweep is used once per prepare).
    void release();
    /// Bytes held (sorted keys and boxes of both sets).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    // A box without its lower bound along the sweep axis (kept apart, in `key`, for the scans).
    struct Entry {
        float hi = 0.0F;               // upper bound along the axis
        float lo1 = 0.0F, hi1 = 0.0F;  // the next axis
        float lo2 = 0.0F, hi2 = 0.0F;  // the one after
        Index id = 0;                  // index in the input set
    };
    struct Sorted {
        std::vector<float> key;  // lower bounds along the axis, ascending
        std::vector<Entry> entry;
    };

    // Both sets in merged order of their lower bounds (A first on ties): for each box e, calls
    // scan(e, other set, first position there not yet passed, e is from B); stops when it returns
    // false. The one walk of forEachPair and of prepare's count, so the count is exact.
    template <class Scan>
    void walk(Scan&& scan) const {
        const std::size_t na = a_.key.size();
        const std::size_t nb = b_.key.size();
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < na && j < nb) {
            if (a_.key[i] <= b_.key[j]) {
                if (!scan(a_.entry[i++], b_, j, false)) {
                    return;
                }
            } else if (!scan(b_.entry[j++], a_, i, true)) {
                return;
            }
        }
    }
    [[nodiscard]] static bool crossOverlap(const Entry& a, const Entry& b) noexcept {
        return a.lo1 <= b.hi1 && b.lo1 <= a.hi1 && a.lo2 <= b.hi2 && b.lo2 <= a.hi2;
    }
    void sortSet(const std::vector<FloatBox>& boxes, Sorted& out) const;

    Sorted a_;
    Sorted b_;
    int axis_ = 0;
};

}  // namespace contact
