// SPDX-License-Identifier: MIT
// ExactSum against an independent correctly rounded sum (Shewchuk's partials with the half-even
// correction of CPython's math.fsum), and the properties the MPI search relies on.
#include "contact/exact_sum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace contact {
namespace {

// The correctly rounded sum by non-overlapping partials (terms well inside the double range).
double fsum(const std::vector<double>& xs) {
    std::vector<double> partials;
    for (double x : xs) {
        std::size_t i = 0;
        for (double y : partials) {
            if (std::abs(x) < std::abs(y)) {
                std::swap(x, y);
            }
            const double hi = x + y;
            const double lo = y - (hi - x);
            if (lo != 0.0) {
                partials[i++] = lo;
            }
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    std::size_t n = partials.size();
    if (n == 0) {
        return 0.0;
    }
    double hi = partials[--n];
    double lo = 0.0;
    while (n > 0) {
        const double x = hi;
        const double y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0) {
            break;
        }
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
        const double y = lo * 2.0;
        const double x = hi + y;
        if (y == x - hi) {
            hi = x;
        }
    }
    return hi;
}

double exactSum(const std::vector<double>& xs) {
    ExactSum s;
    for (double x : xs) {
        s.add(x);
    }
    return s.value();
}

TEST(ExactSum, KnownTotals) {
    EXPECT_EQ(exactSum({}), 0.0);
    EXPECT_EQ(exactSum({1e16, 1.0, -1e16}), 1.0);  // a left-to-right sum gives 0
    EXPECT_EQ(exactSum({0.1, 0.2}), 0.1 + 0.2);    // one rounding: the plain sum
    const double tiny = std::numeric_limits<double>::denorm_min();
    EXPECT_EQ(exactSum({tiny, tiny, tiny}), 3 * tiny);
    EXPECT_EQ(exactSum({1.0, tiny, -1.0}), tiny);
    const double big = std::numeric_limits<double>::max();
    EXPECT_EQ(exactSum({big, big, -big}), big);  // the partial sum 2 max needs no overflow
    EXPECT_EQ(exactSum({big, big}), HUGE_VAL);
    EXPECT_EQ(exactSum({-big, -big}), -HUGE_VAL);
    EXPECT_EQ(exactSum({-2.5, 1.0}), -1.5);
}

TEST(ExactSum, TiesRoundToEven) {
    const double two53 = 9007199254740992.0;               // 2^53: spacing 2 above it
    EXPECT_EQ(exactSum({two53, 1.0}), two53);              // halfway: even (2^53)
    EXPECT_EQ(exactSum({two53, 3.0}), two53 + 4.0);        // halfway: even (2^53 + 4)
    EXPECT_EQ(exactSum({two53, 1.0, 1e-300}), two53 + 2);  // just above halfway: up
    EXPECT_EQ(exactSum({-two53, -1.0}), -two53);
}

TEST(ExactSum, EqualsCorrectlyRoundedSumInAnyOrder) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> mant(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-60, 60);
    for (int c = 0; c < 300; ++c) {
        SCOPED_TRACE("seed 7, case " + std::to_string(c));
        const int n = 1 + c % 50;
        std::vector<double> xs;
        for (int i = 0; i < n; ++i) {
            const double v = std::ldexp(mant(rng), exponent(rng));
            xs.push_back(c % 3 == 0 ? std::abs(v) : v);  // sizes are positive: test those too
            if (c % 7 == 0) {
                xs.push_back(-v);  // cancellation
            }
        }
        const double expected = fsum(xs);
        EXPECT_EQ(exactSum(xs), expected);
        std::shuffle(xs.begin(), xs.end(), rng);
        EXPECT_EQ(exactSum(xs), expected);
        // Split in two partial sums merged by adding normalized digits (as MPI_SUM does).
        ExactSum a;
        ExactSum b;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            (i % 2 == 0 ? a : b).add(xs[i]);
        }
        a.normalize();
        b.normalize();
        for (int k = 0; k < ExactSum::kDigits; ++k) {
            a.digits()[k] += b.digits()[k];
        }
        EXPECT_EQ(a.value(), expected);
    }
}

TEST(ExactSum, ManyTermsNeedNoNormalizeByTheCaller) {
    // 3 million equal terms: their digits carry many times over; the total is exact.
    ExactSum s;
    const double v = 0.1;
    for (int i = 0; i < 3000000; ++i) {
        s.add(v);
    }
    EXPECT_EQ(s.value(), fsum(std::vector<double>(3000000, v)));
}

}  // namespace
}  // namespace contact
