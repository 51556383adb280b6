// SPDX-License-Identifier: MIT
#include "surfaces.hpp"

#include <cmath>
#include <vector>

namespace contact::testing {

Eigen::Matrix3Xd Mesh::coords3() const {
    Eigen::Matrix3Xd x(3, static_cast<Eigen::Index>(nodes.size()));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        x.col(static_cast<Eigen::Index>(i)) = nodes[i];
    }
    return x;
}

Eigen::Matrix2Xd Mesh::coords2() const { return coords3().topRows<2>(); }

Index Mesh::add(const Eigen::Vector3d& p) {
    nodes.push_back(p);
    return static_cast<Index>(nodes.size() - 1);
}

double graded(double u, double r) { return r == 1.0 ? u : (std::pow(r, u) - 1.0) / (r - 1.0); }

Surface addPatch(Mesh& mesh, SegmentType type, int nx, int ny, const PatchMap& map, bool flip,
                 const std::string& name, bool mixed) {
    Surface s;
    s.name = name;
    const int q = isQuadratic(type) ? 2 : 1;  // grid points per cell edge
    const int gx = q * nx + 1;
    const int gy = q * ny + 1;
    std::vector<Index> id(static_cast<std::size_t>(gx) * gy);
    for (int i = 0; i < gx; ++i) {
        for (int j = 0; j < gy; ++j) {
            id[static_cast<std::size_t>(i) * gy + j] =
                mesh.add(map(static_cast<double>(i) / (gx - 1), static_cast<double>(j) / (gy - 1)));
        }
    }
    const auto at = [&](int i, int j) { return id[static_cast<std::size_t>(i) * gy + j]; };
    for (int ci = 0; ci < nx; ++ci) {
        for (int cj = 0; cj < ny; ++cj) {
            const int i = q * ci;
            const int j = q * cj;
            const int e = q;  // offset to the far corner
            const bool tri = isTriangle(type) || (mixed && (ci + cj) % 2 == 1);
            if (!tri) {
                const SegmentType t = mixed ? SegmentType::Quad4 : type;
                Index c[4] = {at(i, j), at(i + e, j), at(i + e, j + e), at(i, j + e)};
                if (q == 1) {
                    if (flip) {
                        std::swap(c[1], c[3]);
                    }
                    s.addSegment(t, c, 4);
                    continue;
                }
                Index m[4] = {at(i + 1, j), at(i + 2, j + 1), at(i + 1, j + 2), at(i, j + 1)};
                if (flip) {
                    std::swap(c[1], c[3]);
                    std::swap(m[0], m[3]);
                    std::swap(m[1], m[2]);
                }
                Index n[9] = {c[0], c[1], c[2], c[3], m[0], m[1], m[2], m[3], at(i + 1, j + 1)};
                s.addSegment(type, n, nodeCount(type));
                continue;
            }
            const SegmentType t = mixed ? SegmentType::Tri3 : type;
            // Two triangles (i,j)-(i+e,j)-(i+e,j+e) and (i,j)-(i+e,j+e)-(i,j+e).
            const int corners[2][3][2] = {{{0, 0}, {2, 0}, {2, 2}}, {{0, 0}, {2, 2}, {0, 2}}};
            for (const auto& tr : corners) {
                int a[3][2];
                for (int k = 0; k < 3; ++k) {
                    a[k][0] = tr[k][0];
                    a[k][1] = tr[k][1];
                }
                if (flip) {
                    std::swap(a[1], a[2]);
                }
                Index n[6];
                for (int k = 0; k < 3; ++k) {
                    n[k] = at(i + a[k][0] * e / 2, j + a[k][1] * e / 2);
                    const int l = (k + 1) % 3;
                    if (q == 2) {
                        n[3 + k] = at(i + (a[k][0] + a[l][0]) / 2, j + (a[k][1] + a[l][1]) / 2);
                    }
                }
                s.addSegment(t, n, nodeCount(t));
            }
        }
    }
    return s;
}

Surface addCurve(Mesh& mesh, SegmentType type, int n,
                 const std::function<Eigen::Vector2d(double)>& map, bool flip,
                 const std::string& name) {
    Surface s;
    s.name = name;
    const int q = type == SegmentType::Line3 ? 2 : 1;
    const int g = q * n + 1;
    std::vector<Index> id(g);
    for (int i = 0; i < g; ++i) {
        const Eigen::Vector2d p = map(static_cast<double>(i) / (g - 1));
        id[i] = mesh.add(Eigen::Vector3d(p.x(), p.y(), 0.0));
    }
    for (int c = 0; c < n; ++c) {
        Index a = id[q * c];
        Index b = id[q * c + q];
        if (flip) {
            std::swap(a, b);
        }
        if (q == 1) {
            s.addSegment(type, {a, b});
        } else {
            s.addSegment(type, {a, b, id[q * c + 1]});
        }
    }
    return s;
}

}  // namespace contact::testing
