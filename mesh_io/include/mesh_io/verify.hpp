// SPDX-License-Identifier: MIT
// --verify: an interface's pairs against the exhaustive reference, whole or on a random sample.
#pragma once

#include "mesh_io/report.hpp"

#include <string>
#include <vector>

namespace mesh_io {

/// What the reference said of an interface's pairs.
struct VerifyResult {
    long missed = 0;          ///< pairs the reference has and the search does not
    long extra = 0;           ///< pairs the search has and the reference does not
    double maxGapDiff = 0.0;  ///< node mode: largest |gap difference| over common pairs
    /// Described in the file's ids: the common pair with the largest gap difference (if any),
    /// then up to 20 extra and 40 missed pairs.
    std::vector<std::string> examples;
    Index checked = 0;     ///< slave items checked (nodes in node mode, segments in segment mode)
    Index total = 0;       ///< slave items the interface has
    unsigned seed = 0;     ///< the sample's seed (when checked < total)
    double seconds = 0.0;  ///< the reference's run time
    [[nodiscard]] bool agrees() const noexcept {
        return missed == 0 && extra == 0 && maxGapDiff == 0.0;
    }
};

/// Runs contact::referenceSearch (sample = 0: every slave item) or referenceSearchSample on
/// `sample` slave items drawn at random without replacement (std::mt19937 seeded with `seed`),
/// with the options of the search, and compares its pairs with the report's: the same (slave,
/// master) pairs, and in node mode the same gaps, bit for bit.
[[nodiscard]] VerifyResult verifyInterface(const Model& model, const InterfaceReport& r,
                                           const contact::SearchOptions& options,
                                           const contact::CoordinatesView& x, long sample,
                                           unsigned seed);

/// The verify line of the text report, and the examples under it.
void printVerify(std::ostream& out, const VerifyResult& v, bool nodeMode);

/// One line for a failed check: "exhaustive reference DIFFERS: <n> missed, <m> extra" (and in
/// node mode the largest gap difference; segment mode compares no gaps), the sample's size if
/// sampled.
[[nodiscard]] std::string verifyFailureText(const VerifyResult& v, bool nodeMode);

}  // namespace mesh_io
