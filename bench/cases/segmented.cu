// sc_bench's segmented part: exclusive segmented sums and per-segment sums of 2^26 int32 values on
// four segmentations, the project's against CUB (the anchor) and Thrust. The per-segment sums run
// on each of segmented_reduce's engines and on Auto's choice ("ours"), against
// DeviceSegmentedReduce and, on segment ids as keys, CUB's and Thrust's reduce by key (which skip
// empty segments: their output is compared with the reference's non-empty segments).
//
// Bytes counted: the values read and the results written (8n for a scan, 4n + 4 per segment for a
// reduction). The segment description is left out because its form differs between the
// implementations (int keys: 4n; uint8 flags: n; offsets: 4 per segment).
#include "arena.h"
#include "cases.h"
#include "fill.h"
#include "segmented_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/policies.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>

namespace bench {
namespace {

using StreamCompaction::DeviceBuffer;

using namespace segmented_inputs;
constexpr int kPoisonByte = 0xA5;  // outputs are poisoned before each verified run

// Copies copy 0 of an array (count elements at the pool's start) to copies 1.. at `stride` apart.
template <class T>
void replicate(T *pool, std::size_t count, std::size_t stride, std::size_t copies, cudaStream_t stream) {
    for (std::size_t c = 1; c < copies; ++c)
        SC_CUDA_CHECK(cudaMemcpyAsync(pool + c * stride, pool, count * sizeof(T), cudaMemcpyDeviceToDevice, stream));
}

template <class T>
void upload(T *device, const std::vector<T> &host, cudaStream_t stream) {
    SC_CUDA_CHECK(cudaMemcpyAsync(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

// One segmentation of n elements in the forms the implementations take (segment ids as CUB's and
// Thrust's keys, uint8 head flags, CSR offsets), the values, and the outputs. Every array holds
// `copies` copies so that runs can rotate through them; copy c of an n-element array starts at
// element c * copy_stride(n), which is the offset that Rotation::next() gives.
class SegmentedData {
public:
    // What one run reads and writes.
    struct Copy {
        const int *values;
        const int *keys;
        const std::uint8_t *flags;
        const int *offsets;  // segments + 1
        int *out;            // n: the scans' output (and reduce by key's keys)
        int *sums;           // segments: the reductions' output
        int *runs;           // reduce by key's count of runs
    };

    SegmentedData(std::size_t n, const std::vector<int> &offsets, std::size_t copies, cudaStream_t stream)
        : n_(n), segments_(offsets.size() - 1), stride_(copy_stride(n)),
          segment_stride_(copy_stride(segments_ + 1)), values_(copies * stride_), keys_(copies * stride_),
          flags_(copies * stride_), offsets_(copies * segment_stride_), out_(copies * stride_),
          sums_(copies * segment_stride_), runs_(1) {
        std::vector<int> keys(n), nonempty;
        std::vector<std::uint8_t> flags(n, 0);
        for (std::size_t s = 0; s < segments_; ++s) {
            std::fill(keys.begin() + offsets[s], keys.begin() + offsets[s + 1], static_cast<int>(s));
            if (offsets[s] < offsets[s + 1]) {
                flags[offsets[s]] = 1;
                nonempty.push_back(static_cast<int>(s));
            }
        }
        nonempty_ = DeviceBuffer<int>::from_host(nonempty.data(), nonempty.size());
        upload(keys_.get(), keys, stream);
        upload(flags_.get(), flags, stream);
        upload(offsets_.get(), offsets, stream);
        replicate(keys_.get(), n, stride_, copies, stream);
        replicate(flags_.get(), n, stride_, copies, stream);
        replicate(offsets_.get(), segments_ + 1, segment_stride_, copies, stream);
        fill_values<<<fill_blocks(values_.size()), kFillThreads, 0, stream>>>(values_.get(), values_.size());
        SC_CHECK_LAUNCH(fill_values);
        // The host vectors die here: the copies from them must be done.
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    std::size_t n() const { return n_; }
    std::size_t segments() const { return segments_; }
    // The segments with values, in order: what a reduction by key writes.
    const int *nonempty() const { return nonempty_.get(); }
    std::size_t nonempty_count() const { return nonempty_.size(); }

    Copy at(std::size_t offset) const {
        const std::size_t segment_offset = offset / stride_ * segment_stride_;
        return {values_.get() + offset,          keys_.get() + offset, flags_.get() + offset,
                offsets_.get() + segment_offset, out_.get() + offset,  sums_.get() + segment_offset,
                runs_.get()};
    }

private:
    std::size_t n_, segments_, stride_, segment_stride_;
    DeviceBuffer<int> values_, keys_;
    DeviceBuffer<std::uint8_t> flags_;
    DeviceBuffer<int> offsets_, out_, sums_, runs_, nonempty_;
};

struct Impl {
    const char *name;
    bool anchor;
    int block_size;                        // 0 for the libraries
    std::function<void(std::size_t)> run;  // one run on the copy at this element offset
    // A reduce by key writes the non-empty segments only: how many runs its last call wrote (read
    // for the check, outside the timed calls). Empty for the others.
    std::function<int()> run_count = {};
};

// Runs the implementations of one operation on one segmentation, sharing the storage and the rotation.
class SegmentedGroup {
public:
    SegmentedGroup(const Options &options, const Sink &sink, cudaStream_t stream, const Size &size,
                   const std::string &param, Rotation &rotation, const SegmentedData &data)
        : options_(options), sink_(sink), stream_(stream), size_(size), param_(param), rotation_(rotation),
          data_(data) {}

    // impls[0] is the anchor whose output on copy 0 is the reference; then each implementation, the
    // anchor included, runs once on poisoned output there, is compared in full, and is timed.
    void run(const char *operation, double bytes, const std::vector<Impl> &impls, int *out, std::size_t count) {
        DeviceBuffer<int> reference(count);
        impls.front().run(0);
        SC_CUDA_CHECK(cudaMemcpyAsync(reference.get(), out, count * sizeof(int), cudaMemcpyDeviceToDevice, stream_));
        for (const Impl &impl : impls) {
            SC_CUDA_CHECK(cudaMemsetAsync(out, kPoisonByte, count * sizeof(int), stream_));
            impl.run(0);
            const bool ok = impl.run_count ? same_nonempty(out, reference.get(), impl.run_count())
                                        : thrust::equal(thrust::cuda::par.on(stream_), out, out + count, reference.get());
            if (!ok)
                std::fprintf(stderr, "warning: %s %s, %s: the output differs from %s's\n", impl.name, operation,
                             param_.c_str(), impls.front().name);
            const double ms = median_ms(stream_, rotation_, options_.runs, impl.run);
            sink_(Measurement{operation, impl.name, size_, param_, ms, bytes, impl.block_size, ok, impl.anchor});
        }
    }

private:
    // A reduce by key's output: the reference's non-empty segments, and as many runs.
    bool same_nonempty(const int *out, const int *reference, int runs) const {
        const auto expected = thrust::make_permutation_iterator(reference, data_.nonempty());
        return static_cast<std::size_t>(runs) == data_.nonempty_count() &&
               thrust::equal(thrust::cuda::par.on(stream_), out, out + runs, expected);
    }

    const Options &options_;
    const Sink &sink_;
    cudaStream_t stream_;
    Size size_;
    std::string param_;
    Rotation &rotation_;
    const SegmentedData &data_;
};

// Storage for every implementation below: Thrust's scan by key is CUB's, plus its own allocations.
std::size_t temp_bytes_for(const SegmentedData &data) {
    const std::size_t n = data.n(), segments = data.segments();
    std::size_t cub_scan = 0, cub_reduce = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, cub_scan, static_cast<const int *>(nullptr),
                                                     static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                                     static_cast<int>(n)));
    SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, cub_reduce, static_cast<const int *>(nullptr),
                                                  static_cast<int *>(nullptr), static_cast<std::int64_t>(segments),
                                                  static_cast<const int *>(nullptr), static_cast<const int *>(nullptr)));
    std::size_t cub_by_key = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, cub_by_key, static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<int *>(nullptr),
                                                 ::cuda::std::plus<>{}, static_cast<int>(n)));
    return std::max({cub_scan, 2 * cub_scan + (std::size_t{1} << 20), cub_reduce, cub_by_key,
                     2 * cub_by_key + (std::size_t{1} << 20),
                     StreamCompaction::segmented_scan_temp_bytes<int>(n),
                     StreamCompaction::segmented_reduce_temp_bytes<int>(n, segments)});
}

std::vector<Impl> scan_impls(const SegmentedData &data, DeviceBuffer<char> &temp, cudaStream_t stream) {
    const std::size_t n = data.n(), segments = data.segments();
    // The segmented scans run on the single-pass scan machinery (scan.cuh).
    const int block = StreamCompaction::block_sizes().single_pass;
    return {
        {"cub", true, 0,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(temp.get(), bytes, c.keys, c.values, c.out,
                                                              static_cast<int>(n), cuda::std::equal_to<>{}, stream));
         }},
        {"thrust", false, 0,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             Arena arena(temp.get(), temp.bytes());
             thrust::exclusive_scan_by_key(thrust::cuda::par_nosync(arena).on(stream), c.keys, c.keys + n, c.values,
                                           c.out);
         }},
        {"flags", false, block,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             StreamCompaction::segmented_exclusive_scan(c.values, c.flags, c.out, n, StreamCompaction::Sum{}, 0,
                                                        temp.get(), temp.bytes(), stream);
         }},
        {"offsets", false, block,
         [&data, &temp, n, segments, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             StreamCompaction::segmented_exclusive_scan_by_offsets(c.values, n, c.offsets, segments, c.out,
                                                                   StreamCompaction::Sum{}, 0, temp.get(),
                                                                   temp.bytes(), stream);
         }},
    };
}

std::vector<Impl> reduce_impls(const SegmentedData &data, DeviceBuffer<char> &temp, cudaStream_t stream) {
    const std::size_t n = data.n(), segments = data.segments();
    using StreamCompaction::SegmentedReduceAlgorithm;
    const auto ours = [&data, &temp, n, segments, stream](SegmentedReduceAlgorithm algorithm) {
        return [&data, &temp, n, segments, stream, algorithm](std::size_t at) {
            const SegmentedData::Copy c = data.at(at);
            StreamCompaction::segmented_reduce(c.values, n, c.offsets, segments, c.sums, StreamCompaction::Sum{}, 0,
                                               temp.get(), temp.bytes(), stream, algorithm);
        };
    };
    const auto thrust_runs = std::make_shared<int>(-1);
    const int merge_path_block = StreamCompaction::block_sizes().segmented;
    const int ours_block = StreamCompaction::segmented_reduce_engine(n, segments, SegmentedReduceAlgorithm::Auto) ==
                                   SegmentedReduceAlgorithm::ItemTiles
                               ? StreamCompaction::kItemTileThreads
                               : merge_path_block;
    return {
        {"cub", true, 0,
         [&data, &temp, segments, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp.get(), bytes, c.values, c.sums,
                                                           static_cast<std::int64_t>(segments), c.offsets,
                                                           c.offsets + 1, stream));
         }},
        {"cub_reduce_by_key", true, 0,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp.get(), bytes, c.keys, c.out, c.values, c.sums, c.runs,
                                                          ::cuda::std::plus<>{}, static_cast<int>(n), stream));
         },
         [&data, stream] {
             int runs = -1;
             SC_CUDA_CHECK(cudaMemcpyAsync(&runs, data.at(0).runs, sizeof(int), cudaMemcpyDeviceToHost, stream));
             SC_CUDA_CHECK(cudaStreamSynchronize(stream));
             return runs;
         }},
        // Thrust returns the count to the host (it waits for it): kept there, no copy back.
        {"thrust_reduce_by_key", true, 0,
         [&data, &temp, n, stream, thrust_runs](std::size_t at) {
             const SegmentedData::Copy c = data.at(at);
             Arena arena(temp.get(), temp.bytes());
             const auto ends = thrust::reduce_by_key(thrust::cuda::par_nosync(arena).on(stream), c.keys, c.keys + n,
                                                     c.values, c.out, c.sums);
             *thrust_runs = static_cast<int>(ends.first - c.out);
         },
         [thrust_runs] { return *thrust_runs; }},
        {"ours", false, ours_block, ours(SegmentedReduceAlgorithm::Auto)},
        {"merge_path", false, merge_path_block, ours(SegmentedReduceAlgorithm::MergePath)},
        {"item_tiles", false, StreamCompaction::kItemTileThreads, ours(SegmentedReduceAlgorithm::ItemTiles)},
    };
}

}  // namespace

void run_segmented(const Options &options, const Sink &sink) {
    const int log2 = std::min(kLog2, options.max_log2);
    const Size size{std::size_t{1} << log2, "2^" + std::to_string(log2)};
    const Stream stream;
    const std::vector<Segmentation> segmentations = make_segmentations(size.n);
    std::size_t done = 0;
    for (const Segmentation &segmentation : segmentations) {
        std::fprintf(stderr, "[segmented %zu/%zu] %s, %zu segments\n", ++done, segmentations.size(),
                     segmentation.name.c_str(), segmentation.offsets.size() - 1);
        // At 2^26 one copy of the data (>= 768 MB) dwarfs L2; smaller sizes (--max-log2) rotate
        // through copies, as the scan part does. Scan and reduce share the rotation.
        Rotation rotation(size.n, std::max(kPoolMinElems, copy_stride(size.n)));
        const SegmentedData data(size.n, segmentation.offsets, rotation.span() / copy_stride(size.n), stream.get());
        DeviceBuffer<char> temp(temp_bytes_for(data));
        SegmentedGroup group(options, sink, stream.get(), size, segmentation.name, rotation, data);
        const SegmentedData::Copy first = data.at(0);
        group.run("segmented_scan", 8.0 * size.n, scan_impls(data, temp, stream.get()), first.out, size.n);
        group.run("segmented_reduce", 4.0 * size.n + 4.0 * data.segments(), reduce_impls(data, temp, stream.get()),
                  first.sums, data.segments());
    }
}

}  // namespace bench
