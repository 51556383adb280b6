// SPDX-License-Identifier: MIT
// What the fast search and the exhaustive reference must agree on: validation, buffered volumes,
// the self-contact rule and the pair record. Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/segment.hpp"
#include "contact/surface.hpp"
#include "contact/tolerances.hpp"
#include "contact/types.hpp"

#include "detail/shape_fault.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace contact::detail {

/// d in as few digits as give it back ("%.17g" where none fewer do; std::to_string writes 1e300
/// with 300 digits).
[[nodiscard]] inline std::string shortest(double d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", d);
    for (int digits = 1; digits < 17; ++digits) {
        char shorter[32];
        std::snprintf(shorter, sizeof shorter, "%.*g", digits, d);
        if (std::strtod(shorter, nullptr) == d) {
            return shorter;
        }
    }
    return text;
}

/// What is wrong with node n's coordinates, to follow "node <n>"; nullptr when nothing.
[[nodiscard]] inline const char* badCoordinates(const CoordinatesView& x, Index n) noexcept {
    const Eigen::Vector3d p = x.node(n);
    if (!p.allFinite()) {
        return " has a NaN or Inf coordinate";
    }
    if (p.cwiseAbs().maxCoeff() > tol::kMaxCoordinate) {
        return " has a coordinate beyond +-1e30 (the search keeps boxes in float)";
    }
    return nullptr;
}

/// What makes a surface searchable, shared by validateSurface and the MPI search's check of a
/// rank's part (which names segments and nodes by global id). `fail(s, what, node)` must throw:
/// segment s (kNoIndex: the surface as a whole), `what` with "%n" where node `node` (an index
/// into x; kNoIndex: none) is named. checkOffsets: the offsets against the segment count and
/// connectivity. checkSegments: for each segment, its dimension, node count, node indices in
/// range, finite coordinates within +-1e30, no node twice, and no degenerate shape (zero size,
/// no normal at the centre or a corner, a corner normal opposite the centre's).
template <class Fail>
void checkOffsets(const Surface& surface, Fail&& fail) {
    const Index n = surface.size();
    if (surface.offsets.size() != static_cast<std::size_t>(n) + 1 || surface.offsets[0] != 0 ||
        static_cast<std::size_t>(surface.offsets[n]) != surface.connectivity.size()) {
        fail(kNoIndex, "offsets do not match the segment count and connectivity", kNoIndex);
    }
}

/// checkSegmentNodes: each segment's type a SegmentType and its node count the type's (what
/// reading the connectivity by the types needs; the offsets checked first).
template <class Fail>
void checkSegmentNodes(const Surface& surface, Fail&& fail) {
    for (Index s = 0; s < surface.size(); ++s) {
        const SegmentType t = surface.types[s];
        if (!isSegmentType(t)) {
            fail(s, "type " + std::to_string(static_cast<int>(t)) + " is no SegmentType", kNoIndex);
        }
        if (surface.offsets[s + 1] - surface.offsets[s] != nodeCount(t)) {
            fail(s,
                 "has " + std::to_string(surface.offsets[s + 1] - surface.offsets[s]) +
                     " nodes, its type " + segmentTypeName(t) + " has " +
                     std::to_string(nodeCount(t)),
                 kNoIndex);
        }
    }
}

template <class Fail>
void checkSegments(const Surface& surface, const CoordinatesView& x, Fail&& fail) {
    checkSegmentNodes(surface, fail);
    for (Index s = 0; s < surface.size(); ++s) {
        const SegmentType t = surface.types[s];
        if (spatialDim(t) != x.dim) {
            fail(s,
                 "a " + std::to_string(spatialDim(t)) + "D segment type with " +
                     std::to_string(x.dim) + "D coordinates",
                 kNoIndex);
        }
        const Index* nodes = surface.nodes(s);
        for (int i = 0; i < nodeCount(t); ++i) {
            if (nodes[i] < 0 || nodes[i] >= x.numNodes) {
                fail(s,
                     "node index " + std::to_string(nodes[i]) + " out of range [0, " +
                         std::to_string(x.numNodes) + ")",
                     kNoIndex);
            }
            if (const char* bad = badCoordinates(x, nodes[i])) {
                fail(s, std::string("node %n") + bad, nodes[i]);
            }
            for (int k = 0; k < i; ++k) {
                if (nodes[k] == nodes[i]) {
                    fail(s, "node %n appears twice (collapsed segment)", nodes[i]);
                }
            }
        }
        const int shape = shapeFault(gatherSegment(surface, s, x));
        if (shape == kZeroSize) {
            fail(s, "degenerate: zero size", kNoIndex);
        }
        if (shape == kNoCentreNormal) {
            fail(s, "degenerate: no normal at its centre (zero length or area)", kNoIndex);
        }
        if (shape >= 0) {
            fail(s, "degenerate: collapsed or folded at corner node %n", nodes[shape]);
        }
    }
}

/// Throws std::invalid_argument "<fn>: <role> surface '<name>', segment <s> (<type>): <what>"
/// for mixed dimensions, bad offsets, node indices out of range, NaN/Inf coordinates, degenerate
/// segments (zero size, no normal at the centre or a corner, or a corner normal opposite the
/// centre normal).
void validateSurface(const char* fn, const char* role, const Surface& surface,
                     const CoordinatesView& x);

/// Mean characteristic size of the segments (0 when empty): the exact sum (ExactSum) rounded once,
/// divided by the count; independent of the segment order.
[[nodiscard]] double meanSegmentSize(const Surface& surface, const CoordinatesView& x);

/// Capture distance in length units; throws std::invalid_argument when not finite or negative.
[[nodiscard]] double resolveCapture(const char* fn, const SearchOptions& options,
                                    double meanMasterSize);

/// Rounding pad added to every buffered volume, so that a point at exactly the capture distance
/// is never lost to the rounding of the box itself: kRoundingPadUlps ulps of the box's coordinates
/// + buffer.
[[nodiscard]] double roundingPad(const Aabb3& box, double buffer) noexcept;

/// Buffered AABB of a segment (capture + rounding pad on all sides; the pad is returned for the
/// OBBs). The one definition shared by the fast search and the reference.
[[nodiscard]] Aabb3 bufferedAabb(const SegmentNodes& s, double capture, double& pad) noexcept;

/// Buffered 2D OBB, grown by the same capture + pad as the AABB.
[[nodiscard]] Obb2 bufferedObb2(const SegmentNodes& s, double capture, double pad) noexcept;

/// Point in closed box: the separating-axis test of a point (a box of zero size) needs only the
/// box's own face axes.
[[nodiscard]] inline bool obbContains(const Obb3& b, const Eigen::Vector3d& p) noexcept {
    const Eigen::Vector3d q = b.axes.transpose() * (p - b.center);
    return std::abs(q[0]) <= b.halfExtent[0] && std::abs(q[1]) <= b.halfExtent[1] &&
           std::abs(q[2]) <= b.halfExtent[2];
}
[[nodiscard]] inline bool obbContains(const Obb2& b, const Eigen::Vector3d& p) noexcept {
    const Eigen::Vector2d q = b.axes.transpose() * (p.head<2>() - b.center);
    return std::abs(q[0]) <= b.halfExtent[0] && std::abs(q[1]) <= b.halfExtent[1];
}
/// The same, and lb = distance from p to the box shrunk by `shrink` per axis (0 inside it). With
/// shrink = the capture distance of a buffered box, lb is below the distance from p to the segment
/// by at least the rounding pad.
[[nodiscard]] inline bool obbContains(const Obb3& b, const Eigen::Vector3d& p, double shrink,
                                      double& lb) noexcept {
    const Eigen::Vector3d q = b.axes.transpose() * (p - b.center);
    const Eigen::Array3d a = q.cwiseAbs().array();
    lb = (a - (b.halfExtent.array() - shrink)).max(0.0).matrix().norm();
    return (a <= b.halfExtent.array()).all();
}
[[nodiscard]] inline bool obbContains(const Obb2& b, const Eigen::Vector3d& p, double shrink,
                                      double& lb) noexcept {
    const Eigen::Vector2d q = b.axes.transpose() * (p.head<2>() - b.center);
    const Eigen::Array2d a = q.cwiseAbs().array();
    lb = (a - (b.halfExtent.array() - shrink)).max(0.0).matrix().norm();
    return (a <= b.halfExtent.array()).all();
}
[[nodiscard]] inline bool aabbContains(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi,
                                       const Eigen::Vector3d& p) noexcept {
    return (p.array() >= lo.array()).all() && (p.array() <= hi.array()).all();
}

/// Sorted unique node indices of a surface.
[[nodiscard]] std::vector<Index> uniqueNodes(const Surface& surface);
/// Sorted unique copy of a node list.
[[nodiscard]] std::vector<Index> sortedUnique(std::vector<Index> nodes);

/// Throws std::invalid_argument "<fn>: slave node <i>: ..." for indices out of range or non-finite
/// coordinates.
void validateNodes(const char* fn, const std::vector<Index>& nodes, const CoordinatesView& x);

/// Node -> the slave segments holding it, CSR over the numNodes nodes: node p's segments are
/// segments[offsets[p], offsets[p + 1]), ascending.
void segmentsOfNodes(const Surface& slave, Index numNodes, std::vector<Index>& offsets,
                     std::vector<Index>& segments);

/// Self-contact exclusion sets, CSR over slave items: in node mode, for slave node k, the nodes of
/// every segment of `slave` holding it (for a slave given as nodes, pass the master); in segment
/// mode, the nodes of slave segment k. A master segment with any node in the set never pairs with
/// item k. Sets are sorted.
void exclusionSets(const Surface& slave, const std::vector<Index>& slaveNodes, Index numNodes,
                   bool nodeMode, std::vector<Index>& offsets, std::vector<Index>& nodes);

/// True when master segment j has a node in the sorted set [first, last).
[[nodiscard]] bool sharesNode(const Surface& master, Index j, const Index* first,
                              const Index* last) noexcept;

/// Strict order of candidate projections: smaller distance, then lower segment index.
[[nodiscard]] inline bool closer(double d, Index j, double bestD, Index bestJ) noexcept {
    return d < bestD || (d == bestD && j < bestJ);
}

}  // namespace contact::detail
