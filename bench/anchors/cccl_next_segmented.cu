// sc_nvbench_cccl_next's rows of the segmented part (bench/nvbench/segmented.cu): the CUB of
// SC_CCCL_NEXT (cccl_next.cuh) on that part's inputs (segmented_inputs.cuh: n = 2^26 int values in
// [0, 16) in each of its four segmentations, axis param "mean 4", "mean 64", "mean 4096",
// "power-law"), the exclusive segmented sum (operation segmented_scan):
//   segmented_scan/cub_X.Y          cub::DeviceScan::ExclusiveSumByKey on segment ids as keys, as
//                                   segmented.cu calls the toolkit's (int item count, equal_to)
//   segmented_scan/cub_X.Y_offsets  cub::DeviceSegmentedScan::ExclusiveSegmentedSum on the CSR
//                                   offsets (CCCL 3.3 on; an int64 segment count)
// Bytes as segmented.cu counts them: the values read and the results written (4n + 4n), not the
// segment description, whose form differs between implementations. The output and the temporary
// storage are poisoned before the timed runs; what the last one wrote is checked in full against
// segmented.cu's CPU reference (exclusive_segment_sums of the same inputs, once per point).
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "segmented_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_scan.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using segmented_inputs::exclusive_segment_sums;
using segmented_inputs::kSegmentationNames;
using segmented_inputs::kSegmentedLog2;
using segmented_inputs::make_inputs;
using segmented_inputs::NamedSegmentation;
using segmented_inputs::SegmentedInputs;
using segmented_inputs::segmentation_named;

// The state's inputs; none (the state skipped) where its param names no segmentation.
std::optional<SegmentedInputs<int>> state_inputs(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    NamedSegmentation segmentation = segmentation_named(n, state.get_string("param"));
    if (segmentation.segmentation == nullptr) {
        state.skip("no segmentation named " + state.get_string("param"));
        return std::nullopt;
    }
    return make_inputs<int>(std::move(segmentation), n, state.get_cuda_stream());
}

// One segmented scan: scan(inputs, out, temp, temp_bytes, stream) writes the values' exclusive
// segmented sums to out; temp_bytes(n, segments) is its storage.
template <class TempBytes, class Scan>
void time_scan(nvbench::state &state, TempBytes temp_bytes, Scan scan) {
    const std::optional<SegmentedInputs<int>> in = state_inputs(state);
    if (!in) return;
    SC::DeviceBuffer<int> out(in->n);
    SC::DeviceBuffer<char> temp(temp_bytes(in->n, in->segments));
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(in->n);
    state.add_global_memory_reads<int>(in->n);
    state.add_global_memory_writes<int>(in->n);
    state.exec([&](nvbench::launch &launch) {
        scan(*in, out.get(), temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference = first_difference(read_back(out.get(), in->n, state.get_cuda_stream()),
                                                    *exclusive_segment_sums(*in), "scan");
    record_difference(state, difference);
}

void segmented_scan_cub(nvbench::state &state) {
    time_scan(
        state,
        [](std::size_t n, std::size_t) {
            std::size_t bytes = 0;
            SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, bytes, static_cast<const int *>(nullptr),
                                                             static_cast<const int *>(nullptr),
                                                             static_cast<int *>(nullptr), static_cast<int>(n),
                                                             ::cuda::std::equal_to<>{}));
            return bytes;
        },
        [](const SegmentedInputs<int> &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
            SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(temp, bytes, in.keys.get(), in.values.get(), out,
                                                             static_cast<int>(in.n), ::cuda::std::equal_to<>{},
                                                             stream));
        });
}

void segmented_scan_cub_offsets(nvbench::state &state) {
    time_scan(
        state,
        [](std::size_t, std::size_t segments) {
            std::size_t bytes = 0;
            const int *no_offsets = nullptr;
            SC_CUDA_CHECK(cub::DeviceSegmentedScan::ExclusiveSegmentedSum(
                nullptr, bytes, static_cast<const int *>(nullptr), static_cast<int *>(nullptr), no_offsets,
                no_offsets, static_cast<std::int64_t>(segments)));
            return bytes;
        },
        [](const SegmentedInputs<int> &in, int *out, void *temp, std::size_t bytes, cudaStream_t stream) {
            const int *offsets = in.offsets.get();
            SC_CUDA_CHECK(cub::DeviceSegmentedScan::ExclusiveSegmentedSum(temp, bytes, in.values.get(), out, offsets,
                                                                          offsets + 1,
                                                                          static_cast<std::int64_t>(in.segments),
                                                                          stream));
        });
}

// segmented.cu's axes for its segmented_scan/cub.
NVBENCH_BENCH(segmented_scan_cub)
    .set_name(cub_benchmark("segmented_scan"))
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);
NVBENCH_BENCH(segmented_scan_cub_offsets)
    .set_name(cub_benchmark("segmented_scan", "_offsets"))
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);

}  // namespace
}  // namespace bench
