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
//   bool narrow(const Item &x);                           whether x lets a piece take the cheaper
//                                                         path of step_piece
//   void step_piece(State &, const Vector<Item, VEC> (&piece)[R], unsigned local, bool narrow);
//                                                         the R * VEC items from `local` on, as
//                                                         many steps; `narrow`: every item of the
//                                                         piece (of the warp's step) is narrow
#include <stream_compaction/detail/block/tile_scan.cuh>  // Vector
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
    __device__ __forceinline__ bool narrow(const T &) const { return false; }
    template <int R, int VEC>
    __device__ __forceinline__ void step_piece(State &s, const Vector<T, VEC> (&piece)[R], unsigned local,
                                               bool) const {
#pragma unroll
        for (int v = 0; v < R; ++v)
#pragma unroll
            for (int k = 0; k < VEC; ++k) step(s, piece[v].item[k], local + v * VEC + k);
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
    // A piece of values in [-kNarrowBound, kNarrowBound] has every sum of its elements within 2^30,
    // so it is folded in 32-bit sums (about half the instructions of 64-bit ones: the fold is bound
    // by the SMs' integer issue rate, not by memory) and appended to the chunk's fold; any other
    // piece is stepped through in 64 bits.
    static constexpr unsigned kMaxPieceItems = 32;
    static constexpr unsigned kNarrowBound = (1u << 30) / kMaxPieceItems;
    __device__ __forceinline__ bool narrow(const int &x) const {
        return static_cast<unsigned>(x) + kNarrowBound <= 2 * kNarrowBound;
    }
    template <int R, int VEC>
    __device__ __forceinline__ void step_piece(State &s, const Vector<int, VEC> (&piece)[R], unsigned local,
                                               bool narrow_piece) const {
        static_assert(R * VEC <= kMaxPieceItems, "a narrow piece's sums must stay within 2^30");
        if (narrow_piece) {
            KadaneFold<int> piece_fold = segment_fold_start<int>();
#pragma unroll 1
            for (int v = 0; v < R; ++v)
#pragma unroll
                for (int k = 0; k < VEC; ++k) segment_fold_step(piece_fold, piece[v].item[k], v * VEC + k);
            segment_fold_append(s, piece_fold, local);
        } else {
#pragma unroll
            for (int v = 0; v < R; ++v)
#pragma unroll
                for (int k = 0; k < VEC; ++k) segment_fold_step(s, piece[v].item[k], local + v * VEC + k);
        }
    }
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
