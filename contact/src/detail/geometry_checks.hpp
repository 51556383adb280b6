// SPDX-License-Identifier: MIT
// Checks of a whole surface that single segments cannot show: orientation across shared edges,
// and whether the coordinates can resolve the capture distance at all. Run once, at setup.
#pragma once

#include "contact/surface.hpp"
#include "contact/tolerances.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace contact::detail {

/// Master and slave are one surface: both non-empty with the same types and connectivity (the
/// search then runs in self-contact, each segment pair once).
[[nodiscard]] inline bool sameSurface(const Surface& master, const Surface& slave) noexcept {
    return !master.empty() && master.types == slave.types &&
           master.connectivity == slave.connectivity;
}

/// Throws std::invalid_argument "<fn>: <role> surface '<name>', segments <i> and <j> share the
/// edge between nodes <a> and <b> in the same direction: one of them is inside-out" when two
/// segments run a shared edge (2D: a shared node) the same way. Edges shared by more than two
/// segments (non-manifold) are not judged.
void checkConsistentOrientation(const char* fn, const char* role, const Surface& surface);

/// What is wrong when the largest coordinate magnitude is so large that doubles there are spaced
/// more than 1 / tol::kMinCaptureResolution of the capture distance (gaps that small cannot be
/// represented, so no answer would be right), naming both remedies; empty when nothing is. A
/// capture distance of 0 (touching pairs only) asks to resolve no length: never refused. The one
/// wording of the serial and the distributed search (inline: contact_mpi, a library of its own,
/// sees none of contact's hidden symbols).
[[nodiscard]] inline std::string resolutionProblem(double largest, double capture) {
    const double spacing = largest * tol::kEps;
    if (!(capture > 0.0) || !(spacing * tol::kMinCaptureResolution > capture)) {
        return {};
    }
    // The least capture distance taken, rounded up to the 3 digits printed.
    const double least = spacing * tol::kMinCaptureResolution;
    const double unit = std::pow(10.0, std::floor(std::log10(least)) - 2.0);
    const double shown = std::ceil(least / unit * (1.0 + 1e-12)) * unit;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "coordinates as large as %.3g are spaced %.3g apart in double precision, too "
                  "coarse for the capture distance %.3g (it must span %.0f of those spacings): "
                  "take a capture distance of at least %.3g, or move the model nearer the origin",
                  largest, spacing, capture, tol::kMinCaptureResolution, shown);
    return buf;
}

/// Throws std::invalid_argument "<fn>: <resolutionProblem>" for the largest coordinate of the
/// surfaces' nodes.
void checkResolution(const char* fn, const Surface& master, const Surface& slave,
                     const CoordinatesView& x, double capture);

/// The checks of a master/slave pair after each surface passed validateSurface, in this order:
/// master and slave the same surface without self-contact (every node would pair with its own
/// segments at gap 0), consistent orientation of both surfaces (when `orientation`), resolution
/// of the capture distance.
void checkInterface(const char* fn, const Surface& master, const Surface& slave, bool selfContact,
                    const CoordinatesView& x, double capture, bool orientation);

}  // namespace contact::detail
