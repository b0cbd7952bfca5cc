#pragma once
// Single-pass compaction and partitions: the predicate is evaluated as the tile is loaded, the
// kept count is scanned by decoupled look-back (scan.cuh's machinery), and the tile's items are
// gathered in shared memory and written out in coalesced runs. No map or scatter launch.
//
// Example:
//   std::vector<int> in = {3, 0, 7, 0, 0, 5}, out(in.size());
//   auto d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
//   DeviceBuffer<int> d_out(in.size());
//   DeviceBuffer<std::size_t> d_count(1);                   // the count lives in device memory
//   std::size_t bytes = select_temp_bytes<int>(in.size());
//   DeviceBuffer<char> d_temp(bytes);
//   select_if(d_in.get(), d_out.get(), d_count.get(), in.size(), NonZero{}, d_temp.get(), bytes);
//   std::size_t count = 0;
//   d_count.copy_to_host(&count, 1);
//   d_out.copy_to_host(out.data(), count);                  // d_out[0, count): kept, in order
//   if (count != 3 || out[0] != 3 || out[1] != 7 || out[2] != 5) return 1;
//
// The same temporary storage (select_temp_bytes<T>(n)) serves the others:
//   select_flagged(d_in, d_flags, d_out, d_count, n, d_temp, bytes, stream);   // kept where flag != 0
//   stable_partition(d_in, d_out, d_true_count, n, pred, d_temp, bytes, stream);
//       trues in order, then falses in order (partition2 of the lecture). The falses' place
//       depends on the total count of trues: a sample of the keep flags chooses between counting
//       them first (an extra read of the input) and putting the falses from the back and turning
//       them round afterwards (when most items are kept and d_out is a pointer to T).
//   partition(d_in, d_out, d_true_count, n, pred, d_temp, bytes, stream);
//       CUB's DevicePartition::If contract: trues in order from the front, falses from the back,
//       so in reverse order (the i-th false of the input lands at d_out[n - 1 - i]). One pass.
// Counts are std::size_t in device memory. d_out must not overlap d_in. Inputs and outputs may be
// iterators (below: Thrust's fancy iterators, discard and transform output iterators).
//
// Example:
//   std::vector<int> keys = {7, 2, 9, 4, 1, 8}, out(keys.size());
//   auto d_keys = DeviceBuffer<int>::from_host(keys.data(), keys.size());
//   DeviceBuffer<int> d_out(keys.size());
//   DeviceBuffer<std::size_t> d_true_count(1);
//   std::size_t bytes = select_temp_bytes<int>(keys.size());
//   DeviceBuffer<char> d_temp(bytes);
//   stable_partition(d_keys.get(), d_out.get(), d_true_count.get(), keys.size(), LessThan<int>{5}, d_temp.get(),
//                    bytes);
//   d_out.copy_to_host(out.data(), out.size());
//   if (out != std::vector<int>{2, 4, 1, 7, 9, 8}) return 1;  // trues in order, then falses in order
//   partition(d_keys.get(), d_out.get(), d_true_count.get(), keys.size(), LessThan<int>{5}, d_temp.get(), bytes);
//   d_out.copy_to_host(out.data(), out.size());
//   if (out != std::vector<int>{2, 4, 1, 8, 9, 7}) return 1;  // trues in order, then falses reversed
//   std::size_t trues = 0;
//   d_true_count.copy_to_host(&trues, 1);
//   if (trues != 3) return 1;
#include <stream_compaction/detail/select/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>

namespace StreamCompaction {
// Sized for every block size and staging, so it holds for any environment.
template <class T>
std::size_t select_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::select_temp_bytes_for<T>(n);
}

// T is the input's value type. d_in is a pointer, a thrust::device_ptr or any random-access
// iterator the device can read (Thrust's counting, transform, zip iterators, ...); d_out a pointer
// or any random-access output iterator that takes a T (a discard or transform output iterator, a
// pointer to another type). Pointers to T keep the vector loads and the staged kernel; other
// iterators take the portable kernel, an item at a time. The same for every call below.
template <class Input, class Output, class Pred>
void select_if(Input d_in, Output d_out, std::size_t *d_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("select_if");
    using T = detail::input_value_t<Input>;
    detail::single_pass_select<T>("select_if", detail::read_only_input(d_in), detail::unwrap_input(d_out), d_count, n,
                                  detail::ByPredicate<Pred>{pred}, d_temp, temp_bytes, env);
}

// Flags from a pointer or any random-access iterator the device can read; kept where flag != 0.
template <class Input, class Flags, class Output>
void select_flagged(Input d_in, Flags d_flags, Output d_out, std::size_t *d_count, std::size_t n, void *d_temp,
                    std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("select_flagged");
    using T = detail::input_value_t<Input>;
    auto flags = detail::unwrap_input(d_flags);
    require_device_input("select_flagged", n, flags, "flags");
    detail::single_pass_select<T>("select_flagged", detail::read_only_input(d_in), detail::unwrap_input(d_out),
                                  d_count, n, detail::ByFlag<decltype(flags)>{flags}, d_temp, temp_bytes, env);
}

// Trues in order, then falses in order; *d_true_count = the number of trues. Four launches: a
// sample of the keep flags, a count of the trues or nothing, the partition, a turning round of the
// falses or nothing (detail/select/dispatch.cuh).
template <class Input, class Output, class Pred>
void stable_partition(Input d_in, Output d_out, std::size_t *d_true_count, std::size_t n, Pred pred, void *d_temp,
                      std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("stable_partition");
    using T = detail::input_value_t<Input>;
    detail::single_pass_stable_partition<T>("stable_partition", detail::read_only_input(d_in),
                                            detail::unwrap_input(d_out), d_true_count, n,
                                            detail::ByPredicate<Pred>{pred}, d_temp, temp_bytes, env);
}

// CUB's DevicePartition::If order: d_out[0, k) the trues in order, d_out[k, n) the falses in
// reverse order (the i-th false, counting from 0 in input order, at d_out[n - 1 - i]);
// *d_true_count = k. One launch.
template <class Input, class Output, class Pred>
void partition(Input d_in, Output d_out, std::size_t *d_true_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("partition");
    using T = detail::input_value_t<Input>;
    detail::single_pass_partition<T>("partition", detail::read_only_input(d_in), detail::unwrap_input(d_out),
                                     d_true_count, n, detail::ByPredicate<Pred>{pred}, d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction
