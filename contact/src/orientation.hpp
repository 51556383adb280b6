// SPDX-License-Identifier: MIT
// Whether the surfaces face the way their node order says, judged from the pairs of an update
// (the rule is with OrientationCheck in contact_search.hpp). Internal; never installed.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include <vector>

namespace contact::detail {

/// For each slave node (nodes, sorted), a slave segment that holds it (kNoIndex where none): where
/// the slave's outward normal at the node is evaluated. Built once, at setSurfaces.
[[nodiscard]] std::vector<Index> segmentOfEachNode(const Surface& slave,
                                                   const std::vector<Index>& nodes);

/// The verdict from node-to-segment pairs: the master normal and gap of each judged pair, and the
/// slave normal at its node (from nodeSegment, by the node's place in `nodes`).
[[nodiscard]] OrientationCheck judgeNodePairs(const NodePairs& pairs, const Surface& slave,
                                              const std::vector<Index>& nodes,
                                              const std::vector<Index>& nodeSegment,
                                              const CoordinatesView& x, double capture);

/// The verdict from segment-to-segment pairs: both normals at the segments' centres, and the gap of
/// the slave centre to the master's tangent plane at its centre.
[[nodiscard]] OrientationCheck judgeSegmentPairs(const SegmentPairs& pairs, const Surface& master,
                                                 const Surface& slave, const CoordinatesView& x,
                                                 double capture);

}  // namespace contact::detail
