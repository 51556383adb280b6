// SPDX-License-Identifier: MIT
// A program built with other vector flags than the library (README, "Vector flags"). This source
// is built twice against the same library: as the library is (baseline x86-64) and with -mavx.
// Each build runs a search, copies, moves and destroys its results (NodePairs, SegmentPairs, a
// model read by mesh_io), and lists what the library returned, values as hexadecimal doubles:
//
//   vector_flags --write FILE   the baseline build writes the list
//   vector_flags --check FILE   the -mavx build compares its list with it, line by line
//
// Different layouts of a public struct (Obb2 with an aligned Matrix2d) give different values; the
// memory of Eigen matrices allocated on one side and freed on the other ends the process.
#include "contact/contact.hpp"
#include "mesh_io/abaqus.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/overlaps.hpp"
#include "mesh_io/verify.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using contact::Index;
using contact::NodePairs;
using contact::SegmentPairs;

// One line per value: "<name> <hexadecimal double>", or "<name> <count>".
class Listing {
public:
    void count(const std::string& name, std::size_t n) { out_ << name << ' ' << n << '\n'; }
    void add(const std::string& name, double v) {
        char hex[64];
        std::snprintf(hex, sizeof hex, "%a", v);
        out_ << name << ' ' << hex << '\n';
    }
    template <class Derived>
    void add(const std::string& name, const Eigen::DenseBase<Derived>& m) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                add(name + '(' + std::to_string(i) + ',' + std::to_string(j) + ')', m(i, j));
            }
        }
    }
    [[nodiscard]] std::string text() const { return out_.str(); }

private:
    std::ostringstream out_;
};

void listPairs(Listing& l, const std::string& name, const NodePairs& p) {
    l.count(name + ".size", static_cast<std::size_t>(p.size()));
    for (Index k = 0; k < p.size(); ++k) {
        const std::string at = name + '[' + std::to_string(k) + "].";
        l.add(at + "slave", p.slave()[k]);
        l.add(at + "master", p.master()[k]);
        l.add(at + "gap", p.gap()[k]);
        l.add(at + "distance", p.distance()[k]);
        l.add(at + "status", static_cast<double>(p.status()[k]));
        l.add(at + "xi", p.xi().col(k));
        l.add(at + "point", p.point().col(k));
        l.add(at + "normal", p.normal().col(k));
        l.add(at + "tangent1", p.tangent1().col(k));
        l.add(at + "tangent2", p.tangent2().col(k));
        l.add(at + "shape", p.shape().col(k));
    }
}

void listPairs(Listing& l, const std::string& name, const SegmentPairs& p) {
    l.count(name + ".size", static_cast<std::size_t>(p.size()));
    for (Index k = 0; k < p.size(); ++k) {
        l.add(name + '[' + std::to_string(k) + "]", p.slave()[k] * 1000.0 + p.master()[k]);
    }
}

// What the search found, copied, moved and copy-assigned, then the reference moved in: each
// listed.
template <class Pairs>
void listCopies(Listing& l, const std::string& name, const Pairs& found, Pairs& reference) {
    Pairs copy = found;
    listPairs(l, name, copy);
    Pairs moved = std::move(copy);
    copy = moved;
    moved = std::move(reference);
    listPairs(l, "reference", moved);
    listPairs(l, "copy", copy);
}

template <class T>
void layout(Listing& l, const std::string& name) {
    l.count("sizeof " + name, sizeof(T));
    l.count("alignof " + name, alignof(T));
}

// The public structs: one layout in every build.
void layouts(Listing& l) {
    layout<contact::Obb2>(l, "Obb2");
    layout<contact::Obb3>(l, "Obb3");
    layout<contact::Aabb2>(l, "Aabb2");
    layout<contact::Aabb3>(l, "Aabb3");
    layout<contact::SegmentNodes>(l, "SegmentNodes");
    layout<contact::SatResult>(l, "SatResult");
    layout<contact::Projection>(l, "Projection");
    layout<contact::ClosestXi>(l, "ClosestXi");
    layout<contact::SegmentFrame>(l, "SegmentFrame");
    layout<contact::ShapeFunctions>(l, "ShapeFunctions");
    layout<contact::ControlPoints>(l, "ControlPoints");
    layout<contact::ClipPoint2d>(l, "ClipPoint2d");
    layout<contact::SegmentClip2d>(l, "SegmentClip2d");
    layout<contact::OverlapVertex>(l, "OverlapVertex");
    layout<contact::OverlapPolygon>(l, "OverlapPolygon");
    layout<contact::OverlapQuadraturePoint>(l, "OverlapQuadraturePoint");
    layout<contact::OverlapCut2d>(l, "OverlapCut2d");
    layout<contact::OverlapCut3d>(l, "OverlapCut3d");
    layout<contact::NodePairs>(l, "NodePairs");
    layout<NodePairs::Columns>(l, "NodePairs::Columns");
    layout<SegmentPairs>(l, "SegmentPairs");
    layout<contact::ReferenceResult>(l, "ReferenceResult");
    layout<contact::SearchOptions>(l, "SearchOptions");
    layout<contact::UpdateStats>(l, "UpdateStats");
    layout<contact::MortarOptions>(l, "MortarOptions");
    layout<contact::MortarOperators>(l, "MortarOperators");
    layout<mesh_io::Model>(l, "Model");
    layout<mesh_io::ContactSurface>(l, "ContactSurface");
    layout<mesh_io::PairOverlap>(l, "PairOverlap");
    layout<mesh_io::Overlaps>(l, "Overlaps");
}

void listObb(Listing& l, const std::string& name, const contact::Obb2& b) {
    l.add(name + ".center", b.center);
    l.add(name + ".axes", b.axes);
    l.add(name + ".halfExtent", b.halfExtent);
}

// 2D: the oriented box of a line (returned by the library), and the SAT on two boxes made here.
void boxes(Listing& l) {
    contact::SegmentNodes s;
    s.type = contact::SegmentType::Line3;
    s.x[0] << 0.0, 0.0, 0.0;
    s.x[1] << 2.0, 1.0, 0.0;
    s.x[2] << 1.0, 0.75, 0.0;
    const contact::Obb2 a = contact::segmentObb2d(s, 0.1);
    listObb(l, "segmentObb2d", a);
    contact::Obb2 b;
    b.center << 1.0, 1.2;
    b.axes << 0.6, -0.8, 0.8, 0.6;
    b.halfExtent << 0.3, 0.2;
    const contact::SatResult r = contact::satDisjoint2d(a, b);
    l.add("sat.separated", r.separated ? 1.0 : 0.0);
    l.add("sat.axis", r.axis);
    l.add("sat.depth", r.depth);
    l.add("sat.normal", r.normal);
    std::vector<contact::Obb2> many(5, b);  // a vector of them, as a solver would keep
    many.push_back(a);
    l.add("satOverlap2d", contact::satOverlap2d(many.back(), many.front()) ? 1.0 : 0.0);
}

// 3D: the two blocks of a model file, node to segment and segment to segment; every result
// copied, moved and destroyed here.
void search(Listing& l, const std::string& inp) {
    mesh_io::Model model = mesh_io::readAbaqus(inp);
    l.add("model.coords", model.coords);
    {
        mesh_io::Model copy = model;  // copied, grown and freed here, allocated by mesh_io
        copy.coords.conservativeResize(Eigen::NoChange, copy.coords.cols() + 7);
        copy.coords.rightCols<7>().setOnes();
        l.add("copy.coords.sum", copy.coords.sum());
    }
    const mesh_io::ContactSurface master = mesh_io::buildContactSurface(model, "LOWER_TOP");
    const mesh_io::ContactSurface slave = mesh_io::buildContactSurface(model, "UPPER_BOTTOM");
    contact::SearchOptions options;
    options.capture = 0.2;
    options.captureRelative = false;
    for (const contact::SearchMode mode :
         {contact::SearchMode::kNodeToSegment, contact::SearchMode::kSegmentToSegment}) {
        options.mode = mode;
        contact::ContactSearch cs(options);
        cs.setSurfaces(master.surface, slave.surface, model.coords);
        const contact::UpdateStats st = cs.update(model.coords);
        l.add("update.status", static_cast<double>(st.status));
        contact::ReferenceResult ref =
            contact::referenceSearch(master.surface, slave.surface, model.coords, options);
        if (mode == contact::SearchMode::kNodeToSegment) {
            listCopies(l, "nodePairs", cs.nodePairs(), ref.nodePairs);
        } else {
            listCopies(l, "segmentPairs", cs.segmentPairs(), ref.segmentPairs);
        }
    }
}

// Pairs assembled here from columns (as contact::mpi does): the library takes the columns over.
void columns(Listing& l) {
    NodePairs::Columns c;
    constexpr int n = 3;
    for (int k = 0; k < n; ++k) {
        c.slave.push_back(k);
        c.master.push_back(2 * k);
        c.gap.push_back(0.25 * k);
        c.distance.push_back(0.5 * k);
        c.status.push_back(contact::ProjectionStatus::kConverged);
    }
    const auto column = [](int rows, double first) {
        std::vector<double> v(static_cast<std::size_t>(rows * n));
        for (std::size_t i = 0; i < v.size(); ++i) {
            v[i] = first + static_cast<double>(i);
        }
        return v;
    };
    c.xi = column(2, 1.0);
    c.point = column(3, 10.0);
    c.normal = column(3, 20.0);
    c.tangent1 = column(3, 30.0);
    c.tangent2 = column(3, 40.0);
    c.shape = column(contact::kMaxSegmentNodes, 50.0);
    NodePairs p(std::move(c));
    NodePairs copy = p;
    listPairs(l, "columns", copy);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        v.push_back(line);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4 ||
        (std::strcmp(argv[1], "--write") != 0 && std::strcmp(argv[1], "--check") != 0)) {
        std::fprintf(stderr, "usage: vector_flags --write|--check FILE MODEL.inp\n");
        return 2;
    }
    Listing l;
    layouts(l);
    boxes(l);
    search(l, argv[3]);
    columns(l);
    const std::string text = l.text();
    if (std::strcmp(argv[1], "--write") == 0) {
        std::ofstream(argv[2]) << text;
        std::printf("vector_flags: %zu bytes written\n", text.size());
        return 0;
    }
    std::ifstream in(argv[2]);
    std::ostringstream expected;
    expected << in.rdbuf();
    const std::vector<std::string> want = lines(expected.str());
    const std::vector<std::string> got = lines(text);
    for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
        const std::string w = i < want.size() ? want[i] : "(none)";
        const std::string g = i < got.size() ? got[i] : "(none)";
        if (w != g) {
            std::printf("vector_flags: line %zu: the library's build '%s', this build '%s'\n",
                        i + 1, w.c_str(), g.c_str());
            return 1;
        }
    }
    std::printf("vector_flags: %zu values as in the library's own build: OK\n", got.size());
    return 0;
}
