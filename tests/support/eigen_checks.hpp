// SPDX-License-Identifier: MIT
// Eigen comparisons that print both operands on failure.
#pragma once

#include <Eigen/Core>
#include <gtest/gtest.h>

namespace contact::testing {

/// |a - b|_inf <= tol, printing both matrices when it fails.
template <typename A, typename B>
::testing::AssertionResult allNear(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b,
                                   double tol) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) {
        return ::testing::AssertionFailure()
               << "shape " << a.rows() << "x" << a.cols() << " vs " << b.rows() << "x" << b.cols();
    }
    const double err = (a - b).cwiseAbs().maxCoeff();
    if (err <= tol) {
        return ::testing::AssertionSuccess();
    }
    Eigen::IOFormat fmt(17, 0, ", ", "; ", "", "", "[", "]");
    return ::testing::AssertionFailure()
           << "max |a - b| = " << err << " > " << tol << "\n  a = " << a.format(fmt)
           << "\n  b = " << b.format(fmt);
}

}  // namespace contact::testing
