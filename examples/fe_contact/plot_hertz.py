#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws the contact pressure of fe_contact's Hertz case against Hertz's solution.

usage: plot_hertz.py [--force] hertz.csv hertz.png

Reads the "# key = value" lines of the CSV (R, E, nu, P), computes E* = E / (1 - nu^2),
a = sqrt(4 P R / (pi E*)) and p0 = 2 P / (pi a) from them, and draws the computed pressure at the
slave nodes (x, pressure rows) over p0 sqrt(1 - x^2 / a^2), mirrored to -x. Writes an 800 x 500
pixel PNG; an existing one only with --force.
"""
import csv
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_hertz.py: needs matplotlib, which %s does not have (Debian: apt-get install "
             "python3-matplotlib, then /usr/bin/python3 plot_hertz.py ...)" % sys.executable)


def read(path):
    keys = {}
    rows = []
    with open(path, newline="") as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].partition("=")
                keys[key.strip()] = value.strip()
            else:
                lines.append(line)
    missing = [k for k in ("R", "E", "nu", "P") if k not in keys]
    if missing:
        sys.exit("plot_hertz.py: %s: no '# %s = ...' line (not fe_contact's hertz.csv?)"
                 % (path, missing[0]))
    for n, row in enumerate(csv.DictReader(lines), start=2):
        try:
            rows.append((float(row["x"]), float(row["pressure"])))
        except (KeyError, TypeError, ValueError):
            sys.exit("plot_hertz.py: %s: data row %d is not x,pressure" % (path, n - 1))
    return keys, rows


def main():
    args = sys.argv[1:]
    force = "--force" in args
    args = [a for a in args if a != "--force"]
    if len(args) != 2:
        sys.exit(__doc__)
    source, target = args
    if not target.lower().endswith(".png"):
        sys.exit("plot_hertz.py: %s: the picture is a PNG; name it .png" % target)
    if os.path.isdir(target):
        sys.exit("plot_hertz.py: %s is a directory" % target)
    if os.path.lexists(target) and not force:
        sys.exit("plot_hertz.py: %s exists; --force replaces it" % target)
    try:
        keys, rows = read(source)
        R, E, nu, P = (float(keys[k]) for k in ("R", "E", "nu", "P"))
    except (OSError, ValueError) as e:
        sys.exit("plot_hertz.py: %s: %s" % (source, e))
    e_star = E / (1 - nu * nu)
    a = math.sqrt(4 * P * R / (math.pi * e_star))
    p0 = 2 * P / (math.pi * a)

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    xs = [a * (-1 + 2 * i / 400) for i in range(401)]
    ax.plot([x / a for x in xs], [math.sqrt(max(0.0, 1 - x * x / (a * a))) for x in xs], "-",
            color="0.3", label="Hertz: $p_0 \\sqrt{1 - x^2/a^2}$")
    x = [r[0] / a for r in rows] + [-r[0] / a for r in rows if r[0] > 0]
    p = [r[1] / p0 for r in rows] + [r[1] / p0 for r in rows if r[0] > 0]
    ax.plot(x, p, "o", color="tab:red", markersize=5,
            label="fe_contact, mortar (element size %s)" % keys.get("element size at the contact", "?"))
    ax.set_xlabel("x / a")
    ax.set_ylabel("contact pressure / $p_0$")
    ax.set_title("Cylinder on a rigid flat, plane strain: R = %g, E = %g, $\\nu$ = %g, P = %.4g\n"
                 "a = %.4g, $p_0$ = %.4g" % (R, E, nu, P, a, p0), fontsize=10)
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(0, 1.15)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower center")
    fig.tight_layout()
    try:
        fig.savefig(target, format="png")
    except OSError as e:
        sys.exit("plot_hertz.py: %s: %s" % (target, e))
    print("wrote %s" % target)


if __name__ == "__main__":
    main()
