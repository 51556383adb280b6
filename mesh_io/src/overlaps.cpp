// SPDX-License-Identifier: MIT
#include "mesh_io/overlaps.hpp"

#include "contact/segment.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace mesh_io {
namespace {

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

template <class F>
double sum(const std::vector<PairOverlap>& pairs, F field) {
    double s = 0.0;
    for (const PairOverlap& o : pairs) {
        s += field(o);
    }
    return s;
}

// 2D: the overlap and its part within capture, drawn as the kept stretch's two ends on the master.
bool overlap2d(const contact::SegmentNodes& s, const contact::SegmentNodes& m, double capture,
               int subdivisions, PairOverlap& o, Overlaps& out) {
    const contact::SegmentClip2d c = contact::clipSegments2d(s, m, capture);
    if (c.status != contact::ClipStatus::kOverlap &&
        c.status != contact::ClipStatus::kBeyondCapture) {
        return false;
    }
    const contact::OverlapCut2d cut = contact::cutOverlap2d(c, s, m, capture, subdivisions);
    o.overlapArea = c.overlapLength;
    o.captureArea = cut.length;
    o.penetrationArea = cut.penetratingLength;
    o.captureAreaError = cut.lengthError;
    o.penetrationAreaError = cut.penetratingLengthError;
    o.gapMin = cut.gapMin;
    o.gapMax = cut.gapMax;
    o.count = cut.length > 0.0 ? cut.count : 0;
    for (int k = 0; k < o.count; ++k) {
        out.points.push_back(cut.ends[k].masterPoint);
        out.gap.push_back(cut.ends[k].gap);
        out.normal.push_back(cut.ends[k].normal);
        o.centroid += cut.ends[k].masterPoint / o.count;
    }
    return true;
}

// 3D: the overlap polygon and its cut, drawn as the cut polygon.
bool overlap3d(const contact::SegmentNodes& s, const contact::SegmentNodes& m, double capture,
               int subdivisions, PairOverlap& o, Overlaps& out) {
    const contact::OverlapPolygon p = contact::clipSegments3d(s, m);
    if (p.status != contact::ClipStatus::kOverlap) {
        return false;
    }
    const contact::OverlapCut3d cut = contact::cutOverlap3d(p, s, m, capture, subdivisions);
    o.overlapArea = p.area;
    o.captureArea = cut.area;
    o.penetrationArea = cut.penetratingArea;
    o.captureAreaError = cut.areaError;
    o.penetrationAreaError = cut.penetratingAreaError;
    o.gapMin = cut.gapMin;
    o.gapMax = cut.gapMax;
    o.count = cut.area > 0.0 ? cut.count : 0;
    double twiceArea = 0.0;  // area centroid of the drawn polygon, fanned from vertex 0
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int k = 0; k < o.count; ++k) {
        const contact::OverlapVertex& v = cut.vertices[k];
        out.points.push_back(v.point);
        out.gap.push_back(v.gap);
        out.normal.push_back(contact::outwardNormal(m, v.xiMaster));
        if (k >= 2) {
            const Eigen::Vector3d& a = cut.vertices[0].point;
            const double t = (cut.vertices[k - 1].point - a).cross(v.point - a).dot(p.normal);
            twiceArea += t;
            c += t * (a + cut.vertices[k - 1].point + v.point) / 3.0;
        }
    }
    o.centroid = twiceArea > 0.0 ? Eigen::Vector3d(c / twiceArea) : Eigen::Vector3d::Zero();
    return true;
}

}  // namespace

double Overlaps::overlapArea() const noexcept {
    return sum(pairs, [](const PairOverlap& o) { return o.overlapArea; });
}
double Overlaps::captureArea() const noexcept {
    return sum(pairs, [](const PairOverlap& o) { return o.captureArea; });
}
double Overlaps::penetrationArea() const noexcept {
    return sum(pairs, [](const PairOverlap& o) { return o.penetrationArea; });
}
double Overlaps::captureAreaError() const noexcept {
    return sum(pairs, [](const PairOverlap& o) { return o.captureAreaError; });
}
double Overlaps::penetrationAreaError() const noexcept {
    return sum(pairs, [](const PairOverlap& o) { return o.penetrationAreaError; });
}
Index Overlaps::inContact() const noexcept {
    return static_cast<Index>(std::count_if(
        pairs.begin(), pairs.end(), [](const PairOverlap& o) { return o.captureArea > 0.0; }));
}

Overlaps computeOverlaps(const contact::Surface& master, const contact::Surface& slave,
                         const contact::SegmentPairs& pairs, const contact::CoordinatesView& x,
                         double capture, int subdivisions, int threads) {
    if (threads < 1 || threads > contact::kMaxThreads) {
        throw std::invalid_argument("computeOverlaps: threads must be 1 .. " +
                                    std::to_string(contact::kMaxThreads) + ", got " +
                                    std::to_string(threads));
    }
    // No gap is <= a NaN capture; a negative one would leave out contact that is not penetration.
    if (!(std::isfinite(capture) && capture >= 0.0)) {
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", capture);
        throw std::invalid_argument(
            std::string(
                "computeOverlaps: the capture distance must be finite and 0 or more, got ") +
            text);
    }
    // The kernels take finite coordinates: a NaN would give NaN areas, silently.
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string("computeOverlaps: coordinates: ") + bad);
    }
    const auto checkNodes = [&x](const contact::Surface& s, const char* role) {
        for (const Index n : s.connectivity) {
            if (n < 0 || n >= x.numNodes) {
                throw std::invalid_argument(std::string("computeOverlaps: the ") + role +
                                            " surface names node " + std::to_string(n) +
                                            "; the coordinates have " + std::to_string(x.numNodes) +
                                            " nodes");
            }
            if (!x.node(n).allFinite()) {
                throw std::invalid_argument("computeOverlaps: node " + std::to_string(n) +
                                            " has a NaN or Inf coordinate");
            }
        }
    };
    checkNodes(master, "master");
    checkNodes(slave, "slave");
    for (Index i = 0; i < pairs.size(); ++i) {
        const Index s = pairs.slave()[i];
        const Index m = pairs.master()[i];
        if (s < 0 || s >= slave.size() || m < 0 || m >= master.size()) {
            throw std::invalid_argument("computeOverlaps: pair " + std::to_string(i) +
                                        " is (slave " + std::to_string(s) + ", master " +
                                        std::to_string(m) + "); the surfaces have " +
                                        std::to_string(slave.size()) + " and " +
                                        std::to_string(master.size()) + " segments");
        }
    }
    // Runs of pairs, each into its own Overlaps, joined in order: the result is the same for any
    // thread count. Several runs per thread even out the kernels' uneven cost.
    const Index n = pairs.size();
    const Index runs =
        threads == 1 ? 1 : std::max<Index>(1, std::min<Index>(n, 8 * static_cast<Index>(threads)));
    const auto bound = [&](Index r) {
        return static_cast<Index>(static_cast<long long>(n) * r / runs);
    };
    std::vector<Overlaps> parts(static_cast<std::size_t>(runs));
    // An exception may not leave a parallel region (out of memory would end the process): each
    // run keeps its own, and the first is thrown after the loop.
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(runs));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (Index r = 0; r < runs; ++r) {
        Overlaps& out = parts[static_cast<std::size_t>(r)];
        try {
            for (Index i = bound(r); i < bound(r + 1); ++i) {
                const contact::SegmentNodes s = contact::gatherSegment(slave, pairs.slave()[i], x);
                const contact::SegmentNodes m =
                    contact::gatherSegment(master, pairs.master()[i], x);
                PairOverlap o;
                o.slave = pairs.slave()[i];
                o.master = pairs.master()[i];
                o.first = static_cast<Index>(out.points.size());
                const bool found = x.dim == 2 ? overlap2d(s, m, capture, subdivisions, o, out)
                                              : overlap3d(s, m, capture, subdivisions, o, out);
                if (found) {
                    out.pairs.push_back(o);
                }
            }
        } catch (...) {
            failed[static_cast<std::size_t>(r)] = std::current_exception();
        }
    }
    for (const std::exception_ptr& e : failed) {
        if (e) {
            std::rethrow_exception(e);
        }
    }
    std::size_t pairCount = 0;
    std::size_t pointCount = 0;
    for (const Overlaps& part : parts) {
        pairCount += part.pairs.size();
        pointCount += part.points.size();
    }
    Overlaps out = std::move(parts[0]);
    out.subdivisions = subdivisions;
    out.pairs.reserve(pairCount);
    out.points.reserve(pointCount);
    out.gap.reserve(pointCount);
    out.normal.reserve(pointCount);
    for (std::size_t r = 1; r < parts.size(); ++r) {
        const auto shift = static_cast<Index>(out.points.size());
        for (PairOverlap& o : parts[r].pairs) {
            o.first += shift;
        }
        append(out.pairs, parts[r].pairs);
        append(out.points, parts[r].points);
        append(out.gap, parts[r].gap);
        append(out.normal, parts[r].normal);
        parts[r] = Overlaps{};
    }
    return out;
}

}  // namespace mesh_io
