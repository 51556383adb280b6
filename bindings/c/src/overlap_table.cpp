// SPDX-License-Identifier: MIT
#include "overlap_table.hpp"

#include "mesh_io/overlaps.hpp"

namespace contact::bindings {

void computeOverlapTable(const ContactSearch& search, const CoordinatesView& x,
                         std::unique_ptr<mesh_io::ContactSurface[]>& cache, OverlapTable& out) {
    if (!cache) {
        cache = std::make_unique<mesh_io::ContactSurface[]>(2);
        cache[0].surface = search.master();
        cache[1].surface = search.slave();
        cache[0].dim = cache[1].dim = x.dim;
    }
    const std::vector<mesh_io::PairOverlap> overlaps = mesh_io::computeOverlaps(
        cache[0], cache[1], search.segmentPairs(), x, search.captureDistance());
    const std::size_t n = overlaps.size();
    out = OverlapTable{};
    out.slave.reserve(n);
    out.master.reserve(n);
    out.area.reserve(n);
    out.centroid.reserve(3 * n);
    out.gapMin.reserve(n);
    out.gapMax.reserve(n);
    out.vertexCount.reserve(n);
    out.vertices.reserve(std::size_t{3} * kMaxOverlapVertices * n);
    for (const mesh_io::PairOverlap& o : overlaps) {
        out.slave.push_back(o.slave);
        out.master.push_back(o.master);
        out.area.push_back(o.area);
        out.centroid.insert(out.centroid.end(), o.centroid.data(), o.centroid.data() + 3);
        out.gapMin.push_back(o.gapMin);
        out.gapMax.push_back(o.gapMax);
        out.vertexCount.push_back(o.count);
        for (int k = 0; k < kMaxOverlapVertices; ++k) {
            const Eigen::Vector3d v = k < o.count ? o.vertices[k] : Eigen::Vector3d::Zero();
            out.vertices.insert(out.vertices.end(), v.data(), v.data() + 3);
        }
    }
}

}  // namespace contact::bindings
