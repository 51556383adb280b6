// SPDX-License-Identifier: MIT
// bench_generate: writes a benchmark model as Abaqus .inp or Gmsh .msh 4.1, so that the
// contact-search tool runs on the same models as the benchmarks.
//   bench_generate --kind wavy_quad4 --size 100000 --out /tmp/x.inp [--seed 1]
#include "generators.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

int usage(const char* why) {
    if (why != nullptr) {
        std::fprintf(stderr, "bench_generate: %s\n", why);
    }
    std::fprintf(stderr,
                 "usage: bench_generate --kind KIND --size SEGMENTS --out FILE.inp|FILE.msh "
                 "[--seed N]\nkinds:");
    for (const auto& k : contact::bench::sceneKinds()) {
        std::fprintf(stderr, " %s", k.c_str());
    }
    std::fprintf(stderr, "\n");
    return 2;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string kind;
    std::string out;
    long size = 0;
    unsigned seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            return usage(nullptr), 0;
        }
        if (i + 1 >= argc) {
            return usage(("missing value after " + a).c_str());
        }
        const std::string v = argv[++i];
        if (a == "--kind") {
            kind = v;
        } else if (a == "--size") {
            size = std::strtol(v.c_str(), nullptr, 10);
        } else if (a == "--out") {
            out = v;
        } else if (a == "--seed") {
            seed = static_cast<unsigned>(std::strtoul(v.c_str(), nullptr, 10));
        } else {
            return usage(("unknown option " + a).c_str());
        }
    }
    if (kind.empty() || out.empty() || size <= 0) {
        return usage("--kind, --size > 0 and --out are required");
    }
    try {
        const contact::bench::Scene sc = contact::bench::makeScene(kind, size, seed);
        if (endsWith(out, ".inp")) {
            contact::bench::writeAbaqus(sc, out);
        } else if (endsWith(out, ".msh")) {
            contact::bench::writeGmsh(sc, out);
        } else {
            return usage("--out must end in .inp or .msh");
        }
        std::printf("%s: %s, %d master and %d slave segments, %zu nodes, mean edge %.6g\n",
                    out.c_str(), kind.c_str(), sc.master.size(), sc.self ? 0 : sc.slave.size(),
                    sc.mesh.nodes.size(), sc.meanEdge);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_generate: %s\n", e.what());
        return 2;
    }
    return 0;
}
