# SPDX-License-Identifier: MIT
"""update() releases the GIL: two Python threads, each searching its own interface, are inside
update() at the same time (the calls' own start and finish times overlap). With the GIL held,
one thread could enter update() only after the other had left it, so no two calls overlap."""
import threading

import numpy as np

import contact_search as cs


def wavy_interface(n, phase):
    """Two n x n Quad4 grids about 0.2 cells apart, the upper one wavy: (n + 1)^2 pairs."""
    t = np.linspace(0.0, 1.0, n + 1)
    gx, gy = np.meshgrid(t, t)
    lower = np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)])
    upper = lower.copy()
    upper[:, 2] = (0.2 + 0.1 * np.sin(7 * gx.ravel() + phase) * np.cos(5 * gy.ravel())) / n
    coords = np.vstack([lower, upper])
    quads = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            quads.append([a, a + 1, a + n + 2, a + n + 1])
    quads = np.array(quads)
    m = len(lower)
    master = cs.surface("Quad4", quads, name="lower")
    slave = cs.surface("Quad4", quads[:, ::-1] + m, name="upper")  # reversed: normal down
    return coords, master, slave


def test_two_threads_search_at_the_same_time():
    searches = []
    for phase in (0.0, 1.0):
        coords, master, slave = wavy_interface(150, phase)
        s = cs.ContactSearch(skin_relative=0.0)  # a rebuild every update
        s.set_surfaces(master, slave, coords)
        searches.append((s, coords))
    rounds = 8
    intervals = [[], []]
    barrier = threading.Barrier(2)

    def work(k):
        s, coords = searches[k]
        barrier.wait()
        for _ in range(rounds):
            st = s.update(coords)
            assert st.status == "ok" and st.pairs == 151 * 151 and st.rebuilt
            intervals[k].append((st.started, st.finished))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(intervals[0]) == rounds and len(intervals[1]) == rounds
    overlapping = sum(1 for a0, a1 in intervals[0] for b0, b1 in intervals[1]
                      if a0 < b1 and b0 < a1)
    assert overlapping > 0, "no two updates overlapped in time: the GIL was held"
    # The times are time.monotonic()'s clock.
    import time
    assert abs(intervals[0][-1][1] - time.monotonic()) < 60


def test_one_search_shared_by_threads_takes_turns():
    """Threads sharing one search: its calls take turns. Two writers alternate updates between
    two coordinate sets while a reader takes the pairs: every pairs() is one update's whole
    result (equal to a lone search's for one set or the other, never a mix), and nothing
    crashes. Without the search's lock, two updates ran at once inside it (heap corruption) and
    the reader saw gaps of both sets."""
    coords_a, master, slave = wavy_interface(40, 0.0)
    coords_b, _, _ = wavy_interface(40, 1.0)
    expected = []
    for c in (coords_a, coords_b):
        alone = cs.ContactSearch(skin_relative=0.0)
        alone.set_surfaces(master, slave, c)
        alone.update(c)
        expected.append(alone.pairs().gap)
    assert not np.array_equal(expected[0], expected[1])
    s = cs.ContactSearch(skin_relative=0.0)
    s.set_surfaces(master, slave, coords_a)
    s.update(coords_a)
    rounds = 60
    seen = []
    errors = []
    barrier = threading.Barrier(3)

    def writer(first):
        barrier.wait()
        try:
            for i in range(rounds):
                s.update(coords_a if (i + first) % 2 == 0 else coords_b)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def reader():
        barrier.wait()
        for _ in range(3 * rounds):
            seen.append(s.pairs().gap)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(2)]
    threads.append(threading.Thread(target=reader))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(seen) == 3 * rounds
    torn = [g for g in seen
            if not (np.array_equal(g, expected[0]) or np.array_equal(g, expected[1]))]
    assert torn == [], "%d of %d pairs() mixed two updates" % (len(torn), len(seen))
