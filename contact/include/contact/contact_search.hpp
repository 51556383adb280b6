// SPDX-License-Identifier: MIT
// The solver-facing facade: register two surfaces once, then update every increment.
#pragma once

#include "contact/broad_phase.hpp"
#include "contact/pairs.hpp"
#include "contact/projection.hpp"
#include "contact/surface.hpp"
#include "contact/types.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <utility>
#include <vector>

namespace contact {

/// What a pair is (docs/design.md, "What a pair is").
enum class SearchMode : std::uint8_t {
    kNodeToSegment,     ///< each slave node with the master segment holding its closest point
    kSegmentToSegment,  ///< each (slave segment, master segment) whose buffered volumes overlap
};

/// Broad-phase structure that finds the candidate pairs (both report exactly every pair of
/// overlapping fat boxes; only speed and memory differ).
enum class BroadPhaseKind : std::uint8_t {
    kKdTree,  ///< nanoflann kd-trees of box centres per size class (BroadPhase): the design default
    kBoxTree,  ///< static bounding-volume tree of float boxes rounded outward (BoxTree): faster
    /// Sort and sweep of both sets of fat boxes along their long axis (BoxSweep): the fastest for
    /// the contact curves of 2D models. A rebuild where the sweep would scan more than
    /// BoxSweep::kScanPerBoxLimit pairs per box (surfaces) uses the box tree instead. The sweep
    /// itself runs on one thread.
    kSweep,
};

/// Options of a search, fixed at construction.
struct SearchOptions {
    /// Capture distance: a length when captureRelative is false, else a fraction of the mean
    /// master segment size (characteristicSize), resolved once at setSurfaces.
    double capture = 0.5;
    bool captureRelative = true;
    SearchMode mode = SearchMode::kNodeToSegment;
    /// Self-contact: a slave node never pairs with a master segment that shares a node with any
    /// slave segment holding that node (its own segments and their neighbours); in segment mode,
    /// segments sharing a node never pair. With master and slave the same surface, each segment
    /// pair is reported once (slave index < master index).
    bool selfContact = false;
    /// Extra skin added to the boxes when the candidate list is built, as a fraction of the mean
    /// master segment size. The list is reused while every current box lies inside its box of the
    /// last build (Verlet list): larger = fewer rebuilds, more candidates. 0 = rebuild every
    /// update.
    double skinRelative = 0.1;
    /// Worker threads (OpenMP); results are bit-identical and in the same order for any count.
    int threads = 1;
    BroadPhaseKind broadPhase = BroadPhaseKind::kKdTree;
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
    kCoordinatesOutOfRange
};

[[nodiscard]] const char* updateStatusName(UpdateStatus s) noexcept;

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
    /// reused list the master OBBs keep earlier axes, so this count (not the pairs) may differ
    /// from a fresh search's.
    long long satSurvivors = 0;
    /// Node mode: closest-point computations made.
    long long projections = 0;
    Index pairs = 0;  ///< contact pairs reported
    /// Worst projection status among reported pairs (kConverged < kOnBoundary < ...).
    ProjectionStatus worstProjection = ProjectionStatus::kConverged;
    double timeBounds = 0.0;  ///< ms: boxes of all segments
    double timeBroad = 0.0;   ///< ms: kd-tree queries (0 when the list was reused)
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
/// update() with the current coordinates at every increment or iteration; read pairs().
/// update() allocates nothing once the buffers are sized (a rebuild of the kd-tree may, inside
/// nanoflann). Several searches may live side by side; one search is not for concurrent use.
/// Non-copyable: the kd-tree references its own arrays.
class ContactSearch {
public:
    explicit ContactSearch(const SearchOptions& options = {});
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
    /// a capture distance or skin beyond 1e30. A refused call leaves the search as it was.
    void setSurfaces(Surface master, Surface slave, const CoordinatesView& x);

    /// Node-to-segment search of a slave given as nodes (an Abaqus TYPE=NODE surface).
    /// Throws std::invalid_argument in segment mode, or for node indices out of range or
    /// non-finite coordinates (or beyond 1e30); the self-contact rule has no segments to apply to
    /// here.
    void setSurfaces(Surface master, std::vector<Index> slaveNodes, const CoordinatesView& x);

    /// Searches with the current coordinates. Never throws; problems come back as the status.
    /// \pre setSurfaces() was called; x has the same node count and dimension.
    [[nodiscard]] UpdateStats update(const CoordinatesView& x);

    /// Node-to-segment pairs of the last successful update (an update that returns a status other
    /// than kOk leaves them as they were). Throws std::logic_error in segment-to-segment mode.
    [[nodiscard]] const NodePairs& nodePairs() const;
    /// Segment-to-segment pairs of the last successful update. Throws std::logic_error in
    /// node-to-segment mode.
    [[nodiscard]] const SegmentPairs& segmentPairs() const;
    /// The surfaces as registered (the slave is empty when it was given as nodes).
    [[nodiscard]] const Surface& master() const noexcept { return master_; }
    [[nodiscard]] const Surface& slave() const noexcept { return sameSurface_ ? master_ : slave_; }
    /// Capture distance in length units (resolved at setSurfaces).
    [[nodiscard]] double captureDistance() const noexcept { return capture_; }
    /// Skin distance in length units (resolved at setSurfaces).
    [[nodiscard]] double skinDistance() const noexcept { return skin_; }
    /// Mean characteristic size of the master segments at setSurfaces.
    [[nodiscard]] double meanMasterSize() const noexcept { return meanMasterSize_; }
    /// The slave nodes searched in node mode (sorted, unique).
    [[nodiscard]] const std::vector<Index>& slaveNodes() const noexcept { return slaveNodes_; }
    [[nodiscard]] const SearchOptions& options() const noexcept { return options_; }
    /// Bytes held by the search structures (boxes, candidate lists, kd-tree), not the output.
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    void setup(const char* fn, Surface& master, Surface& slave,
               const std::vector<Index>* slaveNodes, const CoordinatesView& x);
    // What computeBoxes found: every box inside its fat box; the slave fat boxes made (segment
    // mode, no list to check); the largest |box end|.
    struct BoxPass {
        bool insideFat = false;
        bool slaveFatMade = false;
        double boxEnd = 0.0;
    };
    void computeBoxes(const CoordinatesView& x, UpdateStats& stats, BoxPass& pass);
    bool rebuildCandidates(const CoordinatesView& x, const BoxPass& pass);
    void treeCandidates();
    [[nodiscard]] FloatBox slaveFatBox(Index k) const noexcept;
    void encodeList();
    void firstSlots();
    void sweepCandidates();
    [[nodiscard]] bool allowed(Index k, Index j, const std::vector<Index>& excluded) const noexcept;
    class Exclusions;
    void narrowPhase(const CoordinatesView& x, UpdateStats& stats);
    [[nodiscard]] bool exactBoxesOverlap(Index k, Index j, const CoordinatesView& x) const noexcept;
    void projectNodes(const CoordinatesView& x, UpdateStats& stats);
    void collectSegmentPairs(UpdateStats& stats);

    SearchOptions options_;
    bool setUp_ = false;
    Surface master_;
    Surface slave_;  // empty when sameSurface_ (slave() is master_) or given as nodes
    bool sameSurface_ = false;
    int dim_ = 3;
    Index numNodes_ = 0;
    double capture_ = 0.0;
    double skin_ = 0.0;
    double meanMasterSize_ = 0.0;
    bool haveList_ = false;
    bool keepAxes_ = false;  // node mode: the next reuse may keep the master OBB axes and offsets

    // Slave items: nodes (node mode) or segments (segment mode).
    std::vector<Index> slaveNodes_;
    Index numSlaveItems_ = 0;

    // Master buffered boxes now (capture + rounding pad), rounded outward to float. A slave item's
    // boxes are made from the coordinates when the narrow phase (projection) reaches it.
    std::vector<FloatBox> masterBox_;
    double boxScale_ = 0.0;  // segment mode: bound of |end| of the float boxes (the fat boxes')
    // Fat boxes of the last build: the boxes then, grown by skin / 2 and rounded outward to float.
    // slaveFat_: segment mode with two surfaces (else slaveFatBox makes them).
    std::vector<FloatBox> masterFat_, slaveFat_;
    // Node mode: slave node positions of the last build rounded to float (3 per node). Node k's fat
    // box is ref -+ slaveHalf_ rounded outward to float (slaveFatBox): it holds every point within
    // skin / 2 of the node then, and every point within slaveReach_ of ref (rebuildCandidates).
    std::vector<float> slaveRef_;
    double slaveHalf_ = 0.0;
    double slaveReach_ = 0.0;
    std::vector<PackedObb3> masterObb3_;          // segment mode: buffered, packed (56 bytes)
    std::vector<CentredObb3> masterCentredObb3_;  // node mode: about masterBox_ (32 bytes)
    std::vector<Obb2> masterObb2_;

    // Self-contact, node mode: per slave node, the nodes it must not pair with (those of every
    // slave segment holding it), coded as the candidate list is (detail::CandidateWriter, blocks of
    // pairBlock_ nodes from byte exclBlock_[b]); built once. Segment mode keeps none: a slave
    // segment's set is its own nodes.
    std::vector<std::uint8_t> exclCode_;
    std::vector<std::size_t> exclBlock_;

    // Bounding-volume hierarchy over the master fat boxes, queried by the slave fat boxes.
    BoxTree tree_;
    BroadPhase kdTree_;  // BroadPhaseKind::kKdTree
    BoxSweep sweep_;     // BroadPhaseKind::kSweep, held during a rebuild only
    std::vector<std::vector<Index>> threadHits_;
    // Verlet candidate list, slave item -> master segments: the code of detail::CandidateReader,
    // from byte candBlock_[b] for block b of pairBlock_ items; listCount_ masters in all. The sweep
    // writes it as CSR first (candOffsets_, candMasters_; freed once coded).
    std::vector<Index> candOffsets_, candMasters_;
    std::vector<std::uint8_t> candCode_;
    std::vector<std::size_t> candBlock_;
    long long listCount_ = 0;
    // Segment mode: a bit per candidate slot (in list order), 1 where the pair survived the narrow
    // phase; block b's first slot is candFirst_[b], a multiple of 8.
    std::vector<std::uint8_t> survivor_;
    std::vector<std::size_t> candFirst_;
    // Node mode, per thread: (lower bound, master) of one node's survivors.
    std::vector<std::vector<std::pair<double, Index>>> threadOrder_;
    // Slave items per block of work, and the pairs each block found (node mode: threads > 1).
    Index pairBlock_ = 1024;
    std::vector<Index> blockPairs_;
    // The code of each chunk of slave items during a rebuild with threads (freed after it).
    std::vector<std::vector<std::uint8_t>> threadCode_;

    NodePairs nodePairs_;
    SegmentPairs segmentPairs_;
};

}  // namespace contact
