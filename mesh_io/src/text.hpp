// SPDX-License-Identifier: MIT
// Small text helpers the readers share.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace mesh_io::detail {

/// `s` in lower case (ASCII): how names are compared when case does not matter.
[[nodiscard]] inline std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace mesh_io::detail
