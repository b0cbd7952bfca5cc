// The segmented scan group of the harness.
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/segmented.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;

// Independent of the implementations under test: unsigned sums wrap as GPU int sums do; element 0
// always starts a segment.
static std::vector<int> referenceSegmentedScan(long long n, const int *in, const int *flags, bool exclusive) {
    std::vector<int> out(n);
    unsigned acc = 0;
    for (long long i = 0; i < n; ++i) {
        if (i == 0 || flags[i]) acc = 0;
        if (exclusive) out[i] = static_cast<int>(acc);
        acc += static_cast<unsigned>(in[i]);
        if (!exclusive) out[i] = static_cast<int>(acc);
    }
    return out;
}

static void segmentedTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("segmented")) return;
    std::printf("\n**************************\n** SEGMENTED SCAN TESTS **\n**************************\n");
    std::vector<int> a(SIZE), flags(SIZE), out(SIZE);
    genArray(SIZE, a.data(), 50, rng);
    genArray(SIZE, flags.data(), 16, rng);
    for (int &f : flags) f = f == 0;  // a segment starts at about 1 element in 16
    std::printf("    values:\n");
    printArray(SIZE, a.data(), true);
    std::printf("    head flags:\n");
    printArray(SIZE, flags.data(), true);

    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const char *size = pot ? "power-of-two" : "non-power-of-two";
        for (const bool exclusive : {true, false}) {
            const std::vector<int> expected = referenceSegmentedScan(n, a.data(), flags.data(), exclusive);
            const std::string desc = std::string(exclusive ? "segmented scan" : "segmented inclusive scan") + ", " + size;
            const auto scan = exclusive ? SC::Segmented::scan : SC::Segmented::inclusiveScan;
            h.gpuTest("segmented", desc.c_str(), [&] {
                scan(static_cast<int>(n), out.data(), a.data(), flags.data());  // untimed first call: loads the kernels
                poisonArray(n, out.data());
                scan(static_cast<int>(n), out.data(), a.data(), flags.data());
                printElapsedTime(SC::Segmented::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                printArray(n, out.data(), true);
                return printCmpResult(n, expected.data(), out.data());
            });
        }
        // The same segments as offsets, one sum per segment.
        std::vector<int> offsets;
        for (long long i = 0; i < n; ++i)
            if (i == 0 || flags[i]) offsets.push_back(static_cast<int>(i));
        offsets.push_back(static_cast<int>(n));
        const int segments = static_cast<int>(offsets.size()) - 1;
        std::vector<int> expected(segments);
        for (int s = 0; s < segments; ++s) {
            unsigned sum = 0;
            for (int i = offsets[s]; i < offsets[s + 1]; ++i) sum += static_cast<unsigned>(a[i]);
            expected[s] = static_cast<int>(sum);
        }
        const std::string desc = std::string("segmented reduce (") + std::to_string(segments) + " segments), " + size;
        h.gpuTest("segmented", desc.c_str(), [&] {
            SC::Segmented::reduce(segments, out.data(), a.data(), offsets.data());  // untimed first call
            poisonArray(segments, out.data());
            SC::Segmented::reduce(segments, out.data(), a.data(), offsets.data());
            printElapsedTime(SC::Segmented::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
            printArray(segments, out.data(), true);
            return printCmpResult(segments, expected.data(), out.data());
        });
    }
}

const RegisterTests kSegmentedTests(50, {"segmented"},
                    [](Harness &h, const GroupContext &c) { segmentedTests(h, c.rng); });
