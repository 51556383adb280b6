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

/// Where a segment came from: the element id as in the file, the 1-based face number as the file
/// numbers it (Abaqus S1..S6; shells and rigid elements SNEG = 1, SPOS = 2, shell edges 3..6;
/// Exodus II sides; a Gmsh surface element: 1) and the part instance (Model::instances, -1: none).
struct SegmentOrigin {
    long elementId = 0;
    int face = 1;
    int instance = -1;
};

/// The origin of each segment of a surface, kept as arrays: 9 bytes per segment where a vector of
/// (padded) SegmentOrigin takes 16; instances take 4 more, only in models with part instances.
/// Indexing returns a SegmentOrigin by value.
class SegmentOrigins {
public:
    void push_back(const SegmentOrigin& o) {
        if (o.instance >= 0 && !withInstances_) {
            withInstances_ = true;
            instances_.assign(ids_.size(), -1);
        }
        ids_.push_back(o.elementId);
        faces_.push_back(static_cast<std::uint8_t>(o.face));  // 1..6
        if (withInstances_) {
            instances_.push_back(o.instance);
        }
    }
    void reserve(std::size_t n) {
        ids_.reserve(n);
        faces_.reserve(n);
    }
    [[nodiscard]] SegmentOrigin operator[](std::size_t s) const {
        return {ids_[s], faces_[s], withInstances_ ? instances_[s] : -1};
    }
    [[nodiscard]] std::size_t size() const noexcept { return ids_.size(); }
    [[nodiscard]] bool empty() const noexcept { return ids_.empty(); }

private:
    std::vector<long> ids_;
    std::vector<std::uint8_t> faces_;
    std::vector<std::int32_t> instances_;  // kept once a segment has an instance
    bool withInstances_ = false;
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
/// Faces follow the face tables of element_types (outward for solids and 2D continua, the chosen
/// side for shells and rigid elements). Line segments (edges of 2D elements, shell edges S3..S6,
/// sides of 2D rigid elements, Gmsh lines) are taken only in a planar model (every node at
/// z = 0); shell edges are turned to point away from their element. Gmsh surface
/// elements are turned to point away from the adjacent element of higher dimension that holds all
/// their corner nodes, when the file has one.
/// Throws std::invalid_argument when the name is unknown (listing the surfaces the model has), and
/// ParseError at the surface's definition for faces that do not exist (unsupported element type,
/// face label out of range), line segments in a model with a node off z = 0 (naming it), or
/// surfaces mixing 2D and 3D segments.
[[nodiscard]] ContactSurface buildContactSurface(const Model& model, const std::string& name);
/// The same for a surface definition of the model.
[[nodiscard]] ContactSurface buildContactSurface(const Model& model, const SurfaceDef& def);

/// The exterior of the model, as general contact (*CONTACT INCLUSIONS, ALL EXTERIOR) takes it:
/// every face of a solid and every edge of a 2D continuum that no other element shares, and the
/// positive side (SPOS) of every rigid element. Shells and membranes are not in it (their two
/// sides cannot be one consistently oriented surface): `shellsLeftOut` counts them. Faces are in
/// element order; matching sorts the faces by their corner nodes, O(F log F).
[[nodiscard]] std::vector<FaceRef> exteriorFaces(const Model& model, long* shellsLeftOut = nullptr);

}  // namespace mesh_io
