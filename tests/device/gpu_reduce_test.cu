// Reductions (device/reduce.cuh, reduce.h) against CPU references:
//   - every strategy x element type (int32, int64, float, double) x operator (Sum with identity 0
//     and 7, Min, Max, BitAnd, BitOr) at sizes 0, 1, 2, 3, around the striped and ordered tiles, not
//     powers of two, tens of blocks, at block sizes 32, 256 and 1024; and past the resident grid,
//     where each block folds several tiles and each lane several pieces;
//   - non-commutative operators (2x2 matrix product, affine maps, a 12-byte composition, "last")
//     on every order-preserving strategy, the atomics refusing them;
//   - transform_reduce (commutative and ordered kernels), the maximum segment sum against Kadane,
//     the course interface;
//   - CUDA graph capture and replay (3 replays, new inputs, outputs poisoned), storage shared by
//     several reductions in one graph and with ordinary calls between replays;
//   - temporary storage at byte offsets 0, 1, 4, 8 between guard bytes, inputs not 16-byte aligned;
//   - bad arguments refused before any work;
//   - GpuLarge (left out of sanitizer runs): 2^28 ints by every strategy and the maximum segment
//     sum, more than 2^32 indices through transform_reduce, more than 2^31 bytes summed into 64 bits.
// Outputs are poisoned before every run. Float and double sums are compared with a double
// reference accumulated in input order: |got - expected| <= tolerance * sum of |x| (1e-5 for float,
// 1e-12 for double); the largest relative error seen is printed and recorded as a test property.
#include <gtest/gtest.h>

#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/functional.h>

#include <stream_compaction/cpu.h>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/reduce.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using SC::MaxSegmentSum;
using SC::ReduceStrategy;
using namespace robustness;

namespace {

constexpr double kFloatTolerance = 1e-5;
constexpr double kDoubleTolerance = 1e-12;
constexpr int kBlockSizes[] = {32, 256, 1024};
constexpr ReduceStrategy kAll[] = {ReduceStrategy::Tree, ReduceStrategy::Group, ReduceStrategy::Chunked,
                                   ReduceStrategy::Atomics};
constexpr ReduceStrategy kOrderPreserving[] = {ReduceStrategy::Tree, ReduceStrategy::Group, ReduceStrategy::Chunked};

// ---- operators the library does not know to commute ----

// 2x2 matrices modulo 2^32, op(A, B) = A * B (16 bytes: one vector per item).
struct Mat2 {
    unsigned m[4];
    bool operator==(const Mat2 &o) const { return m[0] == o.m[0] && m[1] == o.m[1] && m[2] == o.m[2] && m[3] == o.m[3]; }
};
struct MatMul {
    __host__ __device__ Mat2 operator()(const Mat2 &x, const Mat2 &y) const {
        return {{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3], x.m[2] * y.m[0] + x.m[3] * y.m[2],
                 x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
    }
};
constexpr Mat2 kIdentity2{{1, 0, 0, 1}};

// x -> a*x + b modulo 2^32; op(f, g) applies f, then g (8 bytes: two per vector).
struct Affine {
    unsigned a, b;
    bool operator==(const Affine &o) const { return a == o.a && b == o.b; }
};
struct ComposeAffine {
    __host__ __device__ Affine operator()(const Affine &f, const Affine &g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

// 12 bytes (no 16-byte vector): an affine map and a counter.
struct Counted {
    unsigned a, b, count;
    bool operator==(const Counted &o) const { return a == o.a && b == o.b && count == o.count; }
};
struct ComposeCounted {
    __host__ __device__ Counted operator()(const Counted &f, const Counted &g) const {
        return {g.a * f.a, g.a * f.b + g.b, f.count + g.count};
    }
};

// op(a, b) = b: associative, not commutative; 0 is only a left identity. The result is the last item.
struct Last {
    template <class T>
    __host__ __device__ T operator()(const T &, const T &b) const { return b; }
};

// A sum that the library does not know commutes: it takes the order-preserving kernel.
struct OrderedSum {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};

// ---- inputs and references ----

template <class T>
T randomValue(std::mt19937_64 &rng) {
    if constexpr (std::is_same_v<T, Mat2>) return {{unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7)}};
    else if constexpr (std::is_same_v<T, Affine>) return {unsigned(rng() | 1u), unsigned(rng())};
    else if constexpr (std::is_same_v<T, Counted>) return {unsigned(rng() | 1u), unsigned(rng()), unsigned(rng() % 3)};
    else if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(-1, 1)(rng);
    else if constexpr (sizeof(T) == 8) return static_cast<T>(static_cast<std::int64_t>(rng() % (1ull << 41)) - (1ll << 40));
    else return static_cast<T>(static_cast<int>(rng() % 2001) - 1000);
}

template <class T>
std::vector<T> randomVector(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (T &x : v) x = randomValue<T>(rng);
    return v;
}

// Inputs for the bitwise operators, so that every element matters: all bits set but an occasional
// one (BitAnd), or none set but an occasional one (BitOr).
template <class T>
std::vector<T> sparseBits(std::size_t n, std::uint64_t seed, bool set) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (T &x : v) {
        const T bit = rng() % 64 == 0 ? static_cast<T>(T(1) << (rng() % (8 * sizeof(T) - 1))) : T(0);
        x = set ? static_cast<T>(~bit) : bit;
    }
    return v;
}

// Floating-point types accumulate in double; the others in their own type (exact).
template <class T>
using Wide = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T, class Op>
Wide<T> referenceReduce(const std::vector<T> &in, Op op, T identity) {
    Wide<T> acc = identity;
    for (const T &x : in) acc = op(acc, Wide<T>(x));
    return acc;
}

// The largest relative error of the floating-point comparisons of the running test.
double &worstRelativeError() {
    static double worst = 0;
    return worst;
}

template <class T>
::testing::AssertionResult matches(const T &got, const Wide<T> &expected, double magnitude) {
    if constexpr (std::is_floating_point_v<T>) {
        if (double(got) == expected) return ::testing::AssertionSuccess();
        const double error = std::fabs(double(got) - expected) / std::max(magnitude, 1e-300);
        const double tolerance = std::is_same_v<T, float> ? kFloatTolerance : kDoubleTolerance;
        worstRelativeError() = std::max(worstRelativeError(), error);
        if (error <= tolerance) return ::testing::AssertionSuccess();  // false for NaN too
        return ::testing::AssertionFailure() << "got " << got << ", expected " << expected << ": relative error "
                                             << error << " over the tolerance " << tolerance;
    } else if (got == expected) {
        return ::testing::AssertionSuccess();
    } else {
        ::testing::AssertionResult failure = ::testing::AssertionFailure() << "result differs";
        if constexpr (std::is_arithmetic_v<T>) failure << ": got " << +got << ", expected " << +expected;
        return failure;
    }
}

template <class T>
double magnitudeOf(const std::vector<T> &in, T identity) {
    double sum = 0;
    if constexpr (std::is_floating_point_v<T>) {
        sum = std::fabs(double(identity));
        for (const T &x : in) sum += std::fabs(double(x));
    }
    return sum;
}

// Reports the largest floating-point error of a test, on stdout and as a GoogleTest property.
void reportWorstError(const char *what) {
    std::printf("[ reduce   ] %s: largest relative error %.3g (float tolerance %.0e, double %.0e)\n", what,
                worstRelativeError(), kFloatTolerance, kDoubleTolerance);
    ::testing::Test::RecordProperty("max_relative_error", std::to_string(worstRelativeError()));
    worstRelativeError() = 0;
}

// A call at `tuning`'s reduce block size.
std::string describe(ReduceStrategy strategy, std::size_t n, const SC::Tuning &tuning = {}) {
    return std::string(SC::reduce_strategy_name(strategy)) + ", n = " + std::to_string(n) + ", block size " +
           std::to_string(SC::reduce_threads(tuning));
}

// One reduction through the device API at `tuning` on poisoned output and storage; waits and
// returns it.
template <class T, class Op>
T runReduce(ReduceStrategy strategy, const T *d_in, std::size_t n, Op op, T identity, const SC::Tuning &tuning = {}) {
    DeviceBuffer<T> d_out(1);
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::reduce_temp_bytes<T>(n, strategy));
    temp.fill_bytes(kPoisonByte);
    SC::reduce(strategy, d_in, d_out.get(), n, op, identity, temp.get(), temp.bytes(),
               SC::CallEnvironment{nullptr, tuning});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return download(d_out.get(), 1)[0];
}

// Each size's input from make(n), reduced by each strategy at `tuning` and compared with the CPU.
template <class T, class Op, std::size_t N, class Make>
void checkReductions(const char *what, const ReduceStrategy (&strategies)[N], const std::vector<std::size_t> &sizes,
                     Op op, T identity, Make make, const SC::Tuning &tuning = {}) {
    for (const std::size_t n : sizes) {
        const std::vector<T> in = make(n);
        const DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
        const Wide<T> expected = referenceReduce(in, op, identity);
        for (const ReduceStrategy strategy : strategies)
            ASSERT_TRUE(
                matches(runReduce(strategy, d_in.get(), n, op, identity, tuning), expected, magnitudeOf(in, identity)))
                << what << ", " << describe(strategy, n, tuning);
    }
}

template <class T>
auto randomOf() {
    return [](std::size_t n) { return randomVector<T>(n, freshSeed()); };
}

// 0 to 3; for 4- and 8-byte items (16-byte vectors of 4 and 2), the striped kernel's tile
// (threads x vector x kReduceVectorsPerThread: the single-tile kernel's whole tile), its first row
// (from there every thread of the single-tile kernel has an item), the most one wide block reads
// as one tile and the most one cluster folds, with their neighbours; the ordered kernel's tile
// (threads x its piece); and sizes that are not powers of two, up to tens of blocks
// (ManyBlocksEachFoldingSeveralTilesAndPieces goes past the resident grid).
std::vector<std::size_t> reduceSizes(int threads) {
    const std::size_t striped = std::size_t(threads) * 4 * SC::kReduceVectorsPerThread;
    const std::size_t ordered = std::size_t(std::min(threads, SC::detail::kOrderedMaxThreads)) * SC::detail::piece_items<int>();
    std::vector<std::size_t> sizes = {0, 1, 2, 3, 31, 33, 1000, 100003};
    std::vector<std::size_t> edges = {ordered, 2 * striped + ordered};
    for (const std::size_t vector : {4, 2}) {
        edges.push_back(std::size_t(threads) * vector);
        edges.push_back(std::size_t(threads) * vector * SC::kReduceVectorsPerThread);
        // The most one wide block reads as one tile, and the most one cluster folds (sm_90 on; the
        // striped grid and a ticket from one item more).
        edges.push_back(SC::kReduceWideBlockThreads * vector * SC::kReduceVectorsPerThread);
        edges.push_back(std::size_t(threads) * vector * SC::kReduceVectorsPerThread * SC::kReduceClusterMaxBlocks *
                        SC::kReduceClusterTilesPerBlock);
    }
    for (const std::size_t edge : edges)
        for (const std::size_t n : {edge - 1, edge, edge + 1}) sizes.push_back(n);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

class GpuReduce : public RobustGpuTest {};

}  // namespace

TEST_F(GpuReduce, EveryStrategyTypeAndOperatorMatchesTheCpu) {
    for (const int threads : kBlockSizes) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::reduce, threads);
        const std::vector<std::size_t> sizes = reduceSizes(threads);
        checkReductions("int sum", kAll, sizes, SC::Sum{}, 0, randomOf<int>(), tuning);
        checkReductions("int sum from 7", kAll, sizes, SC::Sum{}, 7, randomOf<int>(), tuning);
        checkReductions("int min", kAll, sizes, SC::Min{}, INT_MAX, randomOf<int>(), tuning);
        checkReductions("int max", kAll, sizes, SC::Max{}, INT_MIN, randomOf<int>(), tuning);
        checkReductions("int and", kAll, sizes, SC::BitAnd{}, -1, [](std::size_t n) { return sparseBits<int>(n, freshSeed(), true); }, tuning);
        checkReductions("int or", kAll, sizes, SC::BitOr{}, 0, [](std::size_t n) { return sparseBits<int>(n, freshSeed(), false); }, tuning);
        using I64 = std::int64_t;
        constexpr double kInfinity = std::numeric_limits<double>::infinity();
        checkReductions("int64 sum", kAll, sizes, SC::Sum{}, I64(0), randomOf<I64>(), tuning);
        checkReductions("int64 min", kAll, sizes, SC::Min{}, std::numeric_limits<I64>::max(), randomOf<I64>(), tuning);
        checkReductions("int64 max", kAll, sizes, SC::Max{}, std::numeric_limits<I64>::min(), randomOf<I64>(), tuning);
        checkReductions("int64 and", kAll, sizes, SC::BitAnd{}, I64(-1), [](std::size_t n) { return sparseBits<I64>(n, freshSeed(), true); }, tuning);
        checkReductions("int64 or", kAll, sizes, SC::BitOr{}, I64(0), [](std::size_t n) { return sparseBits<I64>(n, freshSeed(), false); }, tuning);
        checkReductions("float sum", kAll, sizes, SC::Sum{}, 0.0f, randomOf<float>(), tuning);
        checkReductions("float min", kAll, sizes, SC::Min{}, INFINITY, randomOf<float>(), tuning);
        checkReductions("float max", kAll, sizes, SC::Max{}, -INFINITY, randomOf<float>(), tuning);
        checkReductions("double sum", kAll, sizes, SC::Sum{}, 0.0, randomOf<double>(), tuning);
        checkReductions("double min", kAll, sizes, SC::Min{}, kInfinity, randomOf<double>(), tuning);
        checkReductions("double max", kAll, sizes, SC::Max{}, -kInfinity, randomOf<double>(), tuning);
    }
    reportWorstError("every strategy, type and operator");
}

TEST_F(GpuReduce, NonCommutativeOperatorsKeepTheOrderOnEveryOrderPreservingStrategy) {
    for (const int threads : kBlockSizes) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::reduce, threads);
        const std::vector<std::size_t> sizes = reduceSizes(threads);
        checkReductions("2x2 matrix product", kOrderPreserving, sizes, MatMul{}, kIdentity2, randomOf<Mat2>(), tuning);
        checkReductions("affine composition", kOrderPreserving, sizes, ComposeAffine{}, Affine{1, 0}, randomOf<Affine>(), tuning);
        checkReductions("12-byte composition", kOrderPreserving, sizes, ComposeCounted{}, Counted{1, 0, 0}, randomOf<Counted>(), tuning);
        checkReductions("last int", kOrderPreserving, sizes, Last{}, 0, randomOf<int>(), tuning);
        checkReductions("last double", kOrderPreserving, sizes, Last{}, 0.0, randomOf<double>(), tuning);
        checkReductions("ordered int64 sum", kOrderPreserving, sizes, OrderedSum{}, std::int64_t(5), randomOf<std::int64_t>(), tuning);
    }
    // The overload without a strategy is the chunked one.
    for (const std::size_t n : {std::size_t(1), std::size_t(4097), std::size_t(300007)}) {
        const std::vector<Mat2> in = randomVector<Mat2>(n, freshSeed());
        const DeviceBuffer<Mat2> d_in = DeviceBuffer<Mat2>::from_host(in.data(), n);
        DeviceBuffer<Mat2> d_out(1);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::reduce_temp_bytes<Mat2>(n));
        SC::reduce(d_in.get(), d_out.get(), n, MatMul{}, kIdentity2, temp.get(), temp.bytes());
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_TRUE(download(d_out.get(), 1)[0] == referenceReduce(in, MatMul{}, kIdentity2)) << "n = " << n;
    }
}

// CUB's and Thrust's operators (thrust::plus and thrust::maximum are cuda::std::plus and
// cuda::maximum) are the operators they stand for: commutative, with the hardware's atomics and
// warp reductions. A typed one on items of another type (it converts them), or an operator the
// library does not know, is not.
static_assert(SC::is_commutative<cuda::std::plus<>, float>::value);
static_assert(SC::is_commutative<thrust::plus<int>, int>::value);
static_assert(SC::is_commutative<cuda::maximum<double>, double>::value);
static_assert(!SC::is_commutative<cuda::std::plus<int>, float>::value);
static_assert(!SC::is_commutative<cuda::std::multiplies<>, int>::value);
static_assert(std::is_same_v<SC::standard_operator_t<thrust::minimum<std::int64_t>, std::int64_t>, SC::Min>);
static_assert(SC::detail::kHasAtomic<cuda::maximum<>, double>);
static_assert(SC::detail::kHasAtomic<cuda::std::bit_or<>, unsigned>);
static_assert(!SC::detail::kHasAtomic<cuda::std::bit_or<>, float>);
static_assert(!SC::detail::kHasAtomic<cuda::std::plus<int>, float>);
static_assert(SC::detail::kHasWarpRedux<int, thrust::plus<int>>);

TEST_F(GpuReduce, StandardOperatorsRunAsTheOperatorsTheyStandFor) {
    const std::vector<std::size_t> sizes = reduceSizes(SC::kDefaultReduceThreads);
    using I64 = std::int64_t;
    checkReductions("int cuda::std::plus<>", kAll, sizes, cuda::std::plus<>{}, 0, randomOf<int>());
    checkReductions("int thrust::plus<int> from 7", kAll, sizes, thrust::plus<int>{}, 7, randomOf<int>());
    checkReductions("int64 cuda::minimum<>", kAll, sizes, cuda::minimum<>{}, std::numeric_limits<I64>::max(),
                    randomOf<I64>());
    checkReductions("float thrust::maximum<float>", kAll, sizes, thrust::maximum<float>{}, -INFINITY,
                    randomOf<float>());
    checkReductions("float cuda::std::plus<>", kAll, sizes, cuda::std::plus<>{}, 0.0f, randomOf<float>());
    checkReductions("double cuda::std::plus<double>", kAll, sizes, cuda::std::plus<double>{}, 0.0,
                    randomOf<double>());
    checkReductions("int cuda::std::bit_and<>", kAll, sizes, cuda::std::bit_and<>{}, -1,
                    [](std::size_t n) { return sparseBits<int>(n, freshSeed(), true); });
    reportWorstError("standard operators");
    // A typed operator on items of another type is no Sum: the atomics strategy refuses it.
    const DeviceBuffer<float> d_float(10);
    DeviceBuffer<float> d_out(1);
    EXPECT_THROW(SC::reduce(ReduceStrategy::Atomics, d_float.get(), d_out.get(), 10, cuda::std::plus<int>{}, 0.0f,
                            nullptr, 0),
                 std::invalid_argument);
}

TEST_F(GpuReduce, AtomicsRefuseOperatorsWithoutAtomicsBeforeAnyWork) {
    for (const std::size_t n : {std::size_t(0), std::size_t(1000)}) {
        const std::vector<Mat2> in = randomVector<Mat2>(n, freshSeed());
        const DeviceBuffer<Mat2> d_in = DeviceBuffer<Mat2>::from_host(in.data(), n);
        DeviceBuffer<Mat2> d_out(1);
        d_out.fill_bytes(kPoisonByte);
        try {
            SC::reduce(ReduceStrategy::Atomics, d_in.get(), d_out.get(), n, MatMul{}, kIdentity2, nullptr, 0);
            ADD_FAILURE() << "the atomics strategy took a matrix product, n = " << n;
        } catch (const std::invalid_argument &e) {
            EXPECT_NE(std::string(e.what()).find("atomics"), std::string::npos) << e.what();
        }
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_TRUE(stillPoisoned(d_out.get(), sizeof(Mat2))) << "wrote its output before refusing, n = " << n;
    }
    const DeviceBuffer<int> d_int(10);
    DeviceBuffer<int> d_out(1);
    EXPECT_THROW(SC::reduce(ReduceStrategy::Atomics, d_int.get(), d_out.get(), 10, Last{}, 0, nullptr, 0),
                 std::invalid_argument);
    EXPECT_THROW(SC::reduce(ReduceStrategy::Atomics, d_int.get(), d_out.get(), 10, OrderedSum{}, 0, nullptr, 0),
                 std::invalid_argument);
}

namespace {

// Device functors of transform_reduce.
struct SquareOf {
    const int *in;
    __device__ long long operator()(std::size_t i) const { return static_cast<long long>(in[i]) * in[i]; }
};
struct MatrixOfIndex {  // a matrix made from the index alone: nothing read
    __host__ __device__ Mat2 operator()(std::size_t i) const {
        const unsigned k = static_cast<unsigned>(i * 2654435761u >> 7);
        return {{k % 5, (k >> 3) % 5, (k >> 6) % 5, (k >> 9) % 5}};
    }
};

template <class T, class Load, class Op>
T runTransform(std::size_t n, Load load, Op op, T identity, const SC::Tuning &tuning = {}) {
    DeviceBuffer<T> d_out(1);
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::transform_reduce_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    SC::transform_reduce(n, load, op, identity, d_out.get(), temp.get(), temp.bytes(),
                         SC::CallEnvironment{nullptr, tuning});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return download(d_out.get(), 1)[0];
}

}  // namespace

TEST_F(GpuReduce, TransformReduceFusesTheMap) {
    for (const int threads : kBlockSizes) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::reduce, threads);
        for (const std::size_t n : reduceSizes(threads)) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", block size " + std::to_string(threads));
            const std::vector<int> in = randomVector<int>(n, freshSeed());
            const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
            long long squares = 3;
            for (const int x : in) squares += static_cast<long long>(x) * x;
            EXPECT_EQ(runTransform(n, SquareOf{d_in.get()}, SC::Sum{}, 3LL, tuning), squares) << "striped kernel";
            EXPECT_EQ(runTransform(n, SquareOf{d_in.get()}, OrderedSum{}, 3LL, tuning), squares) << "ordered kernel";
            Mat2 product = kIdentity2;
            for (std::size_t i = 0; i < n; ++i) product = MatMul{}(product, MatrixOfIndex{}(i));
            EXPECT_TRUE(runTransform(n, MatrixOfIndex{}, MatMul{}, kIdentity2, tuning) == product) << "matrix product";
        }
    }
}

namespace {

MaxSegmentSum runMaxSegmentSum(const int *d_in, std::size_t n, const SC::Tuning &tuning = {}) {
    DeviceBuffer<MaxSegmentSum> d_out(1);
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::max_segment_sum_temp_bytes(n));
    temp.fill_bytes(kPoisonByte);
    SC::max_segment_sum(d_in, d_out.get(), n, temp.get(), temp.bytes(), SC::CallEnvironment{nullptr, tuning});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return download(d_out.get(), 1)[0];
}

MaxSegmentSum kadane(const std::vector<int> &in) { return SC::CPU::maxSegmentSum(int(in.size()), in.data()); }

::testing::AssertionResult sameSegment(const MaxSegmentSum &got, const MaxSegmentSum &expected) {
    if (got == expected) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got.sum << " over [" << got.begin << ", " << got.end
                                         << "), expected " << expected.sum << " over [" << expected.begin << ", "
                                         << expected.end << ")";
}

::testing::AssertionResult segmentLikeKadane(const std::vector<int> &in, const SC::Tuning &tuning = {}) {
    const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
    return sameSegment(runMaxSegmentSum(d_in.get(), in.size(), tuning), kadane(in));
}

// Values in [lo, hi]: a narrow range around 0 makes ties and zero-sum runs common.
std::vector<int> valuesIn(std::size_t n, int lo, int hi, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<int> v(n);
    for (int &x : v) x = value(rng);
    return v;
}

}  // namespace

TEST_F(GpuReduce, MaxSegmentSumMatchesKadane) {
    EXPECT_TRUE(segmentLikeKadane({1, -2, 3, 4, -1, 5, -6, 1}));
    EXPECT_TRUE(sameSegment(kadane({1, -2, 3, 4, -1, 5, -6, 1}), {11, 2, 6}));
    for (const int threads : kBlockSizes) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::reduce, threads);
        for (const std::size_t n : reduceSizes(threads)) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", block size " + std::to_string(threads));
            EXPECT_TRUE(segmentLikeKadane(valuesIn(n, -1000, 1000, freshSeed()), tuning)) << "random";
            EXPECT_TRUE(segmentLikeKadane(valuesIn(n, -2, 2, freshSeed()), tuning)) << "many ties";
            EXPECT_TRUE(segmentLikeKadane(valuesIn(n, -1000, -1, freshSeed()), tuning)) << "all negative";
            EXPECT_TRUE(segmentLikeKadane(std::vector<int>(n, 0), tuning)) << "all zero";
            EXPECT_TRUE(segmentLikeKadane(valuesIn(n, INT_MAX - 10, INT_MAX, freshSeed()), tuning)) << "64-bit sums";
            EXPECT_TRUE(segmentLikeKadane(valuesIn(n, -100, 101, freshSeed()), tuning)) << "drifting up: long segments";
            // Small values with a few at the packed fold's bound (2^14), the 32-bit fold's (2^25),
            // past them and far past: a warp's step of pieces takes the packed path, the narrow one
            // or the 64-bit one, and pieces of values all at a bound reach that path's limits.
            if (n > 0) {
                constexpr int packed_edge = 1 << 14, edge = 1 << 25;
                const int wide[] = {packed_edge, -packed_edge - 1, edge, -edge, edge + 1, -edge - 1, INT_MAX, INT_MIN + 1};
                std::vector<int> mixed = valuesIn(n, -100, 100, freshSeed());
                std::mt19937_64 pick(freshSeed());
                for (std::size_t i = 0; i < n / 500 + 1; ++i) mixed[pick() % n] = wide[pick() % 8];
                EXPECT_TRUE(segmentLikeKadane(mixed, tuning)) << "packed, narrow and wide pieces";
                for (const int value : {packed_edge - 1, -packed_edge, edge - 1, -edge})
                    EXPECT_TRUE(segmentLikeKadane(std::vector<int>(n, value), tuning)) << "every value " << value;
            }
            // One positive element somewhere (a lane, warp or block boundary, or not), the rest negative.
            if (n > 0) {
                std::vector<int> one = valuesIn(n, -50, -1, freshSeed());
                one[freshSeed() % n] = 7;
                EXPECT_TRUE(segmentLikeKadane(one, tuning)) << "one positive";
            }
        }
    }
}

// Past the resident grid (about a thousand blocks on an H100): every block of the striped kernel
// folds several tiles, every lane of the ordered kernel several pieces.
TEST_F(GpuReduce, ManyBlocksEachFoldingSeveralTilesAndPieces) {
    const std::size_t n = (std::size_t(1) << 23) + 13;
    const std::vector<int> ints = randomVector<int>(n, freshSeed());
    const std::vector<double> doubles = randomVector<double>(n, freshSeed());
    const std::vector<Mat2> matrices = randomVector<Mat2>(n, freshSeed());
    const DeviceBuffer<int> d_ints = DeviceBuffer<int>::from_host(ints.data(), n);
    const DeviceBuffer<double> d_doubles = DeviceBuffer<double>::from_host(doubles.data(), n);
    const DeviceBuffer<Mat2> d_matrices = DeviceBuffer<Mat2>::from_host(matrices.data(), n);
    const std::vector<int> drifting = valuesIn(n, -100, 101, freshSeed());
    const DeviceBuffer<int> d_drifting = DeviceBuffer<int>::from_host(drifting.data(), n);
    for (const int threads : {256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::reduce, threads);
        for (const ReduceStrategy strategy : kAll)
            EXPECT_EQ(runReduce(strategy, d_ints.get(), n, SC::Sum{}, 0, tuning), SC::CPU::sum(int(n), ints.data()))
                << describe(strategy, n, tuning);
        EXPECT_EQ(runReduce(ReduceStrategy::Chunked, d_ints.get(), n, Last{}, 0, tuning), ints.back());
        EXPECT_TRUE(matches(runReduce(ReduceStrategy::Chunked, d_doubles.get(), n, SC::Sum{}, 0.0, tuning),
                            referenceReduce(doubles, SC::Sum{}, 0.0), magnitudeOf(doubles, 0.0)));
        EXPECT_TRUE(matches(runReduce(ReduceStrategy::Chunked, d_doubles.get(), n, OrderedSum{}, 0.0, tuning),
                            referenceReduce(doubles, SC::Sum{}, 0.0), magnitudeOf(doubles, 0.0)));
        EXPECT_TRUE(runReduce(ReduceStrategy::Chunked, d_matrices.get(), n, MatMul{}, kIdentity2, tuning) ==
                    referenceReduce(matrices, MatMul{}, kIdentity2));
        EXPECT_TRUE(sameSegment(runMaxSegmentSum(d_ints.get(), n, tuning), kadane(ints))) << "block size " << threads;
        EXPECT_TRUE(sameSegment(runMaxSegmentSum(d_drifting.get(), n, tuning), kadane(drifting)))
            << "block size " << threads;
        long long squares = 0;
        for (const int x : ints) squares += static_cast<long long>(x) * x;
        EXPECT_EQ(runTransform(n, SquareOf{d_ints.get()}, SC::Sum{}, 0LL, tuning), squares);
        EXPECT_EQ(runTransform(n, SquareOf{d_ints.get()}, OrderedSum{}, 0LL, tuning), squares);
    }
    reportWorstError("many blocks");
}

TEST_F(GpuReduce, CourseInterfaceMatchesTheCpu) {
    for (const int n : {1 << 16, (1 << 16) - 3, 1, 0}) {
        const std::vector<int> in = valuesIn(n, -1000, 1000, freshSeed());
        const int expected = SC::CPU::sum(n, in.data());
        // Each call timed once, n = 0 included; the count says so, not the time (which may read 0 ms).
        std::uint64_t timed = SC::Reduce::timer().completedGpuTimings();
        for (const ReduceStrategy strategy : kAll) {
            EXPECT_EQ(SC::Reduce::sum(strategy, n, in.data()), expected) << describe(strategy, n, SC::course_tuning());
            EXPECT_EQ(SC::Reduce::timer().completedGpuTimings(), ++timed) << describe(strategy, n, SC::course_tuning());
        }
        EXPECT_TRUE(sameSegment(SC::Reduce::maxSegmentSum(n, in.data()), kadane(in))) << "n = " << n;
        EXPECT_EQ(SC::Reduce::timer().completedGpuTimings(), ++timed) << "maxSegmentSum, n = " << n;
    }
    EXPECT_THROW(SC::Reduce::sum(ReduceStrategy::Chunked, 5, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::Reduce::sum(ReduceStrategy::Tree, -1, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::Reduce::maxSegmentSum(3, nullptr), std::invalid_argument);
}

// Inputs one element past their allocation: 4-byte (8-byte, 16-byte) but not 16-byte aligned, so
// every kernel takes its item-by-item loads.
TEST_F(GpuReduce, InputsNotAlignedTo16Bytes) {
    for (const std::size_t n : {std::size_t(5), std::size_t(4099), std::size_t(250001)}) {
        const std::vector<int> ints = randomVector<int>(n + 1, freshSeed());
        const std::vector<double> doubles = randomVector<double>(n + 1, freshSeed());
        const DeviceBuffer<int> d_ints = DeviceBuffer<int>::from_host(ints.data(), n + 1);
        const DeviceBuffer<double> d_doubles = DeviceBuffer<double>::from_host(doubles.data(), n + 1);
        const std::vector<int> int_tail(ints.begin() + 1, ints.end());
        const std::vector<double> double_tail(doubles.begin() + 1, doubles.end());
        for (const ReduceStrategy strategy : kAll) {
            EXPECT_EQ(runReduce(strategy, d_ints.get() + 1, n, SC::Sum{}, 0), referenceReduce(int_tail, SC::Sum{}, 0))
                << describe(strategy, n);
            EXPECT_TRUE(matches(runReduce(strategy, d_doubles.get() + 1, n, SC::Sum{}, 0.0),
                                referenceReduce(double_tail, SC::Sum{}, 0.0), magnitudeOf(double_tail, 0.0)))
                << describe(strategy, n);
        }
        for (const ReduceStrategy strategy : kOrderPreserving)
            EXPECT_EQ(runReduce(strategy, d_ints.get() + 1, n, Last{}, 0), ints[n]) << describe(strategy, n);
        EXPECT_TRUE(sameSegment(runMaxSegmentSum(d_ints.get() + 1, n), kadane(int_tail))) << "n = " << n;
    }
}

TEST_F(GpuReduce, BadArgumentsThrowBeforeAnyWork) {
    const std::size_t n = 1000;
    const DeviceBuffer<int> d_in(n);
    DeviceBuffer<int> d_out(1);
    DeviceBuffer<MaxSegmentSum> d_mss(1);
    DeviceBuffer<long long> d_wide(1);
    d_out.fill_bytes(kPoisonByte);
    d_mss.fill_bytes(kPoisonByte);
    d_wide.fill_bytes(kPoisonByte);
    const int *no_input = nullptr;
    int *no_output = nullptr;
    const auto refused = [](auto call, const char *what) {
        try {
            call();
            return ::testing::AssertionFailure() << what << ": no exception";
        } catch (const std::invalid_argument &e) {
            const std::string message = e.what();
            if (message.find("reduce") == std::string::npos && message.find("max_segment_sum") == std::string::npos)
                return ::testing::AssertionFailure() << what << ": the message names no call: " << message;
            return ::testing::AssertionSuccess();
        } catch (const std::exception &e) {
            return ::testing::AssertionFailure() << what << ": not std::invalid_argument: " << e.what();
        }
    };
    for (const ReduceStrategy strategy : kAll) {
        SCOPED_TRACE(SC::reduce_strategy_name(strategy));
        const std::size_t bytes = SC::reduce_temp_bytes<int>(n, strategy);
        DeviceBuffer<char> temp(bytes);
        EXPECT_TRUE(refused([&] { SC::reduce(strategy, no_input, d_out.get(), n, SC::Sum{}, 0, temp.get(), bytes); }, "null input"));
        EXPECT_TRUE(refused([&] { SC::reduce(strategy, d_in.get(), no_output, n, SC::Sum{}, 0, temp.get(), bytes); }, "null output"));
        EXPECT_TRUE(refused([&] { SC::reduce(strategy, d_in.get(), no_output, 0, SC::Sum{}, 0, temp.get(), bytes); }, "null output, n = 0"));
        if (bytes > 0) {
            EXPECT_TRUE(refused([&] { SC::reduce(strategy, d_in.get(), d_out.get(), n, SC::Sum{}, 0, temp.get(), bytes - 1); }, "storage one byte short"));
            EXPECT_TRUE(refused([&] { SC::reduce(strategy, d_in.get(), d_out.get(), n, SC::Sum{}, 0, nullptr, bytes); }, "null storage"));
        }
    }
    const std::size_t bytes = SC::reduce_temp_bytes<int>(n);
    DeviceBuffer<char> temp(std::max(bytes, SC::max_segment_sum_temp_bytes(n)));
    EXPECT_TRUE(refused([&] { SC::reduce(d_in.get(), d_out.get(), n, SC::Sum{}, 0, temp.get(), bytes - 1); }, "chunked overload, storage short"));
    EXPECT_TRUE(refused([&] { SC::reduce(no_input, d_out.get(), n, SC::Sum{}, 0, temp.get(), bytes); }, "chunked overload, null input"));
    const std::size_t mss_bytes = SC::max_segment_sum_temp_bytes(n);
    EXPECT_TRUE(refused([&] { SC::max_segment_sum(no_input, d_mss.get(), n, temp.get(), mss_bytes); }, "max_segment_sum, null input"));
    EXPECT_TRUE(refused([&] { SC::max_segment_sum(d_in.get(), nullptr, n, temp.get(), mss_bytes); }, "max_segment_sum, null output"));
    EXPECT_TRUE(refused([&] { SC::max_segment_sum(d_in.get(), d_mss.get(), n, temp.get(), mss_bytes - 1); }, "max_segment_sum, storage short"));
    const std::size_t wide_bytes = SC::transform_reduce_temp_bytes<long long>(n);
    EXPECT_TRUE(refused([&] { SC::transform_reduce(n, SquareOf{d_in.get()}, SC::Sum{}, 0LL, static_cast<long long *>(nullptr), temp.get(), wide_bytes); }, "transform_reduce, null output"));
    EXPECT_TRUE(refused([&] { SC::transform_reduce(n, SquareOf{d_in.get()}, SC::Sum{}, 0LL, d_wide.get(), temp.get(), wide_bytes - 1); }, "transform_reduce, storage short"));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(stillPoisoned(d_out.get(), sizeof(int))) << "a refused call wrote its output";
    EXPECT_TRUE(stillPoisoned(d_mss.get(), sizeof(MaxSegmentSum))) << "a refused call wrote its output";
    EXPECT_TRUE(stillPoisoned(d_wide.get(), sizeof(long long))) << "a refused call wrote its output";
    EXPECT_TRUE(contextHealthy());
}

// ---- CUDA graphs ----

namespace {

constexpr std::size_t kGraphN = 1000003;  // hundreds of blocks of either kernel

class GpuReduceGraph : public RobustGpuTest {};

}  // namespace

// Also one tile's worth, which the chunked strategy reduces in its single-tile kernel (16-byte loads),
// a few tiles in one wide block (10000) and more in one cluster (60000, sm_90 on).
TEST_F(GpuReduceGraph, EveryStrategyOfAnIntSum) {
    for (const std::size_t n : {std::size_t(1000), std::size_t(10000), std::size_t(60000), kGraphN}) {
        for (const ReduceStrategy strategy : kAll) {
            SCOPED_TRACE(std::string(SC::reduce_strategy_name(strategy)) + ", n = " + std::to_string(n));
            DeviceArena arena;
            int *d_in = arena.make<int>(n);
            int *d_out = arena.make<int>(1);
            const std::size_t bytes = SC::reduce_temp_bytes<int>(n, strategy);
            void *d_temp = arena.make<char>(bytes);
            std::mt19937 rng(freshSeed());
            std::vector<int> in;
            captureAndReplay(
                arena, [&](cudaStream_t s) { SC::reduce(strategy, d_in, d_out, n, SC::Sum{}, 0, d_temp, bytes, s); },
                [&](cudaStream_t s) {
                    in = randomInts(n, rng);
                    upload(s, d_in, in);
                    poison(s, d_out, sizeof(int));
                },
                [&] { return sameElements(download(d_out, 1), std::vector<int>{SC::CPU::sum(int(n), in.data())}, "sum"); });
        }
    }
}

TEST_F(GpuReduceGraph, OrderedChunkedMatrixProduct) {
    const std::size_t n = kGraphN;
    DeviceArena arena;
    Mat2 *d_in = arena.make<Mat2>(n);
    Mat2 *d_out = arena.make<Mat2>(1);
    const std::size_t bytes = SC::reduce_temp_bytes<Mat2>(n);
    void *d_temp = arena.make<char>(bytes);
    std::vector<Mat2> in;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::reduce(d_in, d_out, n, MatMul{}, kIdentity2, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            in = randomVector<Mat2>(n, freshSeed());
            upload(s, d_in, in);
            poison(s, d_out, sizeof(Mat2));
        },
        [&] { return sameElements(download(d_out, 1), std::vector<Mat2>{referenceReduce(in, MatMul{}, kIdentity2)}, "product"); });
}

// One graph of three reductions on one temporary buffer (a sum, a maximum segment sum, a maximum:
// each installs its own call tag over the others'), replayed with the maximum segment sum also
// called normally on that storage between replays.
TEST_F(GpuReduceGraph, ReductionsSharingOneStorageWithOrdinaryCallsBetween) {
    const std::size_t n = kGraphN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_sum = arena.make<int>(1);
    int *d_max = arena.make<int>(1);
    MaxSegmentSum *d_mss = arena.make<MaxSegmentSum>(1);
    MaxSegmentSum *d_between = arena.make<MaxSegmentSum>(1);
    const std::size_t bytes = std::max(SC::reduce_temp_bytes<int>(n), SC::max_segment_sum_temp_bytes(n));
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::reduce(d_in, d_sum, n, SC::Sum{}, 0, d_temp, bytes, s);
            SC::max_segment_sum(d_in, d_mss, n, d_temp, bytes, s);
            SC::reduce(d_in, d_max, n, SC::Max{}, INT_MIN, d_temp, bytes, s);
        },
        [&](cudaStream_t s) {
            in = randomInts(n, rng, -1000, 1000);
            upload(s, d_in, in);
            poison(s, d_sum, sizeof(int));
            poison(s, d_max, sizeof(int));
            poison(s, d_mss, sizeof(MaxSegmentSum));
        },
        [&]() -> ::testing::AssertionResult {
            ::testing::AssertionResult sum = sameElements(download(d_sum, 1), std::vector<int>{SC::CPU::sum(int(n), in.data())}, "sum");
            if (!sum) return sum;
            ::testing::AssertionResult max = sameElements(download(d_max, 1), std::vector<int>{*std::max_element(in.begin(), in.end())}, "max");
            if (!max) return max;
            return sameSegment(download(d_mss, 1)[0], kadane(in));
        },
        [&](cudaStream_t s) {
            poison(s, d_between, sizeof(MaxSegmentSum));
            SC::max_segment_sum(d_in, d_between, n, d_temp, bytes, s);
            SC_CUDA_CHECK(cudaStreamSynchronize(s));
            EXPECT_TRUE(sameSegment(download(d_between, 1)[0], kadane(in))) << "ordinary call between replays";
        });
}

TEST_F(GpuReduceGraph, TransformReduceAndMaxSegmentSumOfSmallInputs) {
    // One block: the launch writes its result without partials or tickets; a few blocks: the sum of
    // squares is one cluster (sm_90 on), the maximum segment sum takes partials and a ticket.
    for (const std::size_t n : {std::size_t(100), std::size_t(20000)}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        DeviceArena arena;
        int *d_in = arena.make<int>(n);
        long long *d_squares = arena.make<long long>(1);
        MaxSegmentSum *d_mss = arena.make<MaxSegmentSum>(1);
        const std::size_t bytes = std::max(SC::transform_reduce_temp_bytes<long long>(n), SC::max_segment_sum_temp_bytes(n));
        void *d_temp = arena.make<char>(bytes);
        std::mt19937 rng(freshSeed());
        std::vector<int> in;
        captureAndReplay(
            arena,
            [&](cudaStream_t s) {
                SC::transform_reduce(n, SquareOf{d_in}, SC::Sum{}, 0LL, d_squares, d_temp, bytes, s);
                SC::max_segment_sum(d_in, d_mss, n, d_temp, bytes, s);
            },
            [&](cudaStream_t s) {
                in = randomInts(n, rng, -30, 30);
                upload(s, d_in, in);
                poison(s, d_squares, sizeof(long long));
                poison(s, d_mss, sizeof(MaxSegmentSum));
            },
            [&]() -> ::testing::AssertionResult {
                long long squares = 0;
                for (const int x : in) squares += static_cast<long long>(x) * x;
                ::testing::AssertionResult first = sameElements(download(d_squares, 1), std::vector<long long>{squares}, "sum of squares");
                if (!first) return first;
                return sameSegment(download(d_mss, 1)[0], kadane(in));
            });
    }
}

// ---- temporary storage at any byte offset ----

namespace {

constexpr std::size_t kGuardBytes = 256;

class GpuReduceAlignment : public RobustGpuTest, public ::testing::WithParamInterface<std::size_t> {};

// Runs launch(d_temp, bytes) on exactly `bytes` bytes starting `offset` bytes past a 256-byte
// boundary, between poisoned guards, waits, and checks that the guards are intact.
template <class Launch>
::testing::AssertionResult runCarved(std::size_t bytes, std::size_t offset, Launch launch) {
    DeviceBuffer<char> buffer(offset + bytes + kGuardBytes);
    buffer.fill_bytes(kPoisonByte);
    try {
        launch(buffer.get() + offset, bytes);
        SC_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception &e) {
        return ::testing::AssertionFailure() << "storage at byte offset " << offset << ": " << e.what();
    }
    std::vector<unsigned char> all(buffer.size());
    SC_CUDA_CHECK(cudaMemcpy(all.data(), buffer.get(), all.size(), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < all.size(); ++i)
        if ((i < offset || i >= offset + bytes) && all[i] != kPoisonByte)
            return ::testing::AssertionFailure() << "wrote outside its " << bytes << " bytes of storage, at byte "
                                                 << i << " of the buffer (storage from " << offset << ")";
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST_P(GpuReduceAlignment, EveryReductionWithStorageAtThisOffset) {
    const std::size_t offset = GetParam();
    // 10000 ints: one wide block; 100003: one cluster (sm_90 on); neither touches the storage.
    for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(10000), std::size_t(100003)}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", storage offset " + std::to_string(offset));
        const std::vector<int> in = randomVector<int>(n, freshSeed());
        const std::vector<Mat2> matrices = randomVector<Mat2>(n, freshSeed());
        const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
        const DeviceBuffer<Mat2> d_matrices = DeviceBuffer<Mat2>::from_host(matrices.data(), n);
        DeviceBuffer<int> d_out(1);
        for (const ReduceStrategy strategy : kAll) {
            d_out.fill_bytes(kPoisonByte);
            ASSERT_TRUE(runCarved(SC::reduce_temp_bytes<int>(n, strategy), offset, [&](void *temp, std::size_t bytes) {
                SC::reduce(strategy, d_in.get(), d_out.get(), n, SC::Sum{}, 0, temp, bytes);
            })) << SC::reduce_strategy_name(strategy);
            EXPECT_EQ(download(d_out.get(), 1)[0], SC::CPU::sum(int(n), in.data())) << SC::reduce_strategy_name(strategy);
        }
        DeviceBuffer<Mat2> d_product(1);
        d_product.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::reduce_temp_bytes<Mat2>(n), offset, [&](void *temp, std::size_t bytes) {
            SC::reduce(d_matrices.get(), d_product.get(), n, MatMul{}, kIdentity2, temp, bytes);
        }));
        EXPECT_TRUE(download(d_product.get(), 1)[0] == referenceReduce(matrices, MatMul{}, kIdentity2));
        DeviceBuffer<MaxSegmentSum> d_mss(1);
        d_mss.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::max_segment_sum_temp_bytes(n), offset, [&](void *temp, std::size_t bytes) {
            SC::max_segment_sum(d_in.get(), d_mss.get(), n, temp, bytes);
        }));
        EXPECT_TRUE(sameSegment(download(d_mss.get(), 1)[0], kadane(in)));
        // Values within +-50 take the packed fold (PackedKadane), full-range ones above do not.
        std::mt19937 rng(freshSeed());
        std::vector<int> small(n);
        for (int &x : small) x = static_cast<int>(rng() % 101) - 50;
        const DeviceBuffer<int> d_small = DeviceBuffer<int>::from_host(small.data(), n);
        d_mss.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::max_segment_sum_temp_bytes(n), offset, [&](void *temp, std::size_t bytes) {
            SC::max_segment_sum(d_small.get(), d_mss.get(), n, temp, bytes);
        }));
        EXPECT_TRUE(sameSegment(download(d_mss.get(), 1)[0], kadane(small))) << "values within +-50";
        DeviceBuffer<long long> d_squares(1);
        d_squares.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::transform_reduce_temp_bytes<long long>(n), offset, [&](void *temp, std::size_t bytes) {
            SC::transform_reduce(n, SquareOf{d_in.get()}, SC::Sum{}, 0LL, d_squares.get(), temp, bytes);
        }));
        long long squares = 0;
        for (const int x : in) squares += static_cast<long long>(x) * x;
        EXPECT_EQ(download(d_squares.get(), 1)[0], squares);
    }
}

INSTANTIATE_TEST_SUITE_P(TemporaryStorage, GpuReduceAlignment,
                         ::testing::Values(std::size_t(0), std::size_t(1), std::size_t(4), std::size_t(8)),
                         [](const ::testing::TestParamInfo<std::size_t> &info) {
                             return "Offset" + std::to_string(info.param);
                         });

// ---- sizes that fill the GPU (left out of sanitizer runs) ----

namespace {

// Fills out[i] = i % 253 for every i < count (more than 2^31 of them).
__global__ void fill_index_bytes(unsigned char *out, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<unsigned char>(i % 253);
}

struct ByteAt {
    const unsigned char *bytes;
    __device__ long long operator()(std::size_t i) const { return bytes[i]; }
};

// i % modulus for an index past 2^32: computed, nothing read.
struct IndexModulo {
    unsigned long long modulus;
    __device__ long long operator()(std::size_t i) const { return static_cast<long long>(i % modulus); }
};

// The sum over i in [0, n) of i % m, in closed form.
long long sumOfIndexModulo(std::size_t n, std::size_t m) {
    const std::size_t cycles = n / m, rest = n % m;
    return static_cast<long long>(cycles * (m * (m - 1) / 2) + rest * (rest - 1) / 2);
}

bool enoughDeviceMemory(std::size_t bytes) {
    std::size_t free_bytes = 0, total_bytes = 0;
    SC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes > bytes + (std::size_t(1) << 30);
}

}  // namespace

TEST(GpuLarge, ReduceOf2To28IntsByEveryStrategyAndMaxSegmentSum) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = std::size_t(1) << 28;
    const std::vector<int> in = valuesIn(n, -1000, 1000, freshSeed());
    const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
    const int sum = SC::CPU::sum(int(n), in.data());
    for (const ReduceStrategy strategy : kAll)
        EXPECT_EQ(runReduce(strategy, d_in.get(), n, SC::Sum{}, 0), sum) << describe(strategy, n);
    EXPECT_EQ(runReduce(ReduceStrategy::Chunked, d_in.get(), n, SC::Max{}, INT_MIN), *std::max_element(in.begin(), in.end()));
    EXPECT_EQ(runReduce(ReduceStrategy::Chunked, d_in.get(), n, Last{}, 0), in.back());
    EXPECT_TRUE(sameSegment(runMaxSegmentSum(d_in.get(), n), kadane(in)));
    const std::vector<int> drifting = valuesIn(n, -100, 101, freshSeed());  // a segment of about all of it
    const DeviceBuffer<int> d_drifting = DeviceBuffer<int>::from_host(drifting.data(), n);
    EXPECT_TRUE(sameSegment(runMaxSegmentSum(d_drifting.get(), n), kadane(drifting)));
}

TEST(GpuLarge, TransformReduceOverMoreThan2To32Indices) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = (std::size_t(1) << 32) + (std::size_t(1) << 20) + 3;
    const long long expected = sumOfIndexModulo(n, 251);
    EXPECT_EQ(runTransform(n, IndexModulo{251}, SC::Sum{}, 0LL), expected) << "striped kernel";
    EXPECT_EQ(runTransform(n, IndexModulo{251}, OrderedSum{}, 0LL), expected) << "ordered kernel";
}

TEST(GpuLarge, TransformReduceOfMoreThan2To31BytesInto64Bits) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = (std::size_t(1) << 31) + 12345;
    if (!enoughDeviceMemory(n)) GTEST_SKIP() << "needs " << (n >> 20) << " MiB of device memory";
    DeviceBuffer<unsigned char> d_bytes(n);
    fill_index_bytes<<<4096, 256>>>(d_bytes.get(), n);
    SC_CHECK_LAUNCH(fill_index_bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    const long long expected = sumOfIndexModulo(n, 253);
    EXPECT_EQ(runTransform(n, ByteAt{d_bytes.get()}, SC::Sum{}, 0LL), expected) << "striped kernel";
    EXPECT_EQ(runTransform(n, ByteAt{d_bytes.get()}, OrderedSum{}, 0LL), expected) << "ordered kernel";
}
