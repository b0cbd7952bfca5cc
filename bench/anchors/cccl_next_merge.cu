// sc_nvbench_cccl_next's rows of the merge part (bench/nvbench/merge.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's sorted int32 keys (sorted_inputs.cuh) at its points, n = 2^20, 2^24,
// 2^28 (axis n), with cuda::std::less as merge.cu's CUB calls take it:
//   sorted_search/cub_X.Y         (param "lower") cub::DeviceFind::LowerBoundSortedValues: the lower
//                                 bounds of n sorted needles in a sorted haystack of n, the needles
//                                 known to be sorted, as ours' (merge path)
//   sorted_search/cub_X.Y_binary  (param "lower") cub::DeviceFind::LowerBound: a binary search per
//                                 needle, any needles
//   merge_keys/cub_X.Y, merge_pairs/cub_X.Y  cub::DeviceMerge::MergeKeys and MergePairs of two sorted
//                                 halves of n/2 keys (with values for the pairs; int64 sizes, as
//                                 merge.cu calls the toolkit's)
// The toolkit's CCCL has no DeviceFind: the searches' point has ours and Thrust's rows (merge.cu),
// whose axes these have. Bytes as merge.cu counts them: needles and haystack read and bounds written
// (12n); 8n for the keys' merge, 16n for the pairs'. Every output and the temporary storage are
// poisoned before the timed runs; what the last one wrote is checked in full against merge.cu's CPU
// references (lower_bounds_of: a two-pointer walk; merge_of: the stable merge, a's keys first of
// equal ones, each value beside its key).
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "sorted_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_find.cuh>
#include <cub/device/device_merge.cuh>
#include <cuda/std/execution>
#include <cuda/std/functional>
#include <cuda/stream_ref>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using namespace sorted_inputs;  // the part's seeds, axes, inputs and CPU references
using StreamEnv = cuda::std::execution::env<cuda::stream_ref>;

// One search of one state: the inputs, the poisoned bounds and storage, NVBench's counts, the timed
// searches and the check of what the last one wrote. search(needles, haystack, bounds, n, temp,
// temp_bytes, stream) enqueues one; temp_bytes is its storage.
template <class Search>
void time_search(nvbench::state &state, std::size_t temp_bytes, Search search) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> needles = sorted_keys(n, kNeedleSeed, stream);
    const SC::DeviceBuffer<int> haystack = sorted_keys(n, kHaystackSeed, stream);
    SC::DeviceBuffer<int> bounds(n);
    SC::DeviceBuffer<char> temp(std::max<std::size_t>(temp_bytes, 1));
    bounds.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(2 * n);
    state.add_global_memory_writes<int>(n);
    state.exec([&](nvbench::launch &launch) {
        search(needles.get(), haystack.get(), bounds.get(), n, temp.get(), temp.bytes(),
               static_cast<cudaStream_t>(launch.get_stream()));
    });
    record_difference(state, first_difference(read_back(bounds.get(), n, stream), *lower_bounds_of(n), "bound"));
}

void sorted_search_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    const int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceFind::LowerBoundSortedValues(nullptr, bytes, none, n, none, n, static_cast<int *>(nullptr),
                                                          ::cuda::std::less<>{}));
    time_search(state, bytes,
                [](const int *needles, const int *haystack, int *bounds, std::size_t n, void *temp, std::size_t bytes,
                   cudaStream_t s) {
                    SC_CUDA_CHECK(cub::DeviceFind::LowerBoundSortedValues(temp, bytes, haystack, n, needles, n, bounds,
                                                                          ::cuda::std::less<>{}, s));
                });
}

void sorted_search_cub_binary(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    const int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceFind::LowerBound(nullptr, bytes, none, n, none, n, static_cast<int *>(nullptr),
                                              ::cuda::std::less<>{}));
    time_search(state, bytes,
                [](const int *needles, const int *haystack, int *bounds, std::size_t n, void *temp, std::size_t bytes,
                   cudaStream_t s) {
                    SC_CUDA_CHECK(cub::DeviceFind::LowerBound(temp, bytes, haystack, n, needles, n, bounds,
                                                              ::cuda::std::less<>{}, StreamEnv{cuda::stream_ref{s}}));
                });
}

// One merge of one state, as time_search: merge(a, a_values, na, b, b_values, nb, keys_out,
// values_out, temp, temp_bytes, stream) enqueues one (the values null for merge_keys).
template <class Merge>
void time_merge(nvbench::state &state, bool pairs, std::size_t temp_bytes, Merge merge) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::size_t na = n / 2, nb = n - na;
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> a = sorted_keys(na, kASeed, stream), b = sorted_keys(nb, kBSeed, stream);
    const SC::DeviceBuffer<int> a_values = pairs ? merge_values(na, kValueSeed, stream) : SC::DeviceBuffer<int>();
    const SC::DeviceBuffer<int> b_values = pairs ? merge_values(nb, kBValueSeed, stream) : SC::DeviceBuffer<int>();
    SC::DeviceBuffer<int> keys_out(n), values_out(pairs ? n : 0);
    SC::DeviceBuffer<char> temp(temp_bytes);
    keys_out.fill_bytes(kPoisonByte);
    values_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(pairs ? 2 * n : n);
    state.add_global_memory_writes<int>(pairs ? 2 * n : n);
    state.exec([&](nvbench::launch &launch) {
        merge(a.get(), a_values.get(), na, b.get(), b_values.get(), nb, keys_out.get(), values_out.get(), temp.get(),
              temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::shared_ptr<const HostMerge> merged = merge_of(n);
    const HostMerge &expected = *merged;
    std::string difference = first_difference(read_back(keys_out.get(), n, stream), expected.keys, "key");
    if (difference.empty() && pairs)
        difference = first_difference(read_back(values_out.get(), n, stream), expected.values, "value");
    record_difference(state, difference);
}

void merge_keys_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::size_t na = n / 2, nb = n - na;
    std::size_t bytes = 0;
    const int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, bytes, none, static_cast<std::int64_t>(na), none,
                                              static_cast<std::int64_t>(nb), static_cast<int *>(nullptr),
                                              ::cuda::std::less<>{}));
    time_merge(state, false, bytes,
               [](const int *a, const int *, std::size_t na, const int *b, const int *, std::size_t nb, int *keys,
                  int *, void *temp, std::size_t bytes, cudaStream_t s) {
                   SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(temp, bytes, a, static_cast<std::int64_t>(na), b,
                                                             static_cast<std::int64_t>(nb), keys,
                                                             ::cuda::std::less<>{}, s));
               });
}

void merge_pairs_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::size_t na = n / 2, nb = n - na;
    std::size_t bytes = 0;
    const int *none = nullptr;
    int *no_out = nullptr;
    SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, bytes, none, none, static_cast<std::int64_t>(na), none, none,
                                               static_cast<std::int64_t>(nb), no_out, no_out, ::cuda::std::less<>{}));
    time_merge(state, true, bytes,
               [](const int *a, const int *a_values, std::size_t na, const int *b, const int *b_values, std::size_t nb,
                  int *keys, int *values, void *temp, std::size_t bytes, cudaStream_t s) {
                   SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(temp, bytes, a, a_values, static_cast<std::int64_t>(na),
                                                              b, b_values, static_cast<std::int64_t>(nb), keys, values,
                                                              ::cuda::std::less<>{}, s));
               });
}

// merge.cu's axes: its sorted_search/thrust (and ours) for the searches, its merge_keys/cub and
// merge_pairs/cub for the merges.
NVBENCH_BENCH(sorted_search_cub)
    .set_name(cub_benchmark("sorted_search"))
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
NVBENCH_BENCH(sorted_search_cub_binary)
    .set_name(cub_benchmark("sorted_search", "_binary"))
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
NVBENCH_BENCH(merge_keys_cub).set_name(cub_benchmark("merge_keys")).add_int64_power_of_two_axis("n", kMergeLog2);
NVBENCH_BENCH(merge_pairs_cub).set_name(cub_benchmark("merge_pairs")).add_int64_power_of_two_axis("n", kMergeLog2);

}  // namespace
}  // namespace bench
