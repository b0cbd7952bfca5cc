#pragma once
// Associative operators for the scans and reductions. Any functor `T op(T a, T b)` that is associative works;
// it need not be commutative: the scans always combine a (earlier) with b (later) in that order.
#include <type_traits>

namespace StreamCompaction {

struct Sum {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};

struct Max {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

struct Min {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};

// Bitwise operators of integers (the reductions' atomics support them besides Sum, Min, Max).
struct BitAnd {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a & b; }
};

struct BitOr {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const { return a | b; }
};

// Operators that a reduction may apply in any order (device/reduce.cuh): the chunked strategy
// then folds coalesced stripes of the input, with nothing staged, as CUB does; floating-point
// sums are then added in another order than the sequential one (a different rounding, the same
// from run to run). Specialize it for an operator of your own that commutes. Any other operator
// is applied strictly in input order.
template <class Op, class T>
struct is_commutative : std::false_type {};
template <class T>
struct is_commutative<Sum, T> : std::is_arithmetic<T> {};
template <class T>
struct is_commutative<Min, T> : std::is_arithmetic<T> {};
template <class T>
struct is_commutative<Max, T> : std::is_arithmetic<T> {};
template <class T>
struct is_commutative<BitAnd, T> : std::is_integral<T> {};
template <class T>
struct is_commutative<BitOr, T> : std::is_integral<T> {};

}  // namespace StreamCompaction

namespace StreamCompaction {

// Predicates for select_if, partition and stable_partition.
struct NonZero {
    template <class T>
    __host__ __device__ bool operator()(const T &x) const { return x != T(0); }
};

template <class T>
struct LessThan {
    T pivot;
    __host__ __device__ bool operator()(const T &x) const { return x < pivot; }
};

}  // namespace StreamCompaction

namespace StreamCompaction {

// The order of sorted inputs (merge, sorted search, join): a strict weak ordering, x < y by default.
struct Less {
    template <class T>
    __host__ __device__ bool operator()(const T &x, const T &y) const { return x < y; }
};

}  // namespace StreamCompaction
