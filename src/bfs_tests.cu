// The bfs group of the harness: breadth-first search from vertex --bfs-source (0) on a generated power-law graph
// (SIZE / 16 vertices), on the GPU and on the CPU (one thread and every core), with the frontier
// size of each level.
#include <stream_compaction/common.h>
#include <stream_compaction/device/bfs.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/reference/bfs.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

int bfsGraphVertices() { return static_cast<int>(std::max(16LL, SIZE / 16)); }

static void bfsTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("bfs")) return;
    std::printf("\n***************\n** BFS TESTS **\n***************\n");
    const int vertices = bfsGraphVertices(), source = BFS_SOURCE;  // main checked the source
    const auto graph = SC::power_law(vertices, vertices, 1.5, 1, rng());
    std::printf("    power-law graph: %d vertices, %zu edges, source %d\n", vertices, graph.nnz(), source);
    std::vector<int> cpuLevels, cpuParallelLevels;
    h.cpuTest("bfs", "cpu bfs, one thread and every core", [&] {
        const auto start = std::chrono::steady_clock::now();
        cpuLevels = SC::CPU::bfsLevels(vertices, graph.row_offsets.data(), graph.column_indices.data(), source);
        const auto middle = std::chrono::steady_clock::now();
        cpuParallelLevels = SC::CPU::bfsLevelsParallel(vertices, graph.row_offsets.data(), graph.column_indices.data(), source);
        const auto end = std::chrono::steady_clock::now();
        printElapsedTime(std::chrono::duration<float, std::milli>(middle - start).count(), "(std::chrono Measured, one thread)");
        printElapsedTime(std::chrono::duration<float, std::milli>(end - middle).count(), "(std::chrono Measured, every core)");
        return printCmpResult(vertices, cpuLevels.data(), cpuParallelLevels.data());
    });
    h.gpuTest("bfs", "gpu bfs (thin levels in one block, wide levels load-balanced over the GPU)", [&] {
        auto d_offsets = SC::DeviceBuffer<int>::from_host(graph.row_offsets.data(), graph.row_offsets.size());
        auto d_neighbors = SC::DeviceBuffer<int>::from_host(graph.column_indices.data(), graph.nnz());
        SC::DeviceBuffer<int> d_levels(vertices);
        SC::DeviceBuffer<char> d_temp(SC::bfs_temp_bytes(vertices));
        std::vector<long long> frontier;
        SC::bfs_levels(d_offsets.get(), d_neighbors.get(), vertices, source, d_levels.get(), d_temp.get(),
                       d_temp.bytes(), SC::course_environment());
        SC::Common::PerformanceTimer timer;  // the second run, timed (the first loads the kernels)
        int levels = 0;
        SC::Common::timeGpu(timer, [&] {
            levels = SC::bfs_levels(d_offsets.get(), d_neighbors.get(), vertices, source, d_levels.get(), d_temp.get(),
                                    d_temp.bytes(), SC::course_environment(), &frontier);
        });
        printElapsedTime(timer.getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
        std::printf("    %d levels; frontier sizes:", levels);
        for (std::size_t l = 0; l < frontier.size() && l < 24; ++l) std::printf(" %lld", frontier[l]);
        std::printf(frontier.size() > 24 ? " ...\n" : "\n");
        std::vector<int> levelsOut(vertices);
        d_levels.copy_to_host(levelsOut.data(), vertices);
        if (cpuLevels.empty())
            cpuLevels = SC::CPU::bfsLevels(vertices, graph.row_offsets.data(), graph.column_indices.data(), source);
        printArray(vertices, levelsOut.data(), true);
        return printCmpResult(vertices, cpuLevels.data(), levelsOut.data());
    });
}

const RegisterTests kBfsTests(110, {"bfs"}, [](Harness &h, const GroupContext &c) { bfsTests(h, c.rng); });
