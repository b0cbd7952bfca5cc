#pragma once
// The scan part's inputs, axes and CPU references, which every program that times the scan part
// shares (sc_nvbench_scan, sc_nvbench_scan_types, the CCCL anchors). Each program compiles it with
// its own CCCL: nothing here calls CUB.
#include "check.h"                    // agrees, describe
#include "fill.h"
#include "nvbench/host_reference.h"  // generated, pieces_of, cached_reference
#include "profile.h"

#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {

// The scan part's inputs, in every program that times it (sc_nvbench_scan, sc_nvbench_scan_types,
// the CCCL anchors): uniform values in [0, 100) from index_hash(i, kScanSeed), converted to the
// element type; the compactions keep the values below each kept percentage (kPercentsKept, below),
// the partitions put those below kPartitionPercents first.
constexpr std::uint32_t kScanSeed = 0x5eed2024u;

// out[i] = index_hash(i, seed) % 100: uniform ints in [0, 100), the scan part's inputs (its
// compactions keep x < percent). static: internal linkage, so that the header may be included by
// several files of a program.
static __global__ void fill_percentiles(int *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<int>(index_hash(i, seed) % 100u);
}

// The scan part's axes, inputs and CPU references (bench/nvbench/scan.cu, bench/nvbench/scan_types.cu
// and the CCCL anchors' scans, compactions and partitions of the same points).
namespace scan_inputs {

// axis n: 2^20, 2^24, 2^28 (full: 2^10, 2^12, ..., 2^28)
const std::vector<std::int64_t> kScanLog2 = profile_log2({20, 24, 28}, every_other_log2(10, 28));
const std::vector<std::string> kPercentsKept = {"5", "50", "95"};  // the compactions' param: x < 5, 50, 95
const std::vector<std::string> kPartitionPercents = {"5", "50", "95"};  // the partitions': x < 5, 50, 95 first

// The inputs of every benchmark of the scan part, on the device and as the CPU computes them.
inline StreamCompaction::DeviceBuffer<int> scan_input(std::size_t n, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<int> in(n);
    fill_percentiles<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n, kScanSeed);
    SC_CHECK_LAUNCH(fill_percentiles);
    return in;
}
inline std::vector<int> host_input(std::size_t n) {
    return generated<int>(n, [](std::size_t i) { return static_cast<int>(index_hash(i, kScanSeed) % 100u); });
}

// The exclusive sum of the inputs, wrapping as the GPU's int additions do (computed once per n).
inline std::shared_ptr<const std::vector<int>> exclusive_sum_of(std::size_t n) {
    return cached_reference<std::vector<int>>("exclusive sum n=" + std::to_string(n), [n] {
        const std::vector<int> in = host_input(n);
        std::vector<int> out(n);
        unsigned sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = static_cast<int>(sum);
            sum += static_cast<unsigned>(in[i]);
        }
        return out;
    });
}

// The items x < keep in order, then (partitions) the others in order or reversed; and how many
// were kept. Each piece of the input counts its kept items, then writes them (and its others) at
// the offsets the counts before it give.
enum class Falses { None, InOrder, Reversed };
struct Selected {
    std::vector<int> items;
    std::size_t kept = 0;
    std::size_t footprint() const { return items.size() * sizeof(int); }
};
inline Selected selected_of(const std::vector<int> &in, int keep, Falses falses) {
    const auto pieces = pieces_of(in.size());
    std::vector<std::size_t> kept_before(pieces.size() + 1, 0);
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        kept_before[p + 1] = static_cast<std::size_t>(
            std::count_if(in.begin() + begin, in.begin() + end, [keep](int x) { return x < keep; }));
    });
    for (std::size_t p = 0; p < pieces.size(); ++p) kept_before[p + 1] += kept_before[p];
    Selected out;
    out.kept = kept_before.back();
    out.items.resize(falses == Falses::None ? out.kept : in.size());
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        std::size_t kept = kept_before[p], other = begin - kept_before[p];  // the others before this piece
        for (std::size_t i = begin; i < end; ++i) {
            if (in[i] < keep) out.items[kept++] = in[i];
            else if (falses == Falses::InOrder) out.items[out.kept + other++] = in[i];
            else if (falses == Falses::Reversed) out.items[in.size() - 1 - other++] = in[i];
        }
    });
    return out;
}

// selected_of the inputs of n items, computed once per point.
inline std::shared_ptr<const Selected> selection_of(std::size_t n, int keep, Falses falses) {
    const std::string key = "selection n=" + std::to_string(n) + " keep=" + std::to_string(keep) +
                            " falses=" + std::to_string(static_cast<int>(falses));
    return cached_reference<Selected>(key, [=] { return selected_of(host_input(n), keep, falses); });
}

// "" when a selection's count (of the implementation's own type: std::size_t, int, or a difference of
// pointers) is `kept`, else what it is. A negative one (a poisoned int) is never `kept`.
template <class Count>
std::string count_difference(Count got, std::size_t kept) {
    if (static_cast<std::size_t>(got) == kept) return "";
    return "count " + std::to_string(got) + ", expected " + std::to_string(kept);
}

// ---- the other element types (scan_int64, scan_float, scan_double) ----

// How far an item may be from the exact sum, relative (check.h's agrees): float rounds sums past
// 2^24, where the order the scan adds in changes the rounding; int64 and double sums are exact.
template <class T>
constexpr double tolerance() {
    return std::is_same_v<T, float> ? 1e-3 : 0.0;
}

// Item i of every type's input, an integer in [0, 100).
__host__ __device__ inline unsigned input_value(std::size_t i) { return index_hash(i, kScanSeed) % 100u; }

// Uniform values in [0, 100), the scan part's int inputs converted to T.
// static: internal linkage, as above.
template <class T>
static __global__ void fill_converted(T *out, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<T>(input_value(i));
}

// The exact exclusive sums of the inputs of n items (the same integers in every type), computed
// once per n for the three types. Each piece sums its items, then writes its sums from the total of
// the pieces before it.
inline std::shared_ptr<const std::vector<long long>> exact_exclusive_sum_of(std::size_t n) {
    return cached_reference<std::vector<long long>>("exact exclusive sum n=" + std::to_string(n), [n] {
        const auto pieces = pieces_of(n);
        std::vector<long long> before(pieces.size() + 1, 0);
        for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
            long long sum = 0;
            for (std::size_t i = begin; i < end; ++i) sum += input_value(i);
            before[p + 1] = sum;
        });
        for (std::size_t p = 0; p < pieces.size(); ++p) before[p + 1] += before[p];
        std::vector<long long> sums(n);
        for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
            long long sum = before[p];
            for (std::size_t i = begin; i < end; ++i) {
                sums[i] = sum;
                sum += input_value(i);
            }
        });
        return sums;
    });
}

// "" when every item of got agrees (tolerance<T>()) with its exact sum rounded to T, else the first
// that does not: each piece's first, the least of them kept.
template <class T>
std::string first_disagreement(const std::vector<T> &got, const std::vector<long long> &exact) {
    const std::size_t n = got.size();
    if (exact.size() != n) return std::to_string(n) + " items, expected " + std::to_string(exact.size());
    std::atomic<std::size_t> first{n};
    parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end && i < first.load(std::memory_order_relaxed); ++i)
            if (!agrees(got[i], static_cast<T>(exact[i]), tolerance<T>())) {
                std::size_t seen = first.load();
                while (i < seen && !first.compare_exchange_weak(seen, i)) {
                }
                return;
            }
    });
    const std::size_t i = first.load();
    if (i == n) return "";
    return "item " + std::to_string(i) + " of " + std::to_string(n) + " is " + describe(got[i]) + ", expected " +
           describe(static_cast<T>(exact[i]));
}

}  // namespace scan_inputs

}  // namespace bench
