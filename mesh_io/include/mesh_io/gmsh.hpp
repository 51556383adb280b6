// SPDX-License-Identifier: MIT
// Gmsh mesh files (.msh), format 4.1 and 2.2, ASCII and binary.
#pragma once

#include "mesh_io/model.hpp"

#include <string>

namespace mesh_io {

/// Reads a Gmsh .msh file (4.1 or 2.2, ASCII or binary). Physical groups become named surfaces of
/// their line/triangle/quadrangle elements. Throws ParseError naming the file and line.
[[nodiscard]] Model readGmsh(const std::string& path);

}  // namespace mesh_io
