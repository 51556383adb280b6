// SPDX-License-Identifier: MIT
// Transparent huge pages for the search's large buffers (boxes, tree, candidate list). A buffer a
// rebuild touches for the first time costs one page fault per 4 KiB page: 13 us each on a
// paravirtualized guest (bench/RESULTS.md), a third of a 1M-segment broad phase. Advised before
// the first touch, the kernel maps it in 2 MiB pages where it has them: 512 times fewer faults,
// and fewer TLB misses after. Internal; never installed.
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

namespace contact::detail {

/// Buffers from this size on are advised (smaller ones hold no aligned 2 MiB page worth it).
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

/// Asks for transparent huge pages on the aligned 2 MiB pages inside [p, p + bytes): Linux's
/// madvise(MADV_HUGEPAGE), nothing elsewhere or below kHugePageAdviceBytes. Advice only: the
/// memory and its contents are unchanged whatever the kernel does (THP off, no huge page free).
void adviseHugePages(void* p, std::size_t bytes) noexcept;

/// v.reserve(n), where it must grow, into a new buffer advised before anything is written to it
/// (std::vector::reserve would write the elements first); the elements are moved over.
template <class T>
void reserveHuge(std::vector<T>& v, std::size_t n) {
    if (n <= v.capacity()) {
        return;
    }
    std::vector<T> grown;
    grown.reserve(n);
    adviseHugePages(grown.data(), n * sizeof(T));
    grown.insert(grown.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(grown);
}

/// v's capacity cut to its size, into a new advised buffer, where it exceeds the size by more
/// than an eighth (std::vector::shrink_to_fit would copy into an unadvised one).
template <class T>
void shrinkHuge(std::vector<T>& v) {
    if (v.capacity() <= v.size() + v.size() / 8) {
        return;
    }
    std::vector<T> fit;
    reserveHuge(fit, v.size());
    fit.insert(fit.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(fit);
}

}  // namespace contact::detail
