// SPDX-License-Identifier: MIT
// The models shipped in examples/data, as Gmsh and an Abaqus-style writer made them: the same
// mesh in several formats reads to the same model, and surfaces come out facing outward.
#include "contact/segment.hpp"
#include "mesh_io/contact_surface.hpp"
#include "mesh_io/model.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mesh_io
