// SPDX-License-Identifier: MIT
// Built against the installed package where it has contact::contact_mpi, run under mpiexec: a
// flat slave patch 0.02 above a flat master, the segments dealt to the ranks in turn. Checks the
// pairs (node mode: every slave node, every gap 0.02) and the mortar nodal areas (segment mode:
// they sum to the slave patch's area), summed over the ranks.
#include <mpi.h>

#include <contact_mpi/distributed_mortar.hpp>
#include <contact_mpi/distributed_search.hpp>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using contact::Index;
using contact::mpi::GlobalId;

// Global model: an n x n grid of Quad4 over [a, b]^2 at height z, its nodes numbered from first.
struct Grid {
    int n;
    double a, b, z;
    bool down;  // normal -z
    GlobalId first;
    [[nodiscard]] GlobalId nodes() const { return static_cast<GlobalId>(n + 1) * (n + 1); }
    [[nodiscard]] std::array<GlobalId, 4> segment(int k) const {
        const int i = k % n;
        const int j = k / n;
        const GlobalId p = first + static_cast<GlobalId>(j) * (n + 1) + i;
        const GlobalId q = p + 1;
        const GlobalId r = q + n + 1;
        const GlobalId s = p + n + 1;
        return down ? std::array<GlobalId, 4>{p, s, r, q} : std::array<GlobalId, 4>{p, q, r, s};
    }
    [[nodiscard]] std::array<double, 3> position(GlobalId id) const {
        const auto local = id - first;
        const double h = (b - a) / n;
        return {a + h * static_cast<double>(local % (n + 1)),
                a + h * static_cast<double>(local / (n + 1)), z};
    }
};

struct Rank {
    contact::mpi::RankNodes nodes;
    contact::mpi::SurfacePart master, slave;
    std::vector<double> x;  // interleaved
};

// The segments k with k % size == rank of each grid, with the nodes they use.
Rank partOf(const Grid& m, const Grid& s, int rank, int size) {
    Rank out;
    std::vector<GlobalId>& ids = out.nodes.ids;
    const auto take = [&](const Grid& g, contact::mpi::SurfacePart& part) {
        for (int k = rank; k < g.n * g.n; k += size) {
            Index v[4];
            const std::array<GlobalId, 4> seg = g.segment(k);
            for (int c = 0; c < 4; ++c) {
                auto it = std::find(ids.begin(), ids.end(), seg[c]);
                if (it == ids.end()) {
                    ids.push_back(seg[c]);
                    for (const double p : g.position(seg[c])) {
                        out.x.push_back(p);
                    }
                    it = ids.end() - 1;
                }
                v[c] = static_cast<Index>(it - ids.begin());
            }
            part.surface.addSegment(contact::SegmentType::Quad4, v, 4);
            part.ids.push_back(k);
        }
    };
    take(m, out.master);
    take(s, out.slave);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const Grid master{4, 0.0, 1.0, 0.0, false, 0};
    const Grid slave{3, 0.1, 0.9, 0.02, true, master.nodes()};
    const Rank part = partOf(master, slave, rank, size);
    const auto x = contact::CoordinatesView::interleaved(
        part.x.data(), static_cast<Index>(part.nodes.ids.size()), 3);
    bool ok = true;
    {
        contact::SearchOptions o;
        o.capture = 0.05;
        o.captureRelative = false;
        contact::mpi::DistributedSearch search(MPI_COMM_WORLD, o);
        search.setSurfaces(part.nodes, part.master, part.slave, x);
        ok = search.update(x).status == contact::UpdateStatus::kOk;
        const contact::mpi::GlobalNodePairs& p = search.nodePairs();
        long long pairs = p.size();
        for (Index i = 0; i < p.size(); ++i) {
            ok = ok && std::abs(p.gap()[i] - 0.02) < 1e-14;
        }
        MPI_Allreduce(MPI_IN_PLACE, &pairs, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        ok = ok && pairs == 16;

        o.mode = contact::SearchMode::kSegmentToSegment;
        contact::mpi::DistributedSearch segments(MPI_COMM_WORLD, o);
        segments.setSurfaces(part.nodes, part.master, part.slave, x);
        ok = ok && segments.update(x).status == contact::UpdateStatus::kOk;
        contact::mpi::DistributedMortar mortar;
        (void)mortar.compute(segments);
        double area = 0.0;
        for (const double a : mortar.operators().nodalArea) {
            area += a;
        }
        MPI_Allreduce(MPI_IN_PLACE, &area, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        ok = ok && std::abs(area - 0.64) < 1e-12;
        int good = ok ? 1 : 0;
        MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ok = good != 0;
        if (rank == 0) {
            std::printf("consumer_mpi: %d ranks, %lld pairs, mortar area %.6f: %s\n", size, pairs,
                        area, ok ? "OK" : "FAILED");
        }
    }
#ifdef __SANITIZE_ADDRESS__
    __lsan_do_leak_check();  // while OpenMPI's components are loaded (lsan_openmpi.supp)
#endif
    MPI_Finalize();
    return ok ? 0 : 1;
}
