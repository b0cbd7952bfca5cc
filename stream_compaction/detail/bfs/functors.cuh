#pragma once
// The breadth-first search's per-level work (device/bfs.cuh): the frontier's degrees, scanned into
// edge offsets, and the expansion of every frontier edge, which claims unvisited neighbours and
// appends them to the next frontier in the same pass.
#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Where the search stands between the thin kernel and the host: the current frontier's size, its
// level, and which of the two frontier buffers holds it.
struct BfsState {
    unsigned frontier_size;
    int level;
    int parity;  // 0: the first buffer holds the frontier
};

// Claims vertex w if no one has visited it yet (its bit set by the one atomicOr that
// finds it clear); true for the claiming thread.
__device__ __forceinline__ bool claim_vertex(unsigned *visited, int w) {
    const unsigned bit = 1u << (w & 31);
    unsigned *word = visited + (w >> 5);
    if (*word & bit) return false;  // seen already: most edges of a wide level end here, without an atomic
    return !(atomicOr(word, bit) & bit);
}

// The degree of frontier vertex i (the scan's load).
struct FrontierDegree {
    const int *row_offsets, *frontier;
    __device__ long long operator()(std::size_t i) const {
        const int v = frontier[i];
        return static_cast<long long>(row_offsets[v + 1]) - row_offsets[v];
    }
};

// edge_offsets[i + 1] = the frontier's edges up to vertex i (the scan's store; edge_offsets[0] = 0).
struct StoreEdgeOffset {
    long long *edge_offsets;
    __device__ void operator()(std::size_t i, const long long &scanned) const { edge_offsets[i + 1] = scanned; }
};

// Where frontier vertex `segment`'s edges start (transform_lbs's per-segment value).
struct FirstEdge {
    const int *row_offsets, *frontier;
    __device__ int operator()(long long segment) const { return row_offsets[frontier[segment]]; }
};

// Edge `rank` of a frontier vertex (transform_lbs_append's f): its neighbour, if no one has visited
// it yet, is claimed, given the next level, and made an item of the next frontier.
struct ClaimNeighbor {
    const int *neighbors;
    unsigned *visited;  // a bit per vertex
    int *levels;
    int next_level;
    __device__ bool operator()(long long, long long, long long rank, int first_edge, int &next_vertex) const {
        const int w = neighbors[first_edge + rank];
        if (!claim_vertex(visited, w)) return false;
        levels[w] = next_level;
        next_vertex = w;
        return true;
    }
};

// Level 0: the source alone visited, every other vertex at level -1; the first frontier the source,
// of size 1.
// (A template, as every kernel defined in a header: one definition per program.)
template <class Level>
__global__ void bfs_start(Level *levels, unsigned *visited, int vertices, int source, int *frontier,
                          unsigned *level_sizes) {
    const long long words = (static_cast<long long>(vertices) + 31) / 32;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < vertices || i < words;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        if (i < vertices) levels[i] = i == source ? 0 : -1;
        if (i < words) visited[i] = i == source / 32 ? 1u << (source % 32) : 0u;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        frontier[0] = source;
        level_sizes[0] = 1;
    }
}

}  // namespace detail
}  // namespace StreamCompaction
