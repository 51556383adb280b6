// SPDX-License-Identifier: MIT
// Fuzz target for the Exodus II reader. The bytes choose a small model (dimension, element types,
// node count, coordinates, connectivity, node and element number maps, side sets, node sets,
// names), which the exodusII library writes to a scratch file; reading it must give a model or a
// ParseError, and every surface must build or fail with a clear error, never a crash or a hang.
// The bytes drive the arrays our reader checks (node numbers, element numbers, sides, ids, counts
// of a block against the file's), not the netCDF container: that parser is the library's, and
// random bytes there would test it rather than us.
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/model.hpp"

#include "scratch.hpp"

#include <exodusII.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Reads values from the input, zeros once it is used up.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
    int below(int n) { return n > 0 ? byte() % n : 0; }
    std::int32_t int32() {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            v = (v << 8) | byte();
        }
        return static_cast<std::int32_t>(v);
    }
    double number() {  // mostly small multiples of 0.25, sometimes any double (NaN, Inf, ...)
        if (byte() % 16 != 0) {
            return 0.25 * (byte() % 16);
        }
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) {
            bits = (bits << 8) | byte();
        }
        double v = 0.0;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    // A reference into 1..n, or (rarely) anything: 0, n + 1, negative, huge.
    int reference(int n) { return byte() % 8 != 0 ? 1 + below(n) : int32(); }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

struct Type {
    const char* name;
    int nodes;
};

const Type kTypes[] = {
    {"HEX8", 8},     {"HEX20", 20}, {"TETRA4", 4}, {"TETRA10", 10},  {"WEDGE6", 6},
    {"WEDGE15", 15}, {"QUAD4", 4},  {"QUAD8", 8},  {"QUAD9", 9},     {"TRI3", 3},
    {"TRI6", 6},     {"SHELL4", 4}, {"SHELL8", 8}, {"TRISHELL3", 3}, {"SPHERE", 1},
    {"BAR2", 2},     {"HEX", 8},    {"HEX", 27},   {"TET", 4},       {"quad", 4},
};

// Writes the model the bytes describe; false when the library refuses it.
bool write(const std::string& path, Bytes& in) {
    const int dim = 2 + in.below(2);
    const int nodes = 1 + in.below(24);
    const int blocks = 1 + in.below(2);
    const Type* types[2] = {&kTypes[in.below(std::size(kTypes))],
                            &kTypes[in.below(std::size(kTypes))]};
    int counts[2] = {in.below(6), in.below(6)};
    const int elements = counts[0] + (blocks > 1 ? counts[1] : 0);
    const int sideSets = in.below(3);
    const int nodeSets = in.below(2);
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
    if (id < 0) {  // before any byte is used: the scratch directory, not the input
        fuzz::scratchFailure("cannot create the scratch file " + path);
    }
    bool ok = ex_put_init(id, "fuzz", dim, nodes, elements, blocks, nodeSets, sideSets) >= 0;
    std::vector<double> xyz[3];
    for (int d = 0; d < 3; ++d) {
        for (int n = 0; n < nodes; ++n) {
            xyz[d].push_back(in.number());
        }
    }
    ok = ok &&
         ex_put_coord(id, xyz[0].data(), xyz[1].data(), dim == 3 ? xyz[2].data() : nullptr) >= 0;
    if (ok && in.byte() % 2 == 0) {  // a node number map: ids as the bytes give them
        std::vector<int> map;
        for (int n = 0; n < nodes; ++n) {
            map.push_back(in.byte() % 4 != 0 ? 1 + n * (1 + in.below(3)) : in.int32());
        }
        ok = ex_put_id_map(id, EX_NODE_MAP, map.data()) >= 0;
    }
    for (int b = 0; b < blocks && ok; ++b) {
        const Type& t = *types[b];
        ok = ex_put_block(id, EX_ELEM_BLOCK, 10 + b, t.name, counts[b], t.nodes, 0, 0, 0) >= 0;
        std::vector<int> conn;
        for (int e = 0; e < counts[b] * t.nodes; ++e) {
            conn.push_back(in.reference(nodes));
        }
        if (ok && !conn.empty()) {
            ok = ex_put_conn(id, EX_ELEM_BLOCK, 10 + b, conn.data(), nullptr, nullptr) >= 0;
        }
    }
    if (ok && elements > 0 && in.byte() % 2 == 0) {
        std::vector<int> map;
        for (int e = 0; e < elements; ++e) {
            map.push_back(in.byte() % 4 != 0 ? 1 + e : in.int32());
        }
        ok = ex_put_id_map(id, EX_ELEM_MAP, map.data()) >= 0;
    }
    for (int s = 0; s < sideSets && ok; ++s) {
        const int size = in.below(8);
        std::vector<int> list;
        std::vector<int> sides;
        for (int k = 0; k < size; ++k) {
            list.push_back(in.reference(elements));
            sides.push_back(in.byte() % 8 != 0 ? 1 + in.below(6) : in.int32());
        }
        ok = ex_put_set_param(id, EX_SIDE_SET, 1 + s, size, 0) >= 0 &&
             (size == 0 || ex_put_set(id, EX_SIDE_SET, 1 + s, list.data(), sides.data()) >= 0);
    }
    for (int s = 0; s < nodeSets && ok; ++s) {
        const int size = in.below(8);
        std::vector<int> list;
        for (int k = 0; k < size; ++k) {
            list.push_back(in.reference(nodes));
        }
        ok = ex_put_set_param(id, EX_NODE_SET, 1 + s, size, 0) >= 0 &&
             (size == 0 || ex_put_set(id, EX_NODE_SET, 1 + s, list.data(), nullptr) >= 0);
    }
    if (ok && sideSets > 0 && in.byte() % 2 == 0) {  // names, the same twice now and then
        std::vector<std::string> names;
        std::vector<char*> pointers;
        for (int s = 0; s < sideSets; ++s) {
            names.push_back(in.byte() % 4 == 0 ? "same" : "s" + std::to_string(s));
        }
        for (std::string& n : names) {
            pointers.push_back(n.data());
        }
        ok = ex_put_names(id, EX_SIDE_SET, pointers.data()) >= 0;
    }
    return ex_close(id) >= 0 && ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const fuzz::ScratchDir scratch;
    static const std::string path = scratch.path("input.exo");
    ex_opts(EX_DEFAULT);  // the writer's refusals come back as return values, quietly
    Bytes in(data, size);
    if (!write(path, in)) {
        return 0;
    }
    try {
        const mesh_io::Model m = mesh_io::readModel(path);
        if (fuzz::verbose()) {
            std::fprintf(stderr, "fuzz: read %d nodes, %d elements\n", m.numNodes(),
                         m.numElements());
        }
        for (const auto& s : m.surfaces) {
            try {
                (void)mesh_io::buildContactSurface(m, s);
            } catch (const mesh_io::ParseError&) {
            } catch (const std::invalid_argument&) {
            }
        }
        (void)mesh_io::exteriorFaces(m);
    } catch (const mesh_io::ParseError& e) {
        // The expected answer to bad input.
        if (fuzz::verbose()) {
            std::fprintf(stderr, "fuzz: %s\n", e.what());
        }
    }
    return 0;
}
