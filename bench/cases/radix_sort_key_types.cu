// The radix part's other key widths: sorts of int64, double and __half keys alone (sort_keys_int64,
// sort_keys_double, sort_keys_half), uniform random bits (floating-point keys: no NaN, infinity or
// -0.0), at 2^20, 2^24 and 2^27, ours (Onesweep) against the toolkit's cub::DeviceRadixSort::SortKeys,
// whose output judges ours element for element.
#include "cases.h"
#include "fill.h"
#include "radix_key_type_inputs.cuh"

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/cuda_check.h>

#include <cub/device/device_radix_sort.cuh>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace bench {
namespace {

constexpr int kKeyTypeSortLog2[] = {20, 24, 27};

// Adds the number of positions where got and expected differ, bit for bit, to *mismatches.
template <class Key>
__global__ void count_mismatches(const Key *got, const Key *expected, std::size_t n, unsigned long long *mismatches) {
    const auto *got_bits = reinterpret_cast<const KeyBits<Key> *>(got);
    const auto *expected_bits = reinterpret_cast<const KeyBits<Key> *>(expected);
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += got_bits[i] != expected_bits[i];
    if (local != 0) atomicAdd(mismatches, local);
}

class KeyTypeSorts {
public:
    KeyTypeSorts(const Options &options, const Sink &sink) : options_(options), sink_(sink), env_(stream_.get()) {
        for (const int log2 : kKeyTypeSortLog2)
            if (log2 <= options.max_log2) sizes_.push_back({std::size_t{1} << log2, "2^" + std::to_string(log2)});
        if (sizes_.empty()) return;
        // Pools counted in ints holding copies of 8-byte keys; the reference is one copy's sort.
        pool_ints_ = std::max(kPoolMinElems, copy_stride(2 * sizes_.back().n));
        in_ = StreamCompaction::DeviceBuffer<int>(pool_ints_);
        out_ = StreamCompaction::DeviceBuffer<int>(pool_ints_);
        reference_ = StreamCompaction::DeviceBuffer<int>(2 * sizes_.back().n);
        mismatches_ = StreamCompaction::DeviceBuffer<unsigned long long>(1);
        std::size_t bytes = 0;
        for (const Size &size : sizes_) {
            std::size_t cub_bytes = 0;
            SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, static_cast<const double *>(nullptr),
                                                         static_cast<double *>(nullptr), static_cast<int>(size.n)));
            std::size_t cub_half_bytes = 0;
            SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_half_bytes, static_cast<const __half *>(nullptr),
                                                         static_cast<__half *>(nullptr), static_cast<int>(size.n)));
            bytes = std::max({bytes, cub_bytes, cub_half_bytes,
                              StreamCompaction::radix_sort_temp_bytes<long long>(size.n, env_),
                              StreamCompaction::radix_sort_temp_bytes<double>(size.n, env_),
                              StreamCompaction::radix_sort_temp_bytes<__half>(size.n, env_)});
        }
        temp_ = StreamCompaction::DeviceBuffer<char>(bytes);
    }

    void run() {
        for (const Size &size : sizes_) {
            std::fprintf(stderr, "[radix, int64, double and __half keys] n=%s\n", size.label.c_str());
            run_type<long long>("sort_keys_int64", size);
            run_type<double>("sort_keys_double", size);
            run_type<__half>("sort_keys_half", size);
        }
    }

private:
    template <class Key>
    void run_type(const char *operation, const Size &size) {
        const std::size_t n = size.n;
        cudaStream_t stream = stream_.get();
        const std::size_t pool_keys = pool_ints_ * sizeof(int) / sizeof(Key);
        fill_key_type_keys<<<fill_blocks(pool_keys), kFillThreads, 0, stream>>>(reinterpret_cast<Key *>(in_.get()),
                                                                                pool_keys, kKeyTypeSeed);
        SC_CHECK_LAUNCH(fill_key_type_keys);
        const auto in = [&](std::size_t at) { return reinterpret_cast<const Key *>(in_.get() + at); };
        const auto out = [&](std::size_t at) { return reinterpret_cast<Key *>(out_.get() + at); };
        Key *reference = reinterpret_cast<Key *>(reference_.get());
        Rotation rotation(n * sizeof(Key) / sizeof(int), pool_ints_);  // n is a power of two
        const double bytes = 2.0 * sizeof(Key) * n;

        const auto time = [&](const char *implementation, BlockKnob block, auto &&run, bool anchor) {
            run(0);
            bool ok = true;
            if (anchor) {
                SC_CUDA_CHECK(cudaMemcpyAsync(reference, out(0), n * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
            } else {
                SC_CUDA_CHECK(cudaMemsetAsync(mismatches_.get(), 0, sizeof(unsigned long long), stream));
                count_mismatches<<<fill_blocks(n), kFillThreads, 0, stream>>>(out(0), reference, n, mismatches_.get());
                SC_CHECK_LAUNCH(count_mismatches);
                const unsigned long long wrong = read_back(mismatches_.get(), stream);
                ok = wrong == 0;
                if (!ok)
                    std::fprintf(stderr, "warning: %s %s n=%s: %llu keys differ from CUB's\n", implementation,
                                 operation, size.label.c_str(), wrong);
            }
            const double ms = median_ms(stream, rotation, options_.runs, run);
            Measurement m{operation, implementation, size, "uniform", ms, bytes, block.threads(env_.tuning), ok};
            m.anchor = anchor;
            sink_(m);
        };
        time("cub", nullptr, [&](std::size_t at) {
            std::size_t temp_bytes = temp_.bytes();
            SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.get(), temp_bytes, in(at), out(at),
                                                         static_cast<int>(n), 0, int(sizeof(Key)) * 8, stream));
        }, true);
        time("onesweep", &StreamCompaction::Tuning::radix, [&](std::size_t at) {
            StreamCompaction::radix_sort_keys(in(at), out(at), n, temp_.get(), temp_.bytes(), env_);
        }, false);
    }

    const Options &options_;
    const Sink &sink_;
    std::vector<Size> sizes_;
    std::size_t pool_ints_ = 0;
    Stream stream_;
    const StreamCompaction::CallEnvironment env_;  // of our calls: stream_, at the library's default tuning
    StreamCompaction::DeviceBuffer<int> in_, out_, reference_;
    StreamCompaction::DeviceBuffer<unsigned long long> mismatches_;
    StreamCompaction::DeviceBuffer<char> temp_;
};

}  // namespace

void run_radix_key_types(const Options &options, const Sink &sink) { KeyTypeSorts(options, sink).run(); }

}  // namespace bench
