#pragma once
// A histogram with even bins over a range, in one launch: CUB's DeviceHistogram::HistogramEven
// contract with num_bins bins (CUB's num_levels - 1). Sample x in [lower, upper) counts in bin
// floor((x - lower) * num_bins / (upper - lower)); samples outside the range, and NaN, count
// nowhere. Integer samples are binned exactly; floating-point ones in double precision (a sample
// whose bin rounds up to num_bins counts in the last bin).
//
// Example:
//   std::vector<int> samples = {0, 1, 2, 3, 9, 10, -1, 5, 5, 5};
//   auto d_samples = DeviceBuffer<int>::from_host(samples.data(), samples.size());
//   DeviceBuffer<unsigned> d_histogram(5);
//   histogram_even(d_samples.get(), samples.size(), d_histogram.get(), 5, 0, 10);  // bins [0,2) [2,4) ...
//   std::vector<unsigned> histogram(5);
//   d_histogram.copy_to_host(histogram.data(), 5);
//   if (histogram != std::vector<unsigned>{2, 2, 3, 0, 1}) return 1;   // 10 and -1 fall outside
//
// Up to 12288 bins, each block counts in shared memory and adds its counts to the output once; more
// bins cost a global atomic per sample. Counters are 32- or 64-bit integers (int, unsigned,
// unsigned long long, std::size_t), overwritten, not added to; 32-bit ones wrap past 2^32 samples
// in a bin. Samples: integers of at most 32 bits, float, double; any n (past 2^31 included). No
// temporary storage; safe to capture in a CUDA graph (a memset and a kernel).
// Samples come from a raw pointer, a thrust::device_ptr or any random-access iterator whose items
// the device can read (Thrust's counting or transform iterators: a histogram of computed samples
// with no array of them); the bounds are of the iterator's value type. Contiguous samples are read
// 16 bytes at a time, others one at a time.
// Errors: std::invalid_argument for null pointers (samples with n > 0, the histogram always),
// num_bins <= 0, lower >= upper or bounds that are not finite, all before anything is enqueued;
// cuda_error from CUDA.
#include <stream_compaction/detail/histogram/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/nvtx.h>

#include <cstddef>

namespace StreamCompaction {

template <class SampleInput, class Counter>
void histogram_even(SampleInput d_samples, std::size_t n, Counter *d_histogram, int num_bins,
                    detail::input_value_t<SampleInput> lower, detail::input_value_t<SampleInput> upper,
                    const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("histogram_even");
    detail::histogram_even("histogram_even", d_samples, n, d_histogram, num_bins, lower, upper, env.stream);
}

}  // namespace StreamCompaction
