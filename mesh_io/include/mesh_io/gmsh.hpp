// SPDX-License-Identifier: MIT
// Gmsh mesh files (.msh), format 4.1 and 2.2, ASCII and binary.
#pragma once

#include "mesh_io/model.hpp"

#include <string>

namespace mesh_io {

/// Reads a Gmsh .msh file (4.1 or 2.2, ASCII or binary). Each physical group becomes an element
/// set and a node set by its name (unnamed: physical_<dim>_<tag>); a group of the boundaries'
/// dimension (faces in 3D, curves in a planar 2D model) is also a surface of its line, triangle
/// and quadrangle elements, while volume groups, and the surface groups of a planar 2D model, hold
/// the bodies' elements (sets only). Without physical groups each elementary entity of that
/// dimension is a surface entity_<dim>_<tag>. What is skipped is noted in Model::notes. Throws
/// ParseError naming the file and line.
[[nodiscard]] Model readGmsh(const std::string& path);

}  // namespace mesh_io
