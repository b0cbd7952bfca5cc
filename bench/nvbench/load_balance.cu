// The load-balance part on NVBench (issue #48), on load_balance_inputs.h's inputs: n = 2^24, 2^26 and
// 2^28 int32 outputs (axis n: the even powers from 2^24 to 2^28), in segments over exactly n items of
// uniform lengths in [0, 32] (param "uniform") or of Pareto lengths, alpha 1.5 (param "power_law":
// about a sixth of them empty, mean about 16, a few of 10^5 and more), from a seeded host generator
// (make_segment_offsets); segment s's value is index_hash(s, kSegmentValueSeed), every bit kept
// (fill_masked_hashes). Timed: interval_expand (each segment's value written over its items), ours
// (interval_expand/ours) against Thrust (interval_expand/thrust: the segment of every output by a
// vectorized upper_bound of its index in the offsets' ends, then a gather of the values: what a library
// user writes; its n segment indices are its temporary storage); and, for scale, load_balancing_search
// alone (load_balancing_search/ours: the segment of every item), which has no library beside it. Thrust
// is called par_nosync, not par: par waits for the stream after each kernel, which NVBench's timed
// launches, held back by its blocking kernel, must not do. NVBench's cold runs flush the L2 between
// samples, so the output starts each run out of L2.
//
// Bytes, for all three: the n outputs written (4n) and 8 bytes per segment read, its offset and its
// value (the search reads no value, and is counted alike). Every output, and Thrust's segment indices,
// is poisoned before the timed runs; what the last one wrote is checked in full against the CPU's
// result on the same offsets: each item's segment, or that segment's value, written over the
// segment's items by pieces of the segments. It is computed from the offsets alone (the definition
// of both operations), nothing of the implementations', once per point and kept for ours and
// Thrust's states (cached_reference).
#include "check.cuh"
#include "load_balance_inputs.h"

#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

const std::vector<nvbench::int64_t> kLoadBalanceLog2 = {24, 26, 28};
// The params: make_segment_offsets's power_law false, then true.
const std::vector<std::string> kSegmentSizes = {"uniform", "power_law"};

// A segment's value, as fill_masked_hashes writes it on the device.
int segment_value(std::size_t segment) { return static_cast<int>(index_hash(segment, kSegmentValueSeed)); }

// A state's inputs: the offsets on the host and on the device, the segments' values on the device.
struct LoadBalanceInputs {
    std::string point;  // n and the param: the key of this point's references
    std::size_t n, segments;
    std::shared_ptr<const std::vector<int>> host_offsets;
    DeviceBuffer<int> offsets, values;
};

// The state's inputs; none (the state skipped) where its param names no segment sizes. The offsets
// are drawn by one generator in order (a serial loop of about n/16 draws), so once per point and kept.
std::optional<LoadBalanceInputs> state_inputs(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string sizes = state.get_string("param");
    if (std::find(kSegmentSizes.begin(), kSegmentSizes.end(), sizes) == kSegmentSizes.end()) {
        state.skip("no segment sizes named " + sizes);
        return std::nullopt;
    }
    const std::string point = "n=" + std::to_string(n) + " " + sizes;
    std::shared_ptr<const std::vector<int>> host_offsets = cached_reference<std::vector<int>>(
        "load-balance offsets " + point, [n, sizes] { return make_segment_offsets(n, sizes == "power_law"); });
    const std::size_t segments = host_offsets->size() - 1;
    LoadBalanceInputs in{point,
                         n,
                         segments,
                         host_offsets,
                         DeviceBuffer<int>::from_host(host_offsets->data(), host_offsets->size()),
                         DeviceBuffer<int>(segments)};
    const cudaStream_t stream = state.get_cuda_stream();
    fill_masked_hashes<<<fill_blocks(segments), kFillThreads, 0, stream>>>(in.values.get(), segments, kSegmentValueSeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    return in;
}

// n items, item i = of_segment(the segment that holds i), by pieces of the segments (each piece writes
// its own segments' items; an empty segment holds none).
template <class OfSegment>
std::vector<int> per_item(const LoadBalanceInputs &in, OfSegment of_segment) {
    const std::vector<int> &offsets = *in.host_offsets;
    std::vector<int> items(in.n);
    parallel_for(in.segments, [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s)
            std::fill(items.begin() + offsets[s], items.begin() + offsets[s + 1], of_segment(s));
    });
    return items;
}

// What an output must hold: the segment of every item (load_balancing_search), or that segment's value
// (interval_expand).
enum class Output { SegmentOfItem, SegmentValue };

// The output's expected items at the state's point, once per point (ours and Thrust's share it).
std::shared_ptr<const std::vector<int>> expected_output(const LoadBalanceInputs &in, Output output) {
    if (output == Output::SegmentOfItem)
        return cached_reference<std::vector<int>>("segment of items " + in.point, [&in] {
            return per_item(in, [](std::size_t s) { return static_cast<int>(s); });
        });
    return cached_reference<std::vector<int>>("interval expand " + in.point,
                                              [&in] { return per_item(in, segment_value); });
}

// One implementation of one state: its inputs, the poisoned output and storage (n ints with_temp, else
// none), NVBench's counts, the timed runs and the check of what the last one wrote. run(inputs, out, temp,
// stream) enqueues one run.
template <class Run>
void time_lbs(nvbench::state &state, Output output, bool with_temp, Run run) {
    const std::optional<LoadBalanceInputs> in = state_inputs(state);
    if (!in) return;
    DeviceBuffer<int> out(in->n), temp(with_temp ? in->n : 0);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads(8 * in->segments);
    state.add_global_memory_writes<int>(in->n);
    state.exec([&](nvbench::launch &launch) {
        run(*in, out.get(), temp.get(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference = first_difference(read_back(out.get(), in->n, state.get_cuda_stream()),
                                                    *expected_output(*in, output),
                                                    output == Output::SegmentOfItem ? "segment" : "value");
    record_difference(state, difference);
}

// The Thrust form: segment_of[i] = the number of segment ends at or before i (the segment that
// holds item i, past the empty ones), then out[i] = values[segment_of[i]].
void interval_expand_thrust(nvbench::state &state) {
    time_lbs(state, Output::SegmentValue, true,
             [](const LoadBalanceInputs &in, int *out, int *segment_of, cudaStream_t stream) {
                 const int *ends = in.offsets.get() + 1;
                 thrust::upper_bound(thrust::cuda::par_nosync.on(stream), ends, ends + in.segments,
                                     thrust::counting_iterator<int>(0),
                                     thrust::counting_iterator<int>(static_cast<int>(in.n)), segment_of);
                 thrust::gather(thrust::cuda::par_nosync.on(stream), segment_of, segment_of + in.n, in.values.get(),
                                out);
             });
}

// Ours takes no temporary storage.
void interval_expand_ours(nvbench::state &state) {
    time_lbs(state, Output::SegmentValue, false,
             [](const LoadBalanceInputs &in, int *out, int *, cudaStream_t stream) {
                 SC::interval_expand(in.n, in.offsets.get(), in.segments, in.values.get(), out, stream);
             });
}

void load_balancing_search_ours(nvbench::state &state) {
    time_lbs(state, Output::SegmentOfItem, false,
             [](const LoadBalanceInputs &in, int *out, int *, cudaStream_t stream) {
                 SC::load_balancing_search(in.n, in.offsets.get(), in.segments, out, stream);
             });
}

// Names "<operation>/<implementation>", axes n and param (the segment sizes): bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(interval_expand_thrust)
    .set_name("interval_expand/thrust")
    .add_int64_power_of_two_axis("n", kLoadBalanceLog2)
    .add_string_axis("param", kSegmentSizes);
NVBENCH_BENCH(interval_expand_ours)
    .set_name("interval_expand/ours")
    .add_int64_power_of_two_axis("n", kLoadBalanceLog2)
    .add_string_axis("param", kSegmentSizes);
NVBENCH_BENCH(load_balancing_search_ours)
    .set_name("load_balancing_search/ours")
    .add_int64_power_of_two_axis("n", kLoadBalanceLog2)
    .add_string_axis("param", kSegmentSizes);

}  // namespace
}  // namespace bench
