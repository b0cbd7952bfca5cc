#pragma once
// Segmented scan dispatch: the head bitmap, temporary storage and the scan launch.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/segmented_scan/kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace StreamCompaction {
namespace detail {

// Fills the bitmap from the offsets (every word written; none needs zeroing first).
template <class Offset, class PerSegment = NoSegmentWork>
void build_head_bits(const Offset *d_offsets, std::size_t segments, std::size_t n, unsigned *d_bits,
                     cudaStream_t stream, PerSegment per_segment = {}) {
    launch(head_bits_kernel<Offset, PerSegment>, "head_bits_kernel", head_bits_blocks(n), kHeadBitsThreads, 0,
           stream, d_offsets, segments, n, d_bits, per_segment);
}

// Storage of the offsets-form scans: the bitmap, then the scan's.
template <class V>
TempLayout<2> segmented_scan_layout(std::size_t n) {
    return temp_layout(head_bit_words(n) * sizeof(unsigned), single_pass_temp_bytes<SegmentedPair<V>>(n));
}

template <class V>
std::size_t segmented_scan_temp_bytes_for(std::size_t n) {
    return segmented_scan_layout<V>(n).bytes();
}

template <class V, class Heads, class Op>
void scan_with_heads(bool exclusive, const V *d_values, Heads heads, V *d_out, std::size_t n, Op op, V init,
                     void *d_scan_temp, const CallEnvironment &env) {
    using Pair = SegmentedPair<V>;
    const int threads = single_pass_threads(env.tuning);
    const std::size_t tile_items = transform_tile_items_for<Pair>(threads);
    const std::size_t tiles = (n + tile_items - 1) / tile_items;
    const std::size_t alignment = vector_alignment<V, vector_items<Pair>()>();
    const bool vectorized = reinterpret_cast<std::uintptr_t>(d_values) % alignment == 0 &&
                            reinterpret_cast<std::uintptr_t>(d_out) % alignment == 0;
    const SinglePassStorage storage = carve_single_pass<Pair>(n, d_scan_temp);
    const auto kernel = exclusive ? segmented_scan_kernel<V, Heads, Op, true> : segmented_scan_kernel<V, Heads, Op, false>;
    const LookBackDelay delay = look_back_delay_for(kernel, "segmented_scan_kernel", kTileLookBackDelay, tiles,
                                                    threads, 0);
    launch(kernel, "segmented_scan_kernel", blocks_for(tiles, 1), threads, 0, env.stream, d_values, heads, d_out, n, op,
           init, vectorized, storage.status, tiles, storage.state, next_call_tag(), delay);
}

template <class V, class Flag, class Op>
void scan_by_flags(const char *name, bool exclusive, const V *d_values, const Flag *d_flags, V *d_out,
                   std::size_t n, Op op, V init, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    require_device_pointers(name, n, d_values, d_out);
    require_device_pointers(name, n, d_flags, d_out);
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, single_pass_temp_bytes<SegmentedPair<V>>(n));
    const bool flags_vectorized =
        reinterpret_cast<std::uintptr_t>(d_flags) % vector_alignment<Flag, vector_items<SegmentedPair<V>>()>() == 0;
    scan_with_heads(exclusive, d_values, FlagHeads<Flag>{d_flags, flags_vectorized}, d_out, n, op, init, d_temp, env);
}

template <class V, class Offset, class Op>
void scan_by_offsets(const char *name, bool exclusive, const V *d_values, std::size_t n, const Offset *d_offsets,
                     std::size_t segments, V *d_out, Op op, V init, void *d_temp, std::size_t temp_bytes,
                     const CallEnvironment &env) {
    require_device_pointers(name, n, d_values, d_out);
    if (d_offsets == nullptr) throw std::invalid_argument(std::string(name) + ": null offsets");
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, segmented_scan_temp_bytes_for<V>(n));
    const auto pieces = segmented_scan_layout<V>(n).carve(d_temp);
    unsigned *bits = reinterpret_cast<unsigned *>(pieces[0]);
    build_head_bits(d_offsets, segments, n, bits, env.stream);
    scan_with_heads(exclusive, d_values, BitHeads{bits}, d_out, n, op, init, pieces[1], env);
}

}  // namespace detail
}  // namespace StreamCompaction
