// SPDX-License-Identifier: MIT
// Fuzz targets for the mesh readers: any bytes give a model or a ParseError, never a crash, a hang,
// a leak or another exception. FUZZ_FORMAT selects the reader (1: .inp, 2: .msh).
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/model.hpp"

#include "scratch.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

#if FUZZ_FORMAT == 1
// The files the *INCLUDE seeds name (the corpus's abaqus_*include* files, from tests/data/abaqus),
// beside the scratch file, so that an input reaches the include code: nested files, a cycle, an
// error inside an included file. As in tests/data, but bad_include_cycle_a.inp without its node:
// read after the seed that is its copy, that node would be defined twice before the cycle shows.
const char* const kIncludeTree[][2] = {
    {"bad_include_cycle_a.inp",
     "** includes bad_include_cycle_b.inp, which includes this file again\n"
     "*INCLUDE, INPUT=bad_include_cycle_b.inp\n"},
    {"bad_include_cycle_b.inp", "** included by bad_include_cycle_a.inp\n2, 1.0, 0.0, 0.0\n"
                                "*INCLUDE, INPUT=./bad_include_cycle_a.inp\n"},
    {"include/nodes.inp",
     "** node data lines only, read under the *NODE of include_main.inp\n1, 0.0, 0.0, 0.0\n"
     "2, 1.0, 0.0, 0.0\n3, 0.0, 1.0, 0.0\n4, 0.0, 0.0, 1.0\n"},
    {"include/elements.inp",
     "** keywords inside an included file\n*ELEMENT, TYPE=C3D4, ELSET=TETS\n1, 1, 2, 3, 4\n"
     "2, 2, 3, 4, 5\n*MATERIAL, NAME=STEEL\n"},
    {"include/bad_coordinates.inp",
     "** included by bad_include_error_main.inp\n2, 1.0, 0.0, 0.0\n3, 0.0, 1.0, 0.0\n"
     "4, 0.0, 0.0, one\n"},
};
#endif

// The readers take paths (*INCLUDE resolves relative to them): the input goes to a file in a
// private directory, beside the include tree for .inp.
struct Scratch {
    fuzz::ScratchDir dir;
    Scratch() {
#if FUZZ_FORMAT == 1
        for (const auto& file : kIncludeTree) {
            (void)dir.write(file[0], file[1]);
        }
#endif
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Scratch scratch;
    const std::string path =
        scratch.dir.write(FUZZ_FORMAT == 1 ? "input.inp" : "input.msh", data, size);
    try {
        const mesh_io::Model m = mesh_io::readModel(path);
        if (fuzz::verbose()) {
            std::fprintf(stderr, "fuzz: read %d nodes, %d elements\n", m.numNodes(),
                         m.numElements());
        }
        // Whatever was read must also build into surfaces or fail with a clear error.
        for (const auto& s : m.surfaces) {
            try {
                (void)mesh_io::buildContactSurface(m, s.name);
            } catch (const mesh_io::ParseError&) {
            } catch (const std::invalid_argument&) {
            }
        }
    } catch (const mesh_io::ParseError& e) {
        // The expected answer to bad input.
        if (fuzz::verbose()) {
            std::fprintf(stderr, "fuzz: %s\n", e.what());
        }
    }
    return 0;
}
