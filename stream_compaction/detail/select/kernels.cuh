#pragma once
// The single-pass select and partition kernels: keep flags and their count scanned by look-back,
// the tile gathered in shared memory and written in coalesced runs. One tile-level step
// (select_tile) serves three kernels, which differ only in where the tile's falses go: nowhere
// (select_kernel), after all the trues in order (stable_partition_kernel, which needs the count of
// all trues first), or from the end of the output backwards (partition_kernel: CUB's
// DevicePartition::If order, which needs no count beforehand).
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

// What a select or partition launch reads and writes. One tile per block, `tiles` blocks.
template <class T, class Keep>
struct SelectParams {
    const T *in;
    T *out;
    std::size_t n;
    Keep keep;
    void *status_storage;    // tile status words of the look-back
    std::size_t tiles;
    CallState *state;        // the call's ticket (call_state.cuh)
    u64 call_tag;
    bool vectorized;         // `in` is aligned for 16-byte loads
    const u64 *total_true;   // stable partition: the count of all trues (its count pass)
    std::size_t *count_out;  // select and partition: the last tile writes the count of trues here
};

// What becomes of a tile's falses in shared memory.
enum class StagedFalses { Dropped, InOrder, Reversed };

// A tile after select_tile: staged in shared memory (staged_tile<T>()) as its kept items at
// [0, kept_here) in order, and its falses at [kept_here, valid) as StagedFalses says.
struct SelectedTile {
    unsigned tile;
    std::size_t base;   // the tile's first item
    std::size_t valid;  // its items
    u64 kept_before;    // trues in earlier tiles (the look-back's exclusive prefix)
    u64 kept_here;      // trues in this tile
};

// The tile in shared memory: the launch's dynamic shared memory, one tile of T.
template <class T>
__device__ __forceinline__ T *staged_tile() {
    extern __shared__ unsigned char staging_raw[];
    return reinterpret_cast<T *>(staging_raw);
}

// Takes a tile, evaluates the keep flags as it loads, scans their count by decoupled look-back and
// stages the tile in shared memory. Ends with a barrier: the staging is complete.
template <StagedFalses Falses, class T, class Keep>
__device__ __forceinline__ SelectedTile select_tile(const SelectParams<T, Keep> &p) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    auto &smem = shared_storage<TileScanStorage<u64, R>>();
    __shared__ u64 tile_kept;
    T *staging = staged_tile<T>();
    const auto status = TileStatus<u64>::at(p.status_storage, p.tiles);

    const TileAssignment assigned = block_take_tile(smem, p.state, p.call_tag, p.tiles);
    const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * VEC * R;
    const std::size_t base = assigned.tile * tile_items;
    const std::size_t valid = p.n - base < tile_items ? p.n - base : tile_items;

    T items[R][VEC];
    load_tile<R, VEC>(p.in + base, items, valid, p.vectorized);
    bool kept[R][VEC];
    u64 totals[R];
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        totals[r] = 0;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t local = r * row_items + threadIdx.x * VEC + k;
            kept[r][k] = local < valid && p.keep(base + local, items[r][k]);
            totals[r] += kept[r][k];
        }
    }

    Partial<u64> prefix[R];
    block_row_prefixes<R>(
        totals, prefix, Sum{},
        [&](const u64 &aggregate) {
            if (threadIdx.x == 0) tile_kept = aggregate;
            return chained_tile_prefix<u64>(status, assigned.tile, assigned.epoch, aggregate, Partial<u64>{0, true},
                                            Sum{});
        },
        smem);
    const u64 kept_before = smem.tile_prefix;
    const u64 kept_here = tile_kept;

    // A kept item goes to its rank among the tile's trues; the j-th false of the tile (j = its
    // index in the tile less the trues before it) to kept_here + j, or to valid - 1 - j reversed.
#pragma unroll
    for (int r = 0; r < R; ++r) {
        u64 rank = prefix[r].value - kept_before;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t local = r * row_items + threadIdx.x * VEC + k;
            const std::size_t false_rank = local - rank;  // the tile's falses before this item
            if (kept[r][k]) staging[rank] = items[r][k];
            else if (Falses == StagedFalses::InOrder && local < valid) staging[kept_here + false_rank] = items[r][k];
            else if (Falses == StagedFalses::Reversed && local < valid) staging[valid - 1 - false_rank] = items[r][k];
            rank += kept[r][k];
        }
    }
    __syncthreads();
    return {assigned.tile, base, valid, kept_before, kept_here};
}

// out[j] = staging[j] for j in [begin, end), coalesced.
template <class T>
__device__ __forceinline__ void write_staged(T *out, std::size_t begin, std::size_t end) {
    const T *staging = staged_tile<T>();
    for (std::size_t j = begin + threadIdx.x; j < end; j += blockDim.x) out[j] = staging[j];
}

// The trues in order, from the front: this tile's after the kept_before of earlier tiles.
template <class T>
__device__ __forceinline__ void write_trues(T *out, const SelectedTile &t) {
    write_staged(out + t.kept_before, 0, t.kept_here);
}

// The last tile knows the count of all trues.
template <class T, class Keep>
__device__ __forceinline__ void write_count_if_last(const SelectParams<T, Keep> &p, const SelectedTile &t) {
    if (t.tile == p.tiles - 1 && threadIdx.x == 0) *p.count_out = t.kept_before + t.kept_here;
}

// select_if, select_flagged: the kept items in order, and their count.
template <class T, class Keep>
__global__ void __launch_bounds__(1024) select_kernel(SelectParams<T, Keep> p) {
    const SelectedTile t = select_tile<StagedFalses::Dropped>(p);
    write_trues(p.out, t);
    write_count_if_last(p, t);
}

// stable_partition: the trues in order, then the falses in order after all the trues, whose count
// (*total_true) the count pass wrote before this launch.
template <class T, class Keep>
__global__ void __launch_bounds__(1024) stable_partition_kernel(SelectParams<T, Keep> p) {
    const SelectedTile t = select_tile<StagedFalses::InOrder>(p);
    write_trues(p.out, t);
    // Falses before this tile: base - kept_before; staged from kept_here on.
    write_staged(p.out + *p.total_true + (t.base - t.kept_before) - t.kept_here, t.kept_here, t.valid);
}

// partition: the trues in order from the front, the falses from the back (the i-th false of the
// input at out[n - 1 - i]), and the count of trues. No tile needs the total, so no count pass.
template <class T, class Keep>
__global__ void __launch_bounds__(1024) partition_kernel(SelectParams<T, Keep> p) {
    const SelectedTile t = select_tile<StagedFalses::Reversed>(p);
    write_trues(p.out, t);
    // The tile's falses f = base - kept_before (those before it) ... f + valid - kept_here - 1 go
    // to out[n - 1 - f] down to out[n - f - (valid - kept_here)]; staged reversed at
    // [kept_here, valid), staging[j] goes to out[n - f - valid + j].
    write_staged(p.out + (p.n - t.base - t.valid) + t.kept_before, t.kept_here, t.valid);
    write_count_if_last(p, t);
}

}  // namespace detail
}  // namespace StreamCompaction
