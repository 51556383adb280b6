# SPDX-License-Identifier: MIT
"""meshio: surfaces from a meshio.Mesh's named cell sets give the native reader's surfaces and
pairs exactly; the pairs go back as point data and survive a VTU round trip."""
import numpy as np
import pytest

import contact_search as cs
from conftest import DATA

meshio = pytest.importorskip("meshio")


@pytest.mark.parametrize("name,master,slave", [
    ("sphere_on_block.msh", "SphereSurface", "BlockTop"),
    ("sphere_on_block_o2.msh", "SphereSurface", "BlockTop"),
    ("cylinder_on_block_2d.msh", "CylinderEdge", "BlockTop"),
])
def test_meshio_surfaces_equal_the_reader(name, master, slave):
    native = cs.read_model(DATA / name)
    model = cs.from_meshio(meshio.read(DATA / name))
    assert {master, slave} <= set(model.surfaces)
    assert "Block" not in model.surfaces  # volume (area) cells are not contact segments
    for s in (master, slave):
        a, b = native.surfaces[s], model.surfaces[s]
        assert a.dim == b.dim and np.array_equal(a.types, b.types)
        assert np.array_equal(a.connectivity, b.connectivity)  # the same outward node order
    dim = native.surfaces[master].dim
    results = []
    for m in (native, model):
        assert np.array_equal(m.coordinates, native.coordinates)
        s = cs.ContactSearch()
        s.set_surfaces(m.surfaces[master], m.surfaces[slave], m.coordinates[:, :dim])
        s.update(m.coordinates[:, :dim])
        results.append(s.pairs())
    assert len(results[0]) > 0
    for key in results[0].keys():
        assert np.array_equal(results[0][key], results[1][key]), key


def test_pairs_as_point_data_round_trip(tmp_path):
    mesh = meshio.read(DATA / "sphere_on_block.msh")
    model = cs.from_meshio(mesh)
    s = cs.ContactSearch()
    s.set_surfaces(model.surfaces["SphereSurface"], model.surfaces["BlockTop"], mesh.points)
    s.update(mesh.points)
    p = s.pairs()
    data = p.point_data(len(mesh.points))
    out = meshio.Mesh(mesh.points, [("triangle", mesh.cells_dict["triangle"])], point_data=data)
    meshio.write(tmp_path / "pairs.vtu", out)
    back = meshio.read(tmp_path / "pairs.vtu")
    gap = back.point_data["gap"]
    assert np.array_equal(gap[p.slave], p.gap)
    unpaired = np.setdiff1d(np.arange(len(mesh.points)), p.slave)
    assert np.all(np.isnan(gap[unpaired])) and np.all(back.point_data["paired"][p.slave] == 1)
    assert np.array_equal(back.point_data["normal"][p.slave], p.normal)


def test_meshio_errors():
    mesh = meshio.read(DATA / "sphere_on_block.msh")
    with pytest.raises(ValueError, match="cell set 'Block' holds tetra cells"):
        cs.from_meshio(mesh, names=["Block"])
    with pytest.raises(ValueError, match="no cell set 'Nope'"):
        cs.from_meshio(mesh, names=["Nope"])
    seg = cs.ContactSearch(mode="segment")
    with pytest.raises(ValueError, match="node-to-segment pairs only"):
        cs.Pairs("segment", {"slave": np.zeros(0, np.int32)}).point_data(3)
    with pytest.raises(ValueError, match="slave node 7 is beyond the 5 points"):
        cs.Pairs("node", {"slave": np.array([2, 7], np.int32), "gap": np.zeros(2),
                          "normal": np.zeros((2, 3))}).point_data(5)
    assert seg.mode == "segment"


def test_meshio_cell_indices_out_of_range():
    """A cell set naming a cell its block does not have is refused, naming the set, block and
    cell: beyond 32 bits it was cut to a cell that exists (2**32 + 1 became cell 1)."""
    points = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                       [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float)
    quads = meshio.CellBlock("quad", np.array([[0, 3, 2, 1], [4, 5, 6, 7]]))
    for cell in (2**32 + 1, 2, -1):
        mesh = meshio.Mesh(points, [quads], cell_sets={"S": [np.array([cell])]})
        with pytest.raises(ValueError,
                           match=r"cell set 'S', block 0: cell %d out of range \[0, 2\)" % cell):
            cs.from_meshio(mesh)
    good = meshio.Mesh(points, [quads], cell_sets={"S": [np.array([1])]})
    assert list(cs.from_meshio(good).surfaces["S"].element_ids) == [2]


def test_meshio_indices_that_are_not_int64():
    """Connectivity and cell sets of other dtypes: a uint64 beyond int64 was reported as a negative
    node, and a float 1.5 was cut to node 1 with no word. Whole numbers of any dtype still work."""
    points = np.array([[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], dtype=float)

    def model(connectivity, cells):
        mesh = meshio.Mesh(points, [meshio.CellBlock("quad", connectivity)],
                           cell_sets={"S": [cells]})
        return cs.from_meshio(mesh)

    cells = np.array([0])
    with pytest.raises(ValueError, match=r"quad block's connectivity holds 9223372036854775808, "
                                         "too large"):
        model(np.array([[0, 1, 2, 2**63]], dtype=np.uint64), cells)
    with pytest.raises(ValueError, match=r"quad block's connectivity holds 1.5, not a whole"):
        model(np.array([[0, 1.5, 2, 3]]), cells)
    with pytest.raises(ValueError, match=r"connectivity holds bool values"):
        model(np.array([[True, False, True, True]]), cells)
    with pytest.raises(ValueError, match=r"cell set 'S', block 0 holds 0.7, not a whole"):
        model(np.array([[0, 1, 2, 3]]), np.array([0.7]))
    with pytest.raises(ValueError, match=r"cell set 'S', block 0 holds 18446744073709551615"):
        model(np.array([[0, 1, 2, 3]]), np.array([2**64 - 1], dtype=np.uint64))
    for connectivity, set_cells in ((np.array([[0, 1, 2, 3]], dtype=np.uint64), cells),
                                    (np.array([[0, 1, 2, 3]], dtype=np.int8), cells),
                                    (np.array([[0.0, 1.0, 2.0, 3.0]]), np.array([0.0]))):
        surface = model(connectivity, set_cells).surfaces["S"]
        assert list(surface.element_ids) == [1]
