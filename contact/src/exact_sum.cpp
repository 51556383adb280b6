// SPDX-License-Identifier: MIT
#include "contact/exact_sum.hpp"

#include <cmath>
#include <cstdlib>

namespace contact {
namespace {

constexpr std::uint64_t kMask = 0xFFFFFFFFULL;
constexpr double kRadix = 4294967296.0;  // 2^32

// Bit `pos` (0 = 2^-1074) of a normalized, non-negative digit array.
int bitAt(const ExactSum::Digits& d, int pos) noexcept {
    if (pos < 0) {
        return 0;
    }
    const auto word = static_cast<std::uint64_t>(d[pos / 32]);
    return static_cast<int>((word >> (pos % 32)) & 1U);
}

// True when any bit below `pos` is set.
bool anyBelow(const ExactSum::Digits& d, int pos) noexcept {
    for (int i = 0; i < pos; ++i) {
        if (bitAt(d, i) != 0) {
            return true;
        }
    }
    return false;
}

// `count` bits (count <= 63) from bit `from` up, as an integer.
std::uint64_t bitsFrom(const ExactSum::Digits& d, int from, int count) noexcept {
    std::uint64_t v = 0;
    for (int k = count - 1; k >= 0; --k) {
        v = (v << 1U) | static_cast<std::uint64_t>(bitAt(d, from + k));
    }
    return v;
}

}  // namespace

// v = m 2^e with an integer m < 2^53; its bits go to position b = e + 1074 >= 0 (subnormals have
// trailing zeros to drop) and span three 32-bit digits at most.
void ExactSum::add(double v) noexcept {
    if (v == 0.0 || !std::isfinite(v)) {
        return;
    }
    int e = 0;
    const double frac = std::frexp(std::abs(v), &e);  // |v| = frac 2^e, frac in [0.5, 1)
    auto m = static_cast<std::uint64_t>(std::ldexp(frac, 53));
    int b = e - 53 + 1074;
    if (b < 0) {
        m >>= static_cast<unsigned>(-b);  // only zero bits leave: v is a multiple of 2^-1074
        b = 0;
    }
    const int idx = b / 32;
    const auto low = static_cast<unsigned>(b % 32);
    const std::uint64_t p0 = (m << low) & kMask;
    const std::uint64_t p1 = low == 0 ? (m >> 32U) & kMask : (m >> (32U - low)) & kMask;
    const std::uint64_t p2 = low == 0 ? 0 : m >> (64U - low);
    const std::int64_t sign = v < 0.0 ? -1 : 1;
    d_[idx] += sign * static_cast<std::int64_t>(p0);
    d_[idx + 1] += sign * static_cast<std::int64_t>(p1);
    d_[idx + 2] += sign * static_cast<std::int64_t>(p2);
    if (++pending_ >= (std::int64_t{1} << 30)) {
        normalize();
    }
}

void ExactSum::add(const ExactSum& other) noexcept {
    ExactSum o = other;
    o.normalize();
    normalize();
    for (int i = 0; i < kDigits; ++i) {
        d_[i] += o.d_[i];
    }
    pending_ = 2;  // two normalized sums: far from any overflow
}

void ExactSum::normalize() noexcept {
    for (int i = 0; i + 1 < kDigits; ++i) {
        // Floor division by 2^32: the low digit in [0, 2^32), the rest carried up exactly.
        const auto lowDigit = static_cast<std::int64_t>(static_cast<std::uint64_t>(d_[i]) & kMask);
        d_[i + 1] += (d_[i] - lowDigit) / static_cast<std::int64_t>(kRadix);
        d_[i] = lowDigit;
    }
    pending_ = 0;
}

double ExactSum::value() const noexcept {
    ExactSum s = *this;
    s.normalize();
    double sign = 1.0;
    if (s.d_[kDigits - 1] < 0) {
        for (std::int64_t& x : s.d_) {
            x = -x;
        }
        s.normalize();
        sign = -1.0;
    }
    int top = kDigits - 1;
    while (top >= 0 && s.d_[top] == 0) {
        --top;
    }
    if (top < 0) {
        return 0.0;
    }
    if (top >= 66) {  // 2^2112 / 2^1074 and up: beyond the double range
        return sign * HUGE_VAL;
    }
    int high = 31;
    while (((static_cast<std::uint64_t>(s.d_[top]) >> static_cast<unsigned>(high)) & 1U) == 0) {
        --high;
    }
    const int msb = 32 * top + high;  // position of the leading bit
    if (msb <= 52) {                  // fewer than 54 bits: exact (subnormal or smallest binade)
        return sign * std::ldexp(static_cast<double>(bitsFrom(s.d_, 0, msb + 1)), -1074);
    }
    std::uint64_t mant = bitsFrom(s.d_, msb - 52, 53);
    const int roundBit = bitAt(s.d_, msb - 53);
    if (roundBit != 0 && (anyBelow(s.d_, msb - 53) || (mant & 1U) != 0)) {
        ++mant;  // to 2^53 at most: still exact in a double, ldexp rescales
    }
    return sign * std::ldexp(static_cast<double>(mant), msb - 52 - 1074);
}

}  // namespace contact
