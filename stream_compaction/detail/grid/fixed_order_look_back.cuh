#pragma once
// A look-back whose result does not depend on timing, for the floating-point scans.
//
// The decoupled look-back (tile_status.cuh) combines its predecessors' aggregates back to the first
// inclusive prefix it meets, and which one that is depends on which tiles happen to have finished:
// for an operator that is associative only up to rounding (a float sum), the bits of a tile's
// prefix change from run to run. Here every tile's prefix is one fixed expression instead:
//
//   tiles  |  0 .. 31  | 32 .. 63 | ... | 992 .. 1023 || 1024 .. 2047 || ...
//   groups |  group 0  | group 1  | ... |  group 31   ||  groups 32 .. 63 (span 1)
//
//   prefix(tile t) = span_prefix(s) (+) [group aggregates of span s before t's group]
//                                   (+) [tile aggregates of t's group before t]
//
// where s is t's span of 32 groups (1024 tiles) and each bracket is reduced by the same warp tree
// for the same t. Every tile publishes its aggregate at once; the last tile of a group publishes
// the group's aggregate as soon as its group's tiles have theirs; the last tile of a span publishes
// the next span's prefix. So a tile waits on its own group's aggregates, on the closing tiles of
// the earlier groups of its span and on one span prefix: a chain of one link per 1024 tiles.
//
// Under an operator with restarts (the segmented one: op(anything, x) is x when x holds a segment
// head), a tile waits only back to the last restart: the expression's value, bit for bit, does not
// depend on anything before it. A segmented scan whose tiles hold heads then waits as the
// decoupled look-back does, on its direct predecessor.
#include <stream_compaction/detail/grid/decoupled_look_back.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Tiles a group, and groups a span: one warp's lanes, one value each.
constexpr unsigned kFixedOrderFanout = kWarpThreads;

// The scans whose tiles combine in the fixed order: those of floating-point items, whatever the
// operator (the integer ones are exact, and keep the decoupled look-back).
template <class T>
constexpr bool kFixedOrderScan = std::is_floating_point<T>::value;

// Status words of a fixed-order launch: one a tile, then one a group, then one a span (the
// prefixes of spans 1, 2, ...; the last span's word is spare).
__host__ __device__ constexpr std::size_t fixed_order_groups(std::size_t tiles) {
    return (tiles + kFixedOrderFanout - 1) / kFixedOrderFanout;
}
__host__ __device__ constexpr std::size_t fixed_order_status_words(std::size_t tiles) {
    return tiles + fixed_order_groups(tiles) + (fixed_order_groups(tiles) + kFixedOrderFanout - 1) / kFixedOrderFanout;
}

// The status words a scan of `tiles` tiles of T uses (TileStatus<T>::at and ::bytes take this count).
template <class T>
__host__ __device__ constexpr std::size_t scan_status_words(std::size_t tiles) {
    return kFixedOrderScan<T> ? fixed_order_status_words(tiles) : tiles;
}

// Run by a whole warp: each lane that `wants` reads status word `word` until it is published in
// this launch (the warp sleeping between rounds) and returns its value; the other lanes return T{}.
// Lane i's word comes after lane i + 1's in the fixed order, so a published value that restarts the
// scan (restarts_scan: op(anything, it) is it, bit for bit) makes the words of the lanes above it
// irrelevant to reduce_later_to_earlier's result: the wait ends once the lanes up to the lowest such
// lane have theirs, and the lanes above return whatever they read. The result is still a function
// of the data alone: the lowest restarting word is the last restart before this tile, timing or not.
template <class T, class Op, class Status>
__device__ __forceinline__ T wait_for_words(const Status &status, u64 epoch, LookBackDelay delay, Op op, bool wants,
                                            unsigned word) {
    T value{};
    bool have = !wants;
    while (true) {
        if (!have) {
            u64 tag = 0;
            status.read(word, epoch, value, tag);
            have = published_in(tag, epoch);
        }
        const unsigned ready = __ballot_sync(kFullMask, have);
        if (ready == kFullMask) return value;
        const unsigned restarting = __ballot_sync(kFullMask, wants && have && restarts_scan(op, value));
        const unsigned needed = restarting ^ (restarting - 1);  // lanes 0 .. the lowest restarting one
        if (restarting != 0 && (ready & needed) == needed) return value;
        sleep_ns(delay.poll_ns);
    }
}

// The fixed-order counterpart of chained_tile_prefix (tile_scan.cuh), for warp 0 of every tile:
// publishes what this tile owes the others and returns everything before it, combined as the
// header says. `first_prefix` is what comes before tile 0.
template <class T, class Op, class Status>
__device__ __forceinline__ Partial<T> fixed_order_tile_prefix(const Status &status, std::size_t tiles, unsigned tile,
                                                              u64 epoch, const T &aggregate,
                                                              const Partial<T> &first_prefix, Op op,
                                                              LookBackDelay delay) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const u64 tag = epoch << 1;
    // A launch's tiles fit 32 bits (a tile's index is an unsigned), and so do their status words.
    const unsigned group_words = static_cast<unsigned>(tiles);
    const unsigned span_words = static_cast<unsigned>(tiles + fixed_order_groups(tiles) - 1);  // span s >= 1: + s
    const unsigned group = tile / kFixedOrderFanout;
    const unsigned span = group / kFixedOrderFanout;
    const unsigned tiles_before = tile % kFixedOrderFanout;    // of this tile's group
    const unsigned groups_before = group % kFixedOrderFanout;  // of this tile's span
    const bool closes_group = tiles_before == kFixedOrderFanout - 1;
    const bool closes_span = closes_group && groups_before == kFixedOrderFanout - 1;

    if (lane == 0) status.publish(tile, aggregate, tag);
    if (tile == 0) return first_prefix;
    sleep_ns(delay.first_ns);

    // First the tiles of this group before this one (lane i: tile - 1 - i); a closing tile then
    // publishes its group's aggregate before it waits on anything else, for the next group waits on
    // it. One value a lane at a time: a second one live in the loop spilled registers and cost more
    // than the second round trip (H100, 2026-11-25: 2^28 floats 1.15 ms in one round, 0.88 in two).
    T value = wait_for_words<T>(status, epoch, delay, op, lane < tiles_before, tile - 1 - lane);
    const Partial<T> earlier_tiles = reduce_later_to_earlier(value, tiles_before, op, lane);
    const Partial<T> group_aggregate = combine(earlier_tiles, Partial<T>{aggregate, true}, op);
    if (closes_group && lane == 0) status.publish(group_words + group, group_aggregate.value, tag);
    // A restart among this group's earlier tiles absorbs everything before them, bit for bit; only
    // the tile that publishes the next span's prefix still needs what came before its group.
    if (earlier_tiles.valid && restarts_scan(op, earlier_tiles.value) && !closes_span) return earlier_tiles;

    // Then the groups of this span before this one's (lane i < 31: group - 1 - i; at most 31 of
    // them) and, on lane 31, the span's prefix.
    constexpr unsigned kSpanLane = kWarpThreads - 1;
    const bool reads_span = lane == kSpanLane && span > 0;
    value = wait_for_words<T>(status, epoch, delay, op, lane < groups_before || reads_span,
                              reads_span ? span_words + span : group_words + group - 1 - lane);
    const Partial<T> span_prefix = span == 0 ? first_prefix : Partial<T>{shfl_idx(value, kSpanLane), true};
    const Partial<T> before_group = combine(span_prefix, reduce_later_to_earlier(value, groups_before, op, lane), op);
    if (closes_span && lane == 0)
        status.publish(span_words + span + 1, combine(before_group, group_aggregate, op).value, tag);
    return combine(before_group, earlier_tiles, op);
}

// A scan tile's prefix by look-back, for warp 0 of every tile: in the fixed order where T's scan
// takes it (kFixedOrderScan: floating point, whose sums must not depend on timing), else chained.
// `status` holds scan_status_words<T>(tiles) words.
template <class T, class Op, class Status>
__device__ __forceinline__ Partial<T> look_back_tile_prefix(const Status &status, std::size_t tiles, unsigned tile,
                                                            u64 epoch, const T &aggregate,
                                                            const Partial<T> &first_prefix, Op op,
                                                            LookBackDelay delay) {
    if constexpr (kFixedOrderScan<T>)
        return fixed_order_tile_prefix<T>(status, tiles, tile, epoch, aggregate, first_prefix, op, delay);
    else
        return chained_tile_prefix<T>(status, tile, epoch, aggregate, first_prefix, op, delay);
}

}  // namespace detail
}  // namespace StreamCompaction
