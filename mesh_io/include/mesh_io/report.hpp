// SPDX-License-Identifier: MIT
// One searched interface and its figures: what the report, the JSON and the other writers show.
#pragma once

#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/overlaps.hpp"

#include <ostream>
#include <string>

namespace mesh_io {

/// Gap distribution of one interface. Node mode: over the pairs' gaps (nearest rank). Segment
/// mode: over the area in contact (gap <= capture), weighted by area.
struct GapSummary {
    Index count = 0;   ///< node pairs, or segment pairs with part of their overlap in contact
    double min = 0.0;  ///< all NaN when count is 0; negative = penetration
    double p05 = 0.0;
    double median = 0.0;
    double p95 = 0.0;
    double max = 0.0;
    Index penetrating = 0;         ///< node pairs with gap < 0, or segment pairs penetrating
    double penetrationArea = 0.0;  ///< segment mode: area with gap < 0 (node mode: 0)
};

/// Quantiles of the node pairs' gaps: the smallest gap with at least q of the pairs at or below.
[[nodiscard]] GapSummary summarizeGaps(const contact::NodePairs& pairs);

/// Quantiles of the gap over the area in contact: the smallest gap with at least q of that area
/// at or below it. Each pair's drawn part is fanned into triangles from its first point, each
/// carrying its share of the pair's captureArea with the gap affine between its corners' gaps
/// (2D: the stretch between its two ends, the gap uniform between theirs); a pair in contact with
/// nothing drawn (a curved pair whose corners are beyond the capture) carries its gap range as a
/// uniform stretch. Exact where the faces are flat (the gap is affine); on curved faces the gap
/// is taken as the linear interpolant of the drawn points' gaps. min and max are the pairs' gap
/// ranges.
[[nodiscard]] GapSummary summarizeGaps(const Overlaps& overlaps);

/// One searched interface and its results, as the report and the writers need them. Pointers
/// are not owned.
struct InterfaceReport {
    int index = 1;     ///< 1-based, in file order (each *CONTACT PAIR / *TIE data line)
    std::string kind;  ///< "contact pair", "tie" or "command line"
    const ContactSurface* master = nullptr;
    const ContactSurface* slave = nullptr;
    contact::SearchMode mode = contact::SearchMode::kNodeToSegment;
    double captureDistance = 0.0;
    bool captureRelative = true;
    double captureFactor = 0.5;  ///< the relative factor, when captureRelative
    double meanMasterSize = 0.0;
    Index slaveNodes = 0;
    /// Master and slave are one surface, searched against itself (SearchOptions::selfContact):
    /// said in the report, and no orientation verdict (a surface facing itself has no outside).
    bool selfContact = false;
    /// The stage counts (candidates, SAT survivors) are the sums of MPI ranks' searches that may
    /// overlap (self-contact: a pair, or a slave node, near a rank boundary is searched on each
    /// rank holding it), not the serial search's: said beside them.
    bool countsOverlapRanks = false;
    /// The pairs: nodePairs in node-to-segment mode, segmentPairs in segment-to-segment mode.
    const contact::NodePairs* nodePairs = nullptr;
    const contact::SegmentPairs* segmentPairs = nullptr;
    /// Segment mode: every pair's overlap and its part in contact (nullptr in node mode).
    const Overlaps* overlaps = nullptr;
    GapSummary gaps;  ///< summarizeGaps of the pairs or the overlaps
    contact::UpdateStats stats;
    double timeRead = 0.0;      ///< ms, reading the model (shared by all interfaces)
    double timeOverlaps = 0.0;  ///< ms, segment mode: clipping and cutting the overlaps
    std::string pairsFile;      ///< where the pairs were written ("" if not)
};

/// The text report of one interface (what contact-search prints): surfaces with segment types and
/// counts, capture distance, stage counts, the gap quantiles and penetration, segment mode's
/// areas, the time per stage.
void printInterface(std::ostream& out, const InterfaceReport& r);

/// The reader's notes (Model::notes), one "  note: " line each: the first 10, then how many more.
void printNotes(std::ostream& out, const Model& model);

/// What a model offers to search, without searching (contact-search --list): each surface (Gmsh:
/// physical group) with its segment types and counts (or why it cannot be searched), and the
/// interfaces the file defines, in the file's own terms.
void listModel(std::ostream& out, const Model& model);

/// "3025 Quad4, 12 Tri3": the segment types of a surface with their counts.
[[nodiscard]] std::string segmentTypeCounts(const contact::Surface& s);

}  // namespace mesh_io
