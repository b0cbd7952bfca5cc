// The by-key part on NVBench (issue #48), on by_key_inputs.cuh's inputs at n = 2^20, 2^24 and 2^28
// (axis n), ours against CUB (cub), CUB called with int item counts and std::size_t run counts:
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
#include "by_key_inputs.cuh"
#include "check.cuh"

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
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

// What each run writes beside its key: reduce_by_key its sum, unique nothing, run_length_encode its
// length.
enum class RunOp { ReduceByKey, Unique, RunLengthEncode };

// One by-key operation of one state: its inputs (values only for reduce_by_key), poisoned outputs
// and storage, NVBench's counts, the timed calls and the check of what the last one wrote.
// call(keys, values, keys_out, values_out, d_runs, n, temp, temp_bytes, stream) enqueues one call
// (values_out: the sums or the lengths) that writes the number of runs to d_runs (a std::size_t).
template <class Call>
void time_runs(nvbench::state &state, RunOp op, std::size_t temp_bytes, Call call) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const unsigned mean = mean_run_length(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> keys = run_keys(n, mean, stream);
    const SC::DeviceBuffer<int> values =
        op == RunOp::ReduceByKey ? masked_hashes(n, kValueSeed, kValueMask, stream) : SC::DeviceBuffer<int>();
    SC::DeviceBuffer<int> keys_out(n), values_out(op == RunOp::Unique ? 0 : n);
    SC::DeviceBuffer<std::size_t> runs(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    keys_out.fill_bytes(kPoisonByte);
    values_out.fill_bytes(kPoisonByte);
    runs.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    const std::shared_ptr<const HostRuns> runs_expected = runs_of(n, mean);
    const HostRuns &expected = *runs_expected;
    const std::size_t run_count = expected.keys.size();
    state.add_element_count(n);
    state.add_global_memory_reads<int>(op == RunOp::ReduceByKey ? 2 * n : n);
    state.add_global_memory_writes<int>(op == RunOp::Unique ? run_count : 2 * run_count);
    state.exec([&](nvbench::launch &launch) {
        call(keys.get(), values.get(), keys_out.get(), values_out.get(), runs.get(), n, temp.get(), temp.bytes(),
             static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::size_t got_runs = read_back(runs.get(), 1, stream)[0];
    if (got_runs != run_count) {
        record_check(state, false, std::to_string(got_runs) + " runs, expected " + std::to_string(run_count));
        return;
    }
    std::string difference = first_difference(read_back(keys_out.get(), run_count, stream), expected.keys, "key");
    if (difference.empty() && op == RunOp::ReduceByKey)
        difference = first_difference(read_back(values_out.get(), run_count, stream), expected.sums, "sum");
    if (difference.empty() && op == RunOp::RunLengthEncode)
        difference = first_difference(read_back(values_out.get(), run_count, stream), expected.lengths, "length");
    record_difference(state, difference);
}

void reduce_by_key_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    const int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, none, static_cast<int *>(nullptr), none,
                                                 static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                                 ::cuda::std::plus<>{}, static_cast<int>(n)));
    time_runs(state, RunOp::ReduceByKey, bytes,
              [](const int *keys, const int *values, int *keys_out, int *sums, std::size_t *runs, std::size_t n,
                 void *temp, std::size_t bytes, cudaStream_t s) {
                  SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp, bytes, keys, keys_out, values, sums, runs,
                                                               ::cuda::std::plus<>{}, static_cast<int>(n), s));
              });
}

void reduce_by_key_ours(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_runs(state, RunOp::ReduceByKey, SC::reduce_by_key_temp_bytes<int, int>(n),
              [](const int *keys, const int *values, int *keys_out, int *sums, std::size_t *runs, std::size_t n,
                 void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::reduce_by_key(keys, values, keys_out, sums, runs, n, SC::Sum{}, SC::EqualTo{}, temp, bytes, s);
              });
}

void unique_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, bytes, static_cast<const int *>(nullptr),
                                            static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                            static_cast<int>(n)));
    time_runs(state, RunOp::Unique, bytes,
              [](const int *keys, const int *, int *keys_out, int *, std::size_t *runs, std::size_t n, void *temp,
                 std::size_t bytes, cudaStream_t s) {
                  SC_CUDA_CHECK(cub::DeviceSelect::Unique(temp, bytes, keys, keys_out, runs, static_cast<int>(n), s));
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

void run_length_encode_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    int *none = nullptr;
    SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, bytes, static_cast<const int *>(nullptr), none, none,
                                                     static_cast<std::size_t *>(nullptr), static_cast<int>(n)));
    time_runs(state, RunOp::RunLengthEncode, bytes,
              [](const int *keys, const int *, int *keys_out, int *lengths, std::size_t *runs, std::size_t n,
                 void *temp, std::size_t bytes, cudaStream_t s) {
                  SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(temp, bytes, keys, keys_out, lengths, runs,
                                                                   static_cast<int>(n), s));
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

// The histogram of one state, as time_runs: histogram(samples, n, counts, bins, temp, temp_bytes,
// stream) enqueues one histogram of n samples into `bins` counters over [0, kSampleRange).
template <class Histogram>
void time_histogram(nvbench::state &state, std::size_t temp_bytes, Histogram histogram) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int bins = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> samples = masked_hashes(n, kSampleSeed, kSampleRange - 1u, stream);
    SC::DeviceBuffer<unsigned> counts(static_cast<std::size_t>(bins));
    SC::DeviceBuffer<char> temp(temp_bytes);
    counts.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.exec([&](nvbench::launch &launch) {
        histogram(samples.get(), n, counts.get(), bins, temp.get(), temp.bytes(),
                  static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference =
        first_difference(read_back(counts.get(), counts.size(), stream), *histogram_of(n, bins), "bin");
    record_difference(state, difference);
}

void histogram_even_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int bins = std::stoi(state.get_string("param"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const int *>(nullptr),
                                                      static_cast<unsigned *>(nullptr), bins + 1, 0, kSampleRange,
                                                      static_cast<int>(n)));
    time_histogram(state, bytes,
                   [](const int *samples, std::size_t n, unsigned *counts, int bins, void *temp, std::size_t bytes,
                      cudaStream_t s) {
                       SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, bytes, samples, counts, bins + 1, 0,
                                                                         kSampleRange, static_cast<int>(n), s));
                   });
}

void histogram_even_ours(nvbench::state &state) {
    time_histogram(state, 0,
                   [](const int *samples, std::size_t n, unsigned *counts, int bins, void *, std::size_t,
                      cudaStream_t s) { SC::histogram_even(samples, n, counts, bins, 0, kSampleRange, s); });
}

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(reduce_by_key_cub)
    .set_name("reduce_by_key/cub")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(reduce_by_key_ours)
    .set_name("reduce_by_key/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(unique_cub)
    .set_name("unique/cub")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(unique_ours)
    .set_name("unique/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(run_length_encode_cub)
    .set_name("run_length_encode/cub")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(run_length_encode_ours)
    .set_name("run_length_encode/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(histogram_even_cub)
    .set_name("histogram_even/cub")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kHistogramParams);
NVBENCH_BENCH(histogram_even_ours)
    .set_name("histogram_even/ours")
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kHistogramParams);

}  // namespace
}  // namespace bench
