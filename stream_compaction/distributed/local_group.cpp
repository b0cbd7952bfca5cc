#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/distributed/local_group.h>

#include <stream_compaction/support/cuda_check.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace StreamCompaction {
namespace distributed {

LocalGroup::LocalGroup(int gpus) {
    int visible = 0;
    SC_CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (gpus < 0 || gpus > visible)
        throw std::invalid_argument("distributed::LocalGroup: " + std::to_string(gpus) + " GPUs asked for, " +
                                    std::to_string(visible) + " visible");
    const int count = gpus == 0 ? visible : gpus;
    for (int d = 0; d < count; ++d) devices_.push_back(d);
    comms_.assign(count, nullptr);
    SC_NCCL_CHECK(ncclCommInitAll(comms_.data(), count, devices_.data()));
}

LocalGroup::~LocalGroup() {
    for (ncclComm_t comm : comms_) {
        if (comm == nullptr || aborted_) continue;
        const ncclResult_t status = ncclCommDestroy(comm);
        if (status != ncclSuccess)  // no throw from a destructor: say so instead
            std::fprintf(stderr, "distributed::LocalGroup: ncclCommDestroy: %s\n", ncclGetErrorString(status));
    }
}

void LocalGroup::run(const std::function<void(int rank)> &body, double grace_seconds) {
    if (aborted_) throw std::logic_error("distributed::LocalGroup: aborted after an earlier failure");
    std::mutex mutex;
    std::condition_variable changed;
    int finished = 0;
    std::exception_ptr first_error;
    std::vector<std::thread> threads;
    for (int rank = 0; rank < size(); ++rank)
        threads.emplace_back([&, rank] {
            std::exception_ptr error;
            try {
                SC_CUDA_CHECK(cudaSetDevice(devices_[rank]));
                body(rank);
            } catch (...) {
                error = std::current_exception();
            }
            const std::lock_guard<std::mutex> lock(mutex);
            if (error && !first_error) first_error = error;
            ++finished;
            changed.notify_all();
        });
    {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return finished == size() || first_error; });
        if (first_error &&
            !changed.wait_for(lock, std::chrono::duration<double>(grace_seconds), [&] { return finished == size(); })) {
            // Peers still wait for the rank that failed: abort, so that their calls return.
            for (ncclComm_t comm : comms_) {
                const ncclResult_t status = ncclCommAbort(comm);
                if (status != ncclSuccess)  // the error being reported is the rank's, rethrown below
                    std::fprintf(stderr, "distributed::LocalGroup: ncclCommAbort: %s\n", ncclGetErrorString(status));
            }
            aborted_ = true;
        }
    }
    for (std::thread &t : threads) t.join();
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace distributed
}  // namespace StreamCompaction
