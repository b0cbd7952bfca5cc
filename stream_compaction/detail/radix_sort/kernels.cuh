#pragma once
// Onesweep's kernels (histogram, plan, digit pass), the digit maps of the key types and the layout
// of the sort's temporary storage.
#include <stream_compaction/detail/grid/tile_status.cuh>
#include <stream_compaction/detail/util/unsigned_bits.cuh>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/tuning/policies.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {

// The Value of a keys-only sort.
struct KeysOnly {};

namespace detail {

constexpr int kRadixDigitBits = 8;
constexpr int kRadixBins = 1 << kRadixDigitBits;
// Digit passes of a key type: 1 for 8-bit keys, 2 for 16-bit, 4 for 32-bit, 8 for 64-bit ones.
template <class Key>
__host__ __device__ constexpr int radix_digits() {
    return static_cast<int>(sizeof(Key)) * 8 / kRadixDigitBits;
}
// The onesweep kernel's bound: its tile lives in registers.
constexpr int kRadixMaxThreads = 512;

// A tile's status word for one bin: a flag in the top two bits, a key count below. Zero means
// "not published yet"; the whole status array is cleared once per sort.
constexpr unsigned kRadixFlagAggregate = 1u << 30;  // the count is the tile's own
constexpr unsigned kRadixFlagPrefix = 2u << 30;     // the count is the tile's and all earlier tiles' of its portion
constexpr unsigned kRadixCountMask = kRadixFlagAggregate - 1;
// The look-back runs over portions of at most this many keys, so a prefix count fits in 30 bits;
// a larger input is sorted by one launch per portion and digit, chained through the bin offsets.
constexpr std::size_t kRadixMaxPortionKeys = kRadixCountMask;

// The floating-point key types: __half, __nv_bfloat16, float and double (sign and magnitude bits).
template <class Key>
__host__ __device__ constexpr bool radix_float_key() {
    return std::is_same_v<Key, float> || std::is_same_v<Key, double> || is_half_precision_v<Key>;
}

// The key types: integers of 1, 2, 4 and 8 bytes, and the floating-point ones.
template <class Key>
__host__ __device__ constexpr bool radix_key_type() {
    return (std::is_integral_v<Key> && !std::is_same_v<Key, bool> &&
            (sizeof(Key) == 1 || sizeof(Key) == 2 || sizeof(Key) == 4 || sizeof(Key) == 8)) ||
           radix_float_key<Key>();
}

// Order-preserving maps of the keys to unsigned bits of their width: key order is the bits'
// numeric order. Integers: unsigned as they are, signed with the sign bit flipped. (Bits narrower
// than an int are promoted in the arithmetic below; each result is cast back to the key's width.)
template <class Key>
struct RadixBits {
    static_assert(radix_key_type<Key>(),
                  "radix sort keys are integers of 1, 2, 4 or 8 bytes, __half, __nv_bfloat16, float or double");
    using type = unsigned_bits_t<sizeof(Key)>;
    static constexpr type kSign = static_cast<type>(type(1) << (sizeof(Key) * 8 - 1));
    __host__ __device__ static type ordered(Key key) {
        if constexpr (radix_float_key<Key>()) {
            type bits;
            memcpy(&bits, &key, sizeof bits);
            if (bits == kSign) bits = 0;  // -0.0 sorts as +0.0
            // Negatives: flipping every bit reverses their magnitude order and puts them first.
            return static_cast<type>((bits & kSign) ? ~bits : bits | kSign);
        } else {
            const type bits = static_cast<type>(key);
            return std::is_signed_v<Key> ? static_cast<type>(bits ^ kSign) : bits;
        }
    }
};

template <class Key>
using radix_bits_t = typename RadixBits<Key>::type;

// What a sort compares: (ordered(key) ^ flip) & mask. Bits outside the mask read 0 for every key,
// so the plan kernel skips the passes of digits wholly outside it; flipping the bits inside it
// reverses their order (descending), and the passes stay stable.
template <class Key>
struct RadixOrder {
    radix_bits_t<Key> mask;
    radix_bits_t<Key> flip;
};

template <class Key>
__host__ __device__ constexpr RadixOrder<Key> radix_ascending() {
    return {static_cast<radix_bits_t<Key>>(~radix_bits_t<Key>{0}), 0};
}

template <class Key>
__host__ __device__ __forceinline__ radix_bits_t<Key> radix_compared(Key key, RadixOrder<Key> order) {
    return static_cast<radix_bits_t<Key>>((RadixBits<Key>::ordered(key) ^ order.flip) & order.mask);
}

template <class Key>
__host__ __device__ __forceinline__ unsigned radix_digit(Key key, int digit, RadixOrder<Key> order) {
    return static_cast<unsigned>(radix_compared(key, order) >> (digit * kRadixDigitBits)) & (kRadixBins - 1);
}

// Where a pass reads and writes: the caller's input, the caller's output, or the temporary copy.
enum RadixBuffer : int { kRadixInput = 0, kRadixOutput = 1, kRadixAlternate = 2 };

// Written by the plan kernel for each digit. The active passes alternate between the output and
// the temporary copy so that the last one writes the output.
struct RadixPassPlan {
    int active;
    int source;       // a RadixBuffer
    int destination;  // kRadixOutput or kRadixAlternate
};

// The raw bits a pair sort moves its values as (values only travel with their keys): one kernel per
// value size.
template <class Value>
struct RadixValueBits {
    static_assert(std::is_trivially_copyable_v<Value> &&
                      (sizeof(Value) == 1 || sizeof(Value) == 2 || sizeof(Value) == 4 || sizeof(Value) == 8),
                  "radix sort values are trivially copyable types of 1, 2, 4 or 8 bytes");
    using type = unsigned_bits_t<sizeof(Value)>;
};

template <class Value>
using radix_value_bits_t = typename RadixValueBits<Value>::type;

// Values that are not Value's in an array (a counting or transform iterator, a pointer to another
// type): item i is Input's item i converted to Value, read as Value's bits. Only the first active
// pass reads it; the later passes read the sort's own buffers.
template <class Input, class Value, class Bits>
struct RadixIteratorValues {
    Input input;
    __device__ RadixIteratorValues operator+(std::size_t offset) const {
        return {input + static_cast<typename std::iterator_traits<Input>::difference_type>(offset)};
    }
    __device__ Bits operator[](unsigned i) const {
        const Value value = static_cast<Value>(input[i]);
        Bits bits;
        memcpy(&bits, &value, sizeof bits);
        return bits;
    }
};

// ValuesIn: const Value * (an array of the values' bits, or none in a keys-only sort), or a
// RadixIteratorValues.
template <class Key, class Value, class ValuesIn = const Value *>
struct RadixBuffers {
    const Key *keys_in;
    Key *keys_out;
    Key *keys_alternate;
    ValuesIn values_in;
    Value *values_out;
    Value *values_alternate;
};

template <class T>
__device__ __forceinline__ const T *radix_pick(int buffer, const T *in, T *out, T *alternate) {
    return buffer == kRadixInput ? in : buffer == kRadixOutput ? out : alternate;
}

__device__ __forceinline__ void radix_store_status(unsigned *word, unsigned value) {
    *static_cast<volatile unsigned *>(word) = value;
}
__device__ __forceinline__ unsigned radix_load_status(const unsigned *word) {
    return *static_cast<const volatile unsigned *>(word);
}

// Temporary storage, in 16-byte aligned pieces. The first zeroed_bytes are cleared once per sort.
struct RadixLayout {
    std::size_t tile_items, tiles, portion_tiles, portions;
    std::size_t histogram;      // u64 [digit][bin]
    std::size_t tile_counters;  // unsigned [digit][portion]: the tile ids handed out
    std::size_t status;         // unsigned [digit][tile][bin]
    std::size_t zeroed_bytes;
    std::size_t plans;           // RadixPassPlan [digit]
    std::size_t bases;           // u64 [digit][portion][bin]: where the portion's keys of the bin start
    std::size_t keys_alternate;  // Key [n]
    std::size_t values_alternate;
    std::size_t total_bytes;
};

template <class Value>
constexpr bool kRadixHasValues = !std::is_same_v<Value, KeysOnly>;

inline std::size_t radix_round16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

template <class Key, class Value>
RadixLayout radix_layout(std::size_t n, int threads, int items, std::size_t max_portion_keys) {
    RadixLayout layout{};
    layout.tile_items = static_cast<std::size_t>(threads) * items;
    layout.tiles = (n + layout.tile_items - 1) / layout.tile_items;
    layout.portion_tiles = std::max<std::size_t>(1, max_portion_keys / layout.tile_items);
    layout.portions = (layout.tiles + layout.portion_tiles - 1) / layout.portion_tiles;
    std::size_t offset = 0;
    const auto take = [&offset](std::size_t bytes) {
        const std::size_t at = offset;
        offset += radix_round16(bytes);
        return at;
    };
    constexpr std::size_t digits = radix_digits<Key>();
    layout.histogram = take(digits * kRadixBins * sizeof(u64));
    layout.tile_counters = take(digits * layout.portions * sizeof(unsigned));
    layout.status = take(digits * layout.tiles * kRadixBins * sizeof(unsigned));
    layout.zeroed_bytes = offset;
    layout.plans = take(digits * sizeof(RadixPassPlan));
    layout.bases = take(digits * layout.portions * kRadixBins * sizeof(u64));
    layout.keys_alternate = take(n * sizeof(Key));
    if constexpr (kRadixHasValues<Value>) layout.values_alternate = take(n * sizeof(Value));
    layout.total_bytes = offset;
    return layout;
}

// Returns `threads` if the onesweep kernel can run with it, else throws std::invalid_argument.
inline int checked_radix_block_size(int threads) {
    if (threads < kWarpThreads || threads > kRadixMaxThreads || threads % kWarpThreads != 0)
        throw std::invalid_argument("radix block size must be a multiple of 32 in [32, " +
                                    std::to_string(kRadixMaxThreads) + "], got " + std::to_string(threads));
    return threads;
}

constexpr int kRadixHistogramThreads = 256;
constexpr int kRadixHistogramBatch = 8;  // keys per thread in flight: enough loads to cover the latency
constexpr unsigned kRadixHistogramMaxBlocks = 1024;

// Adds the digit counts of keys[0, n) into histogram[digit][bin] (zeroed before the launch).
template <class Key>
__global__ void __launch_bounds__(kRadixHistogramThreads) radix_histogram_kernel(const Key *keys, std::size_t n,
                                                                                 RadixOrder<Key> order, u64 *histogram) {
    constexpr int kDigits = radix_digits<Key>();
    __shared__ unsigned counts[kDigits * kRadixBins];
    for (int i = threadIdx.x; i < kDigits * kRadixBins; i += blockDim.x) counts[i] = 0;
    __syncthreads();
    const std::size_t batch_items = static_cast<std::size_t>(blockDim.x) * kRadixHistogramBatch;
    for (std::size_t first = blockIdx.x * batch_items + threadIdx.x; first < n;
         first += static_cast<std::size_t>(gridDim.x) * batch_items) {
        radix_bits_t<Key> bits[kRadixHistogramBatch];
#pragma unroll
        for (int b = 0; b < kRadixHistogramBatch; ++b) {
            const std::size_t i = first + b * static_cast<std::size_t>(blockDim.x);
            bits[b] = i < n ? radix_compared(keys[i], order) : 0;
        }
#pragma unroll
        for (int b = 0; b < kRadixHistogramBatch; ++b) {
            if (first + b * static_cast<std::size_t>(blockDim.x) >= n) break;
#pragma unroll
            for (int d = 0; d < kDigits; ++d)
                atomicAdd(&counts[d * kRadixBins + static_cast<unsigned>((bits[b] >> (d * kRadixDigitBits)) & (kRadixBins - 1))],
                          1u);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kDigits * kRadixBins; i += blockDim.x)
        if (counts[i] != 0) atomicAdd(&histogram[i], static_cast<u64>(counts[i]));
}

// One block of kRadixBins threads: each of the Digits digits' bin offsets (bases of portion 0) and
// the pass plan.
template <int Digits>
__global__ void __launch_bounds__(kRadixBins) radix_plan_kernel(const u64 *histogram, std::size_t n,
                                                                RadixPassPlan *plans, u64 *bases, std::size_t portions) {
    __shared__ u64 warp_totals[kRadixBins / kWarpThreads];
    const unsigned bin = threadIdx.x;
    const unsigned lane = bin % kWarpThreads;
    const unsigned warp = bin / kWarpThreads;
    bool constant_digit[Digits];  // thread 0's: every key has the same digit there
#pragma unroll
    for (int d = 0; d < Digits; ++d) {
        const u64 count = histogram[d * kRadixBins + bin];
        u64 inclusive = count;
#pragma unroll
        for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
            const u64 earlier = __shfl_up_sync(kFullMask, inclusive, offset);
            if (lane >= offset) inclusive += earlier;
        }
        if (lane == kWarpThreads - 1) warp_totals[warp] = inclusive;
        __syncthreads();
        u64 before = inclusive - count;
        for (unsigned w = 0; w < warp; ++w) before += warp_totals[w];
        bases[d * portions * kRadixBins + bin] = before;
        // Also the barrier after which the next digit may overwrite warp_totals.
        constant_digit[d] = __syncthreads_or(count == n) != 0;
    }
    if (bin != 0) return;
    bool active[Digits];
    int active_passes = 0;
#pragma unroll
    for (int d = 0; d < Digits; ++d) {
        active[d] = !constant_digit[d];
        active_passes += active[d];
    }
    if (active_passes == 0) {  // all keys equal: one pass still moves them (stably) into the output
        active[Digits - 1] = true;
        active_passes = 1;
    }
    int source = kRadixInput;
    int done = 0;
#pragma unroll
    for (int d = 0; d < Digits; ++d) {
        if (!active[d]) {
            plans[d] = RadixPassPlan{0, source, source};
            continue;
        }
        const int destination = (active_passes - 1 - done) % 2 == 0 ? kRadixOutput : kRadixAlternate;
        plans[d] = RadixPassPlan{1, source, destination};
        source = destination;
        ++done;
    }
}

// Shared memory of the onesweep kernel for `threads` threads, in the kernel's order.
template <class Key, class Value>
std::size_t radix_onesweep_shared_bytes(int threads, int items) {
    const std::size_t tile_items = static_cast<std::size_t>(threads) * items;
    std::size_t bytes = kRadixBins * sizeof(u64);                                 // bin_destination
    if constexpr (kRadixHasValues<Value>) bytes += tile_items * sizeof(Value);    // staged_values
    bytes += (threads / kWarpThreads) * kRadixBins * sizeof(unsigned);            // warp_counts
    bytes += 2 * kRadixBins * sizeof(unsigned) + 16;                              // bin_count, bin_start, tile_slot
    return bytes + tile_items * sizeof(Key);                                      // staged_keys
}

// Earlier tiles a look-back step reads at once: fewer round trips to L2 when it walks past tiles
// that have only published their own counts.
constexpr int kRadixLookbackWindow = 4;

// Items whose digit peers are found together: enough independent ballots to overlap, few enough
// that their intermediate masks stay in registers.
constexpr int kRadixRankGroup = 8;

// One digit pass over one portion: each block takes the next tile id of the portion, ranks the
// tile's keys by the digit, looks back for each bin, and scatters. The tile's keys are laid out by
// warp: warp w owns the w-th run of 32 * ITEMS keys, lane l's item k is the run's key k * 32 + l, so
// ranking item by item, lane by lane, keeps equal digits in input order (stability).
template <class Key, class Value, int ITEMS, class ValuesIn = const Value *>
__global__ void __launch_bounds__(kRadixMaxThreads) radix_onesweep_kernel(
    RadixBuffers<Key, Value, ValuesIn> buffers, std::size_t n, int digit, RadixOrder<Key> order,
    const RadixPassPlan *plans, unsigned *tile_counter, unsigned *status, u64 *bases, std::size_t portion,
    std::size_t portions, std::size_t portion_first_tile, std::size_t portion_tiles) {
    const RadixPassPlan plan = plans[digit];
    if (!plan.active) return;
    constexpr bool kHasValues = kRadixHasValues<Value>;
    constexpr int kWarpItems = kWarpThreads * ITEMS;
    const unsigned threads = blockDim.x;
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    const unsigned warps = threads / kWarpThreads;
    const unsigned tile_items = threads * ITEMS;  // at most kRadixMaxThreads * ITEMS: local indices are 32-bit

    extern __shared__ __align__(16) unsigned char radix_shared[];
    // Where the tile's keys of each bin go: global position of the bin's first key minus its
    // position within the staged tile (modulo 2^64), so a staged key at s goes to this + s.
    u64 *bin_destination = reinterpret_cast<u64 *>(radix_shared);
    Value *staged_values = reinterpret_cast<Value *>(bin_destination + kRadixBins);
    // [warp][bin]: the warp's keys of the bin; then where the warp's first key of the bin is staged.
    unsigned *warp_counts = reinterpret_cast<unsigned *>(
        radix_shared + kRadixBins * sizeof(u64) + (kHasValues ? tile_items * sizeof(Value) : 0));
    unsigned *bin_count = warp_counts + warps * kRadixBins;  // the tile's keys of each bin
    unsigned *bin_start = bin_count + kRadixBins;            // where each bin starts in the staged tile
    unsigned *tile_slot = bin_start + kRadixBins;
    Key *staged_keys = reinterpret_cast<Key *>(tile_slot + 4);  // the tile sorted by the digit

    for (unsigned i = threadIdx.x; i < warps * kRadixBins; i += threads) warp_counts[i] = 0;
    if (threadIdx.x == 0) *tile_slot = atomicAdd(tile_counter, 1u);  // in block start order
    __syncthreads();
    const std::size_t tile_in_portion = *tile_slot;
    const std::size_t tile = portion_first_tile + tile_in_portion;
    const std::size_t tile_first = tile * tile_items;
    const unsigned valid = n - tile_first < tile_items ? static_cast<unsigned>(n - tile_first) : tile_items;
    const Key *tile_keys =
        radix_pick(plan.source, buffers.keys_in, buffers.keys_out, buffers.keys_alternate) + tile_first;
    // This warp's run starts at warp_first; its item k (run key k * 32 + lane) is present while
    // k * 32 + lane < warp_valid.
    const unsigned warp_first = warp * kWarpItems;
    const int warp_valid = static_cast<int>(valid) - static_cast<int>(warp_first);
    // Every tile but a call's last is full: its body is compiled without the per-item bounds checks
    // (a fifth of the pass's instructions, and the registers that made it spill). `valid` is the
    // same for the whole block, so every thread takes the same body and meets its barriers.
    const auto rank_and_scatter = [&](auto full_tile) {
        constexpr bool kFullTile = decltype(full_tile)::value;
        const auto present = [&](int k) {
            return kFullTile || k * kWarpThreads + static_cast<int>(lane) < warp_valid;
        };

        Key keys[ITEMS];
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
            keys[k] = present(k) ? tile_keys[warp_first + k * kWarpThreads + lane] : Key{};

        // Rank within the warp, kRadixRankGroup items at a time, in two steps. First, for each item
        // of the group (independent ballots, so they overlap), the peers: the lanes whose key has the
        // same digit, found by intersecting each digit bit's ballot (or its complement). Then item by
        // item: the peers take consecutive counts of the warp's bin, lower lanes first, and the
        // highest peer advances the count.
        unsigned rank[ITEMS];  // the peers, then the key's rank among the warp's keys of its digit
        unsigned *counts = warp_counts + warp * kRadixBins;
        const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
        for (int group = 0; group < ITEMS; group += kRadixRankGroup) {
#pragma unroll
            for (int k = group; k < group + kRadixRankGroup && k < ITEMS; ++k) {
                const unsigned bin = radix_digit(keys[k], digit, order);
                unsigned peers = kFullMask;
                if (!kFullTile && warp_valid < kWarpItems)  // warp-uniform branch
                    peers = __ballot_sync(kFullMask, present(k));
#pragma unroll
                for (int b = 0; b < kRadixDigitBits; ++b) {
                    const unsigned ones = __ballot_sync(kFullMask, (bin >> b) & 1u);
                    peers &= ~(ones ^ (0u - ((bin >> b) & 1u)));  // bit set: ones; clear: ~ones
                }
                rank[k] = peers;
            }
#pragma unroll
            for (int k = group; k < group + kRadixRankGroup && k < ITEMS; ++k) {
                const unsigned peers = rank[k];
                const unsigned bin = radix_digit(keys[k], digit, order);
                const int leader = present(k) ? kWarpThreads - 1 - __clz(peers) : static_cast<int>(lane);
                unsigned counted_before = 0;
                if (present(k) && static_cast<int>(lane) == leader) {
                    counted_before = counts[bin];
                    counts[bin] = counted_before + __popc(peers);
                }
                rank[k] = __shfl_sync(kFullMask, counted_before, leader) + __popc(peers & lanes_below);
                __syncwarp();  // the count's update is visible to the next item's leader
            }
        }
        __syncthreads();

        // The tile's count of each bin, published at once so later tiles can look past this one.
        for (unsigned bin = threadIdx.x; bin < kRadixBins; bin += threads) {
            unsigned total = 0;
            for (unsigned w = 0; w < warps; ++w) total += warp_counts[w * kRadixBins + bin];
            bin_count[bin] = total;
            radix_store_status(&status[tile * kRadixBins + bin],
                               (tile_in_portion == 0 ? kRadixFlagPrefix : kRadixFlagAggregate) | total);
        }
        __syncthreads();

        // Warp 0: exclusive scan of the tile's bin counts (8 bins per lane): each bin's start in the
        // staged tile.
        if (warp == 0) {
            constexpr int kBinsPerLane = kRadixBins / kWarpThreads;
            unsigned lane_counts[kBinsPerLane];
            unsigned lane_total = 0;
#pragma unroll
            for (int j = 0; j < kBinsPerLane; ++j) {
                lane_counts[j] = bin_count[lane * kBinsPerLane + j];
                lane_total += lane_counts[j];
            }
            unsigned inclusive = lane_total;
#pragma unroll
            for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
                const unsigned earlier = __shfl_up_sync(kFullMask, inclusive, offset);
                if (lane >= offset) inclusive += earlier;
            }
            unsigned start = inclusive - lane_total;
#pragma unroll
            for (int j = 0; j < kBinsPerLane; ++j) {
                bin_start[lane * kBinsPerLane + j] = start;
                start += lane_counts[j];
            }
        }
        __syncthreads();

        // Per bin: each warp's staging position, and the look-back, one thread per bin: add earlier
        // tiles' counts back to the first prefix. The portion's first tile publishes a prefix, so the
        // walk never leaves the portion.
        for (unsigned bin = threadIdx.x; bin < kRadixBins; bin += threads) {
            const unsigned count = bin_count[bin];
            unsigned staged_at = bin_start[bin];
            for (unsigned w = 0; w < warps; ++w) {
                const unsigned warp_count = warp_counts[w * kRadixBins + bin];
                warp_counts[w * kRadixBins + bin] = staged_at;
                staged_at += warp_count;
            }
            unsigned before = 0;  // the bin's keys in earlier tiles of the portion
            if (tile_in_portion > 0) {
                // Windows of earlier tiles loaded at once; a window never reaches below the portion's
                // first tile.
                for (std::size_t window_end = tile;; window_end -= kRadixLookbackWindow) {
                    const std::size_t in_reach = window_end - portion_first_tile;
                    unsigned words[kRadixLookbackWindow];
#pragma unroll
                    for (int w = 0; w < kRadixLookbackWindow; ++w)  // out of reach: a prefix of no keys, never read
                        words[w] = static_cast<std::size_t>(w) < in_reach
                                       ? radix_load_status(&status[(window_end - 1 - w) * kRadixBins + bin])
                                       : kRadixFlagPrefix;
                    bool found_prefix = false;
#pragma unroll
                    for (int w = 0; w < kRadixLookbackWindow; ++w) {
                        if (found_prefix) break;
                        while ((words[w] & ~kRadixCountMask) == 0)  // not published yet
                            words[w] = radix_load_status(&status[(window_end - 1 - w) * kRadixBins + bin]);
                        before += words[w] & kRadixCountMask;
                        found_prefix = (words[w] & kRadixFlagPrefix) != 0;
                    }
                    if (found_prefix) break;
                }
                radix_store_status(&status[tile * kRadixBins + bin], kRadixFlagPrefix | (before + count));
            }
            const u64 first = bases[portion * kRadixBins + bin] + before;
            bin_destination[bin] = first - bin_start[bin];
            // The next portion's launch starts where this portion's keys of the bin end.
            if (tile_in_portion + 1 == portion_tiles && portion + 1 < portions)
                bases[(portion + 1) * kRadixBins + bin] = first + count;
        }
        __syncthreads();

        // Stage the tile sorted by digit; values follow their keys.
        const unsigned *warp_staged_at = warp_counts + warp * kRadixBins;
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            if (present(k)) {
                rank[k] += warp_staged_at[radix_digit(keys[k], digit, order)];
                staged_keys[rank[k]] = keys[k];
            }
        }
        if constexpr (kHasValues) {
            Value values[ITEMS];
            const auto load_values = [&](auto tile_values) {  // tile_values[s]: the value of the tile's item s
#pragma unroll
                for (int k = 0; k < ITEMS; ++k)
                    if (present(k)) values[k] = tile_values[warp_first + k * kWarpThreads + lane];
            };
            if constexpr (std::is_pointer_v<ValuesIn>) {
                load_values(radix_pick(plan.source, buffers.values_in, buffers.values_out, buffers.values_alternate) +
                            tile_first);
            } else if (plan.source == kRadixInput) {
                // The first active pass, whichever digit it is: item i's value is the iterator's item i,
                // so a counting iterator's argsort needs no array of indices.
                load_values(buffers.values_in + tile_first);
            } else {
                load_values((plan.source == kRadixOutput ? buffers.values_out : buffers.values_alternate) + tile_first);
            }
#pragma unroll
            for (int k = 0; k < ITEMS; ++k)
                if (present(k)) staged_values[rank[k]] = values[k];
        }
        __syncthreads();

        // Write out in staged order: neighbouring threads mostly hold one bin, so writes form runs.
        Key *keys_destination = plan.destination == kRadixOutput ? buffers.keys_out : buffers.keys_alternate;
        [[maybe_unused]] Value *values_destination = nullptr;
        if constexpr (kHasValues)
            values_destination = plan.destination == kRadixOutput ? buffers.values_out : buffers.values_alternate;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) {
            const unsigned slot = j * threads + threadIdx.x;
            if (kFullTile || slot < valid) {
                const Key key = staged_keys[slot];
                const u64 destination = bin_destination[radix_digit(key, digit, order)] + slot;
                keys_destination[destination] = key;
                if constexpr (kHasValues) values_destination[destination] = staged_values[slot];
            }
        }
    };
    if (valid == tile_items) rank_and_scatter(std::true_type{});
    else rank_and_scatter(std::false_type{});
}

}  // namespace detail
}  // namespace StreamCompaction
