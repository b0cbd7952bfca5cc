// bench/nvbench/host_reference.h: the NVBench parts' CPU checks, on every hardware thread and
// computed once per point. What could go wrong: pieces that miss or repeat items, a first mismatch
// that is another piece's later one, a cache that recomputes, mixes keys or types, or outgrows
// its budget.
#include "nvbench/host_reference.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

using bench::cached_reference;

TEST(BenchHostReference, PiecesCoverEveryIndexOnce) {
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(65535), std::size_t(65536),
                                std::size_t(1 << 20) + 3}) {
        const auto pieces = bench::pieces_of(n);
        ASSERT_FALSE(pieces.empty()) << n;
        EXPECT_EQ(pieces.front().first, 0u) << n;
        EXPECT_EQ(pieces.back().second, n) << n;
        for (std::size_t p = 1; p < pieces.size(); ++p) EXPECT_EQ(pieces[p].first, pieces[p - 1].second) << n;
        std::vector<int> seen(n, 0);
        bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) ++seen[i];
        });
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1) << "n " << n << ", index " << i;
    }
}

TEST(BenchHostReference, GeneratedIsItemByItem) {
    const std::size_t n = (1 << 20) + 7;
    const std::vector<long long> made =
        bench::generated<long long>(n, [](std::size_t i) { return static_cast<long long>(i) * 3 - 5; });
    ASSERT_EQ(made.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(made[i], static_cast<long long>(i) * 3 - 5) << i;
}

TEST(BenchHostReference, FirstMismatchIsTheLeastIndex) {
    const std::size_t n = (1 << 21) + 5;
    std::vector<int> expected(n, 7), got(n, 7);
    EXPECT_EQ(bench::first_unequal(got.data(), expected.data(), n), n);
    EXPECT_EQ(bench::first_unequal(got.data(), expected.data(), 0), 0u);
    got[n - 1] = 0;  // in the last piece
    EXPECT_EQ(bench::first_unequal(got.data(), expected.data(), n), n - 1);
    got[n / 2 + 1] = 0;  // in a middle piece, and later in the first piece's range than this one
    got[12] = 0;
    got[13] = 0;
    EXPECT_EQ(bench::first_unequal(got.data(), expected.data(), n), 12u);
}

// A reference whose footprint is what the test says, without holding it.
struct Claimed {
    std::size_t bytes;
    int id;
    std::size_t footprint() const { return bytes; }
};

TEST(BenchHostReference, CachedReferenceIsComputedOncePerKeyAndType) {
    int computed = 0;
    const auto make = [&] {
        ++computed;
        return std::vector<int>{1, 2, 3};
    };
    const auto first = cached_reference<std::vector<int>>("test once", make);
    const auto again = cached_reference<std::vector<int>>("test once", make);
    EXPECT_EQ(computed, 1);
    EXPECT_EQ(first.get(), again.get());
    EXPECT_EQ(*again, (std::vector<int>{1, 2, 3}));
    const auto other = cached_reference<std::vector<int>>("test once, other key", make);
    EXPECT_EQ(computed, 2);
    // The same key of another type is another entry.
    const auto as_long = cached_reference<std::vector<long>>("test once", [] { return std::vector<long>{9}; });
    EXPECT_EQ(*as_long, std::vector<long>{9});
    EXPECT_EQ(*cached_reference<std::vector<int>>("test once", make), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(computed, 2);
}

TEST(BenchHostReference, CacheGivesUpTheLeastRecentlyUsedPastItsBudget) {
    int computed = 0;
    const auto claim = [&](std::size_t bytes, int id) {
        return [&computed, bytes, id] {
            ++computed;
            return Claimed{bytes, id};
        };
    };
    const std::size_t third = bench::kReferenceCacheBytes / 3;
    cached_reference<Claimed>("lru a", claim(third, 1));
    cached_reference<Claimed>("lru b", claim(third, 2));
    cached_reference<Claimed>("lru a", claim(third, 1));  // a is now the most recently used
    EXPECT_EQ(computed, 2);
    cached_reference<Claimed>("lru c", claim(2 * third, 3));  // past the budget: b goes, a stays
    EXPECT_EQ(computed, 3);
    EXPECT_EQ(cached_reference<Claimed>("lru a", claim(third, 1))->id, 1);
    EXPECT_EQ(computed, 3);
    EXPECT_EQ(cached_reference<Claimed>("lru b", claim(third, 2))->id, 2);
    EXPECT_EQ(computed, 4);
    // Larger than the whole budget: never kept, computed each time.
    cached_reference<Claimed>("lru huge", claim(bench::kReferenceCacheBytes + 1, 4));
    cached_reference<Claimed>("lru huge", claim(bench::kReferenceCacheBytes + 1, 4));
    EXPECT_EQ(computed, 6);
}

}  // namespace
