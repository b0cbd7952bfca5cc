#pragma once
// The 16-bit floating-point types of mixed-precision code, __half and __nv_bfloat16 (issue #43,
// part 5). Their sums accumulate in float: a scan, a reduction or a segmented reduction of them
// under Sum (or cuda::std::plus, thrust::plus) reads each item as a float, adds in float and
// rounds each result to the 16-bit type once (round to nearest even), as cuBLAS's and cuSPARSE's
// CUDA_R_32F compute type does. An 8-bit exponent and 11 (half) or 8 (bfloat16) bits of mantissa
// would otherwise lose every item below 2^-11 (2^-8) of the running sum: 2048 ones summed in half
// stay at 2048. Other operators (Min, Max, a user's) act on the 16-bit values as given.
// Conversions are the explicit intrinsics, so that code built with -D__CUDA_NO_HALF_CONVERSIONS__
// or -D__CUDA_NO_HALF_OPERATORS__ (PyTorch's flags) compiles too. Which operators are sums:
// sums_in_float_v (operators.cuh). Host code may include this file.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <type_traits>

namespace StreamCompaction {

template <class T>
inline constexpr bool is_half_precision_v =
    std::is_same_v<std::remove_cv_t<T>, __half> || std::is_same_v<std::remove_cv_t<T>, __nv_bfloat16>;

namespace detail {

template <class T>
__host__ __device__ __forceinline__ float to_float(T x) {
    if constexpr (std::is_same_v<T, __half>) return __half2float(x);
    else return __bfloat162float(x);
}

// The 16-bit value nearest to x (ties to even).
template <class T>
__host__ __device__ __forceinline__ T from_float(float x) {
    if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
    else return __float2bfloat16_rn(x);
}

// Loads and stores of the transforms that take them (a segmented reduction's): item i of an input
// (a pointer or any random-access iterator the device can read) as a float, and a float result
// rounded to T into a 16-bit array (or through an output iterator that takes a T).
template <class Input>
struct WidenedLoad {
    Input in;
    __device__ float operator()(long long i) const {
        const auto item = in[i];
        if constexpr (is_half_precision_v<decltype(item)>) return to_float(item);
        else return static_cast<float>(item);
    }
};
template <class T, class Output = T *>
struct NarrowedStore {
    Output out;
    __device__ void operator()(long long i, float value) const { out[i] = from_float<T>(value); }
};

}  // namespace detail
}  // namespace StreamCompaction
