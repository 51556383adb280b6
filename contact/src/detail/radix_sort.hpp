// SPDX-License-Identifier: MIT
// The radix sort of 64-bit keys shared by the box tree (Morton keys), the sweep (lower bounds) and
// contact_mpi's directories (global ids).
// Internal; never installed.
#pragma once

#include "contact/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace contact::detail {

// The passes of an LSD radix sort of keys by their bits [firstBit, lastBit), 11-bit digits,
// carrying *values along when given; stable, so ties keep their order. keyTmp and valueTmp are
// scratch of at least the keys' size; containers swap with them after each pass. A pass where
// every key has the same digit is skipped. Keys and Values: std::vector or contact_mpi's Scratch.
template <class Keys, class Values>
void radixSortPasses(Keys& keys, Values* values, Keys& keyTmp, Values* valueTmp, int firstBit,
                     int lastBit) {
    constexpr int kDigitBits = 11;
    constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
    const std::size_t n = keys.size();
    if (n == 0) {
        return;
    }
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
            keyTmp[d] = keys[i];
            if (values != nullptr) {
                (*valueTmp)[d] = (*values)[i];
            }
        }
        std::swap(keys, keyTmp);
        if (values != nullptr) {
            std::swap(*values, *valueTmp);
        }
    }
}

// radixSortPasses with scratch of its own: keys by their bits [firstBit, lastBit), index along
// when given.
inline void radixSort(std::vector<std::uint64_t>& keys, std::vector<Index>* index, int firstBit,
                      int lastBit) {
    std::vector<std::uint64_t> keysTmp(keys.size());
    std::vector<Index> indexTmp(index != nullptr ? keys.size() : 0);
    radixSortPasses(keys, index, keysTmp, &indexTmp, firstBit, lastBit);
}

}  // namespace contact::detail
