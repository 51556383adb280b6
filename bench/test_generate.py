#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_generate's arguments and outputs: what it refuses (naming the argument), that it never
replaces or blocks on what is at --out without --force, that a failed write fails the run, and
that the file's header and the success line say what the file holds.

usage: test_generate.py BENCH_GENERATE [--no-memory-limit]"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GEN = sys.argv[1]
MEMORY_LIMIT = "--no-memory-limit" not in sys.argv  # a sanitizer reserves more address space
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def gen(*args, limit=None, timeout=30):
    def pre():
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        return subprocess.run([GEN, *args], capture_output=True, text=True, timeout=timeout,
                              preexec_fn=pre if limit else None)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, 124, "", "timed out (hung)")


def refused(r, words, what):
    """Exit status 2, no crash, and every word in the message."""
    check(r.returncode == 2 and all(w in r.stderr for w in words),
          f"{what}: want rc 2 and {words} in the message, got rc {r.returncode}: {r.stderr!r}")


def main():
    d = Path(tempfile.mkdtemp(prefix="bench_generate_test."))
    os.chdir(d)

    # Sizes and seeds: the whole token a number, in range; errors name the argument.
    for size in ["1e6", "10abc", "", "+5", " 5", "0x10"]:
        refused(gen("--kind", "wavy_quad4", "--size", size, "--out", "a.inp"),
                ["--size", "whole number"], f"--size {size!r}")
    for size in ["0", "-5", "100000001", "4294967298", "9223372036854775807",
                 "99999999999999999999"]:
        refused(gen("--kind", "folded_sheet", "--size", size, "--out", "a.inp"),
                ["--size", "out of range", "100000000"], f"--size {size}")
    refused(gen("--kind", "wavy_quad4", "--size", "10", "--seed", "xyz", "--out", "a.inp"),
            ["--seed", "whole number"], "--seed xyz")
    refused(gen("--kind", "wavy_quad4", "--size", "10", "--seed", "-1", "--out", "a.inp"),
            ["--seed", "out of range"], "--seed -1")
    refused(gen("--kind", "wavy_quad5", "--size", "10", "--out", "a.inp"),
            ["--kind", "wavy_quad5"], "--kind wavy_quad5")
    check(not Path("a.inp").exists(), "a refused argument left a.inp behind")
    if MEMORY_LIMIT:  # the largest size, in 1 GB of address space: out of memory, named
        r = gen("--kind", "wavy_quad8", "--size", "100000000", "--out", "huge.inp",
                limit=1 << 30, timeout=120)
        refused(r, ["out of memory", "--size 100000000"], "--size 100000000 in 1 GB")
        check(not Path("huge.inp").exists(), "out of memory left huge.inp behind")

    # The output: never an existing file without --force (a symlink to one neither), never a
    # directory, never a wait for a FIFO's reader.
    Path("keep.inp").write_text("precious\n")
    refused(gen("--kind", "wavy_quad4", "--size", "100", "--out", "keep.inp"),
            ["--out", "keep.inp", "--force"], "existing file")
    check(Path("keep.inp").read_text() == "precious\n", "keep.inp was changed")
    Path("target.txt").write_text("target\n")
    os.symlink("target.txt", "link.inp")
    refused(gen("--kind", "wavy_quad4", "--size", "100", "--out", "link.inp"),
            ["--out", "link.inp", "--force"], "symlink to an existing file")
    check(Path("target.txt").read_text() == "target\n", "target.txt was changed through link.inp")
    os.mkdir("dir.inp")
    refused(gen("--kind", "wavy_quad4", "--size", "100", "--out", "dir.inp"),
            ["--out", "dir.inp", "directory"], "directory")
    os.mkfifo("fifo.inp")
    refused(gen("--kind", "wavy_quad4", "--size", "100", "--out", "fifo.inp", timeout=10),
            ["--out", "fifo.inp", "FIFO"], "FIFO without a reader")
    r = gen("--kind", "wavy_quad4", "--size", "100", "--out", "keep.inp", "--force")
    check(r.returncode == 0 and Path("keep.inp").read_text().startswith("** contact bench"),
          f"--force did not replace keep.inp: rc {r.returncode} {r.stderr!r}")

    # A failed write (at the last block, as at any other) fails the run, naming the file.
    if Path("/dev/full").exists():
        for size in ["100", "100000"]:
            os.symlink("/dev/full", f"full{size}.msh")
            refused(gen("--kind", "wavy_quad4", "--size", size, "--out", f"full{size}.msh"),
                    ["--out", f"full{size}.msh", "failed"], f"/dev/full, --size {size}")

    # What the file holds, its header and the success line agree (self-contact: one surface).
    for kind, ext in [("folded_sheet", "inp"), ("wavy_quad4", "inp"), ("wavy_line2", "inp")]:
        out = f"{kind}.{ext}"
        r = gen("--kind", kind, "--size", "200", "--out", out)
        check(r.returncode == 0, f"{kind}: rc {r.returncode} {r.stderr!r}")
        text = Path(out).read_text()
        counts = {}  # elements per ELSET E<surface>
        name = None
        for line in text.splitlines():
            m = re.match(r"\*ELEMENT, TYPE=\w+, ELSET=E(\w+)", line)
            if m:
                name = m.group(1)
                counts[name] = 0
            elif line.startswith("*"):
                name = None
            elif name:
                counts[name] += 1
        header = text.splitlines()[0]
        if kind == "folded_sheet":
            want = f"one self-contact surface of {counts.get('SHEET')} segments"
            check(list(counts) == ["SHEET"], f"{kind}: surfaces {list(counts)}")
        else:
            want = f"{counts.get('MASTER')} master, {counts.get('SLAVE')} slave segments"
        check(want in header, f"{kind}: header {header!r} does not say {want!r}")
        check(want in r.stdout, f"{kind}: success line {r.stdout!r} does not say {want!r}")

    if failures:
        sys.exit(f"{len(failures)} check(s) failed (files in {d})")
    shutil.rmtree(d)
    print("bench_generate: all checks passed")


main()
