// SPDX-License-Identifier: MIT
// The writers' file sets: the --mortar files of an interface are replaced together or not at all.
#include "mesh_io/model.hpp"
#include "mesh_io/writers.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using mesh_io::Index;

std::string get(const fs::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Two slave nodes (ids 11, 12) over one master node (id 21).
mesh_io::Model threeNodes() {
    mesh_io::Model m;
    m.coords.setZero(3, 3);
    m.nodeIds = {11, 12, 21};
    return m;
}

contact::MortarOperators operators() {
    contact::MortarOperators op;
    op.nodes = {0, 1};
    op.weightedGap = {0.5, 0.25};
    op.nodalArea = {1.0, 2.0};
    op.D.row = {0, 1};
    op.D.col = {0, 1};
    op.D.value = {1.0, 2.0};
    op.M.row = {0, 1};
    op.M.col = {2, 2};
    op.M.value = {1.0, 2.0};
    return op;
}

// The nodes file cannot be written (a directory stands at its name): D and M stay as they were.
// They were each replaced on their own, leaving this run's D beside an earlier run's M.
TEST(Writers, MortarFilesReplacedTogetherOrNotAtAll) {
    const fs::path dir =
        fs::temp_directory_path() / ("contact_test_writers_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "interface1_nodes.csv");
    std::ofstream(dir / "interface1_D.mtx") << "earlier D\n";
    std::ofstream(dir / "interface1_M.mtx") << "earlier M\n";
    mesh_io::WriteOptions o;
    o.overwrite = true;
    const mesh_io::Model m = threeNodes();
    EXPECT_THROW(mesh_io::writeMortarFiles(dir.string(), "interface1", m, operators(), "test", o),
                 std::runtime_error);
    EXPECT_EQ(get(dir / "interface1_D.mtx"), "earlier D\n");
    EXPECT_EQ(get(dir / "interface1_M.mtx"), "earlier M\n");

    fs::remove(dir / "interface1_nodes.csv");
    mesh_io::writeMortarFiles(dir.string(), "interface1", m, operators(), "test", o);
    EXPECT_NE(get(dir / "interface1_D.mtx").find("11 11 1\n12 12 2\n"), std::string::npos);
    EXPECT_NE(get(dir / "interface1_M.mtx").find("11 21 1\n12 21 2\n"), std::string::npos);
    EXPECT_EQ(get(dir / "interface1_nodes.csv"),
              "node_id,weighted_gap,nodal_area\n11,0.5,1\n12,0.25,2\n");
    fs::remove_all(dir);
}

}  // namespace
