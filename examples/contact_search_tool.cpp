// SPDX-License-Identifier: MIT
// contact-search: runs the contact search on a model file and reports what touches.
// Its steps: options -> model -> interfaces -> search -> report -> outputs.
#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/output.hpp"
#include "mesh_io/overlaps.hpp"
#include "mesh_io/report.hpp"
#include "mesh_io/verify.hpp"
#include "mesh_io/writers.hpp"

#include "contact_search_mpi.hpp"  // DistributedResult; the session only where MPI is built in

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef CONTACT_VERSION
#define CONTACT_VERSION "unknown"
#endif

namespace {

using contact::Index;
using contact::SearchMode;
using contact_tool::DistributedResult;
using mesh_io::ContactSurface;

#ifdef CONTACT_TOOL_MPI
contact_tool::MpiSession* g_mpi = nullptr;  // under mpiexec: searches run over all ranks
#endif

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitVerifyFailed = 3;

// What went to standard output reached it: a full disk or a closed stream fails the run.
int flushedStdout(int status) {
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        std::fprintf(stderr, "contact-search: writing to standard output failed (disk full, or "
                             "closed?)\n");
        return status == kExitOk ? kExitBadInput : status;
    }
    return status;
}

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------------
// Options.

struct Args {
    std::string model;
    std::string master;
    std::string slave;
    double capture = 0.5;
    bool captureRelative = true;
    std::string mode;
    std::string pairs;
    std::string overlaps;
    std::string json;
    bool jsonPairs = false;
    std::string vtu;
    std::string mortar;  ///< a directory
    bool vtuAscii = false;
    bool coordinates = false;
    bool force = false;
    int threads = 1;
    contact::BroadPhaseKind broadPhase = contact::BroadPhaseKind::kSweep;
    bool verify = false;
    long verifySample = 0;
    unsigned seed = 1;
    bool list = false;
    bool quiet = false;

    [[nodiscard]] std::vector<std::string> outputs() const {
        std::vector<std::string> out;
        for (const std::string* f : {&pairs, &overlaps, &json, &vtu}) {
            if (!f->empty()) {
                out.push_back(*f);
            }
        }
        return out;
    }
};

const char* kDescription =
    R"(Runs the contact search on MODEL (Abaqus/CalculiX .inp, Gmsh .msh, Exodus II .e/.exo/.ex2) for every
interface the file defines (*CONTACT PAIR and *TIE data lines, general contact), or for the
surfaces (Gmsh: physical groups; Exodus II: side sets) named with --master and --slave, and prints
a report per interface. Options take their value as --opt VALUE or
--opt=VALUE. An output FILE may be - (standard output; the report then goes to standard error).)";

const char* kFooter =
    R"(exit status: 0 ok; 2 bad usage or bad input (the message says what and where), also when an
interface could not be searched (the others are, and reported); 3 --verify or --verify-sample
found missed or extra pairs or different gaps (said on stderr, --quiet too), also where 2 applies
as well: a difference from the reference must not go unseen.
)";

// A validator with our own message: "<option> expects <what>, got '<text>'".
CLI::Validator expects(const std::string& what, bool (*ok)(const std::string&)) {
    return {[what, ok](std::string& text) {
                return ok(text) ? std::string() : "expects " + what + ", got '" + text + "'";
            },
            "", ""};
}

bool nonNegativeNumber(const std::string& t) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    return !t.empty() && *end == '\0' && std::isfinite(v) && v >= 0;
}

bool wholeNumber(const std::string& t, long lo, long hi) {
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    return !t.empty() && *end == '\0' && v >= lo && v <= hi;
}

Args parseArgs(int argc, char** argv) {
    Args a;
    CLI::App app(kDescription, "contact-search");
    app.footer(kFooter);
    app.set_version_flag("--version", std::string("contact-search ") + CONTACT_VERSION);
    app.get_formatter()->column_width(32);
    std::string capture;
    std::string captureRel;
    std::string broad = "sweep";
    app.add_option("MODEL", a.model, "the model file (.inp, .msh, .e/.exo/.ex2)");
    app.allow_extras();  // unknown options and extra files: our own messages below
    const auto surfaceName =
        expects("a surface name", [](const std::string& t) { return !t.empty(); });
    auto* master = app.add_option("--master", a.master,
                                  "master surface (Abaqus *SURFACE, Gmsh physical group,\n"
                                  "Exodus side set)")
                       ->type_name("NAME")
                       ->check(surfaceName);
    auto* slave = app.add_option("--slave", a.slave, "slave surface (or node surface)")
                      ->type_name("NAME")
                      ->check(surfaceName);
    master->needs(slave);
    slave->needs(master);
    auto* cap = app.add_option("--capture", capture, "capture distance as a length")
                    ->type_name("D")
                    ->check(expects("a number >= 0", nonNegativeNumber));
    auto* capRel =
        app.add_option("--capture-rel", captureRel, "R x mean master segment size (default 0.5)")
            ->type_name("R")
            ->check(expects("a number >= 0", nonNegativeNumber))
            ->excludes(cap);
    auto* mode = app.add_option("--mode", a.mode,
                                "node-to-segment or segment-to-segment pairs (default:\n"
                                "node; segment for surface-to-surface and mortar types)")
                     ->type_name("node|segment")
                     ->check(expects("node or segment", [](const std::string& t) {
                         return t == "node" || t == "segment";
                     }));
    const auto named = expects("a file name", [](const std::string& t) { return !t.empty(); });
    auto* pairs = app.add_option("--pairs", a.pairs, "write the pairs as CSV")
                      ->type_name("FILE.csv")
                      ->check(named);
    auto* mortar =
        app.add_option(
               "--mortar", a.mortar,
               "segment mode: each interface's mortar D and M (Matrix\nMarket), weighted gaps "
               "and nodal areas (CSV) in DIR\n(not for self-contact)")
            ->type_name("DIR")
            ->check(named);
    auto* overlaps =
        app.add_option(
               "--overlaps", a.overlaps,
               "segment mode: each pair's overlap, and its part within\nthe capture distance")
            ->type_name("FILE.csv")
            ->check(named);
    auto* json = app.add_option("--json", a.json, "write the report as JSON")
                     ->type_name("FILE")
                     ->check(named);
    app.add_flag("--json-pairs", a.jsonPairs, "the JSON lists every pair")->needs(json);
    auto* coordinates =
        app.add_flag("--coordinates", a.coordinates,
                     "CSV and JSON pairs carry the slave and closest-point coordinates");
    auto* vtu = app.add_option("--vtu", a.vtu, "write surfaces, pairs and overlaps for ParaView")
                    ->type_name("FILE.vtu")
                    ->check(named);
    app.add_flag("--vtu-ascii", a.vtuAscii, "ASCII VTU (default: zlib-compressed binary)")
        ->needs(vtu);
    auto* force =
        app.add_flag("--force", a.force, "replace existing output files (input files never)");
    auto* threads =
        app.add_option("--threads", a.threads,
                       "threads of the search, overlaps and mortar (default 1)")
            ->type_name("N")
            ->check(expects(
                "a whole number from 1 to " + std::to_string(contact::kMaxThreads),
                [](const std::string& t) { return wholeNumber(t, 1, contact::kMaxThreads); }));
    auto* broadPhase =
        app.add_option(
               "--broad-phase", broad,
               "candidate search structure (default sweep: sort and sweep,\nor a box tree "
               "where it would scan more than 32\npairs per box, as on most 3D surfaces; the "
               "report\nsays which ran); the same pairs")
            ->type_name("kdtree|boxtree|sweep")
            ->check(expects("kdtree, boxtree or sweep", [](const std::string& t) {
                return t == "kdtree" || t == "boxtree" || t == "sweep";
            }));
    auto* verify = app.add_flag("--verify", a.verify, "also run the exhaustive reference");
    auto* sample =
        app.add_option("--verify-sample", a.verifySample,
                       "check N slave items drawn at random against every segment")
            ->type_name("N")
            ->check(expects("a whole number from 1 to 2147483647",
                            [](const std::string& t) { return wholeNumber(t, 1, 2147483647L); }))
            ->excludes(verify);
    app.add_option("--seed", a.seed, "seed of --verify-sample (default 1)")
        ->type_name("S")
        ->needs(sample)
        ->check(expects("a whole number from 0 to 4294967295",
                        [](const std::string& t) { return wholeNumber(t, 0, 4294967295L); }));
    auto* list =
        app.add_flag("--list", a.list, "list the surfaces and interfaces of MODEL, search nothing")
            ->excludes(pairs)
            ->excludes(mortar)
            ->excludes(overlaps)
            ->excludes(json)
            ->excludes(vtu)
            ->excludes(verify)
            ->excludes(sample)
            // --list searches nothing: the options of a search would be silently ignored.
            ->excludes(master)
            ->excludes(slave)
            ->excludes(cap)
            ->excludes(capRel)
            ->excludes(mode)
            ->excludes(coordinates)
            ->excludes(threads)
            ->excludes(broadPhase)
            ->excludes(force);  // it writes nothing
    // --list prints its list and nothing else: --quiet would leave it nothing to do.
    app.add_flag("--quiet", a.quiet, "print nothing but errors")->excludes(list);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        std::exit(flushedStdout(kExitOk));
    } catch (const CLI::CallForVersion&) {
        std::cout << app.version() << '\n';
        std::exit(flushedStdout(kExitOk));
    } catch (const CLI::ParseError& e) {
        throw UsageError(e.what());
    }
    for (const std::string& extra : app.remaining()) {
        if (extra.size() > 1 && extra[0] == '-') {
            throw UsageError("unknown option " + extra.substr(0, extra.find('=')));
        }
        throw UsageError("more than one model file: '" + a.model + "' and '" + extra + "'");
    }
    if (a.model.empty()) {
        throw UsageError("no model file given");
    }
    if (!capture.empty() || !captureRel.empty()) {
        a.captureRelative = capture.empty();
        a.capture = std::strtod((capture.empty() ? captureRel : capture).c_str(), nullptr);
    }
    a.broadPhase = broad == "boxtree"  ? contact::BroadPhaseKind::kBoxTree
                   : broad == "kdtree" ? contact::BroadPhaseKind::kKdTree
                                       : contact::BroadPhaseKind::kSweep;
    return a;
}

// ---------------------------------------------------------------------------------------------
// Model and interfaces.

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// One line on stderr that rewrites itself, only when stderr is a terminal.
class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled && ::isatty(2) == 1) {}
    void stage(const std::string& what) {
        if (enabled_) {
            std::fprintf(stderr, "\r\033[K%s ...", what.c_str());
            std::fflush(stderr);
        }
    }
    void done() {
        if (enabled_) {
            std::fprintf(stderr, "\r\033[K");
            std::fflush(stderr);
        }
    }

private:
    bool enabled_;
};

// Large models: searches, reports and writers use only the model's coordinates and node ids;
// buildContactSurface also its element blocks and surface definitions. So the id lookups and sets
// go once the model is read, the blocks and surface definitions once the last surfaces are built.
void releaseLookupsAndSets(mesh_io::Model& m) {
    m.nodeIndex.clear();
    m.nodeSets.clear();
    for (auto& [name, set] : m.elementSets) {  // the names stay: a refusal may cite one
        std::vector<mesh_io::ElementRef>().swap(set);
    }
}

// The first axisymmetric element type of the model (CAX4R, CGAX8, DCAX6, RAX2, ...), or "". A
// model is planar or axisymmetric as a whole (Abaqus, CalculiX): one such element makes all its
// 2D surfaces axisymmetric.
std::string axisymmetricType(const mesh_io::Model& m) {
    for (const mesh_io::ElementBlock& b : m.blocks) {
        for (const char* prefix : {"CAX", "CGAX", "DCAX", "DCCAX", "RAX"}) {
            const std::size_t n = std::strlen(prefix);
            if (b.type.compare(0, n, prefix) == 0 && b.type.size() > n &&
                std::isdigit(static_cast<unsigned char>(b.type[n])) != 0) {
                return b.type;
            }
        }
    }
    return "";
}

void releaseElements(mesh_io::Model& m) {
    std::vector<mesh_io::ElementBlock>().swap(m.blocks);
    for (mesh_io::SurfaceDef& s : m.surfaces) {
        std::vector<mesh_io::FaceRef>().swap(s.faces);
        std::vector<Index>().swap(s.nodes);
    }
}

// Distinct slave nodes: the node list of a node surface, or the nodes of its segments.
Index slaveNodeCount(const ContactSurface& s) {
    if (s.nodeSurface) {
        return static_cast<Index>(s.nodes.size());
    }
    std::vector<Index> n = s.surface.connectivity;
    std::sort(n.begin(), n.end());
    return static_cast<Index>(std::unique(n.begin(), n.end()) - n.begin());
}

struct Interface {
    int index = 1;
    std::string kind;
    mesh_io::InterfaceDef def;
};

// The interfaces to search: the command line's, or the file's (in the file's own terms when
// there are none).
std::vector<Interface> chooseInterfaces(const mesh_io::Model& model, const Args& args) {
    std::vector<Interface> out;
    if (!args.master.empty()) {
        mesh_io::InterfaceDef def;
        def.slave = args.slave;
        def.master = args.master;
        def.source = {model.path, 0};
        out.push_back({1, "command line", def});
    } else {
        int index = 1;
        for (const auto& def : model.interfaces) {
            out.push_back({index++, mesh_io::interfaceKindName(def.kind), def});
        }
    }
    if (out.empty()) {
        const mesh_io::FileTerms terms = fileTerms(model);
        std::string names;
        for (const auto& s : model.surfaces) {
            names += (names.empty() ? "" : ", ") + s.name;
        }
        const std::string known =
            std::string(" (") + terms.surfaces + ": " + (names.empty() ? "none" : names) + ")";
        if (model.format == "gmsh" || model.format == "exodus") {
            throw std::invalid_argument(
                model.path +
                (model.format == "gmsh" ? " is a Gmsh file" : " is an Exodus II file") +
                (names.empty() ? std::string(": it defines no contact pairs and no ") +
                                     terms.surfaces + " that could be searched"
                               : std::string(": it names ") + terms.surfaces +
                                     " but no contact pairs; choose them with --master and "
                                     "--slave" +
                                     known));
        }
        throw std::invalid_argument(model.path + " defines no " + terms.interfaces +
                                    "; name the surfaces with --master and --slave" + known);
    }
    for (const auto& [option, given] : {std::make_pair("--overlaps", !args.overlaps.empty()),
                                        std::make_pair("--mortar", !args.mortar.empty())}) {
        for (const auto& i : out) {
            if (given && args.mode != "segment" && (!args.mode.empty() || i.def.nodeToSurface)) {
                throw UsageError(std::string(option) +
                                 " needs segment-to-segment pairs: add --mode segment");
            }
        }
    }
    // One pairs CSV holds one mode's columns: interfaces of both modes are refused before any
    // search.
    for (const auto& i : out) {
        if (!args.pairs.empty() && args.mode.empty() &&
            i.def.nodeToSurface != out.front().def.nodeToSurface) {
            throw UsageError("--pairs: interfaces " + std::to_string(out.front().index) + " and " +
                             std::to_string(i.index) +
                             " are searched in different modes, whose pairs do not share one CSV "
                             "file; add --mode node or --mode segment");
        }
    }
    return out;
}

// --mode, when given, replaces each interface's own.
std::optional<SearchMode> modeOverride(const Args& args) {
    if (args.mode.empty()) {
        return std::nullopt;
    }
    return args.mode == "node" ? SearchMode::kNodeToSegment : SearchMode::kSegmentToSegment;
}

// ---------------------------------------------------------------------------------------------
// Search, report, outputs.

// Everything one interface's report points to.
struct Searched {
    std::unique_ptr<ContactSurface> master;
    std::unique_ptr<ContactSurface> slave;
    std::unique_ptr<contact::ContactSearch> search;  // serial runs
    std::unique_ptr<DistributedResult> dist;         // under mpiexec: the search over all ranks
    std::unique_ptr<mesh_io::Overlaps> overlaps;
    std::unique_ptr<contact::MortarIntegrator> mortar;     // --mortar, serial runs
    const contact::MortarOperators* mortarRows = nullptr;  // --mortar: its rows, or dist's
    contact::MortarStats mortarStats;                      // --mortar: its counts, or dist's
    contact::SearchOptions options;
    mesh_io::InterfaceReport report;
};

// A surface the search refused, named as the file names it: the segment's element and face, the
// node's id (the search's message has their indices).
std::string inFileTerms(const mesh_io::Model& model, const contact::SurfaceError& e,
                        const Searched& s) {
    const ContactSurface* cs = e.role() == "master" ? s.master.get() : s.slave.get();
    if (cs == nullptr) {
        return e.what();
    }
    std::string text = e.role() + " surface '" + cs->name + "'";
    const Index seg = e.segment();
    if (seg != contact::kNoIndex && seg < cs->surface.size()) {
        const mesh_io::SegmentOrigin o = cs->origin[seg];
        text += ", element " + model.elementLabel(o.instance, o.elementId) + " face " +
                std::to_string(o.face) + " (" + contact::segmentTypeName(cs->surface.types[seg]) +
                ")";
    }
    const Index node = e.node();
    const bool known = node != contact::kNoIndex && node >= 0 && node < model.numNodes();
    return text + ": " + e.problemWith(known ? model.nodeLabel(node) : std::to_string(node));
}

// What the mortar integrals left out or took roughly (contact::MortarStats), each count that is
// not 0 with its meaning: "; 36 pairs left out: normals not opposed ...", or "".
std::string mortarLeftOut(const contact::MortarStats& st) {
    std::string text;
    const auto add = [&](long long n, const char* what) {
        if (n > 0) {
            text += "; " + std::to_string(n) + " " + what;
        }
    };
    add(st.notFacing, "pairs left out: normals not opposed (n_s . n_m >= 0)");
    add(st.degenerate, "pairs left out: geometry not integrable (a master edge-on to the slave, "
                       "or a non-convex projected face)");
    add(st.cutFallbacks,
        "capture-cut pieces taken at the cut's limits (each off by at most its area)");
    add(st.dualFallbacks, "slave segments too little in contact for the dual basis (D lumped)");
    return text;
}

// Pairs in contact that gave the mortar integrals nothing, said on stderr: no rows at all (the
// files would hold no entries), or pairs left out as not facing.
void warnMortarLeftOut(int interface, Index inContact, const contact::MortarOperators& op,
                       const contact::MortarStats& st) {
    if (inContact == 0) {
        return;
    }
    if (op.nodes.empty()) {
        const std::string why = mortarLeftOut(st);  // "; ..." or ""
        std::fprintf(stderr,
                     "contact-search: interface %d: warning: --mortar: %lld pairs in contact give "
                     "no mortar rows (its files hold no entries)%s\n",
                     interface, static_cast<long long>(inContact),
                     why.empty() ? "" : (": " + why.substr(2)).c_str());
    } else if (st.notFacing > 0) {
        std::fprintf(stderr,
                     "contact-search: interface %d: warning: --mortar: %lld pairs left out of the "
                     "mortar integrals, their normals not opposed (n_s . n_m >= 0): is a surface "
                     "on the wrong side (a shell's SNEG / SPOS)?\n",
                     interface, static_cast<long long>(st.notFacing));
    }
}

// Removes the directories --mortar made where nothing was written into them (empty ones only).
void removeMade(const std::vector<std::filesystem::path>& made) {
    std::error_code ec;
    for (const std::filesystem::path& p : made) {
        if (std::filesystem::is_empty(p, ec)) {
            std::filesystem::remove(p, ec);
        }
    }
}

// Makes the --mortar directory level by level, as the path names it (a ".." is taken where it
// stands), and returns the levels this call created, deepest first: only those may be removed
// again. A level that is a symbolic link to nothing is refused, naming it.
std::vector<std::filesystem::path> makeMortarDirectory(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<fs::path> made;
    fs::path level;
    for (const fs::path& part : fs::path(dir)) {
        level /= part;
        if (part.empty() || part == "." || part == ".." || part == level.root_path()) {
            continue;
        }
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(level, ec)) && !fs::exists(level, ec)) {
            removeMade(made);
            throw UsageError("--mortar: " + level.string() + " is a symbolic link to nothing (" +
                             fs::read_symlink(level, ec).string() +
                             "); make its directory, or name another");
        }
        if (fs::exists(level, ec) && !fs::is_directory(level, ec)) {
            removeMade(made);
            throw UsageError("--mortar expects a directory; " + level.string() + " is not one");
        }
        const bool created = fs::create_directory(level, ec);
        if (ec) {
            removeMade(made);
            throw std::runtime_error("--mortar: cannot create directory " + level.string() + ": " +
                                     ec.message());
        }
        if (created) {
            made.insert(made.begin(), level);
        }
    }
    return made;
}

// Every output, the --mortar files included, checked before the search (mesh_io::checkOutputs:
// existing files, two outputs to one file). The --mortar directory is made for the check where
// missing, and what was made is removed again when the check fails.
struct CheckedOutputs {
    std::vector<mesh_io::OutputKind> kinds;
    std::vector<std::filesystem::path> made;  // directories made for --mortar, deepest first
};

CheckedOutputs checkAllOutputs(const Args& args, const std::vector<Interface>& interfaces,
                               bool assembly, const mesh_io::WriteOptions& options) {
    std::vector<std::string> outputs = args.outputs();
    if (args.mortar.empty()) {
        return {mesh_io::checkOutputs(outputs, options), {}};
    }
    if (args.mortar == "-") {
        throw UsageError("--mortar expects a directory, not - (standard output)");
    }
    std::vector<std::filesystem::path> made = makeMortarDirectory(args.mortar);
    for (const Interface& itf : interfaces) {
        for (std::string& f : mesh_io::mortarFileNames(
                 args.mortar, "interface" + std::to_string(itf.index), assembly)) {
            outputs.push_back(std::move(f));
        }
    }
    try {
        return {mesh_io::checkOutputs(outputs, options), made};
    } catch (...) {
        removeMade(made);
        throw;
    }
}

// The report goes to standard output: refused where that is an input file (`>> model.inp`), which
// the report would be appended to.
void checkStdoutNotInput(const std::vector<std::string>& inputs) {
    struct stat out {};
    if (::fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode)) {
        return;
    }
    for (const std::string& in : inputs) {
        struct stat st {};
        if (::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) {
            throw std::runtime_error("standard output is the input file " + in +
                                     ": the report would be written into it (redirect it "
                                     "elsewhere, or --quiet)");
        }
    }
}

int run(const Args& args) {
    Progress progress(!args.quiet);
    const auto t0 = std::chrono::steady_clock::now();
    progress.stage("reading " + args.model);
    mesh_io::Model model = mesh_io::readModel(args.model);
    const double timeRead = msSince(t0);
    if (!args.quiet || args.list) {
        checkStdoutNotInput(model.files.empty() ? std::vector<std::string>{model.path}
                                                : model.files);
    }
    if (args.list) {
        progress.done();
        mesh_io::listModel(std::cout, model);
        return kExitOk;
    }
    const std::vector<Interface> interfaces = chooseInterfaces(model, args);
    const std::string axisymmetric = axisymmetricType(model);  // before the elements are freed

    // Outputs are checked before the search: a refused path costs nothing.
    mesh_io::WriterOptions wo;
    wo.write.overwrite = args.force;
    wo.write.overwriteOption = "--force";
    wo.write.inputs = model.files.empty() ? std::vector<std::string>{model.path} : model.files;
    wo.coordinates = args.coordinates;
    wo.jsonPairs = args.jsonPairs;
    wo.vtuAscii = args.vtuAscii;
    const CheckedOutputs checked =
        checkAllOutputs(args, interfaces, !model.instances.empty(), wo.write);
    bool toStdout = false;
    for (const mesh_io::OutputKind k : checked.kinds) {
        toStdout = toStdout || k == mesh_io::OutputKind::kStdout;
    }
    std::ostream& report = toStdout ? std::cerr : std::cout;  // "-" keeps stdout for the data

    if (!args.quiet) {
        char line[512];
        std::snprintf(line, sizeof line,
                      "model %s (%s): %d nodes, %d elements, %zu %s, read in "
                      "%.1f ms\n",
                      model.path.c_str(), model.format.c_str(), static_cast<int>(model.numNodes()),
                      static_cast<int>(model.numElements()), model.surfaces.size(),
                      fileTerms(model).surfaces, timeRead);
        report << line;
        mesh_io::printNotes(report, model);
    }
    releaseLookupsAndSets(model);

    std::vector<Searched> done;
    done.reserve(interfaces.size());
    Eigen::Matrix2Xd coords2;  // x, y of every node, made for the first 2D interface
    bool verifyFailed = false;
    int refused = 0;
    const std::optional<SearchMode> forcedMode = modeOverride(args);
    // An interface that cannot be searched is reported with its file and line; the others run.
    const auto refuse = [&](const Interface& itf, const std::string& why) {
        progress.done();
        ++refused;
        const mesh_io::Source& at = itf.def.source;
        const std::string where =
            at.line > 0 ? at.path + ":" + std::to_string(at.line) + ": " : at.path + ": ";
        std::fprintf(stderr, "contact-search: interface %d (%s) not searched: %s%s\n", itf.index,
                     itf.kind.c_str(), why.rfind(at.path, 0) == 0 ? "" : where.c_str(),
                     why.c_str());
    };
    for (const Interface& itf : interfaces) {
        const std::string stage = "interface " + std::to_string(itf.index) + ": ";
        progress.stage(stage + "building surfaces");
        Searched s;
        SearchMode mode = SearchMode::kNodeToSegment;
        contact::CoordinatesView x;
        contact::UpdateStats st;
        contact::SearchOptions& opt = s.options;
        try {
            mesh_io::PreparedInterface p = mesh_io::prepareInterface(model, itf.def, forcedMode);
            if (!args.mortar.empty() && p.selfContact) {
                throw std::invalid_argument("--mortar: a surface in contact with itself has no "
                                            "mortar operators here");
            }
            s.master = std::make_unique<ContactSurface>(std::move(p.master));
            s.slave = std::make_unique<ContactSurface>(std::move(p.slave));
            mode = p.mode;
            opt.capture = args.capture;
            opt.captureRelative = args.captureRelative;
            opt.mode = p.mode;
            opt.threads = args.threads;
            opt.broadPhase = args.broadPhase;
            opt.selfContact = p.selfContact;
            // One update per interface: a Verlet skin would only widen every box for a reuse of
            // the candidate list that never comes.
            opt.skinRelative = 0.0;
            if (s.master->dim == 2 && coords2.cols() != model.coords.cols()) {
                coords2 = model.coords.topRows<2>();
            }
            x = s.master->dim == 3 ? contact::CoordinatesView(model.coords)
                                   : contact::CoordinatesView(coords2);
            progress.stage(stage + "searching");
#ifdef CONTACT_TOOL_MPI
            if (g_mpi != nullptr && g_mpi->active()) {
                contact::MortarOptions mo;
                mo.threads = args.threads;
                // --mortar reaches here in segment mode only, with a segment slave and no
                // self-contact (each refused above).
                const bool mortar = !args.mortar.empty();
                try {
                    s.dist = g_mpi->search(opt, s.master->surface,
                                           s.slave->nodeSurface ? nullptr : &s.slave->surface,
                                           s.slave->nodeSurface ? &s.slave->nodes : nullptr, x,
                                           mortar ? &mo : nullptr);
                } catch (const std::invalid_argument&) {
                    // The ranks name a refused surface by their global ids; this rank holds the
                    // whole model, so the serial check names it in the file's terms instead
                    // (contact::SurfaceError, below). Anything else stands as the ranks said it.
                    contact::ContactSearch serial(opt);
                    if (s.slave->nodeSurface) {
                        serial.setSurfaces(s.master->surface, s.slave->nodes, x);
                    } else {
                        serial.setSurfaces(s.master->surface, s.slave->surface, x);
                    }
                    throw;
                }
                st = s.dist->stats;
            }
#endif
            if (!s.dist) {
                s.search = std::make_unique<contact::ContactSearch>(opt);
                if (s.slave->nodeSurface) {
                    s.search->setSurfaces(s.master->surface, s.slave->nodes, x);
                } else {
                    s.search->setSurfaces(s.master->surface, s.slave->surface, x);
                }
                st = s.search->update(x);
            }
            if (st.status != contact::UpdateStatus::kOk) {
                std::string why =
                    std::string("search failed: ") + contact::updateStatusName(st.status);
                if (st.faultNode >= 0 && st.faultNode < model.numNodes()) {
                    why += " (node " + model.nodeLabel(st.faultNode) + " of the file)";
                }
                throw std::invalid_argument(why);
            }
        } catch (const contact::SurfaceError& e) {
            refuse(itf, inFileTerms(model, e, s));
            continue;
        } catch (const std::exception& e) {
            refuse(itf, e.what());
            continue;
        }
        if (&itf == &interfaces.back()) {
            releaseElements(model);
        }
        const ContactSurface& master = *s.master;
        const ContactSurface& slave = *s.slave;
        mesh_io::InterfaceReport& r = s.report;
        r.index = itf.index;
        r.kind = itf.kind;
        r.master = s.master.get();
        r.slave = s.slave.get();
        r.mode = mode;
        r.captureDistance = s.dist ? s.dist->captureDistance : s.search->captureDistance();
        r.captureRelative = args.captureRelative;
        r.captureFactor = args.capture;
        r.meanMasterSize = s.dist ? s.dist->meanMasterSize : s.search->meanMasterSize();
        r.slaveNodes = slaveNodeCount(slave);
        r.selfContact = opt.selfContact;
        r.countsOverlapRanks = s.dist && opt.selfContact;
        r.stats = st;
        r.timeRead = timeRead;
        r.pairsFile = args.pairs;
        if (mode == SearchMode::kNodeToSegment) {
            r.nodePairs = s.dist ? &s.dist->nodePairs : &s.search->nodePairs();
            r.gaps = mesh_io::summarizeGaps(*r.nodePairs);
        } else {
            r.segmentPairs = s.dist ? &s.dist->segmentPairs : &s.search->segmentPairs();
            progress.stage(stage + "overlaps within the capture distance");
            const auto t1 = std::chrono::steady_clock::now();
            s.overlaps = std::make_unique<mesh_io::Overlaps>(mesh_io::computeOverlaps(
                master.surface, slave.surface, *r.segmentPairs, x, r.captureDistance,
                contact::kDefaultCutSubdivisions, args.threads));
            r.timeOverlaps = msSince(t1);
            r.overlaps = s.overlaps.get();
            r.gaps = mesh_io::summarizeGaps(*r.overlaps);
            if (!args.mortar.empty()) {
                progress.stage(stage + "mortar integrals");
                contact::MortarOptions mo;
                mo.threads = args.threads;
                if (s.dist && s.dist->mortar) {  // under mpiexec: computed over the ranks
                    s.mortarRows = s.dist->mortar.get();
                    s.mortarStats = s.dist->mortarStats;
                } else {
                    s.mortar = std::make_unique<contact::MortarIntegrator>(mo);
                    s.mortarStats =
                        s.mortar->compute(master.surface, slave.surface, r.segmentPairs->slave(),
                                          r.segmentPairs->master(), x, r.captureDistance);
                    s.mortarRows = &s.mortar->operators();
                }
            }
        }
        mesh_io::VerifyResult v;
        const bool verify = args.verify || args.verifySample > 0;
        if (verify) {
            progress.stage(stage + "exhaustive reference");
            contact::SearchOptions reference = opt;
#ifdef CONTACT_TOOL_TEST_VERIFY_FAULT  // tests/tool's twin: a reference that differs
            reference.capture *= 0.5;
#endif
            v = mesh_io::verifyInterface(model, r, reference, x, args.verifySample, args.seed);
            verifyFailed = verifyFailed || !v.agrees();
        }
        progress.done();
        if (!args.quiet) {
            mesh_io::printInterface(report, r);
            if (s.dist) {
                report << "  MPI: " << s.dist->ranks << " ranks (RCB contact decomposition), "
                       << s.dist->ghostMasters << " ghost masters, " << s.dist->bytesSent
                       << " bytes sent\n";
            }
            if (s.mortarRows != nullptr) {
                const contact::MortarOperators& op = *s.mortarRows;
                double area = 0.0;
                for (const double a : op.nodalArea) {
                    area += a;
                }
                char line[160];
                std::snprintf(line, sizeof line,
                              "  mortar: %zu slave nodes, D %zu and M %zu entries, total nodal "
                              "%s %.6g",
                              op.nodes.size(), op.D.size(), op.M.size(),
                              master.dim == 3 ? "area" : "length", area);
                report << line << mortarLeftOut(s.mortarStats) << '\n';
                if (master.dim == 2 && !axisymmetric.empty()) {
                    report << "  note: mortar: the model is axisymmetric (" << axisymmetric
                           << "): D, M, the weighted gaps and nodal lengths are integrals along "
                              "the r-z section's lines, without the 2 pi r of the surface of "
                              "revolution\n";
                }
            }
            if (args.broadPhase == contact::BroadPhaseKind::kSweep) {
                report << "  broad phase: "
                       << (st.swept ? "sort and sweep"
                                    : "box tree (the sweep would scan too many pairs per box)")
                       << '\n';
            }
            if (verify) {
                mesh_io::printVerify(report, v, mode == SearchMode::kNodeToSegment);
            }
            for (const auto& n : master.notes) {
                report << "  note: " << n << '\n';
            }
            if (!r.selfContact) {  // self-contact: one surface, noted once
                for (const auto& n : slave.notes) {
                    report << "  note: " << n << '\n';
                }
            }
        }
        if (s.mortarRows != nullptr) {  // on stderr, --quiet or not
            warnMortarLeftOut(itf.index, r.overlaps->inContact(), *s.mortarRows, s.mortarStats);
        }
        if (verify && !v.agrees()) {  // on stderr, --quiet or not: a script's log keeps it
            std::fprintf(stderr, "contact-search: interface %d: %s\n", itf.index,
                         mesh_io::verifyFailureText(v, mode == SearchMode::kNodeToSegment).c_str());
        }
        done.push_back(std::move(s));
    }

    std::vector<mesh_io::InterfaceReport> reports;
    reports.reserve(done.size());
    for (const Searched& s : done) {
        reports.push_back(s.report);
    }
    // Each output is complete once written; when a later one fails, the message lists those
    // already written, which stay.
    std::vector<std::string> written;
    int mortarWritten = 0;
    const auto notSearched = [&] {
        std::fprintf(stderr, "contact-search: %d of %zu interfaces not searched (see above)\n",
                     refused, interfaces.size());
        return kExitBadInput;
    };
    if (done.empty()) {
        // Nothing searched: no empty outputs, which would replace earlier results (--force).
        if (!args.quiet && (!args.outputs().empty() || !args.mortar.empty())) {
            report << "\nwrote nothing (no interface was searched)\n";
        }
        removeMade(checked.made);
        return notSearched();
    }
    try {
        const auto put = [&](const std::string& path, auto&& write) {
            if (!path.empty()) {
                write(path, model, reports, wo);
                written.push_back(path);
            }
        };
        put(args.pairs, mesh_io::writePairsCsv);
        put(args.overlaps, mesh_io::writeOverlapsCsv);
        put(args.json, mesh_io::writeJsonReport);
        put(args.vtu, mesh_io::writeVtu);
        for (const Searched& s : done) {
            if (s.mortarRows != nullptr) {
                const mesh_io::InterfaceReport& r = s.report;
                mesh_io::writeMortarFiles(
                    args.mortar, "interface" + std::to_string(r.index), model, *s.mortarRows,
                    "interface " + std::to_string(r.index) + ": slave '" + r.slave->name +
                        "' -> master '" + r.master->name + "'" +
                        (r.master->dim == 2 && !axisymmetric.empty()
                             ? "; axisymmetric model (" + axisymmetric +
                                   "): integrals along the r-z section's lines, no 2 pi r"
                             : ""),
                    wo.write);
                ++mortarWritten;
                written.push_back(args.mortar + " (interface " + std::to_string(r.index) + ")");
            }
        }
    } catch (const std::exception& e) {
        if (mortarWritten == 0) {
            removeMade(checked.made);
        }
        std::string list;
        for (const std::string& w : written) {
            list += (list.empty() ? "" : ", ") + w;
        }
        const std::string what =
            std::string(e.what()) +
            (written.empty() ? " (no output was written)" : " (already written: " + list + ")");
        if (verifyFailed) {  // exit 3 wins (kFooter)
            std::fprintf(stderr, "contact-search: %s\n", what.c_str());
            if (refused > 0) {
                (void)notSearched();
            }
            return kExitVerifyFailed;
        }
        throw std::runtime_error(what);
    }
    if (!args.quiet && (!args.outputs().empty() || !args.mortar.empty())) {
        report << '\n';
        for (const std::string& f : args.outputs()) {
            report << "wrote " << (f == "-" ? "- (standard output)" : f) << '\n';
        }
        if (!args.mortar.empty()) {
            if (mortarWritten > 0) {
                report << "wrote the mortar files of " << mortarWritten << " interface"
                       << (mortarWritten == 1 ? "" : "s") << " into " << args.mortar << '\n';
            } else {
                report << "wrote no mortar files (no interface searched has mortar operators)\n";
            }
        }
    }
    if (mortarWritten == 0) {
        removeMade(checked.made);
    }
    const int status = refused > 0 ? notSearched() : kExitOk;
    return verifyFailed ? kExitVerifyFailed : status;  // 3 wins over 2 (kFooter)
}

int runMain(int argc, char** argv) {
    try {
        return flushedStdout(run(parseArgs(argc, argv)));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "contact-search: %s\n(contact-search --help for usage)\n", e.what());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "contact-search: %s\n", e.what());
    }
    return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef CONTACT_TOOL_MPI
    contact_tool::MpiSession mpi(argc, argv);
    if (mpi.active() && !mpi.root()) {
        return mpi.serve();  // rank 0 reads, reports and writes; this rank helps it search
    }
    g_mpi = &mpi;
    const int status = runMain(argc, argv);
    mpi.finish(status);
    return status;
#else
    return runMain(argc, argv);
#endif
}
