// The segmented-sort part on NVBench (issue #48), on segmented_sort_inputs.cuh's inputs: n = 2^24 int32 keys
// (axis n: the one size, kLog2) with int32 values, index hashes of every bit (seeds kKeySeed, kValueSeed;
// fill_masked_hashes), in segments of seven size classes (axis param: "mean2", "tiny", "mean32", "mean128",
// "mean1024", uniform lengths 1 .. 2 mean - 1 of mean 2, 8, 32, 128 and 1,024; "mixed", Pareto, alpha 1.2, at
// most 4e5: many short and empty segments, a few of hundreds of thousands; "huge", 2^20 .. 2^22;
// make_offsets). Timed: the stable sort of every segment's keys (segmented_sort_keys) and of its keys
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
#include "segmented_sort_cub.cuh"
#include "segmented_sort_inputs.cuh"

#include <stream_compaction/device/segmented_sort.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <cstddef>

namespace bench {
namespace {

namespace SC = StreamCompaction;

using namespace segmented_sort_inputs;  // the size, seeds, size classes and offsets of these inputs, the
                                        // part's axes, its inputs and the CPU's sorted segments (shared with
                                        // the CCCL anchors)
using namespace segmented_sort_cub;     // the CUB rows and the timing of a state, shared with
                                        // sc_nvbench_cccl_next

// Ours at the library's default tuning; it never waits for the device.
void segmented_sort_keys_ours(nvbench::state &state) {
    time_sort(state, nvbench::exec_tag::none, false,
              [](std::size_t n, std::size_t) { return SC::segmented_sort_temp_bytes<int>(n); },
              [](const SortInputs &in, int *keys_out, int *, void *temp, std::size_t bytes, cudaStream_t stream) {
                  SC::segmented_sort_keys(in.keys.get(), keys_out, in.n, in.offsets.get(), in.segments, temp, bytes,
                                          stream);
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
[[maybe_unused]] nvbench::benchmark_base &kSortKeysCub = add_segmented_sort_keys_cub("cub");
NVBENCH_BENCH(segmented_sort_keys_ours)
    .set_name("segmented_sort_keys/ours")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);
[[maybe_unused]] nvbench::benchmark_base &kSortPairsCub = add_segmented_sort_pairs_cub("cub");
NVBENCH_BENCH(segmented_sort_pairs_ours)
    .set_name("segmented_sort_pairs/ours")
    .add_int64_power_of_two_axis("n", kSegmentedSortLog2)
    .add_string_axis("param", kSizeClassNames);

}  // namespace
}  // namespace bench
