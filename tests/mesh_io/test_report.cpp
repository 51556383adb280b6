// SPDX-License-Identifier: MIT
// The report's figures: segment mode's gap quantiles are those of the exact area (2D: length)
// distribution of the gap over the part in contact, checked against analytic answers on tilted
// planes meshed in several ways and on single triangles; the report notes a penetration as deep
// as the capture distance and says its overlap total covers the candidate pairs.
#include "contact/contact_search.hpp"
#include "mesh_io/overlaps.hpp"
#include "mesh_io/report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace mesh_io {
namespace {

using contact::SegmentType;

constexpr double kCapture = 0.1;

// The slave z = z0 + slope x over [0.2, 1.8] x [0.1, 0.9] (facing -z) against the master z = 0
// over [0, 2] x [0, 1] (facing +z), meshed nx x ny (tri: each quad split in two).
struct Planes {
    Eigen::Matrix3Xd x;
    contact::Surface master;
    contact::Surface slave;
};

Index grid(std::vector<Eigen::Vector3d>& pts, double x0, double x1, double y0, double y1, int nx,
           int ny, double z0, double slope) {
    const auto first = static_cast<Index>(pts.size());
    for (int j = 0; j <= ny; ++j) {
        for (int i = 0; i <= nx; ++i) {
            const double x = x0 + (x1 - x0) * i / nx;
            pts.emplace_back(x, y0 + (y1 - y0) * j / ny, z0 + slope * x);
        }
    }
    return first;
}

void addFaces(contact::Surface& s, Index first, int nx, int ny, bool tri, bool up) {
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const Index a = first + j * (nx + 1) + i;
            const Index b = a + 1;
            const Index c = b + nx + 1;
            const Index d = a + nx + 1;
            if (!tri) {
                s.addSegment(SegmentType::Quad4, up ? std::initializer_list<Index>{a, b, c, d}
                                                    : std::initializer_list<Index>{a, d, c, b});
            } else if (up) {
                s.addSegment(SegmentType::Tri3, {a, b, c});
                s.addSegment(SegmentType::Tri3, {a, c, d});
            } else {
                s.addSegment(SegmentType::Tri3, {a, c, b});
                s.addSegment(SegmentType::Tri3, {a, d, c});
            }
        }
    }
}

Planes planes(int mx, int my, bool masterTri, int sx, int sy, bool slaveTri, double z0,
              double slope) {
    std::vector<Eigen::Vector3d> pts;
    const Index m = grid(pts, 0.0, 2.0, 0.0, 1.0, mx, my, 0.0, 0.0);
    const Index s = grid(pts, 0.2, 1.8, 0.1, 0.9, sx, sy, z0, slope);
    Planes p;
    p.x.resize(3, static_cast<Eigen::Index>(pts.size()));
    for (std::size_t i = 0; i < pts.size(); ++i) {
        p.x.col(static_cast<Eigen::Index>(i)) = pts[i];
    }
    addFaces(p.master, m, mx, my, masterTri, true);
    addFaces(p.slave, s, sx, sy, slaveTri, false);
    return p;
}

Overlaps searchOverlaps(const contact::Surface& master, const contact::Surface& slave,
                        const contact::CoordinatesView& x) {
    contact::SearchOptions o;
    o.mode = contact::SearchMode::kSegmentToSegment;
    o.capture = kCapture;
    o.captureRelative = false;
    contact::ContactSearch search(o);
    search.setSurfaces(master, slave, x);
    EXPECT_EQ(search.update(x).status, contact::UpdateStatus::kOk);
    return computeOverlaps(master, slave, search.segmentPairs(), x, kCapture);
}

// The gap runs linearly from -0.01 (x = 0.2) to the capture 0.1 (x = 0.75) over a 0.55 x 0.8
// strip: its area distribution is uniform, quantile q at -0.01 + 0.11 q, whatever the meshes.
void expectTiltedQuantiles(const GapSummary& g) {
    const double tol = 1e-12;
    EXPECT_NEAR(g.min, -0.01, tol);
    EXPECT_NEAR(g.p05, -0.0045, tol);
    EXPECT_NEAR(g.median, 0.045, tol);
    EXPECT_NEAR(g.p95, 0.0945, tol);
    EXPECT_NEAR(g.max, 0.1, tol);
}

TEST(Report, SegmentGapQuantilesOfATiltedPlaneAreExactForAnyMeshing3d) {
    struct Mesh {
        int mx, my;
        bool masterTri;
        int sx, sy;
        bool slaveTri;
    };
    for (const Mesh& m : {Mesh{3, 2, false, 4, 3, false}, Mesh{3, 2, false, 1, 1, false},
                          Mesh{4, 4, true, 7, 5, false}, Mesh{5, 3, false, 5, 2, true}}) {
        SCOPED_TRACE(::testing::Message()
                     << m.mx << "x" << m.my << (m.masterTri ? " tri" : "") << " / " << m.sx << "x"
                     << m.sy << (m.slaveTri ? " tri" : ""));
        const Planes p = planes(m.mx, m.my, m.masterTri, m.sx, m.sy, m.slaveTri, -0.05, 0.2);
        const Overlaps ov = searchOverlaps(p.master, p.slave, contact::CoordinatesView(p.x));
        EXPECT_NEAR(ov.captureArea(), 0.55 * 0.8, 1e-12);
        expectTiltedQuantiles(summarizeGaps(ov));
    }
}

TEST(Report, SegmentGapQuantilesOfATiltedLineAreExactForAnyMeshing2d) {
    // Master y = 0 over [0, 2] (run right to left: facing +y), slave y = -0.05 + 0.2 x over
    // [0.2, 1.8] (left to right: facing -y).
    for (const int masterN : {1, 3, 5}) {
        for (const int slaveN : {1, 4, 7}) {
            SCOPED_TRACE(::testing::Message() << masterN << " / " << slaveN);
            std::vector<double> xy;
            contact::Surface master;
            contact::Surface slave;
            for (int i = 0; i <= masterN; ++i) {
                xy.insert(xy.end(), {2.0 - 2.0 * i / masterN, 0.0});
            }
            for (int i = 0; i <= slaveN; ++i) {
                const double x = 0.2 + 1.6 * i / slaveN;
                xy.insert(xy.end(), {x, -0.05 + 0.2 * x});
            }
            for (Index i = 0; i < masterN; ++i) {
                master.addSegment(SegmentType::Line2, {i, i + 1});
            }
            for (Index i = 0; i < slaveN; ++i) {
                slave.addSegment(SegmentType::Line2, {masterN + 1 + i, masterN + 2 + i});
            }
            const contact::CoordinatesView x(xy.data(), static_cast<Index>(xy.size() / 2), 2);
            const Overlaps ov = searchOverlaps(master, slave, x);
            EXPECT_NEAR(ov.captureArea(), 0.55, 1e-12);
            expectTiltedQuantiles(summarizeGaps(ov));
        }
    }
}

// One drawn triangle (area 0.5) with the given corner gaps.
Overlaps triangle(double a, double b, double c) {
    Overlaps ov;
    PairOverlap o;
    o.overlapArea = o.captureArea = 0.5;
    o.gapMin = std::min({a, b, c});
    o.gapMax = std::max({a, b, c});
    o.count = 3;
    ov.pairs.push_back(o);
    ov.points = {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0)};
    ov.gap = {a, b, c};
    ov.normal.assign(3, Eigen::Vector3d::UnitZ());
    return ov;
}

// An affine gap over a triangle with corner gaps 0 <= g2 <= 1: the area fraction at gap <= t is
// t^2 / g2 up to g2, then 1 - (1 - t)^2 / (1 - g2).
TEST(Report, SegmentGapQuantilesOverOneTriangleFollowItsExactDistribution) {
    const double tol = 1e-12;
    {
        SCOPED_TRACE("gaps 0, 0.5, 1");
        const GapSummary g = summarizeGaps(triangle(1.0, 0.0, 0.5));
        EXPECT_NEAR(g.p05, std::sqrt(0.025), tol);  // 2 t^2 = 0.05
        EXPECT_NEAR(g.median, 0.5, tol);
        EXPECT_NEAR(g.p95, 1.0 - std::sqrt(0.025), tol);  // 2 (1 - t)^2 = 0.05
    }
    {
        SCOPED_TRACE("gaps 0, 1, 1");
        const GapSummary g = summarizeGaps(triangle(1.0, 0.0, 1.0));
        EXPECT_NEAR(g.p05, std::sqrt(0.05), tol);
        EXPECT_NEAR(g.median, std::sqrt(0.5), tol);
        EXPECT_NEAR(g.p95, std::sqrt(0.95), tol);
    }
    {
        SCOPED_TRACE("gaps 0, 0, 1");
        const GapSummary g = summarizeGaps(triangle(0.0, 1.0, 0.0));
        EXPECT_NEAR(g.p05, 1.0 - std::sqrt(0.95), tol);
        EXPECT_NEAR(g.median, 1.0 - std::sqrt(0.5), tol);
        EXPECT_NEAR(g.p95, 1.0 - std::sqrt(0.05), tol);
    }
    {
        SCOPED_TRACE("gaps all 0.25");
        const GapSummary g = summarizeGaps(triangle(0.25, 0.25, 0.25));
        EXPECT_EQ(g.p05, 0.25);
        EXPECT_EQ(g.median, 0.25);
        EXPECT_EQ(g.p95, 0.25);
    }
}

// Two equal areas at constant gaps 0 and 1: half the area is at gap 0, so the median is 0.
TEST(Report, SegmentGapQuantilesOfConstantGapsAreTheSmallestGapReachingQ) {
    Overlaps ov = triangle(0.0, 0.0, 0.0);
    const Overlaps other = triangle(1.0, 1.0, 1.0);
    PairOverlap o = other.pairs[0];
    o.first = 3;
    ov.pairs.push_back(o);
    ov.points.insert(ov.points.end(), other.points.begin(), other.points.end());
    ov.gap.insert(ov.gap.end(), other.gap.begin(), other.gap.end());
    ov.normal.insert(ov.normal.end(), other.normal.begin(), other.normal.end());
    const GapSummary g = summarizeGaps(ov);
    EXPECT_EQ(g.p05, 0.0);
    EXPECT_EQ(g.median, 0.0);
    EXPECT_EQ(g.p95, 1.0);
}

std::string report(const Planes& p, const Overlaps& ov) {
    ContactSurface master;
    master.name = "MASTER";
    master.dim = 3;
    master.surface = p.master;
    ContactSurface slave;
    slave.name = "SLAVE";
    slave.dim = 3;
    slave.surface = p.slave;
    const contact::SegmentPairs pairs;
    InterfaceReport r;
    r.master = &master;
    r.slave = &slave;
    r.mode = contact::SearchMode::kSegmentToSegment;
    r.captureDistance = kCapture;
    r.captureRelative = false;
    r.segmentPairs = &pairs;
    r.overlaps = &ov;
    r.gaps = summarizeGaps(ov);
    std::ostringstream out;
    printInterface(out, r);
    return out.str();
}

// The slave z = -0.5 + 0.4 x, from -0.42 (x = 0.2) to 0.22: one slave face reaches from beyond
// the capture into the contact (gap down to -0.42 counted); of 4 x 3 faces the column below
// -0.26 is no candidate (-0.26 counted). Either way the report notes a penetration deeper than
// the capture distance; the shallow tilted plane (down to -0.01) has no note.
TEST(Report, PenetrationDeeperThanTheCaptureIsNoted) {
    for (const int n : {1, 4}) {
        SCOPED_TRACE(n);
        const Planes p = planes(3, 2, false, n, n == 1 ? 1 : 3, false, -0.5, 0.4);
        const Overlaps ov = searchOverlaps(p.master, p.slave, contact::CoordinatesView(p.x));
        EXPECT_NEAR(summarizeGaps(ov).min, n == 1 ? -0.42 : -0.26, 1e-12);
        const std::string text = report(p, ov);
        EXPECT_NE(text.find("note: penetration reaches"), std::string::npos) << text;
        EXPECT_NE(text.find("deeper than the capture distance"), std::string::npos) << text;
    }
    const Planes shallow = planes(3, 2, false, 4, 3, false, -0.05, 0.2);
    const std::string text = report(shallow, searchOverlaps(shallow.master, shallow.slave,
                                                            contact::CoordinatesView(shallow.x)));
    EXPECT_EQ(text.find("note:"), std::string::npos) << text;
}

// The overlap total covers the candidate pairs only: of the tilted slave (area 1.28) the column
// at x > 1.4 (z > 0.23) is beyond the buffered boxes (0.1 + about 0.1 x (cos + sin) of the
// tilt, 0.22), the other three (3 x 0.4 x 0.8 = 0.96) overlap. The report says so.
TEST(Report, OverlapTotalIsSaidToCoverTheCandidatePairs) {
    const Planes p = planes(3, 2, false, 4, 3, false, -0.05, 0.2);
    const Overlaps ov = searchOverlaps(p.master, p.slave, contact::CoordinatesView(p.x));
    EXPECT_NEAR(ov.overlapArea(), 0.96, 1e-12);
    const std::string text = report(p, ov);
    EXPECT_NE(text.find("candidate pairs overlap, total area 0.96 (whatever the gap)"),
              std::string::npos)
        << text;
}

// --list prints the model's notes as a search does: the first ten, then how many more. A surface
// the reader left empty then has its reason next to it.
TEST(Report, ListPrintsTheNotesAsTheSearchDoes) {
    Model m;
    m.path = "m.msh";
    m.format = "gmsh";
    for (int i = 0; i < 12; ++i) {
        m.notes.push_back("m.msh:" + std::to_string(i + 1) + ": note " + std::to_string(i));
    }
    std::ostringstream out;
    listModel(out, m);
    const std::string text = out.str();
    EXPECT_EQ(text.rfind("model m.msh (gmsh): 0 nodes, 0 elements\n  note: m.msh:1: note 0\n", 0),
              0U)
        << text;
    EXPECT_NE(text.find("  note: m.msh:10: note 9\n  note: ... and 2 more\n"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("note 10"), std::string::npos) << text;
    m.notes.resize(1);
    std::ostringstream one;
    listModel(one, m);
    EXPECT_EQ(one.str().find("more"), std::string::npos) << one.str();
}

}  // namespace
}  // namespace mesh_io
