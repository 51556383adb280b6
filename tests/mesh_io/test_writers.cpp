// SPDX-License-Identifier: MIT
// The writers' file sets: the --mortar files of an interface are replaced together or not at all;
// the VTU writers refuse pairs that do not fit their surfaces before writing anything; a VTU series
// never replaces a file it did not write. The JSON report carries the notes the text report
// prints.
#include "contact/pairs.hpp"
#include "contact/surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/report.hpp"
#include "mesh_io/vtu.hpp"
#include "mesh_io/writers.hpp"

#include "scratch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

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

// This test's scratch directory, emptied.
fs::path scratchDir() {
    return contact::testing::scratchDir(CONTACT_TEST_BUILD_DATA_DIR, "writers_scratch");
}

// Two unit squares 0.1 apart: master nodes 0-3 at z = 0, slave nodes 4-7 at z = 0.1.
struct TwoSquares {
    Eigen::Matrix3Xd x{3, 8};
    contact::Surface master;
    contact::Surface slave;
    TwoSquares() {
        x << 0, 1, 1, 0, 0, 1, 1, 0,  //
            0, 0, 1, 1, 0, 0, 1, 1,   //
            0, 0, 0, 0, 0.1, 0.1, 0.1, 0.1;
        master.addSegment(contact::SegmentType::Quad4, {0, 1, 2, 3});
        slave.addSegment(contact::SegmentType::Quad4, {4, 7, 6, 5});
    }
};

// Node pairs (slave node, master segment) with the other columns filled.
contact::NodePairs nodePairs(const std::vector<std::pair<Index, Index>>& pairs) {
    contact::NodePairs::Columns c;
    const std::size_t n = pairs.size();
    for (const auto& [slave, master] : pairs) {
        c.slave.push_back(slave);
        c.master.push_back(master);
    }
    c.gap.assign(n, 0.1);
    c.distance.assign(n, 0.1);
    c.status.assign(n, contact::ProjectionStatus{});
    c.xi.assign(2 * n, 0.0);
    c.point.assign(3 * n, 0.0);
    c.normal.assign(3 * n, 0.0);
    c.tangent1.assign(3 * n, 0.0);
    c.tangent2.assign(3 * n, 0.0);
    c.shape.assign(contact::kMaxSegmentNodes * n, 0.0);
    return contact::NodePairs(std::move(c));
}

// The message writeContactVtu(node pairs) throws as std::invalid_argument, "" when it writes.
template <class Slave>
std::string nodeModeError(const fs::path& file, const contact::Surface& master, const Slave& slave,
                          const contact::CoordinatesView& x, const contact::NodePairs& pairs) {
    try {
        mesh_io::writeContactVtu(file.string(), master, slave, x, pairs);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// Pairs that do not fit the surfaces (a slave node in no slave segment, a master segment the
// master lacks, a node beyond the coordinates) are refused before anything is built or written;
// they were read out of bounds (a double free, or a file with garbage in it).
TEST(Vtu, NodePairsThatDoNotFitTheSurfacesAreRefused) {
    const fs::path dir = scratchDir();
    const fs::path file = dir / "c.vtu";
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    EXPECT_EQ(nodeModeError(file, t.master, t.slave, x, nodePairs({{4, 0}, {5, 0}})), "");
    ASSERT_TRUE(fs::exists(file));
    fs::remove(file);

    EXPECT_EQ(nodeModeError(file, t.master, t.slave, x, nodePairs({{4, 0}, {5, 1}})),
              "writeContactVtu: pair 1 (slave node 5, master segment 1): the master surface has "
              "1 segments");
    EXPECT_EQ(nodeModeError(file, t.master, contact::Surface{}, x, nodePairs({{4, 0}})),
              "writeContactVtu: pair 0 (slave node 4, master segment 0): the node is not one of "
              "the slave surface's");
    // Master and slave swapped: the pairs' slave nodes are the master's.
    EXPECT_EQ(nodeModeError(file, t.slave, t.master, x, nodePairs({{4, 0}})),
              "writeContactVtu: pair 0 (slave node 4, master segment 0): the node is not one of "
              "the slave surface's");
    EXPECT_EQ(nodeModeError(file, t.master, t.slave, x, nodePairs({{8, 0}})),
              "writeContactVtu: pair 0 (slave node 8, master segment 0): the coordinates have 8 "
              "nodes");
    EXPECT_EQ(nodeModeError(file, t.master, std::vector<Index>{4, 5}, x, nodePairs({{6, 0}})),
              "writeContactVtu: pair 0 (slave node 6, master segment 0): the node is not one of "
              "the slave nodes");
    EXPECT_EQ(nodeModeError(file, t.master, std::vector<Index>{4, 9}, x, nodePairs({{4, 0}})),
              "writeContactVtu: the slave node list names node 9; the coordinates have 8 nodes");
    // Fewer coordinates than the surfaces' node numbers.
    const contact::CoordinatesView six(t.x.data(), 6, 3);
    EXPECT_EQ(nodeModeError(file, t.master, t.slave, six, nodePairs({{4, 0}})),
              "writeContactVtu: the slave surface names node 7; the coordinates have 6 nodes");
    contact::Surface broken = t.master;
    broken.offsets.back() = 3;
    EXPECT_EQ(nodeModeError(file, broken, t.slave, x, nodePairs({{4, 0}})),
              "writeContactVtu: the master surface has offsets that do not match its segment "
              "count and connectivity");
    EXPECT_FALSE(fs::exists(file));
    fs::remove_all(dir);
}

// Segment mode: the surfaces are checked the same way, the pairs' segment numbers by
// computeOverlaps; nothing is written either.
TEST(Vtu, SegmentPairsThatDoNotFitTheSurfacesAreRefused) {
    const fs::path dir = scratchDir();
    const fs::path file = dir / "c.vtu";
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    const auto error = [&](const contact::Surface& master, const contact::SegmentPairs& pairs,
                           const contact::CoordinatesView& view) -> std::string {
        try {
            mesh_io::writeContactVtu(file.string(), master, t.slave, view, pairs, 0.2);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error(t.master, contact::SegmentPairs({0}, {0}), x), "");
    ASSERT_TRUE(fs::exists(file));
    fs::remove(file);
    EXPECT_EQ(error(t.master, contact::SegmentPairs({0}, {1}), x),
              "computeOverlaps: pair 0 is (slave 0, master 1); the surfaces have 1 and 1 "
              "segments");
    contact::Surface broken = t.master;
    broken.offsets.back() = 3;
    EXPECT_EQ(error(broken, contact::SegmentPairs({0}, {0}), x),
              "writeContactVtu: the master surface has offsets that do not match its segment "
              "count and connectivity");
    contact::Surface retyped = t.master;
    retyped.types[0] = contact::SegmentType::Tri3;
    EXPECT_EQ(error(retyped, contact::SegmentPairs({0}, {0}), x),
              "writeContactVtu: the master surface has segment 0 whose node count is not its "
              "type's");
    EXPECT_FALSE(fs::exists(file));
    fs::remove_all(dir);
}

// Told the number of increments, a series checks all its files up front: an existing increment
// file is refused before anything is written (it was found at that increment, the .pvd and the
// earlier files left behind).
TEST(Vtu, SeriesChecksThePlannedFilesUpFront) {
    const fs::path dir = scratchDir();
    const std::string pvd = (dir / "s.pvd").string();
    EXPECT_EQ(mesh_io::VtuSeries::plannedFiles(pvd, 2),
              (std::vector<std::string>{pvd, (dir / "s_0000.vtu").string(),
                                        (dir / "s_0001.vtu").string()}));
    EXPECT_THROW((void)mesh_io::VtuSeries::plannedFiles(pvd, -1), std::invalid_argument);
    EXPECT_THROW((void)mesh_io::VtuSeries::plannedFiles((dir / "s.vtu").string(), 2),
                 std::runtime_error);

    std::ofstream(dir / "s_0005.vtu") << "not ours\n";
    try {
        const mesh_io::VtuSeries series(pvd, {}, 20);
        ADD_FAILURE() << "no std::runtime_error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("s_0005.vtu exists"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(pvd));
    EXPECT_FALSE(fs::exists(dir / "s_0000.vtu"));

    // Five increments stop short of it; the series writes them and leaves it as it was.
    TwoSquares t;
    mesh_io::VtuSeries five(pvd, {}, 5);
    for (int k = 0; k < 5; ++k) {
        five.write(k, t.master, t.slave, contact::CoordinatesView(t.x), nodePairs({{4, 0}}));
    }
    EXPECT_EQ(five.files().back(), (dir / "s_0004.vtu").string());
    EXPECT_TRUE(fs::exists(pvd));
    EXPECT_EQ(get(dir / "s_0005.vtu"), "not ours\n");
    fs::remove_all(dir);
}

// The JSON report had no notes: a script reading it could not learn that a keyword was skipped
// or a surface's segments left out. The model's notes, and each interface's surfaces' (a
// self-contact surface's once).
TEST(Writers, JsonReportCarriesTheNotes) {
    mesh_io::Model m = threeNodes();
    m.path = "deck.inp";
    m.notes = {"deck.inp:1: skipped keyword *HEADING", "deck.inp:9: \"quoted\""};
    mesh_io::ContactSurface master;
    master.name = "M";
    master.notes = {"deck.inp: surface 'M': 1 of 2 faces are collapsed"};
    mesh_io::ContactSurface slave;
    slave.name = "S";
    slave.notes = {"deck.inp: surface 'S': inside-out"};
    const contact::NodePairs none;
    mesh_io::InterfaceReport r;
    r.master = &master;
    r.slave = &slave;
    r.nodePairs = &none;
    mesh_io::WriterOptions o;
    const fs::path path = scratchDir() / "report.json";
    mesh_io::writeJsonReport(path.string(), m, {r}, o);
    std::string json = get(path);
    EXPECT_NE(json.find("\"notes\": [\"deck.inp:1: skipped keyword *HEADING\", "
                        "\"deck.inp:9: \\\"quoted\\\"\"],\n"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"notes\": [\"deck.inp: surface 'M': 1 of 2 faces are collapsed\", "
                        "\"deck.inp: surface 'S': inside-out\"],\n"),
              std::string::npos)
        << json;

    r.slave = &master;
    r.selfContact = true;
    o.write.overwrite = true;
    mesh_io::writeJsonReport(path.string(), m, {r}, o);
    json = get(path);
    EXPECT_NE(json.find("\"notes\": [\"deck.inp: surface 'M': 1 of 2 faces are collapsed\"],\n"),
              std::string::npos)
        << json;
}

// A .pvd that appears after the series was made is not the series' own: the first write refused
// it, the second replaced it (the refused step had been recorded, so the .pvd counted as ours).
// A refused step is not recorded; the series goes on once the way is clear.
TEST(Vtu, SeriesNeverReplacesAPvdItDidNotWrite) {
    const fs::path dir = scratchDir();
    const fs::path pvd = dir / "s.pvd";
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    const contact::NodePairs pairs = nodePairs({{4, 0}});
    mesh_io::VtuSeries series(pvd.string(), {}, 3);
    std::ofstream(pvd) << "not ours\n";
    EXPECT_THROW(series.write(0, t.master, t.slave, x, pairs), std::runtime_error);
    EXPECT_THROW(series.write(1, t.master, t.slave, x, pairs), std::runtime_error);
    EXPECT_EQ(get(pvd), "not ours\n");
    EXPECT_TRUE(series.files().empty());
    // The increment file it wrote before the refusal is its own: written again, no overwrite.
    fs::remove(pvd);
    series.write(2, t.master, t.slave, x, pairs);
    EXPECT_EQ(series.files(), std::vector<std::string>{(dir / "s_0000.vtu").string()});
    EXPECT_NE(get(pvd).find(R"(<DataSet timestep="2" part="0" file="s_0000.vtu"/>)"),
              std::string::npos)
        << get(pvd);
    EXPECT_FALSE(fs::exists(dir / "s_0001.vtu"));
    fs::remove_all(dir);
}

// The .pvd names its files in an XML attribute: '&' (or '<', '"') in the series' name made a
// .pvd that VTK could not parse. They are escaped.
TEST(Vtu, SeriesEscapesFileNamesInThePvd) {
    const fs::path dir = scratchDir();
    const fs::path pvd = dir / "R&D <\"run\"> 'x'.pvd";
    TwoSquares t;
    mesh_io::VtuSeries series(pvd.string());
    series.write(0, t.master, t.slave, contact::CoordinatesView(t.x), nodePairs({{4, 0}}));
    EXPECT_TRUE(fs::exists(dir / "R&D <\"run\"> 'x'_0000.vtu"));
    EXPECT_NE(get(pvd).find(R"(file="R&amp;D &lt;&quot;run&quot;&gt; &apos;x&apos;_0000.vtu"/>)"),
              std::string::npos)
        << get(pvd);
    fs::remove_all(dir);
}

// Times were taken as given: NaN, Inf, a step back or a repeat made a .pvd ParaView cannot
// order, and %.12g printed two distinct times alike. A time must be finite and after the last.
TEST(Vtu, SeriesTimesAreFiniteAndIncreasing) {
    const fs::path dir = scratchDir();
    const fs::path pvd = dir / "s.pvd";
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    const contact::NodePairs pairs = nodePairs({{4, 0}});
    mesh_io::VtuSeries series(pvd.string());
    series.write(1.0, t.master, t.slave, x, pairs);
    const auto error = [&](double time) -> std::string {
        try {
            series.write(time, t.master, t.slave, x, pairs);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error(0.5), "VtuSeries::write: time 0.5 is not after the previous step's time 1");
    EXPECT_EQ(error(1.0), "VtuSeries::write: time 1 is not after the previous step's time 1");
    EXPECT_EQ(error(std::nan("")), "VtuSeries::write: time nan is not finite");
    EXPECT_EQ(error(-std::numeric_limits<double>::infinity()),
              "VtuSeries::write: time -inf is not finite");
    EXPECT_FALSE(fs::exists(dir / "s_0001.vtu"));
    const double next = std::nextafter(1.0, 2.0);
    EXPECT_EQ(error(next), "");
    EXPECT_EQ(series.files().size(), 2U);
    EXPECT_NE(get(pvd).find(R"(timestep="1" part="0")"), std::string::npos) << get(pvd);
    EXPECT_NE(get(pvd).find(R"(timestep="1.0000000000000002" part="0")"), std::string::npos)
        << get(pvd);
    fs::remove_all(dir);
}

// Segment mode took a NaN capture (no gap is <= it) or a negative one and drew no contact where
// the slave is 0.1 away. It is refused, naming it, before anything is written.
TEST(Vtu, SegmentModeRefusesABadCapture) {
    const fs::path dir = scratchDir();
    const fs::path file = dir / "c.vtu";
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    const contact::SegmentPairs pairs({0}, {0});
    const auto error = [&](double capture) -> std::string {
        try {
            mesh_io::writeContactVtu(file.string(), t.master, t.slave, x, pairs, capture);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error(std::nan("")),
              "computeOverlaps: the capture distance must be finite and 0 or more, got nan");
    EXPECT_EQ(error(-1.0),
              "computeOverlaps: the capture distance must be finite and 0 or more, got -1");
    EXPECT_EQ(error(std::numeric_limits<double>::infinity()),
              "computeOverlaps: the capture distance must be finite and 0 or more, got inf");
    EXPECT_FALSE(fs::exists(file));
    EXPECT_EQ(error(0.0), "");
    EXPECT_TRUE(fs::exists(file));
    mesh_io::VtuSeries series((dir / "s.pvd").string());
    EXPECT_THROW(series.write(0, t.master, t.slave, x, pairs, -0.5), std::invalid_argument);
    EXPECT_FALSE(fs::exists(dir / "s_0000.vtu"));
    fs::remove_all(dir);
}

// A moved-from series wrote ./_0000.vtu (its path was empty) before failing. It refuses writes
// before anything is written; its path goes with the move. A series is not copyable (two
// objects would write one set of files).
TEST(Vtu, MovedFromSeriesRefusesWrites) {
    EXPECT_FALSE(std::is_copy_constructible_v<mesh_io::VtuSeries>);
    EXPECT_TRUE(std::is_nothrow_move_constructible_v<mesh_io::VtuSeries>);
    const fs::path dir = scratchDir();
    TwoSquares t;
    const contact::CoordinatesView x(t.x);
    const contact::NodePairs pairs = nodePairs({{4, 0}});
    fs::remove("_0000.vtu");
    mesh_io::VtuSeries a((dir / "a.pvd").string());
    a.write(0, t.master, t.slave, x, pairs);
    mesh_io::VtuSeries b(std::move(a));
    EXPECT_THROW(a.write(1, t.master, t.slave, x, pairs),  // NOLINT(bugprone-use-after-move)
                 std::logic_error);
    EXPECT_FALSE(fs::exists("_0000.vtu"));
    b.write(1, t.master, t.slave, x, pairs);
    EXPECT_EQ(b.files().back(), (dir / "a_0001.vtu").string());

    mesh_io::VtuSeries c((dir / "c.pvd").string());
    c = std::move(b);
    EXPECT_THROW(b.write(2, t.master, t.slave, x, pairs),  // NOLINT(bugprone-use-after-move)
                 std::logic_error);
    c.write(2, t.master, t.slave, x, pairs);
    EXPECT_EQ(c.files().size(), 3U);
    EXPECT_NE(get(dir / "a.pvd").find("a_0002.vtu"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "c.pvd"));
    EXPECT_FALSE(fs::exists("_0000.vtu"));
    fs::remove_all(dir);
}

// Two live series on one .pvd (with overwrite) replaced each other's files silently. The second
// is refused, under any spelling of the path; the path is free again once the first is gone.
TEST(Vtu, OneLiveSeriesPerPvd) {
    const fs::path dir = scratchDir();
    const fs::path pvd = dir / "s.pvd";
    mesh_io::VtuOptions o;
    o.write.overwrite = true;
    const auto error = [&](const fs::path& path) -> std::string {
        try {
            const mesh_io::VtuSeries other(path.string(), o, 2);
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "";
    };
    {
        mesh_io::VtuSeries first(pvd.string(), o, 2);
        EXPECT_EQ(error(pvd), "VtuSeries: " + pvd.string() +
                                  " is the .pvd of another live series (one series per file)");
        EXPECT_NE(error(dir / "." / "s.pvd"), "");
        EXPECT_EQ(error(dir / "t.pvd"), "");
        mesh_io::VtuSeries moved(std::move(first));
        EXPECT_NE(error(pvd), "");
    }
    EXPECT_EQ(error(pvd), "");
    fs::remove_all(dir);
}

}  // namespace
