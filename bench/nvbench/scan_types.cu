// The scan part's other element types on NVBench (issue #48; sc_bench's cases/scan_types.cu): the
// exclusive sum of int64 (long long), float and double items (operations scan_int64, scan_float,
// scan_double), ours (single_pass: the single-pass scan at the library's default tuning) against the
// toolkit's cub::DeviceScan::ExclusiveSum (cub, called with sc_bench's int item count), at n = 2^20,
// 2^24 and 2^28 (axis n, bench/nvbench/scan.cu's sizes). Inputs: sc_bench's, uniform integers in
// [0, 100) (index_hash(i, kScanSeed) % 100, report.h's seed) converted to the type. Timed: the one
// scan call on NVBench's stream, stream-ordered; NVBench's cold runs flush the L2 between samples,
// where sc_bench rotates over copies of the input. Bytes as sc_bench counts them: every item read
// and written once (2 sizeof(T) n).
//
// Check, sc_bench's rule: the output and the temporary storage are poisoned before the timed runs;
// afterwards every item the last one wrote is compared with the exact sum of the integers before it
// (in int64, where they are exact), rounded to the type once. int64 and double items must equal it
// (double holds these sums, below 2^53, exactly); a float item must be within 1e-3 of it, relative,
// since float rounds the sums past 2^24, each scan in its own order of additions; where the exact
// sum is 0 the item must be 0, which a poisoned one (a tiny negative number) is not.
//
// Not here: sc_bench's other sizes (2^10 ... 2^28, 2^20-3, 2^28-3); the block_size column of ours
// (nvbench_to_csv.py takes it from an axis block alone: 0 here); the rows of these operations that
// sc_bench_cccl_next writes (another CCCL's CUB, cub_3.6*, and its run-to-run deterministic float
// scans): that program's, built against that CCCL.
#include "check.cuh"
#include "report.h"  // kScanSeed: the scan part's inputs in every program that times it

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_scan.cuh>
#include <nvbench/nvbench.cuh>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

const std::vector<nvbench::int64_t> kScanLog2 = {20, 24, 28};

// How far an item may be from the exact sum, relative (check.h's agrees): sc_bench's tolerance<T>().
template <class T>
constexpr double tolerance() {
    return std::is_same_v<T, float> ? 1e-3 : 0.0;
}

// Item i of every type's input, an integer in [0, 100).
__host__ __device__ inline unsigned input_value(std::size_t i) { return index_hash(i, kScanSeed) % 100u; }

// Uniform values in [0, 100), as the scan part's int inputs, converted to T (sc_bench's fill_converted).
template <class T>
__global__ void fill_converted(T *out, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<T>(input_value(i));
}

// The exact exclusive sums of the inputs of n items (the same integers in every type), computed
// once per n for the three types. Each piece sums its items, then writes its sums from the total of
// the pieces before it.
std::shared_ptr<const std::vector<long long>> exact_exclusive_sum_of(std::size_t n) {
    return cached_reference<std::vector<long long>>("exact exclusive sum n=" + std::to_string(n), [n] {
        const auto pieces = pieces_of(n);
        std::vector<long long> before(pieces.size() + 1, 0);
        for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
            long long sum = 0;
            for (std::size_t i = begin; i < end; ++i) sum += input_value(i);
            before[p + 1] = sum;
        });
        for (std::size_t p = 0; p < pieces.size(); ++p) before[p + 1] += before[p];
        std::vector<long long> sums(n);
        for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
            long long sum = before[p];
            for (std::size_t i = begin; i < end; ++i) {
                sums[i] = sum;
                sum += input_value(i);
            }
        });
        return sums;
    });
}

// "" when every item of got agrees (tolerance<T>()) with its exact sum rounded to T, else the first
// that does not: each piece's first, the least of them kept.
template <class T>
std::string first_disagreement(const std::vector<T> &got, const std::vector<long long> &exact) {
    const std::size_t n = got.size();
    if (exact.size() != n) return std::to_string(n) + " items, expected " + std::to_string(exact.size());
    std::atomic<std::size_t> first{n};
    parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end && i < first.load(std::memory_order_relaxed); ++i)
            if (!agrees(got[i], static_cast<T>(exact[i]), tolerance<T>())) {
                std::size_t seen = first.load();
                while (i < seen && !first.compare_exchange_weak(seen, i)) {
                }
                return;
            }
    });
    const std::size_t i = first.load();
    if (i == n) return "";
    return "item " + std::to_string(i) + " of " + std::to_string(n) + " is " + describe(got[i]) + ", expected " +
           describe(static_cast<T>(exact[i]));
}

// One scan of T: scan(in, out, n, temp, temp_bytes, stream).
template <class T, class Scan>
void time_scan(nvbench::state &state, std::size_t temp_bytes, Scan scan) {
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

template <class T>
void scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan<T>(state, SC::scan_temp_bytes<T>(n),
                 [](const T *in, T *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                     SC::exclusive_scan(in, out, n, SC::Sum{}, T(0), temp, bytes, s);
                 });
}

// NVBENCH_BENCH pastes the function's name into its own: one plain function per type and implementation.
void scan_int64_cub(nvbench::state &state) { scan_cub<long long>(state); }
void scan_int64_single_pass(nvbench::state &state) { scan_single_pass<long long>(state); }
void scan_float_cub(nvbench::state &state) { scan_cub<float>(state); }
void scan_float_single_pass(nvbench::state &state) { scan_single_pass<float>(state); }
void scan_double_cub(nvbench::state &state) { scan_cub<double>(state); }
void scan_double_single_pass(nvbench::state &state) { scan_single_pass<double>(state); }

// Names "<operation>/<implementation>", axis n: what bench/nvbench/nvbench_to_csv.py makes the CSV's rows of.
NVBENCH_BENCH(scan_int64_cub).set_name("scan_int64/cub").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_int64_single_pass).set_name("scan_int64/single_pass").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_float_cub).set_name("scan_float/cub").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_float_single_pass).set_name("scan_float/single_pass").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_double_cub).set_name("scan_double/cub").add_int64_power_of_two_axis("n", kScanLog2);
NVBENCH_BENCH(scan_double_single_pass)
    .set_name("scan_double/single_pass")
    .add_int64_power_of_two_axis("n", kScanLog2);

}  // namespace
}  // namespace bench
