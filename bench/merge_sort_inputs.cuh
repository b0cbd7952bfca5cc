#pragma once
// The merge-sort part's inputs (bench/nvbench/merge_sort.cu, and its CUB rows in both programs:
// merge_sort_cub.cuh): its sizes and int distributions (radix_inputs.cuh's, checked by
// sort_check.cuh), the int order, and the 16-byte records ordered by one field of 256 values (many
// ties), filled and checked on the device: in order, each the input record at its id, ids increasing
// among equal ranks (a permutation, and the sort stable).
#include "nvbench/check.cuh"
#include "fill.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {
namespace merge_sort_inputs {

namespace SC = StreamCompaction;

inline const std::vector<nvbench::int64_t> kMergeSortLog2 = {24, 28};
inline const std::vector<std::string> kMergeSortDistributions = {"uniform", "sorted"};

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

inline __global__ void fill_records(Record *records, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::uint32_t h = index_hash(static_cast<std::uint32_t>(i), 0x7265636fu);
        records[i] = Record{static_cast<int>(h % 256), static_cast<int>(i), static_cast<long long>(h) * 7919};
    }
}

// [0]: records out of order (or equal ranks whose ids do not increase), [1]: records that are not
// the input record at their id.
inline __global__ void count_record_errors(const Record *in, const Record *out, std::size_t n, unsigned long long *errors) {
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
inline void time_records(nvbench::state &state, std::size_t temp_bytes, Sort sort) {
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

}  // namespace merge_sort_inputs
}  // namespace bench
