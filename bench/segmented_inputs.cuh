#pragma once
// The inputs of the segmented part (sc_nvbench_segmented), shared with the CCCL anchors
// (bench/anchors/, which time another CCCL's segmented scans on the same data): 2^26 int values from
// index_hash, and four segmentations (geometric lengths of mean 4, 64 and 4096, and power-law
// lengths) from a seeded host generator, as CSR offsets. Also the part's axes, a state's inputs in
// every form the implementations take (SegmentedInputs), and the CPU's exclusive segment sums.
#include "fill.h"
#include "nvbench/host_reference.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
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
    std::string name;  // the benchmarks' param axis value
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

// The part's axes: n = 2^kLog2, its one size, and param, make_segmentations's names in its order.
const std::vector<std::int64_t> kSegmentedLog2 = {kLog2};
const std::vector<std::string> kSegmentationNames = {"mean 4", "mean 64", "mean 4096", "power-law"};

// The values' type: int (the segmented_scan and segmented_reduce rows) or float (their _float rows).
template <class V>
constexpr bool kIsFloat = std::is_same_v<V, float>;

// What the CPU sums V's in: int for the ints (in [0, 16): no sum of 2^26 of them overflows); double for the
// floats, where every sum is exact (multiples of 2^-23 of magnitude below 2^26: 49 bits), so the reference is
// the same in any order of association, the true sums.
template <class V>
using HostSum = std::conditional_t<kIsFloat<V>, double, int>;

template <class V>
const char *value_name() {
    return kIsFloat<V> ? "float" : "int";
}

// Value i as the fill kernels compute it: the float expression is exact, so the host's rounding is the device's.
template <class V>
V value_at(std::size_t i) {
    if constexpr (kIsFloat<V>)
        return float_value(i);
    else
        return static_cast<int>(index_hash(i, kValueSeed) & 15u);
}

template <class V>
void fill_values_on(V *values, std::size_t n, cudaStream_t stream) {
    if constexpr (kIsFloat<V>) {
        fill_float_values<<<fill_blocks(n), kFillThreads, 0, stream>>>(values, n);
        SC_CHECK_LAUNCH(fill_float_values);
    } else {
        fill_values<<<fill_blocks(n), kFillThreads, 0, stream>>>(values, n);
        SC_CHECK_LAUNCH(fill_values);
    }
}

// The four segmentations of n elements. make_segmentations draws all four from one generator, in
// order, so they are made together, once per n (about a second on the host at 2^26) and kept.
struct Segmentations {
    std::vector<Segmentation> all;
    std::size_t footprint() const {
        std::size_t bytes = 0;
        for (const Segmentation &segmentation : all) bytes += segmentation.offsets.size() * sizeof(int);
        return bytes;
    }
};

// The state's segmentation (kept alive by its holder); null when its name is none of them.
struct NamedSegmentation {
    std::shared_ptr<const Segmentations> holder;
    const Segmentation *segmentation;
};
inline NamedSegmentation segmentation_named(std::size_t n, const std::string &name) {
    auto made = cached_reference<Segmentations>("segmentations n=" + std::to_string(n),
                                                [n] { return Segmentations{make_segmentations(n)}; });
    for (const Segmentation &segmentation : made->all)
        if (segmentation.name == name) return {made, &segmentation};
    return {made, nullptr};
}

// The values as the CPU computes them, once per n and type.
template <class V>
std::shared_ptr<const std::vector<V>> host_values_of(std::size_t n) {
    return cached_reference<std::vector<V>>(
        std::string("segmented values ") + value_name<V>() + " n=" + std::to_string(n),
        [n] { return generated<V>(n, value_at<V>); });
}

// A state's inputs: the values on the device and, as the CPU computes them, on the host; the segmentation
// in every form the implementations take (segment ids as keys, uint8 head flags, CSR offsets) on the device.
template <class V>
struct SegmentedInputs {
    std::string point;  // n, the segmentation's name and the values' type: the key of this point's references
    std::size_t n, segments;
    NamedSegmentation segmentation;
    std::shared_ptr<const std::vector<V>> host_values;
    StreamCompaction::DeviceBuffer<V> values;
    StreamCompaction::DeviceBuffer<int> keys, offsets;
    StreamCompaction::DeviceBuffer<std::uint8_t> flags;
    const std::vector<int> &host_offsets() const { return segmentation.segmentation->offsets; }
};

// The keys and flags are made on the host by pieces of the segments, each piece writing its own
// segments' elements.
template <class V>
SegmentedInputs<V> make_inputs(NamedSegmentation segmentation, std::size_t n, cudaStream_t stream) {
    using StreamCompaction::DeviceBuffer;
    const std::vector<int> &offsets = segmentation.segmentation->offsets;
    const std::size_t segments = offsets.size() - 1;
    std::vector<int> keys(n);
    std::vector<std::uint8_t> flags(n, 0);
    parallel_for(segments, [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s) {
            std::fill(keys.begin() + offsets[s], keys.begin() + offsets[s + 1], static_cast<int>(s));
            if (offsets[s] < offsets[s + 1]) flags[offsets[s]] = 1;
        }
    });
    const std::string point =
        "n=" + std::to_string(n) + " " + segmentation.segmentation->name + " " + value_name<V>();
    SegmentedInputs<V> in{point,
                          n,
                          segments,
                          std::move(segmentation),
                          host_values_of<V>(n),
                          DeviceBuffer<V>(n),
                          DeviceBuffer<int>::from_host(keys.data(), n),
                          DeviceBuffer<int>::from_host(offsets.data(), offsets.size()),
                          DeviceBuffer<std::uint8_t>::from_host(flags.data(), n)};
    fill_values_on(in.values.get(), n, stream);
    return in;
}

// Each element's sum of the values before it in its segment, by pieces of the segments; once per point.
template <class V>
std::shared_ptr<const std::vector<HostSum<V>>> exclusive_segment_sums(const SegmentedInputs<V> &in) {
    return cached_reference<std::vector<HostSum<V>>>("exclusive segment sums " + in.point, [&in] {
        const std::vector<int> &offsets = in.host_offsets();
        const std::vector<V> &values = *in.host_values;
        std::vector<HostSum<V>> out(in.n);
        parallel_for(in.segments, [&](std::size_t begin, std::size_t end) {
            for (std::size_t s = begin; s < end; ++s) {
                HostSum<V> sum = 0;
                for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
                    out[i] = sum;
                    sum += values[i];
                }
            }
        });
        return out;
    });
}

}  // namespace segmented_inputs
}  // namespace bench
