#pragma once
// The reduce part's inputs, shared by sc_bench (cases/reduce.cu) and sc_nvbench_reduce
// (nvbench/reduce.cu): ints in [-50, 50] from index_hash, a random walk whose best segment is long,
// not the whole array (the maximum segment sum's input too).
#include "fill.h"

#include <cstddef>
#include <cstdint>

namespace bench {

constexpr std::uint32_t kReduceSeed = 0x5eed2026u;

// Item i of the inputs, on the device and on the CPU alike.
__host__ __device__ inline int signed_item(std::size_t i, std::uint32_t seed) {
    return static_cast<int>(index_hash(i, seed) % 101u) - 50;
}

// out[i] = signed_item(i, seed). static: internal linkage, as fill.h's kernels.
static __global__ void fill_signed(int *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = signed_item(i, seed);
}

}  // namespace bench
