#pragma once
// Segmented reduction on the load-balancing search (device/segmented_reduce.cuh's
// transform_segmented_reduce): each item's value comes from f(index, segment, rank), staged per
// tile in shared memory in index order, and each segment's values are combined in order, so any
// associative operator works, commutative or not.
//
// Where a segment lies: inside one block (its tiles run one after another, the open segment's
// partial carried from tile to tile in shared memory), its total goes straight to out. A segment
// that crosses a block boundary leaves records instead: each block writes at most two, A for its
// first segment when that began in an earlier block and ends in this one, B for the segment still
// open at its end (also when it began before the block: then A is absent). The records of one
// segment are consecutive, so reduce_by_key over the 2 * blocks records, keyed by segment, in
// block order, gives each such segment's total, which scatter_segment_totals writes. An absent
// record takes its block's other record's key (a value marked empty), so it never splits a run.
#include <stream_compaction/detail/load_balance/kernels.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// A value or none: partial reductions of item ranges that may be empty, with no identity needed.
template <class V>
struct MaybeValue {
    V value;
    bool valid;
};

// op on MaybeValues, in order: none is the identity.
template <class Op>
struct MaybeOp {
    Op op;
    template <class V>
    __host__ __device__ MaybeValue<V> operator()(const MaybeValue<V> &a, const MaybeValue<V> &b) const {
        if (!a.valid) return b;
        if (!b.valid) return a;
        return {op(a.value, b.value), true};
    }
};

// Stages f's value of each item of the tile: values[index - item_start].
template <class V, class F>
struct StageItemValue {
    F f;
    V *values;
    long long item_start;
    __device__ void operator()(long long index, long long segment, long long rank) const {
        values[index - item_start] = f(index, segment, rank);
    }
};

// Rows at most this long are combined by one thread; longer ones by a warp (contiguous chunks per
// lane, then a tree over the lanes that keeps their order).
constexpr int kLbsReduceThreadRow = 32;

template <class V, class Op>
__device__ MaybeValue<V> reduce_range(const V *values, int begin, int end, Op op) {
    MaybeValue<V> total{V{}, begin < end};
    if (begin < end) {
        total.value = values[begin];
        for (int j = begin + 1; j < end; ++j) total.value = op(total.value, values[j]);
    }
    return total;
}

// The tile: it stages an item value per step besides the search's own staging.
constexpr int kLbsReduceItemsPerThread = kLbsItemsPerThreadStaged;
using LbsReduceTileStorage = LbsTileStorage<char, kLbsReduceItemsPerThread>;
constexpr int kLbsReduceTileSteps = LbsReduceTileStorage::kSteps;

template <class V>
struct LbsReduceStorage {
    V values[kLbsReduceTileSteps];  // the tile's item values, in index order
    MaybeValue<V> carry;        // the open segment's partial so far in this block
    MaybeValue<V> next_carry;   // the tile's open row, until the carry may be replaced
    bool carry_began_before;    // the open segment began before the block (its total is not the block's to write)
    long long record_a_segment; // the block's record A: -1 while none
    MaybeValue<V> record_a;
};

template <class V, class Offset, class F, class Op>
__global__ void __launch_bounds__(kLbsThreads)
    transform_segmented_reduce_kernel(const Offset *offsets, long long segments, long long n, F f, Op op, V identity,
                                      V *out, long long *record_segments, MaybeValue<V> *records) {
    __shared__ LbsReduceTileStorage tile;
    __shared__ LbsReduceStorage<V> reduce;
    __shared__ long long block_corners[kLbsTilesPerBlock + 1];
    const long long path_length = segments + n;
    const auto [first_tile, block_tiles] = lbs_block_corners(offsets, segments, n, kLbsReduceTileSteps, block_corners);
    clear_tile_rows(tile);
    const MaybeOp<Op> maybe_op{op};
    const unsigned lane = threadIdx.x % kWarpThreads;
    const int warp = static_cast<int>(threadIdx.x / kWarpThreads), warps = static_cast<int>(blockDim.x / kWarpThreads);
    __syncthreads();
    for (int t = 0; t < block_tiles; ++t) {
        const long long diagonal_start = (first_tile + t) * kLbsReduceTileSteps;
        const long long row_start = block_corners[t], item_start = diagonal_start - row_start;
        if (threadIdx.x < 2) tile.corners[threadIdx.x] = block_corners[t + threadIdx.x];
        __syncthreads();
        NoSegmentValues none;
        StageItemValue<V, F> stage{f, reduce.values, item_start};
        lbs_tile(offsets, segments, diagonal_start, path_length, t, none, stage, tile);
        if (t == 0 && threadIdx.x == 0) {
            reduce.carry = {V{}, false};
            reduce.carry_began_before = tile.first_begin < item_start;
            reduce.record_a_segment = -1;
        }
        __syncthreads();
        // As lbs_tile: rows 0 .. tile_rows - 1 end in the tile, row tile_rows is still open.
        const long long diagonal_end =
            diagonal_start + kLbsReduceTileSteps < path_length ? diagonal_start + kLbsReduceTileSteps : path_length;
        const int tile_length = static_cast<int>(diagonal_end - diagonal_start);
        const long long corner_rows = block_corners[t + 1] - row_start;
        const int tile_rows = corner_rows < 0 ? 0 : corner_rows > tile_length ? tile_length : static_cast<int>(corner_rows);
        const auto row_begin = [&](int r) { return r == 0 ? 0 : tile.row_ends[r - 1]; };
        // A row's combined values: the carry first for row 0, then where the total goes.
        const auto finish_row = [&](int r, MaybeValue<V> portion) {
            const long long segment = row_start + r;
            if (segment >= segments) return;
            if (r == 0) portion = maybe_op(reduce.carry, portion);
            if (r < tile_rows) {
                if (r == 0 && reduce.carry_began_before) {
                    reduce.record_a_segment = segment;
                    reduce.record_a = portion;
                } else {
                    out[segment] = portion.valid ? portion.value : identity;
                }
            } else {
                reduce.next_carry = portion;
            }
        };
        for (int r = threadIdx.x; r <= tile_rows; r += blockDim.x) {
            const int begin = row_begin(r), end = tile.row_ends[r];
            if (end - begin <= kLbsReduceThreadRow) finish_row(r, reduce_range(reduce.values, begin, end, op));
        }
        for (int base = warp * kWarpThreads; base <= tile_rows; base += warps * kWarpThreads) {
            const int mine = base + static_cast<int>(lane);
            unsigned long_rows = __ballot_sync(kFullMask, mine <= tile_rows && tile.row_ends[mine] - row_begin(mine) >
                                                                                   kLbsReduceThreadRow);
            while (long_rows) {
                const int r = base + __ffs(long_rows) - 1;
                long_rows &= long_rows - 1;
                const int begin = row_begin(r), end = tile.row_ends[r];
                const int chunk = (end - begin + kWarpThreads - 1) / kWarpThreads;
                const int from = begin + static_cast<int>(lane) * chunk;
                MaybeValue<V> part = reduce_range(reduce.values, from < end ? from : end, from + chunk < end ? from + chunk : end, op);
                for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
                    const MaybeValue<V> later = shfl_down(part, offset);
                    if (lane % (2 * offset) == 0) part = maybe_op(part, later);
                }
                if (lane == 0) finish_row(r, part);
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            reduce.carry = reduce.next_carry;
            if (tile_rows > 0) reduce.carry_began_before = false;
        }
        __syncthreads();  // the next tile overwrites the staging and reads the carry
    }
    if (threadIdx.x == 0 && block_tiles > 0) {
        // Record B: the segment still open at the block's end (none past the last segment).
        const long long open_segment = block_corners[block_tiles];
        const long long a = reduce.record_a_segment;
        const long long b = open_segment < segments ? open_segment : -1;
        const long long unique_none = -2 - static_cast<long long>(blockIdx.x);
        record_segments[2 * blockIdx.x] = a >= 0 ? a : b >= 0 ? b : unique_none;
        records[2 * blockIdx.x] = a >= 0 ? reduce.record_a : MaybeValue<V>{V{}, false};
        record_segments[2 * blockIdx.x + 1] = b >= 0 ? b : a >= 0 ? a : unique_none;
        records[2 * blockIdx.x + 1] = b >= 0 ? reduce.carry : MaybeValue<V>{V{}, false};
    }
}

// out[segment] = the total of each run of records that reduce_by_key made. Skipped: runs of absent
// records alone (segment < 0), and runs with no value, whose segment has no items on this side of
// the boundary (a block ended right before its first item): the block that holds it writes it.
template <class V>
__global__ void scatter_segment_totals(const long long *segments, const MaybeValue<V> *totals, const std::size_t *runs,
                                       V *out) {
    const std::size_t count = *runs;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        if (segments[i] >= 0 && totals[i].valid) out[segments[i]] = totals[i].value;
}

}  // namespace detail
}  // namespace StreamCompaction
