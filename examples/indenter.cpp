// SPDX-License-Identifier: MIT
// A small solver loop: a rigid curved indenter (sphere in 3D, cylinder in 2D) pressed into a flat
// block over 20 increments. The block's top surface is the slave, the indenter the master. Each
// increment the solver moves the indenter, calls ContactSearch::update() with the current
// coordinates, and pushes penetrating block nodes back along the contact normal (a crude
// penalty response), so both surfaces move between searches. With --vtu-series it writes every
// increment for ParaView (mesh_io::VtuSeries: one .vtu per increment and a .pvd listing them).
//
// Usage: indenter [--dim 2|3] [--threads N] [--vtu-series FILE.pvd] [--dump FILE] [--force]
// --vtu-series writes every increment for ParaView; --dump writes every increment's pairs (0-based
// slave node and master segment, gap, local coordinates, normal; %.17g), the file the Fortran
// example's output is compared with; with --dump - (standard output) the report goes to standard
// error. Outputs are written as the tool writes them: an existing file is replaced only with
// --force.
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "contact/segment.hpp"
#include "mesh_io/output.hpp"
#include "mesh_io/vtu.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace {

using contact::Index;
using contact::SegmentType;
using contact::Surface;

struct Model {
    std::vector<Eigen::Vector3d> nodes;
    Surface block;     // slave
    Surface indenter;  // master
    std::vector<Index> indenterNodes;
};

Index addNode(Model& m, const Eigen::Vector3d& p) {
    m.nodes.push_back(p);
    return static_cast<Index>(m.nodes.size() - 1);
}

// 3D: block top face z = 0 over [-1, 1]^2 as n x n Quad4 (normal +z); sphere cap of radius R
// above it as Quad9 faces on a (u, v) grid, normal out of the sphere.
Model makeModel3d(int n, double R, double start) {
    Model m;
    m.block.name = "block_top";
    m.indenter.name = "sphere";
    std::vector<Index> g((n + 1) * (n + 1));
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= n; ++j) {
            g[i * (n + 1) + j] = addNode(m, {-1.0 + 2.0 * i / n, -1.0 + 2.0 * j / n, 0.0});
        }
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const auto at = [&](int a, int b) { return g[(i + a) * (n + 1) + (j + b)]; };
            m.block.addSegment(SegmentType::Quad4, {at(0, 0), at(1, 0), at(1, 1), at(0, 1)});
        }
    }
    const int k = 8;          // indenter faces per direction
    const double half = 0.6;  // cap covers |x|, |y| <= half
    const int gk = 2 * k + 1;
    std::vector<Index> s(gk * gk);
    for (int i = 0; i < gk; ++i) {
        for (int j = 0; j < gk; ++j) {
            const double x = -half + 2 * half * i / (gk - 1);
            const double y = -half + 2 * half * j / (gk - 1);
            const double z = start + R - std::sqrt(R * R - x * x - y * y);
            s[i * gk + j] = addNode(m, {x, y, z});
            m.indenterNodes.push_back(s[i * gk + j]);
        }
    }
    for (int i = 0; i < k; ++i) {
        for (int j = 0; j < k; ++j) {
            const auto at = [&](int a, int b) { return s[(2 * i + a) * gk + (2 * j + b)]; };
            // Counter-clockwise seen from below (outside the sphere): normal points down.
            m.indenter.addSegment(SegmentType::Quad9,
                                  {at(0, 0), at(0, 2), at(2, 2), at(2, 0), at(0, 1), at(1, 2),
                                   at(2, 1), at(1, 0), at(1, 1)});
        }
    }
    return m;
}

// 2D: block top edge y = 0 from x = 1 to -1 (counter-clockwise block below: normal +y), as n
// Line2; cylinder arc above it as Line3 segments, normal out of the cylinder.
Model makeModel2d(int n, double R, double start) {
    Model m;
    m.block.name = "block_top";
    m.indenter.name = "cylinder";
    std::vector<Index> g(n + 1);
    for (int i = 0; i <= n; ++i) {
        g[i] = addNode(m, {1.0 - 2.0 * i / n, 0.0, 0.0});
    }
    for (int i = 0; i < n; ++i) {
        m.block.addSegment(SegmentType::Line2, {g[i], g[i + 1]});
    }
    const int k = 16;
    const double half = 0.6;
    std::vector<Index> s(2 * k + 1);
    for (int i = 0; i <= 2 * k; ++i) {
        const double x = -half + half * i / k;
        s[i] = addNode(m, {x, start + R - std::sqrt(R * R - x * x), 0.0});
        m.indenterNodes.push_back(s[i]);
    }
    for (int i = 0; i < k; ++i) {
        // Left to right along the bottom of a counter-clockwise cylinder: normal points down.
        m.indenter.addSegment(SegmentType::Line3, {s[2 * i], s[2 * i + 2], s[2 * i + 1]});
    }
    return m;
}

void printUsage(std::FILE* to) {
    std::fprintf(to, "usage: indenter [--dim 2|3] [--threads N] [--vtu-series FILE.pvd] "
                     "[--dump FILE] [--force]\n");
}

// A bad command line: what is wrong, then the usage line.
int usageError(const std::string& what) {
    std::fprintf(stderr, "indenter: %s\n", what.c_str());
    printUsage(stderr);
    return 2;
}

// One line per pair: increment, slave node, master segment, gap, xi, eta, nx, ny, nz.
void dumpPairs(std::ostream& out, int inc, const contact::NodePairs& p) {
    char line[256];
    for (Index i = 0; i < p.size(); ++i) {
        std::snprintf(line, sizeof line, "%d %d %d %.17g %.17g %.17g %.17g %.17g %.17g\n", inc,
                      p.slave()[i], p.master()[i], p.gap()[i], p.xi()(0, i), p.xi()(1, i),
                      p.normal()(0, i), p.normal()(1, i), p.normal()(2, i));
        out << line;
    }
}

}  // namespace

int main(int argc, char** argv) {
    int dim = 3;
    int threads = 1;
    std::string series;
    std::string dumpPath;
    mesh_io::VtuOptions vtuOptions;
    vtuOptions.write.overwriteOption = "--force";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool takesValue =
            a == "--vtu-series" || a == "--dump" || a == "--dim" || a == "--threads";
        if (takesValue && i + 1 == argc) {
            return usageError(a + " needs a value");
        }
        if (a == "--help" || a == "-h") {
            printUsage(stdout);
            return 0;
        } else if (a == "--vtu-series" || a == "--dump") {
            // An empty name would be no output at all, silently.
            (a == "--dump" ? dumpPath : series) = argv[++i];
            if (argv[i][0] == '\0') {
                return usageError(a + " needs a file name, got ''");
            }
        } else if (a == "--force") {
            vtuOptions.write.overwrite = true;
        } else if (a == "--dim" || a == "--threads") {
            // Checked as a long, before the cast: 4294967297 would wrap to 1.
            const bool isDim = a == "--dim";
            const long lo = isDim ? 2 : 1;
            const long hi = isDim ? 3 : contact::kMaxThreads;
            char* end = nullptr;
            errno = 0;
            const long v = std::strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
                return usageError("bad value '" + std::string(argv[i]) + "' for " + a +
                                  " (expects " +
                                  (isDim ? std::string("2 or 3")
                                         : "1 to " + std::to_string(contact::kMaxThreads)) +
                                  ")");
            }
            (isDim ? dim : threads) = static_cast<int>(v);
        } else {
            return usageError(
                (a.size() > 1 && a[0] == '-' ? "unknown option " : "unexpected argument ") + a);
        }
    }
    constexpr int kIncrements = 20;
    std::unique_ptr<mesh_io::OutputFile> dump;
    std::FILE* report = stdout;  // standard error when the dump is on standard output
    try {
        // Every output checked before the first increment: the dump, the .pvd and each
        // increment's .vtu (existing files, one file for two outputs).
        std::vector<std::string> outputs;
        if (!series.empty()) {
            outputs = mesh_io::VtuSeries::plannedFiles(series, kIncrements);
        }
        if (!dumpPath.empty()) {
            outputs.push_back(dumpPath);
        }
        (void)mesh_io::checkOutputs(outputs, vtuOptions.write);
        if (!dumpPath.empty()) {
            dump = std::make_unique<mesh_io::OutputFile>(dumpPath, vtuOptions.write);
            if (dump->kind() == mesh_io::OutputKind::kStdout) {
                report = stderr;
            }
            dump->out() << "# increment slave_node master_segment gap xi eta nx ny nz (0-based "
                           "indices)\n";
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "indenter: %s\n", e.what());
        return 2;
    }
    const double R = 1.0;
    const double start = 0.02;  // initial clearance
    const double step = 0.005;  // indenter travel per increment
    Model m = dim == 3 ? makeModel3d(40, R, start) : makeModel2d(200, R, start);
    Eigen::Matrix3Xd x3(3, static_cast<Eigen::Index>(m.nodes.size()));
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
        x3.col(static_cast<Eigen::Index>(i)) = m.nodes[i];
    }
    Eigen::Matrix2Xd x2 = x3.topRows<2>();
    const auto coords = [&]() -> contact::CoordinatesView {
        if (dim == 3) {
            return x3;
        }
        x2 = x3.topRows<2>();
        return x2;
    };

    contact::SearchOptions options;
    options.capture = 0.5;  // half the mean indenter segment size
    options.captureRelative = true;
    options.skinRelative = 0.2;
    options.threads = threads;
    std::unique_ptr<contact::ContactSearch> made;  // refused options: a message, not an abort
    try {
        made = std::make_unique<contact::ContactSearch>(options);
        made->setSurfaces(m.indenter, m.block, coords());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "indenter: %s\n", e.what());
        return 2;
    }
    contact::ContactSearch& search = *made;
    std::unique_ptr<mesh_io::VtuSeries> vtu;
    try {
        if (!series.empty()) {
            vtu = std::make_unique<mesh_io::VtuSeries>(series, vtuOptions, kIncrements);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "indenter: %s\n", e.what());
        return 2;
    }
    std::fprintf(
        report, "%s indenter (R = %.1f, %d %s) into a block face (%d %s), %d slave nodes\n",
        dim == 3 ? "Sphere" : "Cylinder", R, m.indenter.size(),
        dim == 3 ? "Quad9 faces" : "Line3 segments", m.block.size(),
        dim == 3 ? "Quad4 faces" : "Line2 segments", static_cast<int>(search.slaveNodes().size()));
    std::fprintf(report, "capture distance %.4f, skin %.4f, %d thread(s)\n\n",
                 search.captureDistance(), search.skinDistance(), threads);
    std::fprintf(report,
                 " inc  travel   pairs  penetrating    min gap  rebuilt  candidates  time [ms]\n");

    bool same = false;
    double minGap = 0.0;
    for (int inc = 1; inc <= kIncrements; ++inc) {
        for (Index n : m.indenterNodes) {
            x3(1 + (dim == 3 ? 1 : 0), n) -= step;  // z in 3D, y in 2D
        }
        const contact::UpdateStats st = search.update(coords());
        if (st.status != contact::UpdateStatus::kOk) {
            const std::string fault = contact::faultText(st, coords());
            std::fprintf(stderr, "indenter: update failed: %s%s%s%s\n",
                         contact::updateStatusName(st.status), fault.empty() ? "" : " (",
                         fault.c_str(), fault.empty() ? "" : ")");
            return 1;
        }
        const contact::NodePairs& p = search.nodePairs();
        if (dump) {
            dumpPairs(dump->out(), inc, p);
        }
        int penetrating = 0;
        minGap = p.size() > 0 ? p.gap()[0] : 0.0;
        for (const double g : p.gap()) {
            minGap = std::min(minGap, g);
            penetrating += g < 0 ? 1 : 0;
        }
        std::fprintf(report, "%4d  %6.3f  %6d  %11d  %9.5f  %7s  %10lld  %9.3f\n", inc, inc * step,
                     static_cast<int>(p.size()), penetrating, minGap, st.rebuilt ? "yes" : "no",
                     st.candidates, st.timeTotal());
        try {
            if (vtu) {
                vtu->write(inc * step, m.indenter, m.block, coords(), p);  // time: the travel
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "indenter: %s\n", e.what());
            return 2;
        }
        if (inc == kIncrements) {
            // The last increment against the exhaustive reference, before the response moves nodes,
            // with the search's capture distance (resolved at setSurfaces; the reference would
            // resolve the relative one from these coordinates).
            contact::SearchOptions fixed = options;
            fixed.captureRelative = false;
            fixed.capture = search.captureDistance();
            const contact::ReferenceResult ref =
                contact::referenceSearch(m.indenter, m.block, coords(), fixed);
            // The same pairs; the gaps bit for bit, or with the warm starts of a reused list
            // (SearchOptions::warmStart, on by default) within 1e-12 of max(master size, distance).
            const contact::NodePairs& r = ref.nodePairs;
            same = r.size() == p.size();
            double worst = 0.0;
            for (Index i = 0; same && i < p.size(); ++i) {
                same = r.slave()[i] == p.slave()[i] && r.master()[i] == p.master()[i];
                const double length = std::max(contact::characteristicSize(contact::gatherSegment(
                                                   m.indenter, r.master()[i], coords())),
                                               r.distance()[i]);
                worst = std::max(worst, std::abs(r.gap()[i] - p.gap()[i]) / length);
            }
            same = same && worst <= 1e-12;
            std::fprintf(report,
                         "\nexhaustive reference on the last increment: %s (%d pairs, gaps within "
                         "%.1e)\n",
                         same ? "same pairs" : "DIFFERENT", static_cast<int>(ref.nodePairs.size()),
                         worst);
            break;
        }
        // Penalty response: each penetrating block node moves back 90% of its penetration.
        for (Index i = 0; i < p.size(); ++i) {
            if (p.gap()[i] < 0) {
                x3.col(p.slave()[i]) -= 0.9 * p.gap()[i] * p.normal().col(i);
            }
        }
    }
    try {
        if (dump) {
            dump->commit();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "indenter: %s\n", e.what());
        return 2;
    }
    const bool ok = same && search.nodePairs().size() > 0 && minGap < 0.0;
    std::fprintf(report, "report: %s\n", ok ? "OK" : "UNEXPECTED RESULT");
    return ok ? 0 : 1;
}
