// SPDX-License-Identifier: MIT
// The one exception type of the mesh readers: names the file, the line and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace mesh_io {

/// A malformed input file. what() reads "<path>:<line>: <message>"; line 0 means the whole file
/// (for instance, it cannot be opened).
class ParseError : public std::runtime_error {
public:
    ParseError(std::string path, long line, const std::string& message);

    /// "expected <what>, got '<token>'" in the standard form.
    static ParseError expected(std::string path, long line, const std::string& what,
                               const std::string& token);

    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    [[nodiscard]] long line() const noexcept { return line_; }

private:
    std::string path_;
    long line_;
};

}  // namespace mesh_io
