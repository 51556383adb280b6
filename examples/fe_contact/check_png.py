#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that a file is a PNG of the given size: check_png.py FILE WIDTH HEIGHT."""
import struct
import sys


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        sys.exit("%s: not a PNG file" % path)
    w, h = struct.unpack(">II", head[16:24])
    if (w, h) != (width, height):
        sys.exit("%s: %d x %d pixels, expected %d x %d" % (path, w, h, width, height))
    print("%s: PNG, %d x %d: OK" % (path, w, h))


if __name__ == "__main__":
    main()
