#pragma once
// What every distributed primitive shares: NCCL error checks, the caller's communicator as the
// primitives see it, NCCL's name of each element type, and the per-rank scratch memory.
//
// The caller creates and owns the ncclComm_t (one rank per GPU: ncclCommInitAll in one process,
// ncclCommInitRank from an ncclUniqueId shared through a file or MPI_Bcast; docs/usage.md, "Distributed
// (NCCL)"), calls every primitive on every rank with that rank's device current, and orders the
// calls the same way on every rank (they are collective). Nothing here creates or destroys a
// communicator, or launches a process.
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace StreamCompaction {
namespace distributed {

class nccl_error : public std::runtime_error {
public:
    // what(): "NCCL error (file:line): call: <ncclGetErrorString> (<code>)"
    nccl_error(ncclResult_t code, const char *call, const char *file, int line);
    ncclResult_t code() const noexcept { return code_; }

private:
    ncclResult_t code_;
};

[[noreturn]] void throw_nccl_error(ncclResult_t code, const char *call, const char *file, int line);

}  // namespace distributed
}  // namespace StreamCompaction

#define SC_NCCL_CHECK(call)                                                                      \
    do {                                                                                         \
        const ncclResult_t sc_nccl_status_ = (call);                                             \
        if (sc_nccl_status_ != ncclSuccess)                                                      \
            ::StreamCompaction::distributed::throw_nccl_error(sc_nccl_status_, #call, __FILE__,  \
                                                              __LINE__);                         \
    } while (0)

namespace StreamCompaction {
namespace distributed {

// A view of the caller's communicator: its rank, size and CUDA device, asked of NCCL once.
class Communicator {
public:
    explicit Communicator(ncclComm_t comm);

    ncclComm_t get() const noexcept { return comm_; }
    int rank() const noexcept { return rank_; }
    int ranks() const noexcept { return ranks_; }
    int device() const noexcept { return device_; }

    // Throws std::logic_error naming `operation` unless the current CUDA device is the
    // communicator's: work enqueued on another device's stream would never meet its peers.
    void require_current_device(const char *operation) const;

private:
    ncclComm_t comm_;
    int rank_ = 0, ranks_ = 0, device_ = 0;
};

// The primitives that wait on the host for all-gathered counts, which a capture cannot hold,
// refuse a capturing stream before anything is enqueued (support/device_api.h).
inline void require_not_capturing(const char *operation, cudaStream_t stream) {
    StreamCompaction::require_not_capturing(operation, stream, "the ranks' all-gathered counts");
}

// NCCL's data type of T (the types the primitives are instantiated for).
template <class T>
ncclDataType_t nccl_type();
template <> inline ncclDataType_t nccl_type<std::int32_t>() { return ncclInt32; }
template <> inline ncclDataType_t nccl_type<std::int64_t>() { return ncclInt64; }
template <> inline ncclDataType_t nccl_type<std::uint64_t>() { return ncclUint64; }
template <> inline ncclDataType_t nccl_type<float>() { return ncclFloat32; }
template <> inline ncclDataType_t nccl_type<double>() { return ncclFloat64; }

// One rank's scratch memory, reused from call to call: a few device buffers (slots) and one pinned
// host buffer for the small numbers the host must read (counts, totals, samples). Each grows when
// a call needs more (cudaMalloc, which the steady state avoids by reusing the Workspace) and never
// shrinks. A Workspace serves one call at a time, on the device it was first used on.
class Workspace {
public:
    static constexpr int kSlots = 4;

    Workspace() = default;
    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    // Device storage of at least `bytes` in slot `slot`. Growing it frees the old storage first
    // (cudaFree waits for the device), so whatever the slot held is gone.
    void *device(int slot, std::size_t bytes);
    // Pinned host storage of at least `bytes`; growing it waits for the device first.
    void *host(std::size_t bytes);

    // Bytes held on the device, all slots together.
    std::size_t device_bytes() const noexcept;

private:
    DeviceBuffer<char> slots_[kSlots];
    void *host_ = nullptr;
    std::size_t host_bytes_ = 0;
};

}  // namespace distributed
}  // namespace StreamCompaction
