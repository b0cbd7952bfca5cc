// sc_nvbench_cccl_next's rows of the reduce part (bench/nvbench/reduce.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs (int32 values in [-50, 50]: reduce_inputs.cuh) at its points,
// n = 2^20, 2^24, 2^28 (axis n; the full profile: 2^10, 2^12, ..., 2^28), reduce/cub_X.Y with reduce.cu's two
// reductions (axis param): "sum", cub::DeviceReduce::Sum, and "max", cub::DeviceReduce::Reduce with a maximum
// from INT_MIN, called as reduce.cu calls the toolkit's (int item counts, the caller's temporary storage,
// NVBench's stream). Bytes as reduce.cu counts them: the input read (4n). The result and the temporary storage are
// poisoned before the timed runs; the result of the last one is checked against reduce.cu's CPU sum
// (wrapping as int additions do) and maximum of the same inputs (sum_and_max, once per n). The body and
// axes are reduce.cu's own reduce/cub's (bench/nvbench/reduce_cub.cuh), compiled here with SC_CCCL_NEXT's
// CUB.
#include "cccl_next.cuh"
#include "nvbench/reduce_cub.cuh"
#include "reduce_inputs.cuh"

#include <cstddef>
#include <memory>

namespace bench {
namespace {

// reduce.cu's operators, restated without the project's headers: StreamCompaction::Max.
struct Max {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

// reduce.cu's reduce/cub as cub_X.Y, checked against sum_and_max_of (reduce.cu's reductions_of, which also
// holds the maximum segment sum, needs the library's CPU code).
[[maybe_unused]] nvbench::benchmark_base &kRegistered =
    reduce_cub::add_reduce_cub<Max>(cub_implementation(), [](std::size_t n, bool sum) {
        const std::shared_ptr<const SumAndMax> expected = sum_and_max_of(n);
        return sum ? expected->sum : expected->max;
    });

}  // namespace
}  // namespace bench
