#pragma once
// Segmented sort: the keys (and values) of each segment of CSR offsets sorted in place, ascending
// and stable, empty segments included. By segment size (detail/segmented_sort/kernels.cuh): one
// pass over the offsets sorts them into short segments (up to 2,048 items of keys up to 4 bytes,
// 1,024 of 8-byte keys) and long ones; a block sorts all the short segments that start in its
// 2,048 (1,024) items in shared memory at once, reading and writing each item once: where none is
// longer than 64 items by counting, for each item, the items of its segment that sort before it,
// else by merging only until runs are as long as its longest segment; a long
// segment is sorted in tiles of 4,096 (2,048) items the same way, then merged level by level (a
// segment of L items takes ceil(log2(L / 4096)) levels). No host wait: safe in a CUDA graph.
//
// Example:
//   std::vector<int> keys = {3, 1, 2, 9, 5, 5, 0}, sorted(7);
//   std::vector<int> offsets = {0, 3, 3, 7};                  // segments [3 1 2] [] [9 5 5 0]
//   auto d_keys = DeviceBuffer<int>::from_host(keys.data(), 7);
//   auto d_offsets = DeviceBuffer<int>::from_host(offsets.data(), 4);
//   DeviceBuffer<int> d_sorted(7);
//   std::size_t bytes = segmented_sort_temp_bytes<int>(7);
//   DeviceBuffer<char> d_temp(bytes);
//   segmented_sort_keys(d_keys.get(), d_sorted.get(), 7, d_offsets.get(), 3, d_temp.get(), bytes);
//   d_sorted.copy_to_host(sorted.data(), 7);
//   if (sorted != std::vector<int>{1, 2, 3, 0, 5, 5, 9}) return 1;
//
// Contracts: keys of the radix sort's types (integers of 1 to 8 bytes, __half, __nv_bfloat16, float,
// double) in its order (radix_sort.cuh: -0.0 and +0.0 equal, NaNs by their bits); values of at most
// 8 bytes; offsets as in load_balance.cuh, unchecked here (check_segment_offsets checks them; bad
// ones leave the output unspecified but every access inside the arrays); n and segments below
// 2^32. Outputs must not overlap inputs. Temporary storage: segmented_sort_temp_bytes<K>(n, env),
// about n * (sizeof(K) + 8) bytes (the keys' and values' second buffer), at any alignment. Every
// call is a fixed sequence of launches for its n: safe to capture in a CUDA graph and replay with
// new keys and offsets. Errors: std::invalid_argument for bad arguments (nothing enqueued),
// cuda_error from CUDA.
#include <stream_compaction/detail/segmented_sort/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/nvtx.h>

#include <cstddef>

namespace StreamCompaction {

template <class K>
std::size_t segmented_sort_temp_bytes(std::size_t n, const CallEnvironment &env = {}) {
    (void)env;  // no tuning of the environment changes the storage
    return n == 0 ? 0 : detail::segmented_sort_layout<K>(n).bytes();
}

template <class K, class Offset>
void segmented_sort_keys(const K *d_keys_in, K *d_keys_out, std::size_t n, const Offset *d_offsets,
                         std::size_t segments, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_sort_keys");
    detail::segmented_sort<false>("segmented_sort_keys", d_keys_in, d_keys_out, static_cast<const int *>(nullptr),
                                  static_cast<int *>(nullptr), n, d_offsets, segments, d_temp, temp_bytes, env);
}

template <class K, class V, class Offset>
void segmented_sort_pairs(const K *d_keys_in, K *d_keys_out, const V *d_values_in, V *d_values_out, std::size_t n,
                          const Offset *d_offsets, std::size_t segments, void *d_temp, std::size_t temp_bytes,
                          const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_sort_pairs");
    detail::segmented_sort<true>("segmented_sort_pairs", d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                 d_offsets, segments, d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction
