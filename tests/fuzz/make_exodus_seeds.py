#!/usr/bin/env python3
"""Writes the seed corpus of the Exodus II fuzz target (corpus/exodus/): byte strings in the
order fuzz_exodus.cpp reads them (dimension, node count, block count, the two block types, their
element counts, side and node set counts, then coordinates, maps, connectivity, sets, names),
one per element type with three elements and a side set, plus random ones (fixed seed)."""
import os
import random

TYPES = 20  # kTypes in fuzz_exodus.cpp
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "corpus", "exodus")
os.makedirs(out, exist_ok=True)
rng = random.Random(20)
for t in range(TYPES):
    # 3D (1), 24 nodes (23), one block (0), type t twice, 3 and 0 elements, one side set, one node
    # set; then bytes for coordinates (small values), maps, connectivity and sets.
    head = [1, 23, 0, t, t, 3, 0, 1, 1]
    body = [rng.randrange(1, 256) for _ in range(600)]
    with open(os.path.join(out, "type_%02d" % t), "wb") as f:
        f.write(bytes(head + body))
for k in range(24):
    with open(os.path.join(out, "random_%02d" % k), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(rng.randrange(16, 700))))
