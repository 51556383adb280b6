#!/usr/bin/env python3
"""Writes the seed corpus of the search fuzz target (corpus/search/): small structured models in
the byte layout fuzz_search.cpp reads, plus a few random ones (fixed seed)."""
import random

def coord(v):
    b = int(round(v * 8)) + 128
    assert 0 <= b < 256
    return [0, b]

def model(flags, nodes, master, slave, capture=4, skin=1, moves=None):
    out = [flags, len(nodes) - 1]
    for p in nodes:
        for v in p:
            out += coord(v)
    for segs in (master, slave):
        out.append(len(segs))
        for t, ids in segs:
            out.append(t)
            out += ids
    out += [capture, skin]
    out += moves if moves is not None else [128 + (i % 5) - 2 for i in range(3 * len(nodes))]
    return bytes(out)

seeds = {}
# 3D: a 2x2 Quad4 patch on z = 0 and one above at z = 0.125 facing down (face types: 2 = Quad4).
grid = [(x * 0.5, y * 0.5, 0.0) for y in range(3) for x in range(3)]
top = [(x * 0.5 + 0.1, y * 0.5 + 0.1, 0.125) for y in range(3) for x in range(3)]
def quads(base, flip):
    q = []
    for j in range(2):
        for i in range(2):
            a = base + i + 3 * j
            c = [a, a + 1, a + 4, a + 3]
            if flip:
                c = [c[0], c[3], c[2], c[1]]
            q.append((2, c))
    return q
nodes = grid + top
seeds["quads_node"] = model(1, nodes, quads(0, False), quads(9, True))
seeds["quads_segment"] = model(1 | 4, nodes, quads(0, False), quads(9, True))
seeds["quads_self"] = model(1 | 8 | 32, nodes, quads(0, False) + quads(9, True), [])
seeds["quads_threads"] = model(1 | 16, nodes, quads(0, False), quads(9, True), capture=15)
# Triangles (face type 0 = Tri3).
tris = [(0, [0, 1, 4]), (0, [0, 4, 3]), (0, [1, 2, 5]), (0, [1, 5, 4])]
seeds["tris_node"] = model(1 | 2, nodes, tris, quads(9, True))
# 2D: a line on y = 0 and one above (line types: 0 = Line2, 1 = Line3).
line_nodes = [(x * 0.25, 0.0) for x in range(5)] + [(x * 0.25 + 0.1, 0.1) for x in range(5)]
lower = [(0, [i + 1, i]) for i in range(4)]
upper = [(0, [5 + i, 6 + i]) for i in range(4)]
seeds["lines_node"] = model(0, line_nodes, lower, upper)
seeds["lines_segment"] = model(4, line_nodes, lower, upper)
seeds["lines3"] = model(0, line_nodes, [(1, [2, 0, 1]), (1, [4, 2, 3])], [(1, [5, 7, 6])])
# Bad models: a node index out of range (255), a NaN coordinate.
seeds["bad_index"] = model(1, nodes, [(2, [0, 1, 255, 3])], quads(9, True))
nan = bytes([1, 3]) + bytes([255] + [0, 0, 0, 0, 0, 0, 0xf8, 0x7f]) + bytes([0, 128] * 11) + bytes([1, 0, 0, 1, 2, 0, 0, 0, 0])
seeds["nan_coordinate"] = nan
rng = random.Random(1)
for k in range(8):
    seeds["random_%d" % k] = bytes(rng.randrange(256) for _ in range(rng.randrange(16, 400)))
for name, data in seeds.items():
    with open("corpus/search/" + name, "wb") as f:
        f.write(data)
