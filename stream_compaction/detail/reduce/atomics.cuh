#pragma once
// The atomics strategy's combine: one atomic per block into the result. Only the operators the
// hardware has atomics for (Sum, Min, Max, BitAnd, BitOr, and the standard operators that are
// these: standard_operator) on 4- and 8-byte integers, and Sum, Min, Max on float and double (Min
// and Max of those by compare-and-swap).
#include <stream_compaction/support/operators.cuh>

#include <cstring>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

template <class T>
constexpr bool kAtomicInteger = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
constexpr bool kAtomicFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class Op, class T, class Ours = standard_operator_t<Op, T>>
constexpr bool kHasAtomic =
    ((std::is_same_v<Ours, Sum> || std::is_same_v<Ours, Min> || std::is_same_v<Ours, Max>) &&
     (kAtomicInteger<T> || kAtomicFloat<T>)) ||
    ((std::is_same_v<Ours, BitAnd> || std::is_same_v<Ours, BitOr>) && kAtomicInteger<T>);

constexpr const char kAtomicsSupport[] =
    "the atomics strategy supports only Sum, Min, Max (32- and 64-bit integers, float, double) and BitAnd, BitOr "
    "(32- and 64-bit integers), or the standard operators that are these (cuda::std::plus, cuda::minimum, ...)";

// The same bits as an unsigned word of T's size.
template <class T>
using AtomicBits = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

template <class T>
__device__ __forceinline__ AtomicBits<T> bits_of(const T &x) {
    AtomicBits<T> bits;
    memcpy(&bits, &x, sizeof(T));
    return bits;
}

// Min and Max of floating-point values: compare-and-swap until the stored value already is the
// combination, or ours replaced it.
template <class T, class Op>
__device__ __forceinline__ void atomic_fold_by_cas(T *out, const T &value, Op op) {
    auto *word = reinterpret_cast<AtomicBits<T> *>(out);
    AtomicBits<T> seen = *reinterpret_cast<volatile AtomicBits<T> *>(word);
    for (;;) {
        T current;
        memcpy(&current, &seen, sizeof(T));
        const AtomicBits<T> wanted = bits_of(op(current, value));
        if (wanted == seen) return;
        const AtomicBits<T> previous = atomicCAS(word, seen, wanted);
        if (previous == seen) return;
        seen = previous;
    }
}

// *out = op(*out, value), atomically.
template <class T, class Op>
__device__ __forceinline__ void atomic_fold(T *out, const T &value, Op op) {
    static_assert(kHasAtomic<Op, T>, "atomic_fold: the atomics strategy supports only Sum, Min, Max (32- and 64-bit "
                                     "integers, float, double) and BitAnd, BitOr (32- and 64-bit integers)");
    using Bits = AtomicBits<T>;
    using Ours = standard_operator_t<Op, T>;
    if constexpr (std::is_same_v<Ours, Sum>) {
        if constexpr (kAtomicFloat<T>) atomicAdd(out, value);
        else atomicAdd(reinterpret_cast<Bits *>(out), static_cast<Bits>(value));  // two's complement: same bits
    } else if constexpr (std::is_same_v<Ours, BitAnd>) {
        atomicAnd(reinterpret_cast<Bits *>(out), static_cast<Bits>(value));
    } else if constexpr (std::is_same_v<Ours, BitOr>) {
        atomicOr(reinterpret_cast<Bits *>(out), static_cast<Bits>(value));
    } else if constexpr (kAtomicFloat<T>) {
        atomic_fold_by_cas(out, value, op);
    } else {
        // Min, Max of integers: the signedness picks the comparison.
        using Word = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 4, int, long long>, Bits>;
        Word *word = reinterpret_cast<Word *>(out);
        if constexpr (std::is_same_v<Ours, Min>) atomicMin(word, static_cast<Word>(value));
        else atomicMax(word, static_cast<Word>(value));
    }
}

// The end of every block of an atomics launch: thread 0 folds the block's total into *out (set to
// the identity by an earlier launch).
template <class T, class Op>
struct AtomicDone {
    T *out;
    __device__ __forceinline__ void begin() const {}  // the kernel's first step (ClusterDone's contract)
    template <class Combine>
    __device__ __forceinline__ void operator()(const T &block_total, Combine) const {
        if (threadIdx.x == 0) atomic_fold(out, block_total, Op{});
    }
};

}  // namespace detail
}  // namespace StreamCompaction
