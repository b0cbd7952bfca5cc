#pragma once
// Block-level pieces of the single-pass kernels. A tile is R rows of blockDim.x * VEC items; in
// each row thread t owns VEC consecutive items, so a row is one fully coalesced 16-byte access per
// thread, and the tile's order is row-major: (row, thread, item).
#include <stream_compaction/detail/util/occupancy.cuh>
#include <stream_compaction/detail/util/shared_storage.cuh>
#include <stream_compaction/detail/util/tile_assignment.cuh>
#include <stream_compaction/detail/util/vector_access.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

template <class T, int R>
struct TileScanStorage {
    T warp_values[R * kWarpThreads];  // warp totals, then their exclusive prefixes (entry 0: none)
    T tile_prefix;
    bool tile_prefix_valid;
    TileAssignment assigned;
};

// Loads a row-striped tile; `valid` items from `in` (a tile's start: a pointer, or any random-access
// iterator the device can read, whose items convert to T). Full tiles of a pointer to T use one
// vector load per row when `vectorized` (the memory is aligned to vector_alignment<T, VEC>()); an
// iterator is read an item at a time.
template <int R, int VEC, class T, class Input>
__device__ __forceinline__ void load_tile(Input in, T (&items)[R][VEC], std::size_t valid, bool vectorized) {
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    if constexpr (std::is_convertible_v<Input, const T *>) {
        if (vectorized && valid == row_items * R) {
            const auto *vectors = reinterpret_cast<const Vector<T, VEC> *>(static_cast<const T *>(in));
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const Vector<T, VEC> v = vectors[r * blockDim.x + threadIdx.x];
#pragma unroll
                for (int k = 0; k < VEC; ++k) items[r][k] = v.item[k];
            }
            return;
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t i = r * row_items + threadIdx.x * VEC + k;
            if (i < valid) items[r][k] = in[i];
        }
}

template <int R, int VEC, class T>
__device__ __forceinline__ void store_tile(T *out, const T (&items)[R][VEC], std::size_t valid, bool vectorized) {
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    if (vectorized && valid == row_items * R) {
        auto *vectors = reinterpret_cast<Vector<T, VEC> *>(out);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            Vector<T, VEC> v;
#pragma unroll
            for (int k = 0; k < VEC; ++k) v.item[k] = items[r][k];
            vectors[r * blockDim.x + threadIdx.x] = v;
        }
        return;
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t i = r * row_items + threadIdx.x * VEC + k;
            if (i < valid) out[i] = items[r][k];
        }
}

// Calls f(r, k, i) for each of this thread's items (r, k) whose tile offset i is below `valid`.
template <int R, int VEC, class F>
__device__ __forceinline__ void for_tile_items(std::size_t valid, F f) {
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    const bool full = valid == row_items * R;  // a full tile needs no bound checks
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t i = r * row_items + threadIdx.x * VEC + k;
            if (full || i < valid) f(r, k, i);
        }
}

// Block-wide scan of the threads' row totals. For each row r, prefix[r] is everything before this
// thread's items in row r: the tile's own prefix (what `tile_prefix_of(tile_aggregate)` returns,
// run by warp 0: the look-back), then earlier rows, earlier warps of the row, earlier lanes.
// Needs blockDim.x a multiple of 32, at most 1024.
template <int R, class T, class Op, class TilePrefixOf>
__device__ __forceinline__ void block_row_prefixes(const T (&totals)[R], Partial<T> (&prefix)[R], Op op,
                                                   TilePrefixOf tile_prefix_of, TileScanStorage<T, R> &smem) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    const unsigned warps = blockDim.x / kWarpThreads;
    T inclusive[R];
#pragma unroll
    for (int r = 0; r < R; ++r) inclusive[r] = totals[r];
    warp_inclusive_scan<R>(inclusive, op, lane);
    if (lane == kWarpThreads - 1)
#pragma unroll
        for (int r = 0; r < R; ++r) smem.warp_values[r * warps + warp] = inclusive[r];
    __syncthreads();

    if (warp == 0) {
        // The R * warps warp totals, row-major, are split into runs of `per_lane` per lane.
        const unsigned entries = R * warps;
        const unsigned per_lane = (entries + kWarpThreads - 1) / kWarpThreads;  // <= R
        T owned[R];
        T lane_total[1];
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const unsigned e = lane * per_lane + j;
            if (j < per_lane && e < entries) {
                owned[j] = smem.warp_values[e];
                lane_total[0] = j == 0 ? owned[j] : op(lane_total[0], owned[j]);
            }
        }
        // Lanes that own nothing come after every lane that does: their garbage never flows back.
        warp_inclusive_scan<1>(lane_total, op, lane);
        const T lane_exclusive = shfl_up(lane_total[0], 1);
        Partial<T> running{lane_exclusive, lane > 0};
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const unsigned e = lane * per_lane + j;
            if (j < per_lane && e < entries) {
                smem.warp_values[e] = running.value;
                running = combine(running, Partial<T>{owned[j], true}, op);
            }
        }
        const unsigned last_lane = (entries - 1) / per_lane;
        const T tile_aggregate = shfl_idx(lane_total[0], last_lane);
        const Partial<T> tile_prefix = tile_prefix_of(tile_aggregate);
        if (lane == 0) {
            smem.tile_prefix = tile_prefix.value;
            smem.tile_prefix_valid = tile_prefix.valid;
        }
    }
    __syncthreads();

#pragma unroll
    for (int r = 0; r < R; ++r) {
        const T lane_exclusive = shfl_up(inclusive[r], 1);
        Partial<T> p{smem.tile_prefix, smem.tile_prefix_valid};
        const unsigned e = r * warps + warp;
        if (e > 0) p = combine(p, Partial<T>{smem.warp_values[e], true}, op);
        if (lane > 0) p = combine(p, Partial<T>{lane_exclusive, true}, op);
        prefix[r] = p;
    }
}

}  // namespace detail
}  // namespace StreamCompaction
