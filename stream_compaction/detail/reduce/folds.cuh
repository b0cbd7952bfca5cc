#pragma once
// What the order-preserving chunked kernel folds, and what a reduction's launch writes at the end.
//
// A fold turns the items of one lane's contiguous chunk, one at a time and in order, into a value
// of its Acc type, and combines Accs of consecutive chunks in order:
//   State start();                                        before the chunk's first item
//   void step(State &, const Item &x, unsigned local);    x is the chunk's item number `local`
//   Partial<Acc> finish(const State &, std::size_t begin); the chunk (at global index `begin`) as
//                                                         an Acc; not valid when it had no items
//   Acc combine(const Acc &earlier, const Acc &later);
#include <stream_compaction/detail/reduce/segment_tuple.h>
#include <stream_compaction/detail/warp/warp_scan.cuh>  // Partial

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// Any associative operator: the chunk's items combined in order.
template <class T, class Op>
struct OpFold {
    using Item = T;
    using Acc = T;
    using State = Partial<T>;
    Op op;

    __device__ __forceinline__ State start() const {
        State s;
        s.valid = false;
        return s;
    }
    __device__ __forceinline__ void step(State &s, const T &x, unsigned) const {
        if (s.valid) s.value = op(s.value, x);
        else s = {x, true};
    }
    __device__ __forceinline__ Partial<T> finish(const State &s, std::size_t) const { return s; }
    __device__ __forceinline__ T combine(const T &earlier, const T &later) const { return op(earlier, later); }
};

// The maximum segment sum: segment_of fused into the fold (segment_tuple.h), Kadane's step per item.
struct MaxSegmentFold {
    using Item = int;
    using Acc = SegmentTuple;
    using State = SegmentFold;

    __device__ __forceinline__ State start() const { return segment_fold_start(); }
    __device__ __forceinline__ void step(State &s, const int &x, unsigned local) const { segment_fold_step(s, x, local); }
    __device__ __forceinline__ Partial<SegmentTuple> finish(const State &s, std::size_t begin) const {
        return {segment_fold_result(s, begin), !segment_fold_empty(s)};
    }
    __device__ __forceinline__ SegmentTuple combine(const SegmentTuple &earlier, const SegmentTuple &later) const {
        return combine_segments(earlier, later);
    }
};

// ---- what a launch writes: finish(total) gets every item combined in order ----

// *out = op(identity, total): identity comes first, so a left identity suffices.
template <class T, class Op>
struct WriteCombined {
    T *out;
    Op op;
    T identity;
    __device__ __forceinline__ void operator()(const T &total) const { *out = op(identity, total); }
};

struct WriteMaxSegment {
    MaxSegmentSum *out;
    __device__ __forceinline__ void operator()(const SegmentTuple &total) const { *out = max_segment_of(total); }
};

}  // namespace detail
}  // namespace StreamCompaction
