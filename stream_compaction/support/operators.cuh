#pragma once
// Associative operators for the scans. Any functor `T op(T a, T b)` that is associative works;
// it need not be commutative: the scans always combine a (earlier) with b (later) in that order.

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
