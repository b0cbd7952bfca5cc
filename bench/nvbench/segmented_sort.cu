// The segmented-sort part on NVBench (issue #48), on segmented_sort_inputs.cuh's inputs: n = 2^24 int32 keys
// (axis n: the one size, kLog2) with int32 values, index hashes of every bit (seeds kKeySeed, kValueSeed;
// fill_masked_hashes), in segments of three size classes (axis param: "tiny", uniform lengths 1..15; "mixed",
// Pareto, alpha 1.2, at most 4e5: many short and empty segments, a few of hundreds of thousands; "huge", 2^20 ..
// 2^22; make_offsets). Timed: the stable sort of every segment's keys (segmented_sort_keys) and of its keys
// carrying their values (segmented_sort_pairs), ours (ours) against CUB's DeviceSegmentedSort::StableSortKeys and
// StableSortPairs (cub), called with int item and segment counts, the begin and end offsets from one array.
// Above its PARTITIONING_THRESHOLD (500 segments from sm_86 on: tiny and mixed) CUB copies the sizes of its
// segment groups to the host and waits for them, so its states run under exec_tag::sync (no blocking kernel, no
// batch); its timed calls include that wait. NVBench's cold runs flush the L2 between samples (2^24 keys and
// values are past L2 anyway).
//
// Bytes: the keys (and values) read and written once, and the offsets read (8n for keys, 16n for pairs, + 4
// (segments + 1)). Every output, and the temporary storage, is poisoned before the timed runs; what the last one
// wrote is checked in full against the CPU's stable sort of each segment (std::stable_sort of its (key, value)
// pairs by key, from the definition of the inputs), keys and values item by item. One reference per point, kept
// (cached_reference), serves the keys and the pairs, ours and CUB's. The CPU rather than a check on the device
// (each segment in order, a hash sum of (segment, key, value) equal to the input's): the values are hashes, not
// input positions, so on the device a stable sort could not be told from an unstable one, where equal keys
// (thousands of pairs in the huge segments of 32-bit hashes) must keep their input order. Sorted by pieces of the
// segments of about equal item counts, one per hardware thread, the reference takes about one thread's sort of
// the largest segment (2^22 pairs at most).
#include "check.cuh"
#include "segmented_sort_inputs.cuh"

#include <stream_compaction/device/segmented_sort.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_segmented_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

using namespace segmented_sort_inputs;  // the size, seeds, size classes and offsets of these inputs, the
                                        // part's axes, its inputs and the CPU's sorted segments (shared with
                                        // the CCCL anchors)

// The state's inputs; none (the state skipped) where its param names no size class.
std::optional<SortInputs> state_inputs(nvbench::state &state, bool pairs) {
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

// CUB waits for its segment groups' sizes (above 500 segments): NVBench must not block the stream.
void segmented_sort_keys_cub(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::sync, false,
              [](std::size_t n, std::size_t segments) { return cub_temp_bytes(n, segments, false); },
              [](const SortInputs &in, int *keys_out, int *, void *temp, std::size_t bytes, cudaStream_t stream) {
                  const int *offsets = in.offsets.get();
                  SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(
                      temp, bytes, in.keys.get(), keys_out, static_cast<int>(in.n), static_cast<int>(in.segments),
                      offsets, offsets + 1, stream));
              });
}

// Ours at the library's default tuning; it never waits for the device.
void segmented_sort_keys_ours(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::none, false,
              [](std::size_t n, std::size_t) { return SC::segmented_sort_temp_bytes<int>(n); },
              [](const SortInputs &in, int *keys_out, int *, void *temp, std::size_t bytes, cudaStream_t stream) {
                  SC::segmented_sort_keys(in.keys.get(), keys_out, in.n, in.offsets.get(), in.segments, temp, bytes,
                                          stream);
              });
}

void segmented_sort_pairs_cub(nvbench::state &state) {
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

void segmented_sort_pairs_ours(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::none, true,
              [](std::size_t n, std::size_t) { return SC::segmented_sort_temp_bytes<int>(n); },
              [](const SortInputs &in, int *keys_out, int *values_out, void *temp, std::size_t bytes,
                 cudaStream_t stream) {
                  SC::segmented_sort_pairs(in.keys.get(), keys_out, in.values.get(), values_out, in.n,
                                           in.offsets.get(), in.segments, temp, bytes, stream);
              });
}

// Names "<operation>/<implementation>", axes n and param (the size class): bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(segmented_sort_keys_cub)
    .set_name("segmented_sort_keys/cub")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);
NVBENCH_BENCH(segmented_sort_keys_ours)
    .set_name("segmented_sort_keys/ours")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);
NVBENCH_BENCH(segmented_sort_pairs_cub)
    .set_name("segmented_sort_pairs/cub")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);
NVBENCH_BENCH(segmented_sort_pairs_ours)
    .set_name("segmented_sort_pairs/ours")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);

}  // namespace
}  // namespace bench
