// SPDX-License-Identifier: MIT
// Plain geometric aggregates shared by every stage of the contact search.
#pragma once

#include "contact/export.hpp"

#include <Eigen/Core>

#include <array>
#include <cstdint>

/// Public structs and references hold Eigen::Vector2d, whose alignment Eigen's settings decide:
/// a program built with other ones (EIGEN_DONT_VECTORIZE, EIGEN_DONT_ALIGN,
/// EIGEN_MAX_STATIC_ALIGN_BYTES) would read the library's structs at other offsets. -mavx and
/// -march=native keep it (README, "Vector flags").
#define CONTACT_STRINGIFY_(x) #x
#define CONTACT_STRINGIFY(x) CONTACT_STRINGIFY_(x)
static_assert(alignof(Eigen::Vector2d) == CONTACT_EIGEN_VECTOR2D_ALIGN,
              "contact: this program's Eigen settings (EIGEN_DONT_VECTORIZE, EIGEN_DONT_ALIGN, "
              "EIGEN_MAX_STATIC_ALIGN_BYTES) give Eigen::Vector2d another alignment than the "
              "library's build, where it is " CONTACT_STRINGIFY(
                  CONTACT_EIGEN_VECTOR2D_ALIGN) ": "
                                                "build the library with the same Eigen settings");
#undef CONTACT_STRINGIFY
#undef CONTACT_STRINGIFY_

namespace contact {

/// Index of a node, segment or pair. 32 bits halve index memory at millions of segments;
/// sizes are checked once, at registration.
using Index = std::int32_t;
inline constexpr Index kNoIndex = -1;

/// Surface segment types. Node order gives a right-hand normal pointing out of the solid.
/// 2D lines lie in the x-y plane; their normal is the tangent rotated clockwise.
enum class SegmentType : std::uint8_t {
    Line2,  ///< 2 end nodes, xi in [-1, 1]
    Line3,  ///< 2 end nodes, then the midside node
    Tri3,   ///< 3 corners, area coordinates xi, eta >= 0, xi + eta <= 1
    Tri6,   ///< 3 corners, then midsides 1-2, 2-3, 3-1
    Quad4,  ///< 4 corners counter-clockwise seen from outside, xi, eta in [-1, 1]
    Quad8,  ///< 4 corners, then midsides 1-2, 2-3, 3-4, 4-1 (serendipity)
    Quad9,  ///< as Quad8, then the centre node (Lagrange)
};

/// Largest node count of any segment type.
inline constexpr int kMaxSegmentNodes = 9;

/// Most worker threads the search, the mortar integrator and the overlaps accept: more than a
/// process can use; a larger count (a typo, an unset variable) would make OpenMP fail to start
/// its threads and end the process.
inline constexpr int kMaxThreads = 1024;

/// Number of nodes of a segment type.
[[nodiscard]] constexpr int nodeCount(SegmentType t) noexcept {
    switch (t) {
    case SegmentType::Line2: return 2;
    case SegmentType::Line3: return 3;
    case SegmentType::Tri3: return 3;
    case SegmentType::Tri6: return 6;
    case SegmentType::Quad4: return 4;
    case SegmentType::Quad8: return 8;
    case SegmentType::Quad9: return 9;
    }
    return 0;
}

/// Number of corner (vertex) nodes; corners always come first in the node list.
[[nodiscard]] constexpr int cornerCount(SegmentType t) noexcept {
    switch (t) {
    case SegmentType::Line2:
    case SegmentType::Line3: return 2;
    case SegmentType::Tri3:
    case SegmentType::Tri6: return 3;
    case SegmentType::Quad4:
    case SegmentType::Quad8:
    case SegmentType::Quad9: return 4;
    }
    return 0;
}

/// Parametric dimension: 1 for lines (2D problems), 2 for faces (3D problems).
[[nodiscard]] constexpr int parametricDim(SegmentType t) noexcept {
    return (t == SegmentType::Line2 || t == SegmentType::Line3) ? 1 : 2;
}

/// Spatial dimension of the problem a segment type belongs to (2 or 3).
[[nodiscard]] constexpr int spatialDim(SegmentType t) noexcept { return parametricDim(t) + 1; }

/// True for triangles (area coordinates), false for lines and quads ([-1, 1] coordinates).
[[nodiscard]] constexpr bool isTriangle(SegmentType t) noexcept {
    return t == SegmentType::Tri3 || t == SegmentType::Tri6;
}

/// True for segments whose geometry is quadratic (curved).
[[nodiscard]] constexpr bool isQuadratic(SegmentType t) noexcept {
    return t == SegmentType::Line3 || t == SegmentType::Tri6 || t == SegmentType::Quad8 ||
           t == SegmentType::Quad9;
}

/// True for the values of SegmentType (false for another value cast to it).
[[nodiscard]] constexpr bool isSegmentType(SegmentType t) noexcept {
    return static_cast<int>(t) >= static_cast<int>(SegmentType::Line2) &&
           static_cast<int>(t) <= static_cast<int>(SegmentType::Quad9);
}

/// Readable name, as in the tables of docs/design.md.
[[nodiscard]] constexpr const char* segmentTypeName(SegmentType t) noexcept {
    switch (t) {
    case SegmentType::Line2: return "Line2";
    case SegmentType::Line3: return "Line3";
    case SegmentType::Tri3: return "Tri3";
    case SegmentType::Tri6: return "Tri6";
    case SegmentType::Quad4: return "Quad4";
    case SegmentType::Quad8: return "Quad8";
    case SegmentType::Quad9: return "Quad9";
    }
    return "?";
}

inline constexpr std::array<SegmentType, 7> kAllSegmentTypes = {
    SegmentType::Line2, SegmentType::Line3, SegmentType::Tri3,  SegmentType::Tri6,
    SegmentType::Quad4, SegmentType::Quad8, SegmentType::Quad9,
};

/// Node coordinates of one segment, gathered from the solver's array for a kernel call.
/// 2D segments have z = 0. Fixed capacity: no allocation per segment. Unused entries are zero
/// (Eigen leaves vectors uninitialized otherwise, and copies would read them).
struct SegmentNodes {
    SegmentType type = SegmentType::Line2;
    std::array<Eigen::Vector3d, kMaxSegmentNodes> x = zeroNodes();  ///< first nodeCount(type) used

    [[nodiscard]] static std::array<Eigen::Vector3d, kMaxSegmentNodes> zeroNodes() noexcept {
        std::array<Eigen::Vector3d, kMaxSegmentNodes> z;
        z.fill(Eigen::Vector3d::Zero());
        return z;
    }
};

/// Axis-aligned box in D dimensions (closed: touching boxes overlap).
template <int D>
struct Aabb {
    using Vec = Eigen::Matrix<double, D, 1>;
    Vec lo = Vec::Zero();  ///< lower corner
    Vec hi = Vec::Zero();  ///< upper corner
};
using Aabb2 = Aabb<2>;
using Aabb3 = Aabb<3>;

/// True when two closed boxes share a point.
template <int D>
[[nodiscard]] inline bool overlaps(const Aabb<D>& a, const Aabb<D>& b) noexcept {
    for (int k = 0; k < D; ++k) {
        if (a.lo[k] > b.hi[k] || b.lo[k] > a.hi[k]) {
            return false;
        }
    }
    return true;
}

/// Eigen matrices of public structs, for a program built with other vector flags than the
/// library (README, "Vector flags"). An Eigen::Matrix2d is 16-byte aligned in a build for the
/// x86-64 baseline and 32-byte aligned with -mavx, so a struct holding one would have two layouts;
/// Vector2d (16 bytes), Vector3d and Matrix3d have one alignment under every flag.
using Matrix2dUnaligned = Eigen::Matrix<double, 2, 2, Eigen::DontAlign>;
/// Eigen allocates a Matrix3Xd with malloc in a baseline build and with its own aligned allocator
/// under -mavx, so one side cannot free what the other allocated; unaligned, it takes malloc and
/// free under every flag.
using Matrix3XdUnaligned = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::DontAlign>;

/// Oriented rectangle in 2D.
struct Obb2 {
    Eigen::Vector2d center = Eigen::Vector2d::Zero();
    Matrix2dUnaligned axes = Matrix2dUnaligned::Identity();  ///< columns: unit box axes
    Eigen::Vector2d halfExtent = Eigen::Vector2d::Zero();    ///< half sizes along the axes (>= 0)
};
static_assert(sizeof(Obb2) == 64, "Obb2 has one layout under every vector flag");

/// Oriented box in 3D.
struct Obb3 {
    Eigen::Vector3d center = Eigen::Vector3d::Zero();
    Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();    ///< columns: unit box axes
    Eigen::Vector3d halfExtent = Eigen::Vector3d::Zero();  ///< half sizes along the axes (>= 0)
};

}  // namespace contact
