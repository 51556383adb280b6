// SPDX-License-Identifier: MIT
// A contact surface (segment types + connectivity) and a no-copy view of the solver's coordinates.
#pragma once

#include "contact/export.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace contact {

/// Segments of one contact surface: types and node indices into the solver's shared node array.
/// Coordinates are not stored: they arrive as a CoordinatesView at every update.
/// Mixed types are allowed (Tri3 and Quad4 in one surface), but all of one dimension.
struct CONTACT_API Surface {
    std::string name;                ///< for messages and reports
    std::vector<SegmentType> types;  ///< type of each segment
    std::vector<Index> offsets{0};   ///< segment s has nodes connectivity[offsets[s], offsets[s+1])
    std::vector<Index> connectivity;  ///< node indices, node order as in types.hpp

    /// Appends one segment. Throws std::invalid_argument when the node count does not match type,
    /// type is none of SegmentType's values, or nodes is null.
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

/// Read-only view of nodal coordinates in the layouts solvers keep them, never copied:
///
///   interleaved  x0 y0 z0 x1 y1 z1 ...        (Eigen 3xN, Fortran x(3, n), C double x[n][3])
///   separate     x0 x1 ...  y0 y1 ...  z0 ...  (three arrays, or Fortran x(n, 3))
///   strided      node i's x, y, z at first + i * stride + 0, 1, 2 (nodal records holding more)
///
/// Node i's component c is at component(c)[i * stride]. In 2D z is nullptr. The data must stay
/// valid and unchanged during the call the view is passed to; nothing is kept after it.
struct CoordinatesView {
    const double* x = nullptr;  ///< node 0's x
    const double* y = nullptr;  ///< node 0's y
    const double* z = nullptr;  ///< node 0's z; nullptr in 2D
    std::ptrdiff_t stride = 0;  ///< doubles from one node to the next, in every component
    Index numNodes = 0;
    int dim = 3;  ///< 2 or 3

    CoordinatesView() = default;
    /// Interleaved: node i at xyz[dim * i], xyz[dim * i + 1] (, xyz[dim * i + 2]).
    CoordinatesView(const double* xyz, Index nodes, int dimension) noexcept
        : CoordinatesView(strided(xyz, dimension, nodes, dimension)) {}
    CoordinatesView(const Eigen::Matrix3Xd& m) noexcept  // NOLINT: implicit by design
        : CoordinatesView(m.data(), static_cast<Index>(m.cols()), 3) {}
    CoordinatesView(const Eigen::Matrix2Xd& m) noexcept  // NOLINT: implicit by design
        : CoordinatesView(m.data(), static_cast<Index>(m.cols()), 2) {}
    CoordinatesView(const Matrix3XdUnaligned& m) noexcept  // NOLINT: implicit by design
        : CoordinatesView(m.data(), static_cast<Index>(m.cols()), 3) {}
    CoordinatesView(const Eigen::Map<const Eigen::Matrix3Xd>& m) noexcept  // NOLINT
        : CoordinatesView(m.data(), static_cast<Index>(m.cols()), 3) {}
    CoordinatesView(const Eigen::Map<const Eigen::Matrix2Xd>& m) noexcept  // NOLINT
        : CoordinatesView(m.data(), static_cast<Index>(m.cols()), 2) {}

    /// Interleaved x y (z) per node, `dimension` doubles per node.
    [[nodiscard]] static CoordinatesView interleaved(const double* xyz, Index nodes,
                                                     int dimension) noexcept {
        return strided(xyz, dimension, nodes, dimension);
    }
    /// Separate arrays of `nodes` values each; z = nullptr for a 2D model.
    [[nodiscard]] static CoordinatesView separate(const double* xs, const double* ys,
                                                  const double* zs, Index nodes) noexcept {
        CoordinatesView v;
        v.x = xs;
        v.y = ys;
        v.z = zs;
        v.stride = 1;
        v.numNodes = nodes;
        v.dim = zs == nullptr ? 2 : 3;
        return v;
    }
    /// Node i's components at first[i * nodeStride + c], c < dimension (nodeStride >= dimension).
    [[nodiscard]] static CoordinatesView strided(const double* first, std::ptrdiff_t nodeStride,
                                                 Index nodes, int dimension) noexcept {
        CoordinatesView v;
        v.x = first;
        v.y = first == nullptr ? nullptr : first + 1;
        v.z = first == nullptr || dimension != 3 ? nullptr : first + 2;
        v.stride = nodeStride;
        v.numNodes = nodes;
        v.dim = dimension;
        return v;
    }

    /// What is wrong with the view itself, or nullptr: a dimension other than 2 or 3, a negative
    /// node count, a null component pointer (z must be null in 2D), a stride below 1, or below the
    /// dimension where the components are interleaved (y right after x: the nodes would overlap).
    [[nodiscard]] const char* problem() const noexcept {
        if (dim != 2 && dim != 3) {
            return "the dimension must be 2 or 3";
        }
        if (numNodes < 0) {
            return "the node count is negative";
        }
        if (numNodes > 0 && (x == nullptr || y == nullptr || (dim == 3 && z == nullptr))) {
            return "a coordinate pointer is null";
        }
        if (dim == 2 && z != nullptr) {
            return "2D coordinates have a z pointer";
        }
        if (numNodes > 0 && stride < 1) {
            return "the stride must be at least 1";
        }
        if (numNodes > 1 && y == x + 1 && stride < dim) {
            return "the stride is below the dimension: interleaved nodes would overlap";
        }
        return nullptr;
    }

    /// Node i as a 3D point (z = 0 in 2D).
    [[nodiscard]] Eigen::Vector3d node(Index i) const noexcept {
        const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(i) * stride;
        return {x[o], y[o], z != nullptr ? z[o] : 0.0};
    }
};

/// Volume enclosed by a closed surface (area in 2D), by the divergence theorem over its segments:
/// (1/3) sum of the integrals of x . n dA (1/2 and dS in 2D), Gauss points on each segment.
/// Positive when the segments face out of the solid, as their node order should (types.hpp);
/// negative when the whole surface faces into it (inside-out). NaN unless the surface is closed
/// and consistently ordered: every corner edge of a face run once each way (2D: every end node
/// the start of one line and the end of one), as on the whole boundary of a solid; or when the
/// surface is empty or a node index is out of range of x. Throws std::invalid_argument naming the
/// segment when the surface is malformed: offsets that do not match the segment count and
/// connectivity, a type that is no SegmentType or a segment with another node count than its
/// type's.
[[nodiscard]] CONTACT_API double enclosedVolume(const Surface& surface, const CoordinatesView& x);

/// A surface refused by ContactSearch::setSurfaces or referenceSearch. what() names the segment
/// and node by their indices in the surfaces given; the parts let a caller that numbers them
/// otherwise (a mesh file's element and node ids) say the same in its own terms.
class CONTACT_API SurfaceError : public std::invalid_argument {
public:
    /// `problem` holds "%n" where the node goes (when node != kNoIndex).
    SurfaceError(const std::string& function, std::string role, const std::string& surfaceName,
                 Index segment, SegmentType type, std::string problem, Index node = kNoIndex);
    [[nodiscard]] const std::string& role() const noexcept { return role_; }  ///< master, slave
    [[nodiscard]] Index segment() const noexcept { return segment_; }  ///< kNoIndex: no segment
    [[nodiscard]] Index node() const noexcept { return node_; }        ///< kNoIndex: no node
    /// What is wrong, with "%n" for the node: e.g. "node %n appears twice (collapsed segment)".
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }
    /// problem() with "%n" replaced by `nodeName`.
    [[nodiscard]] std::string problemWith(const std::string& nodeName) const;

private:
    std::string role_;
    Index segment_;
    Index node_;
    std::string problem_;
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
