#pragma once
// The segmented sort's own kernels (device/segmented_sort.cuh composes them with the
// load-balancing search and the radix sort): positions and gathers, grid-stride.
#include <stream_compaction/support/device_api.h>

#include <algorithm>
#include <cstddef>

namespace StreamCompaction {
namespace detail {

constexpr int kSegmentedSortThreads = 256;

inline unsigned segmented_sort_grid(std::size_t n) {
    return std::min(blocks_for(n, kSegmentedSortThreads), 65535u);
}

// positions[i] = i. (A template, as every kernel defined in a header: one definition per program.)
template <class Index>
__global__ void fill_positions(Index *positions, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        positions[i] = static_cast<Index>(i);
}

// out[i] = in[positions[i]].
template <class T>
__global__ void gather_at(const T *in, const unsigned *positions, T *out, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = in[positions[i]];
}

}  // namespace detail
}  // namespace StreamCompaction
