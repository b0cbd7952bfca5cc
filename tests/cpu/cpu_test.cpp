// CPU reference implementations (the course CPU code, and the references of the GPU tests)
// against independent std:: algorithms.
#include <gtest/gtest.h>

#include <stream_compaction/cpu.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace SC = StreamCompaction;

namespace {

std::vector<int> expectedScan(const std::vector<int> &in) {
    std::vector<unsigned> sums(in.size());
    std::exclusive_scan(in.begin(), in.end(), sums.begin(), 0u);
    return std::vector<int>(sums.begin(), sums.end());
}

std::vector<int> expectedCompact(const std::vector<int> &in) {
    std::vector<int> kept;
    std::copy_if(in.begin(), in.end(), std::back_inserter(kept), [](int v) { return v != 0; });
    return kept;
}

constexpr int kPoison = 0x7eadbeef;

}  // namespace

TEST(CpuScan, MatchesStdExclusiveScanOnEveryShape) {
    for (Fill fill : {Fill::Random, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            std::vector<int> out(n, kPoison);
            SC::CPU::scan(int(n), out.data(), in.data());
            ASSERT_EQ(out, expectedScan(in));
        }
    }
}

TEST(CpuScan, InPlaceAndWrapsLikeInt32) {
    std::vector<int> data = {INT_MAX, 1, INT_MIN, 5};
    SC::CPU::scan(4, data.data(), data.data());
    EXPECT_EQ(data, (std::vector<int>{0, INT_MAX, INT_MIN, 0}));
}

TEST(CpuCompact, BothVariantsMatchCopyIf) {
    for (Fill fill : {Fill::HalfZeros, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            const std::vector<int> expected = expectedCompact(in);
            std::vector<int> out(n, kPoison);
            ASSERT_EQ(SC::CPU::compactWithoutScan(int(n), out.data(), in.data()), int(expected.size()));
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()));
            std::fill(out.begin(), out.end(), kPoison);
            ASSERT_EQ(SC::CPU::compactWithScan(int(n), out.data(), in.data()), int(expected.size()));
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()));
        }
    }
}

TEST(CpuScan, RejectsBadArguments) {
    int x = 0;
    EXPECT_THROW(SC::CPU::scan(-1, &x, &x), std::invalid_argument);
    EXPECT_THROW(SC::CPU::scan(1, nullptr, &x), std::invalid_argument);
    EXPECT_THROW(SC::CPU::compactWithScan(1, &x, nullptr), std::invalid_argument);
    EXPECT_NO_THROW(SC::CPU::scan(0, nullptr, nullptr));
}

// Each operation is timed once: the count of completed timings says so, not the time (which may
// read 0 ms).
TEST(CpuScan, TimerRecordsTheOperation) {
    std::vector<int> in(1 << 16, 1), out(1 << 16);
    const int n = int(in.size());
    const auto timings = [] { return SC::CPU::timer().completedCpuTimings(); };
    std::uint64_t timed = timings();
    SC::CPU::scan(n, out.data(), in.data());
    EXPECT_EQ(timings(), ++timed) << "scan";
    EXPECT_EQ(SC::CPU::compactWithoutScan(n, out.data(), in.data()), n);
    EXPECT_EQ(timings(), ++timed) << "compactWithoutScan";
    EXPECT_EQ(SC::CPU::compactWithScan(n, out.data(), in.data()), n);
    EXPECT_EQ(timings(), ++timed) << "compactWithScan";
}

// The references the GPU partition tests compare with, against their definitions: stable_partition
// is std::stable_partition; partition (CUB's DevicePartition::If order) puts the i-th true of the
// input at out[i] and the i-th false at out[n - 1 - i].
TEST(CpuReference, PartitionOrders) {
    const auto even = [](int x) { return x % 2 == 0; };
    std::size_t trues = 0;
    EXPECT_EQ(cpuStablePartition(std::vector<int>{5, 4, 2, 10, 3, 7, 8}, even, trues),
              (std::vector<int>{4, 2, 10, 8, 5, 3, 7}));
    EXPECT_EQ(trues, 4u);
    EXPECT_EQ(cpuPartition(std::vector<int>{5, 4, 2, 10, 3, 7, 8}, even, trues), (std::vector<int>{4, 2, 10, 8, 7, 3, 5}));
    EXPECT_EQ(trues, 4u);
    for (Fill fill : {Fill::Random, Fill::Zeros, Fill::NoZeros, Fill::Negatives, Fill::HalfZeros}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            std::vector<int> in = makeInput(n, fill, freshSeed());
            if (n > 2) {
                in[n / 2] = INT_MIN;
                in[n / 3] = INT_MAX;
            }
            const auto negative = [](int x) { return x < 0; };

            std::vector<int> expected = in;
            const auto middle = std::stable_partition(expected.begin(), expected.end(), negative);
            ASSERT_EQ(cpuStablePartition(in, negative, trues), expected);
            ASSERT_EQ(trues, std::size_t(middle - expected.begin()));

            const std::vector<int> reversed = cpuPartition(in, negative, trues);
            ASSERT_EQ(trues, std::size_t(middle - expected.begin()));
            ASSERT_EQ(reversed.size(), n);
            std::size_t t = 0, f = 0;
            for (const int x : in) ASSERT_EQ(reversed[negative(x) ? t++ : n - 1 - f++], x);
        }
    }
}
