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
An existing output file is replaced only with --force (force=True); inputs, directories and
read-only files are never written, a FIFO or character device is written as a stream (as the
tool writes its outputs). Output that is not of the model and surfaces (a slave node not on the
slave surface, a master element and face that is no master segment) and malformed input are
refused with ValueError naming the file and row or pair; the command prints one line, exit 2.
"""
import argparse
import csv
import errno
import fcntl
import io
import json
import os
import secrets
import stat
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


def _margin(lo, hi, least, frac=0.1):
    span = max(hi - lo, least)
    mid = 0.5 * (lo + hi)
    return mid - (0.5 + frac) * span, mid + (0.5 + frac) * span


def _limits(pts):
    """View limits around points: a margin of 10 %; a flat or single-point spread takes the
    other axis's span (or a thousandth of the coordinates' size) so that the view is not empty."""
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    scale = max(1.0, float(np.max(np.abs(pts)))) * 1e-3
    least = max(float(np.max(hi - lo)), scale) * 1e-3
    big = max(float(np.max(hi - lo)), scale)
    return tuple(_margin(lo[k], hi[k], big if hi[k] - lo[k] < least else 0.0) for k in (0, 1))


def _refined(xy, values, tris, n=4):
    """Each triangle cut into n x n triangles, its vertices' values interpolated linearly:
    (points (m, 2), values (m,), triangles (t, 3)), every triangle with vertices of its own, so
    that overlapping triangles (a closed surface seen from one side) make no invalid mesh."""
    ab = [(a, b) for b in range(n + 1) for a in range(n + 1 - b)]
    at = {p: k for k, p in enumerate(ab)}
    sub = [(at[a, b], at[a + 1, b], at[a, b + 1]) for (a, b) in ab if a + b < n]
    sub += [(at[a + 1, b], at[a + 1, b + 1], at[a, b + 1]) for (a, b) in ab if a + b < n - 1]
    w = np.array([(1.0 - (a + b) / n, a / n, b / n) for (a, b) in ab])  # (points, 3)
    p = np.einsum("pk,tkd->tpd", w, xy[tris]).reshape(-1, 2)
    v = np.einsum("pk,tk->tp", w, values[tris]).reshape(-1)
    t = (np.arange(len(tris))[:, None, None] * len(ab) + np.array(sub)[None]).reshape(-1, 3)
    return p, v, t


def _writable_target(out, inputs, force):
    """Where the PNG `out` goes, checked before anything is drawn, as the contact-search tool
    checks its outputs: ("stream", path, fd) for a FIFO (held open, refused when no process
    reads it) or a character device, written in place and left what it is; ("replace", target,
    mode) for an existing regular file, only with force (a symlink's target is replaced, the
    link stays); ("create", target, None) otherwise (a dangling symlink creates its target).
    Refuses an input file (whatever name or link reaches it), a directory, a read-only file."""
    out = os.fspath(out)
    if isinstance(out, bytes):
        out = os.fsdecode(out)
    if not out:
        raise ValueError("output file name is empty")
    try:
        st = os.stat(out)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OSError("cannot write %s: %s" % (out, e.strerror)) from None
    if st is None:
        target = os.path.realpath(out)  # a dangling symlink: its target
        if not os.path.isdir(os.path.dirname(target)):
            raise OSError("cannot write %s: no directory %s" % (out, os.path.dirname(target)))
        return "create", target, None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError("cannot write %s: it is a directory" % out)
    for path in inputs:
        try:
            same = os.path.samefile(out, path)
        except OSError:
            same = False
        if same:
            raise ValueError("refusing to write %s: it is an input file (%s)" % (out, path))
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        try:
            fd = os.open(out, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as e:
            if e.errno == errno.ENXIO:
                raise OSError("cannot write %s: it is a FIFO that no process reads (writing "
                              "would wait for one)" % out) from None
            raise OSError("cannot write %s: %s" % (out, e.strerror)) from None
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return "stream", out, fd
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("cannot write %s: not a regular file, FIFO or character device" % out)
    if not force:
        raise FileExistsError("%s exists; pass --force (force=True) to replace it" % out)
    if st.st_mode & 0o222 == 0 or not os.access(out, os.W_OK):
        raise OSError("refusing to replace %s: it is read-only for this user" % out)
    return "replace", os.path.realpath(out), stat.S_IMODE(st.st_mode)


def _write(out, where, data):
    """Writes the bytes `data` where _writable_target said: a stream in place; a file through a
    new temporary file in the target's directory (created exclusively, as tempfile.mkstemp
    does) renamed onto it, so that a failed write leaves the old file or none; a created file
    is linked into place, so that one made meanwhile is not replaced."""
    kind, target, extra = where
    if kind == "stream":
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(extra, view):]
        except BrokenPipeError:
            raise OSError("cannot write %s: its reader left before the picture was written"
                          % out) from None
        return
    folder, base = os.path.split(target)
    while True:
        tmp = os.path.join(folder, ".%s.%s.tmp" % (base, secrets.token_hex(6)))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as e:
            raise OSError("cannot write %s: cannot create a file in %s: %s"
                          % (out, folder, e.strerror)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if extra is not None:
                os.fchmod(f.fileno(), extra)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if kind == "replace":
            os.replace(tmp, target)
            return
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise FileExistsError("%s exists (made while the picture was drawn); pass --force "
                                  "(force=True) to replace it" % out) from None
        except OSError:  # no hard links here: renamed, unless a file came meanwhile
            if os.path.lexists(target):
                raise FileExistsError("%s exists; pass --force (force=True) to replace it"
                                      % out) from None
            os.rename(tmp, target)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def render(coordinates, slave, pairs, out, master=None, title=None, size=(12.0, 5.0), dpi=100,
           force=False, inputs=()):
    """Draws the pairs of one interface into the PNG `out` (a path, str or os.PathLike) and
    returns what was drawn: the pixel box of the map ("map_box": x0, y0, x1, y1 from the image's
    top left), the data limits of the map ("xlim", "ylim"), the projection ("basis": u, v, n in
    3D), the coloured segments ("coloured": their indices), the nodes drawn as points
    ("scattered": a slave without segments, a node surface, shows its paired nodes coloured by
    gap) and "image_size" (width, height) in pixels.

    coordinates: (n, 3) or (n, 2) node coordinates; slave (and master, 2D): Surface;
    pairs: Pairs or a dict with slave (node indices), gap, normal (k, 3) and, in 2D, point (k, 3).
    out is written as the contact-search tool writes its outputs: a FIFO or character device as
    a stream, an existing file replaced only with force (through a symlink: its target), never
    a directory nor one of `inputs` (paths: the model, the tool's output drawn).
    """
    where = _writable_target(out, inputs, force)
    try:
        info, data = _draw(coordinates, slave, pairs, master, title, size, dpi)
        _write(os.fspath(out), where, data)
    finally:
        if where[0] == "stream":
            try:
                os.close(where[2])
            except OSError:
                pass
    return info


def _draw(coordinates, slave, pairs, master, title, size, dpi):
    """The picture of render: (info, PNG bytes)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.tri import Triangulation

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
    info = {"image_size": (int(round(size[0] * dpi)), int(round(size[1] * dpi))),
            "coloured": np.zeros(0, dtype=np.int64), "scattered": 0}
    if len(slave) == 0:
        # A node surface: its paired nodes as points coloured by gap, seen along the mean
        # normal in 3D.
        if np.shape(coordinates)[1] == 3 and (master is None or master.dim == 3):
            u, v, n = view_basis(normals)
            pts = np.column_stack([x[slave_nodes] @ u, x[slave_nodes] @ v])
            info["basis"] = (u, v, n)
            ax.set_xlabel("along u = (%.2f, %.2f, %.2f)" % tuple(u))
            ax.set_ylabel("along v = (%.2f, %.2f, %.2f)" % tuple(v))
            view = "paired slave nodes seen along the mean normal (%.2f, %.2f, %.2f)" % tuple(n)
        else:
            pts = x[slave_nodes, :2]
            ax.set_xlabel("x")
            ax.set_ylabel("y")
            view = "paired slave nodes"
        ax.scatter(pts[:, 0], pts[:, 1], c=gaps, cmap=cmap, norm=norm, s=36, edgecolors="none",
                   zorder=2)
        info["scattered"] = len(pts)
    elif slave.dim == 3:
        u, v, n = view_basis(normals)
        xy = np.column_stack([x @ u, x @ v])
        ax.add_collection(PolyCollection([xy[c] for c in _corners(slave)], facecolors=_GREY,
                                         edgecolors=_EDGE, linewidths=0.3, zorder=1))
        tris = _triangles(slave)
        paired = np.all(np.isfinite(gap_at[tris]), axis=1)
        info["coloured"] = np.nonzero(paired)[0]
        # Triangles seen edge-on (a closed surface's sides) cover no area of the map: left out.
        d1, d2 = xy[tris[:, 1]] - xy[tris[:, 0]], xy[tris[:, 2]] - xy[tris[:, 0]]
        area = 0.5 * np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0])
        span = np.ptp(xy[np.unique(tris)], axis=0).max() if len(tris) else 0.0
        filled = paired & (area > 1e-12 * span * span)
        if np.any(filled):
            # The gap interpolated linearly on 16 sub-triangles per triangle, each drawn in the
            # colour of its mean gap: smooth, and every colour stays one of the map. No
            # trifinder: triangles may overlap.
            p, values, t = _refined(xy, gap_at, tris[filled])
            fine = Triangulation(p[:, 0], p[:, 1], t)
            ax.tripcolor(fine, facecolors=values[t].mean(axis=1), cmap=cmap, norm=norm,
                         antialiased=False, zorder=2)
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
    xlim, ylim = _limits(pts)
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
    png = io.BytesIO()
    fig.savefig(png, dpi=dpi, format="png")
    plt.close(fig)
    return info, png.getvalue()


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


def _number(value, where, key):
    """A finite or infinite float of a JSON value or CSV field; ValueError naming where."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("%s: %s is %s, expected a number" % (where, key, json.dumps(value)))
    try:
        return float(value)
    except ValueError:
        raise ValueError("%s: %s is %r, expected a number" % (where, key, value)) from None


def _integer(value, where, key):
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("%s: %s is %s, expected an integer" % (where, key, json.dumps(value)))
    try:
        return int(value)
    except ValueError:
        raise ValueError("%s: %s is %r, expected an integer" % (where, key, value)) from None


def _label(value, where, key):
    """A node or element as the tool names it: its id, or "<instance>.<id>" in assemblies."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("%s: %s is %s, expected an id" % (where, key, json.dumps(value)))
    return str(value)


def _row(where, slave_node, master_element, master_face, xi, gap, normal):
    """One pair of the tool's output, checked: labels as strings, numbers as floats."""
    if not isinstance(normal, (list, tuple)) or len(normal) != 3:
        raise ValueError("%s: normal is %s, expected 3 numbers" % (where, json.dumps(normal)))
    return {"where": where, "slave_node": _label(slave_node, where, "slave_node"),
            "master_element": _label(master_element, where, "master_element"),
            "master_face": _integer(master_face, where, "master_face"),
            "xi": _number(xi, where, "xi"), "gap": _number(gap, where, "gap"),
            "normal": [_number(c, where, "normal") for c in normal]}


def _surface_nodes(surface):
    """The node indices of a surface: a node surface's nodes, else its segments' nodes."""
    if len(surface) == 0:
        return np.unique(np.asarray(surface.nodes, dtype=np.int64))
    return np.unique(np.asarray(surface.connectivity, dtype=np.int64))


def pairs_from_rows(model, master, rows, slave=None):
    """Pairs of tool output rows (dicts with slave_node, master_element, master_face, xi, gap,
    normal; ids as the tool writes them, "<instance>.<id>" in assemblies, and optionally
    "where", the file and row for messages) as arrays: node indices, gaps, normals and closest
    points (2D: from the master segment and xi; 3D: the slave node minus gap x normal, for
    drawing only). Every (master_element, master_face) must be a segment of `master` and, when
    `slave` is given, every slave node a node of it: ValueError otherwise (the output is of
    another model or other surfaces)."""
    what = os.path.basename(model.path)
    candidates = _surface_nodes(slave) if slave is not None else np.arange(len(model.node_ids))
    index = dict(zip(model.node_labels(candidates), candidates.tolist()))
    labels = master.element_labels
    if labels is None:
        raise ValueError("pairs_from_rows: the master surface must come from a model")
    segment = {(e, int(f)): s for s, (e, f) in enumerate(zip(labels, master.faces))}
    x = np.asarray(model.coordinates)
    slave_nodes, gap, normal, point = [], [], [], []
    for k, r in enumerate(rows):
        where = r.get("where", "pair %d" % (k + 1))
        node = index.get(str(r["slave_node"]))
        if node is None:
            raise ValueError("%s: slave node %s is not on %s of %s — wrong --model or "
                             "--slave/--master?"
                             % (where, r["slave_node"], "slave surface %s" % slave.name
                                if slave is not None else "the model", what))
        s = segment.get((str(r["master_element"]), int(r["master_face"])))
        if s is None:
            raise ValueError("%s: master element %s face %s is not a segment of master surface "
                             "%s of %s — wrong --model or --slave/--master?"
                             % (where, r["master_element"], r["master_face"], master.name, what))
        slave_nodes.append(node)
        gap.append(float(r["gap"]))
        normal.append([float(c) for c in r["normal"]])
        if master.dim == 2:
            point.append(line_point(master, s, float(r["xi"]), x))
        else:
            point.append(x[node] - float(r["gap"]) * np.array(normal[-1]))
    return {"slave": np.array(slave_nodes, dtype=np.int64), "gap": np.array(gap, dtype=float),
            "normal": np.array(normal, dtype=float).reshape(-1, 3),
            "point": np.array(point, dtype=float).reshape(-1, 3)}


def _json_report(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError("%s:%d: not JSON: %s (column %d)" % (path, e.lineno, e.msg, e.colno)) \
            from None
    except UnicodeDecodeError as e:
        raise ValueError("%s: not UTF-8 text (byte %d)" % (path, e.start)) from None
    if not isinstance(report, dict) or not isinstance(report.get("interfaces"), list):
        raise ValueError("%s: not a JSON report of contact-search (an object with an "
                         "\"interfaces\" list)" % path)
    return report


def _json_model(path, report, model_path):
    """The model a JSON report names. The tool writes the path it was given, relative to where
    it ran: a relative path is taken from the current directory or beside the JSON, and refused
    when both hold a different file."""
    if model_path is not None:
        return model_path
    named = report.get("model")
    if not isinstance(named, str) or not named:
        raise ValueError("%s: names no model (\"model\"); give it with --model" % path)
    if os.path.isabs(named):
        return named
    beside = os.path.join(os.path.dirname(path), named)
    here, there = os.path.exists(named), os.path.exists(beside)
    if here and there and not os.path.samefile(named, beside):
        raise ValueError("%s names model %s, relative to where the tool ran: both %s and %s "
                         "exist; name the one with --model" % (path, named, named, beside))
    if not here and not there:
        raise ValueError("%s names model %s, relative to where the tool ran: neither %s nor %s "
                         "exists; give it with --model" % (path, named, named, beside))
    return beside if there and not here else named


def _load_json(path, model_path, interface, slave, master):
    from . import read_model

    report = _json_report(path)
    itfs = [i for i in report["interfaces"] if isinstance(i, dict) and i.get("index") == interface]
    if not itfs:
        raise ValueError("%s has no interface %d" % (path, interface))
    itf = itfs[0]
    where = "%s: interface %d" % (path, interface)
    for key in ("mode", "slave", "master"):
        if not isinstance(itf.get(key), str):
            raise ValueError("%s has no \"%s\" (not a JSON report of contact-search?)"
                             % (where, key))
    if itf["mode"] != "node":
        raise ValueError("%s: interface %d is %s; the picture needs node-to-segment pairs"
                         % (path, interface, itf["mode"]))
    if "pair_list" not in itf:
        raise ValueError("%s has no pair list: write it with --json FILE --json-pairs" % path)
    if not isinstance(itf["pair_list"], list):
        raise ValueError("%s: \"pair_list\" is not a list" % where)
    model = read_model(_json_model(path, report, model_path))
    slave_surface = model.surface(slave or itf["slave"], nodes=True)
    master_surface = model.surfaces[master or itf["master"]]
    what = os.path.basename(model.path)
    for key, surface, have in (("slave_nodes", slave_surface, len(_surface_nodes(slave_surface))),
                               ("master_segments", master_surface, len(master_surface))):
        want = itf.get(key)
        if isinstance(want, int) and not isinstance(want, bool) and want != have:
            raise ValueError("%s has %d %s, surface %s of %s has %d — wrong --model or "
                             "--slave/--master?" % (where, want, key.replace("_", " "),
                                                    surface.name, what, have))
    rows = []
    for k, r in enumerate(itf["pair_list"]):
        at = "%s pair %d" % (where, k + 1)
        if not isinstance(r, dict):
            raise ValueError("%s is %s, expected an object" % (at, json.dumps(r)))
        missing = [f for f in ("slave_node", "master_element", "master_face", "xi", "gap",
                               "normal") if f not in r]
        if missing:
            raise ValueError("%s has no %s" % (at, ", ".join(missing)))
        rows.append(_row(at, r["slave_node"], r["master_element"], r["master_face"], r["xi"],
                         r["gap"], r["normal"]))
    return model, slave_surface, master_surface, rows


_CSV_COLUMNS = ("interface", "slave_node", "master_element", "master_face", "xi", "eta", "gap",
                "nx", "ny", "nz")


def _load_csv(path, model_path, interface, slave, master):
    from . import read_model

    if model_path is None:
        raise ValueError("%s: a CSV of pairs needs --model MODEL (draw the tool's --json "
                         "RESULT.json --json-pairs or --pairs PAIRS.csv, not the model)" % path)
    rows = []
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None or "slave_node" not in header:
                raise ValueError("%s: not a node-to-segment pairs CSV (no slave_node column)"
                                 % path)
            absent = [c for c in _CSV_COLUMNS if c not in header]
            if absent:
                raise ValueError("%s:1: no %s column" % (path, ", ".join(absent)))
            col = {c: header.index(c) for c in _CSV_COLUMNS}
            for fields in reader:
                at = "%s:%d" % (path, reader.line_num)
                if len(fields) != len(header):
                    raise ValueError("%s: %d fields, the header has %d"
                                     % (at, len(fields), len(header)))
                if _integer(fields[col["interface"]], at, "interface") != interface:
                    continue
                v = {c: fields[col[c]] for c in _CSV_COLUMNS}
                rows.append(_row(at, v["slave_node"], v["master_element"], v["master_face"],
                                 v["xi"], v["gap"], (v["nx"], v["ny"], v["nz"])))
    except UnicodeDecodeError as e:
        raise ValueError("%s: not UTF-8 text (byte %d)" % (path, e.start)) from None
    except csv.Error as e:
        raise ValueError("%s: %s" % (path, e)) from None
    model = read_model(model_path)
    if slave is None or master is None:
        if len(model.interfaces) < interface:
            raise ValueError("%s defines no interface %d: name the surfaces with --slave and "
                             "--master" % (model.path, interface))
        slave = slave or model.interfaces[interface - 1].slave
        master = master or model.interfaces[interface - 1].master
    return model, model.surface(slave, nodes=True), model.surfaces[master], rows


def load(path, model_path=None, interface=1, slave=None, master=None):
    """Reads the tool's JSON (with --json-pairs) or CSV: returns (model, slave Surface, master
    Surface, pairs, title). The slave is the surface the tool searched in node mode (a node
    surface where one has the name). Raises ValueError naming the file and the row or pair for
    malformed input and for output that does not belong to the model and surfaces (a slave
    node not on the slave, a master element and face that is no master segment)."""
    path = os.fspath(path)
    model_path = None if model_path is None else os.fspath(model_path)
    load_file = _load_json if path.endswith(".json") else _load_csv
    model, s, m, rows = load_file(path, model_path, interface, slave, master)
    if not rows:
        raise ValueError("%s: interface %d has no pairs" % (path, interface))
    pairs = pairs_from_rows(model, m, rows, slave=s)
    title = "%s: slave %s, master %s" % (os.path.basename(model.path), s.name, m.name)
    return model, s, m, pairs, title


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
        coords = np.asarray(model.coordinates)[:, :master.dim]
        render(coords, slave, pairs, out, master=master, title=title, force=args.force,
               inputs=[args.input] + list(model.files))
    except (ValueError, KeyError, OSError) as e:
        if isinstance(e, KeyError):
            message = e.args[0]
        elif isinstance(e, OSError) and e.filename and e.strerror:
            message = "%s: %s" % (e.filename, e.strerror)
        else:
            message = e
        print("contact_search.plot: %s" % message, file=sys.stderr)
        return 2
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
