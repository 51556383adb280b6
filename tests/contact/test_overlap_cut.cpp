// SPDX-License-Identifier: MIT
// cutOverlap3d and cutOverlap2d: the part of an overlap where the gap is at most a level (the
// capture distance), against exact answers, against an adaptive sampling oracle with the gap
// written out analytically (flat faces at any tilt, curved faces with polynomial heights), and
// the refinement's error bound on curved faces.
#include "contact/clipping.hpp"
#include "contact/segment.hpp"

#include "clipping_oracle.hpp"
#include "scenes.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace contact {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;
using testing::uniform;

// In-plane axes and 2D coordinates of an overlap polygon's plane (any orthonormal pair: areas do
// not depend on it).
struct PlaneFrame {
    Vector3d origin;
    Vector3d e1;
    Vector3d e2;
    [[nodiscard]] Vector2d coords(const Vector3d& x) const {
        return {(x - origin).dot(e1), (x - origin).dot(e2)};
    }
    [[nodiscard]] Vector3d point(const Vector2d& q) const {
        return origin + q.x() * e1 + q.y() * e2;
    }
};

PlaneFrame frameOf(const OverlapPolygon& p) {
    const Vector3d e1 = p.normal.unitOrthogonal();
    return {p.planePoint, e1, p.normal.cross(e1)};
}

std::vector<Vector2d> polygon2d(const OverlapPolygon& p, const PlaneFrame& f) {
    std::vector<Vector2d> q;
    for (int i = 0; i < p.count; ++i) {
        q.push_back(f.coords(p.vertices[i].point));
    }
    return q;
}

double shoelace(const std::vector<Vector2d>& q) {
    double a = 0.0;
    for (std::size_t i = 0; i < q.size(); ++i) {
        const Vector2d& u = q[i];
        const Vector2d& v = q[(i + 1) % q.size()];
        a += u.x() * v.y() - u.y() * v.x();
    }
    return 0.5 * a;
}

// A segment whose node i sits at map(local coordinates of node i).
SegmentNodes mapped(SegmentType t, const std::function<Vector3d(const Vector2d&)>& map) {
    SegmentNodes s;
    s.type = t;
    for (int i = 0; i < nodeCount(t); ++i) {
        s.x[i] = map(nodeLocalCoordinates(t, i));
    }
    return s;
}

// The in-plane affine map of a face's reference domain onto a region centred at c with half sizes
// (a, b): counter-clockwise seen from +z (normal +z) unless `down`.
Vector2d inPlane(SegmentType t, const Vector2d& xi, const Vector2d& c, double a, double b,
                 bool down) {
    // Quads: xi in [-1, 1]^2; triangles: (xi, eta) area coordinates, mapped to a right triangle.
    const Vector2d r = isTriangle(t) ? Vector2d(2 * xi.x() - 1, 2 * xi.y() - 1) : xi;
    return {c.x() + a * r.x(), c.y() + (down ? -b : b) * r.y()};
}

// Height function z = h(x, y) with its gradient.
struct Height {
    double c0 = 0, cx = 0, cy = 0, cxx = 0, cyy = 0, cxy = 0;
    [[nodiscard]] double operator()(double x, double y) const {
        return c0 + cx * x + cy * y + cxx * x * x + cyy * y * y + cxy * x * y;
    }
    [[nodiscard]] Vector2d grad(double x, double y) const {
        return {cx + 2 * cxx * x + cxy * y, cy + 2 * cyy * y + cxy * x};
    }
};

// A random planar convex quad or a triangle about the origin of the x-y plane, counter-clockwise.
SegmentNodes flatFace(SegmentType t, std::mt19937& rng) {
    SegmentNodes s;
    s.type = t;
    if (t == SegmentType::Tri3) {
        s.x[0] = Vector3d(-1 + uniform(rng, -0.2, 0.2), -1 + uniform(rng, -0.2, 0.2), 0);
        s.x[1] = Vector3d(1 + uniform(rng, -0.2, 0.2), -0.8 + uniform(rng, -0.2, 0.2), 0);
        s.x[2] = Vector3d(uniform(rng, -0.3, 0.3), 1 + uniform(rng, -0.2, 0.2), 0);
        return s;
    }
    const double c[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 4; ++i) {
        s.x[i] =
            Vector3d(c[i][0] + uniform(rng, -0.25, 0.25), c[i][1] + uniform(rng, -0.25, 0.25), 0.0);
    }
    return s;
}

SegmentNodes moved(const SegmentNodes& s, const Matrix3d& R, const Vector3d& t) {
    return testing::transformed(s, R, t);
}

SegmentNodes reversed(const SegmentNodes& s) {
    SegmentNodes r = s;
    std::reverse(r.x.begin(), r.x.begin() + cornerCount(s.type));
    return r;
}

// The plane of a flat face: a point and its outward unit normal (from its corners).
struct FacePlane {
    Vector3d point;
    Vector3d normal;
};
FacePlane planeOf(const SegmentNodes& s) {
    const Vector3d n = cornerCount(s.type) == 3 ? (s.x[1] - s.x[0]).cross(s.x[2] - s.x[0])
                                                : (s.x[2] - s.x[0]).cross(s.x[3] - s.x[1]);
    return {s.x[0], n.normalized()};
}

// Checks the kept polygon drawn by the cut: each vertex's gap is the gap at its local coordinates,
// and where the gap is affine, within the level and enclosing the cut's area.
void expectDrawnPolygon(const OverlapCut3d& cut, const OverlapPolygon& poly, const SegmentNodes& s,
                        const SegmentNodes& m, double level, double L) {
    const PlaneFrame f = frameOf(poly);
    std::vector<Vector2d> q;
    for (int i = 0; i < cut.count; ++i) {
        const OverlapVertex& v = cut.vertices[i];
        q.push_back(f.coords(v.point));
        if (cut.affine) {
            EXPECT_LE(v.gap, level + 1e-12 * L);
        }
        const Vector3d xs = position(s, v.xiSlave);
        const Vector3d xm = position(m, v.xiMaster);
        const double gap = (xs - xm).dot(outwardNormal(m, v.xiMaster));
        EXPECT_NEAR(gap, v.gap, 1e-11 * L) << "vertex " << i;
        // Both face points lie on the line through the vertex along the plane normal.
        EXPECT_NEAR((xs - v.point).cross(poly.normal).norm(), 0.0, 1e-11 * L);
        EXPECT_NEAR((xm - v.point).cross(poly.normal).norm(), 0.0, 1e-11 * L);
    }
    if (cut.affine) {
        EXPECT_NEAR(cut.count > 0 ? shoelace(q) : 0.0, cut.area, 1e-12 * L * L);
    }
}

TEST(CutOverlap3d, TiltedSquareIsCutWhereItsLinearGapPassesTheLevel) {
    // Master: the square [-1, 1]^2 at z = 0. Slave: the same square facing down, tilted about the
    // y axis so that its gap is 0.1 + 0.05 x. Kept where 0.1 + 0.05 x <= level: x <= 20 level - 2.
    const SegmentNodes m = mapped(SegmentType::Quad4,
                                  [](const Vector2d& xi) { return Vector3d(xi.x(), xi.y(), 0.0); });
    const SegmentNodes s = mapped(SegmentType::Quad4, [](const Vector2d& xi) {
        return Vector3d(xi.x(), -xi.y(), 0.1 + 0.05 * xi.x());
    });
    const OverlapPolygon poly = clipSegments3d(s, m);
    ASSERT_EQ(poly.status, ClipStatus::kOverlap);
    for (const double level : {0.0, 0.06, 0.1, 0.12, 0.149, 0.2}) {
        SCOPED_TRACE("level " + std::to_string(level));
        const OverlapCut3d cut = cutOverlap3d(poly, s, m, level);
        EXPECT_TRUE(cut.affine);
        const double xCut = std::clamp(20 * level - 2, -1.0, 1.0);
        EXPECT_NEAR(cut.area, 2 * (xCut + 1), 1e-13);
        EXPECT_EQ(cut.areaError, 0.0);
        EXPECT_EQ(cut.penetratingArea, 0.0);
        if (cut.area > 0) {
            EXPECT_NEAR(cut.gapMin, 0.05, 1e-13);
            EXPECT_NEAR(cut.gapMax, std::min(level, 0.15), 1e-13);
        }
        expectDrawnPolygon(cut, poly, s, m, level, 2.0);
    }
    // Lowered into the master by 0.125: gap -0.025 + 0.05 x, penetrating where x < 0.5.
    SegmentNodes deep = s;
    for (int i = 0; i < 4; ++i) {
        deep.x[i].z() -= 0.125;
    }
    const OverlapCut3d cut = cutOverlap3d(clipSegments3d(deep, m), deep, m, 0.0);
    EXPECT_NEAR(cut.penetratingArea, 2 * 1.5, 1e-13);
    EXPECT_NEAR(cut.area, 2 * 1.5, 1e-13);
}

// Penetration is gap < 0: faces touching at gap 0 (all of the overlap, or along one edge) are in
// contact and do not penetrate, whatever the level.
TEST(CutOverlap3d, TouchingFacesDoNotPenetrate) {
    const SegmentNodes m = mapped(SegmentType::Quad4,
                                  [](const Vector2d& xi) { return Vector3d(xi.x(), xi.y(), 0.0); });
    for (const double slope : {0.0, 0.05}) {
        SCOPED_TRACE("gap " + std::to_string(slope) + " (x + 1)");
        const SegmentNodes s = mapped(SegmentType::Quad4, [slope](const Vector2d& xi) {
            return Vector3d(xi.x(), -xi.y(), slope * (xi.x() + 1.0));
        });
        for (const double level : {0.0, 0.05}) {
            const OverlapCut3d cut = cutOverlap3d(clipSegments3d(s, m), s, m, level);
            EXPECT_EQ(cut.penetratingArea, 0.0);
            // Kept where slope (x + 1) <= level.
            EXPECT_NEAR(cut.area, slope == 0.0 ? 4.0 : 2.0 * std::min(level / slope, 2.0), 1e-13);
            EXPECT_EQ(cut.gapMin, 0.0);
        }
    }
}

TEST(CutOverlap3d, RandomFlatPairsMatchTheOracleAtAnyTiltAndLevel) {
    std::mt19937 rng(77);
    int cases = 0;
    int cut = 0;
    for (int i = 0; i < 80; ++i) {
        const SegmentType mt = i % 2 == 0 ? SegmentType::Tri3 : SegmentType::Quad4;
        const SegmentType st = i % 3 == 0 ? SegmentType::Tri3 : SegmentType::Quad4;
        // Slave: tilted by up to 30 degrees about a random in-plane axis, facing down, lifted,
        // shifted; then both moved by one random rigid motion.
        const SegmentNodes m0 = flatFace(mt, rng);
        const Vector3d axis = Vector3d(uniform(rng, -1, 1), uniform(rng, -1, 1), 0).normalized();
        const Matrix3d tilt = Eigen::AngleAxisd(uniform(rng, -0.5, 0.5), axis).toRotationMatrix();
        const SegmentNodes s0 = moved(
            reversed(flatFace(st, rng)), tilt,
            Vector3d(uniform(rng, -0.7, 0.7), uniform(rng, -0.7, 0.7), uniform(rng, -0.3, 0.3)));
        const Matrix3d R = testing::randomRotation(rng);
        const Vector3d t(uniform(rng, -10, 10), uniform(rng, -10, 10), uniform(rng, -10, 10));
        const SegmentNodes m = moved(m0, R, t);
        const SegmentNodes s = moved(s0, R, t);
        const ClipPlane plane = i % 4 == 3 ? ClipPlane::kCommon : ClipPlane::kMaster;
        const OverlapPolygon poly = clipSegments3d(s, m, {plane});
        if (poly.status != ClipStatus::kOverlap) {
            continue;
        }
        // The gap at a plane point, from the two face planes.
        const PlaneFrame f = frameOf(poly);
        const FacePlane pm = planeOf(m);
        const FacePlane ps = planeOf(s);
        const auto gapAt = [&](const Vector2d& q) {
            const Vector3d x = f.point(q);
            const Vector3d xm =
                x + poly.normal * ((pm.point - x).dot(pm.normal) / poly.normal.dot(pm.normal));
            const Vector3d xs =
                x + poly.normal * ((ps.point - x).dot(ps.normal) / poly.normal.dot(ps.normal));
            return (xs - xm).dot(pm.normal);
        };
        double gmin = poly.vertices[0].gap;
        double gmax = gmin;
        for (int k = 0; k < poly.count; ++k) {
            gmin = std::min(gmin, poly.vertices[k].gap);
            gmax = std::max(gmax, poly.vertices[k].gap);
        }
        const std::vector<Vector2d> q = polygon2d(poly, f);
        for (const double w : {-0.1, 0.2, 0.5, 0.9, 1.1}) {
            const double level = gmin + w * (gmax - gmin);
            SCOPED_TRACE("seed 77, case " + std::to_string(i) + ", level " + std::to_string(level));
            const OverlapCut3d c = cutOverlap3d(poly, s, m, level);
            ASSERT_TRUE(c.affine);
            EXPECT_EQ(c.areaError, 0.0);
            const testing::OracleArea ref = testing::oracleKeptArea(q, gapAt, level, 8);
            EXPECT_NEAR(c.area, ref.area, ref.error + 1e-12);
            const testing::OracleArea pen = testing::oracleKeptArea(q, gapAt, 0.0, 8);
            EXPECT_NEAR(c.penetratingArea, pen.area, pen.error + 1e-12);
            expectDrawnPolygon(c, poly, s, m, level, 2.0);
            ++cases;
            cut += c.area > 0 && c.area < poly.area ? 1 : 0;
        }
    }
    EXPECT_GT(cases, 200);
    EXPECT_GT(cut, 100);  // most levels cut through the polygon
}

// A curved face over a flat one, each with the gap as a closed form, cut at levels across the
// gap range with n = 2, 4, 16: within the refinement's error bound of the oracle, bounds not
// vacuous and shrinking as n grows.
struct CurvedCase {
    std::string name;
    SegmentNodes slave;
    SegmentNodes master;
    std::function<double(const Vector3d&)> gap;  // at a point of the master's tangent plane z = 0
};

std::vector<CurvedCase> curvedCases(std::mt19937& rng) {
    std::vector<CurvedCase> cases;
    const SegmentType curved[] = {SegmentType::Tri6, SegmentType::Quad8, SegmentType::Quad9};
    for (const SegmentType t : curved) {
        for (int k = 0; k < 3; ++k) {
            // Slave z = h(x, y) over the flat master [-1, 1]^2: quadratic shape functions hold
            // quadratic heights exactly, so the slave is that surface and the gap h itself.
            Height h;
            h.c0 = uniform(rng, 0.0, 0.1);
            h.cx = uniform(rng, -0.05, 0.05);
            h.cxx = uniform(rng, -0.2, 0.2);
            h.cyy = uniform(rng, -0.2, 0.2);
            h.cxy = uniform(rng, -0.1, 0.1);
            const Vector2d c(uniform(rng, -0.4, 0.4), uniform(rng, -0.4, 0.4));
            CurvedCase cc;
            cc.name = std::string("curved ") + segmentTypeName(t) + " slave " + std::to_string(k);
            cc.master = mapped(SegmentType::Quad4,
                               [](const Vector2d& xi) { return Vector3d(xi.x(), xi.y(), 0.0); });
            cc.slave = mapped(t, [&](const Vector2d& xi) {
                const Vector2d p = inPlane(t, xi, c, 0.9, 0.8, true);
                return Vector3d(p.x(), p.y(), h(p.x(), p.y()));
            });
            cc.gap = [h](const Vector3d& x) { return h(x.x(), x.y()); };
            cases.push_back(cc);

            // Master z = h(x, y) with a level tangent plane at its centre, under a flat slave at
            // z = z0: gap = (z0 - h) n_z, along the master's normal (-h_x, -h_y, 1) / |...|.
            Height hm;
            hm.cxx = uniform(rng, -0.2, 0.2);
            hm.cyy = uniform(rng, -0.2, 0.2);
            hm.cxy = uniform(rng, -0.1, 0.1);
            const double z0 = uniform(rng, -0.05, 0.1);
            CurvedCase cm;
            cm.name = std::string("curved ") + segmentTypeName(t) + " master " + std::to_string(k);
            cm.master = mapped(t, [&](const Vector2d& xi) {
                const Vector2d p = inPlane(t, xi, Vector2d::Zero(), 1.0, 1.0, false);
                return Vector3d(p.x(), p.y(), hm(p.x(), p.y()));
            });
            cm.slave = mapped(SegmentType::Quad4, [&](const Vector2d& xi) {
                const Vector2d p = inPlane(SegmentType::Quad4, xi, c, 0.8, 0.9, true);
                return Vector3d(p.x(), p.y(), z0);
            });
            cm.gap = [hm, z0](const Vector3d& x) {
                const Vector2d g = hm.grad(x.x(), x.y());
                return (z0 - hm(x.x(), x.y())) / std::sqrt(1.0 + g.squaredNorm());
            };
            // Triangles: their reference centre is not the in-plane origin, so the tangent plane
            // there is not level; keep the quads for the master case.
            if (!isTriangle(t)) {
                cases.push_back(cm);
            }
        }
    }
    return cases;
}

TEST(CutOverlap3d, CurvedFacesMatchTheOracleWithinTheRefinementBound) {
    std::mt19937 rng(2024);
    double worstRatio = 0.0;  // |kernel - oracle| / (bound + oracle error)
    for (const CurvedCase& cc : curvedCases(rng)) {
        const OverlapPolygon poly = clipSegments3d(cc.slave, cc.master);
        ASSERT_EQ(poly.status, ClipStatus::kOverlap) << cc.name;
        ASSERT_NEAR(poly.normal.z(), 1.0, 1e-12) << cc.name;  // the plane z = const
        const PlaneFrame f = frameOf(poly);
        const std::vector<Vector2d> q = polygon2d(poly, f);
        const auto gapAt = [&](const Vector2d& p) { return cc.gap(f.point(p)); };
        double gmin = poly.vertices[0].gap;
        double gmax = gmin;
        for (int k = 0; k < poly.count; ++k) {
            gmin = std::min(gmin, poly.vertices[k].gap);
            gmax = std::max(gmax, poly.vertices[k].gap);
        }
        // Levels beyond the vertices' gap range too: there the cut may decide the whole polygon
        // from the faces' flatness, or must refine where the faces bulge past the level.
        for (const double w : {-0.3, 0.2, 0.5, 0.8, 1.3}) {
            const double level = gmin + w * (gmax - gmin);
            const testing::OracleArea ref = testing::oracleKeptArea(q, gapAt, level, 10);
            const testing::OracleArea pen = testing::oracleKeptArea(q, gapAt, 0.0, 10);
            double previousBound = 1e300;
            for (const int n : {2, 4, 16}) {
                SCOPED_TRACE(cc.name + ", level " + std::to_string(level) + ", n " +
                             std::to_string(n));
                const OverlapCut3d c = cutOverlap3d(poly, cc.slave, cc.master, level, n);
                EXPECT_FALSE(c.affine);
                EXPECT_NEAR(c.area, ref.area, c.areaError + ref.error + 1e-12);
                EXPECT_NEAR(c.penetratingArea, pen.area,
                            c.penetratingAreaError + pen.error + 1e-12);
                worstRatio = std::max(worstRatio, std::abs(c.area - ref.area) /
                                                      (c.areaError + ref.error + 1e-12));
                EXPECT_LE(c.areaError, previousBound);
                if (n == 16 && previousBound > 0.0) {
                    // O(h^2): 16x smaller from n = 4 to 16 where h^2 |g''| rules, at least 4x.
                    EXPECT_LT(c.areaError, 0.25 * previousBound);
                    EXPECT_LT(c.areaError, 0.25 * poly.area);
                }
                previousBound = c.areaError;
                expectDrawnPolygon(c, poly, cc.slave, cc.master, level, 2.0);
            }
        }
    }
    std::printf("worst |area - oracle| / (bound + oracle error): %.3g\n", worstRatio);
}

TEST(CutOverlap3d, NoOverlapGivesAnEmptyCut) {
    OverlapPolygon none;
    const SegmentNodes m = mapped(SegmentType::Quad4,
                                  [](const Vector2d& xi) { return Vector3d(xi.x(), xi.y(), 0.0); });
    const OverlapCut3d c = cutOverlap3d(none, m, m, 1.0);
    EXPECT_EQ(c.count, 0);
    EXPECT_EQ(c.area, 0.0);
    EXPECT_EQ(c.penetratingArea, 0.0);
}

TEST(IsFlatFace, FlatCurvedAndWarpedFaces) {
    const auto square = [](SegmentType t, double warp, double bulge) {
        return mapped(t, [=](const Vector2d& xi) {
            const Vector2d p = inPlane(t, xi, Vector2d::Zero(), 1.0, 1.0, false);
            const bool corner =
                std::abs(std::abs(xi.x()) - 1) < 1e-12 && std::abs(std::abs(xi.y()) - 1) < 1e-12;
            return Vector3d(p.x(), p.y(),
                            (corner ? warp * xi.x() * xi.y() : 0.0) +
                                bulge * (1 - p.squaredNorm()));
        });
    };
    EXPECT_TRUE(isFlatFace(square(SegmentType::Quad4, 0.0, 0.0)));
    EXPECT_FALSE(isFlatFace(square(SegmentType::Quad4, 0.01, 0.0)));
    EXPECT_TRUE(isFlatFace(square(SegmentType::Quad9, 0.0, 0.0)));
    EXPECT_FALSE(isFlatFace(square(SegmentType::Quad9, 0.0, 0.01)));
    EXPECT_TRUE(isFlatFace(square(SegmentType::Tri3, 0.0, 0.0)));
    EXPECT_FALSE(isFlatFace(square(SegmentType::Tri6, 0.0, 0.01)));
}

// ---------------------------------------------------------------------------------------------
// 2D.

// Master: the line y = 0 from x = 1 to x = -1 (outward normal +y). Slave above it, facing down,
// from x = -a to x = a with y = h(x).
SegmentNodes masterLine() {
    SegmentNodes m;
    m.type = SegmentType::Line2;
    m.x[0] = Vector3d(1, 0, 0);
    m.x[1] = Vector3d(-1, 0, 0);
    return m;
}

TEST(CutOverlap2d, StraightSlaveIsCutExactly) {
    // Slave from (-0.8, 0.05) to (0.8, 0.13): gap 0.09 + 0.05 x on x in [-0.8, 0.8].
    SegmentNodes s;
    s.type = SegmentType::Line2;
    s.x[0] = Vector3d(-0.8, 0.05, 0);
    s.x[1] = Vector3d(0.8, 0.13, 0);
    const SegmentNodes m = masterLine();
    const SegmentClip2d clip = clipSegments2d(s, m, 1.0);
    ASSERT_EQ(clip.status, ClipStatus::kOverlap);
    for (const double level : {0.0, 0.04, 0.05, 0.09, 0.12, 0.2}) {
        SCOPED_TRACE("level " + std::to_string(level));
        const OverlapCut2d c = cutOverlap2d(clip, s, m, level);
        EXPECT_TRUE(c.affine);
        const double xCut = std::clamp((level - 0.09) / 0.05, -0.8, 0.8);
        EXPECT_NEAR(c.length, xCut + 0.8, 1e-13);
        EXPECT_EQ(c.lengthError, 0.0);
        if (c.length > 0) {
            ASSERT_EQ(c.count, 2);
            EXPECT_NEAR(c.ends[0].masterPoint.x(), -0.8, 1e-13);
            EXPECT_NEAR(c.ends[1].masterPoint.x(), xCut, 1e-13);
            EXPECT_NEAR(c.ends[1].gap, std::min(level, 0.13), 1e-13);
            EXPECT_NEAR(c.gapMin, 0.05, 1e-13);
        }
    }
    // Lowered by 0.1: gap -0.01 + 0.05 x, penetrating for x < 0.2.
    SegmentNodes deep = s;
    deep.x[0].y() -= 0.1;
    deep.x[1].y() -= 0.1;
    const OverlapCut2d c = cutOverlap2d(clipSegments2d(deep, m, 1.0), deep, m, 0.02);
    EXPECT_NEAR(c.penetratingLength, 1.0, 1e-13);
    EXPECT_NEAR(c.length, 1.4, 1e-13);
    // Resting on the master (gap 0 all along): in contact, nothing penetrates.
    SegmentNodes touching = s;
    touching.x[0].y() = 0.0;
    touching.x[1].y() = 0.0;
    const OverlapCut2d t = cutOverlap2d(clipSegments2d(touching, m, 1.0), touching, m, 0.0);
    EXPECT_NEAR(t.length, 1.6, 1e-13);
    EXPECT_EQ(t.penetratingLength, 0.0);
}

TEST(CutOverlap2d, CurvedSlaveMatchesTheRootsOfItsParabola) {
    // Line3 slave y = g0 + k x^2 + b x on x in [-0.8, 0.8]: gap = y; kept where it is <= level,
    // found from the parabola's roots.
    std::mt19937 rng(9);
    for (int i = 0; i < 30; ++i) {
        const double g0 = uniform(rng, -0.02, 0.05);
        const double k = uniform(rng, 0.05, 0.3) * (i % 2 == 0 ? 1 : -1);
        const double b = uniform(rng, -0.05, 0.05);
        const auto y = [&](double x) { return g0 + k * x * x + b * x; };
        SegmentNodes s;
        s.type = SegmentType::Line3;
        s.x[0] = Vector3d(-0.8, y(-0.8), 0);
        s.x[1] = Vector3d(0.8, y(0.8), 0);
        s.x[2] = Vector3d(0.0, y(0.0), 0);
        const SegmentNodes m = masterLine();
        const SegmentClip2d clip = clipSegments2d(s, m, 10.0);
        ASSERT_EQ(clip.status, ClipStatus::kOverlap);
        // Measure of {x in [-0.8, 0.8] : y(x) <= level}.
        const auto exact = [&](double level) {
            const double disc = b * b - 4 * k * (g0 - level);
            double len = 0.0;
            if (disc <= 0) {
                return k > 0 ? 0.0 : 1.6;
            }
            const double r0 = (-b - std::sqrt(disc)) / (2 * k);
            const double r1 = (-b + std::sqrt(disc)) / (2 * k);
            const double lo = std::min(r0, r1);
            const double hi = std::max(r0, r1);
            const double inside = std::max(0.0, std::min(hi, 0.8) - std::max(lo, -0.8));
            len = k > 0 ? inside : 1.6 - inside;
            return len;
        };
        const double ymin = std::min({y(-0.8), y(0.8), y(-b / (2 * k))});
        const double ymax = std::max({y(-0.8), y(0.8)});
        for (const double w : {0.3, 0.6}) {
            const double level = ymin + w * (ymax - ymin);
            double previous = 1e300;
            for (const int n : {2, 4, 16}) {
                SCOPED_TRACE("seed 9, case " + std::to_string(i) + ", n " + std::to_string(n));
                const OverlapCut2d c = cutOverlap2d(clip, s, m, level, n);
                EXPECT_FALSE(c.affine);
                EXPECT_NEAR(c.length, exact(level), c.lengthError + 1e-12);
                EXPECT_NEAR(c.penetratingLength, exact(0.0), c.penetratingLengthError + 1e-12);
                EXPECT_LE(c.lengthError, previous);
                previous = c.lengthError;
            }
            EXPECT_LT(previous, 0.2);  // n = 16: two pieces of 0.1 at most
        }
    }
}

}  // namespace
}  // namespace contact
