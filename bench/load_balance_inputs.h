#pragma once
// The load-balance part's inputs (sc_nvbench_load_balance, nvbench/load_balance.cu): segments over
// exactly n items from a seeded host generator, and each segment's value, index_hash of its index
// (fill.h's fill_masked_hashes with every bit kept, on the device).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace bench {

constexpr std::uint32_t kSegmentValueSeed = 0x65787061u;

// Offsets of segments over exactly n items: uniform lengths in [0, 32], or Pareto lengths
// floor(8 U^(-1/1.5)) - 8 (empty where U > (8/9)^1.5, about a sixth of them; mean about 16; a few
// of millions).
inline std::vector<int> make_segment_offsets(std::size_t n, bool power_law) {
    std::mt19937_64 rng(power_law ? 2 : 1);
    std::uniform_int_distribution<int> uniform(0, 32);
    std::uniform_real_distribution<double> unit(1e-12, 1.0);
    std::vector<int> offsets{0};
    while (static_cast<std::size_t>(offsets.back()) < n) {
        const double length = power_law ? std::floor(8.0 * std::pow(unit(rng), -1.0 / 1.5)) - 8.0 : uniform(rng);
        offsets.push_back(static_cast<int>(std::min<double>(static_cast<double>(n), offsets.back() + length)));
    }
    return offsets;
}

}  // namespace bench
