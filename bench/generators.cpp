// SPDX-License-Identifier: MIT
#include "generators.hpp"

#include "contact/bounds.hpp"
#include "contact/segment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <string>

namespace contact::bench {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Cells per side of a square patch holding about `segments` segments.
int cellsPerSide(long segments, int segmentsPerCell) {
    return std::max(2, static_cast<int>(std::lround(
                           std::sqrt(static_cast<double>(segments) / segmentsPerCell))));
}

double meanEdgeLength(const Surface& s, const Eigen::Matrix3Xd& x) {
    double sum = 0.0;
    long count = 0;
    for (Index i = 0; i < s.size(); ++i) {
        const int c = cornerCount(s.types[i]);
        const Index* n = s.nodes(i);
        const int edges = c == 2 ? 1 : c;
        for (int e = 0; e < edges; ++e) {
            sum += (x.col(n[(e + 1) % c]) - x.col(n[e])).norm();
            ++count;
        }
    }
    return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

// printf into a 1 MiB block handed to the stream when full: the formats of a FILE, at its speed.
// A failed write leaves the stream failed; OutputFile::commit reports it.
class Printer {
public:
    explicit Printer(std::ostream& out) : out_(out) { block_.reserve(kBlock + kLine); }
    Printer(const Printer&) = delete;
    Printer& operator=(const Printer&) = delete;
    ~Printer() = default;

    [[gnu::format(printf, 2, 3)]] void operator()(const char* format, ...) {
        char line[kLine];
        std::va_list args;
        va_start(args, format);
        const int n = std::vsnprintf(line, sizeof line, format, args);
        va_end(args);
        if (n < 0 || n >= kLine) {
            throw std::logic_error("bench writer: a line longer than the line buffer");
        }
        block_.append(line, static_cast<std::size_t>(n));
        if (block_.size() >= kBlock) {
            flush();
        }
    }
    void flush() {
        out_.write(block_.data(), static_cast<std::streamsize>(block_.size()));
        block_.clear();
    }

private:
    static constexpr int kLine = 512;  // the longest line: a Quad8 element, about 100 bytes
    static constexpr std::size_t kBlock = std::size_t{1} << 20;
    std::ostream& out_;
    std::string block_;
};

// The surfaces a file holds: one for self-contact.
std::vector<const Surface*> fileSurfaces(const Scene& sc) {
    return sc.self ? std::vector<const Surface*>{&sc.master}
                   : std::vector<const Surface*>{&sc.master, &sc.slave};
}

// Writes write(printer) to path as OutputFile does; refuses an empty surface before opening.
template <class Write>
void writeFile(const Scene& sc, const std::string& path, const mesh_io::WriteOptions& options,
               Write&& write) {
    for (const Surface* s : fileSurfaces(sc)) {
        if (s->size() == 0) {
            throw std::invalid_argument("cannot write " + path + ": bench model '" + sc.kind +
                                        "' has no segments in surface '" + s->name + "'");
        }
    }
    mesh_io::OutputFile file(path, options);
    Printer print(file.out());
    write(print);
    print.flush();
    file.commit();
}

// Scene kinds: phases and amplitudes come from the seed, sizes from the segment count.
Scene wavy(SegmentType type, long segments, unsigned seed) {
    Scene sc;
    const int perCell = isTriangle(type) ? 2 : 1;
    const int n = cellsPerSide(segments, perCell);
    const double h = 1.0 / n;
    const double phase = 0.37 * seed;
    const double amp = 0.02;
    sc.master = testing::addPatch(
        sc.mesh, type, n, n,
        [=](double u, double v) {
            return Eigen::Vector3d(
                u, v, amp * std::sin(2 * kPi * 3 * u + phase) * std::cos(2 * kPi * 2 * v));
        },
        false, "master");
    // Slave: shifted by a third of a cell, same count; its own wave crosses the master's, so the
    // gap varies from -0.3 h (penetration) to beyond the capture distance.
    sc.slave = testing::addPatch(
        sc.mesh, type, n, n,
        [=](double u, double v) {
            const double x = u + h / 3;
            const double y = v + h / 3;
            return Eigen::Vector3d(
                x, y,
                amp * std::sin(2 * kPi * 3 * x + phase) * std::cos(2 * kPi * 2 * y) + 0.2 * h +
                    0.5 * h * std::sin(2 * kPi * 5 * x) * std::sin(2 * kPi * 4 * y));
        },
        true, "slave");
    return sc;
}

Scene wavyLines(long segments, unsigned seed) {
    Scene sc;
    sc.dim = 2;
    const int n = static_cast<int>(std::max(2L, segments));
    const double h = 1.0 / n;
    const double phase = 0.37 * seed;
    // Master traversed right to left: its normal (tangent rotated clockwise) points +y.
    sc.master = testing::addCurve(
        sc.mesh, SegmentType::Line2, n,
        [=](double u) { return Eigen::Vector2d(u, 0.02 * std::sin(2 * kPi * 7 * u + phase)); },
        true, "master");
    sc.slave = testing::addCurve(
        sc.mesh, SegmentType::Line2, n,
        [=](double u) {
            const double x = u + h / 3;
            return Eigen::Vector2d(x, 0.02 * std::sin(2 * kPi * 7 * x + phase) + 0.2 * h +
                                          0.5 * h * std::sin(2 * kPi * 11 * x));
        },
        false, "slave");
    return sc;
}

Scene gradedQuads(long segments, unsigned seed) {
    Scene sc;
    const int n = cellsPerSide(segments, 1);
    const double phase = 0.37 * seed;
    const double ratio = 60.0;
    const double amp = 0.01;
    sc.master = testing::addPatch(
        sc.mesh, SegmentType::Quad4, n, n,
        [=](double u, double v) {
            const double x = testing::graded(u, ratio);
            return Eigen::Vector3d(x, v, amp * std::sin(2 * kPi * 3 * x + phase));
        },
        false, "master");
    // Slave graded the other way: fine slave faces over coarse master faces and the reverse.
    const double hMin = testing::graded(1.0 / n, ratio);
    sc.slave = testing::addPatch(
        sc.mesh, SegmentType::Quad4, n, n,
        [=](double u, double v) {
            const double x = 1.0 - testing::graded(1.0 - u, ratio);
            return Eigen::Vector3d(x, v + 0.3 / n,
                                   amp * std::sin(2 * kPi * 3 * x + phase) + 0.5 * hMin);
        },
        true, "slave");
    return sc;
}

// One sheet: lower leg along +x at z = 0, a half circle of radius r, upper leg back along -x
// sagging onto the lower leg (gap 2r at the ends, about 0.1 cell in the middle). Cells are spread
// by arc length, so the bend is as finely meshed as the legs.
Scene foldedSheet(long segments, unsigned seed) {
    Scene sc;
    sc.self = true;
    const int ny = cellsPerSide(segments, 1) / 2;
    const int nx = static_cast<int>(std::max(4L, segments / std::max(1, ny)));
    const double width = 0.5;
    const double hy = width / ny;
    const double leg = 1.0;
    const double r = 3.0 * hy;  // the bend spans several cells
    const double arc = kPi * r;
    const double total = 2 * leg + arc;
    const double phase = 0.37 * seed;
    const auto path = [=](double u, double v) -> Eigen::Vector3d {
        const double s = u * total;
        const double y = v * width;
        if (s <= leg) {
            return {s, y, 0.0};
        }
        if (s <= leg + arc) {
            const double a = (s - leg) / r - kPi / 2;
            return {leg + r * std::cos(a), y, r + r * std::sin(a)};
        }
        const double t = (s - leg - arc) / leg;  // 0 at the bend, 1 at the free end
        const double sag = std::sin(kPi * t);
        const double gap =
            2 * r * (1.0 - 0.98 * sag * sag * (0.9 + 0.1 * std::sin(2 * kPi * 3 * v + phase)));
        return {leg - t * leg, y, gap};
    };
    sc.master = testing::addPatch(sc.mesh, SegmentType::Quad4, nx, ny, path, false, "sheet");
    sc.slave = sc.master;
    return sc;
}

void writeNodes3(Printer& print, const Eigen::Matrix3Xd& x, long first, int dim) {
    for (Eigen::Index i = 0; i < x.cols(); ++i) {
        if (dim == 3) {
            print("%ld, %.17g, %.17g, %.17g\n", first + i, x(0, i), x(1, i), x(2, i));
        } else {
            print("%ld, %.17g, %.17g\n", first + i, x(0, i), x(1, i));
        }
    }
}

const char* abaqusShell(SegmentType t) {
    switch (t) {
    case SegmentType::Tri3: return "S3";
    case SegmentType::Tri6: return "S6";
    case SegmentType::Quad4: return "S4R";
    case SegmentType::Quad8: return "S8R";
    case SegmentType::Quad9: return "S9R5";
    default: return nullptr;
    }
}

int gmshType(SegmentType t) {
    switch (t) {
    case SegmentType::Line2: return 1;
    case SegmentType::Line3: return 8;
    case SegmentType::Tri3: return 2;
    case SegmentType::Tri6: return 9;
    case SegmentType::Quad4: return 3;
    case SegmentType::Quad8: return 16;
    case SegmentType::Quad9: return 10;
    }
    return 0;
}

}  // namespace

const std::vector<std::string>& sceneKinds() {
    static const std::vector<std::string> kinds = {"wavy_quad4", "wavy_tri3",    "wavy_quad8",
                                                   "wavy_line2", "graded_quad4", "folded_sheet"};
    return kinds;
}

Scene makeScene(const std::string& kind, long segments, unsigned seed) {
    if (segments < 1 || segments > kMaxSegments) {
        throw std::invalid_argument("bench model '" + kind + "' of " + std::to_string(segments) +
                                    " segments per surface: the generators make 1 to " +
                                    std::to_string(kMaxSegments));
    }
    Scene sc;
    if (kind == "wavy_quad4") {
        sc = wavy(SegmentType::Quad4, segments, seed);
    } else if (kind == "wavy_tri3") {
        sc = wavy(SegmentType::Tri3, segments, seed);
    } else if (kind == "wavy_quad8") {
        sc = wavy(SegmentType::Quad8, segments, seed);
    } else if (kind == "wavy_line2") {
        sc = wavyLines(segments, seed);
    } else if (kind == "graded_quad4") {
        sc = gradedQuads(segments, seed);
    } else if (kind == "folded_sheet") {
        sc = foldedSheet(segments, seed);
    } else {
        throw std::invalid_argument("unknown scene kind '" + kind + "'");
    }
    sc.kind = kind;
    const Eigen::Matrix3Xd x = sc.mesh.coords3();
    sc.meanEdge = sc.self ? meanEdgeLength(sc.master, x)
                          : 0.5 * (meanEdgeLength(sc.master, x) + meanEdgeLength(sc.slave, x));
    return sc;
}

void segmentBoxes(const Surface& s, const Eigen::Matrix3Xd& x, double buffer, Eigen::Matrix3Xd& lo,
                  Eigen::Matrix3Xd& hi) {
    lo.resize(3, s.size());
    hi.resize(3, s.size());
    const CoordinatesView view(x);
    for (Index i = 0; i < s.size(); ++i) {
        const Aabb3 b = segmentAabb<3>(gatherSegment(s, i, view), buffer);
        lo.col(i) = b.lo;
        hi.col(i) = b.hi;
    }
}

std::string describeSurfaces(const Scene& sc) {
    if (sc.self) {
        return "one self-contact surface of " + std::to_string(sc.master.size()) + " segments";
    }
    return std::to_string(sc.master.size()) + " master, " + std::to_string(sc.slave.size()) +
           " slave segments";
}

namespace {

void writeAbaqusTo(const Scene& sc, Printer& print) {
    const Eigen::Matrix3Xd x = sc.coords3();
    print("** contact bench model '%s': %s (bench_generate)\n", sc.kind.c_str(),
          describeSurfaces(sc).c_str());
    print("*HEADING\ncontact bench %s\n*NODE, NSET=ALL\n", sc.kind.c_str());
    writeNodes3(print, x, 1, sc.dim);
    const std::vector<const Surface*> surfaces = fileSurfaces(sc);
    const char* names[2] = {sc.self ? "SHEET" : "MASTER", "SLAVE"};
    long nextElement = 1;
    long nextNode = static_cast<long>(x.cols()) + 1;
    for (std::size_t si = 0; si < surfaces.size(); ++si) {
        const Surface& s = *surfaces[si];
        const long firstElement = nextElement;
        if (sc.dim == 3) {
            // Shells of one type per block, the segment's node order: SPOS is the segment's side.
            print("*ELEMENT, TYPE=%s, ELSET=E%s\n", abaqusShell(s.types[0]), names[si]);
            for (Index i = 0; i < s.size(); ++i) {
                print("%ld", nextElement++);
                for (int k = 0; k < nodeCount(s.types[i]); ++k) {
                    print(", %d", s.nodes(i)[k] + 1);
                }
                print("\n");
            }
        } else {
            // One CPS4 under each segment a-b: a, b, then two nodes a cell deep on the solid's side
            // (opposite the normal). Counter-clockwise, so face S1 (a-b) is the segment, outward.
            // Nodes first: the reader wants every node defined before an element uses it.
            const long firstExtra = nextNode;
            print("*NODE\n");
            for (Index i = 0; i < s.size(); ++i) {
                const Index a = s.nodes(i)[0];
                const Index b = s.nodes(i)[1];
                const Eigen::Vector3d t = x.col(b) - x.col(a);
                const Eigen::Vector3d inward(-t.y(), t.x(), 0.0);  // normal is (t.y, -t.x)
                const Eigen::Vector3d pa = x.col(a) + inward;
                const Eigen::Vector3d pb = x.col(b) + inward;
                print("%ld, %.17g, %.17g\n%ld, %.17g, %.17g\n", nextNode, pa.x(), pa.y(),
                      nextNode + 1, pb.x(), pb.y());
                nextNode += 2;
            }
            print("*ELEMENT, TYPE=CPS4, ELSET=E%s\n", names[si]);
            for (Index i = 0; i < s.size(); ++i) {
                const long e = firstExtra + 2L * i;  // a' = e, b' = e + 1
                print("%ld, %d, %d, %ld, %ld\n", nextElement++, s.nodes(i)[0] + 1,
                      s.nodes(i)[1] + 1, e + 1, e);
            }
        }
        print("*ELSET, ELSET=S%s, GENERATE\n%ld, %ld, 1\n", names[si], firstElement,
              nextElement - 1);
        print("*SURFACE, NAME=%s, TYPE=ELEMENT\nS%s, %s\n", names[si], names[si],
              sc.dim == 3 ? "SPOS" : "S1");
    }
    print("*SURFACE INTERACTION, NAME=BENCH\n*CONTACT PAIR, INTERACTION=BENCH\n");
    if (sc.self) {
        print("SHEET, SHEET\n");
    } else {
        print("SLAVE, MASTER\n");
    }
}

void writeGmshTo(const Scene& sc, Printer& print) {
    const Eigen::Matrix3Xd x = sc.coords3();
    const int edim = sc.dim - 1;  // element dimension of the surfaces
    const std::vector<const Surface*> surfaces = fileSurfaces(sc);
    const char* names[2] = {sc.self ? "sheet" : "master", "slave"};
    const std::size_t ns = surfaces.size();
    print("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n%zu\n", ns);
    for (std::size_t i = 0; i < ns; ++i) {
        print("%d %zu \"%s\"\n", edim, i + 1, names[i]);
    }
    print("$EndPhysicalNames\n$Entities\n");
    // One entity per surface, tagged i + 1, with physical group i + 1 (bounding box: the model's).
    const Eigen::Vector3d lo = x.rowwise().minCoeff();
    const Eigen::Vector3d hi = x.rowwise().maxCoeff();
    print("0 %zu %zu 0\n", edim == 1 ? ns : 0, edim == 2 ? ns : 0);
    for (std::size_t i = 0; i < ns; ++i) {
        print("%zu %.17g %.17g %.17g %.17g %.17g %.17g 1 %zu 0\n", i + 1, lo.x(), lo.y(), lo.z(),
              hi.x(), hi.y(), hi.z(), i + 1);
    }
    print("$EndEntities\n$Nodes\n1 %ld 1 %ld\n%d 1 0 %ld\n", static_cast<long>(x.cols()),
          static_cast<long>(x.cols()), edim, static_cast<long>(x.cols()));
    for (Eigen::Index i = 0; i < x.cols(); ++i) {
        print("%ld\n", static_cast<long>(i + 1));
    }
    for (Eigen::Index i = 0; i < x.cols(); ++i) {
        print("%.17g %.17g %.17g\n", x(0, i), x(1, i), x(2, i));
    }
    long total = 0;
    for (const Surface* s : surfaces) {
        total += s->size();
    }
    print("$EndNodes\n$Elements\n%zu %ld 1 %ld\n", ns, total, total);
    long next = 1;
    for (std::size_t i = 0; i < ns; ++i) {
        const Surface& s = *surfaces[i];
        print("%d %zu %d %d\n", edim, i + 1, gmshType(s.types[0]), s.size());
        for (Index e = 0; e < s.size(); ++e) {
            print("%ld", next++);
            for (int k = 0; k < nodeCount(s.types[e]); ++k) {
                print(" %d", s.nodes(e)[k] + 1);
            }
            print("\n");
        }
    }
    print("$EndElements\n");
}

}  // namespace

void writeAbaqus(const Scene& sc, const std::string& path, const mesh_io::WriteOptions& options) {
    writeFile(sc, path, options, [&](Printer& print) { writeAbaqusTo(sc, print); });
}

void writeGmsh(const Scene& sc, const std::string& path, const mesh_io::WriteOptions& options) {
    writeFile(sc, path, options, [&](Printer& print) { writeGmshTo(sc, print); });
}

}  // namespace contact::bench
