# SPDX-License-Identifier: MIT
"""Pictures of contact pairs (matplotlib): a PNG with the map of the slave surface seen along the
mean contact normal, coloured by gap (red to orange: penetration, cyan to blue: open; a black
line where the gap is 0), and a histogram of the gaps. 2D models are drawn as curves: the slave
curve coloured by gap where its nodes are paired, the master curve, and a line from each slave
node to its closest point. The view is the paired region (and closest points) with a margin.

    python3 -m contact_search.plot RESULT.json [--out FILE.png] [--interface N] [--force]
    python3 -m contact_search.plot PAIRS.csv --model MODEL [--slave NAME --master NAME] [...]

RESULT.json comes from `contact-search MODEL --json RESULT.json --json-pairs` (it names the model
and the surfaces), PAIRS.csv from `contact-search MODEL --pairs PAIRS.csv` (node mode). From
Python: render(coordinates, slave, pairs, out, master=...) with a Pairs of ContactSearch.pairs().
An existing output file is replaced only with --force (force=True).
"""
import argparse
import csv
import json
import os
import sys

import numpy as np

# Every colour of the map is saturated, so that a picture's coloured pixels are the paired region
# (greys, white and black are not): a test counts them.
_NEGATIVE = [(0.80, 0.05, 0.05), (1.00, 0.55, 0.00)]  # most penetration .. touching
_POSITIVE = [(0.00, 0.80, 0.85), (0.10, 0.15, 0.80)]  # touching .. farthest open
_GREY = (0.85, 0.85, 0.85)
_EDGE = (0.70, 0.70, 0.70)


def _colormap(gmin, gmax):
    """The colour map and norm for gaps in [gmin, gmax]: two slopes meeting at 0."""
    from matplotlib import colors

    if gmin < 0 < gmax:
        cmap = colors.LinearSegmentedColormap.from_list(
            "contact_gap", [(0.0, _NEGATIVE[0]), (0.5, _NEGATIVE[1]), (0.5, _POSITIVE[0]),
                            (1.0, _POSITIVE[1])])
        return cmap, colors.TwoSlopeNorm(vmin=gmin, vcenter=0.0, vmax=gmax)
    ends = _NEGATIVE if gmax <= 0 else _POSITIVE
    cmap = colors.LinearSegmentedColormap.from_list("contact_gap", ends)
    if gmin == gmax:
        gmin, gmax = gmin - 1e-300 - abs(gmin) * 1e-9, gmax + 1e-300 + abs(gmax) * 1e-9
    return cmap, colors.Normalize(vmin=gmin, vmax=gmax)


def _corners(slave):
    """Corner node indices of each segment (corners come first in every segment type)."""
    corner_count = {0: 2, 1: 2, 2: 3, 3: 3, 4: 4, 5: 4, 6: 4}
    conn, off = np.asarray(slave.connectivity), np.asarray(slave.offsets)
    return [conn[off[s]:off[s] + corner_count[int(t)]] for s, t in enumerate(slave.types)]


def _triangles(slave):
    """Triangles of the slave segments' corners (a quadrilateral gives two)."""
    tris = []
    for c in _corners(slave):
        tris.append(c[[0, 1, 2]])
        if len(c) == 4:
            tris.append(c[[0, 2, 3]])
    return np.array(tris, dtype=np.int64).reshape(-1, 3)


def view_basis(normals):
    """Unit vectors (u, v) across the mean of the normals (the direction the map looks along)."""
    n = np.mean(np.asarray(normals, dtype=float), axis=0)
    n = n / np.linalg.norm(n) if np.linalg.norm(n) > 0 else np.array([0.0, 0.0, 1.0])
    axis = np.zeros(3)
    axis[np.argmin(np.abs(n))] = 1.0
    u = np.cross(n, axis)
    u /= np.linalg.norm(u)
    return u, np.cross(n, u), n


def _margin(lo, hi, frac=0.1):
    span = max(hi - lo, 1e-12 * max(1.0, abs(lo), abs(hi)))
    return lo - frac * span, hi + frac * span


def render(coordinates, slave, pairs, out, master=None, title=None, size=(12.0, 5.0), dpi=100,
           force=False):
    """Draws the pairs of one interface into the PNG `out` and returns what was drawn: the pixel
    box of the map ("map_box": x0, y0, x1, y1 from the image's top left), the data limits of the
    map ("xlim", "ylim"), the projection ("basis": u, v, n in 3D), the coloured segments
    ("coloured": their indices), and "image_size" (width, height) in pixels.

    coordinates: (n, 3) or (n, 2) node coordinates; slave (and master, 2D): Surface;
    pairs: Pairs or a dict with slave (node indices), gap, normal (k, 3) and, in 2D, point (k, 3).
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.tri import LinearTriInterpolator, Triangulation, UniformTriRefiner

    if os.path.exists(out) and not force:
        raise FileExistsError("%s exists; pass --force (force=True) to replace it" % out)
    x = np.zeros((len(coordinates), 3))
    x[:, :np.shape(coordinates)[1]] = coordinates
    slave_nodes = np.asarray(pairs["slave"], dtype=np.int64)
    gaps = np.asarray(pairs["gap"], dtype=float)
    normals = np.asarray(pairs["normal"], dtype=float).reshape(-1, 3)
    if len(gaps) == 0:
        raise ValueError("render: no pairs to draw")
    gap_at = np.full(len(x), np.nan)
    gap_at[slave_nodes] = gaps
    cmap, norm = _colormap(gaps.min(), gaps.max())
    penetrating = int(np.sum(gaps < 0))

    fig = plt.figure(figsize=size, dpi=dpi)
    ax = fig.add_axes([0.07, 0.1, 0.48, 0.8])
    cax = fig.add_axes([0.57, 0.1, 0.015, 0.8])
    hax = fig.add_axes([0.72, 0.12, 0.26, 0.76])
    info = {"image_size": (int(round(size[0] * dpi)), int(round(size[1] * dpi)))}
    if slave.dim == 3:
        u, v, n = view_basis(normals)
        xy = np.column_stack([x @ u, x @ v])
        ax.add_collection(PolyCollection([xy[c] for c in _corners(slave)], facecolors=_GREY,
                                         edgecolors=_EDGE, linewidths=0.3, zorder=1))
        tris = _triangles(slave)
        paired = np.all(np.isfinite(gap_at[tris]), axis=1)
        info["coloured"] = np.nonzero(paired)[0]
        if np.any(paired):
            # The gap interpolated linearly on 16 sub-triangles per triangle, each drawn in the
            # colour of its mean gap: smooth, and every colour stays one of the map.
            used = np.unique(tris[paired])
            local = np.full(len(x), -1)
            local[used] = np.arange(len(used))
            tri = Triangulation(xy[used, 0], xy[used, 1], local[tris[paired]])
            fine, values = UniformTriRefiner(tri).refine_field(
                gap_at[used], triinterpolator=LinearTriInterpolator(tri, gap_at[used]), subdiv=2)
            ax.tripcolor(fine, values, cmap=cmap, norm=norm, shading="flat", antialiased=False,
                         zorder=2)
            if gaps.min() < 0 < gaps.max():
                ax.tricontour(fine, values, levels=[0.0], colors="k", linewidths=1.0, zorder=3)
        pts = xy[slave_nodes]
        info["basis"] = (u, v, n)
        ax.set_xlabel("along u = (%.2f, %.2f, %.2f)" % tuple(u))
        ax.set_ylabel("along v = (%.2f, %.2f, %.2f)" % tuple(v))
        view = "slave surface seen along the mean normal (%.2f, %.2f, %.2f)" % tuple(n)
    else:
        points = np.asarray(pairs["point"], dtype=float).reshape(-1, 3)
        width = 6.0  # points: the coloured band of the slave curve
        segs = [x[c, :2] for c in _corners(slave)]
        ax.add_collection(LineCollection(segs, colors=[_EDGE], linewidths=1.0, zorder=1))
        if master is not None:
            ax.add_collection(LineCollection(_curve(master, x), colors=[(0.35, 0.35, 0.35)],
                                             linewidths=1.5, zorder=1))
        corners = _corners(slave)
        paired = np.array([np.all(np.isfinite(gap_at[c])) for c in corners], dtype=bool)
        info["coloured"] = np.nonzero(paired)[0]
        info["band_width_px"] = width * dpi / 72.0
        band = [x[c, :2] for c, p in zip(corners, paired) if p]
        band_gap = [np.mean(gap_at[c]) for c, p in zip(corners, paired) if p]
        ax.add_collection(LineCollection(band, array=np.array(band_gap), cmap=cmap, norm=norm,
                                         linewidths=width, capstyle="butt", zorder=2))
        lines = np.stack([x[slave_nodes, :2], points[:, :2]], axis=1)
        ax.add_collection(LineCollection(lines, colors="k", linewidths=0.8, zorder=3))
        pts = np.vstack([x[slave_nodes, :2], points[:, :2]])
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        view = "slave curve (coloured where paired), master curve, closest-point lines"
    xlim, ylim = _margin(pts[:, 0].min(), pts[:, 0].max()), _margin(pts[:, 1].min(), pts[:, 1].max())
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(view, fontsize=9)
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    fig.colorbar(sm, cax=cax).set_label("gap (< 0: penetration)")

    counts, edges = np.histogram(gaps, bins=min(30, max(5, len(gaps) // 5)))
    centres = 0.5 * (edges[:-1] + edges[1:])
    hax.bar(centres, counts, width=np.diff(edges), color=cmap(norm(centres)), edgecolor="k",
            linewidth=0.3)
    if gaps.min() < 0 < gaps.max():
        hax.axvline(0.0, color="k", linewidth=1.0)
    hax.set_xlabel("gap (< 0: penetration)")
    hax.set_ylabel("pairs")
    hax.set_title("%d pairs, %d penetrating; gap %.3g .. %.3g"
                  % (len(gaps), penetrating, gaps.min(), gaps.max()), fontsize=9)
    if title:
        fig.suptitle(title, fontsize=10)

    fig.canvas.draw()
    box = ax.get_window_extent()
    height = info["image_size"][1]
    info["map_box"] = (box.x0, height - box.y1, box.x1, height - box.y0)
    info["xlim"], info["ylim"] = ax.get_xlim(), ax.get_ylim()
    tmp = out + ".tmp.png"
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    os.replace(tmp, out)
    return info


def _curve(surface, x, samples=8):
    """Polylines of a 2D surface's segments (Line3 sampled along its parabola)."""
    conn, off = np.asarray(surface.connectivity), np.asarray(surface.offsets)
    lines = []
    t = np.linspace(-1.0, 1.0, samples + 1)
    for s, typ in enumerate(surface.types):
        nodes = conn[off[s]:off[s + 1]]
        if int(typ) == 1:  # Line3: ends, then the midside node
            shape = np.column_stack([0.5 * t * (t - 1), 0.5 * t * (t + 1), 1 - t * t])
            lines.append(shape @ x[nodes, :2])
        else:
            lines.append(x[nodes, :2])
    return lines


def line_point(surface, segment, xi, x):
    """The point at local coordinate xi of a 2D segment (Line2 or Line3)."""
    nodes = np.asarray(surface.connectivity)[surface.offsets[segment]:surface.offsets[segment + 1]]
    if int(surface.types[segment]) == 1:
        shape = np.array([0.5 * xi * (xi - 1), 0.5 * xi * (xi + 1), 1 - xi * xi])
    else:
        shape = np.array([0.5 * (1 - xi), 0.5 * (1 + xi)])
    return shape @ x[nodes]


def pairs_from_rows(model, master, rows):
    """Pairs of tool output rows (dicts with slave_node, master_element, master_face, xi, gap,
    normal) as arrays: node indices, gaps, normals and closest points (2D: from the master
    segment and xi; 3D: the slave node minus gap x normal, for drawing only)."""
    index = {int(i): k for k, i in enumerate(model.node_ids)}
    segment = {(int(e), int(f)): s for s, (e, f) in enumerate(zip(master.element_ids, master.faces))}
    x = np.asarray(model.coordinates)
    slave, gap, normal, point = [], [], [], []
    for r in rows:
        node = index[int(r["slave_node"])]
        slave.append(node)
        gap.append(float(r["gap"]))
        normal.append([float(c) for c in r["normal"]])
        if master.dim == 2:
            s = segment[(int(r["master_element"]), int(r["master_face"]))]
            point.append(line_point(master, s, float(r["xi"]), x))
        else:
            point.append(x[node] - float(r["gap"]) * np.array(normal[-1]))
    return {"slave": np.array(slave, dtype=np.int64), "gap": np.array(gap),
            "normal": np.array(normal).reshape(-1, 3), "point": np.array(point).reshape(-1, 3)}


def load(path, model_path=None, interface=1, slave=None, master=None):
    """Reads the tool's JSON (with --json-pairs) or CSV: returns (model, slave Surface, master
    Surface, pairs, title)."""
    from . import read_model

    if path.endswith(".json"):
        with open(path) as f:
            report = json.load(f)
        itfs = [i for i in report["interfaces"] if i["index"] == interface]
        if not itfs:
            raise ValueError("%s has no interface %d" % (path, interface))
        itf = itfs[0]
        if itf["mode"] != "node":
            raise ValueError("%s: interface %d is %s; the picture needs node-to-segment pairs"
                             % (path, interface, itf["mode"]))
        if "pair_list" not in itf:
            raise ValueError("%s has no pair list: write it with --json FILE --json-pairs" % path)
        if model_path is None:
            model_path = report["model"]
            beside = os.path.join(os.path.dirname(path), model_path)
            if not os.path.exists(model_path) and os.path.exists(beside):
                model_path = beside
        model = read_model(model_path)
        slave, master = slave or itf["slave"], master or itf["master"]
        rows = itf["pair_list"]
    else:
        if model_path is None:
            raise ValueError("a CSV of pairs needs --model MODEL")
        model = read_model(model_path)
        with open(path, newline="") as f:
            table = list(csv.DictReader(f))
        if table and "slave_node" not in table[0]:
            raise ValueError("%s: not a node-to-segment pairs CSV (no slave_node column)" % path)
        rows = [dict(r, normal=(r["nx"], r["ny"], r["nz"])) for r in table
                if int(r["interface"]) == interface]
        if slave is None or master is None:
            if len(model.interfaces) < interface:
                raise ValueError("%s defines no interface %d: name the surfaces with --slave and "
                                 "--master" % (model.path, interface))
            slave = slave or model.interfaces[interface - 1].slave
            master = master or model.interfaces[interface - 1].master
    if not rows:
        raise ValueError("%s: interface %d has no pairs" % (path, interface))
    s, m = model.surfaces[slave], model.surfaces[master]
    title = "%s: slave %s, master %s" % (os.path.basename(model.path), s.name, m.name)
    return model, s, m, pairs_from_rows(model, m, rows), title


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m contact_search.plot",
                                 description="Draws the pairs of contact-search's JSON or CSV.")
    ap.add_argument("input", help="RESULT.json (--json-pairs) or PAIRS.csv of contact-search")
    ap.add_argument("--model", help="the model file (CSV input; JSON names it)")
    ap.add_argument("--interface", type=int, default=1, help="interface index (default 1)")
    ap.add_argument("--slave", help="slave surface name (CSV of --master/--slave searches)")
    ap.add_argument("--master", help="master surface name")
    ap.add_argument("--out", help="output PNG (default: the input with .png)")
    ap.add_argument("--force", action="store_true", help="replace an existing output file")
    args = ap.parse_args(argv)
    out = args.out or os.path.splitext(args.input)[0] + ".png"
    try:
        model, slave, master, pairs, title = load(args.input, args.model, args.interface,
                                                  args.slave, args.master)
        coords = np.asarray(model.coordinates)[:, :slave.dim]
        render(coords, slave, pairs, out, master=master, title=title, force=args.force)
    except (ValueError, KeyError, OSError) as e:
        print("contact_search.plot: %s" % (e.args[0] if isinstance(e, KeyError) else e),
              file=sys.stderr)
        return 2
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
