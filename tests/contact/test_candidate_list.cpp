// SPDX-License-Identifier: MIT
// The Verlet candidate list (candidate_list.hpp): its code round-trips every list, and a list built
// from a box index holds exactly the filtered overlaps of every item, in blocks, the same for any
// thread count.
#include "box_index.hpp"
#include "box_tree_index.hpp"
#include "candidate_list.hpp"
#include "float_box.hpp"
#include "kd_tree_index.hpp"
#include "scenes.hpp"
#include "sweep_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace contact::detail {
namespace {

// The candidate code (CandidateWriter, CandidateReader): every list comes
// back as the sorted set it was, across blocks, empty lists, and masters from 0 to 2^31 - 1; lists
// of neighbouring masters, as a mesh gives them, take a few bytes a node.
TEST(CandidateCode, RoundTripsEveryListAndPacksNeighbours) {
    std::mt19937 rng(31);
    constexpr Index kMax = std::numeric_limits<Index>::max();
    for (int trial = 0; trial < 40; ++trial) {
        const bool meshLike = trial % 2 == 0;
        SCOPED_TRACE("trial " + std::to_string(trial) + (meshLike ? ", mesh-like" : ", scattered"));
        std::vector<std::vector<Index>> lists;
        std::vector<std::uint8_t> code;
        const Index nodes = 500;
        const Index blockSize = 1 + static_cast<Index>(rng() % 50);
        std::vector<std::size_t> blockStart(
            static_cast<std::size_t>((nodes + blockSize - 1) / blockSize));
        CandidateWriter writer(code, blockStart.data(), blockSize);
        Index centre = static_cast<Index>(rng() % 1000);
        for (Index k = 0; k < nodes; ++k) {
            std::vector<Index> list;
            const int n = rng() % 5 == 0 ? 0 : 1 + static_cast<int>(rng() % (meshLike ? 8 : 40));
            centre += meshLike ? static_cast<Index>(rng() % 3) : 0;
            for (int i = 0; i < n; ++i) {
                Index j = 0;
                if (meshLike) {  // a 2 x 4 patch of a grid of 1000 columns
                    j = centre + static_cast<Index>(rng() % 4) +
                        1000 * static_cast<Index>(rng() % 2);
                } else {
                    const int pick = static_cast<int>(rng() % 4);
                    j = pick == 0 ? 0 : pick == 1 ? kMax : static_cast<Index>(rng() % (1U << 31));
                }
                list.push_back(j);
            }
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
            std::vector<Index> shuffled = list;
            std::shuffle(shuffled.begin(), shuffled.end(), rng);
            writer.node(k, shuffled.data(), shuffled.data() + shuffled.size());
            lists.push_back(list);
        }
        for (std::size_t b = 0; b < blockStart.size(); ++b) {
            CandidateReader reader(code.data() + blockStart[b]);
            const std::size_t end =
                std::min(lists.size(), (b + 1) * static_cast<std::size_t>(blockSize));
            for (std::size_t k = b * static_cast<std::size_t>(blockSize); k < end; ++k) {
                std::vector<Index> got(static_cast<std::size_t>(reader.beginNode()));
                for (Index& j : got) {
                    j = reader.next();
                }
                ASSERT_EQ(got, lists[k]) << "node " << k;
            }
        }
        if (meshLike) {
            std::size_t masters = 0;
            for (const auto& l : lists) {
                masters += l.size();
            }
            EXPECT_LT(code.size() * 2, masters * sizeof(Index)) << "neighbouring masters must pack";
        }
    }
}

// Every item's masters read back from the list, block by block; each block read to its end.
std::vector<std::vector<Index>> readAll(const CandidateList& list) {
    std::vector<std::vector<Index>> out;
    for (Index b = 0; b < list.blocks(); ++b) {
        CandidateReader reader = list.reader(b);
        const Index end = std::min(list.items(), (b + 1) * list.blockSize());
        for (Index k = b * list.blockSize(); k < end; ++k) {
            std::vector<Index> got(static_cast<std::size_t>(reader.beginNode()));
            for (Index& j : got) {
                j = reader.next();
            }
            out.push_back(got);
        }
        EXPECT_EQ(reader.position(), list.blockEnd(b)) << "block " << b << " read past its end";
    }
    return out;
}

// A filter made per chunk: drops masters whose index is a multiple of (k % 5 + 2), so that what is
// kept depends on the item; counts its calls so that every item is filtered exactly once.
struct ModFilter {
    Index* operator()(Index k, Index* first, Index* last) const {
        return std::remove_if(first, last, [k](Index j) { return j % (k % 5 + 2) == 0; });
    }
};

template <class Index_>
void expectListOfIndex(const std::vector<FloatBox>& masters, const std::vector<FloatBox>& items,
                       const std::string& what) {
    SCOPED_TRACE(what);
    std::vector<std::vector<Index>> expected(items.size());
    long long total = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
        for (std::size_t j = 0; j < masters.size(); ++j) {
            const auto jj = static_cast<Index>(j);
            if (overlaps(items[k], masters[j]) && jj % (static_cast<Index>(k) % 5 + 2) != 0) {
                expected[k].push_back(jj);
            }
        }
        total += static_cast<long long>(expected[k].size());
    }
    ASSERT_GT(total, 100) << "the case must list candidates to test anything";
    const auto n = static_cast<Index>(items.size());
    const auto queryBox = [&items](Index k) { return items[k]; };
    const auto makeFilter = [] { return ModFilter{}; };
    for (const Index blockSize : {1, 7, 64, 1024}) {
        for (const int threads : {1, 2, 3}) {
            Index_ index;
            index.build(masters, threads);
            CandidateList list;
            list.setup(n, blockSize);
            list.build(index, queryBox, makeFilter, threads);
            ASSERT_EQ(list.items(), n);
            ASSERT_EQ(list.blocks(), (n + blockSize - 1) / blockSize);
            EXPECT_EQ(list.size(), total) << blockSize << " per block, " << threads << " threads";
            EXPECT_EQ(readAll(list), expected)
                << blockSize << " per block, " << threads << " threads";
            // Slots: whole bytes per block, each block room for its candidates.
            for (Index b = 0; b < list.blocks(); ++b) {
                EXPECT_EQ(list.firstSlot(b) % 8, 0U);
                std::size_t inBlock = 0;
                for (Index k = b * blockSize; k < std::min(n, (b + 1) * blockSize); ++k) {
                    inBlock += expected[k].size();
                }
                EXPECT_GE(list.firstSlot(b + 1) - list.firstSlot(b), inBlock);
                EXPECT_LT(list.firstSlot(b + 1) - list.firstSlot(b), inBlock + 8);
            }
        }
    }
}

TEST(CandidateList, BuiltFromEveryIndexHoldsTheFilteredOverlaps) {
    std::mt19937 rng(41);
    std::vector<FloatBox> masters;
    std::vector<FloatBox> items;
    for (int i = 0; i < 1500; ++i) {  // a strip: the sweep sweeps it
        const double x = 0.01 * i;
        const double y = 0.05 * std::sin(3.0 * x);
        const double lo[3] = {x - 0.01, y - 0.01, -0.01};
        const double hi[3] = {x + 0.02, y + 0.01, 0.01};
        masters.push_back(floatBoxOutward(lo, hi));
        const double p[3] = {x + testing::uniform(rng, -0.01, 0.01), y, 0.0};
        items.push_back(floatBoxOutward(p, p, 0.015));
    }
    expectListOfIndex<BruteForceIndex>(masters, items, "brute force");
    expectListOfIndex<KdTreeIndex>(masters, items, "kd-tree");
    expectListOfIndex<BoxTreeIndex>(masters, items, "box tree");
    expectListOfIndex<SweepIndex>(masters, items, "sweep");
}

// encode(): sets in memory coded as the list is (self-contact's exclusion sets).
TEST(CandidateList, EncodesSetsInMemory) {
    std::mt19937 rng(42);
    std::vector<Index> offsets{0};
    std::vector<Index> values;
    std::vector<std::vector<Index>> expected;
    for (int k = 0; k < 333; ++k) {
        std::vector<Index> set;
        for (int i = static_cast<int>(rng() % 6); i > 0; --i) {
            set.push_back(static_cast<Index>(rng() % 100000));
        }
        std::sort(set.begin(), set.end());
        set.erase(std::unique(set.begin(), set.end()), set.end());
        expected.push_back(set);
        std::shuffle(set.begin(), set.end(), rng);
        values.insert(values.end(), set.begin(), set.end());
        offsets.push_back(static_cast<Index>(values.size()));
    }
    CandidateList list;
    list.setup(333, 64);
    list.encode(offsets, values);
    EXPECT_EQ(list.size(), offsets.back());
    EXPECT_EQ(readAll(list), expected);
    CandidateList empty;
    empty.setup(0, 64);
    empty.encode({0}, values);
    EXPECT_EQ(empty.blocks(), 0);
    EXPECT_EQ(empty.size(), 0);
}

// CONTACT_ASSERT stops a read of a block the list does not have, naming the file and line, where
// assertions are on (Debug, RelWithDebInfo and sanitizer builds; CONTACT_ENABLE_ASSERTS).
TEST(CandidateList, ReadingABlockBeyondTheListAsserts) {
#ifdef CONTACT_ENABLE_ASSERTS
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    CandidateList list;
    list.setup(10, 4);  // blocks 0, 1, 2
    EXPECT_DEATH(
        (void)list.reader(3),
        "candidate_list.hpp:[0-9]+: CONTACT_ASSERT\\(b >= 0 && b < blocks\\(\\)\\) failed");
#else
    GTEST_SKIP() << "assertions are off in this build (Release)";
#endif
}

}  // namespace
}  // namespace contact::detail
