#!/usr/bin/env python3
"""Prints one line per source, "KEY PATH": KEY is a SHA-256 over everything clang-tidy's verdict on
that translation unit depends on: the clang-tidy version, .clang-tidy, the compile command and the
contents of every file the compiler reads for it (the source and all its headers, ours and the
system's, as `-M` lists them). scripts/check_style.sh skips the sources whose key is in
scripts/tidy-clean.txt (checked clean before, nothing changed since) and tidies the rest.

Usage: scripts/tidy_keys.py BUILD_DIR SOURCE...   (BUILD_DIR holds compile_commands.json)
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def portable(text):
    """The text with this checkout's path replaced: keys must match in any clone."""
    return text.replace(ROOT, "<root>")


def file_digest(path, cache={}):
    if path not in cache:
        with open(path, "rb") as f:
            cache[path] = hashlib.sha256(f.read()).hexdigest()
    return cache[path]


def dependencies(entry):
    """The files the compiler reads for one compile command (its -M list)."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a.startswith("-MF") or a.startswith("-MT"):
            if a in ("-MF", "-MT"):
                skip = True
            continue
        out.append(a)
    run = subprocess.run(out + ["-M"], cwd=entry["directory"], capture_output=True, text=True)
    if run.returncode != 0:
        return None, args
    text = run.stdout.replace("\\\n", " ")
    deps = text.split(":", 1)[1].split()
    return [os.path.normpath(os.path.join(entry["directory"], d)) for d in deps], args


def main():
    build, sources = sys.argv[1], sys.argv[2:]
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = {os.path.normpath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(ROOT, ".clang-tidy"), "rb") as f:
        config = f.read()

    def key(source):
        entry = entries.get(os.path.normpath(os.path.join(ROOT, source)))
        if entry is None:
            return "none"  # not in the build: never skipped
        deps, args = dependencies(entry)
        if deps is None:
            return "none"
        h = hashlib.sha256()
        h.update(version.encode())
        h.update(config)
        h.update(portable(" ".join(args)).encode())
        for name, d in sorted({(portable(d), d) for d in deps}):  # in the portable names' order
            h.update(name.encode())
            h.update(file_digest(d).encode())
        return h.hexdigest()

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for source, k in zip(sources, pool.map(key, sources)):
            print(k, source)


if __name__ == "__main__":
    main()
