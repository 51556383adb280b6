// SPDX-License-Identifier: MIT
// A contact surface (segment types + connectivity) and a no-copy view of the solver's coordinates.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <initializer_list>
#include <string>
#include <vector>

namespace contact {

/// Segments of one contact surface: types and node indices into the solver's shared node array.
/// Coordinates are not stored: they arrive as a CoordinatesView at every update.
/// Mixed types are allowed (Tri3 and Quad4 in one surface), but all of one dimension.
struct Surface {
    std::string name;                ///< for messages and reports
    std::vector<SegmentType> types;  ///< type of each segment
    std::vector<Index> offsets{0};   ///< segment s has nodes connectivity[offsets[s], offsets[s+1])
    std::vector<Index> connectivity;  ///< node indices, node order as in types.hpp

    /// Appends one segment. Throws std::invalid_argument when the node count does not match type.
    void addSegment(SegmentType type, const Index* nodes, int count);
    void addSegment(SegmentType type, std::initializer_list<Index> nodes) {
        addSegment(type, nodes.begin(), static_cast<int>(nodes.size()));
    }

    /// Number of segments.
    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(types.size()); }
    [[nodiscard]] bool empty() const noexcept { return types.empty(); }
    /// Node indices of segment s.
    [[nodiscard]] const Index* nodes(Index s) const noexcept {
        return connectivity.data() + offsets[s];
    }
    /// Spatial dimension (2 for lines, 3 for faces) of the first segment; 0 when empty.
    [[nodiscard]] int dim() const noexcept { return empty() ? 0 : spatialDim(types[0]); }
};

/// Read-only view of nodal coordinates as the solver keeps them: interleaved x y (z) per node,
/// column-major 2xN or 3xN. Never copies; the data must outlive the call it is passed to.
struct CoordinatesView {
    const double* data = nullptr;
    Index numNodes = 0;
    int dim = 3;  ///< 2 or 3

    CoordinatesView() = default;
    CoordinatesView(const double* xyz, Index nodes, int dimension) noexcept
        : data(xyz), numNodes(nodes), dim(dimension) {}
    CoordinatesView(const Eigen::Matrix3Xd& x) noexcept  // NOLINT: implicit by design
        : data(x.data()), numNodes(static_cast<Index>(x.cols())), dim(3) {}
    CoordinatesView(const Eigen::Matrix2Xd& x) noexcept  // NOLINT: implicit by design
        : data(x.data()), numNodes(static_cast<Index>(x.cols())), dim(2) {}
    CoordinatesView(const Eigen::Map<const Eigen::Matrix3Xd>& x) noexcept  // NOLINT
        : data(x.data()), numNodes(static_cast<Index>(x.cols())), dim(3) {}
    CoordinatesView(const Eigen::Map<const Eigen::Matrix2Xd>& x) noexcept  // NOLINT
        : data(x.data()), numNodes(static_cast<Index>(x.cols())), dim(2) {}

    /// Node i as a 3D point (z = 0 in 2D).
    [[nodiscard]] Eigen::Vector3d node(Index i) const noexcept {
        const double* p = data + static_cast<std::ptrdiff_t>(i) * dim;
        return {p[0], p[1], dim == 3 ? p[2] : 0.0};
    }
};

/// Gathers the node coordinates of segment s of `surface` (no checks: validated surfaces only).
[[nodiscard]] inline SegmentNodes gatherSegment(const Surface& surface, Index s,
                                                const CoordinatesView& x) noexcept {
    SegmentNodes seg;
    seg.type = surface.types[s];
    const Index* n = surface.nodes(s);
    const int count = nodeCount(seg.type);
    for (int i = 0; i < count; ++i) {
        seg.x[i] = x.node(n[i]);
    }
    return seg;
}

}  // namespace contact
