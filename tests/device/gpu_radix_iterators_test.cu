// radix_sort_pairs with values beyond raw pointers (issue #43, part 2): Thrust's counting iterators
// as values (an argsort: the first pass reads index i where it reads key i, no index array is filled
// first), transform and constant iterators and pointers to another type (converted to the output's
// type), thrust::device_ptr (unwrapped to the pointer path). Every result against a std::stable_sort
// of (key, index) pairs on the CPU, outputs and storage poisoned first; sizes at the tile boundaries
// of the block size in use; key shapes that make the sort take every pass, one pass of the lowest
// digit, one of a higher digit (the first active pass is not digit 0), or none but the forced last
// one (all keys equal); descending and bit ranges; 32- and 64-bit keys, floats with -0.0, NaNs and
// infinities; at the tuned radix block size and at 128; the multi-portion path; the allocating
// overload; and graph replay on new keys with storage at an odd address.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuRadixIterators : public GpuTest {};

// Contiguous values unwrap to today's pointer kernels; anything else is read through the iterator.
using IntBits = const std::uint32_t *;
static_assert(std::is_same_v<decltype(SC::detail::radix_values_input<int>(static_cast<int *>(nullptr))), IntBits>);
static_assert(std::is_same_v<decltype(SC::detail::radix_values_input<int>(thrust::device_ptr<int>())), IntBits>);
static_assert(
    std::is_same_v<decltype(SC::detail::radix_values_input<float>(thrust::device_ptr<const float>())), IntBits>);
static_assert(!std::is_pointer_v<decltype(SC::detail::radix_values_input<int>(thrust::counting_iterator<int>(0)))>);
static_assert(
    !std::is_pointer_v<decltype(SC::detail::radix_values_input<long long>(static_cast<const int *>(nullptr)))>);

// A scattered sample of i: no order, repeats, negatives.
struct Scatter {
    __host__ __device__ int operator()(int i) const { return static_cast<int>((i * 2654435761u) % 1999u) - 999; }
};
// Index i as a float (exact below 2^24): 4-byte values of another type than the iterator's.
struct HalfOf {
    __host__ __device__ float operator()(int i) const { return 0.5f * static_cast<float>(i); }
};
struct TimesThree {
    __host__ __device__ long long operator()(int x) const { return 3LL * x; }
};

template <class Key>
using KeyBits = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;

template <class Key>
KeyBits<Key> bitsOf(Key key) {
    KeyBits<Key> bits;
    std::memcpy(&bits, &key, sizeof bits);
    return bits;
}

template <class Key>
std::vector<KeyBits<Key>> bitsOf(const std::vector<Key> &keys) {
    std::vector<KeyBits<Key>> bits(keys.size());
    std::transform(keys.begin(), keys.end(), bits.begin(), [](Key key) { return bitsOf(key); });
    return bits;
}

// The documented order as unsigned bits (radix_sort.cuh): signed integers with the sign bit
// flipped; floats with every bit flipped when negative, else the sign bit set, -0.0 as +0.0 (so
// NaNs sort by their bits, after +inf or before -inf).
template <class Key>
KeyBits<Key> orderImage(Key key) {
    using Bits = KeyBits<Key>;
    constexpr Bits sign = Bits{1} << (8 * sizeof(Key) - 1);
    Bits bits = bitsOf(key);
    if constexpr (std::is_floating_point_v<Key>) {
        if (bits == sign) bits = 0;
        return (bits & sign) ? static_cast<Bits>(~bits) : static_cast<Bits>(bits | sign);
    } else {
        return std::is_signed_v<Key> ? static_cast<Bits>(bits ^ sign) : bits;
    }
}

// The input position of each sorted key: std::stable_sort of (compared bits, index) pairs.
template <class Key>
std::vector<std::size_t> stableOrder(const std::vector<Key> &keys, const SC::RadixSortOrder &order) {
    using Bits = KeyBits<Key>;
    const int width = 8 * static_cast<int>(sizeof(Key));
    const int end = order.end_bit == SC::RadixSortOrder::kKeyWidth ? width : order.end_bit;
    const int span = end - order.begin_bit;
    std::vector<std::pair<Bits, std::size_t>> pairs(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Bits compared = span == 0 ? Bits{0}
                                        : static_cast<Bits>(orderImage(keys[i]) >> order.begin_bit) &
                                              static_cast<Bits>(~Bits{0} >> (width - span));
        pairs[i] = {compared, i};
    }
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto &a, const auto &b) {
        return order.descending ? a.first > b.first : a.first < b.first;
    });
    std::vector<std::size_t> positions(keys.size());
    for (std::size_t j = 0; j < pairs.size(); ++j) positions[j] = pairs[j].second;
    return positions;
}

// ---- keys ----

// Which digit passes a sort of these keys takes.
enum class Shape {
    Scattered,     // every digit differs somewhere: every pass
    LowDigit,      // keys in [0, 256): the lowest digit's pass alone
    SecondDigit,   // multiples of 256 below 2^16: the second digit's pass alone (the first active pass is not digit 0)
    AllEqual,      // no digit differs: the last digit's pass, forced
};

const char *shapeName(Shape shape) {
    switch (shape) {
    case Shape::Scattered: return "scattered";
    case Shape::LowDigit: return "low digit";
    case Shape::SecondDigit: return "second digit";
    case Shape::AllEqual: return "all equal";
    }
    return "?";
}

constexpr Shape kShapes[] = {Shape::Scattered, Shape::LowDigit, Shape::SecondDigit, Shape::AllEqual};

// Integer keys of `shape`, with many duplicates; scattered ones also hold the type's extremes.
template <class Key>
std::vector<Key> integerKeys(std::size_t n, Shape shape, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Key> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = rng();
        switch (shape) {
        case Shape::Scattered:
            // Few distinct low parts and high parts: duplicates in every digit, and both signs.
            keys[i] = static_cast<Key>(((r % 64) << (8 * sizeof(Key) - 6)) ^ (r >> 40) % 5000);
            if (i % 97 == 5) keys[i] = std::numeric_limits<Key>::min();
            if (i % 101 == 7) keys[i] = std::numeric_limits<Key>::max();
            if (i % 103 == 9) keys[i] = Key{0};
            break;
        case Shape::LowDigit: keys[i] = static_cast<Key>(r % 256); break;
        case Shape::SecondDigit: keys[i] = static_cast<Key>((r % 256) << 8); break;
        case Shape::AllEqual: keys[i] = static_cast<Key>(-7); break;
        }
    }
    return keys;
}

// Floating keys: a few values of both signs repeated, and the special ones.
template <class Key>
std::vector<Key> floatingKeys(std::size_t n, std::uint32_t seed) {
    using Limits = std::numeric_limits<Key>;
    const Key special[] = {Key(-0.0),         Key(0.0),          Limits::quiet_NaN(),     -Limits::quiet_NaN(),
                           Limits::infinity(), -Limits::infinity(), Limits::max(),          Limits::lowest(),
                           Limits::denorm_min(), -Limits::denorm_min(), Limits::min(),      Key(-1.5)};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(-300, 300);
    std::vector<Key> keys(n);
    for (std::size_t i = 0; i < n; ++i)
        keys[i] = i % 7 == 3 ? special[(i / 7) % (sizeof special / sizeof special[0])] : Key(pick(rng)) / Key(8);
    return keys;
}

// ---- sizes and tunings ----

// The tuned radix block size and a smaller one (the tile size changes with it).
std::vector<SC::Tuning> tunings() { return tunedAndGeneric(&SC::Tuning::radix); }

template <class Key>
std::size_t tileItems(const SC::Tuning &tuning) {
    return static_cast<std::size_t>(SC::radix_threads_asked(tuning)) * SC::kRadixItemsPerThread<Key>;
}

// Empty, one key, an odd size within a tile, one full tile, one key past it (the look-back), many
// tiles, and one past 2^20.
template <class Key>
std::vector<std::size_t> sizesFor(const SC::Tuning &tuning) {
    const std::size_t tile = tileItems<Key>(tuning);
    return {0, 1, 1001, tile, tile + 1, 3 * tile + 5, (std::size_t{1} << 20) + 1};
}

std::string traceOf(std::size_t n, const SC::Tuning &tuning, const std::string &what) {
    return what + ", n = " + std::to_string(n) + ", radix " + std::to_string(SC::radix_threads_asked(tuning));
}

// ---- the check ----

// Sorts `keys` carrying `values` (a pointer or any iterator; value_of(i) is its item i as a Value)
// into poisoned outputs, with poisoned storage of exactly radix_sort_temp_bytes<Key, Value>, through
// the caller-storage overload (with `order`, or without one), and compares both outputs with the
// stable CPU sort.
template <class Key, class Value, class ValuesIn, class ValueOf>
::testing::AssertionResult sortsLikeStableSort(const std::vector<Key> &keys, ValuesIn values, ValueOf value_of,
                                               const SC::CallEnvironment &env,
                                               std::optional<SC::RadixSortOrder> order = std::nullopt) {
    const std::size_t n = keys.size();
    const auto d_keys = SC::DeviceBuffer<Key>::from_host(keys.data(), n);
    SC::DeviceBuffer<Key> d_keys_out(n);
    SC::DeviceBuffer<Value> d_values_out(n);
    SC::DeviceBuffer<char> d_temp(SC::radix_sort_temp_bytes<Key, Value>(n, env));
    d_keys_out.fill_bytes(kPoisonByte);
    d_values_out.fill_bytes(kPoisonByte);
    d_temp.fill_bytes(kPoisonByte);
    if (order)
        SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), values, d_values_out.get(), n, d_temp.get(),
                             d_temp.bytes(), *order, env);
    else
        SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), values, d_values_out.get(), n, d_temp.get(),
                             d_temp.bytes(), env);
    SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));

    const std::vector<std::size_t> positions = stableOrder(keys, order.value_or(SC::RadixSortOrder{}));
    std::vector<Key> expected_keys(n);
    std::vector<Value> expected_values(n);
    for (std::size_t j = 0; j < n; ++j) {
        expected_keys[j] = keys[positions[j]];
        expected_values[j] = static_cast<Value>(value_of(positions[j]));
    }
    const ::testing::AssertionResult same_keys =
        sameElements(bitsOf(download(d_keys_out.get(), n)), bitsOf(expected_keys), "keys (bits)");
    if (!same_keys) return same_keys;
    return sameElements(download(d_values_out.get(), n), expected_values, "values");
}

// Item i of a counting iterator that starts at `first`.
template <class T>
struct CountingFrom {
    T first;
    T operator()(std::size_t i) const { return static_cast<T>(first + static_cast<T>(i)); }
};

}  // namespace

// Argsort of 32-bit integer keys of every shape: int indices from 0, unsigned ones from 7.
TEST_F(GpuRadixIterators, ArgsortOfIntegerKeysWithCountingIndices) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<int>(tuning))
            for (const Shape shape : kShapes) {
                SCOPED_TRACE(traceOf(n, tuning, shapeName(shape)));
                const SC::CallEnvironment env = testEnv(tuning);
                const std::vector<int> keys = integerKeys<int>(n, shape, 11u + static_cast<std::uint32_t>(n));
                ASSERT_TRUE((sortsLikeStableSort<int, int>(keys, thrust::counting_iterator<int>(0),
                                                           CountingFrom<int>{0}, env)));
                const std::vector<unsigned> unsigned_keys =
                    integerKeys<unsigned>(n, shape, 13u + static_cast<std::uint32_t>(n));
                ASSERT_TRUE((sortsLikeStableSort<unsigned, unsigned>(
                    unsigned_keys, thrust::counting_iterator<unsigned>(7u), CountingFrom<unsigned>{7u}, env)));
            }
}

// 64-bit keys (integers with their extremes; doubles) carrying 64-bit indices that need all their
// bits, and int indices widened to long long (the conversion in the first pass).
TEST_F(GpuRadixIterators, ArgsortOfWideKeysWith64BitIndices) {
    const std::int64_t first = (std::int64_t{1} << 40) - 3;
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<std::int64_t>(tuning))
            for (const Shape shape : kShapes) {
                SCOPED_TRACE(traceOf(n, tuning, shapeName(shape)));
                const SC::CallEnvironment env = testEnv(tuning);
                const std::vector<std::int64_t> keys =
                    integerKeys<std::int64_t>(n, shape, 17u + static_cast<std::uint32_t>(n));
                ASSERT_TRUE((sortsLikeStableSort<std::int64_t, std::int64_t>(
                    keys, thrust::counting_iterator<std::int64_t>(first), CountingFrom<std::int64_t>{first}, env)));
                ASSERT_TRUE((sortsLikeStableSort<std::int64_t, long long>(keys, thrust::counting_iterator<int>(0),
                                                                          CountingFrom<long long>{0}, env)))
                    << "int indices into long long";
            }
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<double>(tuning)) {
            SCOPED_TRACE(traceOf(n, tuning, "doubles"));
            const std::vector<double> keys = floatingKeys<double>(n, 19u + static_cast<std::uint32_t>(n));
            ASSERT_TRUE((sortsLikeStableSort<double, std::int64_t>(
                keys, thrust::counting_iterator<std::int64_t>(first), CountingFrom<std::int64_t>{first},
                testEnv(tuning))));
        }
}

// Float keys with -0.0 and +0.0 (equal keys that keep their order and bits), NaNs of both signs,
// infinities, denormals.
TEST_F(GpuRadixIterators, ArgsortOfFloatKeysWithSpecialValues) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<float>(tuning)) {
            SCOPED_TRACE(traceOf(n, tuning, "floats"));
            const std::vector<float> keys = floatingKeys<float>(n, 23u + static_cast<std::uint32_t>(n));
            ASSERT_TRUE((sortsLikeStableSort<float, int>(keys, thrust::counting_iterator<int>(0), CountingFrom<int>{0},
                                                         testEnv(tuning))));
            ASSERT_TRUE((sortsLikeStableSort<float, unsigned>(keys, thrust::counting_iterator<unsigned>(0),
                                                              CountingFrom<unsigned>{0}, testEnv(tuning),
                                                              SC::RadixSortOrder{true})))
                << "descending";
        }
}

// Descending, and bit ranges: [8, 16) (the second digit's pass alone, on keys that differ in every
// digit), [20, 64) of 64-bit keys, and an empty range (every key equal: input order).
TEST_F(GpuRadixIterators, ArgsortInOrderAndOnBitRanges) {
    const SC::RadixSortOrder orders[] = {{true, 0, SC::RadixSortOrder::kKeyWidth}, {false, 8, 16}, {true, 8, 16},
                                         {false, 4, 4}, {false, 0, 32}};
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<int>(tuning))
            for (const SC::RadixSortOrder &order : orders) {
                SCOPED_TRACE(traceOf(n, tuning, "bits [" + std::to_string(order.begin_bit) + ", " +
                                                    std::to_string(order.end_bit) + ")" +
                                                    (order.descending ? " descending" : "")));
                const SC::CallEnvironment env = testEnv(tuning);
                const std::vector<int> keys =
                    integerKeys<int>(n, Shape::Scattered, 29u + static_cast<std::uint32_t>(n));
                ASSERT_TRUE((sortsLikeStableSort<int, int>(keys, thrust::counting_iterator<int>(0),
                                                           CountingFrom<int>{0}, env, order)));
                const std::vector<std::uint64_t> wide =
                    integerKeys<std::uint64_t>(n, Shape::Scattered, 31u + static_cast<std::uint32_t>(n));
                const SC::RadixSortOrder wide_order =
                    order.end_bit == 32 ? SC::RadixSortOrder{order.descending, 20, 64} : order;
                ASSERT_TRUE((sortsLikeStableSort<std::uint64_t, unsigned>(wide, thrust::counting_iterator<unsigned>(0),
                                                                          CountingFrom<unsigned>{0}, env, wide_order)))
                    << "64-bit keys";
            }
}

// Values computed by a transform iterator (into their own type and into floats), a constant
// iterator, and a pointer to another type (ints into long longs): all read in the first pass.
TEST_F(GpuRadixIterators, TransformConstantAndOtherTypeValues) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<int>(tuning))
            for (const Shape shape : {Shape::Scattered, Shape::SecondDigit}) {
                SCOPED_TRACE(traceOf(n, tuning, shapeName(shape)));
                const SC::CallEnvironment env = testEnv(tuning);
                const std::vector<int> keys = integerKeys<int>(n, shape, 37u + static_cast<std::uint32_t>(n));
                const thrust::counting_iterator<int> indices(0);
                const auto scatter = [](std::size_t i) { return Scatter{}(static_cast<int>(i)); };
                const auto half = [](std::size_t i) { return HalfOf{}(static_cast<int>(i)); };
                ASSERT_TRUE((sortsLikeStableSort<int, int>(keys, thrust::make_transform_iterator(indices, Scatter{}),
                                                           scatter, env)))
                    << "transform";
                ASSERT_TRUE((sortsLikeStableSort<int, float>(keys, thrust::make_transform_iterator(indices, HalfOf{}),
                                                             half, env)))
                    << "transform into floats";
                ASSERT_TRUE((sortsLikeStableSort<int, int>(keys, thrust::constant_iterator<int>(42),
                                                           [](std::size_t) { return 42; }, env)))
                    << "constant";

                std::vector<int> source(n);
                for (std::size_t i = 0; i < n; ++i) source[i] = scatter(i);
                const auto d_source = SC::DeviceBuffer<int>::from_host(source.data(), n);
                ASSERT_TRUE((sortsLikeStableSort<int, long long>(keys, static_cast<const int *>(d_source.get()),
                                                                 [&](std::size_t i) { return source[i]; }, env)))
                    << "ints into long longs";
            }
}

// thrust::device_ptr values (of const and mutable items) unwrap to the pointer path and sort like
// the raw pointer does.
TEST_F(GpuRadixIterators, DevicePointerValues) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<int>(tuning)) {
            SCOPED_TRACE(traceOf(n, tuning, "device_ptr"));
            const SC::CallEnvironment env = testEnv(tuning);
            const std::vector<int> keys = integerKeys<int>(n, Shape::Scattered, 41u + static_cast<std::uint32_t>(n));
            std::vector<float> values(n);
            for (std::size_t i = 0; i < n; ++i) values[i] = HalfOf{}(Scatter{}(static_cast<int>(i)));
            auto d_values = SC::DeviceBuffer<float>::from_host(values.data(), n);
            const auto value_of = [&](std::size_t i) { return values[i]; };
            ASSERT_TRUE((sortsLikeStableSort<int, float>(keys, static_cast<const float *>(d_values.get()), value_of,
                                                         env)))
                << "pointer";
            ASSERT_TRUE((sortsLikeStableSort<int, float>(keys, thrust::device_ptr<float>(d_values.get()), value_of,
                                                         env)))
                << "device_ptr<float>";
            ASSERT_TRUE((sortsLikeStableSort<int, float>(keys, thrust::device_ptr<const float>(d_values.get()),
                                                         value_of, env, SC::RadixSortOrder{true})))
                << "device_ptr<const float>, descending";
        }
}

// The allocating overload, on a stream of its own, at both block sizes: counting and device_ptr
// values; its result is the caller-storage overload's.
TEST_F(GpuRadixIterators, AllocatingOverloadWithACallEnvironment) {
    const Stream stream;
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizesFor<int>(tuning)) {
            SCOPED_TRACE(traceOf(n, tuning, "allocating"));
            const SC::CallEnvironment env = testEnv(stream.get(), tuning);
            const std::vector<int> keys = integerKeys<int>(n, Shape::Scattered, 43u + static_cast<std::uint32_t>(n));
            const std::vector<std::size_t> positions = stableOrder(keys, SC::RadixSortOrder{});
            std::vector<int> expected_keys(n), expected_order(n);
            for (std::size_t j = 0; j < n; ++j) {
                expected_keys[j] = keys[positions[j]];
                expected_order[j] = static_cast<int>(positions[j]);
            }
            const auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
            SC::DeviceBuffer<int> d_keys_out(n), d_order(n), d_order_again(n);
            d_keys_out.fill_bytes(kPoisonByte);
            d_order.fill_bytes(kPoisonByte);
            SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), thrust::counting_iterator<int>(0), d_order.get(), n,
                                 env);
            SC_CUDA_CHECK(cudaStreamSynchronize(stream));
            ASSERT_TRUE(sameElements(download(d_keys_out.get(), n), expected_keys, "keys"));
            ASSERT_TRUE(sameElements(download(d_order.get(), n), expected_order, "argsort"));

            // The order just computed as values again, through a device_ptr: the pointer path.
            d_keys_out.fill_bytes(kPoisonByte);
            d_order_again.fill_bytes(kPoisonByte);
            SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), thrust::device_ptr<int>(d_order.get()),
                                 d_order_again.get(), n, env);
            SC_CUDA_CHECK(cudaStreamSynchronize(stream));
            std::vector<int> expected_again(n);
            for (std::size_t j = 0; j < n; ++j) expected_again[j] = expected_order[positions[j]];
            ASSERT_TRUE(sameElements(download(d_order_again.get(), n), expected_again, "device_ptr values"));
        }
}

// The sort of several portions (each digit pass in more than one launch, chained through the bin
// offsets), reached with a small portion size through the dispatch: every portion's first pass reads
// the counting iterator.
TEST_F(GpuRadixIterators, ArgsortOverSeveralPortions) {
    for (const SC::Tuning &tuning : tunings()) {
        const std::size_t tile = tileItems<int>(tuning);
        const std::size_t n = 10 * tile + 7;
        for (const std::size_t portion_keys : {tile, 3 * tile + 5})
            for (const Shape shape : {Shape::Scattered, Shape::SecondDigit, Shape::AllEqual}) {
                SCOPED_TRACE(traceOf(n, tuning, std::string(shapeName(shape)) + ", portion " +
                                                    std::to_string(portion_keys)));
                const SC::CallEnvironment env = testEnv(tuning);
                const std::vector<int> keys = integerKeys<int>(n, shape, 47u);
                const auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
                SC::DeviceBuffer<int> d_keys_out(n), d_order(n);
                SC::DeviceBuffer<char> d_temp(
                    SC::detail::radix_temp_bytes<int, std::uint32_t>(n, portion_keys, tuning));
                d_keys_out.fill_bytes(kPoisonByte);
                d_order.fill_bytes(kPoisonByte);
                d_temp.fill_bytes(kPoisonByte);
                SC::detail::radix_sort<int, std::uint32_t>(
                    "radix_sort_pairs", d_keys.get(), d_keys_out.get(),
                    SC::detail::radix_values_input<int>(thrust::counting_iterator<int>(0)),
                    reinterpret_cast<std::uint32_t *>(d_order.get()), n, d_temp.get(), d_temp.bytes(), env,
                    portion_keys);
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                const std::vector<std::size_t> positions = stableOrder(keys, SC::RadixSortOrder{});
                std::vector<int> expected_keys(n), expected_order(n);
                for (std::size_t j = 0; j < n; ++j) {
                    expected_keys[j] = keys[positions[j]];
                    expected_order[j] = static_cast<int>(positions[j]);
                }
                ASSERT_TRUE(sameElements(download(d_keys_out.get(), n), expected_keys, "keys"));
                ASSERT_TRUE(sameElements(download(d_order.get(), n), expected_order, "argsort"));
            }
    }
}

// Iterator values cannot be checked, their output can: a null one, missing keys or too little
// storage are refused before any work, the outputs left as they were.
TEST_F(GpuRadixIterators, RefusesBadArgumentsBeforeAnyWork) {
    const std::size_t n = 1001;
    const std::vector<int> keys = integerKeys<int>(n, Shape::Scattered, 53u);
    const auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
    SC::DeviceBuffer<int> d_keys_out(n), d_order(n);
    const std::size_t bytes = SC::radix_sort_temp_bytes<int, int>(n);
    SC::DeviceBuffer<char> d_temp(bytes);
    d_keys_out.fill_bytes(kPoisonByte);
    d_order.fill_bytes(kPoisonByte);
    const thrust::counting_iterator<int> indices(0);
    int *const no_values = nullptr;
    EXPECT_THROW(SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), indices, no_values, n, d_temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), indices, no_values, n), std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_pairs(static_cast<const int *>(nullptr), d_keys_out.get(), indices, d_order.get(), n,
                                      d_temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), indices, d_order.get(), n, d_temp.get(),
                                      bytes - 1),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_pairs(d_keys.get(), d_keys.get(), indices, d_order.get(), n, d_temp.get(), bytes),
                 std::invalid_argument)
        << "keys out over keys in";
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(stillPoisoned(d_keys_out.get(), d_keys_out.bytes()));
    EXPECT_TRUE(stillPoisoned(d_order.get(), d_order.bytes()));
}

// An argsort (counting values) and a sort carrying values transformed from device memory, captured
// once with temporary storage at odd addresses and replayed on new keys and new source values
// written between replays; the keys of each replay take a different plan of passes (every pass,
// the lowest digit's alone, the forced last one), decided on the device at replay.
TEST_F(GpuRadixIterators, ArgsortReplaysInAGraphOnNewKeysWithStorageAtAnOddAddress) {
    const std::size_t n = (std::size_t{1} << 20) + 1;
    const Stream stream;
    const SC::CallEnvironment env = testEnv(stream.get());
    SC::DeviceBuffer<int> d_keys(n), d_keys_out(n), d_order(n), d_keys_out_again(n), d_source(n);
    SC::DeviceBuffer<long long> d_tripled(n);
    const std::size_t order_bytes = SC::radix_sort_temp_bytes<int, int>(n, env);
    const std::size_t tripled_bytes = SC::radix_sort_temp_bytes<int, long long>(n, env);
    SC::DeviceBuffer<char> d_temp(order_bytes + tripled_bytes + 3);
    char *const temp = d_temp.get() + 3;  // both calls' storage at odd addresses, not shared
    const auto tripled = thrust::make_transform_iterator(static_cast<const int *>(d_source.get()), TimesThree{});
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        const SC::CallEnvironment captured = testEnv(s);
        SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), thrust::counting_iterator<int>(0), d_order.get(), n, temp,
                             order_bytes, captured);
        SC::radix_sort_pairs(d_keys.get(), d_keys_out_again.get(), tripled, d_tripled.get(), n, temp + order_bytes,
                             tripled_bytes, captured);
    });
    const Shape shapes[] = {Shape::Scattered, Shape::LowDigit, Shape::AllEqual};
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay) + ", " + shapeName(shapes[replay]));
        const std::vector<int> keys = integerKeys<int>(n, shapes[replay], 59u + static_cast<std::uint32_t>(replay));
        std::vector<int> source(n);
        for (std::size_t i = 0; i < n; ++i) source[i] = Scatter{}(static_cast<int>(i) + replay);
        SC_CUDA_CHECK(cudaMemcpy(d_keys.get(), keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        SC_CUDA_CHECK(cudaMemcpy(d_source.get(), source.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        d_keys_out.fill_bytes(kPoisonByte);
        d_keys_out_again.fill_bytes(kPoisonByte);
        d_order.fill_bytes(kPoisonByte);
        d_tripled.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        const std::vector<std::size_t> positions = stableOrder(keys, SC::RadixSortOrder{});
        std::vector<int> expected_keys(n), expected_order(n);
        std::vector<long long> expected_tripled(n);
        for (std::size_t j = 0; j < n; ++j) {
            expected_keys[j] = keys[positions[j]];
            expected_order[j] = static_cast<int>(positions[j]);
            expected_tripled[j] = TimesThree{}(source[positions[j]]);
        }
        ASSERT_TRUE(sameElements(download(d_keys_out.get(), n), expected_keys, "argsort's keys"));
        ASSERT_TRUE(sameElements(download(d_order.get(), n), expected_order, "argsort"));
        ASSERT_TRUE(sameElements(download(d_keys_out_again.get(), n), expected_keys, "keys"));
        ASSERT_TRUE(sameElements(download(d_tripled.get(), n), expected_tripled, "transformed values"));
    }
}
