// SPDX-License-Identifier: MIT
// The search across MPI ranks on a generated model, under mpiexec: times per stage (partition,
// ghost exchange, coordinates, search, return of the pairs), bytes sent and ghost segments per
// rank. The solver's partition is contiguous blocks of segment ids (what a solver's own
// numbering gives); the contact decomposition is the search's RCB.
//
//   mpiexec -n P bench_distributed [--kind wavy_quad4] [--size N] [--updates K]
//                                  [--serial | --serial-only] [--json FILE]
// --serial (one rank): also times the serial ContactSearch on the same model and updates, after
// the distributed search (in memory it freed); --serial-only: the serial search alone, in a
// fresh process (its set-up's page faults as a solver's first call would have them).
// OpenMPI binds each rank to one core unless run with `--bind-to none`; the effective cores are
// measured on threads free of that binding (what the machine gives, not what the binding allows).
#include "contact/contact_search.hpp"

#include "contact_mpi/distributed_search.hpp"
#include "generators.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

using contact::Index;
using Clock = std::chrono::steady_clock;
namespace mpi = contact::mpi;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A fixed busy loop on a new thread that may run on any CPU of the machine (mpiexec binds each
// rank to one core by default: the measurement must not inherit that). Returns its wall time, ms.
double spinAnywhere() {
    double ms = 0.0;
    std::thread t([&ms] {
        cpu_set_t all;
        CPU_ZERO(&all);
        for (unsigned c = 0; c < std::thread::hardware_concurrency() && c < CPU_SETSIZE; ++c) {
            CPU_SET(c, &all);
        }
        pthread_setaffinity_np(pthread_self(), sizeof all, &all);
        const auto t0 = Clock::now();
        volatile double x = 1.0;
        for (long i = 0; i < 200000000L; ++i) {
            x = x * 1.0000001 + 1e-9;
        }
        ms = msSince(t0);
    });
    t.join();
    return ms;
}

// Waits for the other ranks without spinning (MPI's own waits poll a core).
void sleepyBarrier(MPI_Comm comm) {
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &r);
    int done = 0;
    while (MPI_Test(&r, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// Cores the machine gives the job now: the busy loop alone (rank 0, the others asleep), then
// two at once (on two ranks, or two threads of one rank): 2 x alone / together. Near 2 on two
// free cores, near 1 when the other engineers' work takes one.
double effectiveCores(MPI_Comm comm) {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double alone = 0.0;
    if (rank == 0) {
        alone = spinAnywhere();
    }
    sleepyBarrier(comm);
    double together = 0.0;
    if (size == 1) {
        double other = 0.0;
        std::thread t([&other] { other = spinAnywhere(); });
        together = spinAnywhere();
        t.join();
        together = std::max(together, other);
    } else {
        if (rank < 2) {
            together = spinAnywhere();
        }
        MPI_Allreduce(MPI_IN_PLACE, &together, 1, MPI_DOUBLE, MPI_MAX, comm);
    }
    sleepyBarrier(comm);
    return 2.0 * alone / together;
}

// CPUs this process may run on (1 when mpiexec bound it to a core).
int boundCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

struct Part {
    mpi::RankNodes nodes;
    mpi::SurfacePart master;
    mpi::SurfacePart slave;
    std::vector<Index> global;  // model node of each local node
};

// Segments [k * n / p, (k + 1) * n / p) on rank k, their nodes with them (lowest rank owns).
Part partOf(const contact::bench::Scene& sc, int rank, int size) {
    const Index n = static_cast<Index>(sc.mesh.nodes.size());
    std::vector<Index> local(static_cast<std::size_t>(n), -1);
    Part p;
    const auto take = [&](const contact::Surface& s, mpi::SurfacePart& out) {
        out.surface.name = s.name;
        const long long count = s.size();
        const auto first = static_cast<Index>(count * rank / size);
        const auto last = static_cast<Index>(count * (rank + 1) / size);
        for (Index k = first; k < last; ++k) {
            Index v[contact::kMaxSegmentNodes];
            for (int i = 0; i < contact::nodeCount(s.types[k]); ++i) {
                Index& l = local[s.nodes(k)[i]];
                if (l < 0) {
                    l = static_cast<Index>(p.global.size());
                    p.global.push_back(s.nodes(k)[i]);
                    p.nodes.ids.push_back(s.nodes(k)[i]);
                }
                v[i] = l;
            }
            out.surface.addSegment(s.types[k], v, contact::nodeCount(s.types[k]));
            out.ids.push_back(k);
        }
    };
    take(sc.master, p.master);
    take(sc.self ? sc.master : sc.slave, p.slave);
    return p;
}

// Coordinates at update t: the slave side moves down by 1/500 of an edge per update.
void coordinatesAt(const contact::bench::Scene& sc, const Part& p, int t, std::vector<double>& x) {
    x.resize(3 * p.global.size());
    for (std::size_t i = 0; i < p.global.size(); ++i) {
        const Eigen::Vector3d& q = sc.mesh.nodes[p.global[i]];
        x[3 * i] = q[0];
        x[3 * i + 1] = q[1];
        x[3 * i + 2] = q[2] - (q[2] > 0.0 ? 0.002 * sc.meanEdge * t : 0.0);
    }
}

struct RankRow {  // what each rank reports (gathered on rank 0)
    double owned, ghosts, slaveItems, setupBytes, repartitionBytes, ghostBytes, updateBytes;
    double timePartition, timeGhosts, timeSetup, setupFaults, timeCoordinates, timeCheck,
        timeSearch, timeResults, timeUpdate, cpuUpdate;
};

// Page faults of this process so far (fresh pages: on some virtual machines tens of microseconds
// each, the larger part of a set-up).
double pageFaults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_minflt + u.ru_majflt);
}

// CPU time of this process, ms: what an update costs whatever else the machine runs (MPI waits
// spin, so a rank that waits for another is charged as if it had the core to itself).
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::string kind = "wavy_quad4";
    long segments = 100000;
    int updates = 5;
    bool serial = false;
    bool serialOnly = false;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--kind" && i + 1 < argc) {
            kind = argv[++i];
        } else if (a == "--size" && i + 1 < argc) {
            segments = std::atol(argv[++i]);
        } else if (a == "--updates" && i + 1 < argc) {
            updates = std::atoi(argv[++i]);
        } else if (a == "--serial") {
            serial = true;
        } else if (a == "--serial-only") {
            serial = true;
            serialOnly = true;
        } else if (a == "--json" && i + 1 < argc) {
            json = argv[++i];
        } else {
            if (rank == 0) {
                std::fprintf(stderr, "bench_distributed: unknown argument '%s'\n", a.c_str());
            }
            MPI_Finalize();
            return 2;
        }
    }
    const double cores = effectiveCores(MPI_COMM_WORLD);
    int bound = boundCpus();
    MPI_Allreduce(MPI_IN_PLACE, &bound, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    const contact::bench::Scene sc = contact::bench::makeScene(kind, segments);
    const Part p = partOf(sc, rank, size);
    contact::SearchOptions opt;
    opt.selfContact = sc.self;

    std::vector<double> x;
    coordinatesAt(sc, p, 0, x);
    const auto view = [&] {
        return contact::CoordinatesView::interleaved(x.data(), static_cast<Index>(x.size() / 3), 3);
    };
    RankRow row{};
    long long pairs = 0;
    int repartitions = 0;
    auto t0 = Clock::now();
    if (!serialOnly) {
        auto owned = std::make_unique<mpi::DistributedSearch>(MPI_COMM_WORLD, opt);
        mpi::DistributedSearch& search = *owned;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = Clock::now();
        const double faults0 = pageFaults();
        search.setSurfaces(p.nodes, p.master, p.slave, view());
        const double setupFaults = pageFaults() - faults0;
        MPI_Barrier(MPI_COMM_WORLD);
        const double timeSetup = msSince(t0);
        const mpi::DistributedStats setup = search.setupStats();
        row.owned = setup.ownedMasters;
        row.ghosts = setup.ghostMasters;
        row.slaveItems = setup.slaveItems;
        row.setupBytes = static_cast<double>(setup.bytesSent);
        row.repartitionBytes = static_cast<double>(setup.repartitionBytes);
        row.ghostBytes = static_cast<double>(setup.ghostBytes);
        row.timePartition = setup.timePartition;
        row.timeGhosts = setup.timeGhosts;
        row.timeSetup = timeSetup;
        row.setupFaults = setupFaults;
        for (int t = 0; t < updates; ++t) {
            coordinatesAt(sc, p, t, x);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = Clock::now();
            const double c0 = cpuMs();
            const mpi::DistributedStats st = search.update(view());
            const double cpu = cpuMs() - c0;
            MPI_Barrier(MPI_COMM_WORLD);
            const double wall = msSince(t0);
            if (st.status != contact::UpdateStatus::kOk) {
                std::fprintf(stderr, "rank %d: update failed: %s\n", rank,
                             contact::updateStatusName(st.status));
            }
            repartitions += st.repartitioned ? 1 : 0;
            if (t > 0 || updates == 1) {  // the first update builds the serial search's lists
                const double k = updates == 1 ? 1.0 : 1.0 / (updates - 1);
                row.updateBytes += k * static_cast<double>(st.bytesSent);
                row.timeCoordinates += k * st.timeCoordinates;
                row.timeCheck += k * st.timeCheck;
                row.timeSearch += k * st.timeSearch;
                row.timeResults += k * st.timeResults;
                row.timeUpdate += k * wall;
                row.cpuUpdate += k * cpu;
            }
            pairs = st.pairs;
        }
        owned.reset();  // collective: before MPI_Finalize
    }
    MPI_Allreduce(MPI_IN_PLACE, &pairs, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    std::vector<RankRow> rows(static_cast<std::size_t>(size));
    MPI_Gather(&row, sizeof row, MPI_BYTE, rows.data(), sizeof row, MPI_BYTE, 0, MPI_COMM_WORLD);

    double serialSetup = 0.0;
    double serialUpdate = 0.0;
    double serialCpu = 0.0;
    double serialFaults = 0.0;
    if (serial && size == 1) {
        contact::ContactSearch s(opt);
        const Eigen::Matrix3Xd x0 = sc.coords3();
        t0 = Clock::now();
        const double f0 = pageFaults();
        s.setSurfaces(sc.master, sc.slave, x0);
        serialFaults = pageFaults() - f0;
        serialSetup = msSince(t0);
        for (int t = 0; t < updates; ++t) {
            Eigen::Matrix3Xd xt = x0;
            for (Index i = 0; i < xt.cols(); ++i) {
                xt(2, i) -= xt(2, i) > 0.0 ? 0.002 * sc.meanEdge * t : 0.0;
            }
            t0 = Clock::now();
            const double c0 = cpuMs();
            const contact::UpdateStats st = s.update(xt);
            const double cpu = cpuMs() - c0;
            const double ms = msSince(t0);
            if (t > 0 || updates == 1) {
                serialUpdate += ms / (updates == 1 ? 1 : updates - 1);
                serialCpu += cpu / (updates == 1 ? 1 : updates - 1);
            }
            (void)st;
        }
    }

    const double coresEnd = effectiveCores(MPI_COMM_WORLD);
    if (rank == 0) {
        std::printf("model %s, %d master + %d slave segments, %d ranks, %d updates, pairs %lld, "
                    "repartitions in updates %d, effective cores %.2f (start) %.2f (end), "
                    "a rank may run on %d CPUs\n",
                    kind.c_str(), static_cast<int>(sc.master.size()),
                    static_cast<int>(sc.slave.size()), size, updates, pairs, repartitions, cores,
                    coresEnd, bound);
        std::printf("rank  owned  ghosts  slave  setupMB  repartMB  ghostMB  updateMB | "
                    "partition  ghosts  setup  faults | coords  check  search  results  update "
                    "[ms] cpu\n");
        for (int r = 0; r < size; ++r) {
            const RankRow& w = rows[r];
            std::printf("%4d %7.0f %7.0f %7.0f %8.2f %9.2f %8.3f %9.3f | %9.1f %7.1f %6.1f %7.0f | "
                        "%6.1f %6.1f %7.1f %8.1f %7.1f %7.1f\n",
                        r, w.owned, w.ghosts, w.slaveItems, w.setupBytes / 1e6,
                        w.repartitionBytes / 1e6, w.ghostBytes / 1e6, w.updateBytes / 1e6,
                        w.timePartition, w.timeGhosts, w.timeSetup, w.setupFaults,
                        w.timeCoordinates, w.timeCheck, w.timeSearch, w.timeResults, w.timeUpdate,
                        w.cpuUpdate);
        }
        if (serial && size == 1) {
            std::printf("serial ContactSearch: setSurfaces %.1f ms (%.0f page faults), update %.1f "
                        "ms (cpu %.1f ms)\n",
                        serialSetup, serialFaults, serialUpdate, serialCpu);
        }
        if (!json.empty()) {
            if (FILE* f = std::fopen(json.c_str(), "w")) {
                std::fprintf(f,
                             "{\"kind\": \"%s\", \"segments\": %ld, \"ranks\": %d, \"pairs\": %lld,"
                             " \"effective_cores\": %.3f, \"effective_cores_end\": %.3f,"
                             " \"bound_cpus\": %d, \"serial_update_ms\": %.3f,"
                             " \"serial_setup_ms\": %.3f, \"serial_setup_faults\": %.0f,"
                             " \"serial_update_cpu_ms\": %.3f, \"rows\": [",
                             kind.c_str(), segments, size, pairs, cores, coresEnd, bound,
                             serialUpdate, serialSetup, serialFaults, serialCpu);
                for (int r = 0; r < size; ++r) {
                    const RankRow& w = rows[r];
                    std::fprintf(
                        f,
                        "%s\n {\"rank\": %d, \"owned\": %.0f, \"ghosts\": %.0f, \"slave\": "
                        "%.0f, \"setup_bytes\": %.0f, \"repartition_bytes\": %.0f, "
                        "\"ghost_bytes\": %.0f, \"update_bytes\": %.0f, \"partition_ms\": "
                        "%.3f, \"ghosts_ms\": %.3f, \"setup_ms\": %.3f, \"setup_faults\": %.0f, "
                        "\"coordinates_ms\": "
                        "%.3f, \"check_ms\": %.3f, \"search_ms\": %.3f, \"results_ms\": "
                        "%.3f, \"update_ms\": %.3f}",
                        r == 0 ? "" : ",", r, w.owned, w.ghosts, w.slaveItems, w.setupBytes,
                        w.repartitionBytes, w.ghostBytes, w.updateBytes, w.timePartition,
                        w.timeGhosts, w.timeSetup, w.setupFaults, w.timeCoordinates, w.timeCheck,
                        w.timeSearch, w.timeResults, w.timeUpdate);
                }
                std::fprintf(f, "\n]}\n");
                std::fclose(f);
            }
        }
    }
    MPI_Finalize();
    return 0;
}
