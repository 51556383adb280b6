// SPDX-License-Identifier: MIT
// --verify's words: missed, extra and differing pairs named in the file's ids, and segment mode,
// which compares no gaps, says nothing of them. The "fast" result is the reference run on other
// coordinates, so the differences are known.
#include "contact/reference_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/verify.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

using contact::SearchMode;

// The upper block (element 11, slave face S1) rests on the lower one (elements 1, 2, master
// faces S2): gap 0.
struct TwoBlocks : ::testing::Test {
    mesh_io::Model model =
        mesh_io::readModel(std::string(CONTACT_TEST_DATA_DIR) + "/abaqus/two_blocks_c3d8r.inp");
    mesh_io::ContactSurface master = mesh_io::buildContactSurface(model, "LOWER_TOP");
    mesh_io::ContactSurface slave = mesh_io::buildContactSurface(model, "UPPER_BOTTOM");
    contact::SearchOptions options;

    void SetUp() override {
        options.capture = 0.1;
        options.captureRelative = false;
    }
    // The upper block's nodes (ids 101..108) raised by dz.
    [[nodiscard]] Eigen::Matrix3Xd raised(double dz) const {
        Eigen::Matrix3Xd x = model.coords;
        for (long id = 101; id <= 108; ++id) {
            x(2, model.findNode(id)) += dz;
        }
        return x;
    }
    // Verifies `fast` (the reference on coordinates `fastX`) against the reference on the model's.
    mesh_io::VerifyResult verify(SearchMode mode, const Eigen::Matrix3Xd& fastX,
                                 contact::ReferenceResult& fast) {
        options.mode = mode;
        fast = contact::referenceSearch(master.surface, slave.surface,
                                        contact::CoordinatesView(fastX), options);
        mesh_io::InterfaceReport r;
        r.master = &master;
        r.slave = &slave;
        r.mode = mode;
        r.captureDistance = options.capture;
        if (mode == SearchMode::kNodeToSegment) {
            r.nodePairs = &fast.nodePairs;
        } else {
            r.segmentPairs = &fast.segmentPairs;
        }
        return mesh_io::verifyInterface(model, r, options, contact::CoordinatesView(model.coords),
                                        0, 1);
    }
};

std::string printed(const mesh_io::VerifyResult& v, bool nodeMode) {
    std::ostringstream out;
    mesh_io::printVerify(out, v, nodeMode);
    return out.str();
}

// Segment mode named the slave by its position in the surface ("slave segment 0") and printed a
// gap difference it never computes.
TEST_F(TwoBlocks, SegmentModeNamesTheSlaveFaceAndNoGaps) {
    contact::ReferenceResult fast;
    const mesh_io::VerifyResult missed = verify(SearchMode::kSegmentToSegment, raised(10), fast);
    ASSERT_EQ(fast.segmentPairs.size(), 0);
    ASSERT_GE(missed.missed, 1);
    EXPECT_EQ(missed.extra, 0);
    ASSERT_FALSE(missed.examples.empty());
    EXPECT_EQ(missed.examples[0], "missed: slave element 11 face 1, master element 1 face 2");
    const std::string text = printed(missed, false);
    EXPECT_NE(text.find("exhaustive reference DIFFERS: " + std::to_string(missed.missed) +
                        " missed, 0 extra (reference "),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("gap difference"), std::string::npos) << text;
    EXPECT_EQ(mesh_io::verifyFailureText(missed, false),
              "exhaustive reference DIFFERS: " + std::to_string(missed.missed) +
                  " missed, 0 extra");

    // The other way round: the fast pairs of the touching blocks against a reference that finds
    // none.
    options.mode = SearchMode::kSegmentToSegment;
    const contact::ReferenceResult touching = contact::referenceSearch(
        master.surface, slave.surface, contact::CoordinatesView(model.coords), options);
    mesh_io::InterfaceReport r;
    r.master = &master;
    r.slave = &slave;
    r.mode = SearchMode::kSegmentToSegment;
    r.segmentPairs = &touching.segmentPairs;
    const Eigen::Matrix3Xd far = raised(10);
    const mesh_io::VerifyResult extra =
        mesh_io::verifyInterface(model, r, options, contact::CoordinatesView(far), 0, 1);
    EXPECT_EQ(extra.extra, missed.missed);
    ASSERT_FALSE(extra.examples.empty());
    EXPECT_EQ(extra.examples[0], "extra: slave element 11 face 1, master element 1 face 2");
}

// Node mode with the same pairs and one gap 1e-9 off: the report said only "max |gap difference|
// 1e-09" and named no pair.
TEST_F(TwoBlocks, NodeModeNamesThePairWhoseGapsDifferMost) {
    Eigen::Matrix3Xd nudged = model.coords;
    nudged(2, model.findNode(101)) += 1e-9;
    contact::ReferenceResult fast;
    const mesh_io::VerifyResult v = verify(SearchMode::kNodeToSegment, nudged, fast);
    EXPECT_EQ(v.missed, 0);
    EXPECT_EQ(v.extra, 0);
    EXPECT_FALSE(v.agrees());
    EXPECT_NEAR(v.maxGapDiff, 1e-9, 1e-15);
    ASSERT_EQ(v.examples.size(), 1U);
    EXPECT_EQ(v.examples[0].rfind("largest gap difference: slave node 101, master element 1 face "
                                  "2, gap 1.0000000",
                                  0),
              0U)
        << v.examples[0];
    EXPECT_NE(v.examples[0].find(", reference 0 (difference 1e-09)"), std::string::npos)
        << v.examples[0];
    const std::string text = printed(v, true);
    EXPECT_NE(text.find("DIFFERS: 0 missed, 0 extra, max |gap difference| 1e-09 (reference "),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\n    largest gap difference: slave node 101, "), std::string::npos)
        << text;
    EXPECT_EQ(mesh_io::verifyFailureText(v, true),
              "exhaustive reference DIFFERS: 0 missed, 0 extra, max |gap difference| 1e-09");
}

TEST_F(TwoBlocks, AgreementListsNothing) {
    contact::ReferenceResult fast;
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        const mesh_io::VerifyResult v = verify(mode, model.coords, fast);
        EXPECT_TRUE(v.agrees());
        EXPECT_TRUE(v.examples.empty());
        const bool nodeMode = mode == SearchMode::kNodeToSegment;
        EXPECT_NE(printed(v, nodeMode)
                      .find(nodeMode ? "agrees: 0 missed, 0 extra, max |gap "
                                       "difference| 0 (reference"
                                     : "agrees: 0 missed, 0 extra (reference"),
                  std::string::npos);
    }
}

// The punch (PunchBottom's nodes) slid sideways by 0.7 block element and raised a little,
// capture 0.6 element: many extra pairs, many missed ones, and gaps that differ. The largest gap
// difference, put first, took one of the missed pairs' lines.
TEST(VerifyExamples, ManyExtrasLeaveRoomForMissedPairs) {
    const mesh_io::Model model =
        mesh_io::readModel(std::string(CONTACT_EXAMPLES_DATA_DIR) + "/punch_on_block.inp");
    const mesh_io::ContactSurface master = mesh_io::buildContactSurface(model, "BlockTop");
    const mesh_io::ContactSurface slave = mesh_io::buildContactSurface(model, "PunchBottom");
    contact::SearchOptions options;
    options.mode = SearchMode::kNodeToSegment;
    Eigen::Matrix3Xd slid = model.coords;
    const auto& c = master.surface.connectivity;  // a block face's first edge
    const double edge = (model.coords.col(c[0]) - model.coords.col(c[1])).norm();
    options.capture = 0.6 * edge;
    options.captureRelative = false;
    for (const mesh_io::Index n : slave.surface.connectivity) {
        slid(0, n) = model.coords(0, n) + 0.7 * edge;
        slid(2, n) = model.coords(2, n) + 0.01 * edge;
    }
    const contact::ReferenceResult fast = contact::referenceSearch(
        master.surface, slave.surface, contact::CoordinatesView(slid), options);
    mesh_io::InterfaceReport r;
    r.master = &master;
    r.slave = &slave;
    r.mode = SearchMode::kNodeToSegment;
    r.nodePairs = &fast.nodePairs;
    const mesh_io::VerifyResult v =
        mesh_io::verifyInterface(model, r, options, contact::CoordinatesView(model.coords), 0, 1);
    ASSERT_GT(v.extra, 20);
    ASSERT_GT(v.missed, 20);
    ASSERT_GT(v.maxGapDiff, 0.0);
    ASSERT_FALSE(v.examples.empty());
    EXPECT_EQ(v.examples[0].rfind("largest gap difference: ", 0), 0U) << v.examples[0];
    long extraLines = 0;
    long missedLines = 0;
    for (const std::string& e : v.examples) {
        extraLines += e.rfind("extra: ", 0) == 0 ? 1 : 0;
        missedLines += e.rfind("missed: ", 0) == 0 ? 1 : 0;
    }
    EXPECT_EQ(extraLines, 20);
    EXPECT_EQ(missedLines, 20);
}

}  // namespace
