#!/usr/bin/env python3
"""Writes punch_on_block.inp: a cylindrical punch (C3D20R, curved bottom) pressed 0.005 into a
block (C3D8R), with element-face surfaces, a *CONTACT PAIR and the usual material and step data,
laid out as Abaqus/CAE writes input files (16 entries per data line, continuation lines)."""
import math

R, PEN = 0.6, 0.005
NX, NY, NZ = 24, 24, 4          # block elements
PX, PY, PZ = 8, 10, 2           # punch elements
lines = ["*HEADING", "Cylindrical punch on a block: contact search example", "**",
         "** PARTS are flattened into one assembly-level mesh", "**"]

nodes = {}
def add_node(nid, x, y, z):
    nodes[nid] = (x, y, z)

# Block nodes: ids 1.., grid (NX+1) x (NY+1) x (NZ+1) over [-1,1]^2 x [-0.5,0].
def bnode(i, j, k):
    return 1 + i + (NX + 1) * (j + (NY + 1) * k)
for k in range(NZ + 1):
    for j in range(NY + 1):
        for i in range(NX + 1):
            add_node(bnode(i, j, k), -1 + 2.0 * i / NX, -1 + 2.0 * j / NY, -0.5 + 0.5 * k / NZ)

# Punch nodes: ids from 100001, a (2PX+1) x (2PY+1) x (2PZ+1) grid over x in [-0.4,0.4],
# y in [-0.6,0.6], z from the cylinder bottom zb(x) to 0.3 (quadratic elements need midsides).
def zb(x):
    return R - math.sqrt(R * R - x * x) - PEN
def pnode(i, j, k):
    return 100001 + i + (2 * PX + 1) * (j + (2 * PY + 1) * k)
for k in range(2 * PZ + 1):
    for j in range(2 * PY + 1):
        for i in range(2 * PX + 1):
            x = -0.4 + 0.8 * i / (2 * PX)
            y = -0.6 + 1.2 * j / (2 * PY)
            t = k / (2 * PZ)
            add_node(pnode(i, j, k), x, y, zb(x) + t * (0.3 - zb(x)))

lines.append("*NODE, NSET=ALLNODES")
for nid in sorted(nodes):
    x, y, z = nodes[nid]
    lines.append("%d, %.12g, %.12g, %.12g" % (nid, x, y, z))

def data_lines(values):
    out = []
    for start in range(0, len(values), 16):
        out.append(", ".join(str(v) for v in values[start:start + 16]) + ("," if start + 16 < len(values) else ""))
    return out

lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BLOCK")
eid = 1
top_first = None
for k in range(NZ):
    for j in range(NY):
        for i in range(NX):
            if k == NZ - 1 and top_first is None:
                top_first = eid
            n = [bnode(i, j, k), bnode(i + 1, j, k), bnode(i + 1, j + 1, k), bnode(i, j + 1, k),
                 bnode(i, j, k + 1), bnode(i + 1, j, k + 1), bnode(i + 1, j + 1, k + 1), bnode(i, j + 1, k + 1)]
            lines += data_lines([eid] + n)
            eid += 1
block_last = eid - 1

lines.append("** 20-node bricks: corners, then the midsides of edges 1-2, 2-3, 3-4, 4-1, 5-6, ...")
lines.append("*Element, type=C3D20R, elset=PUNCH")
peid = 5001
for k in range(PZ):
    for j in range(PY):
        for i in range(PX):
            a, b, c = 2 * i, 2 * j, 2 * k
            corner = [(a, b, c), (a + 2, b, c), (a + 2, b + 2, c), (a, b + 2, c),
                      (a, b, c + 2), (a + 2, b, c + 2), (a + 2, b + 2, c + 2), (a, b + 2, c + 2)]
            edges = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4),
                     (0, 4), (1, 5), (2, 6), (3, 7)]
            n = [pnode(*p) for p in corner]
            for e0, e1 in edges:
                p, q = corner[e0], corner[e1]
                n.append(pnode((p[0] + q[0]) // 2, (p[1] + q[1]) // 2, (p[2] + q[2]) // 2))
            lines += data_lines([peid] + n)
            peid += 1

lines.append("*ELSET, ELSET=BLOCK_TOP, GENERATE")
lines.append("%d, %d, 1" % (top_first, block_last))
lines.append("*Elset, elset=PUNCH_BOTTOM, generate")
lines.append("5001, %d, 1" % (5001 + PX * PY - 1))
lines.append("** Top of the block: face S2 (nodes 5-8); bottom of the punch: face S1 (nodes 1-4)")
lines.append("*SURFACE, NAME=BlockTop, TYPE=ELEMENT")
lines.append("BLOCK_TOP, S2")
lines.append("*Surface, name=PunchBottom")
lines.append("PUNCH_BOTTOM, S1")
lines += ["*MATERIAL, NAME=STEEL", "*ELASTIC", "210000., 0.3",
          "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL", ",",
          "*SOLID SECTION, ELSET=PUNCH, MATERIAL=STEEL", ",",
          "*SURFACE INTERACTION, NAME=FRIC", "*FRICTION", "0.1",
          "** slave, master",
          "*CONTACT PAIR, INTERACTION=FRIC, TYPE=NODE TO SURFACE",
          "BlockTop, PunchBottom",
          "*STEP", "*STATIC", "0.1, 1.0",
          "*BOUNDARY", "ALLNODES, 1, 1, 0.", "*END STEP"]
with open("punch_on_block.inp", "w") as f:
    f.write("\n".join(lines) + "\n")
