#pragma once
// Work-efficient GPU scan (Blelloch): up-sweep and down-sweep in place over a buffer padded to a
// power of two, O(n) additions; compaction as map -> scan -> scatter.
#include <stream_compaction/common.h>

#include <cstddef>

namespace StreamCompaction {
namespace Efficient {

StreamCompaction::Common::PerformanceTimer &timer();

// Course interface (host pointers).
void scan(int n, int *odata, const int *idata);
// Copies the non-zero elements of idata to odata in order; returns their count.
int compact(int n, int *odata, const int *idata);

// Device API: like Naive's (device pointers, caller's temporary storage, `stream`, exceptions).
std::size_t scan_temp_bytes(std::size_t n);
void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0);

// Compaction keeps the non-zero elements of d_in, in order, at the front of d_out and writes their
// count to *d_count (device memory), so nothing waits on the host. Its indices are ints: n <= INT_MAX.
std::size_t compact_temp_bytes(std::size_t n);
void compact(const int *d_in, int *d_out, int *d_count, std::size_t n, void *d_temp, std::size_t temp_bytes,
             cudaStream_t stream = 0);

}  // namespace Efficient
}  // namespace StreamCompaction
