#pragma once
// The by-key kernel with its tile staged in shared memory by bulk copies (sm_90 and later), as the
// staged scan and select are: the keys (and the values, when the call has an array of them) come in
// by the copy engine, so no thread holds a tile's worth of them in registers, and each item's
// neighbours are read from the tile.
#include <stream_compaction/detail/by_key/kernels.cuh>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/support/operators.cuh>

#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Whether a by-key call's tiles can be staged: keys in 16-byte vectors, and values (when read) of
// the keys' size, so that a thread's keys and values are vectors at the same offsets.
template <class K, class Values>
constexpr bool by_key_stageable() {
    return stageable<K>() && (!Values::reads_values || sizeof(typename Values::value_type) == sizeof(K));
}

// Bit helpers of the run-length encode's closed forms: the mask of bits 0 to `at`, and the highest
// set bit of a nonzero mask.
__device__ __forceinline__ unsigned up_to(unsigned at) { return (2u << at) - 1u; }  // at = 31: all
__device__ __forceinline__ unsigned last_bit(unsigned mask) { return 31u - __clz(mask); }

// A staged by-key tile: each thread owns staged_by_key_vectors() consecutive 16-byte vectors
// of keys (odd: no bank conflicts, as in StagedTile), and the values at the same offsets; without
// values (run_length_encode), room for the offsets of each warp's run starts in its part of the tile.
template <class K, class V, bool ReadsValues>
struct StagedRuns {
    static constexpr int kVectors = staged_by_key_vectors(ReadsValues);
    static constexpr int kThreads = kStagedByKeyPolicy.threads;
    static constexpr int kItems = kVectors * kThreads * vector_items<K>();
    static_assert(kItems / kThreads * kWarpThreads <= 65536, "a warp's offsets fit 16 bits");
    alignas(128) K keys[kItems];
    alignas(128) V values[ReadsValues ? kItems : 1];
    alignas(16) unsigned short run_starts[ReadsValues ? 1 : kItems];
    cuda::barrier<cuda::thread_scope_block> loaded;
};

// reduce_by_key (unique_by_key, run_length_encode) over a staged tile. The same scan of
// RunPair{starts here, value} as reduce_by_key_kernel, over each thread's consecutive items: a first
// pass over the tile finds the run starts and ends and folds the thread's pairs, the block scan and
// look-back give each thread its prefix, and a second pass over the tile writes each run's first
// key and reduced value. run_length_encode, whose values are all one, folds and counts by bit
// arithmetic on the run starts instead. Launched only where compiled for sm_90 and later, with
// 16-byte aligned keys and values.
template <class K, class Values, class ValueOut, class Op, class Equal>
__global__ void __launch_bounds__(kStagedByKeyPolicy.threads,
                                  resident_blocks(kStagedByKeyPolicy.threads, kStagedByKeyPolicy.min_blocks_per_sm))
    staged_reduce_by_key_kernel(ByKeyParams<K, Values, ValueOut, Op, Equal> p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using V = typename Values::value_type;
    using Pair = RunPair<V>;
    constexpr bool kReadsValues = Values::reads_values;
    using Stage = StagedRuns<K, V, kReadsValues>;
    constexpr int VEC = vector_items<K>();
    constexpr int R = Stage::kVectors;
    constexpr unsigned kOwn = R * VEC;  // a thread's items, consecutive
    static_assert(kOwn <= 32, "one bit per item");
    constexpr int Threads = Stage::kThreads;
    constexpr unsigned kTileItems = Stage::kItems;
    using KeyVector = Vector<K, VEC>;
    using ValueVector = Vector<V, VEC>;
    const RunOp<Op> pair_op{p.op};
    auto &stage = shared_storage<Stage>();
    auto &smem = shared_storage<TileScanStorage<Pair, 1>>();
    const auto status = TileStatus<Pair>::at(p.status_storage, p.tiles);
    init_staging_barrier(stage.loaded, Threads);
    const TileAssignment assigned = block_take_tile(smem, p.state, p.call_tag, p.tiles);  // orders the init
    const std::size_t base = static_cast<std::size_t>(assigned.tile) * kTileItems;
    const unsigned valid = p.n - base < kTileItems ? static_cast<unsigned>(p.n - base) : kTileItems;
    if constexpr (kReadsValues) {
        load_staged_tile<Threads>(stage.loaded, valid, kTileItems, stage.keys, p.keys + base, stage.values,
                                  p.values.values + base);
    } else {
        load_staged_tile<Threads>(stage.loaded, valid, kTileItems, stage.keys, p.keys + base);
    }

    const unsigned first = threadIdx.x * kOwn;  // this thread's first item in the tile
    const KeyVector *own_keys = reinterpret_cast<const KeyVector *>(stage.keys + first);
    // This thread's values (read only with values: run_length_encode's ones are counted by bits).
    const auto own_values = [&](int j) { return reinterpret_cast<const ValueVector *>(stage.values + first)[j]; };

    // Bit `at` of starts and ends: this thread's item `at` is the first, the last of its run. The
    // key before the thread's first is the previous thread's last, or the previous tile's.
    unsigned starts = 0;
    K previous{};
    if (first < valid) previous = first > 0 ? stage.keys[first - 1] : base > 0 ? p.keys[base - 1] : previous;
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const KeyVector v = own_keys[j];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned at = j * VEC + k;
            const bool start = first + at < valid && (base + first + at == 0 || !p.equal(previous, v.item[k]));
            starts |= unsigned(start) << at;
            previous = v.item[k];
        }
    }
    // Whether the item after this thread's last starts a run: the next thread's first, or the next
    // tile's; past the input's end the last item ends its run anyway.
    bool next_starts = true;
    if (first + kOwn < valid) {
        next_starts = !p.equal(previous, stage.keys[first + kOwn]);
    } else if (first + kOwn == kTileItems && base + kTileItems < p.n) {
        next_starts = !p.equal(previous, p.keys[base + kTileItems]);
    }
    unsigned ends = 0;
#pragma unroll
    for (unsigned at = 0; at < kOwn; ++at) {
        const bool next = at + 1 < kOwn ? (starts >> (at + 1) & 1u) != 0 : next_starts;
        const bool end = first + at < valid && (base + first + at == p.n - 1 || next);
        ends |= unsigned(end) << at;
    }

    // Items past `valid` (the last tile's) hold unspecified values and start nothing; they come
    // after every valid item, so they reach only their own results, which are not written, and the
    // last tile's aggregate, which no tile reads.
    Pair totals[1];
    if constexpr (kReadsValues) {
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const ValueVector v = own_values(j);
#pragma unroll
            for (int k = 0; k < VEC; ++k) {
                const unsigned at = j * VEC + k;
                const Pair item{starts >> at & 1u, v.item[k]};
                totals[0] = at == 0 ? item : pair_op(totals[0], item);
            }
        }
    } else {
        // run_length_encode sums ones: the fold is the count of starts and of the items from the
        // last start on (all of them without a start).
        totals[0] = Pair{static_cast<unsigned>(__popc(starts)), starts != 0 ? kOwn - last_bit(starts) : kOwn};
    }
    Partial<Pair> prefix[1];
    block_row_prefixes<1>(
        totals, prefix, pair_op,
        [&](const Pair &aggregate) {
            return chained_tile_prefix<Pair>(status, assigned.tile, assigned.epoch, aggregate,
                                             Partial<Pair>{Pair{}, false}, pair_op, p.look_back_delay);
        },
        smem);

    // A run's first item gives its key, its last item its value; item n - 1 the count of runs.
    // Written through the warp's own part of the tile, so that a warp's stores are coalesced (each
    // thread's own items are consecutive, so its runs are far from its neighbours'): the warp's
    // keys, then its values, go to the tile in place, packed, and out from there. A warp's i-th run
    // start (end) is at or after its i-th item, so with the warp's items read first nothing is
    // overwritten before it is read. The neighbours pass 1 read from other warps' parts were read
    // before the block scan's barriers.
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp_first = (threadIdx.x - lane) * kOwn;  // the warp's first item in the tile
    const unsigned heads_before = prefix[0].valid ? prefix[0].value.heads : 0u;  // runs started before `first`
    const unsigned warp_heads_before = __shfl_sync(kFullMask, heads_before, 0);
    // The run of the warp's first item: the warp's first run end is its end.
    const unsigned warp_first_run = __shfl_sync(kFullMask, heads_before + (starts & 1u), 0) - 1;

    K *warp_keys = stage.keys + warp_first;
    unsigned heads = heads_before;
    if constexpr (kReadsValues) {
        K keys[kOwn];
#pragma unroll
        for (int j = 0; j < R; ++j)
#pragma unroll
            for (int k = 0; k < VEC; ++k) keys[j * VEC + k] = own_keys[j].item[k];
        __syncwarp();
#pragma unroll
        for (unsigned at = 0; at < kOwn; ++at) {
            if (starts >> at & 1u) warp_keys[heads++ - warp_heads_before] = keys[at];
        }
        __syncwarp();
        const unsigned warp_keys_out = __shfl_sync(kFullMask, heads, kWarpThreads - 1) - warp_heads_before;
        for (unsigned i = lane; i < warp_keys_out; i += kWarpThreads) p.keys_out[warp_heads_before + i] = warp_keys[i];
    } else {
        // Without values, the tile has room to pack the run starts' offsets instead, and the keys
        // need no registers.
        unsigned short *warp_starts = stage.run_starts + warp_first;
        for (unsigned rest = starts; rest != 0; rest &= rest - 1)
            warp_starts[heads++ - warp_heads_before] = static_cast<unsigned short>(first - warp_first + __ffs(rest) - 1);
        __syncwarp();
        const unsigned warp_keys_out = __shfl_sync(kFullMask, heads, kWarpThreads - 1) - warp_heads_before;
        for (unsigned i = lane; i < warp_keys_out; i += kWarpThreads)
            p.keys_out[warp_heads_before + i] = warp_keys[warp_starts[i]];
    }
    __syncwarp();

    // Without values read (run_length_encode), the counts go where the keys were.
    static_assert(kReadsValues || sizeof(V) <= sizeof(K), "the counts fit in the keys' place");
    V *warp_values = kReadsValues ? stage.values + warp_first : reinterpret_cast<V *>(stage.keys + warp_first);
    const unsigned last = p.n - 1 - base < kTileItems ? static_cast<unsigned>(p.n - 1 - base) : ~0u;
    unsigned values_end = 0;  // past this thread's last packed value
    if constexpr (kReadsValues) {
        V values[kOwn];
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const ValueVector v = own_values(j);
#pragma unroll
            for (int k = 0; k < VEC; ++k) values[j * VEC + k] = v.item[k];
        }
        __syncwarp();
        Partial<Pair> running = prefix[0];
#pragma unroll
        for (unsigned at = 0; at < kOwn; ++at) {
            running = combine(running, Partial<Pair>{Pair{starts >> at & 1u, values[at]}, true}, pair_op);
            // Item 0 starts a run, so every valid item's inclusive count is at least 1.
            const unsigned run = running.value.heads - 1;
            if (ends >> at & 1u) {
                warp_values[run - warp_first_run] = running.value.value;
                values_end = run - warp_first_run + 1;
            }
            if (first + at == last) *p.run_count = running.value.heads;
        }
    } else {
        // run_length_encode: a run's count is the distance from its start to its end, or, for the
        // run this thread's first item continues, the prefix's count on to its end.
        static_assert(std::is_same<Op, Sum>::value, "run_length_encode counts its ones with Sum");
        const unsigned count_before = prefix[0].valid ? prefix[0].value.value : 0u;
        for (unsigned rest = ends; rest != 0; rest &= rest - 1) {
            const unsigned at = __ffs(rest) - 1;
            const unsigned started = starts & up_to(at);
            const unsigned run = heads_before + __popc(started) - 1;
            warp_values[run - warp_first_run] = started != 0 ? at - last_bit(started) + 1 : count_before + at + 1;
            values_end = run - warp_first_run + 1;
        }
        if (last - first < kOwn) *p.run_count = heads_before + __popc(starts & up_to(last - first));
    }
    __syncwarp();
    const unsigned warp_values_out = __reduce_max_sync(kFullMask, values_end);
    for (unsigned i = lane; i < warp_values_out; i += kWarpThreads)
        p.values_out[warp_first_run + i] = static_cast<ValueOut>(warp_values[i]);
#else
    __trap();  // unreachable: launched only where kernel_compiled_for_sm90 holds (runs_staged)
#endif
}

}  // namespace detail
}  // namespace StreamCompaction
