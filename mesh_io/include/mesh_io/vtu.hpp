// SPDX-License-Identifier: MIT
// Contact results as VTK XML files for ParaView, from the library's own types: usable from a
// solver (no mesh_io::Model), one file per increment or a .pvd series of them.
#pragma once

#include "contact/pairs.hpp"
#include "contact/surface.hpp"
#include "mesh_io/output.hpp"

#include <cstddef>
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
/// above, the pairs' segment numbers and the capture (finite, 0 or more) by computeOverlaps
/// (std::invalid_argument).
void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const contact::Surface& slave, const contact::CoordinatesView& x,
                     const contact::SegmentPairs& pairs, double capture,
                     const VtuOptions& options = {});

/// A time series: one VTU per increment, <dir>/<stem>_<k>.vtu (k = 0, 1, ...) next to the .pvd,
/// and the .pvd collection, written again after each increment so that what was written so far
/// is always readable. The first write of each file follows VtuOptions::write; a file the series
/// itself has written (the .pvd once committed, an increment file of a refused step) it replaces.
/// A step is recorded only once its VTU and the .pvd are written: a refused write leaves the
/// series as it was. One live series per .pvd in a process; movable, not copyable (a moved-from
/// series refuses writes with std::logic_error).
class VtuSeries {
public:
    /// Checks that the path ends in ".pvd" and, by OutputFile's rules (checkOutputs), the .pvd
    /// and the VTU files of the first `steps` increments: given the number of increments, a
    /// series that cannot be written is refused before the first, not left half written.
    /// Throws std::runtime_error naming the path (also when another live series of this process
    /// writes the same .pvd, under any spelling of its path), std::invalid_argument when
    /// steps < 0.
    VtuSeries(std::string pvdPath, VtuOptions options = {}, int steps = 0);
    ~VtuSeries();
    VtuSeries(VtuSeries&& other) noexcept;
    VtuSeries& operator=(VtuSeries&& other) noexcept;
    VtuSeries(const VtuSeries&) = delete;
    VtuSeries& operator=(const VtuSeries&) = delete;

    /// The files a series of `steps` increments writes: the .pvd, then <stem>_0000.vtu, ...
    /// (checkOutputs them with a program's other outputs). Throws std::runtime_error when the
    /// path does not end in ".pvd", std::invalid_argument when steps < 0.
    [[nodiscard]] static std::vector<std::string> plannedFiles(const std::string& pvdPath,
                                                               int steps);

    /// Writes the next increment at `time` (written to the .pvd with %.17g). Before anything is
    /// written, throws std::invalid_argument for a time that is not finite or not after the
    /// previous step's (ParaView orders steps by time; equal times are refused too), naming
    /// both; the pairs as writeContactVtu does; std::logic_error on a moved-from series.
    void write(double time, const contact::Surface& master, const contact::Surface& slave,
               const contact::CoordinatesView& x, const contact::NodePairs& pairs);
    /// Segment mode: `capture` as writeContactVtu takes it (finite, 0 or more, else
    /// std::invalid_argument).
    void write(double time, const contact::Surface& master, const contact::Surface& slave,
               const contact::CoordinatesView& x, const contact::SegmentPairs& pairs,
               double capture);

    /// The VTU files written so far, in order.
    [[nodiscard]] const std::vector<std::string>& files() const noexcept { return files_; }

private:
    [[nodiscard]] std::string beginStep(double time) const;
    [[nodiscard]] VtuOptions stepOptions() const;
    void endStep(const std::string& file, double time);
    void writeCollection(const std::string& file, double time);
    void release() noexcept;

    std::string pvdPath_;  // empty: moved from
    std::string owned_;    // the .pvd's absolute path, held in the process' registry
    VtuOptions options_;
    std::vector<std::string> files_;
    std::vector<double> times_;
    std::size_t vtuWritten_ = 0;  // increment files this series has written (0 .. k-1)
};

}  // namespace mesh_io
