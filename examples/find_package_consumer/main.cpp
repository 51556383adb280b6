// SPDX-License-Identifier: MIT
// Built against the installed package: projects a point onto a segment and checks the gap.
#include <cmath>
#include <contact/projection.hpp>
#include <cstdio>
#include <mesh_io/error.hpp>

int main() {
    contact::SegmentNodes tri;
    tri.type = contact::SegmentType::Tri3;
    tri.x[0] = {0, 0, 0};
    tri.x[1] = {1, 0, 0};
    tri.x[2] = {0, 1, 0};
    const contact::Projection p = contact::closestPoint(tri, Eigen::Vector3d(0.25, 0.25, -0.5));
    const bool ok =
        std::abs(p.gap + 0.5) < 1e-14 && p.status == contact::ProjectionStatus::kConverged;
    std::printf("gap %.3f, status %s\nconsumer: %s\n", p.gap,
                contact::projectionStatusName(p.status), ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
