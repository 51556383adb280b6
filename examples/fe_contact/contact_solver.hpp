// SPDX-License-Identifier: MIT
// Frictionless contact by Lagrange multipliers with an active set, the contact terms assembled
// from the contact library every iteration: mortar (multipliers on the slave nodes, weighted gaps
// g~_a >= 0) or node-to-segment (a multiplier per slave node, its closest-point gap >= 0).
#pragma once

#include "contact/mortar.hpp"
#include "contact/surface.hpp"

#include "fe_model.hpp"

#include <Eigen/Core>

#include <vector>

namespace fe {

enum class ContactMethod { kMortar, kNodeToSegment };

/// One contact interface of a model.
struct ContactSetup {
    contact::Surface master;  ///< node indices into the model's nodes
    contact::Surface slave;
    /// The contact normal (the master's outward unit normal; constant: flat masters).
    Eigen::Vector3d normal = Eigen::Vector3d::UnitY();
    double capture = 0.1;  ///< capture distance of the search (a length)
    ContactMethod method = ContactMethod::kMortar;
    contact::MortarBasis basis = contact::MortarBasis::kStandard;
};

/// The solution: displacements and the contact pressure at the active slave nodes.
struct ContactSolution {
    Eigen::VectorXd u;             ///< displacements, per dof
    std::vector<int> nodes;        ///< active slave nodes, increasing
    std::vector<double> pressure;  ///< per active node: mortar lambda_a; node-to-segment the
                                   ///< nodal force over the node's tributary area
    double normalForce = 0.0;      ///< total contact force along the normal
    /// Mortar: the largest |D_ab|, a != b, over the largest |D_aa| (0 for a diagonal D), from
    /// the last iteration's integrals.
    double dOffDiagonal = 0.0;
    int iterations = 0;
    bool converged = false;
};

/// Solves K u = f + G^T lambda with g~(u) >= 0, lambda >= 0, lambda g~ = 0 by an active-set
/// loop: each iteration updates the search (and the mortar integrals) at x = X + u, takes the
/// active set (the multipliers kept positive, the rows found penetrating; at first the rows with
/// g~ <= 0, or else those within 1e-9 of the least gap per area, all of them where gaps tie),
/// and solves the saddle-point system [K G^T; G 0] [du; -lambda] = [f - K u; -g~] for the
/// active rows (SparseLU). It stops when the active set repeats and the step is below 1e-12 of
/// the displacement, or below 1e-10 and no longer halving (rounding). Throws where the system is
/// singular: the LU fails, or a step is not finite or larger than 1e6 times the model (a body
/// held by too few rows).
/// G: mortar row a is sum_b D_ab n^T at slave node b, -sum_c M_ac n^T at master node c;
/// node-to-segment row a is n^T at node a, -N^_c n^T at the nodes c of its master segment.
ContactSolution solveContact(const Model& model, const ContactSetup& setup, int maxIterations = 60);

/// Tributary area of each node of a surface, int N_a over its segments (Line2, Quad4) in the
/// reference configuration; indexed by node.
std::vector<double> tributaryAreas(const Model& model, const contact::Surface& s);

}  // namespace fe
