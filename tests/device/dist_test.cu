// The distributed primitives over NCCL, one rank per visible GPU in this process (ncclCommInitAll;
// with one GPU a communicator of size 1), each rank on its own host thread. Every result is
// compared with the CPU on the concatenated array and with the single-GPU primitive: balanced,
// ragged, empty and one-rank shards, duplicate and negative keys, INT_MIN / INT_MAX, all keys on
// one rank, all keys equal; and each rank alone (a communicator of one, from ncclCommSplit).
// Outputs are poisoned before every run. Skipped without a CUDA device.
#include <gtest/gtest.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/distributed/compaction.cuh>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/sample_sort.h>
#include <stream_compaction/distributed/scan.h>
#include <stream_compaction/distributed/spmv.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/support/device_buffer.h>

#include "dist_test_util.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <random>
#include <stdexcept>

namespace SC = StreamCompaction;
namespace D = StreamCompaction::distributed;
using SC::DeviceBuffer;
using namespace dist_test;

namespace {

// ---- scan ----

// Integer-valued inputs, so that float and double sums are exact too (below 2^24); int32 gets the
// whole range, so its sums wrap.
template <class T>
std::vector<T> scanInput(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    for (T &x : v) {
        if constexpr (std::is_same_v<T, std::int32_t>) x = static_cast<std::int32_t>(rng());
        else if constexpr (std::is_same_v<T, std::int64_t>) x = static_cast<std::int64_t>(rng()) * 4096 - (1ll << 40);
        else x = static_cast<T>(static_cast<int>(rng() % 7) - 3);
    }
    return v;
}

// The exclusive sum as the GPU computes it: integers wrap (through the unsigned type).
template <class T>
std::vector<T> cpuExclusiveSum(const std::vector<T> &in, T &total) {
    std::vector<T> out(in.size());
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        U sum = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            out[i] = static_cast<T>(sum);
            sum += static_cast<U>(in[i]);
        }
        total = static_cast<T>(sum);
    } else {
        T sum = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            out[i] = sum;
            sum += in[i];
        }
        total = sum;
    }
    return out;
}

template <class T>
void checkScan(int ranks, std::uint32_t seed) {
    for (const Shape &shape : shard_shapes(ranks)) {
        SCOPED_TRACE(shape.name);
        std::size_t n = 0;
        for (const std::size_t s : shape.sizes) n += s;
        const std::vector<T> global = scanInput<T>(n, seed);
        std::vector<std::vector<T>> results(ranks);
        std::vector<T> totals(ranks);
        for (const bool in_place : {false, true}) {
            group().run([&](int rank) {
                const D::Communicator comm(group().comm(rank));
                const Stream stream;
                D::Workspace ws;
                const std::vector<T> shard = shard_of(global, shape.sizes, rank);
                auto d_in = DeviceBuffer<T>::from_host(shard.data(), shard.size());
                DeviceBuffer<T> d_out(shard.size());
                d_out.fill_bytes(kPoisonByte);
                T *out = in_place ? d_in.get() : d_out.get();
                totals[rank] = D::exclusive_sum(comm, d_in.get(), out, shard.size(), ws, stream.get());
                SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
                results[rank].resize(shard.size());
                SC_CUDA_CHECK(cudaMemcpy(results[rank].data(), out, shard.size() * sizeof(T), cudaMemcpyDeviceToHost));
            });
            T total{};
            const std::vector<T> expected = cpuExclusiveSum(global, total);
            EXPECT_EQ(concatenate(results), expected) << (in_place ? "in place" : "out of place");
            for (int r = 0; r < ranks; ++r) EXPECT_EQ(totals[r], total) << "rank " << r << "'s total";
        }
        // The single-GPU scan of the whole array agrees.
        SC_CUDA_CHECK(cudaSetDevice(group().device(0)));
        if (n > 0) {
            auto d_all = DeviceBuffer<T>::from_host(global.data(), n);
            SC::exclusive_scan(d_all.get(), d_all.get(), n, SC::Sum{}, T{});
            std::vector<T> single(n);
            d_all.copy_to_host(single.data(), n);
            EXPECT_EQ(concatenate(results), single) << "against the single-GPU scan";
        }
    }
}

TEST_F(Distributed, ExclusiveSumInt32WrapsLikeOneGpu) { checkScan<std::int32_t>(ranks_, freshSeed()); }
TEST_F(Distributed, ExclusiveSumInt64) { checkScan<std::int64_t>(ranks_, freshSeed()); }
TEST_F(Distributed, ExclusiveSumFloat) { checkScan<float>(ranks_, freshSeed()); }
TEST_F(Distributed, ExclusiveSumDouble) { checkScan<double>(ranks_, freshSeed()); }

// ---- compaction and rebalance ----

TEST_F(Distributed, CompactionKeepsGlobalOrderAndPlacesEachRank) {
    const std::uint32_t seed = freshSeed();
    for (const Shape &shape : shard_shapes(ranks_)) {
        for (const D::Balance balance : {D::Balance::Keep, D::Balance::Rebalance}) {
            const bool rebalance = balance == D::Balance::Rebalance;
            SCOPED_TRACE(shape.name + (rebalance ? ", rebalanced" : ", kept in place"));
            std::size_t n = 0;
            for (const std::size_t s : shape.sizes) n += s;
            const std::vector<int> global = makeInput(n, Fill::HalfZeros, seed);
            std::vector<int> expected;
            std::copy_if(global.begin(), global.end(), std::back_inserter(expected), [](int v) { return v != 0; });
            std::vector<std::vector<int>> results(ranks_);
            std::vector<D::Placement> placements(ranks_);
            group().run([&](int rank) {
                const D::Communicator comm(group().comm(rank));
                const Stream stream;
                D::Workspace ws;
                const std::vector<int> shard = shard_of(global, shape.sizes, rank);
                auto d_in = DeviceBuffer<int>::from_host(shard.data(), shard.size());
                const std::size_t capacity = rebalance ? n / ranks_ + 1 : shard.size();
                DeviceBuffer<int> d_out(capacity);
                d_out.fill_bytes(kPoisonByte);
                placements[rank] = D::compact_if(comm, d_in.get(), shard.size(), d_out.get(), capacity, SC::NonZero{},
                                                 balance, ws, stream.get());
                SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
                results[rank].resize(placements[rank].count);
                d_out.copy_to_host(results[rank].data(), placements[rank].count);
            });
            EXPECT_EQ(concatenate(results), expected);
            std::size_t begin = 0;
            for (int r = 0; r < ranks_; ++r) {
                EXPECT_EQ(placements[r].global_begin, begin) << "rank " << r;
                EXPECT_EQ(placements[r].global_count, expected.size()) << "rank " << r;
                if (rebalance)
                    EXPECT_EQ(placements[r].count, D::balanced_begin(expected.size(), ranks_, r + 1) -
                                                       D::balanced_begin(expected.size(), ranks_, r))
                        << "rank " << r;
                begin += placements[r].count;
            }
            // The single-GPU selection of the whole array agrees.
            SC_CUDA_CHECK(cudaSetDevice(group().device(0)));
            if (n > 0) {
                auto d_all = DeviceBuffer<int>::from_host(global.data(), n);
                DeviceBuffer<int> d_kept(n);
                DeviceBuffer<std::size_t> d_count(1);
                DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n));
                SC::select_if(d_all.get(), d_kept.get(), d_count.get(), n, SC::NonZero{}, d_temp.get(), d_temp.size());
                std::size_t count = 0;
                d_count.copy_to_host(&count, 1);
                std::vector<int> single(count);
                d_kept.copy_to_host(single.data(), count);
                EXPECT_EQ(concatenate(results), single) << "against the single-GPU select_if";
            }
        }
    }
}

TEST_F(Distributed, RebalanceEqualizesRaggedShards) {
    for (const Shape &shape : shard_shapes(ranks_)) {
        SCOPED_TRACE(shape.name);
        std::size_t n = 0;
        for (const std::size_t s : shape.sizes) n += s;
        std::vector<std::int64_t> global(n);
        for (std::size_t i = 0; i < n; ++i) global[i] = static_cast<std::int64_t>(i) * 3 - 7;
        std::vector<std::vector<std::int64_t>> results(ranks_);
        group().run([&](int rank) {
            const D::Communicator comm(group().comm(rank));
            const Stream stream;
            D::Workspace ws;
            const std::vector<std::int64_t> shard = shard_of(global, shape.sizes, rank);
            auto d_in = DeviceBuffer<std::int64_t>::from_host(shard.data(), shard.size());
            const std::size_t capacity = n / ranks_ + 1;
            DeviceBuffer<std::int64_t> d_out(capacity);
            d_out.fill_bytes(kPoisonByte);
            const D::Placement p = D::rebalance(comm, d_in.get(), shard.size(), d_out.get(), capacity, ws, stream.get());
            SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
            results[rank].resize(p.count);
            d_out.copy_to_host(results[rank].data(), p.count);
            EXPECT_EQ(p.global_begin, D::balanced_begin(n, comm.ranks(), rank));
        });
        EXPECT_EQ(concatenate(results), global);
        for (int r = 0; r < ranks_; ++r)
            EXPECT_EQ(results[r].size(), D::balanced_begin(n, ranks_, r + 1) - D::balanced_begin(n, ranks_, r));
    }
}

// ---- sample sort ----

enum class Keys { FullRange, FewDistinct, AllEqual };

std::vector<int> sortKeys(std::size_t n, Keys keys, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> any(INT_MIN, INT_MAX), few(-2, 1);
    std::vector<int> v(n);
    for (int &k : v) k = keys == Keys::FullRange ? any(rng) : keys == Keys::FewDistinct ? few(rng) : -5;
    if (keys == Keys::FullRange && n >= 2) {
        v[0] = INT_MAX;
        v[n - 1] = INT_MIN;
        v[n / 2] = INT_MIN;
    }
    return v;
}

// Sorts pairs (value = global index, so stability is checked exactly) or keys alone on every rank.
void checkSort(const std::vector<Shape> &shapes, int ranks, bool pairs, std::uint32_t seed) {
    for (const Shape &shape : shapes)
        for (const Keys keys : {Keys::FullRange, Keys::FewDistinct, Keys::AllEqual}) {
            SCOPED_TRACE(shape.name + ", keys " + std::to_string(static_cast<int>(keys)) + (pairs ? ", pairs" : ""));
            std::size_t n = 0;
            for (const std::size_t s : shape.sizes) n += s;
            const std::vector<int> global = sortKeys(n, keys, seed);
            std::vector<int> index(n);
            for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<int>(i);
            std::vector<std::vector<int>> out_keys(ranks), out_values(ranks);
            std::vector<D::Placement> placements(ranks);
            const std::size_t capacity = D::sample_sort_capacity(n, ranks);
            group().run([&](int rank) {
                const D::Communicator comm(group().comm(rank));
                const Stream stream;
                D::Workspace ws;
                const std::vector<int> shard = shard_of(global, shape.sizes, rank);
                const std::vector<int> values = shard_of(index, shape.sizes, rank);
                auto d_keys = DeviceBuffer<int>::from_host(shard.data(), shard.size());
                auto d_values = DeviceBuffer<int>::from_host(values.data(), values.size());
                DeviceBuffer<int> d_keys_out(capacity), d_values_out(capacity);
                d_keys_out.fill_bytes(kPoisonByte);
                d_values_out.fill_bytes(kPoisonByte);
                placements[rank] =
                    pairs ? D::sample_sort_pairs(comm, d_keys.get(), d_values.get(), shard.size(), d_keys_out.get(),
                                                 d_values_out.get(), capacity, ws, stream.get())
                          : D::sample_sort_keys(comm, d_keys.get(), shard.size(), d_keys_out.get(), capacity, ws,
                                                stream.get());
                SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
                out_keys[rank].resize(placements[rank].count);
                d_keys_out.copy_to_host(out_keys[rank].data(), placements[rank].count);
                if (pairs) {
                    out_values[rank].resize(placements[rank].count);
                    d_values_out.copy_to_host(out_values[rank].data(), placements[rank].count);
                }
            });
            std::vector<int> order = index;  // the stable order of the global array
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return global[a] < global[b]; });
            std::vector<int> expected(n);
            for (std::size_t i = 0; i < n; ++i) expected[i] = global[order[i]];
            EXPECT_EQ(concatenate(out_keys), expected);
            if (pairs) EXPECT_EQ(concatenate(out_values), order) << "values of equal keys out of input order";
            std::size_t begin = 0;
            for (int r = 0; r < ranks; ++r) {
                EXPECT_LE(placements[r].count, capacity) << "rank " << r << " over the stated bound";
                EXPECT_EQ(placements[r].global_begin, begin) << "rank " << r;
                EXPECT_EQ(placements[r].global_count, n) << "rank " << r;
                begin += placements[r].count;
            }
            // The single-GPU radix sort of the whole array agrees.
            SC_CUDA_CHECK(cudaSetDevice(group().device(0)));
            if (n > 0) {
                auto d_all = DeviceBuffer<int>::from_host(global.data(), n);
                DeviceBuffer<int> d_sorted(n);
                SC::radix_sort_keys(d_all.get(), d_sorted.get(), n);
                std::vector<int> single(n);
                d_sorted.copy_to_host(single.data(), n);
                EXPECT_EQ(concatenate(out_keys), single) << "against the single-GPU radix sort";
            }
        }
}

TEST_F(Distributed, SampleSortKeys) { checkSort(shard_shapes(ranks_), ranks_, false, freshSeed()); }
TEST_F(Distributed, SampleSortPairsIsStable) { checkSort(shard_shapes(ranks_), ranks_, true, freshSeed()); }

TEST_F(Distributed, SampleSortLargeShards) {
    // More keys than samples per rank by far: the splitters, not the padding, decide the buckets.
    checkSort({{"large", std::vector<std::size_t>(ranks_, std::size_t{1} << 21)}}, ranks_, true, freshSeed());
}

TEST_F(Distributed, TooSmallOutputThrowsOnEveryRankAndNothingHangs) {
    // Rank 0's output is one key short of what it receives: every rank throws the same error after
    // the counts are known, before anything moves, and the communicators stay usable.
    const std::size_t per_rank = 1000, n = per_rank * ranks_;
    const std::vector<int> global = sortKeys(n, Keys::FewDistinct, 7);
    std::vector<std::string> errors(ranks_);
    group().run([&](int rank) {
        const D::Communicator comm(group().comm(rank));
        D::Workspace ws;
        const std::vector<int> shard(global.begin() + rank * per_rank, global.begin() + (rank + 1) * per_rank);
        auto d_keys = DeviceBuffer<int>::from_host(shard.data(), per_rank);
        DeviceBuffer<int> d_out(n);
        const std::size_t capacity = rank == 0 ? 0 : n;  // rank 0 receives at least one key
        try {
            D::sample_sort_keys(comm, d_keys.get(), per_rank, d_out.get(), capacity, ws);
        } catch (const std::length_error &e) {
            errors[rank] = e.what();
        }
    });
    for (int r = 0; r < ranks_; ++r) EXPECT_NE(errors[r].find("rank 0 receives"), std::string::npos) << errors[r];
    checkSort({{"after the error", std::vector<std::size_t>(ranks_, 100)}}, ranks_, false, 8);  // still usable
}

TEST_F(Distributed, EachRankAloneIsACommunicatorOfOne) {
    // ncclCommSplit by rank: every rank sorts, scans and compacts its own shard by itself.
    const std::size_t n = 30011;
    const std::vector<int> keys = sortKeys(n, Keys::FullRange, 9);
    std::vector<int> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::vector<int>> results(ranks_);
    group().run([&](int rank) {
        ncclComm_t alone = nullptr;
        SC_NCCL_CHECK(ncclCommSplit(group().comm(rank), rank, 0, &alone, nullptr));
        try {
            const D::Communicator comm(alone);
            EXPECT_EQ(comm.ranks(), 1);
            D::Workspace ws;
            auto d_keys = DeviceBuffer<int>::from_host(keys.data(), n);
            DeviceBuffer<int> d_out(n);
            d_out.fill_bytes(kPoisonByte);
            const D::Placement p = D::sample_sort_keys(comm, d_keys.get(), n, d_out.get(), n, ws);
            EXPECT_EQ(p.count, n);
            results[rank].resize(n);
            d_out.copy_to_host(results[rank].data(), n);
        } catch (...) {
            (void)ncclCommDestroy(alone);  // the error being reported is the one rethrown
            throw;
        }
        SC_NCCL_CHECK(ncclCommDestroy(alone));
    });
    for (int r = 0; r < ranks_; ++r) EXPECT_EQ(results[r], sorted) << "rank " << r;
}

// ---- SpMV ----

// y = A x on the CPU, in double.
std::vector<double> cpuSpmv(const SC::CsrMatrix<double> &a, const std::vector<double> &x) {
    std::vector<double> y(a.rows, 0.0);
    for (int r = 0; r < a.rows; ++r)
        for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) y[r] += a.values[k] * x[a.column_indices[k]];
    return y;
}

// Rows [begin, end) of `a`, with its global column indices.
SC::CsrMatrix<double> rowBlock(const SC::CsrMatrix<double> &a, int begin, int end) {
    SC::CsrMatrix<double> block;
    block.rows = end - begin;
    block.cols = a.cols;
    block.row_offsets.clear();
    for (int r = begin; r <= end; ++r) block.row_offsets.push_back(a.row_offsets[r] - a.row_offsets[begin]);
    block.column_indices.assign(a.column_indices.begin() + a.row_offsets[begin], a.column_indices.begin() + a.row_offsets[end]);
    block.values.assign(a.values.begin() + a.row_offsets[begin], a.values.begin() + a.row_offsets[end]);
    return block;
}

void checkSpmv(const SC::CsrMatrix<double> &a, const std::vector<long long> &row_begin,
               const std::vector<long long> &column_begin, SC::SpmvAlgorithm algorithm) {
    const int ranks = static_cast<int>(row_begin.size()) - 1;
    std::mt19937 rng(11);
    std::vector<double> x(a.cols);
    for (double &v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    const std::vector<double> expected = cpuSpmv(a, x);
    std::vector<std::vector<double>> results(ranks);
    group().run([&](int rank) {
        const D::Communicator comm(group().comm(rank));
        const Stream stream;
        const SC::CsrMatrix<double> rows = rowBlock(a, static_cast<int>(row_begin[rank]), static_cast<int>(row_begin[rank + 1]));
        D::DistributedSpmv<double> multiply(comm, rows, column_begin, algorithm, stream.get());
        const std::vector<double> own(x.begin() + column_begin[rank], x.begin() + column_begin[rank + 1]);
        auto d_x = DeviceBuffer<double>::from_host(own.data(), own.size());
        DeviceBuffer<double> d_y(rows.rows);
        d_y.fill_bytes(0xFF);  // NaN: beta = 0 must not read it
        multiply(2.0, d_x.get(), 0.0, d_y.get(), stream.get());
        multiply(1.0, d_x.get(), -1.0, d_y.get(), stream.get());  // y = A x - 2 A x = -A x: called twice
        SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        results[rank].resize(rows.rows);
        d_y.copy_to_host(results[rank].data(), rows.rows);
    });
    const std::vector<double> y = concatenate(results);
    ASSERT_EQ(y.size(), expected.size());
    for (std::size_t i = 0; i < y.size(); ++i)
        ASSERT_NEAR(y[i], -expected[i], 1e-12 * (1 + std::abs(expected[i]))) << "row " << i;
    // The single-GPU Spmv of the whole matrix agrees.
    SC_CUDA_CHECK(cudaSetDevice(group().device(0)));
    const SC::DeviceCsr<double> whole(a);
    SC::Spmv<double> single(whole, algorithm);
    auto d_x = DeviceBuffer<double>::from_host(x.data(), x.size());
    DeviceBuffer<double> d_y(a.rows);
    single(-1.0, d_x.get(), 0.0, d_y.get());
    std::vector<double> y_single(a.rows);
    d_y.copy_to_host(y_single.data(), a.rows);
    for (std::size_t i = 0; i < y.size(); ++i)
        ASSERT_NEAR(y[i], y_single[i], 1e-12 * (1 + std::abs(expected[i]))) << "row " << i << " against one GPU";
}

std::vector<long long> balancedSplit(std::size_t total, int ranks) {
    std::vector<long long> begin;
    for (int r = 0; r <= ranks; ++r) begin.push_back(static_cast<long long>(D::balanced_begin(total, ranks, r)));
    return begin;
}

TEST_F(Distributed, SpmvPoissonBalancedRows) {
    const SC::CsrMatrix<double> a = SC::poisson_2d(96);
    for (const SC::SpmvAlgorithm algorithm : {SC::SpmvAlgorithm::MergePath, SC::SpmvAlgorithm::Flat}) {
        SCOPED_TRACE(SC::spmv_algorithm_name(algorithm));
        checkSpmv(a, balancedSplit(a.rows, ranks_), balancedSplit(a.cols, ranks_), algorithm);
    }
}

TEST_F(Distributed, SpmvPowerLawWithSkewedRowsAndColumns) {
    // Rectangular, power-law rows; every row on the last rank while x is split evenly, so that the
    // last rank's halo is everyone else's x and the others own columns but no rows.
    const SC::CsrMatrix<double> a = SC::power_law(3001, 2999, 1.5, 1, 3);
    std::vector<long long> rows_on_last(ranks_ + 1, 0);
    rows_on_last[ranks_] = a.rows;
    checkSpmv(a, rows_on_last, balancedSplit(a.cols, ranks_), SC::SpmvAlgorithm::MergePath);
    checkSpmv(a, balancedSplit(a.rows, ranks_), balancedSplit(a.cols, ranks_), SC::SpmvAlgorithm::MergePath);
}

TEST_F(Distributed, CaptureIntoAGraphIsRefusedBeforeAnythingIsEnqueued) {
    // Every primitive that waits on the host for all-gathered counts refuses a capturing stream
    // with std::invalid_argument, on every rank, before enqueueing anything: the capture ends with
    // an empty graph, and the communicators stay usable.
    const std::size_t n = 1000;
    const SC::CsrMatrix<double> a = SC::poisson_2d(8);
    std::vector<std::vector<std::string>> refusals(ranks_);
    std::vector<std::size_t> captured_nodes(ranks_, 1);
    group().run([&](int rank) {
        const D::Communicator comm(group().comm(rank));
        D::Workspace ws;
        const std::vector<int> keys(n, rank);
        auto d_in = DeviceBuffer<int>::from_host(keys.data(), n);
        DeviceBuffer<int> d_out(n * ranks_), d_values_out(n * ranks_);
        const SC::CsrMatrix<double> rows = rank == 0 ? a : rowBlock(a, a.rows, a.rows);
        std::vector<long long> columns(ranks_ + 1, a.cols);  // rank 0 owns every column
        columns[0] = 0;
        const Stream stream;
        // Thread-local: the other ranks' threads go on allocating while this one captures.
        SC_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
        const auto refused = [&](auto call) {
            try {
                call();
            } catch (const std::invalid_argument &e) {
                refusals[rank].push_back(e.what());
            }
        };
        const cudaStream_t s = stream.get();
        refused([&] { D::exclusive_sum(comm, d_in.get(), d_out.get(), n, ws, s); });
        refused([&] {
            D::compact_if(comm, d_in.get(), n, d_out.get(), n * ranks_, SC::NonZero{}, D::Balance::Keep, ws, s);
        });
        refused([&] { D::rebalance(comm, d_in.get(), n, d_out.get(), n * ranks_, ws, s); });
        refused([&] { D::sample_sort_keys(comm, d_in.get(), n, d_out.get(), n * ranks_, ws, s); });
        refused([&] {
            D::sample_sort_pairs(comm, d_in.get(), d_in.get(), n, d_out.get(), d_values_out.get(), n * ranks_, ws, s);
        });
        refused([&] { D::DistributedSpmv<double> multiply(comm, rows, columns, SC::SpmvAlgorithm::MergePath, s); });
        cudaGraph_t graph = nullptr;
        SC_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
        SC_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &captured_nodes[rank]));
        SC_CUDA_CHECK(cudaGraphDestroy(graph));
    });
    for (int r = 0; r < ranks_; ++r) {
        SCOPED_TRACE("rank " + std::to_string(r));
        EXPECT_EQ(captured_nodes[r], 0u);
        ASSERT_EQ(refusals[r].size(), 6u);
        for (const std::string &what : refusals[r]) EXPECT_NE(what.find("CUDA graph"), std::string::npos) << what;
    }
    checkSort({{"after the refusals", std::vector<std::size_t>(ranks_, 100)}}, ranks_, false, 8);  // still usable
}

}  // namespace

int main(int argc, char **argv) {
    keep_nvls_off();  // before any NCCL call
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    release_group();
    return status;
}
