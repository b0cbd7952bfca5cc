#pragma once
// Which part of each key a radix sort compares, and which way (device/radix_sort.cuh). Plain C++:
// the CPU tests check the bit masks.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace StreamCompaction {

// Bits [begin_bit, end_bit) of each key's order-preserving image are compared (the image: an
// unsigned key's own bits; a signed integer's with the sign bit flipped; a floating-point key's
// (__half, __nv_bfloat16, float, double) with the sign bit flipped for positives and every bit for
// negatives, -0.0 as +0.0), least significant bit 0, like CUB's begin_bit / end_bit. end_bit =
// kKeyWidth (the default) is the key's width, 8, 16, 32 or 64 bits; the full range is the keys' own
// order. An empty range (begin_bit == end_bit) compares nothing and leaves the keys in input order.
// Descending reverses the order of the compared bits. Either way the sort is stable: keys equal on
// the compared bits, and their values, keep their input order.
struct RadixSortOrder {
    static constexpr int kKeyWidth = -1;
    bool descending = false;
    int begin_bit = 0;
    int end_bit = kKeyWidth;
};

// The mask of the compared bits of a key of key_bits (8, 16, 32 or 64) bits; std::invalid_argument naming
// `name` unless 0 <= begin_bit <= end_bit <= key_bits (end_bit kKeyWidth: key_bits).
inline std::uint64_t radix_compared_bits(const RadixSortOrder &order, const char *name, int key_bits = 32) {
    const int end_bit = order.end_bit == RadixSortOrder::kKeyWidth ? key_bits : order.end_bit;
    if (order.begin_bit < 0 || order.begin_bit > end_bit || end_bit > key_bits)
        throw std::invalid_argument(std::string(name) + ": bit range [" + std::to_string(order.begin_bit) + ", " +
                                    std::to_string(end_bit) + ") is not within [0, " + std::to_string(key_bits) +
                                    ")");
    const int width = end_bit - order.begin_bit;
    return width == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << width) - 1u) << order.begin_bit;
}

}  // namespace StreamCompaction
