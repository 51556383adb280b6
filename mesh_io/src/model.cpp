// SPDX-License-Identifier: MIT
#include "mesh_io/model.hpp"

#include "mesh_io/abaqus.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/gmsh.hpp"

#include <algorithm>
#include <cctype>

namespace mesh_io {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

Index Model::findNode(long id) const {
    const auto it = nodeIndex.find(id);
    return it == nodeIndex.end() ? contact::kNoIndex : it->second;
}

const SurfaceDef* Model::findSurface(const std::string& name) const {
    for (const auto& s : surfaces) {
        if (s.name == name) {
            return &s;
        }
    }
    const std::string key = lower(name);
    for (const auto& s : surfaces) {
        if (lower(s.name) == key) {
            return &s;
        }
    }
    return nullptr;
}

Index Model::numElements() const noexcept {
    Index n = 0;
    for (const auto& b : blocks) {
        n += b.size();
    }
    return n;
}

Model readModel(const std::string& path) {
    const std::string ext = lower(path.substr(path.find_last_of('.') == std::string::npos
                                                  ? path.size()
                                                  : path.find_last_of('.')));
    if (ext == ".inp" || ext == ".msh") {
        Model m = ext == ".inp" ? readAbaqus(path) : readGmsh(path);
        if (m.files.empty()) {
            m.files.push_back(path);
        }
        return m;
    }
    throw ParseError(path, 0, "unknown model format (expected a .inp or .msh file)");
}

}  // namespace mesh_io
