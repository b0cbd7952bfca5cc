#pragma once
// Segmented reduction on the device: one result per segment of CSR offsets (empty segments
// included), by merge path or, for long segments, over tiles of items (SegmentedReduceAlgorithm).
//
// Example:
//   std::vector<float> values = {1, 2, 3, 4, 5}, sums(3);
//   std::vector<int> offsets = {0, 3, 3, 5};                    // segments [1 2 3] [] [4 5]
//   auto d_values = DeviceBuffer<float>::from_host(values.data(), 5);
//   auto d_offsets = DeviceBuffer<int>::from_host(offsets.data(), 4);
//   DeviceBuffer<float> d_sums(3);
//   std::size_t bytes = segmented_reduce_temp_bytes<float>(5, 3);
//   DeviceBuffer<char> d_temp(bytes);
//   segmented_reduce(d_values.get(), 5, d_offsets.get(), 3, d_sums.get(), Sum{}, 0.0f, d_temp.get(), bytes);
//   d_sums.copy_to_host(sums.data(), 3);
//   if (sums != std::vector<float>{6, 0, 9}) return 1;         // an empty segment gets the identity
//
// transform_segmented_reduce: the same on the load-balancing search (device/load_balance.cuh), each
// item's value made by f(index, segment, rank) where it is combined (a per-item functor that needs
// the item's segment, or that computes rather than loads: SpMV's products, a pair's distance), and
// an engine independent of segmented_reduce's, which each cross-checks.
//
// Errors: std::invalid_argument for bad arguments, cuda_error from CUDA.
#include <stream_compaction/detail/by_key/run_functors.cuh>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/segmented_reduce/dispatch.cuh>
#include <stream_compaction/detail/segmented_reduce/load_balanced.cuh>
#include <stream_compaction/detail/segmented_scan/kernels.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {

// The engines of segmented_reduce. Merge path gives every thread an equal share of values and
// segment ends, so its time does not depend on how the values are spread; tiles of items give
// every thread an equal share of values, read straight into registers, and find the segment ends
// among them: faster when segments are long, slower when they are short. Auto takes tiles of
// items from a mean segment length (n / segments) of kItemTileMinMeanLength (and up to 2^31 - 1
// segments, their limit).
enum class SegmentedReduceAlgorithm { Auto, MergePath, ItemTiles };

// "auto", "merge-path", "item-tiles"
inline const char *segmented_reduce_algorithm_name(SegmentedReduceAlgorithm algorithm) {
    switch (algorithm) {
    case SegmentedReduceAlgorithm::Auto: return "auto";
    case SegmentedReduceAlgorithm::MergePath: return "merge-path";
    case SegmentedReduceAlgorithm::ItemTiles: return "item-tiles";
    }
    return "unknown";
}

// The engine a call with `algorithm` runs on n values in `segments` segments, when its values and
// results are arrays of the identity's type and it is not a 16-bit sum; any other call runs merge
// path (the overload below tells from the call's arguments).
inline SegmentedReduceAlgorithm segmented_reduce_engine(std::size_t n, std::size_t segments,
                                                        SegmentedReduceAlgorithm algorithm) {
    if (algorithm != SegmentedReduceAlgorithm::Auto) return algorithm;
    return segments > 0 && segments <= static_cast<std::size_t>(INT_MAX) &&
                   static_cast<double>(n) >= kItemTileMinMeanLength * static_cast<double>(segments)
               ? SegmentedReduceAlgorithm::ItemTiles
               : SegmentedReduceAlgorithm::MergePath;
}

namespace detail {
// Whether tiles of items take a call of these (unwrapped) types: they read V's straight from an
// array and write them to one; a 16-bit sum accumulates in float on merge path.
template <class Values, class Out, class V, class Op>
constexpr bool item_tiles_take_v = std::is_pointer_v<Values> &&
                                   std::is_same_v<std::remove_cv_t<std::remove_pointer_t<Values>>, V> &&
                                   std::is_pointer_v<Out> && !sums_in_float_v<V, Op>;
}  // namespace detail

// The engine segmented_reduce(d_values, n, d_offsets, segments, d_out, op, identity, ..., algorithm)
// runs: the one above where tiles of items take the arguments' types, else merge path.
template <class ValuesInput, class Output, class Op, class V>
SegmentedReduceAlgorithm segmented_reduce_engine(const ValuesInput &d_values, const Output &d_out, const Op &,
                                                 const V &, std::size_t n, std::size_t segments,
                                                 SegmentedReduceAlgorithm algorithm) {
    using Values = decltype(detail::unwrap_input(d_values));
    using Out = decltype(detail::unwrap_input(d_out));
    if constexpr (detail::item_tiles_take_v<Values, Out, V, Op>) return segmented_reduce_engine(n, segments, algorithm);
    else return SegmentedReduceAlgorithm::MergePath;
}

// Enough for either engine; for 16-bit floats, also for their sums in float.
template <class V>
std::size_t segmented_reduce_temp_bytes(std::size_t n, std::size_t segments, const CallEnvironment & = {}) {
    const std::size_t bytes =
        std::max(detail::merge_path_temp_bytes<V>(n, segments), detail::item_tile_layout<V>(n).bytes());
    if constexpr (is_half_precision_v<V>) return std::max(bytes, detail::merge_path_temp_bytes<float>(n, segments));
    else return bytes;
}

// d_out[s] = the values of segment s combined in order, `identity` for an empty segment (op(identity,
// x) must be x). n must equal offsets[segments]. One launch, on the engine `algorithm` picks (above).
// The values come from a pointer, a thrust::device_ptr, or any random-access iterator the device can
// read (Thrust's counting or transform iterators: values computed on the fly, converted to V). The
// results are V's, the identity's type (the accumulator's, as CUB's initial value is), written to an
// array of V (a pointer, a thrust::device_ptr) or through any random-access output iterator that
// takes a V (a transform output iterator, a discard iterator); an array of another type is refused
// at compile time (a 0 that meant 0.0 would sum doubles as ints), so it takes them through an
// iterator. Values that are not V's in an array, and results that are not an array of V, take the
// merge-path engine, an item at a time. Sums into __half or __nv_bfloat16 accumulate in float
// (support/half_precision.cuh), on the merge-path engine, each segment's total rounded once.
template <class ValuesInput, class Output, class Offset, class Op, class V>
void segmented_reduce(ValuesInput d_values, std::size_t n, const Offset *d_offsets, std::size_t segments,
                      Output d_out, Op op, V identity, void *d_temp, std::size_t temp_bytes,
                      const CallEnvironment &env = {},
                      SegmentedReduceAlgorithm algorithm = SegmentedReduceAlgorithm::Auto) {
    SC_NVTX_RANGE("segmented_reduce");
    const char *name = "segmented_reduce";
    const auto values = detail::unwrap_input(d_values);
    const auto out = detail::unwrap_input(d_out);
    using Values = decltype(values);
    using Out = std::remove_const_t<decltype(out)>;
    if constexpr (std::is_pointer_v<Out>)
        static_assert(std::is_same_v<std::remove_cv_t<std::remove_pointer_t<Out>>, V>,
                      "segmented_reduce: the results are of the identity's type (the accumulator's); pass the "
                      "identity as the output array's type, or write another type through an output iterator");
    require_device_input(name, n, values, "values");
    require_device_input(name, segments, d_offsets, "offsets");
    require_device_input(name, segments, out, "output");
    if constexpr (sums_in_float_v<V, Op>) {
        detail::merge_path_reduce(name, d_offsets, segments, n, detail::WidenedLoad<Values>{values},
                                  detail::NarrowedStore<V, Out>{out}, Sum{}, detail::to_float(identity), d_temp,
                                  temp_bytes, env);
    } else {
        if constexpr (detail::item_tiles_take_v<Values, Out, V, Op>) {
            if (segmented_reduce_engine(n, segments, algorithm) == SegmentedReduceAlgorithm::ItemTiles) {
                detail::item_tile_reduce(name, values, n, d_offsets, segments, out, op, identity, d_temp, temp_bytes,
                                         env.stream);
                return;
            }
        }
        detail::merge_path_reduce(name, d_offsets, segments, n, detail::InputLoad<Values, V>{values},
                                  detail::OutputStore<Out>{out}, op, identity, d_temp, temp_bytes, env);
    }
}

namespace detail {

// Storage: two records per block of the load-balancing search (segment, partial), reduce_by_key's
// runs of them (segment, total, count) and its own storage.
template <class V>
TempLayout<6> transform_segmented_reduce_layout(std::size_t n_items, std::size_t segments) {
    const std::size_t tiles = (n_items + segments + kLbsReduceTileSteps - 1) / kLbsReduceTileSteps;
    const std::size_t records = 2 * ((tiles + kLbsTilesPerBlock - 1) / kLbsTilesPerBlock);
    return temp_layout(records * sizeof(long long), records * sizeof(MaybeValue<V>), records * sizeof(long long),
                       records * sizeof(MaybeValue<V>), sizeof(std::size_t),
                       reduce_by_key_temp_bytes<long long, MaybeValue<V>>(records));
}

}  // namespace detail

template <class V>
std::size_t transform_segmented_reduce_temp_bytes(std::size_t n_items, std::size_t segments,
                                                  const CallEnvironment & = {}) {
    return detail::transform_segmented_reduce_layout<V>(n_items, segments).bytes();
}

// d_out[s] = f's values of segment s's items combined in order, op(op(f(b), f(b + 1)), ...) for the
// items b, b + 1, ... of s; `identity` for an empty segment (any associative op: identity is only
// written, never combined). f(index, segment, rank) -> V is a device functor taken by value, called
// once per item. Offsets as transform_lbs's (not checked on the device: check_segment_offsets).
// Three launches (the search with the in-block totals, reduce_by_key of the segments that cross
// blocks, their scatter) and no wait: safe to capture in a CUDA graph and replay.
template <class V, class Offset, class F, class Op>
void transform_segmented_reduce(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments, V *d_out,
                                Op op, V identity, void *d_temp, std::size_t temp_bytes,
                                const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_segmented_reduce");
    const char *name = "transform_segmented_reduce";
    if (n_items > 0 && segments == 0)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n_items) + " items and no segment to hold them");
    require_device_pointers(name, segments, d_offsets, d_out);
    const auto layout = detail::transform_segmented_reduce_layout<V>(n_items, segments);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    if (segments == 0) return;
    const auto pieces = layout.carve(d_temp);
    using Maybe = detail::MaybeValue<V>;
    auto *record_segments = reinterpret_cast<long long *>(pieces[0]), *run_segments = reinterpret_cast<long long *>(pieces[2]);
    auto *records = reinterpret_cast<Maybe *>(pieces[1]), *totals = reinterpret_cast<Maybe *>(pieces[3]);
    auto *runs = reinterpret_cast<std::size_t *>(pieces[4]);
    const std::size_t tiles = (n_items + segments + detail::kLbsReduceTileSteps - 1) / detail::kLbsReduceTileSteps;
    const unsigned blocks = blocks_for(tiles, kLbsTilesPerBlock);
    detail::launch(detail::transform_segmented_reduce_kernel<V, Offset, F, Op>, name, blocks, kLbsThreads, 0,
                   env.stream, d_offsets, static_cast<long long>(segments), static_cast<long long>(n_items), f, op,
                   identity, d_out, record_segments, records);
    const std::size_t record_count = 2 * static_cast<std::size_t>(blocks);
    reduce_by_key(record_segments, records, run_segments, totals, runs, record_count, detail::MaybeOp<Op>{op},
                  EqualTo{}, pieces[5], reduce_by_key_temp_bytes<long long, Maybe>(record_count), env);
    constexpr int kThreads = 256;
    detail::launch(detail::scatter_segment_totals<V>, "scatter_segment_totals", std::min(blocks_for(2 * blocks, kThreads), 1024u),
                   kThreads, 0, env.stream, run_segments, totals, runs, d_out);
}

}  // namespace StreamCompaction
