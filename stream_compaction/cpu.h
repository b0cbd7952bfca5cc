#pragma once
// CPU reference implementations, timed with the CPU timer.
#include <stream_compaction/common.h>
#include <stream_compaction/support/reduction.h>

namespace StreamCompaction {
namespace CPU {

StreamCompaction::Common::PerformanceTimer &timer();

// odata[i] = idata[0] + ... + idata[i-1]; odata[0] = 0. Sums wrap modulo 2^32.
void scan(int n, int *odata, const int *idata);

// Copies the non-zero elements of idata to odata in order; returns their count. One pass.
int compactWithoutScan(int n, int *odata, const int *idata);

// The same result through map -> scan -> scatter, the shape of the GPU algorithm.
int compactWithScan(int n, int *odata, const int *idata);

// idata[0] + ... + idata[n-1], wrapping modulo 2^32 as int sums on the GPU do; 0 for n = 0.
int sum(int n, const int *idata);

// The maximum segment sum and its segment by Kadane's algorithm, one pass, 64-bit sums, with the
// convention of MaxSegmentSum (support/reduction.h): the empty segment [0, 0) when no segment has a
// positive sum; of the segments with the largest sum, the one that starts first, then the shortest.
MaxSegmentSum maxSegmentSum(int n, const int *idata);

}  // namespace CPU
}  // namespace StreamCompaction
