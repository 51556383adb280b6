// SPDX-License-Identifier: MIT
// What a search returns: node-to-segment pairs with their closest points, or segment pairs.
#pragma once

#include "contact/projection.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <cassert>
#include <vector>

namespace contact {

namespace detail {
struct PairStore;  // the searches fill the columns (contact/src/detail/pair_store.hpp)
}  // namespace detail

/// Read-only view of `size()` contiguous values (std::span<const T> of C++20). Indexing is
/// checked by assert() in builds without NDEBUG.
template <class T>
class ConstSpan {
public:
    ConstSpan() = default;
    ConstSpan(const T* data, Index size) noexcept : data_(data), size_(size) {}

    [[nodiscard]] const T* data() const noexcept { return data_; }
    [[nodiscard]] Index size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] const T& operator[](Index i) const noexcept {
        assert(i >= 0 && i < size_);
        return data_[i];
    }
    [[nodiscard]] const T* begin() const noexcept { return data_; }
    [[nodiscard]] const T* end() const noexcept { return data_ + size_; }

private:
    const T* data_ = nullptr;
    Index size_ = 0;
};

/// Node-to-segment pairs (docs/design.md, "What a pair is"): one per slave node within the
/// capture distance of the master surface, ordered by slave node index. Every view has exactly
/// size() entries (columns); the storage behind them is sized once, at setSurfaces, and reused.
class NodePairs {
public:
    using ShapeMatrix = Eigen::Matrix<double, kMaxSegmentNodes, Eigen::Dynamic>;

    /// The columns as owned arrays, one entry per pair, for pairs assembled outside a search
    /// (contact::mpi gathers them from the MPI ranks). The matrices are column-major arrays: xi
    /// 2 x n, point to tangent2 3 x n, shape kMaxSegmentNodes x n.
    struct Columns {
        std::vector<Index> slave;
        std::vector<Index> master;
        std::vector<double> gap;
        std::vector<double> distance;
        std::vector<ProjectionStatus> status;
        std::vector<double> xi;
        std::vector<double> point;
        std::vector<double> normal;
        std::vector<double> tangent1;
        std::vector<double> tangent2;
        std::vector<double> shape;
    };

    NodePairs() = default;
    /// Takes the columns over. Throws std::invalid_argument when their lengths differ (n entries,
    /// 2n values of xi, ...).
    CONTACT_API explicit NodePairs(Columns columns);

    [[nodiscard]] Index size() const noexcept { return count_; }
    [[nodiscard]] bool empty() const noexcept { return count_ == 0; }

    /// Slave node index (into the coordinates).
    [[nodiscard]] ConstSpan<Index> slave() const noexcept { return {slave_.data(), count_}; }
    /// Master segment index holding the closest point (ties: the lowest index).
    [[nodiscard]] ConstSpan<Index> master() const noexcept { return {master_.data(), count_}; }
    /// (x_slave - point) . normal, in length units; negative = penetration.
    [[nodiscard]] ConstSpan<double> gap() const noexcept { return {gap_.data(), count_}; }
    /// |x_slave - point| (>= 0, at most the capture distance).
    [[nodiscard]] ConstSpan<double> distance() const noexcept { return {distance_.data(), count_}; }
    [[nodiscard]] ConstSpan<ProjectionStatus> status() const noexcept {
        return {status_.data(), count_};
    }
    /// Local coordinates of the closest point on the master (eta = 0 on lines), 2 x size().
    [[nodiscard]] Eigen::Map<const Eigen::Matrix2Xd> xi() const noexcept {
        return {xi_.data(), 2, count_};
    }
    /// Closest point on the master segment, 3 x size() (z = 0 in 2D).
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> point() const noexcept {
        return {point_.data(), 3, count_};
    }
    /// Unit outward normal of the master at the closest point, 3 x size().
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> normal() const noexcept {
        return {normal_.data(), 3, count_};
    }
    /// Unit tangents of the master at the closest point (tangent1 along dx/dxi, tangent2 =
    /// normal x tangent1; +z on lines), 3 x size().
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> tangent1() const noexcept {
        return {tangent1_.data(), 3, count_};
    }
    [[nodiscard]] Eigen::Map<const Eigen::Matrix3Xd> tangent2() const noexcept {
        return {tangent2_.data(), 3, count_};
    }
    /// Master shape-function values N_i at xi, kMaxSegmentNodes x size(); rows beyond the master
    /// segment's node count are zero.
    [[nodiscard]] Eigen::Map<const ShapeMatrix> shape() const noexcept {
        return {shape_.data(), kMaxSegmentNodes, count_};
    }

private:
    friend struct detail::PairStore;
    std::vector<Index> slave_;
    std::vector<Index> master_;
    // Column-major matrices behind the views, in std::vector, not Eigen matrices: Eigen allocates
    // with plain malloc in a build for the x86-64 baseline and frees with its own aligned free
    // under -mavx, and these are allocated in the library and freed, copied or moved wherever a
    // NodePairs is (README, "Vector flags").
    std::vector<double> xi_;
    std::vector<double> point_;
    std::vector<double> normal_;
    std::vector<double> tangent1_;
    std::vector<double> tangent2_;
    std::vector<double> shape_;
    std::vector<double> gap_;
    std::vector<double> distance_;
    std::vector<ProjectionStatus> status_;
    Index count_ = 0;
};

/// Segment-to-segment pairs: each (slave segment, master segment) whose buffered boxes overlap
/// after the SAT test, ordered by (slave, master).
class SegmentPairs {
public:
    SegmentPairs() = default;
    /// Pairs assembled outside a search. Throws std::invalid_argument when the lengths differ.
    CONTACT_API SegmentPairs(std::vector<Index> slave, std::vector<Index> master);
    [[nodiscard]] Index size() const noexcept { return count_; }
    [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
    /// Slave segment index.
    [[nodiscard]] ConstSpan<Index> slave() const noexcept { return {slave_.data(), count_}; }
    /// Master segment index.
    [[nodiscard]] ConstSpan<Index> master() const noexcept { return {master_.data(), count_}; }

private:
    friend struct detail::PairStore;
    std::vector<Index> slave_;
    std::vector<Index> master_;
    Index count_ = 0;
};

}  // namespace contact
