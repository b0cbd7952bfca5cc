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
// segmented.cu's CPU reference (exclusive_segment_sums of the same inputs, once per point). The first
// row's body and axes are segmented.cu's own segmented_scan/cub's (bench/nvbench/segmented_cub.cuh),
// compiled here with SC_CCCL_NEXT's CUB; the offsets' row is this file's, timed by the same time_scan.
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "nvbench/segmented_cub.cuh"
#include "segmented_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_segmented_scan.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bench {
namespace {

using segmented_cub::time_scan;
using segmented_inputs::kSegmentationNames;
using segmented_inputs::kSegmentedLog2;
using segmented_inputs::SegmentedInputs;

void segmented_scan_cub_offsets(nvbench::state &state) {
    time_scan<int>(
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

// segmented.cu's segmented_scan/cub as cub_X.Y, and the offsets' row with its axes.
[[maybe_unused]] nvbench::benchmark_base &kScanRegistered = segmented_cub::add_segmented_scan_cub(cub_implementation());
NVBENCH_BENCH(segmented_scan_cub_offsets)
    .set_name(cub_benchmark("segmented_scan", "_offsets"))
    .add_int64_power_of_two_axis("n", kSegmentedLog2)
    .add_string_axis("param", kSegmentationNames);

}  // namespace
}  // namespace bench
