// The merge group of the harness: sorted search (lower and upper bounds), merge of keys and of
// key-value pairs, and the inner join, each against the CPU reference (reference/merge.h) on the same
// sorted inputs.
#include <stream_compaction/reference/merge.h>
#include <stream_compaction/merge.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

static void printGpuTime() {
    printElapsedTime(SC::Merge::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
}

// Prints the first outputs and compares each with the CPU's.
static bool compareAll(long long n, const std::vector<const int *> &got, const std::vector<const int *> &expected) {
    bool ok = true;
    for (std::size_t k = 0; k < got.size() && ok; ++k) {
        printArray(n, got[k], true);
        ok = printCmpResult(n, expected[k], got[k]);
    }
    return ok;
}

// Sorted keys from 0 up by steps of 0 (half of them: runs of mean length 2), 1 or 2 (some keys
// absent from the other array).
static void genSortedKeys(std::vector<int> &keys, std::mt19937 &rng) {
    std::uniform_int_distribution<int> step(0, 3);
    int key = 0;
    for (int &k : keys) {
        const int s = step(rng);
        key += s >= 2 ? s - 1 : 0;
        k = key;
    }
}

static void mergeTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("merge")) return;
    std::printf("\n*****************\n** MERGE TESTS **\n*****************\n");
    // Two sorted arrays; a prefix of each is the non-power-of-two input. Values: uniform in [0, 50).
    std::vector<int> a(SIZE), b(SIZE), aValues(SIZE), bValues(SIZE);
    genSortedKeys(a, rng);
    genSortedKeys(b, rng);
    genArray(SIZE, aValues.data(), 50, rng);
    genArray(SIZE, bValues.data(), 50, rng);
    std::printf("    a:\n");
    printArray(SIZE, a.data(), true);
    std::printf("    b:\n");
    printArray(SIZE, b.data(), true);

    std::vector<int> cpuOut(2 * SIZE), cpuValues(2 * SIZE), out(2 * SIZE), outValues(2 * SIZE);
    for (const bool pot : {true, false}) {
        const int n = static_cast<int>(pot ? SIZE : NPOT);
        const std::string size = pot ? ", power-of-two" : ", non-power-of-two";
        // Each GPU call runs twice (the first, untimed, loads the kernels) on poisoned outputs.
        const auto twice = [&](auto call) {
            call();
            poisonArray(2 * SIZE, out.data());
            poisonArray(2 * SIZE, outValues.data());
            call();
            printGpuTime();
        };

        h.gpuTest("merge", ("sorted search, lower bounds of a in b" + size).c_str(), [&] {
            SC::CPU::lowerBound(n, cpuOut.data(), a.data(), n, b.data());
            twice([&] { SC::Merge::lowerBound(n, out.data(), a.data(), n, b.data()); });
            return compareAll(n, {out.data()}, {cpuOut.data()});
        });
        h.gpuTest("merge", ("sorted search, upper bounds of a in b" + size).c_str(), [&] {
            SC::CPU::upperBound(n, cpuOut.data(), a.data(), n, b.data());
            twice([&] { SC::Merge::upperBound(n, out.data(), a.data(), n, b.data()); });
            return compareAll(n, {out.data()}, {cpuOut.data()});
        });
        h.gpuTest("merge", ("merge keys of a and b" + size).c_str(), [&] {
            SC::CPU::mergeKeys(n, a.data(), n, b.data(), cpuOut.data());
            twice([&] { SC::Merge::mergeKeys(n, a.data(), n, b.data(), out.data()); });
            return compareAll(2LL * n, {out.data()}, {cpuOut.data()});
        });
        h.gpuTest("merge", ("merge pairs of a and b (stable)" + size).c_str(), [&] {
            SC::CPU::mergePairs(n, a.data(), aValues.data(), n, b.data(), bValues.data(), cpuOut.data(),
                                cpuValues.data());
            twice([&] {
                SC::Merge::mergePairs(n, a.data(), aValues.data(), n, b.data(), bValues.data(), out.data(),
                                      outValues.data());
            });
            return compareAll(2LL * n, {out.data(), outValues.data()}, {cpuOut.data(), cpuValues.data()});
        });
        h.gpuTest("merge", ("inner join of a and b (a indices, b indices)" + size).c_str(), [&] {
            const long long pairs = SC::CPU::innerJoin(n, a.data(), n, b.data(), 0, nullptr, nullptr);
            std::vector<int> cpuA(pairs), cpuB(pairs), gotA(pairs), gotB(pairs);
            SC::CPU::innerJoin(n, a.data(), n, b.data(), pairs, cpuA.data(), cpuB.data());
            long long got = 0;
            const auto join = [&] { got = SC::Merge::innerJoin(n, a.data(), n, b.data(), pairs, gotA.data(), gotB.data()); };
            join();
            poisonArray(pairs, gotA.data());
            poisonArray(pairs, gotB.data());
            join();
            printGpuTime();
            if (got != pairs) {
                std::printf("    expected %lld pairs, got %lld\n    FAIL COUNT \n", pairs, got);
                return false;
            }
            return compareAll(pairs, {gotA.data(), gotB.data()}, {cpuA.data(), cpuB.data()});
        });
    }
}

const RegisterTests kMergeTests(90, {"merge"}, [](Harness &h, const GroupContext &c) { mergeTests(h, c.rng); });
