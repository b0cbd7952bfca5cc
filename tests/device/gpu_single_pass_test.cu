// The single-pass scan, compaction and partitions (scan.cuh, select.cuh) against CPU references:
// every type and operator, inclusive and exclusive, in place, non-commutative operators, tile
// boundaries, reused and garbage temporary storage, bad arguments; stable_partition's order and
// partition's (CUB's: the falses reversed), checked element by element.
#include <gtest/gtest.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/single_pass.h>
#include <stream_compaction/support/call_environment.h>

#include "gpu_test_util.h"
#include "reference.h"
#include "robustness_util.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

// Non-commutative, associative, 8 bytes: x -> a*x + b modulo 2^32; op(f, g) applies f, then g.
struct Affine {
    unsigned a, b;
    bool operator==(const Affine &o) const { return a == o.a && b == o.b; }
};
struct ComposeAffine {
    __host__ __device__ Affine operator()(const Affine &f, const Affine &g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

// 16 bytes (the fenced tile-status path): 2x2 matrices modulo 2^32, op(A, B) = A * B.
struct Mat2 {
    unsigned m[4];
    bool operator==(const Mat2 &o) const { return m[0] == o.m[0] && m[1] == o.m[1] && m[2] == o.m[2] && m[3] == o.m[3]; }
};
struct MatMul {
    __host__ __device__ Mat2 operator()(const Mat2 &x, const Mat2 &y) const {
        return {{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3],
                 x.m[2] * y.m[0] + x.m[3] * y.m[2], x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
    }
};

// 12 bytes (does not divide a 16-byte vector): an affine map with a counter beside it.
struct Counted {
    unsigned a, b, count;
    bool operator==(const Counted &o) const { return a == o.a && b == o.b && count == o.count; }
};
struct ComposeCounted {
    __host__ __device__ Counted operator()(const Counted &f, const Counted &g) const {
        return {g.a * f.a, g.a * f.b + g.b, f.count + g.count};
    }
};

template <class T>
T randomValue(std::mt19937 &rng) {
    if constexpr (std::is_same_v<T, Affine>) return {unsigned(rng() | 1u), unsigned(rng())};
    else if constexpr (std::is_same_v<T, Mat2>) return {{unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7)}};
    else if constexpr (std::is_same_v<T, Counted>) return {unsigned(rng() | 1u), unsigned(rng()), unsigned(rng() % 3)};
    else if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(-1, 1)(rng);
    else if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<std::int64_t>(rng() % 2001) - 1000);
    else return static_cast<T>(rng());
}

template <class T>
std::vector<T> randomVector(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    for (T &x : v) x = randomValue<T>(rng);
    return v;
}

// Sequential reference: floating-point types accumulate in double, integers wrap as the GPU's do.
template <class T>
using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T, class Op>
std::vector<Accumulator<T>> referenceScan(const std::vector<T> &in, Op op, bool exclusive, T init) {
    using A = Accumulator<T>;
    std::vector<A> out(in.size());
    bool have = exclusive;
    A acc = A(init);
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (exclusive) out[i] = acc;
        acc = have ? op(acc, A(in[i])) : A(in[i]);
        have = true;
        if (!exclusive) out[i] = acc;
    }
    return out;
}

// Exact for integers and structs; for floats, within 1e-5 of the running magnitude (a parallel
// scan adds in another order than the sequential one).
template <class T>
::testing::AssertionResult matches(const std::vector<T> &in, const std::vector<T> &got,
                                   const std::vector<Accumulator<T>> &expected) {
    if (got.size() != expected.size()) return ::testing::AssertionFailure() << "size " << got.size();
    double magnitude = 0, worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            magnitude += std::fabs(double(in[i]));
            if (double(got[i]) == expected[i]) continue;  // exact, infinities included
            const double error = std::fabs(double(got[i]) - expected[i]) / (magnitude + 1.0);
            if (!(error <= 1e-5))  // also catches NaN
                return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", expected "
                                                     << expected[i] << " (relative error " << error << ")";
            worst = std::max(worst, error);
        } else if (!(got[i] == expected[i])) {
            return ::testing::AssertionFailure() << "element " << i << " differs";
        }
    }
    return ::testing::AssertionSuccess() << "max relative error " << worst;
}

constexpr int kPoisonByte = 0xA5;

// Runs one scan through the device API at `tuning` on poisoned output (or in place) and returns the
// result.
template <class T, class Op>
std::vector<T> gpuScan(const std::vector<T> &in, Op op, bool exclusive, T init, bool in_place,
                       const SC::Tuning &tuning = {}) {
    const std::size_t n = in.size();
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(in_place ? 0 : n);
    d_out.fill_bytes(kPoisonByte);
    T *out = in_place ? d_in.get() : d_out.get();
    DeviceBuffer<char> temp(SC::scan_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    if (exclusive) SC::exclusive_scan(d_in.get(), out, n, op, init, temp.get(), temp.bytes(), testEnv(tuning));
    else SC::inclusive_scan(d_in.get(), out, n, op, temp.get(), temp.bytes(), testEnv(tuning));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> result(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(result.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    return result;
}

template <class T, class Op>
void checkScans(Op op, T init, const std::vector<std::size_t> &sizes, const SC::Tuning &tuning = {}) {
    for (std::size_t n : sizes) {
        const std::vector<T> in = randomVector<T>(n, freshSeed());
        for (bool exclusive : {true, false}) {
            for (bool in_place : {false, true}) {
                SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive") +
                             (in_place ? ", in place" : ""));
                ASSERT_TRUE(matches(in, gpuScan(in, op, exclusive, init, in_place, tuning),
                                    referenceScan(in, op, exclusive, init)));
            }
        }
    }
}

// Tile = block size x 16 bytes x kSinglePassVectorsPerThread: sizes around one tile, and past the
// 32-tile look-back window, at the smallest, default and largest block sizes.
template <class T>
std::vector<std::size_t> tileSizes(int threads) {
    const std::size_t tile = SC::detail::tile_items_for<T>(threads);
    return {tile - 1, tile, tile + 1, 2 * tile, 33 * tile + 5, 100 * tile - 1};
}

class SinglePass : public GpuTest {};

}  // namespace

TEST_F(SinglePass, EveryArithmeticTypeAndOperator) {
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        SCOPED_TRACE("block size " + std::to_string(threads));
        std::vector<std::size_t> sizes = edgeSizes();
        const std::vector<std::size_t> tiles = tileSizes<int>(threads);
        sizes.insert(sizes.end(), tiles.begin(), tiles.end());
        checkScans<int>(SC::Sum{}, 0, sizes, tuning);
        checkScans<int>(SC::Max{}, INT_MIN, sizes, tuning);
        checkScans<int>(SC::Min{}, INT_MAX, sizes, tuning);
        checkScans<unsigned>(SC::Sum{}, 7u, sizes, tuning);
        checkScans<std::int64_t>(SC::Sum{}, std::int64_t(0), sizes, tuning);
        checkScans<std::int64_t>(SC::Max{}, std::numeric_limits<std::int64_t>::min(), tileSizes<std::int64_t>(threads),
                                 tuning);
        checkScans<float>(SC::Sum{}, 0.0f, sizes, tuning);
        checkScans<float>(SC::Max{}, -INFINITY, tileSizes<float>(threads), tuning);
        checkScans<double>(SC::Sum{}, 0.0, sizes, tuning);
        checkScans<double>(SC::Min{}, INFINITY, tileSizes<double>(threads), tuning);
    }
}

namespace {

// Floating-point scans combine their tiles in a fixed order (detail/grid/fixed_order_look_back.cuh):
// every run of the same scan gives the same bits. Each run's output is poisoned first; run 0 is
// checked against the CPU, the others byte for byte against run 0.
template <class T>
void checkRepeatsItsBits(std::size_t n, int runs, bool exclusive, const SC::Tuning &tuning = {}) {
    SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive"));
    const std::vector<T> in = randomVector<T>(n, freshSeed());
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(n);
    DeviceBuffer<char> temp(SC::scan_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    std::vector<T> first(n), again(n);
    for (int run = 0; run < runs; ++run) {
        d_out.fill_bytes(kPoisonByte);
        if (exclusive)
            SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, T(0), temp.get(), temp.bytes(), testEnv(tuning));
        else SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, temp.get(), temp.bytes(), testEnv(tuning));
        std::vector<T> &got = run == 0 ? first : again;
        d_out.copy_to_host(got.data(), n);
        if (run == 0) {
            ASSERT_TRUE(matches(in, first, referenceScan(in, SC::Sum{}, exclusive, T(0))));
            continue;
        }
        const auto differs = std::mismatch(first.begin(), first.end(), again.begin(),
                                           [](T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; });
        ASSERT_TRUE(differs.first == first.end())
            << "run " << run << " differs from run 0 at element " << (differs.first - first.begin()) << ": "
            << *differs.second << " against " << *differs.first;
    }
}

}  // namespace

// Tile counts around the fixed order's groups (32 tiles) and spans (32 groups), at the smallest
// block size (the smallest tiles).
TEST_F(SinglePass, FloatScansRepeatTheirBitsAroundGroupsAndSpans) {
    const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, 32);
    const std::size_t tile = SC::detail::tile_items_for<float>(32);
    for (std::size_t tiles : {31, 32, 33, 1023, 1024, 1025, 2 * 1024 + 32 + 1})
        for (bool exclusive : {true, false}) {
            checkRepeatsItsBits<float>(tiles * tile - 3, 5, exclusive, tuning);
            checkRepeatsItsBits<double>(tiles * SC::detail::tile_items_for<double>(32) + 1, 3, exclusive, tuning);
        }
}

// The staged scan (sm_90 and later: a tile copied into shared memory by bulk copies; ScanStaging in
// support/call_environment.h) forced on small inputs: every type of 16-byte vectors (a 16-byte
// non-commutative one among them), around its tile, in place and not. Elsewhere these run the
// portable kernel.
template <class T>
std::vector<std::size_t> stagedTileSizes() {
    const std::size_t tile = SC::detail::StagedTile<T>::kItems;
    return {1, 5, tile - 1, tile, tile + 1, 33 * tile + 5};
}

SC::Tuning stagingTuning(SC::ScanStaging staging) {
    SC::Tuning tuning;
    tuning.scan_staging = staging;
    return tuning;
}

TEST_F(SinglePass, StagedScanOfEveryVectorType) {
    const SC::Tuning staged = stagingTuning(SC::ScanStaging::Staged);
    std::vector<std::size_t> sizes = edgeSizes();
    const std::vector<std::size_t> tiles = stagedTileSizes<int>();
    sizes.insert(sizes.end(), tiles.begin(), tiles.end());
    checkScans<int>(SC::Sum{}, 0, sizes, staged);
    checkScans<int>(SC::Max{}, INT_MIN, stagedTileSizes<int>(), staged);
    checkScans<unsigned>(SC::Sum{}, 7u, stagedTileSizes<unsigned>(), staged);
    checkScans<std::int64_t>(SC::Sum{}, std::int64_t(0), stagedTileSizes<std::int64_t>(), staged);
    checkScans<float>(SC::Sum{}, 0.0f, sizes, staged);
    checkScans<double>(SC::Sum{}, 0.0, stagedTileSizes<double>(), staged);
    checkScans<Affine>(ComposeAffine{}, Affine{1, 0}, stagedTileSizes<Affine>(), staged);
    checkScans<Mat2>(MatMul{}, Mat2{{1, 0, 0, 1}}, stagedTileSizes<Mat2>(), staged);
}

// The default's switch to the staged kernel (ScanStaging::Auto) at its share of a wave of staged
// tiles (kStagedScanFromTenthsOfAWave): the first launch that stages, one tile fewer and one more
// (without bulk copies every size runs the portable kernel).
TEST_F(SinglePass, AutoStagingAroundItsShareOfAWave) {
    const auto kernel = SC::detail::staged_scan_kernel<int, SC::Sum, false>;
    const std::size_t resident = SC::detail::resident_grid(reinterpret_cast<const void *>(kernel), "staged scan",
                                                           SC::kStagedScanPolicy.threads, 0);
    const std::size_t first = (resident * SC::kStagedScanFromTenthsOfAWave + 9) / 10;
    const std::size_t tile = SC::detail::StagedTile<int>::kItems;
    for (const std::size_t tiles : {first - 1, first, first + 1})
        checkScans<int>(SC::Sum{}, 0, {tiles * tile - 1});
}

// The staged float scans keep the fixed order: the same bits on every run, past the first span.
TEST_F(SinglePass, StagedFloatScansRepeatTheirBitsAcrossSpans) {
    const SC::Tuning staged = stagingTuning(SC::ScanStaging::Staged);
    for (std::size_t tiles : {33, 1025})
        for (bool exclusive : {true, false}) {
            checkRepeatsItsBits<float>(tiles * SC::detail::StagedTile<float>::kItems - 3, 3, exclusive, staged);
            checkRepeatsItsBits<double>(tiles * SC::detail::StagedTile<double>::kItems + 1, 3, exclusive, staged);
        }
}

namespace {

// An inclusive sum of n - 1 ints whose input and output start one element past an allocation: no
// 16-byte vector access (nor a bulk copy) is possible.
void checkSumOneElementOff(std::size_t n, const SC::Tuning &tuning = {}) {
    const std::vector<int> in = randomVector<int>(n, freshSeed());
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
    DeviceBuffer<int> d_out(n);
    DeviceBuffer<char> temp(SC::scan_temp_bytes<int>(n));
    SC::inclusive_scan(d_in.get() + 1, d_out.get() + 1, n - 1, SC::Sum{}, temp.get(), temp.bytes(), testEnv(tuning));
    std::vector<int> got(n - 1);
    SC_CUDA_CHECK(cudaMemcpy(got.data(), d_out.get() + 1, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    const std::vector<int> tail(in.begin() + 1, in.end());
    EXPECT_TRUE(matches(tail, got, referenceScan(tail, SC::Sum{}, false, 0)));
}

}  // namespace

// The portable kernel forced where the default stages (more than half a wave of staged tiles on an
// H100), and an input the staged kernel cannot copy (not 16-byte aligned) under Staged.
TEST_F(SinglePass, PortableKernelForcedAndUnalignedInputUnderStaged) {
    const SC::Tuning portable = stagingTuning(SC::ScanStaging::Portable);
    checkScans<int>(SC::Sum{}, 0, {(std::size_t{1} << 23) + 3}, portable);
    checkScans<float>(SC::Sum{}, 0.0f, {(std::size_t{1} << 23) + 3}, portable);
    checkSumOneElementOff(300001, stagingTuning(SC::ScanStaging::Staged));
}

// Launches of one tile take no ticket from the call state, launches of many do: calls of both
// kinds, scans and selects, alternating on one temporary storage, each checked.
TEST_F(SinglePass, OneTileAndManyTileCallsShareTheirStorage) {
    const std::size_t large = (std::size_t{1} << 20) + 3;
    DeviceBuffer<char> temp(std::max(SC::scan_temp_bytes<int>(large), SC::select_temp_bytes<int>(large)));
    temp.fill_bytes(kPoisonByte);
    DeviceBuffer<std::size_t> d_count(1);
    for (int round = 0; round < 3; ++round) {
        for (const std::size_t n : {std::size_t{1000}, large}) {
            SCOPED_TRACE("round " + std::to_string(round) + ", n = " + std::to_string(n));
            const std::vector<int> in = randomVector<int>(n, freshSeed());
            DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
            DeviceBuffer<int> d_out(n);
            d_out.fill_bytes(kPoisonByte);
            SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, temp.get(), temp.bytes(), testEnv());
            std::vector<int> got(n);
            d_out.copy_to_host(got.data(), n);
            ASSERT_TRUE(matches(in, got, referenceScan(in, SC::Sum{}, false, 0)));
            SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, SC::NonZero{}, temp.get(), temp.bytes(), testEnv());
            std::size_t count = 0;
            d_count.copy_to_host(&count, 1);
            std::vector<int> expected;
            std::copy_if(in.begin(), in.end(), std::back_inserter(expected), [](int x) { return x != 0; });
            ASSERT_EQ(count, expected.size());
            got.resize(count);
            d_out.copy_to_host(got.data(), count);
            ASSERT_EQ(got, expected);
        }
    }
}

TEST_F(SinglePass, NonCommutativeOperatorsOfEverySize) {
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        SCOPED_TRACE("block size " + std::to_string(threads));
        std::vector<std::size_t> sizes = edgeSizes();
        checkScans<Affine>(ComposeAffine{}, Affine{1, 0}, sizes, tuning);
        checkScans<Affine>(ComposeAffine{}, Affine{1, 0}, tileSizes<Affine>(threads), tuning);
        checkScans<Mat2>(MatMul{}, Mat2{{1, 0, 0, 1}}, {0, 1, 5, 1000}, tuning);
        checkScans<Mat2>(MatMul{}, Mat2{{1, 0, 0, 1}}, tileSizes<Mat2>(threads), tuning);
        checkScans<Counted>(ComposeCounted{}, Counted{1, 0, 0}, {1, 3, 777}, tuning);
        checkScans<Counted>(ComposeCounted{}, Counted{1, 0, 0}, tileSizes<Counted>(threads), tuning);
    }
}

TEST_F(SinglePass, UnalignedPointersAndOneByteElements) {
    checkSumOneElementOff(100001);

    checkScans<std::uint8_t>(SC::Sum{}, std::uint8_t(3), {1, 15, 16, 17, 65535, 65536, 1000003});
}

TEST_F(SinglePass, TemporaryStorageHoldingAnythingAndReused) {
    // One buffer, many calls of different sizes on a stream, starting from random bytes.
    const std::size_t largest = 1 << 20;
    DeviceBuffer<char> temp(SC::scan_temp_bytes<int>(largest));
    std::vector<char> noise(temp.bytes());
    std::mt19937 rng(freshSeed());
    for (char &c : noise) c = static_cast<char>(rng());
    SC_CUDA_CHECK(cudaMemcpy(temp.get(), noise.data(), noise.size(), cudaMemcpyHostToDevice));
    cudaStream_t stream;
    SC_CUDA_CHECK(cudaStreamCreate(&stream));
    for (std::size_t n : {largest, std::size_t(4097), std::size_t(1), largest - 1, std::size_t(300000)}) {
        const std::vector<int> in = randomVector<int>(n, freshSeed());
        DeviceBuffer<int> d = DeviceBuffer<int>::from_host(in.data(), n);
        for (int repeat = 0; repeat < 3; ++repeat) {
            SC::exclusive_scan(d.get(), d.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), testEnv(stream));
            SC::exclusive_scan(d.get(), d.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), testEnv(stream));
        }
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<int> got(n);
        d.copy_to_host(got.data(), n);
        std::vector<int> expected = in;
        for (int pass = 0; pass < 6; ++pass) expected = cpuScan(expected);
        ASSERT_EQ(got, expected) << "n = " << n;
    }
    SC_CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_F(SinglePass, ManagesItsOwnStorage) {
    const std::vector<double> in = randomVector<double>(123457, freshSeed());
    DeviceBuffer<double> d = DeviceBuffer<double>::from_host(in.data(), in.size());
    SC::inclusive_scan(d.get(), d.get(), in.size(), SC::Sum{}, testEnv());
    std::vector<double> got(in.size());
    d.copy_to_host(got.data(), got.size());
    EXPECT_TRUE(matches(in, got, referenceScan(in, SC::Sum{}, false, 0.0)));
}

TEST_F(SinglePass, RejectsBadArguments) {
    DeviceBuffer<int> buffer(64);
    DeviceBuffer<std::size_t> count(1);
    const std::size_t bytes = SC::scan_temp_bytes<int>(64);
    DeviceBuffer<char> temp(std::max(bytes, SC::select_temp_bytes<int>(64)));
    const SC::CallEnvironment env = testEnv();
    EXPECT_THROW(SC::exclusive_scan<int>(nullptr, buffer.get(), 64, SC::Sum{}, 0, temp.get(), bytes, env),
                 std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), nullptr, 64, SC::Sum{}, temp.get(), bytes, env),
                 std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), buffer.get(), 64, SC::Sum{}, temp.get(), 8, env),
                 std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), buffer.get(), 64, SC::Sum{}, nullptr, bytes, env),
                 std::invalid_argument);
    EXPECT_THROW(SC::select_if(buffer.get(), buffer.get() , nullptr, 64, SC::NonZero{}, temp.get(), temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_THROW(SC::stable_partition(static_cast<const int *>(nullptr), buffer.get(), count.get(), 64, SC::NonZero{},
                                      temp.get(), temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_THROW(SC::partition(static_cast<const int *>(nullptr), buffer.get(), count.get(), 64, SC::NonZero{},
                               temp.get(), temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_THROW(SC::partition(buffer.get(), static_cast<int *>(nullptr), count.get(), 64, SC::NonZero{}, temp.get(),
                               temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_THROW(SC::partition(buffer.get(), buffer.get(), nullptr, 64, SC::NonZero{}, temp.get(), temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_THROW(SC::partition(buffer.get(), buffer.get(), count.get(), 64, SC::NonZero{}, temp.get(), 8, env),
                 std::invalid_argument);
    EXPECT_THROW(SC::stable_partition(buffer.get(), buffer.get(), count.get(), 64, SC::NonZero{}, nullptr, temp.bytes(), env),
                 std::invalid_argument);
    EXPECT_NO_THROW(SC::inclusive_scan<int>(nullptr, nullptr, 0, SC::Sum{}, nullptr, 0, env));
    int n = -1;
    EXPECT_THROW(SC::SinglePass::scan(n, &n, &n), std::invalid_argument);
    EXPECT_THROW(SC::SinglePass::stablePartition(4, nullptr, &n, 0), std::invalid_argument);
    EXPECT_THROW(SC::SinglePass::partition(4, nullptr, &n, 0), std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- compaction and partitions ----

namespace {

struct IsEven {
    __host__ __device__ bool operator()(int x) const { return x % 2 == 0; }
};

// A word of every element type the tests use, for predicates on structs too.
template <class T>
__host__ __device__ unsigned keyWord(const T &x) {
    if constexpr (std::is_same_v<T, Affine>) return x.b;
    else if constexpr (std::is_same_v<T, Mat2>) return x.m[1];
    else if constexpr (std::is_same_v<T, Counted>) return x.b;
    else return static_cast<unsigned>(x);
}

// About a third of the elements of any type: keyWord(x) % 3 == 0.
struct KeyWordDivisibleBy3 {
    template <class T>
    __host__ __device__ bool operator()(const T &x) const { return keyWord(x) % 3u == 0; }
};

enum class Selection { SelectIf, StablePartition, Partition };

const char *selectionName(Selection s) {
    switch (s) {
    case Selection::SelectIf: return "select_if";
    case Selection::StablePartition: return "stable_partition";
    case Selection::Partition: return "partition";
    }
    return "?";
}

// Runs one selection through the device API at `tuning` on poisoned outputs and storage; returns the
// count and fills `out` (all n elements for the partitions, the kept ones for select_if).
template <class T, class Pred>
std::size_t gpuSelect(const std::vector<T> &in, Pred pred, Selection selection, std::vector<T> &out,
                      const SC::Tuning &tuning = {}) {
    const std::size_t n = in.size();
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(n);
    DeviceBuffer<std::size_t> d_count(1);
    d_out.fill_bytes(kPoisonByte);
    d_count.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::select_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    switch (selection) {
    case Selection::SelectIf:
        SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, pred, temp.get(), temp.bytes(), testEnv(tuning));
        break;
    case Selection::StablePartition:
        SC::stable_partition(d_in.get(), d_out.get(), d_count.get(), n, pred, temp.get(), temp.bytes(), testEnv(tuning));
        break;
    case Selection::Partition:
        SC::partition(d_in.get(), d_out.get(), d_count.get(), n, pred, temp.get(), temp.bytes(), testEnv(tuning));
        break;
    }
    std::size_t count = 0;
    d_count.copy_to_host(&count, 1);
    out.assign(selection == Selection::SelectIf ? std::min(count, n) : n, T{});
    d_out.copy_to_host(out.data(), out.size());
    return count;
}

using robustness::sameElements;  // element by element, exactly; the first difference in the message

// One selection against its CPU reference: the count, and every element written.
template <class T, class Pred>
::testing::AssertionResult selectsLikeCpu(const std::vector<T> &in, Pred pred, Selection selection,
                                          const SC::Tuning &tuning = {}) {
    std::size_t trues = 0;
    const std::vector<T> expected =
        selection == Selection::Partition ? cpuPartition(in, pred, trues) : cpuStablePartition(in, pred, trues);
    std::vector<T> got;
    const std::size_t count = gpuSelect(in, pred, selection, got, tuning);
    if (count != trues)
        return ::testing::AssertionFailure() << selectionName(selection) << ": count " << count << ", expected "
                                             << trues;
    if (selection == Selection::SelectIf)
        return sameElements(got, std::vector<T>(expected.begin(), expected.begin() + trues), "select_if");
    return sameElements(got, expected, selectionName(selection));
}

template <class T, class Pred>
void checkSelections(const std::vector<T> &in, Pred pred, const SC::Tuning &tuning) {
    for (Selection selection : {Selection::SelectIf, Selection::StablePartition, Selection::Partition})
        ASSERT_TRUE(selectsLikeCpu(in, pred, selection, tuning));
}

// Distinct values (so that every element's place is checked, not just its value), negative and
// positive, with INT_MIN and INT_MAX among them when n allows.
std::vector<int> distinctInts(std::size_t n, std::uint32_t seed) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), -static_cast<int>(n / 2));
    std::mt19937 rng(seed);
    std::shuffle(v.begin(), v.end(), rng);
    if (n >= 2) {
        v[rng() % n] = INT_MIN;
        std::size_t j = rng() % n;
        while (v[j] == INT_MIN) j = (j + 1) % n;
        v[j] = INT_MAX;
    }
    return v;
}

const int kEveryBlockSize[] = {32, 64, 128, 256, 512, 1024};

}  // namespace

TEST_F(SinglePass, Partition2OfTheLecture) {
    const std::vector<int> in = {5, 4, 2, 10, 3, 7, 8};
    std::vector<int> got;
    EXPECT_EQ(gpuSelect(in, IsEven{}, Selection::StablePartition, got), 4u);
    EXPECT_EQ(got, (std::vector<int>{4, 2, 10, 8, 5, 3, 7}));
    EXPECT_EQ(gpuSelect(in, IsEven{}, Selection::Partition, got), 4u);
    EXPECT_EQ(got, (std::vector<int>{4, 2, 10, 8, 7, 3, 5})) << "the falses from the back: reversed";
}

TEST_F(SinglePass, SelectAndPartitionOnEveryPredicateAndSize) {
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        std::vector<std::size_t> sizes = edgeSizes();
        const std::vector<std::size_t> tiles = tileSizes<int>(threads);
        sizes.insert(sizes.end(), tiles.begin(), tiles.end());
        for (std::size_t n : sizes) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> ints = randomVector<int>(n, freshSeed());
            checkSelections(ints, IsEven{}, tuning);                  // about half
            checkSelections(ints, SC::LessThan<int>{2000}, tuning);   // all true
            checkSelections(ints, SC::LessThan<int>{-2000}, tuning);  // all false
            checkSelections(ints, SC::LessThan<int>{-900}, tuning);   // about 5%
            checkSelections(randomVector<double>(n, freshSeed()), SC::LessThan<double>{0.9}, tuning);
            checkSelections(randomVector<std::int64_t>(n, freshSeed()), SC::LessThan<std::int64_t>{0}, tuning);
        }
    }
}

// select_if, select_flagged and unique staged by bulk copies (sm_90 and later; forced on small
// inputs): each warp compacts its part of the tile in place, so sizes around the tile and the
// warp's part, every share of trues (none, a few, half, all), every type of 16-byte vectors, flags,
// and runs of equal keys across the boundaries.
TEST_F(SinglePass, StagedSelectAroundItsTilesAndWarps) {
    const SC::Tuning staged = stagingTuning(SC::ScanStaging::Staged);
    const std::size_t tile = SC::detail::StagedTile<int, SC::kStagedSelectVectorsPerThread>::kItems;
    const std::size_t warp_part = tile / (SC::kStagedSelectPolicy.threads / 32);
    std::vector<std::size_t> sizes = edgeSizes();
    for (std::size_t n : {warp_part - 1, warp_part + 1, tile - 1, tile, tile + 1, 33 * tile + 5})
        sizes.push_back(n);
    for (std::size_t n : sizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> ints = distinctInts(n, freshSeed());
        for (const int bound : {INT_MIN, -static_cast<int>(n / 2) + static_cast<int>(n / 20), 0, INT_MAX})
            ASSERT_TRUE(selectsLikeCpu(ints, SC::LessThan<int>{bound}, Selection::SelectIf, staged));
        ASSERT_TRUE(selectsLikeCpu(ints, IsEven{}, Selection::SelectIf, staged));
        const auto select = Selection::SelectIf;
        ASSERT_TRUE(selectsLikeCpu(randomVector<double>(n, freshSeed()), SC::LessThan<double>{0.9}, select, staged));
        ASSERT_TRUE(
            selectsLikeCpu(randomVector<std::int64_t>(n, freshSeed()), SC::LessThan<std::int64_t>{0}, select, staged));
        ASSERT_TRUE(selectsLikeCpu(randomVector<Mat2>(n, freshSeed()), KeyWordDivisibleBy3{}, select, staged));

        std::vector<unsigned char> flags(n);
        std::mt19937 rng(freshSeed());
        for (auto &f : flags) f = static_cast<unsigned char>(rng() % 3 == 0 ? rng() % 255 + 1 : 0);
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(ints.data(), n);
        DeviceBuffer<unsigned char> d_flags = DeviceBuffer<unsigned char>::from_host(flags.data(), n);
        DeviceBuffer<int> d_out(n);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<std::size_t> d_count(1);
        DeviceBuffer<char> temp(SC::select_temp_bytes<int>(n));
        temp.fill_bytes(kPoisonByte);
        SC::select_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n, temp.get(), temp.bytes(),
                           testEnv(staged));
        std::vector<int> expected;
        for (std::size_t i = 0; i < n; ++i)
            if (flags[i] != 0) expected.push_back(ints[i]);
        std::size_t count = 0;
        d_count.copy_to_host(&count, 1);
        ASSERT_EQ(count, expected.size());
        std::vector<int> got(count);
        d_out.copy_to_host(got.data(), count);
        ASSERT_TRUE(sameElements(got, expected, "select_flagged"));

        // unique compares each item with the one before: in its vector, in the tile's shared
        // memory, or (a tile's first) in global memory. Runs of 1 to 9 cross every boundary.
        std::vector<int> keys(n);
        for (std::size_t i = 0, key = 0; i < n; ++key)
            for (std::size_t run = rng() % 9 + 1; run > 0 && i < n; --run) keys[i++] = static_cast<int>(key % 3) - 1;
        std::vector<int> first_of_runs;
        std::unique_copy(keys.begin(), keys.end(), std::back_inserter(first_of_runs));
        DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys.data(), n);
        d_out.fill_bytes(kPoisonByte);
        SC::unique(d_keys.get(), d_out.get(), d_count.get(), n, SC::EqualTo{}, temp.get(), temp.bytes(), testEnv(staged));
        d_count.copy_to_host(&count, 1);
        ASSERT_EQ(count, first_of_runs.size());
        got.resize(count);
        d_out.copy_to_host(got.data(), count);
        ASSERT_TRUE(sameElements(got, first_of_runs, "unique"));
    }
}

// partition's contract, exactly: the trues in input order from the front, the i-th false of the
// input at out[n - 1 - i], the count of trues; on distinct keys (every element's place is checked),
// negative ones, INT_MIN and INT_MAX, at every block size, on empty, single, one-tile-and-around,
// many-tile (past the look-back's 32-tile window), power-of-two and other sizes, with all true, all
// false and mixed predicates.
TEST_F(SinglePass, PartitionPutsTheFalsesInReverseOrder) {
    for (int threads : kEveryBlockSize) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        const std::size_t tile = SC::detail::tile_items_for<int>(threads);
        const std::vector<std::size_t> sizes = {0,        1,        2,        3,           31,      32,      1000,
                                                1024,     tile - 1, tile,     tile + 1,    65533,   65536,   65537,
                                                33 * tile + 5};
        for (std::size_t n : sizes) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n) + ", seed " +
                         std::to_string(seed));
            const std::vector<int> in = distinctInts(n, seed);
            const Selection partition = Selection::Partition;
            ASSERT_TRUE(selectsLikeCpu(in, SC::LessThan<int>{0}, partition, tuning));        // the negatives
            ASSERT_TRUE(selectsLikeCpu(in, IsEven{}, partition, tuning));                    // half, interleaved
            ASSERT_TRUE(selectsLikeCpu(in, SC::LessThan<int>{INT_MIN}, partition, tuning));  // all false
            ASSERT_TRUE(selectsLikeCpu(in, KeyWordDivisibleBy3{}, partition, tuning));
            std::vector<int> all_true = in;
            for (int &x : all_true) x = x == INT_MAX ? INT_MAX - 1 : x;
            ASSERT_TRUE(selectsLikeCpu(all_true, SC::LessThan<int>{INT_MAX}, partition, tuning));  // all true

            // The contract restated without the reference: position by position.
            std::vector<int> got;
            const std::size_t k = gpuSelect(in, IsEven{}, partition, got, tuning);
            std::size_t t = 0, f = 0;
            for (const int x : in) {
                const std::size_t at = IsEven{}(x) ? t++ : n - 1 - f++;
                ASSERT_EQ(got[at], x) << "element " << (t + f - 1) << " of the input belongs at " << at;
            }
            ASSERT_EQ(k, t);
        }
    }
}

// Both partitions for element sizes 4, 8, 12 and 16 bytes (16-byte vectors of 4, 2, 1 and 1
// items, the 12-byte type moving one item at a time), at the smallest, default and largest block
// sizes, around and across tiles.
TEST_F(SinglePass, PartitionsOfEveryElementSize) {
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        SCOPED_TRACE("block size " + std::to_string(threads));
        const auto check = [&tuning](auto element, const std::vector<std::size_t> &sizes) {
            using T = decltype(element);
            for (std::size_t n : sizes) {
                SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::to_string(sizeof(T)) + "-byte elements");
                const std::vector<T> in = randomVector<T>(n, freshSeed());
                for (Selection selection : {Selection::StablePartition, Selection::Partition})
                    ASSERT_TRUE(selectsLikeCpu(in, KeyWordDivisibleBy3{}, selection, tuning));
            }
        };
        // ASSERT in the lambda leaves the lambda only: stop at the first failure.
        check(int{}, tileSizes<int>(threads));
        if (HasFatalFailure()) return;
        check(std::int64_t{}, tileSizes<std::int64_t>(threads));
        if (HasFatalFailure()) return;
        check(Counted{}, tileSizes<Counted>(threads));
        if (HasFatalFailure()) return;
        check(Mat2{}, tileSizes<Mat2>(threads));
        if (HasFatalFailure()) return;
        check(Affine{}, {1, 2, 1001});
        if (HasFatalFailure()) return;
    }
}

// stable_partition's two orders (StableOrder, detail/select/kernels.cuh): a sample of the keep
// flags puts the falses either in order after a count pass or from the back, turned round
// afterwards. Every share of trues around the sample's choice (none, 5%, 49-51%, 95%, all), block
// sizes 32, 256 and 1024, 4- and 8-byte items, sizes below, at and above the sample's 1,024 items
// and many tiles; then samples that are misled: every 1,024th item the only true (the evenly spaced
// sample sees trues alone) or the only false (it sees falses alone).
TEST_F(SinglePass, StablePartitionInEitherOrderItsSampleChooses) {
    const std::vector<std::size_t> sizes = {1, 2, 3, 1023, 1024, 1025, 4097, 65537, (std::size_t{1} << 20) + 3};
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        for (std::size_t n : sizes) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n) + ", seed " +
                         std::to_string(seed));
            std::mt19937 rng(seed);
            std::vector<int> percentiles(n);
            for (int &x : percentiles) x = static_cast<int>(rng() % 100);
            for (int percent : {0, 5, 49, 50, 51, 95, 100})
                ASSERT_TRUE(selectsLikeCpu(percentiles, SC::LessThan<int>{percent}, Selection::StablePartition, tuning))
                    << percent << "% kept";
            std::vector<std::int64_t> wide(percentiles.begin(), percentiles.end());
            ASSERT_TRUE(selectsLikeCpu(wide, SC::LessThan<std::int64_t>{95}, Selection::StablePartition, tuning));
            ASSERT_TRUE(selectsLikeCpu(wide, SC::LessThan<std::int64_t>{5}, Selection::StablePartition, tuning));
        }
    }
    const std::size_t n = std::size_t{1} << 20;
    std::vector<int> marked(n);
    for (std::size_t i = 0; i < n; ++i) marked[i] = i % 1024 == 0 ? -static_cast<int>(i) - 1 : static_cast<int>(i);
    ASSERT_TRUE(selectsLikeCpu(marked, SC::LessThan<int>{0}, Selection::StablePartition)) << "the sample sees trues";
    for (int &x : marked) x = -x - 1;
    ASSERT_TRUE(selectsLikeCpu(marked, SC::LessThan<int>{0}, Selection::StablePartition)) << "the sample sees falses";
}

// The same temporary storage, garbage at first, serving stable_partition and partition in turn on
// one stream (each call's state and status words left for the next).
TEST_F(SinglePass, PartitionsTakeTurnsOnOneStorage) {
    const std::size_t largest = 300007;
    DeviceBuffer<char> temp(SC::select_temp_bytes<int>(largest));
    std::vector<char> noise(temp.bytes());
    std::mt19937 rng(freshSeed());
    for (char &c : noise) c = static_cast<char>(rng());
    SC_CUDA_CHECK(cudaMemcpy(temp.get(), noise.data(), noise.size(), cudaMemcpyHostToDevice));
    for (std::size_t n : {largest, std::size_t(4097), std::size_t(1), largest - 1}) {
        const std::vector<int> in = randomVector<int>(n, freshSeed());
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n), d_stable(n), d_reversed(n);
        DeviceBuffer<std::size_t> d_counts(2);
        d_stable.fill_bytes(kPoisonByte);
        d_reversed.fill_bytes(kPoisonByte);
        d_counts.fill_bytes(kPoisonByte);
        for (int repeat = 0; repeat < 3; ++repeat) {
            SC::partition(d_in.get(), d_reversed.get(), d_counts.get() + 1, n, IsEven{}, temp.get(), temp.bytes(),
                          testEnv());
            SC::stable_partition(d_in.get(), d_stable.get(), d_counts.get(), n, IsEven{}, temp.get(), temp.bytes(),
                                 testEnv());
        }
        std::size_t stable_trues = 0, trues = 0;
        const std::vector<int> stable = cpuStablePartition(in, IsEven{}, stable_trues);
        const std::vector<int> reversed = cpuPartition(in, IsEven{}, trues);
        std::vector<int> got(n);
        std::size_t counts[2] = {0, 0};
        d_counts.copy_to_host(counts, 2);
        ASSERT_EQ(counts[0], stable_trues) << "n = " << n;
        ASSERT_EQ(counts[1], trues) << "n = " << n;
        d_stable.copy_to_host(got.data(), n);
        ASSERT_TRUE(sameElements(got, stable, "stable_partition")) << "n = " << n;
        d_reversed.copy_to_host(got.data(), n);
        ASSERT_TRUE(sameElements(got, reversed, "partition")) << "n = " << n;
    }
}

TEST_F(SinglePass, SelectFlagged) {
    const std::size_t n = 70001;
    const std::vector<int> values = randomVector<int>(n, freshSeed());
    std::vector<unsigned char> flags(n);
    std::mt19937 rng(freshSeed());
    for (auto &f : flags) f = rng() % 3 == 0;
    std::vector<int> expected;
    for (std::size_t i = 0; i < n; ++i) if (flags[i]) expected.push_back(values[i]);
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(values.data(), n), d_out(n);
    DeviceBuffer<unsigned char> d_flags = DeviceBuffer<unsigned char>::from_host(flags.data(), n);
    DeviceBuffer<std::size_t> d_count(1);
    DeviceBuffer<char> temp(SC::select_temp_bytes<int>(n));
    SC::select_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n, temp.get(), temp.bytes(), testEnv());
    std::size_t count = 0;
    d_count.copy_to_host(&count, 1);
    ASSERT_EQ(count, expected.size());
    std::vector<int> got(count);
    d_out.copy_to_host(got.data(), count);
    EXPECT_EQ(got, expected);
}

TEST_F(SinglePass, CourseInterfaceMatchesCpu) {
    for (int n : {1, 3, 1 << 8, (1 << 8) - 3, 1 << 16, (1 << 16) - 3}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = makeInput(n, Fill::HalfZeros, freshSeed());
        std::vector<int> out(n, INT_MIN);
        SC::SinglePass::scan(n, out.data(), in.data());
        ASSERT_EQ(out, cpuScan(in));
        const std::vector<int> kept = cpuCompact(in);
        std::fill(out.begin(), out.end(), INT_MIN);
        ASSERT_EQ(SC::SinglePass::compact(n, out.data(), in.data()), int(kept.size()));
        ASSERT_TRUE(std::equal(kept.begin(), kept.end(), out.begin()));
        std::size_t small = 0;
        const std::vector<int> parted = cpuStablePartition(in, SC::LessThan<int>{0}, small);
        std::fill(out.begin(), out.end(), INT_MIN);
        ASSERT_EQ(SC::SinglePass::stablePartition(n, out.data(), in.data(), 0), int(small));
        ASSERT_EQ(out, parted);
        const std::vector<int> reversed = cpuPartition(in, SC::LessThan<int>{0}, small);
        std::fill(out.begin(), out.end(), INT_MIN);
        ASSERT_EQ(SC::SinglePass::partition(n, out.data(), in.data(), 0), int(small));
        ASSERT_EQ(out, reversed);
    }
    EXPECT_EQ(SC::SinglePass::stablePartition(0, nullptr, nullptr, 0), 0);
    EXPECT_EQ(SC::SinglePass::partition(0, nullptr, nullptr, 0), 0);
    EXPECT_EQ(SC::SinglePass::compact(0, nullptr, nullptr), 0);
}

// ---- sizes that fill the GPU (left out of sanitizer runs) ----

TEST(GpuLarge, SinglePassScanAndSelectAt2To28) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = std::size_t(1) << 28;
    const std::vector<int> in = makeInput(n, Fill::HalfZeros, freshSeed());
    ASSERT_TRUE(matches(in, gpuScan(in, SC::Sum{}, true, 0, false), referenceScan(in, SC::Sum{}, true, 0)));
    ASSERT_TRUE(selectsLikeCpu(in, SC::NonZero{}, Selection::StablePartition));
    ASSERT_TRUE(selectsLikeCpu(in, SC::NonZero{}, Selection::Partition));
}

// The issue's proof: 30 runs of a 2^26-item float (and double) scan, bit for bit the same.
TEST(GpuLarge, FloatScansRepeatTheirBitsOver30Runs) {
    SKIP_WITHOUT_GPU();
    checkRepeatsItsBits<float>(std::size_t(1) << 26, 30, true);
    checkRepeatsItsBits<float>((std::size_t(1) << 26) + 12345, 30, false);
    checkRepeatsItsBits<double>(std::size_t(1) << 26, 30, true);
}

TEST(GpuLarge, OneByteScanPast2To31Elements) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = (std::size_t(1) << 31) + 4099;
    std::vector<std::uint8_t> data(n);
    std::mt19937 rng(freshSeed());
    for (auto &x : data) x = static_cast<std::uint8_t>(rng());
    DeviceBuffer<std::uint8_t> d = DeviceBuffer<std::uint8_t>::from_host(data.data(), n);
    DeviceBuffer<char> temp(SC::scan_temp_bytes<std::uint8_t>(n));
    SC::inclusive_scan(d.get(), d.get(), n, SC::Sum{}, temp.get(), temp.bytes());
    std::vector<std::uint8_t> got(n);
    d.copy_to_host(got.data(), n);
    std::uint8_t acc = 0;
    for (std::size_t i = 0; i < n; ++i) {
        acc = static_cast<std::uint8_t>(acc + data[i]);
        ASSERT_EQ(got[i], acc) << "element " << i;
    }
}
