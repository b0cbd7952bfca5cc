// The segmented part on NVBench (issue #48), on segmented_inputs.cuh's inputs: n = 2^26 values in each of four
// segmentations (axis param: geometric lengths of mean 4, 64 and 4096, empty segments among them, and power-law
// lengths; make_segmentations), int values in [0, 16) (fill_values) and, for the operations named _float, float
// values in [-1, 1) (fill_float_values, multiples of 2^-23: segmented_inputs.cuh).
// Timed: the exclusive segmented sum (segmented_scan, segmented_scan_float), ours by head flags (flags) and by CSR
// offsets (offsets), against CUB's DeviceScan::ExclusiveSumByKey (cub) and, on ints only, Thrust's
// exclusive_scan_by_key (thrust) on segment ids as keys; and the per-segment sums (segmented_reduce,
// segmented_reduce_float), ours on Auto's engine (ours) and on each engine (merge_path, item_tiles), against CUB's
// DeviceSegmentedReduce::Sum (cub) and, on segment ids as keys, CUB's DeviceReduce::ReduceByKey
// (cub_reduce_by_key) and, on ints only, Thrust's reduce_by_key (thrust_reduce_by_key), which write the non-empty
// segments only. The float rows put a price on the fixed-order look-back that our scans and reductions take for
// floating-point values (the same bits on every run), beside the int rows' decoupled one; they are timed against
// CUB alone. The libraries are called with int item counts, an int64 segment count, Thrust's temporary storage
// from an Arena. Thrust's reduce_by_key returns its count to the host, waiting for it, so its states run under
// exec_tag::sync (no blocking kernel, no batch).
//
// Bytes: the values read and the results written (4n + 4n for a scan, 4n + 4 per segment for every reduction;
// float is 4 bytes too), not the segment description, whose form differs between implementations. Every output,
// and the temporary storage, is poisoned before the timed runs; what the last one wrote is checked in full
// against the CPU's sums on the same inputs: the scans' n items; the reductions' one sum per segment (0 for an
// empty one); the reductions by key's count of runs, their keys (the ids of the non-empty segments, in order) and
// their sums. Int sums must be equal; float sums must be within kFloatTolerance of the reference's largest
// magnitude (at least 1; no NaN) of the exact sums, which the CPU gets in double whatever its order, and no float
// may be left as the poison (float_difference says why).
#include "arena.h"
#include "check.cuh"
#include "segmented_cub.cuh"
#include "segmented_inputs.cuh"

#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using SC::SegmentedReduceAlgorithm;
// The part's inputs and axes, shared with the CCCL anchors (segmented_inputs.cuh).
using segmented_inputs::HostSum;
using segmented_inputs::kSegmentationNames;
using segmented_inputs::kSegmentedLog2;
using segmented_inputs::SegmentedInputs;
// The CUB scan and the timing and checks of a state, shared with sc_nvbench_cccl_next (segmented_cub.cuh).
using segmented_cub::add_segmented_scan_cub;
using segmented_cub::cub_scan_bytes;
using segmented_cub::scan_cub;
using segmented_cub::state_inputs;
using segmented_cub::sum_difference;
using segmented_cub::time_scan;

// Thrust's storage beyond that of the CUB call it makes: room to spare for its own allocations.
constexpr std::size_t kThrustExtraBytes = std::size_t{1} << 20;

// Each segment's sum, 0 for an empty one; once per point.
template <class V>
std::shared_ptr<const std::vector<HostSum<V>>> segment_sums(const SegmentedInputs<V> &in) {
    return cached_reference<std::vector<HostSum<V>>>("segment sums " + in.point, [&in] {
        const std::vector<int> &offsets = in.host_offsets();
        const std::vector<V> &values = *in.host_values;
        std::vector<HostSum<V>> sums(in.segments, 0);
        parallel_for(in.segments, [&](std::size_t begin, std::size_t end) {
            for (std::size_t s = begin; s < end; ++s)
                for (int i = offsets[s]; i < offsets[s + 1]; ++i) sums[s] += values[i];
        });
        return sums;
    });
}

template <class V>
void scan_flags(nvbench::state &state) {
    time_scan<V>(state, [](std::size_t n, std::size_t) { return SC::segmented_scan_temp_bytes<V>(n); },
                 [](const SegmentedInputs<V> &in, V *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC::segmented_exclusive_scan(in.values.get(), in.flags.get(), out, in.n, SC::Sum{}, V(0), temp,
                                                  bytes, stream);
                 });
}

template <class V>
void scan_offsets(nvbench::state &state) {
    time_scan<V>(state, [](std::size_t n, std::size_t) { return SC::segmented_scan_temp_bytes<V>(n); },
                 [](const SegmentedInputs<V> &in, V *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                     SC::segmented_exclusive_scan_by_offsets(in.values.get(), in.n, in.offsets.get(), in.segments,
                                                             out, SC::Sum{}, V(0), temp, bytes, stream);
                 });
}

void segmented_scan_flags(nvbench::state &state) { scan_flags<int>(state); }
void segmented_scan_offsets(nvbench::state &state) { scan_offsets<int>(state); }
void segmented_scan_float_cub(nvbench::state &state) { scan_cub<float>(state); }
void segmented_scan_float_flags(nvbench::state &state) { scan_flags<float>(state); }
void segmented_scan_float_offsets(nvbench::state &state) { scan_offsets<float>(state); }

// Thrust's scan by key is CUB's, plus allocations of its own: from the arena, so that no timed run allocates.
void segmented_scan_thrust(nvbench::state &state) {
    time_scan<int>(state, [](std::size_t n, std::size_t) { return 2 * cub_scan_bytes<int>(n) + kThrustExtraBytes; },
                   [](const SegmentedInputs<int> &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
                       Arena arena(temp, bytes);
                       thrust::exclusive_scan_by_key(thrust::cuda::par_nosync(arena).on(stream), in.keys.get(),
                                                     in.keys.get() + in.n, in.values.get(), out);
                   });
}

// One reduction with a result per segment: reduce(inputs, sums, temp, temp_bytes, stream).
template <class V, class TempBytes, class Reduce>
void time_reduce(nvbench::state &state, TempBytes temp_bytes, Reduce reduce) {
    const std::optional<SegmentedInputs<V>> in = state_inputs<V>(state);
    if (!in) return;
    DeviceBuffer<V> sums(in->segments);
    DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    sums.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<V>(in->n);
    state.add_global_memory_writes<V>(in->segments);
    state.exec([&](nvbench::launch &launch) {
        reduce(*in, sums.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference =
        sum_difference(read_back(sums.get(), in->segments, state.get_cuda_stream()), *segment_sums(*in), "sum");
    record_difference(state, difference);
}

template <class V>
void reduce_cub(nvbench::state &state) {
    time_reduce<V>(
        state,
        [](std::size_t, std::size_t segments) {
            std::size_t bytes = 0;
            const int *no_offsets = nullptr;
            SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, static_cast<const V *>(nullptr),
                                                          static_cast<V *>(nullptr),
                                                          static_cast<std::int64_t>(segments), no_offsets, no_offsets));
            return bytes;
        },
        [](const SegmentedInputs<V> &in, V *sums, void *temp, std::size_t bytes, cudaStream_t stream) {
            SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes, in.values.get(), sums,
                                                          static_cast<std::int64_t>(in.segments), in.offsets.get(),
                                                          in.offsets.get() + 1, stream));
        });
}

// Ours on `algorithm`'s engine (Auto: the one it picks for n and the segment count).
template <class V>
void time_ours(nvbench::state &state, SegmentedReduceAlgorithm algorithm) {
    time_reduce<V>(
        state, [](std::size_t n, std::size_t segments) { return SC::segmented_reduce_temp_bytes<V>(n, segments); },
        [algorithm](const SegmentedInputs<V> &in, V *sums, void *temp, std::size_t bytes, cudaStream_t stream) {
            SC::segmented_reduce(in.values.get(), in.n, in.offsets.get(), in.segments, sums, SC::Sum{}, V(0), temp,
                                 bytes, stream, algorithm);
        });
}

void segmented_reduce_cub(nvbench::state &state) { reduce_cub<int>(state); }
void segmented_reduce_ours(nvbench::state &state) { time_ours<int>(state, SegmentedReduceAlgorithm::Auto); }
void segmented_reduce_merge_path(nvbench::state &state) { time_ours<int>(state, SegmentedReduceAlgorithm::MergePath); }
void segmented_reduce_item_tiles(nvbench::state &state) { time_ours<int>(state, SegmentedReduceAlgorithm::ItemTiles); }
void segmented_reduce_float_cub(nvbench::state &state) { reduce_cub<float>(state); }
void segmented_reduce_float_ours(nvbench::state &state) { time_ours<float>(state, SegmentedReduceAlgorithm::Auto); }
void segmented_reduce_float_merge_path(nvbench::state &state) {
    time_ours<float>(state, SegmentedReduceAlgorithm::MergePath);
}
void segmented_reduce_float_item_tiles(nvbench::state &state) {
    time_ours<float>(state, SegmentedReduceAlgorithm::ItemTiles);
}

// A reduction by key's outputs: a run's key and sum per non-empty segment, and the count of runs, which
// CUB writes to device memory (runs) and Thrust returns to the host (host_runs).
template <class V>
struct ByKeyOutputs {
    DeviceBuffer<int> unique_keys;
    DeviceBuffer<V> sums;
    DeviceBuffer<int> runs;
    int host_runs;
};
enum class RunCount { OnDevice, OnHost };

// One reduction by key on the segment ids: reduce(inputs, outputs, temp, temp_bytes, stream), under `tag`.
template <class V, class ExecTag, class TempBytes, class Reduce>
void time_reduce_by_key(nvbench::state &state, ExecTag tag, RunCount run_count, TempBytes temp_bytes, Reduce reduce) {
    const std::optional<SegmentedInputs<V>> in = state_inputs<V>(state);
    if (!in) return;
    const cudaStream_t stream = state.get_cuda_stream();
    ByKeyOutputs<V> out{DeviceBuffer<int>(in->n), DeviceBuffer<V>(in->segments), DeviceBuffer<int>(1), -1};
    DeviceBuffer<char> temp(temp_bytes(in->n));
    out.unique_keys.fill_bytes(kPoisonByte);
    out.sums.fill_bytes(kPoisonByte);
    out.runs.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<V>(in->n);
    state.add_global_memory_writes<V>(in->segments);
    state.exec(tag, [&](nvbench::launch &launch) {
        reduce(*in, out, temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    std::vector<int> nonempty;
    std::vector<HostSum<V>> nonempty_sums;
    const std::vector<HostSum<V>> &sums = *segment_sums(*in);
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
        difference = sum_difference(read_back(out.sums.get(), nonempty.size(), stream), nonempty_sums, "sum");
    record_difference(state, difference);
}

// cub::DeviceReduce::ReduceByKey's storage, called with an int item count, cuda::std::plus.
template <class V>
std::size_t cub_reduce_by_key_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<const V *>(nullptr),
                                                 static_cast<V *>(nullptr), static_cast<int *>(nullptr),
                                                 ::cuda::std::plus<>{}, static_cast<int>(n)));
    return bytes;
}

template <class V>
void reduce_cub_reduce_by_key(nvbench::state &state) {
    time_reduce_by_key<V>(state, nvbench::exec_tag::none, RunCount::OnDevice, cub_reduce_by_key_bytes<V>,
                          [](const SegmentedInputs<V> &in, ByKeyOutputs<V> &out, void *temp, std::size_t bytes,
                             cudaStream_t stream) {
                              SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(
                                  temp, bytes, in.keys.get(), out.unique_keys.get(), in.values.get(), out.sums.get(),
                                  out.runs.get(), ::cuda::std::plus<>{}, static_cast<int>(in.n), stream));
                          });
}

void segmented_reduce_cub_reduce_by_key(nvbench::state &state) { reduce_cub_reduce_by_key<int>(state); }
void segmented_reduce_float_cub_reduce_by_key(nvbench::state &state) { reduce_cub_reduce_by_key<float>(state); }

// Thrust waits for the count of runs to return it: NVBench must not block the stream (exec_tag::sync).
void segmented_reduce_thrust_reduce_by_key(nvbench::state &state) {
    time_reduce_by_key<int>(state, nvbench::exec_tag::sync, RunCount::OnHost,
                            [](std::size_t n) { return 2 * cub_reduce_by_key_bytes<int>(n) + kThrustExtraBytes; },
                            [](const SegmentedInputs<int> &in, ByKeyOutputs<int> &out, void *temp, std::size_t bytes,
                               cudaStream_t stream) {
                                Arena arena(temp, bytes);
                                const auto ends = thrust::reduce_by_key(
                                    thrust::cuda::par_nosync(arena).on(stream), in.keys.get(), in.keys.get() + in.n,
                                    in.values.get(), out.unique_keys.get(), out.sums.get());
                                out.host_runs = static_cast<int>(ends.first - out.unique_keys.get());
                            });
}

// Names "<operation>/<implementation>", axes n and param (the segmentation): bench/nvbench/nvbench_to_csv.py.
[[maybe_unused]] nvbench::benchmark_base &kSegmentedScanCub = add_segmented_scan_cub("cub");
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

// The float rows: the int operations' implementations but Thrust's, in the same order.
NVBENCH_BENCH(segmented_scan_float_cub)
    .set_name("segmented_scan_float/cub")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_float_flags)
    .set_name("segmented_scan_float/flags")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_float_offsets)
    .set_name("segmented_scan_float/offsets")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_float_cub)
    .set_name("segmented_reduce_float/cub")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_float_cub_reduce_by_key)
    .set_name("segmented_reduce_float/cub_reduce_by_key")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_float_ours)
    .set_name("segmented_reduce_float/ours")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_float_merge_path)
    .set_name("segmented_reduce_float/merge_path")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_reduce_float_item_tiles)
    .set_name("segmented_reduce_float/item_tiles")
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);

}  // namespace
}  // namespace bench
