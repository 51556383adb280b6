// SPDX-License-Identifier: MIT
// closestPoint(): against the brute-force oracle on random segments, named edge cases, rigid-motion
// and scaling invariance, and curved segments whose nodes lie on a circle or a sphere.
#include "contact/projection.hpp"
#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/warm_projection.hpp"
#include "eigen_checks.hpp"
#include "projection_oracle.hpp"
#include "scenes.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace contact {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
using testing::allNear;
using testing::oracleClosestPoint;
using testing::randomLocalPoint;
using testing::randomRotation;
using testing::randomSegment;
using testing::RandomSegmentOptions;
using testing::randomUnitVector;
using testing::transformed;
using testing::uniform;

constexpr double kEps = tol::kEps;

// Agreement with the oracle: 1e-10 of the segment size. The oracle refines to 1e-13 in xi and the
// kernel to kProjectionStepTol; the distance is quadratic in the xi error, so both are far closer.
constexpr double kOracleRel = 1e-10;

// Cases per segment type in the random oracle comparison (5 points per case);
// CONTACT_PROJECTION_CASES overrides it.
int randomCaseCount() {
    if (const char* env = std::getenv("CONTACT_PROJECTION_CASES")) {
        const int n = std::atoi(env);
        if (n > 0) {
            return n;
        }
    }
    return 300;
}

// Round-off of quantities computed from coordinates of this magnitude: a few dozen ulps.
double roundoff(const SegmentNodes& s, const Vector3d& p) {
    double m = p.cwiseAbs().maxCoeff();
    for (int i = 0; i < nodeCount(s.type); ++i) {
        m = std::max(m, s.x[i].cwiseAbs().maxCoeff());
    }
    return 64.0 * kEps * (m + characteristicSize(s));
}

// Distance of xi to the boundary of the reference domain (the test's own formula).
double boundarySlack(SegmentType t, const Vector2d& xi) {
    if (parametricDim(t) == 1) {
        return 1.0 - std::abs(xi[0]);
    }
    if (isTriangle(t)) {
        return std::min({xi[0], xi[1], 1.0 - xi[0] - xi[1]});
    }
    return 1.0 - std::max(std::abs(xi[0]), std::abs(xi[1]));
}

bool allFinite(const Projection& pr) {
    bool ok = pr.xi.allFinite() && pr.point.allFinite() && std::isfinite(pr.distance) &&
              std::isfinite(pr.gap) && pr.normal.allFinite() && pr.tangent1.allFinite() &&
              pr.tangent2.allFinite();
    for (const double n : pr.N) {
        ok = ok && std::isfinite(n);
    }
    return ok;
}

std::string describe(const SegmentNodes& s, const Vector3d& p) {
    std::string out = segmentTypeName(s.type);
    char buf[128];
    for (int i = 0; i < nodeCount(s.type); ++i) {
        std::snprintf(buf, sizeof buf, " x%d=(%.17g, %.17g, %.17g)", i, s.x[i].x(), s.x[i].y(),
                      s.x[i].z());
        out += buf;
    }
    std::snprintf(buf, sizeof buf, " p=(%.17g, %.17g, %.17g)", p.x(), p.y(), p.z());
    return out + buf;
}

// Every documented property of a result that needs no oracle.
void expectConsistent(const SegmentNodes& s, const Vector3d& p, const Projection& pr) {
    SCOPED_TRACE(describe(s, p));
    ASSERT_TRUE(allFinite(pr));
    const double eps = roundoff(s, p);
    EXPECT_TRUE(inReferenceDomain(s.type, pr.xi)) << pr.xi.transpose();
    if (parametricDim(s.type) == 1) {
        EXPECT_EQ(pr.xi[1], 0.0);
    }
    EXPECT_TRUE(allNear(pr.point, position(s, pr.xi), eps));
    EXPECT_NEAR(pr.distance, (p - pr.point).norm(), eps);

    const ShapeFunctions f = shapeFunctions(s.type, pr.xi);
    double sum = 0.0;
    for (int i = 0; i < kMaxSegmentNodes; ++i) {
        EXPECT_EQ(pr.N[i], f.N[i]) << "node " << i;
        sum += pr.N[i];
    }
    EXPECT_NEAR(sum, 1.0, 16 * kEps);

    if (pr.status == ProjectionStatus::kDegenerate) {
        EXPECT_EQ(pr.normal, Vector3d::Zero());
        EXPECT_EQ(pr.tangent1, Vector3d::Zero());
        EXPECT_EQ(pr.tangent2, Vector3d::Zero());
        EXPECT_EQ(pr.gap, pr.distance);
        return;
    }
    EXPECT_NEAR(pr.normal.norm(), 1.0, 16 * kEps);
    EXPECT_NEAR(pr.tangent1.norm(), 1.0, 16 * kEps);
    EXPECT_NEAR(pr.tangent2.norm(), 1.0, 16 * kEps);
    EXPECT_NEAR(pr.normal.dot(pr.tangent1), 0.0, 16 * kEps);
    EXPECT_NEAR(pr.normal.dot(pr.tangent2), 0.0, 16 * kEps);
    EXPECT_TRUE(allNear(pr.tangent2, pr.normal.cross(pr.tangent1), 16 * kEps));
    // segmentFrame on absolute coordinates loses digits when the segment is small compared with
    // its distance from the origin; the kernel works relative to node 0.
    const double frameTol = 1e-12 + 16.0 * eps / characteristicSize(s);
    const SegmentFrame frame = segmentFrame(s, pr.xi);
    if (!frame.degenerate) {  // else the normal comes from a point next to xi
        EXPECT_TRUE(allNear(pr.normal, frame.normal, frameTol));
        EXPECT_TRUE(allNear(pr.tangent1, frame.tangent1, frameTol));
    }
    EXPECT_NEAR(pr.gap, (p - pr.point).dot(pr.normal), eps);
    EXPECT_LE(std::abs(pr.gap), pr.distance + eps);
    if (pr.status == ProjectionStatus::kConverged || pr.status == ProjectionStatus::kOnBoundary) {
        EXPECT_EQ(pr.status == ProjectionStatus::kOnBoundary,
                  boundarySlack(s.type, pr.xi) <= tol::kOnBoundaryTol)
            << projectionStatusName(pr.status) << " at xi = " << pr.xi.transpose();
    }
    if (pr.status == ProjectionStatus::kConverged) {
        // Interior minimum: p - point is along the normal (no tangential residual).
        const Vector3d d = p - pr.point;
        EXPECT_LE((d - pr.gap * pr.normal).norm(), 1e-9 * characteristicSize(s) + 1e3 * eps)
            << "tangential residual at an interior closest point";
        EXPECT_NEAR(std::abs(pr.gap), pr.distance, 1e-9 * characteristicSize(s) + 1e3 * eps);
    }
}

bool convergedOrOnBoundary(ProjectionStatus s) {
    return s == ProjectionStatus::kConverged || s == ProjectionStatus::kOnBoundary;
}

// Compares with the oracle and returns |distance - oracle| / size.
double expectMatchesOracle(const SegmentNodes& s, const Vector3d& p, const Projection& pr) {
    const testing::OracleProjection o = oracleClosestPoint(s, p);
    const double size = characteristicSize(s);
    const double err = std::abs(pr.distance - o.distance);
    EXPECT_LE(err, kOracleRel * size + roundoff(s, p))
        << describe(s, p) << "\n  kernel " << pr.distance << " at xi " << pr.xi.transpose() << " ("
        << projectionStatusName(pr.status) << "), oracle " << o.distance << " at xi "
        << o.xi.transpose();
    return err / size;
}

// True when the Jacobian keeps its sign over the segment (sampled): a valid, unfolded element.
// A folded segment overlaps itself; its closest point is outside the kernel's contract.
bool unfolded(const SegmentNodes& s) {
    const bool line = parametricDim(s.type) == 1;
    const Vector3d n0 = outwardNormal(s, referenceCentre(s.type));
    const Vector3d chord = s.x[1] - s.x[0];
    const int n = 40;
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= (line ? 0 : n); ++j) {
            const Vector2d xi = isTriangle(s.type)
                                    ? Vector2d(double(i) / n, double(j) / n)
                                    : Vector2d(-1.0 + 2.0 * i / n, -1.0 + 2.0 * j / n);
            if (!inReferenceDomain(s.type, xi)) {
                continue;
            }
            const SegmentFrame f = segmentFrame(s, xi);
            const double jacobian = line ? f.dXi.dot(chord) : f.dXi.cross(f.dEta).dot(n0);
            if (!(jacobian > 0.0)) {
                return false;
            }
        }
    }
    return true;
}

// randomSegment(), drawn again until unfolded; counts the redraws in `folded` when given.
SegmentNodes validRandomSegment(SegmentType type, std::mt19937& rng,
                                const RandomSegmentOptions& opt = {}, int* folded = nullptr) {
    for (;;) {
        const SegmentNodes s = randomSegment(type, rng, opt);
        if (unfolded(s)) {
            return s;
        }
        if (folded != nullptr) {
            ++*folded;
        }
    }
}

// Kinds of query points around a segment.
enum class PointKind { kNear, kBeyondBoundary, kOnSegment, kBehind, kInFront };
constexpr std::array<PointKind, 5> kAllPointKinds = {PointKind::kNear, PointKind::kBeyondBoundary,
                                                     PointKind::kOnSegment, PointKind::kBehind,
                                                     PointKind::kInFront};

// A random corner or edge point of the reference domain.
Vector2d randomBoundaryPoint(SegmentType t, std::mt19937& rng) {
    if (parametricDim(t) == 1) {
        return {uniform(rng, 0.0, 1.0) < 0.5 ? -1.0 : 1.0, 0.0};
    }
    const int nc = cornerCount(t);
    const int k = std::uniform_int_distribution<int>(0, nc - 1)(rng);
    const Vector2d a = nodeLocalCoordinates(t, k);
    const Vector2d b = nodeLocalCoordinates(t, (k + 1) % nc);
    const double u = uniform(rng, 0.0, 1.0) < 0.4 ? 0.0 : uniform(rng, 0.0, 1.0);
    return a + u * (b - a);
}

// A query point of the given kind, within about one segment size of s.
Vector3d randomQueryPoint(const SegmentNodes& s, PointKind kind, std::mt19937& rng) {
    const bool planar = parametricDim(s.type) == 1;
    const double size = characteristicSize(s);
    const Vector2d xi = randomLocalPoint(s.type, rng);
    const Vector3d x = position(s, xi);
    const Vector3d n = outwardNormal(s, xi);
    switch (kind) {
    case PointKind::kNear: return x + uniform(rng, 0.0, 1.0) * size * randomUnitVector(rng, planar);
    case PointKind::kOnSegment: return x;
    case PointKind::kBehind: return x - uniform(rng, 1e-3, 0.5) * size * n;
    case PointKind::kInFront: return x + uniform(rng, 1e-3, 0.5) * size * n;
    case PointKind::kBeyondBoundary: {
        const Vector2d xb = randomBoundaryPoint(s.type, rng);
        const Vector3d b = position(s, xb);
        const Vector3d nb = outwardNormal(s, xb);
        Vector3d out = b - position(s, referenceCentre(s.type));
        out -= out.dot(nb) * nb;  // in the tangent plane, away from the segment
        out.normalize();
        return b + uniform(rng, 0.05, 1.0) * size * out + uniform(rng, -0.5, 0.5) * size * nb;
    }
    }
    return x;
}

// A rigid motion of the problem's dimension: rotation (about z for lines) and translation.
struct Motion {
    Eigen::Matrix3d R;
    Vector3d t;
};
Motion randomMotion(SegmentType type, std::mt19937& rng, double offset) {
    const bool planar = parametricDim(type) == 1;
    Motion m{randomRotation(rng, planar), offset * randomUnitVector(rng, planar)};
    return m;
}

// ---------------------------------------------------------------------------------------------
// 1. Random segments and points against the oracle, per segment type.

class ProjectionByType : public ::testing::TestWithParam<SegmentType> {};

TEST_P(ProjectionByType, MatchesOracleOnRandomSegments) {
    const SegmentType type = GetParam();
    const unsigned seed = 1000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    const int cases = randomCaseCount();
    double maxErr = 0.0;
    std::array<int, 4> statusCount{};
    int folded = 0;
    for (int c = 0; c < cases; ++c) {
        RandomSegmentOptions opt;
        opt.size = uniform(rng, 0.2, 5.0);
        opt.warp = uniform(rng, 0.0, 0.35);
        opt.curvature = uniform(rng, 0.0, 0.15);  // up to the generator's default
        opt.offset = 10.0;
        const SegmentNodes s = validRandomSegment(type, rng, opt, &folded);
        for (const PointKind kind : kAllPointKinds) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) + " kind " +
                         std::to_string(static_cast<int>(kind)));
            const Vector3d p = randomQueryPoint(s, kind, rng);
            const Projection pr = closestPoint(s, p);
            ++statusCount[static_cast<int>(pr.status)];
            EXPECT_TRUE(convergedOrOnBoundary(pr.status)) << projectionStatusName(pr.status);
            expectConsistent(s, p, pr);
            maxErr = std::max(maxErr, expectMatchesOracle(s, p, pr));
            if (kind == PointKind::kOnSegment) {
                EXPECT_LE(pr.distance, kOracleRel * characteristicSize(s));
            }
        }
    }
    std::printf("[ stats    ] %s: %d points, max |d - d_oracle| / size = %.3g, Converged %d, "
                "OnBoundary %d, Degenerate %d, NotConverged %d (%d folded segments redrawn)\n",
                segmentTypeName(type), 5 * cases, maxErr, statusCount[0], statusCount[1],
                statusCount[2], statusCount[3], folded);
}

// ---------------------------------------------------------------------------------------------
// 2. Named edge cases.

TEST_P(ProjectionByType, PointExactlyAtANodeIsFoundAtThatNode) {
    const SegmentType type = GetParam();
    const unsigned seed = 2000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    for (int c = 0; c < 20; ++c) {
        const SegmentNodes s = validRandomSegment(type, rng);
        for (int i = 0; i < nodeCount(type); ++i) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) + " node " +
                         std::to_string(i));
            const Projection pr = closestPoint(s, s.x[i]);
            expectConsistent(s, s.x[i], pr);
            const Vector2d xiNode = nodeLocalCoordinates(type, i);
            EXPECT_LE(pr.distance, 1e-12 * characteristicSize(s));
            EXPECT_TRUE(allNear(pr.xi, xiNode, 1e-10));
            EXPECT_EQ(pr.status, boundarySlack(type, xiNode) == 0.0 ? ProjectionStatus::kOnBoundary
                                                                    : ProjectionStatus::kConverged);
        }
    }
}

TEST_P(ProjectionByType, PointExactlyOnAnEdgeIsOnBoundary) {
    const SegmentType type = GetParam();
    const unsigned seed = 3000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    for (int c = 0; c < 100; ++c) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c));
        const SegmentNodes s = validRandomSegment(type, rng);
        const Vector2d xb = randomBoundaryPoint(type, rng);
        const Vector3d p = position(s, xb);
        const Projection pr = closestPoint(s, p);
        expectConsistent(s, p, pr);
        EXPECT_EQ(pr.status, ProjectionStatus::kOnBoundary);
        EXPECT_LE(pr.distance, 1e-12 * characteristicSize(s));
        EXPECT_TRUE(allNear(pr.xi, xb, 1e-8));
    }
}

TEST_P(ProjectionByType, FarInACornerRegionGivesTheCorner) {
    const SegmentType type = GetParam();
    const unsigned seed = 4000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    RandomSegmentOptions flat;  // straight edges, planar: a corner's Voronoi region is a wedge
    flat.warp = 0.0;
    flat.curvature = 0.0;
    const int nc = cornerCount(type);
    for (int c = 0; c < 20; ++c) {
        const SegmentNodes s = validRandomSegment(type, rng, flat);
        const double size = characteristicSize(s);
        const Vector3d n = outwardNormal(s, referenceCentre(type));
        for (int i = 0; i < nc; ++i) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) +
                         " corner " + std::to_string(i));
            // Away from both edges that leave corner i, plus any offset along the normal.
            Vector3d away = -(s.x[(i + 1) % nc] - s.x[i]).normalized();
            if (nc > 2) {
                away -= (s.x[(i + nc - 1) % nc] - s.x[i]).normalized();
            }
            const Vector3d p =
                s.x[i] + 10.0 * size * away.normalized() + uniform(rng, -10.0, 10.0) * size * n;
            const Projection pr = closestPoint(s, p);
            expectConsistent(s, p, pr);
            EXPECT_EQ(pr.status, ProjectionStatus::kOnBoundary);
            EXPECT_TRUE(allNear(pr.xi, nodeLocalCoordinates(type, i), 1e-12));
            EXPECT_NEAR(pr.distance, (p - s.x[i]).norm(), roundoff(s, p));
        }
    }
}

TEST_P(ProjectionByType, PointFarAwayMatchesOracle) {
    const SegmentType type = GetParam();
    const bool planar = parametricDim(type) == 1;
    const unsigned seed = 5000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    for (int c = 0; c < 20; ++c) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c));
        const SegmentNodes s = validRandomSegment(type, rng);
        const double size = characteristicSize(s);
        const Vector3d base = position(s, randomLocalPoint(type, rng));
        // Random direction, then straight along the normal (an interior closest point).
        const Vector3d dirs[2] = {randomUnitVector(rng, planar),
                                  outwardNormal(s, referenceCentre(type))};
        for (const Vector3d& u : dirs) {
            const Vector3d p = base + 1e6 * size * u;
            const Projection pr = closestPoint(s, p);
            EXPECT_TRUE(convergedOrOnBoundary(pr.status)) << projectionStatusName(pr.status);
            expectConsistent(s, p, pr);
            expectMatchesOracle(s, p, pr);
        }
    }
}

TEST_P(ProjectionByType, SegmentFarFromOriginKeepsRelativePrecision) {
    const SegmentType type = GetParam();
    const bool planar = parametricDim(type) == 1;
    const unsigned seed = 6000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    RandomSegmentOptions opt;
    opt.offset = 0.0;
    const Vector3d far(1e6, -1e6, planar ? 0.0 : 1e6);
    for (int c = 0; c < 10; ++c) {
        const SegmentNodes s =
            transformed(validRandomSegment(type, rng, opt), Eigen::Matrix3d::Identity(), far);
        const double size = characteristicSize(s);
        for (const PointKind kind : kAllPointKinds) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) + " kind " +
                         std::to_string(static_cast<int>(kind)));
            const Vector3d p = randomQueryPoint(s, kind, rng);
            const Projection pr = closestPoint(s, p);
            EXPECT_TRUE(convergedOrOnBoundary(pr.status)) << projectionStatusName(pr.status);
            expectConsistent(s, p, pr);
            // Relative to the size, not to 1e6: both sides work relative to node 0.
            const testing::OracleProjection o = oracleClosestPoint(s, p);
            EXPECT_NEAR(pr.distance, o.distance, kOracleRel * size);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Invariance: a rigid motion and a scaling of segment and point change nothing but the frame.

TEST_P(ProjectionByType, RigidMotionAndScalingChangeNothing) {
    const SegmentType type = GetParam();
    const unsigned seed = 7000 + static_cast<unsigned>(type);
    std::mt19937 rng(seed);
    RandomSegmentOptions opt;
    opt.curvature = 0.05;  // well-conditioned: no near ties between distant closest points
    for (int c = 0; c < 40; ++c) {
        const SegmentNodes s = validRandomSegment(type, rng, opt);
        const double size = characteristicSize(s);
        const Motion m = randomMotion(type, rng, 1e3);
        const double scale = std::pow(10.0, uniform(rng, -3.0, 3.0));
        SegmentNodes moved = transformed(s, scale * m.R, m.t);
        for (const PointKind kind : kAllPointKinds) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) + " kind " +
                         std::to_string(static_cast<int>(kind)));
            Vector3d p = randomQueryPoint(s, kind, rng);
            if (kind == PointKind::kNear) {  // keep it near: no ties across a curved segment
                p = position(s, randomLocalPoint(type, rng)) +
                    uniform(rng, 0.0, 0.3) * size * outwardNormal(s, referenceCentre(type));
            }
            const Vector3d pMoved = scale * (m.R * p) + m.t;
            const Projection a = closestPoint(s, p);
            const Projection b = closestPoint(moved, pMoved);
            expectConsistent(moved, pMoved, b);
            const double tolLength = 1e-10 * size + roundoff(moved, pMoved) / scale;
            EXPECT_NEAR(b.distance / scale, a.distance, tolLength);
            EXPECT_NEAR(b.gap / scale, a.gap, tolLength);
            EXPECT_TRUE(allNear(b.xi, a.xi, 1e-7));
            EXPECT_EQ(b.status, a.status);
            EXPECT_TRUE(allNear(b.normal, m.R * a.normal, 1e-7));
        }
    }
}

std::string typeName(const ::testing::TestParamInfo<SegmentType>& info) {
    return segmentTypeName(info.param);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ProjectionByType, ::testing::ValuesIn(kAllSegmentTypes),
                         typeName);

// Flat square of side `side` in the x-y plane, centred at the origin, normal +z.
SegmentNodes flatSquare(SegmentType type, double side) {
    SegmentNodes s;
    s.type = type;
    for (int i = 0; i < nodeCount(type); ++i) {
        const Vector2d q = 0.5 * side * nodeLocalCoordinates(type, i);
        s.x[i] = Vector3d(q.x(), q.y(), 0.0);
    }
    return s;
}

// A point at signed height h (in units of the side) straight above the centre of flat squares,
// rotated and moved: xi = 0, gap = h, normal = the face normal.
void expectStraightAboveTheCentre(double hLo, double hHi, unsigned seed) {
    std::mt19937 rng(seed);
    for (const SegmentType type : {SegmentType::Quad4, SegmentType::Quad8, SegmentType::Quad9}) {
        for (int c = 0; c < 10; ++c) {
            SCOPED_TRACE(std::string(segmentTypeName(type)) + " seed " + std::to_string(seed) +
                         " case " + std::to_string(c));
            const double side = uniform(rng, 0.1, 10.0);
            const Motion m = randomMotion(type, rng, 100.0);
            const SegmentNodes s = transformed(flatSquare(type, side), m.R, m.t);
            const Vector3d n = m.R * Vector3d::UnitZ();
            const double h = uniform(rng, hLo, hHi) * side;
            const Vector3d p = m.t + h * n;
            const Projection pr = closestPoint(s, p);
            expectConsistent(s, p, pr);
            EXPECT_EQ(pr.status, ProjectionStatus::kConverged);
            EXPECT_TRUE(allNear(pr.xi, Vector2d::Zero(), 1e-12));
            EXPECT_NEAR(pr.gap, h, roundoff(s, p));
            EXPECT_NEAR(pr.distance, std::abs(h), roundoff(s, p));
            // Rounding the rotated nodes (at |t| = 100) tilts the face by ~eps |t| / side.
            EXPECT_TRUE(allNear(pr.normal, n, roundoff(s, p) / side));
        }
    }
}

TEST(Projection, AboveTheCentreOfAFlatQuadGapIsTheHeight) {
    expectStraightAboveTheCentre(1e-3, 1.0, 8000);
}

TEST(Projection, BelowTheCentreOfAFlatQuadGapIsNegative) {
    expectStraightAboveTheCentre(-1.0, -1e-3, 8100);
}

// Random points of all kinds, plus points around `centre`, against the oracle.
void expectMatchesOracleAround(const SegmentNodes& s, const Vector3d& centre, unsigned seed,
                               int cases) {
    std::mt19937 rng(seed);
    const bool planar = parametricDim(s.type) == 1;
    const double size = characteristicSize(s);
    for (int c = 0; c < cases; ++c) {
        for (int k = 0; k <= static_cast<int>(kAllPointKinds.size()); ++k) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c) + " kind " +
                         std::to_string(k));
            const Vector3d p = k < static_cast<int>(kAllPointKinds.size())
                                   ? randomQueryPoint(s, kAllPointKinds[k], rng)
                                   : Vector3d(centre + uniform(rng, 0.0, 0.5) * size *
                                                           randomUnitVector(rng, planar));
            const Projection pr = closestPoint(s, p);
            EXPECT_TRUE(convergedOrOnBoundary(pr.status)) << projectionStatusName(pr.status);
            expectConsistent(s, p, pr);
            expectMatchesOracle(s, p, pr);
        }
    }
}

TEST(Projection, StronglyWarpedQuad4) {
    std::mt19937 rng(9000);
    for (int c = 0; c < 10; ++c) {
        SCOPED_TRACE("seed 9000 case " + std::to_string(c));
        SegmentNodes s = flatSquare(SegmentType::Quad4, 1.0);
        for (int i = 0; i < 4; ++i) {  // c = 0: the saddle, corners alternately +-0.4
            s.x[i].z() = c == 0 ? (i % 2 == 0 ? 0.4 : -0.4) : uniform(rng, -0.4, 0.4);
        }
        const Motion m = randomMotion(s.type, rng, 10.0);
        s = transformed(s, m.R, m.t);
        expectMatchesOracleAround(s, m.t, 9100 + c, 20);
    }
}

// Quarter circle of radius R about the origin (Line3: ends at 45 and 135 degrees, outward normal
// away from the centre).
SegmentNodes quarterCircleLine3(double R) {
    SegmentNodes s;
    s.type = SegmentType::Line3;
    const double h = R / std::sqrt(2.0);
    s.x[0] = Vector3d(h, h, 0.0);
    s.x[1] = Vector3d(-h, h, 0.0);
    s.x[2] = Vector3d(0.0, R, 0.0);
    return s;
}

// Patch of the sphere of radius R about the origin, around +z: node (a, b) of the 3 x 3 grid at
// R (a, b, 1) / |(a, b, 1)|, so each edge spans a quarter circle.
SegmentNodes sphereCapQuad(SegmentType type, double R) {
    SegmentNodes s;
    s.type = type;
    for (int i = 0; i < nodeCount(type); ++i) {
        const Vector2d q = nodeLocalCoordinates(type, i);
        s.x[i] = R * Vector3d(q.x(), q.y(), 1.0).normalized();
    }
    return s;
}

// Octant of the sphere of radius R: corners on the axes, midside nodes on the great-circle arcs.
SegmentNodes sphereOctantTri6(double R) {
    SegmentNodes s;
    s.type = SegmentType::Tri6;
    s.x[0] = R * Vector3d::UnitX();
    s.x[1] = R * Vector3d::UnitY();
    s.x[2] = R * Vector3d::UnitZ();
    for (int i = 0; i < 3; ++i) {
        s.x[3 + i] = R * (s.x[i] + s.x[(i + 1) % 3]).normalized();
    }
    return s;
}

TEST(Projection, StronglyCurvedQuadraticSegments) {
    std::mt19937 rng(10000);
    const SegmentNodes shapes[] = {quarterCircleLine3(1.0), sphereOctantTri6(1.0),
                                   sphereCapQuad(SegmentType::Quad8, 1.0),
                                   sphereCapQuad(SegmentType::Quad9, 1.0)};
    unsigned seed = 10100;
    for (const SegmentNodes& shape : shapes) {
        for (int c = 0; c < 4; ++c, ++seed) {
            SCOPED_TRACE(std::string(segmentTypeName(shape.type)) + " motion " + std::to_string(c));
            const Motion m = randomMotion(shape.type, rng, 10.0);
            const SegmentNodes s = transformed(shape, m.R, m.t);
            // m.t is the centre of curvature: the hardest place, many points nearly equidistant.
            expectMatchesOracleAround(s, m.t, seed, 12);
            const Projection pr = closestPoint(s, m.t);
            expectConsistent(s, m.t, pr);
            expectMatchesOracle(s, m.t, pr);
            EXPECT_LT(pr.gap, 0.0);  // the centre is behind the outward normal
        }
    }
}

TEST(Projection, CollapsedSegmentsAreDegenerateWithoutNaN) {
    std::mt19937 rng(11000);
    const Vector3d a(1.0, 2.0, 3.0);
    const Vector3d u(0.6, 0.8, 0.0);
    std::vector<SegmentNodes> cases;
    SegmentNodes tri;
    tri.type = SegmentType::Tri3;
    tri.x[0] = tri.x[1] = tri.x[2] = a;  // a point
    cases.push_back(tri);
    tri.x[1] = a + u;
    tri.x[2] = a + 0.5 * u;  // collinear, the third node between the others
    cases.push_back(tri);
    tri.x[2] = a + 2.0 * u;  // collinear, the third node outside
    cases.push_back(tri);
    tri.x[1] = a;
    tri.x[2] = a + u;  // two coincident nodes
    cases.push_back(tri);
    SegmentNodes line;
    line.type = SegmentType::Line2;
    line.x[0] = line.x[1] = Vector3d(1.0, 2.0, 0.0);  // zero length
    cases.push_back(line);
    SegmentNodes quad;
    quad.type = SegmentType::Quad4;
    quad.x[0] = quad.x[3] = a;
    quad.x[1] = quad.x[2] = a + u;  // collapsed to a line
    cases.push_back(quad);
    quad.type = SegmentType::Quad9;
    for (int i = 0; i < 9; ++i) {
        quad.x[i] = a + 0.5 * (nodeLocalCoordinates(SegmentType::Quad9, i).x() + 1.0) * u;
    }
    cases.push_back(quad);

    for (std::size_t c = 0; c < cases.size(); ++c) {
        const SegmentNodes& s = cases[c];
        for (int k = 0; k < 20; ++k) {
            SCOPED_TRACE("seed 11000 case " + std::to_string(c) + " point " + std::to_string(k));
            const bool planar = s.type == SegmentType::Line2;
            const Vector3d p = s.x[0] + uniform(rng, 0.0, 2.0) * randomUnitVector(rng, planar);
            const Projection pr = closestPoint(s, p);
            ASSERT_TRUE(allFinite(pr));
            EXPECT_EQ(pr.status, ProjectionStatus::kDegenerate);
            expectConsistent(s, p, pr);
            // The distance is still right, to the degenerate point set.
            const testing::OracleProjection o = oracleClosestPoint(s, p);
            EXPECT_NEAR(pr.distance, o.distance, 1e-10);
        }
    }
}

TEST(Projection, CollapsedCornerTakesTheNormalNextToIt) {
    // Quad4 with nodes 0 and 1 merged: the edge eta = -1 is a single point with no normal, but the
    // face next to it is flat with normal +z.
    SegmentNodes s = flatSquare(SegmentType::Quad4, 2.0);
    s.x[1] = s.x[0];
    for (const double h : {0.5, -0.5}) {
        const Vector3d p = s.x[0] + Vector3d(-0.3, -0.2, h);
        const Projection pr = closestPoint(s, p);
        expectConsistent(s, p, pr);
        EXPECT_EQ(pr.status, ProjectionStatus::kOnBoundary);
        EXPECT_NEAR(pr.xi[1], -1.0, 1e-12);
        EXPECT_TRUE(allNear(pr.normal, Vector3d::UnitZ(), 1e-12));
        EXPECT_NEAR(pr.distance, (p - s.x[0]).norm(), 1e-14);
        EXPECT_NEAR(pr.gap, h, 1e-14);
    }
}

// ---------------------------------------------------------------------------------------------
// The single-minimum certificate (distanceIsConvex): closestPoint() trusts it to run one Newton
// start, so it must never be true where the squared distance is not convex.

// Smallest eigenvalue of the Hessian of 1/2 |x(xi) - p|^2 at xi (lines: the 1 x 1 case).
double hessianMinEigenvalue(const SegmentNodes& s, const Vector3d& p, const Vector2d& xi) {
    const ShapeFunctions f = shapeFunctions(s.type, xi);
    Vector3d y = Vector3d::Zero();
    Vector3d yu = Vector3d::Zero();
    Vector3d yv = Vector3d::Zero();
    Vector3d yuu = Vector3d::Zero();
    Vector3d yuv = Vector3d::Zero();
    Vector3d yvv = Vector3d::Zero();
    for (int i = 0; i < nodeCount(s.type); ++i) {
        y += f.N[i] * s.x[i];
        yu += f.dXi[i] * s.x[i];
        yv += f.dEta[i] * s.x[i];
        yuu += f.dXiXi[i] * s.x[i];
        yuv += f.dXiEta[i] * s.x[i];
        yvv += f.dEtaEta[i] * s.x[i];
    }
    const Vector3d r = y - p;
    const double h00 = yu.squaredNorm() + r.dot(yuu);
    if (parametricDim(s.type) == 1) {
        return h00;
    }
    const double h11 = yv.squaredNorm() + r.dot(yvv);
    const double h01 = yu.dot(yv) + r.dot(yuv);
    return 0.5 * (h00 + h11) - std::hypot(0.5 * (h00 - h11), h01);
}

class ConvexityCertificate : public ::testing::TestWithParam<SegmentType> {};

// Wherever the certificate holds, the Hessian sampled on a fine grid of the domain is positive
// definite, and the single-start result matches the oracle. Warps and curvatures from flat to
// strong, points from on the segment to far away, so both answers occur.
TEST_P(ConvexityCertificate, HoldsOnlyWhereTheHessianIsPositiveDefinite) {
    const SegmentType type = GetParam();
    std::mt19937 rng(31000 + static_cast<unsigned>(type));
    const bool line = parametricDim(type) == 1;
    int certified = 0;
    int refused = 0;
    for (int c = 0; c < 150; ++c) {
        RandomSegmentOptions opt;
        opt.size = uniform(rng, 0.2, 5.0);
        const double strength = c % 2 == 0 ? 0.5 : 0.05;
        opt.warp = uniform(rng, 0.0, strength);
        opt.curvature = uniform(rng, 0.0, 0.6 * strength);
        opt.offset = 10.0;
        const SegmentNodes s = validRandomSegment(type, rng, opt);
        for (const PointKind kind : kAllPointKinds) {
            const Vector3d p = randomQueryPoint(s, kind, rng);
            if (!distanceIsConvex(s, p)) {
                ++refused;
                continue;
            }
            ++certified;
            SCOPED_TRACE(describe(s, p));
            const int n = 24;
            double worst = std::numeric_limits<double>::infinity();
            for (int i = 0; i <= n; ++i) {
                for (int j = 0; j <= (line ? 0 : n); ++j) {
                    const Vector2d xi =
                        isTriangle(type)
                            ? Vector2d(double(i) / n, double(j) / n)
                            : Vector2d(-1.0 + 2.0 * i / n, line ? 0.0 : -1.0 + 2.0 * j / n);
                    if (inReferenceDomain(type, xi)) {
                        worst = std::min(worst, hessianMinEigenvalue(s, p, xi));
                    }
                }
            }
            EXPECT_GT(worst, 0.0);
            expectMatchesOracle(s, p, closestPoint(s, p));
        }
    }
    std::printf("[ stats    ] %s: certified %d, refused %d\n", segmentTypeName(type), certified,
                refused);
    EXPECT_GT(certified, 50);
    EXPECT_GT(refused, 0);
}

// The usual contact case takes the fast path: a segment of a mesh of a sphere with ten elements
// per radian (warped, for Quad4: its corners on the sphere) and a point within half the segment
// size of it, off-centre in the segment.
TEST_P(ConvexityCertificate, SegmentsOfASmoothSurfaceWithNearPointsAreCertified) {
    const SegmentType type = GetParam();
    std::mt19937 rng(32000 + static_cast<unsigned>(type));
    const bool line = parametricDim(type) == 1;
    const double R = 10.0;  // the segment spans about one unit
    int certified = 0;
    const int cases = 400;
    for (int c = 0; c < cases; ++c) {
        // A cell of the sphere (circle) mesh around a random direction, squeezed up to 2:1.
        const double su = uniform(rng, 0.5, 1.0) / R;
        const double sv = uniform(rng, 0.5, 1.0) / R;
        SegmentNodes cell;
        cell.type = type;
        for (int i = 0; i < nodeCount(type); ++i) {
            const Vector2d q = nodeLocalCoordinates(type, i);
            const Vector3d dir =
                line ? Vector3d(su * q.x(), 1.0, 0.0) : Vector3d(su * q.x(), sv * q.y(), 1.0);
            cell.x[i] = R * dir.normalized();
        }
        const Motion m = randomMotion(type, rng, 10.0);
        const SegmentNodes s = transformed(cell, m.R, m.t);
        const Vector2d xi = randomLocalPoint(type, rng);
        const Vector3d p = position(s, xi) + uniform(rng, -0.5, 0.5) * outwardNormal(s, xi);
        certified += distanceIsConvex(s, p) ? 1 : 0;
    }
    std::printf("[ stats    ] %s: certified %d of %d\n", segmentTypeName(type), certified, cases);
    EXPECT_GE(certified, cases * 95 / 100) << segmentTypeName(type);
}

// closestXi() + projectionAt() are closestPoint() in two halves: the same bits.
TEST_P(ConvexityCertificate, SplitProjectionIsBitIdentical) {
    const SegmentType type = GetParam();
    std::mt19937 rng(33000 + static_cast<unsigned>(type));
    for (int c = 0; c < 100; ++c) {
        const SegmentNodes s = validRandomSegment(type, rng);
        for (const PointKind kind : kAllPointKinds) {
            const Vector3d p = randomQueryPoint(s, kind, rng);
            const Projection whole = closestPoint(s, p);
            const ClosestXi half = closestXi(s, p);
            const Projection split = projectionAt(s, p, half);
            EXPECT_EQ(half.distance, whole.distance);
            EXPECT_EQ(half.xi, whole.xi);
            EXPECT_EQ(split.gap, whole.gap);
            EXPECT_EQ(split.normal, whole.normal);
            EXPECT_EQ(split.status, whole.status);
        }
    }
}

// closestXi() takes a certified minimum's steps inside the domain by interiorNewton: the iterates
// of the general active-set loop (detail::closestXiActiveSet), bit for bit, near and far, on
// mildly and strongly warped segments (steps cut at the boundary and backtracking hand over).
TEST_P(ConvexityCertificate, InteriorNewtonTakesTheActiveSetIterates) {
    const SegmentType type = GetParam();
    std::mt19937 rng(34000 + static_cast<unsigned>(type));
    int certified = 0;
    for (int c = 0; c < 200; ++c) {
        RandomSegmentOptions opt;
        const double strength = c % 2 == 0 ? 0.5 : 0.02;
        opt.warp = uniform(rng, 0.0, strength);
        opt.curvature = uniform(rng, 0.0, 0.6 * strength);
        const SegmentNodes s = validRandomSegment(type, rng, opt);
        for (const PointKind kind : kAllPointKinds) {
            const Vector3d p = randomQueryPoint(s, kind, rng);
            certified += distanceIsConvex(s, p) ? 1 : 0;
            const ClosestXi fast = closestXi(s, p);
            const ClosestXi general = detail::closestXiActiveSet(s, p);
            EXPECT_EQ(fast.xi, general.xi) << "case " << c;
            EXPECT_EQ(fast.distance, general.distance);
            EXPECT_EQ(fast.converged, general.converged);
        }
    }
    std::printf("[ stats    ] %s: certified %d of %d\n", segmentTypeName(type), certified,
                200 * static_cast<int>(std::size(kAllPointKinds)));
    EXPECT_GT(certified, 300) << "the interior loop is hardly reached";
}

// Beyond the centre of curvature the distance has several minima: never certified.
TEST(ConvexityCertificateCases, RefusedAtTheCentreOfCurvature) {
    EXPECT_FALSE(distanceIsConvex(quarterCircleLine3(1.0), Vector3d::Zero()));
    EXPECT_FALSE(distanceIsConvex(sphereOctantTri6(1.0), Vector3d::Zero()));
    EXPECT_FALSE(distanceIsConvex(sphereCapQuad(SegmentType::Quad8, 1.0), Vector3d::Zero()));
    EXPECT_FALSE(distanceIsConvex(sphereCapQuad(SegmentType::Quad9, 1.0), Vector3d::Zero()));
    SegmentNodes saddle = flatSquare(SegmentType::Quad4, 1.0);
    for (int i = 0; i < 4; ++i) {
        saddle.x[i].z() = i % 2 == 0 ? 0.4 : -0.4;
    }
    EXPECT_FALSE(distanceIsConvex(saddle, Vector3d(0.0, 0.0, 5.0)));
    EXPECT_TRUE(distanceIsConvex(flatSquare(SegmentType::Quad4, 1.0), Vector3d(0.1, 0.2, 0.3)));
}

INSTANTIATE_TEST_SUITE_P(CurvedOrWarpedTypes, ConvexityCertificate,
                         ::testing::Values(SegmentType::Line3, SegmentType::Tri6,
                                           SegmentType::Quad4, SegmentType::Quad8,
                                           SegmentType::Quad9),
                         [](const ::testing::TestParamInfo<SegmentType>& info) {
                             return std::string(segmentTypeName(info.param));
                         });

TEST(Projection, StatusNamesAreDistinct) {
    std::set<std::string> names;
    for (const ProjectionStatus s :
         {ProjectionStatus::kConverged, ProjectionStatus::kOnBoundary,
          ProjectionStatus::kDegenerate, ProjectionStatus::kNotConverged}) {
        names.insert(projectionStatusName(s));
    }
    EXPECT_EQ(names.size(), 4u);
    EXPECT_STREQ(projectionStatusName(ProjectionStatus::kOnBoundary), "OnBoundary");
}

// ---------------------------------------------------------------------------------------------
// 4. Analytic: nodes on a circle / sphere of radius R about the origin.

// How far the interpolated segment strays from the circle/sphere of radius R about the origin:
// inward, R minus the oracle's distance from the centre (exact up to the oracle's precision);
// outward, the largest |x(xi)| - R over a dense sampling. A point's distance to the segment and to
// the circle/sphere differ by at most this for the points used below, whose nearest point of the
// circle/sphere is the middle node.
double interpolationError(const SegmentNodes& s, double R) {
    double outward = 0.0;
    const int n = 400;
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= (parametricDim(s.type) == 1 ? 0 : n); ++j) {
            const Vector2d xi(-1.0 + 2.0 * i / n, -1.0 + 2.0 * j / n);
            outward = std::max(outward, position(s, xi).norm() - R);
        }
    }
    const double inward = R - oracleClosestPoint(s, Vector3d::Zero()).distance;
    return std::max(inward, outward) + 1e-12 * R;
}

void expectAnalyticOnAxis(const SegmentNodes& s, double R, const Vector3d& axis) {
    const double interp = interpolationError(s, R);
    ASSERT_GT(interp, 1e-3 * R);  // a real interpolation error, so the bound is not vacuous
    ASSERT_LT(interp, 0.1 * R);
    // The centre of curvature, a point inside and one outside, all on the axis through the
    // middle node: the nearest point of the circle/sphere is that node, distance |h - R|.
    for (const double h : {0.0, 0.5 * R, 1.3 * R}) {
        SCOPED_TRACE("h = " + std::to_string(h));
        const Vector3d p = h * axis;
        const Projection pr = closestPoint(s, p);
        expectConsistent(s, p, pr);
        EXPECT_TRUE(convergedOrOnBoundary(pr.status));
        EXPECT_NEAR(pr.distance, std::abs(h - R), interp);
        expectMatchesOracle(s, p, pr);
        EXPECT_EQ(pr.gap > 0.0, h > R);
    }
}

TEST(ProjectionAnalytic, Line3OnACircle) {
    const double R = 2.5;
    expectAnalyticOnAxis(quarterCircleLine3(R), R, Vector3d::UnitY());
    // Outside, on the axis: the middle node, exactly on the circle, is the closest point.
    const Projection pr = closestPoint(quarterCircleLine3(R), Vector3d(0.0, 1.3 * R, 0.0));
    EXPECT_NEAR(pr.xi[0], 0.0, 1e-12);
    EXPECT_NEAR(pr.gap, 0.3 * R, 1e-14 * R);
    EXPECT_TRUE(allNear(pr.normal, Vector3d::UnitY(), 1e-14));
}

TEST(ProjectionAnalytic, Quad9OnASphere) {
    const double R = 1.5;
    const SegmentNodes s = sphereCapQuad(SegmentType::Quad9, R);
    expectAnalyticOnAxis(s, R, Vector3d::UnitZ());
    const Projection pr = closestPoint(s, Vector3d(0.0, 0.0, 1.3 * R));
    EXPECT_TRUE(allNear(pr.xi, Vector2d::Zero(), 1e-12));
    EXPECT_NEAR(pr.gap, 0.3 * R, 1e-14 * R);
    EXPECT_TRUE(allNear(pr.normal, Vector3d::UnitZ(), 1e-14));
}

TEST(ProjectionAnalytic, FlatQuad9NormalAboveTheCentreIsTheFaceNormal) {
    std::mt19937 rng(12000);
    for (int c = 0; c < 20; ++c) {
        SCOPED_TRACE("seed 12000 case " + std::to_string(c));
        // Flat, with midside and centre nodes moved in the plane (curved edges, flat face).
        SegmentNodes s = flatSquare(SegmentType::Quad9, 2.0);
        for (int i = 4; i < 9; ++i) {
            s.x[i] += Vector3d(uniform(rng, -0.15, 0.15), uniform(rng, -0.15, 0.15), 0.0);
        }
        const Motion m = randomMotion(s.type, rng, 10.0);
        s = transformed(s, m.R, m.t);
        const Vector3d n = m.R * Vector3d::UnitZ();
        const double h = uniform(rng, -1.0, 1.0);
        const Vector3d p = position(s, Vector2d::Zero()) + h * n;
        const Projection pr = closestPoint(s, p);
        expectConsistent(s, p, pr);
        EXPECT_EQ(pr.status, ProjectionStatus::kConverged);
        EXPECT_TRUE(allNear(pr.xi, Vector2d::Zero(), 1e-10));
        EXPECT_TRUE(allNear(pr.normal, n, 1e-12));
        EXPECT_NEAR(pr.gap, h, roundoff(s, p));
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Status of the multi-start search, and points that are not finite.

// Tangential gradient of 1/2 |x(xi) - p|^2 along the local coordinates not held at a bound of the
// domain (the hypotenuse of a triangle holds both), relative to |dx/dxi_i| |x - p|: about 1e-13
// (the Newton tolerance in xi) at a converged minimum.
double freeGradient(const SegmentNodes& s, const Vector3d& p, const Vector2d& xi) {
    const SegmentFrame f = segmentFrame(s, xi);
    const Vector3d r = f.point - p;
    const bool tri = isTriangle(s.type);
    if (tri && xi[0] + xi[1] >= 1.0) {
        return 0.0;
    }
    double worst = 0.0;
    for (int i = 0; i < parametricDim(s.type); ++i) {
        const bool held = tri ? xi[i] <= 0.0 : std::abs(xi[i]) >= 1.0;
        const Vector3d& dx = i == 0 ? f.dXi : f.dEta;
        if (!held) {
            worst = std::max(worst, std::abs(dx.dot(r)) / (dx.norm() * r.norm()));
        }
    }
    return worst;
}

// Quadratic segments and points where one Newton start ran out of iterations (zig-zagging on
// Levenberg-shifted steps) a few 1e-9 in xi short of the minimum another start had converged to;
// its squared distance was smaller by one ulp, and it replaced the converged result: status
// kNotConverged, xi 3e-9 off (Tri6). A tie within rounding now keeps the converged run.
TEST(ProjectionMultiStart, ARunCutShortDoesNotReplaceAConvergedTie) {
    struct Case {
        SegmentType type;
        std::vector<Vector3d> x;
        Vector3d p;
    };
    const std::vector<Case> cases = {
        {SegmentType::Tri6,
         {{0.0095434387907369078, 0.095712192747040653, -0.023597976780625335},
          {1.083010484198752, -0.073806054935910415, 0.0066850371113417462},
          {0.078708391345449075, 0.98385726636517512, -0.053036217571642064},
          {0.55838472636844161, -0.29049376000077354, -3.3663777561248116},
          {0.59647595322057922, 0.17330626670396931, 1.3647512436095282},
          {0.19997414821336687, 0.69076973727684388, -2.7422443491942587}},
         {0.33229396792140936, 0.5333247274088625, -3.5478978628979818}},
        {SegmentType::Quad8,
         {{-0.96411513928297987, -1.0356188302438731, -0.099071806612044289},
          {1.0409312886474962, -0.92571162891162917, 0.65700484529535119},
          {0.9799969172464259, 0.98899848261895773, -0.25200907041032627},
          {-1.0012303853388629, 1.0393926943821439, 0.67152112876845216},
          {0.050649253001260858, -1.0465207506227707, -2.3671402389827745},
          {1.005775355408894, 0.065383279038951136, 1.9140658586696371},
          {-0.045641508310720169, 0.97117118152661885, -0.3680899227599137},
          {-0.98453998996011605, 0.042162139081118516, -1.7767313289349942}},
         {2.8484145018538589, 0.28121486925917905, -0.13567191520261687}},
        {SegmentType::Quad9,
         {{-1.0713562790575635, -1.0594756881934349, 0.38413897466226443},
          {1.0866546057277051, -1.0082346431564899, -0.072025138842370884},
          {0.94960433600839023, 1.0665450985572515, -0.33500339983186489},
          {-0.92590067198017834, 0.9515073169046282, 0.2337816727423071},
          {-0.29664906196308088, -0.58951425880751607, -0.017174361625589607},
          {0.9018608484965045, 0.027541286849449939, 0.24335491817703203},
          {-0.13937991227176527, 1.297677571230003, -0.49610911394689633},
          {-0.87763607166010194, -0.020145723034421303, -0.15647611334759337},
          {0.18354908262889505, 0.42637081073435046, 0.24688898145110172}},
         {-0.31150764981638523, -0.36636579870153307, 2.4695458632171219}},
    };
    for (const Case& c : cases) {
        SegmentNodes s;
        s.type = c.type;
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            s.x[i] = c.x[i];
        }
        SCOPED_TRACE(describe(s, c.p));
        const Projection pr = closestPoint(s, c.p);
        EXPECT_TRUE(convergedOrOnBoundary(pr.status)) << projectionStatusName(pr.status);
        expectConsistent(s, c.p, pr);
        expectMatchesOracle(s, c.p, pr);
        // The oracle minimizes the distance itself, which is flat to second order: its xi is
        // good to about sqrt(eps). The gradient pins the kernel's xi far closer.
        const testing::OracleProjection o = oracleClosestPoint(s, c.p);
        EXPECT_TRUE(allNear(pr.xi, o.xi, 1e-7)) << pr.xi.transpose() << " vs " << o.xi.transpose();
        EXPECT_LE(freeGradient(s, c.p, pr.xi), 1e-11) << "xi " << pr.xi.transpose();
        const ClosestXi cx = closestXi(s, c.p);
        EXPECT_EQ(cx.distance, pr.distance);
        EXPECT_TRUE(cx.converged);
    }
}

// Beyond a centre of curvature of a Tri6, where H is indefinite: the Newton starts in the basin of
// the closest point (on the edge eta = 0) took Gauss-Newton steps, which ignore the curvature
// term, zig-zagged for 50 iterations and stopped 2.5e-4 farther than the oracle (NotConverged).
// The modified Hessian (eigenvalues made positive) converges there.
TEST(ProjectionMultiStart, IndefiniteHessianStillReachesTheClosestPoint) {
    SegmentNodes s;
    s.type = SegmentType::Tri6;
    s.x[0] = Vector3d(0.035956790781528081, 0.063085757103338719, -0.78152782910162566);
    s.x[1] = Vector3d(1.0271196213400058, -0.050359816634128411, 0.52869388993315747);
    s.x[2] = Vector3d(0.064174101990623983, 0.99560419257371491, -0.38684172168772224);
    s.x[3] = Vector3d(0.93922169564886149, -0.013570181319653762, 0.57183614179057263);
    s.x[4] = Vector3d(0.29848058603355837, 0.31602035687513697, 0.67013933357654976);
    s.x[5] = Vector3d(0.086876702950929058, 0.72120493226028604, -0.85541647806120191);
    const Vector3d p(1.2702245407097057, 0.72436847466576515, 4.4337007108617943);
    SCOPED_TRACE(describe(s, p));
    const Projection pr = closestPoint(s, p);
    EXPECT_EQ(pr.status, ProjectionStatus::kOnBoundary) << projectionStatusName(pr.status);
    EXPECT_EQ(pr.xi[1], 0.0);
    expectConsistent(s, p, pr);
    expectMatchesOracle(s, p, pr);
    EXPECT_LE(freeGradient(s, p, pr.xi), 1e-11) << "xi " << pr.xi.transpose();
}

// A strongly curved quadratic segment: the reference layout, nodes jittered by 0.1, midside (and
// centre) nodes moved off the plane by up to `curvature`, corners by up to `warp`, and on odd
// cases the midside nodes also moved in the plane by up to 0.4.
SegmentNodes curvedSegment(SegmentType type, std::mt19937& rng, double curvature, double warp,
                           bool distorted) {
    SegmentNodes s;
    s.type = type;
    for (int i = 0; i < nodeCount(type); ++i) {
        const Vector2d r = nodeLocalCoordinates(type, i);
        Vector3d x(r[0] + uniform(rng, -0.1, 0.1), r[1] + uniform(rng, -0.1, 0.1), 0.0);
        const bool midside = i >= cornerCount(type);
        x[2] = midside ? uniform(rng, -curvature, curvature) : uniform(rng, -warp, warp);
        if (midside && distorted) {
            x += Vector3d(uniform(rng, -0.4, 0.4), uniform(rng, -0.4, 0.4), 0.0);
        }
        s.x[i] = x;
    }
    return s;
}

// Points up to 4 element sizes along the normal of random points of strongly curved segments:
// near centres of curvature, where the distance has several minima and some Newton starts take
// many steps. Every result converges (about 1 in 3000 did not, seed 13000 included), and matches
// the oracle (checked on every 8th case and on any case not converged).
TEST(ProjectionMultiStart, StronglyCurvedSegmentsAlwaysConverge) {
    const int cases = 3000;
    for (const SegmentType type : {SegmentType::Tri6, SegmentType::Quad8, SegmentType::Quad9}) {
        const unsigned seed = 13000 + static_cast<unsigned>(type);
        std::mt19937 rng(seed);
        int notConverged = 0;
        for (int c = 0; c < cases; ++c) {
            const double curvature = uniform(rng, 0.5, 4.0);
            const double warp = uniform(rng, 0.0, 1.5);
            const SegmentNodes s = curvedSegment(type, rng, curvature, warp, c % 2 == 1);
            const Vector2d xi = randomLocalPoint(type, rng);
            const SegmentFrame f = segmentFrame(s, xi);
            const Vector3d off(uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3),
                               uniform(rng, -0.3, 0.3));
            const double along = uniform(rng, -4.0, 4.0);
            if (f.degenerate) {
                continue;
            }
            const Vector3d p = f.point + along * f.normal + off;
            const Projection pr = closestPoint(s, p);
            const bool converged = convergedOrOnBoundary(pr.status);
            notConverged += converged ? 0 : 1;
            if (!converged || c % 8 == 0) {
                SCOPED_TRACE("seed " + std::to_string(seed) + " case " + std::to_string(c));
                EXPECT_TRUE(converged) << projectionStatusName(pr.status);
                expectMatchesOracle(s, p, pr);
            }
        }
        std::printf("[ stats    ] %s: %d strongly curved cases, NotConverged %d\n",
                    segmentTypeName(type), cases, notConverged);
        EXPECT_EQ(notConverged, 0) << segmentTypeName(type);
    }
}

// NaN or Inf in p, or a p so far that the distance overflows: kDegenerate, for every type and
// through closestXi / projectionAt and the warm path as well (Converged or OnBoundary with a NaN
// or Inf distance before).
TEST(Projection, PointNotFiniteIsDegenerate) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    std::mt19937 rng(14000);
    for (const SegmentType type : kAllSegmentTypes) {
        const SegmentNodes s = validRandomSegment(type, rng);
        const bool planar = parametricDim(type) == 1;
        for (const double bad : {nan, inf, -inf, 1e300}) {
            for (int axis = 0; axis < (planar ? 2 : 3); ++axis) {
                Vector3d p = position(s, randomLocalPoint(type, rng));
                p[axis] = bad;
                SCOPED_TRACE(describe(s, p));
                const Projection pr = closestPoint(s, p);
                EXPECT_EQ(pr.status, ProjectionStatus::kDegenerate);
                EXPECT_FALSE(std::isfinite(pr.distance));
                EXPECT_EQ(pr.normal, Vector3d::Zero());
                EXPECT_TRUE(inReferenceDomain(type, pr.xi) || !pr.xi.allFinite());
                const Projection split = projectionAt(s, p, closestXi(s, p));
                EXPECT_EQ(split.status, ProjectionStatus::kDegenerate);
                const detail::WarmClosest w = detail::warmClosestXi(s, p, nullptr);
                EXPECT_EQ(detail::warmProjectionAt(s, p, w).status, ProjectionStatus::kDegenerate);
            }
        }
    }
}

}  // namespace
}  // namespace contact
