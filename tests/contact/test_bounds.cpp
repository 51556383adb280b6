// SPDX-License-Identifier: MIT
// Buffered AABB and OBB of segments: they enclose the whole (curved) segment and its buffer.
#include "contact/bounds.hpp"
#include "contact/projection.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"

#include "detail/search_common.hpp"
#include "eigen_checks.hpp"
#include "float_box.hpp"
#include "packed_obb.hpp"
#include "scenes.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

namespace contact {
namespace {

using testing::allNear;

template <int D>
bool aabbContains(const Aabb<D>& box, const Eigen::Vector3d& p, double slack) {
    for (int k = 0; k < D; ++k) {
        if (p[k] < box.lo[k] - slack || p[k] > box.hi[k] + slack) {
            return false;
        }
    }
    return true;
}

bool obbContains(const Obb2& box, const Eigen::Vector3d& p, double slack) {
    const Eigen::Vector2d q = box.axes.transpose() * (p.head<2>() - box.center);
    return (q.cwiseAbs() - box.halfExtent).maxCoeff() <= slack;
}

bool obbContains(const Obb3& box, const Eigen::Vector3d& p, double slack) {
    const Eigen::Vector3d q = box.axes.transpose() * (p - box.center);
    return (q.cwiseAbs() - box.halfExtent).maxCoeff() <= slack;
}

class BoundsTest : public ::testing::TestWithParam<SegmentType> {};

// Points of the segment, and points within `buffer` of it, lie in both buffered volumes.
TEST_P(BoundsTest, EncloseSegmentAndBufferSampledDensely) {
    const SegmentType type = GetParam();
    const bool planar = parametricDim(type) == 1;
    std::mt19937 rng(21);
    testing::RandomSegmentOptions opt;
    opt.curvature = 0.35;
    opt.warp = 0.4;
    opt.offset = 1e3;
    int outside = 0;
    for (int c = 0; c < 300; ++c) {
        SCOPED_TRACE("seed 21, case " + std::to_string(c));
        const SegmentNodes s = testing::randomSegment(type, rng, opt);
        const double buffer = c % 3 == 0 ? 0.0 : testing::uniform(rng, 1e-4, 0.5);
        const double slack = 1e-12 * opt.offset;
        const Aabb2 a2 = segmentAabb<2>(s, buffer);
        const Aabb3 a3 = segmentAabb<3>(s, buffer);
        const Obb2 o2 = planar ? segmentObb2d(s, buffer) : Obb2{};
        const Obb3 o3 = planar ? Obb3{} : segmentObb3d(s, buffer);
        for (int k = 0; k < 200; ++k) {
            const Eigen::Vector3d x = position(s, testing::randomLocalPoint(type, rng));
            const Eigen::Vector3d p = x + testing::uniform(rng, 0.0, 1.0) * buffer *
                                              testing::randomUnitVector(rng, planar);
            const bool in = planar ? aabbContains(a2, p, slack) && obbContains(o2, p, slack)
                                   : aabbContains(a3, p, slack) && obbContains(o3, p, slack);
            outside += in ? 0 : 1;
            EXPECT_TRUE(in) << "point " << p.transpose() << " buffer " << buffer;
        }
    }
    EXPECT_EQ(outside, 0);
}

// Linear segments are their own Bezier hull: the box is the node box plus the buffer, exactly.
TEST(Bounds, LinearSegmentAabbIsTheNodeBoxPlusBuffer) {
    std::mt19937 rng(22);
    for (SegmentType type : {SegmentType::Line2, SegmentType::Tri3, SegmentType::Quad4}) {
        SCOPED_TRACE(segmentTypeName(type));
        const SegmentNodes s = testing::randomSegment(type, rng);
        Eigen::Vector3d lo = s.x[0];
        Eigen::Vector3d hi = s.x[0];
        for (int i = 1; i < nodeCount(type); ++i) {
            lo = lo.cwiseMin(s.x[i]);
            hi = hi.cwiseMax(s.x[i]);
        }
        const Aabb3 box = segmentAabb<3>(s, 0.25);
        EXPECT_TRUE(allNear(box.lo, (lo.array() - 0.25).matrix(), 0.0));
        EXPECT_TRUE(allNear(box.hi, (hi.array() + 0.25).matrix(), 0.0));
    }
}

TEST_P(BoundsTest, ObbAxesAreOrthonormal) {
    const SegmentType type = GetParam();
    std::mt19937 rng(23);
    for (int c = 0; c < 50; ++c) {
        const SegmentNodes s = testing::randomSegment(type, rng);
        if (parametricDim(type) == 1) {
            const Obb2 o = segmentObb2d(s, 0.1);
            EXPECT_TRUE(allNear(o.axes.transpose() * o.axes, Eigen::Matrix2d::Identity(), 1e-14));
            EXPECT_GE(o.halfExtent.minCoeff(), 0.1);
        } else {
            const Obb3 o = segmentObb3d(s, 0.1);
            EXPECT_TRUE(allNear(o.axes.transpose() * o.axes, Eigen::Matrix3d::Identity(), 1e-14));
            EXPECT_GE(o.halfExtent.minCoeff(), 0.1);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, BoundsTest, ::testing::ValuesIn(kAllSegmentTypes),
                         [](const auto& info) { return std::string(segmentTypeName(info.param)); });

// A midside node is not a bound: this arc bulges past x = 1, the largest node coordinate.
TEST(Bounds, CurvedLineBulgesPastItsNodes) {
    SegmentNodes s;
    s.type = SegmentType::Line3;
    s.x[0] = {-1, 0, 0};
    s.x[1] = {1, 0, 0};
    s.x[2] = {0.9, 1, 0};
    // x(xi) = xi + 0.9 (1 - xi^2) peaks at xi = 1/1.8.
    const double xiMax = 1.0 / 1.8;
    const double xPeak = position(s, {xiMax, 0}).x();
    ASSERT_GT(xPeak, 1.1);
    EXPECT_GE(segmentAabb<2>(s, 0.0).hi.x(), xPeak);
    const Obb2 o = segmentObb2d(s, 0.0);
    EXPECT_TRUE(obbContains(o, position(s, {xiMax, 0}), 1e-14));
}

TEST(Bounds, CurvedQuadBulgesPastItsNodes) {
    SegmentNodes s;
    s.type = SegmentType::Quad8;
    const double z[8] = {0, 0, 0, 0, 1, 1, 1, 1};  // midsides at z = 1
    for (int i = 0; i < 8; ++i) {
        const Eigen::Vector2d q = nodeLocalCoordinates(SegmentType::Quad8, i);
        s.x[i] = {q.x(), q.y(), z[i]};
    }
    const double zCentre = position(s, {0, 0}).z();  // serendipity centre: 1/2 * 4 midsides = 2
    ASSERT_NEAR(zCentre, 2.0, 1e-15);
    EXPECT_GE(segmentAabb<3>(s, 0.0).hi.z(), zCentre);
    EXPECT_TRUE(obbContains(segmentObb3d(s, 0.0), position(s, {0, 0}), 1e-14));
}

// A flat segment gets a box of 2 * buffer thickness along its normal, never zero.
TEST(Bounds, FlatSegmentsGetBufferThickness) {
    SegmentNodes q;
    q.type = SegmentType::Quad4;
    q.x[0] = {0, 0, 3};
    q.x[1] = {2, 0, 3};
    q.x[2] = {2, 1, 3};
    q.x[3] = {0, 1, 3};
    const Obb3 o = segmentObb3d(q, 0.05);
    EXPECT_TRUE(allNear(o.axes.col(2), Eigen::Vector3d::UnitZ(), 1e-15));
    EXPECT_TRUE(allNear(o.halfExtent, Eigen::Vector3d(1.05, 0.55, 0.05), 1e-15));
    EXPECT_TRUE(allNear(o.center, Eigen::Vector3d(1, 0.5, 3), 1e-15));
    SegmentNodes l;
    l.type = SegmentType::Line2;
    l.x[0] = {0, 0, 0};
    l.x[1] = {0, 4, 0};
    const Obb2 o2 = segmentObb2d(l, 0.1);
    EXPECT_TRUE(allNear(o2.halfExtent, Eigen::Vector2d(2.1, 0.1), 1e-15));
    EXPECT_TRUE(allNear(o2.axes.col(0), Eigen::Vector2d(0, 1), 0.0));
}

TEST(Bounds, TranslationMovesTheBoxes) {
    std::mt19937 rng(24);
    const SegmentNodes s = testing::randomSegment(SegmentType::Tri6, rng);
    const Eigen::Vector3d t(1e3, -2e3, 5e2);
    const SegmentNodes m = testing::transformed(s, Eigen::Matrix3d::Identity(), t);
    const Aabb3 a = segmentAabb<3>(s, 0.1);
    const Aabb3 b = segmentAabb<3>(m, 0.1);
    EXPECT_TRUE(allNear(b.lo - a.lo, t, 1e-10));
    EXPECT_TRUE(allNear(b.hi - a.hi, t, 1e-10));
    const Obb3 oa = segmentObb3d(s, 0.1);
    const Obb3 ob = segmentObb3d(m, 0.1);
    EXPECT_TRUE(allNear(ob.center - oa.center, t, 1e-10));
    EXPECT_TRUE(allNear(ob.halfExtent, oa.halfExtent, 1e-10));
}

}  // namespace
}  // namespace contact

// ---------------------------------------------------------------------------------------------
// Packed OBBs (the searches' storage): the box encloses every point within the capture distance
// of the segment, and, shrunk by the capture distance, still gives a lower bound of the distance
// to the segment (the node search prunes with it).
namespace contact {
namespace {

// A random segment of the CentredObb tests, a capture distance of 0.01 .. 1 of its size, and the
// rounding pad its buffered boxes get (detail::bufferedAabb).
struct BufferedSegment {
    SegmentNodes s;
    double capture = 0.0;
    double pad = 0.0;
};

// The segment's buffered AABB (capture + rounding pad, given in pad) rounded outward to float: what
// the searches pack its OBB about.
detail::FloatBox floatBoxOf(const SegmentNodes& s, double capture, double& pad) {
    const Aabb3 aabb = detail::bufferedAabb(s, capture, pad);
    return detail::floatBoxOutward(aabb.lo.data(), aabb.hi.data());
}

BufferedSegment randomBufferedSegment(SegmentType type, std::mt19937& rng,
                                      const testing::RandomSegmentOptions& opt) {
    BufferedSegment b{testing::randomSegment(type, rng, opt)};
    b.capture = testing::uniform(rng, 0.01, 1.0) * characteristicSize(b.s);
    (void)detail::bufferedAabb(b.s, b.capture, b.pad);
    return b;
}

// The random segments of the OBB enclosure tests: case c's size, warp, curvature and distance
// from the origin.
testing::RandomSegmentOptions obbCaseOptions(std::mt19937& rng, int c) {
    testing::RandomSegmentOptions opt;
    opt.size = testing::uniform(rng, 0.01, 10.0);
    opt.warp = c % 3 == 0 ? 0.0 : 0.1;
    opt.curvature = c % 3 == 0 ? 0.0 : 0.1;
    opt.offset = c % 4 == 0 ? 1e4 : 10.0;
    return opt;
}

// Points within the capture distance of segment s lie in box; points up to 1.5 capture away get a
// lower bound that never exceeds the distance the projection finds. Returns how many of those
// points lay in the box.
int expectEnclosesAndBoundsFromBelow(const Obb3& box, const SegmentNodes& s, double capture,
                                     std::mt19937& rng) {
    int near = 0;
    for (int k = 0; k < 30; ++k) {
        const Eigen::Vector2d xi = testing::randomLocalPoint(s.type, rng);
        const Eigen::Vector3d y = position(s, xi);
        const Eigen::Vector3d dir = testing::randomUnitVector(rng, false);
        EXPECT_TRUE(detail::obbContains(box, y + testing::uniform(rng, 0.0, 1.0) * capture * dir));
        const Eigen::Vector3d p = y + testing::uniform(rng, 0.0, 1.5) * capture * dir;
        double lb = 0.0;
        near += detail::obbContains(box, p, capture, lb) ? 1 : 0;
        EXPECT_LE(lb, closestPoint(s, p).distance) << "p " << p.transpose();
    }
    return near;
}

// 2000 random buffered faces of every type (obbCaseOptions); for each, makeBox(c, segment, rng)
// gives a box that must enclose the buffered segment and bound the distance from below
// (expectEnclosesAndBoundsFromBelow). Returns how many sample points lay in the boxes.
template <class MakeBox>
int nearInBoxesOfRandomFaces(unsigned seed, MakeBox makeBox) {
    std::mt19937 rng(seed);
    const SegmentType types[] = {SegmentType::Tri3, SegmentType::Quad4, SegmentType::Tri6,
                                 SegmentType::Quad8, SegmentType::Quad9};
    int near = 0;
    for (int c = 0; c < 2000; ++c) {
        const BufferedSegment b = randomBufferedSegment(types[c % 5], rng, obbCaseOptions(rng, c));
        SCOPED_TRACE("case " + std::to_string(c));
        const Obb3 box = makeBox(c, b, rng);
        near += expectEnclosesAndBoundsFromBelow(box, b.s, b.capture, rng);
    }
    return near;
}

TEST(PackedObb, EnclosesTheBufferedSegmentAndBoundsTheDistanceFromBelow) {
    const int near =
        nearInBoxesOfRandomFaces(4242, [](int, const BufferedSegment& b, std::mt19937&) {
            const Obb3 box = segmentObb3d(b.s, b.capture + b.pad);  // the unpacked buffered box
            const Obb3 packed =
                detail::unpackObb(detail::packedBufferedObb3(b.s, b.capture, b.pad));
            // Orthonormal axes; about as tight as the double box.
            EXPECT_TRUE(
                allNear(packed.axes.transpose() * packed.axes, Eigen::Matrix3d::Identity(), 1e-14));
            EXPECT_LE(packed.halfExtent.sum(), box.halfExtent.sum() * (1.0 + 1e-6));
            return packed;
        });
    EXPECT_GT(near, 30000);
}

// The 20-byte OBB (CentredObb3: packed about the float AABB; node mode, and one surface), along the
// face frame (even cases), or along the axes and about the offset kept from an earlier increment
// (random ones here, odd cases): it must enclose the buffered segment and bound the distance from
// below, and along the face frame stay nearly as tight as the double box about its own centre.
TEST(CentredObb, EnclosesTheBufferedSegmentAlongAnyAxes) {
    const int near =
        nearInBoxesOfRandomFaces(4343, [](int c, const BufferedSegment& b, std::mt19937& rng) {
            double pad = 0.0;
            const detail::FloatBox fb = floatBoxOf(b.s, b.capture, pad);
            // Kept: the axes and offset of a box packed about another segment.
            const bool kept = c % 2 == 1;
            detail::CentredObb3 other;
            if (kept) {
                const Eigen::Quaterniond q(testing::randomRotation(rng));
                const double big = q.coeffs().cwiseAbs().maxCoeff();
                for (int k = 0; k < 4; ++k) {  // coeffs(): x, y, z, w
                    other.rotation[k] =
                        static_cast<std::int16_t>(std::lround(32767.0 * q.coeffs()[k] / big));
                }
                for (auto& o : other.offset) {
                    o = static_cast<std::int16_t>(static_cast<int>(rng() % 65535) - 32767);
                }
            }
            const detail::CentredObb3 packed =
                detail::centredBufferedObb3(b.s, b.capture, b.pad, fb, kept ? &other : nullptr);
            const Obb3 box = detail::unpackObb(packed, fb);
            if (!kept) {
                // Orthonormal axes; about as tight as the box along the same axes about its own
                // centre, and as the double box along the face frame.
                EXPECT_TRUE(
                    allNear(box.axes.transpose() * box.axes, Eigen::Matrix3d::Identity(), 1e-14));
                const Obb3 own = segmentObb3dAlong(b.s, box.axes, b.capture + b.pad);
                EXPECT_LE(box.halfExtent.sum(), own.halfExtent.sum() * (1.0 + 1e-3));
                const Obb3 exact = segmentObb3d(b.s, b.capture + b.pad);
                EXPECT_LE(box.halfExtent.sum(), exact.halfExtent.sum() * (1.0 + 2e-3));
            } else {
                EXPECT_EQ(box.center, detail::obbCentre(other.offset, fb));
            }
            return box;
        });
    EXPECT_GT(near, 30000);
}

// Coordinates may collapse a segment to a point, or be NaN (the search flags them after packing
// every box): packing then gives a box about the point, and NaN never reaches an integer code
// (the sanitizer build checks the casts).
TEST(CentredObb, CollapsedOrNanSegmentPacksWithoutUndefinedCasts) {
    SegmentNodes s;
    s.type = SegmentType::Quad4;
    const Eigen::Vector3d point(1.0, 2.0, 3.0);
    for (int i = 0; i < 4; ++i) {
        s.x[i] = point;
    }
    double pad = 0.0;
    const detail::FloatBox fb = floatBoxOf(s, 0.1, pad);
    const Obb3 box = detail::unpackObb(detail::centredBufferedObb3(s, 0.1, pad, fb, nullptr), fb);
    EXPECT_TRUE(box.axes.allFinite());
    for (int k = 0; k < 3; ++k) {
        for (const double side : {-0.1, 0.1}) {
            EXPECT_TRUE(detail::obbContains(box, point + side * Eigen::Vector3d::Unit(k)));
        }
    }
    s.x[2] = Eigen::Vector3d(std::nan(""), 0.0, 0.0);
    const detail::FloatBox nanBox = floatBoxOf(s, 0.1, pad);
    const detail::CentredObb3 p = detail::centredBufferedObb3(s, 0.1, pad, nanBox, nullptr);
    EXPECT_EQ(p.rotation[3], 32767);  // the identity's quaternion
}

// A packing of the searches (PackedObb3 or CentredObb3) for the witness test: box(s, capture, pad)
// is the unpacked box, witness(a, s, capture, pad) what overlapWitness says of a against it.
struct PackedOnly {
    static Obb3 box(const SegmentNodes& s, double capture, double pad) {
        return detail::unpackObb(detail::packedBufferedObb3(s, capture, pad));
    }
    static bool witness(const Obb3& a, const SegmentNodes& s, double capture, double pad) {
        return detail::overlapWitness(a, detail::packedBufferedObb3(s, capture, pad));
    }
};
struct CentredAboutBox {
    static Obb3 box(const SegmentNodes& s, double capture, double pad) {
        double boxPad = 0.0;
        const detail::FloatBox fb = floatBoxOf(s, capture, boxPad);
        EXPECT_EQ(boxPad, pad);
        return detail::unpackObb(detail::centredBufferedObb3(s, capture, pad, fb, nullptr), fb);
    }
    static bool witness(const Obb3& a, const SegmentNodes& s, double capture, double pad) {
        double boxPad = 0.0;
        const detail::FloatBox fb = floatBoxOf(s, capture, boxPad);
        return detail::overlapWitness(a, detail::centredBufferedObb3(s, capture, pad, fb, nullptr),
                                      fb);
    }
};

template <class T>
class OverlapWitness : public ::testing::Test {};
using Packings = ::testing::Types<PackedOnly, CentredAboutBox>;
struct PackingName {
    template <class T>
    static std::string GetName(int /*index*/) {
        return std::is_same_v<T, PackedOnly> ? "PackedOnly" : "CentredAboutBox";
    }
};
TYPED_TEST_SUITE(OverlapWitness, Packings, PackingName);

// detail::overlapWitness lets the segment narrow phase skip the SAT: it may only vouch for boxes
// the SAT finds overlapping, also when they merely touch or miss by a hair, and it must vouch for
// most overlapping pairs or it saves nothing.
TYPED_TEST(OverlapWitness, OnlyVouchesForBoxesTheSatFindsOverlapping) {
    std::mt19937 rng(777);
    const SegmentType types[] = {SegmentType::Tri3, SegmentType::Quad4, SegmentType::Quad8};
    long overlapping = 0;
    long witnessed = 0;
    long nearMisses = 0;
    for (int c = 0; c < 6000; ++c) {
        const SegmentType type = types[c % 3];
        testing::RandomSegmentOptions opt;
        opt.size = testing::uniform(rng, 0.01, 10.0);
        opt.offset = c % 5 == 0 ? 1e4 : 10.0;
        const auto [sa, capture, pad] = randomBufferedSegment(type, rng, opt);
        const double size = characteristicSize(sa);
        const Obb3 a = TypeParam::box(sa, capture, pad);
        // B: a shifted copy of A (parallel faces; every 4th case shifted along A's normal to touch,
        // or to miss or overlap by a relative 1e-13 .. 1e-9), or another segment near A.
        SegmentNodes sb = c % 2 == 0 ? sa : testing::randomSegment(type, rng, opt);
        Eigen::Vector3d shift =
            testing::randomUnitVector(rng, false) * testing::uniform(rng, 0.0, 3.0) * size;
        if (c % 2 == 1) {
            shift += a.center - segmentObb3d(sb, 0.0).center;
        } else if (c % 4 == 0) {
            const double reach = 2.0 * a.halfExtent[2];
            const double rel =
                (c % 8 == 0 ? 1.0 : -1.0) * std::pow(10.0, -testing::uniform(rng, 9.0, 13.0));
            shift = a.axes.col(2) * reach * (1.0 + rel);
            nearMisses += rel > 0.0 ? 1 : 0;
        }
        for (int i = 0; i < nodeCount(type); ++i) {
            sb.x[i] += shift;
        }
        double padB = 0.0;
        (void)floatBoxOf(sb, capture, padB);
        const Obb3 b = TypeParam::box(sb, capture, padB);
        const bool overlap = !satDisjoint3d(a, b).separated;
        ASSERT_EQ(satOverlap3d(a, b), overlap) << "case " << c;
        const bool witness = TypeParam::witness(a, sb, capture, padB);
        overlapping += overlap ? 1 : 0;
        witnessed += witness ? 1 : 0;
        if (witness) {
            ASSERT_TRUE(overlap) << "case " << c << ": the witness vouches for separated boxes";
        }
    }
    std::printf("[overlap witness] overlapping %ld, witnessed %ld, near misses %ld\n", overlapping,
                witnessed, nearMisses);
    EXPECT_GT(nearMisses, 500);
    EXPECT_GT(overlapping, 2000);
    EXPECT_GT(witnessed * 10, overlapping * 7);
}

}  // namespace
}  // namespace contact
