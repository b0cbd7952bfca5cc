// The CPU BFS references (reference/bfs.h) on small graphs whose levels are known, on the shared
// SuiteSparse graphs (facts from SOURCES.md and the issue), and one thread against many.
#include <stream_compaction/reference/bfs.h>
#include <stream_compaction/io/graph.h>
#include <stream_compaction/io/matrix_generators.h>

#include "graph_util.h"
#include "matrix_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace CPU = StreamCompaction::CPU;

namespace {

// Both references, the parallel one on several thread counts, must give `expected`.
void expectLevels(const Graph &g, int source, const std::vector<int> &expected) {
    EXPECT_EQ(CPU::bfsLevels(g.vertices, g.row_offsets.data(), g.neighbors.data(), source), expected);
    for (int threads : {1, 2, 3, 8})
        EXPECT_EQ(CPU::bfsLevelsParallel(g.vertices, g.row_offsets.data(), g.neighbors.data(), source, threads),
                  expected)
            << threads << " threads";
}

TEST(CpuBfs, OneVertex) { expectLevels(fromEdges(1, {}), 0, {0}); }

TEST(CpuBfs, IsolatedVerticesAreUnreachable) { expectLevels(fromEdges(4, {{0, 2}}), 0, {0, -1, 1, -1}); }

TEST(CpuBfs, SelfLoopsAndDuplicateEdgesChangeNothing) {
    expectLevels(fromEdges(3, {{0, 0}, {0, 1}, {0, 1}, {1, 1}, {1, 2}, {1, 2}, {2, 2}}), 0, {0, 1, 2});
}

TEST(CpuBfs, EdgesAreDirected) { expectLevels(fromEdges(3, {{1, 0}, {2, 1}}), 0, {0, -1, -1}); }

TEST(CpuBfs, PathHasOneVertexPerLevel) {
    const int n = 10000;  // past kSerialFrontier in length, never in width
    std::vector<std::pair<int, int>> edges;
    for (int v = 0; v + 1 < n; ++v) edges.push_back({v, v + 1});
    std::vector<int> expected(n);
    for (int v = 0; v < n; ++v) expected[v] = v;
    expectLevels(fromEdges(n, edges), 0, expected);
}

TEST(CpuBfs, StarFromTheCentreAndFromALeaf) {
    const int n = 3 * CPU::kSerialFrontier + 5;  // one level wide enough for every thread
    std::vector<std::pair<int, int>> edges;
    for (int v = 1; v < n; ++v) {
        edges.push_back({0, v});
        edges.push_back({v, 0});
    }
    const Graph g = fromEdges(n, edges);
    std::vector<int> fromCentre(n, 1), fromLeaf(n, 2);
    fromCentre[0] = 0;
    fromLeaf[0] = 1;
    fromLeaf[7] = 0;
    expectLevels(g, 0, fromCentre);
    expectLevels(g, 7, fromLeaf);
}

TEST(CpuBfs, ParallelMatchesSerialOnPowerLawGraphs) {
    for (std::uint64_t seed : {1, 2, 3}) {
        const auto m = StreamCompaction::power_law(50000, 50000, 1.5, 1, seed);
        for (int source : {0, 49999}) {
            const auto serial = CPU::bfsLevels(m.rows, m.row_offsets.data(), m.column_indices.data(), source);
            for (int threads : {2, 5, 16})
                EXPECT_EQ(CPU::bfsLevelsParallel(m.rows, m.row_offsets.data(), m.column_indices.data(), source,
                                                 threads),
                          serial)
                    << "seed " << seed << ", source " << source << ", " << threads << " threads";
        }
    }
}

TEST(CpuBfs, BadArgumentsAreRefused) {
    const Graph g = fromEdges(3, {{0, 1}});
    for (int source : {-1, 3})
        EXPECT_THROW(CPU::bfsLevels(3, g.row_offsets.data(), g.neighbors.data(), source), std::invalid_argument);
    EXPECT_THROW(CPU::bfsLevelsParallel(3, g.row_offsets.data(), g.neighbors.data(), 3), std::invalid_argument);
    EXPECT_THROW(CPU::bfsLevelsParallel(3, g.row_offsets.data(), g.neighbors.data(), 0, -2), std::invalid_argument);
    EXPECT_THROW(CPU::bfsLevels(0, g.row_offsets.data(), g.neighbors.data(), 0), std::invalid_argument);  // no vertex
    EXPECT_THROW(CPU::bfsLevels(3, nullptr, nullptr, 0), std::invalid_argument);
    try {
        StreamCompaction::require_adjacency(StreamCompaction::power_law(4, 6, 2.0, 1, 1), "wide.mtx");
        FAIL() << "a 4 x 6 matrix was taken for a graph";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("must be square, this one is 4 x 6"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("wide.mtx"), std::string::npos) << e.what();
    }
}

// The shared graphs: the largest distance from vertex 0 and how many vertices it reaches.
TEST(CpuBfs, SharedGraphsFromVertexZero) {
    struct Expected {
        const char *file;
        int maxLevel;
        int reached;
    };
    // luxembourg_osm: 1,035 levels (a road network); soc-Epinions1: 47,676 of 75,888 reachable.
    const Expected graphs[] = {{"luxembourg_osm.mtx", 1034, 114599}, {"soc-Epinions1.mtx", -1, 47676}};
    const MatrixFiles files = findMatrixFiles({graphs[0].file, graphs[1].file});
    REQUIRE_MATRIX_FILES(files);
    for (std::size_t g = 0; g < std::size(graphs); ++g) {
        const Expected &e = graphs[g];
        const auto m = StreamCompaction::read_matrix_market(files.paths[g]);
        StreamCompaction::require_adjacency(m, e.file);
        const auto levels = CPU::bfsLevels(m.rows, m.row_offsets.data(), m.column_indices.data(), 0);
        EXPECT_EQ(CPU::bfsLevelsParallel(m.rows, m.row_offsets.data(), m.column_indices.data(), 0, 4), levels) << e.file;
        const int reached = static_cast<int>(std::count_if(levels.begin(), levels.end(), [](int l) { return l >= 0; }));
        EXPECT_EQ(reached, e.reached) << e.file;
        if (e.maxLevel >= 0) EXPECT_EQ(*std::max_element(levels.begin(), levels.end()), e.maxLevel) << e.file;
    }
}

}  // namespace
