#pragma once
// The merge sort's kernels: a block sorts each tile of kMergeSortTileThreads * kMergeSortTileItems
// items in shared memory (block_merge_sort of (key, position): equivalent keys keep their input
// order), then rounds merge pairs of sorted runs, each tile of a round one tile of the merge family
// (find_tile, merge_tile: stable, a's keys first of equivalent ones) over the pair it falls in.
#include <stream_compaction/detail/block/block_merge_sort.cuh>
#include <stream_compaction/detail/merge/kernels.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <type_traits>

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
    return merge_slots<MergeSortItem<K>>(kMergeSortTileThreads * kMergeSortTileItems) * sizeof(MergeSortItem<K>);
}

// Block b sorts keys[b * T, (b + 1) * T) (T = kMergeSortTileThreads * kMergeSortTileItems; the
// last tile may be shorter) into keys_out at the same place, and with HasValues moves each value
// with its key. Loaded striped (coalesced) through shared memory, read back blocked for
// block_merge_sort, written striped.
template <bool HasValues, class K, class V, class Less>
__global__ void __launch_bounds__(kMergeSortTileThreads)
    merge_sort_tile_kernel(const K *keys, const V *values, std::size_t n, K *keys_out, V *values_out, Less less) {
    using Item = MergeSortItem<K>;
    constexpr int kThreads = kMergeSortTileThreads, kItems = kMergeSortTileItems;
    constexpr unsigned kTile = kThreads * kItems;
    extern __shared__ __align__(16) unsigned char merge_sort_shared[];
    Item *shared = reinterpret_cast<Item *>(merge_sort_shared);
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
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

// One round: runs of `run` sorted items (the last may be shorter) merged in pairs into runs of
// 2 run. Tile t of the round is tile t % tiles_per_pair of pair t / tiles_per_pair (every pair but
// the last has tiles_per_pair = ceil(2 run / T) tiles of T = Threads * Items output positions).
template <int Threads, int Items, bool HasValues, class K, class V, class Less>
__global__ void __launch_bounds__(Threads)
    merge_sort_round_kernel(const K *keys, const V *values, long long n, K *keys_out, V *values_out, long long run,
                            long long tiles_per_pair, Less less) {
    __shared__ long long corners[2];
    extern __shared__ __align__(16) unsigned char merge_staging[];
    const long long pair = blockIdx.x / tiles_per_pair, tile_index = blockIdx.x % tiles_per_pair;
    const long long start = pair * 2 * run;
    const long long na = n - start < run ? n - start : run;
    const long long nb = n - start - na < run ? n - start - na : run;
    const ArrayMerge<K, V> arrays{keys + start, HasValues ? values + start : values, na, keys + start + na,
                                  HasValues ? values + start + na : values, nb, keys_out + start,
                                  HasValues ? values_out + start : values_out};
    const MergeTile tile = find_tile<Bound::Lower, Threads * Items>(tile_index, arrays.a_keys, na, arrays.b_keys, nb,
                                                                    less, corners);
    merge_tile<Threads, Items, HasValues>(tile, arrays, less, merge_staging);
}

}  // namespace detail
}  // namespace StreamCompaction
