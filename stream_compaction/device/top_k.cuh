#pragma once
// Top-k: the k smallest keys (or, descending, the k largest), sorted, alone or with their values,
// without sorting everything. The result is exactly the first k items the stable radix sort
// (radix_sort.cuh) would write for the same keys and RadixSortOrder: the same key types, the same
// order of floating-point keys, bit ranges, and equal keys in input order, so of several equal
// keys at the k-th place the earliest are taken. Device pointers, 64-bit n, work enqueued on the
// environment's stream; nothing waits on the host, so a call may be captured in a CUDA graph.
//   Radix selection, 11 bits a pass from each key's top: a pass counts a digit of the keys still in
//   question, a one-block kernel finds the bin that holds the k-th, and the next pass writes the
//   keys of lower bins out (they are in) and keeps that bin's as candidates, counting their next
//   digit; and so on until the chosen keys and the candidates fit one block, which sorts them.
//   A sample of 2,048 keys first sets a threshold that about 2k + 4n / 2,048 keys are below, and
//   one read of the input keeps those; when they are at least k, the rest reads them
//   alone: one read of the input in all. Keys the sample misjudges (it is evenly spaced, so its
//   rank holds whatever the keys' values) cost one read more. Equal keys are told apart by their
//   positions, counted as further digits, so the passes end whatever the keys.
//   k up to the final sort's items (top_k_max_selected(): 4,096 on GPUs whose blocks may have
//   72 KiB of shared memory, 2,048 on others) is selected; a larger k sorts all n keys and copies
//   the first k out (the same result, at a sort's cost).
//
// Example:
//   std::vector<float> keys = {3.5f, -1.0f, 7.0f, 0.5f, 7.0f, -2.0f}, smallest(3), largest(2);
//   auto d_keys = DeviceBuffer<float>::from_host(keys.data(), 6);
//   DeviceBuffer<float> d_out(3);
//   std::size_t bytes = top_k_temp_bytes<float>(6, 3);
//   DeviceBuffer<char> d_temp(bytes > 0 ? bytes : 1);
//   top_k_keys(d_keys.get(), d_out.get(), 6, 3, d_temp.get(), bytes);
//   d_out.copy_to_host(smallest.data(), 3);
//   if (smallest != std::vector<float>{-2.0f, -1.0f, 0.5f}) return 1;
//   top_k_keys(d_keys.get(), d_out.get(), 6, 2, RadixSortOrder{true});   // the 2 largest, allocating
//   d_out.copy_to_host(largest.data(), 2);
//   if (largest != std::vector<float>{7.0f, 7.0f}) return 1;
//
// With values, e.g. where the k largest were (a counting iterator as values):
//   std::vector<int> scores = {5, 90, 12, 90, 40}, best(2), where(2);
//   auto d_scores = DeviceBuffer<int>::from_host(scores.data(), 5);
//   DeviceBuffer<int> d_best(2), d_where(2);
//   top_k_pairs(d_scores.get(), d_best.get(), thrust::counting_iterator<int>(0), d_where.get(), 5, 2,
//               RadixSortOrder{true});
//   d_best.copy_to_host(best.data(), 2);
//   d_where.copy_to_host(where.data(), 2);
//   if (best != std::vector<int>{90, 90} || where != std::vector<int>{1, 3}) return 1;   // ties: earliest first
//
// Values: any trivially copyable type of 1, 2, 4 or 8 bytes, from an array or any random-access
// iterator the device can read whose items convert to the output's type; only the k taken are read.
// Outputs hold k items and must not overlap the inputs. Temporary storage: top_k_temp_bytes<Key,
// Value>(n, k) on the device the call runs on (it depends on the final sort's size there; 0 when n
// fits the final sort, and then d_temp may be null); about n bytes (the candidate buffers hold a
// sixteenth of the keys with their positions), a sort's storage when k is past the selection's
// limit. Calls that share it must be ordered (one stream). Errors: std::invalid_argument for bad
// arguments (k > n, null pointers, short storage, a bad bit range) before any work is enqueued,
// cuda_error from CUDA.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/top_k/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/radix_sort_order.h>
#include <thrust/iterator/counting_iterator.h>  // the positions of the k taken (above)

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {

// The largest k selected on the current device; a larger one sorts everything.
template <class Key>
std::size_t top_k_max_selected() {
    return detail::top_k_capacity<Key>();
}

// Bytes of temporary storage a top-k of k of n keys (and values of type Value, the output's) needs
// on the current device.
template <class Key, class Value = KeysOnly>
std::size_t top_k_temp_bytes(std::size_t n, std::size_t k, const CallEnvironment &env = {}) {
    return detail::top_k_temp_bytes<Key, Value>(n, k, env.tuning);
}

namespace detail {
// The selection of (keys, values) as `order` says: the order's mask and flip, and the compared bits'
// width and first bit.
template <class Key, class Value, class ValuesIn>
void top_k_ordered(const char *name, const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in,
                   Value *d_values_out, std::size_t n, std::size_t k, void *d_temp, std::size_t temp_bytes,
                   const RadixSortOrder &order, const CallEnvironment &env) {
    constexpr int kKeyBits = static_cast<int>(sizeof(Key)) * 8;
    const auto mask = static_cast<radix_bits_t<Key>>(radix_compared_bits(order, name, kKeyBits));
    const int end_bit = order.end_bit == RadixSortOrder::kKeyWidth ? kKeyBits : order.end_bit;
    const RadixOrder<Key> compared{mask, order.descending ? mask : radix_bits_t<Key>{0}};
    top_k(name, d_keys_in, d_keys_out, d_values_in, d_values_out, n, k, d_temp, temp_bytes, compared,
          end_bit - order.begin_bit, order.begin_bit, env);
}
}  // namespace detail

template <class Key>
void top_k_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, std::size_t k, void *d_temp,
                std::size_t temp_bytes, RadixSortOrder order, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("top_k_keys");
    detail::top_k_ordered<Key, KeysOnly>("top_k_keys", d_keys_in, d_keys_out, static_cast<const KeysOnly *>(nullptr),
                                         static_cast<KeysOnly *>(nullptr), n, k, d_temp, temp_bytes, order, env);
}

template <class Key>
void top_k_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, std::size_t k, void *d_temp,
                std::size_t temp_bytes, const CallEnvironment &env = {}) {
    top_k_keys(d_keys_in, d_keys_out, n, k, d_temp, temp_bytes, RadixSortOrder{}, env);
}

// Value is the output's type; d_values_in a pointer to Value's, a thrust::device_ptr, or any
// random-access iterator the device can read whose items convert to Value.
template <class Key, class Value, class ValuesIn>
void top_k_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                 std::size_t k, void *d_temp, std::size_t temp_bytes, RadixSortOrder order,
                 const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("top_k_pairs");
    static_assert(std::is_trivially_copyable_v<Value> && (sizeof(Value) == 1 || sizeof(Value) == 2 ||
                                                          sizeof(Value) == 4 || sizeof(Value) == 8),
                  "top_k_pairs values are trivially copyable types of 1, 2, 4 or 8 bytes");
    detail::top_k_ordered("top_k_pairs", d_keys_in, d_keys_out, detail::read_only_input(d_values_in), d_values_out,
                          n, k, d_temp, temp_bytes, order, env);
}

template <class Key, class Value, class ValuesIn>
void top_k_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                 std::size_t k, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    top_k_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, k, d_temp, temp_bytes, RadixSortOrder{}, env);
}

// Allocating its own storage (from the environment's memory resource).
template <class Key>
void top_k_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, std::size_t k, RadixSortOrder order = {},
                const CallEnvironment &env = {}) {
    const std::size_t bytes = top_k_temp_bytes<Key>(n, k, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        top_k_keys(d_keys_in, d_keys_out, n, k, d_temp, bytes, order, env);
    });
}

template <class Key, class Value, class ValuesIn>
void top_k_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                 std::size_t k, RadixSortOrder order = {}, const CallEnvironment &env = {}) {
    const std::size_t bytes = top_k_temp_bytes<Key, Value>(n, k, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        top_k_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, k, d_temp, bytes, order, env);
    });
}

}  // namespace StreamCompaction
