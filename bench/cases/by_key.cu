// sc_bench's by-key part: reduce-by-key (int32 keys, int32 sums), unique, run-length encoding
// (int32 items) at mean run lengths 4 and 64, and an even histogram of int32 samples with 256 and
// 4096 bins, the project's against CUB (the anchor) at 2^10 ... 2^max_log2.
//
// Keys: a run starts at item i when index_hash(i) % mean == 0 (and at item 0), so run lengths are
// geometric with that mean; each run's key is a hash of its number. Values: index hashes in
// [0, 16). Samples: index hashes in [0, 2^20), binned over [0, 2^20), which both bin counts divide
// (so every binning formula agrees exactly).
//
// Bytes counted: what is read and written once: keys and values read and each run's outputs
// written (8n + 8 per run for reduce-by-key, 4n + 4 per run for unique, 4n + 8 per run for the
// encoding), the samples read for the histogram (4n).
#include "cases.h"
#include "fill.h"

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/block_sizes.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {
namespace {

using StreamCompaction::DeviceBuffer;

constexpr std::uint32_t kRunSeed = 0x72756e73u;
constexpr std::uint32_t kKeySeed = 0x6b657973u;
constexpr std::uint32_t kValueSeed = 0x76616c73u;
constexpr std::uint32_t kSampleSeed = 0x68697374u;
constexpr int kMeanRunLengths[] = {4, 64};
constexpr int kHistogramBins[] = {256, 4096};
constexpr int kSampleRange = 1 << 20;
constexpr int kPoisonByte = 0xA5;

// flags[i] = 1 where a run starts.
__global__ void fill_run_starts(int *flags, std::size_t n, unsigned mean) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        flags[i] = i == 0 || index_hash(i, kRunSeed) % mean == 0;
}

// Run numbers (the inclusive count of starts) become hashed keys.
__global__ void hash_run_numbers(int *keys, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        keys[i] = static_cast<int>(index_hash(static_cast<std::size_t>(keys[i]), kKeySeed));
}

// Copies copy 0 (n elements at the start) to copies 1.. of the rotation.
void replicate(int *pool, std::size_t n, const Rotation &rotation, cudaStream_t stream) {
    const std::size_t stride = copy_stride(n);
    for (std::size_t c = 1; c < rotation.span() / stride; ++c)
        SC_CUDA_CHECK(cudaMemcpyAsync(pool + c * stride, pool, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

// One size's inputs (every copy of the rotation) and outputs (copy 0 is where results are compared).
struct ByKeyData {
    DeviceBuffer<int> keys, values, samples, keys_out, values_out;
    DeviceBuffer<std::size_t> count;
    DeviceBuffer<char> temp;

    ByKeyData(std::size_t span, std::size_t n)
        : keys(span), values(span), samples(span), keys_out(span), values_out(span), count(1),
          temp(temp_bytes(n)) {}

    // Every implementation's temporary storage at n, and CUB's scan for the keys.
    static std::size_t temp_bytes(std::size_t n) {
        namespace SC = StreamCompaction;
        const int items = static_cast<int>(n);
        const int *in = nullptr;
        int *out = nullptr;
        std::size_t *count = nullptr;
        std::size_t scan = 0, rbk = 0, unique = 0, rle = 0, histogram = 0;
        SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan, in, out, items));
        SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, rbk, in, out, in, out, count, ::cuda::std::plus<>{}, items));
        SC_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, unique, in, out, count, items));
        SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, rle, in, out, out, count, items));
        SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, histogram, in, reinterpret_cast<unsigned *>(out),
                                                          kHistogramBins[1] + 1, 0, kSampleRange, items));
        return std::max({scan, rbk, unique, rle, histogram, SC::reduce_by_key_temp_bytes<int, int>(n),
                         SC::unique_temp_bytes<int>(n), SC::run_length_encode_temp_bytes<int>(n)});
    }

    // Keys with runs of geometric length `mean`, in every copy.
    void make_keys(std::size_t n, unsigned mean, const Rotation &rotation, cudaStream_t stream) {
        fill_run_starts<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys_out.get(), n, mean);
        SC_CHECK_LAUNCH(fill_run_starts);
        std::size_t bytes = temp.bytes();
        SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), bytes, keys_out.get(), keys.get(), static_cast<int>(n),
                                                    stream));
        hash_run_numbers<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys.get(), n);
        SC_CHECK_LAUNCH(hash_run_numbers);
        replicate(keys.get(), n, rotation, stream);
    }
};

struct Impl {
    const char *name;
    bool anchor;
    int block_size;                        // 0 for CUB
    std::function<void(std::size_t)> run;  // one run on the copy at this element offset
};

// An output compared between implementations: `elements(count)` ints at `data` (copy 0).
struct Output {
    int *data;
    std::function<std::size_t(std::size_t)> elements;
};

// impls[0] (CUB) runs first on copy 0 and its outputs and count (when `counted`: the histogram
// writes none) are the reference; then each implementation runs on poisoned outputs there, is
// compared, and is timed. bytes(count) is the traffic of a perfect implementation.
void run_group(const Options &options, const Sink &sink, cudaStream_t stream, const char *operation, const Size &size,
               const std::string &param, Rotation &rotation, ByKeyData &data, bool counted,
               const std::vector<Output> &outputs, const std::vector<Impl> &impls,
               const std::function<double(std::size_t)> &bytes) {
    const auto read_count = [&] { return counted ? read_back(data.count.get(), stream) : std::size_t{0}; };
    impls.front().run(0);
    const std::size_t reference_count = read_count();
    std::vector<DeviceBuffer<int>> references;
    for (const Output &output : outputs) {
        const std::size_t elements = output.elements(reference_count);
        references.emplace_back(std::max<std::size_t>(elements, 1));
        SC_CUDA_CHECK(cudaMemcpyAsync(references.back().get(), output.data, elements * sizeof(int),
                                      cudaMemcpyDeviceToDevice, stream));
    }
    for (const Impl &impl : impls) {
        for (const Output &output : outputs)
            SC_CUDA_CHECK(cudaMemsetAsync(output.data, kPoisonByte, output.elements(size.n) * sizeof(int), stream));
        if (counted) SC_CUDA_CHECK(cudaMemsetAsync(data.count.get(), kPoisonByte, sizeof(std::size_t), stream));
        impl.run(0);
        bool ok = read_count() == reference_count;
        for (std::size_t k = 0; ok && k < outputs.size(); ++k) {
            const int *got = outputs[k].data;
            ok = thrust::equal(thrust::cuda::par.on(stream), got, got + outputs[k].elements(reference_count),
                               references[k].get());
        }
        if (!ok)
            std::fprintf(stderr, "warning: %s %s, %s, n = %s: the output differs from %s's\n", impl.name, operation,
                         param.c_str(), size.label.c_str(), impls.front().name);
        const double ms = median_ms(stream, rotation, options.runs, impl.run);
        sink(Measurement{operation, impl.name, size, param, ms, bytes(reference_count), impl.block_size, ok,
                         impl.anchor});
    }
}

void run_size(const Options &options, const Sink &sink, const Size &size, cudaStream_t stream) {
    namespace SC = StreamCompaction;
    const std::size_t n = size.n;
    const int items = static_cast<int>(n);
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    ByKeyData data(rotation.span(), n);
    fill_masked_hashes<<<fill_blocks(rotation.span()), kFillThreads, 0, stream>>>(data.values.get(), rotation.span(),
                                                                                 kValueSeed, 15u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    fill_masked_hashes<<<fill_blocks(rotation.span()), kFillThreads, 0, stream>>>(data.samples.get(), rotation.span(),
                                                                                 kSampleSeed, kSampleRange - 1u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    const int block = SC::block_sizes().single_pass;
    ByKeyData *d = &data;
    const auto all = [](std::size_t count) { return count; };

    for (const int mean : kMeanRunLengths) {
        const std::string param = "mean " + std::to_string(mean);
        data.make_keys(n, static_cast<unsigned>(mean), rotation, stream);
        run_group(options, sink, stream, "reduce_by_key", size, param, rotation, data, true,
                  {{data.keys_out.get(), all}, {data.values_out.get(), all}},
                  {{"cub", true, 0,
                    [d, items, stream](std::size_t at) {
                        std::size_t bytes = d->temp.bytes();
                        SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
                            d->temp.get(), bytes, d->keys.get() + at, d->keys_out.get() + at, d->values.get() + at,
                            d->values_out.get() + at, d->count.get(), ::cuda::std::plus<>{}, items, stream));
                    }},
                   {"ours", false, block,
                    [d, n, stream](std::size_t at) {
                        SC::reduce_by_key(d->keys.get() + at, d->values.get() + at, d->keys_out.get() + at,
                                          d->values_out.get() + at, d->count.get(), n, SC::Sum{}, SC::EqualTo{},
                                          d->temp.get(), d->temp.bytes(), stream);
                    }}},
                  [n](std::size_t runs) { return 8.0 * n + 8.0 * runs; });
        run_group(options, sink, stream, "unique", size, param, rotation, data, true, {{data.keys_out.get(), all}},
                  {{"cub", true, 0,
                    [d, items, stream](std::size_t at) {
                        std::size_t bytes = d->temp.bytes();
                        SC_CUDA_CHECK(cub::DeviceSelect::Unique(d->temp.get(), bytes, d->keys.get() + at,
                                                                d->keys_out.get() + at, d->count.get(), items, stream));
                    }},
                   {"ours", false, block,
                    [d, n, stream](std::size_t at) {
                        SC::unique(d->keys.get() + at, d->keys_out.get() + at, d->count.get(), n, SC::EqualTo{},
                                   d->temp.get(), d->temp.bytes(), stream);
                    }}},
                  [n](std::size_t runs) { return 4.0 * n + 4.0 * runs; });
        run_group(options, sink, stream, "run_length_encode", size, param, rotation, data, true,
                  {{data.keys_out.get(), all}, {data.values_out.get(), all}},
                  {{"cub", true, 0,
                    [d, items, stream](std::size_t at) {
                        std::size_t bytes = d->temp.bytes();
                        SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(d->temp.get(), bytes, d->keys.get() + at,
                                                                         d->keys_out.get() + at,
                                                                         d->values_out.get() + at, d->count.get(),
                                                                         items, stream));
                    }},
                   {"ours", false, block,
                    [d, n, stream](std::size_t at) {
                        SC::run_length_encode(d->keys.get() + at, d->keys_out.get() + at, d->values_out.get() + at,
                                              d->count.get(), n, d->temp.get(), d->temp.bytes(), stream);
                    }}},
                  [n](std::size_t runs) { return 4.0 * n + 8.0 * runs; });
    }

    for (const int bins : kHistogramBins) {
        const auto histogram_of = [d](std::size_t at) { return reinterpret_cast<unsigned *>(d->values_out.get() + at); };
        const auto bins_only = [bins](std::size_t) { return static_cast<std::size_t>(bins); };
        run_group(options, sink, stream, "histogram_even", size, std::to_string(bins) + " bins", rotation, data,
                  false, {{data.values_out.get(), bins_only}},
                  {{"cub", true, 0,
                    [d, items, bins, histogram_of, stream](std::size_t at) {
                        std::size_t bytes = d->temp.bytes();
                        SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(d->temp.get(), bytes, d->samples.get() + at,
                                                                          histogram_of(at), bins + 1, 0, kSampleRange,
                                                                          items, stream));
                    }},
                   {"ours", false, SC::kHistogramThreads,
                    [d, n, bins, histogram_of, stream](std::size_t at) {
                        SC::histogram_even(d->samples.get() + at, n, histogram_of(at), bins, 0, kSampleRange, stream);
                    }}},
                  [n](std::size_t) { return 4.0 * n; });
    }
}

}  // namespace

void run_by_key(const Options &options, const Sink &sink) {
    const Stream stream;
    for (int log2 = 10; log2 <= options.max_log2; ++log2) {
        if (log2 % 2 != 0 && log2 != options.max_log2) continue;
        const Size size = power_of_two(log2);
        std::fprintf(stderr, "[by-key] n = %s\n", size.label.c_str());
        run_size(options, sink, size, stream.get());
    }
}

}  // namespace bench
