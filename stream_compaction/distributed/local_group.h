#pragma once
// One process, one rank per visible GPU: the communicators of ncclCommInitAll, owned, and one host
// thread per rank to drive them. For tests, benchmarks and programs on one machine; several
// processes or machines create their communicator with ncclCommInitRank from a shared ncclUniqueId
// (a file, MPI_Bcast: docs/usage.md, "Distributed (NCCL)") and call the primitives the same way.
//
// The distributed primitives wait on the host for small all-gathered numbers, so the ranks of one
// process need a host thread each: run() gives them that.
#include <nccl.h>

#include <functional>
#include <vector>

namespace StreamCompaction {
namespace distributed {

class LocalGroup {
public:
    // Ranks on devices 0 .. gpus - 1 (gpus = 0: every visible device). Throws cuda_error /
    // nccl_error when CUDA or NCCL cannot start, std::invalid_argument for more GPUs than visible.
    explicit LocalGroup(int gpus = 0);
    ~LocalGroup();
    LocalGroup(const LocalGroup &) = delete;
    LocalGroup &operator=(const LocalGroup &) = delete;

    int size() const noexcept { return static_cast<int>(comms_.size()); }
    int device(int rank) const { return devices_.at(rank); }
    ncclComm_t comm(int rank) const { return comms_.at(rank); }

    // Runs body(rank) on one host thread per rank, each with its rank's device current, and returns
    // when all have. An exception on one rank leaves its peers waiting in their next collective:
    // after `grace_seconds` the communicators are aborted (ncclCommAbort), so that the peers fail
    // too instead of hanging, and the group cannot be used again. Rethrows the first exception.
    void run(const std::function<void(int rank)> &body, double grace_seconds = 30.0);

private:
    std::vector<int> devices_;
    std::vector<ncclComm_t> comms_;
    bool aborted_ = false;
};

}  // namespace distributed
}  // namespace StreamCompaction
