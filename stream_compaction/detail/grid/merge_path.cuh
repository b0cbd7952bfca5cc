#pragma once
// Merge path (Green, McColl & Bader 2012; Merrill & Garland 2016): where a diagonal crosses the
// path of segment ends and elements, searched in a tile's shared memory or, by a whole warp, in
// global memory; tile corners searched per block or read from a plan made once.
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

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

}  // namespace detail
}  // namespace StreamCompaction
