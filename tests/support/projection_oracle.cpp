// SPDX-License-Identifier: MIT
#include "projection_oracle.hpp"

#include "contact/segment.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace contact::testing {
namespace {

// Closest point of the triangle xi, eta >= 0, xi + eta <= 1 (in the parameter plane) to xi.
Eigen::Vector2d intoTriangle(const Eigen::Vector2d& xi) {
    if (xi[0] >= 0.0 && xi[1] >= 0.0 && xi[0] + xi[1] <= 1.0) {
        return xi;
    }
    const Eigen::Vector2d corners[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
    Eigen::Vector2d best = corners[0];
    double bestSq = (xi - best).squaredNorm();
    for (int e = 0; e < 3; ++e) {
        const Eigen::Vector2d a = corners[e];
        const Eigen::Vector2d d = corners[(e + 1) % 3] - a;
        const double t = std::clamp((xi - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
        Eigen::Vector2d c = a + t * d;
        if (e == 1) {
            c[1] = 1.0 - c[0];  // exactly on the hypotenuse
        }
        if ((xi - c).squaredNorm() < bestSq) {
            bestSq = (xi - c).squaredNorm();
            best = c;
        }
    }
    return best;
}

// Nearest point of the closed reference domain.
Eigen::Vector2d intoDomain(SegmentType type, const Eigen::Vector2d& xi) {
    if (parametricDim(type) == 1) {
        return {std::clamp(xi[0], -1.0, 1.0), 0.0};
    }
    if (isTriangle(type)) {
        return intoTriangle(xi);
    }
    return {std::clamp(xi[0], -1.0, 1.0), std::clamp(xi[1], -1.0, 1.0)};
}

}  // namespace

OracleProjection oracleClosestPoint(const SegmentNodes& s, const Eigen::Vector3d& p) {
    // Work relative to node 0 so that segments far from the origin keep their precision.
    SegmentNodes local = s;
    for (int i = 0; i < nodeCount(s.type); ++i) {
        local.x[i] = s.x[i] - s.x[0];
    }
    const Eigen::Vector3d q = p - s.x[0];
    const auto distSq = [&](const Eigen::Vector2d& xi) {
        return (position(local, xi) - q).squaredNorm();
    };

    // Dense sampling of the whole domain on an (n + 1) x (m + 1) index grid.
    const bool line = parametricDim(s.type) == 1;
    const bool triangle = isTriangle(s.type);
    const int n = line ? 2000 : 60;
    const int m = line ? 0 : n;
    const double h0 = (triangle ? 1.0 : 2.0) / n;
    const double lo = triangle ? 0.0 : -1.0;
    const auto valid = [&](int i, int j) {
        return i >= 0 && j >= 0 && i <= n && j <= m && (!triangle || i + j <= n);
    };
    const auto at = [&](int i, int j) {
        return Eigen::Vector2d(lo + h0 * i, line ? 0.0 : lo + h0 * j);
    };
    std::vector<double> grid((n + 1) * (m + 1), 0.0);
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= m; ++j) {
            if (valid(i, j)) {
                grid[i * (m + 1) + j] = distSq(at(i, j));
            }
        }
    }

    // Candidates: every discrete local minimum of the grid (no neighbour, diagonals included, is
    // closer), and every local minimum of the samples along an edge, which a slightly lower
    // interior basin next to it can hide. The best sample may sit in a basin whose minimum is not
    // the lowest.
    const auto closer = [&](int i, int j, int di, int dj) {
        return valid(i + di, j + dj) && grid[(i + di) * (m + 1) + j + dj] < grid[i * (m + 1) + j];
    };
    std::vector<std::pair<double, Eigen::Vector2d>> candidates;
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= m; ++j) {
            if (!valid(i, j)) {
                continue;
            }
            bool localMin = true;
            for (int di = -1; di <= 1; ++di) {
                for (int dj = -1; dj <= 1; ++dj) {
                    localMin = localMin && !closer(i, j, di, dj);
                }
            }
            if (!line) {
                const bool etaEdge = j == 0 || (!triangle && j == m);
                const bool xiEdge = i == 0 || (!triangle && i == n);
                const bool hypotenuse = triangle && i + j == n;
                localMin = localMin || (etaEdge && !closer(i, j, -1, 0) && !closer(i, j, 1, 0)) ||
                           (xiEdge && !closer(i, j, 0, -1) && !closer(i, j, 0, 1)) ||
                           (hypotenuse && !closer(i, j, -1, 1) && !closer(i, j, 1, -1));
            }
            if (localMin) {
                candidates.emplace_back(grid[i * (m + 1) + j], at(i, j));
            }
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    candidates.resize(std::min<std::size_t>(candidates.size(), 16));

    // Zoom around each candidate: a 7 x 7 grid of spacing h (h0 / 3 at first), shrinking 3x per
    // round, but re-centred without shrinking when the best point moved to the window's rim (the
    // minimum may lie outside the window, e.g. along a curved valley or an edge).
    Eigen::Vector2d best = candidates.front().second;
    double bestSq = candidates.front().first;
    for (const auto& [dSq0, xi0] : candidates) {
        Eigen::Vector2d c = xi0;
        double cSq = dSq0;
        double h = h0 / 3.0;  // window +-h0: stays in the candidate's basin, not a neighbour's
        int recentres = 0;
        constexpr int kHalf = 3;
        while (h > 1e-13) {
            const Eigen::Vector2d centre = c;
            bool onRim = false;  // the best point moved to the window's rim
            for (int i = -kHalf; i <= kHalf; ++i) {
                for (int j = line ? 0 : -kHalf; j <= (line ? 0 : kHalf); ++j) {
                    const Eigen::Vector2d xi =
                        intoDomain(s.type, centre + h * Eigen::Vector2d(i, j));
                    const double dSq = distSq(xi);
                    if (dSq < cSq) {
                        cSq = dSq;
                        c = xi;
                        onRim = std::abs(i) == kHalf || std::abs(j) == kHalf;
                    }
                }
            }
            if (onRim && recentres < 1000) {
                ++recentres;
            } else {
                h /= 3.0;
            }
        }
        if (cSq < bestSq) {
            bestSq = cSq;
            best = c;
        }
    }

    OracleProjection out;
    out.xi = best;
    out.point = s.x[0] + position(local, best);
    out.distance = (position(local, best) - q).norm();
    return out;
}

}  // namespace contact::testing
