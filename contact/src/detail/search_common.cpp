// SPDX-License-Identifier: MIT
#include "detail/search_common.hpp"

#include "contact/bounds.hpp"
#include "contact/exact_sum.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/margins.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <stdexcept>

namespace contact::detail {

namespace {

// `what` holds "%n" where node goes (node != kNoIndex).
[[noreturn]] void fail(const char* fn, const char* role, const Surface& surface, Index s,
                       const std::string& what, Index node = kNoIndex) {
    throw SurfaceError(fn, role, surface.name, s,
                       s != kNoIndex ? surface.types[s] : SegmentType::Line2, what, node);
}

}  // namespace

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
