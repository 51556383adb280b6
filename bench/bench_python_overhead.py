#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Python call overhead of ContactSearch.update(): the same update on the same model, timed
by Google Benchmark in C++ (bench_update_model) and from Python (contact_search), in alternating
rounds of one run so that drift of a shared machine hits both alike. Prints a Markdown section
for bench/RESULTS.md and writes the numbers as JSON.

    bench/bench_python_overhead.py --build build/release --model /tmp/wavy100k.inp

(the model: build/release/bench/bench_generate --kind wavy_quad4 --size 100000 --out FILE).
Run it with Debian's /usr/bin/python3 (numpy)."""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time


def cpp_round(binary, model, case, seconds):
    """Mean wall and CPU milliseconds per update of one Google Benchmark run of `case`."""
    r = subprocess.run([binary, "--model", model, "--benchmark_filter=^update/%s$" % case,
                        "--benchmark_min_time=%g" % seconds, "--benchmark_format=json"],
                       capture_output=True, text=True, check=True)
    b = json.loads(r.stdout)["benchmarks"][0]
    assert b["time_unit"] == "ms", b
    return {"cpp_ms": b["real_time"], "cpp_cpu_ms": b["cpu_time"],
            "cpp_iterations": int(b["iterations"]), "pairs": int(b["pairs"])}


def python_round(search, coords, seconds):
    """Mean wall and CPU milliseconds per update() called from Python for about `seconds`, and
    the mean wall time outside the C++ update (the call overhead: wall time minus the stages'
    own timers)."""
    wall, cpu, outside = [], [], []
    start = time.perf_counter()
    while not wall or time.perf_counter() - start < seconds:
        c0, t0 = time.process_time(), time.perf_counter()
        st = search.update(coords)
        t1, c1 = time.perf_counter(), time.process_time()
        wall.append(1e3 * (t1 - t0))
        cpu.append(1e3 * (c1 - c0))
        outside.append(1e3 * (t1 - t0) - st.time_total)
    return {"python_ms": statistics.fmean(wall), "python_cpu_ms": statistics.fmean(cpu),
            "python_iterations": len(wall), "pairs": st.pairs,
            "python_outside_ms": statistics.fmean(outside)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build/release", help="a Release build directory")
    ap.add_argument("--model", required=True, help="model file with a *CONTACT PAIR")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="per round and side")
    ap.add_argument("--out", default="bench_python_overhead.json")
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import contact_search as cs

    binary = os.path.join(args.build, "bench", "bench_update_model")
    model = cs.read_model(args.model)
    itf = model.interfaces[0]
    master, slave = model.surfaces[itf.master], model.surfaces[itf.slave]
    coords = model.coordinates  # read in place
    results = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "model": args.model, "master_segments": len(master), "slave_segments": len(slave),
               "load_average_start": os.getloadavg(), "cases": {}}
    for case, skin in (("rebuild", 0.0), ("reuse", 0.1)):
        search = cs.ContactSearch(skin_relative=skin)
        search.set_surfaces(master, slave, coords)
        search.update(coords)
        rounds = []
        for _ in range(args.rounds):
            c = cpp_round(binary, args.model, case, args.seconds)
            p = python_round(search, coords, args.seconds)
            assert c["pairs"] == p["pairs"], (c, p)
            rounds.append(dict(c, **p, ratio=p["python_ms"] / c["cpp_ms"],
                               cpu_ratio=p["python_cpu_ms"] / c["cpp_cpu_ms"]))
        median = lambda key: statistics.median(r[key] for r in rounds)  # noqa: E731
        results["cases"][case] = {"pairs": p["pairs"], "rounds": rounds}
        for key in ("cpp_ms", "cpp_cpu_ms", "python_ms", "python_cpu_ms", "ratio", "cpu_ratio",
                    "python_outside_ms"):
            results["cases"][case]["median_" + key] = median(key)
    results["load_average_end"] = os.getloadavg()
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)

    print("## Python call overhead (contact_search)\n")
    print("Run %s on %s (%d master x %d slave segments), %d alternating rounds of %g s per side; "
          "load average %.1f at the start, %.1f at the end. `bench/bench_python_overhead.py "
          "--build build/release --model FILE` reproduces it.\n"
          % (results["date"][:10], os.path.basename(args.model), len(master), len(slave),
             args.rounds, args.seconds, results["load_average_start"][0],
             results["load_average_end"][0]))
    print("| update | pairs | C++ ms (CPU ms) | Python ms (CPU ms) | Python / C++, wall | "
          "Python / C++, CPU | time outside the C++ update per Python call |")
    print("|---|---|---|---|---|---|---|")
    for case, c in results["cases"].items():
        print("| %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.3f | %.3f | %.0f us |"
              % (case, c["pairs"], c["median_cpp_ms"], c["median_cpp_cpu_ms"],
                 c["median_python_ms"], c["median_python_cpu_ms"], c["median_ratio"],
                 c["median_cpu_ratio"], 1e3 * c["median_python_outside_ms"]))
    print("\nMedians over the rounds; the ratios are per round, then their median.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
