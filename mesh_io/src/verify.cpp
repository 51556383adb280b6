// SPDX-License-Identifier: MIT
#include "mesh_io/verify.hpp"

#include "contact/reference_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>

namespace mesh_io {
namespace {

// The pairs of either mode: slave and master columns, and the node pairs' gaps (node mode).
struct PairList {
    contact::ConstSpan<Index> slave;
    contact::ConstSpan<Index> master;
    const contact::NodePairs* node = nullptr;
    [[nodiscard]] Index size() const noexcept { return slave.size(); }
};
PairList pairList(const contact::NodePairs& p) { return {p.slave(), p.master(), &p}; }
PairList pairList(const contact::SegmentPairs& p) { return {p.slave(), p.master(), nullptr}; }

// The slave items of an interface: its nodes (node mode) or its segment indices.
std::vector<Index> slaveItems(const InterfaceReport& r, bool nodeMode) {
    if (!nodeMode) {
        std::vector<Index> s(static_cast<std::size_t>(r.slave->surface.size()));
        std::iota(s.begin(), s.end(), 0);
        return s;
    }
    std::vector<Index> n = r.slave->nodeSurface ? r.slave->nodes : r.slave->surface.connectivity;
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    return n;
}

}  // namespace

VerifyResult verifyInterface(const Model& model, const InterfaceReport& r,
                             const contact::SearchOptions& options,
                             const contact::CoordinatesView& x, long sample, unsigned seed) {
    const bool nodeMode = r.mode == contact::SearchMode::kNodeToSegment;
    VerifyResult v;
    std::vector<Index> items = slaveItems(r, nodeMode);
    v.total = static_cast<Index>(items.size());
    const bool sampled = sample > 0 && sample < static_cast<long>(items.size());
    if (sampled) {
        std::mt19937 rng(seed);
        std::shuffle(items.begin(), items.end(), rng);
        items.resize(static_cast<std::size_t>(sample));
        std::sort(items.begin(), items.end());
        v.seed = seed;
    }
    v.checked = static_cast<Index>(items.size());
    const auto t0 = std::chrono::steady_clock::now();
    const contact::Surface& master = r.master->surface;
    contact::ReferenceResult ref;
    if (r.slave->nodeSurface) {
        ref = sampled ? contact::referenceSearchSample(master, r.slave->nodes, items, x, options)
                      : contact::referenceSearch(master, r.slave->nodes, x, options);
    } else {
        ref = sampled ? contact::referenceSearchSample(master, r.slave->surface, items, x, options)
                      : contact::referenceSearch(master, r.slave->surface, x, options);
    }
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const PairList fast = nodeMode ? pairList(*r.nodePairs) : pairList(*r.segmentPairs);
    const PairList slow = nodeMode ? pairList(ref.nodePairs) : pairList(ref.segmentPairs);
    std::map<std::pair<Index, Index>, Index> refIndex;
    for (Index i = 0; i < slow.size(); ++i) {
        refIndex[{slow.slave[i], slow.master[i]}] = i;
    }
    // Both sides in the file's ids, as the pairs CSV names them: slave node, or slave element
    // and face; master element and face.
    const auto face = [&](const ContactSurface& s, Index seg) {
        const SegmentOrigin o = s.origin[static_cast<std::size_t>(seg)];
        return "element " + model.elementLabel(o.instance, o.elementId) + " face " +
               std::to_string(o.face);
    };
    const auto describe = [&](const PairList& p, Index i, const char* what) {
        std::string s =
            std::string(what) + ": slave " +
            (nodeMode ? "node " + model.nodeLabel(p.slave[i]) : face(*r.slave, p.slave[i])) +
            ", master " + face(*r.master, p.master[i]);
        if (nodeMode) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ", gap %.6g", p.node->gap()[i]);
            s += buf;
        }
        return s;
    };
    Index worst = -1;  // node mode: the common pair whose gaps differ most, fast's index
    Index worstRef = -1;
    for (Index i = 0; i < fast.size(); ++i) {
        if (sampled && !std::binary_search(items.begin(), items.end(), fast.slave[i])) {
            continue;
        }
        const auto it = refIndex.find({fast.slave[i], fast.master[i]});
        if (it == refIndex.end()) {
            ++v.extra;
            if (v.examples.size() < 20) {
                v.examples.push_back(describe(fast, i, "extra"));
            }
            continue;
        }
        const double diff =
            nodeMode ? std::abs(fast.node->gap()[i] - slow.node->gap()[it->second]) : 0.0;
        if (diff > v.maxGapDiff) {
            v.maxGapDiff = diff;
            worst = i;
            worstRef = it->second;
        }
        refIndex.erase(it);
    }
    for (const auto& [key, i] : refIndex) {
        ++v.missed;
        if (v.examples.size() < 40) {
            v.examples.push_back(describe(slow, i, "missed"));
        }
    }
    if (worst >= 0) {  // listed first, beside the caps of the missed and extra pairs
        char buf[120];
        std::snprintf(buf, sizeof buf, ", gap %.17g, reference %.17g (difference %.3g)",
                      fast.node->gap()[worst], slow.node->gap()[worstRef], v.maxGapDiff);
        v.examples.insert(v.examples.begin(), "largest gap difference: slave node " +
                                                  model.nodeLabel(fast.slave[worst]) + ", master " +
                                                  face(*r.master, fast.master[worst]) + buf);
    }
    return v;
}

namespace {

// "agrees: 0 missed, 0 extra", and in node mode the largest gap difference.
std::string verifyCounts(const VerifyResult& v, bool nodeMode) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %ld missed, %ld extra", v.agrees() ? "agrees" : "DIFFERS",
                  v.missed, v.extra);
    std::string s = buf;
    if (nodeMode) {  // segment mode compares no gaps
        std::snprintf(buf, sizeof buf, ", max |gap difference| %.3g", v.maxGapDiff);
        s += buf;
    }
    return s;
}

}  // namespace

std::string verifyFailureText(const VerifyResult& v, bool nodeMode) {
    std::string s = "exhaustive reference " + verifyCounts(v, nodeMode);
    if (v.checked < v.total) {
        s += " (" + std::to_string(v.checked) + " of " + std::to_string(v.total) +
             (nodeMode ? " slave nodes" : " slave segments") + " checked)";
    }
    return s;
}

void printVerify(std::ostream& out, const VerifyResult& v, bool nodeMode) {
    char buf[256];
    const char* item = nodeMode ? "slave nodes" : "slave segments";
    if (v.checked < v.total) {
        std::snprintf(buf, sizeof buf,
                      "  verify: %d of %d %s drawn at random (seed %u), each against "
                      "every master segment: ",
                      static_cast<int>(v.checked), static_cast<int>(v.total), item, v.seed);
    } else {
        std::snprintf(buf, sizeof buf, "  verify: ");
    }
    out << buf;
    out << "exhaustive reference " << verifyCounts(v, nodeMode);
    std::snprintf(buf, sizeof buf, " (reference %.2f s)\n", v.seconds);
    out << buf;
    for (const auto& e : v.examples) {
        out << "    " << e << '\n';
    }
}

}  // namespace mesh_io
