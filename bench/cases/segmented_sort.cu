// sc_bench's segmented-sort part: 2^24 int32 keys (2^max_log2 if smaller) with int32 values, in
// segments of three size classes: tiny (uniform 1..15, mean 8), mixed (Pareto, alpha 1.2: many
// short and empty segments, a few of hundreds of thousands) and huge (segments of 2^20 .. 2^22),
// ours (segmented_sort_keys / _pairs) against cub::DeviceSegmentedSort::StableSortKeys /
// StableSortPairs. Bytes: keys (and values) read and written once (8n, 16n) plus the offsets.
// Every result is checked against CUB's before it is timed.
#include "cases.h"
#include "fill.h"
#include "segmented_sort_inputs.cuh"

#include <stream_compaction/device/segmented_sort.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cub/device/device_segmented_sort.cuh>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

using namespace segmented_sort_inputs;

void run_sizes(const Options &options, const Sink &sink, const Size &size, const std::string &sizes, cudaStream_t stream) {
    const std::size_t n = size.n;
    const std::vector<int> host_offsets = make_offsets(n, sizes);
    const int segments = static_cast<int>(host_offsets.size()) - 1;
    const DeviceBuffer<int> offsets = DeviceBuffer<int>::from_host(host_offsets.data(), host_offsets.size());
    DeviceBuffer<int> keys(n), values(n), keys_out(n), values_out(n), reference_keys(n), reference_values(n);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys.get(), n, kKeySeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(values.get(), n, kValueSeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    const int *d_offsets = offsets.get(), *d_keys = keys.get(), *d_values = values.get();
    int *d_keys_out = keys_out.get(), *d_values_out = values_out.get();
    std::size_t cub_keys_bytes = 0, cub_pairs_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(nullptr, cub_keys_bytes, d_keys, d_keys_out, static_cast<int>(n),
                                                           segments, d_offsets, d_offsets + 1, stream));
    SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, cub_pairs_bytes, d_keys, d_keys_out, d_values,
                                                            d_values_out, static_cast<int>(n), segments, d_offsets,
                                                            d_offsets + 1, stream));
    const SC::CallEnvironment env(stream);  // of ours: the stream, at the library's default tuning
    const std::size_t ours_bytes = SC::segmented_sort_temp_bytes<int>(n, env);
    DeviceBuffer<char> temp(std::max({cub_keys_bytes, cub_pairs_bytes, ours_bytes}));
    char *d_temp = temp.get();
    const std::size_t temp_bytes = temp.bytes();
    // No rotation: 2^24 keys and values are 128 MiB, past L2; every run sorts the same input.
    Rotation rotation(n, copy_stride(n));
    struct Impl {
        const char *operation, *name;
        bool anchor, pairs;
        std::function<void(std::size_t)> run;
    };
    const std::vector<Impl> impls = {
        {"segmented_sort_keys", "cub", true, false,
         [=](std::size_t) {
             std::size_t bytes = temp_bytes;
             SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(d_temp, bytes, d_keys, d_keys_out, static_cast<int>(n),
                                                                    segments, d_offsets, d_offsets + 1, stream));
         }},
        {"segmented_sort_keys", "ours", false, false,
         [=](std::size_t) {
             SC::segmented_sort_keys(d_keys, d_keys_out, n, d_offsets, segments, d_temp, temp_bytes, env);
         }},
        {"segmented_sort_pairs", "cub", true, true,
         [=](std::size_t) {
             std::size_t bytes = temp_bytes;
             SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, d_keys, d_keys_out, d_values,
                                                                     d_values_out, static_cast<int>(n), segments,
                                                                     d_offsets, d_offsets + 1, stream));
         }},
        {"segmented_sort_pairs", "ours", false, true,
         [=](std::size_t) {
             SC::segmented_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_offsets, segments, d_temp,
                                      temp_bytes, env);
         }},
    };
    for (const Impl &impl : impls) {
        poison(d_keys_out, n, stream);
        poison(d_values_out, n, stream);
        impl.run(0);
        if (impl.anchor) {  // the reference of the rows after it
            SC_CUDA_CHECK(cudaMemcpyAsync(reference_keys.get(), d_keys_out, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
            SC_CUDA_CHECK(cudaMemcpyAsync(reference_values.get(), d_values_out, n * sizeof(int), cudaMemcpyDeviceToDevice,
                                          stream));
        }
        bool ok = thrust::equal(thrust::cuda::par.on(stream), d_keys_out, d_keys_out + n, reference_keys.get());
        if (impl.pairs)
            ok = ok && thrust::equal(thrust::cuda::par.on(stream), d_values_out, d_values_out + n, reference_values.get());
        if (!ok)
            std::fprintf(stderr, "warning: %s %s, n = %s, %s segments: the output differs from cub's\n", impl.name,
                         impl.operation, size.label.c_str(), sizes.c_str());
        const double ms = median_ms(stream, rotation, options.runs, impl.run);
        const double bytes = (impl.pairs ? 16.0 : 8.0) * n + 4.0 * (segments + 1);
        sink(Measurement{impl.operation, impl.name, size, sizes, ms, bytes,
                         impl.anchor ? 0 : SC::radix_threads_asked(env.tuning), ok, impl.anchor});
    }
}

}  // namespace

void run_segmented_sort(const Options &options, const Sink &sink) {
    const Stream stream;
    const Size size = power_of_two(std::min(kLog2, options.max_log2));
    for (const char *sizes : kSizeClasses) {
        std::fprintf(stderr, "[segmented-sort] n = %s, %s segments\n", size.label.c_str(), sizes);
        run_sizes(options, sink, size, sizes, stream.get());
    }
}

}  // namespace bench
