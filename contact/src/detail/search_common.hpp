// SPDX-License-Identifier: MIT
// What the fast search and the exhaustive reference must agree on: validation, buffered volumes,
// the self-contact rule and the pair record. Internal; never installed.
#pragma once

#include "contact/broad_phase.hpp"
#include "contact/contact_search.hpp"
#include "contact/surface.hpp"
#include "contact/tolerances.hpp"
#include "contact/types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace contact::detail {

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
/// is never lost to the rounding of the box itself: 64 ulps of the box's coordinates + buffer.
[[nodiscard]] double roundingPad(const Aabb3& box, double buffer) noexcept;

/// Buffered AABB of a segment (capture + rounding pad on all sides; the pad is returned for the
/// OBBs). The one definition shared by the fast search and the reference.
[[nodiscard]] Aabb3 bufferedAabb(const SegmentNodes& s, double capture, double& pad) noexcept;

/// What two float boxes, each rounded outward from a double box (floatBoxOutward), say of the
/// double boxes: apart when the float boxes are; overlapping when on every axis each box's high end
/// exceeds the other's low end by more than `margin` (boxMargin, in float); unsure otherwise: the
/// double boxes are within a float rounding of touching.
enum class BoxVerdict { kApart, kOverlap, kUnsure };

/// The margin of floatBoxVerdict for float boxes whose ends are all at most `scale` in magnitude:
/// a double rounded to float f moved by less than one float step, at most 2^-23 |f| (2^-149 below
/// the normal range), so two ends by less than 2^-22 scale; doubled, for the float rounding of the
/// differences in floatBoxVerdict (2^-24 of them), and rounded up to float.
[[nodiscard]] inline float boxMargin(double scale) noexcept {
    const double m = 0x1p-21 * scale + 0x1p-140;
    const auto f = static_cast<float>(m);
    return static_cast<double>(f) >= m ? f
                                       : std::nextafter(f, std::numeric_limits<float>::infinity());
}

[[nodiscard]] inline BoxVerdict floatBoxVerdict(const FloatBox& a, const FloatBox& b,
                                                float margin) noexcept {
    // The smallest of the six differences high end - low end in float: negative exactly when the
    // float boxes are apart (a difference of floats is a multiple of 2^-149, never rounded to 0).
    float lowest = std::numeric_limits<float>::infinity();
    for (int d = 0; d < 3; ++d) {
        lowest = std::min(lowest, std::min(b.hi[d] - a.lo[d], a.hi[d] - b.lo[d]));
    }
    return lowest < 0.0F     ? BoxVerdict::kApart
           : lowest > margin ? BoxVerdict::kOverlap
                             : BoxVerdict::kUnsure;
}

/// Buffered 2D OBB, grown by the same capture + pad as the AABB.
[[nodiscard]] Obb2 bufferedObb2(const SegmentNodes& s, double capture, double pad) noexcept;

/// Buffered 3D OBB (segmentObb3d grown by capture + pad), stored packed (types.hpp): the frame is
/// rounded to a float quaternion first and the extents are taken along the axes it stands for,
/// rounded up to float, so the box still encloses the segment grown by capture + pad.
[[nodiscard]] PackedObb3 packedBufferedObb3(const SegmentNodes& s, double capture,
                                            double pad) noexcept;

/// The rotation matrix of a float quaternion (x, y, z, w): orthonormal to double rounding.
/// One compiled definition, so packing and every unpacking see the same axes.
[[nodiscard]] Eigen::Matrix3d rotationOf(const float* q) noexcept;

/// The box a PackedObb3 stands for.
[[nodiscard]] Obb3 unpackObb(const PackedObb3& p) noexcept;

/// The centre of a CentredObb3 built about float box b: b's centre plus offset / 127 of b's half
/// sizes, in double. One definition for packing and unpacking.
[[nodiscard]] inline Eigen::Vector3d obbCentre(const std::int8_t* offset,
                                               const FloatBox& b) noexcept {
    Eigen::Vector3d c;
    for (int k = 0; k < 3; ++k) {
        const double lo = b.lo[k];
        const double hi = b.hi[k];
        c[k] = 0.5 * (lo + hi) + (0.5 * (hi - lo)) * (offset[k] * (1.0 / 127.0));
    }
    return c;
}

/// The buffered OBB packed about float box `box` (the segment's buffered AABB rounded outward).
/// Along the face frame, with the tight box's centre rounded to the nearest offset and the extents
/// grown by that rounding; or (keep) along keep's axes about keep's offset in `box`, the extents
/// taken about that centre. Extents are rounded up to float, so the box encloses the segment grown
/// by capture + pad either way.
[[nodiscard]] CentredObb3 centredBufferedObb3(const SegmentNodes& s, double capture, double pad,
                                              const FloatBox& box,
                                              const CentredObb3* keep) noexcept;

/// The box a CentredObb3 stands for, with the float box it was packed about.
[[nodiscard]] Obb3 unpackObb(const CentredObb3& p, const FloatBox& box) noexcept;

/// The candidate list: a byte stream, read item by item (slave node or segment) from the start of
/// each block of slave items. Per node, a varint (7 bits per byte, low first) count, then its
/// masters ascending: the first as a zigzag difference from the first master of the node before it
/// in the block (0 at the block's start; a node without masters leaves it), the others as
/// differences minus one.
/// Neighbouring nodes have neighbouring masters: about 10 bytes a node instead of 4 per master.
/// Self-contact's exclusion sets (nodes instead of masters) use the same code.
class CandidateWriter {
public:
    /// Appends to `out`; the code of block b starts at byte blockStart[b] of `out`.
    CandidateWriter(std::vector<std::uint8_t>& out, std::size_t* blockStart,
                    Index blockSize) noexcept
        : out_(out), blockStart_(blockStart), blockSize_(blockSize) {}
    /// Appends node k's masters [first, last), sorted here. Nodes come in order, each block whole
    /// (from its first node on).
    void node(Index k, Index* first, Index* last);

private:
    std::vector<std::uint8_t>& out_;
    std::size_t* blockStart_;
    Index blockSize_;
    Index previous_ = 0;  // first master of the last node that had one, in this block
};

/// Reads the code of one block (CandidateWriter), node by node.
class CandidateReader {
public:
    explicit CandidateReader(const std::uint8_t* code) noexcept : p_(code) {}
    /// The next node's master count; then next() that many times.
    [[nodiscard]] Index beginNode() noexcept {
        started_ = false;
        return static_cast<Index>(varint());
    }
    [[nodiscard]] Index next() noexcept {
        const std::uint32_t v = varint();
        if (started_) {
            last_ += static_cast<Index>(v) + 1;
            return last_;
        }
        started_ = true;
        const std::uint32_t diff = (v >> 1) ^ (0U - (v & 1U));  // modulo 2^32, as written
        previous_ = static_cast<Index>(static_cast<std::uint32_t>(previous_) + diff);
        last_ = previous_;
        return last_;
    }

private:
    std::uint32_t varint() noexcept {
        std::uint32_t v = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint32_t byte = *p_++;
            v |= (byte & 0x7FU) << shift;
            if (byte < 0x80U) {
                return v;
            }
        }
    }

    const std::uint8_t* p_;
    Index previous_ = 0;  // first master of the last node that had one
    Index last_ = 0;
    bool started_ = false;
};

/// True when a point of box a lies in the box packed as b with a margin above every rounding: then
/// the boxes overlap and satOverlap3d(a, unpackObb(b)) is true (its axis tests never separate
/// overlapping boxes), so the narrow phase may skip it. Costs no unpacking of b.
///
///   t = a^T T (T = cB - cA), s_i = t_i clamped to [-hA_i, hA_i]: w = cA + a s lies in a exactly
///   d = w - cB = a s - T;  B's coordinates of d: M^T d / n, with M = n R(q) the rotation of the
///   quaternion q = (v, w) scaled by n = |q|^2:  M^T d = (w^2 - |v|^2) d + 2 (v . d) v - 2 w (v x
///   d) true when |(M^T d)_j| <= (hB_j - tol) n for j = 0, 1, 2
///
/// tol = kSatRoundoff (|T|_1 + sum hA + sum hB), the SAT's own bound: the rounding of d and of
/// M^T d (a few ulps of sum hA + |T|_1) and the difference between R(q) and unpackObb's rounded
/// axes (a few ulps) stay far below it.
[[nodiscard]] inline bool overlapWitness(const Obb3& a, const PackedObb3& b) noexcept {
    const Eigen::Vector3d T(b.centre[0] - a.center[0], b.centre[1] - a.center[1],
                            b.centre[2] - a.center[2]);
    const Eigen::Vector3d t = a.axes.transpose() * T;
    const Eigen::Vector3d s = t.cwiseMax(-a.halfExtent).cwiseMin(a.halfExtent);
    const Eigen::Vector3d d = a.axes * s - T;
    const Eigen::Vector3d v(b.rotation[0], b.rotation[1], b.rotation[2]);
    const double w = b.rotation[3];
    const double vv = v.squaredNorm();
    const double n = vv + w * w;
    const Eigen::Vector3d u = (w * w - vv) * d + (2.0 * v.dot(d)) * v - (2.0 * w) * v.cross(d);
    const double tol =
        tol::kSatRoundoff *
        (T.lpNorm<1>() + a.halfExtent.sum() + static_cast<double>(b.halfExtent[0]) +
         static_cast<double>(b.halfExtent[1]) + static_cast<double>(b.halfExtent[2]));
    bool inside = true;
    for (int j = 0; j < 3; ++j) {
        inside = inside && std::abs(u[j]) <= (static_cast<double>(b.halfExtent[j]) - tol) * n;
    }
    return inside;
}

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

/// Self-contact exclusion sets, CSR over slave items: in node mode, for slave node k, the nodes of
/// every slave segment holding it; in segment mode, the nodes of slave segment k. A master segment
/// with any node in the set never pairs with item k. Sets are sorted.
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
