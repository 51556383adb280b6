// SPDX-License-Identifier: MIT
// Mortar quantities across MPI ranks: each slave segment integrated where the distributed search
// holds it (with the masters it pairs with, owned or ghost), its contributions sent to the owners
// of its nodes, each node's row summed there in the serial order. Bit for bit the rows of
// contact::MortarIntegrator on the whole interface, for any rank count.
#pragma once

#include "contact/mortar.hpp"

#include "contact_mpi/distributed_search.hpp"
#include "contact_mpi/export.hpp"

#include <memory>
#include <vector>

namespace contact::mpi {

/// A sparse matrix in global node ids, sorted by (row, col), one entry per (row, col).
struct GlobalTriplets {
    std::vector<GlobalId> row;
    std::vector<GlobalId> col;
    std::vector<double> value;
    [[nodiscard]] std::size_t size() const noexcept { return value.size(); }
};

/// The mortar rows of the slave nodes this rank owns (RankNodes), as MortarOperators in global
/// node ids: the same values, bit for bit, as the serial integrator's rows of those nodes.
struct GlobalMortarOperators {
    /// Owned slave nodes that carry an integral, by increasing id: the rows.
    std::vector<GlobalId> nodes;
    std::vector<Index> nodesLocal;    ///< each row's node index in this rank's nodes
    std::vector<double> weightedGap;  ///< g~_a per row (negative = penetration)
    std::vector<double> nodalArea;    ///< int Phi_a dA per row
    GlobalTriplets D;                 ///< slave x slave (diagonal for MortarBasis::kDual)
    GlobalTriplets M;                 ///< slave x master
    MortarBasis basis = MortarBasis::kStandard;
};

/// What one compute() did on this rank.
struct DistributedMortarStats {
    MortarStats local;           ///< the integration of this rank's slave segments
    long long bytesSent = 0;     ///< the rows' contributions sent to other ranks
    double timeIntegrate = 0.0;  ///< ms: this rank's slave segments
    double timeExchange = 0.0;   ///< ms: contributions to the owners of the slave nodes
    double timeAssemble = 0.0;   ///< ms: this rank's rows summed
};

/// The mortar quantities of a DistributedSearch's interface (segment-to-segment mode), as
/// MortarIntegrator computes them for the serial search:
///
///   on each rank, for each slave segment the search holds (each is held by one rank):
///     integrate its pairs, in the serial order (masters by id), with MortarIntegrator
///     send each of its nodes' share (D, M, g~, area: the segment's row of that node) to the
///       node's owner, with the segment's id
///   on each rank, for each slave node it owns (by id):
///     sum the shares over its segments in the order of their ids (the serial segment order):
///     gap and area from 0, the entries of D and M per column
///
/// MortarIntegrator's node rows sum the same shares in the same order (segments by index, the
/// index of the global surface being the order of the ids), so the rows are the serial rows'
/// bits. Their columns are in id order: the serial order where node ids grow with the serial
/// node indices.
class CONTACT_MPI_API DistributedMortar {
public:
    /// MortarOptions::threads: this rank's integration (may differ between ranks);
    /// MortarOptions::csr is not offered here. The options are checked by compute(), on every
    /// rank at once: the constructor throws nothing for them.
    explicit DistributedMortar(const MortarOptions& options = {});
    ~DistributedMortar();
    DistributedMortar(DistributedMortar&&) noexcept;
    DistributedMortar& operator=(DistributedMortar&&) noexcept;
    DistributedMortar(const DistributedMortar&) = delete;
    DistributedMortar& operator=(const DistributedMortar&) = delete;

    /// Collective: the rows after the search's last update, with the coordinates that update saw.
    /// Throws, the same on every rank, before any exchange:
    ///   std::logic_error when the search is not set up, not yet updated or its last update
    ///     failed, or when this object on any rank was moved from (naming the rank);
    ///   std::invalid_argument for a search in node-to-segment mode or in self-contact, for
    ///     options a rank refused (threads out of range, csr; naming the rank), for a
    ///     MortarOptions::basis that differs between ranks (naming two of them), and for
    ///     MortarBasis::kDual with a quadratic slave segment on any rank.
    DistributedMortarStats compute(const DistributedSearch& search);

    /// The rows of the last compute() (empty before the first).
    [[nodiscard]] const GlobalMortarOperators& operators() const noexcept { return out_; }
    [[nodiscard]] const MortarOptions& options() const noexcept { return options_; }

private:
    struct CONTACT_MPI_NO_EXPORT Impl;  // hidden, though nested in an exported class
    MortarOptions options_;
    std::unique_ptr<Impl> impl_;
    GlobalMortarOperators out_;
};

}  // namespace contact::mpi
