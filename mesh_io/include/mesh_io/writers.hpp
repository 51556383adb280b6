// SPDX-License-Identifier: MIT
// Results of a model's interfaces out: pairs and overlaps as CSV, a JSON report, a VTU file.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/output.hpp"
#include "mesh_io/report.hpp"

#include <string>
#include <vector>

namespace mesh_io {

/// What the writers put in, and where they may write (OutputFile's rules: "-" is standard
/// output, FIFOs and character devices are streams, regular files are replaced only with
/// WriteOptions::overwrite, input files never).
struct WriterOptions {
    WriteOptions write;
    bool coordinates = false;  ///< CSV and JSON pairs carry slave and closest-point coordinates
    bool jsonPairs = false;    ///< the JSON report lists every pair
    bool vtuAscii = false;     ///< ASCII VTU instead of zlib-compressed binary appended data
};

/// Pairs as CSV, ids as in the file ("<instance>.<id>" in Abaqus assemblies), numbers as %.17g. All
/// reports must use one mode (std::invalid_argument otherwise).
///   node mode:    interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz
///                 (eta and nz zero in 2D), with coordinates also x,y,z (the slave node) and
///                 px,py,pz (its closest point)
///   segment mode: interface,slave_element,slave_face,master_element,master_face,overlap_area,
///                 capture_area,penetration_area (areas 0 where the pair does not overlap), with
///                 coordinates also cx,cy,cz (centroid of the part in contact, nan if none)
void writePairsCsv(const std::string& path, const Model& model,
                   const std::vector<InterfaceReport>& reports, const WriterOptions& options);

/// Segment mode: every overlapping pair,
/// `interface,slave_element,slave_face,master_element,master_face,overlap_area,capture_area,
/// penetration_area,capture_area_error,penetration_area_error,gap_min,gap_max,cx,cy,cz` (areas
/// are lengths in 2D;
/// gap range and centroid of the part in contact, nan where there is none). Node-mode
/// interfaces add no rows.
void writeOverlapsCsv(const std::string& path, const Model& model,
                      const std::vector<InterfaceReport>& reports, const WriterOptions& options);

/// JSON report: {"model", "interfaces": [{index, kind, slave, master, mode, capture_distance,
/// capture_relative, master_segments, slave_segments, slave_nodes, candidates, sat_survivors,
/// pairs, gap: {min, p05, median, p95, max} (null without pairs), min_gap, max_gap,
/// penetrating (node pairs with gap < 0, or segment pairs with a penetrating part), orientation
/// (contact::orientationName of the update's verdict), segment mode:
/// overlaps, contact_pairs, overlap_area, capture_area, capture_area_error, penetration_area,
/// penetration_area_error (else
/// null), time_ms: {read, bounds, broad, narrow, projection, overlaps, total}, pairs_file[,
/// pair_list]}]}. Segment mode's gap figures are over the area in contact only. Ids in pair_list
/// are numbers, or "<instance>.<id>" strings in Abaqus assemblies.
void writeJsonReport(const std::string& path, const Model& model,
                     const std::vector<InterfaceReport>& reports, const WriterOptions& options);

/// VTU, one piece per interface, laid out as mesh_io/vtu.hpp describes, with the model's node
/// ids and each segment's element id and face.
void writeVtu(const std::string& path, const Model& model,
              const std::vector<InterfaceReport>& reports, const WriterOptions& options);

/// The mortar quantities of one interface, as files in `dir` (created if missing), named
/// `<prefix>_D.mtx`, `<prefix>_M.mtx` (Matrix Market, coordinate real general: D slave x slave,
/// M slave x master; rows and columns are the node ids of the model file, so both are
/// (largest id) x (largest id)) and `<prefix>_nodes.csv` (`node_id,weighted_gap,nodal_area`, one
/// row per slave node carrying an integral). In Abaqus assemblies, where ids repeat across
/// instances, rows and columns are the node numbers in the model's order from 1; the nodes file
/// is `node_number,node_label,weighted_gap,nodal_area`, and a fourth file,
/// `<prefix>_master_nodes.csv` (`node_number,node_label`), names M's columns. `description` goes
/// into the comment lines. Each written atomically; existing files only with options.overwrite.
void writeMortarFiles(const std::string& dir, const std::string& prefix, const Model& model,
                      const contact::MortarOperators& op, const std::string& description,
                      const WriteOptions& options);

/// The files writeMortarFiles writes: `<dir>/<prefix>_D.mtx`, `_M.mtx`, `_nodes.csv`, and for
/// an assembly (a model with part instances) `_master_nodes.csv`.
[[nodiscard]] std::vector<std::string> mortarFileNames(const std::string& dir,
                                                       const std::string& prefix, bool assembly);

}  // namespace mesh_io
