#pragma once
// Naive GPU scan (Hillis & Steele): one launch per level, O(n log n) additions, ping-pong buffers.
#include <stream_compaction/common.h>

#include <cstddef>

namespace StreamCompaction {
namespace Naive {

StreamCompaction::Common::PerformanceTimer &timer();

// Course interface (host pointers): exclusive prefix sum of n ints.
void scan(int n, int *odata, const int *idata);

// Device API. Bytes of temporary storage exclusive_scan needs for n elements.
std::size_t scan_temp_bytes(std::size_t n);

// Exclusive prefix sum of n ints from d_in to d_out (device pointers; d_out may equal d_in),
// enqueued on `stream`. d_temp holds at least scan_temp_bytes(n) bytes. Throws cuda_error on a
// CUDA failure and std::invalid_argument on bad arguments.
void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0);

}  // namespace Naive
}  // namespace StreamCompaction
