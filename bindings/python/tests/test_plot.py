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
from conftest import ABAQUS, DATA, TOOL_ENV, run_tool

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
    out = tmp_path / "pairs.png"  # a path object (render_json's tests give a str)
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


def run_plot(args):
    return subprocess.run([sys.executable, "-m", "contact_search.plot"] + [str(a) for a in args],
                          env=dict(os.environ, MPLBACKEND="Agg"), capture_output=True, text=True)


def refused(r, *words):
    """Exit 2 with one line naming the problem, no traceback."""
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)


def test_output_rules(tmp_path):
    """The PNG is written as the tool writes its outputs: never an input file (--force or not,
    by any name), never a directory; a FIFO as a stream (refused when nobody reads it); a
    symlink's target replaced, the link kept; no fixed temporary name that could clobber a
    user's file, and no temporary left behind."""
    punch = tmp_path / "punch.inp"
    punch.write_bytes((DATA / "punch_on_block.inp").read_bytes())
    result, pairs_csv = tmp_path / "p.json", tmp_path / "p.csv"
    run_tool([punch, "--quiet", "--json", result, "--json-pairs", "--pairs", pairs_csv])
    keep = {p: p.read_bytes() for p in (punch, result, pairs_csv)}
    refused(run_plot([pairs_csv, "--model", punch, "--out", punch, "--force"]), "input file")
    refused(run_plot([result, "--out", result, "--force"]), "input file")
    os.link(punch, tmp_path / "hard.png")
    refused(run_plot([result, "--out", tmp_path / "hard.png", "--force"]), "input file")
    assert all(p.read_bytes() == b for p, b in keep.items())

    (tmp_path / "dir.png").mkdir()
    before = sorted(os.listdir(tmp_path))
    refused(run_plot([result, "--out", tmp_path / "dir.png", "--force"]), "is a directory")
    assert sorted(os.listdir(tmp_path)) == before

    precious = tmp_path / "p.png.tmp.png"
    precious.write_text("precious")
    assert run_plot([result]).returncode == 0
    assert precious.read_text() == "precious"
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"

    target = tmp_path / "target.png"
    target.write_text("t")
    (tmp_path / "link.png").symlink_to("target.png")
    assert run_plot([result, "--out", tmp_path / "link.png", "--force"]).returncode == 0
    assert (tmp_path / "link.png").is_symlink() and target.read_bytes()[:4] == b"\x89PNG"

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(run_plot([result, "--out", fifo]), "no process reads")
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    r = run_plot([result, "--out", fifo])
    data = reader.communicate(timeout=60)[0]
    assert r.returncode == 0, r.stderr
    assert data[:4] == b"\x89PNG" and fifo.is_fifo()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_outputs_of_another_model_are_refused(tmp_path):
    """A JSON or CSV drawn on a model or surfaces it is not of: refused, naming the file, row
    and node or segment, never drawn."""
    sph = ["--master", "SphereSurface", "--slave", "BlockTop"]
    result, s_csv = tool_output(tmp_path, DATA / "sphere_on_block.msh", sph)
    refused(run_plot([result, "--model", DATA / "sphere_on_block_o2.msh", "--out",
                      tmp_path / "w1.png"]), "wrong --model")
    swapped = tmp_path / "swapped.csv"
    run_tool([DATA / "punch_on_block.inp", "--quiet", "--master", "BlockTop", "--slave",
              "PunchBottom", "--pairs", swapped])
    refused(run_plot([swapped, "--model", DATA / "punch_on_block.inp", "--out",
                      tmp_path / "w2.png"]), "swapped.csv:2: slave node", "not on slave surface")
    c_csv = tmp_path / "c.csv"
    run_tool([DATA / "cylinder_on_block_2d.msh", "--quiet", "--master", "CylinderEdge", "--slave",
              "BlockTop", "--pairs", c_csv])
    refused(run_plot([c_csv, "--model", DATA / "sphere_on_block.msh", "--out",
                      tmp_path / "w3.png"] + sph), "c.csv:2:")
    assert not list(tmp_path.glob("w*.png"))
    # A relative model path: the tool's, from where it ran; beside the JSON works too, and a
    # different file at both places is refused.
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "m.msh").write_bytes((DATA / "sphere_on_block.msh").read_bytes())
    rel = sub / "r.json"
    subprocess.run([os.environ["CONTACT_SEARCH_TOOL"], "m.msh", "--quiet", "--json", "r.json",
                    "--json-pairs"] + sph, cwd=sub, check=True, env=TOOL_ENV)
    assert run_plot([rel, "--out", tmp_path / "beside.png"]).returncode == 0
    (tmp_path / "m.msh").write_bytes((DATA / "sphere_on_block_o2.msh").read_bytes())
    r = subprocess.run([sys.executable, "-m", "contact_search.plot", str(rel), "--out",
                        str(tmp_path / "both.png")], cwd=tmp_path, capture_output=True,
                       text=True, env=dict(os.environ, MPLBACKEND="Agg"))
    refused(r, "both", "--model")
    # Neither place holds it: said, naming both and --model (it was "cannot open the file").
    (sub / "m.msh").unlink()
    (tmp_path / "m.msh").unlink()
    r = subprocess.run([sys.executable, "-m", "contact_search.plot", str(rel), "--out",
                        str(tmp_path / "neither.png")], cwd=tmp_path, capture_output=True,
                       text=True, env=dict(os.environ, MPLBACKEND="Agg"))
    refused(r, "neither m.msh nor", "--model")


def test_malformed_input_is_named(tmp_path):
    """Malformed or mismatched input: one line naming the file (and row or pair), exit 2."""
    cyl = DATA / "cylinder_on_block_2d.msh"
    result, c_csv = tool_output(tmp_path, cyl, ["--master", "CylinderEdge", "--slave", "BlockTop"])
    refused(run_plot([c_csv, "--model", cyl, "--slave", "BlockTop", "--master", "BlockTop",
                      "--out", tmp_path / "x.png"]), "pairs.csv:2: master element")
    cases = {"list.json": "[1, 2]", "bad.json": '{"model": "x"',
             "nomode.json": '{"model": "x", "interfaces": [{"index": 1}]}'}
    report = json.loads(result.read_text())
    report["interfaces"][0]["pair_list"][0]["gap"] = None
    cases["nullgap.json"] = json.dumps(report)
    report["interfaces"][0]["pair_list"][0]["gap"] = "x"
    cases["strgap.json"] = json.dumps(report)
    report["interfaces"][0]["pair_list"][0] = 7
    cases["notobject.json"] = json.dumps(report)
    head = "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz\n"
    cases["short.csv"] = head + "1,70,91,1,0,0,0.1\n"
    cases["badnum.csv"] = head + "1,70,91,1,0,0,zz,0,1,0\n"
    cases["unknown.csv"] = head + "1,2635,91,1,0,0,0.1,0,1,0\n"
    words = {"list.json": "list.json:", "bad.json": "bad.json:1:", "nomode.json": "mode",
             "nullgap.json": "pair 1: gap", "strgap.json": "pair 1: gap",
             "notobject.json": "pair 1 is 7", "short.csv": "short.csv:2:",
             "badnum.csv": "badnum.csv:2: gap", "unknown.csv": "slave node 2635"}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        extra = ["--model", cyl] + (["--slave", "BlockTop", "--master", "CylinderEdge"]
                                    if name.endswith(".csv") else [])
        refused(run_plot([tmp_path / name, "--out", tmp_path / "y.png"] + extra), words[name])
    assert not (tmp_path / "y.png").exists()


def test_closed_general_contact_surface(tmp_path):
    """General contact on ALL EXTERIOR (a closed surface, whose sides project to nothing along
    the mean normal): drawn, not "Triangulation is invalid"."""
    result = tmp_path / "flat.json"
    run_tool([ABAQUS / "assembly" / "flat_blocks.inp", "--quiet", "--mode", "node", "--json",
              result, "--json-pairs"])
    r = run_plot([result, "--interface", "2", "--out", tmp_path / "flat.png"])
    assert r.returncode == 0, r.stderr
    assert coloured_pixels(tmp_path / "flat.png", (70, 50, 660, 450)) > 1000


def test_assembly_outputs(tmp_path):
    """Ids "<instance>.<id>" of an assembly's JSON and CSV are found by label: both draw the
    same pairs."""
    model_path = ABAQUS / "assembly" / "cae_blocks.inp"
    result, pairs_csv = tool_output(tmp_path, model_path, ["--mode", "node"])
    _, _, _, from_json, _ = plot.load(result)
    _, _, _, from_csv, _ = plot.load(pairs_csv, model_path)
    n = len(json.loads(result.read_text())["interfaces"][0]["pair_list"])
    assert len(from_json["slave"]) == n > 0
    assert np.array_equal(from_json["slave"], from_csv["slave"])
    assert np.allclose(from_json["gap"], from_csv["gap"])
    assert run_plot([result, "--out", tmp_path / "a.png"]).returncode == 0


def test_node_surface_slave(tmp_path):
    """A node-surface slave has no faces to colour: its paired nodes are drawn as points
    coloured by gap."""
    deck = tmp_path / "tips.inp"
    deck.write_text("""*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
5, 0, 0, 1
6, 1, 0, 1
7, 1, 1, 1
8, 0, 1, 1
11, 0.2, 0.3, 1.05
12, 0.7, 0.4, 1.1
13, 0.5, 0.8, 1.02
*ELEMENT, TYPE=C3D8, ELSET=BLOCK
1, 1, 2, 3, 4, 5, 6, 7, 8
*NSET, NSET=TIPS_N
11, 12, 13
*SURFACE, NAME=TIPS, TYPE=NODE
TIPS_N
*SURFACE, NAME=TOP
BLOCK, S2
*CONTACT PAIR, INTERACTION=SI
TIPS, TOP
""")
    result = tmp_path / "tips.json"
    run_tool([deck, "--quiet", "--capture", "0.5", "--json", result, "--json-pairs"])
    model, slave, master, pairs, title = plot.load(result)
    assert len(slave) == 0 and len(pairs["slave"]) == 3
    out = tmp_path / "tips.png"
    info = plot.render(model.coordinates, slave, pairs, out, master=master, title=title)
    assert info["scattered"] == 3
    assert coloured_pixels(out, info["map_box"]) > 3 * 20
