#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates the binary Gmsh fixtures of this directory from their ASCII twins.

    python3 tests/data/gmsh/make_binary.py

Standard library only. The outputs are committed; the tests read them and never run this script.
Review the diff after regenerating (the bad twins' expected lines and offsets live in the tests).

Binary layout (Gmsh manual, "MSH file format"): the header line reads "<version> 1 8", followed by
the int 1 and a newline. MSH 4.1: $Entities, $Nodes and $Elements are binary (int = 4 bytes,
size_t = 8 bytes, double = 8 bytes). MSH 2.2: the counts of $Nodes and $Elements stay ASCII lines;
nodes are (int id, 3 doubles), elements come in groups headed by (type, count, ntags) ints, then per
element id, tags and nodes as ints. $PhysicalNames and unknown sections stay text. Each binary
payload is followed by a newline and the $End line.
"""
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent

# (ASCII source, binary output, byte order, truncation): truncation (section, n) keeps the file up
# to the end of the section's header line plus n bytes.
JOBS = [
    ("model_41_ascii.msh", "model_41_binary.msh", "<", None),
    ("model_22_ascii.msh", "model_22_binary.msh", "<", None),
    ("unknown_section_41.msh", "unknown_section_41_binary.msh", "<", None),
    ("model_41_ascii.msh", "bad_binary_endianness_41.msh", ">", None),
    ("model_41_ascii.msh", "bad_binary_truncated_41.msh", "<", ("$Nodes", 100)),
    ("model_41_ascii.msh", "bad_binary_truncated_elements_41.msh", "<", ("$Elements", 80)),
    ("model_22_ascii.msh", "bad_binary_truncated_22.msh", "<", ("$Elements", 60)),
    ("bad_undefined_node_41.msh", "bad_binary_undefined_node_41.msh", "<", None),
    ("bad_undefined_node_22.msh", "bad_binary_undefined_node_22.msh", "<", None),
    ("skipped_type_41.msh", "skipped_type_41_binary.msh", "<", None),
    ("unknown_type_41.msh", "bad_binary_unknown_type_41.msh", "<", None),
]


def sections(text):
    """[(name, [data lines])] in file order."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        head = lines[i].strip()
        i += 1
        if not head:
            continue
        assert head.startswith("$"), head
        name = head[1:]
        body = []
        while lines[i].strip() != "$End" + name:
            body.append(lines[i])
            i += 1
        i += 1
        out.append((name, body))
    return out


class Packer:
    def __init__(self, order):
        self.order = order
        self.parts = []

    def put(self, fmt, *values):
        self.parts.append(struct.pack(self.order + fmt, *values))

    def data(self):
        return b"".join(self.parts)


def text_section(name, body):
    return ("$%s\n%s\n$End%s\n" % (name, "\n".join(body), name)).encode()


def binary_section(name, payload, ascii_head=""):
    return b"$" + name.encode() + b"\n" + ascii_head.encode() + payload + b"\n$End" + \
        name.encode() + b"\n"


def header(version, order):
    p = Packer(order)
    p.put("i", 1)
    return b"$MeshFormat\n" + version.encode() + b" 1 8\n" + p.data() + b"\n$EndMeshFormat\n"


def entities41(body, order):
    tok = " ".join(body).split()
    p = Packer(order)
    counts = [int(t) for t in tok[:4]]
    pos = 4
    p.put("4Q", *counts)
    for dim, count in enumerate(counts):
        for _ in range(count):
            p.put("i", int(tok[pos]))
            nbox = 3 if dim == 0 else 6
            p.put("%dd" % nbox, *[float(t) for t in tok[pos + 1:pos + 1 + nbox]])
            pos += 1 + nbox
            nphys = int(tok[pos])
            p.put("Q", nphys)
            p.put("%di" % nphys, *[int(t) for t in tok[pos + 1:pos + 1 + nphys]])
            pos += 1 + nphys
            if dim > 0:
                nb = int(tok[pos])
                p.put("Q", nb)
                p.put("%di" % nb, *[int(t) for t in tok[pos + 1:pos + 1 + nb]])
                pos += 1 + nb
    assert pos == len(tok)
    return p.data()


def nodes41(body, order):
    tok = " ".join(body).split()
    p = Packer(order)
    blocks = int(tok[0])
    p.put("4Q", *[int(t) for t in tok[:4]])
    pos = 4
    for _ in range(blocks):
        dim, tag, parametric, n = (int(t) for t in tok[pos:pos + 4])
        p.put("3iQ", dim, tag, parametric, n)
        pos += 4
        p.put("%dQ" % n, *[int(t) for t in tok[pos:pos + n]])
        pos += n
        nc = n * (3 + (dim if parametric else 0))
        p.put("%dd" % nc, *[float(t) for t in tok[pos:pos + nc]])
        pos += nc
    assert pos == len(tok)
    return p.data()


def elements41(body, order):
    # One block header or one element per line: every number is a size_t but the header's
    # dimension, entity tag and type, which are ints.
    p = Packer(order)
    p.put("4Q", *[int(t) for t in body[0].split()])
    i = 1
    while i < len(body):
        dim, tag, etype, n = (int(t) for t in body[i].split())
        p.put("3iQ", dim, tag, etype, n)
        for line in body[i + 1:i + 1 + n]:
            values = [int(t) for t in line.split()]
            p.put("%dQ" % len(values), *values)
        i += 1 + n
    return p.data()


def nodes22(body, order):
    p = Packer(order)
    for line in body[1:]:
        t = line.split()
        p.put("i3d", int(t[0]), *[float(x) for x in t[1:4]])
    return p.data()


def elements22(body, order):
    # Consecutive elements of one type and tag count share a group header.
    rows = [[int(t) for t in line.split()] for line in body[1:]]
    p = Packer(order)
    i = 0
    while i < len(rows):
        etype, ntags = rows[i][1], rows[i][2]
        j = i
        while j < len(rows) and rows[j][1] == etype and rows[j][2] == ntags:
            j += 1
        p.put("3i", etype, j - i, ntags)
        for r in rows[i:j]:
            values = [r[0]] + r[3:]
            p.put("%di" % len(values), *values)
        i = j
    return p.data()


def convert(text, order):
    secs = sections(text)
    assert secs[0][0] == "MeshFormat"
    version = secs[0][1][0].split()[0]
    out = [header(version, order)]
    for name, body in secs[1:]:
        if version == "4.1" and name == "Entities":
            out.append(binary_section(name, entities41(body, order)))
        elif version == "4.1" and name == "Nodes":
            out.append(binary_section(name, nodes41(body, order)))
        elif version == "4.1" and name == "Elements":
            out.append(binary_section(name, elements41(body, order)))
        elif version == "2.2" and name == "Nodes":
            out.append(binary_section(name, nodes22(body, order), body[0].strip() + "\n"))
        elif version == "2.2" and name == "Elements":
            out.append(binary_section(name, elements22(body, order), body[0].strip() + "\n"))
        else:
            out.append(text_section(name, body))
    return b"".join(out)


def main():
    for src, dst, order, cut in JOBS:
        data = convert((HERE / src).read_text(), order)
        if cut is not None:
            section, n = cut
            start = data.index(b"\n" + section.encode() + b"\n") + len(section) + 2
            data = data[:start + n]
        (HERE / dst).write_bytes(data)
        print("wrote", dst, len(data), "bytes")


if __name__ == "__main__":
    main()
