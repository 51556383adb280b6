// SPDX-License-Identifier: MIT
#include "mesh_io/overlaps.hpp"

#include <algorithm>

namespace mesh_io {

std::vector<PairOverlap> computeOverlaps(const ContactSurface& master, const ContactSurface& slave,
                                         const contact::SegmentPairs& pairs,
                                         const contact::CoordinatesView& x, double capture) {
    std::vector<PairOverlap> out;
    for (Index i = 0; i < pairs.size(); ++i) {
        const contact::SegmentNodes s = contact::gatherSegment(slave.surface, pairs.slave()[i], x);
        const contact::SegmentNodes m =
            contact::gatherSegment(master.surface, pairs.master()[i], x);
        PairOverlap o;
        o.slave = pairs.slave()[i];
        o.master = pairs.master()[i];
        if (x.dim == 2) {
            const contact::SegmentClip2d c = contact::clipSegments2d(s, m, capture);
            if (c.status != contact::ClipStatus::kOverlap) {
                continue;
            }
            o.area = c.overlapLength;
            o.count = c.pointCount;
            o.gapMin = o.gapMax = c.points[0].gap;
            for (int k = 0; k < c.pointCount; ++k) {
                o.vertices[k] = c.points[k].masterPoint;
                o.centroid += c.points[k].masterPoint / c.pointCount;
                o.gapMin = std::min(o.gapMin, c.points[k].gap);
                o.gapMax = std::max(o.gapMax, c.points[k].gap);
            }
        } else {
            const contact::OverlapPolygon p = contact::clipSegments3d(s, m);
            if (p.status != contact::ClipStatus::kOverlap) {
                continue;
            }
            o.area = p.area;
            o.centroid = p.centroid;
            o.count = p.count;
            o.gapMin = o.gapMax = p.vertices[0].gap;
            for (int k = 0; k < p.count; ++k) {
                o.vertices[k] = p.vertices[k].point;
                o.gapMin = std::min(o.gapMin, p.vertices[k].gap);
                o.gapMax = std::max(o.gapMax, p.vertices[k].gap);
            }
        }
        out.push_back(o);
    }
    return out;
}

}  // namespace mesh_io
