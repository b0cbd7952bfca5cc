#pragma once
// Moving T items 16 bytes at a time: how many make one access, and the aligned vector that carries
// them.
#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

// Items of T per 16-byte access; types that do not divide 16 bytes move one at a time.
template <class T>
__host__ __device__ constexpr int vector_items() {
    return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;
}

// The alignment of VEC consecutive Ts moved as one access: the largest power of two, at most 16,
// that divides their size (8 for two ints, 2 for two bytes).
template <class T, int VEC>
__host__ __device__ constexpr std::size_t vector_alignment() {
    std::size_t bytes = sizeof(T) * VEC, alignment = 1;
    while (alignment < 16 && bytes % (alignment * 2) == 0) alignment *= 2;
    return alignment < alignof(T) ? alignof(T) : alignment;
}

template <class T, int VEC>
struct alignas(vector_alignment<T, VEC>()) Vector {
    T item[VEC];
};

// Whether p may be read or written 16 bytes at a time.
__host__ __device__ inline bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace detail
}  // namespace StreamCompaction
