// The distributed primitives' host plans (distributed/plans.h), with every rank simulated on the
// CPU: the transfers they plan, carried out on plain vectors, give the single-array result.
#include <gtest/gtest.h>

#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/io/matrix_generators.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace SC = StreamCompaction;
namespace D = StreamCompaction::distributed;

namespace {

// Shard sizes worth trying: balanced, ragged with empties, all on one rank, one rank only.
std::vector<std::vector<std::size_t>> shardShapes(std::mt19937 &rng) {
    std::vector<std::vector<std::size_t>> shapes{{0}, {17}, {0, 0, 0}, {1000, 0, 0, 0}, {0, 0, 0, 999},
                                                 {5, 0, 12, 0, 3}, {250, 250, 250, 250}, {1, 2, 3, 4, 5, 6, 7, 8}};
    for (int i = 0; i < 20; ++i) {
        std::vector<std::size_t> counts(1 + rng() % 8);
        for (std::size_t &c : counts) c = rng() % 4 == 0 ? 0 : rng() % 3000;
        shapes.push_back(counts);
    }
    return shapes;
}

TEST(DistributedPlans, BalancedShardsCoverTheArray) {
    for (const std::size_t total : {0, 1, 7, 8, 9, 1000003})
        for (const int ranks : {1, 2, 3, 8}) {
            EXPECT_EQ(D::balanced_begin(total, ranks, 0), 0u);
            EXPECT_EQ(D::balanced_begin(total, ranks, ranks), total);
            for (int r = 0; r < ranks; ++r) {
                const std::size_t size = D::balanced_begin(total, ranks, r + 1) - D::balanced_begin(total, ranks, r);
                EXPECT_TRUE(size == total / ranks || size == total / ranks + 1) << total << " over " << ranks;
            }
        }
    EXPECT_THROW(D::balanced_begin(10, 0, 0), std::invalid_argument);
    EXPECT_THROW(D::balanced_begin(10, 4, 5), std::invalid_argument);
}

TEST(DistributedPlans, RebalanceMovesEveryItemToItsBalancedRank) {
    std::mt19937 rng(1);
    for (const std::vector<std::size_t> &counts : shardShapes(rng)) {
        const int ranks = static_cast<int>(counts.size());
        const std::vector<std::size_t> begin = D::shard_offsets(counts);
        // Item g of the global array is the value g; rank r's old shard holds [begin[r], begin[r + 1]).
        std::vector<std::vector<long long>> fresh(ranks);
        std::vector<D::RebalancePlan> plans;
        for (int r = 0; r < ranks; ++r) plans.push_back(D::plan_rebalance(counts, r));
        for (int r = 0; r < ranks; ++r) fresh[r].assign(plans[r].new_count, -1);
        for (int r = 0; r < ranks; ++r)
            for (const D::Transfer &send : plans[r].sends) {
                // The peer's receive from r, of the same size, is where these items land.
                const auto &receives = plans[send.peer].receives;
                const auto match = std::find_if(receives.begin(), receives.end(),
                                                [&](const D::Transfer &t) { return t.peer == r; });
                ASSERT_NE(match, receives.end()) << "rank " << send.peer << " expects nothing from " << r;
                ASSERT_EQ(match->count, send.count);
                for (std::size_t k = 0; k < send.count; ++k)
                    fresh[send.peer][match->offset + k] = static_cast<long long>(begin[r] + send.offset + k);
            }
        for (int r = 0; r < ranks; ++r)
            for (std::size_t k = 0; k < fresh[r].size(); ++k)
                ASSERT_EQ(fresh[r][k], static_cast<long long>(D::balanced_begin(begin.back(), ranks, r) + k))
                    << "rank " << r << " of " << ranks << ", item " << k;
    }
}

template <class Key>
void checkSampleSort(const std::vector<std::vector<Key>> &shards, int per_rank) {
    const int ranks = static_cast<int>(shards.size());
    std::vector<std::vector<Key>> sorted = shards;
    std::size_t n = 0;
    for (const auto &shard : shards) n += shard.size();
    const std::size_t interval = D::sample_interval(n, ranks, per_rank);
    std::vector<D::Splitter<Key>> gathered;
    for (int r = 0; r < ranks; ++r) {
        std::sort(sorted[r].begin(), sorted[r].end());
        for (const std::size_t p : D::regular_sample_positions(sorted[r].size(), interval))
            gathered.push_back({sorted[r][p], r, p});
    }
    const std::vector<D::Splitter<Key>> splitters = D::choose_splitters(gathered, ranks);
    std::vector<std::vector<Key>> buckets(ranks);
    for (int r = 0; r < ranks; ++r) {
        const std::vector<std::size_t> bounds =
            D::bucket_bounds(sorted[r].data(), sorted[r].size(), r, ranks, splitters);
        ASSERT_EQ(bounds.size(), static_cast<std::size_t>(ranks) + 1);
        ASSERT_TRUE(std::is_sorted(bounds.begin(), bounds.end()));
        for (int b = 0; b < ranks; ++b)
            buckets[b].insert(buckets[b].end(), sorted[r].begin() + bounds[b], sorted[r].begin() + bounds[b + 1]);
    }
    std::vector<Key> all, expected;
    for (int b = 0; b < ranks; ++b) {
        std::sort(buckets[b].begin(), buckets[b].end());
        all.insert(all.end(), buckets[b].begin(), buckets[b].end());
        // Each rank's part of a bucket is off by less than one sampling interval.
        const std::size_t bound = n / ranks + 1 + ranks * interval;
        EXPECT_LE(buckets[b].size(), bound) << "bucket " << b << " of " << ranks << ", " << n << " keys";
        // The bound the distributed sort states and sizes its outputs by.
        EXPECT_LE(buckets[b].size(), D::sample_sort_bound(n, ranks, per_rank)) << "bucket " << b << " of " << ranks;
    }
    for (const auto &shard : shards) expected.insert(expected.end(), shard.begin(), shard.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(all, expected);
}

TEST(DistributedPlans, SampleSortBucketsConcatenateToTheSortedArray) {
    std::mt19937 rng(2);
    for (const std::vector<std::size_t> &counts : shardShapes(rng))
        for (const int distinct : {1, 3, 1000000}) {  // all keys equal, few distinct, mostly distinct
            std::vector<std::vector<int>> shards;
            for (const std::size_t c : counts) {
                std::vector<int> shard(c);
                for (int &k : shard) k = static_cast<int>(rng() % distinct) - distinct / 2;
                shards.push_back(shard);
            }
            SCOPED_TRACE(std::to_string(counts.size()) + " ranks, " + std::to_string(distinct) + " distinct keys");
            checkSampleSort(shards, 16);
        }
}

TEST(DistributedPlans, SplittersSplitRunsOfEqualKeys) {
    // Every key equal and on one rank: the splitters' positions still spread it over the ranks.
    checkSampleSort(std::vector<std::vector<long long>>{std::vector<long long>(4000, 42), {}, {}, {}}, 16);
}

TEST(DistributedPlans, SampleSortBoundHoldsForSkewedShards) {
    // Few samples per rank make the bound tight enough to matter; every key on one rank, equal keys.
    std::mt19937 rng(5);
    for (const int ranks : {2, 3, 8})
        for (const int per_rank : {1, 2, 4}) {
            std::vector<std::vector<int>> shards(ranks);
            shards[ranks - 1].assign(997, 7);
            for (int &k : shards[0] = std::vector<int>(50)) k = static_cast<int>(rng() % 5);
            SCOPED_TRACE(std::to_string(ranks) + " ranks, " + std::to_string(per_rank) + " samples per rank");
            checkSampleSort(shards, per_rank);
        }
    EXPECT_EQ(D::sample_sort_bound(0, 4, 16), 0u);
    EXPECT_EQ(D::sample_sort_bound(10, 1, 16), 10u);  // never more than the total
}

TEST(DistributedPlans, SplitAmongEqualKeysFollowsRankThenPosition) {
    EXPECT_EQ(D::split_among_equal_keys(3, 9, 0, 1, 5), 9u);  // a lower rank: all its equal keys go first
    EXPECT_EQ(D::split_among_equal_keys(3, 9, 2, 1, 5), 3u);  // a higher rank: none of them
    EXPECT_EQ(D::split_among_equal_keys(3, 9, 1, 1, 5), 5u);  // its own rank: those before the position
    EXPECT_EQ(D::split_among_equal_keys(3, 9, 1, 1, 1), 3u);
    EXPECT_EQ(D::split_among_equal_keys(3, 9, 1, 1, 12), 9u);
}

TEST(DistributedPlans, HaloExchangeGivesTheSingleArrayProduct) {
    const SC::CsrMatrix<double> a = SC::power_law(3001, 2999, 1.5, 2, 3);
    std::mt19937 rng(4);
    std::vector<double> x(a.cols);
    for (double &v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
    std::vector<double> expected(a.rows, 0.0);
    for (int r = 0; r < a.rows; ++r)
        for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) expected[r] += a.values[k] * x[a.column_indices[k]];

    for (const int ranks : {1, 2, 3, 7}) {
        std::vector<long long> column_begin, row_begin;
        for (int r = 0; r <= ranks; ++r) {
            column_begin.push_back(static_cast<long long>(D::balanced_begin(a.cols, ranks, r)));
            row_begin.push_back(static_cast<long long>(D::balanced_begin(a.rows, ranks, r)));
        }
        std::vector<D::HaloNeeds> needs;
        for (int r = 0; r < ranks; ++r) {
            const std::vector<int> columns(a.column_indices.begin() + a.row_offsets[row_begin[r]],
                                           a.column_indices.begin() + a.row_offsets[row_begin[r + 1]]);
            needs.push_back(D::plan_halo(columns, column_begin, r));
        }
        for (int r = 0; r < ranks; ++r) {
            // Rank r's requests to each peer, gathered as the peers would receive them.
            std::vector<std::vector<int>> requests(ranks);
            for (int p = 0; p < ranks; ++p)
                requests[p].assign(needs[p].halo_columns.begin() + needs[p].receive_offsets[r],
                                   needs[p].halo_columns.begin() + needs[p].receive_offsets[r + 1]);
            const D::HaloSends sends = D::plan_halo_sends(requests, column_begin, r);
            // Carry out r's sends into each peer's local x, then check those peers' products below.
            for (int p = 0; p < ranks; ++p)
                for (std::size_t k = sends.offsets[p]; k < sends.offsets[p + 1]; ++k)
                    ASSERT_EQ(column_begin[r] + sends.local_indices[k],
                              needs[p].halo_columns[needs[p].receive_offsets[r] + (k - sends.offsets[p])]);
        }
        for (int r = 0; r < ranks; ++r) {
            std::vector<double> local_x(x.begin() + column_begin[r], x.begin() + column_begin[r + 1]);
            for (const int c : needs[r].halo_columns) local_x.push_back(x[c]);
            const std::size_t first = a.row_offsets[row_begin[r]];
            for (long long row = row_begin[r]; row < row_begin[r + 1]; ++row) {
                double y = 0;
                for (int k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
                    y += a.values[k] * local_x[needs[r].local_columns[k - first]];
                ASSERT_EQ(y, expected[row]) << "row " << row << " on rank " << r << " of " << ranks;
            }
        }
    }
}

TEST(DistributedPlans, RefuseBadPartitions) {
    EXPECT_THROW(D::plan_halo({0, 5}, {0, 3}, 0), std::invalid_argument);  // column 5 outside [0, 3)
    EXPECT_THROW(D::plan_halo({0}, {1, 3}, 0), std::invalid_argument);     // must start at 0
    EXPECT_THROW(D::plan_halo({0}, {0, 3}, 1), std::invalid_argument);     // no rank 1
    EXPECT_THROW(D::plan_halo_sends({{2}, {}}, {0, 2, 4}, 0), std::invalid_argument);  // column 2 is rank 1's
    EXPECT_THROW(D::plan_rebalance({}, 0), std::invalid_argument);
}

}  // namespace
