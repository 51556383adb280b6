// SPDX-License-Identifier: MIT
// Broad phase alone: every (slave, master) segment pair whose buffered AABBs overlap (closed boxes,
// buffer = 0.5 x mean edge length on every box), build + query, single thread.
//
// Ours: the box indexes of the search (contact/src/box_index.hpp: BoxTreeIndex, KdTreeIndex,
// SweepIndex) over float boxes rounded outward, + the exact double test. Comparators, when built
// with CONTACT_BENCH_PEERS and found: CGAL box_intersection_d (cutoff 10,000), FCL
// DynamicAABBTreeCollisionManager (tree against tree), Bullet btDbvt::collideTT (double precision
// build). Each, ours too, is first run once collecting its pairs, which must equal those of a
// reference independent of our indexes (sorted set): brute force over all box pairs up to
// kBruteForcePairs box tests (10k segments a surface), else nanoflann_plain below (checked against
// brute force at the smaller sizes); a difference stops that benchmark with an error. The label
// names the reference. Counters: pairs, ns_per_pair, tree_bytes_per_box
// (ours). Bullet runs up to 100k segments in 3D and 10k in 2D only: beyond that one run takes
// minutes (2.1 s at 10k in 2D on the reference machine).
//
// Always built: nanoflann_plain, the query a user would write with nanoflann alone (a kd-tree of
// the master box centres, one radius search per slave box, the exact box test in the result
// callback), a comparator like the others.
#include "bench_common.hpp"
#include "box_tree_index.hpp"
#include "float_box.hpp"
#include "kd_tree_index.hpp"
#include "sweep_index.hpp"

#include <benchmark/benchmark.h>
#include <nanoflann.hpp>

#ifdef CONTACT_BENCH_HAVE_CGAL
#include <CGAL/box_intersection_d.h>
#endif
#ifdef CONTACT_BENCH_HAVE_FCL
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/collision_object.h>
#endif
#ifdef CONTACT_BENCH_HAVE_BULLET
#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#endif

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace contact;
using contact::bench::cachedScene;

struct BoxSets {
    std::string kind;
    long size = 0;
    int dim = 3;
    Eigen::Matrix3Xd mlo, mhi, slo, shi;
    std::vector<std::uint64_t> pairs;  // the reference's, sorted: slave << 32 | master
    const char* reference = "";        // what the pairs are from
};

// Largest slave x master count the reference takes by brute force (10k x 10k).
constexpr double kBruteForcePairs = 1e8;

std::uint64_t key(Index slave, Index master) {
    return static_cast<std::uint64_t>(slave) << 32 | static_cast<std::uint32_t>(master);
}

bool overlapD(const Eigen::Matrix3Xd& alo, const Eigen::Matrix3Xd& ahi, Index a,
              const Eigen::Matrix3Xd& blo, const Eigen::Matrix3Xd& bhi, Index b) {
    return alo(0, a) <= bhi(0, b) && blo(0, b) <= ahi(0, a) && alo(1, a) <= bhi(1, b) &&
           blo(1, b) <= ahi(1, a) && alo(2, a) <= bhi(2, b) && blo(2, b) <= ahi(2, a);
}

// Ours: a box index over the master boxes rounded outward to float, queried by every slave box
// rounded the same way (one query call over all of them, as the search makes it), then the exact
// double filter.
template <class BoxIndex, class Emit>
void ours(const BoxSets& s, BoxIndex& index, Emit&& emit) {
    std::vector<detail::FloatBox> masters(static_cast<std::size_t>(s.mlo.cols()));
    for (Index j = 0; j < s.mlo.cols(); ++j) {
        masters[j] = detail::floatBoxOutward(s.mlo.col(j).data(), s.mhi.col(j).data());
    }
    index.build(std::move(masters), 1);
    const auto slaveBox = [&s](Index k) {
        return detail::floatBoxOutward(s.slo.col(k).data(), s.shi.col(k).data());
    };
    index.query(0, static_cast<Index>(s.slo.cols()), slaveBox,
                [&](Index k, const Index* hits, Index count) {
                    for (Index c = 0; c < count; ++c) {
                        if (overlapD(s.slo, s.shi, k, s.mlo, s.mhi, hits[c])) {
                            emit(k, hits[c]);
                        }
                    }
                });
}

template <class Emit>
void nanoflannPlain(const BoxSets& s, Emit& emit);

// The reference pair set: every (slave, master) box pair tested in double, or nanoflann_plain.
void referencePairs(BoxSets& s) {
    const auto emit = [&](Index k, Index j) { s.pairs.push_back(key(k, j)); };
    if (static_cast<double>(s.slo.cols()) * static_cast<double>(s.mlo.cols()) <= kBruteForcePairs) {
        s.reference = "brute force";
        for (Index k = 0; k < s.slo.cols(); ++k) {
            for (Index j = 0; j < s.mlo.cols(); ++j) {
                if (overlapD(s.slo, s.shi, k, s.mlo, s.mhi, j)) {
                    emit(k, j);
                }
            }
        }
    } else {
        s.reference = "nanoflann_plain";
        nanoflannPlain(s, emit);
    }
    std::sort(s.pairs.begin(), s.pairs.end());
}

const BoxSets& boxSets(const std::string& kind, long size) {
    static BoxSets sets;
    if (sets.kind == kind && sets.size == size) {
        return sets;
    }
    sets = BoxSets{};
    const bench::Scene& sc = cachedScene(kind, size);
    const Eigen::Matrix3Xd x = sc.coords3();
    const double buffer = 0.5 * sc.meanEdge;
    bench::segmentBoxes(sc.master, x, buffer, sets.mlo, sets.mhi);
    bench::segmentBoxes(sc.slave, x, buffer, sets.slo, sets.shi);
    sets.kind = kind;
    sets.size = size;
    sets.dim = sc.dim;
    referencePairs(sets);
    return sets;
}

// Runs one implementation: a collecting run checked against the reference, then the timed loop
// (counting only).
template <class Run>
void measure(benchmark::State& state, const std::string& kind, Run&& run) {
    const BoxSets& s = boxSets(kind, state.range(0));
    state.SetLabel(std::string("reference: ") + s.reference);
    {
        std::vector<std::uint64_t> got;
        got.reserve(s.pairs.size());
        run(s, [&](Index k, Index j) { got.push_back(key(k, j)); });
        std::sort(got.begin(), got.end());
        if (got != s.pairs) {
            state.SkipWithError(("pair set differs from the reference (" +
                                 std::string(s.reference) + "): " + std::to_string(got.size()) +
                                 " pairs vs " + std::to_string(s.pairs.size()))
                                    .c_str());
            return;
        }
    }
    long long count = 0;
    for (auto _ : state) {
        count = 0;
        run(s, [&](Index, Index) { ++count; });
        benchmark::DoNotOptimize(count);
    }
    state.counters["pairs"] = static_cast<double>(count);
    state.counters["ns_per_pair"] = benchmark::Counter(
        static_cast<double>(count) * static_cast<double>(state.iterations()) * 1e-9,
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["segments"] = static_cast<double>(s.mlo.cols());
    state.SetComplexityN(state.range(0));
}

void BM_BoxTree(benchmark::State& state, const std::string& kind) {
    detail::BoxTreeIndex tree;
    measure(state, kind, [&](const BoxSets& s, auto&& emit) { ours(s, tree, emit); });
    state.counters["tree_bytes_per_box"] = static_cast<double>(tree.memoryBytes()) /
                                           static_cast<double>(std::max<Index>(1, tree.size()));
}

// Sort and sweep along the long axis when it scans at most SweepIndex::kScanPerBoxLimit pairs per
// box (2D curves), else the box tree (3D surfaces), as the search does.
void BM_Sweep(benchmark::State& state, const std::string& kind) {
    detail::SweepIndex sweep;
    measure(state, kind, [&](const BoxSets& s, auto&& emit) { ours(s, sweep, emit); });
    state.counters["sweep_axis"] = sweep.swept() ? sweep.axis() : -1;
}

// The design's broad phase: nanoflann kd-trees of box centres per size class.
void BM_KdTreeSizeClasses(benchmark::State& state, const std::string& kind) {
    detail::KdTreeIndex kd;
    measure(state, kind, [&](const BoxSets& s, auto&& emit) { ours(s, kd, emit); });
}

// The plain nanoflann baseline: a kd-tree (L2, default leaf size) over the centres of the master
// boxes in double, and for each slave box a radius search around its centre with radius = its
// half-diagonal + the largest master half-diagonal (two boxes that share a point have centres at
// most that far apart), padded by 1e-12 relative for rounding; the result callback keeps the
// centres whose boxes overlap in double and stores nothing. L2 because nanoflann's kd-tree prunes
// with per-axis distances summed, which bounds L1 and L2 metrics but not L-inf.
template <int N>
struct CentreCloud {
    std::vector<double> c;  // N per box
    [[nodiscard]] std::size_t kdtree_get_point_count() const { return c.size() / N; }
    [[nodiscard]] double kdtree_get_pt(std::uint32_t i, std::size_t d) const {
        return c[N * i + d];
    }
    template <class Bbox>
    bool kdtree_get_bbox(Bbox& /*unused*/) const {
        return false;
    }
};

template <class Emit>
struct BoxFilterResult {
    using DistanceType = double;
    using IndexType = std::uint32_t;
    const BoxSets* s;
    Index slave;
    double radiusSq;
    Emit* emit;
    void init() {}
    void clear() {}
    [[nodiscard]] std::size_t size() const { return 0; }
    [[nodiscard]] bool full() const { return true; }
    [[nodiscard]] double worstDist() const { return radiusSq; }
    bool addPoint(double /*distSq*/, std::uint32_t master) {
        if (overlapD(s->slo, s->shi, slave, s->mlo, s->mhi, static_cast<Index>(master))) {
            (*emit)(slave, static_cast<Index>(master));
        }
        return true;
    }
};

template <int N, class Emit>
void nanoflannPlainRun(const BoxSets& s, Emit& emit) {
    using Tree = nanoflann::KDTreeSingleIndexAdaptor<
        nanoflann::L2_Simple_Adaptor<double, CentreCloud<N>, double, std::uint32_t>, CentreCloud<N>,
        N, std::uint32_t>;
    const Index m = s.mlo.cols();
    CentreCloud<N> cloud;
    cloud.c.resize(static_cast<std::size_t>(m) * N);
    double largest = 0.0;
    for (Index j = 0; j < m; ++j) {
        for (int d = 0; d < N; ++d) {
            cloud.c[static_cast<std::size_t>(N * j + d)] = 0.5 * (s.mlo(d, j) + s.mhi(d, j));
        }
        largest = std::max(largest, 0.5 * (s.mhi.col(j) - s.mlo.col(j)).norm());
    }
    Tree tree(N, cloud);
    const nanoflann::SearchParams params(32, 0.0F, false);
    double q[N];
    for (Index k = 0; k < s.slo.cols(); ++k) {
        for (int d = 0; d < N; ++d) {
            q[d] = 0.5 * (s.slo(d, k) + s.shi(d, k));
        }
        const double r = (0.5 * (s.shi.col(k) - s.slo.col(k)).norm() + largest) * (1.0 + 1e-12);
        BoxFilterResult<Emit> result{&s, k, r * r, &emit};
        tree.radiusSearchCustomCallback(q, result, params);
    }
}

// The plain nanoflann query in the boxes' dimension.
template <class Emit>
void nanoflannPlain(const BoxSets& s, Emit& emit) {
    if (s.dim == 2) {
        nanoflannPlainRun<2>(s, emit);
    } else {
        nanoflannPlainRun<3>(s, emit);
    }
}

void BM_NanoflannPlain(benchmark::State& state, const std::string& kind) {
    measure(state, kind, [&](const BoxSets& s, auto&& emit) { nanoflannPlain(s, emit); });
}

#ifdef CONTACT_BENCH_HAVE_CGAL
template <int N>
struct CgalBox {
    using NT = double;
    using ID = std::size_t;
    double lo[N];
    double hi[N];
    std::size_t ident;
    static int dimension() { return N; }
    [[nodiscard]] double min_coord(int d) const { return lo[d]; }
    [[nodiscard]] double max_coord(int d) const { return hi[d]; }
    [[nodiscard]] std::size_t id() const { return ident; }
};

template <int N, class Emit>
void cgalRun(const BoxSets& s, Emit&& emit) {
    const std::size_t m = static_cast<std::size_t>(s.mlo.cols());
    std::vector<CgalBox<N>> a(m);
    std::vector<CgalBox<N>> b(static_cast<std::size_t>(s.slo.cols()));
    for (std::size_t j = 0; j < a.size(); ++j) {
        for (int d = 0; d < N; ++d) {
            a[j].lo[d] = s.mlo(d, j);
            a[j].hi[d] = s.mhi(d, j);
        }
        a[j].ident = j;
    }
    for (std::size_t k = 0; k < b.size(); ++k) {
        for (int d = 0; d < N; ++d) {
            b[k].lo[d] = s.slo(d, k);
            b[k].hi[d] = s.shi(d, k);
        }
        b[k].ident = m + k;
    }
    CGAL::box_intersection_d(
        a.begin(), a.end(), b.begin(), b.end(),
        [&](const CgalBox<N>& p, const CgalBox<N>& q) {
            const bool pMaster = p.ident < m;
            const std::size_t master = pMaster ? p.ident : q.ident;
            const std::size_t slave = (pMaster ? q.ident : p.ident) - m;
            emit(static_cast<Index>(slave), static_cast<Index>(master));
        },
        std::ptrdiff_t(10000), CGAL::Box_intersection_d::CLOSED,
        CGAL::Box_intersection_d::BIPARTITE);
}

void BM_Cgal(benchmark::State& state, const std::string& kind) {
    measure(state, kind, [&](const BoxSets& s, auto&& emit) {
        if (s.dim == 2) {
            cgalRun<2>(s, emit);
        } else {
            cgalRun<3>(s, emit);
        }
    });
}
#endif

#ifdef CONTACT_BENCH_HAVE_FCL
// A collision object whose AABB is given, not computed from its shape, so FCL sees our boxes bit
// for bit. The shape is shared and never used by the broad phase.
struct FclBoxObject : fcl::CollisionObjectd {
    FclBoxObject(const std::shared_ptr<fcl::CollisionGeometryd>& g, const Eigen::Vector3d& lo,
                 const Eigen::Vector3d& hi)
        : fcl::CollisionObjectd(g) {
        aabb.min_ = lo;
        aabb.max_ = hi;
    }
};

struct FclData {
    std::function<void(Index, Index)> emit;
};

void BM_Fcl(benchmark::State& state, const std::string& kind) {
    measure(state, kind, [&](const BoxSets& s, auto&& emit) {
        auto shape = std::make_shared<fcl::Boxd>(1.0, 1.0, 1.0);
        std::vector<std::unique_ptr<FclBoxObject>> objects;
        std::vector<fcl::CollisionObjectd*> ms;
        std::vector<fcl::CollisionObjectd*> ss;
        const auto m = static_cast<std::intptr_t>(s.mlo.cols());
        for (Index j = 0; j < s.mlo.cols(); ++j) {
            objects.push_back(std::make_unique<FclBoxObject>(shape, s.mlo.col(j), s.mhi.col(j)));
            objects.back()->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(j)));
            ms.push_back(objects.back().get());
        }
        for (Index k = 0; k < s.slo.cols(); ++k) {
            objects.push_back(std::make_unique<FclBoxObject>(shape, s.slo.col(k), s.shi.col(k)));
            objects.back()->setUserData(reinterpret_cast<void*>(m + k));
            ss.push_back(objects.back().get());
        }
        fcl::DynamicAABBTreeCollisionManagerd mm;
        fcl::DynamicAABBTreeCollisionManagerd sm;
        mm.registerObjects(ms);
        sm.registerObjects(ss);
        mm.setup();
        sm.setup();
        FclData data{[&](Index k, Index j) { emit(k, j); }};
        // Store m in the callback through the data: ids >= m are slaves.
        static thread_local std::intptr_t masterCount = 0;
        masterCount = m;
        mm.collide(&sm, &data, [](fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* d) {
            const auto ia = reinterpret_cast<std::intptr_t>(a->getUserData());
            const auto ib = reinterpret_cast<std::intptr_t>(b->getUserData());
            const bool aMaster = ia < masterCount;
            const auto master = aMaster ? ia : ib;
            const auto slave = (aMaster ? ib : ia) - masterCount;
            static_cast<FclData*>(d)->emit(static_cast<Index>(slave), static_cast<Index>(master));
            return false;
        });
    });
}
#endif

#ifdef CONTACT_BENCH_HAVE_BULLET
struct BulletCollector : btDbvt::ICollide {
    std::function<void(Index, Index)> emit;
    void Process(const btDbvtNode* a, const btDbvtNode* b) override {
        emit(static_cast<Index>(reinterpret_cast<std::intptr_t>(b->data)),
             static_cast<Index>(reinterpret_cast<std::intptr_t>(a->data)));
    }
};

void BM_Bullet(benchmark::State& state, const std::string& kind) {
    measure(state, kind, [&](const BoxSets& s, auto&& emit) {
        btDbvt mt;
        btDbvt st;
        for (Index j = 0; j < s.mlo.cols(); ++j) {
            mt.insert(btDbvtVolume::FromMM(btVector3(s.mlo(0, j), s.mlo(1, j), s.mlo(2, j)),
                                           btVector3(s.mhi(0, j), s.mhi(1, j), s.mhi(2, j))),
                      reinterpret_cast<void*>(static_cast<std::intptr_t>(j)));
        }
        for (Index k = 0; k < s.slo.cols(); ++k) {
            st.insert(btDbvtVolume::FromMM(btVector3(s.slo(0, k), s.slo(1, k), s.slo(2, k)),
                                           btVector3(s.shi(0, k), s.shi(1, k), s.shi(2, k))),
                      reinterpret_cast<void*>(static_cast<std::intptr_t>(k)));
        }
        BulletCollector c;
        c.emit = [&](Index k, Index j) { emit(k, j); };
        mt.collideTT(mt.m_root, st.m_root, c);
    });
}
#endif

// The limit of item 3 of issue 25: the time to write the pair set alone, 8 bytes a pair (slave,
// master as two int32, the size of an uncompressed pair list) stored in order into a buffer touched
// beforehand (no page faults timed), the values from a counter (nothing read). Beside it, the
// machine's write bandwidth: std::fill of a 256 MiB buffer.
void BM_PairWrite(benchmark::State& state, const std::string& kind) {
    const BoxSets& s = boxSets(kind, state.range(0));
    const std::size_t count = s.pairs.size();
    std::vector<std::uint64_t> out(count, 1);
    for (auto _ : state) {
        std::uint64_t* p = out.data();
        for (std::size_t i = 0; i < count; ++i) {
            p[i] = key(static_cast<Index>(i >> 4), static_cast<Index>(i));
        }
        benchmark::DoNotOptimize(p);
        benchmark::ClobberMemory();
    }
    state.counters["pairs"] = static_cast<double>(count);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(count * sizeof(std::uint64_t)));
}

void BM_WriteBandwidth(benchmark::State& state) {
    std::vector<std::uint64_t> buffer(std::size_t{32} << 20, 1);  // 256 MiB
    std::uint64_t v = 0;
    for (auto _ : state) {
        std::fill(buffer.begin(), buffer.end(), ++v);
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(buffer.size() * sizeof(std::uint64_t)));
}

const char* const kKinds[] = {"wavy_quad4", "wavy_line2", "graded_quad4"};

void registerAll() {
    benchmark::RegisterBenchmark("WriteBandwidth", BM_WriteBandwidth)
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.3)
        ->UseRealTime();
    for (const char* kind : kKinds) {
        for (long n : bench::benchSizes()) {
            const std::string k = kind;
            const auto reg = [&](const char* impl,
                                 void (*fn)(benchmark::State&, const std::string&)) {
                benchmark::RegisterBenchmark(("BroadPhase/" + k + "/" + impl).c_str(), fn, k)
                    ->Arg(n)
                    ->Unit(benchmark::kMillisecond)
                    ->MinTime(0.3)
                    ->UseRealTime();
            };
            reg("ours_boxtree", BM_BoxTree);
            reg("ours_kdtree", BM_KdTreeSizeClasses);
            reg("ours_sweep", BM_Sweep);
            reg("nanoflann_plain", BM_NanoflannPlain);
            reg("pair_write", BM_PairWrite);
#ifdef CONTACT_BENCH_HAVE_CGAL
            reg("cgal", BM_Cgal);
#endif
#ifdef CONTACT_BENCH_HAVE_FCL
            reg("fcl", BM_Fcl);
#endif
#ifdef CONTACT_BENCH_HAVE_BULLET
            if (n <= (k == "wavy_line2" ? 10000 : 100000)) {
                reg("bullet", BM_Bullet);
            }
#endif
        }
    }
}

}  // namespace

int main(int argc, char** argv) { return contact::bench::runBenchmarks(argc, argv, registerAll); }
