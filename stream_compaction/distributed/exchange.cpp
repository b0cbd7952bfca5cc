#include <stream_compaction/distributed/exchange.h>

#include <stream_compaction/support/cuda_check.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace StreamCompaction {
namespace distributed {

static_assert(sizeof(std::size_t) == sizeof(std::uint64_t), "counts travel as 64-bit words");

std::vector<char> all_gather_to_host(const Communicator &comm, const void *d_mine, std::size_t bytes, Workspace &ws,
                                     int slot, cudaStream_t stream) {
    const std::size_t all_bytes = bytes * static_cast<std::size_t>(comm.ranks());
    std::vector<char> all(all_bytes);
    if (all_bytes == 0) return all;
    char *d_all = static_cast<char *>(ws.device(slot, all_bytes));
    char *pinned = static_cast<char *>(ws.host(all_bytes));
    SC_NCCL_CHECK(ncclAllGather(d_mine, d_all, bytes, ncclUint8, comm.get(), stream));
    SC_CUDA_CHECK(cudaMemcpyAsync(pinned, d_all, all_bytes, cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::memcpy(all.data(), pinned, all_bytes);
    return all;
}

std::vector<ShardSize> gather_shard_sizes(const Communicator &comm, const std::size_t *d_count, std::size_t host_count,
                                          std::size_t capacity, Workspace &ws, int slot, cudaStream_t stream) {
    // Device slot: [this rank's (count, capacity) | every rank's]. The pinned buffer first stages
    // the host values, then receives the gathered pairs: the copies out of it come first on the
    // stream, so they are done before the copy into it.
    const std::size_t ranks = static_cast<std::size_t>(comm.ranks());
    std::size_t *d_pair = static_cast<std::size_t *>(ws.device(slot, 2 * (ranks + 1) * sizeof(std::size_t)));
    std::size_t *d_all = d_pair + 2;
    std::size_t *pinned = static_cast<std::size_t *>(ws.host(2 * ranks * sizeof(std::size_t)));
    pinned[0] = host_count;
    pinned[1] = capacity;
    if (d_count != nullptr)
        SC_CUDA_CHECK(cudaMemcpyAsync(d_pair, d_count, sizeof(std::size_t), cudaMemcpyDeviceToDevice, stream));
    else
        SC_CUDA_CHECK(cudaMemcpyAsync(d_pair, pinned, sizeof(std::size_t), cudaMemcpyHostToDevice, stream));
    SC_CUDA_CHECK(cudaMemcpyAsync(d_pair + 1, pinned + 1, sizeof(std::size_t), cudaMemcpyHostToDevice, stream));
    SC_NCCL_CHECK(ncclAllGather(d_pair, d_all, 2, ncclUint64, comm.get(), stream));
    SC_CUDA_CHECK(cudaMemcpyAsync(pinned, d_all, 2 * ranks * sizeof(std::size_t), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<ShardSize> sizes(ranks);
    for (std::size_t r = 0; r < ranks; ++r) sizes[r] = {pinned[2 * r], pinned[2 * r + 1]};
    return sizes;
}

void require_capacities(const char *operation, const std::vector<std::size_t> &needed,
                        const std::vector<ShardSize> &sizes) {
    for (std::size_t r = 0; r < needed.size() && r < sizes.size(); ++r)
        if (needed[r] > sizes[r].capacity)
            throw std::length_error(std::string(operation) + ": rank " + std::to_string(r) + " receives " +
                                    std::to_string(needed[r]) + " items but its output holds " +
                                    std::to_string(sizes[r].capacity) + " (every rank throws this)");
}

void exchange(const Communicator &comm, const std::vector<Transfer> &sends, const std::vector<Transfer> &receives,
              const std::vector<ExchangedArray> &arrays, cudaStream_t stream) {
    // The transfer to itself, if any, is a copy: find its receive side.
    const auto self_receive = std::find_if(receives.begin(), receives.end(),
                                           [&](const Transfer &t) { return t.peer == comm.rank(); });
    for (const Transfer &send : sends) {
        if (send.peer != comm.rank()) continue;
        if (self_receive == receives.end() || self_receive->count != send.count)
            throw std::logic_error("distributed::exchange: rank " + std::to_string(comm.rank()) +
                                   "'s transfer to itself has no matching receive");
        for (const ExchangedArray &a : arrays)
            SC_CUDA_CHECK(cudaMemcpyAsync(static_cast<char *>(a.receive) + self_receive->offset * a.element_bytes,
                                          static_cast<const char *>(a.send) + send.offset * a.element_bytes,
                                          send.count * a.element_bytes, cudaMemcpyDeviceToDevice, stream));
    }
    SC_NCCL_CHECK(ncclGroupStart());
    try {
        for (const ExchangedArray &a : arrays) {
            for (const Transfer &send : sends)
                if (send.peer != comm.rank())
                    SC_NCCL_CHECK(ncclSend(static_cast<const char *>(a.send) + send.offset * a.element_bytes,
                                           send.count * a.element_bytes, ncclUint8, send.peer, comm.get(), stream));
            for (const Transfer &receive : receives)
                if (receive.peer != comm.rank())
                    SC_NCCL_CHECK(ncclRecv(static_cast<char *>(a.receive) + receive.offset * a.element_bytes,
                                           receive.count * a.element_bytes, ncclUint8, receive.peer, comm.get(),
                                           stream));
        }
    } catch (...) {
        ncclGroupEnd();  // close the group before reporting; its own error is secondary
        throw;
    }
    SC_NCCL_CHECK(ncclGroupEnd());
}

}  // namespace distributed
}  // namespace StreamCompaction
