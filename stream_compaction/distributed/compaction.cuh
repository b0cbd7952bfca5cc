#pragma once
// Distributed compaction and rebalancing. The global array is the concatenation of the ranks'
// shards in rank order; compaction keeps the items a predicate accepts, in their global order.
//
//   1. local single-pass select_if (one read of the shard, one write of the kept items);
//   2. ncclAllGather of every rank's (kept count, output capacity), read by the host: every rank
//      then knows where its kept items start in the global result;
//   3. Balance::Rebalance only: the kept items move to balanced shards (rank r holds
//      [balanced_begin(kept, ranks, r), balanced_begin(kept, ranks, r + 1)) of the result),
//      following plan_rebalance, in one group of ncclSend/ncclRecv; each item keeps its global
//      position, and the part a rank keeps is a device copy.
//
// Every rank calls it (collective), with its communicator's device current; shards of any size,
// empty included. The host waits for the counts (step 2). d_out must not overlap d_in.
// Capacity: Balance::Keep writes up to n items to d_out, so it needs capacity >= n (checked on
// the rank, before any communication: a rank that throws here leaves its peers waiting, so give
// every rank a valid output). Balance::Rebalance needs capacity >= the rank's balanced share,
// checked on every rank alike after step 2 (std::length_error everywhere, before any transfer).
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/distributed/placement.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace distributed {

// Keeps the items of this rank's shard d_in[0, n) for which pred(item) is true (a device functor,
// as for select_if); see the top of this file for the steps, capacity and balance.
template <class T, class Pred>
Placement compact_if(const Communicator &comm, const T *d_in, std::size_t n, T *d_out, std::size_t capacity, Pred pred,
                     Balance balance, Workspace &ws, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("distributed::compact_if");
    require_device_pointers("distributed::compact_if", n, d_in, d_out);
    comm.require_current_device("distributed::compact_if");
    require_not_capturing("distributed::compact_if", stream);
    if (balance == Balance::Keep && capacity < n)
        throw std::invalid_argument("distributed::compact_if: Balance::Keep needs an output of n = " +
                                    std::to_string(n) + " items, got " + std::to_string(capacity));
    // Slot 0: [the kept count | the selection's storage]; slot 2: the kept items before they move.
    const std::size_t select_bytes = n > 0 ? select_temp_bytes<T>(n) : 0;
    const auto layout = StreamCompaction::detail::temp_layout(sizeof(std::size_t), select_bytes);
    const auto pieces = layout.carve(ws.device(0, layout.bytes()));
    std::size_t *d_count = reinterpret_cast<std::size_t *>(pieces[0]);
    T *d_selected = balance == Balance::Keep ? d_out : static_cast<T *>(internal::selection_storage(ws, n, sizeof(T)));
    if (n > 0)
        select_if(d_in, d_selected, d_count, n, pred, pieces[1], select_bytes, stream);
    else
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return internal::place_selected(comm, d_count, d_selected, sizeof(T), d_out, capacity, balance, ws, stream);
}

// Moves the items of every rank's shard d_in[0, n) so that each rank holds its balanced share of
// their concatenation, in order: rank r receives items [balanced_begin(total, ranks, r),
// balanced_begin(total, ranks, r + 1)). capacity >= that share, checked on every rank alike.
// Collective; the host waits for the counts. d_out must not overlap d_in.
template <class T>
Placement rebalance(const Communicator &comm, const T *d_in, std::size_t n, T *d_out, std::size_t capacity,
                    Workspace &ws, cudaStream_t stream = 0) {
    SC_NVTX_RANGE("distributed::rebalance");
    require_device_pointers("distributed::rebalance", n, d_in, d_out);
    comm.require_current_device("distributed::rebalance");
    require_not_capturing("distributed::rebalance", stream);
    return internal::rebalance_bytes(comm, d_in, n, sizeof(T), d_out, capacity, ws, stream);
}

}  // namespace distributed
}  // namespace StreamCompaction
