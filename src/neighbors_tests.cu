// The neighbors group of the harness: for each of SIZE / 256 generated towns in SIZE / 1024 states
// (at least 50; Pareto-sized, so a few states hold most towns, and the pairs grow with the square
// of their sizes), its 3 nearest towns of the same state, on every CPU core and on the GPU, and a
// table of a few states' first towns.
#include <stream_compaction/common.h>
#include <stream_compaction/device/grouped_neighbors.cuh>
#include <stream_compaction/reference/neighbors.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace SC = StreamCompaction;

namespace {

constexpr int kNeighbors = 3;

// "state 3 (5120 towns), town 1207 at (412.5, 98.1): 5520 (0.84) 118 (1.20) 7731 (1.43)": the
// first two towns of the three most populous states, each neighbour with its distance.
void printTable(const std::vector<SC::CPU::GroupedPoint> &towns, const std::vector<int> &nearest) {
    std::vector<int> sizes;
    for (const auto &town : towns) {
        if (town.group >= static_cast<int>(sizes.size())) sizes.resize(town.group + 1, 0);
        ++sizes[town.group];
    }
    std::vector<int> states(sizes.size());
    for (std::size_t s = 0; s < states.size(); ++s) states[s] = static_cast<int>(s);
    const std::size_t shown_states = std::min<std::size_t>(3, states.size());
    std::partial_sort(states.begin(), states.begin() + shown_states, states.end(),
                      [&](int a, int b) { return sizes[a] > sizes[b] || (sizes[a] == sizes[b] && a < b); });
    for (std::size_t s = 0; s < shown_states; ++s) {
        const int state = states[s];
        int shown = 0;
        for (std::size_t t = 0; t < towns.size() && shown < 2; ++t) {
            if (towns[t].group != state) continue;
            ++shown;
            std::printf("    state %d (%d towns), town %zu at (%.1f, %.1f):", state, sizes[state], t, towns[t].x, towns[t].y);
            for (int j = 0; j < kNeighbors; ++j) {
                const int other = nearest[t * kNeighbors + j];
                if (other < 0) std::printf(" -");
                else std::printf(" %d (%.2f)", other, std::hypot(towns[other].x - towns[t].x, towns[other].y - towns[t].y));
            }
            std::printf("\n");
        }
    }
}

}  // namespace

static void neighborsTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("neighbors")) return;
    std::printf("\n*****************************\n** NEAREST NEIGHBORS TESTS **\n*****************************\n");
    const int towns = static_cast<int>(std::max(64LL, SIZE / 256));
    const int states = static_cast<int>(std::max(50LL, SIZE / 1024));
    const std::vector<SC::CPU::GroupedPoint> points = SC::CPU::generateTowns(towns, states, rng());
    std::printf("    %d towns in %d states, the %d nearest of each in its state\n", towns, states, kNeighbors);
    std::vector<int> cpuNearest;
    h.cpuTest("neighbors", "cpu grouped nearest neighbours, every core and one thread", [&] {
        const auto start = std::chrono::steady_clock::now();
        cpuNearest = SC::CPU::groupedNearest(points, kNeighbors);
        printElapsedTime(std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count(),
                         "(std::chrono Measured, every core)");
        printTable(points, cpuNearest);
        const std::vector<int> oneThread = SC::CPU::groupedNearest(points, kNeighbors, 1);
        return printCmpResult(static_cast<long long>(oneThread.size()), oneThread.data(), cpuNearest.data());
    });
    h.gpuTest("neighbors", "gpu grouped nearest neighbours (all pairs of a state, load-balanced)", [&] {
        std::vector<float> x(towns), y(towns);
        std::vector<int> state(towns);
        for (int i = 0; i < towns; ++i) x[i] = points[i].x, y[i] = points[i].y, state[i] = points[i].group;
        auto d_x = SC::DeviceBuffer<float>::from_host(x.data(), towns);
        auto d_y = SC::DeviceBuffer<float>::from_host(y.data(), towns);
        auto d_state = SC::DeviceBuffer<int>::from_host(state.data(), towns);
        SC::DeviceBuffer<int> d_nearest(static_cast<std::size_t>(towns) * kNeighbors);
        const SC::CallEnvironment env = SC::course_environment();  // the harness's --block-size
        SC::DeviceBuffer<char> d_temp(SC::grouped_nearest_temp_bytes(towns, states, kNeighbors, env));
        const auto run = [&] {
            SC::grouped_nearest(d_x.get(), d_y.get(), d_state.get(), towns, states, kNeighbors, d_nearest.get(),
                                d_temp.get(), d_temp.bytes(), env);
        };
        run();  // the first run loads the kernels
        SC::Common::PerformanceTimer timer;
        SC::Common::timeGpu(timer, run);
        printElapsedTime(timer.getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
        std::vector<int> gpuNearest(static_cast<std::size_t>(towns) * kNeighbors);
        d_nearest.copy_to_host(gpuNearest.data(), gpuNearest.size());
        printTable(points, gpuNearest);
        if (cpuNearest.empty()) cpuNearest = SC::CPU::groupedNearest(points, kNeighbors);
        const long long bad = SC::CPU::firstNeighborMismatch(points, kNeighbors, cpuNearest, gpuNearest);
        if (bad >= 0)
            std::printf("    town %lld: got %d %d %d, expected %d %d %d\n", bad, gpuNearest[bad * kNeighbors],
                        gpuNearest[bad * kNeighbors + 1], gpuNearest[bad * kNeighbors + 2], cpuNearest[bad * kNeighbors],
                        cpuNearest[bad * kNeighbors + 1], cpuNearest[bad * kNeighbors + 2]);
        std::printf("    %s \n", bad >= 0 ? "FAIL VALUE" : "passed");
        return bad < 0;
    });
}

const RegisterTests kNeighborsTests(120, {"neighbors"},
                    [](Harness &h, const GroupContext &c) { neighborsTests(h, c.rng); });
