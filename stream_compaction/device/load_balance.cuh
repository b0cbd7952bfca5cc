#pragma once
// Load-balancing search and what it builds: work spread evenly over the GPU whatever the segment
// sizes (moderngpu 2.0's design). Segments are CSR offsets: segment s holds the work items
// [offsets[s], offsets[s + 1]); offsets[0] == 0, non-decreasing, offsets[segments] == n_items
// (empty segments allowed, any number in a row). Each tile of the GPU takes an equal share of the
// merge path of items and segment ends, so a huge segment and many empty ones cost the same per
// step.
//   transform_lbs(f, ...)             f(index, segment, rank) for every item (rank: its place in its segment)
//   transform_lbs(f, ..., load)       f(index, segment, rank, value), value = load(segment) fetched once per
//                                     segment a tile touches (shared by the segment's items)
//   transform_lbs_append(f, ..., out, count)
//                                     dynamic work creation: f(index, segment, rank, [value,] emitted)
//                                     returns whether the item makes a new work item, which is
//                                     appended to out (counted and placed in the same pass)
//   load_balancing_search             the segment of every item
//   interval_expand                   each segment's value repeated over its items
//   interval_gather / interval_move   batched copies: segment s copies its items from in + gather[s]
//                                     (to out + offsets[s], or to out + scatter[s])
//
// Example:
//   std::vector<int> offsets = {0, 2, 2, 5}, values = {7, 8, 9}, out(5);   // sizes 2, 0, 3
//   auto d_offsets = DeviceBuffer<int>::from_host(offsets.data(), 4);
//   auto d_values = DeviceBuffer<int>::from_host(values.data(), 3);
//   DeviceBuffer<int> d_out(5);
//   interval_expand(5, d_offsets.get(), 3, d_values.get(), d_out.get());
//   d_out.copy_to_host(out.data(), 5);
//   if (out != std::vector<int>{7, 7, 9, 9, 9}) return 1;
//   load_balancing_search(5, d_offsets.get(), 3, d_out.get());
//   d_out.copy_to_host(out.data(), 5);
//   if (out != std::vector<int>{0, 0, 2, 2, 2}) return 1;
//   check_segment_offsets(d_offsets.get(), 3, 5);            // returns: the offsets are valid
//
// Contracts: f and load are device functors taken by value (f's operator() may be const); f is
// called once per item, in no particular order between items (items of a block in index order,
// a block-wide stride apart, so that f's accesses coalesce). Offset is any integer type; indices,
// segments and ranks reach f as long long. The device calls do not check the offsets (that would
// cost a wait for the device): check_segment_offsets does, and the course unit (load_balance.h)
// calls it; with bad offsets every access stays inside the offsets array but f's arguments are
// unspecified. No temporary storage: every call is one launch, safe to capture in a CUDA graph
// and replay, and to run on several streams at once.
// Errors: std::invalid_argument for null pointers or items without segments (nothing enqueued),
// cuda_error from CUDA.
#include <stream_compaction/detail/load_balance/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {

template <class Offset, class F>
void transform_lbs(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments,
                   const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_lbs");
    detail::launch_transform_lbs("transform_lbs", n_items, d_offsets, segments, detail::NoSegmentValues{}, f,
                                 env.stream);
}

// T: what load(segment) returns (trivially copyable; staged in shared memory, 16 bytes at most).
// Not a CallEnvironment (nor a stream, which converts to one): transform_lbs(f, n, d_offsets,
// segments, stream) is the overload above.
template <class Offset, class F, class Load,
          class = std::enable_if_t<!std::is_convertible_v<Load, const CallEnvironment &>>>
void transform_lbs(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments, Load load,
                   const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_lbs");
    using T = decltype(load(0LL));
    static_assert(sizeof(T) <= 16, "transform_lbs: a segment value is staged per segment in shared memory: 16 bytes at most");
    detail::launch_transform_lbs("transform_lbs", n_items, d_offsets, segments, detail::SegmentValues<T, Load>{load}, f,
                                 env.stream);
}

// Dynamic work creation (moderngpu's lbs_workcreate idea, one new item at most per item): every
// item for which f(index, segment, rank, [value,] T &emitted) returns true appends `emitted` to
// d_out, at d_out[old *d_count] onwards; *d_count (not reset here) grows by the items made. A
// frontier algorithm (device/bfs.cuh) thus never writes its candidates out to compact them
// afterwards. The new items' order is unspecified (a warp's emitting lanes take their places with
// one atomicAdd); d_out must have room for every item that may be made, and *d_count stays below
// 2^32.
template <class Offset, class F, class T>
void transform_lbs_append(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments, T *d_out,
                          unsigned *d_count, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_lbs_append");
    require_device_pointers("transform_lbs_append", n_items, d_out, d_count);
    detail::launch_transform_lbs("transform_lbs_append", n_items, d_offsets, segments, detail::NoSegmentValues{},
                                 detail::AppendEmitted<F, T>{f, d_out, d_count}, env.stream);
}

template <class Offset, class F, class Load, class T>
void transform_lbs_append(F f, std::size_t n_items, const Offset *d_offsets, std::size_t segments, Load load, T *d_out,
                          unsigned *d_count, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_lbs_append");
    using V = decltype(load(0LL));
    static_assert(sizeof(V) <= 16, "transform_lbs_append: a segment value is staged per segment in shared memory: 16 bytes at most");
    require_device_pointers("transform_lbs_append", n_items, d_out, d_count);
    detail::launch_transform_lbs("transform_lbs_append", n_items, d_offsets, segments,
                                 detail::SegmentValues<V, Load>{load}, detail::AppendEmitted<F, T>{f, d_out, d_count},
                                 env.stream);
}

// d_segment_of_item[i] = the segment that holds item i.
template <class Offset, class Index>
void load_balancing_search(std::size_t n_items, const Offset *d_offsets, std::size_t segments, Index *d_segment_of_item,
                           const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("load_balancing_search");
    require_device_pointers("load_balancing_search", n_items, d_offsets, d_segment_of_item);
    if (segments > static_cast<unsigned long long>(std::numeric_limits<Index>::max()))
        throw std::invalid_argument("load_balancing_search: " + std::to_string(segments) +
                                    " segments do not fit the index type");
    detail::launch_transform_lbs("load_balancing_search", n_items, d_offsets, segments, detail::NoSegmentValues{},
                                 detail::WriteSegment<Index>{d_segment_of_item}, env.stream);
}

// d_out[i] = d_values[the segment of item i].
template <class Offset, class T>
void interval_expand(std::size_t n_items, const Offset *d_offsets, std::size_t segments, const T *d_values, T *d_out,
                     const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("interval_expand");
    require_device_pointers("interval_expand", n_items, d_offsets, d_out);
    require_device_pointers("interval_expand", n_items, d_values, d_out);
    static_assert(sizeof(T) <= 16, "interval_expand: values of 16 bytes at most");
    using Load = detail::InputLoad<const T *, T>;
    detail::launch_transform_lbs("interval_expand", n_items, d_offsets, segments,
                                 detail::SegmentValues<T, Load>{Load{d_values}}, detail::WriteValue<T>{d_out},
                                 env.stream);
}

namespace detail {

// Segment s's items copied from d_in + gather[s], to d_out + scatter[s], or, without scatter
// starts, to where the segment's own items are (d_out + offsets[s]).
template <class Offset, class G, class S, class T>
void launch_interval_move(const char *name, std::size_t n_items, const Offset *d_offsets, std::size_t segments,
                          const G *d_gather, const S *d_scatter, const T *d_in, T *d_out, cudaStream_t stream) {
    require_device_pointers(name, n_items, d_offsets, d_out);
    require_device_pointers(name, n_items, d_gather, d_in);
    using Load = LoadGatherScatter<G, S>;
    launch_transform_lbs(name, n_items, d_offsets, segments, SegmentValues<GatherScatter, Load>{Load{d_gather, d_scatter}},
                         MoveItem<T>{d_in, d_out}, stream);
}

}  // namespace detail

// d_out[offsets[s] + r] = d_in[gather[s] + r] for every item r of every segment s.
template <class Offset, class G, class T>
void interval_gather(std::size_t n_items, const Offset *d_offsets, std::size_t segments, const G *d_gather, const T *d_in,
                     T *d_out, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("interval_gather");
    detail::launch_interval_move("interval_gather", n_items, d_offsets, segments, d_gather, static_cast<const G *>(nullptr),
                                 d_in, d_out, env.stream);
}

// d_out[scatter[s] + r] = d_in[gather[s] + r] for every item r of every segment s (the segments'
// destinations must not overlap, nor the output the input).
template <class Offset, class G, class S, class T>
void interval_move(std::size_t n_items, const Offset *d_offsets, std::size_t segments, const G *d_gather,
                   const S *d_scatter, const T *d_in, T *d_out, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("interval_move");
    require_device_pointers("interval_move", n_items, d_scatter, d_scatter);
    detail::launch_interval_move("interval_move", n_items, d_offsets, segments, d_gather, d_scatter, d_in, d_out,
                                 env.stream);
}

// Throws std::invalid_argument naming the first broken rule unless d_offsets[0..segments] are valid
// CSR offsets of n_items items. Waits for the device (refuses a capturing stream).
template <class Offset>
void check_segment_offsets(const Offset *d_offsets, std::size_t segments, std::size_t n_items,
                           const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("check_segment_offsets");
    detail::check_segment_offsets("check_segment_offsets", d_offsets, segments, n_items, env.stream);
}

}  // namespace StreamCompaction
