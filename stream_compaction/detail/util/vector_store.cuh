#pragma once
// Stores of consecutive items 16 bytes a thread. An H100 writes 2^28 int32 outputs at two-thirds
// of the copy bandwidth with a 4-byte store a thread, at the copy bandwidth with 16 bytes
// (bench/results/experiments/h100_2026-11-26_write_roofline.txt). The load-balancing search's
// outputs take these where the output's alignment allows. (The merge's tile, already at the copy
// bandwidth with a store an item, gained nothing from them.)
#include <stream_compaction/detail/util/unsigned_bits.cuh>

#include <cstring>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Items of type U a 16-byte store packs: 16 / sizeof(U) where U is 1, 2, 4 or 8 bytes at its own
// alignment, else 1 (a store an item).
template <class U>
constexpr int kItemsPerVectorStore =
    std::is_trivially_copyable<U>::value && sizeof(U) == alignof(U) && sizeof(U) <= 8 ? 16 / sizeof(U) : 1;

// The unsigned integer of U's size, for the cache-hinted stores (which take only built-in types).
template <class U>
using StoreBits = unsigned_bits_t<sizeof(U)>;

// An evict-first store (st.global.cs) of one item that kItemsPerVectorStore packs: for outputs
// never read back by the kernel, so that L2 keeps what the kernel reads again.
template <class U>
__device__ __forceinline__ void store_evict_first(U *p, const U &value) {
    static_assert(kItemsPerVectorStore<U> > 1, "a 1, 2, 4 or 8-byte item at its own alignment");
    StoreBits<U> bits;
    memcpy(&bits, &value, sizeof bits);
    __stcs(reinterpret_cast<StoreBits<U> *>(p), bits);
}

// kItemsPerVectorStore<U> consecutive items, packed into 16 bytes as they come (put(k, item) for
// k = 0, 1, ...), then stored at once.
template <class U>
struct VectorRun {
    static constexpr int kItems = kItemsPerVectorStore<U>;
    static_assert(kItems > 1, "a 1, 2, 4 or 8-byte item at its own alignment");
    unsigned words[4] = {0u, 0u, 0u, 0u};
    __device__ __forceinline__ void put(int k, const U &item) {
        StoreBits<U> bits;
        memcpy(&bits, &item, sizeof bits);
        if constexpr (sizeof(U) == 8) {
            words[2 * k] = static_cast<unsigned>(bits), words[2 * k + 1] = static_cast<unsigned>(bits >> 32);
        } else {
            constexpr int kPerWord = 4 / sizeof(U);
            words[k / kPerWord] |= static_cast<unsigned>(bits) << (8 * sizeof(U) * (k % kPerWord));
        }
    }
    // An evict-first store to a 16-byte aligned p.
    __device__ __forceinline__ void store_evict_first(U *p) const {
        __stcs(reinterpret_cast<uint4 *>(p), make_uint4(words[0], words[1], words[2], words[3]));
    }
};

}  // namespace detail
}  // namespace StreamCompaction
