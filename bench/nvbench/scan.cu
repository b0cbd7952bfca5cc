// The scan part on NVBench (issue #48): on the scan part's inputs (scan_inputs.cuh: uniform ints in
// [0, 100), fill_percentiles) at n = 2^20, 2^24 and 2^28 (axis n; the full profile: 2^10, 2^12,
// ..., 2^28), the GPU's copy (copy/cudaMemcpyAsync), the limit of a pass that reads and writes every
// item once; the int32 exclusive sum, ours (scan/single_pass) against CUB's DeviceScan::ExclusiveSum
// (scan/cub) and Thrust's exclusive_scan (scan/thrust), and the course's scans beside them
// (scan/naive, at 2^20 and 2^24 alone: its O(n log n) work is left out above 2^26; scan/efficient;
// scan/shared); the compaction of x < keep for keep = 5, 50, 95 % (axis param), ours (select_if:
// compact/single_pass) against CUB's DeviceSelect::If (compact/cub) and thrust::copy_if
// (compact/thrust), and the course's (compact/efficient, compact/shared), which keep the non-zero
// items: they compact x < keep restated as x + 1 where kept and 0 elsewhere (to_nonzero_selection,
// made before the timed runs), so that every implementation keeps the same items, and write an int
// count; and the partitions of x < 5, 50, 95, ours (partition: partition/single_pass, CUB's order, the
// falses reversed at the back; stable_partition: partition/single_pass_stable) against CUB's
// DevicePartition::If. CUB's item counts are int but DeviceSelect::If's (std::size_t), its selected
// counts std::size_t. The course's units and Thrust are timed through their device entry points
// (device pointers, the caller's temporary storage, the stream; Thrust's allocations served from
// it), at the process-wide block_sizes() that the course's units read at each launch (the
// library's defaults: outside the sweep nothing sets them). Every timed call is stream-ordered but
// compact/thrust's: thrust::copy_if returns its count to the host, waiting for it (a round trip
// that is part of its time, as for every caller of Thrust), so it runs under exec_tag::sync (no
// blocking kernel, no batch).
//
// The block-size sweep: operation sweep_scan, the scans with a block size of their own, ours
// (sweep_scan/single_pass: the Tuning of its call's environment) and the course's (sweep_scan/naive
// at 2^24 alone, sweep_scan/efficient, sweep_scan/shared: the field of block_sizes() each reads,
// put back after the state), at 64 ... 1024 threads a block (axis block, which nvbench_to_csv.py
// makes the CSV's block_size) at n = 2^24 and 2^28. Its libraries are scan/cub's and scan/thrust's
// rows at the same n, which bench/plot/plot.py's plot_sweep draws as lines and anchors.py compares
// sweep_scan's rows with.
//
// Not here: sizes other than powers of two; the block_size column of the rows outside the sweep
// (nvbench_to_csv.py takes it from an axis block alone: 0 here); the course's host-pointer
// interfaces (Naive::scan(n, odata, idata) and the like, which allocate, copy in and out and time
// themselves).
//
// Bytes, the least each must move: the copy, the scans and the partitions read and write every item
// (8n); a compaction reads every item and writes the kept ones and a 4-byte count. NVBench's cold
// runs flush the L2 between samples. Each output (count included) and the temporary storage are
// poisoned before the timed runs, and what the last one wrote is checked in full afterwards against
// the CPU's result on the same inputs (the copy against its input): the course's compactions' items
// each less one, their count as the int it is; Thrust's count as copy_if returned it.
#include "arena.h"
#include "check.cuh"
#include "scan_cub.cuh"
#include "scan_inputs.cuh"

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/efficient.h>
#include <stream_compaction/naive.h>
#include <stream_compaction/shared.h>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/thrust.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cub/device/device_select.cuh>
#include <nvbench/nvbench.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using Below = SC::LessThan<int>;  // the compactions' predicate, x < keep percent (scan_cub.cuh's CUB rows' too)

// The part's axes, inputs and CPU references, shared with the CCCL anchors (scan_inputs.cuh).
using scan_inputs::count_difference;
using scan_inputs::Falses;
using scan_inputs::kPartitionPercents;
using scan_inputs::kPercentsKept;
using scan_inputs::kScanLog2;
using scan_inputs::scan_input;
using scan_inputs::Selected;
using scan_inputs::selection_of;
// The CUB rows and the timing of a state, shared with sc_nvbench_cccl_next (scan_cub.cuh).
using scan_cub::add_compact_cub;
using scan_cub::add_partition_cub;
using scan_cub::add_scan_cub;
using scan_cub::time_scan;
using scan_cub::time_select;

// The naive scan does O(n log n) work: left out above 2^26 (--axis still takes it there).
const std::vector<nvbench::int64_t> kNaiveLog2 = profile_log2({20, 24}, every_other_log2(10, 26));
const std::vector<nvbench::int64_t> kSweepLog2 = {24, 28};
const std::vector<nvbench::int64_t> kNaiveSweepLog2 = {24};
const std::vector<nvbench::int64_t> kSweepBlocks = {64, 128, 256, 512, 1024};
// Thrust's storage beyond CUB's: the counter of copy_if, and room to spare. A Thrust scan's request
// beyond its storage would be met by a cudaMalloc inside the timed run (Thrust::exclusive_scan's
// ScratchAllocator), a copy_if's throws (Arena).
constexpr std::size_t kThrustExtraBytes = std::size_t{1} << 20;

void copy_bandwidth(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    out.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes<int>(n);
    state.exec([&](nvbench::launch &launch) {
        SC_CUDA_CHECK(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(int), cudaMemcpyDeviceToDevice,
                                      launch.get_stream()));
    });
    const unsigned long long wrong = mismatches(out.get(), in.get(), n, stream);
    record_check(state, wrong == 0, std::to_string(wrong) + " items differ from the input");
}

void scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, SC::scan_temp_bytes<int>(n),
              [](const int *in, int *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::exclusive_scan(in, out, n, SC::Sum{}, 0, temp, bytes, s);
              });
}

// Thrust's scan is CUB's, its storage from ours: twice CUB's and kThrustExtraBytes, room to spare,
// so that no timed run allocates.
void scan_thrust(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, 2 * SC::Thrust::scan_temp_bytes(n) + kThrustExtraBytes, SC::Thrust::exclusive_scan);
}

void scan_naive(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, SC::Naive::scan_temp_bytes(n), SC::Naive::exclusive_scan);
}

void scan_efficient(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, SC::Efficient::scan_temp_bytes(n), SC::Efficient::exclusive_scan);
}

void scan_shared(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, SC::Shared::scan_temp_bytes(n), SC::Shared::exclusive_scan);
}

// The process-wide block sizes of the course's units as they were, put back when it goes: a sweep
// state leaves the states after it at the defaults, whatever their order.
class CourseBlockSizesRestored {
  public:
    CourseBlockSizesRestored() : saved_(SC::block_sizes()) {}
    ~CourseBlockSizesRestored() { SC::block_sizes() = saved_; }
    CourseBlockSizesRestored(const CourseBlockSizesRestored &) = delete;
    CourseBlockSizesRestored &operator=(const CourseBlockSizesRestored &) = delete;

  private:
    SC::BlockSizes saved_;
};

// A course scan at the sweep's block size: the field of block_sizes() that it reads at each launch,
// set for this state alone. Its temporary storage holds at every block size (Shared's is sized for
// the smallest).
template <class Scan>
void sweep_course_scan(nvbench::state &state, SC::BlockSize SC::BlockSizes::*field, std::size_t temp_bytes,
                       Scan scan) {
    const CourseBlockSizesRestored restored;
    SC::block_sizes().*field = static_cast<int>(state.get_int64("block"));
    time_scan(state, temp_bytes, scan);
}

void sweep_scan_naive(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    sweep_course_scan(state, &SC::BlockSizes::naive, SC::Naive::scan_temp_bytes(n), SC::Naive::exclusive_scan);
}

void sweep_scan_efficient(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    sweep_course_scan(state, &SC::BlockSizes::efficient, SC::Efficient::scan_temp_bytes(n),
                      SC::Efficient::exclusive_scan);
}

void sweep_scan_shared(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    sweep_course_scan(state, &SC::BlockSizes::shared, SC::Shared::scan_temp_bytes(n), SC::Shared::exclusive_scan);
}

// Ours at the sweep's block size: the Tuning of its calls' environment (scan_temp_bytes holds at
// every block size).
void sweep_scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    SC::Tuning tuning;
    tuning.single_pass = static_cast<int>(state.get_int64("block"));
    time_scan(state, SC::scan_temp_bytes<int>(n),
              [tuning](const int *in, int *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::exclusive_scan(in, out, n, SC::Sum{}, 0, temp, bytes, SC::CallEnvironment(s, tuning));
              });
}

void compact_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select<Below>(state, Falses::None, SC::select_temp_bytes<int>(n),
                       [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                          std::size_t bytes, cudaStream_t s) {
                           SC::select_if(in, out, count, n, pred, temp, bytes, s);
                       });
}

// thrust::copy_if returns the end of its output, so it waits for the count on the host: NVBench must
// not block the stream (exec_tag::sync). Its storage (CUB's select storage and its own counter) comes
// from an Arena over ours, a fresh one each call (an Arena serves one).
void compact_thrust(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int keep = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    std::size_t cub_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, cub_bytes, static_cast<const int *>(nullptr),
                                        static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr), n,
                                        Below{0}));
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<char> temp(2 * cub_bytes + kThrustExtraBytes);
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    const std::shared_ptr<const Selected> expected = selection_of(n, keep, Falses::None);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes((expected->kept + 1) * sizeof(int));
    std::ptrdiff_t kept = poison_value<std::ptrdiff_t>();  // the count copy_if returned to the host
    state.exec(nvbench::exec_tag::sync, [&](nvbench::launch &launch) {
        Arena arena(temp.get(), temp.bytes());
        const int *begin = in.get();
        kept = thrust::copy_if(thrust::cuda::par_nosync(arena).on(launch.get_stream()), begin, begin + n, out.get(),
                               Below{keep}) -
               out.get();
    });
    const std::string wrong_count = count_difference(kept, expected->kept);
    if (!wrong_count.empty()) {
        record_check(state, false, wrong_count);
        return;
    }
    record_difference(state, first_difference(read_back(out.get(), expected->kept, stream), expected->items));
}

// The restatement of x < keep for the course's compactions, which keep the non-zero items:
// a kept x as x + 1 (x may be 0), every other item as 0.
__global__ void to_nonzero_selection(const int *in, int *out, std::size_t count, int keep) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i] < keep ? in[i] + 1 : 0;
}

// A course compaction (Efficient's, Shared's device entry point; a pointer, since the name is also
// the host interface's): compact(in, out, d_count, n, temp, temp_bytes, stream) of the inputs
// restated by to_nonzero_selection, its count an int. Its output, each item less one, is checked
// against the selection of x < keep.
using CourseCompact = void (*)(const int *, int *, int *, std::size_t, void *, std::size_t, cudaStream_t);
void time_nonzero_compact(nvbench::state &state, std::size_t temp_bytes, CourseCompact compact) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int keep = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> nonzero(n);
    to_nonzero_selection<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), nonzero.get(), n, keep);
    SC_CHECK_LAUNCH(to_nonzero_selection);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<int> count(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    out.fill_bytes(kPoisonByte);
    count.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    const std::shared_ptr<const Selected> expected = selection_of(n, keep, Falses::None);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes((expected->kept + 1) * sizeof(int));
    state.exec([&](nvbench::launch &launch) {
        compact(nonzero.get(), out.get(), count.get(), n, temp.get(), temp.bytes(),
                static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string wrong_count = count_difference(read_back(count.get(), 1, stream)[0], expected->kept);
    if (!wrong_count.empty()) {
        record_check(state, false, wrong_count);
        return;
    }
    std::vector<int> got = read_back(out.get(), expected->kept, stream);
    // Less one in unsigned arithmetic: a wrong item (a poisoned one) must not overflow an int.
    parallel_for(got.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) got[i] = static_cast<int>(static_cast<unsigned>(got[i]) - 1u);
    });
    record_difference(state, first_difference(got, expected->items));
}

void compact_efficient(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_nonzero_compact(state, SC::Efficient::compact_temp_bytes(n), SC::Efficient::compact);
}

void compact_shared(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_nonzero_compact(state, SC::Shared::compact_temp_bytes(n), SC::Shared::compact);
}

void partition_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select<Below>(state, Falses::Reversed, SC::select_temp_bytes<int>(n),
                       [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                          std::size_t bytes, cudaStream_t s) {
                           SC::partition(in, out, count, n, pred, temp, bytes, s);
                       });
}

void partition_single_pass_stable(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select<Below>(state, Falses::InOrder, SC::select_temp_bytes<int>(n),
                       [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                          std::size_t bytes, cudaStream_t s) {
                           SC::stable_partition(in, out, count, n, pred, temp, bytes, s);
                       });
}

// Names "<operation>/<implementation>", axes n and param: what bench/nvbench/nvbench_to_csv.py makes
// the CSV's rows of. (NVBENCH_BENCH pastes the function's name into its own: unqualified, here.)
NVBENCH_BENCH(copy_bandwidth).set_name("copy/cudaMemcpyAsync").add_int64_power_of_two_axis("n", kScanLog2);
[[maybe_unused]] nvbench::benchmark_base &kScanCub = add_scan_cub("cub");
NVBENCH_BENCH(scan_single_pass).set_name("scan/single_pass").add_int64_power_of_two_axis("n", kScanLog2);
// The course's scans beside them, and the sweep, while the CPU's sums of these n are still cached.
NVBENCH_BENCH(scan_thrust).set_name("scan/thrust").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_naive).set_name("scan/naive").add_int64_power_of_two_axis("n", kNaiveLog2);
NVBENCH_BENCH(scan_efficient).set_name("scan/efficient").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_shared).set_name("scan/shared").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(sweep_scan_naive)
    .set_name("sweep_scan/naive")
    .add_int64_power_of_two_axis("n", kNaiveSweepLog2)
    .add_int64_axis("block", kSweepBlocks);
NVBENCH_BENCH(sweep_scan_efficient)
    .set_name("sweep_scan/efficient")
    .add_int64_power_of_two_axis("n", kSweepLog2)
    .add_int64_axis("block", kSweepBlocks);
NVBENCH_BENCH(sweep_scan_shared)
    .set_name("sweep_scan/shared")
    .add_int64_power_of_two_axis("n", kSweepLog2)
    .add_int64_axis("block", kSweepBlocks);
NVBENCH_BENCH(sweep_scan_single_pass)
    .set_name("sweep_scan/single_pass")
    .add_int64_power_of_two_axis("n", kSweepLog2)
    .add_int64_axis("block", kSweepBlocks);
[[maybe_unused]] nvbench::benchmark_base &kCompactCub = add_compact_cub<Below>("cub");
NVBENCH_BENCH(compact_single_pass)
    .set_name("compact/single_pass")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
NVBENCH_BENCH(compact_thrust)
    .set_name("compact/thrust")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
NVBENCH_BENCH(compact_efficient)
    .set_name("compact/efficient")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
NVBENCH_BENCH(compact_shared)
    .set_name("compact/shared")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
[[maybe_unused]] nvbench::benchmark_base &kPartitionCub = add_partition_cub<Below>("cub");
NVBENCH_BENCH(partition_single_pass)
    .set_name("partition/single_pass")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPartitionPercents);
NVBENCH_BENCH(partition_single_pass_stable)
    .set_name("partition/single_pass_stable")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPartitionPercents);

}  // namespace
}  // namespace bench
