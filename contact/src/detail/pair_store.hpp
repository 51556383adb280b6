// SPDX-License-Identifier: MIT
// How the searches write their results: the only code that reaches the columns behind NodePairs
// and SegmentPairs. Internal; never installed.
#pragma once

#include "contact/pairs.hpp"
#include "contact/projection.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <vector>

namespace contact::detail {

struct PairStore {
    /// Sizes every column of `pairs` to hold `capacity` pairs (count = 0). The only allocation.
    static void reserve(NodePairs& pairs, Index capacity);
    /// Column capacity (pairs that fit without an allocation).
    [[nodiscard]] static Index capacity(const NodePairs& pairs) noexcept {
        return static_cast<Index>(pairs.slave_.size());
    }
    static void setCount(NodePairs& pairs, Index count) noexcept { pairs.count_ = count; }

    /// Writes pair column `col` from a projection.
    static void store(NodePairs& pairs, Index col, Index slave, Index master,
                      const Projection& pr) noexcept;

    /// Writes the closest point of a pair at column `col`: slave, master, xi, distance, and in
    /// status kConverged or kNotConverged; the other columns are left for store().
    static void storeClosest(NodePairs& pairs, Index col, Index slave, Index master,
                             const ClosestXi& c) noexcept;
    /// The closest point that storeClosest() wrote at column `col`.
    [[nodiscard]] static ClosestXi loadClosest(const NodePairs& pairs, Index col) noexcept;
    /// Slave and master written at column `col`.
    [[nodiscard]] static Index slaveAt(const NodePairs& pairs, Index col) noexcept {
        return pairs.slave_[col];
    }
    [[nodiscard]] static Index masterAt(const NodePairs& pairs, Index col) noexcept {
        return pairs.master_[col];
    }
    [[nodiscard]] static ProjectionStatus statusAt(const NodePairs& pairs, Index col) noexcept {
        return pairs.status_[col];
    }

    /// Closes the gaps between blocks of closest points (the columns storeClosest() writes): block
    /// c holds count[c] pairs from column c * blockSize and moves to just after block c - 1.
    /// Columns of one array move in block order (a block's target ends before the next block
    /// starts); the arrays are spread over `threads`. Returns the number of pairs.
    static Index compactBlocks(NodePairs& pairs, const std::vector<Index>& count, Index blockSize,
                               int threads) noexcept;

    /// Segment pairs: room for at least `count` pairs, growing geometrically.
    static void reserve(SegmentPairs& pairs, Index count);
    static void set(SegmentPairs& pairs, Index col, Index slave, Index master) noexcept {
        pairs.slave_[col] = slave;
        pairs.master_[col] = master;
    }
    static void append(SegmentPairs& pairs, Index slave, Index master);
    static void setCount(SegmentPairs& pairs, Index count) noexcept { pairs.count_ = count; }

private:
    /// Column `col` of a column-major array of Rows values per column (the arrays of NodePairs).
    template <int Rows>
    [[nodiscard]] static Eigen::Map<Eigen::Matrix<double, Rows, 1>> columnOf(std::vector<double>& v,
                                                                             Index col) noexcept {
        return Eigen::Map<Eigen::Matrix<double, Rows, 1>>(v.data() + std::ptrdiff_t{Rows} * col);
    }
    template <int Rows>
    [[nodiscard]] static Eigen::Map<const Eigen::Matrix<double, Rows, 1>>
    columnOf(const std::vector<double>& v, Index col) noexcept {
        return Eigen::Map<const Eigen::Matrix<double, Rows, 1>>(v.data() +
                                                                std::ptrdiff_t{Rows} * col);
    }
};

}  // namespace contact::detail
