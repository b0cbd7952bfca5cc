// The merge family (device/merge.cuh: merge_keys, merge_pairs, sorted_search, lower_bound,
// upper_bound; device/join.cuh: inner_join_size, inner_join) against std:: algorithms and
// sequential references, on fresh random sorted inputs: many duplicates and none, sizes 0, 1,
// around a tile, powers of two and not, one side much larger than the other, all keys equal,
// needles outside the haystack, joins with no matches and with every pair matching, too small and
// too large a capacity, graph capture and replay with new inputs, temporary storage at odd
// addresses, unsorted join inputs and bad arguments. Outputs are poisoned before every run, and
// what must not be written must keep its poison.
#include <gtest/gtest.h>

#include <stream_compaction/reference/merge.h>
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/device/join.cuh>
#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/merge.h>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

// Descending order: every call must follow the caller's ordering, not <.
struct Greater {
    template <class T>
    __host__ __device__ bool operator()(const T &x, const T &y) const { return y < x; }
};

// launch_dependent's contract (detail/host/launch.cuh), which the merge's planned tiles rely on:
// the first kernel lets its dependent start at once and writes its value only after a delay; each
// thread of the dependent reads it after wait_for_prior_grid.
__global__ void writeLate(int *value, int late_value) {
    SC::detail::allow_dependent_launch();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int i = 0; i < 200; ++i) __nanosleep(1000);
        *value = late_value;
    }
}
__global__ void readAfterPriorGrid(const int *value, int *out) {
    SC::detail::wait_for_prior_grid();
    out[blockIdx.x * blockDim.x + threadIdx.x] = *value;
}

// How sorted inputs repeat their keys.
enum class Keys {
    ManyDuplicates,  // keys in [0, 64): long runs
    Distinct,        // strictly increasing
    Sparse           // keys in [0, 4n): some runs of 2 or 3, many keys absent from the other side
};

const char *keysName(Keys keys) {
    switch (keys) {
    case Keys::ManyDuplicates: return "many duplicates";
    case Keys::Distinct: return "distinct";
    case Keys::Sparse: return "sparse";
    }
    return "?";
}

// n sorted keys (as K: every value below 2^24, exact in a float), starting at `base`.
template <class K>
std::vector<K> sortedKeys(std::size_t n, Keys keys, std::mt19937 &rng, long long base = 0) {
    std::vector<long long> v(n);
    if (keys == Keys::Distinct) {
        long long key = base;
        for (long long &x : v) x = (key += 1 + static_cast<long long>(rng() % 3));
    } else {
        const long long range = keys == Keys::ManyDuplicates ? 64 : 4 * static_cast<long long>(n) + 1;
        for (long long &x : v) x = base + static_cast<long long>(rng() % static_cast<unsigned long long>(range));
        std::sort(v.begin(), v.end());
    }
    return std::vector<K>(v.begin(), v.end());
}

template <class T>
SC::DeviceBuffer<T> upload(const std::vector<T> &host) {
    return SC::DeviceBuffer<T>::from_host(host.data(), host.size());
}

template <class T>
SC::DeviceBuffer<T> poisoned(std::size_t n) {
    SC::DeviceBuffer<T> buffer(n);
    buffer.fill_bytes(kPoisonByte);
    return buffer;
}

// (na, nb) pairs: both empty, one empty, 1, tiles +- 1 (merged keys: 4864 of 4 bytes a tile, 2304
// of 8; merged pairs: 2816 of 4-byte keys, 1280 of 8; sorted search: 3840 and 1792), powers of
// two and not, and one side much larger than the other.
std::vector<std::pair<std::size_t, std::size_t>> sizePairs() {
    return {{0, 0},         {0, 1},           {1, 0},           {1, 1},          {0, 1000},
            {1000, 0},      {1, 1000},        {1000, 1},        {2, 3},          {31, 33},
            {1792, 1792},   {1791, 1},        {3840, 0},        {3839, 2},       {1920, 1920},
            {2816, 0},      {2815, 2},        {1408, 1409},     {1280, 0},       {1279, 2},
            {4864, 0},      {4863, 2},        {2432, 2433},     {2304, 0},       {2303, 2},
            {1921, 1920},   {4096, 4096},     {4093, 4099},     {65536, 3},      {3, 65536},
            {100000, 1000}, {1000, 100000},   {1 << 16, 1 << 16}, {(1 << 20) + 3, (1 << 19) - 5}};
}

// ---- merge ----

template <class K, class Less = SC::Less>
::testing::AssertionResult checkMergeKeys(const std::vector<K> &a, const std::vector<K> &b, Less less = {}) {
    const std::size_t n = a.size() + b.size();
    std::vector<K> expected(n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), less);
    SC::DeviceBuffer<K> d_a = upload(a), d_b = upload(b), d_out = poisoned<K>(n + 1);
    SC::merge_keys(d_a.get(), a.size(), d_b.get(), b.size(), d_out.get(), less);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ::testing::AssertionResult same = sameElements(download(d_out.get(), n), expected, "merged keys");
    if (same && !stillPoisoned(d_out.get() + n, sizeof(K)))
        return ::testing::AssertionFailure() << "merge_keys wrote past na + nb";
    return same;
}

// Values tell the items apart: a's value is its index, b's its index + 2^40 (or + 2^20 for int),
// so the comparison with std::merge (stable, a first) checks the order of equal keys too.
template <class K, class V>
::testing::AssertionResult checkMergePairs(const std::vector<K> &a, const std::vector<K> &b) {
    const V b_tag = sizeof(V) >= 8 ? V(1ll << 40) : V(1 << 20);
    std::vector<V> a_values(a.size()), b_values(b.size());
    for (std::size_t i = 0; i < a.size(); ++i) a_values[i] = V(i);
    for (std::size_t j = 0; j < b.size(); ++j) b_values[j] = V(j) + b_tag;
    std::vector<std::pair<K, V>> pa, pb, expected(a.size() + b.size());
    for (std::size_t i = 0; i < a.size(); ++i) pa.emplace_back(a[i], a_values[i]);
    for (std::size_t j = 0; j < b.size(); ++j) pb.emplace_back(b[j], b_values[j]);
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), expected.begin(),
               [](const std::pair<K, V> &x, const std::pair<K, V> &y) { return x.first < y.first; });
    std::vector<K> expected_keys;
    std::vector<V> expected_values;
    for (const auto &p : expected) {
        expected_keys.push_back(p.first);
        expected_values.push_back(p.second);
    }
    const std::size_t n = expected.size();
    SC::DeviceBuffer<K> d_a = upload(a), d_b = upload(b), d_keys = poisoned<K>(n + 1);
    SC::DeviceBuffer<V> d_av = upload(a_values), d_bv = upload(b_values), d_values = poisoned<V>(n + 1);
    SC::merge_pairs(d_a.get(), d_av.get(), a.size(), d_b.get(), d_bv.get(), b.size(), d_keys.get(), d_values.get(),
                    SC::Less{});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ::testing::AssertionResult same = sameElements(download(d_keys.get(), n), expected_keys, "merged keys");
    if (same) same = sameElements(download(d_values.get(), n), expected_values, "merged values (stability)");
    if (same && !(stillPoisoned(d_keys.get() + n, sizeof(K)) && stillPoisoned(d_values.get() + n, sizeof(V))))
        return ::testing::AssertionFailure() << "merge_pairs wrote past na + nb";
    return same;
}

class GpuMerge : public RobustGpuTest {};

template <class K>
void mergeEverySize() {
    std::mt19937 rng(freshSeed());
    for (const auto &[na, nb] : sizePairs())
        for (const Keys keys : {Keys::ManyDuplicates, Keys::Distinct, Keys::Sparse}) {
            SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb) + ", " + keysName(keys));
            ASSERT_TRUE(checkMergeKeys(sortedKeys<K>(na, keys, rng), sortedKeys<K>(nb, keys, rng)));
        }
}

}  // namespace

TEST_F(GpuMerge, KeysIntEverySize) { mergeEverySize<int>(); }
TEST_F(GpuMerge, KeysFloatEverySize) { mergeEverySize<float>(); }
TEST_F(GpuMerge, KeysInt64EverySize) { mergeEverySize<long long>(); }

TEST_F(GpuMerge, PairsIntToIntAndIntToInt64Stable) {
    std::mt19937 rng(freshSeed());
    for (const auto &[na, nb] : sizePairs())
        for (const Keys keys : {Keys::ManyDuplicates, Keys::Distinct, Keys::Sparse}) {
            SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb) + ", " + keysName(keys));
            const std::vector<int> a = sortedKeys<int>(na, keys, rng), b = sortedKeys<int>(nb, keys, rng);
            ASSERT_TRUE((checkMergePairs<int, int>(a, b)));
            ASSERT_TRUE((checkMergePairs<int, long long>(a, b)));
        }
}

TEST_F(GpuMerge, PairsInt64AndFloatKeys) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : {std::size_t{1}, std::size_t{1791}, std::size_t{1793}, std::size_t{100003}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        ASSERT_TRUE((checkMergePairs<long long, int>(sortedKeys<long long>(n, Keys::Sparse, rng),
                                                     sortedKeys<long long>(n / 2 + 1, Keys::Sparse, rng))));
        ASSERT_TRUE((checkMergePairs<float, long long>(sortedKeys<float>(n, Keys::ManyDuplicates, rng),
                                                       sortedKeys<float>(n + 7, Keys::ManyDuplicates, rng))));
    }
}

// Every key equal: the output is all of a, then all of b (values show it).
TEST_F(GpuMerge, AllKeysEqualKeepsAThenB) {
    for (const auto &[na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 1}, {3840, 3840}, {5000, 17}, {17, 5000}, {100000, 100001}}) {
        SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb));
        ASSERT_TRUE((checkMergePairs<int, int>(std::vector<int>(na, 7), std::vector<int>(nb, 7))));
        ASSERT_TRUE((checkMergePairs<long long, long long>(std::vector<long long>(na, -3), std::vector<long long>(nb, -3))));
    }
}

// a wholly below b, wholly above, and b inside a's range: tiles whose range is one side only.
TEST_F(GpuMerge, DisjointAndNestedRanges) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : {std::size_t{1}, std::size_t{3840}, std::size_t{50001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> low = sortedKeys<int>(n, Keys::Sparse, rng);
        const std::vector<int> high = sortedKeys<int>(n + 3, Keys::Sparse, rng, 1 << 22);
        ASSERT_TRUE(checkMergeKeys(low, high));
        ASSERT_TRUE(checkMergeKeys(high, low));
        ASSERT_TRUE((checkMergePairs<int, int>(high, low)));
        const std::vector<int> inside = sortedKeys<int>(n / 3 + 1, Keys::Distinct, rng, 2 * static_cast<long long>(n));
        ASSERT_TRUE(checkMergeKeys(low, inside));
    }
}

TEST_F(GpuMerge, CustomOrderingDescending) {
    std::mt19937 rng(freshSeed());
    for (const auto &[na, nb] : sizePairs()) {
        SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb));
        std::vector<int> a = sortedKeys<int>(na, Keys::Sparse, rng), b = sortedKeys<int>(nb, Keys::Sparse, rng);
        std::reverse(a.begin(), a.end());
        std::reverse(b.begin(), b.end());
        ASSERT_TRUE(checkMergeKeys(a, b, Greater{}));
    }
}

TEST_F(GpuMerge, LargeInput) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> a = sortedKeys<int>((1 << 24) + 5, Keys::Sparse, rng);
    const std::vector<int> b = sortedKeys<int>((1 << 23) - 3, Keys::Sparse, rng);
    ASSERT_TRUE((checkMergePairs<int, int>(a, b)));
}

// Inputs of many tiles take the corner pass, which keeps each full tile's corners in the first 16
// bytes of that tile's own output: outputs at each 4-byte step modulo 16 bytes (byte accesses
// where they are not 8-byte aligned), keys alone and pairs, past the pass's threshold (4 or 5 waves
// of resident planned tiles: about 20.5 M int keys on an H100, 7.4 M pairs of int keys and 8-byte
// values). The planned tiles are launched as the pass's dependents, so they also check that no tile
// reads its corners before the pass has written them.
TEST_F(GpuMerge, ManyTilesIntoOutputsAtAnyAlignment) {
    std::mt19937 rng(freshSeed());
    const std::size_t na = (std::size_t{1} << 24) + 11, nb = (std::size_t{1} << 23) + 3, n = na + nb;
    const std::vector<int> a = sortedKeys<int>(na, Keys::Sparse, rng), b = sortedKeys<int>(nb, Keys::ManyDuplicates, rng);
    const long long b_tag = 1ll << 40;
    std::vector<long long> a_values(na), b_values(nb);
    for (std::size_t i = 0; i < na; ++i) a_values[i] = static_cast<long long>(i);
    for (std::size_t j = 0; j < nb; ++j) b_values[j] = static_cast<long long>(j) + b_tag;
    std::vector<std::pair<int, long long>> pa, pb, expected(n);
    for (std::size_t i = 0; i < na; ++i) pa.emplace_back(a[i], a_values[i]);
    for (std::size_t j = 0; j < nb; ++j) pb.emplace_back(b[j], b_values[j]);
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), expected.begin(),
               [](const std::pair<int, long long> &x, const std::pair<int, long long> &y) { return x.first < y.first; });
    std::vector<int> expected_keys(n);
    std::vector<long long> expected_values(n);
    for (std::size_t i = 0; i < n; ++i) {
        expected_keys[i] = expected[i].first;
        expected_values[i] = expected[i].second;
    }
    SC::DeviceBuffer<int> d_a = upload(a), d_b = upload(b);
    SC::DeviceBuffer<long long> d_av = upload(a_values), d_bv = upload(b_values);
    for (const std::size_t shift : {0, 1, 2, 3}) {
        SCOPED_TRACE("output at +" + std::to_string(4 * shift) + " bytes");
        SC::DeviceBuffer<int> d_keys = poisoned<int>(n + 4), d_pair_keys = poisoned<int>(n + 4);
        SC::DeviceBuffer<long long> d_values = poisoned<long long>(n + 4);
        SC::merge_keys(d_a.get(), na, d_b.get(), nb, d_keys.get() + shift, SC::Less{});
        SC::merge_pairs(d_a.get(), d_av.get(), na, d_b.get(), d_bv.get(), nb, d_pair_keys.get() + shift,
                        d_values.get() + shift, SC::Less{});
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(sameElements(download(d_keys.get() + shift, n), expected_keys, "merged keys"));
        ASSERT_TRUE(sameElements(download(d_pair_keys.get() + shift, n), expected_keys, "merged pairs' keys"));
        ASSERT_TRUE(sameElements(download(d_values.get() + shift, n), expected_values, "merged values (stability)"));
        ASSERT_TRUE(stillPoisoned(d_keys.get(), shift * sizeof(int)) && stillPoisoned(d_keys.get() + shift + n, sizeof(int)));
        ASSERT_TRUE(stillPoisoned(d_values.get(), shift * sizeof(long long)) &&
                    stillPoisoned(d_values.get() + shift + n, sizeof(long long)));
    }
}

// The corner pass's search decides the positions outside a corner's range without a load: inputs
// past its threshold whose every corner lies at one end of its range (a wholly below b, wholly
// above), and all keys equal (every corner takes all of a it can: a before b).
TEST_F(GpuMerge, CornerPassOnDisjointAndEqualKeys) {
    std::mt19937 rng(freshSeed());
    const std::size_t na = (std::size_t{1} << 24) + 7, nb = (std::size_t{1} << 23) + 1;
    const std::vector<int> low = sortedKeys<int>(na, Keys::Sparse, rng);
    const std::vector<int> high = sortedKeys<int>(nb, Keys::Sparse, rng, 1 << 30);
    ASSERT_TRUE(checkMergeKeys(low, high));
    ASSERT_TRUE(checkMergeKeys(high, low));
    ASSERT_TRUE((checkMergePairs<int, int>(std::vector<int>(na, 7), std::vector<int>(nb, 7))));
}

// Past the corner pass's threshold (see ManyTilesIntoOutputsAtAnyAlignment): its launches replay,
// the planned tiles' programmatic dependency on the pass captured as a graph edge.
TEST_F(GpuMerge, GraphReplayWithNewInputs) {
    const std::size_t na = 14000007, nb = 8999999, n = na + nb;
    DeviceArena arena;
    int *d_a = arena.make<int>(na), *d_b = arena.make<int>(nb), *d_av = arena.make<int>(na), *d_bv = arena.make<int>(nb);
    int *d_keys = arena.make<int>(n), *d_values = arena.make<int>(n), *d_keys_only = arena.make<int>(n);
    std::mt19937 rng(freshSeed());
    std::vector<int> a, b, av, bv;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::merge_pairs(d_a, d_av, na, d_b, d_bv, nb, d_keys, d_values, SC::Less{}, s);
            SC::merge_keys(d_b, nb, d_a, na, d_keys_only, SC::Less{}, s);  // b first: b's ties lead
        },
        [&](cudaStream_t s) {
            const Keys keys = rng() % 2 ? Keys::ManyDuplicates : Keys::Sparse;
            a = sortedKeys<int>(na, keys, rng);
            b = sortedKeys<int>(nb, keys, rng);
            av = randomInts(na, rng);
            bv = randomInts(nb, rng);
            upload(s, d_a, a);
            upload(s, d_b, b);
            upload(s, d_av, av);
            upload(s, d_bv, bv);
            poison(s, d_keys, n * sizeof(int));
            poison(s, d_values, n * sizeof(int));
            poison(s, d_keys_only, n * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> keys(n), values(n), keys_only(n);
            SC::CPU::mergePairs(int(na), a.data(), av.data(), int(nb), b.data(), bv.data(), keys.data(), values.data());
            SC::CPU::mergeKeys(int(nb), b.data(), int(na), a.data(), keys_only.data());
            ::testing::AssertionResult same = sameElements(download(d_keys, n), keys, "merged keys");
            if (same) same = sameElements(download(d_values, n), values, "merged values");
            if (same) same = sameElements(download(d_keys_only, n), keys_only, "merge_keys");
            return same;
        });
}

// Two merges past the corner pass's threshold at once on two streams: each stream's planned tiles
// wait for that stream's pass, not for the other's.
TEST_F(GpuMerge, ManyTilesOnTwoStreamsAtOnce) {
    std::mt19937 rng(freshSeed());
    const std::size_t na = (std::size_t{1} << 24) + 11, nb = (std::size_t{1} << 23) + 3, n = na + nb;
    const std::vector<int> a = sortedKeys<int>(na, Keys::Sparse, rng), b = sortedKeys<int>(nb, Keys::Sparse, rng);
    const std::vector<int> av = randomInts(na, rng), bv = randomInts(nb, rng);
    std::vector<int> keys(n), values(n), keys_b_first(n);
    SC::CPU::mergePairs(int(na), a.data(), av.data(), int(nb), b.data(), bv.data(), keys.data(), values.data());
    SC::CPU::mergeKeys(int(nb), b.data(), int(na), a.data(), keys_b_first.data());
    SC::DeviceBuffer<int> d_a = upload(a), d_b = upload(b), d_av = upload(av), d_bv = upload(bv);
    SC::DeviceBuffer<int> d_keys = poisoned<int>(n), d_values = poisoned<int>(n), d_keys_b_first = poisoned<int>(n);
    Stream first, second;
    SC::merge_pairs(d_a.get(), d_av.get(), na, d_b.get(), d_bv.get(), nb, d_keys.get(), d_values.get(), SC::Less{},
                    first.get());
    SC::merge_keys(d_b.get(), nb, d_a.get(), na, d_keys_b_first.get(), SC::Less{}, second.get());
    SC_CUDA_CHECK(cudaStreamSynchronize(first));
    SC_CUDA_CHECK(cudaStreamSynchronize(second));
    ASSERT_TRUE(sameElements(download(d_keys.get(), n), keys, "merged keys"));
    ASSERT_TRUE(sameElements(download(d_values.get(), n), values, "merged values"));
    ASSERT_TRUE(sameElements(download(d_keys_b_first.get(), n), keys_b_first, "merge_keys, b first"));
}

// A kernel launched as a dependent (launch_dependent, the merge's planned tiles) sees everything
// the kernel before it wrote, however late; code built for sm_90 and later is launched as one.
TEST_F(GpuMerge, DependentLaunchSeesThePriorKernelsWrites) {
    constexpr int kBlocks = 1024, kThreads = 256, kLate = 12345;
    cudaFuncAttributes attributes{};
    SC_CUDA_CHECK(cudaFuncGetAttributes(&attributes, readAfterPriorGrid));
    EXPECT_EQ(SC::detail::kernel_compiled_for_sm90(reinterpret_cast<const void *>(readAfterPriorGrid)),
              attributes.ptxVersion >= 90);
    SC::DeviceBuffer<int> d_value = poisoned<int>(1), d_out = poisoned<int>(kBlocks * kThreads);
    Stream stream;
    for (int round = 0; round < 3; ++round) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_value.get(), 0, sizeof(int), stream));
        SC::detail::launch(writeLate, "writeLate", 1, 32, 0, stream, d_value.get(), kLate + round);
        SC::detail::launch_dependent(readAfterPriorGrid, "readAfterPriorGrid", kBlocks, kThreads, 0, stream,
                                     static_cast<const int *>(d_value.get()), d_out.get());
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        ASSERT_TRUE(sameElements(download(d_out.get(), kBlocks * kThreads),
                                 std::vector<int>(kBlocks * kThreads, kLate + round), "values read"));
    }
}

TEST_F(GpuMerge, BadArgumentsThrowBeforeAnyWork) {
    SC::DeviceBuffer<int> d(16);
    const int *none = nullptr;
    EXPECT_THROW(SC::merge_keys(none, 4, d.get(), 4, d.get(), SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::merge_keys(d.get(), 4, none, 4, d.get(), SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::merge_keys(d.get(), 4, d.get(), 4, static_cast<int *>(nullptr), SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::merge_pairs(d.get(), none, 4, d.get(), d.get(), 4, d.get(), d.get(), SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::merge_pairs(d.get(), d.get(), 4, d.get(), d.get(), 4, d.get(), static_cast<int *>(nullptr),
                                 SC::Less{}),
                 std::invalid_argument);
    // Nothing to merge: null pointers are fine.
    EXPECT_NO_THROW(SC::merge_keys(none, 0, none, 0, static_cast<int *>(nullptr), SC::Less{}));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_F(GpuMerge, CourseUnitAgainstCpu) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> a = sortedKeys<int>(100003, Keys::ManyDuplicates, rng);
    const std::vector<int> b = sortedKeys<int>(65536, Keys::ManyDuplicates, rng);
    const std::vector<int> av = randomInts(a.size(), rng), bv = randomInts(b.size(), rng);
    const std::size_t n = a.size() + b.size();
    std::vector<int> keys(n), values(n), cpuKeys(n), cpuValues(n);
    SC::Merge::mergePairs(int(a.size()), a.data(), av.data(), int(b.size()), b.data(), bv.data(), keys.data(),
                          values.data());
    SC::CPU::mergePairs(int(a.size()), a.data(), av.data(), int(b.size()), b.data(), bv.data(), cpuKeys.data(),
                        cpuValues.data());
    ASSERT_TRUE(sameElements(keys, cpuKeys, "keys"));
    ASSERT_TRUE(sameElements(values, cpuValues, "values"));
    SC::Merge::mergeKeys(int(b.size()), b.data(), int(a.size()), a.data(), keys.data());
    SC::CPU::mergeKeys(int(b.size()), b.data(), int(a.size()), a.data(), cpuKeys.data());
    ASSERT_TRUE(sameElements(keys, cpuKeys, "keys, b first"));
}

// ---- sorted search and binary search ----

namespace {

template <class K, class Less = SC::Less>
std::vector<long long> referenceBounds(const std::vector<K> &needles, const std::vector<K> &haystack, SC::Bound bound,
                                       Less less = {}) {
    std::vector<long long> out;
    for (const K &x : needles)
        out.push_back((bound == SC::Bound::Lower ? std::lower_bound(haystack.begin(), haystack.end(), x, less)
                                                 : std::upper_bound(haystack.begin(), haystack.end(), x, less)) -
                      haystack.begin());
    return out;
}

enum class Search { Sorted, Binary };

// One search on a poisoned output with one more element than needed (which must keep its poison).
template <class K, class Index, class Less = SC::Less>
::testing::AssertionResult checkSearch(Search search, const std::vector<K> &needles, const std::vector<K> &haystack,
                                       SC::Bound bound, Less less = {}) {
    const std::vector<long long> wide = referenceBounds(needles, haystack, bound, less);
    const std::vector<Index> expected(wide.begin(), wide.end());
    const std::size_t m = needles.size();
    SC::DeviceBuffer<K> d_needles = upload(needles), d_haystack = upload(haystack);
    SC::DeviceBuffer<Index> d_out = poisoned<Index>(m + 1);
    if (search == Search::Sorted)
        SC::sorted_search(d_needles.get(), m, d_haystack.get(), haystack.size(), d_out.get(), bound, less);
    else if (bound == SC::Bound::Lower)
        SC::lower_bound(d_haystack.get(), haystack.size(), d_needles.get(), m, d_out.get(), less);
    else SC::upper_bound(d_haystack.get(), haystack.size(), d_needles.get(), m, d_out.get(), less);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    const char *what = search == Search::Sorted ? (bound == SC::Bound::Lower ? "sorted_search lower" : "sorted_search upper")
                                                : (bound == SC::Bound::Lower ? "lower_bound" : "upper_bound");
    ::testing::AssertionResult same = sameElements(download(d_out.get(), m), expected, what);
    if (same && !stillPoisoned(d_out.get() + m, sizeof(Index)))
        return ::testing::AssertionFailure() << what << " wrote past the needles";
    return same;
}

// Both bounds by both searches.
template <class K, class Index, class Less = SC::Less>
::testing::AssertionResult checkAllSearches(const std::vector<K> &needles, const std::vector<K> &haystack,
                                            Less less = {}) {
    for (const Search search : {Search::Sorted, Search::Binary})
        for (const SC::Bound bound : {SC::Bound::Lower, SC::Bound::Upper}) {
            ::testing::AssertionResult ok = checkSearch<K, Index>(search, needles, haystack, bound, less);
            if (!ok) return ok;
        }
    return ::testing::AssertionSuccess();
}

class GpuSortedSearch : public RobustGpuTest {};

template <class K, class Index>
void searchEverySize() {
    std::mt19937 rng(freshSeed());
    for (const auto &[m, n] : sizePairs())
        for (const Keys keys : {Keys::ManyDuplicates, Keys::Distinct, Keys::Sparse}) {
            SCOPED_TRACE(std::to_string(m) + " needles, haystack of " + std::to_string(n) + ", " + keysName(keys));
            ASSERT_TRUE((checkAllSearches<K, Index>(sortedKeys<K>(m, keys, rng), sortedKeys<K>(n, keys, rng))));
        }
}

}  // namespace

TEST_F(GpuSortedSearch, IntKeysIntIndicesEverySize) { searchEverySize<int, int>(); }
TEST_F(GpuSortedSearch, FloatKeysInt64Indices) { searchEverySize<float, long long>(); }
TEST_F(GpuSortedSearch, Int64KeysUnsignedIndices) { searchEverySize<long long, unsigned>(); }

// Needles all below the haystack (bounds 0), all above (bounds n), and on both sides of it.
TEST_F(GpuSortedSearch, NeedlesOutsideTheHaystack) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{3840}, std::size_t{70001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> haystack = sortedKeys<int>(n, Keys::Sparse, rng, 1 << 20);
        const std::vector<int> below = sortedKeys<int>(n + 11, Keys::Sparse, rng, -(1 << 22));
        const std::vector<int> above = sortedKeys<int>(n / 2 + 1, Keys::ManyDuplicates, rng, 1 << 23);
        std::vector<int> both = below;
        both.insert(both.end(), above.begin(), above.end());
        ASSERT_TRUE((checkAllSearches<int, int>(below, haystack)));
        ASSERT_TRUE((checkAllSearches<int, int>(above, haystack)));
        ASSERT_TRUE((checkAllSearches<int, int>(both, haystack)));
        ASSERT_TRUE((checkAllSearches<int, long long>(haystack, both)));  // the haystack's items as needles
    }
}

TEST_F(GpuSortedSearch, EmptyHaystackGivesZeros) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t m : {std::size_t{1}, std::size_t{3841}, std::size_t{100000}}) {
        const std::vector<int> needles = sortedKeys<int>(m, Keys::ManyDuplicates, rng);
        ASSERT_TRUE((checkAllSearches<int, int>(needles, {})));
        // A null haystack with no items is fine.
        SC::DeviceBuffer<int> d_needles = upload(needles);
        SC::DeviceBuffer<int> d_out = poisoned<int>(m);
        SC::sorted_search(d_needles.get(), m, static_cast<const int *>(nullptr), 0, d_out.get(), SC::Bound::Upper,
                          SC::Less{});
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(sameElements(download(d_out.get(), m), std::vector<int>(m, 0), "bounds in an empty haystack"));
    }
}

TEST_F(GpuSortedSearch, EmptyNeedlesWriteNothing) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> haystack = sortedKeys<int>(5000, Keys::Sparse, rng);
    SC::DeviceBuffer<int> d_haystack = upload(haystack);
    SC::DeviceBuffer<int> d_out = poisoned<int>(4);
    SC::sorted_search(d_haystack.get(), 0, d_haystack.get(), haystack.size(), d_out.get(), SC::Bound::Lower, SC::Less{});
    SC::lower_bound(d_haystack.get(), haystack.size(), d_haystack.get(), 0, d_out.get());
    SC::sorted_search(static_cast<const int *>(nullptr), 0, d_haystack.get(), haystack.size(),
                      static_cast<int *>(nullptr), SC::Bound::Upper, SC::Less{});
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_TRUE(stillPoisoned(d_out.get(), 4 * sizeof(int)));
}

TEST_F(GpuSortedSearch, ManyMoreNeedlesThanHaystackAndTheReverse) {
    std::mt19937 rng(freshSeed());
    ASSERT_TRUE((checkAllSearches<int, int>(sortedKeys<int>(1 << 20, Keys::ManyDuplicates, rng),
                                            sortedKeys<int>(7, Keys::Distinct, rng))));
    ASSERT_TRUE((checkAllSearches<int, int>(sortedKeys<int>(7, Keys::Distinct, rng),
                                            sortedKeys<int>(1 << 20, Keys::Sparse, rng))));
    ASSERT_TRUE((checkAllSearches<int, int>(sortedKeys<int>(100, Keys::Sparse, rng),
                                            std::vector<int>(1 << 18, 5))));  // all equal
    ASSERT_TRUE((checkAllSearches<int, int>(std::vector<int>(1 << 18, 5), std::vector<int>(1 << 17, 5))));
}

TEST_F(GpuSortedSearch, LargeInput) {
    std::mt19937 rng(freshSeed());
    ASSERT_TRUE((checkAllSearches<int, long long>(sortedKeys<int>((1 << 24) - 3, Keys::Sparse, rng),
                                                  sortedKeys<int>((1 << 23) + 1, Keys::Sparse, rng))));
}

TEST_F(GpuSortedSearch, CustomOrderingDescending) {
    std::mt19937 rng(freshSeed());
    for (const auto &[m, n] : sizePairs()) {
        SCOPED_TRACE(std::to_string(m) + " needles, haystack of " + std::to_string(n));
        std::vector<int> needles = sortedKeys<int>(m, Keys::Sparse, rng), haystack = sortedKeys<int>(n, Keys::Sparse, rng);
        std::reverse(needles.begin(), needles.end());
        std::reverse(haystack.begin(), haystack.end());
        ASSERT_TRUE((checkAllSearches<int, int>(needles, haystack, Greater{})));
    }
}

// Needles in any order: lower_bound and upper_bound (sorted_search needs them sorted).
TEST_F(GpuSortedSearch, BinarySearchOfUnsortedNeedles) {
    std::mt19937 rng(freshSeed());
    for (const auto &[m, n] : sizePairs()) {
        SCOPED_TRACE(std::to_string(m) + " needles, haystack of " + std::to_string(n));
        std::vector<long long> needles = sortedKeys<long long>(m, Keys::Sparse, rng, -5);
        std::shuffle(needles.begin(), needles.end(), rng);
        const std::vector<long long> haystack = sortedKeys<long long>(n, Keys::ManyDuplicates, rng);
        for (const SC::Bound bound : {SC::Bound::Lower, SC::Bound::Upper})
            ASSERT_TRUE((checkSearch<long long, int>(Search::Binary, needles, haystack, bound)));
    }
}

TEST_F(GpuSortedSearch, GraphReplayWithNewInputs) {
    const std::size_t m = 250003, n = 180001;
    DeviceArena arena;
    int *d_needles = arena.make<int>(m), *d_haystack = arena.make<int>(n);
    int *d_lower = arena.make<int>(m), *d_upper = arena.make<int>(m);
    long long *d_binary = arena.make<long long>(m);
    std::mt19937 rng(freshSeed());
    std::vector<int> needles, haystack;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::sorted_search(d_needles, m, d_haystack, n, d_lower, SC::Bound::Lower, SC::Less{}, s);
            SC::sorted_search(d_needles, m, d_haystack, n, d_upper, SC::Bound::Upper, SC::Less{}, s);
            SC::lower_bound(d_haystack, n, d_needles, m, d_binary, SC::Less{}, s);
        },
        [&](cudaStream_t s) {
            const Keys keys = rng() % 2 ? Keys::ManyDuplicates : Keys::Sparse;
            needles = sortedKeys<int>(m, keys, rng);
            haystack = sortedKeys<int>(n, keys, rng);
            upload(s, d_needles, needles);
            upload(s, d_haystack, haystack);
            poison(s, d_lower, m * sizeof(int));
            poison(s, d_upper, m * sizeof(int));
            poison(s, d_binary, m * sizeof(long long));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> lower(m), upper(m);
            SC::CPU::lowerBound(int(m), lower.data(), needles.data(), int(n), haystack.data());
            SC::CPU::upperBound(int(m), upper.data(), needles.data(), int(n), haystack.data());
            ::testing::AssertionResult same = sameElements(download(d_lower, m), lower, "lower bounds");
            if (same) same = sameElements(download(d_upper, m), upper, "upper bounds");
            if (same)
                same = sameElements(download(d_binary, m), std::vector<long long>(lower.begin(), lower.end()),
                                    "lower_bound");
            return same;
        });
}

TEST_F(GpuSortedSearch, BadArgumentsThrowBeforeAnyWork) {
    SC::DeviceBuffer<int> d(300);
    const int *none = nullptr;
    EXPECT_THROW(SC::sorted_search(none, 4, d.get(), 4, d.get(), SC::Bound::Lower, SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::sorted_search(d.get(), 4, none, 4, d.get(), SC::Bound::Lower, SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::sorted_search(d.get(), 4, d.get(), 4, static_cast<int *>(nullptr), SC::Bound::Upper, SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::lower_bound(none, 4, d.get(), 4, d.get()), std::invalid_argument);
    EXPECT_THROW(SC::upper_bound(d.get(), 4, d.get(), 4, static_cast<int *>(nullptr)), std::invalid_argument);
    // Indices too narrow for the haystack.
    SC::DeviceBuffer<std::int8_t> d_small(300);
    EXPECT_THROW(SC::sorted_search(d.get(), 300, d.get(), 300, d_small.get(), SC::Bound::Lower, SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::lower_bound(d.get(), 300, d.get(), 300, d_small.get()), std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_F(GpuSortedSearch, CourseUnitAgainstCpu) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> needles = sortedKeys<int>(100003, Keys::Sparse, rng);
    const std::vector<int> haystack = sortedKeys<int>(77777, Keys::Sparse, rng);
    std::vector<int> got(needles.size()), expected(needles.size());
    const int m = int(needles.size()), n = int(haystack.size());
    SC::Merge::lowerBound(m, got.data(), needles.data(), n, haystack.data());
    SC::CPU::lowerBound(m, expected.data(), needles.data(), n, haystack.data());
    ASSERT_TRUE(sameElements(got, expected, "lower bounds"));
    SC::Merge::upperBound(m, got.data(), needles.data(), n, haystack.data());
    SC::CPU::upperBound(m, expected.data(), needles.data(), n, haystack.data());
    ASSERT_TRUE(sameElements(got, expected, "upper bounds"));
}

// ---- inner join ----

namespace {

// Every pair (i, j) with a[i] equivalent to b[j], in order of i, then j.
template <class K, class Less = SC::Less>
std::vector<std::pair<long long, long long>> referenceJoin(const std::vector<K> &a, const std::vector<K> &b,
                                                           Less less = {}) {
    std::vector<std::pair<long long, long long>> pairs;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto first = std::lower_bound(b.begin(), b.end(), a[i], less);
        const auto last = std::upper_bound(b.begin(), b.end(), a[i], less);
        for (auto j = first; j != last; ++j) pairs.emplace_back(static_cast<long long>(i), j - b.begin());
    }
    return pairs;
}

template <class Index>
struct Joined {
    std::size_t count = 0;  // what *d_num_pairs says
    std::size_t size_count = 0;  // what inner_join_size returned
    std::vector<Index> a, b;  // the first min(count, capacity)
    bool tail_untouched = true;  // nothing written past min(count, capacity)
};

// inner_join_size, then inner_join with `capacity` (the size's count when negative) on outputs of
// capacity + 8 poisoned items, with storage `temp_offset` bytes into its buffer.
template <class K, class Index, class Less = SC::Less>
Joined<Index> gpuJoin(const std::vector<K> &a, const std::vector<K> &b, long long capacity = -1,
                      std::size_t temp_offset = 0, Less less = {}) {
    SC::DeviceBuffer<K> d_a = upload(a), d_b = upload(b);
    const std::size_t bytes = SC::inner_join_temp_bytes(a.size(), b.size());
    SC::DeviceBuffer<char> temp(bytes + temp_offset);
    temp.fill_bytes(kPoisonByte);
    void *d_temp = bytes == 0 ? nullptr : temp.get() + temp_offset;
    Joined<Index> out;
    out.size_count = SC::inner_join_size(d_a.get(), a.size(), d_b.get(), b.size(), d_temp, bytes, 0, less);
    const std::size_t room = capacity < 0 ? out.size_count : static_cast<std::size_t>(capacity);
    SC::DeviceBuffer<Index> d_ia = poisoned<Index>(room + 8), d_ib = poisoned<Index>(room + 8);
    SC::DeviceBuffer<std::size_t> d_count = poisoned<std::size_t>(1);
    SC::inner_join(d_a.get(), a.size(), d_b.get(), b.size(), d_ia.get(), d_ib.get(), room, d_count.get(), d_temp, bytes,
                   0, less);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    out.count = download(d_count.get(), 1)[0];
    const std::size_t written = std::min(out.count, room);
    out.a = download(d_ia.get(), written);
    out.b = download(d_ib.get(), written);
    out.tail_untouched = stillPoisoned(d_ia.get() + written, (room + 8 - written) * sizeof(Index)) &&
                         stillPoisoned(d_ib.get() + written, (room + 8 - written) * sizeof(Index));
    return out;
}

template <class Index>
::testing::AssertionResult sameJoin(const Joined<Index> &got, const std::vector<std::pair<long long, long long>> &pairs,
                                    std::size_t capacity) {
    if (got.size_count != pairs.size())
        return ::testing::AssertionFailure() << "inner_join_size: " << got.size_count << " pairs, expected " << pairs.size();
    if (got.count != pairs.size())
        return ::testing::AssertionFailure() << "inner_join's count: " << got.count << " pairs, expected " << pairs.size();
    if (!got.tail_untouched) return ::testing::AssertionFailure() << "inner_join wrote past min(pairs, capacity)";
    const std::size_t written = std::min(pairs.size(), capacity);
    std::vector<Index> a, b;
    for (std::size_t p = 0; p < written; ++p) {
        a.push_back(static_cast<Index>(pairs[p].first));
        b.push_back(static_cast<Index>(pairs[p].second));
    }
    ::testing::AssertionResult same = sameElements(got.a, a, "a indices");
    if (same) same = sameElements(got.b, b, "b indices");
    return same;
}

template <class K, class Index, class Less = SC::Less>
::testing::AssertionResult checkJoin(const std::vector<K> &a, const std::vector<K> &b, long long capacity = -1,
                                     std::size_t temp_offset = 0, Less less = {}) {
    const auto pairs = referenceJoin(a, b, less);
    const Joined<Index> got = gpuJoin<K, Index>(a, b, capacity, temp_offset, less);
    return sameJoin(got, pairs, capacity < 0 ? pairs.size() : static_cast<std::size_t>(capacity));
}

class GpuJoin : public RobustGpuTest {};

// Join sizes: the pairs stay below a few million (many duplicates: about na * nb / 64 pairs).
std::vector<std::pair<std::size_t, std::size_t>> joinSizes() {
    return {{1, 1},      {1, 1000},    {1000, 1},   {2, 3},        {31, 33},     {1792, 1793},
            {3840, 3839}, {4096, 4096}, {5000, 300}, {300, 5000},   {20000, 19999}, {65536, 3},
            {3, 65536}};
}

template <class K, class Index>
void joinEverySize() {
    std::mt19937 rng(freshSeed());
    for (const auto &[na, nb] : joinSizes())
        for (const Keys keys : {Keys::ManyDuplicates, Keys::Distinct, Keys::Sparse}) {
            SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb) + ", " + keysName(keys));
            ASSERT_TRUE((checkJoin<K, Index>(sortedKeys<K>(na, keys, rng), sortedKeys<K>(nb, keys, rng))));
        }
}

}  // namespace

TEST_F(GpuJoin, IntKeysIntIndicesEverySize) { joinEverySize<int, int>(); }
TEST_F(GpuJoin, Int64KeysInt64Indices) { joinEverySize<long long, long long>(); }
TEST_F(GpuJoin, FloatKeysUnsignedIndices) { joinEverySize<float, unsigned>(); }

TEST_F(GpuJoin, LargeSparseInputs) {
    std::mt19937 rng(freshSeed());
    ASSERT_TRUE((checkJoin<int, int>(sortedKeys<int>((1 << 22) + 3, Keys::Sparse, rng),
                                     sortedKeys<int>((1 << 21) - 1, Keys::Sparse, rng))));
}

TEST_F(GpuJoin, NoMatches) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : {std::size_t{1}, std::size_t{3840}, std::size_t{100001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::vector<int> even = sortedKeys<int>(n, Keys::Sparse, rng), odd = sortedKeys<int>(n + 5, Keys::Sparse, rng);
        for (int &x : even) x *= 2;
        for (int &x : odd) x = 2 * x + 1;
        ASSERT_TRUE((checkJoin<int, int>(even, odd)));
        ASSERT_TRUE((checkJoin<int, int>(odd, even, 1000)));  // room to spare: nothing written, count 0
        // Disjoint ranges.
        ASSERT_TRUE((checkJoin<int, int>(sortedKeys<int>(n, Keys::Sparse, rng),
                                         sortedKeys<int>(n, Keys::Sparse, rng, 1 << 24))));
    }
}

// Every key equal: na * nb pairs, every a against every b.
TEST_F(GpuJoin, AllKeysEqual) {
    for (const auto &[na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 1}, {1, 100000}, {100000, 1}, {1000, 700}, {2049, 2047}}) {
        SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb));
        ASSERT_TRUE((checkJoin<int, int>(std::vector<int>(na, 42), std::vector<int>(nb, 42))));
    }
    ASSERT_TRUE((checkJoin<long long, long long>(std::vector<long long>(3000, -9), std::vector<long long>(1001, -9))));
}

// One side empty: no pairs, a count of 0, no storage needed, nothing checked.
TEST_F(GpuJoin, EmptySides) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> keys = sortedKeys<int>(1000, Keys::ManyDuplicates, rng);
    ASSERT_TRUE((checkJoin<int, int>({}, keys)));
    ASSERT_TRUE((checkJoin<int, int>(keys, {})));
    ASSERT_TRUE((checkJoin<int, int>({}, {})));
    EXPECT_EQ(SC::inner_join_temp_bytes(0, 1000), 0u);
    SC::DeviceBuffer<std::size_t> d_count = poisoned<std::size_t>(1);
    SC::inner_join(static_cast<const int *>(nullptr), 0, static_cast<const int *>(nullptr), 0,
                   static_cast<int *>(nullptr), static_cast<int *>(nullptr), 0, d_count.get(), nullptr, 0);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_EQ(download(d_count.get(), 1)[0], 0u);
}

// Too small a capacity: the first `capacity` pairs, nothing past them, and the true count.
TEST_F(GpuJoin, CapacityTooSmallWritesTheFirstPairsAndTheTrueCount) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> a = sortedKeys<int>(20000, Keys::ManyDuplicates, rng);
    const std::vector<int> b = sortedKeys<int>(3000, Keys::ManyDuplicates, rng);
    const std::size_t pairs = referenceJoin(a, b).size();
    for (const long long capacity : {0ll, 1ll, 3839ll, static_cast<long long>(pairs / 2),
                                     static_cast<long long>(pairs) - 1, static_cast<long long>(pairs) + 12345}) {
        SCOPED_TRACE("capacity " + std::to_string(capacity) + " of " + std::to_string(pairs) + " pairs");
        ASSERT_TRUE((checkJoin<int, int>(a, b, capacity)));
    }
}

TEST_F(GpuJoin, TemporaryStorageAtOddAddresses) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t offset : {1, 3, 7, 60, 127}) {
        SCOPED_TRACE("temporary storage " + std::to_string(offset) + " bytes into its buffer");
        ASSERT_TRUE((checkJoin<int, long long>(sortedKeys<int>(100003, Keys::Sparse, rng),
                                               sortedKeys<int>(50001, Keys::ManyDuplicates, rng), -1, offset)));
    }
}

TEST_F(GpuJoin, CustomOrderingDescending) {
    std::mt19937 rng(freshSeed());
    std::vector<int> a = sortedKeys<int>(5000, Keys::Sparse, rng), b = sortedKeys<int>(4000, Keys::Sparse, rng);
    std::reverse(a.begin(), a.end());
    std::reverse(b.begin(), b.end());
    ASSERT_TRUE((checkJoin<int, int>(a, b, -1, 0, Greater{})));
}

TEST_F(GpuJoin, UnsortedInputIsRefused) {
    std::mt19937 rng(freshSeed());
    std::vector<int> sorted = sortedKeys<int>(10000, Keys::Sparse, rng);
    std::vector<int> unsorted = sorted;
    std::swap(unsorted[5000], unsorted[5001 + rng() % 4000]);  // distinct neighbours: out of order
    if (unsorted == sorted) std::swap(unsorted.front(), unsorted.back());
    for (const bool a_unsorted : {true, false}) {
        SCOPED_TRACE(a_unsorted ? "a unsorted" : "b unsorted");
        const std::vector<int> &a = a_unsorted ? unsorted : sorted, &b = a_unsorted ? sorted : unsorted;
        SC::DeviceBuffer<int> d_a = upload(a), d_b = upload(b);
        const std::size_t bytes = SC::inner_join_temp_bytes(a.size(), b.size());
        SC::DeviceBuffer<char> temp(bytes);
        try {
            SC::inner_join_size(d_a.get(), a.size(), d_b.get(), b.size(), temp.get(), bytes);
            ADD_FAILURE() << "inner_join_size accepted an unsorted input";
        } catch (const std::invalid_argument &e) {
            EXPECT_NE(std::string(e.what()).find("not sorted"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(a_unsorted ? "input a" : "input b"), std::string::npos) << e.what();
        }
        std::vector<int> ia(10), ib(10);
        EXPECT_THROW(SC::Merge::innerJoin(int(a.size()), a.data(), int(b.size()), b.data(), 10, ia.data(), ib.data()),
                     std::invalid_argument);
    }
    // Descending input is unsorted under <, sorted under Greater.
    std::vector<int> descending = sorted;
    std::reverse(descending.begin(), descending.end());
    SC::DeviceBuffer<int> d_desc = upload(descending);
    const std::size_t bytes = SC::inner_join_temp_bytes(descending.size(), descending.size());
    SC::DeviceBuffer<char> temp(bytes);
    EXPECT_THROW(SC::inner_join_size(d_desc.get(), descending.size(), d_desc.get(), descending.size(), temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_EQ(SC::inner_join_size(d_desc.get(), descending.size(), d_desc.get(), descending.size(), temp.get(), bytes, 0,
                                  Greater{}),
              referenceJoin(sorted, sorted).size());
}

// inner_join trusts its inputs: unsorted ones give some pairs, but nothing past capacity.
TEST_F(GpuJoin, UnsortedInputToInnerJoinStaysInBounds) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> a = randomInts(30000, rng, 0, 50), b = randomInts(20000, rng, 0, 50);
    SC::DeviceBuffer<int> d_a = upload(a), d_b = upload(b);
    const std::size_t bytes = SC::inner_join_temp_bytes(a.size(), b.size()), capacity = 100000;
    SC::DeviceBuffer<char> temp(bytes);
    SC::DeviceBuffer<int> d_ia = poisoned<int>(capacity + 64), d_ib = poisoned<int>(capacity + 64);
    SC::DeviceBuffer<std::size_t> d_count(1);
    SC::inner_join(d_a.get(), a.size(), d_b.get(), b.size(), d_ia.get(), d_ib.get(), capacity, d_count.get(),
                   temp.get(), bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    ASSERT_TRUE(stillPoisoned(d_ia.get() + capacity, 64 * sizeof(int)));
    ASSERT_TRUE(stillPoisoned(d_ib.get() + capacity, 64 * sizeof(int)));
    const std::size_t written = std::min<std::size_t>(download(d_count.get(), 1)[0], capacity);
    const std::vector<int> ia = download(d_ia.get(), written), ib = download(d_ib.get(), written);
    for (std::size_t p = 0; p < written; ++p) {
        ASSERT_TRUE(ia[p] >= 0 && std::size_t(ia[p]) < a.size()) << "pair " << p;
        ASSERT_TRUE(ib[p] >= 0 && std::size_t(ib[p]) < b.size()) << "pair " << p;
    }
}

TEST_F(GpuJoin, SizeRefusesACapturingStream) {
    const std::vector<int> keys = {1, 2, 3};
    SC::DeviceBuffer<int> d = upload(keys);
    const std::size_t bytes = SC::inner_join_temp_bytes(3, 3);
    SC::DeviceBuffer<char> temp(bytes);
    Stream stream;
    EXPECT_THROW(captureGraph(stream, [&](cudaStream_t s) { SC::inner_join_size(d.get(), 3, d.get(), 3, temp.get(), bytes, s); }),
                 std::invalid_argument);
    // The stream is usable afterwards.
    EXPECT_EQ(SC::inner_join_size(d.get(), 3, d.get(), 3, temp.get(), bytes, stream.get()), 3u);
}

// inner_join captured once, replayed on new inputs of the same sizes (a fixed capacity, more than
// their pairs).
TEST_F(GpuJoin, GraphReplayWithNewInputs) {
    const std::size_t na = 200003, nb = 150001, capacity = 3 * na;
    DeviceArena arena;
    int *d_a = arena.make<int>(na), *d_b = arena.make<int>(nb);
    int *d_ia = arena.make<int>(capacity + 8), *d_ib = arena.make<int>(capacity + 8);
    std::size_t *d_count = arena.make<std::size_t>(1);
    const std::size_t bytes = SC::inner_join_temp_bytes(na, nb) + 5;
    char *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> a, b;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::inner_join(d_a, na, d_b, nb, d_ia, d_ib, capacity, d_count, d_temp + 5, bytes - 5, s);
        },
        [&](cudaStream_t s) {
            // Sparse keys: about one match per item of a.
            a = sortedKeys<int>(na, Keys::Sparse, rng);
            b = sortedKeys<int>(nb, Keys::Sparse, rng);
            upload(s, d_a, a);
            upload(s, d_b, b);
            poison(s, d_ia, (capacity + 8) * sizeof(int));
            poison(s, d_ib, (capacity + 8) * sizeof(int));
            poison(s, d_count, sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<int> ia(capacity), ib(capacity);
            const long long pairs =
                SC::CPU::innerJoin(int(na), a.data(), int(nb), b.data(), capacity, ia.data(), ib.data());
            const std::size_t count = download(d_count, 1)[0];
            if (count != std::size_t(pairs))
                return ::testing::AssertionFailure() << count << " pairs, expected " << pairs;
            const std::size_t written = std::min<std::size_t>(count, capacity);
            ia.resize(written);
            ib.resize(written);
            ::testing::AssertionResult same = sameElements(download(d_ia, written), ia, "a indices");
            if (same) same = sameElements(download(d_ib, written), ib, "b indices");
            if (same && !(stillPoisoned(d_ia + written, (capacity + 8 - written) * sizeof(int)) &&
                          stillPoisoned(d_ib + written, (capacity + 8 - written) * sizeof(int))))
                return ::testing::AssertionFailure() << "written past the pairs";
            return same;
        });
}

TEST_F(GpuJoin, BadArgumentsThrowBeforeAnyWork) {
    SC::DeviceBuffer<int> d(300);
    SC::DeviceBuffer<std::size_t> d_count(1);
    const std::size_t bytes = SC::inner_join_temp_bytes(300, 300);
    SC::DeviceBuffer<char> temp(bytes);
    const int *none = nullptr;
    int *out = d.get();
    EXPECT_THROW(SC::inner_join_size(none, 4, d.get(), 4, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inner_join_size(d.get(), 4, none, 4, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inner_join_size(d.get(), 300, d.get(), 4, temp.get(), bytes - 1), std::invalid_argument);
    EXPECT_THROW(SC::inner_join_size(d.get(), 300, d.get(), 4, nullptr, 0), std::invalid_argument);
    EXPECT_THROW(SC::inner_join(none, 4, d.get(), 4, out, out, 4, d_count.get(), temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inner_join(d.get(), 4, d.get(), 4, out, out, 4, nullptr, temp.get(), bytes), std::invalid_argument);
    EXPECT_THROW(SC::inner_join(d.get(), 4, d.get(), 4, static_cast<int *>(nullptr), out, 4, d_count.get(), temp.get(),
                                bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::inner_join(d.get(), 300, d.get(), 4, out, out, 4, d_count.get(), temp.get(), bytes - 1),
                 std::invalid_argument);
    SC::DeviceBuffer<std::int8_t> d_small(300);
    EXPECT_THROW(SC::inner_join(d.get(), 300, d.get(), 4, d_small.get(), d_small.get(), 4, d_count.get(), temp.get(),
                                bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::inner_join(d.get(), 4, d.get(), 4, out, out, std::size_t{1} << 63, d_count.get(), temp.get(),
                                bytes),
                 std::invalid_argument);
    // No room for pairs: null outputs are fine, only the count is written.
    EXPECT_NO_THROW(SC::inner_join(d.get(), 4, d.get(), 4, static_cast<int *>(nullptr), static_cast<int *>(nullptr), 0,
                                   d_count.get(), temp.get(), bytes));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// The course unit and its CPU reference agree.
TEST_F(GpuJoin, CourseUnitAgainstCpu) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> a = sortedKeys<int>(100003, Keys::Sparse, rng);
    const std::vector<int> b = sortedKeys<int>(65536, Keys::ManyDuplicates, rng, 1000);
    const long long expected = SC::CPU::innerJoin(int(a.size()), a.data(), int(b.size()), b.data(), 0, nullptr, nullptr);
    for (const long long capacity : {expected, expected / 3}) {
        std::vector<int> ia(capacity), ib(capacity), cpuA(capacity), cpuB(capacity);
        ASSERT_EQ(SC::Merge::innerJoin(int(a.size()), a.data(), int(b.size()), b.data(), capacity, ia.data(), ib.data()),
                  expected);
        SC::CPU::innerJoin(int(a.size()), a.data(), int(b.size()), b.data(), capacity, cpuA.data(), cpuB.data());
        ASSERT_TRUE(sameElements(ia, cpuA, "a indices"));
        ASSERT_TRUE(sameElements(ib, cpuB, "b indices"));
    }
}
