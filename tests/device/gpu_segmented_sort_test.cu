// Segmented sort (device/segmented_sort.cuh) against std::stable_sort of each segment, on tiny,
// mixed and huge segments, empty ones in runs, lengths at the edges of its size classes and merge
// levels, every key width and 4- and 8-byte values; graph replay (with the size classes changing
// between replays) and odd temporary storage.
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
    if constexpr (std::is_floating_point<K>::value) {
        const K specials[] = {K(0), -K(0), std::numeric_limits<K>::infinity(), -std::numeric_limits<K>::infinity(),
                              K(-1.5), K(1e-30)};
        std::uniform_real_distribution<K> d(K(-100), K(100));
        for (K &k : keys) k = rng() % 8 == 0 ? specials[rng() % 6] : d(rng);
    } else if constexpr (std::is_signed<K>::value) {
        for (K &k : keys)
            k = rng() % 16 == 0 ? (rng() % 2 ? std::numeric_limits<K>::min() : std::numeric_limits<K>::max())
                                : static_cast<K>(static_cast<int>(rng() % 2001) - 1000);
    } else if constexpr (sizeof(K) == 8) {
        for (K &k : keys) k = rng() % 4 == 0 ? ~K(0) - rng() % 3 : (static_cast<K>(rng()) << 32) + rng() % 5000;
    } else {
        for (K &k : keys) k = static_cast<K>(rng() % 5000);  // many duplicates
    }
    return keys;
}

template <class K, class V = int>
void checkSort(const std::vector<int> &offsets, std::mt19937 &rng) {
    const std::size_t n = offsets.back(), segments = offsets.size() - 1;
    SCOPED_TRACE(std::to_string(segments) + " segments, " + std::to_string(n) + " items, keys of " +
                 std::to_string(sizeof(K)) + " bytes, values of " + std::to_string(sizeof(V)));
    std::vector<K> keys = makeKeys<K>(n, rng);
    std::vector<V> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<V>(i);  // stability shows in the values
    DeviceArena arena;
    K *d_keys = arena.make<K>(n), *d_keys_out = arena.make<K>(n), *d_keys_only = arena.make<K>(n);
    V *d_values = arena.make<V>(n), *d_values_out = arena.make<V>(n);
    int *d_offsets = arena.make<int>(offsets.size());
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    upload(0, d_offsets, offsets);
    poison(0, d_keys_out, n * sizeof(K));
    poison(0, d_keys_only, n * sizeof(K));
    poison(0, d_values_out, n * sizeof(V));
    const std::size_t bytes = SC::segmented_sort_temp_bytes<K>(n);
    char *d_temp = arena.make<char>(bytes);
    poison(0, d_temp, bytes);
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

// Uniform lengths of mean `mean` (1 .. 2 mean - 1): the benchmark's classes of 2 to 1,024.
std::vector<int> uniformLengths(int mean, std::size_t total, std::mt19937 &rng) {
    std::uniform_int_distribution<int> length(1, 2 * mean - 1);
    std::vector<int> lengths;
    for (std::size_t sum = 0; sum < total;) {
        lengths.push_back(static_cast<int>(std::min<std::size_t>(length(rng), total - sum)));
        sum += lengths.back();
    }
    return lengths;
}

TEST_F(GpuSegmentedSort, UniformMeansFromTwoToOneThousand) {
    std::mt19937 rng(freshSeed());
    for (int mean : {2, 8, 32, 128, 1024}) {
        SCOPED_TRACE("mean " + std::to_string(mean));
        const std::vector<int> offsets = lengthsToOffsets(uniformLengths(mean, 1000003, rng));
        checkSort<int>(offsets, rng);
        checkSort<double, long long>(offsets, rng);
    }
}

// Lengths at the edges of the size classes (short up to 2,048 items of 4-byte keys and 1,024 of
// 8-byte ones; tiles of 4,096 and 2,048; merge levels of 1 to 7), shuffled among short ones so that
// they fall across the short pass's blocks at every phase, with empty ones among them.
TEST_F(GpuSegmentedSort, LengthsAtTheEdgesOfEverySizeClassAndLevel) {
    std::mt19937 rng(freshSeed());
    std::vector<int> lengths;
    for (int edge : {1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 6000, 8191, 8192, 8193, 12289, 16384,
                     20000, 65536, 65537, 300001, 524288, 524289})
        lengths.push_back(edge);
    for (int i = 0; i < 600; ++i) lengths.push_back(static_cast<int>(rng() % 3000));
    for (int i = 0; i < 200; ++i) lengths.push_back(0);
    std::shuffle(lengths.begin(), lengths.end(), rng);
    const std::vector<int> offsets = lengthsToOffsets(lengths);
    checkSort<int>(offsets, rng);
    checkSort<unsigned>(offsets, rng);
    checkSort<float>(offsets, rng);
    checkSort<long long, long long>(offsets, rng);
    checkSort<double>(offsets, rng);
    checkSort<unsigned long long, double>(offsets, rng);
    checkSort<short>(offsets, rng);
    checkSort<unsigned char, short>(offsets, rng);
}


// The short pass merges until runs are about as long as each tile's longest segment, then places
// each item by its rank in the other run of its segment: lengths just below, at and above every
// run length (8 and 16 items a thread) as a tile's longest, at every phase among shorter ones.
TEST_F(GpuSegmentedSort, TilesWhoseLongestSegmentIsAtEveryRunEdge) {
    std::mt19937 rng(freshSeed());
    std::vector<int> lengths;
    for (int run = 8; run <= 2048; run *= 2)
        for (int edge : {run - 1, run, run + 1, run + 2})
            for (int tile = 0; tile < 6; ++tile) {  // about 4,096 items of shorter segments around each
                for (int used = 0; used < 4096;) {
                    const int length = rng() % 64 == 0 ? edge : static_cast<int>(rng() % std::min(edge, 5));
                    lengths.push_back(length);
                    used += length + 1;
                }
            }
    const std::vector<int> offsets = lengthsToOffsets(lengths);
    checkSort<int>(offsets, rng);
    checkSort<float, double>(offsets, rng);
    checkSort<long long>(offsets, rng);
    checkSort<double, short>(offsets, rng);
}
// The tiny pass takes a window whose segments are all at most 64 items (kTinyLongest) and leaves
// the rest to the short pass: windows whose longest is 64 or 65, a few keys (ties everywhere: the
// order among equal keys shows in the values), empty segments, and long segments after them.
TEST_F(GpuSegmentedSort, WindowsAtTheTinyPassesBound) {
    std::mt19937 rng(freshSeed());
    std::vector<int> lengths;
    for (int window = 0; window < 400; ++window) {
        const int longest = window % 3 == 0 ? 65 : 64;
        for (int used = 0; used < 2048;) {
            const int pick = static_cast<int>(rng() % 100);
            const int length = pick == 0 ? longest : pick < 10 ? 0 : pick == 99 && window % 7 == 0 ? 3000 : 1 + static_cast<int>(rng() % 63);
            lengths.push_back(length);
            used += length;
        }
    }
    const std::vector<int> offsets = lengthsToOffsets(lengths);
    checkSort<unsigned char>(offsets, rng);
    checkSort<short, double>(offsets, rng);
    checkSort<float>(offsets, rng);
    checkSort<unsigned long long, short>(offsets, rng);
    checkSort<double>(offsets, rng);
}

TEST_F(GpuSegmentedSort, DegenerateSegments) {
    std::mt19937 rng(freshSeed());
    checkSort<int>({0, 1}, rng);                        // one item
    checkSort<int>({0, 0, 0, 5, 5, 5, 9, 9}, rng);      // empty segments around two
    checkSort<int>({0, 4000000}, rng);                  // one huge segment
    checkSort<double>({0, 4000000}, rng);
    std::vector<int> lengths(100000, 1);                // as many segments as items
    checkSort<int>(lengthsToOffsets(lengths), rng);
    lengths.assign(300000, 0);                          // many more segments than items, most empty
    lengths[7] = 5000;
    lengths[150000] = 3;
    lengths[299999] = 70000;
    checkSort<int>(lengthsToOffsets(lengths), rng);
    checkSort<long long>(lengthsToOffsets(lengths), rng);
    // All keys equal: the values keep their order.
    // All keys equal, in short segments and in a long one that takes five merge levels: the values
    // keep their order.
    constexpr int n = 105000;
    const std::vector<int> offsets = {0, 3, 3, 100, 5000, n};
    DeviceArena arena;
    std::vector<int> keys(n, 7), values(n);
    for (int i = 0; i < n; ++i) values[i] = i;
    int *d_keys = arena.make<int>(n), *d_values = arena.make<int>(n), *d_offsets = arena.make<int>(6);
    int *d_keys_out = arena.make<int>(n), *d_values_out = arena.make<int>(n);
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    upload(0, d_offsets, offsets);
    poison(0, d_values_out, n * sizeof(int));
    const std::size_t bytes = SC::segmented_sort_temp_bytes<int>(n);
    char *d_temp = arena.make<char>(bytes);
    SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_offsets, 5, d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_values_out, n), values);
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

// Captured once, replayed with new keys and new segment sizes (same counts): random cuts (all
// short), then one long segment that takes merge levels among short ones, then random cuts again,
// so that the work the device finds changes between replays; storage at an odd address.
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
    int replay = 0;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_offsets, segments, d_temp + 3,
                                     bytes, s);
        },
        [&](cudaStream_t s) {
            if (replay++ % 2 == 0) {
                offsets = randomOffsets(n, segments, rng);
            } else {  // segment 5 long: 250,000 items (six levels), the rest spread at random
                std::vector<int> lengths(segments, 0);
                lengths[5] = 250000;
                for (std::size_t rest = n - 250000; rest > 0; --rest) ++lengths[(rng() % (segments - 1) + 6) % segments];
                offsets = lengthsToOffsets(lengths);
            }
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
