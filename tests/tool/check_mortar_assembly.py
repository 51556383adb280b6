#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads the --mortar files of an Abaqus assembly back and checks that every index is named.

usage: check_mortar_assembly.py PREFIX SLAVE_INSTANCE MASTER_INSTANCE GAP

In assemblies the matrices' rows and columns are node numbers in the model's order; PREFIX_nodes.csv
names the slave rows, PREFIX_master_nodes.csv M's columns. Checks: every row of D and M and every
column of D is a slave node of the nodes file, every column of M a row of the master nodes file
and the other way round, the labels belong to the instance each side is on, one number means one
label in both files (number minus label constant per instance), and with a uniform gap the
weighted gaps are GAP times the nodal areas.
"""
import csv
import sys


def read_mtx(path):
    entries = []
    with open(path) as f:
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        nnz = int(line.split()[2])
        for line in f:
            i, j, v = line.split()
            entries.append((int(i), int(j), float(v)))
    if len(entries) != nnz:
        sys.exit("%s: %d entries, header says %d" % (path, len(entries), nnz))
    return entries


def main():
    prefix, slave, master, gap = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    D = read_mtx(prefix + "_D.mtx")
    M = read_mtx(prefix + "_M.mtx")
    with open(prefix + "_nodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(prefix + "_master_nodes.csv", newline="") as f:
        masters = list(csv.DictReader(f))
    errors = []
    label = {}  # node number -> (instance, label within it)
    for r in rows + masters:
        n = int(r["node_number"])
        inst, _, k = r["node_label"].rpartition(".")
        if label.setdefault(n, (inst, int(k))) != (inst, int(k)):
            errors.append("node number %d named twice" % n)
        label[n] = (inst, int(k))
    slaves = {int(r["node_number"]) for r in rows}
    named = {int(r["node_number"]) for r in masters}
    if any(label[n][0] != slave for n in slaves):
        errors.append("a slave row is not on instance %s" % slave)
    if any(label[n][0] != master for n in named):
        errors.append("a master node is not on instance %s" % master)
    if {i for i, _, _ in D} | {j for _, j, _ in D} | {i for i, _, _ in M} != slaves:
        errors.append("D's rows and columns and M's rows are not the nodes file's rows")
    if {j for _, j, _ in M} != named:
        errors.append("M's columns are not the master nodes file's rows")
    for inst in (slave, master):
        shifts = {n - k for n, (i, k) in label.items() if i == inst}
        if len(shifts) != 1:
            errors.append("instance %s: numbers and labels do not follow one order" % inst)
    for r in rows:
        wg, area = float(r["weighted_gap"]), float(r["nodal_area"])
        if area <= 0 or abs(wg - gap * area) > 1e-12 * area:
            errors.append("%s: weighted gap %.17g, nodal area %.17g" % (r["node_label"], wg, area))
    for e in errors[:20]:
        print(e)
    if errors:
        sys.exit("%d errors" % len(errors))
    print("mortar files: %d slave nodes, %d master nodes named: OK" % (len(slaves), len(named)))


if __name__ == "__main__":
    main()
