#pragma once
// LSD radix sort of 8- to 64-bit keys (integers of 1, 2, 4 and 8 bytes, __half, __nv_bfloat16,
// float, double), alone or carrying values: Onesweep (Adinets & Merrill 2022). Keys and outputs
// are device pointers, values in may also be iterators (below); 64-bit n, work enqueued on `stream`.
//   1. One read of the keys builds the histograms of all the 8-bit digits (1 to 8) at once.
//   2. A one-block plan kernel turns them into each digit's bin offsets and marks the digit passes
//      it can skip (every key has the same digit there). It decides on the device, so a sort never
//      waits for the host.
//   3. One kernel per remaining digit: a tile ranks its keys by digit in shared memory, learns
//      where its keys of each bin go by decoupled look-back over the per-bin counts of earlier
//      tiles, and writes them out through shared memory in runs: one read and one write per key.
//
// Example:
//   std::vector<float> keys = {3.5f, -1.0f, 0.0f, -0.0f}, sorted(4);
//   std::vector<int> values = {0, 1, 2, 3}, order(4);
//   auto d_keys = DeviceBuffer<float>::from_host(keys.data(), 4);
//   auto d_values = DeviceBuffer<int>::from_host(values.data(), 4);
//   DeviceBuffer<float> d_keys_out(4);
//   DeviceBuffer<int> d_values_out(4);
//   std::size_t bytes = radix_sort_temp_bytes<float, int>(4);   // pairs; <float> alone: keys only
//   DeviceBuffer<char> d_temp(bytes);
//   radix_sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(), 4, d_temp.get(), bytes);
//   d_keys_out.copy_to_host(sorted.data(), 4);
//   d_values_out.copy_to_host(order.data(), 4);
//   if (sorted[0] != -1.0f || sorted[3] != 3.5f || order != std::vector<int>{1, 2, 3, 0}) return 1;
//
// Values in may be any random-access iterator the device can read (Thrust's counting, transform and
// constant iterators), its items converted to the values output's type. The first digit pass reads
// item i where it reads key i, so an argsort (a counting iterator as values) fills no index array
// first. Values in an array of the output's type (a pointer, a thrust::device_ptr) keep the array
// kernels. The storage is the same: radix_sort_temp_bytes<Key, Value> with Value the output's type.
//
// Example:
//   std::vector<int> keys = {30, -7, 30, 5}, sorted(4), order(4);
//   auto d_keys = DeviceBuffer<int>::from_host(keys.data(), 4);
//   DeviceBuffer<int> d_keys_out(4), d_order(4);
//   std::size_t bytes = radix_sort_temp_bytes<int, int>(4);
//   DeviceBuffer<char> d_temp(bytes);
//   radix_sort_pairs(d_keys.get(), d_keys_out.get(), thrust::counting_iterator<int>(0), d_order.get(), 4,
//                    d_temp.get(), bytes);   // d_order: where each sorted key was
//   d_keys_out.copy_to_host(sorted.data(), 4);
//   d_order.copy_to_host(order.data(), 4);
//   if (sorted != std::vector<int>{-7, 5, 30, 30} || order != std::vector<int>{1, 3, 0, 2}) return 1;
//
// Keys alone, with caller-provided storage or allocating its own:
//   radix_sort_keys(d_keys_in, d_keys_out, n, d_temp, radix_sort_temp_bytes<int>(n), stream);
//   radix_sort_keys(d_keys_in, d_keys_out, n, stream);
//
// Descending, or on part of each key (a bit range), with a RadixSortOrder (support/radix_sort_order.h)
// after the temporary storage:
//   radix_sort_keys(d_keys_in, d_keys_out, n, d_temp, bytes, RadixSortOrder{true}, stream);        // descending
//   radix_sort_pairs(d_k, d_k_out, d_v, d_v_out, n, d_temp, bytes, RadixSortOrder{false, 0, 16});  // low 16 bits
//
// Order: ascending and stable (equal keys keep their input order, and so do their values).
//   signed integers: two's complement order. unsigned: numeric order.
//   __half, __nv_bfloat16, float and double: -inf < negatives < -0.0 == +0.0 < positives < +inf; -0.0
//   and +0.0 are equal keys (they keep their input order, and their bits). NaNs sort by their bits:
//   with the sign bit clear after +inf, with it set before -inf. 16-bit keys are compared as their
//   own bits (two digit passes), never converted.
// Values: any trivially copyable type of 1, 2, 4 or 8 bytes (int, float, std::int64_t, __half, ...).
// The outputs must not overlap the inputs (nor what an iterator of values reads). Temporary storage
// (a copy of the keys and values, and 4 KiB of look-back status per tile) may hold anything; its
// size depends on the radix block size (Tuning::radix), so query it with the environment the sort
// runs with. Calls that share it must be ordered (one stream). Errors: std::invalid_argument for bad
// arguments (before any work is enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/radix_sort/dispatch.cuh>
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/radix_sort_order.h>
#include <thrust/iterator/counting_iterator.h>  // an argsort's values (above)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>

namespace StreamCompaction {

// Bytes of temporary storage a sort of n keys (and values of type Value: the values output's, from
// any input) needs at the environment's radix block size.
template <class Key, class Value = KeysOnly>
std::size_t radix_sort_temp_bytes(std::size_t n, const CallEnvironment &env = {}) {
    return detail::radix_temp_bytes<Key, Value>(n, detail::kRadixMaxPortionKeys, env.tuning);
}

namespace detail {
// The kernels' form of a RadixSortOrder for Key: the compared bits, flipped when descending.
template <class Key>
RadixOrder<Key> radix_order(const RadixSortOrder &order, const char *name) {
    const auto mask = static_cast<radix_bits_t<Key>>(radix_compared_bits(order, name, int(sizeof(Key)) * 8));
    return {mask, order.descending ? mask : radix_bits_t<Key>{0}};
}
}  // namespace detail

template <class Key>
void radix_sort_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                     RadixSortOrder order, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("radix_sort_keys");
    const auto compared = detail::radix_order<Key>(order, "radix_sort_keys");
    detail::radix_sort<Key, KeysOnly>("radix_sort_keys", d_keys_in, d_keys_out, nullptr, nullptr, n, d_temp,
                                      temp_bytes, env, detail::kRadixMaxPortionKeys, compared);
}

template <class Key>
void radix_sort_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                     const CallEnvironment &env = {}) {
    radix_sort_keys(d_keys_in, d_keys_out, n, d_temp, temp_bytes, RadixSortOrder{}, env);
}

namespace detail {
// A pair sort's values as the dispatch takes them. Value's in an array (a pointer, or a
// thrust::device_ptr or another contiguous iterator unwrapped to one): their bits, today's kernels.
// Any other input (a counting or transform iterator, a pointer to another type): a
// RadixIteratorValues, read and converted to Value in the first pass. A null pointer stays a null
// pointer, which the checks refuse.
template <class Value, class ValuesIn>
auto radix_values_input(ValuesIn d_values_in) {
    using Bits = radix_value_bits_t<Value>;
    if constexpr (std::is_null_pointer_v<ValuesIn>) {
        return static_cast<const Bits *>(nullptr);
    } else {
        using Values = unwrapped_input_t<ValuesIn>;
        const Values values = unwrap_input(d_values_in);
        if constexpr (std::is_pointer_v<Values> &&
                      std::is_same_v<std::remove_cv_t<std::remove_pointer_t<Values>>, Value>) {
            return reinterpret_cast<const Bits *>(values);
        } else {
            static_assert(std::is_constructible_v<Value, typename std::iterator_traits<Values>::reference>,
                          "radix_sort_pairs: the values input's items must convert to the values output's type");
            return RadixIteratorValues<Values, Value, Bits>{values};
        }
    }
}
}  // namespace detail

// Values only travel with their keys, so they move as raw bits: one kernel per value size. Value is
// the output's type; d_values_in a pointer to Value's, a thrust::device_ptr, or any random-access
// iterator the device can read whose items convert to Value (a counting iterator: an argsort).
template <class Key, class Value, class ValuesIn>
void radix_sort_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                      void *d_temp, std::size_t temp_bytes, RadixSortOrder order, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("radix_sort_pairs");
    using Bits = detail::radix_value_bits_t<Value>;
    const auto compared = detail::radix_order<Key>(order, "radix_sort_pairs");
    const auto values_in = detail::radix_values_input<Value>(d_values_in);
    detail::radix_sort<Key, Bits>("radix_sort_pairs", d_keys_in, d_keys_out, values_in,
                                  reinterpret_cast<Bits *>(d_values_out), n, d_temp, temp_bytes, env,
                                  detail::kRadixMaxPortionKeys, compared);
}

template <class Key, class Value, class ValuesIn>
void radix_sort_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                      void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    radix_sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_temp, temp_bytes, RadixSortOrder{},
                     env);
}

template <class Key>
void radix_sort_keys(const Key *d_keys_in, Key *d_keys_out, std::size_t n, const CallEnvironment &env = {}) {
    require_device_pointers("radix_sort_keys", n, d_keys_in, d_keys_out);
    if (n == 0) return;
    const std::size_t bytes = radix_sort_temp_bytes<Key>(n, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        radix_sort_keys(d_keys_in, d_keys_out, n, d_temp, bytes, env);
    });
}

template <class Key, class Value, class ValuesIn>
void radix_sort_pairs(const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out, std::size_t n,
                      const CallEnvironment &env = {}) {
    detail::require_radix_arguments("radix_sort_pairs", d_keys_in, d_keys_out,
                                    detail::radix_values_input<Value>(d_values_in),
                                    reinterpret_cast<const detail::radix_value_bits_t<Value> *>(d_values_out), n);
    if (n == 0) return;
    const std::size_t bytes = radix_sort_temp_bytes<Key, Value>(n, env);
    detail::with_temp_storage(bytes, env, [&](void *d_temp) {
        radix_sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_temp, bytes, env);
    });
}

}  // namespace StreamCompaction
