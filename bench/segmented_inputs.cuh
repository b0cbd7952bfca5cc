#pragma once
// The inputs of sc_bench's segmented part, shared with sc_bench_cccl_next (which times another
// CCCL's segmented scans on the same data): 2^26 int values from index_hash, and four
// segmentations (geometric lengths of mean 4, 64 and 4096, and power-law lengths) from a seeded
// host generator, as CSR offsets.
#include "fill.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bench {
namespace segmented_inputs {

constexpr int kLog2 = 26;
constexpr std::uint64_t kSegmentSeed = 0x5e6d2024u;
constexpr std::uint32_t kValueSeed = 0x5e6d2025u;
// Power-law lengths floor(U^(-1/alpha)), U uniform in (0, 1]: at least 1, mean about
// alpha / (alpha - 1) = 6, and among the ~10^7 segments of 2^26 elements some of ~10^6.
constexpr double kParetoAlpha = 1.2;

// Values in [0, 16) from a hash of the index: no segment of 2^26 of them overflows int.
static __global__ void fill_values(int *values, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        values[i] = static_cast<int>(index_hash(i, kValueSeed) & 15u);
}

// The _float rows' values: [-1, 1) from a hash of the index, multiples of 2^-23, exact in float.
constexpr std::uint32_t kFloatValueSeed = 0x5e6d2026u;
__host__ __device__ inline float float_value(std::size_t i) {
    return static_cast<float>(index_hash(i, kFloatValueSeed) >> 8) * 0x1p-23f - 1.0f;
}
static __global__ void fill_float_values(float *values, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        values[i] = float_value(i);
}
// A float output passes when no element is further than this from the reference's, relative to
// the reference's largest magnitude (at least 1). Summed in another order, values in [-1, 1) on
// segments of up to ~10^6 of them differ by about 1e-5 of that; NaN anywhere fails.
constexpr double kFloatTolerance = 1e-3;

// Segment lengths from draw_length() until they cover n elements (the last one cut to fit), as CSR
// offsets: segment s is [offsets[s], offsets[s + 1]).
template <class DrawLength>
inline std::vector<int> offsets_covering(std::size_t n, DrawLength draw_length) {
    std::vector<int> offsets{0};
    std::size_t covered = 0;
    while (covered < n) {
        covered += std::min<std::size_t>(draw_length(), n - covered);
        offsets.push_back(static_cast<int>(covered));
    }
    return offsets;
}

// Geometric lengths with the given mean, 0 included: about one segment in mean + 1 is empty.
inline std::vector<int> geometric_offsets(std::size_t n, double mean, std::mt19937_64 &rng) {
    std::geometric_distribution<long long> length(1.0 / (mean + 1.0));
    return offsets_covering(n, [&] { return static_cast<std::size_t>(length(rng)); });
}

inline std::vector<int> power_law_offsets(std::size_t n, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    return offsets_covering(n, [&] {
        const double length = std::floor(std::pow(1.0 - unit(rng), -1.0 / kParetoAlpha));
        return length < static_cast<double>(n) ? static_cast<std::size_t>(length) : n;
    });
}

struct Segmentation {
    std::string name;  // the Measurement's param
    std::vector<int> offsets;
};

inline std::vector<Segmentation> make_segmentations(std::size_t n) {
    std::mt19937_64 rng(kSegmentSeed);
    std::vector<Segmentation> segmentations;
    for (const int mean : {4, 64, 4096})
        segmentations.push_back({"mean " + std::to_string(mean), geometric_offsets(n, mean, rng)});
    segmentations.push_back({"power-law", power_law_offsets(n, rng)});
    return segmentations;
}

}  // namespace segmented_inputs
}  // namespace bench
