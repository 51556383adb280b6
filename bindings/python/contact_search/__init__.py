# SPDX-License-Identifier: MIT
"""Contact search for finite-element meshes: which slave nodes lie within a capture distance of
which master segments, with gap (negative = penetration), normal, local coordinates and shape
functions. The C++ library (contact) for Python: numpy in, numpy out.

    import contact_search as cs
    model = cs.read_model("punch_on_block.inp")
    itf = model.interfaces[0]
    master = model.surfaces[itf.master]
    slave = model.surface(itf.slave, nodes=itf.mode == "node" and not itf.self_contact)
    search = cs.ContactSearch(capture=0.5, mode=itf.mode, self_contact=itf.self_contact)
    search.set_surfaces(master, slave, model.coordinates)
    stats = search.update(model.coordinates)        # every increment; the GIL is released
    p = search.pairs()                               # p.slave, p.master, p.gap, p.normal, ...

Numbering: node, segment and pair indices are 0-based, as in numpy: p.slave[i] is a row of the
coordinates, p.master[i] a segment of the master surface. Ids as in a model file are in
model.node_ids and surface.element_ids / surface.faces; in an Abaqus assembly an id is its part's
and repeats across instances, so the tool names nodes and elements "<instance>.<id>":
model.node_labels(indices) and surface.element_labels give those names (the id as a string
outside assemblies).

Names from a file (surfaces, interactions, instances) need not be UTF-8: undecodable bytes
become lone surrogates (surrogateescape), so the name read finds the surface again; paths decode
as os.fsdecode does.

Coordinates are a float64 array of shape (n, 3) (or (n, 2) in 2D). They are read in place, never
copied, when their strides are whole doubles: a C-contiguous (n, 3) array (x y z per node), the
transpose xyz.T of a C-contiguous (3, n) array (separate x, y, z rows; a Fortran-ordered (n, 3)
array is the same), or columns of a wider record array (records[:, 0:3]). Other input (another
dtype or byte order, negative strides, lists) is copied once per call;
UpdateStats.coordinates_copied says which happened.
"""
import collections
import collections.abc
import os

import numpy as np

from . import _core
from ._core import ParseError, Surface, UpdateStats

__all__ = ["ContactSearch", "Interface", "Model", "Pairs", "ParseError", "Surface",
           "UpdateStats", "SEGMENT_TYPES", "from_meshio", "read_model", "surface"]

#: Segment type names; a surface's `types` holds their positions (Line2 = 0, ... Quad9 = 6).
SEGMENT_TYPES = ("Line2", "Line3", "Tri3", "Tri6", "Quad4", "Quad8", "Quad9")
_NODE_COUNT = {"Line2": 2, "Line3": 3, "Tri3": 3, "Tri6": 6, "Quad4": 4, "Quad8": 8, "Quad9": 9}

#: One *CONTACT PAIR / *TIE data line, or one search of general contact (*CONTACT), of a model:
#: surface names, "contact pair", "tie" or "general contact", the mode its type asks for ("node"
#: or "segment"), the interaction name, whether to search it with self_contact=True (general
#: contact, whose slave may be part of its master, or one surface as slave and master; else the
#: slave's own faces would pair with it at gap 0), problem: why the contact-search tool refuses
#: to search it (e.g. TYPE=EDGE TO EDGE), None when it can be searched, and source: "file:line"
#: of its definition (None for a model made from arrays).
Interface = collections.namedtuple("Interface",
                                   "slave master kind mode name self_contact problem source",
                                   defaults=(None, None))


def surface(types, connectivity, offsets=None, name="surface"):
    """A surface from arrays: segment types (names such as "Quad4", or codes 0..6, or one name
    for all segments), 0-based node indices of each segment back to back (or a (segments, nodes)
    array), and optionally CSR offsets (segments + 1 entries). Raises ValueError naming the
    segment for a bad type or count."""
    conn = np.asarray(connectivity)
    if conn.dtype.kind not in "iu" or conn.ndim not in (1, 2):
        raise ValueError("surface: connectivity must hold integers in a 1-D or 2-D array, got %s "
                         "of shape %s" % (conn.dtype, conn.shape))
    if offsets is not None:
        offsets = np.asarray(offsets)
        if offsets.dtype.kind not in "iu" or offsets.ndim != 1:
            raise ValueError("surface: offsets must be a 1-D array of integers, got %s of shape "
                             "%s" % (offsets.dtype, offsets.shape))
    if not isinstance(types, str) and not isinstance(types, collections.abc.Sized):
        raise ValueError("surface: types must be a type name or a sequence of names or codes, "
                         "got %r" % (types,))
    if isinstance(types, str):
        rows = conn.shape[0] if conn.ndim == 2 else len(conn) // max(1, _node_count(types, 0))
        types = [types] * rows
    codes = np.empty(len(types), dtype=np.int32)
    for i, t in enumerate(types):
        if isinstance(t, (str, np.str_)):
            _node_count(t, i)
            codes[i] = [s.lower() for s in SEGMENT_TYPES].index(t.lower())
        elif (isinstance(t, (int, np.integer)) and not isinstance(t, bool)
              and 0 <= t < len(SEGMENT_TYPES)):
            codes[i] = t
        else:
            raise ValueError("surface: segment %d has type %r (expected one of %s or 0..6)"
                             % (i, t, ", ".join(SEGMENT_TYPES)))
    flat = conn.reshape(-1)
    _refuse_beyond_int64(name, flat, codes, offsets)
    return Surface._from_arrays(name, codes, offsets, flat.astype(np.int64))


def _refuse_beyond_int64(name, flat, codes, offsets):
    """Unsigned node indices or offsets above INT64_MAX would wrap to negative in the cast to
    int64: refused here by their real value, as the C++ checks word it."""
    big = np.uint64(np.iinfo(np.int64).max)  # unsigned: compared with an int, 2**63 is a float
    if offsets is not None and offsets.dtype.kind == "u" and len(offsets) and offsets.max() > big:
        k = int(np.argmax(offsets > big))
        raise ValueError("Surface '%s': offsets[%d] is %d, beyond 32 bits" % (name, k, offsets[k]))
    if flat.dtype.kind != "u" or not len(flat) or flat.max() <= big:
        return
    k = int(np.argmax(flat > big))
    if offsets is not None:
        segment = int(np.searchsorted(offsets, k, side="right")) - 1
    else:
        ends = np.cumsum([_NODE_COUNT[SEGMENT_TYPES[c]] for c in codes])
        segment = int(np.searchsorted(ends, k, side="right"))
    where = "segment %d" % segment if segment < len(codes) else "connectivity entry %d" % k
    raise ValueError("Surface '%s': %s has node index %d, beyond 32 bits" % (name, where, flat[k]))


def _node_count(name, index):
    for t, n in _NODE_COUNT.items():
        if t.lower() == str(name).lower():
            return n
    raise ValueError("surface: segment %d has type %r (expected one of %s)"
                     % (index, name, ", ".join(SEGMENT_TYPES)))


class Pairs:
    """The pairs of an update, one numpy array per field, in pair order (by slave, then master).

    Node mode: slave (node index), master (segment index), gap (< 0: penetration), distance,
    xi (n, 2) local coordinates on the master, point (n, 3) closest point, normal (n, 3) unit
    outward master normal, tangent1 and tangent2 (n, 3), shape (n, 9) master shape functions at
    xi (zero beyond the segment's nodes), status (0 converged, 1 on boundary, 2 degenerate,
    3 not converged). Segment mode: slave and master segment indices.
    """

    def __init__(self, mode, arrays):
        self.mode = mode
        self._arrays = arrays
        for k, v in arrays.items():
            setattr(self, k, v)

    def __len__(self):
        return len(self._arrays["slave"])

    def __getitem__(self, key):
        return self._arrays[key]

    def __repr__(self):
        return "<Pairs %s, %d pairs>" % (self.mode, len(self))

    def keys(self):
        return self._arrays.keys()

    def structured(self):
        """The pairs as one numpy structured array (one record per pair)."""
        fields = []
        for k, v in self._arrays.items():
            fields.append((k, v.dtype, v.shape[1:]) if v.ndim > 1 else (k, v.dtype))
        out = np.empty(len(self), dtype=fields)
        for k, v in self._arrays.items():
            out[k] = v
        return out

    def point_data(self, num_points):
        """Node-mode pairs as meshio point data over num_points points: gap (NaN where a node
        has no pair), normal (zero there), paired (0 or 1). mesh.point_data.update(...)."""
        if self.mode != "node":
            raise ValueError("Pairs.point_data: node-to-segment pairs only")
        if len(self) and int(self.slave.max()) >= num_points:
            raise ValueError("Pairs.point_data: slave node %d is beyond the %d points"
                             % (int(self.slave.max()), num_points))
        gap = np.full(num_points, np.nan)
        normal = np.zeros((num_points, 3))
        paired = np.zeros(num_points, dtype=np.int8)
        gap[self.slave] = self.gap
        normal[self.slave] = self.normal
        paired[self.slave] = 1
        return {"gap": gap, "normal": normal, "paired": paired}


class ContactSearch(_core.ContactSearch):
    """Contact search between a master and a slave surface, updated every increment.

    ContactSearch(capture=0.5, capture_relative=True, mode="node", threads=1,
                  skin_relative=0.1, self_contact=False, broad_phase="sweep", warm_start=True)

    capture: the capture distance, a length or (capture_relative) a fraction of the mean master
    segment size. mode: "node" (node-to-segment) or "segment" (segment-to-segment). threads:
    OpenMP threads inside update (same result for any count). warm_start: in node mode on curved
    masters, an update that reuses the candidate list starts each closest point from the last
    one (the same pairs as a fresh search, values within 1e-12); False: every update equals a
    fresh search bit for bit.

    UpdateStats also carries orientation ("unknown", "consistent", "master inside-out" or "slave
    inside-out": whether the surfaces face the way their node order says) with the counts it was
    judged from (orientation_opposed, _aligned, _in_front, _behind), and fault_node,
    fault_segment (None if none) and fault_in_slave; a failed update raises ValueError, after
    which the search's fault_node, fault_segment and fault_in_slave name what failed.

    set_surfaces(master, slave, coords): the slave is a Surface or an array of node indices;
    raises ValueError with the C++ message naming the surface and segment for bad input.
    update(coords) -> UpdateStats: releases the GIL, so searches of other interfaces may run in
    other threads meanwhile (threads sharing one search take turns: each call waits for the one
    under way, so pairs() is always one update's whole result); raises ValueError for coordinates it refuses (the pairs of the last
    successful update stay). pairs() -> Pairs: new arrays, the caller's to keep. overlaps(coords)
    (segment mode) -> dict of arrays: slave, master, overlap_area, capture_area (the part with
    gap <= capture), penetration_area, and over the part in contact centroid, gap_min, gap_max
    (NaN where none), vertex_count, vertices (overlap, point, xyz).
    """

    def pairs(self):
        return Pairs(self.mode, self._pairs())


class Model:
    """A model read from a file (read_model) or made from a meshio mesh (from_meshio).

    coordinates: (n, 3) read-only view of the node coordinates (z = 0 in 2D models; pass
    coordinates[:, :2] to a 2D search, still without a copy); node_ids: ids as in the file (in
    an Abaqus assembly each instance's own, so they repeat); node_labels(indices=None): the
    nodes (all, or those node indices) as the tool names them, "<instance>.<id>" in an
    assembly, else the id; instances: the part instances' names; files: the files read (the
    model, then its includes);
    surfaces: mapping name -> Surface (built on first use; each also carries .coordinates, the
    model's coordinates in its dimension, and .node_ids), each name once: where a node surface
    (TYPE=NODE) and an element surface share a name (CalculiX), the element surface;
    node_surfaces: mapping name -> Surface of the node surfaces only; interfaces: list of
    Interface.
    """

    def __init__(self, core):
        self._core = core
        self.interfaces = [Interface(*t) for t in core.interface_list]
        self.surfaces = _Surfaces(self, core.surface_names, False)
        self.node_surfaces = _Surfaces(self, core.node_surface_names, True)

    path = property(lambda self: self._core.path)
    files = property(lambda self: self._core.files)
    instances = property(lambda self: self._core.instances)
    format = property(lambda self: self._core.format)
    coordinates = property(lambda self: self._core.coordinates)
    node_ids = property(lambda self: self._core.node_ids)
    notes = property(lambda self: self._core.notes)

    def node_labels(self, indices=None):
        return self._core.node_labels(indices)

    def surface(self, name, nodes=False):
        """Surface `name`. Where a node surface and an element surface share the name: the node
        surface when nodes, else the element surface. An interface's slave is the surface its
        search takes (as the contact-search tool): surface(itf.slave, nodes=(itf.mode == "node"
        and not itf.self_contact)); self-contact takes the element surface. Raises KeyError for an
        unknown name."""
        return self.surfaces._get(name, bool(nodes))

    def __repr__(self):
        return "<Model %s: %d nodes, surfaces %s, %d interfaces>" % (
            self.path, len(self.node_ids), ", ".join(self.surfaces), len(self.interfaces))


class _Surfaces(collections.abc.Mapping):
    def __init__(self, model, names, nodes):
        self._model = model
        self._names = list(dict.fromkeys(names))  # a name twice: a node and an element surface
        self._nodes = nodes

    def __getitem__(self, name):
        return self._get(name, self._nodes)

    def _get(self, name, nodes):
        if name not in self._names and str(name).lower() not in [n.lower() for n in self._names]:
            raise KeyError("%s %r not found in %s (%s: %s)"
                           % ("node surface" if self._nodes else "surface", name,
                              self._model.path, "node surfaces" if self._nodes else "surfaces",
                              ", ".join(self._names) or "none"))
        # As bytes: a name with lone surrogates (from a non-UTF-8 file) is the file's bytes again.
        s = self._model._core.surface(str(name).encode("utf-8", "surrogateescape"), nodes)
        if not hasattr(s, "coordinates"):
            s.coordinates = self._model.coordinates[:, :s.dim]
            s.node_ids = self._model.node_ids
        return s

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)


def read_model(path):
    """Reads an Abaqus/CalculiX .inp, Gmsh .msh or Exodus II .e/.exo/.ex2 file. Raises ParseError (a ValueError) naming
    the file and line for a bad file."""
    try:
        encoded = os.fsencode(path)  # any path the system takes, not only UTF-8 ones
    except TypeError:
        raise TypeError("read_model: path must be a str, bytes or os.PathLike, got %s"
                        % type(path).__name__) from None
    if b"\0" in encoded:  # the C++ side would read the file named by the part before it
        raise ValueError("read_model: path has an embedded null byte: %r" % (path,))
    return Model(_core.read_model(encoded))


from .meshio_interop import from_meshio  # noqa: E402  (needs Model above)
