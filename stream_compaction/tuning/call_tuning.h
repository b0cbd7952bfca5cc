#pragma once
// The block size a call runs each family at: its environment's (support/call_environment.h,
// Tuning), or where that is 0 the family's tuned default below (found best on an H100 by the
// block-size sweep). The dispatch reads block sizes here and nowhere else; the course units' knob
// (block_sizes.h) reaches the library only through the environments they pass.
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/tuning/policies.h>

namespace StreamCompaction {

constexpr int kDefaultSinglePassThreads = kTunedTileThreads;
constexpr int kDefaultRadixThreads = 512;
constexpr int kDefaultSegmentedThreads = 256;
// On an H100 (2026-11-26) 512 threads took the chunked sum of 2^28 ints to 1.010x CUB (256:
// 1.002x), but a single block of 4096 ints to 0.85x (256: 1.01x).
constexpr int kDefaultReduceThreads = 256;

// Returns `threads` if it is a power of two in [32, 1024], else throws std::invalid_argument.
int checked_block_size(int threads);

inline int single_pass_threads(const Tuning &tuning) {
    return checked_block_size(tuning.single_pass != 0 ? tuning.single_pass : kDefaultSinglePassThreads);
}
inline int segmented_threads(const Tuning &tuning) {
    return checked_block_size(tuning.segmented != 0 ? tuning.segmented : kDefaultSegmentedThreads);
}
inline int reduce_threads(const Tuning &tuning) {
    return checked_block_size(tuning.reduce != 0 ? tuning.reduce : kDefaultReduceThreads);
}
// The radix sort's is checked by the radix family (a multiple of 32 up to its register budget).
inline int radix_threads_asked(const Tuning &tuning) {
    return tuning.radix != 0 ? tuning.radix : kDefaultRadixThreads;
}

}  // namespace StreamCompaction
