// The scan part on NVBench (issue #48; the first part moved, beside sc_bench's): on sc_bench's
// inputs (uniform ints in [0, 100): fill_percentiles) at n = 2^20, 2^24 and 2^28 (axis n), the
// GPU's copy (copy/cudaMemcpyAsync), the limit of a pass that reads and writes every item once;
// the int32 exclusive sum, ours (scan/single_pass) against CUB's DeviceScan::ExclusiveSum
// (scan/cub) and Thrust's exclusive_scan (scan/thrust), and the course's scans that sc_bench times
// beside them (scan/naive, at 2^20 and 2^24 alone: sc_bench leaves its O(n log n) scan out above
// 2^26; scan/efficient; scan/shared); the compaction of x < keep for keep = 5, 50, 95 % (axis
// param), ours (select_if: compact/single_pass) against CUB's DeviceSelect::If (compact/cub) and
// thrust::copy_if (compact/thrust), and the course's (compact/efficient, compact/shared), which keep
// the non-zero items: they compact x < keep restated as x + 1 where kept and 0 elsewhere
// (to_nonzero_selection, sc_bench's, made before the timed runs), so that every implementation
// keeps the same items, and write an int count; and the partition of x < 50, ours (partition:
// partition/single_pass, CUB's order, the falses reversed at the back; stable_partition:
// partition/single_pass_stable) against CUB's DevicePartition::If. CUB is called with sc_bench's
// offset types. The course's units and Thrust are timed through their device entry points, as
// sc_bench times them (device pointers, the caller's temporary storage, the stream; Thrust's
// allocations served from it), at the process-wide block_sizes() that the course's units read at
// each launch (the library's defaults: sc_nvbench has no --block-size). Every timed call is
// stream-ordered but compact/thrust's: thrust::copy_if returns its count to the host, waiting for
// it (a round trip that is part of its time, as for every caller of Thrust), so it runs under
// exec_tag::sync (no blocking kernel, no batch).
//
// The block-size sweep (sc_bench's run_sweep): operation sweep_scan, the scans with a block size of
// their own, ours (sweep_scan/single_pass: the Tuning of its call's environment) and the course's
// (sweep_scan/naive at 2^24 alone, sweep_scan/efficient, sweep_scan/shared: the field of
// block_sizes() each reads, put back after the state), at 64 ... 1024 threads a block (axis block,
// which nvbench_to_csv.py makes the CSV's block_size) at n = 2^24 and 2^28. Its libraries are
// scan/cub's and scan/thrust's rows at the same n, which bench/plot/plot.py's plot_sweep draws as
// lines and anchors.py compares sweep_scan's rows with, as in sc_bench's CSV.
//
// Not here: sc_bench's other sizes (2^10 ... 2^28, 2^20-3, 2^28-3); the block_size column of the
// rows outside the sweep (nvbench_to_csv.py takes it from an axis block alone: 0 here); the
// course's host-pointer interfaces (Naive::scan(n, odata, idata) and the like, which allocate, copy
// in and out and time themselves), which sc_bench does not time either.
//
// Bytes as sc_bench counts them: the copy, the scans and the partitions read and write every item
// (8n); a compaction reads every item and writes the kept ones and a 4-byte count. NVBench's cold
// runs flush the L2 between samples. Each output (count included) and the temporary storage are
// poisoned before the timed runs, and what the last one wrote is checked in full afterwards against
// the CPU's result on the same inputs (the copy against its input): the course's compactions' items
// each less one, their count as the int it is; Thrust's count as copy_if returned it.
#include "arena.h"
#include "check.cuh"
#include "report.h"  // kScanSeed: the scan part's inputs in every program that times it

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

#include <cub/device/device_partition.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <nvbench/nvbench.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using Below = SC::LessThan<int>;  // the compactions' predicate: x < keep percent

const std::vector<nvbench::int64_t> kScanLog2 = {20, 24, 28};
// The naive scan does O(n log n) work: sc_bench leaves it out above 2^26 (kNaiveMax; but with --all).
const std::vector<nvbench::int64_t> kNaiveLog2 = {20, 24};
const std::vector<nvbench::int64_t> kSweepLog2 = {24, 28};  // sc_bench's kSweepLog2
const std::vector<nvbench::int64_t> kNaiveSweepLog2 = {24};
const std::vector<nvbench::int64_t> kSweepBlocks = {64, 128, 256, 512, 1024};  // sc_bench's kSweepBlocks
// Thrust's storage beyond CUB's: the counter of copy_if, and room to spare, as sc_bench reserves it
// (its temp_bytes_for). A Thrust scan's request beyond its storage would be met by a cudaMalloc
// inside the timed run (Thrust::exclusive_scan's ScratchAllocator), a copy_if's throws (Arena).
constexpr std::size_t kThrustExtraBytes = std::size_t{1} << 20;

// The inputs of every benchmark of the part, on the device and as the CPU computes them.
SC::DeviceBuffer<int> scan_input(std::size_t n, cudaStream_t stream) {
    SC::DeviceBuffer<int> in(n);
    fill_percentiles<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n, kScanSeed);
    SC_CHECK_LAUNCH(fill_percentiles);
    return in;
}
std::vector<int> host_input(std::size_t n) {
    return generated<int>(n, [](std::size_t i) { return static_cast<int>(index_hash(i, kScanSeed) % 100u); });
}

// The exclusive sum of the inputs, wrapping as the GPU's int additions do (computed once per n).
std::shared_ptr<const std::vector<int>> exclusive_sum_of(std::size_t n) {
    return cached_reference<std::vector<int>>("exclusive sum n=" + std::to_string(n), [n] {
        const std::vector<int> in = host_input(n);
        std::vector<int> out(n);
        unsigned sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = static_cast<int>(sum);
            sum += static_cast<unsigned>(in[i]);
        }
        return out;
    });
}

// The items x < keep in order, then (partitions) the others in order or reversed; and how many
// were kept. Each piece of the input counts its kept items, then writes them (and its others) at
// the offsets the counts before it give.
enum class Falses { None, InOrder, Reversed };
struct Selected {
    std::vector<int> items;
    std::size_t kept = 0;
    std::size_t footprint() const { return items.size() * sizeof(int); }
};
Selected selected_of(const std::vector<int> &in, int keep, Falses falses) {
    const auto pieces = pieces_of(in.size());
    std::vector<std::size_t> kept_before(pieces.size() + 1, 0);
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        kept_before[p + 1] = static_cast<std::size_t>(
            std::count_if(in.begin() + begin, in.begin() + end, [keep](int x) { return x < keep; }));
    });
    for (std::size_t p = 0; p < pieces.size(); ++p) kept_before[p + 1] += kept_before[p];
    Selected out;
    out.kept = kept_before.back();
    out.items.resize(falses == Falses::None ? out.kept : in.size());
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        std::size_t kept = kept_before[p], other = begin - kept_before[p];  // the others before this piece
        for (std::size_t i = begin; i < end; ++i) {
            if (in[i] < keep) out.items[kept++] = in[i];
            else if (falses == Falses::InOrder) out.items[out.kept + other++] = in[i];
            else if (falses == Falses::Reversed) out.items[in.size() - 1 - other++] = in[i];
        }
    });
    return out;
}

// selected_of the inputs of n items, computed once per point.
std::shared_ptr<const Selected> selection_of(std::size_t n, int keep, Falses falses) {
    const std::string key = "selection n=" + std::to_string(n) + " keep=" + std::to_string(keep) +
                            " falses=" + std::to_string(static_cast<int>(falses));
    return cached_reference<Selected>(key, [=] { return selected_of(host_input(n), keep, falses); });
}

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

// One scan implementation: scan(in, out, n, temp, temp_bytes, stream).
template <class Scan>
void time_scan(nvbench::state &state, std::size_t temp_bytes, Scan scan) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
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
    record_difference(state, first_difference(read_back(out.get(), n, stream), *exclusive_sum_of(n)));
}

void scan_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    time_scan(state, bytes, [](const int *in, int *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, static_cast<int>(n), s));
    });
}

void scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan(state, SC::scan_temp_bytes<int>(n),
              [](const int *in, int *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::exclusive_scan(in, out, n, SC::Sum{}, 0, temp, bytes, s);
              });
}

// Thrust's scan is CUB's, its storage from ours: twice CUB's and kThrustExtraBytes, as sc_bench's
// shared storage has room to spare, so that no timed run allocates.
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

// "" when a selection's count (of the implementation's own type: std::size_t, int, or a difference of
// pointers) is `kept`, else what it is. A negative one (a poisoned int) is never `kept`.
template <class Count>
std::string count_difference(Count got, std::size_t kept) {
    if (static_cast<std::size_t>(got) == kept) return "";
    return "count " + std::to_string(got) + ", expected " + std::to_string(kept);
}

// One selection implementation (a compaction or a partition): select(in, out, d_count, n, pred,
// temp, temp_bytes, stream) writes the count to d_count (a std::size_t); its output is checked
// against `falses`'s reference, the count against the number kept. Bytes as sc_bench counts them:
// a compaction reads the inputs and writes the kept items and a 4-byte count; a partition reads and
// writes every item.
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

void compact_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select(state, Falses::None, SC::select_temp_bytes<int>(n),
                [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                   std::size_t bytes, cudaStream_t s) { SC::select_if(in, out, count, n, pred, temp, bytes, s); });
}

// thrust::copy_if returns the end of its output, so it waits for the count on the host: NVBench must
// not block the stream (exec_tag::sync). Its storage (CUB's select storage and its own counter) comes
// from an Arena over ours, a fresh one each call (an Arena serves one), as sc_bench serves it.
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

// sc_bench's restatement of x < keep for the course's compactions, which keep the non-zero items:
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

void partition_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select(state, Falses::Reversed, SC::select_temp_bytes<int>(n),
                [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                   std::size_t bytes, cudaStream_t s) { SC::partition(in, out, count, n, pred, temp, bytes, s); });
}

void partition_single_pass_stable(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_select(state, Falses::InOrder, SC::select_temp_bytes<int>(n),
                [](const int *in, int *out, std::size_t *count, std::size_t n, Below pred, void *temp,
                   std::size_t bytes, cudaStream_t s) {
                    SC::stable_partition(in, out, count, n, pred, temp, bytes, s);
                });
}

const std::vector<std::string> kPercentsKept = {"5", "50", "95"};  // sc_bench's kPercentKept
const std::vector<std::string> kPartitionPercents = {"50"};

// Names "<operation>/<implementation>", axes n and param: what bench/nvbench/nvbench_to_csv.py makes
// the CSV's rows of. (NVBENCH_BENCH pastes the function's name into its own: unqualified, here.)
NVBENCH_BENCH(copy_bandwidth).set_name("copy/cudaMemcpyAsync").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_cub).set_name("scan/cub").add_int64_power_of_two_axis("n", kScanLog2);
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
NVBENCH_BENCH(compact_cub)
    .set_name("compact/cub")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
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
NVBENCH_BENCH(partition_cub)
    .set_name("partition/cub")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPartitionPercents);
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
