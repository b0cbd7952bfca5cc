#pragma once
// histogram_even's dispatch: argument checks, the zeroed output, the kernel (private shared-memory
// bins where they fit) and a grid that fills the GPU once.
#include <stream_compaction/detail/histogram/even_bins.cuh>
#include <stream_compaction/detail/histogram/kernels.cuh>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Bins that a block counts privately in shared memory: 48 KiB of 32-bit counts. More go straight
// to global atomics.
constexpr std::size_t kHistogramSharedBins = 48 * 1024 / sizeof(unsigned);

// A block counts at most 2^31 samples, far from its 32-bit shared counts' limit.
constexpr std::size_t kHistogramSamplesPerBlock = std::size_t{1} << 31;

template <class Sample>
void check_histogram_range(const char *name, int num_bins, Sample lower, Sample upper) {
    if (num_bins <= 0)
        throw std::invalid_argument(std::string(name) + ": num_bins is " + std::to_string(num_bins) + ", must be > 0");
    if constexpr (std::is_floating_point_v<Sample>) {
        if (!std::isfinite(lower) || !std::isfinite(upper))
            throw std::invalid_argument(std::string(name) + ": lower and upper must be finite");
    }
    if (!(lower < upper)) throw std::invalid_argument(std::string(name) + ": lower must be below upper");
}

// Blocks that fill the GPU at once (`resident`), fewer for a small input, and enough that none
// counts more than kHistogramSamplesPerBlock samples.
inline unsigned histogram_blocks(std::size_t resident, std::size_t n, std::size_t samples_per_step) {
    const std::size_t needed = (n + samples_per_step - 1) / samples_per_step;
    const std::size_t least = (n + kHistogramSamplesPerBlock - 1) / kHistogramSamplesPerBlock;
    return static_cast<unsigned>(std::max({std::min(resident, needed), least, std::size_t{1}}));
}

template <class SampleInput, class Counter, class Sample = input_value_t<SampleInput>>
void histogram_even(const char *name, SampleInput d_samples, std::size_t n, Counter *d_histogram, int num_bins,
                    Sample lower, Sample upper, cudaStream_t stream) {
    const auto samples = unwrap_input(d_samples);
    using Samples = decltype(samples);
    constexpr bool contiguous = std::is_pointer_v<Samples>;
    if constexpr (contiguous) require_device_pointers(name, n, samples, d_histogram);
    check_histogram_range(name, num_bins, lower, upper);
    if (d_histogram == nullptr) throw std::invalid_argument(std::string(name) + ": null histogram");
    using Bins = EvenBins<Sample>;
    const Bins bins = Bins::make(lower, upper, static_cast<unsigned>(num_bins));
    const bool shared = static_cast<std::size_t>(num_bins) <= kHistogramSharedBins;
    const auto kernel =
        shared ? histogram_shared_kernel<Samples, Bins, Counter> : histogram_global_kernel<Samples, Bins, Counter>;
    const std::size_t shared_bytes = shared ? num_bins * sizeof(unsigned) : 0;
    // Checked (resident_grid prepares the launch) before the output is zeroed: a configuration the
    // GPU cannot run is refused with nothing enqueued.
    const unsigned resident =
        resident_grid(reinterpret_cast<const void *>(kernel), name, kHistogramThreads, shared_bytes);
    SC_CUDA_CHECK(cudaMemsetAsync(d_histogram, 0, num_bins * sizeof(Counter), stream));
    if (n == 0) return;
    const std::size_t samples_per_step =
        kHistogramThreads * static_cast<std::size_t>(contiguous ? vector_items<Sample>() : 1) * kHistogramVectorsInFlight;
    const unsigned blocks = histogram_blocks(resident, n, samples_per_step);
    launch(kernel, name, blocks, kHistogramThreads, shared_bytes, stream, samples, n, bins, d_histogram);
}

}  // namespace detail
}  // namespace StreamCompaction
