#include <stream_compaction/detail/host/launch.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace StreamCompaction {
namespace detail {
namespace {

struct KernelLimits {
    int max_threads;            // the kernel's own bound (launch bounds, registers)
    std::size_t static_shared;  // bytes of __shared__ declarations
    std::size_t shared_optin;   // the device's largest shared memory per block, opted in
    std::size_t opted_in;       // dynamic shared memory the kernel may use so far (48 KiB less static at first)
    int ptx_version;            // the virtual architecture it was compiled for, major * 10 + minor
};

// Kernels are looked up per device: a process may drive GPUs of different kinds.
std::mutex limits_mutex;
std::map<std::pair<int, const void *>, KernelLimits> limits_cache;

KernelLimits query_limits(const void *kernel, int device) {
    cudaFuncAttributes attributes{};
    SC_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    int optin = 0;
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return {attributes.maxThreadsPerBlock, attributes.sharedSizeBytes, static_cast<std::size_t>(optin),
            48 * 1024 - attributes.sharedSizeBytes, attributes.ptxVersion};
}

// Resident grids by device, kernel, threads and dynamic shared memory.
std::mutex grids_mutex;
std::map<std::tuple<int, const void *, int, std::size_t>, unsigned> grids_cache;

// The current device's limits of `kernel`, looked up on first use; the caller holds limits_mutex.
KernelLimits &limits_of(const void *kernel) {
    int device = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    auto found = limits_cache.find({device, kernel});
    if (found == limits_cache.end()) found = limits_cache.emplace(std::make_pair(device, kernel), query_limits(kernel, device)).first;
    return found->second;
}

// prepare_launch's checks; the caller holds limits_mutex.
KernelLimits &checked_limits(const void *kernel, const char *name, int threads, std::size_t dynamic_shared_bytes) {
    KernelLimits &limits = limits_of(kernel);

    if (threads <= 0 || threads > limits.max_threads)
        throw std::invalid_argument(std::string(name) + ": block size " + std::to_string(threads) +
                                    " is over this kernel's limit of " + std::to_string(limits.max_threads) +
                                    " threads (its registers per thread); use a smaller block size");
    const std::size_t shared = limits.static_shared + dynamic_shared_bytes;
    if (shared > limits.shared_optin)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(shared) + " bytes of shared memory per block (" +
                                    std::to_string(threads) + " threads) are over the device's limit of " +
                                    std::to_string(limits.shared_optin) + " bytes; use a smaller block size");
    if (dynamic_shared_bytes > limits.opted_in) {
        SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(dynamic_shared_bytes)));
        limits.opted_in = dynamic_shared_bytes;
    }
    return limits;
}

}  // namespace

void prepare_launch(const void *kernel, const char *name, int threads, std::size_t dynamic_shared_bytes) {
    std::lock_guard<std::mutex> lock(limits_mutex);
    checked_limits(kernel, name, threads, dynamic_shared_bytes);
}

bool kernel_compiled_for_sm90(const void *kernel) {
    std::lock_guard<std::mutex> lock(limits_mutex);
    return limits_of(kernel).ptx_version >= 90;
}

unsigned resident_grid(const void *kernel, const char *name, int threads, std::size_t dynamic_shared_bytes) {
    prepare_launch(kernel, name, threads, dynamic_shared_bytes);
    int device = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    const auto key = std::make_tuple(device, kernel, threads, dynamic_shared_bytes);
    std::lock_guard<std::mutex> lock(grids_mutex);
    const auto found = grids_cache.find(key);
    if (found != grids_cache.end()) return found->second;
    int per_sm = 0, sms = 0;
    SC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared_bytes));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned grid = static_cast<unsigned>(per_sm > 0 ? per_sm : 1) * static_cast<unsigned>(sms > 0 ? sms : 1);
    grids_cache.emplace(key, grid);
    return grid;
}

}  // namespace detail
}  // namespace StreamCompaction
