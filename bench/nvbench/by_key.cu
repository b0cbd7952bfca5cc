// The by-key part on NVBench (issue #48), on by_key_inputs.cuh's inputs at n = 2^20, 2^24 and 2^28 (the full
// profile: 2^10, 2^12, ..., 2^28) (axis n), ours against CUB (cub), CUB called with int item counts and
// std::size_t run counts:
//   reduce_by_key (int32 keys, int32 values summed; CUB's DeviceReduce::ReduceByKey), unique
//   (DeviceSelect::Unique) and run_length_encode (int32 items, int32 lengths;
//   DeviceRunLengthEncode::Encode), on keys in runs of geometric length of mean 4 and 64 (axis
//   param "mean 4", "mean 64"): a run starts where index_hash(i) % mean == 0, its key a hash of its
//   number, values index hashes in [0, 16);
//   histogram_even of int32 samples (index hashes in [0, 2^20)) over [0, 2^20) into 256 and 4096
//   bins (param "256 bins", "4096 bins"; DeviceHistogram::HistogramEven, unsigned counters).
// Bytes: what is read and written once, keys and values read and each run's outputs written (8n
// + 8 per run for reduce_by_key, 4n + 4 per run for unique, 4n + 8 per run for the encoding), the
// samples read for the histogram (4n). Every output (and the temporary storage) is poisoned before the
// timed runs; afterwards the run count and every run's key, sum or length, and every bin, are
// checked against the CPU's result, computed from the definition of the inputs above.
#include "by_key_cub.cuh"
#include "by_key_inputs.cuh"
#include "check.cuh"

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
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

using namespace by_key_inputs;  // the seeds, shapes and generators of these inputs, the part's axes and its
                                // CPU references (shared with the CCCL anchors)
using namespace by_key_cub;     // the CUB rows and the timing of a state, shared with sc_nvbench_cccl_next

void reduce_by_key_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_runs(state, RunOp::ReduceByKey, SC::reduce_by_key_temp_bytes<int, int>(n),
              [](const int *keys, const int *values, int *keys_out, int *sums, std::size_t *runs, std::size_t n,
                 void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::reduce_by_key(keys, values, keys_out, sums, runs, n, SC::Sum{}, SC::EqualTo{}, temp, bytes, s);
              });
}

void unique_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_runs(state, RunOp::Unique, SC::unique_temp_bytes<int>(n),
              [](const int *keys, const int *, int *keys_out, int *, std::size_t *runs, std::size_t n, void *temp,
                 std::size_t bytes, cudaStream_t s) {
                  SC::unique(keys, keys_out, runs, n, SC::EqualTo{}, temp, bytes, s);
              });
}

void run_length_encode_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_runs(state, RunOp::RunLengthEncode, SC::run_length_encode_temp_bytes<int>(n),
              [](const int *keys, const int *, int *keys_out, int *lengths, std::size_t *runs, std::size_t n,
                 void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::run_length_encode(keys, keys_out, lengths, runs, n, temp, bytes, s);
              });
}

void histogram_even_ours(nvbench::state &state) {
    time_histogram(state, 0,
                   [](const int *samples, std::size_t n, unsigned *counts, int bins, void *, std::size_t,
                      cudaStream_t s) { SC::histogram_even(samples, n, counts, bins, 0, kSampleRange, s); });
}

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py.
[[maybe_unused]] nvbench::benchmark_base &kReduceByKeyCub = add_reduce_by_key_cub("cub");
NVBENCH_BENCH(reduce_by_key_ours)
    .set_name("reduce_by_key/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
[[maybe_unused]] nvbench::benchmark_base &kUniqueCub = add_unique_cub("cub");
NVBENCH_BENCH(unique_ours)
    .set_name("unique/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
[[maybe_unused]] nvbench::benchmark_base &kRunLengthEncodeCub = add_run_length_encode_cub("cub");
NVBENCH_BENCH(run_length_encode_ours)
    .set_name("run_length_encode/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
[[maybe_unused]] nvbench::benchmark_base &kHistogramEvenCub = add_histogram_even_cub("cub");
NVBENCH_BENCH(histogram_even_ours)
    .set_name("histogram_even/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kHistogramParams);

}  // namespace
}  // namespace bench
