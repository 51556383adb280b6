// SPDX-License-Identifier: MIT
#include "orientation.hpp"

#include "contact/segment.hpp"
#include "contact/tolerances.hpp"

#include "detail/assert.hpp"
#include "detail/search_common.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace contact {

Orientation orientationVerdict(const OrientationCheck& check) noexcept {
    const auto clear = [](Index part, Index whole) {
        return whole >= tol::kOrientationMinPairs &&
               part >= tol::kOrientationMajority * static_cast<double>(whole);
    };
    const Index judged = check.opposed + check.aligned;
    const Index decided = check.inFront + check.behind;
    if (clear(check.opposed, judged)) {
        return Orientation::kConsistent;
    }
    if (clear(check.aligned, judged) && clear(check.behind, decided)) {
        return Orientation::kMasterInsideOut;
    }
    if (clear(check.aligned, judged) && clear(check.inFront, decided)) {
        return Orientation::kSlaveInsideOut;
    }
    return Orientation::kUnknown;
}

namespace {

// What update() would have refused: a bad view or surface (the structure first, then node
// indices, coordinates and shapes), a capture distance that is not a length.
void checkInput(const char* fn, const Surface* master, const Surface& slave,
                const CoordinatesView& x, double capture) {
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string(fn) + ": coordinates: " + bad);
    }
    if (master != nullptr) {
        detail::validateSurface(fn, "master", *master, x);
    }
    detail::validateSurface(fn, "slave", slave, x);
    if (!std::isfinite(capture) || capture < 0.0) {
        throw std::invalid_argument(std::string(fn) + ": capture must be finite and >= 0, got " +
                                    detail::shortest(capture));
    }
}

}  // namespace

OrientationCheck checkOrientation(const NodePairs& pairs, const Surface& slave,
                                  const CoordinatesView& x, double capture) {
    const char* fn = "contact::checkOrientation";
    checkInput(fn, nullptr, slave, x, capture);
    const std::vector<Index> nodes = detail::uniqueNodes(slave);
    for (Index i = 0; i < pairs.size(); ++i) {
        if (!std::binary_search(nodes.begin(), nodes.end(), pairs.slave()[i])) {
            throw std::invalid_argument(std::string(fn) + ": pair " + std::to_string(i) +
                                        " names node " + std::to_string(pairs.slave()[i]) +
                                        ", in no segment of the slave surface");
        }
    }
    return detail::judgeNodePairs(pairs, slave, nodes, detail::segmentOfEachNode(slave, nodes), x,
                                  capture);
}

OrientationCheck checkOrientation(const SegmentPairs& pairs, const Surface& master,
                                  const Surface& slave, const CoordinatesView& x, double capture) {
    const char* fn = "contact::checkOrientation";
    checkInput(fn, &master, slave, x, capture);
    for (Index i = 0; i < pairs.size(); ++i) {
        const Index s = pairs.slave()[i];
        const Index m = pairs.master()[i];
        if (s < 0 || s >= slave.size() || m < 0 || m >= master.size()) {
            throw std::invalid_argument(
                std::string(fn) + ": pair " + std::to_string(i) + " (slave " + std::to_string(s) +
                ", master " + std::to_string(m) + ") names a segment beyond the surfaces");
        }
    }
    return detail::judgeSegmentPairs(pairs, master, slave, x, capture);
}

}  // namespace contact

namespace contact::detail {
namespace {

// The counts of OrientationCheck and the verdict (the rule: OrientationCheck, contact_search.hpp).
//
// Why it tells: where two bodies touch, the master's outward normal and the slave's point at each
// other (n_m . n_s < 0), and slave points lie on the outer side of the master (gap >= 0, up to a
// penetration small against the capture distance). A master given inside-out turns n_m: the
// normals come out aligned and every gap changes sign (slave points behind it). A slave given
// inside-out turns n_s only: aligned normals, gaps of the right sign. Gaps near zero tell nothing
// of the side, so only those beyond kOrientationGapRel x capture are counted.
class Tally {
public:
    explicit Tally(double capture) noexcept : gapLimit_(tol::kOrientationGapRel * capture) {}

    void add(const Eigen::Vector3d& masterNormal, const Eigen::Vector3d& slaveNormal,
             double gap) noexcept {
        const double c = masterNormal.dot(slaveNormal);  // 0 when either normal is missing
        if (c <= -tol::kOrientationAlignment) {
            ++r_.opposed;
        } else if (c >= tol::kOrientationAlignment) {
            ++r_.aligned;
            r_.inFront += gap > gapLimit_ ? 1 : 0;
            r_.behind += gap < -gapLimit_ ? 1 : 0;
        }
    }

    [[nodiscard]] OrientationCheck result() const noexcept {
        OrientationCheck r = r_;
        r.verdict = orientationVerdict(r);
        return r;
    }

private:
    double gapLimit_;
    OrientationCheck r_;
};

// Every stride-th of `count` pairs: at most kOrientationSample of them, spread evenly.
Index strideFor(Index count) noexcept {
    return std::max<Index>(1, (count + tol::kOrientationSample - 1) / tol::kOrientationSample);
}

}  // namespace

std::vector<Index> segmentOfEachNode(const Surface& slave, const std::vector<Index>& nodes) {
    std::vector<Index> segment(nodes.size(), kNoIndex);
    for (Index s = 0; s < slave.size(); ++s) {
        const Index* n = slave.nodes(s);
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            const auto at = std::lower_bound(nodes.begin(), nodes.end(), n[i]);
            if (at != nodes.end() && *at == n[i] && segment[at - nodes.begin()] == kNoIndex) {
                segment[at - nodes.begin()] = s;
            }
        }
    }
    return segment;
}

OrientationCheck judgeNodePairs(const NodePairs& pairs, const Surface& slave,
                                const std::vector<Index>& nodes,
                                const std::vector<Index>& nodeSegment, const CoordinatesView& x,
                                double capture) {
    Tally tally(capture);
    if (nodeSegment.empty()) {  // a slave given as nodes: no normals
        return tally.result();
    }
    const Index count = pairs.size();
    const Index stride = strideFor(count);
    for (Index i = 0; i < count; i += stride) {
        const Index node = pairs.slave()[i];
        const auto at = std::lower_bound(nodes.begin(), nodes.end(), node);
        CONTACT_ASSERT(at != nodes.end() && *at == node);
        const Index s = nodeSegment[at - nodes.begin()];
        if (s == kNoIndex) {
            continue;
        }
        const Index* n = slave.nodes(s);
        const int local = static_cast<int>(std::find(n, n + nodeCount(slave.types[s]), node) - n);
        const Eigen::Vector3d slaveNormal =
            outwardNormal(gatherSegment(slave, s, x), nodeLocalCoordinates(slave.types[s], local));
        tally.add(pairs.normal().col(i), slaveNormal, pairs.gap()[i]);
    }
    return tally.result();
}

OrientationCheck judgeSegmentPairs(const SegmentPairs& pairs, const Surface& master,
                                   const Surface& slave, const CoordinatesView& x, double capture) {
    Tally tally(capture);
    const Index count = pairs.size();
    const Index stride = strideFor(count);
    for (Index i = 0; i < count; i += stride) {
        const Index k = pairs.slave()[i];
        const Index j = pairs.master()[i];
        const SegmentFrame s =
            segmentFrame(gatherSegment(slave, k, x), referenceCentre(slave.types[k]));
        const SegmentFrame m =
            segmentFrame(gatherSegment(master, j, x), referenceCentre(master.types[j]));
        tally.add(m.normal, s.normal, (s.point - m.point).dot(m.normal));
    }
    return tally.result();
}

}  // namespace contact::detail
