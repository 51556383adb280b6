#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables of bench_distributed runs (the JSON files of --json) for bench/RESULTS.md, and the
projection of ghost volume and exchange time to 1,000 ranks and 1 billion segments per surface.

usage: bench/distributed_results.py counts_1.json counts_2.json ... [--alpha-us 2] [--beta-gbs 10]
"""
import argparse
import json
import math
import statistics


def load(paths):
    runs = [json.load(open(p)) for p in paths]
    return sorted(runs, key=lambda r: r["ranks"])


def per_rank(run, key):
    return [row[key] for row in run["rows"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--alpha-us", type=float, default=2.0, help="latency per message, us")
    ap.add_argument("--beta-gbs", type=float, default=10.0, help="bandwidth per rank, GB/s")
    ap.add_argument("--neighbours", type=float, default=8.0,
                    help="ranks a rank exchanges ghosts with (RCB patches of a surface)")
    a = ap.parse_args()
    runs = load(a.files)
    print("| ranks | masters per rank | ghosts per rank (mean / max) | ghost MB per rank (mean / max) "
          "| set-up MB per rank (mean) | repartition MB per rank (mean) | update MB per rank (mean / max) |")
    print("|---|---|---|---|---|---|---|")
    fit = []
    for r in runs:
        p = r["ranks"]
        owned = statistics.mean(per_rank(r, "owned"))
        ghosts = per_rank(r, "ghosts")
        gbytes = per_rank(r, "ghost_bytes")
        setup = per_rank(r, "setup_bytes")
        repart = per_rank(r, "repartition_bytes")
        upd = per_rank(r, "update_bytes")
        print(f"| {p} | {owned:,.0f} | {statistics.mean(ghosts):,.0f} / {max(ghosts):,.0f} | "
              f"{statistics.mean(gbytes) / 1e6:.3f} / {max(gbytes) / 1e6:.3f} | "
              f"{statistics.mean(setup) / 1e6:.1f} | {statistics.mean(repart) / 1e6:.1f} | "
              f"{statistics.mean(upd) / 1e6:.2f} / {max(upd) / 1e6:.2f} |")
        if p > 1:
            n = r["segments"]
            fit.append((p, statistics.mean(ghosts) / math.sqrt(n / p),
                        sum(gbytes) / max(1, sum(ghosts))))
    if not fit:
        return
    # Ghosts per rank ~ c sqrt(n / p): the ghost layer of a rank's patch of n / p segments runs
    # along its perimeter. c from the largest rank count measured (the most patch-like regions).
    p_last, c, bytes_per_ghost = fit[-1]
    print()
    print("| ranks | c = ghosts per rank / sqrt(n / p) | bytes per ghost segment |")
    print("|---|---|---|")
    for p, cp, bpg in fit:
        print(f"| {p} | {cp:.2f} | {bpg:.0f} |")
    n_big, p_big = 1e9, 1000
    ghosts_big = c * math.sqrt(n_big / p_big)
    bytes_big = ghosts_big * bytes_per_ghost
    coords_big = ghosts_big * 24.0  # one new node per ghost Quad4 (shared corners), x y z doubles
    alpha = a.alpha_us * 1e-6
    beta = a.beta_gbs * 1e9
    t_ghost = a.neighbours * alpha + bytes_big / beta
    t_coords = a.neighbours * alpha + coords_big / beta
    print()
    print(f"Projection to n = 1e9 segments per surface on p = 1000 ranks (n / p = 1e6): "
          f"ghosts per rank = {c:.2f} x sqrt(1e6) = {ghosts_big:,.0f} "
          f"({100 * ghosts_big / 1e6:.2f} % of the rank's masters); ghost exchange at a "
          f"repartition {bytes_big / 1e6:.2f} MB per rank, {t_ghost * 1e3:.2f} ms with "
          f"{a.neighbours:.0f} neighbours x {a.alpha_us:g} us + bytes / {a.beta_gbs:g} GB/s; ghost "
          f"coordinates per update {coords_big / 1e6:.2f} MB, {t_coords * 1e3:.2f} ms.")


if __name__ == "__main__":
    main()
