#pragma once
// Load-balancing search (moderngpu 2.0's idea, on the merge path of merge_path.cuh): the work
// items 0..n-1 and the segment ends offsets[1..segments] form a path of n + segments steps; each
// tile takes an equal share of it, whatever the segment sizes, finds the segment of each of its
// items in shared memory, and then calls the caller's functor on its items in index order, so
// that consecutive threads handle consecutive items (coalesced accesses in f).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/util/array_access.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/util/vector_store.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

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

// Steps per thread of transform_lbs's tile, whose staging holds a segment value (or a byte) per
// step: the wide values would not fit 48 KB of shared memory at the longer runs.
template <class T>
__host__ __device__ constexpr int lbs_items_per_thread() {
    return sizeof(T) > 8 ? kLbsItemsPerThreadStaged : kLbsItemsPerThread;
}

// A tile's segment ends and marks (lbs_tile) in 16 bits: with ints, interval expand's tile of int
// values took 34 KB of shared memory, 6 blocks an SM; in 16 bits 23 KB, room for 8.
using TileRow = unsigned short;

template <class T, int Items>
struct LbsTileStorage {
    static constexpr int kSteps = kLbsThreads * Items;
    // The largest mark, epoch + row of the block's last tile (lbs_tile), fits a TileRow.
    static_assert(kLbsTilesPerBlock * (kSteps + 1) + kSteps <= 0xFFFF, "a tile's marks fit 16 bits");
    // Each item's segment, relative to the tile's first (and the marks: lbs_tile); first in the
    // storage and 16-byte aligned for ThreadRows's 8-byte accesses.
    alignas(16) TileRow row_of[kSteps];
    TileRow row_ends[kSteps + 1];  // the tile's segment ends relative to its first item, then one more
    T values[kSteps + 1];          // segment values (SegmentValues only)
    int warp_rows[kLbsThreads / kWarpThreads];  // the last row each warp's items reach
    long long corners[2];          // segment ends consumed before the tile's first and last steps
    long long first_begin;         // where the tile's first segment begins (it may begin in an earlier tile)
};

// Sets row_of to 0, below every tile's marks (lbs_tile). Run by the whole block, before a
// __syncthreads.
template <class T, int Items>
__device__ __forceinline__ void clear_tile_rows(LbsTileStorage<T, Items> &tile) {
    for (int i = threadIdx.x; i < LbsTileStorage<T, Items>::kSteps; i += kLbsThreads) tile.row_of[i] = 0;
}

// A thread's Items consecutive rows of row_of from `first`, 4 at a time (one 8-byte access, no
// bank conflicts at 12 a thread) where Items is a multiple of 4, else one at a time (2-way
// conflicts of the 16-bit accesses at 11 a thread).
template <int Items>
struct ThreadRows {
    static constexpr bool kVector = Items % 4 == 0;
    __device__ __forceinline__ static void load(const TileRow *row_of, int first, int (&rows)[Items]) {
        if constexpr (kVector) {
#pragma unroll
            for (int v = 0; v < Items / 4; ++v) {
                const uint2 four = reinterpret_cast<const uint2 *>(row_of + first)[v];
                rows[4 * v] = four.x & 0xFFFF, rows[4 * v + 1] = four.x >> 16;
                rows[4 * v + 2] = four.y & 0xFFFF, rows[4 * v + 3] = four.y >> 16;
            }
        } else {
#pragma unroll
            for (int k = 0; k < Items; ++k) rows[k] = row_of[first + k];
        }
    }
    __device__ __forceinline__ static void store(TileRow *row_of, int first, const int (&rows)[Items]) {
        if constexpr (kVector) {
#pragma unroll
            for (int v = 0; v < Items / 4; ++v)
                reinterpret_cast<uint2 *>(row_of + first)[v] =
                    make_uint2(static_cast<unsigned>(rows[4 * v]) | static_cast<unsigned>(rows[4 * v + 1]) << 16,
                               static_cast<unsigned>(rows[4 * v + 2]) | static_cast<unsigned>(rows[4 * v + 3]) << 16);
        } else {
#pragma unroll
            for (int k = 0; k < Items; ++k) row_of[first + k] = static_cast<TileRow>(rows[k]);
        }
    }
};

// row_of[i] = the largest mark at or before item i, less `epoch` (0 where there is none), over the
// whole tile (Items consecutive items a thread, a warp scan, then the warps in order); marks are
// epoch + row, and whatever else row_of holds is below epoch, so that past the tile's items too
// it writes rows below every later epoch. Run by the whole block; ends with a __syncthreads.
template <class T, int Items>
__device__ __forceinline__ void block_running_max_rows(LbsTileStorage<T, Items> &tile, int epoch) {
    static_assert(sizeof(TileRow) == 2, "ThreadRows packs 16-bit rows");
    const int first = static_cast<int>(threadIdx.x) * Items;
    const unsigned lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
    int running[Items];
    ThreadRows<Items>::load(tile.row_of, first, running);
    int latest = epoch;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        latest = max(latest, running[k]);
        running[k] = latest;
    }
    int through_lane[1] = {latest};
    warp_inclusive_scan(through_lane, Max{}, lane);
    if (lane == kWarpThreads - 1) tile.warp_rows[warp] = through_lane[0];
    int before = shfl_up(through_lane[0], 1);
    if (lane == 0) before = epoch;
    __syncthreads();
#pragma unroll
    for (unsigned w = 0; w < kLbsThreads / kWarpThreads; ++w)
        if (w < warp) before = max(before, tile.warp_rows[w]);
#pragma unroll
    for (int k = 0; k < Items; ++k) running[k] = max(before, running[k]) - epoch;
    ThreadRows<Items>::store(tile.row_of, first, running);
    __syncthreads();
}

// The library's one-store functors: item i of the output is f.item(segment of i, its value)
// (interval expand's value, or the search's segment), stored by lbs_tile through store_tile_items.
template <class Index>
struct WriteSegment {
    using output_type = Index;
    Index *out;
    template <class Unused>
    __device__ Index item(long long segment, const Unused &) const {
        return static_cast<Index>(segment);
    }
};

template <class T>
struct WriteValue {
    using output_type = T;
    T *out;
    __device__ const T &item(long long, const T &value) const { return value; }
};

template <class F>
constexpr bool kStoresOneItem = false;
template <class Index>
constexpr bool kStoresOneItem<WriteSegment<Index>> = true;
template <class T>
constexpr bool kStoresOneItem<WriteValue<T>> = true;

// Blocks an SM that transform_lbs_kernel's launch bounds ask for. The one-store functors with
// segment values of up to 4 bytes (the search's segments, interval expand of narrow values) fit
// 32 registers without spills and their tile 8 blocks' shared memory (interval expand took 40
// registers unbounded, 6 blocks); a caller's functor, or wider values, keep the compiler's choice.
template <class SV, class F>
constexpr int lbs_min_blocks() {
    return kStoresOneItem<F> && sizeof(typename SV::value_type) <= 4 ? kLbsOneStoreMinBlocks : 1;
}

// The tile's items [0, tile_items), item j at f.out[item_start + j], by a one-store functor: 16
// bytes a thread (vector_store.cuh), each warp's stores covering 512 consecutive bytes, from the
// output's first 16-byte boundary (the items before it, and after the last whole 16 bytes, one a
// thread). The stores are evict-first: the offsets and values that the corner searches bring into
// L2 are read again by the block's later tiles (on an H100 at 2^28 the search alone read 78 MB of
// DRAM with them, 127 MB before).
template <class F, class T, int Items>
__device__ __forceinline__ void store_tile_items(const F &f, const LbsTileStorage<T, Items> &tile,
                                                 long long item_start, long long row_start, int tile_items) {
    using U = typename F::output_type;
    constexpr int kVector = kItemsPerVectorStore<U>;
    U *out = f.out + item_start;
    const auto item = [&](int j) -> U {
        const int r = tile.row_of[j];
        return f.item(row_start + r, tile.values[r]);
    };
    if constexpr (kVector == 1) {
        for (int j = threadIdx.x; j < tile_items; j += kLbsThreads) out[j] = item(j);
    } else {
        const int to_boundary = static_cast<int>((16 - reinterpret_cast<std::uintptr_t>(out) % 16) % 16 / sizeof(U));
        const int head = to_boundary < tile_items ? to_boundary : tile_items;
        const int vectors = (tile_items - head) / kVector;
        if (static_cast<int>(threadIdx.x) < head) store_evict_first(out + threadIdx.x, item(threadIdx.x));
#pragma unroll 1
        for (int v = threadIdx.x; v < vectors; v += kLbsThreads) {
            const int first = head + v * kVector;
            VectorRun<U> run;
#pragma unroll
            for (int k = 0; k < kVector; ++k) run.put(k, item(first + k));
            run.store_evict_first(out + first);
        }
        const int tail = head + vectors * kVector + static_cast<int>(threadIdx.x);  // fewer than kVector left
        if (tail < tile_items) store_evict_first(out + tail, item(tail));
    }
}

// One tile of the path, the block's tile number `ordinal` (0, 1, ...; row_of cleared before the
// first), from its corners in tile.corners: stages its segment ends (and values), finds the
// segment of each of its items, and calls f on them in index order. Run by the whole block.
//
// An item's segment is the last one with items in the tile that begins at or before it: each such
// segment marks its first item with its row (segments without items mark nothing, so marks never
// collide), and a running maximum over the items fills in the rest. Row 0, where the tile begins,
// is the default. Marks are written as epoch + row, the epoch growing with the ordinal past every
// row and earlier mark, so that what earlier tiles left in row_of needs no clearing. (A merge-path
// search per thread and a walk of its steps took 1.2x the time.)
template <int Items, class Offset, class SV, class F, class T>
__device__ __forceinline__ void lbs_tile(const Offset *offsets, long long segments, long long diagonal_start,
                                         long long path_length, int ordinal, SV &segment_values, F &f,
                                         LbsTileStorage<T, Items> &tile) {
    constexpr int kSteps = LbsTileStorage<T, Items>::kSteps;
    const int epoch = (ordinal + 1) * (kSteps + 1);
    const long long diagonal_end = diagonal_start + kSteps < path_length ? diagonal_start + kSteps : path_length;
    // The tile: tile_rows segment ends and tile_items items from (row_start, item_start). Rows
    // row_start .. row_start + tile_rows are the segments its items can belong to. The clamps
    // hold for valid offsets anyway; they keep invalid ones inside the arrays.
    const long long row_start = tile.corners[0];
    const long long item_start = diagonal_start - row_start;
    const int tile_length = static_cast<int>(diagonal_end - diagonal_start);
    const long long corner_rows = tile.corners[1] - row_start;
    const int tile_rows = corner_rows < 0 ? 0 : corner_rows > tile_length ? tile_length : static_cast<int>(corner_rows);
    const int tile_items = tile_length - tile_rows;
    const auto relative = [&](long long offset) {
        const long long r = offset - item_start;
        return r < 0 ? 0 : r > tile_items ? tile_items : static_cast<int>(r);
    };
    for (int j = threadIdx.x; j <= tile_rows; j += kLbsThreads) {
        const long long segment = row_start + j;
        int begin = tile_items, end = tile_items;  // past the last segment: no items, no mark
        if (segment < segments) {
            begin = relative(static_cast<long long>(offsets[segment]));
            end = relative(static_cast<long long>(offsets[segment + 1]));
            if constexpr (kHasSegmentValues<SV>) tile.values[j] = segment_values.load(segment);
        }
        tile.row_ends[j] = static_cast<TileRow>(end);
        if (j > 0 && begin < end) tile.row_of[begin] = static_cast<TileRow>(epoch + j);
    }
    if (threadIdx.x == 0)
        tile.first_begin = row_start < segments ? static_cast<long long>(offsets[row_start]) : item_start;
    __syncthreads();
    block_running_max_rows(tile, epoch);

    if constexpr (kStoresOneItem<F>) {
        store_tile_items(f, tile, item_start, row_start, tile_items);
    } else {
        // The items in index order, a block-wide stride apart.
        for (int j = threadIdx.x; j < tile_items; j += kLbsThreads) {
            const int r = tile.row_of[j];
            const long long index = item_start + j;
            const long long begin = r == 0 ? tile.first_begin : item_start + tile.row_ends[r - 1];
            if constexpr (kHasSegmentValues<SV>)
                f(index, row_start + r, index - begin, tile.values[r]);
            else
                f(index, row_start + r, index - begin);
        }
    }
}

// The block's tiles: kLbsTilesPerBlock consecutive ones from first_tile (fewer at the end).
struct LbsBlockTiles {
    long long first_tile;
    int count;
};

// Every corner of the block's tiles (of `steps` steps each) at once, a warp each (32-way searches
// of the offsets in global memory), into corners[0..count]: the searches' dependent loads are the
// latency of a tile, paid here once for kLbsTilesPerBlock tiles and by all warps in parallel,
// instead of by two warps per tile. Run by the whole block; the corners are ready after a
// __syncthreads().
template <class Offset>
__device__ LbsBlockTiles lbs_block_corners(const Offset *offsets, long long segments, long long n, int steps,
                                           long long (&corners)[kLbsTilesPerBlock + 1]) {
    const long long path_length = segments + n;
    const long long tiles = (path_length + steps - 1) / steps;
    const long long first_tile = static_cast<long long>(blockIdx.x) * kLbsTilesPerBlock;
    const int count = static_cast<int>(tiles - first_tile < kLbsTilesPerBlock ? tiles - first_tile : kLbsTilesPerBlock);
    const int warp = static_cast<int>(threadIdx.x / kWarpThreads), warps = static_cast<int>(blockDim.x / kWarpThreads);
    const unsigned lane = threadIdx.x % kWarpThreads;
    for (int c = warp; c <= count; c += warps) {
        const long long diagonal = (first_tile + c) * steps;
        const long long found =
            warp_merge_path_search(diagonal < path_length ? diagonal : path_length, offsets, segments, n, lane);
        if (lane == 0) corners[c] = found;
    }
    return {first_tile, count};
}

template <int MinBlocks, class Offset, class SV, class F>
__global__ void __launch_bounds__(kLbsThreads, resident_blocks(kLbsThreads, MinBlocks))
    transform_lbs_kernel(const Offset *offsets, long long segments, long long n, SV segment_values, F f) {
    using T = typename SV::value_type;
    constexpr int kItems = lbs_items_per_thread<T>();
    using Storage = LbsTileStorage<T, kItems>;
    __shared__ Storage tile;
    __shared__ long long block_corners[kLbsTilesPerBlock + 1];
    const long long path_length = segments + n;
    const auto [first_tile, block_tiles] = lbs_block_corners(offsets, segments, n, Storage::kSteps, block_corners);
    clear_tile_rows(tile);
    __syncthreads();
    for (int t = 0; t < block_tiles; ++t) {
        if (threadIdx.x < 2) tile.corners[threadIdx.x] = block_corners[t + threadIdx.x];
        __syncthreads();
        lbs_tile(offsets, segments, (first_tile + t) * Storage::kSteps, path_length, t, segment_values, f, tile);
        __syncthreads();  // the next tile overwrites the staging
    }
}

// ---- the functors of the library's other transforms ----

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
