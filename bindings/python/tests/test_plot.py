# SPDX-License-Identifier: MIT
"""Pictures: every shipped model rendered from the tool's JSON and CSV and from a pairs() result.
Each image has the requested size, and its coloured pixels are the paired region: in 3D the
projected area of the slave faces whose corners are all paired, in 2D the paired slave segments'
length times the band width, both counted in pixels through the map's scale."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import contact_search as cs
from conftest import DATA, run_tool

plt_image = pytest.importorskip("matplotlib.image")
from contact_search import plot  # noqa: E402

MODELS = [
    ("sphere", DATA / "sphere_on_block.msh", ["--master", "SphereSurface", "--slave", "BlockTop"]),
    ("sphere_o2", DATA / "sphere_on_block_o2.msh",
     ["--master", "SphereSurface", "--slave", "BlockTop"]),
    ("punch", DATA / "punch_on_block.inp", []),
    ("cylinder_2d", DATA / "cylinder_on_block_2d.msh",
     ["--master", "CylinderEdge", "--slave", "BlockTop"]),
]
CORNERS = {0: 2, 1: 2, 2: 3, 3: 3, 4: 4, 5: 4, 6: 4}


def coloured_pixels(png, box):
    """Pixels inside box (x0, y0, x1, y1) whose colour is saturated (not grey, white, black)."""
    img = plt_image.imread(png)[:, :, :3]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    region = img[y0:y1, x0:x1]
    return int(np.sum(region.max(axis=2) - region.min(axis=2) > 0.15))


def expected_pixels(model, slave, pairs, info):
    """The paired region in pixels, from the pairs alone (not from what the plot drew)."""
    x = np.asarray(model.coordinates)
    paired = np.zeros(len(x), dtype=bool)
    paired[pairs["slave"]] = True
    (x0, y0, x1, y1), xlim, ylim = info["map_box"], info["xlim"], info["ylim"]
    sx, sy = (x1 - x0) / (xlim[1] - xlim[0]), (y1 - y0) / (ylim[1] - ylim[0])
    assert sx == pytest.approx(sy, rel=1e-3)  # equal aspect
    conn, off = np.asarray(slave.connectivity), np.asarray(slave.offsets)
    total = 0.0
    if slave.dim == 3:
        u, v, _ = plot.view_basis(pairs["normal"])
        for s, t in enumerate(slave.types):
            c = conn[off[s]:off[s] + CORNERS[int(t)]]
            if paired[c].all():
                px, py = x[c] @ u, x[c] @ v
                total += 0.5 * abs(np.dot(px, np.roll(py, -1)) - np.dot(py, np.roll(px, -1)))
        return total * sx * sy
    for s, t in enumerate(slave.types):
        c = conn[off[s]:off[s] + 2]
        if paired[c].all():
            total += np.linalg.norm(x[c[1], :2] - x[c[0], :2])
    return total * sx * info["band_width_px"]


def tool_output(tmp_path, model_path, args):
    result, pairs_csv = tmp_path / "result.json", tmp_path / "pairs.csv"
    run_tool([model_path, "--quiet", "--json", result, "--json-pairs", "--pairs", pairs_csv] + args)
    return result, pairs_csv


def render_json(result, out):
    model, slave, master, pairs, title = plot.load(str(result))
    info = plot.render(np.asarray(model.coordinates)[:, :slave.dim], slave, pairs, str(out),
                       master=master, title=title)
    return model, slave, pairs, info


@pytest.mark.parametrize("label,model_path,args", MODELS, ids=[m[0] for m in MODELS])
def test_tool_json_pictures(tmp_path, label, model_path, args):
    result, _ = tool_output(tmp_path, model_path, args)
    out = tmp_path / (label + ".png")
    model, slave, pairs, info = render_json(result, out)
    img = plt_image.imread(out)
    assert (img.shape[1], img.shape[0]) == info["image_size"] == (1200, 500)
    got = coloured_pixels(out, info["map_box"])
    want = expected_pixels(model, slave, pairs, info)
    print("%s: %d coloured pixels, %.0f expected" % (label, got, want))
    assert want > 500, "too small a paired region to check"
    assert got == pytest.approx(want, rel=0.02 if slave.dim == 3 else 0.06), (got, want)
    n = len(json.loads(result.read_text())["interfaces"][0]["pair_list"])
    assert len(pairs["slave"]) == n


@pytest.mark.parametrize("label,model_path,args", [MODELS[0], MODELS[3]],
                         ids=[MODELS[0][0], MODELS[3][0]])
def test_command_line_draws_the_same(tmp_path, label, model_path, args):
    """python3 -m contact_search.plot on the JSON, and on the CSV with the model named, draws
    the picture render() draws; it replaces an existing file only with --force."""
    result, pairs_csv = tool_output(tmp_path, model_path, args)
    _, _, _, info = render_json(result, tmp_path / "direct.png")
    want = coloured_pixels(tmp_path / "direct.png", info["map_box"])
    env = dict(os.environ, MPLBACKEND="Agg")
    cli = [sys.executable, "-m", "contact_search.plot"]
    source, extra = (result, []) if label == "sphere" else (pairs_csv, ["--model", str(model_path)] + args)
    png = tmp_path / "cli.png"
    r = subprocess.run(cli + [str(source), "--out", str(png)] + extra, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert coloured_pixels(png, info["map_box"]) == want
    r = subprocess.run(cli + [str(source), "--out", str(png)] + extra, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "exists; pass --force" in r.stderr


def test_pairs_result_picture(tmp_path):
    model = cs.read_model(DATA / "sphere_on_block.msh")
    master, slave = model.surfaces["SphereSurface"], model.surfaces["BlockTop"]
    s = cs.ContactSearch()
    s.set_surfaces(master, slave, model.coordinates)
    s.update(model.coordinates)
    p = s.pairs()
    out = str(tmp_path / "pairs.png")
    info = plot.render(model.coordinates, slave, p, out, size=(8.0, 4.0), dpi=80)
    assert plt_image.imread(out).shape[:2] == (320, 640)
    want = expected_pixels(model, slave, p, info)
    assert coloured_pixels(out, info["map_box"]) == pytest.approx(want, rel=0.02)
    with pytest.raises(FileExistsError):
        plot.render(model.coordinates, slave, p, out)


def test_plot_refuses_what_it_cannot_draw(tmp_path):
    result = tmp_path / "segment.json"
    run_tool([DATA / "punch_on_block.inp", "--quiet", "--mode", "segment", "--json", result,
              "--json-pairs"])
    r = subprocess.run([sys.executable, "-m", "contact_search.plot", str(result)],
                       env=dict(os.environ, MPLBACKEND="Agg"), capture_output=True, text=True)
    assert r.returncode == 2 and "needs node-to-segment pairs" in r.stderr
    no_pairs = tmp_path / "no_pairs.json"
    run_tool([DATA / "punch_on_block.inp", "--quiet", "--json", no_pairs])
    r = subprocess.run([sys.executable, "-m", "contact_search.plot", str(no_pairs)],
                       env=dict(os.environ, MPLBACKEND="Agg"), capture_output=True, text=True)
    assert r.returncode == 2 and "--json-pairs" in r.stderr
