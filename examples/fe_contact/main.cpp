// SPDX-License-Identifier: MIT
// fe_contact: a small linear-elastic solver whose contact terms come from the contact library
// every active-set iteration (README, "The FE example").
//
//   fe_contact patch2d|patch3d|hertz [--out DIR] [--basis standard|dual] [--force]
//   (exit 0: every check holds; 1: a check failed; 2: a wrong argument or a refused output;
//   3: the solve failed)
//
// patch2d, patch3d: the contact patch test, two blocks of one material with non-matching meshes
//   pressed together by a uniform pressure; mortar must give a uniform contact pressure (to 1e-8);
//   node-to-segment is printed beside it. Writes patch_2d.csv / patch_3d.csv.
// hertz: an elastic cylinder (plane strain) pressed on a rigid flat, three meshes; the finest must
//   give the peak pressure within 3 % and the half-width within one element of Hertz's. Writes
//   hertz.csv.
// The CSV is checked before the solve: an existing one is replaced only with --force.
// Prints "report: OK" when every check holds (exit 0), else the failed checks (exit 1); a CSV
// that cannot be written after the solve is a refused output (exit 2), the checks printed still.
#include "mesh_io/output.hpp"

#include "contact_solver.hpp"
#include "fe_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;

struct Checks {
    int failed = 0;
    void expect(bool ok, const std::string& what) {
        std::printf("  check: %s: %s\n", what.c_str(), ok ? "ok" : "FAILED");
        failed += ok ? 0 : 1;
    }
};

// Node positions graded by ratio r over [a, b]: sizes grow by about r from a to b.
double graded(int i, int n, double a, double b, double r) {
    const double u = static_cast<double>(i) / n;
    const double t = r == 1.0 ? u : (std::pow(r, u) - 1.0) / (r - 1.0);
    return a + (b - a) * t;
}

struct Options {
    std::string out = ".";
    contact::MortarBasis basis = contact::MortarBasis::kStandard;
    bool force = false;  // replace an existing CSV
};

// The CSV a case writes into opt.out.
std::string csvPath(const Options& opt, const std::string& which) {
    const char* name = which == "patch2d"   ? "patch_2d.csv"
                       : which == "patch3d" ? "patch_3d.csv"
                                            : "hertz.csv";
    return (std::filesystem::path(opt.out) / name).string();
}

mesh_io::WriteOptions writeOptions(const Options& opt) {
    mesh_io::WriteOptions w;
    w.overwrite = opt.force;
    w.overwriteOption = "--force";
    return w;
}

// CSV: "# key = value" lines, then the header and the rows; written as the contact-search tool
// writes (an existing file only with --force, atomically). False, said on stderr, when the file
// could not be written: a refused output (exit 2), not a failed solve.
bool writeCsv(const std::string& path, const Options& opt,
              const std::vector<std::pair<std::string, std::string>>& keys,
              const std::string& header, const std::vector<std::vector<double>>& rows) {
    try {
        mesh_io::OutputFile file(path, writeOptions(opt));
        std::ostream& out = file.out();
        for (const auto& [k, v] : keys) {
            out << "# " << k << " = " << v << "\n";
        }
        out << header << "\n";
        out.precision(17);
        for (const auto& row : rows) {
            for (std::size_t i = 0; i < row.size(); ++i) {
                out << (i > 0 ? "," : "") << row[i];
            }
            out << "\n";
        }
        file.commit();
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "fe_contact: %s\n", e.what());
        return false;
    }
    std::printf("  wrote %s (%zu rows)\n", path.c_str(), rows.size());
    return true;
}

// What a case ends with: the checks that failed, and whether its CSV was written.
struct Outcome {
    int failed = 0;
    bool written = false;
};

// The shortest decimal that reads back as v (whole numbers without an exponent).
std::string num(double v) {
    char buf[32];
    if (v == std::floor(v) && std::abs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) {
            break;
        }
    }
    return buf;
}

const char* basisName(contact::MortarBasis b) {
    return b == contact::MortarBasis::kDual ? "dual" : "standard";
}

// The solve used the basis it was given: the dual basis makes D diagonal, the standard one not.
void expectBasis(Checks& c, contact::MortarBasis b, double dOffDiagonal) {
    const bool dual = b == contact::MortarBasis::kDual;
    c.expect(dual ? dOffDiagonal <= 1e-12 : dOffDiagonal > 1e-3,
             std::string(basisName(b)) + " basis: D " + (dual ? "diagonal" : "not diagonal") +
                 " (largest off-diagonal entry " + num(dOffDiagonal) + " of the diagonal)");
}

// ---------------------------------------------------------------------------------------------
// Contact patch test.

struct PatchModel {
    fe::Model model;
    fe::ContactSetup setup;
    double pressure = 1.0;
    double area = 1.0;  // loaded (and contact) area: 1 x 1 (2D: length 1)
};

// Lower block (master) [0,1] x [-0.5, 0] and upper block (slave) [0,1] x [0, 0.5], graded the
// other way round; symmetry planes x = 0 (and y = 0 in 3D), the lower block on rollers.
PatchModel patchModel(int dim, const fe::Material& mat, double pressure) {
    PatchModel p;
    p.pressure = pressure;
    fe::Model& m = p.model;
    m.dim = dim;
    if (dim == 2) {
        const int nl = 5;
        const int nu = 7;
        const fe::Grid lo = fe::addBlock2d(
            m, nl, 2,
            [&](int i, int j) { return Vector2d(graded(i, nl, 0, 1, 2.0), -0.25 * (2 - j)); }, mat);
        const fe::Grid up = fe::addBlock2d(
            m, nu, 2, [&](int i, int j) { return Vector2d(graded(i, nu, 0, 1, 0.6), 0.25 * j); },
            mat);
        for (int i = 0; i <= nl; ++i) {
            m.fix(lo.at(i, 0), 1);
        }
        for (const fe::Grid* g : {&lo, &up}) {
            for (int j = 0; j <= 2; ++j) {
                m.fix(g->at(0, j), 0);
            }
        }
        for (int i = 0; i < nu; ++i) {
            fe::addEdgeTraction(m, up.at(i + 1, 2), up.at(i, 2), Vector2d(0, -pressure));
            p.setup.slave.addSegment(contact::SegmentType::Line2, {up.at(i, 0), up.at(i + 1, 0)});
        }
        for (int i = 0; i < nl; ++i) {
            p.setup.master.addSegment(contact::SegmentType::Line2, {lo.at(i + 1, 2), lo.at(i, 2)});
        }
        p.setup.normal = Vector3d::UnitY();
    } else {
        const int nl = 4;
        const int nu = 5;
        const fe::Grid lo = fe::addBlock3d(
            m, nl, nl, 2,
            [&](int i, int j, int k) {
                return Vector3d(graded(i, nl, 0, 1, 2.0), graded(j, nl, 0, 1, 0.7),
                                -0.25 * (2 - k));
            },
            mat);
        const fe::Grid up = fe::addBlock3d(
            m, nu, nu, 2,
            [&](int i, int j, int k) {
                return Vector3d(graded(i, nu, 0, 1, 0.6), graded(j, nu, 0, 1, 1.8), 0.25 * k);
            },
            mat);
        for (int j = 0; j <= nl; ++j) {
            for (int i = 0; i <= nl; ++i) {
                m.fix(lo.at(i, j, 0), 2);
            }
        }
        for (const fe::Grid* g : {&lo, &up}) {
            for (int k = 0; k <= 2; ++k) {
                for (int t = 0; t <= g->nx; ++t) {
                    m.fix(g->at(0, t, k), 0);
                    m.fix(g->at(t, 0, k), 1);
                }
            }
        }
        for (int j = 0; j < nu; ++j) {
            for (int i = 0; i < nu; ++i) {
                fe::addFaceTraction(m,
                                    {up.at(i, j, 2), up.at(i + 1, j, 2), up.at(i + 1, j + 1, 2),
                                     up.at(i, j + 1, 2)},
                                    Vector3d(0, 0, -pressure));
                p.setup.slave.addSegment(contact::SegmentType::Quad4,
                                         {up.at(i, j, 0), up.at(i, j + 1, 0),
                                          up.at(i + 1, j + 1, 0), up.at(i + 1, j, 0)});
            }
        }
        for (int j = 0; j < nl; ++j) {
            for (int i = 0; i < nl; ++i) {
                p.setup.master.addSegment(contact::SegmentType::Quad4,
                                          {lo.at(i, j, 2), lo.at(i + 1, j, 2),
                                           lo.at(i + 1, j + 1, 2), lo.at(i, j + 1, 2)});
            }
        }
        p.setup.normal = Vector3d::UnitZ();
    }
    p.setup.master.name = "lower block top";
    p.setup.slave.name = "upper block bottom";
    p.setup.capture = 0.05;
    return p;
}

Outcome runPatch(int dim, const Options& opt) {
    const fe::Material mat{1000.0, 0.3};
    const double pressure = 1.0;
    PatchModel p = patchModel(dim, mat, pressure);
    std::printf("contact patch test, %dD: E = %g, nu = %g, pressure %g, lower block %s\n", dim,
                mat.E, mat.nu, pressure,
                dim == 2 ? "5 x 2 Quad4 (master), upper block 7 x 2 (slave)"
                         : "4 x 4 x 2 Hex8 (master), upper block 5 x 5 x 2 (slave)");
    p.setup.basis = opt.basis;
    p.setup.method = fe::ContactMethod::kMortar;
    const fe::ContactSolution mortar = fe::solveContact(p.model, p.setup);
    p.setup.method = fe::ContactMethod::kNodeToSegment;
    const fe::ContactSolution nts = fe::solveContact(p.model, p.setup);

    const auto spread = [](const std::vector<double>& v) {
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        double mean = 0.0;
        for (const double x : v) {
            mean += x / static_cast<double>(v.size());
        }
        return std::make_tuple(*lo, *hi, mean, std::max(*hi - mean, mean - *lo) / mean);
    };
    const auto [mLo, mHi, mMean, mDev] = spread(mortar.pressure);
    const auto [nLo, nHi, nMean, nDev] = spread(nts.pressure);
    std::printf("  %-18s %-6s %-24s %-24s\n", dim == 2 ? "slave node x" : "slave node (x, y)", "",
                "mortar pressure", "node-to-segment pressure");
    for (std::size_t k = 0; k < mortar.nodes.size(); ++k) {
        const Vector3d& X = p.model.X[static_cast<std::size_t>(mortar.nodes[k])];
        const auto it = std::find(nts.nodes.begin(), nts.nodes.end(), mortar.nodes[k]);
        const double pn = it == nts.nodes.end()
                              ? 0.0
                              : nts.pressure[static_cast<std::size_t>(it - nts.nodes.begin())];
        std::printf("  (%.4f, %.4f)       %-24.15g %-24.15g\n", X.x(), dim == 2 ? 0.0 : X.y(),
                    mortar.pressure[k], pn);
    }
    std::printf("  mortar (%s basis): %zu nodes, pressure %.15g .. %.15g, largest deviation "
                "from the mean %.3g (relative), %d iterations\n",
                basisName(opt.basis), mortar.nodes.size(), mLo, mHi, mDev, mortar.iterations);
    std::printf("  node-to-segment:  %zu nodes, pressure %.6g .. %.6g, largest deviation from "
                "the mean %.3g (relative), %d iterations\n",
                nts.nodes.size(), nLo, nHi, nDev, nts.iterations);
    std::printf("  contact force %.15g (mortar), %.15g (node-to-segment); load %.15g\n",
                mortar.normalForce, nts.normalForce, pressure * p.area);

    Checks c;
    c.expect(mortar.converged && nts.converged, "both active-set loops converged");
    std::vector<int> slaveNodes(p.setup.slave.connectivity.begin(),
                                p.setup.slave.connectivity.end());
    std::sort(slaveNodes.begin(), slaveNodes.end());
    slaveNodes.erase(std::unique(slaveNodes.begin(), slaveNodes.end()), slaveNodes.end());
    c.expect(mortar.nodes == slaveNodes, "every slave node in contact (mortar)");
    c.expect(mDev <= 1e-8, "mortar pressure uniform to 1e-8");
    c.expect(std::abs(mortar.normalForce - pressure * p.area) <= 1e-10 * pressure * p.area,
             "mortar contact force equals the load to 1e-10");
    // The deformed contact area is larger by the lateral strain: the pressure on it is smaller.
    c.expect(std::abs(mMean - pressure) <= 1e-2 * pressure,
             "mortar pressure within the lateral strain (1 %) of the applied pressure");
    c.expect(nDev > 1e-3, "node-to-segment pressure not uniform (printed for comparison)");
    expectBasis(c, opt.basis, mortar.dOffDiagonal);

    std::vector<std::vector<double>> rows;
    for (std::size_t k = 0; k < mortar.nodes.size(); ++k) {
        const Vector3d X = p.model.X[static_cast<std::size_t>(mortar.nodes[k])];
        const Eigen::VectorXd& u = mortar.u;
        const int n = mortar.nodes[k];
        if (dim == 2) {
            rows.push_back({X.x() + u[2 * n], mortar.pressure[k]});
        } else {
            rows.push_back({X.x() + u[3 * n], X.y() + u[3 * n + 1], mortar.pressure[k]});
        }
    }
    const bool written = writeCsv(
        csvPath(opt, dim == 2 ? "patch2d" : "patch3d"), opt,
        {{"case", dim == 2 ? "contact patch test, plane strain" : "contact patch test, 3D"},
         {"E", num(mat.E)},
         {"nu", num(mat.nu)},
         {"pressure", num(pressure)},
         {"lower block", dim == 2 ? "[0, 1] x [-0.5, 0], 5 x 2 Quad4, master"
                                  : "[0, 1]^2 x [-0.5, 0], 4 x 4 x 2 Hex8, master"},
         {"upper block", dim == 2 ? "[0, 1] x [0, 0.5], 7 x 2 Quad4, slave"
                                  : "[0, 1]^2 x [0, 0.5], 5 x 5 x 2 Hex8, slave"},
         {"contact plane", dim == 2 ? "y = 0, normal +y" : "z = 0, normal +z"},
         {"supports", dim == 2 ? "u_x = 0 at x = 0; lower block u_y = 0 at y = -0.5"
                               : "u_x = 0 at x = 0, u_y = 0 at y = 0; lower block u_z = 0 "
                                 "at z = -0.5"},
         {"method", std::string("mortar, ") + basisName(opt.basis) + " basis"},
         {"coordinates", "deformed"}},
        dim == 2 ? "x,pressure" : "x,y,pressure", rows);
    return {c.failed, written};
}

// ---------------------------------------------------------------------------------------------
// Hertz: a cylinder of radius R on a rigid flat, plane strain, half model (x >= 0).

struct HertzInput {
    double R = 1.0;
    double E = 1000.0;
    double nu = 0.3;
    double a = 0.01;      // target half-width: the load is chosen for it
    double width = 0.15;  // half model x in [0, width]
    double height = 0.3;  // from the lowest point to the loaded top
    [[nodiscard]] double Estar() const { return E / (1 - nu * nu); }
    [[nodiscard]] double load() const { return kPi * Estar() * a * a / (4 * R); }  // P
    [[nodiscard]] double p0() const { return 2 * load() / (kPi * a); }
};

struct HertzResult {
    double h = 0.0;
    int elements = 0;
    int iterations = 0;
    double p0 = 0.0;        // pressure at x = 0
    double a = 0.0;         // midway between the outermost node in contact and the next
    double rmsError = 0.0;  // of the pressure against p0 sqrt(1 - x^2 / a^2), over p0
    double maxError = 0.0;
    double force = 0.0;
    double dOffDiagonal = 0.0;              // fe::ContactSolution's
    std::vector<std::vector<double>> rows;  // x, pressure
    bool converged = false;
};

// Sizes h from 0 to `fine`, then growing by 20 % (up to maxSize) to the end: node positions.
std::vector<double> gradedFrom(double h, double fine, double end, double maxSize) {
    std::vector<double> x = {0.0};
    double size = h;
    while (x.back() < end - 1e-12) {
        if (x.back() >= fine) {
            size = std::min(size * 1.2, maxSize);
        }
        x.push_back(std::min(end, x.back() + size));
        if (end - x.back() < 0.5 * size) {
            x.back() = end;
        }
    }
    return x;
}

// The top traction of the half model: half the load P over its width.
double topTraction(const HertzInput& in) { return 0.5 * in.load() / in.width; }

HertzResult runHertzLevel(const HertzInput& in, double h, contact::MortarBasis basis) {
    fe::Model m;
    m.dim = 2;
    const std::vector<double> xs = gradedFrom(h, 2 * in.a, in.width, 0.02);
    const std::vector<double> ss = gradedFrom(h, 2 * in.a, in.height, 0.02);
    const auto bottom = [&](double x) { return in.R - std::sqrt(in.R * in.R - x * x); };
    const int nx = static_cast<int>(xs.size()) - 1;
    const int ny = static_cast<int>(ss.size()) - 1;
    const fe::Grid g = fe::addBlock2d(
        m, nx, ny,
        [&](int i, int j) {
            const double x = xs[static_cast<std::size_t>(i)];
            const double b = bottom(x);
            return Vector2d(x, b + (in.height - b) * ss[static_cast<std::size_t>(j)] / in.height);
        },
        fe::Material{in.E, in.nu});
    const double q = topTraction(in);
    for (int i = 0; i < nx; ++i) {
        fe::addEdgeTraction(m, g.at(i + 1, ny), g.at(i, ny), Vector2d(0, -q));
    }
    for (int j = 0; j <= ny; ++j) {
        m.fix(g.at(0, j), 0);
    }
    fe::ContactSetup setup;
    for (int i = 0; i < nx; ++i) {
        setup.slave.addSegment(contact::SegmentType::Line2, {g.at(i, 0), g.at(i + 1, 0)});
    }
    // The rigid flat y = 0: fixed nodes, segments running along -x (normal +y).
    std::vector<int> flat;
    for (int k = 0; k <= 4; ++k) {
        flat.push_back(m.addNode(Vector3d(-0.05 + (in.width + 0.1) * k / 4, 0.0, 0.0)));
        m.fix(flat.back(), 0);
        m.fix(flat.back(), 1);
    }
    for (int k = 0; k < 4; ++k) {
        setup.master.addSegment(contact::SegmentType::Line2, {flat[k + 1], flat[k]});
    }
    setup.normal = Vector3d::UnitY();
    setup.capture = 0.01 * in.R;
    setup.basis = basis;
    const fe::ContactSolution s = fe::solveContact(m, setup);

    HertzResult r;
    r.h = h;
    r.elements = static_cast<int>(m.elements.size());
    r.iterations = s.iterations;
    r.converged = s.converged;
    r.force = 2 * s.normalForce;
    r.dOffDiagonal = s.dOffDiagonal;
    const auto deformedX = [&](int n) { return m.X[static_cast<std::size_t>(n)].x() + s.u[2 * n]; };
    int outer = 0;  // the outermost slave node in contact, along the bottom row
    for (int i = 0; i <= nx; ++i) {
        if (std::find(s.nodes.begin(), s.nodes.end(), g.at(i, 0)) != s.nodes.end()) {
            outer = i;
        }
    }
    r.a = 0.5 * (deformedX(g.at(outer, 0)) + deformedX(g.at(std::min(outer + 1, nx), 0)));
    double sum = 0.0;
    int count = 0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
        const int n = s.nodes[k];
        const double x = deformedX(n);
        const double p = s.pressure[k];
        if (m.X[static_cast<std::size_t>(n)].x() == 0.0) {
            r.p0 = p;
        }
        r.rows.push_back({x, p});
        const double exact = x < in.a ? in.p0() * std::sqrt(1 - x * x / (in.a * in.a)) : 0.0;
        const double e = (p - exact) / in.p0();
        sum += e * e;
        ++count;
        r.maxError = std::max(r.maxError, std::abs(e));
    }
    r.rmsError = count > 0 ? std::sqrt(sum / count) : 0.0;
    return r;
}

Outcome runHertz(const Options& opt) {
    const HertzInput in;
    std::printf("Hertz, plane strain: cylinder R = %g, E = %g, nu = %g on a rigid flat; load per "
                "unit thickness P = %.10g\n  analytic: E* = E / (1 - nu^2) = %.10g, a = sqrt(4 P "
                "R / (pi E*)) = %.10g, p0 = 2 P / (pi a) = %.10g\n",
                in.R, in.E, in.nu, in.load(), in.Estar(), in.a, in.p0());
    std::printf("  %-10s %-9s %-5s %-14s %-11s %-12s %-11s %-11s\n", "h", "elements", "iter",
                "p(0)", "p(0)/p0-1", "a_h", "(a_h-a)/h", "rms error");
    std::vector<HertzResult> levels;
    for (const double h : {in.a / 5, in.a / 10, in.a / 20}) {
        levels.push_back(runHertzLevel(in, h, opt.basis));
        const HertzResult& r = levels.back();
        std::printf("  %-10.3g %-9d %-5d %-14.8g %-+11.4f %-12.8g %-+11.3f %-11.4f (max %.4f)\n",
                    r.h, r.elements, r.iterations, r.p0, r.p0 / in.p0() - 1, r.a,
                    (r.a - in.a) / r.h, r.rmsError, r.maxError);
    }
    const HertzResult& fine = levels.back();
    Checks c;
    bool converged = true;
    for (const HertzResult& r : levels) {
        converged = converged && r.converged;
    }
    c.expect(converged, "every active-set loop converged");
    c.expect(std::abs(fine.p0 / in.p0() - 1) <= 0.03, "finest mesh: p(0) within 3 % of p0");
    c.expect(std::abs(fine.a - in.a) <= fine.h, "finest mesh: half-width within one element");
    c.expect(fine.rmsError < levels.front().rmsError,
             "the pressure approaches p0 sqrt(1 - x^2/a^2) with refinement");
    c.expect(std::abs(fine.force - in.load()) <= 1e-9 * in.load(), "contact force equals the load");
    expectBasis(c, opt.basis, fine.dOffDiagonal);
    const bool written = writeCsv(
        csvPath(opt, "hertz"), opt,
        {{"case", "Hertz, elastic cylinder on a rigid flat, plane strain, half model x >= 0"},
         {"R", num(in.R)},
         {"E", num(in.E)},
         {"nu", num(in.nu)},
         {"P", num(in.load())},
         {"P is", "the load per unit thickness on the whole cylinder; the half model carries "
                  "P / 2, the contact force: each node's pressure times its mortar nodal "
                  "length, summed (the rows and the drop to 0 at the next node, one element "
                  "past the last row)"},
         {"q", num(topTraction(in))},
         {"q is", "the uniform traction on the half model's top, (P / 2) / its width"},
         {"E_star", num(in.Estar())},
         {"a", num(in.a)},
         {"p0", num(in.p0())},
         {"contact plane", "y = 0 (rigid), normal +y"},
         {"body", "x in [0, " + num(in.width) + "], from the circle up to y = " + num(in.height) +
                      ", loaded on top"},
         {"element size at the contact", num(fine.h)},
         {"method", std::string("mortar, ") + basisName(opt.basis) + " basis"},
         {"coordinates", "deformed"}},
        "x,pressure", fine.rows);
    return {c.failed, written};
}

constexpr const char* kUsage =
    "usage: fe_contact patch2d|patch3d|hertz [--out DIR] [--basis standard|dual] [--force]\n"
    "  patch2d, patch3d  the contact patch test (writes patch_2d.csv / patch_3d.csv)\n"
    "  hertz             a cylinder on a rigid flat (writes hertz.csv)\n"
    "  --out DIR         the directory the CSV goes into (default: the current one)\n"
    "  --basis B         the mortar basis, standard (default) or dual\n"
    "  --force           replace an existing CSV\n"
    "exit status: 0 every check holds, 1 a check failed, 2 a wrong argument or a refused\n"
    "output, 3 the solve failed\n";

int usageError(const std::string& why) {
    std::fprintf(stderr, "fe_contact: %s\n%s", why.c_str(), kUsage);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    std::string which;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (a == "--force") {
            opt.force = true;
        } else if (a == "--out") {
            const char* v = value();
            if (v == nullptr || *v == '\0') {
                return usageError("--out needs a directory");
            }
            opt.out = v;
        } else if (a == "--basis") {
            const char* v = value();
            const std::string b = v != nullptr ? v : "";
            if (b != "standard" && b != "dual") {
                return usageError("--basis expects standard or dual" +
                                  (v != nullptr ? ", not '" + b + "'" : std::string()));
            }
            opt.basis = b == "dual" ? contact::MortarBasis::kDual : contact::MortarBasis::kStandard;
        } else if (a.rfind("-", 0) == 0) {
            return usageError("unknown option " + a);
        } else if (!which.empty()) {
            return usageError("one case only: " + which + " and " + a);
        } else if (a != "patch2d" && a != "patch3d" && a != "hertz") {
            return usageError("unknown case " + a);
        } else {
            which = a;
        }
    }
    if (which.empty()) {
        return usageError("which case: patch2d, patch3d or hertz?");
    }
    try {
        // The output is checked before the solve: a refused path costs nothing.
        (void)mesh_io::checkOutputs({csvPath(opt, which)}, writeOptions(opt));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fe_contact: %s\n", e.what());
        return 2;
    }
    try {
        Outcome o;
        if (which == "patch2d") {
            o = runPatch(2, opt);
        } else if (which == "patch3d") {
            o = runPatch(3, opt);
        } else {
            o = runHertz(opt);
        }
        std::printf(o.failed == 0 ? "report: OK\n" : "report: %d check(s) FAILED\n", o.failed);
        if (!o.written) {
            return 2;  // a refused output, whatever the checks said (printed above)
        }
        return o.failed == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fe_contact: %s\n", e.what());
        return 3;
    }
}
