#pragma once
// Block-level pieces of the single-pass kernels. A tile is R rows of blockDim.x * VEC items; in
// each row thread t owns VEC consecutive items, so a row is one fully coalesced 16-byte access per
// thread, and the tile's order is row-major: (row, thread, item).
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

// Items of T per 16-byte access; types that do not divide 16 bytes move one at a time.
template <class T>
__host__ __device__ constexpr int vector_items() {
    return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;
}

// The alignment of VEC consecutive Ts moved as one access: the largest power of two, at most 16,
// that divides their size (8 for two ints, 2 for two bytes).
template <class T, int VEC>
__host__ __device__ constexpr std::size_t vector_alignment() {
    std::size_t bytes = sizeof(T) * VEC, alignment = 1;
    while (alignment < 16 && bytes % (alignment * 2) == 0) alignment *= 2;
    return alignment < alignof(T) ? alignof(T) : alignment;
}

template <class T, int VEC>
struct alignas(vector_alignment<T, VEC>()) Vector {
    T item[VEC];
};

// The most threads an SM holds on the GPU the device code is compiled for (the host pass, which
// ignores launch bounds, sees 2048).
constexpr int max_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || \
                                 __CUDA_ARCH__ >= 1200)
    return 1536;
#else
    return 2048;
#endif
}

// The blocks an SM is asked to hold in a kernel's launch bounds: a policy's min_blocks_per_sm,
// at most what fits the SM's threads (asking for more is ignored, with a warning from ptxas).
constexpr int resident_blocks(int threads, int min_blocks_per_sm) {
    return min_blocks_per_sm * threads <= max_threads_per_sm() ? min_blocks_per_sm : max_threads_per_sm() / threads;
}

template <class T, int R>
struct TileScanStorage {
    T warp_values[R * kWarpThreads];  // warp totals, then their exclusive prefixes (entry 0: none)
    T tile_prefix;
    bool tile_prefix_valid;
    TileAssignment assigned;
};

// Shared memory for types without trivial constructors: raw, aligned bytes.
template <class Storage>
__device__ __forceinline__ Storage &shared_storage() {
    __shared__ alignas(16) unsigned char raw[sizeof(Storage)];
    return *reinterpret_cast<Storage *>(raw);
}

// The block's tile and the launch's epoch, taken from the call state by thread 0 and shared with
// the block.
template <class Storage>
__device__ __forceinline__ TileAssignment block_take_tile(Storage &smem, CallState *state, u64 call_tag,
                                                          std::size_t tiles) {
    if (threadIdx.x == 0) smem.assigned = take_tile(state, call_tag, tiles);
    __syncthreads();
    return smem.assigned;
}

// Loads a row-striped tile; `valid` items from `in` (a tile's start). Full tiles use one vector load
// per row when `vectorized` (the memory is aligned to vector_alignment<T, VEC>()).
template <int R, int VEC, class T>
__device__ __forceinline__ void load_tile(const T *in, T (&items)[R][VEC], std::size_t valid, bool vectorized) {
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    if (vectorized && valid == row_items * R) {
        const auto *vectors = reinterpret_cast<const Vector<T, VEC> *>(in);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const Vector<T, VEC> v = vectors[r * blockDim.x + threadIdx.x];
#pragma unroll
            for (int k = 0; k < VEC; ++k) items[r][k] = v.item[k];
        }
        return;
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

// The look-back step of a tile, for warp 0: publish, look back (sleeping as `delay` says),
// publish. `first_prefix` is what comes before tile 0 (the exclusive scan's init, or nothing). A
// tile whose aggregate restarts the scan publishes it as final at once, so later tiles never wait
// on this tile's look-back.
template <class T, class Op, class Status>
__device__ __forceinline__ Partial<T> chained_tile_prefix(const Status &status, unsigned tile, u64 epoch,
                                                          const T &aggregate, const Partial<T> &first_prefix, Op op,
                                                          LookBackDelay delay) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    if (tile == 0) {
        if (lane == 0)
            status.publish(0, combine(first_prefix, Partial<T>{aggregate, true}, op).value, epoch << 1 | 1);
        return first_prefix;
    }
    const bool final_at_once = restarts_scan(op, aggregate);
    if (lane == 0) status.publish(tile, aggregate, epoch << 1 | (final_at_once ? 1 : 0));
    const T exclusive = look_back<T>(status, tile, epoch, op, lane, delay);
    if (lane == 0 && !final_at_once) status.publish(tile, op(exclusive, aggregate), epoch << 1 | 1);
    return {exclusive, true};
}

}  // namespace detail
}  // namespace StreamCompaction
