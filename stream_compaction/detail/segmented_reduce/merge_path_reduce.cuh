#pragma once
// Merge-path segmented reduction (Merrill & Garland 2016), an engine of segmented_reduce and the
// engine of the merge-path SpMV.
//
// The merge path of the segment ends offsets[1..segments] and the element indices 0..n-1: a step
// either consumes an element or ends a segment (once all of its elements are consumed), so the path
// has segments + n steps however the elements are spread over segments. Each block takes an equal
// share of it (a tile), each thread kMergePathItemsPerThread consecutive steps. A thread's segments
// that end after its first are complete in the thread; the first needs what earlier threads and
// tiles carry into it (carried_into_segment: a block scan, then decoupled look-back). One launch.
//
// Where a tile's share starts and ends (its corners) is either searched by the block itself, or
// read from a plan: corners computed once for offsets that do not change (a matrix's rows).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/segmented_reduce/carried_segment.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// A tile's staging: its element values, then its row ends relative to its first element.
template <class V>
std::size_t merge_path_staging_bytes(int threads) {
    const std::size_t tile_items = static_cast<std::size_t>(threads) * kMergePathItemsPerThread;
    return tile_items * sizeof(V) + (tile_items + 1) * sizeof(int);
}

// load(i) is element i's value; store(s, total) receives segment s's reduction (`identity` when empty).
template <class V, class Offset, class Corners, class Load, class Store, class Op>
__global__ void __maxnreg__(kMergePathRegisters<V>) merge_path_reduce_kernel(const Offset *offsets, long long segments,
                                                                 long long n, Corners corners, Load load,
                                                                 Store store, Op op, V identity,
                                                                 void *status_storage, std::size_t tiles,
                                                                 CallState *state, u64 call_tag,
                                                                 LookBackDelay delay) {
    constexpr int ITEMS = kMergePathItemsPerThread;
    auto &smem = shared_storage<TileScanStorage<SegmentedPair<V>, 1>>();
    __shared__ long long tile_corners[2];  // segment ends consumed before the tile's first and last steps
    extern __shared__ __align__(16) unsigned char merge_path_staging[];
    const int tile_items = static_cast<int>(blockDim.x) * ITEMS;
    V *tile_values = reinterpret_cast<V *>(merge_path_staging);
    int *tile_row_ends = reinterpret_cast<int *>(merge_path_staging + tile_items * sizeof(V));

    const TileAssignment assigned = block_take_tile(smem, state, call_tag, tiles);
    const unsigned tile = assigned.tile;
    const u64 epoch = assigned.epoch;
    const long long path_length = segments + n;
    const long long diagonal_start = static_cast<long long>(tile) * tile_items;
    const long long diagonal_end = diagonal_start + tile_items < path_length ? diagonal_start + tile_items : path_length;
    corners.find(tile, diagonal_start, diagonal_end, segments, n, tile_corners);
    __syncthreads();
    // The tile's steps: tile_rows segment ends and tile_elements elements, from (row_start,
    // element_start). From here on positions are ints relative to that corner. The clamps hold for
    // valid offsets anyway; they keep invalid ones inside the arrays.
    const long long row_start = tile_corners[0];
    const long long element_start = diagonal_start - row_start;
    const int tile_length = static_cast<int>(diagonal_end - diagonal_start);
    const long long corner_rows = tile_corners[1] - row_start;
    const int tile_rows = corner_rows < 0 ? 0 : corner_rows > tile_length ? tile_length : static_cast<int>(corner_rows);
    const int tile_elements = tile_length - tile_rows;
    // Row r of the tile ends at tile_row_ends[r], clamped to [0, tile_elements]; one entry past its
    // last row, which the last steps run into (reads as the tile's end after the last segment).
    const int staged_rows = tile_rows + 1;
    const auto relative_end = [&](int j, Offset end) {
        const long long relative = static_cast<long long>(end) - element_start;
        return row_start + j >= segments ? tile_elements
               : relative < 0            ? 0
               : relative > tile_elements ? tile_elements
                                          : static_cast<int>(relative);
    };
    const auto end_at = [&](int j) { return offsets[(row_start + j < segments ? row_start + j : segments - 1) + 1]; };
    // The loads of the values and of the first kBatchedRowCopies rows are all issued before the
    // first store, without branches between them, so that they overlap; tiles with more rows than
    // that (mostly empty rows) stage the rest afterwards. Batching all rows would cost registers
    // and occupancy for the rare tile.
    constexpr int kBatchedRowCopies = 4;
    Offset loaded_ends[kBatchedRowCopies];
    V loaded_values[ITEMS];
#pragma unroll
    for (int c = 0; c < kBatchedRowCopies; ++c) {
        const int j = threadIdx.x + c * blockDim.x;
        if (j < staged_rows) loaded_ends[c] = end_at(j);
    }
#pragma unroll
    for (int c = 0; c < ITEMS; ++c) {
        const int j = threadIdx.x + c * blockDim.x;
        if (j < tile_elements) loaded_values[c] = load(element_start + j);
    }
#pragma unroll
    for (int c = 0; c < kBatchedRowCopies; ++c) {
        const int j = threadIdx.x + c * blockDim.x;
        if (j < staged_rows) tile_row_ends[j] = relative_end(j, loaded_ends[c]);
    }
#pragma unroll
    for (int c = 0; c < ITEMS; ++c) {
        const int j = threadIdx.x + c * blockDim.x;
        if (j < tile_elements) tile_values[j] = loaded_values[c];
    }
    for (int j = threadIdx.x + kBatchedRowCopies * blockDim.x; j < staged_rows; j += blockDim.x)
        tile_row_ends[j] = relative_end(j, end_at(j));
    __syncthreads();

    const int thread_diagonal = static_cast<int>(threadIdx.x) * ITEMS < tile_length ? static_cast<int>(threadIdx.x) * ITEMS : tile_length;
    int row, element;
    tile_merge_path_search(thread_diagonal, tile_row_ends, tile_rows, tile_elements, row, element);
    const int steps = tile_length - thread_diagonal;

    // `identity` need only be a left identity (op(identity, x) == x): it starts each running value,
    // and a share that consumed nothing is never combined on the right.
    V running = identity;
    V first_total = identity;  // the thread's share of its first segment that ends
    bool first_has_value = false;
    int first_row = -1;
    const int first_element = element;
#pragma unroll
    for (int step = 0; step < ITEMS; ++step) {
        if (step < steps) {
            const bool consume = element < tile_elements && (row > tile_rows || element < tile_row_ends[row]);
            if (consume) {
                running = op(running, tile_values[element]);
                ++element;
            } else {
                if (first_row < 0) {
                    first_row = row;
                    first_total = running;
                    first_has_value = element > first_element;
                } else if (row < tile_rows) {
                    store(row_start + row, running);
                }
                running = identity;
                ++row;
            }
        }
    }

    const Partial<V> carried =
        carried_into_segment(first_row >= 0, running, op, status_storage, tiles, tile, epoch, delay, smem);
    if (first_row >= 0 && first_row < tile_rows)
        store(row_start + first_row, !carried.valid ? first_total
                                     : first_has_value ? op(carried.value, first_total)
                                                       : carried.value);
}

}  // namespace detail
}  // namespace StreamCompaction
