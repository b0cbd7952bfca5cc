#pragma once
// Top-k by radix selection: the kernels. Each item is compared as the pair (its compared key bits,
// its input position), which no two items share, so "the k first" is one set and the result is the
// first k items of the stable radix sort. That pair is cut into digits of at most kTopKDigitBits,
// the key's from its top, then the position's (TopKPlan). One pass per digit histograms it over
// the items still in question (those equal to the chosen bins of every earlier digit); a one-block
// chooser finds the bin that holds the k-th of them; the next pass writes the items of lower bins to
// the chosen buffer (they are in) and keeps those of that bin as the candidates of the next digit.
// Once the chosen items and the candidates fit one block (top_k_final_kernel), the candidates are
// chosen too and a block sorts them all and writes the first k.
//
// A sample goes first where it pays (top_k_sample_rank): the threshold it sets leaves about
// (rank + 1) / kTopKSamples of the input below it, and one read of the input (the sampled pass)
// keeps exactly those as candidates. If they are at least k (and fit the buffer), the first pass
// counts them rather than the input, and the rest reads candidates alone: one read of the input
// in all. Otherwise the first pass reads the input as if there had been no sample.
//
// The passes read the input until the candidates fit the candidate buffers (ping-pong, capacity
// from the dispatch), then those. Every launch is made whatever the input: a pass or chooser
// with nothing left to do returns at once, so a captured graph replays right for any keys.
#include <stream_compaction/detail/block/block_merge_sort.cuh>
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/dependent_launch.cuh>
#include <stream_compaction/detail/radix_sort/kernels.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

constexpr int kTopKDigitBits = 11;
constexpr int kTopKBins = 1 << kTopKDigitBits;
// 64 key bits and 64 position bits in digits of at most 11 bits.
constexpr int kTopKMaxDigits = 12;

// One digit of the pair (key bits, position): `width` bits from bit `shift` of one of them.
struct TopKDigit {
    int from_position;
    int shift;
    int width;
};

struct TopKPlan {
    int digits;
    int key_shift;  // the compared bits start at this bit of the key's image (a bit range's begin_bit)
    TopKDigit digit[kTopKMaxDigits];
};

// What the next pass does with the items still in question (those matching every chosen digit so
// far): kTopKHistogram (the first pass: count digit 0 of every item), kTopKNarrow (lower bins are
// chosen, the chosen bin's items are candidates whose next digit is counted), kTopKFinal (lower bins
// and the chosen one are chosen), kTopKDone (nothing).
enum TopKMode : int { kTopKHistogram = 0, kTopKNarrow = 1, kTopKFinal = 2, kTopKDone = 3 };
// Where the next pass reads the items in question: the input, or candidate buffer 0 or 1.
enum TopKSource : int { kTopKFromInput = 0, kTopKFromCandidates0 = 1, kTopKFromCandidates1 = 2 };

// The selection's state, in the temporary storage, zeroed before the first pass. Written by the
// choosers (one block, between passes) but for the counters the passes add to.
struct TopKState {
    u64 remaining;             // of the items in question, how many are still to be chosen
    u64 chosen;                // items in the chosen buffer
    u64 candidates[2];         // items in each candidate buffer
    u64 key_mask, key_prefix;  // the chosen digits so far: item in question iff (bits & mask) == prefix
    u64 position_mask, position_prefix;
    int mode;       // TopKMode of the next pass
    int source;     // TopKSource of the next pass
    int keep;       // whether the next pass writes its candidates (they fit a buffer), or drops them
    unsigned bin;   // the chosen bin of the next pass's digit
    int sampled;    // the sample kernel ran: candidate buffer 0 holds the items of bits <= threshold
    u64 threshold;
};

// Whether the sampled pass found what it needed: at least `k` items of bits <= threshold (so the k
// first are among them), all kept in candidate buffer 0 (at most `capacity`).
__host__ __device__ inline bool top_k_sample_held(const TopKState &s, u64 k, u64 capacity) {
    return s.sampled && s.candidates[0] >= k && s.candidates[0] <= capacity;
}

// An item as the final sort orders it: by its compared bits, then its position.
template <class Bits>
struct TopKItem {
    Bits bits;
    u64 position;
};

struct TopKItemLess {
    template <class Bits>
    __device__ bool operator()(const TopKItem<Bits> &a, const TopKItem<Bits> &b) const {
        return a.bits < b.bits || (a.bits == b.bits && a.position < b.position);
    }
};

// The buffers of the temporary storage: the chosen items (at most TopKFinalSort::kItems), and two
// candidate buffers of `candidate_capacity` items each, bits and positions apart.
template <class Bits>
struct TopKBuffers {
    TopKItem<Bits> *chosen;
    Bits *candidate_bits[2];
    u64 *candidate_positions[2];
    u64 candidate_capacity;
};

// A key's compared bits (radix_compared: flipped when descending, masked to the bit range) moved
// down to bit 0.
template <class Key>
__device__ __forceinline__ radix_bits_t<Key> top_k_bits(Key key, RadixOrder<Key> order, int key_shift) {
    return static_cast<radix_bits_t<Key>>(radix_compared(key, order) >> key_shift);
}

// The final sort: one block of THREADS, kItems = THREADS * kItemsPerThread items at most.
template <int THREADS>
struct TopKFinalSort {
    static constexpr int kItemsPerThread = 8;
    static constexpr unsigned kItems = THREADS * kItemsPerThread;
    template <class Bits>
    static constexpr std::size_t shared_bytes() {
        return merge_slots<TopKItem<Bits>>(kItems) * sizeof(TopKItem<Bits>);
    }
};

// Block-wide exclusive sum of one value a thread (any block size up to 1024); every thread gets
// its prefix and the block's total. Called by every thread.
template <class T>
__device__ T top_k_block_exclusive_sum(T value, T &total, T *warp_sums) {
    const unsigned lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
    const unsigned warps = (blockDim.x + kWarpThreads - 1) / kWarpThreads;
    T inclusive[1] = {value};
    warp_inclusive_scan(inclusive, [](T a, T b) { return a + b; }, lane);
    if (lane == kWarpThreads - 1) warp_sums[warp] = inclusive[0];
    __syncthreads();
    if (warp == 0) {
        T sums[1] = {lane < warps ? warp_sums[lane] : T{0}};
        warp_inclusive_scan(sums, [](T a, T b) { return a + b; }, lane);
        if (lane < warps) warp_sums[lane] = sums[0];
    }
    __syncthreads();
    total = warp_sums[warps - 1];
    const T before_warp = warp == 0 ? T{0} : warp_sums[warp - 1];
    __syncthreads();  // warp_sums may be used again
    return before_warp + inclusive[0] - value;
}

// Where a lane's items go: `packed` holds its chosen count in the high half and its kept count in
// the low (at most a warp's items each), and the warp takes its places by one atomic per buffer.
// Returns the lane's first place in the chosen buffer and in the candidate buffer `destination`.
// Called by all 32 lanes.
__device__ __forceinline__ void top_k_warp_places(unsigned packed, TopKState *state, int destination, u64 &chosen_at,
                                                  u64 &kept_at) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    unsigned inclusive[1] = {packed};
    warp_inclusive_scan(inclusive, [](unsigned a, unsigned b) { return a + b; }, lane);
    const unsigned total = __shfl_sync(kFullMask, inclusive[0], kWarpThreads - 1);
    u64 chosen_base = 0, kept_base = 0;
    if (lane == kWarpThreads - 1) {
        if (total >> 16) chosen_base = atomicAdd(&state->chosen, static_cast<u64>(total >> 16));
        if (total & 0xffffu) kept_base = atomicAdd(&state->candidates[destination], static_cast<u64>(total & 0xffffu));
    }
    chosen_base = __shfl_sync(kFullMask, chosen_base, kWarpThreads - 1);
    kept_base = __shfl_sync(kFullMask, kept_base, kWarpThreads - 1);
    const unsigned before = inclusive[0] - packed;
    chosen_at = chosen_base + (before >> 16);
    kept_at = kept_base + (before & 0xffffu);
}

// Shared memory of top_k_block_places.
struct TopKPlaces {
    unsigned warp_sums[kTopKPassThreads / kWarpThreads];
    u64 chosen_base, kept_base;
};

// top_k_warp_places for a block's tile: one atomic a buffer for the whole tile (a warp's would
// serialize on the counters when most warps have a candidate, as in the sampled pass). Returns
// false, with no places, when the tile has nothing to write. Called by every thread of the block.
__device__ __forceinline__ bool top_k_block_places(unsigned packed, TopKState *state, int destination,
                                                   TopKPlaces &places, u64 &chosen_at, u64 &kept_at) {
    if (!__syncthreads_or(packed != 0)) return false;
    unsigned total;
    const unsigned before = top_k_block_exclusive_sum(packed, total, places.warp_sums);
    if (threadIdx.x == 0) {
        places.chosen_base = (total >> 16) ? atomicAdd(&state->chosen, static_cast<u64>(total >> 16)) : 0;
        places.kept_base =
            (total & 0xffffu) ? atomicAdd(&state->candidates[destination], static_cast<u64>(total & 0xffffu)) : 0;
    }
    __syncthreads();  // the next tile's bases are written after its block sum, which every thread passes
    chosen_at = places.chosen_base + (before >> 16);
    kept_at = places.kept_base + (before & 0xffffu);
    return true;
}

// What a pass does with one item (see the file's comment), from the state it runs under. kKeyDigits:
// this pass's digit and the next are the key's and no position is in the prefix, so an item's
// position is only computed for a write (`position` is a functor, called only when needed).
template <class Bits>
struct TopKSieve {
    enum Fate : unsigned { kNone = 0, kCandidate = 1, kChosen = 2 };
    TopKDigit this_digit, next_digit;
    unsigned bin;
    u64 position_mask, position_prefix;
    unsigned this_mask, next_mask;  // (1 << width) - 1 of each
    Bits key_mask, key_prefix;
    Bits threshold;
    bool first_pass, sampling, counting, check_key, check_position, final, keep;
    unsigned *histogram;  // shared, of the next digit

    template <bool kKeyDigits, class Position>
    __device__ __forceinline__ unsigned digit_of(TopKDigit digit, unsigned mask, Bits bits, Position position) const {
        if (!kKeyDigits && digit.from_position) return static_cast<unsigned>(position() >> digit.shift) & mask;
        return static_cast<unsigned>(bits >> digit.shift) & mask;
    }
    template <bool kKeyDigits, class Position>
    __device__ __forceinline__ bool in_question(Bits bits, Position position) const {
        if (check_key && static_cast<Bits>(bits & key_mask) != key_prefix) return false;
        return kKeyDigits || !check_position || (position() & position_mask) == position_prefix;
    }
    // The item's fate; counts its next digit when it is a candidate (every item, in the first pass).
    template <bool kKeyDigits, class Position>
    __device__ __forceinline__ unsigned sift(Bits bits, Position position) const {
        if (!in_question<kKeyDigits>(bits, position)) return kNone;
        if (sampling) return bits <= threshold ? kCandidate : kNone;
        if (first_pass) {
            atomicAdd(&histogram[digit_of<kKeyDigits>(next_digit, next_mask, bits, position)], 1u);
            return kNone;
        }
        const unsigned d = digit_of<kKeyDigits>(this_digit, this_mask, bits, position);
        if (d < bin || (d == bin && final)) return kChosen;
        if (d != bin) return kNone;
        if (counting) atomicAdd(&histogram[digit_of<kKeyDigits>(next_digit, next_mask, bits, position)], 1u);
        return keep ? kCandidate : kNone;
    }
};

template <class Bits>
__device__ __forceinline__ void top_k_write(unsigned fate, Bits bits, u64 position,
                                            const TopKBuffers<Bits> &buffers, int destination, u64 &chosen_at,
                                            u64 &kept_at) {
    if (fate == TopKSieve<Bits>::kChosen) {
        buffers.chosen[chosen_at++] = TopKItem<Bits>{bits, position};
    } else if (fate == TopKSieve<Bits>::kCandidate) {
        // Past the buffer only in the sampled pass, whose count then says it failed.
        if (kept_at < buffers.candidate_capacity) {
            buffers.candidate_bits[destination][kept_at] = bits;
            buffers.candidate_positions[destination][kept_at] = position;
        }
        ++kept_at;
    }
}

// Sifts a tile of the input in registers (R rows of VEC keys a thread, from `base`; kFull: all
// present, no check a key), then writes the tile's chosen items and candidates. Called by every
// thread of the block.
template <bool kKeyDigits, bool kFull, class Key, int R, int VEC>
__device__ __forceinline__ void top_k_sift_tile(const Key (&tile)[R][VEC], std::size_t base, std::size_t valid,
                                                RadixOrder<Key> order, int key_shift,
                                                const TopKSieve<radix_bits_t<Key>> &sieve, TopKState *state,
                                                const TopKBuffers<radix_bits_t<Key>> &buffers, int destination,
                                                TopKPlaces &places) {
    using Bits = radix_bits_t<Key>;
    using Sieve = TopKSieve<Bits>;
    static_assert(R * VEC <= 16, "two bits of fate an item in one word");
    const unsigned row_items = blockDim.x * VEC;
    const unsigned first = threadIdx.x * VEC;
    unsigned packed = 0, fates = 0;  // item j's fate in bits 2j and 2j + 1
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned offset = r * row_items + first + k;
            if (kFull || offset < valid) {
                const auto position = [&] { return base + offset; };
                const Bits bits = top_k_bits(tile[r][k], order, key_shift);
                const unsigned fate = sieve.template sift<kKeyDigits>(bits, position);
                packed += fate == Sieve::kChosen ? 1u << 16 : fate;
                fates |= fate << (2 * (r * VEC + k));
            }
        }
    if (sieve.first_pass) return;  // it only counts
    u64 chosen_at, kept_at;
    if (!top_k_block_places(packed, state, destination, places, chosen_at, kept_at) || packed == 0) return;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
            const unsigned fate = (fates >> (2 * (r * VEC + k))) & 3u;
            if (fate != Sieve::kNone)
                top_k_write(fate, top_k_bits(tile[r][k], order, key_shift), base + r * row_items + first + k, buffers,
                            destination, chosen_at, kept_at);
        }
}

// The pass kernel's `digit` for the sampled pass: after top_k_sample_kernel, the items of bits at most
// the threshold go to candidate buffer 0 (the first pass then counts their digit 0, not the input's).
constexpr int kTopKSampledPass = -2;

// One block of kTopKSampleThreads: kTopKSamples keys, one every n / kTopKSamples (evenly spaced), and
// the compared bits of the `rank`-th smallest of them (from 0) as the sampled pass's threshold, by a
// radix select over their bits (a count of the samples a bit). About (rank + 1) * n / kTopKSamples
// keys are at most it, whatever the keys' values: the dispatch asks for a rank that makes at least
// k of them all but certain, and the first pass runs after all when the sampled pass finds fewer
// (or more than its buffer holds).
template <class Key>
__global__ void __launch_bounds__(kTopKSampleThreads) top_k_sample_kernel(const Key *keys, std::size_t n,
                                                                           RadixOrder<Key> order, int key_shift,
                                                                           unsigned rank, u64 k, TopKState *state) {
    constexpr int kPerThread = kTopKSamples / kTopKSampleThreads;
    constexpr int kBits = static_cast<int>(sizeof(Key)) * 8;
    const std::size_t stride = n / kTopKSamples;
    u64 samples[kPerThread];
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
        samples[j] = top_k_bits(keys[(threadIdx.x + j * kTopKSampleThreads) * stride], order, key_shift);
    allow_dependent_launch();
    u64 value = 0;  // the bits chosen so far, from the top
    unsigned need = rank;
    for (int bit = kBits - 1; bit >= 0; --bit) {
        const u64 decided = bit == 63 ? 0 : ~u64{0} << (bit + 1);
        unsigned zeros = 0;  // samples that match `value` above `bit` and have a 0 there
#pragma unroll
        for (int j = 0; j < kPerThread; ++j)
            zeros += __syncthreads_count((samples[j] & decided) == value && ((samples[j] >> bit) & 1) == 0);
        if (need >= zeros) {
            need -= zeros;
            value |= u64{1} << bit;
        }
    }
    if (threadIdx.x == 0) {
        state->threshold = value;
        state->sampled = 1;
        state->remaining = k;
    }
}

// One pass over the items in question (see the file's comment), in a grid the GPU holds at once:
// the input in tiles of kTopKPassThreads * R * VEC keys (16-byte loads, the next tile's in flight
// while one is sifted), or the last pass's candidates, 4 a thread. A tile of the input takes the
// places of its chosen items and candidates by one atomic a buffer, a warp of candidates by one of
// its own, and only when it has some. The next digit's histogram (digit + 1) builds in shared
// memory and is added to histograms[digit + 1] at the end. digit -1: the first pass, which only
// counts (the input's keys, or the sampled pass's candidates); kTopKSampledPass: the sampled pass.
template <class Key, int R, int VEC>
__global__ void __launch_bounds__(kTopKPassThreads, resident_blocks(kTopKPassThreads, kTopKPassMinBlocksPerSm))
    top_k_pass_kernel(const Key *keys, std::size_t n, RadixOrder<Key> order, TopKPlan plan, int digit, TopKState *state,
                      u64 *histograms, TopKBuffers<radix_bits_t<Key>> buffers, bool vectorized) {
    using Bits = radix_bits_t<Key>;
    using Sieve = TopKSieve<Bits>;
    __shared__ unsigned histogram[kTopKBins];
    __shared__ TopKPlaces places;
    wait_for_prior_grid();  // the chooser's state
    TopKState s = *state;
    allow_dependent_launch();
    if (s.mode == kTopKDone) return;
    // After a sampled pass that held the k first, the first pass counts its candidates.
    if (digit == -1 && top_k_sample_held(s, s.remaining, buffers.candidate_capacity)) s.source = kTopKFromCandidates0;
    Sieve sieve;
    sieve.bin = s.bin;
    sieve.position_mask = s.position_mask;
    sieve.position_prefix = s.position_prefix;
    sieve.final = s.mode == kTopKFinal;
    sieve.keep = s.keep != 0;
    sieve.first_pass = digit == -1;
    sieve.sampling = digit == kTopKSampledPass;
    sieve.threshold = static_cast<Bits>(s.threshold);
    sieve.counting = !sieve.sampling && s.mode != kTopKFinal && digit + 1 < plan.digits;
    sieve.this_digit = plan.digit[digit < 0 ? 0 : digit];
    sieve.next_digit = plan.digit[digit < 0 || digit + 1 >= plan.digits ? 0 : digit + 1];
    sieve.this_mask = (1u << sieve.this_digit.width) - 1u;
    sieve.next_mask = (1u << sieve.next_digit.width) - 1u;
    sieve.key_mask = static_cast<Bits>(s.key_mask);
    sieve.key_prefix = static_cast<Bits>(s.key_prefix);
    sieve.histogram = histogram;
    const bool from_input = s.source == kTopKFromInput;
    // Candidates are all in question; the first pass has no prefix to check.
    sieve.check_key = from_input && s.key_mask != 0;
    sieve.check_position = from_input && s.position_mask != 0;
    const bool key_digits = !sieve.check_position && !sieve.this_digit.from_position &&
                            (!sieve.counting || !sieve.next_digit.from_position);
    const int destination = s.source == kTopKFromCandidates0 ? 1 : 0;

    if (sieve.counting)
        for (int i = threadIdx.x; i < kTopKBins; i += blockDim.x) histogram[i] = 0;
    __syncthreads();

    if (from_input) {
        const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * R * VEC;
        const std::size_t stride = gridDim.x * tile_items;
        const auto valid_at = [&](std::size_t base) { return n - base < tile_items ? n - base : tile_items; };
        // The next tile's loads are in flight while this one is sifted.
        Key next[R][VEC];
        const std::size_t first = blockIdx.x * tile_items;
        if (first < n) load_tile<R, VEC>(keys + first, next, valid_at(first), vectorized);
        for (std::size_t base = first; base < n; base += stride) {
            const std::size_t valid = valid_at(base);
            Key tile[R][VEC];
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int k = 0; k < VEC; ++k) tile[r][k] = next[r][k];
            if (base + stride < n) load_tile<R, VEC>(keys + base + stride, next, valid_at(base + stride), vectorized);
            if (valid == tile_items && key_digits)
                top_k_sift_tile<true, true>(tile, base, valid, order, plan.key_shift, sieve, state, buffers,
                                            destination, places);
            else
                top_k_sift_tile<false, false>(tile, base, valid, order, plan.key_shift, sieve, state, buffers,
                                              destination, places);
        }
    } else {
        const std::size_t items = static_cast<std::size_t>(s.candidates[s.source - 1]);
        const Bits *source_bits = buffers.candidate_bits[s.source - 1];
        const u64 *source_positions = buffers.candidate_positions[s.source - 1];
        constexpr int kEach = 4;  // candidates a thread in flight
        const std::size_t step = static_cast<std::size_t>(blockDim.x) * kEach;
        // Blocks enough for kTopKCandidateSteps steps each: every block adds its histogram's nonzero
        // bins at the end, so a few candidates spread over the whole grid would cost more there.
        const std::size_t wanted = (items + step * kTopKCandidateSteps - 1) / (step * kTopKCandidateSteps);
        const unsigned blocks = wanted < gridDim.x ? static_cast<unsigned>(wanted) : gridDim.x;
        for (std::size_t base = blockIdx.x * step; blockIdx.x < blocks && base < items; base += blocks * step) {
            Bits bits[kEach];
            u64 positions[kEach];
            unsigned packed = 0, fates = 0;
#pragma unroll
            for (int j = 0; j < kEach; ++j) {
                const std::size_t i = base + j * blockDim.x + threadIdx.x;
                bits[j] = i < items ? source_bits[i] : Bits{};
                positions[j] = i < items ? source_positions[i] : 0;
            }
#pragma unroll
            for (int j = 0; j < kEach; ++j)
                if (base + j * blockDim.x + threadIdx.x < items) {
                    const unsigned fate = sieve.template sift<false>(bits[j], [&] { return positions[j]; });
                    packed += fate == Sieve::kChosen ? 1u << 16 : fate;
                    fates |= fate << (2 * j);
                }
            if (!__any_sync(kFullMask, packed != 0)) continue;
            u64 chosen_at, kept_at;
            top_k_warp_places(packed, state, destination, chosen_at, kept_at);
#pragma unroll
            for (int j = 0; j < kEach; ++j) {
                const unsigned fate = (fates >> (2 * j)) & 3u;
                if (fate != Sieve::kNone)
                    top_k_write(fate, bits[j], positions[j], buffers, destination, chosen_at, kept_at);
            }
        }
    }
    if (!sieve.counting) return;
    __syncthreads();
    u64 *global = histograms + static_cast<std::size_t>(digit + 1) * kTopKBins;
    for (int i = threadIdx.x; i < kTopKBins; i += blockDim.x)
        if (histogram[i] != 0) atomicAdd(&global[i], static_cast<u64>(histogram[i]));
}

// One block of kTopKChooserThreads: folds the last pass's digit into the prefix, chooses the bin of
// `digit` that holds the remaining-th item in question (histograms[digit] counts them), and says
// what the next pass does: whether it chooses that bin's items too (they are all needed, or fit
// the final sort of `capacity` items with those chosen before), where it reads, and whether its
// candidates fit a buffer of `candidate_capacity`.
__global__ void __launch_bounds__(kTopKChooserThreads) top_k_choose_kernel(TopKPlan plan, int digit, u64 k,
                                                                           unsigned capacity, u64 candidate_capacity,
                                                                           TopKState *state, const u64 *histograms) {
    constexpr int kBinsPerThread = kTopKBins / kTopKChooserThreads;
    __shared__ u64 warp_sums[kTopKChooserThreads / kWarpThreads];
    __shared__ unsigned chosen_bin;
    __shared__ u64 before_chosen, in_chosen;
    wait_for_prior_grid();  // the last pass's histogram and counters
    TopKState s = *state;
    allow_dependent_launch();
    if (s.mode == kTopKFinal || s.mode == kTopKDone) {
        if (threadIdx.x == 0) state->mode = kTopKDone;
        return;
    }
    // After a sampled pass that held the k first, its candidates are the items in question.
    const bool sampled = digit == 0 && top_k_sample_held(s, k, candidate_capacity);
    if (digit == 0) s.remaining = k;
    const u64 *histogram = histograms + static_cast<std::size_t>(digit) * kTopKBins;
    u64 counts[kBinsPerThread], mine = 0;
#pragma unroll
    for (int b = 0; b < kBinsPerThread; ++b) {
        counts[b] = histogram[threadIdx.x * kBinsPerThread + b];
        mine += counts[b];
    }
    u64 total;
    u64 before = top_k_block_exclusive_sum(mine, total, warp_sums);
#pragma unroll
    for (int b = 0; b < kBinsPerThread; ++b) {
        // One bin has before < remaining <= before + count: the items in question number at least
        // `remaining`.
        if (before < s.remaining && s.remaining <= before + counts[b]) {
            chosen_bin = threadIdx.x * kBinsPerThread + b;
            before_chosen = before;
            in_chosen = counts[b];
        }
        before += counts[b];
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    if (digit > 0) {  // the previous digit's bin joins the prefix
        const TopKDigit last = plan.digit[digit - 1];
        const u64 mask = ((u64{1} << last.width) - 1) << last.shift, bin = static_cast<u64>(s.bin) << last.shift;
        if (last.from_position) {
            s.position_mask |= mask;
            s.position_prefix |= bin;
        } else {
            s.key_mask |= mask;
            s.key_prefix |= bin;
        }
    }
    // This pass reads what the last one kept (it wrote the buffer other than its source), or the input.
    const int last_destination = s.source == kTopKFromCandidates0 ? kTopKFromCandidates1 : kTopKFromCandidates0;
    s.source = sampled ? kTopKFromCandidates0 : s.keep ? last_destination : kTopKFromInput;
    s.bin = chosen_bin;
    s.remaining -= before_chosen;
    // After the pass, k - remaining are chosen (the lower bins' too); the chosen bin's in_chosen
    // join them if all are needed or they fit the final sort. At the last digit the bin holds one
    // item: no two items share their (bits, position).
    const bool last_digit = digit + 1 == plan.digits;
    s.mode = in_chosen == s.remaining || k - s.remaining + in_chosen <= capacity || last_digit ? kTopKFinal
                                                                                                : kTopKNarrow;
    const int destination = s.source == kTopKFromCandidates0 ? 1 : 0;
    s.candidates[destination] = 0;
    s.keep = s.mode == kTopKNarrow && in_chosen <= candidate_capacity;
    *state = s;
}

// The final sort, one block: the chosen items (state->chosen of them; or, `from_input`, all n keys,
// n at most the sort's items) sorted by (bits, position), and the first k written out, each key
// (and value) read from the input at its position. Up to kTopKRankSortItems items are placed by
// counting, more by block_merge_sort.
template <int THREADS, class Key, class ValuesIn, class Value>
__global__ void __launch_bounds__(THREADS) top_k_final_kernel(const Key *keys, ValuesIn values, std::size_t n,
                                                               RadixOrder<Key> order, int key_shift, u64 k,
                                                               const TopKState *state,
                                                               const TopKItem<radix_bits_t<Key>> *chosen,
                                                               bool from_input, Key *keys_out, Value *values_out) {
    using Bits = radix_bits_t<Key>;
    using Item = TopKItem<Bits>;
    using Sort = TopKFinalSort<THREADS>;
    extern __shared__ __align__(16) unsigned char top_k_final_shared[];
    Item *shared = reinterpret_cast<Item *>(top_k_final_shared);
    wait_for_prior_grid();  // the last pass's chosen items
    const unsigned count = static_cast<unsigned>(from_input ? n : state->chosen);
    // Loaded striped, padding (after every item) from count on, and read back blocked: thread t
    // holds positions t * kItemsPerThread + j, as block_merge_sort takes them.
    for (unsigned j = threadIdx.x; j < Sort::kItems; j += THREADS) {
        Item item{static_cast<Bits>(~Bits{0}), ~u64{0}};
        if (j < count) item = from_input ? Item{top_k_bits(keys[j], order, key_shift), j} : chosen[j];
        shared[merge_slot<Item>(j)] = item;
    }
    __syncthreads();
    if (count <= kTopKRankSortItems) {
        // Few: each item's place is the number of items before it (they are distinct), one pass over
        // them a thread and item, cheaper than the merge rounds.
        for (unsigned j = threadIdx.x; j < count; j += THREADS) {
            const Item item = shared[merge_slot<Item>(j)];
            unsigned place = 0;
            for (unsigned i = 0; i < count; ++i) place += TopKItemLess{}(shared[merge_slot<Item>(i)], item);
            if (place < k) {
                keys_out[place] = keys[item.position];
                if constexpr (!std::is_same_v<Value, KeysOnly>)
                    values_out[place] = static_cast<Value>(values[item.position]);
            }
        }
        return;
    }
    Item items[Sort::kItemsPerThread];
#pragma unroll
    for (int j = 0; j < Sort::kItemsPerThread; ++j)
        items[j] = shared[merge_slot<Item>(threadIdx.x * Sort::kItemsPerThread + j)];
    // Runs as long as `count` (a power-of-two multiple of the items a thread) hold every item sorted.
    block_merge_sort<THREADS>(items, shared, TopKItemLess{}, count, count);
    for (unsigned r = threadIdx.x; r < k; r += THREADS) {
        const u64 position = shared[merge_slot<Item>(r)].position;
        keys_out[r] = keys[position];
        if constexpr (!std::is_same_v<Value, KeysOnly>) values_out[r] = static_cast<Value>(values[position]);
    }
}

}  // namespace detail
}  // namespace StreamCompaction
