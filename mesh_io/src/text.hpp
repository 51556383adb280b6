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

/// The parts (strings, string views, literals) joined into one string, without the temporary
/// strings a chain of `+` makes: for messages built from several named strings.
template <class... Parts>
[[nodiscard]] std::string concat(const Parts&... parts) {
    std::string s;
    (s.append(parts), ...);
    return s;
}

}  // namespace mesh_io::detail
