#pragma once
// The inputs of the by-key part (sc_nvbench_by_key), shared with the CCCL anchors (bench/anchors/,
// which time another CCCL's CUB on the same data). Each program compiles it with its own CUB.
//
// Keys: a run starts at item i when index_hash(i) % mean == 0 (and at item 0), so run lengths are
// geometric with that mean; each run's key is a hash of its number. Values: index hashes in
// [0, 16). Samples: index hashes in [0, 2^20), binned over [0, 2^20), which both bin counts divide
// (so every binning formula agrees exactly).
//
// Bytes counted (by both programs): what is read and written once: keys and values read and each
// run's outputs written (8n + 8 per run for reduce-by-key, 4n + 4 per run for unique, 4n + 8 per run
// for the encoding), the samples read for the histogram (4n). Also the part's axes, and the CPU's
// references: the runs (host_runs) and the histogram (host_histogram) of the inputs' definition.
#include "fill.h"
#include "nvbench/host_reference.h"
#include "profile.h"
#include "sorted_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace by_key_inputs {

constexpr std::uint32_t kRunSeed = 0x72756e73u;
constexpr std::uint32_t kKeySeed = 0x6b657973u;
constexpr std::uint32_t kValueSeed = 0x76616c73u;
constexpr std::uint32_t kSampleSeed = 0x68697374u;
constexpr int kMeanRunLengths[] = {4, 64};
constexpr int kHistogramBins[] = {256, 4096};
constexpr int kSampleRange = 1 << 20;

constexpr unsigned kValueMask = 15u;  // the values: index hashes in [0, 16)

// prefix + value + suffix of each of the values: a string axis of ints.
template <std::size_t N>
std::vector<std::string> params_of(const int (&values)[N], const std::string &prefix, const std::string &suffix) {
    std::vector<std::string> params;
    for (const int value : values) params.push_back(prefix + std::to_string(value) + suffix);
    return params;
}

// The part's axes: n = 2^20, 2^24, 2^28 (the full profile: 2^10, 2^12, ..., 2^28); param, the mean run length
// of the keys of reduce_by_key, unique and run_length_encode ("mean 4", "mean 64"), and the bins of
// histogram_even ("256 bins", "4096 bins").
const std::vector<std::int64_t> kByKeyLog2 = profile_log2({20, 24, 28}, every_other_log2(10, 28));
const std::vector<std::string> kMeanRunParams = params_of(kMeanRunLengths, "mean ", "");
const std::vector<std::string> kHistogramParams = params_of(kHistogramBins, "", " bins");

// static: internal linkage, so that the header may be included by several files of a program.
// flags[i] = 1 where a run starts.
static __global__ void fill_run_starts(int *flags, std::size_t n, unsigned mean) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        flags[i] = i == 0 || index_hash(i, kRunSeed) % mean == 0;
}

// Run numbers (the inclusive count of starts) become hashed keys.
static __global__ void hash_run_numbers(int *keys, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        keys[i] = static_cast<int>(index_hash(static_cast<std::size_t>(keys[i]), kKeySeed));
}

// CUB's storage, at n items, for the keys' scan and for each by-key call the programs time.
inline std::size_t cub_temp_bytes(std::size_t n) {
    const int items = static_cast<int>(n);
    const int *in = nullptr;
    int *out = nullptr;
    std::size_t *count = nullptr;
    std::size_t rbk = 0, unique = 0, rle = 0, histogram = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, rbk, in, out, in, out, count, ::cuda::std::plus<>{}, items));
    SC_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, unique, in, out, count, items));
    SC_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, rle, in, out, out, count, items));
    SC_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, histogram, in, reinterpret_cast<unsigned *>(out),
                                                      kHistogramBins[1] + 1, 0, kSampleRange, items));
    return std::max({sorted_inputs::scan_temp_bytes(n), rbk, unique, rle, histogram});
}

// keys[0, n): runs of geometric length `mean`; `scratch` (n ints) and `temp` (cub_temp_bytes(n))
// are overwritten.
inline void make_run_keys(int *keys, int *scratch, std::size_t n, unsigned mean, void *temp, std::size_t temp_bytes,
                          cudaStream_t stream) {
    fill_run_starts<<<fill_blocks(n), kFillThreads, 0, stream>>>(scratch, n, mean);
    SC_CHECK_LAUNCH(fill_run_starts);
    SC_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, scratch, keys, static_cast<int>(n), stream));
    hash_run_numbers<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys, n);
    SC_CHECK_LAUNCH(hash_run_numbers);
}

// The keys of n items in runs of geometric length `mean` (make_run_keys), in a buffer of their own.
inline StreamCompaction::DeviceBuffer<int> run_keys(std::size_t n, unsigned mean, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<int> starts(n), keys(n);
    StreamCompaction::DeviceBuffer<char> temp(cub_temp_bytes(n));
    make_run_keys(keys.get(), starts.get(), n, mean, temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the starts and the scan's storage are freed
    return keys;
}

// out[i] = index_hash(i, seed) & mask: the values (kValueMask) and the samples (kSampleRange - 1).
inline StreamCompaction::DeviceBuffer<int> masked_hashes(std::size_t n, std::uint32_t seed, unsigned mask,
                                                         cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<int> out(n);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(out.get(), n, seed, mask);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    return out;
}

// Each run's key, sum of values and length, as the CPU finds them from the inputs' definition.
struct HostRuns {
    std::vector<int> keys, sums, lengths;
    std::size_t footprint() const { return (keys.size() + sums.size() + lengths.size()) * sizeof(int); }
};
inline HostRuns host_runs(std::size_t n, unsigned mean) {
    HostRuns runs;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || index_hash(i, kRunSeed) % mean == 0) {
            runs.keys.push_back(static_cast<int>(index_hash(runs.keys.size() + 1, kKeySeed)));
            runs.sums.push_back(0);
            runs.lengths.push_back(0);
        }
        runs.sums.back() += static_cast<int>(index_hash(i, kValueSeed) & kValueMask);
        ++runs.lengths.back();
    }
    return runs;
}

// host_runs once per point: reduce_by_key, unique and run_length_encode, ours and CUB's, share it.
inline std::shared_ptr<const HostRuns> runs_of(std::size_t n, unsigned mean) {
    return cached_reference<HostRuns>("runs n=" + std::to_string(n) + " mean=" + std::to_string(mean),
                                      [=] { return host_runs(n, mean); });
}

// Each piece of the samples counts into counters of its own, added up after.
inline std::vector<unsigned> host_histogram(std::size_t n, int bins) {
    const unsigned bin_width = static_cast<unsigned>(kSampleRange / bins);
    const auto pieces = pieces_of(n);
    std::vector<std::vector<unsigned>> piece_counts(pieces.size(),
                                                    std::vector<unsigned>(static_cast<std::size_t>(bins)));
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            ++piece_counts[p][(index_hash(i, kSampleSeed) & (kSampleRange - 1u)) / bin_width];
    });
    std::vector<unsigned> counts(static_cast<std::size_t>(bins), 0);
    for (const std::vector<unsigned> &piece : piece_counts)
        for (std::size_t b = 0; b < counts.size(); ++b) counts[b] += piece[b];
    return counts;
}

// host_histogram once per point: ours and CUB's share it.
inline std::shared_ptr<const std::vector<unsigned>> histogram_of(std::size_t n, int bins) {
    const std::string key = "histogram n=" + std::to_string(n) + " bins=" + std::to_string(bins);
    return cached_reference<std::vector<unsigned>>(key, [=] { return host_histogram(n, bins); });
}

// The parameter's mean run length: "mean 4" -> 4.
inline unsigned mean_run_length(const std::string &param) {
    return static_cast<unsigned>(std::stoul(param.substr(param.find(' ') + 1)));
}

}  // namespace by_key_inputs
}  // namespace bench
