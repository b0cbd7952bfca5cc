// The single-pass scan, compaction and partition (scan.cuh, select.cuh) against CPU references:
// every type and operator, inclusive and exclusive, in place, non-commutative operators, tile
// boundaries, reused and garbage temporary storage, bad arguments.
#include <gtest/gtest.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/single_pass.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
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

// Runs one scan through the device API on poisoned output (or in place) and returns the result.
template <class T, class Op>
std::vector<T> gpuScan(const std::vector<T> &in, Op op, bool exclusive, T init, bool in_place,
                       cudaStream_t stream = 0) {
    const std::size_t n = in.size();
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(in_place ? 0 : n);
    d_out.fill_bytes(kPoisonByte);
    T *out = in_place ? d_in.get() : d_out.get();
    DeviceBuffer<char> temp(SC::scan_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    if (exclusive) SC::exclusive_scan(d_in.get(), out, n, op, init, temp.get(), temp.bytes(), stream);
    else SC::inclusive_scan(d_in.get(), out, n, op, temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<T> result(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(result.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    return result;
}

template <class T, class Op>
void checkScans(Op op, T init, const std::vector<std::size_t> &sizes) {
    for (std::size_t n : sizes) {
        const std::vector<T> in = randomVector<T>(n, freshSeed());
        for (bool exclusive : {true, false}) {
            for (bool in_place : {false, true}) {
                SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive") +
                             (in_place ? ", in place" : ""));
                ASSERT_TRUE(matches(in, gpuScan(in, op, exclusive, init, in_place), referenceScan(in, op, exclusive, init)));
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
        SC::block_sizes().single_pass = threads;
        SCOPED_TRACE("block size " + std::to_string(threads));
        std::vector<std::size_t> sizes = edgeSizes();
        const std::vector<std::size_t> tiles = tileSizes<int>(threads);
        sizes.insert(sizes.end(), tiles.begin(), tiles.end());
        checkScans<int>(SC::Sum{}, 0, sizes);
        checkScans<int>(SC::Max{}, INT_MIN, sizes);
        checkScans<int>(SC::Min{}, INT_MAX, sizes);
        checkScans<unsigned>(SC::Sum{}, 7u, sizes);
        checkScans<std::int64_t>(SC::Sum{}, std::int64_t(0), sizes);
        checkScans<std::int64_t>(SC::Max{}, std::numeric_limits<std::int64_t>::min(), tileSizes<std::int64_t>(threads));
        checkScans<float>(SC::Sum{}, 0.0f, sizes);
        checkScans<float>(SC::Max{}, -INFINITY, tileSizes<float>(threads));
        checkScans<double>(SC::Sum{}, 0.0, sizes);
        checkScans<double>(SC::Min{}, INFINITY, tileSizes<double>(threads));
    }
}

TEST_F(SinglePass, NonCommutativeOperatorsOfEverySize) {
    for (int threads : {32, 256, 1024}) {
        SC::block_sizes().single_pass = threads;
        SCOPED_TRACE("block size " + std::to_string(threads));
        std::vector<std::size_t> sizes = edgeSizes();
        checkScans<Affine>(ComposeAffine{}, Affine{1, 0}, sizes);
        checkScans<Affine>(ComposeAffine{}, Affine{1, 0}, tileSizes<Affine>(threads));
        checkScans<Mat2>(MatMul{}, Mat2{{1, 0, 0, 1}}, {0, 1, 5, 1000});
        checkScans<Mat2>(MatMul{}, Mat2{{1, 0, 0, 1}}, tileSizes<Mat2>(threads));
        checkScans<Counted>(ComposeCounted{}, Counted{1, 0, 0}, {1, 3, 777});
        checkScans<Counted>(ComposeCounted{}, Counted{1, 0, 0}, tileSizes<Counted>(threads));
    }
}

TEST_F(SinglePass, UnalignedPointersAndOneByteElements) {
    const std::vector<int> in = randomVector<int>(100001, freshSeed());
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
    DeviceBuffer<int> d_out(in.size());
    DeviceBuffer<char> temp(SC::scan_temp_bytes<int>(in.size()));
    // Offsets by one element: no 16-byte vector access is possible.
    SC::inclusive_scan(d_in.get() + 1, d_out.get() + 1, in.size() - 1, SC::Sum{}, temp.get(), temp.bytes());
    std::vector<int> got(in.size() - 1);
    d_out.copy_to_host(got.data(), 0);
    SC_CUDA_CHECK(cudaMemcpy(got.data(), d_out.get() + 1, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    const std::vector<int> tail(in.begin() + 1, in.end());
    EXPECT_TRUE(matches(tail, got, referenceScan(tail, SC::Sum{}, false, 0)));

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
            SC::exclusive_scan(d.get(), d.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), stream);
            SC::exclusive_scan(d.get(), d.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), stream);
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
    SC::inclusive_scan(d.get(), d.get(), in.size(), SC::Sum{});
    std::vector<double> got(in.size());
    d.copy_to_host(got.data(), got.size());
    EXPECT_TRUE(matches(in, got, referenceScan(in, SC::Sum{}, false, 0.0)));
}

TEST_F(SinglePass, RejectsBadArguments) {
    DeviceBuffer<int> buffer(64);
    DeviceBuffer<std::size_t> count(1);
    const std::size_t bytes = SC::scan_temp_bytes<int>(64);
    DeviceBuffer<char> temp(std::max(bytes, SC::select_temp_bytes<int>(64)));
    EXPECT_THROW(SC::exclusive_scan<int>(nullptr, buffer.get(), 64, SC::Sum{}, 0, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), nullptr, 64, SC::Sum{}, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), buffer.get(), 64, SC::Sum{}, temp.get(), 8), std::invalid_argument);
    EXPECT_THROW(SC::inclusive_scan<int>(buffer.get(), buffer.get(), 64, SC::Sum{}, nullptr, bytes), std::invalid_argument);
    EXPECT_THROW(SC::select_if(buffer.get(), buffer.get() , nullptr, 64, SC::NonZero{}, temp.get(), temp.bytes()),
                 std::invalid_argument);
    EXPECT_THROW(SC::partition<int>(nullptr, buffer.get(), count.get(), 64, SC::NonZero{}, temp.get(), temp.bytes()),
                 std::invalid_argument);
    EXPECT_NO_THROW(SC::inclusive_scan<int>(nullptr, nullptr, 0, SC::Sum{}, nullptr, 0));
    int n = -1;
    EXPECT_THROW(SC::SinglePass::scan(n, &n, &n), std::invalid_argument);
    EXPECT_THROW(SC::SinglePass::partition(4, nullptr, &n, 0), std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- compaction and partition ----

namespace {

struct IsEven {
    __host__ __device__ bool operator()(int x) const { return x % 2 == 0; }
};

template <class T, class Pred>
std::vector<T> stablePartition(const std::vector<T> &in, Pred pred, std::size_t &trues) {
    std::vector<T> out;
    for (const T &x : in) if (pred(x)) out.push_back(x);
    trues = out.size();
    for (const T &x : in) if (!pred(x)) out.push_back(x);
    return out;
}

// Runs select_if (partition = false) or partition; returns the count and fills `out`.
template <class T, class Pred>
std::size_t gpuSelect(const std::vector<T> &in, Pred pred, bool partition, std::vector<T> &out) {
    const std::size_t n = in.size();
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(n);
    DeviceBuffer<std::size_t> d_count(1);
    d_out.fill_bytes(kPoisonByte);
    d_count.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::select_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    if (partition) SC::partition(d_in.get(), d_out.get(), d_count.get(), n, pred, temp.get(), temp.bytes());
    else SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, pred, temp.get(), temp.bytes());
    std::size_t count = 0;
    d_count.copy_to_host(&count, 1);
    out.assign(partition ? n : std::min(count, n), T{});
    d_out.copy_to_host(out.data(), out.size());
    return count;
}

template <class T, class Pred>
void checkSelections(const std::vector<T> &in, Pred pred) {
    std::size_t trues = 0;
    const std::vector<T> expected = stablePartition(in, pred, trues);
    std::vector<T> got;
    ASSERT_EQ(gpuSelect(in, pred, false, got), trues) << "select_if count";
    ASSERT_TRUE(std::equal(got.begin(), got.end(), expected.begin())) << "select_if values";
    ASSERT_EQ(gpuSelect(in, pred, true, got), trues) << "partition count";
    ASSERT_EQ(got, expected) << "partition values";
}

}  // namespace

TEST_F(SinglePass, Partition2OfTheLecture) {
    std::vector<int> got;
    EXPECT_EQ(gpuSelect(std::vector<int>{5, 4, 2, 10, 3, 7, 8}, IsEven{}, true, got), 4u);
    EXPECT_EQ(got, (std::vector<int>{4, 2, 10, 8, 5, 3, 7}));
}

TEST_F(SinglePass, SelectAndPartitionOnEveryPredicateAndSize) {
    for (int threads : {32, 256, 1024}) {
        SC::block_sizes().single_pass = threads;
        std::vector<std::size_t> sizes = edgeSizes();
        const std::vector<std::size_t> tiles = tileSizes<int>(threads);
        sizes.insert(sizes.end(), tiles.begin(), tiles.end());
        for (std::size_t n : sizes) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> ints = randomVector<int>(n, freshSeed());
            checkSelections(ints, IsEven{});                  // about half
            checkSelections(ints, SC::LessThan<int>{2000});   // all true
            checkSelections(ints, SC::LessThan<int>{-2000});  // all false
            checkSelections(ints, SC::LessThan<int>{-900});   // about 5%
            checkSelections(randomVector<double>(n, freshSeed()), SC::LessThan<double>{0.9});
            checkSelections(randomVector<std::int64_t>(n, freshSeed()), SC::LessThan<std::int64_t>{0});
        }
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
    SC::select_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n, temp.get(), temp.bytes());
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
        const std::vector<int> parted = stablePartition(in, SC::LessThan<int>{0}, small);
        ASSERT_EQ(SC::SinglePass::partition(n, out.data(), in.data(), 0), int(small));
        ASSERT_EQ(out, parted);
    }
    EXPECT_EQ(SC::SinglePass::compact(0, nullptr, nullptr), 0);
}

// ---- sizes that fill the GPU (left out of sanitizer runs) ----

TEST(GpuLarge, SinglePassScanAndSelectAt2To28) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = std::size_t(1) << 28;
    const std::vector<int> in = makeInput(n, Fill::HalfZeros, freshSeed());
    ASSERT_TRUE(matches(in, gpuScan(in, SC::Sum{}, true, 0, false), referenceScan(in, SC::Sum{}, true, 0)));
    std::size_t trues = 0;
    const std::vector<int> expected = stablePartition(in, SC::NonZero{}, trues);
    std::vector<int> got;
    ASSERT_EQ(gpuSelect(in, SC::NonZero{}, true, got), trues);
    ASSERT_EQ(got, expected);
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
