// SPDX-License-Identifier: MIT
// The overlaps of a segment search as flat arrays, for the C API and the Python package: the one
// place the bindings call mesh_io::computeOverlaps. Also the wording the two share.
#pragma once

#include "contact/clipping.hpp"
#include "contact/contact_search.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace contact::bindings {

/// What the C API and the Python package say of coordinates that do not fit the surfaces:
/// "<n> nodes in <d>D; the surfaces were set with <m> in <e>D".
inline std::string coordinatesMismatch(const CoordinatesView& x, Index setNodes, int setDim) {
    return std::to_string(x.numNodes) + " nodes in " + std::to_string(x.dim) +
           "D; the surfaces were set with " + std::to_string(setNodes) + " in " +
           std::to_string(setDim) + "D";
}

/// Points kept per overlap: the part in contact as drawn (contact::OverlapCut3d::vertices).
inline constexpr int kMaxDrawnVertices = kMaxCutVertices;

/// Each segment pair with a positive overlap (mesh_io::PairOverlap), one array per field.
struct OverlapTable {
    std::vector<Index> slave;
    std::vector<Index> master;
    std::vector<double> overlapArea;      ///< the whole overlap, whatever its gap
    std::vector<double> captureArea;      ///< the part with gap <= capture: in contact
    std::vector<double> penetrationArea;  ///< the part with gap < 0
    std::vector<double> centroid;         ///< 3 per overlap: of the part in contact (NaN: none)
    std::vector<double> gapMin;           ///< over the part in contact (NaN: none)
    std::vector<double> gapMax;
    std::vector<Index> vertexCount;  ///< points drawing the part in contact (0: none)
    std::vector<double> vertices;    ///< 3 x kMaxDrawnVertices per overlap, unused ones zero

    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(slave.size()); }
};

/// The nodes of the search's surfaces, sorted and unique: the coordinates its pairs depend on.
std::vector<Index> surfaceNodes(const ContactSearch& search);

/// A hash of the bits of the coordinates of `nodes` in x (-0 taken as +0), taken at each update of
/// a segment search, so that overlaps refuse coordinates other than that update's (they would
/// clip its pairs at other positions: silently wrong areas).
/// \pre every node of `nodes` lies in x.
std::uint64_t coordinatesFingerprint(const std::vector<Index>& nodes, const CoordinatesView& x);

/// What the C API and the Python package say when the fingerprints differ.
inline const char* const kNotTheUpdatesCoordinates =
    "the coordinates differ from those of the last successful update (the overlaps are of its "
    "pairs, at its coordinates)";

/// Computes the overlaps of the segment pairs of `search` at x (the surfaces the search keeps).
/// \pre search runs in segment mode and has pairs.
void computeOverlapTable(const ContactSearch& search, const CoordinatesView& x, OverlapTable& out);

}  // namespace contact::bindings
