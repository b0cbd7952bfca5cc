/**
 * Stream Compaction test harness: every implementation, power-of-two and non-power-of-two sizes,
 * compared with the CPU on the same random input, in the classic report format.
 * Edit SIZE here, or pass --size N / --block-size B / --seed S / --only GROUP (see --help).
 * Each GPU test calls its implementation once untimed (loading its kernels), then once timed.
 */
#include <stream_compaction/tuning/block_sizes.h>

#include "cli.h"
#include "harness.h"
#include "test_groups.h"

#include <cstdio>
#include <exception>
#include <random>
#include <vector>

long long SIZE = 1 << 24;  // feel free to change the size of array
long long NPOT = SIZE - 3;  // non-power-of-two

namespace SC = StreamCompaction;

int main(int argc, char *argv[]) {
    const ParsedArgs args = parseArgs(argc, argv, SIZE, kTestGroups);
    if (!args.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", argv[0], args.error.c_str());
        return 2;
    }
    if (args.options.help) {
        std::printf("%s", usage(argv[0], kTestGroups).c_str());
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
    std::printf("block sizes: naive %d, efficient %d, shared %d, single-pass %d, radix %d, segmented %d\n",
                blocks.naive, blocks.efficient, blocks.shared, blocks.single_pass, blocks.radix, blocks.segmented);
    std::printf("GPU: %s\n", device.usable ? device.description.c_str() : ("none (" + device.reason + ")").c_str());

    Harness h(args.options.only, device);
    try {
        scanTests(h, rng);
        compactionTests(h, rng);
        partitionTests(h, rng);
        radixTests(h, rng);
        segmentedTests(h, rng);
        spmvTests(h, rng, args.options.matrixPath);
    } catch (const std::exception &e) {  // e.g. host memory for a huge --size
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return h.finish();
}
