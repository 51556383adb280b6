// SPDX-License-Identifier: MIT
#include "overlap_table.hpp"

#include "mesh_io/overlaps.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace contact::bindings {

std::vector<Index> surfaceNodes(const ContactSearch& search) {
    std::vector<Index> nodes(search.master().connectivity);
    nodes.insert(nodes.end(), search.slave().connectivity.begin(),
                 search.slave().connectivity.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

std::uint64_t coordinatesFingerprint(const std::vector<Index>& nodes, const CoordinatesView& x) {
    std::uint64_t h = 0;
    for (const Index i : nodes) {
        const Eigen::Vector3d p = x.node(i);
        for (int k = 0; k < x.dim; ++k) {
            const double v = p[k] + 0.0;  // -0 + 0 = +0
            std::uint64_t bits = 0;
            std::memcpy(&bits, &v, sizeof bits);
            h = ((h << 5) | (h >> 59)) ^ bits;  // rotate, mix in, multiply (golden ratio)
            h *= 0x9E3779B97F4A7C15ULL;
        }
    }
    return h;
}

void computeOverlapTable(const ContactSearch& search, const CoordinatesView& x, OverlapTable& out) {
    const mesh_io::Overlaps o = mesh_io::computeOverlaps(
        search.master(), search.slave(), search.segmentPairs(), x, search.captureDistance(),
        kDefaultCutSubdivisions, search.options().threads);
    const std::size_t n = o.pairs.size();
    out = OverlapTable{};
    out.slave.reserve(n);
    out.master.reserve(n);
    out.overlapArea.reserve(n);
    out.captureArea.reserve(n);
    out.penetrationArea.reserve(n);
    out.centroid.reserve(3 * n);
    out.gapMin.reserve(n);
    out.gapMax.reserve(n);
    out.vertexCount.reserve(n);
    out.vertices.reserve(std::size_t{3} * kMaxDrawnVertices * n);
    for (const mesh_io::PairOverlap& p : o.pairs) {
        const bool in = p.captureArea > 0.0;
        const bool drawn = p.count > 0;
        out.slave.push_back(p.slave);
        out.master.push_back(p.master);
        out.overlapArea.push_back(p.overlapArea);
        out.captureArea.push_back(p.captureArea);
        out.penetrationArea.push_back(p.penetrationArea);
        for (int k = 0; k < 3; ++k) {
            out.centroid.push_back(drawn ? p.centroid[k] : NAN);
        }
        out.gapMin.push_back(in ? p.gapMin : NAN);
        out.gapMax.push_back(in ? p.gapMax : NAN);
        const int count = std::min(p.count, kMaxDrawnVertices);
        out.vertexCount.push_back(count);
        for (int k = 0; k < kMaxDrawnVertices; ++k) {
            const Eigen::Vector3d v = k < count ? o.points[static_cast<std::size_t>(p.first) + k]
                                                : Eigen::Vector3d::Zero();
            out.vertices.insert(out.vertices.end(), v.data(), v.data() + 3);
        }
    }
}

}  // namespace contact::bindings
