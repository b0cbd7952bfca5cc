// The radix sort group of the harness: the classic 1-bit sort and the 8-bit Onesweep sort against
// std::sort, on random ints over the whole int range with INT_MIN and INT_MAX planted.
#include <stream_compaction/radix.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

static void radixTests(Harness &h, std::mt19937 &rng) {
    std::printf("\n**********************\n** RADIX SORT TESTS **\n**********************\n");
    std::vector<int> a(SIZE), out(SIZE);
    std::uniform_int_distribution<int> anyInt(INT_MIN, INT_MAX);
    for (int &x : a) x = anyInt(rng);
    a[0] = INT_MAX;  // NPOT >= 1: both extremes are inside the non-power-of-two input too
    a[NPOT - 1] = INT_MIN;
    printArray(SIZE, a.data(), true);

    struct GpuSort {
        const char *name;
        void (*sort)(int, int *, const int *);
    };
    const GpuSort sorts[] = {
        {"radix sort (classic 1-bit)", SC::Radix::sortClassic},
        {"radix sort (8-bit onesweep)", SC::Radix::sort},
    };
    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        std::vector<int> expected(a.begin(), a.begin() + n);
        std::sort(expected.begin(), expected.end());
        for (const GpuSort &s : sorts) {
            const std::string desc = std::string(s.name) + ", " + (pot ? "power-of-two" : "non-power-of-two");
            h.gpuTest("radix", desc.c_str(), [&] {
                s.sort(static_cast<int>(n), out.data(), a.data());  // untimed first call: loads the kernels
                poisonArray(n, out.data());
                s.sort(static_cast<int>(n), out.data(), a.data());
                printElapsedTime(SC::Radix::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                printArray(n, out.data(), true);
                return printCmpResult(n, expected.data(), out.data());
            });
        }
    }
}

const RegisterTests kRadixTests(40, {"radix"}, [](Harness &h, const GroupContext &c) { radixTests(h, c.rng); });
