// The merge sort part on NVBench (issue #45): merge_sort_keys and merge_sort_pairs by a comparator
// (ours, merge_sort) against CUB 3.0's DeviceMergeSort (cub_merge_sort: StableSortKeysCopy,
// SortPairsCopy), at n = 2^24 and 2^28:
//   sort_keys, sort_pairs: int keys (and their input indices as values), uniform and sorted
//     (radix_inputs.cuh, the radix part's rows: the same check, sort_check.cuh);
//   sort_records: 16-byte records ordered by one int field of 256 values (many ties), checked on
//     the device: in order, each the input record at its id, ids increasing among equal ranks (a
//     permutation, and the sort stable).
// Every output and the storage are poisoned before the timed runs; the last run's output is checked.
#include "check.cuh"
#include "fill.h"
#include "sort_check.cuh"

#include <stream_compaction/device/merge_sort.cuh>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_merge_sort.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {
namespace {

const std::vector<nvbench::int64_t> kMergeSortLog2 = {24, 28};
const std::vector<std::string> kMergeSortDistributions = {"uniform", "sorted"};

struct IntLess {
    __device__ bool operator()(int a, int b) const { return a < b; }
};

// 16 bytes ordered by rank alone.
struct Record {
    int rank;
    int id;
    long long payload;
};
struct ByRank {
    __device__ bool operator()(const Record &a, const Record &b) const { return a.rank < b.rank; }
};

__global__ void fill_records(Record *records, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::uint32_t h = index_hash(static_cast<std::uint32_t>(i), 0x7265636fu);
        records[i] = Record{static_cast<int>(h % 256), static_cast<int>(i), static_cast<long long>(h) * 7919};
    }
}

// [0]: records out of order (or equal ranks whose ids do not increase), [1]: records that are not
// the input record at their id.
__global__ void count_record_errors(const Record *in, const Record *out, std::size_t n, unsigned long long *errors) {
    unsigned long long out_of_order = 0, wrong = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const Record r = out[i];
        if (i > 0) {
            const Record before = out[i - 1];
            out_of_order += before.rank > r.rank || (before.rank == r.rank && before.id >= r.id);
        }
        wrong += r.id < 0 || static_cast<std::size_t>(r.id) >= n || in[r.id].rank != r.rank ||
                 in[r.id].id != r.id || in[r.id].payload != r.payload;
    }
    if (out_of_order != 0) atomicAdd(&errors[0], out_of_order);
    if (wrong != 0) atomicAdd(&errors[1], wrong);
}

template <class Sort>
void time_records(nvbench::state &state, std::size_t temp_bytes, Sort sort) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<Record> in(n), out(n);
    fill_records<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n);
    SC_CHECK_LAUNCH(fill_records);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<Record>(n);
    state.add_global_memory_writes<Record>(n);
    state.exec([&](nvbench::launch &launch) {
        sort(in.get(), out.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    SC::DeviceBuffer<unsigned long long> errors(2);
    SC_CUDA_CHECK(cudaMemsetAsync(errors.get(), 0, errors.bytes(), stream));
    count_record_errors<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), out.get(), n, errors.get());
    SC_CHECK_LAUNCH(count_record_errors);
    const std::vector<unsigned long long> host = read_back(errors.get(), 2, stream);
    record_check(state, host[0] == 0 && host[1] == 0,
                 std::to_string(host[0]) + " out of order, " + std::to_string(host[1]) + " wrong records");
}

void sort_keys_merge_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, SC::merge_sort_temp_bytes<int>(n),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) { SC::merge_sort_keys(keys_in, keys_out, n, IntLess{}, temp, bytes, stream); });
}

void sort_pairs_merge_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, true, SC::merge_sort_temp_bytes<int, int>(n),
              [n](const int *keys_in, int *keys_out, const int *values_in, int *values_out, void *temp,
                  std::size_t bytes, cudaStream_t stream) {
                  SC::merge_sort_pairs(keys_in, keys_out, values_in, values_out, n, IntLess{}, temp, bytes, stream);
              });
}

void sort_records_merge_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_records(state, SC::merge_sort_temp_bytes<Record>(n),
                 [n](const Record *in, Record *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC::merge_sort_keys(in, out, n, ByRank{}, temp, bytes, stream);
                 });
}

template <class K, class Less>
std::size_t cub_keys_temp_bytes(std::size_t n, Less less) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, bytes, static_cast<const K *>(nullptr),
                                                           static_cast<K *>(nullptr), static_cast<int>(n), less));
    return bytes;
}

void sort_keys_cub_merge_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort(state, false, cub_keys_temp_bytes<int>(n, IntLess{}),
              [n](const int *keys_in, int *keys_out, const int *, int *, void *temp, std::size_t bytes,
                  cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys_in, keys_out,
                                                                         static_cast<int>(n), IntLess{}, stream));
              });
}

void sort_pairs_cub_merge_sort(nvbench::state &state) {
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

void sort_records_cub_merge_sort(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_records(state, cub_keys_temp_bytes<Record>(n, ByRank{}),
                 [n](const Record *in, Record *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC_CUDA_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, in, out, static_cast<int>(n),
                                                                            ByRank{}, stream));
                 });
}

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(sort_keys_merge_sort)
    .set_name("sort_keys/merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(sort_keys_cub_merge_sort)
    .set_name("sort_keys/cub_merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(sort_pairs_merge_sort)
    .set_name("sort_pairs/merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(sort_pairs_cub_merge_sort)
    .set_name("sort_pairs/cub_merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", kMergeSortDistributions);
NVBENCH_BENCH(sort_records_merge_sort)
    .set_name("sort_records/merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", std::vector<std::string>{"rank_of_256"});
NVBENCH_BENCH(sort_records_cub_merge_sort)
    .set_name("sort_records/cub_merge_sort")
    .add_int64_power_of_two_axis("n", kMergeSortLog2)
    .add_string_axis("param", std::vector<std::string>{"rank_of_256"});

}  // namespace
}  // namespace bench
