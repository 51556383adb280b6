// SPDX-License-Identifier: MIT
// A small small-strain linear-elastic finite-element model: plane-strain Quad4 (2D) and Hex8
// (3D) elements on structured blocks, stiffness, tractions, fixed displacements.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <functional>
#include <vector>

namespace fe {

/// Isotropic linear elasticity (plane strain in 2D).
struct Material {
    double E = 1.0;   ///< Young's modulus
    double nu = 0.3;  ///< Poisson's ratio
};

/// Nodes, elements and loads of one model. Degrees of freedom: dim per node, dof = dim * node + k.
struct Model {
    int dim = 2;
    std::vector<Eigen::Vector3d> X;            ///< reference coordinates (z = 0 in 2D)
    std::vector<std::array<int, 8>> elements;  ///< Quad4: 4 nodes counter-clockwise; Hex8: 8
    std::vector<Material> material;            ///< per element
    std::vector<char> fixed;                   ///< per dof: 1 when the displacement is zero
    Eigen::VectorXd force;                     ///< external nodal forces, per dof

    [[nodiscard]] int numNodes() const { return static_cast<int>(X.size()); }
    [[nodiscard]] int numDofs() const { return dim * numNodes(); }
    int addNode(const Eigen::Vector3d& x);
    void fix(int node, int component) {
        fixed[static_cast<std::size_t>(dim) * node + component] = 1;
    }
};

/// Node numbers of a structured block, node (i, j, k) for i <= nx, j <= ny, k <= nz.
struct Grid {
    int nx = 0;
    int ny = 0;
    int nz = 0;
    std::vector<int> node;
    [[nodiscard]] int at(int i, int j, int k = 0) const {
        return node[(static_cast<std::size_t>(k) * (ny + 1) + j) * (nx + 1) + i];
    }
};

/// A 2D block of nx x ny Quad4 elements, node (i, j) at pos(i, j); elements counter-clockwise
/// when pos increases with i along x and with j along y.
Grid addBlock2d(Model& m, int nx, int ny, const std::function<Eigen::Vector2d(int, int)>& pos,
                const Material& mat);

/// A 3D block of nx x ny x nz Hex8 elements, node (i, j, k) at pos(i, j, k).
Grid addBlock3d(Model& m, int nx, int ny, int nz,
                const std::function<Eigen::Vector3d(int, int, int)>& pos, const Material& mat);

/// Stiffness matrix over all dofs (2x2 Gauss points per Quad4, 2x2x2 per Hex8).
[[nodiscard]] Eigen::SparseMatrix<double> stiffness(const Model& m);

/// Uniform traction t (force per length) on the straight edge a-b: t L / 2 on each node.
void addEdgeTraction(Model& m, int a, int b, const Eigen::Vector2d& t);

/// Uniform traction t (force per area) on the bilinear face a-b-c-d (2x2 Gauss points).
void addFaceTraction(Model& m, const std::array<int, 4>& face, const Eigen::Vector3d& t);

}  // namespace fe
