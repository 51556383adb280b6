// SPDX-License-Identifier: MIT
// Quadrature rules shared by the overlap quadrature (clipping.cpp) and the mortar integrals
// (mortar_kernels.cpp): triangle rules in barycentric coordinates and Gauss-Legendre on [-1, 1].
// Internal; never installed.
#pragma once

#include "contact/clipping.hpp"

#include <algorithm>

namespace contact::detail {

/// Barycentric triangle rule (l0, l1, l2; weight), weights summing to 1.
struct TriangleRule {
    int n = 0;
    int degree = 0;  ///< polynomials of this total degree are integrated exactly
    double l[kMaxTriangleQuadraturePoints][3] = {};
    double w[kMaxTriangleQuadraturePoints] = {};
};

inline constexpr TriangleRule kTriangleRule1{1, 1, {{1.0 / 3, 1.0 / 3, 1.0 / 3}}, {1.0}};
inline constexpr TriangleRule kTriangleRule2{
    3,
    2,
    {{2.0 / 3, 1.0 / 6, 1.0 / 6}, {1.0 / 6, 2.0 / 3, 1.0 / 6}, {1.0 / 6, 1.0 / 6, 2.0 / 3}},
    {1.0 / 3, 1.0 / 3, 1.0 / 3}};
// Dunavant (1985), degree 4, 6 points.
inline constexpr double kD4a = 0.445948490915964886;
inline constexpr double kD4b = 0.091576213509770743;
inline constexpr double kD4wa = 0.223381589678011466;
inline constexpr double kD4wb = 0.109951743655321868;
inline constexpr TriangleRule kTriangleRule4{6,
                                             4,
                                             {{kD4a, kD4a, 1 - 2 * kD4a},
                                              {kD4a, 1 - 2 * kD4a, kD4a},
                                              {1 - 2 * kD4a, kD4a, kD4a},
                                              {kD4b, kD4b, 1 - 2 * kD4b},
                                              {kD4b, 1 - 2 * kD4b, kD4b},
                                              {1 - 2 * kD4b, kD4b, kD4b}},
                                             {kD4wa, kD4wa, kD4wa, kD4wb, kD4wb, kD4wb}};
// Radon (1948), degree 5, 7 points: a = (6 - sqrt 15) / 21, b = (6 + sqrt 15) / 21,
// weights 9/40, (155 - sqrt 15) / 1200, (155 + sqrt 15) / 1200.
inline constexpr double kR5a = 0.101286507323456339;
inline constexpr double kR5b = 0.470142064105115090;
inline constexpr double kR5wa = 0.125939180544827153;
inline constexpr double kR5wb = 0.132394152788506181;
inline constexpr TriangleRule kTriangleRule5{7,
                                             5,
                                             {{1.0 / 3, 1.0 / 3, 1.0 / 3},
                                              {kR5a, kR5a, 1 - 2 * kR5a},
                                              {kR5a, 1 - 2 * kR5a, kR5a},
                                              {1 - 2 * kR5a, kR5a, kR5a},
                                              {kR5b, kR5b, 1 - 2 * kR5b},
                                              {kR5b, 1 - 2 * kR5b, kR5b},
                                              {1 - 2 * kR5b, kR5b, kR5b}},
                                             {9.0 / 40, kR5wa, kR5wa, kR5wa, kR5wb, kR5wb, kR5wb}};

// Dunavant (1985), degree 6, 12 points: two orbits (a, a, 1 - 2a) and one (a, b, 1 - a - b).
inline constexpr double kD6a = 0.249286745170910421;
inline constexpr double kD6b = 0.063089014491502228;
inline constexpr double kD6c = 0.053145049844816947;
inline constexpr double kD6d = 0.310352451033784405;
inline constexpr double kD6wa = 0.116786275726379366;
inline constexpr double kD6wb = 0.050844906370206817;
inline constexpr double kD6wc = 0.082851075618373575;
inline constexpr TriangleRule kTriangleRule6{
    12,
    6,
    {{kD6a, kD6a, 1 - 2 * kD6a},
     {kD6a, 1 - 2 * kD6a, kD6a},
     {1 - 2 * kD6a, kD6a, kD6a},
     {kD6b, kD6b, 1 - 2 * kD6b},
     {kD6b, 1 - 2 * kD6b, kD6b},
     {1 - 2 * kD6b, kD6b, kD6b},
     {kD6c, kD6d, 1 - kD6c - kD6d},
     {kD6c, 1 - kD6c - kD6d, kD6d},
     {kD6d, kD6c, 1 - kD6c - kD6d},
     {kD6d, 1 - kD6c - kD6d, kD6c},
     {1 - kD6c - kD6d, kD6c, kD6d},
     {1 - kD6c - kD6d, kD6d, kD6c}},
    {kD6wa, kD6wa, kD6wa, kD6wb, kD6wb, kD6wb, kD6wc, kD6wc, kD6wc, kD6wc, kD6wc, kD6wc}};
// Dunavant (1985), degree 8, 16 points: the centroid, three orbits (a, a, 1 - 2a) and one
// (a, b, 1 - a - b).
inline constexpr double kD8a = 0.459292588292723156;
inline constexpr double kD8b = 0.170569307751760207;
inline constexpr double kD8c = 0.050547228317030975;
inline constexpr double kD8d = 0.008394777409957605;
inline constexpr double kD8e = 0.263112829634638113;
inline constexpr double kD8w0 = 0.144315607677787168;
inline constexpr double kD8wa = 0.095091634267284625;
inline constexpr double kD8wb = 0.103217370534718250;
inline constexpr double kD8wc = 0.032458497623198080;
inline constexpr double kD8wd = 0.027230314174434994;
inline constexpr TriangleRule kTriangleRule8{16,
                                             8,
                                             {{1.0 / 3, 1.0 / 3, 1.0 / 3},
                                              {kD8a, kD8a, 1 - 2 * kD8a},
                                              {kD8a, 1 - 2 * kD8a, kD8a},
                                              {1 - 2 * kD8a, kD8a, kD8a},
                                              {kD8b, kD8b, 1 - 2 * kD8b},
                                              {kD8b, 1 - 2 * kD8b, kD8b},
                                              {1 - 2 * kD8b, kD8b, kD8b},
                                              {kD8c, kD8c, 1 - 2 * kD8c},
                                              {kD8c, 1 - 2 * kD8c, kD8c},
                                              {1 - 2 * kD8c, kD8c, kD8c},
                                              {kD8d, kD8e, 1 - kD8d - kD8e},
                                              {kD8d, 1 - kD8d - kD8e, kD8e},
                                              {kD8e, kD8d, 1 - kD8d - kD8e},
                                              {kD8e, 1 - kD8d - kD8e, kD8d},
                                              {1 - kD8d - kD8e, kD8d, kD8e},
                                              {1 - kD8d - kD8e, kD8e, kD8d}},
                                             {kD8w0, kD8wa, kD8wa, kD8wa, kD8wb, kD8wb, kD8wb,
                                              kD8wc, kD8wc, kD8wc, kD8wd, kD8wd, kD8wd, kD8wd,
                                              kD8wd, kD8wd}};

/// The rule for `order` (clamped to [1, kMaxOverlapQuadratureOrder]): exact to at least that
/// degree (order 3 takes the degree-4 rule, order 7 the degree-8 rule).
[[nodiscard]] constexpr const TriangleRule& triangleRule(int order) noexcept {
    switch (std::clamp(order, 1, kMaxOverlapQuadratureOrder)) {
    case 1: return kTriangleRule1;
    case 2: return kTriangleRule2;
    case 3:
    case 4: return kTriangleRule4;
    case 5: return kTriangleRule5;
    case 6: return kTriangleRule6;
    default: return kTriangleRule8;
    }
}

/// Gauss-Legendre rule on [-1, 1] with n points (1..4): exact to degree 2n - 1.
struct LineRule {
    int n = 0;
    double x[4] = {};
    double w[4] = {};
};

inline constexpr LineRule kLineRules[4] = {
    {1, {0.0}, {2.0}},
    {2, {-0.577350269189625765, 0.577350269189625765}, {1.0, 1.0}},
    {3,
     {-0.774596669241483377, 0.0, 0.774596669241483377},
     {0.555555555555555556, 0.888888888888888889, 0.555555555555555556}},
    {4,
     {-0.861136311594052575, -0.339981043584856265, 0.339981043584856265, 0.861136311594052575},
     {0.347854845137453857, 0.652145154862546143, 0.652145154862546143, 0.347854845137453857}},
};

/// The Gauss-Legendre rule exact to `degree` (at most 7).
[[nodiscard]] inline const LineRule& lineRule(int degree) noexcept {
    return kLineRules[std::clamp((degree + 1 + 1) / 2, 1, 4) - 1];
}

}  // namespace contact::detail
