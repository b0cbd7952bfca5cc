// CPU reference implementations against independent std:: algorithms.
#include <gtest/gtest.h>

#include <stream_compaction/cpu.h>

#include "gpu_test_util.h"

#include <algorithm>
#include <climits>
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

TEST(CpuScan, TimerRecordsTheOperation) {
    std::vector<int> in(1 << 16, 1), out(1 << 16);
    SC::CPU::scan(int(in.size()), out.data(), in.data());
    EXPECT_GE(SC::CPU::timer().getCpuElapsedTimeForPreviousOperation(), 0.0f);
}
