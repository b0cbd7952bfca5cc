// The segmented scans (by flags and by offsets, inclusive and exclusive) on inputs and outputs beyond
// raw pointers (issue #43, part 2): Thrust's counting and transform iterators as values, flags and
// offsets (computed, never stored), thrust::device_ptr (unwrapped to the pointer path), transform
// output and discard iterators and pointers to a wider type as outputs (an item at a time). Every
// result against the CPU, outputs poisoned first; at the tuned block size and at 128 (the scans'
// block size is Tuning::single_pass); a non-commutative operator on computed values; and graph
// replay of every call on new inputs, with temporary storage at an odd address.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuSegmentedScanIterators : public GpuTest {};

// A scattered sample of i: no order, repeats, negatives.
struct Scatter {
    __host__ __device__ int operator()(int i) const { return static_cast<int>((i * 2654435761u) % 1999u) - 999; }
};
// Head flags of irregular segments: lengths 1 to 10, a flag of a type other than the values'.
struct IrregularHead {
    __host__ __device__ unsigned char operator()(int i) const { return (i * 7u) % 11u < 2u ? 1 : 0; }
};
struct TimesTen {
    __host__ __device__ long long operator()(int x) const { return 10LL * x; }
};
// Offsets of segments of `length` items each, every one followed by an empty segment: offsets[s] =
// min(s / 2 * length, n), so 2 * ceil(n / length) segments, the odd ones empty.
struct EqualSegmentsWithEmpties {
    int length;
    int n;
    __host__ __device__ int operator()(int s) const { return s / 2 * length < n ? s / 2 * length : n; }
};
// Offsets of segments of `length` items each: offsets[s] = min(s * length, n).
struct EqualSegments {
    int length;
    int n;
    __host__ __device__ long long operator()(int s) const {
        return static_cast<long long>(s) * length < n ? static_cast<long long>(s) * length : n;
    }
};

// x -> a x + b (mod 2^32); the scan composes them in order: associative, not commutative.
struct Affine {
    unsigned a, b;
    __host__ __device__ bool operator==(const Affine &other) const { return a == other.a && b == other.b; }
};
struct ThenApply {  // earlier, then later: x -> later.a (earlier.a x + earlier.b) + later.b
    __host__ __device__ Affine operator()(const Affine &earlier, const Affine &later) const {
        return {later.a * earlier.a, later.a * earlier.b + later.b};
    }
};
struct AffineOf {
    __host__ __device__ Affine operator()(int i) const { return {2u * (i % 7u) + 1u, 13u * i + 5u}; }
};

constexpr int kInit = 7;
constexpr int kSegmentLength = 37;

const std::vector<std::size_t> &sizes() {
    static const std::vector<std::size_t> values = {0, 1, 1001, (std::size_t{1} << 20) + 1};
    return values;
}

// The two block sizes every case runs at: the tuned kernels' and the generic kernels'.
std::vector<SC::Tuning> tunings() { return tunedAndGeneric(&SC::Tuning::single_pass); }

template <class F>
auto valuesOf(std::size_t n, F f) {
    std::vector<std::decay_t<decltype(f(0))>> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = f(static_cast<int>(i));
    return v;
}

// The offsets an offsets functor describes over n items, segments of them, as the references take.
template <class F>
std::vector<int> offsetsOf(std::size_t segments, F f) {
    std::vector<int> offsets(segments + 1);
    for (std::size_t s = 0; s <= segments; ++s) offsets[s] = static_cast<int>(f(static_cast<int>(s)));
    return offsets;
}

std::size_t segmentsOf(std::size_t n, int length) { return (n + length - 1) / length; }

std::string traceOf(std::size_t n, const SC::Tuning &tuning) {
    return "n = " + std::to_string(n) + ", single_pass " + std::to_string(SC::single_pass_threads(tuning));
}

std::vector<long long> widened(const std::vector<int> &v) { return std::vector<long long>(v.begin(), v.end()); }

}  // namespace

// Computed values and flags (transform iterators over a counting iterator) into a pointer; counting
// values under flags from memory; both forms.
TEST_F(GpuSegmentedScanIterators, FlagScansOfComputedValuesAndFlags) {
    std::mt19937 rng(freshSeed());
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const thrust::counting_iterator<int> indices(0);
            const auto values = thrust::make_transform_iterator(indices, Scatter{});
            const auto flags = thrust::make_transform_iterator(indices, IrregularHead{});
            const std::vector<int> in = valuesOf(n, Scatter{});
            const std::vector<unsigned char> head = valuesOf(n, IrregularHead{});
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<char> d_temp(SC::segmented_scan_temp_bytes<int>(n, env));

            d_out.fill_bytes(kPoisonByte);
            SC::segmented_inclusive_scan(values, flags, d_out.get(), n, SC::Sum{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n), referenceSegmentedScan(in, head, SC::Sum{}, false, 0),
                                     "inclusive, computed values and flags"));
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan(values, flags, d_out.get(), n, SC::Sum{}, kInit, d_temp.get(), d_temp.bytes(),
                                         env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, head, SC::Sum{}, true, kInit),
                                     "exclusive, computed values and flags"));

            // Counting values (0, 1, 2, ...) under random flags from memory.
            const std::vector<std::uint8_t> stored_flags = randomFlags(n, rng);
            const auto d_flags = SC::DeviceBuffer<std::uint8_t>::from_host(stored_flags.data(), n);
            const std::vector<int> counted = valuesOf(n, [](int i) { return i; });
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan(indices, d_flags.get(), d_out.get(), n, SC::Max{}, -1, d_temp.get(),
                                         d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(counted, stored_flags, SC::Max{}, true, -1),
                                     "exclusive max of counting values"));
        }
}

// Offsets computed (equal segments i * L, each followed by an empty one) and offsets from memory
// with random empty segments, under computed and stored values.
TEST_F(GpuSegmentedScanIterators, OffsetScansOfComputedOffsets) {
    std::mt19937 rng(freshSeed());
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const thrust::counting_iterator<int> indices(0);
            const std::vector<int> in = valuesOf(n, Scatter{});
            const auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<char> d_temp(SC::segmented_scan_temp_bytes<int>(n, env));

            const EqualSegmentsWithEmpties cuts{kSegmentLength, static_cast<int>(n)};
            const std::size_t segments = 2 * segmentsOf(n, kSegmentLength);
            const auto offsets = thrust::make_transform_iterator(indices, cuts);
            const std::vector<std::uint8_t> heads = flagsFromOffsets(offsetsOf(segments, cuts));
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_inclusive_scan_by_offsets(d_in.get(), n, offsets, segments, d_out.get(), SC::Sum{},
                                                    d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n), referenceSegmentedScan(in, heads, SC::Sum{}, false, 0),
                                     "inclusive, computed offsets"));
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan_by_offsets(thrust::make_transform_iterator(indices, Scatter{}), n, offsets,
                                                    segments, d_out.get(), SC::Sum{}, kInit, d_temp.get(),
                                                    d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, heads, SC::Sum{}, true, kInit),
                                     "exclusive, computed values and offsets"));

            // Offsets of another type (long long), no empty segments, under computed values.
            const EqualSegments equal{kSegmentLength, static_cast<int>(n)};
            const std::size_t equal_segments = segmentsOf(n, kSegmentLength);
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_inclusive_scan_by_offsets(thrust::make_transform_iterator(indices, Scatter{}), n,
                                                    thrust::make_transform_iterator(indices, equal), equal_segments,
                                                    d_out.get(), SC::Max{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, flagsFromOffsets(offsetsOf(equal_segments, equal)),
                                                            SC::Max{}, false, 0),
                                     "inclusive max, computed long long offsets"));

            // Random cuts from memory (empty segments likely), computed values.
            const std::vector<int> stored = randomOffsets(n, std::max<std::size_t>(n / 3, 1), rng);
            const auto d_offsets = SC::DeviceBuffer<int>::from_host(stored.data(), stored.size());
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan_by_offsets(thrust::make_transform_iterator(indices, Scatter{}), n,
                                                    d_offsets.get(), stored.size() - 1, d_out.get(), SC::Sum{}, kInit,
                                                    d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, flagsFromOffsets(stored), SC::Sum{}, true, kInit),
                                     "exclusive, stored offsets with empty segments"));
        }
}

// Outputs: a transform output iterator (into long longs), a pointer to a wider type, a discard
// iterator; and device_ptr's throughout, which unwrap to the pointer path (in place too).
TEST_F(GpuSegmentedScanIterators, OutputIteratorsAndDevicePointers) {
    // A device_ptr reaches the dispatch as the pointer it wraps: the vector loads' and stores' path.
    static_assert(std::is_same_v<decltype(SC::detail::read_only_input(thrust::device_ptr<int>())), const int *>);
    static_assert(std::is_same_v<decltype(SC::detail::unwrap_input(thrust::device_ptr<int>())), int *>);
    std::mt19937 rng(freshSeed());
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> in = randomInts(n, rng);
            const std::vector<std::uint8_t> flags = randomFlags(n, rng);
            const std::vector<int> offsets = randomOffsets(n, std::max<std::size_t>(n / 5, 1), rng);
            const std::vector<std::uint8_t> offset_heads = flagsFromOffsets(offsets);
            const std::size_t segments = offsets.size() - 1;
            const auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
            const auto d_flags = SC::DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
            const auto d_offsets = SC::DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<long long> d_wide(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<char> d_temp(SC::segmented_scan_temp_bytes<int>(n, env));

            const std::vector<int> inclusive = referenceSegmentedScan(in, flags, SC::Sum{}, false, 0);
            std::vector<long long> times_ten(n);
            std::transform(inclusive.begin(), inclusive.end(), times_ten.begin(), TimesTen{});
            d_wide.fill_bytes(kPoisonByte);
            SC::segmented_inclusive_scan(d_in.get(), d_flags.get(),
                                         thrust::make_transform_output_iterator(d_wide.get(), TimesTen{}), n,
                                         SC::Sum{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_wide.get(), n), times_ten, "transform output"));

            // The ints scanned as ints (wrapping where they would), each result widened on its way out.
            d_wide.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments, d_wide.get(), SC::Sum{},
                                                    kInit, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_wide.get(), n),
                                     widened(referenceSegmentedScan(in, offset_heads, SC::Sum{}, true, kInit)),
                                     "into long longs"));
            SC::segmented_inclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments,
                                                    thrust::make_discard_iterator(), SC::Sum{}, d_temp.get(),
                                                    d_temp.bytes(), env);
            SC_CUDA_CHECK(cudaDeviceSynchronize());  // a discarded result: the call runs, and writes nothing

            const thrust::device_ptr<int> values(d_in.get()), out(d_out.get());
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan(values, thrust::device_ptr<const std::uint8_t>(d_flags.get()), out, n,
                                         SC::Sum{}, kInit, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, flags, SC::Sum{}, true, kInit), "device_ptr's"));
            // In place through device_ptr's: d_out's values scanned over themselves.
            if (n > 0) SC_CUDA_CHECK(cudaMemcpy(d_out.get(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
            SC::segmented_inclusive_scan_by_offsets(out, n, thrust::device_ptr<const int>(d_offsets.get()), segments,
                                                    out, SC::Sum{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, offset_heads, SC::Sum{}, false, 0),
                                     "in place, device_ptr's"));
        }
}

// A non-commutative operator (composition of affine maps) on computed values: a scan that combined
// out of order, or with arguments swapped, differs.
TEST_F(GpuSegmentedScanIterators, NonCommutativeOperatorOnComputedValues) {
    const Affine identity{1u, 0u};
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const thrust::counting_iterator<int> indices(0);
            const auto values = thrust::make_transform_iterator(indices, AffineOf{});
            const std::vector<Affine> in = valuesOf(n, AffineOf{});
            const std::vector<unsigned char> flags = valuesOf(n, IrregularHead{});
            const EqualSegmentsWithEmpties cuts{kSegmentLength, static_cast<int>(n)};
            const std::size_t segments = 2 * segmentsOf(n, kSegmentLength);
            const std::vector<std::uint8_t> heads = flagsFromOffsets(offsetsOf(segments, cuts));
            SC::DeviceBuffer<Affine> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<char> d_temp(SC::segmented_scan_temp_bytes<Affine>(n, env));
            const Affine filler{0u, 0u};

            d_out.fill_bytes(kPoisonByte);
            SC::segmented_inclusive_scan(values, thrust::make_transform_iterator(indices, IrregularHead{}),
                                         d_out.get(), n, ThenApply{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n, filler),
                                     referenceSegmentedScan(in, flags, ThenApply{}, false, identity), "by flags"));
            d_out.fill_bytes(kPoisonByte);
            SC::segmented_exclusive_scan_by_offsets(values, n, thrust::make_transform_iterator(indices, cuts),
                                                    segments, d_out.get(), ThenApply{}, identity, d_temp.get(),
                                                    d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_out.get(), n, filler),
                                     referenceSegmentedScan(in, heads, ThenApply{}, true, identity), "by offsets"));
        }
}

// Every call of the family, on iterators over device memory (values and flags through transform
// iterators, offsets from memory; outputs through a transform output iterator, into a wider type and
// into a pointer), with temporary storage at an odd address, captured once in a CUDA graph and
// replayed on new inputs written into that memory between replays.
TEST_F(GpuSegmentedScanIterators, EveryCallReplaysInAGraphOnNewInputsWithStorageAtAnOddAddress) {
    const std::size_t n = (std::size_t{1} << 20) + 1;
    const std::size_t segments = n / 9;
    const Stream stream;
    const SC::CallEnvironment env = testEnv(stream.get());
    SC::DeviceBuffer<int> d_source(n), d_offsets(segments + 1);
    const auto values = thrust::make_transform_iterator(d_source.get(), Scatter{});      // Scatter(source[i])
    const auto flags = thrust::make_transform_iterator(d_source.get(), IrregularHead{});  // IrregularHead(source[i])
    SC::DeviceBuffer<long long> d_inclusive(n), d_exclusive(n);
    SC::DeviceBuffer<int> d_inclusive_offsets(n), d_exclusive_offsets(n);
    const std::size_t bytes = SC::segmented_scan_temp_bytes<int>(n, env);
    SC::DeviceBuffer<char> d_temp(4 * bytes + 3);
    char *const temp = d_temp.get() + 3;  // each call's storage at an odd address, none shared
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        const SC::CallEnvironment captured = testEnv(s);
        SC::segmented_inclusive_scan(values, flags,
                                     thrust::make_transform_output_iterator(d_inclusive.get(), TimesTen{}), n,
                                     SC::Sum{}, temp, bytes, captured);
        SC::segmented_exclusive_scan(values, flags, d_exclusive.get(), n, SC::Sum{}, kInit, temp + bytes, bytes,
                                     captured);
        SC::segmented_inclusive_scan_by_offsets(values, n, d_offsets.get(), segments, d_inclusive_offsets.get(),
                                                SC::Max{}, temp + 2 * bytes, bytes, captured);
        SC::segmented_exclusive_scan_by_offsets(values, n, d_offsets.get(), segments, d_exclusive_offsets.get(),
                                                SC::Sum{}, kInit, temp + 3 * bytes, bytes, captured);
    });
    std::mt19937 rng(freshSeed());
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        const std::vector<int> source = randomInts(n, rng, -100000, 100000);
        const std::vector<int> offsets = randomOffsets(n, segments, rng);
        std::vector<int> in(n);
        std::vector<unsigned char> head(n);
        std::transform(source.begin(), source.end(), in.begin(), Scatter{});
        std::transform(source.begin(), source.end(), head.begin(), IrregularHead{});
        SC_CUDA_CHECK(cudaMemcpy(d_source.get(), source.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        SC_CUDA_CHECK(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(int),
                                 cudaMemcpyHostToDevice));
        d_inclusive.fill_bytes(kPoisonByte);
        d_exclusive.fill_bytes(kPoisonByte);
        d_inclusive_offsets.fill_bytes(kPoisonByte);
        d_exclusive_offsets.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        const std::vector<int> inclusive = referenceSegmentedScan(in, head, SC::Sum{}, false, 0);
        std::vector<long long> times_ten(n);
        std::transform(inclusive.begin(), inclusive.end(), times_ten.begin(), TimesTen{});
        const std::vector<std::uint8_t> offset_heads = flagsFromOffsets(offsets);
        ASSERT_TRUE(sameElements(download(d_inclusive.get(), n), times_ten, "segmented_inclusive_scan"));
        ASSERT_TRUE(sameElements(download(d_exclusive.get(), n),
                                 widened(referenceSegmentedScan(in, head, SC::Sum{}, true, kInit)),
                                 "segmented_exclusive_scan"));
        ASSERT_TRUE(sameElements(download(d_inclusive_offsets.get(), n),
                                 referenceSegmentedScan(in, offset_heads, SC::Max{}, false, 0),
                                 "segmented_inclusive_scan_by_offsets"));
        ASSERT_TRUE(sameElements(download(d_exclusive_offsets.get(), n),
                                 referenceSegmentedScan(in, offset_heads, SC::Sum{}, true, kInit),
                                 "segmented_exclusive_scan_by_offsets"));
    }
}
