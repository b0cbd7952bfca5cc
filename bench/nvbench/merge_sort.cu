// The merge sort part on NVBench (issue #45): merge_sort_keys and merge_sort_pairs by a comparator
// (ours) against CUB's DeviceMergeSort (cub: the toolkit's; cub_X.Y in sc_nvbench_cccl_next;
// merge_sort_cub.cuh: StableSortKeysCopy, SortPairsCopy), at n = 2^24 and 2^28 (merge_sort_inputs.cuh):
//   merge_sort_keys, merge_sort_pairs: int keys (and their input indices as values), uniform and
//     sorted (radix_inputs.cuh's distributions: the radix part's check, sort_check.cuh);
//   merge_sort_records: 16-byte records ordered by one int field of 256 values (many ties), checked
//     on the device: in order, each the input record at its id, ids increasing among equal ranks (a
//     permutation, and the sort stable).
// Every output and the storage are poisoned before the timed runs; the last run's output is checked.
#include "merge_sort_cub.cuh"
#include "merge_sort_inputs.cuh"
#include "sort_check.cuh"

#include <stream_compaction/device/merge_sort.cuh>

#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <string>
#include <vector>

namespace bench {
namespace {

using namespace merge_sort_inputs;

void merge_sort_keys_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, SC::merge_sort_temp_bytes<int>(n),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) { SC::merge_sort_keys(keys_in, keys_out, n, IntLess{}, temp, bytes, stream); });
}

void merge_sort_pairs_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, true, SC::merge_sort_temp_bytes<int, int>(n),
              [n](const int *keys_in, int *keys_out, const int *values_in, int *values_out, void *temp,
                  std::size_t bytes, cudaStream_t stream) {
                  SC::merge_sort_pairs(keys_in, keys_out, values_in, values_out, n, IntLess{}, temp, bytes, stream);
              });
}

void merge_sort_records_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_records(state, SC::merge_sort_temp_bytes<Record>(n),
                 [n](const Record *in, Record *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC::merge_sort_keys(in, out, n, ByRank{}, temp, bytes, stream);
                 });
}

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py. Operations
// of their own (not the radix part's sort_keys): a point's ratio is to the fastest merge sort.
NVBENCH_BENCH(merge_sort_keys_ours)
    .set_name("merge_sort_keys/ours")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(merge_sort_pairs_ours)
    .set_name("merge_sort_pairs/ours")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(merge_sort_records_ours)
    .set_name("merge_sort_records/ours")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", std::vector<std::string>{"rank_of_256"});
[[maybe_unused]] const bool kCubRegistered = merge_sort_cub::register_merge_sort_cub("cub");

}  // namespace
}  // namespace bench
