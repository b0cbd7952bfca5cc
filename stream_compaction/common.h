#pragma once
// The course's shared pieces: error macro, integer logs, the map and scatter kernels of compaction,
// and the timer every implementation exposes through its timer().
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#define FILENAME (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)
// On a pending CUDA error prints "CUDA error (file:line): msg: <error string>" and exits non-zero.
#define checkCUDAError(msg) checkCUDAErrorFn(msg, FILENAME, __LINE__)

void checkCUDAErrorFn(const char *msg, const char *file = nullptr, int line = -1);

// floor(log2(x)) for x >= 1; 0 for x < 1.
inline int ilog2(int x) {
    int lg = 0;
    for (unsigned u = x > 0 ? static_cast<unsigned>(x) : 0u; u > 1; u >>= 1) ++lg;
    return lg;
}

// ceil(log2(x)) for x >= 1; 0 for x < 1.
inline int ilog2ceil(int x) { return x <= 1 ? 0 : ilog2(x - 1) + 1; }

namespace StreamCompaction {
namespace Common {

// bools[i] = (idata[i] != 0) for i < n.
__global__ void kernMapToBoolean(int n, int *bools, const int *idata);

// odata[indices[i]] = idata[i] where bools[i] != 0, for i < n.
__global__ void kernScatter(int n, int *odata, const int *idata, const int *bools, const int *indices);

// Throws std::invalid_argument for n < 0, or for a null pointer when n > 0.
void checkHostArgs(const char *operation, int n, const void *odata, const void *idata);

// Wall-clock timer for CPU work, CUDA-event timer for GPU work (legacy default stream), in ms.
// Starting a timer twice, or ending one never started, throws std::runtime_error.
// completedCpuTimings() / completedGpuTimings() count the end*Timer calls that stored an elapsed
// time: an elapsed time can be 0 at small n, so "was this operation timed" is asked of the count
// (one more after the operation than before), never of the time. A start without its end, an
// abandoned timing or a throwing end leave the count unchanged.
class PerformanceTimer {
public:
    PerformanceTimer() = default;
    ~PerformanceTimer();
    PerformanceTimer(const PerformanceTimer &) = delete;
    PerformanceTimer &operator=(const PerformanceTimer &) = delete;

    void startCpuTimer();
    void endCpuTimer();
    void startGpuTimer();
    void endGpuTimer();
    // Forgets a started GPU timing without reading it: used when the timed work threw.
    void abandonGpuTimer() noexcept { gpuTimerStarted = false; }

    float getCpuElapsedTimeForPreviousOperation() const noexcept { return prevElapsedCpuMs; }
    float getGpuElapsedTimeForPreviousOperation() const noexcept { return prevElapsedGpuMs; }
    std::uint64_t completedCpuTimings() const noexcept { return cpuTimingsCompleted; }
    std::uint64_t completedGpuTimings() const noexcept { return gpuTimingsCompleted; }

private:
    using Clock = std::chrono::high_resolution_clock;
    Clock::time_point cpuStart;
    cudaEvent_t eventStart = nullptr;  // created on first GPU use, so CPU-only runs need no device
    cudaEvent_t eventEnd = nullptr;
    bool cpuTimerStarted = false;
    bool gpuTimerStarted = false;
    float prevElapsedCpuMs = 0.0f;
    float prevElapsedGpuMs = 0.0f;
    std::uint64_t cpuTimingsCompleted = 0;
    std::uint64_t gpuTimingsCompleted = 0;
};

// Times `work` (which launches GPU work) with `timer`; the timer is usable again if `work` throws.
template <class Work>
void timeGpu(PerformanceTimer &timer, Work &&work) {
    timer.startGpuTimer();
    try {
        work();
    } catch (...) {
        timer.abandonGpuTimer();
        throw;
    }
    timer.endGpuTimer();
}

}  // namespace Common
}  // namespace StreamCompaction
