#pragma once
// TEMPORARY stand-in for device/load_balance.cuh's transform_lbs (written beside this branch),
// with its signature, so that the join compiles and can be tested before the two are merged. One
// thread per item, a binary search of the offsets: correct, not load-balanced. Deleted when the
// join switches to the real one.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/support/device_api.h>

#include <cuda_runtime.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

template <class Offset, class F>
__global__ void lbs_standin_kernel(F f, long long n_items, const Offset *offsets, long long segments) {
    const long long item = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (item >= n_items) return;
    // The last segment that starts at or before the item (offsets[0] = 0 <= item < offsets[segments]).
    long long low = 0, high = segments + 1;
    while (low < high) {
        const long long pivot = low + ((high - low) >> 1);
        if (static_cast<long long>(offsets[pivot]) <= item) low = pivot + 1;
        else high = pivot;
    }
    const long long segment = low - 1;
    f(item, segment, item - static_cast<long long>(offsets[segment]));
}

}  // namespace detail

// d_offsets[0..segments] CSR, offsets[segments] == n_items; calls f(i, segment, rank) for every item i in [0,n_items)
template <class Offset, class F>
void transform_lbs(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments, cudaStream_t stream = 0) {
    if (n_items == 0) return;
    constexpr int kThreads = 256;
    detail::launch(detail::lbs_standin_kernel<Offset, F>, "lbs_standin_kernel", blocks_for(n_items, kThreads), kThreads,
                   0, stream, f, static_cast<long long>(n_items), d_offsets, static_cast<long long>(segments));
}

}  // namespace StreamCompaction
