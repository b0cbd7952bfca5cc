// sc_nvbench_cccl_next's rows of the segmented-sort part (bench/nvbench/segmented_sort.cu): the CUB of
// SC_CCCL_NEXT (cccl_next.cuh) on that part's inputs (segmented_sort_inputs.cuh: n = 2^24 int32 keys and
// values, index hashes of every bit, in segments of three size classes, axis param "tiny", "mixed",
// "huge"): segmented_sort_keys/cub_X.Y and segmented_sort_pairs/cub_X.Y, cub::DeviceSegmentedSort::
// StableSortKeys and StableSortPairs, called as segmented_sort.cu calls the toolkit's (int item and
// segment counts, the begin and end offsets from one array). Above its partitioning threshold CUB
// copies the sizes of its segment groups to the host and waits for them (it still does in CCCL 3.6),
// so the states run under exec_tag::sync (no blocking kernel, no batch), as the toolkit CUB's do.
// Bytes as segmented_sort.cu counts them: the keys (and values) read and written once, and the
// offsets read (8n for keys, 16n for pairs, + 4 (segments + 1)). Every output, and the temporary
// storage, is poisoned before the timed runs; what the last one wrote is checked in full, keys and
// values, against segmented_sort.cu's CPU reference (sorted_segments: std::stable_sort of each
// segment's (key, value) pairs by key, once per point).
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "segmented_sort_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_segmented_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using namespace segmented_sort_inputs;  // the part's size, seeds, size classes, axes, inputs and CPU reference

// CUB's storage for n items in `segments` segments (its size depends on the counts alone).
std::size_t cub_temp_bytes(std::size_t n, std::size_t segments, bool pairs) {
    std::size_t bytes = 0;
    const int *in = nullptr;
    int *out = nullptr;
    if (pairs)
        SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, in, out, in, out, static_cast<int>(n),
                                                                static_cast<int>(segments), in, in));
    else
        SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, in, out, static_cast<int>(n),
                                                               static_cast<int>(segments), in, in));
    return bytes;
}

// One sort of one state (pairs: with values): its inputs, the poisoned outputs and storage, NVBench's
// counts, the timed sorts and the check of what the last one wrote.
void time_sort(nvbench::state &state, bool pairs) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string sizes = state.get_string("param");
    if (std::find(kSizeClassNames.begin(), kSizeClassNames.end(), sizes) == kSizeClassNames.end()) {
        state.skip("no segment size class named " + sizes);
        return;
    }
    const SortInputs in = sort_inputs(n, sizes, pairs, state.get_cuda_stream());
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<int> keys_out(n), values_out(pairs ? n : 0);
    SC::DeviceBuffer<char> temp(cub_temp_bytes(n, in.segments, pairs));
    keys_out.fill_bytes(kPoisonByte);
    values_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads((pairs ? 8 : 4) * n + 4 * (in.segments + 1));
    state.add_global_memory_writes<int>(pairs ? 2 * n : n);
    state.exec(nvbench::exec_tag::sync, [&](nvbench::launch &launch) {
        std::size_t bytes = temp.bytes();
        const int *offsets = in.offsets.get();
        const cudaStream_t s = launch.get_stream();
        if (pairs)
            SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
                temp.get(), bytes, in.keys.get(), keys_out.get(), in.values.get(), values_out.get(),
                static_cast<int>(n), static_cast<int>(in.segments), offsets, offsets + 1, s));
        else
            SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(temp.get(), bytes, in.keys.get(), keys_out.get(),
                                                                   static_cast<int>(n), static_cast<int>(in.segments),
                                                                   offsets, offsets + 1, s));
    });
    const std::shared_ptr<const SortedSegments> expected = sorted_segments(in);
    std::string difference = first_difference(read_back(keys_out.get(), n, stream), expected->keys, "key");
    if (difference.empty() && pairs)
        difference = first_difference(read_back(values_out.get(), n, stream), expected->values, "value");
    record_difference(state, difference);
}

void segmented_sort_keys_cub(nvbench::state &state) { time_sort(state, false); }
void segmented_sort_pairs_cub(nvbench::state &state) { time_sort(state, true); }

// segmented_sort.cu's axes for its segmented_sort_keys/cub and segmented_sort_pairs/cub.
NVBENCH_BENCH(segmented_sort_keys_cub)
    .set_name(cub_benchmark("segmented_sort_keys"))
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);
NVBENCH_BENCH(segmented_sort_pairs_cub)
    .set_name(cub_benchmark("segmented_sort_pairs"))
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);

}  // namespace
}  // namespace bench
