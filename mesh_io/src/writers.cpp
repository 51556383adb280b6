// SPDX-License-Identifier: MIT
#include "mesh_io/writers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;

// Writes to "<path>.tmp.<pid>" and renames onto path at commit(), so a reader never sees half a
// file and a failed run leaves the old file as it was. Refuses input files, and existing files
// unless overwriting was asked for.
class AtomicFile {
public:
    AtomicFile(std::string path, const WriteOptions& options) : path_(std::move(path)) {
        if (path_.empty()) {
            throw std::runtime_error("output file name is empty");
        }
        std::error_code ec;
        if (fs::exists(path_, ec)) {
            for (const auto& in : options.inputs) {
                if (fs::equivalent(path_, in, ec)) {
                    throw std::runtime_error("refusing to write " + path_ +
                                             ": it is an input file");
                }
            }
            if (!options.overwrite) {
                throw std::runtime_error(path_ + " exists; pass --force to overwrite it");
            }
        }
        tmp_ = path_ + ".tmp." + std::to_string(::getpid());
        out_.open(tmp_, std::ios::binary | std::ios::trunc);
        if (!out_) {
            throw std::runtime_error("cannot write " + path_ + " (cannot create " + tmp_ + ")");
        }
    }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile() {
        if (!committed_) {
            out_.close();
            std::error_code ec;
            fs::remove(tmp_, ec);
        }
    }

    std::ofstream& out() { return out_; }

    void commit() {
        out_.flush();
        const bool good = out_.good();
        out_.close();
        std::error_code ec;
        if (!good) {
            throw std::runtime_error("writing " + path_ + " failed (disk full?)");
        }
        fs::rename(tmp_, path_, ec);
        if (ec) {
            throw std::runtime_error("cannot write " + path_ + ": " + ec.message());
        }
        committed_ = true;
    }

private:
    std::string path_;
    std::string tmp_;
    std::ofstream out_;
    bool committed_ = false;
};

// Shortest text that reads back to the same double.
std::string num(double v) {
    if (!std::isfinite(v)) {
        return "nan";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string jsonNum(double v) { return std::isfinite(v) ? num(v) : "null"; }

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

const char* modeName(contact::SearchMode m) {
    return m == contact::SearchMode::kNodeToSegment ? "node" : "segment";
}

int vtkCellType(contact::SegmentType t) {
    switch (t) {
    case contact::SegmentType::Line2: return 3;   // VTK_LINE
    case contact::SegmentType::Line3: return 21;  // VTK_QUADRATIC_EDGE
    case contact::SegmentType::Tri3: return 5;    // VTK_TRIANGLE
    case contact::SegmentType::Tri6: return 22;   // VTK_QUADRATIC_TRIANGLE
    case contact::SegmentType::Quad4: return 9;   // VTK_QUAD
    case contact::SegmentType::Quad8: return 23;  // VTK_QUADRATIC_QUAD
    case contact::SegmentType::Quad9: return 28;  // VTK_BIQUADRATIC_QUAD
    }
    return 0;
}

// The slave and master columns of a report's pairs, in either mode.
struct PairIds {
    contact::ConstSpan<Index> slave;
    contact::ConstSpan<Index> master;
    [[nodiscard]] Index size() const noexcept { return slave.size(); }
};
PairIds pairIds(const InterfaceReport& r) {
    if (r.nodePairs != nullptr) {
        return {r.nodePairs->slave(), r.nodePairs->master()};
    }
    if (r.segmentPairs != nullptr) {
        return {r.segmentPairs->slave(), r.segmentPairs->master()};
    }
    return {};
}

}  // namespace

GapSummary summarizeGaps(const contact::NodePairs& pairs) {
    GapSummary g{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
                 0};
    for (Index i = 0; i < pairs.size(); ++i) {
        const double v = pairs.gap()[i];
        g.minGap = i == 0 ? v : std::min(g.minGap, v);
        g.maxGap = i == 0 ? v : std::max(g.maxGap, v);
        g.penetrating += v < 0.0 ? 1 : 0;
    }
    return g;
}

void writePairsCsv(const std::string& path, const Model& model,
                   const std::vector<InterfaceReport>& reports, const WriteOptions& options) {
    for (const auto& r : reports) {
        if (r.mode != reports.front().mode) {
            throw std::invalid_argument("cannot write " + path +
                                        ": interfaces searched in different modes share one CSV "
                                        "file (choose one with --mode)");
        }
    }
    const bool nodeMode =
        reports.empty() || reports.front().mode == contact::SearchMode::kNodeToSegment;
    AtomicFile file(path, options);
    std::ostream& out = file.out();
    out << (nodeMode ? "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz\n"
                     : "interface,slave_element,slave_face,master_element,master_face\n");
    for (const auto& r : reports) {
        const PairIds p = pairIds(r);
        for (Index i = 0; i < p.size(); ++i) {
            const SegmentOrigin m = r.master->origin[p.master[i]];
            if (nodeMode) {
                const contact::NodePairs& np = *r.nodePairs;
                out << r.index << ',' << model.nodeIds[p.slave[i]] << ',' << m.elementId << ','
                    << m.face << ',' << num(np.xi()(0, i)) << ',' << num(np.xi()(1, i)) << ','
                    << num(np.gap()[i]) << ',' << num(np.normal()(0, i)) << ','
                    << num(np.normal()(1, i)) << ',' << num(np.normal()(2, i)) << '\n';
            } else {
                const SegmentOrigin s = r.slave->origin[p.slave[i]];
                out << r.index << ',' << s.elementId << ',' << s.face << ',' << m.elementId << ','
                    << m.face << '\n';
            }
        }
    }
    file.commit();
}

void writeOverlapsCsv(const std::string& path, const Model& /*model*/,
                      const std::vector<InterfaceReport>& reports, const WriteOptions& options) {
    AtomicFile file(path, options);
    std::ostream& out = file.out();
    out << "interface,slave_element,slave_face,master_element,master_face,area,cx,cy,cz,gap_min,"
           "gap_max\n";
    for (const auto& r : reports) {
        if (r.overlaps == nullptr) {
            continue;
        }
        for (const PairOverlap& o : *r.overlaps) {
            const SegmentOrigin s = r.slave->origin[o.slave];
            const SegmentOrigin m = r.master->origin[o.master];
            out << r.index << ',' << s.elementId << ',' << s.face << ',' << m.elementId << ','
                << m.face << ',' << num(o.area) << ',' << num(o.centroid.x()) << ','
                << num(o.centroid.y()) << ',' << num(o.centroid.z()) << ',' << num(o.gapMin) << ','
                << num(o.gapMax) << '\n';
        }
    }
    file.commit();
}

void writeJsonReport(const std::string& path, const Model& model,
                     const std::vector<InterfaceReport>& reports, bool withPairs,
                     const WriteOptions& options) {
    AtomicFile file(path, options);
    std::ostream& out = file.out();
    out << "{\n  \"model\": " << jsonString(model.path) << ",\n  \"interfaces\": [";
    for (std::size_t k = 0; k < reports.size(); ++k) {
        const InterfaceReport& r = reports[k];
        const PairIds p = pairIds(r);
        const bool nodeMode = r.mode == contact::SearchMode::kNodeToSegment;
        const GapSummary g = summarizeGaps(nodeMode ? *r.nodePairs : contact::NodePairs{});
        const contact::UpdateStats& st = r.stats;
        out << (k ? "," : "") << "\n    {\n";
        out << "      \"index\": " << r.index << ",\n";
        out << "      \"kind\": " << jsonString(r.kind) << ",\n";
        out << "      \"slave\": " << jsonString(r.slave->name) << ",\n";
        out << "      \"master\": " << jsonString(r.master->name) << ",\n";
        out << "      \"mode\": \"" << modeName(r.mode) << "\",\n";
        out << "      \"capture_distance\": " << jsonNum(r.captureDistance) << ",\n";
        out << "      \"capture_relative\": "
            << (r.captureRelative ? jsonNum(r.captureFactor) : "null") << ",\n";
        out << "      \"master_segments\": " << r.master->surface.size() << ",\n";
        out << "      \"slave_segments\": " << r.slave->surface.size() << ",\n";
        out << "      \"slave_nodes\": " << r.slaveNodes << ",\n";
        out << "      \"candidates\": " << st.candidates << ",\n";
        out << "      \"sat_survivors\": " << st.satSurvivors << ",\n";
        out << "      \"pairs\": " << p.size() << ",\n";
        out << "      \"min_gap\": " << jsonNum(g.minGap) << ",\n";
        out << "      \"max_gap\": " << jsonNum(g.maxGap) << ",\n";
        out << "      \"penetrating\": " << g.penetrating << ",\n";
        if (r.overlaps != nullptr) {
            double area = 0.0;
            for (const PairOverlap& o : *r.overlaps) {
                area += o.area;
            }
            out << "      \"overlaps\": " << r.overlaps->size() << ",\n";
            out << "      \"overlap_area\": " << jsonNum(area) << ",\n";
        } else {
            out << "      \"overlaps\": null,\n      \"overlap_area\": null,\n";
        }
        out << "      \"time_ms\": {\"read\": " << jsonNum(r.timeRead)
            << ", \"bounds\": " << jsonNum(st.timeBounds)
            << ", \"broad\": " << jsonNum(st.timeBroad)
            << ", \"narrow\": " << jsonNum(st.timeNarrow)
            << ", \"projection\": " << jsonNum(st.timeProjection)
            << ", \"total\": " << jsonNum(r.timeRead + st.timeTotal()) << "},\n";
        out << "      \"pairs_file\": " << (r.pairsFile.empty() ? "null" : jsonString(r.pairsFile));
        if (withPairs) {
            out << ",\n      \"pair_list\": [";
            for (Index i = 0; i < p.size(); ++i) {
                const SegmentOrigin m = r.master->origin[p.master[i]];
                out << (i ? "," : "") << "\n        {";
                if (nodeMode) {
                    const contact::NodePairs& np = *r.nodePairs;
                    out << "\"slave_node\": " << model.nodeIds[p.slave[i]]
                        << ", \"master_element\": " << m.elementId
                        << ", \"master_face\": " << m.face << ", \"xi\": " << jsonNum(np.xi()(0, i))
                        << ", \"eta\": " << jsonNum(np.xi()(1, i))
                        << ", \"gap\": " << jsonNum(np.gap()[i]) << ", \"normal\": ["
                        << jsonNum(np.normal()(0, i)) << ", " << jsonNum(np.normal()(1, i)) << ", "
                        << jsonNum(np.normal()(2, i)) << "]}";
                } else {
                    const SegmentOrigin s = r.slave->origin[p.slave[i]];
                    out << "\"slave_element\": " << s.elementId << ", \"slave_face\": " << s.face
                        << ", \"master_element\": " << m.elementId
                        << ", \"master_face\": " << m.face << "}";
                }
            }
            out << (p.size() ? "\n      ]" : "]");
        }
        out << "\n    }";
    }
    out << (reports.empty() ? "]\n}\n" : "\n  ]\n}\n");
    file.commit();
}

namespace {

// One VTU piece: the segments of both surfaces, the slave nodes of a node surface, and the pairs.
void writePiece(std::ostream& out, const Model& model, const InterfaceReport& r) {
    const PairIds p = pairIds(r);
    const bool nodeMode = r.mode == contact::SearchMode::kNodeToSegment;
    std::vector<Index> local(static_cast<std::size_t>(model.numNodes()), contact::kNoIndex);
    std::vector<Index> points;  // model node of each local point
    const auto use = [&](Index n) {
        if (local[n] == contact::kNoIndex) {
            local[n] = static_cast<Index>(points.size());
            points.push_back(n);
        }
        return local[n];
    };
    struct Cell {
        int type;
        std::vector<Index> pts;
        int role;
        long element;
        int face;
        int pairCount;
    };
    std::vector<Cell> cells;
    std::vector<int> masterCount(r.master->surface.size(), 0);
    std::vector<int> slaveCount(r.slave->surface.size(), 0);
    for (Index i = 0; i < p.size(); ++i) {
        ++masterCount[p.master[i]];
        if (!nodeMode) {
            ++slaveCount[p.slave[i]];
        }
    }
    const auto addSurface = [&](const ContactSurface& cs, int role, const std::vector<int>& count) {
        for (Index s = 0; s < cs.surface.size(); ++s) {
            Cell c{vtkCellType(cs.surface.types[s]),
                   {},
                   role,
                   cs.origin[s].elementId,
                   cs.origin[s].face,
                   count[s]};
            for (int i = 0; i < contact::nodeCount(cs.surface.types[s]); ++i) {
                c.pts.push_back(use(cs.surface.nodes(s)[i]));
            }
            cells.push_back(std::move(c));
        }
        for (Index n : cs.nodes) {
            cells.push_back(Cell{1, {use(n)}, role, 0, 0, 0});  // VTK_VERTEX
        }
    };
    addSurface(*r.master, 0, masterCount);
    addSurface(*r.slave, 1, slaveCount);
    const Index modelPoints = static_cast<Index>(points.size());
    std::vector<Eigen::Vector3d> extra;  // closest points or segment centres
    const auto centre = [&](const ContactSurface& cs, Index s) {
        Eigen::Vector3d c = Eigen::Vector3d::Zero();
        const int n = contact::cornerCount(cs.surface.types[s]);
        for (int i = 0; i < n; ++i) {
            c += model.coords.col(cs.surface.nodes(s)[i]) / n;
        }
        return c;
    };
    for (Index i = 0; i < p.size(); ++i) {
        const Index a = modelPoints + static_cast<Index>(extra.size());
        if (nodeMode) {
            extra.push_back(r.nodePairs->point().col(i));
            cells.push_back(Cell{3,
                                 {use(p.slave[i]), a},
                                 2,
                                 r.master->origin[p.master[i]].elementId,
                                 r.master->origin[p.master[i]].face,
                                 1});
        } else {
            extra.push_back(centre(*r.slave, p.slave[i]));
            extra.push_back(centre(*r.master, p.master[i]));
            cells.push_back(Cell{3,
                                 {a, a + 1},
                                 2,
                                 r.master->origin[p.master[i]].elementId,
                                 r.master->origin[p.master[i]].face,
                                 1});
        }
    }
    if (r.overlaps != nullptr) {
        for (const PairOverlap& o : *r.overlaps) {
            const Index first = modelPoints + static_cast<Index>(extra.size());
            Cell c{o.count == 2 ? 3 : 7,
                   {},
                   3,
                   r.master->origin[o.master].elementId,
                   r.master->origin[o.master].face,
                   1};  // VTK_LINE (2D) or VTK_POLYGON
            for (int k = 0; k < o.count; ++k) {
                extra.push_back(o.vertices[k]);
                c.pts.push_back(first + k);
            }
            if (o.count == 1) {
                c.type = 1;  // VTK_VERTEX: a single clipped point
            }
            cells.push_back(std::move(c));
        }
    }
    const Index numPoints = modelPoints + static_cast<Index>(extra.size());
    std::vector<double> gap(numPoints, 0.0);
    std::vector<Eigen::Vector3d> normal(numPoints, Eigen::Vector3d::Zero());
    std::vector<int> paired(numPoints, 0);
    if (nodeMode) {
        for (Index i = 0; i < p.size(); ++i) {
            const Index k = local[p.slave[i]];
            gap[k] = r.nodePairs->gap()[i];
            normal[k] = r.nodePairs->normal().col(i);
            paired[k] = 1;
        }
    }
    char buf[96];
    out << "    <Piece NumberOfPoints=\"" << numPoints << "\" NumberOfCells=\"" << cells.size()
        << "\">\n      <PointData Scalars=\"gap\" Vectors=\"normal\">\n";
    out << "        <DataArray type=\"Float64\" Name=\"gap\" format=\"ascii\">\n";
    for (double g : gap) {
        std::snprintf(buf, sizeof buf, "          %.12g\n", g);
        out << buf;
    }
    out << "        </DataArray>\n"
        << "        <DataArray type=\"Float64\" Name=\"normal\" NumberOfComponents=\"3\" "
           "format=\"ascii\">\n";
    for (const auto& n : normal) {
        std::snprintf(buf, sizeof buf, "          %.12g %.12g %.12g\n", n.x(), n.y(), n.z());
        out << buf;
    }
    out << "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"paired\" "
           "format=\"ascii\">\n";
    for (int v : paired) {
        out << "          " << v << '\n';
    }
    out << "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"node_id\" "
           "format=\"ascii\">\n";
    for (Index k = 0; k < numPoints; ++k) {
        out << "          " << (k < modelPoints ? model.nodeIds[points[k]] : -1L) << '\n';
    }
    out << "        </DataArray>\n      </PointData>\n      <CellData Scalars=\"role\">\n";
    const auto cellArray = [&](const char* type, const char* name, const auto& get) {
        out << "        <DataArray type=\"" << type << "\" Name=\"" << name
            << "\" format=\"ascii\">\n";
        for (const Cell& c : cells) {
            out << "          " << get(c) << '\n';
        }
        out << "        </DataArray>\n";
    };
    cellArray("Int32", "role", [](const Cell& c) { return c.role; });
    cellArray("Int64", "element_id", [](const Cell& c) { return c.element; });
    cellArray("Int32", "face", [](const Cell& c) { return c.face; });
    cellArray("Int32", "pair_count", [](const Cell& c) { return c.pairCount; });
    out << "      </CellData>\n      <Points>\n"
        << "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (Index k = 0; k < numPoints; ++k) {
        const Eigen::Vector3d x =
            k < modelPoints ? Eigen::Vector3d(model.coords.col(points[k])) : extra[k - modelPoints];
        std::snprintf(buf, sizeof buf, "          %.12g %.12g %.12g\n", x.x(), x.y(), x.z());
        out << buf;
    }
    out << "        </DataArray>\n      </Points>\n      <Cells>\n"
        << "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    for (const Cell& c : cells) {
        out << "         ";
        for (Index v : c.pts) {
            out << ' ' << v;
        }
        out << '\n';
    }
    out << "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" "
           "format=\"ascii\">\n";
    long offset = 0;
    for (const Cell& c : cells) {
        offset += static_cast<long>(c.pts.size());
        out << "          " << offset << '\n';
    }
    out << "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" "
           "format=\"ascii\">\n";
    for (const Cell& c : cells) {
        out << "          " << c.type << '\n';
    }
    out << "        </DataArray>\n      </Cells>\n    </Piece>\n";
}

}  // namespace

void writeVtu(const std::string& path, const Model& model,
              const std::vector<InterfaceReport>& reports, const WriteOptions& options) {
    AtomicFile file(path, options);
    std::ostream& out = file.out();
    out << "<?xml version=\"1.0\"?>\n"
        << "<!-- contact search results: role 0 master segment, 1 slave segment or node, "
           "2 pair, 3 overlap -->\n"
        << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n  <UnstructuredGrid>\n";
    for (const auto& r : reports) {
        writePiece(out, model, r);
    }
    out << "  </UnstructuredGrid>\n</VTKFile>\n";
    file.commit();
}

void writeMortarFiles(const std::string& dir, const std::string& prefix, const Model& model,
                      const contact::MortarOperators& op, const std::string& description,
                      const WriteOptions& options) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
    }
    long largest = 0;
    for (const long id : model.nodeIds) {
        largest = std::max(largest, id);
    }
    const char* basis = op.basis == contact::MortarBasis::kDual ? "dual" : "standard";
    const auto matrix = [&](const std::string& name, const contact::SparseTriplets& t,
                            const std::string& what) {
        AtomicFile file(dir + "/" + prefix + "_" + name + ".mtx", options);
        std::ostream& out = file.out();
        out << "%%MatrixMarket matrix coordinate real general\n"
            << "% " << description << "\n% " << what << ", " << basis << " basis\n"
            << "% rows and columns: node ids of the model file\n"
            << largest << ' ' << largest << ' ' << t.size() << '\n';
        for (std::size_t k = 0; k < t.size(); ++k) {
            out << model.nodeIds[static_cast<std::size_t>(t.row[k])] << ' '
                << model.nodeIds[static_cast<std::size_t>(t.col[k])] << ' ' << num(t.value[k])
                << '\n';
        }
        file.commit();
    };
    matrix("D", op.D, "D_ab = int Phi_a N_b dA (slave x slave)");
    matrix("M", op.M, "M_ac = int Phi_a N^_c dA (slave x master)");
    AtomicFile file(dir + "/" + prefix + "_nodes.csv", options);
    std::ostream& out = file.out();
    out << "node_id,weighted_gap,nodal_area\n";
    for (std::size_t k = 0; k < op.nodes.size(); ++k) {
        out << model.nodeIds[static_cast<std::size_t>(op.nodes[k])] << ',' << num(op.weightedGap[k])
            << ',' << num(op.nodalArea[k]) << '\n';
    }
    file.commit();
}

}  // namespace mesh_io
