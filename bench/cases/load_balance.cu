// sc_bench's load-balance part: interval_expand of int32 values at 2^24 ... 2^max_log2 outputs (the
// even powers and the largest), segments of uniform sizes (mean 16) and of power-law sizes (Pareto,
// alpha 1.5: many short and empty segments, a few long ones), against Thrust (the segment of every
// output by a vectorized upper_bound of its index in the offsets, then a gather of the values: what
// a library user writes) and, for scale, load_balancing_search alone (the segment of every item).
// Bytes: the n outputs written and the offsets and values read (4n + 8 segments): compare the GB/s
// with the header's device-to-device copy. Every result is checked against Thrust's before timing.
#include "cases.h"
#include "load_balance_inputs.h"
#include "fill.h"

#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/policies.h>

#include <thrust/binary_search.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

void run_expand(const Options &options, const Sink &sink, const Size &size, bool power_law, cudaStream_t stream) {
    const std::size_t n = size.n;
    const std::vector<int> host_offsets = make_segment_offsets(n, power_law);
    const std::size_t segments = host_offsets.size() - 1;
    const std::string param = power_law ? "power_law" : "uniform";
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    const DeviceBuffer<int> offsets = DeviceBuffer<int>::from_host(host_offsets.data(), host_offsets.size());
    DeviceBuffer<int> values(segments), out(rotation.span()), reference(n), segment_of(n);
    fill_masked_hashes<<<fill_blocks(segments), kFillThreads, 0, stream>>>(values.get(), segments,
                                                                            kSegmentValueSeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    const int *d_offsets = offsets.get(), *d_values = values.get();
    int *d_out = out.get(), *d_segment = segment_of.get();

    const auto thrust_expand = [=](std::size_t at) {
        thrust::upper_bound(thrust::cuda::par.on(stream), d_offsets + 1, d_offsets + 1 + segments,
                            thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(static_cast<int>(n)),
                            d_segment);
        thrust::gather(thrust::cuda::par.on(stream), d_segment, d_segment + n, d_values, d_out + at);
    };
    thrust_expand(0);
    SC_CUDA_CHECK(cudaMemcpyAsync(reference.get(), d_out, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
    const double bytes = 4.0 * n + 8.0 * segments;
    struct Impl {
        const char *operation, *name;
        bool anchor;
        int block_size;
        std::function<void(std::size_t)> run;
    };
    const std::vector<Impl> impls = {
        {"interval_expand", "thrust", true, 0, thrust_expand},
        {"interval_expand", "ours", false, SC::kLbsThreads,
         [=](std::size_t at) { SC::interval_expand(n, d_offsets, segments, d_values, d_out + at, stream); }},
        {"load_balancing_search", "ours", false, SC::kLbsThreads,
         [=](std::size_t at) { SC::load_balancing_search(n, d_offsets, segments, d_out + at, stream); }},
    };
    for (const Impl &impl : impls) {
        poison(d_out, n, stream);
        impl.run(0);
        // The search writes the segments: compare with Thrust's, left in d_segment by the anchor.
        const int *expected = std::string(impl.operation) == "interval_expand" ? reference.get() : d_segment;
        const bool ok = thrust::equal(thrust::cuda::par.on(stream), d_out, d_out + n, expected);
        if (!ok)
            std::fprintf(stderr, "warning: %s %s, n = %s, %s: the output differs from thrust's\n", impl.name,
                         impl.operation, size.label.c_str(), param.c_str());
        const double ms = median_ms(stream, rotation, options.runs, impl.run);
        sink(Measurement{impl.operation, impl.name, size, param, ms, bytes, impl.block_size, ok, impl.anchor});
    }
}

}  // namespace

void run_load_balance(const Options &options, const Sink &sink) {
    const Stream stream;
    const int first = std::min(24, options.max_log2);
    for (int log2 = first; log2 <= options.max_log2; ++log2) {
        if (log2 % 2 != 0 && log2 != options.max_log2) continue;
        const Size size = power_of_two(log2);
        std::fprintf(stderr, "[load-balance] n = %s\n", size.label.c_str());
        for (bool power_law : {false, true}) run_expand(options, sink, size, power_law, stream.get());
    }
}

}  // namespace bench
