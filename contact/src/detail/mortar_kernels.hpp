// SPDX-License-Identifier: MIT
// The mortar integrals of one (slave, master) segment pair, accumulated into the sums of the slave
// segment (MortarIntegrator in mortar.cpp drives them). Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include "detail/warm_projection.hpp"

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace contact::detail {

/// Fan triangles of a pair whose gap is not affine (a quadratic or a warped face) whose vertex
/// gaps come within the faces' slack of the capture are split in four, at most this many times,
/// until the sliver between the chord that cuts a piece and the curve gap = capture is known to
/// within kMortarCutTolerance L times the chord's length (MortarIntegrator, "Capture cut";
/// L = the slave's characteristicSize). 12 levels: pieces of 1/4096 of the fan triangle.
inline constexpr int kMortarCutLevels = 12;
/// The sliver's area may be off by this (relative to L) times the length of the cut. 2D: the
/// pieces of a curved line pair are halved down to this (relative to L) at most.
inline constexpr double kMortarCutTolerance = 1e-7;
/// Pieces one fan triangle (2D: one line pair) may take in the capture cut (every piece looked at
/// counts, split or not): the work of a pair is bounded. Pieces cut past it, or past
/// kMortarCutLevels, without meeting kMortarCutTolerance are counted (MortarStats::cutFallbacks);
/// each is off by at most its area (2D: its length).
inline constexpr int kMortarCutPieces = 1024;

/// A slave face counts as flat (its gap with a flat master is affine over the overlap) when every
/// node lies within kMortarFlatRel L of its tangent plane at the centre (L = characteristicSize).
/// 1e-12: far below any warp a mesh has on purpose, far above the rounding of the plane.
inline constexpr double kMortarFlatRel = 1e-12;

/// Sums over the integrated part of one slave segment (standard basis).
struct MortarSums {
    int ns = 0;  ///< slave nodes
    /// int N_a N_b, row-major ns x ns (the upper triangle while accumulating; finishSums mirrors)
    std::array<double, std::size_t{kMaxSegmentNodes} * kMaxSegmentNodes> D{};
    std::array<double, kMaxSegmentNodes> g{};     ///< int N_a gap
    std::array<double, kMaxSegmentNodes> area{};  ///< int N_a
    long long points = 0;                         ///< quadrature points
    long long cutFallbacks = 0;  ///< cut pieces taken at the cut's limits, tolerance not met
};

/// One pair's int N_a N^_c, a < ns, c < nm, at [a * kMaxSegmentNodes + c].
struct MortarBlock {
    int nm = 0;
    std::array<double, std::size_t{kMaxSegmentNodes} * kMaxSegmentNodes>
        M;  // zeroed per pair, where used
};

/// What became of a pair.
enum class PairOutcome : std::uint8_t {
    kIntegrated,     ///< some overlap within the capture distance was integrated
    kNoOverlap,      ///< the faces do not overlap in the slave's plane
    kBeyondCapture,  ///< they overlap, with every gap above the capture distance
    kNotFacing,      ///< n_s . n_m >= 0 at the centres
    kDegenerate,     ///< a master edge-on to the slave plane, a non-convex projection, or no
                     ///< convergence: left out
};

/// A face (or line) seen from a slave segment's plane: nodes in plane coordinates, their heights
/// along the plane normal and their positions relative to the plane origin.
struct PlaneFace {
    SegmentType type = SegmentType::Quad4;
    int nn = 0;  ///< nodes
    int nc = 0;  ///< corners
    // Scratch filled per pair (no zeroing: a pair fills the first nn entries).
    std::array<Eigen::Vector2d, kMaxSegmentNodes> p;
    std::array<double, kMaxSegmentNodes> h;
    std::array<Eigen::Vector3d, kMaxSegmentNodes> x;
    double hmin = 0.0;  ///< smallest and largest node height
    double hmax = 0.0;
    /// Flat (lines: straight): a plane face, so that heights over the plane are affine in p.
    bool flat = false;
    /// Tri3, and Quad4 whose projection is a parallelogram (to kMortarFlatRel): local coordinates
    /// affine in the plane coordinates.
    bool affine = false;
    /// Flat faces: n_plane . (the face's outward unit normal).
    double cosine = 0.0;
    /// Tri3 and Quad4: p(xi, eta) = a0 + a1 xi + a2 eta + a3 xi eta (a3 = 0 for Tri3).
    Eigen::Vector2d a0 = Eigen::Vector2d::Zero();
    Eigen::Vector2d a1 = Eigen::Vector2d::Zero();
    Eigen::Vector2d a2 = Eigen::Vector2d::Zero();
    Eigen::Vector2d a3 = Eigen::Vector2d::Zero();
    double k2 = 0.0;  ///< a1 x a2 (2D cross), a1 x a3: terms of the inverse map
    double k12 = 0.0;
    /// Tri3 and Quad4: height h = hc0 + hc1 xi + hc2 eta + hc3 xi eta; dx/dxi x dx/deta =
    /// v0 + xi v1 + eta v2 (exact for bilinear faces), so n_plane . (it) = nc0 + nc1 xi + nc2 eta
    /// and |it|^2 = q00 + q01 xi + q02 eta + q11 xi^2 + q12 xi eta + q22 eta^2.
    std::array<double, 4> hc{};
    std::array<double, 3> nc3{};
    std::array<double, 6> q{};
    /// hasNodalMonomials types: (p, h) as a polynomial in (xi, eta) (monomialForm), for the inverse
    /// map and the normal without shape functions.
    Monomials mono;
    /// Largest distance of the face from an affine map of its local coordinates (twist of the
    /// corners plus the curvature bound of clipping.hpp's flatApproximationBound): how far the
    /// gap may stray from linear over the overlap.
    double slack = 0.0;
};

/// A slave segment prepared for its pairs: its plane (the tangent plane at the reference centre;
/// in 2D the tangent line) and its nodes in plane coordinates.
struct MortarSlave {
    SegmentNodes nodes;
    int dim = 3;
    Eigen::Vector3d origin = Eigen::Vector3d::Zero();  ///< x_s(centre)
    Eigen::Vector3d n = Eigen::Vector3d::Zero();       ///< outward unit normal at the centre
    Eigen::Vector3d e1 = Eigen::Vector3d::Zero();      ///< in-plane axes, e1 x e2 = n (2D: e1 = t)
    Eigen::Vector3d e2 = Eigen::Vector3d::Zero();
    double L = 0.0;  ///< characteristicSize
    PlaneFace face;
    /// Unit normals of the corner polygon's edges, pointing inside (edge e from corner e to e + 1).
    std::array<Eigen::Vector2d, 4> edgeNormal{};
    Eigen::Vector2d lo = Eigen::Vector2d::Zero();  ///< box of the corners in the plane
    Eigen::Vector2d hi = Eigen::Vector2d::Zero();
    /// For boxApart: |e1|, |e2| by component and |origin|_1.
    Eigen::Vector3d e1Abs = Eigen::Vector3d::Zero();
    Eigen::Vector3d e2Abs = Eigen::Vector3d::Zero();
    double originSize = 0.0;
};

/// Prepares a slave segment; false when it is degenerate (no normal at the centre, a corner
/// polygon that is not convex and counter-clockwise about n).
[[nodiscard]] bool prepareSlave(const SegmentNodes& slave, MortarSlave& out) noexcept;

/// Box of a master segment (segmentAabb, unbuffered): what boxApart needs of it.
struct MortarMasterBox {
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    Eigen::Vector3d half = Eigen::Vector3d::Zero();  ///< half-sides
    double size = 0.0;                               ///< |centre|_1 + |half|_1
};

/// The box of a 3D master segment.
[[nodiscard]] MortarMasterBox masterBox(const SegmentNodes& master) noexcept;

/// Whether a master segment within `box` is apart from the 3D slave in the slave's plane by more
/// than integratePair's quick rejection tolerates, so that integratePair would find no overlap:
/// the box's shadow on each in-plane axis against the slave's corner box, with a margin for the
/// rounding of both. Only ever true where integratePair's own test rejects the pair, so that it
/// can be skipped before its nodes are gathered.
[[nodiscard]] bool boxApart(const MortarSlave& slave, const MortarMasterBox& box) noexcept;

/// Integrates one pair into `sums` (the slave segment's) and `block` (this pair's M, reset here).
/// 2D: Line2 / Line3; 3D: Tri3 / Quad4 by closed-form inverse maps, quadratic faces through
/// clipSegments3d. `degree`: of the quadrature (mortarQuadratureDegree). Never throws, never
/// allocates.
[[nodiscard]] PairOutcome integratePair(const MortarSlave& slave, const SegmentNodes& master,
                                        double capture, int degree, MortarSums& sums,
                                        MortarBlock& block) noexcept;

/// The same for 3D faces of any type through the public clipping kernels alone
/// (clipSegments3d for the overlap polygon, then the quadrature and cut of integratePair): the
/// path of quadratic faces, and the twin the closed-form path of Tri3 / Quad4 is tested against.
[[nodiscard]] PairOutcome integratePairByClipping(const MortarSlave& slave,
                                                  const SegmentNodes& master, double capture,
                                                  int degree, MortarSums& sums,
                                                  MortarBlock& block) noexcept;

/// Whether a Quad4 slave and master's points take their AVX2 layout where it is built in and
/// the processor has AVX2 (the default): off, the baseline's layout everywhere, which gives the
/// same bits. For the tests that compare the two. Returns whether the AVX2 layout ran before.
bool setWideKernels(bool on) noexcept;

/// The capture cut's pieces per fan triangle, kMortarCutPieces unless set: for the tests that
/// compare the bounded cut with a finer one. Returns the count before.
int setMortarCutPieces(int pieces) noexcept;

/// Whether the AVX2 layout runs: built in (x86-64 Linux), the processor has AVX2, and not off.
[[nodiscard]] bool wideKernelsRun() noexcept;

/// Mirrors the upper triangle of sums.D into the lower one (after the last pair).
void finishSums(MortarSums& sums) noexcept;

/// int N_a N_b and int N_a over the whole slave segment (exact Gauss rule on the reference
/// domain, the true surface measure): the Gram matrix of Wohlmuth's dual basis on a segment.
void segmentGram(const SegmentNodes& slave, MortarSums& out) noexcept;

}  // namespace contact::detail
