#include <stream_compaction/distributed/communicator.h>

#include <stream_compaction/support/cuda_check.h>

#include <string>

namespace StreamCompaction {
namespace distributed {

static std::string describe(ncclResult_t code, const char *call, const char *file, int line) {
    return std::string("NCCL error (") + file + ":" + std::to_string(line) + "): " + call + ": " +
           ncclGetErrorString(code) + " (" + std::to_string(static_cast<int>(code)) + ")";
}

nccl_error::nccl_error(ncclResult_t code, const char *call, const char *file, int line)
    : std::runtime_error(describe(code, call, file, line)), code_(code) {}

void throw_nccl_error(ncclResult_t code, const char *call, const char *file, int line) {
    throw nccl_error(code, call, file, line);
}

Communicator::Communicator(ncclComm_t comm) : comm_(comm) {
    if (comm == nullptr) throw std::invalid_argument("distributed::Communicator: null ncclComm_t");
    SC_NCCL_CHECK(ncclCommUserRank(comm, &rank_));
    SC_NCCL_CHECK(ncclCommCount(comm, &ranks_));
    SC_NCCL_CHECK(ncclCommCuDevice(comm, &device_));
}

void Communicator::require_current_device(const char *operation) const {
    int current = -1;
    SC_CUDA_CHECK(cudaGetDevice(&current));
    if (current != device_)
        throw std::logic_error(std::string(operation) + ": rank " + std::to_string(rank_) + "'s communicator is on device " +
                               std::to_string(device_) + " but device " + std::to_string(current) +
                               " is current (cudaSetDevice first)");
}


Workspace::~Workspace() {
    if (host_ != nullptr) cudaFreeHost(host_);  // no throw from a destructor
}

void *Workspace::device(int slot, std::size_t bytes) {
    if (slot < 0 || slot >= kSlots)
        throw std::invalid_argument("distributed::Workspace: slot " + std::to_string(slot) + " of " +
                                    std::to_string(kSlots));
    DeviceBuffer<char> &buffer = slots_[slot];
    if (buffer.size() < bytes) {
        buffer = DeviceBuffer<char>();  // free first: the old and the new need not fit together
        buffer = DeviceBuffer<char>(bytes);
    }
    return buffer.get();
}

void *Workspace::host(std::size_t bytes) {
    if (host_bytes_ < bytes) {
        if (host_ != nullptr) {
            SC_CUDA_CHECK(cudaDeviceSynchronize());  // no copy into the old buffer may be in flight
            SC_CUDA_CHECK(cudaFreeHost(host_));
            host_ = nullptr;
            host_bytes_ = 0;
        }
        SC_CUDA_CHECK(cudaMallocHost(&host_, bytes));
        host_bytes_ = bytes;
    }
    return host_;
}

std::size_t Workspace::device_bytes() const noexcept {
    std::size_t total = 0;
    for (const DeviceBuffer<char> &slot : slots_) total += slot.size();
    return total;
}

}  // namespace distributed
}  // namespace StreamCompaction
