#pragma once
// Threads per block of every GPU implementation, in one place (the run-time knobs; the compile-time
// ones are in policies.h). The defaults are the values found best on an H100 by the block-size
// sweep; the harness's --block-size and the benchmark's sweep change them at run time, without
// recompiling.
//
// Threads: each launch reads its block size once, atomically, so a change made while other host
// threads enqueue work is never torn; but a temporary-storage query and the call it sizes should
// see the same block size (the single-pass and merge-path queries are sized for the smallest, so
// they are safe anyway; radix_sort_temp_bytes is not): set block sizes before starting work.
#include <atomic>
#include <string>

namespace StreamCompaction {

// An int read and written atomically (relaxed), copyable like an int.
class BlockSize {
public:
    explicit BlockSize(int threads = 0) noexcept : threads_(threads) {}
    BlockSize(const BlockSize &other) noexcept : threads_(other.get()) {}
    BlockSize &operator=(const BlockSize &other) noexcept { return *this = other.get(); }
    BlockSize &operator=(int threads) noexcept {
        threads_.store(threads, std::memory_order_relaxed);
        return *this;
    }
    int get() const noexcept { return threads_.load(std::memory_order_relaxed); }
    operator int() const noexcept { return get(); }

private:
    std::atomic<int> threads_;
};

struct BlockSizes {
    BlockSize naive{128};        // Naive: one thread per element and level
    BlockSize efficient{128};    // Efficient: up-/down-sweep levels, and the map and scatter kernels
    BlockSize shared{256};       // Shared: the hierarchical shared-memory scan
    BlockSize single_pass{256};  // single-pass scan, compaction and partition (device/scan.cuh, device/select.cuh)
    BlockSize radix{512};        // onesweep radix sort (device/radix_sort.cuh): a multiple of 32 up to 512
    BlockSize segmented{256};    // merge-path segmented reduce and SpMV (device/segmented_reduce.cuh, spmv.cu)
    BlockSize reduce{256};       // reductions, every strategy (device/reduce.cuh, reduce.cu)
};

// The process-wide settings the implementations read at each launch.
BlockSizes &block_sizes();

// Sets every implementation's block size. Throws std::invalid_argument unless `threads` is a
// power of two in [32, 1024].
void set_block_size(int threads);

// Returns `threads` if it is a valid block size, else throws std::invalid_argument.
int checked_block_size(int threads);

// One line on which compiled tile policy (tuning/policies.h) the single-pass kernels run at
// `threads` threads a block: the tuned ones, or the kernels compiled for any block size.
std::string single_pass_policy_summary(int threads);

}  // namespace StreamCompaction
