// SPDX-License-Identifier: MIT
// contact-search: runs the contact search on a model file and reports what touches.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/overlaps.hpp"
#include "mesh_io/writers.hpp"

#include "contact_search_mpi.hpp"  // DistributedResult; the session only where MPI is built in

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using contact::Index;
using contact::SearchMode;
using mesh_io::ContactSurface;

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitVerifyFailed = 3;

const char* kUsage = R"(usage: contact-search MODEL [options]

Runs the contact search on MODEL (Abaqus/CalculiX .inp or Gmsh .msh) for every *CONTACT PAIR
and *TIE data line in the file, or for the surfaces named with --master and --slave, and prints
a report per interface.

options:
  --master NAME --slave NAME  search these surfaces (names as in the file; Gmsh: physical names)
  --capture D                 capture distance as a length
  --capture-rel R             capture distance as R x mean master segment size (default 0.5)
  --mode node|segment         node-to-segment (default; *CONTACT PAIR TYPE=SURFACE TO SURFACE
                              defaults to segment) or segment-to-segment pairs
  --pairs FILE.csv            write the pairs as CSV
  --overlaps FILE.csv         segment mode: write each pair's overlap (area, centroid, gaps)
  --json FILE.json            write the report as JSON (--json-pairs: with every pair)
  --vtu FILE.vtu              write surfaces, gaps, normals and pairs for ParaView
  --force                     overwrite existing output files (input files are never written)
  --threads N                 search threads (default 1)
  --broad-phase kdtree|boxtree|sweep  candidate search structure (default kdtree; same
                              pairs; sweep: sort and sweep, fastest on 2D curves)
  --verify                    also run the exhaustive reference and compare
  --quiet                     print nothing but errors
  --help                      this text

exit status: 0 ok; 2 bad usage or bad input (the message says what and where);
3 --verify found missed or extra pairs or different gaps.
)";

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
    bool force = false;
    int threads = 1;
    contact::BroadPhaseKind broadPhase = contact::BroadPhaseKind::kKdTree;
    bool verify = false;
    bool quiet = false;
};

using contact_tool::DistributedResult;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

#ifdef CONTACT_TOOL_MPI
contact_tool::MpiSession* g_mpi = nullptr;  // under mpiexec: searches run over all ranks
#endif

double parseNumber(const std::string& opt, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0) {
        throw UsageError(opt + " expects a number >= 0, got '" + text + "'");
    }
    return v;
}

Args parseArgs(int argc, char** argv) {
    Args a;
    bool haveCapture = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw UsageError(arg + " needs a value");
            }
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(kExitOk);
        } else if (arg == "--master") {
            a.master = value();
        } else if (arg == "--slave") {
            a.slave = value();
        } else if (arg == "--capture" || arg == "--capture-rel") {
            if (haveCapture) {
                throw UsageError("give --capture or --capture-rel once");
            }
            haveCapture = true;
            a.captureRelative = arg == "--capture-rel";
            a.capture = parseNumber(arg, value());
        } else if (arg == "--mode") {
            a.mode = value();
            if (a.mode != "node" && a.mode != "segment") {
                throw UsageError("--mode expects node or segment, got '" + a.mode + "'");
            }
        } else if (arg == "--pairs") {
            a.pairs = value();
        } else if (arg == "--overlaps") {
            a.overlaps = value();
        } else if (arg == "--json") {
            a.json = value();
        } else if (arg == "--json-pairs") {
            a.jsonPairs = true;
        } else if (arg == "--vtu") {
            a.vtu = value();
        } else if (arg == "--force") {
            a.force = true;
        } else if (arg == "--threads") {
            const std::string v = value();
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n < 1 || n > 1024) {
                throw UsageError("--threads expects a whole number from 1 to 1024, got '" + v +
                                 "'");
            }
            a.threads = static_cast<int>(n);
        } else if (arg == "--broad-phase") {
            const std::string v = value();
            if (v == "kdtree") {
                a.broadPhase = contact::BroadPhaseKind::kKdTree;
            } else if (v == "boxtree") {
                a.broadPhase = contact::BroadPhaseKind::kBoxTree;
            } else if (v == "sweep") {
                a.broadPhase = contact::BroadPhaseKind::kSweep;
            } else {
                throw UsageError("--broad-phase expects kdtree, boxtree or sweep, got '" + v + "'");
            }
        } else if (arg == "--verify") {
            a.verify = true;
        } else if (arg == "--quiet") {
            a.quiet = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError("unknown option " + arg);
        } else if (a.model.empty()) {
            a.model = arg;
        } else {
            throw UsageError("more than one model file: '" + a.model + "' and '" + arg + "'");
        }
    }
    if (a.model.empty()) {
        throw UsageError("no model file given");
    }
    if (a.master.empty() != a.slave.empty()) {
        throw UsageError("--master and --slave go together");
    }
    if (a.jsonPairs && a.json.empty()) {
        throw UsageError("--json-pairs needs --json FILE");
    }
    return a;
}

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

std::string typeCounts(const contact::Surface& s) {
    std::map<std::string, long> count;
    for (auto t : s.types) {
        ++count[contact::segmentTypeName(t)];
    }
    std::string out;
    for (const auto& [name, n] : count) {
        out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    }
    return out.empty() ? "none" : out;
}

// Distinct nodes of a surface, marked in one bit per model node (no copy of the connectivity).
int uniqueNodeCount(const contact::Surface& s, Index numNodes) {
    std::vector<bool> seen(static_cast<std::size_t>(numNodes), false);
    int count = 0;
    for (const Index n : s.connectivity) {
        if (!seen[static_cast<std::size_t>(n)]) {
            seen[static_cast<std::size_t>(n)] = true;
            ++count;
        }
    }
    return count;
}

// Large models: searches, reports and writers use only the model's coordinates and node ids;
// buildContactSurface also its element blocks and surface definitions. So the id lookups and sets
// go once the model is read, the blocks and surface definitions once the last surfaces are built.
void releaseLookupsAndSets(mesh_io::Model& m) {
    m.nodeIndex.clear();
    m.nodeSets.clear();
    m.elementSets.clear();
}

void releaseElements(mesh_io::Model& m) {
    std::vector<mesh_io::ElementBlock>().swap(m.blocks);
    for (mesh_io::SurfaceDef& s : m.surfaces) {
        std::vector<mesh_io::FaceRef>().swap(s.faces);
        std::vector<Index>().swap(s.nodes);
    }
}

struct Interface {
    int index = 1;
    std::string kind;
    std::string slave;
    std::string master;
    SearchMode mode = SearchMode::kNodeToSegment;
};

struct VerifyResult {
    long missed = 0;
    long extra = 0;
    double maxGapDiff = 0.0;
    std::vector<std::string> examples;
};

// The pairs of either mode: slave and master columns, and the node pairs' gaps (node mode).
struct PairList {
    contact::ConstSpan<Index> slave;
    contact::ConstSpan<Index> master;
    const contact::NodePairs* node = nullptr;
    [[nodiscard]] Index size() const noexcept { return slave.size(); }
};
PairList pairList(const contact::NodePairs& p) { return {p.slave(), p.master(), &p}; }
PairList pairList(const contact::SegmentPairs& p) { return {p.slave(), p.master(), nullptr}; }

// Compares pair lists ordered by slave: missed = in the reference only, extra = in the search only.
VerifyResult compare(const PairList& fast, const PairList& ref, const mesh_io::Model& model,
                     const ContactSurface& master, bool nodeMode) {
    VerifyResult v;
    std::map<std::pair<Index, Index>, Index> refIndex;
    for (Index i = 0; i < ref.size(); ++i) {
        refIndex[{ref.slave[i], ref.master[i]}] = i;
    }
    const auto describe = [&](const PairList& p, Index i, const char* what) {
        const mesh_io::SegmentOrigin m = master.origin[p.master[i]];
        std::string s = std::string(what) + ": slave " + (nodeMode ? "node " : "segment ") +
                        std::to_string(nodeMode ? model.nodeIds[p.slave[i]] : p.slave[i]) +
                        ", master element " + std::to_string(m.elementId) + " face " +
                        std::to_string(m.face);
        if (nodeMode) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ", gap %.6g", p.node->gap()[i]);
            s += buf;
        }
        return s;
    };
    for (Index i = 0; i < fast.size(); ++i) {
        const auto it = refIndex.find({fast.slave[i], fast.master[i]});
        if (it == refIndex.end()) {
            ++v.extra;
            if (v.examples.size() < 20) {
                v.examples.push_back(describe(fast, i, "extra"));
            }
            continue;
        }
        if (nodeMode) {
            v.maxGapDiff =
                std::max(v.maxGapDiff, std::abs(fast.node->gap()[i] - ref.node->gap()[it->second]));
        }
        refIndex.erase(it);
    }
    for (const auto& [key, i] : refIndex) {
        ++v.missed;
        if (v.examples.size() < 40) {
            v.examples.push_back(describe(ref, i, "missed"));
        }
    }
    return v;
}

int run(const Args& args) {
    Progress progress(!args.quiet);
    const auto t0 = std::chrono::steady_clock::now();
    progress.stage("reading " + args.model);
    mesh_io::Model model = mesh_io::readModel(args.model);
    const double timeRead = msSince(t0);

    std::vector<Interface> interfaces;
    if (!args.master.empty()) {
        interfaces.push_back(
            {1, "command line", args.slave, args.master, SearchMode::kNodeToSegment});
    } else {
        int index = 1;
        for (const auto& def : model.interfaces) {
            interfaces.push_back(
                {index++, def.kind == mesh_io::InterfaceDef::Kind::kTie ? "tie" : "contact pair",
                 def.slave, def.master,
                 def.nodeToSurface ? SearchMode::kNodeToSegment : SearchMode::kSegmentToSegment});
        }
        if (interfaces.empty()) {
            std::string names;
            for (const auto& s : model.surfaces) {
                names += (names.empty() ? "" : ", ") + s.name;
            }
            throw std::invalid_argument(args.model +
                                        " defines no *CONTACT PAIR or *TIE; name the "
                                        "surfaces with --master and --slave (surfaces: " +
                                        (names.empty() ? "none" : names) + ")");
        }
    }
    if (!args.overlaps.empty() && args.mode != "segment") {
        bool allSegment = args.mode.empty();
        for (const auto& i : interfaces) {
            allSegment = allSegment && i.mode == SearchMode::kSegmentToSegment;
        }
        if (!allSegment) {
            throw UsageError("--overlaps needs segment-to-segment pairs: add --mode segment");
        }
    }
    if (!args.mode.empty()) {
        for (auto& i : interfaces) {
            i.mode =
                args.mode == "node" ? SearchMode::kNodeToSegment : SearchMode::kSegmentToSegment;
        }
    }

    if (!args.quiet) {
        std::printf("model %s (%s): %d nodes, %d elements, %zu surfaces, read in %.1f ms\n",
                    model.path.c_str(), model.format.c_str(), static_cast<int>(model.numNodes()),
                    static_cast<int>(model.numElements()), model.surfaces.size(), timeRead);
        for (std::size_t i = 0; i < model.notes.size() && i < 10; ++i) {
            std::printf("  note: %s\n", model.notes[i].c_str());
        }
        if (model.notes.size() > 10) {
            std::printf("  note: ... and %zu more\n", model.notes.size() - 10);
        }
    }

    releaseLookupsAndSets(model);

    std::vector<std::unique_ptr<ContactSurface>> surfaces;
    std::vector<std::unique_ptr<contact::ContactSearch>> searches;
    std::vector<std::unique_ptr<DistributedResult>> distributed;
    std::vector<std::unique_ptr<std::vector<mesh_io::PairOverlap>>> overlaps;
    std::vector<mesh_io::InterfaceReport> reports;
    Eigen::Matrix2Xd coords2;  // x, y of every node, made for the first 2D interface
    bool verifyFailed = false;
    for (const Interface& itf : interfaces) {
        progress.stage("interface " + std::to_string(itf.index) + ": building surfaces");
        auto master =
            std::make_unique<ContactSurface>(mesh_io::buildContactSurface(model, itf.master));
        auto slave =
            std::make_unique<ContactSurface>(mesh_io::buildContactSurface(model, itf.slave));
        if (&itf == &interfaces.back()) {
            releaseElements(model);
        }
        if (master->nodeSurface) {
            throw std::invalid_argument("interface " + std::to_string(itf.index) +
                                        ": master surface '" + master->name +
                                        "' is a node surface; a master needs element faces");
        }
        if (!slave->nodeSurface && slave->dim != master->dim) {
            throw std::invalid_argument("interface " + std::to_string(itf.index) +
                                        ": master and slave surfaces have different dimensions");
        }
        if (slave->nodeSurface && itf.mode == SearchMode::kSegmentToSegment) {
            throw std::invalid_argument("interface " + std::to_string(itf.index) + ": slave '" +
                                        slave->name + "' is a node surface: use --mode node");
        }
        contact::SearchOptions opt;
        opt.capture = args.capture;
        opt.captureRelative = args.captureRelative;
        opt.mode = itf.mode;
        opt.threads = args.threads;
        opt.broadPhase = args.broadPhase;
        opt.selfContact = master->name == slave->name;
        if (master->dim == 2 && coords2.cols() != model.coords.cols()) {
            coords2 = model.coords.topRows<2>();
        }
        const contact::CoordinatesView x = master->dim == 3 ? contact::CoordinatesView(model.coords)
                                                            : contact::CoordinatesView(coords2);
        std::unique_ptr<contact::ContactSearch> search;
        std::unique_ptr<DistributedResult> dist;  // the search over MPI ranks
        progress.stage("interface " + std::to_string(itf.index) + ": searching");
        contact::UpdateStats st;
#ifdef CONTACT_TOOL_MPI
        if (g_mpi != nullptr && g_mpi->active()) {
            dist =
                g_mpi->search(opt, master->surface, slave->nodeSurface ? nullptr : &slave->surface,
                              slave->nodeSurface ? &slave->nodes : nullptr, x);
            st = dist->stats;
        }
#endif
        if (!dist) {
            search = std::make_unique<contact::ContactSearch>(opt);
            if (slave->nodeSurface) {
                search->setSurfaces(master->surface, slave->nodes, x);
            } else {
                search->setSurfaces(master->surface, slave->surface, x);
            }
            st = search->update(x);
        }
        if (st.status != contact::UpdateStatus::kOk) {
            throw std::invalid_argument(std::string("search failed: ") +
                                        contact::updateStatusName(st.status));
        }
        mesh_io::InterfaceReport r;
        r.index = itf.index;
        r.kind = itf.kind;
        r.master = master.get();
        r.slave = slave.get();
        r.mode = itf.mode;
        r.captureDistance = dist ? dist->captureDistance : search->captureDistance();
        r.captureRelative = args.captureRelative;
        r.captureFactor = args.capture;
        r.slaveNodes = dist ? dist->slaveNodes : static_cast<Index>(search->slaveNodes().size());
        const bool nodeMode = itf.mode == SearchMode::kNodeToSegment;
        if (nodeMode) {
            r.nodePairs = dist ? &dist->nodePairs : &search->nodePairs();
        } else {
            r.segmentPairs = dist ? &dist->segmentPairs : &search->segmentPairs();
        }
        const PairList found = nodeMode ? pairList(*r.nodePairs) : pairList(*r.segmentPairs);
        r.stats = st;
        r.timeRead = timeRead;
        r.pairsFile = args.pairs;
        if (!nodeMode) {
            progress.stage("interface " + std::to_string(itf.index) + ": overlaps");
            overlaps.push_back(std::make_unique<std::vector<mesh_io::PairOverlap>>(
                mesh_io::computeOverlaps(*master, *slave, *r.segmentPairs, x, r.captureDistance)));
            r.overlaps = overlaps.back().get();
        }

        VerifyResult v;
        if (args.verify) {
            progress.stage("interface " + std::to_string(itf.index) + ": exhaustive reference");
            const contact::ReferenceResult ref =
                slave->nodeSurface
                    ? contact::referenceSearch(master->surface, slave->nodes, x, opt)
                    : contact::referenceSearch(master->surface, slave->surface, x, opt);
            v = compare(found, nodeMode ? pairList(ref.nodePairs) : pairList(ref.segmentPairs),
                        model, *master, nodeMode);
            verifyFailed = verifyFailed || v.missed > 0 || v.extra > 0 || v.maxGapDiff > 0.0;
        }
        progress.done();
        if (!args.quiet) {
            const mesh_io::GapSummary g =
                mesh_io::summarizeGaps(nodeMode ? *r.nodePairs : contact::NodePairs{});
            std::printf("\ninterface %d (%s): slave '%s' -> master '%s', %s\n", itf.index,
                        itf.kind.c_str(), slave->name.c_str(), master->name.c_str(),
                        nodeMode ? "node-to-segment" : "segment-to-segment");
            std::printf("  master: %d segments (%s)\n", static_cast<int>(master->surface.size()),
                        typeCounts(master->surface).c_str());
            if (slave->nodeSurface) {
                std::printf("  slave:  %d nodes (node surface)\n",
                            static_cast<int>(slave->nodes.size()));
            } else {
                std::printf("  slave:  %d segments (%s), %d nodes\n",
                            static_cast<int>(slave->surface.size()),
                            typeCounts(slave->surface).c_str(),
                            uniqueNodeCount(slave->surface, model.numNodes()));
            }
            if (args.captureRelative) {
                std::printf("  capture distance: %.6g (%.3g x mean master segment size %.6g)\n",
                            r.captureDistance, args.capture,
                            dist ? dist->meanMasterSize : search->meanMasterSize());
            } else {
                std::printf("  capture distance: %.6g\n", r.captureDistance);
            }
            std::printf(
                "  candidates (buffered AABB overlaps): %lld, SAT survivors: %lld, pairs: %d\n",
                st.candidates, st.satSurvivors, static_cast<int>(found.size()));
            if (nodeMode && found.size() > 0) {
                std::printf("  gap: min %.6g, max %.6g; penetrating nodes: %d\n", g.minGap,
                            g.maxGap, static_cast<int>(g.penetrating));
            }
            if (r.overlaps != nullptr) {
                double area = 0.0;
                double gmin = 0.0;
                double gmax = 0.0;
                for (std::size_t k = 0; k < r.overlaps->size(); ++k) {
                    const mesh_io::PairOverlap& o = (*r.overlaps)[k];
                    area += o.area;
                    gmin = k == 0 ? o.gapMin : std::min(gmin, o.gapMin);
                    gmax = k == 0 ? o.gapMax : std::max(gmax, o.gapMax);
                }
                std::printf("  overlaps: %zu pairs overlap, total %s %.6g", r.overlaps->size(),
                            master->dim == 3 ? "area" : "length", area);
                if (!r.overlaps->empty()) {
                    std::printf("; gap at overlap vertices: min %.6g, max %.6g", gmin, gmax);
                }
                std::printf("\n");
            }
            std::printf(
                "  time [ms]: read %.2f, bounds %.2f, broad %.2f, narrow %.2f, projection %.2f\n",
                timeRead, st.timeBounds, st.timeBroad, st.timeNarrow, st.timeProjection);
            if (dist) {
                std::printf("  MPI: %d ranks (RCB contact decomposition), %lld ghost masters, "
                            "%lld bytes sent\n",
                            dist->ranks, dist->ghostMasters, dist->bytesSent);
            }
            if (args.broadPhase == contact::BroadPhaseKind::kSweep) {
                std::printf("  broad phase: %s\n",
                            st.swept ? "sort and sweep"
                                     : "box tree (the sweep would scan too many pairs per box)");
            }
            if (args.verify) {
                std::printf("  verify: exhaustive reference %s: %ld missed, %ld extra, max |gap "
                            "difference| %.3g\n",
                            (v.missed || v.extra || v.maxGapDiff > 0) ? "DIFFERS" : "agrees",
                            v.missed, v.extra, v.maxGapDiff);
                for (const auto& e : v.examples) {
                    std::printf("    %s\n", e.c_str());
                }
            }
            for (const auto& n : master->notes) {
                std::printf("  note: %s\n", n.c_str());
            }
            for (const auto& n : slave->notes) {
                std::printf("  note: %s\n", n.c_str());
            }
        }
        surfaces.push_back(std::move(master));
        surfaces.push_back(std::move(slave));
        searches.push_back(std::move(search));
        distributed.push_back(std::move(dist));
        reports.push_back(r);
    }

    mesh_io::WriteOptions wo;
    wo.overwrite = args.force;
    wo.inputs = model.files.empty() ? std::vector<std::string>{model.path} : model.files;
    if (!args.pairs.empty()) {
        mesh_io::writePairsCsv(args.pairs, model, reports, wo);
    }
    if (!args.overlaps.empty()) {
        mesh_io::writeOverlapsCsv(args.overlaps, model, reports, wo);
    }
    if (!args.json.empty()) {
        mesh_io::writeJsonReport(args.json, model, reports, args.jsonPairs, wo);
    }
    if (!args.vtu.empty()) {
        mesh_io::writeVtu(args.vtu, model, reports, wo);
    }
    if (!args.quiet) {
        for (const auto* f : {&args.pairs, &args.overlaps, &args.json, &args.vtu}) {
            if (!f->empty()) {
                std::printf("\nwrote %s", f->c_str());
            }
        }
        if (!args.pairs.empty() || !args.overlaps.empty() || !args.json.empty() ||
            !args.vtu.empty()) {
            std::printf("\n");
        }
    }
    return verifyFailed ? kExitVerifyFailed : kExitOk;
}

}  // namespace

namespace {

int runMain(int argc, char** argv) {
    try {
        return run(parseArgs(argc, argv));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "contact-search: %s\n(contact-search --help for usage)\n", e.what());
    } catch (const mesh_io::ParseError& e) {
        std::fprintf(stderr, "contact-search: %s\n", e.what());
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
