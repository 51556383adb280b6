#!/usr/bin/env python3
"""Reads back a segment-mode run of contact-search: the overlaps CSV, the pairs CSV (with
--coordinates), the JSON report and the VTU file (overlap cells through VTK's reader) must agree,
and the area within the capture distance must lie in [MIN, MAX].
Usage: check_overlaps.py OVERLAPS.csv PAIRS.csv REPORT.json RESULT.vtu MIN MAX"""
import csv
import json
import math
import sys

from vtu_read import check_encoding, check_point_data, read_vtu, values


def fail(msg):
    print("check_overlaps: " + msg)
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def main(overlaps_path, pairs_path, json_path, vtu_path, lo, hi):
    with open(overlaps_path, newline="") as f:
        rows = list(csv.reader(f))
    header = ("interface,slave_element,slave_face,master_element,master_face,overlap_area,"
              "capture_area,penetration_area,capture_area_error,penetration_area_error,gap_min,"
              "gap_max,cx,cy,cz")
    if rows[0] != header.split(","):
        fail("overlaps CSV header is %r" % rows[0])
    data = [[r[0]] + r[1:5] + [float(v) for v in r[5:]] for r in rows[1:]]
    if not data:
        fail("no overlaps in the CSV")
    with open(json_path) as f:
        itf = json.load(f)["interfaces"][0]
    capture = itf["capture_distance"]
    total = contact = penetration = penetration_error = 0.0
    in_contact = 0
    for r in data:
        area, cap, pen, err, pen_err, gmin, gmax = r[5:12]
        if not (area > 0 and 0 <= cap <= area * (1 + 1e-12) and 0 <= pen <= area * (1 + 1e-12)
                and err >= 0 and pen_err >= 0):
            fail("bad areas in %r" % r)
        if cap > 0:
            in_contact += 1
            if not gmin <= gmax <= capture * (1 + 1e-12):
                fail("gap range of the part in contact beyond the capture distance: %r" % r)
            if pen > 0 and not gmin < 0:
                fail("penetrating area without a negative gap: %r" % r)
        elif not (math.isnan(gmin) and math.isnan(gmax)):
            fail("a pair with nothing in contact has a gap range: %r" % r)
        total += area
        contact += cap
        penetration += pen
        penetration_error += pen_err
    if itf["mode"] != "segment" or itf["overlaps"] != len(data):
        fail("JSON says %r overlaps in mode %r, the CSV has %d" % (itf["overlaps"], itf["mode"],
                                                                    len(data)))
    if itf["contact_pairs"] != in_contact:
        fail("JSON says %r pairs in contact, the CSV %d" % (itf["contact_pairs"], in_contact))
    for key, value in (("overlap_area", total), ("capture_area", contact),
                       ("penetration_area", penetration),
                       ("penetration_area_error", penetration_error)):
        if not close(itf[key], value):
            fail("JSON %s %r, CSV sum %r" % (key, itf[key], value))
    if not float(lo) <= contact <= float(hi):
        fail("area within the capture distance %r outside [%s, %s]" % (contact, lo, hi))
    if not contact < total:
        fail("everything overlapping is in contact: the cut tested nothing")
    q = itf["gap"]
    if not q["min"] <= q["p05"] <= q["median"] <= q["p95"] <= q["max"] <= capture * (1 + 1e-12):
        fail("JSON gap quantiles out of order or beyond the capture distance: %r" % q)

    # The pairs CSV: every pair, with the areas of its overlap and the centroid of its contact.
    with open(pairs_path, newline="") as f:
        prow = list(csv.reader(f))
    pheader = ("interface,slave_element,slave_face,master_element,master_face,overlap_area,"
               "capture_area,penetration_area,cx,cy,cz")
    if prow[0] != pheader.split(","):
        fail("pairs CSV header is %r" % prow[0])
    if len(prow) - 1 != itf["pairs"]:
        fail("pairs CSV has %d rows, the JSON %d pairs" % (len(prow) - 1, itf["pairs"]))
    if not close(sum(float(r[6]) for r in prow[1:]), contact):
        fail("pairs CSV capture areas do not sum to the overlaps CSV's")
    by_pair = {tuple(r[1:5]): r for r in rows[1:]}
    for r in prow[1:]:
        o = by_pair.get(tuple(r[1:5]))
        if o is not None and [r[6]] + r[8:11] != [o[6]] + o[12:15]:
            fail("pairs CSV row %r disagrees with overlaps row %r" % (r, o))

    check_encoding(vtu_path, False, fail)
    grid = read_vtu(vtu_path, fail)
    check_point_data(grid, fail)
    cd = grid.GetCellData()
    for name in ("overlap_area", "capture_area", "penetration_area", "gap_min", "gap_max"):
        if cd.GetArray(name) is None:
            fail("VTU lacks cell array %r" % name)
    role = values(cd.GetArray("role"))
    cap = values(cd.GetArray("capture_area"))
    cells3 = [c for c in range(grid.GetNumberOfCells()) if role[c] == 3]
    if not 0 < len(cells3) <= in_contact:
        fail("VTU has %d overlap cells, %d pairs are in contact" % (len(cells3), in_contact))
    if any(not math.isnan(cap[c]) for c in range(len(role)) if role[c] != 3):
        fail("cells other than overlaps carry a capture area")
    drawn = sum(cap[c] for c in cells3)
    if not (drawn <= contact * (1 + 1e-12) and drawn > 0.95 * contact):
        fail("overlap cells carry %r of the %r in contact" % (drawn, contact))
    paired = values(grid.GetPointData().GetArray("paired"))
    for c in cells3:
        cell = grid.GetCell(c)
        if not all(paired[cell.GetPointId(i)] for i in range(cell.GetNumberOfPoints())):
            fail("overlap cell %d has points without gap data" % c)
    print("check_overlaps: %d overlaps, total %.6g, %d in contact over %.6g, agree across CSV, "
          "JSON and VTU" % (len(data), total, in_contact, contact))


if __name__ == "__main__":
    if len(sys.argv) != 7:
        fail("usage: check_overlaps.py OVERLAPS.csv PAIRS.csv REPORT.json RESULT.vtu MIN MAX")
    main(*sys.argv[1:])
