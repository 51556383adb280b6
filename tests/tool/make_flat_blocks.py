#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a model for the mortar output test: two C3D8 blocks with non-matching meshes and a flat
interface, the upper block DELTA above the lower one.

usage: make_flat_blocks.py OUT.inp

Lower block (master surface LOWER_TOP): [0, 2] x [0, 1] x [-1, 0], 3 x 2 x 1 elements, node ids
from 1. Upper block (slave surface UPPER_BOTTOM): [0.2, 1.7] x [0.1, 0.9] x [DELTA, 1], 4 x 3 x 1
elements, node ids from 1001 with gaps (ids 1001, 1003, ...). The master covers the slave, so every
slave node is fully covered: the mortar sum rules hold exactly, and the weighted gaps are DELTA
times the row sums of D. Slave area 1.5 x 0.8 = 1.2.
"""
import sys

DELTA = 0.001


def block(first_id, id_step, xs, ys, zs):
    nodes = {}
    nid = first_id
    for k, z in enumerate(zs):
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                nodes[(i, j, k)] = (nid, x, y, z)
                nid += id_step
    elements = []
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            c = [(i, j, 0), (i + 1, j, 0), (i + 1, j + 1, 0), (i, j + 1, 0)]
            top = [(a, b, 1) for (a, b, _) in c]
            elements.append([nodes[p][0] for p in c + top])
    return nodes, elements


def main():
    lower_nodes, lower_elements = block(1, 1, [0.0, 0.7, 1.3, 2.0], [0.0, 0.45, 1.0], [-1.0, 0.0])
    upper_nodes, upper_elements = block(1001, 2, [0.2, 0.5, 0.9, 1.2, 1.7], [0.1, 0.35, 0.6, 0.9],
                                        [DELTA, 1.0])
    with open(sys.argv[1], "w") as f:
        f.write("*HEADING\nTwo blocks, flat non-matching interface, gap %g\n" % DELTA)
        f.write("*NODE\n")
        for nodes in (lower_nodes, upper_nodes):
            for nid, x, y, z in sorted(nodes.values()):
                f.write("%d, %.17g, %.17g, %.17g\n" % (nid, x, y, z))
        f.write("*ELEMENT, TYPE=C3D8, ELSET=LOWER\n")
        for e, conn in enumerate(lower_elements):
            f.write("%d, %s\n" % (e + 1, ", ".join(map(str, conn))))
        f.write("*ELEMENT, TYPE=C3D8, ELSET=UPPER\n")
        for e, conn in enumerate(upper_elements):
            f.write("%d, %s\n" % (101 + e, ", ".join(map(str, conn))))
        f.write("*SURFACE, NAME=LOWER_TOP\nLOWER, S2\n")
        f.write("*SURFACE, NAME=UPPER_BOTTOM\nUPPER, S1\n")
        f.write("*CONTACT PAIR, INTERACTION=SMOOTH, TYPE=SURFACE TO SURFACE\n")
        f.write("UPPER_BOTTOM, LOWER_TOP\n")


if __name__ == "__main__":
    main()
