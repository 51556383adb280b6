// SPDX-License-Identifier: MIT
// readModel: format by extension, and files that cannot fit in memory refused up front.
#include "mesh_io/error.hpp"
#include "mesh_io/model.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace mesh_io {
namespace {

const std::string kModel = std::string(CONTACT_EXAMPLES_DATA_DIR) + "/cylinder_on_block_2d.msh";

TEST(ReadModel, RefusesAFileLargerThanTheAvailableMemory) {
    ::setenv("CONTACT_MEMORY_LIMIT_BYTES", "1000", 1);
    try {
        (void)readModel(kModel);
        ::unsetenv("CONTACT_MEMORY_LIMIT_BYTES");
        FAIL() << "no exception";
    } catch (const ParseError& e) {
        ::unsetenv("CONTACT_MEMORY_LIMIT_BYTES");
        EXPECT_EQ(e.line(), 0);
        const std::string what = e.what();
        EXPECT_NE(what.find("cylinder_on_block_2d.msh: the file is 0.00 GB but only 0.00 GB of memory"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("would run out of memory"), std::string::npos);
    }
    EXPECT_GT(readModel(kModel).numNodes(), 0) << "reads once the limit allows";
}

TEST(ReadModel, UnknownExtensionIsAClearError) {
    try {
        (void)readModel("model.stl");
        FAIL() << "no exception";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), "model.stl: unknown model format (expected a .inp or .msh file)");
    }
}

TEST(ReadModel, RecordsTheFilesItRead) {
    const Model m = readModel(kModel);
    ASSERT_EQ(m.files.size(), 1U);
    EXPECT_EQ(m.files[0], kModel);
}

}  // namespace
}  // namespace mesh_io
