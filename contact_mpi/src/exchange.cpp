// SPDX-License-Identifier: MIT
#include "exchange.hpp"

#include <climits>

#include <algorithm>

namespace contact::mpi::detail {

void exchange(MPI_Comm comm, const std::vector<ByteWriter>& out, Received& in,
              long long& bytesSent) {
    int size = 0;
    int rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    std::vector<long long> sendCount(size);
    std::vector<long long> recvCount(size);
    long long sendTotal = 0;
    for (int r = 0; r < size; ++r) {
        sendCount[r] = static_cast<long long>(out[r].size());
        sendTotal += sendCount[r];
        if (r != rank) {
            bytesSent += sendCount[r];
        }
    }
    MPI_Alltoall(sendCount.data(), 1, MPI_LONG_LONG, recvCount.data(), 1, MPI_LONG_LONG, comm);
    long long recvTotal = 0;
    for (long long c : recvCount) {
        recvTotal += c;
    }
    int tooLarge = sendTotal >= INT_MAX || recvTotal >= INT_MAX ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &tooLarge, 1, MPI_INT, MPI_MAX, comm);
    if (tooLarge != 0) {
        throw std::runtime_error("contact::mpi: a rank would exchange 2 GiB or more at once; "
                                 "use more ranks");
    }
    std::vector<char>& sendData = in.sendScratch;
    sendData.resize(static_cast<std::size_t>(sendTotal));
    std::vector<int> sc(size);
    std::vector<int> sd(size);
    std::vector<int> rc(size);
    std::vector<int> rd(size);
    in.offset.assign(size + 1, 0);
    int at = 0;
    int rat = 0;
    for (int r = 0; r < size; ++r) {
        sc[r] = static_cast<int>(sendCount[r]);
        sd[r] = at;
        std::copy(out[r].data(), out[r].data() + out[r].size(), sendData.data() + at);
        at += sc[r];
        rc[r] = static_cast<int>(recvCount[r]);
        rd[r] = rat;
        rat += rc[r];
        in.offset[r + 1] = static_cast<std::size_t>(rat);
    }
    in.data.resize(static_cast<std::size_t>(recvTotal));
    MPI_Alltoallv(sendData.data(), sc.data(), sd.data(), MPI_BYTE, in.data.data(), rc.data(),
                  rd.data(), MPI_BYTE, comm);
}

void agreeOnErrors(MPI_Comm comm, const std::string& error) {
    int size = 0;
    int rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int first = error.empty() ? size : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size) {
        return;
    }
    int length = rank == first ? static_cast<int>(error.size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    std::string message =
        rank == first ? error : std::string(static_cast<std::size_t>(length), ' ');
    MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
    throw std::invalid_argument(message);
}

}  // namespace contact::mpi::detail
