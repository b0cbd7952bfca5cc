// sc_nvbench_cccl_next's rows of the scan part (bench/nvbench/scan.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (uniform ints in [0, 100): scan_inputs.cuh) at its points,
// n = 2^20, 2^24, 2^28 (axis n; the full profile: 2^10, 2^12, ..., 2^28), called as scan.cu calls the toolkit's CUB:
//   scan/cub_X.Y       the int32 exclusive sum, cub::DeviceScan::ExclusiveSum (int item count)
//   compact/cub_X.Y    the compaction of x < keep for keep = 5, 50, 95 % (axis param),
//                      cub::DeviceSelect::If (std::size_t count and item count)
//   partition/cub_X.Y  the partition of x < 50 (param "50"), cub::DevicePartition::If (the falses
//                      reversed at the back)
// Bytes as scan.cu counts them: the scan and the partition read and write every item (8n); the
// compaction reads every item and writes the kept ones and a 4-byte count. Timed: the one call on
// NVBench's stream, stream-ordered. Each output (count included) and the temporary storage are
// poisoned before the timed runs; what the last one wrote is checked in full against scan.cu's CPU
// references (exclusive_sum_of, selection_of: the same cached computations), the count first. The
// bodies and axes are scan.cu's own CUB rows' (bench/nvbench/scan_cub.cuh), compiled here with
// SC_CCCL_NEXT's CUB.
#include "cccl_next.cuh"
#include "nvbench/scan_cub.cuh"

namespace bench {
namespace {

// The predicate of the compactions and the partition, x < keep percent: StreamCompaction::LessThan<int>,
// the toolkit CUB's, restated without the project's headers.
struct Below {
    int limit;
    __host__ __device__ bool operator()(const int &x) const { return x < limit; }
};

// scan.cu's scan/cub, compact/cub and partition/cub, as cub_X.Y.
[[maybe_unused]] const bool kRegistered = scan_cub::register_scan_cub<Below>(cub_implementation());

}  // namespace
}  // namespace bench
