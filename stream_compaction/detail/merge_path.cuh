#pragma once
// Merge-path segmented reduction (Merrill & Garland 2016), the engine of segmented_reduce and of
// the merge-path SpMV.
//
// The merge path of the segment ends offsets[1..segments] and the element indices 0..n-1: a step
// either consumes an element or ends a segment (once all of its elements are consumed), so the path
// has segments + n steps however the elements are spread over segments. Each block takes an equal
// share of it (a tile), each thread kMergePathItemsPerThread consecutive steps. A thread's segments
// that end after its first are complete in the thread; the first needs what earlier threads and
// tiles carry into it, which is an exclusive scan of the threads' (ended a segment, value since the
// last end) pairs under the segmented operator: across the block by block_row_prefixes, across
// tiles by decoupled look-back. One launch.
//
// Where a tile's share starts and ends (its corners) is either searched by the block itself, or
// read from a plan: corners computed once for offsets that do not change (a matrix's rows).
#include "../cuda_check.h"
#include "../device_api.h"
#include "../segmented_pair.cuh"
#include "../tuning.h"
#include "scan_epoch.h"
#include "tile_scan.cuh"

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Path steps per thread: a compile-time constant because the staging lives in registers. Larger
// tiles amortize each tile's corners and look-back (15 was about 1.5x faster than 7 on large
// matrices on an H100); odd keeps the threads' shared-memory runs on different banks.
constexpr int kMergePathItemsPerThread = 15;

// The point (segment ends consumed, elements consumed) where `diagonal` crosses the merge path of
// a tile, from its staged row ends (relative to its first element). Ties go to the end: a segment
// ends as soon as its last element is consumed, and empty segments at once.
__device__ __forceinline__ void tile_merge_path_search(int diagonal, const int *row_ends, int rows, int elements,
                                                       int &row, int &element) {
    int low = diagonal > elements ? diagonal - elements : 0;
    int high = diagonal < rows ? diagonal : rows;
    while (low < high) {
        const int pivot = (low + high) >> 1;
        if (row_ends[pivot] <= diagonal - pivot - 1) low = pivot + 1;
        else high = pivot;
    }
    row = low;
    element = diagonal - low;
}

// The same crossing on the whole path in global memory, by a whole warp: each round the 32 lanes
// test 32 evenly spaced pivots at once, so the range shrinks 32-fold per dependent load rather than
// 2-fold. Every lane returns the number of ends consumed.
template <class Offset>
__device__ __forceinline__ long long warp_merge_path_search(long long diagonal, const Offset *offsets,
                                                            long long segments, long long n, unsigned lane) {
    long long low = diagonal > n ? diagonal - n : 0;
    long long high = diagonal < segments ? diagonal : segments;
    // The answer is the first x in [low, high) where segment x ends after the element it meets
    // (offsets[x + 1] > diagonal - x - 1), else high; the test is monotone in x, so the lanes whose
    // pivot passes form a prefix of the warp.
    while (low < high) {
        const long long step = (high - low + kWarpThreads - 1) / kWarpThreads;
        const long long pivot = low + lane * step;
        const bool passes = pivot < high && static_cast<long long>(offsets[pivot + 1]) <= diagonal - pivot - 1;
        const int passed = __popc(__ballot_sync(kFullMask, passes));
        if (passed == 0) return low;
        const long long last_passing = low + (passed - 1) * step;
        low = last_passing + 1;
        high = last_passing + step < high ? last_passing + step : high;
    }
    return low;
}

// Tile corners searched by the block: warps 0 and 1 find where its first and last diagonals cross
// the path, at once. Run by the whole block; ends[0] and ends[1] receive the segment ends consumed.
template <class Offset>
struct SearchedCorners {
    const Offset *offsets;
    __device__ void find(unsigned /*tile*/, long long diagonal_start, long long diagonal_end, long long segments,
                         long long n, long long *ends) const {
        const unsigned warp = threadIdx.x / kWarpThreads, lane = threadIdx.x % kWarpThreads;
        const unsigned end_warp = blockDim.x > kWarpThreads ? 1 : 0;
        if (warp == 0) {
            const long long found = warp_merge_path_search(diagonal_start, offsets, segments, n, lane);
            if (lane == 0) ends[0] = found;
        }
        if (warp == end_warp) {
            const long long found = warp_merge_path_search(diagonal_end, offsets, segments, n, lane);
            if (lane == 0) ends[1] = found;
        }
    }
};

// Tile corners read from a plan: corners[t] is where diagonal t * tile_items crosses the path.
struct PlannedCorners {
    const long long *corners;
    __device__ void find(unsigned tile, long long, long long, long long, long long, long long *ends) const {
        if (threadIdx.x < 2) ends[threadIdx.x] = corners[tile + threadIdx.x];
    }
};

// A tile's staging: its element values, then its row ends relative to its first element.
template <class V>
std::size_t merge_path_staging_bytes(int threads) {
    const std::size_t tile_items = static_cast<std::size_t>(threads) * kMergePathItemsPerThread;
    return tile_items * sizeof(V) + (tile_items + 1) * sizeof(int);
}

// Registers per thread: few enough for 1024 threads, and for values of up to 4 bytes few enough
// that more blocks fit on an SM (40 gives 6 blocks of 256 threads), without spilling.
template <class V>
constexpr int kMergePathRegisters = sizeof(V) <= 4 ? 40 : 64;

// load(i) is element i's value; store(s, total) receives segment s's reduction (`identity` when empty).
template <class V, class Offset, class Corners, class Load, class Store, class Op>
__global__ void __maxnreg__(kMergePathRegisters<V>) merge_path_reduce_kernel(const Offset *offsets, long long segments,
                                                                 long long n, Corners corners, Load load,
                                                                 Store store, Op op, V identity,
                                                                 void *status_storage, std::size_t tiles,
                                                                 u64 *ticket, u64 epoch) {
    constexpr int ITEMS = kMergePathItemsPerThread;
    using Pair = SegmentedPair<V>;
    auto &smem = shared_storage<TileScanStorage<Pair, 1>>();
    __shared__ long long tile_corners[2];  // segment ends consumed before the tile's first and last steps
    extern __shared__ __align__(16) unsigned char merge_path_staging[];
    const int tile_items = static_cast<int>(blockDim.x) * ITEMS;
    V *tile_values = reinterpret_cast<V *>(merge_path_staging);
    int *tile_row_ends = reinterpret_cast<int *>(merge_path_staging + tile_items * sizeof(V));

    const unsigned tile = block_acquire_tile(smem, ticket, epoch);
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

    V running = identity;
    V first_total = identity;  // the thread's share of its first segment that ends
    int first_row = -1;
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
                } else if (row < tile_rows) {
                    store(row_start + row, running);
                }
                running = identity;
                ++row;
            }
        }
    }

    Pair totals[1] = {Pair{first_row >= 0 ? 1u : 0u, running}};
    Partial<Pair> carried[1];
    const SegmentedOp<Op> pair_op{op};
    const auto status = TileStatus<Pair>::at(status_storage, tiles);
    block_row_prefixes<1>(
        totals, carried, pair_op,
        [&](const Pair &aggregate) {
            return chained_tile_prefix<Pair>(status, tile, epoch, aggregate, Partial<Pair>{Pair{}, false}, pair_op);
        },
        smem);
    if (first_row >= 0 && first_row < tile_rows)
        store(row_start + first_row, carried[0].valid ? op(carried[0].value.value, first_total) : first_total);
}

inline std::size_t merge_path_tiles(std::size_t n, std::size_t segments, int threads) {
    const std::size_t tile_items = static_cast<std::size_t>(threads) * kMergePathItemsPerThread;
    return (segments + n + tile_items - 1) / tile_items;
}

// The block size: the caller's (block_sizes().segmented), halved until the staging fits in the
// device's shared memory (1024 threads need 184 KB for 8-byte values).
template <class V>
int merge_path_threads() {
    int device = 0, limit = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    int threads = checked_block_size(block_sizes().segmented);
    const std::size_t static_bytes = sizeof(TileScanStorage<SegmentedPair<V>, 1>) + 64;
    while (threads > kWarpThreads && merge_path_staging_bytes<V>(threads) + static_bytes > static_cast<std::size_t>(limit))
        threads /= 2;
    return threads;
}

// Storage: the ticket (16 bytes), then the tile status words, sized for the smallest block size.
template <class V>
std::size_t merge_path_temp_bytes(std::size_t n, std::size_t segments) {
    return 16 + TileStatus<SegmentedPair<V>>::bytes(merge_path_tiles(n, segments, kWarpThreads));
}

template <class V, class Offset, class Corners, class Load, class Store, class Op>
void launch_merge_path_reduce(int threads, const Offset *d_offsets, std::size_t segments, std::size_t n,
                              Corners corners, Load load, Store store, Op op, V identity, void *d_temp,
                              cudaStream_t stream) {
    const std::size_t tiles = merge_path_tiles(n, segments, threads);
    const std::size_t staging_bytes = merge_path_staging_bytes<V>(threads);
    const auto kernel = merge_path_reduce_kernel<V, Offset, Corners, Load, Store, Op>;
    if (staging_bytes > 48 * 1024)
        SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(staging_bytes)));
    char *storage = static_cast<char *>(d_temp);
    kernel<<<blocks_for(tiles, 1), threads, staging_bytes, stream>>>(
        d_offsets, static_cast<long long>(segments), static_cast<long long>(n), corners, load, store, op, identity,
        storage + 16, tiles, reinterpret_cast<u64 *>(storage), next_scan_epoch());
    SC_CHECK_LAUNCH(merge_path_reduce_kernel);
}

// The reduction with corners searched by each block: offsets may change from call to call.
template <class V, class Offset, class Load, class Store, class Op>
void merge_path_reduce(const char *name, const Offset *d_offsets, std::size_t segments, std::size_t n, Load load,
                       Store store, Op op, V identity, void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    if (segments == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, merge_path_temp_bytes<V>(n, segments));
    launch_merge_path_reduce(merge_path_threads<V>(), d_offsets, segments, n, SearchedCorners<Offset>{d_offsets},
                             load, store, op, identity, d_temp, stream);
}

// ---- plans: corners computed once, for offsets that stay as they are ----

// Corners for tiles of `threads` threads: corners[t] for t in [0, tiles].
struct MergePathPlan {
    const long long *corners;
    int threads;
};

// Room for the plan of any block size.
inline std::size_t merge_path_plan_entries(std::size_t n, std::size_t segments) {
    return merge_path_tiles(n, segments, kWarpThreads) + 1;
}

// One warp per corner.
template <class Offset>
__global__ void merge_path_plan_kernel(const Offset *offsets, long long segments, long long n, long long tile_items,
                                       long long entries, long long *corners) {
    const long long t = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / kWarpThreads;
    if (t >= entries) return;  // whole warps
    const long long path_length = segments + n;
    const long long diagonal = t * tile_items < path_length ? t * tile_items : path_length;
    const long long found = warp_merge_path_search(diagonal, offsets, segments, n, threadIdx.x % kWarpThreads);
    if (threadIdx.x % kWarpThreads == 0) corners[t] = found;
}

// Fills d_corners (merge_path_plan_entries(n, segments) entries) for the current block size and
// waits for it, so that the plan is ready for calls on any stream.
template <class V, class Offset>
MergePathPlan make_merge_path_plan(const Offset *d_offsets, std::size_t segments, std::size_t n,
                                   long long *d_corners, cudaStream_t stream) {
    const int threads = merge_path_threads<V>();
    const long long entries = static_cast<long long>(merge_path_tiles(n, segments, threads)) + 1;
    const int plan_threads = 256;
    merge_path_plan_kernel<<<blocks_for(static_cast<std::size_t>(entries) * kWarpThreads, plan_threads), plan_threads,
                             0, stream>>>(d_offsets, static_cast<long long>(segments), static_cast<long long>(n),
                                          static_cast<long long>(threads) * kMergePathItemsPerThread, entries,
                                          d_corners);
    SC_CHECK_LAUNCH(merge_path_plan_kernel);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return {d_corners, threads};
}

// The reduction with the plan's corners (made for these offsets and the plan's block size).
template <class V, class Offset, class Load, class Store, class Op>
void merge_path_reduce_planned(const char *name, const MergePathPlan &plan, const Offset *d_offsets,
                               std::size_t segments, std::size_t n, Load load, Store store, Op op, V identity,
                               void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    if (segments == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, merge_path_temp_bytes<V>(n, segments));
    launch_merge_path_reduce(plan.threads, d_offsets, segments, n, PlannedCorners{plan.corners}, load, store, op,
                             identity, d_temp, stream);
}

}  // namespace detail
}  // namespace StreamCompaction
