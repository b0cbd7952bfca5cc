#pragma once
// The plainest load and store functors of the transforms that take them (segmented reduce, the
// load-balancing search's per-segment values): element i of an array.

namespace StreamCompaction {
namespace detail {

template <class V>
struct ArrayLoad {
    const V *values;
    __device__ V operator()(long long i) const { return values[i]; }
};

template <class V>
struct ArrayStore {
    V *out;
    __device__ void operator()(long long s, const V &total) const { out[s] = total; }
};

}  // namespace detail
}  // namespace StreamCompaction
