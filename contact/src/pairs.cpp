// SPDX-License-Identifier: MIT
#include "contact/pairs.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace contact {

NodePairs::NodePairs(Columns c) {
    const std::size_t n = c.slave.size();
    if (c.master.size() != n || c.gap.size() != n || c.distance.size() != n ||
        c.status.size() != n || c.xi.size() != 2 * n || c.point.size() != 3 * n ||
        c.normal.size() != 3 * n || c.tangent1.size() != 3 * n || c.tangent2.size() != 3 * n ||
        c.shape.size() != kMaxSegmentNodes * n) {
        throw std::invalid_argument("contact::NodePairs: columns of different lengths (" +
                                    std::to_string(n) + " slave entries)");
    }
    slave_ = std::move(c.slave);
    master_ = std::move(c.master);
    gap_ = std::move(c.gap);
    distance_ = std::move(c.distance);
    status_ = std::move(c.status);
    xi_ = std::move(c.xi);
    point_ = std::move(c.point);
    normal_ = std::move(c.normal);
    tangent1_ = std::move(c.tangent1);
    tangent2_ = std::move(c.tangent2);
    shape_ = std::move(c.shape);
    count_ = static_cast<Index>(n);
}

SegmentPairs::SegmentPairs(std::vector<Index> slave, std::vector<Index> master) {
    if (slave.size() != master.size()) {
        throw std::invalid_argument("contact::SegmentPairs: " + std::to_string(slave.size()) +
                                    " slave entries, " + std::to_string(master.size()) +
                                    " master entries");
    }
    count_ = static_cast<Index>(slave.size());
    slave_ = std::move(slave);
    master_ = std::move(master);
}

}  // namespace contact
