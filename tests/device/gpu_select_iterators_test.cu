// select_if, select_flagged, partition, stable_partition and unique on inputs and outputs beyond
// raw pointers (issue #43, part 2): Thrust's counting and transform iterators as inputs (the items
// computed, never stored), thrust::device_ptr (unwrapped to the pointer path), discard and
// transform output iterators and pointers to another type as outputs (the portable kernel, an item
// at a time). Every result against the CPU, outputs poisoned first; at the tuned block size and at
// 128 (the kernel compiled for any block size); and graph replay on new inputs, with temporary
// storage at an odd address.
#include <gtest/gtest.h>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuSelectIterators : public GpuTest {};

// A scattered sample of i: no order, repeats, negatives.
struct Scatter {
    __host__ __device__ int operator()(int i) const { return static_cast<int>((i * 2654435761u) % 1999u) - 999; }
};
// Runs of 7 equal items: what unique keeps one of.
struct RunOfSeven {
    __host__ __device__ int operator()(int i) const { return i / 7; }
};
struct MultipleOfThree {
    __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};
struct EveryFifth {
    __host__ __device__ unsigned char operator()(int i) const { return i % 5 == 0 ? 1 : 0; }
};
struct TimesTen {
    __host__ __device__ long long operator()(int x) const { return 10LL * x; }
};

const std::vector<std::size_t> &sizes() {
    static const std::vector<std::size_t> values = {0, 1, 1000, (std::size_t{1} << 20) + 3};
    return values;
}

// The two block sizes every case runs at: the tuned kernels' and the generic kernels'.
std::vector<SC::Tuning> tunings() { return tunedAndGeneric(&SC::Tuning::single_pass); }

std::vector<int> iota(std::size_t n) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
}

std::vector<int> scattered(std::size_t n) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = Scatter{}(static_cast<int>(i));
    return v;
}

std::size_t readCount(const SC::DeviceBuffer<std::size_t> &d_count) {
    std::size_t count = 0;
    d_count.copy_to_host(&count, 1);
    return count;
}

// The stable partition of `in` by `pred`, and CUB's order (falses reversed after the trues).
template <class Pred>
std::vector<int> stablePartitionOf(const std::vector<int> &in, Pred pred) {
    std::vector<int> out(in);
    std::stable_partition(out.begin(), out.end(), pred);
    return out;
}
template <class Pred>
std::vector<int> cubPartitionOf(const std::vector<int> &in, Pred pred) {
    std::vector<int> out = stablePartitionOf(in, pred);
    const auto trues = static_cast<std::ptrdiff_t>(std::count_if(in.begin(), in.end(), pred));
    std::reverse(out.begin() + trues, out.end());
    return out;
}

std::string traceOf(std::size_t n, const SC::Tuning &tuning) {
    return "n = " + std::to_string(n) + ", single_pass " + std::to_string(SC::single_pass_threads(tuning));
}

}  // namespace

// Counting and transform iterators in; a pointer, a device_ptr and a transform output out.
TEST_F(GpuSelectIterators, SelectIfOfComputedItems) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<long long> d_wide(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n, env));
            const thrust::counting_iterator<int> indices(0);

            std::vector<int> expected;
            for (const int x : iota(n))
                if (MultipleOfThree{}(x)) expected.push_back(x);
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::select_if(indices, d_out.get(), d_count.get(), n, MultipleOfThree{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), expected.size()) << "counting";
            ASSERT_TRUE(sameElements(download(d_out.get(), expected.size()), expected, "counting"));

            expected.clear();
            for (const int x : scattered(n))
                if (MultipleOfThree{}(x)) expected.push_back(x);
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::select_if(thrust::make_transform_iterator(indices, Scatter{}), thrust::device_ptr<int>(d_out.get()),
                          d_count.get(), n, MultipleOfThree{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), expected.size()) << "transform";
            ASSERT_TRUE(sameElements(download(d_out.get(), expected.size()), expected, "transform into device_ptr"));

            // The kept items through a transform output iterator, into 8-byte items.
            std::vector<long long> times_ten(expected.size());
            std::transform(expected.begin(), expected.end(), times_ten.begin(), TimesTen{});
            d_wide.fill_bytes(kPoisonByte);
            SC::select_if(thrust::make_transform_iterator(indices, Scatter{}),
                          thrust::make_transform_output_iterator(d_wide.get(), TimesTen{}), d_count.get(), n,
                          MultipleOfThree{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_TRUE(sameElements(download(d_wide.get(), times_ten.size()), times_ten, "transform output"));
        }
}

// Pointers, but of another item type out (ints kept into long longs): the portable kernel.
TEST_F(GpuSelectIterators, SelectIfIntoPointersOfAnotherType) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> in = scattered(n);
            std::vector<long long> expected;
            for (const int x : in)
                if (MultipleOfThree{}(x)) expected.push_back(x);
            const auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
            SC::DeviceBuffer<long long> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n, env));
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, MultipleOfThree{}, d_temp.get(), d_temp.bytes(),
                          env);
            ASSERT_EQ(readCount(d_count), expected.size());
            ASSERT_TRUE(sameElements(download(d_out.get(), expected.size()), expected));
        }
}

// Items and flags both computed; and a discard output, where the count alone is wanted.
TEST_F(GpuSelectIterators, SelectFlaggedOfComputedFlags) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> in = scattered(n);
            std::vector<int> expected;
            for (std::size_t i = 0; i < n; ++i)
                if (EveryFifth{}(static_cast<int>(i))) expected.push_back(in[i]);
            const thrust::counting_iterator<int> indices(0);
            const auto flags = thrust::make_transform_iterator(indices, EveryFifth{});
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n, env));
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::select_flagged(thrust::make_transform_iterator(indices, Scatter{}), flags, d_out.get(), d_count.get(),
                               n, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), expected.size());
            ASSERT_TRUE(sameElements(download(d_out.get(), expected.size()), expected));

            d_count.fill_bytes(kPoisonByte);
            SC::select_flagged(thrust::make_transform_iterator(indices, Scatter{}), flags,
                               thrust::make_discard_iterator(), d_count.get(), n, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), expected.size()) << "discarded output";
        }
}

// Both partitions of computed items, into a pointer; the count with a discard output.
TEST_F(GpuSelectIterators, PartitionsOfComputedItems) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            const std::vector<int> in = scattered(n);
            const auto trues = static_cast<std::size_t>(std::count_if(in.begin(), in.end(), MultipleOfThree{}));
            const auto items = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), Scatter{});
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n, env));

            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::stable_partition(items, d_out.get(), d_count.get(), n, MultipleOfThree{}, d_temp.get(), d_temp.bytes(),
                                 env);
            ASSERT_EQ(readCount(d_count), trues) << "stable_partition";
            ASSERT_TRUE(sameElements(download(d_out.get(), n), stablePartitionOf(in, MultipleOfThree{}),
                                     "stable_partition"));

            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::partition(items, d_out.get(), d_count.get(), n, MultipleOfThree{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), trues) << "partition";
            ASSERT_TRUE(sameElements(download(d_out.get(), n), cubPartitionOf(in, MultipleOfThree{}), "partition"));

            d_count.fill_bytes(kPoisonByte);
            SC::partition(items, thrust::make_discard_iterator(), d_count.get(), n, MultipleOfThree{}, d_temp.get(),
                          d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), trues) << "partition into a discard iterator";
        }
}

// stable_partition into a pointer to another type: its output cannot be read back as the input's
// type, so it counts first even where most items are kept (95% here), where a pointer to int would
// take the falses from the back and turn them round.
TEST_F(GpuSelectIterators, StablePartitionIntoAnotherType) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            std::vector<int> in(n);
            for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i * 7919 % 100);
            const SC::LessThan<int> kept{95};
            const std::vector<int> expected = stablePartitionOf(in, kept);
            const auto trues = static_cast<std::size_t>(std::count_if(in.begin(), in.end(), kept));
            SC::DeviceBuffer<int> d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
            SC::DeviceBuffer<std::int64_t> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::select_temp_bytes<int>(n, env));
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::stable_partition(d_in.get(), d_out.get(), d_count.get(), n, kept, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), trues);
            const std::vector<std::int64_t> got = download(d_out.get(), n);
            ASSERT_TRUE(sameElements(got, std::vector<std::int64_t>(expected.begin(), expected.end()),
                                     "stable_partition into int64"));
        }
}

// unique of computed runs: the item before each comes from the iterator too.
TEST_F(GpuSelectIterators, UniqueOfComputedRuns) {
    for (const SC::Tuning &tuning : tunings())
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(traceOf(n, tuning));
            const SC::CallEnvironment env = testEnv(nullptr, tuning);
            std::vector<int> expected;
            for (std::size_t i = 0; i < n; i += 7) expected.push_back(RunOfSeven{}(static_cast<int>(i)));
            SC::DeviceBuffer<int> d_out(std::max<std::size_t>(n, 1));
            SC::DeviceBuffer<std::size_t> d_count(1);
            SC::DeviceBuffer<char> d_temp(SC::unique_temp_bytes<int>(n, env));
            d_out.fill_bytes(kPoisonByte);
            d_count.fill_bytes(kPoisonByte);
            SC::unique(thrust::make_transform_iterator(thrust::counting_iterator<int>(0), RunOfSeven{}), d_out.get(),
                       d_count.get(), n, SC::EqualTo{}, d_temp.get(), d_temp.bytes(), env);
            ASSERT_EQ(readCount(d_count), expected.size());
            ASSERT_TRUE(sameElements(download(d_out.get(), expected.size()), expected));
        }
}

// Every call of the family on a transform iterator over device memory (the portable kernel), with
// temporary storage at an odd address, captured once in a CUDA graph and replayed on new inputs
// written into that memory between replays: each replay's outputs and counts are the new input's.
TEST_F(GpuSelectIterators, EveryCallReplaysInAGraphOnNewInputsWithStorageAtAnOddAddress) {
    const std::size_t n = (std::size_t{1} << 20) + 3;
    const Stream stream;
    const SC::CallEnvironment env = testEnv(stream.get());
    SC::DeviceBuffer<int> d_source(n);
    const auto items = thrust::make_transform_iterator(d_source.get(), RunOfSeven{});  // source[i] / 7
    SC::DeviceBuffer<int> d_selected(n), d_stable(n), d_partitioned(n), d_unique(n);
    SC::DeviceBuffer<std::size_t> d_counts(4);
    const std::size_t bytes = SC::select_temp_bytes<int>(n, env);
    SC::DeviceBuffer<char> d_temp(4 * bytes + 3);
    char *const temp = d_temp.get() + 3;  // each call's storage at an odd address, none shared
    const GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        const SC::CallEnvironment captured = testEnv(s);
        SC::select_if(items, d_selected.get(), d_counts.get(), n, MultipleOfThree{}, temp, bytes, captured);
        SC::stable_partition(items, d_stable.get(), d_counts.get() + 1, n, MultipleOfThree{}, temp + bytes, bytes,
                             captured);
        SC::partition(items, d_partitioned.get(), d_counts.get() + 2, n, MultipleOfThree{}, temp + 2 * bytes, bytes,
                      captured);
        SC::unique(items, d_unique.get(), d_counts.get() + 3, n, SC::EqualTo{}, temp + 3 * bytes, bytes, captured);
    });
    for (int replay = 0; replay < 3; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        // A new input each replay: scattered values, then runs of one source value of growing length.
        std::vector<int> source(n), in(n);
        for (std::size_t i = 0; i < n; ++i)
            source[i] = replay == 0 ? Scatter{}(static_cast<int>(i)) : static_cast<int>(i / (3 * replay)) * 7;
        std::transform(source.begin(), source.end(), in.begin(), RunOfSeven{});
        SC_CUDA_CHECK(cudaMemcpy(d_source.get(), source.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        for (SC::DeviceBuffer<int> *out : {&d_selected, &d_stable, &d_partitioned, &d_unique})
            out->fill_bytes(kPoisonByte);
        d_counts.fill_bytes(kPoisonByte);
        graph.launch(stream);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));

        std::vector<int> selected, unique;
        for (const int x : in)
            if (MultipleOfThree{}(x)) selected.push_back(x);
        for (std::size_t i = 0; i < n; ++i)
            if (i == 0 || in[i] != in[i - 1]) unique.push_back(in[i]);
        const std::vector<std::size_t> counts = download(d_counts.get(), 4);
        ASSERT_EQ(counts[0], selected.size()) << "select_if";
        ASSERT_EQ(counts[1], selected.size()) << "stable_partition";
        ASSERT_EQ(counts[2], selected.size()) << "partition";
        ASSERT_EQ(counts[3], unique.size()) << "unique";
        ASSERT_TRUE(sameElements(download(d_selected.get(), selected.size()), selected, "select_if"));
        ASSERT_TRUE(sameElements(download(d_stable.get(), n), stablePartitionOf(in, MultipleOfThree{}),
                                 "stable_partition"));
        ASSERT_TRUE(sameElements(download(d_partitioned.get(), n), cubPartitionOf(in, MultipleOfThree{}),
                                 "partition"));
        ASSERT_TRUE(sameElements(download(d_unique.get(), unique.size()), unique, "unique"));
    }
}
