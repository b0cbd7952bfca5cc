#pragma once
// The decoupled look-back of one tile (Merrill & Garland 2016), for the single-pass kernels: publish
// the tile's aggregate, look back over its predecessors' status words, publish its inclusive prefix.
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/tuning/policies.h>

namespace StreamCompaction {
namespace detail {

// The look-back step of a tile, for warp 0: publish, look back (sleeping as `delay` says),
// publish. `first_prefix` is what comes before tile 0 (the exclusive scan's init, or nothing). A
// tile whose aggregate restarts the scan publishes it as final at once, so later tiles never wait
// on this tile's look-back.
template <class T, class Op, class Status>
__device__ __forceinline__ Partial<T> chained_tile_prefix(const Status &status, unsigned tile, u64 epoch,
                                                          const T &aggregate, const Partial<T> &first_prefix, Op op,
                                                          LookBackDelay delay) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    if (tile == 0) {
        if (lane == 0)
            status.publish(0, combine(first_prefix, Partial<T>{aggregate, true}, op).value, epoch << 1 | 1);
        return first_prefix;
    }
    const bool final_at_once = restarts_scan(op, aggregate);
    if (lane == 0) status.publish(tile, aggregate, epoch << 1 | (final_at_once ? 1 : 0));
    const T exclusive = look_back<T>(status, tile, epoch, op, lane, delay);
    if (lane == 0 && !final_at_once) status.publish(tile, op(exclusive, aggregate), epoch << 1 | 1);
    return {exclusive, true};
}

}  // namespace detail
}  // namespace StreamCompaction
