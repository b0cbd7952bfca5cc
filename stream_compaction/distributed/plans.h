#pragma once
// The host-side plans of the distributed primitives (one rank per GPU, NCCL moving the data): who
// holds what, who sends what to whom. Plain C++, computed from small all-gathered numbers, so that
// the CPU tests check every rule the device code follows.
//
// Ranks are 0 .. ranks - 1; the global array is the concatenation of the ranks' shards in rank order.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

// The few rules the device code applies too (split_among_equal_keys) are compiled for both sides.
#if defined(__CUDACC__)
#define SC_PLAN_HOST_DEVICE __host__ __device__
#else
#define SC_PLAN_HOST_DEVICE
#endif

namespace StreamCompaction {
namespace distributed {

// ---- shards ----

// The balanced split of `total` items over `ranks`: rank r holds [balanced_begin(total, ranks, r),
// balanced_begin(total, ranks, r + 1)); the first total % ranks ranks hold one item more.
std::size_t balanced_begin(std::size_t total, int ranks, int rank);

// Exclusive prefix of the per-rank counts (ranks + 1 entries): where each rank's shard starts in
// the global array, and the total last. The distributed scan seeds each rank's local scan with its
// rank's entry of the all-gathered totals this way.
std::vector<std::size_t> shard_offsets(const std::vector<std::size_t> &counts);

// ---- moving a concatenation to new shard boundaries ----

// `count` items at `offset` of the local array go to, or come from, rank `peer`.
struct Transfer {
    int peer;
    std::size_t offset;
    std::size_t count;
};

// What rank `rank` sends and receives so that the concatenation of shards with `counts` items
// (all-gathered; e.g. each rank's count after a local compaction) ends up balanced: every item
// keeps its global position, and rank r holds the balanced shard r. Sends are offsets into the
// rank's current shard, receives into its new one; both in peer order, with no empty transfer
// (its own part is a transfer to itself).
struct RebalancePlan {
    std::vector<Transfer> sends;
    std::vector<Transfer> receives;
    std::size_t new_count;
};
RebalancePlan plan_rebalance(const std::vector<std::size_t> &counts, int rank);

// ---- sample sort ----

// A splitter: a key and where it was sampled, so that equal keys are ordered too (by rank, then
// position in that rank's sorted shard) and a run of equal keys can be split between buckets.
template <class Key>
struct Splitter {
    Key key;
    int rank;
    std::size_t position;
};

template <class Key>
bool operator<(const Splitter<Key> &a, const Splitter<Key> &b) {
    if (a.key < b.key) return true;
    if (b.key < a.key) return false;
    return a.rank != b.rank ? a.rank < b.rank : a.position < b.position;
}

// The distance between samples: about `per_rank` samples per rank over `total` keys (all ranks'
// counts, all-gathered first), at least 1. Every rank samples its shard at this one distance, so
// each sample stands for the same number of keys however unequal the shards are.
std::size_t sample_interval(std::size_t total, int ranks, int per_rank);

// The samples of a sorted shard of n keys: positions interval / 2, interval / 2 + interval, ...
std::vector<std::size_t> regular_sample_positions(std::size_t n, std::size_t interval);

// The ranks - 1 splitters, from every rank's regular samples (all-gathered, any order): the
// samples sorted, and every (samples / ranks)-th taken. Each rank's part of a bucket is then off by
// less than one interval, so no bucket gets more than total / ranks + ranks * interval keys, equal
// keys included (they are told apart by rank and position).
template <class Key>
std::vector<Splitter<Key>> choose_splitters(std::vector<Splitter<Key>> samples, int ranks) {
    if (ranks < 1) throw std::invalid_argument("choose_splitters: " + std::to_string(ranks) + " ranks");
    std::sort(samples.begin(), samples.end());
    std::vector<Splitter<Key>> splitters;
    if (samples.empty()) return splitters;
    for (int k = 1; k < ranks; ++k) splitters.push_back(samples[k * samples.size() / ranks]);
    return splitters;
}

// Where a splitter sampled on rank `splitter_rank` at `splitter_position` cuts rank `rank`'s sorted
// shard, whose keys equal to the splitter's are [below, equal_end): all of them go before it from
// a lower rank, none from a higher one, and on its own rank those before its position.
SC_PLAN_HOST_DEVICE inline std::size_t split_among_equal_keys(std::size_t below, std::size_t equal_end, int rank,
                                                              int splitter_rank, std::size_t splitter_position) {
    if (rank < splitter_rank) return equal_end;
    if (rank > splitter_rank) return below;
    return splitter_position < below ? below : splitter_position > equal_end ? equal_end : splitter_position;
}

// The most keys any rank holds after a sample sort of `total` keys with `per_rank` samples per rank
// (sample_interval), whatever the shards and however many keys are equal: fewer than
// total / ranks + (ranks + 2) * interval, and never more than total. Why: a rank's keys before a
// splitter are within one interval of its samples before it (regular samples), and the splitters
// are every (samples / ranks)-th of the sorted samples, of which there are at most
// total / interval + ranks.
std::size_t sample_sort_bound(std::size_t total, int ranks, int per_rank);

// Where rank `rank`'s sorted shard splits into the buckets: ranks + 1 bounds, bucket b (for rank b)
// being [bounds[b], bounds[b + 1]). Item i of the shard goes before splitter s when
// (key[i], rank, i) < s. Few splitters: a binary search each. With fewer than ranks - 1 splitters
// (no keys anywhere were sampled), the last buckets are empty.
template <class Key>
std::vector<std::size_t> bucket_bounds(const Key *sorted, std::size_t n, int rank, int ranks,
                                       const std::vector<Splitter<Key>> &splitters) {
    if (ranks < 1 || rank < 0 || rank >= ranks || splitters.size() >= static_cast<std::size_t>(ranks))
        throw std::invalid_argument("bucket_bounds: rank " + std::to_string(rank) + " of " + std::to_string(ranks) +
                                    " with " + std::to_string(splitters.size()) + " splitters");
    std::vector<std::size_t> bounds{0};
    for (const Splitter<Key> &s : splitters) {
        // Items before s: keys below s.key, then of the keys equal to it those that (rank, index)
        // puts before (s.rank, s.position).
        const std::size_t below = std::lower_bound(sorted, sorted + n, s.key) - sorted;
        const std::size_t equal_end = std::upper_bound(sorted + below, sorted + n, s.key) - sorted;
        const std::size_t split = split_among_equal_keys(below, equal_end, rank, s.rank, s.position);
        bounds.push_back(std::max(split, bounds.back()));
    }
    while (bounds.size() <= static_cast<std::size_t>(ranks)) bounds.push_back(n);
    return bounds;
}

// ---- SpMV halo ----

// What rank `rank` needs of x for its rows of a 1D row partition, x split by `column_begin`
// (ranks + 1 entries: rank r owns columns [column_begin[r], column_begin[r + 1])). Its local x is
// its own columns, then the halo: the columns of other ranks its rows touch, sorted (so grouped by
// owner). `local_columns` are the rows' column indices in that local x.
struct HaloNeeds {
    std::vector<int> halo_columns;             // global indices, sorted, none of this rank's
    std::vector<std::size_t> receive_offsets;  // ranks + 1: the halo's part from each peer
    std::vector<int> local_columns;            // nnz entries, indices into own columns + halo
};
HaloNeeds plan_halo(const std::vector<int> &columns, const std::vector<long long> &column_begin, int rank);

// What rank `rank` sends to each peer, from the peers' requests (peer p's halo_columns owned by
// this rank, e.g. gathered once when the plan is made): indices into this rank's own x, and
// ranks + 1 offsets of each peer's part.
struct HaloSends {
    std::vector<int> local_indices;
    std::vector<std::size_t> offsets;
};
HaloSends plan_halo_sends(const std::vector<std::vector<int>> &requests, const std::vector<long long> &column_begin,
                          int rank);

}  // namespace distributed
}  // namespace StreamCompaction
