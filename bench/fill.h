#pragma once
// What the parts share to generate their inputs on the device: filling a 1 GiB pool from a hash
// of the index takes a millisecond there, where a host generator and a copy take seconds.
#include <stream_compaction/support/device_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace bench {

// 32 well-mixed bits of element i (lowbias32 of the index folded to 32 bits, xor the seed). For a
// fixed i, distinct seeds give distinct values: every step is a bijection of 32-bit words.
__host__ __device__ inline std::uint32_t index_hash(std::size_t i, std::uint32_t seed) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 0x9e3779b9u ^ static_cast<std::uint32_t>(i >> 32) ^ seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// The grid of the grid-stride fill kernels: enough blocks to fill the GPU, no more.
constexpr int kFillThreads = 256;
inline unsigned fill_blocks(std::size_t count) {
    return std::min(StreamCompaction::blocks_for(count, kFillThreads), 8192u);
}

// out[i] = the bits of index_hash(i, seed) that `mask` keeps (~0u: all of them), as int. static:
// internal linkage, so that every file of a program may include it.
static __global__ void fill_masked_hashes(int *out, std::size_t n, std::uint32_t seed, unsigned mask) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<int>(index_hash(i, seed) & mask);
}

}  // namespace bench
