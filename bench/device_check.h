#pragma once
// The device side of the checks (check.h) in the benchmark programs: an output poisoned before the
// runs whose result is checked, and what a run wrote read back to the host.
#include "check.h"

#include <stream_compaction/support/cuda_check.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace bench {

// The value at d_value once everything enqueued on `stream` before it is done (a check's read).
template <class T>
T read_back(const T *d_value, cudaStream_t stream) {
    T value{};
    SC_CUDA_CHECK(cudaMemcpyAsync(&value, d_value, sizeof(T), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return value;
}

// d_values[0, n) on the host, once everything enqueued on `stream` before it is done.
template <class T>
std::vector<T> read_back(const T *d_values, std::size_t n, cudaStream_t stream) {
    std::vector<T> values(n);
    SC_CUDA_CHECK(cudaMemcpyAsync(values.data(), d_values, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return values;
}

// Fills d_values[0, n) with kPoisonByte on `stream`, before a checked run: what the run leaves
// unwritten then fails its check.
template <class T>
void poison(T *d_values, std::size_t n, cudaStream_t stream) {
    SC_CUDA_CHECK(cudaMemsetAsync(d_values, kPoisonByte, n * sizeof(T), stream));
}

}  // namespace bench
