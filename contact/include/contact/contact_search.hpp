// SPDX-License-Identifier: MIT
// The solver-facing facade: register two surfaces once, then update every increment.
#pragma once

#include "contact/export.hpp"
#include "contact/pairs.hpp"
#include "contact/projection.hpp"
#include "contact/surface.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace contact {

/// What a pair is (docs/design.md, "What a pair is").
enum class SearchMode : std::uint8_t {
    kNodeToSegment,     ///< each slave node with the master segment holding its closest point
    kSegmentToSegment,  ///< each (slave segment, master segment) whose buffered volumes overlap
};

/// The box index that finds the candidate pairs (every index reports exactly every pair of
/// overlapping fat boxes: the pairs never depend on this choice, only speed and memory do;
/// bench/RESULTS.md has the measurements).
enum class BroadPhaseKind : std::uint8_t {
    /// nanoflann kd-trees of box centres per size class (the design's first choice; slower than
    /// the other two on every benchmark scene).
    kKdTree,
    /// A bounding-volume tree of float boxes, queried by groups of neighbouring slave boxes: the
    /// fastest on 3D surfaces.
    kBoxTree,
    /// The default: sort and sweep along the long axis of the boxes for the contact curves of 2D
    /// models, where it is the fastest (on one thread), and the box tree where a sweep would scan
    /// more than 32 pairs per master box (a surface; UpdateStats::swept says which ran).
    kSweep,
};

/// Options of a search, fixed at construction.
struct SearchOptions {
    /// Capture distance: a length when captureRelative is false, else a fraction of the mean
    /// master segment size (characteristicSize), resolved once at setSurfaces. Positive, it must
    /// span at least tol::kMinCaptureResolution spacings of doubles at the model's largest
    /// coordinate (setSurfaces throws otherwise: take a larger one, or move the model nearer the
    /// origin); 0 reports touching pairs only (distance 0 as computed), and is always taken.
    double capture = 0.5;
    bool captureRelative = true;
    SearchMode mode = SearchMode::kNodeToSegment;
    /// Self-contact (one surface against itself, or surfaces sharing nodes as in general
    /// contact): a slave node never pairs with a master segment that shares a node with any
    /// segment holding that node (its two-ring: its own segments and their neighbours), the
    /// slave's segments, or the master's for a slave given as nodes; in segment mode, segments
    /// sharing a node never pair. With master and slave the same surface, each segment pair is
    /// reported once (slave index < master index). Nothing farther along the surface is left
    /// out: in segment mode the buffered boxes make coplanar neighbours of neighbours candidates
    /// and pairs (gap 0). Thin walls: the two faces of a wall thinner than the capture distance
    /// (one element through the thickness) share no node, so they pair with each other as
    /// penetrating, at a gap of minus the thickness, though nothing touches; take a capture below
    /// the thinnest wall, or search the faces as two surfaces without self-contact (no element
    /// thicknesses are known to tell a wall from a penetration). The orientation verdict is
    /// kUnknown (OrientationCheck).
    bool selfContact = false;
    /// Extra skin added to the boxes when the candidate list is built, as a fraction of the mean
    /// master segment size. The list is reused while every current box lies inside its box of the
    /// last build (Verlet list): larger = fewer rebuilds, more candidates. 0 = rebuild every
    /// update. With a skin and two surfaces the search also keeps the master nodes' coordinates
    /// of the last update (24 bytes per master node, and 1 per node of x between the smallest
    /// and the largest master node; node mode 1 per master more) and, on a reused list, the
    /// boxes of every master none of whose nodes moved (UpdateStats::masterBoxes).
    double skinRelative = 0.1;
    /// Worker threads (OpenMP); results are bit-identical and in the same order for any count.
    int threads = 1;
    BroadPhaseKind broadPhase = BroadPhaseKind::kSweep;
    /// Warm starts: in node mode, on curved masters (Line3, Tri6, Quad8, Quad9), an update that
    /// reuses the candidate list starts each closest point from the node's local coordinates of
    /// the last update (where a certificate proves that the distance has a single minimum on the
    /// segment, never elsewhere: a start could land in another minimum) and takes the frame from
    /// the last Newton evaluation. Such an update takes about half the time of a fresh search
    /// (bench/RESULTS.md), 6 bytes per slave node and, per thread, a cache of the masters'
    /// point-free data (at most 4096 x 300 bytes); with skin 0 no update reuses the list and none
    /// is kept. Its results are a fresh search's to the last bits: the same pairs (slave, master)
    /// in the same order and the same statuses; xi within 1e-12; gap, distance and point within
    /// 1e-12 x max(the master segment's size, the distance) (the point also within 2 ulp of its
    /// coordinates: far from the origin their rounding is the larger); normal, tangents and shape
    /// functions within 1e-12. A master thinner than 1e-3 of its extent takes a fresh search's
    /// frame at the warm xi (its frame's rounding grows as extent / width). Near ties between
    /// masters and distances near the capture distance are decided as a fresh search decides them.
    /// false: every update equals a fresh search, and the reference, bit for bit. Rebuilds, segment
    /// mode and linear masters are the same either way.
    bool warmStart = true;
    /// setSurfaces refuses inside-out surfaces (two segments running a shared edge the same way)
    /// and duplicate segments. Off only where the caller has checked the whole surface: the
    /// distributed search checks the global surfaces and turns it off for each rank's part, where
    /// a master edge that three or more segments share may arrive with only two of them.
    bool checkOrientation = true;
};

/// Outcome of an update.
enum class UpdateStatus : std::uint8_t {
    kOk,
    kNotSetUp,              ///< update() before setSurfaces()
    kWrongNodeCount,        ///< coordinates do not have the node count or dimension of setSurfaces
    kBadCoordinateView,     ///< a null coordinate pointer or a stride below 1 (CoordinatesView)
    kNonFiniteCoordinates,  ///< a node of the surfaces has a NaN or Inf coordinate
    /// a box of a segment (or a slave node) reaches beyond tol::kMaxBoxEnd (1.6e31): the search
    /// keeps them in float; setSurfaces() takes coordinates up to tol::kMaxCoordinate (1e30)
    kCoordinatesOutOfRange,
    /// memory ran out during the search (on any thread): the pairs are empty, and the next update
    /// builds the candidate list afresh
    kOutOfMemory,
    /// a master segment (in segment mode also a slave segment) is degenerate at these coordinates:
    /// collapsed, folded or twisted so that it has no normal at its centre or at a corner, or a
    /// corner normal opposite the centre's (the shapes setSurfaces() refuses); see faultSegment
    kDegenerateSegment
};

[[nodiscard]] CONTACT_API const char* updateStatusName(UpdateStatus s) noexcept;

struct UpdateStats;
/// UpdateStats::faultNode and its coordinates in x (the coordinates of that update), as in
/// "node 4 at (0, 1, nan)", 0-based; kDegenerateSegment names the segment first, as in "master
/// segment 2, collapsed or folded at corner node 4 at (0, 1, 0)" or "slave segment 0, no normal
/// at its centre". Empty when there is no such node or segment.
[[nodiscard]] CONTACT_API std::string faultText(const UpdateStats& st, const CoordinatesView& x);

/// How the two surfaces face, judged from the pairs of an update. Each segment's node order must
/// give a normal pointing out of its solid (types.hpp); a surface given with every segment the
/// other way round faces into its solid, which flips the sign of every gap (master) or of every
/// slave normal, and no single segment can show it.
enum class Orientation : std::uint8_t {
    kUnknown,          ///< too few pairs to judge (tol::kOrientationMinPairs), or no clear majority
    kConsistent,       ///< master and slave normals point at each other at the pairs
    kMasterInsideOut,  ///< normals the same way and slave nodes behind the master: the master
                       ///< faces into its solid (its gaps have the wrong sign)
    kSlaveInsideOut,   ///< normals the same way and slave nodes in front of the master: the
                       ///< slave faces into its solid
};

[[nodiscard]] CONTACT_API const char* orientationName(Orientation o) noexcept;

/// The orientation verdict and the counts it was taken from. At most tol::kOrientationSample
/// pairs, spread evenly over the pairs, are judged: a slave point (a slave node; in segment mode
/// a slave segment's centre) with the master's outward normal n_m and gap g there, and the slave
/// surface's outward normal n_s. Where n_m . n_s <= -kOrientationAlignment the normals are
/// opposed (as for two bodies touching), where it is >= +kOrientationAlignment aligned; other
/// pairs (side contacts, edges) are not counted. Aligned pairs are also sorted by the gap: in
/// front (g > kOrientationGapRel x capture distance) or behind (g < -that). Verdict: kConsistent
/// when the opposed pairs are a clear majority (tol::kOrientationMajority); with the aligned ones
/// a clear majority, kMasterInsideOut when most decided aligned pairs are behind, kSlaveInsideOut
/// when most are in front; kUnknown otherwise. Both surfaces inside-out looks like consistent
/// surfaces penetrating deeply, and is reported kConsistent; a slave given as nodes has no
/// normals: kUnknown. In self-contact (SearchOptions::selfContact) the verdict is kUnknown and
/// only the counts are taken: one surface on both sides of a pair has no master side to judge
/// it by (a whole surface inside-out gives opposed normals too).
struct OrientationCheck {
    Orientation verdict = Orientation::kUnknown;
    Index opposed = 0;  ///< pairs with opposed normals
    Index aligned = 0;  ///< pairs with aligned normals
    Index inFront = 0;  ///< aligned pairs with the slave point in front of the master
    Index behind = 0;   ///< aligned pairs with the slave point behind the master
};

/// The verdict the counts of `check` give (the rule above; its own verdict is ignored): for
/// counts summed over several searches, e.g. the ranks of a distributed one.
[[nodiscard]] CONTACT_API Orientation orientationVerdict(const OrientationCheck& check) noexcept;

/// The check update() makes, on pairs from elsewhere (e.g. a distributed search's, gathered on
/// one rank): node pairs against the slave surface whose nodes they name, segment pairs against
/// both surfaces; the same pairs, surfaces, coordinates and capture give update()'s result (in
/// self-contact its counts: update() reports kUnknown there, this check knows of no self-contact).
/// Throws std::invalid_argument for a bad view, a surface setSurfaces() would refuse (malformed
/// offsets or types, a node beyond x, NaN/Inf coordinates, a degenerate segment: SurfaceError
/// naming it), a capture that is NaN, infinite or negative, a pair naming a segment beyond the
/// surfaces or a node in no slave segment.
[[nodiscard]] CONTACT_API OrientationCheck checkOrientation(const NodePairs& pairs,
                                                            const Surface& slave,
                                                            const CoordinatesView& x,
                                                            double capture);
[[nodiscard]] CONTACT_API OrientationCheck checkOrientation(const SegmentPairs& pairs,
                                                            const Surface& master,
                                                            const Surface& slave,
                                                            const CoordinatesView& x,
                                                            double capture);

/// Counters and timings of one update.
struct UpdateStats {
    UpdateStatus status = UpdateStatus::kNotSetUp;
    bool rebuilt = false;  ///< candidate list rebuilt (false: the Verlet list was reused)
    /// The rebuild ran the sort and sweep (BroadPhaseKind::kSweep and not fallen back to the tree).
    bool swept = false;
    long long listSize = 0;  ///< pairs in the candidate list (boxes grown by the skin)
    /// pairs whose buffered AABBs overlap now (node mode: the boxes rounded outward to float)
    long long candidates = 0;
    /// Candidates whose buffered OBBs overlap (SAT). Node mode: the OBB test runs lazily, for the
    /// candidates visited nearest-first until no other can be closer; those that passed. On a
    /// reused list the master OBBs keep earlier axes, and a warm start projects a node's last
    /// closest master without the test (counted here), so this count (not the pairs) may differ
    /// from a fresh search's.
    long long satSurvivors = 0;
    /// Node mode: closest-point computations made.
    long long projections = 0;
    /// Master segments whose boxes were made. All of them, but with two surfaces an update on a
    /// reused list keeps the boxes of a master none of whose nodes moved since the last update.
    Index masterBoxes = 0;
    Index pairs = 0;  ///< contact pairs reported
    /// The node an update failed on, an index into its coordinates, else kNoIndex.
    /// kNonFiniteCoordinates: the lowest node of the surfaces with a NaN or Inf coordinate;
    /// kCoordinatesOutOfRange: the node of the surfaces with the coordinate largest in magnitude
    /// (the lowest such node); kDegenerateSegment: the corner node where faultSegment collapses or
    /// folds (kNoIndex: it has no normal at its centre). faultText() puts it in words.
    Index faultNode = kNoIndex;
    /// kDegenerateSegment: the segment, an index into the master surface, or into the slave surface
    /// when faultInSlave: the lowest degenerate master, else the lowest degenerate slave segment.
    /// Otherwise kNoIndex.
    Index faultSegment = kNoIndex;
    bool faultInSlave = false;
    /// Worst projection status among reported pairs (kConverged < kOnBoundary < ...).
    ProjectionStatus worstProjection = ProjectionStatus::kConverged;
    /// Whether the surfaces face the way their node order says (a whole surface inside-out).
    OrientationCheck orientation;
    double timeBounds = 0.0;  ///< ms: boxes of all segments
    double timeBroad = 0.0;  ///< ms: the box index's build and queries (0 when the list was reused)
    double timeNarrow = 0.0;  ///< ms: exact AABB and SAT tests (segment mode)
    /// ms: closest points, gaps, normals; node mode: with the AABB and OBB tests of each node.
    double timeProjection = 0.0;
    [[nodiscard]] double timeTotal() const noexcept {
        return timeBounds + timeBroad + timeNarrow + timeProjection;
    }
};

/// Contact search between a master and a slave surface, updated every increment.
///
/// Lifecycle: construct with options; setSurfaces() once (validates and sizes every buffer);
/// update() with the current coordinates at every increment or iteration; read nodePairs() or
/// segmentPairs(). update() allocates nothing once the buffers are sized (a rebuild of the
/// candidate list may, and in segment mode the pair columns grow, geometrically, when more pairs
/// survive than ever before). Several searches may live side by side; one search is not for
/// concurrent use. Movable, not copyable; a moved-from search is empty: not set up (update()
/// returns kNotSetUp, the pairs are empty, the accessors give empty surfaces and default options),
/// and setSurfaces() on it throws std::logic_error.
class CONTACT_API ContactSearch {
public:
    /// Throws std::invalid_argument for options.threads outside 1 .. kMaxThreads, a negative or
    /// non-finite skinRelative, and a mode or broadPhase that is none of its enum's values.
    explicit ContactSearch(const SearchOptions& options = {});
    ~ContactSearch();
    ContactSearch(ContactSearch&& other) noexcept;
    ContactSearch& operator=(ContactSearch&& other) noexcept;
    ContactSearch(const ContactSearch&) = delete;
    ContactSearch& operator=(const ContactSearch&) = delete;

    /// Registers the surfaces. The search keeps its own copies (pass temporaries or std::move
    /// them in), so nothing the caller changes later reaches it; call setSurfaces again to change
    /// them. Master and slave equal (same types and connectivity): one surface in self-contact.
    /// \param [in] master, slave  surfaces of one dimension; may be empty
    /// \param [in] x              current coordinates: node count and validation
    /// Throws std::invalid_argument naming the surface and segment for: a bad coordinate view
    /// (null pointer, stride), mixed dimensions, node indices out of range, NaN/Inf coordinates or
    /// ones beyond tol::kMaxCoordinate (1e30), degenerate (collapsed, zero-size) segments; and for
    /// a capture distance or skin beyond 1e30. A refused call leaves the search as it was. Out of
    /// memory throws std::bad_alloc and leaves the search not set up (no pairs).
    void setSurfaces(Surface master, Surface slave, const CoordinatesView& x);

    /// Node-to-segment search of a slave given as nodes (an Abaqus TYPE=NODE surface).
    /// Throws std::invalid_argument in segment mode, or for node indices out of range or
    /// non-finite coordinates (or beyond 1e30); the self-contact rule has no segments to apply to
    /// here. Out of memory as the overload above.
    void setSurfaces(Surface master, const std::vector<Index>& slaveNodes,
                     const CoordinatesView& x);

    /// Searches with the current coordinates. Never throws; problems come back as the status (out
    /// of memory on any thread included: kOutOfMemory).
    /// \pre setSurfaces() was called; x has the same node count and dimension.
    [[nodiscard]] UpdateStats update(const CoordinatesView& x);

    /// Node-to-segment pairs of the last successful update (an update that returns a status other
    /// than kOk leaves them as they were, except kOutOfMemory, which leaves none). Throws
    /// std::logic_error in segment-to-segment mode.
    [[nodiscard]] const NodePairs& nodePairs() const;
    /// Segment-to-segment pairs of the last successful update (as nodePairs()). Throws
    /// std::logic_error in node-to-segment mode.
    [[nodiscard]] const SegmentPairs& segmentPairs() const;
    /// The surfaces as registered (the slave is empty when it was given as nodes).
    [[nodiscard]] const Surface& master() const noexcept;
    [[nodiscard]] const Surface& slave() const noexcept;
    /// Capture distance in length units (resolved at setSurfaces).
    [[nodiscard]] double captureDistance() const noexcept;
    /// Skin distance in length units (resolved at setSurfaces).
    [[nodiscard]] double skinDistance() const noexcept;
    /// Mean characteristic size of the master segments at setSurfaces.
    [[nodiscard]] double meanMasterSize() const noexcept;
    /// The slave nodes searched in node mode (sorted, unique).
    [[nodiscard]] const std::vector<Index>& slaveNodes() const noexcept;
    [[nodiscard]] const SearchOptions& options() const noexcept;
    /// True once setSurfaces() has succeeded (its surfaces may be empty); false before, after a
    /// setSurfaces() that ran out of memory, and once moved from.
    [[nodiscard]] bool isSetUp() const noexcept;
    /// Bytes held by the search structures (boxes, candidate lists, box index), not the output.
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    struct CONTACT_NO_EXPORT Impl;                    // hidden, though nested in an exported class
    [[nodiscard]] const Impl& impl() const noexcept;  // a moved-from search reads an empty one
    std::unique_ptr<Impl> impl_;
};

}  // namespace contact
