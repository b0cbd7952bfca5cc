#pragma once
// The inputs of sc_bench's segmented-sort part, shared with sc_bench_cccl_next (which times another
// CCCL's DeviceSegmentedSort on the same data): 2^24 keys and values from index_hash (the seeds below,
// fill_masked_hashes with every bit), and offsets
// of three size classes ("tiny", "mixed", "huge") from a seeded host generator.
#include "fill.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace bench {
namespace segmented_sort_inputs {

constexpr int kLog2 = 24;
constexpr std::uint32_t kKeySeed = 0x736f7274u, kValueSeed = 0x76616c75u;
const char *const kSizeClasses[] = {"tiny", "mixed", "huge"};

inline std::vector<int> make_offsets(std::size_t n, const std::string &sizes) {
    std::mt19937_64 rng(sizes.size());
    std::uniform_int_distribution<int> tiny(1, 15), huge(1 << 20, 1 << 22);
    std::uniform_real_distribution<double> unit(1e-12, 1.0);
    std::vector<int> offsets{0};
    while (static_cast<std::size_t>(offsets.back()) < n) {
        const double length = sizes == "tiny"   ? tiny(rng)
                              : sizes == "huge" ? huge(rng)
                                                : std::min(4e5, std::floor(4.0 * std::pow(unit(rng), -1.0 / 1.2)) - 4.0);
        offsets.push_back(static_cast<int>(std::min<double>(static_cast<double>(n), offsets.back() + length)));
    }
    return offsets;
}

}  // namespace segmented_sort_inputs
}  // namespace bench
