// SPDX-License-Identifier: MIT
// The exhaustive search: every slave node against every master segment, every segment pair.
// The oracle behind --verify and the tests; O(slave x master), never for production runs (node
// mode projects only where a box bound says the segment could still be the closest: about 1 ns per
// node-segment pair that cannot).
#pragma once

#include "contact/contact_search.hpp"
#include "contact/export.hpp"
#include "contact/surface.hpp"

namespace contact {

/// Result of the exhaustive search: the pairs, as ContactSearch reports them (nodePairs in
/// node-to-segment mode, segmentPairs in segment-to-segment mode; the other one is empty), and
/// the counts of the stages (pairs whose buffered AABBs overlap, and of those, pairs the SAT
/// keeps).
struct ReferenceResult {
    NodePairs nodePairs;
    SegmentPairs segmentPairs;
    double captureDistance = 0.0;
    long long candidates = 0;
    long long satSurvivors = 0;
};

/// The pairs a ContactSearch with the same options reports right after setSurfaces at x (same
/// self-contact rule, same buffered volumes and projection kernel), without box index, candidate
/// lists or threads. A relative capture distance is resolved from the master at x (the result's
/// captureDistance), where a search keeps the one resolved at setSurfaces for every later update:
/// to check an update at other coordinates, pass captureRelative = false and capture =
/// search.captureDistance(). Throws std::invalid_argument as setSurfaces does.
[[nodiscard]] CONTACT_API ReferenceResult referenceSearch(const Surface& master,
                                                          const Surface& slave,
                                                          const CoordinatesView& x,
                                                          const SearchOptions& options);

/// The same for a slave given as nodes (node-to-segment mode only).
[[nodiscard]] CONTACT_API ReferenceResult referenceSearch(const Surface& master,
                                                          const std::vector<Index>& slaveNodes,
                                                          const CoordinatesView& x,
                                                          const SearchOptions& options);

/// The exhaustive search for part of the slave, to check models too large for the whole
/// reference: `items` are slave node indices (node mode; nodes of `slave`) or slave segment
/// indices (segment mode), each checked against every master segment. The pairs are exactly
/// those referenceSearch(master, slave, x, options) reports for these items (same order, same
/// self-contact rule); the counters cover the items only. Throws std::invalid_argument as
/// referenceSearch does, and for an item that is not part of the slave.
[[nodiscard]] CONTACT_API ReferenceResult referenceSearchSample(const Surface& master,
                                                                const Surface& slave,
                                                                const std::vector<Index>& items,
                                                                const CoordinatesView& x,
                                                                const SearchOptions& options);

/// The same for a slave given as nodes: `items` is a subset of `slaveNodes`.
[[nodiscard]] CONTACT_API ReferenceResult referenceSearchSample(
    const Surface& master, const std::vector<Index>& slaveNodes, const std::vector<Index>& items,
    const CoordinatesView& x, const SearchOptions& options);

}  // namespace contact
