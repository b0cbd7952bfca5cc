#pragma once
// Shared-memory hierarchical scan (reduce-then-scan): each block reduces its tile of
// blockDim.x * ITEMS elements to one sum; the tile sums are scanned recursively with the same
// kernels; each block then scans its tile in registers, warp shuffles and shared memory, starting
// from its tile's prefix. About 3n memory traffic; compaction as map -> scan -> scatter.
#include <stream_compaction/common.h>

#include <cstddef>

namespace StreamCompaction {
namespace Shared {

StreamCompaction::Common::PerformanceTimer &timer();

// Course interface (host pointers).
void scan(int n, int *odata, const int *idata);
// Copies the non-zero elements of idata to odata in order; returns their count.
int compact(int n, int *odata, const int *idata);

// Device API: like Naive's (device pointers, caller's temporary storage, `stream`, exceptions).
// The temporary storage holds the tile sums of every level of the recursion; scan_temp_bytes(n)
// covers the smallest block size, so it stays valid whatever block_sizes().shared is set to.
// It is 0 for n up to one tile of 32 threads. d_out may equal d_in.
std::size_t scan_temp_bytes(std::size_t n);
void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0);

// Compaction keeps the non-zero elements of d_in, in order, at the front of d_out and writes their
// count to *d_count (device memory), so nothing waits on the host. Its indices are ints: n <= INT_MAX.
std::size_t compact_temp_bytes(std::size_t n);
void compact(const int *d_in, int *d_out, int *d_count, std::size_t n, void *d_temp, std::size_t temp_bytes,
             cudaStream_t stream = 0);

}  // namespace Shared
}  // namespace StreamCompaction
