#!/usr/bin/env python3
"""Compares the pairs CSV of an Abaqus/CAE assembly with that of the same model written flat:
ids "<instance>.<id>" in the first map to flat ids by the offsets given, e.g. Block-2=100. Every
row must have its twin, with the gap and normal equal to round-off. The JSON of the assembly
must name its ids as strings."""
import csv
import json
import sys


def fail(msg):
    print("check_twins: " + msg)
    sys.exit(1)


def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    if r[0] != "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz".split(","):
        fail("%s: CSV header is %r" % (path, r[0]))
    return r[1:]


def main(cae_csv, flat_csv, cae_json, *offsets):
    offset = {}
    for o in offsets:
        name, value = o.split("=")
        offset[name] = int(value)

    def flat(label):
        if "." not in label:
            fail("id %r has no instance" % label)
        instance, ident = label.rsplit(".", 1)
        if instance not in offset:
            fail("unknown instance in %r" % label)
        return str(int(ident) + offset[instance])

    twins = {}
    for r in rows(flat_csv):
        twins[(r[0], r[1], r[2], r[3])] = r
    cae = rows(cae_csv)
    if len(cae) != len(twins) or not cae:
        fail("%d rows against %d in the flat twin" % (len(cae), len(twins)))
    for r in cae:
        key = (r[0], flat(r[1]), flat(r[2]), r[3])
        if key not in twins:
            fail("no twin for %r" % r)
        t = twins[key]
        for k in range(6, 10):
            if abs(float(r[k]) - float(t[k])) > 1e-12:
                fail("column %d differs: %r vs %r" % (k, r, t))
    with open(cae_json) as f:
        report = json.load(f)
    for itf in report["interfaces"]:
        for p in itf.get("pair_list", []):
            if not isinstance(p["slave_node"], str) or not isinstance(p["master_element"], str):
                fail("JSON ids are not instance labels: %r" % p)
    print("check_twins: %d pairs equal" % len(cae))


if __name__ == "__main__":
    main(*sys.argv[1:])
