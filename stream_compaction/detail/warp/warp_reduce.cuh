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
template <class T, class Op, class Ours = standard_operator_t<Op, T>>
constexpr bool kHasWarpRedux = (std::is_same_v<T, int> || std::is_same_v<T, unsigned>) &&
                               (std::is_same_v<Ours, Sum> || std::is_same_v<Ours, Min> || std::is_same_v<Ours, Max> ||
                                std::is_same_v<Ours, BitAnd> || std::is_same_v<Ours, BitOr>);

// The warp's one-instruction reduction of op over the lanes of `members`, every one of which must
// call it (and no other lane). Only where kHasWarpRedux<T, Op>.
template <class T, class Op>
__device__ __forceinline__ T warp_redux(unsigned members, T x, Op) {
    using Ours = standard_operator_t<Op, T>;
    if constexpr (std::is_same_v<Ours, Sum>) return __reduce_add_sync(members, x);
    else if constexpr (std::is_same_v<Ours, Min>) return __reduce_min_sync(members, x);
    else if constexpr (std::is_same_v<Ours, Max>) return __reduce_max_sync(members, x);
    else if constexpr (std::is_same_v<Ours, BitAnd>)
        return static_cast<T>(__reduce_and_sync(members, static_cast<unsigned>(x)));
    else return static_cast<T>(__reduce_or_sync(members, static_cast<unsigned>(x)));
}

// Every lane returns the bitwise or of every lane's x. Needs all 32 lanes. One redux.sync from sm_80
// on; a butterfly of shuffles where the code is compiled for older GPUs.
__device__ __forceinline__ unsigned warp_or_all(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_or_sync(kFullMask, x);
#else
#pragma unroll
    for (unsigned offset = kWarpThreads / 2; offset > 0; offset /= 2) x |= __shfl_xor_sync(kFullMask, x, offset);
    return x;
#endif
}

// Lane 0 returns every lane's x combined, in any order (operators known to commute); the other
// lanes return partial results. Needs all 32 lanes, each with a value. A redux.sync where the
// hardware has it for op: one instruction where the shuffles are five dependent steps.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_all(T x, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (kHasWarpRedux<T, Op>) return warp_redux(kFullMask, x, op);
    else
#endif
    {
#pragma unroll
        for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) x = op(x, shfl_down(x, offset));
        return x;
    }
}

// Lane 0 returns the x of lanes [0, lanes) combined, in any order (operators known to commute;
// 1 <= lanes <= 32); the other lanes return partial results. Needs all 32 lanes; lanes >= `lanes`
// may hold anything.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_first(T x, unsigned lanes, Op op) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (kHasWarpRedux<T, Op>) {
        const unsigned members = lanes == kWarpThreads ? kFullMask : (1u << lanes) - 1;
        if (threadIdx.x % kWarpThreads < lanes) x = warp_redux(members, x, op);
        return x;
    } else
#endif
        return warp_reduce_prefix(x, lanes, op);
}

}  // namespace detail
}  // namespace StreamCompaction
