/**
 * Stream Compaction test harness: every implementation, power-of-two and non-power-of-two sizes,
 * compared with the CPU on the same random input, in the classic report format.
 * Edit SIZE here, or pass --size N / --block-size B / --seed S / --only GROUP / --scan-staging MODE (see --help).
 * Each GPU test calls its implementation once untimed (loading its kernels), then once timed.
 * Exit codes: see HarnessExit in harness.h (0 passed, 1 failed, 2 usage, 3 a group asked for is not in
 * this build, 4 no GPU code for the device in this binary, 77 GPU tests skipped).
 */
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "cli.h"
#include "harness.h"
#include "test_groups.h"

#include <cstdio>
#include <exception>
#include <optional>
#include <random>
#include <string>
#include <vector>

long long SIZE = 1 << 24;  // feel free to change the size of array
int BFS_SOURCE = 0;        // the bfs group's source vertex (--bfs-source)
long long NPOT = SIZE - 3;  // non-power-of-two

namespace SC = StreamCompaction;

// The --matrix file, read and validated; on failure the one-line reason goes to `error`. A file
// that cannot be used is a mistake on the command line, so it is found before any test runs.
static std::optional<SC::CsrMatrix<double>> loadMatrix(const std::string &path, std::string &error) {
    try {
        SC::CsrMatrix<double> matrix = SC::read_matrix_market(path);
        SC::validate_csr(matrix);
        return matrix;
    } catch (const SC::matrix_market_error &e) {  // "line N: why" (the path is already in the prefix)
        error = (e.line() > 0 ? "line " + std::to_string(e.line()) + ": " : std::string()) + e.message();
    } catch (const std::exception &e) {  // validate_csr's std::invalid_argument
        error = e.what();
    }
    return std::nullopt;
}

int main(int argc, char *argv[]) {
    const ParsedArgs args = parseArgs(argc, argv, SIZE, testGroupNames());
    if (!args.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", argv[0], args.error.c_str());
        return kExitUsage;
    }
    if (args.options.help) {
        std::printf("%s", usage(argv[0], testGroupNames()).c_str());
        return kExitPassed;
    }
    const std::string notBuilt = notBuiltError(args.options.only, groupsNotBuilt());
    if (!notBuilt.empty()) {
        std::fprintf(stderr, "%s: %s\n", argv[0], notBuilt.c_str());
        return kExitNotBuilt;
    }
    std::optional<SC::CsrMatrix<double>> fileMatrix;
    if (!args.options.matrixPath.empty()) {
        std::string error;
        fileMatrix = loadMatrix(args.options.matrixPath, error);
        if (!fileMatrix) {
            std::fprintf(stderr, "%s: --matrix %s: %s\n", argv[0], args.options.matrixPath.c_str(), error.c_str());
            return kExitUsage;
        }
    }
    SIZE = args.options.size;
    NPOT = SIZE - 3;
    BFS_SOURCE = args.options.bfsSource;
    if (BFS_SOURCE >= bfsGraphVertices()) {
        std::fprintf(stderr, "%s: --bfs-source %d is not a vertex of the bfs group's graph (%d vertices at --size %lld)\n",
                     argv[0], BFS_SOURCE, bfsGraphVertices(), SIZE);
        return kExitUsage;
    }
    if (args.options.blockSize > 0) SC::set_block_size(args.options.blockSize);
    if (args.options.scanStaging == "staged") SC::block_sizes().scan_staging = SC::ScanStaging::Staged;
    if (args.options.scanStaging == "portable") SC::block_sizes().scan_staging = SC::ScanStaging::Portable;
    const std::uint32_t seed = args.options.seedGiven ? args.options.seed : std::random_device{}();
    std::mt19937 rng(seed);

    const DeviceStatus device = StreamCompaction::probe_device();
    if (device.usable && !device.no_code_for_device.empty()) {  // every GPU test would fail: say why once
        std::fprintf(stderr, "%s: %s\n", argv[0], device.no_code_for_device.c_str());
        return kExitNoCodeForDevice;
    }
    std::printf("SIZE = %lld, NPOT = %lld, seed = %u (repeat with --seed %u)\n", SIZE, NPOT, seed, seed);
    const SC::BlockSizes &blocks = SC::block_sizes();
    std::printf("block sizes: naive %d, efficient %d, shared %d, single-pass %d, radix %d, segmented %d, reduce %d\n",
                int(blocks.naive), int(blocks.efficient), int(blocks.shared), int(blocks.single_pass), int(blocks.radix),
                int(blocks.segmented), int(blocks.reduce));  // int(): BlockSize is a class, which printf's ... cannot take
    std::printf("single-pass tile kernels: %s\n",
                SC::single_pass_policy_summary(blocks.single_pass, blocks.scan_staging).c_str());
    std::printf("GPU: %s\n", device.usable ? device.description.c_str() : ("none (" + device.reason + ")").c_str());

    Harness h(args.options.only, device, groupsNotBuilt());
    try {
        const GroupContext context{rng, fileMatrix, args.options.matrixPath};
        for (const TestRunner &runner : testRunners()) runner.run(h, context);
    } catch (const std::exception &e) {  // e.g. host memory for a huge --size
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return kExitFailed;
    }
    return h.finish();
}
