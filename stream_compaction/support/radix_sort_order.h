#pragma once
// Which part of each key a radix sort compares, and which way (device/radix_sort.cuh). Plain C++:
// the CPU tests check the bit masks.
#include <stdexcept>
#include <string>

namespace StreamCompaction {

// Bits [begin_bit, end_bit) of each key's order-preserving image are compared (the image: an
// unsigned key's own bits; an int's with the sign bit flipped; a float's with the sign bit flipped
// for positives and every bit for negatives, -0.0 as +0.0), least significant bit 0, like CUB's
// begin_bit / end_bit. The full range, [0, 32), is the keys' own order; an empty range
// (begin_bit == end_bit) compares nothing and leaves the keys in input order. Descending reverses
// the order of the compared bits. Either way the sort is stable: keys equal on the compared bits,
// and their values, keep their input order.
struct RadixSortOrder {
    bool descending = false;
    int begin_bit = 0;
    int end_bit = 32;
};

// The mask of the compared bits; std::invalid_argument naming `name` unless
// 0 <= begin_bit <= end_bit <= 32.
inline unsigned radix_compared_bits(const RadixSortOrder &order, const char *name) {
    if (order.begin_bit < 0 || order.begin_bit > order.end_bit || order.end_bit > 32)
        throw std::invalid_argument(std::string(name) + ": bit range [" + std::to_string(order.begin_bit) + ", " +
                                    std::to_string(order.end_bit) + ") is not within [0, 32)");
    const int width = order.end_bit - order.begin_bit;
    return width == 32 ? 0xffffffffu : ((1u << width) - 1u) << order.begin_bit;
}

}  // namespace StreamCompaction
