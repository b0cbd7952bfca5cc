#pragma once
// Distributed sort of int32 keys, alone or carrying int32 values: sample sort. The global array is
// the concatenation of the ranks' shards in rank order; afterwards rank r holds the r-th run of the
// sorted array, and the runs are balanced within sample_sort_capacity.
//
//   1. ncclAllGather of every rank's (count, capacity);
//   2. local radix sort of the shard (Onesweep, radix_sort.cuh);
//   3. regular samples of the sorted shard, one every sample_interval(total, ranks,
//      kSortSamplesPerRank) keys (the same distance on every rank, so unequal shards sample in
//      proportion), ncclAllGather'ed; the host chooses the ranks - 1 splitters (choose_splitters),
//      ordered by (key, rank, position), so that a run of equal keys, even all keys equal, is split
//      between ranks like distinct keys;
//   4. each rank cuts its sorted shard at the splitters on the device (the same rule as
//      bucket_bounds), and the ranks all-gather their bucket counts: every rank sees the whole
//      ranks x ranks matrix, so all check every rank's capacity alike before anything moves;
//   5. one all-to-all of the buckets: a group of ncclSend/ncclRecv (bucket sizes differ, which
//      ncclAlltoAll's equal counts cannot express), the rank's own bucket a device copy;
//   6. the received runs (sorted, in source-rank order) are merged pairwise (device/merge.cuh),
//      ceil(log2(runs)) rounds each reading and writing every item once, into the output, or
//      copied when a single rank sent them all.
//
// Stable: equal keys (and their values) keep their global input order, since the local sort and
// the merges are stable (a merge puts the earlier run's equal keys first) and the buckets split
// and concatenate in (key, rank, position) order.
//
// Every rank calls it (collective), with its communicator's device current; shards of any size,
// empty included. The host waits three times (counts, samples, bucket counts). Outputs must not
// overlap inputs.
#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/distributed/placement.h>

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace distributed {

// Regular samples per rank. With p ranks a rank receives fewer than total / p + (p + 2) * interval
// keys, interval being about total / (p * kSortSamplesPerRank): over the balanced share by at most
// (p + 2) / kSortSamplesPerRank of it (1% with 8 ranks).
constexpr int kSortSamplesPerRank = 1024;

// The most keys any rank can receive when `total` keys are sorted over `ranks` ranks: size each
// rank's output for it (sample_sort_bound in plans.h with kSortSamplesPerRank; at most total).
std::size_t sample_sort_capacity(std::size_t total, int ranks);

// Sorts the keys of every rank's shard d_keys[0, n) into d_keys_out (capacity keys). Returns where
// the rank's run sits in the sorted array. Throws std::length_error on every rank alike when some
// rank's run would not fit its capacity (nothing has moved then).
Placement sample_sort_keys(const Communicator &comm, const std::int32_t *d_keys, std::size_t n,
                           std::int32_t *d_keys_out, std::size_t capacity, Workspace &ws, cudaStream_t stream = 0);

// The same with a value carried by each key.
Placement sample_sort_pairs(const Communicator &comm, const std::int32_t *d_keys, const std::int32_t *d_values,
                            std::size_t n, std::int32_t *d_keys_out, std::int32_t *d_values_out, std::size_t capacity,
                            Workspace &ws, cudaStream_t stream = 0);

}  // namespace distributed
}  // namespace StreamCompaction
