// Calls in flight together on two streams. Each stream first runs an equal delay kernel, so the
// two calls behind them start at nearly the same moment and overlap (large n keeps them running
// long enough); nothing synchronizes in between.
//   - Two calls with separate temporary storage (scan + scan, select + scan, segmented reduce +
//     scan, reduction + maximum segment sum, two reductions of a few tiles): both results right.
//   - One Spmv object called on two streams at once with different x and y (several calls queued
//     on each), through the overload that allocates its storage per call and through the one
//     that takes the caller's (storage of its own per stream): the contract is that this is safe
//     (the object's state is per call), so both results must be right.
// The failure mode these tests look for is a hang as much as a wrong result: two launches that
// share look-back status (or a ticket) can wait forever on words the other overwrote. So every
// wait polls cudaStreamQuery with a 20 s deadline; past it the test fails with a message saying
// so, and leaves without freeing anything (a free would wait for the stuck kernel). The kernel
// stays running: later tests of the same process skip (under ctest each test has its own process).
#include <gtest/gtest.h>

#include <stream_compaction/cpu.h>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/device/spmv.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

constexpr std::size_t kN = (std::size_t(1) << 24) + 43;  // 16.8 M: each call runs for a while
constexpr int kRounds = 3;
constexpr double kSeconds = 20;
constexpr unsigned kDelayMicroseconds = 2000;

struct IsNegative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};

class GpuConcurrency : public RobustGpuTest {};

// Enqueues `first(stream)` and `second(stream)` on two streams, each behind the same delay, then
// waits for both with the deadline. On a timeout the arena and streams are abandoned.
template <class First, class Second>
::testing::AssertionResult runTogether(DeviceArena &arena, First first, Second second) {
    auto one = std::make_unique<Stream>();
    auto two = std::make_unique<Stream>();
    delayStream(*one, kDelayMicroseconds);
    delayStream(*two, kDelayMicroseconds);
    first(one->get());
    second(two->get());
    ::testing::AssertionResult finished = finishesWithin(*one, kSeconds, "the call on the first stream");
    if (finished) finished = finishesWithin(*two, kSeconds, "the call on the second stream");
    if (deviceWedged()) {
        arena.abandon();
        one->release();
        two->release();
    }
    return finished;
}

}  // namespace

TEST_F(GpuConcurrency, ScanAndScanWithSeparateStorage) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_a = arena.make<int>(n), *d_a_out = arena.make<int>(n);
    double *d_b = arena.make<double>(n), *d_b_out = arena.make<double>(n);
    const std::size_t a_bytes = SC::scan_temp_bytes<int>(n), b_bytes = SC::scan_temp_bytes<double>(n);
    void *d_a_temp = arena.make<char>(a_bytes);
    void *d_b_temp = arena.make<char>(b_bytes);
    std::mt19937 rng(freshSeed());
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<int> a = randomInts(n, rng);
        const std::vector<double> b = randomIntegralDoubles(n, rng);
        upload(0, d_a, a);
        upload(0, d_b, b);
        poison(0, d_a_out, n * sizeof(int));
        poison(0, d_b_out, n * sizeof(double));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(runTogether(
            arena,
            [&](cudaStream_t s) { SC::exclusive_scan(d_a, d_a_out, n, SC::Sum{}, 0, d_a_temp, a_bytes, testEnv(s)); },
            [&](cudaStream_t s) { SC::inclusive_scan(d_b, d_b_out, n, SC::Sum{}, d_b_temp, b_bytes, testEnv(s)); }));
        EXPECT_TRUE(sameElements(download(d_a_out, n), referenceExclusiveScan(a, SC::Sum{}, 0), "int exclusive scan"));
        EXPECT_TRUE(sameElements(download(d_b_out, n), referenceInclusiveScan(b, SC::Sum{}), "double inclusive scan"));
    }
}

// The chunked sum beside the maximum segment sum (the striped and the ordered kernel): each
// combines its blocks by a ticket of its own call state.
TEST_F(GpuConcurrency, ReduceAndMaxSegmentSumWithSeparateStorage) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_a = arena.make<int>(n), *d_b = arena.make<int>(n);
    int *d_sum = arena.make<int>(1);
    SC::MaxSegmentSum *d_best = arena.make<SC::MaxSegmentSum>(1);
    const std::size_t sum_bytes = SC::reduce_temp_bytes<int>(n), best_bytes = SC::max_segment_sum_temp_bytes(n);
    void *d_sum_temp = arena.make<char>(sum_bytes);
    void *d_best_temp = arena.make<char>(best_bytes);
    std::mt19937 rng(freshSeed());
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<int> a = randomInts(n, rng);
        const std::vector<int> b = randomInts(n, rng, -50, 50);
        upload(0, d_a, a);
        upload(0, d_b, b);
        poison(0, d_sum, sizeof(int));
        poison(0, d_best, sizeof(SC::MaxSegmentSum));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(runTogether(
            arena, [&](cudaStream_t s) { SC::reduce(d_a, d_sum, n, SC::Sum{}, 0, d_sum_temp, sum_bytes, s); },
            [&](cudaStream_t s) { SC::max_segment_sum(d_b, d_best, n, d_best_temp, best_bytes, s); }));
        EXPECT_EQ(download(d_sum, 1)[0], SC::CPU::sum(static_cast<int>(n), a.data())) << "int sum";
        EXPECT_TRUE(download(d_best, 1)[0] == SC::CPU::maxSegmentSum(static_cast<int>(n), b.data()))
            << "maximum segment sum";
    }
}

// Two sums of a few tiles, each one launch of one cluster (sm_90 on; elsewhere the striped kernel
// and a ticket), and the inputs changed between rounds.
TEST_F(GpuConcurrency, TwoSumsOfAFewTilesEach) {
    const std::size_t n = 40003;  // 10 tiles of 256 threads: a cluster of 5 blocks folding 2 each
    DeviceArena arena;
    int *d_a = arena.make<int>(n), *d_b = arena.make<int>(n);
    int *d_a_sum = arena.make<int>(1), *d_b_sum = arena.make<int>(1);
    const std::size_t bytes = SC::reduce_temp_bytes<int>(n);
    void *d_a_temp = arena.make<char>(bytes);
    void *d_b_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<int> a = randomInts(n, rng), b = randomInts(n, rng, -50, 50);
        upload(0, d_a, a);
        upload(0, d_b, b);
        poison(0, d_a_sum, sizeof(int));
        poison(0, d_b_sum, sizeof(int));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(runTogether(
            arena, [&](cudaStream_t s) { SC::reduce(d_a, d_a_sum, n, SC::Sum{}, 0, d_a_temp, bytes, s); },
            [&](cudaStream_t s) { SC::reduce(d_b, d_b_sum, n, SC::Sum{}, 0, d_b_temp, bytes, s); }));
        EXPECT_EQ(download(d_a_sum, 1)[0], SC::CPU::sum(static_cast<int>(n), a.data())) << "first sum";
        EXPECT_EQ(download(d_b_sum, 1)[0], SC::CPU::sum(static_cast<int>(n), b.data())) << "second sum";
    }
}

TEST_F(GpuConcurrency, SelectAndScanWithSeparateStorage) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_a = arena.make<int>(n), *d_a_out = arena.make<int>(n);
    std::size_t *d_count = arena.make<std::size_t>(1);
    int *d_b = arena.make<int>(n), *d_b_out = arena.make<int>(n);
    const std::size_t a_bytes = SC::select_temp_bytes<int>(n), b_bytes = SC::scan_temp_bytes<int>(n);
    void *d_a_temp = arena.make<char>(a_bytes);
    void *d_b_temp = arena.make<char>(b_bytes);
    std::mt19937 rng(freshSeed());
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<int> a = randomInts(n, rng), b = randomInts(n, rng);
        upload(0, d_a, a);
        upload(0, d_b, b);
        poison(0, d_a_out, n * sizeof(int));
        poison(0, d_count, sizeof(std::size_t));
        poison(0, d_b_out, n * sizeof(int));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(runTogether(
            arena,
            [&](cudaStream_t s) {
                SC::select_if(d_a, d_a_out, d_count, n, IsNegative{}, d_a_temp, a_bytes, testEnv(s));
            },
            [&](cudaStream_t s) { SC::exclusive_scan(d_b, d_b_out, n, SC::Sum{}, 0, d_b_temp, b_bytes, testEnv(s)); }));
        std::vector<int> kept;
        for (int x : a)
            if (IsNegative{}(x)) kept.push_back(x);
        const std::size_t count = download(d_count, 1)[0];
        EXPECT_EQ(count, kept.size()) << "select count";
        if (count == kept.size()) EXPECT_TRUE(sameElements(download(d_a_out, count), kept, "select"));
        EXPECT_TRUE(sameElements(download(d_b_out, n), referenceExclusiveScan(b, SC::Sum{}, 0), "scan"));
    }
}

TEST_F(GpuConcurrency, SegmentedReduceAndScanWithSeparateStorage) {
    const std::size_t n = kN, segments = n / 16;
    DeviceArena arena;
    int *d_a = arena.make<int>(n), *d_offsets = arena.make<int>(segments + 1), *d_sums = arena.make<int>(segments);
    int *d_b = arena.make<int>(n), *d_b_out = arena.make<int>(n);
    const std::size_t a_bytes = SC::segmented_reduce_temp_bytes<int>(n, segments), b_bytes = SC::scan_temp_bytes<int>(n);
    void *d_a_temp = arena.make<char>(a_bytes);
    void *d_b_temp = arena.make<char>(b_bytes);
    std::mt19937 rng(freshSeed());
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<int> a = randomInts(n, rng), b = randomInts(n, rng);
        const std::vector<int> offsets = randomOffsets(n, segments, rng);
        upload(0, d_a, a);
        upload(0, d_offsets, offsets);
        upload(0, d_b, b);
        poison(0, d_sums, segments * sizeof(int));
        poison(0, d_b_out, n * sizeof(int));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        // Both engines, a round each.
        const auto engine = round % 2 ? SC::SegmentedReduceAlgorithm::ItemTiles : SC::SegmentedReduceAlgorithm::MergePath;
        ASSERT_TRUE(runTogether(
            arena,
            [&](cudaStream_t s) {
                SC::segmented_reduce(d_a, n, d_offsets, segments, d_sums, SC::Sum{}, 0, d_a_temp, a_bytes, s, engine);
            },
            [&](cudaStream_t s) { SC::inclusive_scan(d_b, d_b_out, n, SC::Sum{}, d_b_temp, b_bytes, testEnv(s)); }));
        EXPECT_TRUE(sameElements(download(d_sums, segments), referenceSegmentedReduce(a, offsets, SC::Sum{}, 0),
                                 "segmented reduce"));
        EXPECT_TRUE(sameElements(download(d_b_out, n), referenceInclusiveScan(b, SC::Sum{}), "scan"));
    }
}

namespace {

// y = alpha A x + beta y_old in double, and each row's magnitude (beta |y_old| taken from
// `old_magnitude`, for results iterated from results).
void referenceSpmv(const SC::CsrMatrix<float> &a, const std::vector<float> &x, double alpha, double beta,
                   const std::vector<double> &y_old, const std::vector<double> &old_magnitude, std::vector<double> &y,
                   std::vector<double> &magnitude) {
    std::vector<double> next(a.rows), next_magnitude(a.rows);
    for (int r = 0; r < a.rows; ++r) {
        double sum = 0, size = 0;
        for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
            const double product = double(a.values[k]) * x[a.column_indices[k]];
            sum += product;
            size += std::fabs(product);
        }
        next[r] = alpha * sum + (beta == 0 ? 0.0 : beta * y_old[r]);
        next_magnitude[r] = std::fabs(alpha) * size + (beta == 0 ? 0.0 : std::fabs(beta) * old_magnitude[r]);
    }
    y.swap(next);
    magnitude.swap(next_magnitude);
}

// One Spmv object, two streams, kCallsPerStream calls in flight on each: y1 = A x1 (over NaN, so
// beta = 0 must not read it) on one, y2 = 2 A x2 - 0.5 y2 (each call reading the last one's y2)
// on the other. Contract: safe, both right.
constexpr int kCallsPerStream = 4;
constexpr int kSpmvRounds = 5;

// caller_storage: each stream's calls use temporary storage of their own, passed in; else the
// overload that allocates per call.
void checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm algorithm, bool caller_storage) {
    SCOPED_TRACE(std::string(SC::spmv_algorithm_name(algorithm)) +
                 (caller_storage ? ", caller's storage per stream" : ", storage allocated per call"));
    const SC::CsrMatrix<float> host = SC::convert_values<float>(SC::power_law(1000003, 1000003, 1.5, 4, freshSeed()));
    DeviceArena arena;
    const auto &matrix = arena.own(std::make_unique<SC::DeviceCsr<float>>(host));
    auto &multiply = arena.own(std::make_unique<SC::Spmv<float>>(matrix, algorithm));
    const std::size_t rows = host.rows, cols = host.cols;
    float *d_x1 = arena.make<float>(cols), *d_x2 = arena.make<float>(cols);
    float *d_y1 = arena.make<float>(rows), *d_y2 = arena.make<float>(rows);
    const std::size_t bytes = multiply.temp_bytes();
    void *d_temp1 = arena.make<char>(bytes);
    void *d_temp2 = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<double> expected, magnitude;
    for (int round = 0; round < kSpmvRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::vector<float> x1 = randomFloats(cols, rng), x2 = randomFloats(cols, rng);
        const std::vector<float> y2_old = randomFloats(rows, rng);
        upload(0, d_x1, x1);
        upload(0, d_x2, x2);
        upload(0, d_y2, y2_old);
        SC_CUDA_CHECK(cudaMemsetAsync(d_y1, 0xFF, rows * sizeof(float), 0));  // NaN
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(runTogether(
            arena,
            [&](cudaStream_t s) {
                for (int call = 0; call < kCallsPerStream; ++call) {
                    if (caller_storage) multiply(1.0f, d_x1, 0.0f, d_y1, d_temp1, bytes, s);
                    else multiply(1.0f, d_x1, 0.0f, d_y1, s);
                }
            },
            [&](cudaStream_t s) {
                for (int call = 0; call < kCallsPerStream; ++call) {
                    if (caller_storage) multiply(2.0f, d_x2, -0.5f, d_y2, d_temp2, bytes, s);
                    else multiply(2.0f, d_x2, -0.5f, d_y2, s);
                }
            }))
            << "one Spmv on two streams at once";
        const std::vector<double> none(rows, 0.0);
        referenceSpmv(host, x1, 1.0, 0.0, none, none, expected, magnitude);
        EXPECT_TRUE(closeTo(download(d_y1, rows), expected, magnitude, 1e-5, "y1 = A x1 (first stream)"));
        expected.assign(y2_old.begin(), y2_old.end());
        magnitude.assign(rows, 0.0);
        for (std::size_t i = 0; i < rows; ++i) magnitude[i] = std::fabs(expected[i]);
        for (int call = 0; call < kCallsPerStream; ++call)
            referenceSpmv(host, x2, 2.0, -0.5, std::vector<double>(expected), std::vector<double>(magnitude), expected,
                          magnitude);
        EXPECT_TRUE(closeTo(download(d_y2, rows), expected, magnitude, 1e-5, "y2 = 2 A x2 - 0.5 y2 (second stream)"));
        if (::testing::Test::HasFailure()) return;
    }
}

}  // namespace

TEST_F(GpuConcurrency, OneSpmvFlatOnTwoStreams) { checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm::Flat, false); }
TEST_F(GpuConcurrency, OneSpmvMergePathOnTwoStreams) { checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm::MergePath, false); }
TEST_F(GpuConcurrency, OneSpmvFlatOnTwoStreamsCallerStorage) {
    checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm::Flat, true);
}
TEST_F(GpuConcurrency, OneSpmvMergePathOnTwoStreamsCallerStorage) {
    checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm::MergePath, true);
}
TEST_F(GpuConcurrency, OneSpmvVectorCsrOnTwoStreams) { checkOneSpmvOnTwoStreams(SC::SpmvAlgorithm::VectorCsr, false); }
