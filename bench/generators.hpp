// SPDX-License-Identifier: MIT
// Deterministic benchmark models: two contacting surfaces (or one folded sheet) of a given kind and
// size, their buffered boxes, and writers to Abaqus .inp and Gmsh .msh 4.1 (ASCII).
#pragma once

#include "contact/surface.hpp"
#include "mesh_io/output.hpp"

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

/// The largest model makeScene builds, in segments per surface. Node numbers and connectivity
/// offsets are 32-bit (Index), and a Quad8 model holds about 8 nodes a segment over its two
/// surfaces: at this size every count stays below 2^31 for every kind.
inline constexpr long kMaxSegments = 100000000;

/// Builds a model with about `segments` segments per surface. Seeded: same input, same model.
/// Throws std::invalid_argument for an unknown kind or segments outside [1, kMaxSegments].
[[nodiscard]] Scene makeScene(const std::string& kind, long segments, unsigned seed = 1);

/// Buffered AABBs of every segment: buffer on every side (3 x n; z range as segmentAabb<3>).
void segmentBoxes(const Surface& s, const Eigen::Matrix3Xd& x, double buffer, Eigen::Matrix3Xd& lo,
                  Eigen::Matrix3Xd& hi);

/// The writers write as mesh_io::OutputFile does: an existing file only with options.overwrite,
/// never a directory or a FIFO without a reader, the file in place only once it is complete.
/// They throw std::runtime_error naming the path when it is refused or a write fails (nothing is
/// left behind), std::invalid_argument for a surface without segments.

/// Abaqus/CalculiX .inp: *NODE, shells S3/S4R/S8R (3D) or one layer of CPS4 under each line2
/// segment (2D, face S1 = the segment), *SURFACE MASTER/SLAVE and *CONTACT PAIR (slave, master);
/// self-contact: one surface SHEET, paired with itself.
void writeAbaqus(const Scene& scene, const std::string& path, const mesh_io::WriteOptions& options);

/// Gmsh .msh 4.1 ASCII: the surfaces as physical groups "master" and "slave" (dimension 2 in 3D,
/// 1 in 2D). Self-contact writes one group "sheet".
void writeGmsh(const Scene& scene, const std::string& path, const mesh_io::WriteOptions& options);

/// What a model file holds, as its header line and bench_generate say it: "N master, M slave
/// segments", or "one self-contact surface of N segments".
[[nodiscard]] std::string describeSurfaces(const Scene& scene);

}  // namespace contact::bench
