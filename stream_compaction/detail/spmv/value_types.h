#pragma once
// SpMV's value types and the type each computes in (device/spmv.cuh): float and double compute in
// themselves; __half and __nv_bfloat16 are a storage format only, computed in float: every product
// and sum, and alpha and beta, are floats, and each row's result is rounded to the value type once.
// Host and device code (the host rounds a CsrMatrix<float> or <double> to 16 bits with these).
#include <stream_compaction/support/half_precision.cuh>

#include <type_traits>

namespace StreamCompaction {

// The type of alpha and beta, and of every product and sum: V for float and double, float for the
// 16-bit types (support/half_precision.cuh; what cuSPARSE's compute type CUDA_R_32F means for
// CUDA_R_16F and CUDA_R_16BF data).
template <class V>
using spmv_scalar_t = std::conditional_t<is_half_precision_v<V>, float, V>;

namespace detail {

// A value in its compute type, exactly (a 16-bit value is a float of fewer bits). The identities
// for float and double leave their code as it was.
__host__ __device__ __forceinline__ float spmv_widen(__half v) { return to_float(v); }
__host__ __device__ __forceinline__ float spmv_widen(__nv_bfloat16 v) { return to_float(v); }
__host__ __device__ __forceinline__ float spmv_widen(float v) { return v; }
__host__ __device__ __forceinline__ double spmv_widen(double v) { return v; }

// w (a float or a double) as a V, rounded to nearest once: from a double straight to 16 bits, not
// through a float (which could round twice).
template <class V, class W>
__host__ __device__ __forceinline__ V spmv_round(W w) {
    static_assert(std::is_same_v<W, float> || std::is_same_v<W, double>, "rounds a float or a double");
    if constexpr (is_half_precision_v<V> && std::is_same_v<W, float>) {
        return from_float<V>(w);
    } else if constexpr (std::is_same_v<V, __half>) {
        return __double2half(w);
    } else if constexpr (std::is_same_v<V, __nv_bfloat16>) {
        return __double2bfloat16(w);
    } else {
        return static_cast<V>(w);
    }
}

}  // namespace detail
}  // namespace StreamCompaction
