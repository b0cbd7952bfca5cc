#pragma once
// Radix sort in the course interface (host pointers, timer): the classic sort of one bit per pass
// on the single-pass stable partition, and the 8-bit Onesweep sort. The device API with every key
// and value type is radix_sort.cuh.
#include "common.h"

namespace StreamCompaction {
namespace Radix {

StreamCompaction::Common::PerformanceTimer &timer();

// Ascending, stable sort of n ints: four passes of 8-bit digits (Onesweep).
void sort(int n, int *odata, const int *idata);

// The same order by 32 stable partitions, one per bit from the lowest: the keys whose bit is 0
// first, except for the sign bit, where the negatives (bit 1) go first.
void sortClassic(int n, int *odata, const int *idata);

}  // namespace Radix
}  // namespace StreamCompaction
