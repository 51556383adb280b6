// SPDX-License-Identifier: MIT
#include "mesh_io/report.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Weighted quantiles of (value, weight) samples: the smallest value with at least q of the total
// weight at or below it.
void quantiles(std::vector<std::pair<double, double>>& samples, GapSummary& g) {
    g.min = g.p05 = g.median = g.p95 = g.max = kNaN;
    if (samples.empty()) {
        return;
    }
    std::sort(samples.begin(), samples.end());
    double total = 0.0;
    for (const auto& s : samples) {
        total += s.second;
    }
    const double qs[3] = {0.05, 0.5, 0.95};
    double* out[3] = {&g.p05, &g.median, &g.p95};
    double cum = 0.0;
    int k = 0;
    for (const auto& s : samples) {
        cum += s.second;
        while (k < 3 && cum >= qs[k] * total) {
            *out[k++] = s.first;
        }
    }
    while (k < 3) {
        *out[k++] = samples.back().first;  // rounding of the running sum
    }
    g.min = samples.front().first;
    g.max = samples.back().first;
}

// Part of an area (2D: a length) over which the gap is affine: a stretch (its gap uniform between
// its ends' gaps) or a triangle (g1 <= g2 <= g3 at its corners: the area with gap <= t grows as
// (t - g1)^2 up to g2, then the area above shrinks as (g3 - t)^2).
struct GapPiece {
    double g1 = 0.0;
    double g2 = 0.0;
    double g3 = 0.0;
    double weight = 0.0;  ///< the piece's area (length)
    bool isTriangle = false;

    static GapPiece stretch(double a, double b, double w) {
        return {std::min(a, b), 0.0, std::max(a, b), w, false};
    }
    static GapPiece triangle(double a, double b, double c, double w) {
        const double median = std::max(std::min(a, b), std::min(std::max(a, b), c));
        return {std::min({a, b, c}), median, std::max({a, b, c}), w, true};
    }

    // The area with gap <= t (steps where all the gaps are equal).
    [[nodiscard]] double below(double t) const {
        if (t < g1) {
            return 0.0;
        }
        if (t >= g3) {
            return weight;
        }
        if (!isTriangle) {
            return weight * (t - g1) / (g3 - g1);
        }
        return t < g2 ? weight * (t - g1) * (t - g1) / ((g3 - g1) * (g2 - g1))
                      : weight - weight * (g3 - t) * (g3 - t) / ((g3 - g1) * (g3 - g2));
    }

    // below(a + s) for s in (0, b - a), where no gap of the piece lies in (a, b): c0 + c1 s + c2
    // s^2.
    void addOn(double a, double b, double c[3]) const {
        if (b <= g1) {
            return;
        }
        if (a >= g3) {
            c[0] += weight;
        } else if (!isTriangle) {
            c[0] += weight * (a - g1) / (g3 - g1);
            c[1] += weight / (g3 - g1);
        } else if (b <= g2) {  // weight (s + d)^2 / ((g3 - g1)(g2 - g1)), d = a - g1
            const double k = weight / ((g3 - g1) * (g2 - g1));
            const double d = a - g1;
            c[0] += k * d * d;
            c[1] += 2.0 * k * d;
            c[2] += k;
        } else {  // weight - weight (e - s)^2 / ((g3 - g1)(g3 - g2)), e = g3 - a
            const double k = weight / ((g3 - g1) * (g3 - g2));
            const double e = g3 - a;
            c[0] += weight - k * e * e;
            c[1] += 2.0 * k * e;
            c[2] -= k;
        }
    }
};

// The 5 %, 50 % and 95 % quantiles of the gap over the pieces' area: for each q, the smallest t
// with at least q of the total area at gap <= t. The area below t is piecewise quadratic between
// the pieces' corner gaps, sorted once: a binary search over them finds the stretch [a, b] where
// it reaches q, then a bisection on that stretch's quadratic (O(n log n) in all).
void pieceQuantiles(const std::vector<GapPiece>& pieces, GapSummary& g) {
    std::vector<double> knots;
    knots.reserve(3 * pieces.size());
    double total = 0.0;
    for (const GapPiece& p : pieces) {
        knots.push_back(p.g1);
        knots.push_back(p.g3);
        if (p.isTriangle) {
            knots.push_back(p.g2);
        }
        total += p.weight;
    }
    std::sort(knots.begin(), knots.end());
    knots.erase(std::unique(knots.begin(), knots.end()), knots.end());
    const auto below = [&](double t) {
        double s = 0.0;
        for (const GapPiece& p : pieces) {
            s += p.below(t);
        }
        return s;
    };
    const auto quantile = [&](double q) {
        const double target = q * total;
        // The first knot with at least the target below it (the last one when rounding falls
        // short).
        std::size_t lo = 0;
        std::size_t hi = knots.size() - 1;
        while (lo < hi) {
            const std::size_t mid = (lo + hi) / 2;
            if (below(knots[mid]) >= target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (lo == 0) {
            return knots[0];
        }
        const double a = knots[lo - 1];
        const double b = knots[lo];
        double c[3] = {0.0, 0.0, 0.0};
        for (const GapPiece& p : pieces) {
            p.addOn(a, b, c);
        }
        const auto quad = [&](double s) { return c[0] + s * (c[1] + s * c[2]); };
        double sLo = 0.0;
        double sHi = b - a;
        if (quad(sHi) < target) {  // reached by equal gaps (a step) at b
            return b;
        }
        for (int it = 0; it < 200 && sHi - sLo > 0.0; ++it) {  // quad rises on [0, b - a]
            const double mid = 0.5 * (sLo + sHi);
            if (mid <= sLo || mid >= sHi) {
                break;
            }
            (quad(mid) >= target ? sHi : sLo) = mid;
        }
        return a + sHi;
    };
    g.p05 = quantile(0.05);
    g.median = quantile(0.5);
    g.p95 = quantile(0.95);
}

// printf into a string.
std::string format(const char* fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

std::string quantileLine(const GapSummary& g) {
    return format("min %.6g, 5%% %.6g, median %.6g, 95%% %.6g, max %.6g", g.min, g.p05, g.median,
                  g.p95, g.max);
}

}  // namespace

GapSummary summarizeGaps(const contact::NodePairs& pairs) {
    GapSummary g;
    std::vector<std::pair<double, double>> samples;
    samples.reserve(static_cast<std::size_t>(pairs.size()));
    for (Index i = 0; i < pairs.size(); ++i) {
        samples.emplace_back(pairs.gap()[i], 1.0);
        g.penetrating += pairs.gap()[i] < 0.0 ? 1 : 0;
    }
    g.count = pairs.size();
    quantiles(samples, g);
    return g;
}

GapSummary summarizeGaps(const Overlaps& overlaps) {
    GapSummary g;
    std::vector<GapPiece> pieces;
    double lo = kNaN;
    double hi = kNaN;
    for (const PairOverlap& o : overlaps.pairs) {
        g.penetrationArea += o.penetrationArea;
        g.penetrating += o.penetrationArea > 0.0 ? 1 : 0;
        if (!(o.captureArea > 0.0)) {
            continue;
        }
        ++g.count;
        lo = g.count == 1 ? o.gapMin : std::min(lo, o.gapMin);
        hi = g.count == 1 ? o.gapMax : std::max(hi, o.gapMax);
        const auto first = static_cast<std::size_t>(o.first);
        const double* gap = overlaps.gap.data() + first;
        const Eigen::Vector3d* p = overlaps.points.data() + first;
        if (o.count < 2) {  // in contact, nothing drawn (a curved pair cut inside): its gap range
            pieces.push_back(GapPiece::stretch(o.gapMin, o.gapMax, o.captureArea));
            continue;
        }
        if (o.count == 2) {
            pieces.push_back(GapPiece::stretch(gap[0], gap[1], o.captureArea));
            continue;
        }
        // Fan from point 0; the triangles' areas share out the pair's captureArea.
        const std::size_t begin = pieces.size();
        double fanArea = 0.0;
        for (int k = 2; k < o.count; ++k) {
            const double a = 0.5 * (p[k - 1] - p[0]).cross(p[k] - p[0]).norm();
            pieces.push_back(GapPiece::triangle(gap[0], gap[k - 1], gap[k], a));
            fanArea += a;
        }
        for (std::size_t s = begin; s < pieces.size(); ++s) {
            pieces[s].weight *= fanArea > 0.0 ? o.captureArea / fanArea : 0.0;
        }
    }
    g.min = g.p05 = g.median = g.p95 = g.max = kNaN;
    if (g.count > 0) {
        g.min = lo;
        g.max = hi;
        pieceQuantiles(pieces, g);
    }
    return g;
}

std::string segmentTypeCounts(const contact::Surface& s) {
    std::map<std::string, long> count;
    for (const auto t : s.types) {
        ++count[contact::segmentTypeName(t)];
    }
    std::string out;
    for (const auto& [name, n] : count) {
        out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    }
    return out.empty() ? "none" : out;
}

void printInterface(std::ostream& out, const InterfaceReport& r) {
    const bool nodeMode = r.mode == contact::SearchMode::kNodeToSegment;
    const contact::UpdateStats& st = r.stats;
    out << format("\ninterface %d (%s): slave '%s' -> master '%s', %s%s\n", r.index, r.kind.c_str(),
                  r.slave->name.c_str(), r.master->name.c_str(),
                  nodeMode ? "node-to-segment" : "segment-to-segment",
                  r.selfContact ? ", self-contact" : "");
    out << format("  master: %d segments (%s)\n", static_cast<int>(r.master->surface.size()),
                  segmentTypeCounts(r.master->surface).c_str());
    if (r.slave->nodeSurface) {
        out << format("  slave:  %d nodes (node surface)\n", static_cast<int>(r.slaveNodes));
    } else {
        out << format("  slave:  %d segments (%s), %d nodes\n",
                      static_cast<int>(r.slave->surface.size()),
                      segmentTypeCounts(r.slave->surface).c_str(), static_cast<int>(r.slaveNodes));
    }
    if (r.captureRelative) {
        out << format("  capture distance: %.6g (%.3g x mean master segment size %.6g)\n",
                      r.captureDistance, r.captureFactor, r.meanMasterSize);
    } else {
        out << format("  capture distance: %.6g\n", r.captureDistance);
    }
    const GapSummary& g = r.gaps;
    if (r.countsOverlapRanks) {
        out << "  (candidates and SAT survivors summed over the MPI ranks' searches, which overlap "
               "in self-contact: counted on each rank that holds them)\n";
    }
    if (nodeMode) {
        out << format(
            "  candidates (buffered AABB overlaps): %lld, SAT survivors: %lld, pairs: %d\n",
            st.candidates, st.satSurvivors, static_cast<int>(r.nodePairs->size()));
        if (g.count > 0) {
            out << "  gap: " << quantileLine(g)
                << format("; penetrating nodes: %d\n", static_cast<int>(g.penetrating));
        }
    } else {
        const Overlaps& o = *r.overlaps;
        const bool is3d = r.master->dim == 3;
        const char* area = is3d ? "area" : "length";
        out << format("  candidates (buffered AABB overlaps): %lld, SAT survivors%s: %lld\n",
                      st.candidates, r.countsOverlapRanks ? "" : " (segment pairs)",
                      st.satSurvivors);
        out << format("  overlaps: %zu candidate pairs overlap, total %s %.6g (whatever the gap)\n",
                      o.pairs.size(), area, o.overlapArea());
        out << format("  in contact (gap <= capture): %d pairs, %s %.6g", static_cast<int>(g.count),
                      area, o.captureArea());
        const double err = o.captureAreaError();
        out << (err > 0.0 ? format(" (+- %.2g: curved faces cut on a refinement)\n", err) : "\n");
        if (g.count > 0) {
            // The quantiles come from the drawn polygons' corner gaps, the gap affine over each
            // fan triangle: exact on flat faces, the gap's linear interpolant on curved ones (min
            // and max stay the pairs' ranges).
            out << "  gap over the " << area << " in contact: " << quantileLine(g)
                << (err > 0.0 ? " (quantiles rough: curved faces)\n" : "\n");
        }
        out << format("  penetrating (gap < 0): %d pairs, %s %.6g", static_cast<int>(g.penetrating),
                      area, g.penetrationArea);
        const double penErr = o.penetrationAreaError();
        out << (penErr > 0.0 ? format(" (+- %.2g: curved faces cut on a refinement)\n", penErr)
                             : "\n");
        if (g.count > 0 && g.min < -r.captureDistance) {
            // A slave segment wholly more than about the capture distance behind the master is
            // no candidate (boxes buffered by the capture), so deeper parts may be left out.
            out << format("  note: penetration reaches %.6g, deeper than the capture distance "
                          "%.6g: deeper parts of the slave may lie beyond the candidates (boxes "
                          "buffered by the capture) and are not counted; raise --capture\n",
                          -g.min, r.captureDistance);
        }
    }
    if (r.selfContact && g.count > 0 && g.penetrating > 0) {
        // The self-contact rule leaves out only segments sharing a node: the two faces of a wall
        // one element thick share none, and pair with each other at minus its thickness.
        out << format("  note: self-contact penetrating down to %.6g: on one surface, the faces of "
                      "a wall thinner than the capture distance %.6g pair with each other as "
                      "penetrating by its thickness, though nothing touches; if so, lower "
                      "--capture below the thinnest wall, or search its faces as two surfaces "
                      "(*CONTACT PAIR, or --master and --slave)\n",
                      -g.min, r.captureDistance);
    }
    out << format("  orientation: %s (normals opposed %d, aligned %d: in front %d, behind %d)\n",
                  r.selfContact ? "not judged (self-contact: one surface, no master side)"
                                : contact::orientationName(st.orientation.verdict),
                  st.orientation.opposed, st.orientation.aligned, st.orientation.inFront,
                  st.orientation.behind);
    out << format("  time [ms]: read %.2f, bounds %.2f, broad %.2f, narrow %.2f, projection %.2f",
                  r.timeRead, st.timeBounds, st.timeBroad, st.timeNarrow, st.timeProjection);
    out << (nodeMode ? "\n" : format(", overlaps %.2f\n", r.timeOverlaps));
}

void printNotes(std::ostream& out, const Model& model) {
    constexpr std::size_t kNotes = 10;
    for (std::size_t i = 0; i < model.notes.size() && i < kNotes; ++i) {
        out << "  note: " << model.notes[i] << '\n';
    }
    if (model.notes.size() > kNotes) {
        out << "  note: ... and " << model.notes.size() - kNotes << " more\n";
    }
}

void listModel(std::ostream& out, const Model& model) {
    const FileTerms terms = fileTerms(model);
    const bool noPairs = model.format == "gmsh" || model.format == "exodus";
    out << format("model %s (%s): %d nodes, %d elements\n", model.path.c_str(),
                  model.format.c_str(), static_cast<int>(model.numNodes()),
                  static_cast<int>(model.numElements()));
    printNotes(out, model);  // as a search prints them: why a surface may hold nothing
    // Gmsh groups of the body's elements: element sets, no surface (unnamed ones left out).
    std::vector<std::pair<std::string, std::size_t>> bodies;
    if (model.format == "gmsh") {
        for (const auto& [name, set] : model.elementSets) {
            const bool surface =
                std::any_of(model.surfaces.begin(), model.surfaces.end(),
                            [&name = name](const SurfaceDef& s) { return s.name == name; });
            if (!surface && name.rfind("physical_", 0) != 0) {
                bodies.emplace_back(name, set.size());
            }
        }
    }
    // The count is of the lines below: the surfaces, then the body's groups.
    out << (bodies.empty() ? format("%s: %zu\n", terms.surfaces, model.surfaces.size())
                           : format("%s: %zu (%zu surfaces, %zu of the body's elements)\n",
                                    terms.surfaces, model.surfaces.size() + bodies.size(),
                                    model.surfaces.size(), bodies.size()));
    for (const SurfaceDef& def : model.surfaces) {
        out << "  " << def.name << ": ";
        try {
            const ContactSurface cs = buildContactSurface(model, def);
            if (cs.nodeSurface) {
                out << format("%zu nodes (%s: a slave only)", cs.nodes.size(),
                              model.format == "abaqus" ? "TYPE=NODE" : "a node set");
            } else {
                out << format("%d %s (%s)", static_cast<int>(cs.surface.size()),
                              cs.dim == 2 ? "line segments" : "face segments",
                              segmentTypeCounts(cs.surface).c_str());
            }
        } catch (const std::exception& e) {
            out << "cannot be searched: " << e.what();
        }
        if (!def.source.path.empty()) {  // line 0: a binary file, no lines to cite
            out << (def.source.line > 0
                        ? format("  [%s:%ld]", def.source.path.c_str(), def.source.line)
                        : format("  [%s]", def.source.path.c_str()));
        }
        out << '\n';
    }
    for (const auto& [name, size] : bodies) {
        out << format("  %s: %zu elements of the body, not a surface\n", name.c_str(), size);
    }
    if (noPairs) {
        out << format("contact pairs: a%s file defines none; search two %s with --master NAME "
                      "--slave NAME\n",
                      model.format == "gmsh" ? " Gmsh" : "n Exodus II", terms.surfaces);
        return;
    }
    out << format("%s: %zu\n", terms.interfaces, model.interfaces.size());
    int index = 1;
    for (const InterfaceDef& i : model.interfaces) {
        const char* keyword = i.kind == InterfaceDef::Kind::kTie           ? "*TIE"
                              : i.kind == InterfaceDef::Kind::kContactPair ? "*CONTACT PAIR"
                                                                           : "*CONTACT";
        out << format("  %d: %s slave %s, master %s", index++, keyword, i.slave.c_str(),
                      i.master.c_str());
        out << (i.nodeToSurface ? " (node to surface)" : " (surface to surface)");
        if (!i.problem.empty()) {
            out << " cannot be searched: " << i.problem;
        }
        if (!i.source.path.empty()) {
            out << format("  [%s:%ld]", i.source.path.c_str(), i.source.line);
        }
        out << '\n';
    }
}

}  // namespace mesh_io
