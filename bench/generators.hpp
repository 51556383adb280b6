// SPDX-License-Identifier: MIT
// Deterministic benchmark models: two contacting surfaces (or one folded sheet) of a given kind and
// size, their buffered boxes, and writers to Abaqus .inp and Gmsh .msh 4.1 (ASCII).
#pragma once

#include "contact/surface.hpp"

#include "surfaces.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace contact::bench {

/// Kinds of models (names as on the bench_generate command line).
/// wavy_quad4, wavy_tri3, wavy_quad8: a wavy master face (normal +z) under a slave face of the same
///   segment count, shifted by a third of a cell, facing down, with another wave: some of it
///   penetrates, some is beyond the capture distance.
/// wavy_line2: the same in 2D (line2 curves).
/// graded_quad4: master sizes graded 60x along x, slave graded 60x the other way.
/// folded_sheet: one quad4 sheet folded in a U whose upper leg sags onto the lower one
///   (self-contact: master = slave).
[[nodiscard]] const std::vector<std::string>& sceneKinds();

struct Scene {
    std::string kind;
    int dim = 3;
    bool self = false;
    testing::Mesh mesh;
    Surface master;
    Surface slave;          ///< a copy of master when self
    double meanEdge = 0.0;  ///< mean corner-to-corner edge length over both surfaces

    [[nodiscard]] Eigen::Matrix3Xd coords3() const { return mesh.coords3(); }
};

/// Builds a model with about `segments` segments per surface. Seeded: same input, same model.
/// Throws std::invalid_argument for an unknown kind.
[[nodiscard]] Scene makeScene(const std::string& kind, long segments, unsigned seed = 1);

/// Buffered AABBs of every segment: buffer on every side (3 x n; z range as segmentAabb<3>).
void segmentBoxes(const Surface& s, const Eigen::Matrix3Xd& x, double buffer, Eigen::Matrix3Xd& lo,
                  Eigen::Matrix3Xd& hi);

/// Abaqus/CalculiX .inp: *NODE, shells S3/S4R/S8R (3D) or one layer of CPS4 under each line2
/// segment (2D, face S1 = the segment), *SURFACE MASTER/SLAVE and *CONTACT PAIR (slave, master).
void writeAbaqus(const Scene& scene, const std::string& path);

/// Gmsh .msh 4.1 ASCII: the surfaces as physical groups "master" and "slave" (dimension 2 in 3D,
/// 1 in 2D). Self-contact writes one group "sheet".
void writeGmsh(const Scene& scene, const std::string& path);

}  // namespace contact::bench
