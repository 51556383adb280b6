#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads the --mortar files of the flat two-block model back and checks what must hold.

usage: check_mortar.py PREFIX MODEL.inp

PREFIX_D.mtx and PREFIX_M.mtx (Matrix Market, rows and columns node ids), PREFIX_nodes.csv
(node_id, weighted_gap, nodal_area). On a flat interface where every slave node is fully covered:
sum_c M_ac = sum_b D_ab for every row, the nodal areas are the row sums of D and add up to the
slave area, the weighted gaps are DELTA times the row sums of D, and the rows are exactly the
slave surface's nodes (ids from the model file).
"""
import csv
import sys

DELTA = 0.001
SLAVE_AREA = 1.5 * 0.8


def read_mtx(path):
    rows = {}
    with open(path) as f:
        if not f.readline().startswith("%%MatrixMarket matrix coordinate real general"):
            sys.exit("%s: not a Matrix Market coordinate file" % path)
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        m, n, nnz = map(int, line.split())
        entries = 0
        for line in f:
            i, j, v = line.split()
            i, j = int(i), int(j)
            if not (1 <= i <= m and 1 <= j <= n):
                sys.exit("%s: entry (%d, %d) outside %d x %d" % (path, i, j, m, n))
            rows.setdefault(i, {})[j] = float(v)
            entries += 1
        if entries != nnz:
            sys.exit("%s: %d entries, header says %d" % (path, entries, nnz))
    return rows, m


def slave_node_ids(model):
    ids = set()
    for line in open(model):
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 4 and parts[0].isdigit():
            nid, z = int(parts[0]), float(parts[3])
            if nid > 1000 and abs(z - DELTA) < 1e-12:
                ids.add(nid)
    return ids


def main():
    prefix, model = sys.argv[1], sys.argv[2]
    D, dm = read_mtx(prefix + "_D.mtx")
    M, mm = read_mtx(prefix + "_M.mtx")
    with open(prefix + "_nodes.csv", newline="") as f:
        nodes = {int(r["node_id"]): (float(r["weighted_gap"]), float(r["nodal_area"]))
                 for r in csv.DictReader(f)}
    errors = []
    if set(nodes) != slave_node_ids(model) or set(D) != set(nodes) or set(M) != set(nodes):
        errors.append("rows are not the slave nodes")
    scale = SLAVE_AREA / len(nodes)
    total = 0.0
    for a, (gap, area) in nodes.items():
        sd = sum(D[a].values())
        sm = sum(M[a].values())
        total += area
        if abs(sm - sd) > 1e-12 * scale:
            errors.append("node %d: sum M %.17g != sum D %.17g" % (a, sm, sd))
        if abs(area - sd) > 1e-12 * scale:
            errors.append("node %d: nodal area %.17g != sum D %.17g" % (a, area, sd))
        if abs(gap - DELTA * sd) > 1e-12 * DELTA * scale:
            errors.append("node %d: weighted gap %.17g != delta sum D %.17g" % (a, gap, DELTA * sd))
    if abs(total - SLAVE_AREA) > 1e-12:
        errors.append("nodal areas add up to %.17g, not %g" % (total, SLAVE_AREA))
    if dm < max(nodes) or mm < max(nodes):
        errors.append("matrix size %d / %d below the largest node id" % (dm, mm))
    for e in errors[:20]:
        print(e)
    if errors:
        sys.exit("%d errors" % len(errors))
    print("mortar files: %d slave nodes, sum rules hold, total area %.15g: OK" % (len(nodes), total))


if __name__ == "__main__":
    main()
