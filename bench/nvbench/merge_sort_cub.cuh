#pragma once
// The merge-sort part's CUB rows (bench/nvbench/merge_sort.cu), shared with sc_nvbench_cccl_next
// (bench/anchors/cccl_next_merge_sort.cu), compiled with whichever CUB the program includes:
// cub::DeviceMergeSort's StableSortKeysCopy (ints; records by rank) and SortPairsCopy (int keys, their
// indices as values), int item counts, the caller's temporary storage, on merge_sort_inputs.cuh's
// inputs, checked as ours are.
#include "merge_sort_inputs.cuh"
#include "registration.cuh"
#include "sort_check.cuh"

#include <stream_compaction/support/cuda_check.h>

#include <cub/device/device_merge_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <string>

namespace bench {
namespace merge_sort_cub {

using namespace merge_sort_inputs;

template <class K, class Less>
inline std::size_t cub_keys_temp_bytes(std::size_t n, Less less) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, bytes, static_cast<const K *>(nullptr),
                                                           static_cast<K *>(nullptr), static_cast<int>(n), less));
    return bytes;
}

inline void merge_sort_keys_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, cub_keys_temp_bytes<int>(n, IntLess{}),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys_in, keys_out,
                                                                         static_cast<int>(n), IntLess{}, stream));
              });
}

inline void merge_sort_pairs_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t temp_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(nullptr, temp_bytes, static_cast<const int *>(nullptr),
                                                      static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                                      static_cast<int *>(nullptr), static_cast<int>(n), IntLess{}));
    time_sort(state, true, temp_bytes,
              [n](const int *keys_in, int *keys_out, const int *values_in, int *values_out, void *temp,
                  std::size_t bytes, cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(temp, bytes, keys_in, values_in, keys_out,
                                                                    values_out, static_cast<int>(n), IntLess{},
                                                                    stream));
              });
}

inline void merge_sort_records_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_records(state, cub_keys_temp_bytes<Record>(n, ByRank{}),
                 [n](const Record *in, Record *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, in, out, static_cast<int>(n),
                                                                            ByRank{}, stream));
                 });
}

// Every row, "<operation>/<implementation>" with merge_sort.cu's axes (n; param: the distribution).
inline bool register_merge_sort_cub(const std::string &implementation) {
    add_benchmark("merge_sort_keys/" + implementation, merge_sort_keys_cub)
        .add_int64_power_of_two_axis("n", kMergeSortLog2)
        .add_string_axis("param", kMergeSortDistributions);
    add_benchmark("merge_sort_pairs/" + implementation, merge_sort_pairs_cub)
        .add_int64_power_of_two_axis("n", kMergeSortLog2)
        .add_string_axis("param", kMergeSortDistributions);
    add_benchmark("merge_sort_records/" + implementation, merge_sort_records_cub)
        .add_int64_power_of_two_axis("n", kMergeSortLog2)
        .add_string_axis("param", std::vector<std::string>{"rank_of_256"});
    return true;
}

}  // namespace merge_sort_cub
}  // namespace bench
