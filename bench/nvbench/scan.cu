// The scan part on NVBench (issue #48; the first part moved, beside sc_bench's): the exclusive sum
// of int32 by our single-pass scan (scan/single_pass) against CUB's DeviceScan::ExclusiveSum
// (scan/cub) and the GPU's copy (copy/cudaMemcpyAsync), the limit of a pass that reads and writes
// every item once, at n = 2^20, 2^24 and 2^28 (axis n). NVBench's cold runs flush the L2 between
// samples. Each output is poisoned before the timed runs and checked in full afterwards: the
// scans against the CPU's exclusive sum of the same inputs, the copy against its input.
#include "check.cuh"

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

constexpr std::uint32_t kScanSeed = 0x5ca9u;
constexpr unsigned kScanMask = 0x7;  // items in [0, 7]: the sums of 2^28 of them stay below 2^31
const std::vector<nvbench::int64_t> kScanLog2 = {20, 24, 28};

// The inputs of every benchmark of the part: n hashed items in [0, 7].
SC::DeviceBuffer<int> scan_input(std::size_t n, cudaStream_t stream) {
    SC::DeviceBuffer<int> in(n);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n, kScanSeed, kScanMask);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    return in;
}

// Whether d_out holds the exclusive sum of scan_input(n), computed on the CPU from the same hash.
bool is_exclusive_sum_of_input(const int *d_out, std::size_t n, cudaStream_t stream, std::string &what) {
    std::vector<int> got(n);
    SC_CUDA_CHECK(cudaMemcpyAsync(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    int sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (got[i] != sum) {
            what = "item " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " + std::to_string(sum);
            return false;
        }
        sum += static_cast<int>(index_hash(i, kScanSeed) & kScanMask);
    }
    return true;
}

// A pass that reads and writes n ints: what NVBench's bandwidth columns count.
void count_one_pass(nvbench::state &state, std::size_t n) {
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.add_global_memory_writes<int>(n);
}

void copy_bandwidth(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    out.fill_bytes(kPoisonByte);
    count_one_pass(state, n);
    state.exec([&](nvbench::launch &launch) {
        SC_CUDA_CHECK(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(int), cudaMemcpyDeviceToDevice,
                                      launch.get_stream()));
    });
    const unsigned long long wrong = mismatches(out.get(), in.get(), n, stream);
    record_check(state, wrong == 0, std::to_string(wrong) + " items differ from the input");
}

void scan_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.get(), out.get(), static_cast<std::int64_t>(n)));
    SC::DeviceBuffer<char> temp(bytes);
    out.fill_bytes(kPoisonByte);
    count_one_pass(state, n);
    state.exec([&](nvbench::launch &launch) {
        std::size_t temp_bytes = temp.bytes();
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, in.get(), out.get(),
                                                    static_cast<std::int64_t>(n), launch.get_stream()));
    });
    std::string what;
    record_check(state, is_exclusive_sum_of_input(out.get(), n, stream, what), what);
}

void scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = scan_input(n, stream);
    SC::DeviceBuffer<int> out(n);
    SC::DeviceBuffer<char> temp(SC::scan_temp_bytes<int>(n));
    out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    count_one_pass(state, n);
    state.exec([&](nvbench::launch &launch) {
        SC::exclusive_scan(in.get(), out.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(),
                           static_cast<cudaStream_t>(launch.get_stream()));
    });
    std::string what;
    record_check(state, is_exclusive_sum_of_input(out.get(), n, stream, what), what);
}

// Names "<operation>/<implementation>", axis n: what bench/nvbench/nvbench_to_csv.py makes the CSV's rows
// of. (NVBENCH_BENCH pastes the function's name into its own: unqualified, in the functions' namespace.)
NVBENCH_BENCH(copy_bandwidth).set_name("copy/cudaMemcpyAsync").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_cub).set_name("scan/cub").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_single_pass).set_name("scan/single_pass").add_int64_power_of_two_axis("n", kScanLog2);

}  // namespace
}  // namespace bench
