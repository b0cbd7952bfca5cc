#pragma once
// Warp-level reduction in order: any associative operator, commutative or not, and no identity
// needed. The values to combine are those of a prefix of the warp's lanes.
#include <stream_compaction/detail/warp/warp_scan.cuh>

namespace StreamCompaction {
namespace detail {

// Lane 0 returns combine(x_0, ..., x_{valid_lanes - 1}) in lane order (valid_lanes >= 1); the other
// lanes return partial results. Needs all 32 lanes; lanes >= valid_lanes may hold anything.
//
// Invariant: before the step with offset o, lane l < valid_lanes holds the lanes [l, min(l + o,
// valid_lanes)) combined; it takes lane l + o's run only when that lane is valid, so a run is
// never combined with garbage, and lane 0 ends with [0, valid_lanes).
template <class T, class Combine>
__device__ __forceinline__ T warp_reduce_prefix(T x, unsigned valid_lanes, Combine combine) {
    const unsigned lane = threadIdx.x % kWarpThreads;
#pragma unroll
    for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
        const T later = shfl_down(x, offset);
        if (lane + offset < valid_lanes) x = combine(x, later);
    }
    return x;
}

}  // namespace detail
}  // namespace StreamCompaction
