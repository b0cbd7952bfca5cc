#pragma once
// The compile-time tuning knobs of every family, in one place: items per thread live in registers,
// so they are template constants; the block sizes chosen at run time are in call_tuning.h. The
// values are the ones found best on an H100 (sm_90).
#include <cstddef>
#include <type_traits>

namespace StreamCompaction {

// Shared-memory hierarchical scan (shared.cu): items per thread, a multiple of 4 (16-byte vectors
// of ints).
constexpr int kSharedItemsPerThread = 16;

// Single-pass scan, select and partition: 16-byte vectors per thread per tile (4 ints, 2 doubles).
constexpr int kSinglePassVectorsPerThread = 4;

// A tile kernel compiled for one block size: its launch bounds promise at most `threads` threads a
// block and ask for `min_blocks_per_sm` resident blocks an SM, so the compiler budgets registers
// for that occupancy (65536 / (threads * blocks), in steps of 8). The block size set at run time
// (a call's Tuning::single_pass) runs the tuned kernel when it equals `threads`, and otherwise the
// kernel compiled for any block size (kAnyBlockSize: at most 64 registers).
struct TilePolicy {
    int threads;
    int min_blocks_per_sm;
};
constexpr TilePolicy kAnyBlockSize{1024, 1};
// The block size every tuned tile policy is compiled for (the default of Tuning::single_pass).
constexpr int kTunedTileThreads = 256;
// select_if, select_flagged, partition, stable_partition, unique: 5 blocks of 256 threads an SM (<= 48
// registers; the generic kernel needs 56-63, which leaves 4). H100, 2026-11-25, 2^28 ints kept at
// 5 / 50 / 95%: 0.697 / 0.859 / 1.016 ms with 4 blocks, 0.641 / 0.798 / 0.957 with 5, 0.649 /
// 0.807 / 0.964 with 6 (40 registers and 8-24 bytes of spills).
constexpr TilePolicy kSelectPolicy{kTunedTileThreads, 5};
// The stable partition's count pass (detail/select/kernels.cuh): threads a block, rows of 16-byte
// vectors a thread per tile, and at most this many blocks (a grid-stride loop over the tiles).
constexpr int kCountKeptThreads = 256;
constexpr int kCountKeptVectorsPerThread = 4;
constexpr unsigned kCountKeptMaxBlocks = 4096;
// Its turning round of the falses: threads a block, pairs a thread in flight, at most this many blocks.
constexpr int kReverseThreads = 256;
constexpr int kReversePairsPerThread = 4;
constexpr unsigned kReverseMaxBlocks = 1024;
// The single-pass scan: 4-byte items fit 6 blocks an SM (40 registers) as before (8 blocks, 32
// registers, were 2.5% slower on an H200); 8-byte items hold twice the bytes a tile in the same
// registers, and 8 blocks an SM (32 registers) keep more of them in flight (H100, 2026-11-25,
// int64 and double scans of 2^28: 1.956 / 1.954 ms with the generic kernel, 1.806 / 1.806).
template <class T>
constexpr TilePolicy scan_policy() {
    return {kTunedTileThreads, sizeof(T) >= 8 ? 8 : 6};
}

// The single-pass scan staged in shared memory by bulk copies (ScanStaging, call_environment.h; sm_90
// and later): 16-byte vectors a thread, consecutive (odd: see StagedTile in scan/kernels.cuh), and
// blocks an SM, which its 36 KiB tiles set (6 x 37 KiB of the H100's 228). H100, 2026-11-25, scans
// of 2^28 items, one build, against the portable kernel (int32 / float / int64 / double): portable
// 0.800 / 0.879 / 1.646 / 1.774 ms; 5 vectors 0.766 / 0.842 / 1.515 / 1.553; 7 vectors 0.756 /
// 0.810 / 1.497 / 1.515; 9 vectors 0.756 / 0.772 / 1.493 / 1.503; 11 vectors 0.755 / 0.768 / 1.492
// / 1.499. At 2^24 int32, 9 was best (0.0587 ms; 11: 0.0606; portable 0.0624). On 2026-11-26,
// against 9 vectors and 6 blocks (0.756 / 0.771 / 1.493 / 1.504 ms): 7 vectors and 7 blocks
// 0.768 / 0.812 / 1.497 / 1.521; 5 vectors and 8 blocks 0.765 / 0.842 / 1.512 / 1.556.
constexpr int kStagedScanVectorsPerThread = 9;
constexpr TilePolicy kStagedScanPolicy{kTunedTileThreads, 6};
// select_if, select_flagged and unique staged the same way (ScanStaging), in tiles of their own
// (each warp also compacts its part in place; see staged_select_kernel). H100, 2026-11-26, int32 at
// 2^28, keep 5 / 50 / 95%, against the portable select (0.606 / 0.720 / 0.880 ms in the same
// runs): 9 vectors, 6 blocks 0.521 / 0.695 / 0.882; 5 vectors 0.512 / 0.661 / 0.824; 3 vectors
// 0.584 / 0.710 / 0.887; 7 vectors and 6 blocks (40 registers) 0.471 / 0.612 / 0.778; 7 and 7
// blocks (32 registers, no spills; 28 KiB tiles, so 8 blocks do not fit) 0.465 / 0.600 / 0.766.
constexpr int kStagedSelectVectorsPerThread = 7;
constexpr TilePolicy kStagedSelectPolicy{kTunedTileThreads, 7};

// Decoupled look-back (detail/grid/tile_status.cuh): how long the warp that looks back sleeps
// (__nanosleep, ns) after publishing its tile's aggregate before it first reads its predecessors'
// status words, and between reads while one of them has published nothing yet. Reading at once and
// without pause costs the memory system more than it saves: on an H100 (2026-11-25, medians of 20,
// sleeps swept in one build), 2^28 int32 scan 0.919 -> 0.805 ms with {2500, 650} ({1245, 150}:
// 0.835; {5000, 1000}: 0.987); compaction at 5 / 50 / 95% kept 0.681 / 0.845 / 1.000 -> 0.604 /
// 0.719 / 0.883 ms with {1245, 150} ({2500, 650}: 0.742 / 0.816 / 0.877); reduce_by_key, unique
// and run-length encode 7-13% faster with {1245, 150}; the merge path's segmented reduce 5-7%
// faster with {800, 200}, 2-4% with {1245, 150}.
struct LookBackDelay {
    unsigned first_ns;
    unsigned poll_ns;
};
// The plain single-pass scan (any element size: int64 and double scans 1.798 -> 1.635 ms).
constexpr LookBackDelay kScanLookBackDelay{2500, 650};
// The other tile kernels: select, partition, the by-key family, segmented and transform scans, and
// the segmented reduce over tiles of items.
constexpr LookBackDelay kTileLookBackDelay{1245, 150};
// The merge path's segmented reduce (segmented_reduce, SpMV).
constexpr LookBackDelay kMergePathLookBackDelay{800, 200};
// A launch of fewer tiles than this many waves of resident blocks looks back without sleeping: its
// tiles run nearly all at once, and a sleep only adds latency (2^22 ints, 1.3 waves of the scan:
// 24.8 us without sleeps, 28.0 with {2500, 650}; at 2^24, 5 waves, every sleep above helps).
constexpr std::size_t kLookBackDelayMinWaves = 3;
constexpr LookBackDelay look_back_delay(LookBackDelay tuned, std::size_t tiles, std::size_t resident_blocks) {
    return tiles >= kLookBackDelayMinWaves * resident_blocks ? tuned : LookBackDelay{0, 0};
}

// Rows per tile of the transform scan and the segmented scan: twice the plain scan's, because their
// items come from several arrays loaded element by element, and more items per thread keep more
// loads in flight (8 rows: 1.1x CUB on the segmented scan, where 4 gave 0.92x).
constexpr int kTransformScanRows = 2 * kSinglePassVectorsPerThread;

// By-key scans (reduce_by_key, unique_by_key, run_length_encode): items per thread per tile, in
// rows of 16-byte vectors of keys (3 rows of 4 int keys). 12 is the most that keeps the kernel of
// 4-byte keys and values within the 64 registers of a 1024-thread launch bound without spilling
// (16 spilled 120 bytes); wider keys or values take 8. Not yet tuned on a GPU.
constexpr int kByKeyItemsPerThread = 12;
constexpr int kByKeyWideItemsPerThread = 8;
// Their tile policy: run_length_encode, whose values are all one and read from nowhere, fits 5
// blocks of 256 threads an SM (48 registers; H100, 2026-11-25, 2^28 keys in runs of mean 4 / 64:
// 1.374 / 1.180 ms with 4 blocks, 1.281 / 1.063 with 5). With a value array the kernel needs the
// 64 registers of 4 blocks: 48 spill about 100 bytes and were 18% slower.
constexpr TilePolicy by_key_policy(bool reads_values) {
    return {kTunedTileThreads, reads_values ? 4 : 5};
}

// The by-key scans staged by bulk copies (ScanStaging; sm_90 and later): 16-byte vectors of keys a
// thread, consecutive (odd: no bank conflicts), and blocks an SM, with values of the keys' size
// (reduce_by_key, unique_by_key) and without (run_length_encode). 5 vectors of 4-byte keys and
// values are 40 KiB a tile, 5 blocks in the SM's 228 KiB (48 registers). run_length_encode's tile
// holds keys and 2-byte run offsets: H100, 2026-11-26, 2^28 keys in runs of mean 4 / 64, with its
// counts in closed form (32-48 registers): 5 vectors and 6 blocks 0.771 / 0.610 ms, 5 and 7
// 0.752 / 0.588, 7 and 5 0.716 / 0.546 (CUB 0.835 / 0.722); 4 and 7, 3 and 8 were slower.
constexpr int staged_by_key_vectors(bool reads_values) {
    return reads_values ? 5 : 7;
}
constexpr TilePolicy kStagedByKeyPolicy{kTunedTileThreads, 5};

// ScanStaging::Auto (support/call_environment.h) stages a launch of at least this many tenths of a wave of
// staged tiles (the staged kernel's resident blocks); below that the portable kernel runs. H100,
// 2026-11-27, per call, median of three rounds (bench/results/experiments/h100_2026-11-27_staging_threshold.txt):
// the scan staged at 2^22 ints (455 tiles, 0.57 wave) took 23.8 us against the portable kernel's
// 26.1; reduce_by_key at 2^21 (0.62 wave) 22.6-24.0 against 24.4-26.1; run_length_encode at 2^21
// (0.44 wave) 18.5-21.0 against 22.1-23.4 and at 2^22 (0.89) 22.7-26.9 against 29.3-32.2; at 2^20
// (0.2-0.3 wave) no kernel led. select_if keeping half its items ran staged 5% slower at 2^22 (0.63
// wave) and 13% slower at 2^23 (1.27 waves, 39.4 us against 34.9): the select keeps one wave.
constexpr unsigned kStagedScanFromTenthsOfAWave = 5;
constexpr unsigned kStagedSelectFromTenthsOfAWave = 10;
constexpr unsigned kStagedByKeyFromTenthsOfAWave = 4;

// histogram_even: threads per block (a compile-time constant: its grid is sized to fill the GPU,
// not to the input), and 16-byte vectors of samples each thread has in flight per step.
constexpr int kHistogramThreads = 256;
constexpr int kHistogramVectorsInFlight = 4;

// Onesweep radix sort: keys each thread ranks and moves per tile, by key type. A tile is
// Tuning::radix * kRadixItemsPerThread<Key> keys. Swept at 512 threads (H100, 2026-11-26,
// bench/results/experiments/h100_2026-11-26_radix_items_*.csv; 6 / 8 / 12 / 16 / 24 items):
// 8-byte integers 24 (2^27 int64: 9.62 ms, 13.30 at 16), doubles 16 (11.88 ms; 12.91 at 8, 21.05
// at 24), 4-byte keys 16 (2^28 uniform: 7.84 ms, 7.80 at 12, 9.21 at 20; pairs 10.73, 11.16 at 12).
// ptxas gives some of these 127 registers (one 512-thread block an SM) and others 64 and spills.
// 1- and 2-byte keys take the 4-byte keys' count (not swept: a key a register either way).
constexpr int kRadixNarrowItemsPerThread = 16;
constexpr int kRadixWideItemsPerThread = 24;
constexpr int kRadixDoubleItemsPerThread = 16;
template <class Key>
constexpr int kRadixItemsPerThread = sizeof(Key) <= 4 ? kRadixNarrowItemsPerThread
                                     : std::is_floating_point<Key>::value ? kRadixDoubleItemsPerThread
                                                                          : kRadixWideItemsPerThread;

// Top-k by radix selection (detail/top_k/): a pass's threads a block, the blocks an SM it is
// compiled for, and keys a thread per tile (16-byte loads: 16 keys of 1 to 4 bytes, 8 of 8 bytes;
// a grid-stride loop over the tiles of a grid the GPU holds at once, the next tile's loads in
// flight while one is sifted); the chooser's threads (two of the 2,048 bins each); and the
// fraction of the input (1 / kTopKCandidateDivisor) its candidate buffers hold: the passes read
// the input again while a bin holds more. H200, 2026-12-04, 2^28 random-bit floats, the 100
// largest, two reads (before the sample): 1.018 ms at 1 block an SM (96 registers), 0.945 at 3
// (80), 0.985 at 4 (64).
constexpr int kTopKPassThreads = 256;
constexpr int kTopKPassMinBlocksPerSm = 3;
template <class Key>
constexpr int kTopKPassItems = sizeof(Key) <= 4 ? 16 : 8;
constexpr int kTopKChooserThreads = 1024;
// Keys its sample kernel reads (one block, two a thread) to set the sampled pass's threshold.
constexpr int kTopKSampleThreads = 1024;
constexpr int kTopKSamples = 2048;
constexpr unsigned kTopKCandidateDivisor = 16;
// Steps of 4 candidates a thread each block of a pass over candidates takes at least (fewer blocks
// than the grid's for a few candidates: each block adds its histogram at the end), and the chosen
// items up to which the final sort places each by counting those before it.
constexpr int kTopKCandidateSteps = 1;
constexpr unsigned kTopKRankSortItems = 512;

// Merge path (segmented reduce, SpMV): path steps per thread. Larger tiles amortize each tile's
// corners and look-back (15 was about 1.5x faster than 7 on large matrices on an H100); odd keeps
// the threads' shared-memory runs on different banks.
constexpr int kMergePathItemsPerThread = 15;

// Segmented reduce over tiles of items (detail/segmented_reduce/item_tile_reduce.cuh): threads per
// block, 16-byte vectors of consecutive values a thread, and the mean segment length (values per
// segment) from which segmented_reduce's Auto takes it rather than merge path. H100, 2026-11-26,
// 2^26 int32 in geometric segments of mean 4 / 64 / 4096: 128 threads 0.405 / 0.195 / 0.131 ms,
// 256 threads 0.425 / 0.208 / 0.133 (the same with 7 or 8 blocks an SM), 512 threads 0.461 /
// 0.225 / 0.139; 2 or 8 vectors a thread were slower at every mean. Merge path: 0.355 / 0.224 /
// 0.187.
constexpr int kItemTileThreads = 128;
constexpr int kItemTileVectors = 4;
constexpr double kItemTileMinMeanLength = 64;

// Merge path: registers per thread, few enough for 1024 threads, and for values of up to 4 bytes
// few enough that more blocks fit on an SM (40 gives 6 blocks of 256 threads), without spilling.
template <class V>
constexpr int kMergePathRegisters = sizeof(V) <= 4 ? 40 : 64;

// Vector-CSR SpMV (detail/spmv/spmv.cu): threads per block, in sub-warps of 2..32 lanes. A row of at least
// kVectorCsrVectorLoadsPerLane * 4 * lanes nonzeros is read in 16-byte vectors (4 column indices,
// 4 values): a lane then loads at least that many vectors, so the element loads that align the
// row's start and end are a small part of it; shorter rows are read element by element.
constexpr int kVectorCsrThreads = 256;
constexpr int kVectorCsrVectorLoadsPerLane = 2;
// Rows each sub-warp takes, their first loads issued together (vector_csr_kernel). H100,
// 2026-11-25, ratio to the faster cuSPARSE algorithm, Poisson 2D 2048^2 float / double: 1 row
// 0.44 / 0.65, 2 rows 0.61 / 0.84, 4 rows 0.57 / 0.90, 8 rows 0.38 / 0.50; on the SuiteSparse
// matrices 2 rows were best or within noise of it, and 4 rows lost a third on memplus (long rows
// read one after another).
constexpr int kVectorCsrRowsPerSubwarp = 2;

// SpMV's Auto (detail/spmv/plan.h, plan_spmv): vector-CSR when both bounds hold, merge path otherwise.
// - The longest row takes at most kVectorCsrMaxRowSteps steps of its sub-warp (its length over the
//   lanes, rounded up): a longer row is the launch's tail. H100, 2026-11-25, the 12 SuiteSparse
//   matrices: every one within 72 steps ran faster in vector-CSR than in merge path (1.2-4.4x the
//   faster cuSPARSE algorithm, merge path 1.0-1.7x), those of 225 steps and more slower
//   (soc-Epinions1, Oregon-2, vsp_model1: 0.2-0.9x against merge path's 1.0-1.2x).
// - At most kVectorCsrMaxNonzeros nonzeros: on the large generated matrices merge path was faster
//   in float (Poisson 2D / 3D: merge path 0.81x / 0.73x, vector-CSR 0.61x / 0.70x) and level in
//   double (0.88x / 0.79x against 0.84x / 0.95x); the small matrices' lead comes from the single
//   launch with no temporary storage.
constexpr long long kVectorCsrMaxRowSteps = 128;
constexpr long long kVectorCsrMaxNonzeros = 1LL << 22;

// Reductions (device/reduce.cuh), chunked and atomics strategies.
// Striped kernel (operators known to be commutative): 16-byte vectors each thread loads per tile,
// all issued before any is combined, so that several loads per thread are in flight (CUB's
// choice for 4-byte sums on sm_90 is the same 4 x 4 items).
constexpr int kReduceVectorsPerThread = 4;
// Order-preserving kernel (any operator, and the maximum segment sum): bytes of its own chunk each
// lane receives per step, staged through shared memory so that the global loads stay coalesced.
// The lanes' chunks lie far apart, so each piece is a separate stream for the DRAM: 256 bytes
// (16 lanes read two pieces, 512 contiguous bytes, per load instruction) took the maximum segment
// sum of 2^28 ints from 0.392 to 0.369 ms on an H100, though its registers (123, from 78) allow 2
// blocks of 256 threads an SM rather than 3; 64 bytes took 0.563 ms. With its fold reduced to a
// plain sum the kernel took 0.391 ms at 128 bytes: the pieces' size, not the fold, set its pace.
constexpr int kReducePieceBytes = 256;
// The most blocks of a chunked grid; the last-block combine's partials (temporary storage) are
// sized for it. The grid is otherwise the resident blocks per SM times the SMs (1056 for 256
// threads on an H100).
constexpr int kReduceMaxBlocks = 4096;
// Inputs of a few striped tiles (operators known to commute) take no partials in global memory and
// no ticket: up to a tile of kReduceWideBlockThreads threads, whatever the block size, are one
// block's single tile, read in one round of loads; and on sm_90 and later, up to
// kReduceClusterTilesPerBlock tiles of the block size a block are folded by one thread block
// cluster of up to kReduceClusterMaxBlocks blocks (the portable cluster size), their totals combined
// in the first block's shared memory (grid/cluster_done.cuh). H100, 2026-11-27, int sums, ten calls
// in a graph / per call against CUB: 8192 and 16384 ints (a wide block) 1.58-1.75 us / 1.63-1.80x,
// from 3.82-3.87 us / 1.23-1.35x with partials and a ticket (CUB 2.68-2.76 us in a graph); 32768,
// 65536 and 131072 (a cluster) 2.95-3.00 / 3.17-3.22 / 3.57-3.63 us, from 3.88-3.98 (CUB 2.77-2.90).
// One wide block folding 2 to 8 wide tiles in turn was slower (3.7-5.5 us in a graph), as was a
// cluster of wide blocks (4.2-4.3 us).
constexpr std::size_t kReduceWideBlockThreads = 1024;
constexpr std::size_t kReduceClusterMaxBlocks = 8;
constexpr std::size_t kReduceClusterTilesPerBlock = 4;

// Load-balancing search (device/load_balance.cuh): threads per block and merge-path steps (work
// items or segment ends) per thread; a tile is their product. Since 2026-11-26 a tile finds its
// items' segments by a running maximum of segment marks (load_balance/kernels.cuh), whose cost per
// thread hardly grows with the run: an H200 run of interval expand at 2^28 int32 outputs (uniform /
// power-law segments) took 0.625 / 0.616 ms with the merge-path walk at 256 x 7 x 4 tiles a block, and with
// the running maximum 0.610 / 0.608 at 256 x 7 x 4, 0.509 / 0.512 at 256 x 9 x 8, 0.508 / 0.510
// at 256 x 11 x 8 (0.515 / 0.518 at 4 tiles a block), 0.499 / 0.516 at 256 x 13 x 8; 2^24:
// 0.049 ms before, 0.042 at 256 x 11 x 4 or 8 (256 x 13 x 8: 0.050). Since the items are stored
// 16 bytes a thread (evict-first), shared memory sets the pace (Nsight Compute: L1/shared 90% busy,
// DRAM 62%), and a multiple of 4 lets the running maximum read and write its rows 4 at a time,
// without the 2-way bank conflicts of 16-bit rows at 11: H100, 2^28 int32 outputs, 11 -> 12
// steps took interval expand 0.508 -> 0.490 ms (82.7% of copy), 2^24 -4% to -10%.
constexpr int kLbsThreads = 256;
constexpr int kLbsItemsPerThread = 12;
// Tiles that stage more than a 8-byte segment value per step (interval_move's gather and scatter
// starts; transform_segmented_reduce's item values) take shorter runs, to fit 48 KB of shared
// memory with room for more than one block an SM.
constexpr int kLbsItemsPerThreadStaged = 7;
// Consecutive tiles per block: the block finds all their corners at once, one warp per corner
// (one tile per block, with two warps searching, wrote 45% of the copy bandwidth on an H100: the
// searches' dependent loads, not the memory, set the pace).
constexpr int kLbsTilesPerBlock = 8;
// Blocks an SM that the load-balancing search and interval expand ask their kernel's launch bounds
// for (32 registers a thread at 256 threads; load_balance/kernels.cuh). With 16-bit tile rows and
// 8 blocks, interval expand of 2^28 int32 outputs took 0.527 ms on an H100 (77% of copy), 0.557 ms
// with 6; 13 or 15 steps a thread, or 12 or 16 tiles a block, were slower at every size (then,
// with a 4-byte store an item).
constexpr int kLbsOneStoreMinBlocks = 8;
// Breadth-first search (device/bfs.cuh): a level whose frontier has at most kBfsThinFrontier
// vertices and kBfsThinEdges edges runs inside one persistent block of kBfsThinThreads threads,
// level after level without the host (thin frontiers: a launch and a wait per level would cost
// more than the level's work); wider levels go to the whole GPU. Not yet tuned on a GPU.
constexpr int kBfsThinThreads = 1024;
constexpr int kBfsThinFrontier = 4 * kBfsThinThreads;
constexpr int kBfsThinEdges = 64 * kBfsThinThreads;
// Merge and sorted search (device/merge.cuh): threads per block, and merge-path steps per thread
// for 4-byte keys; wider keys take proportionally fewer, odd so that the threads' runs in shared
// memory start on different banks. Sorted search, merged keys and merged pairs have a policy each.
// Sorted search: an H100 sweep (2026-11-24; 128..512 threads x 7..15 steps) found 256 x 15.
// Merge, with the tile of 2026-11-26 (the corner pass below for large inputs, values staged with
// the keys, the keys kept in registers through the serial merge, warp-local stores): an H100 run
// against cub::DeviceMerge of CCCL 3.0, medians of 25 alternated over three rounds, at 2^22 /
// 2^24 / 2^28 items: keys 256 x 15 with the corner pass 1.07x / 1.00x / 0.93x (searched in the
// kernel: 1.46x / 1.03x / 0.72x), 256 x 19 1.07x / 1.01x / 0.96x; 512 x 15 0.91x at 2^28, 256 x
// 23 0.86x; pairs 256 x 11 1.12x / 1.15x / 1.17x (searched: 1.38x / 1.10x / 0.91x; 256 x 15
// 0.79x at 2^28; the policy before this tile, 512 x 11, 0.84x).
constexpr int kMergeThreads = 256;
constexpr int kSortedSearchItemsPerThread4B = 15;
constexpr int kMergeKeysItemsPerThread4B = 19;
constexpr int kMergePairsThreads = 256;
constexpr int kMergePairsItemsPerThread4B = 11;
// A merge of more than a few waves of tiles first finds every tile's corners in a pass of its own (a
// thread per corner), so that a tile starts with one load instead of two warps' dependent searches
// while the rest of the block waits; those tiles have kMergePlannedThreads threads (the same steps
// a thread), half the corners of the searched tile's 256. Same H100 run (2026-11-27, against CUB
// 3.0, medians of 25 over three rounds; bench/results/experiments/h100_2026-11-27_merge_planned_tiles.txt):
// at 2^28 keys the pass and 256 x 19 tiles took 0.793 ms (0.99x), 512 x 19 tiles 0.766 (1.02x),
// launched as the pass's dependents (launch_dependent) 0.765; pairs 1.557 / 1.499 / 1.498 ms. Where
// the pass starts, the larger tiles lose up to 2% (21.0 M keys: 0.0848 / 0.0865 ms), most of which
// the dependent launch wins back (0.0856 ms; at 25.2 M keys 0.0958 / 0.0977 / 0.0949 ms).
// The pass runs above kMergeKeysCornerPassWaves / kMergePairsCornerPassWaves waves of the planned
// tiles resident at once: the searched and planned merges crossed between 21.0 M and 25.2 M keys
// (4.1 and 4.9 waves) and between 8.4 M and 12.6 M pairs (3.8 and 5.6 waves).
constexpr int kMergePlannedThreads = 512;
constexpr int kMergeKeysCornerPassWaves = 4;
constexpr int kMergePairsCornerPassWaves = 5;
template <bool Pairs>
constexpr int merge_threads() {
    return Pairs ? kMergePairsThreads : kMergeThreads;
}
template <bool Pairs>
constexpr int merge_corner_pass_waves() {
    return Pairs ? kMergePairsCornerPassWaves : kMergeKeysCornerPassWaves;
}
// Merge sort (device/merge_sort.cuh): the tile a block sorts in shared memory first (threads, keys
// a thread: both powers of two, block_merge_sort's; 16 keys of up to 4 bytes, 8 of wider ones, so
// that the tile of (key, position) stays within 48 KiB), then rounds of the merge's tiles
// (merge_threads, merge_items_per_thread) over pairs of runs after a corner pass. H200, 2026-12-04
// (sc_nvbench_merge_sort, int keys uniform at 2^24 / 2^28): the rounds in 512-thread tiles 0.937 /
// 14.60 ms, in 256-thread tiles 0.872 / 13.58 (pairs 1.608 / 27.20 against 1.487 / 25.22).
constexpr int kMergeSortTileThreads = 256;
template <class K>
constexpr int kMergeSortTileItems = sizeof(K) <= 4 ? 16 : 8;
// Threads a block of a round's corner pass (a thread per tile of the round).
constexpr int kMergeSortCornerThreads = 256;
// A policy's steps per thread for keys of type K: base * 4 / sizeof(K), at least 1, odd.
template <class K>
constexpr int items_per_thread_for(int base) {
    const int scaled = static_cast<int>(base * 4 / sizeof(K));
    const int clamped = scaled < 1 ? 1 : scaled > base ? base : scaled;
    return clamped % 2 == 0 ? clamped - 1 : clamped;
}
template <class K, bool Pairs = false>
constexpr int merge_items_per_thread() {
    return items_per_thread_for<K>(Pairs ? kMergePairsItemsPerThread4B : kMergeKeysItemsPerThread4B);
}
template <class K>
constexpr int sorted_search_items_per_thread() {
    return items_per_thread_for<K>(kSortedSearchItemsPerThread4B);
}
// Binary search of unsorted needles (lower_bound, upper_bound): one thread per needle.
constexpr int kBinarySearchThreads = 256;

}  // namespace StreamCompaction
