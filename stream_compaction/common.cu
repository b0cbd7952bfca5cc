#include <stream_compaction/common.h>

#include <stream_compaction/support/cuda_check.h>

#include <cstdio>
#include <cstdlib>
#include <string>

void checkCUDAErrorFn(const char *msg, const char *file, int line) {
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "CUDA error");
    if (file) std::fprintf(stderr, " (%s:%d)", file, line);
    std::fprintf(stderr, ": %s: %s\n", msg, cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
}

namespace StreamCompaction {
namespace Common {

__global__ void kernMapToBoolean(int n, int *bools, const int *idata) {
    // Unsigned: for n near INT_MAX the last block's indices exceed INT_MAX.
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= static_cast<unsigned>(n)) return;
    bools[i] = idata[i] != 0;
}

__global__ void kernScatter(int n, int *odata, const int *idata, const int *bools, const int *indices) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= static_cast<unsigned>(n)) return;
    if (bools[i]) odata[indices[i]] = idata[i];
}

void checkHostArgs(const char *operation, int n, const void *odata, const void *idata) {
    if (n < 0)
        throw std::invalid_argument(std::string(operation) + ": n must be >= 0, got " + std::to_string(n));
    if (n > 0 && (odata == nullptr || idata == nullptr))
        throw std::invalid_argument(std::string(operation) + ": null pointer with n = " + std::to_string(n));
}

PerformanceTimer::~PerformanceTimer() {
    if (eventStart) cudaEventDestroy(eventStart);
    if (eventEnd) cudaEventDestroy(eventEnd);
}

void PerformanceTimer::startCpuTimer() {
    if (cpuTimerStarted) throw std::runtime_error("PerformanceTimer: CPU timer already started");
    cpuTimerStarted = true;
    cpuStart = Clock::now();
}

void PerformanceTimer::endCpuTimer() {
    const Clock::time_point end = Clock::now();
    if (!cpuTimerStarted) throw std::runtime_error("PerformanceTimer: CPU timer not started");
    cpuTimerStarted = false;
    prevElapsedCpuMs = std::chrono::duration<float, std::milli>(end - cpuStart).count();
    ++cpuTimingsCompleted;
}

void PerformanceTimer::startGpuTimer() {
    if (gpuTimerStarted) throw std::runtime_error("PerformanceTimer: GPU timer already started");
    if (!eventStart) {
        SC_CUDA_CHECK(cudaEventCreate(&eventStart));
        SC_CUDA_CHECK(cudaEventCreate(&eventEnd));
    }
    SC_CUDA_CHECK(cudaEventRecord(eventStart));
    gpuTimerStarted = true;
}

void PerformanceTimer::endGpuTimer() {
    if (!gpuTimerStarted) throw std::runtime_error("PerformanceTimer: GPU timer not started");
    gpuTimerStarted = false;
    SC_CUDA_CHECK(cudaEventRecord(eventEnd));
    SC_CUDA_CHECK(cudaEventSynchronize(eventEnd));
    SC_CUDA_CHECK(cudaEventElapsedTime(&prevElapsedGpuMs, eventStart, eventEnd));
    ++gpuTimingsCompleted;  // after the checks: a failed read is no timing
}

}  // namespace Common
}  // namespace StreamCompaction
