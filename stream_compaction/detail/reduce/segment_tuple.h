#pragma once
// The maximum segment sum as a map-reduce: the lecture's 4-tuple (mss, mis, mcs, ts), each field
// with its bounds, so that the reduction returns the segment as well as its sum. Plain C++ that
// compiles for the host and the device: the kernels run it, and the CPU tests check the operator's
// associativity and the lane fold against a brute force.
//
// Tie rule (support/reduction.h): of the segments with the largest sum, the one that starts first,
// then the shortest. Every field below is the best candidate of its kind under an order that
// agrees with it, so combining two ranges only compares candidates: the operator is associative.
// Sums are 64-bit: int32 values over fewer than 2^32 elements cannot overflow them.
#include <stream_compaction/support/reduction.h>

#include <climits>

#if defined(__CUDACC__)
#define SC_SEGMENT_HD __host__ __device__ __forceinline__
#else
#define SC_SEGMENT_HD inline
#endif

namespace StreamCompaction {
namespace detail {

using SegmentIndex = unsigned long long;

// The reduction of a non-empty range [a, b) of the array; only non-empty segments are candidates
// (the empty one is added at the end, max_segment_of).
struct SegmentTuple {
    long long total;   // ts: the sum of [a, b)
    long long prefix;  // mis: the largest sum of a prefix [a, prefix_end); ties: the shortest
    long long suffix;  // mcs: the largest sum of a suffix [suffix_begin, b); ties: the longest
    long long best;    // mss: the largest sum of a segment [best_begin, best_end); ties: the tie rule
    SegmentIndex prefix_end, suffix_begin, best_begin, best_end;
};

// The map: element x at index i.
SC_SEGMENT_HD SegmentTuple segment_of(long long x, SegmentIndex i) { return {x, x, x, x, i + 1, i, i, i + 1}; }

// Whether segment (sum, begin, end) beats (other_sum, other_begin, other_end) under the tie rule.
SC_SEGMENT_HD bool better_segment(long long sum, SegmentIndex begin, SegmentIndex end, long long other_sum,
                                  SegmentIndex other_begin, SegmentIndex other_end) {
    if (sum != other_sum) return sum > other_sum;
    if (begin != other_begin) return begin < other_begin;
    return end < other_end;
}

// The operator: `earlier` is [a, m), `later` is [m, b).
SC_SEGMENT_HD SegmentTuple combine_segments(const SegmentTuple &earlier, const SegmentTuple &later) {
    SegmentTuple out;
    out.total = earlier.total + later.total;
    // A prefix of [a, b) is one of earlier's, or all of earlier and one of later's, which ends
    // later: it must be strictly larger to win.
    const long long through = earlier.total + later.prefix;
    const bool longer_prefix = through > earlier.prefix;
    out.prefix = longer_prefix ? through : earlier.prefix;
    out.prefix_end = longer_prefix ? later.prefix_end : earlier.prefix_end;
    // A suffix is one of later's, or one of earlier's followed by all of later, which begins
    // earlier: it wins ties.
    const long long from = earlier.suffix + later.total;
    const bool longer_suffix = from >= later.suffix;
    out.suffix = longer_suffix ? from : later.suffix;
    out.suffix_begin = longer_suffix ? earlier.suffix_begin : later.suffix_begin;
    // A segment lies in earlier, in later, or across m: earlier's best suffix then later's best
    // prefix (the best crossing segment under the tie rule: the earliest begin, the earliest end).
    out.best = earlier.best;
    out.best_begin = earlier.best_begin;
    out.best_end = earlier.best_end;
    const long long across = earlier.suffix + later.prefix;
    if (better_segment(across, earlier.suffix_begin, later.prefix_end, out.best, out.best_begin, out.best_end)) {
        out.best = across;
        out.best_begin = earlier.suffix_begin;
        out.best_end = later.prefix_end;
    }
    if (better_segment(later.best, later.best_begin, later.best_end, out.best, out.best_begin, out.best_end)) {
        out.best = later.best;
        out.best_begin = later.best_begin;
        out.best_end = later.best_end;
    }
    return out;
}

struct CombineSegments {
    SC_SEGMENT_HD SegmentTuple operator()(const SegmentTuple &earlier, const SegmentTuple &later) const {
        return combine_segments(earlier, later);
    }
};

// The answer, with the empty segment as a candidate: it is [0, 0), so it wins every tie at 0.
SC_SEGMENT_HD MaxSegmentSum max_segment_of(const SegmentTuple &t) {
    if (t.best <= 0) return {0, 0, 0};
    return {t.best, static_cast<std::size_t>(t.best_begin), static_cast<std::size_t>(t.best_end)};
}

// ---- one thread's contiguous chunk, folded element by element (Brent's sequential part) ----
//
// The same result as combining segment_of(x_i, i) from left to right, with less work per element
// (Kadane's step): `current` is the best segment ending at the last element seen (ties: the
// earliest begin), so it is both the next candidate for `best` and, at the end, the chunk's best
// suffix. Indices are chunk-local and 32-bit; the caller keeps chunks under 2^32 elements. Sums
// are 64-bit for a chunk (SegmentFold); a short stretch whose values are known to be small may be
// folded in 32-bit sums (KadaneFold<int>: half the instructions) and appended to its chunk's fold.
template <class Sum>
struct KadaneFold {
    Sum total, prefix, current, best;
    unsigned prefix_end, current_begin, best_begin, best_end;
};
using SegmentFold = KadaneFold<long long>;

// Below every sum a fold of Sum meets: the sentinel of "no prefix, no segment yet".
template <class Sum>
SC_SEGMENT_HD Sum lowest_sum() {
    return sizeof(Sum) == sizeof(long long) ? static_cast<Sum>(LLONG_MIN) : static_cast<Sum>(INT_MIN);
}

// Before any element: the first one starts `current` (current < 0) and beats every sentinel.
template <class Sum = long long>
SC_SEGMENT_HD KadaneFold<Sum> segment_fold_start() {
    return {0, lowest_sum<Sum>(), Sum(-1), lowest_sum<Sum>(), 0, 0, 0, 0};
}

template <class Sum>
SC_SEGMENT_HD bool segment_fold_empty(const KadaneFold<Sum> &f) {
    return f.prefix == lowest_sum<Sum>();
}

// Element x at chunk-local index i (indices increase by one from 0).
template <class Sum>
SC_SEGMENT_HD void segment_fold_step(KadaneFold<Sum> &f, int x, unsigned i) {
    f.total += x;
    const bool longer_prefix = f.total > f.prefix;  // a later end wins only when strictly larger
    f.prefix = longer_prefix ? f.total : f.prefix;
    f.prefix_end = longer_prefix ? i + 1 : f.prefix_end;
    const bool restart = f.current < 0;  // at 0, extending keeps the earlier begin (the tie rule)
    f.current = restart ? static_cast<Sum>(x) : f.current + x;
    f.current_begin = restart ? i : f.current_begin;
    // Strictly larger only: `best` came from an earlier `current`, whose begin is no later than
    // this one's (begins only move forward), and whose end is earlier.
    const bool better = f.current > f.best;
    f.best = better ? f.current : f.best;
    f.best_begin = better ? f.current_begin : f.best_begin;
    f.best_end = better ? i + 1 : f.best_end;
}

// The fold of a non-empty chunk as a tuple, its indices made global (the chunk starts at `base`).
template <class Sum>
SC_SEGMENT_HD SegmentTuple segment_fold_result(const KadaneFold<Sum> &f, SegmentIndex base) {
    return {f.total,           f.prefix,          f.current,           f.best, base + f.prefix_end,
            base + f.current_begin, base + f.best_begin, base + f.best_end};
}

// ---- a piece of at most 32 small values, every candidate packed in one 32-bit key ----
//
// Kadane's step compares a sum and then selects it and its indices: three selects behind each
// compare. With the sums of a piece small enough, a candidate is one key, sum * 2^12 + end code *
// 2^6 + begin code, whose order is the tie rule's (a larger sum; then an earlier end, code 63 -
// end; then an earlier begin, code 63 - begin), and each compare-and-select of the step becomes
// one max. A piece of at most 32 items of magnitude at most 2^14 (packed_fold_fits) keeps every
// sum within [-2^19, 2^19), so every key fits an int.
//
// The running keys carry the end code of the last item seen, so that the candidates for the
// prefix and the best segment need no add of their own: from one item to the next the end code
// falls by 2^6, and the item adds its value's key, so each step adds x * 2^12 - 2^6 to both.
struct PackedKadane {
    int total;    // the piece's sum so far, with the end code of the last item
    int prefix;   // the best prefix: its sum and end code
    int current;  // the best segment ending at the last item: its sum, end code and begin code
    int best;     // the best segment: its sum, end code and begin code
};
constexpr unsigned kPackedFoldItems = 32;
constexpr int kPackedSumScale = 1 << 12;
constexpr int kPackedEndStep = 1 << 6;

// Bits whose OR over a piece tells its largest magnitude: x for x >= 0, -x - 1 below.
SC_SEGMENT_HD unsigned magnitude_bits(int x) { return static_cast<unsigned>(x ^ (x >> 31)); }
// Whether a piece whose items' magnitude_bits OR to `magnitude` may be folded packed.
SC_SEGMENT_HD bool packed_fold_fits(unsigned magnitude) { return magnitude < (1u << 14); }

// The same start as segment_fold_start: no prefix and no segment yet, and a current segment of
// sum -1, which the first item restarts; the keys carry end code 63 (end 0, before the piece).
SC_SEGMENT_HD PackedKadane packed_fold_start() {
    return {63 * kPackedEndStep, INT_MIN, -kPackedSumScale + 63 * kPackedEndStep, INT_MIN};
}

SC_SEGMENT_HD int max_key(int a, int b) { return a > b ? a : b; }

// Item x at piece-local index i < kPackedFoldItems: segment_fold_step, its selects made maxima.
SC_SEGMENT_HD void packed_fold_step(PackedKadane &f, int x, unsigned i) {
    const int step = x * kPackedSumScale - kPackedEndStep;
    f.total += step;
    f.prefix = max_key(f.prefix, f.total);
    // A current segment of negative sum loses to the restart at i (sum 0, begin code 63 - i, end
    // code 63 - i: that of the last item's end); one of sum 0 began earlier, so it wins the tie
    // and is extended, as segment_fold_step does.
    f.current = max_key(f.current, static_cast<int>(63 - i) * (kPackedEndStep + 1)) + step;
    f.best = max_key(f.best, f.current);
}

// The packed fold of a non-empty piece as segment_fold_step's fold of it.
SC_SEGMENT_HD KadaneFold<int> packed_fold_result(const PackedKadane &f) {
    const auto sum = [](int key) { return key >> 12; };  // an arithmetic shift: the floor
    const auto end = [](int key) { return 63u - (static_cast<unsigned>(key) >> 6 & 63u); };
    const auto begin = [](int key) { return 63u - (static_cast<unsigned>(key) & 63u); };
    return {sum(f.total), sum(f.prefix), sum(f.current), sum(f.best),
            end(f.prefix), begin(f.current), begin(f.best), end(f.best)};
}

// Appends to a chunk's fold the fold of the stretch that follows it, whose own indices start at 0
// at chunk-local index `offset`: the same as stepping the chunk's fold through the stretch.
template <class Sum>
SC_SEGMENT_HD void segment_fold_append(SegmentFold &f, const KadaneFold<Sum> &later, unsigned offset) {
    if (segment_fold_empty(later)) return;
    const SegmentTuple tail = segment_fold_result(later, offset);
    const SegmentTuple all = segment_fold_empty(f) ? tail : combine_segments(segment_fold_result(f, 0), tail);
    f = {all.total,
         all.prefix,
         all.suffix,
         all.best,
         static_cast<unsigned>(all.prefix_end),
         static_cast<unsigned>(all.suffix_begin),
         static_cast<unsigned>(all.best_begin),
         static_cast<unsigned>(all.best_end)};
}

}  // namespace detail
}  // namespace StreamCompaction

#undef SC_SEGMENT_HD
