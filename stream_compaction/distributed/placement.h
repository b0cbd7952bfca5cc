#pragma once
// Where a distributed primitive's output sits in the global result, and the non-template halves of
// the compaction and the rebalance (compaction.cuh), which work on bytes: one compiled copy serves
// every element type, and this header needs no CUDA compiler.
#include <stream_compaction/distributed/communicator.h>

#include <cstddef>

namespace StreamCompaction {
namespace distributed {

// Where a rank's output sits in the global result: d_out[0, count) is items
// [global_begin, global_begin + count) of the global_count items of all ranks.
struct Placement {
    std::size_t count;
    std::size_t global_begin;
    std::size_t global_count;
};

enum class Balance {
    Keep,       // each rank keeps its own kept items (no data moves between GPUs)
    Rebalance,  // the kept items move so that every rank holds an equal share (within one item)
};

namespace internal {

// After a selection of `*d_count` items of `element_bytes` each into d_selected: gathers the counts
// and, for Balance::Rebalance, moves them from d_selected to balanced shards in d_out (capacity
// items). For Balance::Keep, d_selected is d_out.
Placement place_selected(const Communicator &comm, const std::size_t *d_count, const void *d_selected,
                         std::size_t element_bytes, void *d_out, std::size_t capacity, Balance balance, Workspace &ws,
                         cudaStream_t stream);

// Storage for a selection of n items of `element_bytes` in workspace slot 2 (Balance::Rebalance).
void *selection_storage(Workspace &ws, std::size_t n, std::size_t element_bytes);

// Moves n items of `element_bytes` at d_in to balanced shards in d_out (rebalance in compaction.cuh).
Placement rebalance_bytes(const Communicator &comm, const void *d_in, std::size_t n, std::size_t element_bytes,
                          void *d_out, std::size_t capacity, Workspace &ws, cudaStream_t stream);

}  // namespace internal

}  // namespace distributed
}  // namespace StreamCompaction
