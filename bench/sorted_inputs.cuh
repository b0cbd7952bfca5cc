#pragma once
// The sorted inputs of the merge part (sc_nvbench_merge), shared with the CCCL anchors
// (bench/anchors/, which time another CCCL's CUB on the same data): sorted int keys as the
// inclusive scan of increments in {0, 1, 2} from index_hash (0 with probability 1 - 1/mean: runs of
// mean length `mean`), and values in [0, 2^16). Each program compiles it with its own CUB. Also
// the merge part's axes, and the CPU's sorted keys, lower bounds (sorted_search) and merges
// (merge_keys, merge_pairs) of these inputs.
#include "fill.h"
#include "nvbench/host_reference.h"
#include "profile.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace sorted_inputs {

constexpr std::uint32_t kNeedleSeed = 0x6e65656cu, kHaystackSeed = 0x68617973u;
constexpr std::uint32_t kASeed = 0x6d657261u, kBSeed = 0x6d657262u, kValueSeed = 0x6d657276u;
constexpr unsigned kMeanRun = 2;
constexpr std::uint32_t kBValueSeed = kValueSeed ^ 1u;  // b's values: a seed of their own, unlike a's
constexpr unsigned kValueMask = 0xffffu;                // make_values: hashes in [0, 2^16)
// The merge part's axes: n = 2^20, 2^24, 2^28 (the full profile: 2^20, 2^22, ..., 2^28) (the searches' needles
// and haystack, the merges' output); the searches' param.
const std::vector<std::int64_t> kMergeLog2 = profile_log2({20, 24, 28}, every_other_log2(20, 28));
const std::vector<std::string> kLowerParam = {"lower"};
// The inner join's: two sides of 2^kJoinLog2 keys in runs of mean length kJoinMeanRun.
constexpr std::uint32_t kJoinASeed = 0x6a6f6e61u, kJoinBSeed = 0x6a6f6e62u;
constexpr unsigned kJoinMeanRun = 4;
constexpr int kJoinLog2 = 24;

// static: internal linkage, so that the header may be included by several files of a program.
static __global__ void fill_increments(int *out, std::size_t n, std::uint32_t seed, unsigned mean) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const std::uint32_t h = index_hash(i, seed);
        out[i] = h % mean != 0 ? 0 : 1 + static_cast<int>((h >> 16) & 1u);
    }
}

// CUB's scan storage for n items.
inline std::size_t scan_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    return bytes;
}

// keys[0, count) sorted (scratch: count ints).
inline void make_sorted_keys(int *keys, int *scratch, std::size_t count, std::uint32_t seed, unsigned mean,
                             StreamCompaction::DeviceBuffer<char> &temp, cudaStream_t stream) {
    fill_increments<<<fill_blocks(count), kFillThreads, 0, stream>>>(scratch, count, seed, mean);
    SC_CHECK_LAUNCH(fill_increments);
    std::size_t bytes = temp.bytes();
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), bytes, scratch, keys, static_cast<int>(count), stream));
}

inline void make_values(int *values, std::size_t span, std::uint32_t seed, cudaStream_t stream) {
    fill_masked_hashes<<<fill_blocks(span), kFillThreads, 0, stream>>>(values, span, seed, 0xffffu);
    SC_CHECK_LAUNCH(fill_masked_hashes);
}

// The increment before sorted key i, as fill_increments defines it: 0 where index_hash(i) %
// mean != 0, else 1 or 2 (the CPU's reference keys).
inline int key_increment(std::size_t i, std::uint32_t seed, unsigned mean) {
    const std::uint32_t h = index_hash(i, seed);
    return h % mean != 0 ? 0 : 1 + static_cast<int>((h >> 16) & 1u);
}

// `count` sorted keys with runs of mean length `mean` (make_sorted_keys), in a buffer of their own.
inline StreamCompaction::DeviceBuffer<int> sorted_keys(std::size_t count, std::uint32_t seed, cudaStream_t stream,
                                                       unsigned mean = kMeanRun) {
    StreamCompaction::DeviceBuffer<int> increments(count), keys(count);
    StreamCompaction::DeviceBuffer<char> temp(scan_temp_bytes(count));
    make_sorted_keys(keys.get(), increments.get(), count, seed, mean, temp, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the increments and the scan's storage are freed
    return keys;
}

inline std::vector<int> host_sorted_keys(std::size_t count, std::uint32_t seed, unsigned mean = kMeanRun) {
    std::vector<int> keys(count);
    int key = 0;
    for (std::size_t i = 0; i < count; ++i) keys[i] = key += key_increment(i, seed, mean);
    return keys;
}

// The merge's values: value i of an input is index_hash(i, seed) & kValueMask (make_values).
inline int value_at(std::size_t i, std::uint32_t seed) { return static_cast<int>(index_hash(i, seed) & kValueMask); }

inline StreamCompaction::DeviceBuffer<int> merge_values(std::size_t count, std::uint32_t seed, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<int> values(count);
    make_values(values.get(), count, seed, stream);
    return values;
}

// The lower bound of every needle in the haystack, by one walk over both (the needles are sorted).
inline std::vector<int> host_lower_bounds(std::size_t n) {
    const std::vector<int> needles = host_sorted_keys(n, kNeedleSeed), haystack = host_sorted_keys(n, kHaystackSeed);
    std::vector<int> bounds(n);
    std::size_t bound = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (bound < n && haystack[bound] < needles[i]) ++bound;
        bounds[i] = static_cast<int>(bound);
    }
    return bounds;
}

// host_lower_bounds once per n: every search of a point shares it.
inline std::shared_ptr<const std::vector<int>> lower_bounds_of(std::size_t n) {
    return cached_reference<std::vector<int>>("lower bounds n=" + std::to_string(n),
                                              [n] { return host_lower_bounds(n); });
}

// The stable merge of a (na keys) and b (nb keys): of equal keys a's first, each side in its order;
// with `pairs`, each key's value beside it.
struct HostMerge {
    std::vector<int> keys, values;
    std::size_t footprint() const { return (keys.size() + values.size()) * sizeof(int); }
};
inline HostMerge host_merge(std::size_t na, std::size_t nb, bool pairs) {
    const std::vector<int> a = host_sorted_keys(na, kASeed), b = host_sorted_keys(nb, kBSeed);
    HostMerge merged;
    merged.keys.reserve(na + nb);
    if (pairs) merged.values.reserve(na + nb);
    for (std::size_t i = 0, j = 0; i < na || j < nb;) {
        if (j < nb && (i == na || b[j] < a[i])) {
            merged.keys.push_back(b[j]);
            if (pairs) merged.values.push_back(value_at(j, kBValueSeed));
            ++j;
        } else {
            merged.keys.push_back(a[i]);
            if (pairs) merged.values.push_back(value_at(i, kValueSeed));
            ++i;
        }
    }
    return merged;
}

// The merge of the halves of n keys (n / 2 and n - n / 2), once per n. With values always:
// merge_keys and merge_pairs, ours and CUB's, share one reference per n.
inline std::shared_ptr<const HostMerge> merge_of(std::size_t n) {
    const std::size_t na = n / 2, nb = n - na;
    return cached_reference<HostMerge>("merge n=" + std::to_string(n), [na, nb] { return host_merge(na, nb, true); });
}

}  // namespace sorted_inputs
}  // namespace bench
