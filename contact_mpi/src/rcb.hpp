// SPDX-License-Identifier: MIT
// Zoltan's recursive coordinate bisection over weighted points (the contact faces), kept as cuts
// so that any point (a slave node) and any box (a master segment's grown box) can be assigned.
#pragma once

#include <mpi.h>

#include <vector>

struct Zoltan_Struct;

namespace contact::mpi::detail {

class Rcb {
public:
    /// Needs MPI initialized; initializes Zoltan once per process.
    explicit Rcb(MPI_Comm comm);
    ~Rcb();
    Rcb(const Rcb&) = delete;
    Rcb& operator=(const Rcb&) = delete;

    /// Collective: cuts space into one region per rank, balancing the weights of this rank's
    /// points (xyz: 3 per point; z = 0 in 2D). Throws std::runtime_error when Zoltan fails.
    void partition(const std::vector<double>& xyz, const std::vector<float>& weights);
    /// The rank whose region holds point p (3 coordinates). Local, no communication.
    [[nodiscard]] int owner(const double* p) const;
    /// The ranks whose regions meet the closed box [lo, hi] (a superset is fine for the callers).
    void ranksMeeting(const double* lo, const double* hi, std::vector<int>& ranks) const;

private:
    MPI_Comm comm_;
    int size_ = 1;
    Zoltan_Struct* zz_ = nullptr;
    bool cut_ = false;  // a partition exists (always false on one rank: everything is rank 0's)
    mutable std::vector<int> procs_;
};

}  // namespace contact::mpi::detail
