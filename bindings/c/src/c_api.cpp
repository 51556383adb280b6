// SPDX-License-Identifier: MIT
// The C API over ContactSearch and mesh_io: argument checks, then the C++ call inside guard(),
// which turns every exception into a status code and a message.
#include "contact/c_api.h"

#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"

#include "overlap_table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using contact::Index;

// An error message that never throws when set: out of memory leaves a fixed text.
class ErrorText {
public:
    void set(const char* fn, const char* what) noexcept {
        try {
            text_.assign(fn).append(": ").append(what);
            fixed_ = nullptr;
        } catch (...) {
            fixed_ = "out of memory while storing an error message";
        }
    }
    [[nodiscard]] const char* get() const noexcept {
        return fixed_ != nullptr ? fixed_ : text_.c_str();
    }

private:
    std::string text_;
    const char* fixed_ = nullptr;
};

thread_local ErrorText tlsError;

// A failure found by the checks here, thrown inside guard() and turned into its code.
struct Failure {
    int code;
    std::string message;
};

[[noreturn]] void raise(int code, std::string message) { throw Failure{code, std::move(message)}; }

// Runs f, turning every exception into a status code; the message goes to the thread and, when
// given, to the handle.
template <class F>
int guard(ErrorText* handleError, const char* fn, F&& f) noexcept {
    int code = CONTACT_ERROR_INTERNAL;
    const char* what = "unknown exception";
    std::string keep;
    try {
        try {
            return f();
        } catch (const Failure& e) {
            code = e.code;
            keep = e.message;
        } catch (const mesh_io::ParseError& e) {
            code = CONTACT_ERROR_FILE;
            keep = e.what();
        } catch (const std::bad_alloc&) {
            code = CONTACT_ERROR_OUT_OF_MEMORY;
            what = "out of memory";
        } catch (const std::invalid_argument& e) {
            code = CONTACT_ERROR_INVALID_INPUT;
            keep = e.what();
        } catch (const std::exception& e) {
            code = CONTACT_ERROR_INTERNAL;
            keep = e.what();
        } catch (...) {
            code = CONTACT_ERROR_INTERNAL;
        }
        if (!keep.empty()) {
            what = keep.c_str();
        }
    } catch (...) {  // copying a message ran out of memory
        code = CONTACT_ERROR_OUT_OF_MEMORY;
        what = "out of memory";
    }
    tlsError.set(fn, what);
    if (handleError != nullptr) {
        handleError->set(fn, what);
    }
    return code;
}

void need(const void* p, const char* what) {
    if (p == nullptr) {
        raise(CONTACT_ERROR_NULL_POINTER, std::string(what) + " is NULL");
    }
}

bool validType(int32_t t) { return t >= CONTACT_LINE2 && t <= CONTACT_QUAD9; }

contact::Surface toSurface(const contact_surface* s, const char* role) {
    need(s, role);
    const std::string who = std::string(role) + " surface";
    if (s->num_segments < 0) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              who + ": num_segments is negative (" + std::to_string(s->num_segments) + ")");
    }
    if (s->connectivity_size < 0 || s->connectivity_size > std::numeric_limits<Index>::max()) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT, who + ": connectivity_size " +
                                                  std::to_string(s->connectivity_size) +
                                                  " is out of range (0 .. 2^31 - 1)");
    }
    // Checked before the types are read: a num_segments beyond the types array (the node count
    // passed by mistake) would read past it.
    if (s->num_segments > s->connectivity_size / 2) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              who + ": num_segments " + std::to_string(s->num_segments) + " needs at least " +
                  std::to_string(2 * int64_t(s->num_segments)) +
                  " connectivity entries (every segment has 2 nodes or more), connectivity_size "
                  "is " +
                  std::to_string(s->connectivity_size));
    }
    if (s->num_segments > 0) {
        need(s->types, (who + " types").c_str());
    }
    if (s->connectivity_size > 0) {
        need(s->connectivity, (who + " connectivity").c_str());
    }
    contact::Surface out;
    out.name = s->name != nullptr ? s->name : role;
    const auto n = static_cast<std::size_t>(s->num_segments);
    out.types.resize(n);
    out.offsets.resize(n + 1);
    out.offsets[0] = 0;
    int64_t end = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!validType(s->types[i])) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT, who + ": segment " + std::to_string(i) +
                                                      " has type " + std::to_string(s->types[i]) +
                                                      " (expected 0 .. 6, CONTACT_LINE2 .. "
                                                      "CONTACT_QUAD9)");
        }
        out.types[i] = static_cast<contact::SegmentType>(s->types[i]);
        const int count = contact::nodeCount(out.types[i]);
        if (s->offsets != nullptr) {
            if (i == 0 && s->offsets[0] != 0) {
                raise(CONTACT_ERROR_INVALID_ARGUMENT,
                      who + ": offsets[0] is " + std::to_string(s->offsets[0]) + ", not 0");
            }
            if (int64_t(s->offsets[i + 1]) - s->offsets[i] != count) {
                raise(CONTACT_ERROR_INVALID_ARGUMENT,
                      who + ": segment " + std::to_string(i) + " of type " +
                          contact::segmentTypeName(out.types[i]) + " has " +
                          std::to_string(int64_t(s->offsets[i + 1]) - s->offsets[i]) +
                          " nodes in offsets, expected " + std::to_string(count));
            }
        }
        end += count;
        out.offsets[i + 1] = static_cast<Index>(std::min<int64_t>(end, s->connectivity_size));
    }
    if (end != s->connectivity_size) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT, who + ": the segments' types need " +
                                                  std::to_string(end) +
                                                  " connectivity entries, connectivity_size is " +
                                                  std::to_string(s->connectivity_size));
    }
    out.connectivity.assign(s->connectivity, s->connectivity + s->connectivity_size);
    return out;
}

contact::CoordinatesView toView(const contact_coordinates* c) {
    need(c, "coordinates");
    if (c->dim != 2 && c->dim != 3) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              "coordinates: dim is " + std::to_string(c->dim) + " (expected 2 or 3)");
    }
    if (c->num_nodes < 0) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              "coordinates: num_nodes is negative (" + std::to_string(c->num_nodes) + ")");
    }
    const bool some = c->num_nodes > 0;
    switch (c->layout) {
    case CONTACT_LAYOUT_INTERLEAVED:
        if (some) {
            need(c->x, "coordinates x");
        }
        return contact::CoordinatesView::interleaved(c->x, c->num_nodes, c->dim);
    case CONTACT_LAYOUT_SEPARATE:
        if (some) {
            need(c->x, "coordinates x");
            need(c->y, "coordinates y");
            if (c->dim == 3) {
                need(c->z, "coordinates z");
            }
        }
        if (c->dim == 2 && c->z != nullptr) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT, "coordinates: z is not NULL with dim 2");
        }
        return contact::CoordinatesView::separate(c->x, c->y, c->dim == 3 ? c->z : nullptr,
                                                  c->num_nodes);
    case CONTACT_LAYOUT_STRIDED:
        if (some) {
            need(c->x, "coordinates x");
        }
        if (c->stride < c->dim) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT, "coordinates: stride " +
                                                      std::to_string(c->stride) + " is below dim " +
                                                      std::to_string(c->dim));
        }
        // The last node's address must be computable: (num_nodes - 1) * stride doubles within
        // the address space (past it the product wraps, and a wrapped stride can look valid).
        if (c->num_nodes > 1 && c->stride > (std::numeric_limits<std::ptrdiff_t>::max() /
                                                 static_cast<std::ptrdiff_t>(sizeof(double)) -
                                             c->dim) /
                                                (c->num_nodes - 1)) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT,
                  "coordinates: stride " + std::to_string(c->stride) + " with " +
                      std::to_string(c->num_nodes) +
                      " nodes reaches beyond the address space (no array is that large)");
        }
        return contact::CoordinatesView::strided(c->x, c->stride, c->num_nodes, c->dim);
    default:
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              "coordinates: layout " + std::to_string(c->layout) +
                  " is unknown (expected CONTACT_LAYOUT_INTERLEAVED, _SEPARATE or _STRIDED)");
    }
}

const char* fieldName(int32_t field) {
    static const char* const kNames[] = {"slave",    "master",   "status", "gap",
                                         "distance", "xi",       "point",  "normal",
                                         "tangent1", "tangent2", "shape"};
    return field >= 0 && field <= CONTACT_FIELD_SHAPE ? kNames[field] : "unknown";
}

bool indexField(int32_t field) {
    return field == CONTACT_FIELD_SLAVE || field == CONTACT_FIELD_MASTER ||
           field == CONTACT_FIELD_STATUS;
}

}  // namespace

struct contact_search {
    std::unique_ptr<contact::ContactSearch> search;
    contact::SearchMode mode = contact::SearchMode::kNodeToSegment;
    bool setUp = false;
    bool havePairs = false;
    Index numNodes = 0;
    int dim = 3;
    bool haveOverlaps = false;
    Index faultNode = contact::kNoIndex;  // of the last update
    Index faultSegment = contact::kNoIndex;
    bool faultInSlave = false;
    // Segment mode: the surfaces' nodes and the fingerprint of their coordinates at the last
    // successful update, which compute_overlaps must be given.
    std::vector<Index> surfaceNodes;
    std::uint64_t fingerprint = 0;
    contact::bindings::OverlapTable overlaps;
    mutable ErrorText error;

    [[nodiscard]] bool nodeMode() const { return mode == contact::SearchMode::kNodeToSegment; }
    void requirePairs() const {
        if (!havePairs) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "no successful contact_search_update yet");
        }
    }
    [[nodiscard]] Index pairCount() const {
        return nodeMode() ? search->nodePairs().size() : search->segmentPairs().size();
    }
};

struct contact_model {
    mesh_io::Model model;
    std::vector<int64_t> ids;  // the node ids as int64_t where long differs
    struct Built {
        mesh_io::ContactSurface cs;
        std::vector<int32_t> types;
        std::vector<int64_t> elementIds;
        std::vector<int32_t> faces;
    };
    // By the surface's position in model.surfaces: a node surface and an element surface may
    // share a name.
    std::map<std::size_t, std::unique_ptr<Built>> surfaces;
    mutable ErrorText error;
};

namespace {

// Runs f on a search handle: NULL handle checked, its message set on failure.
template <class F>
int onSearch(const contact_search* s, const char* fn, F&& f) noexcept {
    if (s == nullptr) {
        tlsError.set(fn, "the search handle is NULL");
        return CONTACT_ERROR_NULL_HANDLE;
    }
    return guard(&s->error, fn, std::forward<F>(f));
}

template <class F>
int onModel(const contact_model* m, const char* fn, F&& f) noexcept {
    if (m == nullptr) {
        tlsError.set(fn, "the model handle is NULL");
        return CONTACT_ERROR_NULL_HANDLE;
    }
    return guard(&m->error, fn, std::forward<F>(f));
}

void checkSize(int64_t size, int64_t needed, const char* what) {
    if (size < needed) {
        raise(CONTACT_ERROR_BUFFER_TOO_SMALL, std::string(what) + " holds " + std::to_string(size) +
                                                  " elements, " + std::to_string(needed) +
                                                  " needed");
    }
}

// The surface `name` of the model, preferring the node surface (nodes) or the element surface
// where both share the name (Model::findSurface); built on the first call and kept. Inside guard().
int modelSurface(contact_model* model, const char* name, bool nodes, contact_surface_info* info) {
    need(name, "name");
    need(info, "info");
    const mesh_io::SurfaceDef* def = model->model.findSurface(name, nodes);
    if (def == nullptr) {
        try {
            (void)mesh_io::buildContactSurface(model->model, name);  // its message lists names
        } catch (const std::invalid_argument& e) {
            raise(CONTACT_ERROR_NOT_FOUND, e.what());
        }
        raise(CONTACT_ERROR_NOT_FOUND, std::string("surface '") + name + "' not found");
    }
    std::unique_ptr<contact_model::Built>& slot =
        model->surfaces[static_cast<std::size_t>(def - model->model.surfaces.data())];
    if (!slot) {
        auto b = std::make_unique<contact_model::Built>();
        b->cs = mesh_io::buildContactSurface(model->model, *def);
        const contact::Surface& s = b->cs.surface;
        b->types.reserve(s.types.size());
        for (const contact::SegmentType t : s.types) {
            b->types.push_back(static_cast<int32_t>(t));
        }
        b->elementIds.reserve(b->cs.origin.size());
        b->faces.reserve(b->cs.origin.size());
        for (std::size_t i = 0; i < b->cs.origin.size(); ++i) {
            b->elementIds.push_back(b->cs.origin[i].elementId);
            b->faces.push_back(b->cs.origin[i].face);
        }
        slot = std::move(b);
    }
    const contact_model::Built& b = *slot;
    info->name = b.cs.name.c_str();
    info->node_surface = b.cs.nodeSurface ? 1 : 0;
    info->dim = b.cs.dim;
    info->segments.name = b.cs.name.c_str();
    info->segments.num_segments = b.cs.surface.size();
    info->segments.types = b.types.data();
    info->segments.offsets = b.cs.surface.offsets.data();
    info->segments.connectivity = b.cs.surface.connectivity.data();
    info->segments.connectivity_size = static_cast<int64_t>(b.cs.surface.connectivity.size());
    info->element_ids = b.elementIds.data();
    info->faces = b.faces.data();
    info->num_nodes = static_cast<int32_t>(b.cs.nodes.size());
    info->nodes = b.cs.nodes.data();
    return CONTACT_OK;
}

void setUp(contact_search* s, contact::Surface master, contact::Surface slave,
           const std::vector<Index>* nodes, const contact::CoordinatesView& x) {
    if (nodes != nullptr) {
        s->search->setSurfaces(std::move(master), *nodes, x);
    } else {
        s->search->setSurfaces(std::move(master), std::move(slave), x);
    }
    try {
        s->surfaceNodes =
            s->nodeMode() ? std::vector<Index>{} : contact::bindings::surfaceNodes(*s->search);
    } catch (...) {  // out of memory: not set up, as the search after a failed set-up
        s->setUp = false;
        s->havePairs = false;
        s->haveOverlaps = false;
        throw;
    }
    s->setUp = true;
    s->havePairs = false;
    s->haveOverlaps = false;
    s->faultNode = contact::kNoIndex;  // no update of this set-up has failed
    s->faultSegment = contact::kNoIndex;
    s->faultInSlave = false;
    s->numNodes = x.numNodes;
    s->dim = x.dim;
}

}  // namespace

extern "C" {

const char* contact_status_name(int status) {
    switch (status) {
    case CONTACT_OK: return "ok";
    case CONTACT_ERROR_NULL_HANDLE: return "null handle";
    case CONTACT_ERROR_NULL_POINTER: return "null pointer";
    case CONTACT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case CONTACT_ERROR_BUFFER_TOO_SMALL: return "buffer too small";
    case CONTACT_ERROR_INVALID_INPUT: return "invalid input";
    case CONTACT_ERROR_UPDATE_FAILED: return "update failed";
    case CONTACT_ERROR_WRONG_MODE: return "wrong mode";
    case CONTACT_ERROR_OUT_OF_ORDER: return "out of order";
    case CONTACT_ERROR_FILE: return "file error";
    case CONTACT_ERROR_NOT_FOUND: return "not found";
    case CONTACT_ERROR_OUT_OF_MEMORY: return "out of memory";
    case CONTACT_ERROR_INTERNAL: return "internal error";
    default: return "unknown status";
    }
}

const char* contact_last_error(void) { return tlsError.get(); }

const char* contact_version(void) { return CONTACT_VERSION_STRING; }

int contact_segment_node_count(int32_t type) {
    return validType(type) ? contact::nodeCount(static_cast<contact::SegmentType>(type)) : 0;
}

contact_coordinates contact_coordinates_interleaved(const double* xyz, int32_t num_nodes,
                                                    int32_t dim) {
    contact_coordinates c{};
    c.layout = CONTACT_LAYOUT_INTERLEAVED;
    c.dim = dim;
    c.num_nodes = num_nodes;
    c.stride = dim;
    c.x = xyz;
    return c;
}

contact_coordinates contact_coordinates_separate(const double* x, const double* y, const double* z,
                                                 int32_t num_nodes) {
    contact_coordinates c{};
    c.layout = CONTACT_LAYOUT_SEPARATE;
    c.dim = z != nullptr ? 3 : 2;
    c.num_nodes = num_nodes;
    c.stride = 1;
    c.x = x;
    c.y = y;
    c.z = z;
    return c;
}

contact_coordinates contact_coordinates_strided(const double* first, int64_t stride,
                                                int32_t num_nodes, int32_t dim) {
    contact_coordinates c{};
    c.layout = CONTACT_LAYOUT_STRIDED;
    c.dim = dim;
    c.num_nodes = num_nodes;
    c.stride = stride;
    c.x = first;
    return c;
}

void contact_search_options_default(contact_search_options* options) {
    if (options == nullptr) {
        return;
    }
    const contact::SearchOptions d;
    options->capture = d.capture;
    options->capture_relative = d.captureRelative ? 1 : 0;
    options->mode = CONTACT_MODE_NODE_TO_SEGMENT;
    options->self_contact = d.selfContact ? 1 : 0;
    options->threads = d.threads;
    options->skin_relative = d.skinRelative;
    options->broad_phase = CONTACT_BROAD_PHASE_SWEEP;
    options->warm_start = d.warmStart ? 1 : 0;
}

int contact_search_create(const contact_search_options* options, contact_search** search) {
    return guard(nullptr, "contact_search_create", [&] {
        need(search, "search (the output)");
        contact_search_options o;
        contact_search_options_default(&o);
        if (options != nullptr) {
            o = *options;
        }
        const auto bad = [](const std::string& what) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT, what);
        };
        if (!(o.capture >= 0.0) || o.capture == std::numeric_limits<double>::infinity()) {
            bad("capture must be finite and >= 0, got " + std::to_string(o.capture));
        }
        if (o.capture_relative != 0 && o.capture_relative != 1) {
            bad("capture_relative must be 0 or 1, got " + std::to_string(o.capture_relative));
        }
        if (o.mode != CONTACT_MODE_NODE_TO_SEGMENT && o.mode != CONTACT_MODE_SEGMENT_TO_SEGMENT) {
            bad("mode must be CONTACT_MODE_NODE_TO_SEGMENT (0) or "
                "CONTACT_MODE_SEGMENT_TO_SEGMENT (1), got " +
                std::to_string(o.mode));
        }
        if (o.self_contact != 0 && o.self_contact != 1) {
            bad("self_contact must be 0 or 1, got " + std::to_string(o.self_contact));
        }
        if (!(o.skin_relative >= 0.0) ||
            o.skin_relative == std::numeric_limits<double>::infinity()) {
            bad("skin_relative must be finite and >= 0, got " + std::to_string(o.skin_relative));
        }
        if (o.threads < 1 || o.threads > contact::kMaxThreads) {
            bad("threads must be 1 .. " + std::to_string(contact::kMaxThreads) + ", got " +
                std::to_string(o.threads));
        }
        if (o.warm_start != 0 && o.warm_start != 1) {
            bad("warm_start must be 0 or 1, got " + std::to_string(o.warm_start));
        }
        if (o.broad_phase < CONTACT_BROAD_PHASE_KDTREE ||
            o.broad_phase > CONTACT_BROAD_PHASE_SWEEP) {
            bad("broad_phase must be 0 .. 2 (CONTACT_BROAD_PHASE_*), got " +
                std::to_string(o.broad_phase));
        }
        contact::SearchOptions so;
        so.capture = o.capture;
        so.captureRelative = o.capture_relative == 1;
        so.mode = o.mode == CONTACT_MODE_NODE_TO_SEGMENT ? contact::SearchMode::kNodeToSegment
                                                         : contact::SearchMode::kSegmentToSegment;
        so.selfContact = o.self_contact == 1;
        so.threads = o.threads;
        so.skinRelative = o.skin_relative;
        so.broadPhase = static_cast<contact::BroadPhaseKind>(o.broad_phase);
        so.warmStart = o.warm_start == 1;
        auto h = std::make_unique<contact_search>();
        h->search = std::make_unique<contact::ContactSearch>(so);
        h->mode = so.mode;
        *search = h.release();
        return CONTACT_OK;
    });
}

void contact_search_destroy(contact_search* search) { delete search; }

const char* contact_search_error(const contact_search* search) {
    return search == nullptr ? "null handle" : search->error.get();
}

int contact_search_set_surfaces(contact_search* search, const contact_surface* master,
                                const contact_surface* slave, const contact_coordinates* x) {
    return onSearch(search, "contact_search_set_surfaces", [&] {
        contact::Surface m = toSurface(master, "master");
        contact::Surface s = toSurface(slave, "slave");
        setUp(search, std::move(m), std::move(s), nullptr, toView(x));
        return CONTACT_OK;
    });
}

int contact_search_set_surfaces_nodes(contact_search* search, const contact_surface* master,
                                      const int32_t* slave_nodes, int32_t num_slave_nodes,
                                      const contact_coordinates* x) {
    return onSearch(search, "contact_search_set_surfaces_nodes", [&] {
        contact::Surface m = toSurface(master, "master");
        if (num_slave_nodes < 0) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT,
                  "num_slave_nodes is negative (" + std::to_string(num_slave_nodes) + ")");
        }
        if (num_slave_nodes > 0) {
            need(slave_nodes, "slave_nodes");
        }
        const std::vector<Index> nodes(slave_nodes, slave_nodes + num_slave_nodes);
        setUp(search, std::move(m), contact::Surface{}, &nodes, toView(x));
        return CONTACT_OK;
    });
}

// stats.status is the UpdateStatus cast: the two enumerations name the same numbers.
static_assert(CONTACT_UPDATE_OUT_OF_MEMORY ==
              static_cast<int>(contact::UpdateStatus::kOutOfMemory));
static_assert(CONTACT_UPDATE_DEGENERATE_SEGMENT ==
              static_cast<int>(contact::UpdateStatus::kDegenerateSegment));
static_assert(CONTACT_ORIENTATION_SLAVE_INSIDE_OUT ==
              static_cast<int>(contact::Orientation::kSlaveInsideOut));

}  // extern "C"

namespace {

int32_t orNone(Index i) { return i == contact::kNoIndex ? -1 : i; }

void copyStats(const contact::UpdateStats& st, contact_update_stats& o) {
    o.status = static_cast<int32_t>(st.status);
    o.rebuilt = st.rebuilt ? 1 : 0;
    o.pairs = st.pairs;
    o.worst_projection = static_cast<int32_t>(st.worstProjection);
    o.master_boxes = st.masterBoxes;
    o.list_size = st.listSize;
    o.candidates = st.candidates;
    o.sat_survivors = st.satSurvivors;
    o.projections = st.projections;
    o.time_bounds = st.timeBounds;
    o.time_broad = st.timeBroad;
    o.time_narrow = st.timeNarrow;
    o.time_projection = st.timeProjection;
    o.orientation = static_cast<int32_t>(st.orientation.verdict);
    o.orientation_opposed = st.orientation.opposed;
    o.orientation_aligned = st.orientation.aligned;
    o.orientation_in_front = st.orientation.inFront;
    o.orientation_behind = st.orientation.behind;
    o.fault_node = orNone(st.faultNode);
    o.fault_segment = orNone(st.faultSegment);
    o.fault_in_slave = st.faultInSlave ? 1 : 0;
}

}  // namespace

extern "C" {

int contact_search_update(contact_search* search, const contact_coordinates* x,
                          contact_update_stats* stats) {
    return onSearch(search, "contact_search_update", [&] {
        // Reset first: a call refused below is another failure without a fault node.
        search->faultNode = contact::kNoIndex;
        search->faultSegment = contact::kNoIndex;
        search->faultInSlave = false;
        const contact::CoordinatesView view = toView(x);
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        const contact::UpdateStats st = search->search->update(view);
        search->faultNode = st.faultNode;
        search->faultSegment = st.faultSegment;
        search->faultInSlave = st.faultInSlave;
        if (stats != nullptr) {
            copyStats(st, *stats);
        }
        if (st.status == contact::UpdateStatus::kOutOfMemory) {
            search->havePairs = false;
            search->haveOverlaps = false;
            raise(CONTACT_ERROR_OUT_OF_MEMORY,
                  "out of memory during the search; no pairs until the next successful update");
        }
        if (st.status != contact::UpdateStatus::kOk) {
            std::string why = contact::updateStatusName(st.status);
            if (st.status == contact::UpdateStatus::kWrongNodeCount) {
                why += " (" +
                       contact::bindings::coordinatesMismatch(view, search->numNodes, search->dim) +
                       ")";
            }
            if (const std::string fault = contact::faultText(st, view); !fault.empty()) {
                why += " (" + fault + ")";
            }
            raise(CONTACT_ERROR_UPDATE_FAILED, why + "; the pairs of the last successful update "
                                                     "are kept");
        }
        if (!search->nodeMode()) {
            search->fingerprint =
                contact::bindings::coordinatesFingerprint(search->surfaceNodes, view);
        }
        search->havePairs = true;
        search->haveOverlaps = false;
        return CONTACT_OK;
    });
}

int contact_search_fault_node(const contact_search* search, int32_t* node) {
    return onSearch(search, "contact_search_fault_node", [&] {
        need(node, "node");
        *node = search->faultNode == contact::kNoIndex ? -1 : search->faultNode;
        return CONTACT_OK;
    });
}

int contact_search_fault_segment(const contact_search* search, int32_t* segment,
                                 int32_t* in_slave) {
    return onSearch(search, "contact_search_fault_segment", [&] {
        need(segment, "segment");
        *segment = orNone(search->faultSegment);
        if (in_slave != nullptr) {
            *in_slave = search->faultInSlave ? 1 : 0;
        }
        return CONTACT_OK;
    });
}

int contact_search_mode(const contact_search* search, int32_t* mode) {
    return onSearch(search, "contact_search_mode", [&] {
        need(mode, "mode");
        *mode = search->nodeMode() ? CONTACT_MODE_NODE_TO_SEGMENT : CONTACT_MODE_SEGMENT_TO_SEGMENT;
        return CONTACT_OK;
    });
}

int contact_search_capture_distance(const contact_search* search, double* capture) {
    return onSearch(search, "contact_search_capture_distance", [&] {
        need(capture, "capture");
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        *capture = search->search->captureDistance();
        return CONTACT_OK;
    });
}

int contact_search_skin_distance(const contact_search* search, double* skin) {
    return onSearch(search, "contact_search_skin_distance", [&] {
        need(skin, "skin");
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        *skin = search->search->skinDistance();
        return CONTACT_OK;
    });
}

int contact_search_slave_node_count(const contact_search* search, int32_t* count) {
    return onSearch(search, "contact_search_slave_node_count", [&] {
        need(count, "count");
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        *count = static_cast<int32_t>(search->search->slaveNodes().size());
        return CONTACT_OK;
    });
}

int contact_search_copy_slave_nodes(const contact_search* search, int32_t* nodes, int64_t size) {
    return onSearch(search, "contact_search_copy_slave_nodes", [&] {
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        const std::vector<Index>& s = search->search->slaveNodes();
        if (!s.empty()) {
            need(nodes, "nodes");
        }
        checkSize(size, static_cast<int64_t>(s.size()), "nodes");
        std::copy(s.begin(), s.end(), nodes);
        return CONTACT_OK;
    });
}

int contact_search_pair_count(const contact_search* search, int32_t* count) {
    return onSearch(search, "contact_search_pair_count", [&] {
        need(count, "count");
        search->requirePairs();
        *count = search->pairCount();
        return CONTACT_OK;
    });
}

int contact_pair_field_width(int32_t field) {
    switch (field) {
    case CONTACT_FIELD_SLAVE:
    case CONTACT_FIELD_MASTER:
    case CONTACT_FIELD_STATUS:
    case CONTACT_FIELD_GAP:
    case CONTACT_FIELD_DISTANCE: return 1;
    case CONTACT_FIELD_XI: return 2;
    case CONTACT_FIELD_POINT:
    case CONTACT_FIELD_NORMAL:
    case CONTACT_FIELD_TANGENT1:
    case CONTACT_FIELD_TANGENT2: return 3;
    case CONTACT_FIELD_SHAPE: return CONTACT_MAX_SEGMENT_NODES;
    default: return 0;
    }
}

}  // extern "C"

namespace {

// Checks a copy request: field known, of the right kind, in this mode; returns the values needed.
int64_t checkField(const contact_search* s, int32_t field, bool wantIndex, const void* out,
                   int64_t size) {
    const int width = contact_pair_field_width(field);
    if (width == 0) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              "field " + std::to_string(field) + " is unknown (expected CONTACT_FIELD_*)");
    }
    if (indexField(field) != wantIndex) {
        raise(CONTACT_ERROR_INVALID_ARGUMENT,
              std::string("field ") + fieldName(field) + " holds " +
                  (wantIndex ? "doubles: use contact_search_copy_real_field"
                             : "integers: use contact_search_copy_index_field"));
    }
    if (!s->nodeMode() && field != CONTACT_FIELD_SLAVE && field != CONTACT_FIELD_MASTER) {
        raise(CONTACT_ERROR_WRONG_MODE, std::string("field ") + fieldName(field) +
                                            " exists in node-to-segment mode only; this search "
                                            "runs segment-to-segment");
    }
    s->requirePairs();
    const int64_t needed = int64_t(s->pairCount()) * width;
    if (needed > 0) {
        need(out, "out");
    }
    checkSize(size, needed, "out");
    return needed;
}

}  // namespace

extern "C" {

int contact_search_copy_index_field(const contact_search* search, int32_t field, int32_t* out,
                                    int64_t size) {
    return onSearch(search, "contact_search_copy_index_field", [&] {
        const int64_t n = checkField(search, field, true, out, size);
        if (n == 0) {
            return CONTACT_OK;
        }
        if (search->nodeMode()) {
            const contact::NodePairs& p = search->search->nodePairs();
            if (field == CONTACT_FIELD_STATUS) {
                for (Index i = 0; i < p.size(); ++i) {
                    out[i] = static_cast<int32_t>(p.status()[i]);
                }
            } else {
                const contact::ConstSpan<Index> v =
                    field == CONTACT_FIELD_SLAVE ? p.slave() : p.master();
                std::copy(v.begin(), v.end(), out);
            }
        } else {
            const contact::SegmentPairs& p = search->search->segmentPairs();
            const contact::ConstSpan<Index> v =
                field == CONTACT_FIELD_SLAVE ? p.slave() : p.master();
            std::copy(v.begin(), v.end(), out);
        }
        return CONTACT_OK;
    });
}

int contact_search_copy_real_field(const contact_search* search, int32_t field, double* out,
                                   int64_t size) {
    return onSearch(search, "contact_search_copy_real_field", [&] {
        const int64_t n = checkField(search, field, false, out, size);
        if (n == 0) {
            return CONTACT_OK;
        }
        const contact::NodePairs& p = search->search->nodePairs();
        const double* src = nullptr;
        switch (field) {
        case CONTACT_FIELD_GAP: src = p.gap().data(); break;
        case CONTACT_FIELD_DISTANCE: src = p.distance().data(); break;
        case CONTACT_FIELD_XI: src = p.xi().data(); break;
        case CONTACT_FIELD_POINT: src = p.point().data(); break;
        case CONTACT_FIELD_NORMAL: src = p.normal().data(); break;
        case CONTACT_FIELD_TANGENT1: src = p.tangent1().data(); break;
        case CONTACT_FIELD_TANGENT2: src = p.tangent2().data(); break;
        default: src = p.shape().data(); break;
        }
        std::copy(src, src + n, out);
        return CONTACT_OK;
    });
}

int contact_search_node_pairs_view(const contact_search* search, contact_node_pairs_view* view) {
    return onSearch(search, "contact_search_node_pairs_view", [&] {
        need(view, "view");
        if (!search->nodeMode()) {
            raise(CONTACT_ERROR_WRONG_MODE, "the search runs segment-to-segment: use "
                                            "contact_search_segment_pairs_view");
        }
        search->requirePairs();
        const contact::NodePairs& p = search->search->nodePairs();
        view->count = p.size();
        view->slave = p.slave().data();
        view->master = p.master().data();
        view->gap = p.gap().data();
        view->distance = p.distance().data();
        static_assert(sizeof(contact::ProjectionStatus) == sizeof(uint8_t));
        view->status = reinterpret_cast<const uint8_t*>(p.status().data());
        view->xi = p.xi().data();
        view->point = p.point().data();
        view->normal = p.normal().data();
        view->tangent1 = p.tangent1().data();
        view->tangent2 = p.tangent2().data();
        view->shape = p.shape().data();
        return CONTACT_OK;
    });
}

int contact_search_segment_pairs_view(const contact_search* search,
                                      contact_segment_pairs_view* view) {
    return onSearch(search, "contact_search_segment_pairs_view", [&] {
        need(view, "view");
        if (search->nodeMode()) {
            raise(CONTACT_ERROR_WRONG_MODE, "the search runs node-to-segment: use "
                                            "contact_search_node_pairs_view");
        }
        search->requirePairs();
        const contact::SegmentPairs& p = search->search->segmentPairs();
        view->count = p.size();
        view->slave = p.slave().data();
        view->master = p.master().data();
        return CONTACT_OK;
    });
}

int contact_search_csr_rows(const contact_search* search, int32_t* rows) {
    return onSearch(search, "contact_search_csr_rows", [&] {
        need(rows, "rows");
        if (!search->setUp) {
            raise(CONTACT_ERROR_OUT_OF_ORDER, "contact_search_set_surfaces was not called");
        }
        *rows = search->nodeMode() ? search->numNodes : search->search->slave().size();
        return CONTACT_OK;
    });
}

int contact_search_pairs_csr(const contact_search* search, int32_t* offsets, int64_t size) {
    return onSearch(search, "contact_search_pairs_csr", [&] {
        need(offsets, "offsets");
        search->requirePairs();
        const Index rows = search->nodeMode() ? search->numNodes : search->search->slave().size();
        checkSize(size, int64_t(rows) + 1, "offsets");
        const contact::ConstSpan<Index> slave = search->nodeMode()
                                                    ? search->search->nodePairs().slave()
                                                    : search->search->segmentPairs().slave();
        // Pairs are ordered by slave: count per row, then the running sum.
        std::fill(offsets, offsets + rows + 1, 0);
        for (const Index s : slave) {
            ++offsets[s + 1];
        }
        for (Index r = 0; r < rows; ++r) {
            offsets[r + 1] += offsets[r];
        }
        return CONTACT_OK;
    });
}

int contact_search_compute_overlaps(contact_search* search, const contact_coordinates* x,
                                    int32_t* count) {
    return onSearch(search, "contact_search_compute_overlaps", [&] {
        need(count, "count");
        const contact::CoordinatesView view = toView(x);
        if (search->nodeMode()) {
            raise(CONTACT_ERROR_WRONG_MODE, "overlaps need segment-to-segment mode");
        }
        search->requirePairs();
        if (view.numNodes != search->numNodes || view.dim != search->dim) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT,
                  "the coordinates have " +
                      contact::bindings::coordinatesMismatch(view, search->numNodes, search->dim));
        }
        if (contact::bindings::coordinatesFingerprint(search->surfaceNodes, view) !=
            search->fingerprint) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT, contact::bindings::kNotTheUpdatesCoordinates);
        }
        search->haveOverlaps = false;
        contact::bindings::computeOverlapTable(*search->search, view, search->overlaps);
        search->haveOverlaps = true;
        *count = search->overlaps.size();
        return CONTACT_OK;
    });
}

int contact_search_overlaps_view(const contact_search* search, contact_overlaps_view* view) {
    return onSearch(search, "contact_search_overlaps_view", [&] {
        need(view, "view");
        if (!search->haveOverlaps) {
            raise(CONTACT_ERROR_OUT_OF_ORDER,
                  "no contact_search_compute_overlaps since the last update");
        }
        const contact::bindings::OverlapTable& t = search->overlaps;
        view->count = t.size();
        view->slave = t.slave.data();
        view->master = t.master.data();
        view->overlap_area = t.overlapArea.data();
        view->capture_area = t.captureArea.data();
        view->penetration_area = t.penetrationArea.data();
        view->centroid = t.centroid.data();
        view->gap_min = t.gapMin.data();
        view->gap_max = t.gapMax.data();
        view->vertex_count = t.vertexCount.data();
        view->vertices = t.vertices.data();
        return CONTACT_OK;
    });
}

int contact_model_read(const char* path, contact_model** model) {
    return guard(nullptr, "contact_model_read", [&] {
        need(path, "path");
        need(model, "model (the output)");
        auto h = std::make_unique<contact_model>();
        h->model = mesh_io::readModel(path);
        if constexpr (!std::is_same_v<long, int64_t>) {
            h->ids.assign(h->model.nodeIds.begin(), h->model.nodeIds.end());
        }
        *model = h.release();
        return CONTACT_OK;
    });
}

void contact_model_destroy(contact_model* model) { delete model; }

const char* contact_model_error(const contact_model* model) {
    return model == nullptr ? "null handle" : model->error.get();
}

int contact_model_num_nodes(const contact_model* model, int32_t* count) {
    return onModel(model, "contact_model_num_nodes", [&] {
        need(count, "count");
        *count = model->model.numNodes();
        return CONTACT_OK;
    });
}

int contact_model_coordinates(const contact_model* model, const double** xyz) {
    return onModel(model, "contact_model_coordinates", [&] {
        need(xyz, "xyz");
        *xyz = model->model.coords.data();
        return CONTACT_OK;
    });
}

int contact_model_node_ids(const contact_model* model, const int64_t** ids) {
    return onModel(model, "contact_model_node_ids", [&] {
        need(ids, "ids");
        if constexpr (std::is_same_v<long, int64_t>) {
            *ids = model->model.nodeIds.data();
        } else {
            *ids = model->ids.data();
        }
        return CONTACT_OK;
    });
}

int contact_model_surface_count(const contact_model* model, int32_t* count) {
    return onModel(model, "contact_model_surface_count", [&] {
        need(count, "count");
        *count = static_cast<int32_t>(model->model.surfaces.size());
        return CONTACT_OK;
    });
}

int contact_model_surface_name(const contact_model* model, int32_t index, const char** name) {
    return onModel(model, "contact_model_surface_name", [&] {
        need(name, "name");
        const auto n = static_cast<int32_t>(model->model.surfaces.size());
        if (index < 0 || index >= n) {
            raise(CONTACT_ERROR_NOT_FOUND, "surface index " + std::to_string(index) +
                                               " is out of range (the model has " +
                                               std::to_string(n) + ")");
        }
        *name = model->model.surfaces[static_cast<std::size_t>(index)].name.c_str();
        return CONTACT_OK;
    });
}

int contact_model_interface_count(const contact_model* model, int32_t* count) {
    return onModel(model, "contact_model_interface_count", [&] {
        need(count, "count");
        *count = static_cast<int32_t>(model->model.interfaces.size());
        return CONTACT_OK;
    });
}

int contact_model_interface(const contact_model* model, int32_t index,
                            contact_interface_info* info) {
    return onModel(model, "contact_model_interface", [&] {
        need(info, "info");
        const auto n = static_cast<int32_t>(model->model.interfaces.size());
        if (index < 0 || index >= n) {
            raise(CONTACT_ERROR_NOT_FOUND, "interface index " + std::to_string(index) +
                                               " is out of range (the model has " +
                                               std::to_string(n) + ")");
        }
        const mesh_io::InterfaceDef& d = model->model.interfaces[static_cast<std::size_t>(index)];
        info->name = d.name.c_str();
        info->slave = d.slave.c_str();
        info->master = d.master.c_str();
        info->kind = d.kind == mesh_io::InterfaceDef::Kind::kTie ? CONTACT_INTERFACE_TIE
                     : d.kind == mesh_io::InterfaceDef::Kind::kGeneralContact
                         ? CONTACT_INTERFACE_GENERAL_CONTACT
                         : CONTACT_INTERFACE_CONTACT_PAIR;
        info->self_contact = mesh_io::searchedAsSelfContact(model->model, d) ? 1 : 0;
        info->mode =
            d.nodeToSurface ? CONTACT_MODE_NODE_TO_SEGMENT : CONTACT_MODE_SEGMENT_TO_SEGMENT;
        return CONTACT_OK;
    });
}

int contact_model_surface(contact_model* model, const char* name, contact_surface_info* info) {
    return onModel(model, "contact_model_surface",
                   [&] { return modelSurface(model, name, false, info); });
}

int contact_model_surface_kind(contact_model* model, const char* name, int32_t nodes,
                               contact_surface_info* info) {
    return onModel(model, "contact_model_surface_kind", [&] {
        if (nodes != 0 && nodes != 1) {
            raise(CONTACT_ERROR_INVALID_ARGUMENT,
                  "nodes is " + std::to_string(nodes) +
                      " (expected 1: the node surface, 0: the element surface)");
        }
        return modelSurface(model, name, nodes == 1, info);
    });
}

}  // extern "C"
