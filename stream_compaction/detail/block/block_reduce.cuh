#pragma once
// Block-level reduction in order (warps in order, lanes in order within each): any associative
// operator, no identity needed. The values to combine are those of a prefix of the block's threads.
#include <stream_compaction/detail/warp/warp_reduce.cuh>

namespace StreamCompaction {
namespace detail {

template <class T>
struct BlockReduceStorage {
    T warp_totals[kWarpThreads];
};

// Thread 0 returns the values of the threads with `valid` set combined in thread order, when those
// threads are a prefix of the block and there is at least one; the others return anything. Every
// thread of the block must call it (blockDim.x a multiple of 32). Between two calls on the same
// storage the block must pass a __syncthreads() (warp 0 may still be reading it).
template <class T, class Combine>
__device__ __forceinline__ T block_reduce_prefix(T value, bool valid, Combine combine, BlockReduceStorage<T> &smem) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    // The valid lanes of a warp are a prefix of it, since the valid threads are a prefix of the block.
    const unsigned valid_lanes = __popc(__ballot_sync(kFullMask, valid));
    value = warp_reduce_prefix(value, valid_lanes, combine);
    const bool warp_has_values = valid_lanes > 0;
    if (lane == 0 && warp_has_values) smem.warp_totals[warp] = value;
    // A barrier, and the count of warps with values: a prefix of the warps too.
    const unsigned valid_warps = __syncthreads_count(lane == 0 && warp_has_values);
    if (warp == 0 && valid_warps > 1) {
        T total = lane < valid_warps ? smem.warp_totals[lane] : value;
        total = warp_reduce_prefix(total, valid_warps, combine);
        value = total;
    }
    return value;
}

// Thread 0 returns the values of all the block's threads combined, in any order (operators known to
// commute); the others return anything. No validity to carry: every thread has a value. Same
// calling rules as block_reduce_prefix. Warp 0 combines the warp totals with one load a lane: thread
// 0 folding them one after another waits out a shared-memory load per warp (H100, 4096 ints in
// 256 threads, ten calls in a graph: 1.62-1.64 us a call that way, 1.49-1.51 this way; CUB 1.48-1.50).
template <class T, class Op>
__device__ __forceinline__ T block_reduce_all(T value, Op op, BlockReduceStorage<T> &smem) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    value = warp_reduce_all(value, op);
    if (lane == 0) smem.warp_totals[warp] = value;
    __syncthreads();
    const unsigned warps = blockDim.x / kWarpThreads;
    if (warp == 0 && warps > 1) value = warp_reduce_first(smem.warp_totals[lane < warps ? lane : 0], warps, op);
    return value;
}

}  // namespace detail
}  // namespace StreamCompaction
