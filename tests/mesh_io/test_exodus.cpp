// SPDX-License-Identifier: MIT
// readExodus: the same two bodies written as Exodus II (with the exodusII library's own write
// API), Abaqus .inp and Gmsh .msh, for hexahedra, tetrahedra and wedges (linear and quadratic)
// and 2D quadrilaterals and triangles, give the same pairs. Faces on each side are found from the
// manuals' tables (Exodus II side lists, Abaqus face lists), not from the reader. Bad files give
// a ParseError naming the file and the block or set.
#include "contact/contact_search.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/error.hpp"
#include "mesh_io/exodus.hpp"
#include "mesh_io/interfaces.hpp"
#include "mesh_io/model.hpp"

#include "scratch.hpp"

#include <Eigen/Geometry>
#include <exodusII.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <netcdf.h>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;

fs::path scratchDir() {
    return contact::testing::scratchDir(CONTACT_TEST_BUILD_DATA_DIR, "exodus_scratch");
}

// ---------------------------------------------------------------------------------------------
// The manuals' tables (1-based corner nodes): Exodus II sides (SEACAS), Abaqus faces (Abaqus
// Analysis User's Guide, *SURFACE; the same in CalculiX's manual).

using Table = std::vector<std::vector<int>>;
const Table kExodusHex = {{1, 2, 6, 5}, {2, 3, 7, 6}, {3, 4, 8, 7},
                          {1, 5, 8, 4}, {1, 4, 3, 2}, {5, 6, 7, 8}};
const Table kAbaqusHex = {{1, 2, 3, 4}, {5, 8, 7, 6}, {1, 5, 6, 2},
                          {2, 6, 7, 3}, {3, 7, 8, 4}, {4, 8, 5, 1}};
const Table kExodusTet = {{1, 2, 4}, {2, 3, 4}, {1, 4, 3}, {1, 3, 2}};
const Table kAbaqusTet = {{1, 2, 3}, {1, 4, 2}, {2, 4, 3}, {3, 4, 1}};
const Table kExodusWedge = {{1, 2, 5, 4}, {2, 3, 6, 5}, {1, 4, 6, 3}, {1, 3, 2}, {4, 5, 6}};
const Table kAbaqusWedge = {{1, 2, 3}, {4, 5, 6}, {1, 2, 5, 4}, {2, 3, 6, 5}, {3, 1, 4, 6}};
const Table kEdgesQuad = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};  // Exodus and Abaqus alike
const Table kEdgesTri = {{1, 2}, {2, 3}, {3, 1}};

// Midside nodes: the corner pairs of each, in the numbering of each format.
using Edges = std::vector<std::pair<int, int>>;
const Edges kHexAbaqusMid = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {5, 6}, {6, 7},
                             {7, 8}, {8, 5}, {1, 5}, {2, 6}, {3, 7}, {4, 8}};
const Edges kHexExodusMid = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {1, 5}, {2, 6},
                             {3, 7}, {4, 8}, {5, 6}, {6, 7}, {7, 8}, {8, 5}};
const Edges kTetMid = {{1, 2}, {2, 3}, {3, 1}, {1, 4}, {2, 4}, {3, 4}};
const Edges kWedgeAbaqusMid = {{1, 2}, {2, 3}, {3, 1}, {4, 5}, {5, 6},
                               {6, 4}, {1, 4}, {2, 5}, {3, 6}};
const Edges kWedgeExodusMid = {{1, 2}, {2, 3}, {3, 1}, {1, 4}, {2, 5},
                               {3, 6}, {4, 5}, {5, 6}, {6, 4}};
const Edges kQuadMid = {{1, 2}, {2, 3}, {3, 4}, {4, 1}};
const Edges kTriMid = {{1, 2}, {2, 3}, {3, 1}};

// One element family as each format names and numbers it.
struct Family {
    const char* name;    // test name
    int dim;             // 2 or 3
    const char* exodus;  // Exodus type
    const char* abaqus;  // Abaqus type
    int gmshVolume;      // linear Gmsh type of the element (orientation only needs corners)
    int gmshFace[2];     // Gmsh type of a face: linear, quadratic
    int corners;
    bool quadratic;
    const Table* exodusSides;
    const Table* abaqusFaces;
    const Edges* exodusMid;
    const Edges* abaqusMid;
};

const Family kFamilies[] = {
    {"hex8", 3, "HEX8", "C3D8", 5, {3, 16}, 8, false, &kExodusHex, &kAbaqusHex, nullptr, nullptr},
    {"hex20",
     3,
     "HEX20",
     "C3D20",
     5,
     {3, 16},
     8,
     true,
     &kExodusHex,
     &kAbaqusHex,
     &kHexExodusMid,
     &kHexAbaqusMid},
    {"tet4", 3, "TETRA4", "C3D4", 4, {2, 9}, 4, false, &kExodusTet, &kAbaqusTet, nullptr, nullptr},
    {"tet10",
     3,
     "TETRA10",
     "C3D10",
     4,
     {2, 9},
     4,
     true,
     &kExodusTet,
     &kAbaqusTet,
     &kTetMid,
     &kTetMid},
    {"wedge6",
     3,
     "WEDGE6",
     "C3D6",
     6,
     {2, 9},
     6,
     false,
     &kExodusWedge,
     &kAbaqusWedge,
     nullptr,
     nullptr},
    {"wedge15",
     3,
     "WEDGE15",
     "C3D15",
     6,
     {2, 9},
     6,
     true,
     &kExodusWedge,
     &kAbaqusWedge,
     &kWedgeExodusMid,
     &kWedgeAbaqusMid},
    {"quad4", 2, "QUAD4", "CPE4", 3, {1, 8}, 4, false, &kEdgesQuad, &kEdgesQuad, nullptr, nullptr},
    {"quad8",
     2,
     "QUAD8",
     "CPE8",
     3,
     {1, 8},
     4,
     true,
     &kEdgesQuad,
     &kEdgesQuad,
     &kQuadMid,
     &kQuadMid},
    {"tri3", 2, "TRI3", "CPE3", 2, {1, 8}, 3, false, &kEdgesTri, &kEdgesTri, nullptr, nullptr},
    {"tri6", 2, "TRI6", "CPE6", 2, {1, 8}, 3, true, &kEdgesTri, &kEdgesTri, &kTriMid, &kTriMid},
};

void PrintTo(const Family& f, std::ostream* os) { *os << f.name; }

// ---------------------------------------------------------------------------------------------
// Two bodies: A below, B above it 0.1 away, with cells that do not match A's. Nodes are shared by
// position; ids are 1000 + 3 k (not 1..n, so the node number map is tested).

struct Mesh {
    int dim = 3;
    std::vector<Eigen::Vector3d> x;
    std::map<std::array<long, 3>, int> at;  // rounded position -> node (0-based)
    struct Element {
        std::vector<int> corners;  // 0-based nodes
    };
    std::vector<Element> elements[2];  // A, B

    int node(const Eigen::Vector3d& p) {
        const std::array<long, 3> key{std::lround(p.x() * 1e6), std::lround(p.y() * 1e6),
                                      std::lround(p.z() * 1e6)};
        const auto [it, added] = at.emplace(key, static_cast<int>(x.size()));
        if (added) {
            x.push_back(p);
        }
        return it->second;
    }
    static long nodeId(int n) { return 1000 + 3L * n; }
    static long elementId(int body, std::size_t e) {
        return 100 * (body + 1) + static_cast<long>(e) + 1;
    }
};

double signedVolume(const Mesh& m, const std::vector<int>& c) {
    return (m.x[c[1]] - m.x[c[0]]).cross(m.x[c[2]] - m.x[c[0]]).dot(m.x[c[3]] - m.x[c[0]]);
}

// Cells of a box split into the family's elements, corners in the manuals' order (positive
// orientation: the first face's right-hand normal points into the element).
void addBody(Mesh& m, const Family& f, int body, const Eigen::Vector3d& lo,
             const Eigen::Vector3d& hi, int nx, int ny, int nz) {
    const auto p = [&](double u, double v, double w) {
        return m.node(lo + Eigen::Vector3d(u * (hi.x() - lo.x()), v * (hi.y() - lo.y()),
                                           w * (hi.z() - lo.z())));
    };
    for (int k = 0; k < std::max(nz, 1); ++k) {
        for (int j = 0; j < ny; ++j) {
            for (int i = 0; i < nx; ++i) {
                const double u0 = double(i) / nx, u1 = double(i + 1) / nx;
                const double v0 = double(j) / ny, v1 = double(j + 1) / ny;
                if (f.dim == 2) {
                    const int c[4] = {p(u0, v0, 0), p(u1, v0, 0), p(u1, v1, 0), p(u0, v1, 0)};
                    if (f.corners == 4) {
                        m.elements[body].push_back({{c[0], c[1], c[2], c[3]}});
                    } else {
                        m.elements[body].push_back({{c[0], c[1], c[2]}});
                        m.elements[body].push_back({{c[0], c[2], c[3]}});
                    }
                    continue;
                }
                const double w0 = double(k) / nz, w1 = double(k + 1) / nz;
                const int c[8] = {p(u0, v0, w0), p(u1, v0, w0), p(u1, v1, w0), p(u0, v1, w0),
                                  p(u0, v0, w1), p(u1, v0, w1), p(u1, v1, w1), p(u0, v1, w1)};
                if (f.corners == 8) {
                    m.elements[body].push_back({{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]}});
                } else if (f.corners == 6) {
                    m.elements[body].push_back({{c[0], c[1], c[2], c[4], c[5], c[6]}});
                    m.elements[body].push_back({{c[0], c[2], c[3], c[4], c[6], c[7]}});
                } else {  // six tetrahedra around the diagonal c0-c6
                    const int ring[] = {1, 2, 3, 7, 4, 5, 1};
                    for (int t = 0; t < 6; ++t) {
                        std::vector<int> tet = {c[0], c[ring[t]], c[ring[t + 1]], c[6]};
                        if (signedVolume(m, tet) < 0) {
                            std::swap(tet[1], tet[2]);
                        }
                        m.elements[body].push_back({tet});
                    }
                }
            }
        }
    }
}

Mesh twoBodies(const Family& f) {
    Mesh m;
    m.dim = f.dim;
    if (f.dim == 3) {
        addBody(m, f, 0, {0, 0, 0}, {2, 2, 1}, 2, 2, 1);
        addBody(m, f, 1, {0.3, 0.2, 1.1}, {1.8, 1.7, 2.1}, 2, 2, 1);
    } else {
        addBody(m, f, 0, {0, 0, 0}, {2, 1, 0}, 3, 1, 0);
        addBody(m, f, 1, {0.3, 1.1, 0}, {1.7, 2.1, 0}, 2, 1, 0);
    }
    return m;
}

// The full node list of an element in a format's numbering: corners, then midsides.
std::vector<int> nodesOf(Mesh& m, const Mesh::Element& e, const Edges* mid) {
    std::vector<int> n = e.corners;
    if (mid != nullptr) {
        for (const auto& [a, b] : *mid) {
            n.push_back(m.node(0.5 * (m.x[e.corners[a - 1]] + m.x[e.corners[b - 1]])));
        }
    }
    return n;
}

// The faces (element index, face number of `table`) of a body lying in the plane coordinate
// `axis` = value; also the face's nodes in the table's order for Gmsh.
struct Face {
    std::size_t element;
    int number;
    std::vector<int> corners;
};

std::vector<Face> facesOn(const Mesh& m, int body, const Table& table, int axis, double value) {
    std::vector<Face> out;
    for (std::size_t e = 0; e < m.elements[body].size(); ++e) {
        const std::vector<int>& c = m.elements[body][e].corners;
        for (std::size_t f = 0; f < table.size(); ++f) {
            bool on = true;
            std::vector<int> corners;
            for (const int local : table[f]) {
                corners.push_back(c[local - 1]);
                on = on && std::abs(m.x[c[local - 1]][axis] - value) < 1e-9;
            }
            if (on) {
                out.push_back({e, static_cast<int>(f + 1), corners});
            }
        }
    }
    return out;
}

constexpr double kTopA = 1.0;
constexpr double kBottomB = 1.1;

// ---------------------------------------------------------------------------------------------
// Writers.

void check(int status, const char* what) { ASSERT_GE(status, 0) << what; }

void writeExodus(const std::string& path, Mesh& m, const Family& f) {
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
    ASSERT_GE(id, 0);
    std::vector<std::vector<int>> conn[2];
    for (int b = 0; b < 2; ++b) {
        for (const auto& e : m.elements[b]) {
            conn[b].push_back(nodesOf(m, e, f.exodusMid));
        }
    }
    const int axis = f.dim == 3 ? 2 : 1;
    const std::vector<Face> top = facesOn(m, 0, *f.exodusSides, axis, kTopA);
    const std::vector<Face> bottom = facesOn(m, 1, *f.exodusSides, axis, kBottomB);
    const auto nodes = static_cast<int64_t>(m.x.size());
    const auto elements = static_cast<int64_t>(conn[0].size() + conn[1].size());
    check(ex_put_init(id, "two bodies", f.dim, nodes, elements, 2, 1, 2), "init");
    std::vector<double> xyz[3];
    for (const auto& p : m.x) {
        for (int d = 0; d < 3; ++d) {
            xyz[d].push_back(p[d]);
        }
    }
    check(ex_put_coord(id, xyz[0].data(), xyz[1].data(), f.dim == 3 ? xyz[2].data() : nullptr),
          "coordinates");
    std::vector<int> nodeMap;
    for (int n = 0; n < nodes; ++n) {
        nodeMap.push_back(static_cast<int>(Mesh::nodeId(n)));
    }
    check(ex_put_id_map(id, EX_NODE_MAP, nodeMap.data()), "node map");
    std::vector<int> elementMap;
    for (int b = 0; b < 2; ++b) {
        const int block = 10 * (b + 1);
        const int npe = static_cast<int>(conn[b][0].size());
        check(ex_put_block(id, EX_ELEM_BLOCK, block, f.exodus, static_cast<int64_t>(conn[b].size()),
                           npe, 0, 0, 0),
              "block");
        std::vector<int> flat;
        for (std::size_t e = 0; e < conn[b].size(); ++e) {
            for (const int n : conn[b][e]) {
                flat.push_back(n + 1);
            }
            elementMap.push_back(static_cast<int>(Mesh::elementId(b, e)));
        }
        check(ex_put_conn(id, EX_ELEM_BLOCK, block, flat.data(), nullptr, nullptr), "conn");
    }
    check(ex_put_id_map(id, EX_ELEM_MAP, elementMap.data()), "element map");
    char blockA[] = "A";
    char blockB[] = "B";
    char* blockNames[] = {blockA, blockB};
    check(ex_put_names(id, EX_ELEM_BLOCK, blockNames), "block names");
    const std::size_t firstB = m.elements[0].size();
    for (int s = 0; s < 2; ++s) {
        const std::vector<Face>& faces = s == 0 ? top : bottom;
        std::vector<int> elems;
        std::vector<int> sides;
        for (const Face& face : faces) {
            elems.push_back(static_cast<int>(face.element + (s == 0 ? 0 : firstB) + 1));
            sides.push_back(face.number);
        }
        check(ex_put_set_param(id, EX_SIDE_SET, s + 1, static_cast<int64_t>(elems.size()), 0),
              "side set");
        check(ex_put_set(id, EX_SIDE_SET, s + 1, elems.data(), sides.data()), "side set list");
    }
    char top1[] = "A_TOP";
    char bottom2[] = "B_BOTTOM";
    char* sideNames[] = {top1, bottom2};
    check(ex_put_names(id, EX_SIDE_SET, sideNames), "side set names");
    std::set<int> slaveNodes;  // B's nodes on its bottom, a node set without a name
    for (const Face& face : bottom) {
        for (const int n : face.corners) {
            slaveNodes.insert(n + 1);
        }
    }
    const std::vector<int> nodeSet(slaveNodes.begin(), slaveNodes.end());
    check(ex_put_set_param(id, EX_NODE_SET, 7, static_cast<int64_t>(nodeSet.size()), 0),
          "node set");
    check(ex_put_set(id, EX_NODE_SET, 7, nodeSet.data(), nullptr), "node set list");
    check(ex_close(id), "close");
}

void writeInp(const std::string& path, Mesh& m, const Family& f) {
    std::ostringstream out;
    out.precision(17);
    std::ostringstream elements;
    for (int b = 0; b < 2; ++b) {
        elements << "*ELEMENT, TYPE=" << f.abaqus << ", ELSET=" << (b == 0 ? "A" : "B") << "\n";
        for (std::size_t e = 0; e < m.elements[b].size(); ++e) {
            const std::vector<int> n = nodesOf(m, m.elements[b][e], f.abaqusMid);
            elements << Mesh::elementId(b, e);
            for (std::size_t k = 0; k < n.size(); ++k) {
                elements << (k > 0 && k % 15 == 0 ? ",\n" : ", ") << Mesh::nodeId(n[k]);
            }
            elements << "\n";
        }
    }
    out << "*NODE\n";
    for (std::size_t n = 0; n < m.x.size(); ++n) {
        out << Mesh::nodeId(static_cast<int>(n)) << ", " << m.x[n].x() << ", " << m.x[n].y() << ", "
            << m.x[n].z() << "\n";
    }
    out << elements.str();
    const int axis = f.dim == 3 ? 2 : 1;
    for (int s = 0; s < 2; ++s) {
        out << "*SURFACE, NAME=" << (s == 0 ? "A_TOP" : "B_BOTTOM") << "\n";
        for (const Face& face : facesOn(m, s, *f.abaqusFaces, axis, s == 0 ? kTopA : kBottomB)) {
            out << Mesh::elementId(s, face.element) << ", S" << face.number << "\n";
        }
    }
    std::ofstream(path) << out.str();
}

// MSH 2.2: linear volume elements (the reader orients faces by their corners), the contact faces
// as surface elements (quadratic ones with their midside nodes) in physical groups.
void writeMsh(const std::string& path, Mesh& m, const Family& f) {
    std::vector<std::string> lines;
    const int axis = f.dim == 3 ? 2 : 1;
    long next = 1;
    for (int b = 0; b < 2; ++b) {
        for (const auto& e : m.elements[b]) {
            std::ostringstream l;
            l << next++ << " " << f.gmshVolume << " 2 0 " << (b + 1);
            for (const int n : e.corners) {
                l << " " << Mesh::nodeId(n);
            }
            lines.push_back(l.str());
        }
    }
    for (int s = 0; s < 2; ++s) {
        // The faces of the Abaqus table, in any orientation: the reader turns them outward.
        for (const Face& face : facesOn(m, s, *f.abaqusFaces, axis, s == 0 ? kTopA : kBottomB)) {
            const int n = static_cast<int>(face.corners.size());
            const Edges mid = n == 2 ? Edges{{1, 2}} : n == 4 ? kQuadMid : kTriMid;
            const int type = n == 2   ? f.gmshFace[f.quadratic]
                             : n == 4 ? (f.quadratic ? 16 : 3)
                                      : (f.quadratic ? 9 : 2);
            std::ostringstream l;
            l << next++ << " " << type << " 2 " << (s + 11) << " " << (s + 11);
            for (const int c : face.corners) {
                l << " " << Mesh::nodeId(c);
            }
            if (f.quadratic) {
                for (const auto& [a, b] : mid) {
                    l << " "
                      << Mesh::nodeId(
                             m.node(0.5 * (m.x[face.corners[a - 1]] + m.x[face.corners[b - 1]])));
                }
            }
            lines.push_back(l.str());
        }
    }
    std::ostringstream out;
    out.precision(17);
    out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n"
        << f.dim - 1 << " 11 \"A_TOP\"\n"
        << f.dim - 1 << " 12 \"B_BOTTOM\"\n$EndPhysicalNames\n$Nodes\n"
        << m.x.size() << "\n";
    for (std::size_t n = 0; n < m.x.size(); ++n) {
        out << Mesh::nodeId(static_cast<int>(n)) << " " << m.x[n].x() << " " << m.x[n].y() << " "
            << m.x[n].z() << "\n";
    }
    out << "$EndNodes\n$Elements\n" << lines.size() << "\n";
    for (const std::string& l : lines) {
        out << l << "\n";
    }
    out << "$EndElements\n";
    std::ofstream(path) << out.str();
}

// ---------------------------------------------------------------------------------------------
// The pairs of B's bottom on A's top: (slave node id, the master segment's corner node ids) and
// the gap.

using Pairs = std::map<std::pair<long, std::vector<long>>, double>;

Pairs pairsOf(const Model& m, const std::string& slave, bool nodes = false) {
    InterfaceDef d;
    d.slave = slave;
    d.master = "A_TOP";
    d.source = {m.path, 0};
    PreparedInterface p = prepareInterface(m, d);
    EXPECT_EQ(p.slave.nodeSurface, nodes);
    contact::SearchOptions opt;
    opt.capture = 0.3;
    opt.captureRelative = false;
    contact::ContactSearch search(opt);
    const Eigen::Matrix2Xd xy = m.coords.topRows<2>();
    const contact::CoordinatesView x =
        p.master.dim == 3 ? contact::CoordinatesView(m.coords) : contact::CoordinatesView(xy);
    if (nodes) {
        search.setSurfaces(p.master.surface, p.slave.nodes, x);
    } else {
        search.setSurfaces(p.master.surface, p.slave.surface, x);
    }
    EXPECT_EQ(search.update(x).status, contact::UpdateStatus::kOk);
    Pairs out;
    const contact::NodePairs& pairs = search.nodePairs();
    for (Index i = 0; i < pairs.size(); ++i) {
        const Index s = pairs.master()[i];
        std::vector<long> corners;
        for (int k = 0; k < contact::cornerCount(p.master.surface.types[s]); ++k) {
            corners.push_back(m.nodeIds[static_cast<std::size_t>(p.master.surface.nodes(s)[k])]);
        }
        std::sort(corners.begin(), corners.end());
        out[{m.nodeIds[static_cast<std::size_t>(pairs.slave()[i])], corners}] = pairs.gap()[i];
    }
    return out;
}

::testing::AssertionResult samePairs(const Pairs& a, const Pairs& b) {
    if (a.size() != b.size()) {
        return ::testing::AssertionFailure() << a.size() << " pairs vs " << b.size();
    }
    for (const auto& [key, gap] : a) {
        const auto it = b.find(key);
        if (it == b.end()) {
            return ::testing::AssertionFailure() << "node " << key.first << " has no twin pair";
        }
        if (std::abs(gap - it->second) > 1e-13) {
            return ::testing::AssertionFailure()
                   << "node " << key.first << ": gap " << gap << " vs " << it->second;
        }
    }
    return ::testing::AssertionSuccess();
}

class ExodusTwins : public ::testing::TestWithParam<Family> {};

TEST_P(ExodusTwins, SamePairsAsTheInpAndMshTwins) {
    const Family& f = GetParam();
    Mesh mesh = twoBodies(f);
    const fs::path dir = scratchDir();
    const std::string exo = (dir / "bodies.exo").string();
    const std::string inp = (dir / "bodies.inp").string();
    const std::string msh = (dir / "bodies.msh").string();
    writeExodus(exo, mesh, f);
    writeInp(inp, mesh, f);
    writeMsh(msh, mesh, f);
    const Model e = readModel(exo);
    EXPECT_EQ(e.format, "exodus");
    ASSERT_EQ(e.numNodes(), static_cast<Index>(mesh.x.size()));
    EXPECT_EQ(e.nodeIds[1], 1003);
    ASSERT_EQ(e.blocks.size(), 2U);
    EXPECT_EQ(e.blocks[1].ids.front(), 201);
    EXPECT_EQ(e.elementSets.count("A"), 1U);
    ASSERT_NE(e.findSurface("A_TOP"), nullptr);
    ASSERT_NE(e.findSurface("nodeset_7"), nullptr);
    EXPECT_TRUE(e.findSurface("nodeset_7")->nodeSurface);
    const Pairs fromExodus = pairsOf(e, "B_BOTTOM");
    const Pairs fromInp = pairsOf(readModel(inp), "B_BOTTOM");
    const Pairs fromMsh = pairsOf(readModel(msh), "B_BOTTOM");
    EXPECT_FALSE(fromExodus.empty());
    for (const auto& [key, gap] : fromExodus) {
        EXPECT_NEAR(gap, 0.1, 1e-14) << "node " << key.first;
    }
    EXPECT_TRUE(samePairs(fromExodus, fromInp));
    EXPECT_TRUE(samePairs(fromExodus, fromMsh));
    // The node set of B's bottom corners pairs as those nodes do in the face surface.
    const Pairs fromNodes = pairsOf(e, "nodeset_7", true);
    for (const auto& [key, gap] : fromNodes) {
        const auto it = fromExodus.find(key);
        ASSERT_NE(it, fromExodus.end()) << key.first;
        EXPECT_EQ(gap, it->second);
    }
}

INSTANTIATE_TEST_SUITE_P(Families, ExodusTwins, ::testing::ValuesIn(kFamilies),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------------------------
// Bad files.

// A unit hex (8 nodes) with one side set; `edit` changes the arrays before they are written.
struct Small {
    std::string type = "HEX8";
    int npe = 8;
    std::vector<int> conn{1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<int> nodeMap{1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<int> elementMap;  // written when not empty
    std::vector<int> sideElements{1};
    std::vector<int> sides{6};
    std::vector<int> nodeSet{5, 6};
    bool names = true;
    std::string name = "top";  // of the side set
    bool coordinates = true;   // false: defined by ex_put_init, never written
    bool flat = false;         // every node at z = 0 (nodes 5-8 on nodes 1-4)
    int mode = 0;              // more ex_create flags: EX_NETCDF4 for an HDF5-based file
};

std::string writeSmall(const fs::path& dir, const Small& s) {
    const std::string path = (dir / "small.exo").string();
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER | s.mode, &cpu, &io);
    EXPECT_GE(id, 0);
    const double x[] = {0, 1, 1, 0, 0, 1, 1, 0};
    const double y[] = {0, 0, 1, 1, 0, 0, 1, 1};
    const double z[] = {
        0, 0, 0, 0, s.flat ? 0.0 : 1.0, s.flat ? 0.0 : 1.0, s.flat ? 0.0 : 1.0, s.flat ? 0.0 : 1.0};
    if (s.name.size() > 32) {  // the library's default; before ex_put_init, which sizes len_name
        EXPECT_GE(ex_set_max_name_length(id, static_cast<int>(s.name.size())), 0);
    }
    EXPECT_GE(ex_put_init(id, "small", 3, 8, 1, 1, 1, 1), 0);
    if (s.coordinates) {
        EXPECT_GE(ex_put_coord(id, x, y, z), 0);
    }
    EXPECT_GE(ex_put_id_map(id, EX_NODE_MAP, s.nodeMap.data()), 0);
    EXPECT_GE(ex_put_block(id, EX_ELEM_BLOCK, 10, s.type.c_str(), 1, s.npe, 0, 0, 0), 0);
    EXPECT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 10, s.conn.data(), nullptr, nullptr), 0);
    if (!s.elementMap.empty()) {
        EXPECT_GE(ex_put_id_map(id, EX_ELEM_MAP, s.elementMap.data()), 0);
    }
    EXPECT_GE(ex_put_set_param(id, EX_SIDE_SET, 3, static_cast<int64_t>(s.sides.size()), 0), 0);
    EXPECT_GE(ex_put_set(id, EX_SIDE_SET, 3, s.sideElements.data(), s.sides.data()), 0);
    EXPECT_GE(ex_put_set_param(id, EX_NODE_SET, 4, static_cast<int64_t>(s.nodeSet.size()), 0), 0);
    EXPECT_GE(ex_put_set(id, EX_NODE_SET, 4, s.nodeSet.data(), nullptr), 0);
    if (s.names) {
        std::string name = s.name;
        char* names[] = {name.data()};
        EXPECT_GE(ex_put_names(id, EX_SIDE_SET, names), 0);
    }
    EXPECT_GE(ex_close(id), 0);
    return path;
}

std::string errorOf(const std::string& path) {
    try {
        (void)readExodus(path);
    } catch (const ParseError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(e.line(), 0);
        return e.what();
    }
    return "no ParseError";
}

TEST(ExodusReader, ReadsTheSmallFileWithItsNames) {
    const fs::path dir = scratchDir();
    const Model m = readExodus(writeSmall(dir, Small{}));
    EXPECT_TRUE(exodusSupported());
    ASSERT_EQ(m.numNodes(), 8);
    EXPECT_EQ(m.coords.col(6), Eigen::Vector3d(1, 1, 1));
    ASSERT_EQ(m.blocks.size(), 1U);
    EXPECT_EQ(m.blocks[0].type, "EXODUS:HEX8");
    EXPECT_EQ(m.blocks[0].ids, (std::vector<long>{1}));
    EXPECT_EQ(m.elementSets.count("block_10"), 1U);
    ASSERT_EQ(m.surfaces.size(), 2U);
    EXPECT_EQ(m.surfaces[0].name, "nodeset_4");
    EXPECT_EQ(m.surfaces[0].nodes, (std::vector<Index>{4, 5}));
    EXPECT_EQ(m.surfaces[1].name, "top");
    ASSERT_EQ(m.surfaces[1].faces.size(), 1U);
    EXPECT_EQ(m.surfaces[1].faces[0].face, 6);  // the side number as in the file
    Small unnamed;
    unnamed.names = false;
    EXPECT_EQ(readExodus(writeSmall(dir, unnamed)).surfaces[1].name, "sideset_3");
}

// Sets are sets: a side set listing one (element, side) twice and a node set listing one node
// twice read without the repeats (the first appearance kept, as from Abaqus), and search: the
// repeated side would be a duplicate segment, which the search refuses.
TEST(ExodusReader, RepeatsInASetAreDropped) {
    Small s;
    s.sideElements = {1, 1};
    s.sides = {6, 6};
    s.nodeSet = {7, 5, 7, 6, 5};
    const Model m = readExodus(writeSmall(scratchDir(), s));
    ASSERT_EQ(m.surfaces.size(), 2U);
    EXPECT_EQ(m.surfaces[0].nodes, (std::vector<Index>{6, 4, 5}));
    EXPECT_EQ(m.nodeSets.at("nodeset_4"), (std::vector<Index>{6, 4, 5}));
    ASSERT_EQ(m.surfaces[1].faces.size(), 1U);
    EXPECT_EQ(m.surfaces[1].faces[0].face, 6);
    InterfaceDef d;
    d.slave = "nodeset_4";
    d.master = "top";
    d.source = {m.path, 0};
    const PreparedInterface p = prepareInterface(m, d);
    ASSERT_EQ(p.master.surface.size(), 1);
    ASSERT_EQ(p.slave.nodes.size(), 3U);
    contact::SearchOptions opt;
    opt.capture = 0.1;
    opt.captureRelative = false;
    contact::ContactSearch search(opt);
    const contact::CoordinatesView x(m.coords);
    search.setSurfaces(p.master.surface, p.slave.nodes, x);
    ASSERT_EQ(search.update(x).status, contact::UpdateStatus::kOk);
    ASSERT_EQ(search.nodePairs().size(), 3);  // the top nodes, each on its own face
    for (Index i = 0; i < 3; ++i) {
        EXPECT_EQ(search.nodePairs().gap()[i], 0.0);
    }
}

// A name longer than 32 characters is read whole, also from a file without the
// maximum_name_length attribute (the library then says 32): the name arrays' length decides.
TEST(ExodusReader, ReadsNamesLongerThan32Characters) {
    Small s;
    s.name = "the_top_face_of_the_unit_hexahedron_in_this_file";  // 48 characters
    const std::string path = writeSmall(scratchDir(), s);
    EXPECT_EQ(readExodus(path).surfaces[1].name, s.name);
    int nc = -1;
    ASSERT_EQ(nc_open(path.c_str(), NC_WRITE, &nc), NC_NOERR);
    ASSERT_EQ(nc_redef(nc), NC_NOERR);
    ASSERT_EQ(nc_del_att(nc, NC_GLOBAL, "maximum_name_length"), NC_NOERR);
    ASSERT_EQ(nc_close(nc), NC_NOERR);
    EXPECT_EQ(readExodus(path).surfaces[1].name, s.name);
}

// A node set and a side set of one name (Cubit writes such): --master X --slave X searches the
// node set against the side set in node mode, not the side set against itself; in segment mode,
// and for an interface marked as self-contact, it stays the side set's self-contact.
TEST(ExodusReader, NodeSetAndSideSetOfOneNameAreTwoSurfaces) {
    const std::string path = (scratchDir() / "same_name.exo").string();
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
    ASSERT_GE(id, 0);
    // Two unit hexes, the upper 0.05 above the lower.
    constexpr std::array<std::pair<double, double>, 4> kCorners{{{0, 0}, {1, 0}, {1, 1}, {0, 1}}};
    std::vector<double> x, y, z;
    std::vector<int> conn[2];
    for (int e = 0; e < 2; ++e) {
        for (const double h : {e * 1.05, e * 1.05 + 1}) {
            for (const auto& [a, b] : kCorners) {
                x.push_back(a);
                y.push_back(b);
                z.push_back(h);
                conn[e].push_back(static_cast<int>(x.size()));
            }
        }
    }
    ASSERT_GE(ex_put_init(id, "same name", 3, 16, 2, 2, 1, 1), 0);
    ASSERT_GE(ex_put_coord(id, x.data(), y.data(), z.data()), 0);
    for (const int b : {1, 2}) {
        ASSERT_GE(ex_put_block(id, EX_ELEM_BLOCK, b, "HEX8", 1, 8, 0, 0, 0), 0);
        ASSERT_GE(ex_put_conn(id, EX_ELEM_BLOCK, b, conn[b - 1].data(), nullptr, nullptr), 0);
    }
    const int element = 1;
    const int side = 6;                   // the lower hex's top
    const int nodes[] = {9, 10, 11, 12};  // the upper hex's bottom
    ASSERT_GE(ex_put_set_param(id, EX_SIDE_SET, 1, 1, 0), 0);
    ASSERT_GE(ex_put_set(id, EX_SIDE_SET, 1, &element, &side), 0);
    ASSERT_GE(ex_put_set_param(id, EX_NODE_SET, 1, 4, 0), 0);
    ASSERT_GE(ex_put_set(id, EX_NODE_SET, 1, nodes, nullptr), 0);
    char name[] = "contact";
    char* names[] = {name};
    ASSERT_GE(ex_put_names(id, EX_SIDE_SET, names), 0);
    ASSERT_GE(ex_put_names(id, EX_NODE_SET, names), 0);
    ASSERT_GE(ex_close(id), 0);

    const Model m = readExodus(path);
    InterfaceDef d;  // as the command line makes it
    d.slave = "contact";
    d.master = "contact";
    d.source = {m.path, 0};
    EXPECT_FALSE(searchedAsSelfContact(m, d));
    const PreparedInterface p = prepareInterface(m, d);
    EXPECT_FALSE(p.selfContact);
    ASSERT_TRUE(p.slave.nodeSurface);
    EXPECT_EQ(p.slave.nodes, (std::vector<Index>{8, 9, 10, 11}));
    ASSERT_EQ(p.master.surface.size(), 1);
    contact::SearchOptions opt;
    opt.capture = 0.1;
    opt.captureRelative = false;
    contact::ContactSearch search(opt);
    const contact::CoordinatesView view(m.coords);
    search.setSurfaces(p.master.surface, p.slave.nodes, view);
    ASSERT_EQ(search.update(view).status, contact::UpdateStatus::kOk);
    ASSERT_EQ(search.nodePairs().size(), 4);
    for (Index i = 0; i < 4; ++i) {
        EXPECT_NEAR(search.nodePairs().gap()[i], 0.05, 1e-14);
    }
    // Segment mode takes the side set as the slave too: its self-contact.
    const PreparedInterface segments =
        prepareInterface(m, d, contact::SearchMode::kSegmentToSegment);
    EXPECT_TRUE(segments.selfContact);
    EXPECT_FALSE(segments.slave.nodeSurface);
    // Marked as self-contact (a *CONTACT PAIR naming one surface): the side set against itself.
    d.selfContact = true;
    EXPECT_TRUE(searchedAsSelfContact(m, d));
    const PreparedInterface self = prepareInterface(m, d);
    EXPECT_TRUE(self.selfContact);
    EXPECT_FALSE(self.slave.nodeSurface);
}

// A QUAD block in a 3D file is a 2D continuum whose sides are its edges, line segments, which
// the search takes in the xy plane: searched when every node is at z = 0, refused (naming the
// side and the node) when one is not, never flattened onto z = 0.
TEST(ExodusReader, QuadSidesIn3dAreSearchedOnlyInThePlane) {
    const fs::path dir = scratchDir();
    Small s;
    s.type = "QUAD4";
    s.npe = 4;
    s.conn = {1, 2, 3, 4};
    s.sides = {1};
    std::string path = writeSmall(dir, s);
    const Model raised = readExodus(path);
    try {
        (void)buildContactSurface(raised, "top");
        ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path + ": surface 'top': face 1 of element 1 (QUAD4) is an edge of a 2D "
                         "element: edges of 2D elements are line segments, which the search "
                         "takes only in a planar model (every node at z = 0; node 5 is at z = "
                         "1); in 3D they are not searched");
    }
    s.flat = true;
    path = writeSmall(dir, s);
    const ContactSurface planar = buildContactSurface(readExodus(path), "top");
    EXPECT_EQ(planar.dim, 2);
    ASSERT_EQ(planar.surface.size(), 1);
    EXPECT_EQ(planar.surface.types[0], contact::SegmentType::Line2);
    EXPECT_EQ(planar.surface.connectivity, (std::vector<Index>{0, 1}));
}

// Pyramids and 27-node hexahedra, which Abaqus has not: one element of each, every side a side
// set, its segment checked against the SEACAS tables (exodus-element-types.md: corners in the
// listed, outward order; midside nodes on the PATRAN edges; HEX27's face centres 22-27) by where
// the file puts the nodes, not by the reader's own tables.
TEST(ExodusReader, PyramidAndHex27SidesAreTheManualsFaces) {
    struct Case {
        const char* type;
        std::vector<Eigen::Vector3d> corners;
        Edges mid;                            // 1-based corner pairs of the midside nodes, in order
        std::vector<std::vector<int>> faces;  // the side table, 1-based corners (centre node last)
        bool centres;                         // HEX27: node 21 the centroid, 22-27 face centres
    };
    const std::vector<Eigen::Vector3d> base = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
    std::vector<Eigen::Vector3d> pyramid = base;
    pyramid.emplace_back(1, 1, 1.5);
    std::vector<Eigen::Vector3d> hex = base;
    for (const Eigen::Vector3d& c : base) {
        hex.emplace_back(c + Eigen::Vector3d(0, 0, 2));
    }
    const Table pyramidSides = {{1, 2, 5}, {2, 3, 5}, {3, 4, 5}, {4, 1, 5}, {1, 4, 3, 2}};
    const Edges pyramidMid = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {1, 5}, {2, 5}, {3, 5}, {4, 5}};
    const std::vector<Case> cases = {
        {"PYRAMID", pyramid, {}, pyramidSides, false},
        {"PYRAMID13", pyramid, pyramidMid, pyramidSides, false},
        {"HEX27", hex, kHexExodusMid, kExodusHex, true},
    };
    const fs::path dir = scratchDir();
    for (const Case& c : cases) {
        std::vector<Eigen::Vector3d> x = c.corners;
        for (const auto& [a, b] : c.mid) {
            x.push_back(0.5 *
                        (x[static_cast<std::size_t>(a - 1)] + x[static_cast<std::size_t>(b - 1)]));
        }
        Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
        for (const Eigen::Vector3d& p : c.corners) {
            centroid += p / static_cast<double>(c.corners.size());
        }
        const auto faceCentre = [&](const std::vector<int>& f) {
            Eigen::Vector3d m = Eigen::Vector3d::Zero();
            for (const int k : f) {
                m += x[static_cast<std::size_t>(k - 1)] / static_cast<double>(f.size());
            }
            return m;
        };
        if (c.centres) {  // 21 centroid, then the faces 1-4-3-2, 5-6-7-8, 1-5-8-4, 2-3-7-6, ...
            x.push_back(centroid);
            for (const int side : {5, 6, 4, 2, 1, 3}) {
                x.push_back(faceCentre(c.faces[static_cast<std::size_t>(side - 1)]));
            }
        }
        const int n = static_cast<int>(x.size());
        const int sides = static_cast<int>(c.faces.size());
        const std::string path = (dir / "one.exo").string();
        int cpu = sizeof(double);
        int io = sizeof(double);
        const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
        ASSERT_GE(id, 0);
        std::vector<double> xs, ys, zs;
        std::vector<int> conn, ids;
        for (int i = 0; i < n; ++i) {
            xs.push_back(x[static_cast<std::size_t>(i)].x());
            ys.push_back(x[static_cast<std::size_t>(i)].y());
            zs.push_back(x[static_cast<std::size_t>(i)].z());
            conn.push_back(i + 1);
            ids.push_back(101 + i);
        }
        ASSERT_GE(ex_put_init(id, "one", 3, n, 1, 1, 0, sides), 0);
        ASSERT_GE(ex_put_coord(id, xs.data(), ys.data(), zs.data()), 0);
        ASSERT_GE(ex_put_id_map(id, EX_NODE_MAP, ids.data()), 0);
        ASSERT_GE(ex_put_block(id, EX_ELEM_BLOCK, 1, c.type, 1, n, 0, 0, 0), 0);
        ASSERT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 1, conn.data(), nullptr, nullptr), 0);
        for (int side = 1; side <= sides; ++side) {
            const int element = 1;
            ASSERT_GE(ex_put_set_param(id, EX_SIDE_SET, side, 1, 0), 0);
            ASSERT_GE(ex_put_set(id, EX_SIDE_SET, side, &element, &side), 0);
        }
        ASSERT_GE(ex_close(id), 0);
        const Model m = readExodus(path);
        for (int side = 1; side <= sides; ++side) {
            SCOPED_TRACE(std::string(c.type) + " side " + std::to_string(side));
            const ContactSurface cs = buildContactSurface(m, "sideset_" + std::to_string(side));
            ASSERT_EQ(cs.surface.size(), 1);
            const std::vector<int>& f = c.faces[static_cast<std::size_t>(side - 1)];
            const contact::SegmentType t = cs.surface.types[0];
            const int nc = contact::cornerCount(t);
            ASSERT_EQ(nc, static_cast<int>(f.size()));
            EXPECT_EQ(contact::nodeCount(t), c.centres ? 9 : c.mid.empty() ? nc : 2 * nc);
            const Index* nodes = cs.surface.nodes(0);
            const auto at = [&](int k) { return m.coords.col(nodes[k]).eval(); };
            // The listed corners in their order, from any of them.
            const auto first =
                std::find(f.begin(), f.end(), m.nodeIds[static_cast<std::size_t>(nodes[0])] - 100);
            ASSERT_NE(first, f.end());
            const auto shift = first - f.begin();
            for (int k = 0; k < nc; ++k) {
                EXPECT_EQ(m.nodeIds[static_cast<std::size_t>(nodes[k])],
                          100 + f[static_cast<std::size_t>((k + shift) % nc)]);
            }
            for (int k = nc; k < contact::nodeCount(t) && k < 2 * nc; ++k) {
                EXPECT_EQ(at(k), (0.5 * (at(k - nc) + at((k - nc + 1) % nc))).eval())
                    << "node " << k;
            }
            if (c.centres) {
                EXPECT_EQ(at(8), faceCentre(f));
            }
            const Eigen::Vector3d normal = (at(1) - at(0)).cross(at(nc - 1) - at(0));
            EXPECT_GT(normal.dot(faceCentre(f) - centroid), 0.0);  // outward
        }
    }
}

// A file netCDF cannot open is refused with netCDF's reason, and nothing on stderr: the exodusII
// library printed "Attempting to open the netcdf-4 file ... with a netcdf library that does not
// support netcdf-4" for a cut netCDF-4 file, and the message said only "cannot be read".
TEST(ExodusReader, AFileNetcdfCannotOpenIsRefusedWithItsReason) {
    const fs::path dir = scratchDir();
    Small s;
    s.mode = EX_NETCDF4;
    const std::string cut = (dir / "cut.exo").string();
    fs::copy_file(writeSmall(dir, s), cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, fs::file_size(cut) / 2);
    const std::string empty = (dir / "empty.exo").string();
    std::ofstream(empty).close();
    ::testing::internal::CaptureStderr();
    const std::string cutError = errorOf(cut);
    const std::string emptyError = errorOf(empty);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    int nc = -1;
    const int status = nc_open(cut.c_str(), NC_NOWRITE, &nc);
    ASSERT_NE(status, NC_NOERR);
    EXPECT_EQ(cutError, cut + ": cannot be read as an Exodus II file: " + nc_strerror(status));
    EXPECT_EQ(emptyError, empty + ": cannot be read as an Exodus II file: the file is empty");
}

TEST(ExodusReader, BadInputNamesTheFileAndTheBlockOrSet) {
    const fs::path dir = scratchDir();
    const std::string missing = (dir / "missing.exo").string();
    EXPECT_EQ(errorOf(missing), missing + ": cannot open the file");
    const std::string text = (dir / "text.exo").string();
    std::ofstream(text) << "*NODE\n1, 0, 0, 0\n";
    EXPECT_EQ(errorOf(text), text + ": cannot be read as an Exodus II file: " +
                                 nc_strerror(NC_ENOTNC));  // "NetCDF: Unknown file format"

    Small s;
    s.conn[3] = 99;
    std::string path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": element block 10 ('block_10'): element 1 refers to node "
                                    "99, outside the file's 8 nodes");
    s = Small{};
    s.sides = {7};
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": side set 3 ('top'): element 1 (HEX8) has no side 7 (sides "
                                    "1..6)");
    s = Small{};
    s.sides = {0};
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": side set 3 ('top'): element 1 (HEX8) has no side 0 (sides "
                                    "1..6)");
    s = Small{};
    s.sideElements = {2};
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path),
              path + ": side set 3 ('top') refers to element 2, outside the file's 1 elements");
    s = Small{};
    s.nodeSet = {5, 0};
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": node set 4 ('nodeset_4') refers to node 0, outside the "
                                    "file's 8 nodes");
    s = Small{};
    s.nodeMap[3] = 2;
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": the node number map gives the id 2 to two nodes (2 and 4)");
    s = Small{};
    s.coordinates = false;
    path = writeSmall(dir, s);
    EXPECT_EQ(errorOf(path), path + ": all 8 nodes are at the same point: the file's coordinates "
                                    "are missing or were never written");
    s = Small{};
    s.type = "SPHERE";
    s.npe = 1;
    s.conn = {1};
    // A side set on a block of a type without sides: the file reads (its other sets stay
    // usable), the set is noted and refused when searched.
    const auto unusableSet = [&](const Small& small, const std::string& type) {
        const std::string file = writeSmall(dir, small);
        const Model m = readExodus(file);
        EXPECT_NE(std::find(m.notes.begin(), m.notes.end(),
                            file +
                                ": side set 3 ('top'): element 1 is in element block 10 "
                                "('block_10') of type " +
                                type +
                                ", which has no sides the search takes: the set cannot be "
                                "searched"),
                  m.notes.end())
            << type;
        try {
            (void)buildContactSurface(m, "top");
            ADD_FAILURE() << type << ": the set was built";
        } catch (const ParseError& e) {
            EXPECT_NE(std::string(e.what()).find("element 1 of type " + type + " has no face 6"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_TRUE(buildContactSurface(m, "nodeset_4").nodeSurface);
    };
    unusableSet(s, "SPHERE with 1 nodes");
    // A name that says one node count and a block that holds another: not the table's HEX8
    // (its faces would be read from the wrong nodes, past the block's end).
    Small shortHex;
    shortHex.npe = 4;
    shortHex.conn = {1, 2, 3, 4};
    unusableSet(shortHex, "HEX8 with 4 nodes");
    // More than 64 nodes an element (a superelement): kept and noted, its connectivity unread.
    Small super;
    super.type = "SUPERELEMENT";
    super.npe = 100;
    super.conn.clear();
    for (int k = 0; k < 100; ++k) {
        super.conn.push_back(1 + k % 8);
    }
    super.sideElements.clear();
    super.sides.clear();
    path = writeSmall(dir, super);
    const Model big = readExodus(path);
    ASSERT_EQ(big.notes.size(), 1U);
    EXPECT_EQ(big.notes[0], path + ": element block 10 ('block_10'): 1 elements of type "
                                   "SUPERELEMENT with 100 nodes, which have no faces the search "
                                   "takes");
    EXPECT_EQ(big.blocks[0].ids, (std::vector<long>{1}));
    s.sideElements.clear();
    s.sides.clear();
    path = writeSmall(dir, s);
    const Model kept = readExodus(path);  // a block no side set uses: noted, not an error
    ASSERT_EQ(kept.notes.size(), 1U);
    EXPECT_EQ(kept.notes[0], path + ": element block 10 ('block_10'): 1 elements of type SPHERE "
                                    "with 1 nodes, which have no faces the search takes");
}

// A damaged netCDF header is refused before the library reads it: a count that the file cannot
// hold made nc_open allocate and loop for it (41 s and 20 GB for one flipped byte). Both cases,
// with counts the library would survive were the check gone (the test then fails, not hangs):
// an attribute's value count, a dimension's length (coordx then needs more than the file).
TEST(ExodusReader, RefusesADamagedNetcdfHeaderBeforeReadingIt) {
    const fs::path dir = scratchDir();
    const std::string good = writeSmall(dir, Small{});
    EXPECT_NO_THROW((void)readExodus(good));
    const auto damaged = [&](const std::string& name, std::size_t after, std::uint32_t value) {
        std::ifstream in(good, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::size_t at = bytes.find(name);
        EXPECT_NE(at, std::string::npos) << name;
        const std::size_t field = at + (name.size() + 3) / 4 * 4 + after;
        for (int k = 0; k < 4; ++k) {  // big-endian, as netCDF stores it
            bytes[field + static_cast<std::size_t>(k)] =
                static_cast<char>((value >> (24 - 8 * k)) & 0xFFU);
        }
        const std::string path = (dir / ("damaged_" + name + ".exo")).string();
        std::ofstream(path, std::ios::binary) << bytes;
        return errorOf(path);
    };
    // api_version: its type (4 bytes), then its value count.
    const std::string attribute = damaged("api_version", 4, 0x00100000U);
    EXPECT_NE(attribute.find("cannot be read as an Exodus II file: its netCDF header is damaged: "
                             "the values of attribute 'api_version' claim 1048576 entries"),
              std::string::npos)
        << attribute;
    // num_nodes: its length right after the name.
    const std::string dimension = damaged("num_nodes", 0, 0x00100000U);
    EXPECT_NE(dimension.find("its netCDF header is damaged: variable 'coordx' (num_nodes = "
                             "1048576) claims more values than the"),
              std::string::npos)
        << dimension;
}

// Bob Jenkins' lookup3 hashlittle() with initval 0: HDF5's metadata checksum.
std::uint32_t lookup3(const unsigned char* k, std::size_t length) {
    const auto rot = [](std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
    const auto word = [](const unsigned char* p) {
        return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8U |
               static_cast<std::uint32_t>(p[2]) << 16U | static_cast<std::uint32_t>(p[3]) << 24U;
    };
    std::uint32_t a = 0xdeadbeefU + static_cast<std::uint32_t>(length);
    std::uint32_t b = a;
    std::uint32_t c = a;
    for (; length > 12; length -= 12, k += 12) {
        a += word(k);
        b += word(k + 4);
        c += word(k + 8);
        a -= c, a ^= rot(c, 4), c += b;
        b -= a, b ^= rot(a, 6), a += c;
        c -= b, c ^= rot(b, 8), b += a;
        a -= c, a ^= rot(c, 16), c += b;
        b -= a, b ^= rot(a, 19), a += c;
        c -= b, c ^= rot(b, 4), b += a;
    }
    if (length == 0) {
        return c;
    }
    unsigned char tail[12] = {};
    std::copy(k, k + length, tail);
    a += word(tail);
    b += word(tail + 4);
    c += word(tail + 8);
    c ^= b, c -= rot(b, 14);
    a ^= c, a -= rot(c, 11);
    b ^= a, b -= rot(a, 25);
    c ^= b, c -= rot(b, 16);
    a ^= c, a -= rot(c, 4);
    b ^= a, b -= rot(a, 14);
    c ^= b, c -= rot(b, 24);
    return c;
}

// Copies the netCDF-4 file `good` to `name` with dimension `dim` made `length` long, as damage
// would: in the dataspace of the dimension's HDF5 dataset (the object header, version 2, whose
// _Netcdf4Dimid attribute is the dimension's id), its checksum repaired so that HDF5 reads it.
// The variables keep their own dataspaces. Returns the copy's path, "" when no header matched.
std::string lengthenDimension(const std::string& good, const char* dim, std::uint64_t length,
                              const std::string& name) {
    int nc = -1;
    int id = -1;
    EXPECT_EQ(nc_open(good.c_str(), NC_NOWRITE, &nc), NC_NOERR);
    EXPECT_EQ(nc_inq_dimid(nc, dim, &id), NC_NOERR) << dim;
    EXPECT_EQ(nc_close(nc), NC_NOERR);
    std::ifstream in(good, std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    const auto le = [&](std::size_t at, int n) {
        std::uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i) {
            v = v << 8U | bytes[at + static_cast<std::size_t>(i)];
        }
        return v;
    };
    const std::string dimid = "_Netcdf4Dimid";
    bool done = false;
    for (std::size_t h = 0; !done && h + 8 < bytes.size(); ++h) {
        if (std::string(bytes.begin() + h, bytes.begin() + h + 4) != "OHDR" || bytes[h + 4] != 2) {
            continue;
        }
        // Signature, version, flags, [4 times], [2 attribute phase changes], chunk size.
        const unsigned flags = bytes[h + 5];
        std::size_t p = h + 6 + ((flags & 0x20U) != 0 ? 16 : 0) + ((flags & 0x10U) != 0 ? 4 : 0);
        const int width = 1 << (flags & 3U);
        const std::size_t end = p + width + le(p, width);  // where the checksum is
        p += width;
        std::size_t space = 0;  // the dataspace message
        bool ours = false;
        while (end <= bytes.size() && p + 4 <= end) {
            const unsigned type = bytes[p];
            const std::size_t size = le(p + 1, 2);
            p += 4 + ((flags & 0x04U) != 0 ? 2 : 0);  // type, size, flags, [creation order]
            if (type == 1) {
                space = p;
            }
            const std::string body(bytes.begin() + p, bytes.begin() + p + size);
            ours = ours || (type == 0x0C && body.find(dimid) != std::string::npos &&
                            le(p + size - 4, 4) == static_cast<std::uint64_t>(id));
            p += size;
        }
        if (!ours || space == 0 || bytes[space + 1] != 1) {
            continue;
        }
        // Dataspace version 1 or 2: version, rank, flags, (reserved,) the size, the maximum.
        const std::size_t size = space + (bytes[space] == 1 ? 8 : 4);
        for (std::size_t field = 0; field < ((bytes[space + 2] & 1U) != 0 ? 2U : 1U); ++field) {
            for (std::size_t i = 0; i < 8; ++i) {
                bytes[size + 8 * field + i] = static_cast<unsigned char>(length >> (8 * i));
            }
        }
        const std::uint32_t sum = lookup3(bytes.data() + h, end - h);
        for (std::size_t i = 0; i < 4; ++i) {
            bytes[end + i] = static_cast<unsigned char>(sum >> (8 * i));
        }
        done = true;
    }
    if (!done) {
        return "";
    }
    const std::string path = (fs::path(good).parent_path() / name).string();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
}

// A dimension of a netCDF-4 file (HDF5, which the classic header check above does not read)
// longer than the file could hold is refused before anything is allocated for it: num_nodes =
// 250,000,000 made the reader allocate 5.9 GB before the library failed. The message names the
// dimension and the variable. Lengths the reader would survive were the check gone (the test
// then fails, not swaps).
TEST(ExodusReader, RefusesANetcdf4DimensionLongerThanTheFile) {
    const fs::path dir = scratchDir();
    Small nc4;
    nc4.mode = EX_NETCDF4;
    nc4.elementMap = {5};
    std::string good = writeSmall(dir, nc4);
    int nc = -1;
    int format = 0;
    ASSERT_EQ(nc_open(good.c_str(), NC_NOWRITE, &nc), NC_NOERR);
    EXPECT_EQ(nc_inq_format(nc, &format), NC_NOERR);
    EXPECT_EQ(nc_close(nc), NC_NOERR);
    ASSERT_EQ(format, NC_FORMAT_NETCDF4_CLASSIC);
    EXPECT_NO_THROW((void)readExodus(good));
    const std::uint64_t bytes = fs::file_size(good);
    constexpr std::uint64_t kLength = 1U << 20U;  // 1048576
    ASSERT_LT(bytes, kLength);
    // The message after "<path>: " for the copy of `good` with `dim` made kLength long.
    const auto error = [&](const char* dim, const std::string& name) {
        const std::string path = lengthenDimension(good, dim, kLength, name);
        EXPECT_FALSE(path.empty()) << dim;
        const std::string what = path.empty() ? std::string() : errorOf(path);
        return what.rfind(path + ": ", 0) == 0 ? what.substr(path.size() + 2) : what;
    };
    const std::string holds =
        " bytes, more than the " + std::to_string(bytes) + "-byte file holds (the file is damaged)";
    EXPECT_EQ(error("num_nodes", "num_nodes.exo"),
              "cannot read the coordinates: variable 'coordx' (num_nodes = 1048576) needs "
              "8388608" +
                  holds);
    EXPECT_EQ(error("num_elem", "num_elem.exo"),
              "cannot read the element number map: variable 'elem_num_map' (num_elem = 1048576) "
              "needs 4194304" +
                  holds);
    EXPECT_EQ(error("num_el_blk", "num_el_blk.exo"),
              "cannot read the element block ids: variable 'eb_prop1' (num_el_blk = 1048576) "
              "needs 4194304" +
                  holds);
    EXPECT_EQ(error("len_name", "len_name.exo"),
              "cannot read the names of the element blocks: variable 'eb_names' (num_el_blk = 1, "
              "len_name = 1048576) needs 1048576" +
                  holds);
    EXPECT_EQ(error("num_side_ss1", "num_side_ss1.exo"),
              "cannot read side set 3 ('top'): variable 'elem_ss1' (num_side_ss1 = 1048576) needs "
              "4194304" +
                  holds);
    EXPECT_EQ(error("num_nod_ns1", "num_nod_ns1.exo"),
              "cannot read node set 4 ('nodeset_4'): variable 'node_ns1' (num_nod_ns1 = 1048576) "
              "needs 4194304" +
                  holds);
    // Without an element number map (the library then numbers the elements 1..n) the element
    // count is bounded by the blocks' elements.
    nc4.elementMap.clear();
    good = writeSmall(dir, nc4);
    EXPECT_EQ(error("num_elem", "num_elem_unmapped.exo"),
              "the element count (num_elem = 1048576) is more than the 1 elements of the file's "
              "blocks");
}

// Deflated arrays are bounded by deflate's largest ratio (1032:1), not by the file's size: a
// compressed netCDF-4 file whose coordinates take far more than the file (1.6 MB an axis, deflated
// about 1000:1, in a 33 kB file) reads.
TEST(ExodusReader, ReadsADeflatedNetcdf4FileLargerThanItsSize) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "deflated.exo").string();
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER | EX_NETCDF4, &cpu, &io);
    ASSERT_GE(id, 0);
    ASSERT_EQ(ex_set_option(id, EX_OPT_COMPRESSION_LEVEL, 9), 0);
    ASSERT_EQ(ex_set_option(id, EX_OPT_COMPRESSION_SHUFFLE, 1), 0);
    // A row of n - 4 nodes at one point and a tetrahedron: nearly all zeros.
    constexpr int kNodes = 200000;
    std::vector<double> x(kNodes, 0.0), y(kNodes, 0.0), z(kNodes, 0.0);
    x[kNodes - 3] = 1;
    y[kNodes - 2] = 1;
    z[kNodes - 1] = 1;
    const int conn[] = {kNodes - 4, kNodes - 3, kNodes - 2, kNodes - 1};
    ASSERT_GE(ex_put_init(id, "deflated", 3, kNodes, 1, 1, 0, 0), 0);
    ASSERT_GE(ex_put_coord(id, x.data(), y.data(), z.data()), 0);
    ASSERT_GE(ex_put_block(id, EX_ELEM_BLOCK, 1, "TETRA4", 1, 4, 0, 0, 0), 0);
    ASSERT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 1, conn, nullptr, nullptr), 0);
    ASSERT_GE(ex_close(id), 0);
    ASSERT_LT(fs::file_size(path), sizeof(double) * kNodes);  // one axis
    const Model m = readExodus(path);
    EXPECT_EQ(m.numNodes(), kNodes);
    EXPECT_EQ(m.coords.col(kNodes - 1), Eigen::Vector3d(0, 0, 1));
}

// Element ids name the faces in every output: an element number map giving one id to two
// elements is refused (the node map likewise, above).
// Names the library cannot read are damage, not "no names": the sets would lose the names the
// deck refers to. (Here the side sets' name variable is replaced by one of integers.)
TEST(ExodusReader, UnreadableNamesAreRefused) {
    const fs::path dir = scratchDir();
    const std::string path = writeSmall(dir, Small{});
    int nc = -1;
    ASSERT_EQ(nc_open(path.c_str(), NC_WRITE, &nc), NC_NOERR);
    ASSERT_EQ(nc_redef(nc), NC_NOERR);
    int var = -1;
    ASSERT_EQ(nc_inq_varid(nc, "ss_names", &var), NC_NOERR);
    int dims[2];
    ASSERT_EQ(nc_inq_vardimid(nc, var, dims), NC_NOERR);
    ASSERT_EQ(nc_rename_var(nc, var, "ss_names_was"), NC_NOERR);
    ASSERT_EQ(nc_def_var(nc, "ss_names", NC_INT, 2, dims, &var), NC_NOERR);
    ASSERT_EQ(nc_close(nc), NC_NOERR);
    EXPECT_EQ(errorOf(path),
              path + ": cannot read the names of the side sets (the file is damaged)");
}

TEST(ExodusReader, RefusesOneElementIdForTwoElements) {
    const fs::path dir = scratchDir();
    const std::string path = (dir / "two_elements.exo").string();
    int cpu = sizeof(double);
    int io = sizeof(double);
    const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
    ASSERT_GE(id, 0);
    // Two tetrahedra on the nodes 1-4 and 2-5.
    const double x[] = {0, 1, 0, 0, 1};
    const double y[] = {0, 0, 1, 0, 1};
    const double z[] = {0, 0, 0, 1, 1};
    EXPECT_GE(ex_put_init(id, "two", 3, 5, 2, 1, 0, 0), 0);
    EXPECT_GE(ex_put_coord(id, x, y, z), 0);
    EXPECT_GE(ex_put_block(id, EX_ELEM_BLOCK, 1, "TETRA4", 2, 4, 0, 0, 0), 0);
    const int conn[] = {1, 2, 3, 4, 2, 5, 3, 4};
    EXPECT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 1, conn, nullptr, nullptr), 0);
    const int map[] = {7, 7};
    EXPECT_GE(ex_put_id_map(id, EX_ELEM_MAP, map), 0);
    EXPECT_GE(ex_close(id), 0);
    EXPECT_EQ(errorOf(path), path + ": the element number map gives the id 7 to two elements "
                                    "(1 and 2)");
}

// Two blocks, two side sets or two node sets with one id: the library finds an id's block or set
// by its first match, so the second would be read as a copy of the first. Refused. (The library
// will not write such a file: the second id is changed afterwards with netCDF.)
TEST(ExodusReader, RefusesOneIdForTwoBlocksOrSets) {
    const fs::path dir = scratchDir();
    const auto write = [&](const char* name) {
        const std::string path = (dir / name).string();
        int cpu = sizeof(double);
        int io = sizeof(double);
        const int id = ex_create(path.c_str(), EX_CLOBBER, &cpu, &io);
        EXPECT_GE(id, 0);
        const double x[] = {0, 1, 0, 0, 1};
        const double y[] = {0, 0, 1, 0, 1};
        const double z[] = {0, 0, 0, 1, 1};
        EXPECT_GE(ex_put_init(id, "two", 3, 5, 2, 2, 2, 2), 0);
        EXPECT_GE(ex_put_coord(id, x, y, z), 0);
        const int a[] = {1, 2, 3, 4};
        const int b[] = {2, 5, 3, 4};
        EXPECT_GE(ex_put_block(id, EX_ELEM_BLOCK, 1, "TETRA4", 1, 4, 0, 0, 0), 0);
        EXPECT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 1, a, nullptr, nullptr), 0);
        EXPECT_GE(ex_put_block(id, EX_ELEM_BLOCK, 2, "TETRA4", 1, 4, 0, 0, 0), 0);
        EXPECT_GE(ex_put_conn(id, EX_ELEM_BLOCK, 2, b, nullptr, nullptr), 0);
        for (const int set : {3, 4}) {
            const int element[] = {set - 2};
            const int side[] = {1};
            const int node[] = {set};
            EXPECT_GE(ex_put_set_param(id, EX_SIDE_SET, set, 1, 0), 0);
            EXPECT_GE(ex_put_set(id, EX_SIDE_SET, set, element, side), 0);
            EXPECT_GE(ex_put_set_param(id, EX_NODE_SET, set, 1, 0), 0);
            EXPECT_GE(ex_put_set(id, EX_NODE_SET, set, node, nullptr), 0);
        }
        EXPECT_GE(ex_close(id), 0);
        return path;
    };
    EXPECT_NO_THROW((void)readExodus(write("distinct.exo")));
    for (const auto& [variable, message] :
         {std::make_pair("eb_prop1", "two element blocks have the id 1"),
          std::make_pair("ss_prop1", "two side sets have the id 3"),
          std::make_pair("ns_prop1", "two node sets have the id 3")}) {
        const std::string path = write((std::string(variable) + ".exo").c_str());
        int nc = 0;
        int var = 0;
        ASSERT_EQ(nc_open(path.c_str(), NC_WRITE, &nc), NC_NOERR);
        ASSERT_EQ(nc_inq_varid(nc, variable, &var), NC_NOERR);
        const std::size_t second = 1;
        const int first = variable[0] == 'e' ? 1 : 3;
        ASSERT_EQ(nc_put_var1_int(nc, var, &second, &first), NC_NOERR);
        ASSERT_EQ(nc_close(nc), NC_NOERR);
        EXPECT_EQ(errorOf(path), path + ": " + message);
    }
}

}  // namespace
}  // namespace mesh_io
