#pragma once
// The radix part's other key widths' inputs (sc_nvbench_radix_sort_key_types,
// nvbench/radix_sort_key_types.cu): random bits a key, for keys of 2 and 8 bytes (int64, double,
// __half).
#include "fill.h"

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bench {

constexpr std::uint32_t kKeyTypeSeed = 0x64b17u;

// The bits of a 2- or 8-byte key.
template <class Key>
using KeyBits = std::conditional_t<sizeof(Key) == 2, std::uint16_t, std::uint64_t>;

// Random bits a key. A floating-point key whose exponent is all ones (NaN, infinity) gets a finite
// one (its top exponent bit cleared), and -0.0 is +0.0: equal keys, which CUB need not keep in
// input order (random 16-bit keys hold thousands of zeros).
template <class Key>
__global__ void fill_key_type_keys(Key *out, std::size_t count, std::uint32_t seed) {
    using Bits = KeyBits<Key>;
    constexpr bool kFloat = std::is_floating_point_v<Key> || std::is_same_v<Key, __half>;
    constexpr int kWidth = sizeof(Key) * 8;
    constexpr Bits kSign = Bits(Bits(1) << (kWidth - 1));
    constexpr Bits kExponent = sizeof(Key) == 2 ? Bits(0x7c00) : Bits(0x7ff0000000000000ull);
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        Bits bits = static_cast<Bits>(std::uint64_t{index_hash(2 * i, seed)} << 32 | index_hash(2 * i + 1, seed));
        if (kFloat && (bits & kExponent) == kExponent) bits = static_cast<Bits>(bits ^ (Bits(1) << (kWidth - 2)));
        if (kFloat && bits == kSign) bits = 0;
        Key key;
        memcpy(&key, &bits, sizeof key);
        out[i] = key;
    }
}

}  // namespace bench
