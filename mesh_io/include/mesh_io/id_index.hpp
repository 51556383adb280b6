// SPDX-License-Identifier: MIT
// File id -> index lookup for millions of node or element ids, a few bytes per id.
#pragma once

#include "contact/types.hpp"

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace mesh_io {

using contact::Index;

/// Maps ids as written in a file (any long) to indices >= 0.
///
/// Most files number their nodes and elements 1..N, or in a few dense ranges. Such ids go into a
/// table indexed by id - base: 4 bytes per slot, as long as the slots stay below 64Ki + 2 x the
/// id count. Other ids switch the whole index to a sorted id array (12 bytes per id); an id below
/// the largest so far waits in a hash map until compact() merges it in. So ids that arrive in
/// increasing order never touch a hash map, and no order of ids costs more than one.
/// compact() (once all ids are in) picks the smaller form and frees the slack.
class IdIndex {
public:
    /// Maps id to index (index >= 0). False, changing nothing, when id is already mapped.
    bool insert(long id, Index index);
    /// Index of id, or contact::kNoIndex.
    [[nodiscard]] Index find(long id) const;
    [[nodiscard]] bool contains(long id) const { return find(id) != contact::kNoIndex; }
    /// Forgets id (nothing when it is not mapped).
    void erase(long id);

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    /// True while ids are kept in the table indexed by id.
    [[nodiscard]] bool isDense() const noexcept { return !sparse_; }
    /// Bytes held (capacity, hash map estimated).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

    /// Chooses the table when the id range allows it, else the sorted array; frees the slack.
    void compact();
    /// Forgets every id and frees the memory.
    void clear() noexcept;

    /// Calls f(id, index) for every mapping, in no particular order.
    template <class F>
    void forEach(F&& f) const {
        for (std::size_t k = 0; k < dense_.size(); ++k) {
            if (dense_[k] != contact::kNoIndex) {
                f(idAt(k), dense_[k]);
            }
        }
        for (std::size_t k = 0; k < ids_.size(); ++k) {
            if (at_[k] != contact::kNoIndex) {
                f(ids_[k], at_[k]);
            }
        }
        for (const auto& [id, index] : late_) {
            f(id, index);
        }
    }

    /// Same mappings (whatever the form each one keeps them in).
    friend bool operator==(const IdIndex& a, const IdIndex& b);
    friend bool operator!=(const IdIndex& a, const IdIndex& b) { return !(a == b); }

private:
    // Slots the table may have for n ids.
    static std::size_t denseLimit(std::size_t n) noexcept { return (std::size_t{1} << 16) + 2 * n; }
    [[nodiscard]] long idAt(std::size_t slot) const noexcept {
        return static_cast<long>(static_cast<unsigned long>(base_) + slot);
    }
    // Position of id in the sorted array ids_, or ids_.size() when it is not there.
    [[nodiscard]] std::size_t sortedPos(long id) const noexcept;
    void toSparse();
    void fillDense(const std::vector<long>& ids, const std::vector<Index>& at);

    std::size_t size_ = 0;
    bool sparse_ = false;
    // Dense form: dense_[id - base_], kNoIndex where no id.
    long base_ = 0;
    std::vector<Index> dense_;
    // Sparse form: ids_ sorted with their indices at_ (kNoIndex: erased); late_ holds ids that
    // came below ids_.back(), until compact().
    std::vector<long> ids_;
    std::vector<Index> at_;
    std::unordered_map<long, Index> late_;
};

}  // namespace mesh_io
