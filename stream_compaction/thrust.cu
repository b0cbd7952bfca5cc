#include <stream_compaction/thrust.h>
#include <stream_compaction/support/nvtx.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/system/system_error.h>

namespace StreamCompaction {
namespace Thrust {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// Serves thrust's temporary allocation from the caller's storage, sized by CUB's own query (thrust
// scans through CUB), so the timed scan allocates nothing. A request that does not fit still gets
// memory, from cudaMalloc, so a mismatch costs time, never correctness.
class ScratchAllocator {
public:
    using value_type = char;
    ScratchAllocator(void *storage, std::size_t bytes) : storage_(static_cast<char *>(storage)), bytes_(bytes) {}
    char *allocate(std::ptrdiff_t bytes) {
        if (!inUse_ && static_cast<std::size_t>(bytes) <= bytes_) {
            inUse_ = true;
            return storage_;
        }
        void *fallback = nullptr;
        SC_CUDA_CHECK(cudaMalloc(&fallback, bytes));
        return static_cast<char *>(fallback);
    }
    void deallocate(char *p, std::size_t) noexcept {
        if (p == storage_) inUse_ = false;
        else cudaFree(p);
    }

private:
    char *storage_;
    std::size_t bytes_;
    bool inUse_ = false;
};

std::size_t scan_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), n));
    return bytes;
}

void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
    SC_NVTX_RANGE("Thrust::exclusive_scan");
    require_device_pointers("Thrust::exclusive_scan", n, d_in, d_out);
    if (n == 0) return;
    require_temp_storage("Thrust::exclusive_scan", d_temp, temp_bytes, scan_temp_bytes(n));
    ScratchAllocator allocator(d_temp, temp_bytes);
    try {
        thrust::exclusive_scan(thrust::cuda::par_nosync(allocator).on(stream), d_in, d_in + n, d_out);
    } catch (const thrust::system_error &e) {
        throw_cuda_error(static_cast<cudaError_t>(e.code().value()), "thrust::exclusive_scan", __FILE__, __LINE__);
    }
    SC_CHECK_LAUNCH(thrust::exclusive_scan);
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Thrust::scan", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    Common::timeGpu(timer(), [&] { exclusive_scan(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    out.copy_to_host(odata, n);
}

}  // namespace Thrust
}  // namespace StreamCompaction
