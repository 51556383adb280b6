// SPDX-License-Identifier: MIT
#include "line_reader.hpp"

#include <filesystem>
#include <system_error>
#include <utility>

namespace mesh_io::detail {

LineReader::LineReader(std::string path) : path_(std::move(path)) {
    // Checked before opening: opening a FIFO waits for a writer, which may never come.
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path_, ec);
    if (!ec && std::filesystem::is_directory(st)) {
        throw ParseError(path_, 0, "is a directory, not a file");
    }
    if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
        throw ParseError(path_, 0, "is not a regular file (a FIFO, device or socket)");
    }
    in_.open(path_, std::ios::binary);
    if (!in_) {
        throw ParseError(path_, 0, "cannot open the file");
    }
}

bool LineReader::next(std::string& line) {
    if (pushedBack_) {
        pushedBack_ = false;
        ++line_;
        line = last_;
        return true;
    }
    if (!std::getline(in_, line)) {
        return false;
    }
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    // A UTF-8 byte order mark (editors on Windows write one) is no part of the first line.
    if (line_ == 0 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        line.erase(0, 3);
    }
    ++line_;
    return true;
}

void LineReader::unget(const std::string& line) {
    last_ = line;
    pushedBack_ = true;
    --line_;
}

void LineReader::fail(const std::string& message) const { throw ParseError(path_, line_, message); }

void LineReader::expected(const std::string& what, const std::string& token) const {
    throw ParseError::expected(path_, line_, what, token);
}

}  // namespace mesh_io::detail
