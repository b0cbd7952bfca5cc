// The reduce part on NVBench (issue #48), on reduce_inputs.cuh's inputs (int32 values in [-50, 50],
// index_hash(i) % 101 - 50, a random walk whose best segment is long, not the whole array) at n =
// 2^20, 2^24 and 2^28 (axis n; the full profile: 2^10, 2^12, ..., 2^28). Operation "reduce", two
// reductions (axis param): "sum" (Sum from 0) and "max" (Max from INT_MIN). Timed: the four
// strategies of ours (reduce/tree, reduce/group, reduce/chunked, reduce/atomics:
// reduce_strategy_name), against CUB's DeviceReduce::Sum (param "sum") and DeviceReduce::Reduce
// with a maximum (param "max") (reduce/cub, called with int item counts); at param "sum" alone, the
// atomics and chunked strategies with the standard operator of CUB and Thrust users,
// cuda::std::plus (reduce/atomics_cuda_std_plus, reduce/chunked_cuda_std_plus), and the maximum
// segment sum (reduce/mss), listed at "sum": its ratio is to CUB's plain sum of the same array, the
// issue's yardstick. Ours run at the library's default tuning on NVBench's stream. NVBench's cold
// runs flush the L2 between samples, so each run reads its input from memory. No axis "block" (ours'
// block size is reduce_threads'), so nvbench_to_csv.py gives these rows block_size 0.
//
// Bytes: the input read (4n; the result's few bytes are left out), so GB/s is the read bandwidth
// the reduction reaches. The result and the temporary storage are poisoned before the timed runs;
// the result of the last one is then checked against the CPU's on the same inputs: the sum wrapping
// as int additions do (CPU::sum's), the largest item, and Kadane's maximum segment sum with its
// segment (CPU::maxSegmentSum: sum, begin and end compared).
#include "check.cuh"
#include "reduce_cub.cuh"
#include "reduce_inputs.cuh"

#include <stream_compaction/cpu.h>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/support/reduction.h>

#include <cuda/std/functional>
#include <nvbench/nvbench.cuh>

#include <climits>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

// The part's axes (kReduceLog2, kOperatorParams), its inputs (reduce_input, host_reduce_input) and the
// CPU's sum and maximum (sum_and_max): reduce_inputs.cuh, shared with the CCCL anchors.
const std::vector<std::string> kSumParam = {"sum"};
// The CUB row and the timing of a state, shared with sc_nvbench_cccl_next (reduce_cub.cuh).
using reduce_cub::add_reduce_cub;
using reduce_cub::time_reduce;

// What every state of a point is checked against, as the CPU computes it: the sum, wrapping
// modulo 2^32 as CPU::sum's (so the pieces' sums, added up, are the same), and the largest item
// (sum_and_max, reduce_inputs.cuh), and CPU::maxSegmentSum itself. Kadane's pass stays serial: its
// segment's tie-breaking (the first start, then the shortest) is what the check compares begin and
// end against, and it runs once per n.
struct HostReductions {
    int sum = 0;
    int max = INT_MIN;
    SC::MaxSegmentSum mss{0, 0, 0};
    std::size_t footprint() const { return sizeof(*this); }
};
HostReductions host_reductions(std::size_t n) {
    const std::vector<int> in = host_reduce_input(n);
    const SumAndMax totals = sum_and_max(in);
    HostReductions reductions;
    reductions.sum = totals.sum;
    reductions.max = totals.max;
    reductions.mss = SC::CPU::maxSegmentSum(static_cast<int>(n), in.data());
    return reductions;
}

// host_reductions once per n (the inputs depend on n alone): every implementation and param of a
// point shares it.
std::shared_ptr<const HostReductions> reductions_of(std::size_t n) {
    return cached_reference<HostReductions>("reductions n=" + std::to_string(n), [n] { return host_reductions(n); });
}

// The two reductions, by param: calls body(op, identity, expected), expected the CPU's result
// of that reduction at the state's n. A param given on the command line (-a param=...) that is
// neither skips the state.
template <class Body>
void by_operator(nvbench::state &state, Body body) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string &param = state.get_string("param");
    if (param == "sum") body(SC::Sum{}, 0, reductions_of(n)->sum);
    else if (param == "max") body(SC::Max{}, INT_MIN, reductions_of(n)->max);
    else state.skip("param " + param + ": neither sum nor max");
}

// Whether the state's param is "sum", the only one of the benchmarks registered at it; else skipped.
bool at_sum(nvbench::state &state) {
    const std::string &param = state.get_string("param");
    if (param == "sum") return true;
    state.skip("param " + param + ": this benchmark runs at sum alone");
    return false;
}

// One strategy of ours, with param's operator.
void time_strategy(nvbench::state &state, SC::ReduceStrategy strategy) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    by_operator(state, [&](auto op, int identity, int expected) {
        time_reduce(state, SC::reduce_temp_bytes<int>(n, strategy), expected,
                    [strategy, op, identity](const int *in, int *result, std::size_t n, void *temp, std::size_t bytes,
                                             cudaStream_t s) {
                        SC::reduce(strategy, in, result, n, op, identity, temp, bytes, s);
                    });
    });
}

void reduce_tree(nvbench::state &state) { time_strategy(state, SC::ReduceStrategy::Tree); }
void reduce_group(nvbench::state &state) { time_strategy(state, SC::ReduceStrategy::Group); }
void reduce_chunked(nvbench::state &state) { time_strategy(state, SC::ReduceStrategy::Chunked); }
void reduce_atomics(nvbench::state &state) { time_strategy(state, SC::ReduceStrategy::Atomics); }

// The sum by the standard operator (cuda::std::plus): the same kernels as Sum (standard_operator),
// so the same time; timed to show that it is.
void time_strategy_cuda_std_plus(nvbench::state &state, SC::ReduceStrategy strategy) {
    if (!at_sum(state)) return;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_reduce(state, SC::reduce_temp_bytes<int>(n, strategy), reductions_of(n)->sum,
                [strategy](const int *in, int *result, std::size_t n, void *temp, std::size_t bytes, cudaStream_t s) {
                    SC::reduce(strategy, in, result, n, ::cuda::std::plus<>{}, 0, temp, bytes, s);
                });
}

void reduce_atomics_cuda_std_plus(nvbench::state &state) {
    time_strategy_cuda_std_plus(state, SC::ReduceStrategy::Atomics);
}
void reduce_chunked_cuda_std_plus(nvbench::state &state) {
    time_strategy_cuda_std_plus(state, SC::ReduceStrategy::Chunked);
}

void reduce_mss(nvbench::state &state) {
    if (!at_sum(state)) return;
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_reduce(state, SC::max_segment_sum_temp_bytes(n), reductions_of(n)->mss,
                [](const int *in, SC::MaxSegmentSum *best, std::size_t n, void *temp, std::size_t bytes,
                   cudaStream_t s) { SC::max_segment_sum(in, best, n, temp, bytes, s); });
}

// "reduce/<the strategy's name><suffix>": the implementation names are the library's own.
std::string strategy_benchmark(SC::ReduceStrategy strategy, const char *suffix = "") {
    return std::string("reduce/") + SC::reduce_strategy_name(strategy) + suffix;
}

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py. The
// anchor's implementation is "cub", which bench/plot/anchors.py counts as a library.
// reduce/cub is checked against the cached reductions, as ours are (reductions_of).
[[maybe_unused]] nvbench::benchmark_base &kReduceCub = add_reduce_cub<SC::Max>(
    "cub", [](std::size_t n, bool sum) { return sum ? reductions_of(n)->sum : reductions_of(n)->max; });
NVBENCH_BENCH(reduce_tree)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Tree))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kOperatorParams);
NVBENCH_BENCH(reduce_group)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Group))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kOperatorParams);
NVBENCH_BENCH(reduce_chunked)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Chunked))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kOperatorParams);
NVBENCH_BENCH(reduce_atomics)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Atomics))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kOperatorParams);
NVBENCH_BENCH(reduce_atomics_cuda_std_plus)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Atomics, "_cuda_std_plus"))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kSumParam);
NVBENCH_BENCH(reduce_chunked_cuda_std_plus)
    .set_name(strategy_benchmark(SC::ReduceStrategy::Chunked, "_cuda_std_plus"))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kSumParam);
NVBENCH_BENCH(reduce_mss)
    .set_name("reduce/mss")
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kSumParam);

}  // namespace
}  // namespace bench
