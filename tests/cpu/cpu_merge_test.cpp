// The CPU references of the merge family (reference/merge.h) against std:: algorithms, a brute-force
// join and hand-worked cases: the GPU tests and the harness trust them.
#include <gtest/gtest.h>

#include <stream_compaction/reference/merge.h>

#include "gpu_test_util.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace SC = StreamCompaction;

namespace {

constexpr int kPoison = 0x7eadbeef;

// n sorted keys in [0, range).
std::vector<int> sortedKeys(std::size_t n, int range, std::mt19937 &rng) {
    std::uniform_int_distribution<int> key(0, range - 1);
    std::vector<int> keys(n);
    for (int &k : keys) k = key(rng);
    std::sort(keys.begin(), keys.end());
    return keys;
}

// Every (i, j) with a[i] == b[j], in order of i, then j, by trying them all.
std::vector<std::pair<int, int>> bruteJoin(const std::vector<int> &a, const std::vector<int> &b) {
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j)
            if (a[i] == b[j]) pairs.emplace_back(int(i), int(j));
    return pairs;
}

const int kRanges[] = {1, 3, 50, 1 << 30};  // 1: every key equal; 1 << 30: nearly all distinct

}  // namespace

TEST(CpuMerge, HandWorked) {
    const std::vector<int> a = {1, 3, 3, 7}, b = {2, 3, 8};
    std::vector<int> out(7, kPoison), values(7, kPoison), bounds(4, kPoison);
    SC::CPU::mergeKeys(4, a.data(), 3, b.data(), out.data());
    EXPECT_EQ(out, (std::vector<int>{1, 2, 3, 3, 3, 7, 8}));
    const std::vector<int> av = {10, 11, 12, 13}, bv = {20, 21, 22};
    SC::CPU::mergePairs(4, a.data(), av.data(), 3, b.data(), bv.data(), out.data(), values.data());
    EXPECT_EQ(values, (std::vector<int>{10, 20, 11, 12, 21, 13, 22}));  // a's 3s before b's
    SC::CPU::lowerBound(4, bounds.data(), a.data(), 3, b.data());
    EXPECT_EQ(bounds, (std::vector<int>{0, 1, 1, 2}));
    SC::CPU::upperBound(4, bounds.data(), a.data(), 3, b.data());
    EXPECT_EQ(bounds, (std::vector<int>{0, 2, 2, 2}));

    const std::vector<int> ja = {1, 2, 2, 5}, jb = {2, 2, 3, 5, 5};
    std::vector<int> ia(6, kPoison), ib(6, kPoison);
    EXPECT_EQ(SC::CPU::innerJoin(4, ja.data(), 5, jb.data(), 6, ia.data(), ib.data()), 6);
    EXPECT_EQ(ia, (std::vector<int>{1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(ib, (std::vector<int>{0, 1, 0, 1, 3, 4}));
}

TEST(CpuMerge, MergeMatchesStdMergeAndIsStable) {
    std::mt19937 rng(freshSeed());
    for (const int range : kRanges)
        for (const std::size_t na : {0, 1, 2, 17, 1000})
            for (const std::size_t nb : {0, 1, 5, 999}) {
                SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb) + ", range " +
                             std::to_string(range));
                const std::vector<int> a = sortedKeys(na, range, rng), b = sortedKeys(nb, range, rng);
                std::vector<int> expected(na + nb), out(na + nb + 1, kPoison);
                std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
                SC::CPU::mergeKeys(int(na), a.data(), int(nb), b.data(), out.data());
                EXPECT_EQ(std::vector<int>(out.begin(), out.end() - 1), expected);
                EXPECT_EQ(out.back(), kPoison);
                // Values: a's index, or b's index + 2^20; std::merge on (key, value) by key is stable.
                std::vector<int> av(na), bv(nb);
                for (std::size_t i = 0; i < na; ++i) av[i] = int(i);
                for (std::size_t j = 0; j < nb; ++j) bv[j] = int(j) + (1 << 20);
                std::vector<std::pair<int, int>> pa, pb, pairs(na + nb);
                for (std::size_t i = 0; i < na; ++i) pa.emplace_back(a[i], av[i]);
                for (std::size_t j = 0; j < nb; ++j) pb.emplace_back(b[j], bv[j]);
                std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), pairs.begin(),
                           [](const auto &x, const auto &y) { return x.first < y.first; });
                std::vector<int> keys(na + nb), values(na + nb);
                SC::CPU::mergePairs(int(na), a.data(), av.data(), int(nb), b.data(), bv.data(), keys.data(),
                                    values.data());
                for (std::size_t k = 0; k < na + nb; ++k) {
                    ASSERT_EQ(keys[k], pairs[k].first) << k;
                    ASSERT_EQ(values[k], pairs[k].second) << k;
                }
            }
}

TEST(CpuMerge, BoundsMatchStdLowerAndUpperBound) {
    std::mt19937 rng(freshSeed());
    for (const int range : kRanges)
        for (const std::size_t m : {0, 1, 2, 100, 3000})
            for (const std::size_t n : {0, 1, 7, 2000}) {
                SCOPED_TRACE("m = " + std::to_string(m) + ", n = " + std::to_string(n) + ", range " +
                             std::to_string(range));
                const std::vector<int> needles = sortedKeys(m, range, rng), haystack = sortedKeys(n, range, rng);
                std::vector<int> lower(m), upper(m);
                SC::CPU::lowerBound(int(m), lower.data(), needles.data(), int(n), haystack.data());
                SC::CPU::upperBound(int(m), upper.data(), needles.data(), int(n), haystack.data());
                for (std::size_t i = 0; i < m; ++i) {
                    ASSERT_EQ(lower[i], std::lower_bound(haystack.begin(), haystack.end(), needles[i]) - haystack.begin());
                    ASSERT_EQ(upper[i], std::upper_bound(haystack.begin(), haystack.end(), needles[i]) - haystack.begin());
                }
            }
}

TEST(CpuMerge, JoinMatchesBruteForceAtEveryCapacity) {
    std::mt19937 rng(freshSeed());
    for (const int range : kRanges)
        for (const std::size_t na : {0, 1, 2, 40, 300})
            for (const std::size_t nb : {0, 1, 3, 200}) {
                SCOPED_TRACE("na = " + std::to_string(na) + ", nb = " + std::to_string(nb) + ", range " +
                             std::to_string(range));
                const std::vector<int> a = sortedKeys(na, range, rng), b = sortedKeys(nb, range, rng);
                const std::vector<std::pair<int, int>> expected = bruteJoin(a, b);
                const long long pairs = static_cast<long long>(expected.size());
                for (const long long capacity : {0ll, 1ll, pairs / 2, pairs, pairs + 3}) {
                    std::vector<int> ia(capacity + 1, kPoison), ib(capacity + 1, kPoison);
                    ASSERT_EQ(SC::CPU::innerJoin(int(na), a.data(), int(nb), b.data(), capacity, ia.data(), ib.data()),
                              pairs);
                    const std::size_t written = std::min<std::size_t>(expected.size(), capacity);
                    for (std::size_t p = 0; p < written; ++p) {
                        ASSERT_EQ(ia[p], expected[p].first) << "pair " << p;
                        ASSERT_EQ(ib[p], expected[p].second) << "pair " << p;
                    }
                    for (std::size_t p = written; p < ia.size(); ++p) ASSERT_TRUE(ia[p] == kPoison && ib[p] == kPoison);
                }
            }
}

TEST(CpuMerge, JoinCountsWithoutOutputs) {
    const std::vector<int> a(1000, 4), b(3000, 4);  // 3 million pairs, none written
    EXPECT_EQ(SC::CPU::innerJoin(1000, a.data(), 3000, b.data(), 0, nullptr, nullptr), 3000000);
}

TEST(CpuMerge, BadArgumentsThrow) {
    std::vector<int> v(4);
    EXPECT_THROW(SC::CPU::mergeKeys(-1, v.data(), 4, v.data(), v.data()), std::invalid_argument);
    EXPECT_THROW(SC::CPU::mergeKeys(4, nullptr, 4, v.data(), v.data()), std::invalid_argument);
    EXPECT_THROW(SC::CPU::lowerBound(4, v.data(), v.data(), 4, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CPU::innerJoin(4, v.data(), 4, v.data(), 2, nullptr, v.data()), std::invalid_argument);
    EXPECT_THROW(SC::CPU::innerJoin(4, v.data(), 4, v.data(), -1, v.data(), v.data()), std::invalid_argument);
    EXPECT_NO_THROW(SC::CPU::lowerBound(0, nullptr, nullptr, 4, nullptr));  // no needles: nothing read
}
