// SPDX-License-Identifier: MIT
// clipSegments2d, clipSegments3d, overlapQuadrature, flatApproximationBound: named 2D and 3D
// cases, overlap sums over whole meshes (matching, non-matching, rotated, curved), the patch test
// at a uniform gap, random pairs against a sampling oracle, feature-id stability and rigid-motion
// invariance.
#include "contact/clipping.hpp"
#include "contact/projection.hpp"
#include "contact/segment.hpp"
#include "contact/surface.hpp"

#include "clipping_oracle.hpp"
#include "detail/quadrature_rules.hpp"
#include "eigen_checks.hpp"
#include "scenes.hpp"
#include "surfaces.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace contact {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;
using testing::allNear;
using testing::randomSegment;
using testing::uniform;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

// Exact-geometry answers (lengths, areas, gaps of unit-size cases) hold to a few ulps of the
// coordinates; 1e-13 leaves room for the ~10 operations between.
constexpr double kExact = 1e-13;

// ---------------------------------------------------------------------------------------------
// Builders.

SegmentNodes makeSegment(SegmentType t, std::initializer_list<Vector3d> pts) {
    SegmentNodes s;
    s.type = t;
    int i = 0;
    for (const Vector3d& p : pts) {
        s.x[i++] = p;
    }
    return s;
}

Vector3d p2(double x, double y) { return {x, y, 0.0}; }

// 2D master along the x axis from x = a to b (a < b) with outward normal +y: node 0 at b.
SegmentNodes masterLine(double a, double b) {
    return makeSegment(SegmentType::Line2, {p2(b, 0), p2(a, 0)});
}

// 2D slave from p to q; facing a +y master when it runs along +x (normal = tangent rotated
// clockwise).
SegmentNodes slaveLine(const Vector3d& p, const Vector3d& q) {
    return makeSegment(SegmentType::Line2, {p, q});
}

// Axis-aligned square [x0, x1] x [y0, y1] at height z, normal +z (up) or -z.
SegmentNodes square(double x0, double y0, double x1, double y1, double z, bool up) {
    const Vector3d a(x0, y0, z);
    const Vector3d b(x1, y0, z);
    const Vector3d c(x1, y1, z);
    const Vector3d d(x0, y1, z);
    return up ? makeSegment(SegmentType::Quad4, {a, b, c, d})
              : makeSegment(SegmentType::Quad4, {a, d, c, b});
}

// Same geometry, quadratic type: midside nodes at the edge midpoints (Quad9: centre too).
SegmentNodes toQuadratic(const SegmentNodes& s, SegmentType t) {
    SegmentNodes q;
    q.type = t;
    const int nc = cornerCount(s.type);
    for (int i = 0; i < nc; ++i) {
        q.x[i] = s.x[i];
        q.x[nc + i] = 0.5 * (s.x[i] + s.x[(i + 1) % nc]);
    }
    if (t == SegmentType::Quad9) {
        q.x[8] = 0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3]);
    }
    return q;
}

// Reverses a face's orientation: corners in reverse order, midside nodes kept on their edges.
SegmentNodes reversedFace(const SegmentNodes& s) {
    SegmentNodes r = s;
    const int nc = cornerCount(s.type);
    for (int i = 0; i < nc; ++i) {
        r.x[i] = s.x[(nc - i) % nc];  // 0, nc-1, ..., 1
    }
    if (isQuadratic(s.type)) {
        // Edge (r_i, r_i+1) = (s_{-i}, s_{-i-1}) holds midside s_{nc + (nc - i - 1) % nc}.
        for (int i = 0; i < nc; ++i) {
            r.x[nc + i] = s.x[nc + (2 * nc - i - 1) % nc];
        }
    }
    return r;
}

Vector3d centreOf(const SegmentNodes& s) { return position(s, referenceCentre(s.type)); }

// Area of a face's corner polygon projected along the unit vector n.
double projectedCornerArea(const SegmentNodes& s, const Vector3d& n) {
    Vector3d a = Vector3d::Zero();
    for (int i = 1; i + 1 < cornerCount(s.type); ++i) {
        a += (s.x[i] - s.x[0]).cross(s.x[i + 1] - s.x[0]);
    }
    return 0.5 * std::abs(a.dot(n));
}

// Key numbers of a test in the XML report (keys: letters, digits, underscores).
void record(std::string key, double value) {
    for (char& ch : key) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) {
            ch = '_';
        }
    }
    std::ostringstream os;
    os << std::scientific << std::setprecision(3) << value;
    ::testing::Test::RecordProperty(key, os.str());
}

// ---------------------------------------------------------------------------------------------
// Polygon checks shared by the 3D tests.

// Everything clipSegments3d promises about a polygon with status kOverlap: 3..8 vertices, on the
// plane, counter-clockwise about the normal with the reported area, no duplicates, no collinear
// vertex, local coordinates in the domain, gap = the gap computed from the local coordinates.
void expectValidPolygon(const OverlapPolygon& poly, const SegmentNodes& slave,
                        const SegmentNodes& master) {
    ASSERT_EQ(poly.status, ClipStatus::kOverlap);
    ASSERT_GE(poly.count, 3);
    ASSERT_LE(poly.count, kMaxOverlapVertices);
    const double L = std::max(characteristicSize(slave), characteristicSize(master));
    const double roundoff = 1e-11 * L;
    EXPECT_NEAR(poly.normal.norm(), 1.0, 1e-14);
    EXPECT_GT(poly.normal.dot(outwardNormal(master, referenceCentre(master.type))), 0.0);
    Vector3d twiceArea = Vector3d::Zero();
    for (int i = 0; i < poly.count; ++i) {
        const OverlapVertex& a = poly.vertices[i];
        const OverlapVertex& b = poly.vertices[(i + 1) % poly.count];
        const OverlapVertex& c = poly.vertices[(i + 2) % poly.count];
        SCOPED_TRACE("vertex " + std::to_string(i));
        EXPECT_NEAR((a.point - poly.planePoint).dot(poly.normal), 0.0, roundoff);
        EXPECT_GT((b.point - a.point).norm(), tol::kClipMergeRel * L);
        // b is not on the line through a and c
        const Vector3d ac = c.point - a.point;
        EXPECT_GT(ac.cross(b.point - a.point).norm(), tol::kClipMergeRel * L * ac.norm());
        twiceArea += (a.point - poly.centroid).cross(b.point - poly.centroid);
        EXPECT_TRUE(inReferenceDomain(slave.type, a.xiSlave, 1e-12)) << a.xiSlave.transpose();
        EXPECT_TRUE(inReferenceDomain(master.type, a.xiMaster, 1e-12)) << a.xiMaster.transpose();
        const SegmentFrame fm = segmentFrame(master, a.xiMaster);
        const double direct = (position(slave, a.xiSlave) - fm.point).dot(fm.normal);
        EXPECT_NEAR(a.gap, direct, roundoff);
    }
    EXPECT_NEAR(0.5 * twiceArea.dot(poly.normal), poly.area, 1e-12 * L * L);
    EXPECT_NEAR(0.5 * twiceArea.norm(), poly.area, 1e-12 * L * L);
    EXPECT_GT(poly.area, tol::kClipMinAreaRel * L * L);
}

// The plane normal a test expects for the option (computed from segmentFrame, not the kernel).
Vector3d expectedPlaneNormal(const SegmentNodes& slave, const SegmentNodes& master,
                             ClipPlane plane) {
    const Vector3d nm = outwardNormal(master, referenceCentre(master.type));
    if (plane == ClipPlane::kMaster) {
        return nm;
    }
    const Vector3d ns = outwardNormal(slave, referenceCentre(slave.type));
    return ns.dot(nm) < 0.0 ? (nm - ns).normalized() : (nm + ns).normalized();
}

const char* planeName(ClipPlane p) { return p == ClipPlane::kMaster ? "master" : "common"; }

constexpr std::array<ClipPlane, 2> kPlanes = {ClipPlane::kMaster, ClipPlane::kCommon};

// ---------------------------------------------------------------------------------------------
// 2D named cases: Box2D-Lite's reference face / incident edge on straight lines.

TEST(Clip2d, ParallelPartialOverlapIsExact) {
    // Master x in [0, 2] (normal +y), slave x in [1, 3] at gap 0.1: overlap [1, 2], cut by the
    // side plane at master end node 0 (x = 2).
    const SegmentClip2d c =
        clipSegments2d(slaveLine(p2(1, 0.1), p2(3, 0.1)), masterLine(0, 2), 1.0);
    ASSERT_EQ(c.status, ClipStatus::kOverlap);
    ASSERT_EQ(c.pointCount, 2);
    EXPECT_TRUE(c.facing);
    EXPECT_NEAR(c.overlapLength, 1.0, kExact);
    EXPECT_NEAR(c.slaveOverlapLength, 1.0, kExact);
    EXPECT_TRUE(allNear(c.normal, Vector3d(0, 1, 0), kExact));
    const ClipPoint2d& a = c.points[0];
    const ClipPoint2d& b = c.points[1];
    EXPECT_EQ(a.feature, (ClipFeature2d{0, -1}));
    EXPECT_EQ(b.feature, (ClipFeature2d{-1, 0}));
    EXPECT_TRUE(allNear(a.slavePoint, p2(1, 0.1), kExact));
    EXPECT_TRUE(allNear(b.slavePoint, p2(2, 0.1), kExact));
    EXPECT_TRUE(allNear(a.masterPoint, p2(1, 0), kExact));
    EXPECT_TRUE(allNear(b.masterPoint, p2(2, 0), kExact));
    EXPECT_NEAR(a.xiSlave, -1.0, kExact);
    EXPECT_NEAR(b.xiSlave, 0.0, kExact);
    EXPECT_NEAR(a.xiMaster, 0.0, kExact);
    EXPECT_EQ(b.xiMaster, -1.0);
    EXPECT_NEAR(a.gap, 0.1, kExact);
    EXPECT_NEAR(b.gap, 0.1, kExact);
    EXPECT_TRUE(allNear(c.xiSlaveRange, Vector2d(-1, 0), kExact));
    EXPECT_TRUE(allNear(c.xiMasterRange, Vector2d(0, -1), kExact));
}

TEST(Clip2d, CrossingAtAnAngle) {
    // Slave from (0.5, 0.2) to (1.5, -0.2) crosses the master: gaps 0.2 and -0.2 (penetration),
    // both slave ends inside the side planes.
    const SegmentClip2d c =
        clipSegments2d(slaveLine(p2(0.5, 0.2), p2(1.5, -0.2)), masterLine(0, 2), 1.0);
    ASSERT_EQ(c.status, ClipStatus::kOverlap);
    ASSERT_EQ(c.pointCount, 2);
    EXPECT_TRUE(c.facing);
    EXPECT_NEAR(c.points[0].gap, 0.2, kExact);
    EXPECT_NEAR(c.points[1].gap, -0.2, kExact);
    EXPECT_EQ(c.points[0].feature, (ClipFeature2d{0, -1}));
    EXPECT_EQ(c.points[1].feature, (ClipFeature2d{1, -1}));
    EXPECT_NEAR(c.points[0].xiMaster, 0.5, kExact);
    EXPECT_NEAR(c.points[1].xiMaster, -0.5, kExact);
    EXPECT_NEAR(c.overlapLength, 1.0, kExact);
    EXPECT_NEAR(c.slaveOverlapLength, std::sqrt(1.0 + 0.16), kExact);
}

TEST(Clip2d, SlaveLongerThanMasterOnBothSidesIsClippedTwice) {
    // Parallel: overlap = the whole master, both points made by side planes.
    {
        const SegmentClip2d c =
            clipSegments2d(slaveLine(p2(-1, 0.1), p2(3, 0.1)), masterLine(0, 2), 1.0);
        ASSERT_EQ(c.status, ClipStatus::kOverlap);
        ASSERT_EQ(c.pointCount, 2);
        EXPECT_EQ(c.points[0].feature, (ClipFeature2d{-1, 1}));  // x = 0: master end node 1
        EXPECT_EQ(c.points[1].feature, (ClipFeature2d{-1, 0}));  // x = 2: master end node 0
        EXPECT_EQ(c.points[0].xiMaster, 1.0);
        EXPECT_EQ(c.points[1].xiMaster, -1.0);
        EXPECT_NEAR(c.points[0].xiSlave, -0.5, kExact);
        EXPECT_NEAR(c.points[1].xiSlave, 0.5, kExact);
        EXPECT_NEAR(c.overlapLength, 2.0, kExact);
        EXPECT_NEAR(c.slaveOverlapLength, 2.0, kExact);
    }
    // Crossing: x(t) = 1 + 1.5 t, y(t) = -0.3 t; cut at x = 0 (t = -2/3) and x = 2 (t = 2/3).
    {
        const SegmentClip2d c =
            clipSegments2d(slaveLine(p2(-0.5, 0.3), p2(2.5, -0.3)), masterLine(0, 2), 1.0);
        ASSERT_EQ(c.pointCount, 2);
        EXPECT_NEAR(c.points[0].xiSlave, -2.0 / 3.0, kExact);
        EXPECT_NEAR(c.points[1].xiSlave, 2.0 / 3.0, kExact);
        EXPECT_NEAR(c.points[0].gap, 0.2, kExact);
        EXPECT_NEAR(c.points[1].gap, -0.2, kExact);
        EXPECT_NEAR(c.overlapLength, 2.0, kExact);
        EXPECT_NEAR(c.slaveOverlapLength, 2.0 * std::sqrt(1.0 + 0.04), kExact);
    }
}

TEST(Clip2d, DisjointInProjectionOrTouchingAtAPointIsNoOverlap) {
    const SegmentNodes m = masterLine(0, 2);
    for (const auto& s : {slaveLine(p2(2.5, 0.1), p2(3.5, 0.1)),  // beyond end node 0
                          slaveLine(p2(-3, 0.1), p2(-1, 0.1)),    // beyond end node 1
                          slaveLine(p2(2, 0.1), p2(3, 0.1)),      // touching x = 2
                          slaveLine(p2(-1, 0.1), p2(0, -0.1)),    // touching x = 0, crossing
                          slaveLine(p2(1, 0.5), p2(1, -0.5))}) {  // perpendicular: zero length
        SCOPED_TRACE(::testing::Message() << s.x[0].transpose() << " -> " << s.x[1].transpose());
        const SegmentClip2d c = clipSegments2d(s, m, 10.0);
        EXPECT_EQ(c.status, ClipStatus::kNoOverlap);
        EXPECT_EQ(c.pointCount, 0);
        EXPECT_EQ(c.overlapLength, 0.0);
    }
}

TEST(Clip2d, CaptureKeepsOnlyPointsWithinTheCaptureDistance) {
    const SegmentNodes s = slaveLine(p2(0.5, 0.05), p2(1.5, 0.5));
    const SegmentNodes m = masterLine(0, 2);
    const SegmentClip2d one = clipSegments2d(s, m, 0.1);
    ASSERT_EQ(one.status, ClipStatus::kOverlap);
    ASSERT_EQ(one.pointCount, 1);
    EXPECT_EQ(one.points[0].feature, (ClipFeature2d{0, -1}));
    EXPECT_NEAR(one.points[0].gap, 0.05, kExact);
    const SegmentClip2d none = clipSegments2d(s, m, 0.01);
    EXPECT_EQ(none.status, ClipStatus::kBeyondCapture);
    EXPECT_EQ(none.pointCount, 0);
    EXPECT_NEAR(none.overlapLength, 1.0, kExact);  // the geometry is still reported
    // Exactly at the capture distance counts (gap <= capture).
    const SegmentClip2d edge = clipSegments2d(s, m, 0.5);
    EXPECT_EQ(edge.pointCount, 2);
}

TEST(Clip2d, ReversedSlaveIsClippedTheSameAndFlaggedNotFacing) {
    // Slave normal along the master normal (+y): the same geometry, facing = false.
    const SegmentNodes m = masterLine(0, 2);
    const SegmentClip2d f = clipSegments2d(slaveLine(p2(1, 0.1), p2(3, 0.1)), m, 1.0);
    const SegmentClip2d r = clipSegments2d(slaveLine(p2(3, 0.1), p2(1, 0.1)), m, 1.0);
    ASSERT_EQ(r.status, ClipStatus::kOverlap);
    EXPECT_FALSE(r.facing);
    EXPECT_NEAR(r.overlapLength, f.overlapLength, kExact);
    ASSERT_EQ(r.pointCount, 2);
    // Ordered by the slave's own coordinate: the cut end (x = 2) comes first now.
    EXPECT_EQ(r.points[0].feature, (ClipFeature2d{-1, 0}));
    EXPECT_EQ(r.points[1].feature, (ClipFeature2d{1, -1}));
    EXPECT_NEAR(r.points[0].gap, 0.1, kExact);
}

TEST(Clip2d, DegenerateInputs) {
    const SegmentNodes m = masterLine(0, 2);
    EXPECT_EQ(clipSegments2d(slaveLine(p2(1, 0.1), p2(1, 0.1)), m, 1.0).status,
              ClipStatus::kDegenerate);
    EXPECT_EQ(clipSegments2d(slaveLine(p2(1, 0.1), p2(2, 0.1)), slaveLine(p2(1, 0), p2(1, 0)), 1.0)
                  .status,
              ClipStatus::kDegenerate);
    EXPECT_EQ(clipSegments2d(slaveLine(p2(1, 0.1), p2(std::nan(""), 0.1)), m, 1.0).status,
              ClipStatus::kDegenerate);
    EXPECT_EQ(clipSegments2d(square(0, 0, 1, 1, 0, false), m, 1.0).status, ClipStatus::kDegenerate);
}

// ---------------------------------------------------------------------------------------------
// 2D feature ids and rigid motion.

// A random Line2/Line3 master (an arc of ~0.5 rad on a unit circle, outward normal) and a facing
// slave at a small gap, shifted along the master so that some ends are cut and some not.
struct LinePair {
    SegmentNodes slave;
    SegmentNodes master;
};

LinePair randomLinePair(SegmentType st, SegmentType mt, std::mt19937& rng) {
    const double half = uniform(rng, 0.2, 0.35);  // master half angle
    const double r = 1.0;
    const double g = uniform(rng, -0.03, 0.08);
    const double a0 = uniform(rng, -2.2, 0.6) * half;  // slave angles (decreasing: facing)
    const double a1 = a0 + uniform(rng, 0.6, 1.6) * half;
    const auto on = [](double radius, double a) {
        return p2(radius * std::cos(a), radius * std::sin(a));
    };
    LinePair p;
    p.master = mt == SegmentType::Line2 ? makeSegment(mt, {on(r, -half), on(r, half)})
                                        : makeSegment(mt, {on(r, -half), on(r, half), on(r, 0.0)});
    p.slave = st == SegmentType::Line2
                  ? makeSegment(st, {on(r + g, a1), on(r + g, a0)})
                  : makeSegment(st, {on(r + g, a1), on(r + g, a0), on(r + g, 0.5 * (a0 + a1))});
    const Matrix3d R = testing::randomRotation(rng, true);
    const Vector3d t(uniform(rng, -3, 3), uniform(rng, -3, 3), 0.0);
    p.master = testing::transformed(p.master, R, t);
    p.slave = testing::transformed(p.slave, R, t);
    return p;
}

// Smallest distance of the slave's ends to the master's side planes (end normals), relative.
double sideMargin(const LinePair& p) {
    double margin = 1e300;
    for (int k = 0; k < 2; ++k) {
        const SegmentFrame f = segmentFrame(p.master, Vector2d(k == 0 ? -1.0 : 1.0, 0.0));
        for (int j = 0; j < 2; ++j) {
            margin = std::min(margin, std::abs((p.slave.x[j] - f.point).dot(f.tangent1)));
        }
    }
    return margin / characteristicSize(p.master);
}

TEST(Clip2d, FeatureIdsAreStableUnderSmallMotion) {
    // Same topology (no slave end crossing a side plane): same ids, same count, after moving the
    // slave by up to 1e-3 of its size and rotating it by 0.05 degrees.
    std::mt19937 rng(501);
    int checked = 0;
    int cut = 0;
    for (int i = 0; i < 400; ++i) {
        const SegmentType st = i % 2 == 0 ? SegmentType::Line2 : SegmentType::Line3;
        const SegmentType mt = (i / 2) % 2 == 0 ? SegmentType::Line2 : SegmentType::Line3;
        const LinePair p = randomLinePair(st, mt, rng);
        if (sideMargin(p) < 0.02) {
            continue;  // an end near a side plane: a small motion may change the topology
        }
        SCOPED_TRACE("seed 501, case " + std::to_string(i));
        const SegmentClip2d before = clipSegments2d(p.slave, p.master, 1.0);
        if (before.status != ClipStatus::kOverlap) {
            continue;
        }
        const double L = characteristicSize(p.slave);
        const Vector3d c = centreOf(p.slave);
        const Matrix3d R = Eigen::AngleAxisd(uniform(rng, -0.05, 0.05) * kDeg, Vector3d::UnitZ())
                               .toRotationMatrix();
        const Vector3d d = 1e-3 * L * testing::randomUnitVector(rng, true);
        const SegmentNodes moved = testing::transformed(p.slave, R, c - R * c + d);
        const SegmentClip2d after = clipSegments2d(moved, p.master, 1.0);
        ASSERT_EQ(after.status, ClipStatus::kOverlap);
        ASSERT_EQ(after.pointCount, before.pointCount);
        for (int k = 0; k < before.pointCount; ++k) {
            EXPECT_EQ(after.points[k].feature, before.points[k].feature);
            cut += before.points[k].feature.masterSide >= 0 ? 1 : 0;
        }
        ++checked;
    }
    EXPECT_GT(checked, 150);
    EXPECT_GT(cut, 50);  // both kinds of feature were exercised
}

TEST(Clip2d, FeatureIdsChangeWhenTheSlaveSlidesPastAMasterEnd) {
    // The ids mean something: sliding the slave's end past master end node 0 turns "slave end 1"
    // into "cut by master side 0".
    const SegmentNodes m = masterLine(0, 2);
    const SegmentClip2d inside = clipSegments2d(slaveLine(p2(0.5, 0.1), p2(1.9, 0.1)), m, 1.0);
    const SegmentClip2d past = clipSegments2d(slaveLine(p2(0.7, 0.1), p2(2.1, 0.1)), m, 1.0);
    ASSERT_EQ(inside.pointCount, 2);
    ASSERT_EQ(past.pointCount, 2);
    EXPECT_EQ(inside.points[0].feature, past.points[0].feature);
    EXPECT_EQ(inside.points[1].feature, (ClipFeature2d{1, -1}));
    EXPECT_EQ(past.points[1].feature, (ClipFeature2d{-1, 0}));
}

TEST(Clip2d, SlaveEndOnAMasterEndKeepsItsSlaveFeature) {
    // Matching meshes: the slave end sits on the side plane (within rounding) and stays a slave
    // end (kClipMergeRel band), so ids do not flicker with the rounding of the coordinates.
    const SegmentNodes m = masterLine(0, 2);
    for (const double wobble : {0.0, 1e-14, -1e-14}) {
        const SegmentClip2d c =
            clipSegments2d(slaveLine(p2(0.0 + wobble, 0.1), p2(2.0 - wobble, 0.1)), m, 1.0);
        ASSERT_EQ(c.pointCount, 2);
        EXPECT_EQ(c.points[0].feature, (ClipFeature2d{0, -1}));
        EXPECT_EQ(c.points[1].feature, (ClipFeature2d{1, -1}));
    }
}

TEST(Clip2d, RigidMotionChangesNothing) {
    std::mt19937 rng(502);
    for (int i = 0; i < 100; ++i) {
        SCOPED_TRACE("seed 502, case " + std::to_string(i));
        const LinePair p =
            randomLinePair(i % 2 == 0 ? SegmentType::Line2 : SegmentType::Line3,
                           (i / 2) % 2 == 0 ? SegmentType::Line2 : SegmentType::Line3, rng);
        const Matrix3d R = testing::randomRotation(rng, true);
        const Vector3d t(1e3, -2e3, 0.0);
        const SegmentClip2d a = clipSegments2d(p.slave, p.master, 1.0);
        const SegmentClip2d b = clipSegments2d(testing::transformed(p.slave, R, t),
                                               testing::transformed(p.master, R, t), 1.0);
        ASSERT_EQ(a.status, b.status);
        ASSERT_EQ(a.pointCount, b.pointCount);
        // Coordinates ~2e3 round to ~5e-13; the kernel shifts them to the master first.
        EXPECT_NEAR(a.overlapLength, b.overlapLength, 1e-11);
        for (int k = 0; k < a.pointCount; ++k) {
            EXPECT_EQ(a.points[k].feature, b.points[k].feature);
            EXPECT_NEAR(a.points[k].gap, b.points[k].gap, 1e-11);
            EXPECT_NEAR(a.points[k].xiMaster, b.points[k].xiMaster, 1e-9);
            EXPECT_TRUE(allNear(R * a.points[k].slavePoint + t, b.points[k].slavePoint, 1e-11));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2D curved masters: against dense sampling with closestPoint.

TEST(Clip2d, CurvedLine3MasterMatchesDenseSampling) {
    // The overlap is the slave part whose projections fall inside the master (|xi_m| < 1):
    // sample the slave at N points, project each with closestPoint, and compare the first and
    // last inside samples with the kernel's range (to one spacing), and the master arc length
    // between their projections (a 4000-chord sum) with overlapLength.
    std::mt19937 rng(503);
    constexpr int kSamples = 2000;
    int compared = 0;
    double worstRange = 0.0;
    double worstLength = 0.0;
    for (int i = 0; i < 40; ++i) {
        const SegmentType st = i % 2 == 0 ? SegmentType::Line2 : SegmentType::Line3;
        const LinePair p = randomLinePair(st, SegmentType::Line3, rng);
        SCOPED_TRACE("seed 503, case " + std::to_string(i));
        const SegmentClip2d c = clipSegments2d(p.slave, p.master, 1.0);
        int first = -1;
        int last = -1;
        std::array<double, 2> xiM{};
        for (int k = 0; k <= kSamples; ++k) {
            const double t = -1.0 + 2.0 * k / kSamples;
            const Projection pr = closestPoint(p.master, position(p.slave, Vector2d(t, 0)));
            if (std::abs(pr.xi.x()) < 1.0 - 1e-9) {
                if (first < 0) {
                    first = k;
                    xiM[0] = pr.xi.x();
                }
                last = k;
                xiM[1] = pr.xi.x();
            }
        }
        const double h = 2.0 / kSamples;
        // Each end may move by one slave spacing, |x_s'| h, which maps to at most as much on the
        // master (the slave lies outside a convex master: projection shrinks); chords: O(1e-8).
        double speed = 0.0;
        for (int k = 0; k <= 20; ++k) {
            speed = std::max(speed, segmentFrame(p.slave, Vector2d(-1.0 + 0.1 * k, 0)).jacobian);
        }
        const double allowed = 2.0 * speed * h + 1e-7;
        if (first < 0) {
            EXPECT_LE(c.overlapLength, allowed) << "sampling found no overlap";
            continue;
        }
        ASSERT_EQ(c.status, ClipStatus::kOverlap);
        const double tFirst = -1.0 + first * h;
        const double tLast = -1.0 + last * h;
        // The true ends lie within one spacing outside the first / last inside sample.
        EXPECT_LE(c.xiSlaveRange[0], tFirst + 1e-12);
        EXPECT_GE(c.xiSlaveRange[0], tFirst - h - 1e-12);
        EXPECT_GE(c.xiSlaveRange[1], tLast - 1e-12);
        EXPECT_LE(c.xiSlaveRange[1], tLast + h + 1e-12);
        worstRange = std::max({worstRange, tFirst - c.xiSlaveRange[0], c.xiSlaveRange[1] - tLast});
        // Arc length on the master between the sampled projections, by chords.
        double chordSum = 0.0;
        constexpr int kChords = 4000;
        for (int k = 0; k < kChords; ++k) {
            const double a = xiM[0] + (xiM[1] - xiM[0]) * k / kChords;
            const double b = xiM[0] + (xiM[1] - xiM[0]) * (k + 1) / kChords;
            chordSum +=
                (position(p.master, Vector2d(b, 0)) - position(p.master, Vector2d(a, 0))).norm();
        }
        EXPECT_GE(c.overlapLength, chordSum - 1e-7);
        EXPECT_LE(c.overlapLength, chordSum + allowed);
        worstLength = std::max(worstLength, std::abs(c.overlapLength - chordSum));
        // A cut end projects onto the master's end exactly.
        for (int k = 0; k < c.pointCount; ++k) {
            const ClipPoint2d& q = c.points[k];
            const Projection pr = closestPoint(p.master, q.slavePoint);
            EXPECT_NEAR(pr.xi.x(), q.xiMaster, 1e-8);
            EXPECT_NEAR(pr.gap, q.gap, 1e-12);
            if (q.feature.masterSide >= 0) {
                EXPECT_EQ(std::abs(q.xiMaster), 1.0);
            }
        }
        ++compared;
    }
    EXPECT_GT(compared, 20);
    record("worst_range_error", worstRange);
    record("worst_length_error", worstLength);
}

// ---------------------------------------------------------------------------------------------
// 2D sums over whole curves.

struct CurvePair {
    testing::Mesh mesh;
    Surface slave;
    Surface master;
};

// Sum over all (slave, master) pairs of the overlap length along the master (and along the
// slave). Brute force over all pairs; every pair that overlaps must be kOverlap.
struct LengthSums {
    double master = 0.0;
    double slave = 0.0;
    int overlapping = 0;
};

LengthSums sumLengths(const CurvePair& c, double capture) {
    const Eigen::Matrix3Xd x = c.mesh.coords3();
    LengthSums sum;
    for (Index s = 0; s < c.slave.size(); ++s) {
        for (Index m = 0; m < c.master.size(); ++m) {
            const SegmentClip2d r = clipSegments2d(gatherSegment(c.slave, s, x),
                                                   gatherSegment(c.master, m, x), capture);
            EXPECT_NE(r.status, ClipStatus::kDegenerate);
            if (r.status == ClipStatus::kOverlap) {
                sum.master += r.overlapLength;
                sum.slave += r.slaveOverlapLength;
                ++sum.overlapping;
            }
        }
    }
    return sum;
}

TEST(Clip2dSums, FlatNonMatchingAndTiltedCurves) {
    // Master: 7 segments on x in [0.3, 1.3] (normal +y). Slave: 5 segments of length 1/5 from
    // (0, g) along angle theta (normal facing down). Measured along the master the facing part is
    // [0.3, cos theta], i.e. cos(theta) - 0.3; along the slave (cos(theta) - 0.3) / cos(theta).
    const double g = 0.05;
    double worst = 0.0;
    for (const SegmentType st : {SegmentType::Line2, SegmentType::Line3}) {
        for (const SegmentType mt : {SegmentType::Line2, SegmentType::Line3}) {
            for (const double deg : {0.0, 1.0, 3.0, -2.0}) {
                SCOPED_TRACE(std::string(segmentTypeName(st)) + " vs " + segmentTypeName(mt) +
                             ", tilt " + std::to_string(deg));
                const double th = deg * kDeg;
                CurvePair c;
                c.master = testing::addCurve(
                    c.mesh, mt, 7, [](double u) { return Vector2d(0.3 + u, 0.0); }, true, "m");
                c.slave = testing::addCurve(
                    c.mesh, st, 5,
                    [&](double u) { return Vector2d(u * std::cos(th), g + u * std::sin(th)); },
                    false, "s");
                const LengthSums sum = sumLengths(c, 1.0);
                EXPECT_NEAR(sum.master, std::cos(th) - 0.3, 1e-13);
                EXPECT_NEAR(sum.slave, (std::cos(th) - 0.3) / std::cos(th), 1e-13);
                worst = std::max({worst, std::abs(sum.master - (std::cos(th) - 0.3)),
                                  std::abs(sum.slave - (std::cos(th) - 0.3) / std::cos(th))});
                EXPECT_GE(sum.overlapping, 5);
            }
        }
    }
    record("worst_sum_error", worst);
}

TEST(Clip2dSums, CurvedArcsWithinTheDerivedDiscretisationError) {
    // Master: nm elements on a circle of radius R over [0, 1] rad (outward normal); slave: ns
    // elements at radius R + g over [0.2, 0.8] rad (inward normal). The exact facing length on
    // the master circle is R * 0.6. Measured along the master, a slave point between the end
    // normals of two adjacent master elements maps to their shared node, so the sum is the master
    // arc length between the projections of the slave's two boundary points, whatever the slave
    // mesh. With phi = 1 / nm the element angle:
    //   Line3 master (parabolas through 3 circle points; constants checked numerically):
    //     arc length per element: relative error phi^4 / 980 (bounded by phi^4 / 500 here),
    //     end-normal direction error phi^3 / 32, so each boundary projection moves by at most
    //     g phi^3 / 16 along the master, plus a partial element's share of its length error:
    //     |sum - 0.6 R| <= 0.6 R phi^4 / 500 + 2 (R phi^5 / 500 + g phi^3 / 16).
    //   Line2 master (chords): chord vs arc R phi^3 / 24 per element; a boundary point at radius
    //     R + g, angle d <= phi from the chord's middle, lands at (R + g) sin d instead of R d:
    //     |sum - 0.6 R| <= 0.6 R phi^2 / 24 + 2 (g phi + R phi^3 / 24).
    const double R = 1.0;
    const double g = 0.02;
    for (const SegmentType mt : {SegmentType::Line3, SegmentType::Line2}) {
        for (const SegmentType st : {SegmentType::Line3, SegmentType::Line2}) {
            for (const int nm : {6, 12, 24}) {
                const int ns = nm * 2 / 3 + 1;
                SCOPED_TRACE(std::string(segmentTypeName(st)) + " vs " + segmentTypeName(mt) +
                             ", " + std::to_string(nm) + " master elements");
                CurvePair c;
                c.master = testing::addCurve(
                    c.mesh, mt, nm,
                    [&](double u) { return Vector2d(R * std::cos(u), R * std::sin(u)); }, false,
                    "m");
                c.slave = testing::addCurve(
                    c.mesh, st, ns,
                    [&](double u) {
                        const double a = 0.2 + 0.6 * u;
                        return Vector2d((R + g) * std::cos(a), (R + g) * std::sin(a));
                    },
                    true, "s");
                const LengthSums sum = sumLengths(c, 1.0);
                const double phi = 1.0 / nm;
                const double bound =
                    mt == SegmentType::Line3
                        ? 0.6 * R * std::pow(phi, 4) / 500 +
                              2 * (R * std::pow(phi, 5) / 500 + g * std::pow(phi, 3) / 16)
                        : 0.6 * R * phi * phi / 24 + 2 * (g * phi + R * std::pow(phi, 3) / 24);
                const double err = std::abs(sum.master - 0.6 * R);
                EXPECT_LE(err, bound + 1e-13) << "sum " << sum.master;
                record(std::string("err_") + segmentTypeName(st) + "_" + segmentTypeName(mt) + "_" +
                           std::to_string(nm),
                       err);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3D named cases.

TEST(Clip3d, IdenticalFacesOverlapOverTheWholeFace) {
    std::mt19937 rng(511);
    for (const SegmentType t : {SegmentType::Tri3, SegmentType::Quad4, SegmentType::Tri6,
                                SegmentType::Quad8, SegmentType::Quad9}) {
        for (int i = 0; i < 10; ++i) {
            testing::RandomSegmentOptions o;
            o.warp = 0.0;
            o.curvature = 0.0;
            const SegmentNodes m = randomSegment(t, rng, o);
            for (const bool flip : {true, false}) {  // facing copy, then same orientation
                const SegmentNodes s = flip ? reversedFace(m) : m;
                for (const ClipPlane plane : kPlanes) {
                    SCOPED_TRACE(std::string(segmentTypeName(t)) + " case " + std::to_string(i) +
                                 (flip ? " facing " : " same orientation ") + planeName(plane));
                    const OverlapPolygon p = clipSegments3d(s, m, {plane});
                    expectValidPolygon(p, s, m);
                    EXPECT_EQ(p.facing, flip);
                    EXPECT_EQ(p.count, cornerCount(t));
                    EXPECT_NEAR(p.area, projectedCornerArea(m, p.normal), 1e-13);
                    for (int k = 0; k < p.count; ++k) {
                        EXPECT_NEAR(p.vertices[k].gap, 0.0, 1e-13);
                    }
                }
            }
        }
    }
}

TEST(Clip3d, SlaveInsideMasterGivesTheSlaveArea) {
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    const SegmentNodes s = square(0.2, 0.1, 0.7, 0.6, 0.05, false);
    for (const ClipPlane plane : kPlanes) {
        SCOPED_TRACE(planeName(plane));
        const OverlapPolygon p = clipSegments3d(s, m, {plane});
        expectValidPolygon(p, s, m);
        EXPECT_EQ(p.count, 4);
        EXPECT_NEAR(p.area, 0.25, kExact);
        EXPECT_TRUE(allNear(
            p.centroid, Vector3d(0.45, 0.35, plane == ClipPlane::kMaster ? 0.0 : 0.025), kExact));
        for (int k = 0; k < p.count; ++k) {
            EXPECT_NEAR(p.vertices[k].gap, 0.05, kExact);
        }
    }
    // Master inside slave: the master's area (Tri3 master in a large quad slave).
    const SegmentNodes tri = makeSegment(
        SegmentType::Tri3, {Vector3d(0.2, 0.2, 0), Vector3d(0.8, 0.3, 0), Vector3d(0.4, 0.9, 0)});
    const OverlapPolygon q = clipSegments3d(square(-1, -1, 2, 2, -0.1, false), tri);
    expectValidPolygon(q, square(-1, -1, 2, 2, -0.1, false), tri);
    EXPECT_EQ(q.count, 3);
    EXPECT_NEAR(q.area, 0.5 * (0.6 * 0.7 - 0.2 * 0.1), kExact);
}

TEST(Clip3d, SharedEdgesAndCornersAreNoOverlap) {
    // Touching along an edge or at a corner: area 0, status no overlap, no polygon.
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    for (const auto& s : {square(1, 0, 2, 1, 0, false), square(1, 1, 2, 2, 0, false),
                          square(-1, 0.2, 0, 0.7, 0.01, false), square(0, 1, 1, 2, -0.01, false),
                          square(1 + 1e-13, 0, 2, 1, 0, false),
                          square(1 - 1e-13, 0, 2, 1, 0, false), square(2, 2, 3, 3, 0, false)}) {
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE(::testing::Message()
                         << "slave from " << s.x[0].transpose() << ", " << planeName(plane));
            const OverlapPolygon p = clipSegments3d(s, m, {plane});
            EXPECT_EQ(p.status, ClipStatus::kNoOverlap);
            EXPECT_EQ(p.count, 0);
            EXPECT_EQ(p.area, 0.0);
        }
    }
}

TEST(Clip3d, SharedEdgeLinesAndCollinearVerticesGiveNoDuplicates) {
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    struct Case {
        const char* name;
        SegmentNodes slave;
        double area;
        int count;
    };
    const auto tri = [](Vector3d a, Vector3d b, Vector3d c) {
        return makeSegment(SegmentType::Tri3, {a, c, b});  // listed counter-clockwise from +z
    };
    const auto quad = [](Vector3d a, Vector3d b, Vector3d c, Vector3d d) {
        return makeSegment(SegmentType::Quad4, {a, d, c, b});
    };
    const double z = 0.02;
    const std::vector<Case> cases = {
        {"half overlap, two edges on master edges", square(0.5, 0, 1.5, 1, z, false), 0.5, 4},
        {"diamond with corners on the master's edges",
         quad({0.5, 0, z}, {1, 0.5, z}, {0.5, 1, z}, {0, 0.5, z}), 0.5, 4},
        {"diamond whose edges pass through the master's corners",
         quad({0.5, -0.5, z}, {1.5, 0.5, z}, {0.5, 1.5, z}, {-0.5, 0.5, z}), 1.0, 4},
        {"triangle on the diagonal", tri({0, 0, z}, {1, 0, z}, {1, 1, z}), 0.5, 3},
        {"triangle whose long edge touches a master corner",
         tri({0.5, 0.5, z}, {1.5, 0.5, z}, {0.5, 1.5, z}), 0.25, 4},
        {"quad with three collinear corners", quad({0, 0, z}, {1, 0, z}, {1, 1, z}, {0.5, 0.5, z}),
         0.5, 3},
        {"identical square", square(0, 0, 1, 1, z, false), 1.0, 4},
        {"slave covering the master", square(-1, -1, 2, 2, z, false), 1.0, 4},
        {"strip across, edges collinear with two master edges", square(-0.5, 0, 1.5, 0.5, z, false),
         0.5, 4},
    };
    for (const Case& c : cases) {
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE(std::string(c.name) + ", " + planeName(plane));
            const OverlapPolygon p = clipSegments3d(c.slave, m, {plane});
            expectValidPolygon(p, c.slave, m);
            EXPECT_NEAR(p.area, c.area, kExact);
            EXPECT_EQ(p.count, c.count);
            for (int k = 0; k < p.count; ++k) {
                EXPECT_NEAR(p.vertices[k].gap, z, kExact);
            }
        }
    }
}

TEST(Clip3d, ReversedSlaveIsClippedTheSameAndFlaggedNotFacing) {
    // Documented rule: the overlap is a property of the projected shapes, so a slave whose normal
    // points along the master's gives the same polygon; facing = false tells the caller. With the
    // common plane, the plane is the average of the two face planes in both cases.
    std::mt19937 rng(512);
    for (int i = 0; i < 40; ++i) {
        testing::RandomSegmentOptions o;
        o.offset = 0.0;
        o.warp = 0.0;
        o.curvature = 0.0;
        const SegmentType mt = i % 2 == 0 ? SegmentType::Quad4 : SegmentType::Tri3;
        const SegmentType st = (i / 2) % 2 == 0 ? SegmentType::Quad4 : SegmentType::Tri3;
        const SegmentNodes m = randomSegment(mt, rng, o);
        SegmentNodes s = randomSegment(st, rng, o);
        // Put the slave facing the master, tilted by up to 5 degrees, shifted in plane.
        const SegmentFrame fm = segmentFrame(m, referenceCentre(mt));
        const Vector3d target =
            Eigen::AngleAxisd(uniform(rng, -5, 5) * kDeg, fm.tangent1) * (-fm.normal);
        const Matrix3d R =
            Eigen::Quaterniond::FromTwoVectors(outwardNormal(s, referenceCentre(st)), target)
                .toRotationMatrix();
        s = testing::transformed(s, R, Vector3d::Zero());
        s = testing::transformed(s, Matrix3d::Identity(),
                                 fm.point + 0.3 * fm.tangent2 + 0.05 * fm.normal - centreOf(s));
        const SegmentNodes r = reversedFace(s);
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE("seed 512, case " + std::to_string(i) + ", " + planeName(plane));
            const OverlapPolygon a = clipSegments3d(s, m, {plane});
            const OverlapPolygon b = clipSegments3d(r, m, {plane});
            ASSERT_EQ(a.status, b.status);
            EXPECT_TRUE(a.facing);
            EXPECT_FALSE(b.facing);
            EXPECT_TRUE(allNear(a.normal, b.normal, 1e-14));
            EXPECT_TRUE(allNear(a.normal, expectedPlaneNormal(s, m, plane), 1e-14));
            EXPECT_NEAR(a.area, b.area, 1e-13);
            EXPECT_EQ(a.count, b.count);
            if (b.status == ClipStatus::kOverlap) {
                expectValidPolygon(b, r, m);
            }
        }
    }
}

TEST(Clip3d, DegenerateInputs) {
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    SegmentNodes collapsed = square(0, 0, 1, 1, 0.1, false);
    for (int i = 0; i < 4; ++i) {
        collapsed.x[i] = Vector3d(0.5, 0.5, 0.1);
    }
    EXPECT_EQ(clipSegments3d(collapsed, m).status, ClipStatus::kDegenerate);
    EXPECT_EQ(clipSegments3d(m, collapsed).status, ClipStatus::kDegenerate);
    SegmentNodes nan = square(0, 0, 1, 1, 0.1, false);
    nan.x[2].x() = std::nan("");
    EXPECT_EQ(clipSegments3d(nan, m).status, ClipStatus::kDegenerate);
    EXPECT_EQ(clipSegments3d(masterLine(0, 1), m).status, ClipStatus::kDegenerate);
    // A non-convex (dart) master cannot be a Sutherland-Hodgman clip polygon.
    const SegmentNodes dart =
        makeSegment(SegmentType::Quad4, {Vector3d(0, 0, 0), Vector3d(1, 0.5, 0), Vector3d(0, 1, 0),
                                         Vector3d(0.6, 0.5, 0)});
    EXPECT_EQ(clipSegments3d(square(0, 0, 1, 1, 0.1, false), dart).status, ClipStatus::kDegenerate);
    // A slave edge-on to the master plane faces it over no area.
    const SegmentNodes edgeOn =
        makeSegment(SegmentType::Quad4, {Vector3d(0.2, 0.5, 0), Vector3d(0.8, 0.5, 0),
                                         Vector3d(0.8, 0.5, 1), Vector3d(0.2, 0.5, 1)});
    const OverlapPolygon p = clipSegments3d(edgeOn, m);
    EXPECT_EQ(p.status, ClipStatus::kNoOverlap);
    EXPECT_EQ(p.area, 0.0);
}

TEST(Clip3d, RigidMotionChangesNothing) {
    std::mt19937 rng(513);
    for (int i = 0; i < 60; ++i) {
        const SegmentNodes m = square(0, 0, 1, 1, 0, true);
        const SegmentNodes s = testing::transformed(
            square(0, 0, 1, 1, 0, false),
            Eigen::AngleAxisd(uniform(rng, -0.3, 0.3), Vector3d::UnitZ()).toRotationMatrix(),
            Vector3d(uniform(rng, -0.6, 0.6), uniform(rng, -0.6, 0.6), uniform(rng, -0.1, 0.1)));
        const Matrix3d R = testing::randomRotation(rng);
        const Vector3d t(1e3, -5e2, 2e3);
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE("seed 513, case " + std::to_string(i) + ", " + planeName(plane));
            const OverlapPolygon a = clipSegments3d(s, m, {plane});
            const OverlapPolygon b = clipSegments3d(testing::transformed(s, R, t),
                                                    testing::transformed(m, R, t), {plane});
            ASSERT_EQ(a.status, b.status);
            ASSERT_EQ(a.count, b.count);
            // Coordinates of 2e3 carry ~5e-13 of rounding into the input.
            EXPECT_NEAR(a.area, b.area, 1e-11);
            EXPECT_TRUE(allNear(R * a.centroid + t, b.centroid, 1e-10));
            double gapMinA = 1e300;
            double gapMinB = 1e300;
            for (int k = 0; k < a.count; ++k) {
                gapMinA = std::min(gapMinA, a.vertices[k].gap);
                gapMinB = std::min(gapMinB, b.vertices[k].gap);
            }
            EXPECT_NEAR(gapMinA, gapMinB, 1e-10);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3D: random pairs against the sampling oracle.

// A facing (or reversed) slave near a random master: tilted by up to tiltDeg, shifted in plane
// by up to 0.6 of the size (partial overlaps), at a gap in [-0.1, 0.1].
struct FacePair {
    SegmentNodes slave;
    SegmentNodes master;
};

FacePair randomFacePair(SegmentType st, SegmentType mt, std::mt19937& rng, double tiltDeg,
                        bool reversed) {
    testing::RandomSegmentOptions o;
    o.offset = 2.0;
    o.warp = 0.05;
    o.curvature = 0.1;
    FacePair p;
    p.master = testing::randomSegment(mt, rng, o);
    SegmentNodes s = testing::randomSegment(st, rng, o);
    const SegmentFrame fm = segmentFrame(p.master, referenceCentre(mt));
    const Vector3d axis =
        std::cos(uniform(rng, 0, kPi)) * fm.tangent1 + std::sin(uniform(rng, 0, kPi)) * fm.tangent2;
    const Vector3d target =
        Eigen::AngleAxisd(uniform(rng, -tiltDeg, tiltDeg) * kDeg, axis.normalized()) *
        (reversed ? fm.normal : Vector3d(-fm.normal));
    const Matrix3d R =
        Eigen::AngleAxisd(uniform(rng, -kPi, kPi), target) *
        Eigen::Quaterniond::FromTwoVectors(outwardNormal(s, referenceCentre(st)), target)
            .toRotationMatrix();
    s = testing::transformed(s, R, Vector3d::Zero());
    const double size = characteristicSize(p.master);
    const Vector3d shift = uniform(rng, -0.6, 0.6) * size * fm.tangent1 +
                           uniform(rng, -0.6, 0.6) * size * fm.tangent2 +
                           uniform(rng, -0.1, 0.1) * size * fm.normal;
    p.slave = testing::transformed(s, Matrix3d::Identity(), fm.point + shift - centreOf(s));
    return p;
}

constexpr std::array<SegmentType, 5> kFaceTypes = {SegmentType::Tri3, SegmentType::Tri6,
                                                   SegmentType::Quad4, SegmentType::Quad8,
                                                   SegmentType::Quad9};

// xi inside the reference domain by more than the back-projection's rounding.
bool strictlyInside(SegmentType t, const Vector2d& xi) {
    constexpr double kIn = 1e-9;
    if (isTriangle(t)) {
        return xi.minCoeff() > kIn && xi.sum() < 1.0 - kIn;
    }
    return xi.cwiseAbs().maxCoeff() < 1.0 - kIn;
}

TEST(Clip3dOracle, RandomPairsMatchDenseSampling) {
    // Area: within the oracle's sampling error bound. Vertices: valid polygon (gap equals the
    // gap from the local coordinates, xi in the domain, ...), and for linear faces the face
    // points at the local coordinates lie on the line through the vertex along the normal.
    std::mt19937 rng(521);
    int overlaps = 0;
    int cases = 0;
    double worstErr = 0.0;    // |kernel - oracle| / L^2
    double worstBound = 0.0;  // oracle error bound / L^2
    int curvedChecks = 0;     // curved-face vertices checked on their line
    for (const SegmentType st : kFaceTypes) {
        for (const SegmentType mt : kFaceTypes) {
            for (int i = 0; i < 4; ++i) {
                const bool reversed = i == 3;
                const FacePair p = randomFacePair(st, mt, rng, 8.0, reversed);
                for (const ClipPlane plane : kPlanes) {
                    SCOPED_TRACE(std::string("seed 521: ") + segmentTypeName(st) + " on " +
                                 segmentTypeName(mt) + ", case " + std::to_string(i) + ", " +
                                 planeName(plane));
                    const OverlapPolygon poly = clipSegments3d(p.slave, p.master, {plane});
                    ASSERT_NE(poly.status, ClipStatus::kDegenerate);
                    EXPECT_EQ(poly.facing, !reversed);
                    EXPECT_TRUE(
                        allNear(poly.normal, expectedPlaneNormal(p.slave, p.master, plane), 1e-14));
                    const testing::OracleArea ref =
                        testing::oracleOverlapArea(p.slave, p.master, poly.normal, 8, 8);
                    EXPECT_NEAR(poly.area, ref.area, ref.error + 1e-12);
                    ++cases;
                    if (poly.status != ClipStatus::kOverlap) {
                        EXPECT_LE(ref.area, ref.error + 1e-12);
                        continue;
                    }
                    ++overlaps;
                    const double L2 = std::pow(
                        std::max(characteristicSize(p.slave), characteristicSize(p.master)), 2);
                    worstErr = std::max(worstErr, std::abs(poly.area - ref.area) / L2);
                    worstBound = std::max(worstBound, ref.error / L2);
                    expectValidPolygon(poly, p.slave, p.master);
                    // A curved face's point lies on that line too where the back-projection
                    // found it inside the domain (elsewhere the vertex is off the curved face,
                    // and the nearest point of the domain is taken).
                    const auto onLine = [&](const SegmentNodes& f, const Vector2d& xi,
                                            const Vector3d& x) {
                        if (isQuadratic(f.type) && !strictlyInside(f.type, xi)) {
                            return;
                        }
                        curvedChecks += isQuadratic(f.type) ? 1 : 0;
                        EXPECT_LT((position(f, xi) - x).cross(poly.normal).norm(), 1e-11)
                            << segmentTypeName(f.type) << " at " << xi.transpose();
                    };
                    for (int k = 0; k < poly.count; ++k) {
                        const OverlapVertex& v = poly.vertices[k];
                        onLine(p.slave, v.xiSlave, v.point);
                        onLine(p.master, v.xiMaster, v.point);
                    }
                }
            }
        }
    }
    EXPECT_GT(overlaps, cases * 2 / 3);
    EXPECT_GT(curvedChecks, overlaps);
    record("worst_area_error_over_L2", worstErr);
    record("worst_oracle_bound_over_L2", worstBound);
}

// ---------------------------------------------------------------------------------------------
// 3D sums over whole meshes.

struct PatchPair {
    testing::Mesh mesh;
    Surface slave;
    Surface master;
};

struct AreaSums {
    double area = 0.0;
    double weights = 0.0;  // sum of quadrature weights (order given)
    int overlapping = 0;
    double within = 0.0;       // cutOverlap3d areas at the level given (gap <= level)
    double penetrating = 0.0;  // and their penetrating areas
};

// Brute force over all (slave, master) pairs; cuts at `level` when given.
AreaSums sumAreas(const PatchPair& pp, ClipPlane plane, int order = 0, double level = NAN) {
    const Eigen::Matrix3Xd x = pp.mesh.coords3();
    AreaSums sum;
    OverlapQuadrature q;
    for (Index s = 0; s < pp.slave.size(); ++s) {
        const SegmentNodes sn = gatherSegment(pp.slave, s, x);
        for (Index m = 0; m < pp.master.size(); ++m) {
            const SegmentNodes mn = gatherSegment(pp.master, m, x);
            const OverlapPolygon p = clipSegments3d(sn, mn, {plane});
            EXPECT_NE(p.status, ClipStatus::kDegenerate);
            if (p.status != ClipStatus::kOverlap) {
                continue;
            }
            sum.area += p.area;
            ++sum.overlapping;
            if (!std::isnan(level)) {
                const OverlapCut3d cut = cutOverlap3d(p, sn, mn, level);
                sum.within += cut.area;
                sum.penetrating += cut.penetratingArea;
            }
            if (order > 0) {
                const int n = overlapQuadrature(p, sn, mn, order, q);
                for (int k = 0; k < n; ++k) {
                    sum.weights += q[k].weight;
                }
            }
        }
    }
    return sum;
}

struct MeshCase {
    SegmentType slave;
    int ns;
    SegmentType master;
    int nm;
    bool slaveMixed = false;
};

std::string meshCaseName(const MeshCase& c) {
    return std::string(c.slaveMixed ? "mixed" : segmentTypeName(c.slave)) + " " +
           std::to_string(c.ns) + "x" + std::to_string(c.ns) + " vs " + segmentTypeName(c.master) +
           " " + std::to_string(c.nm) + "x" + std::to_string(c.nm);
}

const std::vector<MeshCase>& meshCases() {
    static const std::vector<MeshCase> cases = {
        {SegmentType::Quad4, 5, SegmentType::Quad4, 5},  // matching
        {SegmentType::Quad4, 5, SegmentType::Tri3, 7},
        {SegmentType::Tri3, 4, SegmentType::Quad4, 6},
        {SegmentType::Tri6, 4, SegmentType::Quad8, 6},
        {SegmentType::Quad9, 5, SegmentType::Tri6, 3},
        {SegmentType::Quad4, 6, SegmentType::Quad9, 4, true},
    };
    return cases;
}

TEST(Clip3dSums, FlatMatchingAndNonMatchingOverlappingSquares) {
    // Slave on [0, 1]^2 at z = g, master on [0.3, 1.3] x [0.2, 1.2]: the slave region facing the
    // master has area 0.7 * 0.8 = 0.56 (1 for the matching case on the same square).
    const double g = 0.05;
    double worst = 0.0;
    for (const MeshCase& mc : meshCases()) {
        const bool matching = mc.slave == mc.master && mc.ns == mc.nm;
        PatchPair pp;
        pp.master = testing::addPatch(
            pp.mesh, mc.master, mc.nm, mc.nm,
            [&](double u, double v) {
                return matching ? Vector3d(u, v, 0) : Vector3d(0.3 + u, 0.2 + v, 0);
            },
            false, "m");
        pp.slave = testing::addPatch(
            pp.mesh, mc.slave, mc.ns, mc.ns, [&](double u, double v) { return Vector3d(u, v, g); },
            true, "s", mc.slaveMixed);
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE(meshCaseName(mc) + ", " + planeName(plane));
            const AreaSums sum = sumAreas(pp, plane, 2, 1.5 * g);
            const double expected = matching ? 1.0 : 0.56;
            EXPECT_NEAR(sum.area, expected, 1e-13);
            EXPECT_NEAR(sum.weights, expected, 1e-13);
            // Within a capture distance above the gap: all of it in contact, none penetrating;
            // below the gap: none of it.
            EXPECT_NEAR(sum.within, expected, 1e-13);
            EXPECT_EQ(sum.penetrating, 0.0);
            EXPECT_EQ(sumAreas(pp, plane, 0, 0.5 * g).within, 0.0);
            worst =
                std::max({worst, std::abs(sum.area - expected), std::abs(sum.weights - expected)});
            if (matching) {
                EXPECT_EQ(sum.overlapping, mc.ns * mc.ns);  // shared edges add no pair
            }
        }
    }
    record("worst_sum_error", worst);
}

TEST(Clip3dSums, InterfaceRotatedAboutTheNormal) {
    // Slave square [0, 1]^2 turned about its centre by a small angle, master [-0.3, 1.3]^2
    // covering it: the facing area is the whole slave, 1.
    const double g = 0.02;
    double worst = 0.0;
    for (const MeshCase& mc : meshCases()) {
        for (const double deg : {1.0, 3.0, -2.0}) {
            PatchPair pp;
            pp.master = testing::addPatch(
                pp.mesh, mc.master, mc.nm, mc.nm,
                [](double u, double v) { return Vector3d(-0.3 + 1.6 * u, -0.3 + 1.6 * v, 0); },
                false, "m");
            const Matrix3d R = Eigen::AngleAxisd(deg * kDeg, Vector3d::UnitZ()).toRotationMatrix();
            pp.slave = testing::addPatch(
                pp.mesh, mc.slave, mc.ns, mc.ns,
                [&](double u, double v) -> Vector3d {
                    return Vector3d(0.5, 0.5, g) + R * Vector3d(u - 0.5, v - 0.5, 0);
                },
                true, "s", mc.slaveMixed);
            for (const ClipPlane plane : kPlanes) {
                SCOPED_TRACE(meshCaseName(mc) + ", " + std::to_string(deg) + " deg, " +
                             planeName(plane));
                const double area = sumAreas(pp, plane).area;
                EXPECT_NEAR(area, 1.0, 1e-13);
                worst = std::max(worst, std::abs(area - 1.0));
            }
        }
    }
    record("worst_sum_error", worst);
}

TEST(Clip3dSums, InterfaceTiltedAboutAnInPlaneAxis) {
    // Slave (x, y cos t, g + y sin t) for (x, y) in [0, 1]^2, master [0.3, 1.3] x [0.2, 1.2] at
    // z = 0. On the master plane the slave covers y in [0, cos t]: area 0.7 (cos t - 0.2). On the
    // common plane (normal tilted by t/2) the in-plane coordinate across x is y cos(t/2) on the
    // master and y cos(t/2) + g sin(t/2) on the slave: area 0.7 (0.8 cos(t/2) + g sin(t/2)).
    const double g = 0.03;
    double worst = 0.0;
    for (const MeshCase& mc : meshCases()) {
        for (const double deg : {1.0, 3.0, -2.0}) {
            const double t = deg * kDeg;
            PatchPair pp;
            pp.master = testing::addPatch(
                pp.mesh, mc.master, mc.nm, mc.nm,
                [](double u, double v) { return Vector3d(0.3 + u, 0.2 + v, 0); }, false, "m");
            pp.slave = testing::addPatch(
                pp.mesh, mc.slave, mc.ns, mc.ns,
                [&](double u, double v) {
                    return Vector3d(u, v * std::cos(t), g + v * std::sin(t));
                },
                true, "s", mc.slaveMixed);
            SCOPED_TRACE(meshCaseName(mc) + ", " + std::to_string(deg) + " deg");
            const double onMaster = sumAreas(pp, ClipPlane::kMaster).area;
            const double onCommon = sumAreas(pp, ClipPlane::kCommon).area;
            const double expectMaster = 0.7 * (std::cos(t) - 0.2);
            const double expectCommon = 0.7 * (0.8 * std::cos(t / 2) + g * std::sin(t / 2));
            EXPECT_NEAR(onMaster, expectMaster, 1e-13);
            EXPECT_NEAR(onCommon, expectCommon, 1e-13);
            worst = std::max(
                {worst, std::abs(onMaster - expectMaster), std::abs(onCommon - expectCommon)});
        }
    }
    record("worst_sum_error", worst);
}

TEST(Clip3dSums, CylinderPatchWithinTheDerivedDiscretisationError) {
    // Master: n x 4 elements on a cylinder of radius R over theta in [0, 1], z in [0, 1] (outward
    // normal); slave: elements at radius R + g over theta in [0.2, 0.8], z in [0.1, 0.9] (inward).
    // The exact facing area on the master cylinder is A = 0.6 R * 0.8.
    //
    // Master plane: every slave face facing master face j is projected on the same plane (the
    // tangent plane at j's centre) and adjacent slave faces share corners, so their projections
    // tile: a fully covered master face contributes its corner polygon (chord 2 R sin(phi/2)
    // times dz) whatever the slave mesh, with phi = 1/n the master element angle. Hence
    //   chords vs arcs:           R phi - 2 R sin(phi/2) <= R phi^3 / 24 per face,
    //   the two boundary faces:   (R + g) sin(d) vs R d with |d| <= phi: <= g phi + R phi^3 / 6,
    //   |sum - A| <= 0.8 (0.6 R phi^2 / 24 + 2 (g phi + R phi^3 / 6)).
    // Quadratic masters are clipped through the same corner polygons: the same bound.
    // Common plane: each pair's plane bisects its two normals, which differ by at most
    // beta = phi + phi_s (element angles), scaling projected widths by cos(beta / 2) at worst:
    //   |sum - A| <= the above + A beta^2 / 8.
    const double R = 1.0;
    const double g = 0.02;
    const std::vector<MeshCase> cases = {
        {SegmentType::Quad4, 5, SegmentType::Quad4, 8},
        {SegmentType::Tri3, 7, SegmentType::Quad8, 8},
        {SegmentType::Quad9, 4, SegmentType::Quad9, 16},
        {SegmentType::Tri6, 9, SegmentType::Tri6, 12},
    };
    for (const MeshCase& mc : cases) {
        PatchPair pp;
        pp.master = testing::addPatch(
            pp.mesh, mc.master, mc.nm, 4,
            [&](double u, double v) { return Vector3d(R * std::cos(u), R * std::sin(u), v); },
            false, "m");
        pp.slave = testing::addPatch(
            pp.mesh, mc.slave, mc.ns, 3,
            [&](double u, double v) {
                const double a = 0.2 + 0.6 * u;
                return Vector3d((R + g) * std::cos(a), (R + g) * std::sin(a), 0.1 + 0.8 * v);
            },
            true, "s");
        const double A = 0.6 * R * 0.8;
        const double phi = 1.0 / mc.nm;
        const double phiS = 0.6 / mc.ns;
        const double boundMaster =
            0.8 * (0.6 * R * phi * phi / 24 + 2 * (g * phi + R * std::pow(phi, 3) / 6));
        const double beta = phi + phiS;
        for (const ClipPlane plane : kPlanes) {
            SCOPED_TRACE(meshCaseName(mc) + ", " + planeName(plane));
            const AreaSums sum = sumAreas(pp, plane, 3);
            const double bound =
                plane == ClipPlane::kMaster ? boundMaster : boundMaster + A * beta * beta / 8;
            EXPECT_LE(std::abs(sum.area - A), bound) << "sum " << sum.area;
            EXPECT_NEAR(sum.weights, sum.area, 1e-13);
            record(meshCaseName(mc) + "_" + planeName(plane) + "_rel_err",
                   std::abs(sum.area - A) / A);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The patch test: flat blocks at a uniform gap with non-matching meshes.

TEST(Clip3dPatch, UniformGapAtEveryVertexAndGaussPoint) {
    // Master block face z = 0 on [0, 1]^2 and slave block face z = +-g on [0.25, 1.25] x [0, 1]:
    // every clipped point and Gauss point has gap +-g (1e-12 relative), and the weights sum to
    // the contact area 0.75. Also after a rigid motion of both blocks.
    const double g = 0.1;
    double worstGap = 0.0;
    std::mt19937 rng(531);
    const std::vector<MeshCase> cases = {
        {SegmentType::Quad4, 4, SegmentType::Tri3, 5},
        {SegmentType::Tri3, 6, SegmentType::Quad4, 3},
        {SegmentType::Quad8, 3, SegmentType::Tri6, 4},
        {SegmentType::Tri6, 3, SegmentType::Quad9, 5},
        {SegmentType::Quad4, 5, SegmentType::Quad4, 3, true},
    };
    for (const MeshCase& mc : cases) {
        for (const double gap : {g, -g}) {
            for (const bool moved : {false, true}) {
                const Matrix3d R = moved ? testing::randomRotation(rng) : Matrix3d::Identity();
                const Vector3d t = moved ? Vector3d(12.0, -7.0, 3.0) : Vector3d::Zero();
                PatchPair pp;
                pp.master = testing::addPatch(
                    pp.mesh, mc.master, mc.nm, mc.nm,
                    [&](double u, double v) { return Vector3d(R * Vector3d(u, v, 0) + t); }, false,
                    "m");
                pp.slave = testing::addPatch(
                    pp.mesh, mc.slave, mc.ns, mc.ns,
                    [&](double u, double v) {
                        return Vector3d(R * Vector3d(0.25 + u, v, gap) + t);
                    },
                    true, "s", mc.slaveMixed);
                const Eigen::Matrix3Xd x = pp.mesh.coords3();
                for (const ClipPlane plane : kPlanes) {
                    SCOPED_TRACE(meshCaseName(mc) + ", gap " + std::to_string(gap) +
                                 (moved ? ", moved, " : ", ") + planeName(plane));
                    constexpr std::array<int, 4> kOrders = {1, 2, 3, 5};
                    std::array<double, 4> weights{};
                    double area = 0.0;
                    double worst = 0.0;
                    OverlapQuadrature q;
                    for (Index s = 0; s < pp.slave.size(); ++s) {
                        const SegmentNodes sn = gatherSegment(pp.slave, s, x);
                        for (Index m = 0; m < pp.master.size(); ++m) {
                            const SegmentNodes mn = gatherSegment(pp.master, m, x);
                            const OverlapPolygon p = clipSegments3d(sn, mn, {plane});
                            ASSERT_NE(p.status, ClipStatus::kDegenerate);
                            if (p.status != ClipStatus::kOverlap) {
                                continue;
                            }
                            area += p.area;
                            for (int k = 0; k < p.count; ++k) {
                                worst = std::max(worst, std::abs(p.vertices[k].gap - gap));
                            }
                            for (std::size_t o = 0; o < kOrders.size(); ++o) {
                                const int n = overlapQuadrature(p, sn, mn, kOrders[o], q);
                                ASSERT_EQ(n, p.count * triangleQuadraturePointCount(kOrders[o]));
                                double pairWeights = 0.0;
                                for (int k = 0; k < n; ++k) {
                                    worst = std::max(worst, std::abs(q[k].gap - gap));
                                    EXPECT_GT(q[k].weight, 0.0);
                                    pairWeights += q[k].weight;
                                }
                                EXPECT_NEAR(pairWeights, p.area, 1e-14);
                                weights[o] += pairWeights;
                            }
                        }
                    }
                    EXPECT_LE(worst, 1e-12 * g);
                    worstGap = std::max(worstGap, worst);
                    EXPECT_NEAR(area, 0.75, 1e-13);
                    for (std::size_t o = 0; o < kOrders.size(); ++o) {
                        EXPECT_NEAR(weights[o], 0.75, 1e-13) << "order " << kOrders[o];
                    }
                }
            }
        }
    }
    record("worst_gap_error", worstGap);
}

// ---------------------------------------------------------------------------------------------
// Quadrature.

TEST(OverlapQuadrature, RulesIntegrateMonomialsToTheirDegree) {
    // The overlap of a slave square inside a master square is the rectangle [0.2, 0.7] x
    // [0.1, 0.6]: integrals of x^a y^b over it are known. Order 1: degree 1, 2: 2, 3 and 4: 4
    // (Dunavant), 5: 5 (Radon), 6: 6 (Dunavant), 7 and 8: 8 (Dunavant). Two degrees more are not
    // exact (one more can be, by the central symmetry of the rectangle's fan), so the rules are no
    // better than claimed either.
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    const SegmentNodes s = square(0.2, 0.1, 0.7, 0.6, 0.05, false);
    const OverlapPolygon p = clipSegments3d(s, m);
    ASSERT_EQ(p.status, ClipStatus::kOverlap);
    const auto exact = [](int a, int b) {
        return (std::pow(0.7, a + 1) - std::pow(0.2, a + 1)) / (a + 1) *
               (std::pow(0.6, b + 1) - std::pow(0.1, b + 1)) / (b + 1);
    };
    const int degree[9] = {0, 1, 2, 4, 4, 5, 6, 8, 8};
    OverlapQuadrature q;
    for (int order = 1; order <= kMaxOverlapQuadratureOrder; ++order) {
        SCOPED_TRACE("order " + std::to_string(order));
        const int n = overlapQuadrature(p, s, m, order, q);
        ASSERT_EQ(n, p.count * triangleQuadraturePointCount(order));
        double worstNext = 0.0;
        for (int a = 0; a <= degree[order] + 2; ++a) {
            for (int b = 0; a + b <= degree[order] + 2; ++b) {
                double sum = 0.0;
                for (int k = 0; k < n; ++k) {
                    sum += q[k].weight * std::pow(q[k].point.x(), a) * std::pow(q[k].point.y(), b);
                }
                if (a + b <= degree[order]) {
                    EXPECT_NEAR(sum, exact(a, b), 1e-15) << "x^" << a << " y^" << b;
                } else {
                    worstNext = std::max(worstNext, std::abs(sum - exact(a, b)));
                }
            }
        }
        EXPECT_GT(worstNext, 1e-12);  // degree 10 by the degree-8 rule: 4e-11; rounding 1e-16
    }
    EXPECT_EQ(triangleQuadraturePointCount(0), 1);  // clamped up
    EXPECT_EQ(triangleQuadraturePointCount(3), 6);
    EXPECT_EQ(triangleQuadraturePointCount(6), 12);
    EXPECT_EQ(triangleQuadraturePointCount(7), 16);
    EXPECT_EQ(triangleQuadraturePointCount(9), 16);  // clamped down
}

// Each triangle rule on the reference triangle (x = l1, y = l2): positive weights summing to 1,
// points inside, x^a y^b integrated to 2 a! b! / (a + b + 2)! (the mean over the triangle) for
// a + b up to its degree within 1e-14, and some monomial of the next degree missed.
TEST(OverlapQuadrature, EachTriangleRuleIsExactToItsDegreeOnMonomials) {
    const auto factorial = [](int n) {
        double f = 1.0;
        for (int k = 2; k <= n; ++k) {
            f *= k;
        }
        return f;
    };
    int previous = 0;
    for (int order = 1; order <= kMaxOverlapQuadratureOrder; ++order) {
        const detail::TriangleRule& r = detail::triangleRule(order);
        SCOPED_TRACE("order " + std::to_string(order) + ", degree " + std::to_string(r.degree));
        EXPECT_GE(r.degree, order);
        ASSERT_LE(r.n, kMaxTriangleQuadraturePoints);
        if (r.degree == previous) {
            continue;  // the same rule as the order before
        }
        previous = r.degree;
        double weights = 0.0;
        for (int g = 0; g < r.n; ++g) {
            EXPECT_GT(r.w[g], 0.0) << "point " << g;
            weights += r.w[g];
            for (int k = 0; k < 3; ++k) {
                EXPECT_GT(r.l[g][k], 0.0) << "point " << g;
            }
            EXPECT_NEAR(r.l[g][0] + r.l[g][1] + r.l[g][2], 1.0, 1e-15) << "point " << g;
        }
        EXPECT_NEAR(weights, 1.0, 1e-15);
        double worstNext = 0.0;
        for (int a = 0; a <= r.degree + 1; ++a) {
            for (int b = 0; a + b <= r.degree + 1; ++b) {
                double sum = 0.0;
                for (int g = 0; g < r.n; ++g) {
                    sum += r.w[g] * std::pow(r.l[g][1], a) * std::pow(r.l[g][2], b);
                }
                const double exact = 2.0 * factorial(a) * factorial(b) / factorial(a + b + 2);
                if (a + b <= r.degree) {
                    EXPECT_NEAR(sum, exact, 1e-14) << "x^" << a << " y^" << b;
                } else {
                    worstNext = std::max(worstNext, std::abs(sum - exact));
                }
            }
        }
        EXPECT_GT(worstNext, 1e-6);
    }
    EXPECT_EQ(previous, 8);
}

TEST(OverlapQuadrature, MomentsOverAClippedOctagonAndShapeFunctions) {
    // A square turned by 30 degrees over a master square gives a polygon with up to 8 vertices;
    // its area, first and second moments from the polygon formulas (Green's theorem) must match
    // the Gauss sums. At every point the shape functions sum to 1 and reproduce the face points
    // on the line along the normal.
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    const Matrix3d R = Eigen::AngleAxisd(30 * kDeg, Vector3d::UnitZ()).toRotationMatrix();
    const SegmentNodes s = toQuadratic(
        testing::transformed(square(-0.6, -0.6, 0.6, 0.6, 0, false), R, Vector3d(0.5, 0.5, 0.04)),
        SegmentType::Quad8);
    const SegmentNodes mq = toQuadratic(m, SegmentType::Quad9);
    const OverlapPolygon p = clipSegments3d(s, mq);
    expectValidPolygon(p, s, mq);
    EXPECT_EQ(p.count, 8);
    double A = 0.0;
    double Sx = 0.0;
    double Ixx = 0.0;
    for (int i = 0; i < p.count; ++i) {
        const Vector3d& a = p.vertices[i].point;
        const Vector3d& b = p.vertices[(i + 1) % p.count].point;
        const double c = a.x() * b.y() - b.x() * a.y();
        A += c / 2;
        Sx += c * (a.x() + b.x()) / 6;
        Ixx += c * (a.x() * a.x() + a.x() * b.x() + b.x() * b.x()) / 12;
    }
    EXPECT_NEAR(p.area, A, 1e-14);
    EXPECT_NEAR(p.centroid.x(), Sx / A, 1e-14);
    OverlapQuadrature q;
    for (const int order : {1, 2, 3}) {
        SCOPED_TRACE("order " + std::to_string(order));
        const int n = overlapQuadrature(p, s, mq, order, q);
        double w = 0.0;
        double wx = 0.0;
        double wxx = 0.0;
        for (int k = 0; k < n; ++k) {
            w += q[k].weight;
            wx += q[k].weight * q[k].point.x();
            wxx += q[k].weight * q[k].point.x() * q[k].point.x();
            double sumS = 0.0;
            double sumM = 0.0;
            Vector3d xs = Vector3d::Zero();
            Vector3d xm = Vector3d::Zero();
            for (int i = 0; i < kMaxSegmentNodes; ++i) {
                sumS += q[k].NSlave[i];
                sumM += q[k].NMaster[i];
                xs += q[k].NSlave[i] * s.x[i];
                xm += q[k].NMaster[i] * mq.x[i];
            }
            EXPECT_NEAR(sumS, 1.0, 1e-14);
            EXPECT_NEAR(sumM, 1.0, 1e-14);
            EXPECT_TRUE(allNear(xs, q[k].point + Vector3d(0, 0, 0.04), 1e-14));
            EXPECT_TRUE(allNear(xm, q[k].point, 1e-14));
            EXPECT_NEAR(q[k].gap, 0.04, 1e-14);
        }
        EXPECT_NEAR(w, A, 1e-14);
        EXPECT_NEAR(wx, Sx, 1e-14);
        if (order >= 2) {
            EXPECT_NEAR(wxx, Ixx, 1e-14);
        }
    }
}

TEST(OverlapQuadrature, NoOverlapGivesNoPoints) {
    OverlapQuadrature q;
    const SegmentNodes m = square(0, 0, 1, 1, 0, true);
    const SegmentNodes s = square(1, 0, 2, 1, 0, false);
    EXPECT_EQ(overlapQuadrature(clipSegments3d(s, m), s, m, 3, q), 0);
}

// ---------------------------------------------------------------------------------------------
// The flat approximation of quadratic faces.

// The linear / bilinear interpolation of a face's corners at xi.
Vector3d cornerInterpolation(const SegmentNodes& s, const Vector2d& xi) {
    const SegmentType linear = parametricDim(s.type) == 1 ? SegmentType::Line2
                               : isTriangle(s.type)       ? SegmentType::Tri3
                                                          : SegmentType::Quad4;
    const ShapeFunctions f = shapeFunctions(linear, xi);
    Vector3d x = Vector3d::Zero();
    for (int i = 0; i < cornerCount(s.type); ++i) {
        x += f.N[i] * s.x[i];
    }
    return x;
}

// Largest |x(xi) - corner interpolation| over a 101 x 101 grid of the domain.
double sampledFlatDistance(const SegmentNodes& s) {
    double worst = 0.0;
    constexpr int kN = 100;
    for (int i = 0; i <= kN; ++i) {
        for (int j = 0; j <= (parametricDim(s.type) == 1 ? 0 : kN); ++j) {
            const Vector2d xi = isTriangle(s.type) ? Vector2d(double(i) / kN, double(j) / kN)
                                                   : Vector2d(-1 + 2.0 * i / kN, -1 + 2.0 * j / kN);
            if (!inReferenceDomain(s.type, xi)) {
                continue;
            }
            worst = std::max(worst, (position(s, xi) - cornerInterpolation(s, xi)).norm());
        }
    }
    return worst;
}

TEST(FlatApproximation, BoundHoldsOnRandomQuadraticFacesAndIsTight) {
    std::mt19937 rng(541);
    for (const SegmentType t :
         {SegmentType::Line3, SegmentType::Tri6, SegmentType::Quad8, SegmentType::Quad9}) {
        for (int i = 0; i < 50; ++i) {
            SCOPED_TRACE(std::string("seed 541: ") + segmentTypeName(t) + " case " +
                         std::to_string(i));
            testing::RandomSegmentOptions o;
            o.curvature = 0.2;
            const SegmentNodes s = testing::randomSegment(t, rng, o);
            const double bound = flatApproximationBound(s);
            EXPECT_GT(bound, 0.0);
            EXPECT_LE(sampledFlatDistance(s), bound * (1 + 1e-12));
        }
    }
    // Tight: every midside node (and the Quad9 centre) pushed out of the plane by delta: the
    // bound's constant is reached at the centroid (Tri6: 4/3) or the centre (Quad8: 2; Quad9 by
    // a checkerboard of signs at s = 0.3554: 1.38436), and the sampled maximum meets it.
    const double delta = 0.1;
    for (const SegmentType t :
         {SegmentType::Line3, SegmentType::Tri6, SegmentType::Quad8, SegmentType::Quad9}) {
        SCOPED_TRACE(segmentTypeName(t));
        SegmentNodes s;
        s.type = t;
        for (int i = 0; i < nodeCount(t); ++i) {
            const Vector2d xi = nodeLocalCoordinates(t, i);
            s.x[i] = Vector3d(xi.x(), xi.y(), 0.0);
            if (i >= cornerCount(t)) {
                // Quad9: sign pattern of the 1D Lagrange basis at +s: + for the (1, 0) / (0, 1)
                // midsides and the centre, - for the (-1, 0) / (0, -1) ones.
                const double sign =
                    (t == SegmentType::Quad9 && (xi.x() < 0 || xi.y() < 0)) ? -1.0 : 1.0;
                s.x[i].z() = sign * delta;
            }
        }
        const double bound = flatApproximationBound(s);
        const double sampled = sampledFlatDistance(s);
        EXPECT_LE(sampled, bound * (1 + 1e-12));
        EXPECT_GE(sampled, 0.999 * bound);  // the grid misses the exact maximum by < 1e-4
    }
    // Linear types: zero.
    EXPECT_EQ(flatApproximationBound(square(0, 0, 1, 1, 0, true)), 0.0);
}

TEST(FlatApproximation, CurvedFacesClipWithinTheBound) {
    // The overlap area of a curved slave differs from that of its corner polygon by at most its
    // perimeter times the bound. A unit-square Quad9 slave inside a large master, its midside
    // nodes pushed out in plane by `bulge`: each edge becomes a parabola enclosing 2/3 * bulge
    // more area, so the true facing area is known in closed form; the kernel reports the corner
    // polygon's area, and the difference is within perimeter x bound.
    const SegmentNodes m = square(-1, -1, 2, 2, 0, true);
    SegmentNodes s = toQuadratic(square(0, 0, 1, 1, 0.05, false), SegmentType::Quad9);
    const double bulge = 0.03;
    for (int i = 4; i < 8; ++i) {
        const Vector3d out = (s.x[i] - Vector3d(0.5, 0.5, 0.05)).normalized();
        s.x[i] += bulge * out;
    }
    const OverlapPolygon p = clipSegments3d(s, m);
    ASSERT_EQ(p.status, ClipStatus::kOverlap);
    EXPECT_NEAR(p.area, 1.0, kExact);  // corner polygon
    // True area of the bulged face on the plane: each edge bulges by a parabola of height
    // `bulge`, adding 2/3 * bulge * edge length per edge.
    const double trueArea = 1.0 + 4 * (2.0 / 3.0) * bulge * 1.0;
    const double perimeter = 4.0;
    EXPECT_LE(std::abs(trueArea - p.area), perimeter * flatApproximationBound(s));
    EXPECT_NEAR(flatApproximationBound(s), 1.3844 * bulge, 1e-15);
}

}  // namespace
}  // namespace contact
