// SPDX-License-Identifier: MIT
// Float boxes rounded outward: how the search keeps its boxes in half the memory of doubles and
// still never loses an overlap. Internal; never installed.
#pragma once

#include "detail/margins.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace contact::detail {

/// Float box rounded outward: lo <= the double lo, hi >= the double hi, so the float box encloses
/// the double box and a float overlap test can only add pairs, never lose one. Closed: touching
/// boxes overlap.
struct FloatBox {
    float lo[3] = {0.0F, 0.0F, 0.0F};
    float hi[3] = {0.0F, 0.0F, 0.0F};
};

/// v rounded to float, then moved one float toward -inf (up = false) or +inf (up = true) when the
/// rounding went the other way. Branch-free: the sign of the rounding is data, not a jump, so
/// boxes converted in a loop do not pay a mispredicted branch per bound. The step is on the bits
/// (magnitude grows away from zero); zero never needs it in the direction of its sign (a value
/// that rounds to +0 is >= 0, one that rounds to -0 is <= 0), so no bit pattern wraps.
[[nodiscard]] inline float floatRounded(double v, bool up) noexcept {
    const float f = static_cast<float>(v);
    const double back = static_cast<double>(f);
    const bool step = up ? back < v : back > v;  // false for NaN
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    const bool negative = (bits >> 31) != 0U;
    // Toward +inf: magnitude grows for positive f; toward -inf: for negative f.
    const std::uint32_t delta = (negative != up) ? 1U : 0xFFFFFFFFU;
    bits += step ? delta : 0U;
    float r = 0.0F;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}
/// Largest float <= v (round toward -inf); NaN stays NaN.
[[nodiscard]] inline float floatDown(double v) noexcept { return floatRounded(v, false); }
/// Smallest float >= v (round toward +inf); NaN stays NaN.
[[nodiscard]] inline float floatUp(double v) noexcept { return floatRounded(v, true); }

/// std::nextafter(v, up ? +inf : -inf) for every finite v (zero steps to the smallest subnormal of
/// the step's sign); infinities and NaN come back unchanged. Branch-free, inline: every grown box
/// steps six bounds, and the library calls took about 20 ns a box (bench/RESULTS.md, issue 25).
[[nodiscard]] inline double doubleStep(double v, bool up) noexcept {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    const bool negative = (bits >> 63) != 0U;
    // Toward +inf: magnitude grows for positive v; toward -inf: for negative v.
    std::uint64_t stepped = bits + ((negative != up) ? 1U : ~std::uint64_t{0});
    stepped = v == 0.0 ? (up ? std::uint64_t{1} : (std::uint64_t{1} << 63) | 1U) : stepped;
    stepped = std::isfinite(v) ? stepped : bits;
    double r = 0.0;
    std::memcpy(&r, &stepped, sizeof r);
    return r;
}

/// The float box enclosing [lo, hi] (each bound rounded outward).
[[nodiscard]] inline FloatBox floatBoxOutward(const double* lo, const double* hi) noexcept {
    FloatBox b;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = floatDown(lo[k]);
        b.hi[k] = floatUp(hi[k]);
    }
    return b;
}

/// The float box enclosing [lo - grow, hi + grow]. lo - grow and hi + grow are rounded to nearest
/// in double first, so they may sit one double ulp inside the exact value: widening by that ulp
/// (doubleStep) keeps the float box enclosing the exact box.
[[nodiscard]] inline FloatBox floatBoxOutward(const double* lo, const double* hi,
                                              double grow) noexcept {
    FloatBox b;
    for (int k = 0; k < 3; ++k) {
        double l = lo[k];
        double h = hi[k];
        if (grow != 0.0) {
            l = doubleStep(l - grow, false);
            h = doubleStep(h + grow, true);
        }
        b.lo[k] = floatDown(l);
        b.hi[k] = floatUp(h);
    }
    return b;
}

/// Float box b grown by h, rounded outward: it encloses every box b encloses, grown by h (a fat
/// box of the Verlet list).
[[nodiscard]] inline FloatBox grownFloatBox(const FloatBox& b, double h) noexcept {
    const double lo[3] = {b.lo[0], b.lo[1], b.lo[2]};
    const double hi[3] = {b.hi[0], b.hi[1], b.hi[2]};
    return floatBoxOutward(lo, hi, h);
}

/// Every box grown by h (grownFloatBox), on `threads` threads: the fat boxes of a Verlet list.
/// Defined in verlet_cache.cpp.
[[nodiscard]] std::vector<FloatBox> fatBoxes(const std::vector<FloatBox>& boxes, double h,
                                             int threads);

/// True when two closed float boxes share a point.
[[nodiscard]] inline bool overlaps(const FloatBox& a, const FloatBox& b) noexcept {
    return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
           a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

/// True when the double box [lo, hi] lies inside the closed float box b.
[[nodiscard]] inline bool insideFloatBox(const double* lo, const double* hi,
                                         const FloatBox& b) noexcept {
    return lo[0] >= b.lo[0] && lo[1] >= b.lo[1] && lo[2] >= b.lo[2] && hi[0] <= b.hi[0] &&
           hi[1] <= b.hi[1] && hi[2] <= b.hi[2];
}

/// True when float box a lies inside float box b. For a = floatBoxOutward(lo, hi) this is exactly
/// insideFloatBox(lo, hi, b): b's ends are floats, and the largest float <= lo is >= b.lo exactly
/// when lo is (the same for hi, rounded up).
[[nodiscard]] inline bool inside(const FloatBox& a, const FloatBox& b) noexcept {
    return a.lo[0] >= b.lo[0] && a.lo[1] >= b.lo[1] && a.lo[2] >= b.lo[2] && a.hi[0] <= b.hi[0] &&
           a.hi[1] <= b.hi[1] && a.hi[2] <= b.hi[2];
}

/// What two float boxes, each rounded outward from a double box (floatBoxOutward), say of the
/// double boxes: apart when the float boxes are; overlapping when on every axis each box's high
/// end exceeds the other's low end by more than `margin` (boxMargin, in float); unsure otherwise:
/// the double boxes are within a float rounding of touching.
enum class BoxVerdict { kApart, kOverlap, kUnsure };

/// The margin of floatBoxVerdict for float boxes whose ends are all at most `scale` in magnitude:
/// a double rounded to float f moved by less than one float step, at most 2^-23 |f| (2^-149 below
/// the normal range), so two ends by less than 2^-22 scale; doubled, for the float rounding of the
/// differences in floatBoxVerdict (2^-24 of them), and rounded up to float (kBoxMarginRel,
/// kBoxMarginFloor).
[[nodiscard]] inline float boxMargin(double scale) noexcept {
    const double m = kBoxMarginRel * scale + kBoxMarginFloor;
    const auto f = static_cast<float>(m);
    return static_cast<double>(f) >= m ? f
                                       : std::nextafter(f, std::numeric_limits<float>::infinity());
}

[[nodiscard]] inline BoxVerdict floatBoxVerdict(const FloatBox& a, const FloatBox& b,
                                                float margin) noexcept {
    // The smallest of the six differences high end - low end in float: negative exactly when the
    // float boxes are apart (a difference of floats is a multiple of 2^-149, never rounded to 0).
    float lowest = std::numeric_limits<float>::infinity();
    for (int d = 0; d < 3; ++d) {
        lowest = std::min(lowest, std::min(b.hi[d] - a.lo[d], a.hi[d] - b.lo[d]));
    }
    return lowest < 0.0F     ? BoxVerdict::kApart
           : lowest > margin ? BoxVerdict::kOverlap
                             : BoxVerdict::kUnsure;
}

}  // namespace contact::detail
