// SPDX-License-Identifier: MIT
// Seeded random geometry shared by the tests and the benchmarks.
#pragma once

#include "contact/types.hpp"

#include <Eigen/Core>

#include <ostream>
#include <random>

namespace contact::testing {

/// Shape of a random segment: size of the reference layout, out-of-plane warp of Quad4 corners,
/// and displacement of quadratic midside nodes, both as fractions of the size.
struct RandomSegmentOptions {
    double size = 1.0;
    double warp = 0.15;       ///< Quad4 only: corners moved out of plane by up to warp * size
    double curvature = 0.15;  ///< quadratic only: midside (and centre) nodes moved by up to this
    double offset = 5.0;      ///< centre placed uniformly in [-offset, offset]^dim
};

/// Uniform rotation (2D problems: about z only when planar is true).
[[nodiscard]] Eigen::Matrix3d randomRotation(std::mt19937& rng, bool planar = false);

/// A valid random segment of the given type: drawn again until no part of it is folded or collapsed
/// (the normal keeps one side over a 7x7 sample of the domain). Lines lie in the
/// x-y plane (z = 0).
[[nodiscard]] SegmentNodes randomSegment(SegmentType type, std::mt19937& rng,
                                         const RandomSegmentOptions& opt = {});

/// Uniform random point of the closed reference domain of `type`.
[[nodiscard]] Eigen::Vector2d randomLocalPoint(SegmentType type, std::mt19937& rng);

/// Rigid motion x -> R x + t applied to every node.
[[nodiscard]] SegmentNodes transformed(const SegmentNodes& s, const Eigen::Matrix3d& R,
                                       const Eigen::Vector3d& t);

/// Uniform double in [lo, hi).
[[nodiscard]] double uniform(std::mt19937& rng, double lo, double hi);

/// Uniform random unit vector (in the x-y plane when planar).
[[nodiscard]] Eigen::Vector3d randomUnitVector(std::mt19937& rng, bool planar = false);

}  // namespace contact::testing

namespace contact {
/// Readable segment types in GoogleTest messages.
inline void PrintTo(SegmentType t, std::ostream* os) { *os << segmentTypeName(t); }
}  // namespace contact
