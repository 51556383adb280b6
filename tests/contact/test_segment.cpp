// SPDX-License-Identifier: MIT
// Shape functions, frames, sizes and Bezier control points of every segment type.
#include "contact/segment.hpp"

#include "eigen_checks.hpp"
#include "scenes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace contact {
namespace {

using testing::allNear;

class SegmentTypeTest : public ::testing::TestWithParam<SegmentType> {};

std::string typeName(const ::testing::TestParamInfo<SegmentType>& info) {
    return segmentTypeName(info.param);
}

TEST_P(SegmentTypeTest, PartitionOfUnityAndZeroSumDerivatives) {
    const SegmentType type = GetParam();
    std::mt19937 rng(11);
    for (int c = 0; c < 200; ++c) {
        SCOPED_TRACE("seed 11, case " + std::to_string(c));
        const ShapeFunctions f = shapeFunctions(type, testing::randomLocalPoint(type, rng));
        double n = 0, dx = 0, de = 0, dxx = 0, dxe = 0, dee = 0;
        for (int i = 0; i < kMaxSegmentNodes; ++i) {
            n += f.N[i];
            dx += f.dXi[i];
            de += f.dEta[i];
            dxx += f.dXiXi[i];
            dxe += f.dXiEta[i];
            dee += f.dEtaEta[i];
        }
        EXPECT_NEAR(n, 1.0, 1e-14);
        for (double d : {dx, de, dxx, dxe, dee}) {
            EXPECT_NEAR(d, 0.0, 1e-13);
        }
        for (int i = nodeCount(type); i < kMaxSegmentNodes; ++i) {
            EXPECT_EQ(f.N[i], 0.0) << "entry past the node count, i = " << i;
        }
    }
}

// shapeValues and shapeGradients compute fewer orders with the same arithmetic: the same bits
// (also outside the domain, where the Newton iterations evaluate).
TEST_P(SegmentTypeTest, LowerOrderEvaluationsGiveTheSameBits) {
    const SegmentType type = GetParam();
    std::mt19937 rng(12);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int c = 0; c < 200; ++c) {
        SCOPED_TRACE("seed 12, case " + std::to_string(c));
        const Eigen::Vector2d xi =
            c % 2 == 0 ? testing::randomLocalPoint(type, rng) : Eigen::Vector2d(u(rng), u(rng));
        const ShapeFunctions f = shapeFunctions(type, xi);
        const ShapeGradients g = shapeGradients(type, xi);
        const std::array<double, kMaxSegmentNodes> n = shapeValues(type, xi);
        for (int i = 0; i < kMaxSegmentNodes; ++i) {
            EXPECT_EQ(g.N[i], f.N[i]) << i;
            EXPECT_EQ(n[i], f.N[i]) << i;
            EXPECT_EQ(g.dXi[i], f.dXi[i]) << i;
            EXPECT_EQ(g.dEta[i], f.dEta[i]) << i;
        }
    }
}

TEST_P(SegmentTypeTest, KroneckerDeltaAtNodes) {
    const SegmentType type = GetParam();
    for (int j = 0; j < nodeCount(type); ++j) {
        const Eigen::Vector2d xi = nodeLocalCoordinates(type, j);
        EXPECT_TRUE(inReferenceDomain(type, xi));
        const ShapeFunctions f = shapeFunctions(type, xi);
        for (int i = 0; i < nodeCount(type); ++i) {
            EXPECT_NEAR(f.N[i], i == j ? 1.0 : 0.0, 1e-15) << "N_" << i << " at node " << j;
        }
    }
}

TEST_P(SegmentTypeTest, DerivativesMatchCentralDifferences) {
    const SegmentType type = GetParam();
    const bool face = parametricDim(type) == 2;
    std::mt19937 rng(12);
    const double h = 1e-6;
    for (int c = 0; c < 100; ++c) {
        SCOPED_TRACE("seed 12, case " + std::to_string(c));
        const Eigen::Vector2d xi = testing::randomLocalPoint(type, rng);
        const ShapeFunctions f = shapeFunctions(type, xi);
        const ShapeFunctions fxp = shapeFunctions(type, xi + Eigen::Vector2d(h, 0));
        const ShapeFunctions fxm = shapeFunctions(type, xi - Eigen::Vector2d(h, 0));
        const ShapeFunctions fep = shapeFunctions(type, xi + Eigen::Vector2d(0, h));
        const ShapeFunctions fem = shapeFunctions(type, xi - Eigen::Vector2d(0, h));
        for (int i = 0; i < nodeCount(type); ++i) {
            EXPECT_NEAR(f.dXi[i], (fxp.N[i] - fxm.N[i]) / (2 * h), 1e-8);
            EXPECT_NEAR(f.dXiXi[i], (fxp.dXi[i] - fxm.dXi[i]) / (2 * h), 1e-8);
            if (face) {
                EXPECT_NEAR(f.dEta[i], (fep.N[i] - fem.N[i]) / (2 * h), 1e-8);
                EXPECT_NEAR(f.dXiEta[i], (fep.dXi[i] - fem.dXi[i]) / (2 * h), 1e-8);
                EXPECT_NEAR(f.dEtaEta[i], (fep.dEta[i] - fem.dEta[i]) / (2 * h), 1e-8);
            } else {
                EXPECT_EQ(f.dEta[i], 0.0);
            }
        }
    }
}

// Every type interpolates exactly the polynomials of its space: linear for all, and the quadratic
// monomials each quadratic type contains (the serendipity Quad8 lacks xi^2 eta^2 only).
TEST_P(SegmentTypeTest, ReproducesPolynomialFields) {
    const SegmentType type = GetParam();
    const auto field = [type](const Eigen::Vector2d& q) -> Eigen::Vector3d {
        const double s = q[0];
        const double t = q[1];
        Eigen::Vector3d v(1.0 + 2.0 * s - 0.5 * t, -3.0 + 0.25 * s + 4.0 * t, 0.5 - s + t);
        if (type == SegmentType::Quad4) {
            v.z() += 0.7 * s * t;  // bilinear
        }
        if (isQuadratic(type)) {
            v.x() += 0.3 * s * s;
            v.y() -= 0.4 * s * t;
            v.z() += 0.2 * t * t;
        }
        if (type == SegmentType::Quad8 || type == SegmentType::Quad9) {
            v.x() += 0.6 * s * s * t;
            v.y() += 0.1 * s * t * t;
        }
        if (type == SegmentType::Quad9) {
            v.z() += 0.9 * s * s * t * t;
        }
        return v;
    };
    SegmentNodes s;
    s.type = type;
    for (int i = 0; i < nodeCount(type); ++i) {
        s.x[i] = field(nodeLocalCoordinates(type, i));
    }
    std::mt19937 rng(13);
    for (int c = 0; c < 100; ++c) {
        const Eigen::Vector2d xi = testing::randomLocalPoint(type, rng);
        EXPECT_TRUE(allNear(position(s, xi), field(xi), 1e-13)) << "case " << c;
    }
}

// Convex hull property needs the Bezier form to describe the same curve or face: evaluate the
// Bernstein polynomial over the control points and compare with the Lagrange position.
Eigen::Vector3d bernstein(const SegmentNodes& s, const ControlPoints& cp,
                          const Eigen::Vector2d& xi) {
    const auto b2 = [](double t) {
        return Eigen::Vector3d((1 - t) * (1 - t), 2 * t * (1 - t), t * t);
    };
    switch (s.type) {
    case SegmentType::Line2: {
        const double t = 0.5 * (xi[0] + 1);
        return (1 - t) * cp.p[0] + t * cp.p[1];
    }
    case SegmentType::Line3: {
        const Eigen::Vector3d w = b2(0.5 * (xi[0] + 1));
        return w[0] * cp.p[0] + w[1] * cp.p[2] + w[2] * cp.p[1];
    }
    case SegmentType::Tri3:
        return (1 - xi[0] - xi[1]) * cp.p[0] + xi[0] * cp.p[1] + xi[1] * cp.p[2];
    case SegmentType::Tri6: {
        const double l[3] = {1 - xi[0] - xi[1], xi[0], xi[1]};
        Eigen::Vector3d x = Eigen::Vector3d::Zero();
        for (int i = 0; i < 3; ++i) {
            x += l[i] * l[i] * cp.p[i] + 2 * l[i] * l[(i + 1) % 3] * cp.p[3 + i];
        }
        return x;
    }
    case SegmentType::Quad4: {
        const double a = 0.5 * (xi[0] + 1);
        const double b = 0.5 * (xi[1] + 1);
        return (1 - a) * (1 - b) * cp.p[0] + a * (1 - b) * cp.p[1] + a * b * cp.p[2] +
               (1 - a) * b * cp.p[3];
    }
    case SegmentType::Quad8:
    case SegmentType::Quad9: {
        const Eigen::Vector3d wa = b2(0.5 * (xi[0] + 1));
        const Eigen::Vector3d wb = b2(0.5 * (xi[1] + 1));
        Eigen::Vector3d x = Eigen::Vector3d::Zero();
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                x += wa[a] * wb[b] * cp.p[3 * a + b];
            }
        }
        return x;
    }
    }
    return Eigen::Vector3d::Zero();
}

TEST_P(SegmentTypeTest, BezierControlPointsDescribeTheSameGeometry) {
    const SegmentType type = GetParam();
    std::mt19937 rng(14);
    testing::RandomSegmentOptions opt;
    opt.curvature = 0.3;
    for (int c = 0; c < 50; ++c) {
        SCOPED_TRACE("seed 14, case " + std::to_string(c));
        const SegmentNodes s = testing::randomSegment(type, rng, opt);
        const ControlPoints cp = controlPoints(s);
        ASSERT_GE(cp.count, cornerCount(type));
        for (int k = 0; k < 20; ++k) {
            const Eigen::Vector2d xi = testing::randomLocalPoint(type, rng);
            EXPECT_TRUE(allNear(bernstein(s, cp, xi), position(s, xi), 1e-12));
        }
    }
}

TEST_P(SegmentTypeTest, FrameIsOrthonormalRightHandedAndAlongTheBaseVectors) {
    const SegmentType type = GetParam();
    std::mt19937 rng(15);
    for (int c = 0; c < 100; ++c) {
        SCOPED_TRACE("seed 15, case " + std::to_string(c));
        const SegmentNodes s = testing::randomSegment(type, rng);
        const Eigen::Vector2d xi = testing::randomLocalPoint(type, rng);
        const SegmentFrame fr = segmentFrame(s, xi);
        ASSERT_FALSE(fr.degenerate);
        EXPECT_TRUE(allNear(fr.point, position(s, xi), 1e-13));
        EXPECT_NEAR(fr.normal.norm(), 1.0, 1e-14);
        EXPECT_NEAR(fr.tangent1.norm(), 1.0, 1e-14);
        EXPECT_NEAR(fr.tangent2.norm(), 1.0, 1e-14);
        EXPECT_NEAR(fr.normal.dot(fr.tangent1), 0.0, 1e-14);
        EXPECT_TRUE(allNear(fr.tangent1.cross(fr.tangent2), fr.normal, 1e-14));
        EXPECT_NEAR(fr.tangent1.dot(fr.dXi), fr.dXi.norm(), 1e-13);
        EXPECT_NEAR(fr.normal.dot(fr.dXi), 0.0, 1e-13);
        EXPECT_NEAR(fr.normal.dot(fr.dEta), 0.0, 1e-13);
        if (parametricDim(type) == 1) {
            EXPECT_EQ(fr.normal.z(), 0.0);
            EXPECT_TRUE(allNear(fr.tangent2, Eigen::Vector3d::UnitZ(), 1e-15));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, SegmentTypeTest, ::testing::ValuesIn(kAllSegmentTypes),
                         typeName);

// Counter-clockwise element above the x axis: its bottom edge (0,0)->(1,0) faces -y.
TEST(SegmentNormal, LineNormalIsTangentRotatedClockwise) {
    SegmentNodes s;
    s.type = SegmentType::Line2;
    s.x[0] = {0, 0, 0};
    s.x[1] = {2, 0, 0};
    EXPECT_TRUE(allNear(outwardNormal(s, Eigen::Vector2d::Zero()), Eigen::Vector3d(0, -1, 0), 0));
    std::swap(s.x[0], s.x[1]);
    EXPECT_TRUE(allNear(outwardNormal(s, Eigen::Vector2d::Zero()), Eigen::Vector3d(0, 1, 0), 0));
}

TEST(SegmentNormal, FaceNormalFollowsRightHandRule) {
    SegmentNodes q;
    q.type = SegmentType::Quad4;
    q.x[0] = {0, 0, 1};
    q.x[1] = {1, 0, 1};
    q.x[2] = {1, 1, 1};
    q.x[3] = {0, 1, 1};
    EXPECT_TRUE(allNear(outwardNormal(q, {0.3, -0.2}), Eigen::Vector3d::UnitZ(), 1e-15));
    SegmentNodes t;
    t.type = SegmentType::Tri3;
    t.x[0] = {0, 0, 0};
    t.x[1] = {0, 1, 0};
    t.x[2] = {1, 0, 0};  // clockwise seen from +z
    EXPECT_TRUE(allNear(outwardNormal(t, {0.2, 0.2}), -Eigen::Vector3d::UnitZ(), 1e-15));
}

TEST(SegmentNormal, CollapsedSegmentIsDegenerateWithZeroNormal) {
    SegmentNodes t;
    t.type = SegmentType::Tri3;
    t.x[0] = {0, 0, 0};
    t.x[1] = {1, 1, 1};
    t.x[2] = {2, 2, 2};  // collinear
    const SegmentFrame fr = segmentFrame(t, {0.3, 0.3});
    EXPECT_TRUE(fr.degenerate);
    EXPECT_EQ(fr.normal, Eigen::Vector3d::Zero());
    SegmentNodes l;
    l.type = SegmentType::Line2;
    l.x[0] = l.x[1] = {5, 5, 0};
    EXPECT_TRUE(segmentFrame(l, {0.0, 0.0}).degenerate);
}

TEST(CharacteristicSize, MeanCornerEdgeLength) {
    SegmentNodes s;
    s.type = SegmentType::Tri6;
    s.x[0] = {0, 0, 0};
    s.x[1] = {3, 0, 0};
    s.x[2] = {0, 4, 0};
    EXPECT_DOUBLE_EQ(characteristicSize(s), 4.0);  // (3 + 5 + 4) / 3
    s.type = SegmentType::Line3;
    EXPECT_DOUBLE_EQ(characteristicSize(s), 3.0);
    s.type = SegmentType::Quad4;
    s.x[3] = {0, 1, 0};
    s.x[2] = {3, 1, 0};
    s.x[1] = {3, 0, 0};
    EXPECT_DOUBLE_EQ(characteristicSize(s), 2.0);  // (3 + 1 + 3 + 1) / 4
}

TEST(ReferenceDomain, BoundariesAndCentres) {
    EXPECT_TRUE(inReferenceDomain(SegmentType::Tri3, {0.5, 0.5}));
    EXPECT_FALSE(inReferenceDomain(SegmentType::Tri3, {0.6, 0.5}));
    EXPECT_TRUE(inReferenceDomain(SegmentType::Tri3, {0.6, 0.5}, 0.11));
    EXPECT_FALSE(inReferenceDomain(SegmentType::Quad8, {-1.01, 0.0}));
    EXPECT_TRUE(inReferenceDomain(SegmentType::Line3, {-1.0, 7.0}));  // eta ignored for lines
    EXPECT_TRUE(allNear(referenceCentre(SegmentType::Tri6), Eigen::Vector2d(1. / 3, 1. / 3), 0));
    EXPECT_TRUE(allNear(referenceCentre(SegmentType::Quad9), Eigen::Vector2d::Zero(), 0));
}

}  // namespace
}  // namespace contact
