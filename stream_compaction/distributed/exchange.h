#pragma once
// The communication steps the distributed primitives share: small all-gathers whose results the
// host reads (counts, capacities, samples), the collective capacity check, and the exchange of
// planned transfers in one group of ncclSend/ncclRecv.
#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/distributed/plans.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace StreamCompaction {
namespace distributed {

// Every rank's `bytes` bytes at d_mine (device memory), in rank order, read back to the host: one
// ncclAllGather on `stream`, then a wait for it. Uses workspace slot `slot` and the pinned buffer.
std::vector<char> all_gather_to_host(const Communicator &comm, const void *d_mine, std::size_t bytes, Workspace &ws,
                                     int slot, cudaStream_t stream);

template <class T>
std::vector<T> all_gather_to_host(const Communicator &comm, const T *d_mine, std::size_t count, Workspace &ws, int slot,
                                  cudaStream_t stream) {
    const std::vector<char> bytes = all_gather_to_host(comm, static_cast<const void *>(d_mine), count * sizeof(T), ws,
                                                       slot, stream);
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
}

// A rank's item count and the capacity of its output, as every rank sees them.
struct ShardSize {
    std::size_t count;
    std::size_t capacity;
};

// Every rank's (count, capacity), all-gathered and read back: the count from device memory
// (d_count, e.g. a selection's output) or, when d_count is null, `host_count`. Because every rank
// sees every rank's capacity, a check on them fails on all ranks alike (require_capacities), and no
// rank is left waiting in a transfer for a peer that gave up.
std::vector<ShardSize> gather_shard_sizes(const Communicator &comm, const std::size_t *d_count, std::size_t host_count,
                                          std::size_t capacity, Workspace &ws, int slot, cudaStream_t stream);

// Throws std::length_error, on every rank alike, naming the first rank whose `needed[r]` items
// exceed its capacity.
void require_capacities(const char *operation, const std::vector<std::size_t> &needed,
                        const std::vector<ShardSize> &sizes);

// One array that an exchange moves: items at send + offset go out, items land at receive + offset.
struct ExchangedArray {
    const void *send;
    void *receive;
    std::size_t element_bytes;
};

// Carries out the transfers of a plan for each array, all in one ncclGroupStart/End (so that every
// pair of ranks progresses at once, whatever the order): sends[i] from each array's send side to
// sends[i].peer, receives[i] from receives[i].peer. The rank's transfer to itself is a device copy.
// Empty transfers are not in plans (both sides agree on every count, so none waits for nothing).
void exchange(const Communicator &comm, const std::vector<Transfer> &sends, const std::vector<Transfer> &receives,
              const std::vector<ExchangedArray> &arrays, cudaStream_t stream);

}  // namespace distributed
}  // namespace StreamCompaction
