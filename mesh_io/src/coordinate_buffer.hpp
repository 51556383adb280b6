// SPDX-License-Identifier: MIT
// Node coordinates appended straight into the model's 3 x N matrix while a file is read.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cstddef>

namespace mesh_io::detail {

/// Appends x, y, z values to a 3 x N matrix (Model::coords), growing its column count by doubling.
/// Eigen grows a matrix of doubles with realloc, which moves a large block without copying it
/// (mremap), so the coordinates are never held twice, as a std::vector copied into the matrix at
/// the end would be.
class CoordinateBuffer {
public:
    explicit CoordinateBuffer(contact::Matrix3XdUnaligned& x) : x_(x) { x_.resize(3, 0); }

    /// Room for `nodes` nodes in all (a hint: appending past it still works).
    void reserve(std::size_t nodes) {
        if (nodes > static_cast<std::size_t>(x_.cols())) {
            x_.conservativeResize(3, static_cast<Eigen::Index>(nodes));
        }
    }
    /// Appends one coordinate: x, y, z of a node in turn.
    void push(double v) {
        if (size_ == static_cast<std::size_t>(x_.size())) {
            reserve(std::max<std::size_t>(1024, 2 * static_cast<std::size_t>(x_.cols())));
        }
        x_.data()[size_++] = v;
    }
    /// Continues after the nodes the matrix holds now (a copy of another model's, say).
    void resume() { size_ = static_cast<std::size_t>(x_.size()); }
    /// Values appended so far (3 per node).
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    /// Cuts the matrix to the complete nodes appended.
    void finish() { x_.conservativeResize(3, static_cast<Eigen::Index>(size_ / 3)); }

private:
    contact::Matrix3XdUnaligned& x_;
    std::size_t size_ = 0;
};

}  // namespace mesh_io::detail
