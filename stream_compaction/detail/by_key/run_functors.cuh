#pragma once
// The functors the by-key primitives are built from: key comparisons (public, in namespace
// StreamCompaction), the operator of unique_by_key and the keep test of unique.
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace StreamCompaction {

// Keys equal under ==: the default. For floats, -0.0 equals 0.0 and NaN equals nothing (so every
// NaN is a run of its own).
struct EqualTo {
    template <class K>
    __host__ __device__ bool operator()(const K &a, const K &b) const { return a == b; }
};

// Keys equal when their bytes are: for floats, -0.0 and 0.0 differ and a NaN equals its own bit
// pattern. For keys without padding bytes.
struct BitwiseEqual {
    template <class K>
    __host__ __device__ bool operator()(const K &a, const K &b) const {
        if constexpr (sizeof(K) == 4 || sizeof(K) == 8) {
            using Word = std::conditional_t<sizeof(K) == 4, unsigned, unsigned long long>;
            Word x, y;
            memcpy(&x, &a, sizeof(K));
            memcpy(&y, &b, sizeof(K));
            return x == y;
        } else {
            unsigned char x[sizeof(K)], y[sizeof(K)];
            memcpy(x, &a, sizeof(K));
            memcpy(y, &b, sizeof(K));
            bool same = true;
            for (std::size_t i = 0; i < sizeof(K); ++i) same = same && x[i] == y[i];
            return same;
        }
    }
};

namespace detail {

// unique_by_key: a run keeps its first value (associative: op(op(a, b), c) = a = op(a, op(b, c))).
struct FirstValue {
    template <class V>
    __device__ V operator()(const V &earlier, const V &) const { return earlier; }
};

// unique's keep test (select_tile's Keep): item i starts a run of equal items. The item before
// comes from memory, where the L1 cache holds it from the tile's own load (or the L2 from the
// previous tile's).
template <class T, class Equal, class Input = const T *>
struct FirstOfRun {
    Input in;  // a pointer to T, or any random-access iterator the device can read
    Equal equal;
    __device__ bool operator()(std::size_t i, const T &item) const {
        return i == 0 || !equal(static_cast<T>(in[i - 1]), item);
    }
    // The staged select's form: the item before (any value when i == 0), read from its tile.
    __device__ bool operator()(std::size_t i, const T &item, const T &previous) const {
        return i == 0 || !equal(previous, item);
    }
};

}  // namespace detail
}  // namespace StreamCompaction
