#pragma once
// The segmented-sort part's CUB rows (bench/nvbench/segmented_sort.cu), compiled with the CCCL of the
// program that includes it: sc_nvbench_segmented_sort registers them as "<operation>/cub" (the
// toolkit's CUB), and sc_nvbench_cccl_next as "<operation>/cub_X.Y"
// (bench/anchors/cccl_next_segmented_sort.cu: SC_CCCL_NEXT's), so that both CUBs are timed by the one
// body on the same inputs (segmented_sort_inputs.cuh), counts and checks. Also the timing of a state
// that segmented_sort.cu's own rows share with them (state_inputs, time_sort):
//   segmented_sort_keys, segmented_sort_pairs  cub::DeviceSegmentedSort::StableSortKeys and
//       StableSortPairs, int item and segment counts, the begin and end offsets from one array. Above
//       its PARTITIONING_THRESHOLD CUB copies the sizes of its segment groups to the host and waits
//       for them (CCCL 3.6 still does), so these states run under exec_tag::sync (no blocking kernel,
//       no batch).
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "registration.cuh"
#include "segmented_sort_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_segmented_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace bench {
namespace segmented_sort_cub {

using namespace segmented_sort_inputs;  // the part's size, seeds, size classes, axes, inputs and CPU reference

// The state's inputs; none (the state skipped) where its param names no size class.
inline std::optional<SortInputs> state_inputs(nvbench::state &state, bool pairs) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string sizes = state.get_string("param");
    if (std::find(kSizeClassNames.begin(), kSizeClassNames.end(), sizes) == kSizeClassNames.end()) {
        state.skip("no segment size class named " + sizes);
        return std::nullopt;
    }
    return sort_inputs(n, sizes, pairs, state.get_cuda_stream());
}

// One sort of one state: its inputs, the poisoned outputs and storage (temp_bytes(n, segments) bytes),
// NVBench's counts, the timed sorts under `tag` and the check of what the last one wrote. sort(inputs,
// keys_out, values_out, temp, temp_bytes, stream) enqueues one sort (values_out null for the keys).
template <class ExecTag, class TempBytes, class Sort>
void time_sort(nvbench::state &state, ExecTag tag, bool pairs, TempBytes temp_bytes, Sort sort) {
    using StreamCompaction::DeviceBuffer;
    const std::optional<SortInputs> in = state_inputs(state, pairs);
    if (!in) return;
    const cudaStream_t stream = state.get_cuda_stream();
    DeviceBuffer<int> keys_out(in->n), values_out(pairs ? in->n : 0);
    DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    keys_out.fill_bytes(kPoisonByte);
    values_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads((pairs ? 8 : 4) * in->n + 4 * (in->segments + 1));
    state.add_global_memory_writes<int>(pairs ? 2 * in->n : in->n);
    state.exec(tag, [&](nvbench::launch &launch) {
        sort(*in, keys_out.get(), values_out.get(), temp.get(), temp.bytes(),
             static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::shared_ptr<const SortedSegments> expected = sorted_segments(*in);
    std::string difference = first_difference(read_back(keys_out.get(), in->n, stream), expected->keys, "key");
    if (difference.empty() && pairs)
        difference = first_difference(read_back(values_out.get(), in->n, stream), expected->values, "value");
    record_difference(state, difference);
}

// CUB's storage for n items in `segments` segments (its size depends on the counts alone).
inline std::size_t cub_temp_bytes(std::size_t n, std::size_t segments, bool pairs) {
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

// CUB waits for its segment groups' sizes (above 500 segments): NVBench must not block the stream.
inline void segmented_sort_keys_cub(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::sync, false,
              [](std::size_t n, std::size_t segments) { return cub_temp_bytes(n, segments, false); },
              [](const SortInputs &in, int *keys_out, int *, void *temp, std::size_t bytes, cudaStream_t stream) {
                  const int *offsets = in.offsets.get();
                  SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(
                      temp, bytes, in.keys.get(), keys_out, static_cast<int>(in.n), static_cast<int>(in.segments),
                      offsets, offsets + 1, stream));
              });
}

inline void segmented_sort_pairs_cub(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::sync, true,
              [](std::size_t n, std::size_t segments) { return cub_temp_bytes(n, segments, true); },
              [](const SortInputs &in, int *keys_out, int *values_out, void *temp, std::size_t bytes,
                 cudaStream_t stream) {
                  const int *offsets = in.offsets.get();
                  SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
                      temp, bytes, in.keys.get(), keys_out, in.values.get(), values_out, static_cast<int>(in.n),
                      static_cast<int>(in.segments), offsets, offsets + 1, stream));
              });
}

// Each row registered as "<operation>/<implementation>" with segmented_sort.cu's axes, n and param (the
// size class): one at a time, so that segmented_sort.cu keeps each beside ours in its run order.
inline nvbench::benchmark_base &add_segmented_sort_keys_cub(const std::string &implementation) {
    return add_benchmark("segmented_sort_keys/" + implementation, segmented_sort_keys_cub)
        .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
        .add_string_axis("param", kSizeClassNames);
}
inline nvbench::benchmark_base &add_segmented_sort_pairs_cub(const std::string &implementation) {
    return add_benchmark("segmented_sort_pairs/" + implementation, segmented_sort_pairs_cub)
        .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
        .add_string_axis("param", kSizeClassNames);
}

// Every row, in segmented_sort.cu's order.
inline bool register_segmented_sort_cub(const std::string &implementation) {
    add_segmented_sort_keys_cub(implementation);
    add_segmented_sort_pairs_cub(implementation);
    return true;
}

}  // namespace segmented_sort_cub
}  // namespace bench
