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
    /// Upper-case Abaqus type name (C3D8R, CPS4, S4R, ...), "GMSH:<n>" for Gmsh type n, or
    /// "EXODUS:<TYPE><nodes>" (EXODUS:HEX8, EXODUS:SHELL4, ...) for an Exodus II block.
    std::string type;
    int nodesPerElement = 0;
    std::vector<long> ids;     ///< element ids as in the file (per instance in assemblies)
    std::vector<Index> nodes;  ///< node indices (into Model::coords), nodesPerElement per element
    Source source;             ///< the line that opened the block
    int instance = -1;         ///< index into Model::instances; -1: not in a part instance

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

/// One face of an element, numbered as its file numbers them. Abaqus/CalculiX: S1..S6 as 1..6;
/// shells and rigid elements SNEG (CalculiX S1, NEG) = 1, SPOS (S2, POS) = 2, shell edges S3..S6;
/// Exodus II: the side number; a Gmsh surface element (line, triangle, quadrangle) is face 1.
struct FaceRef {
    ElementRef element;
    int face = 1;
};

/// A named surface: element faces, or nodes (Abaqus *SURFACE, TYPE=NODE). A node surface and
/// an element surface may share a name (CalculiX keeps them apart by type).
struct SurfaceDef {
    std::string name;  ///< as in the file (lookups ignore case for Abaqus)
    bool nodeSurface = false;
    std::vector<FaceRef> faces;
    std::vector<Index> nodes;  ///< node surfaces only
    Source source;
};

/// A contact interface: a *CONTACT PAIR or *TIE data line, or one search of a general contact
/// definition (*CONTACT with *CONTACT INCLUSIONS).
struct InterfaceDef {
    enum class Kind { kContactPair, kTie, kGeneralContact };
    Kind kind = Kind::kContactPair;
    std::string slave;
    std::string master;
    bool nodeToSurface = true;  ///< false for TYPE=SURFACE TO SURFACE (and the mortar types)
    /// The slave never pairs with master segments next to its own (general contact: the
    /// surfaces may overlap, as the exterior of a body does with itself).
    bool selfContact = false;
    std::string name;  ///< interaction (contact pair) or tie name
    /// Why the interface cannot be searched ("" when it can), e.g. an unknown contact type; the
    /// tool reports it with `source` and searches the others.
    std::string problem;
    Source source;
};

/// A part instance of an Abaqus assembly: its nodes and element blocks are contiguous ranges of
/// the model's, with the node and element ids of its part (kept apart from other instances).
struct Instance {
    std::string name;  ///< as in the file
    std::string part;
    Index firstNode = 0;
    Index nodeCount = 0;
    Index firstBlock = 0;
    Index blockCount = 0;
};

/// A model read from a file. Node ids and element ids are kept as in the file; everything inside
/// refers to nodes by index into coords.
struct Model {
    std::string path;
    std::string format;              ///< "abaqus", "gmsh" or "exodus"
    std::vector<std::string> files;  ///< every file read: the model, then its includes
    /// 3 x N; z = 0 for 2D models. Unaligned: allocated and freed alike in mesh_io and in a
    /// program built with other vector flags (contact/types.hpp).
    contact::Matrix3XdUnaligned coords;
    std::vector<long> nodeIds;  ///< id of each node as in the file (its part's, in instances)
    IdIndex nodeIndex;          ///< id -> index, of the nodes outside part instances
    std::vector<ElementBlock> blocks;
    std::map<std::string, std::vector<Index>> nodeSets;  ///< key: name (upper case for Abaqus)
    std::map<std::string, std::vector<ElementRef>>
        elementSets;  ///< key: name (upper case for Abaqus)
    std::vector<SurfaceDef> surfaces;
    /// Gmsh files without physical groups: the surfaces are elementary entities, named
    /// entity_<dim>_<tag> (messages then say "elementary entities").
    bool entitySurfaces = false;
    /// Surfaces the file defines in a form not read (an Abaqus analytical rigid surface,
    /// *SURFACE, TYPE=CYLINDER), by lower-case name (names compare ignoring case): where and what,
    /// for an interface naming one.
    std::map<std::string, std::string> skippedSurfaces;
    std::vector<InterfaceDef> interfaces;
    /// Part instances of an Abaqus assembly, in file order (empty for models without parts).
    std::vector<Instance> instances;
    /// What the reader skipped or noticed, one line each, "<path>:<line>: <what>" (unknown
    /// keywords, element types no surface uses, ...). Nothing is dropped silently.
    std::vector<std::string> notes;

    [[nodiscard]] Index numNodes() const noexcept { return static_cast<Index>(coords.cols()); }
    /// Node index of a file id (nodes outside part instances), or contact::kNoIndex.
    [[nodiscard]] Index findNode(long id) const;
    /// Surface by name: exact match first, then ignoring case; nullptr if none. Where a node
    /// surface and an element surface share the name, the element surface. Outside Abaqus, a
    /// name that matches several names only ignoring case throws std::invalid_argument.
    [[nodiscard]] const SurfaceDef* findSurface(const std::string& name) const;
    /// The same, preferring the node surface when `nodes` (and the element surface otherwise).
    [[nodiscard]] const SurfaceDef* findSurface(const std::string& name, bool nodes) const;
    /// Instance holding node `node`, or -1.
    [[nodiscard]] int instanceOfNode(Index node) const;
    /// A node as outputs and messages name it: "<instance>.<id>" in assemblies, else "<id>".
    [[nodiscard]] std::string nodeLabel(Index node) const;
    /// An element as outputs name it: "<instance>.<id>" (instance >= 0), else "<id>".
    [[nodiscard]] std::string elementLabel(int instance, long id) const;
    /// Total element count over all blocks.
    [[nodiscard]] Index numElements() const noexcept;
};

/// How a model's file names what the tool works with, for messages in the file's own language.
struct FileTerms {
    /// "surface" (Abaqus *SURFACE), "physical group" (Gmsh; "elementary entity" without groups)
    const char* surface;
    const char* surfaces;    ///< "*SURFACE definitions", "physical groups", ...
    const char* interfaces;  ///< "*CONTACT PAIR, *TIE or *CONTACT" (Abaqus); Gmsh, Exodus II: none
};
[[nodiscard]] FileTerms fileTerms(const Model& model) noexcept;

/// Reads a model, choosing the reader by extension (.inp: Abaqus/CalculiX; .msh: Gmsh; .e, .exo,
/// .ex2: Exodus II). Throws mesh_io::ParseError naming the file and line (Exodus: the block or
/// set).
[[nodiscard]] Model readModel(const std::string& path);

}  // namespace mesh_io
