# SPDX-License-Identifier: MIT
"""The Python API on a scene with a known answer, zero-copy coordinates, and bad input: a
ValueError with the C++ API's own message, never a crash."""
import math
import os
import subprocess

import numpy as np
import pytest

import contact_search as cs
from conftest import ABAQUS, DATA, TOOL, TOOL_ENV, plate_scene

HERE_DATA = DATA.parents[1] / "tests" / "data"


def expected_master(x, y, nm):
    return int(math.floor(y)) * nm + int(math.floor(x))


def test_flat_plates_known_answer():
    coords, plate, sheet, info = plate_scene()
    s = cs.ContactSearch(capture=0.5, capture_relative=False)
    s.set_surfaces(plate, sheet, coords)
    stats = s.update(coords)
    assert stats.status == "ok" and stats.pairs == info["sheet_nodes"] and stats.rebuilt
    p = s.pairs()
    first = info["first_sheet_node"]
    assert np.array_equal(p.slave, np.arange(first, first + info["sheet_nodes"]))
    for i, node in enumerate(p.slave):
        x, y, _ = coords[node]
        assert p.master[i] == expected_master(x, y, info["nm"])
        assert p.xi[i, 0] == pytest.approx(2 * (x - math.floor(x)) - 1, abs=1e-12)
        assert p.xi[i, 1] == pytest.approx(2 * (y - math.floor(y)) - 1, abs=1e-12)
    assert np.allclose(p.gap, 0.125, rtol=0, atol=1e-15) and np.all(p.normal == [0.0, 0.0, 1.0])
    assert np.allclose(p.shape.sum(axis=1), 1.0) and np.all(p.shape[:, 4:] == 0)
    assert np.all(p.status == 0)
    assert s.capture_distance == 0.5 and s.mode == "node"
    assert np.array_equal(s.slave_nodes, p.slave)
    # The plate rests while the sheet moves within the skin: the reused list keeps its boxes.
    assert stats.master_boxes == info["nm"] ** 2
    first = info["first_sheet_node"]
    coords[first:, 2] += 0.01
    again = s.update(coords)
    assert not again.rebuilt and again.master_boxes == 0
    assert np.allclose(s.pairs().gap, 0.135, rtol=0, atol=1e-15)
    coords[:first, 2] += 0.01  # the plate moves too: every box is made again
    moved = s.update(coords)
    assert not moved.rebuilt and moved.master_boxes == info["nm"] ** 2
    assert np.allclose(s.pairs().gap, 0.125, rtol=0, atol=1e-15)


def test_coordinates_are_read_in_place():
    coords, plate, sheet, info = plate_scene()
    s = cs.ContactSearch(capture=0.5, capture_relative=False)
    s.set_surfaces(plate, sheet, coords)
    stats = s.update(coords)
    assert not stats.coordinates_copied and s.last_coordinates_address == coords.ctypes.data
    # Moved in place between updates: the search sees the caller's array, not a copy of it.
    sheet_rows = slice(info["first_sheet_node"], None)
    coords[sheet_rows, 2] += 0.0625
    stats = s.update(coords)
    assert not stats.coordinates_copied and s.last_coordinates_address == coords.ctypes.data
    assert np.all(s.pairs().gap == 0.1875)
    # x, y, z rows of one (3, n) array: its transpose is read in place (separate layout).
    xyz = np.ascontiguousarray(coords.T)
    stats = s.update(xyz.T)
    assert not stats.coordinates_copied and s.last_coordinates_address == xyz.ctypes.data
    # Copied once: another dtype, a list, negative strides.
    for x in (coords.astype(np.float32), coords.tolist()):
        assert s.update(x).coordinates_copied
    stats = s.update(np.ascontiguousarray(coords[::-1])[::-1])
    assert stats.coordinates_copied and np.all(s.pairs().gap == 0.1875)


def test_slave_as_node_indices_and_segment_mode():
    coords, plate, sheet, info = plate_scene()
    s = cs.ContactSearch(capture=0.5, capture_relative=False)
    s.set_surfaces(plate, sheet, coords)
    s.update(coords)
    t = cs.ContactSearch(capture=0.5, capture_relative=False)
    t.set_surfaces(plate, np.arange(info["first_sheet_node"], len(coords)), coords)
    t.update(coords)
    assert np.array_equal(t.pairs().gap, s.pairs().gap)
    seg = cs.ContactSearch(capture=0.25, capture_relative=False, mode="segment")
    seg.set_surfaces(plate, sheet, coords)
    seg.update(coords)
    p = seg.pairs()
    assert p.mode == "segment" and set(p.keys()) == {"slave", "master"}
    assert set(p.slave) == set(range(info["ns"] ** 2))
    o = seg.overlaps(coords)
    assert math.isclose(o["overlap_area"].sum(), (info["ns"] * info["h"]) ** 2, rel_tol=1e-12)
    # every gap (0.125) is within the capture distance (0.25): all in contact, none penetrating
    assert np.array_equal(o["capture_area"], o["overlap_area"])
    assert np.all(o["penetration_area"] == 0)
    assert np.allclose(o["gap_min"], 0.125) and o["vertices"].shape == (len(o["slave"]), 16, 3)
    with pytest.raises(ValueError, match="overlaps need mode='segment'"):
        s.overlaps(coords)
    # Coordinates other than the update's are refused (the overlaps are of its pairs); the same
    # values in another array (-0 for 0) are taken.
    for node in (plate.connectivity[1], sheet.connectivity[2]):
        for value in (np.nan, np.nextafter(coords[node, 2], 1.0)):
            x = coords.copy()
            x[node, 2] = value
            with pytest.raises(ValueError, match="ContactSearch.overlaps: the coordinates differ "
                                                 "from those of the last successful update"):
                seg.overlaps(x)
    x = np.asfortranarray(coords)
    x[0, 2] = -0.0
    assert np.array_equal(seg.overlaps(x)["overlap_area"], o["overlap_area"])


def test_bad_surfaces_give_the_cpp_message():
    coords, plate, sheet, _ = plate_scene()
    s = cs.ContactSearch()
    conn = np.array(plate.connectivity).reshape(-1, 4)
    conn[2, 1] = len(coords) + 7
    bad = cs.surface("Quad4", conn, name="plate")
    with pytest.raises(ValueError, match=r"^contact::ContactSearch::setSurfaces\(\): master surface "
                                         r"'plate', segment 2 \(Quad4\)"):
        s.set_surfaces(bad, sheet, coords)
    conn = np.array(plate.connectivity).reshape(-1, 4)
    conn[3, 1] = conn[3, 0]
    with pytest.raises(ValueError, match="segment 3"):
        s.set_surfaces(cs.surface("Quad4", conn, name="plate"), sheet, coords)
    x = coords.copy()
    x[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN or Inf"):
        s.set_surfaces(plate, sheet, x)
    with pytest.raises(ValueError, match="master and slave are the same surface 'plate': enable "
                                         r"self-contact \(SearchOptions::selfContact; self_contact "
                                         "in C, Fortran and Python"):
        s.set_surfaces(plate, plate, coords)
    with pytest.raises(TypeError, match="^ContactSearch.set_surfaces: master must be a Surface, "
                                        "got ndarray$"):
        s.set_surfaces(np.zeros(3), sheet, coords)
    with pytest.raises(ValueError, match="segment 1 has type 'Hex8'"):
        cs.surface(["Quad4", "Hex8"], np.arange(8))
    with pytest.raises(ValueError, match="segment 0 has type True"):
        cs.surface([True, True], np.arange(6))  # a bool is no type code
    with pytest.raises(ValueError, match="connectivity must hold integers"):
        cs.surface("Quad4", np.arange(8.0))
    with pytest.raises(ValueError, match="need 8 connectivity entries, got 7"):
        cs.surface(["Quad4", "Quad4"], np.arange(7))
    with pytest.raises(ValueError, match="slave must be a Surface or a 1-D array"):
        s.set_surfaces(plate, [0.5, 1.5], coords)
    # Offsets are integers, as connectivity is: 4.7 is no segment end.
    with pytest.raises(ValueError, match="offsets must be a 1-D array of integers, got float64"):
        cs.surface("Quad4", np.arange(8), offsets=[0.2, 4.7, 8.9])
    for bad in (None, 3):
        with pytest.raises(ValueError, match="surface: connectivity must hold integers in a 1-D or 2-D array"):
            cs.surface("Quad4", bad)
    with pytest.raises(ValueError, match="surface: types must be a type name or a sequence"):
        cs.surface(4, np.arange(4))
    # An empty list of slave nodes is no nodes (a float array when made from []).
    s.set_surfaces(plate, [], coords)
    assert len(s.slave_nodes) == 0


def test_uint64_indices_are_named_by_their_value():
    """uint64 values of 2**63 and more would wrap to negative in a cast to int64: the messages
    name the value the caller passed."""
    coords, plate, sheet, _ = plate_scene()
    s = cs.ContactSearch()
    for big in (2**63, 2**64 - 1):
        with pytest.raises(ValueError, match="slave node index %d is beyond 32 bits" % big):
            s.set_surfaces(plate, np.array([30, big], np.uint64), coords)
        conn = np.array(plate.connectivity, np.uint64)
        conn[6] = big
        with pytest.raises(ValueError, match="'plate': segment 1 has node index %d, beyond 32 "
                                             "bits" % big):
            cs.surface("Quad4", conn, name="plate")
        with pytest.raises(ValueError, match="segment 1 has node index %d" % big):
            cs.surface("Quad4", conn, offsets=np.arange(0, len(conn) + 1, 4), name="plate")
        with pytest.raises(ValueError, match=r"offsets\[1\] is %d, beyond 32 bits" % big):
            cs.surface("Quad4", np.arange(8), offsets=np.array([0, big, 8], np.uint64))
    with pytest.raises(ValueError, match="slave node index 2147483648 is beyond 32 bits"):
        s.set_surfaces(plate, np.array([2**31], np.uint64), coords)
    # Unsigned indices in range are taken as they are.
    s.set_surfaces(plate, np.array([30, 31], np.uint64), coords)
    s.set_surfaces(cs.surface("Quad4", np.array(plate.connectivity, np.uint64)), sheet, coords)


def test_bad_calls_and_coordinates():
    coords, plate, sheet, _ = plate_scene()
    s = cs.ContactSearch()
    # What set_surfaces resolves is not there before it (the C API: CONTACT_OUT_OF_ORDER).
    for name in ("capture_distance", "skin_distance", "mean_master_size", "slave_nodes"):
        with pytest.raises(RuntimeError, match=name + ": set_surfaces was not called"):
            getattr(s, name)
    # An object whose __init__ never ran is refused, not dereferenced.
    bare = cs.ContactSearch.__new__(cs.ContactSearch)
    for call in (lambda: bare.set_surfaces(plate, sheet, coords), lambda: bare.update(coords),
                 lambda: bare.pairs(), lambda: bare.overlaps(coords),
                 lambda: bare.capture_distance, lambda: bare.fault_node):
        with pytest.raises(TypeError, match="ContactSearch whose __init__ did not run"):
            call()
    for cls in (cs.Surface, cs.UpdateStats, cs._core.Model):  # made by the module only
        with pytest.raises(TypeError, match="made by the contact_search functions"):
            cls.__new__(cls)
    with pytest.raises(RuntimeError, match="set_surfaces was not called"):
        s.update(coords)
    s.set_surfaces(plate, sheet, coords)
    with pytest.raises(RuntimeError, match="no successful update yet"):
        s.pairs()
    s.update(coords)
    n = len(s.pairs())
    for x, message in ((coords[:10], "wrong node count"), (coords[:, :2], "wrong node count"),
                       (np.zeros((len(coords), 4)), r"shape \(n, 2\) or \(n, 3\), got"),
                       (coords.reshape(-1), r"got \(%d\)" % coords.size),
                       ("abc", "coordinates must"), (None, "coordinates must")):
        with pytest.raises(ValueError, match=message):
            s.update(x)
    x = coords.copy()
    x[5, 2] = np.inf
    with pytest.raises(ValueError, match=r"non-finite coordinates \(node 5 at \(.*, inf\)\)"):
        s.update(x)
    for node in np.unique(np.concatenate([plate.connectivity, sheet.connectivity])):
        x = coords.copy()
        x[node, node % 3] = np.nan  # not only at a segment's first node
        with pytest.raises(ValueError, match=rf"non-finite coordinates \(node {node} at \("):
            s.update(x)
        assert s.fault_node == node
    assert len(s.pairs()) == n  # the pairs of the last good update
    s.update(coords)
    assert s.fault_node is None
    # A failed update, then set_surfaces: the new set-up has no failed update yet.
    x = coords.copy()
    x[0, 0] = np.inf
    with pytest.raises(ValueError):
        s.update(x)
    assert s.fault_node == 0
    s.set_surfaces(plate, sheet, coords)
    assert s.fault_node is None
    with pytest.raises(ValueError, match="mode must be 'node' or 'segment', got 'edge'"):
        cs.ContactSearch(mode="edge")
    for threads in (0, -1, 1025, 100000):
        with pytest.raises(ValueError,
                           match="^contact::ContactSearch: threads must be 1 .. 1024, got %d$"
                           % threads):
            cs.ContactSearch(threads=threads)
    with pytest.raises(ValueError, match="capture must be finite"):
        cs.ContactSearch(capture=float("nan"))
    for skin in (float("inf"), float("nan"), -1.0):
        with pytest.raises(ValueError, match="^ContactSearch: skin_relative must be finite and "
                                             ">= 0, got "):
            cs.ContactSearch(skin_relative=skin)


def test_overlapping_rows_are_copied():
    """A sliding window over one array (x of node i + 1 is y of node i) is no view the search
    can read in place: it was refused ("the stride is below the dimension"); it is copied, as any
    other layout the search cannot read, and gives what its copy gives (here the window's
    geometry is a degenerate master: the same refusal for both)."""
    coords, plate, sheet, _ = plate_scene()
    flat = np.concatenate([coords[:, 0], [0.0, 0.0]])
    window = np.lib.stride_tricks.sliding_window_view(flat, 3)
    assert window.shape == coords.shape and window.strides == (8, 8)
    s = cs.ContactSearch(capture=0.5, capture_relative=False)
    s.set_surfaces(plate, sheet, coords)

    def outcome(x):
        try:
            s.update(x)
            return s.pairs().gap.tolist()
        except ValueError as e:
            return str(e)
    result = outcome(window)
    assert "stride" not in str(result) and result == outcome(window.copy())


def test_orientation_and_faults():
    coords, plate, sheet, info = plate_scene()
    pairs = info["sheet_nodes"]
    s = cs.ContactSearch(capture=0.5, capture_relative=False)
    s.set_surfaces(plate, sheet, coords)
    st = s.update(coords)
    assert st.orientation == "consistent"
    assert (st.orientation_opposed, st.orientation_aligned) == (pairs, 0)
    assert (st.orientation_in_front, st.orientation_behind) == (0, 0)
    assert st.fault_node is None and st.fault_segment is None and st.fault_in_slave is False
    # The plate given inside-out: normals aligned, the sheet behind it.
    conn = np.array(plate.connectivity).reshape(-1, 4)[:, [0, 3, 2, 1]]
    s.set_surfaces(cs.surface("Quad4", conn, name="plate"), sheet, coords)
    st = s.update(coords)
    assert st.orientation == "master inside-out"
    assert (st.orientation_opposed, st.orientation_aligned) == (0, pairs)
    assert (st.orientation_in_front, st.orientation_behind) == (0, pairs)
    # Plate segment 0 collapses (its second node onto its first).
    s.set_surfaces(plate, sheet, coords)
    x = coords.copy()
    x[plate.connectivity[1]] = x[plate.connectivity[0]]
    with pytest.raises(ValueError, match="degenerate.*master segment 0"):
        s.update(x)
    assert s.fault_segment == 0 and s.fault_in_slave is False
    assert s.fault_node in (plate.connectivity[0], plate.connectivity[1])
    # Coordinates refused before the search runs: no fault any more.
    for bad in (np.zeros((len(coords), 4)), "abc"):
        x = coords.copy()
        x[4, 1] = np.nan
        with pytest.raises(ValueError, match=r"node 4 at \("):
            s.update(x)
        assert s.fault_node == 4 and s.fault_segment is None
        with pytest.raises(ValueError):
            s.update(bad)
        assert s.fault_node is None and s.fault_segment is None
    # Segment mode: sheet segment 0 collapses.
    t = cs.ContactSearch(capture=0.25, capture_relative=False, mode="segment")
    t.set_surfaces(plate, sheet, coords)
    x = coords.copy()
    x[sheet.connectivity[1]] = x[sheet.connectivity[0]]
    with pytest.raises(ValueError, match="slave segment 0"):
        t.update(x)
    assert t.fault_segment == 0 and t.fault_in_slave is True
    t.update(coords)
    assert t.fault_segment is None and t.fault_in_slave is False


def test_read_model_refuses_an_embedded_null(tmp_path):
    """The C++ reader would open the file named by the part before the NUL."""
    path = tmp_path / "a.inp"
    path.write_bytes((DATA / "punch_on_block.inp").read_bytes())
    for name in (str(path) + "\0.msh", os.fsencode(str(path)) + b"\0x"):
        with pytest.raises(ValueError, match="read_model: path has an embedded null byte"):
            cs.read_model(name)


def test_garbage_never_crashes():
    coords, plate, sheet, _ = plate_scene()
    rng = np.random.default_rng(7)
    things = [None, 3, "x", [], [[1, 2]], np.zeros(0), np.zeros((0, 3)), np.zeros((5, 3, 1)),
              np.full((len(coords), 3), np.nan), np.array([["a", "b", "c"]]), object(),
              rng.normal(size=(len(coords), 3)) * 1e40]
    with pytest.raises(ValueError, match="coordinates must be numbers"):
        cs.ContactSearch().set_surfaces(plate, sheet, coords.astype(np.complex128))
    for thing in things:
        for call in (lambda t: cs.ContactSearch().set_surfaces(plate, sheet, t),
                     lambda t: cs.ContactSearch().set_surfaces(plate, t, coords),
                     lambda t: cs.surface("Quad4", t)):
            try:
                call(thing)
            except (ValueError, TypeError, RuntimeError):
                pass
    for _ in range(50):
        conn = rng.integers(-3, len(coords) + 3, size=4 * int(rng.integers(1, 6)))
        try:
            srch = cs.ContactSearch(mode=str(rng.choice(["node", "segment"])))
            srch.set_surfaces(cs.surface("Quad4", conn), sheet, coords)
            srch.update(coords)
            srch.pairs()
        except ValueError:
            pass


def test_bad_model_files_give_the_reader_message(tmp_path):
    with pytest.raises(cs.ParseError) as e:
        cs.read_model(DATA / "no_such_model.inp")
    assert isinstance(e.value, ValueError) and e.value.line == 0
    bad = HERE_DATA / "abaqus" / "bad_number.inp"
    with pytest.raises(ValueError) as e:
        cs.read_model(bad)
    assert e.value.path == str(bad) and e.value.line > 0
    assert str(e.value).startswith("%s:%d: " % (bad, e.value.line))
    if TOOL:  # the tool reports the same message
        r = subprocess.run([TOOL, str(bad)], capture_output=True, text=True, env=TOOL_ENV)
        assert r.returncode == 2 and str(e.value) in r.stderr
    # A deck in Latin-1: the message quotes its bytes, undecodable ones as \\xNN.
    latin1 = tmp_path / "latin1.inp"
    latin1.write_bytes(b"*NODE\n1, 0.0, \xe9t\xe9\n")
    with pytest.raises(cs.ParseError) as e:
        cs.read_model(latin1)
    assert e.value.path == str(latin1) and e.value.line == 2
    assert "\\xe9t\\xe9" in str(e.value)
    with pytest.raises(TypeError, match="read_model: path must be a str, bytes or os.PathLike, "
                                        "got NoneType"):
        cs.read_model(None)
    # A bytes path, and one that is not UTF-8: read as the system names the file.
    odd = os.fsencode(str(tmp_path)) + b"/\xff.msh"
    with open(odd, "wb") as f:
        f.write((DATA / "sphere_on_block.msh").read_bytes())
    same = cs.read_model(DATA / "sphere_on_block.msh")
    assert len(cs.read_model(odd).node_ids) == len(same.node_ids)
    model = cs.read_model(DATA / "sphere_on_block.msh")
    with pytest.raises(KeyError, match="surface 'Nope' not found"):
        model.surfaces["Nope"]
    assert {"BlockTop", "SphereSurface"} <= set(model.surfaces)


def test_model_arrays():
    model = cs.read_model(DATA / "punch_on_block.inp")
    assert model.coordinates.shape == (len(model.node_ids), 3)
    assert not model.coordinates.flags.writeable
    itf = model.interfaces[0]
    assert (itf.slave, itf.master, itf.kind, itf.mode) == ("BlockTop", "PunchBottom",
                                                           "contact pair", "node")
    assert not itf.self_contact
    general = cs.read_model(HERE_DATA / "abaqus" / "general_contact.inp")
    assert [(i.kind, i.self_contact) for i in general.interfaces] == [("general contact", True)] * 3
    m = model.surfaces["PunchBottom"]
    assert m.type_names[0] == "Quad8" and m.types[0] == 5 and len(m.offsets) == len(m) + 1
    assert m.offsets[-1] == len(m.connectivity) and m.dim == 3 and not m.is_node_surface
    assert m.coordinates.shape == (len(model.node_ids), 3)
    assert len(m.element_ids) == len(m) and set(m.faces) == {1}
    assert model.surfaces["blocktop"] is model.surfaces["BlockTop"]  # Abaqus names ignore case
    model2d = cs.read_model(DATA / "cylinder_on_block_2d.msh")
    assert model2d.surfaces["CylinderEdge"].coordinates.shape == (len(model2d.node_ids), 2)


def test_node_and_element_surface_of_one_name():
    """ATOPN is a node surface and an element surface: both are reachable, each name is listed
    once, and an interface's slave is the surface its search takes (the tool's 4 pairs in node
    mode)."""
    model = cs.read_model(HERE_DATA / "abaqus" / "same_name_node_and_element_surface.inp")
    assert list(model.surfaces).count("ATOPN") == 1 and list(model.node_surfaces) == ["ATOPN"]
    elements, nodes = model.surfaces["ATOPN"], model.node_surfaces["atopn"]
    assert not elements.is_node_surface and len(elements) == 4
    assert nodes.is_node_surface and list(model.node_ids[nodes.nodes]) == [10, 11, 12, 13]
    assert model.surface("ATOPN") is elements and model.surface("ATOPN", nodes=True) is nodes
    assert model.surface("B_BOT", nodes=True) is model.surfaces["B_BOT"]  # the only one
    assert nodes.coordinates.shape == (len(model.node_ids), 3)
    with pytest.raises(KeyError, match="node surface 'B_BOT' not found"):
        model.node_surfaces["B_BOT"]
    with pytest.raises(KeyError, match="surface 'Nope' not found"):
        model.surface("Nope", nodes=True)
    itf = model.interfaces[3]
    assert (itf.slave, itf.master, itf.mode) == ("ATOPN", "B_BOT", "node")
    s = cs.ContactSearch(mode=itf.mode, self_contact=itf.self_contact)
    s.set_surfaces(model.surfaces[itf.master], model.surface(itf.slave, nodes=True),
                   model.coordinates)
    assert s.update(model.coordinates).pairs == 4


def test_without_warm_starts_updates_equal_a_fresh_search_bit_for_bit():
    """Tri6 master: updates on a reused list, with warm starts off, give a fresh search's pairs to
    the last bit (with them on, only to 1e-12)."""
    m = cs.read_model(DATA / "sphere_on_block_o2.msh")
    master, slave = m.surfaces["SphereSurface"], m.surfaces["BlockTop"]
    x = np.array(m.coordinates)
    s = cs.ContactSearch(warm_start=False)
    s.set_surfaces(master, slave, x)
    s.update(x)
    for _ in range(3):
        x[np.unique(slave.connectivity), 2] += 1e-3
        assert not s.update(x).rebuilt
        fresh = cs.ContactSearch(warm_start=True)
        fresh.set_surfaces(master, slave, x)
        fresh.update(x)
        a, b = s.pairs(), fresh.pairs()
        assert len(a) > 100 and all(np.array_equal(a[k], b[k]) for k in a.keys())


def test_assembly_labels_name_nodes_and_elements_as_the_tool_does(tmp_path):
    """In an Abaqus assembly node and element ids repeat across instances; node_labels() and
    element_labels name them "<instance>.<id>", as the tool's CSV does, and are unique."""
    path = ABAQUS / "assembly" / "cae_blocks.inp"
    model = cs.read_model(path)
    labels = model.node_labels()
    assert len(labels) == len(model.node_ids) > len(set(model.node_ids.tolist()))
    assert len(set(labels)) == len(labels)
    # Nodes of part instances are "<instance>.<id>"; the assembly's own nodes keep their id.
    assert model.instances and all(lab.rsplit(".", 1)[0] in model.instances
                                   for lab in labels if "." in lab)
    assert sum("." in lab for lab in labels) > len(labels) // 2
    assert model.node_labels(np.array([0, len(labels) - 1])) == [labels[0], labels[-1]]
    with pytest.raises(IndexError):
        model.node_labels([len(labels)])
    ext = model.surfaces["ALL EXTERIOR"]
    keys = list(zip(ext.element_labels, ext.faces.tolist()))
    assert len(set(keys)) == len(ext) > len(set(zip(ext.element_ids.tolist(), ext.faces.tolist())))
    if not TOOL:
        pytest.fail("CONTACT_SEARCH_TOOL is not set (ctest sets it)")
    csv_path = tmp_path / "pairs.csv"
    subprocess.run([TOOL, str(path), "--mode", "node", "--quiet", "--pairs", str(csv_path)],
                   check=True, env=TOOL_ENV)
    rows = [r.split(",") for r in csv_path.read_text().splitlines()[1:]]
    assert rows and all(r[1] in labels and (r[2], int(r[3])) in keys for r in rows)
    plain = cs.read_model(DATA / "punch_on_block.inp")
    assert plain.instances == [] and plain.node_labels([0]) == [str(plain.node_ids[0])]


def test_names_that_are_not_utf8(tmp_path):
    """A Latin-1 deck: names keep the undecodable bytes as surrogates (surrogateescape) and find
    their surface again; an unknown name is a KeyError; a non-UTF-8 path reads too."""
    deck = (ABAQUS / "tie.inp").read_bytes().replace(b"side c", b"side \xe9")
    path = tmp_path / "latin1.inp"
    path.write_bytes(deck)
    model = cs.read_model(path)
    name = "side \udce9"
    assert name in model.surfaces and model.surfaces[name].name == name
    assert len(model.surfaces[name]) > 0
    assert any(itf.slave == name for itf in model.interfaces)
    with pytest.raises(KeyError):
        model.surfaces["nosuch"]
    raw = os.path.join(os.fsencode(tmp_path), b"lat\xe9.inp")
    with open(raw, "wb") as f:
        f.write(deck)
    model = cs.read_model(raw)
    assert model.path == os.fsdecode(raw) and model.files[0] == os.fsdecode(raw)
    with pytest.raises(KeyError):
        model.surfaces["nosuch"]


def test_interfaces_say_why_the_tool_refuses_one():
    """interfaces.inp's interface 5 (TYPE=EDGE TO EDGE) cannot be searched: its problem says
    why, with the file and line of its definition; searchable ones have problem None."""
    model = cs.read_model(ABAQUS / "interfaces.inp")
    itf = model.interfaces[4]
    assert itf.problem is not None and "EDGETOEDGE" in itf.problem
    assert itf.source == "%s:43" % (ABAQUS / "interfaces.inp")
    assert model.interfaces[0].problem is None
    assert model.interfaces[0].source.endswith("interfaces.inp:35")
    assert cs.Interface("a", "b", "tie", "node", "", False).problem is None
