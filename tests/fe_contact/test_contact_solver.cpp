// SPDX-License-Identifier: MIT
// The example solver's active-set loop on cases its three runs do not reach: a body held only by
// its contact rows, which all tie at first, and a body that nothing holds.
#include "contact_solver.hpp"
#include "fe_model.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

// A 1 x 0.1 block of nx x 2 Quad4 lifted by `lift` above a rigid flat y = 0, pressed down by a
// unit traction on its top over [x0, x1]; only its corner (0, lift) held along x. Returns the
// load (per unit thickness).
double liftedBlock(fe::Model& m, fe::ContactSetup& s, double lift, double x0, double x1) {
    const int nx = 20;
    m.dim = 2;
    const fe::Grid g = fe::addBlock2d(
        m, nx, 2, [&](int i, int j) { return Eigen::Vector2d(1.0 * i / nx, lift + 0.05 * j); },
        fe::Material{1000.0, 0.3});
    double load = 0.0;
    for (int i = 0; i < nx; ++i) {
        const double xa = 1.0 * i / nx;
        const double xb = 1.0 * (i + 1) / nx;
        if (xa >= x0 - 1e-12 && xb <= x1 + 1e-12) {
            fe::addEdgeTraction(m, g.at(i + 1, 2), g.at(i, 2), Eigen::Vector2d(0, -1));
            load += xb - xa;
        }
        s.slave.addSegment(contact::SegmentType::Line2, {g.at(i, 0), g.at(i + 1, 0)});
    }
    m.fix(g.at(0, 0), 0);
    std::vector<int> flat;
    for (int k = 0; k <= 3; ++k) {
        flat.push_back(m.addNode(Eigen::Vector3d(-0.1 + 1.2 * k / 3, 0, 0)));
        m.fix(flat.back(), 0);
        m.fix(flat.back(), 1);
    }
    for (int k = 0; k < 3; ++k) {
        s.master.addSegment(contact::SegmentType::Line2, {flat[k + 1], flat[k]});
    }
    s.normal = Eigen::Vector3d::UnitY();
    s.capture = 0.05;
    return load;
}

// All 21 slave rows start at one gap: taking one of them left the block free to turn about it
// (a solve of |u| ~ 1e11, then nothing constrained, 60 iterations, no error).
TEST(FeContactSolver, TiedGapsAtTheStartHoldTheBody) {
    for (const auto method : {fe::ContactMethod::kMortar, fe::ContactMethod::kNodeToSegment}) {
        fe::Model m;
        fe::ContactSetup s;
        const double load = liftedBlock(m, s, 1e-3, 0.4, 0.6);
        s.method = method;
        const fe::ContactSolution sol = fe::solveContact(m, s);
        EXPECT_TRUE(sol.converged);
        EXPECT_NEAR(sol.normalForce, load, 1e-9 * load);
        EXPECT_LT(sol.u.cwiseAbs().maxCoeff(), 0.01);  // the lift and an elastic dent
        for (const double p : sol.pressure) {
            EXPECT_GT(p, 0.0);
        }
    }
}

// Beyond the capture distance nothing holds the block: the singular system is refused.
TEST(FeContactSolver, AFreeBodyIsRefused) {
    fe::Model m;
    fe::ContactSetup s;
    (void)liftedBlock(m, s, 0.5, 0.4, 0.6);
    EXPECT_THROW((void)fe::solveContact(m, s), std::runtime_error);
}

}  // namespace
