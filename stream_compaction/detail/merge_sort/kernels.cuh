#pragma once
// The merge sort's kernels: a block sorts each tile of kMergeSortTileThreads * kMergeSortTileItems
// items in shared memory (a sort of keys alone, a full tile of them, by stable block_merge_sort;
// with values, or the last tile, of (key, position): equivalent keys keep their input order),
// then rounds merge pairs of sorted runs: a corner pass finds where each tile of the round starts
// in its pair, and each tile is one tile of the merge family (merge_tile: stable, a's keys first of
// equivalent ones) over the pair it falls in.
#include <stream_compaction/detail/block/block_merge_sort.cuh>
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/merge/kernels.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// A key of the tile sort and where in the tile it was; position kMergeSortPadding marks the
// padding after the tile's last key, which orders after every key (no key value need be the
// greatest, so the comparator's keys can be anything).
template <class K>
struct MergeSortItem {
    K key;
    unsigned position;
};
constexpr unsigned kMergeSortPadding = ~0u;

// The user's order on keys, made strict and total on items: equivalent keys by position, so that
// the items are distinct (block_merge_sort's contract) and the sort stable.
template <class Less>
struct MergeSortItemLess {
    Less less;
    template <class K>
    __device__ bool operator()(const MergeSortItem<K> &a, const MergeSortItem<K> &b) const {
        if (a.position == kMergeSortPadding) return false;
        if (b.position == kMergeSortPadding) return true;
        if (less(a.key, b.key)) return true;
        if (less(b.key, a.key)) return false;
        return a.position < b.position;
    }
};

template <class K>
__host__ __device__ constexpr std::size_t merge_sort_tile_shared_bytes() {
    return merge_slots<MergeSortItem<K>>(kMergeSortTileThreads * kMergeSortTileItems<K>) *
           sizeof(MergeSortItem<K>);
}

template <class K>
__host__ __device__ constexpr std::size_t merge_sort_keys_tile_shared_bytes() {
    return merge_slots<K>(kMergeSortTileThreads * kMergeSortTileItems<K>) * sizeof(K);
}

// Block b sorts keys[(first_tile + b) * T, + T) (T = kMergeSortTileThreads * kMergeSortTileItems;
// the last tile may be shorter) into keys_out at the same place, as (key, position) items, and
// with HasValues moves each value with its key. Loaded striped (coalesced) through shared memory,
// read back blocked for block_merge_sort, written striped.
template <bool HasValues, class K, class V, class Less>
__global__ void __launch_bounds__(kMergeSortTileThreads)
    merge_sort_tile_kernel(const K *keys, const V *values, std::size_t n, K *keys_out, V *values_out, Less less,
                           std::size_t first_tile) {
    using Item = MergeSortItem<K>;
    constexpr int kThreads = kMergeSortTileThreads, kItems = kMergeSortTileItems<K>;
    constexpr unsigned kTile = kThreads * kItems;
    extern __shared__ __align__(16) unsigned char merge_sort_shared[];
    Item *shared = reinterpret_cast<Item *>(merge_sort_shared);
    const std::size_t base = (first_tile + blockIdx.x) * kTile;
    const unsigned count = static_cast<unsigned>(n - base < kTile ? n - base : kTile);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned j = k * kThreads + threadIdx.x;
        Item item{};
        item.position = kMergeSortPadding;
        if (j < count) item = Item{keys[base + j], j};
        shared[merge_slot<Item>(j)] = item;
    }
    __syncthreads();
    Item items[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) items[k] = shared[merge_slot<Item>(threadIdx.x * kItems + k)];
    block_merge_sort<kThreads>(items, shared, MergeSortItemLess<Less>{less}, count);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned r = k * kThreads + threadIdx.x;
        if (r < count) {
            const Item item = shared[merge_slot<Item>(r)];
            keys_out[base + r] = item.key;
            if constexpr (HasValues) values_out[base + r] = values[base + item.position];
        }
    }
}

// The full tiles of a sort of keys alone: block b sorts keys[b * T, (b + 1) * T) as the keys
// themselves, stably (block_merge_sort's Stable form: a register sort that keeps equivalent keys
// in order, merges that take ties from the earlier run), half the shared memory and comparisons
// of (key, position) items.
template <class K, class Less>
__global__ void __launch_bounds__(kMergeSortTileThreads)
    merge_sort_keys_tile_kernel(const K *keys, K *keys_out, Less less) {
    constexpr int kThreads = kMergeSortTileThreads, kItems = kMergeSortTileItems<K>;
    constexpr unsigned kTile = kThreads * kItems;
    extern __shared__ __align__(16) unsigned char merge_sort_shared[];
    K *shared = reinterpret_cast<K *>(merge_sort_shared);
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
    K loaded[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) loaded[k] = keys[base + k * kThreads + threadIdx.x];
#pragma unroll
    for (int k = 0; k < kItems; ++k) shared[merge_slot<K>(k * kThreads + threadIdx.x)] = loaded[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) loaded[k] = shared[merge_slot<K>(threadIdx.x * kItems + k)];
    block_merge_sort<kThreads, true>(loaded, shared, less, kTile);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned r = k * kThreads + threadIdx.x;
        keys_out[base + r] = shared[merge_slot<K>(r)];
    }
}

// A round's tiles: runs of `run` sorted items (the last may be shorter) merged in pairs into runs
// of 2 run; tile t of the round is tile t % tiles_per_pair of pair t / tiles_per_pair (every pair
// but the last has tiles_per_pair = ceil(2 run / T) tiles of T output positions).
struct MergeSortPair {
    long long start, na, nb, tile_index;
};

__device__ __forceinline__ MergeSortPair merge_sort_pair(long long tile, long long n, long long run,
                                                         long long tiles_per_pair) {
    const long long pair = tile / tiles_per_pair, start = pair * 2 * run;
    const long long na = n - start < run ? n - start : run;
    const long long nb = n - start - na < run ? n - start - na : run;
    return {start, na, nb, tile % tiles_per_pair};
}

// A round's corner pass: corners[t], for each of its `tiles` tiles, is how many items of its pair's
// first run the merge has taken before the tile's first output (a thread's search in global
// memory), so that each tile of the round starts with two loads instead of searches while the
// rest of its block waits.
template <int TileItems, class K, class Less>
__global__ void __launch_bounds__(kMergeSortCornerThreads)
    merge_sort_corners_kernel(const K *keys, long long n, long long run, long long tiles_per_pair, long long tiles,
                              long long *corners, Less less) {
    allow_dependent_launch();
    const long long t = static_cast<long long>(blockIdx.x) * kMergeSortCornerThreads + threadIdx.x;
    if (t >= tiles) return;
    const MergeSortPair pair = merge_sort_pair(t, n, run, tiles_per_pair);
    const K *a = keys + pair.start;
    corners[t] = merge_path_crossing_on_grid<Bound::Lower>(a, pair.na, a + pair.na, pair.nb,
                                                           pair.tile_index * TileItems, less);
}

// A round's tile: block t merges tile t of its pair (the merge family's merge_tile: stable, a's
// keys first of equivalent ones) once the corner pass has ended; its last corner is the next
// tile's first, or all of a for a pair's last tile.
template <int Threads, int Items, bool HasValues, class K, class V, class Less>
__global__ void __launch_bounds__(Threads)
    merge_sort_round_kernel(const K *keys, const V *values, long long n, K *keys_out, V *values_out, long long run,
                            long long tiles_per_pair, const long long *corners, Less less) {
    extern __shared__ __align__(16) unsigned char merge_staging[];
    constexpr long long kTile = static_cast<long long>(Threads) * Items;
    wait_for_prior_grid();
    const MergeSortPair pair = merge_sort_pair(blockIdx.x, n, run, tiles_per_pair);
    const long long first = pair.tile_index * kTile, total = pair.na + pair.nb;
    const long long last = first + kTile < total ? first + kTile : total;
    const long long a_last = last == total ? pair.na : corners[blockIdx.x + 1];
    const ArrayMerge<K, V> arrays{keys + pair.start,     HasValues ? values + pair.start : values,
                                  pair.na,               keys + pair.start + pair.na,
                                  HasValues ? values + pair.start + pair.na : values,
                                  pair.nb,               keys_out + pair.start,
                                  HasValues ? values_out + pair.start : values_out};
    const MergeTile tile = clamped_tile(first, last, corners[blockIdx.x], a_last, pair.na, pair.nb);
    merge_tile<Threads, Items, HasValues>(tile, arrays, less, merge_staging);
}

}  // namespace detail
}  // namespace StreamCompaction
