#pragma once
// Threads per block of every GPU implementation, in one place (the run-time knobs; the compile-time
// ones are in policies.h). The defaults are the values found best on an H100 by the block-size
// sweep; the harness's --block-size and the benchmark's sweep change them at run time, without
// recompiling.

namespace StreamCompaction {

struct BlockSizes {
    int naive = 128;        // Naive: one thread per element and level
    int efficient = 128;    // Efficient: up-/down-sweep levels, and the map and scatter kernels
    int shared = 256;       // Shared: the hierarchical shared-memory scan
    int single_pass = 256;  // single-pass scan, compaction and partition (scan.cuh, select.cuh)
    int radix = 512;        // onesweep radix sort (radix_sort.cuh): a multiple of 32 up to 512
    int segmented = 256;    // merge-path segmented reduce and SpMV (segmented_scan.cuh, spmv.cu)
};

// The process-wide settings the implementations read at each launch.
BlockSizes &block_sizes();

// Sets every implementation's block size. Throws std::invalid_argument unless `threads` is a
// power of two in [32, 1024].
void set_block_size(int threads);

// Returns `threads` if it is a valid block size, else throws std::invalid_argument.
int checked_block_size(int threads);

}  // namespace StreamCompaction
