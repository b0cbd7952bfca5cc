#pragma once
// The segmented sort's kernels, by segment size (dispatch.cuh launches them in this order):
//   classify: one pass over the offsets. For each block of the short pass, the first segment that
//     starts in its kShort items; each long segment (more than kShort items) cut into chunks of
//     kTile items, listed in any order, and the merge levels the longest needs.
//   tiny: a block whose short segments (those that start in its kShort items) are all at most
//     kTinyLongest items places each item by counting the items of its segment that sort before
//     it (ties by position: stable), in shared memory, and marks its window done; the others are
//     the short pass's.
//   short: a block sorts the short segments that start in its kShort items, at most
//     kTile - 1 items together (every one short), in one shared-memory merge sort of
//     (segment start, key, position): one read and one write of each item. The merge rounds stop
//     at runs as long as the tile's longest segment, which then lies in at most two runs; one
//     more merge, over the positions of the segments that cross runs, finishes (merge_segment_pieces).
//   chunks: a block sorts each listed chunk of a long segment the same way.
//   merge level l: runs of kTile << l items of each long segment that needs it merged pairwise,
//     one output tile of kTile items per listed chunk (ties to the left run: stable).
// A long segment's items move between the output and the alternate buffer, starting in the one
// that makes its last level (or its chunk sort, where it needs none) write the output.
#include <stream_compaction/detail/block/block_merge_sort.cuh>
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/radix_sort/kernels.cuh>
#include <stream_compaction/detail/util/shared_storage.cuh>
#include <stream_compaction/support/device_api.h>

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// A tile's shape by the key's width: 4096 items of keys up to 4 bytes, 2048 of 8-byte keys (the
// short pass's sort items are 8 and 16 bytes: 32 KiB of shared memory either way).
template <class Key>
struct SegmentedSortTile {
    static constexpr int kThreads = 256;
    static constexpr int kItems = sizeof(Key) <= 4 ? 16 : 8;
    static constexpr unsigned kTile = kThreads * kItems;
    // Segments up to kShort items are short. A short-pass block owns those that start in its kShort
    // items: they end before its start plus 2 * kShort = kTile.
    static constexpr unsigned kShort = kTile / 2;
    static_assert((kShort & (kShort - 1)) == 0, "classify finds a short-pass window by a shift");
    // Blocks an SM keeps resident in the tile sorts (registers capped to fit): 3 of 8-byte items
    // (the shared memory allows 5), 2 of 16-byte ones (uncapped, 8-byte keys' took 145 registers).
    static constexpr int kMinBlocks = sizeof(Key) <= 4 ? 3 : 2;
    // A short-pass block whose segments are all at most kTinyLongest items long is the tiny pass's:
    // each item's place counted against the rest of its segment, kTinyLongest steps at most.
    static constexpr unsigned kTinyLongest = 64;
    static constexpr unsigned kTinyCapacity = kShort + kTinyLongest;
};

// Counters the classify kernel writes (zeroed before it).
enum SegmentedSortCounter : int { kLongChunks = 0, kMergeLevels = 1, kSegmentedSortCounters = 2 };

__host__ __device__ inline std::size_t smaller(std::size_t a, std::size_t b) { return a < b ? a : b; }

__host__ __device__ inline unsigned ceil_log2(unsigned x) {
    unsigned levels = 0;
    while ((1u << levels) < x) ++levels;
    return levels;
}

// A short-pass sort item: the item's segment start and position in the tile (each below 2^12)
// around its key's ordered bits; distinct by position, ordered by (segment, key, position).
constexpr int kTilePositionBits = 12;
constexpr unsigned kTilePositionMask = (1u << kTilePositionBits) - 1;

template <class Bits, bool Wide = (sizeof(Bits) > 4)>
struct TileItem {  // keys up to 4 bytes: one 64-bit word, segment start | bits | position
    unsigned long long word;
    __device__ static TileItem make(unsigned segment_start, Bits bits, unsigned position) {
        return {(static_cast<unsigned long long>(segment_start) << (32 + kTilePositionBits)) |
                (static_cast<unsigned long long>(bits) << kTilePositionBits) | position};
    }
    __device__ static TileItem none() { return {~0ull}; }  // after every item (starts are below 2^12 - 1)
    __device__ unsigned position() const { return static_cast<unsigned>(word) & kTilePositionMask; }
    __device__ bool operator<(const TileItem &other) const { return word < other.word; }
};

template <class Bits>
struct TileItem<Bits, true> {  // 8-byte keys: the bits, and a tag of segment start | position
    Bits bits;
    unsigned tag;
    __device__ static TileItem make(unsigned segment_start, Bits key_bits, unsigned position) {
        return {key_bits, (segment_start << kTilePositionBits) | position};
    }
    __device__ static TileItem none() { return {static_cast<Bits>(~Bits{0}), ~0u}; }
    __device__ unsigned position() const { return tag & kTilePositionMask; }
    __device__ bool operator<(const TileItem &other) const {
        const unsigned segment = tag >> kTilePositionBits, other_segment = other.tag >> kTilePositionBits;
        if (segment != other_segment) return segment < other_segment;
        if (bits != other.bits) return bits < other.bits;
        return position() < other.position();
    }
};

struct ItemLess {
    template <class T>
    __device__ bool operator()(const T &a, const T &b) const {
        return a < b;
    }
};

// Keys compared in the radix sort's order (-0.0 equal to +0.0).
template <class Key>
struct KeyLess {
    __device__ bool operator()(Key a, Key b) const { return RadixBits<Key>::ordered(a) < RadixBits<Key>::ordered(b); }
};

// classify (one thread per offset s in [0, segments]): first_segment[b], for b in [0, owner_blocks],
// is the first segment that starts at or after b * short_items (segments if none; short_items =
// 2^short_shift: a shift, where a 64-bit division cost 3x the kernel's memory time); the long
// segments' chunks (chunk_segment, chunk_index: at most chunk_capacity) and the merge levels.
template <class Offset>
__global__ void __launch_bounds__(256)
    segmented_sort_classify(const Offset *offsets, std::size_t segments, unsigned short_shift, unsigned tile_items,
                            unsigned owner_blocks, unsigned *first_segment, unsigned *chunk_segment,
                            unsigned *chunk_index, unsigned chunk_capacity, unsigned *counters) {
    for (std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; s <= segments;
         s += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::size_t start = static_cast<std::size_t>(offsets[s]);
        // The blocks b with offsets[s - 1] < b * short_items <= offsets[s] (clamped: any offsets
        // keep the writes inside the array).
        const std::size_t lo = s == 0 ? 0 : (static_cast<std::size_t>(offsets[s - 1]) >> short_shift) + 1;
        const std::size_t hi = s == segments ? owner_blocks : smaller(start >> short_shift, owner_blocks);
        for (std::size_t b = lo; b <= hi; ++b) first_segment[b] = static_cast<unsigned>(s);
        if (s == segments) continue;
        const std::size_t end = static_cast<std::size_t>(offsets[s + 1]), length = end > start ? end - start : 0;
        if (length <= (std::size_t{1} << short_shift)) continue;
        const unsigned chunks = static_cast<unsigned>((length + tile_items - 1) / tile_items);
        const unsigned base = atomicAdd(&counters[kLongChunks], chunks);
        for (unsigned k = 0; k < chunks && base + k < chunk_capacity; ++k) {
            chunk_segment[base + k] = static_cast<unsigned>(s);
            chunk_index[base + k] = k;
        }
        atomicMax(&counters[kMergeLevels], ceil_log2(chunks));
    }
}

// Where the items of the sort, and their values, are read and written.
template <class Key, class Value>
struct SegmentedSortBuffers {
    const Key *keys_in;
    Key *keys_out, *keys_alternate;
    const Value *values_in;
    Value *values_out, *values_alternate;
};

// The shared memory of the tile sorts (short and chunks).
template <class Key>
struct TileSortStorage {
    using Tile = SegmentedSortTile<Key>;
    using Item = TileItem<radix_bits_t<Key>>;
    Item items[merge_slots<Item>(Tile::kTile)];
    unsigned short segment_start[Tile::kTile];  // the short pass's: each position's segment start
    unsigned warp_max[Tile::kThreads / 32];
    unsigned longest;  // the short pass's: the tile's longest segment
};

// After block_merge_sort stopped at sorted runs of `run` items, every segment of the tile in at
// most two of them (none longer than run + 1): a segment that crosses from one run into the next
// is the merge of the two runs, over its positions (items of other segments sort before or after
// it). A thread's ITEMS positions, in one run, may hold the end of a segment that began in the run
// before and the start of one that goes on in the next: it merges each pair of runs at its
// positions and keeps the outputs that fall in that segment. A segment keeps its positions, so
// storage.segment_start still says each position's segment. Called by every thread.
template <class Key>
__device__ void merge_segment_pieces(typename TileSortStorage<Key>::Item (&items)[SegmentedSortTile<Key>::kItems],
                                     unsigned run, unsigned count, TileSortStorage<Key> &storage) {
    using Tile = SegmentedSortTile<Key>;
    using Item = typename TileSortStorage<Key>::Item;
    const unsigned first = threadIdx.x * Tile::kItems, own = first / run * run, next = own + run;
    // Replaces items[k] by output first + k of the merge of runs [base, base + run) and
    // [base + run, base + 2 run) where position first + k is in `segment`.
    const auto merge_at = [&](unsigned base, unsigned segment) {
        const auto read_a = [&](unsigned i) { return storage.items[merge_slot<Item>(base + i)]; };
        const auto read_b = [&](unsigned i) { return storage.items[merge_slot<Item>(base + run + i)]; };
        const unsigned diagonal = first - base;
        const unsigned split = merge_path_split<Item>(read_a, read_b, run, run, diagonal, ItemLess{});
        Item merged[Tile::kItems];
        unsigned source[Tile::kItems];
        merge_serial(read_a, read_b, split, run, diagonal - split, run, merged, source, ItemLess{});
#pragma unroll
        for (int k = 0; k < Tile::kItems; ++k)
            if (first + k < count && storage.segment_start[first + k] == segment) items[k] = merged[k];
    };
    const bool busy = first < count;
    bool moved = false;
    if (busy) {
        const unsigned head = storage.segment_start[first];
        if (head < own) {  // the segment at this thread's first position began in the run before
            merge_at(own - run, head);
            moved = true;
        }
        const unsigned tail = storage.segment_start[min(first + Tile::kItems, count) - 1];
        if (next < count && storage.segment_start[next] == tail) {  // the one at its last goes on
            merge_at(own, tail);
            moved = true;
        }
    }
    __syncthreads();
    if (moved) {
#pragma unroll
        for (int k = 0; k < Tile::kItems; ++k) storage.items[merge_slot<Item>(first + k)] = items[k];
    }
    __syncthreads();
}

// Sorts `count` (at most kTile) items at keys[begin, begin + count) whose segment starts are
// storage.segment_start, none longer than `longest` (when `one_segment`, all 0 and count long),
// and writes them, and their values, from `begin` of keys_out and values_out. Called by every
// thread of the block; storage is free again when it returns.
template <bool Pairs, class Key, class Value>
__device__ void sort_tile(const Key *keys_in, Key *keys_out, const Value *values_in, Value *values_out,
                          std::size_t begin, unsigned count, bool one_segment, unsigned longest,
                          TileSortStorage<Key> &storage) {
    using Tile = SegmentedSortTile<Key>;
    using Item = typename TileSortStorage<Key>::Item;
    // Loaded striped (coalesced) through shared memory, padding from count on, and read back in
    // the blocked order of the merge sort: thread t holds positions t * kItems + k.
#pragma unroll
    for (int k = 0; k < Tile::kItems; ++k) {
        const unsigned j = k * Tile::kThreads + threadIdx.x;
        storage.items[merge_slot<Item>(j)] = j < count ? Item::make(one_segment ? 0u : storage.segment_start[j],
                                                                    RadixBits<Key>::ordered(keys_in[begin + j]), j)
                                                       : Item::none();
    }
    __syncthreads();
    Item items[Tile::kItems];
#pragma unroll
    for (int k = 0; k < Tile::kItems; ++k) items[k] = storage.items[merge_slot<Item>(threadIdx.x * Tile::kItems + k)];
    // Runs of longest - 1 items leave every segment in at most two (one segment: the whole tile).
    const unsigned min_run = one_segment ? Tile::kTile : (longest > 1 ? longest - 1 : 1);
    const unsigned run = block_merge_sort<Tile::kThreads>(items, storage.items, ItemLess{}, count, min_run);
    if (run < Tile::kTile) merge_segment_pieces(items, run, count, storage);
#pragma unroll
    for (int k = 0; k < Tile::kItems; ++k) {
        const unsigned r = k * Tile::kThreads + threadIdx.x;
        if (r < count) {
            const unsigned from = storage.items[merge_slot<Item>(r)].position();
            keys_out[begin + r] = keys_in[begin + from];
            if (Pairs) values_out[begin + r] = values_in[begin + from];
        }
    }
    __syncthreads();
}

// Writes each position's segment start (relative to the tile) into storage.segment_start, for
// `count` items from `begin` holding the segments [first, last) (in order, the first starting at
// begin): a max scan of the segments' heads. Returns the longest segment's length (of its items
// in the tile). Called by every thread of the block.
template <class Key, class Offset>
__device__ unsigned mark_segment_starts(const Offset *offsets, std::size_t first, std::size_t last, std::size_t begin,
                                        unsigned count, TileSortStorage<Key> &storage) {
    using Tile = SegmentedSortTile<Key>;
    const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
    for (unsigned j = t; j < Tile::kTile; j += Tile::kThreads) storage.segment_start[j] = 0;
    if (t == 0) storage.longest = 0;
    __syncthreads();
    unsigned longest = 0;
    for (std::size_t s = first + t; s < last; s += Tile::kThreads) {
        const std::size_t head = static_cast<std::size_t>(offsets[s]) - begin;
        if (head >= count) continue;
        storage.segment_start[head] = 1;
        const std::size_t end = smaller(static_cast<std::size_t>(offsets[s + 1]) - begin, count);
        if (end > head) longest = max(longest, static_cast<unsigned>(end - head));
    }
    if (longest > 0) atomicMax(&storage.longest, longest);
    __syncthreads();
    // Thread t scans positions [t * kItems, (t + 1) * kItems): the greatest head at or before each.
    unsigned heads[Tile::kItems], latest = 0;
#pragma unroll
    for (int k = 0; k < Tile::kItems; ++k) {
        const unsigned j = t * Tile::kItems + k;
        if (storage.segment_start[j]) latest = j;
        heads[k] = latest;
    }
    unsigned before = latest;  // inclusive max scan of the threads' latest heads
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const unsigned other = __shfl_up_sync(~0u, before, d);
        if (lane >= static_cast<unsigned>(d)) before = max(before, other);
    }
    if (lane == 31) storage.warp_max[warp] = before;
    __syncthreads();
    unsigned earlier = __shfl_up_sync(~0u, before, 1);
    if (lane == 0) earlier = 0;
    for (unsigned w = 0; w < warp; ++w) earlier = max(earlier, storage.warp_max[w]);
#pragma unroll
    for (int k = 0; k < Tile::kItems; ++k)
        storage.segment_start[t * Tile::kItems + k] = static_cast<unsigned short>(max(heads[k], earlier));
    __syncthreads();
    return storage.longest;
}

// The tiny pass's shared memory: each position's key, its ordered bits and its segment's
// [start, end) in the tile (start | end << 16), then each output's input position.
template <class Key>
struct TinySortStorage {
    using Tile = SegmentedSortTile<Key>;
    Key keys[Tile::kTinyCapacity];
    radix_bits_t<Key> bits[Tile::kTinyCapacity];
    unsigned range[Tile::kTinyCapacity];
    unsigned short source[Tile::kTinyCapacity];
    unsigned longest;
};

// The window of short-pass block `block`: the items [begin, begin + count) of the segments
// [first, last) that start in its kShort items, a long last segment left to the chunks. count is 0
// where none starts there.
struct ShortWindow {
    std::size_t first, last, begin;
    unsigned count;
};

template <class Key, class Offset>
__device__ __forceinline__ ShortWindow short_window(const Offset *offsets, std::size_t segments,
                                                    const unsigned *first_segment, unsigned block) {
    using Tile = SegmentedSortTile<Key>;
    ShortWindow window{smaller(first_segment[block], segments), smaller(first_segment[block + 1], segments), 0, 0};
    if (window.first >= window.last) return window;  // no segment starts here
    window.begin = static_cast<std::size_t>(offsets[window.first]);
    const std::size_t last_start = static_cast<std::size_t>(offsets[window.last - 1]);
    std::size_t end = static_cast<std::size_t>(offsets[window.last]);
    if (end > last_start + Tile::kShort) end = last_start;  // a long last segment is the chunks' work
    if (end > window.begin) window.count = static_cast<unsigned>(smaller(end - window.begin, Tile::kTile));
    return window;
}

// tiny: block b sorts its window's segments when none is longer than kTinyLongest, and sets
// window_done[b] to whether it did (every block writes its flag, so a replay never sees a stale
// one). Each item's output is its segment's start plus the items of the segment that sort before
// it: smaller keys, and equal keys at earlier positions. Every loop over the tile's positions is
// unrolled (kItems a thread), so that a thread's loads are in flight together.
template <bool Pairs, class Key, class Value, class Offset>
__global__ void __launch_bounds__(SegmentedSortTile<Key>::kThreads)
    segmented_sort_tiny(SegmentedSortBuffers<Key, Value> buffers, const Offset *offsets, std::size_t segments,
                        const unsigned *first_segment, unsigned char *window_done) {
    using Tile = SegmentedSortTile<Key>;
    using Bits = radix_bits_t<Key>;
    constexpr int kItems = static_cast<int>((Tile::kTinyCapacity + Tile::kThreads - 1) / Tile::kThreads);
    TinySortStorage<Key> &storage = shared_storage<TinySortStorage<Key>>();
    const unsigned t = threadIdx.x;
    const ShortWindow window = short_window<Key>(offsets, segments, first_segment, blockIdx.x);
    if (t == 0) storage.longest = 0;
    // The keys' loads go out before the window is known to be tiny (a window that is not loses
    // them: the short pass reads its keys again), so that they overlap the offsets' reads. Valid
    // offsets keep count below kTinyCapacity in a tiny window (its last segment starts in its first
    // kShort items) and give every position one segment's range; the clamps keep bad ones inside.
    const unsigned count = window.count <= Tile::kTinyCapacity ? window.count : 0;
    const Key *keys_in = buffers.keys_in + window.begin;
    Key loaded[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned j = k * Tile::kThreads + t;
        if (j < count) loaded[k] = keys_in[j];
    }
    __syncthreads();
    // One pass over the window's segments: the longest, and each short one's range at its positions.
    unsigned longest = 0;
#pragma unroll 4
    for (std::size_t s = window.first + t; s < window.last && window.count > 0; s += Tile::kThreads) {
        const std::size_t head = static_cast<std::size_t>(offsets[s]) - window.begin;
        const std::size_t end = smaller(static_cast<std::size_t>(offsets[s + 1]) - window.begin, window.count);
        if (end <= head) continue;
        longest = max(longest, static_cast<unsigned>(smaller(end - head, Tile::kTile)));
        if (end - head <= Tile::kTinyLongest && end <= count)
            for (unsigned j = static_cast<unsigned>(head); j < end; ++j)
                storage.range[j] = static_cast<unsigned>(head) | static_cast<unsigned>(end) << 16;
    }
    if (longest > 0) atomicMax(&storage.longest, longest);
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned j = k * Tile::kThreads + t;
        if (j < count) {
            storage.keys[j] = loaded[k];
            storage.bits[j] = RadixBits<Key>::ordered(loaded[k]);
        }
    }
    __syncthreads();
    const bool tiny = storage.longest <= Tile::kTinyLongest && window.count <= Tile::kTinyCapacity;
    if (t == 0) window_done[blockIdx.x] = tiny;
    if (!tiny || count == 0) return;  // the short pass's, or nothing to sort
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned j = k * Tile::kThreads + t;
        if (j < count) {
            const unsigned range = storage.range[j];
            const unsigned start = min(range & 0xffffu, j), end = min(max(range >> 16, j + 1), count);
            const Bits key = storage.bits[j];
            unsigned before = 0;
            for (unsigned i = start; i < end; ++i) {
                const Bits other = storage.bits[i];
                before += other < key || (other == key && i < j);
            }
            storage.source[start + before] = static_cast<unsigned short>(j);
        }
    }
    __syncthreads();
    unsigned from[kItems];
    Value values[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned r = k * Tile::kThreads + t;
        from[k] = r < count ? min(static_cast<unsigned>(storage.source[r]), count - 1) : 0;
        if (Pairs && r < count) values[k] = buffers.values_in[window.begin + from[k]];
    }
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const unsigned r = k * Tile::kThreads + t;
        if (r < count) {
            buffers.keys_out[window.begin + r] = storage.keys[from[k]];
            if (Pairs) buffers.values_out[window.begin + r] = values[k];
        }
    }
}

// short: block b sorts the short segments among [first_segment[b], first_segment[b + 1]), unless
// the tiny pass did.
template <bool Pairs, class Key, class Value, class Offset>
__global__ void __launch_bounds__(SegmentedSortTile<Key>::kThreads, SegmentedSortTile<Key>::kMinBlocks)
    segmented_sort_short(SegmentedSortBuffers<Key, Value> buffers, const Offset *offsets, std::size_t segments,
                         const unsigned *first_segment, const unsigned char *window_done) {
    TileSortStorage<Key> &storage = shared_storage<TileSortStorage<Key>>();
    if (window_done[blockIdx.x]) return;  // the tiny pass's
    const ShortWindow window = short_window<Key>(offsets, segments, first_segment, blockIdx.x);
    if (window.count == 0) return;
    const unsigned longest = mark_segment_starts(offsets, window.first, window.last, window.begin, window.count, storage);
    sort_tile<Pairs>(buffers.keys_in, buffers.keys_out, buffers.values_in, buffers.values_out, window.begin,
                     window.count, false, longest, storage);
}

// A long segment's place: where it starts, how long it is, and the merge levels it needs.
struct LongSegment {
    std::size_t begin, length;
    unsigned levels;
};

template <class Offset>
__device__ __forceinline__ LongSegment long_segment(const Offset *offsets, unsigned s, unsigned tile) {
    const std::size_t begin = static_cast<std::size_t>(offsets[s]), end = static_cast<std::size_t>(offsets[s + 1]);
    const std::size_t length = end > begin ? end - begin : 0;
    return {begin, length, ceil_log2(static_cast<unsigned>((length + tile - 1) / tile))};
}

// chunks: each listed chunk sorted into the buffer its segment's levels start from.
template <bool Pairs, class Key, class Value, class Offset>
__global__ void __launch_bounds__(SegmentedSortTile<Key>::kThreads, SegmentedSortTile<Key>::kMinBlocks)
    segmented_sort_chunks(SegmentedSortBuffers<Key, Value> buffers, const Offset *offsets,
                          const unsigned *chunk_segment, const unsigned *chunk_index, unsigned chunk_capacity,
                          const unsigned *counters) {
    using Tile = SegmentedSortTile<Key>;
    TileSortStorage<Key> &storage = shared_storage<TileSortStorage<Key>>();
    const unsigned chunks = min(counters[kLongChunks], chunk_capacity);
    for (unsigned c = blockIdx.x; c < chunks; c += gridDim.x) {
        const LongSegment segment = long_segment(offsets, chunk_segment[c], Tile::kTile);
        const std::size_t offset = static_cast<std::size_t>(chunk_index[c]) * Tile::kTile;
        if (offset >= segment.length) continue;
        const unsigned count = static_cast<unsigned>(smaller(segment.length - offset, Tile::kTile));
        const bool odd = segment.levels % 2 == 1;
        sort_tile<Pairs>(buffers.keys_in, odd ? buffers.keys_alternate : buffers.keys_out, buffers.values_in,
                         odd ? buffers.values_alternate : buffers.values_out, segment.begin + offset, count, true,
                         count, storage);
    }
}

// The merge path's split of the first `diagonal` items of the merge of a[0, na) and b[0, nb) in
// global memory, found by a warp (every lane returns it): 32 probes a step.
template <class Key>
__device__ unsigned warp_merge_path_split(const Key *a, const Key *b, unsigned na, unsigned nb, unsigned diagonal) {
    const unsigned lane = threadIdx.x % 32;
    unsigned lo = diagonal > nb ? diagonal - nb : 0, hi = diagonal < na ? diagonal : na;
    // The split is lo plus how many m of [lo, hi) have a[m] <= b[diagonal - 1 - m]: true, then false.
    while (lo < hi) {
        const unsigned step = (hi - lo + 31) / 32, m = lo + lane * step;
        const bool before = m < hi && !KeyLess<Key>{}(b[diagonal - 1 - m], a[m]);
        const unsigned trues = __popc(__ballot_sync(~0u, before));
        if (trues == 0) {
            hi = lo;
        } else {
            const unsigned next_hi = lo + trues * step;
            lo += (trues - 1) * step + 1;
            hi = min(hi, next_hi);
        }
    }
    return lo;
}

template <class Key>
struct MergeStorage {
    using Tile = SegmentedSortTile<Key>;
    Key keys[merge_slots<Key>(Tile::kTile)];  // the tile's inputs (a's then b's), then its outputs
    unsigned short source[Tile::kTile];        // each output's input, as an index of `keys`
    unsigned split[2];
};

// merge level `level`: each listed chunk's output tile of the merge of its segment's runs of
// kTile << level items, for the segments that need this level.
template <bool Pairs, class Key, class Value, class Offset>
__global__ void __launch_bounds__(SegmentedSortTile<Key>::kThreads)
    segmented_sort_merge_level(unsigned level, SegmentedSortBuffers<Key, Value> buffers, const Offset *offsets,
                               const unsigned *chunk_segment, const unsigned *chunk_index, unsigned chunk_capacity,
                               const unsigned *counters) {
    using Tile = SegmentedSortTile<Key>;
    wait_for_prior_grid();
    allow_dependent_launch();
    if (level >= counters[kMergeLevels]) return;
    MergeStorage<Key> &storage = shared_storage<MergeStorage<Key>>();
    const unsigned t = threadIdx.x, chunks = min(counters[kLongChunks], chunk_capacity);
    for (unsigned c = blockIdx.x; c < chunks; c += gridDim.x) {
        const LongSegment segment = long_segment(offsets, chunk_segment[c], Tile::kTile);
        if (level >= segment.levels) continue;  // sorted at an earlier level
        const bool from_output = (segment.levels + level) % 2 == 0;
        const Key *src = (from_output ? buffers.keys_out : buffers.keys_alternate) + segment.begin;
        Key *dst = (from_output ? buffers.keys_alternate : buffers.keys_out) + segment.begin;
        const Value *values_src = (from_output ? buffers.values_out : buffers.values_alternate) + segment.begin;
        Value *values_dst = (from_output ? buffers.values_alternate : buffers.values_out) + segment.begin;
        const std::size_t run = static_cast<std::size_t>(Tile::kTile) << level;
        const std::size_t o0 = static_cast<std::size_t>(chunk_index[c]) * Tile::kTile;
        if (o0 >= segment.length) continue;
        const std::size_t o1 = smaller(o0 + Tile::kTile, segment.length);
        const unsigned count = static_cast<unsigned>(o1 - o0);
        const std::size_t base = o0 / (2 * run) * (2 * run);
        if (base + run >= segment.length) {  // the last run has no partner: copied
            for (unsigned r = t; r < count; r += Tile::kThreads) {
                dst[o0 + r] = src[o0 + r];
                if (Pairs) values_dst[o0 + r] = values_src[o0 + r];
            }
            continue;
        }
        const Key *a = src + base, *b = src + base + run;
        const unsigned na = static_cast<unsigned>(run), nb = static_cast<unsigned>(smaller(run, segment.length - base - run));
        if (t < 64)
            storage.split[t / 32] = warp_merge_path_split(a, b, na, nb, static_cast<unsigned>((t < 32 ? o0 : o1) - base));
        __syncthreads();
        const unsigned a0 = storage.split[0], a1 = storage.split[1];
        const unsigned b0 = static_cast<unsigned>(o0 - base) - a0, tile_a = a1 - a0;
        for (unsigned j = t; j < count; j += Tile::kThreads) storage.keys[j] = j < tile_a ? a[a0 + j] : b[b0 + j - tile_a];
        __syncthreads();
        Key merged[Tile::kItems];
        unsigned source[Tile::kItems];
        const unsigned diagonal = t * Tile::kItems;
        if (diagonal < count) {
            const auto read_a = [&](unsigned i) { return storage.keys[i]; };
            const auto read_b = [&](unsigned i) { return storage.keys[tile_a + i]; };
            const unsigned tile_b = count - tile_a;
            const unsigned split = merge_path_split<Key>(read_a, read_b, tile_a, tile_b, diagonal, KeyLess<Key>{});
            merge_serial(read_a, read_b, split, tile_a, diagonal - split, tile_b, merged, source, KeyLess<Key>{});
        }
        __syncthreads();
        if (diagonal < count) {
#pragma unroll
            for (int k = 0; k < Tile::kItems; ++k) {
                const unsigned r = diagonal + k;
                if (r < count) {
                    storage.keys[merge_slot<Key>(r)] = merged[k];
                    storage.source[r] = static_cast<unsigned short>(source[k]);  // an index of `keys`
                }
            }
        }
        __syncthreads();
        for (unsigned r = t; r < count; r += Tile::kThreads) {
            dst[o0 + r] = storage.keys[merge_slot<Key>(r)];
            if (Pairs) {
                const unsigned j = storage.source[r];
                values_dst[o0 + r] = values_src[j < tile_a ? base + a0 + j : base + run + b0 + (j - tile_a)];
            }
        }
        __syncthreads();
    }
}

}  // namespace detail
}  // namespace StreamCompaction
