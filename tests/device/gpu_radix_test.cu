// The radix sorts (radix_sort.cuh, radix.h) against std::stable_sort: every key and value type,
// every input shape, tile boundaries, several block sizes, the multi-portion path, garbage and
// reused temporary storage, bad arguments; at large sizes, 2^31 + 1 keys. Speed: sc_nvbench_radix_sort.
#include <gtest/gtest.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/radix.h>
#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/tuning/block_sizes.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

constexpr int kPoisonByte = 0xA5;

enum class Shape { Uniform, AllEqual, FewDistinct, Sorted, Reversed, Low8, Low16 };
const Shape kShapes[] = {Shape::Uniform, Shape::AllEqual, Shape::FewDistinct, Shape::Sorted,
                         Shape::Reversed, Shape::Low8,    Shape::Low16};

const char *shapeName(Shape shape) {
    switch (shape) {
    case Shape::Uniform: return "uniform";
    case Shape::AllEqual: return "all equal";
    case Shape::FewDistinct: return "16 distinct";
    case Shape::Sorted: return "sorted";
    case Shape::Reversed: return "reverse sorted";
    case Shape::Low8: return "low 8 bits random";
    case Shape::Low16: return "low 16 bits random";
    }
    return "?";
}

// The unsigned integer of a key's width.
template <class Key>
using KeyBits = std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>;

template <class Key>
Key fromBits(KeyBits<Key> bits) {
    Key key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
}

template <class Key>
KeyBits<Key> toBits(Key key) {
    KeyBits<Key> bits;
    std::memcpy(&bits, &key, sizeof bits);
    return bits;
}

template <class Key>
KeyBits<Key> randomBits(std::mt19937 &rng) {
    if constexpr (sizeof(Key) == 4) return rng();
    else return std::uint64_t{rng()} << 32 | rng();
}

// The sign bit and the exponent bits of a float or double.
template <class Key>
constexpr KeyBits<Key> kSignBit = KeyBits<Key>{1} << (sizeof(Key) * 8 - 1);
template <class Key>
constexpr KeyBits<Key> kExponentBits = static_cast<KeyBits<Key>>(sizeof(Key) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);

// Any key of the type: every bit pattern for integers; for floats and doubles every finite value,
// the infinities and both zeros, but no NaN (std::stable_sort's operator< needs an order).
template <class Key>
Key anyKey(std::mt19937 &rng) {
    if constexpr (std::is_floating_point_v<Key>) {
        switch (rng() % 64) {
        case 0: return -Key(0);
        case 1: return Key(0);
        case 2: return std::numeric_limits<Key>::infinity();
        case 3: return -std::numeric_limits<Key>::infinity();
        default: {
            KeyBits<Key> bits = randomBits<Key>(rng);
            while ((bits & kExponentBits<Key>) == kExponentBits<Key>) bits = randomBits<Key>(rng);  // no NaN or inf
            return fromBits<Key>(bits);
        }
        }
    } else {
        return fromBits<Key>(randomBits<Key>(rng));
    }
}

// The inputs every sort is checked on. Low8/Low16: the upper bits are one random pattern for all
// keys (a negative one for int half of the time), so the upper digit passes are skipped.
template <class Key>
std::vector<Key> makeKeys(std::size_t n, Shape shape, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Key> keys(n);
    switch (shape) {
    case Shape::Uniform:
    case Shape::Sorted:
    case Shape::Reversed:
        for (Key &k : keys) k = anyKey<Key>(rng);
        if (shape == Shape::Sorted) std::sort(keys.begin(), keys.end());
        if (shape == Shape::Reversed) std::sort(keys.begin(), keys.end(), [](Key a, Key b) { return b < a; });
        break;
    case Shape::AllEqual: std::fill(keys.begin(), keys.end(), anyKey<Key>(rng)); break;
    case Shape::FewDistinct: {
        Key pool[16];
        for (Key &k : pool) k = anyKey<Key>(rng);
        for (Key &k : keys) k = pool[rng() % 16];
        break;
    }
    case Shape::Low8:
    case Shape::Low16: {
        const KeyBits<Key> low_mask = shape == Shape::Low8 ? 0xffu : 0xffffu;
        KeyBits<Key> high = randomBits<Key>(rng) & ~low_mask;
        if constexpr (std::is_floating_point_v<Key>)  // finite: +-[1, 2)
            high = (high & ~kExponentBits<Key>) | toBits<Key>(Key(1));
        for (Key &k : keys) k = fromBits<Key>(high | (randomBits<Key>(rng) & low_mask));
        break;
    }
    }
    if constexpr (std::is_integral_v<Key>) {  // the extremes, somewhere inside
        if (shape == Shape::Uniform && n >= 3) {
            keys[n / 3] = std::numeric_limits<Key>::max();
            keys[n / 2] = std::numeric_limits<Key>::min();
        }
    }
    return keys;
}

// Values that name their key's input position, so the values check stability.
template <class Value>
std::vector<Value> indexValues(std::size_t n) {
    std::vector<Value> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<Value, std::int64_t>) values[i] = std::int64_t(i) - (std::int64_t(1) << 40);
        else values[i] = static_cast<Value>(i);
    }
    return values;
}

template <class T>
bool sameBits(const T &a, const T &b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The first position where got differs (bitwise) from expected, or -1.
template <class T>
long long firstDifference(const std::vector<T> &got, const std::vector<T> &expected) {
    if (got.size() != expected.size()) return 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!sameBits(got[i], expected[i])) return static_cast<long long>(i);
    return -1;
}

struct Less {
    template <class T>
    bool operator()(const T &a, const T &b) const { return a < b; }
};

// Sorts on the GPU through the caller-provided-storage API at `tuning`, from poisoned outputs and
// storage. `values` empty: keys only.
template <class Key, class Value>
void gpuSort(const std::vector<Key> &keys, const std::vector<Value> &values, std::vector<Key> &sorted_keys,
             std::vector<Value> &sorted_values, std::size_t max_portion_keys = SC::detail::kRadixMaxPortionKeys,
             const SC::Tuning &tuning = {}) {
    const std::size_t n = keys.size();
    const bool pairs = !values.empty();
    DeviceBuffer<Key> d_keys_in = DeviceBuffer<Key>::from_host(keys.data(), n), d_keys_out(n);
    DeviceBuffer<Value> d_values_in = DeviceBuffer<Value>::from_host(values.data(), values.size());
    DeviceBuffer<Value> d_values_out(values.size());
    d_keys_out.fill_bytes(kPoisonByte);
    d_values_out.fill_bytes(kPoisonByte);
    if (pairs) {
        using Bits = std::conditional_t<sizeof(Value) == 4, std::uint32_t, std::uint64_t>;
        DeviceBuffer<char> temp(SC::detail::radix_temp_bytes<Key, Bits>(n, max_portion_keys, tuning));
        temp.fill_bytes(kPoisonByte);
        SC::detail::radix_sort<Key, Bits>("radix_sort_pairs", d_keys_in.get(), d_keys_out.get(),
                                          reinterpret_cast<const Bits *>(d_values_in.get()),
                                          reinterpret_cast<Bits *>(d_values_out.get()), n, temp.get(), temp.bytes(),
                                          SC::CallEnvironment{nullptr, tuning}, max_portion_keys);
    } else {
        DeviceBuffer<char> temp(SC::detail::radix_temp_bytes<Key, SC::KeysOnly>(n, max_portion_keys, tuning));
        temp.fill_bytes(kPoisonByte);
        SC::detail::radix_sort<Key, SC::KeysOnly>("radix_sort_keys", d_keys_in.get(), d_keys_out.get(), nullptr,
                                                  nullptr, n, temp.get(), temp.bytes(),
                                                  SC::CallEnvironment{nullptr, tuning}, max_portion_keys);
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    sorted_keys.assign(n, Key{});
    sorted_values.assign(values.size(), Value{});
    d_keys_out.copy_to_host(sorted_keys.data(), n);
    d_values_out.copy_to_host(sorted_values.data(), values.size());
}

// Keys and values bit for bit as expected, or the first difference.
template <class Key, class Value>
::testing::AssertionResult sameSort(const std::vector<Key> &got_keys, const std::vector<Key> &expected_keys,
                                    const std::vector<Value> &got_values, const std::vector<Value> &expected_values) {
    if (const long long i = firstDifference(got_keys, expected_keys); i >= 0)
        return ::testing::AssertionFailure() << "key " << i << ": got " << got_keys[i] << ", expected "
                                             << expected_keys[i];
    if (const long long i = firstDifference(got_values, expected_values); i >= 0)
        return ::testing::AssertionFailure() << "value " << i << ": got " << got_values[i] << ", expected "
                                             << expected_values[i];
    return ::testing::AssertionSuccess();
}

template <class Key, class Value>
::testing::AssertionResult sortsLikeStableSort(const std::vector<Key> &keys, bool pairs,
                                               std::size_t max_portion_keys = SC::detail::kRadixMaxPortionKeys,
                                               const SC::Tuning &tuning = {}) {
    std::vector<Key> expected_keys = keys;
    std::vector<Value> expected_values = pairs ? indexValues<Value>(keys.size()) : std::vector<Value>{};
    const std::vector<Value> values = expected_values;
    referenceSort(expected_keys, expected_values, Less{});
    std::vector<Key> got_keys;
    std::vector<Value> got_values;
    gpuSort(keys, values, got_keys, got_values, max_portion_keys, tuning);
    return sameSort(got_keys, expected_keys, got_values, expected_values);
}

template <class Key, class Value>
void checkShapes(const std::vector<std::size_t> &sizes, const std::vector<Shape> &shapes, bool pairs,
                 const SC::Tuning &tuning = {}) {
    for (std::size_t n : sizes) {
        for (Shape shape : shapes) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + shapeName(shape) + ", seed " + std::to_string(seed));
            ASSERT_TRUE((sortsLikeStableSort<Key, Value>(makeKeys<Key>(n, shape, seed), pairs,
                                                         SC::detail::kRadixMaxPortionKeys, tuning)));
        }
    }
}

// A tile's keys at `tuning`'s radix block size: the items a thread takes depend on the key's width.
template <class Key = int>
std::size_t tileItems(const SC::Tuning &tuning = {}) {
    return std::size_t(SC::radix_threads_asked(tuning)) * SC::kRadixItemsPerThread<Key>;
}

// n = 0, 1, 2, a warp's worth and one more, around one tile, and several tiles with a ragged end.
template <class Key = int>
std::vector<std::size_t> radixSizes() {
    const std::size_t tile = tileItems<Key>();
    return {0, 1, 2, 33, 1000, tile - 1, tile, tile + 1, 5 * tile + 7};
}

class GpuRadix : public GpuTest {};

}  // namespace

TEST_F(GpuRadix, KeysOnlyEveryKeyTypeAndShape) {
    const std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
    checkShapes<int, int>(radixSizes(), shapes, false);
    checkShapes<unsigned, int>(radixSizes(), shapes, false);
    checkShapes<float, int>(radixSizes(), shapes, false);
}

TEST_F(GpuRadix, PairsAreStableForEveryValueType) {
    const std::vector<Shape> shapes = {Shape::Uniform, Shape::AllEqual, Shape::FewDistinct, Shape::Low8};
    const std::size_t tile = tileItems();
    const std::vector<std::size_t> sizes = {1, 33, tile + 1, 3 * tile - 5};
    checkShapes<int, int>(sizes, shapes, true);
    checkShapes<int, std::int64_t>(sizes, shapes, true);
    checkShapes<unsigned, float>(sizes, shapes, true);
    checkShapes<float, int>(sizes, shapes, true);
    checkShapes<float, float>(sizes, shapes, true);
    checkShapes<float, std::int64_t>(sizes, shapes, true);
    checkShapes<unsigned, std::int64_t>({tile - 1, 2 * tile}, {Shape::Sorted, Shape::Reversed, Shape::Low16}, true);
}

TEST_F(GpuRadix, EveryBlockSize) {
    for (int threads : {32, 128, 256, 512}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::radix, threads);
        SCOPED_TRACE("block size " + std::to_string(threads));
        const std::size_t tile = tileItems(tuning);
        checkShapes<int, int>({tile - 1, tile + 1, 4 * tile + 3}, {Shape::Uniform, Shape::FewDistinct, Shape::Low16},
                              false, tuning);
        checkShapes<float, std::int64_t>({2 * tile + 1}, {Shape::Uniform, Shape::FewDistinct}, true, tuning);
        const std::size_t wide_tile = tileItems<double>(tuning);
        checkShapes<double, int>({wide_tile - 1, wide_tile + 1, 3 * wide_tile + 5}, {Shape::Uniform, Shape::Low8}, true,
                                 tuning);
    }
    SC::set_block_size(1024);
    EXPECT_EQ(SC::block_sizes().radix, 512) << "set_block_size caps the course's radix block size";
    EXPECT_EQ(SC::course_tuning().radix, 512);

    // Over the register budget (1024) or not a multiple of 32 (48): refused by the size query and
    // by the call, before any work.
    const std::size_t n = 1000;
    DeviceBuffer<int> d_keys(n), d_sorted(n);
    d_sorted.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::radix_sort_temp_bytes<int>(n));
    for (const int threads : {1024, 48}) {
        SCOPED_TRACE("block size " + std::to_string(threads));
        const SC::CallEnvironment refused{nullptr, tuningWith(&SC::Tuning::radix, threads)};
        EXPECT_THROW(SC::radix_sort_temp_bytes<int>(n, refused), std::invalid_argument);
        EXPECT_THROW(SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n, temp.get(), temp.bytes(), refused),
                     std::invalid_argument);
        EXPECT_THROW(SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n, refused), std::invalid_argument);
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> untouched(n * sizeof(int));
    SC_CUDA_CHECK(cudaMemcpy(untouched.data(), d_sorted.get(), untouched.size(), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(std::all_of(untouched.begin(), untouched.end(), [](unsigned char b) { return b == kPoisonByte; }))
        << "a refused sort wrote its output";
}

// Portions of a few tiles: the bin offsets chain from launch to launch as past 2^30 keys.
TEST_F(GpuRadix, ManyPortions) {
    const std::size_t tile = tileItems();
    for (std::size_t portion_keys : {tile, 3 * tile, 3 * tile + 5}) {
        for (Shape shape : {Shape::Uniform, Shape::FewDistinct, Shape::Low8}) {
            const std::size_t n = 10 * tile + 17;
            SCOPED_TRACE("portion " + std::to_string(portion_keys) + ", " + shapeName(shape));
            ASSERT_TRUE((sortsLikeStableSort<int, int>(makeKeys<int>(n, shape, freshSeed()), false, portion_keys)));
            ASSERT_TRUE((sortsLikeStableSort<float, std::int64_t>(makeKeys<float>(n, shape, freshSeed()), true,
                                                                  portion_keys)));
        }
    }
}

TEST_F(GpuRadix, FloatZerosInfinitiesAndNaNs) {
    // -0.0 and +0.0 are equal keys: they keep their input order (and their bits).
    const std::vector<float> zeros = {0.0f, -0.0f, 1.0f, -0.0f, 0.0f, -1.0f, -0.0f, INFINITY, -INFINITY, 0.0f};
    EXPECT_TRUE((sortsLikeStableSort<float, int>(zeros, true)));

    // NaNs sort by their bits: sign bit clear after +inf, sign bit set before -inf.
    const float positive_nan = fromBits<float>(0x7fc00000u), negative_nan = fromBits<float>(0xffc00000u);
    std::mt19937 rng(freshSeed());
    const std::size_t n = 3 * tileItems() + 11;
    std::vector<float> keys(n);
    for (float &k : keys) {
        const unsigned pick = rng() % 16;
        k = pick == 0 ? positive_nan : pick == 1 ? negative_nan : anyKey<float>(rng);
    }
    std::vector<int> values = indexValues<int>(n);
    std::vector<float> expected_keys;
    std::vector<int> expected_values;
    std::vector<float> finite_keys;
    std::vector<int> finite_values;
    for (std::size_t i = 0; i < n; ++i) {
        if (sameBits(keys[i], negative_nan)) {
            expected_keys.push_back(keys[i]);
            expected_values.push_back(values[i]);
        } else if (!std::isnan(keys[i])) {
            finite_keys.push_back(keys[i]);
            finite_values.push_back(values[i]);
        }
    }
    referenceSort(finite_keys, finite_values, Less{});
    expected_keys.insert(expected_keys.end(), finite_keys.begin(), finite_keys.end());
    expected_values.insert(expected_values.end(), finite_values.begin(), finite_values.end());
    for (std::size_t i = 0; i < n; ++i) {
        if (sameBits(keys[i], positive_nan)) {
            expected_keys.push_back(keys[i]);
            expected_values.push_back(values[i]);
        }
    }
    std::vector<float> got_keys;
    std::vector<int> got_values;
    gpuSort(keys, values, got_keys, got_values);
    EXPECT_EQ(firstDifference(got_keys, expected_keys), -1);
    EXPECT_EQ(firstDifference(got_values, expected_values), -1);
}

TEST_F(GpuRadix, PublicEntryPointsAndManagedStorage) {
    const std::size_t n = 2 * tileItems() + 99;
    const std::vector<int> keys = makeKeys<int>(n, Shape::Uniform, freshSeed());
    std::vector<int> expected = keys;
    std::vector<std::int64_t> expected_values = indexValues<std::int64_t>(n);
    const std::vector<std::int64_t> values = expected_values;
    referenceSort(expected, expected_values, Less{});

    DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys.data(), n), d_sorted(n);
    DeviceBuffer<std::int64_t> d_values = DeviceBuffer<std::int64_t>::from_host(values.data(), n), d_moved(n);
    std::vector<int> got(n);
    std::vector<std::int64_t> got_values(n);
    cudaStream_t stream;
    SC_CUDA_CHECK(cudaStreamCreate(&stream));

    // Caller-provided storage, reused by two sorts on one stream.
    DeviceBuffer<char> temp(SC::radix_sort_temp_bytes<int, std::int64_t>(n));
    ASSERT_GE(temp.bytes(), SC::radix_sort_temp_bytes<int>(n));
    temp.fill_bytes(kPoisonByte);
    d_sorted.fill_bytes(kPoisonByte);
    SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n, temp.get(), temp.bytes(), stream);
    SC::radix_sort_pairs(d_keys.get(), d_sorted.get(), d_values.get(), d_moved.get(), n, temp.get(), temp.bytes(),
                         stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    d_sorted.copy_to_host(got.data(), n);
    d_moved.copy_to_host(got_values.data(), n);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got_values, expected_values);

    // Storage managed by the sort.
    d_sorted.fill_bytes(kPoisonByte);
    d_moved.fill_bytes(kPoisonByte);
    SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    d_sorted.copy_to_host(got.data(), n);
    EXPECT_EQ(got, expected);
    SC::radix_sort_pairs(d_keys.get(), d_sorted.get(), d_values.get(), d_moved.get(), n, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    d_moved.copy_to_host(got_values.data(), n);
    EXPECT_EQ(got_values, expected_values);
    SC_CUDA_CHECK(cudaStreamDestroy(stream));
    EXPECT_EQ(SC::radix_sort_temp_bytes<float>(0), 0u);
    EXPECT_NO_THROW(SC::radix_sort_keys<float>(nullptr, nullptr, 0, nullptr, 0));
    EXPECT_NO_THROW(SC::radix_sort_keys<float>(nullptr, nullptr, 0));
}

TEST_F(GpuRadix, RejectsBadArgumentsBeforeAnyWork) {
    const std::size_t n = 1000;
    DeviceBuffer<int> keys(2 * n), sorted(n);
    DeviceBuffer<float> values(n), moved(n);
    sorted.fill_bytes(kPoisonByte);
    const std::size_t bytes = SC::radix_sort_temp_bytes<int, float>(n);
    DeviceBuffer<char> temp(bytes);
    EXPECT_THROW(SC::radix_sort_keys<int>(nullptr, sorted.get(), n, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), nullptr, n, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), sorted.get(), n, nullptr, bytes), std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), sorted.get(), n, temp.get(), 16), std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), keys.get() + n / 2, n, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW((SC::radix_sort_pairs<int, float>(keys.get(), sorted.get(), nullptr, moved.get(), n, temp.get(), bytes)),
                 std::invalid_argument);
    EXPECT_THROW((SC::radix_sort_pairs<int, float>(keys.get(), sorted.get(), values.get(), nullptr, n, temp.get(), bytes)),
                 std::invalid_argument);
    EXPECT_THROW((SC::radix_sort_pairs<int, float>(keys.get(), sorted.get(), values.get(), values.get(), n, temp.get(),
                                                  bytes)),
                 std::invalid_argument);
    EXPECT_THROW((SC::radix_sort_pairs<int, float>(keys.get(), sorted.get(), values.get(), moved.get(), n, temp.get(),
                                                  SC::radix_sort_temp_bytes<int>(n))),
                 std::invalid_argument);
    EXPECT_THROW(SC::radix_sort_keys<int>(nullptr, sorted.get(), n), std::invalid_argument);
    for (const SC::RadixSortOrder &bad : {SC::RadixSortOrder{false, -1, 8}, SC::RadixSortOrder{false, 9, 8},
                                          SC::RadixSortOrder{true, 0, 33}}) {
        EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), sorted.get(), n, temp.get(), bytes, bad),
                     std::invalid_argument);
        EXPECT_THROW((SC::radix_sort_pairs<int, float>(keys.get(), sorted.get(), values.get(), moved.get(), n,
                                                       temp.get(), bytes, bad)),
                     std::invalid_argument);
        EXPECT_THROW(SC::radix_sort_keys<int>(keys.get(), sorted.get(), 0, temp.get(), bytes, bad),
                     std::invalid_argument);  // refused even with nothing to sort
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> untouched(n * sizeof(int));
    SC_CUDA_CHECK(cudaMemcpy(untouched.data(), sorted.get(), untouched.size(), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(std::all_of(untouched.begin(), untouched.end(), [](unsigned char b) { return b == kPoisonByte; }))
        << "a rejected call wrote the output";
}

// The key's order-preserving image, as radix_sort_order.h defines it: the bits a RadixSortOrder's
// range refers to.
template <class Key>
KeyBits<Key> orderedImage(Key key) {
    const KeyBits<Key> bits = toBits(key), sign = kSignBit<Key>;
    if constexpr (std::is_unsigned_v<Key>) return bits;
    if constexpr (std::is_integral_v<Key>) return bits ^ sign;
    const KeyBits<Key> zeroed = bits == sign ? 0u : bits;  // -0.0 as +0.0
    return (zeroed & sign) ? ~zeroed : zeroed | sign;
}

// std::stable_sort on the compared bits of the keys' images, against the GPU, keys alone or with
// their indices as values; through the public API, or through the sort of several portions.
template <class Key>
::testing::AssertionResult sortsInOrder(const std::vector<Key> &keys, bool pairs, const SC::RadixSortOrder &order,
                                        std::size_t max_portion_keys = 0) {
    const auto mask = static_cast<KeyBits<Key>>(SC::radix_compared_bits(order, "test", int(sizeof(Key)) * 8));
    const auto compared = [&](Key key) { return orderedImage(key) & mask; };
    std::vector<Key> expected_keys = keys;
    std::vector<int> expected_values = pairs ? indexValues<int>(keys.size()) : std::vector<int>{};
    const std::vector<int> values = expected_values;
    referenceSort(expected_keys, expected_values, [&](Key a, Key b) {
        return order.descending ? compared(a) > compared(b) : compared(a) < compared(b);
    });
    const std::size_t n = keys.size();
    DeviceBuffer<Key> d_keys = DeviceBuffer<Key>::from_host(keys.data(), n), d_keys_out(n);
    DeviceBuffer<int> d_values = DeviceBuffer<int>::from_host(values.data(), values.size()), d_values_out(values.size());
    d_keys_out.fill_bytes(kPoisonByte);
    d_values_out.fill_bytes(kPoisonByte);
    const std::size_t portion = max_portion_keys ? max_portion_keys : SC::detail::kRadixMaxPortionKeys;
    DeviceBuffer<char> temp(SC::detail::radix_temp_bytes<Key, std::uint32_t>(n, portion));
    temp.fill_bytes(kPoisonByte);
    if (max_portion_keys != 0) {
        SC::detail::radix_sort<Key, std::uint32_t>(
            "radix_sort_pairs", d_keys.get(), d_keys_out.get(), reinterpret_cast<const std::uint32_t *>(d_values.get()),
            reinterpret_cast<std::uint32_t *>(d_values_out.get()), n, temp.get(), temp.bytes(), 0, max_portion_keys,
            SC::detail::radix_order<Key>(order, "radix_sort_pairs"));
    } else if (pairs) {
        SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(), n, temp.get(),
                             temp.bytes(), order);
    } else {
        SC::radix_sort_keys(d_keys.get(), d_keys_out.get(), n, temp.get(), temp.bytes(), order);
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<Key> got_keys(n);
    std::vector<int> got_values(values.size());
    d_keys_out.copy_to_host(got_keys.data(), n);
    d_values_out.copy_to_host(got_values.data(), values.size());
    return sameSort(got_keys, expected_keys, got_values, expected_values);
}

template <class Key>
void checkOrders() {
    std::vector<SC::RadixSortOrder> orders = {{true, 0, 32},  {false, 0, 8},  {false, 4, 20}, {true, 3, 17},
                                              {false, 8, 32}, {false, 31, 32}, {true, 24, 32}, {false, 5, 5},
                                              {true, 0, 0},   {true}};
    if constexpr (sizeof(Key) == 8)
        orders.insert(orders.end(), {{false, 0, 64}, {true, 30, 50}, {false, 40, 64}, {false, 63, 64}, {true, 56}});
    const std::size_t tile = tileItems<Key>();
    for (const SC::RadixSortOrder &order : orders) {
        SCOPED_TRACE(std::string(order.descending ? "descending" : "ascending") + " on bits [" +
                     std::to_string(order.begin_bit) + ", " + std::to_string(order.end_bit) + ")");
        for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, tile + 1, 3 * tile - 5}) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("n = " + std::to_string(n) + ", seed " + std::to_string(seed));
            ASSERT_TRUE(sortsInOrder(makeKeys<Key>(n, Shape::Uniform, seed), n % 2 == 1, order));
        }
        ASSERT_TRUE(sortsInOrder(makeKeys<Key>(3 * tile - 5, Shape::FewDistinct, freshSeed()), true, order));
    }
    // Several portions: each digit pass in more than one launch.
    ASSERT_TRUE(sortsInOrder(makeKeys<Key>(5 * tile + 7, Shape::Uniform, freshSeed()), true,
                             SC::RadixSortOrder{true, 2, 30}, tile));
}

// Descending, and on part of each key: a stable sort on the compared bits of the keys' images,
// keys alone and pairs, for every key type.
TEST_F(GpuRadix, DescendingAndBitRanges) {
    checkOrders<int>();
    checkOrders<unsigned>();
    checkOrders<float>();
    checkOrders<long long>();
    checkOrders<std::uint64_t>();
    checkOrders<double>();
}

// 64-bit keys: eight digit passes, every shape, keys alone and with 4- and 8-byte values.
TEST_F(GpuRadix, SixtyFourBitKeys) {
    const std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
    checkShapes<long long, int>(radixSizes<std::int64_t>(), shapes, false);
    checkShapes<std::int64_t, int>(radixSizes<std::int64_t>(), shapes, false);
    checkShapes<std::uint64_t, int>(radixSizes<std::int64_t>(), shapes, false);
    checkShapes<double, int>(radixSizes<std::int64_t>(), shapes, false);
    const std::size_t tile = tileItems<std::int64_t>();
    const std::vector<std::size_t> sizes = {1, 33, tile + 1, 3 * tile - 5};
    checkShapes<long long, int>(sizes, {Shape::Uniform, Shape::FewDistinct, Shape::Low16}, true);
    checkShapes<double, std::int64_t>(sizes, {Shape::Uniform, Shape::AllEqual, Shape::Low8}, true);
    checkShapes<std::uint64_t, float>(sizes, {Shape::Sorted, Shape::Reversed}, true);
    // Several portions: each digit pass in more than one launch.
    ASSERT_TRUE((sortsLikeStableSort<double, int>(makeKeys<double>(5 * tile + 7, Shape::Uniform, freshSeed()), true,
                                                  tile)));
}

TEST_F(GpuRadix, CourseInterfaceMatchesStdSort) {
    const int tile = static_cast<int>(tileItems());
    for (int n : {1, 3, 1 << 8, (1 << 8) - 3, tile + 1, 1 << 16, (1 << 16) - 3}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = makeKeys<int>(n, Shape::Uniform, freshSeed());
        std::vector<int> expected = in;
        std::sort(expected.begin(), expected.end());
        std::vector<int> out(n, 0x5a5a5a5a);
        SC::Radix::sort(n, out.data(), in.data());
        ASSERT_EQ(out, expected) << "Radix::sort";
        std::fill(out.begin(), out.end(), 0x5a5a5a5a);
        SC::Radix::sortClassic(n, out.data(), in.data());
        ASSERT_EQ(out, expected) << "Radix::sortClassic";
    }
    EXPECT_NO_THROW(SC::Radix::sort(0, nullptr, nullptr));
    EXPECT_NO_THROW(SC::Radix::sortClassic(0, nullptr, nullptr));
    int x = 0;
    EXPECT_THROW(SC::Radix::sort(-1, &x, &x), std::invalid_argument);
    EXPECT_THROW(SC::Radix::sortClassic(-1, &x, &x), std::invalid_argument);
    EXPECT_THROW(SC::Radix::sort(4, nullptr, &x), std::invalid_argument);
}

// The classic sort's device API, which Radix::sortClassic wraps: every shape from garbage outputs
// and storage, the input left as it was, and bad arguments refused.
TEST_F(GpuRadix, ClassicDeviceApi) {
    for (const std::size_t n : {std::size_t(1), std::size_t(33), 3 * tileItems() + 5}) {
        for (Shape shape : kShapes) {
            const std::uint32_t seed = freshSeed();
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + shapeName(shape) + ", seed " + std::to_string(seed));
            const std::vector<int> keys = makeKeys<int>(n, shape, seed);
            std::vector<int> expected = keys;
            std::sort(expected.begin(), expected.end());
            DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(keys.data(), n), d_out(n), d_alternate(n);
            DeviceBuffer<char> temp(SC::Radix::classic_sort_temp_bytes(n));
            d_out.fill_bytes(kPoisonByte);
            d_alternate.fill_bytes(kPoisonByte);
            temp.fill_bytes(kPoisonByte);
            SC::Radix::classic_sort_keys(d_in.get(), d_out.get(), d_alternate.get(), n, temp.get(), temp.bytes());
            SC_CUDA_CHECK(cudaDeviceSynchronize());
            std::vector<int> got(n), input_after(n);
            d_out.copy_to_host(got.data(), n);
            d_in.copy_to_host(input_after.data(), n);
            ASSERT_EQ(got, expected);
            ASSERT_EQ(input_after, keys) << "the sort wrote its input";
        }
    }
    const std::size_t n = 1000;
    DeviceBuffer<int> keys(2 * n), sorted(n), alternate(n);
    const std::size_t bytes = SC::Radix::classic_sort_temp_bytes(n);
    DeviceBuffer<char> temp(bytes);
    const auto sort = [n](const int *in, int *out, int *scratch, void *storage, std::size_t storage_bytes) {
        SC::Radix::classic_sort_keys(in, out, scratch, n, storage, storage_bytes);
    };
    EXPECT_THROW(sort(nullptr, sorted.get(), alternate.get(), temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), nullptr, alternate.get(), temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), sorted.get(), nullptr, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), keys.get() + n / 2, alternate.get(), temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), sorted.get(), sorted.get(), temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), sorted.get(), alternate.get(), nullptr, bytes), std::invalid_argument);
    EXPECT_THROW(sort(keys.get(), sorted.get(), alternate.get(), temp.get(), 16), std::invalid_argument);
    EXPECT_EQ(SC::Radix::classic_sort_temp_bytes(0), 0u);
    EXPECT_NO_THROW(SC::Radix::classic_sort_keys(nullptr, nullptr, nullptr, 0, nullptr, 0));
}

namespace {

// (key, index) packed as key bits << 32 | index: the classic sort's passes on these show what they
// do to equal keys.
std::int64_t packKeyIndex(int key, std::uint32_t index) {
    return static_cast<std::int64_t>((std::uint64_t(static_cast<std::uint32_t>(key)) << 32) | index);
}
__host__ __device__ inline int keyOf(std::int64_t packed) {
    return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(packed) >> 32));
}

// The classic sort's predicate (radix.cu), on the key half: below the sign bit a 0 bit goes first,
// at the sign bit a 1 (negative) does.
struct KeyGoesFirstOnBit {
    int bit;
    __host__ __device__ bool operator()(std::int64_t packed) const {
        const int key = keyOf(packed);
        return bit == 31 ? key < 0 : ((static_cast<unsigned>(key) >> bit) & 1u) == 0;
    }
};

// The classic sort's 32 passes, one per key bit from the lowest, on (key, index) pairs, with
// `stable` partitions (stable_partition, as Radix::classic_sort_keys) or CUB-order ones (partition).
std::vector<std::int64_t> classicPassesOnPairs(const std::vector<std::int64_t> &pairs, bool stable) {
    const std::size_t n = pairs.size();
    DeviceBuffer<std::int64_t> a = DeviceBuffer<std::int64_t>::from_host(pairs.data(), n), b(n);
    DeviceBuffer<std::size_t> count(1);
    DeviceBuffer<char> temp(SC::select_temp_bytes<std::int64_t>(n));
    b.fill_bytes(kPoisonByte);
    for (int bit = 0; bit < 32; ++bit) {
        const std::int64_t *from = bit % 2 == 0 ? a.get() : b.get();
        std::int64_t *to = bit % 2 == 0 ? b.get() : a.get();
        if (stable) SC::stable_partition(from, to, count.get(), n, KeyGoesFirstOnBit{bit}, temp.get(), temp.bytes());
        else SC::partition(from, to, count.get(), n, KeyGoesFirstOnBit{bit}, temp.get(), temp.bytes());
    }
    std::vector<std::int64_t> out(n);
    a.copy_to_host(out.data(), n);  // 32 passes: the last wrote `a`
    return out;
}

}  // namespace

// The classic sort is stable because each of its 32 passes is a stable_partition: on (key, index)
// pairs the same passes give std::stable_sort's order (equal keys keep their input order), while
// partition's passes (falses reversed) do not even sort. The classic sort itself is then checked on
// the same keys, including negative ones, INT_MIN and INT_MAX, many of them equal.
TEST_F(GpuRadix, ClassicSortIsStable) {
    const std::size_t tile = SC::detail::tile_items_for<std::int64_t>(SC::kDefaultSinglePassThreads);
    for (const std::size_t n : {std::size_t(2), std::size_t(1000), tile + 1, 7 * tile + 3}) {
        const std::uint32_t seed = freshSeed();
        SCOPED_TRACE("n = " + std::to_string(n) + ", seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        std::vector<int> keys(n);
        const int extremes[] = {INT_MIN, INT_MAX, -1, 0};
        for (int &k : keys) k = rng() % 4 == 0 ? extremes[rng() % 4] : static_cast<int>(rng() % 64) - 32;
        std::vector<std::int64_t> pairs(n);
        for (std::size_t i = 0; i < n; ++i) pairs[i] = packKeyIndex(keys[i], static_cast<std::uint32_t>(i));
        std::vector<std::int64_t> expected = pairs;
        std::stable_sort(expected.begin(), expected.end(),
                         [](std::int64_t x, std::int64_t y) { return keyOf(x) < keyOf(y); });

        const std::vector<std::int64_t> stable = classicPassesOnPairs(pairs, true);
        ASSERT_EQ(firstDifference(stable, expected), -1) << "32 stable_partition passes differ from std::stable_sort";
        if (n >= 1000) {  // on a few keys, reversing passes may land on the stable order by chance
            const std::vector<std::int64_t> reversing = classicPassesOnPairs(pairs, false);
            EXPECT_NE(firstDifference(reversing, expected), -1)
                << "32 partition passes gave the stable order too: this test cannot tell a stable pass from another";
        }

        std::vector<int> sorted_keys(n);
        for (std::size_t i = 0; i < n; ++i) sorted_keys[i] = keyOf(expected[i]);
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(keys.data(), n), d_out(n), d_alternate(n);
        DeviceBuffer<char> temp(SC::Radix::classic_sort_temp_bytes(n));
        d_out.fill_bytes(kPoisonByte);
        SC::Radix::classic_sort_keys(d_in.get(), d_out.get(), d_alternate.get(), n, temp.get(), temp.bytes());
        std::vector<int> got(n);
        d_out.copy_to_host(got.data(), n);
        ASSERT_EQ(got, sorted_keys) << "Radix::classic_sort_keys";
    }
}

// ---- sizes that fill the GPU (left out of sanitizer runs) ----

TEST(GpuLarge, RadixSortAt2To24Plus7) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = (std::size_t(1) << 24) + 7;
    EXPECT_TRUE((sortsLikeStableSort<int, int>(makeKeys<int>(n, Shape::Uniform, freshSeed()), false)));
    EXPECT_TRUE((sortsLikeStableSort<int, std::int64_t>(makeKeys<int>(n, Shape::FewDistinct, freshSeed()), true)));
    EXPECT_TRUE((sortsLikeStableSort<float, int>(makeKeys<float>(n, Shape::Uniform, freshSeed()), true)));
    EXPECT_TRUE((sortsLikeStableSort<unsigned, float>(makeKeys<unsigned>(n, Shape::Low16, freshSeed()), true)));
}

// A 64-bit mix of one key: the sum over all keys identifies the multiset with high probability.
static std::uint64_t mix(std::uint32_t key) {
    std::uint64_t z = key + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Past 2^31 keys (16 GiB in and out, 8 GiB more of temporary storage): three portions per digit.
// Checked by order and by a multiset hash (a full std::sort of 2^31 keys would take minutes).
TEST(GpuLarge, RadixSortOf2To31Plus1Keys) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = (std::size_t(1) << 31) + 1;
    const std::size_t temp_bytes = SC::radix_sort_temp_bytes<int>(n);
    std::size_t free_bytes = 0, total_bytes = 0;
    SC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < 2 * n * sizeof(int) + temp_bytes + (std::size_t(1) << 30))
        GTEST_SKIP() << "needs " << (2 * n * sizeof(int) + temp_bytes) / (1 << 20) << " MiB of device memory";
    std::vector<int> keys(n);
    std::uint64_t state = freshSeed();
    std::uint64_t hash_in = 0;
    for (std::size_t i = 0; i < n; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        keys[i] = static_cast<int>(state >> 32);
    }
    keys[n / 3] = INT_MAX;
    keys[2 * (n / 3)] = INT_MIN;
    keys[n - 1] = INT_MIN;
    for (int k : keys) hash_in += mix(static_cast<std::uint32_t>(k));
    DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys.data(), n);
    DeviceBuffer<int> d_sorted(n);
    DeviceBuffer<char> temp(temp_bytes);
    SC::radix_sort_keys(d_keys.get(), d_sorted.get(), n, temp.get(), temp.bytes());
    d_sorted.copy_to_host(keys.data(), n);
    std::uint64_t hash_out = mix(static_cast<std::uint32_t>(keys[0]));
    for (std::size_t i = 1; i < n; ++i) {
        ASSERT_LE(keys[i - 1], keys[i]) << "out of order at " << i;
        hash_out += mix(static_cast<std::uint32_t>(keys[i]));
    }
    EXPECT_EQ(keys[0], INT_MIN);
    EXPECT_EQ(keys[1], INT_MIN);
    EXPECT_EQ(keys[n - 1], INT_MAX);
    EXPECT_EQ(hash_out, hash_in) << "the output is not a permutation of the input";
}
