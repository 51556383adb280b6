// SPDX-License-Identifier: MIT
#include "mesh_io/error.hpp"

#include <utility>

namespace mesh_io {
namespace {

std::string format(const std::string& path, long line, const std::string& message) {
    return line > 0 ? path + ":" + std::to_string(line) + ": " + message : path + ": " + message;
}

}  // namespace

ParseError::ParseError(std::string path, long line, const std::string& message)
    : std::runtime_error(format(path, line, message)), path_(std::move(path)), line_(line) {}

ParseError ParseError::expected(std::string path, long line, const std::string& what,
                                const std::string& token) {
    return {std::move(path), line, "expected " + what + ", got '" + token + "'"};
}

}  // namespace mesh_io
