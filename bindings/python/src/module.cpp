// SPDX-License-Identifier: MIT
// contact_search._core: the C++ search and mesh_io for Python (pybind11). The package
// (contact_search/__init__.py) adds the Python-side conveniences on top of these classes.
//
// Coordinates: a float64 array of shape (n, 2) or (n, 3) whose strides are whole doubles is read
// in place (C-contiguous (n, 3): interleaved; the transpose of a C-contiguous (3, n): separate
// x, y, z; a column slice of wider records: strided); anything else is copied once per call.
// update() releases the GIL.
#include "contact/clipping.hpp"
#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"

#include "overlap_table.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

using contact::Index;

// A surface: from a model (element ids and faces as in the file) or built from arrays.
struct PySurface {
    mesh_io::ContactSurface cs;
    bool fromModel = false;
    std::vector<std::int32_t> types;
    std::vector<std::int64_t> elementIds;
    std::vector<std::int32_t> faces;
    std::vector<std::string> elementLabels;  // as the tool's outputs name them (from a model)
};

struct PyModel {
    mesh_io::Model model;
    // By the surface's position in model.surfaces: a node surface and an element surface may
    // share a name.
    std::map<std::size_t, std::shared_ptr<PySurface>> built;
};

// Bytes that need not be UTF-8 (a Latin-1 deck), decoded with the error handler `errors`.
py::str decodeUtf8(const std::string& s, const char* errors) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), errors);
    if (o == nullptr) {
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::str>(o);
}

// A name from a file: undecodable bytes become lone surrogates (surrogateescape), so that the
// name given back finds the same surface.
py::str fileText(const std::string& s) { return decodeUtf8(s, "surrogateescape"); }

// A message quoting a file's bytes: undecodable bytes become \xNN (backslashreplace).
py::str messageText(const std::string& s) { return decodeUtf8(s, "backslashreplace"); }

// An index, or None for kNoIndex.
std::optional<Index> orNone(Index i) {
    return i == contact::kNoIndex ? std::nullopt : std::optional<Index>(i);
}

// A path, decoded as os.fsdecode does.
py::str pathText(const std::string& s) {
    PyObject* o = PyUnicode_DecodeFSDefault(s.c_str());
    if (o == nullptr) {
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::str>(o);
}

py::list messageList(const std::vector<std::string>& v) {
    py::list out;
    for (const std::string& s : v) {
        out.append(messageText(s));
    }
    return out;
}

double monotonicSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A read-only numpy view of n x width values owned by `owner` (kept alive by the array).
template <class T>
py::array view(const T* data, py::ssize_t n, py::ssize_t width, py::handle owner) {
    py::array a =
        width == 0
            ? py::array_t<T>({n}, {py::ssize_t(sizeof(T))}, data, owner)
            : py::array_t<T>({n, width}, {py::ssize_t(sizeof(T)) * width, py::ssize_t(sizeof(T))},
                             data, owner);
    a.attr("setflags")(py::arg("write") = false);
    return a;
}

// A copy of n x width values (width 0: a vector).
template <class T>
py::array copied(const T* data, py::ssize_t n, py::ssize_t width) {
    if (width == 0) {
        return py::array_t<T>({n}, {py::ssize_t(sizeof(T))}, data);
    }
    return py::array_t<T>({n, width}, {py::ssize_t(sizeof(T)) * width, py::ssize_t(sizeof(T))},
                          data);
}

std::shared_ptr<PySurface> finishSurface(mesh_io::ContactSurface cs, bool fromModel) {
    auto s = std::make_shared<PySurface>();
    s->cs = std::move(cs);
    s->fromModel = fromModel;
    for (const contact::SegmentType t : s->cs.surface.types) {
        s->types.push_back(static_cast<std::int32_t>(t));
    }
    for (std::size_t i = 0; i < s->cs.origin.size(); ++i) {
        s->elementIds.push_back(s->cs.origin[i].elementId);
        s->faces.push_back(s->cs.origin[i].face);
    }
    return s;
}

// A surface from arrays: types (int32 codes), offsets (or none: back to back), connectivity.
std::shared_ptr<PySurface> surfaceFromArrays(const std::string& name,
                                             const py::array_t<std::int32_t>& types,
                                             const py::object& offsets,
                                             const py::array_t<std::int64_t>& connectivity) {
    const auto t = types.unchecked<1>();
    const auto c = connectivity.unchecked<1>();
    const py::ssize_t n = t.shape(0);
    if (n > std::numeric_limits<Index>::max() || c.shape(0) > std::numeric_limits<Index>::max()) {
        throw std::invalid_argument("Surface: more than 2^31 - 1 segments or connectivity entries");
    }
    mesh_io::ContactSurface cs;
    cs.name = name;
    cs.surface.name = name;
    std::vector<std::int64_t> off;
    if (!offsets.is_none()) {
        const auto o =
            py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(offsets);
        if (!o || o.ndim() != 1 || o.shape(0) != n + 1) {
            throw std::invalid_argument("Surface: offsets must hold one entry per segment plus "
                                        "one (" +
                                        std::to_string(n + 1) + ")");
        }
        off.assign(o.data(), o.data() + n + 1);
        if (off[0] != 0) {
            throw std::invalid_argument("Surface: offsets[0] is " + std::to_string(off[0]) +
                                        ", not 0");
        }
    }
    std::int64_t end = 0;
    for (py::ssize_t s = 0; s < n; ++s) {
        if (t(s) < 0 || t(s) > 6) {
            throw std::invalid_argument("Surface '" + name + "': segment " + std::to_string(s) +
                                        " has type " + std::to_string(t(s)) + " (expected 0 .. 6)");
        }
        const auto type = static_cast<contact::SegmentType>(t(s));
        const int count = contact::nodeCount(type);
        if (!off.empty() && off[s + 1] - off[s] != count) {
            throw std::invalid_argument("Surface '" + name + "': segment " + std::to_string(s) +
                                        " of type " + contact::segmentTypeName(type) + " has " +
                                        std::to_string(off[s + 1] - off[s]) +
                                        " nodes in offsets, expected " + std::to_string(count));
        }
        if (end + count > c.shape(0)) {
            break;  // reported below
        }
        Index nodes[contact::kMaxSegmentNodes];
        for (int k = 0; k < count; ++k) {
            const std::int64_t v = c(end + k);
            if (v < std::numeric_limits<Index>::min() || v > std::numeric_limits<Index>::max()) {
                throw std::invalid_argument("Surface '" + name + "': segment " + std::to_string(s) +
                                            " has node index " + std::to_string(v) +
                                            ", beyond 32 bits");
            }
            nodes[k] = static_cast<Index>(v);
        }
        cs.surface.addSegment(type, nodes, count);
        end += count;
    }
    std::int64_t needed = 0;
    for (py::ssize_t s = 0; s < n; ++s) {
        needed += contact::nodeCount(static_cast<contact::SegmentType>(t(s)));
    }
    if (needed != c.shape(0)) {
        throw std::invalid_argument("Surface '" + name + "': the segments' types need " +
                                    std::to_string(needed) + " connectivity entries, got " +
                                    std::to_string(c.shape(0)));
    }
    cs.dim = cs.surface.empty() ? 3 : cs.surface.dim();
    return finishSurface(std::move(cs), false);
}

// A model from arrays (meshio): coordinates (n, 3), blocks of (Gmsh type number, connectivity
// (e, k)), named surfaces of (block, element) pairs. Node ids 1..n; element ids run 1.. over the
// blocks in order.
std::shared_ptr<PyModel> modelFromArrays(const std::string& label,
                                         const py::array_t<double, py::array::c_style>& coords,
                                         const py::list& blocks, const py::list& surfaces) {
    auto m = std::make_shared<PyModel>();
    mesh_io::Model& model = m->model;
    model.path = label;
    model.format = "gmsh";
    if (coords.ndim() != 2 || coords.shape(1) != 3) {
        throw std::invalid_argument(label + ": the coordinates must have shape (n, 3)");
    }
    const py::ssize_t n = coords.shape(0);
    model.coords.resize(3, n);
    std::copy(coords.data(), coords.data() + 3 * n, model.coords.data());
    model.nodeIds.resize(static_cast<std::size_t>(n));
    for (py::ssize_t i = 0; i < n; ++i) {
        model.nodeIds[static_cast<std::size_t>(i)] = i + 1;
        model.nodeIndex.insert(i + 1, static_cast<Index>(i));
    }
    long nextId = 1;
    for (const py::handle b : blocks) {
        const auto pair = b.cast<py::tuple>();
        const int gmshType = pair[0].cast<int>();
        const auto conn = pair[1].cast<py::array_t<std::int64_t, py::array::c_style>>();
        if (conn.ndim() != 2) {
            throw std::invalid_argument(label + ": block " + std::to_string(model.blocks.size()) +
                                        ": the cells must be a 2-D array (cells, nodes)");
        }
        mesh_io::ElementBlock block;
        block.type = "GMSH:" + std::to_string(gmshType);
        block.nodesPerElement = static_cast<int>(conn.shape(1));
        block.source.path = label;
        for (py::ssize_t e = 0; e < conn.shape(0); ++e) {
            block.ids.push_back(nextId++);
            for (py::ssize_t k = 0; k < conn.shape(1); ++k) {
                const std::int64_t v = conn.at(e, k);
                if (v < 0 || v >= n) {
                    throw std::invalid_argument(label + ": cell " + std::to_string(e) +
                                                " of block " + block.type + " has node " +
                                                std::to_string(v) + ", out of range [0, " +
                                                std::to_string(n) + ")");
                }
                block.nodes.push_back(static_cast<Index>(v));
            }
        }
        model.blocks.push_back(std::move(block));
    }
    for (const py::handle s : surfaces) {
        const auto pair = s.cast<py::tuple>();
        mesh_io::SurfaceDef def;
        def.name = pair[0].cast<std::string>();
        def.source.path = label;
        for (const py::handle f : pair[1].cast<py::list>()) {
            const auto be = f.cast<
                std::pair<std::int64_t,
                          py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>>();
            const std::string where =
                label + ": cell set '" + def.name + "', block " + std::to_string(be.first);
            if (be.first < 0 || be.first >= static_cast<std::int64_t>(model.blocks.size())) {
                throw std::invalid_argument(where + ": no such block (the mesh has " +
                                            std::to_string(model.blocks.size()) + ")");
            }
            const mesh_io::ElementBlock& block = model.blocks[static_cast<std::size_t>(be.first)];
            const py::ssize_t cells = be.second.size();
            const std::int64_t* index = be.second.data();
            for (py::ssize_t e = 0; e < cells; ++e) {
                if (index[e] < 0 || index[e] >= static_cast<std::int64_t>(block.size())) {
                    throw std::invalid_argument(where + ": cell " + std::to_string(index[e]) +
                                                " out of range [0, " +
                                                std::to_string(block.size()) + ")");
                }
                def.faces.push_back(
                    {{static_cast<Index>(be.first), static_cast<Index>(index[e])}, 1});
            }
        }
        model.surfaces.push_back(std::move(def));
    }
    return m;
}

// The surface `name`: where a node surface and an element surface share the name, the node
// surface when `nodes`, else the element surface (Model::findSurface). Built on first use, kept.
std::shared_ptr<PySurface> modelSurface(PyModel& m, const std::string& name, bool nodes) {
    const mesh_io::SurfaceDef* def = m.model.findSurface(name, nodes);
    if (def == nullptr) {
        (void)mesh_io::buildContactSurface(m.model, name);  // its message lists the surfaces
        throw std::invalid_argument("surface '" + name + "' not found");
    }
    const auto key = static_cast<std::size_t>(def - m.model.surfaces.data());
    auto it = m.built.find(key);
    if (it == m.built.end()) {
        it = m.built.emplace(key, finishSurface(mesh_io::buildContactSurface(m.model, *def), true))
                 .first;
        PySurface& s = *it->second;
        for (std::size_t i = 0; i < s.cs.origin.size(); ++i) {
            s.elementLabels.push_back(
                m.model.elementLabel(s.cs.origin[i].instance, s.cs.origin[i].elementId));
        }
    }
    return it->second;
}

// The coordinates of a call: read in place when the layout allows, else copied once.
struct Coordinates {
    py::array keep;  // the array read (the caller's, or the copy)
    contact::CoordinatesView view;
    bool copied = false;
};

bool readInPlace(const py::array& a) {
    if (!a.dtype().is(py::dtype::of<double>()) || a.ndim() != 2 ||
        (a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) == 0) {
        return false;
    }
    const auto whole = [](py::ssize_t s) {
        return s > 0 && s % static_cast<py::ssize_t>(sizeof(double)) == 0;
    };
    return whole(a.strides(1)) && (a.shape(0) <= 1 || whole(a.strides(0)));
}

// The view of an array of doubles read in place, its shape checked.
contact::CoordinatesView viewOf(const py::array& a, const char* fn) {
    if (a.ndim() != 2 || (a.shape(1) != 2 && a.shape(1) != 3)) {
        std::string shape;
        for (py::ssize_t k = 0; k < a.ndim(); ++k) {
            shape += (k > 0 ? ", " : "") + std::to_string(a.shape(k));
        }
        throw py::value_error(std::string(fn) +
                              ": coordinates must have shape (n, 2) or (n, 3), got (" + shape +
                              ")");
    }
    if (a.shape(0) > std::numeric_limits<Index>::max()) {
        throw py::value_error(std::string(fn) + ": more than 2^31 - 1 nodes");
    }
    const auto* x = static_cast<const double*>(a.data());
    const py::ssize_t component = a.strides(1) / py::ssize_t(sizeof(double));
    const py::ssize_t node = a.shape(0) > 1 ? a.strides(0) / py::ssize_t(sizeof(double)) : 3;
    contact::CoordinatesView v;
    v.x = x;
    v.y = x + component;
    v.z = a.shape(1) == 3 ? x + 2 * component : nullptr;
    v.stride = node;
    v.numNodes = static_cast<Index>(a.shape(0));
    v.dim = static_cast<int>(a.shape(1));
    if (v.numNodes == 0) {
        v.stride = 1;
    }
    return v;
}

Coordinates coordinates(const py::object& obj, const char* fn) {
    Coordinates c;
    if (py::isinstance<py::array>(obj) && readInPlace(obj.cast<py::array>())) {
        c.keep = obj.cast<py::array>();
        c.view = viewOf(c.keep, fn);
        if (c.view.problem() == nullptr) {
            return c;
        }
        // A layout no CoordinatesView takes (nodes overlapping in memory, a sliding window):
        // copied.
    }
    // Numbers only: complex values would lose their imaginary part, strings their meaning.
    const py::array a = py::array::ensure(obj);
    const char kind = a ? a.dtype().kind() : 'O';
    py::object converted;  // null until converted
    if (kind == 'f' || kind == 'i' || kind == 'u') {
        converted = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    }
    if (!converted) {
        throw py::value_error(std::string(fn) +
                              ": coordinates must be numbers, in an array of shape (n, 2) or "
                              "(n, 3)");
    }
    c.keep = converted.cast<py::array>();
    c.copied = true;
    c.view = viewOf(c.keep, fn);
    return c;
}

struct PyStats {
    contact::UpdateStats stats;
    double started = 0.0;
    double finished = 0.0;
    bool coordinatesCopied = false;
};

// Holds a search's lock for one call. A search shared by Python threads would otherwise run two
// updates at once (update and set_surfaces release the GIL) or hand out the pairs of one update
// half overwritten by the next. The lock is waited for with the GIL released, so a thread that
// holds it can always take the GIL back.
class Busy {
public:
    explicit Busy(std::mutex& m) : lock_(m, std::try_to_lock) {
        if (!lock_.owns_lock()) {
            py::gil_scoped_release nogil;
            lock_.lock();
        }
    }

private:
    std::unique_lock<std::mutex> lock_;
};

// The object `self` as a T whose constructor ran. pybind11 2.10 hands a method an object made by
// T.__new__ alone (no __init__) as a reference to uninitialized memory. `what` names an argument
// that must be a T ("ContactSearch.set_surfaces: master").
template <class T>
T& constructed(const py::handle& self, const char* what = nullptr) {
    const auto typeName = [&] { return std::string(py::str(py::type::of(self).attr("__name__"))); };
    if (!py::isinstance<T>(self)) {
        const std::string want = py::str(py::type::of<T>().attr("__name__"));
        throw py::type_error(std::string(what != nullptr ? what : "self") + " must be a " + want +
                             ", got " + typeName());
    }
    auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
    if (!inst->get_value_and_holder(py::detail::get_type_info(typeid(T))).holder_constructed()) {
        throw py::type_error("a " + typeName() + " whose __init__ did not run");
    }
    return self.cast<T&>();
}

// For the classes Python never constructs (their objects come from the module's functions):
// __new__ refuses, so no object without a constructed value exists.
py::object refuseNew(const py::args& args, const py::kwargs& /*kwargs*/) {
    const std::string name =
        args.empty() ? std::string("object") : std::string(py::str(args[0].attr("__name__")));
    throw py::type_error(name + " objects are made by the contact_search functions, not directly");
}

class PySearch {
public:
    PySearch(double capture, bool captureRelative, const std::string& mode, int threads,
             double skinRelative, bool selfContact, const std::string& broadPhase, bool warmStart) {
        contact::SearchOptions o;
        o.capture = capture;
        o.captureRelative = captureRelative;
        if (mode == "node") {
            o.mode = contact::SearchMode::kNodeToSegment;
        } else if (mode == "segment") {
            o.mode = contact::SearchMode::kSegmentToSegment;
        } else {
            throw py::value_error("ContactSearch: mode must be 'node' or 'segment', got '" + mode +
                                  "'");
        }
        if (broadPhase == "kdtree") {
            o.broadPhase = contact::BroadPhaseKind::kKdTree;
        } else if (broadPhase == "boxtree") {
            o.broadPhase = contact::BroadPhaseKind::kBoxTree;
        } else if (broadPhase == "sweep") {
            o.broadPhase = contact::BroadPhaseKind::kSweep;
        } else {
            throw py::value_error(
                "ContactSearch: broad_phase must be 'kdtree', 'boxtree' or 'sweep', got '" +
                broadPhase + "'");
        }
        if (!(capture >= 0.0) || capture == std::numeric_limits<double>::infinity()) {
            throw py::value_error("ContactSearch: capture must be finite and >= 0, got " +
                                  std::to_string(capture));
        }
        if (!(skinRelative >= 0.0) || skinRelative == std::numeric_limits<double>::infinity()) {
            throw py::value_error("ContactSearch: skin_relative must be finite and >= 0, got " +
                                  std::to_string(skinRelative));
        }
        o.threads = threads;
        o.skinRelative = skinRelative;
        o.selfContact = selfContact;
        o.warmStart = warmStart;
        search_ = std::make_unique<contact::ContactSearch>(o);
    }

    void setSurfaces(const PySurface& master, const py::object& slave, const py::object& coords) {
        const Busy busy(mutex_);
        if (master.cs.nodeSurface) {
            throw py::value_error("ContactSearch.set_surfaces: master surface '" + master.cs.name +
                                  "' is a node surface; a master needs element faces");
        }
        const Coordinates c = coordinates(coords, "ContactSearch.set_surfaces");
        std::vector<Index> nodes;
        const PySurface* slaveSurface = nullptr;
        if (py::isinstance<PySurface>(slave)) {
            slaveSurface = &constructed<PySurface>(slave);
            if (slaveSurface->cs.nodeSurface) {
                nodes = slaveSurface->cs.nodes;
                slaveSurface = nullptr;
            }
        } else {
            const auto a = py::array::ensure(slave);
            // An empty list is an empty array of floats: no nodes, whatever its type.
            if (!a || a.ndim() != 1 ||
                (a.size() > 0 && a.dtype().kind() != 'i' && a.dtype().kind() != 'u')) {
                throw py::value_error("ContactSearch.set_surfaces: the slave must be a Surface or "
                                      "a 1-D array of node indices (integers)");
            }
            if (a.dtype().kind() == 'u') {
                // Unsigned values above INT64_MAX would wrap to negative in the cast below: they
                // are refused here by their real value.
                const auto u = a.cast<py::array_t<std::uint64_t, py::array::forcecast>>();
                for (py::ssize_t i = 0; i < u.shape(0); ++i) {
                    if (u.at(i) > static_cast<std::uint64_t>(std::numeric_limits<Index>::max())) {
                        throw py::value_error("ContactSearch.set_surfaces: slave node index " +
                                              std::to_string(u.at(i)) + " is beyond 32 bits");
                    }
                }
            }
            const auto v = a.cast<py::array_t<std::int64_t, py::array::forcecast>>();
            for (py::ssize_t i = 0; i < v.shape(0); ++i) {
                const std::int64_t k = v.at(i);
                if (k < std::numeric_limits<Index>::min() ||
                    k > std::numeric_limits<Index>::max()) {
                    throw py::value_error("ContactSearch.set_surfaces: slave node index " +
                                          std::to_string(k) + " is beyond 32 bits");
                }
                nodes.push_back(static_cast<Index>(k));
            }
        }
        contact::Surface m = master.cs.surface;
        contact::Surface s =
            slaveSurface != nullptr ? slaveSurface->cs.surface : contact::Surface{};
        {
            py::gil_scoped_release nogil;
            if (slaveSurface != nullptr) {
                search_->setSurfaces(std::move(m), std::move(s), c.view);
            } else {
                search_->setSurfaces(std::move(m), std::move(nodes), c.view);
            }
            setUp_ = false;  // until surfaceNodes_ fits the new surfaces (out of memory)
            surfaceNodes_ =
                nodeMode() ? std::vector<Index>{} : contact::bindings::surfaceNodes(*search_);
        }
        setUp_ = true;
        havePairs_ = false;
        faultNode_ = contact::kNoIndex;
        faultSegment_ = contact::kNoIndex;
        faultInSlave_ = false;
        numNodes_ = c.view.numNodes;
        dim_ = c.view.dim;
    }

    PyStats update(const py::object& coords) {
        const Busy busy(mutex_);
        // Reset first: a call refused below is another failure without a fault node.
        faultNode_ = contact::kNoIndex;
        faultSegment_ = contact::kNoIndex;
        faultInSlave_ = false;
        if (!setUp_) {
            throw std::runtime_error("ContactSearch.update: set_surfaces was not called");
        }
        const Coordinates c = coordinates(coords, "ContactSearch.update");
        PyStats r;
        r.coordinatesCopied = c.copied;
        lastAddress_ = reinterpret_cast<std::uintptr_t>(c.view.x);
        {
            py::gil_scoped_release nogil;
            r.started = monotonicSeconds();
            r.stats = search_->update(c.view);
            r.finished = monotonicSeconds();
            if (r.stats.status == contact::UpdateStatus::kOk && !nodeMode()) {
                fingerprint_ = contact::bindings::coordinatesFingerprint(surfaceNodes_, c.view);
            }
        }
        faultNode_ = r.stats.faultNode;
        faultSegment_ = r.stats.faultSegment;
        faultInSlave_ = r.stats.faultInSlave;
        if (r.stats.status == contact::UpdateStatus::kOutOfMemory) {
            havePairs_ = false;
            PyErr_SetString(PyExc_MemoryError, "ContactSearch.update: out of memory during the "
                                               "search; no pairs until the next successful update");
            throw py::error_already_set();
        }
        if (r.stats.status != contact::UpdateStatus::kOk) {
            std::string why = contact::updateStatusName(r.stats.status);
            if (r.stats.status == contact::UpdateStatus::kWrongNodeCount) {
                why += " (" + contact::bindings::coordinatesMismatch(c.view, numNodes_, dim_) + ")";
            }
            if (const std::string fault = contact::faultText(r.stats, c.view); !fault.empty()) {
                why += " (" + fault + ")";
            }
            throw py::value_error("ContactSearch.update: " + why +
                                  "; the pairs of the last successful update are kept");
        }
        havePairs_ = true;
        return r;
    }

    // The pairs as new arrays (views into the search would dangle after set_surfaces).
    [[nodiscard]] py::dict pairs() const {
        const Busy busy(mutex_);
        if (!havePairs_) {
            throw std::runtime_error("ContactSearch.pairs: no successful update yet");
        }
        py::dict d;
        const auto put = [&](const char* key, const auto* data, py::ssize_t n, py::ssize_t w) {
            d[key] = copied(data, n, w);
        };
        if (nodeMode()) {
            const contact::NodePairs& p = search_->nodePairs();
            const py::ssize_t n = p.size();
            put("slave", p.slave().data(), n, 0);
            put("master", p.master().data(), n, 0);
            put("gap", p.gap().data(), n, 0);
            put("distance", p.distance().data(), n, 0);
            put("xi", p.xi().data(), n, 2);
            put("point", p.point().data(), n, 3);
            put("normal", p.normal().data(), n, 3);
            put("tangent1", p.tangent1().data(), n, 3);
            put("tangent2", p.tangent2().data(), n, 3);
            put("shape", p.shape().data(), n, contact::kMaxSegmentNodes);
            put("status", reinterpret_cast<const std::uint8_t*>(p.status().data()), n, 0);
        } else {
            const contact::SegmentPairs& p = search_->segmentPairs();
            put("slave", p.slave().data(), p.size(), 0);
            put("master", p.master().data(), p.size(), 0);
        }
        return d;
    }

    py::dict overlaps(const py::object& coords) {
        const Busy busy(mutex_);
        if (nodeMode()) {
            throw py::value_error("ContactSearch.overlaps: overlaps need mode='segment'");
        }
        if (!havePairs_) {
            throw std::runtime_error("ContactSearch.overlaps: no successful update yet");
        }
        const Coordinates c = coordinates(coords, "ContactSearch.overlaps");
        if (c.view.numNodes != numNodes_ || c.view.dim != dim_) {
            throw py::value_error("ContactSearch.overlaps: the coordinates have " +
                                  contact::bindings::coordinatesMismatch(c.view, numNodes_, dim_));
        }
        contact::bindings::OverlapTable t;
        {
            py::gil_scoped_release release;
            if (contact::bindings::coordinatesFingerprint(surfaceNodes_, c.view) != fingerprint_) {
                throw py::value_error(std::string("ContactSearch.overlaps: ") +
                                      contact::bindings::kNotTheUpdatesCoordinates);
            }
            contact::bindings::computeOverlapTable(*search_, c.view, t);
        }
        const py::ssize_t n = t.size();
        py::dict d;
        d["slave"] = copied(t.slave.data(), n, 0);
        d["master"] = copied(t.master.data(), n, 0);
        d["overlap_area"] = copied(t.overlapArea.data(), n, 0);
        d["capture_area"] = copied(t.captureArea.data(), n, 0);
        d["penetration_area"] = copied(t.penetrationArea.data(), n, 0);
        d["centroid"] = copied(t.centroid.data(), n, 3);
        d["gap_min"] = copied(t.gapMin.data(), n, 0);
        d["gap_max"] = copied(t.gapMax.data(), n, 0);
        d["vertex_count"] = copied(t.vertexCount.data(), n, 0);
        constexpr int kv = contact::bindings::kMaxDrawnVertices;
        py::array v = copied(t.vertices.data(), n, py::ssize_t{3} * kv);
        d["vertices"] = v.attr("reshape")(n, kv, 3);
        return d;
    }

    [[nodiscard]] bool nodeMode() const {
        return search_->options().mode == contact::SearchMode::kNodeToSegment;
    }
    [[nodiscard]] int threads() const { return search_->options().threads; }
    // What set_surfaces resolved (the search's accessors), under the lock; before it, an error
    // (as the C API's CONTACT_OUT_OF_ORDER) rather than the zeros of a search not set up.
    template <class F>
    [[nodiscard]] auto resolved(const char* what, F&& f) const {
        const Busy busy(mutex_);
        if (!setUp_) {
            throw std::runtime_error(std::string("ContactSearch.") + what +
                                     ": set_surfaces was not called");
        }
        return f(*search_);
    }
    [[nodiscard]] std::uintptr_t lastAddress() const {
        const Busy busy(mutex_);
        return lastAddress_;
    }
    [[nodiscard]] std::optional<Index> faultNode() const {
        const Busy busy(mutex_);
        return orNone(faultNode_);
    }
    [[nodiscard]] std::optional<Index> faultSegment() const {
        const Busy busy(mutex_);
        return orNone(faultSegment_);
    }
    [[nodiscard]] bool faultInSlave() const {
        const Busy busy(mutex_);
        return faultInSlave_;
    }

private:
    mutable std::mutex mutex_;  // one call at a time (Busy)
    std::unique_ptr<contact::ContactSearch> search_;
    bool setUp_ = false;
    bool havePairs_ = false;
    Index numNodes_ = 0;
    int dim_ = 3;
    std::uintptr_t lastAddress_ = 0;
    Index faultNode_ = contact::kNoIndex;  // of the last update
    Index faultSegment_ = contact::kNoIndex;
    bool faultInSlave_ = false;
    // Segment mode: the surfaces' nodes and the fingerprint of their coordinates at the last
    // successful update, which overlaps() must be given.
    std::vector<Index> surfaceNodes_;
    std::uint64_t fingerprint_ = 0;
};

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "The contact search (C++) for Python; use the contact_search package.";
    // ParseError(ValueError) with .path and .line; the type lives as long as the interpreter.
    static PyObject* const parseError =
        PyErr_NewException("contact_search.ParseError", PyExc_ValueError, nullptr);
    m.attr("ParseError") = py::handle(parseError);
    // pybind11 takes a translator as void (*)(std::exception_ptr): by value.
    py::register_exception_translator([](std::exception_ptr p) {  // NOLINT(performance-*)
        try {
            if (p) {
                std::rethrow_exception(p);
            }
        } catch (const mesh_io::ParseError& e) {
            // The message quotes the file's bytes, which need not be UTF-8 (a Latin-1 deck):
            // undecodable bytes become \xNN; the path decodes as os.fsdecode does.
            const std::string what = e.what();
            const py::object message = py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(
                what.data(), static_cast<Py_ssize_t>(what.size()), "backslashreplace"));
            const py::object path =
                py::reinterpret_steal<py::object>(PyUnicode_DecodeFSDefault(e.path().c_str()));
            if (!message || !path) {
                return;  // the decoding's own error is set
            }
            const py::object err = py::handle(parseError)(message);
            py::setattr(err, "path", path);
            py::setattr(err, "line", py::int_(e.line()));
            PyErr_SetObject(parseError, err.ptr());
        }
    });

    py::class_<PySurface, std::shared_ptr<PySurface>>(m, "Surface", py::dynamic_attr())
        .def_static("__new__", &refuseNew)
        .def_static("_from_arrays", &surfaceFromArrays, py::arg("name"), py::arg("types"),
                    py::arg("offsets"), py::arg("connectivity"))
        .def_property_readonly("name", [](const PySurface& s) { return fileText(s.cs.name); })
        .def_property_readonly("dim", [](const PySurface& s) { return s.cs.dim; })
        .def_property_readonly("is_node_surface",
                               [](const PySurface& s) { return s.cs.nodeSurface; })
        .def("__len__", [](const PySurface& s) { return s.cs.surface.size(); })
        .def_property_readonly("types",
                               [](const py::object& self) {
                                   const auto& s = self.cast<const PySurface&>();
                                   return view(s.types.data(), py::ssize_t(s.types.size()), 0,
                                               self);
                               })
        .def_property_readonly("type_names",
                               [](const PySurface& s) {
                                   py::list names;
                                   for (const contact::SegmentType t : s.cs.surface.types) {
                                       names.append(contact::segmentTypeName(t));
                                   }
                                   return names;
                               })
        .def_property_readonly("offsets",
                               [](const py::object& self) {
                                   const auto& s = self.cast<const PySurface&>();
                                   return view(s.cs.surface.offsets.data(),
                                               py::ssize_t(s.cs.surface.offsets.size()), 0, self);
                               })
        .def_property_readonly("connectivity",
                               [](const py::object& self) {
                                   const auto& s = self.cast<const PySurface&>();
                                   return view(s.cs.surface.connectivity.data(),
                                               py::ssize_t(s.cs.surface.connectivity.size()), 0,
                                               self);
                               })
        .def_property_readonly("element_ids",
                               [](const py::object& self) -> py::object {
                                   const auto& s = self.cast<const PySurface&>();
                                   if (!s.fromModel) {
                                       return py::none();
                                   }
                                   return view(s.elementIds.data(),
                                               py::ssize_t(s.elementIds.size()), 0, self);
                               })
        .def_property_readonly("faces",
                               [](const py::object& self) -> py::object {
                                   const auto& s = self.cast<const PySurface&>();
                                   if (!s.fromModel) {
                                       return py::none();
                                   }
                                   return view(s.faces.data(), py::ssize_t(s.faces.size()), 0,
                                               self);
                               })
        .def_property_readonly("nodes",
                               [](const py::object& self) {
                                   const auto& s = self.cast<const PySurface&>();
                                   return view(s.cs.nodes.data(), py::ssize_t(s.cs.nodes.size()), 0,
                                               self);
                               })
        .def_property_readonly(
            "element_labels",
            [](const PySurface& s) -> py::object {
                if (!s.fromModel) {
                    return py::none();
                }
                py::list out;
                for (const std::string& l : s.elementLabels) {
                    out.append(fileText(l));
                }
                return out;
            },
            "The element of each segment as the tool's CSV and JSON name it: the id, or "
            "\"<instance>.<id>\" in an Abaqus assembly (None for a surface built from arrays).")
        .def_property_readonly("notes", [](const PySurface& s) { return messageList(s.cs.notes); });

    py::class_<PyModel, std::shared_ptr<PyModel>>(m, "Model")
        .def_static("__new__", &refuseNew)
        .def_property_readonly("path", [](const PyModel& x) { return pathText(x.model.path); })
        .def_property_readonly("files",
                               [](const PyModel& x) {
                                   py::list out;
                                   for (const std::string& f : x.model.files) {
                                       out.append(pathText(f));
                                   }
                                   return out;
                               })
        .def_property_readonly("instances",
                               [](const PyModel& x) {
                                   py::list out;
                                   for (const mesh_io::Instance& i : x.model.instances) {
                                       out.append(fileText(i.name));
                                   }
                                   return out;
                               })
        .def(
            "node_labels",
            [](const PyModel& x, const py::object& indices) {
                const auto n = static_cast<Index>(x.model.nodeIds.size());
                py::list out;
                const auto put = [&](std::int64_t i) {
                    if (i < 0 || i >= n) {
                        throw py::index_error("node_labels: node index " + std::to_string(i) +
                                              " is not in 0.." + std::to_string(n - 1));
                    }
                    out.append(fileText(x.model.nodeLabel(static_cast<Index>(i))));
                };
                if (indices.is_none()) {
                    for (Index i = 0; i < n; ++i) {
                        put(i);
                    }
                } else {
                    const auto a =
                        py::array_t<std::int64_t,
                                    py::array::c_style | py::array::forcecast>::ensure(indices);
                    if (!a || a.ndim() != 1) {
                        throw std::invalid_argument("node_labels: indices must be a 1-D array of "
                                                    "node indices");
                    }
                    for (py::ssize_t k = 0; k < a.shape(0); ++k) {
                        put(a.data()[k]);
                    }
                }
                return out;
            },
            py::arg("indices") = py::none())
        .def_property_readonly("format", [](const PyModel& x) { return x.model.format; })
        .def_property_readonly("coordinates",
                               [](const py::object& self) {
                                   const auto& x = self.cast<const PyModel&>();
                                   return view(x.model.coords.data(), x.model.coords.cols(), 3,
                                               self);
                               })
        .def_property_readonly(
            "node_ids",
            [](const py::object& self) {
                const auto& x = self.cast<const PyModel&>();
                static_assert(sizeof(long) == sizeof(std::int64_t));
                return view(reinterpret_cast<const std::int64_t*>(x.model.nodeIds.data()),
                            py::ssize_t(x.model.nodeIds.size()), 0, self);
            })
        .def_property_readonly("surface_names",
                               [](const PyModel& x) {
                                   py::list names;
                                   for (const auto& s : x.model.surfaces) {
                                       names.append(fileText(s.name));
                                   }
                                   return names;
                               })
        .def_property_readonly("node_surface_names",
                               [](const PyModel& x) {
                                   py::list names;
                                   for (const auto& s : x.model.surfaces) {
                                       if (s.nodeSurface) {
                                           names.append(fileText(s.name));
                                       }
                                   }
                                   return names;
                               })
        .def_property_readonly(
            "interface_list",
            [](const PyModel& x) {
                py::list out;
                for (const auto& d : x.model.interfaces) {
                    const py::object problem =
                        d.problem.empty() ? py::object(py::none()) : messageText(d.problem);
                    const py::object source =
                        d.source.path.empty() ? py::object(py::none())
                                              : py::object(pathText(d.source.path + ":" +
                                                                    std::to_string(d.source.line)));
                    out.append(py::make_tuple(
                        fileText(d.slave), fileText(d.master), mesh_io::interfaceKindName(d.kind),
                        d.nodeToSurface ? "node" : "segment", fileText(d.name),
                        mesh_io::searchedAsSelfContact(x.model, d), problem, source));
                }
                return out;
            })
        .def_property_readonly("notes", [](const PyModel& x) { return messageList(x.model.notes); })
        .def("surface", &modelSurface, py::arg("name"), py::arg("nodes") = false);

    m.def(
        "read_model",
        [](const std::string& path) {
            auto model = std::make_shared<PyModel>();
            py::gil_scoped_release nogil;
            model->model = mesh_io::readModel(path);
            return model;
        },
        py::arg("path"));
    m.def("_model_from_arrays", &modelFromArrays);

    py::class_<PyStats>(m, "UpdateStats")
        .def_static("__new__", &refuseNew)
        .def_property_readonly(
            "status", [](const PyStats& s) { return contact::updateStatusName(s.stats.status); })
        .def_property_readonly("rebuilt", [](const PyStats& s) { return s.stats.rebuilt; })
        .def_property_readonly("swept", [](const PyStats& s) { return s.stats.swept; })
        .def_property_readonly("list_size", [](const PyStats& s) { return s.stats.listSize; })
        .def_property_readonly("candidates", [](const PyStats& s) { return s.stats.candidates; })
        .def_property_readonly("sat_survivors",
                               [](const PyStats& s) { return s.stats.satSurvivors; })
        .def_property_readonly("projections", [](const PyStats& s) { return s.stats.projections; })
        .def_property_readonly("master_boxes", [](const PyStats& s) { return s.stats.masterBoxes; })
        .def_property_readonly("pairs", [](const PyStats& s) { return s.stats.pairs; })
        .def_property_readonly(
            "worst_projection",
            [](const PyStats& s) { return contact::projectionStatusName(s.stats.worstProjection); })
        .def_property_readonly(
            "orientation",
            [](const PyStats& s) { return contact::orientationName(s.stats.orientation.verdict); })
        .def_property_readonly("orientation_opposed",
                               [](const PyStats& s) { return s.stats.orientation.opposed; })
        .def_property_readonly("orientation_aligned",
                               [](const PyStats& s) { return s.stats.orientation.aligned; })
        .def_property_readonly("orientation_in_front",
                               [](const PyStats& s) { return s.stats.orientation.inFront; })
        .def_property_readonly("orientation_behind",
                               [](const PyStats& s) { return s.stats.orientation.behind; })
        .def_property_readonly("fault_node",
                               [](const PyStats& s) { return orNone(s.stats.faultNode); })
        .def_property_readonly("fault_segment",
                               [](const PyStats& s) { return orNone(s.stats.faultSegment); })
        .def_property_readonly("fault_in_slave",
                               [](const PyStats& s) { return s.stats.faultInSlave; })
        .def_property_readonly("time_bounds", [](const PyStats& s) { return s.stats.timeBounds; })
        .def_property_readonly("time_broad", [](const PyStats& s) { return s.stats.timeBroad; })
        .def_property_readonly("time_narrow", [](const PyStats& s) { return s.stats.timeNarrow; })
        .def_property_readonly("time_projection",
                               [](const PyStats& s) { return s.stats.timeProjection; })
        .def_property_readonly("time_total", [](const PyStats& s) { return s.stats.timeTotal(); })
        .def_readonly("started", &PyStats::started)
        .def_readonly("finished", &PyStats::finished)
        .def_readonly("coordinates_copied", &PyStats::coordinatesCopied)
        .def("__repr__", [](const PyStats& s) {
            return "<UpdateStats " + std::string(contact::updateStatusName(s.stats.status)) + ", " +
                   std::to_string(s.stats.pairs) + " pairs, rebuilt " +
                   (s.stats.rebuilt ? "yes" : "no") + ">";
        });

    py::class_<PySearch>(m, "ContactSearch")
        .def(py::init<double, bool, const std::string&, int, double, bool, const std::string&,
                      bool>(),
             py::arg("capture") = 0.5, py::arg("capture_relative") = true, py::arg("mode") = "node",
             py::arg("threads") = 1, py::arg("skin_relative") = 0.1,
             py::arg("self_contact") = false, py::arg("broad_phase") = "sweep",
             py::arg("warm_start") = true)
        // Every method checks that __init__ ran (constructed): ContactSearch.__new__ alone makes
        // an object without a search.
        .def(
            "set_surfaces",
            [](const py::object& self, const py::object& master, const py::object& slave,
               const py::object& coords) {
                constructed<PySearch>(self).setSurfaces(
                    constructed<PySurface>(master, "ContactSearch.set_surfaces: master"), slave,
                    coords);
            },
            py::arg("master"), py::arg("slave"), py::arg("coords"))
        .def(
            "update",
            [](const py::object& self, const py::object& coords) {
                return constructed<PySearch>(self).update(coords);
            },
            py::arg("coords"))
        .def("_pairs", [](const py::object& self) { return constructed<PySearch>(self).pairs(); })
        .def(
            "overlaps",
            [](const py::object& self, const py::object& coords) {
                return constructed<PySearch>(self).overlaps(coords);
            },
            py::arg("coords"))
        .def_property_readonly("mode",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.nodeMode() ? "node" : "segment";
                               })
        .def_property_readonly("capture_distance",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.resolved("capture_distance",
                                                     [](const contact::ContactSearch& c) {
                                                         return c.captureDistance();
                                                     });
                               })
        .def_property_readonly(
            "skin_distance",
            [](const py::object& self) {
                const PySearch& s = constructed<PySearch>(self);
                return s.resolved("skin_distance",
                                  [](const contact::ContactSearch& c) { return c.skinDistance(); });
            })
        .def_property_readonly("mean_master_size",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.resolved("mean_master_size",
                                                     [](const contact::ContactSearch& c) {
                                                         return c.meanMasterSize();
                                                     });
                               })
        .def_property_readonly("threads",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.threads();
                               })
        .def_property_readonly("slave_nodes",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.resolved(
                                       "slave_nodes", [](const contact::ContactSearch& c) {
                                           const std::vector<Index>& v = c.slaveNodes();
                                           return copied(v.data(), py::ssize_t(v.size()), 0);
                                       });
                               })
        .def_property_readonly("last_coordinates_address",
                               [](const py::object& self) {
                                   const PySearch& s = constructed<PySearch>(self);
                                   return s.lastAddress();
                               })
        .def_property_readonly(
            "fault_node",
            [](const py::object& self) { return constructed<PySearch>(self).faultNode(); },
            "The node (0-based) the last update failed on, as its ValueError "
            "names it (non-finite or out-of-range coordinates, the corner where a "
            "segment collapsed or folded); None after a "
            "successful update, another failure or set_surfaces.")
        .def_property_readonly(
            "fault_segment",
            [](const py::object& self) { return constructed<PySearch>(self).faultSegment(); },
            "The segment (0-based) the last update found degenerate (collapsed, folded or "
            "twisted), as its ValueError names it; fault_in_slave says whether it is a slave "
            "segment. None after a successful update, another failure or set_surfaces.")
        .def_property_readonly(
            "fault_in_slave",
            [](const py::object& self) { return constructed<PySearch>(self).faultInSlave(); },
            "Whether fault_segment is a slave segment (else a master segment).");
}
