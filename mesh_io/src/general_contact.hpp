// SPDX-License-Identifier: MIT
// Abaqus general contact (*CONTACT, *CONTACT INCLUSIONS, *CONTACT EXCLUSIONS) turned into the
// surfaces and interfaces the search takes.
#pragma once

#include "mesh_io/model.hpp"

#include <array>
#include <string>
#include <vector>

namespace mesh_io::detail {

/// One data line of *CONTACT INCLUSIONS or *CONTACT EXCLUSIONS: two surface names, "" for the
/// all-inclusive exterior; self-contact has the same name twice.
struct SurfacePair {
    std::array<std::string, 2> names;
    Source source;
};

/// A general contact definition as read.
struct GeneralContact {
    Source source;             ///< the *CONTACT INCLUSIONS line (*CONTACT when there is none)
    bool allExterior = false;  ///< *CONTACT INCLUSIONS, ALL EXTERIOR
    std::vector<SurfacePair> inclusions;
    std::vector<SurfacePair> exclusions;
};

/// Adds the surfaces and interfaces of `gc` to the model.
///
/// The contact domain is split into regions: each surface the definition names, and the rest of
/// the exterior (when the all-inclusive surface takes part). The inclusions and exclusions say
/// which regions meet which; each region then becomes the slave of one interface whose master is
/// the union of the regions it meets, searched as self-contact (a node never pairs with the
/// segments next to it). So general contact is searched from both sides, and an excluded pair of
/// surfaces never pairs while every other pairing of their nodes still does. A definition that
/// cannot be searched (unknown or node surfaces, named surfaces sharing faces) becomes one
/// interface carrying the problem.
void addGeneralContact(Model& model, const GeneralContact& gc);

}  // namespace mesh_io::detail
