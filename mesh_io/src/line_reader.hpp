// SPDX-License-Identifier: MIT
// Reads a text file line by line, owning the path and the line number every error must name.
#pragma once

#include "mesh_io/error.hpp"

#include <fstream>
#include <string>

namespace mesh_io::detail {

class LineReader {
public:
    /// Opens `path` (binary mode, so Gmsh binary sections can be read through stream()).
    /// Throws ParseError(path, 0, "cannot open the file") when it cannot.
    explicit LineReader(std::string path);

    /// Next line without its end-of-line characters ("\n" or "\r\n"), the first without a UTF-8
    /// byte order mark; false at end of file.
    bool next(std::string& line);
    /// Puts back `line`, the last line next() gave: the following next() returns it again (one
    /// level). The caller hands the text back, so next() need not keep a copy of every line.
    void unget(const std::string& line);

    [[nodiscard]] long line() const noexcept { return line_; }
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    /// The underlying stream, positioned after the last line read (for binary blocks). A caller
    /// that reads raw bytes tells the reader how many lines they spanned with addLines().
    [[nodiscard]] std::ifstream& stream() noexcept { return in_; }
    void addLines(long n) noexcept { line_ += n; }

    /// Throws ParseError at the current line.
    [[noreturn]] void fail(const std::string& message) const;
    /// Throws ParseError "expected <what>, got '<token>'" at the current line.
    [[noreturn]] void expected(const std::string& what, const std::string& token) const;

private:
    std::string path_;
    std::ifstream in_;
    long line_ = 0;
    std::string last_;
    bool pushedBack_ = false;
};

}  // namespace mesh_io::detail
