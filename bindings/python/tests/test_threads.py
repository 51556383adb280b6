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
