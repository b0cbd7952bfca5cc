#pragma once
// The single-pass select and partition kernels: keep flags and their count scanned by look-back,
// the tile gathered in shared memory and written in coalesced runs.
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

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
                                                                  void *status_storage, std::size_t tiles, CallState *state,
                                                                  u64 call_tag, bool vectorized, const u64 *total_true,
                                                                  std::size_t *count_out) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    auto &smem = shared_storage<TileScanStorage<u64, R>>();
    __shared__ u64 tile_kept;
    extern __shared__ unsigned char staging_raw[];
    T *staging = reinterpret_cast<T *>(staging_raw);  // the tile: kept items first, then the others
    const auto status = TileStatus<u64>::at(status_storage, tiles);

    const TileAssignment assigned = block_take_tile(smem, state, call_tag, tiles);
    const unsigned tile = assigned.tile;
    const u64 epoch = assigned.epoch;
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

}  // namespace detail
}  // namespace StreamCompaction
