#pragma once
// Single-pass scan (Merrill & Garland 2016, decoupled look-back): one launch reads every element
// once and writes it once, for any trivially copyable T and any associative operator, commutative
// or not. Device pointers, 64-bit n, in place allowed (d_out == d_in), work enqueued on `stream`.
//
//   std::size_t bytes = StreamCompaction::scan_temp_bytes<int>(n);   // caller-provided storage
//   StreamCompaction::exclusive_scan(d_in, d_out, n, StreamCompaction::Sum{}, 0, d_temp, bytes, stream);
//   StreamCompaction::inclusive_scan(d_in, d_out, n, StreamCompaction::Max{}, stream);   // allocates its own
//   StreamCompaction::transform_inclusive_scan<T>(n, load, store, op, d_temp, bytes, stream);   // functors
//
// Temporary storage may hold anything and is reused from call to call; calls that share it must
// be ordered (one stream). Errors: std::invalid_argument for bad arguments, cuda_error from CUDA.
#include "cuda_check.h"
#include "detail/tile_scan.cuh"
#include "device_api.h"
#include "operators.cuh"
#include "tuning.h"

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

// One tile of a single-pass scan, for the kernels below: `load_items(base, valid, items)` fills the
// tile's items (those at [base, base + valid)), `store_items(base, valid, items)` writes the results.
// first_prefix is what comes before item 0: the exclusive scan's init, or nothing (then an
// exclusive scan's item 0 receives an unspecified value).
template <class T, int R, class Op, bool Exclusive, class LoadItems, class StoreItems>
__device__ __forceinline__ void scan_tile(std::size_t n, Op op, Partial<T> first_prefix, void *status_storage,
                                          std::size_t tiles, u64 *ticket, u64 epoch, LoadItems load_items,
                                          StoreItems store_items) {
    constexpr int VEC = vector_items<T>();
    auto &smem = shared_storage<TileScanStorage<T, R>>();
    const auto status = TileStatus<T>::at(status_storage, tiles);

    const unsigned tile = block_acquire_tile(smem, ticket, epoch);
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
        [&](const T &aggregate) { return chained_tile_prefix<T>(status, tile, epoch, aggregate, first_prefix, op); },
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

template <class T, class Op, bool Exclusive>
__global__ void __launch_bounds__(1024) single_pass_scan_kernel(const T *in, T *out, std::size_t n, Op op, T init,
                                                                void *status_storage, std::size_t tiles,
                                                                u64 *ticket, u64 epoch, bool vectorized) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    scan_tile<T, R, Op, Exclusive>(
        n, op, Partial<T>{init, Exclusive}, status_storage, tiles, ticket, epoch,
        [&](std::size_t base, std::size_t valid, T (&items)[R][VEC]) {
            load_tile<R, VEC>(in + base, items, valid, vectorized);
        },
        [&](std::size_t base, std::size_t valid, const T (&items)[R][VEC]) {
            store_tile<R, VEC>(out + base, items, valid, vectorized);
        });
}

// Rows per tile of the transform scan: twice the plain scan's, because its items come from several
// arrays loaded element by element, and more items per thread keep more loads in flight.
constexpr int kTransformScanRows = 2 * kSinglePassVectorsPerThread;

// The inclusive scan of the items load(0), ..., load(n - 1); store(i, x) receives the i-th result.
// Each item is loaded once and stored once, by the same thread.
template <class T, class Op, class Load, class Store>
__global__ void __launch_bounds__(1024) transform_scan_kernel(std::size_t n, Load load, Store store, Op op,
                                                              void *status_storage, std::size_t tiles, u64 *ticket,
                                                              u64 epoch) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kTransformScanRows;
    scan_tile<T, R, Op, false>(
        n, op, Partial<T>{T{}, false}, status_storage, tiles, ticket, epoch,
        [&](std::size_t base, std::size_t valid, T (&items)[R][VEC]) {
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t i) { items[r][k] = load(base + i); });
        },
        [&](std::size_t base, std::size_t valid, const T (&items)[R][VEC]) {
            for_tile_items<R, VEC>(valid, [&](int r, int k, std::size_t i) { store(base + i, items[r][k]); });
        });
}

// Storage: the ticket (16 bytes), then the tile status words. Sized for the smallest block size,
// so a block-size change between query and call never makes it too small.
template <class T>
std::size_t tile_items_for(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kSinglePassVectorsPerThread;
}

// A transform scan's tiles are larger than a plain scan's: single_pass_temp_bytes covers them too.
template <class T>
std::size_t transform_tile_items_for(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kTransformScanRows;
}

template <class T>
std::size_t single_pass_temp_bytes(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(32) - 1) / tile_items_for<T>(32);
    return 16 + TileStatus<T>::bytes(max_tiles);
}

inline bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <bool Exclusive, class T, class Op>
void single_pass_scan(const char *name, const T *d_in, T *d_out, std::size_t n, Op op, T init, void *d_temp,
                      std::size_t temp_bytes, cudaStream_t stream) {
    require_device_pointers(name, n, d_in, d_out);
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, single_pass_temp_bytes<T>(n));
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tiles = (n + tile_items_for<T>(threads) - 1) / tile_items_for<T>(threads);
    const unsigned blocks = blocks_for(tiles, 1);
    const bool vectorized = vector_items<T>() * sizeof(T) == 16 && aligned16(d_in) && aligned16(d_out);
    char *storage = static_cast<char *>(d_temp);
    single_pass_scan_kernel<T, Op, Exclusive><<<blocks, threads, 0, stream>>>(
        d_in, d_out, n, op, init, storage + 16, tiles, reinterpret_cast<u64 *>(storage), next_scan_epoch(),
        vectorized);
    SC_CHECK_LAUNCH(single_pass_scan_kernel);
}

template <class T, class Op, class Load, class Store>
void transform_scan(std::size_t n, Load load, Store store, Op op, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
    if (n == 0) return;
    require_temp_storage("transform_inclusive_scan", d_temp, temp_bytes, single_pass_temp_bytes<T>(n));
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tiles = (n + transform_tile_items_for<T>(threads) - 1) / transform_tile_items_for<T>(threads);
    char *storage = static_cast<char *>(d_temp);
    transform_scan_kernel<T, Op><<<blocks_for(tiles, 1), threads, 0, stream>>>(
        n, load, store, op, storage + 16, tiles, reinterpret_cast<u64 *>(storage), next_scan_epoch());
    SC_CHECK_LAUNCH(transform_scan_kernel);
}

// Stream-ordered storage for the overloads that manage it themselves.
template <class Body>
void with_temp_storage(std::size_t bytes, cudaStream_t stream, Body body) {
    void *d_temp = nullptr;
    SC_CUDA_CHECK(cudaMallocAsync(&d_temp, bytes, stream));
    try {
        body(d_temp);
    } catch (...) {
        cudaFreeAsync(d_temp, stream);
        throw;
    }
    SC_CUDA_CHECK(cudaFreeAsync(d_temp, stream));
}

}  // namespace detail

template <class T>
std::size_t scan_temp_bytes(std::size_t n) {
    return detail::single_pass_temp_bytes<T>(n);
}

template <class T, class Op>
void inclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0) {
    detail::single_pass_scan<false>("inclusive_scan", d_in, d_out, n, op, T{}, d_temp, temp_bytes, stream);
}

template <class T, class Op>
void exclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, T init, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0) {
    detail::single_pass_scan<true>("exclusive_scan", d_in, d_out, n, op, init, d_temp, temp_bytes, stream);
}

template <class T, class Op>
void inclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, cudaStream_t stream = 0) {
    if (n == 0) return;
    detail::with_temp_storage(scan_temp_bytes<T>(n), stream, [&](void *d_temp) {
        inclusive_scan(d_in, d_out, n, op, d_temp, scan_temp_bytes<T>(n), stream);
    });
}

template <class T, class Op>
void exclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, T init, cudaStream_t stream = 0) {
    if (n == 0) return;
    detail::with_temp_storage(scan_temp_bytes<T>(n), stream, [&](void *d_temp) {
        exclusive_scan(d_in, d_out, n, op, init, d_temp, scan_temp_bytes<T>(n), stream);
    });
}

// Inclusive scan of items computed on the fly, for primitives built on the scan (segmented scans,
// SpMV): `load` and `store` are device functors, T load(std::size_t i) and void store(std::size_t i,
// const T &scanned); each i in [0, n) is loaded once and stored once. Temporary storage:
// scan_temp_bytes<T>(n).
template <class T, class Load, class Store, class Op>
void transform_inclusive_scan(std::size_t n, Load load, Store store, Op op, void *d_temp, std::size_t temp_bytes,
                              cudaStream_t stream = 0) {
    detail::transform_scan<T, Op>(n, load, store, op, d_temp, temp_bytes, stream);
}

}  // namespace StreamCompaction
