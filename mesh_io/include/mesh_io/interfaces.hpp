// SPDX-License-Identifier: MIT
// From an interface a model defines (contact pair, tie, general contact) to the surfaces and
// options of one search.
#pragma once

#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"

#include <optional>

namespace mesh_io {

/// An interface ready to search: its two surfaces and how to search them.
struct PreparedInterface {
    ContactSurface master;
    ContactSurface slave;  ///< segments, or nodes (slave.nodeSurface)
    contact::SearchMode mode = contact::SearchMode::kNodeToSegment;
    bool selfContact = false;  ///< for SearchOptions::selfContact
};

/// "contact pair", "tie" or "general contact".
[[nodiscard]] const char* interfaceKindName(InterfaceDef::Kind kind) noexcept;

/// Whether `def` is searched as self-contact (SearchOptions::selfContact): general contact (its
/// surfaces may share faces), a *CONTACT PAIR naming one surface, or a slave and a master that
/// name one surface, unless a node-to-segment slave of that name is a node surface (then the
/// nodes are searched against the element surface of the name).
[[nodiscard]] bool searchedAsSelfContact(const Model& model, const InterfaceDef& def);

/// Builds the surfaces of `def` and checks that they can be searched together. Where a node
/// surface and an element surface share a name (CalculiX), the master is the element surface and
/// the slave the node surface in node-to-segment mode, the element surface otherwise and in
/// self-contact (a *CONTACT PAIR naming one surface searches its faces against themselves). `mode`,
/// when given, replaces the interface's own (TYPE=SURFACE TO SURFACE: segment mode). Throws
/// ParseError at the interface's line (def.source) saying why it cannot be searched: def.problem,
/// an unknown surface, a node surface as master, master and slave of different dimensions, a node
/// slave in segment mode, or what buildContactSurface found wrong with a surface (with the
/// surface's own file and line).
[[nodiscard]] PreparedInterface
prepareInterface(const Model& model, const InterfaceDef& def,
                 std::optional<contact::SearchMode> mode = std::nullopt);

}  // namespace mesh_io
