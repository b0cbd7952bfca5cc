#pragma once
// The bin of a sample among `bins` even bins over [lower, upper): floor((x - lower) * bins /
// (upper - lower)), computed exactly for integer samples and in double precision for floating-point
// ones. The CPU reference (cpu.h, histogramEven) computes the same expressions.
#include <cstdint>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Integer samples of at most 32 bits: the offset d = x - lower (< range = upper - lower < 2^32) and
// p = d * bins (< 2^63, bins < 2^31) are exact in 64 bits; p / range is a 64-bit multiply-high by the
// precomputed floor((2^64 - 1) / range), which is at most 2 below the quotient, then corrected.
template <class Sample>
struct IntegerEvenBins {
    static_assert(std::is_integral_v<Sample> && sizeof(Sample) <= 4, "integer samples of at most 32 bits");
    Sample lower, upper;
    unsigned bins;
    std::uint64_t range;
    std::uint64_t reciprocal;  // floor((2^64 - 1) / range)

    static IntegerEvenBins make(Sample lower, Sample upper, unsigned bins) {
        const std::uint64_t range = static_cast<std::uint64_t>(static_cast<std::int64_t>(upper) - lower);
        return {lower, upper, bins, range, ~std::uint64_t{0} / range};
    }

    // Whether x falls in [lower, upper); if so, its bin.
    __device__ bool bin_of(Sample x, unsigned &bin) const {
        if (!(x >= lower && x < upper)) return false;
        const std::uint64_t p = static_cast<std::uint64_t>(static_cast<std::int64_t>(x) - lower) * bins;
        std::uint64_t q = __umul64hi(p, reciprocal);
        if ((q + 1) * range <= p) ++q;
        if ((q + 1) * range <= p) ++q;
        bin = static_cast<unsigned>(q);
        return true;
    }
};

// Floating-point samples: (x - lower) * scale in double, scale = bins / (upper - lower) in double,
// truncated; a sample just below upper that rounds up to `bins` goes to the last bin. NaN falls in
// no bin.
template <class Sample>
struct FloatEvenBins {
    static_assert(std::is_floating_point_v<Sample>, "floating-point samples");
    Sample lower, upper;
    unsigned bins;
    double scale;

    static FloatEvenBins make(Sample lower, Sample upper, unsigned bins) {
        return {lower, upper, bins, static_cast<double>(bins) / (static_cast<double>(upper) - static_cast<double>(lower))};
    }

    __device__ bool bin_of(Sample x, unsigned &bin) const {
        if (!(x >= lower && x < upper)) return false;
        const unsigned b = static_cast<unsigned>((static_cast<double>(x) - static_cast<double>(lower)) * scale);
        bin = b < bins ? b : bins - 1;
        return true;
    }
};

template <class Sample>
using EvenBins = std::conditional_t<std::is_floating_point_v<Sample>, FloatEvenBins<Sample>, IntegerEvenBins<Sample>>;

}  // namespace detail
}  // namespace StreamCompaction
