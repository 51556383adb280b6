// SPDX-License-Identifier: MIT
#include "contact_solver.hpp"

#include "contact/contact_search.hpp"

#include <Eigen/Geometry>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace fe {
namespace {

// One constraint row: its slave node, gap, and coefficients on the dofs (n components).
struct Row {
    int node = 0;
    double gap = 0.0;
    double scale = 1.0;  // the row's area (mortar) or 1: gap per scale compares rows
    std::vector<std::pair<int, double>> coef;
};

void addNodeTerms(std::vector<std::pair<int, double>>& coef, int dim, int node, double w,
                  const Eigen::Vector3d& n) {
    for (int k = 0; k < dim; ++k) {
        coef.emplace_back(dim * node + k, w * n[k]);
    }
}

// The constraint rows of the current configuration.
std::vector<Row> mortarRows(const contact::MortarOperators& op, int dim, const Eigen::Vector3d& n) {
    std::vector<Row> rows(op.nodes.size());
    for (std::size_t r = 0; r < op.nodes.size(); ++r) {
        rows[r].node = op.nodes[r];
        rows[r].gap = op.weightedGap[r];
        rows[r].scale = op.nodalArea[r];
        for (std::size_t k = op.Dcsr.offsets[r]; k < op.Dcsr.offsets[r + 1]; ++k) {
            addNodeTerms(rows[r].coef, dim, op.Dcsr.col[k], op.Dcsr.value[k], n);
        }
        for (std::size_t k = op.Mcsr.offsets[r]; k < op.Mcsr.offsets[r + 1]; ++k) {
            addNodeTerms(rows[r].coef, dim, op.Mcsr.col[k], -op.Mcsr.value[k], n);
        }
    }
    return rows;
}

std::vector<Row> nodeRows(const contact::NodePairs& p, const contact::Surface& master, int dim,
                          const Eigen::Vector3d& n) {
    std::vector<Row> rows(static_cast<std::size_t>(p.size()));
    for (contact::Index i = 0; i < p.size(); ++i) {
        Row& r = rows[static_cast<std::size_t>(i)];
        r.node = p.slave()[i];
        r.gap = p.gap()[i];
        addNodeTerms(r.coef, dim, r.node, 1.0, n);
        const contact::Index m = p.master()[i];
        const contact::Index* mn = master.nodes(m);
        for (int c = 0; c < contact::nodeCount(master.types[m]); ++c) {
            addNodeTerms(r.coef, dim, mn[c], -p.shape()(c, i), n);
        }
    }
    return rows;
}

// The largest |D_ab|, a != b, over the largest |D_aa|.
double offDiagonal(const contact::SparseTriplets& D) {
    double diagonal = 0.0;
    double off = 0.0;
    for (std::size_t k = 0; k < D.size(); ++k) {
        double& m = D.row[k] == D.col[k] ? diagonal : off;
        m = std::max(m, std::abs(D.value[k]));
    }
    return diagonal > 0.0 ? off / diagonal : 0.0;
}

}  // namespace

std::vector<double> tributaryAreas(const Model& model, const contact::Surface& s) {
    std::vector<double> area(static_cast<std::size_t>(model.numNodes()), 0.0);
    for (contact::Index k = 0; k < s.size(); ++k) {
        const contact::Index* n = s.nodes(k);
        const auto X = [&](int i) { return model.X[static_cast<std::size_t>(n[i])]; };
        if (s.types[k] == contact::SegmentType::Line2) {
            const double L = (X(1) - X(0)).norm();
            area[static_cast<std::size_t>(n[0])] += 0.5 * L;
            area[static_cast<std::size_t>(n[1])] += 0.5 * L;
            continue;
        }
        constexpr double g = 0.577350269189625765;
        constexpr double r[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (const auto& rq : r) {
            const double xi = rq[0] * g;
            const double eta = rq[1] * g;
            Eigen::Vector3d dXi = Eigen::Vector3d::Zero();
            Eigen::Vector3d dEta = Eigen::Vector3d::Zero();
            for (int a = 0; a < 4; ++a) {
                dXi += 0.25 * r[a][0] * (1 + r[a][1] * eta) * X(a);
                dEta += 0.25 * r[a][1] * (1 + r[a][0] * xi) * X(a);
            }
            const double J = dXi.cross(dEta).norm();
            for (int a = 0; a < 4; ++a) {
                area[static_cast<std::size_t>(n[a])] +=
                    0.25 * (1 + r[a][0] * xi) * (1 + r[a][1] * eta) * J;
            }
        }
    }
    return area;
}

ContactSolution solveContact(const Model& model, const ContactSetup& setup, int maxIterations) {
    const int dim = model.dim;
    const int ndof = model.numDofs();
    std::vector<int> freeIndex(static_cast<std::size_t>(ndof), -1);
    int nfree = 0;
    for (int d = 0; d < ndof; ++d) {
        if (model.fixed[static_cast<std::size_t>(d)] == 0) {
            freeIndex[static_cast<std::size_t>(d)] = nfree++;
        }
    }
    const Eigen::SparseMatrix<double> K = stiffness(model);
    std::vector<Eigen::Triplet<double>> kTriplets;
    for (int col = 0; col < K.outerSize(); ++col) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(K, col); it; ++it) {
            const int i = freeIndex[static_cast<std::size_t>(it.row())];
            const int j = freeIndex[static_cast<std::size_t>(it.col())];
            if (i >= 0 && j >= 0) {
                kTriplets.emplace_back(i, j, it.value());
            }
        }
    }

    contact::SearchOptions so;
    so.mode = setup.method == ContactMethod::kMortar ? contact::SearchMode::kSegmentToSegment
                                                     : contact::SearchMode::kNodeToSegment;
    so.capture = setup.capture;
    so.captureRelative = false;
    contact::ContactSearch search(so);
    contact::MortarOptions mo;
    mo.basis = setup.basis;
    mo.csr = true;
    contact::MortarIntegrator mortar(mo);

    Eigen::Matrix3Xd x3(3, model.numNodes());
    Eigen::Matrix2Xd x2(2, model.numNodes());
    const auto coordinates = [&](const Eigen::VectorXd& u) -> contact::CoordinatesView {
        for (int i = 0; i < model.numNodes(); ++i) {
            Eigen::Vector3d x = model.X[static_cast<std::size_t>(i)];
            x.head(dim) += u.segment(static_cast<Eigen::Index>(dim) * i, dim);
            x3.col(i) = x;
            x2.col(i) = x.head<2>();
        }
        return dim == 3 ? contact::CoordinatesView(x3) : contact::CoordinatesView(x2);
    };

    ContactSolution sol;
    sol.u = Eigen::VectorXd::Zero(ndof);
    search.setSurfaces(setup.master, setup.slave, coordinates(sol.u));
    std::set<int> active;
    std::map<int, double> lambda;  // by node, from the last solve
    double lastStep = 0.0;
    double previousStep = 0.0;
    double extent = 0.0;  // the model's size, a length
    {
        Eigen::Vector3d lo = model.X.front();
        Eigen::Vector3d hi = lo;
        for (const Eigen::Vector3d& X : model.X) {
            lo = lo.cwiseMin(X);
            hi = hi.cwiseMax(X);
        }
        extent = (hi - lo).maxCoeff();
    }
    for (int it = 0; it < maxIterations; ++it) {
        const contact::CoordinatesView x = coordinates(sol.u);
        if (search.update(x).status != contact::UpdateStatus::kOk) {
            throw std::runtime_error("contact search failed");
        }
        std::vector<Row> rows;
        if (setup.method == ContactMethod::kMortar) {
            (void)mortar.compute(search, x);
            rows = mortarRows(mortar.operators(), dim, setup.normal);
            sol.dOffDiagonal = offDiagonal(mortar.operators().D);
        } else {
            rows = nodeRows(search.nodePairs(), setup.master, dim, setup.normal);
        }
        // Active set: penetrating rows join, rows whose multiplier turned negative leave.
        std::set<int> next;
        for (const Row& r : rows) {
            const double tol = 1e-12 * r.scale;
            const bool was = active.count(r.node) != 0;
            if ((was && lambda[r.node] > 0.0) || (!was && r.gap < -tol) ||
                (it == 0 && r.gap <= tol)) {
                next.insert(r.node);
            }
        }
        if (next.empty() && !rows.empty()) {
            // Nothing touches yet: the rows closest to contact hold the body, all of those that
            // tie (one of many equal gaps would leave the body free to turn about it).
            const auto least =
                std::min_element(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
                    return a.gap / a.scale < b.gap / b.scale;
                });
            const double g = least->gap / least->scale;
            for (const Row& r : rows) {
                if (r.gap / r.scale <= g + 1e-9 * std::max(std::abs(g), extent)) {
                    next.insert(r.node);
                }
            }
        }
        // Converged: the set repeats and the step is negligible, or small and no longer
        // falling (the rounding of a larger system's solve).
        const bool settled =
            lastStep <= 1e-12 || (lastStep <= 1e-10 && lastStep > 0.5 * previousStep);
        if (it > 0 && next == active && settled) {
            sol.converged = true;
            sol.iterations = it;
            break;
        }
        active = next;

        std::vector<Eigen::Triplet<double>> t = kTriplets;
        std::vector<const Row*> used;
        for (const Row& r : rows) {
            if (active.count(r.node) != 0) {
                used.push_back(&r);
            }
        }
        const int na = static_cast<int>(used.size());
        Eigen::VectorXd rhs = Eigen::VectorXd::Zero(nfree + na);
        const Eigen::VectorXd residual = model.force - K * sol.u;
        for (int d = 0; d < ndof; ++d) {
            if (freeIndex[static_cast<std::size_t>(d)] >= 0) {
                rhs[freeIndex[static_cast<std::size_t>(d)]] = residual[d];
            }
        }
        for (int k = 0; k < na; ++k) {
            for (const auto& [dof, v] : used[static_cast<std::size_t>(k)]->coef) {
                const int i = freeIndex[static_cast<std::size_t>(dof)];
                if (i >= 0) {
                    t.emplace_back(nfree + k, i, v);
                    t.emplace_back(i, nfree + k, v);
                }
            }
            rhs[nfree + k] = -used[static_cast<std::size_t>(k)]->gap;
        }
        Eigen::SparseMatrix<double> A(nfree + na, nfree + na);
        A.setFromTriplets(t.begin(), t.end());
        Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
        lu.compute(A);
        if (lu.info() != Eigen::Success) {
            throw std::runtime_error("the contact system is singular (iteration " +
                                     std::to_string(it) + ")");
        }
        const Eigen::VectorXd z = lu.solve(rhs);
        double step = 0.0;
        for (int d = 0; d < ndof; ++d) {
            const int i = freeIndex[static_cast<std::size_t>(d)];
            if (i >= 0) {
                sol.u[d] += z[i];
                step = std::max(step, std::abs(z[i]));
            }
        }
        // LU succeeds on a system singular but for rounding: its step is then absurd.
        if (!std::isfinite(step) || step > 1e6 * extent) {
            throw std::runtime_error("the contact system is singular (iteration " +
                                     std::to_string(it) + ": a step of " + std::to_string(step) +
                                     "; is a body held by too few contact rows?)");
        }
        previousStep = lastStep;
        lastStep = step / std::max(sol.u.cwiseAbs().maxCoeff(), 1e-300);
        lambda.clear();
        sol.nodes.clear();
        sol.pressure.clear();
        sol.normalForce = 0.0;
        for (int k = 0; k < na; ++k) {
            const Row& r = *used[static_cast<std::size_t>(k)];
            const double l = -z[nfree + k];
            lambda[r.node] = l;
            sol.normalForce += setup.method == ContactMethod::kMortar ? l * r.scale : l;
            sol.nodes.push_back(r.node);
            sol.pressure.push_back(l);
        }
        sol.iterations = it + 1;
    }
    if (setup.method == ContactMethod::kNodeToSegment) {
        const std::vector<double> area = tributaryAreas(model, setup.slave);
        for (std::size_t k = 0; k < sol.nodes.size(); ++k) {
            sol.pressure[k] /= area[static_cast<std::size_t>(sol.nodes[k])];
        }
    }
    return sol;
}

}  // namespace fe
