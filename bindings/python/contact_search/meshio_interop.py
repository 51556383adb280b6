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
        blocks.append((_GMSH_TYPE[block.type], np.ascontiguousarray(block.data, dtype=np.int64)))

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
            idx = np.asarray(idx, dtype=np.int64).reshape(-1)
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
