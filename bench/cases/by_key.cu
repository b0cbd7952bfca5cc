// sc_bench's by-key part: reduce-by-key (int32 keys, int32 sums), unique, run-length encoding
// (int32 items) at mean run lengths 4 and 64, and an even histogram of int32 samples with 256 and
// 4096 bins, the project's against CUB (the anchor) at 2^10 ... 2^max_log2. Inputs and the bytes
// counted: by_key_inputs.cuh.
#include "by_key_inputs.cuh"
#include "cases.h"

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/call_tuning.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
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

using namespace by_key_inputs;

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
        return std::max({cub_temp_bytes(n), SC::reduce_by_key_temp_bytes<int, int>(n), SC::unique_temp_bytes<int>(n),
                         SC::run_length_encode_temp_bytes<int>(n)});
    }

    // Keys with runs of geometric length `mean`, in every copy (keys_out is the scratch).
    void make_keys(std::size_t n, unsigned mean, const Rotation &rotation, cudaStream_t stream) {
        make_run_keys(keys.get(), keys_out.get(), n, mean, rotation, temp.get(), temp.bytes(), stream);
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
            poison(output.data, output.elements(size.n), stream);
        if (counted) poison(data.count.get(), 1, stream);
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
    make_values_and_samples(data.values.get(), data.samples.get(), rotation.span(), stream);
    const SC::CallEnvironment env(stream);  // of our by-key calls: the stream, at the library's default tuning
    const int block = SC::single_pass_threads(env.tuning);
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
                    [d, n, env](std::size_t at) {
                        SC::reduce_by_key(d->keys.get() + at, d->values.get() + at, d->keys_out.get() + at,
                                          d->values_out.get() + at, d->count.get(), n, SC::Sum{}, SC::EqualTo{},
                                          d->temp.get(), d->temp.bytes(), env);
                    }}},
                  [n](std::size_t runs) { return reduce_by_key_bytes(n, runs); });
        run_group(options, sink, stream, "unique", size, param, rotation, data, true, {{data.keys_out.get(), all}},
                  {{"cub", true, 0,
                    [d, items, stream](std::size_t at) {
                        std::size_t bytes = d->temp.bytes();
                        SC_CUDA_CHECK(cub::DeviceSelect::Unique(d->temp.get(), bytes, d->keys.get() + at,
                                                                d->keys_out.get() + at, d->count.get(), items, stream));
                    }},
                   {"ours", false, block,
                    [d, n, env](std::size_t at) {
                        SC::unique(d->keys.get() + at, d->keys_out.get() + at, d->count.get(), n, SC::EqualTo{},
                                   d->temp.get(), d->temp.bytes(), env);
                    }}},
                  [n](std::size_t runs) { return unique_bytes(n, runs); });
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
                    [d, n, env](std::size_t at) {
                        SC::run_length_encode(d->keys.get() + at, d->keys_out.get() + at, d->values_out.get() + at,
                                              d->count.get(), n, d->temp.get(), d->temp.bytes(), env);
                    }}},
                  [n](std::size_t runs) { return run_length_encode_bytes(n, runs); });
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
                  [n](std::size_t) { return histogram_bytes(n); });
    }
}

}  // namespace

void run_by_key(const Options &options, const Sink &sink) {
    const Stream stream;
    for_each_size(options.max_log2, [&](const Size &size) {
        std::fprintf(stderr, "[by-key] n = %s\n", size.label.c_str());
        run_size(options, sink, size, stream.get());
    });
}

}  // namespace bench
