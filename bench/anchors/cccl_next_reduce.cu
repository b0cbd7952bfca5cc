// sc_nvbench_cccl_next's rows of the reduce part (bench/nvbench/reduce.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (int32 values in [-50, 50]: reduce_inputs.cuh) at its points,
// n = 2^20, 2^24, 2^28 (axis n), reduce/cub_X.Y with reduce.cu's two reductions (axis param): "sum",
// cub::DeviceReduce::Sum, and "max", cub::DeviceReduce::Reduce with a maximum from INT_MIN, called as
// reduce.cu calls the toolkit's (int item counts, the caller's temporary storage, NVBench's stream).
// Bytes as reduce.cu counts them: the input read (4n). The result and the temporary storage are
// poisoned before the timed runs; the result of the last one is checked against reduce.cu's CPU sum
// (wrapping as int additions do) and maximum of the same inputs (sum_and_max, once per n).
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "reduce_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_reduce.cuh>
#include <nvbench/nvbench.cuh>

#include <climits>
#include <cstddef>
#include <memory>
#include <string>

namespace bench {
namespace {

namespace SC = StreamCompaction;

// reduce.cu's operators, restated without the project's headers: StreamCompaction::Max.
struct Max {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

// CUB's reduction of each param. With temp null, the query of its storage's bytes.
cudaError_t cub_reduce(bool sum, void *temp, std::size_t &bytes, const int *in, int *result, std::size_t n,
                       cudaStream_t stream) {
    if (sum) return cub::DeviceReduce::Sum(temp, bytes, in, result, static_cast<int>(n), stream);
    return cub::DeviceReduce::Reduce(temp, bytes, in, result, static_cast<int>(n), Max{}, INT_MIN, stream);
}

void reduce_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const std::string &param = state.get_string("param");
    if (param != "sum" && param != "max") {
        state.skip("param " + param + ": neither sum nor max");
        return;
    }
    const bool sum = param == "sum";
    const cudaStream_t stream = state.get_cuda_stream();
    std::size_t temp_bytes = 0;
    SC_CUDA_CHECK(cub_reduce(sum, nullptr, temp_bytes, nullptr, nullptr, n, nullptr));
    const SC::DeviceBuffer<int> in = reduce_input(n, stream);
    SC::DeviceBuffer<int> result(1);
    SC::DeviceBuffer<char> temp(temp_bytes);
    result.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(n);
    state.exec([&](nvbench::launch &launch) {
        std::size_t bytes = temp.bytes();
        SC_CUDA_CHECK(cub_reduce(sum, temp.get(), bytes, in.get(), result.get(), n,
                                 static_cast<cudaStream_t>(launch.get_stream())));
    });
    const std::shared_ptr<const SumAndMax> expected = sum_and_max_of(n);
    record_difference(state, value_mismatch(read_back(result.get(), stream), sum ? expected->sum : expected->max));
}

// reduce.cu's axes for its reduce/cub.
NVBENCH_BENCH(reduce_cub)
    .set_name(cub_benchmark("reduce"))
    .add_int64_power_of_two_axis("n", kReduceLog2)
    .add_string_axis("param", kOperatorParams);

}  // namespace
}  // namespace bench
