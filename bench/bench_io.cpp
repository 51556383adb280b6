// SPDX-License-Identifier: MIT
// Reading the generated models: Abaqus .inp and Gmsh .msh 4.1 ASCII (MB/s as bytes_per_second),
// and building the contact surfaces from them. Files go to $TMPDIR (default /tmp) and are removed.
#include "mesh_io/abaqus.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/gmsh.hpp"

#include "bench_common.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace contact;

std::string tempPath(const std::string& kind, long size, const char* ext) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/contact_bench_" + kind + "_" +
           std::to_string(size) + "_" + std::to_string(getpid()) + ext;
}

// The file of a run before (same size, same process id) is replaced.
mesh_io::WriteOptions replace() {
    mesh_io::WriteOptions w;
    w.overwrite = true;
    return w;
}

long fileSize(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : 0;
}

void BM_Read(benchmark::State& state, const std::string& kind, bool abaqus) {
    const long size = state.range(0);
    const std::string path = tempPath(kind, size, abaqus ? ".inp" : ".msh");
    {
        const bench::Scene sc = bench::makeScene(kind, size);
        abaqus ? bench::writeAbaqus(sc, path, replace()) : bench::writeGmsh(sc, path, replace());
    }
    const long bytes = fileSize(path);
    long segments = 0;
    for (auto _ : state) {
        const mesh_io::Model model = abaqus ? mesh_io::readAbaqus(path) : mesh_io::readGmsh(path);
        segments = model.numElements();
        benchmark::DoNotOptimize(model.coords.data());
    }
    std::remove(path.c_str());
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["elements"] = static_cast<double>(segments);
}

void BM_ReadAndBuildSurfaces(benchmark::State& state, const std::string& kind) {
    const long size = state.range(0);
    const std::string path = tempPath(kind, size, ".inp");
    {
        const bench::Scene sc = bench::makeScene(kind, size);
        bench::writeAbaqus(sc, path, replace());
    }
    const long bytes = fileSize(path);
    for (auto _ : state) {
        const mesh_io::Model model = mesh_io::readAbaqus(path);
        const auto master = mesh_io::buildContactSurface(model, "MASTER");
        const auto slave = mesh_io::buildContactSurface(model, "SLAVE");
        benchmark::DoNotOptimize(master.surface.size() + slave.surface.size());
    }
    std::remove(path.c_str());
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
}

void registerAll() {
    for (const char* kind : {"wavy_quad4", "wavy_line2"}) {
        for (long n : bench::benchSizes()) {
            const std::string k = kind;
            benchmark::RegisterBenchmark(("Read/" + k + "/inp").c_str(), BM_Read, k, true)
                ->Arg(n)
                ->Unit(benchmark::kMillisecond)
                ->MinTime(0.3)
                ->UseRealTime();
            benchmark::RegisterBenchmark(("Read/" + k + "/msh").c_str(), BM_Read, k, false)
                ->Arg(n)
                ->Unit(benchmark::kMillisecond)
                ->MinTime(0.3)
                ->UseRealTime();
        }
    }
    for (long n : bench::benchSizes()) {
        benchmark::RegisterBenchmark("ReadAndSurfaces/wavy_quad4/inp", BM_ReadAndBuildSurfaces,
                                     std::string("wavy_quad4"))
            ->Arg(n)
            ->Unit(benchmark::kMillisecond)
            ->MinTime(0.3)
            ->UseRealTime();
    }
}

}  // namespace

int main(int argc, char** argv) { return contact::bench::runBenchmarks(argc, argv, registerAll); }
