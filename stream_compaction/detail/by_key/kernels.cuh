#pragma once
// The single-pass by-key kernel: runs of equal consecutive keys found as the tile is loaded, the
// (run starts, value) pairs scanned by decoupled look-back, each run's first key and reduced value
// written at the run's index. One launch, each key and value read once from memory (plus one key
// either side of each warp's row, which the L1 or L2 holds), and no intermediate array.
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/by_key/run_pair.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/grid/decoupled_look_back.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Where the values of the runs come from: a pointer to V (vector-loaded where aligned), or any
// random-access iterator the device can read whose items convert to V (an item at a time).
template <class V, class Input = const V *>
struct ValueArray {
    using value_type = V;
    static constexpr bool reads_values = true;
    Input values;
    bool vectorized;  // `values` is a pointer aligned for the tile's vector loads
    template <int R, int VEC>
    __device__ void load_tile_values(std::size_t base, std::size_t valid, V (&items)[R][VEC]) const {
        load_tile<R, VEC>(values + base, items, valid, vectorized);
    }
};

// run_length_encode: every item counts one, and nothing is read.
struct CountOnes {
    using value_type = unsigned;
    static constexpr bool reads_values = false;
    template <int R, int VEC>
    __device__ void load_tile_values(std::size_t, std::size_t, unsigned (&items)[R][VEC]) const {
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int k = 0; k < VEC; ++k) items[r][k] = 1u;
    }
};

// What a by-key launch reads and writes. One tile per block, `tiles` blocks. The defaults are the
// pointer path's (the staged kernel's only form); KeysIn may be any random-access iterator the
// device can read whose items convert to K, KeysOut any random-access output iterator that takes a
// K, ValuesOut any that takes a ValueOut (the type a run's value is converted to before its store:
// a pointer's item type, else Values::value_type).
template <class K, class Values, class ValueOut, class Op, class Equal, class KeysIn = const K *,
          class KeysOut = K *, class ValuesOut = ValueOut *>
struct ByKeyParams {
    KeysIn keys;
    Values values;          // ValueArray or CountOnes
    KeysOut keys_out;       // run j's first key at keys_out[j]
    ValuesOut values_out;   // run j's values combined in order at values_out[j]
    std::size_t *run_count; // the tile holding item n - 1 writes the number of runs here
    std::size_t n;          // 0 < n < 2^32: counts of run starts are 32-bit
    Op op;
    Equal equal;
    void *status_storage;   // tile status words of the look-back
    std::size_t tiles;
    CallState *state;       // the call's ticket (call_state.cuh)
    u64 call_tag;
    LookBackDelay look_back_delay;
    bool keys_vectorized;   // `keys` is a pointer aligned for 16-byte loads
};

// A tile: rows of VEC keys per thread (one 16-byte access of 4-byte keys), R rows.
template <class K>
__host__ __device__ constexpr int by_key_vector_items() {
    return vector_items<K>();
}

template <class K, class V>
__host__ __device__ constexpr int by_key_rows() {
    constexpr int items = sizeof(K) <= 4 && sizeof(V) <= 4 ? kByKeyItemsPerThread : kByKeyWideItemsPerThread;
    return items / by_key_vector_items<K>() > 0 ? items / by_key_vector_items<K>() : 1;
}

// Bits r * VEC + k of `starts` and `ends`: item (r, k) of this thread is the first, the last item
// of its run. Items at or past `valid` have neither. Every lane of every warp must call this (it
// shuffles); the neighbours across a warp's edge are read from `keys` (a pointer or an iterator).
template <int R, int VEC, class K, class KeysIn, class Equal>
__device__ __forceinline__ void find_run_edges(KeysIn keys, std::size_t n, std::size_t base, std::size_t valid,
                                               const K (&items)[R][VEC], Equal equal, unsigned &starts,
                                               unsigned &ends) {
    static_assert(R * VEC <= 32, "one bit per item");
    const unsigned lane = threadIdx.x % kWarpThreads;
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    starts = 0;
    ends = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const std::size_t first = r * row_items + threadIdx.x * VEC;  // the tile offset of item (r, 0)
        // The item before (r, 0) is the previous lane's last of the row; lane 0's is the previous
        // warp's, row's or tile's, read from memory.
        K before = shfl_up(items[r][VEC - 1], 1);
        if (lane == 0 && first < valid && base + first > 0) before = static_cast<K>(keys[base + first - 1]);
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t i = base + first + k;
            const bool start = first + k < valid && (i == 0 || !equal(k == 0 ? before : items[r][k - 1], items[r][k]));
            starts |= unsigned(start) << (r * VEC + k);
        }
    }
    // An item ends its run where the next one starts one, or where the input ends.
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const std::size_t first = r * row_items + threadIdx.x * VEC;
        unsigned next_starts = __shfl_down_sync(kFullMask, starts >> (r * VEC) & 1u, 1);
        const std::size_t last = base + first + VEC - 1;  // the input index of item (r, VEC - 1)
        if (lane == kWarpThreads - 1 && last + 1 < n)
            next_starts = !equal(items[r][VEC - 1], static_cast<K>(keys[last + 1]));
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const std::size_t i = base + first + k;
            const bool next = k + 1 < VEC ? (starts >> (r * VEC + k + 1) & 1u) : next_starts;
            const bool end = first + k < valid && (i == n - 1 || next);
            ends |= unsigned(end) << (r * VEC + k);
        }
    }
}

// One tile of reduce_by_key (and of unique_by_key and run_length_encode, which are reduce_by_key
// with another operator or other values). The inclusive scan of RunPair{starts here, value} gives
// item i its run's number (heads - 1) and its run's values combined up to i: a run's first item
// writes its key, its last item its value. The item n - 1 writes the count of runs. The pointer
// path's kernel, and the portable one: with iterators (KeysIn, KeysOut, ValuesOut, or Values over
// one) it reads and writes an item at a time. Compiled for a block size of at most Threads and
// MinBlocks blocks an SM (tuning/policies.h).
template <class K, class Values, class ValueOut, class Op, class Equal, int Threads, int MinBlocks,
          class KeysIn = const K *, class KeysOut = K *, class ValuesOut = ValueOut *>
__global__ void __launch_bounds__(Threads, resident_blocks(Threads, MinBlocks))
    reduce_by_key_kernel(ByKeyParams<K, Values, ValueOut, Op, Equal, KeysIn, KeysOut, ValuesOut> p) {
    using V = typename Values::value_type;
    using Pair = RunPair<V>;
    constexpr int VEC = by_key_vector_items<K>();
    constexpr int R = by_key_rows<K, V>();
    const RunOp<Op> pair_op{p.op};
    auto &smem = shared_storage<TileScanStorage<Pair, R>>();
    const auto status = TileStatus<Pair>::at(p.status_storage, p.tiles);

    const TileAssignment assigned = block_take_tile(smem, p.state, p.call_tag, p.tiles);
    const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * VEC * R;
    const std::size_t base = assigned.tile * tile_items;
    const std::size_t valid = p.n - base < tile_items ? p.n - base : tile_items;

    K keys[R][VEC];
    V values[R][VEC];
    load_tile<R, VEC>(p.keys + base, keys, valid, p.keys_vectorized);
    p.values.template load_tile_values<R, VEC>(base, valid, values);
    unsigned starts, ends;
    find_run_edges<R, VEC>(p.keys, p.n, base, valid, keys, p.equal, starts, ends);

    // Items past `valid` (the last tile's) hold unspecified values; they come after every valid
    // item, so they reach only their own results, which are not written, and the last tile's
    // aggregate, which no tile reads.
    Pair totals[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        totals[r] = Pair{starts >> (r * VEC) & 1u, values[r][0]};
#pragma unroll
        for (int k = 1; k < VEC; ++k) totals[r] = pair_op(totals[r], Pair{starts >> (r * VEC + k) & 1u, values[r][k]});
    }

    Partial<Pair> prefix[R];
    block_row_prefixes<R>(
        totals, prefix, pair_op,
        [&](const Pair &aggregate) {
            return chained_tile_prefix<Pair>(status, assigned.tile, assigned.epoch, aggregate,
                                             Partial<Pair>{Pair{}, false}, pair_op, p.look_back_delay);
        },
        smem);

    // Tile offsets in 32 bits: fewer registers. `last` is item n - 1's, or none in this tile.
    const unsigned row_items = blockDim.x * VEC;
    const unsigned last = p.n - 1 - base < tile_items ? static_cast<unsigned>(p.n - 1 - base) : ~0u;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        Partial<Pair> running = prefix[r];
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned bit = 1u << (r * VEC + k);
            running = combine(running, Partial<Pair>{Pair{(starts & bit) ? 1u : 0u, values[r][k]}, true}, pair_op);
            // Item 0 starts a run, so every valid item's inclusive count is at least 1.
            const std::size_t run = static_cast<std::size_t>(running.value.heads) - 1;
            if (starts & bit) p.keys_out[run] = keys[r][k];
            if (ends & bit) p.values_out[run] = static_cast<ValueOut>(running.value.value);
            if (r * row_items + threadIdx.x * VEC + k == last) *p.run_count = running.value.heads;
        }
    }
}

}  // namespace detail
}  // namespace StreamCompaction
