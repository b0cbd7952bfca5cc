#pragma once
// Single-pass scan (Merrill & Garland 2016, decoupled look-back): one launch reads every element
// once and writes it once, for any trivially copyable T and any associative operator, commutative
// or not. Device pointers, 64-bit n, in place allowed (d_out == d_in), work enqueued on the stream
// of `env` (support/call_environment.h: a stream converts to one), with its block size and staging.
//
// Example:
//   std::vector<int> in(1000, 1), out(in.size());
//   auto d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
//   DeviceBuffer<int> d_out(in.size());
//   std::size_t bytes = scan_temp_bytes<int>(in.size());     // caller-provided storage
//   DeviceBuffer<char> d_temp(bytes);
//   exclusive_scan(d_in.get(), d_out.get(), in.size(), Sum{}, 0, d_temp.get(), bytes);   // stream 0
//   d_out.copy_to_host(out.data(), out.size());
//   for (std::size_t i = 0; i < out.size(); ++i)
//       if (out[i] != int(i)) return 1;
//   inclusive_scan(d_in.get(), d_in.get(), in.size(), Max{});   // in place; allocates its own
//
// The overloads without temporary storage take it from the environment's memory resource, one
// allocation per call, given back on its stream. transform_inclusive_scan<T>(n, load, store, op,
// d_temp, bytes, env) scans items that device functors compute on the fly (below).
//
// __half and __nv_bfloat16 items under Sum (or cuda::std::plus, thrust::plus) are scanned in float,
// each result rounded once (support/half_precision.cuh), on the portable kernel at float's tiles.
//
// Temporary storage may hold anything and is reused from call to call; calls that share it must
// be ordered (one stream). Errors: std::invalid_argument for bad arguments, cuda_error from CUDA.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/half_precision.cuh>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/tuning/call_tuning.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
// Sized for every block size and staging, so it holds for any environment; for 16-bit floats, also
// for their sums in float.
template <class T>
std::size_t scan_temp_bytes(std::size_t n, const CallEnvironment & = {}) {
    if constexpr (is_half_precision_v<T>)
        return std::max(detail::single_pass_temp_bytes<T>(n), detail::single_pass_temp_bytes<float>(n));
    else return detail::single_pass_temp_bytes<T>(n);
}

template <class T, class Op>
void inclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("inclusive_scan");
    if constexpr (sums_in_float_v<T, Op>)
        detail::widened_scan<false>("inclusive_scan", d_in, d_out, n, detail::from_float<T>(0.0f), d_temp, temp_bytes,
                                    env);
    else detail::single_pass_scan<false>("inclusive_scan", d_in, d_out, n, op, T{}, d_temp, temp_bytes, env);
}

template <class T, class Op>
void exclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, T init, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("exclusive_scan");
    if constexpr (sums_in_float_v<T, Op>)
        detail::widened_scan<true>("exclusive_scan", d_in, d_out, n, init, d_temp, temp_bytes, env);
    else detail::single_pass_scan<true>("exclusive_scan", d_in, d_out, n, op, init, d_temp, temp_bytes, env);
}

template <class T, class Op>
void inclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, const CallEnvironment &env = {}) {
    if (n == 0) return;
    single_pass_threads(env.tuning);  // a block size it cannot run is refused before anything is allocated
    detail::with_temp_storage(scan_temp_bytes<T>(n), env, [&](void *d_temp) {
        inclusive_scan(d_in, d_out, n, op, d_temp, scan_temp_bytes<T>(n), env);
    });
}

template <class T, class Op>
void exclusive_scan(const T *d_in, T *d_out, std::size_t n, Op op, T init, const CallEnvironment &env = {}) {
    if (n == 0) return;
    single_pass_threads(env.tuning);  // a block size it cannot run is refused before anything is allocated
    detail::with_temp_storage(scan_temp_bytes<T>(n), env, [&](void *d_temp) {
        exclusive_scan(d_in, d_out, n, op, init, d_temp, scan_temp_bytes<T>(n), env);
    });
}

// Inclusive scan of items computed on the fly, for primitives built on the scan (segmented scans,
// SpMV): `load` and `store` are device functors, T load(std::size_t i) and void store(std::size_t i,
// const T &scanned); each i in [0, n) is loaded once and stored once. Temporary storage:
// scan_temp_bytes<T>(n).
template <class T, class Load, class Store, class Op>
void transform_inclusive_scan(std::size_t n, Load load, Store store, Op op, void *d_temp, std::size_t temp_bytes,
                              const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("transform_inclusive_scan");
    detail::transform_scan<T, Op>(n, load, store, op, d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction
