#pragma once
// Decoupled look-back (Merrill & Garland 2016): each tile publishes its aggregate as soon as it
// is known and its inclusive prefix once its predecessors' are; a tile combines predecessors'
// aggregates backwards until it meets an inclusive prefix, so no tile waits for a whole chain.
//
// A status tag is (epoch << 1 | is_prefix). The epoch is unique to each launch (call_state.cuh),
// so words left by an earlier launch (or by whatever used the memory before) read as "not yet
// published" and the status array never needs clearing: one launch per scan.
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

using u64 = unsigned long long;

__device__ __forceinline__ bool published_in(u64 tag, u64 epoch) { return (tag >> 1) == epoch; }

// Whole 16-byte accesses through L2: a reader sees either the old or the new word, never a mix.
__device__ __forceinline__ void store_volatile_16(void *p, u64 a, u64 b) {
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
__device__ __forceinline__ void load_volatile_16(const void *p, u64 &a, u64 &b) {
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}

struct alignas(16) StatusWord {
    u64 value_bits;
    u64 tag;
};

// Values up to 8 bytes share one 16-byte word with their tag.
template <class T>
struct PackedTileStatus {
    using Word = StatusWord;
    Word *words;

    static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(Word); }
    __host__ __device__ static PackedTileStatus at(void *storage, std::size_t /*tiles*/) { return {static_cast<Word *>(storage)}; }

    __device__ void publish(std::size_t tile, const T &value, u64 tag) const {
        u64 bits = 0;
        memcpy(&bits, &value, sizeof(T));
        store_volatile_16(&words[tile], bits, tag);
    }
    __device__ void read(std::size_t tile, u64 epoch, T &value, u64 &tag) const {
        u64 bits;
        load_volatile_16(&words[tile], bits, tag);
        memcpy(&value, &bits, sizeof(T));
        (void)epoch;
    }
};

// Larger values sit beside the tags, in separate aggregate and prefix slots (a tile publishes both,
// and a reader that saw one tag must not read the other's value). Value, fence, then tag.
template <class T>
struct SplitTileStatus {
    static constexpr int kWords = (sizeof(T) + 3) / 4;
    u64 *tags;
    unsigned *aggregates;  // kWords per tile
    unsigned *prefixes;

    __host__ __device__ static std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
    static std::size_t bytes(std::size_t tiles) {
        return round16(tiles * sizeof(u64)) + 2 * round16(tiles * kWords * sizeof(unsigned));
    }
    __host__ __device__ static SplitTileStatus at(void *storage, std::size_t tiles) {
        char *base = static_cast<char *>(storage);
        const std::size_t tag_bytes = round16(tiles * sizeof(u64));
        const std::size_t value_bytes = round16(tiles * kWords * sizeof(unsigned));
        return {reinterpret_cast<u64 *>(base), reinterpret_cast<unsigned *>(base + tag_bytes),
                reinterpret_cast<unsigned *>(base + tag_bytes + value_bytes)};
    }

    __device__ void publish(std::size_t tile, const T &value, u64 tag) const {
        unsigned words[kWords];
        memcpy(words, &value, sizeof(T));
        unsigned *slot = ((tag & 1) ? prefixes : aggregates) + tile * kWords;
#pragma unroll
        for (int w = 0; w < kWords; ++w) __stcg(slot + w, words[w]);
        __threadfence();
        *static_cast<volatile u64 *>(&tags[tile]) = tag;
    }
    __device__ void read(std::size_t tile, u64 epoch, T &value, u64 &tag) const {
        tag = *static_cast<volatile u64 *>(&tags[tile]);
        if (!published_in(tag, epoch)) return;
        __threadfence();
        const unsigned *slot = ((tag & 1) ? prefixes : aggregates) + tile * kWords;
        unsigned words[kWords];
#pragma unroll
        for (int w = 0; w < kWords; ++w) words[w] = __ldcg(slot + w);
        memcpy(&value, words, sizeof(T));
    }
};

// The status layout of T: packed when it fits beside the tag, split otherwise. A type may
// specialize TileStatusFor to pack what the general rule would split (see segmented_pair.cuh).
template <class T, class Enable = void>
struct TileStatusFor {
    using type = std::conditional_t<(sizeof(T) <= 8), PackedTileStatus<T>, SplitTileStatus<T>>;
};

template <class T>
using TileStatus = typename TileStatusFor<T>::type;

// Sleeps the calling warp for about `ns` nanoseconds; not at all for 0.
__device__ __forceinline__ void sleep_ns(unsigned ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    if (ns != 0) __nanosleep(ns);
#else
    (void)ns;
#endif
}

// The combination, in order, of the values of lanes [0, count) of a warp where lane i holds the
// (i + 1)-th latest (lane 0 the latest, so each combination is op(higher lane, lower lane)); every
// lane gets it. The tree's shape depends on `count` alone, so equal inputs give equal bits. Run by
// the whole warp; nothing (not valid) for a count of 0.
template <class T, class Op>
__device__ __forceinline__ Partial<T> reduce_later_to_earlier(T x, unsigned count, Op op, unsigned lane) {
    // After the step of `offset`, lane i holds lanes [i, min(i + 2 * offset, count) - 1].
#pragma unroll
    for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
        const T earlier = shfl_down(x, offset);
        if (lane + offset < count) x = op(earlier, x);
    }
    return {shfl_idx(x, 0), count > 0};
}

// Whether op(anything, aggregate) == aggregate, so that a tile can publish its aggregate as its
// inclusive prefix before it knows its own. Never for a general operator; an operator that can
// tell overloads this beside its type (found by argument-dependent lookup).
template <class Op, class T>
__device__ __forceinline__ bool restarts_scan(const Op &, const T &) {
    return false;
}

// Run by one whole warp for tile > 0 after its aggregate is published: returns the combination of
// all tiles before `tile`, in order. Lane i examines tile (window_end - 1 - i). The warp sleeps as
// `delay` says before its first read and between reads of a window not yet all published.
template <class T, class Op, class Status>
__device__ T look_back(const Status &status, std::size_t tile, u64 epoch, Op op, unsigned lane, LookBackDelay delay) {
    sleep_ns(delay.first_ns);
    T exclusive{};
    bool have = false;
    long long window_end = static_cast<long long>(tile);
    while (true) {
        const long long predecessor = window_end - 1 - static_cast<long long>(lane);
        T value{};
        u64 tag = 0;
        bool ready;
        while (true) {
            if (predecessor >= 0) status.read(predecessor, epoch, value, tag);
            ready = predecessor < 0 || published_in(tag, epoch);
            if (__all_sync(kFullMask, ready)) break;
            sleep_ns(delay.poll_ns);
        }
        const unsigned prefix_lanes = __ballot_sync(kFullMask, predecessor >= 0 && (tag & 1));
        // Tile 0 always publishes an inclusive prefix, so a window that reaches it stops there.
        const unsigned stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : kWarpThreads - 1;
        const T window = reduce_later_to_earlier(value, stop + 1, op, lane).value;
        exclusive = have ? op(window, exclusive) : window;
        have = true;
        if (prefix_lanes) return exclusive;
        window_end -= kWarpThreads;
    }
}

}  // namespace detail
}  // namespace StreamCompaction
