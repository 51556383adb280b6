// SPDX-License-Identifier: MIT
// Segment-to-segment contact geometry: the part of a slave segment that faces a master segment.
// 2D: reference-face / incident-edge clipping (Box2D-Lite, Catto: Collide.cpp, ClipSegmentToLine).
// 3D: Sutherland-Hodgman clipping of projected faces (Sutherland and Hodgman, "Reentrant polygon
// clipping", CACM 17(1), 1974), with Gauss points over the overlap polygon for mortar integration.
// Both: the part of an overlap in contact, where the gap is at most the capture distance.
#pragma once

#include "contact/export.hpp"
#include "contact/tolerances.hpp"  // kClip*: the clipping tolerances
#include "contact/types.hpp"

#include <Eigen/Core>

#include <array>
#include <cstdint>

namespace contact {

/// Outcome of a clip.
enum class ClipStatus : std::uint8_t {
    kOverlap,        ///< the slave faces the master over a positive length / area
    kNoOverlap,      ///< disjoint in projection, touching at a point or along an edge only, or
                     ///< (3D) a slave edge-on to the projection plane
    kBeyondCapture,  ///< 2D only: the slave faces the master, but every clipped point has
                     ///< gap > capture (lengths and ranges are still reported)
    kDegenerate,     ///< a collapsed segment or non-finite coordinates, a master edge-on to
                     ///< the plane or with a non-convex corner polygon; nothing else is meaningful
};

[[nodiscard]] CONTACT_API const char* clipStatusName(ClipStatus s) noexcept;

// ---------------------------------------------------------------------------------------------
// 2D: Line2 and Line3 in the x-y plane.

/// Where a clipped point came from (Box2D-Lite's FeaturePair, reduced to one incident edge).
/// Exactly one of the two fields is >= 0. Equal ids from one increment to the next mean the same
/// contact point (for warm starting and friction history).
struct ClipFeature2d {
    std::int8_t slaveEnd = -1;    ///< 0 / 1: the point is slave end node 0 / 1 (xi_s = -1 / +1)
    std::int8_t masterSide = -1;  ///< 0 / 1: the slave was cut by the side plane at master end
                                  ///< node 0 / 1 (the projection lands on xi_m = -1 / +1)
};

[[nodiscard]] constexpr bool operator==(ClipFeature2d a, ClipFeature2d b) noexcept {
    return a.slaveEnd == b.slaveEnd && a.masterSide == b.masterSide;
}
[[nodiscard]] constexpr bool operator!=(ClipFeature2d a, ClipFeature2d b) noexcept {
    return !(a == b);
}

/// One contact point of a 2D pair.
struct ClipPoint2d {
    Eigen::Vector3d slavePoint = Eigen::Vector3d::Zero();   ///< on the slave segment (z = 0)
    Eigen::Vector3d masterPoint = Eigen::Vector3d::Zero();  ///< its projection on the master
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();       ///< master outward unit normal there
    /// (slavePoint - masterPoint) . normal. Negative = penetration.
    double gap = 0.0;
    double xiSlave = 0.0;   ///< local coordinate on the slave, in [-1, 1]
    double xiMaster = 0.0;  ///< local coordinate of the projection on the master, in [-1, 1]
    ClipFeature2d feature;
};

/// Result of clipping one 2D (slave, master) pair. Fixed capacity.
struct SegmentClip2d {
    /// Points with gap <= capture, in increasing xiSlave (Box2D-Lite keeps at most two).
    std::array<ClipPoint2d, 2> points{};
    int pointCount = 0;  ///< 0..2
    /// Master outward unit normal at the middle (in xi_m) of the overlap.
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    /// Length of the slave part facing the master, measured along the master: the master arc
    /// length between the projections of the two ends of the overlap (>= 0).
    double overlapLength = 0.0;
    /// The same part measured along the slave (its arc length; what a slave-side integral uses).
    double slaveOverlapLength = 0.0;
    /// The overlap on the slave: xi_s from (lo) to (hi), lo <= hi, whatever the capture.
    Eigen::Vector2d xiSlaveRange = Eigen::Vector2d::Zero();
    /// xi_m of the projections of the two ends above, in the same order (decreasing when the
    /// segments run opposite ways, as facing segments do).
    Eigen::Vector2d xiMasterRange = Eigen::Vector2d::Zero();
    /// True when the slave's outward normal points against the master's (n_s . n_m < 0 at the
    /// centres). Clipping ignores orientation; a formulation that wants facing pairs checks this.
    bool facing = false;
    ClipStatus status = ClipStatus::kNoOverlap;  ///< kOverlap: at least one point kept
};

/// Clips a 2D slave segment (the incident edge) against a master segment (the reference face).
///
/// Box2D-Lite (Catto, Collide.cpp: ClipSegmentToLine), generalised to curved segments:
///
///   side planes of the master: the lines through its end nodes along the master's end normals,
///     d_0(p) = -(p - x_m(-1)) . t_m(-1) <= 0,   d_1(p) = (p - x_m(+1)) . t_m(+1) <= 0
///     (t_m = unit tangent; a point projects onto the master inside [-1, 1] exactly when both hold)
///   interval = the whole slave, xi_s in [-1, 1], features (slave end 0, slave end 1)
///   for each side k:                                   // ClipSegmentToLine
///     both interval ends outside: no overlap
///     one end outside: solve d_k(x_s(xi_s)) = 0 for xi_s (Line2: linear interpolation as in
///       Box2D-Lite; Line3: safeguarded Newton), replace that end, feature = master side k
///   project both ends onto the master (Line3: Newton on the unclamped parabola), gap = (x_s - x_m)
///     . n_m; keep the points with gap <= capture (Box2D-Lite keeps separation <= 0)
///
/// Curved Line3 masters are clipped in their own parameter space: the side "planes" are the end
/// normals, so the overlap is the slave part whose projections fall in xi_m in [-1, 1], not the
/// part facing the chord. Assumption: within one pair, slave and master face each other locally
/// (the slave lies within the master's radius of curvature, where the projection is unique and
/// d_k is monotone along the slave: no folding). Points within kClipMergeRel L of a side plane
/// count as inside, so a slave end on a master end keeps its slave-end feature.
/// `capture` is a length (>= 0). Never throws, never allocates.
[[nodiscard]] CONTACT_API SegmentClip2d clipSegments2d(const SegmentNodes& slave,
                                                       const SegmentNodes& master,
                                                       double capture) noexcept;

// ---------------------------------------------------------------------------------------------
// 3D: Tri3, Tri6, Quad4, Quad8, Quad9, in any combination.

/// Plane the two faces are projected onto.
enum class ClipPlane : std::uint8_t {
    /// Tangent plane of the master at its reference centre: normal = n_m(centre), through
    /// x_m(centre). Areas are measured on the master; for a flat master this is exact.
    kMaster,
    /// Common (average) plane of the pair: normal = normalize(n_m - n_s) (the bisector of the two
    /// outward normals, n_s taken at the slave's centre), through the midpoint of the two
    /// centres. Symmetric in slave and master up to orientation; areas are then measured halfway
    /// between the two faces. For a reversed slave (n_s . n_m > 0) normalize(n_m + n_s) is used,
    /// so the plane is always the average of the two face planes.
    kCommon,
};

/// Options of clipSegments3d.
struct ClipOptions3d {
    ClipPlane plane = ClipPlane::kMaster;
};

/// Largest overlap polygon: a convex quad clipped by a convex quad has at most 4 + 4 vertices.
inline constexpr int kMaxOverlapVertices = 8;

/// One vertex of the overlap polygon.
struct OverlapVertex {
    Eigen::Vector3d point = Eigen::Vector3d::Zero();     ///< on the projection plane
    Eigen::Vector2d xiSlave = Eigen::Vector2d::Zero();   ///< where the plane normal through
    Eigen::Vector2d xiMaster = Eigen::Vector2d::Zero();  ///< `point` meets each face
    /// (x_s(xiSlave) - x_m(xiMaster)) . n_m(xiMaster). Negative = penetration.
    double gap = 0.0;
};

/// Overlap of the slave and master faces, projected on a plane. Fixed capacity.
struct OverlapPolygon {
    /// Counter-clockwise seen from the side `normal` points to; no two within kClipMergeRel L, no
    /// vertex within kClipMergeRel L of the line through its neighbours.
    std::array<OverlapVertex, kMaxOverlapVertices> vertices{};
    int count = 0;      ///< 0 unless status is kOverlap, else 3..8
    double area = 0.0;  ///< area on the plane (> kClipMinAreaRel L^2 when kOverlap)
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();  ///< area centroid, on the plane
    /// Unit normal of the plane, on the master's outward side (normal . n_m(centre) > 0).
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    Eigen::Vector3d planePoint = Eigen::Vector3d::Zero();  ///< a point of the plane
    /// n_s . n_m < 0 at the centres (see SegmentClip2d::facing).
    bool facing = false;
    ClipStatus status = ClipStatus::kNoOverlap;
};

/// Overlap polygon of a slave and a master face.
///
///   plane (point c, unit normal n, in-plane axes e1, e2) from options; all coordinates shifted
///     to c first (round-off: Box2D's manifold.c shifts to a vertex for the same reason)
///   master polygon M = its corners projected on the plane, made counter-clockwise; must be
///     convex (else kDegenerate)
///   slave polygon S = its corners projected, reversed if clockwise (a facing slave projects
///     clockwise; a reversed slave does not; both give the same overlap)
///   for each edge (a, b) of M:                         // Sutherland-Hodgman
///     S = part of S left of a->b; a vertex within eps of the line is "on": kept, never cut
///     merge consecutive vertices within eps
///   drop vertices collinear with their neighbours; < 3 left or area tiny: kNoOverlap
///   each vertex: back-projected along n onto each face (below), gap from the two face points
///
/// Quadratic faces are clipped through their corner polygon (the flat approximation): the
/// polygon's edges are chords. The distance between a quadratic face and its corner polygon (the
/// linear / bilinear interpolation of the corners at the same local coordinates) is at most
/// flatApproximationBound(face), so the overlap boundary is off by at most that distance and the
/// area by at most (perimeter of the overlap) x that distance.
///
/// Local coordinates: where the line through a polygon point along n meets each true (curved,
/// warped) face, by Newton's method on the in-plane residual (x(xi) - p) . e_k = 0, k = 1, 2,
/// from the reference centre, with backtracking and every iterate kept in the reference domain.
/// Exact for linear and warped Quad4 faces. Where the line misses a curved face (a polygon vertex
/// on a chord that lies outside the curved boundary, by at most flatApproximationBound), the
/// nearest point of the domain in the plane is taken instead: a point on the face's boundary.
/// A slave edge-on to the plane gives kNoOverlap (it faces the master over no area).
/// Never throws, never allocates.
[[nodiscard]] CONTACT_API OverlapPolygon clipSegments3d(const SegmentNodes& slave,
                                                        const SegmentNodes& master,
                                                        const ClipOptions3d& options = {}) noexcept;

/// Largest distance between a face and its corner polygon (x(xi) vs the linear / bilinear
/// interpolation of its corners at the same xi): Lambda * max_i |delta_i|, where delta_i is the
/// deviation of midside (and centre) node i from the corner interpolation at its local
/// coordinates, and Lambda = max over the domain of sum |N_i| over those nodes: 4/3 (Tri6, at the
/// centroid), 2 (Quad8, at the centre), 1.3844 (Quad9). Why: quadratic shape functions reproduce
/// the corner interpolation, so x - x_corner = sum_i N_i delta_i over non-corner nodes only.
/// 0 for Line2, Tri3, Quad4; Line3: 1 * |delta_midside|.
[[nodiscard]] CONTACT_API double flatApproximationBound(const SegmentNodes& s) noexcept;

/// Highest supported quadrature order: 1 (1 point per triangle, degree 1), 2 (3 points, degree 2),
/// 3 and 4 (6 points, Dunavant degree 4), 5 (7 points, Radon degree 5), 6 (12 points, Dunavant
/// degree 6), 7 and 8 (16 points, Dunavant degree 8).
inline constexpr int kMaxOverlapQuadratureOrder = 8;
inline constexpr int kMaxTriangleQuadraturePoints = 16;
inline constexpr int kMaxOverlapQuadraturePoints =
    kMaxOverlapVertices * kMaxTriangleQuadraturePoints;

/// Points per triangle of the rule used for `order` (clamped to [1, kMaxOverlapQuadratureOrder]).
[[nodiscard]] CONTACT_API int triangleQuadraturePointCount(int order) noexcept;

/// One Gauss point over an overlap polygon.
struct OverlapQuadraturePoint {
    Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< on the projection plane
    double weight = 0.0;  ///< area measure on the plane: weights sum to the polygon's area
    /// (x_s(xiSlave) - x_m(xiMaster)) . n_m(xiMaster). Negative = penetration.
    double gap = 0.0;
    Eigen::Vector2d xiSlave = Eigen::Vector2d::Zero();  ///< as for OverlapVertex
    Eigen::Vector2d xiMaster = Eigen::Vector2d::Zero();
    std::array<double, kMaxSegmentNodes> NSlave{};   ///< slave shape functions at xiSlave
    std::array<double, kMaxSegmentNodes> NMaster{};  ///< master shape functions at xiMaster
};

using OverlapQuadrature = std::array<OverlapQuadraturePoint, kMaxOverlapQuadraturePoints>;

/// Gauss points over an overlap polygon from clipSegments3d(slave, master) (same segments).
///
///   C = polygon centroid; for each edge (v_i, v_i+1): triangle (C, v_i, v_i+1)   // fan
///   for each point (l0, l1, l2; w) of the triangle rule: x = l0 C + l1 v_i + l2 v_i+1,
///     weight = w * area(triangle), local coordinates by the back-projection of clipSegments3d
///     (started from the same barycentric mix of the vertices' coordinates), gap, N
///
/// Returns the number of points written to `out` (0 when the polygon has no overlap).
/// Never throws, never allocates.
[[nodiscard]] CONTACT_API int overlapQuadrature(const OverlapPolygon& polygon,
                                                const SegmentNodes& slave,
                                                const SegmentNodes& master, int order,
                                                OverlapQuadrature& out) noexcept;

// ---------------------------------------------------------------------------------------------
// The part of an overlap in contact (DESIGN.md): where the gap is at most a level, the capture
// distance. A point of the overlap with gap <= level is in contact (penetration of any depth
// counts); the penetrating part (gap < 0) is measured at the same time.

/// Largest drawn kept part of an overlap polygon: a straight cut adds one vertex to the polygon;
/// where the gap is not affine each edge may add one (the level crossing it).
inline constexpr int kMaxCutVertices = 2 * kMaxOverlapVertices;

/// Sub-intervals per edge of the refinement the cuts use where the gap is not affine (curved or
/// warped faces): the default, and the largest accepted.
inline constexpr int kDefaultCutSubdivisions = 4;
inline constexpr int kMaxCutSubdivisions = 16;

/// True when a face is flat: its corners lie in one plane and its midside nodes on its corner
/// polygon, both within kClipMergeRel x its size. The gap between two flat faces is affine over
/// a projection plane.
[[nodiscard]] CONTACT_API bool isFlatFace(const SegmentNodes& s) noexcept;

/// The part of a 3D overlap polygon with gap <= level.
struct OverlapCut3d {
    /// The kept part as one polygon, for drawing: the overlap polygon cut where the gap,
    /// interpolated linearly along each edge between its vertices' gaps, passes `level` (new
    /// vertices: local coordinates by back-projection, gap = level). Exactly the kept part when
    /// `affine`; on curved faces the cut line is drawn straight between the edge crossings, and
    /// a new vertex carries the gap found at it (near the level, not equal to it).
    std::array<OverlapVertex, kMaxCutVertices> vertices{};
    int count = 0;                 ///< 0 (nothing drawn) or 3..kMaxCutVertices
    double area = 0.0;             ///< plane area where gap <= level (0 .. polygon area)
    double penetratingArea = 0.0;  ///< plane area where gap < 0
    /// Bounds on |area - exact| and |penetratingArea - exact| (0 when affine; see cutOverlap3d).
    double areaError = 0.0;
    double penetratingAreaError = 0.0;
    /// Gap range over the kept part (vertices and refinement points); 0 when nothing is kept.
    double gapMin = 0.0;
    double gapMax = 0.0;
    bool affine = false;  ///< both faces flat: the gap is affine and the cut exact
};

/// Cuts an overlap polygon from clipSegments3d(slave, master) (same segments) to gap <= level.
///
///   both faces flat (isFlatFace): the gap is affine over the plane, so the polygon is clipped
///     by the half-plane gap <= level through its vertices' gaps: exact (to rounding); the
///     penetrating part likewise by gap < 0
///   else, where the faces lie within e_s, e_m of their corners' planes (corner warp plus
///     flatApproximationBound), the gap is within E = 2 (e_s / |n.n_s| + e_m / |n.n_m|) of the
///     affine gap between those planes, so within 2 E of the vertices' gap range: a polygon that
///     keeps both levels outside that range is kept whole or not at all (no refinement); else
///     the polygon is fanned from its centroid; a fan triangle whose gap range (at its
///     corners and edge midpoints, widened by 4x their second differences: the interpolation
///     bound below at the fan triangle's size) keeps both levels outside is kept whole or not at
///     all; any other is split into n^2 congruent sub-triangles (n = subdivisions), the gap
///     evaluated at every grid point (back-projection onto both faces, as for the polygon's
///     vertices) and taken as linear over each sub-triangle, which is clipped exactly
///
/// Error of the refinement: within a sub-triangle the gap g differs from its linear interpolant
/// I g by at most delta = the largest second difference of g along the grid lines of its fan
/// triangle (for a quadratic g, g - I g = -1/2 sum_{i<j} l_i l_j e_ij^T H e_ij, at most 1/6 of
/// it: delta holds that error with a factor 6 to spare where g'' varies little over a fan
/// triangle). The cut misplaces area only where I g lies within delta of the level: in a
/// sub-triangle of area A whose vertex gaps span [lo, hi], at most A min(1, 4 delta / (hi - lo))
/// (a linear function's level sets carry at most 2 A / (hi - lo) of area per unit of gap).
/// areaError sums that over the sub-triangles: O(h^2) for sub-triangles of size h. The polygon
/// itself is the flat approximation of clipSegments3d (with its own bound).
/// `subdivisions` is clamped to [1, kMaxCutSubdivisions]. A polygon without overlap gives an
/// empty cut. Never throws, never allocates.
[[nodiscard]] CONTACT_API OverlapCut3d
cutOverlap3d(const OverlapPolygon& polygon, const SegmentNodes& slave, const SegmentNodes& master,
             double level, int subdivisions = kDefaultCutSubdivisions) noexcept;

/// The part of a 2D overlap with gap <= level, measured along the master like
/// SegmentClip2d::overlapLength.
struct OverlapCut2d {
    /// First and last kept points along the slave, for drawing (count 2), or none (count 0);
    /// their features are not set (-1, -1).
    std::array<ClipPoint2d, 2> ends{};
    int count = 0;
    double length = 0.0;             ///< master arc length where gap <= level
    double penetratingLength = 0.0;  ///< master arc length where gap < 0
    double lengthError = 0.0;        ///< bounds as in OverlapCut3d (0 when affine)
    double penetratingLengthError = 0.0;
    double gapMin = 0.0;  ///< gap range over the kept part; 0 when nothing is kept
    double gapMax = 0.0;
    bool affine = false;  ///< both segments straight: the gap is affine along the slave
};

/// Cuts the overlap of clipSegments2d(slave, master, ...) (status kOverlap or kBeyondCapture,
/// same segments) to gap <= level. The slave's overlap [xiSlaveRange] is split into n pieces
/// (one when both segments are straight: the gap is then affine along it and the cut exact);
/// at each piece end the slave point is projected on the master as clipSegments2d does, the gap
/// taken as linear in xi_s over each piece and the kept part's ends projected again; lengths are
/// master arc lengths. Error bound as in cutOverlap3d: delta = the largest second difference of
/// the gap (4 times the interpolation error of a quadratic), and a piece of length l whose ends'
/// gaps span [lo, hi] misplaces at most l min(1, 2 delta / (hi - lo)). Never throws, never
/// allocates.
[[nodiscard]] CONTACT_API OverlapCut2d
cutOverlap2d(const SegmentClip2d& clip, const SegmentNodes& slave, const SegmentNodes& master,
             double level, int subdivisions = kDefaultCutSubdivisions) noexcept;

}  // namespace contact
