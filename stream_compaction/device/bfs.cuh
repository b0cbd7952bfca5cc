#pragma once
// Breadth-first search on a CSR graph (issue #15): the level of every vertex from a source (0 for
// the source, -1 when unreachable), level by level, each level's next frontier made in the pass
// that expands the current one (dynamic work creation: every frontier edge claims its neighbour
// with one atomicOr on a bit per vertex and appends it; no pass over every vertex per level, no
// compaction of candidates). The levels are driven two ways:
//   thin (at most kBfsThinFrontier vertices and kBfsThinEdges edges, tuning/policies.h): one
//     persistent block runs level after level on the device, load-balanced over the level's edges
//     (detail/bfs/thin_levels.cuh), until the frontier is empty or too wide: a road network's
//     thousand thin levels cost one launch and one wait in all;
//   wide: the whole GPU, two launches per level (the scan of the frontier's degrees into edge
//     offsets, then transform_lbs_append over the edges: every block the same number of edges,
//     whatever the degrees) and two waits: for the edge count that sizes the expansion, and for the next
//     frontier's size that decides how the next level runs.
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
// file); self-loops and duplicate edges are allowed. Waits for the device when the levels change
// hands (above), so it refuses a capturing stream. Errors: std::invalid_argument for bad arguments (a source outside the graph,
// storage too small; nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/bfs/functors.cuh>
#include <stream_compaction/detail/bfs/thin_levels.cuh>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/call_environment.h>
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

// Storage: the visited bits, two frontiers, the frontier's edge offsets, the next frontier's size,
// where the thin levels stopped, each level's frontier size, the scan's storage.
inline TempLayout<8> bfs_layout(std::size_t vertices) {
    return temp_layout((vertices + 31) / 32 * sizeof(unsigned), vertices * sizeof(int), vertices * sizeof(int),
                       (vertices + 1) * sizeof(long long), sizeof(unsigned), sizeof(BfsState),
                       (vertices + 1) * sizeof(unsigned), scan_temp_bytes<long long>(vertices));
}

}  // namespace detail

inline std::size_t bfs_temp_bytes(std::size_t vertices, const CallEnvironment & = {}) {
    return detail::bfs_layout(vertices).bytes();
}

// d_levels[v] = the level of vertex v from `source` (-1: unreachable). Returns the number of levels
// (the largest level + 1). `frontier_sizes`, when given, receives each level's number of vertices.
inline int bfs_levels(const int *d_row_offsets, const int *d_neighbors, int vertices, int source, int *d_levels,
                      void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {},
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
    require_not_capturing(name, env.stream, "each level's frontier size");
    const auto pieces = layout.carve(d_temp);
    unsigned *visited = reinterpret_cast<unsigned *>(pieces[0]);
    int *frontiers[2] = {reinterpret_cast<int *>(pieces[1]), reinterpret_cast<int *>(pieces[2])};
    long long *edge_offsets = reinterpret_cast<long long *>(pieces[3]);
    unsigned *next_count = reinterpret_cast<unsigned *>(pieces[4]);
    auto *d_state = reinterpret_cast<detail::BfsState *>(pieces[5]);
    unsigned *level_sizes = reinterpret_cast<unsigned *>(pieces[6]);
    void *scan_temp = pieces[7];
    const std::size_t scan_bytes = scan_temp_bytes<long long>(vertices);

    constexpr int kThreads = 256;
    detail::launch(detail::bfs_start<int>, "bfs_start", std::min(blocks_for(vertices, kThreads), 4096u), kThreads, 0,
                   env.stream, d_levels, visited, vertices, source, frontiers[0], level_sizes);
    SC_CUDA_CHECK(cudaMemsetAsync(edge_offsets, 0, sizeof(long long), env.stream));
    detail::BfsState at{1, 0, 0};
    while (at.frontier_size > 0) {
        detail::launch(detail::bfs_thin_levels<int>, "bfs_thin_levels", 1, kBfsThinThreads, 0, env.stream,
                       d_row_offsets, d_neighbors, d_levels, visited, frontiers[0], frontiers[1], level_sizes, d_state,
                       at.frontier_size, at.level, at.parity);
        SC_CUDA_CHECK(cudaMemcpyAsync(&at, d_state, sizeof at, cudaMemcpyDeviceToHost, env.stream));
        SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
        // Wide levels (at least the one the thin block stopped at) until the frontier is thin again.
        while (at.frontier_size > 0) {
            const int *frontier = frontiers[at.parity];
            // The frontier's edges: offsets[i + 1] = the degrees of frontier[0..i].
            transform_inclusive_scan<long long>(at.frontier_size, detail::FrontierDegree{d_row_offsets, frontier},
                                                detail::StoreEdgeOffset{edge_offsets}, Sum{}, scan_temp, scan_bytes,
                                                env);
            long long edges = 0;
            SC_CUDA_CHECK(cudaMemcpyAsync(&edges, edge_offsets + at.frontier_size, sizeof edges, cudaMemcpyDeviceToHost,
                                          env.stream));
            SC_CUDA_CHECK(cudaMemsetAsync(next_count, 0, sizeof(unsigned), env.stream));
            SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
            transform_lbs_append(detail::ClaimNeighbor{d_neighbors, visited, d_levels, at.level + 1},
                                 static_cast<std::size_t>(edges), edge_offsets, at.frontier_size,
                                 detail::FirstEdge{d_row_offsets, frontier}, frontiers[at.parity ^ 1], next_count, env);
            SC_CUDA_CHECK(cudaMemcpyAsync(level_sizes + at.level + 1, next_count, sizeof(unsigned),
                                          cudaMemcpyDeviceToDevice, env.stream));
            SC_CUDA_CHECK(
                cudaMemcpyAsync(&at.frontier_size, next_count, sizeof(unsigned), cudaMemcpyDeviceToHost, env.stream));
            SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
            ++at.level;
            at.parity ^= 1;
            if (at.frontier_size <= static_cast<unsigned>(kBfsThinFrontier)) break;
        }
    }
    if (frontier_sizes) {
        std::vector<unsigned> sizes(static_cast<std::size_t>(at.level));
        SC_CUDA_CHECK(cudaMemcpyAsync(sizes.data(), level_sizes, sizes.size() * sizeof(unsigned), cudaMemcpyDeviceToHost,
                                      env.stream));
        SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
        frontier_sizes->assign(sizes.begin(), sizes.end());
    }
    return at.level;
}

}  // namespace StreamCompaction
