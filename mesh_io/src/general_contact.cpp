// SPDX-License-Identifier: MIT
#include "general_contact.hpp"

#include "contact/segment.hpp"
#include "mesh_io/contact_surface.hpp"

#include "element_types.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

using detail::lowerCase;

// Faces of the model identified by (block, element, face), for marking regions.
struct FaceKey {
    Index block;
    Index element;
    int face;
    friend bool operator<(const FaceKey& a, const FaceKey& b) {
        return std::tie(a.block, a.element, a.face) < std::tie(b.block, b.element, b.face);
    }
};

FaceKey keyOf(const FaceRef& f) { return {f.element.block, f.element.element, f.face}; }

}  // namespace

std::vector<FaceRef> exteriorFaces(const Model& model, long* shellsLeftOut) {
    // Every face of every solid and 2D continuum, keyed by its sorted corner nodes: a face two
    // elements share appears twice after sorting, an exterior face once.
    struct Keyed {
        std::array<Index, 4> corners;
        FaceRef face;
    };
    std::vector<Keyed> keyed;
    std::vector<FaceRef> out;
    long shells = 0;
    std::size_t count = 0;
    for (const ElementBlock& b : model.blocks) {
        const detail::ElementType* t = detail::findBlockType(b.type);
        const bool matched = t != nullptr && (t->kind == detail::ElementKind::kSolid ||
                                              t->kind == detail::ElementKind::kPlanar);
        count += matched ? static_cast<std::size_t>(b.size() * detail::faceCount(*t)) : 0;
    }
    keyed.reserve(count);
    for (Index bi = 0; bi < static_cast<Index>(model.blocks.size()); ++bi) {
        const ElementBlock& b = model.blocks[static_cast<std::size_t>(bi)];
        const detail::ElementType* t = detail::findBlockType(b.type);
        if (t == nullptr) {
            continue;
        }
        if (t->kind == detail::ElementKind::kShell) {
            shells += b.size();
            continue;
        }
        if (t->kind == detail::ElementKind::kRigid) {  // one-sided: the positive side
            for (Index e = 0; e < b.size(); ++e) {
                out.push_back({{bi, e}, 2});
            }
            continue;
        }
        if (t->kind != detail::ElementKind::kSolid && t->kind != detail::ElementKind::kPlanar) {
            continue;
        }
        for (int f = 1; f <= detail::faceCount(*t); ++f) {
            detail::FaceNodes fn;
            if (!detail::faceNodes(*t, f, fn)) {
                continue;
            }
            const int nc = contact::cornerCount(fn.type);
            for (Index e = 0; e < b.size(); ++e) {
                Keyed k{
                    {contact::kNoIndex, contact::kNoIndex, contact::kNoIndex, contact::kNoIndex},
                    {{bi, e}, f}};
                const Index* nodes = b.element(e);
                for (int i = 0; i < nc; ++i) {
                    k.corners[static_cast<std::size_t>(i)] = nodes[fn.local[i]];
                }
                std::sort(k.corners.begin(), k.corners.begin() + nc);
                keyed.push_back(k);
            }
        }
    }
    std::sort(keyed.begin(), keyed.end(),
              [](const Keyed& a, const Keyed& b) { return a.corners < b.corners; });
    for (std::size_t i = 0; i < keyed.size();) {
        std::size_t j = i + 1;
        while (j < keyed.size() && keyed[j].corners == keyed[i].corners) {
            ++j;
        }
        if (j == i + 1) {
            out.push_back(keyed[i].face);
        }
        i = j;
    }
    std::sort(out.begin(), out.end(),
              [](const FaceRef& a, const FaceRef& b) { return keyOf(a) < keyOf(b); });
    if (shellsLeftOut != nullptr) {
        *shellsLeftOut = shells;
    }
    return out;
}

namespace detail {
namespace {

// A surface of the contact domain: its name and faces (sorted by FaceKey).
struct Region {
    std::string name;
    std::vector<FaceRef> faces;
};

// Adds a surface of generated faces; the name gets " (general contact)" while another surface
// already has it.
std::string addSurface(Model& m, std::string name, std::vector<FaceRef> faces,
                       const Source& source) {
    while (m.findSurface(name) != nullptr) {
        name += " (general contact)";
    }
    SurfaceDef s;
    s.name = name;
    s.faces = std::move(faces);
    s.source = source;
    m.surfaces.push_back(std::move(s));
    return name;
}

void refuse(Model& m, const GeneralContact& gc, const Source& at, const std::string& problem) {
    InterfaceDef d;
    d.kind = InterfaceDef::Kind::kGeneralContact;
    d.slave = "ALL EXTERIOR";
    d.master = "ALL EXTERIOR";
    d.problem = problem;
    d.source = at.path.empty() ? gc.source : at;
    m.interfaces.push_back(std::move(d));
}

}  // namespace

void addGeneralContact(Model& model, const GeneralContact& gc) {
    // The regions: every named surface (in order of first appearance), then the rest of the
    // exterior when the all-inclusive surface takes part.
    std::vector<Region> regions;
    std::vector<Source> where;  // the data line first naming each region
    bool all = gc.allExterior;
    const auto regionOf = [&](const std::string& name, const Source& at) -> int {
        if (name.empty()) {
            all = true;
            return -1;
        }
        for (std::size_t r = 0; r < regions.size(); ++r) {
            if (lowerCase(regions[r].name) == lowerCase(name)) {
                return static_cast<int>(r);
            }
        }
        regions.push_back({name, {}});
        where.push_back(at);
        return static_cast<int>(regions.size() - 1);
    };
    for (const auto* list : {&gc.inclusions, &gc.exclusions}) {
        for (const SurfacePair& p : *list) {
            regionOf(p.names[0], p.source);
            regionOf(p.names[1], p.source);
        }
    }
    if (gc.inclusions.empty() && !gc.allExterior) {
        refuse(model, gc, {},
               "*CONTACT without *CONTACT INCLUSIONS (ALL EXTERIOR or surface pairs): nothing to "
               "search");
        return;
    }
    for (std::size_t r = 0; r < regions.size(); ++r) {
        const SurfaceDef* s = model.findSurface(regions[r].name);
        if (s == nullptr || s->nodeSurface) {
            refuse(model, gc, where[r],
                   "general contact: surface '" + regions[r].name + "' " +
                       (s == nullptr ? "is not defined" : "is a node surface") +
                       " (general contact takes element surfaces)");
            return;
        }
        regions[r].name = s->name;
        regions[r].faces = s->faces;
        std::sort(regions[r].faces.begin(), regions[r].faces.end(),
                  [](const FaceRef& a, const FaceRef& b) { return keyOf(a) < keyOf(b); });
    }
    const std::size_t named = regions.size();
    if (all) {  // the rest of the exterior: what no named region holds
        long shells = 0;
        std::vector<FaceRef> rest;
        for (const FaceRef& f : exteriorFaces(model, &shells)) {
            const bool taken = std::any_of(regions.begin(), regions.end(), [&](const Region& r) {
                return std::binary_search(
                    r.faces.begin(), r.faces.end(), f,
                    [](const FaceRef& a, const FaceRef& b) { return keyOf(a) < keyOf(b); });
            });
            if (!taken) {
                rest.push_back(f);
            }
        }
        std::string name = "ALL EXTERIOR";
        for (std::size_t r = 0; r < named; ++r) {
            name += (r == 0 ? " except " : ", ") + regions[r].name;
        }
        regions.push_back({name, std::move(rest)});
        if (shells > 0) {
            model.notes.push_back(gc.source.path + ":" + std::to_string(gc.source.line) + ": " +
                                  std::to_string(shells) +
                                  " shell and membrane elements are not in ALL EXTERIOR (a "
                                  "two-sided surface is not searched): name their sides in a "
                                  "*CONTACT PAIR");
        }
    }
    for (std::size_t r = 0; r < named; ++r) {  // named regions must not share faces
        for (std::size_t q = r + 1; q < named; ++q) {
            std::vector<FaceRef> common;
            std::set_intersection(
                regions[r].faces.begin(), regions[r].faces.end(), regions[q].faces.begin(),
                regions[q].faces.end(), std::back_inserter(common),
                [](const FaceRef& a, const FaceRef& b) { return keyOf(a) < keyOf(b); });
            if (!common.empty()) {
                refuse(model, gc, where[q],
                       "general contact: surfaces '" + regions[r].name + "' and '" +
                           regions[q].name + "' have " + std::to_string(common.size()) +
                           (common.size() == 1 ? " face" : " faces") +
                           " in common; the search splits the contact domain into surfaces "
                           "without common faces");
                return;
            }
        }
    }
    // Which regions meet: included pairs, then the excluded ones taken out ("" = every region).
    const std::size_t n = regions.size();
    std::vector<char> meets(n * n, 0);
    const auto mark = [&](const SurfacePair& p, char value) {
        const int a = regionOf(p.names[0], p.source);
        const int b = regionOf(p.names[1], p.source);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                if ((a < 0 || static_cast<int>(i) == a) && (b < 0 || static_cast<int>(j) == b)) {
                    meets[i * n + j] = value;
                    meets[j * n + i] = value;
                }
            }
        }
    };
    if (gc.allExterior) {
        std::fill(meets.begin(), meets.end(), 1);
    }
    for (const SurfacePair& p : gc.inclusions) {
        mark(p, 1);
    }
    for (const SurfacePair& p : gc.exclusions) {
        mark(p, 0);
    }
    // One interface per region: its nodes against the union of the regions it meets. Named
    // regions are the file's surfaces; the rest and the unions are added once each.
    std::vector<std::string> names(n);
    for (std::size_t i = 0; i < named; ++i) {
        names[i] = regions[i].name;
    }
    const auto surfaceOf = [&](std::size_t r) {
        if (names[r].empty()) {
            names[r] = addSurface(model, regions[r].name, regions[r].faces, gc.source);
        }
        return names[r];
    };
    std::map<std::vector<std::size_t>, std::string> unions;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::size_t> met;
        for (std::size_t j = 0; j < n; ++j) {
            if (meets[i * n + j] != 0) {
                met.push_back(j);
            }
        }
        if (met.empty() || regions[i].faces.empty()) {
            continue;
        }
        std::string master;
        if (met.size() == 1) {
            master = surfaceOf(met[0]);
        } else if (const auto it = unions.find(met); it != unions.end()) {
            master = it->second;
        } else {
            // With the rest of the exterior in it: "ALL EXTERIOR [except <the regions not in>]";
            // else the regions joined by " + ".
            const bool withRest = all && std::find(met.begin(), met.end(), n - 1) != met.end();
            std::string name;
            std::vector<FaceRef> faces;
            for (std::size_t j = 0; j < n; ++j) {
                const bool in = std::find(met.begin(), met.end(), j) != met.end();
                if (in) {
                    faces.insert(faces.end(), regions[j].faces.begin(), regions[j].faces.end());
                }
                if (withRest ? !in : in) {
                    name += (name.empty() ? "" : withRest ? ", " : " + ") + regions[j].name;
                }
            }
            if (withRest) {
                name.insert(0, name.empty() ? "ALL EXTERIOR" : "ALL EXTERIOR except ");
            }
            std::sort(faces.begin(), faces.end(),
                      [](const FaceRef& a, const FaceRef& b) { return keyOf(a) < keyOf(b); });
            master = addSurface(model, name, std::move(faces), gc.source);
            unions[met] = master;
        }
        InterfaceDef d;
        d.kind = InterfaceDef::Kind::kGeneralContact;
        d.slave = surfaceOf(i);
        d.master = master;
        d.selfContact = true;
        d.source = gc.source;
        model.interfaces.push_back(std::move(d));
    }
}

}  // namespace detail
}  // namespace mesh_io
