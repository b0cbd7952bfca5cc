#pragma once
// The single-pass generation in the course interface (host pointers, timer): scan, compaction and
// stable partition by one pass of decoupled look-back each. The device API with every type and
// operator is scan.cuh and select.cuh.
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
int partition(int n, int *odata, const int *idata, int pivot);

}  // namespace SinglePass
}  // namespace StreamCompaction
