#pragma once
// Runs of equal consecutive keys, in one pass each: reduce_by_key (one key and one reduced value
// per run), unique and unique_by_key (the first item of each run), run_length_encode (each run's
// item and length). A run's items are found as the tile is loaded (each key against the one
// before), and the run numbers come from the single-pass scan's decoupled look-back (scan.cuh's
// machinery), so there is no flag array, no count pass and one launch per call.
//
// Example:
//   std::vector<int> keys = {1, 1, 2, 2, 2, 3, 1}, values = {1, 2, 3, 4, 5, 6, 7};
//   auto d_keys = DeviceBuffer<int>::from_host(keys.data(), keys.size());
//   auto d_values = DeviceBuffer<int>::from_host(values.data(), values.size());
//   DeviceBuffer<int> d_unique(keys.size()), d_sums(keys.size());
//   DeviceBuffer<std::size_t> d_runs(1);                    // the count lives in device memory
//   std::size_t bytes = reduce_by_key_temp_bytes<int, int>(keys.size());
//   DeviceBuffer<char> d_temp(bytes);
//   reduce_by_key(d_keys.get(), d_values.get(), d_unique.get(), d_sums.get(), d_runs.get(), keys.size(), Sum{},
//                 EqualTo{}, d_temp.get(), bytes);
//   std::size_t runs = 0;
//   d_runs.copy_to_host(&runs, 1);
//   std::vector<int> unique(runs), sums(runs);
//   d_unique.copy_to_host(unique.data(), runs);
//   d_sums.copy_to_host(sums.data(), runs);
//   if (runs != 4 || unique != std::vector<int>{1, 2, 3, 1} || sums != std::vector<int>{3, 12, 6, 7}) return 1;
//
// Example:
//   std::vector<int> in = {5, 5, 5, -1, 8, 8};
//   auto d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
//   DeviceBuffer<int> d_out(in.size()), d_lengths(in.size());
//   DeviceBuffer<std::size_t> d_count(1);
//   std::size_t bytes = unique_temp_bytes<int>(in.size()) + run_length_encode_temp_bytes<int>(in.size());  // either
//   DeviceBuffer<char> d_temp(bytes);
//   unique(d_in.get(), d_out.get(), d_count.get(), in.size(), EqualTo{}, d_temp.get(), bytes);
//   std::size_t count = 0;
//   d_count.copy_to_host(&count, 1);
//   std::vector<int> out(count);
//   d_out.copy_to_host(out.data(), count);
//   if (out != std::vector<int>{5, -1, 8}) return 1;        // the first of each run
//   run_length_encode(d_in.get(), d_out.get(), d_lengths.get(), d_count.get(), in.size(), d_temp.get(), bytes);
//   std::vector<int> lengths(3);
//   d_lengths.copy_to_host(lengths.data(), 3);
//   if (lengths != std::vector<int>{3, 1, 2}) return 1;     // d_out holds {5, -1, 8} again
//
// Contracts (CUB's DeviceReduce::ReduceByKey, DeviceSelect::Unique, DeviceSelect::UniqueByKey and
// DeviceRunLengthEncode::Encode): a run is a maximal stretch of consecutive items whose keys are
// equal under `equal` to their predecessor's; run j's first key goes to d_unique_keys[j], its values
// combined in order, op(op(v0, v1), v2)..., to d_reduced_values[j]; the number of runs to
// *d_num_runs (device memory, std::size_t). Outputs need room for as many runs as there may be (n at
// most); nothing past the last run is written. Any associative op, commutative or not; keys and
// values of any trivially copyable type (keys compared only through `equal`). Outputs must not
// overlap inputs. n = 0 writes a count of 0 and nothing else; n is at most 2^32 - 1 for the by-key
// forms (32-bit run counts); unique takes any n.
//
// Inputs and outputs may be iterators, as CUB's may (select.cuh's rules): keys and values from a
// pointer, a thrust::device_ptr or any random-access iterator the device can read (Thrust's
// counting, constant, transform, zip iterators, ...); unique keys, reduced values and run lengths
// to any random-access output iterator (a discard or transform output iterator, a device_ptr, a
// pointer to a type the item converts to). K and V of the *_temp_bytes queries are then the key
// and value iterators' value types. Keys and values from pointers to their own type, keys to a
// pointer to K and values (lengths) to any pointer keep the vector loads and the staged kernel;
// anything else takes the portable kernel, an item at a time. An output iterator takes each run's
// value as a V (a run's length as an unsigned); a pointer, converted to its item type.
//
// Every call is one launch, safe to capture in a CUDA graph and replay (the look-back's state lives
// in the temporary storage, call_state.cuh), with temporary storage at any alignment.
// Errors: std::invalid_argument for null pointers with n > 0, n too large or temporary storage too
// small (nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/by_key/dispatch.cuh>
#include <stream_compaction/detail/by_key/run_functors.cuh>
#include <stream_compaction/detail/select/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>

namespace StreamCompaction {

// ---- reduce_by_key ----

template <class K, class V>
std::size_t reduce_by_key_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::by_key_temp_bytes_for<K, V>(n);
}

// K and V are the keys' and the values' value types: d_keys and d_values pointers, device_ptrs or
// any random-access iterators the device can read; d_unique_keys any random-access output iterator
// that takes a K, d_reduced_values one that takes a V (header comment: which take the pointer path).
template <class KeysInput, class ValuesInput, class KeysOutput, class ValuesOutput, class Op, class Equal>
void reduce_by_key(KeysInput d_keys, ValuesInput d_values, KeysOutput d_unique_keys, ValuesOutput d_reduced_values,
                   std::size_t *d_num_runs, std::size_t n, Op op, Equal equal, void *d_temp, std::size_t temp_bytes,
                   const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("reduce_by_key");
    using K = detail::input_value_t<KeysInput>;
    using V = detail::input_value_t<ValuesInput>;
    detail::launch_by_key<K>("reduce_by_key", detail::read_only_input(d_keys),
                             detail::value_array<K, V>(detail::read_only_input(d_values), n, "reduce_by_key"),
                             detail::unwrap_input(d_unique_keys), detail::unwrap_input(d_reduced_values), d_num_runs,
                             n, op, equal, d_temp, temp_bytes, env);
}

// ---- unique, unique_by_key ----

// unique shares select_if's machinery and storage.
template <class T>
std::size_t unique_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::select_temp_bytes_for<T>(n);
}

// d_out[0, *d_num_out): the first item of each run of equal items, in order.
// T is the input's value type; d_in and d_out as select_if's (select.cuh): pointers, Thrust's
// device_ptr, or any random-access iterators (the portable kernel, an item at a time).
template <class Input, class Output, class Equal>
void unique(Input d_in, Output d_out, std::size_t *d_num_out, std::size_t n, Equal equal, void *d_temp,
            std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("unique");
    using T = detail::input_value_t<Input>;
    auto in = detail::read_only_input(d_in);
    detail::single_pass_select<T>("unique", in, detail::unwrap_input(d_out), d_num_out, n,
                                  detail::FirstOfRun<T, Equal, decltype(in)>{in, equal}, d_temp, temp_bytes, env);
}

template <class K, class V>
std::size_t unique_by_key_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::by_key_temp_bytes_for<K, V>(n);
}

// The first key of each run of equal keys and the value beside it: reduce_by_key keeping each
// run's first value. Inputs and outputs as reduce_by_key's.
template <class KeysInput, class ValuesInput, class KeysOutput, class ValuesOutput, class Equal>
void unique_by_key(KeysInput d_keys, ValuesInput d_values, KeysOutput d_keys_out, ValuesOutput d_values_out,
                   std::size_t *d_num_out, std::size_t n, Equal equal, void *d_temp, std::size_t temp_bytes,
                   const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("unique_by_key");
    using K = detail::input_value_t<KeysInput>;
    using V = detail::input_value_t<ValuesInput>;
    detail::launch_by_key<K>("unique_by_key", detail::read_only_input(d_keys),
                             detail::value_array<K, V>(detail::read_only_input(d_values), n, "unique_by_key"),
                             detail::unwrap_input(d_keys_out), detail::unwrap_input(d_values_out), d_num_out, n,
                             detail::FirstValue{}, equal, d_temp, temp_bytes, env);
}

// ---- run_length_encode ----

template <class T>
std::size_t run_length_encode_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::by_key_temp_bytes_for<T, unsigned>(n);
}

// Runs of items equal under ==: d_unique_out[j] the first item of run j, d_lengths_out[j] its length
// (a pointer to any integer type that holds it, or any random-access output iterator, which takes
// it as an unsigned), *d_num_runs their number. T is the input's value type; d_in and
// d_unique_out as reduce_by_key's keys. reduce_by_key summing ones that are never stored.
template <class Input, class UniqueOutput, class LengthsOutput>
void run_length_encode(Input d_in, UniqueOutput d_unique_out, LengthsOutput d_lengths_out, std::size_t *d_num_runs,
                       std::size_t n, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("run_length_encode");
    using T = detail::input_value_t<Input>;
    detail::launch_by_key<T>("run_length_encode", detail::read_only_input(d_in), detail::CountOnes{},
                             detail::unwrap_input(d_unique_out), detail::unwrap_input(d_lengths_out), d_num_runs, n,
                             Sum{}, EqualTo{}, d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction
