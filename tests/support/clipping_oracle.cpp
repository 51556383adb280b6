// SPDX-License-Identifier: MIT
#include "clipping_oracle.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>

namespace contact::testing {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

double cross(const Vector2d& a, const Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

struct Sampler {
    bool triangle = false;
    std::array<Vector3d, 4> corners{};  // slave corners
    Vector3d e1 = Vector3d::UnitX();
    Vector3d e2 = Vector3d::UnitY();
    std::array<Vector2d, 4> master{};  // projected master corners, counter-clockwise
    int masterCount = 0;
    int maxDepth = 0;
    OracleArea result;

    // Corner map of the slave at reference point r, projected on the plane.
    [[nodiscard]] Vector2d map(const Vector2d& r) const {
        Vector3d x;
        if (triangle) {
            x = (1.0 - r.x() - r.y()) * corners[0] + r.x() * corners[1] + r.y() * corners[2];
        } else {
            const double s = r.x();
            const double t = r.y();
            x = 0.25 * ((1 - s) * (1 - t) * corners[0] + (1 + s) * (1 - t) * corners[1] +
                        (1 + s) * (1 + t) * corners[2] + (1 - s) * (1 + t) * corners[3]);
        }
        return {x.dot(e1), x.dot(e2)};
    }

    [[nodiscard]] bool inside(const Vector2d& p) const {
        for (int i = 0; i < masterCount; ++i) {
            if (cross(master[(i + 1) % masterCount] - master[i], p - master[i]) < 0.0) {
                return false;
            }
        }
        return true;
    }

    // A master corner within 4 cell diameters of the cell: a thin wedge of the master could cross
    // the cell without containing any of its corners.
    [[nodiscard]] bool masterCornerNear(const Vector2d* q, int n) const {
        Vector2d lo = q[0];
        Vector2d hi = q[0];
        for (int i = 1; i < n; ++i) {
            lo = lo.cwiseMin(q[i]);
            hi = hi.cwiseMax(q[i]);
        }
        const double pad = 4.0 * (hi - lo).norm();
        for (int i = 0; i < masterCount; ++i) {
            const Vector2d& m = master[i];
            if (m.x() >= lo.x() - pad && m.x() <= hi.x() + pad && m.y() >= lo.y() - pad &&
                m.y() <= hi.y() + pad) {
                return true;
            }
        }
        return false;
    }

    // A cell given by n = 3 or 4 reference corners (counter-clockwise).
    void cell(const std::array<Vector2d, 4>& r, int n, int depth) {
        Vector2d q[4];
        int in = 0;
        for (int i = 0; i < n; ++i) {
            q[i] = map(r[i]);
            in += inside(q[i]) ? 1 : 0;
        }
        double area = 0.0;
        for (int i = 1; i + 1 < n; ++i) {
            area += 0.5 * cross(q[i] - q[0], q[i + 1] - q[0]);
        }
        area = std::abs(area);
        const bool near = masterCornerNear(q, n);
        if (!near && in == n) {
            result.area += area;
            return;
        }
        if (!near && in == 0) {
            return;
        }
        if (depth == maxDepth) {
            result.area += 0.5 * area;
            result.error += 0.5 * area;
            return;
        }
        if (n == 4) {
            const Vector2d c = 0.25 * (r[0] + r[1] + r[2] + r[3]);
            for (int i = 0; i < 4; ++i) {
                const Vector2d a = 0.5 * (r[i] + r[(i + 3) % 4]);
                const Vector2d b = 0.5 * (r[i] + r[(i + 1) % 4]);
                cell({a, r[i], b, c}, 4, depth + 1);
            }
            return;
        }
        const Vector2d m01 = 0.5 * (r[0] + r[1]);
        const Vector2d m12 = 0.5 * (r[1] + r[2]);
        const Vector2d m20 = 0.5 * (r[2] + r[0]);
        cell({r[0], m01, m20, Vector2d::Zero()}, 3, depth + 1);
        cell({m01, r[1], m12, Vector2d::Zero()}, 3, depth + 1);
        cell({m20, m12, r[2], Vector2d::Zero()}, 3, depth + 1);
        cell({m12, m20, m01, Vector2d::Zero()}, 3, depth + 1);
    }
};

}  // namespace

OracleArea oracleOverlapArea(const SegmentNodes& slave, const SegmentNodes& master,
                             const Eigen::Vector3d& n, int baseCells, int maxDepth) {
    Sampler s;
    s.triangle = isTriangle(slave.type);
    s.maxDepth = maxDepth;
    for (int i = 0; i < cornerCount(slave.type); ++i) {
        s.corners[i] = slave.x[i] - master.x[0];  // near the origin: no round-off from offsets
    }
    s.e1 = n.unitOrthogonal();
    s.e2 = n.cross(s.e1);
    s.masterCount = cornerCount(master.type);
    double twice = 0.0;
    for (int i = 0; i < s.masterCount; ++i) {
        const Vector3d x = master.x[i] - master.x[0];
        s.master[i] = Vector2d(x.dot(s.e1), x.dot(s.e2));
    }
    for (int i = 1; i + 1 < s.masterCount; ++i) {
        twice += cross(s.master[i] - s.master[0], s.master[i + 1] - s.master[0]);
    }
    if (twice < 0.0) {
        std::reverse(s.master.begin(), s.master.begin() + s.masterCount);
    }
    const double h = 1.0 / baseCells;
    for (int i = 0; i < baseCells; ++i) {
        for (int j = 0; j < baseCells; ++j) {
            if (s.triangle) {
                if (i + j < baseCells) {
                    const Vector2d a(i * h, j * h);
                    s.cell({a, a + Vector2d(h, 0), a + Vector2d(0, h), Vector2d::Zero()}, 3, 0);
                }
                if (i + j + 1 < baseCells) {
                    const Vector2d a((i + 1) * h, (j + 1) * h);
                    s.cell({a, a - Vector2d(h, 0), a - Vector2d(0, h), Vector2d::Zero()}, 3, 0);
                }
            } else {
                const Vector2d a(-1 + 2 * i * h, -1 + 2 * j * h);
                const Vector2d d(2 * h, 2 * h);
                s.cell({a, a + Vector2d(d.x(), 0), a + d, a + Vector2d(0, d.y())}, 4, 0);
            }
        }
    }
    return s.result;
}

namespace {

struct KeptSampler {
    const std::function<double(const Vector2d&)>& g;
    double level = 0.0;
    int maxDepth = 0;
    OracleArea result;

    void visit(const Vector2d& a, const Vector2d& b, const Vector2d& c, double ga, double gb,
               double gc, int depth) {
        const double area = 0.5 * std::abs(cross(b - a, c - a));
        const Vector2d ab = 0.5 * (a + b);
        const Vector2d bc = 0.5 * (b + c);
        const Vector2d ca = 0.5 * (c + a);
        const double gab = g(ab);
        const double gbc = g(bc);
        const double gca = g(ca);
        const double bend =
            std::max({std::abs(gab - 0.5 * (ga + gb)), std::abs(gbc - 0.5 * (gb + gc)),
                      std::abs(gca - 0.5 * (gc + ga))});
        const double lo = std::min({ga, gb, gc, gab, gbc, gca}) - bend;
        const double hi = std::max({ga, gb, gc, gab, gbc, gca}) + bend;
        if (hi <= level) {
            result.area += area;
            return;
        }
        if (lo > level) {
            return;
        }
        if (depth == maxDepth) {
            result.area += 0.5 * area;
            result.error += 0.5 * area;
            return;
        }
        visit(a, ab, ca, ga, gab, gca, depth + 1);
        visit(ab, b, bc, gab, gb, gbc, depth + 1);
        visit(ca, bc, c, gca, gbc, gc, depth + 1);
        visit(ab, bc, ca, gab, gbc, gca, depth + 1);
    }
};

}  // namespace

OracleArea oracleKeptArea(const std::vector<Vector2d>& polygon,
                          const std::function<double(const Vector2d&)>& g, double level,
                          int maxDepth) {
    KeptSampler s{g, level, maxDepth, {}};
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
        s.visit(polygon[0], polygon[i], polygon[i + 1], g(polygon[0]), g(polygon[i]),
                g(polygon[i + 1]), 0);
    }
    return s.result;
}

}  // namespace contact::testing
