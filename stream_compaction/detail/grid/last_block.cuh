#pragma once
// Combining the blocks of a one-launch reduction, in block order, inside the same launch: each
// block stores its partial, then takes a ticket of the call state (call_state.cuh); the block that
// takes the launch's last ticket is the last to arrive, and combines every partial.
//
// Graph replay needs nothing more: a launch takes exactly gridDim.x tickets from a count that
// starts it at a multiple of gridDim.x, so "the last ticket" is re-armed by the count itself, with
// no reset, no memset node and no host work. Partials need no epoch: every block of the launch
// overwrites its own before the last block reads any.
#include <stream_compaction/detail/block/block_reduce.cuh>
#include <stream_compaction/detail/grid/call_state.cuh>
#include <stream_compaction/detail/util/shared_storage.cuh>

#include <cstring>

namespace StreamCompaction {
namespace detail {

// A value another SM stored in this launch, read from L2 (never a stale L1 line). Partials start
// 128-byte aligned and are packed, so a size that is a multiple of 4 keeps 4-byte alignment.
template <class T>
__device__ __forceinline__ T load_from_l2(const T *p) {
    T value;
    if constexpr (sizeof(T) % 4 == 0) {
        unsigned words[sizeof(T) / 4];
#pragma unroll
        for (unsigned w = 0; w < sizeof(T) / 4; ++w) words[w] = __ldcg(reinterpret_cast<const unsigned *>(p) + w);
        memcpy(&value, words, sizeof(T));
    } else {
        unsigned char bytes[sizeof(T)];
        const volatile unsigned char *source = reinterpret_cast<const volatile unsigned char *>(p);
        for (unsigned b = 0; b < sizeof(T); ++b) bytes[b] = source[b];
        memcpy(&value, bytes, sizeof(T));
    }
    return value;
}

struct LastBlockFlag {
    bool last;
};

// The end of every block of a reduction launch whose blocks hold consecutive parts of the input:
// thread 0's `block_total` is its block's part combined. The launch's result, all blocks combined
// in block order, goes to finish(total), called by one thread of one block. Every thread of the
// block must call it, after a __syncthreads() since its last use of block-reduce storage of Acc.
template <class Acc, class Finish>
struct LastBlockDone {
    Acc *partials;  // gridDim.x of them
    CallState *state;
    u64 call_tag;
    Finish finish;

    __device__ __forceinline__ void begin() const {}  // the kernel's first step (ClusterDone's contract)

    template <class Combine>
    __device__ __forceinline__ void operator()(const Acc &block_total, Combine combine) const {
        if (gridDim.x == 1) {  // the whole input in one block: no partials, no ticket
            if (threadIdx.x == 0) finish(block_total);
            return;
        }
        auto &flag = shared_storage<LastBlockFlag>();
        if (threadIdx.x == 0) {
            partials[blockIdx.x] = block_total;
            __threadfence();  // the partial is visible to whoever sees this block's ticket
            flag.last = take_tile(state, call_tag, gridDim.x).tile == gridDim.x - 1;
        }
        __syncthreads();
        if (!flag.last) return;
        __threadfence();  // every other block's ticket, hence its partial, came before ours

        // Each thread combines a contiguous run of the partials; the runs are a prefix of the block.
        const unsigned blocks = gridDim.x;
        const unsigned per_thread = (blocks + blockDim.x - 1) / blockDim.x;
        const unsigned first = threadIdx.x * per_thread;
        const unsigned last = first + per_thread < blocks ? first + per_thread : blocks;
        const bool valid = first < blocks;
        Acc run;
        if (valid) {
            run = load_from_l2(partials + first);
            for (unsigned b = first + 1; b < last; ++b) run = combine(run, load_from_l2(partials + b));
        }
        const Acc total = block_reduce_prefix(run, valid, combine, shared_storage<BlockReduceStorage<Acc>>());
        if (threadIdx.x == 0) finish(total);
    }
};

}  // namespace detail
}  // namespace StreamCompaction
