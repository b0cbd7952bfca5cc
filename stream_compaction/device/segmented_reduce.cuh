#pragma once
// Segmented reduction on the device: one result per segment of CSR offsets (empty segments
// included), by merge path, so the time does not depend on how the values are spread.
//
// Example:
//   std::vector<float> values = {1, 2, 3, 4, 5}, sums(3);
//   std::vector<int> offsets = {0, 3, 3, 5};                    // segments [1 2 3] [] [4 5]
//   auto d_values = DeviceBuffer<float>::from_host(values.data(), 5);
//   auto d_offsets = DeviceBuffer<int>::from_host(offsets.data(), 4);
//   DeviceBuffer<float> d_sums(3);
//   std::size_t bytes = segmented_reduce_temp_bytes<float>(5, 3);
//   DeviceBuffer<char> d_temp(bytes);
//   segmented_reduce(d_values.get(), 5, d_offsets.get(), 3, d_sums.get(), Sum{}, 0.0f, d_temp.get(), bytes);
//   d_sums.copy_to_host(sums.data(), 3);
//   if (sums != std::vector<float>{6, 0, 9}) return 1;         // an empty segment gets the identity
//
// Errors: std::invalid_argument for bad arguments, cuda_error from CUDA.
#include <stream_compaction/detail/segmented/reduce_dispatch.cuh>
#include <stream_compaction/detail/segmented/scan_kernels.cuh>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>

namespace StreamCompaction {

template <class V>
std::size_t segmented_reduce_temp_bytes(std::size_t n, std::size_t segments) {
    return detail::merge_path_temp_bytes<V>(n, segments);
}

// d_out[s] = the values of segment s combined in order, `identity` for an empty segment (op(identity,
// x) must be x). n must equal offsets[segments]. One launch (merge path): the time does not depend
// on how the values are spread over the segments.
template <class V, class Offset, class Op>
void segmented_reduce(const V *d_values, std::size_t n, const Offset *d_offsets, std::size_t segments, V *d_out,
                      Op op, V identity, void *d_temp, std::size_t temp_bytes, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("segmented_reduce");
    require_device_pointers("segmented_reduce", n, d_values, d_offsets);
    require_device_pointers("segmented_reduce", segments, d_offsets, d_out);
    detail::merge_path_reduce("segmented_reduce", d_offsets, segments, n, detail::ArrayLoad<V>{d_values},
                              detail::ArrayStore<V>{d_out}, op, identity, d_temp, temp_bytes, stream);
}

}  // namespace StreamCompaction
