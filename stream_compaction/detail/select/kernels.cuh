#pragma once
// The single-pass select and partition kernel: keep flags and their count scanned by look-back,
// the tile gathered in shared memory and written in coalesced runs. Its three forms differ only in
// where the tile's falses go: nowhere (select), from the end of the output backwards (partition:
// CUB's DevicePartition::If order, which needs no count beforehand), or, for the stable partition,
// either after all the trues in order (which needs the count of all trues first) or from the back
// and turned round afterwards, whichever a sample of the keep flags says moves fewer bytes.
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/decoupled_look_back.cuh>
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Where the keep/drop decision of element i comes from.
template <class Pred>
struct ByPredicate {
    Pred pred;
    template <class T>
    __device__ bool operator()(std::size_t, const T &x) const { return pred(x); }
};

// Flags from a pointer or any random-access iterator the device can read (flag != 0: kept).
template <class Flags>
struct ByFlag {
    using Flag = input_value_t<Flags>;
    Flags flags;
    template <class T>
    __device__ bool operator()(std::size_t i, const T &) const { return flags[i] != Flag(0); }
};

// The stable partition's plan, in temporary storage. Its trues go to their places in one pass
// whatever it does; its falses go either after all the trues, in order, which needs the count of all
// trues first (a count pass: 4 bytes read an item), or from the back, reversed, as partition puts
// them, turned round by reverse_falses_kernel afterwards (8 bytes an item moved for each false).
// The second moves fewer bytes when more than half the items are kept: choose_stable_order_kernel
// decides from a sample. Either way the result is the same; only the bytes moved differ.
struct StableOrder {
    u64 total_true;            // the count pass's count of all trues (0 where it does not run)
    unsigned falses_reversed;  // 1: falses from the back, turned round afterwards; 0: count first
};

constexpr int kStableSamples = 1024;  // items spread evenly over the input, one a thread

// One block: the keep flags of up to kStableSamples items spread evenly over the input choose the
// order (reversed only where the output can be read back, `reversible`), and zero the count. The
// kernels after it are its programmatic dependents (host/launch.cuh's launch_dependent).
template <class T, class Keep, class Input>
__global__ void __launch_bounds__(kStableSamples)
    choose_stable_order_kernel(Input in, std::size_t n, Keep keep, bool reversible, StableOrder *order) {
    allow_dependent_launch();
    const std::size_t samples = reversible ? (n < kStableSamples ? n : kStableSamples) : 0;
    const std::size_t j = threadIdx.x;
    const std::size_t i = j < samples ? j * n / samples : 0;  // < n; j * n < 2^10 * n fits 64 bits
    const int kept = __syncthreads_count(j < samples && keep(i, static_cast<T>(in[i])));
    if (threadIdx.x == 0) {
        order->total_true = 0;
        order->falses_reversed = 2 * static_cast<std::size_t>(kept) > samples;
    }
}

// Counts the trues of the whole input (T's from a pointer or an iterator) into order->total_true,
// zeroed by choose_stable_order_kernel, when the order puts the falses after the trues. Tiles of
// rows of vectors (tuning/policies.h), 16-byte loads where `vectorized`, a grid-stride loop.
template <class T, class Keep, class Input>
__global__ void __launch_bounds__(kCountKeptThreads)
    count_kept_kernel(Input in, std::size_t n, Keep keep, bool vectorized, StableOrder *order) {
    wait_for_prior_grid();  // the order
    allow_dependent_launch();
    if (order->falses_reversed) return;
    constexpr int VEC = vector_items<T>();
    constexpr int R = kCountKeptVectorsPerThread;
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    const std::size_t tile_items = row_items * R;
    u64 count = 0;
    for (std::size_t base = blockIdx.x * tile_items; base < n; base += gridDim.x * tile_items) {
        const std::size_t valid = n - base < tile_items ? n - base : tile_items;
        T items[R][VEC];
        load_tile<R, VEC>(in + base, items, valid, vectorized);
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int k = 0; k < VEC; ++k) {
                const std::size_t local = r * row_items + threadIdx.x * VEC + k;
                count += local < valid && keep(base + local, items[r][k]);
            }
    }
#pragma unroll
    for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) count += __shfl_down_sync(kFullMask, count, offset);
    if (threadIdx.x % kWarpThreads == 0 && count > 0) atomicAdd(&order->total_true, count);
}

// Where the order put the falses from the back, out[*true_count, n) holds them reversed: turns
// them round in place, pair by pair (the j-th from the front with the j-th from the back), in a
// grid-stride loop of kReversePairsPerThread pairs a thread at a time.
template <class T>
__global__ void __launch_bounds__(kReverseThreads)
    reverse_falses_kernel(T *out, std::size_t n, const std::size_t *true_count, const StableOrder *order) {
    wait_for_prior_grid();  // the partition pass, its count of trues
    if (!order->falses_reversed) return;
    const std::size_t first = *true_count;
    const std::size_t pairs = (n - first) / 2;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t j0 = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; j0 < pairs;
         j0 += stride * kReversePairsPerThread) {
        T front[kReversePairsPerThread], back[kReversePairsPerThread];
#pragma unroll
        for (int u = 0; u < kReversePairsPerThread; ++u) {
            const std::size_t j = j0 + u * stride;
            if (j < pairs) {
                front[u] = out[first + j];
                back[u] = out[n - 1 - j];
            }
        }
#pragma unroll
        for (int u = 0; u < kReversePairsPerThread; ++u) {
            const std::size_t j = j0 + u * stride;
            if (j < pairs) {
                out[first + j] = back[u];
                out[n - 1 - j] = front[u];
            }
        }
    }
}

// What a select or partition launch reads and writes. One tile per block, `tiles` blocks. The items
// are T's, read from `in` (a pointer to T, or any random-access iterator the device can read whose
// items convert to T) and written to `out` (a pointer to T, or any random-access output iterator
// that takes a T: discard, transform output, another pointer type).
template <class T, class Keep, class Input = const T *, class Output = T *>
struct SelectParams {
    Input in;
    Output out;
    std::size_t n;
    Keep keep;
    void *status_storage;    // tile status words of the look-back
    std::size_t tiles;
    CallState *state;        // the call's ticket (call_state.cuh)
    u64 call_tag;
    LookBackDelay look_back_delay;
    bool vectorized;         // `in` is a pointer aligned for 16-byte loads
    const StableOrder *order;  // stable partition: where its falses go, and the count of all trues
    std::size_t *count_out;    // the last tile writes the count of trues here
};

// What becomes of a tile's falses in shared memory: dropped (select), reversed (partition), or
// in order or reversed as params.order says (stable partition).
enum class StagedFalses { Dropped, Reversed, AsOrdered };

// A tile after select_tile: staged in shared memory (staged_tile<T>()) as its kept items at
// [0, kept_here) in order, and its falses at [kept_here, valid) as StagedFalses says.
struct SelectedTile {
    unsigned tile;
    std::size_t base;   // the tile's first item
    std::size_t valid;  // its items
    u64 kept_before;    // trues in earlier tiles (the look-back's exclusive prefix)
    u64 kept_here;      // trues in this tile
    bool reversed;      // its falses staged, and written, in reverse order
};

// The tile in shared memory: the launch's dynamic shared memory, one tile of T.
template <class T>
__device__ __forceinline__ T *staged_tile() {
    extern __shared__ unsigned char staging_raw[];
    return reinterpret_cast<T *>(staging_raw);
}

// The trues of the tile before each of this thread's rows, and, in shared memory for the block,
// the trues of every earlier tile (the look-back, in 64 bits) and of this tile.
template <int R>
__device__ __forceinline__ void count_kept_before(const unsigned (&totals)[R], Partial<unsigned> (&prefix)[R],
                                                  const TileStatus<u64> &status, TileAssignment assigned,
                                                  LookBackDelay delay, u64 &kept_before_tile, unsigned &tile_kept,
                                                  TileScanStorage<unsigned, R> &smem) {
    block_row_prefixes<R>(
        totals, prefix, Sum{},
        [&](const unsigned &aggregate) {
            const Partial<u64> before = chained_tile_prefix<u64>(status, assigned.tile, assigned.epoch, aggregate,
                                                                 Partial<u64>{0, true}, Sum{}, delay);
            if (threadIdx.x == 0) {
                kept_before_tile = before.value;
                tile_kept = aggregate;
            }
            return Partial<unsigned>{0, true};
        },
        smem);
}

// Takes a tile, evaluates the keep flags as it loads, scans their count by decoupled look-back and
// stages the tile in shared memory. Ends with a barrier: the staging is complete.
//
// Counts inside a tile fit in 32 bits, so the block scans 32-bit counts (fewer registers, more
// blocks per SM); only the look-back, run by warp 0 inside the block scan, works in 64 bits, and
// hands the trues before the tile to the block through shared memory.
template <StagedFalses Falses, class T, class Keep, class Input, class Output>
__device__ __forceinline__ SelectedTile select_tile(const SelectParams<T, Keep, Input, Output> &p) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kSinglePassVectorsPerThread;
    auto &smem = shared_storage<TileScanStorage<unsigned, R>>();
    __shared__ u64 kept_before_tile;
    __shared__ unsigned tile_kept;
    T *staging = staged_tile<T>();
    const auto status = TileStatus<u64>::at(p.status_storage, p.tiles);
    bool reversed = Falses == StagedFalses::Reversed;
    if constexpr (Falses == StagedFalses::AsOrdered) {
        wait_for_prior_grid();  // a programmatic dependent of the count pass: its order and count
        allow_dependent_launch();
        reversed = p.order->falses_reversed;
    }

    const TileAssignment assigned = block_take_tile(smem, p.state, p.call_tag, p.tiles);
    const unsigned tile_items = blockDim.x * VEC * R;
    const std::size_t base = static_cast<std::size_t>(assigned.tile) * tile_items;
    const unsigned valid = p.n - base < tile_items ? static_cast<unsigned>(p.n - base) : tile_items;

    T items[R][VEC];
    load_tile<R, VEC>(p.in + base, items, valid, p.vectorized);
    using KeptBits = std::conditional_t<(R * VEC <= 32), unsigned, u64>;
    KeptBits kept = 0;  // bit r * VEC + k: item (r, k) is kept
    unsigned totals[R];
    const unsigned row_items = blockDim.x * VEC;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        totals[r] = 0;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned local = r * row_items + threadIdx.x * VEC + k;
            const bool keep = local < valid && p.keep(base + local, items[r][k]);
            kept |= KeptBits(keep) << (r * VEC + k);
            totals[r] += keep;
        }
    }

    Partial<unsigned> prefix[R];  // trues of the tile before this thread's row r
    count_kept_before(totals, prefix, status, assigned, p.look_back_delay, kept_before_tile, tile_kept, smem);
    const u64 kept_before = kept_before_tile;
    const unsigned kept_here = tile_kept;

    // A kept item goes to its rank among the tile's trues; the j-th false of the tile (j = its
    // index in the tile less the trues before it) to kept_here + j, or to valid - 1 - j reversed.
#pragma unroll
    for (int r = 0; r < R; ++r) {
        unsigned rank = prefix[r].value;
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned local = r * row_items + threadIdx.x * VEC + k;
            const unsigned false_rank = local - rank;  // the tile's falses before this item
            const bool keep = kept >> (r * VEC + k) & 1u;
            if (keep) staging[rank] = items[r][k];
            else if (Falses != StagedFalses::Dropped && local < valid)
                staging[reversed ? valid - 1 - false_rank : kept_here + false_rank] = items[r][k];
            rank += keep;
        }
    }
    __syncthreads();
    return {assigned.tile, base, valid, kept_before, kept_here, reversed};
}

// out[j] = staging[j] for j in [begin, end), coalesced.
template <class T, class Output>
__device__ __forceinline__ void write_staged(Output out, std::size_t begin, std::size_t end) {
    const T *staging = staged_tile<T>();
    for (std::size_t j = begin + threadIdx.x; j < end; j += blockDim.x) out[j] = staging[j];
}

// The trues in order, from the front: this tile's after the kept_before of earlier tiles.
template <class T, class Output>
__device__ __forceinline__ void write_trues(Output out, const SelectedTile &t) {
    write_staged<T>(out + t.kept_before, 0, t.kept_here);
}

// The last tile knows the count of all trues.
template <class T, class Keep, class Input, class Output>
__device__ __forceinline__ void write_count_if_last(const SelectParams<T, Keep, Input, Output> &p,
                                                    const SelectedTile &t) {
    if (t.tile == p.tiles - 1 && threadIdx.x == 0) *p.count_out = t.kept_before + t.kept_here;
}

// The select and partition kernel: what becomes of the tile's falses (Falses) makes it select_if
// and select_flagged (Dropped: the kept items in order, and their count), partition (Reversed: the
// falses from the back, the i-th false of the input at out[n - 1 - i], and the count of trues; no
// tile needs the total, so no count pass) or stable_partition (AsOrdered: either the falses in
// order after all the trues, whose count order->total_true the count pass wrote before this
// launch, or reversed as partition's, for reverse_falses_kernel to turn round). Compiled for a
// block size of at most Threads and MinBlocks blocks an SM (tuning/policies.h).
template <StagedFalses Falses, class T, class Keep, class Input, class Output, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, resident_blocks(Threads, MinBlocks))
    select_kernel(SelectParams<T, Keep, Input, Output> p) {
    const SelectedTile t = select_tile<Falses>(p);
    write_trues<T>(p.out, t);
    if constexpr (Falses != StagedFalses::Dropped) {
        // In order: falses before this tile, base - kept_before, after all the trues; staged from
        // kept_here on. Reversed: the tile's falses f = base - kept_before (those before it) ...
        // f + valid - kept_here - 1 go to out[n - 1 - f] down to out[n - f - (valid - kept_here)];
        // staged reversed at [kept_here, valid), staging[j] goes to out[n - f - valid + j].
        const std::size_t staged_at = Falses == StagedFalses::Reversed || t.reversed
                                          ? (p.n - t.base - t.valid) + t.kept_before
                                          : p.order->total_true + (t.base - t.kept_before) - t.kept_here;
        write_staged<T>(p.out + staged_at, t.kept_here, t.valid);
    }
    write_count_if_last(p, t);
}

// select_if and select_flagged with the tile staged in shared memory by bulk copies (sm_90 and
// later; the scan's StagedTile, sized by the select's policy). Each warp owns a contiguous part of
// the tile, in rows of 32 vectors (lane l holds vector l of each row), and compacts its kept items
// in place, row by row: a kept item moves to its rank among its warp's trues, never past itself,
// and each row is read by every lane before any lane writes into it, so a write only lands where
// every lane has read. Then each warp stores its trues, contiguous, after those of earlier warps
// and tiles. No second staging buffer: the tile's shared memory is all the block needs. (Rows of
// one item a lane, ranked by a ballot, were slower: 0.559 ms at 2^28 with 5% kept, against 0.520
// with rows of vectors, both in 9-vector tiles.)
template <class T, class Keep>
__global__ void __launch_bounds__(kStagedSelectPolicy.threads,
                                  resident_blocks(kStagedSelectPolicy.threads, kStagedSelectPolicy.min_blocks_per_sm))
    staged_select_kernel(SelectParams<T, Keep> p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int VEC = vector_items<T>();
    constexpr int R = kStagedSelectVectorsPerThread;
    constexpr int Threads = kStagedSelectPolicy.threads;
    constexpr unsigned kWarpItems = R * kWarpThreads * VEC;  // a warp's part of the tile
    static_assert(R * VEC <= 64, "a lane's keep bits fit 64 bits");
    using Stage = StagedTile<T, R>;
    using Row = Vector<T, VEC>;
    constexpr unsigned kTileItems = Stage::kItems;
    auto &stage = shared_storage<Stage>();
    auto &smem = shared_storage<TileScanStorage<unsigned, 1>>();
    __shared__ u64 kept_before_tile;
    __shared__ unsigned tile_kept;
    const auto status = TileStatus<u64>::at(p.status_storage, p.tiles);
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    init_staging_barrier(stage.loaded, Threads);
    const TileAssignment assigned = block_take_tile(smem, p.state, p.call_tag, p.tiles);  // orders the init
    const std::size_t base = static_cast<std::size_t>(assigned.tile) * kTileItems;
    const unsigned valid = p.n - base < kTileItems ? static_cast<unsigned>(p.n - base) : kTileItems;
    load_staged_tile<Threads>(stage.loaded, valid, kTileItems, stage.items, p.in + base);

    // Keep flags: bit j * VEC + k is item k of this lane's vector in row j of its warp's part. A
    // keep test that compares an item with the one before (unique) gets it from the tile: the bulk
    // copy leaves nothing in the L1 cache, where the register kernel finds it.
    constexpr bool kReadsPrevious = std::is_invocable_r_v<bool, const Keep &, std::size_t, const T &, const T &>;
    T *part = stage.items + warp * kWarpItems;
    u64 kept = 0;
    unsigned count[1] = {0};
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const Row v = reinterpret_cast<const Row *>(part)[j * kWarpThreads + lane];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned local = warp * kWarpItems + (j * kWarpThreads + lane) * VEC + k;
            bool keep = false;
            if constexpr (kReadsPrevious) {
                if (local < valid) {
                    const std::size_t i = base + local;
                    const T previous = k > 0 ? v.item[k - 1] : local > 0 ? stage.items[local - 1] : p.in[i - (i > 0)];
                    keep = p.keep(i, v.item[k], previous);
                }
            } else {
                keep = local < valid && p.keep(base + local, v.item[k]);
            }
            kept |= u64(keep) << (j * VEC + k);
            count[0] += keep;
        }
    }
    Partial<unsigned> prefix[1];  // trues of the tile before this thread's
    count_kept_before(count, prefix, status, assigned, p.look_back_delay, kept_before_tile, tile_kept, smem);
    const unsigned warp_prefix = shfl_idx(prefix[0].value, 0);  // lane 0's: the trues of earlier warps

    // In place, row by row: every lane reads its vector of row j, then the trues are written from
    // the warp's kept count so far (rows before j) on.
    unsigned row_base = 0;
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const Row v = reinterpret_cast<const Row *>(part)[j * kWarpThreads + lane];
        const unsigned bits = static_cast<unsigned>(kept >> (j * VEC)) & ((1u << VEC) - 1u);
        unsigned before_lane[1] = {static_cast<unsigned>(__popc(bits))};
        warp_inclusive_scan<1>(before_lane, Sum{}, lane);
        const unsigned row_kept = shfl_idx(before_lane[0], kWarpThreads - 1);
        unsigned at = row_base + before_lane[0] - static_cast<unsigned>(__popc(bits));
        __syncwarp();  // row j is read by every lane before any lane writes into it
#pragma unroll
        for (int k = 0; k < VEC; ++k)
            if (bits >> k & 1u) part[at++] = v.item[k];
        row_base += row_kept;
    }
    __syncwarp();
    T *out = p.out + kept_before_tile + warp_prefix;
    for (unsigned i = lane; i < row_base; i += kWarpThreads) out[i] = part[i];
    if (assigned.tile == p.tiles - 1 && threadIdx.x == 0) *p.count_out = kept_before_tile + tile_kept;
#else
    __trap();  // unreachable: launched only where kernel_compiled_for_sm90 holds (runs_staged)
#endif
}

}  // namespace detail
}  // namespace StreamCompaction
