// SPDX-License-Identifier: MIT
// The model writers and makeScene's size bounds (bench_generate's own checks: test_generate.py).
#include "generators.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

using namespace contact;

std::string scratchPath(const char* ext) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/contact_bench_writer_" +
           std::to_string(::getpid()) + ext;
}

TEST(BenchWriters, RefuseAnEmptySurfaceAndWriteNothing) {
    bench::Scene sc = bench::makeScene("wavy_quad4", 8);
    sc.slave = Surface{};
    sc.slave.name = "slave";
    for (const char* ext : {".inp", ".msh"}) {
        const std::string path = scratchPath(ext);
        std::remove(path.c_str());
        try {
            if (std::string(ext) == ".inp") {
                bench::writeAbaqus(sc, path, {});
            } else {
                bench::writeGmsh(sc, path, {});
            }
            FAIL() << ext << ": an empty slave surface was written";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("no segments in surface 'slave'"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_NE(::access(path.c_str(), F_OK), 0) << path << " was left behind";
    }
}

TEST(BenchScenes, SizeOutsideTheGeneratorsRangeIsRefused) {
    EXPECT_THROW((void)bench::makeScene("wavy_quad4", 0), std::invalid_argument);
    EXPECT_THROW((void)bench::makeScene("folded_sheet", bench::kMaxSegments + 1),
                 std::invalid_argument);
    EXPECT_THROW((void)bench::makeScene("folded_sheet", 9223372036854775807L),
                 std::invalid_argument);
    EXPECT_EQ(bench::makeScene("wavy_line2", 1).master.size(), 2);  // the smallest model
}

}  // namespace
