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
//   unsigned magnitude(const Item &x);                    bits whose OR over a piece lets
//                                                         step_piece choose a cheaper path
//   void step_piece(State &, const Vector<Item, VEC> (&piece)[R], unsigned local, unsigned magnitude);
//                                                         the R * VEC items from `local` on, as
//                                                         many steps; `magnitude`: the OR of
//                                                         magnitude() over the piece (over the
//                                                         warp's step: one path for the warp)
#include <stream_compaction/detail/block/tile_scan.cuh>  // Vector
#include <stream_compaction/detail/reduce/segment_tuple.h>
#include <stream_compaction/detail/warp/warp_scan.cuh>  // Partial
#include <stream_compaction/support/half_precision.cuh>

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
    __device__ __forceinline__ unsigned magnitude(const T &) const { return 0; }
    template <int R, int VEC>
    __device__ __forceinline__ void step_piece(State &s, const Vector<T, VEC> (&piece)[R], unsigned local,
                                               unsigned) const {
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
    // Kadane's step in 64-bit sums is about 12 integer instructions an item, more than the SMs
    // issue at the memory's pace, so a sub-piece of small values takes fewer: of magnitude at most
    // 2^14, every candidate packed in one key (packed_fold_step: 6 instructions, maxima for the
    // compare-and-selects); at most 2^25, 32-bit sums (every sum of a sub-piece within 2^30).
    // Either fold is appended to the chunk's; any other piece is stepped through in 64 bits.
    static constexpr unsigned kMaxPieceItems = 32;
    static constexpr unsigned kNarrowMagnitude = (1u << 30) / kMaxPieceItems;
    __device__ __forceinline__ unsigned magnitude(const int &x) const { return magnitude_bits(x); }
    template <int R, int VEC>
    __device__ __forceinline__ void step_piece(State &s, const Vector<int, VEC> (&piece)[R], unsigned local,
                                               unsigned magnitude) const {
        // A longer piece is folded as consecutive sub-pieces of kMaxPieceItems, each appended.
        constexpr int SUB = R * VEC <= static_cast<int>(kMaxPieceItems) ? R : static_cast<int>(kMaxPieceItems) / VEC;
        static_assert(R % SUB == 0 && SUB * VEC <= static_cast<int>(kMaxPieceItems) &&
                          SUB * VEC <= static_cast<int>(kPackedFoldItems),
                      "a narrow sub-piece's sums must stay within 2^30, a packed one's within 2^19");
        if (packed_fold_fits(magnitude)) {
#pragma unroll
            for (int h = 0; h < R; h += SUB) {
                PackedKadane sub_fold = packed_fold_start();
#pragma unroll
                for (int v = 0; v < SUB; ++v)
#pragma unroll
                    for (int k = 0; k < VEC; ++k) packed_fold_step(sub_fold, piece[h + v].item[k], v * VEC + k);
                segment_fold_append(s, packed_fold_result(sub_fold), local + h * VEC);
            }
        } else if (magnitude < kNarrowMagnitude) {
#pragma unroll 1
            for (int h = 0; h < R; h += SUB) {
                KadaneFold<int> sub_fold = segment_fold_start<int>();
#pragma unroll 1
                for (int v = 0; v < SUB; ++v)
#pragma unroll
                    for (int k = 0; k < VEC; ++k) segment_fold_step(sub_fold, piece[h + v].item[k], v * VEC + k);
                segment_fold_append(s, sub_fold, local + h * VEC);
            }
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

// *out = the float sum identity + total, rounded to the 16-bit T once.
template <class T>
struct WriteNarrowedSum {
    T *out;
    float identity;
    __device__ __forceinline__ void operator()(const float &total) const { *out = from_float<T>(identity + total); }
};

struct WriteMaxSegment {
    MaxSegmentSum *out;
    __device__ __forceinline__ void operator()(const SegmentTuple &total) const { *out = max_segment_of(total); }
};

}  // namespace detail
}  // namespace StreamCompaction
