// SPDX-License-Identifier: MIT
#include "mesh_io/vtu.hpp"

#include "vtu_piece.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace mesh_io {
namespace detail {

const char* const kVtuComment =
    "contact search results: role 0 master segment, 1 slave segment or node, 2 pair (node to "
    "closest point), 3 part of an overlap within the capture distance; gap and normal are NaN "
    "where there is no pair";

std::string vtuComment(const std::vector<std::string>& instanceNames) {
    std::string c = kVtuComment;
    if (instanceNames.empty()) {
        return c;
    }
    c += "; node_instance and element_instance index the part instances (ids repeat across "
         "them):";
    for (std::size_t i = 0; i < instanceNames.size(); ++i) {
        std::string name = instanceNames[i];
        // An XML comment cannot hold "--": written "- -".
        for (std::size_t at = name.find("--"); at != std::string::npos; at = name.find("--", at)) {
            name.replace(at, 2, "- -");
        }
        c += (i == 0 ? " " : ", ") + std::to_string(i) + " " + name;
    }
    return c;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint8_t vtkCellType(contact::SegmentType t) {
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
constexpr std::uint8_t kVtkVertex = 1;
constexpr std::uint8_t kVtkLine = 3;
constexpr std::uint8_t kVtkPolygon = 7;

// The piece's arrays, filled cell by cell and point by point.
struct Piece {
    std::vector<Index> local;  // model node -> piece point (kNoIndex: not used)
    std::vector<Index> nodes;  // piece point -> model node, for the first nodes.size() points
    std::vector<Eigen::Vector3d> extra;  // points after the model nodes
    std::vector<double> gap;             // per point, NaN where there is no pair
    std::vector<double> normal;          // 3 per point
    std::vector<std::uint8_t> paired;
    std::vector<std::int32_t> connectivity;
    std::vector<std::int64_t> offsets;
    std::vector<std::uint8_t> types;
    std::vector<std::int32_t> role;
    std::vector<std::int64_t> element;
    std::vector<std::int32_t> face;
    std::vector<std::int32_t> pairCount;
    std::vector<std::int32_t> instance;  // part instance of the cell's element (-1: none)
    // Segment mode, per cell (NaN but on role 3 cells).
    std::vector<double> overlapArea, captureArea, penetrationArea, gapMin, gapMax;

    Index use(Index n) {
        if (local[n] == contact::kNoIndex) {
            local[n] = static_cast<Index>(nodes.size());
            nodes.push_back(n);
        }
        return local[n];
    }
    void cell(std::uint8_t type, int r, const SegmentOrigin& o, int count) {
        offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
        types.push_back(type);
        role.push_back(r);
        element.push_back(o.elementId);
        face.push_back(o.face);
        pairCount.push_back(count);
        instance.push_back(o.instance);
    }
};

void addSurface(Piece& pc, const contact::Surface& s, const SegmentOrigins* origin, int role,
                const std::vector<int>& count) {
    for (Index k = 0; k < s.size(); ++k) {
        const SegmentOrigin o = origin != nullptr ? (*origin)[k] : SegmentOrigin{k, 0};
        pc.cell(vtkCellType(s.types[k]), role, o, count[k]);
        for (int i = 0; i < contact::nodeCount(s.types[k]); ++i) {
            pc.connectivity.push_back(pc.use(s.nodes(k)[i]));
        }
    }
}

}  // namespace

void writePiece(VtuEncoder& vtu, const PieceSource& src) {
    const bool nodeMode = src.nodePairs != nullptr;
    const contact::Surface& master = *src.master;
    const contact::Surface& slave = *src.slave;
    Piece pc;
    pc.local.assign(static_cast<std::size_t>(src.x.numNodes), contact::kNoIndex);

    // Pairs in contact through each segment.
    std::vector<int> masterCount(static_cast<std::size_t>(master.size()), 0);
    std::vector<int> slaveCount(static_cast<std::size_t>(slave.size()), 0);
    if (nodeMode) {
        for (const Index j : src.nodePairs->master()) {
            ++masterCount[j];
        }
    } else {
        for (const PairOverlap& o : src.overlaps->pairs) {
            masterCount[o.master] += o.captureArea > 0.0 ? 1 : 0;
            slaveCount[o.slave] += o.captureArea > 0.0 ? 1 : 0;
        }
    }
    addSurface(pc, master, src.masterOrigin, 0, masterCount);
    addSurface(pc, slave, src.slaveOrigin, 1, slaveCount);
    if (src.slaveNodes != nullptr) {
        for (const Index n : *src.slaveNodes) {
            const int instance = src.nodeInstance != nullptr ? (*src.nodeInstance)[n] : -1;
            pc.cell(kVtkVertex, 1, SegmentOrigin{0, 0, instance}, 0);
            pc.connectivity.push_back(pc.use(n));
        }
    }
    const auto modelPoints = static_cast<Index>(pc.nodes.size());
    std::vector<double> extraGap;
    std::vector<Eigen::Vector3d> extraNormal;
    const std::size_t surfaceCells = pc.types.size();
    if (nodeMode) {
        const contact::NodePairs& p = *src.nodePairs;
        for (Index i = 0; i < p.size(); ++i) {
            const SegmentOrigin o = src.masterOrigin != nullptr ? (*src.masterOrigin)[p.master()[i]]
                                                                : SegmentOrigin{p.master()[i], 0};
            pc.cell(kVtkLine, 2, o, 1);
            pc.connectivity.push_back(pc.local[p.slave()[i]]);
            pc.connectivity.push_back(modelPoints + static_cast<Index>(pc.extra.size()));
            pc.extra.emplace_back(p.point().col(i));
            extraGap.push_back(p.gap()[i]);
            extraNormal.emplace_back(p.normal().col(i));
        }
    } else {
        const Overlaps& ov = *src.overlaps;
        for (const PairOverlap& o : ov.pairs) {
            if (o.count < 2) {
                continue;
            }
            const SegmentOrigin m = src.masterOrigin != nullptr ? (*src.masterOrigin)[o.master]
                                                                : SegmentOrigin{o.master, 0};
            pc.cell(o.count == 2 ? kVtkLine : kVtkPolygon, 3, m, 1);
            const auto first = static_cast<std::size_t>(o.first);
            for (std::size_t at = first; at < first + static_cast<std::size_t>(o.count); ++at) {
                pc.connectivity.push_back(modelPoints + static_cast<Index>(pc.extra.size()));
                pc.extra.push_back(ov.points[at]);
                extraGap.push_back(ov.gap[at]);
                extraNormal.push_back(ov.normal[at]);
            }
            pc.overlapArea.push_back(o.overlapArea);
            pc.captureArea.push_back(o.captureArea);
            pc.penetrationArea.push_back(o.penetrationArea);
            pc.gapMin.push_back(o.gapMin);
            pc.gapMax.push_back(o.gapMax);
        }
    }
    const auto numPoints = static_cast<std::size_t>(modelPoints) + pc.extra.size();
    const std::size_t numCells = pc.types.size();

    // Point data: NaN but where there is a pair.
    pc.gap.assign(numPoints, kNaN);
    pc.normal.assign(3 * numPoints, kNaN);
    pc.paired.assign(numPoints, 0);
    const auto setPoint = [&](std::size_t k, double g, const Eigen::Vector3d& n) {
        pc.gap[k] = g;
        pc.normal[3 * k] = n.x();
        pc.normal[3 * k + 1] = n.y();
        pc.normal[3 * k + 2] = n.z();
        pc.paired[k] = 1;
    };
    if (nodeMode) {
        const contact::NodePairs& p = *src.nodePairs;
        for (Index i = 0; i < p.size(); ++i) {
            setPoint(static_cast<std::size_t>(pc.local[p.slave()[i]]), p.gap()[i],
                     p.normal().col(i));
        }
    }
    for (std::size_t k = 0; k < pc.extra.size(); ++k) {
        setPoint(static_cast<std::size_t>(modelPoints) + k, extraGap[k], extraNormal[k]);
    }
    std::vector<std::int64_t> nodeId(numPoints, -1);
    std::vector<std::int32_t> nodeInstance(src.nodeInstance != nullptr ? numPoints : 0, -1);
    std::vector<double> xyz(3 * numPoints);
    for (std::size_t k = 0; k < numPoints; ++k) {
        const bool node = k < static_cast<std::size_t>(modelPoints);
        const Index n = node ? pc.nodes[k] : contact::kNoIndex;
        if (node) {
            nodeId[k] = src.nodeIds != nullptr ? (*src.nodeIds)[static_cast<std::size_t>(n)] : n;
            if (src.nodeInstance != nullptr) {
                nodeInstance[k] = (*src.nodeInstance)[static_cast<std::size_t>(n)];
            }
        }
        const Eigen::Vector3d x =
            node ? src.x.node(n) : pc.extra[k - static_cast<std::size_t>(modelPoints)];
        xyz[3 * k] = x.x();
        xyz[3 * k + 1] = x.y();
        xyz[3 * k + 2] = x.z();
    }
    pc.offsets.erase(pc.offsets.begin());  // VTK's offsets: where each cell ends
    pc.offsets.push_back(static_cast<std::int64_t>(pc.connectivity.size()));

    vtu.beginPiece(static_cast<std::int64_t>(numPoints), static_cast<std::int64_t>(numCells));
    vtu.beginPointData("gap", "normal");
    vtu.array("gap", 1, pc.gap);
    vtu.array("normal", 3, pc.normal);
    vtu.array("paired", 1, pc.paired);
    vtu.array("node_id", 1, nodeId);
    if (src.nodeInstance != nullptr) {
        vtu.array("node_instance", 1, nodeInstance);
    }
    vtu.endData("PointData");
    vtu.beginCellData("role");
    vtu.array("role", 1, pc.role);
    vtu.array("element_id", 1, pc.element);
    vtu.array("face", 1, pc.face);
    vtu.array("pair_count", 1, pc.pairCount);
    if (src.nodeInstance != nullptr) {
        vtu.array("element_instance", 1, pc.instance);
    }
    if (!nodeMode) {
        // Role 3 cells come last: the overlap arrays are NaN before them.
        const auto padded = [&](const std::vector<double>& v) {
            std::vector<double> all(surfaceCells, kNaN);
            all.insert(all.end(), v.begin(), v.end());
            return all;
        };
        vtu.array("overlap_area", 1, padded(pc.overlapArea));
        vtu.array("capture_area", 1, padded(pc.captureArea));
        vtu.array("penetration_area", 1, padded(pc.penetrationArea));
        vtu.array("gap_min", 1, padded(pc.gapMin));
        vtu.array("gap_max", 1, padded(pc.gapMax));
    }
    vtu.endData("CellData");
    vtu.beginPoints();
    vtu.array(nullptr, 3, xyz);
    vtu.endPoints();
    vtu.beginCells();
    vtu.array("connectivity", 1, pc.connectivity);
    vtu.array("offsets", 1, pc.offsets);
    vtu.array("types", 1, pc.types);
    vtu.endCells();
    vtu.endPiece();
}

}  // namespace detail

namespace {

void writeOne(const std::string& path, const detail::PieceSource& src, const VtuOptions& options) {
    OutputFile file(path, options.write);
    detail::VtuEncoder vtu(file.out(), options.ascii, detail::kVtuComment);
    detail::writePiece(vtu, src);
    vtu.finish();
    file.commit();
}

// What writePiece reads, checked before anything is built or written (it indexes by these
// numbers unchecked): a surface's offsets against its types and connectivity, and its node
// numbers against x. Throws std::invalid_argument naming the surface and the bad number.
void checkSurface(const contact::Surface& s, const char* role, const contact::CoordinatesView& x) {
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument(std::string("writeContactVtu: the ") + role + " surface " +
                                    what);
    };
    const Index n = s.size();
    if (s.offsets.size() != static_cast<std::size_t>(n) + 1 || s.offsets[0] != 0 ||
        static_cast<std::size_t>(s.offsets[n]) != s.connectivity.size()) {
        fail("has offsets that do not match its segment count and connectivity");
    }
    for (Index k = 0; k < n; ++k) {
        if (!contact::isSegmentType(s.types[k]) ||
            s.offsets[k + 1] - s.offsets[k] != contact::nodeCount(s.types[k])) {
            fail("has segment " + std::to_string(k) + " whose node count is not its type's");
        }
    }
    for (const Index node : s.connectivity) {
        if (node < 0 || node >= x.numNodes) {
            fail("names node " + std::to_string(node) + "; the coordinates have " +
                 std::to_string(x.numNodes) + " nodes");
        }
    }
}

void checkCoordinates(const contact::CoordinatesView& x) {
    if (const char* bad = x.problem()) {
        throw std::invalid_argument(std::string("writeContactVtu: coordinates: ") + bad);
    }
}

// Node mode: the surfaces (checkSurface), the slave node list, and each pair's master segment
// and slave node, which must be a node of the slave surface or list.
void checkNodeSource(const detail::PieceSource& src) {
    const contact::CoordinatesView& x = src.x;
    checkCoordinates(x);
    checkSurface(*src.master, "master", x);
    checkSurface(*src.slave, "slave", x);
    std::vector<bool> slave(static_cast<std::size_t>(x.numNodes), false);
    for (const Index n : src.slave->connectivity) {
        slave[static_cast<std::size_t>(n)] = true;
    }
    if (src.slaveNodes != nullptr) {
        for (const Index n : *src.slaveNodes) {
            if (n < 0 || n >= x.numNodes) {
                throw std::invalid_argument("writeContactVtu: the slave node list names node " +
                                            std::to_string(n) + "; the coordinates have " +
                                            std::to_string(x.numNodes) + " nodes");
            }
            slave[static_cast<std::size_t>(n)] = true;
        }
    }
    const contact::NodePairs& p = *src.nodePairs;
    for (Index i = 0; i < p.size(); ++i) {
        const Index n = p.slave()[i];
        const Index m = p.master()[i];
        // The message is made only for a pair that fails (the checks run on every write).
        const auto fail = [&](const std::string& why) {
            throw std::invalid_argument("writeContactVtu: pair " + std::to_string(i) +
                                        " (slave node " + std::to_string(n) + ", master segment " +
                                        std::to_string(m) + "): " + why);
        };
        if (m < 0 || m >= src.master->size()) {
            fail("the master surface has " + std::to_string(src.master->size()) + " segments");
        }
        if (n < 0 || n >= x.numNodes) {
            fail("the coordinates have " + std::to_string(x.numNodes) + " nodes");
        }
        if (!slave[static_cast<std::size_t>(n)]) {
            fail(std::string("the node is not one of the slave ") +
                 (src.slaveNodes != nullptr ? "nodes" : "surface's"));
        }
    }
}

// A node-mode piece without model ids.
detail::PieceSource nodeSource(const contact::Surface& master, const contact::Surface& slave,
                               const std::vector<Index>* slaveNodes,
                               const contact::CoordinatesView& x, const contact::NodePairs& pairs) {
    detail::PieceSource src;
    src.master = &master;
    src.slave = &slave;
    src.slaveNodes = slaveNodes;
    src.x = x;
    src.nodePairs = &pairs;
    return src;
}

}  // namespace

void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const contact::Surface& slave, const contact::CoordinatesView& x,
                     const contact::NodePairs& pairs, const VtuOptions& options) {
    const detail::PieceSource src = nodeSource(master, slave, nullptr, x, pairs);
    checkNodeSource(src);
    writeOne(path, src, options);
}

void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const std::vector<Index>& slaveNodes, const contact::CoordinatesView& x,
                     const contact::NodePairs& pairs, const VtuOptions& options) {
    const contact::Surface none;
    const detail::PieceSource src = nodeSource(master, none, &slaveNodes, x, pairs);
    checkNodeSource(src);
    writeOne(path, src, options);
}

void writeContactVtu(const std::string& path, const contact::Surface& master,
                     const contact::Surface& slave, const contact::CoordinatesView& x,
                     const contact::SegmentPairs& pairs, double capture,
                     const VtuOptions& options) {
    checkCoordinates(x);
    checkSurface(master, "master", x);
    checkSurface(slave, "slave", x);
    const Overlaps overlaps =  // checks the pairs' segment numbers
        computeOverlaps(master, slave, pairs, x, capture, options.subdivisions);
    detail::PieceSource src;
    src.master = &master;
    src.slave = &slave;
    src.x = x;
    src.segmentPairs = &pairs;
    src.overlaps = &overlaps;
    writeOne(path, src, options);
}

namespace {

void checkPvdPath(const std::string& path) {
    const std::string suffix = ".pvd";
    if (path.size() <= suffix.size() ||
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) {
        throw std::runtime_error("a VTU series needs a path ending in .pvd, got '" + path + "'");
    }
}

// Increment k's VTU file: <stem>_<k>.vtu next to the .pvd.
std::string fileName(const std::string& pvdPath, std::size_t k) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%04zu.vtu", k);
    return pvdPath.substr(0, pvdPath.size() - 4) + suffix;
}

// The .pvd paths (absolute, symlinks of existing directories resolved) of the live series.
struct Registry {
    std::mutex mutex;
    std::set<std::string> paths;
};

Registry& registry() {
    static Registry r;
    return r;
}

std::string registryKey(const std::string& pvdPath) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path absolute = fs::absolute(pvdPath, ec).lexically_normal();
    const fs::path canonical = fs::weakly_canonical(absolute, ec);
    return (ec ? absolute : canonical).string();
}

// Escapes a file name for an XML attribute value.
std::string xmlAttribute(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string timeText(double time) {
    char t[32];
    std::snprintf(t, sizeof t, "%.17g", time);
    return t;
}

}  // namespace

VtuSeries::VtuSeries(std::string pvdPath, VtuOptions options, int steps)
    : pvdPath_(std::move(pvdPath)), options_(std::move(options)) {
    (void)checkOutputs(plannedFiles(pvdPath_, steps), options_.write);
    std::string key = registryKey(pvdPath_);
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.paths.insert(key).second) {
        throw std::runtime_error("VtuSeries: " + pvdPath_ +
                                 " is the .pvd of another live series (one series per file)");
    }
    owned_ = std::move(key);
}

VtuSeries::~VtuSeries() { release(); }

VtuSeries::VtuSeries(VtuSeries&& other) noexcept
    : pvdPath_(std::exchange(other.pvdPath_, {})), owned_(std::exchange(other.owned_, {})),
      options_(std::move(other.options_)), files_(std::exchange(other.files_, {})),
      times_(std::exchange(other.times_, {})), vtuWritten_(std::exchange(other.vtuWritten_, 0)) {}

VtuSeries& VtuSeries::operator=(VtuSeries&& other) noexcept {
    if (this != &other) {
        release();
        pvdPath_ = std::exchange(other.pvdPath_, {});
        owned_ = std::exchange(other.owned_, {});
        options_ = std::move(other.options_);
        files_ = std::exchange(other.files_, {});
        times_ = std::exchange(other.times_, {});
        vtuWritten_ = std::exchange(other.vtuWritten_, 0);
    }
    return *this;
}

void VtuSeries::release() noexcept {
    if (!owned_.empty()) {
        Registry& r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        r.paths.erase(owned_);
        owned_.clear();
    }
}

std::vector<std::string> VtuSeries::plannedFiles(const std::string& pvdPath, int steps) {
    checkPvdPath(pvdPath);
    if (steps < 0) {
        throw std::invalid_argument("VtuSeries: steps must be 0 or more, got " +
                                    std::to_string(steps));
    }
    std::vector<std::string> files{pvdPath};
    for (int k = 0; k < steps; ++k) {
        files.push_back(fileName(pvdPath, static_cast<std::size_t>(k)));
    }
    return files;
}

// Checks the series and the time; the next increment's file.
std::string VtuSeries::beginStep(double time) const {
    if (pvdPath_.empty()) {
        throw std::logic_error("VtuSeries::write: the series was moved from");
    }
    if (!std::isfinite(time)) {
        throw std::invalid_argument("VtuSeries::write: time " + timeText(time) + " is not finite");
    }
    if (!times_.empty() && !(time > times_.back())) {
        throw std::invalid_argument("VtuSeries::write: time " + timeText(time) +
                                    " is not after the previous step's time " +
                                    timeText(times_.back()));
    }
    return fileName(pvdPath_, files_.size());
}

// The increment file of a refused step is the series' own: replaced when written again.
VtuOptions VtuSeries::stepOptions() const {
    VtuOptions o = options_;
    o.write.overwrite = o.write.overwrite || files_.size() < vtuWritten_;
    return o;
}

void VtuSeries::endStep(const std::string& file, double time) {
    vtuWritten_ = std::max(vtuWritten_, files_.size() + 1);
    writeCollection(file, time);
    files_.push_back(file);
    times_.push_back(time);
}

void VtuSeries::write(double time, const contact::Surface& master, const contact::Surface& slave,
                      const contact::CoordinatesView& x, const contact::NodePairs& pairs) {
    const std::string f = beginStep(time);
    writeContactVtu(f, master, slave, x, pairs, stepOptions());
    endStep(f, time);
}

void VtuSeries::write(double time, const contact::Surface& master, const contact::Surface& slave,
                      const contact::CoordinatesView& x, const contact::SegmentPairs& pairs,
                      double capture) {
    const std::string f = beginStep(time);
    writeContactVtu(f, master, slave, x, pairs, capture, stepOptions());
    endStep(f, time);
}

// The .pvd with the recorded steps and the new one (file, time).
void VtuSeries::writeCollection(const std::string& file, double time) {
    WriteOptions w = options_.write;
    w.overwrite = w.overwrite || !files_.empty();  // a step recorded: the .pvd was written here
    OutputFile pvd(pvdPath_, w);
    std::ostream& out = pvd.out();
    out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
           "byte_order=\"LittleEndian\">\n  <Collection>\n";
    const auto dataSet = [&out](const std::string& f, double t) {
        const auto slash = f.rfind('/');
        out << R"(    <DataSet timestep=")" << timeText(t) << R"(" part="0" file=")"
            << xmlAttribute(slash == std::string::npos ? f : f.substr(slash + 1)) << "\"/>\n";
    };
    for (std::size_t k = 0; k < files_.size(); ++k) {
        dataSet(files_[k], times_[k]);
    }
    dataSet(file, time);
    out << "  </Collection>\n</VTKFile>\n";
    pvd.commit();
}

}  // namespace mesh_io
