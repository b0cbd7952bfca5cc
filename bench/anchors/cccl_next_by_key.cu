// sc_bench_cccl_next's rows for sc_bench's by-key part: CUB of the CCCL it is built against, on the
// same inputs (by_key_inputs.cuh) and sizes:
//   reduce_by_key      cub::DeviceReduce::ReduceByKey (sums)
//   unique             cub::DeviceSelect::Unique
//   run_length_encode  cub::DeviceRunLengthEncode::Encode
//   histogram_even     cub::DeviceHistogram::HistogramEven
// Checks, on outputs poisoned first: the run count and outputs equal Thrust's of the same CCCL
// (reduce_by_key, unique_copy, reduce_by_key of ones); the histogram equals one atomicAdd a sample.
#include "by_key_inputs.cuh"
#include "cccl_next_parts.h"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/iterator>
#include <cuda/std/functional>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/unique.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>

namespace bench {
namespace {

using namespace by_key_inputs;
using StreamCompaction::DeviceBuffer;

constexpr int kPoisonByte = 0xA5;

// The reference histogram: one atomicAdd a sample (every bin holds kSampleRange / bins values).
__global__ void count_bins(const int *samples, std::size_t n, unsigned *bins, int bin_count) {
    const int width = kSampleRange / bin_count;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        atomicAdd(&bins[samples[i] / width], 1u);
}

// One size's inputs (every copy of the rotation), CUB's outputs and Thrust's references (copy 0).
struct Buffers {
    DeviceBuffer<int> keys, values, samples, keys_out, values_out, reference_keys, reference_values;
    DeviceBuffer<std::size_t> count;
    DeviceBuffer<char> temp;

    Buffers(std::size_t span, std::size_t n)
        : keys(span), values(span), samples(span), keys_out(span), values_out(span), reference_keys(n),
          reference_values(std::max<std::size_t>(n, kHistogramBins[1])), count(1), temp(cub_temp_bytes(n)) {}

    // Poisons CUB's outputs (the first `elements` of each) and its count.
    void poison(std::size_t elements, cudaStream_t stream) {
        SC_CUDA_CHECK(cudaMemsetAsync(keys_out.get(), kPoisonByte, elements * sizeof(int), stream));
        SC_CUDA_CHECK(cudaMemsetAsync(values_out.get(), kPoisonByte, elements * sizeof(int), stream));
        SC_CUDA_CHECK(cudaMemsetAsync(count.get(), kPoisonByte, sizeof(std::size_t), stream));
    }

    // CUB's count and first `keys` (and `values`) outputs equal the references.
    bool matches(std::size_t runs, bool keys_compared, bool values_compared, cudaStream_t stream) const {
        const auto policy = thrust::cuda::par.on(stream);
        return read_back(count.get(), stream) == runs &&
               (!keys_compared || thrust::equal(policy, keys_out.get(), keys_out.get() + runs, reference_keys.get())) &&
               (!values_compared ||
                thrust::equal(policy, values_out.get(), values_out.get() + runs, reference_values.get()));
    }
};

void by_key_rows(const Options &options, Report &report, const std::string &name, const Size &size,
                 cudaStream_t stream) {
    const std::size_t n = size.n;
    const int items = static_cast<int>(n);
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    Buffers data(rotation.span(), n);
    make_values_and_samples(data.values.get(), data.samples.get(), rotation.span(), stream);
    Buffers *d = &data;
    const auto policy = thrust::cuda::par.on(stream);
    int *keys = data.keys.get(), *values = data.values.get();

    for (const int mean : kMeanRunLengths) {
        const std::string param = "mean " + std::to_string(mean);
        make_run_keys(keys, data.keys_out.get(), n, static_cast<unsigned>(mean), rotation, data.temp.get(),
                      data.temp.bytes(), stream);

        const std::size_t runs = static_cast<std::size_t>(
            thrust::reduce_by_key(policy, keys, keys + n, values, data.reference_keys.get(),
                                  data.reference_values.get())
                .first -
            data.reference_keys.get());
        data.poison(n, stream);
        time_row(options, report, "reduce_by_key", size, param, reduce_by_key_bytes(n, runs), name, rotation, stream,
                 [d, items, stream](std::size_t at) {
                     std::size_t bytes = d->temp.bytes();
                     SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
                         d->temp.get(), bytes, d->keys.get() + at, d->keys_out.get() + at, d->values.get() + at,
                         d->values_out.get() + at, d->count.get(), ::cuda::std::plus<>{}, items, stream));
                 },
                 [&] { return data.matches(runs, true, true, stream); });

        data.poison(n, stream);
        time_row(options, report, "unique", size, param, unique_bytes(n, runs), name, rotation, stream,
                 [d, items, stream](std::size_t at) {
                     std::size_t bytes = d->temp.bytes();
                     SC_CUDA_CHECK(cub::DeviceSelect::Unique(d->temp.get(), bytes, d->keys.get() + at,
                                                             d->keys_out.get() + at, d->count.get(), items, stream));
                 },
                 [&] { return data.matches(runs, true, false, stream); });

        thrust::reduce_by_key(policy, keys, keys + n, cuda::constant_iterator<int>(1), data.reference_keys.get(),
                              data.reference_values.get());
        data.poison(n, stream);
        time_row(options, report, "run_length_encode", size, param, run_length_encode_bytes(n, runs), name, rotation,
                 stream,
                 [d, items, stream](std::size_t at) {
                     std::size_t bytes = d->temp.bytes();
                     SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(d->temp.get(), bytes, d->keys.get() + at,
                                                                      d->keys_out.get() + at, d->values_out.get() + at,
                                                                      d->count.get(), items, stream));
                 },
                 [&] { return data.matches(runs, true, true, stream); });
    }

    for (const int bins : kHistogramBins) {
        unsigned *reference = reinterpret_cast<unsigned *>(data.reference_values.get());
        SC_CUDA_CHECK(cudaMemsetAsync(reference, 0, bins * sizeof(unsigned), stream));
        count_bins<<<fill_blocks(n), kFillThreads, 0, stream>>>(data.samples.get(), n, reference, bins);
        SC_CHECK_LAUNCH(count_bins);
        SC_CUDA_CHECK(cudaMemsetAsync(data.values_out.get(), kPoisonByte, bins * sizeof(int), stream));
        time_row(options, report, "histogram_even", size, std::to_string(bins) + " bins", histogram_bytes(n), name,
                 rotation, stream,
                 [d, items, bins, stream](std::size_t at) {
                     std::size_t bytes = d->temp.bytes();
                     SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
                         d->temp.get(), bytes, d->samples.get() + at, reinterpret_cast<unsigned *>(d->values_out.get() + at),
                         bins + 1, 0, kSampleRange, items, stream));
                 },
                 [&] {
                     return thrust::equal(policy, data.values_out.get(), data.values_out.get() + bins,
                                          data.reference_values.get());
                 });
    }
}

}  // namespace

void run_by_key_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    for_each_size(options.max_log2, [&](const Size &size) {
        std::fprintf(stderr, "[%s by-key] n=%s\n", name.c_str(), size.label.c_str());
        by_key_rows(options, report, name, size, stream);
    });
}

}  // namespace bench
