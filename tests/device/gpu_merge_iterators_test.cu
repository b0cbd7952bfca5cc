// merge_keys, merge_pairs, sorted_search, lower_bound and upper_bound on inputs and outputs beyond
// raw pointers (issue #43, part 2): Thrust's counting and transform iterators as keys, values,
// needles and haystacks (the items computed, never stored), thrust::device_ptr (unwrapped to the
// pointer path), discard and transform output iterators and pointers to another type as outputs.
// Every result against the CPU (std::merge, std::lower_bound, std::upper_bound), outputs poisoned
// first, at sizes from empty to a merge of many tiles (which takes the corner pass into an array
// of keys); and graph replay on new inputs, the merge's output at an address that is not 8-byte
// aligned (the corner pass's byte-wise corners).
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuMergeIterators : public GpuTest {};

// Sorted keys with runs and ties between the two sides: a's are -1000, -1000, -1000, -998, ...
// and b's -1000, -1000, -997, -997, ...; both sides meet at every sixth value.
struct KeyOfA {
    __host__ __device__ int operator()(long long i) const { return static_cast<int>(i / 3 * 2) - 1000; }
};
struct KeyOfB {
    __host__ __device__ int operator()(long long i) const { return static_cast<int>(i / 2 * 3) - 1000; }
};
// A scattered needle in [-1100, 2^21): no order, repeats, some before every key.
struct ScatteredNeedle {
    __host__ __device__ int operator()(long long i) const {
        return static_cast<int>((static_cast<unsigned long long>(i) * 2654435761u) % 2098252u) - 1100;
    }
};
struct TimesTen {
    __host__ __device__ long long operator()(long long x) const { return 10 * x; }
};

// The computed keys of a side: keys(i) for i in [0, n).
template <class Key>
auto keysOf(Key key) {
    return thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), key);
}
template <class Key>
std::vector<int> hostKeys(Key key, std::size_t n) {
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = key(static_cast<long long>(i));
    return keys;
}

// (na, nb): empty sides, one item, odd sizes, several tiles, and a merge of many tiles.
const std::vector<std::pair<std::size_t, std::size_t>> &mergeSizes() {
    static const std::vector<std::pair<std::size_t, std::size_t>> values = {
        {0, 0}, {0, 5}, {1, 0}, {1, 1}, {1000, 777}, {(std::size_t{1} << 20) + 3, (std::size_t{1} << 19) + 1},
        {(std::size_t{1} << 24) + 1, (std::size_t{1} << 24) + 4}};
    return values;
}
constexpr std::size_t kManyTiles = std::size_t{1} << 25;

// The stable merge of a and b (a's first of equivalent keys), and of their indices beside them:
// a's item i carries i, b's item j carries na + j.
struct Merged {
    std::vector<int> keys;
    std::vector<long long> indices;
};
Merged mergeOf(const std::vector<int> &a, const std::vector<int> &b) {
    std::vector<std::pair<int, long long>> pa(a.size()), pb(b.size()), out(a.size() + b.size());
    for (std::size_t i = 0; i < a.size(); ++i) pa[i] = {a[i], static_cast<long long>(i)};
    for (std::size_t j = 0; j < b.size(); ++j) pb[j] = {b[j], static_cast<long long>(a.size() + j)};
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), out.begin(),
               [](const auto &x, const auto &y) { return x.first < y.first; });
    Merged merged;
    for (const auto &item : out) {
        merged.keys.push_back(item.first);
        merged.indices.push_back(item.second);
    }
    return merged;
}

std::string traceOf(std::size_t na, std::size_t nb) {
    return "na = " + std::to_string(na) + ", nb = " + std::to_string(nb);
}

}  // namespace

// The largest merge of the sizes above takes the corner pass into an array of keys: the tests
// below cover both kinds of tile.
TEST_F(GpuMergeIterators, TheLargestSizesRunTheCornerPass) {
    EXPECT_EQ((SC::detail::merge_block_threads<int, char, false, SC::Less>("merge_keys", kManyTiles)),
              SC::kMergePlannedThreads);
    EXPECT_EQ((SC::detail::merge_block_threads<int, long long, true, SC::Less>("merge_pairs", kManyTiles)),
              SC::kMergePlannedThreads);
    EXPECT_EQ((SC::detail::merge_block_threads<int, char, false, SC::Less>("merge_keys", 1000)), SC::kMergeThreads);
}

// Computed keys on both sides, on one side with a pointer on the other; into a pointer (the
// corner pass at the largest size), a device_ptr, a pointer to long long and a transform output.
TEST_F(GpuMergeIterators, MergeKeysOfComputedKeys) {
    for (const auto &[na, nb] : mergeSizes()) {
        SCOPED_TRACE(traceOf(na, nb));
        const std::vector<int> a = hostKeys(KeyOfA{}, na), b = hostKeys(KeyOfB{}, nb);
        const std::vector<int> expected = mergeOf(a, b).keys;
        const std::size_t n = na + nb;
        const auto d_b = SC::DeviceBuffer<int>::from_host(b.data(), nb);
        SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
        SC::DeviceBuffer<long long> d_wide(std::max<std::size_t>(n, 1));

        d_out.fill_bytes(kPoisonByte);
        SC::merge_keys(keysOf(KeyOfA{}), na, keysOf(KeyOfB{}), nb, d_out.get(), SC::Less{});
        ASSERT_TRUE(sameElements(download(d_out.get(), n), expected, "both computed"));

        d_out.fill_bytes(kPoisonByte);
        SC::merge_keys(keysOf(KeyOfA{}), na, d_b.get(), nb, thrust::device_ptr<int>(d_out.get()), SC::Less{});
        ASSERT_TRUE(sameElements(download(d_out.get(), n), expected, "a computed, b a pointer, into a device_ptr"));

        std::vector<long long> wide(expected.begin(), expected.end());
        d_wide.fill_bytes(kPoisonByte);
        SC::merge_keys(d_b.get(), 0, keysOf(KeyOfA{}), na, d_wide.get(), SC::Less{});  // a empty: b's keys alone
        ASSERT_TRUE(sameElements(download(d_wide.get(), na), std::vector<long long>(a.begin(), a.end()),
                                 "into long longs, a empty"));
        d_wide.fill_bytes(kPoisonByte);
        SC::merge_keys(keysOf(KeyOfA{}), na, d_b.get(), nb, d_wide.get(), SC::Less{});
        ASSERT_TRUE(sameElements(download(d_wide.get(), n), wide, "into long longs"));

        for (long long &x : wide) x *= 10;
        d_wide.fill_bytes(kPoisonByte);
        SC::merge_keys(keysOf(KeyOfA{}), na, keysOf(KeyOfB{}), nb,
                       thrust::make_transform_output_iterator(d_wide.get(), TimesTen{}), SC::Less{});
        ASSERT_TRUE(sameElements(download(d_wide.get(), n), wide, "through a transform output"));
    }
}

// Values from counting iterators (a's item i carries i, b's item j carries na + j): each merged
// value names where its key came from, so the order of equivalent keys is checked too. Keys into
// a discard iterator where the values alone are wanted.
TEST_F(GpuMergeIterators, MergePairsCarryComputedValues) {
    for (const auto &[na, nb] : mergeSizes()) {
        SCOPED_TRACE(traceOf(na, nb));
        const std::vector<int> a = hostKeys(KeyOfA{}, na), b = hostKeys(KeyOfB{}, nb);
        const Merged expected = mergeOf(a, b);
        const std::size_t n = na + nb;
        const auto d_a = SC::DeviceBuffer<int>::from_host(a.data(), na);
        SC::DeviceBuffer<int> d_keys(std::max<std::size_t>(n, 1));
        SC::DeviceBuffer<long long> d_values(std::max<std::size_t>(n, 1));
        const thrust::counting_iterator<long long> a_indices(0);
        const thrust::counting_iterator<long long> b_indices(static_cast<long long>(na));

        d_keys.fill_bytes(kPoisonByte);
        d_values.fill_bytes(kPoisonByte);
        SC::merge_pairs(d_a.get(), a_indices, na, keysOf(KeyOfB{}), b_indices, nb, d_keys.get(), d_values.get(),
                        SC::Less{});
        ASSERT_TRUE(sameElements(download(d_keys.get(), n), expected.keys, "keys"));
        ASSERT_TRUE(sameElements(download(d_values.get(), n), expected.indices, "values"));

        d_values.fill_bytes(kPoisonByte);
        SC::merge_pairs(keysOf(KeyOfA{}), a_indices, na, keysOf(KeyOfB{}), b_indices, nb,
                        thrust::make_discard_iterator(), thrust::device_ptr<long long>(d_values.get()), SC::Less{});
        ASSERT_TRUE(sameElements(download(d_values.get(), n), expected.indices, "values, keys discarded"));
    }
}

// Sorted needles computed, the haystack a pointer or computed; bounds into ints, a device_ptr of
// long longs and a transform output (long long bounds, its value type being none).
TEST_F(GpuMergeIterators, SortedSearchOfComputedNeedles) {
    for (const auto &[n_needles, n_haystack] : mergeSizes()) {
        SCOPED_TRACE("needles " + std::to_string(n_needles) + ", haystack " + std::to_string(n_haystack));
        const std::vector<int> needles = hostKeys(KeyOfA{}, n_needles), haystack = hostKeys(KeyOfB{}, n_haystack);
        std::vector<int> lower(n_needles), upper(n_needles);
        for (std::size_t i = 0; i < n_needles; ++i) {
            lower[i] = static_cast<int>(std::lower_bound(haystack.begin(), haystack.end(), needles[i]) -
                                        haystack.begin());
            upper[i] = static_cast<int>(std::upper_bound(haystack.begin(), haystack.end(), needles[i]) -
                                        haystack.begin());
        }
        const auto d_haystack = SC::DeviceBuffer<int>::from_host(haystack.data(), n_haystack);
        SC::DeviceBuffer<int> d_bounds(std::max<std::size_t>(n_needles, 1));
        SC::DeviceBuffer<long long> d_wide(std::max<std::size_t>(n_needles, 1));

        d_bounds.fill_bytes(kPoisonByte);
        SC::sorted_search(keysOf(KeyOfA{}), n_needles, d_haystack.get(), n_haystack, d_bounds.get(), SC::Bound::Lower,
                          SC::Less{});
        ASSERT_TRUE(sameElements(download(d_bounds.get(), n_needles), lower, "lower, into ints"));

        d_wide.fill_bytes(kPoisonByte);
        SC::sorted_search(keysOf(KeyOfA{}), n_needles, keysOf(KeyOfB{}), n_haystack,
                          thrust::device_ptr<long long>(d_wide.get()), SC::Bound::Upper, SC::Less{});
        ASSERT_TRUE(sameElements(download(d_wide.get(), n_needles), std::vector<long long>(upper.begin(), upper.end()),
                                 "upper, haystack computed, into a device_ptr"));

        std::vector<long long> lower_times_ten(lower.begin(), lower.end());
        for (long long &x : lower_times_ten) x *= 10;
        d_wide.fill_bytes(kPoisonByte);
        SC::sorted_search(keysOf(KeyOfA{}), n_needles, keysOf(KeyOfB{}), n_haystack,
                          thrust::make_transform_output_iterator(d_wide.get(), TimesTen{}), SC::Bound::Lower,
                          SC::Less{});
        ASSERT_TRUE(sameElements(download(d_wide.get(), n_needles), lower_times_ten, "lower, transform output"));
    }
}

// Needles in any order, computed; the haystack computed (sorted) or a device_ptr; bounds into a
// pointer and a transform output.
TEST_F(GpuMergeIterators, BinarySearchesOfComputedNeedles) {
    for (const auto &[m, n] : mergeSizes()) {
        SCOPED_TRACE("needles " + std::to_string(m) + ", haystack " + std::to_string(n));
        const std::vector<int> needles = hostKeys(ScatteredNeedle{}, m), haystack = hostKeys(KeyOfB{}, n);
        std::vector<long long> lower(m), upper_times_ten(m);
        for (std::size_t i = 0; i < m; ++i) {
            lower[i] = std::lower_bound(haystack.begin(), haystack.end(), needles[i]) - haystack.begin();
            upper_times_ten[i] =
                10 * (std::upper_bound(haystack.begin(), haystack.end(), needles[i]) - haystack.begin());
        }
        const auto d_haystack = SC::DeviceBuffer<int>::from_host(haystack.data(), n);
        SC::DeviceBuffer<long long> d_bounds(std::max<std::size_t>(m, 1));

        d_bounds.fill_bytes(kPoisonByte);
        SC::lower_bound(keysOf(KeyOfB{}), n, keysOf(ScatteredNeedle{}), m, d_bounds.get());
        ASSERT_TRUE(sameElements(download(d_bounds.get(), m), lower, "lower_bound, haystack computed"));

        d_bounds.fill_bytes(kPoisonByte);
        SC::upper_bound(thrust::device_ptr<const int>(d_haystack.get()), n, keysOf(ScatteredNeedle{}), m,
                        thrust::make_transform_output_iterator(d_bounds.get(), TimesTen{}));
        ASSERT_TRUE(sameElements(download(d_bounds.get(), m), upper_times_ten, "upper_bound, transform output"));
    }
}

// A null pointer among iterators is still refused, with nothing enqueued; iterators are not checked.
TEST_F(GpuMergeIterators, NullPointersBesideIteratorsAreRefused) {
    SC::DeviceBuffer<int> d(4);
    const int *none = nullptr;
    EXPECT_THROW(SC::merge_keys(keysOf(KeyOfA{}), 4, none, 4, d.get(), SC::Less{}), std::invalid_argument);
    EXPECT_THROW(SC::merge_keys(keysOf(KeyOfA{}), 4, keysOf(KeyOfB{}), 4, static_cast<int *>(nullptr), SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::merge_pairs(keysOf(KeyOfA{}), none, 4, d.get(), d.get(), 4, d.get(), d.get(), SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::sorted_search(keysOf(KeyOfA{}), 4, none, 4, d.get(), SC::Bound::Lower, SC::Less{}),
                 std::invalid_argument);
    EXPECT_THROW(SC::lower_bound(keysOf(KeyOfB{}), 4, keysOf(KeyOfA{}), 4, static_cast<int *>(nullptr)),
                 std::invalid_argument);
    SC::merge_keys(keysOf(KeyOfA{}), 0, none, 0, static_cast<int *>(nullptr), SC::Less{});  // nothing to do
}

// Every call of the family on transform iterators over device memory, captured once in a CUDA
// graph and replayed on new inputs written into that memory between replays: each replay's
// outputs are the new input's. The merges are of many tiles (the corner pass) into outputs one
// int past an 8-byte boundary.
TEST_F(GpuMergeIterators, EveryCallReplaysInAGraphOnNewInputs) {
    const std::size_t na = (kManyTiles >> 1) + 1, nb = (kManyTiles >> 1) + 4, n = na + nb;
    const Stream stream;
    SC::DeviceBuffer<int> d_a(na), d_b(nb);
    const auto a = thrust::make_transform_iterator(d_a.get(), KeyOfA{});  // KeyOfA of a source index
    const auto b = thrust::make_transform_iterator(d_b.get(), KeyOfB{});
    SC::DeviceBuffer<int> d_keys(n + 1), d_pair_keys(n + 1);
    SC::DeviceBuffer<long long> d_values(n), d_sorted(na), d_lower(nb), d_upper(nb);
    int *const keys = d_keys.get() + 1, *const pair_keys = d_pair_keys.get() + 1;
    const thrust::counting_iterator<long long> a_indices(0);
    const thrust::counting_iterator<long long> b_indices(static_cast<long long>(na));
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        SC::merge_keys(a, na, b, nb, keys, SC::Less{}, s);
        SC::merge_pairs(a, a_indices, na, b, b_indices, nb, pair_keys, d_values.get(), SC::Less{}, s);
        SC::sorted_search(a, na, b, nb, d_sorted.get(), SC::Bound::Lower, SC::Less{}, s);
        SC::lower_bound(a, na, b, nb, d_lower.get(), SC::Less{}, s);  // b's keys as needles in a
        SC::upper_bound(a, na, b, nb, d_upper.get(), SC::Less{}, s);
    });
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        // Non-decreasing source indices, each replay spaced differently: sorted keys on both sides.
        std::vector<int> source_a(na), source_b(nb);
        for (std::size_t i = 0; i < na; ++i) source_a[i] = static_cast<int>(i * (replay + 1) / 2);
        for (std::size_t j = 0; j < nb; ++j) source_b[j] = static_cast<int>(j * (3 - replay) / 2);
        SC_CUDA_CHECK(cudaMemcpy(d_a.get(), source_a.data(), na * sizeof(int), cudaMemcpyHostToDevice));
        SC_CUDA_CHECK(cudaMemcpy(d_b.get(), source_b.data(), nb * sizeof(int), cudaMemcpyHostToDevice));
        for (SC::DeviceBuffer<int> *out : {&d_keys, &d_pair_keys}) out->fill_bytes(kPoisonByte);
        for (SC::DeviceBuffer<long long> *out : {&d_values, &d_sorted, &d_lower, &d_upper})
            out->fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        std::vector<int> ka(na), kb(nb);
        std::transform(source_a.begin(), source_a.end(), ka.begin(), [](int i) { return KeyOfA{}(i); });
        std::transform(source_b.begin(), source_b.end(), kb.begin(), [](int j) { return KeyOfB{}(j); });
        const Merged merged = mergeOf(ka, kb);
        std::vector<long long> sorted(na), lower(nb), upper(nb);
        for (std::size_t i = 0; i < na; ++i) sorted[i] = std::lower_bound(kb.begin(), kb.end(), ka[i]) - kb.begin();
        for (std::size_t j = 0; j < nb; ++j) {
            lower[j] = std::lower_bound(ka.begin(), ka.end(), kb[j]) - ka.begin();
            upper[j] = std::upper_bound(ka.begin(), ka.end(), kb[j]) - ka.begin();
        }
        ASSERT_TRUE(sameElements(download(keys, n), merged.keys, "merge_keys"));
        ASSERT_TRUE(sameElements(download(pair_keys, n), merged.keys, "merge_pairs' keys"));
        ASSERT_TRUE(sameElements(download(d_values.get(), n), merged.indices, "merge_pairs' values"));
        ASSERT_TRUE(sameElements(download(d_sorted.get(), na), sorted, "sorted_search"));
        ASSERT_TRUE(sameElements(download(d_lower.get(), nb), lower, "lower_bound"));
        ASSERT_TRUE(sameElements(download(d_upper.get(), nb), upper, "upper_bound"));
    }
}
