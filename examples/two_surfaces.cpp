// SPDX-License-Identifier: MIT
// Two contacting surfaces through the stages of the contact search, one kernel at a time:
// a curved Quad8 spherical cap (slave) pressed 0.02 into a flat Quad4 block face (master).
//
// Usage: two_surfaces [--capture D]
#include "contact/bounds.hpp"
#include "contact/projection.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using contact::SegmentNodes;
using contact::SegmentType;

struct Scene {
    std::vector<SegmentNodes> master;
    std::vector<SegmentNodes> slave;
    std::vector<Eigen::Vector3d> slaveNodes;  // distinct slave nodes
};

// Master: n x n Quad4 faces on z = 0 over [-1, 1]^2, counter-clockwise from +z (normal +z).
// Slave: n x n Quad8 faces on a sphere of radius R whose lowest point is at z = -penetration,
// over the patch |x|, |y| <= 0.4; nodes ordered so the normal points out of the sphere (down).
Scene makeScene(int n, double radius, double penetration) {
    Scene scene;
    const double h = 2.0 / n;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            SegmentNodes q;
            q.type = SegmentType::Quad4;
            const double x0 = -1 + i * h;
            const double y0 = -1 + j * h;
            q.x[0] = {x0, y0, 0};
            q.x[1] = {x0 + h, y0, 0};
            q.x[2] = {x0 + h, y0 + h, 0};
            q.x[3] = {x0, y0 + h, 0};
            scene.master.push_back(q);
        }
    }
    const double zc = radius - penetration;
    const auto onSphere = [&](double x, double y) {
        return Eigen::Vector3d(x, y, zc - std::sqrt(radius * radius - x * x - y * y));
    };
    const int m = 2 * n;  // grid of 2m+1 node positions (corners and midsides)
    const double span = 0.4;
    const double g = span / n;  // half a face
    for (int i = 0; i < m + 1; ++i) {
        for (int j = 0; j < m + 1; ++j) {
            if ((i % 2 == 1) && (j % 2 == 1)) {
                continue;  // face centres are not Quad8 nodes
            }
            scene.slaveNodes.push_back(onSphere(-span + i * g, -span + j * g));
        }
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const double x0 = -span + 2 * i * g;
            const double y0 = -span + 2 * j * g;
            // Seen from below (outside the sphere) counter-clockwise: swap the x and y order.
            const double cx[4] = {0, 0, 2, 2};
            const double cy[4] = {0, 2, 2, 0};
            SegmentNodes q;
            q.type = SegmentType::Quad8;
            for (int k = 0; k < 4; ++k) {
                q.x[k] = onSphere(x0 + cx[k] * g, y0 + cy[k] * g);
                const int l = (k + 1) % 4;
                q.x[4 + k] =
                    onSphere(x0 + 0.5 * (cx[k] + cx[l]) * g, y0 + 0.5 * (cy[k] + cy[l]) * g);
            }
            scene.slave.push_back(q);
        }
    }
    return scene;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    double capture = 0.05;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--capture") == 0 && i + 1 < argc) {
            char* end = nullptr;
            capture = std::strtod(argv[++i], &end);
            if (*end != '\0' || !(capture >= 0)) {
                std::fprintf(stderr, "two_surfaces: --capture expects a distance >= 0, got '%s'\n",
                             argv[i]);
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: two_surfaces [--capture D]\n");
            return 2;
        }
    }
    const double radius = 1.0;
    const double penetration = 0.02;
    const Scene scene = makeScene(16, radius, penetration);
    std::printf("Contact search kernels: spherical cap (R = %.2f, %zu Quad8 faces, %zu nodes)\n"
                "pressed %.3f into a flat block face (%zu Quad4 faces); capture distance %.3f\n\n",
                radius, scene.slave.size(), scene.slaveNodes.size(), penetration,
                scene.master.size(), capture);

    // 1. Bounds.
    auto t0 = std::chrono::steady_clock::now();
    std::vector<contact::Aabb3> masterBox;
    std::vector<contact::Obb3> masterObb;
    for (const auto& s : scene.master) {
        masterBox.push_back(contact::segmentAabb<3>(s, capture));
        masterObb.push_back(contact::segmentObb3d(s, capture));
    }
    std::vector<contact::Aabb3> slaveBox;
    std::vector<contact::Obb3> slaveObb;
    for (const auto& s : scene.slave) {
        slaveBox.push_back(contact::segmentAabb<3>(s, capture));
        slaveObb.push_back(contact::segmentObb3d(s, capture));
    }
    const double tBounds = msSince(t0);

    // 2-3. Candidate segment pairs (all pairs here; ContactSearch's broad phase, sort and sweep
    // or a box tree by default, replaces this loop), then the 15-axis SAT on the buffered OBBs.
    t0 = std::chrono::steady_clock::now();
    long candidates = 0;
    long survivors = 0;
    for (std::size_t i = 0; i < scene.slave.size(); ++i) {
        for (std::size_t j = 0; j < scene.master.size(); ++j) {
            if (!contact::overlaps(slaveBox[i], masterBox[j])) {
                continue;
            }
            ++candidates;
            survivors += contact::satOverlap3d(slaveObb[i], masterObb[j]) ? 1 : 0;
        }
    }
    const double tPairs = msSince(t0);

    // 4. Node-to-segment: each slave node's closest point over the master segments whose
    // buffered box holds it; paired when within the capture distance.
    t0 = std::chrono::steady_clock::now();
    int paired = 0;
    int penetrating = 0;
    double minGap = 1e300;
    double maxGapErr = 0.0;
    for (const auto& p : scene.slaveNodes) {
        contact::Projection best;
        best.distance = 1e300;
        for (std::size_t j = 0; j < scene.master.size(); ++j) {
            const auto& b = masterBox[j];
            if ((p.array() < b.lo.array()).any() || (p.array() > b.hi.array()).any()) {
                continue;
            }
            const contact::Projection pr = contact::closestPoint(scene.master[j], p);
            if (pr.distance < best.distance) {
                best = pr;
            }
        }
        if (best.distance <= capture) {
            ++paired;
            penetrating += best.gap < 0 ? 1 : 0;
            minGap = std::min(minGap, best.gap);
            maxGapErr = std::max(maxGapErr, std::abs(best.gap - p.z()));  // flat master: gap = z
        }
    }
    const double tProj = msSince(t0);

    std::printf("stage                    count        time\n");
    std::printf("buffered AABB + OBB   %8zu  %8.3f ms\n", masterBox.size() + slaveBox.size(),
                tBounds);
    std::printf("AABB-overlap pairs    %8ld\n", candidates);
    std::printf("SAT survivors         %8ld  %8.3f ms (all-pairs loop)\n", survivors, tPairs);
    std::printf("node-to-segment pairs %8d  %8.3f ms\n\n", paired, tProj);
    std::printf("penetrating nodes     %8d\n", penetrating);
    std::printf("minimum gap           %8.5f (analytic %.5f)\n", paired ? minGap : 0.0,
                -penetration);
    std::printf("max |gap - z|         %8.1e (flat master: the gap is the node height)\n",
                maxGapErr);
    const bool ok = paired > 0 && std::abs(minGap + penetration) < 1e-12 && maxGapErr < 1e-12 &&
                    survivors <= candidates;
    std::printf("\n%s\n", ok ? "report: OK" : "report: UNEXPECTED RESULT");
    return ok ? 0 : 1;
}
