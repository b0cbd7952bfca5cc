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
// equal ones, each value beside its key). The merges' bodies and axes are merge.cu's own CUB rows'
// (bench/nvbench/merge_cub.cuh), compiled here with SC_CCCL_NEXT's CUB; the searches are this file's.
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "nvbench/merge_cub.cuh"
#include "sorted_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_find.cuh>
#include <cuda/std/execution>
#include <cuda/std/functional>
#include <cuda/stream_ref>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
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

// merge.cu's axes: its sorted_search/thrust (and ours) for the searches; the merges come with
// merge.cu's merge_keys/cub and merge_pairs/cub (merge_cub.cuh).
NVBENCH_BENCH(sorted_search_cub)
    .set_name(cub_benchmark("sorted_search"))
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
NVBENCH_BENCH(sorted_search_cub_binary)
    .set_name(cub_benchmark("sorted_search", "_binary"))
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
[[maybe_unused]] const bool kMergesRegistered = merge_cub::register_merge_cub(cub_implementation());

}  // namespace
}  // namespace bench
