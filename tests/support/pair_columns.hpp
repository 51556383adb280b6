// SPDX-License-Identifier: MIT
// The pairs of either search mode as one set of columns, for tests that run both modes.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/reference_search.hpp"

namespace contact::testing {

/// Slave and master columns of node or segment pairs; `node` is set for node pairs (gaps, frames).
struct PairColumns {
    ConstSpan<Index> slave;
    ConstSpan<Index> master;
    const NodePairs* node = nullptr;
    [[nodiscard]] Index size() const noexcept { return slave.size(); }
};

inline PairColumns columns(const NodePairs& p) { return {p.slave(), p.master(), &p}; }
inline PairColumns columns(const SegmentPairs& p) { return {p.slave(), p.master(), nullptr}; }
/// The pairs of the search's mode.
inline PairColumns columns(const ContactSearch& s) {
    return s.options().mode == SearchMode::kNodeToSegment ? columns(s.nodePairs())
                                                          : columns(s.segmentPairs());
}
/// The reference's pairs: its segment pairs when it found any, else its node pairs.
inline PairColumns columns(const ReferenceResult& r) {
    return r.segmentPairs.size() > 0 ? columns(r.segmentPairs) : columns(r.nodePairs);
}

}  // namespace contact::testing
