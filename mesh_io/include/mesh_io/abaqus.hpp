// SPDX-License-Identifier: MIT
// Abaqus / CalculiX input files (.inp).
#pragma once

#include "mesh_io/model.hpp"

#include <string>

namespace mesh_io {

/// Reads an Abaqus/CalculiX .inp file, following *INCLUDE: the mesh, sets and surfaces (parts and
/// placed instances of an assembly appended in file order, see Model::instances), and the
/// interfaces (*CONTACT PAIR, *TIE, general contact). Throws ParseError naming the file (the
/// included one, for errors inside it), the line and what was expected.
[[nodiscard]] Model readAbaqus(const std::string& path);

}  // namespace mesh_io
