// reduce_by_key, unique_by_key and run_length_encode on inputs and outputs beyond raw pointers
// (issue #43, part 2): Thrust's counting, constant and transform iterators as keys and values (the
// items computed, never stored), thrust::device_ptr (unwrapped to the pointer path), discard and
// transform output iterators and pointers to a wider type as outputs (the portable kernel, an item
// at a time, where the keys are not pointers to their own type). Every result against the CPU,
// outputs poisoned first and nothing past the last run written; at the tuned block size and at 128
// (the kernel compiled for any block size); and graph replay on new inputs, with temporary storage
// at an odd address.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuByKeyIterators : public GpuTest {};

// Keys in groups of 3 equal ones, a group's key one of 5, so that neighbouring groups often share
// it: runs of 3, 6, 9, ... items.
struct GroupKey {
    __host__ __device__ int operator()(int i) const { return static_cast<int>((i / 3) * 2654435761u % 5u); }
};
// A scattered sample of i: no order, repeats, negatives.
struct Scatter {
    __host__ __device__ int operator()(int i) const { return static_cast<int>((i * 2654435761u) % 1999u) - 999; }
};
// Runs of 7 equal items, from values in memory (the graph test's keys).
struct SeventhOf {
    __host__ __device__ int operator()(int x) const { return x / 7; }
};
struct TimesTen {
    __host__ __device__ long long operator()(long long x) const { return 10 * x; }
};

// An odd size and one past 2^20 (several tiles at either block size and either kernel).
const std::vector<std::size_t> &sizes() {
    static const std::vector<std::size_t> values = {0, 1, 1001, (std::size_t{1} << 20) + 3};
    return values;
}

// The two block sizes every case runs at: the tuned kernels' and the generic kernels'.
std::vector<SC::Tuning> tunings() { return tunedAndGeneric(&SC::Tuning::single_pass); }

template <class F>
std::vector<int> computed(std::size_t n, F f) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = f(static_cast<int>(i));
    return v;
}

std::vector<int> iota(std::size_t n) {
    return computed(n, [](int i) { return i; });
}

// The runs of `keys` (equal under ==), computed on the CPU: each run's first key, its first index,
// its length, and its values summed (as long long: no overflow in the reference).
struct Runs {
    std::vector<int> keys;
    std::vector<std::size_t> firsts, lengths;
    std::vector<long long> sums;
};

Runs runsOf(const std::vector<int> &keys, const std::vector<int> &values) {
    Runs runs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            runs.keys.push_back(keys[i]);
            runs.firsts.push_back(i);
            runs.lengths.push_back(0);
            runs.sums.push_back(0);
        }
        ++runs.lengths.back();
        runs.sums.back() += values[i];
    }
    return runs;
}

template <class To, class From>
std::vector<To> convert(const std::vector<From> &from) {
    return std::vector<To>(from.begin(), from.end());
}

std::vector<long long> timesTen(const std::vector<long long> &from) {
    std::vector<long long> out(from.size());
    std::transform(from.begin(), from.end(), out.begin(), TimesTen{});
    return out;
}

// The values at each run's first index.
std::vector<int> firstValues(const Runs &runs, const std::vector<int> &values) {
    std::vector<int> out;
    for (const std::size_t first : runs.firsts) out.push_back(values[first]);
    return out;
}

std::size_t readCount(const SC::DeviceBuffer<std::size_t> &d_count) { return download(d_count.get(), 1)[0]; }

// Outputs hold n + 1 items: one past the most runs there can be, which must stay poisoned.
template <class T>
::testing::AssertionResult untouchedPast(const SC::DeviceBuffer<T> &d_out, std::size_t runs, const char *what) {
    if (stillPoisoned(d_out.get() + runs, (d_out.size() - runs) * sizeof(T))) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": written past its " << runs << " runs";
}

template <class T>
void poisonAll(std::initializer_list<SC::DeviceBuffer<T> *> buffers) {
    for (SC::DeviceBuffer<T> *buffer : buffers) buffer->fill_bytes(kPoisonByte);
}

std::string traceOf(std::size_t n, const SC::Tuning &tuning) {
    return "n = " + std::to_string(n) + ", single_pass " + std::to_string(SC::single_pass_threads(tuning));
}

// The pointer path's condition on what the device API hands the dispatch (read_only_input for the
// inputs, unwrap_input for the outputs): device_ptrs, of const items or not, are pointers to K.
template <class KeysIn, class ValuesIn, class KeysOut, class ValuesOut>
constexpr bool takesPointerPath() {
    using K = SC::detail::input_value_t<KeysIn>;
    using V = SC::detail::input_value_t<ValuesIn>;
    using Keys = decltype(SC::detail::read_only_input(std::declval<KeysIn>()));
    using Values = SC::detail::ValueArray<V, decltype(SC::detail::read_only_input(std::declval<ValuesIn>()))>;
    return SC::detail::by_key_pointers<K, Values, Keys, SC::detail::unwrapped_input_t<KeysOut>,
                                       SC::detail::unwrapped_input_t<ValuesOut>>();
}
static_assert(takesPointerPath<thrust::device_ptr<int>, thrust::device_ptr<const int>, thrust::device_ptr<int>,
                               thrust::device_ptr<int>>(),
              "device_ptrs take the pointer path");
static_assert(takesPointerPath<int *, const int *, int *, long long *>(),
              "values into a pointer to another type keep the pointer path");
static_assert(!takesPointerPath<thrust::counting_iterator<int>, const int *, int *, int *>(),
              "computed keys take the portable kernel");
static_assert(!takesPointerPath<const int *, thrust::counting_iterator<int>, int *, int *>(),
              "computed values take the portable kernel");
static_assert(!takesPointerPath<const int *, const int *, long long *, int *>(),
              "keys into a pointer to another type take the portable kernel");
static_assert(!takesPointerPath<const int *, const int *, thrust::discard_iterator<>, int *>(),
              "a discard output takes the portable kernel");

}  // namespace

// Computed keys with counting, constant and computed values: into pointers, then the keys
// discarded and the sums into a device_ptr, then the keys through a transform output iterator and
// the sums into a pointer to a wider type.
TEST_F(GpuByKeyIterators, ReduceByKeyOfComputedKeysAndValues) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const thrust::counting_iterator<int> indices(0);
            const auto keys = thrust::make_transform_iterator(indices, GroupKey{});
            const auto scattered = thrust::make_transform_iterator(indices, Scatter{});
            const std::vector<int> host_keys = computed(n, GroupKey{});
            SC::DeviceBuffer<int> d_keys_out(n + 1), d_sums(n + 1);
            SC::DeviceBuffer<long long> d_wide_keys(n + 1), d_wide_sums(n + 1);
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::reduce_by_key_temp_bytes<int, int>(n, env));

            const Runs by_index = runsOf(host_keys, iota(n));
            poisonAll({&d_keys_out, &d_sums});
            d_count.fill_bytes(kPoisonByte);
            SC::reduce_by_key(keys, indices, d_keys_out.get(), d_sums.get(), d_count.get(), n, SC::Sum{}, SC::EqualTo{},
                              d_temp.get(), d_temp.bytes(), env);
            const std::size_t runs = by_index.keys.size();
            ASSERT_EQ(readCount(d_count), runs) << "counting values";
            ASSERT_TRUE(sameElements(download(d_keys_out.get(), runs), by_index.keys, "keys"));
            ASSERT_TRUE(sameElements(download(d_sums.get(), runs), convert<int>(by_index.sums), "sums of indices"));
            ASSERT_TRUE(untouchedPast(d_keys_out, runs, "keys"));
            ASSERT_TRUE(untouchedPast(d_sums, runs, "sums"));

            // Ones from a constant iterator: the sums are the run lengths.
            d_sums.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::reduce_by_key(keys, thrust::make_constant_iterator(1), d_keys_out.get(), d_sums.get(), d_count.get(), n,
                              SC::Sum{}, SC::EqualTo{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "constant values";
            ASSERT_TRUE(sameElements(download(d_sums.get(), runs), convert<int>(by_index.lengths), "sums of ones"));

            const Runs by_scatter = runsOf(host_keys, computed(n, Scatter{}));
            d_sums.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::reduce_by_key(keys, scattered, thrust::make_discard_iterator(), thrust::device_ptr<int>(d_sums.get()),
                              d_count.get(), n, SC::Sum{}, SC::EqualTo{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "keys discarded";
            ASSERT_TRUE(
                sameElements(download(d_sums.get(), runs), convert<int>(by_scatter.sums), "sums, keys discarded"));
            ASSERT_TRUE(untouchedPast(d_sums, runs, "sums into a device_ptr"));

            poisonAll({&d_wide_keys, &d_wide_sums});
            d_count.fill_bytes(kPoisonByte);
            SC::reduce_by_key(keys, scattered, thrust::make_transform_output_iterator(d_wide_keys.get(), TimesTen{}),
                              d_wide_sums.get(), d_count.get(), n, SC::Sum{}, SC::EqualTo{}, d_temp.get(),
                              d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "transform output";
            ASSERT_TRUE(sameElements(download(d_wide_keys.get(), runs), timesTen(convert<long long>(by_scatter.keys)),
                                     "keys through a transform output iterator"));
            ASSERT_TRUE(sameElements(download(d_wide_sums.get(), runs), by_scatter.sums, "sums into long longs"));
            ASSERT_TRUE(untouchedPast(d_wide_keys, runs, "keys through a transform output iterator"));
            ASSERT_TRUE(untouchedPast(d_wide_sums, runs, "sums into long longs"));
        }
}

// Keys and values in device memory handed over as device_ptrs (the pointer path: the static_asserts
// above), against the same call on raw pointers' results.
TEST_F(GpuByKeyIterators, DevicePtrsTakeThePointerPath) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> keys = computed(n, GroupKey{}), values = computed(n, Scatter{});
            const Runs expected = runsOf(keys, values);
            const std::size_t runs = expected.keys.size();
            const auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
            const auto d_values = SC::DeviceBuffer<int>::from_host(values.data(), n);
            SC::DeviceBuffer<int> d_keys_out(n + 1), d_values_out(n + 1);
            SC::DeviceBuffer<std::size_t> d_lengths(n + 1), d_count(1);
            const std::size_t bytes = std::max({SC::reduce_by_key_temp_bytes<int, int>(n, env),
                                                SC::unique_by_key_temp_bytes<int, int>(n, env),
                                                SC::run_length_encode_temp_bytes<int>(n, env)});
            SC::DeviceBuffer<char> d_temp(bytes);
            const thrust::device_ptr<const int> keys_in(d_keys.get()), values_in(d_values.get());
            const thrust::device_ptr<int> keys_out(d_keys_out.get()), values_out(d_values_out.get());

            poisonAll({&d_keys_out, &d_values_out});
            d_count.fill_bytes(kPoisonByte);
            SC::reduce_by_key(keys_in, values_in, keys_out, values_out, d_count.get(), n, SC::Sum{}, SC::EqualTo{},
                              d_temp.get(), bytes, env);
            ASSERT_EQ(readCount(d_count), runs) << "reduce_by_key";
            ASSERT_TRUE(sameElements(download(d_keys_out.get(), runs), expected.keys, "reduce_by_key keys"));
            ASSERT_TRUE(sameElements(download(d_values_out.get(), runs), convert<int>(expected.sums), "sums"));
            ASSERT_TRUE(untouchedPast(d_values_out, runs, "sums"));

            poisonAll({&d_keys_out, &d_values_out});
            d_count.fill_bytes(kPoisonByte);
            SC::unique_by_key(keys_in, values_in, keys_out, values_out, d_count.get(), n, SC::EqualTo{}, d_temp.get(),
                              bytes, env);
            ASSERT_EQ(readCount(d_count), runs) << "unique_by_key";
            ASSERT_TRUE(sameElements(download(d_keys_out.get(), runs), expected.keys, "unique_by_key keys"));
            ASSERT_TRUE(sameElements(download(d_values_out.get(), runs), firstValues(expected, values), "firsts"));
            ASSERT_TRUE(untouchedPast(d_values_out, runs, "first values"));

            d_keys_out.fill_bytes(kPoisonByte);
            d_lengths.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::run_length_encode(keys_in, keys_out, thrust::device_ptr<std::size_t>(d_lengths.get()), d_count.get(),
                                  n, d_temp.get(), bytes, env);
            ASSERT_EQ(readCount(d_count), runs) << "run_length_encode";
            ASSERT_TRUE(sameElements(download(d_keys_out.get(), runs), expected.keys, "run_length_encode items"));
            ASSERT_TRUE(sameElements(download(d_lengths.get(), runs), expected.lengths, "lengths"));
            ASSERT_TRUE(untouchedPast(d_lengths, runs, "lengths"));
        }
}

// Keys in memory but into a pointer to a wider type (the portable kernel), values computed.
TEST_F(GpuByKeyIterators, UniqueByKeyOfComputedValuesIntoOtherOutputs) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> keys = computed(n, GroupKey{}), values = computed(n, Scatter{});
            const Runs expected = runsOf(keys, values);
            const std::size_t runs = expected.keys.size();
            const auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
            const auto computed_values = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), Scatter{});
            SC::DeviceBuffer<long long> d_wide_keys(n + 1), d_wide_values(n + 1);
            SC::DeviceBuffer<int> d_values_out(n + 1);
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::unique_by_key_temp_bytes<int, int>(n, env));

            poisonAll({&d_wide_keys, &d_wide_values});
            d_count.fill_bytes(kPoisonByte);
            SC::unique_by_key(d_keys.get(), computed_values, d_wide_keys.get(),
                              thrust::make_transform_output_iterator(d_wide_values.get(), TimesTen{}), d_count.get(),
                              n, SC::EqualTo{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs);
            ASSERT_TRUE(sameElements(download(d_wide_keys.get(), runs), convert<long long>(expected.keys),
                                     "keys into long longs"));
            ASSERT_TRUE(sameElements(download(d_wide_values.get(), runs),
                                     timesTen(convert<long long>(firstValues(expected, values))),
                                     "first values through a transform output iterator"));
            ASSERT_TRUE(untouchedPast(d_wide_keys, runs, "keys into long longs"));
            ASSERT_TRUE(untouchedPast(d_wide_values, runs, "first values through a transform output iterator"));

            // Computed keys too, the keys discarded.
            d_values_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::unique_by_key(thrust::make_transform_iterator(thrust::counting_iterator<int>(0), GroupKey{}),
                              computed_values, thrust::make_discard_iterator(), d_values_out.get(), d_count.get(), n,
                              SC::EqualTo{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "keys discarded";
            ASSERT_TRUE(sameElements(download(d_values_out.get(), runs), firstValues(expected, values),
                                     "first values, keys discarded"));
            ASSERT_TRUE(untouchedPast(d_values_out, runs, "first values, keys discarded"));
        }
}

// Computed items: into pointers (the lengths as ints), the lengths discarded, the lengths through a
// transform output iterator and the items into a pointer to a wider type.
TEST_F(GpuByKeyIterators, RunLengthEncodeOfComputedItems) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const auto items = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), GroupKey{});
            const Runs expected = runsOf(computed(n, GroupKey{}), iota(n));
            const std::size_t runs = expected.keys.size();
            SC::DeviceBuffer<int> d_unique(n + 1), d_lengths(n + 1);
            SC::DeviceBuffer<long long> d_wide_unique(n + 1), d_wide_lengths(n + 1);
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::run_length_encode_temp_bytes<int>(n, env));

            poisonAll({&d_unique, &d_lengths});
            d_count.fill_bytes(kPoisonByte);
            SC::run_length_encode(items, d_unique.get(), d_lengths.get(), d_count.get(), n, d_temp.get(),
                                  d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "into pointers";
            ASSERT_TRUE(sameElements(download(d_unique.get(), runs), expected.keys, "items"));
            ASSERT_TRUE(sameElements(download(d_lengths.get(), runs), convert<int>(expected.lengths), "lengths"));
            ASSERT_TRUE(untouchedPast(d_unique, runs, "items"));
            ASSERT_TRUE(untouchedPast(d_lengths, runs, "lengths"));

            d_unique.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::run_length_encode(items, d_unique.get(), thrust::make_discard_iterator(), d_count.get(), n,
                                  d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "lengths discarded";
            ASSERT_TRUE(sameElements(download(d_unique.get(), runs), expected.keys, "items, lengths discarded"));
            ASSERT_TRUE(untouchedPast(d_unique, runs, "items, lengths discarded"));

            poisonAll({&d_wide_unique, &d_wide_lengths});
            d_count.fill_bytes(kPoisonByte);
            SC::run_length_encode(items, d_wide_unique.get(),
                                  thrust::make_transform_output_iterator(d_wide_lengths.get(), TimesTen{}),
                                  d_count.get(), n, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), runs) << "transform output";
            ASSERT_TRUE(sameElements(download(d_wide_unique.get(), runs), convert<long long>(expected.keys),
                                     "items into long longs"));
            ASSERT_TRUE(sameElements(download(d_wide_lengths.get(), runs),
                                     timesTen(convert<long long>(expected.lengths)),
                                     "lengths through a transform output iterator"));
            ASSERT_TRUE(untouchedPast(d_wide_unique, runs, "items into long longs"));
            ASSERT_TRUE(untouchedPast(d_wide_lengths, runs, "lengths through a transform output iterator"));
        }
}

// Every call of the family on a transform iterator over device memory (the portable kernel), with
// temporary storage at an odd address, captured once in a CUDA graph and replayed on new inputs
// written into that memory between replays: each replay's outputs and counts are the new input's.
TEST_F(GpuByKeyIterators, EveryCallReplaysInAGraphOnNewInputsWithStorageAtAnOddAddress) {
    const std::size_t n = (std::size_t{1} << 20) + 3;
    const Stream stream;
    const SC::CallEnvironment env = testEnv(stream.get());
    SC::DeviceBuffer<int> d_source(n);
    const auto keys = thrust::make_transform_iterator(d_source.get(), SeventhOf{});     // source[i] / 7
    const auto values = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), Scatter{});
    SC::DeviceBuffer<int> d_rbk_keys(n + 1), d_sums(n + 1), d_ubk_keys(n + 1), d_firsts(n + 1), d_rle_items(n + 1),
        d_lengths(n + 1);
    SC::DeviceBuffer<std::size_t> d_counts(3);
    const std::size_t bytes = std::max({SC::reduce_by_key_temp_bytes<int, int>(n, env),
                                        SC::unique_by_key_temp_bytes<int, int>(n, env),
                                        SC::run_length_encode_temp_bytes<int>(n, env)});
    SC::DeviceBuffer<char> d_temp(3 * bytes + 3);
    char *const temp = d_temp.get() + 3;  // each call's storage at an odd address, none shared
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        const SC::CallEnvironment captured = testEnv(s);
        SC::reduce_by_key(keys, values, d_rbk_keys.get(), d_sums.get(), d_counts.get(), n, SC::Sum{}, SC::EqualTo{},
                          temp, bytes, captured);
        SC::unique_by_key(keys, values, d_ubk_keys.get(), d_firsts.get(), d_counts.get() + 1, n, SC::EqualTo{},
                          temp + bytes, bytes, captured);
        SC::run_length_encode(keys, d_rle_items.get(), d_lengths.get(), d_counts.get() + 2, n, temp + 2 * bytes, bytes,
                              captured);
    });
    const std::vector<int> host_values = computed(n, Scatter{});
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        // A new input each replay: scattered keys (runs of mostly one), then runs of growing length.
        std::vector<int> source(n), in(n);
        for (std::size_t i = 0; i < n; ++i)
            source[i] = replay == 0 ? Scatter{}(static_cast<int>(i)) * 7 : static_cast<int>(i / (3 * replay)) * 7;
        std::transform(source.begin(), source.end(), in.begin(), SeventhOf{});
        SC_CUDA_CHECK(cudaMemcpy(d_source.get(), source.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        poisonAll({&d_rbk_keys, &d_sums, &d_ubk_keys, &d_firsts, &d_rle_items, &d_lengths});
        d_counts.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        const Runs expected = runsOf(in, host_values);
        const std::size_t runs = expected.keys.size();
        const std::vector<std::size_t> counts = download(d_counts.get(), 3);
        ASSERT_EQ(counts[0], runs) << "reduce_by_key";
        ASSERT_EQ(counts[1], runs) << "unique_by_key";
        ASSERT_EQ(counts[2], runs) << "run_length_encode";
        ASSERT_TRUE(sameElements(download(d_rbk_keys.get(), runs), expected.keys, "reduce_by_key keys"));
        ASSERT_TRUE(sameElements(download(d_sums.get(), runs), convert<int>(expected.sums), "reduce_by_key sums"));
        ASSERT_TRUE(sameElements(download(d_ubk_keys.get(), runs), expected.keys, "unique_by_key keys"));
        ASSERT_TRUE(sameElements(download(d_firsts.get(), runs), firstValues(expected, host_values),
                                 "unique_by_key values"));
        ASSERT_TRUE(sameElements(download(d_rle_items.get(), runs), expected.keys, "run_length_encode items"));
        ASSERT_TRUE(sameElements(download(d_lengths.get(), runs), convert<int>(expected.lengths),
                                 "run_length_encode lengths"));
        for (const SC::DeviceBuffer<int> *out :
             {&d_rbk_keys, &d_sums, &d_ubk_keys, &d_firsts, &d_rle_items, &d_lengths})
            ASSERT_TRUE(untouchedPast(*out, runs, "an output"));
    }
}
