# SPDX-License-Identifier: MIT
"""Surfaces from a meshio.Mesh and its named cell sets; pairs go back as point data with
Pairs.point_data(len(mesh.points))."""
import numpy as np

from . import _core

# meshio cell type -> Gmsh element type number (the model's blocks are Gmsh-typed).
_GMSH_TYPE = {
    "line": 1, "triangle": 2, "quad": 3, "tetra": 4, "hexahedron": 5, "wedge": 6, "pyramid": 7,
    "line3": 8, "triangle6": 9, "quad9": 10, "tetra10": 11, "hexahedron27": 12, "wedge18": 13,
    "pyramid14": 14, "vertex": 15, "quad8": 16, "hexahedron20": 17, "wedge15": 18,
    "pyramid13": 19,
}
_SEGMENTS_3D = {"triangle", "triangle6", "quad", "quad8", "quad9"}
_SEGMENTS_2D = {"line", "line3"}
_CELL_DIM = {"vertex": 0, "line": 1, "line3": 1}
_CELL_DIM.update({t: 2 for t in _SEGMENTS_3D})


def _indices(values, what):
    """values as int64, or ValueError naming `what` when a value is not a whole number that fits
    (a cast would turn 2**63 negative and 1.5 into 1)."""
    a = np.asarray(values)
    if a.dtype == np.int64:
        return a
    if a.size == 0:
        return a.astype(np.int64)
    if a.dtype.kind == "u":
        big = np.flatnonzero(a.reshape(-1) > np.iinfo(np.int64).max)
        if len(big):
            raise ValueError("from_meshio: %s holds %d, too large for an index"
                             % (what, a.reshape(-1)[big[0]]))
    elif a.dtype.kind == "f":
        flat = a.reshape(-1)
        bad = np.flatnonzero(~np.isfinite(flat) | (flat != np.round(flat))
                             | (np.abs(flat) >= 2.0**63))
        if len(bad):
            raise ValueError("from_meshio: %s holds %r, not a whole number"
                             % (what, float(flat[bad[0]])))
    elif a.dtype.kind != "i":
        raise ValueError("from_meshio: %s holds %s values, not integers" % (what, a.dtype))
    return a.astype(np.int64)


def _cell_sets(mesh):
    """mesh.cell_sets, plus the Gmsh physical groups meshio leaves in field_data and the
    gmsh:physical cell data (MSH 2.2 files): name -> cell indices per block."""
    sets = dict(mesh.cell_sets)
    physical = mesh.cell_data.get("gmsh:physical")
    if physical is None:
        return sets
    for name, value in mesh.field_data.items():
        tag, dim = int(value[0]), int(value[1])
        if name in sets:
            continue
        sets[name] = [np.nonzero(np.asarray(tags) == tag)[0]
                      if _CELL_DIM.get(block.type, 3) == dim else np.zeros(0, dtype=np.int64)
                      for block, tags in zip(mesh.cells, physical)]
    return sets


def from_meshio(mesh, names=None, label="meshio mesh"):
    """A Model whose surfaces are the named cell sets of `mesh` (and, for MSH 2.2 files, the
    Gmsh physical groups in its field_data) that hold contact segments:
    triangles and quadrilaterals (first and second order) in a 3D mesh, lines in a 2D one (points
    with two columns, or z = 0 everywhere). Node orders are meshio's (VTK's), which are those of
    the search for these cells. Each segment is turned to point away from the cell of higher
    dimension it bounds, as the Gmsh reader does; node ids are 1..n, element ids count the cells
    of all blocks from 1. names: the sets to take (ValueError when one holds other cells);
    default: every set made only of segments ("gmsh:" sets left out)."""
    from . import Model

    points = np.asarray(mesh.points, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] not in (2, 3):
        raise ValueError("from_meshio: points must have shape (n, 2) or (n, 3), got %s"
                         % (points.shape,))
    coords = np.zeros((len(points), 3))
    coords[:, :points.shape[1]] = points
    planar = points.shape[1] == 2 or not np.any(coords[:, 2])
    segment_types = _SEGMENTS_2D if planar else _SEGMENTS_3D

    blocks = []
    for block in mesh.cells:
        if block.type not in _GMSH_TYPE:
            raise ValueError("from_meshio: cell type %r has no Gmsh equivalent" % block.type)
        data = _indices(block.data, "the %s block's connectivity" % block.type)
        blocks.append((_GMSH_TYPE[block.type], np.ascontiguousarray(data)))

    cell_sets = _cell_sets(mesh)
    wanted = list(cell_sets) if names is None else list(names)
    surfaces = []
    for name in wanted:
        if name not in cell_sets:
            raise ValueError("from_meshio: no cell set %r (sets: %s)"
                             % (name, ", ".join(cell_sets) or "none"))
        if names is None and name.startswith("gmsh:"):
            continue
        faces = []
        other = None
        for b, idx in enumerate(cell_sets[name]):
            idx = _indices(idx, "cell set %r, block %d" % (name, b)).reshape(-1)
            if len(idx) == 0:
                continue
            if mesh.cells[b].type not in segment_types:
                other = mesh.cells[b].type
                break
            faces.append((b, idx))
        if other is not None:
            if names is None:
                continue
            raise ValueError("from_meshio: cell set %r holds %s cells, not contact segments (%s "
                             "in a %s mesh)" % (name, other, ", ".join(sorted(segment_types)),
                                                "2D" if planar else "3D"))
        surfaces.append((name, faces))
    return Model(_core._model_from_arrays(label, coords, blocks, surfaces))
