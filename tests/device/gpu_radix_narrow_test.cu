// The radix sort of narrow keys and values (radix_sort.cuh): keys of 1 and 2 bytes (int8_t,
// uint8_t, int16_t, uint16_t, __half, __nv_bfloat16) and values of 1 and 2 bytes with keys of every
// width, against std::stable_sort in the documented order (NaNs included): every shape, tile
// boundaries, block sizes, several portions, descending and bit ranges, an argsort, poisoned
// outputs and storage, graph capture and replay with storage at odd addresses. Compiled with
// PyTorch's flags (no __half operators or implicit conversions; tests/CMakeLists.txt): the sort
// must not need them.
#include <gtest/gtest.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/half_precision.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "gpu_test_util.h"
#include "reference.h"
#include "robustness_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

constexpr int kPoisonByte = 0xA5;

// The unsigned integer of T's width (the test's own, not the library's).
template <class T>
using BitsOf = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
BitsOf<T> bitsOf(T x) {
    BitsOf<T> bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}
template <class T>
T fromBits(BitsOf<T> bits) {
    T x;
    std::memcpy(static_cast<void *>(&x), &bits, sizeof x);
    return x;
}
template <class T>
BitsOf<T> randomBits(std::mt19937 &rng) {
    return static_cast<BitsOf<T>>(std::uint64_t{rng()} << 32 | rng());
}

template <class T>
constexpr bool kFloatKey = SC::is_half_precision_v<T> || std::is_floating_point_v<T>;

// A floating-point key's value, by CUDA's conversion (not the sort's map of bits).
template <class T>
double valueOf(T x) {
    if constexpr (std::is_same_v<T, __half>) return __half2float(x);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(x);
    else return x;
}

// The order radix_sort.cuh documents: integers by value; floating-point keys by value, -0.0 equal to
// +0.0, NaNs with the sign bit set before everything (larger bits first) and with it clear after
// everything (by their bits).
template <class Key>
bool documentedLess(Key a, Key b) {
    if constexpr (!kFloatKey<Key>) {
        return a < b;
    } else {
        const auto nan_rank = [](Key k) {
            if (!std::isnan(valueOf(k))) return 0;
            return (bitsOf(k) >> (sizeof(Key) * 8 - 1)) != 0 ? -1 : 1;
        };
        const int ra = nan_rank(a), rb = nan_rank(b);
        if (ra != rb) return ra < rb;
        if (ra == 0) return valueOf(a) < valueOf(b);
        return ra < 0 ? bitsOf(a) > bitsOf(b) : bitsOf(a) < bitsOf(b);
    }
}

// The key's order-preserving image, as radix_sort_order.h defines it: what a bit range refers to.
template <class Key>
BitsOf<Key> orderedImage(Key key) {
    using B = BitsOf<Key>;
    const B bits = bitsOf(key), sign = static_cast<B>(B{1} << (sizeof(Key) * 8 - 1));
    if constexpr (std::is_unsigned_v<Key>) return bits;
    if constexpr (std::is_integral_v<Key>) return static_cast<B>(bits ^ sign);
    const B zeroed = bits == sign ? B{0} : bits;  // -0.0 as +0.0
    return static_cast<B>((zeroed & sign) ? ~zeroed : zeroed | sign);
}

enum class Shape { AnyBits, AllEqual, FewDistinct, Sorted, Reversed, LowBits };
const Shape kShapes[] = {Shape::AnyBits, Shape::AllEqual, Shape::FewDistinct,
                         Shape::Sorted,  Shape::Reversed, Shape::LowBits};

const char *shapeName(Shape shape) {
    switch (shape) {
    case Shape::AnyBits: return "any bits";
    case Shape::AllEqual: return "all equal";
    case Shape::FewDistinct: return "5 distinct";
    case Shape::Sorted: return "sorted";
    case Shape::Reversed: return "reverse sorted";
    case Shape::LowBits: return "low 4 bits random";
    }
    return "?";
}

// Keys of every bit pattern (NaNs, infinities and both zeros among the floating-point ones); LowBits:
// the upper bits one pattern for all keys, so that a 16-bit key's upper digit pass is skipped.
template <class Key>
std::vector<Key> makeKeys(std::size_t n, Shape shape, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const auto any = [&] { return fromBits<Key>(randomBits<Key>(rng)); };
    std::vector<Key> keys(n);
    switch (shape) {
    case Shape::AnyBits:
    case Shape::Sorted:
    case Shape::Reversed:
        for (Key &k : keys) k = any();
        if (shape == Shape::Sorted) std::stable_sort(keys.begin(), keys.end(), documentedLess<Key>);
        if (shape == Shape::Reversed)
            std::stable_sort(keys.begin(), keys.end(), [](Key a, Key b) { return documentedLess(b, a); });
        break;
    case Shape::AllEqual: std::fill(keys.begin(), keys.end(), any()); break;
    case Shape::FewDistinct: {
        Key pool[5];
        for (Key &k : pool) k = any();
        for (Key &k : keys) k = pool[rng() % 5];
        break;
    }
    case Shape::LowBits: {
        using B = BitsOf<Key>;
        const B high = static_cast<B>(randomBits<Key>(rng) & ~B{0xf});
        for (Key &k : keys) k = fromBits<Key>(static_cast<B>(high | (rng() & 0xf)));
        break;
    }
    }
    if constexpr (std::is_integral_v<Key>) {  // the extremes, somewhere inside
        if (shape == Shape::AnyBits && n >= 3) {
            keys[n / 3] = std::numeric_limits<Key>::max();
            keys[n / 2] = std::numeric_limits<Key>::min();
        }
    }
    return keys;
}

// Values that tell equal keys apart: indices (modulo the type's 2^16 patterns) for 2-byte values
// and wider, random bytes for 1-byte ones (a swap of equal keys shows wherever their bytes differ).
template <class Value>
std::vector<Value> makeValues(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Value> values(n);
    for (std::size_t i = 0; i < n; ++i)
        values[i] = fromBits<Value>(static_cast<BitsOf<Value>>(sizeof(Value) == 1 ? rng() : i));
    return values;
}

// The reference's comparison for `order`: the documented order (reversed when descending) on the
// full width, the compared bits of the images on a range.
template <class Key>
auto referenceLess(const SC::RadixSortOrder &order) {
    const bool full = order.begin_bit == 0 && (order.end_bit == SC::RadixSortOrder::kKeyWidth ||
                                               order.end_bit == static_cast<int>(sizeof(Key) * 8));
    const auto mask = static_cast<BitsOf<Key>>(SC::radix_compared_bits(order, "test", int(sizeof(Key)) * 8));
    const bool descending = order.descending;
    return [=](Key a, Key b) {
        if (descending) std::swap(a, b);
        if (full) return documentedLess(a, b);
        return (orderedImage(a) & mask) < (orderedImage(b) & mask);
    };
}

template <class T>
std::string hexOf(T x) {
    std::ostringstream out;
    out << "0x" << std::hex << static_cast<std::uint64_t>(bitsOf(x));
    return out.str();
}

// Bit for bit as expected, or the first difference.
template <class T>
::testing::AssertionResult sameBits(const char *what, const std::vector<T> &got, const std::vector<T> &expected) {
    if (got.size() != expected.size()) return ::testing::AssertionFailure() << what << ": sizes differ";
    for (std::size_t i = 0; i < got.size(); ++i)
        if (bitsOf(got[i]) != bitsOf(expected[i]))
            return ::testing::AssertionFailure() << what << " " << i << ": got " << hexOf(got[i]) << ", expected "
                                                 << hexOf(expected[i]);
    return ::testing::AssertionSuccess();
}

// Sorts on the GPU from poisoned outputs and storage, keys alone when `values` is empty: through the
// public API with caller-provided storage, or (max_portion_keys > 0) the dispatch's sort of several
// portions, each digit pass in more than one launch.
template <class Key, class Value>
void gpuSort(const std::vector<Key> &keys, const std::vector<Value> &values, std::vector<Key> &got_keys,
             std::vector<Value> &got_values, const SC::RadixSortOrder &order = {}, const SC::Tuning &tuning = {},
             std::size_t max_portion_keys = 0) {
    const std::size_t n = keys.size();
    const bool pairs = !values.empty();
    const SC::CallEnvironment env{nullptr, tuning};
    DeviceBuffer<Key> d_keys = DeviceBuffer<Key>::from_host(keys.data(), n), d_keys_out(n);
    DeviceBuffer<Value> d_values = DeviceBuffer<Value>::from_host(values.data(), values.size());
    DeviceBuffer<Value> d_values_out(values.size());
    d_keys_out.fill_bytes(kPoisonByte);
    d_values_out.fill_bytes(kPoisonByte);
    using ValueBits = BitsOf<Value>;
    const std::size_t bytes =
        max_portion_keys > 0 ? SC::detail::radix_temp_bytes<Key, ValueBits>(n, max_portion_keys, tuning)
        : pairs              ? SC::radix_sort_temp_bytes<Key, Value>(n, env)
                             : SC::radix_sort_temp_bytes<Key>(n, env);
    DeviceBuffer<char> temp(bytes);
    temp.fill_bytes(kPoisonByte);
    if (max_portion_keys > 0) {
        SC::detail::radix_sort<Key, ValueBits>(
            "radix_sort_pairs", d_keys.get(), d_keys_out.get(), reinterpret_cast<const ValueBits *>(d_values.get()),
            reinterpret_cast<ValueBits *>(d_values_out.get()), n, temp.get(), bytes, env, max_portion_keys,
            SC::detail::radix_order<Key>(order, "radix_sort_pairs"));
    } else if (pairs) {
        SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(), n, temp.get(), bytes,
                             order, env);
    } else {
        SC::radix_sort_keys(d_keys.get(), d_keys_out.get(), n, temp.get(), bytes, order, env);
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    got_keys.assign(n, Key{});
    got_values.assign(values.size(), Value{});
    d_keys_out.copy_to_host(got_keys.data(), n);
    d_values_out.copy_to_host(got_values.data(), values.size());
}

template <class Key, class Value = int>
::testing::AssertionResult sortsAsDocumented(const std::vector<Key> &keys, bool pairs,
                                             const SC::RadixSortOrder &order = {}, const SC::Tuning &tuning = {},
                                             std::size_t max_portion_keys = 0) {
    std::vector<Key> expected_keys = keys;
    std::vector<Value> expected_values = pairs ? makeValues<Value>(keys.size(), freshSeed()) : std::vector<Value>{};
    const std::vector<Value> values = expected_values;
    referenceSort(expected_keys, expected_values, referenceLess<Key>(order));
    std::vector<Key> got_keys;
    std::vector<Value> got_values;
    gpuSort(keys, values, got_keys, got_values, order, tuning, max_portion_keys);
    const ::testing::AssertionResult same_keys = sameBits("key", got_keys, expected_keys);
    return same_keys ? sameBits("value", got_values, expected_values) : same_keys;
}

template <class Key>
std::size_t tileItems(const SC::Tuning &tuning = {}) {
    return std::size_t(SC::radix_threads_asked(tuning)) * SC::kRadixItemsPerThread<Key>;
}

template <class Key>
void checkEveryShape() {
    const std::size_t tile = tileItems<Key>();
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{33}, std::size_t{1000},
                                tile - 1, tile, tile + 1, 5 * tile + 7}) {
        for (const Shape shape : kShapes) {
            for (const bool pairs : {false, true}) {
                const std::uint32_t seed = freshSeed();
                SCOPED_TRACE("n = " + std::to_string(n) + ", " + shapeName(shape) + (pairs ? ", pairs" : ", keys") +
                             ", seed " + std::to_string(seed));
                ASSERT_TRUE(sortsAsDocumented(makeKeys<Key>(n, shape, seed), pairs));
            }
        }
    }
}

template <class Key, class Value>
void checkValues() {
    const std::size_t tile = tileItems<Key>();
    for (const std::size_t n : {std::size_t{1}, std::size_t{33}, tile + 1, 3 * tile - 5}) {
        for (const Shape shape : {Shape::AnyBits, Shape::AllEqual, Shape::FewDistinct}) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + shapeName(shape) + ", " + std::to_string(sizeof(Key)) +
                         "-byte keys, " + std::to_string(sizeof(Value)) + "-byte values, seed " + std::to_string(seed));
            ASSERT_TRUE((sortsAsDocumented<Key, Value>(makeKeys<Key>(n, shape, seed), true)));
        }
    }
}

template <class Key>
void checkOrders(const std::vector<SC::RadixSortOrder> &orders) {
    const std::size_t tile = tileItems<Key>();
    for (const SC::RadixSortOrder &order : orders) {
        SCOPED_TRACE(std::string(order.descending ? "descending" : "ascending") + " on bits [" +
                     std::to_string(order.begin_bit) + ", " + std::to_string(order.end_bit) + ")");
        for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, tile + 1, 3 * tile - 5}) {
            for (const Shape shape : {Shape::AnyBits, Shape::FewDistinct}) {
                const std::uint32_t seed = freshSeed();
                SCOPED_TRACE("n = " + std::to_string(n) + ", " + shapeName(shape) + ", seed " + std::to_string(seed));
                ASSERT_TRUE(sortsAsDocumented(makeKeys<Key>(n, shape, seed), n % 2 == 1, order));
            }
        }
    }
}

class GpuRadixNarrow : public GpuTest {};

}  // namespace

TEST_F(GpuRadixNarrow, EveryKeyTypeShapeAndTileBoundary) {
    checkEveryShape<std::int8_t>();
    checkEveryShape<std::uint8_t>();
    checkEveryShape<std::int16_t>();
    checkEveryShape<std::uint16_t>();
    checkEveryShape<__half>();
    checkEveryShape<__nv_bfloat16>();
}

// 1- and 2-byte values (integers, __half, __nv_bfloat16) travel with keys of every width, and
// 16-bit keys carry 8-byte values.
TEST_F(GpuRadixNarrow, NarrowValuesWithKeysOfEveryWidth) {
    checkValues<std::uint8_t, std::uint8_t>();
    checkValues<std::int16_t, std::int16_t>();
    checkValues<__half, __nv_bfloat16>();
    checkValues<__nv_bfloat16, std::int64_t>();
    checkValues<int, __half>();
    checkValues<float, std::uint8_t>();
    checkValues<std::int64_t, std::int16_t>();
    checkValues<double, __half>();
}

TEST_F(GpuRadixNarrow, EveryBlockSize) {
    for (const int threads : {32, 128, 256, 512}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::radix, threads);
        const std::size_t tile = tileItems<__half>(tuning);
        for (const std::size_t n : {tile - 1, tile + 1, 4 * tile + 3}) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n) + ", seed " +
                         std::to_string(seed));
            ASSERT_TRUE(
                (sortsAsDocumented<__half, __half>(makeKeys<__half>(n, Shape::AnyBits, seed), true, {}, tuning)));
            ASSERT_TRUE((sortsAsDocumented<std::uint8_t, std::uint8_t>(makeKeys<std::uint8_t>(n, Shape::AnyBits, seed),
                                                                       true, {}, tuning)));
        }
    }
}

TEST_F(GpuRadixNarrow, SeveralPortions) {
    const std::size_t tile = tileItems<std::int16_t>();
    for (const SC::RadixSortOrder order : {SC::RadixSortOrder{}, SC::RadixSortOrder{true}}) {
        const std::uint32_t seed = freshSeed();
        SCOPED_TRACE(std::string(order.descending ? "descending" : "ascending") + ", seed " + std::to_string(seed));
        ASSERT_TRUE((sortsAsDocumented<std::int16_t, int>(makeKeys<std::int16_t>(5 * tile + 7, Shape::AnyBits, seed),
                                                          true, order, {}, tile)));
        ASSERT_TRUE((sortsAsDocumented<__nv_bfloat16, std::uint8_t>(
            makeKeys<__nv_bfloat16>(5 * tile + 7, Shape::FewDistinct, seed), true, order, {}, 2 * tile)));
    }
}

// Descending, and on part of each key, keys alone and pairs; a range past the key's width is
// refused before any work.
TEST_F(GpuRadixNarrow, DescendingAndBitRanges) {
    checkOrders<std::int8_t>({{true}, {false, 0, 4}, {true, 2, 6}, {false, 7, 8}, {false, 3, 3}});
    checkOrders<std::uint16_t>({{true}, {false, 0, 8}, {true, 4, 12}, {false, 8, 16}, {false, 15, 16}, {true, 0, 0}});
    checkOrders<__half>({{true}, {false, 0, 10}, {true, 10, 16}, {false, 5, 13}});
    checkOrders<__nv_bfloat16>({{true}, {false, 8, 16}});

    const std::size_t n = 100;
    DeviceBuffer<__half> keys(n), sorted(n);
    DeviceBuffer<std::int8_t> small_keys(n), small_sorted(n);
    sorted.fill_bytes(kPoisonByte);
    small_sorted.fill_bytes(kPoisonByte);
    const std::size_t bytes = SC::radix_sort_temp_bytes<__half, __half>(n);
    DeviceBuffer<char> temp(bytes);
    EXPECT_THROW(SC::radix_sort_keys(keys.get(), sorted.get(), n, temp.get(), bytes, SC::RadixSortOrder{false, 0, 17}),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_pairs(keys.get(), sorted.get(), keys.get(), sorted.get(), n, temp.get(), bytes,
                                      SC::RadixSortOrder{true, 16, 32}),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys(small_keys.get(), small_sorted.get(), n, temp.get(), bytes,
                                     SC::RadixSortOrder{false, 0, 9}),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> untouched(n * sizeof(__half) + n);
    SC_CUDA_CHECK(cudaMemcpy(untouched.data(), sorted.get(), n * sizeof(__half), cudaMemcpyDeviceToHost));
    SC_CUDA_CHECK(cudaMemcpy(untouched.data() + n * sizeof(__half), small_sorted.get(), n, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(std::all_of(untouched.begin(), untouched.end(), [](unsigned char b) { return b == kPoisonByte; }))
        << "a rejected call wrote an output";
}

// An argsort of 16-bit float keys (a counting iterator as values), and the sorts that allocate
// their own storage.
TEST_F(GpuRadixNarrow, ArgsortAndManagedStorage) {
    const std::size_t n = 3 * tileItems<__half>() + 1;
    const std::vector<__half> keys = makeKeys<__half>(n, Shape::AnyBits, freshSeed());
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return documentedLess(keys[a], keys[b]); });
    std::vector<int> expected_order(order.begin(), order.end());
    std::vector<__half> expected_keys(n);
    for (std::size_t i = 0; i < n; ++i) expected_keys[i] = keys[order[i]];

    DeviceBuffer<__half> d_keys = DeviceBuffer<__half>::from_host(keys.data(), n), d_sorted(n);
    DeviceBuffer<int> d_order(n);
    d_sorted.fill_bytes(kPoisonByte);
    d_order.fill_bytes(kPoisonByte);
    const std::size_t bytes = SC::radix_sort_temp_bytes<__half, int>(n);
    DeviceBuffer<char> temp(bytes);
    temp.fill_bytes(kPoisonByte);
    SC::radix_sort_pairs(d_keys.get(), d_sorted.get(), thrust::counting_iterator<int>(0), d_order.get(), n, temp.get(),
                         bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<__half> got_keys(n);
    std::vector<int> got_order(n);
    d_sorted.copy_to_host(got_keys.data(), n);
    d_order.copy_to_host(got_order.data(), n);
    EXPECT_TRUE(sameBits("key", got_keys, expected_keys));
    EXPECT_EQ(got_order, expected_order);

    // Storage managed by the sort: keys alone, and pairs of 1-byte values.
    const std::vector<std::uint8_t> values = makeValues<std::uint8_t>(n, freshSeed());
    std::vector<std::uint8_t> expected_values(n);
    for (std::size_t i = 0; i < n; ++i) expected_values[i] = values[order[i]];
    DeviceBuffer<std::uint8_t> d_values = DeviceBuffer<std::uint8_t>::from_host(values.data(), n), d_moved(n);
    d_sorted.fill_bytes(kPoisonByte);
    d_moved.fill_bytes(kPoisonByte);
    SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    d_sorted.copy_to_host(got_keys.data(), n);
    EXPECT_TRUE(sameBits("key", got_keys, expected_keys));
    SC::radix_sort_pairs(d_keys.get(), d_sorted.get(), d_values.get(), d_moved.get(), n);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::uint8_t> got_values(n);
    d_moved.copy_to_host(got_values.data(), n);
    EXPECT_TRUE(sameBits("value", got_values, expected_values));
    EXPECT_EQ(SC::radix_sort_temp_bytes<__nv_bfloat16>(0), 0u);
    EXPECT_NO_THROW(SC::radix_sort_keys<std::int8_t>(nullptr, nullptr, 0));
}

// A sort of __half keys carrying 1-byte values and a descending keys-only sort of 8-bit keys,
// captured once in a CUDA graph with their temporary storage at odd addresses, replayed on new
// inputs of other shapes (the device's plan of digit passes differs from replay to replay).
TEST_F(GpuRadixNarrow, SortsReplayInAGraphOnNewInputsWithStorageAtAnOddAddress) {
    const std::size_t n = 3 * tileItems<__half>() + 5;
    const robustness::Stream stream;
    DeviceBuffer<__half> d_keys(n), d_sorted(n);
    DeviceBuffer<std::uint8_t> d_values(n), d_moved(n), d_small(n), d_small_sorted(n);
    const SC::RadixSortOrder descending{true};
    const std::size_t pair_bytes = SC::radix_sort_temp_bytes<__half, std::uint8_t>(n);
    const std::size_t small_bytes = SC::radix_sort_temp_bytes<std::uint8_t>(n);
    DeviceBuffer<char> d_temp(pair_bytes + small_bytes + 3);
    char *const pair_temp = d_temp.get() + 1;
    char *small_temp = pair_temp + pair_bytes;
    if (reinterpret_cast<std::uintptr_t>(small_temp) % 2 == 0) ++small_temp;
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(pair_temp) % 2, 1u);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(small_temp) % 2, 1u);
    const robustness::GraphExec graph = robustness::captureGraph(stream, [&](cudaStream_t s) {
        SC::radix_sort_pairs(d_keys.get(), d_sorted.get(), d_values.get(), d_moved.get(), n, pair_temp, pair_bytes, s);
        SC::radix_sort_keys(d_small.get(), d_small_sorted.get(), n, small_temp, small_bytes, descending, s);
    });
    const Shape shapes[] = {Shape::AnyBits, Shape::LowBits, Shape::AllEqual};
    for (int replay = 0; replay < 3; ++replay) {
        const std::uint32_t seed = freshSeed();
        SCOPED_TRACE("replay " + std::to_string(replay) + ", " + shapeName(shapes[replay]) + ", seed " +
                     std::to_string(seed));
        const std::vector<__half> keys = makeKeys<__half>(n, shapes[replay], seed);
        const std::vector<std::uint8_t> values = makeValues<std::uint8_t>(n, seed + 1);
        const std::vector<std::uint8_t> small = makeKeys<std::uint8_t>(n, shapes[replay], seed + 2);
        SC_CUDA_CHECK(cudaMemcpy(d_keys.get(), keys.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
        SC_CUDA_CHECK(cudaMemcpy(d_values.get(), values.data(), n, cudaMemcpyHostToDevice));
        SC_CUDA_CHECK(cudaMemcpy(d_small.get(), small.data(), n, cudaMemcpyHostToDevice));
        for (DeviceBuffer<std::uint8_t> *out : {&d_moved, &d_small_sorted}) out->fill_bytes(kPoisonByte);
        d_sorted.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        std::vector<__half> expected_keys = keys;
        std::vector<std::uint8_t> expected_values = values, expected_small = small, no_values;
        referenceSort(expected_keys, expected_values, referenceLess<__half>({}));
        referenceSort(expected_small, no_values, referenceLess<std::uint8_t>(descending));
        std::vector<__half> got_keys(n);
        std::vector<std::uint8_t> got_values(n), got_small(n);
        d_sorted.copy_to_host(got_keys.data(), n);
        d_moved.copy_to_host(got_values.data(), n);
        d_small_sorted.copy_to_host(got_small.data(), n);
        ASSERT_TRUE(sameBits("key", got_keys, expected_keys));
        ASSERT_TRUE(sameBits("value", got_values, expected_values));
        ASSERT_TRUE(sameBits("8-bit key", got_small, expected_small));
    }
}
