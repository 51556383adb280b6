// SPDX-License-Identifier: MIT
#include "mesh_io/id_index.hpp"

#include <algorithm>
#include <utility>

namespace mesh_io {

using contact::kNoIndex;

namespace {

// id - base as a slot number; only for id >= base (exact in unsigned arithmetic).
std::size_t slotOf(long id, long base) noexcept {
    return static_cast<std::size_t>(static_cast<unsigned long>(id) -
                                    static_cast<unsigned long>(base));
}

}  // namespace

std::size_t IdIndex::sortedPos(long id) const noexcept {
    if (ids_.empty() || id > ids_.back()) {
        return ids_.size();
    }
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    return *it == id ? static_cast<std::size_t>(it - ids_.begin()) : ids_.size();
}

bool IdIndex::insert(long id, Index index) {
    if (!sparse_) {
        if (dense_.empty()) {
            base_ = id;
        }
        if (id >= base_) {
            const std::size_t slot = slotOf(id, base_);
            if (slot < dense_.size()) {
                if (dense_[slot] != kNoIndex) {
                    return false;
                }
                dense_[slot] = index;
                ++size_;
                return true;
            }
            if (slot < denseLimit(size_ + 1)) {
                if (slot >= dense_.capacity()) {  // geometric growth, whatever resize() does
                    dense_.reserve(std::max(slot + 1, 2 * dense_.capacity()));
                }
                dense_.resize(slot + 1, kNoIndex);
                dense_[slot] = index;
                ++size_;
                return true;
            }
        }
        toSparse();
    }
    if (ids_.empty() || id > ids_.back()) {  // increasing ids: append (late_ holds smaller ones)
        ids_.push_back(id);
        at_.push_back(index);
        ++size_;
        return true;
    }
    if (const std::size_t pos = sortedPos(id); pos < ids_.size()) {
        if (at_[pos] != kNoIndex) {
            return false;
        }
        at_[pos] = index;  // erased before: mapped again in place
        ++size_;
        return true;
    }
    if (!late_.emplace(id, index).second) {
        return false;
    }
    ++size_;
    return true;
}

Index IdIndex::find(long id) const {
    if (!sparse_) {
        if (id < base_) {
            return kNoIndex;
        }
        const std::size_t slot = slotOf(id, base_);
        return slot < dense_.size() ? dense_[slot] : kNoIndex;
    }
    if (const std::size_t pos = sortedPos(id); pos < ids_.size()) {
        return at_[pos];
    }
    if (late_.empty()) {
        return kNoIndex;
    }
    const auto l = late_.find(id);
    return l == late_.end() ? kNoIndex : l->second;
}

void IdIndex::erase(long id) {
    if (!sparse_) {
        const std::size_t slot = id < base_ ? dense_.size() : slotOf(id, base_);
        if (slot < dense_.size() && dense_[slot] != kNoIndex) {
            dense_[slot] = kNoIndex;
            --size_;
        }
        return;
    }
    if (const std::size_t pos = sortedPos(id); pos < ids_.size()) {
        if (at_[pos] != kNoIndex) {
            at_[pos] = kNoIndex;  // kept as a tombstone: the array stays sorted
            --size_;
        }
        return;
    }
    size_ -= late_.erase(id);
}

std::size_t IdIndex::memoryBytes() const noexcept {
    // A hash node holds the pair and a next pointer; buckets are one pointer each.
    const std::size_t node = sizeof(void*) + sizeof(std::pair<const long, Index>);
    const std::size_t buckets = late_.bucket_count() > 1 ? late_.bucket_count() : 0;  // 1: inline
    return dense_.capacity() * sizeof(Index) + ids_.capacity() * sizeof(long) +
           at_.capacity() * sizeof(Index) + late_.size() * node + buckets * sizeof(void*);
}

void IdIndex::toSparse() {
    std::vector<long> ids;
    std::vector<Index> at;
    ids.reserve(size_);
    at.reserve(size_);
    for (std::size_t k = 0; k < dense_.size(); ++k) {
        if (dense_[k] != kNoIndex) {
            ids.push_back(idAt(k));
            at.push_back(dense_[k]);
        }
    }
    std::vector<Index>().swap(dense_);
    base_ = 0;
    ids_ = std::move(ids);
    at_ = std::move(at);
    sparse_ = true;
}

void IdIndex::fillDense(const std::vector<long>& ids, const std::vector<Index>& at) {
    base_ = ids.front();
    dense_.assign(slotOf(ids.back(), base_) + 1, kNoIndex);
    for (std::size_t k = 0; k < ids.size(); ++k) {
        dense_[slotOf(ids[k], base_)] = at[k];
    }
    sparse_ = false;
}

void IdIndex::compact() {
    if (size_ == 0) {
        clear();
        return;
    }
    if (!sparse_) {  // trim empty slots at both ends
        const auto live = [](Index i) { return i != kNoIndex; };
        const auto first = static_cast<std::size_t>(
            std::find_if(dense_.begin(), dense_.end(), live) - dense_.begin());
        const auto last = static_cast<std::size_t>(
            dense_.rend() - std::find_if(dense_.rbegin(), dense_.rend(), live));
        std::vector<Index> trimmed(dense_.begin() + static_cast<std::ptrdiff_t>(first),
                                   dense_.begin() + static_cast<std::ptrdiff_t>(last));
        base_ = idAt(first);
        dense_.swap(trimmed);
        return;
    }
    // Merge the late ids into the sorted ones, dropping erased ids.
    std::vector<std::pair<long, Index>> late(late_.begin(), late_.end());
    std::unordered_map<long, Index>().swap(late_);
    std::sort(late.begin(), late.end());
    std::vector<long> ids;
    std::vector<Index> at;
    ids.reserve(size_);
    at.reserve(size_);
    std::size_t k = 0;
    const auto takeSorted = [&](auto before) {  // the live sorted ids from k on while before(id)
        for (; k < ids_.size() && before(ids_[k]); ++k) {
            if (at_[k] != kNoIndex) {
                ids.push_back(ids_[k]);
                at.push_back(at_[k]);
            }
        }
    };
    for (const auto& entry : late) {
        const long id = entry.first;  // a plain variable: C++17 lambdas cannot capture bindings
        takeSorted([id](long v) { return v < id; });
        ids.push_back(id);
        at.push_back(entry.second);
    }
    takeSorted([](long /*v*/) { return true; });
    std::vector<long>().swap(ids_);
    std::vector<Index>().swap(at_);
    if (slotOf(ids.back(), ids.front()) < denseLimit(size_)) {
        fillDense(ids, at);
    } else {
        ids_ = std::move(ids);
        at_ = std::move(at);
    }
}

void IdIndex::clear() noexcept {
    size_ = 0;
    sparse_ = false;
    base_ = 0;
    std::vector<Index>().swap(dense_);
    std::vector<long>().swap(ids_);
    std::vector<Index>().swap(at_);
    std::unordered_map<long, Index>().swap(late_);
}

bool operator==(const IdIndex& a, const IdIndex& b) {
    if (a.size() != b.size()) {
        return false;
    }
    bool same = true;
    a.forEach([&](long id, Index index) { same = same && b.find(id) == index; });
    return same;
}

}  // namespace mesh_io
