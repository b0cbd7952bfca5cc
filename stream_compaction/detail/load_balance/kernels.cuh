#pragma once
// Load-balancing search (moderngpu 2.0's idea, on the merge path of merge_path.cuh): the work
// items 0..n-1 and the segment ends offsets[1..segments] form a path of n + segments steps; each
// tile takes an equal share of it, whatever the segment sizes, finds the segment of each of its
// items in shared memory, and then calls the caller's functor on its items in index order, so
// that consecutive threads handle consecutive items (coalesced accesses in f).
#include <stream_compaction/detail/grid/array_access.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cooperative_groups.h>

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

constexpr int kLbsTileSteps = kLbsThreads * kLbsItemsPerThread;

// f called as f(index, segment, rank).
struct NoSegmentValues {
    using value_type = char;
};

// f called as f(index, segment, rank, load(segment)): load runs once per segment a tile touches.
template <class T, class Load>
struct SegmentValues {
    using value_type = T;
    Load load;
};

template <class SV>
constexpr bool kHasSegmentValues = !std::is_same<SV, NoSegmentValues>::value;

template <class T>
struct LbsTileStorage {
    int row_ends[kLbsTileSteps + 1];  // the tile's segment ends relative to its first item, then one more
    int row_of[kLbsTileSteps];        // each item's segment, relative to the tile's first
    T values[kLbsTileSteps + 1];      // segment values (SegmentValues only)
    long long corners[2];             // segment ends consumed before the tile's first and last steps
    long long first_begin;            // where the tile's first segment begins (it may begin in an earlier tile)
};

// One tile of the path, from its corners in tile.corners: stages its segment ends (and values),
// finds the segment of each of its items, and calls f on them in index order. Run by the whole
// block.
template <class Offset, class SV, class F, class T>
__device__ __forceinline__ void lbs_tile(const Offset *offsets, long long segments, long long diagonal_start,
                                         long long path_length, SV &segment_values, F &f, LbsTileStorage<T> &tile) {
    const long long diagonal_end =
        diagonal_start + kLbsTileSteps < path_length ? diagonal_start + kLbsTileSteps : path_length;
    // The tile: tile_rows segment ends and tile_items items from (row_start, item_start). Rows
    // row_start .. row_start + tile_rows are the segments its items can belong to. The clamps
    // hold for valid offsets anyway; they keep invalid ones inside the arrays.
    const long long row_start = tile.corners[0];
    const long long item_start = diagonal_start - row_start;
    const int tile_length = static_cast<int>(diagonal_end - diagonal_start);
    const long long corner_rows = tile.corners[1] - row_start;
    const int tile_rows = corner_rows < 0 ? 0 : corner_rows > tile_length ? tile_length : static_cast<int>(corner_rows);
    const int tile_items = tile_length - tile_rows;
    for (int j = threadIdx.x; j <= tile_rows; j += blockDim.x) {
        const long long segment = row_start + j;
        int end = tile_items;  // past the last segment: the tile's end
        if (segment < segments) {
            const long long relative = static_cast<long long>(offsets[segment + 1]) - item_start;
            end = relative < 0 ? 0 : relative > tile_items ? tile_items : static_cast<int>(relative);
            if constexpr (kHasSegmentValues<SV>) tile.values[j] = segment_values.load(segment);
        }
        tile.row_ends[j] = end;
    }
    if (threadIdx.x == 0)
        tile.first_begin = row_start < segments ? static_cast<long long>(offsets[row_start]) : item_start;
    __syncthreads();

    // Each thread walks its kLbsItemsPerThread steps of the path: an item goes to the current
    // segment while it has items left, else the segment ends.
    const int thread_diagonal =
        static_cast<int>(threadIdx.x) * kLbsItemsPerThread < tile_length ? static_cast<int>(threadIdx.x) * kLbsItemsPerThread : tile_length;
    int row, item;
    tile_merge_path_search(thread_diagonal, tile.row_ends, tile_rows, tile_items, row, item);
    // The current segment's end stays in a register, read again only when the walk leaves it.
    const auto end_of = [&](int r) { return r < tile_rows ? tile.row_ends[r] : tile_items; };
    int end = end_of(row);
    const int steps = tile_length - thread_diagonal;
#pragma unroll
    for (int step = 0; step < kLbsItemsPerThread; ++step) {
        if (step < steps) {
            if (item < end) {  // end <= tile_items, whatever the offsets
                tile.row_of[item] = row;
                ++item;
            } else {
                end = end_of(++row);
            }
        }
    }
    __syncthreads();

    // The items in index order, a block-wide stride apart.
    for (int j = threadIdx.x; j < tile_items; j += blockDim.x) {
        const int r = tile.row_of[j];
        const long long index = item_start + j;
        const long long begin = r == 0 ? tile.first_begin : item_start + tile.row_ends[r - 1];
        if constexpr (kHasSegmentValues<SV>)
            f(index, row_start + r, index - begin, tile.values[r]);
        else
            f(index, row_start + r, index - begin);
    }
}


// The block's tiles: kLbsTilesPerBlock consecutive ones from first_tile (fewer at the end).
struct LbsBlockTiles {
    long long first_tile;
    int count;
};

// Every corner of the block's tiles at once, a warp each (32-way searches of the offsets in global
// memory), into corners[0..count]: the searches' dependent loads are the latency of a tile, paid
// here once for kLbsTilesPerBlock tiles and by all warps in parallel, instead of by two warps per
// tile. Run by the whole block; the corners are ready after a __syncthreads().
template <class Offset>
__device__ LbsBlockTiles lbs_block_corners(const Offset *offsets, long long segments, long long n,
                                           long long (&corners)[kLbsTilesPerBlock + 1]) {
    const long long path_length = segments + n;
    const long long tiles = (path_length + kLbsTileSteps - 1) / kLbsTileSteps;
    const long long first_tile = static_cast<long long>(blockIdx.x) * kLbsTilesPerBlock;
    const int count = static_cast<int>(tiles - first_tile < kLbsTilesPerBlock ? tiles - first_tile : kLbsTilesPerBlock);
    const int warp = static_cast<int>(threadIdx.x / kWarpThreads), warps = static_cast<int>(blockDim.x / kWarpThreads);
    const unsigned lane = threadIdx.x % kWarpThreads;
    for (int c = warp; c <= count; c += warps) {
        const long long diagonal = (first_tile + c) * kLbsTileSteps;
        const long long found =
            warp_merge_path_search(diagonal < path_length ? diagonal : path_length, offsets, segments, n, lane);
        if (lane == 0) corners[c] = found;
    }
    return {first_tile, count};
}

template <class Offset, class SV, class F>
__global__ void __launch_bounds__(kLbsThreads) transform_lbs_kernel(const Offset *offsets, long long segments,
                                                                    long long n, SV segment_values, F f) {
    using T = typename SV::value_type;
    __shared__ LbsTileStorage<T> tile;
    __shared__ long long block_corners[kLbsTilesPerBlock + 1];
    const long long path_length = segments + n;
    const auto [first_tile, block_tiles] = lbs_block_corners(offsets, segments, n, block_corners);
    __syncthreads();
    for (int t = 0; t < block_tiles; ++t) {
        if (threadIdx.x < 2) tile.corners[threadIdx.x] = block_corners[t + threadIdx.x];
        __syncthreads();
        lbs_tile(offsets, segments, (first_tile + t) * kLbsTileSteps, path_length, segment_values, f, tile);
        __syncthreads();  // the next tile overwrites the staging
    }
}

// ---- the functors of the library's own transforms ----

template <class Index>
struct WriteSegment {
    Index *segment_of_item;
    __device__ void operator()(long long index, long long segment, long long) const {
        segment_of_item[index] = static_cast<Index>(segment);
    }
};

template <class T>
struct WriteValue {
    T *out;
    __device__ void operator()(long long index, long long, long long, const T &value) const { out[index] = value; }
};

// transform_lbs_append's item: f says whether it makes a new item; the makers among the warp's
// active lanes count themselves, one of them reserves their places with one atomicAdd, and each
// writes its item at its rank among them.
template <class F, class T>
struct AppendEmitted {
    F f;
    T *out;
    unsigned *count;
    template <class... SegmentValue>
    __device__ void operator()(long long index, long long segment, long long rank, const SegmentValue &...value) const {
        T emitted;
        if (!f(index, segment, rank, value..., emitted)) return;
        const cooperative_groups::coalesced_group makers = cooperative_groups::coalesced_threads();
        unsigned base = 0;
        if (makers.thread_rank() == 0) base = atomicAdd(count, makers.size());
        out[makers.shfl(base, 0) + makers.thread_rank()] = emitted;
    }
};

// Where segment s's items come from (and go to): gather[s] (and scatter[s]).
struct GatherScatter {
    long long gather, scatter;
};

template <class G, class S>
struct LoadGatherScatter {
    const G *gather;
    const S *scatter;  // null: the items go where the segment's own items are (interval_gather)
    __device__ GatherScatter operator()(long long segment) const {
        return {static_cast<long long>(gather[segment]), scatter ? static_cast<long long>(scatter[segment]) : -1};
    }
};

template <class T>
struct MoveItem {
    const T *in;
    T *out;
    __device__ void operator()(long long index, long long, long long rank, const GatherScatter &where) const {
        out[where.scatter < 0 ? index : where.scatter + rank] = in[where.gather + rank];
    }
};

// The first broken rule of CSR offsets (offsets[0] == 0, non-decreasing, offsets[segments] == n),
// as the lowest index i where it breaks: i = 0 for the first entry, i in [1, segments] for
// offsets[i - 1] > offsets[i] or (i == segments) offsets[i] != n.
template <class Offset>
__global__ void find_bad_offset(const Offset *offsets, long long segments, long long n, unsigned long long *first_bad) {
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i <= segments;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const long long value = static_cast<long long>(offsets[i]);
        const bool bad = (i == 0 && value != 0) || (i > 0 && static_cast<long long>(offsets[i - 1]) > value) ||
                         (i == segments && value != n);
        if (bad) atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
}

}  // namespace detail
}  // namespace StreamCompaction
