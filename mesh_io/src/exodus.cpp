// SPDX-License-Identifier: MIT
// Exodus II reader: the exodusII library reads the arrays; everything in them that refers to
// something else (node numbers, element numbers, side numbers, ids) is checked here before use,
// since the library checks none of it.
#include "mesh_io/exodus.hpp"

#include "mesh_io/error.hpp"

#if defined(CONTACT_HAVE_EXODUS)
#include "element_types.hpp"
#include "memory.hpp"
#include "text.hpp"

#include <exodusII.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <netcdf.h>
#include <netcdf_filter.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#endif

namespace mesh_io {

#if !defined(CONTACT_HAVE_EXODUS)

bool exodusSupported() noexcept { return false; }

Model readExodus(const std::string& path) {
    throw ParseError(path, 0,
                     "this build reads no Exodus II files: install Debian's libexodusii-dev "
                     "(scripts/setup.sh does) and configure again");
}

#else

bool exodusSupported() noexcept { return true; }

namespace {

// The header of a classic netCDF file (CDF-1, CDF-2 and CDF-5, as netCDF's file format
// documentation lays it out), every count in it checked against the file's size before the
// library reads it: a damaged count made nc_open allocate or loop for it (41 s and 20 GB for one
// flipped byte of an Exodus file). problem() says what is wrong; empty when nothing is, and when
// the file is not classic netCDF (HDF5-based netCDF-4 is left to the library) or holds something
// this check does not know (left to the library too).
class NetcdfHeader {
public:
    explicit NetcdfHeader(const std::string& path) : in_(path, std::ios::binary) {
        std::error_code ec;
        size_ = std::filesystem::file_size(path, ec);
        char magic[4] = {};
        if (ec || !in_.read(magic, 4) || magic[0] != 'C' || magic[1] != 'D' || magic[2] != 'F' ||
            (magic[3] != 1 && magic[3] != 2 && magic[3] != 5)) {
            return;
        }
        pos_ = 4;
        wide_ = magic[3] == 5;
        offsetBytes_ = magic[3] == 1 ? 4 : 8;
        (void)count();  // numrecs
        (void)(dimensions() && attributes("the global attributes") && variables());
    }
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

private:
    static constexpr std::uint64_t kDimension = 0x0A;
    static constexpr std::uint64_t kVariable = 0x0B;
    static constexpr std::uint64_t kAttribute = 0x0C;

    std::uint64_t read(int bytes) {
        unsigned char b[8] = {};
        if (!in_.read(reinterpret_cast<char*>(b), bytes)) {
            ok_ = false;
            return 0;
        }
        pos_ += static_cast<std::uint64_t>(bytes);
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) {
            v = (v << 8U) | b[i];
        }
        return v;
    }
    std::uint64_t count() { return read(wide_ ? 8 : 4); }
    [[nodiscard]] std::uint64_t left() const { return size_ > pos_ ? size_ - pos_ : 0; }
    bool skip(std::uint64_t bytes) {
        in_.seekg(static_cast<std::streamoff>(bytes), std::ios::cur);
        pos_ += bytes;
        return ok_ && static_cast<bool>(in_);
    }
    // Refuses `what` of n entries of at least `each` bytes when the rest of the file cannot hold
    // them.
    bool fits(std::uint64_t n, std::uint64_t each, const std::string& what) {
        if (ok_ && n > left() / each) {
            problem_ = "its netCDF header is damaged: " + what + " claim " + std::to_string(n) +
                       " entries, more than the " + std::to_string(size_) + "-byte file can hold";
        }
        return ok_ && problem_.empty();
    }
    // A name, kept for messages only: its first 64 bytes (a damaged one may be long and hold
    // any byte), the rest skipped.
    bool name(std::string& out) {
        const std::uint64_t n = count();
        if (!fits(n, 1, "the characters of a name")) {
            return false;
        }
        const std::uint64_t kept = std::min<std::uint64_t>(n, 64);
        out.resize(static_cast<std::size_t>(kept));
        if (kept > 0 && !in_.read(out.data(), static_cast<std::streamsize>(kept))) {
            ok_ = false;
            return false;
        }
        pos_ += kept;
        for (char& c : out) {
            c = c >= 0x20 && c < 0x7F ? c : '?';
        }
        if (n > kept) {
            out += "...";
        }
        return skip(n - kept + (4 - n % 4) % 4);
    }
    static std::uint64_t typeSize(std::uint64_t type) {
        switch (type) {
        case 1:
        case 2:
        case 7: return 1;  // byte, char, ubyte
        case 3:
        case 8: return 2;  // short, ushort
        case 4:
        case 5:
        case 9: return 4;  // int, float, uint
        case 6:
        case 10:
        case 11: return 8;  // double, int64, uint64
        default: return 0;
        }
    }
    bool dimensions() {
        const std::uint64_t tag = read(4);
        const std::uint64_t n = count();
        if (tag != kDimension) {
            return ok_;  // ABSENT (or something the library will judge)
        }
        if (!fits(n, 8, "the dimensions")) {
            return false;
        }
        lengths_.resize(static_cast<std::size_t>(n));
        names_.resize(static_cast<std::size_t>(n));
        for (std::size_t d = 0; d < lengths_.size(); ++d) {
            if (!name(names_[d])) {
                return false;
            }
            lengths_[d] = count();
        }
        return ok_;
    }
    bool attributes(const std::string& of) {
        const std::uint64_t tag = read(4);
        const std::uint64_t n = count();
        if (tag != kAttribute) {
            return ok_;
        }
        if (!fits(n, 12, of)) {
            return false;
        }
        for (std::uint64_t a = 0; a < n; ++a) {
            std::string att;
            if (!name(att)) {
                return false;
            }
            const std::uint64_t size = typeSize(read(4));
            const std::uint64_t values = count();
            if (size == 0) {
                ok_ = false;  // a type this check does not know: the library decides
                return false;
            }
            if (!fits(values, size, "the values of attribute '" + att + "'")) {
                return false;
            }
            if (!skip((values * size + 3) / 4 * 4)) {
                return false;
            }
        }
        return ok_;
    }
    bool variables() {
        const std::uint64_t tag = read(4);
        const std::uint64_t n = count();
        if (tag != kVariable) {
            return ok_;
        }
        if (!fits(n, 16, "the variables")) {
            return false;
        }
        for (std::uint64_t v = 0; v < n; ++v) {
            std::string var;
            if (!name(var)) {
                return false;
            }
            const std::uint64_t rank = count();
            if (!fits(rank, 4, "the dimensions of variable '" + var + "'")) {
                return false;
            }
            std::uint64_t values = 1;  // of a fixed-size variable (a record one: 0)
            std::string shape;         // "num_nodes = 601, ...", for the message
            for (std::uint64_t d = 0; d < rank; ++d) {
                const std::uint64_t id = count();
                if (id >= lengths_.size()) {
                    problem_ = "its netCDF header is damaged: variable '" + var +
                               "' has dimension " + std::to_string(id) + " of " +
                               std::to_string(lengths_.size());
                    return false;
                }
                const std::uint64_t length = lengths_[static_cast<std::size_t>(id)];
                shape += (d > 0 ? ", " : "") + names_[static_cast<std::size_t>(id)] + " = " +
                         std::to_string(length);
                values = length == 0 || values > size_ / length ? (length == 0 ? 0 : size_ + 1)
                                                                : values * length;
            }
            if (!attributes("the attributes of variable '" + var + "'")) {
                return false;
            }
            const std::uint64_t size = typeSize(read(4));
            (void)count();  // vsize (capped for large variables: not trusted)
            const std::uint64_t begin = read(offsetBytes_);
            if (size == 0) {
                ok_ = false;
                return false;
            }
            if (ok_ && values > 0 &&
                (values > size_ / size || begin > size_ || values * size > size_ - begin)) {
                problem_ = "its netCDF header is damaged: variable '" + var + "' (";
                problem_ += shape + ") claims more values than the " + std::to_string(size_) +
                            "-byte file holds";
                return false;
            }
        }
        return ok_;
    }

    std::ifstream in_;
    std::uint64_t size_ = 0;
    std::uint64_t pos_ = 0;
    bool wide_ = false;
    int offsetBytes_ = 4;
    bool ok_ = true;  // false: the bytes stopped making sense here; the library decides
    std::vector<std::uint64_t> lengths_;
    std::vector<std::string> names_;  // of the dimensions
    std::string problem_;
};

// The smallest value v holds twice, if any.
std::optional<std::int64_t> repeated(std::vector<std::int64_t> v) {
    std::sort(v.begin(), v.end());
    const auto twice = std::adjacent_find(v.begin(), v.end());
    return twice != v.end() ? std::optional<std::int64_t>(*twice) : std::nullopt;
}

// The netCDF variables in which the exodusII library keeps what this reader reads
// (exodusII_int.h: VAR_COORD_X "coordx", VAR_ID_EL_BLK "eb_prop1", VAR_CONN(k) "connect<k>", ...),
// `k` counting the blocks or sets from 1 in the order the file lists them (the order of their
// ids in eb_prop1, ns_prop1, ss_prop1, which need not be sorted). kind(): "eb" for element
// blocks, "ns" for node sets, "ss" for side sets ("eb_prop1", "ns_names", ...).
std::string kind(ex_entity_type type) {
    return type == EX_ELEM_BLOCK ? "eb" : type == EX_NODE_SET ? "ns" : "ss";
}
std::string numbered(const char* prefix, std::size_t k) { return prefix + std::to_string(k); }

// An open file, closed when the reader is done (or fails).
class ExodusFile {
public:
    explicit ExodusFile(const std::string& path) : path_(path) {
        if (const std::string problem = NetcdfHeader(path).problem(); !problem.empty()) {
            throw ParseError(path, 0, "cannot be read as an Exodus II file: " + problem);
        }
        std::error_code ec;
        size_ = std::filesystem::file_size(path, ec);
        if (ec) {
            throw ParseError(path, 0, "cannot open the file");
        }
        // netCDF first, which says why it cannot open a file and prints nothing; the exodusII
        // library prints a line of its own to stderr for some (a cut netCDF-4 file: "... with a
        // netcdf library that does not support netcdf-4") and says nothing more.
        int nc = -1;
        if (const int status = nc_open(path.c_str(), NC_NOWRITE, &nc); status != NC_NOERR) {
            throw ParseError(path, 0,
                             std::string("cannot be read as an Exodus II file: ") +
                                 (size_ == 0 ? "the file is empty" : nc_strerror(status)));
        }
        nc_close(nc);
        ex_opts(EX_DEFAULT);  // errors come back as return values: no messages, no abort
        int cpuWordSize = sizeof(double);
        int ioWordSize = 0;
        float version = 0.0F;
        id_ = ex_open(path.c_str(), EX_READ, &cpuWordSize, &ioWordSize, &version);
        if (id_ < 0) {
            throw ParseError(path, 0, "cannot be read as an Exodus II file");
        }
        ex_set_int64_status(id_, EX_ALL_INT64_API);
    }
    ExodusFile(const ExodusFile&) = delete;
    ExodusFile& operator=(const ExodusFile&) = delete;
    ~ExodusFile() { ex_close(id_); }

    [[nodiscard]] int id() const noexcept { return id_; }
    // Throws "<path>: cannot read <what>" when the library returned an error.
    void check(int status, const std::string& what) const {
        if (status < 0) {
            throw ParseError(path_, 0, "cannot read " + what + " (the file is damaged)");
        }
    }

    // Refuses to read the netCDF variable `variable` (for `what`) when its dimensions make it
    // larger than the file can hold. A damaged dimension length is one field of the file (in a
    // netCDF-4 file the classic header check above does not see it): num_nodes = 250,000,000 in a
    // 60 kB file made the reader allocate 5.9 GB and take 8 s before the library failed. An
    // absent variable is left to the library.
    void fits(const std::string& variable, const std::string& what) const {
        int var = -1;
        int rank = 0;
        nc_type type = NC_NAT;
        std::size_t typeSize = 0;
        if (nc_inq_varid(id_, variable.c_str(), &var) != NC_NOERR ||
            nc_inq_var(id_, var, nullptr, &type, &rank, nullptr, nullptr) != NC_NOERR ||
            nc_inq_type(id_, type, nullptr, &typeSize) != NC_NOERR) {
            return;
        }
        const std::uint64_t ratio = compression(var);
        if (ratio == 0) {
            return;
        }
        std::vector<int> dims(static_cast<std::size_t>(rank));
        if (rank > 0 && nc_inq_vardimid(id_, var, dims.data()) != NC_NOERR) {
            return;
        }
        constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t bytes = typeSize;
        std::string shape;  // "num_el_in_blk1 = 250000000, num_nod_per_el1 = 8"
        for (const int dim : dims) {
            char name[NC_MAX_NAME + 1] = {};
            std::size_t length = 0;
            if (nc_inq_dim(id_, dim, name, &length) != NC_NOERR) {
                return;
            }
            shape +=
                (shape.empty() ? "" : ", ") + std::string(name) + " = " + std::to_string(length);
            bytes = length != 0 && bytes > kMax / length ? kMax : bytes * length;
        }
        if (bytes / ratio > size_) {
            throw ParseError(path_, 0,
                             "cannot read " + what + ": variable '" + variable + "' (" + shape +
                                 ") needs " + (bytes == kMax ? "more than " : "") +
                                 std::to_string(bytes) + " bytes, more than the " +
                                 std::to_string(size_) + "-byte file holds" +
                                 (ratio > 1 ? " deflated" : "") + " (the file is damaged)");
        }
    }

private:
    // How many bytes of the variable's values one byte of the file holds at most: 1 for values
    // stored as they are (classic netCDF; netCDF-4 contiguous, compact or chunked without
    // filters: a chunk never written reads as fill values, and no array read here may be left
    // unwritten), 1032 deflated (deflate's largest ratio: a 258-byte match in two bits; shuffle
    // and Fletcher-32 change no size), 0 when unknown: other filters, whose ratio has no bound we
    // know, are not checked (the count's memory check still is).
    [[nodiscard]] std::uint64_t compression(int var) const {
        int format = 0;
        if (nc_inq_format(id_, &format) != NC_NOERR) {
            return 0;
        }
        if (format != NC_FORMAT_NETCDF4 && format != NC_FORMAT_NETCDF4_CLASSIC) {
            return 1;
        }
        int storage = -1;
        std::size_t filters = 0;
        if (nc_inq_var_chunking(id_, var, &storage, nullptr) != NC_NOERR ||
            nc_inq_var_filter_ids(id_, var, &filters, nullptr) != NC_NOERR) {
            return 0;
        }
        if (storage == NC_CONTIGUOUS || storage == NC_COMPACT) {
            return 1;  // HDF5 filters need chunks
        }
        if (storage != NC_CHUNKED) {
            return 0;
        }
        std::vector<unsigned int> ids(filters);
        if (filters > 0 && nc_inq_var_filter_ids(id_, var, &filters, ids.data()) != NC_NOERR) {
            return 0;
        }
        std::uint64_t ratio = 1;
        for (const unsigned int id : ids) {
            if (id == H5Z_FILTER_DEFLATE) {
                ratio = 1032;
            } else if (id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32) {
                return 0;
            }
        }
        return ratio;
    }

    std::string path_;
    std::uint64_t size_ = 0;  // bytes
    int id_ = -1;
};

struct Reader {
    const std::string& path;
    ExodusFile file;
    Model m;
    int dim = 3;
    std::vector<Index> blockFirst;  // element number (0-based, over all blocks) of each block
    std::vector<std::string> blockNames;
    std::vector<std::int64_t> blockIds;

    explicit Reader(const std::string& p) : path(p), file(p) {}

    [[noreturn]] void fail(const std::string& what) const { throw ParseError(path, 0, what); }

    // "element block 10 ('A')": block b in messages.
    [[nodiscard]] std::string blockWhat(std::size_t b) const {
        return "element block " + std::to_string(blockIds[b]) + " ('" + blockNames[b] + "')";
    }

    // Names of the entities of one type (`noun`), "" where the file gives none.
    std::vector<std::string> names(ex_entity_type type, std::size_t count,
                                   const std::string& noun) {
        // The longest name the file holds: the maximum_name_length attribute when the writer
        // set it, else (the library then says 32) the name arrays' own length (len_name), so
        // that a longer name is not cut to 32 (the library's default, kept when both fail).
        const auto longest = std::clamp<std::int64_t>(
            std::max(ex_inquire_int(file.id(), EX_INQ_DB_MAX_USED_NAME_LENGTH),
                     ex_inquire_int(file.id(), EX_INQ_DB_MAX_ALLOWED_NAME_LENGTH)),
            32, 255);
        ex_set_max_name_length(file.id(), static_cast<int>(longest));
        file.fits(kind(type) + "_names", "the names of the " + noun + "s");
        std::vector<std::vector<char>> storage(count, std::vector<char>(256 + 1, '\0'));
        std::vector<char*> pointers(count);
        for (std::size_t i = 0; i < count; ++i) {
            pointers[i] = storage[i].data();
        }
        std::vector<std::string> out(count);
        if (count > 0) {
            // A file without names reads as names ""; a failure is damage, not "no names" (the
            // sets would silently lose the names the solver's deck gives them).
            file.check(ex_get_names(file.id(), type, pointers.data()),
                       "the names of the " + noun + "s");
            for (std::size_t i = 0; i < count; ++i) {
                storage[i].back() = '\0';
                out[i] = storage[i].data();
                while (!out[i].empty() && out[i].back() == ' ') {
                    out[i].pop_back();
                }
            }
        }
        return out;
    }

    // The ids of the blocks or sets of one kind (`noun`); two of one id are refused: the
    // library finds an id's block or set by its first match, so the second would be read as the
    // first.
    std::vector<std::int64_t> ids(ex_entity_type type, std::int64_t count,
                                  const std::string& noun) {
        file.fits(kind(type) + "_prop1", "the " + noun + " ids");
        std::vector<std::int64_t> v(static_cast<std::size_t>(count));
        if (count > 0) {
            file.check(ex_get_ids(file.id(), type, v.data()), "the " + noun + " ids");
        }
        if (const std::optional<std::int64_t> twice = repeated(v)) {
            fail("two " + noun + "s have the id " + std::to_string(*twice));
        }
        return v;
    }

    // A count from the file, refused when it is negative, beyond 32-bit indices or larger than
    // memory can hold at `bytes` each.
    Index count(std::int64_t n, std::size_t bytes, const std::string& what) const {
        const unsigned long long available = detail::availableMemory();
        if (n < 0 || n >= std::numeric_limits<Index>::max()) {
            fail(what + ": " + std::to_string(n) + " is not a count this reader takes");
        }
        if (available > 0 && static_cast<unsigned long long>(n) * bytes > available) {
            fail(what + ": " + std::to_string(n) + " entries need " +
                 detail::gigabytes(static_cast<unsigned long long>(n) * bytes) + " but only " +
                 detail::gigabytes(available) + " of memory is available");
        }
        return static_cast<Index>(n);
    }

    struct Set {
        std::string name;
        std::string what;
        std::vector<std::int64_t> entries;  // nodes or elements (1-based)
        std::vector<std::int64_t> sides;    // side sets: the side of each element
    };
    std::vector<Set> readSets(ex_entity_type type, std::int64_t sets, const std::string& noun,
                              const std::string& prefix);

    void read();
    void readNodes(std::int64_t nodes);
    void readBlocks(std::int64_t blocks, std::int64_t elements);
    void readNodeSets(std::int64_t sets);
    void readSideSets(std::int64_t sets);
};

void Reader::read() {
    ex_init_params p{};
    file.check(ex_get_init_ext(file.id(), &p), "the file header");
    if (p.num_dim != 2 && p.num_dim != 3) {
        fail("expected a 2D or 3D model, got " + std::to_string(p.num_dim) + " dimensions");
    }
    dim = static_cast<int>(p.num_dim);
    m.path = path;
    m.format = "exodus";
    m.files = {path};
    readNodes(p.num_nodes);
    readBlocks(p.num_elem_blk, p.num_elem);
    readNodeSets(p.num_node_sets);
    readSideSets(p.num_side_sets);
}

void Reader::readNodes(std::int64_t nodes) {
    // Per node while reading: the three axes and the map read (32 B), the coordinates and ids
    // kept (32 B), the id index (16 B).
    const Index n = count(nodes, 80, "the node count");
    for (const char* axis : {"coordx", "coordy", "coordz", "coord"}) {  // "coord": all in one
        file.fits(axis, "the coordinates");
    }
    file.fits("node_num_map", "the node number map");
    std::vector<double> xyz[3];
    for (std::vector<double>& axis : xyz) {
        axis.assign(static_cast<std::size_t>(n), 0.0);
    }
    if (n > 0) {
        file.check(ex_get_coord(file.id(), xyz[0].data(), xyz[1].data(),
                                dim == 3 ? xyz[2].data() : nullptr),
                   "the coordinates");
    }
    std::vector<std::int64_t> map(static_cast<std::size_t>(n));
    if (n > 0) {  // the library gives 1..n when the file has no map
        file.check(ex_get_id_map(file.id(), EX_NODE_MAP, map.data()), "the node number map");
    }
    m.coords.resize(3, n);
    m.nodeIds.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
        for (int d = 0; d < 3; ++d) {
            const double v = xyz[d][static_cast<std::size_t>(i)];
            if (!std::isfinite(v)) {
                fail("node " + std::to_string(map[static_cast<std::size_t>(i)]) +
                     " has a coordinate that is not a finite number");
            }
            m.coords(d, i) = v;
        }
        const std::int64_t id = map[static_cast<std::size_t>(i)];
        if (id <= 0) {
            fail("the node number map gives node " + std::to_string(i + 1) + " the id " +
                 std::to_string(id) + " (ids are positive)");
        }
        if (!m.nodeIndex.insert(id, i)) {
            fail("the node number map gives the id " + std::to_string(id) + " to two nodes (" +
                 std::to_string(m.nodeIndex.find(id) + 1) + " and " + std::to_string(i + 1) + ")");
        }
        m.nodeIds[static_cast<std::size_t>(i)] = id;
    }
    // A writer that defined the coordinates but never wrote them leaves every node at one point
    // (unwritten values read as zeros): no model has that, and its faces would all be refused
    // later as degenerate, without the reason.
    if (n > 1 && (m.coords.colwise() - m.coords.col(0)).cwiseAbs().maxCoeff() == 0.0) {
        fail("all " + std::to_string(n) +
             " nodes are at the same point: the file's coordinates are missing or were never "
             "written");
    }
    m.nodeIndex.compact();
}

void Reader::readBlocks(std::int64_t blocks, std::int64_t elements) {
    // Per element: the map read, its id kept and its element set entry (24 B); the connectivity
    // is counted per block below.
    const Index total = count(elements, 24, "the element count");
    blockIds = ids(EX_ELEM_BLOCK, count(blocks, 64, "the element block count"), "element block");
    blockNames = names(EX_ELEM_BLOCK, blockIds.size(), "element block");
    file.fits("elem_num_map", "the element number map");
    std::vector<ex_block> params(blockIds.size());
    std::int64_t inBlocks = 0;  // at most blocks x total: no overflow
    for (std::size_t b = 0; b < blockIds.size(); ++b) {
        if (blockNames[b].empty()) {
            blockNames[b] = "block_" + std::to_string(blockIds[b]);
        }
        params[b].id = blockIds[b];
        params[b].type = EX_ELEM_BLOCK;
        file.check(ex_get_block_param(file.id(), &params[b]), blockWhat(b));
        inBlocks += std::clamp<std::int64_t>(params[b].num_entry, 0, total);
    }
    // Without a map in the file the library numbers the elements 1..total, and the count alone
    // sizes the map: bounded by the blocks' elements (each stored in its connectivity).
    if (total > inBlocks) {
        fail("the element count (num_elem = " + std::to_string(total) + ") is more than the " +
             std::to_string(inBlocks) + " elements of the file's blocks");
    }
    std::vector<std::int64_t> map(static_cast<std::size_t>(total));
    if (total > 0) {
        file.check(ex_get_id_map(file.id(), EX_ELEM_MAP, map.data()), "the element number map");
    }
    // Ids name the elements in every output: two elements with one id could not be told apart.
    if (const std::optional<std::int64_t> twice = repeated(map)) {
        const auto a = std::find(map.begin(), map.end(), *twice);
        const auto b = std::find(a + 1, map.end(), *twice);
        fail("the element number map gives the id " + std::to_string(*twice) +
             " to two elements (" + std::to_string(a - map.begin() + 1) + " and " +
             std::to_string(b - map.begin() + 1) + ")");
    }
    Index first = 0;
    const Index nodes = m.numNodes();
    for (std::size_t b = 0; b < blockIds.size(); ++b) {
        const std::int64_t id = blockIds[b];
        const std::string what = blockWhat(b);
        ex_block& eb = params[b];
        eb.topology[MAX_STR_LENGTH] = '\0';
        const Index n = count(eb.num_entry, 1, what + ": the element count");
        if (n > total - first) {
            fail(what + " has " + std::to_string(n) + " elements, more than the " +
                 std::to_string(total - first) + " the file's element count leaves for it");
        }
        if (eb.num_nodes_per_entry < 0) {
            fail(what + " has " + std::to_string(eb.num_nodes_per_entry) + " nodes per element");
        }
        std::string topology = eb.topology;
        // Polygons and polyhedra (NSIDED, NFACED: the count is the block's, not an element's) and
        // elements of more than 64 nodes have no face the search takes: kept without their
        // connectivity, as any type this reader does not know.
        const std::string family = detail::lowerCase(topology.substr(0, 6));
        const bool skipNodes =
            eb.num_nodes_per_entry > 64 || family == "nsided" || family == "nfaced";
        const int npe = skipNodes ? 0 : static_cast<int>(eb.num_nodes_per_entry);
        // The connectivity read (8 B a node) and kept (4 B).
        (void)count(static_cast<std::int64_t>(n) * npe, 12, what + ": the connectivity");
        const detail::ElementType* t =
            skipNodes ? nullptr : detail::findExodusType(eb.topology, npe, dim);
        ElementBlock block;
        // A type not read is named with its node count: "EXODUS:HEX8" with 4 nodes must not be
        // taken for the table's 8-node HEX8.
        block.type = t != nullptr
                         ? std::string(t->name)
                         : "EXODUS:" + topology + "/" + std::to_string(eb.num_nodes_per_entry);
        block.nodesPerElement = npe;
        block.source = {path, 0};
        if (n > 0 && npe > 0) {
            file.fits(numbered("connect", b + 1), what + ": the connectivity");
        }
        std::vector<std::int64_t> conn(static_cast<std::size_t>(n) * static_cast<std::size_t>(npe));
        if (!conn.empty()) {
            file.check(ex_get_conn(file.id(), EX_ELEM_BLOCK, id, conn.data(), nullptr, nullptr),
                       what + ": the connectivity");
        }
        block.nodes.resize(conn.size());
        for (std::size_t k = 0; k < conn.size(); ++k) {
            if (conn[k] < 1 || conn[k] > nodes) {
                fail(what + ": element " +
                     std::to_string(map[static_cast<std::size_t>(first) + k / npe]) +
                     " refers to node " + std::to_string(conn[k]) + ", outside the file's " +
                     std::to_string(nodes) + " nodes");
            }
            block.nodes[k] = static_cast<Index>(conn[k] - 1);
        }
        block.ids.assign(map.begin() + first, map.begin() + first + n);
        for (const long e : block.ids) {
            if (e <= 0) {
                fail(what + ": the element number map gives an element the id " +
                     std::to_string(e) + " (ids are positive)");
            }
        }
        if (t == nullptr) {
            m.notes.push_back(detail::concat(path, ": ", what, ": ", std::to_string(n),
                                             " elements of type ", topology, " with ",
                                             std::to_string(eb.num_nodes_per_entry),
                                             " nodes, which have no faces the search takes"));
        }
        auto& set = m.elementSets[blockNames[b]];
        for (Index e = 0; e < n; ++e) {
            set.push_back({static_cast<Index>(m.blocks.size()), e});
        }
        blockFirst.push_back(first);
        first += n;
        m.blocks.push_back(std::move(block));
    }
}

// The node sets or side sets of the file: name, what messages call it, the entries and, for side
// sets, the sides.
std::vector<Reader::Set> Reader::readSets(ex_entity_type type, std::int64_t sets,
                                          const std::string& noun, const std::string& prefix) {
    const std::vector<std::int64_t> setIds =
        ids(type, count(sets, 64, "the " + noun + " count"), noun);
    const std::vector<std::string> setNames = names(type, setIds.size(), noun);
    std::vector<Set> out(setIds.size());
    for (std::size_t s = 0; s < setIds.size(); ++s) {
        Set& set = out[s];
        set.name = setNames[s].empty() ? prefix + std::to_string(setIds[s]) : setNames[s];
        set.what = noun + " " + std::to_string(setIds[s]) + " ('" + set.name + "')";
        for (std::size_t r = 0; r < s; ++r) {
            if (out[r].name == set.name) {
                fail(set.what + " has the name of " + out[r].what);
            }
        }
        std::int64_t size = 0;
        std::int64_t factors = 0;
        file.check(ex_get_set_param(file.id(), type, setIds[s], &size, &factors), set.what);
        const Index n = count(size, 16, set.what);
        if (n > 0) {
            file.fits(numbered(type == EX_NODE_SET ? "node_ns" : "elem_ss", s + 1), set.what);
            if (type == EX_SIDE_SET) {
                file.fits(numbered("side_ss", s + 1), set.what);
            }
        }
        set.entries.resize(static_cast<std::size_t>(n));
        set.sides.resize(type == EX_SIDE_SET ? static_cast<std::size_t>(n) : 0);
        if (n > 0) {
            file.check(ex_get_set(file.id(), type, setIds[s], set.entries.data(),
                                  type == EX_SIDE_SET ? set.sides.data() : nullptr),
                       set.what);
        }
    }
    return out;
}

void Reader::readNodeSets(std::int64_t sets) {
    for (const Set& set : readSets(EX_NODE_SET, sets, "node set", "nodeset_")) {
        SurfaceDef surface;
        surface.name = set.name;
        surface.nodeSurface = true;
        surface.source = {path, 0};
        // A set: repeats dropped, the first appearance kept (as the Abaqus reader does).
        std::vector<bool> seen(static_cast<std::size_t>(m.numNodes()), false);
        for (const std::int64_t node : set.entries) {
            if (node < 1 || node > m.numNodes()) {
                fail(set.what + " refers to node " + std::to_string(node) +
                     ", outside the file's " + std::to_string(m.numNodes()) + " nodes");
            }
            if (!seen[static_cast<std::size_t>(node - 1)]) {
                seen[static_cast<std::size_t>(node - 1)] = true;
                surface.nodes.push_back(static_cast<Index>(node - 1));
            }
        }
        m.nodeSets[set.name] = surface.nodes;
        m.surfaces.push_back(std::move(surface));
    }
}

void Reader::readSideSets(std::int64_t sets) {
    const Index elements = blockFirst.empty() ? 0 : blockFirst.back() + m.blocks.back().size();
    for (const Set& set : readSets(EX_SIDE_SET, sets, "side set", "sideset_")) {
        const std::string& name = set.name;
        const std::string& what = set.what;
        const auto n = static_cast<Index>(set.entries.size());
        const std::vector<std::int64_t>& elementList = set.entries;
        const std::vector<std::int64_t>& sideList = set.sides;
        SurfaceDef surface;
        surface.name = name;
        surface.source = {path, 0};
        surface.faces.reserve(static_cast<std::size_t>(n));
        bool unusable = false;  // noted: an element of a type without sides
        // A set: a repeated (element, side) is dropped, the first appearance kept (as the
        // Abaqus reader does); a repeat searched would be a duplicate segment.
        std::vector<std::pair<std::int64_t, std::int64_t>> sorted;
        sorted.reserve(static_cast<std::size_t>(n));
        for (Index k = 0; k < n; ++k) {
            const std::int64_t e = elementList[static_cast<std::size_t>(k)];
            const std::int64_t side = sideList[static_cast<std::size_t>(k)];
            if (e < 1 || e > elements) {
                fail(what + " refers to element " + std::to_string(e) + ", outside the file's " +
                     std::to_string(elements) + " elements");
            }
            sorted.emplace_back(e, side);
        }
        std::sort(sorted.begin(), sorted.end());
        std::vector<bool> kept(sorted.size(), false);  // per entry of `sorted`: taken already
        for (Index k = 0; k < n; ++k) {
            const std::int64_t e = elementList[static_cast<std::size_t>(k)];
            const std::int64_t side = sideList[static_cast<std::size_t>(k)];
            const auto at = static_cast<std::size_t>(
                std::lower_bound(sorted.begin(), sorted.end(), std::make_pair(e, side)) -
                sorted.begin());
            if (kept[at]) {
                continue;
            }
            kept[at] = true;
            const auto b = static_cast<std::size_t>(
                std::upper_bound(blockFirst.begin(), blockFirst.end(), static_cast<Index>(e - 1)) -
                blockFirst.begin() - 1);
            const ElementBlock& block = m.blocks[b];
            const Index local = static_cast<Index>(e - 1) - blockFirst[b];
            const long id = block.ids[static_cast<std::size_t>(local)];
            const detail::ElementType* t = detail::findBlockType(block.type);
            const int sides = t != nullptr ? detail::faceCount(*t) : 0;
            if (sides == 0) {
                // Kept, so that the file's other sets stay usable; searching this one is
                // refused (buildContactSurface), and the note says why beforehand.
                if (!unusable) {
                    unusable = true;
                    m.notes.push_back(path + ": " + what + ": element " + std::to_string(id) +
                                      " is in element block " + std::to_string(blockIds[b]) +
                                      " ('" + blockNames[b] + "') of type " +
                                      detail::blockTypeName(block.type) +
                                      ", which has no sides the search takes: the set cannot "
                                      "be searched");
                }
                surface.faces.push_back({{static_cast<Index>(b), local}, static_cast<int>(side)});
                continue;
            }
            if (side < 1 || side > sides) {
                fail(what + ": element " + std::to_string(id) + " (" +
                     detail::blockTypeName(block.type) + ") has no side " + std::to_string(side) +
                     " (sides 1.." + std::to_string(sides) + ")");
            }
            surface.faces.push_back({{static_cast<Index>(b), local}, static_cast<int>(side)});
        }
        m.surfaces.push_back(std::move(surface));
    }
}

}  // namespace

Model readExodus(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw ParseError(path, 0,
                         std::filesystem::exists(path, ec) ? "is not a regular file"
                                                           : "cannot open the file");
    }
    Reader r(path);
    r.read();
    return std::move(r.m);
}

#endif

}  // namespace mesh_io
