#pragma once
// Associative operators for the scans and reductions. Any functor `T op(T a, T b)` that is associative works;
// it need not be commutative: the scans always combine a (earlier) with b (later) in that order.
// The standard ones of CUB and Thrust users (cuda::std::plus, cuda::minimum, ..., and Thrust's, which
// are the same types) are recognised as this file's (standard_operator below).
#include <stream_compaction/support/half_precision.cuh>

#include <cuda/functional>      // cuda::minimum, cuda::maximum (thrust::minimum, thrust::maximum)
#include <cuda/std/functional>  // cuda::std::plus, bit_and, bit_or (thrust::plus, ...)
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

// This file's operator that a standard operator is on items of type T, else Op itself: what the
// kernels branch on (the hardware's atomics and warp reductions, the order a reduction may take),
// so that cuda::std::plus<> or thrust::plus<int> runs the same code as Sum. A typed standard
// operator counts only on items of its own type (cuda::std::plus<int> on floats converts them: it is
// no Sum there); the transparent ones (plus<>, minimum<>, ...) on any type.
template <class Op, class T>
struct standard_operator {
    using type = Op;
};
#define SC_STANDARD_OPERATOR(STANDARD, OURS)   \
    template <class T>                          \
    struct standard_operator<STANDARD<void>, T> { \
        using type = OURS;                      \
    };                                          \
    template <class T>                          \
    struct standard_operator<STANDARD<T>, T> {  \
        using type = OURS;                      \
    };
SC_STANDARD_OPERATOR(::cuda::std::plus, Sum)
SC_STANDARD_OPERATOR(::cuda::minimum, Min)
SC_STANDARD_OPERATOR(::cuda::maximum, Max)
SC_STANDARD_OPERATOR(::cuda::std::bit_and, BitAnd)
SC_STANDARD_OPERATOR(::cuda::std::bit_or, BitOr)
#undef SC_STANDARD_OPERATOR

template <class Op, class T>
using standard_operator_t = typename standard_operator<Op, T>::type;

// Operators that a reduction may apply in any order (device/reduce.cuh): the chunked strategy
// then folds coalesced stripes of the input, with nothing staged, as CUB does; floating-point
// sums are then added in another order than the sequential one (a different rounding, the same
// from run to run). Specialize it for an operator of your own that commutes. Any other operator
// is applied strictly in input order; a standard one as the operator of this file it is.
template <class Op, class T>
struct is_commutative
    : std::conjunction<std::negation<std::is_same<standard_operator_t<Op, T>, Op>>,
                       is_commutative<standard_operator_t<Op, T>, T>> {};
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

// Whether `op` over T's is a sum of 16-bit floats, which accumulates in float (half_precision.cuh).
template <class T, class Op>
inline constexpr bool sums_in_float_v = is_half_precision_v<T> && std::is_same_v<standard_operator_t<Op, T>, Sum>;

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
