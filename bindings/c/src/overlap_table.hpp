// SPDX-License-Identifier: MIT
// The overlaps of a segment search as flat arrays, for the C API and the Python package: the one
// place the bindings call mesh_io::computeOverlaps.
#pragma once

#include "contact/clipping.hpp"
#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"

#include <memory>
#include <vector>

namespace contact::bindings {

/// Overlap of each segment pair that has one (mesh_io::PairOverlap), one array per field.
struct OverlapTable {
    std::vector<Index> slave;
    std::vector<Index> master;
    std::vector<double> area;
    std::vector<double> centroid;  ///< 3 per overlap
    std::vector<double> gapMin;
    std::vector<double> gapMax;
    std::vector<Index> vertexCount;
    std::vector<double> vertices;  ///< 3 x kMaxOverlapVertices per overlap, unused ones zero

    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(slave.size()); }
};

/// Computes the overlaps of the segment pairs of `search` at x. The surfaces the overlap code
/// reads are copied from the search once and kept in `cache` (reset it after setSurfaces).
/// \pre search runs in segment mode and has pairs.
void computeOverlapTable(const ContactSearch& search, const CoordinatesView& x,
                         std::unique_ptr<mesh_io::ContactSurface[]>& cache, OverlapTable& out);

}  // namespace contact::bindings
