// SPDX-License-Identifier: MIT
#include "mesh_io/model.hpp"

#include "mesh_io/abaqus.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/exodus.hpp"
#include "mesh_io/gmsh.hpp"

#include "memory.hpp"
#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace mesh_io {
namespace {

using detail::lowerCase;

using detail::availableMemory;
using detail::gigabytes;

}  // namespace

unsigned long long detail::availableMemory() {
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

std::string detail::gigabytes(unsigned long long bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return buf;
}

namespace {

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
    return findSurface(name, false);
}

const SurfaceDef* Model::findSurface(const std::string& name, bool nodes) const {
    // Exact name first, then ignoring case; of two surfaces with one name, the preferred kind.
    // Abaqus names ignore case; in the other formats names that differ only in case are
    // different surfaces, and a name matching several of them ignoring case is refused.
    const std::string key = lowerCase(name);
    for (const bool exact : {true, false}) {
        const SurfaceDef* preferred = nullptr;
        const SurfaceDef* any = nullptr;
        std::vector<std::string> names;
        for (const auto& s : surfaces) {
            if (exact ? s.name == name : lowerCase(s.name) == key) {
                any = any != nullptr ? any : &s;
                preferred = preferred == nullptr && s.nodeSurface == nodes ? &s : preferred;
                if (std::find(names.begin(), names.end(), s.name) == names.end()) {
                    names.push_back(s.name);
                }
            }
        }
        if (names.size() > 1 && format != "abaqus") {
            std::string list;
            for (const std::string& n : names) {
                list += (list.empty() ? "" : ", ") + n;
            }
            std::string text = std::string(fileTerms(*this).surface) + " '" + name;
            text += "' matches several names when case is ignored (" + list;
            text += "): give one exactly as " + path + " writes it";
            throw std::invalid_argument(text);
        }
        if (any != nullptr) {
            return preferred != nullptr ? preferred : any;
        }
    }
    return nullptr;
}

int Model::instanceOfNode(Index node) const {
    const auto it = std::upper_bound(instances.begin(), instances.end(), node,
                                     [](Index n, const Instance& i) { return n < i.firstNode; });
    if (it == instances.begin()) {
        return -1;
    }
    const Instance& i = *(it - 1);
    return node < i.firstNode + i.nodeCount ? static_cast<int>(it - 1 - instances.begin()) : -1;
}

std::string Model::nodeLabel(Index node) const {
    return elementLabel(instanceOfNode(node), nodeIds[static_cast<std::size_t>(node)]);
}

std::string Model::elementLabel(int instance, long id) const {
    if (instance < 0 || static_cast<std::size_t>(instance) >= instances.size()) {
        return std::to_string(id);
    }
    return instances[static_cast<std::size_t>(instance)].name + "." + std::to_string(id);
}

Index Model::numElements() const noexcept {
    Index n = 0;
    for (const auto& b : blocks) {
        n += b.size();
    }
    return n;
}

Model readModel(const std::string& path) {
    const std::string ext = lowerCase(path.substr(
        path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.')));
    const bool exodus = ext == ".e" || ext == ".exo" || ext == ".ex2";
    if (ext == ".inp" || ext == ".msh" || exodus) {
        checkFitsInMemory(path);
        Model m;
        try {
            m = ext == ".inp" ? readAbaqus(path) : exodus ? readExodus(path) : readGmsh(path);
        } catch (const std::bad_alloc&) {  // the counts passed their checks, the memory went
            throw ParseError(path, 0,
                             "not enough memory to read the model (" +
                                 gigabytes(availableMemory()) + " available)");
        }
        if (m.files.empty()) {
            m.files.push_back(path);
        }
        return m;
    }
    throw ParseError(path, 0,
                     "unknown model format (expected a .inp, .msh, .e, .exo or .ex2 file)");
}

FileTerms fileTerms(const Model& model) noexcept {
    if (model.format == "gmsh" && model.entitySurfaces) {
        return {"elementary entity", "elementary entities", "contact pairs"};
    }
    if (model.format == "gmsh") {
        return {"physical group", "physical groups", "contact pairs"};
    }
    if (model.format == "exodus") {
        return {"side or node set", "side and node sets", "contact pairs"};
    }
    return {"surface", "*SURFACE definitions", "*CONTACT PAIR, *TIE or *CONTACT"};
}

}  // namespace mesh_io
