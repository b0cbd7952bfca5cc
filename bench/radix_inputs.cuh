#pragma once
// The radix part's inputs (sc_nvbench_radix_sort, nvbench/radix_sort.cu): int keys of seven
// distributions from index_hash, and each key's index in its copy as the values of the pair sorts.
#include "fill.h"

#include <climits>
#include <cstddef>
#include <cstdint>

namespace bench {

constexpr std::uint32_t kRadixKeySeed = 0x50f7ab1eu;

enum class Distribution { Uniform, AllEqual, FewDistinct, Sorted, ReverseSorted, Low8, Low16 };

struct NamedDistribution {
    Distribution distribution;
    const char *name;  // the benchmarks' param axis value
};

constexpr NamedDistribution kDistributions[] = {
    {Distribution::Uniform, "uniform"},          // any int; INT_MIN and INT_MAX planted in every copy
    {Distribution::AllEqual, "all_equal"},       // one negative key
    {Distribution::FewDistinct, "few_distinct"}, // 16 random keys
    {Distribution::Sorted, "sorted"},            // distinct, ascending over the whole int range
    {Distribution::ReverseSorted, "reverse_sorted"},
    {Distribution::Low8, "low8"},                // the low 8 bits random, the rest zero
    {Distribution::Low16, "low16"},              // the low 16 bits random, the rest zero
};

constexpr int kEqualKey = -123456789;
constexpr unsigned kFewDistinctKeys = 16;
constexpr std::uint32_t kFewDistinctSeed = 0xd15c0u;

// Key j of an n-key input, from the element's 32 random bits h.
__device__ inline int make_key(Distribution distribution, std::uint32_t h, std::size_t j, std::size_t n) {
    switch (distribution) {
    case Distribution::Uniform: return j == n / 3 ? INT_MAX : j == n / 2 ? INT_MIN : static_cast<int>(h);
    case Distribution::AllEqual: return kEqualKey;
    // index_hash is one-to-one for indices below 2^32, so the 16 keys are distinct.
    case Distribution::FewDistinct: return static_cast<int>(index_hash(h % kFewDistinctKeys, kFewDistinctSeed));
    case Distribution::Sorted:
    case Distribution::ReverseSorted: {
        // The j-th of n equal steps over the 32-bit range plus random bits within the step:
        // strictly increasing, and every digit varies. Flipping the sign bit turns unsigned order
        // into int order; flipping the others as well reverses it.
        const std::uint64_t step = (std::uint64_t{1} << 32) / n;
        const auto ascending = static_cast<std::uint32_t>(j * step + h % step);
        return static_cast<int>(ascending ^ (distribution == Distribution::Sorted ? 0x80000000u : 0x7fffffffu));
    }
    case Distribution::Low8: return static_cast<int>(h & 0xffu);
    case Distribution::Low16: return static_cast<int>(h & 0xffffu);
    }
    return 0;
}

// (static: internal linkage, so that the header may be included by several files of a program.)
// Keys for pool[0, count), which holds copies of an n-key input `stride` elements apart: each copy
// is a whole input of the distribution (a sorted copy is sorted), with random bits of its own.
static __global__ void fill_keys(int *pool, std::size_t count, std::size_t stride, std::size_t n,
                                 Distribution distribution, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        pool[i] = make_key(distribution, index_hash(i, seed), i % stride, n);
}

// The values of sort_pairs: each key's index in its copy, so that the sorted values show the order
// that equal keys came out in (CUB's is stable).
static __global__ void fill_indices(int *pool, std::size_t count, std::size_t stride) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        pool[i] = static_cast<int>(i % stride);
}

}  // namespace bench
