#pragma once
// histogram_even's kernels: a grid sized to fill the GPU, each thread striding over 16-byte
// vectors of samples with several loads in flight. With the bins in shared memory, each block counts
// privately (shared atomics) and adds its nonzero counts to the output once at the end; with too
// many bins for that, every sample is a global atomic.
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// counter += count, atomically, for 32- and 64-bit integer counters (signed ones wrap as unsigned).
template <class Counter>
__device__ __forceinline__ void add_to_counter(Counter *counter, unsigned count) {
    static_assert(std::is_integral_v<Counter> && (sizeof(Counter) == 4 || sizeof(Counter) == 8),
                  "histogram counters are 32- or 64-bit integers");
    if constexpr (sizeof(Counter) == 4) atomicAdd(reinterpret_cast<unsigned *>(counter), count);
    else atomicAdd(reinterpret_cast<unsigned long long *>(counter), static_cast<unsigned long long>(count));
}

// Calls f(sample) for this thread's share of samples[0, n): the few before the first 16-byte
// boundary and after the last whole vector one by one, the rest as vectors, grid-strided,
// kHistogramVectorsInFlight loads issued before any is used.
template <class Sample, class F>
__device__ __forceinline__ void for_grid_sample_vectors(const Sample *samples, std::size_t n, F f) {
    constexpr int VEC = vector_items<Sample>();
    constexpr int U = kHistogramVectorsInFlight;
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t misaligned = reinterpret_cast<std::uintptr_t>(samples) % 16 / sizeof(Sample);
    const std::size_t head = VEC > 1 && misaligned ? (VEC - misaligned < n ? VEC - misaligned : n) : 0;
    const std::size_t vectors = (n - head) / VEC;
    const std::size_t tail = head + vectors * VEC;
    for (std::size_t i = thread; i < head; i += threads) f(samples[i]);
    for (std::size_t i = tail + thread; i < n; i += threads) f(samples[i]);

    const auto *body = reinterpret_cast<const Vector<Sample, VEC> *>(samples + head);
    for (std::size_t j = thread; j < vectors; j += U * threads) {
        Vector<Sample, VEC> loaded[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (j + u * threads < vectors) loaded[u] = body[j + u * threads];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (j + u * threads < vectors)
#pragma unroll
                for (int k = 0; k < VEC; ++k) f(loaded[u].item[k]);
    }
}

// The same for any samples: an array's as above (whatever its constness), an iterator's (not
// contiguous in memory) one at a time, grid-strided.
template <class Samples, class F>
__device__ __forceinline__ void for_grid_samples(Samples samples, std::size_t n, F f) {
    if constexpr (std::is_pointer_v<Samples>) {
        for_grid_sample_vectors(samples, n, f);
    } else {
        const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
        for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += threads)
            f(samples[i]);
    }
}

// The block's private bins: the launch's dynamic shared memory, one 32-bit count per bin. A block
// counts at most 2^32 - 1 samples (the dispatch sizes the grid so).
__device__ __forceinline__ unsigned *block_bins() {
    extern __shared__ unsigned char histogram_raw[];
    return reinterpret_cast<unsigned *>(histogram_raw);
}

// Samples: a pointer to the samples, or an iterator over them.
template <class Samples, class Bins, class Counter>
__global__ void __launch_bounds__(kHistogramThreads) histogram_shared_kernel(Samples samples, std::size_t n,
                                                                            Bins bins, Counter *histogram) {
    unsigned *counts = block_bins();
    for (unsigned b = threadIdx.x; b < bins.bins; b += blockDim.x) counts[b] = 0;
    __syncthreads();
    for_grid_samples(samples, n, [&](const auto &x) {
        unsigned bin;
        if (bins.bin_of(x, bin)) atomicAdd(&counts[bin], 1u);
    });
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins.bins; b += blockDim.x)
        if (counts[b] != 0) add_to_counter(&histogram[b], counts[b]);
}

template <class Samples, class Bins, class Counter>
__global__ void __launch_bounds__(kHistogramThreads) histogram_global_kernel(Samples samples, std::size_t n,
                                                                            Bins bins, Counter *histogram) {
    for_grid_samples(samples, n, [&](const auto &x) {
        unsigned bin;
        if (bins.bin_of(x, bin)) add_to_counter(&histogram[bin], 1u);
    });
}

}  // namespace detail
}  // namespace StreamCompaction
