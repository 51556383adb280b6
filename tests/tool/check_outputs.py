#!/usr/bin/env python3
"""Reads back what contact-search wrote: the pairs CSV, the JSON report and the VTU file (through
VTK's own XML reader), and checks that they tell the same story."""
import csv
import json
import math
import sys

from vtu_read import read_vtu


def fail(msg):
    print("check_outputs: " + msg)
    sys.exit(1)


def main(csv_path, json_path, vtu_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header = "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz".split(",")
    if rows[0] != header:
        fail("CSV header is %r" % rows[0])
    pairs = rows[1:]
    if not pairs:
        fail("no pairs in the CSV")
    gap_of = {}
    for r in pairs:
        if len(r) != len(header):
            fail("CSV row with %d fields: %r" % (len(r), r))
        gap = float(r[6])
        normal = [float(v) for v in r[7:10]]
        if abs(math.sqrt(sum(v * v for v in normal)) - 1) > 1e-12:
            fail("normal not unit: %r" % r)
        gap_of[int(r[1])] = gap

    with open(json_path) as f:
        report = json.load(f)
    itfs = report["interfaces"]
    if len(itfs) != 1:
        fail("expected one interface in the JSON, got %d" % len(itfs))
    itf = itfs[0]
    for key in ("index", "slave", "master", "mode", "capture_distance", "master_segments",
                "slave_segments", "slave_nodes", "candidates", "sat_survivors", "pairs", "min_gap",
                "max_gap", "penetrating", "time_ms", "pairs_file", "pair_list"):
        if key not in itf:
            fail("JSON interface lacks %r" % key)
    for key in ("read", "bounds", "broad", "narrow", "projection", "total"):
        if key not in itf["time_ms"]:
            fail("JSON time_ms lacks %r" % key)
    if itf["pairs"] != len(pairs) or len(itf["pair_list"]) != len(pairs):
        fail("JSON says %d pairs, the CSV has %d" % (itf["pairs"], len(pairs)))
    gaps = [p["gap"] for p in itf["pair_list"]]
    if abs(min(gaps) - itf["min_gap"]) > 0 or abs(max(gaps) - itf["max_gap"]) > 0:
        fail("min/max gap do not match the pair list")
    if itf["penetrating"] != sum(1 for g in gaps if g < 0):
        fail("penetrating count does not match")
    if not itf["sat_survivors"] <= itf["candidates"]:
        fail("more SAT survivors than candidates")

    grid = read_vtu(vtu_path, fail)
    if grid.GetNumberOfPoints() == 0:
        fail("VTK read no points from " + vtu_path)
    pd, cd = grid.GetPointData(), grid.GetCellData()
    for name in ("gap", "normal", "paired", "node_id"):
        if pd.GetArray(name) is None:
            fail("VTU lacks point array %r" % name)
    for name in ("role", "element_id", "face", "pair_count"):
        if cd.GetArray(name) is None:
            fail("VTU lacks cell array %r" % name)
    def values(array):
        return [array.GetValue(i) for i in range(array.GetNumberOfTuples())]

    gap = values(pd.GetArray("gap"))
    paired = values(pd.GetArray("paired"))
    node_id = values(pd.GetArray("node_id"))
    role = values(cd.GetArray("role"))
    if sum(paired) != len(pairs):
        fail("VTU marks %d paired nodes, the CSV has %d pairs" % (sum(paired), len(pairs)))
    if role.count(2) != len(pairs):
        fail("VTU has %d pair cells, the CSV %d pairs" % (role.count(2), len(pairs)))
    if role.count(0) != itf["master_segments"] or role.count(1) != itf["slave_segments"]:
        fail("VTU segment cells do not match the JSON segment counts")
    for k in range(grid.GetNumberOfPoints()):
        if paired[k]:
            expect = gap_of.get(int(node_id[k]))
            if expect is None or abs(gap[k] - expect) > 1e-9 * (1 + abs(expect)):
                fail("VTU gap %r at node %d, CSV %r" % (gap[k], node_id[k], expect))
    # Pair cells join a slave node to its closest point: their length is |gap| on a smooth master.
    lengths = []
    for c in range(grid.GetNumberOfCells()):
        if role[c] == 2:
            cell = grid.GetCell(c)
            a = grid.GetPoint(cell.GetPointId(0))
            b = grid.GetPoint(cell.GetPointId(1))
            lengths.append(math.dist(a, b))
    if max(lengths) > itf["capture_distance"] * (1 + 1e-9):
        fail("a pair line is longer than the capture distance")
    print("check_outputs: %d pairs agree across CSV, JSON and VTU (%d points, %d cells)"
          % (len(pairs), grid.GetNumberOfPoints(), grid.GetNumberOfCells()))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        fail("usage: check_outputs.py PAIRS.csv REPORT.json RESULT.vtu")
    main(*sys.argv[1:])
