#pragma once
// Single-pass compaction and stable partition: the predicate is evaluated as the tile is loaded,
// the kept count is scanned by decoupled look-back (scan.cuh's machinery), and the tile's items
// are gathered in shared memory and written out in coalesced runs. No map or scatter launch.
//
//   select_if(d_in, d_out, d_count, n, pred, d_temp, select_temp_bytes<T>(n), stream);
//       d_out[0, *d_count) = the elements with pred true, in order.
//   select_flagged(d_in, d_flags, d_out, d_count, n, d_temp, bytes, stream);   // kept where flag != 0
//   partition(d_in, d_out, d_true_count, n, pred, d_temp, bytes, stream);
//       stable: trues in order, then falses in order (partition2 of the lecture). The falses' place
//       depends on the total count of trues, so partition first counts them (one extra read).
// Counts are std::size_t in device memory. d_out must not overlap d_in.
#include "cuda_check.h"
#include "detail/tile_scan.cuh"
#include "device_api.h"
#include "operators.cuh"
#include "scan.cuh"
#include "tuning.h"

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Where the keep/drop decision of element i comes from.
template <class Pred>
struct ByPredicate {
    Pred pred;
    template <class T>
    __device__ bool operator()(std::size_t, const T &x) const { return pred(x); }
};

template <class Flag>
struct ByFlag {
    const Flag *flags;
    template <class T>
    __device__ bool operator()(std::size_t i, const T &) const { return flags[i] != Flag(0); }
};

// Counts the trues of the whole input into *total (zeroed before the launch).
template <class T, class Keep>
__global__ void __launch_bounds__(1024) count_kept_kernel(const T *in, std::size_t n, Keep keep, u64 *total) {
    u64 count = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        count += keep(i, in[i]);
#pragma unroll
    for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) count += __shfl_down_sync(kFullMask, count, offset);
    if (threadIdx.x % kWarpThreads == 0 && count > 0) atomicAdd(total, count);
}

// One tile per block. With Partition, total_true points at the count of all trues; without, the
// falses are dropped and the last tile writes the kept count to *count_out.
template <class T, class Keep, bool Partition>
__global__ void __launch_bounds__(1024) single_pass_select_kernel(const T *in, T *out, std::size_t n, Keep keep,
                                                                  void *status_storage, std::size_t tiles, u64 *ticket,
                                                                  u64 epoch, bool vectorized, const u64 *total_true,
                                                                  std::size_t *count_out) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    auto &smem = shared_storage<TileScanStorage<u64, R>>();
    __shared__ u64 tile_kept;
    extern __shared__ unsigned char staging_raw[];
    T *staging = reinterpret_cast<T *>(staging_raw);  // the tile: kept items first, then the others
    const auto status = TileStatus<u64>::at(status_storage, tiles);

    const unsigned tile = block_acquire_tile(smem, ticket, epoch);
    const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * VEC * R;
    const std::size_t base = tile * tile_items;
    const std::size_t valid = n - base < tile_items ? n - base : tile_items;

    T items[R][VEC];
    load_tile<R, VEC>(in + base, items, valid, vectorized);
    bool kept[R][VEC];
    u64 totals[R];
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        totals[r] = 0;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t local = r * row_items + threadIdx.x * VEC + k;
            kept[r][k] = local < valid && keep(base + local, items[r][k]);
            totals[r] += kept[r][k];
        }
    }

    Partial<u64> prefix[R];
    block_row_prefixes<R>(
        totals, prefix, Sum{},
        [&](const u64 &aggregate) {
            if (threadIdx.x == 0) tile_kept = aggregate;
            return chained_tile_prefix<u64>(status, tile, epoch, aggregate, Partial<u64>{0, true}, Sum{});
        },
        smem);
    const u64 kept_before = smem.tile_prefix;  // trues in earlier tiles
    const u64 kept_here = tile_kept;

    // Stage: kept items at their rank within the tile, the others after them in order.
#pragma unroll
    for (int r = 0; r < R; ++r) {
        u64 rank = prefix[r].value - kept_before;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t local = r * row_items + threadIdx.x * VEC + k;
            if (kept[r][k]) staging[rank] = items[r][k];
            else if (Partition && local < valid) staging[kept_here + (local - rank)] = items[r][k];
            rank += kept[r][k];
        }
    }
    __syncthreads();

    for (std::size_t j = threadIdx.x; j < kept_here; j += blockDim.x) out[kept_before + j] = staging[j];
    if (Partition) {
        // Falses before this tile: base - kept_before; all falses follow all trues.
        T *falses_out = out + *total_true + (base - kept_before) - kept_here;
        for (std::size_t j = kept_here + threadIdx.x; j < valid; j += blockDim.x) falses_out[j] = staging[j];
    } else if (tile == tiles - 1 && threadIdx.x == 0) {
        *count_out = kept_before + kept_here;
    }
}

// Storage: ticket (16 bytes), total of trues (16 bytes), tile status words.
template <class T>
std::size_t select_temp_bytes_for(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(32) - 1) / tile_items_for<T>(32);
    return 32 + TileStatus<u64>::bytes(max_tiles);
}

template <bool Partition, class T, class Keep>
void single_pass_select(const char *name, const T *d_in, T *d_out, std::size_t *d_count, std::size_t n, Keep keep,
                        void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    require_device_pointers(name, n, d_in, d_out);
    if (d_count == nullptr) throw std::invalid_argument(std::string(name) + ": null count pointer");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
        return;
    }
    require_temp_storage(name, d_temp, temp_bytes, select_temp_bytes_for<T>(n));
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tiles = (n + tile_items_for<T>(threads) - 1) / tile_items_for<T>(threads);
    const std::size_t staging_bytes = tile_items_for<T>(threads) * sizeof(T);
    const bool vectorized = vector_items<T>() * sizeof(T) == 16 && aligned16(d_in);
    char *storage = static_cast<char *>(d_temp);
    u64 *ticket = reinterpret_cast<u64 *>(storage);
    u64 *total_true = reinterpret_cast<u64 *>(storage + 16);

    if (Partition) {
        SC_CUDA_CHECK(cudaMemsetAsync(total_true, 0, sizeof(u64), stream));
        count_kept_kernel<<<blocks_for(n, 256) < 4096 ? blocks_for(n, 256) : 4096, 256, 0, stream>>>(
            d_in, n, keep, total_true);
        SC_CHECK_LAUNCH(count_kept_kernel);
        SC_CUDA_CHECK(cudaMemcpyAsync(d_count, total_true, sizeof(u64), cudaMemcpyDeviceToDevice, stream));
    }
    const auto kernel = single_pass_select_kernel<T, Keep, Partition>;
    if (staging_bytes > 48 * 1024)
        SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(staging_bytes)));
    kernel<<<blocks_for(tiles, 1), threads, staging_bytes, stream>>>(d_in, d_out, n, keep, storage + 32, tiles,
                                                                     ticket, next_scan_epoch(), vectorized,
                                                                     total_true, d_count);
    SC_CHECK_LAUNCH(single_pass_select_kernel);
}

}  // namespace detail

template <class T>
std::size_t select_temp_bytes(std::size_t n) {
    return detail::select_temp_bytes_for<T>(n);
}

template <class T, class Pred>
void select_if(const T *d_in, T *d_out, std::size_t *d_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, cudaStream_t stream = 0) {
    detail::single_pass_select<false>("select_if", d_in, d_out, d_count, n, detail::ByPredicate<Pred>{pred}, d_temp,
                                      temp_bytes, stream);
}

template <class T, class Flag>
void select_flagged(const T *d_in, const Flag *d_flags, T *d_out, std::size_t *d_count, std::size_t n, void *d_temp,
                    std::size_t temp_bytes, cudaStream_t stream = 0) {
    require_device_pointers("select_flagged", n, d_flags, d_out);
    detail::single_pass_select<false>("select_flagged", d_in, d_out, d_count, n, detail::ByFlag<Flag>{d_flags},
                                      d_temp, temp_bytes, stream);
}

template <class T, class Pred>
void partition(const T *d_in, T *d_out, std::size_t *d_true_count, std::size_t n, Pred pred, void *d_temp,
               std::size_t temp_bytes, cudaStream_t stream = 0) {
    detail::single_pass_select<true>("partition", d_in, d_out, d_true_count, n, detail::ByPredicate<Pred>{pred},
                                     d_temp, temp_bytes, stream);
}

}  // namespace StreamCompaction
