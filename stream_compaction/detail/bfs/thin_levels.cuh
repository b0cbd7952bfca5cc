#pragma once
// The breadth-first search's thin levels (device/bfs.cuh): one block runs level after level while
// the frontier stays within kBfsThinFrontier vertices and kBfsThinEdges edges, so that a road
// network's thousand levels of a few hundred vertices cost one launch and one wait, not two of
// each per level. Within a level the block is load-balanced like transform_lbs: the frontier's
// degrees are scanned into shared memory and every thread takes every blockDim-th edge, finding
// its vertex by a binary search of the scanned degrees, so one high-degree vertex does not
// serialize its warp.
#include <stream_compaction/detail/bfs/functors.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

namespace StreamCompaction {
namespace detail {

struct BfsThinStorage {
    int edge_offsets[kBfsThinFrontier + 1];  // exclusive scan of the frontier's degrees, then the total
    int warp_totals[kBfsThinThreads / kWarpThreads];
    unsigned next_size;
};

// Scans the degrees of the frontier's vertices (at most kBfsThinFrontier) into tile.edge_offsets;
// thread t owns the kPerThread consecutive vertices from kPerThread * t. Returns the level's edges.
__device__ __forceinline__ int scan_frontier_degrees(const int *row_offsets, const int *frontier, int size, BfsThinStorage &tile) {
    constexpr int kPerThread = kBfsThinFrontier / kBfsThinThreads;
    const unsigned lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
    int degrees[kPerThread];
    int thread_edges = 0;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
        const int i = static_cast<int>(threadIdx.x) * kPerThread + j;
        degrees[j] = 0;
        if (i < size) {
            const int v = frontier[i];
            degrees[j] = row_offsets[v + 1] - row_offsets[v];
        }
        thread_edges += degrees[j];
    }
    int own[1] = {thread_edges};
    warp_inclusive_scan(own, Sum{}, lane);
    if (lane == kWarpThreads - 1) tile.warp_totals[warp] = own[0];
    __syncthreads();
    if (warp == 0) {
        int totals[1] = {static_cast<int>(lane) < kBfsThinThreads / kWarpThreads ? tile.warp_totals[lane] : 0};
        warp_inclusive_scan(totals, Sum{}, lane);
        if (static_cast<int>(lane) < kBfsThinThreads / kWarpThreads) tile.warp_totals[lane] = totals[0];
    }
    __syncthreads();
    int offset = own[0] - thread_edges;
    if (warp > 0) offset += tile.warp_totals[warp - 1];
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
        const int i = static_cast<int>(threadIdx.x) * kPerThread + j;
        if (i < size) tile.edge_offsets[i] = offset;
        offset += degrees[j];
    }
    const int edges = tile.warp_totals[kBfsThinThreads / kWarpThreads - 1];
    if (threadIdx.x == 0) tile.edge_offsets[size] = edges;
    __syncthreads();
    return edges;
}

// Levels from (size, level, parity) until the frontier is empty or too wide for one block; writes
// where it stopped to *state and each new level's frontier size to level_sizes[level]. One block
// of kBfsThinThreads threads. (A template, as every kernel defined in a header.)
template <class Level>
__global__ void __launch_bounds__(kBfsThinThreads)
    bfs_thin_levels(const int *row_offsets, const int *neighbors, Level *levels, unsigned *visited, int *frontier_a,
                    int *frontier_b, unsigned *level_sizes, BfsState *state, unsigned size, int level, int parity) {
    __shared__ BfsThinStorage tile;
    while (size > 0 && size <= static_cast<unsigned>(kBfsThinFrontier)) {
        const int *frontier = parity ? frontier_b : frontier_a;
        int *next = parity ? frontier_a : frontier_b;
        const int edges = scan_frontier_degrees(row_offsets, frontier, static_cast<int>(size), tile);
        if (edges > kBfsThinEdges) break;  // every thread reads the same total: the block leaves together
        if (threadIdx.x == 0) tile.next_size = 0;
        __syncthreads();
        for (int e = threadIdx.x; e < edges; e += blockDim.x) {
            // The frontier vertex of edge e: the last i with edge_offsets[i] <= e.
            int low = 0, high = static_cast<int>(size) - 1;
            while (low < high) {
                const int middle = (low + high + 1) / 2;
                if (tile.edge_offsets[middle] <= e) low = middle;
                else high = middle - 1;
            }
            const int w = neighbors[row_offsets[frontier[low]] + (e - tile.edge_offsets[low])];
            if (claim_vertex(visited, w)) {
                levels[w] = level + 1;
                next[atomicAdd(&tile.next_size, 1u)] = w;
            }
        }
        __syncthreads();  // the next frontier (global memory) and its size are complete and visible to the block
        size = tile.next_size;
        ++level;
        parity ^= 1;
        if (threadIdx.x == 0 && size > 0) level_sizes[level] = size;
        __syncthreads();  // everyone has read next_size before the next level resets it
    }
    if (threadIdx.x == 0) *state = BfsState{size, level, parity};
}

}  // namespace detail
}  // namespace StreamCompaction
