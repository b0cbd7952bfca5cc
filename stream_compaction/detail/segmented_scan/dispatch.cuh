#pragma once
// Segmented scan dispatch: the head bitmap, temporary storage and the scan launch. Pointers (and what
// unwraps to them) keep the vector loads and stores; other iterators take the same kernel an item at
// a time.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/segmented_scan/kernels.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Whether `access` (an input or output of V's) allows the vector accesses at `alignment`: a pointer
// to V aligned to it, or anything else (iterators and pointers of other types never take them).
template <class V, class Access>
bool vector_aligned(Access access, std::size_t alignment) {
    if constexpr (std::is_same_v<Access, const V *> || std::is_same_v<Access, V *>)
        return aligned_to(access, alignment);
    else
        return true;
}

// Fills the bitmap from the offsets (every word written; none needs zeroing first).
template <class Offsets, class PerSegment = NoSegmentWork>
void build_head_bits(Offsets d_offsets, std::size_t segments, std::size_t n, unsigned *d_bits, cudaStream_t stream,
                     PerSegment per_segment = {}) {
    launch(head_bits_kernel<Offsets, PerSegment>, "head_bits_kernel", head_bits_blocks(n), kHeadBitsThreads, 0,
           stream, d_offsets, segments, n, d_bits, per_segment);
}

// Storage of the offsets-form scans: the bitmap, then the scan's. Neither depends on what the
// values, flags, offsets and output are (pointers or iterators: one kernel, one tile size), so it
// bounds every call of n values of type V.
template <class V>
TempLayout<2> segmented_scan_layout(std::size_t n) {
    return temp_layout(head_bit_words(n) * sizeof(unsigned), single_pass_temp_bytes<SegmentedPair<V>>(n));
}

template <class V>
std::size_t segmented_scan_temp_bytes_for(std::size_t n) {
    return segmented_scan_layout<V>(n).bytes();
}

// `values`: const V * or an iterator of V's (read_only_input); `out`: unwrap_input's.
template <class V, class Values, class Heads, class Output, class Op>
void scan_with_heads(bool exclusive, Values values, Heads heads, Output out, std::size_t n, Op op, V init,
                     void *d_scan_temp, const CallEnvironment &env) {
    using Pair = SegmentedPair<V>;
    const int threads = single_pass_threads(env.tuning);
    const std::size_t tile_items = transform_tile_items_for<Pair>(threads);
    const std::size_t tiles = (n + tile_items - 1) / tile_items;
    const std::size_t alignment = vector_alignment<V, vector_items<Pair>()>();
    const bool vectorized = vector_aligned<V>(values, alignment) && vector_aligned<V>(out, alignment);
    const SinglePassStorage storage = carve_single_pass<Pair>(n, d_scan_temp);
    const auto kernel = exclusive ? segmented_scan_kernel<V, Values, Heads, Output, Op, true>
                                  : segmented_scan_kernel<V, Values, Heads, Output, Op, false>;
    const LookBackDelay delay = look_back_delay_for(kernel, "segmented_scan_kernel", kTileLookBackDelay, tiles,
                                                    threads, 0);
    launch(kernel, "segmented_scan_kernel", blocks_for(tiles, 1), threads, 0, env.stream, values, heads, out, n, op,
           init, vectorized, storage.status, tiles, storage.state, next_call_tag(), delay);
}

// The flags form. `flags`: const Flag * or an iterator (read_only_input).
template <class V, class Values, class Flags, class Output, class Op>
void scan_by_flags(const char *name, bool exclusive, Values values, Flags flags, Output out, std::size_t n, Op op,
                   V init, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    require_device_input(name, n, values, "values");
    require_device_input(name, n, flags, "flags");
    require_device_input(name, n, out, "output");
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, single_pass_temp_bytes<SegmentedPair<V>>(n));
    using Flag = input_value_t<Flags>;
    const bool flags_vectorized =
        vector_aligned<Flag>(flags, vector_alignment<Flag, vector_items<SegmentedPair<V>>()>());
    scan_with_heads(exclusive, values, FlagHeads<Flags>{flags, flags_vectorized}, out, n, op, init, d_temp, env);
}

// The offsets form. `offsets`: const Offset * or an iterator (read_only_input); a null pointer is
// refused even when n == 0, as offsets[0] is always read.
template <class V, class Values, class Offsets, class Output, class Op>
void scan_by_offsets(const char *name, bool exclusive, Values values, std::size_t n, Offsets offsets,
                     std::size_t segments, Output out, Op op, V init, void *d_temp, std::size_t temp_bytes,
                     const CallEnvironment &env) {
    require_device_input(name, n, values, "values");
    require_device_input(name, n, out, "output");
    if constexpr (std::is_pointer_v<Offsets>)
        if (offsets == nullptr) throw std::invalid_argument(std::string(name) + ": null offsets");
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, segmented_scan_temp_bytes_for<V>(n));
    const auto pieces = segmented_scan_layout<V>(n).carve(d_temp);
    unsigned *bits = reinterpret_cast<unsigned *>(pieces[0]);
    build_head_bits(offsets, segments, n, bits, env.stream);
    scan_with_heads(exclusive, values, BitHeads{bits}, out, n, op, init, pieces[1], env);
}

}  // namespace detail
}  // namespace StreamCompaction
