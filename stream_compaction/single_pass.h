#pragma once
// The single-pass generation in the course interface (host pointers, timer): scan, compaction and
// partition by one pass of decoupled look-back each (the stable partition adds a count pass). The
// device API with every type and operator is device/scan.cuh and device/select.cuh.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace SinglePass {

StreamCompaction::Common::PerformanceTimer &timer();

// Exclusive prefix sum of n ints.
void scan(int n, int *odata, const int *idata);

// Copies the non-zero elements of idata to odata in order; returns their count.
int compact(int n, int *odata, const int *idata);

// Stable partition around `pivot`: the elements < pivot in order, then the others in order;
// returns how many are < pivot.
int stablePartition(int n, int *odata, const int *idata, int pivot);

// Partition around `pivot` in CUB's order: the elements < pivot in order, then the others in
// reverse order (the i-th of them at odata[n - 1 - i]); returns how many are < pivot.
int partition(int n, int *odata, const int *idata, int pivot);

}  // namespace SinglePass
}  // namespace StreamCompaction
