#pragma once
// The single-pass scan's tile kernels: one tile of items per block, its prefix by decoupled look-back
// (for floating-point items, by the fixed-order look-back: the same bits on every run).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/fixed_order_look_back.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// One tile of a single-pass scan, for the kernels below: `load_items(base, valid, items)` fills the
// tile's items (those at [base, base + valid)), `store_items(base, valid, items)` writes the results.
// first_prefix is what comes before item 0: the exclusive scan's init, or nothing (then an
// exclusive scan's item 0 receives an unspecified value).
template <class T, int R, class Op, bool Exclusive, class LoadItems, class StoreItems>
__device__ __forceinline__ void scan_tile(std::size_t n, Op op, Partial<T> first_prefix, void *status_storage,
                                          std::size_t tiles, CallState *state, u64 call_tag, LookBackDelay delay,
                                          LoadItems load_items, StoreItems store_items) {
    constexpr int VEC = vector_items<T>();
    auto &smem = shared_storage<TileScanStorage<T, R>>();
    const auto status = TileStatus<T>::at(status_storage, scan_status_words<T>(tiles));

    const TileAssignment assigned = block_take_tile(smem, state, call_tag, tiles);
    const unsigned tile = assigned.tile;
    const u64 epoch = assigned.epoch;
    const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * VEC * R;
    const std::size_t base = tile * tile_items;
    const std::size_t valid = n - base < tile_items ? n - base : tile_items;

    T items[R][VEC];
    load_items(base, valid, items);
    T totals[R];
#pragma unroll
    for (int r = 0; r < R; ++r) totals[r] = thread_reduce<VEC>(items[r], op);

    Partial<T> prefix[R];
    block_row_prefixes<R>(
        totals, prefix, op,
        [&](const T &aggregate) {
            if constexpr (kFixedOrderScan<T>)
                return fixed_order_tile_prefix<T>(status, tiles, tile, epoch, aggregate, first_prefix, op, delay);
            else
                return chained_tile_prefix<T>(status, tile, epoch, aggregate, first_prefix, op, delay);
        },
        smem);

#pragma unroll
    for (int r = 0; r < R; ++r) {
        Partial<T> running = prefix[r];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const T item = items[r][k];
            if (Exclusive) items[r][k] = running.value;
            running = combine(running, Partial<T>{item, true}, op);
            if (!Exclusive) items[r][k] = running.value;
        }
    }
    store_items(base, valid, items);
}

// Compiled for a block size of at most Threads and MinBlocks blocks an SM (tuning/policies.h).
template <class T, class Op, bool Exclusive, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, resident_blocks(Threads, MinBlocks))
    single_pass_scan_kernel(const T *in, T *out, std::size_t n, Op op, T init, void *status_storage, std::size_t tiles,
                            CallState *state, u64 call_tag, LookBackDelay delay, bool vectorized) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    scan_tile<T, R, Op, Exclusive>(
        n, op, Partial<T>{init, Exclusive}, status_storage, tiles, state, call_tag, delay,
        [&](std::size_t base, std::size_t valid, T (&items)[R][VEC]) {
            load_tile<R, VEC>(in + base, items, valid, vectorized);
        },
        [&](std::size_t base, std::size_t valid, const T (&items)[R][VEC]) {
            store_tile<R, VEC>(out + base, items, valid, vectorized);
        });
}

// The inclusive scan of the items load(0), ..., load(n - 1); store(i, x) receives the i-th result.
// Each item is loaded once and stored once, by the same thread.
template <class T, class Op, class Load, class Store>
__global__ void __launch_bounds__(1024) transform_scan_kernel(std::size_t n, Load load, Store store, Op op,
                                                              void *status_storage, std::size_t tiles, CallState *state,
                                                              u64 call_tag, LookBackDelay delay) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kTransformScanRows;
    scan_tile<T, R, Op, false>(
        n, op, Partial<T>{T{}, false}, status_storage, tiles, state, call_tag, delay,
        [&](std::size_t base, std::size_t valid, T (&items)[R][VEC]) {
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t i) { items[r][k] = load(base + i); });
        },
        [&](std::size_t base, std::size_t valid, const T (&items)[R][VEC]) {
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t i) { store(base + i, items[r][k]); });
        });
}

}  // namespace detail
}  // namespace StreamCompaction
