#pragma once
// Single-pass scan (Merrill & Garland 2016, decoupled look-back): one launch reads every element
// once and writes it once, for any trivially copyable T and any associative operator, commutative
// or not. Device pointers, 64-bit n, in place allowed (d_out == d_in), work enqueued on `stream`.
//
//   std::size_t bytes = StreamCompaction::scan_temp_bytes<int>(n);   // caller-provided storage
//   StreamCompaction::exclusive_scan(d_in, d_out, n, StreamCompaction::Sum{}, 0, d_temp, bytes, stream);
//   StreamCompaction::inclusive_scan(d_in, d_out, n, StreamCompaction::Max{}, stream);   // allocates its own
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

template <class T, class Op, bool Exclusive>
__global__ void __launch_bounds__(1024) single_pass_scan_kernel(const T *in, T *out, std::size_t n, Op op, T init,
                                                                void *status_storage, std::size_t tiles,
                                                                u64 *ticket, u64 epoch, bool vectorized) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    auto &smem = shared_storage<TileScanStorage<T, R>>();
    const auto status = TileStatus<T>::at(status_storage, tiles);

    const unsigned tile = block_acquire_tile(smem, ticket, epoch);
    const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * VEC * R;
    const std::size_t base = tile * tile_items;
    const std::size_t valid = n - base < tile_items ? n - base : tile_items;

    T items[R][VEC];
    load_tile<R, VEC>(in + base, items, valid, vectorized);
    T totals[R];
#pragma unroll
    for (int r = 0; r < R; ++r) totals[r] = thread_reduce<VEC>(items[r], op);

    Partial<T> prefix[R];
    const Partial<T> first_prefix{init, Exclusive};
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
            if (Exclusive) items[r][k] = running.value;  // valid: tile 0 starts from init
            running = combine(running, Partial<T>{item, true}, op);
            if (!Exclusive) items[r][k] = running.value;
        }
    }
    store_tile<R, VEC>(out + base, items, valid, vectorized);
}

// Storage: the ticket (16 bytes), then the tile status words. Sized for the smallest block size,
// so a block-size change between query and call never makes it too small.
template <class T>
std::size_t tile_items_for(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kSinglePassVectorsPerThread;
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

}  // namespace StreamCompaction
