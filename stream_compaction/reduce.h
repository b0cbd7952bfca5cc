#pragma once
// Reductions in four strategies, and the maximum segment sum, in the course interface (host
// pointers, timer) and as a device API for int sums (device pointers, caller's temporary storage,
// `stream`, exceptions). The strategies (ReduceStrategy) and MaxSegmentSum are in
// support/reduction.h; every type, operator and transform_reduce is in device/reduce.cuh.
#include <stream_compaction/common.h>
#include <stream_compaction/support/reduction.h>

#include <cstddef>

namespace StreamCompaction {
namespace Reduce {

StreamCompaction::Common::PerformanceTimer &timer();

// Course interface (host pointers; the timer covers the GPU work only).
// The sum of n ints by `strategy`, wrapping modulo 2^32 as int sums on the GPU do.
int sum(ReduceStrategy strategy, int n, const int *idata);
// The maximum segment sum of n ints and its segment (the chunked strategy: one launch).
MaxSegmentSum maxSegmentSum(int n, const int *idata);

// Device API.
std::size_t sum_temp_bytes(ReduceStrategy strategy, std::size_t n);
void sum(ReduceStrategy strategy, const int *d_in, int *d_sum, std::size_t n, void *d_temp, std::size_t temp_bytes,
         cudaStream_t stream = 0);

std::size_t max_segment_sum_temp_bytes(std::size_t n);
void max_segment_sum(const int *d_in, MaxSegmentSum *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                     cudaStream_t stream = 0);

}  // namespace Reduce
}  // namespace StreamCompaction
