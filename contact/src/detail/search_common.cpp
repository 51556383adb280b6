// SPDX-License-Identifier: MIT
#include "detail/search_common.hpp"

#include "contact/bounds.hpp"
#include "contact/exact_sum.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/assert.hpp"
#include "detail/margins.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace contact::detail {

namespace {

// `what` holds "%n" where node goes (node != kNoIndex).
[[noreturn]] void fail(const char* fn, const char* role, const Surface& surface, Index s,
                       const std::string& what, Index node = kNoIndex) {
    throw SurfaceError(fn, role, surface.name, s,
                       s != kNoIndex ? surface.types[s] : SegmentType::Line2, what, node);
}

// The nonzero terms of a derivative of the shape functions at one point: sum_k w[k] x[node[k]],
// padded with zero weights (on node 0) to kMaxTerms, the most any curved type has (Tri6 at its
// centre, where two of the five are rounding: 4.4e-16).
constexpr int kMaxTerms = 5;
struct DerivativeTerms {
    std::array<int, kMaxTerms> node{};
    std::array<double, kMaxTerms> w{};
};
// Per curved segment type, d/dxi and d/deta at the centre ([0]) and at corner c ([1 + c]), and
// the most terms any of them has.
struct ShapeTable {
    std::array<DerivativeTerms, 5> dXi;
    std::array<DerivativeTerms, 5> dEta;
    int terms = 0;
};

DerivativeTerms termsOf(SegmentType t, const std::array<double, kMaxSegmentNodes>& d, int& most) {
    DerivativeTerms terms;
    int count = 0;
    for (int i = 0; i < nodeCount(t); ++i) {
        if (d[i] != 0.0) {
            if (count < kMaxTerms) {  // else curvedShapeFault asserts
                terms.node[count] = i;
                terms.w[count] = d[i];
            }
            ++count;
        }
    }
    most = std::max(most, count);
    return terms;
}

constexpr int kTypes = static_cast<int>(SegmentType::Quad9) + 1;

const ShapeTable& shapeTable(SegmentType t) noexcept {
    static const std::array<ShapeTable, kTypes> tables = [] {
        std::array<ShapeTable, kTypes> all;
        for (int k = 0; k < kTypes; ++k) {
            const auto type = static_cast<SegmentType>(k);
            for (int p = 0; p <= cornerCount(type); ++p) {
                const ShapeGradients f = shapeGradients(
                    type, p == 0 ? referenceCentre(type) : nodeLocalCoordinates(type, p - 1));
                all[k].dXi[p] = termsOf(type, f.dXi, all[k].terms);
                all[k].dEta[p] = termsOf(type, f.dEta, all[k].terms);
            }
        }
        return all;
    }();
    return tables[static_cast<int>(t)];
}

// The first kTerms terms of d (the others are zero for the type).
template <int kTerms>
Eigen::Vector3d derivative(const DerivativeTerms& d,
                           const std::array<Eigen::Vector3d, kMaxSegmentNodes>& x) noexcept {
    Eigen::Vector3d sum = d.w[0] * x[d.node[0]];
    for (int k = 1; k < kTerms; ++k) {
        sum += d.w[k] * x[d.node[k]];
    }
    return sum;
}

// shapeFault's verdict from the normal (any positive multiple of it) at the centre, kc, and at
// each corner, k[c]: with `floor` the Jacobian below which there is none, times the same multiple.
// Squares where floor^2 is a normal double (segments larger than about 1e-70), else norms. The
// common case, a good segment, in one pass without branches.
template <int kCorners>
inline int shapeVerdict(const Eigen::Vector3d& kc, const std::array<Eigen::Vector3d, kCorners>& k,
                        double floor) noexcept {
    const double floor2 = floor * floor;
    const bool squares = floor2 >= std::numeric_limits<double>::min();
    bool good = kc.squaredNorm() > floor2;
    for (int c = 0; c < kCorners; ++c) {
        good &= k[c].squaredNorm() > floor2;
        good &= k[c].dot(kc) > 0.0;
    }
    if (good && squares) {
        return kShapeOk;
    }
    const auto hasNormal = [&](const Eigen::Vector3d& n) {
        return squares ? n.squaredNorm() > floor2 : n.norm() > floor;
    };
    if (!hasNormal(kc)) {
        return kNoCentreNormal;
    }
    for (int c = 0; c < kCorners; ++c) {
        if (!hasNormal(k[c]) || !(k[c].dot(kc) > 0.0)) {
            return c;
        }
    }
    return kShapeOk;
}

// Curved segments: the Jacobians from the table of shape function derivatives.
template <int kCorners, int kTerms>
int curvedShapeFault(const SegmentNodes& seg, double floor) noexcept {
    const ShapeTable& table = shapeTable(seg.type);
    CONTACT_ASSERT(table.terms <= kTerms);
    // A line (2 corners): its normal is its tangent turned a right angle, and their dot products
    // agree.
    const auto normal = [&](int p) -> Eigen::Vector3d {
        const Eigen::Vector3d dXi = derivative<kTerms>(table.dXi[p], seg.x);
        return kCorners == 2 ? dXi : dXi.cross(derivative<kTerms>(table.dEta[p], seg.x));
    };
    std::array<Eigen::Vector3d, kCorners> k;
    for (int c = 0; c < kCorners; ++c) {
        k[c] = normal(1 + c);
    }
    return shapeVerdict<kCorners>(normal(0), k, floor);
}

}  // namespace

int shapeFault(const SegmentNodes& seg) noexcept {
    const SegmentType t = seg.type;
    const std::array<Eigen::Vector3d, kMaxSegmentNodes>& x = seg.x;
    const int corners = cornerCount(t);
    double spread = 0.0;  // segmentFrame()'s length scale
    for (int i = 1; i < corners; ++i) {
        spread = std::max(spread, (x[i] - x[0]).cwiseAbs().maxCoeff());
    }
    if (!(spread > 0.0)) {
        return kZeroSize;
    }
    const double floor = tol::kDegenerateJacobianRel * spread;
    switch (t) {
    case SegmentType::Line2:  // dx/dxi = (x1 - x0) / 2 everywhere
        return shapeVerdict<0>(x[1] - x[0], {}, 2.0 * floor);
    case SegmentType::Tri3:  // one normal everywhere
        return shapeVerdict<0>((x[1] - x[0]).cross(x[2] - x[0]), {}, floor * spread);
    case SegmentType::Quad4: {
        // dx/dxi is half an edge at each corner: 4 x the Jacobian is the cross product of the two
        // edges there; at the centre 16 x it is their sum.
        const Eigen::Vector3d bottom = x[1] - x[0];
        const Eigen::Vector3d top = x[2] - x[3];
        const Eigen::Vector3d left = x[3] - x[0];
        const Eigen::Vector3d right = x[2] - x[1];
        const std::array<Eigen::Vector3d, 4> k = {bottom.cross(left), bottom.cross(right),
                                                  top.cross(right), top.cross(left)};
        const Eigen::Vector3d centre = 0.25 * (k[0] + k[1] + k[2] + k[3]);
        return shapeVerdict<4>(centre, k, 4.0 * floor * spread);
    }
    case SegmentType::Line3: return curvedShapeFault<2, 3>(seg, floor);
    case SegmentType::Tri6: return curvedShapeFault<3, 5>(seg, floor * spread);
    case SegmentType::Quad8:
    case SegmentType::Quad9: return curvedShapeFault<4, 3>(seg, floor * spread);
    }
    return kZeroSize;  // no SegmentType
}

void validateSurface(const char* fn, const char* role, const Surface& surface,
                     const CoordinatesView& x) {
    const auto failAt = [&](Index s, const std::string& what, Index node) {
        fail(fn, role, surface, s, what, node);
    };
    checkOffsets(surface, failAt);
    if (x.dim != 2 && x.dim != 3) {
        fail(fn, role, surface, kNoIndex,
             "coordinates must be 2D or 3D, got dimension " + std::to_string(x.dim));
    }
    checkSegments(surface, x, failAt);
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
            shortest(d));
    }
    return d;
}

double roundingPad(const Aabb3& box, double buffer) noexcept {
    const double scale = std::max(box.lo.cwiseAbs().maxCoeff(), box.hi.cwiseAbs().maxCoeff());
    return kRoundingPadUlps * tol::kEps * (scale + buffer);
}

Aabb3 bufferedAabb(const SegmentNodes& s, double capture, double& pad) noexcept {
    Aabb3 box = segmentAabb<3>(s, capture);
    pad = roundingPad(box, capture);
    box.lo.array() -= pad;
    box.hi.array() += pad;
    return box;
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
            throw SurfaceError(fn, "slave", "slave nodes", kNoIndex, SegmentType::Line2,
                               std::string("node %n") + bad, n);
        }
    }
}

void segmentsOfNodes(const Surface& slave, Index numNodes, std::vector<Index>& offsets,
                     std::vector<Index>& segments) {
    offsets.assign(static_cast<std::size_t>(numNodes) + 1, 0);
    for (Index s = 0; s < slave.size(); ++s) {
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            ++offsets[slave.nodes(s)[i] + 1];
        }
    }
    for (Index i = 0; i < numNodes; ++i) {
        offsets[i + 1] += offsets[i];
    }
    segments.resize(static_cast<std::size_t>(offsets.back()));
    std::vector<Index> fill(offsets.begin(), offsets.end() - 1);
    for (Index s = 0; s < slave.size(); ++s) {
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            segments[fill[slave.nodes(s)[i]]++] = s;
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
    std::vector<Index> count;
    std::vector<Index> segs;
    segmentsOfNodes(slave, numNodes, count, segs);
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
