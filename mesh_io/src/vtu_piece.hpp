// SPDX-License-Identifier: MIT
// One interface as a VTU piece (the layout documented in mesh_io/vtu.hpp), shared by the library's
// writeContactVtu and the tool's writeVtu. Internal; never installed.
#pragma once

#include "mesh_io/contact_surface.hpp"
#include "mesh_io/overlaps.hpp"

#include "vtu_encoder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace mesh_io::detail {

/// What a piece is made of. Ids are optional: without them, node and segment indices are
/// written (faces 0).
struct PieceSource {
    const contact::Surface* master = nullptr;
    const contact::Surface* slave = nullptr;         ///< may be empty (a node list slave)
    const std::vector<Index>* slaveNodes = nullptr;  ///< slave given as nodes, or nullptr
    contact::CoordinatesView x;
    const contact::NodePairs* nodePairs = nullptr;        ///< node mode
    const contact::SegmentPairs* segmentPairs = nullptr;  ///< segment mode
    const Overlaps* overlaps = nullptr;                   ///< segment mode
    const std::vector<long>* nodeIds = nullptr;
    /// Models with part instances (whose ids repeat across them): each node's instance (index
    /// into Model::instances, -1 outside), written as node_instance and element_instance.
    const std::vector<std::int32_t>* nodeInstance = nullptr;
    const SegmentOrigins* masterOrigin = nullptr;
    const SegmentOrigins* slaveOrigin = nullptr;
};

/// The comment every file carries: what the roles are.
extern const char* const kVtuComment;

/// kVtuComment, and for a model with part instances the instance each index names.
[[nodiscard]] std::string vtuComment(const std::vector<std::string>& instanceNames);

void writePiece(VtuEncoder& vtu, const PieceSource& src);

}  // namespace mesh_io::detail
