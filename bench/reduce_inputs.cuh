#pragma once
// The reduce part's inputs, shared by sc_nvbench_reduce (nvbench/reduce.cu) and the CCCL anchors
// (bench/anchors/, which time another CCCL's CUB on the same data): ints in [-50, 50] from
// index_hash, a random walk whose best segment is long, not the whole array (the maximum segment
// sum's input too); the part's axes, and the CPU's sum and maximum of the inputs.
#include "fill.h"
#include "nvbench/host_reference.h"
#include "profile.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {

constexpr std::uint32_t kReduceSeed = 0x5eed2026u;

// Item i of the inputs, on the device and on the CPU alike.
__host__ __device__ inline int signed_item(std::size_t i, std::uint32_t seed) {
    return static_cast<int>(index_hash(i, seed) % 101u) - 50;
}

// out[i] = signed_item(i, seed). static: internal linkage, as fill.h's kernels.
static __global__ void fill_signed(int *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = signed_item(i, seed);
}

// The part's axes: n = 2^20, 2^24, 2^28 (the full profile: 2^10, 2^12, ..., 2^28); param, the reduction: the
// sum (from 0) or the maximum (from INT_MIN).
const std::vector<std::int64_t> kReduceLog2 = profile_log2({20, 24, 28}, every_other_log2(10, 28));
const std::vector<std::string> kOperatorParams = {"sum", "max"};

// The inputs of every benchmark of the part (one copy), on the device and as the CPU computes them.
inline StreamCompaction::DeviceBuffer<int> reduce_input(std::size_t n, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<int> in(n);
    fill_signed<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n, kReduceSeed);
    SC_CHECK_LAUNCH(fill_signed);
    return in;
}
inline std::vector<int> host_reduce_input(std::size_t n) {
    return generated<int>(n, [](std::size_t i) { return signed_item(i, kReduceSeed); });
}

// The sum of the inputs, wrapping modulo 2^32 as CPU::sum's (so the pieces' sums, added up, are the
// same), and their largest item: by pieces, on every hardware thread.
struct SumAndMax {
    int sum = 0;
    int max = INT_MIN;
    std::size_t footprint() const { return sizeof(*this); }
};
inline SumAndMax sum_and_max(const std::vector<int> &in) {
    const auto pieces = pieces_of(in.size());
    std::vector<unsigned> piece_sums(pieces.size(), 0);
    std::vector<int> piece_maxima(pieces.size(), INT_MIN);
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        unsigned sum = 0;  // unsigned: overflow wraps instead of being undefined
        int max = INT_MIN;
        for (std::size_t i = begin; i < end; ++i) {
            sum += static_cast<unsigned>(in[i]);
            max = std::max(max, in[i]);
        }
        piece_sums[p] = sum;
        piece_maxima[p] = max;
    });
    SumAndMax totals;
    unsigned sum = 0;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        sum += piece_sums[p];
        totals.max = std::max(totals.max, piece_maxima[p]);
    }
    totals.sum = static_cast<int>(sum);
    return totals;
}

// sum_and_max of the inputs of n items, once per n: the CCCL anchors' reference (sc_nvbench_reduce
// keeps these two with the maximum segment sum, in its reductions_of).
inline std::shared_ptr<const SumAndMax> sum_and_max_of(std::size_t n) {
    return cached_reference<SumAndMax>("sum and max n=" + std::to_string(n),
                                       [n] { return sum_and_max(host_reduce_input(n)); });
}

}  // namespace bench
