// SPDX-License-Identifier: MIT
// bench_generate: writes a benchmark model as Abaqus .inp or Gmsh .msh 4.1, so that the
// contact-search tool runs on the same models as the benchmarks.
//   bench_generate --kind wavy_quad4 --size 100000 --out /tmp/x.inp [--seed 1] [--force]
#include "mesh_io/output.hpp"

#include "generators.hpp"

#include <climits>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

namespace {

int usage(const char* why) {
    if (why != nullptr) {
        std::fprintf(stderr, "bench_generate: %s\n", why);
    }
    std::fprintf(stderr,
                 "usage: bench_generate --kind KIND --size SEGMENTS --out FILE.inp|FILE.msh "
                 "[--seed N] [--force]\n  SEGMENTS per surface: 1 to %ld; --force replaces an "
                 "existing FILE\nkinds:",
                 contact::bench::kMaxSegments);
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

// The whole of text as a decimal integer in [lo, hi]; else an exception naming the option.
long long parseInteger(const std::string& option, const std::string& text, long long lo,
                       long long hi) {
    long long v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec == std::errc::invalid_argument || (ec == std::errc{} && ptr != end)) {
        throw std::invalid_argument(option + " wants a whole number, got '" + text + "'");
    }
    if (ec == std::errc::result_out_of_range || v < lo || v > hi) {
        throw std::invalid_argument(option + " " + text + " is out of range: " +
                                    std::to_string(lo) + " to " + std::to_string(hi));
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    std::string kind;
    std::string out;
    long size = 0;
    unsigned seed = 1;
    mesh_io::WriteOptions write;
    write.overwriteOption = "--force";
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--help" || a == "-h") {
                return usage(nullptr), 0;
            }
            if (a == "--force") {
                write.overwrite = true;
                continue;
            }
            if (i + 1 >= argc) {
                return usage(("missing value after " + a).c_str());
            }
            const std::string v = argv[++i];
            if (a == "--kind") {
                kind = v;
            } else if (a == "--size") {
                size = static_cast<long>(parseInteger(a, v, 1, contact::bench::kMaxSegments));
            } else if (a == "--out") {
                out = v;
            } else if (a == "--seed") {
                seed = static_cast<unsigned>(parseInteger(a, v, 0, UINT_MAX));
            } else {
                return usage(("unknown option " + a).c_str());
            }
        }
    } catch (const std::invalid_argument& e) {
        return usage(e.what());
    }
    if (kind.empty() || out.empty() || size <= 0) {
        return usage("--kind, --size and --out are required");
    }
    if (!endsWith(out, ".inp") && !endsWith(out, ".msh")) {
        return usage("--out must end in .inp or .msh");
    }
    const auto& kinds = contact::bench::sceneKinds();
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
        return usage(("unknown --kind '" + kind + "'").c_str());
    }
    try {
        (void)mesh_io::checkOutputs({out}, write);  // a refused --out costs no model
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_generate: --out: %s\n", e.what());
        return 2;
    }
    contact::bench::Scene sc;
    try {
        sc = contact::bench::makeScene(kind, size, seed);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "bench_generate: out of memory building the model of --size %ld\n",
                     size);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_generate: %s\n", e.what());
        return 2;
    }
    try {
        if (endsWith(out, ".inp")) {
            contact::bench::writeAbaqus(sc, out, write);
        } else {
            contact::bench::writeGmsh(sc, out, write);
        }
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "bench_generate: out of memory writing %s (--size %ld)\n", out.c_str(),
                     size);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_generate: --out: %s\n", e.what());
        return 2;
    }
    std::printf("%s: %s, %s, %zu nodes, mean edge %.6g\n", out.c_str(), kind.c_str(),
                contact::bench::describeSurfaces(sc).c_str(), sc.mesh.nodes.size(), sc.meanEdge);
    return 0;
}
