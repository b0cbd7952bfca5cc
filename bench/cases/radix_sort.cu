// The radix part of sc_bench: sorts of int keys alone (sort_keys) and carrying int values, each
// key's input index (sort_pairs), at 2^20, 2^24 and 2^28 on seven key distributions. CUB is the
// anchor; Thrust, the library's Onesweep and classic sorts (and Onesweep's argsort: the pairs'
// values from a counting iterator) and, for keys up to 2^24, std::sort on one CPU thread are
// checked against CUB's output, element for element, and timed.
#include "cases.h"

#include "arena.h"
#include "fill.h"
#include "radix_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/radix.h>
#include <stream_compaction/device/radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace {

using StreamCompaction::BlockSizes;
using StreamCompaction::CallEnvironment;
using StreamCompaction::DeviceBuffer;
using StreamCompaction::Tuning;

constexpr int kSortLog2[] = {20, 24, 28};
constexpr int kKeyBits = 32;

// The classic sort is 32 partition passes, about 50 ms a run at 2^28: above 2^24 it times this
// many runs instead of options.runs. Runs that long vary little, and 20 more of them on each of
// the 7 distributions would add 7 s.
constexpr std::size_t kClassicAllRunsMax = std::size_t{1} << 24;
constexpr int kClassicLargeRuns = 5;

// std::sort on one CPU thread takes about 0.07 s (2^20) and 1.5 to 2 s (2^24) a run on uniform
// keys: it runs only up to 2^24, 5 times at 2^20 and 3 times above, with no warm-up, timed with
// std::chrono.
constexpr std::size_t kStdSortMax = std::size_t{1} << 24;
constexpr std::size_t kStdSortManyRunsMax = std::size_t{1} << 20;
constexpr int kStdSortManyRuns = 5;
constexpr int kStdSortFewRuns = 3;

// Adds the number of positions where got and expected differ to *mismatches.
__global__ void count_mismatches(const int *got, const int *expected, std::size_t n, unsigned long long *mismatches) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += got[i] != expected[i];
    if (local != 0) atomicAdd(mismatches, local);
}

std::vector<Size> sort_sizes(int max_log2) {
    std::vector<Size> sizes;
    for (const int log2 : kSortLog2)
        if (log2 <= max_log2) sizes.push_back({std::size_t{1} << log2, "2^" + std::to_string(log2)});
    return sizes;
}

// Temporary storage that every sort of n keys, or of n keys and values, fits in, ours called with `env`.
std::size_t temp_bytes_for(std::size_t n, const CallEnvironment &env) {
    // The anchor's num_items: int, as in every CUB call here. Thrust calls CUB with the iterators'
    // difference type, and the storage CUB asks for depends on it.
    const int items = static_cast<int>(n);
    const auto thrust_items = static_cast<std::ptrdiff_t>(n);
    const int *in = nullptr;
    int *out = nullptr;
    cub::DoubleBuffer<int> keys, values;
    std::size_t cub_keys = 0, cub_pairs = 0, thrust_cub_keys = 0, thrust_cub_pairs = 0;
    SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_keys, in, out, items));
    SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, cub_pairs, in, out, in, out, items));
    SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, thrust_cub_keys, keys, thrust_items));
    SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, thrust_cub_pairs, keys, values, thrust_items));
    // Thrust's radix sort takes, in one allocation, CUB's storage for an in-place sort and a buffer
    // of n keys (and one of n values) to alternate with; with room for alignment.
    const std::size_t thrust_buffer_bytes = n * sizeof(int) + (std::size_t{1} << 20);
    return std::max({cub_keys, cub_pairs, thrust_cub_keys + thrust_buffer_bytes,
                     thrust_cub_pairs + 2 * thrust_buffer_bytes, StreamCompaction::radix_sort_temp_bytes<int>(n, env),
                     StreamCompaction::radix_sort_temp_bytes<int, int>(n, env),
                     StreamCompaction::Radix::classic_sort_temp_bytes(n)});
}

double median_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

// One implementation of one operation.
struct Sorter {
    std::string name;
    BlockKnob block;                       // none for CUB and Thrust
    int runs;                              // timed runs
    std::function<void(std::size_t)> run;  // enqueues a sort of the input copy at this offset
};

// The pools hold copies of the input (keys, and values for pairs) for the largest size; every sort
// reads them and writes the output pools at the same offset, so the inputs stay as generated.
class RadixBenchmark {
public:
    RadixBenchmark(const Options &options, const Sink &sink, std::vector<Size> sizes);
    RadixBenchmark(const RadixBenchmark &) = delete;
    RadixBenchmark &operator=(const RadixBenchmark &) = delete;

    // Both operations on every distribution at every size.
    void run();

private:
    std::vector<Sorter> key_sorters(std::size_t n);
    std::vector<Sorter> pair_sorters(std::size_t n);
    // Makes CUB's (the first sorter's) output of copy 0 the reference, then measures every sorter.
    void run_group(const char *operation, const Size &size, const char *distribution,
                   const std::vector<Sorter> &sorters, Rotation &rotation, bool pairs);
    Measurement measure(const char *operation, const Size &size, const char *distribution, const Sorter &sorter,
                        Rotation &rotation, bool pairs);
    // std::sort of a host copy of copy 0, checked against the reference keys of the last sort_keys group.
    void measure_std_sort(const Size &size, const char *distribution);
    // Whether the sort of copy 0 matches the reference; warns on stderr where it does not.
    bool matches_reference(const char *operation, const Size &size, const char *distribution, const Sorter &sorter,
                           bool pairs);
    unsigned long long mismatches(const int *got, const int *expected, std::size_t n);
    void copy(const int *from, int *to, std::size_t n);

    const Options &options_;
    const Sink &sink_;
    std::vector<Size> sizes_;
    std::size_t pool_elems_;
    Stream stream_;
    const CallEnvironment env_;  // of our library calls: stream_, at the library's default tuning
    DeviceBuffer<int> keys_in_;
    DeviceBuffer<int> keys_out_;
    DeviceBuffer<int> values_in_;
    DeviceBuffer<int> values_out_;
    // The classic sort's scratch keys. Like every sort's temporary storage, it is not rotated.
    DeviceBuffer<int> alternate_;
    DeviceBuffer<int> reference_keys_;  // CUB's output for copy 0
    DeviceBuffer<int> reference_values_;
    DeviceBuffer<char> temp_;  // every sort's temporary storage
    DeviceBuffer<unsigned long long> mismatch_count_;
};

RadixBenchmark::RadixBenchmark(const Options &options, const Sink &sink, std::vector<Size> sizes)
    : options_(options),
      sink_(sink),
      sizes_(std::move(sizes)),
      pool_elems_(std::max(kPoolMinElems, copy_stride(sizes_.back().n))),
      env_(stream_.get()),
      keys_in_(pool_elems_),
      keys_out_(pool_elems_),
      values_in_(pool_elems_),
      values_out_(pool_elems_),
      alternate_(sizes_.back().n),
      reference_keys_(sizes_.back().n),
      reference_values_(sizes_.back().n),
      temp_(temp_bytes_for(sizes_.back().n, env_)),
      mismatch_count_(1) {}

void RadixBenchmark::copy(const int *from, int *to, std::size_t n) {
    SC_CUDA_CHECK(cudaMemcpyAsync(to, from, n * sizeof(int), cudaMemcpyDeviceToDevice, stream_.get()));
}

std::vector<Sorter> RadixBenchmark::key_sorters(std::size_t n) {
    const int items = static_cast<int>(n);
    const int classic_runs = n <= kClassicAllRunsMax ? options_.runs : kClassicLargeRuns;
    return {
        {"cub", nullptr, options_.runs,
         [this, items](std::size_t at) {
             std::size_t bytes = temp_.bytes();
             SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.get(), bytes, keys_in_.get() + at,
                                                          keys_out_.get() + at, items, 0, kKeyBits, stream_.get()));
         }},
        // thrust::sort sorts in place, so each run first copies the input to the output: 8n more
        // bytes, which every caller that keeps its input pays too.
        {"thrust", nullptr, options_.runs,
         [this, n](std::size_t at) {
             int *keys = keys_out_.get() + at;
             copy(keys_in_.get() + at, keys, n);
             Arena arena(temp_.get(), temp_.bytes());
             thrust::sort(thrust::cuda::par_nosync(arena).on(stream_.get()), keys, keys + n);
         }},
        {"onesweep", &Tuning::radix, options_.runs,
         [this, n](std::size_t at) {
             StreamCompaction::radix_sort_keys(keys_in_.get() + at, keys_out_.get() + at, n, temp_.get(),
                                               temp_.bytes(), env_);
         }},
        // A course unit: its partitions run at block_sizes().single_pass.
        {"classic", &BlockSizes::single_pass, classic_runs,
         [this, n](std::size_t at) {
             StreamCompaction::Radix::classic_sort_keys(keys_in_.get() + at, keys_out_.get() + at, alternate_.get(),
                                                        n, temp_.get(), temp_.bytes(), stream_.get());
         }},
    };
}

std::vector<Sorter> RadixBenchmark::pair_sorters(std::size_t n) {
    const int items = static_cast<int>(n);
    return {
        {"cub", nullptr, options_.runs,
         [this, items](std::size_t at) {
             std::size_t bytes = temp_.bytes();
             SC_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.get(), bytes, keys_in_.get() + at,
                                                           keys_out_.get() + at, values_in_.get() + at,
                                                           values_out_.get() + at, items, 0, kKeyBits,
                                                           stream_.get()));
         }},
        // In place, as thrust::sort. Thrust's radix sort of ints carries the values stably.
        {"thrust", nullptr, options_.runs,
         [this, n](std::size_t at) {
             int *keys = keys_out_.get() + at;
             int *values = values_out_.get() + at;
             copy(keys_in_.get() + at, keys, n);
             copy(values_in_.get() + at, values, n);
             Arena arena(temp_.get(), temp_.bytes());
             thrust::sort_by_key(thrust::cuda::par_nosync(arena).on(stream_.get()), keys, keys + n, values);
         }},
        {"onesweep", &Tuning::radix, options_.runs,
         [this, n](std::size_t at) {
             StreamCompaction::radix_sort_pairs(keys_in_.get() + at, keys_out_.get() + at, values_in_.get() + at,
                                                values_out_.get() + at, n, temp_.get(), temp_.bytes(), env_);
         }},
        // The argsort: the same values (each key's index) from a counting iterator, read in the first
        // pass, so that no index array is read (nor filled, which the other rows leave out).
        {"onesweep_argsort", &Tuning::radix, options_.runs,
         [this, n](std::size_t at) {
             StreamCompaction::radix_sort_pairs(keys_in_.get() + at, keys_out_.get() + at,
                                                thrust::counting_iterator<int>(0), values_out_.get() + at, n,
                                                temp_.get(), temp_.bytes(), env_);
         }},
    };
}

unsigned long long RadixBenchmark::mismatches(const int *got, const int *expected, std::size_t n) {
    SC_CUDA_CHECK(cudaMemsetAsync(mismatch_count_.get(), 0, sizeof(unsigned long long), stream_.get()));
    count_mismatches<<<fill_blocks(n), kFillThreads, 0, stream_.get()>>>(got, expected, n, mismatch_count_.get());
    SC_CHECK_LAUNCH(count_mismatches);
    return read_back(mismatch_count_.get(), stream_.get());
}

bool RadixBenchmark::matches_reference(const char *operation, const Size &size, const char *distribution,
                                       const Sorter &sorter, bool pairs) {
    const std::size_t n = size.n;
    poison(keys_out_.get(), n, stream_.get());
    if (pairs) poison(values_out_.get(), n, stream_.get());
    sorter.run(0);
    const unsigned long long wrong_keys = mismatches(keys_out_.get(), reference_keys_.get(), n);
    const unsigned long long wrong_values = pairs ? mismatches(values_out_.get(), reference_values_.get(), n) : 0;
    if (wrong_keys + wrong_values != 0)
        std::fprintf(stderr, "warning: %s %s n=%s %s: %llu keys and %llu values of %zu differ from CUB's\n",
                     sorter.name.c_str(), operation, size.label.c_str(), distribution, wrong_keys, wrong_values, n);
    return wrong_keys + wrong_values == 0;
}

Measurement RadixBenchmark::measure(const char *operation, const Size &size, const char *distribution,
                                    const Sorter &sorter, Rotation &rotation, bool pairs) {
    const bool ok = matches_reference(operation, size, distribution, sorter, pairs);
    const double ms = median_ms(stream_.get(), rotation, sorter.runs, sorter.run);
    // What a perfect sort moves: each key (and value) read once and written once.
    const double bytes = (pairs ? 16.0 : 8.0) * size.n;
    const int block_size = sorter.block.threads(env_.tuning);
    Measurement m{operation, sorter.name, size, distribution, ms, bytes, block_size, ok};
    m.anchor = sorter.name == "cub";
    return m;
}

void RadixBenchmark::run_group(const char *operation, const Size &size, const char *distribution,
                               const std::vector<Sorter> &sorters, Rotation &rotation, bool pairs) {
    const std::size_t n = size.n;
    sorters.front().run(0);
    copy(keys_out_.get(), reference_keys_.get(), n);
    if (pairs) copy(values_out_.get(), reference_values_.get(), n);
    for (const Sorter &sorter : sorters) sink_(measure(operation, size, distribution, sorter, rotation, pairs));
}

void RadixBenchmark::measure_std_sort(const Size &size, const char *distribution) {
    const std::size_t n = size.n;
    std::vector<int> input(n), expected(n), sorted;
    SC_CUDA_CHECK(cudaMemcpyAsync(input.data(), keys_in_.get(), n * sizeof(int), cudaMemcpyDeviceToHost,
                                  stream_.get()));
    SC_CUDA_CHECK(cudaMemcpyAsync(expected.data(), reference_keys_.get(), n * sizeof(int), cudaMemcpyDeviceToHost,
                                  stream_.get()));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    std::vector<double> ms(n <= kStdSortManyRunsMax ? kStdSortManyRuns : kStdSortFewRuns);
    for (double &elapsed : ms) {
        sorted = input;  // each run sorts the input as generated
        const auto start = std::chrono::steady_clock::now();
        std::sort(sorted.begin(), sorted.end());
        elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    const bool ok = sorted == expected;
    if (!ok)
        std::fprintf(stderr, "warning: std_sort sort_keys n=%s %s: differs from CUB's\n", size.label.c_str(),
                     distribution);
    sink_(Measurement{"sort_keys", "std_sort", size, distribution, median_of(ms), 8.0 * n, 0, ok});
}

void RadixBenchmark::run() {
    const std::size_t groups = sizes_.size() * std::size(kDistributions) * 2;
    std::size_t group = 0;
    const auto progress = [&](const Size &size, const char *distribution, const char *operation) {
        std::fprintf(stderr, "[radix %zu/%zu] n=%s %s %s\n", ++group, groups, size.label.c_str(), distribution,
                     operation);
    };
    for (const Size &size : sizes_) {
        const std::size_t n = size.n;
        // A rotation per size, shared by its groups, so that no sort reruns on the copies that the
        // previous one left in L2. The generators fill only the copies it covers.
        Rotation rotation(n, pool_elems_);
        const std::size_t stride = copy_stride(n);
        fill_indices<<<fill_blocks(rotation.span()), kFillThreads, 0, stream_.get()>>>(values_in_.get(),
                                                                                      rotation.span(), stride);
        SC_CHECK_LAUNCH(fill_indices);
        const std::vector<Sorter> keys = key_sorters(n);
        const std::vector<Sorter> pairs = pair_sorters(n);
        for (const NamedDistribution &d : kDistributions) {
            fill_keys<<<fill_blocks(rotation.span()), kFillThreads, 0, stream_.get()>>>(
                keys_in_.get(), rotation.span(), stride, n, d.distribution, kRadixKeySeed);
            SC_CHECK_LAUNCH(fill_keys);
            progress(size, d.name, "sort_keys");
            run_group("sort_keys", size, d.name, keys, rotation, false);
            if (n <= kStdSortMax) measure_std_sort(size, d.name);
            progress(size, d.name, "sort_pairs");
            run_group("sort_pairs", size, d.name, pairs, rotation, true);
        }
    }
}

}  // namespace

void run_radix(const Options &options, const Sink &sink) {
    std::vector<Size> sizes = sort_sizes(options.max_log2);
    if (sizes.empty()) return;
    RadixBenchmark(options, sink, std::move(sizes)).run();
}

}  // namespace bench
