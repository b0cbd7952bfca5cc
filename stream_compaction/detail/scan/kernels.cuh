#pragma once
// The single-pass scan's tile kernels: one tile of items per block, its prefix by decoupled look-back
// (for floating-point items, by the fixed-order look-back: the same bits on every run).
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/decoupled_look_back.cuh>
#include <stream_compaction/detail/grid/fixed_order_look_back.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cuda/barrier>

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
            return look_back_tile_prefix<T>(status, tiles, tile, epoch, aggregate, first_prefix, op, delay);
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

// The same for 16-bit floats under a sum (support/half_precision.cuh): each row's VEC items read as
// one vector of T's (8 bytes) where `vectorized` (the arrays aligned to it), scanned as floats
// (float's tile and look-back), each result rounded to T once.
template <class T, bool Exclusive, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, resident_blocks(Threads, MinBlocks))
    widened_scan_kernel(const T *in, T *out, std::size_t n, float init, void *status_storage, std::size_t tiles,
                        CallState *state, u64 call_tag, LookBackDelay delay, bool vectorized) {
    constexpr int VEC = vector_items<float>();
    constexpr int R = kSinglePassVectorsPerThread;
    scan_tile<float, R, Sum, Exclusive>(
        n, Sum{}, Partial<float>{init, Exclusive}, status_storage, tiles, state, call_tag, delay,
        [&](std::size_t base, std::size_t valid, float (&items)[R][VEC]) {
            T raw[R][VEC];
            load_tile<R, VEC>(in + base, raw, valid, vectorized);
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t) { items[r][k] = to_float(raw[r][k]); });
        },
        [&](std::size_t base, std::size_t valid, const float (&items)[R][VEC]) {
            T raw[R][VEC];
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t) { raw[r][k] = from_float<T>(items[r][k]); });
            store_tile<R, VEC>(out + base, raw, valid, vectorized);
        });
}

// Whether T's items move in 16-byte vectors, as the staged scan's copies need.
template <class T>
constexpr bool stageable() {
    return vector_items<T>() * sizeof(T) == 16;
}

// A tile staged in shared memory by Hopper's bulk asynchronous copies (the TMA unit, sm_90 and
// later), and the barrier that counts its bytes in. Each thread owns R consecutive 16-byte vectors
// (a blocked layout: a thread's items are contiguous, so it scans them alone); R is odd, so that
// the 8 threads of one 16-byte shared-memory access fall on different banks.
template <class T, int R = kStagedScanVectorsPerThread, int Threads = kStagedScanPolicy.threads>
struct StagedTile {
    static_assert(R % 2 == 1, "an even number of vectors a thread makes shared-memory bank conflicts");
    static_assert(stageable<T>(), "the staged scan moves 16-byte vectors");
    static constexpr int kItems = R * Threads * vector_items<T>();
    alignas(128) T items[kItems];
    cuda::barrier<cuda::thread_scope_block> loaded;
};

// The staging helpers exist on sm_90 and later only, as the staged kernels' bodies do (the proxy
// fence and the bulk copies need them).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Thread 0 readies a staged tile's barrier, and the copy engine's view of it; the block barrier
// of block_take_tile, which every kernel calls next, orders this before any thread uses it.
__device__ __forceinline__ void init_staging_barrier(cuda::barrier<cuda::thread_scope_block> &loaded, int threads) {
    if (threadIdx.x == 0) {
        init(&loaded, threads);  // cuda::barrier's, found by argument-dependent lookup
        cuda::device::experimental::fence_proxy_async_shared_cta();
    }
}

// Brings a tile's `valid` items of `from` (and of `also_from`, when given) into shared memory at
// `to` (`also_to`): a whole tile by one bulk copy each (16-byte aligned), whose bytes `loaded`
// counts in; the last, partial tile item by item. Every thread of the block calls it, and on
// return the tile is in shared memory for all of them.
template <int Threads, class T, class U = T>
__device__ __forceinline__ void load_staged_tile(cuda::barrier<cuda::thread_scope_block> &loaded, std::size_t valid,
                                                 std::size_t tile_items, T *to, const T *from, U *also_to = nullptr,
                                                 const U *also_from = nullptr) {
    if (valid == tile_items) {
        cuda::barrier<cuda::thread_scope_block>::arrival_token token;
        if (threadIdx.x == 0) {
            std::size_t bytes = sizeof(T) * tile_items;
            cuda::device::memcpy_async_tx(to, from, cuda::aligned_size_t<16>(bytes), loaded);
            if (also_from != nullptr) {
                const std::size_t also_bytes = sizeof(U) * tile_items;
                cuda::device::memcpy_async_tx(also_to, also_from, cuda::aligned_size_t<16>(also_bytes), loaded);
                bytes += also_bytes;
            }
            token = cuda::device::barrier_arrive_tx(loaded, 1, bytes);
        } else {
            token = loaded.arrive();
        }
        loaded.wait(std::move(token));
    } else {
        for (std::size_t i = threadIdx.x; i < valid; i += Threads) {
            to[i] = from[i];
            if (also_from != nullptr) also_to[i] = also_from[i];
        }
        __syncthreads();
    }
}
#endif

// The single-pass scan with its tile staged in shared memory: one thread has the copy engine load
// the whole tile, the threads scan it in place, and one thread has the copy engine store it. The
// bytes in flight cost no registers, so a tile can be larger than what the threads could hold.
// Launched only where compiled for sm_90 and later, with `in` and `out` aligned to 16 bytes (tuning/policies.h).
template <class T, class Op, bool Exclusive>
__global__ void __launch_bounds__(kStagedScanPolicy.threads,
                                  resident_blocks(kStagedScanPolicy.threads, kStagedScanPolicy.min_blocks_per_sm))
    staged_scan_kernel(const T *in, T *out, std::size_t n, Op op, T init, void *status_storage, std::size_t tiles,
                       CallState *state, u64 call_tag, LookBackDelay delay) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace tma = cuda::device::experimental;
    constexpr int VEC = vector_items<T>();
    constexpr int R = kStagedScanVectorsPerThread;
    constexpr int Threads = kStagedScanPolicy.threads;
    using Stage = StagedTile<T>;
    using Row = Vector<T, VEC>;
    constexpr std::size_t kTileBytes = sizeof(T) * Stage::kItems;
    auto &stage = shared_storage<Stage>();
    auto &smem = shared_storage<TileScanStorage<T, 1>>();
    const auto status = TileStatus<T>::at(status_storage, scan_status_words<T>(tiles));
    init_staging_barrier(stage.loaded, Threads);
    const TileAssignment assigned = block_take_tile(smem, state, call_tag, tiles);  // its barrier orders the init
    const std::size_t base = static_cast<std::size_t>(assigned.tile) * Stage::kItems;
    const std::size_t valid = n - base < Stage::kItems ? n - base : Stage::kItems;
    const bool full = valid == Stage::kItems;
    load_staged_tile<Threads>(stage.loaded, valid, Stage::kItems, stage.items, in + base);
    // Items past `valid` (a last tile's) are stale; they only follow every valid item.
    Row *mine = reinterpret_cast<Row *>(stage.items) + threadIdx.x * R;
    T total[1];
    total[0] = thread_reduce<VEC>(mine[0].item, op);
#pragma unroll
    for (int j = 1; j < R; ++j) total[0] = op(total[0], thread_reduce<VEC>(mine[j].item, op));
    Partial<T> prefix[1];
    block_row_prefixes<1>(
        total, prefix, op,
        [&](const T &aggregate) {
            return look_back_tile_prefix<T>(status, tiles, assigned.tile, assigned.epoch, aggregate,
                                            Partial<T>{init, Exclusive}, op, delay);
        },
        smem);
    Partial<T> running = prefix[0];
#pragma unroll
    for (int j = 0; j < R; ++j) {
        Row v = mine[j];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const T item = v.item[k];
            if (Exclusive) v.item[k] = running.value;
            running = combine(running, Partial<T>{item, true}, op);
            if (!Exclusive) v.item[k] = running.value;
        }
        mine[j] = v;
    }
    if (full) {
        tma::fence_proxy_async_shared_cta();  // the copy engine sees this thread's results
        __syncthreads();
        if (threadIdx.x == 0) {
            tma::cp_async_bulk_shared_to_global(out + base, stage.items, kTileBytes);
            tma::cp_async_bulk_commit_group();
            tma::cp_async_bulk_wait_group_read<0>();  // the tile's shared memory outlives the copy's reads
        }
    } else {
        __syncthreads();
        for (std::size_t i = threadIdx.x; i < valid; i += Threads) out[base + i] = stage.items[i];
    }
#else
    __trap();  // unreachable: launched only where kernel_compiled_for_sm90 holds (runs_staged)
#endif
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
