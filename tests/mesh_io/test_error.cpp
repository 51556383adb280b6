// SPDX-License-Identifier: MIT
#include "mesh_io/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(ParseError, NamesFileLineAndExpectation) {
    const mesh_io::ParseError e = mesh_io::ParseError::expected("model.inp", 12, "a node id", "x1");
    EXPECT_EQ(e.path(), "model.inp");
    EXPECT_EQ(e.line(), 12);
    EXPECT_EQ(std::string(e.what()), "model.inp:12: expected a node id, got 'x1'");
}

TEST(ParseError, LineZeroMeansWholeFile) {
    const mesh_io::ParseError e("missing.msh", 0, "cannot open the file");
    EXPECT_EQ(std::string(e.what()), "missing.msh: cannot open the file");
}

TEST(ParseError, IsARuntimeError) {
    EXPECT_THROW(throw mesh_io::ParseError("a.inp", 3, "bad"), std::runtime_error);
}

}  // namespace
