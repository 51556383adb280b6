// SPDX-License-Identifier: MIT
// Every private numeric margin of the search and of the projection kernel, named once: what it
// bounds, its unit, and which way it errs. The public tolerances (what a caller may tune or must
// know) are in contact/tolerances.hpp. Internal; never installed.
//
// Direction of bias: the margins of bounding volumes and of the broad phase err toward "overlap"
// (a margin too large adds a candidate, which the exact tests then drop; one too small could lose
// a pair, so each sits far above the rounding it covers). The projection's margins err toward the
// slower, safer path (more Newton steps, the multi-start search), never toward a wrong minimum.
#pragma once

#include "contact/tolerances.hpp"

namespace contact::detail {

// --- Bounding volumes and broad phase (bias: toward overlap) -----------------------------------

/// Rounding pad of every buffered volume, in ulps (multiples of tol::kEps) of the box's largest
/// |coordinate| + buffer: covers the rounding of the Bezier hull and of the grown ends (a few ulps
/// each), so a point at exactly the capture distance stays inside its box.
inline constexpr double kRoundingPadUlps = 64.0;

/// kd-tree query: the radius r_q + R_c is padded by kKdQueryPadUlps ulps of the coordinates in
/// play (centres and half-diagonals carry a few ulps each) and scaled by 1 + kKdRadiusRel (the
/// rounding of the sum and of the squared radius, a few ulps of r).
inline constexpr double kKdQueryPadUlps = 64.0;
inline constexpr double kKdRadiusRel = 1e-9;

/// Segment mode: the bound of |float box ends| grows the largest |box end| + skin / 2 by this
/// fraction (dimensionless), far above the float rounding of an end (2^-24 of it), so the bound
/// holds for every float box until the next rebuild (detail::boxMargin uses it).
inline constexpr double kBoxScaleGrowth = 0x1p-20;

/// floatBoxVerdict's margin, per unit of the largest |float box end| (kBoxMarginRel) plus an
/// absolute floor in length units (kBoxMarginFloor, the spacing of floats below the normal range
/// is 2^-149): two ends rounded to float moved by less than 2^-22 of that scale, doubled for the
/// rounding of their difference. Too small: a float verdict "sure" where the doubles disagree.
inline constexpr double kBoxMarginRel = 0x1p-21;
inline constexpr double kBoxMarginFloor = 0x1p-140;

/// Node mode's slave fat box: ref -+ (skin / 2 + |p - ref| + 2 margin), margin = kNodeFatMargin
/// times the largest value in play (|ref|, skin / 2, |p - ref|), dimensionless; above every double
/// rounding there (2^-53 of it), so the box holds every point within skin / 2 of the node.
inline constexpr double kNodeFatMargin = 0x1p-50;

/// Sweep axis choice: the score spread / mean width gets spread * kSweepWidthFloor added to the
/// width, so zero-width boxes (points) give a finite score. Dimensionless; any tiny value works.
inline constexpr double kSweepWidthFloor = 1e-30;

// --- Projection (bias: toward the safe path) ---------------------------------------------------

/// Step, in reference units, toward the domain centre that looks for a normal next to a point
/// where the segment has none (a collapsed edge or corner). Small against the domain (1 or 2),
/// large against the rounding of xi (1e-16).
inline constexpr double kNormalNudge = 1e-7;
/// Armijo constant (dimensionless): a line-search step must achieve this fraction of the decrease
/// the gradient predicts. Smaller accepts longer steps; the value is the textbook one.
inline constexpr double kArmijo = 1e-4;
/// Halvings of a line search before it gives up (no decrease left above round-off): 2^-60 of a
/// step is below the rounding of xi.
inline constexpr int kMaxBacktracks = 60;
/// A symmetric 2x2 H counts as positive definite when H00, H11 > 0 and det H > kPdMargin H00 H11
/// (1D: t.H.t > kPdMargin t.G.t); dimensionless. Far above the rounding of det (a few eps), far
/// below any real curvature; too large sends convex cases to the shifted (slower) step.
inline constexpr double kPdMargin = 1e-12;
/// Where the Hessian H of the projection's distance is not positive definite, its Newton steps take
/// H with each eigenvalue replaced by max(|lambda|, floor); floor = kLevenbergShift times
/// trace(J^T J) plus the size of H's eigenvalues: far above their rounding (a few eps of that
/// size), so the modified matrix is invertible, far below any real curvature.
inline constexpr double kLevenbergShift = 1e-10;
/// Rounding error of g = J^T r and of f differences, in ulps of the quantities involved: a change
/// below it is noise, and the iteration stops there instead of chasing it.
inline constexpr double kNoiseUlps = 16.0;
/// A domain constraint with slack below this (reference units) is tight. Iterates are snapped
/// exactly onto the constraints they hit, so this only absorbs the rounding of xi + eta.
inline constexpr double kTightSlack = 1e-14;
/// SearchOptions::warmStart: the margin, relative to a master's box size, by which a distance of
/// the warm path may differ from the cold path's (closestXi). Both are the one minimum the
/// certificate proves, to the Newton tolerance of 1e-13 in xi, so they differ by about 1e-13 of
/// the segment's size or less; 1e-9 is 10^4 above that. Candidates whose distances lie within it
/// of the closest, or a closest within it of the capture distance, are decided by the cold path,
/// so the pairs are a fresh search's. Too small could change a pair; too large only costs time.
inline constexpr double kWarmTieRel = 1e-9;
/// SearchOptions::warmStart: a closest point whose distance from the domain's boundary lies within
/// this (reference units) of tol::kOnBoundaryTol is found again by the cold path, whose xi decides
/// the status (kConverged or kOnBoundary). 100 times the 1e-13 a warm xi may differ by. Below the
/// threshold the band ends at half of it (kStatusEdgeLow), 5 times that 1e-13: a closest point
/// snapped onto the boundary (slack 0, the usual boundary case) keeps its warm status.
inline constexpr double kStatusEdge = 1e-11;
inline constexpr double kStatusEdgeLow = 0.5 * tol::kOnBoundaryTol;
/// Relative margin of the single-minimum certificate over the rounding of its bounds (a few ulps
/// of the node coordinates); dimensionless. Too small could certify a segment with two minima.
inline constexpr double kCertificateMargin = 1e-8;

}  // namespace contact::detail
