// SPDX-License-Identifier: MIT
// Fuzz target for the search on a model read from bytes: coordinates and connectivity come from
// the input. Bad models must raise std::invalid_argument at setSurfaces; valid ones must give
// exactly the exhaustive reference's pairs (a differential test), in node and segment mode, after
// a first update and after a moved second one (with warm starts: gaps within their bound).
#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"
#include "contact/segment.hpp"

#include "pair_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

using namespace contact;
using contact::testing::columns;
using contact::testing::PairColumns;

// Reads values from the input, then zeros once it runs out.
struct Bytes {
    const std::uint8_t* p;
    std::size_t n;
    std::uint8_t u8() {
        if (n == 0) {
            return 0;
        }
        --n;
        return *p++;
    }
    double f64() {
        std::uint8_t b[8] = {};
        for (auto& x : b) {
            x = u8();
        }
        double v;
        std::memcpy(&v, b, sizeof v);
        return v;
    }
    // A coordinate: mostly small multiples of 1/8 (so nodes coincide and segments touch), sometimes
    // raw bits (NaN, Inf, huge, denormal).
    double coord() {
        const std::uint8_t k = u8();
        if (k < 240) {
            return (static_cast<int>(u8()) - 128) / 8.0;
        }
        return f64();
    }
};

void fail() { __builtin_trap(); }

// a: the search, b: the reference. Pairs identical; gaps bit for bit, or with warm starts
// (SearchOptions::warmStart, node mode) within 1e-12 of max(master size, distance)
// (warm_checks.hpp).
void check(const PairColumns& a, const PairColumns& b, bool nodeMode, bool warm,
           const Surface& master, const CoordinatesView& x) {
    if (std::getenv("FUZZ_DEBUG") != nullptr) {  // FUZZ_DEBUG=1: print both pair lists
        for (const PairColumns* p : {&a, &b}) {
            std::fprintf(stderr, "%s:", p == &a ? "fast" : "ref ");
            for (Index i = 0; i < p->size(); ++i) {
                std::fprintf(stderr, " (%d,%d,%.17g)", p->slave[i], p->master[i],
                             nodeMode ? p->node->gap()[i] : 0.0);
            }
            std::fprintf(stderr, "\n");
        }
    }
    if (a.size() != b.size()) {
        fail();
    }
    for (Index i = 0; i < a.size(); ++i) {
        if (a.slave[i] != b.slave[i] || a.master[i] != b.master[i]) {
            fail();
        }
        const double ga = nodeMode ? a.node->gap()[i] : 0.0;
        const double gb = nodeMode ? b.node->gap()[i] : 0.0;
        if (!(ga == gb || (std::isnan(ga) && std::isnan(gb)))) {
            if (!warm) {
                fail();
            }
            const double length = std::max(
                characteristicSize(gatherSegment(master, b.master[i], x)), b.node->distance()[i]);
            if (!(std::abs(ga - gb) <= 1e-12 * length)) {
                fail();
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in{data, size};
    const std::uint8_t flags = in.u8();
    const int dim = (flags & 1) ? 3 : 2;
    const int numNodes = 1 + in.u8() % 48;
    std::vector<double> x(static_cast<std::size_t>(dim) * numNodes);
    for (double& v : x) {
        v = in.coord();
    }
    const SegmentType lineTypes[] = {SegmentType::Line2, SegmentType::Line3};
    const SegmentType faceTypes[] = {SegmentType::Tri3, SegmentType::Tri6, SegmentType::Quad4,
                                     SegmentType::Quad8, SegmentType::Quad9};
    Surface surfaces[2];
    for (Surface& s : surfaces) {
        const int count = in.u8() % 12;
        for (int k = 0; k < count; ++k) {
            const std::uint8_t t = in.u8();
            const SegmentType type = dim == 2 ? lineTypes[t % 2] : faceTypes[t % 5];
            Index nodes[kMaxSegmentNodes];
            for (int i = 0; i < nodeCount(type); ++i) {
                const std::uint8_t b = in.u8();
                nodes[i] = b == 255 ? numNodes : b % numNodes;  // sometimes out of range
            }
            s.addSegment(type, nodes, nodeCount(type));
        }
    }
    SearchOptions o;
    const std::uint8_t capture = in.u8();
    o.capture = (capture % 16) / 8.0;
    o.warmStart = (capture & 16) != 0;
    o.captureRelative = (flags & 2) != 0;
    o.mode = (flags & 4) ? SearchMode::kSegmentToSegment : SearchMode::kNodeToSegment;
    o.selfContact = (flags & 8) != 0;
    o.skinRelative = (in.u8() % 4) / 8.0;
    o.threads = (flags & 16) ? 2 : 1;
    o.broadPhase = (flags & 64)    ? BroadPhaseKind::kBoxTree
                   : (flags & 128) ? BroadPhaseKind::kSweep
                                   : BroadPhaseKind::kKdTree;
    const Surface& master = surfaces[0];
    const Surface& slave = (flags & 32) ? surfaces[0] : surfaces[1];
    const CoordinatesView view(x.data(), numNodes, dim);
    ContactSearch search(o);
    try {
        search.setSurfaces(master, slave, view);
    } catch (const std::invalid_argument&) {
        return 0;  // rejected with a message: fine
    }
    const bool nodeMode = o.mode == SearchMode::kNodeToSegment;
    for (int round = 0; round < 2; ++round) {
        const UpdateStats st = search.update(view);
        if (st.status == UpdateStatus::kOk) {
            // After a move, segments may have folded: update() still answers (degenerate
            // projections carry their status) while the reference refuses such a model.
            // The search keeps the capture distance it resolved at setSurfaces (a relative one
            // follows the mesh of that moment); the reference gets that same length.
            SearchOptions ro = o;
            ro.capture = search.captureDistance();
            ro.captureRelative = false;
            try {
                check(columns(search), columns(referenceSearch(master, slave, view, ro)), nodeMode,
                      nodeMode && o.warmStart, master, view);
            } catch (const std::invalid_argument& e) {
                if (std::getenv("FUZZ_DEBUG") != nullptr) {
                    std::fprintf(stderr, "reference: %s\n", e.what());
                }
                if (round == 0) {
                    fail();  // setSurfaces accepted what the reference rejects
                }
            }
        }
        // Second round: move every node a little, as the next increment would.
        for (double& v : x) {
            v += (static_cast<int>(in.u8()) - 128) / 2048.0;
        }
    }
    return 0;
}
