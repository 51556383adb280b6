// SPDX-License-Identifier: MIT
#include "mesh_io/abaqus.hpp"

#include "mesh_io/error.hpp"

namespace mesh_io {

Model readAbaqus(const std::string& path) { throw ParseError(path, 0, "Abaqus reader not built yet"); }

}  // namespace mesh_io
