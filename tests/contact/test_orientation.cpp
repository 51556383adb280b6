// SPDX-License-Identifier: MIT
// A surface that faces into its solid as a whole is reported, never a silent sign flip: the
// orientation verdict of an update (UpdateStats::orientation) and the enclosed volume of a closed
// surface (enclosedVolume).
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "contact/surface.hpp"
#include "contact/tolerances.hpp"

#include "pair_columns.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace contact {
namespace {

using testing::addCurve;
using testing::addPatch;
using testing::columns;
using testing::Mesh;

// The same surface with the node order of every segment reversed (midside nodes kept on their
// edges): its normals all turn, so it faces into its solid.
Surface reversed(const Surface& s) {
    Surface out;
    out.name = s.name + " reversed";
    for (Index k = 0; k < s.size(); ++k) {
        const Index* n = s.nodes(k);
        std::vector<int> order;
        switch (s.types[k]) {
        case SegmentType::Line2: order = {1, 0}; break;
        case SegmentType::Line3: order = {1, 0, 2}; break;
        case SegmentType::Tri3: order = {0, 2, 1}; break;
        case SegmentType::Tri6: order = {0, 2, 1, 5, 4, 3}; break;
        case SegmentType::Quad4: order = {0, 3, 2, 1}; break;
        case SegmentType::Quad8: order = {0, 3, 2, 1, 7, 6, 5, 4}; break;
        case SegmentType::Quad9: order = {0, 3, 2, 1, 7, 6, 5, 4, 8}; break;
        }
        std::vector<Index> nodes;
        for (const int i : order) {
            nodes.push_back(n[i]);
        }
        out.addSegment(s.types[k], nodes.data(), static_cast<int>(nodes.size()));
    }
    return out;
}

// A master under a slave at a gap of 0.04 (half the capture distance), facing each other as two
// bodies in contact do: the master's solid below it (3D: z < 0; 2D: y < 0), the slave's above.
struct Scene {
    Mesh mesh;
    Surface master;
    Surface slave;
    int dim = 3;
};

Scene scene(int dim, bool quadratic, int cells = 8) {
    Scene s;
    s.dim = dim;
    if (dim == 3) {
        s.master = addPatch(
            s.mesh, quadratic ? SegmentType::Quad8 : SegmentType::Quad4, cells, cells,
            [](double u, double v) { return Eigen::Vector3d(u, v, 0.01 * std::sin(3.0 * u)); },
            false, "master");
        s.slave = addPatch(
            s.mesh, quadratic ? SegmentType::Tri6 : SegmentType::Tri3, cells, cells,
            [](double u, double v) { return Eigen::Vector3d(0.1 + 0.8 * u, 0.1 + 0.8 * v, 0.05); },
            true, "slave");
    } else {
        const SegmentType t = quadratic ? SegmentType::Line3 : SegmentType::Line2;
        s.master = addCurve(
            s.mesh, t, cells, [](double u) { return Eigen::Vector2d(u, 0.01 * std::sin(3.0 * u)); },
            true, "master");
        s.slave = addCurve(
            s.mesh, t, cells + 3, [](double u) { return Eigen::Vector2d(0.1 + 0.8 * u, 0.05); },
            false, "slave");
    }
    return s;
}

SearchOptions options(SearchMode mode) {
    SearchOptions o;
    o.mode = mode;
    o.capture = 0.08;
    o.captureRelative = false;
    return o;
}

UpdateStats search(const Scene& s, const Surface& master, const Surface& slave, SearchMode mode) {
    ContactSearch cs(options(mode));
    if (s.dim == 3) {
        const Eigen::Matrix3Xd x = s.mesh.coords3();
        cs.setSurfaces(master, slave, x);
        return cs.update(x);
    }
    const Eigen::Matrix2Xd x = s.mesh.coords2();
    cs.setSurfaces(master, slave, x);
    return cs.update(x);
}

struct Variant {
    int dim;
    bool quadratic;
    SearchMode mode;
};

std::vector<Variant> variants() {
    std::vector<Variant> out;
    for (const int dim : {2, 3}) {
        for (const bool quadratic : {false, true}) {
            for (const SearchMode mode :
                 {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
                out.push_back({dim, quadratic, mode});
            }
        }
    }
    return out;
}

std::string name(const Variant& v) {
    return std::to_string(v.dim) + "D" + (v.quadratic ? " quadratic" : " linear") +
           (v.mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode");
}

// Both surfaces as given: the normals are opposed at every judged pair.
TEST(Orientation, FacingSurfacesAreConsistent) {
    for (const Variant& v : variants()) {
        SCOPED_TRACE(name(v));
        const Scene s = scene(v.dim, v.quadratic);
        const UpdateStats st = search(s, s.master, s.slave, v.mode);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        ASSERT_GT(st.pairs, tol::kOrientationMinPairs);
        EXPECT_EQ(st.orientation.verdict, Orientation::kConsistent)
            << orientationName(st.orientation.verdict);
        EXPECT_GE(st.orientation.opposed, tol::kOrientationMinPairs);
        EXPECT_EQ(st.orientation.aligned, 0);
        EXPECT_LE(st.orientation.opposed, std::min<Index>(st.pairs, tol::kOrientationSample));
    }
}

// The master with every segment reversed: the same pairs, every gap of the other sign, and the
// verdict names the master. The pairs' gaps say why: slave nodes now lie behind it.
TEST(Orientation, InsideOutMasterIsReported) {
    for (const Variant& v : variants()) {
        SCOPED_TRACE(name(v));
        const Scene s = scene(v.dim, v.quadratic);
        const Surface master = reversed(s.master);
        const UpdateStats st = search(s, master, s.slave, v.mode);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        ASSERT_GT(st.pairs, tol::kOrientationMinPairs);
        EXPECT_EQ(st.orientation.verdict, Orientation::kMasterInsideOut)
            << orientationName(st.orientation.verdict);
        EXPECT_EQ(st.orientation.opposed, 0);
        EXPECT_GT(st.orientation.behind, tol::kOrientationMinPairs);
        EXPECT_EQ(st.orientation.inFront, 0);
    }
}

TEST(Orientation, InsideOutSlaveIsReported) {
    for (const Variant& v : variants()) {
        SCOPED_TRACE(name(v));
        const Scene s = scene(v.dim, v.quadratic);
        const UpdateStats st = search(s, s.master, reversed(s.slave), v.mode);
        ASSERT_EQ(st.status, UpdateStatus::kOk);
        EXPECT_EQ(st.orientation.verdict, Orientation::kSlaveInsideOut)
            << orientationName(st.orientation.verdict);
        EXPECT_GT(st.orientation.inFront, tol::kOrientationMinPairs);
        EXPECT_EQ(st.orientation.behind, 0);
    }
}

// checkOrientation on a search's own pairs gives update()'s check, field by field, whichever
// way the surfaces face; pairs that do not fit the surfaces are refused.
TEST(Orientation, CheckOfGivenPairsIsTheUpdatesCheck) {
    for (const Variant& v : variants()) {
        SCOPED_TRACE(name(v));
        const Scene s = scene(v.dim, v.quadratic);
        for (const bool insideOut : {false, true}) {
            const Surface master = insideOut ? reversed(s.master) : s.master;
            ContactSearch cs(options(v.mode));
            const Eigen::MatrixXd x =
                v.dim == 3 ? Eigen::MatrixXd(s.mesh.coords3()) : Eigen::MatrixXd(s.mesh.coords2());
            const CoordinatesView view(x.data(), static_cast<Index>(x.cols()), v.dim);
            cs.setSurfaces(master, s.slave, view);
            const UpdateStats st = cs.update(view);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            const OrientationCheck c =
                v.mode == SearchMode::kNodeToSegment
                    ? checkOrientation(cs.nodePairs(), s.slave, view, cs.captureDistance())
                    : checkOrientation(cs.segmentPairs(), master, s.slave, view,
                                       cs.captureDistance());
            EXPECT_EQ(c.verdict, st.orientation.verdict);
            EXPECT_EQ(c.opposed, st.orientation.opposed);
            EXPECT_EQ(c.aligned, st.orientation.aligned);
            EXPECT_EQ(c.inFront, st.orientation.inFront);
            EXPECT_EQ(c.behind, st.orientation.behind);
            EXPECT_EQ(orientationVerdict(c), c.verdict);
            if (v.mode == SearchMode::kNodeToSegment) {
                EXPECT_THROW((void)checkOrientation(cs.nodePairs(), master, view, 1.0),
                             std::invalid_argument);  // the slave nodes are in no master segment
            } else {
                EXPECT_THROW((void)checkOrientation(cs.segmentPairs(), s.slave, master, view, 1.0),
                             std::invalid_argument);  // segment indices beyond the other surface
            }
        }
    }
}

// Fewer judged pairs than kOrientationMinPairs: no verdict, whichever way the surfaces face. One
// small slave triangle over the master, 0.02 above it, with a capture distance of 0.03: its three
// nodes, and in segment mode the few master segments under it.
TEST(Orientation, TooFewPairsIsUnknown) {
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        Scene s = scene(3, false);
        Surface slave;
        slave.name = "small";
        const Index n0 = s.mesh.add({0.5, 0.5, 0.025});
        const Index n1 = s.mesh.add({0.55, 0.5, 0.025});
        const Index n2 = s.mesh.add({0.5, 0.55, 0.025});
        slave.addSegment(SegmentType::Tri3, {n0, n2, n1});  // faces -z, towards the master
        SearchOptions o = options(mode);
        o.capture = 0.03;
        const Eigen::Matrix3Xd x = s.mesh.coords3();
        for (const Surface& master : {s.master, reversed(s.master)}) {
            ContactSearch search(o);
            search.setSurfaces(master, slave, x);
            const UpdateStats st = search.update(x);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            ASSERT_GT(st.pairs, 0);
            EXPECT_LT(st.orientation.opposed + st.orientation.aligned, tol::kOrientationMinPairs);
            EXPECT_EQ(st.orientation.verdict, Orientation::kUnknown);
        }
    }
}

// Surfaces touching (every gap 0): aligned normals say one of them is inside-out, but no gap
// tells which, so the verdict stays unknown. A slave given as nodes has no normals: unknown.
TEST(Orientation, UndecidableCasesAreUnknown) {
    Mesh mesh;
    const auto flat = [](double z) {
        return [z](double u, double v) { return Eigen::Vector3d(u, v, z); };
    };
    const Surface master = addPatch(mesh, SegmentType::Quad4, 6, 6, flat(0.0), false, "master");
    const Surface slave = addPatch(mesh, SegmentType::Quad4, 6, 6, flat(0.0), false, "slave");
    const Eigen::Matrix3Xd x = mesh.coords3();
    ContactSearch touching(options(SearchMode::kNodeToSegment));
    touching.setSurfaces(master, slave, x);  // the slave faces +z like the master: aligned
    const UpdateStats st = touching.update(x);
    ASSERT_EQ(st.status, UpdateStatus::kOk);
    EXPECT_GE(st.orientation.aligned, tol::kOrientationMinPairs);
    EXPECT_EQ(st.orientation.inFront + st.orientation.behind, 0);
    EXPECT_EQ(st.orientation.verdict, Orientation::kUnknown);

    const Scene s = scene(3, false);
    ContactSearch byNodes(options(SearchMode::kNodeToSegment));
    const Eigen::Matrix3Xd xs = s.mesh.coords3();
    byNodes.setSurfaces(reversed(s.master), s.slave.connectivity, xs);
    const UpdateStats nodes = byNodes.update(xs);
    ASSERT_GT(nodes.pairs, tol::kOrientationMinPairs);
    EXPECT_EQ(nodes.orientation.opposed + nodes.orientation.aligned, 0);
    EXPECT_EQ(nodes.orientation.verdict, Orientation::kUnknown);
}

// Self-contact: a sheet folded into a U (legs 0.02 apart) is one surface on both sides of every
// pair, so no side of it is the master's: the verdict is unknown whichever way it faces (it was
// "consistent" for the sheet turned inside-out too), and the counts are still taken.
TEST(Orientation, SelfContactIsNotJudged) {
    for (const bool inverted : {false, true}) {
        for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
            SCOPED_TRACE(std::string(inverted ? "inside-out" : "as given") +
                         (mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode"));
            Mesh mesh;
            const Surface sheet = addPatch(
                mesh, SegmentType::Quad4, 40, 4,
                [](double u, double v) {  // legs along x at y = 0 and y = 0.02, the bend at x = 0
                    const double r = 0.01;
                    const double s = u * (2.0 + M_PI * r);
                    if (s < 1.0) {
                        return Eigen::Vector3d(1.0 - s, 0.0, v);
                    }
                    if (s < 1.0 + M_PI * r) {
                        const double a = (s - 1.0) / r;
                        return Eigen::Vector3d(-r * std::sin(a), r - r * std::cos(a), v);
                    }
                    return Eigen::Vector3d(s - 1.0 - M_PI * r, 2.0 * r, v);
                },
                inverted, "sheet");
            const Eigen::Matrix3Xd x = mesh.coords3();
            SearchOptions o = options(mode);
            o.capture = 0.05;
            o.selfContact = true;
            ContactSearch cs(o);
            cs.setSurfaces(sheet, sheet, x);
            const UpdateStats st = cs.update(x);
            ASSERT_EQ(st.status, UpdateStatus::kOk);
            EXPECT_GE(st.orientation.opposed, tol::kOrientationMinPairs);
            EXPECT_EQ(st.orientation.verdict, Orientation::kUnknown)
                << orientationName(st.orientation.verdict);
        }
    }
}

// A surface setSurfaces would refuse, or a capture that is no length, is refused with a message
// naming it. A malformed surface crashed checkOrientation (its nodes read by offsets and types
// that do not agree), and NaN or a negative capture was taken.
TEST(Orientation, CheckOfGivenPairsRefusesWhatUpdateWould) {
    const Scene s = scene(3, false);
    const Eigen::Matrix3Xd x = s.mesh.coords3();
    ContactSearch nodes(options(SearchMode::kNodeToSegment));
    nodes.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(nodes.update(x).status, UpdateStatus::kOk);
    ContactSearch segments(options(SearchMode::kSegmentToSegment));
    segments.setSurfaces(s.master, s.slave, x);
    ASSERT_EQ(segments.update(x).status, UpdateStatus::kOk);
    const double capture = nodes.captureDistance();
    const auto refusal = [&](const Surface& master, const Surface& slave, double c, bool byNodes) {
        try {
            if (byNodes) {
                (void)checkOrientation(nodes.nodePairs(), slave, x, c);
            } else {
                (void)checkOrientation(segments.segmentPairs(), master, slave, x, c);
            }
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    for (const bool byNodes : {true, false}) {
        SCOPED_TRACE(byNodes ? "node pairs" : "segment pairs");
        EXPECT_EQ(refusal(s.master, s.slave, capture, byNodes), "");
        Surface farOffsets = s.slave;
        farOffsets.offsets[1] += 100000;
        EXPECT_NE(refusal(s.master, farOffsets, capture, byNodes)
                      .find("slave surface 'slave', segment 0 (Tri3): has 100003 nodes"),
                  std::string::npos);
        Surface shortOffsets = s.slave;
        shortOffsets.offsets.pop_back();
        EXPECT_NE(refusal(s.master, shortOffsets, capture, byNodes)
                      .find("slave surface 'slave': offsets do not match the segment count"),
                  std::string::npos);
        Surface wrongType = s.slave;
        wrongType.types[0] = SegmentType::Tri6;
        EXPECT_NE(refusal(s.master, wrongType, capture, byNodes)
                      .find("slave surface 'slave', segment 0 (Tri6): has 3 nodes, its type Tri6 "
                            "has 6"),
                  std::string::npos);
        Surface noType = s.slave;
        noType.types[1] = static_cast<SegmentType>(42);
        EXPECT_NE(refusal(s.master, noType, capture, byNodes).find("type 42 is no SegmentType"),
                  std::string::npos);
        for (const double c : {std::nan(""), -1.0, std::numeric_limits<double>::infinity()}) {
            EXPECT_NE(
                refusal(s.master, s.slave, c, byNodes).find("capture must be finite and >= 0"),
                std::string::npos)
                << c;
        }
    }
    Surface folded = s.master;
    std::swap(folded.connectivity[1], folded.connectivity[2]);  // segment 0 a bow-tie
    EXPECT_NE(refusal(folded, s.slave, capture, false)
                  .find("master surface 'master', segment 0 (Quad4): degenerate"),
              std::string::npos);
}

// Many pairs: at most kOrientationSample are judged, and the verdict holds.
TEST(Orientation, AtMostTheSampleIsJudged) {
    const Scene s = scene(3, false, 40);
    const UpdateStats st = search(s, reversed(s.master), s.slave, SearchMode::kNodeToSegment);
    ASSERT_GT(st.pairs, 2 * tol::kOrientationSample);
    EXPECT_LE(st.orientation.opposed + st.orientation.aligned, tol::kOrientationSample);
    EXPECT_GE(st.orientation.aligned, tol::kOrientationSample / 2);
    EXPECT_EQ(st.orientation.verdict, Orientation::kMasterInsideOut);
}

// ---------------------------------------------------------------------------------------------
// enclosedVolume

// The unit cube's six faces, each ordered with its normal outward.
Surface cubeFaces(SegmentType type, Mesh& mesh, double a) {
    const std::array<Eigen::Vector3d, 8> corners = {
        Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(a, 0, 0), Eigen::Vector3d(a, a, 0),
        Eigen::Vector3d(0, a, 0), Eigen::Vector3d(0, 0, a), Eigen::Vector3d(a, 0, a),
        Eigen::Vector3d(a, a, a), Eigen::Vector3d(0, a, a)};
    const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                             {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};
    std::array<Index, 8> id;
    for (int i = 0; i < 8; ++i) {
        id[i] = mesh.add(corners[i]);
    }
    Surface s;
    s.name = "cube";
    std::vector<std::pair<std::pair<Index, Index>, Index>> midside;  // shared midside nodes
    const auto mid = [&](Index p, Index q) {
        const std::pair<Index, Index> key(std::min(p, q), std::max(p, q));
        for (const auto& [k, n] : midside) {
            if (k == key) {
                return n;
            }
        }
        const Index n = mesh.add(0.5 * (mesh.nodes[p] + mesh.nodes[q]));
        midside.push_back({key, n});
        return n;
    };
    for (const auto& f : faces) {
        const Index c[4] = {id[f[0]], id[f[1]], id[f[2]], id[f[3]]};
        if (type == SegmentType::Quad4) {
            s.addSegment(type, c, 4);
        } else if (type == SegmentType::Quad8) {
            s.addSegment(type, {c[0], c[1], c[2], c[3], mid(c[0], c[1]), mid(c[1], c[2]),
                                mid(c[2], c[3]), mid(c[3], c[0])});
        } else if (type == SegmentType::Tri3) {
            s.addSegment(type, {c[0], c[1], c[2]});
            s.addSegment(type, {c[0], c[2], c[3]});
        } else {  // Tri6
            s.addSegment(type,
                         {c[0], c[1], c[2], mid(c[0], c[1]), mid(c[1], c[2]), mid(c[2], c[0])});
            s.addSegment(type,
                         {c[0], c[2], c[3], mid(c[0], c[2]), mid(c[2], c[3]), mid(c[3], c[0])});
        }
    }
    return s;
}

TEST(EnclosedVolume, ClosedSurfacesGiveTheirVolumeWithTheSignOfTheirFacing) {
    for (const SegmentType type :
         {SegmentType::Quad4, SegmentType::Quad8, SegmentType::Tri3, SegmentType::Tri6}) {
        SCOPED_TRACE(segmentTypeName(type));
        Mesh mesh;
        const Surface cube = cubeFaces(type, mesh, 2.0);
        Eigen::Matrix3Xd x = mesh.coords3();
        EXPECT_NEAR(enclosedVolume(cube, x), 8.0, 1e-12);
        EXPECT_NEAR(enclosedVolume(reversed(cube), x), -8.0, 1e-12);
        x.colwise() += Eigen::Vector3d(1e3, -2e3, 5e2);  // the volume does not depend on the origin
        EXPECT_NEAR(enclosedVolume(cube, x), 8.0, 1e-8);
        // Not closed: a face missing. Not consistent: one face turned.
        Surface open;
        Surface mixed;
        for (Index k = 0; k < cube.size(); ++k) {
            const Surface one = [&] {
                Surface s;
                s.addSegment(cube.types[k], cube.nodes(k), nodeCount(cube.types[k]));
                return s;
            }();
            const Surface& seg = k == 0 ? reversed(one) : one;
            mixed.addSegment(seg.types[0], seg.nodes(0), nodeCount(seg.types[0]));
            if (k > 0) {
                open.addSegment(cube.types[k], cube.nodes(k), nodeCount(cube.types[k]));
            }
        }
        EXPECT_TRUE(std::isnan(enclosedVolume(open, x)));
        EXPECT_TRUE(std::isnan(enclosedVolume(mixed, x)));
    }
}

// A malformed surface is refused naming what is wrong: it crashed (offsets beyond the
// connectivity), or gave a wrong volume (a Quad8 type on a Quad4's four nodes: 1.889 for the unit
// cube).
TEST(EnclosedVolume, MalformedSurfaceIsRefused) {
    Mesh mesh;
    const Surface cube = cubeFaces(SegmentType::Quad4, mesh, 1.0);
    const Eigen::Matrix3Xd x = mesh.coords3();
    ASSERT_NEAR(enclosedVolume(cube, x), 1.0, 1e-14);
    const auto refusal = [&](const Surface& s) {
        try {
            (void)enclosedVolume(s, x);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    Surface farOffsets = cube;
    farOffsets.offsets[1] += 100000;
    EXPECT_EQ(refusal(farOffsets),
              "contact::enclosedVolume(): surface 'cube', segment 0: has 100004 nodes, its type "
              "Quad4 has 4");
    Surface noOffsets = cube;
    noOffsets.offsets.clear();
    EXPECT_EQ(refusal(noOffsets), "contact::enclosedVolume(): surface 'cube': offsets do not "
                                  "match the segment count and connectivity");
    Surface quad8 = cube;
    quad8.types[0] = SegmentType::Quad8;
    EXPECT_EQ(refusal(quad8),
              "contact::enclosedVolume(): surface 'cube', segment 0: has 4 nodes, its type Quad8 "
              "has 8");
    Surface noType = cube;
    noType.types[0] = static_cast<SegmentType>(42);
    EXPECT_EQ(refusal(noType),
              "contact::enclosedVolume(): surface 'cube', segment 0: type 42 is no SegmentType");
}

// 2D: a closed polygon of lines, counter-clockwise (normals outward): its area; clockwise: minus
// it. A circle of Line3 with midside nodes on the arc: about pi r^2.
TEST(EnclosedVolume, ClosedCurvesGiveTheirArea) {
    Mesh mesh;
    const double r = 3.0;
    const int n = 24;
    std::vector<Index> corner;
    std::vector<Index> midside;
    for (int i = 0; i < n; ++i) {
        const double t = 2.0 * M_PI * i / n;
        const double tm = 2.0 * M_PI * (i + 0.5) / n;
        corner.push_back(mesh.add({r * std::cos(t), r * std::sin(t), 0.0}));
        midside.push_back(mesh.add({r * std::cos(tm), r * std::sin(tm), 0.0}));
    }
    Surface lines;
    Surface arcs;
    for (int i = 0; i < n; ++i) {
        lines.addSegment(SegmentType::Line2, {corner[i], corner[(i + 1) % n]});
        arcs.addSegment(SegmentType::Line3, {corner[i], corner[(i + 1) % n], midside[i]});
    }
    const Eigen::Matrix2Xd x = mesh.coords2();
    const double polygon = 0.5 * n * r * r * std::sin(2.0 * M_PI / n);
    EXPECT_NEAR(enclosedVolume(lines, x), polygon, 1e-12);
    EXPECT_NEAR(enclosedVolume(reversed(lines), x), -polygon, 1e-12);
    EXPECT_NEAR(enclosedVolume(arcs, x), M_PI * r * r, 1e-3 * r * r);
    EXPECT_LT(enclosedVolume(reversed(arcs), x), 0.0);
    Surface open = lines;
    open.types.pop_back();
    open.connectivity.resize(open.connectivity.size() - 2);
    open.offsets.pop_back();
    EXPECT_TRUE(std::isnan(enclosedVolume(open, x)));
    EXPECT_TRUE(std::isnan(enclosedVolume(Surface{}, x)));
}

}  // namespace
}  // namespace contact
