// SPDX-License-Identifier: MIT
// Every public tolerance of the geometric kernels, named once, with its unit, what it bounds and
// which way it errs. All are relative (they multiply a length of the problem, so models in mm, m
// or km behave alike) except kMaxCoordinate. The search's private margins (rounding pads of its
// boxes, the projection's step controls) are in contact/src/detail/margins.hpp.
#pragma once

#include <limits>

namespace contact::tol {

/// Machine epsilon of double (2.2e-16).
inline constexpr double kEps = std::numeric_limits<double>::epsilon();

// --- Separating-axis test (sat.hpp) ------------------------------------------------------------

/// A separation must exceed kSatRoundoff * (|T| + sum of half extents) before an axis is said to
/// separate (dimensionless; T the centre offset). About 64 ulps: above the rounding of the centre
/// difference and of the projections (a few ulps each), far below 1e-13 of the box scale. Errs
/// toward "overlap", so rounding can only add a candidate, never lose a contact.
inline constexpr double kSatRoundoff = 64.0 * kEps;

/// Axis choice (Box2D-Lite style hysteresis): a later axis group (faces of B, then edge pairs)
/// replaces the current least-penetration axis only if its depth is below
/// kSatRelativeTol * depth - kSatAbsoluteTol * scale, so nearly equal axes do not flicker between
/// calls. scale = the smaller of the two boxes' largest half extents. Affects only which axis is
/// reported, never the verdict.
inline constexpr double kSatRelativeTol = 0.95;
inline constexpr double kSatAbsoluteTol = 0.01;

/// Edge-pair axes whose cross product is shorter than this (sine of the edge angle) still take
/// part in the verdict, but are not chosen as the least-penetration axis: their direction is
/// ill-conditioned (the parallel-edge case of Gottschalk's thesis, p. 83).
inline constexpr double kSatMinEdgeAxisSine = 1e-6;

// --- Segments and projection (segment.hpp, projection.hpp) -------------------------------------

/// A segment whose Jacobian at a point is below this fraction of (node spread)^dim (its length in
/// 2D, area in 3D) has no normal there: degenerate. Far above rounding, far below any real
/// element's distortion; too large would refuse strongly distorted elements.
inline constexpr double kDegenerateJacobianRel = 1e-12;

/// Newton stops when the step in local coordinates is below this (the reference domain has size 1
/// or 2, so this is a relative measure; xi then carries about 1e-13 of error).
inline constexpr double kProjectionStepTol = 1e-13;

/// At most this many Newton iterations before the status says not converged.
inline constexpr int kProjectionMaxIterations = 50;

/// Local coordinates within this of the domain boundary count as on the boundary
/// (ProjectionStatus::kOnBoundary); reference units. Only the status depends on it.
inline constexpr double kOnBoundaryTol = 1e-12;

// --- Segment-to-segment clipping (clipping.hpp) ------------------------------------------------
// All multiply L = the larger characteristicSize of the two segments (L^2 for areas).

/// Two polygon vertices closer than this merge, a vertex within this of a clip line counts as on
/// it (neither in nor out: it never spawns an intersection), and a vertex within this of the line
/// through its neighbours is dropped as collinear. 1e-10 is far above the rounding of coordinates
/// shifted to the pair (1e3 L from the origin still rounds to ~1e-13 L) and far below any overlap
/// a solver cares about. Too large: thin real overlaps vanish; too small: slivers and duplicate
/// vertices from shared edges survive.
inline constexpr double kClipMergeRel = 1e-10;

/// Overlaps with area below kClipMinAreaRel L^2 (3D) or length below kClipMinLengthRel L (2D) are
/// reported as no overlap: touching along an edge or at a point. Errs toward "no overlap" for
/// slivers below it.
inline constexpr double kClipMinAreaRel = 1e-10;
inline constexpr double kClipMinLengthRel = 1e-10;

/// A face whose projected corner polygon has less than this fraction of its own (3D) area is
/// edge-on to the projection plane: a master is then degenerate, a slave faces the master over no
/// area (kNoOverlap). Back-projection onto a nearly edge-on face is ill-conditioned by the inverse
/// of this ratio.
inline constexpr double kClipEdgeOnRel = 1e-8;

/// Newton back-projections (onto a face along the plane normal, onto a Line3) stop when the step
/// in local coordinates is below this; at most kClipMaxNewton iterations.
inline constexpr double kClipNewtonTol = 1e-14;
inline constexpr int kClipMaxNewton = 40;

// --- Orientation verdict (UpdateStats::orientation, contact_search.hpp) -----------------------

/// Pairs judged per update at most, spread evenly over the pairs: enough for a majority, few
/// enough that the check costs nothing worth measuring (one normal evaluation each, about 3000
/// instructions: 0.8% of a small-motion update of 10k Quad4 segments, 0.08% at 100k).
inline constexpr int kOrientationSample = 128;
/// Fewer judged pairs than this (opposed + aligned; in front + behind for the second step):
/// kUnknown.
inline constexpr int kOrientationMinPairs = 8;
/// A clear majority: at least this fraction of the judged pairs.
inline constexpr double kOrientationMajority = 0.8;
/// |n_m . n_s| below this (normals more than 60 degrees from parallel): the pair is not judged.
inline constexpr double kOrientationAlignment = 0.5;
/// Gaps within this fraction of the capture distance tell nothing of the side (a penetration that
/// small is ordinary contact); only gaps beyond it count as in front or behind.
inline constexpr double kOrientationGapRel = 0.1;

// --- Range of the search -----------------------------------------------------------------------

/// Largest coordinate, capture distance and skin the search takes (an absolute length, the one
/// exception here). It keeps boxes and positions in float (largest 3.4e38): below 1e30, every box
/// of a segment, grown by the capture distance and the skin, stays far inside the float range.
inline constexpr double kMaxCoordinate = 1e30;
/// Largest box end update() takes before it reports kCoordinatesOutOfRange: room for the boxes of
/// any model setSurfaces() takes (a curved segment's box reaches 3 times its nodes' coordinates,
/// plus the capture distance) and for the moves after it.
inline constexpr double kMaxBoxEnd = 16.0 * kMaxCoordinate;

/// setSurfaces() refuses coordinates so large that doubles there are spaced more than
/// 1 / kMinCaptureResolution of the capture distance: gaps that small cannot be represented.
inline constexpr double kMinCaptureResolution = 1024.0;

}  // namespace contact::tol
