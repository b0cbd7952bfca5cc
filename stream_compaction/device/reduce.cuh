#pragma once
// Reductions on the device: all n items combined into one value, for any trivially copyable T and
// any associative operator, commutative or not; the map fused into the loads (transform_reduce);
// and the maximum segment sum with its segment. Device pointers, 64-bit n, work enqueued on
// `stream`, the result written to device memory (nothing waits on the host).
//
// Example:
//   std::vector<int> in = {1, -2, 3, 4, -1, 5, -6, 1};
//   auto d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
//   DeviceBuffer<int> d_sum(1);
//   std::size_t bytes = reduce_temp_bytes<int>(in.size());        // caller-provided storage
//   DeviceBuffer<char> d_temp(bytes);
//   reduce(d_in.get(), d_sum.get(), in.size(), Sum{}, 0, d_temp.get(), bytes);   // one launch, stream 0
//   int sum = 0;
//   d_sum.copy_to_host(&sum, 1);
//   if (sum != 5) return 1;
//   DeviceBuffer<char> d_tree_temp(reduce_temp_bytes<int>(in.size(), ReduceStrategy::Tree));
//   reduce(ReduceStrategy::Tree, d_in.get(), d_sum.get(), in.size(), Max{}, -1000, d_tree_temp.get(),
//          d_tree_temp.size());                                   // one launch per level
//   d_sum.copy_to_host(&sum, 1);
//   if (sum != 5) return 1;                                       // the largest element
//   DeviceBuffer<MaxSegmentSum> d_best(1);
//   DeviceBuffer<char> d_mss_temp(max_segment_sum_temp_bytes(in.size()));
//   max_segment_sum(d_in.get(), d_best.get(), in.size(), d_mss_temp.get(), d_mss_temp.size());
//   MaxSegmentSum best{};
//   d_best.copy_to_host(&best, 1);
//   if (best.sum != 11 || best.begin != 2 || best.end != 6) return 1;   // [3, 4, -1, 5]
//
// Results: *d_out = op(identity, x_0, ..., x_{n-1}): n = 0 gives `identity`, and since identity is
// only ever the left operand, a left identity (op(identity, x) == x) suffices. The default strategy
// (chunked: one launch) applies the operator in input order, so a non-commutative one (a 2x2
// matrix product, a composition) is right. Operators known to commute (is_commutative, in
// support/operators.cuh: Sum, Min, Max, BitAnd, BitOr of arithmetic types, and the standard
// cuda::std::plus, cuda::minimum, ... and Thrust's, which are these) are applied in another
// order, as CUB does: a float sum is then rounded differently from the sequential one (the same
// way at every run on a GPU). The other strategies (ReduceStrategy, support/reduction.h) are there
// to compare: Tree and Group keep the order, Atomics takes only the operators with atomics.
//
// Sums of __half or __nv_bfloat16 (Sum, cuda::std::plus, thrust::plus) accumulate in float and
// round the result once (support/half_precision.cuh), by the chunked strategy alone: the others
// refuse them.
//
// Temporary storage may hold anything and is reused from call to call; calls that share it must be
// ordered (one stream). Calls may be captured in a CUDA graph and replayed: the chunked launch
// keeps its state in the temporary storage and re-arms it itself. Errors: std::invalid_argument
// for bad arguments (null pointers, storage too small, an operator the atomics cannot do), before
// anything is enqueued; cuda_error from CUDA.
#include <stream_compaction/detail/reduce/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/support/reduction.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {

// Bytes of temporary storage for a reduction of n items of T by `strategy` (0 for n = 0 and for
// Atomics; for Chunked, a call state and one partial per block, at most kReduceMaxBlocks of them).
template <class T>
std::size_t reduce_temp_bytes(std::size_t n, ReduceStrategy strategy = ReduceStrategy::Chunked,
                              const CallEnvironment & = {}) {
    return detail::reduce_temp_bytes_for<T>(n, strategy);
}

// The chunked reduction: one launch.
template <class T, class Op>
void reduce(const T *d_in, T *d_out, std::size_t n, Op op, T identity, void *d_temp, std::size_t temp_bytes,
            const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("reduce");
    require_device_pointers("reduce", n, d_in, d_out);
    detail::require_output("reduce", d_out);
    require_temp_storage("reduce", d_temp, temp_bytes, reduce_temp_bytes<T>(n));
    if constexpr (sums_in_float_v<T, Op>) {
        detail::widened_sum(d_in, n, identity, d_out, d_temp, env);
    } else {
        if (n == 0) return detail::write_value(d_out, identity, env.stream);
        detail::chunked_reduce(detail::ArrayItems<T>{d_in}, n, op, detail::WriteCombined<T, Op>{d_out, op, identity},
                               d_temp, env);
    }
}

// The same by any strategy; storage: reduce_temp_bytes<T>(n, strategy).
template <class T, class Op>
void reduce(ReduceStrategy strategy, const T *d_in, T *d_out, std::size_t n, Op op, T identity, void *d_temp,
            std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("reduce");
    require_device_pointers("reduce", n, d_in, d_out);
    detail::require_output("reduce", d_out);
    require_temp_storage("reduce", d_temp, temp_bytes, reduce_temp_bytes<T>(n, strategy));
    if constexpr (sums_in_float_v<T, Op>) {
        if (strategy != ReduceStrategy::Chunked)
            throw std::invalid_argument(std::string("reduce: a sum of 16-bit floats accumulates in float, which the ") +
                                        reduce_strategy_name(strategy) + " strategy does not do; use Chunked");
        detail::widened_sum(d_in, n, identity, d_out, d_temp, env);
    } else {
        detail::reduce_by("reduce", strategy, d_in, n, op, identity, d_out, d_temp, env);
    }
}

// The reduction of the items load(0), ..., load(n - 1) of a device functor `T load(std::size_t i)`,
// computed as they are combined (nothing is materialized); n may exceed 2^31. One launch of the
// chunked strategy. Storage: transform_reduce_temp_bytes<T>(n).
template <class T>
std::size_t transform_reduce_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::reduce_temp_bytes_for<T>(n, ReduceStrategy::Chunked);
}

template <class Load, class Op, class T>
void transform_reduce(std::size_t n, Load load, Op op, T identity, T *d_out, void *d_temp, std::size_t temp_bytes,
                      const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_reduce");
    detail::require_output("transform_reduce", d_out);
    require_temp_storage("transform_reduce", d_temp, temp_bytes, transform_reduce_temp_bytes<T>(n));
    if (n == 0) return detail::write_value(d_out, identity, env.stream);
    detail::chunked_reduce(detail::FunctorItems<T, Load>{load}, n, op,
                           detail::WriteCombined<T, Op>{d_out, op, identity}, d_temp, env);
}

// The maximum segment sum of n ints and its segment (MaxSegmentSum, support/reduction.h: the
// empty segment is [0, 0) and wins ties at 0; of the segments with the largest sum, the one that
// starts first, then the shortest). A map-reduce with the (mss, mis, mcs, ts) operator, in one
// launch: each thread folds its contiguous chunk with Kadane's step, and the chunks' tuples are
// combined in order. Sums are 64-bit.
inline std::size_t max_segment_sum_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    return detail::max_segment_sum_temp_bytes_for(n);
}

inline void max_segment_sum(const int *d_in, MaxSegmentSum *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                            const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("max_segment_sum");
    require_device_pointers("max_segment_sum", n, d_in, d_out);
    detail::require_output("max_segment_sum", d_out);
    require_temp_storage("max_segment_sum", d_temp, temp_bytes, max_segment_sum_temp_bytes(n));
    detail::max_segment_sum_chunked(d_in, n, d_out, d_temp, env);
}

}  // namespace StreamCompaction
