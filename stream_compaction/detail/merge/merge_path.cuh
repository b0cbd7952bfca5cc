#pragma once
// Merge path of two sorted arrays (Green, McColl & Bader 2012; moderngpu's merge_path): the merge
// of a[0, na) and b[0, nb) is a path of na + nb steps, each consuming the next item of a or of b;
// diagonal d crosses it at the point (i, d - i) where the first d merged items are a[0, i) and
// b[0, d - i). Found by a binary search on the diagonal, because "a[x] goes before b[d - 1 - x]"
// holds for every x below the crossing and for none from it on. This is the two-array sibling of
// detail/grid/merge_path.cuh (segment ends against element indices); the warp-wide search in
// global memory is the same 32-pivot search.
#include <stream_compaction/detail/warp/warp_scan.cuh>

namespace StreamCompaction {

// Which side goes first where keys are equivalent. Lower: a's item before b's (a stable merge of
// a then b; a sorted search of needles a in b then gives each needle's lower bound, the number of
// b's items ordered before it). Upper: b's item first (the upper bound: b's items not ordered after it).
enum class Bound { Lower, Upper };

namespace detail {

// Whether a's item `x` goes before b's item `y` on the path.
template <Bound Ties, class K, class Less>
__device__ __forceinline__ bool a_goes_first(const K &x, const K &y, Less less) {
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
template <Bound Ties, class K, class Less>
__device__ __forceinline__ long long merge_path_crossing_on_grid(const K *a, long long a_count, const K *b,
                                                                 long long b_count, long long diagonal, Less less) {
    const long long low = diagonal > b_count ? diagonal - b_count : 0;  // a's items before low go first
    const long long high = diagonal < a_count ? diagonal : a_count;    // none from high on
    long long crossing = 0;  // a's items [0, crossing) go first
    for (long long step = a_count > 0 ? 1LL << (63 - __clzll(a_count)) : 0; step > 0; step >>= 1) {
        const long long x = crossing + step - 1;  // the last item of the candidate run [crossing, x]
        if (x < high && (x < low || a_goes_first<Ties>(a[x], b[diagonal - 1 - x], less))) crossing += step;
    }
    return crossing;
}

// The same crossing in global memory, by a whole warp (every lane gets the answer): each round
// the 32 lanes test 32 evenly spaced pivots of [low, high) at once, so the range shrinks 32-fold
// per dependent load instead of 2-fold. The lanes whose pivot goes first form a prefix of the warp.
template <Bound Ties, class K, class Less>
__device__ __forceinline__ long long warp_merge_path(long long diagonal, const K *a, long long na, const K *b,
                                                     long long nb, Less less, unsigned lane) {
    long long low = diagonal > nb ? diagonal - nb : 0;
    long long high = diagonal < na ? diagonal : na;
    while (low < high) {
        const long long step = (high - low + kWarpThreads - 1) / kWarpThreads;
        const long long pivot = low + lane * step;
        // low <= pivot < high keeps a[pivot] and b[diagonal - 1 - pivot] in range.
        const bool first = pivot < high && a_goes_first<Ties>(a[pivot], b[diagonal - 1 - pivot], less);
        const int passed = __popc(__ballot_sync(kFullMask, first));
        if (passed == 0) return low;
        const long long last_first = low + (passed - 1) * step;
        low = last_first + 1;
        high = last_first + step < high ? last_first + step : high;
    }
    return low;
}

// A tile's corners: the items of a consumed before diagonals `start` and `end`, found by warps 0
// and 1 at once (warp 0 alone in a one-warp block). Run by the whole block; corners[0] and
// corners[1] receive them (read after a __syncthreads).
template <Bound Ties, class K, class Less>
__device__ __forceinline__ void block_merge_corners(long long start, long long end, const K *a, long long na,
                                                    const K *b, long long nb, Less less, long long *corners) {
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
