#pragma once
// The plainest load and store functors of the transforms that take them (segmented reduce, the
// load-balancing search's per-segment values): element i of an array, or of any input or output
// iterator.

namespace StreamCompaction {
namespace detail {

// Item i of an array, or of any random-access input the device can read (an iterator), as a V.
template <class Input, class V>
struct InputLoad {
    Input input;
    __device__ V operator()(long long i) const { return static_cast<V>(input[i]); }
};

// Result s into an array, or through any random-access output iterator that takes it.
template <class Output>
struct OutputStore {
    Output out;
    template <class V>
    __device__ void operator()(long long s, const V &total) const { out[s] = total; }
};

}  // namespace detail
}  // namespace StreamCompaction
