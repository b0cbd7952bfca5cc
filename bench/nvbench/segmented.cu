// The segmented part on NVBench (issue #48), on sc_bench's inputs (bench/segmented_inputs.cuh): n = 2^26 int
// values in [0, 16) (fill_values) in each of sc_bench's four segmentations (axis param: geometric lengths of
// mean 4, 64 and 4096, empty segments among them, and power-law lengths; make_segmentations). Timed: the
// exclusive segmented sum (segmented_scan), ours by head flags (flags) and by CSR offsets (offsets), against
// CUB's DeviceScan::ExclusiveSumByKey (cub) and Thrust's exclusive_scan_by_key (thrust) on segment ids as
// keys; and the per-segment sums (segmented_reduce), ours on Auto's engine (ours) and on each engine
// (merge_path, item_tiles), against CUB's DeviceSegmentedReduce::Sum (cub) and, on segment ids as keys, CUB's
// DeviceReduce::ReduceByKey (cub_reduce_by_key) and Thrust's reduce_by_key (thrust_reduce_by_key), which
// write the non-empty segments only. The libraries are called as sc_bench calls them: int item counts, an
// int64 segment count, Thrust's temporary storage from an Arena. Thrust's reduce_by_key returns its count
// to the host, waiting for it, so its states run under exec_tag::sync (no blocking kernel, no batch).
// sc_bench's float rows (segmented_scan_float, segmented_reduce_float) are not here.
//
// Bytes as sc_bench counts them: the values read and the results written (4n + 4n for a scan, 4n + 4 per
// segment for every reduction), not the segment description, whose form differs between implementations.
// Every output, and the temporary storage, is poisoned before the timed runs; what the last one wrote is
// checked in full against the CPU's sums on the same inputs: the scans' n items; the reductions' one sum
// per segment (0 for an empty one); the reductions by key's count of runs, their keys (the ids of the
// non-empty segments, in order) and their sums.
#include "arena.h"
#include "check.cuh"
#include "segmented_inputs.cuh"

#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using SC::SegmentedReduceAlgorithm;
using segmented_inputs::Segmentation;

const std::vector<nvbench::int64_t> kSegmentedLog2 = {segmented_inputs::kLog2};
// make_segmentations's names, in its order: sc_bench's params.
const std::vector<std::string> kSegmentationNames = {"mean 4", "mean 64", "mean 4096", "power-law"};
// Thrust's storage beyond that of the CUB call it makes (sc_bench's allowance).
constexpr std::size_t kThrustExtraBytes = std::size_t{1} << 20;

// The four segmentations of n elements. make_segmentations draws all four from one generator, in
// order, so they are made together, once per n (about a second on the host at 2^26) and kept.
struct Segmentations {
    std::vector<Segmentation> all;
    std::size_t footprint() const {
        std::size_t bytes = 0;
        for (const Segmentation &segmentation : all) bytes += segmentation.offsets.size() * sizeof(int);
        return bytes;
    }
};

// The state's segmentation (kept alive by its holder); null when its name is none of them.
struct NamedSegmentation {
    std::shared_ptr<const Segmentations> holder;
    const Segmentation *segmentation;
};
NamedSegmentation segmentation_named(std::size_t n, const std::string &name) {
    auto made = cached_reference<Segmentations>("segmentations n=" + std::to_string(n),
                                                [n] { return Segmentations{segmented_inputs::make_segmentations(n)}; });
    for (const Segmentation &segmentation : made->all)
        if (segmentation.name == name) return {made, &segmentation};
    return {made, nullptr};
}

// The values as the CPU computes them, once per n.
std::shared_ptr<const std::vector<int>> host_values_of(std::size_t n) {
    return cached_reference<std::vector<int>>("segmented values n=" + std::to_string(n), [n] {
        return generated<int>(n, [](std::size_t i) {
            return static_cast<int>(index_hash(i, segmented_inputs::kValueSeed) & 15u);
        });
    });
}

// A state's inputs: the values on the device and, as the CPU computes them, on the host; the segmentation
// in every form the implementations take (segment ids as keys, uint8 head flags, CSR offsets) on the device.
struct SegmentedInputs {
    std::string point;  // n and the segmentation's name: the key of this point's references
    std::size_t n, segments;
    NamedSegmentation segmentation;
    std::shared_ptr<const std::vector<int>> host_values;
    DeviceBuffer<int> values, keys, offsets;
    DeviceBuffer<std::uint8_t> flags;
    const std::vector<int> &host_offsets() const { return segmentation.segmentation->offsets; }
};

// The keys and flags are made on the host by pieces of the segments, each piece writing its own
// segments' elements.
SegmentedInputs make_inputs(NamedSegmentation segmentation, std::size_t n, cudaStream_t stream) {
    const std::vector<int> &offsets = segmentation.segmentation->offsets;
    const std::size_t segments = offsets.size() - 1;
    std::vector<int> keys(n);
    std::vector<std::uint8_t> flags(n, 0);
    parallel_for(segments, [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s) {
            std::fill(keys.begin() + offsets[s], keys.begin() + offsets[s + 1], static_cast<int>(s));
            if (offsets[s] < offsets[s + 1]) flags[offsets[s]] = 1;
        }
    });
    const std::string point = "n=" + std::to_string(n) + " " + segmentation.segmentation->name;
    SegmentedInputs in{point,
                       n,
                       segments,
                       std::move(segmentation),
                       host_values_of(n),
                       DeviceBuffer<int>(n),
                       DeviceBuffer<int>::from_host(keys.data(), n),
                       DeviceBuffer<int>::from_host(offsets.data(), offsets.size()),
                       DeviceBuffer<std::uint8_t>::from_host(flags.data(), n)};
    segmented_inputs::fill_values<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.values.get(), n);
    SC_CHECK_LAUNCH(fill_values);
    return in;
}

// The state's inputs; none (the state skipped) where its param names no segmentation.
std::optional<SegmentedInputs> state_inputs(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    NamedSegmentation segmentation = segmentation_named(n, state.get_string("param"));
    if (segmentation.segmentation == nullptr) {
        state.skip("no segmentation named " + state.get_string("param"));
        return std::nullopt;
    }
    return make_inputs(std::move(segmentation), n, state.get_cuda_stream());
}

// Each element's sum of the values before it in its segment (values in [0, 16): no sum of 2^26
// overflows), by pieces of the segments; once per point.
std::shared_ptr<const std::vector<int>> exclusive_segment_sums(const SegmentedInputs &in) {
    return cached_reference<std::vector<int>>("exclusive segment sums " + in.point, [&in] {
        const std::vector<int> &offsets = in.host_offsets(), &values = *in.host_values;
        std::vector<int> out(in.n);
        parallel_for(in.segments, [&](std::size_t begin, std::size_t end) {
            for (std::size_t s = begin; s < end; ++s) {
                int sum = 0;
                for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
                    out[i] = sum;
                    sum += values[i];
                }
            }
        });
        return out;
    });
}

// Each segment's sum, 0 for an empty one; once per point.
std::shared_ptr<const std::vector<int>> segment_sums(const SegmentedInputs &in) {
    return cached_reference<std::vector<int>>("segment sums " + in.point, [&in] {
        const std::vector<int> &offsets = in.host_offsets(), &values = *in.host_values;
        std::vector<int> sums(in.segments, 0);
        parallel_for(in.segments, [&](std::size_t begin, std::size_t end) {
            for (std::size_t s = begin; s < end; ++s)
                for (int i = offsets[s]; i < offsets[s + 1]; ++i) sums[s] += values[i];
        });
        return sums;
    });
}

// One segmented scan: scan(inputs, out, temp, temp_bytes, stream) writes the values' exclusive segmented
// sums to out; temp_bytes(n, segments) is its storage.
template <class TempBytes, class Scan>
void time_scan(nvbench::state &state, TempBytes temp_bytes, Scan scan) {
    const std::optional<SegmentedInputs> in = state_inputs(state);
    if (!in) return;
    DeviceBuffer<int> out(in->n);
    DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<int>(in->n);
    state.add_global_memory_writes<int>(in->n);
    state.exec([&](nvbench::launch &launch) {
        scan(*in, out.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference =
        first_difference(read_back(out.get(), in->n, state.get_cuda_stream()), *exclusive_segment_sums(*in), "scan");
    record_difference(state, difference);
}

// cub::DeviceScan::ExclusiveSumByKey's storage, as sc_bench calls it: int item count, equal_to on the keys.
std::size_t cub_scan_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, bytes, static_cast<const int *>(nullptr),
                                                     static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                                     static_cast<int>(n), ::cuda::std::equal_to<>{}));
    return bytes;
}

void segmented_scan_cub(nvbench::state &state) {
    time_scan(state, [](std::size_t n, std::size_t) { return cub_scan_bytes(n); },
              [](const SegmentedInputs &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                  SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(temp, bytes, in.keys.get(), in.values.get(), out,
                                                                   static_cast<int>(in.n), ::cuda::std::equal_to<>{},
                                                                   stream));
              });
}

// Thrust's scan by key is CUB's, plus allocations of its own: from the arena, so that no timed run allocates.
void segmented_scan_thrust(nvbench::state &state) {
    time_scan(state, [](std::size_t n, std::size_t) { return 2 * cub_scan_bytes(n) + kThrustExtraBytes; },
              [](const SegmentedInputs &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                  Arena arena(temp, bytes);
                  thrust::exclusive_scan_by_key(thrust::cuda::par_nosync(arena).on(stream), in.keys.get(),
                                                in.keys.get() + in.n, in.values.get(), out);
              });
}

void segmented_scan_flags(nvbench::state &state) {
    time_scan(state, [](std::size_t n, std::size_t) { return SC::segmented_scan_temp_bytes<int>(n); },
              [](const SegmentedInputs &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                  SC::segmented_exclusive_scan(in.values.get(), in.flags.get(), out, in.n, SC::Sum{}, 0, temp, bytes,
                                               stream);
              });
}

void segmented_scan_offsets(nvbench::state &state) {
    time_scan(state, [](std::size_t n, std::size_t) { return SC::segmented_scan_temp_bytes<int>(n); },
              [](const SegmentedInputs &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                  SC::segmented_exclusive_scan_by_offsets(in.values.get(), in.n, in.offsets.get(), in.segments, out,
                                                          SC::Sum{}, 0, temp, bytes, stream);
              });
}

// One reduction with a result per segment: reduce(inputs, sums, temp, temp_bytes, stream).
template <class TempBytes, class Reduce>
void time_reduce(nvbench::state &state, TempBytes temp_bytes, Reduce reduce) {
    const std::optional<SegmentedInputs> in = state_inputs(state);
    if (!in) return;
    DeviceBuffer<int> sums(in->segments);
    DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    sums.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<int>(in->n);
    state.add_global_memory_writes<int>(in->segments);
    state.exec([&](nvbench::launch &launch) {
        reduce(*in, sums.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference =
        first_difference(read_back(sums.get(), in->segments, state.get_cuda_stream()), *segment_sums(*in), "sum");
    record_difference(state, difference);
}

void segmented_reduce_cub(nvbench::state &state) {
    time_reduce(
        state,
        [](std::size_t, std::size_t segments) {
            std::size_t bytes = 0;
            const int *no_offsets = nullptr;
            SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                          static_cast<int *>(nullptr),
                                                          static_cast<std::int64_t>(segments), no_offsets, no_offsets));
            return bytes;
        },
        [](const SegmentedInputs &in, int *sums, void *temp, std::size_t bytes, cudaStream_t stream) {
            SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes, in.values.get(), sums,
                                                          static_cast<std::int64_t>(in.segments), in.offsets.get(),
                                                          in.offsets.get() + 1, stream));
        });
}

// Ours on `algorithm`'s engine (Auto: the one it picks for n and the segment count).
void time_ours(nvbench::state &state, SegmentedReduceAlgorithm algorithm) {
    time_reduce(
        state, [](std::size_t n, std::size_t segments) { return SC::segmented_reduce_temp_bytes<int>(n, segments); },
        [algorithm](const SegmentedInputs &in, int *sums, void *temp, std::size_t bytes, cudaStream_t stream) {
            SC::segmented_reduce(in.values.get(), in.n, in.offsets.get(), in.segments, sums, SC::Sum{}, 0, temp, bytes,
                                 stream, algorithm);
        });
}

void segmented_reduce_ours(nvbench::state &state) { time_ours(state, SegmentedReduceAlgorithm::Auto); }
void segmented_reduce_merge_path(nvbench::state &state) { time_ours(state, SegmentedReduceAlgorithm::MergePath); }
void segmented_reduce_item_tiles(nvbench::state &state) { time_ours(state, SegmentedReduceAlgorithm::ItemTiles); }

// A reduction by key's outputs: a run's key and sum per non-empty segment, and the count of runs, which
// CUB writes to device memory (runs) and Thrust returns to the host (host_runs).
struct ByKeyOutputs {
    DeviceBuffer<int> unique_keys, sums, runs;
    int host_runs;
};
enum class RunCount { OnDevice, OnHost };

// One reduction by key on the segment ids: reduce(inputs, outputs, temp, temp_bytes, stream), under `tag`.
template <class ExecTag, class TempBytes, class Reduce>
void time_reduce_by_key(nvbench::state &state, ExecTag tag, RunCount run_count, TempBytes temp_bytes, Reduce reduce) {
    const std::optional<SegmentedInputs> in = state_inputs(state);
    if (!in) return;
    const cudaStream_t stream = state.get_cuda_stream();
    ByKeyOutputs out{DeviceBuffer<int>(in->n), DeviceBuffer<int>(in->segments), DeviceBuffer<int>(1), -1};
    DeviceBuffer<char> temp(temp_bytes(in->n));
    out.unique_keys.fill_bytes(kPoisonByte);
    out.sums.fill_bytes(kPoisonByte);
    out.runs.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<int>(in->n);
    state.add_global_memory_writes<int>(in->segments);
    state.exec(tag, [&](nvbench::launch &launch) {
        reduce(*in, out, temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    std::vector<int> nonempty, nonempty_sums;
    const std::vector<int> &sums = *segment_sums(*in);
    for (std::size_t s = 0; s < in->segments; ++s)
        if (in->host_offsets()[s] < in->host_offsets()[s + 1]) {
            nonempty.push_back(static_cast<int>(s));
            nonempty_sums.push_back(sums[s]);
        }
    const int runs = run_count == RunCount::OnHost ? out.host_runs : read_back(out.runs.get(), 1, stream)[0];
    if (runs < 0 || static_cast<std::size_t>(runs) != nonempty.size()) {
        record_check(state, false, std::to_string(runs) + " runs, expected " + std::to_string(nonempty.size()));
        return;
    }
    std::string difference =
        first_difference(read_back(out.unique_keys.get(), nonempty.size(), stream), nonempty, "key");
    if (difference.empty())
        difference = first_difference(read_back(out.sums.get(), nonempty.size(), stream), nonempty_sums, "sum");
    record_difference(state, difference);
}

// cub::DeviceReduce::ReduceByKey's storage, as sc_bench calls it: int item count, cuda::std::plus.
std::size_t cub_reduce_by_key_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<int *>(nullptr),
                                                 ::cuda::std::plus<>{}, static_cast<int>(n)));
    return bytes;
}

void segmented_reduce_cub_reduce_by_key(nvbench::state &state) {
    time_reduce_by_key(state, nvbench::exec_tag::none, RunCount::OnDevice, cub_reduce_by_key_bytes,
                       [](const SegmentedInputs &in, ByKeyOutputs &out, void *temp, std::size_t bytes,
                          cudaStream_t stream) {
                           SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
                               temp, bytes, in.keys.get(), out.unique_keys.get(), in.values.get(), out.sums.get(),
                               out.runs.get(), ::cuda::std::plus<>{}, static_cast<int>(in.n), stream));
                       });
}

// Thrust waits for the count of runs to return it: NVBench must not block the stream (exec_tag::sync).
void segmented_reduce_thrust_reduce_by_key(nvbench::state &state) {
    time_reduce_by_key(state, nvbench::exec_tag::sync, RunCount::OnHost,
                       [](std::size_t n) { return 2 * cub_reduce_by_key_bytes(n) + kThrustExtraBytes; },
                       [](const SegmentedInputs &in, ByKeyOutputs &out, void *temp, std::size_t bytes,
                          cudaStream_t stream) {
                           Arena arena(temp, bytes);
                           const auto ends = thrust::reduce_by_key(thrust::cuda::par_nosync(arena).on(stream),
                                                                   in.keys.get(), in.keys.get() + in.n,
                                                                   in.values.get(), out.unique_keys.get(),
                                                                   out.sums.get());
                           out.host_runs = static_cast<int>(ends.first - out.unique_keys.get());
                       });
}

// Names "<operation>/<implementation>", axes n and param (the segmentation): bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(segmented_scan_cub)
    .set_name("segmented_scan/cub")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_thrust)
    .set_name("segmented_scan/thrust")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_flags)
    .set_name("segmented_scan/flags")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_offsets)
    .set_name("segmented_scan/offsets")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_cub)
    .set_name("segmented_reduce/cub")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_cub_reduce_by_key)
    .set_name("segmented_reduce/cub_reduce_by_key")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_thrust_reduce_by_key)
    .set_name("segmented_reduce/thrust_reduce_by_key")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_ours)
    .set_name("segmented_reduce/ours")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_merge_path)
    .set_name("segmented_reduce/merge_path")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_item_tiles)
    .set_name("segmented_reduce/item_tiles")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);

}  // namespace
}  // namespace bench
