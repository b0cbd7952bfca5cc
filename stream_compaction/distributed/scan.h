#pragma once
// Distributed exclusive sum: the global array is the concatenation of the ranks' shards in rank
// order; each rank gets its shard of the exclusive prefix sum of the whole.
//
//   1. local reduce of the shard (one read), giving the rank's total;
//   2. ncclAllGather of the totals (one number per rank);
//   3. the host waits for the totals, adds those of the ranks before this one (in rank order, so
//      float sums are the same on every rank), and
//   4. runs the single-pass exclusive_scan of the shard with that offset as its init: one read and
//      one write of the shard.
//
// Why the offset is computed on the host after a wait: the single-pass scan takes its init as a
// kernel argument. Seeding it from device memory instead would take the transform scan (per-item
// loads, not in place, slower at large n) or a second kernel; the wait costs one host round trip
// (~10-30 us) per call, under 1% of a scan of 2^30 items per GPU. The price: the call blocks its
// host thread until the totals arrive, and a capturing stream is refused (require_not_capturing).
//
// Every rank calls it (collective), with its communicator's device current, shards of any size,
// empty included. d_out may equal d_in. Returns the sum of the whole array (every rank gets the
// same). Integer sums wrap as on one GPU; float and double sums differ from a one-GPU scan only by
// rounding (the order of additions differs).
#include <stream_compaction/distributed/communicator.h>

#include <cstddef>

namespace StreamCompaction {
namespace distributed {

// T: std::int32_t, std::int64_t, float, double.
template <class T>
T exclusive_sum(const Communicator &comm, const T *d_in, T *d_out, std::size_t n, Workspace &ws,
                cudaStream_t stream = 0);

}  // namespace distributed
}  // namespace StreamCompaction
