// The by-key family (device/by_key.cuh: reduce_by_key, unique, unique_by_key, run_length_encode)
// and histogram_even (device/histogram.cuh) against sequential CPU references, on fresh random
// inputs: runs of mean length 1 (all distinct), 4, 64 and n (all equal), sizes 0, 1, tile +- 1,
// powers of two and not, several block sizes, every key and value type, a non-commutative
// operator, extreme keys, graph capture and replay, temporary storage at odd addresses, bad
// arguments. Outputs and temporary storage are poisoned before every run, and outputs past the
// count must keep their poison.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <stream_compaction/cpu.h>
#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

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
using namespace robustness;

namespace {

// Non-commutative and associative: 2x2 matrices of integers modulo 2^32 under the product.
struct Mat2 {
    unsigned a, b, c, d;
    bool operator==(const Mat2 &o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
struct MatMul {
    __host__ __device__ Mat2 operator()(const Mat2 &x, const Mat2 &y) const {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
};

// Floating-point references accumulate in double; the rest in their own type.
template <class V>
using Accumulator = std::conditional_t<std::is_floating_point_v<V>, double, V>;

template <class T>
bool sameBits(const T &a, const T &b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class V>
V randomValue(std::mt19937 &rng) {
    if constexpr (std::is_same_v<V, Mat2>) return {unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7), unsigned(rng() % 7)};
    else if constexpr (std::is_floating_point_v<V>) return static_cast<V>(std::uniform_real_distribution<double>(-1, 1)(rng));
    else return static_cast<V>(static_cast<std::int64_t>(rng() % 2001) - 1000);
}

template <class V>
std::vector<V> randomValues(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<V> v(n);
    for (V &x : v) x = randomValue<V>(rng);
    return v;
}

// Runs of geometric length with the given mean (1: every key differs from the last), each run's
// key drawn at random (negative ones included) and different from the run before.
template <class K>
std::vector<K> runKeys(std::size_t n, double meanLength, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::geometric_distribution<std::size_t> extra(1.0 / meanLength);
    std::uniform_int_distribution<int> key(-1000000, 1000000);
    std::vector<K> keys;
    keys.reserve(n);
    K previous = K(key(rng));
    while (keys.size() < n) {
        K next = K(key(rng));
        while (next == previous) next = K(key(rng));
        const std::size_t length = std::min(n - keys.size(), 1 + (meanLength > 1 ? extra(rng) : 0));
        keys.insert(keys.end(), length, next);
        previous = next;
    }
    return keys;
}

// What a by-key call returns: the runs' keys and values (the first `runs` of each), and whether the
// outputs past them kept their poison.
template <class K, class V>
struct Runs {
    std::vector<K> keys;
    std::vector<V> values;
    std::size_t runs = 0;
    bool tail_untouched = true;
};

// The sequential reference: runs under `equal`, values combined in order, floats in double, with
// each run's sum of magnitudes for the tolerance.
template <class K, class V, class Op, class Equal>
Runs<K, Accumulator<V>> referenceRuns(const std::vector<K> &keys, const std::vector<V> &values, Op op, Equal equal,
                                      std::vector<double> *magnitudes = nullptr) {
    Runs<K, Accumulator<V>> out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Accumulator<V> value = Accumulator<V>(values[i]);
        double size = 0;
        if constexpr (std::is_floating_point_v<V>) size = std::fabs(double(values[i]));
        if (i == 0 || !equal(keys[i - 1], keys[i])) {
            out.keys.push_back(keys[i]);
            out.values.push_back(value);
            if (magnitudes) magnitudes->push_back(size);
        } else {
            out.values.back() = op(out.values.back(), value);
            if (magnitudes) magnitudes->back() += size;
        }
    }
    out.runs = out.keys.size();
    return out;
}

enum class Call { ReduceByKey, UniqueByKey };

// One reduce_by_key (or unique_by_key) at `tuning` on poisoned outputs and temporary storage placed
// `temp_offset` bytes into its buffer.
template <class K, class V, class Op, class Equal>
Runs<K, V> gpuByKey(Call call, const std::vector<K> &keys, const std::vector<V> &values, Op op, Equal equal,
                    std::size_t temp_offset = 0, const SC::Tuning &tuning = {}) {
    const std::size_t n = keys.size();
    SC::DeviceBuffer<K> d_keys = SC::DeviceBuffer<K>::from_host(keys.data(), n), d_keys_out(n);
    SC::DeviceBuffer<V> d_values = SC::DeviceBuffer<V>::from_host(values.data(), n), d_values_out(n);
    SC::DeviceBuffer<std::size_t> d_runs(1);
    d_keys_out.fill_bytes(kPoisonByte);
    d_values_out.fill_bytes(kPoisonByte);
    d_runs.fill_bytes(kPoisonByte);
    const std::size_t bytes = SC::reduce_by_key_temp_bytes<K, V>(n);
    SC::DeviceBuffer<char> temp(bytes + temp_offset);
    temp.fill_bytes(kPoisonByte);
    if (call == Call::ReduceByKey)
        SC::reduce_by_key(d_keys.get(), d_values.get(), d_keys_out.get(), d_values_out.get(), d_runs.get(), n, op,
                          equal, temp.get() + temp_offset, bytes, testEnv(tuning));
    else
        SC::unique_by_key(d_keys.get(), d_values.get(), d_keys_out.get(), d_values_out.get(), d_runs.get(), n, equal,
                          temp.get() + temp_offset, bytes, testEnv(tuning));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    Runs<K, V> out;
    d_runs.copy_to_host(&out.runs, 1);
    if (out.runs > n) {
        out.runs = n + 1;  // reported as a count mismatch
        return out;
    }
    out.keys.resize(n);
    out.values.resize(n);
    d_keys_out.copy_to_host(out.keys.data(), n);
    d_values_out.copy_to_host(out.values.data(), n);
    out.tail_untouched = stillPoisoned(d_keys_out.get() + out.runs, (n - out.runs) * sizeof(K)) &&
                         stillPoisoned(d_values_out.get() + out.runs, (n - out.runs) * sizeof(V));
    out.keys.resize(out.runs);
    out.values.resize(out.runs);
    return out;
}

// Keys bit for bit (the first key of each run); values exactly, or floats within 1e-5 of the run's
// magnitude.
template <class K, class V>
::testing::AssertionResult sameRuns(const Runs<K, V> &got, const Runs<K, Accumulator<V>> &expected,
                                    const std::vector<double> &magnitudes = {}) {
    if (got.runs != expected.runs)
        return ::testing::AssertionFailure() << got.runs << " runs, expected " << expected.runs;
    if (!got.tail_untouched) return ::testing::AssertionFailure() << "an output past the last run was written";
    for (std::size_t j = 0; j < got.runs; ++j) {
        if (!sameBits(got.keys[j], expected.keys[j])) return ::testing::AssertionFailure() << "key of run " << j;
        if constexpr (std::is_floating_point_v<V>) {
            const double error = std::fabs(double(got.values[j]) - expected.values[j]) / (magnitudes[j] + 1e-30);
            if (!(double(got.values[j]) == expected.values[j] || error <= 1e-5))
                return ::testing::AssertionFailure() << "value of run " << j << ": " << got.values[j] << ", expected "
                                                     << expected.values[j] << " (relative error " << error << ")";
        } else if (!(got.values[j] == expected.values[j])) {
            return ::testing::AssertionFailure() << "value of run " << j << " differs";
        }
    }
    return ::testing::AssertionSuccess();
}

template <class K, class V, class Op, class Equal = SC::EqualTo>
::testing::AssertionResult checkReduceByKey(const std::vector<K> &keys, const std::vector<V> &values, Op op,
                                            Equal equal = {}, std::size_t temp_offset = 0,
                                            const SC::Tuning &tuning = {}) {
    std::vector<double> magnitudes;
    const auto expected = referenceRuns(keys, values, op, equal, &magnitudes);
    return sameRuns(gpuByKey(Call::ReduceByKey, keys, values, op, equal, temp_offset, tuning), expected, magnitudes);
}

struct KeepFirst {
    template <class V>
    __host__ __device__ V operator()(const V &earlier, const V &) const { return earlier; }
};

template <class K, class V>
::testing::AssertionResult checkUniqueByKey(const std::vector<K> &keys, const std::vector<V> &values,
                                            std::size_t temp_offset = 0, const SC::Tuning &tuning = {}) {
    const auto expected = referenceRuns(keys, values, KeepFirst{}, SC::EqualTo{});
    std::vector<double> magnitudes(expected.runs, 0.0);
    return sameRuns(gpuByKey(Call::UniqueByKey, keys, values, KeepFirst{}, SC::EqualTo{}, temp_offset, tuning),
                    expected, magnitudes);
}

// unique and run_length_encode on the same input, at `tuning`.
template <class T, class Length>
::testing::AssertionResult checkUniqueAndEncode(const std::vector<T> &in, std::size_t temp_offset = 0,
                                                const SC::Tuning &tuning = {}) {
    const std::size_t n = in.size();
    SC::DeviceBuffer<T> d_in = SC::DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
    SC::DeviceBuffer<Length> d_lengths(n);
    SC::DeviceBuffer<std::size_t> d_count(1);
    const std::size_t bytes = std::max(SC::unique_temp_bytes<T>(n), SC::run_length_encode_temp_bytes<T>(n));
    SC::DeviceBuffer<char> temp(bytes + temp_offset);
    std::vector<T> expected;
    std::vector<Length> lengths;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || !(in[i - 1] == in[i])) {
            expected.push_back(in[i]);
            lengths.push_back(0);
        }
        ++lengths.back();
    }
    for (const bool encode : {false, true}) {
        d_out.fill_bytes(kPoisonByte);
        d_lengths.fill_bytes(kPoisonByte);
        d_count.fill_bytes(kPoisonByte);
        temp.fill_bytes(kPoisonByte);
        if (encode)
            SC::run_length_encode(d_in.get(), d_out.get(), d_lengths.get(), d_count.get(), n, temp.get() + temp_offset,
                                  bytes, testEnv(tuning));
        else
            SC::unique(d_in.get(), d_out.get(), d_count.get(), n, SC::EqualTo{}, temp.get() + temp_offset, bytes,
                       testEnv(tuning));
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        const char *what = encode ? "run_length_encode" : "unique";
        std::size_t count = 0;
        d_count.copy_to_host(&count, 1);
        if (count != expected.size())
            return ::testing::AssertionFailure() << what << ": " << count << " runs, expected " << expected.size();
        ::testing::AssertionResult same = sameElements(download(d_out.get(), count), expected, what);
        if (!same) return same;
        if (!stillPoisoned(d_out.get() + count, (n - count) * sizeof(T)))
            return ::testing::AssertionFailure() << what << ": an output past the last run was written";
        if (encode) {
            same = sameElements(download(d_lengths.get(), count), lengths, "run lengths");
            if (!same) return same;
        }
    }
    return ::testing::AssertionSuccess();
}

// Tiles of 4-byte keys and values at `threads`, and sizes around them and past the look-back window.
template <class K, class V>
std::vector<std::size_t> tileSizes(int threads) {
    const std::size_t tile = SC::detail::by_key_tile_items<K, V>(threads);
    return {tile - 1, tile, tile + 1, 2 * tile + 3, 33 * tile + 5};
}

std::vector<std::size_t> plainSizes() { return {0, 1, 2, 3, 31, 32, 33, 1000, 4096, 65536, (1u << 20) + 3}; }

const double kMeanLengths[] = {1.0, 4.0, 64.0, 1e12};  // 1e12: one run (all keys equal)

class GpuByKey : public RobustGpuTest {};

template <class K, class V, class Op>
void checkTypes(Op op) {
    for (const std::size_t n : plainSizes())
        for (const double mean : kMeanLengths) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", mean run length " + std::to_string(mean));
            ASSERT_TRUE(checkReduceByKey(runKeys<K>(n, mean, freshSeed()), randomValues<V>(n, freshSeed()), op));
        }
}

}  // namespace

TEST_F(GpuByKey, ReduceByKeyIntSumEverySizeAndRunLength) { checkTypes<int, int>(SC::Sum{}); }
TEST_F(GpuByKey, ReduceByKeyInt64Keys) { checkTypes<long long, long long>(SC::Max{}); }
TEST_F(GpuByKey, ReduceByKeyFloatKeysDoubleValues) { checkTypes<float, double>(SC::Sum{}); }
TEST_F(GpuByKey, ReduceByKeyFloatValuesWithinTolerance) { checkTypes<int, float>(SC::Sum{}); }
TEST_F(GpuByKey, ReduceByKeyNonCommutativeMatrixProduct) { checkTypes<int, Mat2>(MatMul{}); }

TEST_F(GpuByKey, ReduceByKeyTileBoundariesAtSeveralBlockSizes) {
    for (const int threads : {32, 128, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        for (const std::size_t n : tileSizes<int, int>(threads))
            for (const double mean : kMeanLengths) {
                SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n) + ", mean " +
                             std::to_string(mean));
                ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, mean, freshSeed()), randomValues<int>(n, freshSeed()),
                                             SC::Sum{}, SC::EqualTo{}, 0, tuning));
                ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, mean, freshSeed()), randomValues<Mat2>(n, freshSeed()),
                                             MatMul{}, SC::EqualTo{}, 0, tuning));
            }
    }
}

// The staged kernel (sm_90 and later; forced on small inputs): sizes around its tile and a
// thread's items, keys and values of 4 and 8 bytes, run-length encode (no values read), and a
// non-commutative operator (unique_by_key keeps each run's first value).
TEST_F(GpuByKey, StagedRunsAroundTilesAndThreads) {
    SC::Tuning staged;
    staged.scan_staging = SC::ScanStaging::Staged;
    // Around a thread's items and a warp's (int keys; each warp writes its runs out of its part of
    // the tile), the tile (of int keys and values, of long long keys, of int keys alone for
    // run-length encode) and several tiles.
    const std::size_t tile = SC::detail::StagedRuns<int, int, true>::kItems;
    const std::size_t wide_tile = SC::detail::StagedRuns<long long, double, true>::kItems;
    const std::size_t keys_tile = SC::detail::StagedRuns<int, unsigned, false>::kItems;
    const std::size_t own = tile / SC::kStagedByKeyPolicy.threads;
    const std::size_t warp = own * 32;
    const std::size_t keys_warp = keys_tile / SC::kStagedByKeyPolicy.threads * 32;
    std::vector<std::size_t> sizes = plainSizes();
    for (const std::size_t n : {own - 1, own + 1, warp - 1, warp + 1, tile - warp + 1, wide_tile - 1, wide_tile + 1,
                                keys_warp - 1, keys_warp + 1, keys_tile - 1, keys_tile + 1, 2 * keys_tile + 5, tile - 1,
                                tile, tile + 1, 2 * tile, 5 * tile + 3})
        sizes.push_back(n);
    for (const std::size_t n : sizes)
        for (const double mean : kMeanLengths) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", mean " + std::to_string(mean));
            ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, mean, freshSeed()), randomValues<int>(n, freshSeed()),
                                         SC::Sum{}, SC::EqualTo{}, 0, staged));
            ASSERT_TRUE(checkReduceByKey(runKeys<long long>(n, mean, freshSeed()),
                                         randomValues<double>(n, freshSeed()), SC::Sum{}, SC::EqualTo{}, 0, staged));
            ASSERT_TRUE(
                checkUniqueByKey(runKeys<int>(n, mean, freshSeed()), randomValues<int>(n, freshSeed()), 0, staged));
            ASSERT_TRUE((checkUniqueAndEncode<int, int>(runKeys<int>(n, mean, freshSeed()), 0, staged)));
        }
}

// The default's switch to the staged kernels (ScanStaging::Auto) at their share of a wave of staged
// tiles (kStagedByKeyFromTenthsOfAWave), for reduce_by_key and run-length encode (whose tiles and
// kernels differ): the first launch that stages, one tile fewer and one more.
TEST_F(GpuByKey, AutoStagingAroundItsShareOfAWave) {
    const auto first_staged = [](const void *kernel, std::size_t tile) {
        const std::size_t resident =
            SC::detail::resident_grid(kernel, "staged by key", SC::kStagedByKeyPolicy.threads, 0);
        return (resident * SC::kStagedByKeyFromTenthsOfAWave + 9) / 10 * tile;
    };
    const std::size_t tile = SC::detail::StagedRuns<int, int, true>::kItems;
    const std::size_t rbk = first_staged(
        reinterpret_cast<const void *>(
            SC::detail::staged_reduce_by_key_kernel<int, SC::detail::ValueArray<int>, int, SC::Sum, SC::EqualTo>),
        tile);
    for (const std::size_t n : {rbk - tile - 1, rbk - 1, rbk + tile - 1}) {
        SCOPED_TRACE("reduce_by_key, n = " + std::to_string(n));
        ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, 4, freshSeed()), randomValues<int>(n, freshSeed()), SC::Sum{}));
    }
    const std::size_t keys_tile = SC::detail::StagedRuns<int, unsigned, false>::kItems;
    const std::size_t rle = first_staged(
        reinterpret_cast<const void *>(
            SC::detail::staged_reduce_by_key_kernel<int, SC::detail::CountOnes, unsigned, SC::Sum, SC::EqualTo>),
        keys_tile);
    for (const std::size_t n : {rle - keys_tile - 1, rle - 1, rle + keys_tile - 1}) {
        SCOPED_TRACE("run_length_encode, n = " + std::to_string(n));
        ASSERT_TRUE((checkUniqueAndEncode<int, unsigned>(runKeys<int>(n, 64, freshSeed()))));
    }
}

TEST_F(GpuByKey, ReduceByKeyLargeInput) {
    const std::size_t n = (std::size_t{1} << 26) + 11;
    for (const double mean : {4.0, 64.0}) {
        SCOPED_TRACE("mean run length " + std::to_string(mean));
        ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, mean, freshSeed()), randomValues<int>(n, freshSeed()), SC::Sum{}));
    }
}

TEST_F(GpuByKey, ReduceByKeyExtremeKeysAndWrappingSums) {
    const std::size_t n = 100003;
    std::vector<int> keys(n), values(n);
    std::mt19937 rng(freshSeed());
    const int extremes[] = {INT_MIN, INT_MAX, -1, 0};
    for (std::size_t i = 0; i < n; ++i) {
        keys[i] = extremes[(i / (1 + rng() % 5)) % 4];
        values[i] = rng() % 2 ? INT_MAX : INT_MIN + 1;
    }
    ASSERT_TRUE(checkReduceByKey(keys, values, SC::Sum{}));
}

// -0.0 == 0.0 under EqualTo (one run, first key kept bit for bit); BitwiseEqual splits them. Every
// NaN is a run of its own under ==, and NaNs of one pattern form a run bitwise.
TEST_F(GpuByKey, ReduceByKeyFloatKeyEquality) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> keys;
    for (int i = 0; i < 5000; ++i) {
        const float pattern[] = {-0.0f, 0.0f, 0.0f, -0.0f, nan, nan, 1.5f, 1.5f};
        keys.push_back(pattern[(i / 3) % 8]);
    }
    const std::vector<double> values = randomValues<double>(keys.size(), freshSeed());
    ASSERT_TRUE(checkReduceByKey(keys, values, SC::Sum{}, SC::EqualTo{}));
    ASSERT_TRUE(checkReduceByKey(keys, values, SC::Sum{}, SC::BitwiseEqual{}));
}

TEST_F(GpuByKey, TemporaryStorageAtOddAddresses) {
    const std::size_t n = 300007;
    for (const std::size_t offset : {1, 3, 7, 60, 127}) {
        SCOPED_TRACE("temporary storage " + std::to_string(offset) + " bytes into its buffer");
        ASSERT_TRUE(checkReduceByKey(runKeys<int>(n, 4, freshSeed()), randomValues<double>(n, freshSeed()), SC::Sum{},
                                     SC::EqualTo{}, offset));
        ASSERT_TRUE((checkUniqueAndEncode<int, int>(runKeys<int>(n, 4, freshSeed()), offset)));
        ASSERT_TRUE(checkUniqueByKey(runKeys<int>(n, 4, freshSeed()), randomValues<int>(n, freshSeed()), offset));
    }
}

// Keys and values that start off their vector alignment take the element-wise loads.
TEST_F(GpuByKey, MisalignedKeysAndValues) {
    const std::size_t n = 100000;
    const std::vector<int> keys = runKeys<int>(n + 3, 4, freshSeed());
    const std::vector<int> values = randomValues<int>(n + 3, freshSeed());
    for (std::size_t shift = 1; shift < 4; ++shift) {
        SC::DeviceBuffer<int> d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n + 3);
        SC::DeviceBuffer<int> d_values = SC::DeviceBuffer<int>::from_host(values.data(), n + 3);
        SC::DeviceBuffer<int> d_keys_out(n), d_values_out(n);
        SC::DeviceBuffer<std::size_t> d_runs(1);
        const std::size_t bytes = SC::reduce_by_key_temp_bytes<int, int>(n);
        SC::DeviceBuffer<char> temp(bytes);
        SC::reduce_by_key(d_keys.get() + shift, d_values.get() + (3 - shift), d_keys_out.get(),
                          d_values_out.get(), d_runs.get(), n, SC::Sum{}, SC::EqualTo{}, temp.get(), bytes, testEnv());
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<int> k(keys.begin() + shift, keys.begin() + shift + n);
        const std::vector<int> v(values.begin() + 3 - shift, values.begin() + 3 - shift + n);
        const auto expected = referenceRuns(k, v, SC::Sum{}, SC::EqualTo{});
        std::size_t runs = 0;
        d_runs.copy_to_host(&runs, 1);
        ASSERT_EQ(runs, expected.runs);
        ASSERT_TRUE(sameElements(download(d_keys_out.get(), runs), expected.keys, "keys"));
        ASSERT_TRUE(sameElements(download(d_values_out.get(), runs), expected.values, "values"));
    }
}

TEST_F(GpuByKey, UniqueByKey) {
    for (const std::size_t n : plainSizes())
        for (const double mean : kMeanLengths) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", mean run length " + std::to_string(mean));
            ASSERT_TRUE(checkUniqueByKey(runKeys<int>(n, mean, freshSeed()), randomValues<int>(n, freshSeed())));
            ASSERT_TRUE(checkUniqueByKey(runKeys<long long>(n, mean, freshSeed()), randomValues<double>(n, freshSeed())));
        }
}

TEST_F(GpuByKey, UniqueAndRunLengthEncode) {
    for (const int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = tuningWith(&SC::Tuning::single_pass, threads);
        std::vector<std::size_t> sizes = plainSizes();
        for (const std::size_t n : tileSizes<int, unsigned>(threads)) sizes.push_back(n);
        for (const std::size_t n : sizes)
            for (const double mean : kMeanLengths) {
                SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n) + ", mean " +
                             std::to_string(mean));
                ASSERT_TRUE((checkUniqueAndEncode<int, int>(runKeys<int>(n, mean, freshSeed()), 0, tuning)));
            }
    }
    ASSERT_TRUE((checkUniqueAndEncode<long long, std::size_t>(runKeys<long long>(1 << 20, 4, freshSeed()))));
    ASSERT_TRUE((checkUniqueAndEncode<float, unsigned>(runKeys<float>(1 << 20, 64, freshSeed()))));
}

// The course references (cpu.h) agree with what the device computes on int data.
TEST_F(GpuByKey, MatchesTheCourseReferences) {
    const std::size_t n = 1 << 18;
    const std::vector<int> keys = runKeys<int>(n, 4, freshSeed()), values = randomValues<int>(n, freshSeed());
    std::vector<int> k(n), v(n);
    const int runs = SC::CPU::reduceByKey(int(n), k.data(), v.data(), keys.data(), values.data());
    const Runs<int, int> got = gpuByKey(Call::ReduceByKey, keys, values, SC::Sum{}, SC::EqualTo{});
    ASSERT_EQ(got.runs, std::size_t(runs));
    ASSERT_TRUE(sameElements(got.keys, std::vector<int>(k.begin(), k.begin() + runs), "keys"));
    ASSERT_TRUE(sameElements(got.values, std::vector<int>(v.begin(), v.begin() + runs), "sums"));
}

TEST_F(GpuByKey, BadArgumentsThrowBeforeAnyWork) {
    SC::DeviceBuffer<int> d(16);
    SC::DeviceBuffer<std::size_t> d_runs(1);
    const std::size_t bytes = SC::reduce_by_key_temp_bytes<int, int>(16);
    SC::DeviceBuffer<char> temp(bytes);
    EXPECT_THROW(SC::reduce_by_key(static_cast<const int *>(nullptr), d.get(), d.get(), d.get(), d_runs.get(), 16,
                                   SC::Sum{}, SC::EqualTo{}, temp.get(), bytes, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(SC::reduce_by_key(d.get(), d.get(), d.get(), static_cast<int *>(nullptr), d_runs.get(), 16, SC::Sum{},
                                   SC::EqualTo{}, temp.get(), bytes, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(SC::reduce_by_key(d.get(), d.get(), d.get(), d.get(), nullptr, 16, SC::Sum{}, SC::EqualTo{},
                                   temp.get(), bytes, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(SC::reduce_by_key(d.get(), d.get(), d.get(), d.get(), d_runs.get(), 16, SC::Sum{}, SC::EqualTo{},
                                   temp.get(), bytes - 1, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(SC::reduce_by_key(d.get(), d.get(), d.get(), d.get(), d_runs.get(), std::size_t{1} << 32, SC::Sum{},
                                   SC::EqualTo{}, temp.get(), bytes, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(SC::run_length_encode(d.get(), d.get(), d.get(), d_runs.get(), 16, nullptr, 0, testEnv()),
                 std::invalid_argument);
    EXPECT_THROW(
        SC::unique(d.get(), static_cast<int *>(nullptr), d_runs.get(), 16, SC::EqualTo{}, temp.get(), bytes, testEnv()),
        std::invalid_argument);
    EXPECT_THROW(SC::histogram_even(d.get(), 16, reinterpret_cast<unsigned *>(d.get()), 0, 0, 10), std::invalid_argument);
    EXPECT_THROW(SC::histogram_even(d.get(), 16, reinterpret_cast<unsigned *>(d.get()), 4, 10, 10), std::invalid_argument);
    EXPECT_THROW(SC::histogram_even(d.get(), 16, static_cast<unsigned *>(nullptr), 4, 0, 10), std::invalid_argument);
    EXPECT_THROW(SC::histogram_even(static_cast<const float *>(nullptr), 16, reinterpret_cast<unsigned *>(d.get()), 4,
                                    0.0f, 1.0f),
                 std::invalid_argument);
    EXPECT_THROW(SC::histogram_even(reinterpret_cast<const float *>(d.get()), 16, reinterpret_cast<unsigned *>(d.get()),
                                    4, 0.0f, std::numeric_limits<float>::infinity()),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// n = 0: the count is 0 (the histogram all zeros) and nothing else is touched; no storage needed.
TEST_F(GpuByKey, EmptyInputWritesZeroCounts) {
    SC::DeviceBuffer<std::size_t> d_runs(1);
    d_runs.fill_bytes(kPoisonByte);
    SC::reduce_by_key(static_cast<const int *>(nullptr), static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                      static_cast<int *>(nullptr), d_runs.get(), 0, SC::Sum{}, SC::EqualTo{}, nullptr, 0, testEnv());
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_EQ(download(d_runs.get(), 1)[0], 0u);
    d_runs.fill_bytes(kPoisonByte);
    SC::unique(static_cast<const int *>(nullptr), static_cast<int *>(nullptr), d_runs.get(), 0, SC::EqualTo{}, nullptr,
               0, testEnv());
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_EQ(download(d_runs.get(), 1)[0], 0u);
    SC::DeviceBuffer<unsigned> d_histogram(100);
    d_histogram.fill_bytes(kPoisonByte);
    SC::histogram_even(static_cast<const int *>(nullptr), 0, d_histogram.get(), 100, -5, 5);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_EQ(download(d_histogram.get(), 100), std::vector<unsigned>(100, 0u));
}

// ---- histogram_even ----

namespace {

template <class Sample, class Counter>
std::vector<Counter> gpuHistogram(const std::vector<Sample> &samples, std::size_t shift, int bins, Sample lower,
                                  Sample upper) {
    SC::DeviceBuffer<Sample> d_samples = SC::DeviceBuffer<Sample>::from_host(samples.data(), samples.size());
    SC::DeviceBuffer<Counter> d_histogram(bins);
    d_histogram.fill_bytes(kPoisonByte);
    SC::histogram_even(d_samples.get() + shift, samples.size() - shift, d_histogram.get(), bins, lower, upper);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return download(d_histogram.get(), bins);
}

template <class Counter>
::testing::AssertionResult sameCounts(const std::vector<Counter> &got, const std::vector<unsigned> &expected) {
    return sameElements(got, std::vector<Counter>(expected.begin(), expected.end()), "histogram");
}

}  // namespace

// Bins 1 .. 12288 counted in shared memory, more with global atomics; samples partly outside the
// range; shifted starts take the element-wise head and tail.
TEST_F(GpuByKey, HistogramEvenIntAgainstCpu) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20, (std::size_t{1} << 22) + 5})
        for (const int bins : {1, 7, 256, 12288, 12289, 100000})
            for (const std::size_t shift : {0, 1, 3}) {
                if (shift >= n) continue;
                SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::to_string(bins) + " bins, shift " +
                             std::to_string(shift));
                const int lower = -30000, upper = 170001;
                const std::vector<int> samples = randomInts(n, rng, lower - 5000, upper + 5000);
                std::vector<unsigned> expected(bins);
                SC::CPU::histogramEven(int(n - shift), samples.data() + shift, bins, lower, upper, expected.data());
                ASSERT_TRUE(sameCounts(gpuHistogram<int, unsigned>(samples, shift, bins, lower, upper), expected));
                ASSERT_TRUE(sameCounts(gpuHistogram<int, std::size_t>(samples, shift, bins, lower, upper), expected));
            }
}

TEST_F(GpuByKey, HistogramEvenFullIntRange) {
    std::mt19937 rng(freshSeed());
    std::vector<int> samples = randomInts(1 << 20, rng, INT_MIN, INT_MAX);
    samples[0] = INT_MIN;
    samples[1] = INT_MAX;
    for (const int bins : {1, 3, 1000, 65536}) {
        std::vector<unsigned> expected(bins);
        SC::CPU::histogramEven(int(samples.size()), samples.data(), bins, INT_MIN, INT_MAX, expected.data());
        ASSERT_TRUE(sameCounts(gpuHistogram<int, int>(samples, 0, bins, INT_MIN, INT_MAX), expected)) << bins << " bins";
    }
}

TEST_F(GpuByKey, HistogramEvenFloatAgainstCpu) {
    std::mt19937 rng(freshSeed());
    std::vector<float> samples = randomFloats((1 << 20) + 3, rng);
    for (float &x : samples) x *= 1.25f;  // some outside [-1, 1)
    samples[5] = std::numeric_limits<float>::quiet_NaN();
    samples[6] = -1.0f;
    samples[7] = 1.0f;
    samples[8] = std::nextafter(1.0f, 0.0f);
    for (const int bins : {1, 10, 256, 20000}) {
        std::vector<unsigned> expected(bins);
        SC::CPU::histogramEven(int(samples.size()), samples.data(), bins, -1.0f, 1.0f, expected.data());
        ASSERT_TRUE(sameCounts(gpuHistogram<float, unsigned long long>(samples, 0, bins, -1.0f, 1.0f), expected))
            << bins << " bins";
    }
}

namespace {

// A sample computed from its index: scattered over [-200, 800).
struct ScatteredSample {
    __host__ __device__ int operator()(int i) const { return static_cast<int>(i * 7919LL % 1000) - 200; }
};

// The histogram of n samples from `input` (an iterator), enqueued on `stream`, read back.
template <class Input>
std::vector<unsigned> iteratorHistogram(Input input, std::size_t n, int bins, int lower, int upper,
                                        cudaStream_t stream = 0) {
    SC::DeviceBuffer<unsigned> d_histogram(bins);
    d_histogram.fill_bytes(kPoisonByte);
    SC::histogram_even(input, n, d_histogram.get(), bins, lower, upper, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return download(d_histogram.get(), bins);
}

}  // namespace

// Samples from iterators (issue #43): a counting and a transform iterator (samples computed, no
// array of them: the portable path) and a thrust::device_ptr (contiguous: unwrapped to the
// vectorized path), against the CPU on the same samples.
TEST_F(GpuByKey, HistogramEvenOfIteratorInputs) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3})
        for (const int bins : {7, 256, 20000}) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::to_string(bins) + " bins");
            const int lower = -100, upper = 700;
            std::vector<int> counted(n), scattered(n);
            std::iota(counted.begin(), counted.end(), 0);
            std::transform(counted.begin(), counted.end(), scattered.begin(), ScatteredSample{});
            std::vector<unsigned> expected(bins);
            SC::CPU::histogramEven(int(n), counted.data(), bins, lower, upper, expected.data());
            const thrust::counting_iterator<int> indices(0);
            ASSERT_TRUE(sameCounts(iteratorHistogram(indices, n, bins, lower, upper), expected)) << "counting";
            SC::CPU::histogramEven(int(n), scattered.data(), bins, lower, upper, expected.data());
            ASSERT_TRUE(sameCounts(iteratorHistogram(thrust::make_transform_iterator(indices, ScatteredSample{}), n,
                                                     bins, lower, upper),
                                   expected))
                << "transform";
            const auto d_scattered = SC::DeviceBuffer<int>::from_host(scattered.data(), n);
            ASSERT_TRUE(sameCounts(iteratorHistogram(thrust::device_ptr<const int>(d_scattered.get()), n, bins, lower,
                                                     upper),
                                   expected))
                << "device_ptr";
        }
}

// An iterator's histogram captured in a CUDA graph and replayed: the same counts each time.
TEST_F(GpuByKey, HistogramEvenOfAnIteratorReplaysInAGraph) {
    const std::size_t n = (std::size_t{1} << 20) + 3;
    const int bins = 300, lower = -200, upper = 800;
    std::vector<int> scattered(n);
    for (std::size_t i = 0; i < n; ++i) scattered[i] = ScatteredSample{}(static_cast<int>(i));
    std::vector<unsigned> expected(bins);
    SC::CPU::histogramEven(int(n), scattered.data(), bins, lower, upper, expected.data());
    const Stream stream;
    SC::DeviceBuffer<unsigned> d_histogram(bins);
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        SC::histogram_even(thrust::make_transform_iterator(thrust::counting_iterator<int>(0), ScatteredSample{}), n,
                           d_histogram.get(), bins, lower, upper, s);
    });
    for (int replay = 0; replay < 2; ++replay) {
        d_histogram.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        ASSERT_TRUE(sameCounts(download(d_histogram.get(), bins), expected)) << "replay " << replay;
    }
}

namespace {
// samples[i] = i % 1000, written on the device.
__global__ void fillModulo(int *samples, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        samples[i] = static_cast<int>(i % 1000);
}
}  // namespace

// More than 2^31 samples (8.6 GB): 64-bit indices and counts. Skips where the GPU lacks the memory.
TEST_F(GpuByKey, HistogramEvenPast2To31Samples) {
    const std::size_t n = (std::size_t{1} << 31) + 12345;
    std::size_t free_bytes = 0, total_bytes = 0;
    SC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < n * sizeof(int) + (std::size_t{1} << 30)) GTEST_SKIP() << "needs " << n * sizeof(int) << " bytes";
    SC::DeviceBuffer<int> d_samples(n);
    fillModulo<<<4096, 256>>>(d_samples.get(), n);
    SC_CUDA_CHECK(cudaGetLastError());
    SC::DeviceBuffer<std::size_t> d_histogram(10);
    SC::histogram_even(d_samples.get(), n, d_histogram.get(), 10, 0, 1000);  // bin = (i % 1000) / 100
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::size_t> expected(10, 0);
    const std::size_t whole = n / 1000, rest = n % 1000;
    for (int b = 0; b < 10; ++b) expected[b] = whole * 100 + std::min<std::size_t>(100, rest > b * 100u ? rest - b * 100u : 0);
    ASSERT_TRUE(sameElements(download(d_histogram.get(), 10), expected, "histogram"));
}

// ---- graph capture and replay ----

TEST_F(GpuByKey, GraphReplayReduceByKeyAndRunLengthEncode) {
    const std::size_t n = 1000003;
    DeviceArena arena;
    int *d_keys = arena.make<int>(n), *d_values = arena.make<int>(n);
    int *d_keys_out = arena.make<int>(n), *d_values_out = arena.make<int>(n);
    int *d_rle_out = arena.make<int>(n), *d_lengths = arena.make<int>(n);
    std::size_t *d_counts = arena.make<std::size_t>(2);
    const std::size_t bytes = SC::reduce_by_key_temp_bytes<int, int>(n) + 3;
    char *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> keys, values;
    // Both calls share one temporary storage, at an odd address.
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::reduce_by_key(d_keys, d_values, d_keys_out, d_values_out, d_counts, n, SC::Sum{}, SC::EqualTo{},
                              d_temp + 3, bytes - 3, testEnv(s));
            SC::run_length_encode(d_keys, d_rle_out, d_lengths, d_counts + 1, n, d_temp + 3, bytes - 3, testEnv(s));
        },
        [&](cudaStream_t s) {
            keys = runKeys<int>(n, 1 + rng() % 64, rng());
            values = randomInts(n, rng);
            upload(s, d_keys, keys);
            upload(s, d_values, values);
            for (void *out : {static_cast<void *>(d_keys_out), static_cast<void *>(d_values_out),
                              static_cast<void *>(d_rle_out), static_cast<void *>(d_lengths)})
                poison(s, out, n * sizeof(int));
            poison(s, d_counts, 2 * sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            const auto expected = referenceRuns(keys, values, SC::Sum{}, SC::EqualTo{});
            const std::vector<std::size_t> counts = download(d_counts, 2);
            if (counts[0] != expected.runs || counts[1] != expected.runs)
                return ::testing::AssertionFailure() << "counts " << counts[0] << ", " << counts[1] << ", expected "
                                                     << expected.runs;
            std::vector<int> lengths;
            for (std::size_t i = 0; i < n; ++i) {
                if (i == 0 || keys[i - 1] != keys[i]) lengths.push_back(0);
                ++lengths.back();
            }
            ::testing::AssertionResult same = sameElements(download(d_keys_out, counts[0]), expected.keys, "keys");
            if (same) same = sameElements(download(d_values_out, counts[0]), expected.values, "sums");
            if (same) same = sameElements(download(d_rle_out, counts[1]), expected.keys, "encoded items");
            if (same) same = sameElements(download(d_lengths, counts[1]), lengths, "run lengths");
            return same;
        });
}

TEST_F(GpuByKey, GraphReplayUniqueUniqueByKeyAndHistogram) {
    const std::size_t n = 1000003;
    const int bins = 300;
    DeviceArena arena;
    int *d_in = arena.make<int>(n), *d_out = arena.make<int>(n);
    int *d_values = arena.make<int>(n), *d_keys_out = arena.make<int>(n), *d_values_out = arena.make<int>(n);
    unsigned *d_histogram = arena.make<unsigned>(bins);
    std::size_t *d_count = arena.make<std::size_t>(1), *d_pairs = arena.make<std::size_t>(1);
    const std::size_t bytes = SC::unique_temp_bytes<int>(n);
    const std::size_t pair_bytes = SC::unique_by_key_temp_bytes<int, int>(n);
    void *d_temp = arena.make<char>(bytes);
    void *d_pair_temp = arena.make<char>(pair_bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in, values;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::unique(d_in, d_out, d_count, n, SC::EqualTo{}, d_temp, bytes, testEnv(s));
            SC::unique_by_key(d_in, d_values, d_keys_out, d_values_out, d_pairs, n, SC::EqualTo{}, d_pair_temp,
                              pair_bytes, testEnv(s));
            SC::histogram_even(d_in, n, d_histogram, bins, -1000000, 1000000, s);
        },
        [&](cudaStream_t s) {
            in = runKeys<int>(n, 1 + rng() % 16, rng());
            values = randomValues<int>(n, rng());
            upload(s, d_in, in);
            upload(s, d_values, values);
            poison(s, d_out, n * sizeof(int));
            poison(s, d_keys_out, n * sizeof(int));
            poison(s, d_values_out, n * sizeof(int));
            poison(s, d_count, sizeof(std::size_t));
            poison(s, d_pairs, sizeof(std::size_t));
            poison(s, d_histogram, bins * sizeof(unsigned));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> expected(n), expected_keys(n), expected_values(n);
            expected.resize(SC::CPU::unique(int(n), expected.data(), in.data()));
            const int pairs = SC::CPU::uniqueByKey(int(n), expected_keys.data(), expected_values.data(), in.data(),
                                                   values.data());
            expected_keys.resize(pairs);
            expected_values.resize(pairs);
            std::vector<unsigned> counts(bins);
            SC::CPU::histogramEven(int(n), in.data(), bins, -1000000, 1000000, counts.data());
            const std::size_t count = download(d_count, 1)[0], pair_count = download(d_pairs, 1)[0];
            if (count != expected.size())
                return ::testing::AssertionFailure() << count << " unique, expected " << expected.size();
            if (pair_count != expected_keys.size())
                return ::testing::AssertionFailure() << pair_count << " unique by key, expected " << pairs;
            ::testing::AssertionResult same = sameElements(download(d_out, count), expected, "unique");
            if (same) same = sameElements(download(d_keys_out, pair_count), expected_keys, "unique_by_key keys");
            if (same) same = sameElements(download(d_values_out, pair_count), expected_values, "unique_by_key values");
            if (same) same = sameElements(download(d_histogram, bins), counts, "histogram");
            return same;
        });
}
