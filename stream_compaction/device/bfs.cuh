#pragma once
// Breadth-first search on a CSR graph (issue #15): the level of every vertex from a source (0 for
// the source, -1 when unreachable), level by level. Each level is two launches: the scan of the
// frontier's degrees (computed on the fly) into edge offsets, and a load-balancing search over the
// frontier's edges (transform_lbs: every block the same number of edges, whatever the degrees)
// that claims each unvisited neighbour with one atomicOr on a bit per vertex and appends it to the
// next frontier in the same pass (dynamic work creation: no pass over every vertex per level, no
// compaction of candidates). The host reads the edge count and the next frontier's size each
// level: a level costs two waits for the device, which thin frontiers (road networks: a thousand
// levels) feel most. A first version: never run on a GPU yet.
//
// Example:
//   std::vector<int> row_offsets = {0, 2, 3, 3, 3}, neighbors = {1, 2, 3}, levels(4);  // 0->1, 0->2, 1->3
//   auto d_offsets = DeviceBuffer<int>::from_host(row_offsets.data(), 5);
//   auto d_neighbors = DeviceBuffer<int>::from_host(neighbors.data(), 3);
//   DeviceBuffer<int> d_levels(4);
//   DeviceBuffer<char> d_temp(bfs_temp_bytes(4));
//   const int depth = bfs_levels(d_offsets.get(), d_neighbors.get(), 4, 0, d_levels.get(), d_temp.get(),
//                                bfs_temp_bytes(4));
//   d_levels.copy_to_host(levels.data(), 4);
//   if (depth != 3 || levels != std::vector<int>{0, 1, 1, 2}) return 1;
//
// Contracts: row_offsets has vertices + 1 entries from 0, non-decreasing, and at most 2^31 - 1
// edges; neighbours in [0, vertices) (validate_csr and require_adjacency check a matrix read from a
// file); self-loops and duplicate edges are allowed. Waits on the host every level, so it refuses a
// capturing stream. Errors: std::invalid_argument for bad arguments (a source outside the graph,
// storage too small; nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/bfs/functors.cuh>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace StreamCompaction {
namespace detail {

// Storage: the visited bits, two frontiers, the frontier's edge offsets, the two counts read back
// each level, the scan's storage.
inline TempLayout<6> bfs_layout(std::size_t vertices) {
    return temp_layout((vertices + 31) / 32 * sizeof(unsigned), vertices * sizeof(int), vertices * sizeof(int),
                       (vertices + 1) * sizeof(long long), 2 * sizeof(unsigned), scan_temp_bytes<long long>(vertices));
}

}  // namespace detail

inline std::size_t bfs_temp_bytes(std::size_t vertices) { return detail::bfs_layout(vertices).bytes(); }

// d_levels[v] = the level of vertex v from `source` (-1: unreachable). Returns the number of levels
// (the largest level + 1). `frontier_sizes`, when given, receives each level's number of vertices.
inline int bfs_levels(const int *d_row_offsets, const int *d_neighbors, int vertices, int source, int *d_levels,
                      void *d_temp, std::size_t temp_bytes, cudaStream_t stream = 0,
                      std::vector<long long> *frontier_sizes = nullptr) {
    SC_NVTX_RANGE("bfs_levels");
    const char *name = "bfs_levels";
    if (vertices < 1 || source < 0 || source >= vertices)
        throw std::invalid_argument(std::string(name) + ": source " + std::to_string(source) + " is not a vertex of a " +
                                    std::to_string(vertices) + "-vertex graph");
    require_device_pointers(name, vertices, d_row_offsets, d_levels);
    if (d_neighbors == nullptr) throw std::invalid_argument(std::string(name) + ": null neighbours");
    const auto layout = detail::bfs_layout(vertices);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    require_not_capturing(name, stream, "each level's frontier size");
    const auto pieces = layout.carve(d_temp);
    unsigned *visited = reinterpret_cast<unsigned *>(pieces[0]);
    int *frontier = reinterpret_cast<int *>(pieces[1]), *next = reinterpret_cast<int *>(pieces[2]);
    long long *edge_offsets = reinterpret_cast<long long *>(pieces[3]);
    unsigned *next_count = reinterpret_cast<unsigned *>(pieces[4]);
    void *scan_temp = pieces[5];
    const std::size_t scan_bytes = scan_temp_bytes<long long>(vertices);

    constexpr int kThreads = 256;
    detail::launch(detail::bfs_start<int>, "bfs_start", std::min(blocks_for(vertices, kThreads), 4096u), kThreads, 0, stream,
                   d_levels, visited, vertices, source, frontier);
    SC_CUDA_CHECK(cudaMemsetAsync(edge_offsets, 0, sizeof(long long), stream));
    if (frontier_sizes) frontier_sizes->assign(1, 1);
    std::size_t frontier_size = 1;
    int level = 0;
    while (frontier_size > 0) {
        // The frontier's edges: offsets[i + 1] = the degrees of frontier[0..i].
        transform_inclusive_scan<long long>(frontier_size, detail::FrontierDegree{d_row_offsets, frontier},
                                            detail::StoreEdgeOffset{edge_offsets}, Sum{}, scan_temp, scan_bytes, stream);
        long long edges = 0;
        SC_CUDA_CHECK(cudaMemcpyAsync(&edges, edge_offsets + frontier_size, sizeof edges, cudaMemcpyDeviceToHost, stream));
        SC_CUDA_CHECK(cudaMemsetAsync(next_count, 0, sizeof(unsigned), stream));
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        transform_lbs(detail::ExpandEdge{d_neighbors, visited, d_levels, next, next_count, level + 1},
                      static_cast<std::size_t>(edges), edge_offsets, frontier_size,
                      detail::FirstEdge{d_row_offsets, frontier}, stream);
        unsigned found = 0;
        SC_CUDA_CHECK(cudaMemcpyAsync(&found, next_count, sizeof found, cudaMemcpyDeviceToHost, stream));
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        frontier_size = found;
        std::swap(frontier, next);
        ++level;
        if (frontier_sizes && found > 0) frontier_sizes->push_back(found);
    }
    return level;
}

}  // namespace StreamCompaction
