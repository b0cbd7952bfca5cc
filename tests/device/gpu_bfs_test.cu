// Breadth-first search (device/bfs.cuh) against the CPU BFS (reference/bfs.h): small graphs whose
// levels are known, generated power-law graphs, the shared road and social graphs; frontier sizes;
// bad arguments and a capturing stream refused.
#include <stream_compaction/reference/bfs.h>
#include <stream_compaction/device/bfs.cuh>
#include <stream_compaction/io/graph.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>

#include "gpu_test_util.h"
#include "graph_util.h"
#include "matrix_files.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuBfs : public GpuTest {};

// The GPU's levels, level count and frontier sizes against the CPU's.
void expectSameAsCpu(const Graph &g, int source) {
    SCOPED_TRACE(std::to_string(g.vertices) + " vertices, " + std::to_string(g.neighbors.size()) + " edges, source " +
                 std::to_string(source));
    const std::vector<int> expected = SC::CPU::bfsLevels(g.vertices, g.row_offsets.data(), g.neighbors.data(), source);
    const int depth = *std::max_element(expected.begin(), expected.end()) + 1;
    std::vector<long long> sizes(depth, 0);
    for (int level : expected)
        if (level >= 0) ++sizes[level];
    DeviceArena arena;
    int *d_offsets = arena.make<int>(g.row_offsets.size()), *d_neighbors = arena.make<int>(g.neighbors.size());
    int *d_levels = arena.make<int>(g.vertices);
    upload(0, d_offsets, g.row_offsets);
    upload(0, d_neighbors, g.neighbors);
    const std::size_t bytes = SC::bfs_temp_bytes(g.vertices);
    char *d_temp = arena.make<char>(bytes + 5);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<long long> frontier_sizes;
    const int levels = SC::bfs_levels(d_offsets, d_neighbors, g.vertices, source, d_levels, d_temp + 5, bytes, 0,
                                      &frontier_sizes);
    EXPECT_EQ(levels, depth);
    EXPECT_EQ(frontier_sizes, sizes);
    EXPECT_EQ(download(d_levels, g.vertices), expected);
}

TEST_F(GpuBfs, SmallGraphs) {
    expectSameAsCpu(fromEdges(1, {}), 0);                                                // one vertex
    expectSameAsCpu(fromEdges(4, {{0, 2}}), 0);                                          // isolated vertices
    expectSameAsCpu(fromEdges(3, {{0, 0}, {0, 1}, {0, 1}, {1, 1}, {1, 2}, {1, 2}}), 0);  // self-loops, duplicates
    expectSameAsCpu(fromEdges(3, {{1, 0}, {2, 1}}), 0);                                  // directed: nothing reached
    std::vector<std::pair<int, int>> path, star;
    for (int v = 0; v + 1 < 3000; ++v) path.push_back({v, v + 1});  // one vertex per level
    expectSameAsCpu(fromEdges(3000, path), 0);
    for (int v = 1; v < 100000; ++v) {
        star.push_back({0, v});
        star.push_back({v, 0});
    }
    const Graph s = fromEdges(100000, star);
    expectSameAsCpu(s, 0);   // one level of 99,999
    expectSameAsCpu(s, 77);  // from a leaf
}

// Levels that change hands between the one-block thin levels and the whole GPU, both ways: a path
// (thin), a hub whose 20,000 leaves make a frontier too wide for one block (the thin block stops
// after the hub's level), the leaves meeting again in one vertex (thin again), then a hub with more
// edges than one block takes in a level (the thin block stops before it), and a path again.
TEST_F(GpuBfs, ThinAndWideLevelsHandOver) {
    std::vector<std::pair<int, int>> edges;
    int v = 0;
    const auto path = [&](int length) {
        for (int i = 0; i < length; ++i, ++v) edges.push_back({v, v + 1});
    };
    const auto hub = [&](int leaves) {
        const int center = v, meet = v + leaves + 1;
        for (int leaf = center + 1; leaf < meet; ++leaf) {
            edges.push_back({center, leaf});
            edges.push_back({leaf, meet});
        }
        v = meet;
    };
    path(500);
    hub(SC::kBfsThinFrontier * 5);
    path(300);
    hub(SC::kBfsThinEdges + 1000);
    path(200);
    expectSameAsCpu(fromEdges(v + 1, edges), 0);
    expectSameAsCpu(fromEdges(v + 1, edges), 600);  // from inside the first hub's leaves
}

TEST_F(GpuBfs, GeneratedPowerLawGraphs) {
    for (std::uint64_t seed : {1, 2}) {
        const auto m = SC::power_law(200000, 200000, 1.5, 1, seed);
        const Graph g{m.rows, m.row_offsets, m.column_indices};
        expectSameAsCpu(g, 0);
        expectSameAsCpu(g, 199999);
    }
}

TEST_F(GpuBfs, SharedRoadAndSocialGraphs) {
    const std::vector<std::string> names = {"luxembourg_osm.mtx", "soc-Epinions1.mtx"};
    const MatrixFiles files = findMatrixFiles(names);
    REQUIRE_MATRIX_FILES(files);
    for (std::size_t g = 0; g < names.size(); ++g) {
        const auto m = SC::read_matrix_market(files.paths[g]);
        SC::require_adjacency(m, names[g]);
        expectSameAsCpu(Graph{m.rows, m.row_offsets, m.column_indices}, 0);
    }
}

TEST_F(GpuBfs, BadArgumentsAndCaptureAreRefused) {
    const Graph g = fromEdges(3, {{0, 1}});
    DeviceArena arena;
    int *d_offsets = arena.make<int>(4), *d_neighbors = arena.make<int>(1), *d_levels = arena.make<int>(3);
    upload(0, d_offsets, g.row_offsets);
    upload(0, d_neighbors, g.neighbors);
    const std::size_t bytes = SC::bfs_temp_bytes(3);
    char *d_temp = arena.make<char>(bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    for (int source : {-1, 3})
        EXPECT_THROW(SC::bfs_levels(d_offsets, d_neighbors, 3, source, d_levels, d_temp, bytes), std::invalid_argument);
    EXPECT_THROW(SC::bfs_levels(d_offsets, d_neighbors, 3, 0, d_levels, d_temp, bytes - 1), std::invalid_argument);
    EXPECT_THROW(SC::bfs_levels(d_offsets, nullptr, 3, 0, d_levels, d_temp, bytes), std::invalid_argument);
    Stream stream;
    SC_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
    EXPECT_THROW(SC::bfs_levels(d_offsets, d_neighbors, 3, 0, d_levels, d_temp, bytes, stream.get()),
                 std::invalid_argument);
    cudaGraph_t graph = nullptr;
    SC_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
    SC_CUDA_CHECK(cudaGraphDestroy(graph));
}

}  // namespace
