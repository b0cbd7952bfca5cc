#include <stream_compaction/distributed/plans.h>

#include <numeric>

namespace StreamCompaction {
namespace distributed {
namespace {

void require_ranks(const char *name, int ranks, int rank) {
    if (ranks < 1 || rank < 0 || rank >= ranks)
        throw std::invalid_argument(std::string(name) + ": rank " + std::to_string(rank) + " of " +
                                    std::to_string(ranks));
}

// The owner of global column c under `column_begin` (sorted, ranks + 1 entries).
int owner_of(long long c, const std::vector<long long> &column_begin) {
    return static_cast<int>(std::upper_bound(column_begin.begin(), column_begin.end(), c) - column_begin.begin()) - 1;
}

void require_partition(const char *name, const std::vector<long long> &column_begin, int rank) {
    if (column_begin.size() < 2 || column_begin.front() != 0 ||
        !std::is_sorted(column_begin.begin(), column_begin.end()))
        throw std::invalid_argument(std::string(name) + ": column_begin must start at 0 and not decrease");
    require_ranks(name, static_cast<int>(column_begin.size()) - 1, rank);
}

}  // namespace

std::size_t balanced_begin(std::size_t total, int ranks, int rank) {
    if (ranks < 1 || rank < 0 || rank > ranks)
        throw std::invalid_argument("balanced_begin: rank " + std::to_string(rank) + " of " + std::to_string(ranks));
    const std::size_t r = static_cast<std::size_t>(rank), p = static_cast<std::size_t>(ranks);
    return r * (total / p) + std::min(r, total % p);
}

std::vector<std::size_t> shard_offsets(const std::vector<std::size_t> &counts) {
    std::vector<std::size_t> offsets(counts.size() + 1, 0);
    std::partial_sum(counts.begin(), counts.end(), offsets.begin() + 1);
    return offsets;
}

RebalancePlan plan_rebalance(const std::vector<std::size_t> &counts, int rank) {
    const int ranks = static_cast<int>(counts.size());
    require_ranks("plan_rebalance", ranks, rank);
    const std::vector<std::size_t> old_begin = shard_offsets(counts);
    const std::size_t total = old_begin.back();
    RebalancePlan plan{{}, {}, balanced_begin(total, ranks, rank + 1) - balanced_begin(total, ranks, rank)};
    // Each peer's overlap of two global ranges: its new shard with this rank's old one (sends), its
    // old shard with this rank's new one (receives).
    const auto overlap = [](std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1) {
        return std::make_pair(std::max(a0, b0), std::min(a1, b1));
    };
    const std::size_t new_begin = balanced_begin(total, ranks, rank), new_end = new_begin + plan.new_count;
    for (int peer = 0; peer < ranks; ++peer) {
        const auto [send0, send1] = overlap(old_begin[rank], old_begin[rank + 1], balanced_begin(total, ranks, peer),
                                            balanced_begin(total, ranks, peer + 1));
        if (send0 < send1) plan.sends.push_back({peer, send0 - old_begin[rank], send1 - send0});
        const auto [receive0, receive1] = overlap(new_begin, new_end, old_begin[peer], old_begin[peer + 1]);
        if (receive0 < receive1) plan.receives.push_back({peer, receive0 - new_begin, receive1 - receive0});
    }
    return plan;
}

std::size_t sample_interval(std::size_t total, int ranks, int per_rank) {
    if (ranks < 1 || per_rank < 1)
        throw std::invalid_argument("sample_interval: " + std::to_string(per_rank) + " samples per rank of " +
                                    std::to_string(ranks));
    const std::size_t samples = static_cast<std::size_t>(ranks) * static_cast<std::size_t>(per_rank);
    return std::max<std::size_t>(1, (total + samples - 1) / samples);
}

std::size_t sample_sort_bound(std::size_t total, int ranks, int per_rank) {
    const std::size_t interval = sample_interval(total, ranks, per_rank);
    const std::size_t p = static_cast<std::size_t>(ranks);
    return std::min(total, (total + p - 1) / p + (p + 2) * interval);
}

std::vector<std::size_t> regular_sample_positions(std::size_t n, std::size_t interval) {
    if (interval == 0) throw std::invalid_argument("regular_sample_positions: interval 0");
    std::vector<std::size_t> positions;
    for (std::size_t p = interval / 2; p < n; p += interval) positions.push_back(p);
    return positions;
}

HaloNeeds plan_halo(const std::vector<int> &columns, const std::vector<long long> &column_begin, int rank) {
    require_partition("plan_halo", column_begin, rank);
    const int ranks = static_cast<int>(column_begin.size()) - 1;
    const long long own0 = column_begin[rank], own1 = column_begin[rank + 1];
    HaloNeeds needs;
    for (const int c : columns) {
        if (c < 0 || c >= column_begin.back())
            throw std::invalid_argument("plan_halo: column " + std::to_string(c) + " outside [0, " +
                                        std::to_string(column_begin.back()) + ")");
        if (c < own0 || c >= own1) needs.halo_columns.push_back(c);
    }
    std::sort(needs.halo_columns.begin(), needs.halo_columns.end());
    needs.halo_columns.erase(std::unique(needs.halo_columns.begin(), needs.halo_columns.end()), needs.halo_columns.end());
    needs.receive_offsets.assign(ranks + 1, 0);
    for (int peer = 0; peer <= ranks; ++peer)
        needs.receive_offsets[peer] = std::lower_bound(needs.halo_columns.begin(), needs.halo_columns.end(),
                                                       peer < ranks ? column_begin[peer] : column_begin.back()) -
                                      needs.halo_columns.begin();
    const long long own = own1 - own0;
    needs.local_columns.reserve(columns.size());
    for (const int c : columns)
        needs.local_columns.push_back(
            c >= own0 && c < own1
                ? static_cast<int>(c - own0)
                : static_cast<int>(own + (std::lower_bound(needs.halo_columns.begin(), needs.halo_columns.end(), c) -
                                          needs.halo_columns.begin())));
    return needs;
}

HaloSends plan_halo_sends(const std::vector<std::vector<int>> &requests, const std::vector<long long> &column_begin,
                          int rank) {
    require_partition("plan_halo_sends", column_begin, rank);
    const int ranks = static_cast<int>(column_begin.size()) - 1;
    if (static_cast<int>(requests.size()) != ranks)
        throw std::invalid_argument("plan_halo_sends: " + std::to_string(requests.size()) + " request lists for " +
                                    std::to_string(ranks) + " ranks");
    HaloSends sends{{}, {0}};
    for (int peer = 0; peer < ranks; ++peer) {
        for (const int c : requests[peer]) {
            if (owner_of(c, column_begin) != rank)
                throw std::invalid_argument("plan_halo_sends: rank " + std::to_string(peer) + " asks rank " +
                                            std::to_string(rank) + " for column " + std::to_string(c) + ", not its own");
            sends.local_indices.push_back(static_cast<int>(c - column_begin[rank]));
        }
        sends.offsets.push_back(sends.local_indices.size());
    }
    return sends;
}

}  // namespace distributed
}  // namespace StreamCompaction
