#pragma once
// The merge part's CUB rows (bench/nvbench/merge.cu), compiled with the CCCL of the program that
// includes it: sc_nvbench_merge registers them as "<operation>/cub" (the toolkit's CUB), and
// sc_nvbench_cccl_next as "<operation>/cub_X.Y" (bench/anchors/cccl_next_merge.cu: SC_CCCL_NEXT's),
// so that both CUBs are timed by the one body on the same inputs, counts and checks. Also time_merge,
// which merge.cu's own merges share with them:
//   merge_keys, merge_pairs  cub::DeviceMerge::MergeKeys and MergePairs of two sorted halves of n/2
//                            keys (sorted_inputs.cuh; with values for the pairs), int64 sizes and
//                            cuda::std::less. Bytes: 8n (keys), 16n (pairs).
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "registration.cuh"
#include "sorted_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_merge.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bench {
namespace merge_cub {

using namespace sorted_inputs;  // the part's seeds, axes, inputs and CPU references

// One merge of one state: the inputs, the poisoned outputs and storage, NVBench's counts, the timed
// merges and the check of what the last one wrote. merge(a, a_values, na, b, b_values, nb, keys_out,
// values_out, temp, temp_bytes, stream) enqueues one (the values null for merge_keys).
template <class Merge>
void time_merge(nvbench::state &state, bool pairs, std::size_t temp_bytes, Merge merge) {
    namespace SC = StreamCompaction;
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

inline void merge_keys_cub(nvbench::state &state) {
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

inline void merge_pairs_cub(nvbench::state &state) {
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

// Each row registered as "<operation>/<implementation>" with merge.cu's axis n: one at a time, so that
// merge.cu keeps each beside ours in its run order.
inline nvbench::benchmark_base &add_merge_keys_cub(const std::string &implementation) {
    return add_benchmark("merge_keys/" + implementation, merge_keys_cub).add_int64_power_of_two_axis("n", kMergeLog2);
}
inline nvbench::benchmark_base &add_merge_pairs_cub(const std::string &implementation) {
    return add_benchmark("merge_pairs/" + implementation, merge_pairs_cub)
        .add_int64_power_of_two_axis("n", kMergeLog2);
}

// Every row, in merge.cu's order.
inline bool register_merge_cub(const std::string &implementation) {
    add_merge_keys_cub(implementation);
    add_merge_pairs_cub(implementation);
    return true;
}

}  // namespace merge_cub
}  // namespace bench
