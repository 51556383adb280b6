// SPDX-License-Identifier: MIT
// Abaqus / CalculiX .inp reader: one pass over the lines, keyword dispatch into sections, a nested
// line reader per *INCLUDE (so errors name the included file), element types from
// element_types.hpp. Structure after meshio's src/meshio/abaqus/_abaqus.py, with line numbers.
// Nodes, elements, sets and surfaces go into a scope: the model, a *PART, or an *INSTANCE (a
// copy of its part, placed and appended to the model at *END INSTANCE), so each part numbers
// its nodes and elements on its own.
#include "mesh_io/abaqus.hpp"

#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"

#include "coordinate_buffer.hpp"
#include "element_types.hpp"
#include "general_contact.hpp"
#include "line_reader.hpp"
#include "text.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;
using detail::ElementKind;
using detail::ElementType;
using detail::LineReader;

// Nested *INCLUDE levels; deeper means a cycle the path check missed (links) or a runaway file.
constexpr int kMaxIncludeDepth = 32;
// Abaqus writes at most 16 entries per data line; an element of an unsupported type continues on
// the next line only when its line is full and ends with a comma.
constexpr std::size_t kMaxEntriesPerLine = 16;

// ---------------------------------------------------------------------------------------------
// Text helpers.

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && isBlank(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && isBlank(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

char upperChar(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        c = upperChar(c);
    }
    return out;
}

// Upper case without any blanks: how keywords, parameters and TYPE values are matched
// ("* Contact  Pair" -> "CONTACTPAIR").
std::string squeeze(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        if (!isBlank(c)) {
            out.push_back(upperChar(c));
        }
    }
    return out;
}

// Upper case with runs of blanks as one space: how a keyword is shown in notes ("CONTACT PAIR").
std::string displayName(std::string_view s) {
    std::string out;
    for (const char c : trim(s)) {
        if (isBlank(c)) {
            if (out.empty() || out.back() != ' ') {
                out.push_back(' ');
            }
        } else {
            out.push_back(upperChar(c));
        }
    }
    return out;
}

// "<name>", unquoted: a *PARAMETER reference (Abaqus names begin with a letter, or are quoted).
bool isParameterReference(std::string_view s) {
    s = trim(s);
    return s.size() >= 3 && s.front() == '<' && s.back() == '>';
}

std::string_view unquote(std::string_view s) {
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
        s = s.substr(1, s.size() - 2);
    }
    return s;
}

// A name on a data line, its quotes removed wherever they are: "Blk,2".Bottom names the surface
// Bottom of the instance Blk,2 (the quotes keep the comma in the name).
std::string label(std::string_view s) {
    std::string out;
    for (const char c : trim(s)) {
        if (c != '"') {
            out += c;
        }
    }
    return out;
}

// A parameter value: quoted as written, otherwise without blanks (blanks on keyword lines are
// ignored, Abaqus input syntax rules).
std::string paramValue(std::string_view s) {
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
        return std::string(s.substr(1, s.size() - 2));
    }
    std::string out;
    for (const char c : s) {
        if (!isBlank(c)) {
            out.push_back(c);
        }
    }
    return out;
}

// A token as shown in a message: long garbage is cut.
std::string shown(std::string_view s) {
    constexpr std::size_t kMax = 60;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

// Splits at commas outside double quotes into trimmed fields. One trailing empty field (a
// trailing comma) is dropped and reported in `trailingComma`. False on an unclosed quote.
bool splitFields(std::string_view line, std::vector<std::string_view>& out, bool& trailingComma) {
    out.clear();
    bool quoted = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"') {
            quoted = !quoted;
        } else if (line[i] == ',' && !quoted) {
            out.push_back(trim(line.substr(start, i - start)));
            start = i + 1;
        }
    }
    out.push_back(trim(line.substr(start)));
    trailingComma = out.size() > 1 && out.back().empty();
    if (trailingComma) {
        out.pop_back();
    }
    return !quoted;
}

bool looksNumeric(std::string_view t) {
    return !t.empty() && ((t.front() >= '0' && t.front() <= '9') || t.front() == '+' ||
                          t.front() == '-' || t.front() == '.');
}

// An integer: optional sign and digits only, no overflow.
bool parseLong(std::string_view t, long& out) {
    std::size_t i = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
    if (i == t.size() || t.size() > 32) {
        return false;
    }
    for (std::size_t k = i; k < t.size(); ++k) {
        if (t[k] < '0' || t[k] > '9') {
            return false;
        }
    }
    const char* first = t.data() + (t[0] == '+' ? 1 : 0);
    const char* last = t.data() + t.size();
    const auto [end, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && end == last;
}

// A finite real number; Fortran exponents (1.0D+02) accepted. Only digits, sign, point and an
// exponent letter may appear, so strtod's inf, nan and hex forms are refused.
bool parseDouble(std::string_view t, double& out) {
    constexpr std::size_t kMaxLen = 64;
    if (t.empty() || t.size() >= kMaxLen) {
        return false;
    }
    char buf[kMaxLen];
    bool digit = false;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (c >= '0' && c <= '9') {
            digit = true;
            buf[i] = c;
        } else if (c == '+' || c == '-' || c == '.') {
            buf[i] = c;
        } else if (c == 'e' || c == 'E' || c == 'd' || c == 'D') {
            buf[i] = 'e';
        } else {
            return false;
        }
    }
    buf[t.size()] = '\0';
    if (!digit) {
        return false;
    }
    // from_chars (exact, and several times faster than strtod) reads almost every number;
    // strtod decides what it refuses (underflow, '+' signs), so the accepted text is unchanged.
    const bool plus = buf[0] == '+';
    if (!plus || (buf[1] != '+' && buf[1] != '-')) {
        const auto [end, ec] = std::from_chars(buf + (plus ? 1 : 0), buf + t.size(), out);
        if (ec == std::errc() && end == buf + t.size()) {
            return std::isfinite(out);
        }
    }
    char* end = nullptr;
    out = std::strtod(buf, &end);
    return end == buf + t.size() && std::isfinite(out);
}

// ---------------------------------------------------------------------------------------------
// Keyword lines.

struct Param {
    std::string key;    ///< upper case, no blanks
    std::string value;  ///< quotes removed (else blanks removed), case kept
    bool hasValue = false;
};

struct Keyword {
    std::string key;   ///< upper case, no blanks: "CONTACTPAIR"
    std::string name;  ///< for messages: "*CONTACT PAIR"
    std::string text;  ///< the keyword line(s) as written, for messages
    std::vector<Param> params;
    long line = 0;  ///< first line of the keyword

    [[nodiscard]] const Param* find(std::string_view k) const {
        for (const Param& p : params) {
            if (p.key == k) {
                return &p;
            }
        }
        return nullptr;
    }
};

enum class Section {
    kNone,               // before the first keyword
    kSkip,               // a keyword we do not read: data lines ignored
    kNode,               // *NODE
    kElement,            // *ELEMENT of a known type
    kUnsupported,        // *ELEMENT of a type element_types does not know
    kNset,               // *NSET
    kNsetOfElsets,       // *NSET, ELSET: data lines name element sets
    kElset,              // *ELSET
    kFaceSurface,        // *SURFACE, TYPE=ELEMENT
    kNodeSurface,        // *SURFACE, TYPE=NODE
    kInterface,          // *CONTACT PAIR, *TIE
    kSystem,             // *SYSTEM: refused if it has data (it would move the nodes that follow)
    kInstance,           // *INSTANCE: its placement (a translation line, then a rotation line)
    kNoData,             // a keyword that takes no data lines (*PART, *ASSEMBLY, *CONTACT, ...)
    kContactInclusions,  // *CONTACT INCLUSIONS
    kContactExclusions,  // *CONTACT EXCLUSIONS
    kCombineSurface,     // *SURFACE, COMBINE=: data lines name surfaces
    kNgen,               // *NGEN: nodes on a straight line between two nodes
    kElgen,              // *ELGEN: elements repeated from a master element
};

// A location kept for later messages: file (index into Reader::files_) and line.
struct Where {
    int file = 0;
    long line = 0;
};

// Where nodes were defined, 16 bytes per run instead of per node: the nodes from `first` on are on
// consecutive lines from `at` on, up to the next run.
struct NodeRun {
    Index first = 0;
    Where at;
};

// Nodes, elements, sets and surfaces numbered on their own: the model itself, a *PART, or a part
// *INSTANCE. An instance starts as a copy of its part; at *END INSTANCE it is placed and appended
// to the model, and keeps its id lookups for the assembly's INSTANCE= sets and "instance.id"
// references.
struct Scope {
    explicit Scope(std::string n) : name(std::move(n)), coords(model.coords) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

    std::string name;  // as written ("" for the model)
    Model model;
    detail::CoordinateBuffer coords;  // into model.coords
    std::vector<NodeRun> nodeRuns;
    IdIndex elementIndex;           // element id -> element number over all blocks
    std::vector<Index> blockStart;  // element number of each block's first element
    Where at;                       // the *PART or *INSTANCE line
    // Instances only.
    std::string part;
    int placementLines = 0;
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    Eigen::Vector3d axisPoint = Eigen::Vector3d::Zero();
    Index nodeOffset = 0;    // where its nodes start in the model, once placed
    Index blockOffset = 0;   // where its blocks start
    bool instanced = false;  // parts: some instance uses it
};

// A general contact definition (*CONTACT with *CONTACT INCLUSIONS / EXCLUSIONS) as read.
struct GeneralContactRead {
    Where at;
    detail::GeneralContact def;
};

class Reader {
public:
    explicit Reader(const std::string& path) : root_("") { root_.model.path = path; }
    Model read();

private:
    void readFile(LineReader& in, int depth);
    Keyword readKeyword(LineReader& in, std::string_view first);
    void include(LineReader& in, const Keyword& kw, int depth);
    void readDataFile(LineReader& in, const Keyword& kw, const std::string& input);
    std::unique_ptr<LineReader> openNested(LineReader& in, const Keyword& kw,
                                           const std::string& input, int depth);

    void beginSection(LineReader& in, const Keyword& kw);
    void endSection();
    void dataLine(LineReader& in, std::string_view line);

    void beginElements(LineReader& in, const Keyword& kw);
    void beginSurface(LineReader& in, const Keyword& kw);
    void beginInterface(LineReader& in, const Keyword& kw, InterfaceDef::Kind kind);
    void beginPart(LineReader& in, const Keyword& kw);
    void endPart(LineReader& in, const Keyword& kw);
    void beginInstance(LineReader& in, const Keyword& kw);
    void endInstance(LineReader& in, const Keyword& kw);
    void beginGeneralContact(LineReader& in, const Keyword& kw);
    void lookUpIdsIn(LineReader& in, const Keyword& kw);
    void skipKeyword(const LineReader& in, const Keyword& kw);

    void nodeLine(LineReader& in);
    void addNode(const LineReader& in, long id, const double (&x)[3]);
    void ngenLine(LineReader& in);
    void elgenLine(LineReader& in);
    long countField(const LineReader& in, std::size_t i, const char* what, long fallback) const;
    void elementLine(LineReader& in);
    void unsupportedLine(LineReader& in, bool trailingComma);
    void commitElement(const LineReader& in);
    void endUnsupported();
    void nsetLine(LineReader& in);
    void elsetLine(LineReader& in);
    template <class T, class Lookup, class Sets, class OneOf, class Qualified>
    void setLine(LineReader& in, std::vector<T>& set, std::size_t ids, Lookup lookup,
                 const Sets& sets, const std::string& noun, const std::string& article, OneOf one,
                 Qualified qualified);
    void nsetOfElsetsLine(LineReader& in);
    void faceSurfaceLine(LineReader& in);
    void exposedFacesLine(LineReader& in);
    void addExposedFaces(const Scope& scope);
    void combineLine(LineReader& in);
    void combineSurfaces(const Scope& scope);
    // The element or element set of a surface line's first field: `one` holds a single element.
    std::pair<const ElementRef*, std::size_t> elementsOf(const LineReader& in, std::string_view t,
                                                         ElementRef& one) const;
    void nodeSurfaceLine(LineReader& in);
    void interfaceLine(LineReader& in);
    void placementLine(LineReader& in);
    void generalContactLine(LineReader& in, bool inclusions);

    // Field parsers: throw "expected <what>, got '<token>'" at the current line.
    long idField(const LineReader& in, std::string_view t, const char* what) const;
    double numberField(const LineReader& in, std::string_view t, const char* what) const;
    Index nodeOf(const LineReader& in, std::string_view t) const;
    ElementRef elementOf(const LineReader& in, std::string_view t) const;
    // "<instance>.<id>": the instance's scope and the id; nullptr when t is not of that form.
    const Scope* qualified(std::string_view t, long& id) const;
    bool qualifiedNode(std::string_view t, Index& node) const;
    bool qualifiedElement(std::string_view t, ElementRef& element) const;
    void addNodesOfElset(const LineReader& in, std::string_view name, std::vector<Index>& out);
    const std::string& requiredValue(const LineReader& in, const Keyword& kw, const char* key,
                                     const char* what) const;

    [[nodiscard]] std::string at(const Where& w) const {
        return files_[static_cast<std::size_t>(w.file)] + ":" + std::to_string(w.line);
    }
    [[nodiscard]] Source source(const Where& w) const {
        return {files_[static_cast<std::size_t>(w.file)], w.line};
    }
    [[noreturn]] void failAt(const Where& w, const std::string& message) const {
        throw ParseError(files_[static_cast<std::size_t>(w.file)], w.line, message);
    }
    [[noreturn]] static void failAt(const LineReader& in, long line, const std::string& msg) {
        throw ParseError(in.path(), line, msg);
    }
    void note(const LineReader& in, long line, const std::string& what) {
        root_.model.notes.push_back(in.path() + ":" + std::to_string(line) + ": " + what);
    }
    int fileIndex(const std::string& path);
    [[nodiscard]] Where nodeOrigin(const Scope& s, Index node) const;
    [[nodiscard]] static ElementRef elementRef(const Scope& s, Index element);
    // A part or an instance by name (any case).
    [[nodiscard]] static Scope* findScope(const std::unordered_map<std::string, Scope*>& scopes,
                                          const std::string& name);
    void finishModel();

    // In each group below, the small members sit together so that they share words.
    Scope root_;                                          // the model (and assembly)
    std::vector<std::unique_ptr<Scope>> parts_;           // every *PART
    std::vector<std::unique_ptr<Scope>> instances_;       // every *INSTANCE (placed: lookups only)
    std::unordered_map<std::string, Scope*> partByName_;  // upper-case name -> part
    std::unordered_map<std::string, Scope*> instanceByName_;  // upper-case name -> instance
    Scope* cur_ = &root_;        // where nodes, elements, sets and surfaces go
    Scope* ids_ = &root_;        // where data lines' ids are looked up (INSTANCE= on sets)
    Scope* part_ = nullptr;      // the open *PART
    Scope* instance_ = nullptr;  // the open *INSTANCE
    Where assemblyAt_;
    std::vector<GeneralContactRead> general_;
    bool assembly_ = false;

    int file_ = 0;                          // current file (index into files_)
    std::vector<std::string> files_;        // every file read, for Where
    std::vector<std::string> openFiles_;    // canonical paths of the include chain
    std::string_view line_;                 // the current data line, trimmed
    std::vector<std::string_view> fields_;  // its fields

    // Skipped keywords: first note and count per keyword.
    struct Skipped {
        std::size_t note = 0;
        long count = 0;
    };
    std::unordered_map<std::string, Skipped> skipped_;

    // The open section and its state.
    Section section_ = Section::kNone;
    Index block_ = 0;
    Where sectionAt_;                                // where it opened
    std::vector<Index>* nodeSet_ = nullptr;          // *NODE, NSET= / *NSET target
    std::vector<ElementRef>* elementSet_ = nullptr;  // *ELEMENT, ELSET= / *ELSET target
    long pendingId_ = 0;                             // the element waiting (pending_)
    std::vector<Index> pendingNodes_;
    Where pendingAt_;            // its last line so far
    long unsupportedCount_ = 0;  // elements of an unsupported type seen
    std::string dropReason_;     // why that block cannot be kept
    std::size_t surface_ = 0;    // *SURFACE being read
    InterfaceDef iface_;         // template for *CONTACT PAIR / *TIE lines
    std::string unapplied_;      // their parameters not applied, noted for each line
    bool generate_ = false;
    bool pending_ = false;    // an element waits for continuation lines
    bool skipIface_ = false;  // a *TIE that is no contact (cyclic symmetry, multistage)

    // *SURFACE lines without a face label: all exposed faces of their elements, found once the
    // scope's elements are all read (addExposedFaces).
    struct Exposed {
        Scope* scope;
        std::size_t surface;
        std::vector<ElementRef> elements;
    };
    std::vector<Exposed> exposed_;
    // *SURFACE, COMBINE=: evaluated in definition order after the exposed faces.
    struct Combine {
        Scope* scope;
        std::size_t surface;
        std::string op;                     // UNION, INTERSECTION, DIFFERENCE
        std::vector<std::size_t> operands;  // earlier surfaces of the scope
        Where at;
    };
    std::vector<Combine> combine_;
};

int Reader::fileIndex(const std::string& path) {
    const auto it = std::find(files_.begin(), files_.end(), path);
    if (it != files_.end()) {
        return static_cast<int>(it - files_.begin());
    }
    files_.push_back(path);
    return static_cast<int>(files_.size() - 1);
}

Where Reader::nodeOrigin(const Scope& s, Index node) const {
    const auto run = std::upper_bound(s.nodeRuns.begin(), s.nodeRuns.end(), node,
                                      [](Index n, const NodeRun& r) { return n < r.first; }) -
                     1;
    return {run->at.file, run->at.line + (node - run->first)};
}

ElementRef Reader::elementRef(const Scope& s, Index element) {
    // The last block starting at or before `element` (empty blocks share their start).
    const auto b = std::upper_bound(s.blockStart.begin(), s.blockStart.end(), element) - 1;
    return {static_cast<Index>(b - s.blockStart.begin()), element - *b};
}

Scope* Reader::findScope(const std::unordered_map<std::string, Scope*>& scopes,
                         const std::string& name) {
    const auto it = scopes.find(upper(name));
    return it != scopes.end() ? it->second : nullptr;
}

// ---------------------------------------------------------------------------------------------
// Driver.

Model Reader::read() {
    const std::string& path = root_.model.path;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw ParseError(path, 0, "is a directory, not an input file");
    }
    root_.model.format = "abaqus";
    LineReader in(path);
    file_ = fileIndex(path);
    openFiles_.push_back(fs::weakly_canonical(path, ec).string());
    readFile(in, 0);
    endSection();
    if (instance_ != nullptr) {
        failAt(instance_->at,
               "expected *END INSTANCE for this *INSTANCE before the end of the file");
    }
    if (part_ != nullptr) {
        failAt(part_->at, "expected *END PART for this *PART before the end of the file");
    }
    finishModel();
    return std::move(root_.model);
}

// After the last line: sets and surfaces without repeats, general contact turned into interfaces,
// notes for what was counted or left out.
void Reader::finishModel() {
    addExposedFaces(root_);
    combineSurfaces(root_);
    // Each part and instance resolved its own at its end, before its data moved (endInstance).
    if (!exposed_.empty() || !combine_.empty()) {
        throw std::logic_error("Abaqus reader: a surface of a closed *PART or *INSTANCE was left "
                               "unresolved");
    }
    Model& model = root_.model;
    model.files = files_;  // the model and every included file: never to be written
    const Index n = static_cast<Index>(model.nodeIds.size());
    root_.coords.finish();
    model.nodeIndex.compact();

    // Sets and surfaces are sets: drop repeats, keep the first appearance.
    std::vector<unsigned char> seen(static_cast<std::size_t>(n), 0);
    const auto uniqueNodes = [&seen](std::vector<Index>& v) {
        std::size_t k = 0;
        for (const Index i : v) {
            if (seen[static_cast<std::size_t>(i)] == 0) {
                seen[static_cast<std::size_t>(i)] = 1;
                v[k++] = i;
            }
        }
        v.resize(k);
        for (const Index i : v) {
            seen[static_cast<std::size_t>(i)] = 0;
        }
    };
    std::vector<std::size_t> offset(model.blocks.size() + 1, 0);
    for (std::size_t b = 0; b < model.blocks.size(); ++b) {
        offset[b + 1] = offset[b] + model.blocks[b].ids.size();
    }
    std::vector<unsigned char> faceSeen(offset.back(), 0);  // bit f: face f of the element
    const auto flat = [&offset](const ElementRef& r) {
        return offset[static_cast<std::size_t>(r.block)] + static_cast<std::size_t>(r.element);
    };
    for (auto& [name, set] : model.nodeSets) {
        uniqueNodes(set);
    }
    for (auto& [name, set] : model.elementSets) {
        std::size_t k = 0;
        for (const ElementRef& r : set) {
            if (faceSeen[flat(r)] == 0) {
                faceSeen[flat(r)] = 1;
                set[k++] = r;
            }
        }
        set.resize(k);
        for (const ElementRef& r : set) {
            faceSeen[flat(r)] = 0;
        }
    }
    for (SurfaceDef& s : model.surfaces) {
        uniqueNodes(s.nodes);
        std::size_t k = 0;
        for (const FaceRef& f : s.faces) {
            const auto bit = static_cast<unsigned char>(1U << f.face);
            if ((faceSeen[flat(f.element)] & bit) == 0) {
                faceSeen[flat(f.element)] |= bit;
                s.faces[k++] = f;
            }
        }
        s.faces.resize(k);
        for (const FaceRef& f : s.faces) {
            faceSeen[flat(f.element)] = 0;
        }
    }
    for (const GeneralContactRead& g : general_) {
        detail::addGeneralContact(model, g.def);
    }
    for (const auto& [key, s] : skipped_) {
        if (s.count > 1) {
            model.notes[s.note] += " (" + std::to_string(s.count) + " times)";
        }
    }
    for (const auto& p : parts_) {
        if (!p->instanced) {
            model.notes.push_back(at(p->at) + ": part '" + p->name + "' has no *INSTANCE: its " +
                                  std::to_string(p->model.nodeIds.size()) + " nodes and " +
                                  std::to_string(p->model.numElements()) +
                                  " elements are not in the model");
        }
    }
}

// One file, line by line:
//   blank line or "**" comment -> skip
//   *INCLUDE                   -> read the named file here; the open section carries on in it
//   other keyword line(s)      -> close the open section (an unfinished element is an error),
//                                 open the keyword's section (not read: skip and note it)
//   data line                  -> the open section's handler (none open yet: error)
void Reader::readFile(LineReader& in, int depth) {
    std::string line;
    while (in.next(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || t.substr(0, 2) == "**") {
            continue;
        }
        if (t.front() != '*') {
            dataLine(in, t);
            continue;
        }
        const Keyword kw = readKeyword(in, t);
        if (kw.key == "INCLUDE") {
            include(in, kw, depth);
        } else {
            endSection();
            beginSection(in, kw);
        }
    }
}

// The parameters the Abaqus Keywords Guide gives the keywords read here (squeezed, upper case).
// The manual lets a parameter be abbreviated to any prefix that tells it from the keyword's
// others ("GEN" for GENERATE). On a keyword whose data lines a parameter changes the meaning of
// (strict), a parameter outside the list is refused: ignoring a misspelled GENERATE would read
// "1, 3" as two elements, not three.
struct KnownParams {
    const char* keyword;
    bool strict;
    std::initializer_list<const char*> params;
};
const KnownParams kKnownParams[] = {
    {"NODE", true, {"INPUT", "NSET", "SYSTEM"}},
    {"NGEN", true, {"LINE", "NSET", "SYSTEM"}},
    {"ELGEN", true, {"ELSET"}},
    {"ELEMENT", false, {"TYPE", "ELSET", "FILE", "INC", "INPUT", "OFFSET", "STEP"}},
    {"NSET", true, {"NSET", "ELSET", "GENERATE", "INSTANCE", "INTERNAL", "UNSORTED"}},
    {"ELSET", true, {"ELSET", "GENERATE", "INSTANCE", "INTERNAL", "UNSORTED"}},
    {"SURFACE",
     false,
     {"NAME", "TYPE", "COMBINE", "CROP", "DEFINITION", "FILLETRADIUS", "INTERNAL", "MAXRATIO",
      "NOOFFSET", "NOTHICKNESS", "PROPERTY", "REGIONTYPE", "TRIM"}},
    {"CONTACTPAIR",
     false,
     {"INTERACTION", "ADJUST", "CPSET", "EXTENSIONZONE", "GEOMETRICCORRECTION", "HCRIT",
      "MECHANICALCONSTRAINT", "NOTHICKNESS", "SLIDINGTRANSITION", "SMALLSLIDING", "SMOOTH",
      "SUPPLEMENTARYCONSTRAINTS", "TIED", "TRACKING", "TYPE"}},
    {"TIE",
     false,
     {"NAME", "ADJUST", "CONSTRAINTRATIO", "CYCLICSYMMETRY", "MULTISTAGE", "NOROTATION",
      "NOTHICKNESS", "POSITIONTOLERANCE", "TIEDNSET", "TYPE"}},
    {"INCLUDE", false, {"INPUT", "PASSWORD"}},
    {"PART", false, {"NAME"}},
    {"INSTANCE", false, {"NAME", "PART", "INSTANCE", "LIBRARY"}},
    {"CONTACTINCLUSIONS", false, {"ALLEXTERIOR"}},
};

// Keywords that make, copy or move nodes and elements from other data, or make the data lines
// depend on other definitions: read as skipped, the model would silently lack what they mean.
// *IMPERFECTION adds its displacements to the coordinates (Keywords Guide).
const std::pair<const char*, const char*> kRefusedKeywords[] = {
    {"NFILL", "it generates nodes"},
    {"NCOPY", "it copies nodes"},
    {"NMAP", "it moves nodes"},
    {"ELCOPY", "it copies elements"},
    {"IMPORT", "its nodes and elements come from another analysis"},
    {"IMPERFECTION", "it moves nodes"},
};

// The keywords read here (besides *INCLUDE). A keyword line that is a strict prefix of one of
// these or of a refused keyword is taken for its abbreviation (the input syntax rules allow any
// that tells a keyword from the others) and refused rather than skipped.
const char* const kReadKeywords[] = {"NODE",
                                     "ELEMENT",
                                     "NSET",
                                     "ELSET",
                                     "SURFACE",
                                     "CONTACT PAIR",
                                     "TIE",
                                     "SYSTEM",
                                     "PART",
                                     "END PART",
                                     "ASSEMBLY",
                                     "END ASSEMBLY",
                                     "INSTANCE",
                                     "END INSTANCE",
                                     "CONTACT",
                                     "CONTACT INCLUSIONS",
                                     "CONTACT EXCLUSIONS",
                                     "INCLUDE",
                                     "NGEN",
                                     "ELGEN"};

// A parameter given twice on a keyword that is read (TYPE and its abbreviation TY are one, once
// resolved) is refused: Keyword::find would take the first and silently drop the other.
void refuseRepeated(const LineReader& in, const Keyword& kw) {
    for (std::size_t i = 1; i < kw.params.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (kw.params[j].key == kw.params[i].key) {
                throw ParseError(in.path(), kw.line,
                                 "parameter " + kw.params[i].key + " given twice on " + kw.name);
            }
        }
    }
}

// A keyword line that abbreviates keywords read or refused here (a strict prefix of them) is
// refused, naming them; one that abbreviates only refused keywords, as refused (*NMA: *NMAP).
// A keyword skipped in full begins none of them (the decks in tests/data and examples/data).
void refuseAbbreviation(const LineReader& in, const Keyword& kw) {
    const auto abbreviates = [&kw](const std::string& full) {
        return full.size() > kw.key.size() && full.compare(0, kw.key.size(), kw.key) == 0;
    };
    std::vector<std::string> of;
    const char* why = nullptr;
    for (const char* full : kReadKeywords) {
        if (abbreviates(squeeze(full))) {
            of.push_back("*" + std::string(full));
        }
    }
    const std::size_t read = of.size();
    for (const auto& [key, reason] : kRefusedKeywords) {
        if (abbreviates(key)) {
            of.push_back("*" + std::string(key));
            why = reason;
        }
    }
    if (of.empty()) {
        return;
    }
    std::string list = of[0];
    for (std::size_t k = 1; k < of.size(); ++k) {
        list += (k + 1 == of.size() ? " or " : ", ") + of[k];
    }
    if (read == 0) {
        throw ParseError(in.path(), kw.line,
                         kw.name + " is not supported (an abbreviation of " + list +
                             (of.size() == 1 ? ": " + std::string(why) : "") +
                             "): write out the nodes and elements it stands for");
    }
    throw ParseError(in.path(), kw.line,
                     kw.name + " is not read as an abbreviation (of " + list +
                         "?): write the keyword in full");
}

// Refuses what is listed above and resolves abbreviated parameters (KnownParams). Returns the
// parameters outside the list of a keyword that is not strict (ignored, to be noted).
std::vector<std::string> checkKeyword(const LineReader& in, Keyword& kw) {
    for (const auto& [key, why] : kRefusedKeywords) {
        if (kw.key == key) {
            throw ParseError(in.path(), kw.line,
                             kw.name + " is not supported (" + why +
                                 "): write out the nodes and elements it stands for");
        }
    }
    const KnownParams* known = nullptr;
    for (const KnownParams& k : kKnownParams) {
        if (kw.key == k.keyword) {
            known = &k;
        }
    }
    const bool read = std::any_of(std::begin(kReadKeywords), std::end(kReadKeywords),
                                  [&](const char* r) { return kw.key == squeeze(r); });
    if (known == nullptr && !read) {
        refuseAbbreviation(in, kw);
    }
    if (read || known != nullptr) {
        for (const Param& p : kw.params) {
            if (isParameterReference(p.value)) {
                throw ParseError(in.path(), kw.line,
                                 p.key + "=" + p.value + " on " + kw.name +
                                     " is a *PARAMETER reference: parametrized input is not read");
            }
        }
    }
    std::vector<std::string> unknown;
    if (known == nullptr) {
        if (read) {
            refuseRepeated(in, kw);
        }
        return unknown;
    }
    std::string all;
    for (const char* name : known->params) {
        all += std::string(all.empty() ? "" : ", ") + name;
    }
    for (Param& p : kw.params) {
        std::vector<std::string_view> matches;
        for (const char* name : known->params) {
            const std::string_view n(name);
            if (n == p.key) {
                matches.assign(1, n);
                break;
            }
            if (n.substr(0, p.key.size()) == p.key) {
                matches.push_back(n);
            }
        }
        if (matches.size() == 1) {
            p.key = std::string(matches[0]);
        } else if (matches.size() > 1) {
            throw ParseError(in.path(), kw.line,
                             "parameter " + p.key + " on " + kw.name + " is ambiguous: it begins " +
                                 std::string(matches[0]) + " and " + std::string(matches[1]));
        } else if (known->strict) {
            throw ParseError(in.path(), kw.line,
                             "unknown parameter " + p.key + " on " + kw.name +
                                 " (the manual's: " + all + ")");
        } else {
            unknown.push_back(p.key);
        }
    }
    refuseRepeated(in, kw);
    return unknown;
}

// An enumerated parameter value (TYPE=, COMBINE=, SYSTEM=, LINE=). The input syntax rules let
// a value, like a keyword or a parameter, be cut to any prefix that tells it from the others
// ("TYPE=ELEM", "COMBINE=UNI", "TYPE=SURFACE TO SURF"); compared without case or blanks, a value
// written in full winning over the longer ones it begins. Returns the index into `values` (the
// manual's spellings) of the one named, or -1 when it begins none (the caller refuses or notes
// it); a prefix of several is refused, naming them.
template <std::size_t N>
int matchValue(const LineReader& in, const Keyword& kw, const Param& p,
               const char* const (&values)[N]) {
    const std::string v = squeeze(p.value);
    std::vector<const char*> matches;
    int found = -1;
    int i = 0;
    for (const char* value : values) {
        const std::string full = squeeze(value);
        if (full == v) {
            return i;
        }
        if (!v.empty() && full.compare(0, v.size(), v) == 0) {
            matches.push_back(value);
            found = i;
        }
        ++i;
    }
    if (matches.size() > 1) {
        std::string names = matches[0];
        for (std::size_t k = 1; k < matches.size(); ++k) {
            names += (k + 1 == matches.size() ? " and " : ", ") + std::string(matches[k]);
        }
        throw ParseError(in.path(), kw.line,
                         p.key + "=" + p.value + " on " + kw.name + " is ambiguous: it begins " +
                             names);
    }
    return found;
}

// A keyword line and its continuation lines (a line ending in a comma continues, unless the next
// line is a keyword or starts like a number: parameter names never do).
Keyword Reader::readKeyword(LineReader& in, std::string_view first) {
    Keyword kw;
    kw.line = in.line();
    kw.text = std::string(first);
    std::string more;
    while (!kw.text.empty() && kw.text.back() == ',') {
        if (!in.next(more)) {
            break;
        }
        const std::string_view t = trim(more);
        if (t.empty() || t.substr(0, 2) == "**") {
            continue;
        }
        if (t.front() == '*' || looksNumeric(t)) {
            in.unget(more);
            break;
        }
        kw.text += ' ';
        kw.text += t;
    }
    std::vector<std::string_view> fields;
    bool trailing = false;
    if (!splitFields(kw.text, fields, trailing)) {
        failAt(in, kw.line, "expected a closing '\"' in the keyword line");
    }
    const std::string_view name = fields[0].substr(1);  // after the '*'
    kw.key = squeeze(name);
    kw.name = "*" + displayName(name);
    if (kw.key.empty()) {
        throw ParseError::expected(in.path(), kw.line, "a keyword name after '*'", shown(kw.text));
    }
    for (std::size_t i = 1; i < fields.size(); ++i) {
        const std::string_view f = fields[i];
        if (f.empty()) {
            continue;
        }
        const std::size_t eq = f.find('=');
        Param p;
        p.key = squeeze(f.substr(0, eq));
        if (p.key.empty()) {
            throw ParseError::expected(in.path(), kw.line, "a parameter name", shown(f));
        }
        if (eq != std::string_view::npos) {
            p.hasValue = true;
            p.value = paramValue(f.substr(eq + 1));
        }
        kw.params.push_back(std::move(p));
    }
    for (const std::string& p : checkKeyword(in, kw)) {
        note(in, kw.line,
             "parameter " + p + " on " + kw.name + " is not one this reader knows: ignored");
    }
    return kw;
}

const std::string& Reader::requiredValue(const LineReader& in, const Keyword& kw, const char* key,
                                         const char* what) const {
    const Param* p = kw.find(key);
    if (p == nullptr || p->value.empty()) {
        throw ParseError::expected(
            in.path(), kw.line, std::string(key) + "=<" + what + "> on " + kw.name, shown(kw.text));
    }
    return p->value;
}

// Opens a file named by *INCLUDE or INPUT=. Abaqus resolves a relative name against the directory
// the job runs in, in practice the top deck's; other readers (and decks written for them) against
// the including file's. So a relative name is looked for next to the including file, then next to
// the top deck, then in the current directory; the first that exists is read, and when none does
// the error names each path tried.
std::unique_ptr<LineReader> Reader::openNested(LineReader& in, const Keyword& kw,
                                               const std::string& input, int depth) {
    fs::path p(input);
    std::error_code ec;
    if (p.is_relative()) {
        std::vector<fs::path> tried;  // without repeats: the directories may be the same
        const fs::path dirs[] = {fs::path(in.path()).parent_path(),
                                 fs::path(root_.model.path).parent_path(), fs::current_path(ec)};
        for (const fs::path& dir : dirs) {
            const fs::path c = (dir / p).lexically_normal();
            const fs::path full = fs::absolute(c, ec).lexically_normal();
            if (std::none_of(tried.begin(), tried.end(), [&](const fs::path& t) {
                    return fs::absolute(t, ec).lexically_normal() == full;
                })) {
                tried.push_back(c);
            }
        }
        const auto found = std::find_if(tried.begin(), tried.end(),
                                        [&](const fs::path& t) { return fs::exists(t, ec); });
        if (found == tried.end()) {
            std::string list;
            for (std::size_t i = 0; i < tried.size(); ++i) {
                list += (i == 0                  ? "'"
                         : i + 1 == tried.size() ? " and '"
                                                 : ", '") +
                        tried[i].string() + "'";
            }
            failAt(in, kw.line, "cannot open included file '" + input + "' (tried " + list + ")");
        }
        p = *found;
    }
    const std::string path = p.string();
    if (depth + 1 >= kMaxIncludeDepth) {
        failAt(in, kw.line,
               "expected at most " + std::to_string(kMaxIncludeDepth) +
                   " nested *INCLUDE levels, got more at '" + path + "'");
    }
    if (fs::is_directory(p, ec)) {
        failAt(in, kw.line, "cannot read included file '" + path + "': it is a directory");
    }
    if (fs::exists(p, ec) && !fs::is_regular_file(p, ec)) {
        failAt(in, kw.line,
               "cannot read included file '" + path +
                   "': it is not a regular file (a FIFO, device or socket)");
    }
    const std::string canonical = fs::weakly_canonical(p, ec).string();
    if (std::find(openFiles_.begin(), openFiles_.end(), canonical) != openFiles_.end()) {
        failAt(in, kw.line, "include cycle: '" + path + "' is already being read");
    }
    std::unique_ptr<LineReader> sub;
    try {
        sub = std::make_unique<LineReader>(path);
    } catch (const ParseError&) {
        failAt(in, kw.line, "cannot open included file '" + path + "'");
    }
    openFiles_.push_back(canonical);
    return sub;
}

void Reader::include(LineReader& in, const Keyword& kw, int depth) {
    const std::string& input = requiredValue(in, kw, "INPUT", "file");
    const std::unique_ptr<LineReader> sub = openNested(in, kw, input, depth);
    const int outer = file_;
    file_ = fileIndex(sub->path());
    readFile(*sub, depth + 1);
    file_ = outer;
    openFiles_.pop_back();
}

// INPUT= on a data keyword (*NODE, *ELEMENT, ...): its data lines come from that file.
void Reader::readDataFile(LineReader& in, const Keyword& kw, const std::string& input) {
    const std::unique_ptr<LineReader> sub = openNested(in, kw, input, 0);
    const int outer = file_;
    file_ = fileIndex(sub->path());
    std::string line;
    while (sub->next(line)) {
        const std::string_view t = trim(line);
        if (t.empty() || t.substr(0, 2) == "**") {
            continue;
        }
        if (t.front() == '*') {
            sub->expected("a data line (this file is the INPUT= of " + kw.name + ")", shown(t));
        }
        dataLine(*sub, t);
    }
    file_ = outer;
    openFiles_.pop_back();
}

// ---------------------------------------------------------------------------------------------
// Sections.

void Reader::skipKeyword(const LineReader& in, const Keyword& kw) {
    section_ = Section::kSkip;
    const auto [it, first] = skipped_.try_emplace(kw.key);
    ++it->second.count;
    if (first) {
        it->second.note = root_.model.notes.size();
        note(in, kw.line, "skipped keyword " + kw.name);
    }
}

void Reader::beginSection(LineReader& in, const Keyword& kw) {
    sectionAt_ = {file_, kw.line};
    nodeSet_ = nullptr;
    elementSet_ = nullptr;
    ids_ = cur_;
    generate_ = kw.find("GENERATE") != nullptr;
    Model& m = cur_->model;
    const std::string& k = kw.key;
    if (k == "NODE" || k == "NGEN") {
        const Param* system = kw.find("SYSTEM");
        if (system != nullptr && matchValue(in, kw, *system, {"R", "C", "S"}) != 0) {
            throw ParseError::expected(in.path(), kw.line,
                                       "SYSTEM=R on " + kw.name +
                                           " (cylindrical and spherical coordinates are not "
                                           "supported)",
                                       system->value);
        }
        if (const Param* line = kw.find("LINE");
            line != nullptr && matchValue(in, kw, *line, {"L", "C", "P"}) != 0) {  // *NGEN
            throw ParseError::expected(in.path(), kw.line,
                                       "LINE=L on *NGEN (circular and parabolic lines are not "
                                       "supported)",
                                       line->value);
        }
        if (const Param* nset = kw.find("NSET"); nset != nullptr && !nset->value.empty()) {
            nodeSet_ = &m.nodeSets[upper(nset->value)];
        }
        section_ = k == "NODE" ? Section::kNode : Section::kNgen;
    } else if (k == "ELGEN") {
        if (const Param* elset = kw.find("ELSET"); elset != nullptr && !elset->value.empty()) {
            elementSet_ = &m.elementSets[upper(elset->value)];
        }
        section_ = Section::kElgen;
    } else if (k == "ELEMENT") {
        beginElements(in, kw);
    } else if (k == "NSET") {
        nodeSet_ = &m.nodeSets[upper(requiredValue(in, kw, "NSET", "name"))];
        lookUpIdsIn(in, kw);
        section_ = Section::kNset;
        if (const Param* elset = kw.find("ELSET"); elset != nullptr) {
            section_ = Section::kNsetOfElsets;
            if (!elset->value.empty()) {
                addNodesOfElset(in, elset->value, *nodeSet_);
            }
        }
    } else if (k == "ELSET") {
        elementSet_ = &m.elementSets[upper(requiredValue(in, kw, "ELSET", "name"))];
        lookUpIdsIn(in, kw);
        section_ = Section::kElset;
    } else if (k == "SURFACE") {
        beginSurface(in, kw);
    } else if (k == "CONTACTPAIR") {
        beginInterface(in, kw, InterfaceDef::Kind::kContactPair);
    } else if (k == "TIE") {
        beginInterface(in, kw, InterfaceDef::Kind::kTie);
    } else if (k == "SYSTEM") {
        section_ = Section::kSystem;
    } else if (k == "PART") {
        beginPart(in, kw);
    } else if (k == "ENDPART") {
        endPart(in, kw);
    } else if (k == "ASSEMBLY" || k == "ENDASSEMBLY") {
        if (part_ != nullptr || instance_ != nullptr) {
            failAt(in, kw.line,
                   kw.name + " inside " + (part_ != nullptr ? "a *PART" : "an *INSTANCE"));
        }
        if ((k == "ASSEMBLY") == assembly_) {
            failAt(in, kw.line,
                   assembly_ ? "a second *ASSEMBLY (the first at " + at(assemblyAt_) + ")"
                             : "*END ASSEMBLY without an open *ASSEMBLY");
        }
        assembly_ = k == "ASSEMBLY";
        assemblyAt_ = {file_, kw.line};
        section_ = Section::kNoData;
    } else if (k == "INSTANCE") {
        beginInstance(in, kw);
    } else if (k == "ENDINSTANCE") {
        endInstance(in, kw);
    } else if (k == "CONTACT") {
        beginGeneralContact(in, kw);
    } else if (k == "CONTACTINCLUSIONS" || k == "CONTACTEXCLUSIONS") {
        if (general_.empty()) {  // Abaqus wants *CONTACT first; without it, start one here
            general_.push_back({{file_, kw.line}, {}});
        }
        detail::GeneralContact& g = general_.back().def;
        const bool inclusions = k == "CONTACTINCLUSIONS";
        if (inclusions && kw.find("ALLEXTERIOR") != nullptr) {
            g.allExterior = true;
            section_ = Section::kNoData;
        } else {
            section_ = inclusions ? Section::kContactInclusions : Section::kContactExclusions;
        }
        if (inclusions) {
            g.source = {in.path(), kw.line};
        }
    } else {
        skipKeyword(in, kw);
    }
    if (section_ != Section::kSkip && section_ != Section::kInstance &&
        section_ != Section::kNoData) {
        if (const Param* input = kw.find("INPUT"); input != nullptr && !input->value.empty()) {
            readDataFile(in, kw, input->value);
        }
    }
}

// INSTANCE= on an assembly's *NSET or *ELSET: the data lines' ids are that instance's.
void Reader::lookUpIdsIn(LineReader& in, const Keyword& kw) {
    const Param* p = kw.find("INSTANCE");
    if (p == nullptr) {
        return;
    }
    if (cur_ != &root_) {
        failAt(in, kw.line, "INSTANCE= on " + kw.name + " inside a *PART or *INSTANCE");
    }
    ids_ = findScope(instanceByName_, p->value);
    if (ids_ == nullptr) {
        throw ParseError::expected(in.path(), kw.line, "INSTANCE=<a placed *INSTANCE>",
                                   shown(p->value));
    }
}

void Reader::beginElements(LineReader& in, const Keyword& kw) {
    Model& m = cur_->model;
    const std::string type = squeeze(requiredValue(in, kw, "TYPE", "element type"));
    if (const Param* elset = kw.find("ELSET"); elset != nullptr && !elset->value.empty()) {
        elementSet_ = &m.elementSets[upper(elset->value)];
    }
    const ElementType* known = detail::findAbaqusType(type);
    ElementBlock block;
    block.type = type;
    block.nodesPerElement = known != nullptr ? known->nodes : 0;
    block.source = {in.path(), kw.line};
    std::vector<Index>& starts = cur_->blockStart;
    starts.push_back(m.blocks.empty() ? 0 : starts.back() + m.blocks.back().size());
    m.blocks.push_back(std::move(block));
    block_ = static_cast<Index>(m.blocks.size() - 1);
    pending_ = false;
    unsupportedCount_ = 0;
    dropReason_.clear();
    section_ = known != nullptr ? Section::kElement : Section::kUnsupported;
}

// The Keywords Guide's *SURFACE types: element and node surfaces are read, the others skipped.
const char* const kSurfaceTypes[] = {"ELEMENT",          "NODE",       "SEGMENTS",
                                     "CYLINDER",         "REVOLUTION", "CUTTING SURFACE",
                                     "EULERIAN MATERIAL"};
// What a skipped type is, for the message of a pair that names it (from SEGMENTS on).
const char* const kSkippedSurfaceTypes[] = {
    "an analytical rigid surface", "an analytical rigid surface", "an analytical rigid surface",
    "a cut through elements, for output", "the boundary of an Eulerian material"};

void Reader::beginSurface(LineReader& in, const Keyword& kw) {
    const std::string& name = requiredValue(in, kw, "NAME", "surface name");
    int kind = 0;  // into kSurfaceTypes
    if (const Param* t = kw.find("TYPE"); t != nullptr) {
        kind = matchValue(in, kw, *t, kSurfaceTypes);
        if (kind < 0) {
            throw ParseError::expected(in.path(), kw.line,
                                       "TYPE=ELEMENT, NODE, SEGMENTS, CYLINDER, REVOLUTION, "
                                       "CUTTING SURFACE or EULERIAN MATERIAL on *SURFACE",
                                       shown(t->value));
        }
    }
    const std::string type = kSurfaceTypes[static_cast<std::size_t>(kind)];
    if (kind >= 2) {  // noted each time: a pair may name it
        note(in, kw.line, "skipped *SURFACE '" + name + "' of unsupported TYPE=" + type);
        root_.model.skippedSurfaces[detail::lowerCase(name)] =
            in.path() + ":" + std::to_string(kw.line) + ": *SURFACE, TYPE=" + type + " (" +
            kSkippedSurfaceTypes[static_cast<std::size_t>(kind - 2)] + "), which is not read";
        section_ = Section::kSkip;
        return;
    }
    // A node surface and an element surface may share a name (CalculiX tells them apart by type).
    std::vector<SurfaceDef>& surfaces = cur_->model.surfaces;
    const std::string key = upper(name);
    for (const SurfaceDef& s : surfaces) {
        if (upper(s.name) == key && s.nodeSurface == (type == "NODE")) {
            failAt(in, kw.line,
                   "surface '" + name + "' defined twice (first at " + s.source.path + ":" +
                       std::to_string(s.source.line) + ")");
        }
    }
    SurfaceDef s;
    s.name = name;
    s.nodeSurface = type == "NODE";
    s.source = {in.path(), kw.line};
    surfaces.push_back(std::move(s));
    surface_ = surfaces.size() - 1;
    section_ = type == "NODE" ? Section::kNodeSurface : Section::kFaceSurface;
    if (const Param* c = kw.find("COMBINE"); c != nullptr) {
        const char* const ops[] = {"UNION", "INTERSECTION", "DIFFERENCE"};
        const int op = matchValue(in, kw, *c, ops);
        if (op < 0) {
            throw ParseError::expected(in.path(), kw.line,
                                       "COMBINE=UNION, INTERSECTION or DIFFERENCE", c->value);
        }
        combine_.push_back(
            {cur_, surface_, ops[static_cast<std::size_t>(op)], {}, {file_, kw.line}});
        section_ = Section::kCombineSurface;
    }
}

// *SURFACE, COMBINE= data: names of surfaces defined before, of the same type (Analysis User's
// Guide, "Operating on surfaces"): the union of them all, their intersection, or the first one
// less the others.
void Reader::combineLine(LineReader& in) {
    Combine& c = combine_.back();
    const std::vector<SurfaceDef>& surfaces = cur_->model.surfaces;
    const bool nodes = surfaces[c.surface].nodeSurface;
    for (const std::string_view f : fields_) {
        const std::string name = upper(label(f));
        if (name.empty()) {
            continue;
        }
        std::size_t k = 0;
        while (k < c.surface &&
               !(upper(surfaces[k].name) == name && surfaces[k].nodeSurface == nodes)) {
            ++k;
        }
        if (k == c.surface) {
            in.expected(std::string(nodes ? "a node" : "an element") +
                            " surface defined before this one",
                        shown(f));
        }
        c.operands.push_back(k);
    }
}

// The combinations of `scope`, in definition order.
void Reader::combineSurfaces(const Scope& scope) {
    std::vector<Combine> later;
    for (Combine& c : combine_) {
        if (c.scope != &scope) {
            later.push_back(std::move(c));
            continue;
        }
        std::vector<SurfaceDef>& surfaces = c.scope->model.surfaces;
        if (c.operands.empty()) {
            failAt(c.at, "*SURFACE, COMBINE=" + c.op + " names no surface on its data lines");
        }
        // Faces as (element block, element, face) keys; nodes as their index.
        const auto keys = [&](const SurfaceDef& d) {
            std::vector<std::array<Index, 3>> out;
            for (const FaceRef& f : d.faces) {
                out.push_back({f.element.block, f.element.element, f.face});
            }
            for (const Index n : d.nodes) {
                out.push_back({n, 0, 0});
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            return out;
        };
        std::vector<std::array<Index, 3>> acc = keys(surfaces[c.operands[0]]);
        for (std::size_t i = 1; i < c.operands.size(); ++i) {
            const std::vector<std::array<Index, 3>> other = keys(surfaces[c.operands[i]]);
            std::vector<std::array<Index, 3>> next;
            if (c.op == "UNION") {
                std::set_union(acc.begin(), acc.end(), other.begin(), other.end(),
                               std::back_inserter(next));
            } else if (c.op == "INTERSECTION") {
                std::set_intersection(acc.begin(), acc.end(), other.begin(), other.end(),
                                      std::back_inserter(next));
            } else {
                std::set_difference(acc.begin(), acc.end(), other.begin(), other.end(),
                                    std::back_inserter(next));
            }
            acc = std::move(next);
        }
        SurfaceDef& out = surfaces[c.surface];
        for (const std::array<Index, 3>& k : acc) {
            if (out.nodeSurface) {
                out.nodes.push_back(k[0]);
            } else {
                out.faces.push_back({{k[0], k[1]}, static_cast<int>(k[2])});
            }
        }
    }
    combine_ = std::move(later);
}

// *CONTACT PAIR, *TIE: the data lines become interfaces. A contact TYPE we do not know makes
// interfaces that carry the problem (the others are still searched); a tie that is not a
// contact (CYCLIC SYMMETRY, MULTISTAGE) is noted and left out. ADJUST= (and on a tie POSITION
// TOLERANCE= or TIED NSET=) change which slave nodes Abaqus takes and where they are; the search
// does neither, and each interface says so in a note. A tie does both by default (Keywords
// Guide, *TIE: ADJUST=YES is the default, and a default position tolerance applies).
void Reader::beginInterface(LineReader& in, const Keyword& kw, InterfaceDef::Kind kind) {
    iface_ = InterfaceDef{};
    iface_.kind = kind;
    skipIface_ = false;
    unapplied_.clear();
    std::string why;
    int unapplied = 0;
    const auto add = [&](const std::string& what, const char* inAbaqus) {
        ++unapplied;
        unapplied_ += (unapplied_.empty() ? "" : " and ") + what;
        why += std::string(why.empty() ? "" : ", and ") + inAbaqus;
    };
    const auto given = [](const char* name, const Param& p) {
        return name + (p.hasValue ? "=" + p.value : "");
    };
    const char* const moved = "the adjusted slave nodes are moved onto the master";
    const Param* adjust = kw.find("ADJUST");
    if (kind == InterfaceDef::Kind::kTie) {
        if (adjust == nullptr) {
            add("ADJUST=YES (the default of *TIE)", moved);
        } else if (matchValue(in, kw, *adjust, {"YES", "NO"}) != 1) {  // not NO
            add(given("ADJUST", *adjust), moved);
        }
        const Param* tolerance = kw.find("POSITIONTOLERANCE");
        const Param* tied = kw.find("TIEDNSET");
        if (tied != nullptr) {
            add(given("TIED NSET", *tied), "only the slave nodes of that set are tied");
        } else {
            add(tolerance != nullptr ? given("POSITION TOLERANCE", *tolerance)
                                     : "the default POSITION TOLERANCE",
                "only the slave nodes within the position tolerance are tied");
        }
    } else if (adjust != nullptr) {
        add(given("ADJUST", *adjust), moved);
    }
    if (unapplied > 0) {
        unapplied_ += std::string(unapplied == 1 ? " is" : " are") + " not applied (in Abaqus " +
                      why +
                      "): the search reports the gaps as the nodes stand, and pairs within its "
                      "capture distance";
    }
    section_ = Section::kInterface;
    const Param* name = kw.find(kind == InterfaceDef::Kind::kTie ? "NAME" : "INTERACTION");
    if (name != nullptr) {
        iface_.name = name->value;
    }
    if (kind == InterfaceDef::Kind::kTie) {
        for (const char* p : {"CYCLICSYMMETRY", "MULTISTAGE"}) {
            if (kw.find(p) != nullptr) {
                skipIface_ = true;
                note(in, kw.line,
                     kw.name + (iface_.name.empty() ? "" : " '" + iface_.name + "'") + " with " +
                         (p[0] == 'C' ? "CYCLIC SYMMETRY" : "MULTISTAGE") +
                         " is a symmetry condition, not a contact: not searched");
                return;
            }
        }
    }
    if (const Param* type = kw.find("TYPE"); type != nullptr) {
        // Node to surface first: CalculiX's massless explicit contact is node to face too; its
        // mortar variants are segment based, as surface to surface.
        const int t = matchValue(in, kw, *type,
                                 {"NODE TO SURFACE", "MASSLESS", "SURFACE TO SURFACE", "MORTAR",
                                  "LINMORTAR", "PGMORTAR", "PGLINMORTAR"});
        if (t >= 0) {
            iface_.nodeToSurface = t < 2;
        } else {
            iface_.problem = "TYPE=" + type->value + " on " + kw.name +
                             " is not a contact type this search knows (NODE TO SURFACE, "
                             "SURFACE TO SURFACE, MORTAR, LINMORTAR, PGMORTAR, PGLINMORTAR, "
                             "MASSLESS)";
        }
    }
}

void Reader::beginPart(LineReader& in, const Keyword& kw) {
    if (part_ != nullptr || instance_ != nullptr || assembly_) {
        failAt(in, kw.line,
               "a *PART inside " + std::string(part_ != nullptr       ? "a *PART"
                                               : instance_ != nullptr ? "an *INSTANCE"
                                                                      : "the *ASSEMBLY"));
    }
    const std::string& name = requiredValue(in, kw, "NAME", "part name");
    if (const Scope* other = findScope(partByName_, name); other != nullptr) {
        failAt(in, kw.line, "part '" + name + "' defined twice (first at " + at(other->at) + ")");
    }
    parts_.push_back(std::make_unique<Scope>(name));
    part_ = parts_.back().get();
    partByName_[upper(name)] = part_;
    part_->at = {file_, kw.line};
    cur_ = part_;
    section_ = Section::kNoData;
}

void Reader::endPart(LineReader& in, const Keyword& kw) {
    if (part_ == nullptr) {
        failAt(in, kw.line, "*END PART without an open *PART");
    }
    part_->coords.finish();
    part_->model.nodeIndex.compact();
    addExposedFaces(*part_);
    combineSurfaces(*part_);
    part_ = nullptr;
    cur_ = &root_;
    section_ = Section::kNoData;
}

// An instance starts as a copy of its part, in the part's own numbering.
void Reader::beginInstance(LineReader& in, const Keyword& kw) {
    if (part_ != nullptr || instance_ != nullptr) {
        failAt(in, kw.line,
               std::string("an *INSTANCE inside ") +
                   (part_ != nullptr ? "a *PART" : "an *INSTANCE"));
    }
    if (kw.find("PART") == nullptr && kw.find("INSTANCE") != nullptr) {
        failAt(in, kw.line,
               "*INSTANCE, INSTANCE= imports an instance from an earlier analysis, which is not "
               "supported");
    }
    const std::string& name = requiredValue(in, kw, "NAME", "instance name");
    const std::string& partName = requiredValue(in, kw, "PART", "part name");
    if (const Scope* other = findScope(instanceByName_, name); other != nullptr) {
        failAt(in, kw.line,
               "instance '" + name + "' defined twice (first at " + at(other->at) + ")");
    }
    Scope* part = findScope(partByName_, partName);
    if (part == nullptr) {
        failAt(in, kw.line,
               "instance '" + name + "' of part '" + partName +
                   "', which is not defined (parts come before the assembly)");
    }
    part->instanced = true;
    instances_.push_back(std::make_unique<Scope>(name));
    Scope& s = *instances_.back();
    instanceByName_[upper(name)] = &s;
    s.at = {file_, kw.line};
    s.part = part->name;
    s.model.coords = part->model.coords;
    s.coords.resume();
    s.model.nodeIds = part->model.nodeIds;
    s.model.nodeIndex = part->model.nodeIndex;
    s.model.blocks = part->model.blocks;
    s.model.nodeSets = part->model.nodeSets;
    s.model.elementSets = part->model.elementSets;
    s.model.surfaces = part->model.surfaces;
    s.nodeRuns = part->nodeRuns;
    s.elementIndex = part->elementIndex;
    s.blockStart = part->blockStart;
    instance_ = &s;
    cur_ = &s;
    section_ = Section::kInstance;
}

// x' = R (x + t - a) + a: the translation first, then the rotation about the axis through a.
// The placed instance goes into the model: its nodes and blocks appended, its sets and surfaces
// named "<instance>.<name>".
void Reader::endInstance(LineReader& in, const Keyword& kw) {
    if (instance_ == nullptr) {
        failAt(in, kw.line, "*END INSTANCE without an open *INSTANCE");
    }
    Scope& s = *instance_;
    s.coords.finish();
    // Its surfaces are complete before they move into the model, which empties the scope.
    addExposedFaces(s);
    combineSurfaces(s);
    Model& m = root_.model;
    if (m.nodeIds.size() + s.model.nodeIds.size() >=
        static_cast<std::size_t>(std::numeric_limits<Index>::max())) {
        failAt(in, kw.line, "too many nodes for 32-bit indices");
    }
    s.nodeOffset = static_cast<Index>(m.nodeIds.size());
    s.blockOffset = static_cast<Index>(m.blocks.size());
    for (Index i = 0; i < s.model.numNodes(); ++i) {
        const Eigen::Vector3d x =
            s.rotation * (s.model.coords.col(i) + s.translation - s.axisPoint) + s.axisPoint;
        root_.coords.push(x.x());
        root_.coords.push(x.y());
        root_.coords.push(x.z());
    }
    m.nodeIds.insert(m.nodeIds.end(), s.model.nodeIds.begin(), s.model.nodeIds.end());
    const int index = static_cast<int>(m.instances.size());
    for (ElementBlock& b : s.model.blocks) {
        for (Index& node : b.nodes) {
            node += s.nodeOffset;
        }
        b.instance = index;
        root_.blockStart.push_back(
            m.blocks.empty() ? 0 : root_.blockStart.back() + m.blocks.back().size());
        m.blocks.push_back(std::move(b));
    }
    const std::string prefix = upper(s.name) + ".";
    for (auto& [name, set] : s.model.nodeSets) {
        for (Index& node : set) {
            node += s.nodeOffset;
        }
        m.nodeSets[prefix + name] = std::move(set);
    }
    for (auto& [name, set] : s.model.elementSets) {
        for (ElementRef& r : set) {
            r.block += s.blockOffset;
        }
        m.elementSets[prefix + name] = std::move(set);
    }
    for (SurfaceDef& surface : s.model.surfaces) {
        surface.name = s.name + "." + surface.name;
        for (FaceRef& f : surface.faces) {
            f.element.block += s.blockOffset;
        }
        for (Index& node : surface.nodes) {
            node += s.nodeOffset;
        }
        m.surfaces.push_back(std::move(surface));
    }
    m.instances.push_back({s.name, s.part, s.nodeOffset, s.model.numNodes(), s.blockOffset,
                           static_cast<Index>(s.model.blocks.size())});
    // Only the id lookups stay: the assembly's INSTANCE= sets and "<instance>.<id>" use them.
    s.model.coords.resize(3, 0);
    std::vector<ElementBlock>().swap(s.model.blocks);
    s.model.nodeSets.clear();
    s.model.elementSets.clear();
    std::vector<SurfaceDef>().swap(s.model.surfaces);
    std::vector<NodeRun>().swap(s.nodeRuns);
    instance_ = nullptr;
    cur_ = &root_;
    section_ = Section::kNoData;
}

void Reader::beginGeneralContact(LineReader& in, const Keyword& kw) {
    general_.push_back({{file_, kw.line}, {}});
    general_.back().def.source = {in.path(), kw.line};
    section_ = Section::kNoData;
}

// Closes the open section: an element still waiting for nodes is an error; a block of an
// unsupported type is kept or dropped, with a note either way.
void Reader::endSection() {
    if (section_ == Section::kElement && pending_) {
        const ElementBlock& b = cur_->model.blocks[static_cast<std::size_t>(block_)];
        failAt(pendingAt_, "expected " + std::to_string(b.nodesPerElement) + " nodes for element " +
                               std::to_string(pendingId_) + " (" + b.type + "), got " +
                               std::to_string(pendingNodes_.size()));
    }
    if (section_ == Section::kUnsupported) {
        endUnsupported();
    }
    section_ = Section::kNone;
}

void Reader::dataLine(LineReader& in, std::string_view line) {
    bool trailingComma = false;
    line_ = line;
    if (!splitFields(line, fields_, trailingComma)) {
        in.expected("a closing '\"'", shown(line));
    }
    // Lines that name sets and surfaces (numbers are refused field by field, naming the field).
    const bool names = section_ == Section::kNset || section_ == Section::kNsetOfElsets ||
                       section_ == Section::kElset || section_ == Section::kFaceSurface ||
                       section_ == Section::kNodeSurface || section_ == Section::kInterface ||
                       section_ == Section::kContactInclusions ||
                       section_ == Section::kContactExclusions ||
                       section_ == Section::kCombineSurface;
    if (names) {
        for (const std::string_view f : fields_) {
            if (isParameterReference(f)) {
                in.fail("'" + shown(trim(f)) +
                        "' is a *PARAMETER reference: parametrized input is not read");
            }
        }
    }
    switch (section_) {
    case Section::kNone: in.expected("a keyword line (starting with '*')", shown(line));
    case Section::kSkip: return;
    case Section::kNode: nodeLine(in); return;
    case Section::kElement: elementLine(in); return;
    case Section::kUnsupported: unsupportedLine(in, trailingComma); return;
    case Section::kNset: nsetLine(in); return;
    case Section::kNsetOfElsets: nsetOfElsetsLine(in); return;
    case Section::kElset: elsetLine(in); return;
    case Section::kFaceSurface: faceSurfaceLine(in); return;
    case Section::kNodeSurface: nodeSurfaceLine(in); return;
    case Section::kInterface: interfaceLine(in); return;
    case Section::kSystem: in.fail("*SYSTEM is not supported (it moves the nodes that follow)");
    case Section::kInstance: placementLine(in); return;
    case Section::kNoData:
        failAt(in, in.line(),
               "expected a keyword line, got a data line '" + shown(line) + "' (" +
                   "the keyword at line " + std::to_string(sectionAt_.line) + " takes none)");
    case Section::kContactInclusions: generalContactLine(in, true); return;
    case Section::kContactExclusions: generalContactLine(in, false); return;
    case Section::kCombineSurface: combineLine(in); return;
    case Section::kNgen: ngenLine(in); return;
    case Section::kElgen: elgenLine(in); return;
    }
}

// ---------------------------------------------------------------------------------------------
// Fields.

// "<name>" is a *PARAMETER reference (parametrized input), which is not substituted here: said,
// so that the refusal is not read as a typo (see also isParameterReference).
[[noreturn]] void refuseField(const LineReader& in, std::string_view t, const char* what) {
    if (!t.empty() && t.front() == '<') {
        in.fail(std::string("expected ") + what + ", got '" + shown(t) +
                "' (a *PARAMETER reference: parametrized input is not read)");
    }
    in.expected(what, shown(t));
}

long Reader::idField(const LineReader& in, std::string_view t, const char* what) const {
    long v = 0;
    if (!parseLong(t, v) || v <= 0) {
        refuseField(in, t, what);
    }
    return v;
}

double Reader::numberField(const LineReader& in, std::string_view t, const char* what) const {
    double v = 0.0;
    if (!parseDouble(t, v)) {
        refuseField(in, t, what);
    }
    return v;
}

Index Reader::nodeOf(const LineReader& in, std::string_view t) const {
    Index node = 0;
    if (!looksNumeric(t) && qualifiedNode(t, node)) {  // "<instance>.<id>" at the model level
        return node;
    }
    const Index i = ids_->model.nodeIndex.find(idField(in, t, "a node id"));
    if (i == contact::kNoIndex) {
        in.expected("a defined node id", shown(t));
    }
    return i + (ids_ == cur_ ? 0 : ids_->nodeOffset);
}

ElementRef Reader::elementOf(const LineReader& in, std::string_view t) const {
    const Index e = ids_->elementIndex.find(idField(in, t, "an element id"));
    if (e == contact::kNoIndex) {
        in.expected("a defined element id", shown(t));
    }
    ElementRef r = elementRef(*ids_, e);
    r.block += ids_ == cur_ ? 0 : ids_->blockOffset;
    return r;
}

// Quotes are dropped wherever they are, as label() drops them from set and surface names:
// "Hi,2".1 and "Hi,2.1" are node 1 of the instance Hi,2.
const Scope* Reader::qualified(std::string_view t, long& id) const {
    const std::string name = label(t);
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos || cur_ != &root_ ||
        !parseLong(std::string_view(name).substr(dot + 1), id)) {
        return nullptr;
    }
    return findScope(instanceByName_, name.substr(0, dot));
}

bool Reader::qualifiedNode(std::string_view t, Index& node) const {
    long id = 0;
    const Scope* s = qualified(t, id);
    const Index i = s != nullptr ? s->model.nodeIndex.find(id) : contact::kNoIndex;
    node = i + (s != nullptr ? s->nodeOffset : 0);
    return i != contact::kNoIndex;
}

bool Reader::qualifiedElement(std::string_view t, ElementRef& element) const {
    long id = 0;
    const Scope* s = qualified(t, id);
    const Index e = s != nullptr ? s->elementIndex.find(id) : contact::kNoIndex;
    if (e != contact::kNoIndex) {
        element = elementRef(*s, e);
        element.block += s->blockOffset;
    }
    return e != contact::kNoIndex;
}

void Reader::addNodesOfElset(const LineReader& in, std::string_view name, std::vector<Index>& out) {
    const Model& m = cur_->model;
    const auto it = m.elementSets.find(upper(label(name)));
    if (it == m.elementSets.end()) {
        in.expected("a defined element set", shown(name));
    }
    for (const ElementRef& r : it->second) {
        const ElementBlock& b = m.blocks[static_cast<std::size_t>(r.block)];
        out.insert(out.end(), b.element(r.element), b.element(r.element) + b.nodesPerElement);
    }
}

// ---------------------------------------------------------------------------------------------
// Data lines.

// <id>, x, y[, z[, nx, ny, nz]]: two coordinates are a 2D node (z = 0); a normal is checked and
// ignored.
void Reader::nodeLine(LineReader& in) {
    const long id = idField(in, fields_[0], "a node id");
    const std::size_t values = fields_.size() - 1;
    if (values < 2) {
        in.fail("expected 2 or 3 coordinates for node " + std::to_string(id) + ", got " +
                std::to_string(values));
    }
    if (values > 6) {
        in.fail("expected 3 coordinates and at most 3 normal components for node " +
                std::to_string(id) + ", got " + std::to_string(values) + " values");
    }
    // An empty field is zero (the manual's data line rules: omitted numeric data are zero).
    double x[3] = {0.0, 0.0, 0.0};
    for (std::size_t i = 1; i <= values; ++i) {
        const double v =
            fields_[i].empty()
                ? 0.0
                : numberField(in, fields_[i], i <= 3 ? "a coordinate" : "a normal component");
        if (i <= 3) {
            x[i - 1] = v;
        }
    }
    addNode(in, id, x);
}

// Node `id` at x, defined on the current line (its origin for messages).
void Reader::addNode(const LineReader& in, long id, const double (&x)[3]) {
    Scope& s = *cur_;
    if (s.model.nodeIds.size() >= static_cast<std::size_t>(std::numeric_limits<Index>::max())) {
        in.fail("too many nodes for 32-bit indices");
    }
    const auto index = static_cast<Index>(s.model.nodeIds.size());
    if (!s.model.nodeIndex.insert(id, index)) {
        in.fail("node id " + std::to_string(id) + " defined twice (first at " +
                at(nodeOrigin(s, s.model.nodeIndex.find(id))) + ")");
    }
    s.coords.push(x[0]);
    s.coords.push(x[1]);
    s.coords.push(x[2]);
    s.model.nodeIds.push_back(id);
    if (s.nodeRuns.empty() || s.nodeRuns.back().at.file != file_ ||
        s.nodeRuns.back().at.line + (index - s.nodeRuns.back().first) != in.line()) {
        s.nodeRuns.push_back({index, {file_, in.line()}});
    }
    if (nodeSet_ != nullptr) {
        nodeSet_->push_back(index);
    }
}

// <id>, n1, n2, ...: an element with more nodes than fit continues on the next line(s) until it
// has all of them.
void Reader::elementLine(LineReader& in) {
    const Scope& s = *cur_;
    const ElementBlock& b = s.model.blocks[static_cast<std::size_t>(block_)];
    const auto n = static_cast<std::size_t>(b.nodesPerElement);
    std::size_t first = 0;
    const bool continuation = pending_;
    if (!pending_) {
        pendingId_ = idField(in, fields_[0], "an element id");
        if (const Index e = s.elementIndex.find(pendingId_); e != contact::kNoIndex) {
            const ElementBlock& other =
                s.model.blocks[static_cast<std::size_t>(elementRef(s, e).block)];
            in.fail("element id " + std::to_string(pendingId_) +
                    " defined twice (first in the *ELEMENT block at " + other.source.path + ":" +
                    std::to_string(other.source.line) + ")");
        }
        pendingNodes_.clear();
        pending_ = true;
        first = 1;
    }
    const std::size_t total = pendingNodes_.size() + fields_.size() - first;
    if (total > n) {
        const std::string head = "expected " + std::to_string(n) + " nodes for element " +
                                 std::to_string(pendingId_) + " (" + b.type + "), got ";
        if (continuation) {  // the element's own line(s) were short; this line is the next one
            failAt(pendingAt_, head + std::to_string(pendingNodes_.size()));
        }
        in.fail(head + std::to_string(total));
    }
    for (std::size_t i = first; i < fields_.size(); ++i) {
        pendingNodes_.push_back(nodeOf(in, fields_[i]));
    }
    pendingAt_ = {file_, in.line()};
    if (pendingNodes_.size() == n) {
        commitElement(in);
    }
}

// Field i of the data line as a whole number (a count or an increment); `fallback` when absent
// or empty.
long Reader::countField(const LineReader& in, std::size_t i, const char* what,
                        long fallback) const {
    if (i >= fields_.size() || fields_[i].empty()) {
        return fallback;
    }
    long v = 0;
    if (!parseLong(fields_[i], v)) {
        refuseField(in, fields_[i], what);
    }
    return v;
}

// *NGEN (Keywords Guide): end node a, end node b, increment (default 1): the nodes a + k inc
// strictly between them, evenly spaced on the straight line from a to b. NSET= takes the line's
// nodes, its ends included.
void Reader::ngenLine(LineReader& in) {
    if (fields_.size() > 3 && !std::all_of(fields_.begin() + 3, fields_.end(),
                                           [](std::string_view f) { return f.empty(); })) {
        in.fail("expected 3 values on an *NGEN line (end node, end node, increment); the extra "
                "point of a circular or parabolic line is not supported");
    }
    Scope& s = *cur_;
    const long a = idField(in, fields_[0], "a node id");
    const long b = fields_.size() > 1 ? idField(in, fields_[1], "a node id") : 0;
    const long inc = countField(in, 2, "a node increment", 1);
    const Index ia = s.model.nodeIndex.find(a);
    const Index ib = b > 0 ? s.model.nodeIndex.find(b) : contact::kNoIndex;
    if (ia == contact::kNoIndex || ib == contact::kNoIndex) {
        in.expected("2 defined end nodes", shown(line_));
    }
    if (inc == 0 || (b - a) % inc != 0 || (b - a) / inc < 1) {
        in.fail("the increment " + std::to_string(inc) + " does not step from node " +
                std::to_string(a) + " to node " + std::to_string(b));
    }
    const long steps = (b - a) / inc;
    const Eigen::Vector3d xa = s.model.coords.col(ia);
    const Eigen::Vector3d xb = s.model.coords.col(ib);
    if (nodeSet_ != nullptr) {
        nodeSet_->push_back(ia);
    }
    for (long k = 1; k < steps; ++k) {
        const double t = static_cast<double>(k) / static_cast<double>(steps);
        const double x[3] = {xa.x() + t * (xb.x() - xa.x()), xa.y() + t * (xb.y() - xa.y()),
                             xa.z() + t * (xb.z() - xa.z())};
        addNode(in, a + k * inc, x);
    }
    if (nodeSet_ != nullptr) {
        nodeSet_->push_back(ib);
    }
}

// *ELGEN (Keywords Guide): master element; elements in the first row (the master included),
// node and element increments along it; rows, their node and element increments; layers, theirs.
// The generated elements (a block of the master's type) have the master's nodes shifted by the
// increments; ELSET= takes them all, the master included.
void Reader::elgenLine(LineReader& in) {
    if (fields_.size() > 10) {
        in.expected("at most 10 values on an *ELGEN line", std::to_string(fields_.size()));
    }
    Scope& s = *cur_;
    Model& m = s.model;
    const long master = idField(in, fields_[0], "a master element id");
    const Index number = s.elementIndex.find(master);
    if (number == contact::kNoIndex) {
        in.expected("a defined master element id", shown(fields_[0]));
    }
    const long count[3] = {countField(in, 1, "a number of elements", 1),
                           countField(in, 4, "a number of rows", 1),
                           countField(in, 7, "a number of layers", 1)};
    const long nodeInc[3] = {countField(in, 2, "a node increment", 1),
                             countField(in, 5, "a node increment between rows", 0),
                             countField(in, 8, "a node increment between layers", 0)};
    const long elementInc[3] = {countField(in, 3, "an element increment", 1),
                                countField(in, 6, "an element increment between rows", 0),
                                countField(in, 9, "an element increment between layers", 0)};
    for (int d = 0; d < 3; ++d) {
        if (count[d] < 1) {
            in.fail("expected a positive number of elements, rows and layers, got " +
                    std::to_string(count[d]));
        }
        if (count[d] > 1 && (nodeInc[d] == 0 || elementInc[d] == 0)) {
            in.fail(std::string("expected nonzero node and element increments for the ") +
                    (d == 0   ? "row"
                     : d == 1 ? "rows"
                              : "layers") +
                    " (" + std::to_string(count[d]) + " of them)");
        }
    }
    const ElementRef ref = elementRef(s, number);
    const ElementBlock& from = m.blocks[static_cast<std::size_t>(ref.block)];
    std::vector<long> masterNodes;
    masterNodes.reserve(static_cast<std::size_t>(from.nodesPerElement));
    for (int i = 0; i < from.nodesPerElement; ++i) {
        masterNodes.push_back(m.nodeIds[static_cast<std::size_t>(from.element(ref.element)[i])]);
    }
    ElementBlock block;
    block.type = from.type;
    block.nodesPerElement = from.nodesPerElement;
    block.source = {in.path(), in.line()};
    if (elementSet_ != nullptr) {
        elementSet_->push_back(ref);
    }
    std::vector<Index>& starts = s.blockStart;
    starts.push_back(starts.back() + m.blocks.back().size());
    m.blocks.push_back(std::move(block));
    const auto b = static_cast<Index>(m.blocks.size() - 1);
    ElementBlock& out = m.blocks.back();
    for (long k = 0; k < count[2]; ++k) {
        for (long j = 0; j < count[1]; ++j) {
            for (long i = 0; i < count[0]; ++i) {
                if (i == 0 && j == 0 && k == 0) {
                    continue;  // the master
                }
                const long id = master + i * elementInc[0] + j * elementInc[1] + k * elementInc[2];
                const long shift = i * nodeInc[0] + j * nodeInc[1] + k * nodeInc[2];
                if (id <= 0 || s.elementIndex.contains(id)) {
                    in.fail("generated element id " + std::to_string(id) +
                            (id <= 0 ? " is not positive" : " is already defined"));
                }
                for (const long n : masterNodes) {
                    const Index node = m.nodeIndex.find(n + shift);
                    if (node == contact::kNoIndex) {
                        in.fail("generated element " + std::to_string(id) + " needs node " +
                                std::to_string(n + shift) + ", which is not defined");
                    }
                    out.nodes.push_back(node);
                }
                const ElementRef r{b, out.size()};
                out.ids.push_back(id);
                s.elementIndex.insert(id, starts.back() + r.element);
                if (elementSet_ != nullptr) {
                    elementSet_->push_back(r);
                }
            }
        }
    }
}

void Reader::commitElement(const LineReader& in) {
    Scope& s = *cur_;
    ElementBlock& b = s.model.blocks[static_cast<std::size_t>(block_)];
    const ElementRef ref{block_, b.size()};
    const Index number = s.blockStart.back() + ref.element;
    if (number == std::numeric_limits<Index>::max()) {
        in.fail("too many elements for 32-bit indices");
    }
    b.ids.push_back(pendingId_);
    b.nodes.insert(b.nodes.end(), pendingNodes_.begin(), pendingNodes_.end());
    s.elementIndex.insert(pendingId_, number);
    if (elementSet_ != nullptr) {
        elementSet_->push_back(ref);
    }
    pending_ = false;
}

// An element of a type element_types does not know: kept while every element has the same node
// count and only defined nodes (a surface may still name it); otherwise the block is dropped.
void Reader::unsupportedLine(LineReader& in, bool trailingComma) {
    Scope& s = *cur_;
    ElementBlock& b = s.model.blocks[static_cast<std::size_t>(block_)];
    std::size_t first = 0;
    if (!pending_) {
        pendingId_ = idField(in, fields_[0], "an element id");
        if (s.elementIndex.contains(pendingId_)) {
            in.fail("element id " + std::to_string(pendingId_) + " defined twice");
        }
        pendingNodes_.clear();
        pending_ = true;
        first = 1;
    }
    for (std::size_t i = first; i < fields_.size() && dropReason_.empty(); ++i) {
        long id = 0;
        Index node = parseLong(fields_[i], id) ? s.model.nodeIndex.find(id) : contact::kNoIndex;
        if (node == contact::kNoIndex && !qualifiedNode(fields_[i], node)) {
            node = contact::kNoIndex;
        }
        if (node == contact::kNoIndex) {
            dropReason_ = "line " + std::to_string(in.line()) + ": '" + shown(fields_[i]) +
                          "' is not a defined node id";
        } else {
            pendingNodes_.push_back(node);
        }
    }
    if (trailingComma && fields_.size() >= kMaxEntriesPerLine) {
        return;  // a full line ending in a comma: the element continues
    }
    pending_ = false;
    ++unsupportedCount_;
    if (!dropReason_.empty()) {
        return;
    }
    const auto count = static_cast<int>(pendingNodes_.size());
    if (b.nodesPerElement == 0) {
        b.nodesPerElement = count;
    }
    if (count == 0) {
        dropReason_ = "line " + std::to_string(in.line()) + ": an element without nodes";
    } else if (count != b.nodesPerElement) {
        dropReason_ = "line " + std::to_string(in.line()) + ": " + std::to_string(count) +
                      " nodes, earlier elements have " + std::to_string(b.nodesPerElement);
    } else {
        commitElement(in);
    }
}

void Reader::endUnsupported() {
    Scope& s = *cur_;
    const ElementBlock& b = s.model.blocks[static_cast<std::size_t>(block_)];
    std::string what =
        "skipped " + std::to_string(unsupportedCount_) + " elements of unsupported type " + b.type;
    if (pending_ && dropReason_.empty()) {
        dropReason_ = "the last element is cut off";
    }
    if (!dropReason_.empty() || b.ids.empty()) {
        what += dropReason_.empty() ? " (none kept)" : " (none kept: " + dropReason_ + ")";
        for (const long id : b.ids) {
            s.elementIndex.erase(id);
        }
        if (elementSet_ != nullptr) {
            const Index dropped = block_;
            elementSet_->erase(
                std::remove_if(elementSet_->begin(), elementSet_->end(),
                               [dropped](const ElementRef& r) { return r.block == dropped; }),
                elementSet_->end());
        }
        s.model.blocks.pop_back();  // the block is the last one: nothing else refers to it yet
        s.blockStart.pop_back();
    }
    pending_ = false;
    root_.model.notes.push_back(at(sectionAt_) + ": " + what);
}

// *NSET and *ELSET data: ids and names of sets of the same kind ("<instance>.<id>" too), or
// GENERATE lines "first, last[, increment]". `lookup(id, out)` finds a defined id (false: none)
// among `ids` of them; `noun` ("node", "element") and its article word the messages.
template <class T, class Lookup, class Sets, class OneOf, class Qualified>
void Reader::setLine(LineReader& in, std::vector<T>& set, std::size_t ids, Lookup lookup,
                     const Sets& sets, const std::string& noun, const std::string& article,
                     OneOf one, Qualified qualifiedId) {
    if (generate_) {
        if (fields_.size() < 2 || fields_.size() > 3) {
            in.fail("expected first, last[, increment] after GENERATE, got " +
                    std::to_string(fields_.size()) + " values");
        }
        const long a = idField(in, fields_[0], ("a first " + noun + " id").c_str());
        const long b = idField(in, fields_[1], ("a last " + noun + " id").c_str());
        const long step = fields_.size() == 3 ? idField(in, fields_[2], "a positive increment") : 1;
        if (b < a) {
            in.expected("a last " + noun + " id >= " + std::to_string(a), shown(fields_[1]));
        }
        // Room for the whole range at once, but never more than there are ids.
        const auto range = static_cast<unsigned long>(b - a) / static_cast<unsigned long>(step) + 1;
        const std::size_t need = set.size() + std::min<std::size_t>(range, ids);
        if (need > set.capacity()) {
            set.reserve(std::max(need, 2 * set.capacity()));
        }
        T value{};
        for (long id = a;; id += step) {
            if (!lookup(id, value)) {
                in.expected("a defined " + noun + " id", std::to_string(id));
            }
            set.push_back(value);
            if (b - id < step) {
                break;
            }
        }
        return;
    }
    for (const std::string_view f : fields_) {
        if (looksNumeric(f)) {
            set.push_back(one(f));
            continue;
        }
        const auto it = sets.find(upper(label(f)));
        T value{};
        if (!f.empty() && it == sets.end() && qualifiedId(f, value)) {
            set.push_back(value);
            continue;
        }
        if (f.empty() || it == sets.end()) {
            in.expected(detail::concat(article, " ", noun, " id or a defined ", noun, " set"),
                        shown(f));
        }
        if (&it->second != &set) {  // a set naming itself adds nothing
            set.insert(set.end(), it->second.begin(), it->second.end());
        }
    }
}

void Reader::nsetLine(LineReader& in) {
    const Index offset = ids_ == cur_ ? 0 : ids_->nodeOffset;
    const auto lookup = [this, offset](long id, Index& node) {
        node = ids_->model.nodeIndex.find(id);
        const bool found = node != contact::kNoIndex;
        node += found ? offset : 0;
        return found;
    };
    setLine(
        in, *nodeSet_, ids_->model.nodeIndex.size(), lookup, cur_->model.nodeSets, "node", "a",
        [&](std::string_view f) { return nodeOf(in, f); },
        [this](std::string_view f, Index& node) { return qualifiedNode(f, node); });
}

void Reader::nsetOfElsetsLine(LineReader& in) {
    for (const std::string_view f : fields_) {
        addNodesOfElset(in, f, *nodeSet_);
    }
}

void Reader::elsetLine(LineReader& in) {
    const Index offset = ids_ == cur_ ? 0 : ids_->blockOffset;
    const auto lookup = [this, offset](long id, ElementRef& element) {
        const Index e = ids_->elementIndex.find(id);
        if (e != contact::kNoIndex) {
            element = elementRef(*ids_, e);
            element.block += offset;
        }
        return e != contact::kNoIndex;
    };
    setLine(
        in, *elementSet_, ids_->elementIndex.size(), lookup, cur_->model.elementSets, "element",
        "an", [&](std::string_view f) { return elementOf(in, f); },
        [this](std::string_view f, ElementRef& e) { return qualifiedElement(f, e); });
}

// <element id or element set>, <face label>: S1..S6 (solids, 2D edges; shells: S1 = NEG,
// S2 = POS and the edges S3..S6, as in CalculiX), SPOS/SNEG (also POS/NEG) for the sides of
// shells and rigid elements, E1..E4 for the edges of shells (Abaqus: an edge-based surface, its
// facets the edges as line segments), kept as CalculiX's S3..S6.
void Reader::faceSurfaceLine(LineReader& in) {
    if (fields_.size() == 1 || (fields_.size() == 2 && trim(fields_[1]).empty())) {
        exposedFacesLine(in);
        return;
    }
    if (fields_.size() > 2) {
        in.expected("end of line after the face label", shown(fields_[2]));
    }
    const std::string label = squeeze(fields_[1]);
    int face = 0;
    bool side = false;  // SPOS / SNEG
    bool edge = false;  // E1..E4
    if (label == "SPOS" || label == "SNEG" || label == "POS" || label == "NEG") {
        face = label.back() == 'S' ? 2 : 1;
        side = true;
    } else if (label.size() == 2 && label[0] == 'S' && label[1] >= '1' && label[1] <= '6') {
        face = label[1] - '0';
    } else if (label.size() == 2 && label[0] == 'E' && label[1] >= '1' && label[1] <= '4') {
        face = 2 + (label[1] - '0');
        edge = true;
    } else {
        in.expected("a face label (S1..S6, SPOS, SNEG, or E1..E4 on shells)", shown(fields_[1]));
    }

    const Model& m = cur_->model;
    ElementRef one;
    const auto [first, count] = elementsOf(in, fields_[0], one);
    SurfaceDef& s = cur_->model.surfaces[surface_];
    if (s.faces.size() + count > s.faces.capacity()) {
        s.faces.reserve(std::max(s.faces.size() + count, 2 * s.faces.capacity()));
    }
    Index lastBlock = contact::kNoIndex;  // sets hold runs of one block: one type lookup per run
    const ElementType* t = nullptr;
    int n = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const ElementRef& r = first[k];
        const ElementBlock& b = m.blocks[static_cast<std::size_t>(r.block)];
        if (r.block != lastBlock) {
            lastBlock = r.block;
            t = detail::findAbaqusType(b.type);
            n = t != nullptr ? detail::faceCount(*t) : 0;
        }
        if (t != nullptr) {  // unsupported types: the surface builder decides
            const bool shell = t->kind == ElementKind::kShell;
            const bool sides = shell || t->kind == ElementKind::kRigid;
            if (face > n || (side && !sides) || (edge && !shell)) {
                const long id = b.ids[static_cast<std::size_t>(r.element)];
                const std::string labels = t->kind == ElementKind::kRigid ? "SPOS, SNEG"
                                           : shell ? "SPOS, SNEG, S1..S" + std::to_string(n) +
                                                         ", E1..E" + std::to_string(n - 2)
                                                   : "S1..S" + std::to_string(n);
                in.expected("a face of element " + std::to_string(id) + " (" + b.type + ": " +
                                labels + ")",
                            shown(fields_[1]));
            }
        }
        s.faces.push_back({r, face});
    }
}

std::pair<const ElementRef*, std::size_t>
Reader::elementsOf(const LineReader& in, std::string_view t, ElementRef& one) const {
    if (looksNumeric(t)) {
        one = elementOf(in, t);
        return {&one, 1};
    }
    const Model& m = cur_->model;
    const auto it = m.elementSets.find(upper(label(t)));
    if (it != m.elementSets.end()) {
        return {it->second.data(), it->second.size()};
    }
    if (t.empty() || !qualifiedElement(t, one)) {
        in.expected("an element id or a defined element set", shown(t));
    }
    return {&one, 1};
}

// <element or element set>[,] without a face label: the Analysis User's Guide ("Element-based
// surface definition") takes all exposed faces of these elements, the faces no other element
// of the model shares. A shell or rigid element needs its label (without one Abaqus makes a
// double-sided surface, which the search does not take).
void Reader::exposedFacesLine(LineReader& in) {
    ElementRef one;
    const auto [first, count] = elementsOf(in, fields_[0], one);
    const Model& m = cur_->model;
    for (std::size_t k = 0; k < count; ++k) {
        const ElementBlock& b = m.blocks[static_cast<std::size_t>(first[k].block)];
        const ElementType* t = detail::findAbaqusType(b.type);
        const long id = b.ids[static_cast<std::size_t>(first[k].element)];
        if (t == nullptr) {
            in.fail("element " + std::to_string(id) + " is of type " + b.type +
                    ", whose faces this reader does not know: its exposed faces cannot be found");
        }
        if (t->kind == ElementKind::kShell || t->kind == ElementKind::kRigid) {
            in.fail("element " + std::to_string(id) + " (" + b.type +
                    ") needs a face label: without one a shell's surface is double-sided, "
                    "which the search does not take (give SPOS or SNEG)");
        }
    }
    exposed_.push_back({cur_, surface_, std::vector<ElementRef>(first, first + count)});
}

// The exposed faces of the lines exposedFacesLine kept for `scope`, in element order.
void Reader::addExposedFaces(const Scope& scope) {
    std::vector<Exposed> later;
    std::vector<FaceRef> exterior;
    bool found = false;  // exterior holds the scope's exterior faces
    const auto flat = [](const ElementRef& r) {
        return (static_cast<std::uint64_t>(r.block) << 32) | static_cast<std::uint32_t>(r.element);
    };
    for (Exposed& e : exposed_) {
        if (e.scope != &scope) {
            later.push_back(std::move(e));
            continue;
        }
        if (!found) {
            exterior = exteriorFaces(scope.model);
            std::sort(exterior.begin(), exterior.end(), [&](const FaceRef& a, const FaceRef& b) {
                return flat(a.element) != flat(b.element) ? flat(a.element) < flat(b.element)
                                                          : a.face < b.face;
            });
            found = true;
        }
        std::vector<std::uint64_t> wanted;
        wanted.reserve(e.elements.size());
        for (const ElementRef& r : e.elements) {
            wanted.push_back(flat(r));
        }
        std::sort(wanted.begin(), wanted.end());
        std::vector<FaceRef>& faces = e.scope->model.surfaces[e.surface].faces;
        for (const FaceRef& f : exterior) {
            if (std::binary_search(wanted.begin(), wanted.end(), flat(f.element))) {
                faces.push_back(f);
            }
        }
    }
    exposed_ = std::move(later);
}

// <node id or node set>[, weight]
void Reader::nodeSurfaceLine(LineReader& in) {
    if (fields_.size() > 2) {
        in.expected("end of line after the weight", shown(fields_[2]));
    }
    if (fields_.size() == 2 && !fields_[1].empty()) {
        numberField(in, fields_[1], "a weight");
    }
    SurfaceDef& s = cur_->model.surfaces[surface_];
    const std::string_view f = fields_[0];
    if (looksNumeric(f)) {
        s.nodes.push_back(nodeOf(in, f));
        return;
    }
    const auto it = cur_->model.nodeSets.find(upper(label(f)));
    Index node = 0;
    if (!f.empty() && it == cur_->model.nodeSets.end() && qualifiedNode(f, node)) {
        s.nodes.push_back(node);
        return;
    }
    if (f.empty() || it == cur_->model.nodeSets.end()) {
        in.expected("a node id or a defined node set", shown(f));
    }
    s.nodes.insert(s.nodes.end(), it->second.begin(), it->second.end());
}

// <slave>, <master>: names only; they are resolved by whoever builds the surfaces.
void Reader::interfaceLine(LineReader& in) {
    std::size_t names = 0;
    for (const std::string_view f : fields_) {
        names += unquote(f).empty() ? 0 : 1;
    }
    // A *CONTACT PAIR line with one surface (the second field blank) is that surface's
    // self-contact (Analysis User's Guide, "Defining contact pairs in Abaqus/Standard").
    const bool self = iface_.kind == InterfaceDef::Kind::kContactPair && names == 1 &&
                      !unquote(fields_[0]).empty() && fields_.size() <= 2;
    if (!self && (fields_.size() != 2 || names != 2)) {
        in.expected("2 surface names (slave, master)", shown(line_));
    }
    if (skipIface_) {
        return;
    }
    InterfaceDef d = iface_;
    d.slave = label(fields_[0]);
    d.master = self ? d.slave : label(fields_[1]);
    d.selfContact = self;
    d.source = {in.path(), in.line()};
    if (!unapplied_.empty()) {
        note(in, in.line(),
             std::string(d.kind == InterfaceDef::Kind::kTie ? "*TIE" : "*CONTACT PAIR") +
                 (d.name.empty() ? "" : " '" + d.name + "'") + " (" + d.slave + ", " + d.master +
                 "): " + unapplied_);
    }
    root_.model.interfaces.push_back(std::move(d));
}

// *INSTANCE data: a translation "x, y, z", then a rotation "ax, ay, az, bx, by, bz, angle" about
// the axis from a to b, in degrees (right-hand rule).
void Reader::placementLine(LineReader& in) {
    Scope& s = *instance_;
    const auto values = [&](std::size_t most, const char* what) {
        if (fields_.size() > most) {
            in.expected(std::string("at most ") + std::to_string(most) + " values (" + what + ")",
                        std::to_string(fields_.size()) + " values");
        }
        std::array<double, 7> v{};
        for (std::size_t i = 0; i < fields_.size(); ++i) {
            v[i] = fields_[i].empty() ? 0.0 : numberField(in, fields_[i], "a number");
        }
        return v;
    };
    if (s.placementLines == 0) {
        const auto v = values(3, "the translation x, y, z");
        s.translation = {v[0], v[1], v[2]};
    } else if (s.placementLines == 1) {
        const auto v = values(7, "point a, point b, angle");
        const Eigen::Vector3d a(v[0], v[1], v[2]);
        const Eigen::Vector3d axis = Eigen::Vector3d(v[3], v[4], v[5]) - a;
        if (axis.norm() == 0.0) {
            in.fail("the rotation axis of *INSTANCE '" + s.name +
                    "' has two equal points a and b: expected ax, ay, az, bx, by, bz, angle");
        }
        const double angle = v[6] * EIGEN_PI / 180.0;
        s.rotation = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
        s.axisPoint = a;
    } else {
        in.fail("expected at most 2 data lines under *INSTANCE (a translation, then a rotation: "
                "point a, point b, angle in degrees)");
    }
    ++s.placementLines;
}

// *CONTACT INCLUSIONS / EXCLUSIONS data: "<first surface>, <second surface>"; a blank first
// surface is the all-inclusive exterior, a blank second one (or the first again) self-contact.
void Reader::generalContactLine(LineReader& in, bool inclusions) {
    if (fields_.size() > 2) {
        in.expected("end of line after two surface names", shown(fields_[2]));
    }
    std::array<std::string, 2> pair{label(fields_[0]), fields_.size() > 1 ? label(fields_[1]) : ""};
    if (pair[1].empty()) {
        pair[1] = pair[0];
    }
    detail::GeneralContact& g = general_.back().def;
    (inclusions ? g.inclusions : g.exclusions).push_back({pair, {in.path(), in.line()}});
}

}  // namespace

Model readAbaqus(const std::string& path) { return Reader(path).read(); }

}  // namespace mesh_io
