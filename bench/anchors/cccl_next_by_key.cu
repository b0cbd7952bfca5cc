// sc_nvbench_cccl_next's rows of the by-key part (bench/nvbench/by_key.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (by_key_inputs.cuh) at its points, n = 2^20, 2^24, 2^28
// (axis n), with CUB's int item counts and std::size_t run counts as by_key.cu calls the toolkit's:
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
#include "by_key_inputs.cuh"
#include "cccl_next.cuh"
#include "nvbench/check.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <memory>
#include <string>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using namespace by_key_inputs;  // the part's seeds, shapes, axes, generators and CPU references

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

void histogram_even_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const int bins = std::stoi(state.get_string("param"));
    const cudaStream_t stream = state.get_cuda_stream();
    std::size_t temp_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, static_cast<const int *>(nullptr),
                                                      static_cast<unsigned *>(nullptr), bins + 1, 0, kSampleRange,
                                                      static_cast<int>(n)));
    const SC::DeviceBuffer<int> samples = masked_hashes(n, kSampleSeed, kSampleRange - 1u, stream);
    SC::DeviceBuffer<unsigned> counts(static_cast<std::size_t>(bins));
    SC::DeviceBuffer<char> temp(temp_bytes);
    counts.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.exec([&](nvbench::launch &launch) {
        std::size_t bytes = temp.bytes();
        SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp.get(), bytes, samples.get(), counts.get(), bins + 1, 0,
                                                          kSampleRange, static_cast<int>(n),
                                                          static_cast<cudaStream_t>(launch.get_stream())));
    });
    record_difference(state,
                      first_difference(read_back(counts.get(), counts.size(), stream), *histogram_of(n, bins), "bin"));
}

// by_key.cu's axes for its reduce_by_key/cub, unique/cub, run_length_encode/cub and histogram_even/cub.
NVBENCH_BENCH(reduce_by_key_cub)
    .set_name(cub_benchmark("reduce_by_key"))
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(unique_cub)
    .set_name(cub_benchmark("unique"))
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(run_length_encode_cub)
    .set_name(cub_benchmark("run_length_encode"))
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kMeanRunParams);
NVBENCH_BENCH(histogram_even_cub)
    .set_name(cub_benchmark("histogram_even"))
    .add_int64_power_of_two_axis("n", kByKeyLog2)
    .add_string_axis("param", kHistogramParams);

}  // namespace
}  // namespace bench
