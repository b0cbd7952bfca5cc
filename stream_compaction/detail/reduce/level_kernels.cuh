#pragma once
// The multi-launch strategies' kernels, one launch per level, in order (any associative operator):
// the tree (pairs) and the group (blocks). The last level writes op(identity, total).
#include <stream_compaction/detail/block/block_reduce.cuh>
#include <stream_compaction/detail/block/tile_scan.cuh>  // shared_storage

#include <cstddef>

namespace StreamCompaction {
namespace detail {

// *out = value: the result of a reduction of nothing, and the atomics' starting value.
template <class T>
__global__ void write_value_kernel(T *out, T value) {
    *out = value;
}

// One level of the tree over in[0, m): out[i] = op(in[2i], in[2i + 1]), and the odd one out
// carried up unchanged: ceil(m / 2) results, in order.
template <class T, class Op>
__global__ void __launch_bounds__(1024) tree_level_kernel(const T *in, std::size_t m, T *out, Op op) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (2 * i >= m) return;
    out[i] = 2 * i + 1 < m ? op(in[2 * i], in[2 * i + 1]) : in[2 * i];
}

// The tree's root, by one thread: m is 1 or 2.
template <class T, class Op>
__global__ void tree_root_kernel(const T *in, std::size_t m, T *out, Op op, T identity) {
    *out = op(identity, m == 2 ? op(in[0], in[1]) : in[0]);
}

// One level of the group reduction over in[0, m): block b combines in[b * B, (b + 1) * B), B its
// block size, and writes out[b]; ceil(m / B) results, in order. The last level (one block) writes
// op(identity, total) to out[0].
template <class T, class Op>
__global__ void __launch_bounds__(1024) group_level_kernel(const T *in, std::size_t m, T *out, Op op, T identity,
                                                           bool root) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const bool valid = i < m;  // a prefix of the block, and thread 0's is always valid
    T x;
    if (valid) x = in[i];
    const T total = block_reduce_prefix(x, valid, op, shared_storage<BlockReduceStorage<T>>());
    if (threadIdx.x == 0) out[blockIdx.x] = root ? op(identity, total) : total;
}

}  // namespace detail
}  // namespace StreamCompaction
