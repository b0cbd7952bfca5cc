// sc_bench's segmented part: exclusive segmented sums and per-segment sums of 2^26 int32 values on
// four segmentations, the project's against CUB (the anchor) and Thrust. The per-segment sums run
// on each of segmented_reduce's engines and on Auto's choice ("ours"), against
// DeviceSegmentedReduce and, on segment ids as keys, CUB's and Thrust's reduce by key (which skip
// empty segments: their output is compared with the reference's non-empty segments).
//
// The same on 2^26 float values in [-1, 1) (operations segmented_scan_float and
// segmented_reduce_float, against CUB only): where the project's segmented scans and reductions
// carry sums across tiles by look-back, floating-point values take the fixed-order look-back (the
// same bits on every run) instead of the decoupled one that ints take; these rows, beside the int
// rows, put a price on that. Float sums depend on the order of association, so these outputs are
// compared with CUB's within a tolerance (kFloatTolerance), not bit for bit.
//
// Bytes counted: the values read and the results written (8n for a scan, 4n + 4 per segment for a
// reduction; float is 4 bytes too). The segment description is left out because its form differs
// between the implementations (int keys: 4n; uint8 flags: n; offsets: 4 per segment).
#include "arena.h"
#include "cases.h"
#include "fill.h"
#include "segmented_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/tuning/call_tuning.h>
#include <stream_compaction/tuning/policies.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <thrust/execution_policy.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <type_traits>

namespace bench {
namespace {

using StreamCompaction::DeviceBuffer;

using namespace segmented_inputs;
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
// Thrust's keys, uint8 head flags, CSR offsets), the int and the float values, and the outputs of
// each. Every array holds `copies` copies so that runs can rotate through them; copy c of an
// n-element array starts at element c * copy_stride(n), which is the offset that Rotation::next()
// gives.
class SegmentedData {
public:
    // What one run on values of type V reads and writes.
    template <class V>
    struct Copy {
        const V *values;
        const int *keys;
        const std::uint8_t *flags;
        const int *offsets;  // segments + 1
        V *out;              // n: the scans' output
        V *sums;             // segments: the reductions' output
        int *unique_keys;    // n: reduce by key's keys (the int scans' output)
        int *runs;           // reduce by key's count of runs
    };

    SegmentedData(std::size_t n, const std::vector<int> &offsets, std::size_t copies, cudaStream_t stream)
        : n_(n), segments_(offsets.size() - 1), stride_(copy_stride(n)),
          segment_stride_(copy_stride(segments_ + 1)), keys_(copies * stride_), flags_(copies * stride_),
          offsets_(copies * segment_stride_), runs_(1), ints_(copies * stride_, copies * segment_stride_),
          floats_(copies * stride_, copies * segment_stride_) {
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
        fill_values<<<fill_blocks(ints_.values.size()), kFillThreads, 0, stream>>>(ints_.values.get(),
                                                                                    ints_.values.size());
        SC_CHECK_LAUNCH(fill_values);
        fill_float_values<<<fill_blocks(floats_.values.size()), kFillThreads, 0, stream>>>(floats_.values.get(),
                                                                                            floats_.values.size());
        SC_CHECK_LAUNCH(fill_float_values);
        // The host vectors die here: the copies from them must be done.
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    std::size_t n() const { return n_; }
    std::size_t segments() const { return segments_; }
    // The segments with values, in order: what a reduction by key writes.
    const int *nonempty() const { return nonempty_.get(); }
    std::size_t nonempty_count() const { return nonempty_.size(); }

    template <class V>
    Copy<V> at(std::size_t offset) const {
        const std::size_t segment_offset = offset / stride_ * segment_stride_;
        const Typed<V> &typed = this->typed<V>();
        return {typed.values.get() + offset,       keys_.get() + offset,
                flags_.get() + offset,              offsets_.get() + segment_offset,
                typed.out.get() + offset,           typed.sums.get() + segment_offset,
                ints_.out.get() + offset,           runs_.get()};
    }

private:
    // The arrays of one value type: the values and the outputs.
    template <class V>
    struct Typed {
        Typed(std::size_t elements, std::size_t segment_elements)
            : values(elements), out(elements), sums(segment_elements) {}
        DeviceBuffer<V> values, out, sums;
    };

    template <class V>
    const Typed<V> &typed() const {
        static_assert(std::is_same_v<V, int> || std::is_same_v<V, float>, "int or float values");
        if constexpr (std::is_same_v<V, int>)
            return ints_;
        else
            return floats_;
    }

    std::size_t n_, segments_, stride_, segment_stride_;
    DeviceBuffer<int> keys_;
    DeviceBuffer<std::uint8_t> flags_;
    DeviceBuffer<int> offsets_, runs_, nonempty_;
    Typed<int> ints_;
    Typed<float> floats_;
};

// How far an output is from the reference: the largest |got - expected| (infinite where either is
// NaN) and the largest |expected|, over the elements.
struct Deviation {
    double difference, magnitude;
};

struct ElementDeviation {
    template <class Pair>
    __host__ __device__ Deviation operator()(const Pair &pair) const {
        const double got = thrust::get<0>(pair), expected = thrust::get<1>(pair);
        const double difference = fabs(got - expected);
        return {isnan(difference) ? INFINITY : difference, fabs(expected)};
    }
};

struct LargerDeviation {
    __host__ __device__ Deviation operator()(const Deviation &a, const Deviation &b) const {
        return {fmax(a.difference, b.difference), fmax(a.magnitude, b.magnitude)};
    }
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
    // anchor included, runs once on poisoned output there, is compared in full (ints exactly, floats
    // within kFloatTolerance), and is timed.
    template <class V>
    void run(const char *operation, double bytes, const std::vector<Impl> &impls, V *out, std::size_t count) {
        DeviceBuffer<V> reference(count);
        impls.front().run(0);
        SC_CUDA_CHECK(cudaMemcpyAsync(reference.get(), out, count * sizeof(V), cudaMemcpyDeviceToDevice, stream_));
        for (const Impl &impl : impls) {
            poison(out, count, stream_);
            impl.run(0);
            const bool ok = impl.run_count ? same_nonempty(out, reference.get(), impl.run_count())
                                           : matches(out, reference.get(), count);
            if (!ok)
                std::fprintf(stderr, "warning: %s %s, %s: the output differs from %s's\n", impl.name, operation,
                             param_.c_str(), impls.front().name);
            const double ms = median_ms(stream_, rotation_, options_.runs, impl.run);
            sink_(Measurement{operation, impl.name, size_, param_, ms, bytes, impl.block_size, ok, impl.anchor});
        }
    }

private:
    // A reduce by key's output: the reference's non-empty segments, and as many runs.
    template <class V>
    bool same_nonempty(const V *out, const V *reference, int runs) const {
        const auto expected = thrust::make_permutation_iterator(reference, data_.nonempty());
        return static_cast<std::size_t>(runs) == data_.nonempty_count() &&
               matches(out, expected, data_.nonempty_count());
    }

    // out[0, count) against `expected`: equal for ints; for floats, within kFloatTolerance of the
    // expected values' largest magnitude, and no NaN.
    template <class V, class Expected>
    bool matches(const V *out, Expected expected, std::size_t count) const {
        const auto pairs = thrust::make_zip_iterator(thrust::make_tuple(out, expected));
        const Deviation worst = thrust::transform_reduce(thrust::cuda::par.on(stream_), pairs, pairs + count,
                                                         ElementDeviation{}, Deviation{0.0, 0.0}, LargerDeviation{});
        if constexpr (std::is_floating_point_v<V>)
            return worst.difference <= kFloatTolerance * std::max(1.0, worst.magnitude);
        else
            return worst.difference == 0.0;  // ints are exact in double
    }

    const Options &options_;
    const Sink &sink_;
    cudaStream_t stream_;
    Size size_;
    std::string param_;
    Rotation &rotation_;
    const SegmentedData &data_;
};

// Storage for the implementations below on values of type V: Thrust's scan by key is CUB's, plus
// its own allocations.
template <class V>
std::size_t typed_temp_bytes(const SegmentedData &data) {
    const std::size_t n = data.n(), segments = data.segments();
    std::size_t cub_scan = 0, cub_reduce = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(nullptr, cub_scan, static_cast<const int *>(nullptr),
                                                     static_cast<const V *>(nullptr), static_cast<V *>(nullptr),
                                                     static_cast<int>(n)));
    SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, cub_reduce, static_cast<const V *>(nullptr),
                                                  static_cast<V *>(nullptr), static_cast<std::int64_t>(segments),
                                                  static_cast<const int *>(nullptr), static_cast<const int *>(nullptr)));
    std::size_t cub_by_key = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, cub_by_key, static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), static_cast<const V *>(nullptr),
                                                 static_cast<V *>(nullptr), static_cast<int *>(nullptr),
                                                 ::cuda::std::plus<>{}, static_cast<int>(n)));
    return std::max({cub_scan, 2 * cub_scan + (std::size_t{1} << 20), cub_reduce, cub_by_key,
                     2 * cub_by_key + (std::size_t{1} << 20),
                     StreamCompaction::segmented_scan_temp_bytes<V>(n),
                     StreamCompaction::segmented_reduce_temp_bytes<V>(n, segments)});
}

// Storage for every implementation below, on int and on float values.
std::size_t temp_bytes_for(const SegmentedData &data) {
    return std::max(typed_temp_bytes<int>(data), typed_temp_bytes<float>(data));
}

template <class V>
std::vector<Impl> scan_impls(const SegmentedData &data, DeviceBuffer<char> &temp, cudaStream_t stream) {
    const std::size_t n = data.n(), segments = data.segments();
    const StreamCompaction::CallEnvironment env(stream);  // of ours: the stream, at the library's default tuning
    // The segmented scans run on the single-pass scan machinery (scan.cuh).
    const int block = StreamCompaction::single_pass_threads(env.tuning);
    std::vector<Impl> impls{
        {"cub", true, 0,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy<V> c = data.at<V>(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSumByKey(temp.get(), bytes, c.keys, c.values, c.out,
                                                              static_cast<int>(n), cuda::std::equal_to<>{}, stream));
         }},
        {"flags", false, block,
         [&data, &temp, n, env](std::size_t at) {
             const SegmentedData::Copy<V> c = data.at<V>(at);
             StreamCompaction::segmented_exclusive_scan(c.values, c.flags, c.out, n, StreamCompaction::Sum{}, V(0),
                                                        temp.get(), temp.bytes(), env);
         }},
        {"offsets", false, block,
         [&data, &temp, n, segments, env](std::size_t at) {
             const SegmentedData::Copy<V> c = data.at<V>(at);
             StreamCompaction::segmented_exclusive_scan_by_offsets(c.values, n, c.offsets, segments, c.out,
                                                                   StreamCompaction::Sum{}, V(0), temp.get(),
                                                                   temp.bytes(), env);
         }},
    };
    // Thrust's row is the int operation's only, after CUB's.
    if constexpr (std::is_same_v<V, int>)
        impls.insert(impls.begin() + 1, Impl{"thrust", false, 0, [&data, &temp, n, stream](std::size_t at) {
                                                 const SegmentedData::Copy<int> c = data.at<int>(at);
                                                 Arena arena(temp.get(), temp.bytes());
                                                 thrust::exclusive_scan_by_key(
                                                     thrust::cuda::par_nosync(arena).on(stream), c.keys, c.keys + n,
                                                     c.values, c.out);
                                             }});
    return impls;
}

template <class V>
std::vector<Impl> reduce_impls(const SegmentedData &data, DeviceBuffer<char> &temp, cudaStream_t stream) {
    const std::size_t n = data.n(), segments = data.segments();
    using StreamCompaction::SegmentedReduceAlgorithm;
    const StreamCompaction::CallEnvironment env(stream);  // of ours: the stream, at the library's default tuning
    const auto ours = [&data, &temp, n, segments, env](SegmentedReduceAlgorithm algorithm) {
        return [&data, &temp, n, segments, env, algorithm](std::size_t at) {
            const SegmentedData::Copy<V> c = data.at<V>(at);
            StreamCompaction::segmented_reduce(c.values, n, c.offsets, segments, c.sums, StreamCompaction::Sum{}, V(0),
                                               temp.get(), temp.bytes(), env, algorithm);
        };
    };
    const int merge_path_block = StreamCompaction::segmented_threads(env.tuning);
    const int ours_block = StreamCompaction::segmented_reduce_engine(n, segments, SegmentedReduceAlgorithm::Auto) ==
                                   SegmentedReduceAlgorithm::ItemTiles
                               ? StreamCompaction::kItemTileThreads
                               : merge_path_block;
    std::vector<Impl> impls{
        {"cub", true, 0,
         [&data, &temp, segments, stream](std::size_t at) {
             const SegmentedData::Copy<V> c = data.at<V>(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp.get(), bytes, c.values, c.sums,
                                                           static_cast<std::int64_t>(segments), c.offsets,
                                                           c.offsets + 1, stream));
         }},
        {"cub_reduce_by_key", true, 0,
         [&data, &temp, n, stream](std::size_t at) {
             const SegmentedData::Copy<V> c = data.at<V>(at);
             std::size_t bytes = temp.bytes();
             SC_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp.get(), bytes, c.keys, c.unique_keys, c.values, c.sums,
                                                          c.runs, ::cuda::std::plus<>{}, static_cast<int>(n), stream));
         },
         [&data, stream] { return read_back(data.at<V>(0).runs, stream); }},
        {"ours", false, ours_block, ours(SegmentedReduceAlgorithm::Auto)},
        {"merge_path", false, merge_path_block, ours(SegmentedReduceAlgorithm::MergePath)},
        {"item_tiles", false, StreamCompaction::kItemTileThreads, ours(SegmentedReduceAlgorithm::ItemTiles)},
    };
    // Thrust's row is the int operation's only, after CUB's. Thrust returns the count to the host
    // (it waits for it): kept there, no copy back.
    if constexpr (std::is_same_v<V, int>) {
        const auto thrust_runs = std::make_shared<int>(-1);
        impls.insert(impls.begin() + 2, Impl{"thrust_reduce_by_key", true, 0,
                                             [&data, &temp, n, stream, thrust_runs](std::size_t at) {
                                                 const SegmentedData::Copy<int> c = data.at<int>(at);
                                                 Arena arena(temp.get(), temp.bytes());
                                                 const auto ends = thrust::reduce_by_key(
                                                     thrust::cuda::par_nosync(arena).on(stream), c.keys, c.keys + n,
                                                     c.values, c.unique_keys, c.sums);
                                                 *thrust_runs = static_cast<int>(ends.first - c.unique_keys);
                                             },
                                             [thrust_runs] { return *thrust_runs; }});
    }
    return impls;
}

// The segmented scan and the per-segment sums of values of type V, as operations `scan` and `reduce`.
template <class V>
void run_operations(SegmentedGroup &group, const SegmentedData &data, DeviceBuffer<char> &temp, cudaStream_t stream,
                    const char *scan, const char *reduce) {
    const std::size_t n = data.n(), segments = data.segments();
    const SegmentedData::Copy<V> first = data.at<V>(0);
    group.run(scan, 2.0 * sizeof(V) * n, scan_impls<V>(data, temp, stream), first.out, n);
    group.run(reduce, sizeof(V) * (static_cast<double>(n) + static_cast<double>(segments)),
              reduce_impls<V>(data, temp, stream), first.sums, segments);
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
        // At 2^26 one copy of the data (>= 1.3 GB with the float arrays) dwarfs L2; smaller sizes
        // (--max-log2) rotate through copies, as the scan part does. Every operation shares the rotation.
        Rotation rotation(size.n, std::max(kPoolMinElems, copy_stride(size.n)));
        const SegmentedData data(size.n, segmentation.offsets, rotation.span() / copy_stride(size.n), stream.get());
        DeviceBuffer<char> temp(temp_bytes_for(data));
        SegmentedGroup group(options, sink, stream.get(), size, segmentation.name, rotation, data);
        run_operations<int>(group, data, temp, stream.get(), "segmented_scan", "segmented_reduce");
        run_operations<float>(group, data, temp, stream.get(), "segmented_scan_float", "segmented_reduce_float");
    }
}

}  // namespace bench
