// SPDX-License-Identifier: MIT
// The radix sort of 64-bit keys shared by the box tree (Morton keys) and the sweep (lower bounds).
// Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace contact::detail {

// LSD radix sort of keys by their bits [firstBit, lastBit), 11-bit digits, carrying index along
// when given; stable, so ties keep their order. A pass where every key has the same digit is
// skipped (an already sorted input still pays the counting).
inline void radixSort(std::vector<std::uint64_t>& keys, std::vector<Index>* index, int firstBit,
                      int lastBit) {
    constexpr int kDigitBits = 11;
    constexpr int kBuckets = 1 << kDigitBits;
    const std::size_t n = keys.size();
    if (n == 0) {
        return;
    }
    std::vector<std::uint64_t> keysTmp(n);
    std::vector<Index> indexTmp(index != nullptr ? n : 0);
    std::vector<std::size_t> count(kBuckets);
    for (int shift = firstBit; shift < lastBit; shift += kDigitBits) {
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t i = 0; i < n; ++i) {
            ++count[(keys[i] >> shift) & (kBuckets - 1)];
        }
        if (count[(keys[0] >> shift) & (kBuckets - 1)] == n) {
            continue;
        }
        std::size_t sum = 0;
        for (auto& c : count) {
            const std::size_t c0 = c;
            c = sum;
            sum += c0;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t d = count[(keys[i] >> shift) & (kBuckets - 1)]++;
            keysTmp[d] = keys[i];
            if (index != nullptr) {
                indexTmp[d] = (*index)[i];
            }
        }
        keys.swap(keysTmp);
        if (index != nullptr) {
            index->swap(indexTmp);
        }
    }
}

}  // namespace contact::detail
