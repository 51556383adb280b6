// SPDX-License-Identifier: MIT
#include "detail/search_common.hpp"

#include "contact/bounds.hpp"
#include "contact/broad_phase.hpp"
#include "contact/exact_sum.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace contact::detail {
namespace {

// What is wrong with node n's coordinates, to follow "node <n>"; nullptr when nothing.
const char* badCoordinates(const CoordinatesView& x, Index n) noexcept {
    const Eigen::Vector3d p = x.node(n);
    if (!p.allFinite()) {
        return " has a NaN or Inf coordinate";
    }
    if (p.cwiseAbs().maxCoeff() > tol::kMaxCoordinate) {
        return " has a coordinate beyond +-1e30 (the search keeps boxes in float)";
    }
    return nullptr;
}

[[noreturn]] void fail(const char* fn, const char* role, const Surface& surface, Index s,
                       const std::string& what) {
    std::ostringstream msg;
    msg << fn << ": " << role << " surface '" << surface.name << "'";
    if (s != kNoIndex) {
        msg << ", segment " << s << " (" << segmentTypeName(surface.types[s]) << ")";
    }
    msg << ": " << what;
    throw std::invalid_argument(msg.str());
}

}  // namespace

void validateSurface(const char* fn, const char* role, const Surface& surface,
                     const CoordinatesView& x) {
    const Index n = surface.size();
    if (surface.offsets.size() != static_cast<std::size_t>(n) + 1 || surface.offsets[0] != 0 ||
        static_cast<std::size_t>(surface.offsets[n]) != surface.connectivity.size()) {
        fail(fn, role, surface, kNoIndex,
             "offsets do not match the segment count and connectivity");
    }
    if (x.dim != 2 && x.dim != 3) {
        fail(fn, role, surface, kNoIndex,
             "coordinates must be 2D or 3D, got dimension " + std::to_string(x.dim));
    }
    for (Index s = 0; s < n; ++s) {
        const SegmentType t = surface.types[s];
        if (spatialDim(t) != x.dim) {
            fail(fn, role, surface, s,
                 "a " + std::to_string(spatialDim(t)) + "D segment type with " +
                     std::to_string(x.dim) + "D coordinates");
        }
        if (surface.offsets[s + 1] - surface.offsets[s] != nodeCount(t)) {
            fail(fn, role, surface, s,
                 "has " + std::to_string(surface.offsets[s + 1] - surface.offsets[s]) +
                     " nodes, its type has " + std::to_string(nodeCount(t)));
        }
        const Index* nodes = surface.nodes(s);
        for (int i = 0; i < nodeCount(t); ++i) {
            if (nodes[i] < 0 || nodes[i] >= x.numNodes) {
                fail(fn, role, surface, s,
                     "node index " + std::to_string(nodes[i]) + " out of range [0, " +
                         std::to_string(x.numNodes) + ")");
            }
            if (const char* bad = badCoordinates(x, nodes[i])) {
                fail(fn, role, surface, s, "node " + std::to_string(nodes[i]) + bad);
            }
            for (int k = 0; k < i; ++k) {
                if (nodes[k] == nodes[i]) {
                    fail(fn, role, surface, s,
                         "node " + std::to_string(nodes[i]) + " appears twice (collapsed segment)");
                }
            }
        }
        const SegmentNodes seg = gatherSegment(surface, s, x);
        if (!(characteristicSize(seg) > 0.0)) {
            fail(fn, role, surface, s, "degenerate: zero size");
        }
        const SegmentFrame centre = segmentFrame(seg, referenceCentre(t));
        if (centre.degenerate) {
            fail(fn, role, surface, s, "degenerate: no normal at its centre (zero length or area)");
        }
        for (int c = 0; c < cornerCount(t); ++c) {
            const SegmentFrame corner = segmentFrame(seg, nodeLocalCoordinates(t, c));
            if (corner.degenerate || corner.normal.dot(centre.normal) <= 0.0) {
                fail(fn, role, surface, s,
                     "degenerate: collapsed or folded at corner node " +
                         std::to_string(surface.nodes(s)[c]));
            }
        }
    }
}

double meanSegmentSize(const Surface& surface, const CoordinatesView& x) {
    if (surface.empty()) {
        return 0.0;
    }
    // An exact sum: the same mean for any order of the segments, so a search split over MPI ranks
    // (contact_mpi) resolves the same relative capture distance and skin bit for bit.
    ExactSum sum;
    for (Index s = 0; s < surface.size(); ++s) {
        sum.add(characteristicSize(gatherSegment(surface, s, x)));
    }
    return sum.value() / surface.size();
}

double resolveCapture(const char* fn, const SearchOptions& options, double meanMasterSize) {
    const double d = options.captureRelative ? options.capture * meanMasterSize : options.capture;
    if (!std::isfinite(d) || d < 0.0 || d > tol::kMaxCoordinate) {
        throw std::invalid_argument(
            std::string(fn) + ": capture distance must be finite, >= 0 and at most 1e30, got " +
            std::to_string(d));
    }
    return d;
}

double roundingPad(const Aabb3& box, double buffer) noexcept {
    const double scale = std::max(box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff());
    return 64.0 * tol::kEps * (scale + buffer);
}

Aabb3 bufferedAabb(const SegmentNodes& s, double capture, double& pad) noexcept {
    Aabb3 box = segmentAabb<3>(s, capture);
    pad = roundingPad(box, capture);
    box.lo.array() -= pad;
    box.hi.array() += pad;
    return box;
}

Eigen::Matrix3d rotationOf(const float* q) noexcept {
    const double x = q[0];
    const double y = q[1];
    const double z = q[2];
    const double w = q[3];
    const double s = 2.0 / (x * x + y * y + z * z + w * w);
    const double xx = s * x * x;
    const double yy = s * y * y;
    const double zz = s * z * z;
    const double xy = s * x * y;
    const double xz = s * x * z;
    const double yz = s * y * z;
    const double xw = s * x * w;
    const double yw = s * y * w;
    const double zw = s * z * w;
    Eigen::Matrix3d r;
    r(0, 0) = 1.0 - (yy + zz);
    r(0, 1) = xy - zw;
    r(0, 2) = xz + yw;
    r(1, 0) = xy + zw;
    r(1, 1) = 1.0 - (xx + zz);
    r(1, 2) = yz - xw;
    r(2, 0) = xz - yw;
    r(2, 1) = yz + xw;
    r(2, 2) = 1.0 - (xx + yy);
    return r;
}

Obb3 unpackObb(const PackedObb3& p) noexcept {
    Obb3 b;
    b.center = Eigen::Vector3d(p.centre[0], p.centre[1], p.centre[2]);
    b.axes = rotationOf(p.rotation);
    b.halfExtent = Eigen::Vector3d(p.halfExtent[0], p.halfExtent[1], p.halfExtent[2]);
    return b;
}

// The float quaternion of a proper rotation, by Shepperd's method: from the largest of w, x, y, z
// (no cancellation); the identity's for a non-finite matrix.
void quaternionOf(const Eigen::Matrix3d& r, float* out) noexcept {
    const double tr = r(0, 0) + r(1, 1) + r(2, 2);
    double q[4];  // x, y, z, w, up to a common positive factor
    if (tr >= r(0, 0) && tr >= r(1, 1) && tr >= r(2, 2)) {
        q[3] = 1.0 + tr;
        q[0] = r(2, 1) - r(1, 2);
        q[1] = r(0, 2) - r(2, 0);
        q[2] = r(1, 0) - r(0, 1);
    } else if (r(0, 0) >= r(1, 1) && r(0, 0) >= r(2, 2)) {
        q[0] = 1.0 + r(0, 0) - r(1, 1) - r(2, 2);
        q[1] = r(0, 1) + r(1, 0);
        q[2] = r(0, 2) + r(2, 0);
        q[3] = r(2, 1) - r(1, 2);
    } else if (r(1, 1) >= r(2, 2)) {
        q[0] = r(0, 1) + r(1, 0);
        q[1] = 1.0 + r(1, 1) - r(0, 0) - r(2, 2);
        q[2] = r(1, 2) + r(2, 1);
        q[3] = r(0, 2) - r(2, 0);
    } else {
        q[0] = r(0, 2) + r(2, 0);
        q[1] = r(1, 2) + r(2, 1);
        q[2] = 1.0 + r(2, 2) - r(0, 0) - r(1, 1);
        q[3] = r(1, 0) - r(0, 1);
    }
    float norm = 0.0F;
    for (int k = 0; k < 4; ++k) {
        out[k] = static_cast<float>(q[k]);
        norm += std::abs(out[k]);
    }
    if (!(norm > 0.0F) || !std::isfinite(norm)) {
        out[0] = out[1] = out[2] = 0.0F;
        out[3] = 1.0F;
    }
}

// The buffered OBB with the axes rounded to a float quaternion first: its extents are taken along
// exactly the axes unpackObb() rebuilds, so it encloses the segment grown by capture + pad.
PackedObb3 packedBufferedObb3(const SegmentNodes& s, double capture, double pad) noexcept {
    PackedObb3 p;
    quaternionOf(faceAxes(s), p.rotation);
    const Obb3 box = segmentObb3dAlong(s, rotationOf(p.rotation), capture + pad);
    for (int k = 0; k < 3; ++k) {
        p.centre[k] = box.center[k];
        p.halfExtent[k] = floatUp(box.halfExtent[k]);
    }
    return p;
}

CentredObb3 centredBufferedObb3(const SegmentNodes& s, double capture, double pad,
                                const FloatBox& box, const CentredObb3* keep) noexcept {
    CentredObb3 p;
    if (keep != nullptr) {
        p = *keep;
        const Obb3 b =
            segmentObb3dAbout(s, rotationOf(p.rotation), obbCentre(p.offset, box), capture + pad);
        for (int k = 0; k < 3; ++k) {
            p.halfExtent[k] = floatUp(b.halfExtent[k]);
        }
        return p;
    }
    quaternionOf(faceAxes(s), p.rotation);
    const Obb3 tight = segmentObb3dAlong(s, rotationOf(p.rotation), capture + pad);
    for (int k = 0; k < 3; ++k) {
        const double half = 0.5 * (static_cast<double>(box.hi[k]) - static_cast<double>(box.lo[k]));
        const double mid = 0.5 * (static_cast<double>(box.lo[k]) + static_cast<double>(box.hi[k]));
        const double steps = half > 0.0 ? 127.0 * (tight.center[k] - mid) / half : 0.0;
        // Nearest step by truncation (no library call); NaN gives 0.
        const double t = std::isfinite(steps) ? std::clamp(steps, -127.0, 127.0) : 0.0;
        p.offset[k] = static_cast<std::int8_t>(t + (t >= 0.0 ? 0.5 : -0.5));
    }
    const Eigen::Vector3d shift =
        tight.axes.transpose() * (obbCentre(p.offset, box) - tight.center);
    for (int k = 0; k < 3; ++k) {
        p.halfExtent[k] = floatUp(tight.halfExtent[k] + std::abs(shift[k]));
    }
    return p;
}

Obb3 unpackObb(const CentredObb3& p, const FloatBox& box) noexcept {
    Obb3 b;
    b.center = obbCentre(p.offset, box);
    b.axes = rotationOf(p.rotation);
    b.halfExtent = Eigen::Vector3d(p.halfExtent[0], p.halfExtent[1], p.halfExtent[2]);
    return b;
}

void CandidateWriter::node(Index k, Index* first, Index* last) {
    if (k % blockSize_ == 0) {
        blockStart_[k / blockSize_] = out_.size();
        previous_ = 0;
    }
    std::sort(first, last);
    // At most 5 bytes per varint: room first, then cut to what was written (no check per byte).
    std::vector<std::uint8_t>& out = out_;
    const std::size_t at = out.size();
    out.resize(at + 5 * static_cast<std::size_t>(last - first + 2));
    std::uint8_t* p = out.data() + at;
    const auto put = [&p](std::uint32_t v) {
        while (v >= 0x80U) {
            *p++ = static_cast<std::uint8_t>(v | 0x80U);
            v >>= 7;
        }
        *p++ = static_cast<std::uint8_t>(v);
    };
    put(static_cast<std::uint32_t>(last - first));
    if (first != last) {
        const auto diff =
            static_cast<std::uint32_t>(*first) - static_cast<std::uint32_t>(previous_);
        put((diff << 1) ^ (0U - (diff >> 31)));
        previous_ = *first;
        for (const Index* j = first + 1; j != last; ++j) {
            put(static_cast<std::uint32_t>(*j - j[-1] - 1));
        }
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
}

Obb2 bufferedObb2(const SegmentNodes& s, double capture, double pad) noexcept {
    return segmentObb2d(s, capture + pad);
}

std::vector<Index> sortedUnique(std::vector<Index> nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    nodes.shrink_to_fit();  // kept by the search: a surface's node list repeats each node ~4 times
    return nodes;
}

std::vector<Index> uniqueNodes(const Surface& surface) {
    return sortedUnique(surface.connectivity);
}

void validateNodes(const char* fn, const std::vector<Index>& nodes, const CoordinatesView& x) {
    for (Index n : nodes) {
        if (n < 0 || n >= x.numNodes) {
            throw std::invalid_argument(std::string(fn) + ": slave node index " +
                                        std::to_string(n) + " out of range [0, " +
                                        std::to_string(x.numNodes) + ")");
        }
        if (const char* bad = badCoordinates(x, n)) {
            throw std::invalid_argument(std::string(fn) + ": slave node " + std::to_string(n) +
                                        bad);
        }
    }
}

void exclusionSets(const Surface& slave, const std::vector<Index>& slaveNodes, Index numNodes,
                   bool nodeMode, std::vector<Index>& offsets, std::vector<Index>& nodes) {
    offsets.assign(1, 0);
    nodes.clear();
    if (!nodeMode) {
        for (Index s = 0; s < slave.size(); ++s) {
            const Index* n = slave.nodes(s);
            const auto begin = nodes.size();
            nodes.insert(nodes.end(), n, n + nodeCount(slave.types[s]));
            std::sort(nodes.begin() + static_cast<std::ptrdiff_t>(begin), nodes.end());
            offsets.push_back(static_cast<Index>(nodes.size()));
        }
        return;
    }
    // Node -> slave segments holding it (CSR), then the union of their nodes per slave node.
    std::vector<Index> count(static_cast<std::size_t>(numNodes) + 1, 0);
    for (Index s = 0; s < slave.size(); ++s) {
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            ++count[slave.nodes(s)[i] + 1];
        }
    }
    for (Index i = 0; i < numNodes; ++i) {
        count[i + 1] += count[i];
    }
    std::vector<Index> segs(count.back());
    std::vector<Index> fill(count.begin(), count.end() - 1);
    for (Index s = 0; s < slave.size(); ++s) {
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            segs[fill[slave.nodes(s)[i]]++] = s;
        }
    }
    for (Index p : slaveNodes) {
        const auto begin = nodes.size();
        for (Index k = count[p]; k < count[p + 1]; ++k) {
            const Index s = segs[k];
            nodes.insert(nodes.end(), slave.nodes(s), slave.nodes(s) + nodeCount(slave.types[s]));
        }
        const auto first = nodes.begin() + static_cast<std::ptrdiff_t>(begin);
        std::sort(first, nodes.end());
        nodes.erase(std::unique(first, nodes.end()), nodes.end());
        offsets.push_back(static_cast<Index>(nodes.size()));
    }
}

bool sharesNode(const Surface& master, Index j, const Index* first, const Index* last) noexcept {
    const Index* n = master.nodes(j);
    for (int i = 0; i < nodeCount(master.types[j]); ++i) {
        if (std::binary_search(first, last, n[i])) {
            return true;
        }
    }
    return false;
}

}  // namespace contact::detail
