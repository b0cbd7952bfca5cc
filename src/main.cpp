/**
 * Stream Compaction test harness: every implementation, power-of-two and non-power-of-two sizes,
 * compared with the CPU on the same random input, in the classic report format.
 * Edit SIZE here, or pass --size N / --block-size B / --seed S / --only GROUP (see --help).
 * Each GPU test calls its implementation once untimed (loading its kernels), then once timed.
 */
#include <stream_compaction/cpu.h>
#include <stream_compaction/efficient.h>
#include <stream_compaction/naive.h>
#include <stream_compaction/single_pass.h>
#include <stream_compaction/thrust.h>
#include <stream_compaction/tuning.h>

#include "cli.h"
#include "harness.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <numeric>
#include <random>
#include <vector>

long long SIZE = 1 << 24;  // feel free to change the size of array
long long NPOT = SIZE - 3;  // non-power-of-two

namespace SC = StreamCompaction;

static const std::vector<std::string> kGroups = {"cpu", "naive", "efficient", "thrust", "single-pass"};

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
    std::printf("    stable partition around %d: the elements < %d in order, then the rest in order\n", pivot, pivot);
    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        std::vector<int> expected(a.begin(), a.begin() + n);
        const long long small = std::stable_partition(expected.begin(), expected.end(),
                                                      [&](int v) { return v < pivot; }) - expected.begin();
        const std::string desc = std::string("single-pass partition, ") + (pot ? "power-of-two" : "non-power-of-two");
        h.gpuTest("single-pass", desc.c_str(), [&] {
            SC::SinglePass::partition(static_cast<int>(n), out.data(), a.data(), pivot);  // untimed: loads the kernels
            poisonArray(n, out.data());
            const int count = SC::SinglePass::partition(static_cast<int>(n), out.data(), a.data(), pivot);
            printElapsedTime(SC::SinglePass::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
            printArray(n, out.data(), true);
            if (count != small) return printCmpLenResult(count, small, expected.data(), out.data());
            return printCmpResult(n, expected.data(), out.data());
        });
    }
}

int main(int argc, char *argv[]) {
    const ParsedArgs args = parseArgs(argc, argv, SIZE, kGroups);
    if (!args.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", argv[0], args.error.c_str());
        return 2;
    }
    if (args.options.help) {
        std::printf("%s", usage(argv[0], kGroups).c_str());
        return 0;
    }
    SIZE = args.options.size;
    NPOT = SIZE - 3;
    if (args.options.blockSize > 0) SC::set_block_size(args.options.blockSize);
    const std::uint32_t seed = args.options.seedGiven ? args.options.seed : std::random_device{}();
    std::mt19937 rng(seed);

    const DeviceStatus device = probeDevice();
    std::printf("SIZE = %lld, NPOT = %lld, seed = %u (repeat with --seed %u)\n", SIZE, NPOT, seed, seed);
    const SC::BlockSizes &blocks = SC::block_sizes();
    std::printf("block sizes: naive %d, efficient %d, shared %d, single-pass %d\n", blocks.naive, blocks.efficient,
                blocks.shared, blocks.single_pass);
    std::printf("GPU: %s\n", device.usable ? device.description.c_str() : ("none (" + device.reason + ")").c_str());

    Harness h(args.options.only, device);
    try {
        scanTests(h, rng);
        compactionTests(h, rng);
        partitionTests(h, rng);
    } catch (const std::exception &e) {  // e.g. host memory for a huge --size
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return h.finish();
}
