#pragma once
// The carry of the segmented reductions (merge path, item tiles): what earlier threads and tiles
// contribute to the segment open when a thread's share starts. It is the exclusive scan of the
// threads' (closed a segment, value since the last end) pairs under the segmented operator: across
// the block by block_row_prefixes, across tiles by decoupled look-back, or for floating-point
// values by the fixed-order look-back (the same bits on every run).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/fixed_order_look_back.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/segmented_scan/segmented_pair.cuh>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Run by the whole block. `since_last_end`: the thread's values after its last segment end (all of
// them if it closed none). Returns the value carried into the thread's first closed segment;
// invalid when nothing comes before it.
template <class V, class Op>
__device__ __forceinline__ Partial<V> carried_into_segment(bool closed_a_segment, const V &since_last_end, Op op,
                                                           void *status_storage, std::size_t tiles, unsigned tile,
                                                           u64 epoch, LookBackDelay delay,
                                                           TileScanStorage<SegmentedPair<V>, 1> &smem) {
    using Pair = SegmentedPair<V>;
    const Pair totals[1] = {Pair{closed_a_segment ? 1u : 0u, since_last_end}};
    Partial<Pair> carried[1];
    const SegmentedOp<Op> pair_op{op};
    const auto status = TileStatus<Pair>::at(status_storage, scan_status_words<Pair>(tiles));
    const Partial<Pair> nothing{Pair{}, false};
    block_row_prefixes<1>(
        totals, carried, pair_op,
        [&](const Pair &aggregate) {
            return look_back_tile_prefix<Pair>(status, tiles, tile, epoch, aggregate, nothing, pair_op, delay);
        },
        smem);
    return {carried[0].value.value, carried[0].valid};
}

}  // namespace detail
}  // namespace StreamCompaction
