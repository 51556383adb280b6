// SPDX-License-Identifier: MIT
#include "contact/surface.hpp"

#include "contact/segment.hpp"

#include "detail/search_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace contact {
namespace {

// Every corner edge run once each way (2D: every end node starts one line and ends one).
bool closedAndConsistent(const Surface& s) {
    std::vector<std::pair<Index, Index>> edges;  // directed (from, to)
    for (Index k = 0; k < s.size(); ++k) {
        const Index* n = s.nodes(k);
        const int c = cornerCount(s.types[k]);
        if (parametricDim(s.types[k]) == 1) {
            edges.emplace_back(n[0], n[1]);
            continue;
        }
        for (int i = 0; i < c; ++i) {
            edges.emplace_back(n[i], n[(i + 1) % c]);
        }
    }
    std::vector<std::pair<Index, Index>> sorted = edges;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        return false;  // an edge run twice the same way
    }
    const bool lines = parametricDim(s.types[0]) == 1;
    if (lines) {  // each node once as a start and once as an end
        std::vector<Index> starts;
        std::vector<Index> ends;
        for (const auto& [a, b] : edges) {
            starts.push_back(a);
            ends.push_back(b);
        }
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        return starts == ends && std::adjacent_find(starts.begin(), starts.end()) == starts.end();
    }
    return std::all_of(edges.begin(), edges.end(), [&](const auto& e) {
        return std::binary_search(sorted.begin(), sorted.end(), std::make_pair(e.second, e.first));
    });
}

// The integral of x . n over segment s (its area or length measure), by Gauss points: 3 per line,
// 3 x 3 per quad, 6 (degree 4) per triangle.
double fluxOf(const SegmentNodes& s) {
    constexpr double kG = 0.7745966692414834;  // sqrt(3/5)
    constexpr double kLine[3][2] = {{-kG, 5.0 / 9.0}, {0.0, 8.0 / 9.0}, {kG, 5.0 / 9.0}};
    constexpr double kA = 0.445948490915965;
    constexpr double kB = 0.091576213509771;
    constexpr double kWa = 0.223381589678011 / 2.0;  // weights of a triangle of area 1/2
    constexpr double kWb = 0.109951743655322 / 2.0;
    constexpr double kTri[6][3] = {
        {kA, kA, kWa}, {1.0 - 2.0 * kA, kA, kWa}, {kA, 1.0 - 2.0 * kA, kWa},
        {kB, kB, kWb}, {1.0 - 2.0 * kB, kB, kWb}, {kB, 1.0 - 2.0 * kB, kWb}};
    double sum = 0.0;
    const auto at = [&](double xi, double eta, double w) {
        const SegmentFrame f = segmentFrame(s, Eigen::Vector2d(xi, eta));
        sum += w * f.jacobian * f.point.dot(f.normal);
    };
    if (parametricDim(s.type) == 1) {
        for (const auto& p : kLine) {
            at(p[0], 0.0, p[1]);
        }
    } else if (isTriangle(s.type)) {
        for (const auto& p : kTri) {
            at(p[0], p[1], p[2]);
        }
    } else {
        for (const auto& p : kLine) {
            for (const auto& q : kLine) {
                at(p[0], q[0], p[1] * q[1]);
            }
        }
    }
    return sum;
}

}  // namespace

void Surface::addSegment(SegmentType type, const Index* nodes, int count) {
    if (!isSegmentType(type)) {
        throw std::invalid_argument("contact::Surface::addSegment(): surface '" + name +
                                    "', segment " + std::to_string(size()) + ": type " +
                                    std::to_string(static_cast<int>(type)) + " is no SegmentType");
    }
    if (nodes == nullptr) {
        throw std::invalid_argument("contact::Surface::addSegment(): surface '" + name +
                                    "', segment " + std::to_string(size()) + ": nodes is null");
    }
    if (count != nodeCount(type)) {
        throw std::invalid_argument(
            "contact::Surface::addSegment(): surface '" + name + "', segment " +
            std::to_string(size()) + ": a " + segmentTypeName(type) + " has " +
            std::to_string(nodeCount(type)) + " nodes, got " + std::to_string(count));
    }
    types.push_back(type);
    connectivity.insert(connectivity.end(), nodes, nodes + count);
    offsets.push_back(static_cast<Index>(connectivity.size()));
}

double enclosedVolume(const Surface& surface, const CoordinatesView& x) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    // The structure first: the segments are read by their types and offsets.
    const auto malformed = [&](Index k, const std::string& what, Index /*node*/) {
        throw std::invalid_argument("contact::enclosedVolume(): surface '" + surface.name + "'" +
                                    (k != kNoIndex ? ", segment " + std::to_string(k) : "") + ": " +
                                    what);
    };
    detail::checkOffsets(surface, malformed);
    detail::checkSegmentNodes(surface, malformed);
    const int dim = surface.empty() ? 0 : parametricDim(surface.types[0]);
    if (surface.empty() || x.problem() != nullptr ||
        std::any_of(surface.types.begin(), surface.types.end(),
                    [&](SegmentType t) { return parametricDim(t) != dim; }) ||
        std::any_of(surface.connectivity.begin(), surface.connectivity.end(),
                    [&](Index n) { return n < 0 || n >= x.numNodes; }) ||
        !closedAndConsistent(surface)) {
        return kNaN;
    }
    double flux = 0.0;
    for (Index k = 0; k < surface.size(); ++k) {
        flux += fluxOf(gatherSegment(surface, k, x));
    }
    return flux / (dim == 1 ? 2.0 : 3.0);
}

namespace {

std::string replaced(const std::string& text, const std::string& name) {
    std::string out = text;
    const std::size_t at = out.find("%n");
    if (at != std::string::npos) {
        out.replace(at, 2, name);
    }
    return out;
}

std::string surfaceErrorText(const std::string& function, const std::string& role,
                             const std::string& surfaceName, Index segment, SegmentType type,
                             const std::string& problem, Index node) {
    std::string text = function + ": " + role + " surface '" + surfaceName + "'";
    if (segment != kNoIndex) {
        text += ", segment " + std::to_string(segment) + " (" + segmentTypeName(type) + ")";
    }
    return text + ": " + replaced(problem, std::to_string(node));
}

}  // namespace

SurfaceError::SurfaceError(const std::string& function, std::string role,
                           const std::string& surfaceName, Index segment, SegmentType type,
                           std::string problem, Index node)
    : std::invalid_argument(
          surfaceErrorText(function, role, surfaceName, segment, type, problem, node)),
      role_(std::move(role)), segment_(segment), node_(node), problem_(std::move(problem)) {}

std::string SurfaceError::problemWith(const std::string& nodeName) const {
    return replaced(problem_, nodeName);
}

}  // namespace contact
