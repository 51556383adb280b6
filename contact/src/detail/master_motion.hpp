// SPDX-License-Identifier: MIT
// Which master segments have a node that moved since the last update: a search on a reused list
// keeps the boxes of the others (a clamped die, a foundation). Internal; never installed.
#pragma once

#include "contact/surface.hpp"
#include "contact/types.hpp"

#include "detail/search_common.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace contact::detail {

/// The master nodes' coordinates at the last update (24 bytes each) and, per node of x from the
/// smallest master node to the largest, whether it moved at the last note (1 byte each). Off,
/// keeping nothing, where the masters move with the slave (self-contact) or no list is reused.
class MasterMotion {
public:
    /// Off when !on; else every master node counts as moved until noted.
    void setup(const Surface& master, bool on) {
        nodes_ = on ? uniqueNodes(master) : std::vector<Index>{};
        at_.assign(3 * nodes_.size(), 0.0);
        first_ = nodes_.empty() ? 0 : nodes_.front();
        moved_.assign(nodes_.empty() ? 0 : static_cast<std::size_t>(nodes_.back() - first_ + 1), 1);
    }
    [[nodiscard]] bool on() const noexcept { return !nodes_.empty(); }
    /// The master nodes, the range of note().
    [[nodiscard]] Index nodes() const noexcept { return static_cast<Index>(nodes_.size()); }
    /// Master node i: marks whether it moved since the last note (!=: a NaN counts as moved),
    /// then keeps its coordinates in x.
    void note(Index i, const CoordinatesView& x) noexcept {
        const Index n = nodes_[i];
        const Eigen::Vector3d p = x.node(n);
        double* at = &at_[3 * static_cast<std::size_t>(i)];
        moved_[n - first_] =
            static_cast<std::uint8_t>(p[0] != at[0] || p[1] != at[1] || p[2] != at[2]);
        at[0] = p[0];
        at[1] = p[1];
        at[2] = p[2];
    }
    /// Whether a node of master segment j moved at the last notes.
    [[nodiscard]] bool moved(const Surface& master, Index j) const noexcept {
        const Index* n = master.nodes(j);
        int any = 0;
        for (int i = 0; i < nodeCount(master.types[j]); ++i) {
            any |= moved_[n[i] - first_];
        }
        return any != 0;
    }
    [[nodiscard]] std::size_t memoryBytes() const noexcept {
        return nodes_.capacity() * sizeof(Index) + at_.capacity() * sizeof(double) +
               moved_.capacity();
    }

private:
    std::vector<Index> nodes_;  // increasing
    std::vector<double> at_;    // x y z per master node
    Index first_ = 0;           // the smallest master node: moved_[n - first_] is node n's
    std::vector<std::uint8_t> moved_;
};

}  // namespace contact::detail
