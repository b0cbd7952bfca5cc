#pragma once
// The built-in unsigned integer of an item's size: its raw bits, for work that needs only those
// (the radix sort's order-preserving key maps and its moves of values, the cache-hinted stores,
// which take only built-in types).
#include <cstddef>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// unsigned char, unsigned short, unsigned or unsigned long long for 1, 2, 4 or 8 bytes.
template <std::size_t Bytes>
using unsigned_bits_t =
    std::conditional_t<Bytes == 1, unsigned char,
                       std::conditional_t<Bytes == 2, unsigned short,
                                          std::conditional_t<Bytes == 4, unsigned, unsigned long long>>>;

}  // namespace detail
}  // namespace StreamCompaction
