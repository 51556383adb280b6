#!/usr/bin/env python3
"""Reads back what contact-search wrote in node mode: the pairs CSV (with --coordinates), the JSON
report (with --json-pairs) and the VTU file (through VTK's own XML reader), and checks that they
tell the same story. Usage: check_outputs.py PAIRS.csv REPORT.json RESULT.vtu ascii|binary"""
import csv
import json
import math
import sys

from vtu_read import check_encoding, check_point_data, read_vtu, values


def fail(msg):
    print("check_outputs: " + msg)
    sys.exit(1)


def nearest_rank(sorted_values, q):
    """The smallest value with at least q of the values at or below it."""
    n = len(sorted_values)
    for i, v in enumerate(sorted_values):
        if i + 1 >= q * n:
            return v
    return sorted_values[-1]


def main(csv_path, json_path, vtu_path, encoding):
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header = "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz,x,y,z,px,py,pz"
    if rows[0] != header.split(","):
        fail("CSV header is %r" % rows[0])
    pairs = rows[1:]
    if not pairs:
        fail("no pairs in the CSV")

    with open(json_path) as f:
        report = json.load(f)
    # The reader's notes, as the text report prints them: the deck's *MATERIAL is skipped.
    if not any(n.endswith(": skipped keyword *MATERIAL") for n in report.get("notes", [])):
        fail("the JSON's notes lack the skipped *MATERIAL: %r" % report.get("notes"))
    itfs = report["interfaces"]
    if len(itfs) != 1:
        fail("expected one interface in the JSON, got %d" % len(itfs))
    itf = itfs[0]
    for key in ("index", "slave", "master", "mode", "notes", "capture_distance", "master_segments",
                "slave_segments", "slave_nodes", "candidates", "sat_survivors", "pairs", "gap",
                "min_gap", "max_gap", "penetrating", "time_ms", "pairs_file", "pair_list"):
        if key not in itf:
            fail("JSON interface lacks %r" % key)
    capture = itf["capture_distance"]

    # Coordinates: the slave node minus its closest point has length <= capture and its
    # projection on the normal is the gap.
    gap_of = {}
    for r in pairs:
        if len(r) != len(header.split(",")):
            fail("CSV row with %d fields: %r" % (len(r), r))
        gap = float(r[6])
        n = [float(v) for v in r[7:10]]
        x = [float(v) for v in r[10:13]]
        p = [float(v) for v in r[13:16]]
        d = [a - b for a, b in zip(x, p)]
        if abs(math.sqrt(sum(v * v for v in n)) - 1) > 1e-12:
            fail("normal not unit: %r" % r)
        if math.sqrt(sum(v * v for v in d)) > capture * (1 + 1e-12):
            fail("slave node farther than the capture distance from its closest point: %r" % r)
        if abs(sum(a * b for a, b in zip(d, n)) - gap) > 1e-9 * (capture + abs(gap)):
            fail("(x - p) . n is not the gap: %r" % r)
        gap_of[int(r[1])] = gap

    if itf["pairs"] != len(pairs) or len(itf["pair_list"]) != len(pairs):
        fail("JSON says %d pairs, the CSV has %d" % (itf["pairs"], len(pairs)))
    for p, r in zip(itf["pair_list"], pairs):
        if p["x"] != [float(v) for v in r[10:13]] or p["point"] != [float(v) for v in r[13:16]]:
            fail("JSON pair coordinates differ from the CSV: %r" % p)
    gaps = sorted(p["gap"] for p in itf["pair_list"])
    q = itf["gap"]
    expect = {"min": gaps[0], "p05": nearest_rank(gaps, 0.05), "median": nearest_rank(gaps, 0.5),
              "p95": nearest_rank(gaps, 0.95), "max": gaps[-1]}
    if q != expect:
        fail("JSON gap quantiles %r, from the pairs %r" % (q, expect))
    if itf["min_gap"] != gaps[0] or itf["max_gap"] != gaps[-1]:
        fail("min/max gap do not match the pair list")
    if itf["penetrating"] != sum(1 for g in gaps if g < 0):
        fail("penetrating count does not match")
    if not itf["sat_survivors"] <= itf["candidates"]:
        fail("more SAT survivors than candidates")

    check_encoding(vtu_path, encoding == "ascii", fail)
    grid = read_vtu(vtu_path, fail)
    gap, paired = check_point_data(grid, fail)
    cd = grid.GetCellData()
    for name in ("role", "element_id", "face", "pair_count"):
        if cd.GetArray(name) is None:
            fail("VTU lacks cell array %r" % name)
    node_id = values(grid.GetPointData().GetArray("node_id"))
    role = values(cd.GetArray("role"))
    if role.count(2) != len(pairs):
        fail("VTU has %d pair cells, the CSV %d pairs" % (role.count(2), len(pairs)))
    if role.count(0) != itf["master_segments"] or role.count(1) != itf["slave_segments"]:
        fail("VTU segment cells do not match the JSON segment counts")
    # Paired: each paired slave node and its closest point (node_id -1), nothing else.
    paired_nodes = [k for k in range(len(paired)) if paired[k] and node_id[k] >= 0]
    if len(paired_nodes) != len(pairs) or sum(paired) != 2 * len(pairs):
        fail("VTU marks %d paired points, expected 2 x %d pairs" % (sum(paired), len(pairs)))
    for k in paired_nodes:
        expect = gap_of.get(int(node_id[k]))
        if expect is None or gap[k] != expect:
            fail("VTU gap %r at node %d, CSV %r" % (gap[k], node_id[k], expect))
    unpaired = sum(1 for k in range(len(paired)) if not paired[k])
    if unpaired == 0:
        fail("every point paired: the NaN check tested nothing")
    # A pair cell joins a slave node to its closest point, both carrying the pair's gap.
    for c in range(grid.GetNumberOfCells()):
        if role[c] == 2:
            cell = grid.GetCell(c)
            a, b = cell.GetPointId(0), cell.GetPointId(1)
            if gap[a] != gap[b] or not paired[a] or not paired[b]:
                fail("pair cell %d: ends carry gaps %r and %r" % (c, gap[a], gap[b]))
            if math.dist(grid.GetPoint(a), grid.GetPoint(b)) > capture * (1 + 1e-9):
                fail("a pair line is longer than the capture distance")
    print("check_outputs: %d pairs agree across CSV, JSON and %s VTU (%d points, %d without a "
          "pair: NaN)" % (len(pairs), encoding, grid.GetNumberOfPoints(), unpaired))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        fail("usage: check_outputs.py PAIRS.csv REPORT.json RESULT.vtu ascii|binary")
    main(*sys.argv[1:])
