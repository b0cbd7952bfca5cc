// The reduction group of the harness: the sum by each strategy and the maximum segment sum, at
// both sizes, against the CPU (Kadane for the maximum segment sum).
#include <stream_compaction/cpu.h>
#include <stream_compaction/reduce.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using SC::MaxSegmentSum;

// Independent of the implementations under test: unsigned sums wrap as GPU int sums do.
static int referenceSum(long long n, const int *in) {
    return static_cast<int>(std::accumulate(in, in + n, 0u, [](unsigned s, int x) { return s + static_cast<unsigned>(x); }));
}

// Independent of Kadane: the segment [b, e) has the sum P[e] - P[b] of the prefix sums, so the
// best segment ending at e starts at the smallest P[b], b < e (the earliest of equal ones); the
// empty segment [0, 0) stands until a positive sum beats it.
static MaxSegmentSum referenceMaxSegmentSum(long long n, const int *in) {
    MaxSegmentSum best{0, 0, 0};
    long long prefix = 0, lowest = 0;
    std::size_t lowest_at = 0;
    for (long long e = 1; e <= n; ++e) {
        prefix += in[e - 1];
        if (prefix - lowest > best.sum) best = {prefix - lowest, lowest_at, static_cast<std::size_t>(e)};
        if (prefix < lowest) {
            lowest = prefix;
            lowest_at = static_cast<std::size_t>(e);
        }
    }
    return best;
}

static bool printCmpSum(int expected, int got) {
    std::printf("    sum = %d\n", got);
    if (got != expected) std::printf("    expected %d\n", expected);
    std::printf("    %s \n", got != expected ? "FAIL VALUE" : "passed");
    return got == expected;
}

static bool printCmpSegment(const MaxSegmentSum &expected, const MaxSegmentSum &got) {
    std::printf("    mss = %lld over [%zu, %zu)\n", got.sum, got.begin, got.end);
    if (got != expected) std::printf("    expected %lld over [%zu, %zu)\n", expected.sum, expected.begin, expected.end);
    std::printf("    %s \n", got != expected ? "FAIL VALUE" : "passed");
    return got == expected;
}

static void reduceTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("reduce") && !h.selected("cpu")) return;
    std::printf("\n*********************\n** REDUCTION TESTS **\n*********************\n");
    std::vector<int> a(SIZE);
    genArray(SIZE, a.data(), 50, rng);
    printArray(SIZE, a.data(), true);

    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const char *size = pot ? "power-of-two" : "non-power-of-two";
        const int expected = referenceSum(n, a.data());
        h.cpuTest("cpu", (std::string("cpu sum, ") + size).c_str(), [&] {
            const int got = SC::CPU::sum(static_cast<int>(n), a.data());
            printElapsedTime(SC::CPU::timer().getCpuElapsedTimeForPreviousOperation(), "(std::chrono Measured)");
            return printCmpSum(expected, got);
        });
        for (const SC::ReduceStrategy strategy : SC::kReduceStrategies) {
            const std::string desc = std::string(SC::reduce_strategy_name(strategy)) + " reduce (sum), " + size;
            h.gpuTest("reduce", desc.c_str(), [&] {
                SC::Reduce::sum(strategy, static_cast<int>(n), a.data());  // untimed first call: loads the kernels
                const int got = SC::Reduce::sum(strategy, static_cast<int>(n), a.data());
                printElapsedTime(SC::Reduce::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                return printCmpSum(expected, got);
            });
        }
    }

    // Values in [-50, 50]: the best segment is long, but not the whole array.
    std::vector<int> b(SIZE);
    genArray(SIZE, b.data(), 101, rng);
    for (int &x : b) x -= 50;
    std::printf("    values in [-50, 50] for the maximum segment sum:\n");
    printArray(SIZE, b.data(), true);
    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const char *size = pot ? "power-of-two" : "non-power-of-two";
        h.cpuTest("cpu", (std::string("cpu max segment sum (Kadane), ") + size).c_str(), [&] {
            const MaxSegmentSum got = SC::CPU::maxSegmentSum(static_cast<int>(n), b.data());
            printElapsedTime(SC::CPU::timer().getCpuElapsedTimeForPreviousOperation(), "(std::chrono Measured)");
            return printCmpSegment(referenceMaxSegmentSum(n, b.data()), got);
        });
        const MaxSegmentSum kadane = SC::CPU::maxSegmentSum(static_cast<int>(n), b.data());
        h.gpuTest("reduce", (std::string("max segment sum (chunked map-reduce), ") + size).c_str(), [&] {
            SC::Reduce::maxSegmentSum(static_cast<int>(n), b.data());  // untimed first call: loads the kernels
            const MaxSegmentSum got = SC::Reduce::maxSegmentSum(static_cast<int>(n), b.data());
            printElapsedTime(SC::Reduce::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
            return printCmpSegment(kadane, got);
        });
    }
}

const RegisterTests kReduceTests(70, {"cpu", "reduce"},
                    [](Harness &h, const GroupContext &c) { reduceTests(h, c.rng); });
