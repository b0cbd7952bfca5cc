// Merge sort by a comparator (device/merge_sort.cuh) against std::stable_sort with the same
// comparator on the CPU: int keys of every distribution, both orders, sizes around the tile (4,096)
// and the merge rounds' pairs, 8-byte keys with 8-byte values, a 16-byte struct by one field (many
// ties: stability), values showing where each key was; graph replay, odd storage, the allocating
// overloads and bad arguments.
#include <stream_compaction/device/merge_sort.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuMergeSort : public GpuTest {};

struct Greater {
    template <class T>
    __host__ __device__ bool operator()(const T &a, const T &b) const { return b < a; }
};

// 16 bytes, ordered by `rank` alone: keys equal there differ elsewhere, which a stable sort keeps.
struct Record {
    int rank;
    int id;
    long long payload;
};
struct ByRank {
    __host__ __device__ bool operator()(const Record &a, const Record &b) const { return a.rank < b.rank; }
};

enum class Keys { Random, Ascending, Descending, FewDistinct, AllEqual };

std::vector<int> makeInts(std::size_t n, Keys kind, std::mt19937_64 &rng) {
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
        case Keys::Random: keys[i] = static_cast<int>(rng()); break;
        case Keys::Ascending: keys[i] = static_cast<int>(i); break;
        case Keys::Descending: keys[i] = static_cast<int>(n - i); break;
        case Keys::FewDistinct: keys[i] = static_cast<int>(rng() % 5); break;
        case Keys::AllEqual: keys[i] = 42; break;
        }
    }
    return keys;
}

// Keys and (keys, positions) sorted on the device, both against std::stable_sort by `less`.
template <class K, class V = int, class Less>
void checkSort(const std::vector<K> &keys, Less less, const std::string &what, std::size_t temp_offset = 0) {
    const std::size_t n = keys.size();
    SCOPED_TRACE(what + ": n = " + std::to_string(n) + ", keys of " + std::to_string(sizeof(K)) + " bytes");
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    std::vector<K> want(n);
    std::vector<V> want_values(n), values(n);
    for (std::size_t i = 0; i < n; ++i) {
        want[i] = keys[order[i]];
        want_values[i] = static_cast<V>(order[i]);
        values[i] = static_cast<V>(i);
    }
    DeviceArena arena;
    K *d_keys = arena.make<K>(n + 1), *d_out = arena.make<K>(n + 1), *d_pair_keys = arena.make<K>(n + 1);
    V *d_values = arena.make<V>(n + 1), *d_values_out = arena.make<V>(n + 1);
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    poison(0, d_out, (n + 1) * sizeof(K));
    poison(0, d_pair_keys, (n + 1) * sizeof(K));
    poison(0, d_values_out, (n + 1) * sizeof(V));
    const std::size_t key_bytes = SC::merge_sort_temp_bytes<K>(n), pair_bytes = SC::merge_sort_temp_bytes<K, V>(n);
    char *d_temp = arena.make<char>(pair_bytes + temp_offset + 1);
    poison(0, d_temp, pair_bytes + temp_offset + 1);
    SC::merge_sort_keys(d_keys, d_out, n, less, d_temp + temp_offset, key_bytes);
    SC::merge_sort_pairs(d_keys, d_pair_keys, d_values, d_values_out, n, less, d_temp + temp_offset, pair_bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<K> got = download(d_out, n), got_pairs = download(d_pair_keys, n);
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(K))) << "keys alone";
    EXPECT_EQ(0, std::memcmp(got_pairs.data(), want.data(), n * sizeof(K))) << "keys of the pairs";
    EXPECT_EQ(download(d_values_out, n), want_values) << "values: where each key was";
    EXPECT_TRUE(stillPoisoned(d_out + n, sizeof(K))) << "wrote past n";
    EXPECT_TRUE(stillPoisoned(d_values_out + n, sizeof(V))) << "wrote past n";
}

TEST_F(GpuMergeSort, IntsOfEveryDistributionAroundTheTileAndTheRounds) {
    std::mt19937_64 rng(freshSeed());
    // Tiles of 4,096 ints, rounds' tiles of 256 x 19 = 4,864 outputs (every pair of runs ends
    // inside one).
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{2049}, std::size_t{4095}, std::size_t{4096},
                          std::size_t{4097}, std::size_t{4864}, std::size_t{4865}, std::size_t{8193},
                          std::size_t{9729}, std::size_t{16385}, std::size_t{100003}, (std::size_t{1} << 20) + 3})
        for (Keys kind : {Keys::Random, Keys::Ascending, Keys::Descending, Keys::FewDistinct, Keys::AllEqual}) {
            const std::vector<int> keys = makeInts(n, kind, rng);
            checkSort(keys, SC::Less{}, "ascending, distribution " + std::to_string(static_cast<int>(kind)));
            checkSort(keys, Greater{}, "descending, distribution " + std::to_string(static_cast<int>(kind)));
        }
}

TEST_F(GpuMergeSort, WideKeysAndValuesAndLargeInputs) {
    std::mt19937_64 rng(freshSeed());
    std::vector<long long> wide(300007);
    for (auto &k : wide) k = static_cast<long long>(rng() % 100000) - 50000;
    checkSort<long long, long long>(wide, SC::Less{}, "int64 keys, int64 values");
    checkSort<long long, double>(wide, Greater{}, "int64 keys, double values");
    const std::vector<int> large = makeInts(3000001, Keys::Random, rng);
    checkSort(large, SC::Less{}, "3M ints");
}

TEST_F(GpuMergeSort, StructsByOneFieldKeepTheirInputOrder) {
    std::mt19937_64 rng(freshSeed());
    for (std::size_t n : {std::size_t{5000}, std::size_t{250001}}) {
        std::vector<Record> records(n);
        for (std::size_t i = 0; i < n; ++i)
            records[i] = Record{static_cast<int>(rng() % 64), static_cast<int>(i), static_cast<long long>(rng())};
        checkSort(records, ByRank{}, "records by rank");
    }
}

TEST_F(GpuMergeSort, OddStorageAllocatingOverloadsAndBadArguments) {
    std::mt19937_64 rng(freshSeed());
    checkSort(makeInts(70001, Keys::Random, rng), SC::Less{}, "storage at an odd address", 3);
    const std::vector<int> keys = makeInts(9000, Keys::FewDistinct, rng);
    std::vector<int> want = keys;
    std::stable_sort(want.begin(), want.end());
    DeviceArena arena;
    int *d_keys = arena.make<int>(keys.size()), *d_out = arena.make<int>(keys.size());
    upload(0, d_keys, keys);
    SC::merge_sort_keys(d_keys, d_out, keys.size());  // its own storage, Less
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_out, keys.size()), want);
    SC::merge_sort_keys(d_keys, d_out, 0, SC::Less{}, nullptr, 0);  // nothing to do
    EXPECT_EQ(SC::merge_sort_temp_bytes<int>(4096), 0u);            // one tile: no storage
    const std::size_t bytes = SC::merge_sort_temp_bytes<int>(keys.size());
    EXPECT_GT(bytes, 0u);
    char *d_temp = arena.make<char>(bytes);
    EXPECT_THROW(SC::merge_sort_keys(d_keys, d_out, keys.size(), SC::Less{}, d_temp, bytes - 1), std::invalid_argument);
    EXPECT_THROW(SC::merge_sort_keys(d_keys, d_keys + 1, keys.size() - 1, SC::Less{}, d_temp, bytes),
                 std::invalid_argument);  // overlapping
    EXPECT_THROW(SC::merge_sort_keys(static_cast<const int *>(nullptr), d_out, 5, SC::Less{}, d_temp, bytes),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// Captured once (the pairs' sort, then the keys' alone: their tile sorts differ), replayed with
// new keys (random, then all equal, then descending).
TEST_F(GpuMergeSort, GraphReplayWithNewKeys) {
    std::mt19937_64 rng(freshSeed());
    const std::size_t n = 200003;
    DeviceArena arena;
    int *d_keys = arena.make<int>(n), *d_out = arena.make<int>(n), *d_values = arena.make<int>(n),
        *d_values_out = arena.make<int>(n), *d_keys_only = arena.make<int>(n);
    const std::size_t bytes = SC::merge_sort_temp_bytes<int, int>(n);  // the keys' alone need less
    ASSERT_LE(SC::merge_sort_temp_bytes<int>(n), bytes);
    char *d_temp = arena.make<char>(bytes + 7);
    std::vector<int> keys, values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i);
    const Keys kinds[] = {Keys::Random, Keys::AllEqual, Keys::Descending};
    int replay = 0;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::merge_sort_pairs(d_keys, d_out, d_values, d_values_out, n, SC::Less{}, d_temp + 7, bytes, s);
            SC::merge_sort_keys(d_keys, d_keys_only, n, SC::Less{}, d_temp + 7, bytes, s);
        },
        [&](cudaStream_t s) {
            keys = makeInts(n, kinds[replay++ % 3], rng);
            upload(s, d_keys, keys);
            upload(s, d_values, values);
            poison(s, d_out, n * sizeof(int));
            poison(s, d_values_out, n * sizeof(int));
            poison(s, d_keys_only, n * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> order(n), sorted(n);
            for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>(i);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
            for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order[i]];
            ::testing::AssertionResult same = sameElements(download(d_values_out, n), order, "positions");
            if (same) same = sameElements(download(d_out, n), sorted, "keys of the pairs");
            if (same) same = sameElements(download(d_keys_only, n), sorted, "keys alone");
            return same;
        });
}

}  // namespace
