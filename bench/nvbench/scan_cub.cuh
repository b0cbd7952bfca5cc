#pragma once
// The scan part's CUB rows (bench/nvbench/scan.cu), compiled with the CCCL of the program that includes
// it: sc_nvbench_scan registers them as "<operation>/cub" (the toolkit's CUB), and sc_nvbench_cccl_next
// as "<operation>/cub_X.Y" (bench/anchors/cccl_next_scan.cu: SC_CCCL_NEXT's), so that both CUBs are
// timed by the one body on the same inputs (scan_inputs.cuh), counts and checks. Also the timing of a
// state that scan.cu's own rows share with them (time_scan, time_select):
//   scan       the int32 exclusive sum, cub::DeviceScan::ExclusiveSum (int item count)
//   compact    the compaction of x < keep for keep = 5, 50, 95 % (axis param), cub::DeviceSelect::If
//              (std::size_t count and item count)
//   partition  the partition of x < 5, 50, 95 (axis param), cub::DevicePartition::If (the falses reversed at
//              the back)
// The predicate x < keep is the including program's Below (a template argument): scan.cu's is the
// library's StreamCompaction::LessThan<int>, which sc_nvbench_cccl_next, linking no library, restates.
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "registration.cuh"
#include "scan_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <memory>
#include <string>

namespace bench {
namespace scan_cub {

// The part's axes, inputs and CPU references are scan_inputs::'s, named in full: check.h has a Falses of
// its own, and a using-declaration here would reach the files that include this.
// One scan implementation: scan(in, out, n, temp, temp_bytes, stream).
template <class Scan>
void time_scan(nvbench::state &state, std::size_t temp_bytes, Scan scan) {
    namespace SC = StreamCompaction;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_inputs::scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes<int>(n);
    state.exec([&](nvbench::launch &launch) {
        scan(in.get(), out.get(), n, temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    record_difference(state, first_difference(read_back(out.get(), n, stream), *scan_inputs::exclusive_sum_of(n)));
}

inline void scan_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    time_scan(state, bytes, [](const int *in, int *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, static_cast<int>(n), s));
    });
}

// One selection implementation (a compaction or a partition) of x < param, Below{param}: select(in,
// out, d_count, n, pred, temp, temp_bytes, stream) writes the count to d_count (a std::size_t); its
// output is checked against `falses`'s reference, the count against the number kept. Bytes: a
// compaction reads the inputs and writes the kept items and a 4-byte count; a partition reads and
// writes every item.
template <class Below, class Select>
void time_select(nvbench::state &state, scan_inputs::Falses falses, std::size_t temp_bytes, Select select) {
    namespace SC = StreamCompaction;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int keep = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_inputs::scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<std::size_t> count(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    count.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    const std::shared_ptr<const scan_inputs::Selected> expected = scan_inputs::selection_of(n, keep, falses);
    const std::size_t kept = expected->kept;
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes(falses == scan_inputs::Falses::None ? (kept + 1) * sizeof(int) : n * sizeof(int));
    state.exec([&](nvbench::launch &launch) {
        select(in.get(), out.get(), count.get(), n, Below{keep}, temp.get(), temp.bytes(),
               static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string wrong_count = scan_inputs::count_difference(read_back(count.get(), 1, stream)[0], kept);
    if (!wrong_count.empty()) {
        record_check(state, false, wrong_count);
        return;
    }
    record_difference(state, first_difference(read_back(out.get(), expected->items.size(), stream), expected->items));
}

template <class Below>
void compact_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                        static_cast<std::size_t *>(nullptr), n, Below{0}));
    time_select<Below>(state, scan_inputs::Falses::None, bytes,
                       [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                          std::size_t bytes, cudaStream_t s) {
                           SC_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, in, out, count, n, pred, s));
                       });
}

template <class Below>
void partition_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DevicePartition::If(nullptr, bytes, static_cast<const int *>(nullptr),
                                           static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                           static_cast<int>(n), Below{0}));
    time_select<Below>(state, scan_inputs::Falses::Reversed, bytes,
                       [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                          std::size_t bytes, cudaStream_t s) {
                           SC_CUDA_CHECK(
                               cub::DevicePartition::If(temp, bytes, in, out, count, static_cast<int>(n), pred, s));
                       });
}

// Each row registered as "<operation>/<implementation>" with scan.cu's axes, n and (the selections)
// param: one at a time, so that scan.cu keeps each beside ours in its run order.
inline nvbench::benchmark_base &add_scan_cub(const std::string &implementation) {
    return add_benchmark("scan/" + implementation, scan_cub).add_int64_power_of_two_axis("n", scan_inputs::kScanLog2);
}
template <class Below>
nvbench::benchmark_base &add_compact_cub(const std::string &implementation) {
    return add_benchmark("compact/" + implementation, compact_cub<Below>)
        .add_int64_power_of_two_axis("n", scan_inputs::kScanLog2)
        .add_string_axis("param", scan_inputs::kPercentsKept);
}
template <class Below>
nvbench::benchmark_base &add_partition_cub(const std::string &implementation) {
    return add_benchmark("partition/" + implementation, partition_cub<Below>)
        .add_int64_power_of_two_axis("n", scan_inputs::kScanLog2)
        .add_string_axis("param", scan_inputs::kPartitionPercents);
}

// Every row, in scan.cu's order.
template <class Below>
bool register_scan_cub(const std::string &implementation) {
    add_scan_cub(implementation);
    add_compact_cub<Below>(implementation);
    add_partition_cub<Below>(implementation);
    return true;
}

}  // namespace scan_cub
}  // namespace bench
