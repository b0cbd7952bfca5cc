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
//       depends on the total count of trues, so stable_partition first counts them (one extra
//       read of the input, and a second launch).
//   partition(d_in, d_out, d_true_count, n, pred, d_temp, bytes, stream);
//       CUB's DevicePartition::If contract: trues in order from the front, falses from the back,
//       so in reverse order (the i-th false of the input lands at d_out[n - 1 - i]). One pass.
// Counts are std::size_t in device memory. d_out must not overlap d_in.
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
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>

namespace StreamCompaction {
template <class T>
std::size_t select_temp_bytes(std::size_t n) {
    return detail::select_temp_bytes_for<T>(n);
}

template <class T, class Pred>
void select_if(const T *d_in, T *d_out, std::size_t *d_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("select_if");
    detail::single_pass_select("select_if", d_in, d_out, d_count, n, detail::ByPredicate<Pred>{pred}, d_temp,
                               temp_bytes, stream);
}

template <class T, class Flag>
void select_flagged(const T *d_in, const Flag *d_flags, T *d_out, std::size_t *d_count, std::size_t n, void *d_temp,
                    std::size_t temp_bytes, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("select_flagged");
    require_device_pointers("select_flagged", n, d_flags, d_out);
    detail::single_pass_select("select_flagged", d_in, d_out, d_count, n, detail::ByFlag<Flag>{d_flags}, d_temp,
                               temp_bytes, stream);
}

// Trues in order, then falses in order; *d_true_count = the number of trues. Two launches: a count
// of the trues, then the partition.
template <class T, class Pred>
void stable_partition(const T *d_in, T *d_out, std::size_t *d_true_count, std::size_t n, Pred pred, void *d_temp,
                      std::size_t temp_bytes, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("stable_partition");
    detail::single_pass_stable_partition("stable_partition", d_in, d_out, d_true_count, n,
                                         detail::ByPredicate<Pred>{pred}, d_temp, temp_bytes, stream);
}

// CUB's DevicePartition::If order: d_out[0, k) the trues in order, d_out[k, n) the falses in
// reverse order (the i-th false, counting from 0 in input order, at d_out[n - 1 - i]);
// *d_true_count = k. One launch.
template <class T, class Pred>
void partition(const T *d_in, T *d_out, std::size_t *d_true_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("partition");
    detail::single_pass_partition("partition", d_in, d_out, d_true_count, n, detail::ByPredicate<Pred>{pred}, d_temp,
                                  temp_bytes, stream);
}

}  // namespace StreamCompaction
