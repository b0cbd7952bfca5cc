// The communication half of the distributed compaction and rebalance (compaction.cuh, placement.h): counts
// all-gathered, balanced shards planned by plan_rebalance, the moves in one NCCL group. It works on
// bytes, so one copy serves every element type.
#include <stream_compaction/distributed/placement.h>
#include <stream_compaction/distributed/exchange.h>
#include <stream_compaction/distributed/plans.h>

namespace StreamCompaction {
namespace distributed {
namespace internal {
namespace {

// Moves the items counted in `sizes` (this rank's at d_from) to balanced shards at d_to.
Placement move_to_balanced(const Communicator &comm, const std::vector<ShardSize> &sizes, const void *d_from,
                           std::size_t element_bytes, void *d_to, const char *operation, cudaStream_t stream) {
    std::vector<std::size_t> counts, balanced;
    for (const ShardSize &s : sizes) counts.push_back(s.count);
    const std::size_t total = shard_offsets(counts).back();
    for (int r = 0; r < comm.ranks(); ++r)
        balanced.push_back(balanced_begin(total, comm.ranks(), r + 1) - balanced_begin(total, comm.ranks(), r));
    require_capacities(operation, balanced, sizes);  // every rank alike, before any transfer
    const RebalancePlan plan = plan_rebalance(counts, comm.rank());
    exchange(comm, plan.sends, plan.receives, {{d_from, d_to, element_bytes}}, stream);
    return {plan.new_count, balanced_begin(total, comm.ranks(), comm.rank()), total};
}

}  // namespace

void *selection_storage(Workspace &ws, std::size_t n, std::size_t element_bytes) {
    return ws.device(2, n * element_bytes);
}

Placement place_selected(const Communicator &comm, const std::size_t *d_count, const void *d_selected,
                         std::size_t element_bytes, void *d_out, std::size_t capacity, Balance balance, Workspace &ws,
                         cudaStream_t stream) {
    const std::vector<ShardSize> sizes = gather_shard_sizes(comm, d_count, 0, capacity, ws, 1, stream);
    if (balance == Balance::Rebalance)
        return move_to_balanced(comm, sizes, d_selected, element_bytes, d_out, "distributed::compact_if", stream);
    Placement placement{sizes[comm.rank()].count, 0, 0};
    for (int r = 0; r < comm.ranks(); ++r) {
        if (r == comm.rank()) placement.global_begin = placement.global_count;
        placement.global_count += sizes[r].count;
    }
    return placement;
}

Placement rebalance_bytes(const Communicator &comm, const void *d_in, std::size_t n, std::size_t element_bytes,
                          void *d_out, std::size_t capacity, Workspace &ws, cudaStream_t stream) {
    const std::vector<ShardSize> sizes = gather_shard_sizes(comm, nullptr, n, capacity, ws, 1, stream);
    return move_to_balanced(comm, sizes, d_in, element_bytes, d_out, "distributed::rebalance", stream);
}

}  // namespace internal
}  // namespace distributed
}  // namespace StreamCompaction
