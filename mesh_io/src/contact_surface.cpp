// SPDX-License-Identifier: MIT
#include "mesh_io/contact_surface.hpp"

#include "contact/segment.hpp"
#include "mesh_io/error.hpp"

#include "element_types.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>

namespace mesh_io {
namespace {

using contact::SegmentType;

const detail::ElementType* typeOf(const ElementBlock& b) { return detail::findBlockType(b.type); }

// Twice the signed area of an element's corner polygon in the xy plane (> 0: counter-clockwise).
double signedArea2(const Model& m, const Index* nodes, int corners) {
    double a = 0.0;
    for (int i = 0; i < corners; ++i) {
        const auto p = m.coords.col(nodes[i]);
        const auto q = m.coords.col(nodes[(i + 1) % corners]);
        a += p.x() * q.y() - q.x() * p.y();
    }
    return a;
}

// Reverses a segment's orientation keeping midside nodes on their edges:
// corners c0, c(n-1), ..., c1; midsides follow the reversed edges; a centre node stays.
void reverseSegment(SegmentType t, Index* n) {
    const std::ptrdiff_t nc = contact::cornerCount(t);
    if (nc == 2) {
        std::swap(n[0], n[1]);
        return;
    }
    std::reverse(n + 1, n + nc);
    if (contact::isQuadratic(t)) {
        std::reverse(n + nc, n + 2 * nc);  // m01, m12, ... -> m(n-1)0, ..., m01
    }
}

// A face of a collapsed ("degenerate") element, which repeats a node (a C3D8 as a wedge: 1, 2, 3,
// 3, ...). A quadrilateral with one edge collapsed is the triangle of its other corners (Quad4 ->
// Tri3, Quad8 -> Tri6 with the other edges' midside nodes), in the same order, so the same normal.
// Returns false for a face with no area left (collapsed to a line or a point, a line to a point),
// which the surface leaves out. Any other repetition is kept as it is, for the search to refuse
// with the segment named.
bool uncollapse(SegmentType& t, Index* n) {
    const int nc = contact::cornerCount(t);
    int repeats = 0;
    int at = -1;  // corner equal to the next one
    for (int i = 0; i < nc; ++i) {
        if (n[i] == n[(i + 1) % nc]) {
            ++repeats;
            at = i;
        }
    }
    if (repeats == 0) {
        return true;
    }
    if (nc < 4 || repeats > 1) {
        return false;  // a line or a triangle with a repeated node, a quadrilateral as a line
    }
    if (t == SegmentType::Quad9) {
        return true;  // no 9-node triangle: the search refuses it
    }
    Index q[8];
    std::copy(n, n + contact::nodeCount(t), q);
    for (int k = 0; k < 3; ++k) {  // corners at + 1, at + 2, at + 3; then their edges' midsides
        n[k] = q[(at + 1 + k) % 4];
        if (t == SegmentType::Quad8) {
            n[3 + k] = q[4 + (at + 1 + k) % 4];
        }
    }
    t = t == SegmentType::Quad8 ? SegmentType::Tri6 : SegmentType::Tri3;
    return true;
}

// Gmsh orientation: elements of higher dimension than the segments, indexed by node, so that a
// segment finds the element it bounds and turns its normal away from that element's centroid.
struct Adjacency {
    std::vector<Index> offsets;
    std::vector<ElementRef> elements;
};

Adjacency higherDimAdjacency(const Model& m, int segmentDim) {
    Adjacency a;
    a.offsets.assign(static_cast<std::size_t>(m.numNodes()) + 1, 0);
    const auto visit = [&](const auto& f) {
        for (Index bi = 0; bi < static_cast<Index>(m.blocks.size()); ++bi) {
            const ElementBlock& b = m.blocks[bi];
            const detail::ElementType* t = typeOf(b);
            if (t == nullptr || t->dim <= segmentDim) {
                continue;
            }
            for (Index e = 0; e < b.size(); ++e) {
                for (int i = 0; i < t->corners; ++i) {
                    f(b.element(e)[i], ElementRef{bi, e});
                }
            }
        }
    };
    visit([&](Index node, ElementRef) { ++a.offsets[node + 1]; });
    for (Index i = 0; i < m.numNodes(); ++i) {
        a.offsets[i + 1] += a.offsets[i];
    }
    a.elements.resize(a.offsets.back());
    std::vector<Index> fill(a.offsets.begin(), a.offsets.end() - 1);
    visit([&](Index node, ElementRef r) { a.elements[fill[node]++] = r; });
    return a;
}

// The first node off the plane z = 0 (z not exactly 0, NaN included), or kNoIndex: a model
// without one is planar, the only kind whose line segments (edges of 2D elements and shells, 2D
// rigid sides, Gmsh lines) the search takes, as it searches them in the xy plane.
Index nodeOffPlane(const Model& m) {
    for (Index n = 0; n < m.numNodes(); ++n) {
        if (m.coords(2, n) != 0.0) {
            return n;
        }
    }
    return contact::kNoIndex;
}

// Why a line segment of element `label` (face `face`, of type t) cannot be searched in a model
// with `offPlane` off the plane z = 0: what the line is, and where the model leaves the plane.
std::string lineOutOfPlane(const Model& m, const detail::ElementType& t, const std::string& type,
                           const std::string& label, int face, Index offPlane) {
    std::string what = "face " + std::to_string(face) + " of element " + label + " (" + type + ")";
    std::string lines;
    if (detail::isShellEdge(t, face)) {
        const std::string edge = std::to_string(face - 2);
        what += " is edge " + edge + " of a shell" +
                (t.numbering == detail::Numbering::kAbaqus
                     ? " (label E" + edge + ", or S" + std::to_string(face) + " in CalculiX)"
                     : "");
        lines = "shell edges";
    } else if (t.kind == detail::ElementKind::kSegment) {
        what = "element " + label + " (" + type + ") is a line";
        lines = "lines";
    } else if (t.kind == detail::ElementKind::kRigid) {
        what += " is a side of a 2D rigid element";
        lines = "sides of 2D rigid elements";
    } else {
        what += " is an edge of a 2D element";
        lines = "edges of 2D elements";
    }
    char z[32];
    std::snprintf(z, sizeof z, "%.17g", m.coords(2, offPlane));
    return what + ": " + lines +
           " are line segments, which the search takes only in a planar model (every node at "
           "z = 0; node " +
           m.nodeLabel(offPlane) + " is at z = " + z + "); in 3D they are not searched";
}

// A closed surface that encloses a negative volume faces into its solid: noted, since every gap
// against it would have the wrong sign (contact::enclosedVolume; NaN, no note, when not closed).
void noteInsideOut(const Model& model, ContactSurface& cs) {
    const double v = contact::enclosedVolume(cs.surface, model.coords);
    if (std::isless(v, 0.0)) {  // NaN (not closed) quietly: no floating-point exception
        cs.notes.push_back(model.path + ": surface '" + cs.name + "' is closed and encloses a " +
                           "negative " + (cs.dim == 2 ? "area" : "volume") + " (" +
                           std::to_string(v) + "): its segments face into the solid (inside-out)");
    }
}

}  // namespace

ContactSurface buildContactSurface(const Model& model, const std::string& name) {
    const SurfaceDef* def = model.findSurface(name);
    if (def == nullptr) {
        std::string known;
        for (const auto& s : model.surfaces) {
            known += (known.empty() ? "" : ", ") + s.name;
        }
        const FileTerms terms = fileTerms(model);
        throw std::invalid_argument(std::string(terms.surface) + " '" + name + "' not found in " +
                                    model.path + " (" + terms.surfaces + ": " +
                                    (known.empty() ? "none" : known) + ")");
    }
    return buildContactSurface(model, *def);
}

ContactSurface buildContactSurface(const Model& model, const SurfaceDef& surfaceDef) {
    const SurfaceDef* def = &surfaceDef;
    ContactSurface cs;
    cs.name = def->name;
    cs.surface.name = def->name;
    const auto fail = [&](const std::string& what) {
        throw ParseError(def->source.path.empty() ? model.path : def->source.path, def->source.line,
                         "surface '" + def->name + "': " + what);
    };
    if (def->nodeSurface) {
        cs.nodeSurface = true;
        cs.nodes = def->nodes;
        cs.dim = model.numNodes() > 0 && nodeOffPlane(model) == contact::kNoIndex ? 2 : 3;
        return cs;
    }
    // Faces come in runs of one block and one label: the type and face tables are looked up
    // once per run, not per face.
    std::vector<const detail::ElementType*> types(model.blocks.size());
    for (std::size_t b = 0; b < types.size(); ++b) {
        types[b] = typeOf(model.blocks[b]);
    }
    Index lastBlock = contact::kNoIndex;
    int lastFace = 0;
    bool lastOk = false;
    detail::FaceNodes fn;
    const auto lookup = [&](const FaceRef& f) {
        if (f.element.block != lastBlock || f.face != lastFace) {
            const detail::ElementType* t = types.at(static_cast<std::size_t>(f.element.block));
            lastBlock = f.element.block;
            lastFace = f.face;
            lastOk = t != nullptr && detail::faceNodes(*t, f.face, fn);
        }
        return lastOk;
    };
    // Sizes first: the arrays are allocated once, at their final size.
    std::size_t connectivity = 0;
    for (const FaceRef& f : def->faces) {
        connectivity += lookup(f) ? static_cast<std::size_t>(contact::nodeCount(fn.type)) : 0;
    }
    cs.surface.types.reserve(def->faces.size());
    cs.surface.offsets.reserve(def->faces.size() + 1);
    cs.surface.connectivity.reserve(connectivity);
    cs.origin.reserve(def->faces.size());

    bool gmsh = false;
    std::size_t collapsed = 0;
    Index offPlane = -2;  // nodeOffPlane, found out at the first line segment
    for (const FaceRef& f : def->faces) {
        const ElementBlock& b = model.blocks.at(static_cast<std::size_t>(f.element.block));
        const long id = b.ids.at(static_cast<std::size_t>(f.element.element));
        if (!lookup(f)) {
            fail("element " + std::to_string(id) + " of type " + detail::blockTypeName(b.type) +
                 " has no face " + std::to_string(f.face) + " usable as a contact segment");
        }
        const detail::ElementType& t = *types[static_cast<std::size_t>(f.element.block)];
        gmsh = gmsh || t.kind == detail::ElementKind::kSegment;
        const Index* element = b.element(f.element.element);
        Index nodes[contact::kMaxSegmentNodes];
        for (int i = 0; i < contact::nodeCount(fn.type); ++i) {
            nodes[i] = element[fn.local[i]];
        }
        SegmentType type = fn.type;
        if (!uncollapse(type, nodes)) {
            ++collapsed;
            continue;
        }
        if (contact::spatialDim(type) == 2) {
            if (offPlane == -2) {
                offPlane = nodeOffPlane(model);
            }
            if (offPlane != contact::kNoIndex) {
                fail(lineOutOfPlane(model, t, detail::blockTypeName(b.type),
                                    model.elementLabel(b.instance, id), f.face, offPlane));
            }
        }
        if (detail::isShellEdge(t, f.face) && signedArea2(model, element, t.corners) < 0.0) {
            reverseSegment(type, nodes);  // clockwise: turn the edge
        }
        const int dim = contact::spatialDim(type);
        if (!cs.surface.empty() && dim != cs.dim) {
            fail("mixes 2D edges and 3D faces (element " + model.elementLabel(b.instance, id) +
                 ")");
        }
        cs.dim = dim;
        cs.surface.addSegment(type, nodes, contact::nodeCount(type));
        cs.origin.push_back({id, f.face, b.instance});
    }
    if (collapsed > 0) {
        cs.notes.push_back(model.path + ": surface '" + cs.name + "': " +
                           std::to_string(collapsed) + " of " + std::to_string(def->faces.size()) +
                           " faces are collapsed to a line or a point (elements with repeated "
                           "nodes) and left out");
    }
    if (!gmsh) {
        noteInsideOut(model, cs);
        return cs;
    }
    // Gmsh: orient each segment away from the element it bounds.
    const Adjacency adj = higherDimAdjacency(model, cs.dim - 1);
    long unoriented = 0;
    for (Index s = 0; s < cs.surface.size(); ++s) {
        const SegmentType t = cs.surface.types[s];
        Index* n = cs.surface.connectivity.data() + cs.surface.offsets[s];
        const int nc = contact::cornerCount(t);
        bool found = false;
        for (Index k = adj.offsets[n[0]]; k < adj.offsets[n[0] + 1] && !found; ++k) {
            const ElementRef r = adj.elements[k];
            const ElementBlock& b = model.blocks[static_cast<std::size_t>(r.block)];
            const detail::ElementType* et = types[static_cast<std::size_t>(r.block)];
            const Index* en = b.element(r.element);
            const auto holds = [&](Index node) {
                return std::find(en, en + et->corners, node) != en + et->corners;
            };
            if (!std::all_of(n, n + nc, holds)) {
                continue;
            }
            found = true;
            Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
            for (int i = 0; i < et->corners; ++i) {
                centroid += model.coords.col(en[i]) / et->corners;
            }
            contact::SegmentNodes seg;
            seg.type = t;
            for (int i = 0; i < contact::nodeCount(t); ++i) {
                seg.x[i] = model.coords.col(n[i]);
            }
            const contact::SegmentFrame fr =
                contact::segmentFrame(seg, contact::referenceCentre(t));
            if (fr.normal.dot(fr.point - centroid) < 0.0) {
                reverseSegment(t, n);
            }
        }
        unoriented += found ? 0 : 1;
    }
    if (unoriented > 0) {
        cs.notes.push_back(model.path + ": surface '" + cs.name + "': " +
                           std::to_string(unoriented) + " of " + std::to_string(cs.surface.size()) +
                           " segments have no adjacent element; their file order is kept");
    }
    noteInsideOut(model, cs);
    return cs;
}

}  // namespace mesh_io
