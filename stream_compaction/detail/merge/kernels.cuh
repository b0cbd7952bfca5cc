#pragma once
// The merge family's kernels. Merge and sorted search share one tile: block b takes diagonals
// [b * T, (b + 1) * T) of the merge path of its two inputs (T = threads * items per thread),
// finds where they cross the path (two warp-wide searches in global memory, or for a merge of many
// tiles a corner pass before it), stages the ranges of a and b between them in shared memory
// (coalesced loads), and each thread merges `Items` consecutive steps serially from its own
// crossing, searched in shared memory. Every tile has the same number of steps, however the keys
// interleave. No temporary storage. Inputs are pointers or any random-access iterators the device
// can read, outputs pointers or any random-access output iterators (issue #43); arrays of the
// staged types keep the loads from one base chosen per item, and the corner pass needs its
// output keys to be an array of the key type (it keeps the corners there).
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

// The tile of output positions [start, end) from its corners (the items of a consumed before
// them), clamped so that both ranges lie inside their arrays: for sorted inputs the clamps never
// act; for unsorted ones (a broken contract) the output is unspecified but nothing is read or
// written out of bounds.
__device__ __forceinline__ MergeTile clamped_tile(long long start, long long end, long long a_first, long long a_last,
                                                  long long na, long long nb) {
    MergeTile tile;
    tile.start = start;
    tile.count = static_cast<int>(end - start);
    const long long first_low = start - nb > 0 ? start - nb : 0;
    const long long first_high = start < na ? start : na;
    tile.a_start = a_first < first_low ? first_low : a_first > first_high ? first_high : a_first;
    tile.b_start = start - tile.a_start;
    const long long low = tile.a_start > end - nb ? tile.a_start : end - nb;
    const long long high = na < tile.a_start + tile.count ? na : tile.a_start + tile.count;
    const long long a_end = a_last < low ? low : a_last > high ? high : a_last;
    tile.a_count = static_cast<int>(a_end - tile.a_start);
    return tile;
}

// Tile `index`, its corners searched by two warps. Run by the whole block; ends with a
// __syncthreads.
template <Bound Ties, int TileItems, class A, class B, class Less>
__device__ __forceinline__ MergeTile find_tile(long long index, A a, long long na, B b, long long nb, Less less,
                                               long long *corners) {
    const long long start = index * TileItems;
    const long long end = start + TileItems < na + nb ? start + TileItems : na + nb;
    block_merge_corners<Ties>(start, end, a, na, b, nb, less, corners);
    __syncthreads();
    return clamped_tile(start, end, corners[0], corners[1], na, nb);
}

// Stages the tile's keys, as K: a's range at staged[0, a_count), b's after it. All of a thread's
// loads are issued before its first store, so that they are in flight together.
template <int Threads, int Items, class K, class A, class B>
__device__ __forceinline__ void stage_tile(const MergeTile &tile, A a, B b, K *staged) {
    K loaded[Items];
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (i < tile.count)
            loaded[k] = i < tile.a_count ? static_cast<K>(a[tile.a_start + i])
                                         : static_cast<K>(b[tile.b_start + (i - tile.a_count)]);
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
    int a_index = merge_path_crossing<Ties>(staged, a_count, b, b_count, diagonal, less);
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

// ---- merge ----

// The arrays of one merge: a's and b's keys and values (values unused without HasValues) and the
// outputs. Keys are staged and merged as a's key type, values as a's value type.
template <class AKeys, class AValues, class BKeys, class BValues, class OutKeys, class OutValues>
struct MergeArrays {
    using Key = input_value_t<AKeys>;
    using Value = input_value_t<AValues>;
    AKeys a_keys;
    AValues a_values;
    long long na;
    BKeys b_keys;
    BValues b_values;
    long long nb;
    OutKeys out_keys;
    OutValues out_values;
    // Every input an array of the staged type: a tile's loads take one base chosen per item.
    static constexpr bool kInputArrays = std::is_same_v<AKeys, const Key *> && std::is_same_v<BKeys, const Key *> &&
                                         std::is_same_v<AValues, const Value *> &&
                                         std::is_same_v<BValues, const Value *>;
    // The output keys an array of the key type: what a corner pass keeps the tiles' corners in.
    static constexpr bool kKeysOutArray = std::is_same_v<OutKeys, Key *>;
};

// A merge of arrays, the library's own form (pointers in and out).
template <class K, class V>
using ArrayMerge = MergeArrays<const K *, const V *, const K *, const V *, K *, V *>;

// A merge tile's staging: its keys (a's range, then b's) and one slot of padding, then with values
// theirs in the same order.
template <class K, class V, bool HasValues>
__host__ __device__ constexpr std::size_t merge_staging_bytes(int tile_items) {
    return HasValues ? staging_second_offset<K, V>(tile_items + 1) + static_cast<std::size_t>(tile_items) * sizeof(V)
                     : static_cast<std::size_t>(tile_items + 1) * sizeof(K);
}

// Between the corner pass and the merge, a full tile's corners (the items of a consumed before its
// first and before its last step) are kept in the first 16 bytes of its own output keys: only the
// tile itself overwrites them, after a block barrier that follows its read. Byte accesses where
// the output is not 8-byte aligned (a tile's output starts at a multiple of 16 bytes from it).
__device__ __forceinline__ void store_corner(unsigned char *slot, long long value, bool aligned8) {
    if (aligned8) {
        *reinterpret_cast<long long *>(slot) = value;
        return;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) slot[i] = static_cast<unsigned char>(static_cast<unsigned long long>(value) >> (8 * i));
}
__device__ __forceinline__ long long load_corner(const unsigned char *slot, bool aligned8) {
    if (aligned8) return *reinterpret_cast<const long long *>(slot);
    unsigned long long value = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i) value |= static_cast<unsigned long long>(slot[i]) << (8 * i);
    return static_cast<long long>(value);
}

// Full tile `index`, from the corners the corner pass kept in its output.
template <int TileItems, class K>
__device__ __forceinline__ MergeTile planned_tile(long long index, long long na, long long nb, const K *out_keys) {
    const long long start = index * TileItems;
    const unsigned char *slot = reinterpret_cast<const unsigned char *>(out_keys + start);
    const bool aligned8 = reinterpret_cast<std::uintptr_t>(out_keys) % 8 == 0;
    return clamped_tile(start, start + TileItems, load_corner(slot, aligned8), load_corner(slot + 8, aligned8), na, nb);
}

// The address of item `index` of `array` (index may be negative) as an integer, and item i from
// such an address: address arithmetic without forming a pointer outside the array.
template <class T>
__device__ __forceinline__ std::uintptr_t item_address(const T *array, long long index) {
    return reinterpret_cast<std::uintptr_t>(array) + static_cast<std::uintptr_t>(index) * sizeof(T);
}
template <class T>
__device__ __forceinline__ const T *item_at(std::uintptr_t base, int i) {
    return reinterpret_cast<const T *>(base + static_cast<std::uintptr_t>(i) * sizeof(T));
}

// Stages the tile's keys (and values) in index order, a's range first: all of a thread's loads are
// issued before its first store, so that they are in flight together.
template <int Threads, int Items, bool HasValues, class Arrays, class K, class V>
__device__ __forceinline__ void stage_merge_tile(const MergeTile &tile, const Arrays &arrays, K *keys, V *values) {
    const bool full = tile.count == Threads * Items;
    // Item i of the tile is a's (tile.a_start + i) or b's (tile.b_start + i - a_count). From arrays:
    // one load from a chosen base plus i, not two predicated loads. b's base is moved back by a_count
    // items as an address (integer arithmetic: a pointer before the array would be undefined), so
    // that either base takes i alone; every address loaded is in its array. From other iterators:
    // the chosen side's item.
    std::uintptr_t a = 0, b = 0, av = 0, bv = 0;
    if constexpr (Arrays::kInputArrays) {
        a = item_address(arrays.a_keys, tile.a_start);
        b = item_address(arrays.b_keys, tile.b_start - tile.a_count);
        if constexpr (HasValues) {
            av = item_address(arrays.a_values, tile.a_start);
            bv = item_address(arrays.b_values, tile.b_start - tile.a_count);
        }
    }
    K loaded[Items];
    V loaded_values[Items];
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (full || i < tile.count) {
            const bool from_a = i < tile.a_count;
            if constexpr (Arrays::kInputArrays) {
                loaded[k] = *item_at<K>(from_a ? a : b, i);
                if constexpr (HasValues) loaded_values[k] = *item_at<V>(from_a ? av : bv, i);
            } else {
                const long long a_item = tile.a_start + i, b_item = tile.b_start + (i - tile.a_count);
                loaded[k] = from_a ? static_cast<K>(arrays.a_keys[a_item]) : static_cast<K>(arrays.b_keys[b_item]);
                if constexpr (HasValues)
                    loaded_values[k] =
                        from_a ? static_cast<V>(arrays.a_values[a_item]) : static_cast<V>(arrays.b_values[b_item]);
            }
        }
    }
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = static_cast<int>(threadIdx.x) + k * Threads;
        if (full || i < tile.count) {
            keys[i] = loaded[k];
            if constexpr (HasValues) values[i] = loaded_values[k];
        }
    }
}

// This thread's steps [threadIdx.x * Items, + Items) of the staged tile's path (those inside the
// tile: `steps`), stable (a's key first of equivalent ones): merged[k] is the key step k took and
// source[k] its slot in the staging. The two candidate keys stay in registers, so that each step
// reads one key, the successor of the one it took. keys[count] is padding: read, never used.
template <int Items, class K, class Less>
__device__ __forceinline__ int serial_merge(const K *keys, int a_count, int count, bool full, Less less,
                                            K (&merged)[Items], int (&source)[Items]) {
    const int diagonal = static_cast<int>(threadIdx.x) * Items < count ? static_cast<int>(threadIdx.x) * Items : count;
    int a_pos = merge_path_crossing<Bound::Lower>(keys, a_count, keys + a_count, count - a_count, diagonal, less);
    int b_pos = a_count + diagonal - a_pos;
    K a_key = keys[a_pos], b_key = keys[b_pos];
    const int steps = count - diagonal;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        if (full || k < steps) {
            const bool take_b = b_pos < count && (a_pos >= a_count || less(b_key, a_key));
            merged[k] = take_b ? b_key : a_key;
            source[k] = take_b ? b_pos : a_pos;
            a_pos += take_b ? 0 : 1;
            b_pos += take_b ? 1 : 0;
            const K next = keys[take_b ? b_pos : a_pos];
            if (take_b) b_key = next;
            else a_key = next;
        }
    }
    return steps;
}

// Each warp's runs are the slots [warp * 32 * Items, + 32 * Items) of the tile: the warp writes its
// items there (its `steps` first ones each) and stores them in rows of 32 consecutive ones
// (coalesced), with no block barrier. The staging must be free (after a block barrier). `out`: the
// tile's first output, a pointer or any random-access output iterator.
template <int Items, class T, class Out>
__device__ __forceinline__ void store_warp_runs(T *staged, const T (&run)[Items], int steps, int count, bool full,
                                                Out out) {
    const int first = static_cast<int>(threadIdx.x) * Items;
#pragma unroll
    for (int k = 0; k < Items; ++k)
        if (full || k < steps) staged[first + k] = run[k];
    __syncwarp();
    const int warp_first = static_cast<int>(threadIdx.x / kWarpThreads) * kWarpThreads * Items;
    const int lane = static_cast<int>(threadIdx.x % kWarpThreads);
#pragma unroll
    for (int k = 0; k < Items; ++k) {
        const int i = warp_first + lane + k * kWarpThreads;
        if (full || i < count) out[i] = staged[i];
    }
}

// The merge of one tile (ties: a first) into out_keys, and with HasValues the values beside them
// into out_values: its keys and values are staged together; each thread merges its run of keys
// serially; each warp then stores its runs' keys and the values they carried (two block barriers a
// tile). Run by the whole block; `staging` holds merge_staging_bytes.
template <int Threads, int Items, bool HasValues, class Arrays, class Less>
__device__ __forceinline__ void merge_tile(const MergeTile &tile, const Arrays &arrays, Less less,
                                           unsigned char *staging) {
    using K = typename Arrays::Key;
    using V = typename Arrays::Value;
    K *keys = reinterpret_cast<K *>(staging);
    V *values = reinterpret_cast<V *>(staging + staging_second_offset<K, V>(Threads * Items + 1));
    stage_merge_tile<Threads, Items, HasValues>(tile, arrays, keys, values);
    __syncthreads();  // also orders every read of the tile's planned corners before the stores over them
    // A full tile's runs all lie inside it: `full` lets the compiler drop every bounds test there.
    const bool full = tile.count == Threads * Items;
    K merged[Items];
    int source[Items];
    const int steps = serial_merge<Items>(keys, tile.a_count, tile.count, full, less, merged, source);
    V merged_values[Items];
    if constexpr (HasValues) {
#pragma unroll
        for (int k = 0; k < Items; ++k)
            if (full || k < steps) merged_values[k] = values[source[k]];
    }
    __syncthreads();  // every thread is done reading the staging
    store_warp_runs<Items>(keys, merged, steps, tile.count, full, arrays.out_keys + tile.start);
    if constexpr (HasValues)
        store_warp_runs<Items>(values, merged_values, steps, tile.count, full, arrays.out_values + tile.start);
}

// Stable merge of a[0, na) and b[0, nb): block b merges tile b, its corners searched by two warps.
// For inputs of a few waves of tiles (below, many tiles take a corner pass first).
template <int Threads, int Items, bool HasValues, class Arrays, class Less>
__global__ void __launch_bounds__(Threads) merge_kernel(Arrays arrays, Less less) {
    __shared__ long long corners[2];
    extern __shared__ __align__(16) unsigned char merge_staging[];
    const MergeTile tile = find_tile<Bound::Lower, Threads * Items>(blockIdx.x, arrays.a_keys, arrays.na,
                                                                    arrays.b_keys, arrays.nb, less, corners);
    merge_tile<Threads, Items, HasValues>(tile, arrays, less, merge_staging);
}

// The corner pass of a merge of `tiles` tiles: boundary k (diagonal k * T) searched by thread k,
// kept as tile k's first corner and tile k - 1's last, for the tiles before the last; the grid's
// last block merges the last tile (which may be too short for the slots), its corners searched
// there, so that merge_planned_kernel takes only full tiles with corners ready, and no searches'
// registers (31 for int keys, against 48 with them). merge_planned_kernel, launched as its
// dependent, may start its blocks from this kernel's start on: they wait for its end before they
// read a corner. Output keys: an array of the key type.
template <int Threads, int Items, bool HasValues, class Arrays, class Less>
__global__ void __launch_bounds__(Threads) merge_corner_pass_kernel(Arrays arrays, Less less, long long tiles) {
    static_assert(Arrays::kKeysOutArray, "the corners are kept in an array of output keys");
    allow_dependent_launch();
    constexpr int kTileItems = Threads * Items;
    if (blockIdx.x + 1 == gridDim.x) {
        __shared__ long long corners[2];
        extern __shared__ __align__(16) unsigned char merge_staging[];
        const MergeTile tile = find_tile<Bound::Lower, kTileItems>(tiles - 1, arrays.a_keys, arrays.na, arrays.b_keys,
                                                                   arrays.nb, less, corners);
        merge_tile<Threads, Items, HasValues>(tile, arrays, less, merge_staging);
        return;
    }
    const long long boundary = static_cast<long long>(blockIdx.x) * Threads + threadIdx.x;
    if (boundary >= tiles) return;
    const long long crossing = merge_path_crossing_on_grid<Bound::Lower>(arrays.a_keys, arrays.na, arrays.b_keys,
                                                                         arrays.nb, boundary * kTileItems, less);
    constexpr std::size_t kTileBytes = static_cast<std::size_t>(kTileItems) * sizeof(typename Arrays::Key);
    unsigned char *out = reinterpret_cast<unsigned char *>(arrays.out_keys);
    const bool aligned8 = reinterpret_cast<std::uintptr_t>(out) % 8 == 0;
    if (boundary < tiles - 1) store_corner(out + boundary * kTileBytes, crossing, aligned8);
    if (boundary > 0) store_corner(out + (boundary - 1) * kTileBytes + 8, crossing, aligned8);
}

// The full tiles of a merge after its corner pass: block b merges tile b, once the pass has ended.
template <int Threads, int Items, bool HasValues, class Arrays, class Less>
__global__ void __launch_bounds__(Threads) merge_planned_kernel(Arrays arrays, Less less) {
    static_assert(Arrays::kKeysOutArray, "the corners are kept in an array of output keys");
    extern __shared__ __align__(16) unsigned char merge_staging[];
    wait_for_prior_grid();
    const MergeTile tile = planned_tile<Threads * Items>(blockIdx.x, arrays.na, arrays.nb, arrays.out_keys);
    merge_tile<Threads, Items, HasValues>(tile, arrays, less, merge_staging);
}

// out[i] = the bound of needles[i] in haystack[0, n_haystack) (Ties: Lower, the haystack's items
// ordered before it; Upper, those not ordered after it), for sorted needles: the merge of needles
// (a) and haystack (b) with those ties takes needle i after exactly that many haystack items. The
// bounds are collected in shared memory by needle, as Index, and stored in coalesced rows. Keys
// staged as K.
template <int Items, Bound Ties, class K, class Index, class Needles, class Haystack, class Out, class Less>
__global__ void __launch_bounds__(kMergeThreads)
    sorted_search_kernel(Needles needles, long long n_needles, Haystack haystack, long long n_haystack, Out out,
                         Less less) {
    constexpr int kTileItems = kMergeThreads * Items;
    __shared__ long long corners[2];
    extern __shared__ __align__(16) unsigned char search_staging[];
    K *staged = reinterpret_cast<K *>(search_staging);
    Index *bounds = reinterpret_cast<Index *>(search_staging + staging_second_offset<K, Index>(kTileItems));

    const MergeTile tile = find_tile<Ties, kTileItems>(blockIdx.x, needles, n_needles, haystack, n_haystack, less, corners);
    stage_tile<kMergeThreads, Items, K>(tile, needles, haystack, staged);
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
// vectorized lower_bound and upper_bound). Each needle read once, as K.
template <Bound Which, class K, class Index, class Haystack, class Needles, class Out, class Less>
__global__ void __launch_bounds__(kBinarySearchThreads)
    binary_search_kernel(Haystack haystack, long long n, Needles needles, long long m, Out out, Less less) {
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
