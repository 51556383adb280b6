// SPDX-License-Identifier: MIT
#include "detail/pair_store.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace contact::detail {

void PairStore::reserve(NodePairs& pairs, Index capacity) {
    pairs.slave_.resize(capacity);
    pairs.master_.resize(capacity);
    const auto n = static_cast<std::size_t>(capacity);
    pairs.xi_.resize(2 * n);
    pairs.point_.resize(3 * n);
    pairs.normal_.resize(3 * n);
    pairs.tangent1_.resize(3 * n);
    pairs.tangent2_.resize(3 * n);
    pairs.shape_.resize(kMaxSegmentNodes * n);
    pairs.gap_.resize(capacity);
    pairs.distance_.resize(capacity);
    pairs.status_.resize(capacity);
    pairs.count_ = 0;
}

void PairStore::store(NodePairs& pairs, Index col, Index slave, Index master,
                      const Projection& pr) noexcept {
    pairs.slave_[col] = slave;
    pairs.master_[col] = master;
    columnOf<2>(pairs.xi_, col) = pr.xi;
    columnOf<3>(pairs.point_, col) = pr.point;
    columnOf<3>(pairs.normal_, col) = pr.normal;
    columnOf<3>(pairs.tangent1_, col) = pr.tangent1;
    columnOf<3>(pairs.tangent2_, col) = pr.tangent2;
    columnOf<kMaxSegmentNodes>(pairs.shape_, col) =
        Eigen::Map<const Eigen::Matrix<double, kMaxSegmentNodes, 1>>(pr.N.data());
    pairs.gap_[col] = pr.gap;
    pairs.distance_[col] = pr.distance;
    pairs.status_[col] = pr.status;
}

void PairStore::storeClosest(NodePairs& pairs, Index col, Index slave, Index master,
                             const ClosestXi& c) noexcept {
    pairs.slave_[col] = slave;
    pairs.master_[col] = master;
    columnOf<2>(pairs.xi_, col) = c.xi;
    pairs.distance_[col] = c.distance;
    pairs.status_[col] =
        c.converged ? ProjectionStatus::kConverged : ProjectionStatus::kNotConverged;
}

ClosestXi PairStore::loadClosest(const NodePairs& pairs, Index col) noexcept {
    return {columnOf<2>(pairs.xi_, col), pairs.distance_[col],
            pairs.status_[col] == ProjectionStatus::kConverged};
}

Index PairStore::compactBlocks(NodePairs& pairs, const std::vector<Index>& count, Index blockSize,
                               int threads) noexcept {
    // Every column array as (first value, values per column, value size).
    struct Column {
        void* data;
        std::size_t perColumn;
        std::size_t bytes;
    };
    const auto column = [](auto* data, Eigen::Index perColumn) {
        return Column{data, static_cast<std::size_t>(perColumn), sizeof(*data)};
    };
    const Column columns[] = {
        column(pairs.xi_.data(), 2),     column(pairs.distance_.data(), 1),
        column(pairs.slave_.data(), 1),  column(pairs.master_.data(), 1),
        column(pairs.status_.data(), 1),
    };
    const int numColumns = static_cast<int>(std::size(columns));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int a = 0; a < numColumns; ++a) {  // NOLINT(modernize-loop-convert): an OpenMP loop
        const Column& c = columns[a];
        auto* base = static_cast<unsigned char*>(c.data);
        const std::size_t columnBytes = c.perColumn * c.bytes;
        std::size_t to = 0;
        for (std::size_t b = 0; b < count.size(); ++b) {
            const std::size_t from = b * static_cast<std::size_t>(blockSize);
            const std::size_t n = static_cast<std::size_t>(count[b]);
            if (n > 0 && from != to) {
                std::memmove(base + to * columnBytes, base + from * columnBytes, n * columnBytes);
            }
            to += n;
        }
    }
    Index total = 0;
    for (const Index n : count) {
        total += n;
    }
    return total;
}

void PairStore::reserve(SegmentPairs& pairs, Index count) {
    // The shorter column: an allocation that threw between the two resizes left them unequal.
    const std::size_t room = std::min(pairs.slave_.size(), pairs.master_.size());
    if (static_cast<std::size_t>(count) > room) {
        const std::size_t grown = std::max<std::size_t>(count, 2 * room);
        pairs.slave_.resize(grown);
        pairs.master_.resize(grown);
    }
}

void PairStore::append(SegmentPairs& pairs, Index slave, Index master) {
    reserve(pairs, pairs.count_ + 1);
    set(pairs, pairs.count_++, slave, master);
}

}  // namespace contact::detail
