// The exclusive sum of other element types (int64, float, double) at the scan part's sizes: ours
// (the single-pass scan) against the toolkit's cub::DeviceScan::ExclusiveSum. Operations
// scan_int64, scan_float and scan_double, as sc_bench_cccl_next names its rows (which add CCCL's
// run-to-run deterministic float scans). Each implementation's whole output is checked against
// the exact sums computed on the host.
#include "cases.h"
#include "fill.h"

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {
namespace {

// How far each element of a scan may be from the exact sum, relative (check.h's agrees). Sums of
// these integers are exact in int64 and in double. Float rounds them past 2^24, each scan in its
// own order of additions, so a float element passes within 1e-3 of the exact sum; where that sum
// is 0 it must be 0, which a poisoned element (a tiny negative float) is not.
template <class T>
constexpr double tolerance() {
    return std::is_same_v<T, float> ? 1e-3 : 0.0;
}

// Uniform values in [0, 100), as the scan part's int inputs, converted to T.
template <class T>
__global__ void fill_converted(T *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<T>(index_hash(i, seed) % 100u);
}

class TypedScans {
public:
    TypedScans(const Options &options, const Sink &sink)
        : options_(options),
          sink_(sink),
          sizes_(scan_sizes(options.max_log2)),
          // Pools counted in ints, like the scan part's, holding copies of 8-byte elements.
          pool_ints_(std::max(kPoolMinElems, copy_stride(2 * sizes_.back().n))),
          in_(pool_ints_),
          out_(pool_ints_),
          temp_(temp_bytes()) {}

    void run() {
        for (const Size &size : sizes_) {
            std::fprintf(stderr, "[scan types] n=%s\n", size.label.c_str());
            run_type<long long>("scan_int64", size);
            run_type<float>("scan_float", size);
            run_type<double>("scan_double", size);
        }
    }

private:
    std::size_t temp_bytes() const {
        std::size_t bytes = 0;
        for (const Size &size : sizes_) {
            std::size_t cub_bytes = 0;
            SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, static_cast<const double *>(nullptr),
                                                        static_cast<double *>(nullptr), static_cast<int>(size.n)));
            bytes = std::max({bytes, cub_bytes, StreamCompaction::scan_temp_bytes<long long>(size.n),
                              StreamCompaction::scan_temp_bytes<double>(size.n)});
        }
        return bytes;
    }

    template <class T>
    void run_type(const char *operation, const Size &size) {
        const std::size_t n = size.n;
        const std::size_t units = sizeof(T) / sizeof(int);
        cudaStream_t stream = stream_.get();
        fill_converted<<<fill_blocks(pool_ints_ / units), kFillThreads, 0, stream>>>(
            reinterpret_cast<T *>(in_.get()), pool_ints_ / units, kScanSeed);
        SC_CHECK_LAUNCH(fill_converted);
        const auto in = [&](std::size_t at) { return reinterpret_cast<const T *>(in_.get() + at); };
        const auto out = [&](std::size_t at) { return reinterpret_cast<T *>(out_.get() + at); };
        Rotation rotation(n * units, pool_ints_);
        const double bytes = 2.0 * sizeof(T) * n;
        const std::vector<T> expected = exact_exclusive_sum(in(0), n);

        // The environment of our calls: the stream, at the library's default tuning.
        const StreamCompaction::CallEnvironment env(stream);
        // Times `run`, then checks one more run on copy 0, its output there poisoned first.
        const auto time = [&](const char *implementation, BlockKnob block, auto &&run) {
            const double ms = median_ms(stream, rotation, options_.runs, run);
            poison(out(0), n, stream);
            run(0);
            const std::vector<T> got = read_back(out(0), n, stream);
            const std::string mismatch = elements_mismatch(got.data(), expected.data(), n, tolerance<T>());
            if (!mismatch.empty()) warn_mismatch(implementation, operation, "n = " + size.label, mismatch);
            Measurement m{operation, implementation, size, "", ms, bytes, block.threads(env.tuning),
                          mismatch.empty()};
            m.anchor = !block;
            sink_(m);
        };
        time("cub", nullptr, [&](std::size_t at) {
            std::size_t temp_bytes = temp_.bytes();
            SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_.get(), temp_bytes, in(at), out(at), static_cast<int>(n),
                                                        stream));
        });
        time("single_pass", &StreamCompaction::Tuning::single_pass, [&](std::size_t at) {
            StreamCompaction::exclusive_scan(in(at), out(at), n, StreamCompaction::Sum{}, T(0), temp_.get(),
                                             temp_.bytes(), env);
        });
    }

    // The exclusive sum of d_in[0, n) on the host: of integers, so summed exactly (long long) and
    // rounded to T once.
    template <class T>
    std::vector<T> exact_exclusive_sum(const T *d_in, std::size_t n) const {
        const std::vector<T> items = read_back(d_in, n, stream_.get());
        std::vector<T> sums(n);
        exclusive_sum<long long>(items.data(), n, sums.data());
        return sums;
    }

    const Options &options_;
    const Sink &sink_;
    std::vector<Size> sizes_;
    std::size_t pool_ints_;
    Stream stream_;
    StreamCompaction::DeviceBuffer<int> in_, out_;
    StreamCompaction::DeviceBuffer<char> temp_;
};

}  // namespace

void run_scan_types(const Options &options, const Sink &sink) { TypedScans(options, sink).run(); }

}  // namespace bench
