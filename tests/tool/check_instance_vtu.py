#!/usr/bin/env python3
"""Reads back the VTU that contact-search wrote for an Abaqus assembly, whose node and element ids
repeat across part instances: the file's comment names the instances in order, node_instance and
element_instance say which instance each id belongs to, and every paired slave node and every
pair's master element, named "<instance>.<id>" from them, is a row of the pairs CSV (with the
same gap). Usage: check_instance_vtu.py RESULT.vtu PAIRS.csv INSTANCE..."""
import csv
import sys

from vtu_read import read_vtu, values


def fail(msg):
    print("check_instance_vtu: " + msg)
    sys.exit(1)


def main(vtu_path, csv_path, *instances):
    with open(vtu_path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    listed = ", ".join("%d %s" % (i, name) for i, name in enumerate(instances))
    if "index the part instances" not in head or (": " + listed + " -->") not in head:
        fail("the comment does not name the instances %s in order" % listed)
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))[1:]
    pairs = {(r[1], float(r[6])) for r in rows}
    masters = {r[2] for r in rows}

    grid = read_vtu(vtu_path, fail)
    pd = grid.GetPointData()
    cd = grid.GetCellData()
    for data, name in ((pd, "node_instance"), (cd, "element_instance")):
        if data.GetArray(name) is None:
            fail("no array %r" % name)
    node_id = values(pd.GetArray("node_id"))
    node_instance = values(pd.GetArray("node_instance"))
    gap = values(pd.GetArray("gap"))
    paired = values(pd.GetArray("paired"))
    role = values(cd.GetArray("role"))
    element_id = values(cd.GetArray("element_id"))
    element_instance = values(cd.GetArray("element_instance"))

    def label(instance, ident):
        if not 0 <= instance < len(instances):
            fail("instance %d of id %d is none of the %d" % (instance, ident, len(instances)))
        return "%s.%d" % (instances[instance], ident)

    # The ids alone are ambiguous here: the check would test nothing otherwise.
    owners = {}
    for k, ident in enumerate(node_id):
        if ident >= 0:
            owners.setdefault(ident, set()).add(node_instance[k])
        elif node_instance[k] != -1:
            fail("extra point %d has instance %d" % (k, node_instance[k]))
    if not any(len(s) > 1 for s in owners.values()):
        fail("no node id repeats across instances")
    seen = 0
    for k in range(len(node_id)):
        if node_id[k] >= 0 and paired[k]:
            if (label(node_instance[k], node_id[k]), gap[k]) not in pairs:
                fail("paired node %s (gap %r) is no slave node of the CSV"
                     % (label(node_instance[k], node_id[k]), gap[k]))
            seen += 1
    lines = 0
    for c in range(len(role)):
        if role[c] == 2:
            if label(element_instance[c], element_id[c]) not in masters:
                fail("pair cell %d: master %s is none of the CSV"
                     % (c, label(element_instance[c], element_id[c])))
            lines += 1
        elif role[c] in (0, 1) and element_instance[c] < 0:
            fail("segment cell %d has no instance" % c)
    if seen == 0 or lines != len(rows):
        fail("%d paired nodes, %d pair cells, %d CSV rows" % (seen, lines, len(rows)))
    print("check_instance_vtu: %d pairs named by instance agree with the CSV" % lines)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        fail("usage: check_instance_vtu.py RESULT.vtu PAIRS.csv INSTANCE...")
    main(*sys.argv[1:])
