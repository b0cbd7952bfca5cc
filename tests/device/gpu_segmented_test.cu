// Segmented scans, segmented reduction and the segment conversions (segmented_scan.cuh) and their
// course wrappers (segmented.h) against sequential CPU references: every value type, inclusive and
// exclusive, flags and offsets, empty segments anywhere, a non-commutative operator, tile
// boundaries at several block sizes, bad arguments.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/segmented.h>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/call_environment.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

constexpr int kPoisonByte = 0xA5;

// Non-commutative and associative: x -> a*x + b modulo 2^32; op(f, g) applies f, then g.
struct Affine {
    unsigned a, b;
    bool operator==(const Affine &o) const { return a == o.a && b == o.b; }
};
struct ComposeAffine {
    __host__ __device__ Affine operator()(const Affine &f, const Affine &g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

template <class T>
T randomValue(std::mt19937 &rng) {
    if constexpr (std::is_same_v<T, Affine>) return {unsigned(rng() | 1u), unsigned(rng())};
    else if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(-1, 1)(rng);
    else return static_cast<T>(static_cast<std::int64_t>(rng() % 2001) - 1000);
}

template <class T>
std::vector<T> randomVector(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    for (T &x : v) x = randomValue<T>(rng);
    return v;
}

// Floating-point references accumulate in double; the rest compute in their own type.
template <class T>
using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T>
double magnitude(const T &x) {
    if constexpr (std::is_floating_point_v<T>) return std::fabs(double(x));
    else return 0;
}

// Expected values, with the magnitude (sum of |values| combined) each one's rounding is judged by.
template <class T>
struct Expected {
    std::vector<Accumulator<T>> values;
    std::vector<double> magnitudes;
};

// Exact for integers and structs; for floats within 1e-5 of the combined magnitude.
template <class T>
::testing::AssertionResult matches(const std::vector<T> &got, const Expected<T> &expected) {
    if (got.size() != expected.values.size())
        return ::testing::AssertionFailure() << "size " << got.size() << ", expected " << expected.values.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            if (double(got[i]) == expected.values[i]) continue;
            const double error = std::fabs(double(got[i]) - expected.values[i]) / (expected.magnitudes[i] + 1.0);
            if (!(error <= 1e-5))
                return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", expected "
                                                     << expected.values[i] << " (relative error " << error << ")";
        } else if (!(got[i] == T(expected.values[i]))) {
            return ::testing::AssertionFailure() << "element " << i << " differs";
        }
    }
    return ::testing::AssertionSuccess();
}

// A segmentation of n elements in both forms. Offsets include empty segments; flags mark the starts
// of the non-empty ones (the scans see the same segments either way).
struct Segments {
    std::vector<int> offsets{0};
    std::vector<std::uint8_t> flags;
    std::size_t count() const { return offsets.size() - 1; }
};

Segments fromLengths(const std::vector<int> &lengths) {
    Segments s;
    for (int length : lengths) s.offsets.push_back(s.offsets.back() + length);
    s.flags.assign(s.offsets.back(), 0);
    for (std::size_t k = 0; k < lengths.size(); ++k)
        if (lengths[k] > 0) s.flags[s.offsets[k]] = 1;
    return s;
}

// Random lengths (about 1 in 5 empty) with mean about meanLength, two empty segments leading and
// three trailing.
Segments randomSegments(std::size_t n, double meanLength, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::geometric_distribution<int> geometric(1.0 / meanLength);
    std::vector<int> lengths = {0, 0};
    std::size_t total = 0;
    while (total < n) {
        const int length = rng() % 5 == 0 ? 0 : static_cast<int>(std::min<std::size_t>(1 + geometric(rng), n - total));
        lengths.push_back(length);
        total += length;
    }
    lengths.insert(lengths.end(), {0, 0, 0});
    return fromLengths(lengths);
}

template <class T, class Op>
Expected<T> referenceScan(const std::vector<T> &in, const std::vector<std::uint8_t> &flags, Op op, bool exclusive,
                          T init) {
    using A = Accumulator<T>;
    Expected<T> out{std::vector<A>(in.size()), std::vector<double>(in.size())};
    A acc{};
    double size = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const bool head = i == 0 || flags[i];
        if (exclusive) {
            if (head) {
                acc = A(init);
                size = magnitude(init);
            }
            out.values[i] = acc;
            out.magnitudes[i] = size;
            acc = op(acc, A(in[i]));
            size += magnitude(in[i]);
        } else {
            acc = head ? A(in[i]) : op(acc, A(in[i]));
            size = head ? magnitude(in[i]) : size + magnitude(in[i]);
            out.values[i] = acc;
            out.magnitudes[i] = size;
        }
    }
    return out;
}

template <class T, class Op>
Expected<T> referenceReduce(const std::vector<T> &in, const std::vector<int> &offsets, Op op, T identity) {
    using A = Accumulator<T>;
    const std::size_t segments = offsets.size() - 1;
    Expected<T> out{std::vector<A>(segments), std::vector<double>(segments)};
    for (std::size_t s = 0; s < segments; ++s) {
        A acc = A(identity);
        double size = 0;
        for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
            acc = op(acc, A(in[i]));
            size += magnitude(in[i]);
        }
        out.values[s] = acc;
        out.magnitudes[s] = size;
    }
    return out;
}

enum class Form { Flags, Offsets };

// One segmented scan through the device API at `tuning`, on poisoned output and temporary storage.
template <class T, class Op>
std::vector<T> gpuSegmentedScan(const std::vector<T> &in, const Segments &segments, Form form, bool exclusive, Op op,
                                T init, bool in_place = false, const SC::Tuning &tuning = {}) {
    const SC::CallEnvironment env{nullptr, tuning};
    const std::size_t n = in.size();
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<T> d_out(n);
    d_out.fill_bytes(kPoisonByte);
    T *out = in_place ? d_in.get() : d_out.get();
    DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(segments.flags.data(), n);
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(segments.offsets.data(), segments.offsets.size());
    DeviceBuffer<char> temp(SC::segmented_scan_temp_bytes<T>(n));
    temp.fill_bytes(kPoisonByte);
    if (form == Form::Flags) {
        if (exclusive)
            SC::segmented_exclusive_scan(d_in.get(), d_flags.get(), out, n, op, init, temp.get(), temp.bytes(), env);
        else SC::segmented_inclusive_scan(d_in.get(), d_flags.get(), out, n, op, temp.get(), temp.bytes(), env);
    } else {
        if (exclusive)
            SC::segmented_exclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments.count(), out, op, init,
                                                    temp.get(), temp.bytes(), env);
        else
            SC::segmented_inclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments.count(), out, op,
                                                    temp.get(), temp.bytes(), env);
    }
    std::vector<T> result(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(result.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
    return result;
}

template <class T, class Op>
std::vector<T> gpuSegmentedReduce(const std::vector<T> &in, const std::vector<int> &offsets, Op op, T identity,
                                  SC::SegmentedReduceAlgorithm algorithm = SC::SegmentedReduceAlgorithm::Auto,
                                  const SC::Tuning &tuning = {}) {
    const std::size_t n = in.size(), segments = offsets.size() - 1;
    DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n);
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    DeviceBuffer<T> d_out(segments);
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<T>(n, segments));
    temp.fill_bytes(kPoisonByte);
    SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_out.get(), op, identity, temp.get(),
                         temp.bytes(), SC::CallEnvironment{nullptr, tuning}, algorithm);
    std::vector<T> result(segments);
    d_out.copy_to_host(result.data(), segments);
    return result;
}

constexpr SC::SegmentedReduceAlgorithm kReduceEngines[] = {
    SC::SegmentedReduceAlgorithm::Auto, SC::SegmentedReduceAlgorithm::MergePath, SC::SegmentedReduceAlgorithm::ItemTiles};

// The segmented reduce on each engine at `tuning` against the CPU.
template <class T, class Op>
::testing::AssertionResult reduceMatchesOnEveryEngine(const std::vector<T> &in, const std::vector<int> &offsets,
                                                      Op op, T identity, const SC::Tuning &tuning = {}) {
    const Expected<T> expected = referenceReduce(in, offsets, op, identity);
    for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines) {
        ::testing::AssertionResult result =
            matches(gpuSegmentedReduce(in, offsets, op, identity, engine, tuning), expected);
        if (!result) return result << " (segmented_reduce on " << SC::segmented_reduce_algorithm_name(engine) << ")";
    }
    return ::testing::AssertionSuccess();
}

// Every form and direction of the scan on one input, at `tuning`.
template <class T, class Op>
void checkScans(const std::vector<T> &in, const Segments &segments, Op op, T init, const SC::Tuning &tuning = {}) {
    for (const bool exclusive : {false, true}) {
        const Expected<T> expected = referenceScan(in, segments.flags, op, exclusive, init);
        for (const Form form : {Form::Flags, Form::Offsets}) {
            SCOPED_TRACE(std::string(exclusive ? "exclusive" : "inclusive") + (form == Form::Flags ? ", flags" : ", offsets"));
            ASSERT_TRUE(matches(gpuSegmentedScan(in, segments, form, exclusive, op, init, false, tuning), expected));
        }
    }
}

// Short segments (many heads per tile), medium ones, and long ones that span tiles.
const std::vector<double> kEveryMeanLength = {1.5, 37.0, 5000.0};

template <class T, class Op>
void checkOnSizes(Op op, T init, T identity, const std::vector<std::size_t> &sizes,
                  const std::vector<double> &meanLengths = kEveryMeanLength, const SC::Tuning &tuning = {}) {
    for (std::size_t n : sizes) {
        for (const double meanLength : meanLengths) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", mean segment length " + std::to_string(meanLength));
            const std::vector<T> in = randomVector<T>(n, freshSeed());
            const Segments segments = randomSegments(n, meanLength, freshSeed());
            checkScans(in, segments, op, init, tuning);
            ASSERT_TRUE(reduceMatchesOnEveryEngine(in, segments.offsets, op, identity, tuning));
        }
    }
}

// Tile = block size x vector_items x kTransformScanRows (head, value) pairs; merge-path
// tiles are block size x kMergePathItemsPerThread steps; the reduce's item tiles have a block size
// of their own, and so has the head bitmap of the scans by offsets. Sizes around each, and past the
// 32-tile look-back window.
template <class T>
std::vector<std::size_t> tileSizes(int threads) {
    const std::size_t tile = SC::detail::transform_tile_items_for<SC::SegmentedPair<T>>(threads);
    const std::size_t path_tile = std::size_t(threads) * SC::kMergePathItemsPerThread;
    const std::size_t item_tile = static_cast<std::size_t>(SC::detail::item_tile_items<T>());
    const std::size_t head_bits_tile = SC::detail::kHeadBitsTileItems;  // the offsets' bitmap, a block's words
    return {tile - 1,       tile,           tile + 1,       2 * tile,       33 * tile + 5,
            path_tile - 1,  path_tile + 1,  40 * path_tile, item_tile - 1,  item_tile + 1,
            34 * item_tile + 3, head_bits_tile - 1, head_bits_tile + 1, 3 * head_bits_tile + 5};
}

class Segmented : public GpuTest {};

// The segmented scans (single-pass kernels) and the merge-path reduce at `threads` a block.
SC::Tuning segmentedTuning(int threads) {
    SC::Tuning tuning;
    tuning.single_pass = threads;
    tuning.segmented = threads;
    return tuning;
}

}  // namespace

// The engine Auto takes: host arithmetic only, so it runs without a GPU too.
TEST(SegmentedReduceEngine, AutoTakesItemTilesFromTheMeanLength) {
    using SC::SegmentedReduceAlgorithm;
    const double mean = SC::kItemTileMinMeanLength;
    const std::size_t segments = 1000, long_enough = static_cast<std::size_t>(mean * segments);
    EXPECT_EQ(SC::segmented_reduce_engine(long_enough, segments, SegmentedReduceAlgorithm::Auto),
              SegmentedReduceAlgorithm::ItemTiles);
    EXPECT_EQ(SC::segmented_reduce_engine(long_enough - 1, segments, SegmentedReduceAlgorithm::Auto),
              SegmentedReduceAlgorithm::MergePath);
    EXPECT_EQ(SC::segmented_reduce_engine(0, 0, SegmentedReduceAlgorithm::Auto), SegmentedReduceAlgorithm::MergePath);
    // Past 2^31 - 1 segments only merge path counts them.
    const std::size_t many = std::size_t(INT_MAX) + 1;
    EXPECT_EQ(SC::segmented_reduce_engine(many * 100, many, SegmentedReduceAlgorithm::Auto),
              SegmentedReduceAlgorithm::MergePath);
    // A named engine is taken as it is.
    EXPECT_EQ(SC::segmented_reduce_engine(1, segments, SegmentedReduceAlgorithm::ItemTiles),
              SegmentedReduceAlgorithm::ItemTiles);
    EXPECT_EQ(SC::segmented_reduce_engine(long_enough, segments, SegmentedReduceAlgorithm::MergePath),
              SegmentedReduceAlgorithm::MergePath);
    EXPECT_STREQ(SC::segmented_reduce_algorithm_name(SegmentedReduceAlgorithm::ItemTiles), "item-tiles");

    // From a call's arguments: tiles of items only for arrays of the identity's type (pointers, a
    // thrust::device_ptr) and no 16-bit sum; anything else runs merge path, whatever is asked for.
    const float *values = reinterpret_cast<const float *>(16);
    float *sums = reinterpret_cast<float *>(16);
    const auto engine = [&](const auto &in, const auto &out, const auto &op, const auto &identity,
                            SegmentedReduceAlgorithm asked) {
        return SC::segmented_reduce_engine(in, out, op, identity, long_enough, segments, asked);
    };
    for (const SegmentedReduceAlgorithm asked : {SegmentedReduceAlgorithm::Auto, SegmentedReduceAlgorithm::ItemTiles}) {
        EXPECT_EQ(engine(values, sums, SC::Sum{}, 0.0f, asked), SegmentedReduceAlgorithm::ItemTiles);
        EXPECT_EQ(
            engine(thrust::device_ptr<const float>(values), thrust::device_ptr<float>(sums), SC::Max{}, 0.0f, asked),
            SegmentedReduceAlgorithm::ItemTiles);
        EXPECT_EQ(engine(thrust::counting_iterator<float>(0), sums, SC::Sum{}, 0.0f, asked),
                  SegmentedReduceAlgorithm::MergePath);
        EXPECT_EQ(engine(values, thrust::make_discard_iterator(), SC::Sum{}, 0.0f, asked),
                  SegmentedReduceAlgorithm::MergePath);
        EXPECT_EQ(engine(reinterpret_cast<const int *>(16), sums, SC::Sum{}, 0.0f, asked),
                  SegmentedReduceAlgorithm::MergePath);  // values of another type
        EXPECT_EQ(engine(reinterpret_cast<const __half *>(16), reinterpret_cast<__half *>(16), SC::Sum{},
                         __float2half(0.0f), asked),
                  SegmentedReduceAlgorithm::MergePath);  // a 16-bit sum, in float
        EXPECT_EQ(engine(reinterpret_cast<const __half *>(16), reinterpret_cast<__half *>(16), SC::Max{},
                         __float2half(0.0f), asked),
                  SegmentedReduceAlgorithm::ItemTiles);
    }
    EXPECT_EQ(engine(values, sums, SC::Sum{}, 0.0f, SegmentedReduceAlgorithm::MergePath),
              SegmentedReduceAlgorithm::MergePath);
}

namespace {

// A value computed from its index: small, of both signs.
struct ComputedValue {
    __host__ __device__ long long operator()(long long i) const { return i * 2654435761LL % 2001 - 1000; }
};

// The segmented sums of n values read through `input` (an iterator), on the engine asked for.
template <class V, class Input>
std::vector<V> iteratorSegmentedSums(Input input, std::size_t n, const std::vector<int> &offsets,
                                     SC::SegmentedReduceAlgorithm algorithm, cudaStream_t stream = 0) {
    const std::size_t segments = offsets.size() - 1;
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    DeviceBuffer<V> d_out(segments);
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<V>(n, segments));
    temp.fill_bytes(kPoisonByte);
    SC::segmented_reduce(input, n, d_offsets.get(), segments, d_out.get(), SC::Sum{}, V(0), temp.get(), temp.bytes(),
                         stream, algorithm);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<V> result(segments);
    d_out.copy_to_host(result.data(), segments);
    return result;
}

}  // namespace

// Values from iterators (issue #43): a counting and a transform iterator (values computed, no array
// of them: the merge-path engine, whatever engine is asked for) and a thrust::device_ptr
// (contiguous: the engine asked for), against the CPU. 64-bit sums of the values: exact.
TEST_F(Segmented, ReduceOfIteratorInputs) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3})
        for (const double mean : {4.0, 5000.0}) {
            const Segments segments = randomSegments(n, mean, freshSeed());
            std::vector<long long> counted(n), computed(n);
            for (std::size_t i = 0; i < n; ++i) {
                counted[i] = static_cast<long long>(i);
                computed[i] = ComputedValue{}(static_cast<long long>(i));
            }
            const auto expect = [&](const std::vector<long long> &values) {
                std::vector<long long> sums(segments.count());
                for (std::size_t k = 0; k < segments.count(); ++k)
                    for (int i = segments.offsets[k]; i < segments.offsets[k + 1]; ++i) sums[k] += values[i];
                return sums;
            };
            const thrust::counting_iterator<long long> indices(0);
            const auto d_computed = DeviceBuffer<long long>::from_host(computed.data(), n);
            for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines) {
                SCOPED_TRACE("n = " + std::to_string(n) + ", mean " + std::to_string(mean) + ", " +
                             SC::segmented_reduce_algorithm_name(engine));
                ASSERT_EQ(iteratorSegmentedSums<long long>(indices, n, segments.offsets, engine), expect(counted));
                ASSERT_EQ(iteratorSegmentedSums<long long>(thrust::make_transform_iterator(indices, ComputedValue{}), n,
                                                           segments.offsets, engine),
                          expect(computed));
                ASSERT_EQ(iteratorSegmentedSums<long long>(thrust::device_ptr<const long long>(d_computed.get()), n,
                                                           segments.offsets, engine),
                          expect(computed));
            }
        }
}

// An iterator's segmented reduce captured in a CUDA graph and replayed: the same sums each time.
TEST_F(Segmented, ReduceOfAnIteratorReplaysInAGraph) {
    const std::size_t n = (std::size_t{1} << 20) + 3;
    const Segments segments = randomSegments(n, 64, freshSeed());
    std::vector<long long> expected(segments.count());
    for (std::size_t k = 0; k < segments.count(); ++k)
        for (int i = segments.offsets[k]; i < segments.offsets[k + 1]; ++i) expected[k] += ComputedValue{}(i);
    const robustness::Stream stream;
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(segments.offsets.data(), segments.offsets.size());
    DeviceBuffer<long long> d_out(segments.count());
    DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<long long>(n, segments.count()));
    const auto values = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), ComputedValue{});
    const robustness::GraphExec graph = robustness::captureGraph(stream, [&](cudaStream_t s) {
        SC::segmented_reduce(values, n, d_offsets.get(), segments.count(), d_out.get(), SC::Sum{}, 0LL, temp.get(),
                             temp.bytes(), s);
    });
    for (int replay = 0; replay < 2; ++replay) {
        d_out.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<long long> got(segments.count());
        d_out.copy_to_host(got.data(), got.size());
        ASSERT_EQ(got, expected) << "replay " << replay;
    }
}

namespace {

// Three times a segment's total, as a double (a transform output iterator's function).
struct TripledAsDouble {
    __host__ __device__ double operator()(long long total) const { return 3.0 * static_cast<double>(total); }
};

}  // namespace

// Results through output iterators (issue #43): a thrust::device_ptr (an array of V: the engine
// asked for), a transform output iterator into an array of another type and a discard iterator
// (the merge-path engine, whatever engine is asked for), from an array and from a counting iterator,
// against the CPU; the transform output captured in a CUDA graph and replayed.
TEST_F(Segmented, ReduceIntoOutputIterators) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, (std::size_t{1} << 20) + 3})
        for (const double mean : {4.0, 5000.0}) {
            const Segments segments = randomSegments(n, mean, freshSeed());
            const std::size_t count = segments.count();
            std::vector<long long> values(n), expected(count);
            for (std::size_t i = 0; i < n; ++i) values[i] = ComputedValue{}(static_cast<long long>(i));
            for (std::size_t k = 0; k < count; ++k)
                for (int i = segments.offsets[k]; i < segments.offsets[k + 1]; ++i) expected[k] += values[i];
            std::vector<double> tripled(count);
            for (std::size_t k = 0; k < count; ++k) tripled[k] = 3.0 * static_cast<double>(expected[k]);
            const auto d_values = DeviceBuffer<long long>::from_host(values.data(), n);
            const auto d_offsets = DeviceBuffer<int>::from_host(segments.offsets.data(), segments.offsets.size());
            DeviceBuffer<long long> d_sums(count);
            DeviceBuffer<double> d_tripled(count);
            DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<long long>(n, count));
            const auto computed =
                thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), ComputedValue{});
            for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines) {
                SCOPED_TRACE("n = " + std::to_string(n) + ", mean " + std::to_string(mean) + ", " +
                             SC::segmented_reduce_algorithm_name(engine));
                std::vector<long long> got(count);
                std::vector<double> got_tripled(count);
                d_sums.fill_bytes(kPoisonByte);
                temp.fill_bytes(kPoisonByte);
                SC::segmented_reduce(d_values.get(), n, d_offsets.get(), count,
                                     thrust::device_ptr<long long>(d_sums.get()), SC::Sum{}, 0LL, temp.get(),
                                     temp.bytes(), {}, engine);
                d_sums.copy_to_host(got.data(), count);
                ASSERT_EQ(got, expected) << "into a thrust::device_ptr";
                for (const bool from_iterator : {false, true}) {
                    d_tripled.fill_bytes(kPoisonByte);
                    const auto out = thrust::make_transform_output_iterator(d_tripled.get(), TripledAsDouble{});
                    if (from_iterator)
                        SC::segmented_reduce(computed, n, d_offsets.get(), count, out, SC::Sum{}, 0LL, temp.get(),
                                             temp.bytes(), {}, engine);
                    else
                        SC::segmented_reduce(d_values.get(), n, d_offsets.get(), count, out, SC::Sum{}, 0LL,
                                             temp.get(), temp.bytes(), {}, engine);
                    d_tripled.copy_to_host(got_tripled.data(), count);
                    ASSERT_EQ(got_tripled, tripled) << "through a transform output iterator, values from "
                                                    << (from_iterator ? "an iterator" : "an array");
                }
                // Nothing to see but that it runs (and, under memcheck, writes nowhere).
                SC::segmented_reduce(d_values.get(), n, d_offsets.get(), count, thrust::make_discard_iterator(),
                                     SC::Sum{}, 0LL, temp.get(), temp.bytes(), {}, engine);
                SC_CUDA_CHECK(cudaDeviceSynchronize());
            }
        }

    const std::size_t n = (std::size_t{1} << 20) + 3;
    const Segments segments = randomSegments(n, 64, freshSeed());
    const robustness::Stream stream;
    DeviceBuffer<long long> d_values(n);
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(segments.offsets.data(), segments.offsets.size());
    DeviceBuffer<double> d_tripled(segments.count());
    DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<long long>(n, segments.count()) + 5);
    const robustness::GraphExec graph = robustness::captureGraph(stream, [&](cudaStream_t s) {
        SC::segmented_reduce(d_values.get(), n, d_offsets.get(), segments.count(),
                             thrust::make_transform_output_iterator(d_tripled.get(), TripledAsDouble{}), SC::Sum{},
                             0LL, temp.get() + 5, temp.bytes() - 5, s);
    });
    for (int replay = 0; replay < 2; ++replay) {
        std::vector<long long> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = ComputedValue{}(static_cast<long long>(i) + replay * 7919);
        SC_CUDA_CHECK(cudaMemcpy(d_values.get(), values.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
        std::vector<double> expected(segments.count()), got(segments.count());
        for (std::size_t k = 0; k < segments.count(); ++k) {
            long long sum = 0;
            for (int i = segments.offsets[k]; i < segments.offsets[k + 1]; ++i) sum += values[i];
            expected[k] = 3.0 * static_cast<double>(sum);
        }
        d_tripled.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        d_tripled.copy_to_host(got.data(), got.size());
        ASSERT_EQ(got, expected) << "replay " << replay << ", storage at an odd address";
    }
}

TEST_F(Segmented, TheIssuesExample) {
    const std::vector<int> values = {1, 2, 3, 4, 5, 6, 7, 8};
    const Segments segments = fromLengths({2, 3, 3});
    EXPECT_EQ(gpuSegmentedScan(values, segments, Form::Flags, true, SC::Sum{}, 0), (std::vector<int>{0, 1, 0, 3, 7, 0, 6, 13}));
    EXPECT_EQ(gpuSegmentedScan(values, segments, Form::Offsets, true, SC::Sum{}, 0), (std::vector<int>{0, 1, 0, 3, 7, 0, 6, 13}));
    EXPECT_EQ(gpuSegmentedScan(values, segments, Form::Offsets, false, SC::Sum{}, 0), (std::vector<int>{1, 3, 3, 7, 12, 6, 13, 21}));
    for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines)
        EXPECT_EQ(gpuSegmentedReduce(values, segments.offsets, SC::Sum{}, 0, engine), (std::vector<int>{3, 12, 21}));
    // Each segment of an exclusive scan starts from init, then init op the segment's values.
    EXPECT_EQ(gpuSegmentedScan(values, segments, Form::Flags, true, SC::Sum{}, 100),
              (std::vector<int>{100, 101, 100, 103, 107, 100, 106, 113}));
    // Element 0 starts a segment whatever its flag says.
    Segments unflagged = segments;
    unflagged.flags[0] = 0;
    EXPECT_EQ(gpuSegmentedScan(values, unflagged, Form::Flags, false, SC::Sum{}, 0), (std::vector<int>{1, 3, 3, 7, 12, 6, 13, 21}));
}

TEST_F(Segmented, EveryTypeInclusiveExclusiveFlagsOffsetsAndReduce) {
    std::vector<std::size_t> sizes = edgeSizes();
    checkOnSizes<int>(SC::Sum{}, 0, 0, sizes);
    checkOnSizes<int>(SC::Max{}, INT_MIN, INT_MIN, sizes);
    checkOnSizes<std::int64_t>(SC::Sum{}, std::int64_t(5), std::int64_t(0), sizes);
    checkOnSizes<float>(SC::Sum{}, 0.0f, 0.0f, sizes);
    checkOnSizes<float>(SC::Min{}, INFINITY, INFINITY, {1000, 100000});
    checkOnSizes<double>(SC::Sum{}, 0.0, 0.0, sizes);
    checkOnSizes<double>(SC::Max{}, -INFINITY, -INFINITY, {1000, 100000});
}

TEST_F(Segmented, TileBoundariesAtEveryBlockSize) {
    for (int threads : {32, 256, 1024}) {
        const SC::Tuning tuning = segmentedTuning(threads);
        SCOPED_TRACE("block size " + std::to_string(threads));
        checkOnSizes<int>(SC::Sum{}, 0, 0, tileSizes<int>(threads), {3.0, 5000.0}, tuning);
        checkOnSizes<std::int64_t>(SC::Sum{}, std::int64_t(0), std::int64_t(0), tileSizes<std::int64_t>(threads),
                                   {3.0, 5000.0}, tuning);
        checkOnSizes<float>(SC::Sum{}, 0.0f, 0.0f, tileSizes<float>(threads), {3.0, 5000.0}, tuning);
        checkOnSizes<double>(SC::Sum{}, 0.0, 0.0, tileSizes<double>(threads), {3.0, 5000.0}, tuning);
    }
}

TEST_F(Segmented, NonCommutativeOperator) {
    for (int threads : {32, 256}) {
        std::vector<std::size_t> sizes = {1, 2, 3, 1000, 65537};
        const std::vector<std::size_t> tiles = tileSizes<Affine>(threads);
        sizes.insert(sizes.end(), tiles.begin(), tiles.end());
        checkOnSizes<Affine>(ComposeAffine{}, Affine{1, 0}, Affine{1, 0}, sizes, kEveryMeanLength,
                             segmentedTuning(threads));
    }
}

TEST_F(Segmented, EmptySegmentsEverywhereAndDegenerateShapes) {
    // Leading, consecutive and trailing empty segments; one segment; one segment per element.
    const std::vector<std::vector<int>> shapes = {
        {0, 0, 0, 5, 0, 0, 3, 0, 1, 0, 0}, {4096}, std::vector<int>(3000, 1), {0, 1, 0, 1, 0, 1, 0}};
    for (const auto &shape : shapes) {
        const Segments segments = fromLengths(shape);
        const std::vector<double> in = randomVector<double>(segments.offsets.back(), freshSeed());
        checkScans(in, segments, SC::Sum{}, 0.0);
        EXPECT_TRUE(reduceMatchesOnEveryEngine(in, segments.offsets, SC::Sum{}, 0.0));
    }
    // All segments empty: n = 0, every reduction is the identity.
    const std::vector<int> empty_offsets(1001, 0);
    for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines) {
        EXPECT_EQ(gpuSegmentedReduce(std::vector<int>{}, empty_offsets, SC::Max{}, INT_MIN, engine),
                  std::vector<int>(1000, INT_MIN));
        // No segments at all.
        EXPECT_TRUE(gpuSegmentedReduce(std::vector<int>{}, std::vector<int>{0}, SC::Sum{}, 0, engine).empty());
    }
    // Runs of empty segments far longer than a head-bitmap block's threads, in the middle and at the end.
    std::vector<int> empty_runs = {5};
    empty_runs.insert(empty_runs.end(), 100000, 0);
    empty_runs.push_back(SC::detail::kHeadBitsTileItems + 7);
    empty_runs.insert(empty_runs.end(), 50000, 0);
    const Segments runs = fromLengths(empty_runs);
    const std::vector<float> run_values = randomVector<float>(runs.offsets.back(), freshSeed());
    checkScans(run_values, runs, SC::Sum{}, 0.0f);
    EXPECT_TRUE(reduceMatchesOnEveryEngine(run_values, runs.offsets, SC::Sum{}, 0.0f));
    // One segment of 2^20 among empty ones.
    const Segments long_one = fromLengths({0, 1 << 20, 0, 1, 0});
    const std::vector<float> values = randomVector<float>(long_one.offsets.back(), freshSeed());
    EXPECT_TRUE(reduceMatchesOnEveryEngine(values, long_one.offsets, SC::Sum{}, 0.0f));
    checkScans(values, long_one, SC::Sum{}, 0.0f);
}

TEST_F(Segmented, InPlaceInclusiveAndExclusive) {
    const std::vector<int> in = randomVector<int>(100003, freshSeed());
    const Segments segments = randomSegments(in.size(), 50, freshSeed());
    for (const Form form : {Form::Flags, Form::Offsets})
        for (const bool exclusive : {false, true})
            EXPECT_TRUE(matches(gpuSegmentedScan(in, segments, form, exclusive, SC::Sum{}, 7, true),
                                referenceScan(in, segments.flags, SC::Sum{}, exclusive, 7)));
}

// Values, flags and results one element past their allocations' starts: too misaligned for a
// row's vector access, so every tile takes the element-by-element path.
TEST_F(Segmented, MisalignedPointers) {
    const std::size_t n = 100003;
    const std::vector<int> in = randomVector<int>(n + 1, freshSeed());
    const Segments segments = randomSegments(n + 1, 20, freshSeed());
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n + 1);
    DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(segments.flags.data(), n + 1);
    DeviceBuffer<int> d_out(n + 1);
    DeviceBuffer<char> temp(SC::segmented_scan_temp_bytes<int>(n));
    const std::vector<int> tail_in(in.begin() + 1, in.end());
    const std::vector<std::uint8_t> tail_flags(segments.flags.begin() + 1, segments.flags.end());
    for (const bool exclusive : {false, true}) {
        d_out.fill_bytes(kPoisonByte);
        if (exclusive)
            SC::segmented_exclusive_scan(d_in.get() + 1, d_flags.get() + 1, d_out.get() + 1, n, SC::Sum{}, 3, temp.get(),
                                         temp.bytes());
        else SC::segmented_inclusive_scan(d_in.get() + 1, d_flags.get() + 1, d_out.get() + 1, n, SC::Sum{}, temp.get(),
                                          temp.bytes());
        std::vector<int> got(n);
        SC_CUDA_CHECK(cudaMemcpy(got.data(), d_out.get() + 1, n * sizeof(int), cudaMemcpyDeviceToHost));
        EXPECT_TRUE(matches(got, referenceScan(tail_in, tail_flags, SC::Sum{}, exclusive, 3))) << exclusive;
    }
    // The reduce's values one int past a vector boundary: the item tiles load them one at a time.
    const Segments long_segments = randomSegments(n, 300, freshSeed());
    const std::size_t count = long_segments.count();
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(long_segments.offsets.data(), count + 1);
    DeviceBuffer<int> d_sums(count);
    DeviceBuffer<char> reduce_temp(SC::segmented_reduce_temp_bytes<int>(n, count));
    const Expected<int> expected = referenceReduce(tail_in, long_segments.offsets, SC::Sum{}, 0);
    for (const SC::SegmentedReduceAlgorithm engine : kReduceEngines) {
        d_sums.fill_bytes(kPoisonByte);
        SC::segmented_reduce(d_in.get() + 1, n, d_offsets.get(), count, d_sums.get(), SC::Sum{}, 0, reduce_temp.get(),
                             reduce_temp.bytes(), 0, engine);
        std::vector<int> sums(count);
        d_sums.copy_to_host(sums.data(), count);
        EXPECT_TRUE(matches(sums, expected)) << SC::segmented_reduce_algorithm_name(engine);
    }
}

TEST_F(Segmented, MakeFlagsAndConversions) {
    const std::vector<int> shape = {0, 3, 1, 0, 4, 2, 0};
    const std::vector<int> expected = {1, 0, 0, 1, 1, 0, 0, 0, 1, 0};
    DeviceBuffer<int> d_shape = DeviceBuffer<int>::from_host(shape.data(), shape.size());
    DeviceBuffer<int> d_flags(10);
    d_flags.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::make_flags_temp_bytes(shape.size()));
    SC::make_flags(d_shape.get(), shape.size(), d_flags.get(), 10, temp.get(), temp.bytes());
    std::vector<int> flags(10);
    d_flags.copy_to_host(flags.data(), 10);
    EXPECT_EQ(flags, expected);
    std::vector<int> course(10, -1);
    EXPECT_EQ(SC::Segmented::makeFlags(int(shape.size()), course.data(), shape.data()), 10);
    EXPECT_EQ(course, expected);

    // Offsets -> flags, and flags -> offsets (which cannot see empty segments).
    const std::vector<int> offsets = {0, 0, 3, 4, 4, 8, 10, 10};
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    DeviceBuffer<std::uint8_t> d_bytes(10);
    d_bytes.fill_bytes(kPoisonByte);
    SC::offsets_to_flags(d_offsets.get(), offsets.size() - 1, d_bytes.get(), 10);
    std::vector<std::uint8_t> bytes(10);
    d_bytes.copy_to_host(bytes.data(), 10);
    EXPECT_EQ(std::vector<int>(bytes.begin(), bytes.end()), expected);

    for (std::size_t n : {std::size_t(1), std::size_t(10), std::size_t(100003)}) {
        std::vector<std::uint8_t> heads(n);
        std::mt19937 rng(freshSeed());
        for (auto &h : heads) h = rng() % 7 == 0;
        if (n == 10) heads.assign(bytes.begin(), bytes.end());
        std::vector<long long> expected_offsets;
        for (std::size_t i = 0; i < n; ++i)
            if (i == 0 || heads[i]) expected_offsets.push_back(i);
        expected_offsets.push_back(n);
        DeviceBuffer<std::uint8_t> d_heads = DeviceBuffer<std::uint8_t>::from_host(heads.data(), n);
        DeviceBuffer<long long> d_out(n + 1);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<std::size_t> d_count(1);
        DeviceBuffer<char> scratch(SC::flags_to_offsets_temp_bytes(n));
        SC::flags_to_offsets(d_heads.get(), n, d_out.get(), d_count.get(), scratch.get(), scratch.bytes());
        std::size_t count = 0;
        d_count.copy_to_host(&count, 1);
        ASSERT_EQ(count + 1, expected_offsets.size()) << "n = " << n;
        std::vector<long long> got(count + 1);
        d_out.copy_to_host(got.data(), got.size());
        EXPECT_EQ(got, expected_offsets) << "n = " << n;
    }
}

TEST_F(Segmented, CourseInterface) {
    for (int n : {1, 3, 1 << 8, (1 << 8) - 3, 1 << 16, (1 << 16) - 3}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
        const Segments segments = randomSegments(n, 20, freshSeed());
        const std::vector<int> flags(segments.flags.begin(), segments.flags.end());
        std::vector<int> out(n, INT_MIN);
        SC::Segmented::scan(n, out.data(), in.data(), flags.data());
        EXPECT_TRUE(matches(out, referenceScan(in, segments.flags, SC::Sum{}, true, 0)));
        SC::Segmented::inclusiveScan(n, out.data(), in.data(), flags.data());
        EXPECT_TRUE(matches(out, referenceScan(in, segments.flags, SC::Sum{}, false, 0)));
        std::vector<int> sums(segments.count(), INT_MIN);
        SC::Segmented::reduce(int(segments.count()), sums.data(), in.data(), segments.offsets.data());
        EXPECT_TRUE(matches(sums, referenceReduce(in, segments.offsets, SC::Sum{}, 0)));
    }
}

TEST_F(Segmented, RejectsBadArguments) {
    DeviceBuffer<int> buffer(64);
    DeviceBuffer<char> temp(SC::segmented_scan_temp_bytes<int>(64));
    const std::size_t bytes = temp.bytes();
    EXPECT_THROW(SC::segmented_inclusive_scan(static_cast<const int *>(nullptr), buffer.get(), buffer.get(), 64,
                                              SC::Sum{}, temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::segmented_inclusive_scan(buffer.get(), static_cast<const int *>(nullptr), buffer.get(), 64,
                                              SC::Sum{}, temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::segmented_exclusive_scan(buffer.get(), buffer.get(), buffer.get() + 1, 63, SC::Sum{}, 0, temp.get(), 8),
                 std::invalid_argument);
    EXPECT_THROW(SC::segmented_inclusive_scan_by_offsets(buffer.get(), 64, static_cast<const int *>(nullptr), 1,
                                                         buffer.get(), SC::Sum{}, temp.get(), bytes),
                 std::invalid_argument);
    EXPECT_THROW(SC::segmented_reduce(buffer.get(), 64, buffer.get(), 4, buffer.get(), SC::Sum{}, 0, nullptr, 0),
                 std::invalid_argument);
    EXPECT_NO_THROW(SC::segmented_inclusive_scan(static_cast<const int *>(nullptr), static_cast<const int *>(nullptr),
                                                 static_cast<int *>(nullptr), 0, SC::Sum{}, nullptr, 0));
    const int bad_offsets[] = {0, 3, 2, 4};
    int out[3];
    const int values[4] = {1, 2, 3, 4};
    EXPECT_THROW(SC::Segmented::reduce(3, out, values, bad_offsets), std::invalid_argument);
    const int not_from_zero[] = {1, 2, 3, 4};
    EXPECT_THROW(SC::Segmented::reduce(3, out, values, not_from_zero), std::invalid_argument);
    const int negative_shape[] = {1, -1};
    EXPECT_THROW(SC::Segmented::makeFlags(2, out, negative_shape), std::invalid_argument);
    EXPECT_THROW(SC::Segmented::scan(-1, out, values, values), std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- sizes that fill the GPU (left out of sanitizer runs); sc_nvbench_segmented times them ----

TEST(GpuLarge, SegmentedScanAndReduce) {
    SKIP_WITHOUT_GPU();
    for (const double meanLength : {8.0, 1000.0}) {
        SCOPED_TRACE("mean segment length " + std::to_string(meanLength));
        const std::size_t n = std::size_t(1) << 26;
        const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
        const Segments segments = randomSegments(n, meanLength, freshSeed());
        ASSERT_TRUE(matches(gpuSegmentedScan(in, segments, Form::Flags, true, SC::Sum{}, 0),
                            referenceScan(in, segments.flags, SC::Sum{}, true, 0)));
        ASSERT_TRUE(matches(gpuSegmentedScan(in, segments, Form::Offsets, false, SC::Sum{}, 0),
                            referenceScan(in, segments.flags, SC::Sum{}, false, 0)));
        ASSERT_TRUE(reduceMatchesOnEveryEngine(in, segments.offsets, SC::Sum{}, 0));
    }
}

namespace {

// Each segmented result of floating-point values, computed `repeats` times: every run gives the
// bits of the first (the fixed-order look-back), where a decoupled look-back's float sums change
// with timing.
template <class T>
void checkRepeatsItsBits(const Segments &segments, int repeats) {
    SCOPED_TRACE(std::string(sizeof(T) == 4 ? "float" : "double") + ", n = " + std::to_string(segments.flags.size()));
    const std::vector<T> in = randomVector<T>(segments.flags.size(), freshSeed());
    const auto results = [&] {
        return std::vector<std::vector<T>>{
            gpuSegmentedReduce(in, segments.offsets, SC::Sum{}, T(0), SC::SegmentedReduceAlgorithm::MergePath),
            gpuSegmentedReduce(in, segments.offsets, SC::Sum{}, T(0), SC::SegmentedReduceAlgorithm::ItemTiles),
            gpuSegmentedScan(in, segments, Form::Flags, false, SC::Sum{}, T(0)),
            gpuSegmentedScan(in, segments, Form::Offsets, true, SC::Sum{}, T(0))};
    };
    const char *names[] = {"reduce on merge path", "reduce on item tiles", "inclusive scan by flags",
                           "exclusive scan by offsets"};
    const std::vector<std::vector<T>> first = results();
    for (int run = 1; run < repeats; ++run) {
        const std::vector<std::vector<T>> again = results();
        for (std::size_t r = 0; r < first.size(); ++r)
            ASSERT_EQ(std::memcmp(first[r].data(), again[r].data(), first[r].size() * sizeof(T)), 0)
                << names[r] << ": run " << run << " differs from run 0";
    }
}

// Short segments (1 to 8 items) around segments longer than a span of the fixed-order look-back
// (1024 tiles), three times over: tiles after a head wait back to it alone, the tiles of a long
// segment back across groups and spans.
Segments shortAroundSpanningSegments(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<int> lengths;
    for (int part = 0; part < 3; ++part) {
        for (std::size_t total = 0; total < (std::size_t(1) << 22);) {
            lengths.push_back(1 + static_cast<int>(rng() % 8));
            total += lengths.back();
        }
        lengths.push_back((1 << 23) + 12345);
    }
    return fromLengths(lengths);
}

}  // namespace

TEST(GpuLarge, FloatSegmentedScansAndReductionsRepeatTheirBits) {
    SKIP_WITHOUT_GPU();
    for (const double meanLength : {4.0, 5000.0}) {
        SCOPED_TRACE("mean segment length " + std::to_string(meanLength));
        checkRepeatsItsBits<float>(randomSegments((std::size_t(1) << 24) + 777, meanLength, freshSeed()), 10);
        checkRepeatsItsBits<double>(randomSegments(std::size_t(1) << 24, meanLength, freshSeed()), 5);
    }
    SCOPED_TRACE("short segments around spanning ones");
    checkRepeatsItsBits<float>(shortAroundSpanningSegments(freshSeed()), 5);
}

TEST(GpuLarge, FloatSegmentsSpanningTheLookBacksSpansMatchTheCpu) {
    SKIP_WITHOUT_GPU();
    const Segments segments = shortAroundSpanningSegments(freshSeed());
    const std::vector<float> in = randomVector<float>(segments.flags.size(), freshSeed());
    checkScans(in, segments, SC::Sum{}, 0.0f);
    EXPECT_TRUE(reduceMatchesOnEveryEngine(in, segments.offsets, SC::Sum{}, 0.0f));
    const std::vector<double> wide = randomVector<double>(segments.flags.size(), freshSeed());
    checkScans(wide, segments, SC::Sum{}, 0.0);
}
