#pragma once
// The inputs of sc_bench's by-key part, shared with sc_bench_cccl_next (which times another CCCL's
// CUB on the same data). Each program compiles it with its own CUB.
//
// Keys: a run starts at item i when index_hash(i) % mean == 0 (and at item 0), so run lengths are
// geometric with that mean; each run's key is a hash of its number. Values: index hashes in
// [0, 16). Samples: index hashes in [0, 2^20), binned over [0, 2^20), which both bin counts divide
// (so every binning formula agrees exactly).
//
// Bytes counted: what is read and written once: keys and values read and each run's outputs
// written (8n + 8 per run for reduce-by-key, 4n + 4 per run for unique, 4n + 8 per run for the
// encoding), the samples read for the histogram (4n).
#include "fill.h"
#include "report.h"
#include "sorted_inputs.cuh"
#include "timing.h"

#include <stream_compaction/support/cuda_check.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace bench {
namespace by_key_inputs {

constexpr std::uint32_t kRunSeed = 0x72756e73u;
constexpr std::uint32_t kKeySeed = 0x6b657973u;
constexpr std::uint32_t kValueSeed = 0x76616c73u;
constexpr std::uint32_t kSampleSeed = 0x68697374u;
constexpr int kMeanRunLengths[] = {4, 64};
constexpr int kHistogramBins[] = {256, 4096};
constexpr int kSampleRange = 1 << 20;

inline double reduce_by_key_bytes(std::size_t n, std::size_t runs) { return 8.0 * n + 8.0 * runs; }
inline double unique_bytes(std::size_t n, std::size_t runs) { return 4.0 * n + 4.0 * runs; }
inline double run_length_encode_bytes(std::size_t n, std::size_t runs) { return 4.0 * n + 8.0 * runs; }
inline double histogram_bytes(std::size_t n) { return 4.0 * n; }

// static: internal linkage, so that the header may be included by several files of a program.
// flags[i] = 1 where a run starts.
static __global__ void fill_run_starts(int *flags, std::size_t n, unsigned mean) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        flags[i] = i == 0 || index_hash(i, kRunSeed) % mean == 0;
}

// Run numbers (the inclusive count of starts) become hashed keys.
static __global__ void hash_run_numbers(int *keys, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        keys[i] = static_cast<int>(index_hash(static_cast<std::size_t>(keys[i]), kKeySeed));
}

// Copies copy 0 (n elements at the start) to copies 1.. of the rotation.
inline void replicate(int *pool, std::size_t n, const Rotation &rotation, cudaStream_t stream) {
    const std::size_t stride = copy_stride(n);
    for (std::size_t c = 1; c < rotation.span() / stride; ++c)
        SC_CUDA_CHECK(cudaMemcpyAsync(pool + c * stride, pool, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

// CUB's storage, at n items, for the keys' scan and for each by-key call the programs time.
inline std::size_t cub_temp_bytes(std::size_t n) {
    const int items = static_cast<int>(n);
    const int *in = nullptr;
    int *out = nullptr;
    std::size_t *count = nullptr;
    std::size_t rbk = 0, unique = 0, rle = 0, histogram = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, rbk, in, out, in, out, count, ::cuda::std::plus<>{}, items));
    SC_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, unique, in, out, count, items));
    SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, rle, in, out, out, count, items));
    SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, histogram, in, reinterpret_cast<unsigned *>(out),
                                                      kHistogramBins[1] + 1, 0, kSampleRange, items));
    return std::max({sorted_inputs::scan_temp_bytes(n), rbk, unique, rle, histogram});
}

// Keys with runs of geometric length `mean` in every copy of `keys`; `scratch` (n ints) and `temp`
// (cub_temp_bytes(n)) are overwritten.
inline void make_run_keys(int *keys, int *scratch, std::size_t n, unsigned mean, const Rotation &rotation,
                          void *temp, std::size_t temp_bytes, cudaStream_t stream) {
    fill_run_starts<<<fill_blocks(n), kFillThreads, 0, stream>>>(scratch, n, mean);
    SC_CHECK_LAUNCH(fill_run_starts);
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, scratch, keys, static_cast<int>(n), stream));
    hash_run_numbers<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys, n);
    SC_CHECK_LAUNCH(hash_run_numbers);
    replicate(keys, n, rotation, stream);
}

// Values and samples in every element of their pools (`span` ints each).
inline void make_values_and_samples(int *values, int *samples, std::size_t span, cudaStream_t stream) {
    fill_masked_hashes<<<fill_blocks(span), kFillThreads, 0, stream>>>(values, span, kValueSeed, 15u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    fill_masked_hashes<<<fill_blocks(span), kFillThreads, 0, stream>>>(samples, span, kSampleSeed,
                                                                        kSampleRange - 1u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
}

// sc_bench's by-key sizes: 2^10, 2^12, ... and 2^max_log2.
template <class Run>
void for_each_size(int max_log2, Run &&run) {
    for (int log2 = 10; log2 <= max_log2; ++log2)
        if (log2 % 2 == 0 || log2 == max_log2) run(power_of_two(log2));
}

}  // namespace by_key_inputs
}  // namespace bench
