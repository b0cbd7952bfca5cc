// sc_nvbench_cccl_next's rows of the scan part (bench/nvbench/scan.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (uniform ints in [0, 100): scan_inputs.cuh) at its points,
// n = 2^20, 2^24, 2^28 (axis n), called as scan.cu calls the toolkit's CUB:
//   scan/cub_X.Y       the int32 exclusive sum, cub::DeviceScan::ExclusiveSum (int item count)
//   compact/cub_X.Y    the compaction of x < keep for keep = 5, 50, 95 % (axis param),
//                      cub::DeviceSelect::If (std::size_t count and item count)
//   partition/cub_X.Y  the partition of x < 50 (param "50"), cub::DevicePartition::If (the falses
//                      reversed at the back)
// Bytes as scan.cu counts them: the scan and the partition read and write every item (8n); the
// compaction reads every item and writes the kept ones and a 4-byte count. Timed: the one call on
// NVBench's stream, stream-ordered. Each output (count included) and the temporary storage are
// poisoned before the timed runs; what the last one wrote is checked in full against scan.cu's CPU
// references (exclusive_sum_of, selection_of: the same cached computations), the count first.
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
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
namespace {

namespace SC = StreamCompaction;
// The part's axes, inputs and CPU references (using-declarations: check.h has a Falses of its own).
using scan_inputs::count_difference;
using scan_inputs::exclusive_sum_of;
using scan_inputs::Falses;
using scan_inputs::kPartitionPercents;
using scan_inputs::kPercentsKept;
using scan_inputs::kScanLog2;
using scan_inputs::scan_input;
using scan_inputs::Selected;
using scan_inputs::selection_of;

// The predicate of the compactions and the partition, x < keep percent: StreamCompaction::LessThan<int>,
// the toolkit CUB's, restated without the project's headers.
struct Below {
    int limit;
    __host__ __device__ bool operator()(const int &x) const { return x < limit; }
};

void scan_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    std::size_t temp_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes<int>(n);
    state.exec([&](nvbench::launch &launch) {
        std::size_t bytes = temp.bytes();
        const int *d_in = in.get();  // const int *: as scan.cu's CUB scan gets its input
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, d_in, out.get(), static_cast<int>(n),
                                                    static_cast<cudaStream_t>(launch.get_stream())));
    });
    record_difference(state, first_difference(read_back(out.get(), n, stream), *exclusive_sum_of(n)));
}

// A selection (a compaction or a partition) of x < param: select(in, out, d_count, n, pred, temp,
// temp_bytes, stream) writes the count to d_count (a std::size_t); checked against `falses`'s reference.
template <class Select>
void time_select(nvbench::state &state, Falses falses, std::size_t temp_bytes, Select select) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int keep = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<std::size_t> count(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    count.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    const std::shared_ptr<const Selected> expected = selection_of(n, keep, falses);
    const std::size_t kept = expected->kept;
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes(falses == Falses::None ? (kept + 1) * sizeof(int) : n * sizeof(int));
    state.exec([&](nvbench::launch &launch) {
        select(in.get(), out.get(), count.get(), n, Below{keep}, temp.get(), temp.bytes(),
               static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string wrong_count = count_difference(read_back(count.get(), 1, stream)[0], kept);
    if (!wrong_count.empty()) {
        record_check(state, false, wrong_count);
        return;
    }
    record_difference(state, first_difference(read_back(out.get(), expected->items.size(), stream), expected->items));
}

void compact_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                        static_cast<std::size_t *>(nullptr), n, Below{0}));
    time_select(state, Falses::None, bytes,
                [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                   std::size_t bytes, cudaStream_t s) {
                    SC_CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, in, out, count, n, pred, s));
                });
}

void partition_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DevicePartition::If(nullptr, bytes, static_cast<const int *>(nullptr),
                                           static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                           static_cast<int>(n), Below{0}));
    time_select(state, Falses::Reversed, bytes,
                [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                   std::size_t bytes, cudaStream_t s) {
                    SC_CUDA_CHECK(cub::DevicePartition::If(temp, bytes, in, out, count, static_cast<int>(n), pred, s));
                });
}

// scan.cu's axes for its scan/cub, compact/cub and partition/cub.
NVBENCH_BENCH(scan_cub).set_name(cub_benchmark("scan")).add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(compact_cub)
    .set_name(cub_benchmark("compact"))
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
NVBENCH_BENCH(partition_cub)
    .set_name(cub_benchmark("partition"))
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPartitionPercents);

}  // namespace
}  // namespace bench
