#pragma once
// The CUB rows of the scan part's other element types (bench/nvbench/scan_types.cu), compiled with the
// CCCL of the program that includes it: sc_nvbench_scan_types registers them as "scan_<type>/cub" (the
// toolkit's CUB), and sc_nvbench_cccl_next as "scan_<type>/cub_X.Y" (bench/anchors/cccl_next_scan_types.cu:
// SC_CCCL_NEXT's), so that both CUBs are timed by the one body on the same inputs (scan_inputs.cuh:
// uniform integers in [0, 100) converted to the type), counts and checks: cub::DeviceScan::ExclusiveSum
// of int64 (long long), float and double items with the caller's temporary storage and an int item
// count. Also time_scan, which scan_types.cu's own rows share with them.
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "registration.cuh"
#include "scan_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <string>
#include <type_traits>

namespace bench {
namespace scan_types_cub {

// The part's axis, inputs and CPU references (scan_inputs.cuh).
using scan_inputs::exact_exclusive_sum_of;
using scan_inputs::fill_converted;
using scan_inputs::first_disagreement;
using scan_inputs::kScanLog2;

// One scan of T: scan(in, out, n, temp, temp_bytes, stream).
template <class T, class Scan>
void time_scan(nvbench::state &state, std::size_t temp_bytes, Scan scan) {
    namespace SC = StreamCompaction;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<T> in(n);
    fill_converted<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n);
    SC_CHECK_LAUNCH(fill_converted);
    SC::DeviceBuffer<T> out(n);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<T>(n);
    state.add_global_memory_writes<T>(n);
    state.exec([&](nvbench::launch &launch) {
        scan(in.get(), out.get(), n, temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    record_difference(state, first_disagreement(read_back(out.get(), n, stream), *exact_exclusive_sum_of(n)));
}

template <class T>
void scan_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const T *>(nullptr),
                                                static_cast<T *>(nullptr), static_cast<int>(n)));
    time_scan<T>(state, bytes, [](const T *in, T *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, static_cast<int>(n), s));
    });
}

// T's operation: scan_int64, scan_float or scan_double.
template <class T>
std::string scan_operation() {
    if constexpr (std::is_same_v<T, long long>)
        return "scan_int64";
    else if constexpr (std::is_same_v<T, float>)
        return "scan_float";
    else
        return "scan_double";
}

// T's row registered as "scan_<type>/<implementation>" with scan_types.cu's axis n: one type at a time,
// so that each program keeps it beside its other rows of the type in its run order.
template <class T>
nvbench::benchmark_base &add_scan_cub(const std::string &implementation) {
    static_assert(std::is_same_v<T, long long> || std::is_same_v<T, float> || std::is_same_v<T, double>);
    return add_benchmark(scan_operation<T>() + "/" + implementation, scan_cub<T>)
        .add_int64_power_of_two_axis("n", kScanLog2);
}

}  // namespace scan_types_cub
}  // namespace bench
