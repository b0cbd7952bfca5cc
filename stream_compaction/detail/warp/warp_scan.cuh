#pragma once
// Thread- and warp-level pieces of the scans. The operator need not be commutative and need not
// have an identity: every combination is op(earlier, later), and "nothing before" is a flag.
#include <cstring>

namespace StreamCompaction {
namespace detail {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpThreads = 32;

// A value that may be absent: the prefix of the first element of a scan is empty.
template <class T>
struct Partial {
    T value;
    bool valid;
};

template <class T, class Op>
__device__ __forceinline__ Partial<T> combine(const Partial<T> &earlier, const Partial<T> &later, Op op) {
    if (!earlier.valid) return later;
    if (!later.valid) return earlier;
    return {op(earlier.value, later.value), true};
}

// Shuffles of any trivially copyable T, one 32-bit word at a time.
template <class T>
__device__ __forceinline__ T shfl_up(const T &x, unsigned delta) {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    unsigned words[kWords];
    memcpy(words, &x, sizeof(T));
#pragma unroll
    for (int w = 0; w < kWords; ++w) words[w] = __shfl_up_sync(kFullMask, words[w], delta);
    T y;
    memcpy(&y, words, sizeof(T));
    return y;
}

template <class T>
__device__ __forceinline__ T shfl_idx(const T &x, int src_lane) {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    unsigned words[kWords];
    memcpy(words, &x, sizeof(T));
#pragma unroll
    for (int w = 0; w < kWords; ++w) words[w] = __shfl_sync(kFullMask, words[w], src_lane);
    T y;
    memcpy(&y, words, sizeof(T));
    return y;
}

template <class T>
__device__ __forceinline__ T shfl_down(const T &x, unsigned delta) {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    unsigned words[kWords];
    memcpy(words, &x, sizeof(T));
#pragma unroll
    for (int w = 0; w < kWords; ++w) words[w] = __shfl_down_sync(kFullMask, words[w], delta);
    T y;
    memcpy(&y, words, sizeof(T));
    return y;
}

// Kogge-Stone inclusive scan across the warp of R independent values per lane (the R scans
// interleave for instruction-level parallelism). Needs all 32 lanes.
template <int R, class T, class Op>
__device__ __forceinline__ void warp_inclusive_scan(T (&x)[R], Op op, unsigned lane) {
#pragma unroll
    for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const T earlier = shfl_up(x[r], offset);
            if (lane >= offset) x[r] = op(earlier, x[r]);
        }
    }
}

// Combination of a thread's N items in order.
template <int N, class T, class Op>
__device__ __forceinline__ T thread_reduce(const T (&items)[N], Op op) {
    T total = items[0];
#pragma unroll
    for (int k = 1; k < N; ++k) total = op(total, items[k]);
    return total;
}

}  // namespace detail
}  // namespace StreamCompaction
