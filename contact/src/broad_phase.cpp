// SPDX-License-Identifier: MIT
// The only file that sees nanoflann: a version change of its API touches this file alone.
#include "contact/broad_phase.hpp"

#include "contact/tolerances.hpp"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace contact {
namespace {

// nanoflann dataset adaptor over a contiguous slice of box centres (3 x count, column-major).
// Holds a pointer, never a copy.
struct CentreCloud {
    const double* centres = nullptr;
    std::uint32_t count = 0;

    [[nodiscard]] std::size_t kdtree_get_point_count() const { return count; }
    [[nodiscard]] double kdtree_get_pt(std::uint32_t i, std::size_t dim) const {
        return centres[3 * static_cast<std::size_t>(i) + dim];
    }
    template <class Bbox>
    bool kdtree_get_bbox(Bbox& /*unused*/) const {
        return false;
    }
};

using Metric = nanoflann::L2_Simple_Adaptor<double, CentreCloud, double, std::uint32_t>;
using Tree = nanoflann::KDTreeSingleIndexAdaptor<Metric, CentreCloud, 3, std::uint32_t>;

// Leaf size: small leaves suit the short radius queries of contact search (sweep in bench/).
constexpr std::size_t kLeafMaxSize = 16;

// A class holds half-diagonals in (R/2, R]; classes below kMinClassRatio * largest merge into one.
constexpr double kMinClassRatio = 1.0 / (1 << 20);

}  // namespace

struct BroadPhase::Impl {
    struct SizeClass {
        Index begin = 0;            // first position (class order) of this class
        double maxHalfDiag = 0.0;   // largest half-diagonal in the class
        CentreCloud cloud;
        std::unique_ptr<Tree> tree;
    };

    Eigen::Matrix3Xd lo, hi, centre;  // boxes in class order
    std::vector<Index> original;      // class-order position -> input index
    std::vector<SizeClass> classes;
    std::vector<int> classOf;         // scratch: class of each input box
    std::vector<Index> classCount;    // scratch
    double coordScale = 0.0;          // largest |coordinate| of any box, for the rounding pad

    // Result set for radiusSearchCustomCallback: tests the exact box overlap and appends the input
    // index of each overlapping box. Never stops the search early.
    struct OverlapCollector {
        using DistanceType = double;
        using IndexType = std::uint32_t;

        const Impl* impl;
        Index begin;
        double radiusSq;
        const Eigen::Vector3d* qlo;
        const Eigen::Vector3d* qhi;
        std::vector<Index>* out;
        BroadPhaseStats* stats;

        void init() {}
        void clear() {}
        [[nodiscard]] std::size_t size() const { return 0; }
        [[nodiscard]] bool full() const { return true; }
        [[nodiscard]] double worstDist() const { return radiusSq; }
        bool addPoint(double /*distSq*/, std::uint32_t local) {
            const Index k = begin + static_cast<Index>(local);
            if (stats != nullptr) {
                ++stats->reported;
            }
            const auto& l = impl->lo;
            const auto& h = impl->hi;
            if ((*qlo)[0] <= h(0, k) && l(0, k) <= (*qhi)[0] && (*qlo)[1] <= h(1, k) &&
                l(1, k) <= (*qhi)[1] && (*qlo)[2] <= h(2, k) && l(2, k) <= (*qhi)[2]) {
                out->push_back(impl->original[k]);
                if (stats != nullptr) {
                    ++stats->accepted;
                }
            }
            return true;
        }
    };
};

BroadPhase::BroadPhase() : impl_(std::make_unique<Impl>()) {}
BroadPhase::~BroadPhase() = default;
BroadPhase::BroadPhase(BroadPhase&&) noexcept = default;
BroadPhase& BroadPhase::operator=(BroadPhase&&) noexcept = default;

// build: half-diagonals -> size classes (powers of 2 below the largest) -> boxes reordered by class
// (stable) -> one kd-tree per non-empty class over its slice of centres.
void BroadPhase::build(const Eigen::Matrix3Xd& lo, const Eigen::Matrix3Xd& hi) {
    Impl& m = *impl_;
    const Index n = static_cast<Index>(lo.cols());
    m.classes.clear();
    m.coordScale = 0.0;
    m.lo.resize(3, n);
    m.hi.resize(3, n);
    m.centre.resize(3, n);
    m.original.resize(n);
    if (n == 0) {
        return;
    }
    double largest = 0.0;
    for (Index i = 0; i < n; ++i) {
        largest = std::max(largest, 0.5 * (hi.col(i) - lo.col(i)).norm());
        m.coordScale = std::max({m.coordScale, lo.col(i).cwiseAbs().maxCoeff(),
                                 hi.col(i).cwiseAbs().maxCoeff()});
    }
    // Class c holds half-diagonals in (largest / 2^(c+1), largest / 2^c]; the last class takes
    // everything smaller, down to points.
    const int maxClasses = 1 + static_cast<int>(std::log2(1.0 / kMinClassRatio));
    m.classOf.resize(n);
    m.classCount.assign(maxClasses, 0);
    for (Index i = 0; i < n; ++i) {
        const double r = 0.5 * (hi.col(i) - lo.col(i)).norm();
        int c = maxClasses - 1;
        if (r > largest * kMinClassRatio) {
            c = std::min(maxClasses - 1, static_cast<int>(std::floor(std::log2(largest / r))));
        }
        m.classOf[i] = c;
        ++m.classCount[c];
    }
    std::vector<Index> start(maxClasses + 1, 0);
    for (int c = 0; c < maxClasses; ++c) {
        start[c + 1] = start[c] + m.classCount[c];
    }
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (Index i = 0; i < n; ++i) {
        const Index k = fill[m.classOf[i]]++;
        m.original[k] = i;
        m.lo.col(k) = lo.col(i);
        m.hi.col(k) = hi.col(i);
        m.centre.col(k) = 0.5 * (lo.col(i) + hi.col(i));
    }
    for (int c = 0; c < maxClasses; ++c) {
        if (m.classCount[c] == 0) {
            continue;
        }
        Impl::SizeClass sc;
        sc.begin = start[c];
        for (Index k = start[c]; k < start[c + 1]; ++k) {
            sc.maxHalfDiag = std::max(sc.maxHalfDiag, 0.5 * (m.hi.col(k) - m.lo.col(k)).norm());
        }
        sc.cloud.centres = m.centre.data() + 3 * static_cast<std::ptrdiff_t>(start[c]);
        sc.cloud.count = static_cast<std::uint32_t>(m.classCount[c]);
        m.classes.push_back(std::move(sc));
    }
    // Trees are built once the class vector no longer moves: each tree holds a reference to its cloud.
    for (auto& sc : m.classes) {
        sc.tree = std::make_unique<Tree>(3, sc.cloud, nanoflann::KDTreeSingleIndexAdaptorParams(kLeafMaxSize));
    }
}

void BroadPhase::query(const Eigen::Vector3d& qlo, const Eigen::Vector3d& qhi,
                       std::vector<Index>& out, BroadPhaseStats* stats) const {
    const Impl& m = *impl_;
    const Eigen::Vector3d q = 0.5 * (qlo + qhi);
    const double rq = 0.5 * (qhi - qlo).norm();
    // Rounding pad: centres and half-diagonals carry errors of a few ulps of the coordinates.
    const double pad = 64.0 * tol::kEps * (m.coordScale + q.cwiseAbs().maxCoeff() + rq);
    const nanoflann::SearchParams params(32, 0.0F, false);
    for (const auto& sc : m.classes) {
        const double r = (rq + sc.maxHalfDiag) * (1.0 + 1e-9) + pad;
        Impl::OverlapCollector collect{&m, sc.begin, r * r, &qlo, &qhi, &out, stats};
        sc.tree->radiusSearchCustomCallback(q.data(), collect, params);
    }
}

Index BroadPhase::size() const noexcept { return static_cast<Index>(impl_->original.size()); }

int BroadPhase::sizeClasses() const noexcept { return static_cast<int>(impl_->classes.size()); }

std::size_t BroadPhase::memoryBytes() const noexcept {
    const Impl& m = *impl_;
    const std::size_t n = m.original.size();
    // boxes + centres + index map + nanoflann's vAcc (one index per point) and nodes (~n / leaf).
    return n * (9 * sizeof(double) + sizeof(Index) + sizeof(std::uint32_t)) +
           (n / kLeafMaxSize + m.classes.size()) * 2 * 64;
}

}  // namespace contact
