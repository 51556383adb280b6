// SPDX-License-Identifier: MIT
// The Verlet cache: the fat boxes of the last build, the check that every box still lies inside
// its fat box, and the candidate list built from them. Internal; never installed.
//
// The argument: the list holds every pair whose fat boxes overlap (every box index reports every
// pair of overlapping float boxes). A fat box is the box at the last build grown by skin / 2 and
// rounded outward to float, so it encloses that box. If every current box still lies inside its
// fat box (checked exactly), any pair of boxes that overlap now share a point that lies in both
// fat boxes, so the pair is in the list. Node movement below skin / 2 is the special case of a
// point box.
#pragma once

#include "contact/surface.hpp"

#include "box_tree_index.hpp"
#include "candidate_list.hpp"
#include "float_box.hpp"
#include "kd_tree_index.hpp"
#include "search_context.hpp"
#include "sweep_index.hpp"

#include <cstddef>
#include <variant>
#include <vector>

namespace contact::detail {

/// The master fat boxes (in the box index built over them) and the candidate list.
class VerletCache {
public:
    /// An empty cache for `items` slave items in blocks of blockSize, with the index of `kind`.
    void setup(BroadPhaseKind kind, Index items, Index blockSize);
    /// True once a list was built and not dropped since.
    [[nodiscard]] bool valid() const noexcept { return valid_; }
    /// Drops the list: the next update rebuilds it.
    void invalidate() noexcept { valid_ = false; }

    /// True when every master box (each the float box rounded outward from the double box, which
    /// then lies inside a float box exactly when this one does) lies inside its fat box.
    [[nodiscard]] bool mastersInside(const std::vector<FloatBox>& masterBox, int threads) const;

    /// Builds the list: the fat boxes (masterBox grown by h) indexed, then item k's masters those
    /// whose fat box overlaps queryBox(k) and the filter keeps (CandidateList::build). Returns
    /// true when the sweep ran (SweepIndex kept its sort).
    template <class QueryBox, class MakeFilter>
    bool rebuild(const std::vector<FloatBox>& masterBox, double h, const QueryBox& queryBox,
                 const MakeFilter& makeFilter, int threads) {
        bool swept = false;
        valid_ = false;  // until built whole (an allocation may throw)
        std::visit(
            [&](auto& index) {
                index.build(masterBox, h, threads);
                list_.build(index, queryBox, makeFilter, threads);
                swept = sweptBy(index);
            },
            index_);
        valid_ = true;
        return swept;
    }

    [[nodiscard]] const CandidateList& list() const noexcept { return list_; }
    /// Bytes of the index and the list.
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    [[nodiscard]] static bool sweptBy(const SweepIndex& index) noexcept { return index.swept(); }
    template <class Other>
    [[nodiscard]] static bool sweptBy(const Other& /*index*/) noexcept {
        return false;
    }

    std::variant<KdTreeIndex, BoxTreeIndex, SweepIndex> index_;
    CandidateList list_;
    bool valid_ = false;
};

/// Node mode's slave fat boxes: the node positions of the last build rounded to float (12 bytes a
/// node instead of a 24-byte box) and one half size for all. Node k's fat box is ref -+ half
/// rounded outward to float: it holds every point within skin / 2 of the node then, and every
/// point within reach() of ref, which inside() checks.
class NodeFatBoxes {
public:
    /// Records the positions of `nodes` at x, for fat boxes of half size h = skin / 2 (and the
    /// rounding margins, kNodeFatMargin).
    void record(const CoordinatesView& x, const std::vector<Index>& nodes, double h, int threads);
    /// True when p (node k now) lies inside node k's fat box.
    [[nodiscard]] bool inside(Index k, const Eigen::Vector3d& p) const noexcept {
        const float* ref = &ref_[3 * static_cast<std::size_t>(k)];
        // One test, no branch per axis.
        return (static_cast<int>(std::abs(p[0] - ref[0]) <= reach_) &
                static_cast<int>(std::abs(p[1] - ref[1]) <= reach_) &
                static_cast<int>(std::abs(p[2] - ref[2]) <= reach_)) != 0;
    }
    /// Node k's fat box.
    [[nodiscard]] FloatBox box(Index k) const noexcept;
    void resize(Index nodes) { ref_.assign(3 * static_cast<std::size_t>(nodes), 0.0F); }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return ref_.capacity() * sizeof(float);
    }

private:
    std::vector<float> ref_;  // 3 per node
    double half_ = 0.0;
    double reach_ = 0.0;
};

}  // namespace contact::detail
