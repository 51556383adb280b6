// SPDX-License-Identifier: MIT
// Results out: pairs as CSV, a JSON report, and a VTU file for ParaView.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/overlaps.hpp"

#include <string>
#include <vector>

namespace mesh_io {

/// One searched interface and its results, as the writers need them. Pointers are not owned.
struct InterfaceReport {
    int index = 1;     ///< 1-based, in file order (each *CONTACT PAIR / *TIE data line)
    std::string kind;  ///< "contact pair", "tie" or "command line"
    const ContactSurface* master = nullptr;
    const ContactSurface* slave = nullptr;
    contact::SearchMode mode = contact::SearchMode::kNodeToSegment;
    double captureDistance = 0.0;
    bool captureRelative = true;
    double captureFactor = 0.5;  ///< the relative factor, when captureRelative
    Index slaveNodes = 0;
    /// The pairs: nodePairs in node-to-segment mode, segmentPairs in segment-to-segment mode.
    const contact::NodePairs* nodePairs = nullptr;
    const contact::SegmentPairs* segmentPairs = nullptr;
    contact::UpdateStats stats;
    double timeRead = 0.0;  ///< ms, reading the model (shared by all interfaces)
    std::string pairsFile;  ///< where the pairs were written ("" if not)
    /// Segment mode: the overlap of each pair with one (nullptr in node mode).
    const std::vector<PairOverlap>* overlaps = nullptr;
};

/// Gap summary of node-to-segment pairs (no pairs: count 0, gaps NaN).
struct GapSummary {
    double minGap;
    double maxGap;
    Index penetrating = 0;
};
[[nodiscard]] GapSummary summarizeGaps(const contact::NodePairs& pairs);

/// What a writer may do with an existing file at its path.
struct WriteOptions {
    bool overwrite = false;           ///< replace an existing output file (never an input)
    std::vector<std::string> inputs;  ///< files that must never be written
};

/// Pairs as CSV. Node mode: `interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz`
/// (ids as in the file; eta and nz zero in 2D; %.17g). Segment mode:
/// `interface,slave_element,slave_face,master_element,master_face`. All reports must use one
/// mode (std::invalid_argument otherwise). Written atomically (temporary file, then rename).
void writePairsCsv(const std::string& path, const Model& model,
                   const std::vector<InterfaceReport>& reports, const WriteOptions& options);

/// Overlaps of segment pairs as CSV:
/// `interface,slave_element,slave_face,master_element,master_face,area,cx,cy,cz,gap_min,gap_max`
/// (`area` is the overlap length in 2D; cx, cy, cz the centroid). Interfaces without overlaps
/// (node mode) add no rows. Written atomically.
void writeOverlapsCsv(const std::string& path, const Model& model,
                      const std::vector<InterfaceReport>& reports, const WriteOptions& options);

/// JSON report: {"model", "interfaces": [{index, slave, master, mode, capture_distance, ...,
/// overlap_area (segment mode: sum of the pairs' overlap areas, 2D lengths; else null),
/// time_ms: {read, bounds, broad, narrow, projection, total}, pairs_file[, pair_list]}]}.
void writeJsonReport(const std::string& path, const Model& model,
                     const std::vector<InterfaceReport>& reports, bool withPairs,
                     const WriteOptions& options);

/// VTU (ASCII, one piece per interface): master and slave segments as cells (role 0 and 1),
/// pairs as line cells (role 2) from each slave node to its closest point; point data gap, normal,
/// paired, node_id on slave nodes; cell data role, element_id, face, pair_count. Segment mode
/// adds the overlaps (role 3): polygons in 3D, the clipped stretch on the master in 2D.
void writeVtu(const std::string& path, const Model& model,
              const std::vector<InterfaceReport>& reports, const WriteOptions& options);

/// The mortar quantities of one interface, as three files in `dir` (created if missing), named
/// `<prefix>_D.mtx`, `<prefix>_M.mtx` (Matrix Market, coordinate real general: D slave x slave,
/// M slave x master; rows and columns are the node ids of the model file, so both are
/// (largest id) x (largest id)) and `<prefix>_nodes.csv` (`node_id,weighted_gap,nodal_area`, one
/// row per slave node carrying an integral). `description` goes into the files' comment lines.
/// Each written atomically; existing files only with options.overwrite.
void writeMortarFiles(const std::string& dir, const std::string& prefix, const Model& model,
                      const contact::MortarOperators& op, const std::string& description,
                      const WriteOptions& options);

}  // namespace mesh_io
