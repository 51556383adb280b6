// SPDX-License-Identifier: MIT
#include "candidate_list.hpp"

#include <algorithm>

namespace contact::detail {

void CandidateWriter::node(Index k, Index* first, Index* last) {
    if (k % blockSize_ == 0) {
        blockStart_[k / blockSize_] = out_.size();
        previous_ = 0;
    }
    if (!std::is_sorted(first, last)) {  // the box tree hands most lists over sorted
        std::sort(first, last);
    }
    // At most 5 bytes per varint: room first, then cut to what was written (no check per byte).
    std::vector<std::uint8_t>& out = out_;
    const std::size_t at = out.size();
    out.resize(at + 5 * static_cast<std::size_t>(last - first + 2));
    std::uint8_t* p = out.data() + at;
    const auto put = [&p](std::uint32_t v) {
        while (v >= 0x80U) {
            *p++ = static_cast<std::uint8_t>(v | 0x80U);
            v >>= 7;
        }
        *p++ = static_cast<std::uint8_t>(v);
    };
    put(static_cast<std::uint32_t>(last - first));
    if (first != last) {
        const auto diff =
            static_cast<std::uint32_t>(*first) - static_cast<std::uint32_t>(previous_);
        put((diff << 1) ^ (0U - (diff >> 31)));
        previous_ = *first;
        for (const Index* j = first + 1; j != last; ++j) {
            put(static_cast<std::uint32_t>(*j - j[-1] - 1));
        }
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
}

void CandidateList::setup(Index items, Index blockSize) {
    CONTACT_ASSERT(items >= 0 && blockSize > 0);
    items_ = items;
    blockSize_ = blockSize;
    const auto blocks = static_cast<std::size_t>((items + blockSize - 1) / blockSize);
    code_.clear();
    blockStart_.assign(blocks + 1, 0);
    firstSlot_.assign(blocks + 1, 0);
    chunkCode_.clear();
    count_ = 0;
    maxPerItem_ = 0;
}

void CandidateList::encode(const std::vector<Index>& offsets, std::vector<Index>& values) {
    CONTACT_ASSERT(offsets.size() == static_cast<std::size_t>(items_) + 1);
    code_.clear();
    CandidateWriter writer(code_, blockStart_.data(), blockSize_);
    Index* v = values.data();
    for (Index k = 0; k < items_; ++k) {
        writer.node(k, v + offsets[k], v + offsets[k + 1]);
        if ((k + 1) % blockSize_ == 0 || k + 1 == items_) {
            const Index b = k / blockSize_;
            firstSlot_[b + 1] = static_cast<std::size_t>(
                offsets[k + 1] - offsets[static_cast<std::size_t>(b) * blockSize_]);
        }
    }
    count_ = offsets.back();
    maxPerItem_ = 0;
    for (Index k = 0; k < items_; ++k) {
        maxPerItem_ = std::max(maxPerItem_, offsets[k + 1] - offsets[k]);
    }
    finish(1, 1);
    code_.shrink_to_fit();
}

// firstSlot_[b + 1] holds block b's candidate count: made the first slot of each block (and the
// total at the end), at a multiple of 8. The code of the chunks, when there were several, goes
// into place: each chunk's first byte from the sizes of the chunks before, then, on the threads,
// each chunk's code is copied in and its block starts shifted.
void CandidateList::finish(Index chunks, int threads) {
    for (std::size_t b = 1; b < firstSlot_.size(); ++b) {
        firstSlot_[b] = firstSlot_[b - 1] + (firstSlot_[b] + 7) / 8 * 8;
    }
    if (chunks == 1) {
        blockStart_.back() = code_.size();
    } else {
        std::vector<std::size_t> chunkStart(static_cast<std::size_t>(chunks) + 1, 0);
        for (Index chunk = 0; chunk < chunks; ++chunk) {
            chunkStart[chunk + 1] = chunkStart[chunk] + chunkCode_[chunk].size();
        }
        code_.resize(chunkStart[chunks]);
        blockStart_.back() = chunkStart[chunks];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
        for (Index chunk = 0; chunk < chunks; ++chunk) {
            const Index begin = chunkBegin(chunk, chunks);
            const Index end = chunkBegin(chunk + 1, chunks);
            for (Index b = begin / blockSize_; b < (end + blockSize_ - 1) / blockSize_; ++b) {
                blockStart_[b] += chunkStart[chunk];
            }
            std::vector<std::uint8_t>& part = chunkCode_[chunk];
            std::copy(part.begin(), part.end(),
                      code_.begin() + static_cast<std::ptrdiff_t>(chunkStart[chunk]));
            std::vector<std::uint8_t>().swap(part);  // copied: free it
        }
    }
    if (code_.capacity() > code_.size() + code_.size() / 8) {
        code_.shrink_to_fit();
    }
}

std::size_t CandidateList::memoryBytes() const noexcept {
    std::size_t total =
        code_.capacity() + (blockStart_.capacity() + firstSlot_.capacity()) * sizeof(std::size_t);
    for (const auto& v : chunkCode_) {
        total += v.capacity();
    }
    return total;
}

}  // namespace contact::detail
