#pragma once
// The reductions' dispatch: temporary storage, block sizes, grids and the launches of each strategy.
// Arguments are checked by the callers (device/reduce.cuh) before anything here runs.
#include <stream_compaction/detail/grid/cluster_done.cuh>
#include <stream_compaction/detail/grid/last_block.cuh>
#include <stream_compaction/detail/host/call_tag.h>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/reduce/atomics.cuh>
#include <stream_compaction/detail/reduce/chunked_kernels.cuh>
#include <stream_compaction/detail/reduce/folds.cuh>
#include <stream_compaction/detail/reduce/items.cuh>
#include <stream_compaction/detail/reduce/level_kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/support/reduction.h>
#include <stream_compaction/tuning/call_tuning.h>
#include <stream_compaction/tuning/policies.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

inline std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// ---- temporary storage ----

// The most blocks a chunked launch over n items can have, whatever the block size and the device:
// a block has at least 32 threads, each with at least one vector of items, and the grid is capped.
template <class Item>
std::size_t chunked_blocks_bound(std::size_t n) {
    const std::size_t blocks = ceil_div(n, static_cast<std::size_t>(kWarpThreads) * vector_items<Item>());
    return blocks < static_cast<std::size_t>(kReduceMaxBlocks) ? blocks : kReduceMaxBlocks;
}

// Chunked (and the maximum segment sum): the call state, then one partial per block.
template <class Item, class Acc>
TempLayout<2> chunked_layout(std::size_t n) {
    return temp_layout(sizeof(CallState), chunked_blocks_bound<Item>(n) * sizeof(Acc));
}

// Tree and group: the levels after the first ping-pong between the first level's results and the
// second's (the group's sized for the smallest block, 32 threads).
template <class T>
TempLayout<2> level_layout(std::size_t n, ReduceStrategy strategy) {
    const std::size_t shrink = strategy == ReduceStrategy::Tree ? 2 : kWarpThreads;
    return temp_layout(ceil_div(n, shrink) * sizeof(T), ceil_div(n, shrink * shrink) * sizeof(T));
}

// n = 0 needs none (the result is written by one kernel); the atomics strategy never does.
// 16-bit floats: also for their sums in float.
template <class T>
std::size_t reduce_temp_bytes_for(std::size_t n, ReduceStrategy strategy) {
    if (n == 0) return 0;
    switch (strategy) {
    case ReduceStrategy::Tree:
    case ReduceStrategy::Group: return level_layout<T>(n, strategy).bytes();
    case ReduceStrategy::Chunked:
        if constexpr (is_half_precision_v<T>)
            return std::max(chunked_layout<T, T>(n).bytes(), chunked_layout<float, float>(n).bytes());
        return chunked_layout<T, T>(n).bytes();
    case ReduceStrategy::Atomics: return 0;
    }
    return 0;
}

inline std::size_t max_segment_sum_temp_bytes_for(std::size_t n) {
    return n == 0 ? 0 : chunked_layout<int, SegmentTuple>(n).bytes();
}

// ---- argument checks shared by the entry points ----

inline void require_output(const char *name, const void *d_out) {
    if (d_out == nullptr) throw std::invalid_argument(std::string(name) + ": null d_out");
}

template <class T>
void write_value(T *d_out, const T &value, cudaStream_t stream) {
    launch(write_value_kernel<T>, "write_value_kernel", 1, 1, 0, stream, d_out, value);
}

// ---- chunked ----

// How many blocks a striped launch has.
enum class StripedGrid {
    // At most the blocks resident at once (cached per kernel), so that every block runs from the
    // start: the chunked strategy, whose blocks each take a ticket (a round trip to L2 that holds
    // the block) before the last one combines their partials.
    Resident,
    // A block a tile: the atomics strategy, whose blocks end with an atomic they do not wait for,
    // so that blocks retire as soon as their loads are in and new ones keep the loads flowing
    // (H100, 2026-11-26, 2^28 int sum: 1.015-1.028x CUB's time, against 0.997-1.004x for the
    // resident grid; docs/performance/reduce.md, "Ahead of CUB").
    TilePerBlock,
};

// Items of one striped tile of `threads` threads.
template <class T>
std::size_t striped_tile_items(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kReduceVectorsPerThread;
}

// Striped kernel (commutative operators): block b folds every gridDim.x-th tile from tile b; the
// fewest blocks that take the grid's share of tiles each, so that the tiles split evenly.
template <class T, bool Vectorized, class Op, class Items, class Done>
void launch_striped_as(Items items, std::size_t n, Op op, Done done, StripedGrid grid, const CallEnvironment &env) {
    const int threads = reduce_threads(env.tuning);
    const auto kernel = striped_reduce_kernel<T, Op, Items, Done, Vectorized>;
    const char *name = "striped_reduce_kernel";
    const std::size_t tiles = ceil_div(n, striped_tile_items<T>(threads));
    std::size_t most = kMaxGridBlocks;
    if (grid == StripedGrid::Resident) {
        most = resident_grid(reinterpret_cast<const void *>(kernel), name, threads, 0);
        if (most > static_cast<std::size_t>(kReduceMaxBlocks)) most = kReduceMaxBlocks;
    }
    const std::size_t per_block = ceil_div(tiles, most);
    launch(kernel, name, static_cast<unsigned>(ceil_div(tiles, per_block)), threads, 0, env.stream, items, n, op, done);
}

// The vectorized kernel where the input allows it (16-byte aligned), the item-by-item one otherwise.
template <class T, class Op, class Items, class Done>
void launch_striped(Items items, std::size_t n, Op op, Done done, StripedGrid grid, const CallEnvironment &env) {
    if constexpr (Items::kCanVectorize)
        if (items.vectorizable()) return launch_striped_as<T, true>(items, n, op, done, grid, env);
    launch_striped_as<T, false>(items, n, op, done, grid, env);
}

// One block of `threads` over n <= striped_tile_items<T>(threads) items; thread 0 hands their
// total to finish.
template <class T, class Op, class Items, class Finish>
void launch_single_tile(Items items, std::size_t n, Op op, Finish finish, int threads, const CallEnvironment &env) {
    const auto count = static_cast<unsigned>(n);
    if constexpr (Items::kCanVectorize)
        if (items.vectorizable())
            return launch(single_tile_reduce_kernel<T, Op, Items, Finish, true>, "single_tile_reduce_kernel", 1,
                          threads, 0, env.stream, items, count, op, finish);
    launch(single_tile_reduce_kernel<T, Op, Items, Finish, false>, "single_tile_reduce_kernel", 1, threads, 0,
           env.stream, items, count, op, finish);
}

// Threads that hold n items at one striped tile row each (n / (vector x kReduceVectorsPerThread)),
// in whole warps.
template <class T>
std::size_t one_round_threads(std::size_t n) {
    return ceil_div(n, striped_tile_items<T>(kWarpThreads)) * kWarpThreads;
}

// The striped kernel of a one-cluster reduction (launch_striped_cluster) for these items: vectorized
// where the input allows it.
template <class T, class Op, class Items, class Finish>
auto striped_cluster_kernel(const Items &items) {
    using Done = ClusterDone<T, Finish>;
    if constexpr (Items::kCanVectorize)
        if (items.vectorizable()) return striped_reduce_kernel<T, Op, Items, Done, true>;
    return striped_reduce_kernel<T, Op, Items, Done, false>;
}

// Inputs of a few striped tiles: `kernel` (striped_cluster_kernel, compiled for sm_90 or later) as
// one cluster of the fewest blocks, at most kReduceClusterMaxBlocks, that take the tiles evenly;
// thread 0 of the first hands the total to finish.
template <class T, class Op, class Items, class Finish, class Kernel>
void launch_striped_cluster(Kernel kernel, Items items, std::size_t n, Op op, Finish finish, int threads,
                            const CallEnvironment &env) {
    const std::size_t tiles = ceil_div(n, striped_tile_items<T>(threads));
    const std::size_t per_block = ceil_div(tiles, kReduceClusterMaxBlocks);
    const auto blocks = static_cast<unsigned>(ceil_div(tiles, per_block));
    launch_one_cluster(kernel, "striped_reduce_kernel", blocks, threads, 0, env.stream, items, n, op,
                       ClusterDone<T, Finish>{finish});
}

// Ordered kernel: its block size is the caller's, at most kOrderedMaxThreads, halved until the
// staging area and the block's reduce storage fit in the device's shared memory.
template <class Item, class Acc>
int ordered_threads(int threads) {
    if (threads > kOrderedMaxThreads) threads = kOrderedMaxThreads;
    int device = 0, limit = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const std::size_t static_bytes = sizeof(BlockReduceStorage<Acc>) + sizeof(LastBlockFlag) + 64;
    while (threads > kWarpThreads &&
           threads * staging_bytes_per_thread<Item>() + static_bytes > static_cast<std::size_t>(limit))
        threads /= 2;
    return threads;
}

// Lane g folds pieces [g * per_lane, (g + 1) * per_lane): per_lane is what the largest resident
// grid needs, and the grid then shrinks to the lanes that have pieces (the slowest lane, which sets
// the time, has per_lane pieces either way).
template <bool Vectorized, class Fold, class Items, class Done>
void launch_ordered_as(Items items, std::size_t n, Fold fold, Done done, const CallEnvironment &env) {
    using Item = typename Fold::Item;
    using Acc = typename Fold::Acc;
    const int threads = ordered_threads<Item, Acc>(reduce_threads(env.tuning));
    const std::size_t staging = threads * staging_bytes_per_thread<Item>();
    const auto kernel = ordered_reduce_kernel<Fold, Items, Done, Vectorized>;
    const char *name = "ordered_reduce_kernel";
    const std::size_t pieces = ceil_div(n, piece_items<Item>());
    std::size_t most = resident_grid(reinterpret_cast<const void *>(kernel), name, threads, staging);
    if (most > static_cast<std::size_t>(kReduceMaxBlocks)) most = kReduceMaxBlocks;
    const std::size_t per_lane = ceil_div(pieces, most * threads);
    if (per_lane * piece_items<Item>() > UINT_MAX)  // the fold's chunk-local indices are 32-bit
        throw std::length_error("ordered_reduce_kernel: " + std::to_string(n) + " items are too many for one launch");
    const std::size_t lanes = ceil_div(pieces, per_lane);
    launch(kernel, name, static_cast<unsigned>(ceil_div(lanes, threads)), threads, staging, env.stream, items, n, fold,
           per_lane, done);
}

template <class Fold, class Items, class Done>
void launch_ordered(Items items, std::size_t n, Fold fold, Done done, const CallEnvironment &env) {
    if constexpr (Items::kCanVectorize)
        if (items.vectorizable()) return launch_ordered_as<true>(items, n, fold, done, env);
    launch_ordered_as<false>(items, n, fold, done, env);
}

// One launch: *d_out = op(identity, every item in order). Operators known to commute take the
// single-tile kernel for one tile of the block size, or of a block up to kReduceWideBlockThreads
// wide; one cluster of striped blocks for a few tiles more (a kernel compiled for sm_90 on); and
// the striped kernel with the last block's combine above that. Any other operator takes the ordered
// kernel. n > 0; d_temp holds chunked_layout<T, T>(n) (T: the items' type); finish(total) writes
// the result (WriteCombined: op(identity, total)).
template <class Op, class Items, class Finish>
void chunked_reduce(Items items, std::size_t n, Op op, Finish finish, void *d_temp, const CallEnvironment &env) {
    using T = typename Items::Item;
    if constexpr (is_commutative<Op, T>::value) {
        // The block size read once: the tile it sizes is the tile the kernel reads.
        const int threads = reduce_threads(env.tuning);
        if (n <= striped_tile_items<T>(threads)) return launch_single_tile<T>(items, n, op, finish, threads, env);
        // Inputs of a few tiles: no partials in global memory and no ticket.
        const std::size_t needed = one_round_threads<T>(n);
        if (needed <= kReduceWideBlockThreads)
            return launch_single_tile<T>(items, n, op, finish, static_cast<int>(needed), env);
        // The cluster code exists where the kernel was compiled for sm_90 or later (its PTX
        // version, not the device's capability: a JIT from older PTX has none).
        if (n <= kReduceClusterMaxBlocks * kReduceClusterTilesPerBlock * striped_tile_items<T>(threads)) {
            const auto kernel = striped_cluster_kernel<T, Op, Items, Finish>(items);
            if (kernel_compiled_for_sm90(reinterpret_cast<const void *>(kernel)))
                return launch_striped_cluster<T>(kernel, items, n, op, finish, threads, env);
        }
    }
    const auto pieces = chunked_layout<T, T>(n).carve(d_temp);
    const LastBlockDone<T, Finish> done{reinterpret_cast<T *>(pieces[1]), reinterpret_cast<CallState *>(pieces[0]),
                                        next_call_tag(), finish};
    if constexpr (is_commutative<Op, T>::value) launch_striped<T>(items, n, op, done, StripedGrid::Resident, env);
    else launch_ordered(items, n, OpFold<T, Op>{op}, done, env);
}

// ---- atomics: the identity written, then the striped kernel, a block a tile, one atomic each ----

// Operators without atomics are refused by the caller (reduce_by) before this is reached.
template <class T, class Op, class Items>
void atomic_reduce(Items items, std::size_t n, Op op, T identity, T *d_out, const CallEnvironment &env) {
    if constexpr (kHasAtomic<Op, T>) {
        write_value(d_out, identity, env.stream);
        launch_striped<T>(items, n, op, AtomicDone<T, Op>{d_out}, StripedGrid::TilePerBlock, env);
    }
}

// ---- tree and group: one launch per level ----

template <class T, class Op>
void tree_reduce(const T *d_in, std::size_t n, Op op, T identity, T *d_out, void *d_temp, const CallEnvironment &env) {
    const int threads = reduce_threads(env.tuning);
    const auto buffers = level_layout<T>(n, ReduceStrategy::Tree).carve(d_temp);
    T *const results[2] = {reinterpret_cast<T *>(buffers[0]), reinterpret_cast<T *>(buffers[1])};
    const T *in = d_in;
    std::size_t m = n;
    for (int level = 0; m > 2; ++level) {
        const std::size_t pairs = ceil_div(m, 2);
        T *out = results[level % 2];  // level 0 writes ceil(n / 2), level 1 ceil(n / 4), ...
        launch(tree_level_kernel<T, Op>, "tree_level_kernel", blocks_for(pairs, threads), threads, 0, env.stream, in, m,
               out, op);
        in = out;
        m = pairs;
    }
    launch(tree_root_kernel<T, Op>, "tree_root_kernel", 1, 1, 0, env.stream, in, m, d_out, op, identity);
}

template <class T, class Op>
void group_reduce(const T *d_in, std::size_t n, Op op, T identity, T *d_out, void *d_temp, const CallEnvironment &env) {
    const int threads = reduce_threads(env.tuning);
    const auto buffers = level_layout<T>(n, ReduceStrategy::Group).carve(d_temp);
    T *const results[2] = {reinterpret_cast<T *>(buffers[0]), reinterpret_cast<T *>(buffers[1])};
    const T *in = d_in;
    std::size_t m = n;
    for (int level = 0; m > static_cast<std::size_t>(threads); ++level) {
        const unsigned groups = blocks_for(m, threads);
        T *out = results[level % 2];
        launch(group_level_kernel<T, Op>, "group_level_kernel", groups, threads, 0, env.stream, in, m, out, op,
               identity, false);
        in = out;
        m = groups;
    }
    launch(group_level_kernel<T, Op>, "group_level_kernel", 1, threads, 0, env.stream, in, m, d_out, op, identity,
           true);
}

// ---- every strategy, for the device API ----

// A sum of 16-bit floats (support/half_precision.cuh): their chunked reduction in float, rounded
// once. Storage: chunked_layout<float, float>(n).
template <class T>
void widened_sum(const T *d_in, std::size_t n, T identity, T *d_out, void *d_temp, const CallEnvironment &env) {
    if (n == 0) return write_value(d_out, identity, env.stream);
    chunked_reduce(WidenedItems<T>{d_in}, n, Sum{}, WriteNarrowedSum<T>{d_out, to_float(identity)}, d_temp, env);
}

template <class T, class Op>
void reduce_by(const char *name, ReduceStrategy strategy, const T *d_in, std::size_t n, Op op, T identity, T *d_out,
               void *d_temp, const CallEnvironment &env) {
    if constexpr (!kHasAtomic<Op, T>)  // refused before anything is enqueued, whatever n
        if (strategy == ReduceStrategy::Atomics)
            throw std::invalid_argument(std::string(name) + ": " + kAtomicsSupport + "; use another strategy");
    if (n == 0) {
        write_value(d_out, identity, env.stream);
        return;
    }
    const ArrayItems<T> items{d_in};
    switch (strategy) {
    case ReduceStrategy::Tree: tree_reduce(d_in, n, op, identity, d_out, d_temp, env); return;
    case ReduceStrategy::Group: group_reduce(d_in, n, op, identity, d_out, d_temp, env); return;
    case ReduceStrategy::Chunked:
        chunked_reduce(items, n, op, WriteCombined<T, Op>{d_out, op, identity}, d_temp, env);
        return;
    case ReduceStrategy::Atomics: atomic_reduce(items, n, op, identity, d_out, env); return;
    }
    throw std::invalid_argument(std::string(name) + ": unknown strategy " + std::to_string(static_cast<int>(strategy)));
}

inline void max_segment_sum_chunked(const int *d_in, std::size_t n, MaxSegmentSum *d_out, void *d_temp,
                                    const CallEnvironment &env) {
    if (n == 0) {
        write_value(d_out, MaxSegmentSum{0, 0, 0}, env.stream);
        return;
    }
    const auto pieces = chunked_layout<int, SegmentTuple>(n).carve(d_temp);
    const LastBlockDone<SegmentTuple, WriteMaxSegment> done{reinterpret_cast<SegmentTuple *>(pieces[1]),
                                                            reinterpret_cast<CallState *>(pieces[0]), next_call_tag(),
                                                            WriteMaxSegment{d_out}};
    launch_ordered(ArrayItems<int>{d_in}, n, MaxSegmentFold{}, done, env);
}

}  // namespace detail
}  // namespace StreamCompaction
