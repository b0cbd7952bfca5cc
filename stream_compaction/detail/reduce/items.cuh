#pragma once
// Where a reduction's items come from: an array (16-byte loads when it is aligned for them) or a
// device functor of the index (transform_reduce: the map fused into the loads, nothing
// materialized). Both give item(i) and vector<VEC>(i, items) (the VEC items at [i, i + VEC), all
// below n). Indices are std::size_t throughout: n may exceed 2^31.
#include <stream_compaction/detail/util/vector_access.cuh>
#include <stream_compaction/support/half_precision.cuh>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace StreamCompaction {
namespace detail {

// Whether VEC = vector_items<T>() items of T at `p` can be moved as one 16-byte load.
template <class T>
bool vector_loads_fit(const void *p) {
    return vector_items<T>() * sizeof(T) == 16 && aligned16(p);
}

// Items of an array. Vectorized (a kernel's template parameter, so that a tile's loads are issued
// back to back with no branch between them): every vector's start is 16-byte aligned.
template <class T>
struct ArrayItems {
    using Item = T;
    static constexpr bool kCanVectorize = vector_items<T>() * sizeof(T) == 16;
    const T *data;

    // Host: whether the kernels may take their Vectorized path on this array.
    bool vectorizable() const { return vector_loads_fit<T>(data); }

    __device__ __forceinline__ T item(std::size_t i) const { return data[i]; }

    template <int VEC, bool Vectorized>
    __device__ __forceinline__ void vector(std::size_t i, T (&items)[VEC]) const {
        if constexpr (Vectorized && VEC * sizeof(T) == 16) {
            // Read-only path: the input does not change during the launch.
            const uint4 bits = __ldg(reinterpret_cast<const uint4 *>(data + i));
            memcpy(items, &bits, 16);
        } else {
#pragma unroll
            for (int k = 0; k < VEC; ++k) items[k] = data[i + k];
        }
    }
};

// Items of an array of 16-bit floats, as floats (their sums accumulate in float:
// support/half_precision.cuh). Vectorized: a vector's VEC items are one load of VEC * 2 bytes.
template <class T>
struct WidenedItems {
    using Item = float;
    static constexpr bool kCanVectorize = true;
    const T *data;

    bool vectorizable() const {
        return reinterpret_cast<std::uintptr_t>(data) % vector_alignment<T, vector_items<float>()>() == 0;
    }

    __device__ __forceinline__ float item(std::size_t i) const { return to_float(data[i]); }

    template <int VEC, bool Vectorized>
    __device__ __forceinline__ void vector(std::size_t i, float (&items)[VEC]) const {
        if constexpr (Vectorized) {
            const Vector<T, VEC> v = *reinterpret_cast<const Vector<T, VEC> *>(data + i);
#pragma unroll
            for (int k = 0; k < VEC; ++k) items[k] = to_float(v.item[k]);
        } else {
#pragma unroll
            for (int k = 0; k < VEC; ++k) items[k] = to_float(data[i + k]);
        }
    }
};

// Items load(i) of a device functor `T load(std::size_t i)`.
template <class T, class Load>
struct FunctorItems {
    using Item = T;
    static constexpr bool kCanVectorize = false;
    Load load;

    bool vectorizable() const { return false; }

    __device__ __forceinline__ T item(std::size_t i) const { return static_cast<T>(load(i)); }

    template <int VEC, bool Vectorized>
    __device__ __forceinline__ void vector(std::size_t i, T (&items)[VEC]) const {
#pragma unroll
        for (int k = 0; k < VEC; ++k) items[k] = static_cast<T>(load(i + k));
    }
};

}  // namespace detail
}  // namespace StreamCompaction
