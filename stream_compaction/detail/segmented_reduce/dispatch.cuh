#pragma once
// Segmented reduction's dispatch: for merge path, its tiles, block size, temporary storage, plans
// and launch; for tiles of items (long segments), its tiles, storage and launch.
#include <stream_compaction/detail/host/call_tag.h>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/segmented_reduce/item_tile_reduce.cuh>
#include <stream_compaction/detail/segmented_reduce/merge_path_reduce.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

inline std::size_t merge_path_tiles(std::size_t n, std::size_t segments, int threads) {
    const std::size_t tile_items = static_cast<std::size_t>(threads) * kMergePathItemsPerThread;
    return (segments + n + tile_items - 1) / tile_items;
}

// The block size: the call's (Tuning::segmented), halved until the staging fits in the device's
// shared memory (1024 threads need 184 KB for 8-byte values).
template <class V>
int merge_path_threads(const Tuning &tuning) {
    int device = 0, limit = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    int threads = segmented_threads(tuning);
    const std::size_t static_bytes = sizeof(TileScanStorage<SegmentedPair<V>, 1>) + 64;
    while (threads > kWarpThreads && merge_path_staging_bytes<V>(threads) + static_bytes > static_cast<std::size_t>(limit))
        threads /= 2;
    return threads;
}

// Storage: the call state, then the tile status words (and the fixed-order look-back's group and
// span words, for floating-point values), sized for the smallest block size.
template <class V>
TempLayout<2> merge_path_layout(std::size_t n, std::size_t segments) {
    using Pair = SegmentedPair<V>;
    return temp_layout(sizeof(CallState),
                       TileStatus<Pair>::bytes(scan_status_words<Pair>(merge_path_tiles(n, segments, kWarpThreads))));
}

template <class V>
std::size_t merge_path_temp_bytes(std::size_t n, std::size_t segments) {
    return merge_path_layout<V>(n, segments).bytes();
}

template <class V, class Offset, class Corners, class Load, class Store, class Op>
void launch_merge_path_reduce(int threads, const Offset *d_offsets, std::size_t segments, std::size_t n,
                              Corners corners, Load load, Store store, Op op, V identity, void *d_temp,
                              cudaStream_t stream) {
    const std::size_t tiles = merge_path_tiles(n, segments, threads);
    const auto pieces = merge_path_layout<V>(n, segments).carve(d_temp);
    const auto kernel = merge_path_reduce_kernel<V, Offset, Corners, Load, Store, Op>;
    const char *name = "merge_path_reduce_kernel";
    const std::size_t staging_bytes = merge_path_staging_bytes<V>(threads);
    const LookBackDelay delay =
        look_back_delay_for(kernel, name, kMergePathLookBackDelay, tiles, threads, staging_bytes);
    launch(kernel, name, blocks_for(tiles, 1), threads, staging_bytes, stream, d_offsets,
           static_cast<long long>(segments), static_cast<long long>(n), corners, load, store, op, identity, pieces[1],
           tiles, reinterpret_cast<CallState *>(pieces[0]), next_call_tag(), delay);
}

// The reduction with corners searched by each block: offsets may change from call to call.
template <class V, class Offset, class Load, class Store, class Op>
void merge_path_reduce(const char *name, const Offset *d_offsets, std::size_t segments, std::size_t n, Load load,
                       Store store, Op op, V identity, void *d_temp, std::size_t temp_bytes,
                       const CallEnvironment &env) {
    if (segments == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, merge_path_temp_bytes<V>(n, segments));
    launch_merge_path_reduce(merge_path_threads<V>(env.tuning), d_offsets, segments, n,
                             SearchedCorners<Offset>{d_offsets}, load, store, op, identity, d_temp, env.stream);
}

// ---- plans: corners computed once, for offsets that stay as they are ----

// Corners for tiles of `threads` threads: corners[t] for t in [0, tiles].
struct MergePathPlan {
    const long long *corners;
    int threads;
};

// Room for the plan of any block size.
inline std::size_t merge_path_plan_entries(std::size_t n, std::size_t segments) {
    return merge_path_tiles(n, segments, kWarpThreads) + 1;
}

// Fills d_corners (merge_path_plan_entries(n, segments) entries) for the environment's block size
// and waits for it, so that the plan is ready for calls on any stream.
template <class V, class Offset>
MergePathPlan make_merge_path_plan(const Offset *d_offsets, std::size_t segments, std::size_t n,
                                   long long *d_corners, const CallEnvironment &env) {
    const int threads = merge_path_threads<V>(env.tuning);
    const cudaStream_t stream = env.stream;
    const long long entries = static_cast<long long>(merge_path_tiles(n, segments, threads)) + 1;
    constexpr int kPlanThreads = 256;
    launch(merge_path_plan_kernel<Offset>, "merge_path_plan_kernel",
           blocks_for(static_cast<std::size_t>(entries) * kWarpThreads, kPlanThreads), kPlanThreads, 0, stream,
           d_offsets, static_cast<long long>(segments), static_cast<long long>(n),
           static_cast<long long>(threads) * kMergePathItemsPerThread, entries, d_corners);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return {d_corners, threads};
}

// The reduction with the plan's corners (made for these offsets and the plan's block size).
template <class V, class Offset, class Load, class Store, class Op>
void merge_path_reduce_planned(const char *name, const MergePathPlan &plan, const Offset *d_offsets,
                               std::size_t segments, std::size_t n, Load load, Store store, Op op, V identity,
                               void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    if (segments == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, merge_path_temp_bytes<V>(n, segments));
    launch_merge_path_reduce(plan.threads, d_offsets, segments, n, PlannedCorners{plan.corners}, load, store, op,
                             identity, d_temp, stream);
}

// ---- tiles of items ----

template <class V>
std::size_t item_tile_count(std::size_t n) {
    const std::size_t tile_items = static_cast<std::size_t>(item_tile_items<V>());
    return n == 0 ? 1 : (n + tile_items - 1) / tile_items;  // with no values, one tile writes the empty segments
}

// Storage: the call state, then the tile status words (as merge path's).
template <class V>
TempLayout<2> item_tile_layout(std::size_t n) {
    using Pair = SegmentedPair<V>;
    return temp_layout(sizeof(CallState), TileStatus<Pair>::bytes(scan_status_words<Pair>(item_tile_count<V>(n))));
}

template <class V, class Offset, class Op>
void item_tile_reduce(const char *name, const V *d_values, std::size_t n, const Offset *d_offsets,
                      std::size_t segments, V *d_out, Op op, V identity, void *d_temp, std::size_t temp_bytes,
                      cudaStream_t stream) {
    if (segments > static_cast<std::size_t>(INT_MAX))  // a tile counts the segments that end in it in an int
        throw std::invalid_argument(std::string(name) + ": tiles of items take at most 2^31 - 1 segments, got " +
                                    std::to_string(segments) + " (merge path takes any number)");
    if (segments == 0) return;
    const auto layout = item_tile_layout<V>(n);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    const std::size_t tiles = item_tile_count<V>(n);
    const auto pieces = layout.carve(d_temp);
    const auto kernel = item_tile_reduce_kernel<V, Offset, Op>;
    const char *kernel_name = "item_tile_reduce_kernel";
    const LookBackDelay delay =
        look_back_delay_for(kernel, kernel_name, kTileLookBackDelay, tiles, kItemTileThreads, 0);
    const bool vectorized = aligned_to(d_values, vector_alignment<V, vector_items<V>()>());
    launch(kernel, kernel_name, blocks_for(tiles, 1), kItemTileThreads, 0, stream, d_values, static_cast<long long>(n),
           d_offsets, static_cast<long long>(segments), d_out, op, identity, vectorized, pieces[1], tiles,
           reinterpret_cast<CallState *>(pieces[0]), next_call_tag(), delay);
}

}  // namespace detail
}  // namespace StreamCompaction
