// SPDX-License-Identifier: MIT
// The distributed search against the serial search, bit for bit, under mpiexec with any rank
// count: generated scenes and the shipped models, split over the ranks the way a solver might
// (segments scattered at random, nodes where their segments are, shuffled local numbering), over
// 20 moving increments with one large motion. Every rank runs the serial search on the whole
// model and compares the pairs of the slaves it owns; the pair counts summed over the ranks
// equal the serial count (no pair missing, none twice). Then the bad inputs: one rank's error is
// every rank's error.
#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"
#include "contact/segment.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"

#include "contact_mpi/distributed_mortar.hpp"
#include "contact_mpi/distributed_search.hpp"
#include "surfaces.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace contact::mpi {
namespace {

using contact::testing::addCurve;
using contact::testing::addPatch;
using contact::testing::Mesh;

int commRank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int commSize() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

long long sumOverRanks(long long v) {
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return v;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// ---- Models: global surfaces, a motion of the nodes per increment.

struct Model {
    std::string name;
    int dim = 3;
    Eigen::Matrix3Xd x0;  // global coordinates at increment 0
    Surface master;
    Surface slave;
    std::vector<Index> slaveNodes;  // a slave given as nodes (then slave is empty)
    bool self = false;
    std::vector<std::uint8_t> moves;  // 1 for nodes that move (slave side)
    Eigen::Vector3d down{0.0, 0.0, -1.0};
    double size = 1.0;  // extent of the model: the large motion is a third of it
};

// Mean master segment size: the small motions are a fraction of it.
double cellSize(const Model& m) {
    const Eigen::Matrix3Xd& x = m.x0;
    double sum = 0.0;
    for (Index k = 0; k < m.master.size(); ++k) {
        sum += characteristicSize(gatherSegment(m.master, k, CoordinatesView(x)));
    }
    return sum / m.master.size();
}

std::vector<std::uint8_t> movingNodes(const Surface& s, Index n) {
    std::vector<std::uint8_t> m(static_cast<std::size_t>(n), 0);
    for (Index v : s.connectivity) {
        m[v] = 1;
    }
    return m;
}

Model flat() {
    Model m;
    m.name = "flat";
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad4, 12, 12,
        [](double u, double v) { return Eigen::Vector3d(2 * u - 1, 2 * v - 1, 0.0); }, false,
        "master");
    m.slave = addPatch(
        mesh, SegmentType::Quad4, 11, 10,
        [](double u, double v) { return Eigen::Vector3d(1.8 * u - 0.93, 1.7 * v - 0.8, 0.05); },
        true, "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    m.size = 2.0;
    return m;
}

Model wavy() {
    Model m;
    m.name = "wavy";
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Tri3, 10, 9,
        [](double u, double v) {
            return Eigen::Vector3d(2 * u - 1, 2 * v - 1, 0.06 * std::sin(6 * u) * std::cos(4 * v));
        },
        false, "master", true);
    m.slave = addPatch(
        mesh, SegmentType::Quad4, 13, 12,
        [](double u, double v) {
            return Eigen::Vector3d(1.9 * u - 0.97, 1.9 * v - 0.95,
                                   0.04 + 0.05 * std::cos(5 * u + 1) * std::sin(3 * v));
        },
        true, "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    m.size = 2.0;
    return m;
}

Model graded() {
    Model m;
    m.name = "graded";
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad4, 16, 6,
        [](double u, double v) {
            return Eigen::Vector3d(2 * testing::graded(u, 100.0) - 1, 2 * v - 1, 0.0);
        },
        false, "master");
    m.slave = addPatch(
        mesh, SegmentType::Quad4, 12, 7,
        [](double u, double v) { return Eigen::Vector3d(1.9 * u - 0.95, 1.9 * v - 0.9, 0.03); },
        true, "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    m.size = 2.0;
    return m;
}

// Curved quadratic faces: a cylinder patch of Quad8 under a Quad9 / Tri6 patch.
Model quadratic() {
    Model m;
    m.name = "quadratic";
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad8, 7, 6,
        [](double u, double v) {
            const double a = 1.2 * (u - 0.5);
            return Eigen::Vector3d(std::sin(a), 2 * v - 1, std::cos(a) - 1.0);
        },
        false, "master");
    m.slave = addPatch(
        mesh, SegmentType::Tri6, 6, 6,
        [](double u, double v) {
            const double a = 1.1 * (u - 0.5);
            return Eigen::Vector3d(1.02 * std::sin(a), 1.8 * v - 0.9, 1.02 * std::cos(a) - 0.99);
        },
        true, "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    m.size = 1.0;
    return m;
}

// 2D: a Line3 arc over a Line2 line.
Model planar() {
    Model m;
    m.name = "2d";
    m.dim = 2;
    Mesh mesh;
    m.master = addCurve(
        mesh, SegmentType::Line2, 30,
        [](double u) { return Eigen::Vector2d(2 * u - 1, 0.02 * std::sin(7 * u)); }, false,
        "master");
    m.slave = addCurve(
        mesh, SegmentType::Line3, 17,
        [](double u) {
            const double a = 2.0 * (u - 0.5);
            return Eigen::Vector2d(0.8 * std::sin(a), 0.9 - 0.88 * std::cos(a));
        },
        true, "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    m.down = Eigen::Vector3d(0.0, -1.0, 0.0);
    m.size = 2.0;
    return m;
}

// Self-contact: a sheet folded in a U, its upper leg sagging onto the lower one.
Model folded() {
    Model m;
    m.name = "self";
    m.self = true;
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad4, 24, 6,
        [](double u, double v) {
            const double s = 3.0 * u;  // along the sheet: lower leg, bend, upper leg
            if (s < 1.0) {
                return Eigen::Vector3d(s, 2 * v - 1, 0.0);
            }
            if (s < 2.0) {
                const double a = 3.14159265358979 * (s - 1.0);
                return Eigen::Vector3d(1.0 + 0.12 * std::sin(a), 2 * v - 1,
                                       0.12 - 0.12 * std::cos(a));
            }
            return Eigen::Vector3d(1.0 - (s - 2.0), 2 * v - 1, 0.24);
        },
        false, "sheet");
    m.slave = m.master;
    m.x0 = mesh.coords3();
    m.moves.assign(static_cast<std::size_t>(m.x0.cols()), 0);
    for (Index i = 0; i < m.x0.cols(); ++i) {
        m.moves[i] = m.x0(2, i) > 0.2 && m.x0(0, i) < 0.9 ? 1 : 0;  // the upper leg
    }
    m.size = 1.0;
    return m;
}

Model shipped(const std::string& file, const std::string& masterName,
              const std::string& slaveName) {
    const mesh_io::Model model =
        mesh_io::readModel(std::string(CONTACT_EXAMPLES_DATA_DIR) + "/" + file);
    const mesh_io::ContactSurface master = mesh_io::buildContactSurface(model, masterName);
    const mesh_io::ContactSurface slave = mesh_io::buildContactSurface(model, slaveName);
    Model m;
    m.name = file;
    m.dim = master.dim;
    m.x0 = model.coords;
    m.master = master.surface;
    if (slave.nodeSurface) {
        m.slaveNodes = slave.nodes;
        m.moves.assign(static_cast<std::size_t>(m.x0.cols()), 0);
        for (Index v : slave.nodes) {
            m.moves[v] = 1;
        }
    } else {
        m.slave = slave.surface;
        m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    }
    // Masters move the other way, so both sides' nodes move.
    if (m.dim == 2) {
        m.down = Eigen::Vector3d(0.0, -1.0, 0.0);
    }
    const Eigen::Vector3d lo = m.x0.rowwise().minCoeff();
    const Eigen::Vector3d hi = m.x0.rowwise().maxCoeff();
    m.size = (hi - lo).maxCoeff();
    return m;
}

// Coordinates at increment t: moving nodes go down and sideways a little every increment, with a
// shear (not rigid); at increment 10 they jump sideways by a third of the model (the large
// motion that forces a new partition). The others stay.
Eigen::Matrix3Xd coordinatesAt(const Model& m, int t) {
    Eigen::Matrix3Xd x = m.x0;
    const double step = 0.012 * cellSize(m);
    for (Index i = 0; i < x.cols(); ++i) {
        if (m.moves[i] == 0) {
            continue;
        }
        Eigen::Vector3d d = m.down * (step * t);
        d[0] += step * t * (0.3 + 0.2 * std::sin(3.0 * m.x0(1, i) / m.size));  // shear
        if (m.dim == 3) {
            d[1] += 0.5 * step * t;
        }
        if (t >= 10) {
            d[0] += m.size / 3.0;
        }
        x.col(i) += d;
    }
    if (m.dim == 2) {
        x.row(2).setZero();
    }
    return x;
}

// ---- One rank's part, as a solver with its own partition would give it.

struct Part {
    RankNodes nodes;
    std::vector<Index> global;  // global node index of each local node
    SurfacePart master;
    SurfacePart slave;
    std::vector<Index> slaveNodes;
    std::vector<int> ownerOf;  // per global node: the owning rank
    // Slave segment k's global id: scale * k + shift (partOf gives k; a test may renumber).
    GlobalId slaveIdScale = 1;
    GlobalId slaveIdShift = 0;
};

enum class Split { kScattered, kAllOnRankZero };

// A self-contact model's slave part goes where its master part goes, unless `selfApart`.
Part partOf(const Model& m, int rank, int size, Split split, bool flags, unsigned seed,
            bool selfApart = false) {
    std::mt19937 rng(seed);
    const auto rankOf = [&]() {
        return split == Split::kScattered ? static_cast<int>(rng() % size) : 0;
    };
    std::vector<int> masterRank(m.master.size());
    std::vector<int> slaveRank(m.slave.size());
    for (int& r : masterRank) {
        r = rankOf();
    }
    for (int& r : slaveRank) {
        r = rankOf();
    }
    const Index n = static_cast<Index>(m.x0.cols());
    std::vector<std::vector<int>> holders(static_cast<std::size_t>(n));
    const auto hold = [&](const Surface& s, const std::vector<int>& ranks) {
        for (Index k = 0; k < s.size(); ++k) {
            for (int i = 0; i < nodeCount(s.types[k]); ++i) {
                holders[s.nodes(k)[i]].push_back(ranks[k]);
            }
        }
    };
    hold(m.master, masterRank);
    if (m.self && !selfApart) {
        // One surface: a solver gives the slave part where it gives the master part.
        slaveRank = masterRank;
    }
    hold(m.slave, slaveRank);
    std::vector<int> slaveNodeRank(m.slaveNodes.size());
    for (std::size_t i = 0; i < m.slaveNodes.size(); ++i) {
        slaveNodeRank[i] = rankOf();
        holders[m.slaveNodes[i]].push_back(slaveNodeRank[i]);
    }
    Part p;
    p.ownerOf.assign(static_cast<std::size_t>(n), -1);
    std::vector<Index> mine;
    for (Index g = 0; g < n; ++g) {
        auto& h = holders[g];
        std::sort(h.begin(), h.end());
        h.erase(std::unique(h.begin(), h.end()), h.end());
        if (h.empty()) {
            continue;
        }
        // Explicit flags: a holder chosen by the id; none: the lowest holder (the default rule).
        p.ownerOf[g] = flags ? h[static_cast<std::size_t>(g) % h.size()] : h.front();
        if (std::find(h.begin(), h.end(), rank) != h.end()) {
            mine.push_back(g);
        }
    }
    std::shuffle(mine.begin(), mine.end(), rng);  // the local numbering is the solver's own
    p.global = mine;
    std::vector<Index> local(static_cast<std::size_t>(n), -1);
    for (std::size_t i = 0; i < mine.size(); ++i) {
        local[mine[i]] = static_cast<Index>(i);
        p.nodes.ids.push_back(1000 + 3 * static_cast<GlobalId>(mine[i]));  // ids need not be 0..n-1
        if (flags) {
            p.nodes.owned.push_back(p.ownerOf[mine[i]] == rank ? 1 : 0);
        }
    }
    const auto take = [&](const Surface& s, const std::vector<int>& ranks, SurfacePart& out) {
        out.surface.name = s.name;
        for (Index k = 0; k < s.size(); ++k) {
            if (ranks[k] != rank) {
                continue;
            }
            Index v[kMaxSegmentNodes];
            for (int i = 0; i < nodeCount(s.types[k]); ++i) {
                v[i] = local[s.nodes(k)[i]];
            }
            out.surface.addSegment(s.types[k], v, nodeCount(s.types[k]));
            out.ids.push_back(k);  // global id = serial index
        }
    };
    take(m.master, masterRank, p.master);
    take(m.slave, slaveRank, p.slave);
    for (std::size_t i = 0; i < m.slaveNodes.size(); ++i) {
        if (slaveNodeRank[i] == rank) {
            p.slaveNodes.push_back(local[m.slaveNodes[i]]);
        }
    }
    return p;
}

GlobalId nodeId(Index g) { return 1000 + 3 * static_cast<GlobalId>(g); }

std::vector<double> localCoords(const Part& p, const Eigen::Matrix3Xd& x, int dim) {
    std::vector<double> c;
    for (Index g : p.global) {
        for (int k = 0; k < dim; ++k) {
            c.push_back(x(k, g));
        }
    }
    return c;
}

CoordinatesView viewOf(const std::vector<double>& c, int dim) {
    return CoordinatesView::interleaved(c.data(), static_cast<Index>(c.size() / dim), dim);
}

// ---- The comparison.

struct Case {
    std::string model;
    SearchMode mode;
    double captureRel;
    bool flags;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.model << (c.mode == SearchMode::kNodeToSegment ? " node" : " segment") << " capture "
        << c.captureRel << (c.flags ? " owners given" : " default owners");
}

Model modelOf(const std::string& name) {
    const std::map<std::string, std::function<Model()>> models = {
        {"flat", flat},
        {"wavy", wavy},
        {"graded", graded},
        {"quadratic", quadratic},
        {"2d", planar},
        {"self", folded},
        {"punch", [] { return shipped("punch_on_block.inp", "PunchBottom", "BlockTop"); }},
        {"sphere", [] { return shipped("sphere_on_block.msh", "SphereSurface", "BlockTop"); }},
        {"sphere_o2",
         [] { return shipped("sphere_on_block_o2.msh", "SphereSurface", "BlockTop"); }},
        {"cylinder",
         [] { return shipped("cylinder_on_block_2d.msh", "CylinderEdge", "BlockTop"); }},
        {"flat_nodes",  // the slave given as a node list (an Abaqus TYPE=NODE surface)
         [] {
             Model m = flat();
             m.name = "flat_nodes";
             m.slaveNodes = m.slave.connectivity;
             std::sort(m.slaveNodes.begin(), m.slaveNodes.end());
             m.slaveNodes.erase(std::unique(m.slaveNodes.begin(), m.slaveNodes.end()),
                                m.slaveNodes.end());
             m.slave = Surface{};
             return m;
         }},
    };
    return models.at(name)();
}

// Compares this rank's distributed pairs with the serial pairs of the slaves it owns; returns the
// number of serial pairs it owns.
long long compareNodePairs(const NodePairs& serial, const GlobalNodePairs& dist, const Part& p,
                           int rank) {
    std::vector<Index> expected;
    for (Index i = 0; i < serial.size(); ++i) {
        if (p.ownerOf[serial.slave()[i]] == rank) {
            expected.push_back(i);
        }
    }
    EXPECT_EQ(dist.size(), static_cast<Index>(expected.size()));
    const Index n = std::min(dist.size(), static_cast<Index>(expected.size()));
    int reported = 0;
    for (Index k = 0; k < n && reported < 5; ++k) {
        const Index i = expected[k];
        bool same = dist.slave()[k] == nodeId(serial.slave()[i]) &&
                    dist.master()[k] == serial.master()[i] &&
                    p.nodes.ids[dist.slaveLocal()[k]] == dist.slave()[k] &&
                    sameBits(dist.gap()[k], serial.gap()[i]) &&
                    sameBits(dist.distance()[k], serial.distance()[i]) &&
                    dist.status()[k] == serial.status()[i];
        for (int c = 0; c < 2; ++c) {
            same = same && sameBits(dist.xi()(c, k), serial.xi()(c, i));
        }
        for (int c = 0; c < 3; ++c) {
            same = same && sameBits(dist.point()(c, k), serial.point()(c, i)) &&
                   sameBits(dist.normal()(c, k), serial.normal()(c, i)) &&
                   sameBits(dist.tangent1()(c, k), serial.tangent1()(c, i)) &&
                   sameBits(dist.tangent2()(c, k), serial.tangent2()(c, i));
        }
        for (int c = 0; c < kMaxSegmentNodes; ++c) {
            same = same && sameBits(dist.shape()(c, k), serial.shape()(c, i));
        }
        EXPECT_TRUE(same) << "rank " << rank << ", pair " << k << ": slave " << dist.slave()[k]
                          << " master " << dist.master()[k] << " gap " << dist.gap()[k]
                          << "; serial: slave " << nodeId(serial.slave()[i]) << " master "
                          << serial.master()[i] << " gap " << serial.gap()[i];
        reported += same ? 0 : 1;
    }
    return static_cast<long long>(expected.size());
}

long long compareSegmentPairs(const SegmentPairs& serial, const GlobalSegmentPairs& dist,
                              const Part& p, int rank) {
    std::vector<std::pair<GlobalId, GlobalId>> expected;
    std::vector<GlobalId> given = p.slave.ids;
    std::sort(given.begin(), given.end());
    for (Index i = 0; i < serial.size(); ++i) {
        const GlobalId slave = p.slaveIdScale * serial.slave()[i] + p.slaveIdShift;
        if (std::binary_search(given.begin(), given.end(), slave)) {
            expected.emplace_back(slave, serial.master()[i]);
        }
    }
    std::vector<std::pair<GlobalId, GlobalId>> got;
    for (Index k = 0; k < dist.size(); ++k) {
        got.emplace_back(dist.slave()[k], dist.master()[k]);
        EXPECT_EQ(p.slave.ids[dist.slaveLocal()[k]], dist.slave()[k]);
    }
    EXPECT_EQ(got, expected) << "rank " << rank;
    return static_cast<long long>(expected.size());
}

// This rank's mortar rows against the serial integrator's rows of the slave nodes it owns, bit
// for bit; returns the number of serial rows it owns.
long long compareMortar(const MortarOperators& serial, const GlobalMortarOperators& dist,
                        const Part& p, int rank) {
    std::vector<std::size_t> rows;  // serial rows of the nodes this rank owns
    for (std::size_t r = 0; r < serial.nodes.size(); ++r) {
        if (p.ownerOf[serial.nodes[r]] == rank) {
            rows.push_back(r);
        }
    }
    EXPECT_EQ(dist.nodes.size(), rows.size()) << "rank " << rank;
    if (dist.nodes.size() != rows.size()) {
        return static_cast<long long>(rows.size());
    }
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const std::size_t r = rows[k];
        EXPECT_EQ(dist.nodes[k], nodeId(serial.nodes[r]));
        EXPECT_EQ(p.nodes.ids[dist.nodesLocal[k]], dist.nodes[k]);
        EXPECT_TRUE(sameBits(dist.weightedGap[k], serial.weightedGap[r])) << "row " << k;
        EXPECT_TRUE(sameBits(dist.nodalArea[k], serial.nodalArea[r])) << "row " << k;
    }
    // The entries of the owned rows, in order: row and column ids and the value's bits.
    const auto entries = [&](const SparseTriplets& m) {
        std::vector<std::tuple<GlobalId, GlobalId, std::uint64_t>> e;
        for (std::size_t i = 0; i < m.size(); ++i) {
            if (p.ownerOf[m.row[i]] == rank) {
                std::uint64_t bits = 0;
                std::memcpy(&bits, &m.value[i], sizeof bits);
                e.emplace_back(nodeId(m.row[i]), nodeId(m.col[i]), bits);
            }
        }
        return e;
    };
    const auto got = [](const GlobalTriplets& m) {
        std::vector<std::tuple<GlobalId, GlobalId, std::uint64_t>> e;
        for (std::size_t i = 0; i < m.size(); ++i) {
            std::uint64_t bits = 0;
            std::memcpy(&bits, &m.value[i], sizeof bits);
            e.emplace_back(m.row[i], m.col[i], bits);
        }
        return e;
    };
    EXPECT_EQ(got(dist.D), entries(serial.D)) << "rank " << rank;
    EXPECT_EQ(got(dist.M), entries(serial.M)) << "rank " << rank;
    return static_cast<long long>(rows.size());
}

// The serial integrator's rows on the whole interface, computed on rank 0 and sent to every rank
// (each compares the rows it owns; one serial integration keeps the test quick).
MortarOperators serialMortar(const ContactSearch& serial, const CoordinatesView& x,
                             const MortarOptions& mo) {
    MortarOperators op;
    if (commRank() == 0) {
        MortarIntegrator mi(mo);
        (void)mi.compute(serial, x);
        op = mi.operators();
    }
    long long sizes[3] = {static_cast<long long>(op.nodes.size()),
                          static_cast<long long>(op.D.size()), static_cast<long long>(op.M.size())};
    MPI_Bcast(sizes, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    const auto send = [](auto& v, long long n) {
        v.resize(static_cast<std::size_t>(n));
        using T = typename std::decay_t<decltype(v)>::value_type;
        MPI_Bcast(v.data(), static_cast<int>(n * static_cast<long long>(sizeof(T))), MPI_BYTE, 0,
                  MPI_COMM_WORLD);
    };
    send(op.nodes, sizes[0]);
    send(op.weightedGap, sizes[0]);
    send(op.nodalArea, sizes[0]);
    for (SparseTriplets* m : {&op.D, &op.M}) {
        const long long n = m == &op.D ? sizes[1] : sizes[2];
        send(m->row, n);
        send(m->col, n);
        send(m->value, n);
    }
    return op;
}

class DistributedVsSerial : public ::testing::TestWithParam<Case> {};

// Runs the serial and the distributed search side by side over `increments` increments and
// compares them on every rank (collective: every rank calls it with the same model); segment
// mode also compares the mortar rows at increment `mortarAt`.
void compareOverIncrements(const Model& m, const SearchOptions& opt, const Part& p, int increments,
                           bool expectMotion, int mortarAt = 15) {
    const int rank = commRank();
    const int size = commSize();
    ContactSearch serial(opt);
    DistributedSearch dist(MPI_COMM_WORLD, opt);
    Eigen::Matrix3Xd x = coordinatesAt(m, 0);
    Eigen::Matrix2Xd x2 = x.topRows<2>();
    const CoordinatesView gx = m.dim == 3 ? CoordinatesView(x) : CoordinatesView(x2);
    if (m.slaveNodes.empty()) {
        serial.setSurfaces(m.master, m.slave, gx);
    } else {
        serial.setSurfaces(m.master, m.slaveNodes, gx);
    }
    std::vector<double> lx = localCoords(p, x, m.dim);
    if (m.slaveNodes.empty()) {
        dist.setSurfaces(p.nodes, p.master, p.slave, viewOf(lx, m.dim));
    } else {
        dist.setSurfaces(p.nodes, p.master, p.slaveNodes, viewOf(lx, m.dim));
    }
    EXPECT_TRUE(sameBits(dist.captureDistance(), serial.captureDistance()));
    EXPECT_TRUE(sameBits(dist.skinDistance(), serial.skinDistance()));
    EXPECT_TRUE(sameBits(dist.meanMasterSize(), serial.meanMasterSize()));
    const DistributedStats& setup = dist.setupStats();
    EXPECT_TRUE(setup.repartitioned);
    if (size > 1 && m.master.size() > 20) {
        // Ghosts, not an all-gather: no rank holds the whole master surface.
        EXPECT_LT(setup.ownedMasters + setup.ghostMasters, m.master.size()) << "rank " << rank;
    }
    int repartitions = 0;
    long long totalPairs = 0;
    for (int t = 0; t < increments; ++t) {
        SCOPED_TRACE(m.name + ", increment " + std::to_string(t) + ", rank " +
                     std::to_string(rank) + " of " + std::to_string(size));
        x = coordinatesAt(m, t);
        x2 = x.topRows<2>();
        const UpdateStats ss = serial.update(m.dim == 3 ? CoordinatesView(x) : CoordinatesView(x2));
        lx = localCoords(p, x, m.dim);
        const DistributedStats ds = dist.update(viewOf(lx, m.dim));
        ASSERT_EQ(ss.status, UpdateStatus::kOk);
        ASSERT_EQ(ds.status, UpdateStatus::kOk) << ds.error;
        repartitions += ds.repartitioned ? 1 : 0;
        long long mine = 0;
        if (opt.mode == SearchMode::kNodeToSegment) {
            mine = compareNodePairs(serial.nodePairs(), dist.nodePairs(), p, rank);
            EXPECT_EQ(sumOverRanks(dist.nodePairs().size()), serial.nodePairs().size());
        } else {
            mine = compareSegmentPairs(serial.segmentPairs(), dist.segmentPairs(), p, rank);
            EXPECT_EQ(sumOverRanks(dist.segmentPairs().size()), serial.segmentPairs().size());
            // Mortar rows, bit for bit, after the large motion (a new partition): the standard
            // basis, and the dual one where it exists. One increment, on the models that cover
            // the segment types (the spheres and the graded mesh add none), keeps the test quick
            // under sanitizers.
            if (!m.self && t == mortarAt && m.name != "sphere_on_block_o2.msh" &&
                m.name != "sphere_on_block.msh" && m.name != "graded") {
                const bool linear = std::none_of(m.slave.types.begin(), m.slave.types.end(),
                                                 [](SegmentType ty) { return isQuadratic(ty); });
                for (const MortarBasis basis : {MortarBasis::kStandard, MortarBasis::kDual}) {
                    if (basis == MortarBasis::kDual && !linear) {
                        continue;
                    }
                    MortarOptions mo;
                    mo.basis = basis;
                    const MortarOperators expected = serialMortar(
                        serial, m.dim == 3 ? CoordinatesView(x) : CoordinatesView(x2), mo);
                    DistributedMortar distMortar(mo);
                    (void)distMortar.compute(dist);
                    const long long rows = compareMortar(expected, distMortar.operators(), p, rank);
                    const auto all = static_cast<long long>(expected.nodes.size());
                    EXPECT_EQ(sumOverRanks(rows), all);
                    EXPECT_EQ(
                        sumOverRanks(static_cast<long long>(distMortar.operators().nodes.size())),
                        all);
                    EXPECT_GT(all, 0);
                }
            }
        }
        EXPECT_EQ(sumOverRanks(mine), ss.pairs);
        totalPairs += ss.pairs;
    }
    EXPECT_GT(totalPairs, 0);
    if (expectMotion) {
        // The large motion needs a new partition; small steps reuse the old one (Verlet).
        EXPECT_GE(repartitions, 1);
        EXPECT_LT(repartitions, increments * 3 / 4);
    }
}

TEST_P(DistributedVsSerial, BitIdenticalOverTwentyIncrements) {
    const Case c = GetParam();
    const Model m = modelOf(c.model);
    SearchOptions opt;
    opt.mode = c.mode;
    opt.capture = c.captureRel;
    opt.selfContact = m.self;
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, c.flags, 17);
    compareOverIncrements(m, opt, p, 20, true);
}

std::vector<Case> cases() {
    std::vector<Case> v;
    for (const char* model : {"flat", "wavy", "graded", "quadratic", "2d", "self", "punch",
                              "sphere", "sphere_o2", "cylinder"}) {
        v.push_back({model, SearchMode::kNodeToSegment, 0.5, false});
        v.push_back({model, SearchMode::kSegmentToSegment, 0.5, true});
    }
    v.push_back({"flat", SearchMode::kNodeToSegment, 1.7, true});  // wide capture: many ghosts
    v.push_back({"self", SearchMode::kNodeToSegment, 1.2, true});
    v.push_back({"flat_nodes", SearchMode::kNodeToSegment, 0.5, false});
    v.push_back({"flat_nodes", SearchMode::kNodeToSegment, 0.5, true});
    return v;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string n =
        info.param.model + (info.param.mode == SearchMode::kNodeToSegment ? "_node" : "_segment");
    if (info.param.captureRel != 0.5) {
        n += "_wide";
    }
    if (info.param.flags) {
        n += "_owners";
    }
    return n;
}

INSTANTIATE_TEST_SUITE_P(Models, DistributedVsSerial, ::testing::ValuesIn(cases()), caseName);

// ---- A rank with nothing, more ranks than faces.

TEST(DistributedEdgeCases, RanksWithNoFacesGetNothingAndLoseNothing) {
    const Model m = flat();
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SearchOptions opt;
        opt.mode = mode;
        // The whole model on rank 0, as the tool reads it: the others pass empty parts.
        const Part p = partOf(m, commRank(), commSize(), Split::kAllOnRankZero, false, 3);
        compareOverIncrements(m, opt, p, 4, false, 3);  // segment mode: the mortar rows too
    }
}

// The orientation over all ranks (each rank's counts summed): in segment mode the serial search's
// verdict, for consistent surfaces and for a master given inside-out, the same on every rank; in
// node mode (the ranks hold no slave normals) unknown, with nothing judged.
TEST(DistributedOrientation, TheSerialVerdict) {
    for (const bool insideOut : {false, true}) {
        Model m = flat();
        if (insideOut) {  // every master Quad4 the other way round: its normal points into it
            for (Index s = 0; s < m.master.size(); ++s) {
                std::swap(m.master.connectivity[4 * s + 1], m.master.connectivity[4 * s + 3]);
            }
        }
        for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
            SCOPED_TRACE(std::string(insideOut ? "inside-out" : "consistent") + ", rank " +
                         std::to_string(commRank()));
            SearchOptions opt;
            opt.mode = mode;
            ContactSearch serial(opt);
            serial.setSurfaces(m.master, m.slave, CoordinatesView(m.x0));
            const UpdateStats ss = serial.update(CoordinatesView(m.x0));
            ASSERT_EQ(ss.status, UpdateStatus::kOk);
            const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 5);
            DistributedSearch dist(MPI_COMM_WORLD, opt);
            const std::vector<double> lx = localCoords(p, m.x0, 3);
            dist.setSurfaces(p.nodes, p.master, p.slave, viewOf(lx, 3));
            const DistributedStats ds = dist.update(viewOf(lx, 3));
            ASSERT_EQ(ds.status, UpdateStatus::kOk) << ds.error;
            EXPECT_EQ(ss.orientation.verdict,
                      insideOut ? Orientation::kMasterInsideOut : Orientation::kConsistent);
            EXPECT_EQ(ds.orientation.opposed, sumOverRanks(ds.local.orientation.opposed));
            EXPECT_EQ(ds.orientation.aligned, sumOverRanks(ds.local.orientation.aligned));
            if (mode == SearchMode::kSegmentToSegment) {
                EXPECT_EQ(ds.orientation.verdict, ss.orientation.verdict);
                EXPECT_GT(ds.orientation.opposed + ds.orientation.aligned, 0);
            } else {
                EXPECT_EQ(ds.orientation.verdict, Orientation::kUnknown);
                EXPECT_EQ(ds.orientation.opposed + ds.orientation.aligned, 0);
            }
        }
    }
}

// Self-contact: one surface has no master side, so no verdict, as the serial search gives. The
// summed counts made one ("consistent") of a surface made of two plates facing each other, 0.04
// apart: every pair opposed.
TEST(DistributedOrientation, SelfContactIsNotJudged) {
    Model m;
    m.name = "facing plates";
    m.self = true;
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad4, 4, 4,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.0); }, false, "plates");
    const Surface upper = addPatch(
        mesh, SegmentType::Quad4, 4, 4,
        [](double u, double v) { return Eigen::Vector3d(u, v, 0.04); }, true, "upper");
    for (Index k = 0; k < upper.size(); ++k) {
        m.master.addSegment(upper.types[k], upper.nodes(k), nodeCount(upper.types[k]));
    }
    m.slave = m.master;
    m.x0 = mesh.coords3();
    m.moves.assign(static_cast<std::size_t>(m.x0.cols()), 0);
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    opt.selfContact = true;
    opt.capture = 0.1;  // across, not within a plate beyond a segment's neighbours (0.25 on)
    opt.captureRelative = false;
    ContactSearch serial(opt);
    serial.setSurfaces(m.master, m.master, CoordinatesView(m.x0));
    const UpdateStats ss = serial.update(CoordinatesView(m.x0));
    ASSERT_EQ(ss.status, UpdateStatus::kOk);
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 23, true);
    DistributedSearch dist(MPI_COMM_WORLD, opt);
    const std::vector<double> lx = localCoords(p, m.x0, 3);
    dist.setSurfaces(p.nodes, p.master, p.slave, viewOf(lx, 3));
    const DistributedStats ds = dist.update(viewOf(lx, 3));
    ASSERT_EQ(ds.status, UpdateStatus::kOk) << ds.error;
    EXPECT_GT(ds.orientation.opposed, 0);
    EXPECT_EQ(ds.orientation.aligned, 0);
    EXPECT_EQ(ss.orientation.verdict, Orientation::kUnknown);
    EXPECT_EQ(ds.orientation.verdict, Orientation::kUnknown);
}

TEST(DistributedEdgeCases, MoreRanksThanFaces) {
    Model m;
    m.name = "three faces";
    Mesh mesh;
    m.master = addPatch(
        mesh, SegmentType::Quad4, 2, 1,
        [](double u, double v) { return Eigen::Vector3d(2 * u - 1, v, 0.0); }, false, "master");
    m.slave = addPatch(
        mesh, SegmentType::Quad4, 1, 1,
        [](double u, double v) { return Eigen::Vector3d(u - 0.4, 0.8 * v + 0.1, 0.1); }, true,
        "slave");
    m.x0 = mesh.coords3();
    m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SearchOptions opt;
        opt.mode = mode;
        opt.capture = 1.0;
        const Part p = partOf(m, commRank(), commSize(), Split::kScattered, true, 5);
        compareOverIncrements(m, opt, p, 5, false, 4);  // segment mode: the mortar rows too
    }
}

TEST(DistributedEdgeCases, OneSurfaceGivenApartOnEachRank) {
    // The same surface as master and slave, its two parts scattered over the ranks independently:
    // recognized as one surface (compared whole across ranks), searched as the serial search does.
    const Model m = folded();
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 23, true);
    SearchOptions opt;
    opt.selfContact = true;
    compareOverIncrements(m, opt, p, 3, false);
}

// One surface as master and slave, its slave segments under other global ids in the same order
// (slave k is 3k + 1, among the master ids 0 .. n - 1): the serial search's one surface, whose
// segment pairs it reports once. Each pair came twice (both ways round), for any rank count.
// The same segments in reverse id order are two surfaces, there and here.
TEST(DistributedEdgeCases, OneSurfaceUnderOtherSlaveIds) {
    const Model m = folded();
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        for (const bool apart : {false, true}) {
            SCOPED_TRACE(std::string(apart ? "given apart" : "given whole") +
                         (mode == SearchMode::kNodeToSegment ? ", node mode" : ", segment mode"));
            Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 31, apart);
            p.slaveIdScale = 3;
            p.slaveIdShift = 1;
            for (GlobalId& id : p.slave.ids) {
                id = 3 * id + 1;
            }
            SearchOptions opt;
            opt.mode = mode;
            opt.selfContact = true;
            compareOverIncrements(m, opt, p, 3, false);
        }
    }
    Model reversed = m;
    reversed.slave = Surface{};
    reversed.slave.name = m.master.name;
    for (Index k = m.master.size() - 1; k >= 0; --k) {
        reversed.slave.addSegment(m.master.types[k], m.master.nodes(k),
                                  nodeCount(m.master.types[k]));
    }
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    opt.selfContact = true;
    const Part p = partOf(reversed, commRank(), commSize(), Split::kScattered, false, 37, true);
    compareOverIncrements(reversed, opt, p, 2, false);
}

// A master edge shared by three faces (a fin standing on a strip: non-manifold, accepted by the
// serial search, which judges only edges two segments share). A rank holding two of them that
// run the edge the same way (the fin and the strip's cell left of it) used to refuse them as
// inside-out, for some splits: the slave patches at the strip's ends steer where the ranks cut.
TEST(DistributedEdgeCases, MasterEdgeSharedByThreeFaces) {
    for (const int nl : {1, 4, 7, 10}) {
        for (const int nr : {2, 5, 8, 11}) {
            Model m;
            m.name = "fin";
            Mesh mesh;
            m.master = addPatch(
                mesh, SegmentType::Quad4, 20, 2,
                [](double u, double v) { return Eigen::Vector3d(u, 0.1 * v, 0.0); }, false,
                "master");
            const auto at = [](int i, int j) { return static_cast<Index>(3 * i + j); };
            const Index top = mesh.add(Eigen::Vector3d(0.5, 0.0, 0.05));
            mesh.add(Eigen::Vector3d(0.5, 0.05, 0.05));
            mesh.add(Eigen::Vector3d(0.5, 0.1, 0.05));
            for (int j = 0; j < 2; ++j) {  // runs x = 0.5 as the cell left of it does
                m.master.addSegment(SegmentType::Quad4,
                                    {at(10, j), at(10, j + 1), top + j + 1, top + j});
            }
            const Surface left = addPatch(
                mesh, SegmentType::Quad4, nl, 1,
                [&](double u, double v) { return Eigen::Vector3d(0.05 * nl * u, 0.1 * v, 0.01); },
                true, "slave");
            const Surface right = addPatch(
                mesh, SegmentType::Quad4, nr, 1,
                [&](double u, double v) {
                    return Eigen::Vector3d(1.0 - 0.05 * nr * (1.0 - u), 0.1 * v, 0.01);
                },
                true, "slave");
            m.slave = left;
            for (Index k = 0; k < right.size(); ++k) {
                m.slave.addSegment(SegmentType::Quad4, right.nodes(k), 4);
            }
            m.x0 = mesh.coords3();
            m.moves = movingNodes(m.slave, static_cast<Index>(m.x0.cols()));
            SCOPED_TRACE("nl " + std::to_string(nl) + ", nr " + std::to_string(nr));
            const Part p = partOf(m, commRank(), commSize(), Split::kAllOnRankZero, false, 1);
            compareOverIncrements(m, SearchOptions{}, p, 2, false);
        }
    }
}

// ---- Bad input on one rank: the same error on every rank, nobody hangs.

// The message of rank 0, on every rank.
std::string fromRankZero(const std::string& message) {
    int length = static_cast<int>(message.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string first(static_cast<std::size_t>(length), ' ');
    if (commRank() == 0) {
        first = message;
    }
    MPI_Bcast(first.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return first;
}

// Runs f on every rank; returns the message it threw (std::invalid_argument), "" if none, and
// checks that every rank got the very same message.
std::string errorEverywhere(const std::function<void()>& f) {
    std::string message;
    try {
        f();
    } catch (const std::invalid_argument& e) {
        message = e.what();
    }
    EXPECT_EQ(message, fromRankZero(message)) << "rank " << commRank();
    if (commRank() == 0 && std::getenv("CONTACT_SHOW_ERRORS") != nullptr) {
        std::printf("error: %s\n", message.c_str());
    }
    return message;
}

struct FlatParts {
    Model m = flat();
    Part p;
    std::vector<double> x;
    explicit FlatParts(bool flags = false) {
        p = partOf(m, commRank(), commSize(), Split::kScattered, flags, 29);
        x = localCoords(p, m.x0, 3);
    }
    void run(DistributedSearch& s) { s.setSurfaces(p.nodes, p.master, p.slave, viewOf(x, 3)); }
};

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// Options that decide the collective steps, different on one rank: refused on every rank at
// construction (a rank in another mode waited in other collectives).
TEST(DistributedErrors, OptionsThatDifferBetweenRanks) {
    if (commSize() == 1) {
        GTEST_SKIP() << "needs two ranks";
    }
    const bool last = commRank() == commSize() - 1;
    SearchOptions mode;
    mode.mode = last ? SearchMode::kSegmentToSegment : SearchMode::kNodeToSegment;
    SearchOptions capture;
    capture.capture = last ? 0.7 : 0.5;
    SearchOptions self;
    self.selfContact = last;
    SearchOptions orientation;
    orientation.checkOrientation = !last;
    const std::pair<SearchOptions, const char*> cases[] = {
        {mode, "SearchOptions::mode"},
        {capture, "SearchOptions::capture"},
        {self, "SearchOptions::selfContact"},
        {orientation, "SearchOptions::checkOrientation"}};
    for (const auto& kase : cases) {  // (a lambda may not capture a structured binding)
        const SearchOptions& opt = kase.first;
        const char* what = kase.second;
        const std::string e = errorEverywhere([&] { DistributedSearch d(MPI_COMM_WORLD, opt); });
        EXPECT_TRUE(contains(e, what)) << e;
        EXPECT_TRUE(contains(e, "the ranks give different")) << e;
        EXPECT_TRUE(contains(e, "(rank 0 and rank " + std::to_string(commSize() - 1) + ")")) << e;
    }
    SearchOptions threads;  // may differ: how a rank runs, not what it finds
    threads.threads = last ? 2 : 1;
    EXPECT_EQ(errorEverywhere([&] { DistributedSearch d(MPI_COMM_WORLD, threads); }), "");
}

// Options the serial search refuses, given on the last rank only (threads may differ between
// ranks, so a rank cannot know the others refuse nothing): the same error on every rank, naming
// that rank. The other ranks used to wait for it in the constructor forever (a ctest timeout).
TEST(DistributedErrors, AnOptionRefusedOnOneRank) {
    const int last = commSize() - 1;
    const bool bad = commRank() == last;
    SearchOptions threads;
    threads.threads = bad ? 0 : 1;
    SearchOptions skin;
    skin.skinRelative = bad ? std::nan("") : 0.1;
    SearchOptions mode;
    mode.mode = bad ? static_cast<SearchMode>(9) : SearchMode::kNodeToSegment;
    const std::pair<SearchOptions, std::string> cases[] = {
        {threads, "threads must be 1 .. " + std::to_string(kMaxThreads) + ", got 0"},
        {skin, "skinRelative must be finite and >= 0"},
        {mode, "mode 9 is no SearchMode"}};
    for (const auto& kase : cases) {
        const SearchOptions& opt = kase.first;
        const std::string e = errorEverywhere([&] { DistributedSearch d(MPI_COMM_WORLD, opt); });
        EXPECT_EQ(e, "contact::mpi::DistributedSearch: rank " + std::to_string(last) +
                         "'s SearchOptions are refused: " + kase.second);
    }
    // The communicator duplicated before the check is freed again: a search still works.
    SearchOptions good;
    EXPECT_EQ(errorEverywhere([&] { DistributedSearch d(MPI_COMM_WORLD, good); }), "");
}

TEST(DistributedErrors, ADegenerateSegmentOnTheLastRank) {
    FlatParts u;
    if (commRank() == commSize() - 1) {
        Surface& s = u.p.master.surface;
        ASSERT_GT(s.size(), 0);
        s.connectivity[1] = s.connectivity[0];  // a repeated node: collapsed
    }
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "rank " + std::to_string(commSize() - 1) + ": master surface")) << e;
    EXPECT_TRUE(contains(e, "appears twice")) << e;
    if (commRank() == commSize() - 1) {  // named by global ids: segment 0's, its first node's
        const GlobalId node =
            u.p.nodes.ids[static_cast<std::size_t>(u.p.master.surface.connectivity[0])];
        EXPECT_TRUE(contains(e, "segment id " + std::to_string(u.p.master.ids[0]) + " (")) << e;
        EXPECT_TRUE(contains(e, ": node " + std::to_string(node) + " appears twice")) << e;
    }
    // The search is not set up: an update says so, on every rank.
    EXPECT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kNotSetUp);
}

TEST(DistributedErrors, ASegmentIdGivenTwice) {
    FlatParts u;
    // Rank 0's first master id, given again by the last rank (by rank 0 itself on one rank).
    GlobalId first = u.p.master.ids.empty() ? -1 : u.p.master.ids[0];
    MPI_Bcast(&first, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (commRank() == commSize() - 1) {
        u.p.master.ids.back() = first;
    }
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "master segment id " + std::to_string(first) + " is given by rank"))
        << e;
}

TEST(DistributedErrors, ANodeWithDifferentCoordinatesOnTwoRanks) {
    if (commSize() < 2) {
        GTEST_SKIP() << "needs two ranks";
    }
    FlatParts u;
    // A node rank 0 holds too, moved a little on the last rank only.
    const Part zero = partOf(u.m, 0, commSize(), Split::kScattered, false, 29);
    std::vector<GlobalId> zeroIds = zero.nodes.ids;
    std::sort(zeroIds.begin(), zeroIds.end());
    if (commRank() == commSize() - 1) {
        for (std::size_t i = 0; i < u.p.nodes.ids.size(); ++i) {
            if (std::binary_search(zeroIds.begin(), zeroIds.end(), u.p.nodes.ids[i])) {
                u.x[3 * i + 2] += 1e-9;
                break;
            }
        }
    }
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "has different coordinates on ranks")) << e;
}

TEST(DistributedErrors, ANodeOwnedByTwoRanksOrByNone) {
    if (commSize() < 2) {
        GTEST_SKIP() << "needs two ranks";
    }
    {
        FlatParts u(true);
        std::fill(u.p.nodes.owned.begin(), u.p.nodes.owned.end(), 1);  // everyone claims all
        DistributedSearch search(MPI_COMM_WORLD);
        EXPECT_TRUE(contains(errorEverywhere([&] { u.run(search); }), "is owned by ranks"));
    }
    {
        FlatParts u(true);
        std::fill(u.p.nodes.owned.begin(), u.p.nodes.owned.end(), 0);  // nobody owns anything
        DistributedSearch search(MPI_COMM_WORLD);
        EXPECT_TRUE(contains(errorEverywhere([&] { u.run(search); }), "but no rank owns it"));
    }
    {
        FlatParts u(true);
        if (commRank() == 0) {
            u.p.nodes.owned.clear();  // flags on some ranks only
        }
        DistributedSearch search(MPI_COMM_WORLD);
        EXPECT_TRUE(contains(errorEverywhere([&] { u.run(search); }), "ownership flags"));
    }
}

TEST(DistributedErrors, AnInsideOutSegmentOnAnyRank) {
    FlatParts u;
    // Master segment 40 turned inside out, on whichever rank holds it: its neighbours, on other
    // ranks, run their shared edges the same way.
    for (Index k = 0; k < u.p.master.surface.size(); ++k) {
        if (u.p.master.ids[k] == 40) {
            Index* v = u.p.master.surface.connectivity.data() + u.p.master.surface.offsets[k];
            std::swap(v[1], v[3]);
        }
    }
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "in the same direction: one of them is inside-out")) << e;
    // Unchecked on request (SearchOptions::checkOrientation), as the serial search: accepted.
    SearchOptions unchecked;
    unchecked.checkOrientation = false;
    DistributedSearch trusting(MPI_COMM_WORLD, unchecked);
    EXPECT_EQ(errorEverywhere([&] { u.run(trusting); }), "");
    EXPECT_EQ(trusting.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
}

TEST(DistributedErrors, ADuplicateSegmentOnTheLastRank) {
    FlatParts u;
    GlobalId next = u.p.master.ids.empty()
                        ? 0
                        : *std::max_element(u.p.master.ids.begin(), u.p.master.ids.end()) + 1;
    MPI_Allreduce(MPI_IN_PLACE, &next, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (commRank() == commSize() - 1) {
        Surface& s = u.p.master.surface;
        ASSERT_GT(s.size(), 0);
        const std::vector<Index> nodes(s.nodes(0), s.nodes(0) + 4);
        s.addSegment(SegmentType::Quad4, nodes.data(), 4);  // segment 0 again, under a new id
        u.p.master.ids.push_back(next);
    }
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "have the same nodes: a duplicate segment")) << e;
    EXPECT_TRUE(contains(e, " and " + std::to_string(next) + " ")) << e;
}

TEST(DistributedErrors, AnInsideOutLineIn2D) {
    const Model m = planar();
    Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 31);
    for (Index k = 0; k < p.master.surface.size(); ++k) {
        if (p.master.ids[k] == 12) {  // its ends now start and end where its neighbours do
            Index* v = p.master.surface.connectivity.data() + p.master.surface.offsets[k];
            std::swap(v[0], v[1]);
        }
    }
    const std::vector<double> x = localCoords(p, m.x0, 2);
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e =
        errorEverywhere([&] { search.setSurfaces(p.nodes, p.master, p.slave, viewOf(x, 2)); });
    EXPECT_TRUE(contains(e, "segment ids 11 and 12 both end at node") ||
                contains(e, "segment ids 12 and 13 both start at node"))
        << e;
    EXPECT_TRUE(contains(e, "one of them is inside-out")) << e;
}

TEST(DistributedErrors, MortarNeedsAnUpdatedSegmentSearchAndALinearSlaveForTheDualBasis) {
    const Model m = quadratic();  // Tri6 slave: no dual basis
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 37);
    const std::vector<double> x = localCoords(p, m.x0, 3);
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    DistributedSearch search(MPI_COMM_WORLD, opt);
    search.setSurfaces(p.nodes, p.master, p.slave, viewOf(x, 3));
    DistributedMortar standard;
    EXPECT_THROW((void)standard.compute(search), std::logic_error);  // not updated yet
    ASSERT_EQ(search.update(viewOf(x, 3)).status, UpdateStatus::kOk);
    EXPECT_NO_THROW((void)standard.compute(search));
    MortarOptions mo;
    mo.basis = MortarBasis::kDual;
    DistributedMortar dual(mo);
    const std::string e = errorEverywhere([&] { (void)dual.compute(search); });
    EXPECT_TRUE(contains(e, "is a Tri6")) << e;
    // The last update failed (a NaN on each rank that has nodes): no rows of coordinates it
    // refused.
    std::vector<double> bad = x;
    if (!bad.empty()) {
        bad[0] = std::nan("");
    }
    ASSERT_NE(search.update(viewOf(bad, 3)).status, UpdateStatus::kOk);
    EXPECT_THROW((void)standard.compute(search), std::logic_error);
}

// A DistributedMortar moved from on one rank: std::logic_error on every rank, naming it (it
// crashed on a null implementation there, and the others would have waited for it).
TEST(DistributedErrors, MortarMovedFromOnOneRank) {
    FlatParts u;
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    DistributedSearch search(MPI_COMM_WORLD, opt);
    u.run(search);
    ASSERT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
    const int last = commSize() - 1;
    DistributedMortar a;
    DistributedMortar b(std::move(a));
    DistributedMortar& used = commRank() == last ? a : b;
    std::string e;
    try {
        (void)used.compute(search);
    } catch (const std::logic_error& error) {
        e = error.what();
    }
    EXPECT_EQ(e, "contact::mpi::DistributedMortar::compute(): rank " + std::to_string(last) +
                     "'s DistributedMortar was moved from");
    EXPECT_NO_THROW((void)b.compute(search));  // the one moved to works, and the ranks go on
    EXPECT_GT(sumOverRanks(static_cast<long long>(b.operators().nodes.size())), 0);
}

// MortarOptions a rank refuses (threads 0; csr, not offered across ranks), given on the last
// rank only: every rank throws at compute(), naming that rank. Its constructor threw there alone
// and rank 0 waited in compute() forever (a ctest timeout).
TEST(DistributedErrors, AMortarOptionRefusedOnOneRank) {
    FlatParts u;
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    DistributedSearch search(MPI_COMM_WORLD, opt);
    u.run(search);
    ASSERT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
    const int last = commSize() - 1;
    const bool bad = commRank() == last;
    MortarOptions threads;
    threads.threads = bad ? 0 : 1;
    MortarOptions csr;
    csr.csr = bad;
    const std::pair<MortarOptions, std::string> cases[] = {
        {threads,
         "MortarIntegrator: threads must be 1 .. " + std::to_string(kMaxThreads) + ", got 0"},
        {csr, "MortarOptions::csr is not offered across ranks"}};
    for (const auto& kase : cases) {
        const MortarOptions& mo = kase.first;
        const std::string e = errorEverywhere([&] {
            DistributedMortar d(mo);
            (void)d.compute(search);
        });
        EXPECT_EQ(e, "contact::mpi::DistributedMortar::compute(): rank " + std::to_string(last) +
                         "'s MortarOptions are refused: " + kase.second);
    }
    EXPECT_EQ(errorEverywhere([&] { (void)DistributedMortar().compute(search); }), "");
}

// MortarOptions that decide the rows, different on one rank: refused on every rank (the last
// rank's rows were in the dual basis, the others' in the standard one, mixed without a word).
// Threads may differ.
TEST(DistributedErrors, MortarOptionsThatDifferBetweenRanks) {
    if (commSize() == 1) {
        GTEST_SKIP() << "needs two ranks";
    }
    FlatParts u;
    SearchOptions opt;
    opt.mode = SearchMode::kSegmentToSegment;
    DistributedSearch search(MPI_COMM_WORLD, opt);
    u.run(search);
    ASSERT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
    const int last = commSize() - 1;
    MortarOptions basis;
    basis.basis = commRank() == last ? MortarBasis::kDual : MortarBasis::kStandard;
    const std::string e = errorEverywhere([&] { (void)DistributedMortar(basis).compute(search); });
    EXPECT_EQ(e, "contact::mpi::DistributedMortar::compute(): the ranks give different "
                 "MortarOptions::basis (rank 0 and rank " +
                     std::to_string(last) + "): give every rank the same options");
    MortarOptions threads;
    threads.threads = commRank() == last ? 2 : 1;
    EXPECT_EQ(errorEverywhere([&] { (void)DistributedMortar(threads).compute(search); }), "");
}

// One surface as master and slave without selfContact: given whole, or apart (its master part
// and slave part on different ranks); its slave segments under the master's ids or others in
// the same order (they were taken for two surfaces).
TEST(DistributedErrors, OneSurfaceWithoutSelfContact) {
    const Model m = folded();
    for (const bool apart : {false, true}) {
        for (const GlobalId shift : {0, 100000}) {
            SCOPED_TRACE(std::string(apart ? "given apart" : "given whole") +
                         ", slave ids shifted by " + std::to_string(shift));
            Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 2, apart);
            for (GlobalId& id : p.slave.ids) {
                id += shift;
            }
            const std::vector<double> x = localCoords(p, m.x0, 3);
            DistributedSearch search(MPI_COMM_WORLD);  // selfContact off
            const std::string e = errorEverywhere(
                [&] { search.setSurfaces(p.nodes, p.master, p.slave, viewOf(x, 3)); });
            EXPECT_TRUE(contains(e, "master and slave are the same surface 'sheet'")) << e;
        }
    }
}

TEST(DistributedErrors, ANaNAtSetUpIsNamedByGlobalNodeId) {
    FlatParts u;
    GlobalId node = -1;
    if (commRank() == 0) {
        const Index local = u.p.master.surface.connectivity[0];
        node = u.p.nodes.ids[static_cast<std::size_t>(local)];
        u.x[static_cast<std::size_t>(3 * local + 2)] = std::nan("");
    }
    MPI_Bcast(&node, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e = errorEverywhere([&] { u.run(search); });
    EXPECT_TRUE(contains(e, "rank 0: master surface")) << e;
    EXPECT_TRUE(contains(e, ": node " + std::to_string(node) + " has a NaN or Inf coordinate"))
        << e;
}

TEST(DistributedErrors, AnUpdateWithNaNOnOneRankFailsOnAll) {
    FlatParts u;
    DistributedSearch search(MPI_COMM_WORLD);
    u.run(search);
    ASSERT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
    const Index before = search.nodePairs().size();
    std::vector<double> bad = u.x;
    if (commRank() == commSize() - 1 && !bad.empty()) {
        bad[0] = std::nan("");
    }
    const DistributedStats st = search.update(viewOf(bad, 3));
    EXPECT_EQ(st.status, UpdateStatus::kNonFiniteCoordinates);
    if (commRank() == commSize() - 1 && !bad.empty()) {  // the rank that has it names it
        EXPECT_EQ(st.local.faultNode, 0);
        EXPECT_TRUE(contains(st.error, "node id " + std::to_string(u.p.nodes.ids[0]) +
                                           " (this rank's node 0 at (nan, "))
            << st.error;
    } else {
        EXPECT_EQ(st.local.faultNode, kNoIndex);
        EXPECT_EQ(st.error, "");
    }
    EXPECT_EQ(search.nodePairs().size(), before);  // the last good pairs stay
    std::vector<double> shorter = u.x;
    if (commRank() == 0) {
        shorter.resize(shorter.size() - 3);
    }
    EXPECT_EQ(search.update(viewOf(shorter, 3)).status, UpdateStatus::kWrongNodeCount);
    EXPECT_EQ(search.update(viewOf(u.x, 3)).status, UpdateStatus::kOk);
    EXPECT_EQ(search.nodePairs().size(), before);
}

// ---- A segment that folds in an update: the same refusal on every rank, the pairs kept.

// This rank's pairs, to compare before and after a refused update.
std::vector<std::tuple<GlobalId, GlobalId, double>> pairsOf(const DistributedSearch& d) {
    std::vector<std::tuple<GlobalId, GlobalId, double>> v;
    if (d.options().mode == SearchMode::kNodeToSegment) {
        const GlobalNodePairs& p = d.nodePairs();
        for (Index k = 0; k < p.size(); ++k) {
            v.emplace_back(p.slave()[k], p.master()[k], p.gap()[k]);
        }
    } else {
        const GlobalSegmentPairs& p = d.segmentPairs();
        for (Index k = 0; k < p.size(); ++k) {
            v.emplace_back(p.slave()[k], p.master()[k], 0.0);
        }
    }
    return v;
}

// Corner 0 of segment `id` of `s` moved 0.6 of the way to corner 2: past the other diagonal, the
// quad folds at that corner.
void fold(Eigen::Matrix3Xd& x, const Surface& s, Index id) {
    const Index* v = s.nodes(id);
    x.col(v[0]) += 0.6 * (x.col(v[2]) - x.col(v[0]));
}

// A master (and in segment mode a slave) segment of the flat model folded, with small motion
// (the partition stays) and with the slave's large jump (a new partition): kDegenerateSegment on
// every rank with one message naming the segment's global id and the rank that gave it, as the
// serial search names it; the last good pairs kept; the next good update as the serial one. The
// message was a contact node's id, only on the ranks that found it, and faultSegment an index
// into a rank's share of the contact decomposition.
TEST(DistributedErrors, ASegmentFoldedInAnUpdate) {
    const Model m = flat();
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 29);
    struct FoldCase {
        SearchMode mode;
        bool slave;
        Index segment;
    };
    const FoldCase cases[] = {{SearchMode::kNodeToSegment, false, 40},
                              {SearchMode::kSegmentToSegment, false, 40},
                              {SearchMode::kSegmentToSegment, true, 30}};
    for (const FoldCase& c : cases) {
        for (const bool large : {false, true}) {
            SCOPED_TRACE(std::string(c.mode == SearchMode::kNodeToSegment ? "node" : "segment") +
                         (c.slave ? ", slave" : ", master") + " segment " +
                         std::to_string(c.segment) + (large ? ", large motion" : ", small motion") +
                         ", rank " + std::to_string(commRank()));
            SearchOptions opt;
            opt.mode = c.mode;
            opt.skinRelative = 4.0;  // the small motion and the fold stay inside the grown boxes
            ContactSearch serial(opt);
            DistributedSearch dist(MPI_COMM_WORLD, opt);
            Eigen::Matrix3Xd x = coordinatesAt(m, 0);
            serial.setSurfaces(m.master, m.slave, CoordinatesView(x));
            std::vector<double> lx = localCoords(p, x, 3);
            dist.setSurfaces(p.nodes, p.master, p.slave, viewOf(lx, 3));
            const int t = large ? 10 : 1;
            const Eigen::Matrix3Xd good = coordinatesAt(m, 1);
            lx = localCoords(p, good, 3);
            ASSERT_EQ(dist.update(viewOf(lx, 3)).status, UpdateStatus::kOk);
            const auto before = pairsOf(dist);

            Eigen::Matrix3Xd bad = coordinatesAt(m, t);
            fold(bad, c.slave ? m.slave : m.master, c.segment);
            const UpdateStats ss = serial.update(CoordinatesView(bad));
            ASSERT_EQ(ss.status, UpdateStatus::kDegenerateSegment);
            ASSERT_EQ(ss.faultInSlave, c.slave);
            ASSERT_NE(ss.faultNode, kNoIndex);
            lx = localCoords(p, bad, 3);
            const DistributedStats ds = dist.update(viewOf(lx, 3));
            EXPECT_EQ(ds.status, UpdateStatus::kDegenerateSegment) << ds.error;
            EXPECT_EQ(ds.repartitioned, large);  // a new partition, then the local refusals
            EXPECT_EQ(ds.error, fromRankZero(ds.error));
            if (commRank() == 0 && std::getenv("CONTACT_SHOW_ERRORS") != nullptr) {
                std::printf("error: %s\n", ds.error.c_str());
            }
            // The rank that gave the segment, and its index there.
            const std::vector<GlobalId>& ids = c.slave ? p.slave.ids : p.master.ids;
            const auto at = std::find(ids.begin(), ids.end(), ss.faultSegment);
            int giver = at != ids.end() ? commRank() : commSize();
            MPI_Allreduce(MPI_IN_PLACE, &giver, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            const std::string role = c.slave ? "slave" : "master";
            EXPECT_TRUE(contains(ds.error, role + " segment id " + std::to_string(ss.faultSegment) +
                                               " (rank " + std::to_string(giver) + "'s " + role +
                                               " segment "))
                << ds.error;
            EXPECT_TRUE(contains(ds.error, "collapsed or folded at corner node id " +
                                               std::to_string(nodeId(ss.faultNode)) + " at ("))
                << ds.error;
            EXPECT_EQ(ds.local.faultInSlave, c.slave);
            if (commRank() == giver) {  // indices into this rank's part and coordinates
                const auto k = static_cast<Index>(at - ids.begin());
                EXPECT_TRUE(contains(ds.error, "rank " + std::to_string(giver) + "'s " + role +
                                                   " segment " + std::to_string(k) + ")"))
                    << ds.error;
                EXPECT_EQ(ds.local.faultSegment, k);
                EXPECT_TRUE(ds.local.faultNode >= 0 &&
                            p.global[static_cast<std::size_t>(ds.local.faultNode)] == ss.faultNode)
                    << ds.local.faultNode;
            } else {
                EXPECT_EQ(ds.local.faultSegment, kNoIndex);
                EXPECT_EQ(ds.local.faultNode, kNoIndex);
            }
            EXPECT_EQ(pairsOf(dist), before);  // the last good pairs stay

            // The next good update: the serial search's pairs; after the large motion, through a
            // new partition.
            x = coordinatesAt(m, t);
            ASSERT_EQ(serial.update(CoordinatesView(x)).status, UpdateStatus::kOk);
            lx = localCoords(p, x, 3);
            const DistributedStats next = dist.update(viewOf(lx, 3));
            ASSERT_EQ(next.status, UpdateStatus::kOk) << next.error;
            if (c.mode == SearchMode::kNodeToSegment) {
                compareNodePairs(serial.nodePairs(), dist.nodePairs(), p, commRank());
            } else {
                compareSegmentPairs(serial.segmentPairs(), dist.segmentPairs(), p, commRank());
            }
        }
    }
}

// A fold on some ranks and a slave node beyond the coordinate range on another: the status the
// serial search gives, kCoordinatesOutOfRange (its box pass finds the range first), on every
// rank. The ranks' statuses were combined by their largest number: kDegenerateSegment.
TEST(DistributedErrors, OutOfRangeOutranksAFold) {
    const Model m = flat();
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 29);
    for (const SearchMode mode : {SearchMode::kNodeToSegment, SearchMode::kSegmentToSegment}) {
        SearchOptions opt;
        opt.mode = mode;
        ContactSearch serial(opt);
        DistributedSearch dist(MPI_COMM_WORLD, opt);
        Eigen::Matrix3Xd x = coordinatesAt(m, 0);
        serial.setSurfaces(m.master, m.slave, CoordinatesView(x));
        std::vector<double> lx = localCoords(p, x, 3);
        dist.setSurfaces(p.nodes, p.master, p.slave, viewOf(lx, 3));
        fold(x, m.master, 40);
        x(0, m.slave.nodes(m.slave.size() - 1)[0]) = 2e31;  // a far corner, far from master 40
        const UpdateStats ss = serial.update(CoordinatesView(x));
        ASSERT_EQ(ss.status, UpdateStatus::kCoordinatesOutOfRange);
        lx = localCoords(p, x, 3);
        const DistributedStats ds = dist.update(viewOf(lx, 3));
        EXPECT_EQ(ds.status, ss.status) << updateStatusName(ds.status) << ": " << ds.error;
        EXPECT_EQ(ds.local.faultSegment, kNoIndex);
    }
}

// A model far from the origin, too coarse for its capture distance: refused on every rank with
// the serial search's words, which name both remedies (the distributed search had its own text,
// naming only a move nearer the origin).
TEST(DistributedErrors, CoordinatesTooCoarseForTheCapture) {
    Model m = flat();
    m.x0.row(0).array() += 1e13;
    const Part p = partOf(m, commRank(), commSize(), Split::kScattered, false, 29);
    std::string expected;
    try {
        ContactSearch serial;
        serial.setSurfaces(m.master, m.slave, CoordinatesView(m.x0));
    } catch (const std::invalid_argument& e) {
        expected = e.what();
    }
    const std::size_t at = expected.find("coordinates as large as");
    ASSERT_NE(at, std::string::npos) << expected;
    expected.erase(0, at);
    EXPECT_TRUE(contains(expected, "take a capture distance of at least")) << expected;
    const std::vector<double> x = localCoords(p, m.x0, 3);
    DistributedSearch search(MPI_COMM_WORLD);
    const std::string e =
        errorEverywhere([&] { search.setSurfaces(p.nodes, p.master, p.slave, viewOf(x, 3)); });
    EXPECT_EQ(e, "contact::mpi::DistributedSearch::setSurfaces(): " + expected);
    EXPECT_EQ(search.update(viewOf(x, 3)).status, UpdateStatus::kNotSetUp);
}

}  // namespace
}  // namespace contact::mpi

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    ::testing::InitGoogleTest(&argc, argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {  // one report; failures on other ranks still fail the run (exit status)
        ::testing::GTEST_FLAG(brief) = true;
    }
    const int rc = RUN_ALL_TESTS();
#ifdef __SANITIZE_ADDRESS__
    // The leak check now, while OpenMPI's components are loaded: what they keep is reachable or
    // named (lsan_openmpi.supp); after MPI_Finalize unloads them, their blocks have no name.
    __lsan_do_leak_check();
#endif
    MPI_Finalize();
    return rc;
}
