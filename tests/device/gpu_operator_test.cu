// Operator contracts.
//
// segmented_reduce with op(a, b) = b ("last": associative, not commutative) and identity 0, which
// is only a left identity (op(0, x) = x, as segmented_reduce.cuh requires; op(x, 0) = 0 != x):
// a non-empty segment's result must be its last value, an empty segment's the identity. An
// implementation that swaps operands, or combines with the identity on the right, fails. Shapes:
// segments of 16, random lengths with empties, one segment, mostly empty segments, at several block
// sizes. The scans with the same operator too.
//
// Value types without a default constructor (trivially copyable, constructed from an int): the
// library cannot compile them today (the kernels declare T arrays, inclusive_scan passes T{}), so
// that test is under #if 0; the same checks run live on a type that has a default constructor,
// which keeps the test's own code compiling and right.
#include <gtest/gtest.h>

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/device/select.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using namespace robustness;

namespace {

struct Last {
    template <class T>
    __host__ __device__ T operator()(const T &, const T &b) const { return b; }
};

constexpr int kBlockSizes[] = {32, 256, 1024};

class GpuOperator : public RobustGpuTest {};

// Nonzero values, so that a segment's result can never be mistaken for the identity 0.
template <class T>
std::vector<T> nonzeroValues(std::size_t n, std::mt19937 &rng) {
    std::uniform_int_distribution<int> magnitude(1, 1000000000);
    std::vector<T> v(n);
    for (T &x : v) x = static_cast<T>(rng() % 2 ? magnitude(rng) : -magnitude(rng));
    return v;
}

// Expected by definition, not by folding the operator: the last value, or 0 when empty.
template <class T>
std::vector<T> lastOfEachSegment(const std::vector<T> &values, const std::vector<int> &offsets) {
    std::vector<T> out(offsets.size() - 1, T(0));
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        if (offsets[s] < offsets[s + 1]) out[s] = values[offsets[s + 1] - 1];
    return out;
}

template <class T>
::testing::AssertionResult reduceLast(const std::vector<T> &values, const std::vector<int> &offsets,
                                      SC::SegmentedReduceAlgorithm engine, const SC::Tuning &tuning) {
    const std::size_t n = values.size(), segments = offsets.size() - 1;
    DeviceBuffer<T> d_values = DeviceBuffer<T>::from_host(values.data(), n), d_out(segments);
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<T>(n, segments));
    d_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    SC::segmented_reduce(d_values.get(), n, d_offsets.get(), segments, d_out.get(), Last{}, T(0), temp.get(),
                         temp.bytes(), testEnv(tuning), engine);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return sameElements(download(d_out.get(), segments), lastOfEachSegment(values, offsets), "segment results");
}

// Every value type and block size on one segmentation, on each engine (the item tiles' block size
// is their own: they run once).
void checkLast(const std::vector<int> &offsets, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const std::size_t n = offsets.back();
    SCOPED_TRACE(std::to_string(offsets.size() - 1) + " segments, n = " + std::to_string(n));
    const auto check = [&](SC::SegmentedReduceAlgorithm engine, const SC::Tuning &tuning) {
        SCOPED_TRACE(SC::segmented_reduce_algorithm_name(engine));
        EXPECT_TRUE(reduceLast(nonzeroValues<int>(n, rng), offsets, engine, tuning)) << "int";
        EXPECT_TRUE(reduceLast(nonzeroValues<double>(n, rng), offsets, engine, tuning)) << "double";
        EXPECT_TRUE(reduceLast(nonzeroValues<std::int64_t>(n, rng), offsets, engine, tuning)) << "int64";
    };
    for (const int threads : kBlockSizes) {
        SCOPED_TRACE("block size " + std::to_string(threads));
        check(SC::SegmentedReduceAlgorithm::MergePath, tuningWith(&SC::Tuning::segmented, threads));
    }
    check(SC::SegmentedReduceAlgorithm::ItemTiles, SC::Tuning{});
}

}  // namespace

TEST_F(GpuOperator, SegmentedReduceLastInSegmentsOf16) {
    checkLast(offsetsFromLengths(std::vector<int>(100000 / 16, 16)), freshSeed());
}

TEST_F(GpuOperator, SegmentedReduceLastRandomLengthsWithEmpties) {
    std::mt19937 rng(freshSeed());
    std::geometric_distribution<int> length(1.0 / 40);
    std::vector<int> lengths = {0, 0};  // empty segments leading, inside (one in four) and trailing
    int total = 0;
    while (total < 100003) {
        const int l = rng() % 4 == 0 ? 0 : std::min(1 + length(rng), 100003 - total);
        lengths.push_back(l);
        total += l;
    }
    lengths.insert(lengths.end(), {0, 0, 0});
    checkLast(offsetsFromLengths(lengths), freshSeed());
    // A few long segments spanning many tiles, between empty ones.
    checkLast(offsetsFromLengths({0, 70001, 0, 0, 1, 150000, 0, 3, 0}), freshSeed());
}

TEST_F(GpuOperator, SegmentedReduceLastSingleSegment) {
    checkLast({0, 100003}, freshSeed());
    checkLast({0, 1}, freshSeed());
}

TEST_F(GpuOperator, SegmentedReduceLastManyEmptySegments) {
    // 100,000 segments, one in a thousand non-empty.
    std::mt19937 rng(freshSeed());
    std::vector<int> lengths(100000, 0);
    for (int &l : lengths)
        if (rng() % 1000 == 0) l = 1 + static_cast<int>(rng() % 300);
    lengths[99999] = 5;
    checkLast(offsetsFromLengths(lengths), freshSeed());
    // Every segment empty: n = 0, every result the identity.
    checkLast(std::vector<int>(1001, 0), freshSeed());
}

// The scans with "last": exclusive gives the previous value (init first), inclusive the value
// itself; segmented, each segment starts from init.
TEST_F(GpuOperator, ScansWithLast) {
    const std::size_t n = 100003;
    std::mt19937 rng(freshSeed());
    for (const int threads : kBlockSizes) {
        const SC::CallEnvironment env = testEnv(tuningWith(&SC::Tuning::single_pass, threads));
        SCOPED_TRACE("block size " + std::to_string(threads));
        const std::vector<int> in = nonzeroValues<int>(n, rng);
        const std::vector<int> offsets = randomOffsets(n, n / 25, rng);
        const std::vector<std::uint8_t> flags = flagsFromOffsets(offsets);
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n), d_out(n);
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
        DeviceBuffer<char> temp(std::max(SC::scan_temp_bytes<int>(n), SC::segmented_scan_temp_bytes<int>(n)));
        std::vector<int> previous(n);
        for (std::size_t i = 0; i < n; ++i) previous[i] = i == 0 ? -7 : in[i - 1];
        std::vector<int> segment_previous(n);
        for (std::size_t i = 0; i < n; ++i) segment_previous[i] = i == 0 || flags[i] ? -7 : in[i - 1];

        d_out.fill_bytes(kPoisonByte);
        SC::exclusive_scan(d_in.get(), d_out.get(), n, Last{}, -7, temp.get(), temp.bytes(), env);
        EXPECT_TRUE(sameElements(download(d_out.get(), n), previous, "exclusive_scan"));
        d_out.fill_bytes(kPoisonByte);
        SC::inclusive_scan(d_in.get(), d_out.get(), n, Last{}, temp.get(), temp.bytes(), env);
        EXPECT_TRUE(sameElements(download(d_out.get(), n), in, "inclusive_scan"));
        d_out.fill_bytes(kPoisonByte);
        SC::segmented_exclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, Last{}, -7, temp.get(), temp.bytes(),
                                     env);
        EXPECT_TRUE(sameElements(download(d_out.get(), n), segment_previous, "segmented_exclusive_scan"));
        d_out.fill_bytes(kPoisonByte);
        SC::segmented_inclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, Last{}, temp.get(), temp.bytes(), env);
        EXPECT_TRUE(sameElements(download(d_out.get(), n), in, "segmented_inclusive_scan"));
    }
}

// ---- value types without a default constructor ----

// Trivially copyable, made from an int (outside the unnamed namespace: only the test under #if 0
// uses it).
namespace gpu_operator_test {
struct NoDefault {
    explicit __host__ __device__ NoDefault(int v) : value(v) {}
    int value;
    bool operator==(const NoDefault &o) const { return value == o.value; }
};
}  // namespace gpu_operator_test
using gpu_operator_test::NoDefault;

namespace {

// The control: the same, with a (trivial) default constructor.
struct Defaulted {
    Defaulted() = default;
    explicit __host__ __device__ Defaulted(int v) : value(v) {}
    int value;
    bool operator==(const Defaulted &o) const { return value == o.value; }
};
static_assert(std::is_trivially_copyable_v<NoDefault> && !std::is_default_constructible_v<NoDefault>, "the case");
static_assert(std::is_trivially_copyable_v<Defaulted>, "the control");

struct AddValues {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return T(a.value + b.value); }
};
struct PositiveValue {
    template <class T>
    __host__ __device__ bool operator()(const T &x) const { return x.value > 0; }
};

// exclusive_scan, inclusive_scan, select_if and segmented_reduce of T; nothing here constructs a T
// without an int.
template <class T>
void checkWithoutDefaultConstruction() {
    const std::size_t n = 100003;
    std::mt19937 rng(freshSeed());
    std::vector<T> in;
    in.reserve(n);
    for (std::size_t i = 0; i < n; ++i) in.push_back(T(static_cast<int>(rng() % 2001) - 1000));
    const T filler(0);
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
    DeviceBuffer<std::size_t> d_count(1);
    const std::vector<int> offsets = randomOffsets(n, n / 20, rng);
    const std::size_t segments = offsets.size() - 1;
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    DeviceBuffer<char> temp(std::max({SC::scan_temp_bytes<T>(n), SC::select_temp_bytes<T>(n),
                                      SC::segmented_reduce_temp_bytes<T>(n, segments)}));

    d_out.fill_bytes(kPoisonByte);
    SC::exclusive_scan(d_in.get(), d_out.get(), n, AddValues{}, T(5), temp.get(), temp.bytes(), testEnv());
    EXPECT_TRUE(sameElements(download(d_out.get(), n, filler), referenceExclusiveScan(in, AddValues{}, T(5)),
                             "exclusive_scan"));

    d_out.fill_bytes(kPoisonByte);
    SC::inclusive_scan(d_in.get(), d_out.get(), n, AddValues{}, temp.get(), temp.bytes(), testEnv());
    EXPECT_TRUE(sameElements(download(d_out.get(), n, filler), referenceInclusiveScan(in, AddValues{}), "inclusive_scan"));

    d_out.fill_bytes(kPoisonByte);
    SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, PositiveValue{}, temp.get(), temp.bytes(), testEnv());
    std::vector<T> kept;
    for (const T &x : in)
        if (PositiveValue{}(x)) kept.push_back(x);
    const std::size_t count = download(d_count.get(), 1)[0];
    ASSERT_EQ(count, kept.size()) << "select_if count";
    EXPECT_TRUE(sameElements(download(d_out.get(), count, filler), kept, "select_if"));

    d_out.fill_bytes(kPoisonByte);
    SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_out.get(), AddValues{}, T(0), temp.get(),
                         temp.bytes());
    EXPECT_TRUE(sameElements(download(d_out.get(), segments, filler),
                             referenceSegmentedReduce(in, offsets, AddValues{}, T(0)), "segmented_reduce"));
}

}  // namespace

// The control: the same checks on a type with a default constructor.
TEST_F(GpuOperator, StructWithExplicitConstructorAndDefault) { checkWithoutDefaultConstruction<Defaulted>(); }

#if 0  // requires T{}: see docs/contracts.md
TEST_F(GpuOperator, ValueTypeWithoutDefaultConstructor) { checkWithoutDefaultConstruction<NoDefault>(); }
#endif
