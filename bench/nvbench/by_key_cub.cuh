#pragma once
// The by-key part's CUB rows (bench/nvbench/by_key.cu), compiled with the CCCL of the program that
// includes it: sc_nvbench_by_key registers them as "<operation>/cub" (the toolkit's CUB), and
// sc_nvbench_cccl_next as "<operation>/cub_X.Y" (bench/anchors/cccl_next_by_key.cu: SC_CCCL_NEXT's),
// so that both CUBs are timed by the one body on the same inputs, counts and checks. Also the
// state-timing helpers that by_key.cu's own rows share with them (time_runs, time_histogram). CUB is
// called with int item counts and std::size_t run counts:
//   reduce_by_key      cub::DeviceReduce::ReduceByKey (int32 keys, int32 values summed)
//   unique             cub::DeviceSelect::Unique
//   run_length_encode  cub::DeviceRunLengthEncode::Encode (int32 lengths)
//       on keys in runs of geometric length of mean 4 and 64 (axis param "mean 4", "mean 64");
//   histogram_even     cub::DeviceHistogram::HistogramEven of int32 samples in [0, 2^20) into 256 and
//       4096 unsigned bins (param "256 bins", "4096 bins").
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "by_key_inputs.cuh"
#include "check.cuh"
#include "registration.cuh"

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
namespace by_key_cub {

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
    namespace SC = StreamCompaction;
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

// The histogram of one state, as time_runs: histogram(samples, n, counts, bins, temp, temp_bytes,
// stream) enqueues one histogram of n samples into `bins` counters over [0, kSampleRange).
template <class Histogram>
void time_histogram(nvbench::state &state, std::size_t temp_bytes, Histogram histogram) {
    namespace SC = StreamCompaction;
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

inline void reduce_by_key_cub(nvbench::state &state) {
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

inline void unique_cub(nvbench::state &state) {
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

inline void run_length_encode_cub(nvbench::state &state) {
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

inline void histogram_even_cub(nvbench::state &state) {
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

// Each row registered as "<operation>/<implementation>" with by_key.cu's axes, n and param (the mean
// run length; the bins): one at a time, so that by_key.cu keeps each beside ours in its run order.
inline nvbench::benchmark_base &add_reduce_by_key_cub(const std::string &implementation) {
    return add_benchmark("reduce_by_key/" + implementation, reduce_by_key_cub)
        .add_int64_power_of_two_axis("n", kByKeyLog2)
        .add_string_axis("param", kMeanRunParams);
}
inline nvbench::benchmark_base &add_unique_cub(const std::string &implementation) {
    return add_benchmark("unique/" + implementation, unique_cub)
        .add_int64_power_of_two_axis("n", kByKeyLog2)
        .add_string_axis("param", kMeanRunParams);
}
inline nvbench::benchmark_base &add_run_length_encode_cub(const std::string &implementation) {
    return add_benchmark("run_length_encode/" + implementation, run_length_encode_cub)
        .add_int64_power_of_two_axis("n", kByKeyLog2)
        .add_string_axis("param", kMeanRunParams);
}
inline nvbench::benchmark_base &add_histogram_even_cub(const std::string &implementation) {
    return add_benchmark("histogram_even/" + implementation, histogram_even_cub)
        .add_int64_power_of_two_axis("n", kByKeyLog2)
        .add_string_axis("param", kHistogramParams);
}

// Every row, in by_key.cu's order.
inline bool register_by_key_cub(const std::string &implementation) {
    add_reduce_by_key_cub(implementation);
    add_unique_cub(implementation);
    add_run_length_encode_cub(implementation);
    add_histogram_even_cub(implementation);
    return true;
}

}  // namespace by_key_cub
}  // namespace bench
