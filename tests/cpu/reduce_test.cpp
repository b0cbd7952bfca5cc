// The reductions' CPU side: CPU::sum, CPU::maxSegmentSum (Kadane) against a brute force that tries
// every segment, and the GPU's maximum-segment-sum algorithm run on the host (segment_tuple.h is
// plain C++): the (mss, mis, mcs, ts) operator is associative, a reduction of the mapped elements
// in any tree shape gives the brute force's answer, and so do chunks folded by Kadane's step and
// combined in order, which is how the kernel splits the array.
#include <gtest/gtest.h>

#include <stream_compaction/cpu.h>
#include <stream_compaction/detail/reduce/segment_tuple.h>

#include "gpu_test_util.h"  // freshSeed

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using SC::MaxSegmentSum;
using SC::detail::SegmentTuple;

namespace {

// Every segment [b, e) tried, the empty one first as [0, 0); a segment replaces the best when its
// sum is larger, or equal and it starts earlier, or starts at the same place and is shorter.
MaxSegmentSum bruteForce(const std::vector<int> &a) {
    MaxSegmentSum best{0, 0, 0};
    for (std::size_t b = 0; b < a.size(); ++b) {
        long long sum = 0;
        for (std::size_t e = b + 1; e <= a.size(); ++e) {
            sum += a[e - 1];
            const bool better = sum > best.sum || (sum == best.sum && (b < best.begin || (b == best.begin && e < best.end)));
            if (better) best = {sum, b, e};
        }
    }
    return best;
}

MaxSegmentSum kadane(const std::vector<int> &a) { return SC::CPU::maxSegmentSum(int(a.size()), a.data()); }

std::string show(const MaxSegmentSum &m) {
    return std::to_string(m.sum) + " over [" + std::to_string(m.begin) + ", " + std::to_string(m.end) + ")";
}

::testing::AssertionResult sameSegment(const MaxSegmentSum &got, const MaxSegmentSum &expected) {
    if (got == expected) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << show(got) << ", expected " << show(expected);
}

std::string showArray(const std::vector<int> &a) {
    std::string s = "[";
    for (std::size_t i = 0; i < a.size(); ++i) s += (i ? " " : "") + std::to_string(a[i]);
    return s + "]";
}

// Small values around 0 make ties (equal sums, zero-sum runs) common.
std::vector<int> randomSmall(std::size_t n, std::mt19937 &rng, int lo, int hi) {
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<int> a(n);
    for (int &x : a) x = value(rng);
    return a;
}

// The tuple of a[begin, end) (non-empty) by a reduction of the mapped elements whose tree splits at
// random points: any shape must give the same tuple.
SegmentTuple randomTree(const std::vector<int> &a, std::size_t begin, std::size_t end, std::mt19937 &rng) {
    if (end - begin == 1) return SC::detail::segment_of(a[begin], begin);
    const std::size_t split = begin + 1 + rng() % (end - begin - 1);
    return SC::detail::combine_segments(randomTree(a, begin, split, rng), randomTree(a, split, end, rng));
}

// The kernel's way: the array cut into chunks at random, each folded from its own index 0 by
// Kadane's step, the chunks' tuples combined in order.
SegmentTuple chunkedFolds(const std::vector<int> &a, std::mt19937 &rng) {
    std::size_t begin = 0;
    bool have = false;
    SegmentTuple total{};
    while (begin < a.size()) {
        const std::size_t length = 1 + rng() % std::min<std::size_t>(a.size() - begin, 9);
        SC::detail::SegmentFold fold = SC::detail::segment_fold_start();
        for (std::size_t i = 0; i < length; ++i) SC::detail::segment_fold_step(fold, a[begin + i], unsigned(i));
        EXPECT_FALSE(SC::detail::segment_fold_empty(fold));
        const SegmentTuple chunk = SC::detail::segment_fold_result(fold, begin);
        total = have ? SC::detail::combine_segments(total, chunk) : chunk;
        have = true;
        begin += length;
    }
    return total;
}

bool sameTuple(const SegmentTuple &x, const SegmentTuple &y) {
    return x.total == y.total && x.prefix == y.prefix && x.suffix == y.suffix && x.best == y.best &&
           x.prefix_end == y.prefix_end && x.suffix_begin == y.suffix_begin && x.best_begin == y.best_begin &&
           x.best_end == y.best_end;
}

}  // namespace

TEST(CpuSum, MatchesAccumulateAndWrapsLikeInt32) {
    for (std::size_t n : edgeSizes()) {
        const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
        const unsigned expected = std::accumulate(in.begin(), in.end(), 0u, [](unsigned s, int x) { return s + unsigned(x); });
        EXPECT_EQ(SC::CPU::sum(int(n), in.data()), int(expected)) << "n = " << n;
    }
    const std::vector<int> wraps = {INT_MAX, 1, INT_MAX, 2};
    EXPECT_EQ(SC::CPU::sum(4, wraps.data()), 1);  // 2^32 + 1 wraps to 1
    EXPECT_EQ(SC::CPU::sum(0, nullptr), 0);
    EXPECT_THROW(SC::CPU::sum(1, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CPU::sum(-1, wraps.data()), std::invalid_argument);
}

TEST(CpuMaxSegmentSum, LectureExample) {
    const std::vector<int> a = {1, -2, 3, 4, -1, 5, -6, 1};
    EXPECT_TRUE(sameSegment(kadane(a), {11, 2, 6}));  // [3, 4, -1, 5]
    EXPECT_TRUE(sameSegment(bruteForce(a), {11, 2, 6}));
}

TEST(CpuMaxSegmentSum, EmptyAllNegativeAndZeroGiveTheEmptySegmentAtZero) {
    EXPECT_TRUE(sameSegment(kadane({}), {0, 0, 0}));
    EXPECT_TRUE(sameSegment(SC::CPU::maxSegmentSum(0, nullptr), {0, 0, 0}));
    EXPECT_TRUE(sameSegment(kadane({-3, -1, -7}), {0, 0, 0}));
    EXPECT_TRUE(sameSegment(kadane({INT_MIN}), {0, 0, 0}));
    EXPECT_TRUE(sameSegment(kadane({0, 0, 0}), {0, 0, 0}));    // a zero-sum segment loses to [0, 0)
    EXPECT_TRUE(sameSegment(kadane({-1, 0, -2}), {0, 0, 0}));
    EXPECT_TRUE(sameSegment(kadane({-4, 2, -2}), {2, 1, 2}));  // positive beats the empty segment
}

TEST(CpuMaxSegmentSum, TieRuleStartsFirstThenShortest) {
    EXPECT_TRUE(sameSegment(kadane({2, -2, 2}), {2, 0, 1}));        // [0,1) [0,3) [2,3): first, then shortest
    EXPECT_TRUE(sameSegment(kadane({1, -1, 1, -1, 1}), {1, 0, 1}));
    EXPECT_TRUE(sameSegment(kadane({-5, 3, -3, 3}), {3, 1, 2}));
    EXPECT_TRUE(sameSegment(kadane({0, 0, 5, 0}), {5, 0, 3}));      // leading zeros belong, trailing do not
    EXPECT_TRUE(sameSegment(kadane({0, 3}), {3, 0, 2}));
    EXPECT_TRUE(sameSegment(kadane({-1, 4, -4, 4}), {4, 1, 2}));
    EXPECT_TRUE(sameSegment(kadane({3, -5, 3}), {3, 0, 1}));        // two apart: the first
}

TEST(CpuMaxSegmentSum, SumsPast32BitsAreExact) {
    const std::vector<int> a(5, INT_MAX);
    EXPECT_TRUE(sameSegment(kadane(a), {5LL * INT_MAX, 0, 5}));
    std::vector<int> b = {INT_MIN, INT_MAX, INT_MAX, INT_MIN, INT_MAX, INT_MAX, INT_MAX};
    EXPECT_TRUE(sameSegment(kadane(b), bruteForce(b)));
}

TEST(CpuMaxSegmentSum, KadaneMatchesBruteForceOnRandomArrays) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 4000; ++trial) {
        const std::size_t n = rng() % 41;
        const int range = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 10 : 1000;
        const std::vector<int> a = randomSmall(n, rng, -range, range - (trial % 5 == 0 ? 2 * range - 1 : 0));
        ASSERT_TRUE(sameSegment(kadane(a), bruteForce(a))) << showArray(a) << " (seed " << seed << ")";
    }
}

TEST(SegmentTupleOperator, IsAssociativeOnTuplesOfConsecutiveRanges) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 3000; ++trial) {
        const std::size_t n = 3 + rng() % 20;
        const std::vector<int> a = randomSmall(n, rng, -3, 3);
        const std::size_t i = 1 + rng() % (n - 2), j = i + 1 + rng() % (n - i - 1);
        const SegmentTuple x = randomTree(a, 0, i, rng), y = randomTree(a, i, j, rng), z = randomTree(a, j, n, rng);
        using SC::detail::combine_segments;
        ASSERT_TRUE(sameTuple(combine_segments(combine_segments(x, y), z), combine_segments(x, combine_segments(y, z))))
            << showArray(a) << " split at " << i << ", " << j << " (seed " << seed << ")";
    }
}

TEST(SegmentTupleOperator, AnyReductionTreeAndChunkedKadaneFoldsMatchBruteForce) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 3000; ++trial) {
        const std::size_t n = 1 + rng() % 40;
        const int range = trial % 2 ? 3 : 100;
        const std::vector<int> a = randomSmall(n, rng, -range, trial % 7 == 0 ? -1 : range);
        const MaxSegmentSum expected = bruteForce(a);
        ASSERT_TRUE(sameSegment(SC::detail::max_segment_of(randomTree(a, 0, n, rng)), expected))
            << "tree reduction of " << showArray(a) << " (seed " << seed << ")";
        ASSERT_TRUE(sameSegment(SC::detail::max_segment_of(chunkedFolds(a, rng)), expected))
            << "chunked folds of " << showArray(a) << " (seed " << seed << ")";
    }
}

TEST(SegmentTupleOperator, KadaneStepIsTheOperatorAppliedToOneElement) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 2000; ++trial) {
        const std::vector<int> a = randomSmall(1 + rng() % 30, rng, -4, 4);
        SC::detail::SegmentFold fold = SC::detail::segment_fold_start();
        SegmentTuple left = SC::detail::segment_of(a[0], 0);
        SC::detail::segment_fold_step(fold, a[0], 0);
        for (std::size_t i = 1; i < a.size(); ++i) {
            left = SC::detail::combine_segments(left, SC::detail::segment_of(a[i], i));
            SC::detail::segment_fold_step(fold, a[i], unsigned(i));
        }
        ASSERT_TRUE(sameTuple(SC::detail::segment_fold_result(fold, 0), left)) << showArray(a) << " (seed " << seed << ")";
    }
}

// The kernel folds a lane's chunk a piece at a time: a piece of small values packed
// (packed_fold_step) or in 32-bit sums, appended to the chunk's 64-bit fold (segment_fold_append),
// the others stepped in 64 bits. Every way the chunk's fold must be exactly the one of stepping
// every element, ties included.
TEST(SegmentTupleOperator, NarrowPiecesAppendedAreTheStepwiseFold) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 4000; ++trial) {
        // Ties, the benchmark's values, the packed bound, the 32-bit bound.
        const int range = trial % 4 == 0 ? 2 : trial % 4 == 1 ? 50 : trial % 4 == 2 ? 1 << 14 : 1 << 25;
        const std::vector<int> a = randomSmall(1 + rng() % 120, rng, -range, trial % 11 == 0 ? -1 : range - 1);
        SC::detail::SegmentFold stepwise = SC::detail::segment_fold_start();
        for (std::size_t i = 0; i < a.size(); ++i) SC::detail::segment_fold_step(stepwise, a[i], unsigned(i));

        SC::detail::SegmentFold pieces = SC::detail::segment_fold_start();
        for (std::size_t begin = 0; begin < a.size();) {
            const std::size_t length = std::min<std::size_t>(1 + rng() % 32, a.size() - begin);
            unsigned magnitude = 0;
            for (std::size_t i = 0; i < length; ++i) magnitude |= SC::detail::magnitude_bits(a[begin + i]);
            const unsigned path = rng() % 4;
            if (path == 0 && SC::detail::packed_fold_fits(magnitude)) {
                SC::detail::PackedKadane packed = SC::detail::packed_fold_start();
                for (std::size_t i = 0; i < length; ++i)
                    SC::detail::packed_fold_step(packed, a[begin + i], unsigned(i));
                SC::detail::segment_fold_append(pieces, SC::detail::packed_fold_result(packed), unsigned(begin));
            } else if (path != 3) {  // narrow
                SC::detail::KadaneFold<int> narrow = SC::detail::segment_fold_start<int>();
                for (std::size_t i = 0; i < length; ++i)
                    SC::detail::segment_fold_step(narrow, a[begin + i], unsigned(i));
                SC::detail::segment_fold_append(pieces, narrow, unsigned(begin));
            } else {
                for (std::size_t i = 0; i < length; ++i)
                    SC::detail::segment_fold_step(pieces, a[begin + i], unsigned(begin + i));
            }
            begin += length;
        }
        ASSERT_TRUE(sameTuple(SC::detail::segment_fold_result(pieces, 7), SC::detail::segment_fold_result(stepwise, 7)))
            << showArray(a) << " (seed " << seed << ")";
    }
}

// The packed fold of a piece is the 32-bit fold of it, field for field: pieces of 1 to 32 items
// with many ties, random values, and every value at the packed bounds (the sums' extremes).
TEST(SegmentTupleOperator, PackedPieceFoldIsTheStepwiseFold) {
    const std::uint32_t seed = freshSeed();
    std::mt19937 rng(seed);
    constexpr int bound = 1 << 14;
    for (int trial = 0; trial < 20000; ++trial) {
        const std::size_t length = 1 + rng() % SC::detail::kPackedFoldItems;
        std::vector<int> a;
        switch (trial % 5) {
        case 0: a = randomSmall(length, rng, -1, 1); break;
        case 1: a = randomSmall(length, rng, -bound, bound - 1); break;
        case 2: a.assign(length, -bound); break;
        case 3: a.assign(length, bound - 1); break;
        default: a = randomSmall(length, rng, -3, 3); a[rng() % length] = rng() % 2 ? -bound : bound - 1;
        }
        unsigned magnitude = 0;
        for (const int x : a) magnitude |= SC::detail::magnitude_bits(x);
        ASSERT_TRUE(SC::detail::packed_fold_fits(magnitude));
        SC::detail::KadaneFold<int> stepwise = SC::detail::segment_fold_start<int>();
        SC::detail::PackedKadane packed = SC::detail::packed_fold_start();
        for (std::size_t i = 0; i < a.size(); ++i) {
            SC::detail::segment_fold_step(stepwise, a[i], unsigned(i));
            SC::detail::packed_fold_step(packed, a[i], unsigned(i));
        }
        ASSERT_TRUE(sameTuple(SC::detail::segment_fold_result(SC::detail::packed_fold_result(packed), 3),
                              SC::detail::segment_fold_result(stepwise, 3)))
            << showArray(a) << " (seed " << seed << ")";
    }
    EXPECT_FALSE(SC::detail::packed_fold_fits(SC::detail::magnitude_bits(bound)));
    EXPECT_FALSE(SC::detail::packed_fold_fits(SC::detail::magnitude_bits(-bound - 1)));
}

TEST(CpuMaxSegmentSum, RejectsBadArgumentsAndTimes) {
    EXPECT_THROW(SC::CPU::maxSegmentSum(1, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CPU::maxSegmentSum(-2, nullptr), std::invalid_argument);
    std::vector<int> in(1 << 16, -1);
    in[100] = 7;
    const std::uint64_t timed = SC::CPU::timer().completedCpuTimings();
    EXPECT_TRUE(sameSegment(kadane(in), {7, 100, 101}));
    EXPECT_EQ(SC::CPU::timer().completedCpuTimings(), timed + 1);  // timed once; its time may read 0 ms
}
