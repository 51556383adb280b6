// SPDX-License-Identifier: MIT
// Structured contact surfaces for tests and benchmarks: patches and curves mapped by a function.
#pragma once

#include "contact/surface.hpp"

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace contact::testing {

/// Node coordinates shared by all surfaces of a test model.
struct Mesh {
    std::vector<Eigen::Vector3d> nodes;

    [[nodiscard]] Eigen::Matrix3Xd coords3() const;
    [[nodiscard]] Eigen::Matrix2Xd coords2() const;  ///< x, y only
    Index add(const Eigen::Vector3d& p);
};

using PatchMap = std::function<Eigen::Vector3d(double u, double v)>;

/// Adds a surface of nx x ny cells over (u, v) in [0, 1]^2 mapped by `map`. Quads are ordered
/// counter-clockwise in (u, v), so the normal is along dx/du x dx/dv (reversed when flip).
/// Triangle types split each cell in two; `mixed` alternates Quad4 cells and Tri3 pairs.
Surface addPatch(Mesh& mesh, SegmentType type, int nx, int ny, const PatchMap& map, bool flip,
                 const std::string& name, bool mixed = false);

/// Adds a 2D curve of n Line2/Line3 segments over u in [0, 1] mapped by `map` (z ignored), ordered
/// along increasing u: the normal is the tangent rotated clockwise (reversed when flip).
Surface addCurve(Mesh& mesh, SegmentType type, int n,
                 const std::function<Eigen::Vector2d(double)>& map, bool flip,
                 const std::string& name);

/// Grading u -> (r^u - 1) / (r - 1): element sizes vary by about r along u (r = 1: identity).
[[nodiscard]] double graded(double u, double r);

}  // namespace contact::testing
