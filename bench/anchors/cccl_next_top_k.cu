// sc_nvbench_cccl_next's rows of the top-k part (bench/nvbench/top_k.cu): the CUB of SC_CCCL_NEXT
// (cccl_next.cuh) on that part's inputs and at its points (top_k_inputs.cuh: float keys of random bits, finite,
// n = 2^24 and 2^28, the full profile 2^16, 2^18, ..., 2^28, axis n; axis k):
//   top_k_keys_float/cub_X.Y   cub::DeviceTopK::MaxKeys, k = 100, 1,000 and 4,096;
//   top_k_pairs_float/cub_X.Y  cub::DeviceTopK::MaxPairs with a cuda::counting_iterator as values (the keys'
//                              indices), k = 100;
// with the caller's temporary storage and int item counts and k. The toolkit's CUB (CCCL 3.0) has no top-k:
// top_k.cu's CUB rows are a full sort (cub_full_sort), with the same axes. DeviceTopK takes only the
// environment that requires cuda::execution::determinism::not_guaranteed and output_ordering::unsorted (any
// other is refused at compile time in CCCL 3.6): its k keys come out in any order and, of keys tied at the
// k-th place, any may be taken. So its output is checked as a set (top_k_inputs.cuh's set_difference): sorted
// on the host, the keys must be the CPU's top k (top_k.cu's reference), and each index a distinct input index
// of a key equal to its own. Bytes as top_k.cu counts them: the n keys read, the k keys (and indices) written.
// The outputs and the temporary storage are poisoned before the timed runs; the last one's output is checked.
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "nvbench/registration.cuh"
#include "top_k_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_topk.cuh>
#include <cuda/execution.determinism.h>
#include <cuda/execution.output_ordering.h>
#include <cuda/execution.require.h>
#include <cuda/iterator>
#include <cuda/std/execution>
#include <cuda/stream_ref>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using namespace top_k_inputs;

// The one requirement DeviceTopK accepts, with the stream, in the environment of its temporary-storage overload.
using Requirements = decltype(cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                       cuda::execution::output_ordering::unsorted));
using TopKEnv = cuda::std::execution::env<cuda::stream_ref, Requirements>;

TopKEnv top_k_env(cudaStream_t stream) {
    return TopKEnv{cuda::stream_ref{stream}, cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                                                      cuda::execution::output_ordering::unsorted)};
}

// MaxKeys (pairs: MaxPairs with the indices as values) of n keys into k; a null temp asks for the storage's size.
cudaError_t max_top_k(void *temp, std::size_t &bytes, const float *keys_in, float *keys_out, int *indices_out,
                      std::size_t n, std::size_t k, cudaStream_t stream) {
    if (indices_out != nullptr)
        return cub::DeviceTopK::MaxPairs(temp, bytes, keys_in, keys_out, cuda::counting_iterator<int>{0},
                                         indices_out, static_cast<int>(n), static_cast<int>(k), top_k_env(stream));
    return cub::DeviceTopK::MaxKeys(temp, bytes, keys_in, keys_out, static_cast<int>(n), static_cast<int>(k),
                                    top_k_env(stream));
}

void top_k_cub(nvbench::state &state, bool pairs) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const auto k = static_cast<std::size_t>(state.get_int64("k"));
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<float> keys_in = top_k_input(n, stream), keys_out(k);
    SC::DeviceBuffer<int> indices_out(pairs ? k : 0);
    std::size_t bytes = 0;
    SC_CUDA_CHECK(max_top_k(nullptr, bytes, keys_in.get(), keys_out.get(), pairs ? indices_out.get() : nullptr, n,
                            k, stream));
    SC::DeviceBuffer<char> temp(bytes);
    poison_and_count(state, n, k, pairs, keys_out, indices_out, temp);
    state.exec([&](nvbench::launch &launch) {
        std::size_t temp_bytes = temp.bytes();
        SC_CUDA_CHECK(max_top_k(temp.get(), temp_bytes, keys_in.get(), keys_out.get(),
                                pairs ? indices_out.get() : nullptr, n, k,
                                static_cast<cudaStream_t>(launch.get_stream())));
    });
    const std::vector<float> keys = read_back(keys_out.get(), k, stream);
    const std::vector<int> indices = pairs ? read_back(indices_out.get(), k, stream) : std::vector<int>{};
    record_difference(state, set_difference(*top_k_reference(n, k), n, keys, pairs ? &indices : nullptr));
}

// "top_k_keys_float/cub_X.Y" and "top_k_pairs_float/cub_X.Y", with top_k.cu's axes.
[[maybe_unused]] nvbench::benchmark_base &kKeys =
    add_benchmark(cub_benchmark("top_k_keys_float"), [](nvbench::state &state) { top_k_cub(state, false); })
        .add_int64_power_of_two_axis("n", kTopKLog2)
        .add_int64_axis("k", kKeysK);
[[maybe_unused]] nvbench::benchmark_base &kPairs =
    add_benchmark(cub_benchmark("top_k_pairs_float"), [](nvbench::state &state) { top_k_cub(state, true); })
        .add_int64_power_of_two_axis("n", kTopKLog2)
        .add_int64_axis("k", kPairsK);

}  // namespace
}  // namespace bench
