// SPDX-License-Identifier: MIT
// An exact, order-independent sum of doubles: the mean segment size behind every relative capture
// distance, the same bit for bit however the terms are split between threads or MPI ranks.
#pragma once

#include "contact/export.hpp"

#include <array>
#include <cstdint>

namespace contact {

/// Exact sum of finite doubles. Each term is added without rounding to a fixed-point number that
/// spans the whole double range (bit 0 = 2^-1074), held as kDigits signed 64-bit words of 32-bit
/// digits; value() rounds the exact total once, to nearest, ties to even. So the result does not
/// depend on the order of the terms, and partial sums merge exactly: normalize() each, add their
/// digits as integers (an MPI_SUM of int64 over the ranks), and value() of the total is the
/// value() of one pass over all terms. Infinite or NaN terms are not allowed (their value is not
/// a number to sum); a total beyond the double range gives +-infinity.
class CONTACT_API ExactSum {
public:
    /// Digits: 2^1024 / 2^-1074 needs 2098 bits; two more digits hold the carries of 2^63 terms.
    static constexpr int kDigits = 68;
    using Digits = std::array<std::int64_t, kDigits>;

    /// Adds v (finite) exactly.
    void add(double v) noexcept;
    /// Adds another sum exactly.
    void add(const ExactSum& other) noexcept;
    /// The exact total rounded to the nearest double (ties to even).
    [[nodiscard]] double value() const noexcept;

    /// Carries every digit into [0, 2^32) but the last, which keeps the sign. Afterwards the
    /// digits of up to 2^31 normalized sums can be added as integers without overflow.
    void normalize() noexcept;
    /// The digits (after normalize(): as described there), to merge sums by adding digits.
    [[nodiscard]] Digits& digits() noexcept { return d_; }
    [[nodiscard]] const Digits& digits() const noexcept { return d_; }

private:
    Digits d_{};
    std::int64_t pending_ = 0;  // terms added since the last normalize (each adds < 2^32 a digit)
};

}  // namespace contact
