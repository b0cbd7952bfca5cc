#pragma once
// Load-balancing search, interval expand and segmented sort in the course interface (host pointers, timer). The
// device API with any offset type, functor and value type is device/load_balance.cuh.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace LoadBalance {

StreamCompaction::Common::PerformanceTimer &timer();

// offsets: segments + 1 CSR offsets of n items (checked on the device first: std::invalid_argument
// names the first broken rule). Example: offsets 0 2 2 5, values 7 8 9 -> expand 7 7 9 9 9,
// segments 0 0 2 2 2.
void loadBalancingSearch(int n, const int *offsets, int segments, int *segmentOfItem);
void intervalExpand(int n, const int *offsets, int segments, const int *values, int *out);
// Each segment's keys sorted in place, ascending and stable (device/segmented_sort.cuh: built on
// the load-balancing search and the radix sort). Example: offsets 0 3 3 7, keys 3 1 2 9 5 5 0 ->
// 1 2 3 0 5 5 9.
void segmentedSort(int n, const int *offsets, int segments, const int *keys, int *out);

}  // namespace LoadBalance
}  // namespace StreamCompaction
