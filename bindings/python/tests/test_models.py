# SPDX-License-Identifier: MIT
"""Every shipped model (and a generated one): the pairs from Python equal the contact-search
tool's CSV byte for byte, and every coordinate layout gives the same pairs bit for bit."""
import numpy as np
import pytest

import contact_search as cs
from conftest import CASES, interfaces, pairs_csv, run_tool, search


@pytest.mark.parametrize("label,model_path,args", CASES, ids=[c[0] for c in CASES])
def test_same_pairs_as_the_tool(tmp_path, label, model_path, args):
    tool_csv = tmp_path / (label + ".tool.csv")
    run_tool([model_path, "--quiet", "--pairs", tool_csv] + args)
    expected = tool_csv.read_text()
    assert expected.count("\n") > 1, "the tool found no pairs"
    got = pairs_csv(cs.read_model(model_path), args)
    if got != expected:
        for n, (a, b) in enumerate(zip(expected.splitlines(), got.splitlines())):
            assert a == b, "line %d differs" % (n + 1)
        assert len(got.splitlines()) == len(expected.splitlines())


def layouts(coords):
    """The same coordinates in the layouts read in place, and two that are copied."""
    n, d = coords.shape
    records = np.full((n, d + 3), -1.0)
    records[:, 1:1 + d] = coords
    return {
        "interleaved": (np.ascontiguousarray(coords), False),
        "separate": (np.ascontiguousarray(coords.T).T, False),
        "fortran_order": (np.asfortranarray(coords), False),
        "strided_records": (records[:, 1:1 + d], False),
        "list": (coords.tolist(), True),
        "big_endian": (coords.astype(">f8"), True),
    }


@pytest.mark.parametrize("label,model_path,args", CASES, ids=[c[0] for c in CASES])
def test_every_layout_gives_the_same_pairs(label, model_path, args):
    model = cs.read_model(model_path)
    for _, master, slave, mode, self_contact in interfaces(model, args):
        dim = model.surfaces[master].dim
        base, _ = search(model, master, slave, mode, self_contact)
        expected = base.pairs()
        for name, (x, copied) in layouts(np.array(model.coordinates[:, :dim])).items():
            srch, stats = search(model, master, slave, mode, self_contact, coords=x)
            assert stats.coordinates_copied == copied, name
            if not copied:
                assert srch.last_coordinates_address == x.__array_interface__["data"][0], name
            got = srch.pairs()
            for key in expected.keys():
                assert np.array_equal(got[key], expected[key]), (name, key)


@pytest.mark.parametrize("label,model_path,args", CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_pairs_are_the_callers_arrays(label, model_path, args):
    model = cs.read_model(model_path)
    for _, master, slave, mode, self_contact in interfaces(model, args):
        srch, _ = search(model, master, slave, mode, self_contact)
        first, second = srch.pairs(), srch.pairs()
        for key in first.keys():
            assert np.array_equal(first[key], second[key])
            assert first[key].flags.writeable and not np.shares_memory(first[key], second[key])
        first.slave[:] = -1  # the caller's to change
        assert np.all(srch.pairs().slave >= 0)
        s = first.structured()
        assert len(s) == len(first) and np.array_equal(s["master"], first.master)
        if mode == "node":
            assert s["normal"].shape == (len(first), 3) and np.array_equal(s["gap"], first.gap)
