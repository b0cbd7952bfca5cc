#pragma once
// The segmented part's CUB scan (bench/nvbench/segmented.cu), compiled with the CCCL of the program
// that includes it: sc_nvbench_segmented registers it as "segmented_scan/cub" (the toolkit's CUB; and
// as segmented_scan_float/cub, on floats), and sc_nvbench_cccl_next as "segmented_scan/cub_X.Y"
// (bench/anchors/cccl_next_segmented.cu: SC_CCCL_NEXT's), so that both CUBs are timed by the one body
// on the same inputs (segmented_inputs.cuh), counts and checks: cub::DeviceScan::ExclusiveSumByKey on
// segment ids as keys, an int item count, equal_to. Also the timing and the checks of a state that
// segmented.cu's own rows share with it (state_inputs, time_scan, sum_difference: ints equal, floats
// within kFloatTolerance).
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "registration.cuh"
#include "segmented_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace segmented_cub {

// The part's inputs, axes and the CPU's exclusive segment sums (segmented_inputs.cuh).
using segmented_inputs::exclusive_segment_sums;
using segmented_inputs::HostSum;
using segmented_inputs::kFloatTolerance;
using segmented_inputs::kIsFloat;
using segmented_inputs::kSegmentationNames;
using segmented_inputs::kSegmentedLog2;
using segmented_inputs::make_inputs;
using segmented_inputs::NamedSegmentation;
using segmented_inputs::SegmentedInputs;
using segmented_inputs::segmentation_named;

// The state's inputs; none (the state skipped) where its param names no segmentation.
template <class V>
std::optional<SegmentedInputs<V>> state_inputs(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    NamedSegmentation segmentation = segmentation_named(n, state.get_string("param"));
    if (segmentation.segmentation == nullptr) {
        state.skip("no segmentation named " + state.get_string("param"));
        return std::nullopt;
    }
    return make_inputs<V>(std::move(segmentation), n, state.get_cuda_stream());
}

// The largest |expected[i]|, over every piece at once.
inline double largest_magnitude(const std::vector<double> &expected) {
    const auto pieces = pieces_of(expected.size());
    std::vector<double> largest(pieces.size(), 0.0);
    for_each_piece(pieces, [&](std::size_t piece, std::size_t begin, std::size_t end) {
        double found = 0.0;
        for (std::size_t i = begin; i < end; ++i) found = std::max(found, std::fabs(expected[i]));
        largest[piece] = found;
    });
    return *std::max_element(largest.begin(), largest.end());
}

inline std::string shown(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

// "" when a float output passes, else its first item that fails: every |got - expected| within kFloatTolerance
// of max(1, the largest |expected|), NaN failing; and an item whose bits are the poison's fails, unwritten: the
// poison, about -2.9e-16, is within that tolerance of a 0, and no sum of these values can be it (every one is 0
// or at least 2^-23 in magnitude).
inline std::string float_difference(const std::vector<float> &got, const std::vector<double> &expected,
                                    const std::string &item) {
    if (got.size() != expected.size())
        return std::to_string(got.size()) + " " + item + "s, expected " + std::to_string(expected.size());
    const double largest = largest_magnitude(expected);
    const double tolerance = kFloatTolerance * std::max(1.0, largest);
    const float poison = poison_value<float>();
    const auto unwritten = [&](std::size_t k) { return std::memcmp(&got[k], &poison, sizeof poison) == 0; };
    const auto fails = [&](std::size_t k) {
        return unwritten(k) || !(std::fabs(static_cast<double>(got[k]) - expected[k]) <= tolerance);
    };
    const std::size_t i = first_failing(got.size(), fails);
    if (i == got.size()) return "";
    const std::string where = item + " " + std::to_string(i) + " of " + std::to_string(got.size());
    if (unwritten(i)) return where + " unwritten (the poison)";
    return where + " is " + shown(got[i]) + ", expected " + shown(expected[i]) + ", beyond " + shown(tolerance) +
           " (" + shown(kFloatTolerance) + " of max(1, max |expected| " + shown(largest) + "))";
}

// "" when an output of V's passes for the CPU's sums, else what is wrong: ints equal, floats by float_difference.
template <class V>
std::string sum_difference(const std::vector<V> &got, const std::vector<HostSum<V>> &expected,
                           const std::string &item) {
    if constexpr (kIsFloat<V>)
        return float_difference(got, expected, item);
    else
        return first_difference(got, expected, item);
}

// One segmented scan: scan(inputs, out, temp, temp_bytes, stream) writes the values' exclusive segmented
// sums to out; temp_bytes(n, segments) is its storage.
template <class V, class TempBytes, class Scan>
void time_scan(nvbench::state &state, TempBytes temp_bytes, Scan scan) {
    using StreamCompaction::DeviceBuffer;
    const std::optional<SegmentedInputs<V>> in = state_inputs<V>(state);
    if (!in) return;
    DeviceBuffer<V> out(in->n);
    DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<V>(in->n);
    state.add_global_memory_writes<V>(in->n);
    state.exec([&](nvbench::launch &launch) {
        scan(*in, out.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference =
        sum_difference(read_back(out.get(), in->n, state.get_cuda_stream()), *exclusive_segment_sums(*in), "scan");
    record_difference(state, difference);
}

// cub::DeviceScan::ExclusiveSumByKey's storage, called with an int item count, equal_to on the keys.
template <class V>
std::size_t cub_scan_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, bytes, static_cast<const int *>(nullptr),
                                                     static_cast<const V *>(nullptr), static_cast<V *>(nullptr),
                                                     static_cast<int>(n), ::cuda::std::equal_to<>{}));
    return bytes;
}

template <class V>
void scan_cub(nvbench::state &state) {
    time_scan<V>(state, [](std::size_t n, std::size_t) { return cub_scan_bytes<V>(n); },
                 [](const SegmentedInputs<V> &in, V *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(temp, bytes, in.keys.get(), in.values.get(),
                                                                      out, static_cast<int>(in.n),
                                                                      ::cuda::std::equal_to<>{}, stream));
                 });
}

// The int scan registered as "segmented_scan/<implementation>" with segmented.cu's axes, n and param (the
// segmentation).
inline nvbench::benchmark_base &add_segmented_scan_cub(const std::string &implementation) {
    return add_benchmark("segmented_scan/" + implementation, scan_cub<int>)
        .add_int64_power_of_two_axis("n", kSegmentedLog2)
        .add_string_axis("param", kSegmentationNames);
}

}  // namespace segmented_cub
}  // namespace bench
