#pragma once
// Merge path (Green, McColl & Bader 2012; Merrill & Garland 2016; moderngpu's merge_path): the
// merge of two sorted sequences is a path whose every step consumes the next item of one of them;
// diagonal d crosses it where the first d merged items lie. Found by a binary search on the
// diagonal, in a tile's shared memory, or by a whole warp 32 pivots a round in global memory.
// Two uses:
//   segment ends against element indices: the segmented reduce, the segmented scan by offsets,
//     the load-balancing search (tile corners searched per block or read from a plan made once);
//   two sorted arrays a and b: the merge, sorted search and join (ties broken by Bound).
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>

namespace StreamCompaction {

// Which side goes first where keys are equivalent. Lower: a's item before b's (a stable merge of
// a then b; a sorted search of needles a in b then gives each needle's lower bound, the number of
// b's items ordered before it). Upper: b's item first (the upper bound: b's items not ordered after it).
enum class Bound { Lower, Upper };

namespace detail {

// ---- Segment ends against elements

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

// The first x in [low, high) where `passes(x)` is false, else high, for a test that holds on a
// prefix of the range, by a whole warp: each round the 32 lanes test 32 evenly spaced pivots at
// once, so the range shrinks 32-fold per dependent load rather than 2-fold. Every lane returns it.
template <class Passes>
__device__ __forceinline__ long long warp_partition_point(long long low, long long high, unsigned lane,
                                                          Passes passes) {
    while (low < high) {
        const long long step = (high - low + kWarpThreads - 1) / kWarpThreads;
        const long long pivot = low + lane * step;
        const int passed = __popc(__ballot_sync(kFullMask, pivot < high && passes(pivot)));
        if (passed == 0) return low;
        const long long last_passing = low + (passed - 1) * step;
        low = last_passing + 1;
        high = last_passing + step < high ? last_passing + step : high;
    }
    return low;
}

// The same crossing on the whole path in global memory, by a whole warp. Every lane returns the
// number of ends consumed: the first x where segment x ends after the element it meets
// (offsets[x + 1] > diagonal - x - 1).
template <class Offset>
__device__ __forceinline__ long long warp_merge_path_search(long long diagonal, const Offset *offsets,
                                                            long long segments, long long n, unsigned lane) {
    return warp_partition_point(diagonal > n ? diagonal - n : 0, diagonal < segments ? diagonal : segments, lane,
                                [&](long long x) { return static_cast<long long>(offsets[x + 1]) <= diagonal - x - 1; });
}

// The number of segments that end at or before `position` (offsets[s + 1] <= position), by a
// whole warp.
template <class Offset>
__device__ __forceinline__ long long warp_ends_at_most(long long position, const Offset *offsets, long long segments,
                                                       unsigned lane) {
    return warp_partition_point(0, segments, lane,
                                [&](long long s) { return static_cast<long long>(offsets[s + 1]) <= position; });
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

// ---- Two sorted arrays
// In global memory, a and b are pointers or any random-access iterators the device can read.

// Whether a's item `x` goes before b's item `y` on the path.
template <Bound Ties, class X, class Y, class Less>
__device__ __forceinline__ bool a_goes_first(const X &x, const Y &y, Less less) {
    if constexpr (Ties == Bound::Lower) return !less(y, x);
    else return less(x, y);
}

// Where `diagonal` crosses the path (the items of a consumed; a_count items at a, b_count at b,
// diagonal <= a_count + b_count), by a binary search of a tile staged in shared memory. Stays
// inside both arrays whatever the keys, sorted or not.
template <Bound Ties, class Index, class K, class Less>
__device__ __forceinline__ Index merge_path_crossing(const K *a, Index a_count, const K *b, Index b_count,
                                                     Index diagonal, Less less) {
    Index low = diagonal > b_count ? diagonal - b_count : 0;
    Index high = diagonal < a_count ? diagonal : a_count;
    while (low < high) {
        const Index pivot = (low + high) >> 1;
        if (a_goes_first<Ties>(a[pivot], b[diagonal - 1 - pivot], less)) low = pivot + 1;
        else high = pivot;
    }
    return low;
}

// The same crossing in global memory for many diagonals at once (the merge's corner pass, a thread
// each), by a bit-descending search over a's positions: each round's pivot is the crossing so far
// plus a power of two fixed by a_count alone, so that neighbouring diagonals probe the same items
// of a in their top rounds (one request for a warp, L1 and L2 hits for the block) and only b's
// probe is a diagonal's own. Pivots halving each diagonal's own range were all its own: on an
// H100 (2^28 keys) that pass read 2.7 KB of DRAM a corner and took 85.5 us, this one 59.7 us.
// Searches with more pivots a round were slower, the pass being bound by its traffic as much as by
// its latency: a warp's 32-way search (below) pulls 64 sectors a round, and 8 pivots a thread took
// 2^28 keys from 0.815 to 0.934 ms. Positions outside the diagonal's range are decided without a
// load, so it stays inside both arrays whatever the keys, sorted or not.
template <Bound Ties, class A, class B, class Less>
__device__ __forceinline__ long long merge_path_crossing_on_grid(A a, long long a_count, B b, long long b_count,
                                                                 long long diagonal, Less less) {
    const long long low = diagonal > b_count ? diagonal - b_count : 0;  // a's items before low go first
    const long long high = diagonal < a_count ? diagonal : a_count;    // none from high on
    long long crossing = 0;  // a's items [0, crossing) go first
    for (long long step = a_count > 0 ? 1LL << (63 - __clzll(a_count)) : 0; step > 0; step >>= 1) {
        const long long x = crossing + step - 1;  // the last item of the candidate run [crossing, x]
        if (x < high && (x < low || a_goes_first<Ties>(a[x], b[diagonal - 1 - x], less))) crossing += step;
    }
    return crossing;
}

// The same crossing in global memory, by a whole warp (every lane gets the answer): the partition
// point of "a's pivot goes first" over [low, high), 32 pivots a round (warp_partition_point).
template <Bound Ties, class A, class B, class Less>
__device__ __forceinline__ long long warp_merge_path(long long diagonal, A a, long long na, B b, long long nb,
                                                     Less less, unsigned lane) {
    const long long low = diagonal > nb ? diagonal - nb : 0;
    const long long high = diagonal < na ? diagonal : na;
    // warp_partition_point tests only pivots in [low, high): a[pivot] and b[diagonal - 1 - pivot] in range.
    return warp_partition_point(low, high, lane, [&](long long pivot) {
        return a_goes_first<Ties>(a[pivot], b[diagonal - 1 - pivot], less);
    });
}

// A tile's corners: the items of a consumed before diagonals `start` and `end`, found by warps 0
// and 1 at once (warp 0 alone in a one-warp block). Run by the whole block; corners[0] and
// corners[1] receive them (read after a __syncthreads).
template <Bound Ties, class A, class B, class Less>
__device__ __forceinline__ void block_merge_corners(long long start, long long end, A a, long long na, B b,
                                                    long long nb, Less less, long long *corners) {
    const unsigned warp = threadIdx.x / kWarpThreads, lane = threadIdx.x % kWarpThreads;
    const unsigned end_warp = blockDim.x > kWarpThreads ? 1 : 0;
    if (warp == 0) {
        const long long found = warp_merge_path<Ties>(start, a, na, b, nb, less, lane);
        if (lane == 0) corners[0] = found;
    }
    if (warp == end_warp) {
        const long long found = warp_merge_path<Ties>(end, a, na, b, nb, less, lane);
        if (lane == 0) corners[1] = found;
    }
}

}  // namespace detail
}  // namespace StreamCompaction
