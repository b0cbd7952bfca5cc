// The scan part's other element types on NVBench (issue #48): the exclusive sum of int64 (long
// long), float and double items (operations scan_int64, scan_float, scan_double), ours
// (single_pass: the single-pass scan at the library's default tuning) against the toolkit's
// cub::DeviceScan::ExclusiveSum (cub, called with an int item count), at n = 2^20, 2^24 and 2^28 (the full
// profile: 2^10, 2^12, ..., 2^28) (axis n, bench/nvbench/scan.cu's sizes). Inputs: the scan part's, uniform
// integers in [0, 100) (index_hash(i, kScanSeed) % 100, the seed of scan.cu's int inputs) converted to the type. Timed:
// the one scan call on NVBench's stream, stream-ordered; NVBench's cold runs flush the L2 between
// samples. Bytes: every item read and written once (2 sizeof(T) n).
//
// Check: the output and the temporary storage are poisoned before the timed runs;
// afterwards every item the last one wrote is compared with the exact sum of the integers before it
// (in int64, where they are exact), rounded to the type once. int64 and double items must equal it
// (double holds these sums, below 2^53, exactly); a float item must be within 1e-3 of it, relative,
// since float rounds the sums past 2^24, each scan in its own order of additions; where the exact
// sum is 0 the item must be 0, which a poisoned one (a tiny negative number) is not.
//
// Not here: sizes other than powers of two; the block_size column of ours (nvbench_to_csv.py takes
// it from an axis block alone: 0 here); these operations on another CCCL's CUB (cub_3.6*, and its
// run-to-run deterministic float scans): sc_nvbench_cccl_next's (bench/anchors/), built against
// that CCCL.
#include "check.cuh"
#include "scan_inputs.cuh"
#include "scan_types_cub.cuh"

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

// The part's axis, shared with sc_nvbench_scan and the CCCL anchors (scan_inputs.cuh); the CUB rows and
// time_scan, shared with sc_nvbench_cccl_next (scan_types_cub.cuh).
using scan_inputs::kScanLog2;
using scan_types_cub::add_scan_cub;
using scan_types_cub::time_scan;

template <class T>
void scan_single_pass(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_scan<T>(state, SC::scan_temp_bytes<T>(n),
                 [](const T *in, T *out, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                     SC::exclusive_scan(in, out, n, SC::Sum{}, T(0), temp, bytes, s);
                 });
}

// NVBENCH_BENCH pastes the function's name into its own: one plain function per type.
void scan_int64_single_pass(nvbench::state &state) { scan_single_pass<long long>(state); }
void scan_float_single_pass(nvbench::state &state) { scan_single_pass<float>(state); }
void scan_double_single_pass(nvbench::state &state) { scan_single_pass<double>(state); }

// Names "<operation>/<implementation>", axis n: what bench/nvbench/nvbench_to_csv.py makes the CSV's rows of.
[[maybe_unused]] nvbench::benchmark_base &kInt64Cub = add_scan_cub<long long>("cub");
NVBENCH_BENCH(scan_int64_single_pass).set_name("scan_int64/single_pass").add_int64_power_of_two_axis("n", kScanLog2);
[[maybe_unused]] nvbench::benchmark_base &kFloatCub = add_scan_cub<float>("cub");
NVBENCH_BENCH(scan_float_single_pass).set_name("scan_float/single_pass").add_int64_power_of_two_axis("n", kScanLog2);
[[maybe_unused]] nvbench::benchmark_base &kDoubleCub = add_scan_cub<double>("cub");
NVBENCH_BENCH(scan_double_single_pass)
    .set_name("scan_double/single_pass")
    .add_int64_power_of_two_axis("n", kScanLog2);

}  // namespace
}  // namespace bench
