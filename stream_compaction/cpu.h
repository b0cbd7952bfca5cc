#pragma once
// CPU reference implementations, timed with the CPU timer.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace CPU {

StreamCompaction::Common::PerformanceTimer &timer();

// odata[i] = idata[0] + ... + idata[i-1]; odata[0] = 0. Sums wrap modulo 2^32.
void scan(int n, int *odata, const int *idata);

// Copies the non-zero elements of idata to odata in order; returns their count. One pass.
int compactWithoutScan(int n, int *odata, const int *idata);

// The same result through map -> scan -> scatter, the shape of the GPU algorithm.
int compactWithScan(int n, int *odata, const int *idata);

}  // namespace CPU
}  // namespace StreamCompaction
