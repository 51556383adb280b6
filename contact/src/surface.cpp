// SPDX-License-Identifier: MIT
#include "contact/surface.hpp"

#include <stdexcept>
#include <string>

namespace contact {

void Surface::addSegment(SegmentType type, const Index* nodes, int count) {
    if (count != nodeCount(type)) {
        throw std::invalid_argument(
            "contact::Surface::addSegment(): surface '" + name + "', segment " +
            std::to_string(size()) + ": a " + segmentTypeName(type) + " has " +
            std::to_string(nodeCount(type)) + " nodes, got " + std::to_string(count));
    }
    types.push_back(type);
    connectivity.insert(connectivity.end(), nodes, nodes + count);
    offsets.push_back(static_cast<Index>(connectivity.size()));
}

}  // namespace contact
