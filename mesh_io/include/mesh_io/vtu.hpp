// SPDX-License-Identifier: MIT
// Contact results as VTK XML files for ParaView, from the library's own types: usable from a
// solver (no mesh_io::Model), one file per increment or a .pvd series of them.
#pragma once

#include "contact/pairs.hpp"
#include "contact/surface.hpp"
#include "mesh_io/output.hpp"

#include <string>
#include <vector>

namespace mesh_io {

/// How a VTU file is written.
struct VtuOptions {
    bool ascii = false;    ///< ASCII data inline instead of zlib-compressed binary appended data
    WriteOptions write;    ///< what may be replaced (OutputFile's rules)
    int subdivisions = 4;  ///< segment mode: refinement of the capture cut on curved faces
};

/// What a VTU file holds (one piece per interface):
///
///   points      the nodes of both surfaces (and of a slave node list), then extra points:
///               closest points (node mode), the drawn parts in contact (segment mode)
///   point data  gap, normal: the pair's gap and master normal at paired slave nodes and their
///               closest points (node mode), at the points of the parts in contact (segment
///               mode); NaN everywhere else, so ParaView's default view (coloured by gap) shows
///               the contact and nothing else. paired: 1 at those points, else 0. node_id: the
///               node's id (or index), -1 for extra points
///   cells       role 0: master segments, 1: slave segments (vertices for a node list),
///               2: node mode, a line from each paired slave node to its closest point,
///               3: segment mode, the part of each pair's overlap within the capture distance
///               (a polygon in 3D, a line on the master in 2D)
///   cell data   role, element_id (the segment's element, or its index), face, pair_count (pairs
///               in contact through the segment); segment mode also overlap_area, capture_area,
///               penetration_area, gap_min, gap_max on role 3 cells (NaN on the others)
///   instances   models with part instances (the tool's files, writeVtu), whose ids repeat
///               across them: node_instance (point data) and element_instance (cell data), the
///               index of the instance in the list of the file's comment, -1 for none

/// Node-to-segment pairs of a search: surfaces and coordinates as given to it. Before anything is
/// written, throws std::invalid_argument naming what does not fit: a surface whose offsets or node
/// numbers do not fit it or x, a pair whose master segment the master lacks or whose slave node
/// is not one of the slave surface's (of the slave nodes).
void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const contact::Surface& slave, const contact::CoordinatesView& x,
                     const contact::NodePairs& pairs, const VtuOptions& options = {});
/// The same with the slave given as nodes.
void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const std::vector<contact::Index>& slaveNodes,
                     const contact::CoordinatesView& x, const contact::NodePairs& pairs,
                     const VtuOptions& options = {});
/// Segment-to-segment pairs: each pair's overlap is cut to gap <= capture (the search's capture
/// distance, ContactSearch::captureDistance()) and drawn with its areas. Surfaces checked as
/// above, the pairs' segment numbers by computeOverlaps (std::invalid_argument).
void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const contact::Surface& slave, const contact::CoordinatesView& x,
                     const contact::SegmentPairs& pairs, double capture,
                     const VtuOptions& options = {});

/// A time series: one VTU per increment, <dir>/<stem>_<k>.vtu (k = 0, 1, ...) next to the .pvd,
/// and the .pvd collection, written again after each increment so that what was written so far
/// is always readable. The first write of each file follows VtuOptions::write; the .pvd is
/// replaced at later increments (it is the series' own file).
class VtuSeries {
public:
    /// Checks that the path ends in ".pvd" and, by OutputFile's rules (checkOutputs), the .pvd
    /// and the VTU files of the first `steps` increments: given the number of increments, a
    /// series that cannot be written is refused before the first, not left half written.
    /// Throws std::runtime_error naming the path.
    VtuSeries(std::string pvdPath, VtuOptions options = {}, int steps = 0);

    /// The files a series of `steps` increments writes: the .pvd, then <stem>_0000.vtu, ...
    /// (checkOutputs them with a program's other outputs). Throws std::runtime_error when the
    /// path does not end in ".pvd", std::invalid_argument when steps < 0.
    [[nodiscard]] static std::vector<std::string> plannedFiles(const std::string& pvdPath,
                                                               int steps);

    void write(double time, const contact::Surface& master, const contact::Surface& slave,
               const contact::CoordinatesView& x, const contact::NodePairs& pairs);
    void write(double time, const contact::Surface& master, const contact::Surface& slave,
               const contact::CoordinatesView& x, const contact::SegmentPairs& pairs,
               double capture);

    /// The VTU files written so far, in order.
    [[nodiscard]] const std::vector<std::string>& files() const noexcept { return files_; }

private:
    void writeCollection();

    std::string pvdPath_;
    VtuOptions options_;
    std::vector<std::string> files_;
    std::vector<double> times_;
};

}  // namespace mesh_io
