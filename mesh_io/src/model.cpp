// SPDX-License-Identifier: MIT
#include "mesh_io/model.hpp"

#include "mesh_io/abaqus.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/gmsh.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace mesh_io {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Memory the system can give without swapping: MemAvailable of /proc/meminfo, or the
// CONTACT_MEMORY_LIMIT_BYTES environment variable when set (tests use it). 0 when unknown.
unsigned long long availableMemory() {
    if (const char* limit = std::getenv("CONTACT_MEMORY_LIMIT_BYTES")) {
        return std::strtoull(limit, nullptr, 10);
    }
    std::ifstream in("/proc/meminfo");
    std::string key;
    unsigned long long kb = 0;
    std::string unit;
    while (in >> key >> kb >> unit) {
        if (key == "MemAvailable:") {
            return kb * 1024ULL;
        }
    }
    return 0;
}

std::string gigabytes(unsigned long long bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return buf;
}

// A model takes less memory than its text (ASCII) or about as much (binary): a file larger than
// the available memory cannot be read, and is refused before the OOM killer has a say.
void checkFitsInMemory(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    const unsigned long long available = availableMemory();
    if (!ec && available > 0 && size > available) {
        throw ParseError(path, 0,
                         "the file is " + gigabytes(size) + " but only " + gigabytes(available) +
                             " of memory is available: reading it would run out of memory");
    }
}

}  // namespace

Index Model::findNode(long id) const { return nodeIndex.find(id); }

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
    const std::string ext = lower(path.substr(
        path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.')));
    if (ext == ".inp" || ext == ".msh") {
        checkFitsInMemory(path);
        Model m = ext == ".inp" ? readAbaqus(path) : readGmsh(path);
        if (m.files.empty()) {
            m.files.push_back(path);
        }
        return m;
    }
    throw ParseError(path, 0, "unknown model format (expected a .inp or .msh file)");
}

FileTerms fileTerms(const Model& model) noexcept {
    if (model.format == "gmsh") {
        return {"physical group", "physical groups", "contact pairs"};
    }
    return {"surface", "*SURFACE definitions", "*CONTACT PAIR or *TIE"};
}

}  // namespace mesh_io
