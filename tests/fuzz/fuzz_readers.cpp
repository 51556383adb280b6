// SPDX-License-Identifier: MIT
// Fuzz targets for the mesh readers: any bytes give a model or a ParseError, never a crash, a hang,
// a leak or another exception. FUZZ_FORMAT selects the reader (1: .inp, 2: .msh).
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/model.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

// The readers take paths (*INCLUDE resolves relative to them): the input goes to a private file,
// removed when the process exits.
struct ScratchFile {
    std::string path;
    ScratchFile() {
        const char* dir = std::getenv("TMPDIR");
        path = std::string(dir != nullptr ? dir : "/tmp") + "/contact-fuzz-" +
               std::to_string(::getpid()) + (FUZZ_FORMAT == 1 ? ".inp" : ".msh");
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    ~ScratchFile() { std::remove(path.c_str()); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const ScratchFile scratch;
    const std::string& path = scratch.path;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
        return 0;
    }
    if (size > 0 && std::fwrite(data, 1, size, f) != size) {
        std::fclose(f);
        return 0;
    }
    std::fclose(f);
    try {
        const mesh_io::Model m = mesh_io::readModel(path);
        // Whatever was read must also build into surfaces or fail with a clear error.
        for (const auto& s : m.surfaces) {
            try {
                (void)mesh_io::buildContactSurface(m, s.name);
            } catch (const mesh_io::ParseError&) {
            } catch (const std::invalid_argument&) {
            }
        }
    } catch (const mesh_io::ParseError&) {
        // The expected answer to bad input.
    }
    return 0;
}
