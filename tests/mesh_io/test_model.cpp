// SPDX-License-Identifier: MIT
// readModel: format by extension, and files that cannot fit in memory refused up front.
// IdIndex (Model::nodeIndex): every form it takes checked against a std::map.
#include "mesh_io/error.hpp"
#include "mesh_io/id_index.hpp"
#include "mesh_io/model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

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
        EXPECT_NE(
            what.find("cylinder_on_block_2d.msh: the file is 0.00 GB but only 0.00 GB of memory"),
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
        EXPECT_EQ(std::string(e.what()),
                  "model.stl: unknown model format (expected a .inp, .msh, .e, .exo or .ex2 "
                  "file)");
    }
}

TEST(ReadModel, RecordsTheFilesItRead) {
    const Model m = readModel(kModel);
    ASSERT_EQ(m.files.size(), 1U);
    EXPECT_EQ(m.files[0], kModel);
}

// Names differing only in case are two surfaces in Gmsh and Exodus II files: each is found by its
// exact name, and a name matching both only ignoring case is refused with both listed, never
// resolved to one. Abaqus names ignore case: "top" finds "TOP", the preferred kind first.
TEST(ReadModel, FindSurfaceRefusesANameMatchingSeveralOnlyIgnoringCase) {
    Model m;
    m.path = "case.msh";
    m.format = "gmsh";
    m.surfaces.resize(3);
    m.surfaces[0].name = "Top";
    m.surfaces[1].name = "TOP";
    m.surfaces[2].name = "Bottom";
    EXPECT_EQ(m.findSurface("Top"), &m.surfaces[0]);
    EXPECT_EQ(m.findSurface("TOP"), &m.surfaces[1]);
    EXPECT_EQ(m.findSurface("bottom"), &m.surfaces[2]);
    EXPECT_EQ(m.findSurface("Side"), nullptr);
    try {
        (void)m.findSurface("top");
        ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "physical group 'top' matches several names when case is ignored "
                               "(Top, TOP): give one exactly as case.msh writes it");
    }
    m.format = "exodus";
    EXPECT_THROW((void)m.findSurface("tOp", true), std::invalid_argument);

    Model a;
    a.format = "abaqus";
    a.surfaces.resize(2);
    a.surfaces[0].name = "TOP";
    a.surfaces[0].nodeSurface = true;
    a.surfaces[1].name = "Top";
    EXPECT_EQ(a.findSurface("top"), &a.surfaces[1]);
    EXPECT_EQ(a.findSurface("top", true), &a.surfaces[0]);
}

TEST(ReadModel, FindNodeMapsEveryIdToItsIndex) {
    const Model m = readModel(kModel);
    ASSERT_GT(m.numNodes(), 0);
    for (Index i = 0; i < m.numNodes(); ++i) {
        EXPECT_EQ(m.findNode(m.nodeIds[static_cast<std::size_t>(i)]), i);
    }
    const long largest = *std::max_element(m.nodeIds.begin(), m.nodeIds.end());
    EXPECT_EQ(m.findNode(largest + 1), contact::kNoIndex);
    EXPECT_EQ(m.findNode(0), contact::kNoIndex);
    EXPECT_EQ(m.findNode(-1), contact::kNoIndex);
}

// ---------------------------------------------------------------------------------------------
// IdIndex against a std::map: the same answer for every id inserted, erased or never seen.

constexpr long kMin = std::numeric_limits<long>::min();
constexpr long kMax = std::numeric_limits<long>::max();

struct Checked {
    IdIndex index;
    std::map<long, Index> ref;

    // Inserts into both; the index must agree with the map on whether the id was new.
    void insert(long id, Index i) {
        const bool fresh = ref.emplace(id, i).second;
        ASSERT_EQ(index.insert(id, i), fresh) << "id " << id;
    }
    void erase(long id) {
        ref.erase(id);
        index.erase(id);
    }
    // Every id in the map, its neighbours, and the extremes.
    ::testing::AssertionResult agrees() const {
        if (index.size() != ref.size()) {
            return ::testing::AssertionFailure() << "size " << index.size() << " vs " << ref.size();
        }
        const auto expect = [this](long id) {
            const auto it = ref.find(id);
            return it == ref.end() ? contact::kNoIndex : it->second;
        };
        std::vector<long> probes = {kMin, kMin + 1, -1, 0, 1, kMax - 1, kMax};
        for (const auto& [id, i] : ref) {
            probes.push_back(id);
            probes.push_back(id == kMin ? id : id - 1);
            probes.push_back(id == kMax ? id : id + 1);
        }
        for (const long id : probes) {
            if (index.find(id) != expect(id)) {
                return ::testing::AssertionFailure()
                       << "id " << id << ": " << index.find(id) << " vs " << expect(id);
            }
        }
        std::size_t visited = 0;
        bool same = true;
        index.forEach([&](long id, Index i) {
            ++visited;
            same = same && expect(id) == i;
        });
        if (!same || visited != ref.size()) {
            return ::testing::AssertionFailure() << "forEach visits other mappings";
        }
        return ::testing::AssertionSuccess();
    }
};

std::vector<long> shuffled(std::vector<long> ids, unsigned seed) {
    std::mt19937 rng(seed);
    std::shuffle(ids.begin(), ids.end(), rng);
    return ids;
}

std::vector<long> range(long first, long count, long step = 1) {
    std::vector<long> ids(static_cast<std::size_t>(count));
    for (long k = 0; k < count; ++k) {
        ids[static_cast<std::size_t>(k)] = first + k * step;
    }
    return ids;
}

// Inserts ids in order with indices 0, 1, ...; checks before and after compact().
void insertAll(Checked& c, const std::vector<long>& ids) {
    for (std::size_t k = 0; k < ids.size(); ++k) {
        c.insert(ids[k], static_cast<Index>(k));
    }
    EXPECT_TRUE(c.agrees());
    c.index.compact();
    EXPECT_TRUE(c.agrees()) << "after compact()";
}

TEST(IdIndex, DenseIdsStayInTheTableAtFourBytesAnId) {
    Checked c;
    insertAll(c, range(1, 100000));
    EXPECT_TRUE(c.index.isDense());
    EXPECT_EQ(c.index.memoryBytes(), 100000 * sizeof(Index));
}

TEST(IdIndex, DenseIdsFarFromZeroStayInTheTable) {
    Checked c;
    insertAll(c, range(kMax - 5000, 5001));
    EXPECT_TRUE(c.index.isDense());
    Checked d;
    insertAll(d, range(kMin, 5000));
    EXPECT_TRUE(d.index.isDense());
}

TEST(IdIndex, ShuffledDenseIdsEndInTheTable) {
    Checked c;
    insertAll(c, shuffled(range(1, 200000), 7));
    EXPECT_TRUE(c.index.isDense());
    EXPECT_EQ(c.index.memoryBytes(), 200000 * sizeof(Index));
}

TEST(IdIndex, RangesInReverseOrderEndInTheTable) {
    std::vector<long> ids;
    for (long part = 9; part >= 0; --part) {  // parts numbered 1.., 20001.., read backwards
        const std::vector<long> p = range(part * 20000 + 1, 20000);
        ids.insert(ids.end(), p.begin(), p.end());
    }
    Checked c;
    insertAll(c, ids);
    EXPECT_TRUE(c.index.isDense());
}

TEST(IdIndex, SparseIdsUseTheSortedArray) {
    Checked c;
    insertAll(c, range(5, 50000, 1000));  // increasing, 1000 apart: never a hash map
    EXPECT_FALSE(c.index.isDense());
    EXPECT_EQ(c.index.memoryBytes(), 50000 * (sizeof(long) + sizeof(Index)));
}

TEST(IdIndex, RandomIdsOverTheWholeRange) {
    std::mt19937_64 rng(11);
    std::vector<long> ids = {kMin, kMax, 0, -1, 1, kMin + 1, kMax - 1};
    for (int k = 0; k < 20000; ++k) {
        ids.push_back(static_cast<long>(rng()));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    Checked c;
    insertAll(c, shuffled(ids, 3));
    EXPECT_FALSE(c.index.isDense());
    IdIndex inOrder;  // the same mappings inserted by increasing id
    for (const auto& [id, i] : c.ref) {
        inOrder.insert(id, i);
    }
    EXPECT_TRUE(c.index == inOrder);
}

TEST(IdIndex, NegativeIdsAndZero) {
    Checked c;
    insertAll(c, shuffled(range(-1000, 2001), 5));  // -1000 .. 1000
    EXPECT_TRUE(c.index.isDense());
    Checked d;
    insertAll(d, {-5, kMin, 0, kMax, -7});
    EXPECT_FALSE(d.index.isDense());
}

TEST(IdIndex, DuplicatesAreRefusedAndKeepTheFirstIndex) {
    // Each form: the table, the sorted array, and ids still waiting in the hash map.
    for (const std::vector<long>& ids :
         {range(1, 1000), range(1, 1000, 100000), shuffled(range(1, 1000, 100000), 2)}) {
        Checked c;
        for (std::size_t k = 0; k < ids.size(); ++k) {
            c.insert(ids[k], static_cast<Index>(k));
        }
        for (std::size_t k = 0; k < ids.size(); k += 7) {
            EXPECT_FALSE(c.index.insert(ids[k], 12345));
        }
        EXPECT_TRUE(c.agrees());
        c.index.compact();
        for (std::size_t k = 0; k < ids.size(); k += 7) {
            EXPECT_FALSE(c.index.insert(ids[k], 12345));
        }
        EXPECT_TRUE(c.agrees());
    }
}

TEST(IdIndex, EraseThenInsertAgain) {
    for (const std::vector<long>& ids :
         {range(1, 3000), range(1, 3000, 100000), shuffled(range(1, 3000, 100000), 4)}) {
        Checked c;
        for (std::size_t k = 0; k < ids.size(); ++k) {
            c.insert(ids[k], static_cast<Index>(k));
        }
        for (std::size_t k = 0; k < ids.size(); k += 3) {
            c.erase(ids[k]);
        }
        c.erase(-42);  // never inserted: nothing happens
        EXPECT_TRUE(c.agrees());
        for (std::size_t k = 0; k < ids.size(); k += 6) {
            c.insert(ids[k], static_cast<Index>(100000 + k));
        }
        EXPECT_TRUE(c.agrees());
        c.index.compact();
        EXPECT_TRUE(c.agrees()) << "after compact()";
        for (std::size_t k = 1; k < ids.size(); k += 3) {
            c.erase(ids[k]);
        }
        EXPECT_TRUE(c.agrees()) << "erased after compact()";
    }
}

TEST(IdIndex, RandomOperationsMatchAMap) {
    std::mt19937_64 rng(17);
    for (int round = 0; round < 20; ++round) {
        // Ids drawn from a window whose width decides the form: dense, borderline or sparse.
        const long widths[] = {500, 200000, 1L << 40, kMax};
        const long width = widths[round % 4];
        const long base = static_cast<long>(rng() % 1000) - 500;
        Checked c;
        for (int op = 0; op < 4000; ++op) {
            const long id = base + static_cast<long>(rng() % static_cast<unsigned long>(width));
            if (rng() % 4 == 0) {
                c.erase(id);
            } else {
                c.insert(id, static_cast<Index>(op));
            }
            if (op % 1000 == 999) {
                ASSERT_TRUE(c.agrees()) << "round " << round << ", op " << op;
                if (rng() % 2 == 0) {
                    c.index.compact();
                    ASSERT_TRUE(c.agrees()) << "after compact(), round " << round;
                }
            }
        }
    }
}

TEST(IdIndex, ClearFreesEverything) {
    Checked c;
    insertAll(c, shuffled(range(1, 10000, 1000), 9));
    c.index.clear();
    c.ref.clear();
    EXPECT_TRUE(c.agrees());
    EXPECT_EQ(c.index.memoryBytes(), 0U);
    insertAll(c, range(3, 10));  // usable again
    EXPECT_TRUE(c.index.isDense());
}

TEST(IdIndex, EqualityComparesMappingsNotForms) {
    IdIndex a;
    IdIndex b;
    for (long id = 1; id <= 100; ++id) {
        a.insert(id, static_cast<Index>(id));
    }
    for (long id = 100; id >= 1; --id) {  // descending: b goes through the hash map
        b.insert(id, static_cast<Index>(id));
    }
    EXPECT_TRUE(a == b);
    b.erase(50);
    EXPECT_TRUE(a != b);
    b.insert(50, 51);
    EXPECT_TRUE(a != b);
}

}  // namespace
}  // namespace mesh_io
