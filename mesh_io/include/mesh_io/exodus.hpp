// SPDX-License-Identifier: MIT
// Exodus II mesh files (.e, .exo, .ex2), read through the SEACAS exodusII library.
#pragma once

#include "mesh_io/model.hpp"

#include <string>

namespace mesh_io {

/// True when this build reads Exodus II files (the exodusII library was found at configure time).
[[nodiscard]] bool exodusSupported() noexcept;

/// Reads an Exodus II file: nodes (ids from the node number map), element blocks (ids from the
/// element number map), node sets as node surfaces and side sets as element-face surfaces, named
/// by the file's name arrays or "nodeset_<id>", "sideset_<id>"; element blocks become element sets
/// ("block_<id>" when unnamed). Side numbers follow the Exodus II convention per element type
/// (hex side 1 = nodes 1-2-6-5, ...) and keep their numbers as faces; normals point outward.
/// A node or an (element, side) listed twice in a set is kept once, at its first appearance.
/// Throws ParseError naming the file and the block or set: a missing or unreadable file, node
/// numbers out of range in a block or node set, element numbers or side numbers out of range in
/// a side set, non-finite coordinates. A side set on a block of a type without sides the search
/// takes is kept (the file's other sets stay usable) with a note in Model::notes, and refused
/// only when searched (buildContactSurface).
[[nodiscard]] Model readExodus(const std::string& path);

}  // namespace mesh_io
