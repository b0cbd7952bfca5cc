#pragma once
// The inputs of the segmented-sort part (sc_nvbench_segmented_sort), shared with the CCCL anchors
// (bench/anchors/, which time another CCCL's DeviceSegmentedSort on the same data): 2^24 keys and
// values from index_hash (the seeds below, fill_masked_hashes with every bit), and offsets of seven
// size classes from a seeded host generator: uniform lengths of mean 2, 8 ("tiny", 1..15), 32, 128
// and 1,024 (1 .. 2 mean - 1: issue #45's classes), "mixed" and "huge". Also the part's axes, and
// the CPU's stable sort of each segment (sorted_segments).
#include "fill.h"
#include "nvbench/host_reference.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace segmented_sort_inputs {

constexpr int kLog2 = 24;
constexpr std::uint32_t kKeySeed = 0x736f7274u, kValueSeed = 0x76616c75u;
const char *const kSizeClasses[] = {"mean2", "tiny", "mean32", "mean128", "mean1024", "mixed", "huge"};

// The mean length of a uniform class ("tiny" is mean 8), 0 for the others.
inline int uniform_mean(const std::string &sizes) {
    if (sizes == "tiny") return 8;
    return sizes.rfind("mean", 0) == 0 ? std::stoi(sizes.substr(4)) : 0;
}

inline std::vector<int> make_offsets(std::size_t n, const std::string &sizes) {
    std::mt19937_64 rng(sizes.size());  // the seed of the first three classes' offsets since 2026-11-24
    const int mean = uniform_mean(sizes);
    std::uniform_int_distribution<int> uniform(1, std::max(1, 2 * mean - 1)), huge(1 << 20, 1 << 22);
    std::uniform_real_distribution<double> unit(1e-12, 1.0);
    std::vector<int> offsets{0};
    while (static_cast<std::size_t>(offsets.back()) < n) {
        const double length = mean > 0          ? uniform(rng)
                              : sizes == "huge" ? huge(rng)
                                                : std::min(4e5, std::floor(4.0 * std::pow(unit(rng), -1.0 / 1.2)) - 4.0);
        offsets.push_back(static_cast<int>(std::min<double>(static_cast<double>(n), offsets.back() + length)));
    }
    return offsets;
}

// The part's axes: n = 2^kLog2, its one size, and param, the size class, in kSizeClasses's order.
const std::vector<std::int64_t> kSegmentedSortLog2 = {kLog2};
const std::vector<std::string> kSizeClassNames(std::begin(kSizeClasses), std::end(kSizeClasses));

// A state's inputs: the offsets on the host and on the device, the keys (and, for pairs, the values) on
// the device.
struct SortInputs {
    std::string point;  // n and the size class: the key of this point's references
    std::size_t n, segments;
    std::shared_ptr<const std::vector<int>> host_offsets;
    StreamCompaction::DeviceBuffer<int> offsets, keys, values;
};

// The inputs of n items in segments of the size class `sizes` (one of kSizeClassNames). The offsets
// are drawn by one generator in order, so once per point.
inline SortInputs sort_inputs(std::size_t n, const std::string &sizes, bool pairs, cudaStream_t stream) {
    using StreamCompaction::DeviceBuffer;
    const std::string point = "n=" + std::to_string(n) + " " + sizes;
    std::shared_ptr<const std::vector<int>> host_offsets = cached_reference<std::vector<int>>(
        "segmented sort offsets " + point, [n, sizes] { return make_offsets(n, sizes); });
    SortInputs in{point,
                  n,
                  host_offsets->size() - 1,
                  host_offsets,
                  DeviceBuffer<int>::from_host(host_offsets->data(), host_offsets->size()),
                  DeviceBuffer<int>(n),
                  DeviceBuffer<int>(pairs ? n : 0)};
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.keys.get(), n, kKeySeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    if (pairs) {
        fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.values.get(), n, kValueSeed, ~0u);
        SC_CHECK_LAUNCH(fill_masked_hashes);
    }
    return in;
}

// The segments cut into one piece per hardware thread of about equal item counts (pieces_of the items; a
// piece takes the segments that start in its items): pieces_of the segments would leave the huge class's
// handful of segments (fewer than 2^16) to one thread, all of them.
inline std::vector<std::pair<std::size_t, std::size_t>> segment_pieces(const std::vector<int> &offsets) {
    const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    std::size_t first = 0;
    for (const auto &items : pieces_of(n)) {
        const std::size_t end =
            items.second == n ? segments
                              : static_cast<std::size_t>(std::lower_bound(offsets.begin(), offsets.end(),
                                                                          static_cast<int>(items.second)) -
                                                         offsets.begin());
        pieces.emplace_back(first, end);
        first = end;
    }
    return pieces;
}

// Each segment's keys and values, stable-sorted by key: the inputs' (key i = index_hash(i, kKeySeed),
// value i = index_hash(i, kValueSeed)) (key, value) pairs of the segment, std::stable_sort'ed by key alone.
struct SortedSegments {
    std::vector<int> keys, values;
    std::size_t footprint() const { return (keys.size() + values.size()) * sizeof(int); }
};
inline SortedSegments sorted_segments_of(const std::vector<int> &offsets, std::size_t n) {
    SortedSegments sorted{std::vector<int>(n), std::vector<int>(n)};
    const auto by_key = [](const std::pair<int, int> &a, const std::pair<int, int> &b) { return a.first < b.first; };
    for_each_piece(segment_pieces(offsets), [&](std::size_t, std::size_t begin, std::size_t end) {
        std::vector<std::pair<int, int>> segment;
        for (std::size_t s = begin; s < end; ++s) {
            const auto first = static_cast<std::size_t>(offsets[s]), last = static_cast<std::size_t>(offsets[s + 1]);
            segment.clear();
            for (std::size_t i = first; i < last; ++i)
                segment.emplace_back(static_cast<int>(index_hash(i, kKeySeed)),
                                     static_cast<int>(index_hash(i, kValueSeed)));
            std::stable_sort(segment.begin(), segment.end(), by_key);
            for (std::size_t i = first; i < last; ++i) {
                sorted.keys[i] = segment[i - first].first;
                sorted.values[i] = segment[i - first].second;
            }
        }
    });
    return sorted;
}

// With values always: the keys' and the pairs' states, ours and CUB's, share one reference per point.
inline std::shared_ptr<const SortedSegments> sorted_segments(const SortInputs &in) {
    return cached_reference<SortedSegments>("segmented sort " + in.point,
                                            [&in] { return sorted_segments_of(*in.host_offsets, in.n); });
}

}  // namespace segmented_sort_inputs
}  // namespace bench
