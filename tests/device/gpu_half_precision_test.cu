// __half and __nv_bfloat16 sums in the scans, reductions and segmented reductions (issue #43, part 5):
// they accumulate in float and round each result once (support/half_precision.cuh). This file is
// compiled with PyTorch's flags (-D__CUDA_NO_HALF_OPERATORS__, -D__CUDA_NO_HALF_CONVERSIONS__,
// -D__CUDA_NO_BFLOAT16_CONVERSIONS__, ...: tests/CMakeLists.txt), so the library must compile
// without the 16-bit types' operators and implicit conversions.
//
// Two kinds of input. Exact: multiples of 1/64 whose every partial sum a float holds exactly, so
// that a sum in float, in any order, rounded once, has the bits of the exact sum rounded once (the
// CPU's): results are compared bit for bit, and a sum accumulated in the 16-bit type fails them
// (a running sum of 1/64s in half stops growing at 32, where its spacing is 1/32; bfloat16's at 4).
// Random: values in [-1, 1] rounded to the type, against the exact sum in double, within one
// spacing of the type at the result plus 2^-16 of the sum of magnitudes before it (float's
// rounding, 2^-24 an addition, over a chain of at most 256 additions: a thread's items, the
// block's scan and the look-back's tiles at these sizes).
#include <gtest/gtest.h>

#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/half_precision.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <cuda/std/functional>
#include <thrust/iterator/transform_output_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

template <class T>
class GpuHalfPrecision : public GpuTest {};
using HalfTypes = ::testing::Types<__half, __nv_bfloat16>;
TYPED_TEST_SUITE(GpuHalfPrecision, HalfTypes);

template <class T>
std::uint16_t bitsOf(T x) {
    std::uint16_t bits;
    std::memcpy(&bits, &x, 2);
    return bits;
}
template <class T>
std::vector<std::uint16_t> bitsOf(const std::vector<T> &values) {
    std::vector<std::uint16_t> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) bits[i] = bitsOf(values[i]);
    return bits;
}
template <class T>
T fromDouble(double x) {
    return SC::detail::from_float<T>(static_cast<float>(x));
}
template <class T>
double toDouble(T x) {
    return SC::detail::to_float(x);
}

// Multiples of 1/64: in the "positive" form 0, 1/64 and 2/64, whose sums grow to n / 64 (16384 at
// 2^20 items: past 16-bit precision, within half's range); otherwise -2/64 ... 2/64, mean 0.
template <class T>
std::vector<T> exactInput(std::size_t n, bool positive) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = fromDouble<T>((positive ? static_cast<double>(i * 7 % 3) : static_cast<double>(i * 7 % 5) - 2.0) / 64.0);
    return v;
}
template <class T>
std::vector<T> randomInput(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<T> v(n);
    for (T &x : v) x = SC::detail::from_float<T>(value(rng));
    return v;
}

const std::vector<std::size_t> &sizes() {
    static const std::vector<std::size_t> values = {0, 1, 2, 1000, 4099, (std::size_t{1} << 20) + 3};
    return values;
}

// The scan of `in` in double (inclusive, or exclusive from init), each result rounded once; and
// the sums of magnitudes up to each result, for the tolerance.
template <class T>
struct ScanReference {
    std::vector<T> rounded;
    std::vector<double> exact, magnitude;
};
template <class T>
ScanReference<T> scanOf(const std::vector<T> &in, bool exclusive, T init) {
    ScanReference<T> ref;
    double sum = exclusive ? toDouble(init) : 0.0, magnitude = exclusive ? std::fabs(toDouble(init)) : 0.0;
    for (const T x : in) {
        if (!exclusive) sum += toDouble(x), magnitude += std::fabs(toDouble(x));
        ref.exact.push_back(sum);
        ref.magnitude.push_back(magnitude);
        ref.rounded.push_back(fromDouble<T>(sum));
        if (exclusive) sum += toDouble(x), magnitude += std::fabs(toDouble(x));
    }
    return ref;
}

// Within one spacing of T at the expected value, plus 2^-16 of the magnitudes summed (above).
template <class T>
::testing::AssertionResult closeEnough(const std::vector<T> &got, const ScanReference<T> &ref,
                                       const std::string &what) {
    constexpr int kMantissaBits = std::is_same_v<T, __half> ? 10 : 7;
    if (got.size() != ref.exact.size()) return ::testing::AssertionFailure() << what << ": size " << got.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double scale = std::ldexp(1.0, std::ilogb(std::fabs(ref.exact[i]) + 1e-30) - kMantissaBits);
        const double tolerance = scale + std::ldexp(ref.magnitude[i], -16);
        if (!(std::fabs(toDouble(got[i]) - ref.exact[i]) <= tolerance))
            return ::testing::AssertionFailure() << what << ": element " << i << " is " << toDouble(got[i])
                                                 << ", exactly " << ref.exact[i] << " (tolerance " << tolerance << ")";
    }
    return ::testing::AssertionSuccess();
}

// A maximum written without the 16-bit types' operators: an operator that is not a sum acts on the
// values as they are.
struct MaxByFloat {
    template <class T>
    __host__ __device__ T operator()(T a, T b) const {
        return SC::detail::to_float(a) < SC::detail::to_float(b) ? b : a;
    }
};

}  // namespace

// Exact inputs: both scans, bit for bit; Sum and cuda::std::plus<> alike; at the tuned and a
// generic block size; arrays aligned and shifted by one item (the item-at-a-time loads).
TYPED_TEST(GpuHalfPrecision, ScansOfExactInputsMatchTheRoundedExactSums) {
    using T = TypeParam;
    SC::Tuning generic;
    generic.single_pass = 128;
    for (const SC::Tuning &tuning : {SC::Tuning{}, generic})
        for (const std::size_t n : sizes())
            for (const std::size_t shift : {0, 1}) {
                SCOPED_TRACE("n = " + std::to_string(n) + ", shift " + std::to_string(shift) + ", single_pass " +
                             std::to_string(SC::single_pass_threads(tuning)));
                const SC::CallEnvironment env = testEnv(nullptr, tuning);
                const std::vector<T> in = exactInput<T>(n, true);
                const T init = fromDouble<T>(0.5);
                SC::DeviceBuffer<T> d_in(n + 1), d_out(n + 1);
                if (n > 0) SC_CUDA_CHECK(cudaMemcpy(d_in.get() + shift, in.data(), n * 2, cudaMemcpyHostToDevice));
                SC::DeviceBuffer<char> d_temp(SC::scan_temp_bytes<T>(n, env));

                d_out.fill_bytes(kPoisonByte);
                SC::inclusive_scan(d_in.get() + shift, d_out.get() + shift, n, SC::Sum{}, d_temp.get(), d_temp.bytes(),
                                   env);
                ASSERT_TRUE(sameElements(bitsOf(download(d_out.get() + shift, n)),
                                         bitsOf(scanOf(in, false, init).rounded), "inclusive"));

                d_out.fill_bytes(kPoisonByte);
                SC::exclusive_scan(d_in.get() + shift, d_out.get() + shift, n, cuda::std::plus<>{}, init, d_temp.get(),
                                   d_temp.bytes(), env);
                ASSERT_TRUE(sameElements(bitsOf(download(d_out.get() + shift, n)),
                                         bitsOf(scanOf(in, true, init).rounded), "exclusive, cuda::std::plus<>"));

                // In place, and through the allocating overload.
                SC::exclusive_scan(d_in.get() + shift, d_in.get() + shift, n, SC::Sum{}, init, env);
                ASSERT_TRUE(sameElements(bitsOf(download(d_in.get() + shift, n)),
                                         bitsOf(scanOf(in, true, init).rounded), "exclusive in place"));
            }
}

// Random inputs, within the stated tolerance of the exact sums.
TYPED_TEST(GpuHalfPrecision, ScansOfRandomInputsStayWithinTheirTolerance) {
    using T = TypeParam;
    for (const std::size_t n : sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<T> in = randomInput<T>(n, 17u + static_cast<std::uint32_t>(n));
        const auto d_in = SC::DeviceBuffer<T>::from_host(in.data(), n);
        SC::DeviceBuffer<T> d_out(std::max<std::size_t>(n, 1));
        SC::DeviceBuffer<char> d_temp(SC::scan_temp_bytes<T>(n));
        d_out.fill_bytes(kPoisonByte);
        SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, d_temp.get(), d_temp.bytes());
        ASSERT_TRUE(closeEnough(download(d_out.get(), n), scanOf(in, false, T{}), "inclusive"));
    }
}

// Another operator on the 16-bit values as given: a running maximum, exactly.
TYPED_TEST(GpuHalfPrecision, OtherOperatorsActOnTheValuesAsGiven) {
    using T = TypeParam;
    for (const std::size_t n : sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<T> in = randomInput<T>(n, 5u);
        std::vector<T> expected(n);
        for (std::size_t i = 0; i < n; ++i) expected[i] = i == 0 ? in[0] : MaxByFloat{}(expected[i - 1], in[i]);
        const auto d_in = SC::DeviceBuffer<T>::from_host(in.data(), n);
        SC::DeviceBuffer<T> d_out(std::max<std::size_t>(n, 1));
        d_out.fill_bytes(kPoisonByte);
        SC::inclusive_scan(d_in.get(), d_out.get(), n, MaxByFloat{});
        ASSERT_TRUE(sameElements(bitsOf(download(d_out.get(), n)), bitsOf(expected), "running maximum"));
    }
}

// reduce: exact inputs bit for bit, random ones within the tolerance; n = 0 gives the identity;
// the strategies that cannot accumulate in float refuse, with nothing written.
TYPED_TEST(GpuHalfPrecision, ReductionsSumInFloat) {
    using T = TypeParam;
    for (const std::size_t n : sizes())
        for (const bool exact : {true, false}) {
            SCOPED_TRACE("n = " + std::to_string(n) + (exact ? ", exact" : ", random"));
            const std::vector<T> in = exact ? exactInput<T>(n, true) : randomInput<T>(n, 3u);
            const T identity = fromDouble<T>(exact ? 0.25 : 0.0);
            const ScanReference<T> ref = scanOf(in, true, identity);  // the exclusive prefix of n = the total
            const double total = n == 0 ? toDouble(identity) : ref.exact.back() + toDouble(in.back());
            const double magnitude = n == 0 ? 0.0 : ref.magnitude.back() + std::fabs(toDouble(in.back()));
            const auto d_in = SC::DeviceBuffer<T>::from_host(in.data(), n);
            SC::DeviceBuffer<T> d_sum(1);
            SC::DeviceBuffer<char> d_temp(SC::reduce_temp_bytes<T>(n));
            d_sum.fill_bytes(kPoisonByte);
            SC::reduce(d_in.get(), d_sum.get(), n, cuda::std::plus<>{}, identity, d_temp.get(), d_temp.bytes());
            const T got = download(d_sum.get(), 1)[0];
            if (exact) {
                ASSERT_EQ(bitsOf(got), bitsOf(fromDouble<T>(total)));
            } else {
                ScanReference<T> one;
                one.exact = {total};
                one.magnitude = {magnitude};
                ASSERT_TRUE(closeEnough(std::vector<T>{got}, one, "random sum"));
            }
            d_sum.fill_bytes(kPoisonByte);
            EXPECT_THROW(SC::reduce(SC::ReduceStrategy::Tree, d_in.get(), d_sum.get(), n, SC::Sum{}, identity,
                                    d_temp.get(), d_temp.bytes()),
                         std::invalid_argument);
            EXPECT_TRUE(stillPoisoned(d_sum.get(), 1));
        }
}

namespace {
// A 16-bit value's bits, on the device (a transform output iterator's function).
template <class T>
struct BitsOnDevice {
    __device__ std::uint16_t operator()(T x) const {
        std::uint16_t bits;
        memcpy(&bits, &x, sizeof bits);
        return bits;
    }
};
}  // namespace

// segmented_reduce into 16-bit outputs: segments of every length from 0 (the identity) up, exact
// sums bit for bit; from a 16-bit array and from a float array, and through an output iterator.
TYPED_TEST(GpuHalfPrecision, SegmentedSumsInFloat) {
    using T = TypeParam;
    for (const std::size_t n : sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<T> in = exactInput<T>(n, true);
        std::vector<int> offsets = {0};
        for (std::size_t length = 0; offsets.back() < static_cast<int>(n); length = (length * 3 + 1) % 5000)
            offsets.push_back(std::min<int>(offsets.back() + static_cast<int>(length), static_cast<int>(n)));
        offsets.push_back(static_cast<int>(n));  // an empty last segment
        const std::size_t segments = offsets.size() - 1;
        const T identity = fromDouble<T>(0.0);  // a true identity: the engine may combine it more than once
        std::vector<T> expected(segments);
        std::vector<float> as_float(n);
        for (std::size_t i = 0; i < n; ++i) as_float[i] = SC::detail::to_float(in[i]);
        for (std::size_t s = 0; s < segments; ++s) {
            double sum = toDouble(identity);
            for (int i = offsets[s]; i < offsets[s + 1]; ++i) sum += toDouble(in[i]);
            expected[s] = fromDouble<T>(sum);
        }
        const auto d_in = SC::DeviceBuffer<T>::from_host(in.data(), n);
        const auto d_floats = SC::DeviceBuffer<float>::from_host(as_float.data(), n);
        const auto d_offsets = SC::DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
        SC::DeviceBuffer<T> d_out(segments);
        SC::DeviceBuffer<char> d_temp(SC::segmented_reduce_temp_bytes<T>(n, segments));

        d_out.fill_bytes(kPoisonByte);
        SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_out.get(), SC::Sum{}, identity, d_temp.get(),
                             d_temp.bytes());
        ASSERT_TRUE(sameElements(bitsOf(download(d_out.get(), segments)), bitsOf(expected), "from 16-bit values"));

        d_out.fill_bytes(kPoisonByte);
        SC::segmented_reduce(d_floats.get(), n, d_offsets.get(), segments, d_out.get(), SC::Sum{}, identity,
                             d_temp.get(), d_temp.bytes());
        ASSERT_TRUE(sameElements(bitsOf(download(d_out.get(), segments)), bitsOf(expected), "from floats"));

        // Through an output iterator that takes each rounded T (its bits, into an array of them).
        SC::DeviceBuffer<std::uint16_t> d_bits(segments);
        d_bits.fill_bytes(kPoisonByte);
        SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments,
                             thrust::make_transform_output_iterator(d_bits.get(), BitsOnDevice<T>{}), SC::Sum{},
                             identity, d_temp.get(), d_temp.bytes());
        ASSERT_TRUE(sameElements(download(d_bits.get(), segments), bitsOf(expected), "through an output iterator"));
    }
}

// The three calls captured once in a CUDA graph, storage at an odd address, replayed on new inputs.
TYPED_TEST(GpuHalfPrecision, EveryCallReplaysInAGraphOnNewInputs) {
    using T = TypeParam;
    const std::size_t n = (std::size_t{1} << 20) + 3;
    const std::vector<int> offsets = {0, 7, 7, 100000, static_cast<int>(n)};
    const std::size_t segments = offsets.size() - 1;
    const Stream stream;
    SC::DeviceBuffer<T> d_in(n), d_scan(n), d_sum(1), d_segments(segments);
    const auto d_offsets = SC::DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
    const std::size_t scan_bytes = SC::scan_temp_bytes<T>(n), reduce_bytes = SC::reduce_temp_bytes<T>(n);
    const std::size_t segmented_bytes = SC::segmented_reduce_temp_bytes<T>(n, segments);
    SC::DeviceBuffer<char> d_temp(scan_bytes + reduce_bytes + segmented_bytes + 3);
    char *const temp = d_temp.get() + 3;
    const T zero = fromDouble<T>(0.0);
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        SC::exclusive_scan(d_in.get(), d_scan.get(), n, SC::Sum{}, zero, temp, scan_bytes, s);
        SC::reduce(d_in.get(), d_sum.get(), n, SC::Sum{}, zero, temp + scan_bytes, reduce_bytes, s);
        SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_segments.get(), SC::Sum{}, zero,
                             temp + scan_bytes + reduce_bytes, segmented_bytes, s);
    });
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        std::vector<T> in = exactInput<T>(n, replay != 1);
        std::rotate(in.begin(), in.begin() + replay * 1000, in.end());
        SC_CUDA_CHECK(cudaMemcpy(d_in.get(), in.data(), n * 2, cudaMemcpyHostToDevice));
        for (SC::DeviceBuffer<T> *out : {&d_scan, &d_sum, &d_segments}) out->fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        const ScanReference<T> ref = scanOf(in, true, zero);
        std::vector<T> segment_sums(segments);
        for (std::size_t s = 0; s < segments; ++s) {
            double sum = 0.0;
            for (int i = offsets[s]; i < offsets[s + 1]; ++i) sum += toDouble(in[i]);
            segment_sums[s] = fromDouble<T>(sum);
        }
        ASSERT_TRUE(sameElements(bitsOf(download(d_scan.get(), n)), bitsOf(ref.rounded), "exclusive_scan"));
        ASSERT_EQ(bitsOf(download(d_sum.get(), 1)[0]), bitsOf(fromDouble<T>(ref.exact.back() + toDouble(in.back()))));
        ASSERT_TRUE(sameElements(bitsOf(download(d_segments.get(), segments)), bitsOf(segment_sums), "segments"));
    }
}
