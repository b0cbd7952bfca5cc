// The top-k part on NVBench: the k largest of n float keys (top_k_inputs.cuh: random bits, finite, -0.0 made
// +0.0), in descending order, of equal keys the earliest first (RadixSortOrder{true}), at n = 2^24 and 2^28
// (axis n; the full profile: 2^16, 2^18, ..., 2^28) and k = 100, 1,000 and 4,096 (axis k, which
// nvbench_to_csv.py writes into the CSV's param as k=<k>):
//   top_k_keys_float: the keys alone;
//   top_k_pairs_float: with their indices (argtop-k), at k = 100;
// ours (top_k_keys, top_k_pairs with a thrust::counting_iterator as values) against a full sort of all n
// keys, whose first k are the top k: CUB's DeviceRadixSort::SortKeysDescending and SortPairsDescending
// (cub_full_sort, one of CUB's other algorithms, a library row as cub_reduce_by_key is) and our own
// radix_sort_keys and radix_sort_pairs descending (ours_full_sort, with the counting iterator as ours). CUB's
// sort reads its values from an array alone, so its indices are an array filled before the timed runs; CUB
// is called with int item counts. CCCL 3.6's cub::DeviceTopK is bench/anchors/cccl_next_top_k.cu's
// (top_k_keys_float/cub_3.6): the toolkit's CUB (CCCL 3.0) has no top-k. Timed: the one call on NVBench's
// stream, its temporary storage allocated before the timed runs.
//
// Bytes, the same for every row at a point (the problem's, not a sort's): the n keys read and the k keys (and
// k indices) written. Every output and the temporary storage are poisoned before the timed runs; the first k
// items that the last one wrote are checked in full against the CPU's top k (top_k_reference: the k first of
// the stable descending order, computed from the keys' definition once per point), keys and indices alike.
#include "check.cuh"
#include "radix_inputs.cuh"  // fill_indices
#include "top_k_inputs.cuh"

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/top_k.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_radix_sort.cuh>
#include <nvbench/nvbench.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using namespace top_k_inputs;  // the inputs, axes, CPU reference and checks (shared with the CCCL anchor)

// What a full sort writes: all n items, of which the first k are checked; a top-k writes k.
enum class Output { TopK, FullSort };

// The top-k of one state: its input (and, for CUB's sort, the indices as an array), poisoned outputs and
// storage, NVBench's counts, the timed calls and the check of the last one's first k items. run(keys_in,
// keys_out, indices_in, indices_out, temp, temp_bytes, stream) enqueues one call; indices_out is null for the
// keys' rows, indices_in unless index_array.
template <class Run>
void time_top_k(nvbench::state &state, bool pairs, Output output, bool index_array, std::size_t temp_bytes,
                Run run) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const auto k = static_cast<std::size_t>(state.get_int64("k"));
    const cudaStream_t stream = state.get_cuda_stream();
    const std::size_t out_items = output == Output::FullSort ? n : k;
    SC::DeviceBuffer<float> keys_in = top_k_input(n, stream), keys_out(out_items);
    SC::DeviceBuffer<int> indices_in(index_array ? n : 0), indices_out(pairs ? out_items : 0);
    if (index_array) {
        fill_indices<<<fill_blocks(n), kFillThreads, 0, stream>>>(indices_in.get(), n, n);
        SC_CHECK_LAUNCH(fill_indices);
    }
    SC::DeviceBuffer<char> temp(temp_bytes);
    poison_and_count(state, n, k, pairs, keys_out, indices_out, temp);
    state.exec([&](nvbench::launch &launch) {
        run(keys_in.get(), keys_out.get(), indices_in.get(), pairs ? indices_out.get() : nullptr, temp.get(),
            temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::vector<float> keys = read_back(keys_out.get(), k, stream);
    const std::vector<int> indices = pairs ? read_back(indices_out.get(), k, stream) : std::vector<int>{};
    record_difference(state, sorted_difference(*top_k_reference(n, k), keys, pairs ? &indices : nullptr));
}

void top_k_keys_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const auto k = static_cast<std::size_t>(state.get_int64("k"));
    time_top_k(state, false, Output::TopK, false, SC::top_k_temp_bytes<float>(n, k),
               [n, k](const float *keys_in, float *keys_out, const int *, int *, void *temp, std::size_t bytes,
                      cudaStream_t stream) {
                   SC::top_k_keys(keys_in, keys_out, n, k, temp, bytes, SC::RadixSortOrder{true}, stream);
               });
}

void top_k_pairs_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const auto k = static_cast<std::size_t>(state.get_int64("k"));
    time_top_k(state, true, Output::TopK, false, SC::top_k_temp_bytes<float, int>(n, k),
               [n, k](const float *keys_in, float *keys_out, const int *, int *indices_out, void *temp,
                      std::size_t bytes, cudaStream_t stream) {
                   SC::top_k_pairs(keys_in, keys_out, thrust::counting_iterator<int>(0), indices_out, n, k, temp,
                                   bytes, SC::RadixSortOrder{true}, stream);
               });
}

std::size_t cub_sort_temp_bytes(std::size_t n, bool pairs) {
    std::size_t bytes = 0;
    const float *in = nullptr;
    float *out = nullptr;
    const int *indices = nullptr;
    int *indices_out = nullptr;
    if (pairs)
        SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, in, out, indices, indices_out,
                                                                static_cast<int>(n)));
    else
        SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, bytes, in, out, static_cast<int>(n)));
    return bytes;
}

void top_k_keys_cub_full_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_top_k(state, false, Output::FullSort, false, cub_sort_temp_bytes(n, false),
               [n](const float *keys_in, float *keys_out, const int *, int *, void *temp, std::size_t bytes,
                   cudaStream_t stream) {
                   SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(temp, bytes, keys_in, keys_out,
                                                                          static_cast<int>(n), 0, 32, stream));
               });
}

void top_k_pairs_cub_full_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_top_k(state, true, Output::FullSort, true, cub_sort_temp_bytes(n, true),
               [n](const float *keys_in, float *keys_out, const int *indices_in, int *indices_out, void *temp,
                   std::size_t bytes, cudaStream_t stream) {
                   SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys_in, keys_out,
                                                                           indices_in, indices_out,
                                                                           static_cast<int>(n), 0, 32, stream));
               });
}

void top_k_keys_ours_full_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_top_k(state, false, Output::FullSort, false, SC::radix_sort_temp_bytes<float>(n),
               [n](const float *keys_in, float *keys_out, const int *, int *, void *temp, std::size_t bytes,
                   cudaStream_t stream) {
                   SC::radix_sort_keys(keys_in, keys_out, n, temp, bytes, SC::RadixSortOrder{true}, stream);
               });
}

void top_k_pairs_ours_full_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_top_k(state, true, Output::FullSort, false, SC::radix_sort_temp_bytes<float, int>(n),
               [n](const float *keys_in, float *keys_out, const int *, int *indices_out, void *temp,
                   std::size_t bytes, cudaStream_t stream) {
                   SC::radix_sort_pairs(keys_in, keys_out, thrust::counting_iterator<int>(0), indices_out, n, temp,
                                        bytes, SC::RadixSortOrder{true}, stream);
               });
}

// Names "<operation>/<implementation>", axes n and k (the CSV's param k=<k>): bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(top_k_keys_ours)
    .set_name("top_k_keys_float/ours")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kKeysK);
NVBENCH_BENCH(top_k_keys_cub_full_sort)
    .set_name("top_k_keys_float/cub_full_sort")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kKeysK);
NVBENCH_BENCH(top_k_keys_ours_full_sort)
    .set_name("top_k_keys_float/ours_full_sort")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kKeysK);
NVBENCH_BENCH(top_k_pairs_ours)
    .set_name("top_k_pairs_float/ours")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kPairsK);
NVBENCH_BENCH(top_k_pairs_cub_full_sort)
    .set_name("top_k_pairs_float/cub_full_sort")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kPairsK);
NVBENCH_BENCH(top_k_pairs_ours_full_sort)
    .set_name("top_k_pairs_float/ours_full_sort")
    .add_int64_power_of_two_axis("n", kTopKLog2)
    .add_int64_axis("k", kPairsK);

}  // namespace
}  // namespace bench
