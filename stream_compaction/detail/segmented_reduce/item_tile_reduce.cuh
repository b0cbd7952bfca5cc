#pragma once
// Segmented reduction over tiles of items: each block takes a fixed range of the values
// (kItemTileThreads threads, each kItemTileVectors 16-byte vectors of consecutive values),
// whatever segments it crosses. Where merge path gives every thread an equal share of values and
// segment ends, and so stages both in shared memory, here a thread's values go from memory
// straight into its registers, and only the tile's segment bounds are staged.
//
// Ends belong to where they fall: segment s ends at offsets[s + 1], and the thread whose values
// are [p, p + items) stores the non-empty segments that end in (p, p + items]. Each such segment
// ends at a position of its own (an empty one ends where the segment before it does), so a
// thread closes at most one segment per value: the work is balanced however the values are
// spread. The segment open when a thread starts needs what earlier threads and tiles carry into
// it (carried_into_segment, as in merge path).
// Empty segments are written by the block that holds their end, all its threads at once (a
// million empty segments at one position would otherwise be one thread's loop).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/segmented_reduce/carried_segment.cuh>
#include <stream_compaction/tuning/policies.h>

#include <climits>
#include <cstddef>

namespace StreamCompaction {
namespace detail {

template <class V>
__host__ __device__ constexpr int item_tile_items_per_thread() {
    return kItemTileVectors * vector_items<V>();
}

template <class V>
__host__ __device__ constexpr long long item_tile_items() {
    return static_cast<long long>(kItemTileThreads) * item_tile_items_per_thread<V>();
}

// `vectorized`: values is aligned to a whole vector, so full tiles load 16 bytes at a time.
template <class V, class Offset, class Op>
__global__ void __launch_bounds__(kItemTileThreads) item_tile_reduce_kernel(
    const V *values, long long n, const Offset *offsets, long long segments, V *out, Op op, V identity,
    bool vectorized, void *status_storage, std::size_t tiles, CallState *state, u64 call_tag, LookBackDelay delay) {
    constexpr int VEC = vector_items<V>();
    constexpr int ITEMS = item_tile_items_per_thread<V>();
    auto &smem = shared_storage<TileScanStorage<SegmentedPair<V>, 1>>();
    __shared__ long long tile_ends[2];  // segments ending before the tile's first value, and by its last

    const TileAssignment assigned = block_take_tile(smem, state, call_tag, tiles);
    const unsigned tile = assigned.tile;
    const long long tile_start = static_cast<long long>(tile) * item_tile_items<V>();
    const long long tile_end = tile_start + item_tile_items<V>() < n ? tile_start + item_tile_items<V>() : n;
    const long long first = tile_start + static_cast<long long>(threadIdx.x) * ITEMS;  // the thread's first value
    const int count = first >= tile_end ? 0 : tile_end - first < ITEMS ? static_cast<int>(tile_end - first) : ITEMS;

    // The values first, so that their loads are in flight during the searches.
    Vector<V, VEC> loaded[kItemTileVectors];
    if (count == ITEMS && vectorized) {
        const auto *vectors = reinterpret_cast<const Vector<V, VEC> *>(values + first);
#pragma unroll
        for (int v = 0; v < kItemTileVectors; ++v) loaded[v] = vectors[v];
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
            if (k < count) loaded[k / VEC].item[k % VEC] = values[first + k];
    }

    const unsigned warp = threadIdx.x / kWarpThreads, lane = threadIdx.x % kWarpThreads;
    if (warp == 0) {
        // Tile 0 also takes the empty segments that end at 0.
        const long long before = tile == 0 ? 0 : warp_ends_at_most(tile_start, offsets, segments, lane);
        if (lane == 0) tile_ends[0] = before;
    }
    if (warp == (blockDim.x > kWarpThreads ? 1u : 0u)) {
        const long long by_end = warp_ends_at_most(tile_end, offsets, segments, lane);
        if (lane == 0) tile_ends[1] = by_end;
    }
    __syncthreads();
    const long long lo = tile_ends[0];
    const int ends = tile_ends[1] > lo ? static_cast<int>(tile_ends[1] - lo) : 0;  // clamped for invalid offsets
    // Segment lo + j runs from bound(j) to bound(j + 1), positions relative to the tile's start,
    // clamped to [-1, tile items] (what lies outside the tile only needs to differ from what is in
    // it). Staged in shared memory unless the tile holds more ends than values (empty segments).
    constexpr int TILE = static_cast<int>(item_tile_items<V>());
    __shared__ int staged_bounds[TILE + 1];
    const bool staged = ends <= TILE;
    const auto global_bound = [&](int j) {
        const long long position = static_cast<long long>(offsets[lo + j]) - tile_start;
        return position < -1 ? -1 : position > TILE ? TILE : static_cast<int>(position);
    };
    if (staged)
        for (int j = threadIdx.x; j <= ends; j += blockDim.x) staged_bounds[j] = global_bound(j);
    __syncthreads();
    const auto bound = [&](int j) { return staged ? staged_bounds[j] : global_bound(j); };

    for (int j = threadIdx.x; j < ends; j += blockDim.x)
        if (bound(j) == bound(j + 1)) out[lo + j] = identity;

    // The first of the tile's ends past `position`, searched in [from, ends).
    const auto first_end_after = [&](int position, int from) {
        int high = ends;
        while (from < high) {
            const int pivot = (from + high) >> 1;
            if (bound(pivot + 1) <= position) from = pivot + 1;
            else high = pivot;
        }
        return from;
    };
    const int thread_start = static_cast<int>(threadIdx.x) * ITEMS;
    int next = first_end_after(thread_start, 0);
    int next_end = next < ends ? bound(next + 1) : INT_MAX;
    V running = identity;
    V first_total = identity;  // the thread's share of the first segment it closes
    int first_closed = -1;
    // Consumes the values before position thread_start + k, then closes the segment that ends there.
#pragma unroll
    for (int k = 0; k <= ITEMS; ++k) {
        if (next_end == thread_start + k) {
            if (first_closed < 0) {
                first_closed = next;
                first_total = running;
            } else {
                out[lo + next] = running;
            }
            running = identity;
            next = first_end_after(thread_start + k, next + 1);
            next_end = next < ends ? bound(next + 1) : INT_MAX;
        }
        if (k < ITEMS && k < count) running = op(running, loaded[k / VEC].item[k % VEC]);
    }

    const Partial<V> carried = carried_into_segment(first_closed >= 0, running, op, status_storage, tiles, tile,
                                                    assigned.epoch, delay, smem);
    // A closed segment is not empty, so the thread consumed its first value before closing it:
    // first_total holds at least one value, and `identity` need only be a left identity.
    if (first_closed >= 0) out[lo + first_closed] = carried.valid ? op(carried.value, first_total) : first_total;
}

}  // namespace detail
}  // namespace StreamCompaction
