// Top-k (device/top_k.cuh) against the first k of std::stable_sort on the CPU: every key type,
// both orders, bit ranges, sizes around the final sort's capacity and far past it, k from 1 to the
// capacity and past it (the full sort), inputs that end the selection early, late, by positions
// (many equal keys at the k-th place) and by a second read of the input (a bin too full for the
// candidate buffers); values from an array and from a counting iterator; graph replay with inputs
// that take different paths; odd temporary storage; bad arguments.
#include <stream_compaction/device/top_k.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuTopK : public GpuTest {};

// How keys are drawn.
enum class Keys { Random, AllEqual, Ascending, Descending, FewDistinct, UnitInterval, TiesAtTheTop };

const char *keysName(Keys keys) {
    switch (keys) {
    case Keys::Random: return "random";
    case Keys::AllEqual: return "all equal";
    case Keys::Ascending: return "ascending";
    case Keys::Descending: return "descending";
    case Keys::FewDistinct: return "few distinct";
    case Keys::UnitInterval: return "in [0, 1)";
    case Keys::TiesAtTheTop: return "ties at the top";
    }
    return "?";
}

template <class K>
K randomKey(std::mt19937_64 &rng) {
    if constexpr (std::is_floating_point<K>::value) {
        const K specials[] = {K(0), -K(0), std::numeric_limits<K>::infinity(), -std::numeric_limits<K>::infinity(),
                              std::numeric_limits<K>::max(), std::numeric_limits<K>::lowest(),
                              std::numeric_limits<K>::denorm_min()};
        if (rng() % 16 == 0) return specials[rng() % 7];
        std::uniform_real_distribution<K> d(K(-1e6), K(1e6));
        return d(rng);
    } else {
        if (rng() % 32 == 0) return rng() % 2 ? std::numeric_limits<K>::min() : std::numeric_limits<K>::max();
        return static_cast<K>(rng());
    }
}

template <class K>
std::vector<K> makeKeys(std::size_t n, Keys kind, std::mt19937_64 &rng) {
    std::vector<K> keys(n);
    const K seven = static_cast<K>(7);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
        case Keys::Random: keys[i] = randomKey<K>(rng); break;
        case Keys::AllEqual: keys[i] = seven; break;
        case Keys::Ascending: keys[i] = static_cast<K>(i % 100 + (sizeof(K) > 1 ? i / 100 % 100 : 0)); break;
        case Keys::Descending: keys[i] = static_cast<K>(100 - static_cast<int>(i % 100)); break;
        case Keys::FewDistinct: keys[i] = static_cast<K>(rng() % 4); break;
        case Keys::UnitInterval:
            keys[i] = std::is_floating_point<K>::value
                          ? static_cast<K>(std::uniform_real_distribution<double>(0, 1)(rng))
                          : static_cast<K>(rng() % 3);
            break;
        case Keys::TiesAtTheTop:  // most keys equal, a few above and below them
            keys[i] = rng() % 64 == 0 ? randomKey<K>(rng) : seven;
            break;
        }
    }
    return keys;
}

// The radix sort's order of K as a strict weak order: -0.0 and +0.0 are equal (no NaNs here).
template <class K>
struct RadixLess {
    bool descending;
    bool operator()(K a, K b) const { return descending ? b < a : a < b; }
};

// The first k of the stable sort, as positions.
template <class K, class Less>
std::vector<std::size_t> referenceTopK(const std::vector<K> &keys, std::size_t k, Less less) {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    order.resize(k);
    return order;
}

// One top-k of keys and of (keys, positions as V), from an array and from a counting iterator,
// against the reference.
template <class K, class V = int>
void checkTopK(const std::vector<K> &keys, std::size_t k, bool descending, const std::string &what,
               std::size_t temp_offset = 0) {
    const std::size_t n = keys.size();
    SCOPED_TRACE(what + ": n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                 (descending ? ", largest" : ", smallest") + ", keys of " + std::to_string(sizeof(K)) + " bytes");
    const std::vector<std::size_t> want = referenceTopK(keys, k, RadixLess<K>{descending});
    std::vector<K> want_keys(k);
    std::vector<V> want_values(k);
    for (std::size_t j = 0; j < k; ++j) {
        want_keys[j] = keys[want[j]];
        want_values[j] = static_cast<V>(want[j]);
    }
    std::vector<V> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<V>(i);
    DeviceArena arena;
    K *d_keys = arena.make<K>(n), *d_out = arena.make<K>(k + 1), *d_pair_keys = arena.make<K>(k + 1);
    V *d_values = arena.make<V>(n), *d_values_out = arena.make<V>(k + 1), *d_counted = arena.make<V>(k + 1);
    upload(0, d_keys, keys);
    upload(0, d_values, values);
    poison(0, d_out, (k + 1) * sizeof(K));
    poison(0, d_pair_keys, (k + 1) * sizeof(K));
    poison(0, d_values_out, (k + 1) * sizeof(V));
    poison(0, d_counted, (k + 1) * sizeof(V));
    const SC::RadixSortOrder order{descending};
    const std::size_t key_bytes = SC::top_k_temp_bytes<K>(n, k), pair_bytes = SC::top_k_temp_bytes<K, V>(n, k);
    char *d_temp = arena.make<char>(std::max(key_bytes, pair_bytes) + temp_offset + 1);
    poison(0, d_temp, std::max(key_bytes, pair_bytes) + temp_offset + 1);
    SC::top_k_keys(d_keys, d_out, n, k, d_temp + temp_offset, key_bytes, order);
    SC::top_k_pairs(d_keys, d_pair_keys, d_values, d_values_out, n, k, d_temp + temp_offset, pair_bytes, order);
    SC::top_k_pairs(d_keys, d_pair_keys, thrust::counting_iterator<V>(0), d_counted, n, k, d_temp + temp_offset,
                    pair_bytes, order);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    // Keys compared as bits: -0.0 and +0.0 are equal keys, each keeps its own bits.
    const std::vector<K> got = download(d_out, k + 1), got_pair_keys = download(d_pair_keys, k + 1);
    EXPECT_EQ(0, std::memcmp(got.data(), want_keys.data(), k * sizeof(K))) << "keys alone";
    EXPECT_EQ(0, std::memcmp(got_pair_keys.data(), want_keys.data(), k * sizeof(K))) << "keys of the pairs";
    std::vector<V> got_values = download(d_values_out, k + 1), got_counted = download(d_counted, k + 1);
    EXPECT_TRUE(stillPoisoned(d_out + k, sizeof(K))) << "wrote past k";
    EXPECT_TRUE(stillPoisoned(d_values_out + k, sizeof(V))) << "wrote past k";
    got_values.resize(k);
    got_counted.resize(k);
    EXPECT_EQ(got_values, want_values) << "values from an array";
    EXPECT_EQ(got_counted, want_values) << "values from a counting iterator";
}

TEST_F(GpuTopK, EveryKeyTypeAndOrderAroundTheFinalSortsCapacity) {
    std::mt19937_64 rng(freshSeed());
    const std::size_t capacity = SC::top_k_max_selected<int>();
    EXPECT_TRUE(capacity == 2048 || capacity == 4096) << capacity;
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, capacity - 1, capacity, capacity + 1,
                          std::size_t{100003}}) {
        for (std::size_t k : {std::size_t{1}, std::size_t{7}, std::size_t{100}, capacity}) {
            if (k > n) k = n;
            for (bool descending : {false, true}) {
                checkTopK(makeKeys<int>(n, Keys::Random, rng), k, descending, "int");
                checkTopK(makeKeys<float>(n, Keys::Random, rng), k, descending, "float");
            }
        }
    }
    for (bool descending : {false, true}) {
        checkTopK(makeKeys<unsigned>(50001, Keys::Random, rng), 333, descending, "unsigned");
        checkTopK<double, long long>(makeKeys<double>(50001, Keys::Random, rng), 333, descending, "double");
        checkTopK<long long, long long>(makeKeys<long long>(50001, Keys::Random, rng), 1000, descending, "int64");
        checkTopK<unsigned long long, double>(makeKeys<unsigned long long>(50001, Keys::Random, rng), 99, descending,
                                              "uint64");
        checkTopK<short, short>(makeKeys<short>(50001, Keys::Random, rng), 2000, descending, "short");
        checkTopK<unsigned char, int>(makeKeys<unsigned char>(50001, Keys::Random, rng), 500, descending, "uint8");
    }
}

TEST_F(GpuTopK, InputsThatEndTheSelectionEarlyLateOrByPositions) {
    std::mt19937_64 rng(freshSeed());
    for (Keys kind : {Keys::Random, Keys::AllEqual, Keys::Ascending, Keys::Descending, Keys::FewDistinct,
                      Keys::UnitInterval, Keys::TiesAtTheTop})
        for (std::size_t n : {std::size_t{70001}, std::size_t{1} << 20}) {
            for (std::size_t k : {std::size_t{1}, std::size_t{100}, std::size_t{2048}}) {
                checkTopK(makeKeys<float>(n, kind, rng), k, true, keysName(kind));
                checkTopK(makeKeys<int>(n, kind, rng), k, false, keysName(kind));
            }
            checkTopK<double, int>(makeKeys<double>(n, kind, rng), 500, true, keysName(kind));
        }
}

// The sample (every n / 2,048-th key) sets a threshold expected to leave at least k keys below it:
// keys that make the sampled ones the smallest leave only a few there, so the first pass runs
// after all; and keys whose sampled ones are the largest leave nearly all below it, too many to keep.
TEST_F(GpuTopK, SamplesThatMislead) {
    std::mt19937_64 rng(freshSeed());
    for (std::size_t n : {std::size_t{1} << 20, std::size_t{3000017}}) {
        const std::size_t stride = n / 2048;
        std::vector<int> keys(n);
        for (std::size_t i = 0; i < n; ++i)
            keys[i] = i % stride == 0 ? static_cast<int>(i / stride) - 5000 : static_cast<int>(rng() % 1000000);
        checkTopK(keys, 100, false, "sampled keys the smallest");
        checkTopK(keys, 3000, false, "sampled keys the smallest");
        for (std::size_t i = 0; i < n; i += stride) keys[i] = 2000000000 - static_cast<int>(i / stride);
        checkTopK(keys, 100, false, "sampled keys the largest");
        checkTopK(keys, 100, true, "sampled keys the largest, the largest taken");
    }
}

// Past the selection's k, the full sort; 3,000,001 keys take several grid-stride rounds a block.
TEST_F(GpuTopK, LargeKSortsEverythingAndLargeInputs) {
    std::mt19937_64 rng(freshSeed());
    const std::size_t capacity = SC::top_k_max_selected<float>();
    checkTopK(makeKeys<float>(100003, Keys::Random, rng), capacity + 1, false, "past the capacity");
    checkTopK(makeKeys<int>(100003, Keys::FewDistinct, rng), 100003, true, "k = n");
    checkTopK(makeKeys<float>(3000001, Keys::Random, rng), 100, true, "3M random");
    checkTopK(makeKeys<float>(3000001, Keys::UnitInterval, rng), 100, true, "3M in [0, 1), a full bin");
    checkTopK(makeKeys<int>(3000001, Keys::AllEqual, rng), capacity, false, "3M equal");
}

// Bits [4, 20) of unsigned keys: keys equal there keep their input order.
TEST_F(GpuTopK, BitRange) {
    std::mt19937_64 rng(freshSeed());
    for (std::size_t n : {std::size_t{1000}, std::size_t{200001}}) {
        const std::vector<unsigned> keys = makeKeys<unsigned>(n, Keys::Random, rng);
        for (bool descending : {false, true}) {
            const std::size_t k = 300;
            const auto field = [](unsigned key) { return (key >> 4) & 0xffffu; };
            const std::vector<std::size_t> want = referenceTopK(keys, k, [&](unsigned a, unsigned b) {
                return descending ? field(b) < field(a) : field(a) < field(b);
            });
            DeviceArena arena;
            unsigned *d_keys = arena.make<unsigned>(n), *d_out = arena.make<unsigned>(k);
            int *d_where = arena.make<int>(k);
            upload(0, d_keys, keys);
            poison(0, d_where, k * sizeof(int));
            const SC::RadixSortOrder order{descending, 4, 20};
            SC::top_k_pairs(d_keys, d_out, thrust::counting_iterator<int>(0), d_where, n, k, order);
            SC_CUDA_CHECK(cudaDeviceSynchronize());
            const std::vector<int> where = download(d_where, k);
            const std::vector<unsigned> out = download(d_out, k);
            for (std::size_t j = 0; j < k; ++j) {
                ASSERT_EQ(static_cast<std::size_t>(where[j]), want[j]) << "n " << n << " place " << j;
                ASSERT_EQ(out[j], keys[want[j]]);
            }
        }
    }
    // An empty range compares nothing: the first k in input order.
    std::vector<int> keys = {5, 3, 9, 1, 7};
    DeviceArena arena;
    int *d_keys = arena.make<int>(5), *d_out = arena.make<int>(3);
    upload(0, d_keys, keys);
    SC::top_k_keys(d_keys, d_out, 5, 3, SC::RadixSortOrder{false, 8, 8});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_out, 3), (std::vector<int>{5, 3, 9}));
}

TEST_F(GpuTopK, OddStorageAndEmptyAndBadArguments) {
    std::mt19937_64 rng(freshSeed());
    checkTopK(makeKeys<float>(200001, Keys::Random, rng), 64, true, "storage at an odd address", 3);
    DeviceArena arena;
    int *d = arena.make<int>(8), *d_out = arena.make<int>(8);
    SC::top_k_keys(d, d_out, 0, 0, nullptr, 0);  // nothing to do, nothing needed
    SC::top_k_keys(d, d_out, 8, 0, nullptr, 0);
    EXPECT_EQ(SC::top_k_temp_bytes<int>(0, 0), 0u);
    EXPECT_EQ(SC::top_k_temp_bytes<int>(8, 3), 0u);  // fits the final sort: no storage
    EXPECT_THROW(SC::top_k_keys(d, d_out, 8, 9, nullptr, 0), std::invalid_argument);  // k > n
    EXPECT_THROW(SC::top_k_keys(static_cast<int *>(nullptr), d_out, 8, 2, nullptr, 0), std::invalid_argument);
    const std::size_t n = 100000, bytes = SC::top_k_temp_bytes<int>(n, 10);
    EXPECT_GT(bytes, 0u);
    int *d_keys = arena.make<int>(n);
    char *d_temp = arena.make<char>(bytes);
    EXPECT_THROW(SC::top_k_keys(d_keys, d_out, n, 10, d_temp, bytes - 1), std::invalid_argument);
    EXPECT_THROW(SC::top_k_keys(d_keys, d_keys + n - 5, n, 10, d_temp, bytes), std::invalid_argument);  // overlap
    EXPECT_THROW(SC::top_k_keys(d_keys, d_out, n, 10, d_temp, bytes, SC::RadixSortOrder{false, 0, 33}),
                 std::invalid_argument);
    EXPECT_THROW(SC::top_k_pairs(d_keys, d_out, static_cast<const int *>(nullptr), d_out, n, 4, d_temp, bytes),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// Captured once and replayed with keys that end the selection at different digits: random (two
// reads), all equal (every key digit, then positions), in [0, 1) (a bin too full to keep, read
// again), few distinct.
TEST_F(GpuTopK, GraphReplayWithInputsThatTakeDifferentPaths) {
    std::mt19937_64 rng(freshSeed());
    const std::size_t n = 300001, k = 1000;
    DeviceArena arena;
    float *d_keys = arena.make<float>(n), *d_out = arena.make<float>(k);
    int *d_where = arena.make<int>(k);
    const std::size_t bytes = SC::top_k_temp_bytes<float, int>(n, k);
    char *d_temp = arena.make<char>(bytes + 5);
    std::vector<float> keys;
    const Keys kinds[] = {Keys::Random, Keys::AllEqual, Keys::UnitInterval, Keys::FewDistinct, Keys::TiesAtTheTop};
    int replay = 0;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::top_k_pairs(d_keys, d_out, thrust::counting_iterator<int>(0), d_where, n, k, d_temp + 5, bytes,
                            SC::RadixSortOrder{true}, s);
        },
        [&](cudaStream_t s) {
            keys = makeKeys<float>(n, kinds[replay++ % 5], rng);
            upload(s, d_keys, keys);
            poison(s, d_out, k * sizeof(float));
            poison(s, d_where, k * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            const std::vector<std::size_t> want = referenceTopK(keys, k, RadixLess<float>{true});
            std::vector<int> where(k);
            for (std::size_t j = 0; j < k; ++j) where[j] = static_cast<int>(want[j]);
            return sameElements(download(d_where, k), where, "positions");
        });
}

}  // namespace
