// SPDX-License-Identifier: MIT
// A finite-element model as read from a file: nodes, element blocks, sets, surfaces, interfaces.
#pragma once

#include "contact/types.hpp"
#include "mesh_io/id_index.hpp"

#include <Eigen/Core>

#include <map>
#include <string>
#include <vector>

namespace mesh_io {

using contact::Index;

/// Where something was defined: file and 1-based line (line 0: the whole file).
struct Source {
    std::string path;
    long line = 0;
};

/// Elements of one type, in file order.
struct ElementBlock {
    /// Upper-case Abaqus type name (C3D8R, CPS4, S4R, ...) or "GMSH:<n>" for Gmsh type n.
    std::string type;
    int nodesPerElement = 0;
    std::vector<long> ids;     ///< element ids as in the file
    std::vector<Index> nodes;  ///< node indices (into Model::coords), nodesPerElement per element
    Source source;             ///< the line that opened the block

    [[nodiscard]] Index size() const noexcept { return static_cast<Index>(ids.size()); }
    [[nodiscard]] const Index* element(Index e) const noexcept {
        return nodes.data() + static_cast<std::ptrdiff_t>(e) * nodesPerElement;
    }
};

/// One element of the model: block and position within the block.
struct ElementRef {
    Index block = 0;
    Index element = 0;
    friend bool operator==(const ElementRef& a, const ElementRef& b) {
        return a.block == b.block && a.element == b.element;
    }
};

/// One face of an element. face: Abaqus S1..S6 as 1..6; shells SPOS = 1, SNEG = 2;
/// a Gmsh surface element (line, triangle, quadrangle) is its own face 1.
struct FaceRef {
    ElementRef element;
    int face = 1;
};

/// A named surface: element faces, or nodes (Abaqus *SURFACE, TYPE=NODE).
struct SurfaceDef {
    std::string name;  ///< as in the file (lookups ignore case for Abaqus)
    bool nodeSurface = false;
    std::vector<FaceRef> faces;
    std::vector<Index> nodes;  ///< node surfaces only
    Source source;
};

/// A contact interface: a *CONTACT PAIR data line or a *TIE data line.
struct InterfaceDef {
    enum class Kind { kContactPair, kTie };
    Kind kind = Kind::kContactPair;
    std::string slave;
    std::string master;
    bool nodeToSurface = true;  ///< false for TYPE=SURFACE TO SURFACE
    std::string name;           ///< interaction (contact pair) or tie name
    Source source;
};

/// A model read from a file. Node ids and element ids are kept as in the file; everything inside
/// refers to nodes by index into coords.
struct Model {
    std::string path;
    std::string format;              ///< "abaqus" or "gmsh"
    std::vector<std::string> files;  ///< every file read: the model, then its includes
    Eigen::Matrix3Xd coords;         ///< 3 x N; z = 0 for 2D models
    std::vector<long> nodeIds;       ///< id of each node as in the file
    IdIndex nodeIndex;               ///< id -> index
    std::vector<ElementBlock> blocks;
    std::map<std::string, std::vector<Index>> nodeSets;  ///< key: name (upper case for Abaqus)
    std::map<std::string, std::vector<ElementRef>>
        elementSets;  ///< key: name (upper case for Abaqus)
    std::vector<SurfaceDef> surfaces;
    std::vector<InterfaceDef> interfaces;
    /// What the reader skipped or noticed, one line each, "<path>:<line>: <what>" (unknown
    /// keywords, element types no surface uses, ...). Nothing is dropped silently.
    std::vector<std::string> notes;

    [[nodiscard]] Index numNodes() const noexcept { return static_cast<Index>(coords.cols()); }
    /// Node index of a file id, or contact::kNoIndex.
    [[nodiscard]] Index findNode(long id) const;
    /// Surface by name: exact match first, then ignoring case; nullptr if none.
    [[nodiscard]] const SurfaceDef* findSurface(const std::string& name) const;
    /// Total element count over all blocks.
    [[nodiscard]] Index numElements() const noexcept;
};

/// How a model's file names what the tool works with, for messages in the file's own language.
struct FileTerms {
    const char* surface;     ///< "surface" (Abaqus *SURFACE) or "physical group" (Gmsh)
    const char* surfaces;    ///< "*SURFACE definitions" or "physical groups"
    const char* interfaces;  ///< "*CONTACT PAIR or *TIE" (Abaqus); Gmsh files have none
};
[[nodiscard]] FileTerms fileTerms(const Model& model) noexcept;

/// Reads a model, choosing the reader by extension (.inp: Abaqus/CalculiX; .msh: Gmsh).
/// Throws mesh_io::ParseError naming the file and line.
[[nodiscard]] Model readModel(const std::string& path);

}  // namespace mesh_io
