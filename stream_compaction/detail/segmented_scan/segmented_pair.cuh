#pragma once
// The element of every segmented scan: a (head, value) pair under the segmented operator, and what
// the single-pass machinery needs to know about it: a tile whose pairs contain a head restarts
// the scan, and a pair of an 8-byte value still publishes its tile status in one 16-byte word.
#include <stream_compaction/detail/grid/fixed_order_look_back.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>

#include <cstring>
#include <type_traits>

namespace StreamCompaction {

// The scanned pair: `head` is nonzero when a segment starts within the elements it covers, and
// `value` combines the elements since the last such start.
template <class V>
struct SegmentedPair {
    unsigned head;
    V value;
};

// The segmented operator: associative whenever `op` is, and never reorders op's arguments.
template <class Op>
struct SegmentedOp {
    Op op;
    template <class V>
    __host__ __device__ SegmentedPair<V> operator()(const SegmentedPair<V> &earlier,
                                                    const SegmentedPair<V> &later) const {
        return {earlier.head | later.head, later.head ? later.value : op(earlier.value, later.value)};
    }
};

// Whatever came before, a pair with a head comes out unchanged: such a tile aggregate is its own
// inclusive prefix (see detail::chained_tile_prefix).
template <class Op, class V>
__device__ __forceinline__ bool restarts_scan(const SegmentedOp<Op> &, const SegmentedPair<V> &aggregate) {
    return aggregate.head != 0;
}

namespace detail {

// Pairs of floating-point values take the fixed-order look-back too: segmented scans, segmented
// reductions and SpMV give the same bits on every run.
template <class V>
constexpr bool kFixedOrderScan<SegmentedPair<V>> = std::is_floating_point<V>::value;

// A pair of an 8-byte value is 16 bytes, too large to sit beside its tag in one word; but the head
// is one bit, and rides in the tag's top bit (epochs have 62 bits, so tag = epoch << 1 | prefix
// never uses it). One 16-byte store publishes the pair, with no fence between value and tag.
template <class V>
struct HeadTaggedTileStatus {
    static constexpr u64 kHeadBit = 1ull << 63;
    StatusWord *words;

    static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(StatusWord); }
    __host__ __device__ static HeadTaggedTileStatus at(void *storage, std::size_t /*tiles*/) {
        return {static_cast<StatusWord *>(storage)};
    }

    __device__ void publish(std::size_t tile, const SegmentedPair<V> &pair, u64 tag) const {
        u64 bits;
        memcpy(&bits, &pair.value, sizeof(V));
        store_volatile_16(&words[tile], bits, tag | (pair.head ? kHeadBit : 0));
    }
    __device__ void read(std::size_t tile, u64 /*epoch*/, SegmentedPair<V> &pair, u64 &tag) const {
        u64 bits, word_tag;
        load_volatile_16(&words[tile], bits, word_tag);
        memcpy(&pair.value, &bits, sizeof(V));
        pair.head = (word_tag & kHeadBit) ? 1u : 0u;
        tag = word_tag & ~kHeadBit;
    }
};

template <class V>
struct TileStatusFor<SegmentedPair<V>, std::enable_if_t<sizeof(V) == 8>> {
    using type = HeadTaggedTileStatus<V>;
};

}  // namespace detail
}  // namespace StreamCompaction
