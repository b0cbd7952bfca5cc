// sc_nvbench_cccl_next's rows of the by-key part (bench/nvbench/by_key.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (by_key_inputs.cuh) at its points, n = 2^20, 2^24, 2^28 (the full
// profile: 2^10, 2^12, ..., 2^28) (axis n), with CUB's int item counts and std::size_t run counts as by_key.cu
// calls the toolkit's:
//   reduce_by_key/cub_X.Y      cub::DeviceReduce::ReduceByKey (int32 keys, int32 values summed)
//   unique/cub_X.Y             cub::DeviceSelect::Unique
//   run_length_encode/cub_X.Y  cub::DeviceRunLengthEncode::Encode (int32 lengths)
//       on keys in runs of geometric length of mean 4 and 64 (axis param "mean 4", "mean 64");
//   histogram_even/cub_X.Y     cub::DeviceHistogram::HistogramEven of int32 samples in [0, 2^20) into
//       256 and 4096 unsigned bins (param "256 bins", "4096 bins").
// Bytes as by_key.cu counts them: keys and values read and each run's outputs written (8n + 8 per run
// for reduce_by_key, 4n + 4 per run for unique, 4n + 8 per run for the encoding), the samples read for
// the histogram (4n). Every output (and the run count, and the temporary storage) is poisoned before
// the timed runs; afterwards the run count and every run's key, sum or length, and every bin, are
// checked against by_key.cu's CPU references (runs_of, histogram_of: from the inputs' definition).
// The bodies and axes are by_key.cu's own CUB rows' (bench/nvbench/by_key_cub.cuh), compiled here
// with SC_CCCL_NEXT's CUB.
#include "cccl_next.cuh"
#include "nvbench/by_key_cub.cuh"

namespace bench {
namespace {

// by_key.cu's reduce_by_key/cub, unique/cub, run_length_encode/cub and histogram_even/cub, as cub_X.Y.
[[maybe_unused]] const bool kRegistered = by_key_cub::register_by_key_cub(cub_implementation());

}  // namespace
}  // namespace bench
