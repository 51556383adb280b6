// SPDX-License-Identifier: MIT
#include "mesh_io/interfaces.hpp"

#include "mesh_io/error.hpp"

#include "text.hpp"

#include <stdexcept>
#include <string>

namespace mesh_io {

const char* interfaceKindName(InterfaceDef::Kind kind) noexcept {
    switch (kind) {
    case InterfaceDef::Kind::kContactPair: return "contact pair";
    case InterfaceDef::Kind::kTie: return "tie";
    case InterfaceDef::Kind::kGeneralContact: return "general contact";
    }
    return "interface";
}

namespace {

// searchedAsSelfContact, with the slave taken as a node surface where one has its name
// (`nodeMode`): then a node set and a side set of one name (Exodus II, CalculiX) are two
// surfaces, the nodes searched against the faces, not the faces against themselves.
bool selfContactIn(const Model& model, const InterfaceDef& def, bool nodeMode) {
    if (def.selfContact) {
        return true;
    }
    const SurfaceDef* slave = model.findSurface(def.slave, nodeMode);
    const SurfaceDef* master = model.findSurface(def.master);
    return slave != nullptr && master != nullptr && slave->name == master->name &&
           slave->nodeSurface == master->nodeSurface;
}

}  // namespace

bool searchedAsSelfContact(const Model& model, const InterfaceDef& def) {
    return selfContactIn(model, def, def.nodeToSurface);
}

PreparedInterface prepareInterface(const Model& model, const InterfaceDef& def,
                                   std::optional<contact::SearchMode> mode) {
    const std::string path = def.source.path.empty() ? model.path : def.source.path;
    const auto refuse = [&](const std::string& why) {
        throw ParseError(path, def.source.line, why);
    };
    if (!def.problem.empty()) {
        refuse(def.problem);
    }
    PreparedInterface p;
    p.mode = mode.value_or(def.nodeToSurface ? contact::SearchMode::kNodeToSegment
                                             : contact::SearchMode::kSegmentToSegment);
    const bool nodeMode = p.mode == contact::SearchMode::kNodeToSegment;
    const auto build = [&](const std::string& role, const std::string& name, bool nodes) {
        const SurfaceDef* s = model.findSurface(name, nodes);
        if (s == nullptr) {
            std::string known;
            for (const auto& other : model.surfaces) {
                known += (known.empty() ? "" : ", ") + other.name +
                         (other.nodeSurface ? " (nodes)" : "");
            }
            const FileTerms terms = fileTerms(model);
            if (const auto skipped = model.skippedSurfaces.find(detail::lowerCase(name));
                skipped != model.skippedSurfaces.end()) {
                refuse(role + " surface '" + name + "' is defined at " + skipped->second);
            }
            if (model.format == "gmsh" && model.elementSets.count(name) != 0) {
                refuse(role + " physical group '" + name +
                       "' holds the body's elements (volumes; in 2D, surfaces), not the faces or "
                       "edges a surface is made of (" +
                       terms.surfaces + ": " + (known.empty() ? "none" : known) + ")");
            }
            refuse(role + " " + terms.surface + " '" + name + "' is not defined (" +
                   terms.surfaces + ": " + (known.empty() ? "none" : known) + ")");
        }
        try {
            return buildContactSurface(model, *s);
        } catch (const std::exception& e) {
            refuse(role + " surface '" + name + "' cannot be searched: " + e.what());
        }
        return ContactSurface{};  // not reached
    };
    p.selfContact = selfContactIn(model, def, nodeMode);
    p.master = build("master", def.master, false);
    // Self-contact takes the element surface: its nodes' own faces are known from its segments.
    p.slave = build("slave", def.slave, nodeMode && !p.selfContact);
    // An interface with nothing on one side would report "0 pairs", as if searched and apart.
    const FileTerms terms = fileTerms(model);
    for (const ContactSurface* c : {&p.master, &p.slave}) {
        if (c->surface.empty() && c->nodes.empty()) {
            refuse(std::string(c == &p.master ? "master " : "slave ") + terms.surface + " '" +
                   c->name + "' has no " + (c->nodeSurface ? "nodes" : "segments") +
                   " to search (its elements are of types this reader skips, or it has none: "
                   "see the model's notes)");
        }
    }
    if (p.master.nodeSurface) {
        refuse("master surface '" + p.master.name +
               "' is a node surface; a master needs element faces");
    }
    if (!p.slave.nodeSurface && !p.slave.surface.empty() && !p.master.surface.empty() &&
        p.slave.dim != p.master.dim) {
        refuse("master '" + p.master.name + "' has " + (p.master.dim == 2 ? "2D edges" : "faces") +
               ", slave '" + p.slave.name + "' " + (p.slave.dim == 2 ? "2D edges" : "faces") +
               ": the surfaces have different dimensions");
    }
    if (p.slave.nodeSurface && !nodeMode) {
        refuse("slave '" + p.slave.name +
               "' is a node surface, which segment-to-segment mode cannot take (use node mode)");
    }
    return p;
}

}  // namespace mesh_io
