// SPDX-License-Identifier: MIT
#include "detail/geometry_checks.hpp"

#include "contact/tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace contact::detail {
namespace {

// A directed edge of a segment: corner a to corner b (2D: the segment's node and its role).
struct Edge {
    Index lo, hi;  // sorted node pair (2D: node, node)
    bool forward;  // a < b as traversed (2D: the node is the segment's start)
    Index segment;
};

// True when segments s and t have the same node set.
bool sameNodes(const Surface& surface, Index s, Index t) {
    const int n = nodeCount(surface.types[s]);
    if (n != nodeCount(surface.types[t])) {
        return false;
    }
    std::vector<Index> a(surface.nodes(s), surface.nodes(s) + n);
    std::vector<Index> b(surface.nodes(t), surface.nodes(t) + n);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

}  // namespace

void checkConsistentOrientation(const char* fn, const char* role, const Surface& surface) {
    std::vector<Edge> edges;
    for (Index s = 0; s < surface.size(); ++s) {
        const SegmentType t = surface.types[s];
        const Index* n = surface.nodes(s);
        if (parametricDim(t) == 1) {
            edges.push_back({n[0], n[0], true, s});
            edges.push_back({n[1], n[1], false, s});
            continue;
        }
        const int nc = cornerCount(t);
        for (int i = 0; i < nc; ++i) {
            const Index a = n[i];
            const Index b = n[(i + 1) % nc];
            edges.push_back({std::min(a, b), std::max(a, b), a < b, s});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
        return p.lo != q.lo ? p.lo < q.lo : p.hi != q.hi ? p.hi < q.hi : p.segment < q.segment;
    });
    for (std::size_t i = 0; i < edges.size();) {
        std::size_t j = i;
        while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) {
            ++j;
        }
        if (j - i == 2 && edges[i].forward == edges[i + 1].forward &&
            edges[i].segment != edges[i + 1].segment) {
            const bool line = edges[i].lo == edges[i].hi;
            std::string what = std::string(fn) + ": " + role + " surface '" + surface.name +
                               "', segments " + std::to_string(edges[i].segment) + " and " +
                               std::to_string(edges[i + 1].segment);
            if (sameNodes(surface, edges[i].segment, edges[i + 1].segment)) {
                throw std::invalid_argument(what + " have the same nodes: a duplicate segment");
            }
            what += line ? " both " + std::string(edges[i].forward ? "start" : "end") +
                               " at node " + std::to_string(edges[i].lo)
                         : " share the edge between nodes " + std::to_string(edges[i].lo) +
                               " and " + std::to_string(edges[i].hi) + " in the same direction";
            throw std::invalid_argument(what + ": one of them is inside-out");
        }
        i = j;
    }
}

void checkResolution(const char* fn, const Surface& master, const Surface& slave,
                     const CoordinatesView& x, double capture) {
    if (!(capture > 0.0)) {
        return;
    }
    double largest = 0.0;
    for (const Surface* s : {&master, &slave}) {
        for (Index n : s->connectivity) {
            largest = std::max(largest, x.node(n).cwiseAbs().maxCoeff());
        }
    }
    if (const std::string problem = resolutionProblem(largest, capture); !problem.empty()) {
        throw std::invalid_argument(std::string(fn) + ": " + problem);
    }
}

void checkInterface(const char* fn, const Surface& master, const Surface& slave, bool selfContact,
                    const CoordinatesView& x, double capture, bool orientation) {
    const bool same = sameSurface(master, slave);
    if (same && !selfContact) {
        throw std::invalid_argument(std::string(fn) + ": master and slave are the same surface '" +
                                    master.name +
                                    "': enable self-contact (SearchOptions::selfContact; "
                                    "self_contact in C, Fortran and Python; otherwise every node "
                                    "pairs with its own segments at gap 0)");
    }
    if (orientation) {
        checkConsistentOrientation(fn, "master", master);
        if (!same) {
            checkConsistentOrientation(fn, "slave", slave);
        }
    }
    checkResolution(fn, master, slave, x, capture);
}

}  // namespace contact::detail
