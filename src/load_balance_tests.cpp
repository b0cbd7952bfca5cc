// The load-balance group of the harness: load-balancing search, interval expand and segmented sort
// on segments of power-law sizes (many empty, a few long), against the CPU.
#include <stream_compaction/load_balance.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

// Offsets of segments whose lengths follow a Pareto law (mean about 4) and sum to exactly n.
static std::vector<int> powerLawOffsets(int n, std::mt19937 &rng) {
    std::uniform_real_distribution<double> unit(1e-9, 1.0);
    std::vector<int> offsets{0};
    while (offsets.back() < n) {
        const double length = std::floor(2.0 * std::pow(unit(rng), -1.0 / 1.5)) - 2.0;  // 0 a third of the time
        offsets.push_back(static_cast<int>(std::min<double>(n, offsets.back() + length)));
    }
    return offsets;
}

static void loadBalanceTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("load-balance")) return;
    std::printf("\n************************\n** LOAD-BALANCE TESTS **\n************************\n");
    for (const bool pot : {true, false}) {
        const int n = static_cast<int>(pot ? SIZE : NPOT);
        const std::string size = pot ? ", power-of-two" : ", non-power-of-two";
        const std::vector<int> offsets = powerLawOffsets(n, rng);
        const int segments = static_cast<int>(offsets.size()) - 1;
        std::vector<int> values(segments), cpuSegments(n), cpuExpanded(n), out(n), keys(n), cpuSorted(n);
        genArray(segments, values.data(), 50, rng);
        genArray(n, keys.data(), 1000, rng);
        for (int s = 0; s < segments; ++s)
            for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
                cpuSegments[i] = s;
                cpuExpanded[i] = values[s];
            }
        std::printf("    %d segments over %d items\n", segments, n);
        const auto twice = [&](auto call) {  // the first call, untimed, loads the kernels
            call();
            poisonArray(n, out.data());
            call();
            printElapsedTime(SC::LoadBalance::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
        };
        h.gpuTest("load-balance", ("load-balancing search, the segment of each item" + size).c_str(), [&] {
            twice([&] { SC::LoadBalance::loadBalancingSearch(n, offsets.data(), segments, out.data()); });
            printArray(n, out.data(), true);
            return printCmpResult(n, cpuSegments.data(), out.data());
        });
        h.gpuTest("load-balance", ("interval expand" + size).c_str(), [&] {
            twice([&] { SC::LoadBalance::intervalExpand(n, offsets.data(), segments, values.data(), out.data()); });
            printArray(n, out.data(), true);
            return printCmpResult(n, cpuExpanded.data(), out.data());
        });
        h.gpuTest("load-balance", ("segmented sort, each segment's keys" + size).c_str(), [&] {
            cpuSorted = keys;
            for (int s = 0; s < segments; ++s)
                std::stable_sort(cpuSorted.begin() + offsets[s], cpuSorted.begin() + offsets[s + 1]);
            twice([&] { SC::LoadBalance::segmentedSort(n, offsets.data(), segments, keys.data(), out.data()); });
            printArray(n, out.data(), true);
            return printCmpResult(n, cpuSorted.data(), out.data());
        });
    }
}

const RegisterTests kLoadBalanceTests(100, {"load-balance"},
                    [](Harness &h, const GroupContext &c) { loadBalanceTests(h, c.rng); });
