# SPDX-License-Identifier: MIT
"""Shared fixtures: the shipped models, the contact-search tool, and the tool's CSV written from
Python. ctest sets CONTACT_SEARCH_TOOL (the tool), CONTACT_EXAMPLES_DATA (examples/data) and,
where bench_generate is built, CONTACT_GENERATED_MODEL (a generated wavy Quad4 model)."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import contact_search as cs

HERE = pathlib.Path(__file__).resolve().parent
DATA = pathlib.Path(os.environ.get("CONTACT_EXAMPLES_DATA", HERE.parents[2] / "examples" / "data"))
TOOL = os.environ.get("CONTACT_SEARCH_TOOL")
GENERATED = os.environ.get("CONTACT_GENERATED_MODEL")
ABAQUS = HERE.parents[2] / "tests" / "data" / "abaqus"
# The tool's environment: without the sanitized build's LD_PRELOAD, which loads the ASan runtime
# for this interpreter; the tool links its own.
TOOL_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}

CYL = ["--master", "CylinderEdge", "--slave", "BlockTop"]
SPH = ["--master", "SphereSurface", "--slave", "BlockTop"]
# (label, model, tool options): every shipped model, as the C and Fortran tests run them.
CASES = [
    ("punch", DATA / "punch_on_block.inp", []),
    ("punch_segment", DATA / "punch_on_block.inp", ["--mode", "segment"]),
    ("cylinder_2d", DATA / "cylinder_on_block_2d.msh", CYL),
    ("cylinder_2d_segment", DATA / "cylinder_on_block_2d.msh", CYL + ["--mode", "segment"]),
    ("cylinder_2d_bin", DATA / "cylinder_on_block_2d_bin.msh", CYL),
    ("cylinder_2d_v22", DATA / "cylinder_on_block_2d_v22.msh", CYL),
    ("sphere", DATA / "sphere_on_block.msh", SPH),
    ("sphere_o2", DATA / "sphere_on_block_o2.msh", SPH),
    # General contact: its slaves are parts of its masters (searched as self-contact).
    ("general_contact", ABAQUS / "general_contact.inp", []),
    # A node surface and an element surface of one name: the slave is the node surface in node
    # mode, the element surface in segment mode (mesh_io::prepareInterface).
    ("same_name_surfaces", ABAQUS / "same_name_node_and_element_surface.inp", ["--mode", "node"]),
    ("same_name_surfaces_segment", ABAQUS / "same_name_node_and_element_surface.inp",
     ["--mode", "segment"]),
]
if GENERATED:
    CASES.append(("generated", pathlib.Path(GENERATED), []))


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def run_tool(args):
    """Runs contact-search; returns its stdout, or fails the test with its stderr."""
    if not TOOL:
        pytest.fail("CONTACT_SEARCH_TOOL is not set (ctest sets it)")
    r = subprocess.run([TOOL] + [str(a) for a in args], capture_output=True, text=True, env=TOOL_ENV)
    if r.returncode != 0:
        pytest.fail("contact-search %s: exit %d\n%s" % (args, r.returncode, r.stderr))
    return r.stdout


def interfaces(model, args):
    """(index, master name, slave name, mode, self-contact) searched as the tool would for these
    options."""
    mode = option(args, "--mode")
    if "--master" in args:
        master, slave = option(args, "--master"), option(args, "--slave")
        mode = mode or "node"
        # One name is self-contact, unless in node mode it names a node surface (the slave) and
        # an element surface (the master): two surfaces (mesh_io::prepareInterface).
        two = mode == "node" and slave in model.node_surfaces and master in model.surfaces
        return [(1, master, slave, mode, master == slave and not two)]
    return [(i + 1, itf.master, itf.slave, mode or itf.mode, itf.self_contact)
            for i, itf in enumerate(model.interfaces)]


def slave_surface(model, name, mode, self_contact=False):
    """The slave the tool searches: where a node surface and an element surface share the name,
    the node surface in node mode unless in self-contact, else the element surface
    (mesh_io::prepareInterface)."""
    return model.surface(name, nodes=mode == "node" and not self_contact)


def search(model, master, slave, mode, self_contact, coords=None):
    """A search of one interface with the tool's defaults; returns (search, stats)."""
    m, s = model.surfaces[master], slave_surface(model, slave, mode, self_contact)
    x = model.coordinates[:, :m.dim] if coords is None else coords
    srch = cs.ContactSearch(mode=mode, self_contact=self_contact)
    srch.set_surfaces(m, s, x)
    return srch, srch.update(x)


def pairs_csv(model, args):
    """The tool's --pairs CSV, made from Python."""
    rows = []
    ids = model.node_ids
    for index, master, slave, mode, self_contact in interfaces(model, args):
        m, s = model.surfaces[master], slave_surface(model, slave, mode, self_contact)
        srch, _ = search(model, master, slave, mode, self_contact)
        p = srch.pairs()
        if mode != "node":
            o = srch.overlaps(model.coordinates[:, :m.dim])
            areas = {(a, b): (o["overlap_area"][k], o["capture_area"][k], o["penetration_area"][k])
                     for k, (a, b) in enumerate(zip(o["slave"], o["master"]))}
        if not rows:
            rows.append("interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz"
                        if mode == "node" else
                        "interface,slave_element,slave_face,master_element,master_face,"
                        "overlap_area,capture_area,penetration_area")
        for i in range(len(p)):
            k = p.master[i]
            if mode == "node":
                rows.append("%d,%d,%d,%d,%s" % (index, ids[p.slave[i]], m.element_ids[k], m.faces[k],
                                                ",".join("%.17g" % v for v in (
                                                    p.xi[i, 0], p.xi[i, 1], p.gap[i], p.normal[i, 0],
                                                    p.normal[i, 1], p.normal[i, 2]))))
            else:
                j = p.slave[i]
                rows.append("%d,%d,%d,%d,%d,%s" % (index, s.element_ids[j], s.faces[j],
                                                   m.element_ids[k], m.faces[k], ",".join(
                                                       "%.17g" % v for v in areas.get(
                                                           (j, k), (0.0, 0.0, 0.0)))))
    return "".join(r + "\n" for r in rows)


def plate_scene(nm=4, ns=5, gap=0.125, a0=0.3, h=0.67):
    """A flat sheet (ns x ns Quad4, normal -z) at `gap` over a flat plate (nm x nm Quad4 on
    [0, nm]^2, normal +z); no sheet node on a plate edge. Returns (coords, plate, sheet, info)."""
    xs = [(i, j, 0.0) for j in range(nm + 1) for i in range(nm + 1)]
    xs += [(a0 + h * i, a0 + h * j, gap) for j in range(ns + 1) for i in range(ns + 1)]
    coords = np.array(xs, dtype=float)
    plate = []
    for j in range(nm):
        for i in range(nm):
            n0 = j * (nm + 1) + i
            plate.append([n0, n0 + 1, n0 + nm + 2, n0 + nm + 1])
    sheet = []
    first = (nm + 1) ** 2
    for j in range(ns):
        for i in range(ns):
            n0 = first + j * (ns + 1) + i
            sheet.append([n0, n0 + ns + 1, n0 + ns + 2, n0 + 1])
    info = {"first_sheet_node": first, "sheet_nodes": (ns + 1) ** 2, "nm": nm, "ns": ns, "h": h}
    return (coords, cs.surface("Quad4", np.array(plate), name="plate"),
            cs.surface("Quad4", np.array(sheet), name="sheet"), info)
