#pragma once
// What a device-API call runs under, as CUB's environment overloads carry it: the stream its work
// is enqueued on, run-time tuning (block sizes, the scans' staging; the compile-time policies stay
// with the kernels, in tuning/policies.h) and the memory resource its allocations come from. Every
// call of device/ takes one as its last argument, `const CallEnvironment &env = {}`; a stream
// converts to one, so `call(..., stream)` keeps working. Nothing here is process-wide: two threads
// may call with different environments at once.
//
// Example:
//   MyPool pool;                                       // a MemoryResource of yours (memory_resource.h)
//   Tuning tuning;
//   tuning.single_pass = 512;                          // the scan's block size for this call
//   exclusive_scan(d_in, d_out, n, Sum{}, 0, CallEnvironment{stream, tuning, &pool});
#include <stream_compaction/support/memory_resource.h>

#include <cuda_runtime.h>

namespace StreamCompaction {

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

// Threads a block of each family's kernels, for one call; 0 takes the family's tuned block size
// (tuning/call_tuning.h). A call made of several families (the segmented sort's radix sort and
// scan, the flat SpMV's scan) runs each with its own field. A block size the kernels cannot take is
// refused with std::invalid_argument before anything is enqueued.
struct Tuning {
    int single_pass = 0;  // the single-pass tile kernels: scan, select, partition, by-key and segmented scans
    int radix = 0;        // the onesweep radix sort (and the segmented sort's sorts): a multiple of 32 up to 512
    int segmented = 0;    // the merge-path segmented reduce and SpMV
    int reduce = 0;       // reductions, every strategy
    ScanStaging scan_staging = ScanStaging::Auto;
};

struct CallEnvironment {
    cudaStream_t stream = nullptr;
    Tuning tuning{};
    MemoryResource *memory = nullptr;  // null: stream_ordered_memory(); the caller keeps it alive

    CallEnvironment() = default;
    // Implicit: a stream is the environment of a call that changes nothing else.
    CallEnvironment(cudaStream_t stream) noexcept : stream(stream) {}
    CallEnvironment(cudaStream_t stream, const Tuning &tuning, MemoryResource *memory = nullptr) noexcept
        : stream(stream), tuning(tuning), memory(memory) {}
    CallEnvironment(cudaStream_t stream, MemoryResource &memory) noexcept : stream(stream), memory(&memory) {}

    MemoryResource &memory_resource() const noexcept { return memory != nullptr ? *memory : stream_ordered_memory(); }
};

}  // namespace StreamCompaction
