// The CPU references of the by-key family and of the histogram (cpu.h) against std:: algorithms
// and hand-worked cases: the GPU tests and the harness trust them.
#include <gtest/gtest.h>

#include <stream_compaction/cpu.h>

#include "gpu_test_util.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <iterator>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace SC = StreamCompaction;

namespace {

constexpr int kPoison = 0x7eadbeef;

// Keys in [0, distinct): runs of mean length about distinct / (distinct - 1).
std::vector<int> runKeys(std::size_t n, int distinct, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> key(0, distinct - 1);
    std::vector<int> keys(n);
    for (int &k : keys) k = key(rng);
    return keys;
}

std::vector<int> stdUnique(const std::vector<int> &in) {
    std::vector<int> out;
    std::unique_copy(in.begin(), in.end(), std::back_inserter(out));
    return out;
}

}  // namespace

TEST(CpuByKey, HandWorkedRuns) {
    const std::vector<int> keys = {1, 1, 2, 2, 2, 3, 1}, values = {1, 2, 3, 4, 5, 6, 7};
    std::vector<int> k(7, kPoison), v(7, kPoison);
    ASSERT_EQ(SC::CPU::reduceByKey(7, k.data(), v.data(), keys.data(), values.data()), 4);
    EXPECT_EQ(std::vector<int>(k.begin(), k.begin() + 4), (std::vector<int>{1, 2, 3, 1}));
    EXPECT_EQ(std::vector<int>(v.begin(), v.begin() + 4), (std::vector<int>{3, 12, 6, 7}));
    ASSERT_EQ(SC::CPU::uniqueByKey(7, k.data(), v.data(), keys.data(), values.data()), 4);
    EXPECT_EQ(std::vector<int>(v.begin(), v.begin() + 4), (std::vector<int>{1, 3, 6, 7}));
    ASSERT_EQ(SC::CPU::runLengthEncode(7, k.data(), v.data(), keys.data()), 4);
    EXPECT_EQ(std::vector<int>(v.begin(), v.begin() + 4), (std::vector<int>{2, 3, 1, 1}));
}

TEST(CpuByKey, MatchStdOnEveryShape) {
    for (const int distinct : {1, 2, 50, INT_MAX}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", keys in [0, " + std::to_string(distinct) + ")");
            const std::vector<int> keys = runKeys(n, distinct, freshSeed());
            const std::vector<int> values = makeInput(n, Fill::Random, freshSeed());
            const std::vector<int> expected = stdUnique(keys);
            const int runs = static_cast<int>(expected.size());
            std::vector<int> k(n, kPoison), v(n, kPoison), lengths(n, kPoison);

            ASSERT_EQ(SC::CPU::unique(int(n), k.data(), keys.data()), runs);
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), k.begin()));

            ASSERT_EQ(SC::CPU::runLengthEncode(int(n), k.data(), lengths.data(), keys.data()), runs);
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), k.begin()));
            std::vector<int> expanded;  // the runs expanded give the input back
            for (int j = 0; j < runs; ++j) expanded.insert(expanded.end(), lengths[j], k[j]);
            ASSERT_EQ(expanded, keys);

            // Each run's sum and first value, from the run lengths.
            ASSERT_EQ(SC::CPU::reduceByKey(int(n), k.data(), v.data(), keys.data(), values.data()), runs);
            ASSERT_TRUE(std::equal(expected.begin(), expected.end(), k.begin()));
            std::size_t first = 0;
            for (int j = 0; j < runs; ++j) {
                const long long sum = std::accumulate(values.begin() + first, values.begin() + first + lengths[j], 0LL);
                ASSERT_EQ(v[j], static_cast<int>(sum)) << "run " << j;
                first += lengths[j];
            }
            ASSERT_EQ(SC::CPU::uniqueByKey(int(n), k.data(), v.data(), keys.data(), values.data()), runs);
            first = 0;
            for (int j = 0; j < runs; ++j) {
                ASSERT_EQ(v[j], values[first]) << "run " << j;
                first += lengths[j];
            }
        }
    }
}

TEST(CpuByKey, ExtremeKeysAndWrappingSums) {
    const std::vector<int> keys = {INT_MIN, INT_MIN, INT_MAX, INT_MAX, -1}, values = {INT_MAX, 1, INT_MIN, -1, 0};
    std::vector<int> k(5), v(5);
    ASSERT_EQ(SC::CPU::reduceByKey(5, k.data(), v.data(), keys.data(), values.data()), 3);
    EXPECT_EQ(std::vector<int>(k.begin(), k.begin() + 3), (std::vector<int>{INT_MIN, INT_MAX, -1}));
    EXPECT_EQ(std::vector<int>(v.begin(), v.begin() + 3), (std::vector<int>{INT_MIN, INT_MAX, 0}));
}

TEST(CpuByKey, EmptyInputAndNullPointers) {
    EXPECT_EQ(SC::CPU::reduceByKey(0, nullptr, nullptr, nullptr, nullptr), 0);
    EXPECT_EQ(SC::CPU::unique(0, nullptr, nullptr), 0);
    EXPECT_EQ(SC::CPU::runLengthEncode(0, nullptr, nullptr, nullptr), 0);
    int x = 1;
    EXPECT_THROW(SC::CPU::unique(1, nullptr, &x), std::invalid_argument);
}

TEST(CpuHistogram, HandWorkedBins) {
    const std::vector<int> samples = {0, 1, 2, 3, 9, 10, -1, 5, 5, 5};
    std::vector<unsigned> counts(5, 77u);
    SC::CPU::histogramEven(int(samples.size()), samples.data(), 5, 0, 10, counts.data());
    EXPECT_EQ(counts, (std::vector<unsigned>{2, 2, 3, 0, 1}));
    // 3 bins over [0, 10): bin = floor(3x / 10), so 3 -> 0, 4 -> 1, 6 -> 1, 7 -> 2.
    const std::vector<int> uneven = {3, 4, 6, 7};
    std::vector<unsigned> three(3);
    SC::CPU::histogramEven(4, uneven.data(), 3, 0, 10, three.data());
    EXPECT_EQ(three, (std::vector<unsigned>{1, 2, 1}));
    const std::vector<float> floats = {-1.0f, -0.5f, 0.0f, 0.25f, 0.999f, 1.0f, NAN};
    std::vector<unsigned> fcounts(4);
    SC::CPU::histogramEven(int(floats.size()), floats.data(), 4, -1.0f, 1.0f, fcounts.data());
    EXPECT_EQ(fcounts, (std::vector<unsigned>{1, 1, 2, 1}));
}

TEST(CpuHistogram, FullIntRangeAndBruteForceBins) {
    // Over [INT_MIN, INT_MAX): the offsets span 2^32 - 1, and every sample of the range is counted.
    const std::vector<int> extremes = {INT_MIN, -1, 0, INT_MAX - 1, INT_MAX};
    std::vector<unsigned> two(2);
    SC::CPU::histogramEven(5, extremes.data(), 2, INT_MIN, INT_MAX, two.data());
    EXPECT_EQ(two, (std::vector<unsigned>{2, 2}));  // INT_MAX is the excluded upper bound
    // Each sample's bin b satisfies b * range <= (x - lower) * bins < (b + 1) * range.
    std::mt19937 rng(freshSeed());
    for (const int bins : {1, 7, 256, 1000}) {
        const int lower = -500, upper = 1234;
        std::uniform_int_distribution<int> d(lower - 10, upper + 10);
        std::vector<int> samples(5000);
        for (int &x : samples) x = d(rng);
        std::vector<unsigned> counts(bins), expected(bins, 0u);
        SC::CPU::histogramEven(int(samples.size()), samples.data(), bins, lower, upper, counts.data());
        for (const int x : samples) {
            if (x < lower || x >= upper) continue;
            for (int b = 0; b < bins; ++b)
                if (static_cast<long long>(b) * (upper - lower) <= static_cast<long long>(x - lower) * bins &&
                    static_cast<long long>(x - lower) * bins < static_cast<long long>(b + 1) * (upper - lower))
                    ++expected[b];
        }
        ASSERT_EQ(counts, expected) << bins << " bins";
    }
}

TEST(CpuHistogram, BadArguments) {
    const int x = 0;
    unsigned counts[2];
    EXPECT_THROW(SC::CPU::histogramEven(1, &x, 0, 0, 10, counts), std::invalid_argument);
    EXPECT_THROW(SC::CPU::histogramEven(1, &x, 2, 10, 10, counts), std::invalid_argument);
    EXPECT_THROW(SC::CPU::histogramEven(1, &x, 2, 0, 10, nullptr), std::invalid_argument);
}
