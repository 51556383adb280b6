#!/usr/bin/env python3
"""Reads back a segment-mode run of contact-search: the overlaps CSV, the JSON report (total
overlap area) and the VTU overlap cells (role 3, through VTK's reader) must agree."""
import csv
import json
import sys

from vtu_read import read_vtu


def fail(msg):
    print("check_overlaps: " + msg)
    sys.exit(1)


def main(csv_path, json_path, vtu_path, min_area):
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    header = ("interface,slave_element,slave_face,master_element,master_face,area,cx,cy,cz,"
              "gap_min,gap_max").split(",")
    if rows[0] != header:
        fail("CSV header is %r" % rows[0])
    data = rows[1:]
    if not data:
        fail("no overlaps in the CSV")
    area = 0.0
    for r in data:
        a, gmin, gmax = float(r[5]), float(r[9]), float(r[10])
        if not a > 0 or gmin > gmax:
            fail("bad row %r" % r)
        area += a
    with open(json_path) as f:
        itf = json.load(f)["interfaces"][0]
    if itf["mode"] != "segment" or itf["overlaps"] != len(data):
        fail("JSON says %r overlaps in mode %r, the CSV has %d" % (itf["overlaps"], itf["mode"], len(data)))
    if abs(itf["overlap_area"] - area) > 1e-9 * area:
        fail("JSON overlap_area %r, CSV sum %r" % (itf["overlap_area"], area))
    if area < float(min_area):
        fail("total overlap %r below the expected %s" % (area, min_area))
    grid = read_vtu(vtu_path, fail)
    role = grid.GetCellData().GetArray("role")
    overlap_cells = [c for c in range(grid.GetNumberOfCells()) if role.GetValue(c) == 3]
    if len(overlap_cells) != len(data):
        fail("VTU has %d overlap cells, the CSV %d rows" % (len(overlap_cells), len(data)))
    print("check_overlaps: %d overlaps, total %.6g, agree across CSV, JSON and VTU" % (len(data), area))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        fail("usage: check_overlaps.py OVERLAPS.csv REPORT.json RESULT.vtu MIN_TOTAL")
    main(*sys.argv[1:])
