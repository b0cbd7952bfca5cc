#pragma once
// The chunked reduction's kernels: one launch on a grid sized to the GPU; each thread folds its
// share of the input sequentially (Brent: O(n / p) steps on p threads, then O(log p) to combine),
// the block's threads are combined in order (block_reduce.cuh), and the blocks by `done`: the
// last block to finish (grid/last_block.cuh), one atomic each (atomics.cuh), or the first block of
// a one-cluster grid (grid/cluster_done.cuh); done.begin() is each kernel's first step. Every block
// gets a non-empty part of the input; in the ordered kernel the parts are contiguous and follow
// each other in block order.
#include <stream_compaction/detail/block/block_reduce.cuh>
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/reduce/folds.cuh>
#include <stream_compaction/detail/warp/warp_reduce.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// ---- striped: operators that commute (is_commutative) ----
//
// Block b folds tiles b, b + gridDim.x, b + 2 * gridDim.x, ... of the input, so that at any time
// the blocks read one window of the array (H100, 2^28 ints: 0.999x CUB's sum over three rounds,
// against 0.991x when each block read a contiguous part, about a thousand streams for the DRAM).
// A tile is kReduceVectorsPerThread rows of blockDim.x vectors of VEC items, row-major, so that
// each load instruction of a warp reads 512 contiguous bytes and every thread has all its loads of
// a tile in flight before it combines any. A thread's items are a row apart, and a block's tiles
// far apart: commutative operators only. The grid is at most the tiles, so every block has one.
template <class T, class Op, class Items, class BlocksDone, bool Vectorized>
__global__ void __launch_bounds__(1024) striped_reduce_kernel(Items items, std::size_t n, Op op, BlocksDone done) {
    done.begin();
    constexpr int VEC = vector_items<T>();
    constexpr int R = kReduceVectorsPerThread;
    const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
    const std::size_t tile_items = row_items * R;
    const std::size_t full_tiles = n / tile_items;
    const std::size_t mine = static_cast<std::size_t>(threadIdx.x) * VEC;

    const auto fold_tile = [&](std::size_t base) {
        T v[R][VEC];
#pragma unroll
        for (int r = 0; r < R; ++r) items.template vector<VEC, Vectorized>(base + r * row_items + mine, v[r]);
        T total = thread_reduce<VEC>(v[0], op);
#pragma unroll
        for (int r = 1; r < R; ++r) total = op(total, thread_reduce<VEC>(v[r], op));
        return total;
    };

    Partial<T> acc;
    acc.valid = false;
    std::size_t tile = blockIdx.x;
    if (tile < full_tiles) {  // full tiles: every thread has all its items
        acc = {fold_tile(tile * tile_items), true};
        for (tile += gridDim.x; tile < full_tiles; tile += gridDim.x) acc.value = op(acc.value, fold_tile(tile * tile_items));
    }
    // The input's last tile, when partial, is the block's whose stride reaches it: whole vectors
    // where they end by n, all loaded before any is combined (as in a full tile: the loads'
    // latencies overlap), then the items after them one by one. Thread t has items there iff
    // t * VEC is below the rest, so those threads are a prefix.
    if (tile == full_tiles) {
        const std::size_t base = full_tiles * tile_items + mine;
        T v[R][VEC];
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (base + r * row_items + VEC <= n) items.template vector<VEC, Vectorized>(base + r * row_items, v[r]);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const std::size_t first = base + r * row_items;
            if (first + VEC <= n) {
                const T total = thread_reduce<VEC>(v[r], op);
                acc = {acc.valid ? op(acc.value, total) : total, true};
            } else {
#pragma unroll
                for (int k = 0; k < VEC; ++k)
                    if (first + k < n) {
                        const T x = items.item(first + k);
                        acc = {acc.valid ? op(acc.value, x) : x, true};
                    }
            }
        }
    }

    const T block_total = block_reduce_prefix(acc.value, acc.valid, op, shared_storage<BlockReduceStorage<T>>());
    done(block_total, op);
}

// ---- one tile: commutative operators, inputs of at most one striped tile ----
//
// The striped kernel's tile in one block with 32-bit indices, no tile loop and no blocks to
// combine: the shape of CUB's single-tile kernel. A whole tile is loaded with no bounds, and once
// every thread has an item (the first row is full) the block combines without validity, in a
// warp's one instruction where the hardware has it (block_reduce_all). H100, 4096 ints, ten calls in
// one graph: 1.49-1.51 us a call (CUB: 1.48-1.50), from 1.66-1.72 with the validity carried.
template <class T, class Op, class Items, class Finish, bool Vectorized>
__global__ void __launch_bounds__(1024) single_tile_reduce_kernel(Items items, unsigned n, Op op, Finish finish) {
    constexpr int VEC = vector_items<T>();
    constexpr int R = kReduceVectorsPerThread;
    const unsigned row_items = blockDim.x * VEC;
    const unsigned mine = threadIdx.x * VEC;
    T v[R][VEC];
    T acc{};
    if (n == row_items * R) {
#pragma unroll
        for (int r = 0; r < R; ++r) items.template vector<VEC, Vectorized>(mine + r * row_items, v[r]);
        acc = thread_reduce<VEC>(v[0], op);
#pragma unroll
        for (int r = 1; r < R; ++r) acc = op(acc, thread_reduce<VEC>(v[r], op));
    } else {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (mine + r * row_items + VEC <= n) items.template vector<VEC, Vectorized>(mine + r * row_items, v[r]);
        // A thread's items come in order of r, then k: its first is r = 0, k = 0, present iff mine < n.
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const unsigned first = mine + r * row_items;
            if (first + VEC <= n) {
                const T total = thread_reduce<VEC>(v[r], op);
                acc = r == 0 ? total : op(acc, total);
            } else {
#pragma unroll
                for (int k = 0; k < VEC; ++k)
                    if (first + k < n) acc = r == 0 && k == 0 ? items.item(first) : op(acc, items.item(first + k));
            }
        }
    }
    auto &storage = shared_storage<BlockReduceStorage<T>>();
    const T total = n >= row_items ? block_reduce_all(acc, op, storage) : block_reduce_prefix(acc, mine < n, op, storage);
    if (threadIdx.x == 0) finish(total);
}

// ---- ordered: any operator ----
//
// Every lane folds one contiguous chunk: pieces_per_lane pieces of PIECE items, lane g's chunk
// starting at item g * pieces_per_lane * PIECE. So lanes, warps and blocks hold consecutive parts
// of the input, and the fold, the block's combine and the blocks' are all in input order.
//
// The chunks are read step by step: at each step the warp loads the next piece of each of its 32
// lanes' chunks, R vectors each, with each load instruction reading whole pieces (R lanes share
// one: kReducePieceBytes contiguous bytes), stores them to a staging area in shared memory, and
// each lane folds its own piece from there. Loads for the next step are issued before the fold.

// Vectors per piece, and the piece's items.
template <class Item>
__host__ __device__ constexpr int piece_vectors() {
    return kReducePieceBytes / static_cast<int>(vector_items<Item>() * sizeof(Item)) > 0
               ? kReducePieceBytes / static_cast<int>(vector_items<Item>() * sizeof(Item))
               : 1;
}
template <class Item>
__host__ __device__ constexpr int piece_items() {
    return piece_vectors<Item>() * vector_items<Item>();
}

// Staging per thread: its piece and one vector of padding, so that the 8 lanes of a quarter-warp
// reading their own pieces start on different banks.
template <class Item>
__host__ __device__ constexpr std::size_t staging_bytes_per_thread() {
    return (piece_vectors<Item>() + 1) * sizeof(Vector<Item, vector_items<Item>()>);
}

// At most 512 threads a block, so that a thread may hold up to 128 registers: the maximum segment
// sum's fold keeps a step's loads in flight (32 registers for ints) beside its 64-bit state.
constexpr int kOrderedMaxThreads = 512;

template <class Fold, class Items, class BlocksDone, bool Vectorized>
__global__ void __launch_bounds__(kOrderedMaxThreads) ordered_reduce_kernel(Items items, std::size_t n, Fold fold,
                                                              std::size_t pieces_per_lane, BlocksDone done) {
    done.begin();
    using Item = typename Fold::Item;
    using Acc = typename Fold::Acc;
    constexpr int VEC = vector_items<Item>();
    constexpr int R = piece_vectors<Item>();
    constexpr int PIECE = R * VEC;
    constexpr int STRIDE = R + 1;  // vectors from one lane's piece to the next in the staging area
    using Vec = Vector<Item, VEC>;

    extern __shared__ __align__(16) unsigned char reduce_staging[];
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    Vec *staging = reinterpret_cast<Vec *>(reduce_staging) + warp * kWarpThreads * STRIDE;
    const std::size_t global_lane = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t chunk_begin = global_lane * pieces_per_lane * PIECE;

    // This lane's load j moves vector `vec` of the piece of lane `owner` of the warp: slot
    // j * 32 + lane of the warp's step, so consecutive lanes read consecutive vectors.
    const std::size_t chunk_items = pieces_per_lane * PIECE;
    const auto slot_begin = [&](int j) {  // where load j reads at step 0
        const unsigned slot = j * kWarpThreads + lane, owner = slot / R, vec = slot % R;
        return (global_lane - lane + owner) * chunk_items + vec * VEC;
    };
    // When R divides 32, load j's owner is load 0's plus j * 32 / R: one base and one stride
    // rather than R addresses held in registers.
    const std::size_t first_slot = slot_begin(0);
    const std::size_t slot_stride = (kWarpThreads / R) * chunk_items;
    Item loaded[R][VEC];
    const auto fetch = [&](std::size_t step) {
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const std::size_t start =
                (kWarpThreads % R == 0 ? first_slot + j * slot_stride : slot_begin(j)) + step * PIECE;
            if (start + VEC <= n) {
                items.template vector<VEC, Vectorized>(start, loaded[j]);
            } else {
#pragma unroll
                for (int k = 0; k < VEC; ++k)
                    if (start + k < n) loaded[j][k] = items.item(start + k);
            }
        }
    };

    typename Fold::State state = fold.start();
    fetch(0);
    for (std::size_t step = 0; step < pieces_per_lane; ++step) {
        // Which of the fold's paths the whole warp's step may take: one branch for the warp.
        unsigned magnitude = 0;
#pragma unroll
        for (int j = 0; j < R; ++j)
#pragma unroll
            for (int k = 0; k < VEC; ++k) magnitude |= fold.magnitude(loaded[j][k]);
        magnitude = warp_or_all(magnitude);
        __syncwarp();  // every lane has folded the previous step's piece from the staging area
#pragma unroll
        for (int j = 0; j < R; ++j) {
            const unsigned slot = j * kWarpThreads + lane;
            Vec v;
#pragma unroll
            for (int k = 0; k < VEC; ++k) v.item[k] = loaded[j][k];
            staging[(slot / R) * STRIDE + slot % R] = v;
        }
        __syncwarp();
        if (step + 1 < pieces_per_lane) fetch(step + 1);

        const Vec *piece = staging + lane * STRIDE;
        const std::size_t piece_begin = chunk_begin + step * PIECE;
        const std::size_t valid = piece_begin >= n ? 0 : n - piece_begin < PIECE ? n - piece_begin : PIECE;
        const unsigned local = static_cast<unsigned>(step * PIECE);  // the host keeps chunks under 2^32 items
        if (valid == PIECE) {
            fold.step_piece(state, *reinterpret_cast<const Vec(*)[R]>(piece), local, magnitude);
        } else {
            for (int v = 0; v < R; ++v)
                for (int k = 0; k < VEC; ++k)
                    if (static_cast<std::size_t>(v * VEC + k) < valid) fold.step(state, piece[v].item[k], local + v * VEC + k);
        }
    }

    // Lanes with items are a prefix of the grid (their chunks start below n).
    const Partial<Acc> chunk = fold.finish(state, chunk_begin);
    const auto combine = [fold](const Acc &earlier, const Acc &later) { return fold.combine(earlier, later); };
    const Acc block_total =
        block_reduce_prefix(chunk.value, chunk.valid, combine, shared_storage<BlockReduceStorage<Acc>>());
    done(block_total, combine);
}

}  // namespace detail
}  // namespace StreamCompaction
