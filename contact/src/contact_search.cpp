// SPDX-License-Identifier: MIT
// The facade: validates the surfaces once, sizes the stages, and dispatches every update to the
// stage of the search mode. The pipeline of one update, in the order a reader follows it:
//   node mode     node_search.cpp     boxes, Verlet check -> rebuild -> projection -> pairs
//   segment mode  segment_search.cpp  boxes, Verlet check -> rebuild -> OBB tests -> pairs
//   both          verlet_cache.cpp (fat boxes, check, list) -> candidate_list.hpp (the code, from
//                 a box index: kd_tree_index.cpp, box_tree_index.cpp, sweep_index.cpp)
#include "contact/contact_search.hpp"

#include "detail/geometry_checks.hpp"
#include "detail/search_common.hpp"
#include "node_search.hpp"
#include "search_context.hpp"
#include "segment_search.hpp"

#include <cmath>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace contact {

const char* updateStatusName(UpdateStatus s) noexcept {
    switch (s) {
    case UpdateStatus::kOk: return "ok";
    case UpdateStatus::kNotSetUp: return "not set up";
    case UpdateStatus::kWrongNodeCount: return "wrong node count";
    case UpdateStatus::kBadCoordinateView: return "bad coordinate view";
    case UpdateStatus::kNonFiniteCoordinates: return "non-finite coordinates";
    case UpdateStatus::kCoordinatesOutOfRange: return "coordinates out of range";
    case UpdateStatus::kOutOfMemory: return "out of memory";
    case UpdateStatus::kDegenerateSegment: return "degenerate segment";
    }
    return "?";
}

std::string faultText(const UpdateStats& st, const CoordinatesView& x) {
    std::string out;
    if (st.status == UpdateStatus::kDegenerateSegment && st.faultSegment != kNoIndex) {
        out = std::string(st.faultInSlave ? "slave" : "master") + " segment " +
              std::to_string(st.faultSegment);
        if (st.faultNode == kNoIndex) {
            return out + ", no normal at its centre (zero length or area)";
        }
        out += ", collapsed or folded at corner ";
    }
    if (st.faultNode == kNoIndex || st.faultNode < 0 || st.faultNode >= x.numNodes ||
        x.problem() != nullptr) {
        return {};
    }
    const Eigen::Vector3d p = x.node(st.faultNode);
    out += "node " + std::to_string(st.faultNode) + " at (";
    for (int d = 0; d < x.dim; ++d) {
        out += (d > 0 ? ", " : "") + detail::shortest(p[d]);
    }
    return out + ")";
}

const char* orientationName(Orientation o) noexcept {
    switch (o) {
    case Orientation::kUnknown: return "unknown";
    case Orientation::kConsistent: return "consistent";
    case Orientation::kMasterInsideOut: return "master inside-out";
    case Orientation::kSlaveInsideOut: return "slave inside-out";
    }
    return "?";
}

struct ContactSearch::Impl {
    explicit Impl(const SearchOptions& o) : options(o) {}

    void setup(const char* fn, Surface& m, Surface& s, const std::vector<Index>* nodeList,
               const CoordinatesView& x);
    [[nodiscard]] const Surface& slaveSurface() const noexcept {
        return sameSurface ? master : slave;
    }
    [[nodiscard]] bool nodeMode() const noexcept {
        return options.mode == SearchMode::kNodeToSegment;
    }
    /// No pairs, and no list to reuse (an update ran out of memory).
    void forget() noexcept {
        nodeSearch.forget();
        segmentSearch.forget();
    }
    /// Not set up, no pairs (setup ran out of memory).
    void dropAll() noexcept {
        forget();
        setUp = false;
    }

    /// UpdateStats::faultNode: a serial pass over the nodes the search reads (the failing
    /// update's only).
    [[nodiscard]] Index faultNode(const CoordinatesView& x, UpdateStatus status) const {
        Index found = kNoIndex;
        double largest = 0.0;
        const auto visit = [&](Index n) {
            const Eigen::Vector3d p = x.node(n);
            if (status == UpdateStatus::kNonFiniteCoordinates) {
                if (!p.allFinite() && (found == kNoIndex || n < found)) {
                    found = n;
                }
                return;
            }
            const double a = p.cwiseAbs().maxCoeff();
            if (found == kNoIndex || a > largest || (a == largest && n < found)) {
                found = n;
                largest = a;
            }
        };
        for (const Index n : master.connectivity) {
            visit(n);
        }
        if (nodeMode()) {
            for (const Index n : nodeSearch.nodes()) {
                visit(n);
            }
        } else {
            for (const Index n : slaveSurface().connectivity) {
                visit(n);
            }
        }
        return found;
    }

    SearchOptions options;
    bool setUp = false;
    Surface master;
    Surface slave;  // empty when sameSurface (the slave is the master) or given as nodes
    bool sameSurface = false;
    int dim = 3;
    Index numNodes = 0;
    double capture = 0.0;
    double skin = 0.0;
    double meanMasterSize = 0.0;
    detail::NodeSearch nodeSearch;        // SearchMode::kNodeToSegment
    detail::SegmentSearch segmentSearch;  // SearchMode::kSegmentToSegment
};

ContactSearch::ContactSearch(const SearchOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
    if (options.threads < 1 || options.threads > kMaxThreads) {
        throw std::invalid_argument("contact::ContactSearch: threads must be 1 .. " +
                                    std::to_string(kMaxThreads) + ", got " +
                                    std::to_string(options.threads));
    }
    if (!std::isfinite(options.skinRelative) || options.skinRelative < 0.0) {
        throw std::invalid_argument("contact::ContactSearch: skinRelative must be finite and >= 0");
    }
    if (options.mode != SearchMode::kNodeToSegment &&
        options.mode != SearchMode::kSegmentToSegment) {
        throw std::invalid_argument("contact::ContactSearch: mode " +
                                    std::to_string(static_cast<int>(options.mode)) +
                                    " is no SearchMode");
    }
    if (options.broadPhase != BroadPhaseKind::kKdTree &&
        options.broadPhase != BroadPhaseKind::kBoxTree &&
        options.broadPhase != BroadPhaseKind::kSweep) {
        throw std::invalid_argument("contact::ContactSearch: broadPhase " +
                                    std::to_string(static_cast<int>(options.broadPhase)) +
                                    " is no BroadPhaseKind");
    }
}

ContactSearch::~ContactSearch() = default;
ContactSearch::ContactSearch(ContactSearch&& other) noexcept = default;
ContactSearch& ContactSearch::operator=(ContactSearch&& other) noexcept = default;

void ContactSearch::setSurfaces(Surface master, Surface slave, const CoordinatesView& x) {
    constexpr const char* kFn = "contact::ContactSearch::setSurfaces()";
    if (!impl_) {
        throw std::logic_error(std::string(kFn) + ": the search was moved from");
    }
    impl_->setup(kFn, master, slave, nullptr, x);
}

void ContactSearch::setSurfaces(Surface master, const std::vector<Index>& slaveNodes,
                                const CoordinatesView& x) {
    constexpr const char* kFn = "contact::ContactSearch::setSurfaces()";
    if (!impl_) {
        throw std::logic_error(std::string(kFn) + ": the search was moved from");
    }
    Surface noSegments;
    noSegments.name = "slave nodes";
    impl_->setup(kFn, master, noSegments, &slaveNodes, x);
}

// master and slave are the caller's copies, moved in once every check has passed.
void ContactSearch::Impl::setup(const char* fn, Surface& m, Surface& s,
                                const std::vector<Index>* nodeList, const CoordinatesView& x) try {
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string(fn) + ": coordinates: " + bad);
    }
    detail::validateSurface(fn, "master", m, x);
    detail::validateSurface(fn, "slave", s, x);
    if (nodeList != nullptr) {
        detail::validateNodes(fn, *nodeList, x);
        if (!nodeMode()) {
            throw std::invalid_argument(std::string(fn) +
                                        ": a slave given as nodes needs node-to-segment mode");
        }
    }
    // Every check before any state changes: a refused model leaves the search as it was.
    const double meanSize = detail::meanSegmentSize(m, x);
    const double captureDistance = detail::resolveCapture(fn, options, meanSize);
    if (!(options.skinRelative * meanSize <= tol::kMaxCoordinate)) {
        throw std::invalid_argument(std::string(fn) + ": the skin (skinRelative x mean master "
                                                      "segment size) must be at most 1e30");
    }
    detail::checkInterface(fn, m, s, options.selfContact, x, captureDistance,
                           options.checkOrientation);
    sameSurface = nodeList == nullptr && detail::sameSurface(m, s);
    master = std::move(m);
    slave = sameSurface ? Surface{} : std::move(s);
    setUp = true;
    dim = x.dim;
    numNodes = x.numNodes;
    meanMasterSize = meanSize;
    capture = captureDistance;
    skin = options.skinRelative * meanSize;

    detail::SearchContext c;
    c.master = &master;
    c.slave = &slaveSurface();
    c.sameSurface = sameSurface;
    c.selfContact = options.selfContact;
    c.ring = nodeList != nullptr ? &master : &slaveSurface();
    c.dim = dim;
    c.numNodes = numNodes;
    c.capture = capture;
    c.skin = skin;
    c.threads = options.threads;
    c.broadPhase = options.broadPhase;
    c.warmStart = options.warmStart;
    if (nodeMode()) {
        nodeSearch.setup(c, nodeList != nullptr ? detail::sortedUnique(*nodeList)
                                                : detail::uniqueNodes(slaveSurface()));
    } else {
        segmentSearch.setup(c);
    }
} catch (const std::bad_alloc&) {  // out of memory, perhaps half set up: not set up, no pairs
    dropAll();
    throw;
} catch (const std::length_error&) {
    dropAll();
    throw;
}

UpdateStats ContactSearch::update(const CoordinatesView& x) {
    UpdateStats stats;
    if (!impl_ || !impl_->setUp) {
        return stats;  // kNotSetUp
    }
    Impl& m = *impl_;
    if (x.problem() != nullptr) {
        stats.status = UpdateStatus::kBadCoordinateView;
        return stats;
    }
    if (x.numNodes != m.numNodes || x.dim != m.dim) {
        stats.status = UpdateStatus::kWrongNodeCount;
        return stats;
    }
    stats.status = UpdateStatus::kOk;
    // Partial results dropped; the status says why.
    const auto outOfMemory = [&m] {
        m.forget();
        UpdateStats failed;
        failed.status = UpdateStatus::kOutOfMemory;
        return failed;
    };
    try {
        if (m.nodeMode()) {
            m.nodeSearch.update(x, stats);
        } else {
            m.segmentSearch.update(x, stats);
        }
    } catch (const std::bad_alloc&) {  // on any thread: ParallelErrors carries it out
        return outOfMemory();
    } catch (const std::length_error&) {  // a buffer beyond what a vector can hold
        return outOfMemory();
    }
    if (m.options.selfContact) {
        // One surface (or parts of one) on both sides: no master side to judge it against.
        stats.orientation.verdict = Orientation::kUnknown;
    }
    if (stats.status == UpdateStatus::kNonFiniteCoordinates ||
        stats.status == UpdateStatus::kCoordinatesOutOfRange) {
        stats.faultNode = m.faultNode(x, stats.status);
    }
    if (stats.status == UpdateStatus::kDegenerateSegment) {
        const Surface& surface = stats.faultInSlave ? m.slaveSurface() : m.master;
        const int shape = detail::shapeFault(gatherSegment(surface, stats.faultSegment, x));
        stats.faultNode = shape >= 0 ? surface.nodes(stats.faultSegment)[shape] : kNoIndex;
    }
    return stats;
}

const NodePairs& ContactSearch::nodePairs() const {
    const Impl& m = impl();
    if (!m.nodeMode()) {
        throw std::logic_error("contact::ContactSearch::nodePairs(): the search runs in "
                               "segment-to-segment mode; its pairs are segmentPairs()");
    }
    return m.nodeSearch.pairs();
}

const SegmentPairs& ContactSearch::segmentPairs() const {
    const Impl& m = impl();
    if (impl_ && m.nodeMode()) {
        throw std::logic_error("contact::ContactSearch::segmentPairs(): the search runs in "
                               "node-to-segment mode; its pairs are nodePairs()");
    }
    return m.segmentSearch.pairs();
}

const Surface& ContactSearch::master() const noexcept { return impl().master; }
const Surface& ContactSearch::slave() const noexcept { return impl().slaveSurface(); }
double ContactSearch::captureDistance() const noexcept { return impl().capture; }
double ContactSearch::skinDistance() const noexcept { return impl().skin; }
double ContactSearch::meanMasterSize() const noexcept { return impl().meanMasterSize; }
const std::vector<Index>& ContactSearch::slaveNodes() const noexcept {
    return impl().nodeSearch.nodes();
}
const SearchOptions& ContactSearch::options() const noexcept { return impl().options; }

bool ContactSearch::isSetUp() const noexcept { return impl_ && impl_->setUp; }

std::size_t ContactSearch::memoryBytes() const noexcept {
    if (!impl_) {
        return 0;
    }
    return impl_->nodeMode() ? impl_->nodeSearch.memoryBytes() : impl_->segmentSearch.memoryBytes();
}

// A moved-from search reads an empty one: default options, not set up, nothing registered.
const ContactSearch::Impl& ContactSearch::impl() const noexcept {
    static const Impl kEmpty{SearchOptions{}};
    return impl_ ? *impl_ : kEmpty;
}

}  // namespace contact
