// SPDX-License-Identifier: MIT
// Mortar quantities of one contact interface, assembled in global node indices from the
// segment-to-segment pairs of a search: what a solver needs to write the contact terms.
//
//   D_ab = int Phi_a N_b dA        slave node a x slave node b
//   M_ac = int Phi_a N^_c dA       slave node a x master node c (N^ at the projected points)
//   g~_a = int Phi_a g dA          weighted gap (negative = penetration)
//   A_a  = int Phi_a dA            nodal area
//
// All integrals run over the slave surface, over the part of each overlap whose gap is at most
// the capture distance (docs/design.md, "What a pair is"). In 2D they run along the lines (per
// unit thickness): for an axisymmetric section (r, z) with no 2 pi r weight, which a solver of
// surfaces of revolution adds itself. With Lagrange multipliers lambda_a on the slave nodes,
// the contact virtual work is sum_a lambda_a dg~_a, with
// dg~_a = sum_b D_ab n . du_b - sum_c M_ac n . du_c for a normal n (README: "Assembling contact").
#pragma once

#include "contact/contact_search.hpp"
#include "contact/export.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"
#include "contact/types.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace contact {

/// The multiplier basis Phi_a.
enum class MortarBasis : std::uint8_t {
    /// Phi_a = N_a, the slave shape functions. Every segment type.
    kStandard,
    /// Biorthogonal (dual) basis, Wohlmuth (2000): Phi_a = sum_b A_ab N_b per slave segment with
    /// A = diag(d) G^-1, G_ab = int N_a N_b, d_a = int N_a, both over the part of the segment
    /// that is integrated (the whole segment when fully in contact; the "consistent" dual basis of
    /// Popp, Wohlmuth, Gee and Wall 2012 on partly covered segments). Then int Phi_a N_b = delta_ab
    /// d_a: D is diagonal, and int Phi_a = int N_a. Line2, Tri3 and Quad4 only: for quadratic
    /// segments d_a = int N_a is zero (Tri6 corners) or negative (Quad8 corners), so diag(d) G^-1
    /// is no basis; they need a transformed basis first (Popp, Gee, Wall 2012), not offered here.
    kDual,
};

/// Options of a MortarIntegrator.
struct MortarOptions {
    MortarBasis basis = MortarBasis::kStandard;
    /// Worker threads (OpenMP). Results are bit-identical for any count: each slave segment is
    /// integrated by one thread in pair order, then the node rows are summed in segment order.
    int threads = 1;
    /// Also build D and M in compressed rows (MortarOperators::Dcsr, Mcsr).
    bool csr = false;
};

/// A sparse matrix as coordinate triplets in global node indices, sorted by (row, col), one entry
/// per (row, col) (duplicates summed).
struct SparseTriplets {
    std::vector<Index> row;
    std::vector<Index> col;
    std::vector<double> value;
    [[nodiscard]] std::size_t size() const noexcept { return value.size(); }
};

/// Compressed rows. Row r is the slave node MortarOperators::nodes[r]: its entries are
/// col[offsets[r] .. offsets[r + 1]) (global node indices, increasing) and the same of value.
struct SparseCsr {
    std::vector<std::size_t> offsets;
    std::vector<Index> col;
    std::vector<double> value;
};

/// What a MortarIntegrator computes, in global node indices.
struct MortarOperators {
    /// Slave nodes that carry an integral (a node of a slave segment with some overlap within the
    /// capture distance), increasing: the rows of everything below.
    std::vector<Index> nodes;
    std::vector<double> weightedGap;  ///< g~_a, per row (length x area; negative = penetration)
    std::vector<double> nodalArea;    ///< int Phi_a dA, per row (a length in 2D)
    SparseTriplets D;                 ///< slave x slave (diagonal for MortarBasis::kDual)
    SparseTriplets M;                 ///< slave x master
    SparseCsr Dcsr;                   ///< D in compressed rows (MortarOptions::csr)
    SparseCsr Mcsr;                   ///< M in compressed rows (MortarOptions::csr)
    MortarBasis basis = MortarBasis::kStandard;
};

/// One slave segment's integrals before they are summed into node rows: what a distributed
/// assembly sends to the owners of the segment's nodes (contact::mpi::DistributedMortar). Views
/// into the integrator's buffers, valid until its next compute().
struct MortarSegmentBlock {
    int nodes = 0;    ///< the slave segment's node count ns; 0: the segment carries no integral
    int columns = 0;  ///< master nodes it couples to
    const Index* masterNodes = nullptr;  ///< those, increasing (node indices into x)
    const double* D = nullptr;           ///< ns x ns, row-major: D[a * ns + b] = int Phi_a N_b
    const double* gap = nullptr;         ///< ns: int Phi_a g
    const double* area = nullptr;        ///< ns: int Phi_a
    const double* M = nullptr;           ///< columns x ns: M[c * ns + a] = int Phi_a N^_c
};

/// Counters and time of one compute().
struct MortarStats {
    Index pairs = 0;             ///< segment pairs given
    Index integrated = 0;        ///< pairs with an overlap within the capture distance
    Index beyondCapture = 0;     ///< pairs that overlap, but with every gap above the capture
    Index notFacing = 0;         ///< pairs whose outward normals do not oppose (n_s . n_m >= 0),
                                 ///< of those not found apart in the slave's plane first
    Index degenerate = 0;        ///< pairs the geometry could not integrate (a master edge-on to
                                 ///< the slave, a non-convex projected face); left out
    Index dualFallbacks = 0;     ///< slave segments whose integrated part was too small for the
                                 ///< consistent dual basis (MortarIntegrator, kDual)
    long long points = 0;        ///< quadrature points
    long long cutFallbacks = 0;  ///< capture-cut pieces taken at the cut's limits without meeting
                                 ///< its tolerance, each off by at most its area
                                 ///< (MortarIntegrator, "Capture cut")
    double timeIntegrate = 0.0;  ///< ms: overlaps and quadrature, per slave segment
    double timeAssemble = 0.0;   ///< ms: the node rows summed, triplets and CSR written
};

/// Computes the mortar quantities of one interface from segment-to-segment pairs.
///
///   for each slave segment s (in parallel):
///     plane = tangent plane of s at its reference centre (a line in 2D)
///     for each pair (s, m) in order:
///       overlap = s and m projected on the plane along its normal, clipped (Sutherland-Hodgman;
///         2D: an interval), then cut to the part with gap <= capture
///       Gauss points over the overlap (triangle fan; 2D: Gauss-Legendre): local coordinates on
///         s and m, gap = (x_s - x_m) . n_m, weight as an area on s
///       accumulate int N_a N_b, int N_a N^_c, int N_a g, int N_a on s
///     dual basis: transform the sums with A (MortarBasis::kDual)
///   for each slave node (in parallel), over its segments in index order: sum the rows
///
/// Projection: along the normal of the slave segment's plane, so that the master segments facing
/// a slave segment tile it without gaps or overlaps (Puso and Laursen 2004's segment plane).
/// Only facing pairs count (n_s . n_m < 0 at the centres). The overlap is that of the corner
/// polygons (2D: of the end nodes), clipping.hpp's flat approximation: the edges of a quadratic
/// face are taken as chords, so where they bulge in the plane the overlap's boundary is off by at
/// most flatApproximationBound and its area by that times the perimeter; the points inside are
/// mapped onto the true faces.
///
/// Integration order, per piece of the overlap fan, chosen so that the integrals of the shape
/// function products (D, M, nodal areas) are exact on flat, straight-sided segments
/// (parallelogram quads) for every type pair: degree max(2 p_s, p_s + p_m) with p = 1 (Tri3), 2
/// (Quad4, Tri6), 3 (Quad8), 4 (Quad9), by the triangle rule of that degree or the next: 3 points
/// (degree 2), 6 (Dunavant, 4), 7 (Radon, 5), 12 (Dunavant, 6: a Quad8 slave, a Quad4 or Tri6
/// slave on a Quad9), 16 (Dunavant, 8: a Quad9 slave, and a Quad8 slave on a Quad9, degree 7).
/// A pair of Tri3 / Quad4 segments cuts its overlap polygon from its first vertex into
/// quadrilaterals (a triangle last when the vertex count is odd), each mapped bilinearly from a
/// square and integrated by Gauss's product rule, exact to the same degree: Tri3 on Tri3 2 x 2
/// points, with a Quad4 3 x 3 (against 6 and 12 for two triangles). Triangles: Tri3 on Tri3 3
/// points, with a Quad4 6 (Dunavant, degree 4); quadratic segments take triangles only. A Quad4
/// that is no parallelogram has shape functions rational in the plane, so no rule is exact: at
/// a 5 % distortion M is within 4e-8 of the nodal area (tests/contact/test_mortar.cpp). Lines:
/// Gauss-Legendre exact to degree max(2 p_s, p_s + p_m), plus 1 for a Line3 slave (its
/// Jacobian): 2 points for Line2 on Line2, 3 with a Line3 slave.
///
/// Capture cut (only the overlap within the capture distance counts): in 3D by the clipping
/// kernel's cutOverlap3d on the slave's plane, exact where both faces are flat (a half-plane
/// clip). Otherwise (a quadratic face, or a warped Tri3 / Quad4 pair), a fan triangle whose gaps
/// may reach the capture is cut. Its gap, (h_s - h_m)(n . n_m) with h the heights over the plane,
/// is taken to stray from the linear interpolation of its vertex gaps by at most a slack: the
/// faces' distance from flat, plus the range of n . n_m over the master (bounded from how far its
/// normal may turn from the centre's) times the largest |h_s - h_m|, a quarter of it per level of
/// the split below. A triangle whose vertex gaps are beyond the slack from the capture on one side
/// is kept whole or dropped; any other is cut where the exact
/// gap equals the capture along its edges (regula falsi), the cut points joined by a chord plus
/// the sliver between the chord and the curve gap = capture: the curve's distance is found along
/// the chord's normal (secant method on the exact gap) from the chord's midpoint, then from the
/// parabola through the chord's ends and that curve point at two Gauss-Legendre abscissae; the
/// sliver's area is the integral of the quartic through these five curve points, carried by
/// three quadrature points. Where the parabola's area differs from that by more than 1e-7 of the
/// slave's size L times the chord's length, the triangle is split in four and each piece
/// treated so, at most 12 times and 1024 pieces per fan triangle (depth first, a piece for every
/// later sibling kept back): the work per pair is bounded. Pieces cut at those limits without
/// meeting the tolerance (where the gap jumps or the curve has a corner) are counted in
/// MortarStats::cutFallbacks, each off by at most its area. Measured against exact level sets
/// under a flat Quad4 slave (tests/contact/test_mortar.cpp): a penetrated disc of radius 3e-3 to
/// 0.3 of the slave's size under a Quad9 paraboloid, the area within 1e-7 L times the disc's
/// circumference and the weighted gap within 1e-4 of its value; a paraboloid bump on
/// single Quad8 masters, nodal areas within 1e-7 and weighted gaps within 2e-8; a twisted Quad4
/// master, the total area within 2e-6 and the weighted gap within 1e-7; a dome (Quad9, Quad8,
/// Tri6) 6 and 20 slave sizes below, the capture cutting a disc out of its top, the area within
/// 1e-9 and the weighted gap within 2e-7 of its value. 2D: the overlap (an interval along the
/// slave's tangent) is cut where the exact gap equals the capture, exactly for straight lines;
/// otherwise it is halved, depth first, until the slack (as above, a quarter of it per halving)
/// keeps or drops each piece whole, down to pieces of 1e-7 L, where the gap changes sign found by
/// bisection, at most 1024 pieces per pair (those left undecided at that limit counted in
/// MortarStats::cutFallbacks): a window of contact anywhere inside a curved segment is found.
/// Measured: windows of 1.1 and 1.5 % of a Line3 master's length, their length within 2e-16 and
/// the weighted gap within 1.4e-5 (Line2 slaves) and 6e-10 (Line3) of its value. cutOverlap2d
/// measures the overlap along the master's normals, another interval.
///
/// Buffers are kept between calls: once sized, a compute() allocates nothing (nor per pair).
/// Not for concurrent use of one integrator; several may live side by side.
class CONTACT_API MortarIntegrator {
public:
    explicit MortarIntegrator(const MortarOptions& options = {});
    ~MortarIntegrator();
    MortarIntegrator(MortarIntegrator&&) noexcept;
    MortarIntegrator& operator=(MortarIntegrator&&) noexcept;
    MortarIntegrator(const MortarIntegrator&) = delete;
    MortarIntegrator& operator=(const MortarIntegrator&) = delete;

    /// From a segment-to-segment search after its last update: its surfaces, pairs and capture
    /// distance, with the coordinates that update saw. Throws std::invalid_argument for a search
    /// in node-to-segment mode, a search in self-contact, a slave given as nodes, or a search not
    /// set up; and as the overload below.
    MortarStats compute(const ContactSearch& search, const CoordinatesView& x);

    /// From surfaces and pairs (pairSlave[i], pairMaster[i]: slave and master segment indices),
    /// ordered by slave segment (as SegmentPairs are). Pairs that do not overlap within `capture`
    /// add nothing, so any superset of the contacting pairs gives the same result.
    /// Throws std::invalid_argument (naming the argument) for: a surface whose offsets, types or
    /// node counts do not fit (as ContactSearch::setSurfaces), pairs not ordered by slave, a pair
    /// given twice, an index out of range, a node index beyond x or a surface node with a NaN or
    /// Inf coordinate, surfaces of different dimensions or of a dimension other than x's, a
    /// negative or non-finite capture, or MortarBasis::kDual with a quadratic slave segment. Out
    /// of memory, on any thread, throws std::bad_alloc and leaves operators() empty. A moved-from
    /// integrator throws std::logic_error here and in segmentBlock(); its operators() are empty.
    MortarStats compute(const Surface& master, const Surface& slave, ConstSpan<Index> pairSlave,
                        ConstSpan<Index> pairMaster, const CoordinatesView& x, double capture);

    /// The result of the last compute() (empty before the first).
    [[nodiscard]] const MortarOperators& operators() const noexcept;
    /// Slave segment k's integrals in the last compute(), before the node rows summed them (in
    /// segment order, each node's rows over its segments: the rows of operators()). Throws
    /// std::out_of_range for k outside the last compute()'s slave surface.
    [[nodiscard]] MortarSegmentBlock segmentBlock(Index k) const;
    [[nodiscard]] const MortarOptions& options() const noexcept { return options_; }

private:
    struct CONTACT_NO_EXPORT Impl;
    MortarOptions options_;
    std::unique_ptr<Impl> impl_;
};

/// Polynomial degree of a segment type's shape functions on a flat, straight-sided segment:
/// 1 (Line2, Tri3), 2 (Line3, Quad4, Tri6), 3 (Quad8), 4 (Quad9).
[[nodiscard]] CONTACT_API int shapeDegree(SegmentType t) noexcept;

/// Quadrature degree the integrator uses for a (slave, master) type pair (see MortarIntegrator).
[[nodiscard]] CONTACT_API int mortarQuadratureDegree(SegmentType slave,
                                                     SegmentType master) noexcept;

}  // namespace contact
