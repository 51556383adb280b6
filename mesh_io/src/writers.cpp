// SPDX-License-Identifier: MIT
#include "mesh_io/writers.hpp"

#include "vtu_piece.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace mesh_io {
namespace {

namespace fs = std::filesystem;

// Shortest text that reads back to the same double; "nan" for NaN (CSV).
std::string num(double v) {
    if (std::isnan(v)) {
        return "nan";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string jsonNum(double v) { return std::isfinite(v) ? num(v) : "null"; }

std::string jsonVec(const Eigen::Vector3d& v) {
    return "[" + jsonNum(v.x()) + ", " + jsonNum(v.y()) + ", " + jsonNum(v.z()) + "]";
}

// Length of the UTF-8 sequence starting at s[i] (1 to 4), or 0 when the bytes there are not one
// (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
std::size_t utf8Length(const std::string& s, std::size_t i) {
    const auto b = [&](std::size_t k) {
        return k < s.size() ? static_cast<unsigned char>(s[k]) : 0U;
    };
    const unsigned c = b(i);
    const auto cont = [&](std::size_t k) { return (b(k) & 0xC0U) == 0x80U; };
    if (c < 0x80U) {
        return 1;
    }
    if (c >= 0xC2U && c <= 0xDFU) {
        return cont(i + 1) ? 2 : 0;
    }
    if (c >= 0xE0U && c <= 0xEFU) {
        const unsigned lo = c == 0xE0U ? 0xA0U : 0x80U;
        const unsigned hi = c == 0xEDU ? 0x9FU : 0xBFU;
        return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) ? 3 : 0;
    }
    if (c >= 0xF0U && c <= 0xF4U) {
        const unsigned lo = c == 0xF0U ? 0x90U : 0x80U;
        const unsigned hi = c == 0xF4U ? 0x8FU : 0xBFU;
        return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

// A JSON string of s. Names come from the model file, whose bytes need not be UTF-8 (a Latin-1
// deck): a byte that starts no UTF-8 sequence is taken as the Latin-1 character it is
// (\u00XX), so the file stays valid JSON.
std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const std::size_t n = utf8Length(s, i);
        if (n == 0) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
            out += buf;
            continue;
        }
        if (n > 1) {
            out.append(s, i, n);
            i += n - 1;
            continue;
        }
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

bool isNodeMode(const InterfaceReport& r) { return r.mode == contact::SearchMode::kNodeToSegment; }

// Segment mode: the overlap of each search pair (nullptr where it has none), walking the
// overlaps, which keep the pairs' order.
class OverlapOf {
public:
    explicit OverlapOf(const InterfaceReport& r) : o_(r.overlaps) {}
    const PairOverlap* operator()(Index slave, Index master) {
        if (o_ == nullptr || k_ >= o_->pairs.size()) {
            return nullptr;
        }
        const PairOverlap& o = o_->pairs[k_];
        if (o.slave != slave || o.master != master) {
            return nullptr;
        }
        ++k_;
        return &o;
    }

private:
    const Overlaps* o_;
    std::size_t k_ = 0;
};

const PairOverlap kNoOverlap{};

// A CSV field of s (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a
// line break (an instance named "Blk,2").
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) {
        return s;
    }
    std::string out = "\"";
    for (const char c : s) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

// Ids as outputs name them: "<instance>.<id>" in assemblies (a JSON string), the id alone
// otherwise (a JSON number).
void putNode(std::ostream& out, const Model& m, Index node, bool json = false) {
    if (m.instances.empty()) {
        out << m.nodeIds[static_cast<std::size_t>(node)];
    } else {
        out << (json ? jsonString(m.nodeLabel(node)) : csvField(m.nodeLabel(node)));
    }
}

void putElement(std::ostream& out, const Model& m, const SegmentOrigin& o, bool json = false) {
    if (m.instances.empty()) {
        out << o.elementId;
    } else {
        const std::string label = m.elementLabel(o.instance, o.elementId);
        out << (json ? jsonString(label) : csvField(label));
    }
}

}  // namespace

void writePairsCsv(const std::string& path, const Model& model,
                   const std::vector<InterfaceReport>& reports, const WriterOptions& options) {
    for (const auto& r : reports) {
        if (r.mode != reports.front().mode) {
            throw std::invalid_argument("cannot write " + path +
                                        ": interfaces searched in different modes share one CSV "
                                        "file (choose one with --mode)");
        }
    }
    const bool nodeMode = reports.empty() || isNodeMode(reports.front());
    const bool xyz = options.coordinates;
    OutputFile file(path, options.write);
    std::ostream& out = file.out();
    if (nodeMode) {
        out << "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz"
            << (xyz ? ",x,y,z,px,py,pz\n" : "\n");
    } else {
        out << "interface,slave_element,slave_face,master_element,master_face,overlap_area,"
               "capture_area,penetration_area"
            << (xyz ? ",cx,cy,cz\n" : "\n");
    }
    for (const auto& r : reports) {
        if (nodeMode) {
            const contact::NodePairs& p = *r.nodePairs;
            for (Index i = 0; i < p.size(); ++i) {
                const SegmentOrigin m = r.master->origin[p.master()[i]];
                out << r.index << ',';
                putNode(out, model, p.slave()[i]);
                out << ',';
                putElement(out, model, m);
                out << ',' << m.face << ',' << num(p.xi()(0, i)) << ',' << num(p.xi()(1, i)) << ','
                    << num(p.gap()[i]) << ',' << num(p.normal()(0, i)) << ','
                    << num(p.normal()(1, i)) << ',' << num(p.normal()(2, i));
                if (xyz) {
                    const Eigen::Vector3d x = model.coords.col(p.slave()[i]);
                    out << ',' << num(x.x()) << ',' << num(x.y()) << ',' << num(x.z()) << ','
                        << num(p.point()(0, i)) << ',' << num(p.point()(1, i)) << ','
                        << num(p.point()(2, i));
                }
                out << '\n';
            }
            continue;
        }
        const contact::SegmentPairs& p = *r.segmentPairs;
        OverlapOf overlapOf(r);
        for (Index i = 0; i < p.size(); ++i) {
            const SegmentOrigin s = r.slave->origin[p.slave()[i]];
            const SegmentOrigin m = r.master->origin[p.master()[i]];
            const PairOverlap* found = overlapOf(p.slave()[i], p.master()[i]);
            const PairOverlap& o = found != nullptr ? *found : kNoOverlap;
            out << r.index << ',';
            putElement(out, model, s);
            out << ',' << s.face << ',';
            putElement(out, model, m);
            out << ',' << m.face << ',' << num(o.overlapArea) << ',' << num(o.captureArea) << ','
                << num(o.penetrationArea);
            if (xyz) {
                const bool c = o.count > 0;
                out << ',' << num(c ? o.centroid.x() : NAN) << ',' << num(c ? o.centroid.y() : NAN)
                    << ',' << num(c ? o.centroid.z() : NAN);
            }
            out << '\n';
        }
    }
    file.commit();
}

void writeOverlapsCsv(const std::string& path, const Model& model,
                      const std::vector<InterfaceReport>& reports, const WriterOptions& options) {
    OutputFile file(path, options.write);
    std::ostream& out = file.out();
    out << "interface,slave_element,slave_face,master_element,master_face,overlap_area,"
           "capture_area,penetration_area,capture_area_error,penetration_area_error,gap_min,"
           "gap_max,cx,cy,cz\n";
    for (const auto& r : reports) {
        if (r.overlaps == nullptr) {
            continue;
        }
        for (const PairOverlap& o : r.overlaps->pairs) {
            const SegmentOrigin s = r.slave->origin[o.slave];
            const SegmentOrigin m = r.master->origin[o.master];
            const bool in = o.captureArea > 0.0;
            const bool drawn = o.count > 0;
            out << r.index << ',';
            putElement(out, model, s);
            out << ',' << s.face << ',';
            putElement(out, model, m);
            out << ',' << m.face << ',' << num(o.overlapArea) << ',' << num(o.captureArea) << ','
                << num(o.penetrationArea) << ',' << num(o.captureAreaError) << ','
                << num(o.penetrationAreaError) << ',' << num(in ? o.gapMin : NAN) << ','
                << num(in ? o.gapMax : NAN) << ',' << num(drawn ? o.centroid.x() : NAN) << ','
                << num(drawn ? o.centroid.y() : NAN) << ',' << num(drawn ? o.centroid.z() : NAN)
                << '\n';
        }
    }
    file.commit();
}

void writeJsonReport(const std::string& path, const Model& model,
                     const std::vector<InterfaceReport>& reports, const WriterOptions& options) {
    OutputFile file(path, options.write);
    std::ostream& out = file.out();
    // The notes as the text report prints them: the reader's, and each interface's surfaces'.
    const auto putNotes = [&out](const char* indent, const std::vector<std::string>& a,
                                 const std::vector<std::string>* b) {
        out << indent << "\"notes\": [";
        bool first = true;
        for (const std::vector<std::string>* notes : {&a, b}) {
            if (notes == nullptr) {
                continue;
            }
            for (const std::string& n : *notes) {
                out << (first ? "" : ", ") << jsonString(n);
                first = false;
            }
        }
        out << "],\n";
    };
    out << "{\n  \"model\": " << jsonString(model.path) << ",\n";
    putNotes("  ", model.notes, nullptr);
    out << "  \"interfaces\": [";
    for (std::size_t k = 0; k < reports.size(); ++k) {
        const InterfaceReport& r = reports[k];
        const bool nodeMode = isNodeMode(r);
        const GapSummary& g = r.gaps;
        const contact::UpdateStats& st = r.stats;
        const Index pairs = nodeMode ? r.nodePairs->size() : r.segmentPairs->size();
        out << (k > 0 ? "," : "") << "\n    {\n";
        out << "      \"index\": " << r.index << ",\n";
        out << "      \"kind\": " << jsonString(r.kind) << ",\n";
        out << "      \"slave\": " << jsonString(r.slave->name) << ",\n";
        out << "      \"master\": " << jsonString(r.master->name) << ",\n";
        out << R"(      "mode": ")" << modeName(r.mode) << "\",\n";
        out << "      \"self_contact\": " << (r.selfContact ? "true" : "false") << ",\n";
        putNotes("      ", r.master->notes, r.selfContact ? nullptr : &r.slave->notes);
        out << "      \"capture_distance\": " << jsonNum(r.captureDistance) << ",\n";
        out << "      \"capture_relative\": "
            << (r.captureRelative ? jsonNum(r.captureFactor) : "null") << ",\n";
        out << "      \"master_segments\": " << r.master->surface.size() << ",\n";
        out << "      \"slave_segments\": " << r.slave->surface.size() << ",\n";
        out << "      \"slave_nodes\": " << r.slaveNodes << ",\n";
        out << "      \"candidates\": " << st.candidates << ",\n";
        out << "      \"sat_survivors\": " << st.satSurvivors << ",\n";
        if (r.countsOverlapRanks) {
            out << "      \"counts_summed_over_overlapping_ranks\": true,\n";
        }
        out << "      \"pairs\": " << pairs << ",\n";
        if (g.count > 0) {
            out << R"(      "gap": {"min": )" << jsonNum(g.min) << R"(, "p05": )" << jsonNum(g.p05)
                << R"(, "median": )" << jsonNum(g.median) << R"(, "p95": )" << jsonNum(g.p95)
                << R"(, "max": )" << jsonNum(g.max) << "},\n";
        } else {
            out << "      \"gap\": null,\n";
        }
        out << "      \"min_gap\": " << jsonNum(g.count > 0 ? g.min : NAN) << ",\n";
        out << "      \"max_gap\": " << jsonNum(g.count > 0 ? g.max : NAN) << ",\n";
        out << "      \"penetrating\": " << g.penetrating << ",\n";
        out << "      \"orientation\": "
            << (r.selfContact ? std::string("null")
                              : jsonString(contact::orientationName(st.orientation.verdict)))
            << ",\n";
        if (!nodeMode) {
            const Overlaps& o = *r.overlaps;
            out << "      \"overlaps\": " << o.pairs.size() << ",\n";
            out << "      \"contact_pairs\": " << g.count << ",\n";
            out << "      \"overlap_area\": " << jsonNum(o.overlapArea()) << ",\n";
            out << "      \"capture_area\": " << jsonNum(o.captureArea()) << ",\n";
            out << "      \"capture_area_error\": " << jsonNum(o.captureAreaError()) << ",\n";
            out << "      \"penetration_area\": " << jsonNum(o.penetrationArea()) << ",\n";
            out << "      \"penetration_area_error\": " << jsonNum(o.penetrationAreaError())
                << ",\n";
        } else {
            out << "      \"overlaps\": null,\n      \"contact_pairs\": null,\n"
                   "      \"overlap_area\": null,\n      \"capture_area\": null,\n"
                   "      \"capture_area_error\": null,\n      \"penetration_area\": null,\n"
                   "      \"penetration_area_error\": null,\n";
        }
        out << R"(      "time_ms": {"read": )" << jsonNum(r.timeRead) << R"(, "bounds": )"
            << jsonNum(st.timeBounds) << R"(, "broad": )" << jsonNum(st.timeBroad)
            << R"(, "narrow": )" << jsonNum(st.timeNarrow) << R"(, "projection": )"
            << jsonNum(st.timeProjection) << R"(, "overlaps": )" << jsonNum(r.timeOverlaps)
            << R"(, "total": )" << jsonNum(r.timeRead + st.timeTotal() + r.timeOverlaps) << "},\n";
        out << "      \"pairs_file\": " << (r.pairsFile.empty() ? "null" : jsonString(r.pairsFile));
        if (options.jsonPairs) {
            out << ",\n      \"pair_list\": [";
            if (nodeMode) {
                const contact::NodePairs& p = *r.nodePairs;
                for (Index i = 0; i < p.size(); ++i) {
                    const SegmentOrigin m = r.master->origin[p.master()[i]];
                    out << (i > 0 ? "," : "") << "\n        {\"slave_node\": ";
                    putNode(out, model, p.slave()[i], true);
                    out << ", \"master_element\": ";
                    putElement(out, model, m, true);
                    out << ", \"master_face\": " << m.face << ", \"xi\": " << jsonNum(p.xi()(0, i))
                        << ", \"eta\": " << jsonNum(p.xi()(1, i))
                        << ", \"gap\": " << jsonNum(p.gap()[i])
                        << ", \"normal\": " << jsonVec(p.normal().col(i));
                    if (options.coordinates) {
                        out << ", \"x\": " << jsonVec(model.coords.col(p.slave()[i]))
                            << ", \"point\": " << jsonVec(p.point().col(i));
                    }
                    out << "}";
                }
            } else {
                const contact::SegmentPairs& p = *r.segmentPairs;
                OverlapOf overlapOf(r);
                for (Index i = 0; i < p.size(); ++i) {
                    const SegmentOrigin s = r.slave->origin[p.slave()[i]];
                    const SegmentOrigin m = r.master->origin[p.master()[i]];
                    const PairOverlap* found = overlapOf(p.slave()[i], p.master()[i]);
                    const PairOverlap& o = found != nullptr ? *found : kNoOverlap;
                    out << (i > 0 ? "," : "") << "\n        {\"slave_element\": ";
                    putElement(out, model, s, true);
                    out << ", \"slave_face\": " << s.face << ", \"master_element\": ";
                    putElement(out, model, m, true);
                    out << ", \"master_face\": " << m.face
                        << ", \"overlap_area\": " << jsonNum(o.overlapArea)
                        << ", \"capture_area\": " << jsonNum(o.captureArea)
                        << ", \"penetration_area\": " << jsonNum(o.penetrationArea);
                    if (options.coordinates) {
                        out << ", \"centroid\": "
                            << (o.count > 0 ? jsonVec(o.centroid) : std::string("null"));
                    }
                    out << "}";
                }
            }
            out << (pairs > 0 ? "\n      ]" : "]");
        }
        out << "\n    }";
    }
    out << (reports.empty() ? "]\n}\n" : "\n  ]\n}\n");
    file.commit();
}

void writeVtu(const std::string& path, const Model& model,
              const std::vector<InterfaceReport>& reports, const WriterOptions& options) {
    OutputFile file(path, options.write);
    std::vector<std::string> instanceNames;
    std::vector<std::int32_t> nodeInstance;
    if (!model.instances.empty()) {
        for (const Instance& i : model.instances) {
            instanceNames.push_back(i.name);
        }
        nodeInstance.resize(model.nodeIds.size());
        for (std::size_t n = 0; n < nodeInstance.size(); ++n) {
            nodeInstance[n] = model.instanceOfNode(static_cast<Index>(n));
        }
    }
    detail::VtuEncoder vtu(file.out(), options.vtuAscii, detail::vtuComment(instanceNames));
    for (const auto& r : reports) {
        detail::PieceSource src;
        src.master = &r.master->surface;
        src.slave = &r.slave->surface;
        src.slaveNodes = r.slave->nodeSurface ? &r.slave->nodes : nullptr;
        src.x = contact::CoordinatesView(model.coords);
        src.nodePairs = r.nodePairs;
        src.segmentPairs = r.segmentPairs;
        src.overlaps = r.overlaps;
        src.nodeIds = &model.nodeIds;
        src.nodeInstance = nodeInstance.empty() ? nullptr : &nodeInstance;
        src.masterOrigin = &r.master->origin;
        src.slaveOrigin = &r.slave->origin;
        detail::writePiece(vtu, src);
    }
    vtu.finish();
    file.commit();
}

std::vector<std::string> mortarFileNames(const std::string& dir, const std::string& prefix,
                                         bool assembly) {
    const std::string base = dir + "/" + prefix;
    std::vector<std::string> names{base + "_D.mtx", base + "_M.mtx", base + "_nodes.csv"};
    if (assembly) {
        names.push_back(base + "_master_nodes.csv");
    }
    return names;
}

void writeMortarFiles(const std::string& dir, const std::string& prefix, const Model& model,
                      const contact::MortarOperators& op, const std::string& description,
                      const WriteOptions& options) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
    }
    // Matrix indices: the file's node ids, or in assemblies (ids repeat across instances) the
    // node numbers in the model's order, from 1, which the nodes file names.
    const bool assembly = !model.instances.empty();
    const auto index = [&](Index n) {
        return assembly ? static_cast<long>(n) + 1 : model.nodeIds[static_cast<std::size_t>(n)];
    };
    long largest = 0;
    for (Index n = 0; n < model.numNodes(); ++n) {
        largest = std::max(largest, index(n));
    }
    const char* basis = op.basis == contact::MortarBasis::kDual ? "dual" : "standard";
    const std::vector<std::string> names = mortarFileNames(dir, prefix, assembly);
    // All written before any is committed: a failed write leaves the files as they were, not a
    // set of this run's and an earlier run's.
    std::vector<std::unique_ptr<OutputFile>> files;
    const auto open = [&](const std::string& path) -> std::ostream& {
        files.push_back(std::make_unique<OutputFile>(path, options));
        return files.back()->out();
    };
    const auto matrix = [&](const std::string& path, const contact::SparseTriplets& t,
                            const std::string& what) {
        std::ostream& out = open(path);
        out << "%%MatrixMarket matrix coordinate real general\n"
            << "% " << description << "\n% " << what << ", " << basis << " basis\n"
            << (assembly ? "% rows and columns: node numbers in the model's order (from 1), "
                           "named in the _nodes.csv (slave) and _master_nodes.csv files\n"
                         : "% rows and columns: node ids of the model file\n")
            << largest << ' ' << largest << ' ' << t.size() << '\n';
        for (std::size_t k = 0; k < t.size(); ++k) {
            out << index(t.row[k]) << ' ' << index(t.col[k]) << ' ' << num(t.value[k]) << '\n';
        }
    };
    matrix(names[0], op.D, "D_ab = int Phi_a N_b dA (slave x slave)");
    matrix(names[1], op.M, "M_ac = int Phi_a N^_c dA (slave x master)");
    std::ostream& out = open(names[2]);
    out << (assembly ? "node_number,node_label,weighted_gap,nodal_area\n"
                     : "node_id,weighted_gap,nodal_area\n");
    for (std::size_t k = 0; k < op.nodes.size(); ++k) {
        out << index(op.nodes[k]) << ',';
        if (assembly) {
            out << csvField(model.nodeLabel(op.nodes[k])) << ',';
        }
        out << num(op.weightedGap[k]) << ',' << num(op.nodalArea[k]) << '\n';
    }
    if (assembly) {  // M's columns, named
        std::vector<Index> columns(op.M.col.begin(), op.M.col.end());
        std::sort(columns.begin(), columns.end());
        columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
        std::ostream& masters = open(names[3]);
        masters << "node_number,node_label\n";
        for (const Index n : columns) {
            masters << index(n) << ',' << csvField(model.nodeLabel(n)) << '\n';
        }
    }
    for (std::size_t k = 0; k < files.size(); ++k) {
        if (!files[k]->out().flush()) {
            throw std::runtime_error("writing " + names[k] + " failed (disk full?)");
        }
    }
    for (const auto& f : files) {
        f->commit();
    }
}

}  // namespace mesh_io
