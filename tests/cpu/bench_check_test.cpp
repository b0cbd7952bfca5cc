// The benchmarks' checks (bench/check.h): every check fails on what it must catch. Each case that
// the benchmarks' earlier checks let through (only the last element or the count compared, and
// outputs not poisoned) says so.
#include "check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace {

using bench::Expected;

// What device_check.h's poison(d, n, stream) leaves, on the host.
template <class T>
std::vector<T> poisoned(std::size_t n) {
    return std::vector<T>(n, bench::poison_value<T>());
}

std::vector<int> exclusiveSumOf(const std::vector<int> &in) {
    std::vector<int> sums(in.size());
    bench::exclusive_sum<unsigned>(in.data(), in.size(), sums.data());
    return sums;
}

const std::vector<int> kInput = {3, 0, 7, 4, 1, 9, 2, 8};

TEST(BenchCheck, CorrectOutputPasses) {
    const std::vector<int> expected = exclusiveSumOf(kInput);
    const std::vector<int> got = expected;
    EXPECT_EQ(bench::elements_mismatch(got.data(), expected.data(), got.size()), "");
    EXPECT_EQ(bench::count_mismatch(5, 5), "");
    EXPECT_EQ(bench::value_mismatch(34, 34), "");
}

TEST(BenchCheck, OutputRightAtItsLastElementButWrongInTheMiddleFails) {
    const std::vector<int> expected = exclusiveSumOf(kInput);
    std::vector<int> got = expected;
    got[3] += 1;
    ASSERT_EQ(got.back(), expected.back());  // all that the scan parts compared before
    EXPECT_EQ(bench::elements_mismatch(got.data(), expected.data(), got.size()),
              "element 3 of 8: got 11, expected 10");
}

TEST(BenchCheck, OutputLeftPoisonedFails) {
    const std::vector<int> expected = exclusiveSumOf(kInput);
    const std::vector<int> got = poisoned<int>(expected.size());
    EXPECT_EQ(bench::first_mismatch(got.data(), expected.data(), got.size()), 0u);
    // Poisoned from its 6th element on: a run that stopped short.
    std::vector<int> short_run = expected;
    std::fill(short_run.begin() + 5, short_run.end(), bench::poison_value<int>());
    EXPECT_EQ(bench::first_mismatch(short_run.data(), expected.data(), short_run.size()), 5u);
}

TEST(BenchCheck, PoisonedFloatFailsEvenWhereZeroIsExpected) {
    // A float scan's first element is 0: an absolute tolerance would let the poison (a tiny
    // negative float) pass there; the relative one does not.
    const std::vector<float> expected = {0.0f, 3.0f, 3.0f, 10.0f};
    std::vector<float> got = expected;
    got[0] = bench::poison_value<float>();
    EXPECT_EQ(bench::first_mismatch(got.data(), expected.data(), got.size(), 1e-3), 0u);
    const std::vector<double> zero = {0.0};
    const std::vector<double> poisoned_double = poisoned<double>(1);
    EXPECT_EQ(bench::first_mismatch(poisoned_double.data(), zero.data(), 1, 1e-3), 0u);
}

TEST(BenchCheck, FloatsPassWithinTheirRelativeToleranceOnly) {
    const std::vector<float> expected = {0.0f, 1000.0f, 2.0e9f};
    EXPECT_EQ(bench::first_mismatch(std::vector<float>{0.0f, 1000.5f, 2.001e9f}.data(), expected.data(), 3, 1e-3), 3u);
    EXPECT_EQ(bench::first_mismatch(std::vector<float>{0.0f, 1002.0f, 2.0e9f}.data(), expected.data(), 3, 1e-3), 1u);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(bench::first_mismatch(std::vector<float>{0.0f, 1000.0f, nan}.data(), expected.data(), 3, 1e-3), 2u);
    // Without a tolerance (int64 and double sums of integers are exact), one unit off fails.
    const std::vector<double> exact = {0.0, 1e15};
    EXPECT_EQ(bench::first_mismatch(std::vector<double>{0.0, 1e15 + 1}.data(), exact.data(), 2), 1u);
}

TEST(BenchCheck, CountMismatchFails) {
    EXPECT_EQ(bench::count_mismatch(4, 5), "count 4, expected 5");
    EXPECT_EQ(bench::count_mismatch(6, 5), "count 6, expected 5");
}

TEST(BenchCheck, PoisonedCountFails) {
    // A count an implementation did not write: its own storage, poisoned, read as long long, not
    // the previous implementation's right count that a shared counter held.
    EXPECT_NE(bench::count_mismatch(static_cast<long long>(bench::poison_value<std::size_t>()), 5), "");
    EXPECT_NE(bench::count_mismatch(bench::poison_value<int>(), 5), "");
    EXPECT_NE(bench::count_mismatch(bench::poison_value<long long>(), 5), "");
    EXPECT_LT(bench::poison_value<int>(), 0);
}

TEST(BenchCheck, ReductionResultMismatchFails) {
    EXPECT_EQ(bench::value_mismatch(bench::poison_value<int>(), 34), "got -1515870811, expected 34");
    const StreamCompaction::MaxSegmentSum kadane{12, 3, 7};
    EXPECT_EQ(bench::value_mismatch(kadane, kadane), "");
    EXPECT_EQ(bench::value_mismatch(StreamCompaction::MaxSegmentSum{12, 3, 8}, kadane),
              "got sum 12 over [3, 8), expected sum 12 over [3, 7)");
}

TEST(BenchCheck, ExclusiveSumWrapsModulo2To32AndCarriesOnAcrossChunks) {
    const std::vector<int> in = {2147483647, 1, 5};
    std::vector<int> sums(3);
    const unsigned end = bench::exclusive_sum<unsigned>(in.data(), 2, sums.data());
    bench::exclusive_sum<unsigned>(in.data() + 2, 1, sums.data() + 2, end);
    EXPECT_EQ(sums, (std::vector<int>{0, 2147483647, std::numeric_limits<int>::min()}));
    // long long: integer-valued floats summed exactly, rounded once.
    const std::vector<float> items = {16777216.0f, 1.0f, 1.0f, 0.0f};
    std::vector<float> float_sums(4);
    bench::exclusive_sum<long long>(items.data(), items.size(), float_sums.data());
    EXPECT_EQ(float_sums, (std::vector<float>{0.0f, 16777216.0f, 16777216.0f, 16777218.0f}));
}

TEST(BenchCheck, CompactionAndPartitionReferencesFollowTheContracts) {
    // stream_compaction/device/select.cuh's examples.
    const std::vector<int> keys = {7, 2, 9, 4, 1, 8};
    const auto below5 = [](int x) { return x < 5; };
    const Expected<int> kept = bench::selected(keys.data(), keys.size(), below5);
    EXPECT_EQ(kept.values, (std::vector<int>{2, 4, 1}));
    EXPECT_EQ(kept.count, 3u);
    const Expected<int> stable = bench::partitioned(keys.data(), keys.size(), below5, bench::Falses::InOrder);
    EXPECT_EQ(stable.values, (std::vector<int>{2, 4, 1, 7, 9, 8}));
    EXPECT_EQ(stable.count, 3u);
    const Expected<int> cub = bench::partitioned(keys.data(), keys.size(), below5, bench::Falses::Reversed);
    EXPECT_EQ(cub.values, (std::vector<int>{2, 4, 1, 8, 9, 7}));
    EXPECT_EQ(cub.count, 3u);
}

TEST(BenchCheck, PartitionWithTheRightTruesButFalsesInTheWrongOrderFails) {
    const std::vector<int> keys = {7, 2, 9, 4, 1, 8};
    const auto below5 = [](int x) { return x < 5; };
    const Expected<int> cub = bench::partitioned(keys.data(), keys.size(), below5, bench::Falses::Reversed);
    const Expected<int> stable = bench::partitioned(keys.data(), keys.size(), below5, bench::Falses::InOrder);
    // The same count: all that the partitions compared before.
    ASSERT_EQ(stable.count, cub.count);
    EXPECT_EQ(bench::elements_mismatch(stable.values.data(), cub.values.data(), keys.size()),
              "element 3 of 6: got 7, expected 8");
}

}  // namespace
