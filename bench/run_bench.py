#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the contact benchmarks and writes bench/results/<machine>/*.json and bench/RESULTS.md.

usage: bench/run_bench.py [--build build/bench-peers] [--max-size 1000000] [--only PROG ...]
                          [--render-only [--check]] [--machine NAME] [--other-results NAME]

Configure the build first (Release, comparators on):
  cmake -S . -B build/bench-peers -DCMAKE_BUILD_TYPE=Release -DCONTACT_BENCH_PEERS=ON
  cmake --build build/bench-peers -j2 --target bench_broad_phase bench_search bench_io bench_kernels \
      bench_generate contact-search
Ratios are always taken between results of the same run (same JSON file set).
"""
import argparse
import difflib
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = ["bench_kernels", "bench_broad_phase", "bench_search", "bench_io"]
PEERS = ["nanoflann_plain", "cgal", "fcl", "bullet"]


def build_config(build):
    """Build type and flags of the measured code, from the build directory's CMakeCache.txt."""
    config = {}
    try:
        for line in open(Path(build) / "CMakeCache.txt"):
            for key in ("CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_CXX_FLAGS"):
                if line.startswith(key + ":"):
                    config[key] = line.split("=", 1)[1].strip()
    except OSError:
        pass
    return config


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def machine_slug():
    slug = re.sub(r"[^a-z0-9]+", "_", cpu_model().lower()).strip("_")
    return f"{slug}_{os.cpu_count()}cpu"


def run(build, prog, outdir, max_size):
    exe = Path(build) / "bench" / prog
    if not exe.exists():
        sys.exit(f"run_bench: {exe} not found (build it first)")
    env = dict(os.environ, CONTACT_BENCH_MAX_SIZE=str(max_size))
    out = outdir / f"{prog}.json"
    print(f"running {prog} -> {out}", flush=True)
    subprocess.run([str(exe), f"--benchmark_out={out}", "--benchmark_out_format=json"],
                   env=env, check=True)


def load(outdir, prog):
    """The JSON of a program; a case run several times (repetitions) is its median, named as the
    case itself, with the number of runs in "repetitions"."""
    p = outdir / f"{prog}.json"
    if not p.exists():
        return None
    data = json.loads(p.read_text())
    medians = {b["run_name"]: b for b in data["benchmarks"]
               if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"}
    kept = []
    for b in data["benchmarks"]:
        run_name = b.get("run_name", b["name"])
        if run_name not in medians:
            kept.append(b)
        elif b is medians[run_name]:
            kept.append(dict(b, name=run_name))
    data["benchmarks"] = kept
    return data


def ms(b):
    t = b.get("real_time", 0.0)
    unit = b.get("time_unit", "ns")
    return t * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def name_parts(b):
    # "BroadPhase/wavy_quad4/cgal/1000000/min_time:0.300/real_time"
    return b["name"].split("/")


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def fmt_bound(x, at_least=None, at_most=None, decimals=3):
    """A figure with a target, to `decimals` places rounded away from the target's side (down
    for at_least, up for at_most): the digits shown meet the target exactly when the figure does."""
    if x is None or isinstance(x, str):
        return fmt(x)
    mode = ROUND_FLOOR if at_least is not None else ROUND_CEILING if at_most is not None else ROUND_HALF_EVEN
    return str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-decimals), rounding=mode))


def render(outdir, machine, other=None):
    """RESULTS.md's text: the tables from the JSON files, then RESULTS_NOTES.md (hand-written);
    and the problems found in them (a benchmark that failed its check), one line each."""
    lines = []
    problems = []
    add = lines.append

    def row(*cells):
        add("| " + " | ".join(str(c) for c in cells) + " |")

    def header(*cols):  # a table's header row and its separator, always of the same width
        row(*cols)
        add("|" + "---|" * len(cols))
    kernels = load(outdir, "bench_kernels")
    broad = load(outdir, "bench_broad_phase")
    search = load(outdir, "bench_search")
    io = load(outdir, "bench_io")
    borrowed = []  # programs not run here, taken from the results folder `other`
    if other:
        otherdir = HERE / "results" / other
        for prog, data in (("bench_kernels", kernels), ("bench_search", search), ("bench_io", io)):
            if data is None and load(otherdir, prog) is not None:
                borrowed.append(prog)
        kernels = kernels or load(otherdir, "bench_kernels")
        search = search or load(otherdir, "bench_search")
        io = io or load(otherdir, "bench_io")
    ctx = (broad or search or kernels or io or {}).get("context", {})
    build = {}
    if (outdir / "build.json").exists():
        build = json.loads((outdir / "build.json").read_text())
    eff = None
    if search:
        for b in search["benchmarks"]:
            if b["name"].startswith("EffectiveCores"):
                eff = b.get("effective_cores")
    add("# Benchmark results\n")
    add("Generated by `bench/run_bench.py` from the JSON files in "
        f"`bench/results/{machine}/` (Google Benchmark `--benchmark_out`). Single timings on shared "
        "machines drift: compare the ratios, which are taken within one run. The text after the "
        "generated tables is `bench/RESULTS_NOTES.md`: edit it there.\n")
    add("## Machine\n")
    # The machine the JSON files were measured on (build.json), not the one rendering them.
    add(f"- CPU: {build.get('cpu_model', '?')}; nproc: {build.get('nproc', '?')}; "
        f"effective cores measured (2 x t1 / t2 of the same CPU-bound work): {fmt(eff)}")
    add(f"- run: {ctx.get('date', '?')}, load average at start: {ctx.get('load_avg', '?')}")
    if borrowed:
        sctx = (search or kernels or io or {}).get("context", {})
        add(f"- {', '.join(borrowed)}: not rerun; taken from `bench/results/{other}/` (run "
            f"{sctx.get('date', '?')} on that machine, with the code of that time)")
    add(f"- code measured: CMAKE_BUILD_TYPE={build.get('CMAKE_BUILD_TYPE', '?')}, "
        f"compiler {build.get('CMAKE_CXX_COMPILER', '?')}, "
        f"extra flags '{build.get('CMAKE_CXX_FLAGS', '')}'; Google Benchmark itself (the Debian "
        f"package) reports its own build as {ctx.get('library_build_type', '?')}")
    add("")
    add("## How to reproduce\n")
    add("```sh")
    add("apt-get install libbenchmark-dev libcgal-dev libfcl-dev libbullet-dev   # comparators optional")
    add("cmake -S . -B build/bench-peers -DCMAKE_BUILD_TYPE=Release -DCONTACT_BENCH_PEERS=ON")
    add("cmake --build build/bench-peers -j2 --target bench_broad_phase bench_search bench_io bench_kernels bench_generate contact-search")
    add("bench/run_bench.py --build build/bench-peers            # all sizes (10k, 100k, 1M): about an hour")
    add("bench/run_bench.py --build build/bench-peers --max-size 100000   # quick")
    add("build/bench-peers/bench/bench_generate --kind wavy_quad4 --size 100000 --out /tmp/x.inp --force")
    add("build/bench-peers/examples/contact-search /tmp/x.inp --verify   # the tool on the same model")
    add("```\n")

    if broad:
        add("## Broad phase alone (build + query, 1 thread)\n")
        errors = [f"{p[1]} {p[3]} {p[2]}: {b.get('error_message', '')}"
                  for b in broad["benchmarks"] for p in [name_parts(b)]
                  if p[0] == "BroadPhase" and b.get("error_occurred")]
        problems.extend("broad phase " + e for e in errors)
        # The reference each case was checked against is its label (runs before it: ours_boxtree).
        independent = any(b.get("label", "").startswith("reference: ") for b in broad["benchmarks"])
        if errors:
            checked = ("NOT every implementation returned the reference's pair set; these did not "
                       "and were not timed: " + "; ".join(errors) + ".")
        elif independent:
            checked = "Every implementation returned the reference's pair set before it was timed."
        else:
            checked = ("Every implementation returned the same pair set as ours_boxtree before it "
                       "was timed (this run predates the reference below).")
        add("Pairs of (slave, master) segments whose buffered AABBs overlap, buffer = 0.5 x mean edge "
            "length on every box. " + checked + " The reference, independent of our box indexes: "
            "brute force over all box pairs up to 10k segments per surface, nanoflann_plain above "
            "(checked against brute force at 10k). Comparators: nanoflann_plain (what a user would "
            "write with nanoflann alone: a kd-tree of the master box centres, a radius search per slave box with radius = its half-diagonal + "
            "the largest master half-diagonal, the exact box test in the result callback, no pair "
            "storage), CGAL, FCL, Bullet. Ratio = time / time of the fastest comparator in the same run; "
            "target: <= 0.5. ours_sweep: sort and sweep where it scans at most 32 pairs per box "
            "(2D curves), else the box tree (what BroadPhaseKind::kSweep does). pair write ms: the "
            "pair set alone written to memory, 8 bytes a pair (two int32), into a buffer touched "
            "beforehand; x limit = fastest of ours / pair write (target: <= 10).\n")
        bw = next((b.get("bytes_per_second") for b in broad["benchmarks"]
                   if b["name"].startswith("WriteBandwidth")), None)
        if bw:
            add(f"Write bandwidth of this machine, same run (std::fill of 256 MiB): {bw / 1e9:.1f} GB/s.\n")
        ours = ("ours_boxtree", "ours_kdtree", "ours_sweep")
        header("scene", "segments/surface", "pairs", "pair write ms",
               *(f"{k} ms" for k in ours + tuple(PEERS)), "fastest comparator",
               *(f"{k} ratio" for k in ours), "x limit")
        groups = {}
        for b in broad["benchmarks"]:
            p = name_parts(b)
            if p[0] != "BroadPhase":
                continue
            if b.get("error_occurred"):
                groups.setdefault((p[1], int(p[3])), {})[p[2]] = "error: " + b.get("error_message", "")
                continue
            g = groups.setdefault((p[1], int(p[3])), {})
            g[p[2]] = ms(b)
            if p[2] != "pair_write":
                g["pairs"] = b.get("pairs")
        for (kind, n), g in groups.items():
            peers = {k: g[k] for k in PEERS if isinstance(g.get(k), float)}
            fastest = min(peers, key=peers.get) if peers else None
            ref = peers.get(fastest)
            def ratio(k):
                return g[k] / ref if ref and isinstance(g.get(k), float) else None
            best = min((g[k] for k in ours if isinstance(g.get(k), float)), default=None)
            limit = g.get("pair_write")
            row(kind, n, fmt(g.get("pairs")), fmt(limit),
                *(fmt(g.get(k)) for k in ours + tuple(PEERS)),
                fastest or "-", *(fmt_bound(ratio(k), at_most=0.5) for k in ours),
                fmt_bound(best / limit if best and isinstance(limit, float) and limit > 0 else None,
                          at_most=10, decimals=1))
        add("")

    if search:
        add("## Full search, incremental updates, threads, memory\n")
        add("node = node-to-segment (broad + SAT + projection: gap, normal, local coordinates for every "
            "pair); segment = segment-to-segment. full: skin 0, a rebuild every update; small motion: "
            "0.01-0.02 edge (inside skin/2 = 0.05 edge: the Verlet list is reused); large motion: 0.5 edge "
            "(rebuild with skin 0.1). bytes/segment = ContactSearch::memoryBytes() / (master + slave "
            "segments). Below 1M, each figure is the median of several runs of the case "
            "(Google Benchmark repetitions; the count is in the JSON).\n")
        header("scene", "n", "case", "ms", "pairs", "bounds ms", "broad ms", "narrow ms", "projection ms", "bytes/segment")
        rows = {}
        for b in search["benchmarks"]:
            p = name_parts(b)
            if p[0] != "Search":
                continue
            n = int(p[3])
            key = (p[1], n)
            if b.get("error_occurred"):
                add(f"| {p[1]} | {n} | {p[2]} | error: {b.get('error_message')} | | | | | | |")
                continue
            rows.setdefault(key, {})[p[2]] = b
            row(p[1], n, p[2], fmt(ms(b)),
                *(fmt(b.get(k)) for k in ("pairs", "ms_bounds", "ms_broad", "ms_narrow",
                                          "ms_projection", "bytes_per_segment")))
        add("")
        add("### Target ratios (same run)\n")
        header("scene", "n", "3: small motion / large motion (<= 0.4)", "node small motion / full", "3: segment small motion / full (<= 0.4)", "4: node 1 thread / 2 threads (>= 1.7)", "segment 1/2 threads (>= 1.7)", "5: bytes/segment, node (<= 100)", "bytes/segment, segment (<= 100)")
        for (kind, n), r in rows.items():
            def t(c):
                return ms(r[c]) if c in r else None
            def div(a, b):
                return a / b if a is not None and b else None
            row(kind, n, fmt_bound(div(t("node_small_motion"), t("node_large_motion")), at_most=0.4),
                fmt_bound(div(t("node_small_motion"), t("node_full"))),
                fmt_bound(div(t("segment_small_motion"), t("segment_full")), at_most=0.4),
                fmt_bound(div(t("node_full"), t("node_full_2threads")), at_least=1.7),
                fmt_bound(div(t("segment_full"), t("segment_full_2threads")), at_least=1.7),
                fmt_bound(r.get("node_full", {}).get("bytes_per_segment"), at_most=100, decimals=1),
                fmt_bound(r.get("segment_full", {}).get("bytes_per_segment"), at_most=100, decimals=1))
        add("")
        if broad:
            same = broad.get("context", {}).get("date", "")[:10] == search.get("context", {}).get("date", "")[:10]
            add("Target 2 (full node-to-segment search / fastest comparator's broad phase alone, same "
                "scene and size, 3D and 2D; " + ("the two programs ran one after the other in this run" if same else
                f"NOT the same run: broad phase {broad.get('context', {}).get('date', '?')}, search "
                f"{search.get('context', {}).get('date', '?')}, so this ratio compares two runs") + "):\n")
            header("scene", "n", "node_full ms", "fastest peer broad phase ms", "ratio (<= 1.0)")
            peer_best = {}
            for b in broad["benchmarks"]:
                p = name_parts(b)
                if p[2] in PEERS and not b.get("error_occurred"):
                    k = (p[1], int(p[3]))
                    peer_best[k] = min(peer_best.get(k, 1e300), ms(b))
            for (kind, n), r in rows.items():
                if (kind, n) in peer_best and "node_full" in r:
                    row(kind, n, fmt(ms(r["node_full"])), fmt(peer_best[(kind, n)]),
                        fmt_bound(ms(r["node_full"]) / peer_best[(kind, n)], at_most=1.0))
            add("")

    if kernels:
        add("## Kernels (ns per call)\n")
        header("kernel", "type", "ns")
        for b in kernels["benchmarks"]:
            p = name_parts(b)
            row(p[0], b.get("label", ""), fmt(ms(b) * 1e6))
        add("")

    if io:
        add("## Reading model files\n")
        header("case", "n", "file MB", "ms", "MB/s")
        for b in io["benchmarks"]:
            p = name_parts(b)
            row("/".join(p[:3]), p[3], fmt(b.get("file_MB")), fmt(ms(b)),
                fmt(b.get("bytes_per_second", 0) / 1e6))
        add("")
    notes = HERE / "RESULTS_NOTES.md"
    if notes.exists():
        lines.append(notes.read_text().rstrip("\n"))
    return "\n".join(lines) + "\n", problems


def report(problems):
    """Exits 1 naming every problem, when there is one."""
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(f"run_bench: {len(problems)} benchmark(s) failed their check (listed above and in "
                 "RESULTS.md)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(HERE.parent / "build" / "bench-peers"))
    ap.add_argument("--max-size", type=int, default=1000000)
    ap.add_argument("--only", nargs="*", default=None, help="programs to run (default: all)")
    ap.add_argument("--render-only", action="store_true", help="only rebuild RESULTS.md from the JSON")
    ap.add_argument("--machine", default=None, help="results folder name (default: from the CPU)")
    ap.add_argument("--other-results", default=None,
                    help="results folder to take the programs not run in this one from")
    ap.add_argument("--check", action="store_true",
                    help="with --render-only: exit 1 if bench/RESULTS.md differs from the render "
                         "(a hand edit that the next run would lose belongs in RESULTS_NOTES.md)")
    args = ap.parse_args()
    machine = args.machine or machine_slug()
    outdir = HERE / "results" / machine
    if args.check:
        if not args.render_only:
            sys.exit("run_bench: --check needs --render-only")
        if not outdir.is_dir():
            sys.exit(f"run_bench: {outdir} not found")
        want, problems = render(outdir, machine, args.other_results)
        have = (HERE / "RESULTS.md").read_text()
        if have != want:
            diff = difflib.unified_diff(want.splitlines(), have.splitlines(), "render",
                                        "RESULTS.md", lineterm="", n=1)
            print("\n".join(list(diff)[:40]))
            sys.exit("run_bench: bench/RESULTS.md differs from what --render-only writes; "
                     "move hand-written text into bench/RESULTS_NOTES.md")
        print("bench/RESULTS.md is what --render-only writes")
        report(problems)
        return
    outdir.mkdir(parents=True, exist_ok=True)
    if not args.render_only:
        for prog in args.only or PROGRAMS:
            run(args.build, prog, outdir, args.max_size)
        config = dict(build_config(args.build), cpu_model=cpu_model(), nproc=os.cpu_count())
        (outdir / "build.json").write_text(json.dumps(config, indent=1) + "\n")
    text, problems = render(outdir, machine, args.other_results)
    (HERE / "RESULTS.md").write_text(text)
    print(f"wrote {HERE / 'RESULTS.md'}")
    report(problems)


if __name__ == "__main__":
    main()
