// SPDX-License-Identifier: MIT
// Built against the installed package, as a solver would use it: projects a point onto a segment
// and checks the gap, then searches a flat slave patch over a flat master with the coordinates in
// three separate arrays (x, y, z), as many solvers keep them, and checks every gap; then the same
// patch in segment mode with its mortar quantities, a clip and a sampled reference search (every
// public header's functions reach a shared library too).
#include <cmath>
#include <contact/clipping.hpp>
#include <contact/contact_search.hpp>
#include <contact/mortar.hpp>
#include <contact/projection.hpp>
#include <contact/reference_search.hpp>
#include <contact/tolerances.hpp>
#include <cstdio>
#include <mesh_io/error.hpp>
#include <utility>
#include <vector>

#ifdef _OPENMP
#error "the consumer is compiled with OpenMP: the package must keep it private"
#endif

namespace {

// An n x n grid of Quad4 faces over [0, 1]^2 at height z, nodes appended to x, y, zs.
contact::Surface grid(int n, double z, bool down, std::vector<double>& x, std::vector<double>& y,
                      std::vector<double>& zs) {
    const auto first = static_cast<contact::Index>(x.size());
    for (int j = 0; j <= n; ++j) {
        for (int i = 0; i <= n; ++i) {
            x.push_back(double(i) / n);
            y.push_back(double(j) / n);
            zs.push_back(z);
        }
    }
    contact::Surface s;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const contact::Index a = first + j * (n + 1) + i;
            const contact::Index b = a + 1;
            const contact::Index c = b + n + 1;
            const contact::Index d = a + n + 1;
            if (down) {
                s.addSegment(contact::SegmentType::Quad4, {a, d, c, b});
            } else {
                s.addSegment(contact::SegmentType::Quad4, {a, b, c, d});
            }
        }
    }
    return s;
}

}  // namespace

int main() {
    contact::SegmentNodes tri;
    tri.type = contact::SegmentType::Tri3;
    tri.x[0] = {0, 0, 0};
    tri.x[1] = {1, 0, 0};
    tri.x[2] = {0, 1, 0};
    const contact::Projection p = contact::closestPoint(tri, Eigen::Vector3d(0.25, 0.25, -0.5));
    bool ok = std::abs(p.gap + 0.5) < 1e-14 && p.status == contact::ProjectionStatus::kConverged;
    std::printf("gap %.3f, status %s\n", p.gap, contact::projectionStatusName(p.status));

    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> z;
    contact::Surface master = grid(6, 0.0, false, x, y, z);
    contact::Surface slave = grid(4, 0.02, true, x, y, z);
    const auto view = contact::CoordinatesView::separate(x.data(), y.data(), z.data(),
                                                         static_cast<contact::Index>(x.size()));
    contact::SearchOptions o;
    o.capture = 0.05;
    o.captureRelative = false;
    contact::ContactSearch search(o);
    search.setSurfaces(std::move(master), std::move(slave), view);
    const contact::UpdateStats st = search.update(view);
    const contact::NodePairs& pairs = search.nodePairs();
    ok = ok && st.status == contact::UpdateStatus::kOk && pairs.size() == 25 &&
         st.orientation.verdict == contact::Orientation::kConsistent;
    for (contact::Index i = 0; i < pairs.size(); ++i) {
        ok = ok && std::abs(pairs.gap()[i] - 0.02) < 1e-14;
    }
    std::printf("search: %s, %d pairs, orientation %s\n", contact::updateStatusName(st.status),
                static_cast<int>(pairs.size()), contact::orientationName(st.orientation.verdict));

    // The slave's nodal areas sum to its area, 1, all of it over the master.
    o.mode = contact::SearchMode::kSegmentToSegment;
    contact::ContactSearch segments(o);
    segments.setSurfaces(search.master(), search.slave(), view);
    ok = ok && segments.update(view).status == contact::UpdateStatus::kOk;
    contact::MortarIntegrator mortar;
    (void)mortar.compute(segments, view);
    double area = 0.0;
    for (const double a : mortar.operators().nodalArea) {
        area += a;
    }
    ok = ok && std::abs(area - 1.0) < 1e-12 &&
         contact::mortarQuadratureDegree(contact::SegmentType::Quad4,
                                         contact::SegmentType::Quad4) == 4;
    contact::SegmentNodes lower = tri;
    contact::SegmentNodes upper = tri;
    for (int i = 0; i < 3; ++i) {
        upper.x[i] = tri.x[2 - i] + Eigen::Vector3d(0, 0, 0.1);  // facing it, 0.1 above
    }
    const contact::OverlapPolygon clip = contact::clipSegments3d(upper, lower);
    ok = ok && clip.status == contact::ClipStatus::kOverlap && std::abs(clip.area - 0.5) < 1e-14 &&
         contact::tol::kClipMergeRel > 0.0;
    const contact::ReferenceResult ref =
        contact::referenceSearchSample(search.master(), search.slave(), {0}, view, o);
    ok = ok && ref.segmentPairs.size() > 0;
    std::printf(
        "mortar: nodal area %.15g, clip area %.15g (%s), reference %d pairs\nconsumer: %s\n", area,
        clip.area, contact::clipStatusName(clip.status), static_cast<int>(ref.segmentPairs.size()),
        ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
