// SPDX-License-Identifier: MIT
// Out of memory on one rank in the middle of a collective call: the job ends through MPI_Abort
// with a message naming the rank and the call, instead of the other ranks waiting forever
// (ctest: the message is checked, and the timeout catches a hang). Every large allocation of the
// last rank fails from setSurfaces on.
#include "contact_mpi/distributed_search.hpp"
#include "surfaces.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
std::atomic<bool> g_fail{false};  // every allocation of 256 bytes or more fails
}  // namespace

void* operator new(std::size_t n) {
    if (n >= 256 && g_fail.load()) {
        throw std::bad_alloc();
    }
    void* p = std::malloc(n != 0 ? n : 1);
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // The whole model on rank 0; the others give empty parts.
    using contact::Index;
    contact::testing::Mesh mesh;
    contact::Surface master = contact::testing::addPatch(
        mesh, contact::SegmentType::Quad4, 12, 12,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false, "master");
    contact::Surface slave = contact::testing::addPatch(
        mesh, contact::SegmentType::Quad4, 11, 11,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.01); }, true, "slave");
    const Eigen::Matrix3Xd x = mesh.coords3();
    contact::mpi::RankNodes nodes;
    contact::mpi::SurfacePart m;
    contact::mpi::SurfacePart s;
    std::vector<double> xyz;
    if (rank == 0) {
        for (Index i = 0; i < x.cols(); ++i) {
            nodes.ids.push_back(i + 1);
            xyz.insert(xyz.end(), {x(0, i), x(1, i), x(2, i)});
        }
        m.surface = master;
        s.surface = slave;
        for (Index k = 0; k < master.size(); ++k) {
            m.ids.push_back(k + 1);
        }
        for (Index k = 0; k < slave.size(); ++k) {
            s.ids.push_back(k + 1);
        }
    }
    const auto view =
        contact::CoordinatesView::interleaved(xyz.data(), static_cast<Index>(nodes.ids.size()), 3);
    contact::mpi::DistributedSearch search(MPI_COMM_WORLD);
    g_fail = rank == size - 1;
    try {
        search.setSurfaces(nodes, m, s, view);
        (void)search.update(view);
    } catch (const std::invalid_argument& e) {  // a failure every rank agreed on
        std::printf("rank %d: refused: %s\n", rank, e.what());
    }
    g_fail = false;
    std::printf("rank %d: no abort\n", rank);
    MPI_Finalize();
    return 0;
}
