// SPDX-License-Identifier: MIT
// A scratch directory for the files a test writes, fresh for each test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace contact::testing {

/// `base`/`area`/<suite>_<test>, emptied and created.
inline std::filesystem::path scratchDir(const std::string& base, const std::string& area) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "_" + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    const std::filesystem::path dir = std::filesystem::path(base) / area / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace contact::testing
