#pragma once
// The merge family's kernels. Merge and sorted search share one tile: block b takes diagonals
// [b * T, (b + 1) * T) of the merge path of its two inputs (T = threads * items per thread),
// finds where they cross the path with two warp-wide searches in global memory, stages the ranges
// of a and b between them in shared memory (coalesced loads), and each thread merges `Items`
// consecutive steps serially from its own crossing, searched in shared memory. Every tile has the
// same number of steps, however the keys interleave. No temporary storage, one launch.
#include <stream_compaction/detail/merge/merge_path.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

__host__ __device__ constexpr std::size_t align_up(std::size_t bytes, std::size_t alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

// A tile's staging: its keys (a's range, then b's), then `Second` per item (merge: where each
// merged key came from; sorted search: each needle's bound).
template <class K, class Second>
__host__ __device__ constexpr std::size_t staging_second_offset(int tile_items) {
    return align_up(static_cast<std::size_t>(tile_items) * sizeof(K), alignof(Second));
}
template <class K, class Second>
__host__ __device__ constexpr std::size_t staging_bytes(int tile_items) {
    return staging_second_offset<K, Second>(tile_items) + static_cast<std::size_t>(tile_items) * sizeof(Second);
}

// The steps of the path a tile covers: output positions [start, start + count), of which a_count
// come from a[a_start, ...) and the others from b[b_start, ...).
struct MergeTile {
    long long start, a_start, b_start;
    int a_count, count;
};

// This block's tile. Run by the whole block; ends with a __syncthreads. The end corner is clamped
// so that both ranges lie inside their arrays: for sorted inputs the clamp never acts; for
// unsorted ones (a broken contract) the output is unspecified but nothing is read or written out
// of bounds.
template <Bound Ties, int TileItems, class K, class Less>
__device__ __forceinline__ MergeTile find_tile(const K *a, long long na, const K *b, long long nb, Less less,
                                               long long *corners) {
    const long long start = static_cast<long long>(blockIdx.x) * TileItems;
    const long long end = start + TileItems < na + nb ? start + TileItems : na + nb;
    block_merge_corners<Ties>(start, end, a, na, b, nb, less, corners);
    __syncthreads();
    MergeTile tile;
    tile.start = start;
    tile.count = static_cast<int>(end - start);
    tile.a_start = corners[0];  // in [max(0, start - nb), min(start, na)] by the search's bounds
    tile.b_start = start - tile.a_start;
    const long long low = tile.a_start > end - nb ? tile.a_start : end - nb;
    const long long high = na < tile.a_start + tile.count ? na : tile.a_start + tile.count;
    const long long a_end = corners[1] < low ? low : corners[1] > high ? high : corners[1];
    tile.a_count = static_cast<int>(a_end - tile.a_start);
    return tile;
}

// Stages the tile's keys: a's range at staged[0, a_count), b's after it. All of a thread's loads
// are issued before its first store, so that they are in flight together.
template <int Threads, int Items, class K>
__device__ __forceinline__ void stage_tile(const MergeTile &tile, const K *a, const K *b, K *staged) {
    K loaded[Items];
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (i < tile.count) loaded[k] = i < tile.a_count ? a[tile.a_start + i] : b[tile.b_start + (i - tile.a_count)];
    }
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (i < tile.count) staged[i] = loaded[k];
    }
}

// This thread's share of the staged tile: the steps [threadIdx.x * Items, + Items) of its path
// that lie inside the tile. For each, visit(k, from_a, a_index, b_index, key): step k took `key`,
// a's item a_index (from_a) or b's item b_index, the two being the items of a and of b the tile
// had consumed before the step.
template <Bound Ties, int Items, class K, class Less, class Visit>
__device__ __forceinline__ void thread_merge(const K *staged, int a_count, int count, Less less, Visit visit) {
    const int diagonal = static_cast<int>(threadIdx.x) * Items < count ? static_cast<int>(threadIdx.x) * Items : count;
    const K *b = staged + a_count;
    const int b_count = count - a_count;
    int a_index = tile_merge_path<Ties>(staged, a_count, b, b_count, diagonal, less);
    int b_index = diagonal - a_index;
    const int steps = count - diagonal;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        if (k < steps) {
            // a_index + b_index < count, so at least one side has items left.
            const bool a_left = a_index < a_count, b_left = b_index < b_count;
            K x, y;
            if (a_left) x = staged[a_index];
            if (b_left) y = b[b_index];
            const bool from_a = !b_left || (a_left && a_goes_first<Ties>(x, y, less));
            visit(k, from_a, a_index, b_index, from_a ? x : y);
            if (from_a) ++a_index;
            else ++b_index;
        }
    }
}

// Stable merge (ties: a first) of a[0, na) and b[0, nb) into out_keys, and with HasValues the
// values beside them into out_values: each tile's merged keys go back to shared memory in output
// order with where each came from, then out in coalesced rows, each value gathered from a or b by
// that record (runs of consecutive addresses, so the gathers coalesce too).
template <int Threads, int Items, bool HasValues, class K, class V, class Less>
__global__ void __launch_bounds__(Threads)
    merge_kernel(const K *a_keys, const V *a_values, long long na, const K *b_keys, const V *b_values, long long nb,
                 K *out_keys, V *out_values, Less less) {
    constexpr int kTileItems = Threads * Items;
    __shared__ long long corners[2];
    extern __shared__ __align__(16) unsigned char merge_staging[];
    K *staged = reinterpret_cast<K *>(merge_staging);
    int *sources = reinterpret_cast<int *>(merge_staging + staging_second_offset<K, int>(kTileItems));

    const MergeTile tile = find_tile<Bound::Lower, kTileItems>(a_keys, na, b_keys, nb, less, corners);
    stage_tile<Threads, Items>(tile, a_keys, b_keys, staged);
    __syncthreads();
    K merged[Items];
    int source[Items];  // position in the staged tile
    thread_merge<Bound::Lower, Items>(staged, tile.a_count, tile.count, less,
                                      [&](int k, bool from_a, int a_index, int b_index, const K &key) {
                                          merged[k] = key;
                                          source[k] = from_a ? a_index : tile.a_count + b_index;
                                      });
    __syncthreads();  // every thread is done reading the staged keys
    const int first = static_cast<int>(threadIdx.x) * Items;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        if (first + k < tile.count) {
            staged[first + k] = merged[k];
            if constexpr (HasValues) sources[first + k] = source[k];
        }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (i < tile.count) {
            out_keys[tile.start + i] = staged[i];
            if constexpr (HasValues) {
                const int s = sources[i];
                out_values[tile.start + i] =
                    s < tile.a_count ? a_values[tile.a_start + s] : b_values[tile.b_start + (s - tile.a_count)];
            }
        }
    }
}

// out[i] = the bound of needles[i] in haystack[0, n_haystack) (Ties: Lower, the haystack's items
// ordered before it; Upper, those not ordered after it), for sorted needles: the merge of needles
// (a) and haystack (b) with those ties takes needle i after exactly that many haystack items. The
// bounds are collected in shared memory by needle and stored in coalesced rows.
template <int Items, Bound Ties, class K, class Index, class Less>
__global__ void __launch_bounds__(kMergeThreads)
    sorted_search_kernel(const K *needles, long long n_needles, const K *haystack, long long n_haystack, Index *out,
                         Less less) {
    constexpr int kTileItems = kMergeThreads * Items;
    __shared__ long long corners[2];
    extern __shared__ __align__(16) unsigned char search_staging[];
    K *staged = reinterpret_cast<K *>(search_staging);
    Index *bounds = reinterpret_cast<Index *>(search_staging + staging_second_offset<K, Index>(kTileItems));

    const MergeTile tile = find_tile<Ties, kTileItems>(needles, n_needles, haystack, n_haystack, less, corners);
    stage_tile<kMergeThreads, Items>(tile, needles, haystack, staged);
    __syncthreads();
    // Each of the tile's needles is taken by exactly one step of one thread.
    thread_merge<Ties, Items>(staged, tile.a_count, tile.count, less,
                              [&](int, bool from_a, int a_index, int b_index, const K &) {
                                  if (from_a) bounds[a_index] = static_cast<Index>(tile.b_start + b_index);
                              });
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * kMergeThreads;
        if (i < tile.a_count) out[tile.a_start + i] = bounds[i];
    }
}

// Needles in any order: one thread per needle, a binary search of the haystack (thrust's
// vectorized lower_bound and upper_bound).
template <Bound Which, class K, class Index, class Less>
__global__ void __launch_bounds__(kBinarySearchThreads)
    binary_search_kernel(const K *haystack, long long n, const K *needles, long long m, Index *out, Less less) {
    const long long i = static_cast<long long>(blockIdx.x) * kBinarySearchThreads + threadIdx.x;
    if (i >= m) return;
    const K needle = needles[i];
    long long low = 0, high = n;
    while (low < high) {
        const long long pivot = low + ((high - low) >> 1);
        // Lower: past every item ordered before the needle; Upper: past every item not after it.
        const bool past = Which == Bound::Lower ? less(haystack[pivot], needle) : !less(needle, haystack[pivot]);
        if (past) low = pivot + 1;
        else high = pivot;
    }
    out[i] = static_cast<Index>(low);
}

// *unsorted = 1 if some keys[i] is ordered before keys[i - 1] (left as it is otherwise).
template <class K, class Less>
__global__ void find_unsorted_kernel(const K *keys, long long n, Less less, unsigned *unsorted) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = 1 + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        if (less(keys[i], keys[i - 1])) *unsorted = 1u;
}

}  // namespace detail
}  // namespace StreamCompaction
