#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run_bench.py's render on a copy of the stored results: a broad-phase case whose pair set
differed is listed (never "every implementation returned ..."), the run fails; figures with a
target are rounded away from it, so the digits never show a miss as met; the reproduce block and
the headings say what they do."""
import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("run_bench", HERE / "run_bench.py")
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def table_row(text, heading, first_cells):
    """The cells of the row starting with first_cells in the table under the line `heading`."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(heading))
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[:len(first_cells)] == first_cells:
            return cells
    return None


# Rounding: down for a target to reach, up for one to stay under, exact targets met.
for x, kw, want in [(1.6986, dict(at_least=1.7), "1.698"), (1.6976, dict(at_least=1.7), "1.697"),
                    (1.7, dict(at_least=1.7), "1.700"), (0.4001, dict(at_most=0.4), "0.401"),
                    (0.4, dict(at_most=0.4), "0.400"),
                    (100.04, dict(at_most=100, decimals=1), "100.1")]:
    got = rb.fmt_bound(x, **kw)
    check(got == want, f"fmt_bound({x}, {kw}) = {got}, want {want}")

# The stored results as they are: no problem; the two 2-thread ratios just below 1.7 show so.
machine = "amd_epyc_2cpu"
text, problems = rb.render(HERE / "results" / machine, machine)
check(problems == [], f"stored results: problems {problems}")
for first, want in [(["wavy_quad8", "1000000"], "1.698"), (["wavy_line2", "100000"], "1.697")]:
    row = table_row(text, "| scene | n | 3: small motion", first)
    check(row is not None and row[6] == want,
          f"{first} segment 1/2 threads: {row and row[6]}, want {want} (below 1.7)")
check("3D, same" not in text and "broad phase alone, same scene and size, 3D and 2D" in text,
      "the Target 2 heading does not say it has 2D rows")
check(any("--target" in l and l.split()[-1] == "contact-search" for l in text.splitlines()),
      "the reproduce block does not build contact-search, which it runs")

# A comparator whose pair set differed: listed, the sentence of agreement gone, the run fails.
tmp = Path(tempfile.mkdtemp(prefix="run_bench_test."))
try:
    shutil.copytree(HERE / "results" / machine, tmp / machine)
    p = tmp / machine / "bench_broad_phase.json"
    data = json.loads(p.read_text())
    hit = 0
    for b in data["benchmarks"]:
        if b["name"].startswith("BroadPhase/wavy_quad4/nanoflann_plain/10000/"):
            b.update(error_occurred=True, real_time=0.0,
                     error_message="pair set differs from the reference: 156815 pairs vs 156816")
            hit += 1
    check(hit > 0, "no wavy_quad4 nanoflann_plain 10000 case in the stored JSON")
    p.write_text(json.dumps(data))
    text, problems = rb.render(tmp / machine, machine)
    check("Every implementation returned" not in text,
          "RESULTS.md says every implementation agreed while one did not")
    check("NOT every implementation" in text and "wavy_quad4 10000 nanoflann_plain: pair set "
          "differs" in text, "the differing pair set is not listed in RESULTS.md")
    check(len(problems) == 1 and "nanoflann_plain" in problems[0], f"problems: {problems}")
    try:
        rb.report(problems)
        check(False, "report() returned on a problem")
    except SystemExit as e:
        check(e.code not in (None, 0), f"report() exits with {e.code!r}")
finally:
    shutil.rmtree(tmp)

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("run_bench render: all checks passed")
