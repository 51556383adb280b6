// SPDX-License-Identifier: MIT
// satDisjoint2d / satDisjoint3d: against the slow oracle on random pairs, against exact verdicts
// (tests/data/sat), intersection witnesses, invariance under rigid motion, swap and scaling, and
// named edge cases run in several world frames.
#include "contact/sat.hpp"
#include "contact/tolerances.hpp"

#include "eigen_checks.hpp"
#include "sat_oracle.hpp"
#include "scenes.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace contact {
namespace {

using testing::allNear;
using testing::uniform;

// Verdicts may differ from the oracle only where its margin is within this fraction of the pair's
// scale: below that, the rounding of the inputs decides (reference data README: 1e-13).
constexpr double kBorderlineRel = 1e-12;
// Depths and normals of a unique least-penetration axis agree to this fraction of the scale; edge
// axes may be as ill-conditioned as sine = kSatMinEdgeAxisSine, which costs ~eps / sine ~ 1e-10.
constexpr double kDepthRel = 1e-9;
constexpr double kNormalTol = 1e-9;

// ---------------------------------------------------------------------------------------------
// Dimension traits: one set of test templates for rectangles and boxes.

template <int D>
struct Dim;

template <>
struct Dim<2> {
    using Box = Obb2;
    using Vec = Eigen::Vector2d;
    using Mat = Eigen::Matrix2d;
    using Oracle = testing::SatOracle2d;
    static constexpr int kAxes = 4;
    static constexpr const char* kName = "2d";
    static SatResult sat(const Box& a, const Box& b) { return satDisjoint2d(a, b); }
    static bool overlap(const Box& a, const Box& b) { return satOverlap2d(a, b); }
    static Oracle oracle(const Box& a, const Box& b) { return testing::satOracle2d(a, b); }
    // Axis index after swapping A and B.
    static int swappedAxis(int k) { return k < 2 ? k + 2 : k - 2; }
};

template <>
struct Dim<3> {
    using Box = Obb3;
    using Vec = Eigen::Vector3d;
    using Mat = Eigen::Matrix3d;
    using Oracle = testing::SatOracle3d;
    static constexpr int kAxes = 15;
    static constexpr const char* kName = "3d";
    static SatResult sat(const Box& a, const Box& b) { return satDisjoint3d(a, b); }
    static bool overlap(const Box& a, const Box& b) { return satOverlap3d(a, b); }
    static Oracle oracle(const Box& a, const Box& b) { return testing::satOracle3d(a, b); }
    static int swappedAxis(int k) {
        if (k < 6) {
            return k < 3 ? k + 3 : k - 3;
        }
        return 6 + 3 * ((k - 6) % 3) + (k - 6) / 3;  // A_i x B_j -> A'_j x B'_i
    }
};

template <int D>
using BoxT = typename Dim<D>::Box;
template <int D>
using VecT = typename Dim<D>::Vec;
template <int D>
using MatT = typename Dim<D>::Mat;

// Integer in [0, n) straight from the engine (portable, unlike uniform_int_distribution).
int pick(std::mt19937& rng, int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }

template <int D>
VecT<D> randomVec(std::mt19937& rng, double lo, double hi) {
    VecT<D> v;
    for (int k = 0; k < D; ++k) {
        v[k] = uniform(rng, lo, hi);
    }
    return v;
}

template <int D>
VecT<D> randomDir(std::mt19937& rng) {
    return testing::randomUnitVector(rng, D == 2).template head<D>();
}

template <int D>
MatT<D> randomRot(std::mt19937& rng) {
    return testing::randomRotation(rng, D == 2).template topLeftCorner<D, D>();
}

// Rotation by `angle` (about a random axis in 3D).
template <int D>
MatT<D> rotationBy(double angle, std::mt19937& rng) {
    if constexpr (D == 2) {
        return Eigen::Rotation2Dd(angle).toRotationMatrix();
    } else {
        return Eigen::AngleAxisd(angle, testing::randomUnitVector(rng)).toRotationMatrix();
    }
}

// Random column permutation with random signs: the same box axes, exactly.
template <int D>
MatT<D> signedPermutation(std::mt19937& rng) {
    std::array<int, D> perm{};
    for (int k = 0; k < D; ++k) {
        perm[k] = k;
    }
    for (int k = D - 1; k > 0; --k) {
        std::swap(perm[k], perm[pick(rng, k + 1)]);
    }
    MatT<D> P = MatT<D>::Zero();
    for (int k = 0; k < D; ++k) {
        P(perm[k], k) = pick(rng, 2) == 0 ? 1.0 : -1.0;
    }
    return P;
}

// A 90-degree rotation (signed permutation with determinant +1): exact in floating point.
template <int D>
MatT<D> rotation90(std::mt19937& rng) {
    for (;;) {
        const MatT<D> P = signedPermutation<D>(rng);
        if (P.determinant() > 0.0 && !P.isIdentity()) {
            return P;
        }
    }
}

template <int D>
BoxT<D> moved(const BoxT<D>& box, const MatT<D>& Q, const VecT<D>& t) {
    BoxT<D> out = box;
    out.center = Q * box.center + t;
    out.axes = Q * box.axes;
    return out;
}

template <int D>
BoxT<D> scaled(const BoxT<D>& box, double s) {
    BoxT<D> out = box;
    out.center = s * box.center;
    out.halfExtent = s * box.halfExtent;
    return out;
}

template <int D>
Eigen::Vector3d lift(const VecT<D>& v) {
    Eigen::Vector3d out = Eigen::Vector3d::Zero();
    out.template head<D>() = v;
    return out;
}

template <int D>
std::string describe(const BoxT<D>& a, const BoxT<D>& b) {
    std::ostringstream os;
    os.precision(17);
    const Eigen::IOFormat row(17, Eigen::DontAlignCols, ", ", "; ", "", "", "[", "]");
    os << "\n  A: c " << a.center.transpose().format(row) << " axes " << a.axes.format(row) << " h "
       << a.halfExtent.transpose().format(row) << "\n  B: c " << b.center.transpose().format(row)
       << " axes " << b.axes.format(row) << " h " << b.halfExtent.transpose().format(row);
    return os.str();
}

std::string describe(const SatResult& r) {
    std::ostringstream os;
    os.precision(17);
    os << (r.separated ? "separated" : "overlap") << " axis " << r.axis << " depth " << r.depth
       << " normal " << r.normal.transpose();
    return os.str();
}

// Caps the messages of a long randomized loop; the total is still asserted at the end.
struct FailureLog {
    long count = 0;
    bool report() { return ++count <= 10; }
};

// Unit normal, depth >= 0 (0 when separated), axis in range, z = 0 in 2D, oriented from A to B.
template <int D>
::testing::AssertionResult wellFormed(const SatResult& r, const BoxT<D>& a, const BoxT<D>& b) {
    const double scale = testing::pairScale(a, b);
    const double tn = r.normal.template head<D>().dot(b.center - a.center);
    if (r.axis < 0 || r.axis >= Dim<D>::kAxes || std::abs(r.normal.norm() - 1.0) > 1e-12 ||
        !(r.depth >= 0.0) || (r.separated && r.depth != 0.0) || (D == 2 && r.normal.z() != 0.0) ||
        tn < -kBorderlineRel * scale) {
        return ::testing::AssertionFailure() << "malformed result: " << describe(r);
    }
    return ::testing::AssertionSuccess();
}

// Compares a normal with an expected unit axis; up to sign when the centre offset along it is too
// small to fix the orientation.
template <int D>
::testing::AssertionResult normalMatches(const Eigen::Vector3d& normal,
                                         const Eigen::Vector3d& expected, const BoxT<D>& a,
                                         const BoxT<D>& b, double tol) {
    const double tn = expected.template head<D>().dot(b.center - a.center);
    if (std::abs(tn) > kBorderlineRel * testing::pairScale(a, b)) {
        return allNear(normal, expected, tol);
    }
    const Eigen::Vector3d flipped = -expected;
    return (normal - expected).cwiseAbs().maxCoeff() <= tol ? allNear(normal, expected, tol)
                                                            : allNear(normal, flipped, tol);
}

// Any overlap result against the oracle: the axis is eligible, the depth is the overlap along it,
// the normal is that axis, and the hysteresis cannot make it worse than
// (least + kSatAbsoluteTol * scale) / kSatRelativeTol.
template <int D, typename Oracle>
::testing::AssertionResult overlapConsistent(const SatResult& r, const Oracle& o, const BoxT<D>& a,
                                             const BoxT<D>& b) {
    const int k = r.axis;
    const double scale = testing::pairScale(a, b);
    const double least = std::max(0.0, o.depth[o.leastAxis]);
    const double worst =
        (least + tol::kSatAbsoluteTol * testing::hysteresisScale(a, b)) / tol::kSatRelativeTol;
    if (!o.eligible[k] || std::abs(r.depth - std::max(0.0, o.depth[k])) > kDepthRel * scale ||
        !normalMatches<D>(r.normal, o.axis[k], a, b, kNormalTol) ||
        r.depth > worst + kDepthRel * scale) {
        return ::testing::AssertionFailure()
               << "overlap result inconsistent with the oracle: " << describe(r)
               << ", oracle depth along it " << o.depth[k] << ", least " << least;
    }
    return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// Random pairs in named categories.

enum class Category : int {
    General,
    Touching,
    Nested,
    Identical,
    ParallelEdges,
    TinyRotation,
    Flat,
    LargeCoords,
    NearTouch,
};
constexpr int kCategoryCount = 9;

const char* categoryName(Category c) {
    switch (c) {
    case Category::General: return "general";
    case Category::Touching: return "touching";
    case Category::Nested: return "nested";
    case Category::Identical: return "identical";
    case Category::ParallelEdges: return "parallel_edges";
    case Category::TinyRotation: return "tiny_rotation";
    case Category::Flat: return "flat";
    case Category::LargeCoords: return "large_coords";
    case Category::NearTouch: return "near_touch";
    }
    return "?";
}

template <int D>
struct PairCase {
    BoxT<D> a;
    BoxT<D> b;
    Category category = Category::General;
};

enum class Placement { Random, Touching, NearTouch, Nested };

template <int D>
VecT<D> randomExtents(std::mt19937& rng) {
    return randomVec<D>(rng, 0.05, 1.5);
}

// Axes exactly parallel to A's: a signed permutation of them or, in 3D, sharing one axis exactly
// and turned about it.
template <int D>
MatT<D> parallelAxes(const MatT<D>& axesA, std::mt19937& rng) {
    if constexpr (D == 3) {
        if (pick(rng, 2) == 0) {
            const int k = pick(rng, 3);
            const double th = uniform(rng, -M_PI, M_PI);
            Eigen::Matrix3d B;
            B.col(0) = axesA.col(k);
            B.col(1) =
                std::cos(th) * axesA.col((k + 1) % 3) + std::sin(th) * axesA.col((k + 2) % 3);
            B.col(2) =
                -std::sin(th) * axesA.col((k + 1) % 3) + std::cos(th) * axesA.col((k + 2) % 3);
            return B * signedPermutation<3>(rng);
        }
    }
    return axesA * signedPermutation<D>(rng);
}

// Axes of A turned by an angle of 1e-9 .. 1e-4 rad (log-uniform).
template <int D>
MatT<D> tinyRotatedAxes(const MatT<D>& axesA, std::mt19937& rng) {
    const double angle = std::pow(10.0, uniform(rng, -9.0, -4.0));
    return rotationBy<D>(angle, rng) * axesA * signedPermutation<D>(rng);
}

// One half extent of A, B or both becomes 0 or 1e-9.
template <int D>
void flatten(BoxT<D>& a, BoxT<D>& b, std::mt19937& rng) {
    const int which = pick(rng, 3);
    if (which != 1) {
        a.halfExtent[pick(rng, D)] = pick(rng, 2) == 0 ? 0.0 : 1e-9;
    }
    if (which != 0) {
        b.halfExtent[pick(rng, D)] = pick(rng, 2) == 0 ? 0.0 : 1e-9;
    }
}

// A support point p of the offsets {x_B - x_A} in direction n: with cB = cA + p the boxes touch.
// Generators perpendicular to n get a random coefficient, so the contact spreads over the face.
template <int D>
VecT<D> touchingOffset(const BoxT<D>& a, const BoxT<D>& b, const VecT<D>& n, std::mt19937& rng) {
    VecT<D> p = VecT<D>::Zero();
    const auto add = [&](const VecT<D>& g) {
        const double gn = g.dot(n);
        const double c =
            std::abs(gn) <= 1e-15 * g.norm() ? uniform(rng, -1.0, 1.0) : (gn > 0.0 ? 1.0 : -1.0);
        p += c * g;
    };
    for (int k = 0; k < D; ++k) {
        add(a.halfExtent[k] * a.axes.col(k));
        add(b.halfExtent[k] * b.axes.col(k));
    }
    return p;
}

// Contact direction: a face of A, a face of B, an edge pair (3D), or any direction (vertices).
template <int D>
VecT<D> touchDirection(const BoxT<D>& a, const BoxT<D>& b, std::mt19937& rng) {
    const double sign = pick(rng, 2) == 0 ? 1.0 : -1.0;
    switch (pick(rng, D == 3 ? 4 : 3)) {
    case 0: return sign * a.axes.col(pick(rng, D));
    case 1: return sign * b.axes.col(pick(rng, D));
    case 2: return randomDir<D>(rng);
    default: break;
    }
    if constexpr (D == 3) {
        const Eigen::Vector3d L = a.axes.col(pick(rng, 3)).cross(b.axes.col(pick(rng, 3)));
        if (L.norm() > 1e-3) {
            return sign * L.normalized();
        }
    }
    return sign * a.axes.col(0);
}

template <int D>
void place(BoxT<D>& a, BoxT<D>& b, Placement placement, bool nearRelativeToBoxes,
           std::mt19937& rng) {
    switch (placement) {
    case Placement::Random: {
        const double reach = a.halfExtent.norm() + b.halfExtent.norm();
        b.center = a.center + uniform(rng, 0.0, 1.3) * reach * randomDir<D>(rng);
        return;
    }
    case Placement::Nested: {
        // Shrink B until its radius along any axis of A (<= sum hB) fits, then put it inside.
        const double room = 0.9 * a.halfExtent.minCoeff();
        if (b.halfExtent.sum() > room) {
            b.halfExtent *= room / b.halfExtent.sum();
        }
        const VecT<D> slack = (a.halfExtent.array() - b.halfExtent.sum()).matrix();
        b.center = a.center + a.axes * slack.cwiseProduct(randomVec<D>(rng, -1.0, 1.0));
        return;
    }
    case Placement::Touching:
    case Placement::NearTouch: {
        const VecT<D> n = touchDirection<D>(a, b, rng);
        b.center = a.center + touchingOffset<D>(a, b, n, rng);
        if (placement == Placement::NearTouch) {
            // Out of or into contact by 1e-10 .. 1e-6 of the scale.
            const double ref = nearRelativeToBoxes
                                   ? std::max(a.halfExtent.maxCoeff(), b.halfExtent.maxCoeff())
                                   : testing::pairScale(a, b);
            const double delta = std::pow(10.0, uniform(rng, -10.0, -6.0)) * ref;
            b.center += (pick(rng, 2) == 0 ? delta : -delta) * n;
        }
        return;
    }
    }
}

template <int D>
PairCase<D> makeCase(Category category, std::mt19937& rng) {
    PairCase<D> c;
    c.category = category;
    BoxT<D>& a = c.a;
    BoxT<D>& b = c.b;
    a.center = randomVec<D>(rng, -1.0, 1.0);
    a.axes = randomRot<D>(rng);
    a.halfExtent = randomExtents<D>(rng);
    b.axes = randomRot<D>(rng);
    b.halfExtent = randomExtents<D>(rng);
    const Placement anyContact[] = {Placement::Random, Placement::Touching, Placement::NearTouch};
    Placement placement = Placement::Random;
    bool nearRelativeToBoxes = false;
    switch (category) {
    case Category::General: break;
    case Category::Touching:
        switch (pick(rng, 4)) {
        case 1: b.axes = parallelAxes<D>(a.axes, rng); break;
        case 2: b.axes = tinyRotatedAxes<D>(a.axes, rng); break;
        case 3: flatten<D>(a, b, rng); break;
        default: break;
        }
        placement = Placement::Touching;
        break;
    case Category::Nested: placement = Placement::Nested; break;
    case Category::Identical: b = a; return c;
    case Category::ParallelEdges:
        b.axes = parallelAxes<D>(a.axes, rng);
        placement = anyContact[pick(rng, 3)];
        break;
    case Category::TinyRotation:
        b.axes = tinyRotatedAxes<D>(a.axes, rng);
        placement = anyContact[pick(rng, 3)];
        break;
    case Category::Flat:
        flatten<D>(a, b, rng);
        placement = anyContact[pick(rng, 3)];
        break;
    case Category::LargeCoords:
        // Centres ~1e6, boxes ~1; near-touch offsets relative to the boxes, which puts them at
        // 1e-16 .. 1e-12 of the scale: the rounding band.
        for (int k = 0; k < D; ++k) {
            a.center[k] += (pick(rng, 2) == 0 ? 1.0 : -1.0) * uniform(rng, 5e5, 2e6);
        }
        if (pick(rng, 2) == 0) {
            b.axes = parallelAxes<D>(a.axes, rng);
        }
        placement = anyContact[pick(rng, 3)];
        nearRelativeToBoxes = true;
        break;
    case Category::NearTouch: placement = Placement::NearTouch; break;
    }
    place<D>(a, b, placement, nearRelativeToBoxes, rng);
    return c;
}

// Per-case engine seed, so a single case can be regenerated from (seed, index).
std::uint32_t caseSeed(std::uint32_t seed, long index) {
    return seed * 2654435761u + static_cast<std::uint32_t>(index);
}

// CONTACT_SAT_CASES=<n> replaces the default number of random pairs per dimension.
long caseCount(long defaultCount) {
    const char* env = std::getenv("CONTACT_SAT_CASES");
    if (env != nullptr && std::atol(env) > 0) {
        return std::atol(env);
    }
    return defaultCount;
}

// Bound on how far the kernel biases toward overlap: its tolerance tol * |L|_1 / |L| (at most
// sqrt(D) tol), twice for the oracle's own rounding.
template <int D>
double overlapBiasBound(const BoxT<D>& a, const BoxT<D>& b) {
    const double tol = tol::kSatRoundoff * ((b.center - a.center).template lpNorm<1>() +
                                            a.halfExtent.sum() + b.halfExtent.sum());
    return 2.0 * std::sqrt(static_cast<double>(D)) * tol;
}

// ---------------------------------------------------------------------------------------------
// 1. Random pairs against the oracle.

struct VerdictStats {
    long cases = 0;
    long borderline = 0;             // |oracle margin| <= kBorderlineRel * scale
    long falseOverlaps = 0;          // borderline, oracle separated, kernel overlap
    long falseSeparations = 0;       // borderline, oracle overlap, kernel separated
    long axisChecked = 0;            // overlap with a unique least-penetration axis
    double worstFalseOverlap = 0.0;  // largest oracle margin / scale among false overlaps
};

template <int D>
void checkAgainstOracle(const PairCase<D>& c, VerdictStats& st, FailureLog& log) {
    const BoxT<D>& a = c.a;
    const BoxT<D>& b = c.b;
    const SatResult r = Dim<D>::sat(a, b);
    const auto o = Dim<D>::oracle(a, b);
    const double scale = testing::pairScale(a, b);
    const double band = kBorderlineRel * scale;
    ++st.cases;
    const auto wf = wellFormed<D>(r, a, b);
    if (!wf && log.report()) {
        ADD_FAILURE() << wf.message() << describe<D>(a, b);
    }
    const bool borderline = std::abs(o.margin) <= band;
    st.borderline += borderline ? 1 : 0;
    // The verdict-only kernel agrees exactly, borderline or not.
    if (Dim<D>::overlap(a, b) == r.separated && log.report()) {
        ADD_FAILURE() << "satOverlap verdict differs from satDisjoint: " << describe(r)
                      << describe<D>(a, b);
    }
    if (r.separated != o.separated) {
        if (!borderline) {
            if (log.report()) {
                ADD_FAILURE() << "verdict differs from the oracle: " << describe(r)
                              << ", oracle margin " << o.margin << " (axis " << o.marginAxis << ")"
                              << describe<D>(a, b);
            }
        } else if (r.separated) {
            ++st.falseSeparations;
            std::printf("  [%s %s] borderline false separation: oracle margin %.3g (rel %.3g)\n",
                        Dim<D>::kName, categoryName(c.category), o.margin, o.margin / scale);
        } else {
            ++st.falseOverlaps;
            st.worstFalseOverlap = std::max(st.worstFalseOverlap, o.margin / scale);
            if (st.falseOverlaps <= 2) {  // the first few; the rest are counted
                std::printf("  [%s %s] borderline false overlap: oracle margin %.3g (rel %.3g)\n",
                            Dim<D>::kName, categoryName(c.category), o.margin, o.margin / scale);
            }
            // Overlap is the documented answer up to the kernel's rounding bound.
            if (o.margin > overlapBiasBound<D>(a, b) && log.report()) {
                ADD_FAILURE() << "overlap beyond the rounding bound: oracle margin " << o.margin
                              << " > " << overlapBiasBound<D>(a, b) << describe<D>(a, b);
            }
        }
        return;
    }
    if (r.separated) {
        // The reported axis must separate (or touch within rounding) by the oracle's count too.
        const int k = r.axis;
        const bool ok =
            o.valid[k] && -o.depth[k] > -band && allNear(r.normal, o.axis[k], kNormalTol);
        if (!ok && log.report()) {
            ADD_FAILURE() << "separating axis not confirmed by the oracle: " << describe(r)
                          << ", oracle gap along it " << -o.depth[k] << describe<D>(a, b);
        }
        return;
    }
    const auto consistent = overlapConsistent<D>(r, o, a, b);
    if (!consistent && log.report()) {
        ADD_FAILURE() << consistent.message() << describe<D>(a, b);
    }
    if (!testing::leastAxisUnique(o, testing::hysteresisScale(a, b), kDepthRel * scale)) {
        return;
    }
    ++st.axisChecked;
    const int k = o.leastAxis;
    const bool ok = r.axis == k &&
                    std::abs(r.depth - std::max(0.0, o.depth[k])) <= kDepthRel * scale &&
                    normalMatches<D>(r.normal, o.axis[k], a, b, kNormalTol);
    if (!ok && log.report()) {
        ADD_FAILURE() << "least-penetration axis differs: " << describe(r) << ", oracle axis " << k
                      << " depth " << o.depth[k] << " normal " << o.axis[k].transpose()
                      << describe<D>(a, b);
    }
}

template <int D>
void runRandomVsOracle(std::uint32_t seed) {
    const long n = caseCount(100000);
    std::array<VerdictStats, kCategoryCount> stats{};
    FailureLog log;
    for (long i = 0; i < n; ++i) {
        const auto category = static_cast<Category>(i % kCategoryCount);
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " case " << i << " (" << categoryName(category) << ")");
        std::mt19937 rng(caseSeed(seed, i));
        const PairCase<D> c = makeCase<D>(category, rng);
        checkAgainstOracle<D>(c, stats[static_cast<int>(category)], log);
    }
    VerdictStats total;
    for (int k = 0; k < kCategoryCount; ++k) {
        const VerdictStats& s = stats[k];
        std::printf("[sat %s vs oracle] %-15s cases %6ld  borderline %6ld  false overlaps %5ld "
                    "(worst margin/scale %.2g)  false separations %ld  axis checked %6ld\n",
                    Dim<D>::kName, categoryName(static_cast<Category>(k)), s.cases, s.borderline,
                    s.falseOverlaps, s.worstFalseOverlap, s.falseSeparations, s.axisChecked);
        total.cases += s.cases;
        total.borderline += s.borderline;
        total.falseOverlaps += s.falseOverlaps;
        total.falseSeparations += s.falseSeparations;
        total.axisChecked += s.axisChecked;
        total.worstFalseOverlap = std::max(total.worstFalseOverlap, s.worstFalseOverlap);
    }
    std::printf("[sat %s vs oracle] total cases %ld, borderline %ld, borderline disagreements %ld "
                "(%ld false overlaps, %ld false separations), axis/depth checked %ld\n",
                Dim<D>::kName, total.cases, total.borderline,
                total.falseOverlaps + total.falseSeparations, total.falseOverlaps,
                total.falseSeparations, total.axisChecked);
    EXPECT_EQ(log.count, 0);
    // A false "separated" loses a contact: at most 1% of the borderline cases, and none outside
    // the band (checked per case above).
    EXPECT_LE(total.falseSeparations * 100, total.borderline);
    // The categories must exercise what they claim: borderline pairs and checked axes.
    EXPECT_GT(total.borderline, total.cases / 50);
    EXPECT_GT(total.axisChecked, total.cases / 10);
}

TEST(SatRandomVsOracle, Rectangles) { runRandomVsOracle<2>(2024); }

TEST(SatRandomVsOracle, Boxes) { runRandomVsOracle<3>(3031); }

// ---------------------------------------------------------------------------------------------
// 2. Reference data with exact verdicts.

struct Csv {
    std::vector<std::string> names;
    std::vector<std::vector<std::string>> rows;

    int column(const std::string& name) const {
        const auto it = std::find(names.begin(), names.end(), name);
        return it == names.end() ? -1 : static_cast<int>(it - names.begin());
    }
};

std::vector<std::string> splitCsvLine(const std::string& line) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream is(line);
    while (std::getline(is, field, ',')) {
        if (!field.empty() && field.back() == '\r') {
            field.pop_back();
        }
        out.push_back(field);
    }
    return out;
}

bool readCsv(const std::string& path, Csv& csv) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        return false;
    }
    csv.names = splitCsvLine(line);
    while (std::getline(in, line)) {
        if (!line.empty()) {
            csv.rows.push_back(splitCsvLine(line));
        }
    }
    return true;
}

struct Score {
    long rows = 0;
    long agree = 0;
    long falseOverlaps = 0;     // says overlap, exact says disjoint
    long falseSeparations = 0;  // says disjoint, exact says overlap: a lost contact

    void add(bool saysOverlap, bool exactOverlap) {
        ++rows;
        agree += saysOverlap == exactOverlap ? 1 : 0;
        falseOverlaps += saysOverlap && !exactOverlap ? 1 : 0;
        falseSeparations += !saysOverlap && exactOverlap ? 1 : 0;
    }
};

void printScore(const char* dim, const std::string& who, const std::string& category,
                const Score& s) {
    std::printf("[sat %s data] %-14s %-16s rows %5ld  agree %5ld  false overlaps %4ld  "
                "false separations %4ld\n",
                dim, who.c_str(), category.c_str(), s.rows, s.agree, s.falseOverlaps,
                s.falseSeparations);
}

template <int D>
void runReferenceData(const std::string& file) {
    const std::string path = std::string(CONTACT_TEST_BUILD_DATA_DIR) + "/sat/" + file;
    Csv csv;
    ASSERT_TRUE(readCsv(path, csv))
        << "cannot read " << path << " (the configure step unpacks it from tests/data/sat)";
    ASSERT_FALSE(csv.rows.empty()) << path;

    const char* xyz[] = {"x", "y", "z"};
    const auto col = [&](const std::string& name) {
        const int c = csv.column(name);
        EXPECT_GE(c, 0) << "column " << name << " missing in " << path;
        return c;
    };
    // Column indices of a box: centre, axes, half extents.
    struct BoxColumns {
        std::array<int, D> c{};
        std::array<std::array<int, D>, D> axis{};
        std::array<int, D> h{};
    };
    const auto boxColumns = [&](const std::string& centre, const std::string& axis,
                                const std::string& half) {
        BoxColumns bc;
        for (int k = 0; k < D; ++k) {
            bc.c[k] = col(centre + "_" + xyz[k]);
            bc.h[k] = col(half + "_" + std::to_string(k));
            for (int m = 0; m < D; ++m) {
                bc.axis[k][m] = col(axis + std::to_string(k) + "_" + xyz[m]);
            }
        }
        return bc;
    };
    const BoxColumns colA = boxColumns("ca", "a", "ha");
    const BoxColumns colB = boxColumns("cb", "b", "hb");
    const int colCategory = col("category");
    const int colId = col("id");
    const int colExact = col("exact");
    const int colMarginRel = col("margin_rel");
    // Comparison verdicts: every column between `touch` and `margin`.
    const int colTouch = col("touch");
    const int colMargin = col("margin");
    ASSERT_FALSE(::testing::Test::HasFailure());
    ASSERT_LT(colTouch, colMargin);

    const auto num = [](const std::string& s) { return std::strtod(s.c_str(), nullptr); };
    const auto boxFromRow = [&](const std::vector<std::string>& row, const BoxColumns& bc) {
        BoxT<D> box;
        for (int k = 0; k < D; ++k) {
            box.center[k] = num(row[bc.c[k]]);
            box.halfExtent[k] = num(row[bc.h[k]]);
            for (int m = 0; m < D; ++m) {
                box.axes(m, k) = num(row[bc.axis[k][m]]);
            }
        }
        return box;
    };

    std::map<std::string, Score> ours;
    std::map<std::string, Score> ourBeyond;  // rows with |margin_rel| > 1e-13
    std::map<std::string, std::map<std::string, Score>> others;
    FailureLog log;
    long falseSeparations = 0;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
        const std::vector<std::string>& row = csv.rows[i];
        SCOPED_TRACE(::testing::Message() << file << " row id " << row[colId]);
        ASSERT_EQ(row.size(), csv.names.size());
        const BoxT<D> a = boxFromRow(row, colA);
        const BoxT<D> b = boxFromRow(row, colB);
        const std::string& category = row[colCategory];
        const bool exactOverlap = row[colExact] == "1";
        const double marginRel = num(row[colMarginRel]);
        const SatResult r = Dim<D>::sat(a, b);
        if (Dim<D>::overlap(a, b) == r.separated && log.report()) {
            ADD_FAILURE() << "satOverlap verdict differs from satDisjoint: " << describe(r)
                          << describe<D>(a, b);
        }
        ours[category].add(!r.separated, exactOverlap);
        ours["all"].add(!r.separated, exactOverlap);
        if (std::abs(marginRel) > 1e-13) {
            ourBeyond[category].add(!r.separated, exactOverlap);
            ourBeyond["all"].add(!r.separated, exactOverlap);
            if (r.separated == exactOverlap && log.report()) {
                ADD_FAILURE() << "verdict differs from the exact one beyond rounding: exact "
                              << exactOverlap << ", " << describe(r) << ", margin_rel " << marginRel
                              << describe<D>(a, b);
            }
        }
        if (r.separated && exactOverlap) {
            ++falseSeparations;
            std::printf("  [%s] false separation at margin_rel %.3g, id %s\n", file.c_str(),
                        marginRel, row[colId].c_str());
        }
        for (int c = colTouch + 1; c < colMargin; ++c) {
            others[csv.names[c]][category].add(row[c] == "1", exactOverlap);
            others[csv.names[c]]["all"].add(row[c] == "1", exactOverlap);
        }
    }
    for (const auto& [category, s] : ours) {
        printScore(Dim<D>::kName, "satDisjoint", category, s);
    }
    printScore(Dim<D>::kName, "satDisjoint", "|rel|>1e-13", ourBeyond["all"]);
    for (const auto& [name, byCategory] : others) {
        printScore(Dim<D>::kName, name, "all", byCategory.at("all"));
    }
    EXPECT_EQ(log.count, 0);
    EXPECT_EQ(ourBeyond["all"].agree, ourBeyond["all"].rows);
    // A false "separated" loses a contact: none at all, not even in the rounding band.
    EXPECT_EQ(falseSeparations, 0);
}

TEST(SatReferenceData, Rectangles) { runReferenceData<2>("obb2d_10k.csv"); }

TEST(SatReferenceData, Boxes) { runReferenceData<3>("obb3d_10k.csv"); }

// ---------------------------------------------------------------------------------------------
// 3. A point inside both boxes means they cannot be separated.

template <int D>
void runIntersectionWitnesses(std::uint32_t seed) {
    const long n = 20000;
    long witnessed = 0;
    FailureLog log;
    for (long i = 0; i < n; ++i) {
        const auto category = static_cast<Category>(i % kCategoryCount);
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " case " << i << " (" << categoryName(category) << ")");
        std::mt19937 rng(caseSeed(seed, i));
        const PairCase<D> c = makeCase<D>(category, rng);
        std::optional<VecT<D>> witness;
        // Random points of A that lie in B.
        for (int s = 0; s < 16 && !witness; ++s) {
            const VecT<D> q =
                c.a.center + c.a.axes * c.a.halfExtent.cwiseProduct(randomVec<D>(rng, -1.0, 1.0));
            if (testing::obbContains(c.b, q, 0.0)) {
                witness = q;
            }
        }
        // Alternating projections between the boxes reach the intersection when it is thin.
        VecT<D> p = c.b.center;
        for (int s = 0; s < 30 && !witness; ++s) {
            p = testing::obbClamp(c.b, testing::obbClamp(c.a, p));
            if (testing::obbContains(c.a, p, 0.0) && testing::obbContains(c.b, p, 0.0)) {
                witness = p;
            }
        }
        if (!witness) {
            continue;
        }
        ++witnessed;
        const SatResult r = Dim<D>::sat(c.a, c.b);
        const auto o = Dim<D>::oracle(c.a, c.b);
        const double band = kBorderlineRel * testing::pairScale(c.a, c.b);
        if ((r.separated || o.margin > band) && log.report()) {
            ADD_FAILURE() << "point " << witness->transpose() << " lies in both boxes, yet "
                          << describe(r) << ", oracle margin " << o.margin << describe<D>(c.a, c.b);
        }
    }
    std::printf("[sat %s witnesses] %ld of %ld pairs have a point in both boxes\n", Dim<D>::kName,
                witnessed, n);
    EXPECT_EQ(log.count, 0);
    EXPECT_GT(witnessed, n / 4);  // the sampler must find witnesses for the test to mean anything
}

TEST(SatIntersectionWitness, Rectangles) { runIntersectionWitnesses<2>(77); }

TEST(SatIntersectionWitness, Boxes) { runIntersectionWitnesses<3>(78); }

// ---------------------------------------------------------------------------------------------
// 4. Invariance: rigid motion of both boxes, swapping A and B, scaling.

template <int D>
struct Motion {
    const char* name;
    MatT<D> Q;
    VecT<D> t;
};

template <int D>
std::vector<Motion<D>> randomMotions(std::mt19937& rng) {
    return {
        {"identity", MatT<D>::Identity(), VecT<D>::Zero()},
        {"translation", MatT<D>::Identity(), randomVec<D>(rng, -1e3, 1e3)},
        {"rotation90", rotation90<D>(rng), VecT<D>::Zero()},
        {"rotation+translation", randomRot<D>(rng), randomVec<D>(rng, -1e3, 1e3)},
        {"tiny rotation", rotationBy<D>(1e-7, rng), randomVec<D>(rng, -1.0, 1.0)},
    };
}

template <int D>
void runInvariance(std::uint32_t seed) {
    const long n = 10000;
    FailureLog log;
    long uniqueCases = 0;
    for (long i = 0; i < n; ++i) {
        const auto category = static_cast<Category>(i % kCategoryCount);
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " case " << i << " (" << categoryName(category) << ")");
        std::mt19937 rng(caseSeed(seed, i));
        const PairCase<D> c = makeCase<D>(category, rng);
        const BoxT<D>& a = c.a;
        const BoxT<D>& b = c.b;
        const SatResult r = Dim<D>::sat(a, b);
        const auto o = Dim<D>::oracle(a, b);
        const double scale = testing::pairScale(a, b);
        const bool clear = std::abs(o.margin) > kBorderlineRel * scale;
        const bool overlapUnique =
            !r.separated && !o.separated &&
            testing::leastAxisUnique(o, testing::hysteresisScale(a, b), 1e-6 * scale);
        uniqueCases += overlapUnique ? 1 : 0;
        const auto fail = [&](const char* what, const SatResult& got) {
            if (log.report()) {
                ADD_FAILURE() << what << ": " << describe(got) << " vs original " << describe(r)
                              << ", oracle margin " << o.margin << describe<D>(a, b);
            }
        };

        for (const Motion<D>& m : randomMotions<D>(rng)) {
            SCOPED_TRACE(m.name);
            const BoxT<D> a2 = moved<D>(a, m.Q, m.t);
            const BoxT<D> b2 = moved<D>(b, m.Q, m.t);
            const SatResult r2 = Dim<D>::sat(a2, b2);
            const double scale2 = testing::pairScale(a2, b2);
            // Moved coordinates are rounded to ulps of |t| (up to 1e3): a wider band.
            const bool clear = std::abs(o.margin) > kBorderlineRel * std::max(scale, scale2);
            if (clear && r2.separated != r.separated) {
                fail("rigid motion changed the verdict", r2);
            }
            if (clear && overlapUnique) {
                const Eigen::Vector3d n2 = lift<D>(m.Q * r.normal.template head<D>());
                if (r2.separated || r2.axis != r.axis ||
                    std::abs(r2.depth - r.depth) > kDepthRel * scale2 ||
                    !normalMatches<D>(r2.normal, n2, a2, b2, kNormalTol)) {
                    fail("rigid motion changed axis, depth or normal", r2);
                }
            }
        }

        // Swap A and B.
        const SatResult rs = Dim<D>::sat(b, a);
        if (clear && rs.separated != r.separated) {
            fail("swapping A and B changed the verdict", rs);
        }
        if (clear && overlapUnique) {
            const Eigen::Vector3d flipped = -r.normal;
            if (rs.separated || rs.axis != Dim<D>::swappedAxis(r.axis) ||
                std::abs(rs.depth - r.depth) > kDepthRel * scale ||
                !normalMatches<D>(rs.normal, flipped, b, a, kNormalTol)) {
                fail("swapping A and B changed depth or normal", rs);
            }
        }

        // Scaling by a power of two is exact: everything scales bit for bit.
        for (const double s : {0x1p-10, 0x1p+10}) {
            const SatResult r2 = Dim<D>::sat(scaled<D>(a, s), scaled<D>(b, s));
            if (r2.separated != r.separated || r2.axis != r.axis || r2.depth != s * r.depth ||
                r2.normal != r.normal) {
                fail("exact scaling changed the result", r2);
            }
        }
        // Other factors: same verdict outside the band, depth scaled with the pair.
        for (const double s : {1e-3, 7.3, 1e3}) {
            const BoxT<D> a2 = scaled<D>(a, s);
            const BoxT<D> b2 = scaled<D>(b, s);
            const SatResult r2 = Dim<D>::sat(a2, b2);
            if (clear && r2.separated != r.separated) {
                fail("scaling changed the verdict", r2);
            }
            if (clear && overlapUnique &&
                (r2.axis != r.axis || std::abs(r2.depth - s * r.depth) > kDepthRel * s * scale ||
                 !normalMatches<D>(r2.normal, r.normal, a2, b2, kNormalTol))) {
                fail("scaling changed axis, depth or normal", r2);
            }
        }
    }
    std::printf("[sat %s invariance] %ld pairs, %ld with a unique least-penetration axis\n",
                Dim<D>::kName, n, uniqueCases);
    EXPECT_EQ(log.count, 0);
    EXPECT_GT(uniqueCases, n / 10);
}

TEST(SatInvariance, Rectangles) { runInvariance<2>(91); }

TEST(SatInvariance, Boxes) { runInvariance<3>(92); }

// Moving B along the reported normal by more than the depth separates the boxes; moving a
// separated B further out keeps it separated.
template <int D>
void runMoveAlongNormal(std::uint32_t seed) {
    const long n = 20000;
    FailureLog log;
    for (long i = 0; i < n; ++i) {
        const auto category = static_cast<Category>(i % kCategoryCount);
        SCOPED_TRACE(::testing::Message()
                     << "seed " << seed << " case " << i << " (" << categoryName(category) << ")");
        std::mt19937 rng(caseSeed(seed, i));
        const PairCase<D> c = makeCase<D>(category, rng);
        const SatResult r = Dim<D>::sat(c.a, c.b);
        const double scale = testing::pairScale(c.a, c.b);
        const double step = r.separated ? 1e-3 * scale : r.depth + 1e-9 * scale;
        BoxT<D> b2 = c.b;
        b2.center += step * r.normal.template head<D>();
        const SatResult r2 = Dim<D>::sat(c.a, b2);
        if (!r2.separated && log.report()) {
            ADD_FAILURE() << "moving B by " << step << " along the normal of " << describe(r)
                          << " left the boxes overlapping" << describe<D>(c.a, b2);
        }
    }
    EXPECT_EQ(log.count, 0);
}

TEST(SatProperties, MovingBAlongNormalSeparatesRectangles) { runMoveAlongNormal<2>(55); }

TEST(SatProperties, MovingBAlongNormalSeparatesBoxes) { runMoveAlongNormal<3>(56); }

// ---------------------------------------------------------------------------------------------
// 5. Named edge cases, each run in several world frames (FCL's QueryWithVaryingWorldFrames).

enum class Expect {
    Separated,
    Overlap,
    Touching,  // overlap wherever the frame adds no rounding; elsewhere the inputs decide
};

template <int D>
struct NamedCase {
    std::string name;
    BoxT<D> a;
    BoxT<D> b;
    Expect expect = Expect::Overlap;
    int axis = -1;                  // expected axis; -1: not checked
    std::optional<double> depth;    // expected depth (overlap)
    std::optional<VecT<D>> normal;  // expected normal in the case's own frame
    bool dyadic = true;  // coordinates survive a dyadic shift exactly (see WorldFrame::exact)
};

template <int D>
NamedCase<D> named(std::string name, const BoxT<D>& a, const BoxT<D>& b, Expect expect) {
    NamedCase<D> c;
    c.name = std::move(name);
    c.a = a;
    c.b = b;
    c.expect = expect;
    return c;
}

template <int D>
void PrintTo(const NamedCase<D>& c, std::ostream* os) {
    *os << c.name;
}

template <int D>
struct WorldFrame {
    std::string name;
    MatT<D> Q;
    VecT<D> t;
    bool exact = false;  // the motion adds no rounding to the (dyadic) touching cases
};

template <int D>
void PrintTo(const WorldFrame<D>& f, std::ostream* os) {
    *os << f.name;
}

template <int D>
std::vector<WorldFrame<D>> worldFrames() {
    std::mt19937 rng(4242);
    VecT<D> dyadic;
    VecT<D> shift;
    MatT<D> rot90;
    if constexpr (D == 2) {
        dyadic << 1024.0, -512.0;
        shift << 123.4, -567.8;
        rot90 << 0.0, -1.0, 1.0, 0.0;
    } else {
        dyadic << 1024.0, -512.0, 256.0;
        shift << 123.4, -567.8, 890.1;
        Eigen::Matrix3d rz;
        Eigen::Matrix3d rx;
        rz << 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0;
        rx << 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0;
        rot90 = rz * rx;
    }
    return {
        {"Identity", MatT<D>::Identity(), VecT<D>::Zero(), true},
        {"Rotation90", rot90, VecT<D>::Zero(), true},
        {"DyadicShift", MatT<D>::Identity(), dyadic, true},
        {"Rotated", randomRot<D>(rng), shift, false},
        {"TinyRotation", rotationBy<D>(1e-7, rng), shift, false},
    };
}

// Unit cube-like boxes with dyadic coordinates, so exact frames keep them exactly touching.
template <int D>
BoxT<D> box(const VecT<D>& c, const MatT<D>& axes, const VecT<D>& h) {
    BoxT<D> out;
    out.center = c;
    out.axes = axes;
    out.halfExtent = h;
    return out;
}

std::vector<NamedCase<3>> namedCases3d() {
    using V = Eigen::Vector3d;
    using M = Eigen::Matrix3d;
    const M I = M::Identity();
    std::mt19937 rng(303);
    const M R = randomRot<3>(rng);
    const M R2 = randomRot<3>(rng);
    const double s = std::sqrt(0.5);
    std::vector<NamedCase<3>> cases;

    {  // Coincident boxes: least penetration across the thinnest side, along A's axis.
        NamedCase<3> c =
            named<3>("IdenticalBoxes", box<3>(V(0.25, -0.5, 0.125), R, V(0.75, 0.25, 0.5)), {},
                     Expect::Overlap);
        c.b = c.a;
        c.axis = 1;
        c.depth = 0.5;
        c.normal = R.col(1);
        cases.push_back(c);
    }
    {  // Face of B flush against the +x face of A: gap exactly 0.
        NamedCase<3> c =
            named<3>("TouchingFaces", box<3>(V::Zero(), I, V(1.0, 0.5, 0.25)),
                     box<3>(V(1.5, 0.25, -0.125), I, V(0.5, 0.5, 0.5)), Expect::Touching);
        c.axis = 0;
        c.depth = 0.0;
        c.normal = V::UnitX();
        cases.push_back(c);
    }
    {  // As above, B turned 30 degrees about the common x axis (b0 = x exactly).
        M Bx;
        Bx << 1.0, 0.0, 0.0, 0.0, std::cos(M_PI / 6), -std::sin(M_PI / 6), 0.0, std::sin(M_PI / 6),
            std::cos(M_PI / 6);
        NamedCase<3> c =
            named<3>("TouchingFacesTwisted", box<3>(V::Zero(), I, V(1.0, 0.5, 0.25)),
                     box<3>(V(1.5, 0.25, -0.125), Bx, V(0.5, 0.5, 0.5)), Expect::Touching);
        c.axis = 0;  // A's face wins the tie with B's parallel face (hysteresis order)
        c.depth = 0.0;
        c.normal = V::UnitX();
        cases.push_back(c);
    }
    // Edge to edge: A's edge along x at (y, z) = (1, 1) and B's edge along (0, 1, -1)/sqrt2, B's
    // ridge pointing at A's ridge along -n, n = (0, 1, 1)/sqrt2 = A0 x B0. Only axis 6 touches.
    M Be;
    Be.col(0) = V(0.0, s, -s);
    Be.col(1) = V(s, 0.5, 0.5);
    Be.col(2) = V(s, -0.5, -0.5);
    const V n(0.0, s, s);
    {
        NamedCase<3> c = named<3>("TouchingEdgeToEdge", box<3>(V::Zero(), I, V::Ones()),
                                  box<3>(V(0.0, 1.5, 1.5), Be, V::Constant(0.5)), Expect::Touching);
        c.axis = 6;
        c.depth = 0.0;
        c.normal = n;
        cases.push_back(c);
    }
    {
        NamedCase<3> c = named<3>("EdgesSeparatedByTinyGap", box<3>(V::Zero(), I, V::Ones()),
                                  box<3>(V(0.0, 1.5, 1.5) + 1.5e-9 * n, Be, V::Constant(0.5)),
                                  Expect::Separated);
        c.axis = 6;
        c.normal = n;
        cases.push_back(c);
    }
    {
        NamedCase<3> c =
            named<3>("EdgesPenetrating", box<3>(V::Zero(), I, V::Ones()),
                     box<3>(V(0.0, 1.5, 1.5) - 1e-3 * n, Be, V::Constant(0.5)), Expect::Overlap);
        c.axis = 6;
        c.depth = 1e-3;
        c.normal = n;
        cases.push_back(c);
    }
    {  // Faces apart by 1e-9 of the pair's scale (1.5), on either side.
        NamedCase<3> c =
            named<3>("FacesSeparatedByTinyGap", box<3>(V::Zero(), I, V(1.0, 0.5, 0.25)),
                     box<3>(V(1.5 + 1.5e-9, 0.25, -0.125), I, V::Constant(0.5)), Expect::Separated);
        c.axis = 0;
        c.normal = V::UnitX();
        cases.push_back(c);
        c.name = "FacesSeparatedByTinyGapNegativeSide";
        c.b.center.x() = -c.b.center.x();
        c.normal = -V::UnitX();
        cases.push_back(c);
    }
    // Identical axes, B diagonally off A's corner edge: the 9 edge pairs hold 3 exact zeros.
    for (const double g : {1e-9, -1e-9}) {
        NamedCase<3> c = named<3>(
            g > 0 ? "ParallelEdgesDiagonalGap" : "ParallelEdgesDiagonalOverlap",
            box<3>(V::Zero(), R, V::Ones()), box<3>(R * V(2.0 + g, 2.0 + g, 0.5), R, V::Ones()),
            g > 0 ? Expect::Separated : Expect::Overlap);
        if (g < 0) {
            c.depth = -g;  // A0 and A1 tie: axis not checked
        }
        cases.push_back(c);
    }
    // Edges 1e-12 rad from parallel: rounded cross products must not separate overlapping boxes.
    const M Rtiny = Eigen::AngleAxisd(1e-12, V(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
    for (const double g : {1e-6, -1e-6}) {
        NamedCase<3> c = named<3>(g > 0 ? "NearlyParallelEdgesGap" : "NearlyParallelEdgesOverlap",
                                  box<3>(V::Zero(), R, V::Ones()),
                                  box<3>(R * V(2.0 + g, 2.0 + g, 0.5), Rtiny * R, V::Ones()),
                                  g > 0 ? Expect::Separated : Expect::Overlap);
        cases.push_back(c);
    }
    M Rz30;
    Rz30 << std::cos(M_PI / 6), -std::sin(M_PI / 6), 0.0, std::sin(M_PI / 6), std::cos(M_PI / 6),
        0.0, 0.0, 0.0, 1.0;
    {  // Two zero-thickness rectangles in the plane z = 0, overlapping.
        NamedCase<3> c =
            named<3>("ZeroThicknessCoplanar", box<3>(V::Zero(), I, V(1.0, 1.0, 0.0)),
                     box<3>(V(0.5, 0.5, 0.0), Rz30, V(1.0, 0.5, 0.0)), Expect::Touching);
        c.axis = 2;
        c.depth = 0.0;
        c.normal = V::UnitZ();
        cases.push_back(c);
        c.name = "ZeroThicknessStacked";
        c.b.center.z() = 1e-9;
        c.expect = Expect::Separated;
        c.depth.reset();
        cases.push_back(c);
    }
    {  // A flat square and a flat square standing across it.
        M Bxzy;
        Bxzy << 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0;
        NamedCase<3> c =
            named<3>("ZeroThicknessCrossing", box<3>(V::Zero(), I, V(1.0, 1.0, 0.0)),
                     box<3>(V(0.25, 0.0, 0.125), Bxzy, V(0.5, 0.5, 0.0)), Expect::Overlap);
        c.axis = 2;
        c.depth = 0.375;
        c.normal = V::UnitZ();
        cases.push_back(c);
    }
    {  // Far from the origin: 1e-3 apart or 1e-3 into each other along A's first axis.
        const V cA(1e6, -2e6, 3e6);
        const V h(1.0, 0.5, 0.25);
        NamedCase<3> c = named<3>("FarFromOriginGap", box<3>(cA, R, h),
                                  box<3>(cA + (2.0 + 1e-3) * R.col(0), R, h), Expect::Separated);
        c.axis = 0;
        c.normal = R.col(0);
        cases.push_back(c);
        c.name = "FarFromOriginOverlap";
        c.b.center = cA + (2.0 - 1e-3) * R.col(0);
        c.expect = Expect::Overlap;
        c.depth = 1e-3;
        cases.push_back(c);
    }
    {  // B strictly inside A (checked in the test): least penetration as the oracle says.
        const V cA(0.5, -0.25, 1.0);
        NamedCase<3> c =
            named<3>("Nested", box<3>(cA, R, V(1.0, 0.75, 0.5)),
                     box<3>(cA + R * V(0.25, -0.125, 0.0625), R2, V(0.125, 0.1875, 0.0625)),
                     Expect::Overlap);
        cases.push_back(c);
    }
    {  // Degenerate B: a single point inside, on the face of, and just outside A.
        NamedCase<3> c = named<3>("PointInside", box<3>(V::Zero(), I, V::Ones()),
                                  box<3>(V(0.25, 0.5, -0.75), R, V::Zero()), Expect::Overlap);
        cases.push_back(c);
        c.name = "PointOnFace";
        c.b.center = V(1.0, 0.5, -0.75);
        c.expect = Expect::Touching;
        c.axis = 0;
        c.depth = 0.0;
        c.normal = V::UnitX();
        cases.push_back(c);
        c.name = "PointOutside";
        c.b.center = V(1.0 + 1e-9, 0.5, -0.75);
        c.expect = Expect::Separated;
        c.depth.reset();
        cases.push_back(c);
    }
    // Hysteresis: A turned by th about z, B axis-aligned, 1.9 apart along x. B's x face is
    // shallower than A's a0 face by 1.9 (1 - cos th): at th = 0.1 by less than the hysteresis
    // margin, so A's face stays; at th = 0.2 by more, so B's face (axis 3) takes over.
    for (const double th : {0.1, 0.2}) {
        M Rz;
        Rz << std::cos(th), -std::sin(th), 0.0, std::sin(th), std::cos(th), 0.0, 0.0, 0.0, 1.0;
        const bool keepsA = th < 0.15;
        NamedCase<3> c = named<3>(keepsA ? "HysteresisKeepsFaceOfA" : "HysteresisSwitchesToFaceOfB",
                                  box<3>(V::Zero(), Rz, V::Ones()),
                                  box<3>(V(1.9, 0.0, 0.0), I, V::Ones()), Expect::Overlap);
        const double depthA = 1.0 + std::cos(th) + std::sin(th) - 1.9 * std::cos(th);
        const double depthB = std::cos(th) + std::sin(th) + 1.0 - 1.9;
        c.axis = keepsA ? 0 : 3;
        c.depth = keepsA ? depthA : depthB;
        c.normal = keepsA ? V(Rz.col(0)) : V::UnitX();
        cases.push_back(c);
    }
    return cases;
}

std::vector<NamedCase<2>> namedCases2d() {
    using V = Eigen::Vector2d;
    using M = Eigen::Matrix2d;
    const M I = M::Identity();
    std::mt19937 rng(202);
    const M R = randomRot<2>(rng);
    const M R2 = randomRot<2>(rng);
    const double s = std::sqrt(0.5);
    std::vector<NamedCase<2>> cases;

    {
        NamedCase<2> c = named<2>("IdenticalRects", box<2>(V(0.25, -0.5), R, V(0.75, 0.25)), {},
                                  Expect::Overlap);
        c.b = c.a;
        c.axis = 1;
        c.depth = 0.5;
        c.normal = R.col(1);
        cases.push_back(c);
    }
    {
        NamedCase<2> c = named<2>("TouchingSides", box<2>(V::Zero(), I, V(1.0, 0.5)),
                                  box<2>(V(1.5, 0.25), I, V(0.5, 0.5)), Expect::Touching);
        c.axis = 0;
        c.depth = 0.0;
        c.normal = V::UnitX();
        cases.push_back(c);
    }
    {  // Corner to corner on the diagonal: A0 and A1 both touch; the first one wins.
        NamedCase<2> c = named<2>("TouchingCorners", box<2>(V::Zero(), I, V::Ones()),
                                  box<2>(V(2.0, 2.0), I, V::Ones()), Expect::Touching);
        c.depth = 0.0;  // A0 and A1 tie: axis and normal are up to rounding
        cases.push_back(c);
    }
    M R45;
    R45 << s, -s, s, s;
    {  // A corner of B (turned 45 degrees) on the top side of A.
        NamedCase<2> c =
            named<2>("CornerOnSide", box<2>(V::Zero(), I, V::Ones()),
                     box<2>(V(0.25, 1.0 + s), R45, V::Constant(0.5)), Expect::Touching);
        c.dyadic = false;
        c.axis = 1;
        c.depth = 0.0;
        c.normal = V::UnitY();
        cases.push_back(c);
        c.name = "CornerSeparatedByTinyGap";
        c.b.center.y() += 2e-9;
        c.expect = Expect::Separated;
        c.depth.reset();
        cases.push_back(c);
    }
    {
        NamedCase<2> c =
            named<2>("SidesSeparatedByTinyGap", box<2>(V::Zero(), I, V(1.0, 0.5)),
                     box<2>(V(1.5 + 1.5e-9, 0.25), I, V::Constant(0.5)), Expect::Separated);
        c.axis = 0;
        c.normal = V::UnitX();
        cases.push_back(c);
    }
    for (const double g : {1e-9, -1e-9}) {
        NamedCase<2> c =
            named<2>(g > 0 ? "ParallelDiagonalGap" : "ParallelDiagonalOverlap",
                     box<2>(V::Zero(), R, V::Ones()), box<2>(R * V(2.0 + g, 2.0 + g), R, V::Ones()),
                     g > 0 ? Expect::Separated : Expect::Overlap);
        if (g < 0) {
            c.depth = -g;
        }
        cases.push_back(c);
    }
    const M Rtiny = Eigen::Rotation2Dd(1e-12).toRotationMatrix();
    for (const double g : {1e-6, -1e-6}) {
        NamedCase<2> c = named<2>(g > 0 ? "NearlyParallelGap" : "NearlyParallelOverlap",
                                  box<2>(V::Zero(), R, V::Ones()),
                                  box<2>(R * V(2.0 + g, 2.0 + g), Rtiny * R, V::Ones()),
                                  g > 0 ? Expect::Separated : Expect::Overlap);
        cases.push_back(c);
    }
    {  // Zero-thickness rectangles (segments): collinear and overlapping.
        NamedCase<2> c = named<2>("SegmentsCollinear", box<2>(V::Zero(), I, V(1.0, 0.0)),
                                  box<2>(V(1.5, 0.0), I, V(1.0, 0.0)), Expect::Touching);
        c.axis = 1;
        c.depth = 0.0;
        c.normal = V::UnitY();
        cases.push_back(c);
        c.name = "SegmentsParallelOffset";
        c.b.center.y() = 1e-9;
        c.expect = Expect::Separated;
        c.depth.reset();
        cases.push_back(c);
    }
    {
        M R60;
        R60 << 0.5, -std::sqrt(0.75), std::sqrt(0.75), 0.5;
        NamedCase<2> c = named<2>("SegmentsCrossing", box<2>(V::Zero(), I, V(1.0, 0.0)),
                                  box<2>(V(0.25, 0.0), R60, V(0.5, 0.0)), Expect::Overlap);
        cases.push_back(c);
    }
    {
        const V cA(1e6, -2e6);
        const V h(1.0, 0.5);
        NamedCase<2> c = named<2>("FarFromOriginGap", box<2>(cA, R, h),
                                  box<2>(cA + (2.0 + 1e-3) * R.col(0), R, h), Expect::Separated);
        c.axis = 0;
        c.normal = R.col(0);
        cases.push_back(c);
        c.name = "FarFromOriginOverlap";
        c.b.center = cA + (2.0 - 1e-3) * R.col(0);
        c.expect = Expect::Overlap;
        c.depth = 1e-3;
        cases.push_back(c);
    }
    {
        const V cA(0.5, -0.25);
        NamedCase<2> c =
            named<2>("Nested", box<2>(cA, R, V(1.0, 0.75)),
                     box<2>(cA + R * V(0.25, -0.125), R2, V(0.125, 0.1875)), Expect::Overlap);
        cases.push_back(c);
    }
    // Hysteresis, as in 3D: B's side wins only when clearly shallower than A's.
    for (const double th : {0.1, 0.2}) {
        M Rth;
        Rth << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
        const bool keepsA = th < 0.15;
        NamedCase<2> c = named<2>(keepsA ? "HysteresisKeepsSideOfA" : "HysteresisSwitchesToSideOfB",
                                  box<2>(V::Zero(), Rth, V::Ones()),
                                  box<2>(V(1.9, 0.0), I, V::Ones()), Expect::Overlap);
        const double depthA = 1.0 + std::cos(th) + std::sin(th) - 1.9 * std::cos(th);
        const double depthB = std::cos(th) + std::sin(th) + 1.0 - 1.9;
        c.axis = keepsA ? 0 : 2;
        c.depth = keepsA ? depthA : depthB;
        c.normal = keepsA ? V(Rth.col(0)) : V::UnitX();
        cases.push_back(c);
    }
    return cases;
}

template <int D>
void checkNamedCase(const NamedCase<D>& c, const WorldFrame<D>& f) {
    const BoxT<D> a = moved<D>(c.a, f.Q, f.t);
    const BoxT<D> b = moved<D>(c.b, f.Q, f.t);
    const SatResult r = Dim<D>::sat(a, b);
    const auto o = Dim<D>::oracle(a, b);
    const double scale = testing::pairScale(a, b);
    SCOPED_TRACE(describe(r) + ", oracle margin " + std::to_string(o.margin) + describe<D>(a, b));
    EXPECT_TRUE(wellFormed<D>(r, a, b));
    if (c.name == "Nested") {
        for (const auto& p : testing::obbCorners(c.b)) {
            EXPECT_TRUE(testing::obbContains(c.a, p, -1e-3)) << "B is not strictly inside A";
        }
    }
    const bool exactFrame = f.exact && (c.dyadic || f.t.isZero());
    switch (c.expect) {
    case Expect::Separated: EXPECT_TRUE(r.separated); break;
    case Expect::Overlap: EXPECT_FALSE(r.separated); break;
    case Expect::Touching:
        if (exactFrame) {
            EXPECT_FALSE(r.separated) << "touching boxes must overlap";
        } else {
            EXPECT_TRUE(!r.separated || o.margin > 0.0) << "separated, but the oracle overlaps";
        }
        break;
    }
    // Away from the rounding band the oracle decides, in every frame.
    if (std::abs(o.margin) > kBorderlineRel * scale) {
        EXPECT_EQ(r.separated, o.separated);
        if (!r.separated) {
            EXPECT_TRUE((overlapConsistent<D>(r, o, a, b)));
        }
        if (!r.separated &&
            testing::leastAxisUnique(o, testing::hysteresisScale(a, b), kDepthRel * scale)) {
            EXPECT_EQ(r.axis, o.leastAxis);
            EXPECT_NEAR(r.depth, std::max(0.0, o.depth[o.leastAxis]), kDepthRel * scale);
        }
    }
    if (c.axis >= 0) {
        EXPECT_EQ(r.axis, c.axis);
    }
    if (c.depth) {
        // A few ulps of the coordinates: the depth is a difference of projections.
        EXPECT_NEAR(r.depth, *c.depth, 64.0 * tol::kEps * scale);
    }
    if (c.normal) {
        const Eigen::Vector3d expected = lift<D>(f.Q * *c.normal);
        EXPECT_TRUE(normalMatches<D>(r.normal, expected, a, b, 1e-12));
    }
}

template <int D>
std::string
namedCaseName(const ::testing::TestParamInfo<std::tuple<NamedCase<D>, WorldFrame<D>>>& info) {
    return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name;
}

class SatNamed3d : public ::testing::TestWithParam<std::tuple<NamedCase<3>, WorldFrame<3>>> {};
class SatNamed2d : public ::testing::TestWithParam<std::tuple<NamedCase<2>, WorldFrame<2>>> {};

TEST_P(SatNamed3d, VerdictAxisDepthNormal) {
    checkNamedCase<3>(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

TEST_P(SatNamed2d, VerdictAxisDepthNormal) {
    checkNamedCase<2>(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Boxes, SatNamed3d,
                         ::testing::Combine(::testing::ValuesIn(namedCases3d()),
                                            ::testing::ValuesIn(worldFrames<3>())),
                         namedCaseName<3>);

INSTANTIATE_TEST_SUITE_P(Rectangles, SatNamed2d,
                         ::testing::Combine(::testing::ValuesIn(namedCases2d()),
                                            ::testing::ValuesIn(worldFrames<2>())),
                         namedCaseName<2>);

}  // namespace
}  // namespace contact
