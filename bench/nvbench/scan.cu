// The scan part on NVBench (issue #48; the first part moved, beside sc_bench's): on sc_bench's
// inputs (uniform ints in [0, 100): fill_percentiles) at n = 2^20, 2^24 and 2^28 (axis n), the
// GPU's copy (copy/cudaMemcpyAsync), the limit of a pass that reads and writes every item once;
// the int32 exclusive sum, ours (scan/single_pass) against CUB's DeviceScan::ExclusiveSum
// (scan/cub); the compaction of x < keep for keep = 5, 50, 95 % (axis param), ours (select_if:
// compact/single_pass) against CUB's DeviceSelect::If; and the partition of x < 50, ours
// (partition: partition/single_pass, CUB's order, the falses reversed at the back;
// stable_partition: partition/single_pass_stable) against CUB's DevicePartition::If. CUB is
// called with sc_bench's offset types. NVBench's cold runs flush the L2 between samples. Each
// output is poisoned before the timed runs and checked in full afterwards against the CPU's
// result on the same inputs (the copy against its input).
#include "check.cuh"

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <nvbench/nvbench.cuh>

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

constexpr std::uint32_t kScanSeed = 0x5ca9u;
const std::vector<nvbench::int64_t> kScanLog2 = {20, 24, 28};

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
    const std::size_t got_count = read_back(count.get(), 1, stream)[0];
    if (got_count != kept) {
        record_check(state, false, "count " + std::to_string(got_count) + ", expected " + std::to_string(kept));
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
NVBENCH_BENCH(compact_cub)
    .set_name("compact/cub")
    .add_int64_power_of_two_axis("n", kScanLog2)
    .add_string_axis("param", kPercentsKept);
NVBENCH_BENCH(compact_single_pass)
    .set_name("compact/single_pass")
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
