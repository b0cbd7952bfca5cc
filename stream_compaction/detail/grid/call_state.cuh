#pragma once
// The state a single-pass launch keeps on the device, at the start of its temporary storage, so
// that an enqueued call is self-contained: captured into a CUDA graph and replayed any number of
// times, each replay hands out tile ids from 0 and publishes tile status under an epoch of its own,
// with no memset node and no host involvement.
//
// Each call gets a tag from the host (a new one per enqueued call, so a replayed graph repeats its
// tag). The ticket word is (tag & 0xffffffff) << 32 | tiles handed out: a launch that finds another
// tag there (another call, or storage never used) installs its own with count 0. The block that
// takes the last tile re-arms the ticket to count 0 and advances `generation`, which every block
// read before taking its tile; so every launch, replays included, gets a distinct epoch
// mix(tag, generation), and status words left by any earlier launch read as "not yet published".
//
// Invariant the kernels keep: the grid has exactly `tiles` blocks, each takes one tile.
#include <stream_compaction/detail/warp/warp_scan.cuh>

#include <cstddef>

namespace StreamCompaction {
namespace detail {

using u64 = unsigned long long;

struct alignas(16) CallState {
    u64 ticket;
    u64 generation;
};

struct TileAssignment {
    unsigned tile;
    u64 epoch;  // 62 bits: a status tag is epoch << 1 | is_prefix, and its top bit stays free
};

__device__ __forceinline__ u64 ticket_base(u64 call_tag) { return (call_tag & 0xffffffffull) << 32; }

// A 64-bit mix (splitmix64's finalizer): distinct (tag, generation) pairs give epochs that collide
// with probability about 2^-62.
__device__ __forceinline__ u64 launch_epoch(u64 call_tag, u64 generation) {
    u64 x = call_tag ^ (generation * 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return (x ^ (x >> 31)) & 0x3fffffffffffffffull;
}

// Tiles are handed out in the order blocks start, so every tile a block waits on is running.
__device__ __forceinline__ unsigned take_ticket(u64 *ticket, u64 call_tag) {
    const u64 fresh = ticket_base(call_tag);
    u64 seen = *static_cast<volatile u64 *>(ticket);
    while ((seen & 0xffffffff00000000ull) != fresh) {
        const u64 previous = atomicCAS(ticket, seen, fresh);
        if (previous == seen) break;
        seen = previous;
    }
    return static_cast<unsigned>(atomicAdd(ticket, 1ull) & 0xffffffffull);
}

// Run by one thread of each block.
__device__ __forceinline__ TileAssignment take_tile(CallState *state, u64 call_tag, std::size_t tiles) {
    const u64 generation = *static_cast<volatile u64 *>(&state->generation);
    __threadfence();  // the read above comes before this block's ticket, hence before any re-arm
    const unsigned tile = take_ticket(&state->ticket, call_tag);
    if (tile == tiles - 1) {  // every ticket is out: re-arm for the next launch of this call
        atomicExch(&state->ticket, ticket_base(call_tag));
        __threadfence();
        *static_cast<volatile u64 *>(&state->generation) = generation + 1;
    }
    return {tile, launch_epoch(call_tag, generation)};
}

}  // namespace detail
}  // namespace StreamCompaction
