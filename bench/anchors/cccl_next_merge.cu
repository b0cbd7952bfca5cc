// sc_bench_cccl_next's rows for sc_bench's merge, segmented-sort and segmented parts: CUB of the CCCL
// it is built against, on the same inputs (sorted_inputs.cuh, segmented_sort_inputs.cuh,
// segmented_inputs.cuh) and sizes:
//   sorted_search lower   cub::DeviceFind::LowerBoundSortedValues ("cub_X.Y": needles sorted, as
//                         ours) and cub::DeviceFind::LowerBound ("cub_X.Y_binary": any needles)
//   merge_keys, merge_pairs  cub::DeviceMerge
//   segmented_sort_keys, segmented_sort_pairs  cub::DeviceSegmentedSort::StableSortKeys / Pairs
//   segmented_scan        cub::DeviceScan::ExclusiveSumByKey on segment ids ("cub_X.Y", sc_bench's
//                         "cub" row) and cub::DeviceSegmentedScan::ExclusiveSegmentedSum on the CSR
//                         offsets ("cub_X.Y_offsets", CCCL 3.3 on)
// Checks: the two searches agree with thrust::lower_bound of the same CCCL; a merge's keys are
// sorted and the pairs' keys equal the keys' merge; the sorted pairs' keys equal the sorted keys;
// the segmented scan from offsets equals the one by key.
#include "cccl_next_parts.h"
#include "segmented_inputs.cuh"
#include "segmented_sort_inputs.cuh"
#include "sorted_inputs.cuh"

#include <cub/device/device_find.cuh>
#include <cub/device/device_merge.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/execution>
#include <cuda/std/functional>
#include <cuda/stream_ref>
#include <thrust/binary_search.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace bench {
namespace {

using StreamCompaction::DeviceBuffer;
using StreamEnv = cuda::std::execution::env<cuda::stream_ref>;

struct IntLess {
    __host__ __device__ bool operator()(int a, int b) const { return a < b; }
};

void merge_rows(const Options &options, Report &report, const std::string &name, const Size &size, cudaStream_t stream) {
    using namespace sorted_inputs;
    const std::size_t n = size.n, na = n / 2, nb = n - na;
    Rotation rotation(n, std::max(kPoolMinElems, copy_stride(n)));
    DeviceBuffer<int> needles(rotation.span()), haystack(rotation.span()), bounds(rotation.span()), reference(n);
    DeviceBuffer<int> a(rotation.span()), b(rotation.span()), av(rotation.span()), bv(rotation.span());
    DeviceBuffer<int> keys(rotation.span()), values(rotation.span());
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    make_sorted_keys(needles.get(), bounds.get(), n, kNeedleSeed, kMeanRun, n, rotation, temp, stream);
    make_sorted_keys(haystack.get(), bounds.get(), n, kHaystackSeed, kMeanRun, n, rotation, temp, stream);
    make_sorted_keys(a.get(), keys.get(), na, kASeed, kMeanRun, n, rotation, temp, stream);
    make_sorted_keys(b.get(), keys.get(), nb, kBSeed, kMeanRun, n, rotation, temp, stream);
    make_values(av.get(), rotation.span(), kValueSeed, stream);
    make_values(bv.get(), rotation.span(), kValueSeed ^ 1u, stream);
    int *d_needles = needles.get(), *d_haystack = haystack.get(), *d_bounds = bounds.get();
    thrust::lower_bound(thrust::cuda::par.on(stream), d_haystack, d_haystack + n, d_needles, d_needles + n,
                        reference.get());
    const StreamEnv env{cuda::stream_ref{stream}};
    std::size_t sorted_bytes = 0, binary_bytes = 0, keys_bytes = 0, pairs_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceFind::LowerBoundSortedValues(nullptr, sorted_bytes, d_haystack, n, d_needles, n, d_bounds,
                                                          IntLess{}, stream));
    SC_CUDA_CHECK(cub::DeviceFind::LowerBound(nullptr, binary_bytes, d_haystack, n, d_needles, n, d_bounds, IntLess{}, env));
    SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, keys_bytes, a.get(), static_cast<std::int64_t>(na), b.get(),
                                              static_cast<std::int64_t>(nb), keys.get(), IntLess{}, stream));
    SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(nullptr, pairs_bytes, a.get(), av.get(), static_cast<std::int64_t>(na),
                                               b.get(), bv.get(), static_cast<std::int64_t>(nb), keys.get(), values.get(),
                                               IntLess{}, stream));
    DeviceBuffer<char> lib_temp(std::max({sorted_bytes, binary_bytes, keys_bytes, pairs_bytes, std::size_t{1}}));
    char *d_temp = lib_temp.get();
    const std::size_t temp_bytes = lib_temp.bytes();
    const auto bounds_ok = [&] { return thrust::equal(thrust::cuda::par.on(stream), d_bounds, d_bounds + n, reference.get()); };
    time_row(options, report, "sorted_search", size, "lower", 12.0 * n, name, rotation, stream,
             [=](std::size_t at) {
                 std::size_t bytes = temp_bytes;
                 SC_CUDA_CHECK(cub::DeviceFind::LowerBoundSortedValues(d_temp, bytes, d_haystack + at, n, d_needles + at,
                                                                       n, d_bounds + at, IntLess{}, stream));
             },
             bounds_ok);
    time_row(options, report, "sorted_search", size, "lower", 12.0 * n, name + "_binary", rotation, stream,
             [=](std::size_t at) {
                 std::size_t bytes = temp_bytes;
                 SC_CUDA_CHECK(cub::DeviceFind::LowerBound(d_temp, bytes, d_haystack + at, n, d_needles + at, n,
                                                           d_bounds + at, IntLess{}, env));
             },
             bounds_ok);
    int *d_a = a.get(), *d_b = b.get(), *d_av = av.get(), *d_bv = bv.get(), *d_keys = keys.get(), *d_values = values.get();
    time_row(options, report, "merge_keys", size, "", 8.0 * n, name, rotation, stream,
             [=](std::size_t at) {
                 std::size_t bytes = temp_bytes;
                 SC_CUDA_CHECK(cub::DeviceMerge::MergeKeys(d_temp, bytes, d_a + at, static_cast<std::int64_t>(na), d_b + at,
                                                           static_cast<std::int64_t>(nb), d_keys + at, IntLess{}, stream));
             },
             [&] {
                 SC_CUDA_CHECK(cudaMemcpyAsync(reference.get(), d_keys, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
                 return thrust::is_sorted(thrust::cuda::par.on(stream), d_keys, d_keys + n);
             });
    time_row(options, report, "merge_pairs", size, "", 16.0 * n, name, rotation, stream,
             [=](std::size_t at) {
                 std::size_t bytes = temp_bytes;
                 SC_CUDA_CHECK(cub::DeviceMerge::MergePairs(d_temp, bytes, d_a + at, d_av + at, static_cast<std::int64_t>(na),
                                                            d_b + at, d_bv + at, static_cast<std::int64_t>(nb), d_keys + at,
                                                            d_values + at, IntLess{}, stream));
             },
             [&] { return thrust::equal(thrust::cuda::par.on(stream), d_keys, d_keys + n, reference.get()); });
}

void segmented_sort_rows(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    using namespace segmented_sort_inputs;
    const Size size = power_of_two(std::min(kLog2, options.max_log2));
    const std::size_t n = size.n;
    DeviceBuffer<int> keys(n), values(n), keys_out(n), values_out(n), sorted_keys(n);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys.get(), n, kKeySeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    fill_masked_hashes<<<fill_blocks(n), kFillThreads, 0, stream>>>(values.get(), n, kValueSeed, ~0u);
    SC_CHECK_LAUNCH(fill_masked_hashes);
    Rotation rotation(n, copy_stride(n));  // one copy: 2^24 keys and values are past L2, as in sc_bench
    for (const char *sizes : kSizeClasses) {
        const std::vector<int> host_offsets = make_offsets(n, sizes);
        const int segments = static_cast<int>(host_offsets.size()) - 1;
        const DeviceBuffer<int> offsets = DeviceBuffer<int>::from_host(host_offsets.data(), host_offsets.size());
        const int *d_offsets = offsets.get(), *d_keys = keys.get(), *d_values = values.get();
        int *d_keys_out = keys_out.get(), *d_values_out = values_out.get();
        std::size_t keys_bytes = 0, pairs_bytes = 0;
        SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(nullptr, keys_bytes, d_keys, d_keys_out, static_cast<int>(n),
                                                               segments, d_offsets, d_offsets + 1, stream));
        SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, pairs_bytes, d_keys, d_keys_out, d_values,
                                                                d_values_out, static_cast<int>(n), segments, d_offsets,
                                                                d_offsets + 1, stream));
        DeviceBuffer<char> temp(std::max({keys_bytes, pairs_bytes, std::size_t{1}}));
        char *d_temp = temp.get();
        const std::size_t temp_bytes = temp.bytes();
        time_row(options, report, "segmented_sort_keys", size, sizes, 8.0 * n + 4.0 * (segments + 1), name, rotation,
                 stream,
                 [=](std::size_t) {
                     std::size_t bytes = temp_bytes;
                     SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(d_temp, bytes, d_keys, d_keys_out,
                                                                            static_cast<int>(n), segments, d_offsets,
                                                                            d_offsets + 1, stream));
                 },
                 [&] {
                     SC_CUDA_CHECK(cudaMemcpyAsync(sorted_keys.get(), d_keys_out, n * sizeof(int), cudaMemcpyDeviceToDevice,
                                                   stream));
                     return true;  // checked below, by the pairs' keys
                 });
        time_row(options, report, "segmented_sort_pairs", size, sizes, 16.0 * n + 4.0 * (segments + 1), name, rotation,
                 stream,
                 [=](std::size_t) {
                     std::size_t bytes = temp_bytes;
                     SC_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(d_temp, bytes, d_keys, d_keys_out, d_values,
                                                                             d_values_out, static_cast<int>(n), segments,
                                                                             d_offsets, d_offsets + 1, stream));
                 },
                 [&] { return thrust::equal(thrust::cuda::par.on(stream), d_keys_out, d_keys_out + n, sorted_keys.get()); });
    }
}

void segmented_scan_rows(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    using namespace segmented_inputs;
    const Size size = power_of_two(std::min(kLog2, options.max_log2));
    const std::size_t n = size.n;
    DeviceBuffer<int> values(n), keys(n), out(n), by_key(n);
    fill_values<<<fill_blocks(n), kFillThreads, 0, stream>>>(values.get(), n);
    SC_CHECK_LAUNCH(fill_values);
    Rotation rotation(n, copy_stride(n));  // one copy: 2^26 values are past L2, as in sc_bench
    for (const Segmentation &segmentation : make_segmentations(n)) {
        const std::vector<int> &host_offsets = segmentation.offsets;
        const std::int64_t segments = static_cast<std::int64_t>(host_offsets.size()) - 1;
        std::vector<int> host_keys(n);  // segment ids: CUB's and Thrust's keys, as in sc_bench
        for (std::int64_t s = 0; s < segments; ++s)
            std::fill(host_keys.begin() + host_offsets[s], host_keys.begin() + host_offsets[s + 1], static_cast<int>(s));
        SC_CUDA_CHECK(cudaMemcpy(keys.get(), host_keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        const DeviceBuffer<int> offsets = DeviceBuffer<int>::from_host(host_offsets.data(), host_offsets.size());
        const int *d_values = values.get(), *d_keys = keys.get(), *d_offsets = offsets.get();
        int *d_out = out.get();
        std::size_t by_key_bytes = 0, offsets_bytes = 0;
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, by_key_bytes, d_keys, d_values, d_out,
                                                         static_cast<int>(n), cuda::std::equal_to<>{}, stream));
        SC_CUDA_CHECK(cub::DeviceSegmentedScan::ExclusiveSegmentedSum(nullptr, offsets_bytes, d_values, d_out,
                                                                      d_offsets, d_offsets + 1, segments, stream));
        DeviceBuffer<char> temp(std::max({by_key_bytes, offsets_bytes, std::size_t{1}}));
        char *d_temp = temp.get();
        const std::size_t temp_bytes = temp.bytes();
        time_row(options, report, "segmented_scan", size, segmentation.name, 8.0 * n, name, rotation, stream,
                 [=](std::size_t) {
                     std::size_t bytes = temp_bytes;
                     SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(d_temp, bytes, d_keys, d_values, d_out,
                                                                      static_cast<int>(n), cuda::std::equal_to<>{},
                                                                      stream));
                 },
                 [&] {
                     SC_CUDA_CHECK(cudaMemcpyAsync(by_key.get(), d_out, n * sizeof(int), cudaMemcpyDeviceToDevice,
                                                   stream));
                     return true;  // checked below, against the scan from offsets
                 });
        // Poisoned, so that an element the scan from offsets does not write fails the check.
        SC_CUDA_CHECK(cudaMemsetAsync(d_out, 0xA5, n * sizeof(int), stream));
        time_row(options, report, "segmented_scan", size, segmentation.name, 8.0 * n, name + "_offsets", rotation,
                 stream,
                 [=](std::size_t) {
                     std::size_t bytes = temp_bytes;
                     SC_CUDA_CHECK(cub::DeviceSegmentedScan::ExclusiveSegmentedSum(d_temp, bytes, d_values, d_out,
                                                                                   d_offsets, d_offsets + 1, segments,
                                                                                   stream));
                 },
                 [&] { return thrust::equal(thrust::cuda::par.on(stream), d_out, d_out + n, by_key.get()); });
    }
}

}  // namespace

void time_row(const Options &options, Report &report, const char *operation, const Size &size, const std::string &param,
              double bytes, const std::string &name, Rotation &rotation, cudaStream_t stream,
              const std::function<void(std::size_t)> &run, const std::function<bool()> &check) {
    run(0);
    const bool ok = check();
    if (!ok) std::fprintf(stderr, "warning: %s %s n=%s %s: check failed\n", name.c_str(), operation, size.label.c_str(), param.c_str());
    Measurement m{operation, name, size, param, median_ms(stream, rotation, options.runs, run), bytes, 0, ok};
    m.anchor = true;
    report.add(m);
}

void run_merge_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    const int first = std::min(20, options.max_log2);
    for (int log2 = first; log2 <= options.max_log2; ++log2) {
        if (log2 % 2 != 0 && log2 != options.max_log2) continue;  // sc_bench's merge sizes
        merge_rows(options, report, name, power_of_two(log2), stream);
    }
}

void run_segmented_sort_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    segmented_sort_rows(options, report, name, stream);
}

void run_segmented_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream) {
    segmented_scan_rows(options, report, name, stream);
}

}  // namespace bench
