// The scan, compaction and partition groups of the harness.
#include <stream_compaction/cpu.h>
#include <stream_compaction/efficient.h>
#include <stream_compaction/naive.h>
#include <stream_compaction/shared.h>
#include <stream_compaction/single_pass.h>
#include <stream_compaction/thrust.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

// Independent of the implementations under test: unsigned sums wrap as GPU int sums do.
static std::vector<int> referenceScan(long long n, const int *in) {
    std::vector<unsigned> sums(n);
    std::exclusive_scan(in, in + n, sums.begin(), 0u);
    return std::vector<int>(sums.begin(), sums.end());
}

static std::vector<int> referenceCompact(long long n, const int *in) {
    std::vector<int> kept;
    std::copy_if(in, in + n, std::back_inserter(kept), [](int v) { return v != 0; });
    return kept;
}

// Runs a GPU scan through the course interface and compares it with `expected`.
template <class Scan, class Timer>
static bool checkGpuScan(long long n, const int *in, std::vector<int> &out, const std::vector<int> &expected,
                         Scan scan, Timer &timer) {
    scan(static_cast<int>(n), out.data(), in);  // untimed first call: loads the kernels
    poisonArray(n, out.data());
    scan(static_cast<int>(n), out.data(), in);
    printElapsedTime(timer.getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
    printArray(n, out.data(), true);
    return printCmpResult(n, expected.data(), out.data());
}

static void scanTests(Harness &h, std::mt19937 &rng) {
    std::printf("\n****************\n** SCAN TESTS **\n****************\n");
    std::vector<int> a(SIZE), out(SIZE);
    genArray(SIZE - 1, a.data(), 50, rng);
    a[SIZE - 1] = 0;  // leave a 0 at the end to test that edge case
    printArray(SIZE, a.data(), true);
    const std::vector<int> expectPot = referenceScan(SIZE, a.data());
    const std::vector<int> expectNpot = referenceScan(NPOT, a.data());

    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const std::vector<int> &expected = pot ? expectPot : expectNpot;
        const std::string desc = std::string("cpu scan, ") + (pot ? "power-of-two" : "non-power-of-two");
        h.cpuTest("cpu", desc.c_str(), [&] {
            poisonArray(n, out.data());
            SC::CPU::scan(static_cast<int>(n), out.data(), a.data());
            printElapsedTime(SC::CPU::timer().getCpuElapsedTimeForPreviousOperation(), "(std::chrono Measured)");
            printArray(n, out.data(), true);
            return printCmpResult(n, expected.data(), out.data());
        });
    }
    struct GpuScan {
        const char *group;
        const char *name;
        void (*scan)(int, int *, const int *);
        SC::Common::PerformanceTimer &(*timer)();
    };
    const GpuScan scans[] = {
        {"naive", "naive scan", SC::Naive::scan, SC::Naive::timer},
        {"efficient", "work-efficient scan", SC::Efficient::scan, SC::Efficient::timer},
        {"thrust", "thrust scan", SC::Thrust::scan, SC::Thrust::timer},
        {"shared", "shared-memory scan", SC::Shared::scan, SC::Shared::timer},
        {"single-pass", "single-pass scan", SC::SinglePass::scan, SC::SinglePass::timer},
    };
    for (const GpuScan &s : scans) {
        for (const bool pot : {true, false}) {
            const long long n = pot ? SIZE : NPOT;
            const std::string desc = std::string(s.name) + ", " + (pot ? "power-of-two" : "non-power-of-two");
            h.gpuTest(s.group, desc.c_str(), [&] {
                return checkGpuScan(n, a.data(), out, pot ? expectPot : expectNpot, s.scan, s.timer());
            });
        }
    }
}

static void compactionTests(Harness &h, std::mt19937 &rng) {
    std::printf("\n*****************************\n** STREAM COMPACTION TESTS **\n*****************************\n");
    std::vector<int> a(SIZE), out(SIZE);
    genArray(SIZE - 1, a.data(), 4, rng);  // about a quarter zeros
    a[SIZE - 1] = 0;
    printArray(SIZE, a.data(), true);

    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const std::vector<int> expected = referenceCompact(n, a.data());
        const char *size = pot ? "power-of-two" : "non-power-of-two";
        const auto cpuCompact = [&](const char *variant, int (*compact)(int, int *, const int *)) {
            const std::string desc = std::string("cpu compact ") + variant + ", " + size;
            h.cpuTest("cpu", desc.c_str(), [&] {
                poisonArray(n, out.data());
                const int count = compact(static_cast<int>(n), out.data(), a.data());
                printElapsedTime(SC::CPU::timer().getCpuElapsedTimeForPreviousOperation(), "(std::chrono Measured)");
                printArray(count, out.data(), true);
                return printCmpLenResult(count, expected.size(), expected.data(), out.data());
            });
        };
        cpuCompact("without scan", SC::CPU::compactWithoutScan);
        cpuCompact("with scan", SC::CPU::compactWithScan);
        struct GpuCompact {
            const char *group;
            const char *name;
            int (*compact)(int, int *, const int *);
            SC::Common::PerformanceTimer &(*timer)();
        };
        const GpuCompact compactions[] = {
            {"efficient", "work-efficient compact", SC::Efficient::compact, SC::Efficient::timer},
            {"shared", "shared-memory compact", SC::Shared::compact, SC::Shared::timer},
            {"single-pass", "single-pass compact", SC::SinglePass::compact, SC::SinglePass::timer},
        };
        for (const GpuCompact &c : compactions) {
            const std::string desc = std::string(c.name) + ", " + size;
            h.gpuTest(c.group, desc.c_str(), [&] {
                c.compact(static_cast<int>(n), out.data(), a.data());  // untimed first call: loads the kernels
                poisonArray(n, out.data());
                const int count = c.compact(static_cast<int>(n), out.data(), a.data());
                printElapsedTime(c.timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                printArray(count, out.data(), true);
                return printCmpLenResult(count, expected.size(), expected.data(), out.data());
            });
        }
    }
}

static void partitionTests(Harness &h, std::mt19937 &rng) {
    std::printf("\n*********************\n** PARTITION TESTS **\n*********************\n");
    std::vector<int> a(SIZE), out(SIZE);
    genArray(SIZE, a.data(), 50, rng);
    printArray(SIZE, a.data(), true);
    const int pivot = 25;
    const auto small = [&](int v) { return v < pivot; };
    std::printf("    around %d: the elements < %d in order, then the rest in order (stable) or reversed (partition)\n",
                pivot, pivot);
    struct GpuPartition {
        const char *name;
        bool stable;  // the rest in order; otherwise in reverse order (CUB's DevicePartition::If)
        int (*partition)(int, int *, const int *, int);
    };
    const GpuPartition partitions[] = {
        {"single-pass stable partition", true, SC::SinglePass::stablePartition},
        {"single-pass partition", false, SC::SinglePass::partition},
    };
    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        std::vector<int> stable(a.begin(), a.begin() + n);
        const long long trues = std::stable_partition(stable.begin(), stable.end(), small) - stable.begin();
        std::vector<int> reversed = stable;
        std::reverse(reversed.begin() + trues, reversed.end());  // the i-th false at n - 1 - i
        for (const GpuPartition &p : partitions) {
            const std::vector<int> &expected = p.stable ? stable : reversed;
            const std::string desc = std::string(p.name) + ", " + (pot ? "power-of-two" : "non-power-of-two");
            h.gpuTest("single-pass", desc.c_str(), [&] {
                p.partition(static_cast<int>(n), out.data(), a.data(), pivot);  // untimed: loads the kernels
                poisonArray(n, out.data());
                const int count = p.partition(static_cast<int>(n), out.data(), a.data(), pivot);
                printElapsedTime(SC::SinglePass::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                printArray(n, out.data(), true);
                if (count != trues) return printCmpLenResult(count, trues, expected.data(), out.data());
                return printCmpResult(n, expected.data(), out.data());
            });
        }
    }
}

const RegisterTests kScanTests(10, {"cpu", "naive", "efficient", "thrust", "shared", "single-pass"},
                    [](Harness &h, const GroupContext &c) { scanTests(h, c.rng); });
const RegisterTests kCompactionTests(20, {"cpu", "efficient", "shared", "single-pass"},
                    [](Harness &h, const GroupContext &c) { compactionTests(h, c.rng); });
const RegisterTests kPartitionTests(30, {"single-pass"},
                    [](Harness &h, const GroupContext &c) { partitionTests(h, c.rng); });
