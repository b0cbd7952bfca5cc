#pragma once
// The reduce part's CUB row (bench/nvbench/reduce.cu), compiled with the CCCL of the program that
// includes it: sc_nvbench_reduce registers it as "reduce/cub" (the toolkit's CUB), and
// sc_nvbench_cccl_next as "reduce/cub_X.Y" (bench/anchors/cccl_next_reduce.cu: SC_CCCL_NEXT's), so that
// both CUBs are timed by the one body on the same inputs (reduce_inputs.cuh) and counts: the two
// reductions of axis param, "sum", cub::DeviceReduce::Sum, and "max", cub::DeviceReduce::Reduce with a
// maximum from INT_MIN, int item counts, the caller's temporary storage, NVBench's stream. Also
// time_reduce, which reduce.cu's own rows share with it.
// Two things come from the including program: the maximum's operator (a template argument: reduce.cu's
// is the library's StreamCompaction::Max, which sc_nvbench_cccl_next, linking no library, restates),
// and the CPU's results the check compares with (ExpectedOf: reduce.cu's cached reductions, which hold
// its maximum segment sum too; the anchor's sum_and_max_of, of reduce_inputs.cuh).
// No project library header beyond the support headers: sc_nvbench_cccl_next links no library.
#include "check.cuh"
#include "reduce_inputs.cuh"
#include "registration.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_reduce.cuh>
#include <nvbench/nvbench.cuh>

#include <climits>
#include <cstddef>
#include <string>

namespace bench {
namespace reduce_cub {

// One reduction of one state: its inputs, its poisoned result and storage, NVBench's counts, the
// timed calls and the check of what the last one wrote. reduce(in, result, n, temp, temp_bytes,
// stream) enqueues one reduction of in[0, n) into *result (an R: int, or MaxSegmentSum).
template <class R, class Reduce>
void time_reduce(nvbench::state &state, std::size_t temp_bytes, const R &expected, Reduce reduce) {
    namespace SC = StreamCompaction;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> in = reduce_input(n, stream);
    SC::DeviceBuffer<R> result(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    result.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.exec([&](nvbench::launch &launch) {
        reduce(in.get(), result.get(), n, temp.get(), temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    record_difference(state, value_mismatch(read_back(result.get(), stream), expected));
}

// CUB's reduction of each param: DeviceReduce::Sum for the sum, DeviceReduce::Reduce with Max{} from
// INT_MIN for the maximum. With temp null, the query of its storage's bytes.
template <bool Sum, class Max>
cudaError_t cub_reduce(void *temp, std::size_t &bytes, const int *in, int *result, std::size_t n,
                       cudaStream_t stream) {
    if constexpr (Sum)
        return cub::DeviceReduce::Sum(temp, bytes, in, result, static_cast<int>(n), stream);
    else
        return cub::DeviceReduce::Reduce(temp, bytes, in, result, static_cast<int>(n), Max{}, INT_MIN, stream);
}

template <bool Sum, class Max>
void time_cub_reduce(nvbench::state &state, int expected) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK((cub_reduce<Sum, Max>(nullptr, bytes, nullptr, nullptr, n, nullptr)));
    time_reduce(state, bytes, expected,
                [](const int *in, int *result, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                    SC_CUDA_CHECK((cub_reduce<Sum, Max>(temp, bytes, in, result, n, s)));
                });
}

// The CPU's sum (sum true) or maximum of the inputs at n.
using ExpectedOf = int (*)(std::size_t n, bool sum);

// The reduction of the state's param, checked against expected_of's; a param given on the command line
// (-a param=...) that is neither skips the state.
template <class Max>
void reduce_cub(nvbench::state &state, ExpectedOf expected_of) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string &param = state.get_string("param");
    if (param == "sum") time_cub_reduce<true, Max>(state, expected_of(n, true));
    else if (param == "max") time_cub_reduce<false, Max>(state, expected_of(n, false));
    else state.skip("param " + param + ": neither sum nor max");
}

// Registered as "reduce/<implementation>" with reduce.cu's axes, n and param (the reduction).
template <class Max>
nvbench::benchmark_base &add_reduce_cub(const std::string &implementation, ExpectedOf expected_of) {
    return add_benchmark("reduce/" + implementation,
                         [expected_of](nvbench::state &state) { reduce_cub<Max>(state, expected_of); })
        .add_int64_power_of_two_axis("n", kReduceLog2)
        .add_string_axis("param", kOperatorParams);
}

}  // namespace reduce_cub
}  // namespace bench
