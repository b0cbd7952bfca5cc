// The by-key group of the harness: reduce-by-key, unique, unique-by-key, run-length encoding and an
// even histogram, each against the CPU reference (cpu.h) on the same input.
#include <stream_compaction/by_key.h>
#include <stream_compaction/cpu.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

// Prints the GPU time and the first `count` outputs, then the comparison of the count and of each
// output with the CPU's.
static bool compareRuns(int count, int expectedCount, const std::vector<const int *> &got,
                        const std::vector<const int *> &expected) {
    printElapsedTime(SC::ByKey::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
    bool ok = true;
    for (std::size_t k = 0; k < got.size() && ok; ++k) {
        printArray(count, got[k], true);
        ok = printCmpLenResult(count, expectedCount, expected[k], got[k]);
    }
    return ok;
}

static void byKeyTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("by-key")) return;
    std::printf("\n*******************\n** BY-KEY TESTS **\n*******************\n");
    // A new random key at about 1 item in 16: runs of mean length about 16.
    std::vector<int> keys(SIZE), values(SIZE), samples(SIZE);
    genArray(SIZE, values.data(), 50, rng);
    genArray(SIZE, samples.data(), 1100, rng);
    std::uniform_int_distribution<int> change(0, 15), key(-1000, 1000);
    for (long long i = 0; i < SIZE; ++i) keys[i] = i > 0 && change(rng) != 0 ? keys[i - 1] : key(rng);
    std::printf("    keys:\n");
    printArray(SIZE, keys.data(), true);

    std::vector<int> cpuKeys(SIZE), cpuValues(SIZE), outKeys(SIZE), outValues(SIZE);
    for (const bool pot : {true, false}) {
        const int n = static_cast<int>(pot ? SIZE : NPOT);
        const std::string size = pot ? ", power-of-two" : ", non-power-of-two";
        const auto gpu = [&](const char *what, auto run, auto reference, int outputs) {
            h.gpuTest("by-key", (what + size).c_str(), [&] {
                const int expected = reference();
                run();  // untimed first call: loads the kernels
                poisonArray(n, outKeys.data());
                poisonArray(n, outValues.data());
                const int count = run();
                std::vector<const int *> got = {outKeys.data(), outValues.data()}, want = {cpuKeys.data(), cpuValues.data()};
                got.resize(outputs);
                want.resize(outputs);
                return compareRuns(count, expected, got, want);
            });
        };
        gpu("reduce by key (sum)",
            [&] { return SC::ByKey::reduceByKey(n, outKeys.data(), outValues.data(), keys.data(), values.data()); },
            [&] { return SC::CPU::reduceByKey(n, cpuKeys.data(), cpuValues.data(), keys.data(), values.data()); }, 2);
        gpu("unique", [&] { return SC::ByKey::unique(n, outKeys.data(), keys.data()); },
            [&] { return SC::CPU::unique(n, cpuKeys.data(), keys.data()); }, 1);
        gpu("unique by key",
            [&] { return SC::ByKey::uniqueByKey(n, outKeys.data(), outValues.data(), keys.data(), values.data()); },
            [&] { return SC::CPU::uniqueByKey(n, cpuKeys.data(), cpuValues.data(), keys.data(), values.data()); }, 2);
        gpu("run-length encode",
            [&] { return SC::ByKey::runLengthEncode(n, outKeys.data(), outValues.data(), keys.data()); },
            [&] { return SC::CPU::runLengthEncode(n, cpuKeys.data(), cpuValues.data(), keys.data()); }, 2);
        // 100 bins over [0, 1000): samples of 1000 and more fall outside.
        gpu("histogram (100 even bins)",
            [&] {
                SC::ByKey::histogramEven(n, samples.data(), 100, 0, 1000, reinterpret_cast<unsigned *>(outKeys.data()));
                return 100;
            },
            [&] {
                SC::CPU::histogramEven(n, samples.data(), 100, 0, 1000, reinterpret_cast<unsigned *>(cpuKeys.data()));
                return 100;
            },
            1);
    }
}

const RegisterTests kByKeyTests(80, {"by-key"}, [](Harness &h, const GroupContext &c) { byKeyTests(h, c.rng); });
