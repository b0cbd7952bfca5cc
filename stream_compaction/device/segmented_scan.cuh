#pragma once
// Segmented scans and reductions on the device: one scan, one pass, no launch per segment and no
// key array. A segmented scan is an ordinary scan of (head, value) pairs under the segmented
// operator (a head restarts the running value), run by the single-pass machinery of scan.cuh with
// the pairs built on the fly from the caller's arrays; only values are written.
//
// Segments come either as head flags (flags[i] != 0: element i starts a segment; element 0 always
// does) or as CSR offsets (segment s is [offsets[s], offsets[s + 1]); offsets[0] = 0, ascending,
// offsets[segments] = n; empty segments allowed anywhere).
//
// Example:
//   std::vector<int> values = {1, 2, 3, 4, 5, 6}, flags = {1, 0, 0, 1, 0, 1}, out(6);
//   auto d_values = DeviceBuffer<int>::from_host(values.data(), 6);
//   auto d_flags = DeviceBuffer<int>::from_host(flags.data(), 6);
//   DeviceBuffer<int> d_out(6);
//   std::size_t bytes = segmented_scan_temp_bytes<int>(6);      // every scan of 6 ints, any form
//   DeviceBuffer<char> d_temp(bytes);
//   segmented_inclusive_scan(d_values.get(), d_flags.get(), d_out.get(), 6, Sum{}, d_temp.get(), bytes);
//   d_out.copy_to_host(out.data(), 6);
//   if (out != std::vector<int>{1, 3, 6, 4, 9, 6}) return 1;   // segments [1 2 3] [4 5] [6]
//
// The other forms and the conversions between segment descriptions:
//   segmented_exclusive_scan(d_values, d_flags, d_out, n, Sum{}, 0, d_temp, bytes, env);
//   segmented_exclusive_scan_by_offsets(d_values, n, d_offsets, segments, d_out, Max{}, -INFINITY,
//                                       d_temp, bytes);
//   make_flags(d_shape, segments, d_flags, n, d_temp, make_flags_temp_bytes(segments));
//   offsets_to_flags(d_offsets, segments, d_flags, n);
//   flags_to_offsets(d_flags, n, d_offsets, d_segments, d_temp, flags_to_offsets_temp_bytes(n));
//
// Any associative operator, commutative or not; values of any trivially copyable type. Every scan
// may run in place (d_out == d_values). Offsets that break the rules above give wrong results but
// never an access out of bounds. Errors: std::invalid_argument for bad arguments, cuda_error from
// CUDA.
//
// The scans' values, flags and offsets may be iterators, and their output an output iterator
// (below: Thrust's counting and transform iterators in, a transform output iterator, a discard
// iterator or a pointer to a wider type out); pointers and thrust::device_ptr's keep the vector
// loads and stores, other iterators go an item at a time. The same temporary storage serves both.
#include <stream_compaction/detail/segmented_scan/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>
#include <cstdint>
#include <string>

namespace StreamCompaction {

// ---- segmented scans ----

// Temporary storage of every segmented scan of n values of type V, by flags or by offsets, whatever
// the values, flags, offsets and output are (pointers or iterators).
template <class V>
std::size_t segmented_scan_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::segmented_scan_temp_bytes_for<V>(n);
}

// V is the values' value type, what the scan combines (and what segmented_scan_temp_bytes<V>
// takes). d_values and d_flags are pointers, thrust::device_ptr's or any random-access iterators the
// device can read (Thrust's counting, constant and transform iterators, ...); d_out a pointer or any
// random-access output iterator that takes a V (a discard or transform output iterator, a pointer to
// another type V converts to). Pointers and device_ptr's keep the vector loads and stores; other
// iterators are read or written an item at a time, in the same kernel. The same for every scan below
// and for its offsets. In place (d_out == d_values) as before, for pointers.
template <class Input, class Flags, class Output, class Op>
void segmented_inclusive_scan(Input d_values, Flags d_flags, Output d_out, std::size_t n, Op op, void *d_temp,
                              std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_inclusive_scan");
    using V = detail::input_value_t<Input>;
    detail::scan_by_flags<V>("segmented_inclusive_scan", false, detail::read_only_input(d_values),
                             detail::read_only_input(d_flags), detail::unwrap_input(d_out), n, op, V{}, d_temp,
                             temp_bytes, env);
}

// Each segment starts from `init`: out[i] = init op (the segment's values before i).
template <class Input, class Flags, class Output, class Op>
void segmented_exclusive_scan(Input d_values, Flags d_flags, Output d_out, std::size_t n, Op op,
                              detail::input_value_t<Input> init, void *d_temp, std::size_t temp_bytes,
                              const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_exclusive_scan");
    using V = detail::input_value_t<Input>;
    detail::scan_by_flags<V>("segmented_exclusive_scan", true, detail::read_only_input(d_values),
                             detail::read_only_input(d_flags), detail::unwrap_input(d_out), n, op, init, d_temp,
                             temp_bytes, env);
}

// By offsets: the head flags are first set in a bitmap in the temporary storage (one thread per
// segment), then the scan reads them from there: two launches and n / 8 bytes, not a flag array.
template <class Input, class Offsets, class Output, class Op>
void segmented_inclusive_scan_by_offsets(Input d_values, std::size_t n, Offsets d_offsets, std::size_t segments,
                                         Output d_out, Op op, void *d_temp, std::size_t temp_bytes,
                                         const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_inclusive_scan_by_offsets");
    using V = detail::input_value_t<Input>;
    detail::scan_by_offsets<V>("segmented_inclusive_scan_by_offsets", false, detail::read_only_input(d_values), n,
                               detail::read_only_input(d_offsets), segments, detail::unwrap_input(d_out), op, V{},
                               d_temp, temp_bytes, env);
}

template <class Input, class Offsets, class Output, class Op>
void segmented_exclusive_scan_by_offsets(Input d_values, std::size_t n, Offsets d_offsets, std::size_t segments,
                                         Output d_out, Op op, detail::input_value_t<Input> init, void *d_temp,
                                         std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_exclusive_scan_by_offsets");
    using V = detail::input_value_t<Input>;
    detail::scan_by_offsets<V>("segmented_exclusive_scan_by_offsets", true, detail::read_only_input(d_values), n,
                               detail::read_only_input(d_offsets), segments, detail::unwrap_input(d_out), op, init,
                               d_temp, temp_bytes, env);
}

// ---- conversions between segment descriptions ----

inline std::size_t make_flags_temp_bytes(std::size_t segments, const CallEnvironment & = {}) {
    return scan_temp_bytes<std::size_t>(segments);
}

// From a shape (segment lengths, zeros allowed) summing to n: flags[i] = 1 where a non-empty segment
// starts, 0 elsewhere. Shape [0,3,1,0,4,2,0] gives flags [1,0,0,1,1,0,0,0,1,0].
template <class Length, class Flag>
void make_flags(const Length *d_shape, std::size_t segments, Flag *d_flags, std::size_t n, void *d_temp,
                std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("make_flags");
    require_device_pointers("make_flags", segments, d_shape, d_shape);
    require_device_pointers("make_flags", n, d_flags, d_flags);
    if (n == 0) return;
    SC_CUDA_CHECK(cudaMemsetAsync(d_flags, 0, n * sizeof(Flag), env.stream));
    if (segments == 0) return;
    require_temp_storage("make_flags", d_temp, temp_bytes, make_flags_temp_bytes(segments));
    transform_inclusive_scan<std::size_t>(segments, detail::ShapeLoad<Length>{d_shape},
                                          detail::FlagSegmentStart<Length, Flag>{d_shape, d_flags, n}, Sum{}, d_temp,
                                          temp_bytes, env);
}

// flags[offsets[s]] = 1 for every non-empty segment s, 0 elsewhere.
template <class Offset, class Flag>
void offsets_to_flags(const Offset *d_offsets, std::size_t segments, Flag *d_flags, std::size_t n,
                      const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("offsets_to_flags");
    require_device_pointers("offsets_to_flags", n, d_offsets, d_flags);
    if (n == 0) return;
    SC_CUDA_CHECK(cudaMemsetAsync(d_flags, 0, n * sizeof(Flag), env.stream));
    if (segments == 0) return;
    constexpr int kThreads = 256;
    detail::launch(detail::flags_from_offsets_kernel<Offset, Flag>, "flags_from_offsets_kernel",
                   blocks_for(segments, kThreads), kThreads, 0, env.stream, d_offsets, segments, d_flags, n);
}

inline std::size_t flags_to_offsets_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return scan_temp_bytes<std::size_t>(n);
}

// The offsets of the segments the flags describe (element 0 always starts one): d_offsets (room for
// n + 1) receives segments + 1 entries, *d_segments (device memory) the count. One launch.
template <class Flag, class Offset>
void flags_to_offsets(const Flag *d_flags, std::size_t n, Offset *d_offsets, std::size_t *d_segments, void *d_temp,
                      std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("flags_to_offsets");
    require_device_pointers("flags_to_offsets", n, d_flags, d_offsets);
    if (d_segments == nullptr) throw std::invalid_argument("flags_to_offsets: null segment count");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_segments, 0, sizeof(std::size_t), env.stream));
        if (d_offsets != nullptr) SC_CUDA_CHECK(cudaMemsetAsync(d_offsets, 0, sizeof(Offset), env.stream));
        return;
    }
    require_temp_storage("flags_to_offsets", d_temp, temp_bytes, flags_to_offsets_temp_bytes(n));
    transform_inclusive_scan<std::size_t>(n, detail::HeadCountLoad<Flag>{d_flags},
                                          detail::OffsetStore<Flag, Offset>{d_flags, d_offsets, d_segments, n}, Sum{},
                                          d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction
