// SPDX-License-Identifier: MIT
// The models shipped in examples/data, as Gmsh and an Abaqus-style writer made them: the same
// mesh in several formats reads to the same model, surfaces come out facing outward, and the
// sphere pressed into the block is in contact over the area geometry says.
#include "contact/contact_search.hpp"
#include "contact/segment.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"
#include "mesh_io/overlaps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace mesh_io {
namespace {

const std::string kData = std::string(CONTACT_EXAMPLES_DATA_DIR) + "/";

// Segments as lists of node ids (file ids), for comparing models whose node order may differ.
std::vector<std::vector<long>> segmentIds(const Model& m, const ContactSurface& cs) {
    std::vector<std::vector<long>> out;
    for (Index s = 0; s < cs.surface.size(); ++s) {
        std::vector<long> ids;
        for (int i = 0; i < contact::nodeCount(cs.surface.types[s]); ++i) {
            ids.push_back(m.nodeIds[cs.surface.nodes(s)[i]]);
        }
        out.push_back(ids);
    }
    return out;
}

struct CentreFrame {
    Eigen::Vector3d point;
    Eigen::Vector3d normal;
};

CentreFrame centre(const Model& m, const ContactSurface& cs, Index s) {
    contact::SegmentNodes seg;
    seg.type = cs.surface.types[s];
    for (int i = 0; i < contact::nodeCount(seg.type); ++i) {
        seg.x[i] = m.coords.col(cs.surface.nodes(s)[i]);
    }
    const contact::SegmentFrame fr = contact::segmentFrame(seg, contact::referenceCentre(seg.type));
    return {fr.point, fr.normal};
}

TEST(ShippedModels, GmshFormatsReadToTheSameModel) {
    const Model a = readModel(kData + "cylinder_on_block_2d.msh");
    for (const char* other : {"cylinder_on_block_2d_v22.msh", "cylinder_on_block_2d_bin.msh"}) {
        SCOPED_TRACE(other);
        const Model b = readModel(kData + other);
        ASSERT_EQ(a.numNodes(), b.numNodes());
        for (Index i = 0; i < a.numNodes(); ++i) {
            const Index j = b.findNode(a.nodeIds[i]);
            ASSERT_NE(j, contact::kNoIndex);
            // Gmsh prints 16 significant digits in every format: equal to the last digit or two.
            EXPECT_LE((a.coords.col(i) - b.coords.col(j)).norm(), 1e-14) << "node " << a.nodeIds[i];
        }
        for (const char* name : {"BlockTop", "CylinderEdge"}) {
            const ContactSurface sa = buildContactSurface(a, name);
            const ContactSurface sb = buildContactSurface(b, name);
            EXPECT_GT(sa.surface.size(), 10);
            EXPECT_EQ(segmentIds(a, sa), segmentIds(b, sb)) << name;
        }
    }
}

TEST(ShippedModels, CylinderOnBlockSurfacesFaceEachOther) {
    const Model m = readModel(kData + "cylinder_on_block_2d.msh");
    const ContactSurface top = buildContactSurface(m, "BlockTop");
    const ContactSurface cyl = buildContactSurface(m, "CylinderEdge");
    EXPECT_EQ(top.dim, 2);
    EXPECT_TRUE(top.notes.empty() && cyl.notes.empty()) << "every edge has an adjacent face";
    for (Index s = 0; s < top.surface.size(); ++s) {
        EXPECT_NEAR(centre(m, top, s).normal.y(), 1.0, 1e-12) << "block top faces +y";
    }
    const Eigen::Vector3d c(0, 0.49, 0);
    for (Index s = 0; s < cyl.surface.size(); ++s) {
        const CentreFrame f = centre(m, cyl, s);
        EXPECT_GT(f.normal.dot((f.point - c).normalized()), 0.99) << "cylinder edge faces out";
    }
}

TEST(ShippedModels, SphereSurfacesFaceOutward) {
    for (const char* file : {"sphere_on_block.msh", "sphere_on_block_o2.msh"}) {
        SCOPED_TRACE(file);
        const Model m = readModel(kData + file);
        const ContactSurface top = buildContactSurface(m, "BlockTop");
        const ContactSurface sph = buildContactSurface(m, "SphereSurface");
        EXPECT_EQ(top.dim, 3);
        EXPECT_TRUE(top.notes.empty() && sph.notes.empty());
        for (Index s = 0; s < top.surface.size(); ++s) {
            const CentreFrame f = centre(m, top, s);
            EXPECT_NEAR(f.point.z(), 0.0, 1e-12);
            EXPECT_NEAR(f.normal.z(), 1.0, 1e-12);
        }
        const Eigen::Vector3d c(0, 0, 0.49);
        for (Index s = 0; s < sph.surface.size(); ++s) {
            const CentreFrame f = centre(m, sph, s);
            EXPECT_GT(f.normal.dot((f.point - c).normalized()), 0.7) << "sphere faces outward";
        }
        const bool o2 = std::string(file).find("o2") != std::string::npos;
        EXPECT_EQ(sph.surface.types[0],
                  o2 ? contact::SegmentType::Tri6 : contact::SegmentType::Tri3);
    }
}

TEST(ShippedModels, PunchInpHasTheContactPairAndOutwardFaces) {
    const Model m = readModel(kData + "punch_on_block.inp");
    EXPECT_EQ(m.numElements(), 24 * 24 * 4 + 8 * 10 * 2);
    ASSERT_EQ(m.interfaces.size(), 1U);
    EXPECT_EQ(m.interfaces[0].slave, "BlockTop");
    EXPECT_EQ(m.interfaces[0].master, "PunchBottom");
    EXPECT_TRUE(m.interfaces[0].nodeToSurface);
    const ContactSurface top = buildContactSurface(m, "BlockTop");
    const ContactSurface punch = buildContactSurface(m, "PunchBottom");
    ASSERT_EQ(top.surface.size(), 24 * 24);
    ASSERT_EQ(punch.surface.size(), 8 * 10);
    for (Index s = 0; s < top.surface.size(); ++s) {
        EXPECT_NEAR(centre(m, top, s).normal.z(), 1.0, 1e-12);
        EXPECT_EQ(top.origin[s].face, 2);
    }
    for (Index s = 0; s < punch.surface.size(); ++s) {
        EXPECT_EQ(punch.surface.types[s], contact::SegmentType::Quad8);
        EXPECT_LT(centre(m, punch, s).normal.z(), -0.7) << "punch bottom faces down";
        EXPECT_EQ(punch.origin[s].face, 1);
    }
}

// Segment mode on the sphere (radius R = 0.5, centre 0.49 above the block top: depth d = 0.01),
// with the sphere as master. A point of the sphere at angle t from its lowest point has its
// normal line meet the block top at gap (R - d) / cos t - R, so the part of the sphere within a
// level g (gap <= g) is the cap cos t >= (R - d) / (R + g), of area
//     A(g) = 2 pi R^2 (d + g) / (R + g)     (penetrating: A(0) = 2 pi R d).
// Areas are measured on the master's tangent planes, over its facets' corner polygons. What the
// mesh changes, bounded from the mesh itself:
//   - the facets are not the sphere: they lie within e of it (e: the largest || x - c | - R |
//     over each facet in contact, sampled on a 24 x 24 grid, +10 % for the sampling), so their
//     gaps are within e of the sphere's and the level set lies between the caps of g -+ e;
//   - corner polygons inscribed in the sphere, and measured on a plane tilted from the sphere by
//     at most their circumradius r over R, carry between (1 - r^2 / R^2) and 1 of its area;
//   - the cut on curved facets is off by at most its reported bound (0 for flat Tri3).
// So A(g - e) (1 - r^2 / R^2) - bound <= area <= A(g + e) + bound, with r the largest
// circumradius of a facet in contact.
struct SphereCheck {
    double area = 0.0;
    double lo = 0.0;
    double hi = 0.0;
};

TEST(ShippedModels, SphereOnBlockSegmentModeAreasMatchTheSphericalCaps) {
    constexpr double kPi = 3.14159265358979323846;
    const double R = 0.5;
    const double d = 0.01;
    const Eigen::Vector3d c(0, 0, R - d);
    const auto cap = [&](double g) { return 2 * kPi * R * R * (d + g) / (R + g); };
    for (const char* file : {"sphere_on_block.msh", "sphere_on_block_o2.msh"}) {
        SCOPED_TRACE(file);
        const Model m = readModel(kData + file);
        const ContactSurface sphere = buildContactSurface(m, "SphereSurface");
        const ContactSurface top = buildContactSurface(m, "BlockTop");
        contact::SearchOptions o;
        o.mode = contact::SearchMode::kSegmentToSegment;
        contact::ContactSearch search(o);
        const contact::CoordinatesView x(m.coords);
        search.setSurfaces(sphere.surface, top.surface, x);
        ASSERT_EQ(search.update(x).status, contact::UpdateStatus::kOk);
        const double level = search.captureDistance();
        const Overlaps ov =
            computeOverlaps(sphere.surface, top.surface, search.segmentPairs(), x, level);

        // The mesh's distance from the sphere and its facets' circumradii, over the facets with
        // anything within the capture distance.
        double e = 0.0;
        double r = 0.0;
        std::vector<bool> seen(static_cast<std::size_t>(sphere.surface.size()), false);
        for (const PairOverlap& p : ov.pairs) {
            if (p.captureArea <= 0.0 || seen[p.master]) {
                continue;
            }
            seen[p.master] = true;
            const contact::SegmentNodes s = contact::gatherSegment(sphere.surface, p.master, x);
            constexpr int kN = 24;
            for (int i = 0; i <= kN; ++i) {
                for (int j = 0; i + j <= kN; ++j) {
                    const Eigen::Vector2d xi(double(i) / kN, double(j) / kN);
                    e = std::max(e, std::abs((contact::position(s, xi) - c).norm() - R));
                }
            }
            const Eigen::Vector3d a = s.x[1] - s.x[0];
            const Eigen::Vector3d b = s.x[2] - s.x[0];
            r = std::max(r, a.norm() * b.norm() * (a - b).norm() / (2 * a.cross(b).norm()));
        }
        e *= 1.1;
        const double shrink = 1 - r * r / (R * R);
        const SphereCheck within{ov.captureArea(), cap(level - e) * shrink - ov.captureAreaError(),
                                 cap(level + e) + ov.captureAreaError()};
        const SphereCheck pen{ov.penetrationArea(), cap(-e) * shrink - ov.penetrationAreaError(),
                              cap(e) + ov.penetrationAreaError()};
        std::printf("%s: capture %.4g, e %.3g, r %.3g; within capture %.5f in [%.5f, %.5f] "
                    "(cap %.5f, pi a^2 at d + c %.5f); penetrating %.5f in [%.5f, %.5f] (cap "
                    "%.5f, pi a^2 %.5f)\n",
                    file, level, e, r, within.area, within.lo, within.hi, cap(level),
                    kPi * (d + level) * (2 * R - d - level), pen.area, pen.lo, pen.hi, cap(0),
                    kPi * d * (2 * R - d));
        EXPECT_GE(within.area, within.lo);
        EXPECT_LE(within.area, within.hi);
        EXPECT_GE(pen.area, pen.lo);
        EXPECT_LE(pen.area, pen.hi);
        // The rigid-sphere disc pi a^2, a^2 = 2 R d - d^2, is the cap's plan view: A(0) - pi d^2.
        EXPECT_NEAR(pen.area, kPi * d * (2 * R - d), pen.hi - pen.lo + kPi * d * d);
        // Far less than what merely overlaps: the report is about the contact.
        EXPECT_LT(within.area, 0.5 * ov.overlapArea());
    }
}

void expectSameOverlaps(const Overlaps& a, const Overlaps& b) {
    ASSERT_EQ(a.pairs.size(), b.pairs.size());
    for (std::size_t i = 0; i < a.pairs.size(); ++i) {
        const PairOverlap& p = a.pairs[i];
        const PairOverlap& q = b.pairs[i];
        EXPECT_EQ(p.slave, q.slave);
        EXPECT_EQ(p.master, q.master);
        EXPECT_EQ(p.overlapArea, q.overlapArea);
        EXPECT_EQ(p.captureArea, q.captureArea);
        EXPECT_EQ(p.penetrationArea, q.penetrationArea);
        EXPECT_EQ(p.gapMin, q.gapMin);
        EXPECT_EQ(p.gapMax, q.gapMax);
        EXPECT_EQ(p.first, q.first);
        EXPECT_EQ(p.count, q.count);
        EXPECT_EQ(p.centroid, q.centroid);
    }
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.gap, b.gap);
    EXPECT_EQ(a.normal, b.normal);
}

// computeOverlaps on threads: runs of pairs joined in order, the same overlaps as on one thread
// (2D and 3D, linear and quadratic faces); a thread count below 1 is refused.
TEST(ShippedModels, OverlapsOnThreadsAreTheOverlapsOnOne) {
    struct Case {
        const char* file;
        const char* master;
        const char* slave;
    };
    for (const Case& c : {Case{"sphere_on_block.msh", "SphereSurface", "BlockTop"},
                          Case{"sphere_on_block_o2.msh", "SphereSurface", "BlockTop"},
                          Case{"cylinder_on_block_2d.msh", "CylinderEdge", "BlockTop"}}) {
        SCOPED_TRACE(c.file);
        const Model m = readModel(kData + c.file);
        const ContactSurface master = buildContactSurface(m, c.master);
        const ContactSurface slave = buildContactSurface(m, c.slave);
        contact::SearchOptions o;
        o.mode = contact::SearchMode::kSegmentToSegment;
        contact::ContactSearch search(o);
        const Eigen::Matrix2Xd xy = m.coords.topRows<2>();
        const contact::CoordinatesView x =
            master.dim == 2 ? contact::CoordinatesView(xy) : contact::CoordinatesView(m.coords);
        search.setSurfaces(master.surface, slave.surface, x);
        ASSERT_EQ(search.update(x).status, contact::UpdateStatus::kOk);
        const auto overlaps = [&](int threads) {
            return computeOverlaps(master.surface, slave.surface, search.segmentPairs(), x,
                                   search.captureDistance(), contact::kDefaultCutSubdivisions,
                                   threads);
        };
        const Overlaps one = overlaps(1);
        EXPECT_GT(one.inContact(), 10);
        EXPECT_GT(one.points.size(), one.pairs.size());
        for (int threads : {2, 3, 7}) {
            SCOPED_TRACE(threads);
            expectSameOverlaps(one, overlaps(threads));
        }
        EXPECT_THROW((void)overlaps(0), std::invalid_argument);
        EXPECT_THROW((void)overlaps(contact::kMaxThreads + 1), std::invalid_argument);

        // What the kernels cannot take is refused, naming it: a NaN or Inf at a node, a view
        // with too few nodes, pairs of other surfaces.
        const contact::SegmentPairs& pairs = search.segmentPairs();
        const Index node = master.surface.nodes(pairs.master()[0])[1];
        const auto refused = [&](const contact::Surface& ms, const contact::Surface& ss,
                                 const contact::CoordinatesView& y, const std::string& what) {
            try {
                (void)computeOverlaps(ms, ss, pairs, y, search.captureDistance(),
                                      contact::kDefaultCutSubdivisions, 1);
                ADD_FAILURE() << "accepted: " << what;
            } catch (const std::invalid_argument& e) {
                EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
            }
        };
        for (const double bad : {std::nan(""), HUGE_VAL}) {
            Eigen::Matrix3Xd y = m.coords;
            y(1, node) = bad;
            const Eigen::Matrix2Xd yxy = y.topRows<2>();
            refused(master.surface, slave.surface,
                    master.dim == 2 ? contact::CoordinatesView(yxy) : contact::CoordinatesView(y),
                    "node " + std::to_string(node) + " has a NaN or Inf coordinate");
        }
        contact::CoordinatesView fewer = x;
        fewer.numNodes = node;
        refused(master.surface, slave.surface, fewer,
                "; the coordinates have " + std::to_string(node) + " nodes");
        contact::Surface first;
        first.addSegment(slave.surface.types[0], slave.surface.nodes(0),
                         contact::nodeCount(slave.surface.types[0]));
        refused(master.surface, first, x, "the surfaces have 1 and");
    }
}

}  // namespace
}  // namespace mesh_io
