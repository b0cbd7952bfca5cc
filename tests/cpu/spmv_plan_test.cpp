// SpMV Auto's planner on the CPU (detail/spmv/plan.h): the row-length statistics on hand-made row offsets
// (no rows, empty rows, one huge row, uniform rows, 64-bit offsets past 2^31), the lanes of
// vector-CSR, and the choice on the shapes the GPU tests use (Poisson, power law, 1 x N, N x 1,
// 58% empty) and on each side of every bound of the rule.
#include <gtest/gtest.h>

#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/detail/spmv/plan.h>
#include <stream_compaction/tuning/policies.h>

#include "spmv_boundary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;
using SC::SpmvAlgorithm;
using SC::SpmvPlan;
using SC::SpmvRowStats;

namespace {

template <class Offset = int>
std::vector<Offset> offsetsOf(const std::vector<int> &lengths) {
    std::vector<Offset> offsets{0};
    for (int length : lengths) offsets.push_back(offsets.back() + length);
    return offsets;
}

SpmvRowStats statsOf(const std::vector<int> &lengths) {
    const std::vector<int> offsets = offsetsOf(lengths);
    return SC::row_length_stats(offsets.data(), offsets.size());
}

SpmvPlan planOf(const std::vector<int> &lengths) { return SC::plan_spmv(statsOf(lengths)); }

SpmvPlan planOfMatrix(const SC::CsrMatrix<double> &m) {
    return SC::plan_spmv(SC::row_length_stats(m.row_offsets.data(), m.row_offsets.size()));
}

::testing::AssertionResult plans(const SpmvPlan &got, SpmvAlgorithm algorithm, int lanes) {
    if (got.algorithm == algorithm && got.lanes_per_row == lanes) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "planned " << SC::spmv_algorithm_name(got.algorithm) << " with "
                                         << got.lanes_per_row << " lanes, expected "
                                         << SC::spmv_algorithm_name(algorithm) << " with " << lanes;
}

}  // namespace

// Statistics without spread: every field but the mean and deviation exact, those exactly as given.
void expectUnspreadStats(const SpmvRowStats &stats, long long rows, long long nnz, double mean, long long longest,
                         long long empty_rows) {
    EXPECT_EQ(stats.rows, rows);
    EXPECT_EQ(stats.nnz, nnz);
    EXPECT_EQ(stats.mean, mean);
    EXPECT_EQ(stats.standard_deviation, 0);
    EXPECT_EQ(stats.longest, longest);
    EXPECT_EQ(stats.empty_rows, empty_rows);
    EXPECT_EQ(stats.coefficient_of_variation(), 0);
}

TEST(SpmvRowStats, NoRows) {
    for (const std::vector<int> &offsets : {std::vector<int>{}, std::vector<int>{0}})
        expectUnspreadStats(SC::row_length_stats(offsets.data(), offsets.size()), 0, 0, 0, 0, 0);
}

TEST(SpmvRowStats, AllRowsEmpty) { expectUnspreadStats(statsOf({0, 0, 0, 0, 0}), 5, 0, 0, 0, 5); }

TEST(SpmvRowStats, UniformRows) { expectUnspreadStats(statsOf(std::vector<int>(100, 7)), 100, 700, 7, 7, 0); }

// {0, 1, 0, 1000, 3}: mean 200.8, deviations -200.8, -199.8, -200.8, 799.2, -197.8.
TEST(SpmvRowStats, OneHugeRowAndEmptyRows) {
    const SpmvRowStats stats = statsOf({0, 1, 0, 1000, 3});
    EXPECT_EQ(stats.rows, 5);
    EXPECT_EQ(stats.nnz, 1004);
    EXPECT_DOUBLE_EQ(stats.mean, 200.8);
    const double variance = (2 * 200.8 * 200.8 + 199.8 * 199.8 + 799.2 * 799.2 + 197.8 * 197.8) / 5;
    EXPECT_DOUBLE_EQ(stats.standard_deviation, std::sqrt(variance));
    EXPECT_DOUBLE_EQ(stats.coefficient_of_variation(), std::sqrt(variance) / 200.8);
    EXPECT_EQ(stats.longest, 1000);
    EXPECT_EQ(stats.empty_rows, 2);
}

// A row of 3 * 10^9 nonzeros: lengths and counts in 64 bits.
TEST(SpmvRowStats, SixtyFourBitOffsets) {
    const std::vector<std::int64_t> offsets = {0, 3000000000LL, 3000000000LL, 3000000002LL};
    const SpmvRowStats stats = SC::row_length_stats(offsets.data(), offsets.size());
    EXPECT_EQ(stats.rows, 3);
    EXPECT_EQ(stats.nnz, 3000000002LL);
    EXPECT_EQ(stats.longest, 3000000000LL);
    EXPECT_EQ(stats.empty_rows, 1);
    EXPECT_DOUBLE_EQ(stats.mean, 3000000002.0 / 3);
    EXPECT_TRUE(plans(SC::plan_spmv(stats), SpmvAlgorithm::MergePath, 0));
    // The same lengths through 32-bit and 64-bit offsets give the same statistics.
    const std::vector<int> lengths = {3, 0, 9, 1, 1, 4};
    const std::vector<std::int64_t> wide = offsetsOf<std::int64_t>(lengths);
    const SpmvRowStats from_wide = SC::row_length_stats(wide.data(), wide.size());
    const SpmvRowStats from_narrow = statsOf(lengths);
    EXPECT_EQ(from_wide.nnz, from_narrow.nnz);
    EXPECT_EQ(from_wide.mean, from_narrow.mean);
    EXPECT_EQ(from_wide.standard_deviation, from_narrow.standard_deviation);
    EXPECT_EQ(from_wide.longest, from_narrow.longest);
    EXPECT_EQ(from_wide.empty_rows, from_narrow.empty_rows);
}

TEST(SpmvPlan, LanesAreThePowerOfTwoAtLeastTheMeanWithinTwoAndThirtyTwo) {
    const std::pair<double, int> expected[] = {{0, 2},  {0.5, 2}, {1, 2},   {2, 2},   {2.01, 4}, {4, 4},
                                               {4.9, 8}, {8, 8},  {9, 16}, {16, 16}, {17, 32}, {1e6, 32}};
    for (const auto &[mean, lanes] : expected) EXPECT_EQ(SC::vector_csr_lanes(mean), lanes) << "mean " << mean;
}

TEST(SpmvPlan, AlgorithmNames) {
    EXPECT_STREQ(SC::spmv_algorithm_name(SpmvAlgorithm::VectorCsr), "vector-csr");
    EXPECT_STREQ(SC::spmv_algorithm_name(SpmvAlgorithm::Auto), "auto");
    EXPECT_STREQ(SC::spmv_algorithm_name(SpmvAlgorithm::MergePath), "merge-path");
}

// Nothing to balance: vector-CSR, which needs no temporary storage, writes beta * y.
TEST(SpmvPlan, NoNonzerosTakeVectorCsr) {
    EXPECT_TRUE(plans(SC::plan_spmv(SpmvRowStats{}), SpmvAlgorithm::VectorCsr, 2));
    EXPECT_TRUE(plans(planOf(std::vector<int>(1000, 0)), SpmvAlgorithm::VectorCsr, 2));
}

TEST(SpmvPlan, RowsOfFewStepsTakeVectorCsr) {
    // Poisson 2D: 3 to 5 nonzeros a row, mean 4.94; 3D: 4 to 7, mean 6.6.
    EXPECT_TRUE(plans(planOfMatrix(SC::poisson_2d(64)), SpmvAlgorithm::VectorCsr, 8));
    EXPECT_TRUE(plans(planOfMatrix(SC::poisson_3d(16)), SpmvAlgorithm::VectorCsr, 8));
    EXPECT_TRUE(plans(planOf(std::vector<int>(5000, 1)), SpmvAlgorithm::VectorCsr, 2));  // N x 1
    EXPECT_TRUE(plans(planOf(std::vector<int>(5000, 12)), SpmvAlgorithm::VectorCsr, 16));
    EXPECT_TRUE(plans(planOf(std::vector<int>(500, 300)), SpmvAlgorithm::VectorCsr, 32));
    // 58% empty rows, the others 1 to 6 long (D6-6's shape): uneven, but no row longer than 3 steps.
    std::mt19937 rng(4);
    std::vector<int> sparse(50000);
    for (int &length : sparse) length = rng() % 100 < 58 ? 0 : 1 + static_cast<int>(rng() % 6);
    EXPECT_TRUE(plans(planOf(sparse), SpmvAlgorithm::VectorCsr, 2));
}

TEST(SpmvPlan, LongRowsAndLargeMatricesTakeMergePath) {
    EXPECT_TRUE(plans(planOfMatrix(SC::power_law(20000, 20000, 1.3, 2, 7)), SpmvAlgorithm::MergePath, 0));
    EXPECT_TRUE(plans(planOf({0, 1, 0, 0, 1 << 20, 1, 0, 2, 1 << 20, 0, 1, 0}), SpmvAlgorithm::MergePath, 0));
    EXPECT_TRUE(plans(planOf({100003}), SpmvAlgorithm::MergePath, 0));  // 1 x N: one sub-warp for all of it
    EXPECT_TRUE(plans(planOf(std::vector<int>(1 << 20, 5)), SpmvAlgorithm::MergePath, 0));  // 5 * 2^20 nonzeros
}

TEST(SpmvPlan, LongestRowStepsBoundary) {
    EXPECT_TRUE(plans(planOf(longestRowStepsOnBoundary(true)), SpmvAlgorithm::VectorCsr, 32));
    EXPECT_TRUE(plans(planOf(longestRowStepsOnBoundary(false)), SpmvAlgorithm::MergePath, 0));
}

TEST(SpmvPlan, NonzerosBoundary) {
    EXPECT_EQ(statsOf(nonzerosOnBoundary(true)).nnz, SC::kVectorCsrMaxNonzeros);
    EXPECT_TRUE(plans(planOf(nonzerosOnBoundary(true)), SpmvAlgorithm::VectorCsr, 4));
    EXPECT_TRUE(plans(planOf(nonzerosOnBoundary(false)), SpmvAlgorithm::MergePath, 0));
}
