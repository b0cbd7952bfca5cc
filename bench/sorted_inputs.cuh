#pragma once
// The sorted inputs of sc_bench's merge part, shared with sc_bench_cccl_next (which times another
// CCCL's CUB on the same data): sorted int keys as the inclusive scan of increments in {0, 1, 2}
// from index_hash (0 with probability 1 - 1/mean: runs of mean length `mean`), and values in
// [0, 2^16). Each program compiles it with its own CUB.
#include "fill.h"
#include "timing.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace bench {
namespace sorted_inputs {

constexpr std::uint32_t kNeedleSeed = 0x6e65656cu, kHaystackSeed = 0x68617973u;
constexpr std::uint32_t kASeed = 0x6d657261u, kBSeed = 0x6d657262u, kValueSeed = 0x6d657276u;
constexpr unsigned kMeanRun = 2;
// The inner join's: two sides of 2^kJoinLog2 keys in runs of mean length kJoinMeanRun.
constexpr std::uint32_t kJoinASeed = 0x6a6f6e61u, kJoinBSeed = 0x6a6f6e62u;
constexpr unsigned kJoinMeanRun = 4;
constexpr int kJoinLog2 = 24;

// static: internal linkage, so that the header may be included by several files of a program.
static __global__ void fill_increments(int *out, std::size_t n, std::uint32_t seed, unsigned mean) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::uint32_t h = index_hash(i, seed);
        out[i] = h % mean != 0 ? 0 : 1 + static_cast<int>((h >> 16) & 1u);
    }
}

// CUB's scan storage for n items.
inline std::size_t scan_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    return bytes;
}

// keys[0, count) sorted (scratch: count ints), then copied to every copy of a rotation of problems
// of n items (`count` may be fewer: merge's halves).
inline void make_sorted_keys(int *keys, int *scratch, std::size_t count, std::uint32_t seed, unsigned mean,
                             std::size_t n, const Rotation &rotation, StreamCompaction::DeviceBuffer<char> &temp,
                             cudaStream_t stream) {
    fill_increments<<<fill_blocks(count), kFillThreads, 0, stream>>>(scratch, count, seed, mean);
    SC_CHECK_LAUNCH(fill_increments);
    std::size_t bytes = temp.bytes();
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), bytes, scratch, keys, static_cast<int>(count), stream));
    const std::size_t stride = copy_stride(n);
    for (std::size_t c = 1; c < rotation.span() / stride; ++c)
        SC_CUDA_CHECK(cudaMemcpyAsync(keys + c * stride, keys, count * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

inline void make_values(int *values, std::size_t span, std::uint32_t seed, cudaStream_t stream) {
    fill_masked_hashes<<<fill_blocks(span), kFillThreads, 0, stream>>>(values, span, seed, 0xffffu);
    SC_CHECK_LAUNCH(fill_masked_hashes);
}

}  // namespace sorted_inputs
}  // namespace bench
