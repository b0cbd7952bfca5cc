#pragma once
// Warp-level reduction in order: any associative operator, commutative or not, and no identity
// needed. The values to combine are those of a prefix of the warp's lanes.
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/support/operators.cuh>

#include <type_traits>

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

// Whether the warp's one-instruction reduction (redux.sync, sm_80 on) does op over 32-bit integers.
template <class T, class Op>
constexpr bool kHasWarpRedux = (std::is_same_v<T, int> || std::is_same_v<T, unsigned>) &&
                               (std::is_same_v<Op, Sum> || std::is_same_v<Op, Min> || std::is_same_v<Op, Max> ||
                                std::is_same_v<Op, BitAnd> || std::is_same_v<Op, BitOr>);

// Lane 0 returns every lane's x combined, in any order (operators known to commute); the other
// lanes return partial results. Needs all 32 lanes, each with a value. A redux.sync where the
// hardware has it for op: one instruction where the shuffles are five dependent steps.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_all(T x, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (kHasWarpRedux<T, Op>) {
        if constexpr (std::is_same_v<Op, Sum>) return __reduce_add_sync(kFullMask, x);
        else if constexpr (std::is_same_v<Op, Min>) return __reduce_min_sync(kFullMask, x);
        else if constexpr (std::is_same_v<Op, Max>) return __reduce_max_sync(kFullMask, x);
        else if constexpr (std::is_same_v<Op, BitAnd>) return static_cast<T>(__reduce_and_sync(kFullMask, static_cast<unsigned>(x)));
        else return static_cast<T>(__reduce_or_sync(kFullMask, static_cast<unsigned>(x)));
    } else
#endif
    {
#pragma unroll
        for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) x = op(x, shfl_down(x, offset));
        return x;
    }
}

}  // namespace detail
}  // namespace StreamCompaction
