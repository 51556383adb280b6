// SPDX-License-Identifier: MIT
// contact-search under mpiexec: rank 0 reads the model and runs the tool as usual; each search
// runs over all ranks (contact::mpi::DistributedSearch, the contact decomposition), and its pairs
// come back to rank 0, which writes the same files as a serial run. The other ranks only serve
// the searches rank 0 asks for.
#pragma once

#include "contact/contact_search.hpp"
#include "contact/mortar.hpp"
#include "contact/pairs.hpp"
#include "contact/surface.hpp"

#include <memory>
#include <vector>

namespace contact_tool {

/// One interface's search over all ranks, as rank 0 sees it: pairs in model indices.
struct DistributedResult {
    contact::NodePairs nodePairs;
    contact::SegmentPairs segmentPairs;
    contact::UpdateStats stats;  ///< counts summed over the ranks, times the slowest rank's
    double captureDistance = 0.0;
    double meanMasterSize = 0.0;
    contact::Index slaveNodes = 0;  ///< node mode: slave nodes searched
    int ranks = 1;
    long long ghostMasters = 0;  ///< ghosts summed over the ranks
    long long bytesSent = 0;     ///< summed over the ranks
    /// Segment mode, when asked for: the mortar rows, integrated where the ranks hold the slave
    /// segments and summed on rank 0 (contact::mpi::DistributedMortar), in model indices.
    std::unique_ptr<contact::MortarOperators> mortar;
    /// With `mortar`: the integration's counts summed over the ranks (each pair is integrated on
    /// one rank: the serial counts), times the slowest rank's.
    contact::MortarStats mortarStats;
};

/// The MPI session of the tool: active when the process was started by mpiexec with more than
/// one rank (then MPI is initialized here and finalized at exit); otherwise nothing happens and
/// the tool runs serially.
class MpiSession {
public:
    MpiSession(int& argc, char**& argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    [[nodiscard]] bool active() const noexcept { return active_; }
    [[nodiscard]] bool root() const noexcept { return rank_ == 0; }
    [[nodiscard]] int ranks() const noexcept { return size_; }

    /// Ranks other than 0: serve rank 0's searches until it finishes; returns its exit status.
    [[nodiscard]] int serve() const;
    /// Rank 0: one search over all ranks, rank 0 giving the whole model (slave: segments, or
    /// nodes when slaveNodes is not null), and its mortar rows when `mortar` is given (segment
    /// mode without self-contact). Collective errors are thrown as std::invalid_argument.
    [[nodiscard]] std::unique_ptr<DistributedResult>
    search(const contact::SearchOptions& options, const contact::Surface& master,
           const contact::Surface* slave, const std::vector<contact::Index>* slaveNodes,
           const contact::CoordinatesView& x, const contact::MortarOptions* mortar = nullptr) const;
    /// Rank 0: the tool is done with this exit status; the other ranks return it from serve().
    void finish(int status);

private:
    bool active_ = false;
    bool finished_ = false;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace contact_tool
