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

// A setting read and written atomically (relaxed), copyable like the value it holds.
template <class T>
class Relaxed {
public:
    explicit Relaxed(T value = T{}) noexcept : value_(value) {}
    Relaxed(const Relaxed &other) noexcept : value_(other.get()) {}
    Relaxed &operator=(const Relaxed &other) noexcept { return *this = other.get(); }
    Relaxed &operator=(T value) noexcept {
        value_.store(value, std::memory_order_relaxed);
        return *this;
    }
    T get() const noexcept { return value_.load(std::memory_order_relaxed); }
    operator T() const noexcept { return get(); }

private:
    std::atomic<T> value_;
};
using BlockSize = Relaxed<int>;

// How the single-pass scan, select_if, select_flagged, unique and the by-key scans (reduce_by_key,
// unique_by_key, run_length_encode) bring their tiles in (partitions and the other tile kernels
// always load into registers). Staged: a tile is copied into shared memory by Hopper's bulk
// asynchronous copies and scanned there, in tiles larger than the threads' registers hold; it needs
// the staged kernel compiled for sm_90 or later (the binary's code for the device, whatever the
// device: a build for compute_80 JIT-compiled on an H100 runs portable), 16-byte vectors of items
// (4-, 8- and 16-byte types; by key, values of the keys' size), input (and the scan's output)
// aligned to 16 bytes, and the tuned block size.
// Portable: each thread loads its items into registers, on every GPU.
enum class ScanStaging {
    Auto,      // staged where it can run and the launch has enough staged tiles (policies.h), else portable
    Staged,    // staged wherever it can run (the tests use it on small inputs), else portable
    Portable,  // always portable: what code compiled for GPUs before sm_90 runs, forced on any
};

struct BlockSizes {
    BlockSize naive{128};        // Naive: one thread per element and level
    BlockSize efficient{128};    // Efficient: up-/down-sweep levels, and the map and scatter kernels
    BlockSize shared{256};       // Shared: the hierarchical shared-memory scan
    BlockSize single_pass{256};  // single-pass scan, compaction and partition (device/scan.cuh, device/select.cuh)
    BlockSize radix{512};        // onesweep radix sort (device/radix_sort.cuh): a multiple of 32 up to 512
    BlockSize segmented{256};    // merge-path segmented reduce and SpMV (device/segmented_reduce.cuh, detail/spmv/spmv.cu)
    // Reductions, every strategy (device/reduce.cuh, reduce.cu). On an H100 (2026-11-26) 512
    // threads took the chunked sum of 2^28 ints to 1.010x CUB (256: 1.002x), but a single block of
    // 4096 ints to 0.85x (256: 1.01x).
    BlockSize reduce{256};
    // Not a block size, but read beside single_pass at each scan launch.
    Relaxed<ScanStaging> scan_staging{ScanStaging::Auto};
};

// The process-wide settings the implementations read at each launch (block sizes and the scan's
// staging).
BlockSizes &block_sizes();

// Sets every implementation's block size. Throws std::invalid_argument unless `threads` is a
// power of two in [32, 1024].
void set_block_size(int threads);

// Returns `threads` if it is a valid block size, else throws std::invalid_argument.
int checked_block_size(int threads);

// One line on which compiled tile policy (tuning/policies.h) the single-pass kernels run at
// `threads` threads a block: the tuned ones, or the kernels compiled for any block size; and when
// the scan is staged (block_sizes().scan_staging).
std::string single_pass_policy_summary(int threads);

}  // namespace StreamCompaction
