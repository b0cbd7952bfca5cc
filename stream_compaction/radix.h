#pragma once
// Radix sort in the course interface (host pointers, timer): the classic sort of one bit per pass
// on the single-pass stable_partition, and the 8-bit Onesweep sort. The device API of the classic
// sort is below; Onesweep's, with every key and value type, is radix_sort.cuh.
#include <stream_compaction/common.h>

#include <cstddef>

namespace StreamCompaction {
namespace Radix {

StreamCompaction::Common::PerformanceTimer &timer();

// Ascending, stable sort of n ints: four passes of 8-bit digits (Onesweep).
void sort(int n, int *odata, const int *idata);

// The same order by 32 stable partitions (stable_partition, device/select.cuh), one per bit from
// the lowest: the keys whose bit is 0 first, except for the sign bit, where the negatives (bit 1)
// go first. Each pass must keep the order the earlier passes made: partition, which reverses the
// falses, would not sort.
void sortClassic(int n, int *odata, const int *idata);

// Device API of the classic sort (device pointers, caller's temporary storage, `stream`,
// exceptions): sorts d_in[0, n) into d_out. The passes alternate between d_alternate (n ints of
// scratch) and d_out, which the last one writes; d_in is only read. The three must not overlap.
std::size_t classic_sort_temp_bytes(std::size_t n);
void classic_sort_keys(const int *d_in, int *d_out, int *d_alternate, std::size_t n, void *d_temp,
                       std::size_t temp_bytes, cudaStream_t stream = 0);

}  // namespace Radix
}  // namespace StreamCompaction
