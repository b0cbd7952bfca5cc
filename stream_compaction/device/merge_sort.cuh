#pragma once
// Merge sort by a comparator: keys of any trivially copyable type (structs, fixed-width strings)
// that radix sort cannot take, in the order of a device functor `less(a, b)` (a strict weak order),
// alone or carrying values; stable (equivalent keys, and their values, keep their input order).
// Device pointers, 64-bit n, work enqueued on the environment's stream; nothing waits on the host
// (graph-capturable).
//   1. A block sorts each tile of 4,096 keys of up to 4 bytes (2,048 wider ones) in shared memory
//      (merge_sort_tile_kernel).
//   2. ceil(log2(n / 4,096)) rounds each merge the runs in pairs, alternating between the output
//      and the temporary storage so that the last round writes the output: a corner pass finds
//      where each of the round's tiles starts in its pair, then every tile of the round (a tile of
//      the merge family) in one launch.
//
// Example: descending by thrust::greater, stable (the values show the input order of equal keys).
//   std::vector<long long> keys = {3, 1, 3, 0}, sorted(4);
//   std::vector<int> values = {0, 1, 2, 3}, order(4);
//   auto d_keys = DeviceBuffer<long long>::from_host(keys.data(), 4);
//   auto d_values = DeviceBuffer<int>::from_host(values.data(), 4);
//   DeviceBuffer<long long> d_sorted(4);
//   DeviceBuffer<int> d_order(4);
//   merge_sort_pairs(d_keys.get(), d_sorted.get(), d_values.get(), d_order.get(), 4, thrust::greater<long long>());
//   d_sorted.copy_to_host(sorted.data(), 4);
//   d_order.copy_to_host(order.data(), 4);
//   if (sorted != std::vector<long long>{3, 3, 1, 0} || order != std::vector<int>{0, 2, 1, 3}) return 1;
//
// A struct by one field, with caller-provided storage (the comparator at namespace scope: a type a
// kernel template takes cannot be local to a function):
//   struct Point { int x, y; };
//   struct ByY { __device__ bool operator()(const Point &a, const Point &b) const { return a.y < b.y; } };
//   std::size_t bytes = merge_sort_temp_bytes<Point>(n);
//   merge_sort_keys(d_points, d_sorted, n, ByY{}, d_temp, bytes, stream);
//
// Keys and values: trivially copyable, aligned to at most 16 bytes; values from an array. The outputs
// must not overlap the inputs. Temporary storage: merge_sort_temp_bytes<Key, Value>(n), a second
// buffer of the keys (and values) and the rounds' corners, 0 when n is at most one tile. Errors: std::invalid_argument
// for bad arguments before any work is enqueued, cuda_error from CUDA.
#include <stream_compaction/detail/merge_sort/dispatch.cuh>
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>
#include <thrust/functional.h>  // the example's thrust::greater

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {

// Bytes of temporary storage a merge sort of n keys (and values of type Value) needs.
template <class Key, class Value = KeysOnly>
std::size_t merge_sort_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    constexpr bool kHasValues = !std::is_same_v<Value, KeysOnly>;
    return detail::merge_sort_temp_bytes<Key, std::conditional_t<kHasValues, Value, char>, kHasValues>(n);
}

template <class Key, class LessOp = Less>
void merge_sort_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, LessOp less, void *d_temp,
                     std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("merge_sort_keys");
    static_assert(std::is_trivially_copyable_v<Key>, "merge sort keys are trivially copyable");
    detail::merge_sort<false>("merge_sort_keys", d_keys_in, d_keys_out, static_cast<const char *>(nullptr),
                              static_cast<char *>(nullptr), n, less, d_temp, temp_bytes, env);
}

template <class Key, class Value, class LessOp = Less>
void merge_sort_pairs(const Key *d_keys_in, Key *d_keys_out, const Value *d_values_in, Value *d_values_out,
                      std::size_t n, LessOp less, void *d_temp, std::size_t temp_bytes,
                      const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("merge_sort_pairs");
    static_assert(std::is_trivially_copyable_v<Key> && std::is_trivially_copyable_v<Value>,
                  "merge sort keys and values are trivially copyable");
    detail::merge_sort<true>("merge_sort_pairs", d_keys_in, d_keys_out, d_values_in, d_values_out, n, less, d_temp,
                             temp_bytes, env);
}

// Allocating their own storage (from the environment's memory resource).
template <class Key, class LessOp = Less>
void merge_sort_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, LessOp less = {},
                     const CallEnvironment &env = {}) {
    const std::size_t bytes = merge_sort_temp_bytes<Key>(n, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        merge_sort_keys(d_keys_in, d_keys_out, n, less, d_temp, bytes, env);
    });
}

template <class Key, class Value, class LessOp = Less>
void merge_sort_pairs(const Key *d_keys_in, Key *d_keys_out, const Value *d_values_in, Value *d_values_out,
                      std::size_t n, LessOp less = {}, const CallEnvironment &env = {}) {
    const std::size_t bytes = merge_sort_temp_bytes<Key, Value>(n, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        merge_sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, less, d_temp, bytes, env);
    });
}

}  // namespace StreamCompaction
