// SPDX-License-Identifier: MIT
// From a named surface of a model to the segments the contact search takes.
#pragma once

#include "contact/surface.hpp"
#include "mesh_io/model.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mesh_io {

/// Where a segment came from: the element id as in the file and the 1-based face number
/// (Abaqus S1..S6; shells SPOS = 1, SNEG = 2; a Gmsh surface element: 1).
struct SegmentOrigin {
    long elementId = 0;
    int face = 1;
};

/// The origin of each segment of a surface, kept as two arrays: 9 bytes per segment where a
/// vector of (padded) SegmentOrigin takes 16. Indexing returns a SegmentOrigin by value.
class SegmentOrigins {
public:
    void push_back(const SegmentOrigin& o) {
        ids_.push_back(o.elementId);
        faces_.push_back(static_cast<std::uint8_t>(o.face));  // 1..6
    }
    void reserve(std::size_t n) {
        ids_.reserve(n);
        faces_.reserve(n);
    }
    [[nodiscard]] SegmentOrigin operator[](std::size_t s) const { return {ids_[s], faces_[s]}; }
    [[nodiscard]] std::size_t size() const noexcept { return ids_.size(); }
    [[nodiscard]] bool empty() const noexcept { return ids_.empty(); }

private:
    std::vector<long> ids_;
    std::vector<std::uint8_t> faces_;
};

/// A model surface ready for the search.
struct ContactSurface {
    std::string name;
    bool nodeSurface = false;        ///< TYPE=NODE: `nodes` holds the slave nodes, no segments
    contact::Surface surface;        ///< segments with outward node order
    SegmentOrigins origin;           ///< one per segment
    std::vector<Index> nodes;        ///< node surfaces only
    int dim = 3;                     ///< 2 for line segments, 3 for faces
    std::vector<std::string> notes;  ///< e.g. Gmsh faces with no adjacent element to orient by
};

/// Builds the segments of surface `name` (looked up as Model::findSurface does).
/// Abaqus faces follow the face tables of element_types (outward for solids and 2D continua,
/// SPOS/SNEG for shells). Gmsh surface elements are turned to point away from the adjacent
/// element of higher dimension that holds all their corner nodes, when the file has one.
/// Throws std::invalid_argument when the name is unknown (listing the surfaces the model has), and
/// ParseError at the surface's definition for faces that do not exist (unsupported element type,
/// face label out of range) or surfaces mixing 2D and 3D segments.
[[nodiscard]] ContactSurface buildContactSurface(const Model& model, const std::string& name);

}  // namespace mesh_io
