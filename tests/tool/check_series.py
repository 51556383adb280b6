#!/usr/bin/env python3
"""Reads back a .pvd series (mesh_io::VtuSeries, as examples/indenter writes it): every listed
VTU through VTK's reader, in time order, compressed, NaN where there is no pair, and a contact
patch that grows as the indenter goes in. Usage: check_series.py SERIES.pvd INCREMENTS"""
import os
import sys
import xml.etree.ElementTree as ET

from vtu_read import check_encoding, check_point_data, read_vtu


def fail(msg):
    print("check_series: " + msg)
    sys.exit(1)


def main(pvd, increments):
    root = ET.parse(pvd).getroot()
    if root.get("type") != "Collection":
        fail("%s is not a VTK collection" % pvd)
    sets = root.findall("./Collection/DataSet")
    if len(sets) != int(increments):
        fail("%d data sets listed, expected %s" % (len(sets), increments))
    times = [float(d.get("timestep")) for d in sets]
    if times != sorted(times) or len(set(times)) != len(times):
        fail("time steps not increasing: %r" % times)
    paired_counts = []
    for d in sets:
        path = os.path.join(os.path.dirname(pvd), d.get("file"))
        check_encoding(path, False, fail)
        grid = read_vtu(path, fail)
        _, paired = check_point_data(grid, fail)
        paired_counts.append(sum(paired))
    if not 0 < paired_counts[0] < paired_counts[len(sets) // 2] < paired_counts[-1]:
        fail("the contact does not grow as the indenter goes in: %r" % paired_counts)
    print("check_series: %d increments, paired points %r" % (len(sets), paired_counts))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        fail("usage: check_series.py SERIES.pvd INCREMENTS")
    main(*sys.argv[1:])
