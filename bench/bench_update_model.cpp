// SPDX-License-Identifier: MIT
// bench_update_model: ContactSearch::update() on the first interface of a model file, the C++
// side of the Python call-overhead comparison (bench/bench_python_overhead.py runs both).
//   bench_update_model --model FILE [--threads N] [Google Benchmark flags]
// Cases: rebuild (skinRelative 0: a new candidate list every update) and reuse (skinRelative 0.1,
// unchanged coordinates: the Verlet list is kept, the projections run again).
#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

namespace {

struct Interface {
    mesh_io::Model model;
    mesh_io::ContactSurface master;
    mesh_io::ContactSurface slave;
    int threads = 1;
};

std::unique_ptr<Interface> theInterface;

void update(benchmark::State& state, double skinRelative) {
    const Interface& itf = *theInterface;
    contact::SearchOptions options;
    options.skinRelative = skinRelative;
    options.threads = itf.threads;
    contact::ContactSearch search(options);
    const contact::CoordinatesView x(itf.model.coords);
    search.setSurfaces(itf.master.surface, itf.slave.surface, x);
    if (search.update(x).status != contact::UpdateStatus::kOk) {
        state.SkipWithError("the first update failed");
        return;
    }
    contact::Index pairs = 0;
    for (auto _ : state) {
        const contact::UpdateStats st = search.update(x);
        pairs = st.pairs;
        benchmark::DoNotOptimize(st);
    }
    state.counters["pairs"] = pairs;
    state.counters["master_segments"] = itf.master.surface.size();
    state.counters["slave_segments"] = itf.slave.surface.size();
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    std::string path;
    int threads = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--model" && i + 1 < argc) {
            path = argv[++i];
        } else if (a == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "bench_update_model: unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    if (path.empty() || threads < 1) {
        std::fprintf(stderr, "usage: bench_update_model --model FILE [--threads N] [benchmark "
                             "flags]\n");
        return 2;
    }
    try {
        theInterface = std::make_unique<Interface>();
        theInterface->model = mesh_io::readModel(path);
        if (theInterface->model.interfaces.empty()) {
            std::fprintf(stderr, "bench_update_model: %s defines no *CONTACT PAIR\n", path.c_str());
            return 2;
        }
        const mesh_io::InterfaceDef& d = theInterface->model.interfaces.front();
        theInterface->master = mesh_io::buildContactSurface(theInterface->model, d.master);
        theInterface->slave = mesh_io::buildContactSurface(theInterface->model, d.slave);
        theInterface->threads = threads;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_update_model: %s\n", e.what());
        return 2;
    }
    benchmark::RegisterBenchmark("update/rebuild", update, 0.0)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("update/reuse", update, 0.1)->Unit(benchmark::kMillisecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
