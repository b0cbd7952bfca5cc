#pragma once
// Segmented scan kernels: heads from flags or from a bitmap built from offsets, the scan of
// (head, value) pairs, and the functors of the conversions between segment descriptions. Values,
// flags and offsets come from pointers to const or from any random-access iterator the device can
// read; results go to a pointer or to any random-access output iterator (the dispatch unwraps
// contiguous ones to pointers, which alone take vector loads and stores).
#include <stream_compaction/detail/util/array_access.cuh>
#include <stream_compaction/detail/grid/merge_path.cuh>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/detail/segmented_scan/segmented_pair.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

__host__ __device__ inline std::size_t head_bit_words(std::size_t n) { return (n + 31) / 32; }

// Heads read from the caller's flags (a pointer to const or an iterator), a scan tile's at a time:
// one vector load per row where the flags are a pointer aligned for it, else an item at a time.
template <class Flags>
struct FlagHeads {
    Flags flags;
    bool vectorized;
    template <int R, int VEC>
    __device__ void load_tile_heads(std::size_t base, std::size_t valid, unsigned (&heads)[R][VEC]) const {
        using Flag = input_value_t<Flags>;
        Flag loaded[R][VEC];
        load_tile<R, VEC>(flags + base, loaded, valid, vectorized);
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int k = 0; k < VEC; ++k) heads[r][k] = loaded[r][k] != Flag(0);
    }
};

// Heads read from a bitmap built from offsets (bit i of word i / 32). A thread's VEC items of a
// row share one word (rows and tiles start at multiples of 32 items, and VEC divides 32).
struct BitHeads {
    const unsigned *bits;
    __device__ unsigned operator()(std::size_t i) const { return bits[i / 32] >> (i % 32) & 1u; }
    template <int R, int VEC>
    __device__ void load_tile_heads(std::size_t base, std::size_t valid, unsigned (&heads)[R][VEC]) const {
        static_assert(32 % VEC == 0, "a thread's items of a row must share a bitmap word");
        const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const std::size_t first = r * row_items + threadIdx.x * VEC;
            const unsigned word = first < valid ? bits[(base + first) / 32] >> ((base + first) % 32) : 0u;
#pragma unroll
            for (int k = 0; k < VEC; ++k) heads[r][k] = word >> k & 1u;
        }
    }
};

// Writes a tile's results from `out` (the tile's start) on: store_tile's vector stores where `out`
// is a pointer to V (when `vectorized`), else an item at a time into any output iterator or pointer
// of another type, each result converted to what it takes.
template <int R, int VEC, class V, class Output>
__device__ __forceinline__ void store_tile_results(Output out, const V (&results)[R][VEC], std::size_t valid,
                                                   bool vectorized) {
    if constexpr (std::is_same_v<Output, V *>)
        store_tile<R, VEC>(out, results, valid, vectorized);
    else
        for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t i) { out[i] = results[r][k]; });
}

// A segmented scan of values under heads: the scan of (head, value) pairs, loaded and stored a
// row at a time. The exclusive result of item i is init at a head, else init combined with the
// exclusive pair's value (the segment's values before i): each thread reads and writes only its
// own items, so both forms may run in place. `values` is a pointer to const V or an iterator of
// V's, `out` a pointer or an output iterator; `vectorized` says the pointers to V among them are
// aligned for vector accesses (which only those take).
template <class V, class Values, class Heads, class Output, class Op, bool Exclusive>
__global__ void __launch_bounds__(1024) segmented_scan_kernel(Values values, Heads heads, Output out, std::size_t n,
                                                              Op op, V init, bool vectorized, void *status_storage,
                                                              std::size_t tiles, CallState *state, u64 call_tag,
                                                              LookBackDelay delay) {
    using Pair = SegmentedPair<V>;
    constexpr int VEC = vector_items<Pair>();
    constexpr int R = kTransformScanRows;  // 8 rows: 1.1x CUB on an H100, where 4 gave 0.92x
    static_assert(R * VEC <= 32, "one bit per item");
    unsigned starts = 0;  // bit r * VEC + k: item (r, k) starts a segment
    scan_tile<Pair, R, SegmentedOp<Op>, Exclusive>(
        n, SegmentedOp<Op>{op}, Partial<Pair>{Pair{}, false}, status_storage, tiles, state, call_tag, delay,
        [&](std::size_t base, std::size_t valid, Pair (&items)[R][VEC]) {
            V loaded[R][VEC];
            unsigned head[R][VEC];
            load_tile<R, VEC>(values + base, loaded, valid, vectorized);
            heads.template load_tile_heads<R, VEC>(base, valid, head);
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int k = 0; k < VEC; ++k) {
                    // Element 0 starts a segment whatever its head says.
                    const unsigned starts_here = head[r][k] | (base == 0 && r == 0 && threadIdx.x == 0 && k == 0);
                    items[r][k] = Pair{starts_here, loaded[r][k]};
                    starts |= starts_here << (r * VEC + k);
                }
        },
        [&](std::size_t base, std::size_t valid, const Pair (&items)[R][VEC]) {
            V results[R][VEC];
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int k = 0; k < VEC; ++k)
                    results[r][k] = !Exclusive                       ? items[r][k].value
                                    : (starts >> (r * VEC + k) & 1u) ? init
                                                                     : op(init, items[r][k].value);
            store_tile_results<R, VEC>(out + base, results, valid, vectorized);
        });
}

struct NoSegmentWork {
    template <class Offset>
    __device__ void operator()(std::size_t, Offset, Offset) const {}
};

// The bitmap's words a head-bits block writes, one a thread: its tile is 32 items a thread.
constexpr int kHeadBitsThreads = 256;
constexpr std::size_t kHeadBitsTileItems = std::size_t{kHeadBitsThreads} * 32;

__host__ __device__ inline std::size_t head_bits_blocks(std::size_t n) {
    return n == 0 ? 1 : (n + kHeadBitsTileItems - 1) / kHeadBitsTileItems;
}

// Writes the bitmap words of one tile of kHeadBitsTileItems items, bit i set where a non-empty
// segment starts at item i (empty segments start where the next non-empty one does, so they add
// nothing), and calls per_segment(s, start, end) for every segment s that starts in the tile (the
// last tile: at or past its start): a hook for the SpMV's per-row work.
//
// Each word is written once, whole, by the block that owns it: no zeroing pass and no global
// atomics (one atomic per head, or per word and warp, took 0.1 ms at 16.7 million segments on an
// H100). Warps 0 and 1 find the tile's segments in the ascending offsets; the block then reads
// their starts once, coalesced, and sets the bits in shared memory. `offsets`: a pointer to const or
// any random-access iterator the device can read.
template <class Offsets, class PerSegment>
__global__ void __launch_bounds__(kHeadBitsThreads) head_bits_kernel(Offsets offsets, std::size_t segments,
                                                                     std::size_t n, unsigned *bits,
                                                                     PerSegment per_segment) {
    using Offset = input_value_t<Offsets>;
    __shared__ unsigned tile_bits[kHeadBitsThreads];
    __shared__ long long tile_segments[2];  // the first segment starting in the tile, and one past the last
    const unsigned warp = threadIdx.x / kWarpThreads, lane = threadIdx.x % kWarpThreads;
    const long long tile_first = static_cast<long long>(blockIdx.x * kHeadBitsTileItems);
    const bool last_tile = blockIdx.x + 1 == gridDim.x;
    const long long tile_end = last_tile ? static_cast<long long>(n) : tile_first + static_cast<long long>(kHeadBitsTileItems);
    tile_bits[threadIdx.x] = 0;
    if (warp < 2) {
        const long long bound = warp == 0 ? tile_first : tile_end;
        const long long found =
            warp == 1 && last_tile ? static_cast<long long>(segments)
                                   : warp_partition_point(0, static_cast<long long>(segments), lane, [&](long long s) {
                                         return static_cast<long long>(offsets[s]) < bound;
                                     });
        if (lane == 0) tile_segments[warp] = found;
    }
    __syncthreads();
    for (long long s = tile_segments[0] + threadIdx.x; s < tile_segments[1]; s += kHeadBitsThreads) {
        const Offset start = offsets[s], end = offsets[s + 1];
        const long long item = static_cast<long long>(start);
        // In the tile whatever the offsets hold: offsets that do not ascend give wrong bits, never a
        // stray access.
        if (start < end && item >= tile_first && item < tile_end)
            atomicOr(&tile_bits[(item - tile_first) / 32], 1u << (item % 32));
        per_segment(static_cast<std::size_t>(s), start, end);
    }
    __syncthreads();
    const std::size_t word = blockIdx.x * static_cast<std::size_t>(kHeadBitsThreads) + threadIdx.x;
    if (word < head_bit_words(n)) bits[word] = tile_bits[threadIdx.x];
}

// make_flags: the inclusive scan of the shape gives each segment's end; a non-empty segment's start
// (end - length) gets a flag. Zero-length segments flag nothing.
template <class Length, class Flag>
struct FlagSegmentStart {
    const Length *shape;
    Flag *flags;
    std::size_t n;
    __device__ void operator()(std::size_t s, const std::size_t &end) const {
        const std::size_t length = static_cast<std::size_t>(shape[s]);
        if (length > 0 && end - length < n) flags[end - length] = Flag(1);
    }
};

template <class Length>
struct ShapeLoad {
    const Length *shape;
    __device__ std::size_t operator()(std::size_t s) const { return static_cast<std::size_t>(shape[s]); }
};

template <class Offset, class Flag>
__global__ void flags_from_offsets_kernel(const Offset *offsets, std::size_t segments, Flag *flags, std::size_t n) {
    const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (s >= segments) return;
    const Offset start = offsets[s];
    if (start < offsets[s + 1] && start >= 0 && static_cast<std::size_t>(start) < n) flags[start] = Flag(1);
}

// flags_to_offsets: the inclusive count of heads numbers the segments; head i of segment k writes
// offsets[k] = i, and the last element closes the list with offsets[segments] = n.
template <class Flag>
struct HeadCountLoad {
    const Flag *flags;
    __device__ std::size_t operator()(std::size_t i) const { return i == 0 || flags[i] != Flag(0); }
};

template <class Flag, class Offset>
struct OffsetStore {
    const Flag *flags;
    Offset *offsets;
    std::size_t *segment_count;
    std::size_t n;
    __device__ void operator()(std::size_t i, const std::size_t &heads) const {
        if (i == 0 || flags[i] != Flag(0)) offsets[heads - 1] = static_cast<Offset>(i);
        if (i == n - 1) {
            offsets[heads] = static_cast<Offset>(n);
            *segment_count = heads;
        }
    }
};

}  // namespace detail
}  // namespace StreamCompaction
