// sc_bench's merge part, on int32 keys at 2^20 ... 2^max_log2 (the even powers and the largest):
//   sorted_search: the lower bounds of n sorted needles in a sorted haystack of n, ours by merge
//     path ("ours") and by a binary search per needle ("ours_binary"), against thrust::lower_bound
//     (vectorized, the same needles). Bytes: needles and haystack read, bounds written (12n).
//   merge_keys, merge_pairs: two sorted halves of n/2 merged into n (int32 values), against
//     cub::DeviceMerge::MergeKeys and MergePairs. Bytes: 8n (keys), 16n (pairs).
//   inner_join: two sorted arrays of 2^24 keys (2^max_log2 if smaller) with runs of mean length 4,
//     ours with the exact capacity ("ours": what a captured graph replays) and with inner_join_size
//     first ("ours_with_size": the check, the count and its wait). No library has a join: n is the
//     number of pairs (so items/s is pairs/s) and the bytes are the output's (8 per pair).
// Sorted keys: the inclusive scan of increments in {0, 1, 2} from index_hash, 0 with probability
// 1 - 1/mean (runs of mean length `mean`; 2 for search and merge), so that some keys repeat and
// some are absent from the other array. Every result is checked before it is timed: searches and
// merges against the library's output on copy 0, the join's count against thrust's bounds and its
// pairs for matching keys in strictly increasing order (which, with the right count, is the join).
#include "cases.h"
#include "fill.h"
#include "sorted_inputs.cuh"

#include <stream_compaction/device/join.cuh>
#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cub/device/device_merge.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/binary_search.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using namespace sorted_inputs;

// *total += the sum of hi[i] - lo[i].
__global__ void sum_differences(const int *lo, const int *hi, std::size_t n, unsigned long long *total) {
    unsigned long long sum = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        sum += static_cast<unsigned long long>(hi[i] - lo[i]);
    if (sum != 0) atomicAdd(total, sum);
}

// *errors += the pairs whose keys differ, whose indices are out of range, or that do not follow
// the pair before them in (a index, b index) order.
__global__ void check_pairs(const int *a, std::size_t na, const int *b, std::size_t nb, const int *ia, const int *ib,
                            std::size_t pairs, unsigned long long *errors) {
    for (std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; p < pairs;
         p += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const int i = ia[p], j = ib[p];
        bool ok = i >= 0 && static_cast<std::size_t>(i) < na && j >= 0 && static_cast<std::size_t>(j) < nb && a[i] == b[j];
        if (ok && p > 0) ok = ia[p - 1] < i || (ia[p - 1] == i && ib[p - 1] < j);
        if (!ok) atomicAdd(errors, 1ull);
    }
}

struct Impl {
    const char *name;
    bool anchor;
    int block_size;                        // 0 for the libraries
    std::function<void(std::size_t)> run;  // one run on the copy at this element offset
};

// impls[0] (the library) runs first on copy 0 and its outputs (`outputs`: int arrays and their
// lengths, copy 0) are the reference; each implementation then runs there on poisoned outputs, is
// compared, and is timed. `bytes` is the traffic of a perfect implementation.
void run_group(const Options &options, const Sink &sink, cudaStream_t stream, const char *operation, const Size &size,
               const std::string &param, Rotation &rotation, const std::vector<std::pair<int *, std::size_t>> &outputs,
               const std::vector<Impl> &impls, double bytes) {
    impls.front().run(0);
    std::vector<DeviceBuffer<int>> references;
    for (const auto &[data, elements] : outputs) {
        references.emplace_back(elements);
        SC_CUDA_CHECK(cudaMemcpyAsync(references.back().get(), data, elements * sizeof(int), cudaMemcpyDeviceToDevice,
                                      stream));
    }
    for (const Impl &impl : impls) {
        for (const auto &[data, elements] : outputs)
            poison(data, elements, stream);
        impl.run(0);
        bool ok = true;
        for (std::size_t k = 0; ok && k < outputs.size(); ++k)
            ok = thrust::equal(thrust::cuda::par.on(stream), outputs[k].first, outputs[k].first + outputs[k].second,
                               references[k].get());
        if (!ok)
            std::fprintf(stderr, "warning: %s %s, n = %s: the output differs from %s's\n", impl.name, operation,
                         size.label.c_str(), impls.front().name);
        const double ms = median_ms(stream, rotation, options.runs, impl.run);
        sink(Measurement{operation, impl.name, size, param, ms, bytes, impl.block_size, ok, impl.anchor});
    }
}

void run_searches(const Options &options, const Sink &sink, const Size &size, cudaStream_t stream) {
    const std::size_t n = size.n;
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    DeviceBuffer<int> needles(rotation.span()), haystack(rotation.span()), bounds(rotation.span());
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    make_sorted_keys(needles.get(), bounds.get(), n, kNeedleSeed, kMeanRun, n, rotation, temp, stream);
    make_sorted_keys(haystack.get(), bounds.get(), n, kHaystackSeed, kMeanRun, n, rotation, temp, stream);
    int *d_needles = needles.get(), *d_haystack = haystack.get(), *d_bounds = bounds.get();
    run_group(options, sink, stream, "sorted_search", size, "lower", rotation, {{d_bounds, n}},
              {{"thrust", true, 0,
                [=](std::size_t at) {
                    thrust::lower_bound(thrust::cuda::par.on(stream), d_haystack + at, d_haystack + at + n,
                                        d_needles + at, d_needles + at + n, d_bounds + at);
                }},
               {"ours", false, SC::kMergeThreads,
                [=](std::size_t at) {
                    SC::sorted_search(d_needles + at, n, d_haystack + at, n, d_bounds + at, SC::Bound::Lower, SC::Less{},
                                      stream);
                }},
               {"ours_binary", false, SC::kBinarySearchThreads,
                [=](std::size_t at) {
                    SC::lower_bound(d_haystack + at, n, d_needles + at, n, d_bounds + at, SC::Less{}, stream);
                }}},
              12.0 * n);
}

void run_merges(const Options &options, const Sink &sink, const Size &size, cudaStream_t stream) {
    const std::size_t n = size.n, na = n / 2, nb = n - na;
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    DeviceBuffer<int> a(rotation.span()), b(rotation.span()), a_values(rotation.span()), b_values(rotation.span());
    DeviceBuffer<int> keys_out(rotation.span()), values_out(rotation.span());
    std::size_t keys_bytes = 0, pairs_bytes = 0;
    const int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, keys_bytes, none, static_cast<std::int64_t>(na), none,
                                              static_cast<std::int64_t>(nb), static_cast<int *>(nullptr)));
    SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, pairs_bytes, none, none, static_cast<std::int64_t>(na), none,
                                               none, static_cast<std::int64_t>(nb), static_cast<int *>(nullptr),
                                               static_cast<int *>(nullptr)));
    DeviceBuffer<char> temp(std::max({keys_bytes, pairs_bytes, scan_temp_bytes(n)}));
    make_sorted_keys(a.get(), keys_out.get(), na, kASeed, kMeanRun, n, rotation, temp, stream);
    make_sorted_keys(b.get(), keys_out.get(), nb, kBSeed, kMeanRun, n, rotation, temp, stream);
    make_values(a_values.get(), rotation.span(), kValueSeed, stream);
    make_values(b_values.get(), rotation.span(), kValueSeed ^ 1u, stream);
    int *d_a = a.get(), *d_b = b.get(), *d_av = a_values.get(), *d_bv = b_values.get();
    int *d_keys = keys_out.get(), *d_values = values_out.get();
    DeviceBuffer<char> *d_temp = &temp;
    run_group(options, sink, stream, "merge_keys", size, "", rotation, {{d_keys, n}},
              {{"cub", true, 0,
                [=](std::size_t at) {
                    std::size_t bytes = d_temp->bytes();
                    SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(d_temp->get(), bytes, d_a + at,
                                                              static_cast<std::int64_t>(na), d_b + at,
                                                              static_cast<std::int64_t>(nb), d_keys + at,
                                                              ::cuda::std::less<>{}, stream));
                }},
               {"ours", false, SC::detail::merge_block_threads<int, int, false, SC::Less>("merge_keys", n),
                [=](std::size_t at) { SC::merge_keys(d_a + at, na, d_b + at, nb, d_keys + at, SC::Less{}, stream); }}},
              8.0 * n);
    run_group(options, sink, stream, "merge_pairs", size, "", rotation, {{d_keys, n}, {d_values, n}},
              {{"cub", true, 0,
                [=](std::size_t at) {
                    std::size_t bytes = d_temp->bytes();
                    SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(
                        d_temp->get(), bytes, d_a + at, d_av + at, static_cast<std::int64_t>(na), d_b + at, d_bv + at,
                        static_cast<std::int64_t>(nb), d_keys + at, d_values + at, ::cuda::std::less<>{}, stream));
                }},
               {"ours", false, SC::detail::merge_block_threads<int, int, true, SC::Less>("merge_pairs", n),
                [=](std::size_t at) {
                    SC::merge_pairs(d_a + at, d_av + at, na, d_b + at, d_bv + at, nb, d_keys + at, d_values + at,
                                    SC::Less{}, stream);
                }}},
              16.0 * n);
}

void run_join(const Options &options, const Sink &sink, int log2, cudaStream_t stream) {
    const std::size_t n = std::size_t{1} << log2;
    Rotation single(n, copy_stride(n));  // one copy: the inputs and the output dwarf L2
    DeviceBuffer<int> a(n), b(n), scratch(n), lo(n), hi(n);
    DeviceBuffer<char> cub_temp(scan_temp_bytes(n));
    make_sorted_keys(a.get(), scratch.get(), n, kJoinASeed, kJoinMeanRun, n, single, cub_temp, stream);
    make_sorted_keys(b.get(), scratch.get(), n, kJoinBSeed, kJoinMeanRun, n, single, cub_temp, stream);

    // The expected count, from thrust's bounds.
    thrust::lower_bound(thrust::cuda::par.on(stream), b.get(), b.get() + n, a.get(), a.get() + n, lo.get());
    thrust::upper_bound(thrust::cuda::par.on(stream), b.get(), b.get() + n, a.get(), a.get() + n, hi.get());
    DeviceBuffer<unsigned long long> counter(1);
    SC_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned long long), stream));
    sum_differences<<<fill_blocks(n), kFillThreads, 0, stream>>>(lo.get(), hi.get(), n, counter.get());
    SC_CHECK_LAUNCH(sum_differences);
    const std::size_t expected = static_cast<std::size_t>(read_back(counter.get(), stream));

    const std::size_t bytes = SC::inner_join_temp_bytes(n, n);
    DeviceBuffer<char> temp(bytes);
    DeviceBuffer<std::size_t> d_count(1);
    const std::size_t pairs = SC::inner_join_size(a.get(), n, b.get(), n, temp.get(), bytes, stream);
    DeviceBuffer<int> ia(pairs), ib(pairs);
    const int *d_a = a.get(), *d_b = b.get();
    int *d_ia = ia.get(), *d_ib = ib.get();
    void *d_temp = temp.get();
    std::size_t *d_pairs = d_count.get();
    const std::function<void(std::size_t)> join = [=](std::size_t) {
        SC::inner_join(d_a, n, d_b, n, d_ia, d_ib, pairs, d_pairs, d_temp, bytes, stream);
    };
    const std::function<void(std::size_t)> sized_join = [=](std::size_t) {
        const std::size_t counted = SC::inner_join_size(d_a, n, d_b, n, d_temp, bytes, stream);
        SC::inner_join(d_a, n, d_b, n, d_ia, d_ib, counted, d_pairs, d_temp, bytes, stream);
    };
    const Size size{pairs, power_of_two(log2).label + " keys"};
    const std::string param = "mean run " + std::to_string(kJoinMeanRun);
    for (const auto &[name, run] : {std::make_pair("ours", join), std::make_pair("ours_with_size", sized_join)}) {
        poison(d_ia, pairs, stream);
        poison(d_ib, pairs, stream);
        run(0);
        SC_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned long long), stream));
        check_pairs<<<fill_blocks(pairs), kFillThreads, 0, stream>>>(d_a, n, d_b, n, d_ia, d_ib, pairs, counter.get());
        SC_CHECK_LAUNCH(check_pairs);
        const bool ok = pairs == expected && read_back(d_pairs, stream) == expected && read_back(counter.get(), stream) == 0;
        if (!ok)
            std::fprintf(stderr, "warning: %s inner_join, %s: %zu pairs (expected %zu), or wrong pairs\n", name,
                         size.label.c_str(), pairs, expected);
        const double ms = median_ms(stream, single, options.runs, run);
        sink(Measurement{"inner_join", name, size, param, ms, 8.0 * static_cast<double>(pairs), SC::kMergeThreads, ok,
                         false});
    }
}

}  // namespace

void run_merge(const Options &options, const Sink &sink) {
    const Stream stream;
    const int first = std::min(20, options.max_log2);
    for (int log2 = first; log2 <= options.max_log2; ++log2) {
        if (log2 % 2 != 0 && log2 != options.max_log2) continue;
        const Size size = power_of_two(log2);
        std::fprintf(stderr, "[merge] n = %s\n", size.label.c_str());
        run_searches(options, sink, size, stream.get());
        run_merges(options, sink, size, stream.get());
    }
    const int join_log2 = std::min(kJoinLog2, options.max_log2);
    std::fprintf(stderr, "[merge] inner join of two 2^%d-key arrays\n", join_log2);
    run_join(options, sink, join_log2, stream.get());
}

}  // namespace bench
