// Segmented sort (device/segmented_sort.cuh) against std::stable_sort of each segment, on tiny,
// mixed and huge segments, empty ones in runs, every key type; graph replay and odd temporary
// storage.
#include <stream_compaction/device/segmented_sort.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuSegmentedSort : public GpuTest {};

// The radix sort's order: -0.0 and +0.0 are equal keys (no NaNs in these inputs).
template <class K>
bool keyLess(K a, K b) {
    return a < b;
}

// Each segment's stable sort of (key, value) by key.
template <class K, class V>
void referenceSort(const std::vector<int> &offsets, std::vector<K> &keys, std::vector<V> &values) {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        std::stable_sort(order.begin() + offsets[s], order.begin() + offsets[s + 1],
                         [&](std::size_t a, std::size_t b) { return keyLess(keys[a], keys[b]); });
    std::vector<K> k(keys.size());
    std::vector<V> v(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        k[i] = keys[order[i]];
        v[i] = values[order[i]];
    }
    keys = k;
    values = v;
}

std::vector<int> lengthsToOffsets(const std::vector<int> &lengths) {
    std::vector<int> offsets{0};
    for (int l : lengths) offsets.push_back(offsets.back() + l);
    return offsets;
}

// Segment lengths: tiny (1..16), mixed (Pareto: many short, some empty, a few of hundreds of
// thousands), or a few huge ones.
enum class Sizes { Tiny, Mixed, Huge };
std::vector<int> makeLengths(Sizes sizes, std::size_t total, std::mt19937 &rng) {
    std::vector<int> lengths;
    std::uniform_int_distribution<int> tiny(1, 16), huge(200000, 1500000);
    std::uniform_real_distribution<double> unit(1e-9, 1.0);
    std::size_t sum = 0;
    while (sum < total) {
        int l = sizes == Sizes::Tiny ? tiny(rng)
                : sizes == Sizes::Huge ? huge(rng)
                                       : static_cast<int>(std::min(4e5, std::floor(4.0 * std::pow(unit(rng), -1.0 / 1.2)) - 4.0));
        l = static_cast<int>(std::min<std::size_t>(l, total - sum));
        lengths.push_back(l);
        sum += l;
        if (sizes == Sizes::Mixed && rng() % 50 == 0) lengths.insert(lengths.end(), 20, 0);  // runs of empties
    }
    return lengths;
}

template <class K>
std::vector<K> makeKeys(std::size_t n, std::mt19937 &rng) {
    std::vector<K> keys(n);
    if constexpr (std::is_same<K, float>::value) {
        const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(), -1.5f, 1e-30f};
        std::uniform_real_distribution<float> d(-100.0f, 100.0f);
        for (K &k : keys) k = rng() % 8 == 0 ? specials[rng() % 6] : d(rng);
    } else if constexpr (std::is_same<K, int>::value) {
        for (K &k : keys) k = rng() % 16 == 0 ? (rng() % 2 ? INT_MIN : INT_MAX) : static_cast<int>(rng() % 2001) - 1000;
    } else {
        for (K &k : keys) k = static_cast<K>(rng() % 5000);  // many duplicates
    }
    return keys;
}

template <class K>
void checkSort(const std::vector<int> &offsets, std::mt19937 &rng) {
    const std::size_t n = offsets.back(), segments = offsets.size() - 1;
    SCOPED_TRACE(std::to_string(segments) + " segments, " + std::to_string(n) + " items");
    std::vector<K> keys = makeKeys<K>(n, rng);
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i);  // stability shows in the values
    DeviceArena arena;
    K *d_keys = arena.make<K>(n), *d_keys_out = arena.make<K>(n), *d_keys_only = arena.make<K>(n);
    int *d_values = arena.make<int>(n), *d_values_out = arena.make<int>(n), *d_offsets = arena.make<int>(offsets.size());
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    upload(0, d_offsets, offsets);
    const std::size_t bytes = SC::segmented_sort_temp_bytes<K>(n);
    char *d_temp = arena.make<char>(bytes);
    SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_offsets, segments, d_temp, bytes);
    SC::segmented_sort_keys(d_keys, d_keys_only, n, d_offsets, segments, d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    referenceSort(offsets, keys, values);
    const std::vector<K> got = download(d_keys_out, n), got_keys_only = download(d_keys_only, n);
    // Compare bits: -0.0 and +0.0 are equal keys, and keep their input order and their bits.
    EXPECT_EQ(0, std::memcmp(got.data(), keys.data(), n * sizeof(K))) << "keys of the pairs";
    EXPECT_EQ(0, std::memcmp(got_keys_only.data(), keys.data(), n * sizeof(K))) << "keys alone";
    EXPECT_EQ(download(d_values_out, n), values);
}

TEST_F(GpuSegmentedSort, TinyMixedAndHugeSegmentsOfEveryKeyType) {
    std::mt19937 rng(freshSeed());
    for (Sizes sizes : {Sizes::Tiny, Sizes::Mixed, Sizes::Huge})
        for (std::size_t total : {1u, 1000u, 65537u, 3000001u}) {
            SCOPED_TRACE("sizes " + std::to_string(static_cast<int>(sizes)));
            const std::vector<int> offsets = lengthsToOffsets(makeLengths(sizes, total, rng));
            checkSort<int>(offsets, rng);
            checkSort<unsigned>(offsets, rng);
            checkSort<float>(offsets, rng);
        }
}

TEST_F(GpuSegmentedSort, DegenerateSegments) {
    std::mt19937 rng(freshSeed());
    checkSort<int>({0, 1}, rng);                        // one item
    checkSort<int>({0, 0, 0, 5, 5, 5, 9, 9}, rng);      // empty segments around two
    checkSort<int>({0, 4000000}, rng);                  // one huge segment
    std::vector<int> lengths(100000, 1);                // as many segments as items
    checkSort<int>(lengthsToOffsets(lengths), rng);
    // All keys equal: the values keep their order.
    const std::vector<int> offsets = {0, 3, 3, 100, 5000};
    DeviceArena arena;
    std::vector<int> keys(5000, 7), values(5000);
    for (int i = 0; i < 5000; ++i) values[i] = i;
    int *d_keys = arena.make<int>(5000), *d_values = arena.make<int>(5000), *d_offsets = arena.make<int>(5);
    int *d_keys_out = arena.make<int>(5000), *d_values_out = arena.make<int>(5000);
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    upload(0, d_offsets, offsets);
    const std::size_t bytes = SC::segmented_sort_temp_bytes<int>(5000);
    char *d_temp = arena.make<char>(bytes);
    SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, 5000, d_offsets, 4, d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_values_out, 5000), values);
}

TEST_F(GpuSegmentedSort, EmptyInputAndBadArguments) {
    DeviceArena arena;
    int *d = arena.make<int>(4);
    SC::segmented_sort_keys(d, d + 2, 0, d, 0, nullptr, 0);  // nothing to do, nothing needed
    EXPECT_EQ(SC::segmented_sort_temp_bytes<int>(0), 0u);
    const std::size_t bytes = SC::segmented_sort_temp_bytes<int>(4);
    char *d_temp = arena.make<char>(bytes);
    int *d_keys = arena.make<int>(4), *d_out = arena.make<int>(4);
    EXPECT_THROW(SC::segmented_sort_keys(d_keys, d_out, 4, d, 0, d_temp, bytes), std::invalid_argument);  // no segment
    EXPECT_THROW(SC::segmented_sort_keys(d_keys, d_out, 4, d, 1, d_temp, bytes - 1), std::invalid_argument);
    EXPECT_THROW(SC::segmented_sort_keys(static_cast<int *>(nullptr), d_out, 4, d, 1, d_temp, bytes),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// Captured once, replayed with new keys and new segment sizes (same counts), storage at an odd address.
TEST_F(GpuSegmentedSort, GraphReplayWithNewInputsAndOddStorage) {
    std::mt19937 rng(freshSeed());
    const std::size_t n = 300001, segments = 20000;
    DeviceArena arena;
    int *d_keys = arena.make<int>(n), *d_values = arena.make<int>(n), *d_offsets = arena.make<int>(segments + 1);
    int *d_keys_out = arena.make<int>(n), *d_values_out = arena.make<int>(n);
    const std::size_t bytes = SC::segmented_sort_temp_bytes<int>(n);
    char *d_temp = arena.make<char>(bytes + 3);
    std::vector<int> offsets, keys, values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i);
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_offsets, segments, d_temp + 3,
                                     bytes, s);
        },
        [&](cudaStream_t s) {
            offsets = randomOffsets(n, segments, rng);
            keys = randomInts(n, rng);
            upload(s, d_keys, keys);
            upload(s, d_values, values);
            upload(s, d_offsets, offsets);
            poison(s, d_keys_out, n * sizeof(int));
            poison(s, d_values_out, n * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> k = keys, v = values;
            referenceSort(offsets, k, v);
            ::testing::AssertionResult same = sameElements(download(d_keys_out, n), k, "keys");
            if (same) same = sameElements(download(d_values_out, n), v, "values");
            return same;
        });
}

}  // namespace
