// SPDX-License-Identifier: MIT
// MortarIntegrator: the pairs of each slave segment integrated in parallel, then the node rows
// summed in a fixed order (pseudocode in mortar.hpp).
#include "contact/mortar.hpp"

#include "contact/clipping.hpp"

#include "detail/mortar_kernels.hpp"
#include "detail/parallel_errors.hpp"
#include "detail/search_common.hpp"

#include <Eigen/Cholesky>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace contact {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int threadIndex() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int teamSize() {
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

/// The consistent dual basis needs the Gram matrix of the integrated part, scaled to a unit
/// diagonal, to be well conditioned: below this reciprocal condition number (LLT estimate) the
/// segment falls back to the dual basis of the whole segment, and its D row is lumped
/// (MortarStats::dualFallbacks). Scaled, it is the Gram matrix of the segment's basis restricted
/// to the part, which stays a basis of the same space (for Line2, Tri3, Quad4): no part the clip
/// keeps has been seen to fall back; the test guards against a failed factorization.
constexpr double kDualMinRcond = 1e-10;

using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                  kMaxSegmentNodes, kMaxSegmentNodes>;

}  // namespace

int shapeDegree(SegmentType t) noexcept {
    switch (t) {
    case SegmentType::Line2:
    case SegmentType::Tri3: return 1;
    case SegmentType::Line3:
    case SegmentType::Quad4:
    case SegmentType::Tri6: return 2;
    case SegmentType::Quad8: return 3;
    case SegmentType::Quad9: return 4;
    }
    return 1;
}

int mortarQuadratureDegree(SegmentType slave, SegmentType master) noexcept {
    const int ps = shapeDegree(slave);
    const int degree = std::max(2 * ps, ps + shapeDegree(master));
    if (parametricDim(slave) == 1) {
        return degree + (ps - 1);  // a Line3's Jacobian |x'| is linear in xi
    }
    return std::min(degree, kMaxOverlapQuadratureOrder);
}

// Per slave segment: where its sums went (thread buffer and offsets), -1 when it has none.
struct SegmentRecord {
    int thread = -1;
    int ns = 0;
    int ncols = 0;
    std::size_t colOffset = 0;  // master nodes, increasing
    std::size_t valOffset = 0;  // D (ns x ns, row-major) | g (ns) | area (ns) | M (ns per col)
};

struct ThreadBuffers {
    SegmentNodes masterNodes;
    std::vector<Index> cols;
    std::vector<double> vals;
    // One slave segment's pair blocks before they are merged: master node, values (ns each).
    std::vector<Index> rawCols;
    std::vector<double> rawVals;
    std::vector<std::pair<Index, int>> order;
    // Row assembly: (column, sequence) keys and values of one row, and the rows written.
    std::vector<std::pair<Index, int>> rowKeys;
    std::vector<double> rowVals;
    // The M row's runs: one per segment of the node, its merged columns (increasing) and values.
    struct Run {
        const Index* col;
        const double* val;  // the node's value of the first column; the next ns further on
        int n;
        int ns;
        int at;
    };
    std::vector<Run> runs;
    std::vector<Index> outNodes, dRow, dCol, mRow, mCol;
    std::vector<double> outGap, outArea, dVal, mVal;
    MortarStats stats;
};

// Appends the raw columns of one slave segment to tb.cols / tb.vals: one column per master node,
// increasing, each the sum of its raw columns in their order. The unique nodes are found by a
// linear scan while few (the usual case: a slave segment over a handful of master segments),
// by sorting (node, raw index) otherwise; both sum in raw order, so the bits do not depend on it.
void mergeColumns(ThreadBuffers& tb, int ns) {
    constexpr std::size_t kScanLimit = 32;
    const std::size_t first = tb.cols.size();
    const std::size_t firstVal = tb.vals.size();
    const auto width = static_cast<std::size_t>(ns);
    // Room for as many columns as raw ones, zeroed once; cut to the columns made at the end.
    tb.vals.resize(firstVal + tb.rawCols.size() * width, 0.0);
    const auto add = [&](std::size_t col, std::size_t raw) {
        double* dst = tb.vals.data() + firstVal + col * width;
        const double* src = tb.rawVals.data() + raw * width;
        for (int a = 0; a < ns; ++a) {
            dst[a] += src[a];
        }
    };
    bool scanned = true;
    for (std::size_t k = 0; k < tb.rawCols.size() && scanned; ++k) {
        std::size_t c = first;
        while (c < tb.cols.size() && tb.cols[c] != tb.rawCols[k]) {
            ++c;
        }
        if (c == tb.cols.size()) {
            if (c - first == kScanLimit) {
                scanned = false;
                break;
            }
            tb.cols.push_back(tb.rawCols[k]);
        }
        add(c - first, k);
    }
    if (!scanned) {
        tb.cols.resize(first);
        std::fill(tb.vals.begin() + static_cast<std::ptrdiff_t>(firstVal), tb.vals.end(), 0.0);
        tb.order.clear();
        for (std::size_t k = 0; k < tb.rawCols.size(); ++k) {
            tb.order.emplace_back(tb.rawCols[k], static_cast<int>(k));
        }
        std::sort(tb.order.begin(), tb.order.end());
        for (std::size_t k = 0; k < tb.order.size(); ++k) {
            if (k == 0 || tb.order[k].first != tb.order[k - 1].first) {
                tb.cols.push_back(tb.order[k].first);
            }
            add(tb.cols.size() - 1 - first, static_cast<std::size_t>(tb.order[k].second));
        }
        tb.vals.resize(firstVal + (tb.cols.size() - first) * width);
        return;
    }
    tb.vals.resize(firstVal + (tb.cols.size() - first) * width);
    // Increasing node order: insertion sort of the (few) columns with their values.
    const std::size_t count = tb.cols.size() - first;
    for (std::size_t i = 1; i < count; ++i) {
        for (std::size_t j = i; j > 0 && tb.cols[first + j - 1] > tb.cols[first + j]; --j) {
            std::swap(tb.cols[first + j - 1], tb.cols[first + j]);
            double* a = tb.vals.data() + firstVal + (j - 1) * static_cast<std::size_t>(ns);
            std::swap_ranges(a, a + ns, a + ns);
        }
    }
}

struct MortarIntegrator::Impl {
    // The slave surface the incidence below was built for (compared on every call).
    bool incidenceValid = false;
    std::vector<SegmentType> slaveTypes;
    std::vector<Index> slaveOffsets, slaveConnectivity;
    // Slave nodes (increasing) and, per node, its (segment, local index) in segment order.
    std::vector<Index> nodes;
    std::vector<Index> incidenceStart;
    std::vector<Index> incidenceSegment;
    std::vector<std::uint8_t> incidenceLocal;

    std::vector<Index> groupStart;  // first pair of each slave segment's run, then pairs.size()
    std::vector<Index> lastSlave;   // per master segment: the slave of its last pair (repeats)
    std::vector<SegmentRecord> records;
    std::vector<detail::MortarMasterBox> masterBoxes;  // 3D: per master segment
    std::vector<ThreadBuffers> threads;
    MortarOperators out;

    void buildIncidence(const Surface& slave);
    /// Empties what operators() and segmentBlock() read (after a compute() that threw).
    void clearResult() noexcept {
        out = MortarOperators{};
        records.clear();
    }
    void integrate(const Surface& master, const Surface& slave, ConstSpan<Index> pairSlave,
                   ConstSpan<Index> pairMaster, const CoordinatesView& x, double capture,
                   MortarBasis basis, int numThreads);
    void processSegment(Index first, Index last, const Surface& master, const Surface& slave,
                        ConstSpan<Index> pairSlave, ConstSpan<Index> pairMaster,
                        const CoordinatesView& x, double capture, MortarBasis basis, int t);
    void assemble(const Surface& slave, MortarBasis basis, bool csr, int numThreads);
    void assembleRow(std::size_t u, const Surface& slave, MortarBasis basis, ThreadBuffers& tb);
};

// Node -> (segment, local index) lists of the slave surface, in segment order (counting sort).
void MortarIntegrator::Impl::buildIncidence(const Surface& slave) {
    if (incidenceValid && slaveTypes == slave.types && slaveOffsets == slave.offsets &&
        slaveConnectivity == slave.connectivity) {
        return;
    }
    incidenceValid = false;  // until built whole (an allocation below may throw)
    slaveTypes = slave.types;
    slaveOffsets = slave.offsets;
    slaveConnectivity = slave.connectivity;
    nodes = slave.connectivity;
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    incidenceStart.assign(nodes.size() + 1, 0);
    const auto rank = [&](Index node) {
        return static_cast<std::size_t>(std::lower_bound(nodes.begin(), nodes.end(), node) -
                                        nodes.begin());
    };
    for (const Index n : slave.connectivity) {
        ++incidenceStart[rank(n) + 1];
    }
    for (std::size_t u = 0; u < nodes.size(); ++u) {
        incidenceStart[u + 1] += incidenceStart[u];
    }
    incidenceSegment.resize(slave.connectivity.size());
    incidenceLocal.resize(slave.connectivity.size());
    std::vector<Index> fill(incidenceStart.begin(), incidenceStart.end() - 1);
    for (Index s = 0; s < slave.size(); ++s) {
        const Index* nd = slave.nodes(s);
        for (int i = 0; i < nodeCount(slave.types[s]); ++i) {
            const Index k = fill[rank(nd[i])]++;
            incidenceSegment[k] = s;
            incidenceLocal[k] = static_cast<std::uint8_t>(i);
        }
    }
    incidenceValid = true;
}

// One slave segment: its pairs [first, last) in order, merged columns, dual transform.
void MortarIntegrator::Impl::processSegment(Index first, Index last, const Surface& master,
                                            const Surface& slave, ConstSpan<Index> pairSlave,
                                            ConstSpan<Index> pairMaster, const CoordinatesView& x,
                                            double capture, MortarBasis basis, int t) {
    ThreadBuffers& tb = threads[static_cast<std::size_t>(t)];
    const Index s = pairSlave[first];
    const SegmentNodes sn = gatherSegment(slave, s, x);
    const int ns = nodeCount(sn.type);
    tb.stats.pairs += last - first;
    detail::MortarSlave prepared;
    if (!detail::prepareSlave(sn, prepared)) {
        tb.stats.degenerate += last - first;
        return;
    }
    detail::MortarSums sums;
    sums.ns = ns;
    detail::MortarBlock block;
    tb.rawCols.clear();
    tb.rawVals.clear();
    const bool boxes = prepared.dim == 3;
    for (Index p = first; p < last; ++p) {
        const Index m = pairMaster[p];
        if (boxes && detail::boxApart(prepared, masterBoxes[static_cast<std::size_t>(m)])) {
            continue;  // no overlap in the slave's plane (integratePair would say so)
        }
        // The thread's master nodes, overwritten per pair (no zeroing: the kernels read the
        // first nodeCount entries only).
        SegmentNodes& mn = tb.masterNodes;
        mn.type = master.types[m];
        const Index* mi = master.nodes(m);
        for (int i = 0; i < nodeCount(mn.type); ++i) {
            mn.x[i] = x.node(mi[i]);
        }
        const detail::PairOutcome o = detail::integratePair(
            prepared, mn, capture, mortarQuadratureDegree(sn.type, mn.type), sums, block);
        switch (o) {
        case detail::PairOutcome::kIntegrated: ++tb.stats.integrated; break;
        case detail::PairOutcome::kNoOverlap: break;
        case detail::PairOutcome::kBeyondCapture: ++tb.stats.beyondCapture; break;
        case detail::PairOutcome::kNotFacing: ++tb.stats.notFacing; break;
        case detail::PairOutcome::kDegenerate: ++tb.stats.degenerate; break;
        }
        if (o != detail::PairOutcome::kIntegrated) {
            continue;
        }
        const Index* mnodes = master.nodes(m);
        for (int c = 0; c < block.nm; ++c) {
            tb.rawCols.push_back(mnodes[c]);
            for (int a = 0; a < ns; ++a) {
                tb.rawVals.push_back(block.M[a * kMaxSegmentNodes + c]);
            }
        }
    }
    tb.stats.points += sums.points;
    tb.stats.cutFallbacks += sums.cutFallbacks;
    if (tb.rawCols.empty()) {
        return;
    }
    detail::finishSums(sums);

    // Merge the raw columns: one per master node, increasing, summed in pair order.
    SegmentRecord& rec = records[static_cast<std::size_t>(s)];
    rec.thread = t;
    rec.ns = ns;
    rec.colOffset = tb.cols.size();
    rec.valOffset = tb.vals.size();
    tb.vals.resize(tb.vals.size() + static_cast<std::size_t>(ns * ns + 2 * ns));
    mergeColumns(tb, ns);
    rec.ncols = static_cast<int>(tb.cols.size() - rec.colOffset);
    double* D = tb.vals.data() + rec.valOffset;
    double* g = D + static_cast<std::ptrdiff_t>(ns) * ns;
    double* area = g + ns;
    double* M = area + ns;

    if (basis == MortarBasis::kStandard) {
        for (int a = 0; a < ns; ++a) {
            for (int b = 0; b < ns; ++b) {
                D[a * ns + b] = sums.D[a * kMaxSegmentNodes + b];
            }
            g[a] = sums.g[a];
            area[a] = sums.area[a];
        }
        return;
    }
    // Dual basis: A = diag(d) G^-1 over the integrated part (G = int N_a N_b, d = int N_a);
    // then D = diag(d), M <- A M, g <- A g, int Phi_a = d.
    SmallMatrix G(ns, ns);
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxSegmentNodes, 1> d(ns);
    for (int a = 0; a < ns; ++a) {
        for (int b = 0; b < ns; ++b) {
            G(a, b) = sums.D[a * kMaxSegmentNodes + b];
        }
        d[a] = sums.area[a];
    }
    // The Gram matrix scaled to a unit diagonal (S G S, S = diag(G_aa^-1/2)) for the test and the
    // solve: a part near one corner has one large diagonal entry and tiny others, a condition that
    // the scaling removes, not one of the basis.
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxSegmentNodes, 1> scale(ns);
    bool positive = true;
    for (int a = 0; a < ns; ++a) {
        positive = positive && G(a, a) > 0.0;
        scale[a] = positive ? 1.0 / std::sqrt(G(a, a)) : 1.0;
    }
    if (positive) {
        G = scale.asDiagonal() * G * scale.asDiagonal();
    }
    Eigen::LLT<SmallMatrix> llt(G);
    bool lumped = false;
    if (!positive || llt.info() != Eigen::Success || !(llt.rcond() > kDualMinRcond)) {
        // Too small a part: Wohlmuth's dual basis of the whole segment; D lumped to its row sums.
        ++tb.stats.dualFallbacks;
        detail::MortarSums whole;
        detail::segmentGram(sn, whole);
        for (int a = 0; a < ns; ++a) {
            for (int b = 0; b < ns; ++b) {
                G(a, b) = whole.D[a * kMaxSegmentNodes + b];
            }
        }
        llt.compute(G);
        for (int a = 0; a < ns; ++a) {
            d[a] = whole.area[a];
        }
        scale.setOnes();
        lumped = true;
    }
    // A = diag(d) G^-1 = diag(d) S (S G S)^-1 S, so A v = d .* (S (S G S)^-1 S v).
    SmallMatrix A = llt.solve(SmallMatrix(scale.asDiagonal()));
    for (int a = 0; a < ns; ++a) {
        A.row(a) *= d[a] * scale[a];
    }
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxSegmentNodes, 1> v(ns);
    const auto transform = [&](double* col) {
        for (int a = 0; a < ns; ++a) {
            v[a] = col[a];
        }
        for (int a = 0; a < ns; ++a) {
            col[a] = A.row(a).dot(v);
        }
    };
    for (int a = 0; a < ns; ++a) {
        g[a] = sums.g[a];
        area[a] = sums.area[a];
    }
    transform(g);
    transform(area);
    for (int k = 0; k < rec.ncols; ++k) {
        transform(M + static_cast<std::ptrdiff_t>(k) * ns);
    }
    std::fill(D, D + static_cast<std::ptrdiff_t>(ns) * ns, 0.0);
    for (int a = 0; a < ns; ++a) {
        // int Phi_a N_b = (A G)_ab: diag(d) on the part A was made for; lumped otherwise.
        double diag = area[a];
        if (!lumped) {
            diag = sums.area[a];
        }
        D[a * ns + a] = diag;
    }
}

void MortarIntegrator::Impl::integrate(const Surface& master, const Surface& slave,
                                       ConstSpan<Index> pairSlave, ConstSpan<Index> pairMaster,
                                       const CoordinatesView& x, double capture, MortarBasis basis,
                                       int numThreads) {
    groupStart.clear();
    for (Index p = 0; p < pairSlave.size(); ++p) {
        if (p == 0 || pairSlave[p] != pairSlave[p - 1]) {
            groupStart.push_back(p);
        }
    }
    groupStart.push_back(pairSlave.size());
    records.assign(static_cast<std::size_t>(slave.size()), SegmentRecord{});
    masterBoxes.resize(master.dim() == 3 ? static_cast<std::size_t>(master.size()) : 0);
    const auto boxes = static_cast<long>(masterBoxes.size());
    for (ThreadBuffers& tb : threads) {
        tb.cols.clear();
        tb.vals.clear();
        tb.stats = MortarStats{};
    }
    const auto groups = static_cast<long>(groupStart.size()) - 1;
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(numThreads)
    {
        const int t = threadIndex();
#pragma omp for schedule(static)
        for (long m = 0; m < boxes; ++m) {  // gatherSegment and masterBox never throw
            masterBoxes[static_cast<std::size_t>(m)] =
                detail::masterBox(gatherSegment(master, static_cast<Index>(m), x));
        }
#pragma omp for schedule(dynamic, 64)
        for (long k = 0; k < groups; ++k) {
            errors.run([&] {
                processSegment(groupStart[static_cast<std::size_t>(k)],
                               groupStart[static_cast<std::size_t>(k) + 1], master, slave,
                               pairSlave, pairMaster, x, capture, basis, t);
            });
        }
    }
    errors.rethrow();
}

// Row of slave node u: its segments' rows in segment order, columns sorted, duplicates summed in
// that order. D: a sort of (column, sequence number), which keeps the order of equal columns. M:
// each segment's columns are increasing already (mergeColumns), so up to kMergeRuns segments'
// runs are merged, the runs of one column taken in segment order; more are sorted like D.
constexpr std::size_t kMergeRuns = 8;

void MortarIntegrator::Impl::assembleRow(std::size_t u, const Surface& slave, MortarBasis basis,
                                         ThreadBuffers& tb) {
    const Index node = nodes[u];
    double gap = 0.0;
    double area = 0.0;
    bool any = false;
    const auto flush = [&](std::vector<Index>& rows, std::vector<Index>& cols,
                           std::vector<double>& vals) {
        std::sort(tb.rowKeys.begin(), tb.rowKeys.end());
        for (std::size_t k = 0; k < tb.rowKeys.size(); ++k) {
            const double v = tb.rowVals[static_cast<std::size_t>(tb.rowKeys[k].second)];
            if (k > 0 && tb.rowKeys[k].first == tb.rowKeys[k - 1].first) {
                vals.back() += v;
            } else {
                rows.push_back(node);
                cols.push_back(tb.rowKeys[k].first);
                vals.push_back(v);
            }
        }
        tb.rowKeys.clear();
        tb.rowVals.clear();
    };
    tb.rowKeys.clear();
    tb.rowVals.clear();
    for (Index k = incidenceStart[u]; k < incidenceStart[u + 1]; ++k) {
        const SegmentRecord& r = records[static_cast<std::size_t>(incidenceSegment[k])];
        if (r.thread < 0) {
            continue;
        }
        any = true;
        const int i = incidenceLocal[k];
        const double* D = threads[static_cast<std::size_t>(r.thread)].vals.data() + r.valOffset;
        const Index* sn = slave.nodes(incidenceSegment[k]);
        gap += D[r.ns * r.ns + i];
        area += D[r.ns * r.ns + r.ns + i];
        for (int j = 0; j < r.ns; ++j) {
            if (basis == MortarBasis::kDual && j != i) {
                continue;
            }
            tb.rowKeys.emplace_back(sn[j], static_cast<int>(tb.rowVals.size()));
            tb.rowVals.push_back(D[i * r.ns + j]);
        }
    }
    if (!any) {
        return;
    }
    tb.outNodes.push_back(node);
    tb.outGap.push_back(gap);
    tb.outArea.push_back(area);
    flush(tb.dRow, tb.dCol, tb.dVal);
    tb.runs.clear();
    for (Index k = incidenceStart[u]; k < incidenceStart[u + 1]; ++k) {
        const SegmentRecord& r = records[static_cast<std::size_t>(incidenceSegment[k])];
        if (r.thread < 0 || r.ncols == 0) {
            continue;
        }
        const ThreadBuffers& src = threads[static_cast<std::size_t>(r.thread)];
        const double* M =
            src.vals.data() + r.valOffset + static_cast<std::ptrdiff_t>(r.ns) * (r.ns + 2);
        tb.runs.push_back({src.cols.data() + r.colOffset, M + incidenceLocal[k], r.ncols, r.ns, 0});
    }
    // A merge scans every run per column: past a few runs (a node many segments meet), the sort.
    if (tb.runs.size() > kMergeRuns) {
        for (const ThreadBuffers::Run& run : tb.runs) {
            for (int c = 0; c < run.n; ++c) {
                tb.rowKeys.emplace_back(run.col[c], static_cast<int>(tb.rowVals.size()));
                tb.rowVals.push_back(run.val[static_cast<std::ptrdiff_t>(c) * run.ns]);
            }
        }
        flush(tb.mRow, tb.mCol, tb.mVal);
        return;
    }
    constexpr Index kNone = std::numeric_limits<Index>::max();
    for (;;) {
        Index col = kNone;
        for (const ThreadBuffers::Run& run : tb.runs) {
            if (run.at < run.n) {
                col = std::min(col, run.col[run.at]);
            }
        }
        if (col == kNone) {
            break;
        }
        double v = 0.0;
        bool first = true;
        for (ThreadBuffers::Run& run : tb.runs) {
            if (run.at < run.n && run.col[run.at] == col) {
                const double m = run.val[static_cast<std::ptrdiff_t>(run.at) * run.ns];
                v = first ? m : v + m;
                first = false;
                ++run.at;
            }
        }
        tb.mRow.push_back(node);
        tb.mCol.push_back(col);
        tb.mVal.push_back(v);
    }
}

void MortarIntegrator::Impl::assemble(const Surface& slave, MortarBasis basis, bool csr,
                                      int numThreads) {
    for (ThreadBuffers& tb : threads) {
        tb.outNodes.clear();
        tb.outGap.clear();
        tb.outArea.clear();
        tb.dRow.clear();
        tb.dCol.clear();
        tb.dVal.clear();
        tb.mRow.clear();
        tb.mCol.clear();
        tb.mVal.clear();
    }
    // Contiguous blocks of rows per thread, concatenated in block order: the result does not
    // depend on where the blocks end.
    const auto rows = static_cast<long>(nodes.size());
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(numThreads)
    {
        const int t = threadIndex();
        const int nt = teamSize();  // the team OpenMP gave, perhaps fewer than asked
        const long begin = rows * t / nt;
        const long end = rows * (t + 1) / nt;
        errors.run([&] {
            for (long u = begin; u < end; ++u) {
                assembleRow(static_cast<std::size_t>(u), slave, basis,
                            threads[static_cast<std::size_t>(t)]);
            }
        });
    }
    errors.rethrow();
    const auto concat = [&](auto member, auto& dst) {
        if (threads.size() == 1) {  // hand the buffer over; the thread gets the old one back
            dst.swap(threads.front().*member);
            return;
        }
        dst.clear();
        for (const ThreadBuffers& tb : threads) {
            const auto& src = tb.*member;
            dst.insert(dst.end(), src.begin(), src.end());
        }
    };
    concat(&ThreadBuffers::outNodes, out.nodes);
    concat(&ThreadBuffers::outGap, out.weightedGap);
    concat(&ThreadBuffers::outArea, out.nodalArea);
    concat(&ThreadBuffers::dRow, out.D.row);
    concat(&ThreadBuffers::dCol, out.D.col);
    concat(&ThreadBuffers::dVal, out.D.value);
    concat(&ThreadBuffers::mRow, out.M.row);
    concat(&ThreadBuffers::mCol, out.M.col);
    concat(&ThreadBuffers::mVal, out.M.value);
    out.basis = basis;
    const auto toCsr = [&](const SparseTriplets& coo, SparseCsr& c) {
        c.offsets.assign(out.nodes.size() + 1, 0);
        std::size_t r = 0;
        for (std::size_t k = 0; k < coo.size(); ++k) {
            while (out.nodes[r] != coo.row[k]) {
                c.offsets[++r] = k;
            }
        }
        while (r < out.nodes.size()) {
            c.offsets[++r] = coo.size();
        }
        c.col = coo.col;
        c.value = coo.value;
    };
    if (csr) {
        toCsr(out.D, out.Dcsr);
        toCsr(out.M, out.Mcsr);
    } else {
        out.Dcsr = SparseCsr{};
        out.Mcsr = SparseCsr{};
    }
}

MortarIntegrator::MortarIntegrator(const MortarOptions& options)
    : options_(options), impl_(std::make_unique<Impl>()) {
    if (options_.threads < 1 || options_.threads > kMaxThreads) {
        throw std::invalid_argument("MortarIntegrator: threads must be 1 .. " +
                                    std::to_string(kMaxThreads) + ", got " +
                                    std::to_string(options_.threads));
    }
}

MortarIntegrator::~MortarIntegrator() = default;
MortarIntegrator::MortarIntegrator(MortarIntegrator&&) noexcept = default;
MortarIntegrator& MortarIntegrator::operator=(MortarIntegrator&&) noexcept = default;

const MortarOperators& MortarIntegrator::operators() const noexcept {
    static const MortarOperators kNone;  // a moved-from integrator has none
    return impl_ ? impl_->out : kNone;
}

MortarSegmentBlock MortarIntegrator::segmentBlock(Index k) const {
    if (!impl_) {
        throw std::logic_error("MortarIntegrator::segmentBlock: the integrator was moved from");
    }
    const Impl& im = *impl_;
    if (k < 0 || static_cast<std::size_t>(k) >= im.records.size()) {
        throw std::out_of_range("MortarIntegrator::segmentBlock: slave segment " +
                                std::to_string(k) + " outside the last compute()'s " +
                                std::to_string(im.records.size()));
    }
    const SegmentRecord& r = im.records[static_cast<std::size_t>(k)];
    MortarSegmentBlock b;
    if (r.thread < 0) {
        return b;
    }
    const ThreadBuffers& tb = im.threads[static_cast<std::size_t>(r.thread)];
    b.nodes = r.ns;
    b.columns = r.ncols;
    b.masterNodes = tb.cols.data() + r.colOffset;
    b.D = tb.vals.data() + r.valOffset;
    b.gap = b.D + static_cast<std::ptrdiff_t>(r.ns) * r.ns;
    b.area = b.gap + r.ns;
    b.M = b.area + r.ns;
    return b;
}

MortarStats MortarIntegrator::compute(const ContactSearch& search, const CoordinatesView& x) {
    const char* fn = "MortarIntegrator::compute";
    if (!search.isSetUp()) {
        throw std::invalid_argument(std::string(fn) +
                                    ": the search has no surfaces (not set up, or moved from)");
    }
    if (search.options().mode != SearchMode::kSegmentToSegment) {
        throw std::invalid_argument(std::string(fn) +
                                    ": the search must be in segment-to-segment mode");
    }
    if (search.options().selfContact) {
        throw std::invalid_argument(std::string(fn) +
                                    ": self-contact searches are not supported (each pair is "
                                    "reported once, a mortar interface needs a slave side)");
    }
    const SegmentPairs& pairs = search.segmentPairs();
    return compute(search.master(), search.slave(), pairs.slave(), pairs.master(), x,
                   search.captureDistance());
}

MortarStats MortarIntegrator::compute(const Surface& master, const Surface& slave,
                                      ConstSpan<Index> pairSlave, ConstSpan<Index> pairMaster,
                                      const CoordinatesView& x, double capture) try {
    const std::string fn = "MortarIntegrator::compute: ";
    if (!impl_) {
        throw std::logic_error(fn + "the integrator was moved from");
    }
    if (const char* problem = x.problem()) {
        throw std::invalid_argument(fn + "coordinates: " + problem);
    }
    if (pairSlave.size() != pairMaster.size()) {
        throw std::invalid_argument(fn + "pairSlave and pairMaster differ in length (" +
                                    std::to_string(pairSlave.size()) + " vs " +
                                    std::to_string(pairMaster.size()) + ")");
    }
    if (!std::isfinite(capture) || capture < 0.0) {
        throw std::invalid_argument(fn + "capture must be finite and >= 0");
    }
    for (const Surface* s : {&master, &slave}) {
        const char* role = s == &master ? "master" : "slave";
        // The structure first (as ContactSearch::setSurfaces checks it): node rows are sized
        // from the connectivity and read by the types.
        const auto structure = [&](Index k, const std::string& what, Index /*node*/) {
            std::string text = fn;
            text += role;
            text += " surface '" + s->name + "'";
            if (k != kNoIndex) {
                text += ", segment " + std::to_string(k);
            }
            text += ": ";
            text += what;
            throw std::invalid_argument(text);
        };
        detail::checkOffsets(*s, structure);
        detail::checkSegmentNodes(*s, structure);
        for (Index k = 0; k < s->size(); ++k) {
            if (s->dim() != spatialDim(s->types[k]) || s->dim() != x.dim) {
                throw std::invalid_argument(
                    fn + role + " surface '" + s->name + "', segment " + std::to_string(k) + " (" +
                    segmentTypeName(s->types[k]) + "): dimension differs from the coordinates' (" +
                    std::to_string(x.dim) + "D) or its surface's");
            }
        }
        for (const Index n : s->connectivity) {
            if (n < 0 || n >= x.numNodes) {
                throw std::invalid_argument(fn + role + " surface '" + s->name + "': node index " +
                                            std::to_string(n) + " beyond the " +
                                            std::to_string(x.numNodes) + " coordinates");
            }
            if (!x.node(n).allFinite()) {  // its pairs would drop out silently
                throw std::invalid_argument(fn + role + " surface '" + s->name + "': node " +
                                            std::to_string(n) + " has a NaN or Inf coordinate");
            }
        }
    }
    if (!master.empty() && !slave.empty() && master.dim() != slave.dim()) {
        throw std::invalid_argument(fn + "master and slave surfaces differ in dimension");
    }
    // A pair given twice would be integrated twice: with the pairs grouped by slave, a master
    // whose last pair has this pair's slave repeats one.
    std::vector<Index>& lastSlave = impl_->lastSlave;
    lastSlave.assign(static_cast<std::size_t>(master.size()), kNoIndex);
    for (Index p = 0; p < pairSlave.size(); ++p) {
        if (pairSlave[p] < 0 || pairSlave[p] >= slave.size() || pairMaster[p] < 0 ||
            pairMaster[p] >= master.size()) {
            throw std::invalid_argument(fn + "pair " + std::to_string(p) +
                                        ": segment index out of range");
        }
        if (p > 0 && pairSlave[p] < pairSlave[p - 1]) {
            throw std::invalid_argument(fn + "pairs must be ordered by slave segment (pair " +
                                        std::to_string(p) + ")");
        }
        Index& last = lastSlave[static_cast<std::size_t>(pairMaster[p])];
        if (last == pairSlave[p]) {
            throw std::invalid_argument(fn + "pair " + std::to_string(p) + " (slave " +
                                        std::to_string(pairSlave[p]) + ", master " +
                                        std::to_string(pairMaster[p]) + ") is given twice");
        }
        last = pairSlave[p];
    }
    if (options_.basis == MortarBasis::kDual) {
        for (Index k = 0; k < slave.size(); ++k) {
            if (isQuadratic(slave.types[k])) {
                throw std::invalid_argument(
                    fn +
                    "the dual basis is offered for Line2, Tri3 and Quad4 slave segments; "
                    "slave segment " +
                    std::to_string(k) + " is a " + segmentTypeName(slave.types[k]));
            }
        }
    }

    const int numThreads = options_.threads;
    Impl& im = *impl_;
    if (im.threads.size() != static_cast<std::size_t>(numThreads)) {
        im.threads.resize(static_cast<std::size_t>(numThreads));
    }
    const auto t0 = Clock::now();
    im.buildIncidence(slave);
    im.integrate(master, slave, pairSlave, pairMaster, x, capture, options_.basis, numThreads);
    MortarStats stats;
    stats.timeIntegrate = msSince(t0);
    for (const ThreadBuffers& tb : im.threads) {
        stats.pairs += tb.stats.pairs;
        stats.integrated += tb.stats.integrated;
        stats.beyondCapture += tb.stats.beyondCapture;
        stats.notFacing += tb.stats.notFacing;
        stats.degenerate += tb.stats.degenerate;
        stats.dualFallbacks += tb.stats.dualFallbacks;
        stats.points += tb.stats.points;
        stats.cutFallbacks += tb.stats.cutFallbacks;
    }
    const auto t1 = Clock::now();
    im.assemble(slave, options_.basis, options_.csr, numThreads);
    stats.timeAssemble = msSince(t1);
    return stats;
} catch (const std::bad_alloc&) {  // on any thread: no half-made result stays readable
    impl_->clearResult();
    throw;
} catch (const std::length_error&) {
    impl_->clearResult();
    throw;
}

}  // namespace contact
