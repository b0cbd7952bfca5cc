#pragma once
// The inner join's device functors. The join of sorted a and b: a[i] matches b[lower[i],
// upper[i]) (its lower and upper bounds in b, one sorted search each); the exclusive scan of the
// match counts is CSR offsets, one segment per item of a; the load-balancing search then gives
// every pair its (segment i, rank r), which is the pair (i, lower[i] + r). The pairs come in order
// of a's index, then b's.
//
// Room for only `capacity` pairs, with a graph-capturable call (no count on the host): the offsets
// are clamped to capacity and one more segment, a filler, runs from the clamped total to capacity,
// so the search always covers exactly `capacity` items; the filler's items write nothing.
#include <cstddef>

namespace StreamCompaction {
namespace detail {

// The bounds clamped into [0, nb] (lower) and [lower, nb] (upper): no-ops for sorted inputs; for
// unsorted ones (unspecified bounds) they keep the counts' sum below na * nb and every emitted
// index of b inside b.
__device__ __forceinline__ long long clamp_bound(long long bound, long long low, long long high) {
    return bound < low ? low : bound > high ? high : bound;
}

// Item i's matches: upper[i] - lower[i].
struct JoinMatchCount {
    const long long *lower;
    const long long *upper;
    long long nb;
    __device__ long long operator()(std::size_t i) const {
        const long long first = clamp_bound(lower[i], 0, nb);
        return clamp_bound(upper[i], first, nb) - first;
    }
};

// Receives the inclusive scan of the match counts: offsets[0, na] the pairs before each item of a
// (clamped to capacity), offsets[na + 1] = capacity (the filler segment's end), and the true total
// of pairs to *num_pairs.
struct JoinOffsetStore {
    long long *offsets;
    std::size_t na;
    long long capacity;
    std::size_t *num_pairs;
    __device__ void operator()(std::size_t i, const long long &pairs_through_i) const {
        offsets[i + 1] = pairs_through_i < capacity ? pairs_through_i : capacity;
        if (i == 0) offsets[0] = 0;
        if (i + 1 == na) {
            offsets[na + 1] = capacity;
            *num_pairs = static_cast<std::size_t>(pairs_through_i);
        }
    }
};

// The load-balancing search's function: pair `item` is rank `rank` of a's item `segment`.
template <class Index>
struct JoinEmit {
    const long long *lower;
    long long na, nb;
    Index *out_a;
    Index *out_b;
    template <class Item, class Segment, class Rank>
    __device__ void operator()(Item item, Segment segment, Rank rank) const {
        const long long i = static_cast<long long>(segment);
        if (i >= na) return;  // the filler segment
        out_a[item] = static_cast<Index>(i);
        out_b[item] = static_cast<Index>(clamp_bound(lower[i], 0, nb) + static_cast<long long>(rank));
    }
};

}  // namespace detail
}  // namespace StreamCompaction
