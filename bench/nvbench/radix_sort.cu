// The radix part on NVBench (issue #48): sorts of int keys alone (sort_keys) and carrying each key's
// input index as an int value (sort_pairs), ours (onesweep) against CUB's DeviceRadixSort
// (cub), at n = 2^20, 2^24 and 2^28 on seven key distributions (axis param:
// radix_inputs.cuh). Every output is poisoned before the timed runs and checked in full after
// them on the device, independently of the other library (sort_check.cuh).
#include "check.cuh"
#include "radix_inputs.cuh"
#include "sort_check.cuh"

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_radix_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

const std::vector<nvbench::int64_t> kSortLog2 = {20, 24, 28};

std::size_t cub_temp_bytes(std::size_t n, bool pairs) {
    std::size_t bytes = 0;
    const int *in = nullptr;
    int *out = nullptr;
    if (pairs) SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, in, out, in, out, static_cast<int>(n)));
    else SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, static_cast<int>(n)));
    return bytes;
}

void sort_keys_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, cub_temp_bytes(n, false),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, static_cast<int>(n),
                                                               0, 32, stream));
              });
}

void sort_keys_onesweep(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, SC::radix_sort_temp_bytes<int>(n),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) { SC::radix_sort_keys(keys_in, keys_out, n, temp, bytes, stream); });
}

void sort_pairs_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, true, cub_temp_bytes(n, true),
              [n](const int *keys_in, int *keys_out, const int *values_in, int *values_out, void *temp,
                  std::size_t bytes, cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out,
                                                                static_cast<int>(n), 0, 32, stream));
              });
}

void sort_pairs_onesweep(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, true, SC::radix_sort_temp_bytes<int, int>(n),
              [n](const int *keys_in, int *keys_out, const int *values_in, int *values_out, void *temp,
                  std::size_t bytes, cudaStream_t stream) {
                  SC::radix_sort_pairs(keys_in, keys_out, values_in, values_out, n, temp, bytes, stream);
              });
}

// Names "<operation>/<implementation>", axes n and param (the distribution): bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(sort_keys_cub)
    .set_name("sort_keys/cub")
    .add_int64_power_of_two_axis("n", kSortLog2)
    .add_string_axis("param", distribution_names());
NVBENCH_BENCH(sort_keys_onesweep)
    .set_name("sort_keys/onesweep")
    .add_int64_power_of_two_axis("n", kSortLog2)
    .add_string_axis("param", distribution_names());
NVBENCH_BENCH(sort_pairs_cub)
    .set_name("sort_pairs/cub")
    .add_int64_power_of_two_axis("n", kSortLog2)
    .add_string_axis("param", distribution_names());
NVBENCH_BENCH(sort_pairs_onesweep)
    .set_name("sort_pairs/onesweep")
    .add_int64_power_of_two_axis("n", kSortLog2)
    .add_string_axis("param", distribution_names());

}  // namespace
}  // namespace bench
