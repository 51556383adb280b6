// SPDX-License-Identifier: MIT
// Gmsh .msh reader: MSH 4.1 and 2.2 (2.0 and 2.1 read as 2.2), ASCII and binary.
//
// Binary payloads are read straight from the line reader's stream. The newline bytes inside them
// are counted, so line numbers after binary data match the file; errors inside binary data name
// the line and the byte offset. Counts from the file never size an allocation beyond what the
// rest of the file could hold.
#include "mesh_io/gmsh.hpp"

#include "mesh_io/error.hpp"

#include "coordinate_buffer.hpp"
#include "element_types.hpp"
#include "line_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

using detail::ElementKind;
using detail::ElementType;
using detail::LineReader;
using Key = std::pair<int, int>;  // (dimension, tag) of a physical group or an entity

constexpr long kMaxTag = std::numeric_limits<long>::max();
constexpr long kMinInt = std::numeric_limits<int>::min();
constexpr long kMaxInt = std::numeric_limits<int>::max();
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 62;  // keeps count arithmetic exact
constexpr std::size_t kMaxIndex = static_cast<std::size_t>(std::numeric_limits<Index>::max());

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && isSpace(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

// A token as quoted in a message: control and non-ASCII bytes (binary data) as '?', cut at 40.
std::string shown(std::string_view s) {
    constexpr std::size_t kMax = 40;
    std::string out;
    for (const char c : s.substr(0, kMax)) {
        const auto u = static_cast<unsigned char>(c);
        out += (u < 0x20 || u >= 0x7f) ? '?' : c;
    }
    if (s.size() > kMax) {
        out += "...";
    }
    return out;
}

// Whole-token integer, optional leading '+'.
template <class T>
bool parseInt(std::string_view t, T& v) {
    if (t.size() > 1 && t.front() == '+' && t[1] != '-') {
        t.remove_prefix(1);
    }
    const char* end = t.data() + t.size();
    const auto res = std::from_chars(t.data(), end, v);
    return !t.empty() && res.ec == std::errc() && res.ptr == end;
}

// Whole-token finite real (locale-independent).
bool parseReal(std::string_view t, double& v) {
    if (t.size() > 1 && t.front() == '+' && t[1] != '-') {
        t.remove_prefix(1);
    }
    const char* end = t.data() + t.size();
    const auto res = std::from_chars(t.data(), end, v);
    return !t.empty() && res.ec == std::errc() && res.ptr == end && std::isfinite(v);
}

std::string str(std::uint64_t v) { return std::to_string(v); }
std::string str(long v) { return std::to_string(v); }
std::string str(int v) { return std::to_string(v); }

std::string keyText(const Key& k) { return "dimension " + str(k.first) + ", tag " + str(k.second); }

bool refLess(const ElementRef& a, const ElementRef& b) {
    return a.block != b.block ? a.block < b.block : a.element < b.element;
}

// One line of ASCII section data, read field by field; every error names the line.
class Record {
public:
    Record(LineReader& r, const char* what) : r_(r) {
        if (!r_.next(text_)) {
            r_.fail(std::string("expected ") + what + ", got end of file");
        }
        const std::string_view t = trim(text_);
        if (!t.empty() && t.front() == '$') {
            r_.fail(std::string("expected ") + what + ", got '" + shown(t) +
                    "' (the section ends early)");
        }
    }

    std::string_view token(const char* what) {
        skipSpace();
        if (pos_ == text_.size()) {
            r_.fail(std::string("expected ") + what + ", got end of line");
        }
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !isSpace(text_[pos_])) {
            ++pos_;
        }
        return std::string_view(text_).substr(start, pos_ - start);
    }

    long integer(const char* what, long lo, long hi) {
        const std::string_view t = token(what);
        long v = 0;
        if (!parseInt(t, v) || v < lo || v > hi) {
            r_.expected(what, shown(t));
        }
        return v;
    }

    std::uint64_t count(const char* what) {
        const std::string_view t = token(what);
        unsigned long long v = 0;
        if (t.front() == '-' || !parseInt(t, v) || v > kMaxCount) {
            r_.expected(what, shown(t));
        }
        return v;
    }

    double real(const char* what) {
        const std::string_view t = token(what);
        double v = 0;
        if (!parseReal(t, v)) {
            r_.expected(what, shown(t));
        }
        return v;
    }

    /// The rest of the line, trimmed.
    std::string_view rest() {
        const std::string_view s = trim(std::string_view(text_).substr(pos_));
        pos_ = text_.size();
        return s;
    }

    bool atEnd() {
        skipSpace();
        return pos_ == text_.size();
    }

    /// Nothing may follow: "expected end of line after <after>, got '<token>'".
    void end(const char* after) {
        if (!atEnd()) {
            const std::string extra(token(""));
            r_.expected(std::string("end of line after ") + after, shown(extra));
        }
    }

private:
    void skipSpace() {
        while (pos_ < text_.size() && isSpace(text_[pos_])) {
            ++pos_;
        }
    }

    LineReader& r_;
    std::string text_;
    std::size_t pos_ = 0;
};

// Binary section data read from the line reader's stream, with the file offset and the line of
// every byte known for messages.
class Binary {
public:
    Binary(LineReader& r, std::string section, std::uint64_t fileSize)
        : r_(r), section_(std::move(section)), fileSize_(fileSize) {
        // The data starts on the next line, unless the last line ran into the end of the file.
        const std::streamoff pos = r_.stream().tellg();
        offset_ = pos < 0 ? fileSize_ : static_cast<std::uint64_t>(pos);
        startLine_ = pos < 0 ? r_.line() : r_.line() + 1;
        line_ = startLine_;
    }

    [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
    [[nodiscard]] long line() const noexcept { return line_; }
    [[nodiscard]] std::uint64_t remaining() const noexcept {
        return fileSize_ > offset_ ? fileSize_ - offset_ : 0;
    }

    /// Reads n bytes into out; the file ending first is an error naming `what`.
    void bytes(void* out, std::uint64_t n, const char* what) {
        lastLine_ = line_;
        lastOffset_ = offset_;
        if (n > remaining()) {
            truncated(what, n);
        }
        auto& in = r_.stream();
        in.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
        if (static_cast<std::uint64_t>(in.gcount()) != n) {
            truncated(what, n);
        }
        const char* p = static_cast<const char*>(out);
        line_ += static_cast<long>(std::count(p, p + n, '\n'));
        offset_ += n;
    }

    template <class T>
    T get(const char* what) {
        unsigned char b[sizeof(T)];
        bytes(b, sizeof(T), what);
        T v;
        std::memcpy(&v, b, sizeof(T));
        return v;
    }

    std::uint64_t count(const char* what) {
        const auto at = offset_;
        const auto v = get<std::uint64_t>(what);
        if (v > kMaxCount) {
            failAt(at, lastLine_, std::string("expected ") + what + ", got " + str(v));
        }
        return v;
    }

    int integer(const char* what, int lo, int hi) {
        const auto at = offset_;
        const auto v = get<std::int32_t>(what);
        if (v < lo || v > hi) {
            failAt(at, lastLine_, std::string("expected ") + what + ", got " + str(int{v}));
        }
        return v;
    }

    /// Checks that `count` items of `itemBytes` each fit in the rest of the file, before
    /// anything is sized from the count.
    void require(std::uint64_t count, std::uint64_t itemBytes, const char* what) const {
        if (itemBytes != 0 && count > remaining() / itemBytes) {
            throw ParseError(r_.path(), line_,
                             "truncated binary " + section_ + " block: " + str(count) + " " + what +
                                 " of " + str(itemBytes) + " bytes do not fit in the " +
                                 str(remaining()) + " bytes left at byte offset " + str(offset_));
        }
    }

    /// Line of byte `pos` of the last bytes() read, whose data is buf.
    [[nodiscard]] long lineIn(const void* buf, std::size_t pos) const {
        const char* p = static_cast<const char*>(buf);
        return lastLine_ + static_cast<long>(std::count(p, p + pos, '\n'));
    }

    /// Error about the item at byte `pos` of the last bytes() read, whose data is buf.
    [[noreturn]] void failIn(const void* buf, std::size_t pos, const std::string& message) const {
        failAt(lastOffset_ + pos, lineIn(buf, pos), message);
    }

    [[noreturn]] void failAt(std::uint64_t offset, long line, const std::string& message) const {
        throw ParseError(r_.path(), line,
                         message + " (binary " + section_ + " block, byte offset " + str(offset) +
                             ")");
    }

    /// Error at the current position.
    [[noreturn]] void fail(const std::string& message) const { failAt(offset_, line_, message); }

    /// Hands the newlines read back to the line reader, so the next line has its true number.
    void finish() { r_.addLines(line_ - startLine_); }

private:
    [[noreturn]] void truncated(const char* what, std::uint64_t n) const {
        throw ParseError(r_.path(), line_,
                         "truncated binary " + section_ + " block: expected " + what + " (" +
                             str(n) + " bytes) at byte offset " + str(offset_) +
                             ", got end of file");
    }

    LineReader& r_;
    std::string section_;
    std::uint64_t fileSize_;
    std::uint64_t offset_ = 0;
    long startLine_ = 0;
    long line_ = 0;
    long lastLine_ = 0;
    std::uint64_t lastOffset_ = 0;
};

// Nodes of the element types the Gmsh reference manual lists ("MSH file format", element types
// 1 to 31, 92 and 93); 0 for any other. Only to skip a binary block of a type not read.
int gmshNodeCount(int type) noexcept {
    static constexpr int kNodes[32] = {0, 2,  3,  4,  4, 8,  6,  5,  3,  6,  9, 10, 27, 18, 14, 1,
                                       8, 20, 15, 13, 9, 10, 12, 15, 15, 21, 4, 5,  6,  20, 35, 56};
    if (type >= 1 && type <= 31) {
        return kNodes[type];
    }
    return type == 92 ? 64 : type == 93 ? 125 : 0;
}

class GmshReader {
public:
    explicit GmshReader(const std::string& path) : r_(path), xyz_(m_.coords) {
        m_.path = path;
        m_.format = "gmsh";
        // The file size bounds every allocation sized from a count in the file: pipes and
        // directories, which have none, are refused (LineReader).
        auto& in = r_.stream();
        in.seekg(0, std::ios::end);
        const std::streamoff size = in.tellg();
        in.clear();
        in.seekg(0, std::ios::beg);
        if (size < 0 || !in) {
            throw ParseError(path, 0, "cannot determine the file size");
        }
        fileSize_ = static_cast<std::uint64_t>(size);
    }

    Model read() {
        readHeader();
        std::string line;
        while (r_.next(line)) {
            const std::string_view t = trim(line);
            if (t.empty()) {
                continue;
            }
            if (t.size() < 2 || t.front() != '$' || t.substr(1, 3) == "End") {
                r_.expected("a section header such as $Nodes", shown(t));
            }
            const std::string name(t.substr(1));
            if (name == "MeshFormat") {
                r_.fail("second $MeshFormat section");
            } else if (name == "PhysicalNames") {
                readPhysicalNames();
            } else if ((name == "Entities" || name == "PartitionedEntities") && v4_) {
                readEntities(name == "PartitionedEntities");
            } else if (name == "Nodes") {
                readNodes();
            } else if (name == "ParametricNodes" && !v4_) {
                readNodes(true);
            } else if (name == "Elements") {
                readElements();
            } else {
                skipSection(name);
            }
        }
        finish();
        return std::move(m_);
    }

private:
    struct Named {
        std::string name;
        long line = 0;
    };
    // Elements of one 4.1 entity block: their groups come from the entity's physical tags. In 2.2,
    // consecutive elements of one elementary entity.
    struct Run {
        Key entity;
        Index block = 0;
        Index first = 0;
        Index count = 0;
        long line = 0;
    };
    struct Group {
        std::vector<ElementRef> elements;
        long line = 0;  // first element that put something in it
    };
    struct Skipped {
        int type = 0;
        long line = 0;
        std::uint64_t count = 0;
    };
    struct Entity {
        std::vector<int> physicals;
        Key parent;  // the $Entities entity a partitioned entity is part of; else its own key
    };

    [[noreturn]] void failAt(long line, const std::string& message) const {
        throw ParseError(m_.path, line, message);
    }

    void note(long line, const std::string& text) {
        m_.notes.push_back(m_.path + ":" + str(line) + ": " + text);
    }

    // A count from the file, capped by what the rest of the file could hold, for reserve().
    [[nodiscard]] std::size_t capped(std::uint64_t n, std::uint64_t minBytesPerItem) const {
        return static_cast<std::size_t>(std::min(n, fileSize_ / minBytesPerItem + 1));
    }

    // "$End<name>" on the next line; after binary data its newline may come first.
    void expectEnd(const std::string& name, bool afterBinary) {
        const std::string end = "$End" + name;
        std::string line;
        bool ok = r_.next(line);
        if (ok && afterBinary && trim(line).empty()) {
            ok = r_.next(line);
        }
        if (!ok) {
            r_.fail("expected " + end + ", got end of file");
        }
        if (trim(line) != end) {
            r_.expected(end, shown(trim(line)));
        }
    }

    void readHeader() {
        std::string line;
        std::string_view t;
        do {
            if (!r_.next(line)) {
                r_.fail("expected $MeshFormat, got end of file");
            }
            t = trim(line);
        } while (t.empty());
        if (t != "$MeshFormat") {
            r_.expected("$MeshFormat", shown(t));
        }
        Record rec(r_, "the MSH version, file type and data size");
        const std::string_view version = rec.token("the MSH version");
        double v = 0;
        const bool number = parseReal(version, v);
        if (number && v == 4.0) {
            r_.fail("MSH 4.0 is not supported (its layout differs from 4.1): expected MSH version "
                    "4.1 or 2.2, got '" +
                    shown(version) + "'");
        }
        if (!number || !(v == 4.1 || v == 2.2 || v == 2.1 || v == 2.0)) {
            r_.expected("MSH version 4.1 or 2.2", shown(version));
        }
        v4_ = v == 4.1;
        binary_ = rec.integer("file type 0 (ASCII) or 1 (binary)", 0, 1) == 1;
        rec.integer("data size 8", 8, 8);
        rec.end("the data size");
        if (binary_) {
            Binary bin(r_, "$MeshFormat", fileSize_);
            unsigned char b[4];
            bin.bytes(b, 4, "the integer 1 that fixes the byte order");
            std::int32_t one = 0;
            std::memcpy(&one, b, 4);
            if (one != 1) {
                auto u = static_cast<std::uint32_t>(one);
                u = (u >> 24) | ((u >> 8) & 0xff00U) | ((u << 8) & 0xff0000U) | (u << 24);
                if (u == 1) {
                    bin.failIn(b, 0,
                               "binary file of the other endianness (the integer 1 after the "
                               "header reads " +
                                   str(int{one}) + ")");
                }
                bin.failIn(b, 0,
                           "expected the binary integer 1 after the header, got " + str(int{one}) +
                               " (is the file really binary?)");
            }
            bin.finish();
        }
        expectEnd("MeshFormat", binary_);
    }

    // Dimension, tag and quoted name per line; ASCII in binary files too.
    void readPhysicalNames() {
        Record head(r_, "the number of physical names");
        const std::uint64_t n = head.count("the number of physical names");
        head.end("the number of physical names");
        for (std::uint64_t i = 0; i < n; ++i) {
            Record rec(r_, "a physical name line (dimension, tag, \"name\")");
            const int dim = static_cast<int>(rec.integer("a physical dimension 0 to 3", 0, 3));
            const int tag = static_cast<int>(rec.integer("a physical tag", kMinInt, kMaxInt));
            const std::string_view q = rec.rest();
            if (q.size() < 3 || q.front() != '"' || q.back() != '"') {
                r_.expected("a quoted physical name", shown(q));
            }
            const Key key{dim, tag};
            if (!names_.emplace(key, Named{std::string(q.substr(1, q.size() - 2)), r_.line()})
                     .second) {
                r_.fail("duplicate physical name for " + keyText(key));
            }
        }
        expectEnd("PhysicalNames", false);
    }

    // parent: the model entity a partitioned entity is part of (its own key otherwise).
    void addEntity(const Key& key, std::vector<int> physicals, const Key& parent, long line) {
        for (int& p : physicals) {
            p = p < 0 && p != std::numeric_limits<int>::min() ? -p : p;  // the sign: orientation
        }
        if (!entities_.emplace(key, Entity{std::move(physicals), parent}).second) {
            failAt(line, "duplicate entity (" + keyText(key) + ")");
        }
    }

    // A partitioned entity's parent, or its own key when it has none (tag 0: Gmsh tags are
    // positive).
    static Key parentOf(const Key& key, int parentDim, int parentTag) {
        return parentTag == 0 ? key : Key{parentDim, parentTag};
    }

    // 4.1: points, curves, surfaces, volumes with their physical tags (bounding boxes and
    // boundaries are read and dropped). $PartitionedEntities lists the entities of a partitioned
    // mesh the same way, each with its parent (the $Entities entity it is part of) and partitions
    // first; the element blocks refer to them (see modelRuns). A physical tag's sign gives the
    // entity's orientation in the group (Gmsh reads the group by its absolute value); the faces
    // are oriented by their volumes here.
    void readEntities(bool partitioned) {
        haveEntities_ = true;
        const char* section = partitioned ? "PartitionedEntities" : "Entities";
        if (binary_) {
            readEntitiesBinary(partitioned);
            expectEnd(section, true);
            return;
        }
        if (partitioned) {
            Record parts(r_, "the number of partitions");
            parts.count("the number of partitions");
            parts.end("the number of partitions");
            Record ghosts(r_, "the number of ghost entities");
            const std::uint64_t n = ghosts.count("the number of ghost entities");
            ghosts.end("the number of ghost entities");
            for (std::uint64_t i = 0; i < n; ++i) {
                Record g(r_, "a ghost entity");
                g.integer("a ghost entity tag", kMinInt, kMaxInt);
                g.integer("a partition tag", kMinInt, kMaxInt);
                g.end("the ghost entity");
            }
        }
        Record head(r_, "the entity counts (points, curves, surfaces, volumes)");
        std::uint64_t counts[4];
        for (auto& c : counts) {
            c = head.count("an entity count");
        }
        head.end("the entity counts");
        for (int dim = 0; dim < 4; ++dim) {
            for (std::uint64_t i = 0; i < counts[dim]; ++i) {
                Record rec(r_, "an entity line");
                const int tag = static_cast<int>(rec.integer("an entity tag", kMinInt, kMaxInt));
                Key parent{dim, tag};
                if (partitioned) {
                    const int pdim = static_cast<int>(rec.integer("the parent's dimension", 0, 3));
                    const int ptag =
                        static_cast<int>(rec.integer("the parent's tag", kMinInt, kMaxInt));
                    parent = parentOf(parent, pdim, ptag);
                    const std::uint64_t np = rec.count("the number of partitions");
                    for (std::uint64_t k = 0; k < np; ++k) {
                        rec.integer("a partition tag", kMinInt, kMaxInt);
                    }
                }
                for (int k = 0; k < (dim == 0 ? 3 : 6); ++k) {
                    rec.real(dim == 0 ? "a point coordinate" : "a bounding box coordinate");
                }
                const std::uint64_t np = rec.count("the number of physical tags");
                std::vector<int> physicals;
                for (std::uint64_t k = 0; k < np; ++k) {
                    physicals.push_back(
                        static_cast<int>(rec.integer("a physical tag", kMinInt, kMaxInt)));
                }
                if (dim > 0) {
                    const std::uint64_t nb = rec.count("the number of bounding entities");
                    for (std::uint64_t k = 0; k < nb; ++k) {
                        rec.integer("a bounding entity tag", kMinInt, kMaxInt);
                    }
                }
                rec.end("the entity");
                addEntity(Key{dim, tag}, std::move(physicals), parent, r_.line());
            }
        }
        expectEnd(section, false);
    }

    void readEntitiesBinary(bool partitioned) {
        Binary bin(r_, partitioned ? "$PartitionedEntities" : "$Entities", fileSize_);
        const auto ints = [&](std::uint64_t n, const char* what) {
            bin.require(n, 4, what);
            std::vector<int> v(static_cast<std::size_t>(n));
            bin.bytes(v.data(), n * 4, what);
            return v;
        };
        if (partitioned) {
            bin.count("the number of partitions");
            ints(2 * bin.count("the number of ghost entities"), "ghost entities");
        }
        std::uint64_t counts[4];
        for (auto& c : counts) {
            c = bin.count("an entity count");
        }
        for (int dim = 0; dim < 4; ++dim) {
            for (std::uint64_t i = 0; i < counts[dim]; ++i) {
                const long line = bin.line();
                const int tag = bin.integer("an entity tag", static_cast<int>(kMinInt),
                                            static_cast<int>(kMaxInt));
                Key parent{dim, tag};
                if (partitioned) {
                    const int pdim = bin.integer("the parent's dimension", 0, 3);
                    const int ptag = bin.integer("the parent's tag", static_cast<int>(kMinInt),
                                                 static_cast<int>(kMaxInt));
                    parent = parentOf(parent, pdim, ptag);
                    ints(bin.count("the number of partitions"), "partition tags");
                }
                double box[6];
                bin.bytes(box, sizeof(double) * (dim == 0 ? 3 : 6), "entity coordinates");
                std::vector<int> physicals =
                    ints(bin.count("the number of physical tags"), "physical tags");
                if (dim > 0) {
                    ints(bin.count("the number of bounding entities"), "bounding entity tags");
                }
                addEntity(Key{dim, tag}, std::move(physicals), parent, line);
            }
        }
        bin.finish();
    }

    // Registers a node tag at the next index; false if the tag is taken.
    bool addNodeTag(long tag) {
        if (!m_.nodeIndex.insert(tag, static_cast<Index>(m_.nodeIds.size()))) {
            return false;
        }
        m_.nodeIds.push_back(tag);
        return true;
    }

    [[nodiscard]] bool roomForNodes(std::uint64_t n) const {
        return n <= kMaxIndex - m_.nodeIds.size();
    }

    void reserveNodes(std::uint64_t n, std::uint64_t minBytesPerNode) {
        const std::size_t c = capped(n, minBytesPerNode);
        m_.nodeIds.reserve(m_.nodeIds.size() + c);
        xyz_.reserve(m_.nodeIds.size() + c);
    }

    // parametric: 2.2 as Gmsh writes it with Mesh.SaveParametric, $ParametricNodes in place of
    // $Nodes (not in the 2.2 manual; ASCII only here).
    void readNodes(bool parametric = false) {
        if (haveNodes_) {
            r_.fail("second $Nodes section");
        }
        haveNodes_ = true;
        if (v4_) {
            binary_ ? readNodes41Binary() : readNodes41();
        } else if (binary_ && parametric) {
            r_.fail("binary $ParametricNodes is not read (save the mesh without "
                    "Mesh.SaveParametric, or as MSH 4.1)");
        } else {
            binary_ ? readNodes22Binary() : readNodes22(parametric);
        }
    }

    // 4.1: header, then per entity block its node tags, then their coordinates.
    void readNodes41() {
        Record head(r_, "the $Nodes header (blocks, nodes, min tag, max tag)");
        const std::uint64_t blocks = head.count("the number of node blocks");
        const std::uint64_t total = head.count("the number of nodes");
        head.count("the minimum node tag");
        head.count("the maximum node tag");
        head.end("the $Nodes header");
        const long headLine = r_.line();
        if (!roomForNodes(total)) {
            r_.fail("too many nodes: " + str(total));
        }
        reserveNodes(total, 8);
        std::uint64_t read = 0;
        for (std::uint64_t b = 0; b < blocks; ++b) {
            Record bh(r_, "a node block header (entity dimension, entity tag, parametric, count)");
            const int dim = static_cast<int>(bh.integer("an entity dimension 0 to 3", 0, 3));
            bh.integer("an entity tag", kMinInt, kMaxInt);
            const bool parametric = bh.integer("parametric flag 0 or 1", 0, 1) == 1;
            const std::uint64_t n = bh.count("the number of nodes in the block");
            bh.end("the node block header");
            if (n > total - read) {
                r_.fail("node count mismatch: the blocks hold more than the " + str(total) +
                        " nodes the $Nodes header declares");
            }
            for (std::uint64_t i = 0; i < n; ++i) {
                Record rec(r_, "a node tag");
                const long tag = rec.integer("a node tag (a positive integer)", 1, kMaxTag);
                rec.end("the node tag");
                if (!addNodeTag(tag)) {
                    r_.fail("duplicate node tag " + str(tag));
                }
            }
            const int extra = parametric ? dim : 0;
            for (std::uint64_t i = 0; i < n; ++i) {
                Record rec(r_, "node coordinates");
                for (int k = 0; k < 3; ++k) {
                    xyz_.push(rec.real("a coordinate"));
                }
                for (int k = 0; k < extra; ++k) {
                    rec.real("a parametric coordinate");
                }
                rec.end("the node coordinates");
            }
            read += n;
        }
        if (read != total) {
            failAt(headLine, "node count mismatch: the $Nodes header declares " + str(total) +
                                 " nodes, the blocks hold " + str(read));
        }
        expectEnd("Nodes", false);
    }

    void readNodes41Binary() {
        Binary bin(r_, "$Nodes", fileSize_);
        const std::uint64_t blocks = bin.count("the number of node blocks");
        const long headLine = bin.line();
        const std::uint64_t headOffset = bin.offset();
        const std::uint64_t total = bin.count("the number of nodes");
        bin.count("the minimum node tag");
        bin.count("the maximum node tag");
        bin.require(total, 32, "nodes");  // tag and 3 coordinates each
        if (!roomForNodes(total)) {
            bin.fail("too many nodes: " + str(total));
        }
        reserveNodes(total, 32);
        std::uint64_t read = 0;
        std::vector<std::uint64_t> tags;
        std::vector<double> coords;
        for (std::uint64_t b = 0; b < blocks; ++b) {
            const int dim = bin.integer("an entity dimension 0 to 3", 0, 3);
            bin.integer("an entity tag", static_cast<int>(kMinInt), static_cast<int>(kMaxInt));
            const bool parametric = bin.integer("parametric flag 0 or 1", 0, 1) == 1;
            const std::uint64_t n = bin.count("the number of nodes in the block");
            if (n > total - read) {
                bin.fail("node count mismatch: the blocks hold more than the " + str(total) +
                         " nodes the $Nodes header declares");
            }
            const std::uint64_t perNode = 3 + (parametric ? static_cast<std::uint64_t>(dim) : 0);
            bin.require(n, 8 + 8 * perNode, "nodes");
            tags.resize(static_cast<std::size_t>(n));
            bin.bytes(tags.data(), 8 * n, "node tags");
            for (std::size_t i = 0; i < tags.size(); ++i) {
                if (tags[i] == 0 || tags[i] > static_cast<std::uint64_t>(kMaxTag)) {
                    bin.failIn(tags.data(), 8 * i,
                               "expected a node tag (a positive integer), got " + str(tags[i]));
                }
                if (!addNodeTag(static_cast<long>(tags[i]))) {
                    bin.failIn(tags.data(), 8 * i, "duplicate node tag " + str(tags[i]));
                }
            }
            coords.resize(static_cast<std::size_t>(n * perNode));
            bin.bytes(coords.data(), 8 * n * perNode, "node coordinates");
            for (std::size_t i = 0; i < tags.size(); ++i) {
                for (std::size_t k = 0; k < 3; ++k) {
                    const double x = coords[i * perNode + k];
                    if (!std::isfinite(x)) {
                        bin.failIn(coords.data(), 8 * (i * perNode + k),
                                   "expected a finite coordinate of node " + str(tags[i]));
                    }
                    xyz_.push(x);
                }
            }
            read += n;
        }
        if (read != total) {
            bin.failAt(headOffset, headLine,
                       "node count mismatch: the $Nodes header declares " + str(total) +
                           " nodes, the blocks hold " + str(read));
        }
        bin.finish();
        expectEnd("Nodes", true);
    }

    // 2.2: count, then "id x y z" per line.
    // Each line "id x y z", parametric: "id x y z dim entity", then u on curves (dim 1), u v on
    // surfaces (dim 2), read and dropped.
    void readNodes22(bool parametric) {
        Record head(r_, "the number of nodes");
        const std::uint64_t n = head.count("the number of nodes");
        head.end("the number of nodes");
        if (!roomForNodes(n)) {
            r_.fail("too many nodes: " + str(n));
        }
        reserveNodes(n, 8);
        for (std::uint64_t i = 0; i < n; ++i) {
            Record rec(r_, parametric ? "a node line (id x y z dim entity [u [v]])"
                                      : "a node line (id x y z)");
            const long id = rec.integer("a node id (a positive integer)", 1, kMaxTag);
            for (int k = 0; k < 3; ++k) {
                xyz_.push(rec.real("a coordinate"));
            }
            if (parametric) {
                const long dim = rec.integer("an entity dimension 0 to 3", 0, 3);
                rec.integer("an entity tag", kMinInt, kMaxInt);
                for (long k = 0; k < (dim == 1 || dim == 2 ? dim : 0); ++k) {
                    rec.real("a parametric coordinate");
                }
            }
            rec.end("the node coordinates");
            if (!addNodeTag(id)) {
                r_.fail("duplicate node id " + str(id));
            }
        }
        expectEnd(parametric ? "ParametricNodes" : "Nodes", false);
    }

    void readNodes22Binary() {
        Record head(r_, "the number of nodes");
        const std::uint64_t n = head.count("the number of nodes");
        head.end("the number of nodes");
        Binary bin(r_, "$Nodes", fileSize_);
        constexpr std::size_t kNode = 4 + 3 * 8;  // int id, 3 doubles
        bin.require(n, kNode, "nodes");
        if (!roomForNodes(n)) {
            bin.fail("too many nodes: " + str(n));
        }
        reserveNodes(n, kNode);
        std::vector<unsigned char> buf(static_cast<std::size_t>(n * kNode));
        bin.bytes(buf.data(), buf.size(), "node data");
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned char* p = buf.data() + i * kNode;
            std::int32_t id = 0;
            std::memcpy(&id, p, 4);
            if (id <= 0) {
                bin.failIn(buf.data(), i * kNode,
                           "expected a node id (a positive integer), got " + str(int{id}));
            }
            for (std::size_t k = 0; k < 3; ++k) {
                double x = 0;
                std::memcpy(&x, p + 4 + 8 * k, 8);
                if (!std::isfinite(x)) {
                    bin.failIn(buf.data(), i * kNode + 4 + 8 * k,
                               "expected a finite coordinate of node " + str(int{id}));
                }
                xyz_.push(x);
            }
            if (!addNodeTag(id)) {
                bin.failIn(buf.data(), i * kNode, "duplicate node id " + str(int{id}));
            }
        }
        bin.finish();
        expectEnd("Nodes", true);
    }

    void readElements() {
        if (haveElements_) {
            r_.fail("second $Elements section");
        }
        if (!haveNodes_) {
            r_.fail("expected $Nodes before $Elements");
        }
        haveElements_ = true;
        if (v4_) {
            binary_ ? readElements41Binary() : readElements41();
        } else {
            binary_ ? readElements22Binary() : readElements22();
        }
    }

    // The block of a Gmsh type, created at its first appearance.
    Index blockFor(int gmshType, const ElementType& t, long line) {
        const auto it = blockOfType_.find(gmshType);
        if (it != blockOfType_.end()) {
            return it->second;
        }
        ElementBlock b;
        b.type = std::string(t.name);
        b.nodesPerElement = t.nodes;
        b.source = Source{m_.path, line};
        m_.blocks.push_back(std::move(b));
        blockTypes_.push_back(&t);
        const auto index = static_cast<Index>(m_.blocks.size() - 1);
        blockOfType_.emplace(gmshType, index);
        return index;
    }

    [[nodiscard]] bool roomForElements(const ElementBlock& b, std::uint64_t n) const {
        return n <= kMaxIndex - b.ids.size();
    }

    void addToGroup(const Key& key, const ElementRef& ref, long line) {
        Group& g = groups_[key];
        if (g.line == 0) {
            g.line = line;
        }
        g.elements.push_back(ref);
    }

    // 2.2: the element's elementary entity (its second tag), for files without physical groups;
    // consecutive elements of one entity and block make one run.
    void addElementary(const Key& entity, const ElementRef& ref, long line) {
        if (!elementary_.empty()) {
            Run& last = elementary_.back();
            if (last.entity == entity && last.block == ref.block &&
                last.first + last.count == ref.element) {
                ++last.count;
                return;
            }
        }
        elementary_.push_back(Run{entity, ref.block, ref.element, 1, line});
    }

    // 4.1: header, then per entity block (one element type) "tag node-tags..." per line.
    void readElements41() {
        Record head(r_, "the $Elements header (blocks, elements, min tag, max tag)");
        const std::uint64_t blocks = head.count("the number of element blocks");
        const std::uint64_t total = head.count("the number of elements");
        head.count("the minimum element tag");
        head.count("the maximum element tag");
        head.end("the $Elements header");
        const long headLine = r_.line();
        std::uint64_t read = 0;
        for (std::uint64_t b = 0; b < blocks; ++b) {
            Record bh(r_, "an element block header (entity dimension, entity tag, type, count)");
            const int dim = static_cast<int>(bh.integer("an entity dimension 0 to 3", 0, 3));
            const int etag = static_cast<int>(bh.integer("an entity tag", kMinInt, kMaxInt));
            const int type = static_cast<int>(bh.integer("an element type", kMinInt, kMaxInt));
            const std::uint64_t n = bh.count("the number of elements in the block");
            bh.end("the element block header");
            if (n > total - read) {
                r_.fail("element count mismatch: the blocks hold more than the " + str(total) +
                        " elements the $Elements header declares");
            }
            const ElementType* t = detail::findGmshType(type);
            if (t == nullptr) {  // skipped, one element a line (its tags still checked)
                const long at = r_.line();
                for (std::uint64_t i = 0; i < n; ++i) {
                    Record rec(r_, "an element line (tag, node tags)");
                    const long id = rec.integer("an element tag (a positive integer)", 1, kMaxTag);
                    if (!elementIds_.insert(id, 0)) {
                        r_.fail("duplicate element tag " + str(id));
                    }
                }
                noteSkipped(type, at, n);
                read += n;
                continue;
            }
            if (t->dim != dim) {
                r_.fail("element type " + str(type) + " has dimension " + str(t->dim) +
                        ", but its block belongs to an entity of dimension " + str(dim));
            }
            const long line = r_.line();
            const Index block = blockFor(type, *t, line);
            ElementBlock& eb = m_.blocks[static_cast<std::size_t>(block)];
            if (!roomForElements(eb, n)) {
                r_.fail("too many elements of type " + str(type));
            }
            const auto first = static_cast<Index>(eb.ids.size());
            const std::size_t c = capped(n, 2 * (1 + static_cast<std::uint64_t>(t->nodes)));
            eb.ids.reserve(eb.ids.size() + c);
            eb.nodes.reserve(eb.nodes.size() + c * static_cast<std::size_t>(t->nodes));
            for (std::uint64_t i = 0; i < n; ++i) {
                Record rec(r_, "an element line (tag, node tags)");
                const long id = rec.integer("an element tag (a positive integer)", 1, kMaxTag);
                // The whole line before the tag's uniqueness: a line cut short (a truncated file)
                // holds the first digits of a tag, which may well be taken.
                for (int k = 0; k < t->nodes; ++k) {
                    if (rec.atEnd()) {
                        r_.fail("the line ends early: expected " + str(t->nodes) +
                                " node tags for element " + str(id) + " (Gmsh type " + str(type) +
                                "), got " + str(k));
                    }
                    const long tag = rec.integer("a node tag (a positive integer)", 1, kMaxTag);
                    eb.nodes.push_back(nodeOf(tag, id));
                }
                if (!rec.atEnd()) {
                    r_.fail("expected " + str(t->nodes) + " node tags for element " + str(id) +
                            " (Gmsh type " + str(type) + "), got more");
                }
                if (!elementIds_.insert(id, 0)) {
                    r_.fail("duplicate element tag " + str(id));
                }
                eb.ids.push_back(id);
            }
            runs_.push_back(
                Run{Key{dim, etag}, block, first, static_cast<Index>(eb.ids.size()) - first, line});
            read += n;
        }
        if (read != total) {
            failAt(headLine, "element count mismatch: the $Elements header declares " + str(total) +
                                 " elements, the blocks hold " + str(read));
        }
        expectEnd("Elements", false);
    }

    // Node index of a tag in an ASCII element line; undefined tags are an error on that line.
    Index nodeOf(long tag, long element) {
        const Index node = m_.nodeIndex.find(tag);
        if (node == contact::kNoIndex) {
            r_.fail("undefined node tag " + str(tag) + " in element " + str(element));
        }
        return node;
    }

    void readElements41Binary() {
        Binary bin(r_, "$Elements", fileSize_);
        const std::uint64_t blocks = bin.count("the number of element blocks");
        const long headLine = bin.line();
        const std::uint64_t headOffset = bin.offset();
        const std::uint64_t total = bin.count("the number of elements");
        bin.count("the minimum element tag");
        bin.count("the maximum element tag");
        std::uint64_t read = 0;
        std::vector<std::uint64_t> data;
        for (std::uint64_t b = 0; b < blocks; ++b) {
            const long line = bin.line();
            const std::uint64_t at = bin.offset();
            const int dim = bin.integer("an entity dimension 0 to 3", 0, 3);
            const int etag =
                bin.integer("an entity tag", static_cast<int>(kMinInt), static_cast<int>(kMaxInt));
            const int type = bin.integer("an element type", static_cast<int>(kMinInt),
                                         static_cast<int>(kMaxInt));
            const std::uint64_t n = bin.count("the number of elements in the block");
            if (n > total - read) {
                bin.failAt(at, line,
                           "element count mismatch: the blocks hold more than the " + str(total) +
                               " elements the $Elements header declares");
            }
            const ElementType* t = detail::findGmshType(type);
            if (t == nullptr) {  // skipped by the node count Gmsh's documentation gives the type
                const int nodes = gmshNodeCount(type);
                if (nodes == 0) {
                    bin.failAt(at, line,
                               "unsupported element type " + str(type) +
                                   " (its node count is unknown, so its block cannot be skipped)");
                }
                const std::size_t per = 1 + static_cast<std::size_t>(nodes);
                bin.require(n, 8 * per, "elements");
                data.resize(static_cast<std::size_t>(n) * per);
                bin.bytes(data.data(), 8 * data.size(), "element data");
                noteSkipped(type, line, n);
                read += n;
                continue;
            }
            if (t->dim != dim) {
                bin.failAt(at, line,
                           "element type " + str(type) + " has dimension " + str(t->dim) +
                               ", but its block belongs to an entity of dimension " + str(dim));
            }
            const std::size_t per = 1 + static_cast<std::size_t>(t->nodes);
            bin.require(n, 8 * per, "elements");
            const Index block = blockFor(type, *t, line);
            ElementBlock& eb = m_.blocks[static_cast<std::size_t>(block)];
            if (!roomForElements(eb, n)) {
                bin.failAt(at, line, "too many elements of type " + str(type));
            }
            const auto first = static_cast<Index>(eb.ids.size());
            data.resize(static_cast<std::size_t>(n) * per);
            bin.bytes(data.data(), 8 * data.size(), "element data");
            eb.ids.reserve(eb.ids.size() + static_cast<std::size_t>(n));
            eb.nodes.reserve(eb.nodes.size() + static_cast<std::size_t>(n) * (per - 1));
            for (std::size_t e = 0; e < n; ++e) {
                const std::uint64_t* d = data.data() + e * per;
                if (d[0] == 0 || d[0] > static_cast<std::uint64_t>(kMaxTag)) {
                    bin.failIn(data.data(), 8 * e * per,
                               "expected an element tag (a positive integer), got " + str(d[0]));
                }
                const auto id = static_cast<long>(d[0]);
                if (!elementIds_.insert(id, 0)) {
                    bin.failIn(data.data(), 8 * e * per, "duplicate element tag " + str(id));
                }
                for (std::size_t k = 1; k < per; ++k) {
                    const Index node = d[k] > static_cast<std::uint64_t>(kMaxTag)
                                           ? contact::kNoIndex
                                           : m_.nodeIndex.find(static_cast<long>(d[k]));
                    if (node == contact::kNoIndex) {
                        bin.failIn(data.data(), 8 * (e * per + k),
                                   "undefined node tag " + str(d[k]) + " in element " + str(id));
                    }
                    eb.nodes.push_back(node);
                }
                eb.ids.push_back(id);
            }
            runs_.push_back(
                Run{Key{dim, etag}, block, first, static_cast<Index>(eb.ids.size()) - first, line});
            read += n;
        }
        if (read != total) {
            bin.failAt(headOffset, headLine,
                       "element count mismatch: the $Elements header declares " + str(total) +
                           " elements, the blocks hold " + str(read));
        }
        bin.finish();
        expectEnd("Elements", true);
    }

    // 2.2: count, then "id type ntags tags... nodes..." per line; the first tag is the physical
    // group (0: none). Lines are self-contained, so unknown types are skipped and noted.
    void readElements22() {
        Record head(r_, "the number of elements");
        const std::uint64_t n = head.count("the number of elements");
        head.end("the number of elements");
        for (std::uint64_t i = 0; i < n; ++i) {
            Record rec(r_, "an element line (id, type, tag count, tags, nodes)");
            const long id = rec.integer("an element id (a positive integer)", 1, kMaxTag);
            const int type = static_cast<int>(rec.integer("an element type", kMinInt, kMaxInt));
            const std::uint64_t ntags = rec.count("the number of tags");
            int physical = 0;
            int elementary = 0;
            for (std::uint64_t k = 0; k < ntags; ++k) {
                const long v = rec.integer("an element tag (integer)", kMinInt, kMaxInt);
                if (k == 0) {
                    physical = static_cast<int>(v);
                } else if (k == 1) {
                    elementary = static_cast<int>(v);
                }
            }
            const ElementType* t = detail::findGmshType(type);
            if (t == nullptr) {
                const Seen seen =
                    see22(id, ElementRef{contact::kNoIndex, type}, nullptr, r_.line());
                if (seen.conflict) {
                    r_.fail(duplicate22(id));
                }
                if (!seen.repeat) {
                    noteSkipped(type, r_.line());
                }
                continue;
            }
            const Index block = blockFor(type, *t, r_.line());
            ElementBlock& eb = m_.blocks[static_cast<std::size_t>(block)];
            if (!roomForElements(eb, 1)) {
                r_.fail("too many elements of type " + str(type));
            }
            for (int k = 0; k < t->nodes; ++k) {
                if (rec.atEnd()) {
                    r_.fail("the line ends early: expected " + str(t->nodes) +
                            " node ids for element " + str(id) + " (Gmsh type " + str(type) +
                            "), got " + str(k));
                }
                const long tag = rec.integer("a node id (a positive integer)", 1, kMaxTag);
                eb.nodes.push_back(nodeOf(tag, id));
            }
            if (!rec.atEnd()) {
                r_.fail("expected " + str(t->nodes) + " node ids for element " + str(id) +
                        " (Gmsh type " + str(type) + "), got more");
            }
            // The id after the whole line, as in 4.1.
            const Seen seen = addElement22(id, block, r_.line());
            if (seen.conflict) {
                r_.fail(duplicate22(id));
            }
            if (physical != 0) {
                addToGroup(Key{t->dim, physical}, seen.first, r_.line());
            }
            if (elementary != 0 && !seen.repeat) {
                addElementary(Key{t->dim, elementary}, seen.first, r_.line());
            }
        }
        expectEnd("Elements", false);
    }

    // An element id of a 2.2 file met again, or for the first time.
    struct Seen {
        ElementRef first;  // the element first read under the id (this one when it is new)
        bool repeat = false;
        bool conflict = false;
    };

    // 2.2: registers element `id`, read as `ref` (block kNoIndex for a type not read, element
    // its Gmsh type) with `nodes` (as many as its block has; nullptr for a type not read). Gmsh
    // writes an element of several physical groups once per group, all with its one id when
    // Mesh.PreserveNumberingMsh2 is set: an id met again is a repeat of the element when the type
    // and the nodes are the same (types not read: the type), else a conflict.
    Seen see22(long id, const ElementRef& ref, const Index* nodes, long line) {
        const Index k = elementIds_.find(id);
        if (k == contact::kNoIndex) {
            if (seen22_.size() >= kMaxIndex) {
                failAt(line, "too many elements");
            }
            elementIds_.insert(id, static_cast<Index>(seen22_.size()));
            seen22_.push_back(ref);
            return Seen{ref, false, false};
        }
        const ElementRef first = seen22_[static_cast<std::size_t>(k)];
        bool same = first.block == ref.block;
        if (same && nodes == nullptr) {
            same = first.element == ref.element;
        } else if (same) {
            const ElementBlock& b = m_.blocks[static_cast<std::size_t>(first.block)];
            const Index* before = b.element(first.element);
            for (int i = 0; same && i < b.nodesPerElement; ++i) {
                same = nodes[i] == before[i];
            }
        }
        return Seen{first, same, !same};
    }

    // 2.2: element `id` of block `block`, its nodes just appended, registered (see22): a
    // repeat's nodes are taken off again, a new element keeps its id. A conflict changes
    // nothing; the caller fails.
    Seen addElement22(long id, Index block, long line) {
        ElementBlock& eb = m_.blocks[static_cast<std::size_t>(block)];
        const auto per = static_cast<std::size_t>(eb.nodesPerElement);
        const Seen seen = see22(id, ElementRef{block, static_cast<Index>(eb.ids.size())},
                                eb.nodes.data() + eb.nodes.size() - per, line);
        if (seen.repeat) {  // one more group of the element read before
            eb.nodes.resize(eb.nodes.size() - per);
        } else if (!seen.conflict) {
            eb.ids.push_back(id);
        }
        return seen;
    }

    static std::string duplicate22(long id) {
        return "duplicate element id " + str(id) +
               " with another type or other nodes (Gmsh repeats an element of several physical "
               "groups with the same type and nodes)";
    }

    void noteSkipped(int type, long line, std::uint64_t count = 1) {
        for (Skipped& s : skipped_) {
            if (s.type == type) {
                s.count += count;
                return;
            }
        }
        skipped_.push_back(Skipped{type, line, count});
    }

    // 2.2 binary: count (ASCII), then groups of one type: header (type, count, ntags) and per
    // element id, tags, nodes as 4-byte ints.
    void readElements22Binary() {
        Record head(r_, "the number of elements");
        const std::uint64_t n = head.count("the number of elements");
        head.end("the number of elements");
        Binary bin(r_, "$Elements", fileSize_);
        std::uint64_t read = 0;
        std::vector<std::int32_t> data;
        while (read < n) {
            const long line = bin.line();
            const std::uint64_t at = bin.offset();
            const int type = bin.integer("an element type", std::numeric_limits<int>::min(),
                                         std::numeric_limits<int>::max());
            const int follow = bin.integer("an element count", 0, std::numeric_limits<int>::max());
            const int ntags = bin.integer("a tag count", 0, std::numeric_limits<int>::max());
            const ElementType* t = detail::findGmshType(type);
            // A type not read is skipped by the node count Gmsh's documentation gives it.
            const int nodes = t != nullptr ? t->nodes : gmshNodeCount(type);
            if (nodes == 0) {
                bin.failAt(at, line,
                           "unsupported element type " + str(type) +
                               " (its node count is unknown, so binary data cannot be skipped)");
            }
            if (static_cast<std::uint64_t>(follow) > n - read) {
                bin.failAt(at, line,
                           "element count mismatch: the groups hold more than the " + str(n) +
                               " elements the $Elements count declares");
            }
            const std::size_t per =
                1 + static_cast<std::size_t>(ntags) + static_cast<std::size_t>(nodes);
            bin.require(static_cast<std::uint64_t>(follow), 4 * per, "elements");
            if (t == nullptr) {
                skipElements22(bin, type, follow, per, line);
                read += static_cast<std::uint64_t>(follow);
                continue;
            }
            const Index block = blockFor(type, *t, line);
            ElementBlock& eb = m_.blocks[static_cast<std::size_t>(block)];
            if (!roomForElements(eb, static_cast<std::uint64_t>(follow))) {
                bin.failAt(at, line, "too many elements of type " + str(type));
            }
            data.resize(static_cast<std::size_t>(follow) * per);
            bin.bytes(data.data(), 4 * data.size(), "element data");
            for (std::size_t e = 0; e < static_cast<std::size_t>(follow); ++e) {
                const std::int32_t* d = data.data() + e * per;
                const std::size_t pos = 4 * e * per;
                if (d[0] <= 0) {
                    bin.failIn(data.data(), pos,
                               "expected an element id (a positive integer), got " +
                                   str(int{d[0]}));
                }
                for (std::size_t k = 0; k < static_cast<std::size_t>(t->nodes); ++k) {
                    const std::int32_t tag = d[1 + static_cast<std::size_t>(ntags) + k];
                    const Index node = m_.nodeIndex.find(tag);
                    if (node == contact::kNoIndex) {
                        bin.failIn(data.data(), pos + 4 * (1 + static_cast<std::size_t>(ntags) + k),
                                   "undefined node tag " + str(int{tag}) + " in element " +
                                       str(int{d[0]}));
                    }
                    eb.nodes.push_back(node);
                }
                const long at = bin.lineIn(data.data(), pos);
                const Seen seen = addElement22(d[0], block, at);
                if (seen.conflict) {
                    bin.failIn(data.data(), pos, duplicate22(d[0]));
                }
                if (ntags > 0 && d[1] != 0) {
                    addToGroup(Key{t->dim, d[1]}, seen.first, at);
                }
                if (ntags > 1 && d[2] != 0 && !seen.repeat) {
                    addElementary(Key{t->dim, d[2]}, seen.first, at);
                }
            }
            read += static_cast<std::uint64_t>(follow);
        }
        bin.finish();
        expectEnd("Elements", true);
    }

    // 2.2 binary: `count` elements of a type not read, `per` 4-byte ints each; ids registered.
    void skipElements22(Binary& bin, int type, int count, std::size_t per, long line) {
        std::vector<std::int32_t> data(static_cast<std::size_t>(count) * per);
        bin.bytes(data.data(), 4 * data.size(), "element data");
        std::uint64_t fresh = 0;
        for (std::size_t e = 0; e < static_cast<std::size_t>(count); ++e) {
            const std::int32_t id = data[e * per];
            if (id <= 0) {
                bin.failIn(data.data(), 4 * e * per,
                           "expected an element id (a positive integer), got " + str(int{id}));
            }
            const Seen seen = see22(id, ElementRef{contact::kNoIndex, type}, nullptr,
                                    bin.lineIn(data.data(), 4 * e * per));
            if (seen.conflict) {
                bin.failIn(data.data(), 4 * e * per, duplicate22(id));
            }
            fresh += seen.repeat ? 0 : 1;
        }
        if (fresh > 0) {
            noteSkipped(type, line, fresh);
        }
    }

    // Unknown or unused sections: skipped up to their end line and noted.
    void skipSection(const std::string& name) {
        const long open = r_.line();
        note(open, "skipped section $" + name);
        const std::string end = "$End" + name;
        std::string line;
        while (r_.next(line)) {
            if (trim(line) == end) {
                return;
            }
        }
        failAt(open, "expected " + end + " to close the section opened here, got end of file");
    }

    // Highest dimension of the elements read; -1 without elements.
    [[nodiscard]] int topDimension() const {
        int top = -1;
        for (std::size_t b = 0; b < m_.blocks.size(); ++b) {
            if (!m_.blocks[b].ids.empty()) {
                top = std::max(top, blockTypes_[b]->dim);
            }
        }
        return top;
    }

    // Dimension of the groups that hold the body's elements: element sets, never surfaces. 3 in
    // a mesh with volumes. 2 in a planar mesh (every node at one z, as Gmsh draws a 2D model)
    // whose highest dimension is 2 and which also has curves to search, the bodies' boundaries:
    // a 2D model. Otherwise none (4): a shell (triangles and quadrangles in 3D, or flat with no
    // curve to search) is made of surfaces, searched as such.
    [[nodiscard]] int bodyDimension(bool curves) const {
        const int top = topDimension();
        if (top == 3) {
            return 3;
        }
        const bool planar =
            m_.numNodes() == 0 || (m_.coords.row(2).array() == m_.coords(2, 0)).all();
        return top == 2 && planar && curves ? 2 : 4;
    }

    // Coordinates, physical groups (4.1 through entities), sets and surfaces.
    void finish() {
        xyz_.finish();
        m_.nodeIndex.compact();
        elementIds_.clear();
        seen22_ = {};

        for (const Skipped& s : skipped_) {
            note(s.line,
                 "skipped " + str(s.count) + " element(s) of unsupported Gmsh type " + str(s.type));
        }

        if (!runs_.empty() && !haveEntities_) {
            note(runs_.front().line,
                 "no $Entities section: the elements belong to no physical group");
        }
        const std::vector<Run> runs = haveEntities_ ? modelRuns() : runs_;
        for (const auto& [key, named] : names_) {
            Group& g = groups_[key];
            g.line = named.line;
        }
        if (groups_.empty()) {
            addEntitySurfaces(v4_ ? runs : elementary_);
            return;
        }
        const int bodyDim = bodyDimension(std::any_of(
            groups_.begin(), groups_.end(), [](const auto& kg) { return kg.first.first == 1; }));

        // One name at several dimensions names several groups: the Gmsh manual tells physical
        // groups apart by dimension and tag. The name stands for the group of the surfaces'
        // dimension (the one below the bodies'; 2 in a shell), or the highest where none has it.
        // The others are noted, not merged: faces, edges and points make no surface to search.
        const int surfaceDim = bodyDim <= 3 ? bodyDim - 1 : std::min(topDimension(), 2);
        std::map<std::string, int> nameDim;
        for (const auto& kg : groups_) {
            const int dim = kg.first.first;
            const auto [it, fresh] = nameDim.try_emplace(groupName(kg.first), dim);
            if (!fresh && it->second != surfaceDim && (dim == surfaceDim || dim > it->second)) {
                it->second = dim;
            }
        }
        for (auto& [key, g] : groups_) {
            const std::string name = groupName(key);
            const int dim = nameDim.at(name);
            if (key.first != dim) {
                note(g.line, "physical group '" + name + "' (" + keyText(key) +
                                 ") is left out: the name stands for the group of dimension " +
                                 str(dim) + " (groups are told apart by dimension and tag)");
                continue;
            }
            addGroup(name, key, g, (key.first == 1 || key.first == 2) && key.first < bodyDim);
        }
    }

    // 4.1: the element blocks on the entities of the model, their elements put in the groups of
    // the entities' physical tags. A block on an entity of $PartitionedEntities is one on its
    // parent: the physical tags are the parent's, and so is the entity_<dim>_<tag> name, so that
    // a partitioned file reads as its unpartitioned twin. An entity whose parent has another
    // dimension is an interface between partitions inside the parent (a face inside a volume),
    // no boundary of the model; Gmsh 4.8 gives it the parent's physical tags, which name groups
    // of the parent's dimension: its elements are read, in no group and no surface.
    std::vector<Run> modelRuns() {
        std::vector<Run> runs;
        std::uint64_t inside = 0;
        long insideLine = 0;
        for (const Run& run : runs_) {
            const auto it = entities_.find(run.entity);
            if (it == entities_.end()) {
                failAt(run.line, "element block refers to the entity (" + keyText(run.entity) +
                                     "), which $Entities does not list");
            }
            const Key parent = it->second.parent;
            if (parent.first != run.entity.first) {
                inside += static_cast<std::uint64_t>(run.count);
                insideLine = insideLine == 0 ? run.line : insideLine;
                continue;
            }
            const auto p = entities_.find(parent);
            Run modelRun = run;
            modelRun.entity = parent;
            runs.push_back(modelRun);
            for (const int physical : (p != entities_.end() ? p : it)->second.physicals) {
                Group& g = groups_[Key{run.entity.first, physical}];
                if (g.line == 0) {
                    g.line = run.line;
                }
                for (Index e = 0; e < run.count; ++e) {
                    g.elements.push_back(ElementRef{run.block, run.first + e});
                }
            }
        }
        if (inside > 0) {
            note(insideLine, str(inside) +
                                 " element(s) on interfaces between partitions (entities of "
                                 "$PartitionedEntities inside a parent of higher dimension) "
                                 "belong to no physical group and no surface");
        }
        return runs;
    }

    // No physical group: Gmsh then saves every element with its elementary entity (the Gmsh
    // manual, "Physical groups"; 4.1: the entity of the element block, 2.2: the element's second
    // tag). Each entity of the surfaces' dimension is a surface, entity_<dim>_<tag>, with its
    // element and node sets, chosen as for groups (faces in 3D, curves in a planar mesh that has
    // curves, else faces).
    void addEntitySurfaces(const std::vector<Run>& runs) {
        const bool curves = std::any_of(runs.begin(), runs.end(), [](const Run& run) {
            return run.entity.first == 1 && run.count > 0;
        });
        const int bodyDim = bodyDimension(curves);
        const int dim = bodyDim <= 3 ? bodyDim - 1 : std::min(topDimension(), 2);
        std::map<Key, Group> entities;
        for (const Run& run : runs) {
            if (run.entity.first != dim || run.count == 0 || (dim != 1 && dim != 2)) {
                continue;
            }
            Group& g = entities[run.entity];
            if (g.line == 0) {
                g.line = run.line;
            }
            for (Index e = 0; e < run.count; ++e) {
                g.elements.push_back(ElementRef{run.block, run.first + e});
            }
        }
        if (entities.empty()) {
            return;
        }
        note(entities.begin()->second.line,
             "no physical groups: the elements of each elementary entity of dimension " + str(dim) +
                 " make a surface named entity_" + str(dim) + "_<tag> (" +
                 str(static_cast<std::uint64_t>(entities.size())) + " surfaces)");
        for (auto& [key, g] : entities) {
            addGroup("entity_" + str(key.first) + "_" + str(key.second), key, g, true);
        }
        m_.entitySurfaces = true;
    }

    [[nodiscard]] std::string groupName(const Key& key) const {
        const auto named = names_.find(key);
        return named != names_.end() ? named->second.name
                                     : "physical_" + str(key.first) + "_" + str(key.second);
    }

    // A group's element set and node set, and its surface when `surface`: what a name already
    // holds (groups of one dimension sharing it) is merged.
    void addGroup(const std::string& name, const Key& key, Group& g, bool surface) {
        std::sort(g.elements.begin(), g.elements.end(), refLess);
        g.elements.erase(std::unique(g.elements.begin(), g.elements.end()), g.elements.end());
        if (g.elements.empty()) {
            note(g.line, "physical group '" + name + "' (" + keyText(key) + ") has no elements");
        }

        auto [set, fresh] = m_.elementSets.try_emplace(name);
        if (!fresh) {
            note(g.line, "physical groups share the name '" + name +
                             "': their element sets, node sets and surfaces are merged");
        }
        set->second.insert(set->second.end(), g.elements.begin(), g.elements.end());
        std::sort(set->second.begin(), set->second.end(), refLess);
        set->second.erase(std::unique(set->second.begin(), set->second.end()), set->second.end());

        std::vector<Index>& nodes = m_.nodeSets[name];
        for (const ElementRef& ref : g.elements) {
            const ElementBlock& b = m_.blocks[static_cast<std::size_t>(ref.block)];
            const Index* p = b.element(ref.element);
            nodes.insert(nodes.end(), p, p + b.nodesPerElement);
        }
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());

        if (!surface) {
            return;
        }
        auto s = std::find_if(m_.surfaces.begin(), m_.surfaces.end(),
                              [&](const SurfaceDef& d) { return d.name == name; });
        if (s == m_.surfaces.end()) {
            SurfaceDef def;
            def.name = name;
            def.source = Source{m_.path, g.line};
            m_.surfaces.push_back(std::move(def));
            s = m_.surfaces.end() - 1;
        }
        for (const ElementRef& ref : g.elements) {
            if (blockTypes_[static_cast<std::size_t>(ref.block)]->kind == ElementKind::kSegment) {
                s->faces.push_back(FaceRef{ref, 1});
            }
        }
        std::sort(s->faces.begin(), s->faces.end(),
                  [](const FaceRef& a, const FaceRef& b) { return refLess(a.element, b.element); });
        s->faces.erase(
            std::unique(s->faces.begin(), s->faces.end(),
                        [](const FaceRef& a, const FaceRef& b) { return a.element == b.element; }),
            s->faces.end());
    }

    LineReader r_;
    Model m_;
    std::uint64_t fileSize_ = 0;
    bool binary_ = false;
    bool v4_ = false;
    bool haveEntities_ = false;
    bool haveNodes_ = false;
    bool haveElements_ = false;
    detail::CoordinateBuffer xyz_;  // into m_.coords, 3 per node, in node order
    IdIndex elementIds_;            // every element id read (2.2: its index in seen22_)
    std::map<int, Index> blockOfType_;
    std::vector<const ElementType*> blockTypes_;
    std::map<Key, Named> names_;
    std::map<Key, Entity> entities_;
    std::vector<Run> runs_;
    std::vector<Run> elementary_;     // 2.2: elements by elementary entity
    std::vector<ElementRef> seen22_;  // 2.2: by elementIds_ index, each id's element (see22)
    std::map<Key, Group> groups_;
    std::vector<Skipped> skipped_;
};

}  // namespace

Model readGmsh(const std::string& path) { return GmshReader(path).read(); }

}  // namespace mesh_io
