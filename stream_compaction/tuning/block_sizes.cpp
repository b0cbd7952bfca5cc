#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/policies.h>

#include <stdexcept>
#include <string>

namespace StreamCompaction {

BlockSizes &block_sizes() {
    static BlockSizes sizes;
    return sizes;
}

Tuning course_tuning() {
    const BlockSizes &sizes = block_sizes();
    Tuning tuning;
    tuning.single_pass = sizes.single_pass;
    tuning.radix = sizes.radix;
    tuning.segmented = sizes.segmented;
    tuning.reduce = sizes.reduce;
    tuning.scan_staging = sizes.scan_staging;
    return tuning;
}

CallEnvironment course_environment(cudaStream_t stream) { return CallEnvironment{stream, course_tuning()}; }

int checked_block_size(int threads) {
    const bool power_of_two = threads > 0 && (threads & (threads - 1)) == 0;
    if (!power_of_two || threads < 32 || threads > 1024)
        throw std::invalid_argument("block size must be a power of two in [32, 1024], got " +
                                    std::to_string(threads));
    return threads;
}

void set_block_size(int threads) {
    checked_block_size(threads);
    BlockSizes &sizes = block_sizes();
    sizes.naive = threads;
    sizes.efficient = threads;
    sizes.shared = threads;
    sizes.single_pass = threads;
    sizes.radix = threads < 512 ? threads : 512;  // the radix sort's tile lives in registers: 512 at most
    sizes.segmented = threads;
    sizes.reduce = threads;
}

namespace {

std::string wave_fraction(unsigned tenths) { return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10); }

std::string staging_name(ScanStaging staging) {
    switch (staging) {
    case ScanStaging::Auto:
        return "from " + wave_fraction(kStagedScanFromTenthsOfAWave) + " / " +
               wave_fraction(kStagedSelectFromTenthsOfAWave) + " / " + wave_fraction(kStagedByKeyFromTenthsOfAWave) +
               " of a wave of tiles (scan / select / by key)";
    case ScanStaging::Staged: return "always";
    case ScanStaging::Portable: return "off (portable kernel forced)";
    }
    return "unknown";
}

}  // namespace

std::string single_pass_policy_summary(int threads, ScanStaging staging) {
    const auto blocks = [](TilePolicy p) { return std::to_string(p.min_blocks_per_sm); };
    if (threads != kTunedTileThreads)
        return "compiled for any block size (at most " + std::to_string(kAnyBlockSize.threads) +
               " threads, 64 registers); tuned policies are for " + std::to_string(kTunedTileThreads) + " threads";
    return "tuned for " + std::to_string(threads) + " threads, blocks an SM: scan " + blocks(scan_policy<int>()) +
           " (4-byte) / " + blocks(scan_policy<double>()) + " (8-byte), select and partition " + blocks(kSelectPolicy) +
           ", reduce_by_key " + blocks(by_key_policy(true)) + ", run_length_encode " + blocks(by_key_policy(false)) +
           "; scans staged in shared memory by bulk copies where compiled for sm_90 and later (" +
           std::to_string(kStagedScanVectorsPerThread) + " vectors a thread, " + blocks(kStagedScanPolicy) +
           " blocks an SM; select_if, select_flagged and unique " + std::to_string(kStagedSelectVectorsPerThread) +
           " and " + blocks(kStagedSelectPolicy) + "; reduce_by_key " + std::to_string(staged_by_key_vectors(true)) +
           " and " + blocks(kStagedByKeyPolicy) + ", run_length_encode " + std::to_string(staged_by_key_vectors(false)) +
           " and " + blocks(kStagedByKeyPolicy) + "): " + staging_name(staging);
}

}  // namespace StreamCompaction
