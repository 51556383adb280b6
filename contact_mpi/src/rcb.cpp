// SPDX-License-Identifier: MIT
#include "rcb.hpp"

#include <zoltan.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace contact::mpi::detail {
namespace {

struct Points {
    const std::vector<double>* xyz;
    const std::vector<float>* weights;
    int rank;
};

// Zoltan's callbacks: object i of this rank has global id (rank, i), local id i.
int numObjects(void* data, int* ierr) {
    *ierr = ZOLTAN_OK;
    return static_cast<int>(static_cast<Points*>(data)->weights->size());
}

void objectList(void* data, int /*numGid*/, int /*numLid*/, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids,
                int /*wgtDim*/, float* weights, int* ierr) {
    const Points& p = *static_cast<Points*>(data);
    for (std::size_t i = 0; i < p.weights->size(); ++i) {
        gids[2 * i] = static_cast<ZOLTAN_ID_TYPE>(p.rank);
        gids[2 * i + 1] = static_cast<ZOLTAN_ID_TYPE>(i);
        lids[i] = static_cast<ZOLTAN_ID_TYPE>(i);
        weights[i] = (*p.weights)[i];
    }
    *ierr = ZOLTAN_OK;
}

int numGeometry(void* /*data*/, int* ierr) {
    *ierr = ZOLTAN_OK;
    return 3;
}

// (Zoltan's callback type fixes the signature: lids is not const.)
void geometry(void* data, int /*numGid*/, int /*numLid*/, int numObj, ZOLTAN_ID_PTR /*gids*/,
              ZOLTAN_ID_PTR lids,  // NOLINT(readability-non-const-parameter)
              int /*numDim*/, double* xyz, int* ierr) {
    const Points& p = *static_cast<Points*>(data);
    for (int k = 0; k < numObj; ++k) {
        const std::size_t i = lids[k];
        for (int c = 0; c < 3; ++c) {
            xyz[3 * k + c] = (*p.xyz)[3 * i + c];
        }
    }
    *ierr = ZOLTAN_OK;
}

void check(int rc, const char* what) {
    if (rc != ZOLTAN_OK && rc != ZOLTAN_WARN) {
        throw std::runtime_error(std::string("contact::mpi: Zoltan ") + what + " failed (" +
                                 std::to_string(rc) + ")");
    }
}

}  // namespace

Rcb::Rcb(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_size(comm_, &size_);
    static std::once_flag once;
    std::call_once(once, [] {
        float version = 0.0F;
        check(Zoltan_Initialize(0, nullptr, &version), "initialization");
    });
    zz_ = Zoltan_Create(comm_);
    if (zz_ == nullptr) {
        throw std::runtime_error("contact::mpi: Zoltan_Create failed");
    }
    // RCB over weighted points; the cuts are kept for point and box assignment; no migration
    // lists (the search moves its own records).
    const char* params[][2] = {
        {"DEBUG_LEVEL", "0"},     {"LB_METHOD", "RCB"},      {"NUM_GID_ENTRIES", "2"},
        {"NUM_LID_ENTRIES", "1"}, {"OBJ_WEIGHT_DIM", "1"},   {"RETURN_LISTS", "NONE"},
        {"KEEP_CUTS", "1"},       {"RCB_OUTPUT_LEVEL", "0"}, {"CHECK_GEOM", "0"},
        {"AVERAGE_CUTS", "1"},    {"IMBALANCE_TOL", "1.05"},
    };
    for (const auto& kv : params) {
        check(Zoltan_Set_Param(zz_, kv[0], kv[1]), "parameters");
    }
}

Rcb::~Rcb() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) {  // after MPI_Finalize Zoltan cannot free its communicator: leave it
        Zoltan_Destroy(&zz_);
    }
}

void Rcb::partition(const std::vector<double>& xyz, const std::vector<float>& weights) {
    cut_ = false;
    if (size_ == 1) {
        return;
    }
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    Points points{&xyz, &weights, rank};
    check(Zoltan_Set_Num_Obj_Fn(zz_, numObjects, &points), "callbacks");
    check(Zoltan_Set_Obj_List_Fn(zz_, objectList, &points), "callbacks");
    check(Zoltan_Set_Num_Geom_Fn(zz_, numGeometry, &points), "callbacks");
    check(Zoltan_Set_Geom_Multi_Fn(zz_, geometry, &points), "callbacks");
    int changes = 0;
    int numGid = 0;
    int numLid = 0;
    int numImport = 0;
    int numExport = 0;
    ZOLTAN_ID_PTR importGids = nullptr;
    ZOLTAN_ID_PTR importLids = nullptr;
    ZOLTAN_ID_PTR exportGids = nullptr;
    ZOLTAN_ID_PTR exportLids = nullptr;
    int* importProcs = nullptr;
    int* importParts = nullptr;
    int* exportProcs = nullptr;
    int* exportParts = nullptr;
    const int rc = Zoltan_LB_Partition(zz_, &changes, &numGid, &numLid, &numImport, &importGids,
                                       &importLids, &importProcs, &importParts, &numExport,
                                       &exportGids, &exportLids, &exportProcs, &exportParts);
    Zoltan_LB_Free_Part(&importGids, &importLids, &importProcs, &importParts);
    Zoltan_LB_Free_Part(&exportGids, &exportLids, &exportProcs, &exportParts);
    check(rc, "RCB partition");
    cut_ = true;
}

int Rcb::owner(const double* p) const {
    if (!cut_) {
        return 0;
    }
    int proc = 0;
    check(Zoltan_LB_Point_Assign(zz_, const_cast<double*>(p), &proc), "point assignment");
    return proc;
}

void Rcb::ranksMeeting(const double* lo, const double* hi, std::vector<int>& ranks) const {
    ranks.clear();
    if (!cut_) {
        ranks.push_back(0);
        return;
    }
    procs_.resize(static_cast<std::size_t>(size_));
    int count = 0;
    check(
        Zoltan_LB_Box_Assign(zz_, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], procs_.data(), &count),
        "box assignment");
    ranks.assign(procs_.begin(), procs_.begin() + count);
}

}  // namespace contact::mpi::detail
