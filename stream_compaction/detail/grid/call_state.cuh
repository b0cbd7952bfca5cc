#pragma once
// The state a single-pass launch keeps on the device, at the start of its temporary storage, so
// that an enqueued call is self-contained: captured into a CUDA graph and replayed any number of
// times, each replay hands out tile ids from 0 and publishes tile status under an epoch of its own,
// with no memset node and no host involvement.
//
// Each call gets a tag from the host (a new one per enqueued call, so a replayed graph repeats its
// tag). The ticket word is (tag & 0xffffffff) << 32 | a count of tickets. Every launch takes
// exactly `tiles` tickets from a count that starts it at a multiple of `tiles`, so ticket c is
// tile c % tiles, and the launch's epoch is mix(tag, c / tiles). The count only grows: a launch
// that finds another tag there (another call sharing the storage, or storage never used) installs
// its own with the count rounded up to a multiple of its `tiles`, never reset. So each launch of a
// call has a larger c / tiles than the one before, even when other calls ran on the storage in
// between (two primitives sharing a buffer in one graph), and status words left by any earlier
// launch read as "not yet published". One atomic per block, as with a host-side epoch: nothing
// waits on a fence before a block knows its tile. Before the count could run into the tag bits it
// restarts at 0 (a launch after the wrap has an epoch unlike the last one that wrote the words).
//
// Invariant the kernels keep: the grid has exactly `tiles` blocks, each takes one ticket (a launch
// of one tile takes none: take_tile).
#include <stream_compaction/detail/util/tile_assignment.cuh>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

struct alignas(16) CallState {
    u64 ticket;
};

constexpr u64 kTicketCountMask = 0xffffffffull;

__device__ __forceinline__ u64 ticket_base(u64 call_tag) { return (call_tag & kTicketCountMask) << 32; }

// A 64-bit mix (splitmix64's finalizer): distinct (tag, generation) pairs give epochs that collide
// with probability about 2^-62.
__device__ __forceinline__ u64 launch_epoch(u64 call_tag, u64 generation) {
    u64 x = call_tag ^ (generation * 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return (x ^ (x >> 31)) & 0x3fffffffffffffffull;
}

// Run by one thread of each block. Tickets are handed out in the order blocks start, so every
// tile a block waits on is running.
__device__ __forceinline__ TileAssignment take_tile(CallState *state, u64 call_tag, std::size_t tiles) {
    // A launch of one tile has no block to order and no tile waiting on it: no ticket (a read, a
    // compare-and-swap and an add, dependent round trips to the call state: 0.8 of the 8.8 us of a
    // 2^10 scan on an H100), and an epoch that no other launch's tiles look for (its status word 0
    // reads as "not yet published" to them but with probability about 2^-62, as any stale word).
    if (tiles == 1) return {0, launch_epoch(call_tag, 0)};
    const u64 base = ticket_base(call_tag);
    u64 seen = *static_cast<volatile u64 *>(&state->ticket);
    while ((seen & ~kTicketCountMask) != base) {
        u64 start = ((seen & kTicketCountMask) + tiles - 1) / tiles * tiles;
        if (start + tiles > kTicketCountMask) start = 0;
        const u64 previous = atomicCAS(&state->ticket, seen, base | start);
        if (previous == seen) break;
        seen = previous;
    }
    const u64 count = atomicAdd(&state->ticket, 1ull) & kTicketCountMask;
    const u64 generation = count / tiles;
    const unsigned tile = static_cast<unsigned>(count - generation * tiles);
    // Every ticket of this launch is out: wrap the count before a next launch could carry it into
    // the tag bits.
    if (tile == tiles - 1 && count + tiles > kTicketCountMask) atomicExch(&state->ticket, base);
    return {tile, launch_epoch(call_tag, generation)};
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

}  // namespace detail
}  // namespace StreamCompaction
